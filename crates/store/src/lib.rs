//! The model side as Ollama keeps it. Today: Modelfiles, read exactly as
//! Ollama v0.33.0-rc2's parser reads them (`modelfile`), and what
//! `ollama create` makes of them (`create`). Bytes in, no
//! file system: the browser and the CLI share it.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod create;
pub mod modelfile;
