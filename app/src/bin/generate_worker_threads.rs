//! `generate-worker-relaxed` with wasm threads (the `threads` feature): the
//! same worker, whose matrix products split their output tiles over a pool
//! of Web Workers that share its memory (wasm-bindgen-rayon), each output
//! computed by the same code as on one thread, so the answers are the
//! single-threaded workers', bit for bit. It needs shared memory, so the
//! Generate pane starts it only where the page is cross-origin isolated.
//!
//! Built by scripts/build-threaded-worker.sh (nightly Rust, `-Z build-std`,
//! `+atomics`; wasm-bindgen `--target web`, a module worker), not by Trunk;
//! `generate-worker-threads_loader.js` starts it with `?threads=N`, the
//! pool's size.

#[cfg(target_arch = "wasm32")]
mod common;

#[cfg(target_arch = "wasm32")]
#[path = "generate/mod.rs"]
mod worker;

// The pool's own exports (each pool worker's entry) come with the crate.
#[cfg(target_arch = "wasm32")]
pub use wasm_bindgen_rayon::init_thread_pool;

fn main() {}
