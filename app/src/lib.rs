//! Promptscope's app logic, without the browser: the state and its JSON
//! forms, share links, `curl` parsing, prompt highlighting, error
//! positions, request edits, the message catalogue, the examples, the
//! call into the engine, the reading of an Ollama models folder and what
//! Ollama makes of the model's output (the Answer pane).
//!
//! Nothing here depends on Leptos or `web-sys`, so `cargo test -p
//! promptscope-app --lib` runs these modules natively; the UI (`src/ui/`,
//! wasm32 only) is a thin layer over them.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod answer;
pub mod base64url;
pub mod curl;
pub mod diff;
pub mod embed;
pub mod engine;
pub mod errpos;
pub mod examples;
pub mod generate;
pub mod gguf;
pub mod highlight;
pub mod i18n;
pub mod jobs;
pub mod modelfile;
pub mod modelstore;
pub mod reqedit;
pub mod runtimes;
pub mod share;
pub mod state;
pub mod upgrade;
