//! The Promptscope engine where there is a file system: a model's GGUF read
//! as Ollama's runner reads it, and render cases resolved from a Modelfile
//! or an Ollama model store. Shared by the `promptscope` command and its
//! server.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod case;
pub mod generate;
pub mod gguf;
