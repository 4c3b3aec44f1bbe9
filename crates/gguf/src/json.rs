//! The `promptscope gguf --json` shape.

use serde_json::{json, Map, Number};

use crate::file::GgufFile;
use crate::value::{Array, Value};

/// An `f32` as JSON: the shortest decimal that reads back as the same
/// `f32` (so `1e-5`, not `9.999999747378752e-6`). JSON has no NaN or
/// infinities: those become the strings `"NaN"`, `"Infinity"`,
/// `"-Infinity"`.
pub fn f32_to_json(x: f32) -> serde_json::Value {
    if !x.is_finite() {
        return non_finite(x.into());
    }
    // Rust prints the shortest round-tripping f32 decimal; as an f64 that
    // decimal prints back the same.
    let shortest: f64 = format!("{x:e}").parse().unwrap_or(x.into());
    Number::from_f64(shortest).map_or(serde_json::Value::Null, serde_json::Value::Number)
}

/// An `f64` as JSON (non-finite values as for [`f32_to_json`]).
pub fn f64_to_json(x: f64) -> serde_json::Value {
    match Number::from_f64(x) {
        Some(n) => serde_json::Value::Number(n),
        None => non_finite(x),
    }
}

fn non_finite(x: f64) -> serde_json::Value {
    serde_json::Value::String(
        if x.is_nan() {
            "NaN"
        } else if x > 0.0 {
            "Infinity"
        } else {
            "-Infinity"
        }
        .into(),
    )
}

impl Value {
    /// The value as JSON: numbers, booleans, strings (invalid UTF-8
    /// replaced by U+FFFD), complete arrays.
    pub fn to_json(&self) -> serde_json::Value {
        match self {
            Value::U8(v) => json!(v),
            Value::I8(v) => json!(v),
            Value::U16(v) => json!(v),
            Value::I16(v) => json!(v),
            Value::U32(v) => json!(v),
            Value::I32(v) => json!(v),
            Value::U64(v) => json!(v),
            Value::I64(v) => json!(v),
            Value::F32(v) => f32_to_json(*v),
            Value::F64(v) => f64_to_json(*v),
            Value::Bool(v) => json!(v),
            Value::String(s) => serde_json::Value::String(s.to_string_lossy().into_owned()),
            Value::Array(a) => a.to_json(),
        }
    }
}

impl Array {
    /// The array as a JSON array.
    pub fn to_json(&self) -> serde_json::Value {
        fn all<T>(v: &[T], f: impl Fn(&T) -> serde_json::Value) -> serde_json::Value {
            serde_json::Value::Array(v.iter().map(f).collect())
        }
        match self {
            Array::U8(v) => all(v, |x| json!(x)),
            Array::I8(v) => all(v, |x| json!(x)),
            Array::U16(v) => all(v, |x| json!(x)),
            Array::I16(v) => all(v, |x| json!(x)),
            Array::U32(v) => all(v, |x| json!(x)),
            Array::I32(v) => all(v, |x| json!(x)),
            Array::U64(v) => all(v, |x| json!(x)),
            Array::I64(v) => all(v, |x| json!(x)),
            Array::F32(v) => all(v, |x| f32_to_json(*x)),
            Array::F64(v) => all(v, |x| f64_to_json(*x)),
            Array::Bool(v) => all(v, |x| json!(x)),
            Array::String(v) => all(v, |s| {
                serde_json::Value::String(s.to_string_lossy().into_owned())
            }),
            Array::Array(v) => all(v, Array::to_json),
        }
    }
}

impl GgufFile {
    /// The file as the JSON object `promptscope gguf --json` prints:
    /// `version`, `alignment`, `tensor_data_offset`, `metadata` (a list of
    /// `{key, type, value}` in file order) and `tensors` (`{name, type,
    /// shape, offset, size}`, shape in GGUF order, offset relative to the
    /// data section).
    pub fn to_json(&self) -> serde_json::Value {
        let metadata: Vec<serde_json::Value> = self
            .metadata()
            .iter()
            .map(|kv| {
                json!({
                    "key": kv.key,
                    "type": kv.value.type_name(),
                    "value": kv.value.to_json(),
                })
            })
            .collect();
        let tensors: Vec<serde_json::Value> = self
            .tensors()
            .iter()
            .map(|t| {
                json!({
                    "name": t.name,
                    "type": t.ggml_type.name(),
                    "shape": t.shape,
                    "offset": t.offset,
                    "size": t.size,
                })
            })
            .collect();
        let mut out = Map::new();
        out.insert("version".into(), json!(self.version()));
        out.insert("alignment".into(), json!(self.alignment()));
        out.insert(
            "tensor_data_offset".into(),
            json!(self.tensor_data_offset()),
        );
        out.insert("metadata".into(), serde_json::Value::Array(metadata));
        out.insert("tensors".into(), serde_json::Value::Array(tensors));
        serde_json::Value::Object(out)
    }
}
