//! `generate-worker` with the `relaxed-simd` feature: the inference
//! kernels with relaxed SIMD (see `crates/inference/src/wasm/mod.rs`). The
//! Generate pane starts it where the browser validates relaxed SIMD.

#[cfg(target_arch = "wasm32")]
mod common;

#[cfg(target_arch = "wasm32")]
#[path = "generate/mod.rs"]
mod worker;

fn main() {}
