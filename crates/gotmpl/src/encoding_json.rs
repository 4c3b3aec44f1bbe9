//! Go's `encoding/json` `Marshal` over [`Value`], byte for byte: sorted map
//! keys, struct tags (`json:"name,omitempty"`, `-`), HTML escaping,
//! `float64` formatting (`1e+21`, `0.000001`, `1e-7`), `[]byte` as base64,
//! and `MarshalJSON` methods.

use crate::gofmt::format_float;
use crate::value::{Type, UintType, Value};

/// A marshalling failure, worded as Go's (`json: unsupported value: NaN`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MarshalError(pub String);

impl std::fmt::Display for MarshalError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// `json.Marshal(v)`: compact JSON with HTML characters escaped.
pub fn marshal(v: &Value) -> Result<String, MarshalError> {
    let mut out = String::new();
    encode(&mut out, v, true, 0)?;
    Ok(out)
}

/// Like [`marshal`], choosing whether `<`, `>` and `&` are escaped
/// (`Encoder.SetEscapeHTML`).
pub fn marshal_with(v: &Value, escape_html: bool) -> Result<String, MarshalError> {
    let mut out = String::new();
    encode(&mut out, v, escape_html, 0)?;
    Ok(out)
}

const MAX_DEPTH: usize = 1000;

fn encode(out: &mut String, v: &Value, html: bool, depth: usize) -> Result<(), MarshalError> {
    if depth > MAX_DEPTH {
        return Err(MarshalError(
            "json: unsupported value: encountered a cycle or excessive nesting".into(),
        ));
    }
    if let Some(m) = v.method("MarshalJSON") {
        if m.sig.params.is_empty() {
            // A value-receiver method reached through a pointer gets the value.
            let receiver = match v {
                Value::Pointer(p) if !m.pointer_receiver => match &p.target {
                    Some(t) => t,
                    None => {
                        out.push_str("null");
                        return Ok(());
                    }
                },
                v => v,
            };
            let raw = (m.imp)(std::slice::from_ref(receiver)).map_err(|e| {
                MarshalError(format!(
                    "json: error calling MarshalJSON for type {}: {e}",
                    v.type_of().map(|t| t.to_string()).unwrap_or_default()
                ))
            })?;
            out.push_str(raw.as_str().unwrap_or("null"));
            return Ok(());
        }
    }
    match v {
        Value::Invalid | Value::Nil => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Int(i, _) => out.push_str(&i.to_string()),
        Value::Uint(u, _) => out.push_str(&u.to_string()),
        Value::Float(f, t) => {
            let bits = if *t == crate::value::FloatType::F32 {
                32
            } else {
                64
            };
            encode_float(out, *f, bits)?
        }
        Value::Complex(..) => {
            return Err(MarshalError(format!(
                "json: unsupported type: {}",
                v.type_of().map(|t| t.to_string()).unwrap_or_default()
            )))
        }
        Value::String(s) => encode_string(out, s, html),
        Value::Slice(s) => {
            if s.is_nil {
                out.push_str("null");
                return Ok(());
            }
            if matches!(s.elem_type(), Type::Uint(UintType::U8))
                && !matches!(s.ty.underlying(), Type::Array(..))
            {
                let bytes: Vec<u8> = s
                    .items()
                    .iter()
                    .map(|b| match b {
                        Value::Uint(x, _) => *x as u8,
                        _ => 0,
                    })
                    .collect();
                out.push('"');
                out.push_str(&base64(&bytes));
                out.push('"');
                return Ok(());
            }
            out.push('[');
            for (i, item) in s.items().iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                encode(out, item, html, depth + 1)?;
            }
            out.push(']');
        }
        Value::Map(m) => {
            if m.is_nil {
                out.push_str("null");
                return Ok(());
            }
            let mut entries: Vec<(String, &Value)> = Vec::with_capacity(m.entries.len());
            for (k, val) in &m.entries {
                let key = match k.underlying() {
                    Value::String(s) => s.to_string(),
                    Value::Int(i, _) => i.to_string(),
                    Value::Uint(u, _) => u.to_string(),
                    _ => return Err(MarshalError(format!("json: unsupported type: {}", m.ty))),
                };
                entries.push((key, val));
            }
            entries.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
            out.push('{');
            for (i, (k, val)) in entries.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                encode_string(out, k, html);
                out.push(':');
                encode(out, val, html, depth + 1)?;
            }
            out.push('}');
        }
        Value::Struct(s) => {
            out.push('{');
            let mut first = true;
            for (fd, val) in s.ty.fields.iter().zip(&s.fields) {
                if !fd.is_exported() {
                    continue;
                }
                let tag = fd.tag_value("json").unwrap_or("");
                if tag == "-" {
                    continue;
                }
                let mut parts = tag.split(',');
                let name = parts.next().filter(|n| !n.is_empty()).unwrap_or(&fd.name);
                let opts: Vec<&str> = parts.collect();
                if opts.contains(&"omitempty") && is_empty_value(val) {
                    continue;
                }
                if !first {
                    out.push(',');
                }
                first = false;
                encode_string(out, name, html);
                out.push(':');
                if opts.contains(&"string")
                    && matches!(
                        val,
                        Value::String(_)
                            | Value::Int(..)
                            | Value::Uint(..)
                            | Value::Float(..)
                            | Value::Bool(_)
                    )
                {
                    let mut inner = String::new();
                    encode(&mut inner, val, html, depth + 1)?;
                    encode_string(out, &inner, html);
                } else {
                    encode(out, val, html, depth + 1)?;
                }
            }
            out.push('}');
        }
        Value::Pointer(p) => match &p.target {
            None => out.push_str("null"),
            Some(t) => encode(out, t, html, depth + 1)?,
        },
        Value::Func(_) => {
            return Err(MarshalError(format!(
                "json: unsupported type: {}",
                v.type_of().map(|t| t.to_string()).unwrap_or_default()
            )))
        }
        Value::Named(_, inner) => encode(out, inner, html, depth + 1)?,
    }
    Ok(())
}

/// Go's `isEmptyValue` for `omitempty`.
fn is_empty_value(v: &Value) -> bool {
    match v.underlying() {
        Value::Invalid | Value::Nil => true,
        Value::Bool(b) => !*b,
        Value::Int(i, _) => *i == 0,
        Value::Uint(u, _) => *u == 0,
        Value::Float(f, _) => *f == 0.0,
        Value::String(s) => s.is_empty(),
        Value::Slice(s) => s.len == 0,
        Value::Map(m) => m.entries.is_empty(),
        Value::Pointer(p) => p.target.is_none(),
        Value::Func(f) => f.addr == 0,
        _ => false,
    }
}

fn encode_float(out: &mut String, f: f64, bits: u32) -> Result<(), MarshalError> {
    if f.is_nan() || f.is_infinite() {
        return Err(MarshalError(format!(
            "json: unsupported value: {}",
            format_float(f, b'g', -1, bits)
        )));
    }
    let abs = f.abs();
    let mut fmt = b'f';
    if abs != 0.0 {
        let small_or_big = if bits == 64 {
            !(1e-6..1e21).contains(&abs)
        } else {
            let a = abs as f32;
            !(1e-6f32..1e21f32).contains(&a)
        };
        if small_or_big {
            fmt = b'e';
        }
    }
    let mut s = format_float(f, fmt, -1, bits);
    if fmt == b'e' {
        let b = s.as_bytes();
        let n = b.len();
        if n >= 4 && b[n - 4] == b'e' && b[n - 3] == b'-' && b[n - 2] == b'0' {
            let last = b[n - 1] as char;
            s.truncate(n - 2);
            s.push(last);
        }
    }
    out.push_str(&s);
    Ok(())
}

/// Go's `appendString`.
pub fn encode_string(out: &mut String, s: &str, html: bool) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push('"');
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '<' | '>' | '&' if html => {
                out.push_str("\\u00");
                out.push(HEX[(c as usize) >> 4] as char);
                out.push(HEX[(c as usize) & 0xf] as char);
            }
            c if (c as u32) < 0x20 => {
                out.push_str("\\u00");
                out.push(HEX[(c as usize) >> 4] as char);
                out.push(HEX[(c as usize) & 0xf] as char);
            }
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Go's `base64.StdEncoding.EncodeToString` (how `encoding/json` writes a
/// `[]byte`).
pub fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = ((b[0] as u32) << 16) | ((b[1] as u32) << 8) | b[2] as u32;
        out.push(ALPHABET[(n >> 18) as usize & 63] as char);
        out.push(ALPHABET[(n >> 12) as usize & 63] as char);
        out.push(if chunk.len() > 1 {
            ALPHABET[(n >> 6) as usize & 63] as char
        } else {
            '='
        });
        out.push(if chunk.len() > 2 {
            ALPHABET[n as usize & 63] as char
        } else {
            '='
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_like_go() {
        let cases = [
            (12345678901234567890.0, "12345678901234567000"),
            (1e21, "1e+21"),
            (1e-6, "0.000001"),
            (-1.5e-7, "-1.5e-7"),
            (2.0, "2"),
            (0.1, "0.1"),
        ];
        for (f, want) in cases {
            assert_eq!(marshal(&Value::float(f)).unwrap(), want);
        }
        assert_eq!(
            marshal(&Value::float(f64::NAN)).unwrap_err().0,
            "json: unsupported value: NaN"
        );
    }

    #[test]
    fn strings_maps_and_slices() {
        let v = Value::from_json(r#"{"b":"<a&b> \u2028","a":[1,null,true],"c":{}}"#).unwrap();
        assert_eq!(
            marshal(&v).unwrap(),
            r#"{"a":[1,null,true],"b":"\u003ca\u0026b\u003e \u2028","c":{}}"#
        );
        assert_eq!(
            marshal_with(&Value::string("<\u{1}>"), false).unwrap(),
            "\"<\\u0001>\""
        );
        assert_eq!(base64(b"hi"), "aGk=");
    }
}
