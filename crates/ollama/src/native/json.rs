//! JSON on both sides of the native path.
//!
//! - [`go_args`]: the tool-call arguments string Ollama sends to
//!   llama-server, `json.Marshal` of `api.ToolCallFunctionArguments`:
//!   compact, top-level keys in request order (easyjson's key writer),
//!   nested objects as Go maps (keys sorted), every number a `float64`,
//!   HTML characters escaped.
//! - [`tools_json`]: the tool list as Ollama serialises it (struct field
//!   order, `omitempty`), which llama.cpp parses back with key order kept.
//! - [`to_json`]: llama.cpp's `tojson` (`value_to_json`): Python-style
//!   separators (`", "` / `": "`, or `","` with an indent), non-ASCII kept,
//!   key order kept, floats printed like C++ `ostream << double`
//!   (`%g`, six significant digits), undefined and `none` as `null`.

use minijinja::value::ValueKind;
use minijinja::Value;
use serde_json::{Map, Value as Json};

use crate::api::{OrderedArgs, Tool, ToolProperty};

// ---------------------------------------------------------------------------
// Go encoding/json (what Ollama sends)

fn go_string(out: &mut String, s: &str) {
    gotmpl::encoding_json::encode_string(out, s, true);
}

/// easyjson's `Writer.String` with HTML escaping: the keys of an ordered map.
fn go_key(out: &mut String, s: &str) {
    crate::renderers::json::write_key(out, s);
}

fn json_f64(n: &serde_json::Number) -> f64 {
    if let Some(i) = n.as_i64() {
        i as f64
    } else if let Some(u) = n.as_u64() {
        u as f64
    } else {
        n.as_f64().unwrap_or(0.0)
    }
}

fn go_f64(out: &mut String, f: f64) {
    match gotmpl::encoding_json::marshal(&gotmpl::Value::float(f)) {
        Ok(s) => out.push_str(&s),
        Err(_) => out.push_str("null"),
    }
}

/// `json.Marshal` of a value decoded into `any` (maps sorted).
fn go_any(out: &mut String, v: &Json) {
    match v {
        Json::Null => out.push_str("null"),
        Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Json::Number(n) => go_f64(out, json_f64(n)),
        Json::String(s) => go_string(out, s),
        Json::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                go_any(out, item);
            }
            out.push(']');
        }
        Json::Object(obj) => {
            let mut entries: Vec<(&String, &Json)> = obj.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            out.push('{');
            for (i, (k, v)) in entries.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                go_string(out, k);
                out.push(':');
                go_any(out, v);
            }
            out.push('}');
        }
    }
}

/// The `arguments` string of a tool call as Ollama sends it.
pub(crate) fn go_args(args: &OrderedArgs) -> String {
    let mut out = String::new();
    let Some(args) = args else {
        return "{}".into();
    };
    out.push('{');
    for (i, (k, v)) in args.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        go_key(&mut out, k);
        out.push(':');
        go_any(&mut out, v);
    }
    out.push('}');
    out
}

/// A JSON value as Go decodes it into `any` and marshals it back: every
/// number becomes a `float64` and nested objects get sorted keys. Used for
/// `items`, `enum` and `$defs`, which Ollama holds as `any`.
fn go_roundtrip(v: &Json) -> Json {
    let mut s = String::new();
    go_any(&mut s, v);
    serde_json::from_str(&s).unwrap_or(Json::Null)
}

fn property_json(p: &ToolProperty) -> Json {
    let mut m = Map::new();
    if !p.any_of.is_empty() {
        m.insert(
            "anyOf".into(),
            Json::Array(p.any_of.iter().map(property_json).collect()),
        );
    }
    match p.type_.len() {
        0 => {}
        1 => {
            m.insert("type".into(), Json::String(p.type_[0].clone()));
        }
        _ => {
            m.insert(
                "type".into(),
                Json::Array(p.type_.iter().cloned().map(Json::String).collect()),
            );
        }
    }
    if let Some(items) = &p.items {
        m.insert("items".into(), go_roundtrip(items));
    }
    if !p.description.is_empty() {
        m.insert("description".into(), Json::String(p.description.clone()));
    }
    if let Some(e) = &p.enum_ {
        if !e.is_empty() {
            m.insert("enum".into(), go_roundtrip(&Json::Array(e.clone())));
        }
    }
    if let Some(props) = &p.properties {
        m.insert("properties".into(), properties_json(props));
    }
    if let Some(r) = &p.required {
        if !r.is_empty() {
            m.insert(
                "required".into(),
                Json::Array(r.iter().cloned().map(Json::String).collect()),
            );
        }
    }
    Json::Object(m)
}

fn properties_json(props: &[(String, ToolProperty)]) -> Json {
    let mut m = Map::new();
    for (k, p) in props {
        m.insert(k.clone(), property_json(p));
    }
    Json::Object(m)
}

/// The tools as llama.cpp hands them to the template: each rebuilt as
/// `{type: "function", function: {name, description, parameters}}`, with
/// `parameters` in the key order Ollama serialised them.
pub(crate) fn tools_json(tools: &[Tool]) -> Json {
    let mut out = Vec::with_capacity(tools.len());
    for t in tools {
        let p = &t.function.parameters;
        let mut params = Map::new();
        params.insert("type".into(), Json::String(p.type_.clone()));
        if let Some(d) = &p.defs {
            params.insert("$defs".into(), go_roundtrip(d));
        }
        if let Some(i) = &p.items {
            params.insert("items".into(), go_roundtrip(i));
        }
        if let Some(r) = &p.required {
            if !r.is_empty() {
                params.insert(
                    "required".into(),
                    Json::Array(r.iter().cloned().map(Json::String).collect()),
                );
            }
        }
        params.insert(
            "properties".into(),
            match &p.properties {
                Some(props) => properties_json(props),
                None => Json::Null,
            },
        );
        let mut function = Map::new();
        function.insert("name".into(), Json::String(t.function.name.clone()));
        function.insert(
            "description".into(),
            Json::String(t.function.description.clone()),
        );
        function.insert("parameters".into(), Json::Object(params));
        let mut tool = Map::new();
        tool.insert("type".into(), Json::String("function".into()));
        tool.insert("function".into(), Json::Object(function));
        out.push(Json::Object(tool));
    }
    Json::Array(out)
}

// ---------------------------------------------------------------------------
// llama.cpp's tojson

/// Separators and indent for [`to_json`].
pub(crate) struct JsonStyle {
    pub indent: Option<usize>,
    pub item_sep: String,
    pub key_sep: String,
}

impl JsonStyle {
    /// `tojson` defaults for an indent (or none).
    pub fn new(indent: Option<usize>) -> JsonStyle {
        JsonStyle {
            indent,
            item_sep: if indent.is_some() { "," } else { ", " }.into(),
            key_sep: ": ".into(),
        }
    }
}

/// C++ `ostream << double`: `%g` with six significant digits.
pub(crate) fn cpp_double(f: f64) -> String {
    if f.is_nan() {
        return if f.is_sign_negative() { "-nan" } else { "nan" }.into();
    }
    if f.is_infinite() {
        return if f < 0.0 { "-inf" } else { "inf" }.into();
    }
    if f == 0.0 {
        return if f.is_sign_negative() { "-0" } else { "0" }.into();
    }
    let sci = format!("{:.5e}", f);
    let (mant, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    fn strip(s: &str) -> &str {
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.')
        } else {
            s
        }
    }
    if !(-4..6).contains(&exp) {
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{}e{}{:02}", strip(mant), sign, exp.abs())
    } else {
        let fixed = format!("{:.*}", (5 - exp) as usize, f);
        strip(&fixed).to_string()
    }
}

fn json_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// The string a key of a mapping becomes.
pub(crate) fn key_string(k: &Value) -> String {
    match k.as_str() {
        Some(s) => s.to_string(),
        None => k.to_string(),
    }
}

fn number(out: &mut String, v: &Value) {
    if v.is_integer() {
        out.push_str(&v.to_string());
    } else {
        match f64::try_from(v.clone()) {
            Ok(f) => out.push_str(&cpp_double(f)),
            Err(_) => out.push_str(&v.to_string()),
        }
    }
}

/// Serialises a template value (`value_to_json`). Fails only when the
/// nesting is absurdly deep.
pub(crate) fn to_json(v: &Value, style: &JsonStyle) -> Result<String, String> {
    let mut out = String::new();
    write_value(&mut out, v, 0, style)?;
    Ok(out)
}

fn write_value(out: &mut String, v: &Value, level: usize, st: &JsonStyle) -> Result<(), String> {
    if level > 512 {
        return Err("tojson: value nested too deeply".into());
    }
    let pad = |out: &mut String, lvl: usize| {
        if let Some(n) = st.indent {
            if n > 0 {
                out.push_str(&" ".repeat(lvl * n));
            }
        }
    };
    let newline = |out: &mut String| {
        if st.indent.is_some() {
            out.push('\n');
        }
    };
    match v.kind() {
        ValueKind::Undefined | ValueKind::None => out.push_str("null"),
        ValueKind::Bool => out.push_str(if v.is_true() { "true" } else { "false" }),
        ValueKind::Number => number(out, v),
        ValueKind::String => json_string(out, v.as_str().unwrap_or_default()),
        ValueKind::Seq | ValueKind::Iterable => {
            let items: Vec<Value> = match v.try_iter() {
                Ok(it) => it.collect(),
                Err(_) => Vec::new(),
            };
            out.push('[');
            if !items.is_empty() {
                newline(out);
                let n = items.len();
                for (i, item) in items.iter().enumerate() {
                    pad(out, level + 1);
                    write_value(out, item, level + 1, st)?;
                    if i + 1 < n {
                        out.push_str(&st.item_sep);
                    }
                    newline(out);
                }
                pad(out, level);
            }
            out.push(']');
        }
        ValueKind::Map => {
            let keys: Vec<Value> = match v.try_iter() {
                Ok(it) => it.collect(),
                Err(_) => Vec::new(),
            };
            out.push('{');
            if !keys.is_empty() {
                newline(out);
                let n = keys.len();
                for (i, k) in keys.iter().enumerate() {
                    pad(out, level + 1);
                    json_string(out, &key_string(k));
                    out.push_str(&st.key_sep);
                    let item = v.get_item(k).unwrap_or(Value::UNDEFINED);
                    write_value(out, &item, level + 1, st)?;
                    if i + 1 < n {
                        out.push_str(&st.item_sep);
                    }
                    newline(out);
                }
                pad(out, level);
            }
            out.push('}');
        }
        _ => out.push_str("null"),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use minijinja::value::Serde;

    #[test]
    fn cpp_doubles() {
        assert_eq!(cpp_double(18.5), "18.5");
        assert_eq!(cpp_double(100.0), "100");
        assert_eq!(cpp_double(0.0001), "0.0001");
        assert_eq!(cpp_double(0.00001), "1e-05");
        assert_eq!(cpp_double(1234567.0), "1.23457e+06");
        assert_eq!(cpp_double(1.234567891), "1.23457");
        assert_eq!(cpp_double(-2.5), "-2.5");
        assert_eq!(cpp_double(1e21), "1e+21");
    }

    #[test]
    fn go_arguments() {
        let args: Map<String, Json> =
            serde_json::from_str(r#"{"b":1,"a":{"z":1.5,"y":"<x>"},"c":[1e21]}"#).unwrap();
        assert_eq!(
            go_args(&Some(args)),
            r#"{"b":1,"a":{"y":"\u003cx\u003e","z":1.5},"c":[1e+21]}"#
        );
        assert_eq!(go_args(&None), "{}");
    }

    #[test]
    fn tojson_styles() {
        let v = Value::from(Serde(serde_json::json!({"a": [1, "é\n"], "b": {}})));
        assert_eq!(
            to_json(&v, &JsonStyle::new(None)).unwrap(),
            "{\"a\": [1, \"é\\n\"], \"b\": {}}"
        );
        assert_eq!(
            to_json(&v, &JsonStyle::new(Some(2))).unwrap(),
            "{\n  \"a\": [\n    1,\n    \"é\\n\"\n  ],\n  \"b\": {}\n}"
        );
    }
}
