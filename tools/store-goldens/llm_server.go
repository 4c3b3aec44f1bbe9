// Ollama v0.33.0-rc2's llm.LoadModel. The llm package does not build
// offline (golang.org/x/image, llama-server), so getModelData's
// llm.LoadModel reaches this copy through the llm variable below.
package main

import (
	"os"

	"github.com/ollama/ollama/fs/ggml"
)

var llm = struct {
	LoadModel func(model string, maxArraySize int) (*ggml.GGML, error)
}{LoadModel: LoadModel}

// From ollama llm/server.go:92-104 (v0.33.0-rc2), verbatim.
func LoadModel(model string, maxArraySize int) (*ggml.GGML, error) {
	if _, err := os.Stat(model); err != nil {
		return nil, err
	}

	f, err := os.Open(model)
	if err != nil {
		return nil, err
	}
	defer f.Close()

	return ggml.Decode(f, maxArraySize)
}
