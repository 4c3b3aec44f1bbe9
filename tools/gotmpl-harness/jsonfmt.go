package main

// JSON output in the exact byte format of the golden files.
//
// The golden files (the shared corpus/golden/gotemplate.jsonl and
// crates/gotmpl/tests/golden/extra.jsonl) use the layout of Python's
// json.dumps(obj, ensure_ascii=False): ", " between items, ": " after keys,
// no HTML escaping, non-ASCII characters written as themselves (U+2028 and
// U+2029 included), and only '"', '\\' and the C0 controls escaped
// (\b \f \n \r \t short forms, the rest as \u00xx with lowercase hex).
// encoding/json's Encoder (even with SetEscapeHTML(false)) writes compact
// output and escapes U+2028/U+2029, so it cannot reproduce those bytes; this
// small writer does.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"unicode/utf8"
)

const hexDigits = "0123456789abcdef"

// writeJSONString appends s as a JSON string. s must be valid UTF-8 (callers
// check; strings decoded by encoding/json always are).
func writeJSONString(b *bytes.Buffer, s string) {
	b.WriteByte('"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		b.WriteString(s[start:i])
		switch c {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			b.WriteString(`\u00`)
			b.WriteByte(hexDigits[c>>4])
			b.WriteByte(hexDigits[c&0xf])
		}
		start = i + 1
	}
	b.WriteString(s[start:])
	b.WriteByte('"')
}

// writeStringList appends a JSON array of strings.
func writeStringList(b *bytes.Buffer, list []string) {
	b.WriteByte('[')
	for i, s := range list {
		if i > 0 {
			b.WriteString(", ")
		}
		writeJSONString(b, s)
	}
	b.WriteByte(']')
}

// reencodeJSON rewrites one JSON value in the golden layout, keeping object
// key order, duplicate keys and the exact text of every number (the value is
// read with UseNumber, so 1e+21, 1.0 and 12345678901234567890 come out as
// they went in).
func reencodeJSON(b *bytes.Buffer, raw []byte) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := reencodeValue(b, dec); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Errorf("trailing data after JSON value")
	}
	return nil
}

func reencodeValue(b *bytes.Buffer, dec *json.Decoder) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch v := tok.(type) {
	case json.Delim:
		switch v {
		case '{':
			b.WriteByte('{')
			for first := true; dec.More(); first = false {
				if !first {
					b.WriteString(", ")
				}
				key, err := dec.Token()
				if err != nil {
					return err
				}
				ks, ok := key.(string)
				if !ok {
					return fmt.Errorf("object key is %T", key)
				}
				writeJSONString(b, ks)
				b.WriteString(": ")
				if err := reencodeValue(b, dec); err != nil {
					return err
				}
			}
			if _, err := dec.Token(); err != nil { // '}'
				return err
			}
			b.WriteByte('}')
		case '[':
			b.WriteByte('[')
			for first := true; dec.More(); first = false {
				if !first {
					b.WriteString(", ")
				}
				if err := reencodeValue(b, dec); err != nil {
					return err
				}
			}
			if _, err := dec.Token(); err != nil { // ']'
				return err
			}
			b.WriteByte(']')
		default:
			return fmt.Errorf("unexpected delimiter %v", v)
		}
	case string:
		if !utf8.ValidString(v) {
			return fmt.Errorf("invalid UTF-8 in string")
		}
		writeJSONString(b, v)
	case json.Number:
		b.WriteString(string(v))
	case bool:
		if v {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case nil:
		b.WriteString("null")
	default:
		return fmt.Errorf("unexpected JSON token %T", tok)
	}
	return nil
}
