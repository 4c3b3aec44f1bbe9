// Command instrument rewrites a copy of Ollama's model/parsers, harmony and
// tools packages so that their tests can be recorded (see ../rec and
// FORMAT.md). The rewrite is mechanical and changes no behaviour:
//
//   - every method with a pointer receiver and every top-level function
//     (not init, not generic) of a package's non-test files is renamed
//     NAME__ps, and a wrapper with the old name and the same signature is
//     appended to its file: it calls promptscoperec.Enter / EnterFunc with
//     the receiver and arguments, calls NAME__ps, and hands the results to
//     the recorder;
//   - for a struct type that embeds another (GLM47Parser embeds
//     GLM46Parser), a wrapper is written for each pointer method it gets by
//     promotion: (*GLM47Parser).Add calls p.GLM46Parser.Add__ps, which is
//     what the promoted method did; so the recorded type is the one the
//     test holds;
//   - in the tests, template.New(NAME).Parse(TEXT) becomes
//     promptscoperec.ParseTemplate(NAME, TEXT), which makes the same call
//     and remembers TEXT; xml.Unmarshal(DATA, V) becomes
//     promptscoperec.XMLUnmarshal(DATA, V), the same call, recorded;
//   - each package gets promptscope_register.go (which types are wrapped,
//     which fields ParserForName's literals set) and
//     promptscope_main_test.go (a TestMain that runs the tests, then
//     writes the records).
//
// Usage: instrument -root DIR -rec IMPORTPATH PKGDIR...
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

const suffix = "__ps"

type method struct {
	recv string
	decl *ast.FuncDecl
	file *srcFile
}

type srcFile struct {
	path   string
	src    []byte
	ast    *ast.File
	edits  []edit
	append bytes.Buffer
	test   bool
	fset   *token.FileSet
}

type edit struct {
	off, n int
	text   string
}

var (
	root    = flag.String("root", ".", "module copy to rewrite in place")
	recPath = flag.String("rec", "", "import path of the recorder package")
	cfgFns  = flag.String("config-funcs", "ParserForName,NewHarmonyMessageHandler", "functions whose composite literals name configuration fields")
)

func main() {
	flag.Parse()
	for _, dir := range flag.Args() {
		if err := instrument(filepath.Join(*root, dir)); err != nil {
			fmt.Fprintln(os.Stderr, "instrument:", dir+":", err)
			os.Exit(1)
		}
	}
}

func instrument(dir string) error {
	fset := token.NewFileSet()
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	var files []*srcFile
	pkgName := ""
	testPkg := ""
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") || strings.HasPrefix(e.Name(), "promptscope_") {
			continue
		}
		path := filepath.Join(dir, e.Name())
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(fset, path, src, parser.ParseComments)
		if err != nil {
			return err
		}
		sf := &srcFile{path: path, src: src, ast: f, test: strings.HasSuffix(e.Name(), "_test.go"), fset: fset}
		files = append(files, sf)
		if sf.test {
			if testPkg == "" || !strings.HasSuffix(f.Name.Name, "_test") {
				testPkg = f.Name.Name
			}
		} else {
			pkgName = f.Name.Name
		}
	}

	structs := map[string]*ast.StructType{}
	declared := map[string]map[string]bool{} // type -> method names (any receiver)
	ptrMethods := map[string]map[string]*method{}
	var funcs []*method
	configFields := map[string]bool{}
	cfg := map[string]bool{}
	for _, n := range strings.Split(*cfgFns, ",") {
		cfg[n] = true
	}

	for _, sf := range files {
		if sf.test {
			continue
		}
		for _, d := range sf.ast.Decls {
			switch d := d.(type) {
			case *ast.GenDecl:
				for _, s := range d.Specs {
					if ts, ok := s.(*ast.TypeSpec); ok && ts.TypeParams == nil {
						if st, ok := ts.Type.(*ast.StructType); ok {
							structs[ts.Name.Name] = st
						}
					}
				}
			case *ast.FuncDecl:
				if d.Recv == nil {
					if cfg[d.Name.Name] {
						ast.Inspect(d, func(n ast.Node) bool {
							if kv, ok := n.(*ast.KeyValueExpr); ok {
								if id, ok := kv.Key.(*ast.Ident); ok {
									configFields[id.Name] = true
								}
							}
							return true
						})
					}
					if d.Name.Name == "init" || d.Name.Name == "main" || d.Type.TypeParams != nil || d.Body == nil {
						continue
					}
					funcs = append(funcs, &method{decl: d, file: sf})
					continue
				}
				recv := d.Recv.List[0].Type
				star, ok := recv.(*ast.StarExpr)
				name := ""
				if ok {
					if id, ok := star.X.(*ast.Ident); ok {
						name = id.Name
					}
				} else if id, ok := recv.(*ast.Ident); ok {
					if declared[id.Name] == nil {
						declared[id.Name] = map[string]bool{}
					}
					declared[id.Name][d.Name.Name] = true
				}
				if name == "" || d.Body == nil {
					continue
				}
				if declared[name] == nil {
					declared[name] = map[string]bool{}
				}
				declared[name][d.Name.Name] = true
				if ptrMethods[name] == nil {
					ptrMethods[name] = map[string]*method{}
				}
				ptrMethods[name][d.Name.Name] = &method{recv: name, decl: d, file: sf}
			}
		}
	}

	wrapped := map[string]bool{}
	// declared pointer methods
	for t, ms := range ptrMethods {
		for _, m := range sortedMethods(ms) {
			rename(fset, m.file, m.decl.Name)
			writeWrapper(m.file, pkgName, t, m.decl, "p__ps."+m.decl.Name.Name+suffix)
			wrapped[t] = true
		}
	}
	// promoted pointer methods
	var structNames []string
	for n := range structs {
		structNames = append(structNames, n)
	}
	sort.Strings(structNames)
	for _, o := range structNames {
		promoted := promotedMethods(o, structs, declared, ptrMethods, map[string]bool{})
		var names []string
		for n := range promoted {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			pm := promoted[n]
			writeWrapper(pm.m.file, pkgName, o, pm.m.decl, "p__ps."+pm.field+"."+n+suffix)
			wrapped[o] = true
		}
	}
	for _, f := range funcs {
		rename(fset, f.file, f.decl.Name)
		writeFuncWrapper(f.file, pkgName, f.decl)
	}

	// the tests: template.New(a).Parse(b)
	for _, sf := range files {
		if !sf.test {
			continue
		}
		n := 0
		xmlUsed := false
		tmplUsed := false
		ast.Inspect(sf.ast, func(node ast.Node) bool {
			call, ok := node.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == "xml" && sel.Sel.Name == "Unmarshal" && importsAs(sf.ast, "encoding/xml", "xml") {
				off := fset.Position(sel.Pos()).Offset
				sf.edits = append(sf.edits, edit{off, fset.Position(sel.End()).Offset - off, "promptscoperec.XMLUnmarshal"})
				if !xmlUsed {
					xmlUsed = true
					sf.append.WriteString("\nvar _ = xml.Unmarshal\n")
				}
				n++
				return true
			}
			if sel.Sel.Name != "Parse" || len(call.Args) != 1 {
				return true
			}
			inner, ok := sel.X.(*ast.CallExpr)
			if !ok || len(inner.Args) != 1 {
				return true
			}
			isel, ok := inner.Fun.(*ast.SelectorExpr)
			if !ok || isel.Sel.Name != "New" {
				return true
			}
			if id, ok := isel.X.(*ast.Ident); !ok || id.Name != "template" || !importsAs(sf.ast, "text/template", "template") {
				return true
			}
			start := fset.Position(call.Pos()).Offset
			end := fset.Position(call.End()).Offset
			text := "promptscoperec.ParseTemplate(" + srcOf(fset, sf, inner.Args[0]) + ", " + srcOf(fset, sf, call.Args[0]) + ")"
			sf.edits = append(sf.edits, edit{start, end - start, text})
			if !tmplUsed {
				tmplUsed = true
				sf.append.WriteString("\nvar _ = template.New\n")
			}
			n++
			return false
		})
	}

	for _, sf := range files {
		if len(sf.edits) == 0 && sf.append.Len() == 0 {
			continue
		}
		out := applyEdits(sf.src, sf.edits)
		// the recorder's import, right after the package clause
		pkgEnd := fset.Position(sf.ast.Name.End()).Offset
		imp := "\n\nimport promptscoperec \"" + *recPath + "\"\n"
		out = append(out[:pkgEnd], append([]byte(imp), out[pkgEnd:]...)...)
		out = append(out, sf.append.Bytes()...)
		if err := os.WriteFile(sf.path, out, 0o644); err != nil {
			return err
		}
	}

	// registration
	var reg bytes.Buffer
	fmt.Fprintf(&reg, "// Code written by tools/parser-goldens/instrument; DO NOT EDIT.\n\npackage %s\n\nimport promptscoperec %q\n\nfunc init() {\n", pkgName, *recPath)
	var types []string
	for t := range wrapped {
		types = append(types, t)
	}
	sort.Strings(types)
	fmt.Fprintf(&reg, "\tpromptscoperec.RegisterTypes(%q", pkgName)
	for _, t := range types {
		fmt.Fprintf(&reg, ", (*%s)(nil)", t)
	}
	reg.WriteString(")\n")
	var cf []string
	for f := range configFields {
		cf = append(cf, fmt.Sprintf("%q", f))
	}
	sort.Strings(cf)
	if len(cf) > 0 {
		fmt.Fprintf(&reg, "\tpromptscoperec.ConfigFields(%s)\n", strings.Join(cf, ", "))
	}
	reg.WriteString("}\n")
	if err := os.WriteFile(filepath.Join(dir, "promptscope_register.go"), reg.Bytes(), 0o644); err != nil {
		return err
	}
	if testPkg != "" {
		main := fmt.Sprintf(`// Code written by tools/parser-goldens/instrument; DO NOT EDIT.

package %s

import (
	"os"
	"testing"

	promptscoperec %q
)

func TestMain(m *testing.M) {
	code := m.Run()
	promptscoperec.Flush()
	os.Exit(code)
}
`, testPkg, *recPath)
		if err := os.WriteFile(filepath.Join(dir, "promptscope_main_test.go"), []byte(main), 0o644); err != nil {
			return err
		}
	}
	fmt.Fprintf(os.Stderr, "instrument: %s: %d types, %d functions wrapped\n", dir, len(types), len(funcs))
	return nil
}

type promoted struct {
	field string
	m     *method
}

// promotedMethods: the pointer methods that struct o gets from its embedded
// fields (depth-first; a name o declares, or one of its fields has, is not
// promoted), with the embedded field they come through.
func promotedMethods(o string, structs map[string]*ast.StructType, declared map[string]map[string]bool, ptrMethods map[string]map[string]*method, visiting map[string]bool) map[string]promoted {
	st := structs[o]
	if st == nil || visiting[o] {
		return nil
	}
	visiting[o] = true
	defer delete(visiting, o)
	fieldNames := map[string]bool{}
	for _, f := range st.Fields.List {
		for _, n := range f.Names {
			fieldNames[n.Name] = true
		}
	}
	out := map[string]promoted{}
	count := map[string]int{}
	for _, f := range st.Fields.List {
		if len(f.Names) != 0 {
			continue
		}
		t := f.Type
		if s, ok := t.(*ast.StarExpr); ok {
			t = s.X
		}
		id, ok := t.(*ast.Ident)
		if !ok || structs[id.Name] == nil {
			continue
		}
		fieldNames[id.Name] = true
		e := id.Name
		avail := map[string]*method{}
		for n, m := range ptrMethods[e] {
			avail[n] = m
		}
		for n, pm := range promotedMethods(e, structs, declared, ptrMethods, visiting) {
			if _, ok := avail[n]; !ok {
				avail[n] = pm.m
			}
		}
		for n, m := range avail {
			count[n]++
			out[n] = promoted{field: e, m: m}
		}
	}
	for n := range out {
		if declared[o][n] || fieldNames[n] || count[n] > 1 {
			delete(out, n)
		}
	}
	return out
}

func sortedMethods(ms map[string]*method) []*method {
	var out []*method
	for _, m := range ms {
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].decl.Name.Name < out[j].decl.Name.Name })
	return out
}

func importsAs(f *ast.File, path, name string) bool {
	for _, s := range f.Imports {
		if strings.Trim(s.Path.Value, `"`) == path {
			if s.Name == nil {
				return name == filepath.Base(path)
			}
			return s.Name.Name == name
		}
	}
	return false
}

func rename(fset *token.FileSet, sf *srcFile, id *ast.Ident) {
	off := fset.Position(id.Pos()).Offset
	sf.edits = append(sf.edits, edit{off, len(id.Name), id.Name + suffix})
}

func applyEdits(src []byte, edits []edit) []byte {
	sort.Slice(edits, func(i, j int) bool { return edits[i].off > edits[j].off })
	out := append([]byte(nil), src...)
	for _, e := range edits {
		out = append(out[:e.off], append([]byte(e.text), out[e.off+e.n:]...)...)
	}
	return out
}

func srcOf(fset *token.FileSet, sf *srcFile, n ast.Node) string {
	return string(sf.src[fset.Position(n.Pos()).Offset:fset.Position(n.End()).Offset])
}

// signature returns the wrapper's parameter list, the call's argument list,
// the recorder's argument list, and the result list and names.
func signature(sf *srcFile, ft *ast.FuncType) (params, callArgs, recArgs, results string, resNames []string) {
	fset := sf.fset
	var ps, cs, rs []string
	i := 0
	for _, f := range ft.Params.List {
		n := len(f.Names)
		if n == 0 {
			n = 1
		}
		for k := 0; k < n; k++ {
			name := fmt.Sprintf("a%d", i)
			i++
			ps = append(ps, name+" "+srcOf(fset, sf, f.Type))
			if _, ok := f.Type.(*ast.Ellipsis); ok {
				cs = append(cs, name+"...")
			} else {
				cs = append(cs, name)
			}
			rs = append(rs, name)
		}
	}
	var res []string
	j := 0
	if ft.Results != nil {
		for _, f := range ft.Results.List {
			n := len(f.Names)
			if n == 0 {
				n = 1
			}
			for k := 0; k < n; k++ {
				name := fmt.Sprintf("r%d", j)
				j++
				res = append(res, name+" "+srcOf(fset, sf, f.Type))
				resNames = append(resNames, name)
			}
		}
	}
	params = strings.Join(ps, ", ")
	callArgs = strings.Join(cs, ", ")
	recArgs = strings.Join(rs, ", ")
	if len(res) > 0 {
		results = " (" + strings.Join(res, ", ") + ")"
	}
	return
}

func writeWrapper(sf *srcFile, pkg, recv string, decl *ast.FuncDecl, target string) {
	params, callArgs, recArgs, results, resNames := signature(sf, decl.Type)
	name := decl.Name.Name
	if strings.HasSuffix(name, suffix) {
		name = strings.TrimSuffix(name, suffix)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "\nfunc (p__ps *%s) %s(%s)%s {\n", recv, name, params, results)
	enterArgs := ""
	if recArgs != "" {
		enterArgs = ", " + recArgs
	}
	fmt.Fprintf(&b, "\tif c__ps := promptscoperec.Enter(%q, p__ps, %q, %q%s); c__ps != nil {\n", pkg, recv, name, enterArgs)
	if len(resNames) > 0 {
		fmt.Fprintf(&b, "\t\t%s = %s(%s)\n", strings.Join(resNames, ", "), target, callArgs)
		fmt.Fprintf(&b, "\t\tc__ps.Return(%s)\n\t\treturn\n\t}\n", strings.Join(resNames, ", "))
		fmt.Fprintf(&b, "\treturn %s(%s)\n}\n", target, callArgs)
	} else {
		fmt.Fprintf(&b, "\t\t%s(%s)\n\t\tc__ps.Return()\n\t\treturn\n\t}\n", target, callArgs)
		fmt.Fprintf(&b, "\t%s(%s)\n}\n", target, callArgs)
	}
	sf.append.Write(b.Bytes())
}

func writeFuncWrapper(sf *srcFile, pkg string, decl *ast.FuncDecl) {
	params, callArgs, recArgs, results, resNames := signature(sf, decl.Type)
	name := decl.Name.Name
	target := name + suffix
	var b bytes.Buffer
	fmt.Fprintf(&b, "\nfunc %s(%s)%s {\n", name, params, results)
	enterArgs := ""
	if recArgs != "" {
		enterArgs = ", " + recArgs
	}
	fmt.Fprintf(&b, "\tif c__ps := promptscoperec.EnterFunc(%q, %q%s); c__ps != nil {\n", pkg, name, enterArgs)
	if len(resNames) > 0 {
		fmt.Fprintf(&b, "\t\t%s = %s(%s)\n", strings.Join(resNames, ", "), target, callArgs)
		fmt.Fprintf(&b, "\t\tc__ps.Return(%s)\n\t\treturn\n\t}\n", strings.Join(resNames, ", "))
		fmt.Fprintf(&b, "\treturn %s(%s)\n}\n", target, callArgs)
	} else {
		fmt.Fprintf(&b, "\t\t%s(%s)\n\t\tc__ps.Return()\n\t\treturn\n\t}\n", target, callArgs)
		fmt.Fprintf(&b, "\t%s(%s)\n}\n", target, callArgs)
	}
	sf.append.Write(b.Bytes())
}
