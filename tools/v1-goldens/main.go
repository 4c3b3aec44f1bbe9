// Command v1-goldens sends request bodies through Ollama v0.33.0-rc2's
// compatibility middlewares and records what each does with them: the
// converted /api/chat or /api/generate request it hands on (the exact
// bytes json.NewEncoder wrote), or the error it answers with.
//
//	v1-goldens CASES OUT
//
// CASES is JSON lines, one case a line: {"id", "route", "source", "body",
// "raw"?, "env"?} (gen_cases.py writes it); OUT is the golden file, one
// line a case, in the same order (see README.md for the fields).
//
// Built inside a copy of Ollama's module (see README.md): the real api,
// openai, anthropic, internal/cloud, internal/modelref and envconfig
// packages; the middleware functions copied into middleware_*.go, over the
// pieces of gin in ./gin.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"runtime/debug"
	"sort"

	"github.com/ollama/ollama/promptscope-v1-goldens/gin"
)

type testCase struct {
	ID     string            `json:"id"`
	Route  string            `json:"route"`
	Source string            `json:"source"`
	Body   string            `json:"body"`
	Raw    bool              `json:"raw,omitempty"`
	Env    map[string]string `json:"env,omitempty"`
}

type result struct {
	ID            string            `json:"id"`
	Route         string            `json:"route"`
	Source        string            `json:"source"`
	Body          string            `json:"body"`
	Raw           bool              `json:"raw,omitempty"`
	Env           map[string]string `json:"env,omitempty"`
	Status        int               `json:"status"`
	Native        string            `json:"native,omitempty"`
	APIRequest    *string           `json:"api_request,omitempty"`
	RelaxThinking bool              `json:"relax_thinking,omitempty"`
	WebSearch     bool              `json:"web_search,omitempty"`
	Error         *string           `json:"error,omitempty"`
	Panic         string            `json:"panic,omitempty"`
}

type route struct {
	path    string
	native  string
	handler gin.HandlerFunc
}

// The routes as server/routes.go:1916-1926 registers them (the middleware
// and the handler it hands on to: ChatHandler is /api/chat, GenerateHandler
// /api/generate).
var routes = map[string]route{
	"openai-chat":        {"/v1/chat/completions", "chat", ChatMiddleware()},
	"openai-completions": {"/v1/completions", "generate", CompletionsMiddleware()},
	"openai-responses":   {"/v1/responses", "chat", ResponsesMiddleware()},
	"anthropic-messages": {"/v1/messages", "chat", AnthropicMessagesMiddleware()},
}

// anthropic.NewError (anthropic/anthropic.go:38-62) stamps every error body
// with request_id "req_" + 24 hex digits from crypto/rand; the golden has
// them as zeros.
var requestID = regexp.MustCompile(`"request_id":"req_[0-9a-f]{24}"`)

const maskedRequestID = `"request_id":"req_000000000000000000000000"`

func run(tc testCase) (res result) {
	res = result{ID: tc.ID, Route: tc.Route, Source: tc.Source, Body: tc.Body, Raw: tc.Raw, Env: tc.Env}
	r, ok := routes[tc.Route]
	if !ok {
		panic("unknown route " + tc.Route)
	}

	keys := make([]string, 0, len(tc.Env))
	for k := range tc.Env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		os.Setenv(k, tc.Env[k])
	}
	defer func() {
		for _, k := range keys {
			os.Unsetenv(k)
		}
	}()

	// What net/http hands gin for a POST with this body and
	// Content-Type: application/json (an empty body is http.NoBody).
	req := httptest.NewRequest(http.MethodPost, r.path, bytes.NewReader([]byte(tc.Body)))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	c := gin.NewContext(req, rec)

	defer func() {
		if p := recover(); p != nil {
			// gin.Default's Recovery middleware answers 500 with no body.
			res.Status = http.StatusInternalServerError
			res.Panic = fmt.Sprintf("%v\n%s", p, debug.Stack())
		}
	}()
	r.handler(c)

	if c.Aborted() || !c.NextCalled {
		if !c.Aborted() {
			panic(tc.ID + ": neither aborted nor handed on")
		}
		res.Status = c.Writer.Status()
		body := rec.Body.String()
		if tc.Route == "anthropic-messages" {
			if n := len(requestID.FindAllStringIndex(body, -1)); n != 1 {
				panic(fmt.Sprintf("%s: %d request ids in %s", tc.ID, n, body))
			}
			body = requestID.ReplaceAllString(body, maskedRequestID)
		}
		res.Error = &body
		return res
	}

	if c.Writer.Written() {
		panic(tc.ID + ": handed on after writing an answer")
	}
	b, err := io.ReadAll(c.Request.Body)
	if err != nil {
		panic(err)
	}
	s := string(b)
	res.Status = c.Writer.Status()
	res.Native = r.native
	res.APIRequest = &s
	if v, ok := c.Keys["relax_thinking"]; ok && v == true {
		res.RelaxThinking = true
	}
	if v, ok := c.Keys[webSearchKey]; ok && v == true {
		res.WebSearch = true
	}
	return res
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: v1-goldens CASES OUT")
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
