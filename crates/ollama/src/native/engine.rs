//! The Jinja engine: a MiniJinja environment set up to behave like
//! llama.cpp's own Jinja runtime (`common/jinja/`) where chat templates can
//! tell the difference.
//!
//! - Whitespace: `trim_blocks` and `lstrip_blocks` on, one trailing newline
//!   of the source dropped, `\r\n` and `\r` read as `\n`.
//! - Undefined values chain (`a.b.c` on an undefined `a` is undefined),
//!   print as nothing and iterate as empty, as in llama.cpp.
//! - Globals: `raise_exception` (fails with `Jinja Exception: <msg>`),
//!   `strftime_now`, plus MiniJinja's `namespace`, `dict`, `range`.
//! - Filters: `tojson` as llama.cpp writes it ([`super::json::to_json`]),
//!   `string` that counts as reading the whole value (for the probes).
//! - Tests: `sequence` is also true for strings and undefined.
//! - Python methods on strings, lists and dicts via
//!   `minijinja_contrib::pycompat`.
//! - Printing: `none` as `None`, booleans as `True` / `False`.
//! - Limits: MiniJinja 3's fuel budget, which charges both instructions
//!   and the bytes of every value created (so neither a runaway loop nor a
//!   string doubled in a loop gets far), an output cap and MiniJinja's
//!   recursion limit: an untrusted template ends with an error instead of
//!   running away. MiniJinja 2.x could do neither (its fuel counts
//!   instructions only, and `[][::-1]` panics there), hence 3.x.

use std::io;
use std::sync::{Arc, Mutex};

use minijinja::syntax::SyntaxConfig;
use minijinja::value::{from_args, Kwargs, Rest, ValueKind, ValueOrKwargs};
use minijinja::{Environment, Error, ErrorKind, State, UndefinedBehavior, Value};

use super::json::{to_json, JsonStyle};
use super::probe::mark_all_read;
use super::time::NativeTime;

/// Fuel of one render: about as many instructions, or 64 times as many
/// bytes of created values.
const FUEL: u64 = 4_000_000;
/// Bytes one render may write.
const MAX_OUTPUT: usize = 64 << 20;
const TEMPLATE_NAME: &str = "chat_template";

/// Why a render failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Failure {
    /// `raise_exception(msg)` was called.
    Raised(String),
    /// Any other error, worded with its line and column.
    Template(String),
}

/// A parsed template in its configured environment.
pub(crate) struct Engine {
    env: Environment<'static>,
    raised: Arc<Mutex<Option<String>>>,
    source: String,
    /// Set once a render ran out of fuel: every later render of this
    /// template fails the same way at once, so the probes and the real
    /// render together cost one budget, not one each.
    exhausted: Mutex<Option<String>>,
}

/// Normalises line ends the way llama.cpp's lexer does.
fn normalize_newlines(src: &str) -> String {
    src.replace("\r\n", "\n").replace('\r', "\n")
}

/// Line and column (1-based, in characters) of a byte offset.
fn line_col(src: &str, offset: usize) -> (usize, usize) {
    let mut line = 1;
    let mut col = 1;
    for (i, c) in src.char_indices() {
        if i >= offset {
            break;
        }
        if c == '\n' {
            line += 1;
            col = 1;
        } else {
            col += 1;
        }
    }
    (line, col)
}

/// Describes a MiniJinja error with its position in the template.
pub(crate) fn describe(err: &Error, src: &str) -> String {
    let mut msg = match err.detail() {
        Some(d) => format!("{}: {}", kind_text(err.kind()), d),
        None => kind_text(err.kind()).to_string(),
    };
    let mut source = std::error::Error::source(err);
    while let Some(s) = source {
        msg.push_str(&format!(" ({s})"));
        source = s.source();
    }
    match (err.range(), err.line()) {
        (Some(r), _) => {
            let (l, c) = line_col(src, r.start);
            format!("{msg} at line {l}, column {c}")
        }
        (None, Some(l)) => format!("{msg} at line {l}"),
        _ => msg,
    }
}

fn kind_text(kind: ErrorKind) -> &'static str {
    match kind {
        ErrorKind::SyntaxError => "syntax error",
        ErrorKind::UndefinedError => "undefined value",
        ErrorKind::UnknownFilter => "unknown filter",
        ErrorKind::UnknownTest => "unknown test",
        ErrorKind::UnknownFunction => "unknown function",
        ErrorKind::UnknownMethod => "unknown method",
        ErrorKind::BadEscape => "bad string escape",
        ErrorKind::TooManyArguments => "too many arguments",
        ErrorKind::MissingArgument => "missing argument",
        ErrorKind::InvalidOperation => "invalid operation",
        ErrorKind::BadSerialization => "could not serialize to value",
        ErrorKind::CannotUnpack => "cannot unpack",
        ErrorKind::OutOfFuel => "template exceeded its execution budget",
        _ => "template error",
    }
}

/// An `io::Write` that stops past [`MAX_OUTPUT`] bytes.
struct Capped(Vec<u8>);

impl io::Write for Capped {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.0.len() + buf.len() > MAX_OUTPUT {
            return Err(io::Error::other("rendered prompt exceeds 64 MiB"));
        }
        self.0.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

fn tojson_filter(value: &Value, rest: Rest<ValueOrKwargs>) -> Result<Value, Error> {
    let rest = rest.into_values();
    let (pos, kwargs) = from_args::<(&[Value], Kwargs)>(&rest)?;
    if pos.len() > 4 {
        return Err(Error::from(ErrorKind::TooManyArguments));
    }
    let pick = |i: usize, key: &str| -> Result<Value, Error> {
        Ok(match kwargs.get::<Option<Value>>(key)? {
            Some(v) => v,
            None => pos.get(i).cloned().unwrap_or(Value::UNDEFINED),
        })
    };
    let ensure_ascii = pick(0, "ensure_ascii")?;
    let indent = pick(1, "indent")?;
    let separators = pick(2, "separators")?;
    let sort_keys = pick(3, "sort_keys")?;
    kwargs.assert_all_used()?;
    if ensure_ascii.is_true() {
        return Err(Error::new(
            ErrorKind::InvalidOperation,
            "tojson ensure_ascii=true not implemented",
        ));
    }
    if sort_keys.is_true() {
        return Err(Error::new(
            ErrorKind::InvalidOperation,
            "tojson sort_keys=true not implemented",
        ));
    }
    let indent = if indent.is_integer() {
        indent
            .as_i64()
            .and_then(|i| usize::try_from(i).ok())
            .map(|i| i.min(64))
    } else {
        None
    };
    let mut style = JsonStyle::new(indent);
    if matches!(separators.kind(), ValueKind::Seq) {
        let seps: Vec<Value> = separators.try_iter()?.collect();
        if let Some(s) = seps.first() {
            style.item_sep = s.to_string();
        }
        if let Some(s) = seps.get(1) {
            style.key_sep = s.to_string();
        }
    }
    mark_all_read(value);
    to_json(value, &style)
        .map(Value::from)
        .map_err(|e| Error::new(ErrorKind::InvalidOperation, e))
}

/// Python `repr`-like text of a value, as `|string` and printing give it.
fn py_text(v: &Value) -> String {
    match v.kind() {
        ValueKind::None => "None".into(),
        ValueKind::Bool => if v.is_true() { "True" } else { "False" }.into(),
        ValueKind::Undefined => String::new(),
        _ => v.to_string(),
    }
}

fn string_filter(value: &Value) -> Value {
    mark_all_read(value);
    if value.as_str().is_some() {
        return value.clone();
    }
    Value::from(py_text(value))
}

/// llama.cpp's `indent(width=4, first=false, blank=false)`: a trailing
/// newline is kept; lines are taken as `std::getline` gives them.
fn indent_filter(value: &Value, rest: Rest<ValueOrKwargs>) -> Result<Value, Error> {
    let rest = rest.into_values();
    let (pos, kwargs) = from_args::<(&[Value], Kwargs)>(&rest)?;
    if pos.len() > 3 {
        return Err(Error::from(ErrorKind::TooManyArguments));
    }
    let pick = |i: usize, key: &str| -> Result<Value, Error> {
        Ok(match kwargs.get::<Option<Value>>(key)? {
            Some(v) => v,
            None => pos.get(i).cloned().unwrap_or(Value::UNDEFINED),
        })
    };
    let width = pick(0, "width")?;
    let first = pick(1, "first")?.is_true();
    let blank = pick(2, "blank")?.is_true();
    kwargs.assert_all_used()?;
    let Some(input) = value.as_str() else {
        return Err(Error::new(
            ErrorKind::InvalidOperation,
            "indent() first argument must be a string",
        ));
    };
    let pad = if width.is_integer() {
        " ".repeat(width.as_i64().unwrap_or(0).clamp(0, 1024) as usize)
    } else if let Some(s) = width.as_str() {
        s.to_string()
    } else {
        "    ".to_string()
    };
    let mut out = String::new();
    // the lines `std::getline` yields: none for "", and no empty last line
    // after a trailing newline
    let body = input.strip_suffix('\n').unwrap_or(input);
    let lines: Vec<&str> = if input.is_empty() {
        Vec::new()
    } else {
        body.split('\n').collect()
    };
    for line in lines {
        // llama.cpp tells the first line by the output still being empty
        let is_first = out.is_empty();
        if !is_first {
            out.push('\n');
        }
        if if is_first {
            first
        } else {
            !line.is_empty() || blank
        } {
            out.push_str(&pad);
        }
        out.push_str(line);
    }
    if input.ends_with('\n') {
        out.push('\n');
        if blank {
            out.push_str(&pad);
        }
    }
    Ok(Value::from(out))
}

fn is_sequence(v: &Value) -> bool {
    matches!(
        v.kind(),
        ValueKind::Seq | ValueKind::String | ValueKind::Undefined
    )
}

fn unknown_method(
    state: &mut State,
    value: &Value,
    method: &str,
    args: &[Value],
) -> Result<Value, Error> {
    minijinja_contrib::pycompat::unknown_method_callback(state, value, method, args)
}

/// The textual patches llama.cpp applies to a template before parsing it.
pub(crate) fn patch_source(src: &str) -> String {
    let mut src = src.to_string();
    if src.contains("<|channel|>") && src.contains("in message.content or") {
        src = src.replace(
            "{%- if \"<|channel|>analysis<|message|>\" in message.content or \"<|channel|>final<|message|>\" in message.content %}",
            "{%- if false %}",
        );
    }
    if src.contains("[TOOL_CALLS]") && src.contains("if (message['content'] is none or") {
        src = src.replace(
            "{%- if (message['content'] is none or message['content'] == '' or message['content']|length == 0) and (message['tool_calls'] is not defined or message['tool_calls'] is none or message['tool_calls']|length == 0) %}",
            "{%- if false %}",
        );
    }
    src
}

impl Engine {
    /// Parses `chat_template` (after llama.cpp's textual patches).
    pub(crate) fn new(chat_template: &str, now: NativeTime) -> Result<Engine, Failure> {
        let source = normalize_newlines(&patch_source(chat_template));
        let raised: Arc<Mutex<Option<String>>> = Arc::new(Mutex::new(None));
        let mut env = Environment::new();
        match SyntaxConfig::builder()
            .trim_blocks(true)
            .lstrip_blocks(true)
            .keep_trailing_newline(false)
            .build()
        {
            Ok(syntax) => env.set_syntax(syntax),
            Err(e) => return Err(Failure::Template(describe(&e, &source))),
        }
        env.set_undefined_behavior(UndefinedBehavior::Chainable);
        env.set_fuel(Some(FUEL));
        env.set_recursion_limit(256);
        env.set_auto_escape_callback(|_| minijinja::AutoEscape::None);
        env.set_unknown_method_callback(unknown_method);
        env.set_formatter(|out, _state, value| {
            let text = py_text(value);
            out.write_str(&text).map_err(Error::from)
        });
        env.add_filter("tojson", tojson_filter);
        env.add_filter("string", string_filter);
        env.add_filter("indent", indent_filter);
        env.add_test("sequence", is_sequence);
        let slot = raised.clone();
        env.add_function(
            "raise_exception",
            move |msg: Value| -> Result<Value, Error> {
                let msg = msg
                    .as_str()
                    .map(str::to_string)
                    .unwrap_or_else(|| msg.to_string());
                if let Ok(mut s) = slot.lock() {
                    *s = Some(msg.clone());
                }
                Err(Error::new(
                    ErrorKind::InvalidOperation,
                    format!("Jinja Exception: {msg}"),
                ))
            },
        );
        env.add_function("strftime_now", move |fmt: String| -> Value {
            Value::from(now.strftime(&fmt))
        });
        if let Err(e) = env.add_template_owned(TEMPLATE_NAME, source.clone()) {
            return Err(Failure::Template(describe(&e, &source)));
        }
        Ok(Engine {
            env,
            raised,
            source,
            exhausted: Mutex::new(None),
        })
    }

    /// The template source as parsed (patched, newlines normalised).
    pub(crate) fn source(&self) -> &str {
        &self.source
    }

    /// Renders with `ctx` as the globals.
    pub(crate) fn render(&self, ctx: &Value) -> Result<String, Failure> {
        if let Some(msg) = self.exhausted.lock().ok().and_then(|e| e.clone()) {
            return Err(Failure::Template(msg));
        }
        if let Ok(mut s) = self.raised.lock() {
            *s = None;
        }
        let tmpl = self
            .env
            .get_template(TEMPLATE_NAME)
            .map_err(|e| Failure::Template(describe(&e, &self.source)))?;
        let mut out = Capped(Vec::new());
        match tmpl.render_captured_to(ctx.clone(), &mut out) {
            Ok(_) => Ok(String::from_utf8_lossy(&out.0).into_owned()),
            Err(e) => {
                if let Some(msg) = self.raised.lock().ok().and_then(|mut s| s.take()) {
                    return Err(Failure::Raised(msg));
                }
                let msg = describe(&e, &self.source);
                if e.kind() == ErrorKind::OutOfFuel {
                    if let Ok(mut ex) = self.exhausted.lock() {
                        *ex = Some(msg.clone());
                    }
                }
                Err(Failure::Template(msg))
            }
        }
    }
}
