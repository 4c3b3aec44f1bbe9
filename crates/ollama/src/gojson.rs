//! JSON written as Go's `encoding/json` (and gin's `c.JSON`) writes it:
//! struct fields in declaration order, map keys sorted, strings with `<`,
//! `>` and `&` escaped, floats in Go's shortest form for their width.

use gotmpl::value::{FloatType, Value};

/// A JSON value to write.
#[derive(Clone, Debug, PartialEq)]
pub enum J {
    /// `null`.
    Null,
    /// `true`/`false`.
    Bool(bool),
    /// A number or other value already written.
    Raw(String),
    /// A string.
    Str(String),
    /// An array.
    Arr(Vec<J>),
    /// An object, fields in the order given.
    Obj(Vec<(String, J)>),
}

impl J {
    /// A string value.
    pub fn s(s: impl Into<String>) -> J {
        J::Str(s.into())
    }

    /// An integer.
    pub fn int(i: impl Into<i128>) -> J {
        J::Raw(i.into().to_string())
    }

    /// A float of `bits` (32 or 64) as Go's encoder writes it.
    pub fn float(f: f64, bits: u32) -> J {
        let t = if bits == 32 {
            FloatType::F32
        } else {
            FloatType::F64
        };
        match gotmpl::encoding_json::marshal(&Value::Float(f, t)) {
            Ok(s) => J::Raw(s),
            // NaN and infinities are an error in Go (the whole response
            // fails); GGUF metadata can hold them.
            Err(_) => J::Null,
        }
    }

    /// Writes the value compactly (`json.Marshal`).
    pub fn write(&self, out: &mut String) {
        match self {
            J::Null => out.push_str("null"),
            J::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            J::Raw(s) => out.push_str(s),
            J::Str(s) => gotmpl::encoding_json::encode_string(out, s, true),
            J::Arr(a) => {
                out.push('[');
                for (i, x) in a.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    x.write(out);
                }
                out.push(']');
            }
            J::Obj(o) => {
                out.push('{');
                for (i, (k, x)) in o.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    gotmpl::encoding_json::encode_string(out, k, true);
                    out.push(':');
                    x.write(out);
                }
                out.push('}');
            }
        }
    }

    /// The value as a string.
    pub fn to_json(&self) -> String {
        let mut s = String::new();
        self.write(&mut s);
        s
    }

    /// A JSON value written as Go writes the struct it stands for: keys in
    /// the order given, integers as they are, floats in Go's form, strings
    /// with Go's escapes.
    pub fn from_ordered(v: &serde_json::Value) -> J {
        match v {
            serde_json::Value::Null => J::Null,
            serde_json::Value::Bool(b) => J::Bool(*b),
            serde_json::Value::Number(n) if n.is_i64() || n.is_u64() => J::Raw(n.to_string()),
            serde_json::Value::Number(n) => J::float(n.as_f64().unwrap_or(0.0), 64),
            serde_json::Value::String(s) => J::s(s.clone()),
            serde_json::Value::Array(a) => J::Arr(a.iter().map(J::from_ordered).collect()),
            serde_json::Value::Object(m) => J::Obj(
                m.iter()
                    .map(|(k, x)| (k.clone(), J::from_ordered(x)))
                    .collect(),
            ),
        }
    }

    /// A decoded JSON value (`any` as Go decodes it) re-encoded: map keys
    /// sorted, numbers as float64.
    pub fn from_any(v: &serde_json::Value) -> J {
        match v {
            serde_json::Value::Null => J::Null,
            serde_json::Value::Bool(b) => J::Bool(*b),
            serde_json::Value::Number(n) => J::float(n.as_f64().unwrap_or(0.0), 64),
            serde_json::Value::String(s) => J::s(s.clone()),
            serde_json::Value::Array(a) => J::Arr(a.iter().map(J::from_any).collect()),
            serde_json::Value::Object(m) => {
                let mut kv: Vec<(String, J)> =
                    m.iter().map(|(k, x)| (k.clone(), J::from_any(x))).collect();
                kv.sort_by(|a, b| a.0.cmp(&b.0));
                J::Obj(kv)
            }
        }
    }
}

/// An object builder that skips `omitempty` fields.
#[derive(Default)]
pub struct Obj(pub Vec<(String, J)>);

impl Obj {
    /// Adds a field.
    pub fn put(&mut self, k: &str, v: J) -> &mut Obj {
        self.0.push((k.to_string(), v));
        self
    }

    /// Adds a string field unless it is empty (`omitempty`).
    pub fn str_omit(&mut self, k: &str, v: &str) -> &mut Obj {
        if !v.is_empty() {
            self.put(k, J::s(v));
        }
        self
    }

    /// The object.
    pub fn done(self) -> J {
        J::Obj(self.0)
    }
}
