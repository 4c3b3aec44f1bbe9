//! `/api/chat` and `/api/generate` bodies decoded as Ollama's handlers decode
//! them, against `tests/golden/native-decode.jsonl`, recorded by
//! from Ollama v0.33.0-rc2's own `api` types under Go 1.26.0, decoded as
//! `c.ShouldBindJSON` and the handlers' first lines decode them
//! (`tests/golden/README.md`): every error text equal, and for every body Go accepts,
//! the fields that shape the prompt equal to what Go decoded.
//!
//! Bodies that are not one JSON value serde reads (`"raw": true`: empty,
//! truncated, trailing data, lone surrogates in keys, 10,000 levels deep)
//! are a server's concern, as are bodies that repeat a key (Go decodes
//! each again into the same value) and numbers beyond float64 (`1e400`), which
//! serde cannot read and Go refuses; those that parse are checked like the
//! others.

use ollama::api::{ChatRequest, GenerateRequest, Message, Think, Tool, ToolProperty};
use serde_json::{json, Map, Value};

fn golden() -> Vec<Value> {
    let path = std::path::PathBuf::from(
        std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR at run time"),
    )
    .join("tests/golden/native-decode.jsonl");
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Numbers as float64 (Go's `any`), so `1e2` and `100` compare equal.
fn norm(v: &Value) -> Value {
    match v {
        Value::Number(n) => json!(n.as_f64().unwrap_or(0.0)),
        Value::Array(a) => Value::Array(a.iter().map(norm).collect()),
        Value::Object(o) => Value::Object(o.iter().map(|(k, x)| (k.clone(), norm(x))).collect()),
        x => x.clone(),
    }
}

fn b64(bytes: &[u8]) -> String {
    ollama::godecode::base64_encode(bytes)
}

fn message(m: &Message) -> Value {
    let mut o = Map::new();
    o.insert("role".into(), json!(m.role));
    o.insert("content".into(), json!(m.content));
    if !m.thinking.is_empty() {
        o.insert("thinking".into(), json!(m.thinking));
    }
    if !m.images.is_empty() {
        o.insert(
            "images".into(),
            json!(m.images.iter().map(|i| b64(&i.0)).collect::<Vec<_>>()),
        );
    }
    if !m.tool_calls.is_empty() {
        let calls: Vec<Value> = m
            .tool_calls
            .iter()
            .map(|c| {
                let mut t = Map::new();
                if !c.id.is_empty() {
                    t.insert("id".into(), json!(c.id));
                }
                let args = match (&c.function.arguments, c.function.arguments_null) {
                    (Some(a), _) => Value::Object(a.clone()),
                    (None, true) => Value::Null,
                    (None, false) => json!({}),
                };
                t.insert(
                    "function".into(),
                    json!({"index": c.function.index, "name": c.function.name, "arguments": args}),
                );
                Value::Object(t)
            })
            .collect();
        o.insert("tool_calls".into(), Value::Array(calls));
    }
    if !m.tool_name.is_empty() {
        o.insert("tool_name".into(), json!(m.tool_name));
    }
    if !m.tool_call_id.is_empty() {
        o.insert("tool_call_id".into(), json!(m.tool_call_id));
    }
    Value::Object(o)
}

fn property(p: &ToolProperty) -> Value {
    let mut o = Map::new();
    if !p.any_of.is_empty() {
        o.insert(
            "anyOf".into(),
            Value::Array(p.any_of.iter().map(property).collect()),
        );
    }
    match p.type_.len() {
        0 => {}
        1 => {
            o.insert("type".into(), json!(p.type_[0]));
        }
        _ => {
            o.insert("type".into(), json!(p.type_));
        }
    }
    if let Some(i) = &p.items {
        o.insert("items".into(), i.clone());
    }
    if !p.description.is_empty() {
        o.insert("description".into(), json!(p.description));
    }
    if let Some(e) = p.enum_.as_ref().filter(|e| !e.is_empty()) {
        o.insert("enum".into(), Value::Array(e.clone()));
    }
    if let Some(ps) = &p.properties {
        o.insert("properties".into(), properties(ps));
    }
    if let Some(r) = p.required.as_ref().filter(|r| !r.is_empty()) {
        o.insert("required".into(), json!(r));
    }
    Value::Object(o)
}

fn properties(ps: &[(String, ToolProperty)]) -> Value {
    Value::Object(ps.iter().map(|(k, p)| (k.clone(), property(p))).collect())
}

fn tool(t: &Tool) -> Value {
    let mut o = Map::new();
    o.insert("type".into(), json!(t.type_));
    if let Some(i) = &t.items {
        o.insert("items".into(), i.clone());
    }
    let f = &t.function;
    let mut fj = Map::new();
    fj.insert("name".into(), json!(f.name));
    if !f.description.is_empty() {
        fj.insert("description".into(), json!(f.description));
    }
    let p = &f.parameters;
    let mut pj = Map::new();
    pj.insert("type".into(), json!(p.type_));
    if let Some(d) = &p.defs {
        pj.insert("$defs".into(), d.clone());
    }
    if let Some(i) = &p.items {
        pj.insert("items".into(), i.clone());
    }
    if let Some(r) = p.required.as_ref().filter(|r| !r.is_empty()) {
        pj.insert("required".into(), json!(r));
    }
    pj.insert(
        "properties".into(),
        p.properties
            .as_deref()
            .map(properties)
            .unwrap_or(Value::Null),
    );
    fj.insert("parameters".into(), Value::Object(pj));
    o.insert("function".into(), Value::Object(fj));
    Value::Object(o)
}

fn think(t: &Option<Think>) -> Option<Value> {
    t.as_ref().map(|t| match t {
        Think::Bool(b) => json!(b),
        Think::Level(s) => json!(s),
    })
}

/// What of Go's decoded request shapes the prompt (the fields our
/// `ChatRequest` / `GenerateRequest` keep).
fn project_go(endpoint: &str, v: &Value) -> Value {
    let keep: &[&str] = if endpoint == "chat" {
        &[
            "model",
            "messages",
            "tools",
            "options",
            "think",
            "truncate",
            "_debug_render_only",
            "top_logprobs",
        ]
    } else {
        &[
            "model",
            "prompt",
            "suffix",
            "system",
            "template",
            "context",
            "raw",
            "images",
            "options",
            "think",
            "truncate",
            "_debug_render_only",
            "top_logprobs",
        ]
    };
    // a nil image and an empty one are the same image; an empty
    // `messages` list the same as none
    fn images_as_strings(v: &mut Value) {
        if let Some(a) = v.get_mut("images").and_then(Value::as_array_mut) {
            for i in a {
                if i.is_null() {
                    *i = json!("");
                }
            }
        }
    }
    let o = v.as_object().unwrap();
    let mut out = Map::new();
    for k in keep {
        match o.get(*k) {
            Some(Value::Null) | None => {}
            Some(Value::Array(a)) if a.is_empty() && *k == "messages" => {}
            Some(x) => {
                let mut x = norm(x);
                if *k == "messages" {
                    for m in x.as_array_mut().into_iter().flatten() {
                        images_as_strings(m);
                    }
                }
                out.insert(k.to_string(), x);
            }
        }
    }
    images_as_strings(&mut Value::Object(out.clone()));
    let mut out = Value::Object(out);
    images_as_strings(&mut out);
    out
}

/// Whether an object in `text` repeats a key. Go decodes a repeated key
/// again into the same value (merging maps and struct fields); a parsed
/// JSON value keeps only the last, so such bodies are a server's concern.
fn has_duplicate_keys(text: &str) -> bool {
    fn walk(v: &str) -> bool {
        let mut de = serde_json::Deserializer::from_str(v);
        dup(&mut de).unwrap_or(false)
    }
    fn dup<'de, D: serde::Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = bool;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("JSON")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut m: A) -> Result<bool, A::Error> {
                let mut seen = std::collections::HashSet::new();
                let mut found = false;
                while let Some(k) = m.next_key::<String>()? {
                    found |= !seen.insert(k);
                    found |= m.next_value_seed(Seed)?;
                }
                Ok(found)
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut s: A) -> Result<bool, A::Error> {
                let mut found = false;
                while let Some(f) = s.next_element_seed(Seed)? {
                    found |= f;
                }
                Ok(found)
            }
            fn visit_bool<E>(self, _: bool) -> Result<bool, E> {
                Ok(false)
            }
            fn visit_i64<E>(self, _: i64) -> Result<bool, E> {
                Ok(false)
            }
            fn visit_u64<E>(self, _: u64) -> Result<bool, E> {
                Ok(false)
            }
            fn visit_f64<E>(self, _: f64) -> Result<bool, E> {
                Ok(false)
            }
            fn visit_str<E>(self, _: &str) -> Result<bool, E> {
                Ok(false)
            }
            fn visit_unit<E>(self) -> Result<bool, E> {
                Ok(false)
            }
        }
        struct Seed;
        impl<'de> serde::de::DeserializeSeed<'de> for Seed {
            type Value = bool;
            fn deserialize<D2: serde::Deserializer<'de>>(self, d: D2) -> Result<bool, D2::Error> {
                d.deserialize_any(V)
            }
        }
        d.deserialize_any(V)
    }
    walk(text)
}

fn put(o: &mut Map<String, Value>, k: &str, v: Value) {
    o.insert(k.into(), norm(&v));
}

fn project_chat(r: &ChatRequest) -> Value {
    let mut o = Map::new();
    put(&mut o, "model", json!(r.model));
    if !r.messages.is_empty() {
        put(
            &mut o,
            "messages",
            Value::Array(r.messages.iter().map(message).collect()),
        );
    }
    if let Some(t) = r.tools.as_ref().filter(|t| !t.is_empty()) {
        put(&mut o, "tools", Value::Array(t.iter().map(tool).collect()));
    }
    if let Some(opts) = &r.options {
        put(&mut o, "options", Value::Object(opts.clone()));
    }
    if let Some(t) = think(&r.think) {
        put(&mut o, "think", t);
    }
    if let Some(t) = r.truncate {
        put(&mut o, "truncate", json!(t));
    }
    if r.debug_render_only {
        put(&mut o, "_debug_render_only", json!(true));
    }
    if r.top_logprobs != 0 {
        put(&mut o, "top_logprobs", json!(r.top_logprobs));
    }
    Value::Object(o)
}

fn project_generate(r: &GenerateRequest) -> Value {
    let mut o = Map::new();
    put(&mut o, "model", json!(r.model));
    put(&mut o, "prompt", json!(r.prompt));
    put(&mut o, "suffix", json!(r.suffix));
    put(&mut o, "system", json!(r.system));
    put(&mut o, "template", json!(r.template));
    if let Some(c) = r.context.as_ref().filter(|c| !c.is_empty()) {
        put(&mut o, "context", json!(c));
    }
    if r.raw {
        put(&mut o, "raw", json!(true));
    }
    if !r.images.is_empty() {
        put(
            &mut o,
            "images",
            json!(r.images.iter().map(|i| b64(&i.0)).collect::<Vec<_>>()),
        );
    }
    if let Some(opts) = &r.options {
        put(&mut o, "options", Value::Object(opts.clone()));
    }
    if let Some(t) = think(&r.think) {
        put(&mut o, "think", t);
    }
    if let Some(t) = r.truncate {
        put(&mut o, "truncate", json!(t));
    }
    if r.debug_render_only {
        put(&mut o, "_debug_render_only", json!(true));
    }
    if r.top_logprobs != 0 {
        put(&mut o, "top_logprobs", json!(r.top_logprobs));
    }
    Value::Object(o)
}

#[test]
fn native_bodies_decode_as_ollamas() {
    let cases = golden();
    let mut failures = Vec::new();
    let (mut checked, mut skipped, mut errors, mut duplicates) = (0, 0, 0, 0);
    for c in &cases {
        let id = c["id"].as_str().unwrap();
        let endpoint = c["endpoint"].as_str().unwrap();
        let text = c["body"].as_str().unwrap();
        let Ok(body) = serde_json::from_str::<Value>(text) else {
            // not JSON serde reads: flagged raw, or a number beyond
            // float64 (`1e400`), which Go refuses too
            assert!(
                c["raw"] == true || c["status"] == 400,
                "{id}: the body does not parse"
            );
            skipped += 1;
            continue;
        };
        if has_duplicate_keys(text) {
            duplicates += 1;
            continue;
        }
        checked += 1;
        let got: Result<Value, String> = ollama::godecode::with_literals(text, || {
            if endpoint == "chat" {
                ChatRequest::decode(&body)
                    .map(|r| project_chat(&r))
                    .map_err(|e| e.0)
            } else {
                GenerateRequest::decode(&body)
                    .map(|r| project_generate(&r))
                    .map_err(|e| e.0)
            }
        });
        match (got, c.get("error").and_then(Value::as_str)) {
            (Err(e), Some(want)) => {
                errors += 1;
                if e != want {
                    failures.push(format!(
                        "{id}: error differs\n  body {text}\n  want {want}\n  got  {e}"
                    ));
                }
            }
            (Ok(g), None) => {
                let decoded: Value = serde_json::from_str(c["decoded"].as_str().unwrap()).unwrap();
                let want = project_go(endpoint, &decoded);
                if g != want {
                    failures.push(format!(
                        "{id}: decoded differs\n  body {text}\n  want {want}\n  got  {g}"
                    ));
                }
            }
            (Ok(_), Some(want)) => {
                failures.push(format!("{id}: decoded, Go refuses: {want}\n  body {text}"))
            }
            (Err(e), None) => {
                failures.push(format!("{id}: refused ({e}), Go decodes\n  body {text}"))
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} bodies differ ({skipped} raw bodies, {duplicates} with repeated keys skipped):\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(checked >= 300, "only {checked}");
    eprintln!("{checked} bodies equal ({errors} errors), {skipped} raw bodies and {duplicates} with repeated keys skipped");
}
