//! Ollama's prompt pipeline (v0.33.0-rc2): from an `/api/chat` or
//! `/api/generate` request to the exact prompt handed to the runner.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod api;
pub mod case;
pub mod date;
pub mod model;
pub mod named;
pub mod server;
pub mod template;
#[allow(missing_docs)]
mod tmp_bridge;
pub mod values;
use tmp_bridge::{parsers, renderers};
