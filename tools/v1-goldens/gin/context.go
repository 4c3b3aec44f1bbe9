// Package gin is the part of github.com/gin-gonic/gin v1.10.0 that
// Ollama's compatibility middlewares (middleware/openai.go ChatMiddleware,
// CompletionsMiddleware, ResponsesMiddleware, middleware/anthropic.go
// AnthropicMessagesMiddleware) use up to the point where they hand the
// converted request on: c.ShouldBindJSON, c.AbortWithStatusJSON (c.JSON,
// c.Render, c.Status), c.Set, c.Next, c.Request and the response writer;
// and gin.H (utils.go), which the body decoding of server/routes.go's
// ChatHandler and GenerateHandler also uses (see ../native).
// gin itself is not built (its dependencies are not available offline);
// the blocks marked verbatim are gin's lines unchanged, and record.py
// checks them against GIN_SRC. What is adapted says so.
package gin

import (
	"net/http"
	"sync"

	"github.com/ollama/ollama/promptscope-v1-goldens/gin/binding"
	"github.com/ollama/ollama/promptscope-v1-goldens/gin/render"
)

// From gin gin.go:47-48 (v1.10.0), verbatim.
// HandlerFunc defines the handler used by gin middleware as return value.
type HandlerFunc func(*Context)

// Adapted from gin context.go:55-91 (v1.10.0): the fields the copied code
// uses. aborted stands for gin's `index = abortIndex`; NextCalled records
// that the middleware called c.Next(), i.e. handed the request, whose Body
// it replaced by the converted request, to the next handler (Ollama's
// ChatHandler or GenerateHandler).
type Context struct {
	Request *http.Request
	Writer  ResponseWriter

	// This mutex protects Keys map.
	mu sync.RWMutex

	// Keys is a key/value pair exclusively for the context of each request.
	Keys map[string]any

	// Errors is a list of errors attached to all the handlers/middlewares who used this context.
	Errors []error

	aborted    bool
	NextCalled bool
}

// NewContext is what gin's engine does for one request (gin.go
// ServeHTTP/handleHTTPRequest, context.go reset): a context over req whose
// writer starts unwritten with status 200.
func NewContext(req *http.Request, w http.ResponseWriter) *Context {
	c := &Context{Request: req}
	rw := &responseWriter{}
	rw.reset(w)
	c.Writer = rw
	return c
}

// Aborted reports whether c.Abort was called (gin: c.IsAborted()).
func (c *Context) Aborted() bool { return c.aborted }

// Adapted from gin context.go:199-201 (v1.10.0): `c.index = abortIndex`.
func (c *Context) Abort() {
	c.aborted = true
}

// Adapted from gin context.go:182-188 (v1.10.0): the rest of the chain is
// not run here; the recorder reads c.Request.Body, which is what the next
// handler would bind.
func (c *Context) Next() {
	c.NextCalled = true
}

// Adapted from gin context.go:236-252 (v1.10.0): the error is kept as is
// (gin wraps it in an *Error of type ErrorTypePrivate).
func (c *Context) Error(err error) error {
	if err == nil {
		panic("err is nil")
	}
	c.Errors = append(c.Errors, err)
	return err
}

// From gin context.go:211-217 (v1.10.0), verbatim.
// AbortWithStatusJSON calls `Abort()` and then `JSON` internally.
// This method stops the chain, writes the status code and return a JSON body.
// It also sets the Content-Type as "application/json".
func (c *Context) AbortWithStatusJSON(code int, jsonObj any) {
	c.Abort()
	c.JSON(code, jsonObj)
}

// From gin context.go:258-268 (v1.10.0), verbatim.
// Set is used to store a new key/value pair exclusively for this context.
// It also lazy initializes  c.Keys if it was not used previously.
func (c *Context) Set(key string, value any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.Keys == nil {
		c.Keys = make(map[string]any)
	}

	c.Keys[key] = value
}

// From gin context.go:710-713 (v1.10.0), verbatim.
// ShouldBindJSON is a shortcut for c.ShouldBindWith(obj, binding.JSON).
func (c *Context) ShouldBindJSON(obj any) error {
	return c.ShouldBindWith(obj, binding.JSON)
}

// From gin context.go:749-753 (v1.10.0), verbatim.
// ShouldBindWith binds the passed struct pointer using the specified binding engine.
// See the binding package.
func (c *Context) ShouldBindWith(obj any, b binding.Binding) error {
	return b.Bind(c.Request, obj)
}

// From gin context.go:871-887 (v1.10.0), verbatim.
// bodyAllowedForStatus is a copy of http.bodyAllowedForStatus non-exported function.
func bodyAllowedForStatus(status int) bool {
	switch {
	case status >= 100 && status <= 199:
		return false
	case status == http.StatusNoContent:
		return false
	case status == http.StatusNotModified:
		return false
	}
	return true
}

// Status sets the HTTP response code.
func (c *Context) Status(code int) {
	c.Writer.WriteHeader(code)
}

// From gin context.go:950-965 (v1.10.0), verbatim.
// Render writes the response headers and calls render.Render to render data.
func (c *Context) Render(code int, r render.Render) {
	c.Status(code)

	if !bodyAllowedForStatus(code) {
		r.WriteContentType(c.Writer)
		c.Writer.WriteHeaderNow()
		return
	}

	if err := r.Render(c.Writer); err != nil {
		// Pushing error to c.Errors
		_ = c.Error(err)
		c.Abort()
	}
}

// From gin context.go:1002-1006 (v1.10.0), verbatim.
// JSON serializes the given struct as JSON into the response body.
// It also sets the Content-Type as "application/json".
func (c *Context) JSON(code int, obj any) {
	c.Render(code, render.JSON{Data: obj})
}

// From gin response_writer.go:14-17 (v1.10.0), verbatim.
const (
	noWritten     = -1
	defaultStatus = http.StatusOK
)

// Adapted from gin response_writer.go:19-44 (v1.10.0): the methods the
// copied code uses.
type ResponseWriter interface {
	http.ResponseWriter

	// Status returns the HTTP response status code of the current request.
	Status() int

	// Written returns true if the response body was already written.
	Written() bool

	// WriteHeaderNow forces to write the http header (status code + headers).
	WriteHeaderNow()
}

// From gin response_writer.go:46-50 (v1.10.0), verbatim.
type responseWriter struct {
	http.ResponseWriter
	size   int
	status int
}

// From gin response_writer.go:58-86 (v1.10.0), verbatim.
func (w *responseWriter) reset(writer http.ResponseWriter) {
	w.ResponseWriter = writer
	w.size = noWritten
	w.status = defaultStatus
}

func (w *responseWriter) WriteHeader(code int) {
	if code > 0 && w.status != code {
		if w.Written() {
			debugPrint("[WARNING] Headers were already written. Wanted to override status code %d with %d", w.status, code)
			return
		}
		w.status = code
	}
}

func (w *responseWriter) WriteHeaderNow() {
	if !w.Written() {
		w.size = 0
		w.ResponseWriter.WriteHeader(w.status)
	}
}

func (w *responseWriter) Write(data []byte) (n int, err error) {
	w.WriteHeaderNow()
	n, err = w.ResponseWriter.Write(data)
	w.size += n
	return
}

// From gin response_writer.go:95-97 (v1.10.0), verbatim.
func (w *responseWriter) Status() int {
	return w.status
}

// From gin response_writer.go:103-105 (v1.10.0), verbatim.
func (w *responseWriter) Written() bool {
	return w.size != noWritten
}

// debugPrint (gin debug.go) prints a warning in gin's debug mode; it does
// not change the answer, and the copied code never reaches it (the
// middlewares write one answer).
func debugPrint(format string, values ...any) {}
