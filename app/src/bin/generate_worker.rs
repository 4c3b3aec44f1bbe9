//! The generation Web Worker: loads a GGUF with the `inference` crate and
//! streams Ollama-shaped response chunks. Loaded by the Generate pane only
//! when the user asks for generation, so the main app's wasm carries no
//! inference code.
//!
//! Messages in: `{type: "load", file: File, num_ctx?}` (`num_ctx`: the
//! one the first job asks for, for the memory check), `{type: "generate",
//! json}` (a [`promptscope_app::generate::Job`] as JSON), `{type: "stop"}`.
//! Messages out: `{type: "ready"}` (first; the page sends nothing before
//! it), `{type: "progress", done, total}` (bytes read), `{type: "loaded",
//! ms, arch, runner}` (`runner`: what runs where, one line), `{type:
//! "piece", text}` (the model's raw text for one step,
//! before Ollama's parsers), `{type: "chunk", json}` (one NDJSON line),
//! `{type: "done"}`, `{type: "error", message}`.

#[cfg(target_arch = "wasm32")]
mod common;

#[cfg(target_arch = "wasm32")]
#[path = "generate/mod.rs"]
mod worker;

fn main() {}
