//! Go 1.27 `text/template`, in pure Rust, byte for byte.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod gofmt;
pub mod value;

pub use value::{JsonError, Kind, Type, Value};
