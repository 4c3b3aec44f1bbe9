//! The Modelfile parser against `tests/golden/modelfile.jsonl`, recorded
//! from Ollama v0.33.0-rc2's own `ParseFile` (`tests/golden/README.md`):
//! the inputs of parser/parser_test.go and 400 generated
//! Modelfiles, errors included. Commands, `Modelfile.String()`, what
//! `CreateRequest` makes of them and error texts all equal.

use base64::Engine as _;
use serde_json::{json, Value};

/// The request as the recorder writes it (Go's `omitempty` fields), floats
/// compared as float32.
fn create_json(r: &store::create::CreateRequest) -> Value {
    let mut o = serde_json::Map::new();
    let mut put = |k: &str, v: Value| {
        let empty = match &v {
            Value::String(s) => s.is_empty(),
            Value::Array(a) => a.is_empty(),
            Value::Object(m) => m.is_empty(),
            _ => false,
        };
        if !empty {
            o.insert(k.into(), v);
        }
    };
    put("from", json!(r.from));
    put("template", json!(r.template));
    put("system", json!(r.system));
    put("license", json!(r.license));
    put("renderer", json!(r.renderer));
    put("parser", json!(r.parser));
    put("requires", json!(r.requires));
    put(
        "messages",
        Value::Array(
            r.messages
                .iter()
                .map(|m| json!({"role": m.role, "content": m.content}))
                .collect(),
        ),
    );
    put("parameters", Value::Object(r.parameters.clone()));
    Value::Object(o)
}

#[test]
fn the_parser_is_ollamas() {
    let path = std::path::PathBuf::from(
        std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR at run time"),
    )
    .join("tests/golden/modelfile.jsonl");
    let text = std::fs::read_to_string(path).unwrap();
    let (mut ok, mut errors, mut from_tests) = (0, 0, 0);
    let (mut creates, mut create_errors) = (0, 0);
    for line in text.lines() {
        let c: Value = serde_json::from_str(line).unwrap();
        let id = c["id"].as_str().unwrap();
        let data = base64::engine::general_purpose::STANDARD
            .decode(c["b64"].as_str().unwrap())
            .unwrap();
        let e = &c["expect"];
        from_tests += id.starts_with("parser_test/") as usize;
        match store::modelfile::parse(&data) {
            Ok(f) => {
                assert!(e["error"].is_null(), "{id}: Ollama says {}", e["error"]);
                let got: Vec<Value> = f.commands.iter().map(|c| json!([c.name, c.args])).collect();
                assert_eq!(Value::Array(got), e["commands"], "{id}");
                assert_eq!(f.to_string(), e["string"].as_str().unwrap(), "{id}");
                ok += 1;
                // What `ollama create` makes of it (none recorded for files
                // with ADAPTER or DRAFT: Ollama reads those files).
                if e["create"].is_null() && e["create_error"].is_null() {
                    assert!(
                        f.commands
                            .iter()
                            .any(|c| c.name == "adapter" || c.name == "draft"),
                        "{id}: nothing recorded"
                    );
                    continue;
                }
                match f.create_request() {
                    Err(err) => {
                        assert_eq!(Some(err.as_str()), e["create_error"].as_str(), "{id}");
                        create_errors += 1;
                    }
                    Ok(r) => {
                        assert!(
                            e["create_error"].is_null(),
                            "{id}: Ollama says {}",
                            e["create_error"]
                        );
                        assert_eq!(create_json(&r), e["create"], "{id}");
                        creates += 1;
                    }
                }
            }
            Err(err) => {
                assert_eq!(Some(err.to_string().as_str()), e["error"].as_str(), "{id}");
                errors += 1;
            }
        }
    }
    assert!(
        ok >= 150 && errors >= 50 && from_tests >= 40,
        "{ok} parsed, {errors} errors, {from_tests} from parser_test.go"
    );
    assert!(
        creates >= 150 && create_errors >= 40,
        "{creates} requests, {create_errors} errors"
    );
}
