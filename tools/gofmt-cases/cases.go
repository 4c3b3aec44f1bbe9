package main

import (
	"math"
	"math/rand"
	"reflect"
)

// cross emits Sprintf(spec, v) for every spec and value.
func cross(specs []string, vals []any) {
	for _, v := range vals {
		for _, s := range specs {
			sprintf(s, v)
		}
	}
}

func integerCases() {
	specs := []string{
		"%v", "%d", "%+d", "% d", "%5d", "%-5d|", "%05d", "%-05d|", "%+05d", "% 05d",
		"%.3d", "%.0d", "%8.3d", "%08.3d", "%-8.3d|", "%+.3d", "% .3d",
		"%b", "%#b", "%o", "%#o", "%O", "%#O", "%x", "%#x", "%X", "%#X", "%08x", "%#08x",
		"%-#8x|", "%# x", "%+x", "%.4x", "%#.4x", "%#-10.4o|",
		"%c", "%5c", "%-3c|", "%q", "%+q", "%#q", "%U", "%#U", "%#.6U", "%10U", "%-#12U|",
		"%e", "%f", "%g", "%s", "%t", "%p", "%T", "%#v", "%+v", "%6.2v", "%08v", "%-8v|",
		"%z", "%w", "%!", "%☠",
	}
	vals := []any{
		0, 1, -1, 7, -7, 42, -42, 255, 1000000, math.MaxInt64, math.MinInt64,
		int8(-128), int8(127), int16(-300), int32(0x263a), int32(-1), int64(1 << 40),
		uint(7), uint8(200), uint16(65535), uint32(0xFFFFFFFF), uint64(math.MaxUint64),
		uintptr(0x1234), int32(0x1F600), int32(0xD800), int32(0x110000), 0x7f, 10, 0xe00,
		0xAD, renamedInt(-5), renamedUint8(14),
	}
	cross(specs, vals)
}

func floatCases() {
	specs := []string{
		"%v", "%g", "%G", "%e", "%E", "%f", "%F", "%.0f", "%.1f", "%.2f", "%.3f",
		"%.0e", "%.3e", "%.10e", "%.0g", "%.3g", "%.10g", "%.17g", "%.20f", "%.30e",
		"%#g", "%#.3g", "%#.0f", "%#.0e", "%#v", "%+v", "%x", "%X", "%.3x", "%#.0x", "%#x",
		"%b", "%8.3f", "%-8.3f|", "%08.3f", "%+08.3f", "% 08.3f", "%+.2e", "% .3g", "%+g",
		"%10g", "%-10g|", "%010g", "%5.1f", "%d", "%s", "%T", "%q", "%6.2v", "%#.4g",
		"%-010.2e|", "%#10.3x", "%.1x", "%.13x", "%.20x",
	}
	vals := []any{
		0.0, math.Copysign(0, -1), 1.0, -1.0, 0.1, 0.5, 1.5, 2.5, 0.125, 0.375, 1e-7, 1e-4,
		1e-5, 1e20, 1e21, 1e6, 100000.0, 123456.0, 1234567.0, 123456789.0, 1.0 / 3, 2.0 / 3,
		-2.0 / 3, 12345.678, 1e100, 1e-100, 5e-324, 1e-323, math.MaxFloat64, 0.000123456,
		99.99, 9.9995, 1e23, 5e22, 1.9999, 0.9999999, 9.5, 10.5, math.NaN(), math.Inf(1),
		math.Inf(-1), float32(0.1), float32(1.0 / 3), float32(16777216), float32(1e-7),
		float32(math.MaxFloat32), float32(1e21), float32(-2.5), float32(123456789),
		float32(math.SmallestNonzeroFloat32), float32(math.NaN()), MyFloat(2.5),
		renamedFloat32(22),
	}
	cross(specs, vals)

	// Ties between two equally close shortest candidates: Go takes the
	// correctly rounded one (half to even).
	ties := []any{9.376785278320312, 2.2709801725443862e+14, 0.09758377075195312,
		6.408526801679872e+14, float32(4979.40625), float32(3922.53125),
		float32(-2.16511725e+06), float32(150.265625), float32(20314.8125)}
	cross([]string{"%v", "%g", "%e", "%.16g", "%f"}, ties)

	// Random values, to exercise digit generation.
	rng := rand.New(rand.NewSource(1))
	rspecs := []string{"%v", "%e", "%.3e", "%.15g", "%.17g", "%g", "%.5f", "%x", "%b", "%.0f", "%.1e", "%#.8g", "%.25e"}
	pick := func() string { return rspecs[rng.Intn(len(rspecs))] }
	for i := 0; i < 400; i++ {
		f := math.Float64frombits(rng.Uint64())
		sprintf(pick(), f)
		sprintf(pick(), f)
	}
	for i := 0; i < 300; i++ {
		f := rng.Float64() * math.Pow(10, float64(rng.Intn(40)-15))
		sprintf(pick(), f)
		sprintf(pick(), f)
	}
	for i := 0; i < 200; i++ {
		f := math.Float32frombits(rng.Uint32())
		sprintf(pick(), f)
		sprintf(pick(), f)
	}
	for i := 0; i < 100; i++ {
		// Values with few digits, where ties of rounding happen.
		f := float64(rng.Intn(100000)) / math.Pow(2, float64(rng.Intn(12)))
		sprintf([]string{"%.0f", "%.1f", "%.2f", "%.3f", "%.1e", "%.2e", "%.2g", "%.3g"}[rng.Intn(8)], f)
	}
}

func complexCases() {
	specs := []string{
		"%v", "%g", "%e", "%f", "%.2f", "%+.3e", "%#g", "%x", "%b", "%8.2f", "%08.2f",
		"%-8.2f|", "% f", "%+v", "%#v", "%d", "%s", "%T", "%.0f", "%G", "%E", "%F", "%X",
	}
	vals := []any{
		0i, 1 + 2i, -1 - 2i, complex(math.NaN(), math.Inf(1)), complex(1e21, 1e-7),
		complex64(1.5 + 2.5i), complex(float32(0.1), -float32(1)/3),
		complex(math.Copysign(0, -1), math.Copysign(0, -1)), renamedComplex128(4 - 3i),
	}
	cross(specs, vals)
}

func stringCases() {
	specs := []string{
		"%s", "%v", "%q", "%+q", "%#q", "%#+q", "% q", "%x", "%X", "% x", "%# x", "%#x",
		"% X", "%.2s", "%.0s", "%5s", "%-5s|", "%05s", "%.1q", "%10.3q", "%#v", "%+v", "%T",
		"%d", "%c", "%U", "%8q", "%-8q|", "%08q", "%.5x", "%.1x", "%10x", "%-10x|", "%010x",
		"%t", "%p", "%e", "%# 10x",
	}
	vals := []any{
		"", "abc", "hello, world", "日本語", "\n\t\"\\", "a`b", "\x7f", "☺", "\U0010ffff",
		"\u00ad", "\ufeff", "e\u0301", "\a\b\f\r\v", "x\x00y", "\U0001F600", "\u2028",
		"\u00a0", "tab\there", "'", "\u0e00", MyStr("named"), renamedString("thing"),
	}
	cross(specs, vals)
	cross([]string{"%v", "%t", "%5t", "%-6t|", "%#v", "%+v", "%T", "%d", "%s", "%q", "%x", "%08t", "%p"},
		[]any{true, false, renamedBool(true)})
}

func compositeCases() {
	t := T{"a", 3}
	inner := &Inner{3, 4}
	specs := []string{
		"%v", "%+v", "%#v", "%T", "%s", "%d", "%x", "%X", "%q", "%p", "%5v", "%-5v|", "%05d",
		"%.1f", "%e", "%t", "%c", "%U", "%b", "%o", "% x", "%#x", "%8.3v", "%+d", "%w", "%z",
		"%06.2f", "%.2s",
	}
	vals := []any{
		[]any{1, "two", 3.5, nil, true}, []any{}, []any(nil), []int{1, 2, 3}, []int(nil),
		[]int{}, []string{"a", "b c"}, []byte("hi\x00"), []byte(nil), []byte{}, [3]byte{65, 66, 67},
		[2]int{1, 2}, [0]int{}, []uint8{200, 1}, []int8{-1, 2}, []float64{0.5, 1e21},
		[]float32{0.1}, [][]int{{1}, {2, 3}}, []bool{true}, []complex128{1, 2i},
		map[string]any{"a": 1.0, "b": "x", "c": nil, "d": []any{1.0, "y"}, "e": map[string]any{"z": true}},
		map[string]int{"b": 2, "a": 1}, map[string]int(nil), map[string]int{},
		map[int]string{2: "b", 1: "a", -1: "m"}, map[float64]int{math.NaN(): 1, 1: 2, -1: 3},
		map[bool]int{true: 1, false: 0}, map[string][]int{"x": {1}}, map[string]*T{"p": nil},
		map[string]error{"e": nil},
		t, T{}, &t, &T{"b", 4}, (*T)(nil), &[]int{1, 2}, &[2]string{"x", "y"},
		&map[string]int{"k": 1}, &[]any{1, nil}, new(int), (*int)(nil), []any{&t},
		[]*T{&t, nil}, map[string]*T{"a": &t}, struct {
			A int
			b string
		}{1, "x"}, struct{}{}, SI{}, SI{I: 5}, SI{I: t}, SI{I: &t},
		Nested{T: t, P: &t, L: []any{1, &t, nil, Str{}}, M: map[string]any{"k": &t, "n": nil},
			E: ErrT{"err"}, I: nil},
		Nested{},
		Outer{In: Inner{1, 2}, Ptr: inner, S: []Inner{{5, 6}}},
		&Outer{Ptr: inner},
		A{1, 2, "a", []int{1, 2}}, B{1, 2}, MyInts{1, 2}, MyInts(nil), MyMap{"a": 1},
		[]MyStr{"a"}, renamedBytes("hi"), []renamedUint8("hi"), func() {}, (func())(nil),
		Fn(nil), [1]Fn{nil}, []error{nil, ErrT{"x"}}, []any{Str{}, ErrT{"e"}, I(3)},
		U{}, &[]byte{1, 2}, [2][]byte{{1}, nil}, []any{[]byte("x"), [1]byte{9}},
	}
	cross(specs, vals)
}

func methodCases() {
	specs := []string{
		"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "%d", "%T", "%p", "%10v", "%-10s|",
		"%.1s", "%#q", "%w", "%t", "%5.2q", "%08v", "%# x",
	}
	vals := []any{
		Str{1}, &Str{2}, (*Str)(nil), ErrT{"x"}, &ErrT{"y"}, (*ErrT)(nil), PS{1}, &PS{2},
		(*PS)(nil), Panicky(1), NilOK{}, &NilOK{}, (*NilOK)(nil), NamedStringer("x"),
		I(23), G(6), &pValue, pValue, Hidden{Pub: Str{}, p: &PS{}}, Hidden{},
		[]any{Panicky(2), 3}, map[Str]int{{1}: 1}, map[string]Str{"a": {}}, []Str{{}, {}},
		[2]ErrT{}, byteStringerSlice, []NamedStringer{"a", "b"}, map[I]I{1: 2},
		[]*PS{{1}, nil}, []*Str{nil}, struct{ P *PS }{&PS{}}, []fmtTestG{6},
	}
	cross(specs, vals)
}

type fmtTestG = G

func argumentCases() {
	sprintf("%d %d", 1)
	sprintf("%d", 1, 2, "x", nil, 3.5, []int{1}, reflect.Value{}, T{"z", 1})
	sprintf("", nil)
	sprintf("", 2)
	sprintf("no args", "hello")
	for _, f := range []string{
		"%[2]d %[1]d", "%[2]d %d", "%[3]d", "%[0]d", "%[-1]d", "%[x]d", "%[1", "%[",
		"%[]d", "%[1]", "%[1]d %[1]x %[1]o", "%d %[1]d", "%[5]d", "%[2]2d", "%[2].2d",
		"%3.[2]d", "%.[2]d", "%*[2]d", "%10.[2]d", "%[1]*d", "%[2]*[1]d", "%.*[2]d",
		"%[1]d %[2]d %d", "%[1]v %[1]T", "%[2]v%[1]v%v", "%[1]%",
	} {
		sprintf(f, 1, 2)
		sprintf(f, 12, 5, 3)
	}
	sprintf("%[3]*.[2]*[1]f", 12.0, 2, 6)
	sprintf("%[1]*[1]d", 4)
	for _, w := range []any{5, -5, "x", uint(3), int8(3), 10000000, uint64(math.MaxUint64), nil, 2.0, renamedInt(4)} {
		sprintf("%*d|", w, 42)
		sprintf("%-*d|", w, 42)
		sprintf("%0*d|", w, 42)
		sprintf("%.*d|", w, 42)
		sprintf("%.*f|", w, math.Pi)
		sprintf("%*.*f|", w, w, math.Pi)
	}
	for _, f := range []string{
		"%", "%!", "%.", "%-", "%5", "%.5", "%☠", "%z", "%w", "%v %v", "%%", "%5%", "%-5%",
		"%d%%%d", "%x %X", "%!d", "%#", "% ", "%+", "%0", "%*", "%.*", "%[1]*", "%s %",
		"%s %.2", "%017091901790959340919092959340919017929593813360",
		"%184467440737095516170v", "%.99999999999d", "%010.2", "%-+# 0*.*[3]d",
		"%1.1.1d", "%..d", "%+-#0 5.3x", "%ä", "%\U0001F600", "%\u00e9x", "%#-08.3q", "100%",
		"%A", "%Q", "%D", "%S", "%V", "%B", "%+T", "%#T", "%-10T|", "%#p", "%+p", "%8p",
	} {
		sprintf(f)
		sprintf(f, 1, "x")
		sprintf(f, nil)
		sprintf(f, 3.5)
	}
	sprintf("%w", ErrT{"w"})
	for _, f := range []string{"%v", "%d", "%T", "%p", "%s", "%10v", "%#v", "%x"} {
		sprintf(f, reflect.Value{})
	}
	sprintf("%d", 1, reflect.Value{})
	sprintf("%v %v", reflect.Value{}, 1)
}

func printCases() {
	t := T{"a", 3}
	lists := [][]any{
		{}, {"a"}, {"a", "b"}, {1, 2}, {"a", 1, 2, "b"}, {nil, nil}, {1, nil, "x"},
		{renamedString("a"), 1, MyStr("b")}, {I(1), I(2)}, {1.5, 2, float32(0.1)},
		{[]int{1}, map[string]int{"a": 1}, t}, {reflect.Value{}, 1}, {Str{}, ErrT{"x"}, "s"},
		{true, false}, {1 + 2i, "c"}, {[]byte("hi"), "x"}, {&t, (*T)(nil)}, {"", ""},
		{"", 1, ""}, {Panicky(1), 2}, {1e21, 1e20, 123456789.0, 1e-5, 0.0001, 1e6},
		{NamedStringer("n"), "s", 3}, {[]any{nil}, []string(nil)}, {(*PS)(nil), &PS{}},
	}
	for _, l := range lists {
		sprint(l...)
		sprintln(l...)
	}
}
