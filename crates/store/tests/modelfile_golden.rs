//! The Modelfile parser against `tests/golden/modelfile.jsonl`, recorded
//! by `tools/modelfile-goldens` from Ollama's own `ParseFile` (copied
//! verbatim): the inputs of parser/parser_test.go and 300 generated
//! Modelfiles, errors included. Commands, `Modelfile.String()` and error
//! texts all equal.

use base64::Engine as _;
use serde_json::{json, Value};

#[test]
fn the_parser_is_ollamas() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/modelfile.jsonl");
    let text = std::fs::read_to_string(path).unwrap();
    let (mut ok, mut errors, mut from_tests) = (0, 0, 0);
    for line in text.lines() {
        let c: Value = serde_json::from_str(line).unwrap();
        let id = c["id"].as_str().unwrap();
        let data = base64::engine::general_purpose::STANDARD
            .decode(c["b64"].as_str().unwrap())
            .unwrap();
        let e = &c["expect"];
        match store::modelfile::parse(&data) {
            Ok(f) => {
                assert!(e["error"].is_null(), "{id}: Ollama says {}", e["error"]);
                let got: Vec<Value> = f.commands.iter().map(|c| json!([c.name, c.args])).collect();
                assert_eq!(Value::Array(got), e["commands"], "{id}");
                assert_eq!(f.to_string(), e["string"].as_str().unwrap(), "{id}");
                ok += 1;
            }
            Err(err) => {
                assert_eq!(Some(err.to_string().as_str()), e["error"].as_str(), "{id}");
                errors += 1;
            }
        }
        from_tests += id.starts_with("parser_test/") as usize;
    }
    assert!(
        ok >= 150 && errors >= 50 && from_tests >= 40,
        "{ok} parsed, {errors} errors, {from_tests} from parser_test.go"
    );
}
