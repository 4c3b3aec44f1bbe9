//! The one error type: the C++ exception class as [`ErrorKind`] and its exact `what()` text.

use std::fmt;

/// Which C++ exception (or which of our bounds) an [`Error`] stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// `lexer_exception`.
    Lexer,
    /// `parser_exception` and the plain `std::runtime_error`s the parser throws.
    Parser,
    /// A `std::runtime_error` during execution (wrapped by `statement::execute`).
    Runtime,
    /// `raised_exception`: `raise_exception(...)` and the builtins' argument errors.
    Raised,
    /// `not_implemented_exception` (`NotImplemented: ...`), never wrapped.
    NotImplemented,
    /// A `break` that escaped every loop (`Break statement executed`).
    Break,
    /// A `continue` that escaped every loop (`Continue statement executed`).
    Continue,
    /// Our addition: the execution fuel budget ran out.
    FuelExhausted,
    /// Our addition: a string grew past the output cap.
    OutputTooLarge,
    /// Our addition: nesting or recursion past the depth limit.
    TooDeep,
    /// Our addition: a call the build's engine never returns from (it
    /// loops forever); the message names the change-table row after which
    /// it returns.
    NeverReturns,
    /// `global_from_json` was given something that is not an object.
    Json,
    /// Jinja2 dialect: a Python exception; the message is
    /// `TypeName: message` as Python prints the exception's last line.
    Python,
}

/// An error with its kind and the exact message the C++ engine's `what()` gives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    message: String,
    pub(crate) rethrown: bool,
}

impl Error {
    /// A new error.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        // `what()` is a C string: the message ends at its first NUL
        let mut message = message.into();
        if let Some(i) = message.find('\0') {
            message.truncate(i);
        }
        Error {
            kind,
            message,
            rethrown: false,
        }
    }
    /// The kind.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }
    /// The message (`what()`).
    pub fn message(&self) -> &str {
        &self.message
    }
    pub(crate) fn runtime(msg: impl Into<String>) -> Self {
        Self::new(ErrorKind::Runtime, msg)
    }
    pub(crate) fn raised(msg: impl Into<String>) -> Self {
        Self::new(ErrorKind::Raised, msg)
    }
    /// A Python exception (Jinja2 dialect): `TypeName: message`.
    pub fn python(type_name: &str, msg: impl AsRef<str>) -> Self {
        Self::new(ErrorKind::Python, format!("{type_name}: {}", msg.as_ref()))
    }
    pub(crate) fn not_implemented(msg: &str) -> Self {
        Self::new(ErrorKind::NotImplemented, format!("NotImplemented: {msg}"))
    }
    /// Errors that `statement::execute` lets through without adding the source context.
    pub(crate) fn passes_through(&self) -> bool {
        self.rethrown
            || matches!(
                self.kind,
                ErrorKind::Break
                    | ErrorKind::Continue
                    | ErrorKind::NotImplemented
                    | ErrorKind::FuelExhausted
                    | ErrorKind::OutputTooLarge
                    | ErrorKind::TooDeep
                    | ErrorKind::NeverReturns
                    | ErrorKind::Python
            )
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

/// `Result` with [`Error`].
pub type Result<T> = std::result::Result<T, Error>;
