// Command name-goldens runs Ollama v0.33.0-rc2's model-name code (the
// real types/model and internal/modelref packages, built inside a copy of
// Ollama's module so that the internal package can be imported) on the
// names given one per stdin line (JSON strings) and prints, for each,
// what ParseName, ParseNameBare, IsValid, String, DisplayShortest,
// Filepath, EqualFold (against the name lowercased) and modelref's
// ParseRef, StripCloudSourceTag, NormalizePullName and HasExplicitTag give.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/ollama/ollama/internal/modelref"
	"github.com/ollama/ollama/types/model"
)

func parts(n model.Name) map[string]string {
	return map[string]string{"host": n.Host, "namespace": n.Namespace, "model": n.Model, "tag": n.Tag, "scheme": n.ProtocolScheme}
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<24)
	out := json.NewEncoder(os.Stdout)
	out.SetEscapeHTML(false)
	for in.Scan() {
		var s string
		if err := json.Unmarshal(in.Bytes(), &s); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		n := model.ParseName(s)
		res := map[string]any{
			"name":   s,
			"parsed": parts(n),
			"bare":   parts(model.ParseNameBare(s)),
			"valid":  n.IsValid(),
			"string": n.String(),
			"short":  n.DisplayShortest(),
			"fold":   n.EqualFold(model.ParseName(strings.ToLower(s))),
		}
		ref := map[string]any{}
		if r, err := modelref.ParseRef(s); err != nil {
			ref["error"] = err.Error()
		} else {
			ref["base"] = r.Base
			ref["source"] = int(r.Source)
		}
		stripped, cloud := modelref.StripCloudSourceTag(s)
		ref["strip"] = []any{stripped, cloud}
		if pull, isCloud, err := modelref.NormalizePullName(s); err != nil {
			ref["pull_error"] = err.Error()
		} else {
			ref["pull"] = []any{pull, isCloud}
		}
		ref["explicit_tag"] = modelref.HasExplicitTag(s)
		res["ref"] = ref
		if n.IsFullyQualified() {
			res["filepath"] = n.Filepath()
			res["from_filepath"] = parts(model.ParseNameFromFilepath(n.Filepath()))
		}
		if err := out.Encode(res); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}
