// Package llm holds what the recorder needs of Ollama's llm package
// (llm/server.go, llm/llama_server.go at v0.33.0-rc2): the completion
// types, and llamaServerRunner.Completion's reading of llama-server's
// stream, fed by a fake llama-server that sends the case's pieces. The
// llm package itself does not build offline (ml, fs/ggml, ...). Blocks
// marked "verbatim" are checked by record.py against the source.
package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/ollama/ollama/api"
	"github.com/ollama/ollama/format"
)

// adapted: llm/server.go:160-162 (two of the constants of a const block)
const (
	llamaServerStreamInitialBufferSize = 64 * 1024
	llamaServerStreamMaxBufferSize     = 8 * format.MegaByte
)

// From ollama llm/server.go:165-177 (v0.33.0-rc2), verbatim.
type MediaKind string

const (
	MediaKindUnknown MediaKind = ""
	MediaKindImage   MediaKind = "image"
	MediaKindAudio   MediaKind = "audio"
)

type MediaData struct {
	Data []byte `json:"data"`
	ID   int    `json:"id"`
	Kind MediaKind
}

// adapted: of llm/server.go's LlamaServer interface (59-78), what the handlers call.
type LlamaServer interface {
	Completion(ctx context.Context, req CompletionRequest, fn func(CompletionResponse)) error
	Tokenize(ctx context.Context, content string) ([]int, error)
	Detokenize(ctx context.Context, tokens []int) (string, error)
	ContextLength() int
}

// adapted: NewMediaData (no case has images).
func NewMediaData(id int, data []byte) MediaData {
	return MediaData{Data: data, ID: id, Kind: MediaKindImage}
}

// From ollama llm/server.go:206-224 (v0.33.0-rc2), verbatim.
type CompletionRequest struct {
	Prompt  string
	Format  json.RawMessage
	Media   []MediaData
	Options *api.Options

	Grammar         string // set before sending the request to the subprocess
	Shift           bool
	Truncate        bool
	PreservedTokens []string // parser tokens to render as text; ignored by non-llama-server runners
	ToolCallTag     string   // raw generic tool parser tag, if any
	LeadingBOS      string   // textual BOS emitted by Go rendering, if any

	// Logprobs specifies whether to include log probabilities in the response
	Logprobs bool

	// TopLogprobs specifies the number of most likely alternative tokens to return (0-20)
	TopLogprobs int
}

// From ollama llm/server.go:249-292 (v0.33.0-rc2), verbatim.
// DoneReason represents the reason why a completion response is done
type DoneReason int

const (
	DoneReasonStop DoneReason = iota
	DoneReasonLength
	DoneReasonConnectionClosed
)

func (d DoneReason) String() string {
	switch d {
	case DoneReasonLength:
		return "length"
	case DoneReasonStop:
		return "stop"
	default:
		return ""
	}
}

// TokenLogprob represents log probability information for a single token alternative.
type TokenLogprob struct {
	Token   string  `json:"token"`
	Logprob float64 `json:"logprob"`
}

// Logprob contains log probability information for a generated token.
type Logprob struct {
	TokenLogprob
	TopLogprobs []TokenLogprob `json:"top_logprobs,omitempty"`
}

type CompletionResponse struct {
	Content            string        `json:"content"`
	DoneReason         DoneReason    `json:"done_reason"`
	Done               bool          `json:"done"`
	PromptEvalCount    int           `json:"prompt_eval_count"`
	PromptEvalDuration time.Duration `json:"prompt_eval_duration"`
	EvalCount          int           `json:"eval_count"`
	EvalDuration       time.Duration `json:"eval_duration"`

	// Logprobs contains log probability information if requested
	Logprobs []Logprob `json:"logprobs,omitempty"`
}

// From ollama llm/llama_server.go:1468-1475 (v0.33.0-rc2), verbatim.
// llamaServerCompletionResponse is the response format from llama-server's /completion endpoint.
type llamaServerCompletionResponse struct {
	Content                 string                 `json:"content"`
	Stop                    bool                   `json:"stop"`
	StopType                string                 `json:"stop_type"`
	Timings                 llamaServerTimings     `json:"timings"`
	CompletionProbabilities []llamaServerTokenProb `json:"completion_probabilities"`
}

// From ollama llm/llama_server.go:1503-1513 (v0.33.0-rc2), verbatim.
type llamaServerTimings struct {
	CacheN    int     `json:"cache_n"`
	PromptN   int     `json:"prompt_n"`
	PromptMS  float64 `json:"prompt_ms"`
	PredictN  int     `json:"predicted_n"`
	PredictMS float64 `json:"predicted_ms"`
}

func (t llamaServerTimings) promptEvalCount() int {
	return t.CacheN + t.PromptN
}

// From ollama llm/llama_server.go:1520-1526 (v0.33.0-rc2), verbatim.
type llamaServerTokenProb struct {
	Token       string                 `json:"token"`
	Logprob     float64                `json:"logprob"`
	Prob        float64                `json:"prob"`
	TopLogprobs []llamaServerTokenProb `json:"top_logprobs"`
	TopProbs    []llamaServerTokenProb `json:"top_probs"`
}

// adapted: the runner. llamaServerRunner talks to a llama-server process
// over HTTP; this one holds the lines of the SSE stream it would read.
type llamaServerRunner struct {
	events [][]byte
}

// NewRunner returns a runner whose llama-server sends each piece as
// `data: {"content": piece, "stop": false}` and then
// `data: {"content": "", "stop": true, "stop_type": "eos"}`.
func NewRunner(pieces []string) LlamaServer {
	var events [][]byte
	for _, p := range pieces {
		b, _ := json.Marshal(llamaServerCompletionResponse{Content: p})
		events = append(events, append([]byte("data: "), b...))
	}
	b, _ := json.Marshal(llamaServerCompletionResponse{Stop: true, StopType: "eos"})
	events = append(events, append([]byte("data: "), b...))
	return &recordingRunner{llamaServerRunner: &llamaServerRunner{events: events}}
}

// recordingRunner remembers the completion request and whether the
// stream ended without the final response (the token-repeat rule).
type recordingRunner struct {
	*llamaServerRunner
	last        *CompletionRequest
	repeatAbort bool
}

func (r *recordingRunner) Completion(ctx context.Context, req CompletionRequest, fn func(CompletionResponse)) error {
	r.last = &req
	sawDone := false
	err := r.llamaServerRunner.Completion(ctx, req, func(cr CompletionResponse) {
		if cr.Done {
			sawDone = true
		}
		fn(cr)
	})
	if err == nil && !sawDone && ctx.Err() == nil {
		r.repeatAbort = true
	}
	return err
}

// LastRequest is the completion request the handler made (nil if none).
func LastRequest(s LlamaServer) *CompletionRequest { return s.(*recordingRunner).last }

// RepeatAborted: the stream stopped at the token-repeat limit.
func RepeatAborted(s LlamaServer) bool { return s.(*recordingRunner).repeatAbort }

func (s *llamaServerRunner) Detokenize(ctx context.Context, tokens []int) (string, error) {
	return "", nil
}

// adapted: Tokenize is only used for the generate response's context
// (not recorded) and prompt truncation (not done); no tokens.
func (s *llamaServerRunner) Tokenize(ctx context.Context, content string) ([]int, error) {
	return nil, nil
}

// adapted: no context limit below the options'.
func (s *llamaServerRunner) ContextLength() int { return 0 }

func (s *llamaServerRunner) Close() error { return nil }

func (s *llamaServerRunner) lastErrMsg() string { return "" }

// adapted: the response body and bufio.Scanner over it.
type fakeBody struct{}

func (fakeBody) Close() error { return nil }

type fakeResponse struct{ Body fakeBody }

type fakeScanner struct {
	lines [][]byte
	i     int
}

func (s *fakeScanner) Scan() bool {
	if s.i >= len(s.lines) {
		return false
	}
	s.i++
	return true
}

func (s *fakeScanner) Bytes() []byte { return s.lines[s.i-1] }

func (s *fakeScanner) Err() error { return nil }

// From ollama llm/llama_server.go:1528-1534 (v0.33.0-rc2), verbatim.
func (s *llamaServerRunner) Completion(ctx context.Context, req CompletionRequest, fn func(CompletionResponse)) error {
	slog.Debug("llama-server completion request", "media", len(req.Media), "prompt_len", len(req.Prompt))

	if req.Options == nil {
		opts := api.DefaultOptions()
		req.Options = &opts
	}
	// adapted: lines 1536-1662 (the semaphore, the HTTP request to
	// llama-server, its status, the scanner over the body) are replaced by:
	res := fakeResponse{}
	scanner := &fakeScanner{lines: s.events}

	// From ollama llm/llama_server.go:1664-1780 (v0.33.0-rc2), verbatim.
	var lastToken string
	var tokenRepeat int
	var finalResp CompletionResponse
	var hasFinalResp bool

	for scanner.Scan() {
		select {
		case <-ctx.Done():
			return ctx.Err()
		default:
			line := scanner.Bytes()
			if len(line) == 0 {
				continue
			}
			if bytes.HasPrefix(line, []byte(":")) {
				continue
			}

			evt, ok := bytes.CutPrefix(line, []byte("data: "))
			if !ok {
				evt = line
			}

			var lsResp llamaServerCompletionResponse
			if err := json.Unmarshal(evt, &lsResp); err != nil {
				return fmt.Errorf("error unmarshalling llama-server response: %v", err)
			}

			// Token repeat detection
			switch {
			case strings.TrimSpace(lsResp.Content) == lastToken:
				tokenRepeat++
			default:
				lastToken = strings.TrimSpace(lsResp.Content)
				tokenRepeat = 0
			}
			if tokenRepeat > 30 {
				slog.Debug("prediction aborted, token repeat limit reached")
				return ctx.Err()
			}

			if lsResp.Content != "" && !lsResp.Stop {
				resp := CompletionResponse{
					Content: lsResp.Content,
				}
				resp.Logprobs = convertLogprobs(lsResp.CompletionProbabilities, req.TopLogprobs > 0)
				fn(resp)
			}

			if lsResp.Stop {
				doneReason := DoneReasonStop
				if lsResp.StopType == "limit" {
					doneReason = DoneReasonLength
				}

				finalResp = CompletionResponse{
					Content:            lsResp.Content,
					Done:               true,
					DoneReason:         doneReason,
					PromptEvalCount:    lsResp.Timings.promptEvalCount(),
					PromptEvalDuration: time.Duration(lsResp.Timings.PromptMS * float64(time.Millisecond)),
					EvalCount:          lsResp.Timings.PredictN,
					EvalDuration:       time.Duration(lsResp.Timings.PredictMS * float64(time.Millisecond)),
				}
				hasFinalResp = true
			}
		}

		if hasFinalResp {
			break
		}
	}

	if hasFinalResp {
		for scanner.Scan() {
		}

		if err := scanner.Err(); err != nil {
			if err := llamaServerStreamLimitError("response", err); err != nil {
				return err
			}
			return fmt.Errorf("error reading llama-server response: %v", err)
		}

		if err := res.Body.Close(); err != nil {
			return fmt.Errorf("error closing llama-server response: %v", err)
		}

		fn(finalResp)
		return nil
	}

	if err := scanner.Err(); err != nil {
		if err := llamaServerStreamLimitError("response", err); err != nil {
			return err
		}
		if strings.Contains(err.Error(), "unexpected EOF") || strings.Contains(err.Error(), "forcibly closed") {
			s.Close()
			msg := s.lastErrMsg()
			if msg == "" {
				msg = err.Error()
			}
			return fmt.Errorf("an error was encountered while running the model: %s", msg)
		}
		return fmt.Errorf("error reading llama-server response: %v", err)
	}

	return nil
}

func llamaServerStreamLimitError(label string, err error) error {
	if !strings.Contains(err.Error(), "token too long") {
		return nil
	}

	return fmt.Errorf("llama-server %s stream event exceeded %d MB limit", label, llamaServerStreamMaxBufferSize/(1000*1000))
}

// From ollama llm/llama_server.go:1798-1837 (v0.33.0-rc2), verbatim.
func convertLogprobs(probs []llamaServerTokenProb, includeTop bool) []Logprob {
	if len(probs) == 0 {
		return nil
	}
	result := make([]Logprob, len(probs))
	for i, p := range probs {
		// llama-server uses "logprob" for log-probs mode, "prob" for sampling-probs mode
		logprob := p.Logprob
		if logprob == 0 && p.Prob != 0 {
			logprob = p.Prob // Use whichever is set
		}
		result[i] = Logprob{
			TokenLogprob: TokenLogprob{
				Token:   p.Token,
				Logprob: logprob,
			},
		}

		if !includeTop {
			continue
		}

		// Convert top logprobs (could be top_logprobs or top_probs depending on mode)
		topProbs := p.TopLogprobs
		if len(topProbs) == 0 {
			topProbs = p.TopProbs
		}
		for _, tp := range topProbs {
			tl := tp.Logprob
			if tl == 0 && tp.Prob != 0 {
				tl = tp.Prob
			}
			result[i].TopLogprobs = append(result[i].TopLogprobs, TokenLogprob{
				Token:   tp.Token,
				Logprob: tl,
			})
		}
	}
	return result
}
