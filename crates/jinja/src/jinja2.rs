//! The Jinja2 dialect: the engine with Python Jinja2 3.1.6's semantics as
//! Hugging Face transformers configures it for chat templates
//! (`ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True)`,
//! loop controls, its own `tojson`, `raise_exception`, `strftime_now`,
//! `dict` and `namespace`; transformers' `_compile_jinja_template`).
//!
//! The llama.cpp engine already follows Python closely; where Jinja2 does
//! otherwise the code asks `ctx.dialect` at the spot (printing with
//! `str()`, Python's exceptions and their texts, the sandbox's refusal of
//! mutating methods, `Markup` from `|safe`). This module is the entry
//! point and Python's own text forms: `repr()`, `str()`, whitespace.

use serde_json::Value as Json;

use crate::error::{Error, ErrorKind, Result};
use crate::value::{Value, ValueKind, MAX_VALUE_DEPTH};
use crate::{Context, Dialect, Runtime};

/// A compiled template: the source and its program.
#[derive(Debug)]
pub struct Template {
    src: String,
    program: crate::ast::Program,
}

/// `Environment.from_string(source)`: lexes and parses in the Jinja2
/// dialect. Errors are Python's (`TemplateSyntaxError: ...`).
pub fn compile(src: &str) -> Result<Template> {
    let tokens =
        crate::lexer::tokenize_bytes_in(src.as_bytes(), Dialect::Jinja2).map_err(syntax_error)?;
    let program =
        crate::parser::parse_from_tokens_in(&tokens, &changes::Rules::default(), Dialect::Jinja2)
            .map_err(syntax_error)?;
    Ok(Template {
        src: src.to_string(),
        program,
    })
}

fn syntax_error(e: Error) -> Error {
    match e.kind() {
        ErrorKind::Python => e,
        _ => match e.message().strip_prefix("Unknown statement: ") {
            Some(tag) => Error::python(
                "TemplateSyntaxError",
                format!("Encountered unknown tag {}.", py_repr_str(tag)),
            ),
            None => Error::python("TemplateSyntaxError", e.message()),
        },
    }
}

/// `template.render(**vars)` with `strftime_now` reading `now` (seconds
/// since the epoch, formatted as local time = UTC here).
pub fn render(t: &Template, vars: &Json, now: i64) -> Result<String> {
    let mut ctx = Context::new(&t.src);
    ctx.dialect = Dialect::Jinja2;
    ctx.current_time = now;
    crate::global_from_json(&mut ctx, vars, true)?;
    let results = Runtime::new(&ctx).execute(&t.program)?;
    let parts = crate::gather_string_parts(&results)?;
    Ok(parts.str())
}

/// Python's `str.isspace()` for one character.
pub fn py_isspace(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n'
            | '\u{b}'
            | '\u{c}'
            | '\r'
            | '\u{1c}'..='\u{1f}'
            | ' '
            | '\u{85}'
            | '\u{a0}'
            | '\u{1680}'
            | '\u{2000}'..='\u{200a}'
            | '\u{2028}'
            | '\u{2029}'
            | '\u{202f}'
            | '\u{205f}'
            | '\u{3000}'
    )
}

/// Python's `str.isprintable()` for one character, for `repr()`: not a
/// control, format, separator (other than the space), surrogate or
/// private-use character.
fn py_isprintable(c: char) -> bool {
    let u = c as u32;
    !(u < 0x20
        || (0x7f..=0xa0).contains(&u)
        || u == 0xad
        || (c != ' ' && py_isspace(c))
        || (0x600..=0x605).contains(&u)
        || u == 0x61c
        || u == 0x6dd
        || u == 0x70f
        || u == 0x180e
        || (0x200b..=0x200f).contains(&u)
        || (0x202a..=0x202e).contains(&u)
        || (0x2060..=0x2064).contains(&u)
        || (0x2066..=0x206f).contains(&u)
        || u == 0xfeff
        || (0xfff9..=0xfffb).contains(&u)
        || (0xe000..=0xf8ff).contains(&u)
        || (0xf0000..).contains(&u)
        || u == 0x110bd
        || (0x1bca0..=0x1bca3).contains(&u)
        || (0x1d173..=0x1d17a).contains(&u)
        || u == 0xe0001
        || (0xe0020..=0xe007f).contains(&u))
}

/// Python's `repr()` of a string.
pub fn py_repr_str(s: &str) -> String {
    let quote = if s.contains('\'') && !s.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if py_isprintable(c) => out.push(c),
            c if (c as u32) < 0x100 => out.push_str(&format!("\\x{:02x}", c as u32)),
            c if (c as u32) < 0x10000 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push_str(&format!("\\U{:08x}", c as u32)),
        }
    }
    out.push(quote);
    out
}

/// Python's `repr()` of a float (the shortest text that reads back,
/// exponent form below 1e-4 and from 1e16).
pub fn py_float(f: f64) -> String {
    if f.is_nan() {
        return "nan".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "inf" } else { "-inf" }.into();
    }
    if f == 0.0 {
        return if f.is_sign_negative() { "-0.0" } else { "0.0" }.into();
    }
    let e = format!("{f:e}");
    let (mant, exp) = e.split_once('e').expect("exponent form");
    let exp: i32 = exp.parse().expect("exponent");
    let (sign, mant) = match mant.strip_prefix('-') {
        Some(m) => ("-", m),
        None => ("", mant),
    };
    let digits: String = mant.chars().filter(|c| *c != '.').collect();
    if !(-4..16).contains(&exp) {
        let m = if digits.len() == 1 {
            digits.clone()
        } else {
            format!("{}.{}", &digits[..1], &digits[1..])
        };
        return format!(
            "{sign}{m}e{}{:02}",
            if exp < 0 { '-' } else { '+' },
            exp.abs()
        );
    }
    let point = exp + 1;
    let body = if point <= 0 {
        format!("0.{}{}", "0".repeat((-point) as usize), digits)
    } else if point as usize >= digits.len() {
        format!("{}{}.0", digits, "0".repeat(point as usize - digits.len()))
    } else {
        format!(
            "{}.{}",
            &digits[..point as usize],
            &digits[point as usize..]
        )
    };
    format!("{sign}{body}")
}

/// Python's `repr()` of a JSON value as the template sees it (dicts, lists,
/// `None`, `True`).
pub fn py_repr(v: &Json) -> String {
    match v {
        Json::Null => "None".into(),
        Json::Bool(b) => if *b { "True" } else { "False" }.into(),
        Json::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => i.to_string(),
            (_, Some(u)) => u.to_string(),
            _ => py_float(n.as_f64().unwrap_or(0.0)),
        },
        Json::String(s) => py_repr_str(s),
        Json::Array(a) => format!("[{}]", a.iter().map(py_repr).collect::<Vec<_>>().join(", ")),
        Json::Object(o) => format!(
            "{{{}}}",
            o.iter()
                .map(|(k, v)| format!("{}: {}", py_repr_str(k), py_repr(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// The Python type name of a JSON value (`str`, `int`, `list`, `dict`, ...).
pub fn py_type(v: &Json) -> &'static str {
    match v {
        Json::Null => "NoneType",
        Json::Bool(_) => "bool",
        Json::Number(n) if n.is_f64() => "float",
        Json::Number(_) => "int",
        Json::String(_) => "str",
        Json::Array(_) => "list",
        Json::Object(_) => "dict",
    }
}

/// The `TypeError` text of `left + right` where `right` is of type
/// `right_type` and the two do not add.
pub fn py_concat_error(left: &Json, right_type: &str) -> String {
    concat_error(py_type(left), right_type)
}

/// `TypeError` text of `a + b` for Python type names that do not add.
pub fn concat_error(a: &str, b: &str) -> String {
    match a {
        "str" | "list" | "tuple" => {
            format!("can only concatenate {a} (not \"{b}\") to {a}")
        }
        _ => format!("unsupported operand type(s) for +: '{a}' and '{b}'"),
    }
}

/// The Python type name of a value (`str`, `int`, `list`, `dict`,
/// `Undefined`, `NoneType`, ...).
pub fn value_type(v: &Value) -> &'static str {
    match v.kind() {
        ValueKind::Int(..) => "int",
        ValueKind::Float(..) => "float",
        ValueKind::Str(s) if s.is_safe() => "Markup",
        ValueKind::Str(_) => "str",
        ValueKind::Bool(_) => "bool",
        ValueKind::Array { .. } if v.py_iter().is_some() => v.py_iter().unwrap_or("generator"),
        ValueKind::Array { tuple: true, .. } => "tuple",
        ValueKind::Array { .. } => "list",
        ValueKind::Object(_) => "dict",
        ValueKind::None => "NoneType",
        ValueKind::Undefined(_) => "Undefined",
        ValueKind::Func(_) => "function",
        ValueKind::Kwarg(..) => "kwarg",
    }
}

/// Python's `repr()` of a value.
pub fn value_repr(v: &Value) -> Result<String> {
    repr_depth(v, 0)
}

fn repr_depth(v: &Value, depth: usize) -> Result<String> {
    if depth > MAX_VALUE_DEPTH {
        return Err(Error::new(
            ErrorKind::TooDeep,
            "value nesting too deep to print",
        ));
    }
    Ok(match v.kind() {
        ValueKind::Str(s) => {
            let r = py_repr_str(&s.str());
            if s.is_safe() {
                format!("Markup({r})")
            } else {
                r
            }
        }
        ValueKind::Array { items, tuple } => {
            let items = items.borrow().clone();
            let mut parts = Vec::with_capacity(items.len());
            for it in &items {
                parts.push(repr_depth(it, depth + 1)?);
            }
            if *tuple {
                if parts.len() == 1 {
                    format!("({},)", parts[0])
                } else {
                    format!("({})", parts.join(", "))
                }
            } else {
                format!("[{}]", parts.join(", "))
            }
        }
        ValueKind::Object(_) => {
            let mut parts = Vec::new();
            for (k, val) in v.as_ordered_object()? {
                parts.push(format!(
                    "{}: {}",
                    repr_depth(&k, depth + 1)?,
                    repr_depth(&val, depth + 1)?
                ));
            }
            format!("{{{}}}", parts.join(", "))
        }
        ValueKind::Undefined(_) => "Undefined".into(),
        ValueKind::Func(f) => format!("<function {}>", f.name),
        _ => py_str(v)?,
    })
}

/// Python's `str()` of a value, as `{{ value }}` writes it (an undefined
/// value writes nothing).
pub fn py_str(v: &Value) -> Result<String> {
    Ok(match v.kind() {
        ValueKind::Str(s) => s.str(),
        ValueKind::Int(i, _) => i.to_string(),
        ValueKind::Float(f, _) => py_float(*f),
        ValueKind::Bool(b) => if *b { "True" } else { "False" }.into(),
        ValueKind::None => "None".into(),
        ValueKind::Undefined(_) => String::new(),
        _ => repr_depth(v, 0)?,
    })
}

/// The Python exception an undefined value raises when used: its hint
/// holds `TypeName: message` in the Jinja2 dialect.
pub fn undefined_error(v: &Value) -> Error {
    match v.kind() {
        ValueKind::Undefined(h) if is_python_message(h) => Error::new(ErrorKind::Python, h.clone()),
        ValueKind::Undefined(h) => {
            Error::python("UndefinedError", format!("{} is undefined", py_repr_str(h)))
        }
        _ => Error::python("UndefinedError", "undefined"),
    }
}

/// An undefined value that came from a variable or member holding one
/// (its hint is already Python's message).
pub(crate) fn is_stored_undefined(v: &Value) -> bool {
    matches!(v.kind(), ValueKind::Undefined(h) if is_python_message(h))
}

fn is_python_message(h: &str) -> bool {
    ["UndefinedError: ", "SecurityError: "]
        .iter()
        .any(|p| h.starts_with(p))
}

/// The undefined value of a missing variable (`'name' is undefined`).
pub fn undefined_name(name: &str) -> Value {
    Value::undefined(&format!(
        "UndefinedError: {} is undefined",
        py_repr_str(name)
    ))
}

/// jinja2's `object_type_repr`: `None`, or `dict object`, `str object`.
fn object_type_repr(v: &Value) -> String {
    match v.kind() {
        ValueKind::None => "None".into(),
        ValueKind::Str(s) if s.is_safe() => "markupsafe.Markup object".into(),
        _ => format!("{} object", value_type(v)),
    }
}

/// The undefined value of a missing attribute or item of `obj`.
fn undefined_member(obj: &Value, name: &Value) -> Result<Value> {
    let msg = match name.kind() {
        ValueKind::Str(s) => format!(
            "UndefinedError: {} has no attribute {}",
            py_repr_str(&object_type_repr(obj)),
            py_repr_str(&s.str())
        ),
        _ => format!(
            "UndefinedError: {} has no element {}",
            object_type_repr(obj),
            value_repr(name)?
        ),
    };
    Ok(Value::undefined(&msg))
}

/// The methods of `list` and `dict` that change the object: the immutable
/// sandbox refuses them (`modifies_known_mutable`).
fn unsafe_method(obj: &Value, name: &str) -> Option<&'static str> {
    match obj.kind() {
        ValueKind::Array { tuple: false, .. }
            if matches!(
                name,
                "append" | "clear" | "extend" | "insert" | "pop" | "remove" | "reverse" | "sort"
            ) =>
        {
            Some("list")
        }
        ValueKind::Object(_)
            if matches!(name, "clear" | "pop" | "popitem" | "setdefault" | "update") =>
        {
            Some("dict")
        }
        _ => None,
    }
}

/// The methods of `dict` that `obj.name` finds before the key `name`
/// (Jinja2's `getattr` tries the attribute first).
const DICT_METHODS: [&str; 4] = ["get", "items", "keys", "values"];

/// `obj.name` / `obj[key]` in the sandbox: an undefined object raises;
/// a missing member is an undefined that says what was missing.
pub(crate) fn member(
    ctx: &Context,
    object: Value,
    property_stmt: &crate::ast::StmtPtr,
    computed: bool,
) -> Result<Value> {
    use crate::ast::StmtKind;
    if object.is_undefined() {
        return Err(undefined_error(&object));
    }
    if object.py_iter().is_some() {
        // an iterator has no items by index and no attributes templates use
        let key = match (computed, property_stmt.as_identifier()) {
            (false, Some(n)) => Value::str(n),
            _ => crate::runtime::execute(property_stmt, ctx)?,
        };
        return undefined_member(&object, &key);
    }
    let name = if computed {
        None
    } else {
        property_stmt.as_identifier()
    };
    if let Some(name) = name {
        if let Some(t) = unsafe_method(&object, name) {
            return Ok(Value::undefined(&format!(
                "SecurityError: access to attribute {} of {} object is unsafe.",
                py_repr_str(name),
                py_repr_str(t)
            )));
        }
        if object.is(crate::value::ValType::Object) {
            let held = object.at_or(&Value::str(name), Value::none())?;
            if is_stored_undefined(&held) {
                return Ok(held);
            }
        }
        if object.is(crate::value::ValType::Object) && DICT_METHODS.contains(&name) {
            if let Some(f) =
                crate::builtins::builtins_of(&object).and_then(|t| crate::builtins::lookup(t, name))
            {
                return Ok(Value::builtin(name, f, Some(object)));
            }
        }
    }
    let v = crate::runtime::member_of(ctx, object.clone(), property_stmt, computed)?;
    if !v.is_undefined() || is_stored_undefined(&v) {
        return Ok(v);
    }
    let key = match (name, &property_stmt.kind) {
        (Some(n), _) => Value::str(n),
        (None, StmtKind::Slice { .. }) => return Ok(v),
        (None, _) if !computed => match &property_stmt.kind {
            StmtKind::IntegerLiteral(i) => Value::int(*i),
            _ => return Ok(v),
        },
        (None, _) => crate::runtime::execute(property_stmt, ctx)?,
    };
    undefined_member(&object, &key)
}

/// Calling what is not a function.
pub(crate) fn not_callable(v: &Value) -> Error {
    if v.is_undefined() {
        return undefined_error(v);
    }
    Error::python(
        "TypeError",
        format!("{} object is not callable", py_repr_str(value_type(v))),
    )
}

/// What `{% for x in v %}` iterates: a string's characters, nothing for
/// an undefined value; `None` and numbers are not iterable.
pub(crate) fn iterable(v: Value) -> Result<Value> {
    Ok(match v.kind() {
        ValueKind::Undefined(_) => Value::array(Vec::new()),
        ValueKind::Str(s) => {
            Value::array(s.str().chars().map(|c| Value::str(c.to_string())).collect())
        }
        ValueKind::None | ValueKind::Int(..) | ValueKind::Float(..) | ValueKind::Bool(_) => {
            return Err(Error::python(
                "TypeError",
                format!("{} object is not iterable", py_repr_str(value_type(&v))),
            ))
        }
        _ => v,
    })
}

/// The filters Jinja2 3.1.6 defines.
const FILTERS: &[&str] = &[
    "abs",
    "attr",
    "batch",
    "capitalize",
    "center",
    "count",
    "d",
    "default",
    "dictsort",
    "e",
    "escape",
    "filesizeformat",
    "first",
    "float",
    "forceescape",
    "format",
    "groupby",
    "indent",
    "int",
    "items",
    "join",
    "last",
    "length",
    "list",
    "lower",
    "map",
    "max",
    "min",
    "pprint",
    "random",
    "reject",
    "rejectattr",
    "replace",
    "reverse",
    "round",
    "safe",
    "select",
    "selectattr",
    "slice",
    "sort",
    "string",
    "striptags",
    "sum",
    "title",
    "tojson",
    "trim",
    "truncate",
    "unique",
    "upper",
    "urlencode",
    "urlize",
    "wordcount",
    "wordwrap",
    "xmlattr",
];

/// A filter the engine has no implementation of for `input`'s type.
pub(crate) fn unknown_filter(name: &str, input: &Value) -> Error {
    let name = match name {
        "strip" => "trim",
        n => n,
    };
    if !FILTERS.contains(&name) {
        return Error::python(
            "TemplateRuntimeError",
            format!("No filter named {} found.", py_repr_str(name)),
        );
    }
    match name {
        "items" => Error::python("TypeError", "Can only get item pairs from a mapping."),
        _ => Error::python(
            "TypeError",
            format!(
                "filter {} cannot be applied to a {} value",
                py_repr_str(name),
                value_type(input)
            ),
        ),
    }
}

/// Filters where Jinja2 does otherwise: `safe` makes a `Markup`,
/// `escape`/`e`/`forceescape` escape into one, `tojson` is transformers'
/// `json.dumps`; `args` are the filter's arguments after the input.
pub(crate) fn filter(
    _ctx: &Context,
    id: &str,
    input: &Value,
    args: &crate::value::FuncArgs,
) -> Result<Option<Value>> {
    if let Some(t) = input.py_iter() {
        match id {
            "length" => {
                return Err(Error::python(
                    "TypeError",
                    format!("object of type {} has no len()", py_repr_str(t)),
                ))
            }
            "last" => {
                return Err(Error::python(
                    "TypeError",
                    format!("{} object is not reversible", py_repr_str(t)),
                ))
            }
            _ => {}
        }
    }
    Ok(match (id, input.kind()) {
        ("tojson", _) => Some(tojson(input, args)?),
        ("sum", ValueKind::Array { .. }) => Some(sum(input, args)?),
        ("safe", ValueKind::Str(s)) => {
            let mut s = s.clone();
            s.safe = true;
            Some(Value::string(s))
        }
        ("safe", _) if !input.is_undefined() => {
            let mut s = crate::JString::new(py_str(input)?, false);
            s.safe = true;
            Some(Value::string(s))
        }
        ("escape" | "forceescape", ValueKind::Str(s)) if id == "forceescape" || !s.safe => {
            Some(Value::string(html_escape(s)))
        }
        // escaping a Markup string leaves it as it is
        ("escape", ValueKind::Str(_)) => Some(input.clone()),
        ("select" | "reject", ValueKind::Array { .. }) if args.count() == 0 => {
            let keep = id == "select";
            let mut out = Vec::new();
            for it in input.as_array()? {
                if it.as_bool()? == keep {
                    out.push(it);
                }
            }
            Some(Value::array(out))
        }
        ("unique", ValueKind::Array { .. }) => Some(unique(input, args)?),
        ("batch", ValueKind::Array { .. }) => Some(batch(input, args)?),
        _ => None,
    })
}

/// A Python `json.dumps` string literal.
fn json_str(out: &mut String, s: &str, ensure_ascii: bool) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c if ensure_ascii && (c as u32) > 0x7e => {
                let mut buf = [0u16; 2];
                for u in c.encode_utf16(&mut buf) {
                    out.push_str(&format!("\\u{:04x}", u));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Python `json.dumps` options (transformers' `tojson` arguments).
struct Dumps {
    ensure_ascii: bool,
    indent: Option<String>,
    item_sep: String,
    key_sep: String,
    sort_keys: bool,
}

fn not_serializable(v: &Value) -> Error {
    Error::python(
        "TypeError",
        format!("Object of type {} is not JSON serializable", value_type(v)),
    )
}

/// The key text `json.dumps` writes for a dict key.
fn json_key(k: &Value) -> Result<String> {
    Ok(match k.kind() {
        ValueKind::Str(s) => s.str(),
        ValueKind::Int(i, _) => i.to_string(),
        ValueKind::Float(f, _) => json_float(*f),
        ValueKind::Bool(b) => if *b { "true" } else { "false" }.into(),
        ValueKind::None => "null".into(),
        _ => {
            return Err(Error::python(
                "TypeError",
                format!(
                    "keys must be str, int, float, bool or None, not {}",
                    value_type(k)
                ),
            ))
        }
    })
}

fn json_float(f: f64) -> String {
    if f.is_nan() {
        "NaN".into()
    } else if f.is_infinite() {
        if f > 0.0 { "Infinity" } else { "-Infinity" }.into()
    } else {
        py_float(f)
    }
}

fn dumps(out: &mut String, v: &Value, o: &Dumps, level: usize) -> Result<()> {
    if level > MAX_VALUE_DEPTH {
        return Err(Error::new(
            ErrorKind::TooDeep,
            "value nesting too deep to print",
        ));
    }
    let newline = |out: &mut String, l: usize| {
        if let Some(ind) = &o.indent {
            out.push('\n');
            for _ in 0..l {
                out.push_str(ind);
            }
        }
    };
    match v.kind() {
        ValueKind::None => out.push_str("null"),
        ValueKind::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        ValueKind::Int(i, _) => out.push_str(&i.to_string()),
        ValueKind::Float(f, _) => out.push_str(&json_float(*f)),
        ValueKind::Str(s) => json_str(out, &s.str(), o.ensure_ascii),
        ValueKind::Array { .. } if v.py_iter().is_some() => return Err(not_serializable(v)),
        ValueKind::Array { items, .. } => {
            let items = items.borrow().clone();
            if items.is_empty() {
                out.push_str("[]");
                return Ok(());
            }
            out.push('[');
            for (i, it) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(&o.item_sep);
                }
                newline(out, level + 1);
                dumps(out, it, o, level + 1)?;
            }
            newline(out, level);
            out.push(']');
        }
        ValueKind::Object(_) => {
            let mut entries = v.as_ordered_object()?;
            if entries.is_empty() {
                out.push_str("{}");
                return Ok(());
            }
            if o.sort_keys {
                let mut err = None;
                entries.sort_by(|(a, _), (b, _)| match (a.kind(), b.kind()) {
                    (ValueKind::Str(x), ValueKind::Str(y)) => x.str().cmp(&y.str()),
                    _ if is_number(a) && is_number(b) => a
                        .as_float()
                        .unwrap_or(0.0)
                        .total_cmp(&b.as_float().unwrap_or(0.0)),
                    _ => {
                        err.get_or_insert_with(|| {
                            Error::python(
                                "TypeError",
                                format!(
                                    "'<' not supported between instances of {} and {}",
                                    py_repr_str(value_type(b)),
                                    py_repr_str(value_type(a))
                                ),
                            )
                        });
                        std::cmp::Ordering::Equal
                    }
                });
                if let Some(e) = err {
                    return Err(e);
                }
            }
            out.push('{');
            for (i, (k, val)) in entries.iter().enumerate() {
                if i > 0 {
                    out.push_str(&o.item_sep);
                }
                newline(out, level + 1);
                json_str(out, &json_key(k)?, o.ensure_ascii);
                out.push_str(&o.key_sep);
                dumps(out, val, o, level + 1)?;
            }
            newline(out, level);
            out.push('}');
        }
        _ => return Err(not_serializable(v)),
    }
    Ok(())
}

/// transformers' `tojson(x, ensure_ascii=False, indent=None,
/// separators=None, sort_keys=False)`: `json.dumps` with those arguments.
fn tojson(input: &Value, args: &crate::value::FuncArgs) -> Result<Value> {
    let arg = |k: &str, pos: usize| args.get_kwarg_or_pos(k, pos);
    let truthy = |v: Value| -> Result<bool> { Ok(!v.is_undefined() && v.as_bool()?) };
    let indent = match arg("indent", 1).kind() {
        ValueKind::Int(n, _) => Some(" ".repeat((*n).max(0) as usize)),
        ValueKind::Str(s) => Some(s.str()),
        _ => None,
    };
    let (mut item_sep, mut key_sep) = (
        if indent.is_some() { "," } else { ", " }.to_string(),
        ": ".to_string(),
    );
    let seps = arg("separators", 2);
    if matches!(seps.kind(), ValueKind::Array { .. }) {
        let s = seps.as_array()?;
        if s.len() != 2 {
            return Err(Error::python(
                "ValueError",
                format!("not enough values to unpack (expected 2, got {})", s.len()),
            ));
        }
        item_sep = py_str(&s[0])?;
        key_sep = py_str(&s[1])?;
    }
    let o = Dumps {
        ensure_ascii: truthy(arg("ensure_ascii", 0))?,
        indent,
        item_sep,
        key_sep,
        sort_keys: truthy(arg("sort_keys", 3))?,
    };
    let mut out = String::new();
    dumps(&mut out, input, &o, 0)?;
    Ok(Value::string(crate::JString::new(out, false)))
}

/// `name is filter`.
pub(crate) fn is_filter(v: &Value) -> bool {
    matches!(v.kind(), ValueKind::Str(s) if FILTERS.contains(&s.str().as_str()))
}

/// `str.replace(old, new, count)`.
pub(crate) fn replace_count(
    input: &Value,
    old: &[u8],
    new: &[u8],
    count: usize,
    ctx: &Context,
) -> Result<Value> {
    let s = py_str(input)?;
    let (old, new) = (
        String::from_utf8_lossy(old).into_owned(),
        String::from_utf8_lossy(new).into_owned(),
    );
    ctx.charge_bytes(s.len() + new.len() * count.min(s.len() + 1))?;
    let out = if old.is_empty() {
        let mut out = String::new();
        let mut n = 0;
        for c in s.chars() {
            if n < count {
                out.push_str(&new);
                n += 1;
            }
            out.push(c);
        }
        if n < count {
            out.push_str(&new);
        }
        out
    } else {
        s.replacen(&old, &new, count)
    };
    Ok(Value::string(crate::JString::new(out, false)))
}

/// `str.format(*args, **kwargs)`: `{}`, `{0}`, `{name}`, `{{`, `}}`,
/// `!r`/`!s` (no format specs).
pub(crate) fn str_format(a: &crate::value::FuncArgs) -> Result<Value> {
    let fmt = py_str(&a.get_pos(0)?)?;
    let args = a.get_args();
    let positional: Vec<&Value> = args[1..]
        .iter()
        .filter(|v| !matches!(v.kind(), ValueKind::Kwarg(..)))
        .collect();
    let mut out = String::new();
    let mut auto = 0usize;
    let mut chars = fmt.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
                out.push('{');
            }
            '}' if chars.peek() == Some(&'}') => {
                chars.next();
                out.push('}');
            }
            '}' => {
                return Err(Error::python(
                    "ValueError",
                    "Single '}' encountered in format string",
                ))
            }
            '{' => {
                let mut field = String::new();
                loop {
                    match chars.next() {
                        Some('}') => break,
                        Some(c) => field.push(c),
                        None => {
                            return Err(Error::python(
                                "ValueError",
                                "expected '}' before end of string",
                            ))
                        }
                    }
                }
                let (name, conv) = match field.split_once('!') {
                    Some((n, c)) => (n.to_string(), Some(c.to_string())),
                    None => (field.clone(), None),
                };
                if name.contains(':') {
                    return Err(Error::not_implemented("format() specs are not supported"));
                }
                let v = if name.is_empty() {
                    auto += 1;
                    positional.get(auto - 1).copied().cloned()
                } else if let Ok(i) = name.parse::<usize>() {
                    positional.get(i).copied().cloned()
                } else {
                    let v = a.get_kwarg(&name, Value::undefined(""));
                    if v.is_undefined() {
                        return Err(Error::python("KeyError", py_repr_str(&name)));
                    }
                    Some(v)
                };
                let Some(v) = v else {
                    return Err(Error::python(
                        "IndexError",
                        format!(
                            "Replacement index {} out of range for positional args tuple",
                            if name.is_empty() {
                                auto - 1
                            } else {
                                name.parse().unwrap_or(0)
                            }
                        ),
                    ));
                };
                match conv.as_deref() {
                    Some("r") => out.push_str(&value_repr(&v)?),
                    _ => out.push_str(&py_str(&v)?),
                }
            }
            c => out.push(c),
        }
    }
    a.ctx.charge_bytes(out.len())?;
    Ok(Value::string(crate::JString::new(out, false)))
}

/// `seq|map('filter', *args)`: the named filter applied to each item.
pub(crate) fn map_filter(a: &crate::value::FuncArgs) -> Result<Value> {
    let items = a.get_pos(0)?.as_array()?;
    let name = py_str(&a.get_pos(1)?)?;
    let mut out = Vec::with_capacity(items.len());
    for it in items {
        let mut fa = crate::value::FuncArgs::new(a.ctx);
        for extra in &a.get_args()[2..] {
            fa.push_back(extra.clone());
        }
        let v = match filter(a.ctx, &name, &it, &fa)? {
            Some(v) => v,
            None => {
                let table = crate::builtins::builtins_of(&it);
                let f = table
                    .and_then(|t| crate::builtins::lookup(t, &name))
                    .ok_or_else(|| unknown_filter(&name, &it))?;
                crate::runtime::invoke(&Value::builtin(&name, f, Some(it.clone())), &fa)?
            }
        };
        out.push(v);
    }
    Ok(Value::array(out))
}

/// `seq|sum(attribute=None, start=0)`.
fn sum(input: &Value, args: &crate::value::FuncArgs) -> Result<Value> {
    let attribute = args.get_kwarg_or_pos("attribute", 0);
    let mut total = args.get_kwarg_or_pos("start", 1);
    if total.is_undefined() {
        total = Value::int(0);
    }
    for it in input.as_array()? {
        let v = if attribute.is_undefined() || attribute.is_none() {
            it
        } else {
            it.at_or(&attribute, Value::undefined(""))?
        };
        if !is_number(&total) || !is_number(&v) {
            return Err(Error::python(
                "TypeError",
                format!(
                    "unsupported operand type(s) for +: {} and {}",
                    py_repr_str(value_type(&total)),
                    py_repr_str(value_type(&v))
                ),
            ));
        }
        total = if matches!(total.kind(), ValueKind::Float(..))
            || matches!(v.kind(), ValueKind::Float(..))
        {
            Value::float(total.as_float()? + v.as_float()?)
        } else {
            Value::int(total.as_int()?.wrapping_add(v.as_int()?))
        };
    }
    Ok(total)
}

/// The filters whose result is a Python iterator in Jinja2, and its type:
/// `generator` (written with `yield`), or `list_reverseiterator` (`reverse`
/// of a list).
pub(crate) fn iterator_result(id: &str, input: &Value) -> Option<&'static str> {
    match id {
        "map" | "select" | "reject" | "selectattr" | "rejectattr" | "unique" | "batch"
        | "slice" | "items" => Some("generator"),
        "reverse"
            if matches!(input.kind(), ValueKind::Array { tuple: false, .. })
                && input.py_iter().is_none() =>
        {
            Some("list_reverseiterator")
        }
        _ => None,
    }
}

/// After filter `id` turned `input` into `out`: a result Jinja2 gives as
/// an iterator is marked so, and an iterator input is consumed.
pub(crate) fn after_filter(id: &str, input: &Value, out: &Value) {
    if let Some(t) = iterator_result(id, input) {
        if matches!(out.kind(), ValueKind::Array { .. }) && !std::rc::Rc::ptr_eq(&out.0, &input.0) {
            out.set_py_iter(t);
        }
    }
    consume(id, input);
}

/// A filter applied to an iterator consumes it: `first` its first item,
/// the others all of it (a second `for` over it finds nothing).
pub(crate) fn consume(id: &str, input: &Value) {
    if input.py_iter().is_none() {
        return;
    }
    if let ValueKind::Array { items, .. } = input.kind() {
        let mut items = items.borrow_mut();
        if id == "first" {
            if !items.is_empty() {
                items.remove(0);
            }
        } else {
            items.clear();
        }
    }
}

/// `seq|unique(case_sensitive=False, attribute=None)`: the first of each
/// value, strings compared lowercased unless case-sensitive.
fn unique(input: &Value, args: &crate::value::FuncArgs) -> Result<Value> {
    let case_sensitive = {
        let v = args.get_kwarg_or_pos("case_sensitive", 0);
        !v.is_undefined() && v.as_bool()?
    };
    let attribute = args.get_kwarg_or_pos("attribute", 1);
    let mut seen: Vec<Value> = Vec::new();
    let mut out = Vec::new();
    for it in input.as_array()? {
        let mut key = if attribute.is_undefined() || attribute.is_none() {
            it.clone()
        } else {
            it.at_or(&attribute, Value::undefined(""))?
        };
        if !case_sensitive {
            if let ValueKind::Str(s) = key.kind() {
                key = Value::str(s.str().to_lowercase());
            }
        }
        if !seen.iter().any(|k| crate::value::equivalent(k, &key)) {
            seen.push(key);
            out.push(it);
        }
    }
    Ok(Value::array(out))
}

/// `seq|batch(linecount, fill_with=None)`: lists of `linecount` items, the
/// last one filled up with `fill_with` when given.
fn batch(input: &Value, args: &crate::value::FuncArgs) -> Result<Value> {
    let n = args.get_kwarg_or_pos("linecount", 0);
    let n = match n.kind() {
        ValueKind::Int(i, _) if *i > 0 => *i as usize,
        ValueKind::Int(..) => {
            return Err(Error::python(
                "ValueError",
                "range() arg 3 must not be zero",
            ))
        }
        _ => {
            return Err(Error::python(
                "TypeError",
                format!(
                    "{} object cannot be interpreted as an integer",
                    py_repr_str(value_type(&n))
                ),
            ))
        }
    };
    let fill = args.get_kwarg_or_pos("fill_with", 1);
    let items = input.as_array()?;
    let mut out = Vec::new();
    for chunk in items.chunks(n) {
        let mut c = chunk.to_vec();
        if c.len() < n && !fill.is_undefined() && !fill.is_none() {
            c.resize(n, fill.clone());
        }
        out.push(Value::array(c));
    }
    Ok(Value::array(out))
}

/// `loop.cycle(*values)`: the value for the loop's current index.
pub(crate) fn loop_cycle(args: &crate::value::FuncArgs) -> Result<Value> {
    let all = args.get_args();
    let index = all.first().map(|v| v.as_int()).transpose()?.unwrap_or(0);
    let values = &all[1.min(all.len())..];
    if values.is_empty() {
        return Err(Error::python("TypeError", "no items for cycling given"));
    }
    Ok(values[index as usize % values.len()].clone())
}

/// The sandbox's check on a namespace attribute name (transformers'
/// `TemplateNamespace._check_name`).
pub(crate) fn check_namespace_name(name: &str) -> Result<()> {
    if name.starts_with('_') {
        return Err(Error::python(
            "SecurityError",
            format!(
                "Chat templates cannot store underscore-prefixed attributes on a namespace, but got {}. Please rename the attribute.",
                py_repr_str(name)
            ),
        ));
    }
    Ok(())
}

/// markupsafe's `escape` of one string.
pub fn html_escape(s: &crate::JString) -> crate::JString {
    let mut out = s.clone();
    for p in &mut out.parts {
        let mut v = Vec::with_capacity(p.val.len());
        for &c in &p.val {
            match c {
                b'&' => v.extend_from_slice(b"&amp;"),
                b'<' => v.extend_from_slice(b"&lt;"),
                b'>' => v.extend_from_slice(b"&gt;"),
                b'\'' => v.extend_from_slice(b"&#39;"),
                b'"' => v.extend_from_slice(b"&#34;"),
                c => v.push(c),
            }
        }
        p.val = v;
    }
    out.safe = true;
    out
}

fn is_number(v: &Value) -> bool {
    matches!(
        v.kind(),
        ValueKind::Int(..) | ValueKind::Float(..) | ValueKind::Bool(_)
    )
}

fn is_str(v: &Value) -> bool {
    matches!(v.kind(), ValueKind::Str(_))
}

fn is_seq(v: &Value) -> bool {
    matches!(v.kind(), ValueKind::Array { .. })
}

/// `str()` of an operand of `~`, as a [`crate::JString`].
fn tilde_operand(v: &Value) -> Result<crate::JString> {
    Ok(match v.kind() {
        ValueKind::Str(s) => s.clone(),
        _ => crate::JString::new(py_str(v)?, false),
    })
}

/// Concatenation where a `Markup` side escapes the plain side.
fn concat(ctx: &Context, l: crate::JString, r: crate::JString) -> Result<Value> {
    let (l, r) = match (l.safe, r.safe) {
        (true, false) => (l, html_escape(&r)),
        (false, true) => (html_escape(&l), r),
        _ => (l, r),
    };
    let safe = l.safe;
    let v = crate::runtime::string_concat(ctx, l, &r)?;
    Ok(match v.kind() {
        ValueKind::Str(s) if safe != s.safe => {
            let mut s = s.clone();
            s.safe = safe;
            Value::string(s)
        }
        _ => v,
    })
}

/// Python's `/`, `//`, `%` and `**` on numbers (ints floor, Python's
/// zero-division errors); other operators are the shared code's.
fn arithmetic(op: &str, lv: &Value, rv: &Value) -> Result<Option<Value>> {
    let is_float = |v: &Value| matches!(v.kind(), ValueKind::Float(..));
    let floats = is_float(lv) || is_float(rv);
    let zero = |msg: &str| Err(Error::python("ZeroDivisionError", msg));
    match op {
        "/" => {
            let (a, b) = (lv.as_float()?, rv.as_float()?);
            if b == 0.0 {
                return zero(if floats {
                    "float division by zero"
                } else {
                    "division by zero"
                });
            }
            Ok(Some(Value::float(a / b)))
        }
        "//" | "%" if floats => {
            let (a, b) = (lv.as_float()?, rv.as_float()?);
            if b == 0.0 {
                return zero(if op == "//" {
                    "float floor division by zero"
                } else {
                    "float modulo"
                });
            }
            let m = a - b * (a / b).floor();
            Ok(Some(Value::float(if op == "//" {
                (a / b).floor()
            } else {
                m
            })))
        }
        "//" | "%" => {
            let (a, b) = (lv.as_int()?, rv.as_int()?);
            if b == 0 {
                return zero(if op == "//" {
                    "integer division or modulo by zero"
                } else {
                    "integer modulo by zero"
                });
            }
            let (q, r) = (a.wrapping_div(b), a.wrapping_rem(b));
            let floor = r != 0 && ((r < 0) != (b < 0));
            Ok(Some(Value::int(if op == "//" {
                q - floor as i64
            } else if floor {
                r + b
            } else {
                r
            })))
        }
        "**" => {
            if !floats {
                let (a, b) = (lv.as_int()?, rv.as_int()?);
                if b >= 0 {
                    if let Some(p) = u32::try_from(b).ok().and_then(|e| a.checked_pow(e)) {
                        return Ok(Some(Value::int(p)));
                    }
                } else if a == 0 {
                    return zero("0.0 cannot be raised to a negative power");
                }
            }
            let (a, b) = (lv.as_float()?, rv.as_float()?);
            if a == 0.0 && b < 0.0 {
                return zero("0.0 cannot be raised to a negative power");
            }
            Ok(Some(Value::float(a.powf(b))))
        }
        _ => Ok(None),
    }
}

/// Binary operators where Python does otherwise than llama.cpp's engine;
/// `None` leaves the operation to the shared code.
pub(crate) fn binary(ctx: &Context, op: &str, lv: &Value, rv: &Value) -> Result<Option<Value>> {
    let (lt, rt) = (value_type(lv), value_type(rv));
    match op {
        // `str_join`: without autoescaping, `~` joins `str()`s, Markup or not
        "~" => {
            let (mut l, mut r) = (tilde_operand(lv)?, tilde_operand(rv)?);
            (l.safe, r.safe) = (false, false);
            Ok(Some(concat(ctx, l, r)?))
        }
        "+" | "-" | "*" | "/" | "//" | "%" | "**" | "<" | ">" | "<=" | ">=" => {
            if lv.is_undefined() {
                return Err(undefined_error(lv));
            }
            if rv.is_undefined() {
                return Err(undefined_error(rv));
            }
            if is_number(lv) && is_number(rv) {
                return arithmetic(op, lv, rv);
            }
            match op {
                "+" if is_str(lv) && is_str(rv) => {
                    let (ValueKind::Str(l), ValueKind::Str(r)) = (lv.kind(), rv.kind()) else {
                        unreachable!()
                    };
                    Ok(Some(concat(ctx, l.clone(), r.clone())?))
                }
                "+" if is_seq(lv) && lt == rt && matches!(lt, "list" | "tuple") => Ok(None),
                "+" => Err(Error::python("TypeError", concat_error(lt, rt))),
                "*" if is_seq(lv) && matches!(rv.kind(), ValueKind::Int(..))
                    || is_seq(rv) && matches!(lv.kind(), ValueKind::Int(..)) =>
                {
                    let (seq, n) = if is_seq(lv) { (lv, rv) } else { (rv, lv) };
                    let items = seq.as_array()?;
                    let n = n.as_int()?.max(0) as usize;
                    ctx.charge((items.len() * n) as u64)?;
                    if items.len().saturating_mul(n) > crate::runtime::MAX_STRING_PARTS {
                        return Err(Error::new(
                            ErrorKind::OutputTooLarge,
                            "template output exceeds the limit",
                        ));
                    }
                    let mut out = Vec::with_capacity(items.len() * n);
                    for _ in 0..n {
                        out.extend(items.iter().cloned());
                    }
                    Ok(Some(Value::array(out)))
                }
                "*" if is_str(lv) && matches!(rv.kind(), ValueKind::Int(..))
                    || is_str(rv) && matches!(lv.kind(), ValueKind::Int(..)) =>
                {
                    Ok(None)
                }
                "<" | ">" | "<=" | ">=" if is_str(lv) && is_str(rv) => {
                    let (a, b) = (py_str(lv)?, py_str(rv)?);
                    Ok(Some(Value::bool(match op {
                        "<" => a < b,
                        ">" => a > b,
                        "<=" => a <= b,
                        _ => a >= b,
                    })))
                }
                "<" | ">" | "<=" | ">=" => Err(Error::python(
                    "TypeError",
                    format!(
                        "'{op}' not supported between instances of {} and {}",
                        py_repr_str(lt),
                        py_repr_str(rt)
                    ),
                )),
                _ => Err(Error::python(
                    "TypeError",
                    format!(
                        "unsupported operand type(s) for {op}: {} and {}",
                        py_repr_str(lt),
                        py_repr_str(rt)
                    ),
                )),
            }
        }
        "in" | "not in" => {
            let found = match rv.kind() {
                ValueKind::Undefined(_) => false,
                ValueKind::Str(r) => {
                    let ValueKind::Str(l) = lv.kind() else {
                        return Err(Error::python(
                            "TypeError",
                            format!("'in <string>' requires string as left operand, not {lt}"),
                        ));
                    };
                    let (l, r) = (l.bytes(), r.bytes());
                    l.is_empty() || r.windows(l.len()).any(|w| w == l.as_slice())
                }
                ValueKind::None
                | ValueKind::Int(..)
                | ValueKind::Float(..)
                | ValueKind::Bool(_) => {
                    return Err(Error::python(
                        "TypeError",
                        format!("argument of type {} is not iterable", py_repr_str(rt)),
                    ))
                }
                _ if lv.is_undefined() => false,
                _ => return Ok(None),
            };
            Ok(Some(Value::bool(found == (op == "in"))))
        }
        _ => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_as_python_writes_them() {
        for (f, s) in [
            (1.0, "1.0"),
            (2.5, "2.5"),
            (1e16, "1e+16"),
            (1.5e-5, "1.5e-05"),
            (0.0001, "0.0001"),
            (123456789.0, "123456789.0"),
            (-0.5, "-0.5"),
            (0.1 + 0.2, "0.30000000000000004"),
            (1e22, "1e+22"),
        ] {
            assert_eq!(py_float(f), s);
        }
    }

    #[test]
    fn strings_as_python_reprs_them() {
        assert_eq!(py_repr_str("a'b"), "\"a'b\"");
        assert_eq!(py_repr_str("a'b\""), "'a\\'b\"'");
        assert_eq!(py_repr_str("x\n\u{1}é日"), "'x\\n\\x01é日'");
        assert_eq!(
            py_repr(&serde_json::json!({"a": [1, 2.5, null, true]})),
            "{'a': [1, 2.5, None, True]}"
        );
    }
}
