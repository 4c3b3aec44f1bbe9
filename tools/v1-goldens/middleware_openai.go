// Ollama v0.33.0-rc2's OpenAI compatibility middlewares
// (middleware/openai.go), up to the point where each hands the converted
// request to the next handler. The middleware package does not build
// offline (gin, klauspost/compress); each function is copied from its
// first line to the line that replaces the request body, with gin's
// Context from ./gin (the same calls, reimplemented from gin v1.10.0).
// What follows in Ollama only sets up the response writer (ChatWriter,
// CompleteWriter, ResponsesWriter, with random ids for the responses) and
// is left out; see each "adapted" note.
package main

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"

	"github.com/ollama/ollama/openai"
	"github.com/ollama/ollama/promptscope-v1-goldens/gin"
)

// webSearchKey is set on the context where Ollama would wrap the response
// writer in its web-search writer (a record of the branch taken; the
// conversion itself does not change).
const webSearchKey = "promptscope.web_search"

// From ollama middleware/openai.go:360-381 (v0.33.0-rc2), verbatim.
func CompletionsMiddleware() gin.HandlerFunc {
	return func(c *gin.Context) {
		var req openai.CompletionRequest
		err := c.ShouldBindJSON(&req)
		if err != nil {
			c.AbortWithStatusJSON(http.StatusBadRequest, openai.NewError(http.StatusBadRequest, err.Error()))
			return
		}

		var b bytes.Buffer
		genReq, err := openai.FromCompleteRequest(req)
		if err != nil {
			c.AbortWithStatusJSON(http.StatusBadRequest, openai.NewError(http.StatusBadRequest, err.Error()))
			return
		}

		if err := json.NewEncoder(&b).Encode(genReq); err != nil {
			c.AbortWithStatusJSON(http.StatusInternalServerError, openai.NewError(http.StatusInternalServerError, err.Error()))
			return
		}

		c.Request.Body = io.NopCloser(&b)
		// adapted: lines 383-390 (the CompleteWriter, id "cmpl-<rand>") shape
		// the response only.
		c.Next()
	}
}

// From ollama middleware/openai.go:446-473 (v0.33.0-rc2), verbatim.
func ChatMiddleware() gin.HandlerFunc {
	return func(c *gin.Context) {
		var req openai.ChatCompletionRequest
		err := c.ShouldBindJSON(&req)
		if err != nil {
			c.AbortWithStatusJSON(http.StatusBadRequest, openai.NewError(http.StatusBadRequest, err.Error()))
			return
		}

		if len(req.Messages) == 0 {
			c.AbortWithStatusJSON(http.StatusBadRequest, openai.NewError(http.StatusBadRequest, "[] is too short - 'messages'"))
			return
		}

		var b bytes.Buffer

		chatReq, err := openai.FromChatRequest(req)
		if err != nil {
			c.AbortWithStatusJSON(http.StatusBadRequest, openai.NewError(http.StatusBadRequest, err.Error()))
			return
		}

		if err := json.NewEncoder(&b).Encode(chatReq); err != nil {
			c.AbortWithStatusJSON(http.StatusInternalServerError, openai.NewError(http.StatusInternalServerError, err.Error()))
			return
		}

		c.Request.Body = io.NopCloser(&b)
		// adapted: lines 475-482 (the ChatWriter, id "chatcmpl-<rand>") shape
		// the response only.
		c.Next()
	}
}

// From ollama middleware/openai.go:1154-1156 (v0.33.0-rc2), verbatim.
func ResponsesMiddleware() gin.HandlerFunc {
	return func(c *gin.Context) {
		requestCtx := c.Request.Context()
		// adapted: lines 1157-1166, the zstd branch (Content-Encoding: zstd),
		// are left out; the recorder sends plain JSON bodies.

		// From ollama middleware/openai.go:1168-1192 (v0.33.0-rc2), verbatim.
		var req openai.ResponsesRequest
		if err := c.ShouldBindJSON(&req); err != nil {
			c.AbortWithStatusJSON(http.StatusBadRequest, openai.NewError(http.StatusBadRequest, err.Error()))
			return
		}

		chatReq, err := openai.FromResponsesRequest(req)
		if err != nil {
			c.AbortWithStatusJSON(http.StatusBadRequest, openai.NewError(http.StatusBadRequest, err.Error()))
			return
		}

		// Check if client requested streaming (defaults to false)
		streamRequested := req.Stream != nil && *req.Stream

		// Pass streaming preference to the underlying chat request
		chatReq.Stream = &streamRequested

		var b bytes.Buffer
		if err := json.NewEncoder(&b).Encode(chatReq); err != nil {
			c.AbortWithStatusJSON(http.StatusInternalServerError, openai.NewError(http.StatusInternalServerError, err.Error()))
			return
		}

		c.Request.Body = io.NopCloser(&b)
		// adapted: lines 1194-1212 (random response and item ids, the
		// ResponsesWriter, streaming headers) shape the response only.

		// From ollama middleware/openai.go:1214-1216 (v0.33.0-rc2), verbatim.
		hasWebSearch := openai.HasWebSearchTool(req.Tools)
		slog.Debug("parsed Responses tools", "count", len(req.Tools), "web_search", hasWebSearch)
		if hasWebSearch {
			// adapted: lines 1217-1225 wrap the writer in a
			// WebSearchResponsesWriter (which runs the search loop on the
			// model's answer, with a context derived from requestCtx).
			c.Set(webSearchKey, true)
			_ = requestCtx
		}
		c.Next()
	}
}
