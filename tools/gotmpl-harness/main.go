// Command gotmpl-harness records what real Go text/template does with a list
// of test cases, so that the pure-Rust engine in crates/gotmpl can be checked
// against Go byte for byte without needing Go at test time.
//
// Input: JSON lines, one case each:
//
//	{"id": "group/name", "template": "...", "data": <JSON>,
//	 "options": ["missingkey=zero"], "delims": ["[[", "]]"], "expect": {...}}
//
// "options" and "delims" are optional; any "expect" in the input is ignored
// when recording. For every case the data is decoded with encoding/json into
// an any (objects map[string]any, numbers float64, null nil), the template is
// created with template.New("t"), Delims and Option are applied, then Parse and
// Execute into a buffer. The case is written back with "expect" set to
//
//	{"output": "..."}                   Parse and Execute succeeded
//	{"error": "..."}                    Parse failed (err.Error())
//	{"error": "...", "partial": "..."}  Execute failed; partial is what had
//	                                    been written before the failure
//
// Output lines keep the key order id, template, data, [options], [delims],
// expect, and use the byte layout of the golden files (see jsonfmt.go).
//
// Cases that run longer than -timeout, write more than -max-output bytes,
// panic, give different results on repeated runs, or produce text that is not
// valid UTF-8 (JSON strings cannot hold it) are dropped with a note on stderr.
//
// With -check, the expectations already in the input are compared with what
// Go does now; mismatches, dropped cases and lines whose bytes differ from a
// fresh recording are reported and the exit status is 1.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"reflect"
	"sort"
	"strings"
	"sync/atomic"
	"text/template"
	"time"
	"unicode/utf8"
)

type inputCase struct {
	ID       string          `json:"id"`
	Template *string         `json:"template"`
	Data     json.RawMessage `json:"data"`
	Options  []string        `json:"options"`
	Delims   []string        `json:"delims"`
	Expect   json.RawMessage `json:"expect"`

	line int    // 1-based line number in the input
	raw  string // the input line as read (without the newline)
}

// result is what Go did with one case.
type result struct {
	parseErr bool
	execErr  bool
	output   string // output, or partial output on an execution error
	err      string
}

func (r result) expectMap() map[string]string {
	switch {
	case r.parseErr:
		return map[string]string{"error": r.err}
	case r.execErr:
		return map[string]string{"error": r.err, "partial": r.output}
	default:
		return map[string]string{"output": r.output}
	}
}

func (r result) writeExpect(b *bytes.Buffer) {
	switch {
	case r.parseErr:
		b.WriteString(`{"error": `)
		writeJSONString(b, r.err)
	case r.execErr:
		b.WriteString(`{"error": `)
		writeJSONString(b, r.err)
		b.WriteString(`, "partial": `)
		writeJSONString(b, r.output)
	default:
		b.WriteString(`{"output": `)
		writeJSONString(b, r.output)
	}
	b.WriteByte('}')
}

var (
	errOutputCap = errors.New("gotmpl-harness: output cap exceeded")
	errCancelled = errors.New("gotmpl-harness: case cancelled after timeout")
)

// capWriter is the Execute destination: it refuses to grow past max bytes and
// stops accepting writes once the case has been abandoned.
type capWriter struct {
	buf       bytes.Buffer
	max       int
	cancelled atomic.Bool
}

func (w *capWriter) Write(p []byte) (int, error) {
	if w.cancelled.Load() {
		return 0, errCancelled
	}
	if w.buf.Len()+len(p) > w.max {
		return 0, errOutputCap
	}
	return w.buf.Write(p)
}

type runner struct {
	timeout   time.Duration
	maxOutput int
}

// runOnce parses and executes one case in its own goroutine. It returns a
// non-empty reason when the case has to be dropped.
func (r *runner) runOnce(c *inputCase) (res result, drop string) {
	var data any
	if err := json.Unmarshal(c.Data, &data); err != nil {
		return res, fmt.Sprintf("data does not decode into any: %v", err)
	}
	w := &capWriter{max: r.maxOutput}
	type outcome struct {
		res    result
		capped bool // Execute stopped on the output cap or cancellation
		panic  string
	}
	done := make(chan outcome, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- outcome{panic: fmt.Sprint(p)}
			}
		}()
		t := template.New("t")
		if len(c.Delims) == 2 {
			t.Delims(c.Delims[0], c.Delims[1])
		}
		for _, opt := range c.Options {
			t.Option(opt) // panics on an unknown option; recovered above
		}
		if _, err := t.Parse(*c.Template); err != nil {
			done <- outcome{res: result{parseErr: true, err: err.Error()}}
			return
		}
		err := t.Execute(w, data)
		if err != nil {
			capped := errors.Is(err, errOutputCap) || errors.Is(err, errCancelled)
			done <- outcome{res: result{execErr: true, err: err.Error(), output: w.buf.String()}, capped: capped}
			return
		}
		done <- outcome{res: result{output: w.buf.String()}}
	}()
	timer := time.NewTimer(r.timeout)
	defer timer.Stop()
	select {
	case o := <-done:
		if o.panic != "" {
			return res, "panic: " + o.panic
		}
		if o.capped {
			return res, fmt.Sprintf("output larger than %d bytes", r.maxOutput)
		}
		if !utf8.ValidString(o.res.output) || !utf8.ValidString(o.res.err) {
			return res, "result is not valid UTF-8 (JSON strings cannot represent it)"
		}
		return o.res, ""
	case <-timer.C:
		// The goroutine cannot be killed; make its next write fail so that a
		// template that keeps printing stops soon.
		w.cancelled.Store(true)
		return res, fmt.Sprintf("timed out after %v", r.timeout)
	}
}

// run executes a case repeat times and insists on identical results, which
// keeps nondeterministic output (e.g. %p addresses) out of the goldens.
func (r *runner) run(c *inputCase, repeat int) (result, string) {
	first, drop := r.runOnce(c)
	if drop != "" {
		return first, drop
	}
	for i := 1; i < repeat; i++ {
		again, drop := r.runOnce(c)
		if drop != "" {
			return again, drop
		}
		if again != first {
			return first, "nondeterministic result"
		}
	}
	return first, ""
}

// encodeCase writes the golden line for c with expectation res.
func encodeCase(c *inputCase, res result) (string, error) {
	var b bytes.Buffer
	b.WriteString(`{"id": `)
	writeJSONString(&b, c.ID)
	b.WriteString(`, "template": `)
	writeJSONString(&b, *c.Template)
	b.WriteString(`, "data": `)
	if err := reencodeJSON(&b, c.Data); err != nil {
		return "", fmt.Errorf("data: %v", err)
	}
	if len(c.Options) > 0 {
		b.WriteString(`, "options": `)
		writeStringList(&b, c.Options)
	}
	if len(c.Delims) > 0 {
		b.WriteString(`, "delims": `)
		writeStringList(&b, c.Delims)
	}
	b.WriteString(`, "expect": `)
	res.writeExpect(&b)
	b.WriteByte('}')
	return b.String(), nil
}

var validOptions = map[string]bool{
	"missingkey=default": true,
	"missingkey=invalid": true,
	"missingkey=zero":    true,
	"missingkey=error":   true,
}

func parseLine(line string, n int) (*inputCase, error) {
	dec := json.NewDecoder(strings.NewReader(line))
	dec.DisallowUnknownFields()
	c := &inputCase{line: n, raw: line}
	if err := dec.Decode(c); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("trailing data after the case object")
	}
	switch {
	case c.ID == "":
		return nil, errors.New(`missing "id"`)
	case c.Template == nil:
		return nil, errors.New(`missing "template"`)
	case c.Data == nil:
		return nil, errors.New(`missing "data" (use "data": null for nil data)`)
	case c.Delims != nil && len(c.Delims) != 2:
		return nil, errors.New(`"delims" must have exactly two strings`)
	}
	for _, o := range c.Options {
		if !validOptions[o] {
			return nil, fmt.Errorf("unknown option %q", o)
		}
	}
	return c, nil
}

func readCases(r io.Reader) ([]*inputCase, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	var cases []*inputCase
	seen := map[string]int{}
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if strings.TrimSpace(line) == "" {
			continue
		}
		c, err := parseLine(line, n)
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", n, err)
		}
		if prev, ok := seen[c.ID]; ok {
			return nil, fmt.Errorf("line %d: duplicate id %q (first on line %d)", n, c.ID, prev)
		}
		seen[c.ID] = n
		cases = append(cases, c)
	}
	return cases, sc.Err()
}

func main() {
	var (
		inPath    = flag.String("in", "", "input file of JSON lines (default: stdin)")
		outPath   = flag.String("out", "", "output file (default: stdout)")
		check     = flag.Bool("check", false, "compare the expectations in the input with Go's; exit 1 on any difference")
		sortIDs   = flag.Bool("sort", false, "write the cases sorted by id (default: input order)")
		timeout   = flag.Duration("timeout", 2*time.Second, "per-case time limit; slower cases are dropped")
		maxOutput = flag.Int("max-output", 1<<20, "per-case output limit in bytes; larger cases are dropped")
		repeat    = flag.Int("repeat", 2, "run every case this many times and drop it if the results differ")
		maxDrops  = flag.Int("max-timeouts", 20, "give up after this many timed-out cases (each leaves a goroutine running)")
	)
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: gotmpl-harness [flags] [< cases.jsonl] [> golden.jsonl]\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}

	var in io.Reader = os.Stdin
	if *inPath != "" {
		f, err := os.Open(*inPath)
		if err != nil {
			fatal(err)
		}
		defer f.Close()
		in = f
	}
	cases, err := readCases(in)
	if err != nil {
		fatal(err)
	}
	if *sortIDs {
		sort.SliceStable(cases, func(i, j int) bool { return cases[i].ID < cases[j].ID })
	}

	r := &runner{timeout: *timeout, maxOutput: *maxOutput}
	if *repeat < 1 {
		*repeat = 1
	}

	var out bytes.Buffer
	var dropped, mismatches, formatDiffs, timeouts int
	for _, c := range cases {
		res, drop := r.run(c, *repeat)
		if drop != "" {
			dropped++
			if strings.HasPrefix(drop, "timed out") {
				timeouts++
			}
			if *check {
				fmt.Printf("DROPPED %s (line %d): %s\n", c.ID, c.line, drop)
			} else {
				fmt.Fprintf(os.Stderr, "gotmpl-harness: dropping %s (line %d): %s\n", c.ID, c.line, drop)
			}
			if timeouts >= *maxDrops {
				fatal(fmt.Errorf("%d cases timed out; giving up", timeouts))
			}
			continue
		}
		line, err := encodeCase(c, res)
		if err != nil {
			fatal(fmt.Errorf("line %d (%s): %v", c.line, c.ID, err))
		}
		if *check {
			var want map[string]string
			if c.Expect == nil {
				mismatches++
				fmt.Printf("MISMATCH %s (line %d): no expect in input\n", c.ID, c.line)
				continue
			}
			if err := json.Unmarshal(c.Expect, &want); err != nil {
				mismatches++
				fmt.Printf("MISMATCH %s (line %d): unreadable expect: %v\n", c.ID, c.line, err)
				continue
			}
			got := res.expectMap()
			if !reflect.DeepEqual(want, got) {
				mismatches++
				wj, _ := json.Marshal(want)
				gj, _ := json.Marshal(got)
				fmt.Printf("MISMATCH %s (line %d):\n  recorded: %s\n  go now:   %s\n", c.ID, c.line, wj, gj)
				continue
			}
			if line != c.raw {
				formatDiffs++
				fmt.Printf("FORMAT %s (line %d): same expectation, but the line differs from a fresh recording\n", c.ID, c.line)
			}
			continue
		}
		out.WriteString(line)
		out.WriteByte('\n')
	}

	if *check {
		fmt.Printf("checked %d cases: %d mismatches, %d dropped, %d format differences\n",
			len(cases), mismatches, dropped, formatDiffs)
		if mismatches+dropped+formatDiffs > 0 {
			os.Exit(1)
		}
		return
	}

	if *outPath != "" {
		if err := os.WriteFile(*outPath, out.Bytes(), 0o644); err != nil {
			fatal(err)
		}
	} else if _, err := os.Stdout.Write(out.Bytes()); err != nil {
		fatal(err)
	}
	fmt.Fprintf(os.Stderr, "gotmpl-harness: %d cases read, %d recorded, %d dropped\n", len(cases), len(cases)-dropped, dropped)
}

func fatal(err error) {
	fmt.Fprintf(os.Stderr, "gotmpl-harness: %v\n", err)
	os.Exit(2)
}
