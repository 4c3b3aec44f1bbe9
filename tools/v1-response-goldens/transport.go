// The transport around the writers: what gin and Ollama's native handlers
// do with them, reimplemented over a buffer. Nothing here converts a
// response; see each "adapted" note for where it comes from.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/ollama/ollama/anthropic"
	"github.com/ollama/ollama/api"
	"github.com/ollama/ollama/openai"
)

// ResponseWriter is the part of gin.ResponseWriter (gin v1.10.0
// response_writer.go:20-44) that the writers and the native handlers use.
type ResponseWriter interface {
	http.ResponseWriter
	http.Flusher
	Status() int
	Written() bool
	WriteHeaderNow()
}

// recorder is gin's responseWriter (gin v1.10.0 response_writer.go:46-126,
// adapted) over a buffer instead of a connection: status 200 until
// WriteHeader changes it, the header "sent" (copied to sent) at the first
// Write or Flush, WriteHeader ignored once something is written.
type recorder struct {
	header http.Header
	sent   http.Header
	size   int
	status int
	body   bytes.Buffer
}

func newRecorder() *recorder {
	return &recorder{header: http.Header{}, size: -1, status: http.StatusOK}
}

func (w *recorder) Header() http.Header { return w.header }

func (w *recorder) WriteHeader(code int) {
	if code > 0 && w.status != code {
		if w.Written() {
			return
		}
		w.status = code
	}
}

func (w *recorder) WriteHeaderNow() {
	if !w.Written() {
		w.size = 0
		w.sent = w.header.Clone()
	}
}

func (w *recorder) Write(data []byte) (int, error) {
	w.WriteHeaderNow()
	n, err := w.body.Write(data)
	w.size += n
	return n, err
}

func (w *recorder) Flush() { w.WriteHeaderNow() }

func (w *recorder) Status() int { return w.status }

func (w *recorder) Written() bool { return w.size != -1 }

// nativeWriter is what a native handler sees as c.Writer: the middleware's
// writer (ChatWriter, ...), whose Write converts, over the recorder.
type nativeWriter interface {
	Header() http.Header
	WriteHeader(int)
	Write([]byte) (int, error)
	Written() bool
	Flush()
}

// isError tells an error chunk ({"error": ...}) from a response chunk.
func isError(chunk json.RawMessage) (map[string]json.RawMessage, bool) {
	var m map[string]json.RawMessage
	if json.Unmarshal(chunk, &m) != nil {
		return nil, false
	}
	_, ok := m["error"]
	return m, ok
}

// errorBody is the body a native handler writes for an error chunk that
// comes first: c.JSON(status, gin.H{"error": msg}) (json.Marshal of a map:
// sorted keys), or, where the chunk has "StatusCode", c.JSON(code,
// api.StatusError) as GenerateHandler/ChatHandler do for a remote model's
// error (server/routes.go:393).
func errorBody(chunk json.RawMessage) []byte {
	m, _ := isError(chunk)
	var v any
	if _, ok := m["StatusCode"]; ok {
		var serr api.StatusError
		if err := json.Unmarshal(chunk, &serr); err != nil {
			panic(err)
		}
		v = serr
	} else {
		var h map[string]any
		if err := json.Unmarshal(chunk, &h); err != nil {
			panic(err)
		}
		v = h
	}
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// serveNative writes the chunks to c as the native handler would
// (adapted: server/routes.go streamResponse 2097-2144 under gin's
// Context.Stream, context.go:1116-1131, for stream; writeChatResponse
// 2387-2435 / GenerateHandler 750-790's c.JSON for the unstreamed answer):
//
//   - stream: Content-Type application/x-ndjson, then each response chunk as
//     json.Marshal(chunk) + "\n", one Write each, a Flush after each; an error
//     chunk ends the stream: first in the stream, c.JSON(status, {"error":
//     msg}) (WriteHeader(status), then one Write); later,
//     json.NewEncoder(c.Writer).Encode(gin.H{"error": msg}) at status 200;
//   - unstreamed: one chunk, c.JSON(200, response) or c.JSON(status, error).
//
// A chunk that is a JSON string (raw) is written as those bytes, with the
// case's status (only for the writers' non-JSON fallback; no native
// handler writes one). The canonical native chunks (what json.Marshal
// of the decoded api type writes) are returned for the golden.
func serveNative(c nativeWriter, route string, stream bool, status int, chunks []json.RawMessage) []json.RawMessage {
	var out []json.RawMessage
	if stream {
		c.Header().Set("Content-Type", "application/x-ndjson")
	}
	for i, chunk := range chunks {
		var raw string
		if json.Unmarshal(chunk, &raw) == nil {
			if i != 0 || status == http.StatusOK {
				panic("a raw chunk must come first, with an error status")
			}
			c.Header().Set("Content-Type", "application/json")
			c.WriteHeader(status)
			c.Write([]byte(raw))
			c.Flush()
			out = append(out, chunk)
			if len(chunks) != 1 {
				panic("a raw chunk must be the only one")
			}
			return out
		}
		if m, ok := isError(chunk); ok {
			if i != len(chunks)-1 {
				panic("an error chunk must be the last")
			}
			if !c.Written() {
				if status == http.StatusOK {
					panic("an error answered first needs an error status")
				}
				body := errorBody(chunk)
				c.Header().Set("Content-Type", "application/json")
				c.WriteHeader(status)
				c.Write(body)
				c.Flush()
				out = append(out, body)
			} else {
				var msg string
				if err := json.Unmarshal(m["error"], &msg); err != nil {
					panic(err)
				}
				var b bytes.Buffer
				if err := json.NewEncoder(&b).Encode(map[string]any{"error": msg}); err != nil {
					panic(err)
				}
				c.Write(b.Bytes())
				c.Flush()
				out = append(out, bytes.TrimSuffix(b.Bytes(), []byte("\n")))
			}
			return out
		}
		if i == 0 && status != http.StatusOK {
			panic("an error status needs an error chunk")
		}
		var v any
		if route == "openai-completions" {
			v = new(api.GenerateResponse)
		} else {
			v = new(api.ChatResponse)
		}
		dec := json.NewDecoder(bytes.NewReader(chunk))
		dec.DisallowUnknownFields()
		if err := dec.Decode(v); err != nil {
			panic(fmt.Sprintf("chunk %d: %v: %s", i, err, chunk))
		}
		b, err := json.Marshal(v)
		if err != nil {
			panic(err)
		}
		out = append(out, b)
		if stream {
			c.Write(append(b, '\n'))
			c.Flush()
		} else {
			if len(chunks) != 1 {
				panic("an unstreamed answer is one chunk")
			}
			c.WriteHeader(http.StatusOK)
			c.Write(b)
		}
	}
	return out
}

// decodeRequest decodes a request body as gin's ShouldBindJSON does
// (gin v1.10.0 binding/json.go decodeJSON: json.NewDecoder, no UseNumber,
// unknown fields allowed; the structs have no binding tags to validate).
func decodeRequest(body json.RawMessage, v any) {
	if err := json.NewDecoder(bytes.NewReader(body)).Decode(v); err != nil {
		panic(err)
	}
}

var (
	chatID     = "chatcmpl-%d"
	completeID = "cmpl-%d"
	responseID = "resp_%d"
	itemID     = "msg_%d"
)

// checkID panics unless id is one that format (the middleware's
// fmt.Sprintf with rand.Intn(n)) can produce.
func checkID(id, format string, n int) {
	var k int
	if _, err := fmt.Sscanf(id, format, &k); err != nil || k < 0 || k >= n || fmt.Sprintf(format, k) != id {
		panic(fmt.Sprintf("id %q is not %s with 0 <= %%d < %d", id, format, n))
	}
}

// newWriter sets up the route's writer over rec as its middleware does,
// with the case's ids in place of the random ones. Each request is first
// put through the middleware's own checks and conversion (which must
// accept it), so every case is a request Ollama would serve.
func newWriter(route string, body json.RawMessage, ids map[string]string, rec *recorder) (nativeWriter, bool) {
	switch route {
	case "openai-chat":
		// adapted: middleware/openai.go:446-482 (ChatMiddleware), the id
		// fmt.Sprintf("chatcmpl-%d", rand.Intn(999)) given.
		var req openai.ChatCompletionRequest
		decodeRequest(body, &req)
		if len(req.Messages) == 0 {
			panic("no messages")
		}
		if _, err := openai.FromChatRequest(req); err != nil {
			panic(err)
		}
		checkID(ids["id"], chatID, 999)
		w := &ChatWriter{
			BaseWriter:    BaseWriter{ResponseWriter: rec},
			stream:        req.Stream,
			id:            ids["id"],
			streamOptions: req.StreamOptions,
		}
		return w, req.Stream
	case "openai-completions":
		// adapted: middleware/openai.go:360-390 (CompletionsMiddleware),
		// the id fmt.Sprintf("cmpl-%d", rand.Intn(999)) given.
		var req openai.CompletionRequest
		decodeRequest(body, &req)
		if _, err := openai.FromCompleteRequest(req); err != nil {
			panic(err)
		}
		checkID(ids["id"], completeID, 999)
		w := &CompleteWriter{
			BaseWriter:    BaseWriter{ResponseWriter: rec},
			stream:        req.Stream,
			id:            ids["id"],
			streamOptions: req.StreamOptions,
		}
		return w, req.Stream
	case "openai-responses":
		// adapted: middleware/openai.go:1154-1229 (ResponsesMiddleware),
		// the ids fmt.Sprintf("resp_%d", rand.Intn(999999)) and
		// fmt.Sprintf("msg_%d", rand.Intn(999999)) given; no web_search
		// tool (that writer needs the cloud).
		var req openai.ResponsesRequest
		decodeRequest(body, &req)
		if _, err := openai.FromResponsesRequest(req); err != nil {
			panic(err)
		}
		if openai.HasWebSearchTool(req.Tools) {
			panic("web_search tools are out of scope")
		}
		streamRequested := req.Stream != nil && *req.Stream
		checkID(ids["response_id"], responseID, 999999)
		checkID(ids["item_id"], itemID, 999999)
		w := &ResponsesWriter{
			BaseWriter: BaseWriter{ResponseWriter: rec},
			converter:  openai.NewResponsesStreamConverter(ids["response_id"], ids["item_id"], req.Model, req),
			model:      req.Model,
			stream:     streamRequested,
			responseID: ids["response_id"],
			itemID:     ids["item_id"],
			request:    req,
		}
		if streamRequested {
			rec.Header().Set("Content-Type", "text/event-stream")
			rec.Header().Set("Cache-Control", "no-cache")
			rec.Header().Set("Connection", "keep-alive")
		}
		return w, streamRequested
	case "anthropic-messages":
		// adapted: middleware/anthropic.go:731-816
		// (AnthropicMessagesMiddleware), the id anthropic.GenerateMessageID()
		// ("msg_" + 24 hex digits from crypto/rand) given; no web_search
		// tool.
		var req anthropic.MessagesRequest
		decodeRequest(body, &req)
		if req.Model == "" || req.MaxTokens <= 0 || len(req.Messages) == 0 {
			panic("model, max_tokens and messages are required")
		}
		if _, err := anthropic.FromMessagesRequest(req); err != nil {
			panic(err)
		}
		for _, t := range req.Tools {
			if strings.HasPrefix(t.Type, "web_search") {
				panic("web_search tools are out of scope")
			}
		}
		messageID := ids["message_id"]
		if len(messageID) != len("msg_")+24 || !strings.HasPrefix(messageID, "msg_") || strings.Trim(messageID[4:], "0123456789abcdef") != "" {
			panic("message_id is msg_ and 24 hex digits")
		}
		estimatedTokens := anthropic.EstimateInputTokens(req)
		w := &AnthropicWriter{
			BaseWriter: BaseWriter{ResponseWriter: rec},
			stream:     req.Stream,
			id:         messageID,
			converter:  anthropic.NewStreamConverter(messageID, req.Model, estimatedTokens),
		}
		if req.Stream {
			rec.Header().Set("Content-Type", "text/event-stream")
			rec.Header().Set("Cache-Control", "no-cache")
			rec.Header().Set("Connection", "keep-alive")
		}
		return w, req.Stream
	}
	panic("unknown route " + route)
}

// estimate returns what anthropic.EstimateInputTokens makes of a Messages
// request (recorded with each Messages case).
func estimate(body json.RawMessage) int {
	var req anthropic.MessagesRequest
	decodeRequest(body, &req)
	return anthropic.EstimateInputTokens(req)
}
