// Command v1-response-goldens feeds native /api/chat and /api/generate
// responses through the response writers of Ollama v0.33.0-rc2's
// compatibility middlewares and records what each writes back to the
// client.
//
//	v1-response-goldens CASES OUT
//
// CASES is JSON lines, one case a line (gen_cases.py writes it): {"id",
// "route", "note"?, "request", "ids", "status", "chunks"}; OUT is the
// golden file, one line a case, in the same order (see README.md).
//
// Every case is run three times, a little over a second apart; the fields
// that differ between the runs (time.Now, math/rand and crypto/rand values
// inside Ollama's conversion) are listed in the line's "volatile", and
// the first run's bytes are kept.
//
// Built inside a copy of Ollama's module (see README.md): the real api,
// openai and anthropic packages; the writers copied into writers.go.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

type testCase struct {
	ID      string            `json:"id"`
	Route   string            `json:"route"`
	Note    string            `json:"note,omitempty"`
	Request json.RawMessage   `json:"request"`
	IDs     map[string]string `json:"ids"`
	Status  int               `json:"status"`
	Chunks  []json.RawMessage `json:"chunks"`
}

type result struct {
	ID                   string            `json:"id"`
	Route                string            `json:"route"`
	Note                 string            `json:"note,omitempty"`
	Request              json.RawMessage   `json:"request"`
	EstimatedInputTokens *int              `json:"estimated_input_tokens,omitempty"`
	IDs                  map[string]string `json:"ids"`
	Status               int               `json:"status"`
	Chunks               []json.RawMessage `json:"chunks"`
	Written              string            `json:"written"`
	ContentType          string            `json:"content_type"`
	Headers              map[string]string `json:"headers"`
	Volatile             []string          `json:"volatile"`
}

func run(tc testCase) result {
	rec := newRecorder()
	w, stream := newWriter(tc.Route, tc.Request, tc.IDs, rec)
	chunks := serveNative(w, tc.Route, stream, tc.Status, tc.Chunks)
	if !rec.Written() {
		// net/http sends the header when the handler returns.
		rec.sent = rec.header.Clone()
	}
	headers := map[string]string{}
	for k, v := range rec.sent {
		headers[k] = strings.Join(v, ", ")
	}
	res := result{
		ID:          tc.ID,
		Route:       tc.Route,
		Note:        tc.Note,
		Request:     tc.Request,
		IDs:         tc.IDs,
		Status:      rec.Status(),
		Chunks:      chunks,
		Written:     rec.body.String(),
		ContentType: rec.sent.Get("Content-Type"),
		Headers:     headers,
		Volatile:    []string{},
	}
	if tc.Route == "anthropic-messages" {
		n := estimate(tc.Request)
		res.EstimatedInputTokens = &n
	}
	return res
}

// parse reads what was written: an SSE stream (Content-Type
// text/event-stream) as the list of its events' data (JSON, or the string
// "[DONE]"), anything else as one JSON document.
func parse(r result) any {
	decode := func(s string) any {
		dec := json.NewDecoder(strings.NewReader(s))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			panic(fmt.Sprintf("%s: %v: %q", r.ID, err, s))
		}
		return v
	}
	if r.ContentType != "text/event-stream" {
		return decode(r.Written)
	}
	if !strings.HasSuffix(r.Written, "\n\n") {
		panic(r.ID + ": SSE does not end with a blank line")
	}
	var events []any
	for _, block := range strings.Split(strings.TrimSuffix(r.Written, "\n\n"), "\n\n") {
		var data []string
		for _, line := range strings.Split(block, "\n") {
			switch {
			case strings.HasPrefix(line, "event: "):
			case strings.HasPrefix(line, "data: "):
				data = append(data, strings.TrimPrefix(line, "data: "))
			default:
				panic(fmt.Sprintf("%s: SSE line %q", r.ID, line))
			}
		}
		if len(data) != 1 {
			panic(fmt.Sprintf("%s: SSE event with %d data lines", r.ID, len(data)))
		}
		if data[0] == "[DONE]" {
			events = append(events, data[0])
		} else {
			events = append(events, decode(data[0]))
		}
	}
	return events
}

// diff adds to out the paths (dot-separated keys and indices) of the
// leaves where a and b differ; they must have the same shape.
func diff(id, path string, a, b any, out map[string]bool) {
	join := func(k string) string {
		if path == "" {
			return k
		}
		return path + "." + k
	}
	switch a := a.(type) {
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok || len(a) != len(b) {
			panic(fmt.Sprintf("%s: runs differ in shape at %q", id, path))
		}
		for k, v := range a {
			w, ok := b[k]
			if !ok {
				panic(fmt.Sprintf("%s: runs differ in shape at %q", id, join(k)))
			}
			diff(id, join(k), v, w, out)
		}
	case []any:
		b, ok := b.([]any)
		if !ok || len(a) != len(b) {
			panic(fmt.Sprintf("%s: runs differ in shape at %q", id, path))
		}
		for i := range a {
			diff(id, join(strconv.Itoa(i)), a[i], b[i], out)
		}
	default:
		if fmt.Sprintf("%T:%v", a, a) != fmt.Sprintf("%T:%v", b, b) {
			if path == "" {
				panic(id + ": runs differ at the root")
			}
			out[path] = true
		}
	}
}

// The fields the runs may differ in; anything else is a surprise.
var volatileField = regexp.MustCompile(`(^|\.)(created|created_at|completed_at|id|item_id|request_id)$`)

// pathLess orders paths by their components, numbers as numbers.
func pathLess(a, b string) bool {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(pa) && i < len(pb); i++ {
		if pa[i] == pb[i] {
			continue
		}
		na, ea := strconv.Atoi(pa[i])
		nb, eb := strconv.Atoi(pb[i])
		if ea == nil && eb == nil {
			return na < nb
		}
		return pa[i] < pb[i]
	}
	return len(pa) < len(pb)
}

var indexRe = regexp.MustCompile(`(^|\.)\d+(\.|$)`)

func pattern(p string) string {
	for {
		q := indexRe.ReplaceAllString(p, "$1*$2")
		if q == p {
			return p
		}
		p = q
	}
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: v1-response-goldens CASES OUT")
		os.Exit(2)
	}
	in, err := os.Open(os.Args[1])
	if err != nil {
		panic(err)
	}
	defer in.Close()
	var cases []testCase
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	seen := map[string]bool{}
	for sc.Scan() {
		var tc testCase
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&tc); err != nil {
			panic(err)
		}
		if seen[tc.ID] {
			panic("duplicate id " + tc.ID)
		}
		seen[tc.ID] = true
		cases = append(cases, tc)
	}
	if err := sc.Err(); err != nil {
		panic(err)
	}

	const runs = 3
	results := make([][]result, runs)
	for r := range runs {
		if r > 0 {
			// time.Now().Unix() values of one run all differ from the last.
			time.Sleep(1100 * time.Millisecond)
		}
		for _, tc := range cases {
			results[r] = append(results[r], run(tc))
		}
	}

	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	perRoute := map[string]int{}
	patterns := map[string]map[string]bool{}
	for i := range cases {
		first := results[0][i]
		doc := parse(first)
		vol := map[string]bool{}
		for r := 1; r < runs; r++ {
			other := results[r][i]
			if other.Status != first.Status || other.ContentType != first.ContentType || fmt.Sprint(other.Headers) != fmt.Sprint(first.Headers) {
				panic(first.ID + ": runs differ in status or headers")
			}
			diff(first.ID, "", doc, parse(other), vol)
		}
		for p := range vol {
			if !volatileField.MatchString(p) {
				panic(fmt.Sprintf("%s: unexpected volatile field %s", first.ID, p))
			}
			first.Volatile = append(first.Volatile, p)
			if patterns[first.Route] == nil {
				patterns[first.Route] = map[string]bool{}
			}
			patterns[first.Route][pattern(p)] = true
		}
		sort.Slice(first.Volatile, func(a, b int) bool { return pathLess(first.Volatile[a], first.Volatile[b]) })
		if first.Status != http.StatusOK && first.Status < 400 {
			panic(first.ID + ": odd status")
		}
		if err := enc.Encode(first); err != nil {
			panic(err)
		}
		perRoute[first.Route]++
	}
	if err := os.WriteFile(os.Args[2], out.Bytes(), 0o644); err != nil {
		panic(err)
	}
	var routes []string
	for r := range perRoute {
		routes = append(routes, r)
	}
	sort.Strings(routes)
	for _, r := range routes {
		var ps []string
		for p := range patterns[r] {
			ps = append(ps, p)
		}
		sort.Strings(ps)
		fmt.Fprintf(os.Stderr, "%s: %d cases; volatile: %s\n", r, perRoute[r], strings.Join(ps, " "))
	}
	fmt.Fprintf(os.Stderr, "%d cases recorded\n", len(cases))
}
