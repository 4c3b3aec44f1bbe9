// Package render is the JSON renderer of github.com/gin-gonic/gin v1.10.0
// (render/render.go, render/json.go), which is all that c.JSON uses. The
// blocks marked verbatim are gin's lines unchanged (record.py checks them
// against GIN_SRC); gin's internal/json is encoding/json in a default
// build, so json.Marshal here is encoding/json's: <, > and & in strings
// come out as \u003c, \u003e and \u0026, and there is no trailing newline.
package render

import (
	"encoding/json"
	"net/http"
)

// From gin render/render.go:9-15 (v1.10.0), verbatim.
// Render interface is to be implemented by JSON, XML, HTML, YAML and so on.
type Render interface {
	// Render writes data with custom ContentType.
	Render(http.ResponseWriter) error
	// WriteContentType writes custom ContentType.
	WriteContentType(w http.ResponseWriter)
}

// From gin render/render.go:36-41 (v1.10.0), verbatim.
func writeContentType(w http.ResponseWriter, value []string) {
	header := w.Header()
	if val := header["Content-Type"]; len(val) == 0 {
		header["Content-Type"] = value
	}
}

// From gin render/json.go:17-20 (v1.10.0), verbatim.
// JSON contains the given interface object.
type JSON struct {
	Data any
}

// From gin render/json.go:50 (v1.10.0), adapted: only jsonContentType of
// the var block at lines 49-53.
var jsonContentType = []string{"application/json; charset=utf-8"}

// From gin render/json.go:55-74 (v1.10.0), verbatim.
// Render (JSON) writes data with custom ContentType.
func (r JSON) Render(w http.ResponseWriter) error {
	return WriteJSON(w, r.Data)
}

// WriteContentType (JSON) writes JSON ContentType.
func (r JSON) WriteContentType(w http.ResponseWriter) {
	writeContentType(w, jsonContentType)
}

// WriteJSON marshals the given interface object and writes it with custom ContentType.
func WriteJSON(w http.ResponseWriter, obj any) error {
	writeContentType(w, jsonContentType)
	jsonBytes, err := json.Marshal(obj)
	if err != nil {
		return err
	}
	_, err = w.Write(jsonBytes)
	return err
}
