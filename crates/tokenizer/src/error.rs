//! The one error type.

use std::fmt;

/// What went wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// llama.cpp would fail to load this vocabulary (`llama_vocab::load`
    /// threw); the message is the exception's text.
    Load,
    /// The vocabulary type is one llama.cpp supports but this crate does
    /// not reproduce (RWKV, PLaMo-2, hybriddna, none).
    Unsupported,
    /// llama.cpp's `llama_tokenize` would abort or throw on this input.
    Tokenize,
    /// The bytes are not a readable GGUF file.
    Gguf,
}

/// An error with llama.cpp's message text.
///
/// For [`ErrorKind::Load`] the message is exactly what llama.cpp's vocab
/// loader throws, like `unknown pre-tokenizer type: 'foo'`; llama.cpp logs
/// it as `error loading model: error loading model vocabulary: <message>`
/// (see [`Error::llama_log_line`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    message: String,
}

impl Error {
    pub(crate) fn new(kind: ErrorKind, message: impl Into<String>) -> Error {
        Error {
            kind,
            message: message.into(),
        }
    }

    pub(crate) fn load(message: impl Into<String>) -> Error {
        Error::new(ErrorKind::Load, message)
    }

    pub(crate) fn tokenize(message: impl Into<String>) -> Error {
        Error::new(ErrorKind::Tokenize, message)
    }

    /// The kind of error.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The message, without decoration.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The line llama.cpp logs for a load error:
    /// `error loading model: error loading model vocabulary: <message>`.
    pub fn llama_log_line(&self) -> String {
        match self.kind {
            ErrorKind::Load => format!(
                "error loading model: error loading model vocabulary: {}",
                self.message
            ),
            _ => self.message.clone(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}
