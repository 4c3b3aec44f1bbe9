//! A GGUF file's weights used where they lie: the file's bytes are held once
//! (a buffer the caller filled, or a memory map) and every weight matrix is a
//! view into them, multiplied by the kernels of [`crate::quant`] without a
//! dequantized or second copy.

use crate::error::Error;
use crate::quant::{self, Kind};
use gguf_meta::{GgufFile, Value};
use std::sync::Arc;

/// The bytes of a whole GGUF file, shared by the model's weights.
pub type Blob = Arc<dyn AsRef<[u8]> + Send + Sync>;

/// One weight matrix: `rows` rows of `cols` values as blocks of `kind`,
/// `len` bytes at `start` in the file.
#[derive(Clone)]
pub(crate) struct Weight {
    blob: Blob,
    start: usize,
    len: usize,
    pub kind: Kind,
    pub rows: usize,
    pub cols: usize,
    name: String,
}

impl std::fmt::Debug for Weight {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} {} [{} x {}]",
            self.name,
            self.kind.name(),
            self.rows,
            self.cols
        )
    }
}

impl Weight {
    fn bytes(&self) -> &[u8] {
        &(*self.blob).as_ref()[self.start..self.start + self.len]
    }

    /// The matrix where it lies in the file.
    pub fn view(&self) -> crate::plan::MatrixView<'_> {
        crate::plan::MatrixView {
            kind: self.kind,
            rows: self.rows,
            cols: self.cols,
            bytes: self.bytes(),
        }
    }

    /// `x · Wᵀ` for `m` rows of `cols` values: `m` rows of `rows` values.
    pub fn matmul(&self, xs: &[f32], m: usize) -> Result<Vec<f32>, Error> {
        let mut out = vec![0f32; m * self.rows];
        quant::matmul(
            self.kind,
            self.bytes(),
            (m, self.cols, self.rows),
            xs,
            &mut out,
        )
        .map_err(|e| Error::Run(format!("{}: {e}", self.name)))?;
        Ok(out)
    }

    /// Rows `from..to` as a matrix of their own, a view of the same bytes:
    /// the parts of a fused matrix (`phi3`'s `attn_qkv` and `ffn_up`), which
    /// llama.cpp multiplies whole and then views; each output value is the
    /// same row's dot product either way.
    pub fn split_rows(&self, from: usize, to: usize, part: &str) -> Result<Weight, Error> {
        let row_bytes = self.cols / self.kind.block_values() * self.kind.block_bytes();
        if from > to || to > self.rows || self.len != self.rows * row_bytes {
            return Err(Error::load(format!(
                "{}: rows {from}..{to} of {} ({} bytes) cannot be its {part}",
                self.name, self.rows, self.len
            )));
        }
        Ok(Weight {
            blob: self.blob.clone(),
            start: self.start + from * row_bytes,
            len: (to - from) * row_bytes,
            kind: self.kind,
            rows: to - from,
            cols: self.cols,
            name: format!("{} ({part})", self.name),
        })
    }

    /// Row `i` as f32 values (an embedding lookup).
    pub fn row(&self, i: usize, out: &mut [f32]) -> Result<(), Error> {
        if i >= self.rows {
            return Err(Error::Run(format!(
                "row {i} is outside {} of {} rows",
                self.name, self.rows
            )));
        }
        let row_bytes = self.len / self.rows;
        let b = &self.bytes()[i * row_bytes..(i + 1) * row_bytes];
        quant::dequantize(self.kind, b, out).map_err(|e| Error::Run(format!("{}: {e}", self.name)))
    }
}

/// A parsed GGUF and its bytes: metadata values and tensors by name.
pub(crate) struct Gguf {
    pub file: GgufFile,
    pub blob: Blob,
    pub arch: String,
}

impl Gguf {
    /// Parses the header of the file in `blob`.
    pub fn parse(blob: Blob) -> Result<Gguf, Error> {
        let file = gguf_meta::parse((*blob).as_ref()).map_err(|e| Error::load(e.to_string()))?;
        let arch = file
            .architecture()
            .ok_or_else(|| Error::load("the GGUF has no general.architecture"))?
            .to_string();
        Ok(Gguf { file, blob, arch })
    }

    fn value(&self, key: &str) -> Option<&Value> {
        self.file.get(&format!("{}.{key}", self.arch))
    }

    /// `<arch>.<key>` as an unsigned integer.
    pub fn usize(&self, key: &str) -> Result<usize, Error> {
        self.opt_usize(key)?
            .ok_or_else(|| Error::load(format!("the GGUF has no {}.{key}", self.arch)))
    }

    /// `<arch>.<key>` as an unsigned integer, if present. An array (a
    /// per-layer value) gives its first element.
    pub fn opt_usize(&self, key: &str) -> Result<Option<usize>, Error> {
        let full = format!("{}.{key}", self.arch);
        let Some(v) = self.value(key) else {
            return Ok(None);
        };
        let n = match v {
            Value::Array(a) if !a.is_empty() => a.get_u64(0),
            _ => v.as_u64(),
        };
        match n {
            Some(n) => usize::try_from(n)
                .map(Some)
                .map_err(|_| Error::load(format!("{full} = {n} is out of range"))),
            None => Err(Error::load(format!(
                "{full} should be a non-negative integer, found {}",
                v.type_name()
            ))),
        }
    }

    /// `<arch>.<key>` as a float, if present.
    pub fn opt_f32(&self, key: &str) -> Result<Option<f32>, Error> {
        match self.value(key) {
            None => Ok(None),
            Some(Value::F32(x)) => Ok(Some(*x)),
            Some(Value::F64(x)) => Ok(Some(*x as f32)),
            Some(other) => Err(Error::load(format!(
                "{}.{key} should be a float, found {}",
                self.arch,
                other.type_name()
            ))),
        }
    }

    /// The number of vocabulary entries (`tokenizer.ggml.tokens`).
    pub fn n_vocab(&self) -> usize {
        self.file
            .get("tokenizer.ggml.tokens")
            .and_then(|v| v.as_array())
            .map_or(0, |a| a.len())
    }

    pub fn has(&self, name: &str) -> bool {
        self.file.tensor(name).is_some()
    }

    /// The bytes of tensor `name`, its ggml type id and shape.
    fn tensor(&self, name: &str) -> Result<(usize, usize, u32, Vec<u64>), Error> {
        let info = self
            .file
            .tensor(name)
            .ok_or_else(|| Error::load(format!("the GGUF has no tensor {name}")))?;
        let total = (*self.blob).as_ref().len() as u64;
        let start = self
            .file
            .tensor_data_offset()
            .checked_add(info.offset)
            .filter(|s| s.checked_add(info.size).is_some_and(|e| e <= total))
            .ok_or_else(|| {
                Error::load(format!(
                    "tensor {name}: {} bytes at offset {} run past the end of the {total}-byte file",
                    info.size,
                    self.file.tensor_data_offset().saturating_add(info.offset)
                ))
            })?;
        Ok((
            start as usize,
            info.size as usize,
            info.ggml_type.id(),
            info.shape.clone(),
        ))
    }

    /// A weight matrix: its rows are the tensor's second dimension (and any
    /// beyond), its columns the first.
    pub fn weight(&self, name: &str) -> Result<Weight, Error> {
        let (start, len, id, shape) = self.tensor(name)?;
        let ty = self
            .file
            .tensor(name)
            .map(|t| t.ggml_type.name())
            .unwrap_or("?");
        let kind = Kind::from_ggml(id).ok_or_else(|| {
            Error::Unsupported(format!(
                "tensor {name} is {ty}, a type this build cannot multiply (it runs {})",
                quant::KINDS
                    .iter()
                    .map(|k| k.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        })?;
        let cols = *shape.first().unwrap_or(&1) as usize;
        let rows = shape.iter().skip(1).product::<u64>() as usize;
        if cols == 0 || !cols.is_multiple_of(kind.block_values()) {
            return Err(Error::load(format!(
                "tensor {name}: rows of {cols} values are not whole {ty} blocks of {}",
                kind.block_values()
            )));
        }
        if !(start as u64 + (*self.blob).as_ref().as_ptr() as u64)
            .is_multiple_of(kind.align() as u64)
        {
            return Err(Error::load(format!(
                "tensor {name}: its data at offset {start} is not {}-byte aligned",
                kind.align()
            )));
        }
        Ok(Weight {
            blob: self.blob.clone(),
            start,
            len,
            kind,
            rows,
            cols,
            name: name.to_string(),
        })
    }

    /// A small tensor (a norm's weights, a bias) as f32 values.
    pub fn vec(&self, name: &str) -> Result<Vec<f32>, Error> {
        let (start, len, id, shape) = self.tensor(name)?;
        let n = shape.iter().product::<u64>() as usize;
        let bytes = &(*self.blob).as_ref()[start..start + len];
        match id {
            0 => Ok(bytes
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect()),
            1 => Ok(bytes
                .chunks_exact(2)
                .map(|c| half::f16::from_le_bytes([c[0], c[1]]).to_f32())
                .collect()),
            _ => {
                let w = self.weight(name)?;
                let mut out = vec![0f32; n];
                quant::dequantize(w.kind, bytes, &mut out)
                    .map_err(|e| Error::load(format!("tensor {name}: {e}")))?;
                Ok(out)
            }
        }
    }
}
