//! `generate-worker-relaxed` with wasm threads (the `threads` feature): the
//! same worker, whose matrix products split their output tiles over helper
//! Web Workers that share its memory (crates/inference/src/web_pool.rs,
//! the helpers started by generate/pool.js), each output computed by the
//! same code as on one thread, so the answers are the single-threaded
//! workers', bit for bit. It needs shared memory, so the Generate pane
//! starts it only where the page is cross-origin isolated.
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

fn main() {}
