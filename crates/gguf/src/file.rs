//! The parsed file: header, metadata, tensor infos.

use std::collections::HashMap;

use crate::types::GgmlType;
use crate::value::{Array, KeyValue, Value};

/// Byte order of a file. GGUF has no flag for it: a big-endian file is
/// recognised, as llama.cpp and gguf-py do, by a version whose low 16 bits
/// read little-endian are zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Endian {
    /// Little-endian (almost every file).
    Little,
    /// Big-endian (made for s390x and similar).
    Big,
}

/// One tensor info.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TensorInfo {
    /// The name, like `blk.0.attn_q.weight` (invalid UTF-8 replaced by U+FFFD).
    pub name: String,
    /// The ggml type.
    pub ggml_type: GgmlType,
    /// Dimensions in GGUF order: innermost (row length) first; at most 4.
    pub shape: Vec<u64>,
    /// Offset of the data relative to the tensor data section.
    pub offset: u64,
    /// Byte size of the data: elements / block size × type size.
    pub size: u64,
}

impl TensorInfo {
    /// Number of elements (the product of the shape; 1 for no dimensions).
    pub fn n_elements(&self) -> u64 {
        // The parser checked the product fits in an i64.
        self.shape.iter().product()
    }
}

/// Counts of what was read from the source.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReadStats {
    /// Bytes read from the source.
    pub bytes_read: u64,
    /// Calls to `read_at`.
    pub read_calls: u64,
}

/// A parsed GGUF file: everything but the tensor data.
#[derive(Clone, Debug)]
pub struct GgufFile {
    pub(crate) version: u32,
    pub(crate) endian: Endian,
    pub(crate) alignment: u64,
    pub(crate) tensor_data_offset: u64,
    pub(crate) metadata_end: u64,
    pub(crate) file_size: u64,
    pub(crate) metadata: Vec<KeyValue>,
    pub(crate) index: HashMap<String, usize>,
    pub(crate) tensors: Vec<TensorInfo>,
    pub(crate) stats: ReadStats,
}

impl GgufFile {
    /// The format version (2 or 3).
    pub fn version(&self) -> u32 {
        self.version
    }

    /// The byte order.
    pub fn endian(&self) -> Endian {
        self.endian
    }

    /// `general.alignment`, or 32.
    pub fn alignment(&self) -> u64 {
        self.alignment
    }

    /// Absolute file offset of the tensor data section: the end of the
    /// tensor infos rounded up to the alignment.
    pub fn tensor_data_offset(&self) -> u64 {
        self.tensor_data_offset
    }

    /// Absolute file offset where the tensor infos end (the metadata size,
    /// before padding).
    pub fn metadata_end(&self) -> u64 {
        self.metadata_end
    }

    /// The file size the source reported.
    pub fn file_size(&self) -> u64 {
        self.file_size
    }

    /// Every key/value pair, in file order.
    pub fn metadata(&self) -> &[KeyValue] {
        &self.metadata
    }

    /// The value of a key.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.index.get(key).map(|&i| &self.metadata[i].value)
    }

    /// The value of a key, as text.
    pub fn get_str(&self, key: &str) -> Option<&str> {
        self.get(key)?.as_str()
    }

    /// A chat template as llama.cpp's `llama_model_chat_template(model,
    /// name)` finds it: `tokenizer.chat_template` (no name) or
    /// `tokenizer.chat_template.<name>` (`tool_use`), when it is a
    /// non-empty string.
    pub fn chat_template(&self, name: Option<&str>) -> Option<&str> {
        let value = match name {
            None => self.get_str("tokenizer.chat_template"),
            Some(n) => self.get_str(&format!("tokenizer.chat_template.{n}")),
        };
        value.filter(|t| !t.is_empty())
    }

    /// The value of a key, as an unsigned integer (any integer type).
    pub fn get_u64(&self, key: &str) -> Option<u64> {
        self.get(key)?.as_u64()
    }

    /// The value of a key, as an array.
    pub fn get_array(&self, key: &str) -> Option<&Array> {
        self.get(key)?.as_array()
    }

    /// `general.architecture`, like `llama`.
    pub fn architecture(&self) -> Option<&str> {
        self.get_str("general.architecture")
    }

    /// The value of `<architecture>.<suffix>`, like `llama.block_count`.
    pub fn arch_get(&self, suffix: &str) -> Option<&Value> {
        let arch = self.architecture()?;
        self.get(&format!("{arch}.{suffix}"))
    }

    /// The tensor infos, in file order.
    pub fn tensors(&self) -> &[TensorInfo] {
        &self.tensors
    }

    /// A tensor info by name.
    pub fn tensor(&self, name: &str) -> Option<&TensorInfo> {
        self.tensors.iter().find(|t| t.name == name)
    }

    /// Total parameter count: the sum of every tensor's elements.
    pub fn parameter_count(&self) -> u64 {
        self.tensors
            .iter()
            .fold(0u64, |a, t| a.saturating_add(t.n_elements()))
    }

    /// Total bytes of tensor data (the sum of tensor sizes, without
    /// alignment padding).
    pub fn tensor_bytes(&self) -> u64 {
        self.tensors
            .iter()
            .fold(0u64, |a, t| a.saturating_add(t.size))
    }

    /// What parsing read from the source.
    pub fn read_stats(&self) -> ReadStats {
        self.stats
    }
}
