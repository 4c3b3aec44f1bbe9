//! Go's `encoding/json` v1 (Go 1.26), and `buger/jsonparser` v1.1.1 under
//! wk8's ordered map, as the parsers' tool calls meet them: one
//! implementation of each Go call the parser files make.
//!
//! - [`unmarshal_arguments`]: `json.Unmarshal(text, &args)` with `args` an
//!   `api.ToolCallFunctionArguments` (cogito.go, deepseek3.go, gemma4.go,
//!   ministral.go, laguna.go, harmonyparser.go);
//! - [`unmarshal_any`]: `json.Unmarshal(text, &v)` with `v` an `any`,
//!   `[]any` or `map[string]any` (qwen3coder.go's `parseTypedToolValue`,
//!   lfm2.go, tools.go);
//! - [`unmarshal_struct`] / [`unmarshal_struct_slice`]: `json.Unmarshal`
//!   into a struct of `string`, `int` and `api.ToolCallFunctionArguments`
//!   fields, or a slice of one (qwen3.go, qwen3vl.go, laguna.go,
//!   cohere.go), with the field-qualified type errors Go gives there
//!   (`json: cannot unmarshal number into Go struct field .name of type
//!   string`).
//!
//! Checked against Go 1.26 on large random sets (keys with lone and
//! mismatched surrogates, numbers beyond float64, repeated keys and
//! fields, case-folded field names, deep nesting, cut texts).
//!
//! Go decodes after `checkValid` has accepted the whole text (Go's syntax
//! error otherwise, [`crate::godecode::check_valid`], which gives Go's
//! end-of-input texts), so everything below walks valid JSON. Duplicate
//! keys are seen one by one, as Go sees them (a struct field or an ordered
//! argument set again, a type error of the first occurrence kept),
//! numbers are read from their literals, and nesting is walked without
//! recursion, up to [`MAX_DEPTH`] levels (Go allows 10000).

use serde_json::{Map, Value as Json};

use crate::godecode::{check_valid, fold_eq, GoErr};

/// The deepest nesting decoded. Go decodes up to 10,000 levels; the
/// decoded value is written, compared and dropped by recursion, which a
/// worker's stack cannot take that deep, so past this depth the text is
/// refused with Go's own depth error (COMPATIBILITY.md: the answer side).
pub(crate) const MAX_DEPTH: usize = 128;

/// `checkValid`, then the depth bound.
fn valid(text: &str) -> Result<(), GoErr> {
    check_valid(text.as_bytes()).map_err(GoErr::Msg)?;
    let (mut depth, mut deepest, mut in_string, mut escaped) = (0usize, 0usize, false, false);
    for &c in text.as_bytes() {
        if in_string {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            b'"' => in_string = true,
            b'{' | b'[' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b'}' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    if deepest > MAX_DEPTH {
        return Err(GoErr::msg("exceeded max depth"));
    }
    Ok(())
}

/// The byte at `i`, 0 past the end.
fn at(b: &[u8], i: usize) -> u8 {
    b.get(i).copied().unwrap_or(0)
}

/// Past JSON white space from `i`.
fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while matches!(at(b, i), b' ' | b'\t' | b'\n' | b'\r') {
        i += 1;
    }
    i
}

/// The end of the string whose opening quote is at `i`.
fn string_end(b: &[u8], i: usize) -> usize {
    let mut j = i + 1;
    while j < b.len() {
        match b[j] {
            b'\\' => j += 2,
            b'"' => return j + 1,
            _ => j += 1,
        }
    }
    b.len()
}

/// The end of the value starting at `i`.
fn value_end(b: &[u8], i: usize) -> usize {
    match at(b, i) {
        b'"' => string_end(b, i),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut j = i;
            while j < b.len() {
                match b[j] {
                    b'"' => {
                        j = string_end(b, j);
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth = depth.saturating_sub(1);
                        if depth == 0 {
                            return j + 1;
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
            b.len()
        }
        _ => {
            let mut j = i;
            while j < b.len() && !matches!(b[j], b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r')
            {
                j += 1;
            }
            j
        }
    }
}

/// The members of the object at `i`: (key start, key end, value start,
/// value end), the key with its quotes.
fn members(b: &[u8], i: usize) -> Vec<(usize, usize, usize, usize)> {
    let mut out = Vec::new();
    let mut i = skip_ws(b, i + 1);
    while at(b, i) == b'"' {
        let kend = string_end(b, i);
        let v = skip_ws(b, skip_ws(b, kend) + 1);
        let vend = value_end(b, v);
        out.push((i, kend, v, vend));
        i = skip_ws(b, vend);
        if at(b, i) != b',' {
            break;
        }
        i = skip_ws(b, i + 1);
    }
    out
}

/// `getu4`: the value of `\uXXXX` at the start of `b`.
fn getu4(b: &[u8]) -> Option<u32> {
    if b.len() < 6 || b[0] != b'\\' || b[1] != b'u' {
        return None;
    }
    std::str::from_utf8(&b[2..6])
        .ok()
        .and_then(|h| u32::from_str_radix(h, 16).ok())
}

/// Go's `unquote` of a JSON string literal (with its quotes): a `\u`
/// surrogate that does not pair becomes U+FFFD.
fn go_unquote(raw: &str) -> String {
    let s = raw.strip_prefix('"').unwrap_or(raw);
    let s = s.strip_suffix('"').unwrap_or(s);
    let b = s.as_bytes();
    let mut out: Vec<u8> = Vec::with_capacity(b.len());
    let push = |out: &mut Vec<u8>, r: u32| {
        let c = char::from_u32(r).unwrap_or('\u{fffd}');
        let mut tmp = [0u8; 4];
        out.extend_from_slice(c.encode_utf8(&mut tmp).as_bytes());
    };
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' {
            out.push(b[i]);
            i += 1;
            continue;
        }
        match at(b, i + 1) {
            c @ (b'"' | b'\\' | b'/' | b'\'') => out.push(c),
            b'b' => out.push(0x08),
            b'f' => out.push(0x0c),
            b'n' => out.push(b'\n'),
            b'r' => out.push(b'\r'),
            b't' => out.push(b'\t'),
            b'u' => {
                let Some(rr) = getu4(&b[i..]) else { break };
                i += 6;
                if (0xD800..0xE000).contains(&rr) {
                    // utf16.DecodeRune: a high then a low surrogate
                    let pair = getu4(&b[i..]).filter(|lo| {
                        (0xD800..0xDC00).contains(&rr) && (0xDC00..0xE000).contains(lo)
                    });
                    match pair {
                        Some(lo) => {
                            i += 6;
                            push(&mut out, 0x10000 + ((rr - 0xD800) << 10) + (lo - 0xDC00));
                        }
                        None => push(&mut out, 0xFFFD),
                    }
                } else {
                    push(&mut out, rr);
                }
                continue;
            }
            // not valid JSON: checkValid refused it already
            _ => break,
        }
        i += 2;
    }
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// A Go number literal decoded into `any`: `strconv.ParseFloat`, or the
/// error Go saves for it.
fn any_number(lit: &str) -> Result<Json, GoErr> {
    match lit.parse::<f64>() {
        Ok(f) if f.is_finite() => Ok(serde_json::Number::from_f64(f)
            .map(Json::Number)
            .unwrap_or(Json::Null)),
        _ => Err(GoErr::Type {
            value: format!("number {lit}"),
            ty: "float64".to_string(),
            strct: String::new(),
            field: String::new(),
        }),
    }
}

/// Go's decoding into `any` of the (valid) value at `start`: objects as
/// `map[string]any` (a repeated key: the last value), numbers `float64`;
/// the first error (a number beyond float64) is returned once the value
/// is done, as Go's saved error.
fn any_value(text: &str, start: usize) -> Result<Json, GoErr> {
    enum Frame {
        Arr(Vec<Json>),
        Obj(Map<String, Json>, String),
    }
    let b = text.as_bytes();
    let mut saved: Option<GoErr> = None;
    let mut stack: Vec<Frame> = Vec::new();
    let mut i = skip_ws(b, start);
    // reads a key at `i` (a quote) and the colon after it
    let key_at = |i: usize| -> (String, usize) {
        let kend = string_end(b, i);
        (go_unquote(&text[i..kend]), skip_ws(b, skip_ws(b, kend) + 1))
    };
    loop {
        // a value at i
        let mut v = match at(b, i) {
            b'{' => {
                let j = skip_ws(b, i + 1);
                if at(b, j) == b'"' {
                    let (k, j) = key_at(j);
                    stack.push(Frame::Obj(Map::new(), k));
                    i = j;
                    continue;
                }
                i = j + 1;
                Json::Object(Map::new())
            }
            b'[' => {
                let j = skip_ws(b, i + 1);
                if at(b, j) != b']' {
                    stack.push(Frame::Arr(Vec::new()));
                    i = j;
                    continue;
                }
                i = j + 1;
                Json::Array(Vec::new())
            }
            b'"' => {
                let end = string_end(b, i);
                let s = go_unquote(&text[i..end]);
                i = end;
                Json::String(s)
            }
            b't' => {
                i += 4;
                Json::Bool(true)
            }
            b'f' => {
                i += 5;
                Json::Bool(false)
            }
            b'n' => {
                i += 4;
                Json::Null
            }
            _ => {
                let end = value_end(b, i).max(i);
                let lit = text.get(i..end).unwrap_or("");
                i = end;
                match any_number(lit) {
                    Ok(n) => n,
                    Err(e) => {
                        saved.get_or_insert(e);
                        Json::Null
                    }
                }
            }
        };
        // hand it to the open containers, closing those that end here
        loop {
            i = skip_ws(b, i);
            match stack.last_mut() {
                None => {
                    return match saved {
                        Some(e) => Err(e),
                        None => Ok(v),
                    };
                }
                Some(Frame::Arr(a)) => {
                    a.push(v);
                    if at(b, i) == b',' {
                        i = skip_ws(b, i + 1);
                        break;
                    }
                    i += 1;
                    let Some(Frame::Arr(a)) = stack.pop() else {
                        return Err(GoErr::msg("unexpected end of JSON input"));
                    };
                    v = Json::Array(a);
                }
                Some(Frame::Obj(m, k)) => {
                    m.insert(std::mem::take(k), v);
                    if at(b, i) == b',' {
                        let (nk, j) = key_at(skip_ws(b, i + 1));
                        *k = nk;
                        i = j;
                        break;
                    }
                    i += 1;
                    let Some(Frame::Obj(m, _)) = stack.pop() else {
                        return Err(GoErr::msg("unexpected end of JSON input"));
                    };
                    v = Json::Object(m);
                }
            }
        }
    }
}

/// `json.Unmarshal([]byte(text), &v)` with `v any` (or `[]any`,
/// `map[string]any`, whose kinds the caller checks): Go's syntax errors,
/// numbers `float64`, a number beyond float64 an error.
pub(crate) fn unmarshal_any(text: &str) -> Result<Json, GoErr> {
    valid(text)?;
    any_value(text, 0)
}

/// jsonparser's `MalformedObjectError`.
pub(crate) const MALFORMED_OBJECT: &str =
    "Value looks like object, but can't find closing '}' symbol";
/// jsonparser's `MalformedStringEscapeError`.
pub(crate) const MALFORMED_STRING_ESCAPE: &str =
    "Encountered an invalid escape sequence in a string";

/// jsonparser's `decodeSingleUnicodeEscape` (the `\u` itself unchecked).
fn jp_single_unicode_escape(b: &[u8]) -> Option<u32> {
    if b.len() < 6 {
        return None;
    }
    b[2..6].iter().try_fold(0u32, |acc, &c| {
        let d = (c as char).to_digit(16)?;
        Some(acc << 4 | d)
    })
}

/// jsonparser's `Unescape` of a key (between its quotes). Its quirks:
/// any surrogate must be followed by six more bytes whose last four are
/// hex (the `\u` is not checked), at least `DC00`, and the two combine
/// even when they are no proper pair (a result beyond U+10FFFF is written
/// as U+FFFD).
fn jp_unescape(key: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(key.len());
    let mut i = 0;
    while i < key.len() {
        if key[i] != b'\\' {
            out.push(key[i]);
            i += 1;
            continue;
        }
        let e = *key.get(i + 1)?;
        let basic = match e {
            b'"' => Some(b'"'),
            b'\\' => Some(b'\\'),
            b'/' => Some(b'/'),
            b'b' => Some(0x08),
            b'f' => Some(0x0c),
            b'n' => Some(b'\n'),
            b'r' => Some(b'\r'),
            b't' => Some(b'\t'),
            _ => None,
        };
        if let Some(c) = basic {
            out.push(c);
            i += 2;
            continue;
        }
        if e != b'u' {
            return None;
        }
        let r = jp_single_unicode_escape(&key[i..])?;
        let (r, len) = if !(0xD800..=0xDFFF).contains(&r) {
            (r, 6)
        } else {
            let r2 = jp_single_unicode_escape(&key[i + 6..])?;
            if r2 < 0xDC00 {
                return None;
            }
            (0x10000 + ((r - 0xD800) << 10) + (r2 - 0xDC00), 12)
        };
        let c = char::from_u32(r).unwrap_or('\u{fffd}');
        let mut tmp = [0u8; 4];
        out.extend_from_slice(c.encode_utf8(&mut tmp).as_bytes());
        i += len;
    }
    Some(out)
}

/// `api.ToolCallFunctionArguments` as decoded: the ordered map (`None`:
/// nil), and whether the JSON was `null` (which Go marshals back as
/// `null`, a nil map as `{}`).
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Args {
    /// The arguments in their order; `None` for Go's nil map.
    pub map: Option<Map<String, Json>>,
    /// Whether the JSON was `null` (Go's `Map` with a nil inner map).
    pub null: bool,
}

impl Args {
    /// Arguments a parser built itself (`api.NewToolCallFunctionArguments()`
    /// and `Set`s).
    pub(crate) fn of(map: Map<String, Json>) -> Args {
        Args {
            map: Some(map),
            null: false,
        }
    }
}

/// `json.Unmarshal([]byte(text), &args)` with `args` an
/// `api.ToolCallFunctionArguments`: the whole text is checked (Go's syntax
/// errors), then the value, without the white space around it, goes to
/// [`unmarshal_json_arguments`].
pub(crate) fn unmarshal_arguments(text: &str) -> Result<Args, GoErr> {
    valid(text)?;
    let b = text.as_bytes();
    let start = skip_ws(b, 0);
    let end = value_end(b, start).max(start);
    unmarshal_json_arguments(&text[start..end])
}

/// `ToolCallFunctionArguments.UnmarshalJSON` of a valid value's text
/// (without surrounding white space): `null` is kept as null; an object
/// is read by jsonparser's `ObjectEach`, each key unescaped by
/// jsonparser's `Unescape` (its own surrogate rules, [`jp_unescape`]) and
/// each value decoded by `json.Unmarshal` into `any`, a repeated key
/// keeping its first place and taking the last value; anything else is
/// jsonparser's `MalformedObjectError`.
fn unmarshal_json_arguments(text: &str) -> Result<Args, GoErr> {
    let b = text.as_bytes();
    let i = skip_ws(b, 0);
    if &b[i..value_end(b, i).min(b.len()).max(i)] == b"null" {
        return Ok(Args {
            map: None,
            null: true,
        });
    }
    if at(b, i) != b'{' {
        return Err(GoErr::msg(MALFORMED_OBJECT));
    }
    let mut map = Map::new();
    for (ks, ke, vs, _) in members(b, i) {
        let raw_key = &b[ks + 1..ke.saturating_sub(1).max(ks + 1)];
        let key = if raw_key.contains(&b'\\') {
            jp_unescape(raw_key).ok_or_else(|| GoErr::msg(MALFORMED_STRING_ESCAPE))?
        } else {
            raw_key.to_vec()
        };
        // orderedmap's decodeUTF8
        let key = String::from_utf8(key).map_err(|e| {
            GoErr::msg(format!(
                "not a valid UTF-8 string (at position {}): {}",
                e.utf8_error().valid_up_to(),
                String::from_utf8_lossy(e.as_bytes())
            ))
        })?;
        let value = any_value(text, vs)?;
        map.insert(key, value);
    }
    Ok(Args {
        map: Some(map),
        null: false,
    })
}

/// A field's Go type, for [`unmarshal_struct`].
#[derive(Clone, Copy, Debug)]
pub(crate) enum FieldTy {
    /// `int`
    Int,
    /// `string`
    Str,
    /// `api.ToolCallFunctionArguments`
    Args,
}

/// A decoded field.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) enum FieldVal {
    /// Not set (absent, or `null`).
    #[default]
    Unset,
    /// An `int`.
    Int(i64),
    /// A `string`.
    Str(String),
    /// The arguments.
    Args(Args),
}

impl FieldVal {
    pub(crate) fn into_str(self) -> Option<String> {
        match self {
            FieldVal::Str(s) => Some(s),
            _ => None,
        }
    }

    pub(crate) fn into_int(self) -> Option<i64> {
        match self {
            FieldVal::Int(i) => Some(i),
            _ => None,
        }
    }

    pub(crate) fn into_args(self) -> Option<Args> {
        match self {
            FieldVal::Args(a) => Some(a),
            _ => None,
        }
    }
}

/// How Go's decoder names the kind of the value at `i`.
fn kind_at(b: &[u8], i: usize) -> &'static str {
    match at(b, i) {
        b'{' => "object",
        b'[' => "array",
        b'"' => "string",
        b't' | b'f' => "bool",
        b'n' => "null",
        _ => "number",
    }
}

/// A Go struct type of [`FieldTy`] fields, for [`unmarshal_struct`].
pub(crate) struct GoStruct {
    /// Its name in a field's type error (`""` for an anonymous struct:
    /// `Go struct field .name`).
    pub name: &'static str,
    /// Its type as `reflect` writes it, in the type error for JSON that is
    /// no object (`api.ToolCallFunction`, `struct { Name string ... }`).
    pub go_type: &'static str,
    /// Its fields: JSON name and type, in the order they come back.
    pub fields: &'static [(&'static str, FieldTy)],
}

/// `json.Unmarshal([]byte(text), &v)` for a struct `v` (from its zero
/// value): keys matched exactly, then case-insensitively; a field's type
/// error saved (the first one, with `Struct.field`) while decoding goes
/// on; an error of the arguments' own `UnmarshalJSON` returned at once
/// (with the field's context when it is a type error). `null` leaves the
/// zero value. The fields come back in order.
pub(crate) fn unmarshal_struct(text: &str, st: &GoStruct) -> Result<Vec<FieldVal>, GoErr> {
    valid(text)?;
    let b = text.as_bytes();
    let mut saved: Option<GoErr> = None;
    let out = struct_value(text, skip_ws(b, 0), st, &mut saved)?;
    match saved {
        Some(e) => Err(e),
        None => Ok(out),
    }
}

/// `json.Unmarshal([]byte(text), &v)` for `v` a slice of the struct `st`
/// (`slice_type` its Go name, `[]parsers.cohereToolCall`): each element
/// as [`unmarshal_struct`] decodes it (`null` the zero value), an element
/// that is no object a saved type error; `null` is a nil slice (no
/// elements), anything but an array a type error.
pub(crate) fn unmarshal_struct_slice(
    text: &str,
    st: &GoStruct,
    slice_type: &str,
) -> Result<Vec<Vec<FieldVal>>, GoErr> {
    valid(text)?;
    let b = text.as_bytes();
    let i = skip_ws(b, 0);
    match kind_at(b, i) {
        "null" => return Ok(Vec::new()),
        "array" => {}
        kind => return Err(type_error(kind, slice_type, "", "")),
    }
    let mut saved: Option<GoErr> = None;
    let mut out = Vec::new();
    let mut i = skip_ws(b, i + 1);
    while at(b, i) != b']' {
        out.push(struct_value(text, i, st, &mut saved)?);
        i = skip_ws(b, value_end(b, i));
        if at(b, i) != b',' {
            break;
        }
        i = skip_ws(b, i + 1);
    }
    match saved {
        Some(e) => Err(e),
        None => Ok(out),
    }
}

/// A `*json.UnmarshalTypeError`.
fn type_error(value: &str, ty: &str, strct: &str, field: &str) -> GoErr {
    GoErr::Type {
        value: value.to_string(),
        ty: ty.to_string(),
        strct: strct.to_string(),
        field: field.to_string(),
    }
}

/// The struct `st` decoded from the (valid) value at `i`, Go's type errors
/// saved into `saved` (the first one kept).
fn struct_value(
    text: &str,
    i: usize,
    st: &GoStruct,
    saved: &mut Option<GoErr>,
) -> Result<Vec<FieldVal>, GoErr> {
    let b = text.as_bytes();
    let fields = st.fields;
    let mut out = vec![FieldVal::Unset; fields.len()];
    match kind_at(b, i) {
        "null" => return Ok(out),
        "object" => {}
        kind => {
            saved.get_or_insert(type_error(kind, st.go_type, "", ""));
            return Ok(out);
        }
    }
    for (ks, ke, vs, ve) in members(b, i) {
        let key = go_unquote(&text[ks..ke]);
        let Some(f) = fields
            .iter()
            .position(|(n, _)| *n == key)
            .or_else(|| fields.iter().position(|(n, _)| fold_eq(n, &key)))
        else {
            continue;
        };
        let (name, ty) = fields[f];
        let value = text.get(vs..ve).unwrap_or("");
        match (ty, kind_at(b, vs)) {
            (FieldTy::Args, _) => match unmarshal_json_arguments(value) {
                Ok(a) => out[f] = FieldVal::Args(a),
                Err(GoErr::Type {
                    value,
                    ty,
                    field: inner,
                    ..
                }) => {
                    let field = if inner.is_empty() {
                        name.to_string()
                    } else {
                        format!("{name}.{inner}")
                    };
                    return Err(type_error(&value, &ty, st.name, &field));
                }
                Err(e) => return Err(e),
            },
            (_, "null") => {}
            (FieldTy::Str, "string") => out[f] = FieldVal::Str(go_unquote(value)),
            // `strconv.ParseInt(literal, 10, 64)`
            (FieldTy::Int, "number") => match super::parse_int10(value) {
                Some(n) => out[f] = FieldVal::Int(n),
                None => {
                    let value = format!("number {value}");
                    saved.get_or_insert(type_error(&value, "int", st.name, name));
                }
            },
            (FieldTy::Str, kind) => {
                saved.get_or_insert(type_error(kind, "string", st.name, name));
            }
            (FieldTy::Int, kind) => {
                saved.get_or_insert(type_error(kind, "int", st.name, name));
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_decoding() {
        let a =
            unmarshal_json_arguments(r#"{"b":1,"a":2.5,"b":{"y":1,"x":[1e2,"\ud800"]}}"#).unwrap();
        assert_eq!(
            serde_json::to_string(&a.map.unwrap()).unwrap(),
            r#"{"b":{"y":1.0,"x":[100.0,"�"]},"a":2.5}"#
        );
        assert!(unmarshal_json_arguments("null").unwrap().null);
        // jsonparser's key unescaping
        let a = unmarshal_json_arguments(r#"{"\ud83d\ude00":1}"#).unwrap();
        assert!(a.map.unwrap().contains_key("😀"));
        assert_eq!(
            unmarshal_json_arguments(r#"{"\ud800":1}"#)
                .unwrap_err()
                .text(),
            MALFORMED_STRING_ESCAPE
        );
        assert_eq!(
            unmarshal_json_arguments(r#"{"a":1e400}"#)
                .unwrap_err()
                .text(),
            "json: cannot unmarshal number 1e400 into Go value of type float64"
        );
    }

    #[test]
    fn whole_text_checked() {
        assert_eq!(
            unmarshal_arguments(" {\"a\":1} ").unwrap().map.unwrap()["a"],
            serde_json::json!(1.0)
        );
        assert!(unmarshal_arguments(" null\n").unwrap().null);
        assert_eq!(
            unmarshal_arguments("{\"a\":tr").unwrap_err().text(),
            "invalid character ' ' in literal true (expecting 'u')"
        );
        assert_eq!(
            unmarshal_arguments("[1]").unwrap_err().text(),
            MALFORMED_OBJECT
        );
    }

    #[test]
    fn tool_call_arguments() {
        // (recorded from harmonyparser.go's json.Unmarshal of a tool call)
        let ok = |s: &str| match unmarshal_arguments(s) {
            Ok(Args { map: Some(m), .. }) => crate::gojson::J::Obj(
                m.iter()
                    .map(|(k, v)| (k.clone(), crate::parsers::go_any(v)))
                    .collect(),
            )
            .to_json(),
            Ok(Args { map: None, null }) => format!("nil null={null}"),
            Err(e) => format!("ERR {}", e.text()),
        };
        assert_eq!(ok(" null "), "nil null=true");
        assert_eq!(ok("{}"), "{}");
        assert_eq!(
            ok("[1]"),
            "ERR Value looks like object, but can't find closing '}' symbol"
        );
        assert_eq!(
            ok("\"s\""),
            "ERR Value looks like object, but can't find closing '}' symbol"
        );
        assert_eq!(
            ok("{} x"),
            "ERR invalid character 'x' after top-level value"
        );
        assert_eq!(
            ok("{\"a\": {\"x\": [1e400]}}"),
            "ERR json: cannot unmarshal number 1e400 into Go value of type float64"
        );
        assert_eq!(ok("{\"a\": -0}"), "{\"a\":-0}");
        // keys: jsonparser's unescaping
        assert_eq!(ok(r#"{"a\\b": 1}"#), r#"{"a\\b":1}"#);
        assert_eq!(ok(r#"{"a\"b\/": 1}"#), r#"{"a\"b/":1}"#);
        assert_eq!(ok(r#"{"\n\b": 1}"#), r#"{"\n\b":1}"#);
        // a lone low surrogate takes the next escape as its pair (U+FFFD)
        assert_eq!(ok(r#"{"\udc00\udc00": 1}"#), "{\"\u{fffd}\":1}");
        // the low half is taken six bytes on, whatever precedes it
        assert_eq!(ok(r#"{"\ud83dxxdc00": 1}"#), "{\"\u{1f400}\":1}");
        assert_eq!(
            ok(r#"{"\ud83d\u0041": 1}"#),
            "ERR Encountered an invalid escape sequence in a string"
        );
        assert_eq!(
            ok("{\"\\u00e9\\ud83d\\ude00\": \"\\ud800\"}"),
            "{\"é😀\":\"\u{fffd}\"}"
        );
        assert_eq!(
            ok("{\"\\ud83dx\": 1}"),
            "ERR Encountered an invalid escape sequence in a string"
        );
        assert_eq!(ok("{\"b\": 1, \"a\": 2, \"b\": 3}"), "{\"b\":3,\"a\":2}");
    }
}
