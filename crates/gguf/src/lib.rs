//! GGUF model-file metadata: the header, every key/value, the tensor infos,
//! exact tensor sizes and parameter count, and a memory estimate; read from
//! any random-access byte source without touching tensor data.
//!
//! ```no_run
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let file = std::fs::File::open("model.gguf")?;
//! let gguf = gguf_meta::parse(gguf_meta::SeekSource::new(file))?;
//! println!("{:?} {} tensors", gguf.architecture(), gguf.tensors().len());
//! let mem = gguf.estimate_memory(4096);
//! println!("about {} bytes at num_ctx 4096", mem.total());
//! # Ok(()) }
//! ```
//!
//! # Format
//!
//! GGUF versions 2 and 3 (version 1, with 32-bit counts, is rejected):
//! magic `GGUF`, `u32` version, `u64` tensor count, `u64` key/value count,
//! the key/value pairs (key string, `u32` type, value; strings are a `u64`
//! length and bytes; arrays an element type, a `u64` length and the
//! elements, possibly arrays themselves), then the tensor infos (name,
//! `u32` dimension count up to 4, `u64` dimensions, `u32` ggml type, `u64`
//! offset). Tensor data starts at the end of the infos rounded up to
//! `general.alignment` (default 32). GGUF has no byte-order flag: like
//! llama.cpp and gguf-py, a version whose low 16 bits read little-endian are
//! zero marks a big-endian file, which is then read big-endian throughout.
//!
//! # Reading
//!
//! [`parse`] reads a [`ReadAt`] (a `&[u8]`, or any `Read + Seek` through
//! [`SeekSource`]); [`parse_async`] reads an [`AsyncReadAt`] (the web app
//! implements it over `Blob.slice`). Both run the same parser: an `async
//! fn` whose only awaits are the source's reads, so a synchronous source is
//! driven to completion by polling once, with no executor. Reads are
//! buffered in chunks of [`ParseOptions::chunk_size`] (1 MiB): a 30 GB model
//! costs its metadata plus at most one chunk.
//!
//! # Untrusted input
//!
//! Every count and length is checked against the bytes that remain (and
//! [`ParseOptions::max_metadata_size`]) before anything is allocated, arrays
//! nest at most [`MAX_ARRAY_DEPTH`] deep and are read without recursion,
//! tensor shapes, types, offsets and bounds are validated. Errors name the
//! byte offset and what was being read:
//! `truncated file at offset 1234 while reading the value of key
//! "tokenizer.ggml.tokens" at element [17]`. No input makes the parser
//! panic, allocate without bound, or loop.
//!
//! # Memory estimate
//!
//! [`GgufFile::estimate_memory`]: weights + KV cache + a rough compute
//! term; the formula is in the [`estimate`] module docs.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod copy;
mod error;
pub mod estimate;
mod file;
mod json;
mod parse;
mod source;
mod types;
mod value;

pub use error::{Context, Error, ErrorKind, HeaderField, Room, TensorField};
pub use estimate::{EstimateOptions, MemoryEstimate};
pub use file::{Endian, GgufFile, ReadStats, TensorInfo};
pub use json::{f32_to_json, f64_to_json};
pub use parse::{
    parse, parse_async, parse_async_with, parse_with, ParseOptions, DEFAULT_ALIGNMENT,
    MAX_ARRAY_DEPTH, MAX_DIMS,
};
pub use source::{AsyncReadAt, ReadAt, SeekSource};
pub use types::{GgmlType, ValueType};
pub use value::{Array, GgufString, KeyValue, Value};
