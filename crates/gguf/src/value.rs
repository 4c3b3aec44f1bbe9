//! Metadata values.

use std::fmt;

use crate::types::ValueType;

/// A GGUF string: bytes that are meant to be UTF-8. GGUF does not enforce
/// UTF-8 (ggml never checks), so the exact bytes are kept; tokenizers need
/// them.
#[derive(Clone, PartialEq, Eq, Hash, Default)]
pub struct GgufString(Box<[u8]>);

impl GgufString {
    /// A string from its bytes.
    pub fn from_bytes(bytes: impl Into<Box<[u8]>>) -> GgufString {
        GgufString(bytes.into())
    }

    /// The exact bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }

    /// The text, when the bytes are valid UTF-8.
    pub fn as_str(&self) -> Option<&str> {
        std::str::from_utf8(&self.0).ok()
    }

    /// The text, with invalid UTF-8 replaced by U+FFFD.
    pub fn to_string_lossy(&self) -> std::borrow::Cow<'_, str> {
        String::from_utf8_lossy(&self.0)
    }

    /// Length in bytes.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether the string is empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl From<&str> for GgufString {
    fn from(s: &str) -> GgufString {
        GgufString(s.as_bytes().into())
    }
}

impl fmt::Debug for GgufString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.as_str() {
            Some(s) => fmt::Debug::fmt(s, f),
            None => write!(f, "b{:?}", self.to_string_lossy()),
        }
    }
}

impl fmt::Display for GgufString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_string_lossy())
    }
}

/// One metadata value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// `u8`.
    U8(u8),
    /// `i8`.
    I8(i8),
    /// `u16`.
    U16(u16),
    /// `i16`.
    I16(i16),
    /// `u32`.
    U32(u32),
    /// `i32`.
    I32(i32),
    /// `u64`.
    U64(u64),
    /// `i64`.
    I64(i64),
    /// `f32`.
    F32(f32),
    /// `f64`.
    F64(f64),
    /// `bool`.
    Bool(bool),
    /// `string`.
    String(GgufString),
    /// `array<T>`.
    Array(Array),
}

/// An array value, stored compactly by element type.
#[derive(Clone, Debug, PartialEq)]
pub enum Array {
    /// `array<u8>`.
    U8(Vec<u8>),
    /// `array<i8>`.
    I8(Vec<i8>),
    /// `array<u16>`.
    U16(Vec<u16>),
    /// `array<i16>`.
    I16(Vec<i16>),
    /// `array<u32>`.
    U32(Vec<u32>),
    /// `array<i32>`.
    I32(Vec<i32>),
    /// `array<u64>`.
    U64(Vec<u64>),
    /// `array<i64>`.
    I64(Vec<i64>),
    /// `array<f32>`.
    F32(Vec<f32>),
    /// `array<f64>`.
    F64(Vec<f64>),
    /// `array<bool>`.
    Bool(Vec<bool>),
    /// `array<string>`.
    String(Vec<GgufString>),
    /// An array of arrays. GGUF tags each inner array with its own element
    /// type, so inner arrays may differ; ggml itself rejects nested arrays,
    /// gguf-py reads them.
    Array(Vec<Array>),
}

impl Value {
    /// The value's type tag.
    pub fn value_type(&self) -> ValueType {
        match self {
            Value::U8(_) => ValueType::U8,
            Value::I8(_) => ValueType::I8,
            Value::U16(_) => ValueType::U16,
            Value::I16(_) => ValueType::I16,
            Value::U32(_) => ValueType::U32,
            Value::I32(_) => ValueType::I32,
            Value::U64(_) => ValueType::U64,
            Value::I64(_) => ValueType::I64,
            Value::F32(_) => ValueType::F32,
            Value::F64(_) => ValueType::F64,
            Value::Bool(_) => ValueType::Bool,
            Value::String(_) => ValueType::String,
            Value::Array(_) => ValueType::Array,
        }
    }

    /// The type name used by `promptscope gguf --json`: `u32`, `string`,
    /// `array<string>`, `array<array<i32>>`, ...
    pub fn type_name(&self) -> String {
        match self {
            Value::Array(a) => a.type_name(),
            other => other.value_type().name().to_string(),
        }
    }

    /// The value as an unsigned integer, for any integer type holding a
    /// non-negative value.
    pub fn as_u64(&self) -> Option<u64> {
        match *self {
            Value::U8(v) => Some(v.into()),
            Value::U16(v) => Some(v.into()),
            Value::U32(v) => Some(v.into()),
            Value::U64(v) => Some(v),
            Value::I8(v) => u64::try_from(v).ok(),
            Value::I16(v) => u64::try_from(v).ok(),
            Value::I32(v) => u64::try_from(v).ok(),
            Value::I64(v) => u64::try_from(v).ok(),
            _ => None,
        }
    }

    /// The value as a float, for any numeric type.
    pub fn as_f64(&self) -> Option<f64> {
        match *self {
            Value::F32(v) => Some(v.into()),
            Value::F64(v) => Some(v),
            Value::I8(v) => Some(v.into()),
            Value::I16(v) => Some(v.into()),
            Value::I32(v) => Some(v.into()),
            Value::I64(v) => Some(v as f64),
            _ => self.as_u64().map(|v| v as f64),
        }
    }

    /// The value as a boolean.
    pub fn as_bool(&self) -> Option<bool> {
        match *self {
            Value::Bool(b) => Some(b),
            _ => None,
        }
    }

    /// The value as text, for a string holding valid UTF-8.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => s.as_str(),
            _ => None,
        }
    }

    /// The value as a GGUF string.
    pub fn as_gguf_string(&self) -> Option<&GgufString> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The value as an array.
    pub fn as_array(&self) -> Option<&Array> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }
}

impl Array {
    /// The element type tag.
    pub fn element_type(&self) -> ValueType {
        match self {
            Array::U8(_) => ValueType::U8,
            Array::I8(_) => ValueType::I8,
            Array::U16(_) => ValueType::U16,
            Array::I16(_) => ValueType::I16,
            Array::U32(_) => ValueType::U32,
            Array::I32(_) => ValueType::I32,
            Array::U64(_) => ValueType::U64,
            Array::I64(_) => ValueType::I64,
            Array::F32(_) => ValueType::F32,
            Array::F64(_) => ValueType::F64,
            Array::Bool(_) => ValueType::Bool,
            Array::String(_) => ValueType::String,
            Array::Array(_) => ValueType::Array,
        }
    }

    /// An empty array of the given element type.
    pub fn empty(element: ValueType) -> Array {
        Array::with_capacity(element, 0)
    }

    pub(crate) fn with_capacity(element: ValueType, n: usize) -> Array {
        match element {
            ValueType::U8 => Array::U8(Vec::with_capacity(n)),
            ValueType::I8 => Array::I8(Vec::with_capacity(n)),
            ValueType::U16 => Array::U16(Vec::with_capacity(n)),
            ValueType::I16 => Array::I16(Vec::with_capacity(n)),
            ValueType::U32 => Array::U32(Vec::with_capacity(n)),
            ValueType::I32 => Array::I32(Vec::with_capacity(n)),
            ValueType::U64 => Array::U64(Vec::with_capacity(n)),
            ValueType::I64 => Array::I64(Vec::with_capacity(n)),
            ValueType::F32 => Array::F32(Vec::with_capacity(n)),
            ValueType::F64 => Array::F64(Vec::with_capacity(n)),
            ValueType::Bool => Array::Bool(Vec::with_capacity(n)),
            ValueType::String => Array::String(Vec::with_capacity(n)),
            ValueType::Array => Array::Array(Vec::with_capacity(n)),
        }
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        match self {
            Array::U8(v) => v.len(),
            Array::I8(v) => v.len(),
            Array::U16(v) => v.len(),
            Array::I16(v) => v.len(),
            Array::U32(v) => v.len(),
            Array::I32(v) => v.len(),
            Array::U64(v) => v.len(),
            Array::I64(v) => v.len(),
            Array::F32(v) => v.len(),
            Array::F64(v) => v.len(),
            Array::Bool(v) => v.len(),
            Array::String(v) => v.len(),
            Array::Array(v) => v.len(),
        }
    }

    /// Whether the array is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The type name: `array<T>`, nested `array<array<T>>`. An array of
    /// arrays is named after its first element (as gguf-py does); an empty
    /// one is `array<array>`.
    pub fn type_name(&self) -> String {
        match self {
            Array::Array(items) => match items.first() {
                Some(first) => format!("array<{}>", first.type_name()),
                None => "array<array>".to_string(),
            },
            other => format!("array<{}>", other.element_type().name()),
        }
    }

    /// Element `i` as a value (cloned), if in range.
    pub fn get(&self, i: usize) -> Option<Value> {
        Some(match self {
            Array::U8(v) => Value::U8(*v.get(i)?),
            Array::I8(v) => Value::I8(*v.get(i)?),
            Array::U16(v) => Value::U16(*v.get(i)?),
            Array::I16(v) => Value::I16(*v.get(i)?),
            Array::U32(v) => Value::U32(*v.get(i)?),
            Array::I32(v) => Value::I32(*v.get(i)?),
            Array::U64(v) => Value::U64(*v.get(i)?),
            Array::I64(v) => Value::I64(*v.get(i)?),
            Array::F32(v) => Value::F32(*v.get(i)?),
            Array::F64(v) => Value::F64(*v.get(i)?),
            Array::Bool(v) => Value::Bool(*v.get(i)?),
            Array::String(v) => Value::String(v.get(i)?.clone()),
            Array::Array(v) => Value::Array(v.get(i)?.clone()),
        })
    }

    /// Element `i` as an unsigned integer (see [`Value::as_u64`]).
    pub fn get_u64(&self, i: usize) -> Option<u64> {
        match self {
            Array::String(_) | Array::Array(_) => None,
            _ => self.get(i)?.as_u64(),
        }
    }

    /// The strings of an `array<string>`.
    pub fn as_strings(&self) -> Option<&[GgufString]> {
        match self {
            Array::String(v) => Some(v),
            _ => None,
        }
    }
}

/// One key/value pair, in file order.
#[derive(Clone, Debug, PartialEq)]
pub struct KeyValue {
    /// The key, like `general.architecture`. Keys are meant to be ASCII;
    /// invalid UTF-8 is replaced by U+FFFD.
    pub key: String,
    /// The value.
    pub value: Value,
    /// File offset where the pair starts (its key's length field).
    pub offset: u64,
}
