//! Ollama's TestNamed: each GGUF chat template of
//! `template/testdata/templates.jsonl` maps to its expected built-in name.

use std::path::PathBuf;

use ollama::named::{named, parse_index};

fn dir() -> PathBuf {
    testkit::ollama_templates()
}

#[test]
fn shared_upstream_named_cases() {
    let known = parse_index(&std::fs::read_to_string(dir().join("index.json")).unwrap()).unwrap();
    assert_eq!(known.len(), 37);
    let text = std::fs::read_to_string(dir().join("testdata/templates.jsonl")).unwrap();
    let mut n = 0;
    for line in text.lines() {
        let v: serde_json::Map<String, serde_json::Value> = serde_json::from_str(line).unwrap();
        for (expected, template) in v {
            let m = named(template.as_str().unwrap(), &known).unwrap();
            assert_eq!(m.name, expected, "distance {}", m.distance);
            n += 1;
        }
    }
    assert_eq!(n, 35);
    assert_eq!(
        named("something else entirely", &known).unwrap_err(),
        "no matching template found"
    );
}
