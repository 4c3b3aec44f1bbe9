//! llama-server's chat rules: what `POST /apply-template` and
//! `/v1/chat/completions` make of a chat body, on llama.cpp's own Jinja
//! engine (the `jinja` crate). Ported from the llama.cpp vendored in
//! llama-cpp-python 0.3.36 (commit 0c1e570), file by file:
//!
//! | llama.cpp | here |
//! | --- | --- |
//! | `tools/server/server-common.cpp` `oaicompat_chat_params_parse` (the part that builds the prompt) | [`server`] |
//! | `common/chat.cpp` `common_chat_templates_init`, `_apply_jinja`, `direct_apply`, `generation_prompt`, the workarounds | [`template`], [`apply`] |
//! | `common/chat.cpp` `common_chat_msg`, `*_parse_oaicompat`, `*_to_json_oaicompat` | [`msg`] |
//! | `common/parsers/*.cpp` (the dedicated handlers: the prompt each builds) | [`handlers`] |
//! | `common/chat-diff-analyzer.cpp`, `chat-auto-parser-helpers.cpp` (the differential analysis of reasoning markers, which decides the prefill and whether thinking is on by default) | [`analyze`] |
//! | nlohmann `dump()` | [`dump`] |
//!
//! Only what decides the prompt, the server's thinking default and the
//! errors is ported: the output parsers and grammars these handlers also
//! build are not (Promptscope's answer side follows Ollama's parsers).

pub mod analyze;
pub mod apply;
pub mod dump;
pub mod handlers;
pub mod msg;
pub mod server;
pub mod template;

use std::fmt;

pub use apply::{apply, supports_enable_thinking, ChatParams, Continuation, Inputs};
pub use template::{ChatTemplates, Template};

/// Which C++ exception a failure is: llama-server answers
/// `std::invalid_argument` with 400 and anything else with 500.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// `std::invalid_argument`.
    InvalidArgument,
    /// `std::runtime_error` and every other `std::exception`, Jinja's
    /// included.
    Runtime,
}

/// A failure with llama.cpp's `what()` text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// The exception's type.
    pub kind: ErrorKind,
    /// `e.what()`.
    pub message: String,
}

impl Error {
    pub(crate) fn invalid(m: impl Into<String>) -> Error {
        Error {
            kind: ErrorKind::InvalidArgument,
            message: m.into(),
        }
    }

    pub(crate) fn runtime(m: impl Into<String>) -> Error {
        Error {
            kind: ErrorKind::Runtime,
            message: m.into(),
        }
    }

    /// The HTTP status llama-server answers with.
    pub fn status(&self) -> u16 {
        match self.kind {
            ErrorKind::InvalidArgument => 400,
            ErrorKind::Runtime => 500,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

/// `json::parse(text)`; the error worded as nlohmann's (position and
/// reason approximate: serde_json's).
pub(crate) fn parse_json(text: &str) -> Result<serde_json::Value, Error> {
    serde_json::from_str(text).map_err(|e| {
        Error::runtime(format!(
            "[json.exception.parse_error.101] parse error at line {}, column {}: syntax error while parsing value - {}",
            e.line(),
            e.column(),
            e
        ))
    })
}

/// `trim_whitespace` (chat-auto-parser-helpers.cpp, also common's
/// `string_strip`): ASCII `isspace` on both ends.
pub(crate) fn trim_whitespace(s: &str) -> &str {
    s.trim_matches(|c: char| matches!(c, ' ' | '\t' | '\n' | '\u{b}' | '\u{c}' | '\r'))
}
