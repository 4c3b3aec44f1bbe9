// Ollama v0.33.0-rc2's server/model.go.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"

	"github.com/ollama/ollama/api"
	"github.com/ollama/ollama/fs/ggml"
	"github.com/ollama/ollama/manifest"
	"github.com/ollama/ollama/template"
	"github.com/ollama/ollama/types/model"
)

// From ollama server/model.go:23-32 (v0.33.0-rc2), verbatim.
type layerGGML struct {
	manifest.Layer
	*ggml.GGML
	// rewriteForCreate marks GGUF model layers that came from user-supplied
	// files or safetensors conversion. Text-only GGUFs are validated with
	// llama-quantize. GGUFs with embedded compatibility tensors stay in their
	// existing layout so create does not drop tensors needed by the patch.
	rewriteForCreate bool
	splitParts       []splitGGUFPart
}

// From ollama server/model.go:34-38 (v0.33.0-rc2), verbatim.
type splitGGUFPart struct {
	Digest string
	Name   string
	GGML   *ggml.GGML
}

// From ollama server/model.go:40-91 (v0.33.0-rc2), verbatim.
func parseFromModel(ctx context.Context, name model.Name, fn func(api.ProgressResponse)) (layers []*layerGGML, err error) {
	m, err := manifest.ParseNamedManifest(name)
	switch {
	case errors.Is(err, os.ErrNotExist):
		if err := PullModel(ctx, name.String(), &registryOptions{}, fn); err != nil {
			return nil, err
		}

		m, err = manifest.ParseNamedManifest(name)
		if err != nil {
			return nil, err
		}
	case err != nil:
		return nil, err
	}

	for _, srcLayer := range m.Layers {
		layer, err := manifest.NewLayerFromLayer(srcLayer.Digest, srcLayer.MediaType, name.DisplayShortest())
		if err != nil {
			return nil, err
		}
		layer.Name = srcLayer.Name

		switch layer.MediaType {
		case "application/vnd.ollama.image.model",
			"application/vnd.ollama.image.projector",
			"application/vnd.ollama.image.adapter",
			manifest.MediaTypeImageDraft:
			blobpath, err := manifest.BlobsPath(layer.Digest)
			if err != nil {
				return nil, err
			}

			blob, err := os.Open(blobpath)
			if err != nil {
				return nil, err
			}
			defer blob.Close()

			f, err := ggml.Decode(blob, -1)
			if err != nil {
				return nil, err
			}

			layers = append(layers, &layerGGML{Layer: layer, GGML: f})
		default:
			layers = append(layers, &layerGGML{Layer: layer})
		}
	}

	return layers, nil
}

// From ollama server/model.go:93-125 (v0.33.0-rc2), verbatim.
func detectChatTemplate(layers []*layerGGML) ([]*layerGGML, error) {
	for _, layer := range layers {
		if s := layer.GGML.KV().ChatTemplate(); s != "" {
			if t, err := template.Named(s); err != nil {
				slog.Debug("template detection", "error", err, "template", s)
			} else {
				layer, err := manifest.NewLayer(t.Reader(), "application/vnd.ollama.image.template")
				if err != nil {
					return nil, err
				}

				layer.Status = fmt.Sprintf("using autodetected template %s", t.Name)
				layers = append(layers, &layerGGML{Layer: layer})

				if t.Parameters != nil {
					var b bytes.Buffer
					if err := json.NewEncoder(&b).Encode(t.Parameters); err != nil {
						return nil, err
					}

					layer, err := manifest.NewLayer(&b, "application/vnd.ollama.image.params")
					if err != nil {
						return nil, err
					}

					layers = append(layers, &layerGGML{Layer: layer})
				}
			}
		}
	}

	return layers, nil
}

// From ollama server/model.go:127-142 (v0.33.0-rc2), verbatim.
func detectContentType(r io.Reader) (string, error) {
	var b bytes.Buffer
	if _, err := io.Copy(&b, r); err != nil {
		return "", err
	}

	if contentType := ggml.DetectContentType(b.Bytes()); contentType != "" {
		return contentType, nil
	}

	if contentType := http.DetectContentType(b.Bytes()); contentType != "application/octet-stream" {
		return contentType, nil
	}

	return "unknown", nil
}

// From ollama server/images.go:55-62 (v0.33.0-rc2), verbatim.
type registryOptions struct {
	Insecure bool
	Username string
	Password string
	Token    string

	CheckRedirect func(req *http.Request, via []*http.Request) error
}

// PullModel (server/images.go:998-1126) pulls from a registry; parseFromModel
// calls it only for a FROM model that is not in the store, which the
// recorder never asks for.
func PullModel(ctx context.Context, name string, regOpts *registryOptions, fn func(api.ProgressResponse)) error {
	return fmt.Errorf("pull %s: the recorder does not pull", name)
}
