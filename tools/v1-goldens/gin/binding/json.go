// Package binding is the JSON binding of github.com/gin-gonic/gin v1.10.0
// (binding/json.go, binding/binding.go), which is all that
// c.ShouldBindJSON uses. The blocks marked verbatim are gin's lines
// unchanged (record.py checks them against GIN_SRC); gin's internal/json
// is encoding/json in a default build (internal/json/json.go:
// `//go:build !jsoniter && !go_json && !(sonic && ...)`), so that is what
// is imported here.
package binding

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
)

// From gin binding/binding.go:28-34 (v1.10.0), verbatim.
// Binding describes the interface which needs to be implemented for binding the
// data present in the request such as JSON request body, query parameters or
// the form POST.
type Binding interface {
	Name() string
	Bind(*http.Request, any) error
}

// Adapted from gin binding/binding.go:54-64 and 69-71 (v1.10.0): gin's
// Validator is a defaultValidator (binding/default_validator.go) running
// github.com/go-playground/validator/v10 with the tag name "binding". No
// type that these middlewares bind (openai.ChatCompletionRequest,
// openai.CompletionRequest, openai.ResponsesRequest,
// anthropic.MessagesRequest, and every type inside them) has a `binding`
// tag, so its ValidateStruct always returns nil; the validator is not
// built here (it is not available offline), and Validator is nil, which
// validate (below, verbatim) treats the same way.
type StructValidator interface {
	ValidateStruct(any) error
}

var Validator StructValidator

// Adapted from gin binding/binding.go:76 (v1.10.0): `JSON BindingBody =
// jsonBinding{}` (the BindingBody interface is not needed here).
var JSON Binding = jsonBinding{}

// From gin binding/binding.go:117-122 (v1.10.0), verbatim.
func validate(obj any) error {
	if Validator == nil {
		return nil
	}
	return Validator.ValidateStruct(obj)
}

// From gin binding/json.go:16-56 (v1.10.0), verbatim.
// EnableDecoderUseNumber is used to call the UseNumber method on the JSON
// Decoder instance. UseNumber causes the Decoder to unmarshal a number into an
// any as a Number instead of as a float64.
var EnableDecoderUseNumber = false

// EnableDecoderDisallowUnknownFields is used to call the DisallowUnknownFields method
// on the JSON Decoder instance. DisallowUnknownFields causes the Decoder to
// return an error when the destination is a struct and the input contains object
// keys which do not match any non-ignored, exported fields in the destination.
var EnableDecoderDisallowUnknownFields = false

type jsonBinding struct{}

func (jsonBinding) Name() string {
	return "json"
}

func (jsonBinding) Bind(req *http.Request, obj any) error {
	if req == nil || req.Body == nil {
		return errors.New("invalid request")
	}
	return decodeJSON(req.Body, obj)
}

func (jsonBinding) BindBody(body []byte, obj any) error {
	return decodeJSON(bytes.NewReader(body), obj)
}

func decodeJSON(r io.Reader, obj any) error {
	decoder := json.NewDecoder(r)
	if EnableDecoderUseNumber {
		decoder.UseNumber()
	}
	if EnableDecoderDisallowUnknownFields {
		decoder.DisallowUnknownFields()
	}
	if err := decoder.Decode(obj); err != nil {
		return err
	}
	return validate(obj)
}
