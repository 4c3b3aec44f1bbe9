// Command embed-goldens sends request bodies through Ollama v0.33.0-rc2's
// embedding handlers, server/routes.go EmbedHandler (/api/embed) and
// EmbeddingsHandler (/api/embeddings), copied verbatim, over a fake model
// store and a fake runner whose tokenizer is llama.cpp's own (libllama,
// through oracle.py), and records what each answers and what each input
// became on its way to the runner.
//
//	embed-goldens CASES OUT
//
// ORACLE names the command that answers tokenizer requests for a
// vocabulary (oracle.py; the case's vocabulary path is appended).
//
// Built inside a copy of Ollama's module (see README.md): the real api,
// internal/modelref, types/model and types/errtypes packages, gin's
// pieces from ../v1-goldens/gin, the llm pieces in ./llm.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/ollama/ollama/api"
	"github.com/ollama/ollama/internal/modelref"
	"github.com/ollama/ollama/promptscope-embed-goldens/gin"
	"github.com/ollama/ollama/promptscope-embed-goldens/llm"
	"github.com/ollama/ollama/types/errtypes"
	"github.com/ollama/ollama/types/model"
)

// ---- the fake model store ----

// Model is the part of server/images.go's Model that the handlers and
// scheduleRunner read.
type Model struct {
	Name           string `json:"name"`
	Config         model.ConfigV2
	ModelPath      string
	DraftPath      string
	ProjectorPaths []string
	Options        map[string]any

	kv KV
}

// Capabilities is server/images.go's: embedding when the GGUF has
// pooling_type, else completion; vision with vision.block_count
// (adapted: only the GGUF's keys; no template capabilities).
func (m *Model) Capabilities() []model.Capability {
	var caps []model.Capability
	for _, c := range m.Config.Capabilities {
		caps = append(caps, model.Capability(c))
	}
	if _, ok := m.kv[m.kv.Architecture()+".pooling_type"]; ok {
		caps = append(caps, model.CapabilityEmbedding)
	} else {
		caps = append(caps, model.CapabilityCompletion)
	}
	if _, ok := m.kv[m.kv.Architecture()+".vision.block_count"]; ok {
		caps = append(caps, model.CapabilityVision)
	}
	return caps
}

// CheckCapabilities is server/images.go's, for the capabilities asked here.
func (m *Model) CheckCapabilities(want ...model.Capability) error {
	for _, c := range want {
		if !slices.Contains(m.Capabilities(), c) {
			return fmt.Errorf("%w %s", errCapabilities, c)
		}
	}
	return nil
}

var (
	errCapabilities = errors.New("does not support")
	ErrMaxQueue     = errors.New("server busy, please try again.  maximum pending requests exceeded")
)

// From ollama server/routes.go:120-123 (v0.33.0-rc2), verbatim.
var (
	errRequired    = errors.New("is required")
	errBadTemplate = errors.New("template error")
)

// cloudErrRemoteInferenceUnavailable is server/routes.go:59 (there aligned
// with its const block).
const cloudErrRemoteInferenceUnavailable = "remote model is unavailable"

// ---- fs/ggml's KV, as the handlers read it ----

// KV is fs/ggml's KV: GGUF keys with their Go types.
type KV map[string]any

func (kv KV) Architecture() string {
	return kv.String("general.architecture", "unknown")
}

// From ollama fs/ggml/ggml.go:138-140 (v0.33.0-rc2), verbatim.
func (kv KV) ContextLength() uint64 {
	return uint64(kv.Uint("context_length"))
}

// From ollama fs/ggml/ggml.go:187-195 (v0.33.0-rc2), verbatim.
func (kv KV) String(key string, defaultValue ...string) string {
	val, _ := keyValue(kv, key, append(defaultValue, "")...)
	return val
}

func (kv KV) Uint(key string, defaultValue ...uint32) uint32 {
	val, _ := keyValue(kv, key, append(defaultValue, 0)...)
	return val
}

// From ollama fs/ggml/ggml.go:202-205 (v0.33.0-rc2), verbatim.
func (kv KV) Bool(key string, defaultValue ...bool) bool {
	val, _ := keyValue(kv, key, append(defaultValue, false)...)
	return val
}

type valueTypes interface {
	uint8 | int8 | uint16 | int16 |
		uint32 | int32 | uint64 | int64 |
		string | float32 | float64 | bool
}

// keyValue is fs/ggml/ggml.go:318-329 but for the trace log.
func keyValue[T valueTypes](kv KV, key string, defaultValue ...T) (T, bool) {
	if !strings.HasPrefix(key, "tokenizer.") && !strings.HasPrefix(key, "general.") {
		key = kv.Architecture() + "." + key
	}

	if val, ok := kv[key].(T); ok {
		return val, true
	}

	return defaultValue[0], false
}

// ---- the server ----

type scheduler struct{}

func (scheduler) expireRunnersForRuntimeOOM(*Model, error) {}

// Server is the part of server/routes.go's Server the handlers use.
type Server struct {
	sched         scheduler
	defaultNumCtx int

	model  *Model
	oracle *oracle
}

// getModel is the store lookup: the case's model.
func (s *Server) getModel(name string) (*Model, error) {
	return s.model, nil
}

// getExistingName finds the installed model's name; the fake store holds
// the case's model under every name.
func getExistingName(n model.Name) (model.Name, error) {
	return n, nil
}

// getModelData reads the model's GGUF: the case's keys.
func getModelData(path string, _ bool) (KV, map[string]any, error) {
	return current.kv, nil, nil
}

var current *Model

// proxyCloudJSONRequest would send the request to ollama.com; the recorder
// answers 502 with a marker.
func proxyCloudJSONRequest(c *gin.Context, req any, msg string) {
	c.JSON(http.StatusBadGateway, gin.H{"error": "promptscope-recorder: proxied to the cloud"})
}

// From ollama server/model_resolver.go:8-55 (v0.33.0-rc2), verbatim.
type modelSource = modelref.ModelSource

const (
	modelSourceUnspecified modelSource = modelref.ModelSourceUnspecified
	modelSourceLocal       modelSource = modelref.ModelSourceLocal
	modelSourceCloud       modelSource = modelref.ModelSourceCloud
)

var (
	errConflictingModelSource = modelref.ErrConflictingSourceSuffix
	errModelRequired          = modelref.ErrModelRequired
)

type parsedModelRef struct {
	// Original is the caller-provided model string before source parsing.
	// Example: "gpt-oss:20b:cloud".
	Original string
	// Base is the model string after source suffix normalization.
	// Example: "gpt-oss:20b:cloud" -> "gpt-oss:20b".
	Base string
	// Name is Base parsed as a fully-qualified model.Name with defaults applied.
	// Example: "registry.ollama.ai/library/gpt-oss:20b".
	Name model.Name
	// Source captures explicit source intent from the original input.
	// Example: "gpt-oss:20b:cloud" -> modelSourceCloud.
	Source modelSource
}

func parseAndValidateModelRef(raw string) (parsedModelRef, error) {
	var zero parsedModelRef

	parsed, err := modelref.ParseRef(raw)
	if err != nil {
		return zero, err
	}

	name := model.ParseName(parsed.Base)
	if !name.IsValid() {
		return zero, model.Unqualified(name)
	}

	return parsedModelRef{
		Original: parsed.Original,
		Base:     parsed.Base,
		Name:     name,
		Source:   parsed.Source,
	}, nil
}

// From ollama server/routes.go:66-75 (v0.33.0-rc2), verbatim.
func writeModelRefParseError(c *gin.Context, err error, fallbackStatus int, fallbackMessage string) {
	switch {
	case errors.Is(err, errConflictingModelSource):
		c.JSON(http.StatusBadRequest, gin.H{"error": err.Error()})
	case errors.Is(err, model.ErrUnqualifiedName):
		c.JSON(http.StatusBadRequest, gin.H{"error": errtypes.InvalidModelNameErrMsg})
	default:
		c.JSON(fallbackStatus, gin.H{"error": fallbackMessage})
	}
}

// From ollama server/routes.go:125-174 (v0.33.0-rc2), verbatim.
func (s *Server) modelOptions(model *Model, requestOpts map[string]any) (api.Options, error) {
	return s.modelOptionsWithEmbeddingBatchDefault(model, requestOpts, shouldApplyEmbeddingBatchDefault(model, requestOpts))
}

func (s *Server) modelOptionsWithEmbeddingBatchDefault(model *Model, requestOpts map[string]any, applyEmbeddingBatchDefault bool) (api.Options, error) {
	opts := api.DefaultOptions()
	if opts.NumCtx == 0 {
		opts.NumCtx = s.defaultNumCtx
	}

	// api.Options stores defaulted values, so lower layers cannot distinguish
	// an unset draft_num_predict from the default. Track that while we still
	// have the raw model/request option maps.
	draftNumPredictSet := hasOption(requestOpts, "draft_num_predict")
	if model != nil {
		draftNumPredictSet = draftNumPredictSet || hasOption(model.Options, "draft_num_predict")
		if err := opts.FromMap(model.Options); err != nil {
			return api.Options{}, err
		}
	}

	if err := opts.FromMap(requestOpts); err != nil {
		return api.Options{}, err
	}

	if applyEmbeddingBatchDefault {
		opts = llm.WithDefaultEmbeddingNumBatch(opts)
	}

	if model != nil && model.DraftPath == "" && !draftNumPredictSet {
		opts.DraftNumPredict = 0
	}

	return opts, nil
}

func shouldApplyEmbeddingBatchDefault(m *Model, requestOpts map[string]any) bool {
	if m == nil || hasOption(m.Options, "num_batch") || hasOption(requestOpts, "num_batch") {
		return false
	}
	if slices.Contains(m.Config.Capabilities, string(model.CapabilityEmbedding)) {
		return true
	}
	return m.ModelPath != "" && m.CheckCapabilities(model.CapabilityEmbedding) == nil
}

func hasOption(opts map[string]any, name string) bool {
	_, ok := opts[name]
	return ok
}

// scheduleRunner is server/routes.go:178-217 with the scheduler's part
// (s.sched.getRunner, server/sched.go:169-177, then llm.NewLlamaServer's
// launch arguments) done here to set up the fake runner.
func (s *Server) scheduleRunner(ctx context.Context, model *Model, caps []model.Capability, requestOpts map[string]any, keepAlive *api.Duration, shift *bool) (*fakeRunner, *Model, *api.Options, error) {
	if model == nil || model.Name == "" {
		return nil, nil, nil, fmt.Errorf("model %w", errRequired)
	}

	if err := model.CheckCapabilities(caps...); err != nil {
		return nil, nil, nil, fmt.Errorf("%s %w", model.Name, err)
	}

	embeddingBatchDefault := shouldApplyEmbeddingBatchDefault(model, requestOpts)
	opts, err := s.modelOptionsWithEmbeddingBatchDefault(model, requestOpts, embeddingBatchDefault)
	if err != nil {
		return nil, nil, nil, err
	}

	launch := launchOptions(model, opts)
	// llm.NewLlamaServer: --embedding only when <arch>.pooling_type is
	// there; -c num_ctx*np, -np 1 (one parallel slot); -b/-ub the
	// embedding batch size. llama-server pads n_ctx to 256; without -ub
	// its n_ubatch is 512.
	_, isEmbedding := model.kv[fmt.Sprintf("%s.pooling_type", model.kv.Architecture())]
	r := &fakeRunner{oracle: s.oracle, embedding: isEmbedding, nUbatch: 512, nCtx: (launch.NumCtx + 255) / 256 * 256}
	if b := llm.EmbeddingBatchSize(launch, 1); b > 0 {
		r.nUbatch = b
	}
	if p, ok := model.kv[model.kv.Architecture()+".pooling_type"]; ok {
		r.pooling = p
	}
	r.nEmbd = int(model.kv.Uint("embedding_length", 8))
	lastRunner = r
	return r, model, &opts, nil
}

// launchOptions is the start of s.sched.getRunner: its floors on its own
// copy of the options, which the runner is launched with.
func launchOptions(m *Model, opts api.Options) api.Options {
	// From ollama server/sched.go:170-177 (v0.33.0-rc2), verbatim.
	if opts.NumCtx < 4 {
		opts.NumCtx = 4
	}

	if m.CheckCapabilities(model.CapabilityVision) == nil {
		// multimodal models require at least 2048 context
		opts.NumCtx = max(opts.NumCtx, 2048)
	}
	return opts
}

// From ollama server/routes.go:3107-3120 (v0.33.0-rc2), verbatim.
func handleScheduleError(c *gin.Context, name string, err error) {
	switch {
	case errors.Is(err, errCapabilities), errors.Is(err, errRequired):
		c.JSON(http.StatusBadRequest, gin.H{"error": err.Error()})
	case errors.Is(err, context.Canceled):
		c.JSON(499, gin.H{"error": "request canceled"})
	case errors.Is(err, ErrMaxQueue):
		c.JSON(http.StatusServiceUnavailable, gin.H{"error": err.Error()})
	case errors.Is(err, os.ErrNotExist):
		c.JSON(http.StatusNotFound, gin.H{"error": fmt.Sprintf("model %q not found, try pulling it first", name)})
	default:
		c.JSON(http.StatusInternalServerError, gin.H{"error": err.Error()})
	}
}

// ---- the handlers ----

// From ollama server/routes.go:795-1100 (v0.33.0-rc2), verbatim.
func (s *Server) EmbedHandler(c *gin.Context) {
	checkpointStart := time.Now()
	var req api.EmbedRequest
	err := c.ShouldBindJSON(&req)
	switch {
	case errors.Is(err, io.EOF):
		c.AbortWithStatusJSON(http.StatusBadRequest, gin.H{"error": "missing request body"})
		return
	case err != nil:
		c.AbortWithStatusJSON(http.StatusBadRequest, gin.H{"error": err.Error()})
		return
	}

	modelRef, err := parseAndValidateModelRef(req.Model)
	if err != nil {
		writeModelRefParseError(c, err, http.StatusNotFound, fmt.Sprintf("model '%s' not found", req.Model))
		return
	}

	if modelRef.Source == modelSourceCloud {
		req.Model = modelRef.Base
		proxyCloudJSONRequest(c, req, cloudErrRemoteInferenceUnavailable)
		return
	}

	var input []string

	switch i := req.Input.(type) {
	case string:
		if len(i) > 0 {
			input = append(input, i)
		}
	case []any:
		for _, v := range i {
			if _, ok := v.(string); !ok {
				c.AbortWithStatusJSON(http.StatusBadRequest, gin.H{"error": "invalid input type"})
				return
			}
			input = append(input, v.(string))
		}
	default:
		if req.Input != nil {
			c.AbortWithStatusJSON(http.StatusBadRequest, gin.H{"error": "invalid input type"})
			return
		}
	}

	name, err := getExistingName(modelRef.Name)
	if err != nil {
		c.JSON(http.StatusNotFound, gin.H{"error": fmt.Sprintf("model '%s' not found", req.Model)})
		return
	}

	m, err := s.getModel(name.String())
	if err != nil {
		handleScheduleError(c, req.Model, err)
		return
	}

	r, m, opts, err := s.scheduleRunner(c.Request.Context(), m, []model.Capability{}, req.Options, req.KeepAlive, nil)
	if err != nil {
		handleScheduleError(c, req.Model, err)
		return
	}

	checkpointLoaded := time.Now()

	if len(input) == 0 {
		c.JSON(http.StatusOK, api.EmbedResponse{Model: req.Model, Embeddings: [][]float32{}})
		return
	}

	kvData, _, err := getModelData(m.ModelPath, false)
	if err != nil {
		c.JSON(http.StatusInternalServerError, gin.H{"error": err.Error()})
		return
	}

	ctx := c.Request.Context()

	adjustTokenLimit := func(tokens []int, limit int) int {
		if bos := kvData.Uint("tokenizer.ggml.bos_token_id"); len(tokens) > 0 && tokens[0] != int(bos) && kvData.Bool("add_bos_token", true) {
			limit--
		}
		if eos := kvData.Uint("tokenizer.ggml.eos_token_id"); len(tokens) > 0 && tokens[len(tokens)-1] != int(eos) && kvData.Bool("add_eos_token", true) {
			limit--
		}
		return limit
	}

	inputTokensAndContext := func(text string) ([]int, int, error) {
		tokens, err := r.Tokenize(ctx, text)
		if err != nil {
			return nil, 0, err
		}

		// TODO @nicolepardal: avoid reaching into kvData here; pass required tokenizer metadata via model/options instead
		ctxLen := int(kvData.ContextLength())
		if opts.NumCtx > 0 {
			ctxLen = min(opts.NumCtx, ctxLen)
		}

		return tokens, adjustTokenLimit(tokens, ctxLen), nil
	}

	truncateInputToLimit := func(text string, limit int) (string, bool, error) {
		tokens, ctxLen, err := inputTokensAndContext(text)
		if err != nil {
			return "", false, err
		}
		if limit > 0 {
			ctxLen = min(ctxLen, adjustTokenLimit(tokens, limit))
		}

		if ctxLen <= 0 {
			return "", false, fmt.Errorf("input after truncation exceeds maximum context length")
		}
		if len(tokens) <= ctxLen {
			return text, false, nil
		}

		truncated, err := r.Detokenize(ctx, tokens[:ctxLen])
		if err != nil {
			return "", false, err
		}
		return truncated, true, nil
	}

	truncateInput := func(text string) (string, bool, error) {
		return truncateInputToLimit(text, 0)
	}

	embedWithRetry := func(text string) ([]float32, int, error) {
		if req.Truncate != nil && !*req.Truncate {
			tokens, ctxLen, err := inputTokensAndContext(text)
			if err != nil {
				return nil, 0, err
			}
			if ctxLen <= 0 {
				return nil, 0, fmt.Errorf("input after truncation exceeds maximum context length")
			}
			if len(tokens) > ctxLen {
				return nil, 0, api.StatusError{
					StatusCode:   http.StatusBadRequest,
					ErrorMessage: "the input length exceeds the context length",
				}
			}
		} else {
			var err error
			text, _, err = truncateInput(text)
			if err != nil {
				return nil, 0, err
			}
		}

		emb, tokCount, err := r.Embedding(ctx, text)
		if err == nil {
			return emb, tokCount, nil
		}

		var serr api.StatusError
		if !errors.As(err, &serr) || serr.StatusCode != http.StatusBadRequest {
			return nil, 0, err
		}
		if req.Truncate != nil && !*req.Truncate {
			return nil, 0, err
		}

		truncated, ok, err := truncateInputToLimit(text, opts.NumBatch)
		if err != nil {
			return nil, 0, err
		}
		if !ok {
			return nil, 0, fmt.Errorf("input exceeds maximum context length and cannot be truncated further")
		}

		return r.Embedding(ctx, truncated)
	}

	var g errgroup.Group
	embeddings := make([][]float32, len(input))
	var totalTokens uint64
	for i, text := range input {
		g.Go(func() error {
			embedding, tokenCount, err := embedWithRetry(text)
			if err != nil {
				return err
			}
			// TODO: this first normalization should be done by the model
			embedding, err = normalize(embedding)
			if err != nil {
				return err
			}
			if req.Dimensions > 0 && req.Dimensions < len(embedding) {
				embedding, err = normalize(embedding[:req.Dimensions])
				if err != nil {
					return err
				}
			}
			embeddings[i] = embedding
			atomic.AddUint64(&totalTokens, uint64(tokenCount))
			return nil
		})
	}

	if err := g.Wait(); err != nil {
		s.sched.expireRunnersForRuntimeOOM(m, err)
		var serr api.StatusError
		if errors.As(err, &serr) {
			c.AbortWithStatusJSON(serr.StatusCode, gin.H{
				"error": strings.TrimSpace(serr.ErrorMessage),
			})
			return
		}

		c.AbortWithStatusJSON(http.StatusBadRequest, gin.H{
			"error": strings.TrimSpace(err.Error()),
		})
		return
	}

	resp := api.EmbedResponse{
		Model:           req.Model,
		Embeddings:      embeddings,
		TotalDuration:   time.Since(checkpointStart),
		LoadDuration:    checkpointLoaded.Sub(checkpointStart),
		PromptEvalCount: int(totalTokens),
	}
	c.JSON(http.StatusOK, resp)
}

func normalize(vec []float32) ([]float32, error) {
	var sum float32
	for _, v := range vec {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return nil, errors.New("embedding contains NaN or Inf values")
		}
		sum += v * v
	}

	norm := float32(1.0 / max(math.Sqrt(float64(sum)), 1e-12))
	for i := range vec {
		vec[i] *= norm
	}
	return vec, nil
}

func (s *Server) EmbeddingsHandler(c *gin.Context) {
	var req api.EmbeddingRequest
	if err := c.ShouldBindJSON(&req); errors.Is(err, io.EOF) {
		c.AbortWithStatusJSON(http.StatusBadRequest, gin.H{"error": "missing request body"})
		return
	} else if err != nil {
		c.AbortWithStatusJSON(http.StatusBadRequest, gin.H{"error": err.Error()})
		return
	}

	modelRef, err := parseAndValidateModelRef(req.Model)
	if err != nil {
		writeModelRefParseError(c, err, http.StatusBadRequest, "model is required")
		return
	}

	if modelRef.Source == modelSourceCloud {
		req.Model = modelRef.Base
		proxyCloudJSONRequest(c, req, cloudErrRemoteInferenceUnavailable)
		return
	}

	name := modelRef.Name

	m, err := s.getModel(name.String())
	if err != nil {
		handleScheduleError(c, req.Model, err)
		return
	}

	r, m, _, err := s.scheduleRunner(c.Request.Context(), m, []model.Capability{}, req.Options, req.KeepAlive, nil)
	if err != nil {
		handleScheduleError(c, req.Model, err)
		return
	}

	// an empty request loads the model
	if req.Prompt == "" {
		c.JSON(http.StatusOK, api.EmbeddingResponse{Embedding: []float64{}})
		return
	}

	embedding, _, err := r.Embedding(c.Request.Context(), req.Prompt)
	if err != nil {
		s.sched.expireRunnersForRuntimeOOM(m, err)
		c.AbortWithStatusJSON(http.StatusInternalServerError, gin.H{"error": strings.TrimSpace(err.Error())})
		return
	}

	var e []float64
	for _, v := range embedding {
		e = append(e, float64(v))
	}

	resp := api.EmbeddingResponse{
		Embedding: e,
	}
	c.JSON(http.StatusOK, resp)
}

// ---- the fake runner: llama-server's /tokenize, /detokenize and
// /v1/embeddings over libllama's tokenizer ----

// call is one request the handler made of the runner.
type call struct {
	Op     string  `json:"op"`
	Text   *string `json:"text,omitempty"`
	Tokens []int   `json:"tokens,omitempty"`
	// Special: the tokens llama-server's /v1/embeddings made of Text
	// (add_special and parse_special on).
	Special []int   `json:"special,omitempty"`
	Out     *string `json:"out,omitempty"`
	Status  int     `json:"status,omitempty"`
	Body    string  `json:"body,omitempty"`
	Count   int     `json:"count,omitempty"`
}

type fakeRunner struct {
	mu        sync.Mutex
	oracle    *oracle
	embedding bool
	pooling   any
	nUbatch   int
	nCtx      int
	nEmbd     int
	calls     []call
}

func (r *fakeRunner) log(c call) {
	r.calls = append(r.calls, c)
}

// Tokenize is llamaServerRunner.Tokenize: llama-server's /tokenize with
// add_special false and parse_special at its default, true.
func (r *fakeRunner) Tokenize(ctx context.Context, content string) ([]int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	ids := r.oracle.tokenize(content, false, true)
	t := content
	r.log(call{Op: "tokenize", Text: &t, Tokens: ids})
	return ids, nil
}

// Detokenize is llamaServerRunner.Detokenize: llama-server's /detokenize
// (tokens_to_str: each token's piece, special tokens shown), its JSON
// answer written with invalid UTF-8 replaced.
func (r *fakeRunner) Detokenize(ctx context.Context, tokens []int) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := strings.ToValidUTF8(r.oracle.detokenize(tokens), "\uFFFD")
	r.log(call{Op: "detokenize", Tokens: tokens, Out: &out})
	return out, nil
}

func llamaError(code int, message, typ string, extra map[string]any) (int, []byte) {
	e := map[string]any{"code": code, "message": message, "type": typ}
	for k, v := range extra {
		e[k] = v
	}
	b, _ := json.Marshal(map[string]any{"error": e})
	return code, b
}

// serve is llama-server's /v1/embeddings for {"input": text} as
// tools/server/server-context.cpp answers it (handle_embeddings_impl, the
// slot's checks in update_slots for a model that cannot split its batch).
func (r *fakeRunner) serve(text string) (int, []byte, []int) {
	if !r.embedding {
		c, b := llamaError(501, "This server does not support embeddings. Start it with `--embeddings`", "not_supported_error", nil)
		return c, b, nil
	}
	if fmt.Sprint(r.pooling) == "0" {
		c, b := llamaError(400, "Pooling type 'none' is not OAI compatible. Please use a different pooling type", "invalid_request_error", nil)
		return c, b, nil
	}
	ids := r.oracle.tokenize(text, true, true)
	if len(ids) == 0 {
		c, b := llamaError(400, "Input content cannot be empty", "invalid_request_error", nil)
		return c, b, ids
	}
	n := len(ids)
	if n > r.nUbatch {
		c, b := llamaError(500, fmt.Sprintf("input (%d tokens) is too large to process. increase the physical batch size (current batch size: %d)", n, r.nUbatch), "server_error", nil)
		return c, b, ids
	}
	if n > r.nCtx {
		c, b := llamaError(400, fmt.Sprintf("input (%d tokens) is larger than the max context size (%d tokens). skipping", n, r.nCtx), "exceed_context_size_error", map[string]any{"n_prompt_tokens": n, "n_ctx": r.nCtx})
		return c, b, ids
	}
	emb := make([]float32, r.nEmbd)
	for i := range emb {
		emb[i] = float32(i+1) / float32(r.nEmbd)
	}
	b, _ := json.Marshal(map[string]any{
		"model":  "x",
		"object": "list",
		"data":   []any{map[string]any{"embedding": emb, "index": 0, "object": "embedding", "tokens_evaluated": n}},
		"usage":  map[string]any{"prompt_tokens": n, "total_tokens": n},
	})
	return 200, b, ids
}

// Embedding is llamaServerRunner.Embedding with llama-server answering as
// serve does.
func (r *fakeRunner) Embedding(ctx context.Context, input string) ([]float32, int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	status, body, ids := r.serve(input)
	t := input
	c := call{Op: "embedding", Text: &t, Special: ids, Status: status}
	if status != 200 {
		c.Body = string(body)
	}
	emb, n, err := llm.EmbeddingAnswer(&http.Response{StatusCode: status}, body)
	c.Count = n
	r.log(c)
	return emb, n, err
}

// ---- oracle.py: libllama's tokenizer ----

type oracle struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

func startOracle(vocab string) *oracle {
	args := strings.Fields(os.Getenv("ORACLE"))
	args = append(args, vocab)
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		panic(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		panic(err)
	}
	if err := cmd.Start(); err != nil {
		panic(err)
	}
	return &oracle{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<20)}
}

func (o *oracle) ask(req map[string]any, answer any) {
	b, _ := json.Marshal(req)
	if _, err := o.in.Write(append(b, '\n')); err != nil {
		panic(err)
	}
	line, err := o.out.ReadBytes('\n')
	if err != nil {
		panic(err)
	}
	if err := json.Unmarshal(line, answer); err != nil {
		panic(err)
	}
}

func (o *oracle) tokenize(text string, addSpecial, parseSpecial bool) []int {
	var a struct{ IDs []int }
	o.ask(map[string]any{"op": "tokenize", "hex": hex.EncodeToString([]byte(text)), "add_special": addSpecial, "parse_special": parseSpecial}, &a)
	if a.IDs == nil {
		a.IDs = []int{}
	}
	return a.IDs
}

func (o *oracle) detokenize(ids []int) string {
	var a struct{ Hex string }
	o.ask(map[string]any{"op": "pieces", "ids": ids}, &a)
	b, err := hex.DecodeString(a.Hex)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// ---- cases ----

type testCase struct {
	ID    string `json:"id"`
	Route string `json:"route"`
	Vocab string `json:"vocab"`
	// KV: the GGUF's keys as [type, value] ("u32", "bool", "str", "i32").
	KV     map[string][2]any `json:"kv"`
	Params map[string]any    `json:"params,omitempty"`
	Body   string            `json:"body"`
}

type inputTrace struct {
	Text   string  `json:"text"`
	Status int     `json:"status"`
	Error  *string `json:"error,omitempty"`
	Count  int     `json:"prompt_eval_count"`
	Calls  []call  `json:"calls"`
}

type result struct {
	testCase
	Status   int             `json:"status"`
	Error    *string         `json:"error,omitempty"`
	Response json.RawMessage `json:"response,omitempty"`
	// Calls: what the whole request asked of the runner (sorted: the
	// inputs run in parallel); Inputs: each input of an /api/embed
	// request sent alone.
	Calls  []call       `json:"calls"`
	Inputs []inputTrace `json:"inputs,omitempty"`
}

func kvOf(spec map[string][2]any) KV {
	kv := KV{}
	for k, tv := range spec {
		switch tv[0] {
		case "u32":
			kv[k] = uint32(tv[1].(float64))
		case "i32":
			kv[k] = int32(tv[1].(float64))
		case "u64":
			kv[k] = uint64(tv[1].(float64))
		case "bool":
			kv[k] = tv[1].(bool)
		case "str":
			kv[k] = tv[1].(string)
		default:
			panic("kv type " + fmt.Sprint(tv[0]))
		}
	}
	return kv
}

var oracles = map[string]*oracle{}

func serveOnce(tc testCase, body string) (status int, errText *string, resp json.RawMessage, calls []call) {
	o, ok := oracles[tc.Vocab]
	if !ok {
		o = startOracle(tc.Vocab)
		oracles[tc.Vocab] = o
	}
	m := &Model{Name: "promptscope/embed-case:latest", ModelPath: "/fake/model.gguf", Options: tc.Params, kv: kvOf(tc.KV)}
	current = m
	var runner *fakeRunner
	s := &Server{defaultNumCtx: 4096, model: m, oracle: o}
	path := map[string]string{"embed": "/api/embed", "embeddings": "/api/embeddings"}[tc.Route]
	req := httptest.NewRequest(http.MethodPost, path, bytes.NewReader([]byte(body)))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	c := gin.NewContext(req, rec)
	lastRunner = nil
	if tc.Route == "embed" {
		s.EmbedHandler(c)
	} else {
		s.EmbeddingsHandler(c)
	}
	runner = lastRunner
	if runner != nil {
		calls = runner.calls
	}
	status = c.Writer.Status()
	out := rec.Body.Bytes()
	if status != 200 {
		var answer struct {
			Error *string `json:"error"`
		}
		if err := json.Unmarshal(out, &answer); err != nil || answer.Error == nil {
			panic(fmt.Sprintf("%s: answer %q is not {\"error\": text}", tc.ID, out))
		}
		again, _ := json.Marshal(gin.H{"error": *answer.Error})
		if !bytes.Equal(again, out) {
			panic(fmt.Sprintf("%s: answer %q is not gin's {\"error\": text}", tc.ID, out))
		}
		return status, answer.Error, nil, calls
	}
	// The answer without its clock (total_duration, load_duration) and
	// with each embedding as its length.
	var v map[string]any
	if err := json.Unmarshal(out, &v); err != nil {
		panic(err)
	}
	delete(v, "total_duration")
	delete(v, "load_duration")
	if es, ok := v["embeddings"].([]any); ok {
		lens := []int{}
		for _, e := range es {
			lens = append(lens, len(e.([]any)))
		}
		v["embeddings"] = lens
	}
	if e, ok := v["embedding"].([]any); ok {
		v["embedding"] = len(e)
	}
	resp, _ = json.Marshal(v)
	return status, nil, resp, calls
}

var lastRunner *fakeRunner

// inputKey is the body's key that encoding/json binds to EmbedRequest.Input:
// "input" exactly, else the first key equal to it under case folding.
func inputKey(obj map[string]json.RawMessage, order []string) string {
	if _, ok := obj["input"]; ok {
		return "input"
	}
	for _, k := range order {
		if strings.EqualFold(k, "input") {
			return k
		}
	}
	return ""
}

func run(tc testCase) result {
	res := result{testCase: tc}
	res.Status, res.Error, res.Response, res.Calls = serveOnce(tc, tc.Body)
	// the inputs' goroutines call the runner in any order: sorted, so
	// that two recordings agree
	slices.SortStableFunc(res.Calls, func(a, b call) int {
		x, _ := json.Marshal(a)
		y, _ := json.Marshal(b)
		return bytes.Compare(x, y)
	})
	if tc.Route != "embed" {
		return res
	}
	// each input alone
	var obj map[string]json.RawMessage
	if json.Unmarshal([]byte(tc.Body), &obj) != nil {
		return res
	}
	dec := json.NewDecoder(strings.NewReader(tc.Body))
	var order []string
	if t, _ := dec.Token(); t == json.Delim('{') {
		for dec.More() {
			k, _ := dec.Token()
			order = append(order, k.(string))
			var skip json.RawMessage
			dec.Decode(&skip)
		}
	}
	key := inputKey(obj, order)
	if key == "" {
		return res
	}
	var list []any
	if json.Unmarshal(obj[key], &list) != nil {
		var one string
		if json.Unmarshal(obj[key], &one) != nil || one == "" {
			return res
		}
		list = []any{one}
	}
	for _, item := range list {
		text, ok := item.(string)
		if !ok {
			return res
		}
		alone := map[string]json.RawMessage{}
		for k, v := range obj {
			alone[k] = v
		}
		b, _ := json.Marshal([]string{text})
		alone[key] = b
		body, _ := json.Marshal(alone)
		st, e, resp, calls := serveOnce(tc, string(body))
		tr := inputTrace{Text: text, Status: st, Error: e, Calls: calls}
		if resp != nil {
			var v struct {
				N int `json:"prompt_eval_count"`
			}
			json.Unmarshal(resp, &v)
			tr.Count = v.N
		}
		res.Inputs = append(res.Inputs, tr)
	}
	return res
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: embed-goldens CASES OUT")
		os.Exit(2)
	}
	in, err := os.Open(os.Args[1])
	if err != nil {
		panic(err)
	}
	defer in.Close()
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	for sc.Scan() {
		var tc testCase
		if err := json.Unmarshal(sc.Bytes(), &tc); err != nil {
			panic(err)
		}
		if err := enc.Encode(run(tc)); err != nil {
			panic(err)
		}
	}
	if err := sc.Err(); err != nil {
		panic(err)
	}
	if err := os.WriteFile(os.Args[2], out.Bytes(), 0o644); err != nil {
		panic(err)
	}
	_ = time.Now
	_ = math.Sqrt
	_ = atomic.AddUint64
	_ = errgroup.Group{}
	_ = modelref.ModelSourceCloud
	_ = errtypes.InvalidModelNameErrMsg
}
