// Package gin is what the copied handler code uses of gin (v1.10.0), which
// is not built here: gin.H (as gin's utils.go declares it) and a Context
// whose JSON, Get and Request only record what the handler answers.
// adapted: all of it.
package gin

import "net/http"

// H is gin's `type H map[string]any`.
type H map[string]any

// Context records the answer the handler writes with c.JSON.
type Context struct {
	Request *http.Request
	Keys    map[string]any

	Answered bool
	Status   int
	Body     any
}

// JSON records the status and the object the handler answers with.
func (c *Context) JSON(code int, obj any) {
	c.Answered = true
	c.Status = code
	c.Body = obj
}

// AbortWithStatusJSON records the answer like JSON.
func (c *Context) AbortWithStatusJSON(code int, obj any) {
	c.JSON(code, obj)
}

// Get returns the value set for key (the relax_thinking flag).
func (c *Context) Get(key string) (any, bool) {
	v, ok := c.Keys[key]
	return v, ok
}
