//! Model names against `tests/golden/names.jsonl`, recorded from Ollama's
//! own types/model package (`tests/golden/README.md`): the names
//! of name_test.go and generated ones (hosts with ports and schemes,
//! `hf.co/...`, `-cloud` tags, over-long and empty parts, `..`, NUL).
//! `ParseName`, `ParseNameBare`, `IsValid`, `String`, `DisplayShortest`,
//! `Filepath`, `ParseNameFromFilepath` and `EqualFold` all equal, and
//! internal/modelref's `ParseRef`, `StripCloudSourceTag`,
//! `NormalizePullName` and `HasExplicitTag` (the `:cloud`, `:local` and
//! `-cloud` rules).

use ollama::model::Name;
use serde_json::{json, Value};

fn parts(n: &Name) -> Value {
    json!({"host": n.host, "namespace": n.namespace, "model": n.model, "tag": n.tag, "scheme": n.scheme})
}

#[test]
fn names_are_ollamas() {
    let path = std::path::PathBuf::from(
        std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR at run time"),
    )
    .join("tests/golden/names.jsonl");
    let text = std::fs::read_to_string(path).unwrap();
    let (mut valid, mut all, mut cloud_refs) = (0, 0, 0);
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
        let r = &c["ref"];
        match ollama::modelref::parse_ref(s) {
            Ok(p) => {
                assert_eq!(json!(p.base), r["base"], "{s:?}");
                assert_eq!(json!(p.source as u8), r["source"], "{s:?}");
            }
            Err(e) => assert_eq!(json!(e), r["error"], "{s:?}"),
        }
        let (stripped, cloud) = ollama::modelref::strip_cloud_source_tag(s);
        assert_eq!(json!([stripped, cloud]), r["strip"], "{s:?}");
        match ollama::modelref::normalize_pull_name(s) {
            Ok((pull, cloud)) => assert_eq!(json!([pull, cloud]), r["pull"], "{s:?}"),
            Err(e) => assert_eq!(json!(e), r["pull_error"], "{s:?}"),
        }
        assert_eq!(
            json!(ollama::modelref::has_explicit_tag(s)),
            r["explicit_tag"],
            "{s:?}"
        );
        cloud_refs += usize::from(r["source"] == 2);
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
    assert!(cloud_refs >= 15, "{cloud_refs} cloud references");
}
