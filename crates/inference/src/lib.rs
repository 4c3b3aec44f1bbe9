//! Runs small quantized GGUF models on the CPU, the way Ollama's
//! llama-server runs them: prompt tokens from Promptscope's llama.cpp-exact
//! tokenizer, llama.cpp's sampler chain with Ollama's options and defaults,
//! stop strings and EOS handling, and the counts and durations Ollama
//! reports.
//!
//! APIs take bytes (or any `Read + Seek`) and strings; the crate does no
//! file or network I/O and reads no clock (callers pass one), so the same
//! code runs natively and in a Web Worker (wasm32 with `simd128`).

mod attention;
mod decoder;
pub mod error;
pub mod generate;
mod kquant;
pub mod model;
pub mod ops;
pub mod options;
pub mod plan;
pub mod quant;
pub mod report;
pub mod sampler;
mod simd;
mod simd_k;
pub mod threads;
// the threaded wasm build's pool; natively only in tests (std threads as helpers)
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub mod wasm;
#[cfg(any(all(target_arch = "wasm32", feature = "threads"), test))]
mod web_pool;
pub mod weights;

pub use error::Error;
pub use generate::{DoneReason, Generation, PromptTokens, Step, Timings};
pub use model::Model;
pub use options::Options;
pub use weights::Blob;
