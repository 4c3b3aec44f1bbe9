//! The JSON Ollama writes into the native body.
//!
//! - [`go_args`]: the tool-call arguments string Ollama sends to
//!   llama-server, `json.Marshal` of `api.ToolCallFunctionArguments`:
//!   compact, top-level keys in request order (easyjson's key writer),
//!   nested objects as Go maps (keys sorted), every number a `float64`,
//!   HTML characters escaped.
//! - [`tools_json`]: the tool list as Ollama serialises it (struct field
//!   order, `omitempty`), which llama.cpp parses back with key order kept.

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

#[cfg(test)]
mod tests {
    use super::*;

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
}
