//! The model side as Ollama v0.33.0-rc2 keeps it: Modelfiles, read exactly
//! as Ollama's parser reads them (`modelfile`), what `ollama create` makes
//! of them (`create`), and the model store itself: manifests and blobs
//! (`manifest`), the config blob (`config`), a model as `GetModel` reads
//! it (`model`), and what `ollama show` and `ollama list` answer for it
//! (`show`, `list`). The reader works on a small directory abstraction
//! (`dir::Dir`), so the browser (a folder handle read into a
//! `dir::MemDir`) and the CLI (`dir::FsDir`) share it.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

use std::fmt;

pub mod config;
pub mod create;
pub mod dir;
pub mod ggufscan;
pub mod gofmt;
pub mod layout;
pub use ollama::gojson;
pub mod list;
pub mod manifest;
pub mod model;
pub mod modelfile;
pub mod plan;
pub mod show;
pub mod table;

/// What went wrong reading a store, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// The file (relative to the models directory) or name concerned.
    pub path: String,
    /// What went wrong.
    pub kind: ErrorKind,
}

/// The kinds of store errors.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// A directory operation failed.
    Dir(dir::DirErrorKind),
    /// A manifest does not decode (Ollama's decoder message, or ours for
    /// syntax errors, with line and column).
    Manifest(String),
    /// A blob's JSON (config, params, messages) does not decode.
    Blob(String),
    /// A name that is not a valid model name.
    InvalidName(String),
    /// No model by that name: Ollama's `model 'NAME' not found`.
    NotFound(String),
    /// A blob whose sha256 is not its digest.
    Digest {
        /// The digest the manifest names.
        want: String,
        /// The digest of the bytes.
        got: String,
    },
}

impl Error {
    /// An error about `path`.
    pub fn new(path: &str, kind: ErrorKind) -> Error {
        Error {
            path: path.to_string(),
            kind,
        }
    }

    /// Whether the model or one of its files does not exist (Ollama's
    /// `os.IsNotExist`, which the show handler answers with 404).
    pub fn is_not_found(&self) -> bool {
        matches!(
            self.kind,
            ErrorKind::Dir(dir::DirErrorKind::NotFound) | ErrorKind::NotFound(_)
        )
    }
}

impl From<dir::DirError> for Error {
    fn from(e: dir::DirError) -> Error {
        Error {
            path: e.path,
            kind: ErrorKind::Dir(e.kind),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ErrorKind::Dir(k) => dir::DirError::new(&self.path, k.clone()).fmt(f),
            ErrorKind::Manifest(e) => write!(f, "{}: invalid manifest: {e}", self.path),
            ErrorKind::Blob(e) => write!(f, "{}: {e}", self.path),
            ErrorKind::InvalidName(_) => f.write_str("invalid model name"),
            ErrorKind::NotFound(name) => write!(f, "model '{name}' not found"),
            ErrorKind::Digest { want, got } => write!(
                f,
                "{}: digest mismatch: the manifest says {want}, the bytes are {got}",
                self.path
            ),
        }
    }
}

impl std::error::Error for Error {}
