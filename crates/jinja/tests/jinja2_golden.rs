//! The Jinja2 dialect against Python's jinja2 3.1.6 in transformers 5.25.0's
//! chat-template environment (recorded by tools/transformers-goldens/
//! record_engine.py): llama.cpp's own test-jinja cases and the generated
//! expression and statement templates, rendered as jinja2 renders them, or
//! failing with jinja2's exception (`TypeName: message`). `SHOW=1` prints
//! every difference.

use std::path::Path;

fn rows(name: &str) -> Vec<serde_json::Value> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name);
    std::fs::read_to_string(p)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// 2026-12-01 00:00:00, the recorder's clock.
const NOW: i64 = 1_796_083_200;

fn outcome(template: &str, vars: &serde_json::Value) -> serde_json::Value {
    let res = jinja::jinja2::compile(template).and_then(|t| jinja::jinja2::render(&t, vars, NOW));
    match res {
        Ok(s) => serde_json::json!({ "got": s }),
        Err(e) => serde_json::json!({ "error": e.message() }),
    }
}

fn check(rows: &[serde_json::Value], vars: Option<&serde_json::Value>) -> Vec<String> {
    let show = std::env::var("SHOW").is_ok();
    let mut bad = Vec::new();
    for (i, r) in rows.iter().enumerate() {
        let t = r["template"].as_str().unwrap();
        let v = vars.unwrap_or(&r["vars"]);
        let got = outcome(t, v);
        if r.get("skip").is_some() {
            continue;
        }
        let want = match (r.get("got"), r.get("error")) {
            (Some(g), _) => serde_json::json!({ "got": g }),
            (_, Some(e)) => serde_json::json!({ "error": e }),
            _ => panic!("row {i} has no outcome"),
        };
        if got != want {
            if show {
                eprintln!("--- row {i}: {t:?}\n  want: {want}\n  got:  {got}");
            }
            bad.push(format!("row {i}"));
        }
    }
    bad
}

#[test]
fn test_jinja_cases_as_jinja2_renders_them() {
    let rows = rows("jinja2-test-jinja.jsonl");
    assert_eq!(rows.len(), 306);
    let bad = check(&rows, None);
    assert!(
        bad.is_empty(),
        "{} of 306 differ: {}",
        bad.len(),
        bad.join(", ")
    );
}

/// How many generated templates agreed when this test was last raised.
const AGREE: usize = 143;

#[test]
fn generated_templates_as_jinja2_renders_them() {
    let rows = rows("jinja2-generated.jsonl");
    assert_eq!(rows.len(), 800);
    let vars: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/generated-vars.json"),
        )
        .unwrap(),
    )
    .unwrap();
    // A ratchet, not yet exactness: most of these generated templates are
    // malformed on purpose, and the dialect does not word jinja2's syntax
    // errors yet (COMPATIBILITY.md). The count that agrees may only grow.
    let bad = check(&rows, Some(&vars));
    let agree = rows.len() - bad.len();
    eprintln!("{agree} of 800 generated templates agree with jinja2");
    assert!(
        agree >= AGREE,
        "only {agree} of 800 agree (was {AGREE}): {}",
        bad.join(", ")
    );
}

#[test]
fn jinja2_behaviours_that_differ_from_llama_cpp() {
    let rows = rows("jinja2-behaviours.jsonl");
    assert_eq!(rows.len(), 103);
    let bad = check(&rows, None);
    assert!(
        bad.is_empty(),
        "{} of 103 differ: {}",
        bad.len(),
        bad.join(", ")
    );
}
