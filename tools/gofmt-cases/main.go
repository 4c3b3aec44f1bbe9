// Command gofmt-cases prints a JSONL table of fmt.Sprintf / Sprint / Sprintln
// cases, each computed by the real Go fmt package, for the differential test
// of the Rust port (crates/gotmpl/tests/gofmt_go.rs).
//
//	tools/gofmt-cases/record.sh > crates/gotmpl/tests/data/gofmt.jsonl
//
// Each line is {"fn":"sprintf"|"sprint"|"sprintln", "format": "...",
// "args": [<arg>...], "expect": "..."}. An arg is a typed value:
//
//	{"t":"nil"}                 a nil interface
//	{"t":"invalid"}             a zero reflect.Value
//	{"t":<type>, "v":<value>}   anything else
//
// where <type> is a predeclared type name ("int", "float32", "string", ...,
// "interface", "error") or an object: {"k":"slice","elem":T},
// {"k":"array","len":N,"elem":T}, {"k":"map","key":K,"elem":V},
// {"k":"ptr","elem":T}, {"k":"func","params":[T],"results":[T],"variadic":B},
// {"k":"struct","name":"main.T" or "","fields":[{"name":..,"type":T}],"methods":[M]},
// {"k":"named","name":"main.I","under":T,"methods":[M]}; a method M is
// {"name":"String","ptr":false}. Values: numbers for integers, strings for
// floats ("0.1", "NaN", "+Inf", "-0"), "re"/"im" for complex numbers,
// arrays of args for slices, arrays, structs (fields in order), [[k,v]...]
// for maps, an arg or null for pointers. Slices, maps, pointers and funcs
// carry "addr" (the real address, so %p and nested pointers match) and
// slices and maps "nil".
//
// Cases whose arguments cannot be expressed (channels, Formatter methods,
// invalid UTF-8 strings, ...) or whose output is not valid UTF-8 are skipped;
// counts go to stderr.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"reflect"
	"sort"
	"strconv"
	"unicode/utf8"
)

// Types of our own (the fmt_test.go ones are in fmttests.go).

type T struct {
	Name string
	Age  int
}

type Str struct{ X int }

func (Str) String() string { return "S!" }

type ErrT struct{ Msg string }

func (e ErrT) Error() string  { return "E:" + e.Msg }
func (e ErrT) String() string { return "never" }

type PS struct{ N int }

func (p *PS) String() string { return "PS!" }

type Panicky int

func (Panicky) String() string { panic("boom") }

type NilOK struct{ N int }

func (p *NilOK) String() string {
	if p == nil {
		return "nil NilOK"
	}
	return "NilOK"
}

type NamedStringer string

func (s NamedStringer) String() string { return "NS(" + string(s) + ")" }

type MyInts []int
type MyMap map[string]int
type MyStr string
type MyFloat float64

type Hidden struct {
	s   Str
	e   ErrT
	Pub Str
	p   *PS
}

type Nested struct {
	T T
	P *T
	L []any
	M map[string]any
	E error
	I any
}

type Inner struct{ A, B int }

type Outer struct {
	In  Inner
	Ptr *Inner
	Arr [2]Inner
	S   []Inner
}

// knownMethods lists the methods the Rust test mirrors.
var knownMethods = map[string]bool{
	"main.Str.String": true, "main.ErrT.Error": true, "main.ErrT.String": true,
	"main.PS.String": true, "main.Panicky.String": true, "main.NilOK.String": true,
	"main.NamedStringer.String": true,
	// fmt_test.go's
	"main.I.String": true, "main.G.GoString": true, "main.P.String": true,
	"main.Fn.String": true, "main.byteStringer.String": true,
}

type unsupported struct{ why string }

// typeDefs holds the definitions of the defined (named) types, which args
// refer to as {"ref": name}.
var typeDefs = map[string]any{}

// badTypes holds the defined types that cannot be expressed, and why.
var badTypes = map[string]string{}

var errorType = reflect.TypeOf((*error)(nil)).Elem()

func encType(t reflect.Type) any {
	if t == errorType {
		return "error"
	}
	if t.Kind() == reflect.Interface {
		if t.NumMethod() == 0 {
			return "interface"
		}
		panic(unsupported{"interface " + t.String()})
	}
	if t.Name() != "" && t.PkgPath() != "" {
		name := t.String()
		if why, bad := badTypes[name]; bad {
			panic(unsupported{why})
		}
		if _, ok := typeDefs[name]; !ok {
			defer func() {
				if r := recover(); r != nil {
					if u, ok := r.(unsupported); ok {
						badTypes[name] = u.why
						delete(typeDefs, name)
					}
					panic(r)
				}
			}()
			typeDefs[name] = nil // a placeholder while recursing
			ms := methods(t)
			if t.Kind() == reflect.Struct {
				typeDefs[name] = map[string]any{"k": "struct", "name": name, "fields": fields(t), "methods": ms}
			} else {
				typeDefs[name] = map[string]any{"k": "named", "name": name, "under": encType(underlying(t)), "methods": ms}
			}
		}
		return map[string]any{"ref": name}
	}
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128, reflect.String:
		return t.Kind().String()
	case reflect.Slice:
		return map[string]any{"k": "slice", "elem": encType(t.Elem())}
	case reflect.Array:
		return map[string]any{"k": "array", "len": t.Len(), "elem": encType(t.Elem())}
	case reflect.Map:
		return map[string]any{"k": "map", "key": encType(t.Key()), "elem": encType(t.Elem())}
	case reflect.Pointer:
		return map[string]any{"k": "ptr", "elem": encType(t.Elem())}
	case reflect.Func:
		params, results := []any{}, []any{}
		for i := 0; i < t.NumIn(); i++ {
			params = append(params, encType(t.In(i)))
		}
		for i := 0; i < t.NumOut(); i++ {
			results = append(results, encType(t.Out(i)))
		}
		return map[string]any{"k": "func", "params": params, "results": results, "variadic": t.IsVariadic()}
	case reflect.Struct:
		return map[string]any{"k": "struct", "name": "", "fields": fields(t), "methods": []any{}}
	}
	panic(unsupported{"type " + t.String()})
}

func fields(t reflect.Type) []any {
	out := []any{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if f.Anonymous {
			panic(unsupported{"embedded field"})
		}
		out = append(out, map[string]any{"name": f.Name, "type": encType(f.Type)})
	}
	return out
}

func methods(t reflect.Type) []any {
	out := []any{}
	pt := reflect.PointerTo(t)
	for i := 0; i < pt.NumMethod(); i++ {
		m := pt.Method(i)
		_, onValue := t.MethodByName(m.Name)
		key := t.String() + "." + m.Name
		if !knownMethods[key] {
			panic(unsupported{"method " + key})
		}
		out = append(out, map[string]any{"name": m.Name, "ptr": !onValue})
	}
	return out
}

// underlying returns the underlying type of a defined non-struct type.
func underlying(t reflect.Type) reflect.Type {
	switch t.Kind() {
	case reflect.Slice:
		return reflect.SliceOf(t.Elem())
	case reflect.Array:
		return reflect.ArrayOf(t.Len(), t.Elem())
	case reflect.Map:
		return reflect.MapOf(t.Key(), t.Elem())
	case reflect.Pointer:
		return reflect.PointerTo(t.Elem())
	case reflect.Func:
		in, out := []reflect.Type{}, []reflect.Type{}
		for i := 0; i < t.NumIn(); i++ {
			in = append(in, t.In(i))
		}
		for i := 0; i < t.NumOut(); i++ {
			out = append(out, t.Out(i))
		}
		return reflect.FuncOf(in, out, t.IsVariadic())
	}
	for _, b := range []any{false, 0, int8(0), int16(0), int32(0), int64(0), uint(0), uint8(0),
		uint16(0), uint32(0), uint64(0), uintptr(0), float32(0), float64(0), complex64(0),
		complex128(0), ""} {
		if bt := reflect.TypeOf(b); bt.Kind() == t.Kind() {
			return bt
		}
	}
	panic(unsupported{"underlying of " + t.String()})
}

func fstr(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "+Inf"
	case math.IsInf(f, -1):
		return "-Inf"
	case f == 0 && math.Signbit(f):
		return "-0"
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

func addr(p uintptr) string { return fmt.Sprintf("%#x", p) }

func encValue(v reflect.Value) map[string]any {
	out := map[string]any{"t": encType(v.Type())}
	switch v.Kind() {
	case reflect.Bool:
		out["v"] = v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		out["v"] = v.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		out["v"] = v.Uint()
	case reflect.Float32, reflect.Float64:
		out["v"] = fstr(v.Float())
	case reflect.Complex64, reflect.Complex128:
		c := v.Complex()
		out["re"], out["im"] = fstr(real(c)), fstr(imag(c))
	case reflect.String:
		s := v.String()
		if !utf8.ValidString(s) {
			panic(unsupported{"invalid UTF-8 string"})
		}
		out["v"] = s
	case reflect.Slice, reflect.Array:
		items := []any{}
		for i := 0; i < v.Len(); i++ {
			items = append(items, encElem(v.Index(i)))
		}
		out["v"] = items
		if v.Kind() == reflect.Slice {
			out["nil"] = v.IsNil()
			out["addr"] = addr(uintptr(v.UnsafePointer()))
		}
	case reflect.Map:
		entries := []any{}
		iter := v.MapRange()
		for iter.Next() {
			entries = append(entries, []any{encElem(iter.Key()), encElem(iter.Value())})
		}
		// Any order will do: the reader sorts the entries as fmtsort does.
		sort.Slice(entries, func(i, j int) bool {
			a, _ := json.Marshal(entries[i])
			b, _ := json.Marshal(entries[j])
			return string(a) < string(b)
		})
		out["v"] = entries
		out["nil"] = v.IsNil()
		out["addr"] = addr(uintptr(v.UnsafePointer()))
	case reflect.Struct:
		fs := []any{}
		for i := 0; i < v.NumField(); i++ {
			fs = append(fs, encElem(v.Field(i)))
		}
		out["v"] = fs
	case reflect.Pointer:
		out["addr"] = addr(uintptr(v.UnsafePointer()))
		if v.IsNil() {
			out["v"] = nil
		} else {
			out["v"] = encElem(v.Elem())
		}
	case reflect.Func:
		out["addr"] = addr(uintptr(v.UnsafePointer()))
	default:
		panic(unsupported{"kind " + v.Kind().String()})
	}
	return out
}

func encElem(v reflect.Value) any {
	if v.Kind() == reflect.Interface {
		if v.IsNil() {
			return map[string]any{"t": "nil"}
		}
		return encValue(v.Elem())
	}
	return encValue(v)
}

func encArg(a any) any {
	if a == nil {
		return map[string]any{"t": "nil"}
	}
	if rv, ok := a.(reflect.Value); ok {
		if !rv.IsValid() {
			return map[string]any{"t": "invalid"}
		}
		panic(unsupported{"reflect.Value argument"})
	}
	return encValue(reflect.ValueOf(a))
}

// The output table.

type record struct {
	Fn     string `json:"fn"`
	Format string `json:"format"`
	Args   []any  `json:"args"`
	Expect string `json:"expect"`
}

var (
	lines   [][]byte
	seen    = map[string]bool{}
	skipped = map[string]int{}
	written int
)

func emit(fn, format string, args []any, expect string) {
	defer func() {
		if r := recover(); r != nil {
			u, ok := r.(unsupported)
			if !ok {
				panic(r)
			}
			skipped[u.why]++
		}
	}()
	if !utf8.ValidString(format) {
		panic(unsupported{"invalid UTF-8 format"})
	}
	if !utf8.ValidString(expect) {
		panic(unsupported{"invalid UTF-8 output"})
	}
	enc := []any{}
	for _, a := range args {
		enc = append(enc, encArg(a))
	}
	line := marshal(record{fn, format, enc, expect})
	if seen[string(line)] {
		return
	}
	seen[string(line)] = true
	lines = append(lines, line)
	written++
}

// marshal encodes v as one JSON line, without HTML escaping.
func marshal(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err)
	}
	return b.Bytes()
}

func sprintf(format string, args ...any) { emit("sprintf", format, args, fmt.Sprintf(format, args...)) }
func sprint(args ...any)                 { emit("sprint", "", args, fmt.Sprint(args...)) }
func sprintln(args ...any)               { emit("sprintln", "", args, fmt.Sprintln(args...)) }

func main() {
	fuzz := flag.Int("fuzz", 0, "emit this many random cases instead of the table")
	seed := flag.Int64("seed", 1, "random seed for -fuzz")
	floats := flag.Int("floatfuzz", 0, "emit this many random float cases instead of the table")
	flag.Parse()
	if *fuzz > 0 || *floats > 0 {
		fuzzCases(*fuzz, *seed)
		floatFuzzCases(*floats, *seed)
		write()
		return
	}
	fmtTestCases()
	integerCases()
	floatCases()
	complexCases()
	stringCases()
	compositeCases()
	methodCases()
	argumentCases()
	printCases()
	write()
}

func write() {
	out := bufio.NewWriter(os.Stdout)
	out.Write(marshal(map[string]any{"types": typeDefs}))
	for _, l := range lines {
		out.Write(l)
	}
	out.Flush()
	fmt.Fprintf(os.Stderr, "%d cases\n", written)
	for why, n := range skipped {
		fmt.Fprintf(os.Stderr, "skipped %d: %s\n", n, why)
	}
}

func fmtTestCases() {
	for _, tt := range fmtTests {
		sprintf(tt.fmt, tt.val)
	}
}
