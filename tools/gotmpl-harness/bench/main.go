// Command bench measures Go's text/template on a directory of templates, so
// that the Rust engine in crates/gotmpl can be compared with it on the same
// inputs.
//
// For every *.gotmpl file in -dir (sorted by name) it parses the template -n
// times and executes it -n times on the JSON data in -data (decoded with
// encoding/json into an any, exactly as the golden cases are), after -warmup
// untimed rounds. Each iteration is timed on its own; the reported figure is
// the median per iteration, in nanoseconds.
//
// Plain output, one line per template and a total (sums of the medians):
//
//	<name> <parse_ns> <exec_ns>
//	TOTAL <parse_ns> <exec_ns>
//
// With -json, a single JSON object instead, which also carries the means,
// the output size and a SHA-256 of the output (so that the Rust side can
// check it produced the same text before comparing speed).
package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"text/template"
	"time"
)

type result struct {
	Name         string `json:"name"`
	ParseNs      int64  `json:"parse_ns"`
	ExecNs       int64  `json:"exec_ns"`
	ParseMeanNs  int64  `json:"parse_mean_ns"`
	ExecMeanNs   int64  `json:"exec_mean_ns"`
	OutputBytes  int    `json:"output_bytes"`
	OutputSHA256 string `json:"output_sha256"`
	Error        string `json:"error,omitempty"`
}

type report struct {
	GoVersion  string   `json:"go_version"`
	GOOS       string   `json:"goos"`
	GOARCH     string   `json:"goarch"`
	Iterations int      `json:"iterations"`
	Data       string   `json:"data"`
	Templates  []result `json:"templates"`
	Total      struct {
		ParseNs int64 `json:"parse_ns"`
		ExecNs  int64 `json:"exec_ns"`
	} `json:"total"`
}

func median(d []time.Duration) int64 {
	s := slices.Clone(d)
	slices.Sort(s)
	n := len(s)
	if n == 0 {
		return 0
	}
	if n%2 == 1 {
		return int64(s[n/2])
	}
	return int64((s[n/2-1] + s[n/2]) / 2)
}

func mean(d []time.Duration) int64 {
	if len(d) == 0 {
		return 0
	}
	var sum time.Duration
	for _, x := range d {
		sum += x
	}
	return int64(sum) / int64(len(d))
}

func benchOne(name, text string, data any, n, warmup int) result {
	res := result{Name: name}
	parse := func() (*template.Template, error) {
		return template.New(name).Parse(text)
	}
	tmpl, err := parse()
	if err != nil {
		res.Error = err.Error()
		return res
	}
	var buf bytes.Buffer
	if err := tmpl.Execute(&buf, data); err != nil {
		res.Error = err.Error()
		return res
	}
	sum := sha256.Sum256(buf.Bytes())
	res.OutputBytes = buf.Len()
	res.OutputSHA256 = hex.EncodeToString(sum[:])

	for i := 0; i < warmup; i++ {
		parse()
		buf.Reset()
		tmpl.Execute(&buf, data)
	}

	parseTimes := make([]time.Duration, n)
	for i := range n {
		start := time.Now()
		t, err := parse()
		parseTimes[i] = time.Since(start)
		if err != nil || t == nil {
			res.Error = fmt.Sprint(err)
			return res
		}
	}
	execTimes := make([]time.Duration, n)
	for i := range n {
		buf.Reset()
		start := time.Now()
		err := tmpl.Execute(&buf, data)
		execTimes[i] = time.Since(start)
		if err != nil {
			res.Error = err.Error()
			return res
		}
	}
	res.ParseNs, res.ParseMeanNs = median(parseTimes), mean(parseTimes)
	res.ExecNs, res.ExecMeanNs = median(execTimes), mean(execTimes)
	return res
}

func main() {
	dir := flag.String("dir", "", "directory of *.gotmpl templates (required)")
	dataPath := flag.String("data", "", "JSON file with the data the templates run on (required)")
	n := flag.Int("n", 1000, "timed iterations per template, for parsing and for executing each")
	warmup := flag.Int("warmup", 50, "untimed iterations before timing")
	asJSON := flag.Bool("json", false, "write one JSON object instead of text lines")
	flag.Parse()
	if *dir == "" || *dataPath == "" || *n < 1 || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: bench -dir TEMPLATE_DIR -data DATA.json [-n 1000] [-warmup 50] [-json]")
		flag.PrintDefaults()
		os.Exit(2)
	}

	raw, err := os.ReadFile(*dataPath)
	if err != nil {
		fatal(err)
	}
	var data any
	if err := json.Unmarshal(raw, &data); err != nil {
		fatal(fmt.Errorf("%s: %v", *dataPath, err))
	}
	files, err := filepath.Glob(filepath.Join(*dir, "*.gotmpl"))
	if err != nil {
		fatal(err)
	}
	if len(files) == 0 {
		fatal(fmt.Errorf("no *.gotmpl files in %s", *dir))
	}
	slices.Sort(files)

	rep := report{
		GoVersion:  runtime.Version(),
		GOOS:       runtime.GOOS,
		GOARCH:     runtime.GOARCH,
		Iterations: *n,
		Data:       filepath.Base(*dataPath),
	}
	failed := false
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			fatal(err)
		}
		name := strings.TrimSuffix(filepath.Base(f), ".gotmpl")
		r := benchOne(name, string(text), data, *n, *warmup)
		if r.Error != "" {
			failed = true
			fmt.Fprintf(os.Stderr, "bench: %s: %s\n", name, r.Error)
		}
		rep.Templates = append(rep.Templates, r)
		rep.Total.ParseNs += r.ParseNs
		rep.Total.ExecNs += r.ExecNs
	}

	if *asJSON {
		enc := json.NewEncoder(os.Stdout)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", " ")
		if err := enc.Encode(rep); err != nil {
			fatal(err)
		}
	} else {
		for _, r := range rep.Templates {
			fmt.Printf("%s %d %d\n", r.Name, r.ParseNs, r.ExecNs)
		}
		fmt.Printf("TOTAL %d %d\n", rep.Total.ParseNs, rep.Total.ExecNs)
	}
	if failed {
		os.Exit(1)
	}
}

func fatal(err error) {
	fmt.Fprintf(os.Stderr, "bench: %v\n", err)
	os.Exit(2)
}
