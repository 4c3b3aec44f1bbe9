package main

import (
	"math"
	"math/rand"
	"reflect"
	"strings"
)

// fuzzCases emits n Sprintf cases with random (often malformed) format
// strings and random arguments. Not part of the committed table; run with
// -fuzz N and point GOFMT_JSONL at the output to use it.
func fuzzCases(n int, seed int64) {
	rng := rand.New(rand.NewSource(seed))
	t := T{"a", 3}
	pool := []any{
		0, 1, -1, 42, -7, 255, math.MaxInt64, math.MinInt64, int8(-5), uint8(200), uint64(math.MaxUint64),
		int32(0x263a), uintptr(9), 3, 2, 0.0, 1.5, -2.5, 0.1, 1e21, 1e-7, 123456789.0, math.NaN(),
		math.Inf(-1), float32(0.1), float32(-1e10), 1 + 2i, complex64(-1.5i), "", "abc", "日本語",
		"a\"b\n", "☺x", true, false, nil, []int{1, 2}, []any{1, "a", nil}, []byte("hi"), [2]byte{1, 2},
		map[string]int{"a": 1, "b": 2}, map[string]any{"x": nil}, t, &t, (*T)(nil), Str{1}, &PS{1},
		(*PS)(nil), ErrT{"e"}, Panicky(1), I(5), G(6), MyInts{3}, MyStr("m"), NamedStringer("n"),
		reflect.Value{}, []string{"s"}, SI{I: 1}, Hidden{}, renamedInt(4), func() {},
	}
	verbs := []string{"v", "d", "s", "q", "x", "X", "e", "E", "f", "F", "g", "G", "t", "b", "o", "O",
		"c", "U", "p", "T", "%", "w", "z", "!", "☠", "[", "]", ".", "*", "é", "1"}
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.Reset()
		for k := rng.Intn(4); k >= 0; k-- {
			if rng.Intn(3) == 0 {
				b.WriteString([]string{"a", " ", "|", "日", "%%"}[rng.Intn(5)])
			}
			b.WriteByte('%')
			for f := rng.Intn(4); f > 0; f-- {
				b.WriteByte("#0+- "[rng.Intn(5)])
			}
			piece := func() {
				switch rng.Intn(8) {
				case 0:
					b.WriteByte('*')
				case 1:
					b.WriteString("[" + string(rune('0'+rng.Intn(5))) + "]")
				case 2:
					b.WriteString([]string{"[", "[x]", "[1", "[]", "[12345678901234567890]"}[rng.Intn(5)])
				case 3, 4:
					b.WriteString(string(rune('0' + rng.Intn(10))))
					if rng.Intn(3) == 0 {
						b.WriteString(string(rune('0' + rng.Intn(10))))
					}
				case 5:
					if rng.Intn(10) == 0 {
						b.WriteString("99999999999999999999")
					}
				}
			}
			piece()
			if rng.Intn(2) == 0 {
				b.WriteByte('.')
				piece()
			}
			if rng.Intn(3) == 0 {
				piece()
			}
			if rng.Intn(20) != 0 {
				b.WriteString(verbs[rng.Intn(len(verbs))])
			}
		}
		args := []any{}
		for k := rng.Intn(5); k > 0; k-- {
			args = append(args, pool[rng.Intn(len(pool))])
		}
		sprintf(b.String(), args...)
	}
}

// floatFuzzCases emits n Sprintf cases of random floats with random
// float verbs, flags and precisions.
func floatFuzzCases(n int, seed int64) {
	rng := rand.New(rand.NewSource(seed))
	for i := 0; i < n; i++ {
		var v any
		switch rng.Intn(5) {
		case 0:
			v = math.Float64frombits(rng.Uint64())
		case 1:
			v = math.Float32frombits(rng.Uint32())
		case 2:
			v = rng.Float64() * math.Pow(10, float64(rng.Intn(60)-30))
		case 3:
			// Few significant bits: rounding ties.
			v = float64(rng.Int63n(1<<20)) / math.Pow(2, float64(rng.Intn(30)))
		case 4:
			v = float32(rng.Int63n(1<<20)) / float32(math.Pow(2, float64(rng.Intn(20))))
		}
		spec := "%"
		for f := rng.Intn(3); f > 0; f-- {
			spec += string("#0+- "[rng.Intn(5)])
		}
		if rng.Intn(3) == 0 {
			spec += string(rune('1' + rng.Intn(9)))
		}
		if rng.Intn(4) != 0 {
			spec += "." + itoa(rng.Intn(30))
		}
		spec += string("eEfFgGxXbv"[rng.Intn(10)])
		sprintf(spec, v)
	}
}

func itoa(n int) string {
	if n >= 10 {
		return itoa(n/10) + string(rune('0'+n%10))
	}
	return string(rune('0' + n))
}
