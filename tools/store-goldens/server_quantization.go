// Ollama v0.33.0-rc2's server/quantization.go, the parts create uses.
package main

import (
	"fmt"
	"io"
	"log/slog"
	"maps"
	"os"
	"path/filepath"

	fsggml "github.com/ollama/ollama/fs/ggml"
	"github.com/ollama/ollama/manifest"
)

// From ollama server/quantization.go:31 (v0.33.0-rc2), adapted: the
// variable is declared without its value, runLlamaQuantizeCommand, which
// runs llama.cpp's llama-quantize binary (not available offline). The
// init below, from Ollama's own tests, sets it to copyLlamaQuantizeInput,
// so the "COPY" validation pass that createModel makes over every model
// GGUF (server/create.go:942-950) stores the file byte for byte, where a
// real server stores the GGUF llama-quantize writes (its own
// serialisation of the header, so another digest and size).
var runLlamaQuantize func(in, out *os.File, orig *fsggml.GGML, newFileType fsggml.FileType, typeName string, progressFn func(n uint64)) error

// From ollama server/quantization_stub_test.go:10-30 (v0.33.0-rc2), verbatim.
func init() {
	runLlamaQuantize = copyLlamaQuantizeInput
}

func copyLlamaQuantizeInput(in, out *os.File, _ *fsggml.GGML, _ fsggml.FileType, _ string, _ func(uint64)) error {
	if _, err := in.Seek(0, io.SeekStart); err != nil {
		return err
	}
	if _, err := out.Seek(0, io.SeekStart); err != nil {
		return err
	}
	if err := out.Truncate(0); err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		return err
	}
	_, err := out.Seek(0, io.SeekStart)
	return err
}

// From ollama server/quantization.go:33-116 (v0.33.0-rc2), verbatim.
// quantize re-quantizes a GGUF model by shelling out to llama-quantize.
// Embedded compatibility tensors are restored afterward because llama.cpp's
// text model loader intentionally does not claim those tensors.
func quantize(in, out *os.File, orig *fsggml.GGML, newFileType fsggml.FileType, progressFn func(n uint64)) error {
	typeName := newFileType.String()
	if typeName == "" {
		return fmt.Errorf("unsupported quantization type: %v", newFileType)
	}
	if err := runLlamaQuantize(in, out, orig, newFileType, typeName, progressFn); err != nil {
		return err
	}
	if hasEmbeddedCompatibilityTensors(orig) {
		if err := restoreEmbeddedCompatibilityTensors(in, out, orig, newFileType); err != nil {
			return fmt.Errorf("failed to restore embedded compatibility tensors: %w", err)
		}
	}
	return nil
}

func copyGGUFWithLlamaQuantize(in, out *os.File, orig *fsggml.GGML, progressFn func(n uint64)) error {
	return runLlamaQuantize(in, out, orig, orig.KV().FileType(), "COPY", progressFn)
}

func needsDefaultLlavaProjectorType(ggml *fsggml.GGML) bool {
	kv := ggml.KV()
	if kv.Architecture() != "clip" || !kv.Bool("has_vision_encoder") {
		return false
	}
	if _, ok := kv["clip.projector_type"]; ok {
		return false
	}
	if _, ok := kv["clip.vision.projector_type"]; ok {
		return false
	}
	return true
}

func addDefaultLlavaProjectorType(layer *layerGGML) (*layerGGML, error) {
	blob, err := manifest.BlobsPath(layer.Digest)
	if err != nil {
		return nil, err
	}
	fp, err := os.Open(blob)
	if err != nil {
		return nil, err
	}
	defer fp.Close()

	temp, err := os.CreateTemp(filepath.Dir(blob), "projector-metadata")
	if err != nil {
		return nil, err
	}
	defer os.Remove(temp.Name())
	defer temp.Close()

	kv := maps.Clone(layer.GGML.KV())
	kv["clip.projector_type"] = "mlp"

	tensors := make([]*fsggml.Tensor, 0, len(layer.GGML.Tensors().Items()))
	for _, tensor := range layer.GGML.Tensors().Items() {
		tensors = append(tensors, tensorFromFile(fp, layer.GGML.Tensors().Offset+tensor.Offset, tensor))
	}

	if err := fsggml.WriteGGUF(temp, kv, tensors); err != nil {
		return nil, err
	}
	if _, err := temp.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}

	newLayer, err := manifest.NewLayer(temp, layer.MediaType)
	if err != nil {
		return nil, err
	}
	if _, err := temp.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	f, err := fsggml.Decode(temp, 1024)
	if err != nil {
		return nil, err
	}

	return &layerGGML{Layer: newLayer, GGML: f}, nil
}

// From ollama server/quantization.go:198-280 (v0.33.0-rc2), verbatim.
type tensorSection struct {
	*io.SectionReader
}

func (r tensorSection) WriteTo(w io.Writer) (int64, error) {
	return io.Copy(w, r.SectionReader)
}

func restoreEmbeddedCompatibilityTensors(in, out *os.File, orig *fsggml.GGML, newFileType fsggml.FileType) error {
	if _, err := out.Seek(0, io.SeekStart); err != nil {
		return err
	}

	rewritten, err := fsggml.Decode(out, -1)
	if err != nil {
		return err
	}

	kv := maps.Clone(orig.KV())
	kv["general.file_type"] = newFileType

	present := map[string]struct{}{}
	tensors := make([]*fsggml.Tensor, 0, len(rewritten.Tensors().Items()))
	for _, tensor := range rewritten.Tensors().Items() {
		if isEmbeddedCompatibilityTensor(tensor.Name) {
			continue
		}
		present[tensor.Name] = struct{}{}
		tensors = append(tensors, tensorFromFile(out, rewritten.Tensors().Offset+tensor.Offset, tensor))
	}

	var restored int
	for _, tensor := range orig.Tensors().Items() {
		if !isEmbeddedCompatibilityTensor(tensor.Name) {
			continue
		}
		if _, ok := present[tensor.Name]; ok {
			continue
		}
		tensors = append(tensors, tensorFromFile(in, orig.Tensors().Offset+tensor.Offset, tensor))
		restored++
	}
	if restored == 0 {
		return nil
	}

	temp, err := os.CreateTemp(filepath.Dir(out.Name()), "compat-tensors")
	if err != nil {
		return err
	}
	defer os.Remove(temp.Name())
	defer temp.Close()

	if err := fsggml.WriteGGUF(temp, kv, tensors); err != nil {
		return err
	}
	if _, err := temp.Seek(0, io.SeekStart); err != nil {
		return err
	}
	if err := out.Truncate(0); err != nil {
		return err
	}
	if _, err := out.Seek(0, io.SeekStart); err != nil {
		return err
	}
	if _, err := io.Copy(out, temp); err != nil {
		return err
	}

	slog.Info("restored embedded compatibility tensors after llama-quantize", "count", restored)
	return nil
}

func tensorFromFile(file *os.File, offset uint64, tensor *fsggml.Tensor) *fsggml.Tensor {
	return &fsggml.Tensor{
		Name:  tensor.Name,
		Kind:  tensor.Kind,
		Shape: append([]uint64(nil), tensor.Shape...),
		WriterTo: tensorSection{
			SectionReader: io.NewSectionReader(file, int64(offset), int64(tensor.Size())),
		},
	}
}
