//! `llama-quantize IN OUT COPY` at llama.cpp b10488, the pass Ollama's
//! create (v0.33.0-rc2, server/create.go `copyLayerWithLlamaQuantize`)
//! puts every model GGUF through: the same tensors, in the model loader's
//! order, under the input's metadata with `general.quantization_version`
//! and `general.file_type` moved to the end and the split keys dropped.
//!
//! Read from src/llama-quant.cpp `llama_model_quantize_impl`,
//! src/llama-model-loader.{h,cpp} (`weight_name_comparer`, the file-type
//! guess) and ggml/src/gguf.cpp (`gguf_set_kv`, `gguf_add_tensor`, the
//! writer). Only the header is built here; the caller copies each tensor's
//! bytes from the input and pads them with zeros, as [`Copy::pieces`] says.
//!
//! Not checked here: that llama.cpp can load the model at all (its loader
//! and `load_hparams` run first, and refuse architectures or
//! hyperparameters they do not know).
//!
//! [`ollama_write_gguf`] is the other rewrite Ollama's create makes: its own
//! Go writer (fs/ggml `WriteGGUF`), which adds `clip.projector_type` to a
//! LLaVA projector that lacks it (server/quantization.go
//! `addDefaultLlavaProjectorType`).

use crate::file::GgufFile;
use crate::types::GgmlType;
use crate::value::{Array, Value};

/// `GGUF_DEFAULT_ALIGNMENT`: what the output is aligned to (a fresh
/// context's alignment; `gguf_set_kv` copies a `general.alignment` key but
/// does not apply it).
const ALIGN: u64 = 32;
/// `GGML_QNT_VERSION`.
const QNT_VERSION: u32 = 2;
/// `LLAMA_FTYPE_GUESSED`.
const GUESSED: u32 = 1024;

/// One tensor's bytes in the output: read `size` bytes at `from` in the
/// input, then write `pad` zero bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    /// Absolute offset in the input file.
    pub from: u64,
    /// The tensor's size in bytes.
    pub size: u64,
    /// Zero bytes after it.
    pub pad: u64,
}

/// The output: its header, then the pieces in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Copy {
    /// Header, metadata, tensor infos and the padding before the data.
    pub header: Vec<u8>,
    /// The tensors' data, in output order.
    pub pieces: Vec<Piece>,
}

impl Copy {
    /// The output's size in bytes.
    pub fn size(&self) -> u64 {
        self.header.len() as u64 + self.pieces.iter().map(|p| p.size + p.pad).sum::<u64>()
    }
}

/// `sscanf(name, "blk.%d.", &layer)`: the layer number, else -1.
fn layer(name: &str) -> i64 {
    let Some(rest) = name.strip_prefix("blk.") else {
        return -1;
    };
    let rest = rest.trim_start_matches([' ', '\t', '\n', '\r', '\x0b', '\x0c']);
    let (sign, digits) = match rest.as_bytes().first() {
        Some(b'-') => (-1i64, &rest[1..]),
        Some(b'+') => (1, &rest[1..]),
        _ => (1, rest),
    };
    let n: String = digits.chars().take_while(char::is_ascii_digit).collect();
    if n.is_empty() {
        return -1;
    }
    // %d into an int: take it as C does on this platform (wrapping to 32 bits)
    let v = n.bytes().fold(0i64, |a, d| {
        a.wrapping_mul(10).wrapping_add(i64::from(d - b'0'))
    });
    i64::from((sign.wrapping_mul(v)) as i32)
}

/// The loader's guess of the file type from the most common tensor type
/// (the first to reach the highest count, in the loader's order).
fn guessed_ftype(order: &[&crate::file::TensorInfo]) -> u32 {
    let mut counts: Vec<(GgmlType, u32)> = Vec::new();
    let (mut best, mut best_n) = (None::<GgmlType>, 0u32);
    for t in order {
        let n = match counts.iter_mut().find(|(k, _)| *k == t.ggml_type) {
            Some((_, n)) => {
                *n += 1;
                *n
            }
            None => {
                counts.push((t.ggml_type, 1));
                1
            }
        };
        if best_n < n {
            best_n = n;
            best = Some(t.ggml_type);
        }
    }
    // ggml type id → llama_ftype (llama-model-loader.cpp's switch; any
    // other type: ALL_F32)
    let ftype = match best.map(GgmlType::id) {
        Some(1) => 1,
        Some(30) => 32,
        Some(2) => 2,
        Some(3) => 3,
        Some(6) => 8,
        Some(7) => 9,
        Some(8) => 7,
        Some(10) => 10,
        Some(11) => 12,
        Some(12) => 15,
        Some(13) => 17,
        Some(14) => 18,
        Some(34) => 36,
        Some(35) => 37,
        Some(16) => 19,
        Some(17) => 20,
        Some(22) => 28,
        Some(18) => 23,
        Some(19) => 24,
        Some(29) => 31,
        Some(20) => 25,
        Some(23) => 30,
        Some(21) => 26,
        Some(40) => 39,
        Some(41) => 40,
        Some(42) => 41,
        _ => 0,
    };
    ftype | GUESSED
}

struct W(Vec<u8>);

impl W {
    fn u32(&mut self, v: u32) {
        self.0.extend(v.to_le_bytes());
    }
    fn u64(&mut self, v: u64) {
        self.0.extend(v.to_le_bytes());
    }
    fn str(&mut self, b: &[u8]) {
        self.u64(b.len() as u64);
        self.0.extend(b);
    }
    fn array(&mut self, a: &Array) -> Result<(), String> {
        macro_rules! nums {
            ($tag:expr, $v:expr) => {{
                self.u32($tag);
                self.u64($v.len() as u64);
                for x in $v {
                    self.0.extend(x.to_le_bytes());
                }
            }};
        }
        match a {
            Array::U8(v) => nums!(0, v),
            Array::I8(v) => nums!(1, v),
            Array::U16(v) => nums!(2, v),
            Array::I16(v) => nums!(3, v),
            Array::U32(v) => nums!(4, v),
            Array::I32(v) => nums!(5, v),
            Array::F32(v) => nums!(6, v),
            Array::Bool(v) => {
                self.u32(7);
                self.u64(v.len() as u64);
                self.0.extend(v.iter().map(|b| u8::from(*b)));
            }
            Array::String(v) => {
                self.u32(8);
                self.u64(v.len() as u64);
                for s in v {
                    self.str(s.as_bytes());
                }
            }
            Array::U64(v) => nums!(10, v),
            Array::I64(v) => nums!(11, v),
            Array::F64(v) => nums!(12, v),
            Array::Array(_) => return Err("invalid type: an array of arrays (ggml aborts)".into()),
        }
        Ok(())
    }
    fn value(&mut self, v: &Value) -> Result<(), String> {
        self.u32(v.value_type().tag());
        match v {
            Value::U8(x) => self.0.push(*x),
            Value::I8(x) => self.0.extend(x.to_le_bytes()),
            Value::U16(x) => self.0.extend(x.to_le_bytes()),
            Value::I16(x) => self.0.extend(x.to_le_bytes()),
            Value::U32(x) => self.0.extend(x.to_le_bytes()),
            Value::I32(x) => self.0.extend(x.to_le_bytes()),
            Value::F32(x) => self.0.extend(x.to_le_bytes()),
            Value::Bool(x) => self.0.push(u8::from(*x)),
            Value::String(s) => self.str(s.as_bytes()),
            Value::Array(a) => self.array(a)?,
            Value::U64(x) => self.0.extend(x.to_le_bytes()),
            Value::I64(x) => self.0.extend(x.to_le_bytes()),
            Value::F64(x) => self.0.extend(x.to_le_bytes()),
        }
        Ok(())
    }
}

/// What `llama-quantize IN OUT COPY` writes for this file.
pub fn llama_quantize_copy(f: &GgufFile) -> Result<Copy, String> {
    if f.endian() != crate::file::Endian::Little {
        return Err("a big-endian GGUF: llama.cpp reads only little-endian files".into());
    }
    // the loader's tensor order (weights_map: layer number, then name)
    let mut order: Vec<&crate::file::TensorInfo> = f.tensors().iter().collect();
    order.sort_by(|a, b| {
        layer(&a.name)
            .cmp(&layer(&b.name))
            .then_with(|| a.name.as_bytes().cmp(b.name.as_bytes()))
    });
    let ftype = match f.get("general.file_type") {
        Some(Value::U32(v)) => *v,
        Some(_) => {
            return Err(
                "general.file_type is not a u32: llama.cpp's loader refuses the file".into(),
            )
        }
        None => guessed_ftype(&order),
    };
    // gguf_set_kv (every key, in order), then the two set_val_u32 calls
    // (each removes the key and appends it), then the split keys removed
    let mut kv: Vec<(&[u8], Value)> = f
        .metadata()
        .iter()
        .map(|e| (e.key.as_bytes(), e.value.clone()))
        .collect();
    for (key, v) in [
        (&b"general.quantization_version"[..], QNT_VERSION),
        (&b"general.file_type"[..], ftype),
    ] {
        kv.retain(|(k, _)| *k != key);
        kv.push((key, Value::U32(v)));
    }
    kv.retain(|(k, _)| !matches!(*k, b"split.no" | b"split.count" | b"split.tensors.count"));

    let mut w = W(Vec::new());
    w.0.extend(b"GGUF");
    w.u32(3);
    w.u64(order.len() as u64);
    w.u64(kv.len() as u64);
    for (k, v) in &kv {
        w.str(k);
        w.value(v)?;
    }
    let pad = |n: u64| n.div_ceil(ALIGN) * ALIGN - n;
    let mut offset = 0u64;
    let mut pieces = Vec::with_capacity(order.len());
    for t in &order {
        w.str(t.name.as_bytes());
        // ggml_n_dims: trailing dimensions of 1 are not written
        let n_dims = t.shape.iter().rposition(|&d| d != 1).map_or(1, |i| i + 1);
        w.u32(n_dims as u32);
        for j in 0..n_dims {
            w.u64(t.shape.get(j).copied().unwrap_or(1));
        }
        w.u32(t.ggml_type.id());
        w.u64(offset);
        offset += t.size + pad(t.size);
        pieces.push(Piece {
            from: f.tensor_data_offset() + t.offset,
            size: t.size,
            pad: pad(t.size),
        });
    }
    let n = w.0.len() as u64;
    w.0.resize((n + pad(n)) as usize, 0);
    Ok(Copy {
        header: w.0,
        pieces,
    })
}

/// `fmt.Sscanf(name, "blk.%d.", &n)` as Ollama's `Tensor.block` reads it:
/// the layer number, else `i64::MAX` (Go's `math.MaxInt`).
fn go_block(name: &str) -> i64 {
    let Some(rest) = name.strip_prefix("blk.") else {
        return i64::MAX;
    };
    let (neg, digits) = match rest.as_bytes().first() {
        Some(b'-') => (true, &rest[1..]),
        Some(b'+') => (false, &rest[1..]),
        _ => (false, rest),
    };
    let n: String = digits.chars().take_while(char::is_ascii_digit).collect();
    if n.is_empty() || !digits[n.len()..].starts_with('.') {
        return i64::MAX;
    }
    match n.parse::<i64>() {
        Ok(v) if neg => -v,
        Ok(v) => v,
        Err(_) => i64::MAX,
    }
}

/// What Ollama's `WriteGGUF` writes for this file's decoded metadata (with
/// `general.parameter_count`, which its decoder adds) and `set` put over
/// it: keys sorted, each without the architecture's prefix given one,
/// tensors by block then name, aligned to `general.alignment` (32 by
/// default). Ollama's error for a key of a type its writer has no case for
/// (8- and 16-bit integers, f64, their arrays, nested arrays).
pub fn ollama_write_gguf(f: &GgufFile, set: &[(&str, Value)]) -> Result<Copy, String> {
    if f.endian() != crate::file::Endian::Little {
        return Err("a big-endian GGUF".into());
    }
    let arch = match f.get("general.architecture") {
        Some(Value::String(s)) if !s.as_bytes().is_empty() => s.to_string_lossy().into_owned(),
        _ => return Err("architecture not set".into()),
    };
    let mut kv: std::collections::BTreeMap<String, Value> = f
        .metadata()
        .iter()
        .map(|e| (e.key.clone(), e.value.clone()))
        .collect();
    kv.insert(
        "general.parameter_count".into(),
        Value::U64(f.parameter_count()),
    );
    for (k, v) in set {
        kv.insert((*k).to_string(), v.clone());
    }
    let mut w = W(Vec::new());
    w.0.extend(b"GGUF");
    w.u32(3);
    w.u64(f.tensors().len() as u64);
    w.u64(kv.len() as u64);
    for (k, v) in &kv {
        let key = if [
            format!("{arch}."),
            "general.".into(),
            "adapter.".into(),
            "tokenizer.".into(),
        ]
        .iter()
        .any(|p| k.starts_with(p.as_str()))
        {
            k.clone()
        } else {
            format!("{arch}.{k}")
        };
        let supported = match v {
            Value::I32(_) | Value::I64(_) | Value::U32(_) | Value::U64(_) | Value::F32(_) => true,
            Value::Bool(_) | Value::String(_) => true,
            Value::Array(a) => matches!(
                a,
                Array::I32(_)
                    | Array::I64(_)
                    | Array::U32(_)
                    | Array::F32(_)
                    | Array::String(_)
                    | Array::Bool(_)
            ),
            _ => false,
        };
        if !supported {
            return Err(format!("improper type for '{key}'"));
        }
        w.str(key.as_bytes());
        w.value(v)?;
    }
    let align = match kv.get("general.alignment") {
        Some(Value::U32(a)) if *a > 0 => u64::from(*a),
        _ => ALIGN,
    };
    let pad = |n: u64| (align - n % align) % align;
    let mut order: Vec<&crate::file::TensorInfo> = f.tensors().iter().collect();
    order.sort_by(|a, b| {
        go_block(&a.name)
            .cmp(&go_block(&b.name))
            .then_with(|| a.name.as_bytes().cmp(b.name.as_bytes()))
    });
    let mut offset = 0u64;
    let mut pieces = Vec::with_capacity(order.len());
    for t in &order {
        w.str(t.name.as_bytes());
        w.u32(t.shape.len() as u32);
        for d in &t.shape {
            w.u64(*d);
        }
        w.u32(t.ggml_type.id());
        w.u64(offset);
        offset += t.size;
        let p = pad(offset);
        offset += p;
        pieces.push(Piece {
            from: f.tensor_data_offset() + t.offset,
            size: t.size,
            pad: p,
        });
    }
    // (the data is written at its offsets: nothing follows the last tensor)
    if let Some(last) = pieces.last_mut() {
        last.pad = 0;
    }
    let n = w.0.len() as u64;
    w.0.resize((n + pad(n)) as usize, 0);
    Ok(Copy {
        header: w.0,
        pieces,
    })
}

#[cfg(test)]
mod tests {
    use super::layer;

    #[test]
    fn layer_numbers_as_sscanf_reads_them() {
        assert_eq!(layer("blk.12.attn_q.weight"), 12);
        assert_eq!(layer("blk.3"), 3);
        assert_eq!(layer("blk.-1.x"), -1);
        assert_eq!(layer("blk.x.y"), -1);
        assert_eq!(layer("token_embd.weight"), -1);
        assert_eq!(layer("blk. 7.a"), 7);
    }
}
