//! Errors of loading and running a model.

use std::fmt;

/// What went wrong.
#[derive(Debug, Clone, PartialEq)]
pub enum Error {
    /// The GGUF cannot be loaded: missing or malformed metadata or tensors.
    Load(String),
    /// The model is valid but this crate cannot run it.
    Unsupported(String),
    /// Evaluation failed.
    Run(String),
    /// A request option has the wrong type or value.
    Options(String),
}

impl Error {
    pub(crate) fn load(msg: impl Into<String>) -> Error {
        Error::Load(msg.into())
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Load(m) => write!(f, "cannot load the model: {m}"),
            Error::Unsupported(m) => write!(f, "unsupported model: {m}"),
            Error::Run(m) => write!(f, "inference failed: {m}"),
            Error::Options(m) => write!(f, "{m}"),
        }
    }
}

impl std::error::Error for Error {}
