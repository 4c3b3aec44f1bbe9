//! The Go corpus (`tests/corpus/golden/gotemplate.jsonl`, recorded
//! from Go 1.27) and our own recorded cases (`tests/golden/extra.jsonl`):
//! every case must give Go's exact output, or Go's exact error and partial
//! output.

use std::path::PathBuf;

use gotmpl::{Template, Value};

fn corpus_dir() -> PathBuf {
    testkit::corpus("golden")
}

/// Runs one case; returns a description of the mismatch, if any.
fn run_case(case: &serde_json::Value) -> Option<String> {
    let id = case["id"].as_str().unwrap_or("?");
    let template = case["template"].as_str().unwrap_or("");
    let data = Value::from_json_value(&case["data"]);
    let expect = &case["expect"];
    let mut builder = Template::new("t");
    if let Some(d) = case.get("delims").and_then(|d| d.as_array()) {
        builder = builder.delims(d[0].as_str().unwrap_or(""), d[1].as_str().unwrap_or(""));
    }
    if let Some(opts) = case.get("options").and_then(|o| o.as_array()) {
        for o in opts {
            builder = match builder.option(o.as_str().unwrap_or("")) {
                Ok(b) => b,
                Err(e) => return Some(format!("{id}: bad option: {e}")),
            };
        }
    }
    let got = match builder.parse(template) {
        Err(e) => serde_json::json!({"error": e.to_string()}),
        Ok(t) => match t.execute(&data) {
            Ok(out) => serde_json::json!({"output": out}),
            Err(e) => serde_json::json!({"error": e.to_string(), "partial": e.partial}),
        },
    };
    if &got != expect {
        return Some(format!(
            "{id}\n  template: {template:?}\n  expected: {expect}\n  got:      {got}"
        ));
    }
    None
}

/// Cases that cannot match, each explained in COMPATIBILITY.md: Go strings
/// may hold bytes that are not UTF-8 (`"\xff"`), Rust strings cannot. The
/// test checks that these still differ, so a fix shows up here.
const KNOWN_DIVERGENCES: &[&str] = &[
    "x-lex/string-invalid-utf8-html",
    "x-lex/string-invalid-utf8-js",
    "x-lex/string-invalid-utf8-len",
    "x-lex/string-invalid-utf8-printf-x",
    "x-lex/string-invalid-utf8-q",
    "x-lex/string-invalid-utf8-urlquery",
];

fn run_file(path: &std::path::Path) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut failures = Vec::new();
    let mut total = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let case: serde_json::Value = serde_json::from_str(line).expect("valid JSON line");
        total += 1;
        let id = case["id"].as_str().unwrap_or("");
        let result = run_case(&case);
        if KNOWN_DIVERGENCES.contains(&id) {
            assert!(
                result.is_some(),
                "{id} now matches Go: remove it from KNOWN_DIVERGENCES and COMPATIBILITY.md"
            );
            eprintln!("known divergence (COMPATIBILITY.md): {id}");
            continue;
        }
        if let Some(f) = result {
            failures.push(f);
        }
    }
    if !failures.is_empty() {
        let shown: Vec<&String> = failures.iter().take(100).collect();
        panic!(
            "{} of {} cases of {} differ from Go:\n{}",
            failures.len(),
            total,
            path.display(),
            shown
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
    eprintln!("{}: {total} cases match Go", path.display());
}

/// Go's recursion limits need a deep stack, as Go's growable stacks give it.
fn on_big_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn gotemplate_corpus() {
    on_big_stack(|| run_file(&corpus_dir().join("gotemplate.jsonl")));
}

#[test]
fn recorded_extra_corpus() {
    let path = std::path::PathBuf::from(
        std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR at run time"),
    )
    .join("tests/golden/extra.jsonl");
    on_big_stack(move || run_file(&path));
}
