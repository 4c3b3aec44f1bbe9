// Ollama v0.33.0-rc2's server/model_show_cache.go: the local side of the
// /api/show cache, which ShowHandler goes through for a request without
// System or Options (a fresh server's cache is empty, so the answer is
// GetModelInfo's, cloned).
package main

import (
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/ollama/ollama/api"
	"github.com/ollama/ollama/manifest"
	"github.com/ollama/ollama/types/model"
)

// From ollama server/model_show_cache.go:66-78 (v0.33.0-rc2), verbatim.
type modelShowCache struct {
	mu sync.RWMutex

	local map[modelShowLocalKey]modelShowLocalEntry
	cloud map[modelShowCloudKey]*api.ShowResponse

	cloudRefreshing           map[modelShowCloudKey]bool
	cloudNextReadRefreshAfter map[modelShowCloudKey]time.Time

	once         sync.Once
	client       *http.Client
	getModelInfo func(api.ShowRequest) (*api.ShowResponse, error)
}

// From ollama server/model_show_cache.go:88-91 (v0.33.0-rc2), verbatim.
type modelShowLocalKey struct {
	Model   string
	Verbose bool
}

// From ollama server/model_show_cache.go:93-96 (v0.33.0-rc2), verbatim.
type modelShowLocalEntry struct {
	Digest   string
	Response *api.ShowResponse
}

// From ollama server/model_show_cache.go:100-103 (v0.33.0-rc2), verbatim.
type modelShowCloudKey struct {
	Model   string
	Verbose bool
}

// From ollama server/model_show_cache.go:105-114 (v0.33.0-rc2), verbatim.
func newModelShowCache() *modelShowCache {
	return &modelShowCache{
		local:                     make(map[modelShowLocalKey]modelShowLocalEntry),
		cloud:                     make(map[modelShowCloudKey]*api.ShowResponse),
		cloudRefreshing:           make(map[modelShowCloudKey]bool),
		cloudNextReadRefreshAfter: make(map[modelShowCloudKey]time.Time),
		client:                    http.DefaultClient,
		getModelInfo:              GetModelInfo,
	}
}

// From ollama server/model_show_cache.go:119-121 (v0.33.0-rc2), verbatim.
func modelShowCacheable(req api.ShowRequest) bool {
	return req.System == "" && len(req.Options) == 0
}

// From ollama server/model_show_cache.go:150-171 (v0.33.0-rc2), verbatim.
func (c *modelShowCache) GetLocal(req api.ShowRequest) (*api.ShowResponse, error) {
	key, digest, err := modelShowLocalKeyForRequest(req)
	if err != nil {
		return nil, err
	}

	if resp, ok := c.getLocal(key, digest); ok {
		return resp, nil
	}

	req.Model = key.Model
	resp, err := c.getModelInfo(req)
	if err != nil {
		return nil, err
	}

	if resp.RemoteHost == "" {
		c.setLocal(key, digest, resp)
	}

	return cloneShowResponse(resp), nil
}

// From ollama server/model_show_cache.go:187-195 (v0.33.0-rc2), verbatim.
func (c *modelShowCache) getLocal(key modelShowLocalKey, digest string) (*api.ShowResponse, bool) {
	c.mu.RLock()
	entry, ok := c.local[key]
	c.mu.RUnlock()
	if !ok || entry.Digest != digest || entry.Response == nil {
		return nil, false
	}
	return cloneShowResponse(entry.Response), true
}

// From ollama server/model_show_cache.go:197-204 (v0.33.0-rc2), verbatim.
func (c *modelShowCache) setLocal(key modelShowLocalKey, digest string, resp *api.ShowResponse) {
	c.mu.Lock()
	c.local[key] = modelShowLocalEntry{
		Digest:   digest,
		Response: cloneShowResponse(resp),
	}
	c.mu.Unlock()
}

// From ollama server/model_show_cache.go:527-546 (v0.33.0-rc2), verbatim.
func modelShowLocalKeyForRequest(req api.ShowRequest) (modelShowLocalKey, string, error) {
	name := model.ParseName(req.Model)
	if !name.IsValid() {
		return modelShowLocalKey{}, "", model.Unqualified(name)
	}
	name, err := getExistingName(name)
	if err != nil {
		return modelShowLocalKey{}, "", err
	}

	mf, err := manifest.ParseNamedManifest(name)
	if err != nil {
		return modelShowLocalKey{}, "", err
	}

	return modelShowLocalKey{
		Model:   name.String(),
		Verbose: req.Verbose,
	}, mf.Digest(), nil
}

// From ollama server/model_show_cache.go:595-692 (v0.33.0-rc2), verbatim.
func cloneShowResponse(in *api.ShowResponse) *api.ShowResponse {
	if in == nil {
		return nil
	}

	out := *in
	out.Details.Families = slices.Clone(in.Details.Families)
	out.Messages = cloneMessages(in.Messages)
	out.Capabilities = slices.Clone(in.Capabilities)
	out.ModelInfo = cloneAnyMap(in.ModelInfo)
	out.ProjectorInfo = cloneAnyMap(in.ProjectorInfo)
	out.Tensors = cloneTensors(in.Tensors)
	return &out
}

func cloneMessages(in []api.Message) []api.Message {
	if in == nil {
		return nil
	}
	out := make([]api.Message, len(in))
	for i, msg := range in {
		out[i] = msg
		if msg.Images != nil {
			out[i].Images = make([]api.ImageData, len(msg.Images))
			for j, image := range msg.Images {
				out[i].Images[j] = slices.Clone(image)
			}
		}
		out[i].ToolCalls = slices.Clone(msg.ToolCalls)
	}
	return out
}

func cloneTensors(in []api.Tensor) []api.Tensor {
	if in == nil {
		return nil
	}
	out := make([]api.Tensor, len(in))
	for i, tensor := range in {
		out[i] = tensor
		out[i].Shape = slices.Clone(tensor.Shape)
	}
	return out
}

func cloneAnyMap(in map[string]any) map[string]any {
	if in == nil {
		return nil
	}
	out := make(map[string]any, len(in))
	for k, v := range in {
		out[k] = cloneAny(v)
	}
	return out
}

func cloneAny(v any) any {
	switch v := v.(type) {
	case map[string]any:
		return cloneAnyMap(v)
	case []any:
		out := make([]any, len(v))
		for i, item := range v {
			out[i] = cloneAny(item)
		}
		return out
	case []string:
		return slices.Clone(v)
	case []bool:
		return slices.Clone(v)
	case []int:
		return slices.Clone(v)
	case []int8:
		return slices.Clone(v)
	case []int16:
		return slices.Clone(v)
	case []int32:
		return slices.Clone(v)
	case []int64:
		return slices.Clone(v)
	case []uint:
		return slices.Clone(v)
	case []uint8:
		return slices.Clone(v)
	case []uint16:
		return slices.Clone(v)
	case []uint32:
		return slices.Clone(v)
	case []uint64:
		return slices.Clone(v)
	case []float32:
		return slices.Clone(v)
	case []float64:
		return slices.Clone(v)
	default:
		return v
	}
}
