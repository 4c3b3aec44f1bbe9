// Command context-goldens runs Ollama v0.33.0-rc2's own truncation code
// against a real llama-server (built from the llama-cpp-python 0.3.36
// sdist, llama.cpp 0c1e570): native-mode truncation
// (server/routes.go truncateNativeChatMessages, with llm/llama_server.go's
// ApplyChatTemplate, Tokenize and llamaServerChatRequest as its glue) and
// the runner's second stage (llm/llama_server.go
// completionPromptForRequest). The server package cannot be built offline
// (cgo, GPU discovery, dozens of modules), so the functions are copied
// here, line for line, with only the receiver replaced; each copy names
// the lines it comes from.
//
// Input: one JSON object per stdin line (see record.py); output: one per
// stdout line.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"
)

// api.ToolCall (api/types.go), arguments kept in their order.
type ToolCall struct {
	ID       string `json:"id,omitempty"`
	Function struct {
		Index     int             `json:"index"`
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"function"`
}

// api.Message (api/types.go), the fields the native path reads.
type Message struct {
	Role       string     `json:"role"`
	Content    string     `json:"content"`
	Thinking   string     `json:"thinking,omitempty"`
	Images     []string   `json:"images,omitempty"`
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
	ToolName   string     `json:"tool_name,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
}

type runner struct{ port int }

type chatRequest struct {
	Messages []Message
	Tools    json.RawMessage
	Think    json.RawMessage
}

// llm/llama_server.go:2481-2526 (tokenize).
func (s *runner) tokenize(content any, addSpecial bool, parseSpecial *bool) ([]int, error) {
	req := struct {
		Content      any   `json:"content"`
		AddSpecial   bool  `json:"add_special,omitempty"`
		ParseSpecial *bool `json:"parse_special,omitempty"`
	}{
		Content:      content,
		AddSpecial:   addSpecial,
		ParseSpecial: parseSpecial,
	}
	data, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	resp, err := http.Post(fmt.Sprintf("http://127.0.0.1:%d/tokenize", s.port), "application/json", bytes.NewBuffer(data))
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode >= 400 {
		return nil, fmt.Errorf("tokenize error: %s", body)
	}
	var result struct {
		Tokens []int `json:"tokens"`
	}
	if err := json.Unmarshal(body, &result); err != nil {
		return nil, err
	}
	return result.Tokens, nil
}

// llm/llama_server.go:2529-2531 (Tokenize).
func (s *runner) Tokenize(content string) ([]int, error) {
	return s.tokenize(content, false, nil)
}

// llm/llama_server.go:2189-2203 (llamaServerChatTemplateKwargs), with
// api.ThinkValue's Bool and String (api/types.go).
func chatTemplateKwargs(think json.RawMessage) map[string]any {
	if len(think) == 0 || string(think) == "null" {
		return nil
	}
	var b bool
	if json.Unmarshal(think, &b) == nil {
		return map[string]any{"enable_thinking": b}
	}
	var s string
	json.Unmarshal(think, &s)
	kwargs := map[string]any{"enable_thinking": s != "" && s != "none"}
	if s != "" {
		kwargs["reasoning_effort"] = s
	}
	return kwargs
}

// llm/llama_server.go:2205-2244 and 2290-2306 (llamaServerChatMessage,
// llamaServerChatToolCalls); images are not part of these cases.
func chatMessage(msg Message) map[string]any {
	converted := map[string]any{"role": msg.Role}
	if msg.ToolCallID != "" {
		converted["tool_call_id"] = msg.ToolCallID
	}
	if msg.ToolName != "" {
		converted["name"] = msg.ToolName
	}
	if len(msg.ToolCalls) > 0 {
		calls := make([]map[string]any, len(msg.ToolCalls))
		for i, tc := range msg.ToolCalls {
			args, _ := json.Marshal(tc.Function.Arguments)
			calls[i] = map[string]any{
				"id":    tc.ID,
				"index": tc.Function.Index,
				"type":  "function",
				"function": map[string]any{
					"name":      tc.Function.Name,
					"arguments": string(args),
				},
			}
		}
		converted["tool_calls"] = calls
	}
	converted["content"] = msg.Content
	return converted
}

// llm/llama_server.go:2137-2187 (llamaServerChatRequest), options at
// api.DefaultOptions (they do not reach the template).
func (s *runner) chatRequest(req chatRequest) map[string]any {
	messages := make([]map[string]any, 0, len(req.Messages))
	for _, msg := range req.Messages {
		messages = append(messages, chatMessage(msg))
	}
	body := map[string]any{
		"messages":     messages,
		"stream":       false,
		"cache_prompt": true,
	}
	if len(req.Tools) > 0 && string(req.Tools) != "null" {
		body["tools"] = req.Tools
	}
	if kwargs := chatTemplateKwargs(req.Think); kwargs != nil {
		body["chat_template_kwargs"] = kwargs
	}
	return body
}

// llm/llama_server.go:1839-1883 (ApplyChatTemplate).
func (s *runner) ApplyChatTemplate(req chatRequest) (string, error) {
	body, err := json.Marshal(s.chatRequest(req))
	if err != nil {
		return "", fmt.Errorf("failed to marshal chat template request: %v", err)
	}
	res, err := http.Post(fmt.Sprintf("http://127.0.0.1:%d/apply-template", s.port), "application/json", bytes.NewReader(body))
	if err != nil {
		return "", fmt.Errorf("llama-server apply-template error: %w", err)
	}
	defer res.Body.Close()
	bodyBytes, err := io.ReadAll(res.Body)
	if err != nil {
		return "", fmt.Errorf("failed reading llama-server template response: %w", err)
	}
	if res.StatusCode >= 400 {
		return "", errors.New(strings.TrimSpace(string(bodyBytes)))
	}
	var lsResp struct {
		Prompt string `json:"prompt"`
		Error  any    `json:"error"`
	}
	if err := json.Unmarshal(bodyBytes, &lsResp); err != nil {
		return "", fmt.Errorf("error unmarshalling llama-server template response: %v", err)
	}
	if lsResp.Error != nil {
		return "", fmt.Errorf("llama-server template error: %v", lsResp.Error)
	}
	return lsResp.Prompt, nil
}

// server/routes.go:3040-3096 (truncateNativeChatMessages); `projector`
// stands for m.ProjectorPaths != nil.
func truncateNativeChatMessages(r *runner, projector bool, numCtx int, req chatRequest, truncate bool) ([]Message, error) {
	if !truncate || numCtx <= 0 || len(req.Messages) <= 1 {
		return req.Messages, nil
	}

	lastMsgIdx := len(req.Messages) - 1
	currMsgIdx := 0
	var system []Message

	for i := 0; i <= lastMsgIdx; i++ {
		system = system[:0]
		for j := range i {
			if req.Messages[j].Role == "system" {
				system = append(system, req.Messages[j])
			}
		}

		renderReq := req
		renderReq.Messages = append(slices.Clone(system), req.Messages[i:]...)
		prompt, err := r.ApplyChatTemplate(renderReq)
		if err != nil {
			return nil, err
		}

		tokens, err := r.Tokenize(prompt)
		if err != nil {
			return nil, err
		}

		ctxLen := len(tokens)
		if projector {
			for _, msg := range renderReq.Messages {
				ctxLen += 768 * len(msg.Images)
			}
		}

		if ctxLen <= numCtx {
			currMsgIdx = i
			break
		}
		if i == lastMsgIdx {
			currMsgIdx = lastMsgIdx
			break
		}
	}

	system = system[:0]
	for j := range currMsgIdx {
		if req.Messages[j].Role == "system" {
			system = append(system, req.Messages[j])
		}
	}
	return append(slices.Clone(system), req.Messages[currMsgIdx:]...), nil
}

// llm/llama_server.go:321-331 (contextShiftPromptLimit).
func contextShiftPromptLimit(numCtx, numKeep int) int {
	if numCtx <= 1 {
		return 0
	}
	numKeep = min(max(numKeep, 0), numCtx-1)
	return numCtx - max((numCtx-numKeep)/2, 1)
}

const promptTooLong = "the prompt is longer than the context length currently available to the model; shorten the prompt, adjust the context length in settings, or use a model with a longer context length"

// llm/llama_server.go:279-319 (completionPromptForRequest), after
// completionPrompt (the prompt arrives as sent); `addsBOS` stands for
// s.tokenizerAddsBOS(), `shift` for s.launch.config.ContextShift.
func completionPromptForRequest(s *runner, prompt string, truncate, media bool, numCtx, numKeep int, addsBOS, shift bool) (any, error) {
	if !truncate || media || numCtx <= 1 || len(prompt) < numCtx {
		return prompt, nil
	}

	tokens, err := s.tokenize(prompt, true, nil)
	if err != nil {
		return nil, err
	}

	fullPromptLimit := numCtx - 1
	if len(tokens) <= fullPromptLimit {
		return prompt, nil
	}

	if !shift {
		return nil, errors.New(promptTooLong)
	}

	nKeep := numKeep
	if nKeep < 0 {
		nKeep = len(tokens)
	}
	if addsBOS {
		nKeep++
	}
	nKeep = min(nKeep, fullPromptLimit)

	limit := contextShiftPromptLimit(numCtx, nKeep)
	discard := len(tokens) - limit
	truncated := make([]int, 0, limit)
	truncated = append(truncated, tokens[:nKeep]...)
	truncated = append(truncated, tokens[nKeep+discard:]...)
	return truncated, nil
}

type input struct {
	Op        string          `json:"op"`
	Port      int             `json:"port"`
	Messages  []Message       `json:"messages"`
	Tools     json.RawMessage `json:"tools"`
	Think     json.RawMessage `json:"think"`
	NumCtx    int             `json:"num_ctx"`
	Projector bool            `json:"projector"`
	Truncate  *bool           `json:"truncate"`
	Prompt    string          `json:"prompt"`
	NumKeep   int             `json:"num_keep"`
	AddsBOS   bool            `json:"adds_bos"`
	Shift     bool            `json:"shift"`
	Media     bool            `json:"media"`
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<28)
	out := json.NewEncoder(os.Stdout)
	out.SetEscapeHTML(false)
	for in.Scan() {
		var c input
		if err := json.Unmarshal(in.Bytes(), &c); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		r := &runner{port: c.Port}
		truncate := c.Truncate == nil || *c.Truncate
		res := map[string]any{}
		switch c.Op {
		case "truncate":
			req := chatRequest{Messages: c.Messages, Tools: c.Tools, Think: c.Think}
			kept, err := truncateNativeChatMessages(r, c.Projector, c.NumCtx, req, truncate)
			if err != nil {
				res["error"] = err.Error()
				break
			}
			req.Messages = kept
			prompt, err := r.ApplyChatTemplate(req)
			if err != nil {
				res["error"] = err.Error()
				break
			}
			res["kept"] = len(kept)
			res["prompt"] = prompt
		case "runner":
			p, err := completionPromptForRequest(r, c.Prompt, truncate, c.Media, c.NumCtx, c.NumKeep, c.AddsBOS, c.Shift)
			if err != nil {
				res["error"] = err.Error()
			} else if t, ok := p.([]int); ok {
				res["tokens"] = t
			} else {
				res["prompt"] = p
			}
		default:
			fmt.Fprintln(os.Stderr, "unknown op", c.Op)
			os.Exit(1)
		}
		if err := out.Encode(res); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	if err := in.Err(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
