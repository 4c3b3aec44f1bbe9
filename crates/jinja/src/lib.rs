//! llama.cpp's own Jinja engine (`common/jinja/`), in pure Rust, byte for byte.
//!
//! This is a file-for-file port of the C++ engine vendored in llama.cpp
//! (`common/jinja/`, introduced in llama.cpp PR 18462), not a general Jinja2:
//! it reproduces that engine's output, its quirks and its error texts.
//!
//! | C++ file | Rust module |
//! |---|---|
//! | `lexer.h`, `lexer.cpp` | [`lexer`] |
//! | `parser.h`, `parser.cpp` | [`parser`] |
//! | `runtime.h` (the AST) | [`ast`] |
//! | `runtime.h`, `runtime.cpp` | [`runtime`] |
//! | `value.h`, `value.cpp` (types, JSON, compare) | [`value`] |
//! | `value.cpp` (the builtins) | [`builtins`] |
//! | `string.h`, `string.cpp` | [`string`] |
//! | `caps.h`, `caps.cpp` | [`caps`] |
//! | `runtime.cpp` (`debug_dump_program`) | `debug` ([`Runtime::debug_dump_program`]) |
//! | `utils.h` | [`utils`] |
//! | `std::stoi`, `std::stod`, `common_parse_utf8_codepoint` | [`cstd`] |
//! | libstdc++ `std::sort`, `std::strftime` | [`sort`], [`time`] |
//!
//! # API
//!
//! The steps of the C++ API, with the same names:
//!
//! ```
//! use jinja::{global_from_json, parse_from_tokens, Context, Lexer, Runtime};
//!
//! let src = "{% for m in messages %}<{{ m.role }}>{{ m.content }}{% endfor %}";
//! let tokens = Lexer::new().tokenize(src).unwrap();
//! let program = parse_from_tokens(&tokens).unwrap();
//! let mut ctx = Context::new(src);
//! let vars = serde_json::json!({"messages": [{"role": "user", "content": "hi"}]});
//! global_from_json(&mut ctx, &vars, true).unwrap();
//! let results = Runtime::new(&ctx).execute(&program).unwrap();
//! let parts = jinja::gather_string_parts(&results).unwrap();
//! assert_eq!(parts.str(), "<user>hi");
//! // the parts keep where each piece came from
//! assert_eq!(parts.parts.len(), 4);
//! assert!(parts.parts[3].is_input);
//! ```
//!
//! or in one call, [`render`]:
//!
//! ```
//! let out = jinja::render("{{ x | tojson(indent=2) }}", &serde_json::json!({"x": [1, 2.5]})).unwrap();
//! assert_eq!(out, "[\n  1,\n  2.5\n]");
//! let err = jinja::render("{{ raise_exception('no') }}", &serde_json::json!({})).unwrap_err();
//! assert_eq!(err.kind(), jinja::ErrorKind::Raised);
//! assert!(err.message().ends_with("Error: Jinja Exception: no"));
//! ```
//!
//! [`caps_get`] runs llama.cpp's capability probes on a parsed template.
//!
//! Errors are one [`Error`] type: its [`ErrorKind`] says which C++ exception
//! it stands for and its message is that exception's `what()`, including the
//! `\n------------\nWhile executing ... in source:` context that
//! `statement::execute` adds.
//!
//! # Our additions
//!
//! The C++ engine has no bounds; templates here may be untrusted, so:
//! - a fuel budget ([`runtime::FUEL`], 4,000,000 steps per [`Context::new`]): every executed
//!   node costs a step, every loop iteration 8 more, every scope copy its variable count, every
//!   created string one step per 16 bytes, a concatenation one per 256 bytes and per 4 parts of
//!   its result, so `{% for .. %}{% set s = s ~ s %}` loops stop ([`ErrorKind::FuelExhausted`]);
//! - an output cap ([`runtime::MAX_OUTPUT_BYTES`], 64 MiB, and [`runtime::MAX_STRING_PARTS`],
//!   2^20 parts) on any string built ([`ErrorKind::OutputTooLarge`]);
//! - depth limits: [`parser::MAX_PARSE_DEPTH`] for nested blocks and expressions,
//!   [`runtime::MAX_EXEC_DEPTH`] for nested execution (recursive macros) and
//!   [`value::MAX_VALUE_DEPTH`] for printing/converting nested values (self-containing arrays)
//!   ([`ErrorKind::TooDeep`]), so nothing overflows a 1 MiB stack;
//! - `x is divisibleby(0)` is an error (the C++ dies of SIGFPE);
//! - `strftime_now` formats UTC with the "C" locale (no time zone database), and
//!   [`Context::current_time`] is 0 on `wasm32-unknown-unknown` until set.
//!
//! # Builds
//!
//! The engine is llama.cpp's at a given build: [`Context::with_rules`] and
//! [`parse_from_tokens_with`] take a build's [`changes::Rules`], and every
//! place where the builds part asks for its row of
//! [`changes::llamacpp::TABLE`] by name (and the rules remember which rows
//! a render consulted). Without rules, the newest supported build.
//!
//! The crate knows nothing of chat formats, GGUF or Ollama.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod ast;
pub mod builtins;
pub mod caps;
pub mod cstd;
mod debug;
mod error;
pub mod jinja2;
pub mod lexer;
pub mod parser;
pub mod runtime;
pub mod sort;
pub mod string;
pub mod time;
pub mod utils;
pub mod value;

pub use caps::{
    caps_apply_preserve_reasoning, caps_apply_reasoning_effort, caps_get, caps_get_with, Caps,
};
pub use error::{Error, ErrorKind, Result};
pub use lexer::{Lexer, LexerResult, Token, TokenType};
pub use parser::{parse_from_tokens, parse_from_tokens_in, parse_from_tokens_with};
pub use runtime::{gather_string_parts, Context, Runtime};
pub use string::{JString, StringPart};
pub use utils::Hasher;
pub use value::{global_from_json, value_to_json, Value};

/// Which engine's semantics: llama.cpp's (the default) or Python Jinja2's
/// as transformers configures it ([`jinja2`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Dialect {
    /// llama.cpp's `common/jinja`.
    #[default]
    LlamaCpp,
    /// Jinja2 3.1.6 in transformers' `ImmutableSandboxedEnvironment`.
    Jinja2,
}

/// Parses a template (lexer + parser).
pub fn parse(source: &str) -> Result<ast::Program> {
    parse_from_tokens(&Lexer::new().tokenize(source)?)
}

/// Lexes, parses and runs `source` with the variables of `vars` (an object;
/// strings marked as input), returning the output text: what
/// `tests/test-jinja.cpp`'s `test_template` computes.
pub fn render(source: &str, vars: &serde_json::Value) -> Result<String> {
    let program = parse(source)?;
    let mut ctx = Context::new(source);
    global_from_json(&mut ctx, vars, true)?;
    let results = Runtime::new(&ctx).execute(&program)?;
    Ok(gather_string_parts(&results)?.str())
}
