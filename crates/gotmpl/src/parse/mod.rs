//! Go's `text/template/parse`: lexer, parser and parse tree.

pub mod lex;
pub mod node;
#[allow(clippy::module_inception)]
pub mod parse;

pub use node::*;
pub use parse::{parse, ParseError};
