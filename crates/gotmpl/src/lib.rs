//! Go 1.27 `text/template`, in pure Rust, byte for byte.
//!
//! ```
//! use gotmpl::{Template, Value};
//!
//! let t = Template::parse("t", "{{range .items}}<{{.}}>{{end}} {{printf \"%05.1f\" .n}}").unwrap();
//! let data = Value::from_json(r#"{"items": ["a", "b"], "n": 3.14159}"#).unwrap();
//! assert_eq!(t.execute(&data).unwrap(), "<a><b> 003.1");
//!
//! let err = t.execute(&Value::from_json(r#"{"items": 3}"#).unwrap()).unwrap_err();
//! assert_eq!(err.to_string(), r#"template: t:1:8: executing "t" at <.items>: range can't iterate over 3"#);
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod encoding_json;
mod exec;
pub mod funcs;
pub mod gofmt;
pub mod parse;
pub mod strconv;
mod template;
pub mod unicode;
mod unicode_tables;
pub mod value;

pub use template::{Builder, Error, ErrorKind, ExecError, FuncMap, Limits, MissingKey, Template};
pub use value::{JsonError, Kind, Type, Value};
