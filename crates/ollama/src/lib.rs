//! Ollama's prompt pipeline (v0.33.0-rc2): from an `/api/chat` or
//! `/api/generate` request to the exact prompt handed to the runner.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod answer;
pub mod api;
pub(crate) mod api_decode;
pub mod cache;
pub mod case;
pub mod compat;
pub mod date;
pub mod embed;
pub mod godecode;
pub mod gojson;
pub mod goslice;
pub mod harmony;
pub mod model;
pub mod modelref;
pub mod named;
pub mod native;
pub mod parsers;
pub mod renderers;
pub mod response;
pub mod runner;
pub mod server;
pub mod template;
pub mod thinking;
pub mod tools;
pub mod values;
