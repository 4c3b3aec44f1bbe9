//! Model names against `tests/golden/names.jsonl`, recorded by
//! `tools/name-goldens` from Ollama's own types/model package: the names
//! of name_test.go and generated ones (hosts with ports and schemes,
//! `hf.co/...`, `-cloud` tags, over-long and empty parts, `..`, NUL).
//! `ParseName`, `ParseNameBare`, `IsValid`, `String`, `DisplayShortest`,
//! `Filepath`, `ParseNameFromFilepath` and `EqualFold` all equal.

use ollama::model::Name;
use serde_json::{json, Value};

fn parts(n: &Name) -> Value {
    json!({"host": n.host, "namespace": n.namespace, "model": n.model, "tag": n.tag, "scheme": n.scheme})
}

#[test]
fn names_are_ollamas() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/names.jsonl");
    let text = std::fs::read_to_string(path).unwrap();
    let (mut valid, mut all) = (0, 0);
    for line in text.lines() {
        let c: Value = serde_json::from_str(line).unwrap();
        let s = c["name"].as_str().unwrap();
        let n = Name::parse(s);
        assert_eq!(parts(&n), c["parsed"], "{s:?}");
        assert_eq!(parts(&Name::parse_bare(s)), c["bare"], "{s:?}");
        assert_eq!(json!(n.is_valid()), c["valid"], "{s:?}");
        assert_eq!(json!(n.to_string()), c["string"], "{s:?}");
        assert_eq!(json!(n.display_shortest()), c["short"], "{s:?}");
        assert_eq!(
            json!(n.equal_fold(&Name::parse(&s.to_lowercase()))),
            c["fold"],
            "{s:?}"
        );
        match n.filepath() {
            Some(p) => {
                assert_eq!(json!(p), c["filepath"], "{s:?}");
                assert_eq!(parts(&Name::from_filepath(&p)), c["from_filepath"], "{s:?}");
                valid += 1;
            }
            None => assert!(c["filepath"].is_null(), "{s:?}"),
        }
        all += 1;
    }
    assert!(all >= 500 && valid >= 150, "{all} names, {valid} valid");
}
