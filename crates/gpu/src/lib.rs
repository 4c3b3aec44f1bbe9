//! The decoder of `promptscope-inference` on WebGPU, through wgpu.
//!
//! [`Model`] takes a loaded CPU [`inference::Model`] and builds the same
//! graph from its [`inference::plan::Plan`] (the same reading of the file:
//! weights, norms, switches, rotary tables): every weight matrix's ggml
//! blocks are uploaded once as they lie in the file and dequantized in
//! registers by the kind's WGSL matrix product ([`shaders`]); the
//! activations are quantized on the GPU as the CPU path quantizes them
//! (`Q8_0`/`Q8_1`, `Q8_K`), so that the integer dot products are the
//! CPU's and only the float sums differ in order; RMS norms, RoPE, the KV
//! cache (f16-rounded, as llama.cpp's), attention and the gated
//! activations run on the GPU; the embeddings are looked up on the CPU and
//! only the logits are read back, asynchronously. A forward pass is one
//! command buffer.
//!
//! The kernels compute the CPU path's bits: its sums in its lanes' order,
//! and llama.cpp's roundings (correctly rounded division and square root,
//! f16 ties-to-even) written out in `wgsl/exact.wgsl`, since WGSL promises
//! none of them; the fused multiply-add is the adapter's where a start-up
//! probe finds it rounded once ([`probe`]), else written out too
//! (`wgsl/fma_emulated.wgsl`). The K-quants'
//! products are the exception: their integer sums are the CPU's, their
//! float sums in another order (the tests state the tolerance).

pub mod probe;
pub mod shaders;

mod device;
mod model;
#[cfg(all(test, target_arch = "wasm32"))]
mod tests;

pub use device::{AdapterInfo, Gpu, NO_ADAPTER};
pub use model::Model;

/// What went wrong on the GPU path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error(pub String);

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

impl From<inference::Error> for Error {
    fn from(e: inference::Error) -> Error {
        Error(e.to_string())
    }
}
