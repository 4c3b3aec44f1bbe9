// Command handler records crates/ollama/tests/golden/parsers-handler.jsonl:
// what Ollama v0.33.0-rc2's /api/chat and /api/generate handlers send for a
// model's output, given the model (parser, TEMPLATE, family) and the
// request (tools, think, messages or prompt), with the model's output
// coming from llama-server in pieces (see README.md and FORMAT.md).
//
// The handler code is copied from server/routes.go (and the parts of
// server/images.go, server/prompt.go and server/logprob.go it calls), each
// block marked "// From ollama FILE:A-B (v0.33.0-rc2), verbatim." and
// checked by record.py against the source; whatever differs is marked
// "adapted:". The server package does not build offline (gin, llama-server,
// the scheduler, GGUF reading...), and only these handlers' answer side is
// wanted; the parsers, tools, thinking, template and api packages are
// Ollama's own, unchanged.
//
//	handler CASES.jsonl OUT.jsonl
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand"
	"net/http"
	"os"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/ollama/ollama/api"
	"github.com/ollama/ollama/envconfig"
	"github.com/ollama/ollama/logutil"
	"github.com/ollama/ollama/model/parsers"
	"github.com/ollama/ollama/promptscope-parser-goldens/handler/gin"
	"github.com/ollama/ollama/promptscope-parser-goldens/handler/llm"
	"github.com/ollama/ollama/template"
	"github.com/ollama/ollama/thinking"
	"github.com/ollama/ollama/tools"
	"github.com/ollama/ollama/types/model"
)

// ---------------------------------------------------------------------------
// The model and the server (server/images.go, server/routes.go, adapted).

// adapted: of server/images.go's Model (64-86), the fields the handlers read.
type Model struct {
	Name               string `json:"name"`
	Config             model.ConfigV2
	HasChatTemplate    bool
	HasGoTemplate      bool
	PreferChatTemplate bool
	ProjectorPaths     []string
	System             string
	Messages           []api.Message

	Template *template.Template
}

var ( // adapted: of the var block of images.go:42-53, nine of its lines
	// From ollama server/images.go:43-51 (v0.33.0-rc2), verbatim.
	errCapabilities         = errors.New("does not support")
	errCapabilityCompletion = errors.New("completion")
	errCapabilityTools      = errors.New("tools")
	errCapabilityInsert     = errors.New("insert")
	errCapabilityVision     = errors.New("vision")
	errCapabilityAudio      = errors.New("audio")
	errCapabilityEmbedding  = errors.New("embedding")
	errCapabilityThinking   = errors.New("thinking")
	errCapabilityImage      = errors.New("image generation")
)

// From ollama server/images.go:88-90 (v0.33.0-rc2), verbatim.
func (m *Model) IsMLX() bool {
	return m.Config.ModelFormat == "safetensors"
}

// From ollama server/images.go:96-109 (v0.33.0-rc2), verbatim.
func appendCapability(capabilities []model.Capability, capability model.Capability) []model.Capability {
	if slices.Contains(capabilities, capability) {
		return capabilities
	}
	return append(capabilities, capability)
}

type templateCapabilitySource int

const (
	templateCapabilitySelected templateCapabilitySource = iota
	templateCapabilityGo
	templateCapabilityChat
)

// adapted: Capabilities / capabilitiesForTemplate (images.go:112-138) for
// a model whose GGUF says it completes (no pooling_type) and has nothing
// else to say (no chat template, projector or config capabilities): the
// Go template's, the parser's and the model family's.
func (m *Model) Capabilities() []model.Capability {
	capabilities := []model.Capability{model.CapabilityCompletion}
	capabilities = m.templateCapabilities(capabilities, templateCapabilitySelected)
	capabilities = m.parserCapabilities(capabilities)
	capabilities = m.modelFamilyCapabilities(capabilities)
	return capabilities
}

// From ollama server/images.go:236-261 (v0.33.0-rc2), verbatim.
func goTemplateCapabilities(t *template.Template) []model.Capability {
	if t == nil {
		return nil
	}

	v, err := t.Vars()
	if err != nil {
		slog.Warn("model template contains errors", "error", err)
		return nil
	}

	var capabilities []model.Capability
	if slices.Contains(v, "tools") {
		capabilities = appendCapability(capabilities, model.CapabilityTools)
	}
	if slices.Contains(v, "suffix") {
		capabilities = appendCapability(capabilities, model.CapabilityInsert)
	}

	openingTag, closingTag := thinking.InferTags(t.Template)
	if openingTag != "" && closingTag != "" {
		capabilities = appendCapability(capabilities, model.CapabilityThinking)
	}

	return capabilities
}

// From ollama server/images.go:309-311 (v0.33.0-rc2), verbatim.
func goTemplateEnvSet() bool {
	return envconfig.GoTemplate(true) == envconfig.GoTemplate(false)
}

// From ollama server/images.go:414-458 (v0.33.0-rc2), verbatim.
func (m *Model) templateCapabilities(capabilities []model.Capability, source templateCapabilitySource) []model.Capability {
	switch source {
	case templateCapabilitySelected:
		if m.HasGoTemplate && !shouldUseGoTemplate(m) {
			return capabilities
		}
	case templateCapabilityGo:
		if !m.HasGoTemplate {
			return capabilities
		}
	case templateCapabilityChat:
		return capabilities
	}

	for _, capability := range goTemplateCapabilities(m.Template) {
		capabilities = appendCapability(capabilities, capability)
	}

	return capabilities
}

func (m *Model) parserCapabilities(capabilities []model.Capability) []model.Capability {
	builtinParser := parsers.ParserForName(m.Config.Parser)
	if builtinParser == nil {
		return capabilities
	}

	if builtinParser.HasToolSupport() {
		capabilities = appendCapability(capabilities, model.CapabilityTools)
	}
	if builtinParser.HasThinkingSupport() {
		capabilities = appendCapability(capabilities, model.CapabilityThinking)
	}

	return capabilities
}

func (m *Model) modelFamilyCapabilities(capabilities []model.Capability) []model.Capability {
	isGptoss := slices.Contains([]string{"gptoss", "gpt-oss"}, m.Config.ModelFamily)
	if isGptoss {
		capabilities = appendCapability(capabilities, model.CapabilityThinking)
	}

	return capabilities
}

// From ollama server/images.go:541-584 (v0.33.0-rc2), verbatim.
// CheckCapabilities checks if the model has the specified capabilities returning an error describing
// any missing or unknown capabilities
func (m *Model) CheckCapabilities(want ...model.Capability) error {
	available := m.Capabilities()
	var errs []error

	// Map capabilities to their corresponding error
	capToErr := map[model.Capability]error{
		model.CapabilityCompletion: errCapabilityCompletion,
		model.CapabilityTools:      errCapabilityTools,
		model.CapabilityInsert:     errCapabilityInsert,
		model.CapabilityVision:     errCapabilityVision,
		model.CapabilityAudio:      errCapabilityAudio,
		model.CapabilityEmbedding:  errCapabilityEmbedding,
		model.CapabilityThinking:   errCapabilityThinking,
		model.CapabilityImage:      errCapabilityImage,
	}

	for _, cap := range want {
		err, ok := capToErr[cap]
		if !ok {
			slog.Error("unknown capability", "capability", cap)
			return fmt.Errorf("unknown capability: %s", cap)
		}

		if !slices.Contains(available, cap) {
			errs = append(errs, err)
		}
	}

	var err error
	if len(errs) > 0 {
		err = fmt.Errorf("%w %w", errCapabilities, errors.Join(errs...))
	}

	if slices.Contains(errs, errCapabilityThinking) {
		if m.Config.ModelFamily == "qwen3" || model.ParseName(m.Name).Model == "deepseek-r1" {
			// append a message to the existing error
			return fmt.Errorf("%w. Pull the model again to get the latest version with full thinking support", err)
		}
	}

	return err
}

var ( // adapted: of the var block of routes.go:120-123, its two lines
	// From ollama server/routes.go:121-122 (v0.33.0-rc2), verbatim.
	errRequired    = errors.New("is required")
	errBadTemplate = errors.New("template error")
)

// adapted: server/sched.go:88.
var ErrMaxQueue = errors.New("server busy, please try again.  maximum pending requests exceeded")

// adapted: the server, its scheduler and runner.
type Server struct {
	sched  *Scheduler
	runner llm.LlamaServer
}

type Scheduler struct{}

func (s *Scheduler) expireRunnersForRuntimeOOM(m *Model, err error) {}

// adapted: scheduleRunner (routes.go:202-232) checks the capabilities as
// Ollama does (211-213) and hands out the fake llama-server runner.
func (s *Server) scheduleRunner(ctx context.Context, model *Model, caps []model.Capability, requestOpts map[string]any, keepAlive *api.Duration, shift *bool) (llm.LlamaServer, *Model, *api.Options, error) {
	// From ollama server/routes.go:211-213 (v0.33.0-rc2), verbatim.
	if err := model.CheckCapabilities(caps...); err != nil {
		return nil, nil, nil, fmt.Errorf("%s %w", model.Name, err)
	}
	opts := api.DefaultOptions()
	return s.runner, model, &opts, nil
}

// adapted: the native chat mode (llama-server's own chat template) is not
// recorded; no case reaches it.
func (s *Server) handleNativeChat(c *gin.Context, req api.ChatRequest, m *Model, r llm.LlamaServer, opts *api.Options, msgs []api.Message, checkpointStart, checkpointLoaded time.Time) {
	c.JSON(http.StatusInternalServerError, gin.H{"error": "adapted: native chat mode is not recorded"})
}

// From ollama server/routes.go:77-87 (v0.33.0-rc2), verbatim.
func shouldUseHarmony(model *Model) bool {
	if slices.Contains([]string{"gptoss", "gpt-oss"}, model.Config.ModelFamily) {
		// heuristic to check whether the template expects to be parsed via harmony:
		// search for harmony tags that are nearly always used
		if model.Template.Contains("<|start|>") && model.Template.Contains("<|end|>") {
			return true
		}
	}

	return false
}

// From ollama server/routes.go:2305-2326 (v0.33.0-rc2), verbatim.
func toolCallId() string {
	const letterBytes = "abcdefghijklmnopqrstuvwxyz0123456789"
	b := make([]byte, 8)
	for i := range b {
		b[i] = letterBytes[rand.Intn(len(letterBytes))]
	}
	return "call_" + strings.ToLower(string(b))
}

func preservedTokensForCompletion(builtinParser parsers.Parser) []string {
	if builtinParser != nil {
		return builtinParser.PreservedTokens()
	}
	return nil
}

func toolCallTagForCompletion(toolParser *tools.Parser) string {
	if toolParser == nil {
		return ""
	}
	return toolParser.Tag()
}

// adapted: leadingBOSForModel (routes.go:2328-2334); no case has a renderer.
func leadingBOSForModel(m *Model) string {
	return ""
}

// From ollama server/routes.go:2336-2363 (v0.33.0-rc2), verbatim.
func optionsForPrompt(opts *api.Options, runner llm.LlamaServer) *api.Options {
	if opts == nil || runner == nil {
		return opts
	}

	if ctxLen := runner.ContextLength(); ctxLen > 0 && opts.NumCtx > ctxLen {
		copied := *opts
		copied.NumCtx = ctxLen
		return &copied
	}

	return opts
}

type chatExecutionMode int

const (
	chatExecutionModeNative chatExecutionMode = iota
	chatExecutionModeRendered
)

func chatModeForModel(m *Model) chatExecutionMode {
	if m.IsMLX() || usesOllamaRenderedChat(m) {
		return chatExecutionModeRendered
	}

	return chatExecutionModeNative
}

// From ollama server/routes.go:2372-2438 (v0.33.0-rc2), verbatim.
func usesOllamaRenderedChat(m *Model) bool {
	return m != nil && (m.Config.Renderer != "" || m.Config.Parser != "" || shouldUseHarmony(m) || shouldUseGoTemplate(m))
}

func shouldUseGoTemplate(m *Model) bool {
	if !m.HasGoTemplate {
		return false
	}
	if goTemplateEnvSet() {
		return envconfig.GoTemplate(true)
	}

	return !m.PreferChatTemplate && envconfig.GoTemplate(true)
}

func writeChatResponse(c *gin.Context, req api.ChatRequest, ch chan any) {
	if req.Stream != nil && !*req.Stream {
		var resp api.ChatResponse
		var toolCalls []api.ToolCall
		var allLogprobs []api.Logprob
		var sbThinking strings.Builder
		var sbContent strings.Builder
		for rr := range ch {
			switch t := rr.(type) {
			case api.ChatResponse:
				sbThinking.WriteString(t.Message.Thinking)
				sbContent.WriteString(t.Message.Content)
				resp = t
				if len(req.Tools) > 0 {
					toolCalls = append(toolCalls, t.Message.ToolCalls...)
				}
				if len(t.Logprobs) > 0 {
					allLogprobs = append(allLogprobs, t.Logprobs...)
				}
			case gin.H:
				msg, ok := t["error"].(string)
				if !ok {
					msg = "unexpected error format in response"
				}

				status, ok := t["status"].(int)
				if !ok {
					status = http.StatusInternalServerError
				}

				c.JSON(status, gin.H{"error": msg})
				return
			default:
				c.JSON(http.StatusInternalServerError, gin.H{"error": "unexpected response"})
				return
			}
		}

		resp.Message.Content = sbContent.String()
		resp.Message.Thinking = sbThinking.String()
		resp.Logprobs = allLogprobs

		if len(toolCalls) > 0 {
			resp.Message.ToolCalls = toolCalls
		}

		c.JSON(http.StatusOK, resp)
		return
	}

	streamResponse(c, ch)
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

// From ollama server/routes.go:3122-3148 (v0.33.0-rc2), verbatim.
func filterThinkTags(msgs []api.Message, m *Model) []api.Message {
	if m.Config.ModelFamily == "qwen3" || model.ParseName(m.Name).Model == "deepseek-r1" {
		finalUserIndex := -1
		for i, msg := range msgs {
			if msg.Role == "user" {
				finalUserIndex = i
			}
		}

		for i, msg := range msgs {
			if msg.Role == "assistant" && i < finalUserIndex {
				// TODO(drifkin): this is from before we added proper thinking support.
				// However, even if thinking is not enabled (and therefore we shouldn't
				// change the user output), we should probably perform this filtering
				// for all thinking models (not just qwen3 & deepseek-r1) since it tends
				// to save tokens and improve quality.
				thinkingState := &thinking.Parser{
					OpeningTag: "<think>",
					ClosingTag: "</think>",
				}
				_, content := thinkingState.AddContent(msg.Content)
				msgs[i].Content = content
			}
		}
	}
	return msgs
}

// From ollama server/logprob.go:8-44 (v0.33.0-rc2), verbatim.
// toAPILogprobs converts llm.Logprobs to api.Logprobs
func toAPILogprobs(logprobs []llm.Logprob) []api.Logprob {
	result := make([]api.Logprob, len(logprobs))
	for i, lp := range logprobs {
		result[i] = api.Logprob{
			TokenLogprob: api.TokenLogprob{
				Token:   lp.Token,
				Bytes:   stringToByteInts(lp.Token),
				Logprob: lp.Logprob,
			},
		}
		if len(lp.TopLogprobs) > 0 {
			result[i].TopLogprobs = make([]api.TokenLogprob, len(lp.TopLogprobs))
			for j, tlp := range lp.TopLogprobs {
				result[i].TopLogprobs[j] = api.TokenLogprob{
					Token:   tlp.Token,
					Bytes:   stringToByteInts(tlp.Token),
					Logprob: tlp.Logprob,
				}
			}
		}
	}
	return result
}

func stringToByteInts(s string) []int {
	if s == "" {
		return nil
	}

	raw := []byte(s)
	ints := make([]int, len(raw))
	for i, b := range raw {
		ints[i] = int(b)
	}
	return ints
}

// From ollama server/prompt.go:18-18 (v0.33.0-rc2), verbatim.
type tokenizeFunc func(context.Context, string) ([]int, error)

// adapted: chatPrompt (prompt.go:23-91) without truncation (every prompt
// here fits) and images (none): all messages rendered.
func chatPrompt(ctx context.Context, m *Model, tokenize tokenizeFunc, opts *api.Options, msgs []api.Message, tools []api.Tool, think *api.ThinkValue, truncate bool) (prompt string, media []llm.MediaData, _ error) {
	p, err := renderPrompt(m, msgs, tools, think)
	if err != nil {
		return "", nil, err
	}
	return p, nil, nil
}

// adapted: renderPrompt (prompt.go:135-156) without the renderer branch
// (136-143); no case has a renderer.
func renderPrompt(m *Model, msgs []api.Message, tools []api.Tool, think *api.ThinkValue) (string, error) {
	// From ollama server/prompt.go:145-156 (v0.33.0-rc2), verbatim.
	var b bytes.Buffer
	thinkVal := false
	thinkLevel := ""
	if think != nil {
		thinkVal = think.Bool()
		thinkLevel = think.String()
	}
	if err := m.Template.Execute(&b, template.Values{Messages: msgs, Tools: tools, Think: thinkVal, ThinkLevel: thinkLevel, IsThinkSet: think != nil}); err != nil {
		return "", err
	}
	return b.String(), nil
}

// ---------------------------------------------------------------------------
// The handlers.

// GenerateHandler is server/routes.go's GenerateHandler (245-793) from the
// point where the model is known: req is the decoded request, m the model.
func (s *Server) GenerateHandler(c *gin.Context, req api.GenerateRequest, m *Model) {
	checkpointStart := time.Now() // adapted: line 246
	// adapted: lines 247-426 (decoding, model lookup, cloud models,
	// unload, image generation and raw-mode checks) are left out.
	// From ollama server/routes.go:427-446 (v0.33.0-rc2), verbatim.
	var builtinParser parsers.Parser
	if shouldUseHarmony(m) {
		// harmony's Reasoning field only understands low/medium/high; map "max" to "high"
		if req.Think != nil {
			if s, ok := req.Think.Value.(string); ok && s == "max" {
				req.Think.Value = "high"
			}
		}
		if m.Config.Parser == "" {
			m.Config.Parser = "harmony"
		}
	}

	if !req.Raw && m.Config.Parser != "" {
		builtinParser = parsers.ParserForName(m.Config.Parser)
		if builtinParser != nil {
			// no tools or last message for generate endpoint
			builtinParser.Init(nil, nil, req.Think)
		}
	}
	current.initThink = thinkJSON(req.Think) // adapted: recorded
	// From ollama server/routes.go:448-475 (v0.33.0-rc2), verbatim.
	caps := []model.Capability{model.CapabilityCompletion}
	if req.Suffix != "" {
		caps = append(caps, model.CapabilityInsert)
	}

	modelCaps := m.Capabilities()
	if slices.Contains(modelCaps, model.CapabilityThinking) {
		caps = append(caps, model.CapabilityThinking)
		if req.Think == nil {
			req.Think = &api.ThinkValue{Value: true}
		}
	} else {
		if req.Think != nil && req.Think.Bool() {
			c.JSON(http.StatusBadRequest, gin.H{"error": fmt.Sprintf("%q does not support thinking", req.Model)})
			return
		}
	}

	r, m, opts, err := s.scheduleRunner(c.Request.Context(), m, caps, req.Options, req.KeepAlive, req.Shift)
	if errors.Is(err, errCapabilityCompletion) {
		c.JSON(http.StatusBadRequest, gin.H{"error": fmt.Sprintf("%q does not support generate", req.Model)})
		return
	} else if err != nil {
		handleScheduleError(c, req.Model, err)
		return
	}

	checkpointLoaded := time.Now()
	// adapted: lines 477-486 (an empty prompt loads the model) left out.
	// From ollama server/routes.go:488-557 (v0.33.0-rc2), verbatim.
	if slices.Contains(m.Config.ModelFamilies, "mllama") && len(req.Images) > 1 {
		c.AbortWithStatusJSON(http.StatusBadRequest, gin.H{"error": "this model only supports one image while more than one image requested"})
		return
	}

	media := make([]llm.MediaData, len(req.Images))
	for i := range req.Images {
		media[i] = llm.NewMediaData(i, req.Images[i])
	}

	prompt := req.Prompt
	var leadingBOS string
	if !req.Raw {
		tmpl := m.Template
		if req.Template != "" {
			tmpl, err = template.Parse(req.Template)
			if err != nil {
				c.JSON(http.StatusInternalServerError, gin.H{"error": err.Error()})
				return
			}
		}

		var values template.Values
		if req.Suffix != "" {
			values.Prompt = prompt
			values.Suffix = req.Suffix
		} else {
			var msgs []api.Message
			if req.System != "" {
				msgs = append(msgs, api.Message{Role: "system", Content: req.System})
			} else if m.System != "" {
				msgs = append(msgs, api.Message{Role: "system", Content: m.System})
			}

			if req.Context == nil {
				msgs = append(msgs, m.Messages...)
			}

			userMsg := api.Message{Role: "user", Content: req.Prompt}
			for _, m := range media {
				userMsg.Images = append(userMsg.Images, m.Data)
			}
			values.Messages = append(msgs, userMsg)
		}

		values.Think = req.Think != nil && req.Think.Bool()
		values.ThinkLevel = ""
		if req.Think != nil {
			values.ThinkLevel = req.Think.String()
		}
		values.IsThinkSet = req.Think != nil

		var b bytes.Buffer
		if req.Context != nil {
			slog.Warn("the context field is deprecated and will be removed in a future version of Ollama")
			s, err := r.Detokenize(c.Request.Context(), req.Context)
			if err != nil {
				c.JSON(http.StatusInternalServerError, gin.H{"error": err.Error()})
				return
			}
			b.WriteString(s)
		}

		// check that we're in the `api/chat`-like flow, and if so, generate the
		// prompt the same way
		// TEMP(drifkin): we should really just detect the chat-like flow and call
		// the real chat handler, but doing this as a stopgap to get renderer
		// support for generate
		if values.Messages != nil && values.Suffix == "" && req.Template == "" {
			genTruncate := (req.Truncate == nil || *req.Truncate) && !m.IsMLX()
			{ // adapted: in place of lines 558-598, the native chat-template branch (a GGUF chat template, no Go TEMPLATE), which no case takes
				// From ollama server/routes.go:599-748 (v0.33.0-rc2), verbatim.
				prompt, media, err = chatPrompt(c.Request.Context(), m, r.Tokenize, optionsForPrompt(opts, r), values.Messages, []api.Tool{}, req.Think, genTruncate)
				if err != nil {
					c.JSON(http.StatusInternalServerError, gin.H{"error": err.Error()})
					return
				}
				// TEMP(drifkin): req.Context will be removed very soon, but we're temporarily supporting it in this flow here
				if req.Context != nil {
					b.WriteString(prompt)
					prompt = b.String()
				}
				leadingBOS = leadingBOSForModel(m)
			}
		} else {
			// Direct template execution flow.
			if err := tmpl.Execute(&b, values); err != nil {
				c.JSON(http.StatusInternalServerError, gin.H{"error": err.Error()})
				return
			}

			prompt = b.String()
		}
	}

	// If debug mode is enabled, return the rendered template instead of calling the model
	if req.DebugRenderOnly {
		c.JSON(http.StatusOK, api.GenerateResponse{
			Model:     req.Model,
			CreatedAt: time.Now().UTC(),
			DebugInfo: &api.DebugInfo{
				RenderedTemplate: prompt,
				ImageCount:       len(media),
			},
		})
		return
	}

	var thinkingState *thinking.Parser
	if builtinParser == nil {
		openingTag, closingTag := thinking.InferTags(m.Template.Template)
		if req.Think != nil && req.Think.Bool() && openingTag != "" && closingTag != "" {
			thinkingState = &thinking.Parser{
				OpeningTag: openingTag,
				ClosingTag: closingTag,
			}
			if strings.HasSuffix(strings.TrimSpace(prompt), openingTag) {
				thinkingState.AddContent(openingTag)
			}
		}
	}

	ch := make(chan any)
	go func() {
		// TODO (jmorganca): avoid building the response twice both here and below
		var sb strings.Builder
		defer close(ch)

		ctx, cancel := context.WithCancel(c.Request.Context())
		defer cancel()
		var parserErr error

		if err := r.Completion(ctx, llm.CompletionRequest{
			Prompt:          prompt,
			Media:           media,
			Format:          req.Format,
			Options:         opts,
			Shift:           req.Shift == nil || *req.Shift,
			Truncate:        req.Truncate == nil || *req.Truncate,
			Logprobs:        req.Logprobs,
			TopLogprobs:     req.TopLogprobs,
			PreservedTokens: preservedTokensForCompletion(builtinParser),
			LeadingBOS:      leadingBOS,
		}, func(cr llm.CompletionResponse) {
			res := api.GenerateResponse{
				Model:     req.Model,
				CreatedAt: time.Now().UTC(),
				Response:  cr.Content,
				Done:      cr.Done,
				Metrics: api.Metrics{
					PromptEvalCount:    cr.PromptEvalCount,
					PromptEvalDuration: cr.PromptEvalDuration,
					EvalCount:          cr.EvalCount,
					EvalDuration:       cr.EvalDuration,
				},
				Logprobs: toAPILogprobs(cr.Logprobs),
			}

			if builtinParser != nil {
				content, thinking, toolCalls, err := builtinParser.Add(cr.Content, cr.Done)
				if err != nil {
					parserErr = err
					cancel()
					return
				}
				res.Response = content
				res.Thinking = thinking
				if cr.Done && len(toolCalls) > 0 {
					res.ToolCalls = toolCalls
				}
			} else if thinkingState != nil {
				thinking, content := thinkingState.AddContent(cr.Content)
				res.Thinking = thinking
				res.Response = content
			}

			if _, err := sb.WriteString(cr.Content); err != nil {
				ch <- gin.H{"error": err.Error()}
			}

			if cr.Done {
				res.DoneReason = cr.DoneReason.String()
				res.TotalDuration = time.Since(checkpointStart)
				res.LoadDuration = checkpointLoaded.Sub(checkpointStart)

				if !req.Raw {
					tokens, err := r.Tokenize(c.Request.Context(), prompt+sb.String())
					if err != nil {
						ch <- gin.H{"error": err.Error()}
						return
					}
					res.Context = tokens
				}
			}

			if builtinParser != nil {
				// Emit chunks that carry logprobs even if the parser is still buffering
				// visible content, otherwise generate logprobs disappear for models with
				// builtin thinking/tool parsers.
				if res.Response != "" || res.Thinking != "" || res.Done || len(res.ToolCalls) > 0 || len(res.Logprobs) > 0 {
					ch <- res
				}

				return
			}

			ch <- res
		}); err != nil {
			if parserErr == nil {
				s.sched.expireRunnersForRuntimeOOM(m, err)
				var serr api.StatusError
				if errors.As(err, &serr) {
					ch <- gin.H{"error": serr.ErrorMessage, "status": serr.StatusCode}
				} else {
					ch <- gin.H{"error": err.Error()}
				}
			}
		}
		if parserErr != nil {
			ch <- gin.H{"error": parserErr.Error()}
		}
	}()
	current.handlerThink = thinkJSON(req.Think) // adapted: recorded

	// adapted: the stream (streamResponse, line 792) and the non-streamed
	// answer (750-790) are both made from the same responses.
	ch = current.tee(ch)
	f := false
	req.Stream = &f
	// From ollama server/routes.go:750-790 (v0.33.0-rc2), verbatim.
	if req.Stream != nil && !*req.Stream {
		var r api.GenerateResponse
		var allLogprobs []api.Logprob
		var sbThinking strings.Builder
		var sbContent strings.Builder
		for rr := range ch {
			switch t := rr.(type) {
			case api.GenerateResponse:
				sbThinking.WriteString(t.Thinking)
				sbContent.WriteString(t.Response)
				r = t
				// Accumulate logprobs from all chunks for non-streaming response
				if len(t.Logprobs) > 0 {
					allLogprobs = append(allLogprobs, t.Logprobs...)
				}
			case gin.H:
				msg, ok := t["error"].(string)
				if !ok {
					msg = "unexpected error format in response"
				}

				status, ok := t["status"].(int)
				if !ok {
					status = http.StatusInternalServerError
				}

				c.JSON(status, gin.H{"error": msg})
				return
			default:
				c.JSON(http.StatusInternalServerError, gin.H{"error": "unexpected response"})
				return
			}
		}

		r.Thinking = sbThinking.String()
		r.Response = sbContent.String()
		r.Logprobs = allLogprobs

		c.JSON(http.StatusOK, r)
		return
	}
}

// ChatHandler is server/routes.go's ChatHandler (2440-2941) from the point
// where the model is known.
func (s *Server) ChatHandler(c *gin.Context, req api.ChatRequest, m *Model) {
	checkpointStart := time.Now() // adapted: line 2441
	// adapted: lines 2442-2609 (decoding, model lookup, cloud models) are
	// left out.
	// From ollama server/routes.go:2610-2643 (v0.33.0-rc2), verbatim.
	caps := []model.Capability{model.CapabilityCompletion}
	if len(req.Tools) > 0 {
		caps = append(caps, model.CapabilityTools)
	}

	modelCaps := m.Capabilities()
	if slices.Contains(modelCaps, model.CapabilityThinking) {
		caps = append(caps, model.CapabilityThinking)
		if req.Think == nil {
			req.Think = &api.ThinkValue{Value: true}
		}
	} else {
		if req.Think != nil && req.Think.Bool() {
			// Set think to nil when being used with Anthropic API to connect to tools like claude code
			if _, ok := c.Get("relax_thinking"); ok {
				slog.Warn("model does not support thinking, relaxing thinking to nil", "model", req.Model)
				req.Think = nil
			} else {
				c.JSON(http.StatusBadRequest, gin.H{"error": fmt.Sprintf("%q does not support thinking", req.Model)})
				return
			}
		}
	}

	r, m, opts, err := s.scheduleRunner(c.Request.Context(), m, caps, req.Options, req.KeepAlive, req.Shift)
	if errors.Is(err, errCapabilityCompletion) {
		c.JSON(http.StatusBadRequest, gin.H{"error": fmt.Sprintf("%q does not support chat", req.Model)})
		return
	} else if err != nil {
		handleScheduleError(c, req.Model, err)
		return
	}

	checkpointLoaded := time.Now()
	// adapted: lines 2645-2654 (no messages: load the model) left out.
	// From ollama server/routes.go:2656-2939 (v0.33.0-rc2), verbatim.
	msgs := append(m.Messages, req.Messages...)
	if req.Messages[0].Role != "system" && m.System != "" {
		msgs = append([]api.Message{{Role: "system", Content: m.System}}, msgs...)
	}
	msgs = filterThinkTags(msgs, m)

	if shouldUseHarmony(m) {
		// harmony's Reasoning field only understands low/medium/high; map "max" to "high"
		if req.Think != nil {
			if s, ok := req.Think.Value.(string); ok && s == "max" {
				req.Think.Value = "high"
			}
		}
		if m.Config.Parser == "" {
			m.Config.Parser = "harmony"
		}
	}

	if chatModeForModel(m) == chatExecutionModeNative {
		s.handleNativeChat(c, req, m, r, opts, msgs, checkpointStart, checkpointLoaded)
		return
	}

	var builtinParser parsers.Parser
	processedTools := req.Tools

	if m.Config.Parser != "" {
		builtinParser = parsers.ParserForName(m.Config.Parser)
		if builtinParser != nil {
			// Determine last message for chat prefill
			var lastMessage *api.Message
			if len(msgs) > 0 {
				lastMessage = &msgs[len(msgs)-1]
			}
			// Initialize parser and get processed tools
			processedTools = builtinParser.Init(req.Tools, lastMessage, req.Think)
		}
	}

	truncate := req.Truncate == nil || *req.Truncate
	if m.IsMLX() {
		truncate = false
	}
	promptOpts := optionsForPrompt(opts, r)
	prompt, media, err := chatPrompt(c.Request.Context(), m, r.Tokenize, promptOpts, msgs, processedTools, req.Think, truncate)
	if err != nil {
		slog.Error("chat prompt error", "error", err)
		c.JSON(http.StatusInternalServerError, gin.H{"error": err.Error()})
		return
	}

	// If debug mode is enabled, return the rendered template instead of calling the model
	if req.DebugRenderOnly {
		c.JSON(http.StatusOK, api.ChatResponse{
			Model:     req.Model,
			CreatedAt: time.Now().UTC(),
			DebugInfo: &api.DebugInfo{
				RenderedTemplate: prompt,
				ImageCount:       len(media),
			},
		})
		return
	}

	var thinkingState *thinking.Parser
	openingTag, closingTag := thinking.InferTags(m.Template.Template)
	if req.Think != nil && req.Think.Bool() && openingTag != "" && closingTag != "" {
		thinkingState = &thinking.Parser{
			OpeningTag: openingTag,
			ClosingTag: closingTag,
		}

		if strings.HasSuffix(strings.TrimSpace(prompt), openingTag) {
			thinkingState.AddContent(openingTag)
		}
	}

	var toolParser *tools.Parser
	if len(req.Tools) > 0 && (builtinParser == nil || !builtinParser.HasToolSupport()) {
		toolParser = tools.NewParser(m.Template.Template, req.Tools)
	}

	type structuredOutputsState int
	const (
		structuredOutputsState_None structuredOutputsState = iota
		structuredOutputsState_ReadyToApply
		structuredOutputsState_Applying
	)

	ch := make(chan any)
	go func() {
		defer close(ch)

		structuredOutputsState := structuredOutputsState_None

		for {
			var tb strings.Builder

			currentFormat := req.Format
			// structured outputs via double request is enabled when:
			// 1. the model supports the thinking capability and
			// 2. it uses a built-in parser or our generic thinking parser

			// Note that the current approach does not work for (potential future)
			// non-thinking models that emit anything before actual content. This
			// current approach uses the transition from parsed thinking content to
			// parsed non-thinking content as the signal to turn constraining on

			forceImmediate := builtinParser != nil && builtinParser.HasThinkingSupport() && req.Think != nil && !req.Think.Bool()
			if req.Format != nil && structuredOutputsState == structuredOutputsState_None && !forceImmediate && ((builtinParser != nil || thinkingState != nil) && slices.Contains(m.Capabilities(), model.CapabilityThinking)) {
				currentFormat = nil
			}

			// sets up new context given parent context per request
			ctx, cancel := context.WithCancel(c.Request.Context())

			var parserErr error

			err := r.Completion(ctx, llm.CompletionRequest{
				Prompt:          prompt,
				Media:           media,
				Format:          currentFormat,
				Options:         opts,
				Shift:           req.Shift == nil || *req.Shift,
				Truncate:        truncate,
				Logprobs:        req.Logprobs,
				TopLogprobs:     req.TopLogprobs,
				PreservedTokens: preservedTokensForCompletion(builtinParser),
				ToolCallTag:     toolCallTagForCompletion(toolParser),
				LeadingBOS:      leadingBOSForModel(m),
			}, func(r llm.CompletionResponse) {
				res := api.ChatResponse{
					Model:     req.Model,
					CreatedAt: time.Now().UTC(),
					Message:   api.Message{Role: "assistant", Content: r.Content},
					Done:      r.Done,
					Metrics: api.Metrics{
						PromptEvalCount:    r.PromptEvalCount,
						PromptEvalDuration: r.PromptEvalDuration,
						EvalCount:          r.EvalCount,
						EvalDuration:       r.EvalDuration,
					},
					Logprobs: toAPILogprobs(r.Logprobs),
				}

				if r.Done {
					res.DoneReason = r.DoneReason.String()
					res.TotalDuration = time.Since(checkpointStart)
					res.LoadDuration = checkpointLoaded.Sub(checkpointStart)
				}

				if builtinParser != nil {
					slog.Log(context.TODO(), logutil.LevelTrace, "builtin parser input", "parser", m.Config.Parser, "content", r.Content)

					content, thinking, toolCalls, err := builtinParser.Add(r.Content, r.Done)
					if err != nil {
						parserErr = err
						cancel()
						return
					}

					res.Message.Content = content
					res.Message.Thinking = thinking
					for i := range toolCalls {
						toolCalls[i].ID = toolCallId()
					}
					res.Message.ToolCalls = toolCalls

					tb.WriteString(thinking)
					// we are now receiving content from the model - we should start applying structured outputs
					if structuredOutputsState == structuredOutputsState_None && req.Format != nil && tb.String() != "" && res.Message.Content != "" {
						structuredOutputsState = structuredOutputsState_ReadyToApply
						cancel()
						return
					}

					if res.Message.Content != "" || res.Message.Thinking != "" || len(res.Message.ToolCalls) > 0 || r.Done || len(res.Logprobs) > 0 {
						slog.Log(context.TODO(), logutil.LevelTrace, "builtin parser output", "parser", m.Config.Parser, "content", content, "thinking", thinking, "toolCalls", toolCalls, "done", r.Done)
						ch <- res
					} else {
						slog.Log(context.TODO(), logutil.LevelTrace, "builtin parser empty output", "parser", m.Config.Parser)
					}
					return
				}

				if thinkingState != nil {
					thinkingContent, remainingContent := thinkingState.AddContent(res.Message.Content)
					if thinkingContent == "" && remainingContent == "" && !r.Done {
						// need to accumulate more to decide what to send
						return
					}
					res.Message.Thinking = thinkingContent
					tb.WriteString(thinkingContent)
					// emit the collected thinking text before restarting with structured outputs and clear unstructured content
					// to avoid leaking mixed tokens like "</think>Hello"
					if structuredOutputsState == structuredOutputsState_None && req.Format != nil && tb.String() != "" && remainingContent != "" {
						structuredOutputsState = structuredOutputsState_ReadyToApply
						res.Message.Content = ""
						ch <- res
						cancel()
						return
					}
					res.Message.Content = remainingContent
				}

				if len(req.Tools) > 0 {
					toolCalls, content := toolParser.Add(res.Message.Content)
					if len(content) > 0 {
						res.Message.Content = content
					} else if len(toolCalls) > 0 {
						for i := range toolCalls {
							toolCalls[i].ID = toolCallId()
						}
						res.Message.ToolCalls = toolCalls
						res.Message.Content = ""
					} else if res.Message.Thinking != "" {
						// don't return, fall through to send
					} else {
						//  Send logprobs while content is being buffered by the parser for tool calls
						if len(res.Logprobs) > 0 && !r.Done {
							logprobRes := res
							logprobRes.Message.Content = ""
							logprobRes.Message.ToolCalls = nil
							ch <- logprobRes
						}

						if r.Done {
							res.Message.Content = toolParser.Content()
							ch <- res
						}
						return
					}
				}

				ch <- res
			})
			if parserErr != nil {
				ch <- gin.H{"error": parserErr.Error()}
				return
			}
			if err != nil {
				if structuredOutputsState == structuredOutputsState_ReadyToApply && strings.Contains(err.Error(), "context canceled") && c.Request.Context().Err() == nil {
					// only ignores error if it's a context cancellation due to setting structured outputs
				} else {
					s.sched.expireRunnersForRuntimeOOM(m, err)
					var serr api.StatusError
					if errors.As(err, &serr) {
						ch <- gin.H{"error": serr.ErrorMessage, "status": serr.StatusCode}
					} else {
						ch <- gin.H{"error": err.Error()}
					}
					return
				}
			}

			// ignored structured outputs cancellation falls through to here, start a new request with the structured outputs and updated prompt. use the
			if structuredOutputsState == structuredOutputsState_ReadyToApply {
				structuredOutputsState = structuredOutputsState_Applying
				msg := api.Message{
					Role:     "assistant",
					Thinking: tb.String(),
				}

				msgs = append(msgs, msg)
				prompt, _, err = chatPrompt(c.Request.Context(), m, r.Tokenize, promptOpts, msgs, processedTools, req.Think, truncate)
				if err != nil {
					slog.Error("chat prompt error applying structured outputs", "error", err)
					ch <- gin.H{"error": err.Error()}
					return
				}
				// force constraining by terminating thinking header, the parser is already at this state
				// when the last message is thinking, the rendered for gpt-oss cannot disambiguate between having the
				// model continue thinking or ending thinking and outputting the final message.
				// TODO(parthsareen): consider adding prefill disambiguation logic to the renderer for structured outputs.
				if shouldUseHarmony(m) || (builtinParser != nil && m.Config.Parser == "harmony") {
					prompt += "<|end|><|start|>assistant<|channel|>final<|message|>"
				}
				continue
			}

			break
		}
	}()

	current.initThink = thinkJSON(req.Think) // adapted: recorded
	current.handlerThink = current.initThink

	// adapted: line 2940, writeChatResponse(c, req, ch), for both the
	// stream and the non-streamed answer, from the same responses.
	ch = current.tee(ch)
	f := false
	req.Stream = &f
	writeChatResponse(c, req, ch)
}

// adapted: streamResponse (routes.go:2097-2135) writes each response as a
// JSON line, and stops at the first error (written as {"error": ...}); here
// the responses are kept instead.
func streamResponse(c *gin.Context, ch chan any) {
	for range ch {
	}
}

// ---------------------------------------------------------------------------
// The recorder (not from Ollama).

type caseIn struct {
	ID       string          `json:"id"`
	Endpoint string          `json:"endpoint"`
	Parser   string          `json:"parser"`
	Family   string          `json:"family"`
	Template *string         `json:"template"`
	Tools    json.RawMessage `json:"tools"`
	Think    json.RawMessage `json:"think"`
	Messages json.RawMessage `json:"messages"`
	Prompt   string          `json:"prompt"`
	System   string          `json:"system"`
	Raw      bool            `json:"raw"`
	Relax    bool            `json:"relax_thinking"`
	Chunks   []string        `json:"chunks"`
	Runs     int             `json:"runs"`
	Source   string          `json:"source"`
}

type caseOut struct {
	ID               string          `json:"id"`
	Endpoint         string          `json:"endpoint"`
	Parser           string          `json:"parser"`
	Template         string          `json:"template"`
	Tools            json.RawMessage `json:"tools"`
	Think            json.RawMessage `json:"think"`
	Last             json.RawMessage `json:"last"`
	Prompt           json.RawMessage `json:"prompt"`
	Chunks           []string        `json:"chunks"`
	Stream           []streamItem    `json:"stream"`
	Final            json.RawMessage `json:"final"`
	Error            json.RawMessage `json:"error"`
	Status           int             `json:"status"`
	Family           string          `json:"family,omitempty"`
	HasTemplate      bool            `json:"has_template"`
	Messages         json.RawMessage `json:"messages,omitempty"`
	Generate         json.RawMessage `json:"generate,omitempty"`
	RelaxThinking    bool            `json:"relax_thinking,omitempty"`
	InitThink        json.RawMessage `json:"init_think"`
	HandlerThink     json.RawMessage `json:"handler_think"`
	PreservedTokens  []string        `json:"preserved_tokens"`
	ToolCallTag      string          `json:"tool_call_tag"`
	RepeatAbort      bool            `json:"repeat_abort"`
	Nondeterministic bool            `json:"nondeterministic"`
	NondetReason     string          `json:"nondeterministic_reason,omitempty"`
	Source           string          `json:"source,omitempty"`
}

type streamItem struct {
	Content    *string         `json:"content,omitempty"`
	Thinking   *string         `json:"thinking,omitempty"`
	ToolCalls  json.RawMessage `json:"tool_calls,omitempty"`
	Done       *bool           `json:"done,omitempty"`
	DoneReason string          `json:"done_reason,omitempty"`
	Error      *string         `json:"error,omitempty"`
	Status     int             `json:"status,omitempty"`
}

type run struct {
	items        []any
	teed         bool
	initThink    json.RawMessage
	handlerThink json.RawMessage
}

var current *run

func (r *run) tee(ch chan any) chan any {
	r.teed = true
	for x := range ch {
		r.items = append(r.items, x)
	}
	out := make(chan any, len(r.items))
	for _, x := range r.items {
		out <- x
	}
	close(out)
	return out
}

func thinkJSON(t *api.ThinkValue) json.RawMessage {
	b, _ := json.Marshal(t)
	return b
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

func str(s string) *string { return &s }

func item(x any) streamItem {
	switch t := x.(type) {
	case api.ChatResponse:
		done := t.Done
		it := streamItem{Content: str(t.Message.Content), Thinking: str(t.Message.Thinking), ToolCalls: mustJSON(t.Message.ToolCalls), Done: &done}
		if t.Done {
			it.DoneReason = t.DoneReason
		}
		return it
	case api.GenerateResponse:
		done := t.Done
		it := streamItem{Content: str(t.Response), Thinking: str(t.Thinking), ToolCalls: mustJSON(t.ToolCalls), Done: &done}
		if t.Done {
			it.DoneReason = t.DoneReason
		}
		return it
	case gin.H:
		e, _ := t["error"].(string)
		st, _ := t["status"].(int)
		return streamItem{Error: &e, Status: st}
	}
	panic(fmt.Sprintf("unexpected response %T", x))
}

type result struct {
	out    caseOut
	prompt *string
}

func runCase(in caseIn) (caseOut, error) {
	out := caseOut{ID: in.ID, Endpoint: in.Endpoint, Parser: in.Parser, Family: in.Family, Chunks: in.Chunks, Source: in.Source, RelaxThinking: in.Relax}
	tmplText := "{{ .Prompt }}"
	if in.Template != nil {
		tmplText = *in.Template
		out.HasTemplate = true
	}
	out.Template = tmplText
	out.Tools = in.Tools
	if len(out.Tools) == 0 {
		out.Tools = json.RawMessage("null")
	}
	out.Think = in.Think
	if len(out.Think) == 0 {
		out.Think = json.RawMessage("null")
	}
	out.Last = json.RawMessage("null")

	runs := in.Runs
	if runs < 1 {
		runs = 1
	}
	var first []byte
	for i := 0; i < runs; i++ {
		o, err := runOnce(in, tmplText, out)
		if err != nil {
			return out, err
		}
		norm := normalize(o)
		if i == 0 {
			out = o
			first = norm
		} else if !bytes.Equal(norm, first) && !out.Nondeterministic {
			out.Nondeterministic = true
			out.NondetReason = "runs differ"
		}
	}
	return out, nil
}

var idRE = regexp.MustCompile(`call_[a-z0-9]{8}`)

func normalize(o caseOut) []byte {
	o.Nondeterministic = false
	o.NondetReason = ""
	b := mustJSON(o)
	return idRE.ReplaceAll(b, []byte("call_XXXXXXXX"))
}

func runOnce(in caseIn, tmplText string, out caseOut) (caseOut, error) {
	tmpl, err := template.Parse(tmplText)
	if err != nil {
		return out, fmt.Errorf("%s: template: %w", in.ID, err)
	}
	m := &Model{
		Name:          "registry.ollama.ai/library/demo:latest",
		Config:        model.ConfigV2{Parser: in.Parser, ModelFamily: in.Family},
		HasGoTemplate: in.Template != nil,
		Template:      tmpl,
	}
	var tls []api.Tool
	if len(in.Tools) > 0 {
		if err := json.Unmarshal(in.Tools, &tls); err != nil {
			return out, fmt.Errorf("%s: tools: %w", in.ID, err)
		}
	}
	var think *api.ThinkValue
	if len(in.Think) > 0 && string(in.Think) != "null" {
		think = &api.ThinkValue{}
		if err := json.Unmarshal(in.Think, think); err != nil {
			return out, fmt.Errorf("%s: think: %w", in.ID, err)
		}
	}
	runner := llm.NewRunner(in.Chunks)
	s := &Server{sched: &Scheduler{}, runner: runner}
	req0, _ := http.NewRequest(http.MethodPost, "http://127.0.0.1:11434/api/"+in.Endpoint, nil)
	c := &gin.Context{Request: req0, Keys: map[string]any{}}
	if in.Relax {
		c.Keys["relax_thinking"] = true
	}
	current = &run{}
	switch in.Endpoint {
	case "chat":
		var msgs []api.Message
		if err := json.Unmarshal(in.Messages, &msgs); err != nil {
			return out, fmt.Errorf("%s: messages: %w", in.ID, err)
		}
		req := api.ChatRequest{Model: "demo", Messages: msgs, Tools: tls, Think: think}
		out.Messages = mustJSON(msgs)
		if len(msgs) > 0 {
			out.Last = mustJSON(&msgs[len(msgs)-1])
		}
		s.ChatHandler(c, req, m)
	case "generate":
		req := api.GenerateRequest{Model: "demo", Prompt: in.Prompt, System: in.System, Raw: in.Raw, Think: think}
		out.Generate = mustJSON(map[string]any{"prompt": req.Prompt, "system": req.System, "raw": req.Raw})
		s.GenerateHandler(c, req, m)
	default:
		return out, fmt.Errorf("%s: endpoint %q", in.ID, in.Endpoint)
	}

	out.InitThink = current.initThink
	out.HandlerThink = current.handlerThink
	if out.InitThink == nil {
		out.InitThink = json.RawMessage("null")
	}
	if out.HandlerThink == nil {
		out.HandlerThink = json.RawMessage("null")
	}
	out.Prompt = json.RawMessage("null")
	out.PreservedTokens = nil
	out.ToolCallTag = ""
	if lr := llm.LastRequest(runner); lr != nil {
		out.Prompt = mustJSON(lr.Prompt)
		out.PreservedTokens = lr.PreservedTokens
		out.ToolCallTag = lr.ToolCallTag
	}
	out.RepeatAbort = llm.RepeatAborted(runner)

	// tools.Parser (the generic tool parser, used when toolParser != nil)
	// copies a call's arguments from a Go map (parseToolCall: for k, v :=
	// range argsMap), so with two or more arguments their order is Go's map
	// iteration order: random.
	if out.ToolCallTag != "" {
		for _, x := range current.items {
			if r, ok := x.(api.ChatResponse); ok {
				for _, tc := range r.Message.ToolCalls {
					if tc.Function.Arguments.Len() >= 2 {
						out.Nondeterministic = true
						out.NondetReason = "tools.Parser argument order is Go map order"
					}
				}
			}
		}
	}

	out.Stream = []streamItem{}
	for _, x := range current.items {
		it := item(x)
		out.Stream = append(out.Stream, it)
		if it.Error != nil {
			break // streamResponse stops at the first error
		}
	}
	out.Final = json.RawMessage("null")
	out.Error = json.RawMessage("null")
	if !c.Answered {
		return out, fmt.Errorf("%s: no answer", in.ID)
	}
	out.Status = c.Status
	switch body := c.Body.(type) {
	case api.ChatResponse:
		out.Final = mustJSON(body.Message)
	case api.GenerateResponse:
		var b bytes.Buffer
		b.WriteString(`{"response":`)
		b.Write(mustJSON(body.Response))
		b.WriteString(`,"thinking":`)
		b.Write(mustJSON(body.Thinking))
		b.WriteString(`,"tool_calls":`)
		b.Write(mustJSON(body.ToolCalls))
		b.WriteString("}")
		out.Final = b.Bytes()
	case gin.H:
		e, ok := body["error"].(string)
		if !ok {
			return out, fmt.Errorf("%s: answer %v", in.ID, body)
		}
		out.Error = mustJSON(e)
	default:
		return out, fmt.Errorf("%s: answer %T", in.ID, c.Body)
	}
	return out, nil
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: handler CASES.jsonl OUT.jsonl")
		os.Exit(2)
	}
	slog.SetDefault(slog.New(slog.NewTextHandler(io.Discard, nil)))
	f, err := os.Open(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer f.Close()
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<28)
	n, nd := 0, 0
	for sc.Scan() {
		var in caseIn
		if err := json.Unmarshal(sc.Bytes(), &in); err != nil {
			fmt.Fprintln(os.Stderr, "case:", err)
			os.Exit(1)
		}
		o, err := runCase(in)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		if o.Nondeterministic {
			nd++
		}
		if err := enc.Encode(o); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		n++
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := os.WriteFile(os.Args[2], out.Bytes(), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "handler: %d cases, %d nondeterministic\n", n, nd)
}
