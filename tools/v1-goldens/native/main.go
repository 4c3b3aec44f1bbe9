// Command native sends request bodies to the body decoding of Ollama
// v0.33.0-rc2's native handlers, server/routes.go ChatHandler (/api/chat)
// and GenerateHandler (/api/generate), and records what each makes of
// them: the decoded api.ChatRequest / api.GenerateRequest (re-marshalled
// with json.Marshal) or the error it answers with.
//
//	native CASES OUT
//
// CASES is JSON lines, one case a line: {"id", "endpoint", "source",
// "body", "raw"?} (gen_native_cases.py writes it); OUT is the golden file,
// one line a case, in the same order (see ../README.md for the fields).
//
// Built inside a copy of Ollama's module next to ../main.go (see
// ../README.md): the real api package, the handlers' first lines copied
// below, over the pieces of gin in ../gin.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime/debug"

	"github.com/ollama/ollama/api"
	"github.com/ollama/ollama/promptscope-v1-goldens/gin"
)

// decodedKey is where the handlers below leave the request they decoded.
const decodedKey = "promptscope.decoded"

// chatHandler is server/routes.go ChatHandler (from line 2440) up to the
// end of its body decoding.
func chatHandler(c *gin.Context) {
	// adapted: `checkpointStart := time.Now()` (2441) left out; it only
	// times the request.

	// From ollama server/routes.go:2443-2450 (v0.33.0-rc2), verbatim.
	var req api.ChatRequest
	if err := c.ShouldBindJSON(&req); errors.Is(err, io.EOF) {
		c.AbortWithStatusJSON(http.StatusBadRequest, gin.H{"error": "missing request body"})
		return
	} else if err != nil {
		c.AbortWithStatusJSON(http.StatusBadRequest, gin.H{"error": err.Error()})
		return
	}

	// adapted: the rest of ChatHandler (the top_logprobs range check at
	// 2452-2455, the model lookup, the run) is left out; the recorder takes
	// the decoded request.
	c.Set(decodedKey, &req)
}

// generateHandler is server/routes.go GenerateHandler (from line 245) up
// to the end of its body decoding.
func generateHandler(c *gin.Context) {
	// adapted: `checkpointStart := time.Now()` (246) left out.

	// From ollama server/routes.go:247-254 (v0.33.0-rc2), verbatim.
	var req api.GenerateRequest
	if err := c.ShouldBindJSON(&req); errors.Is(err, io.EOF) {
		c.AbortWithStatusJSON(http.StatusBadRequest, gin.H{"error": "missing request body"})
		return
	} else if err != nil {
		c.AbortWithStatusJSON(http.StatusBadRequest, gin.H{"error": err.Error()})
		return
	}

	// adapted: the rest of GenerateHandler (the top_logprobs range check at
	// 256-259, ...) is left out; the recorder takes the decoded request.
	c.Set(decodedKey, &req)
}

// The handlers as server/routes.go registers them ("/api/chat",
// "/api/generate").
var handlers = map[string]struct {
	path    string
	handler gin.HandlerFunc
}{
	"chat":     {"/api/chat", chatHandler},
	"generate": {"/api/generate", generateHandler},
}

type testCase struct {
	ID       string `json:"id"`
	Endpoint string `json:"endpoint"`
	Source   string `json:"source"`
	Body     string `json:"body"`
	Raw      bool   `json:"raw,omitempty"`
}

type result struct {
	ID       string  `json:"id"`
	Endpoint string  `json:"endpoint"`
	Source   string  `json:"source"`
	Body     string  `json:"body"`
	Raw      bool    `json:"raw,omitempty"`
	Status   int     `json:"status"`
	Decoded  *string `json:"decoded,omitempty"`
	Error    *string `json:"error,omitempty"`
	Panic    string  `json:"panic,omitempty"`
}

// serve runs the handler and gives back what it panicked with, if it did.
func serve(h gin.HandlerFunc, c *gin.Context) (p any) {
	defer func() {
		if p = recover(); p != nil {
			debug.PrintStack()
		}
	}()
	h(c)
	return nil
}

func run(tc testCase) (res result) {
	res = result{ID: tc.ID, Endpoint: tc.Endpoint, Source: tc.Source, Body: tc.Body, Raw: tc.Raw}
	h, ok := handlers[tc.Endpoint]
	if !ok {
		panic("unknown endpoint " + tc.Endpoint)
	}

	// What net/http hands gin for a POST with this body and
	// Content-Type: application/json (an empty body is http.NoBody).
	req := httptest.NewRequest(http.MethodPost, h.path, bytes.NewReader([]byte(tc.Body)))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	c := gin.NewContext(req, rec)

	if p := serve(h.handler, c); p != nil {
		// gin.Default's Recovery middleware answers 500 with no body.
		// (The stack goes to stderr, not into the golden: it holds
		// addresses.)
		res.Status = http.StatusInternalServerError
		res.Panic = fmt.Sprint(p)
		fmt.Fprintf(os.Stderr, "%s: panic: %s\n", tc.ID, res.Panic)
		return res
	}

	if c.Aborted() {
		res.Status = c.Writer.Status()
		// The answer is gin.H{"error": text} as render.JSON writes it;
		// the golden keeps the text, checked to give those bytes back.
		body := rec.Body.Bytes()
		var answer struct {
			Error *string `json:"error"`
		}
		if err := json.Unmarshal(body, &answer); err != nil || answer.Error == nil {
			panic(fmt.Sprintf("%s: answer %q is not {\"error\": text}", tc.ID, body))
		}
		again, err := json.Marshal(gin.H{"error": *answer.Error})
		if err != nil || !bytes.Equal(again, body) {
			panic(fmt.Sprintf("%s: answer %q is not {\"error\": text}", tc.ID, body))
		}
		res.Error = answer.Error
		return res
	}

	if c.Writer.Written() {
		panic(tc.ID + ": decoded after writing an answer")
	}
	v, ok := c.Keys[decodedKey]
	if !ok {
		panic(tc.ID + ": neither aborted nor decoded")
	}
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("%s: json.Marshal of the decoded request: %v", tc.ID, err))
	}
	s := string(b)
	res.Status = c.Writer.Status()
	res.Decoded = &s
	return res
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: native CASES OUT")
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
	n := 0
	for sc.Scan() {
		var tc testCase
		if err := json.Unmarshal(sc.Bytes(), &tc); err != nil {
			panic(err)
		}
		if err := enc.Encode(run(tc)); err != nil {
			panic(err)
		}
		n++
	}
	if err := sc.Err(); err != nil {
		panic(err)
	}
	if err := os.WriteFile(os.Args[2], out.Bytes(), 0o644); err != nil {
		panic(err)
	}
	fmt.Fprintf(os.Stderr, "%d cases recorded\n", n)
}
