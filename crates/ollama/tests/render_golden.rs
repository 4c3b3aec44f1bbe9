//! `tests/corpus/golden/render.jsonl`, recorded from Ollama's own code:
//! every case must give the exact prompt or the exact error.

use std::path::PathBuf;

use ollama::case::RenderCase;

fn golden(name: &str) -> PathBuf {
    testkit::corpus("golden").join(name)
}

fn run(filter: impl Fn(&serde_json::Value) -> bool) -> (usize, Vec<String>) {
    let text = std::fs::read_to_string(golden("render.jsonl")).unwrap();
    let mut n = 0;
    let mut failures = Vec::new();
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        if !filter(&v) {
            continue;
        }
        n += 1;
        let case = RenderCase::from_json(&v).unwrap();
        let got = match case.render(None) {
            Ok(r) => serde_json::json!({"prompt": r.prompt.unwrap_or_default()}),
            Err(f) => serde_json::json!({"error": f.message}),
        };
        if !same_outcome(&got, &v["expect"]) {
            failures.push(format!(
                "{}\n  expected: {}\n  got:      {}",
                v["id"], v["expect"], got
            ));
        }
    }
    (n, failures)
}

fn uses_go_template(v: &serde_json::Value) -> bool {
    let m = &v["model"];
    m.get("renderer").is_none() && m.get("parser").is_none()
}

#[test]
fn renderer_and_parser_cases() {
    let (n, failures) = run(|v| !uses_go_template(v));
    assert!(n > 200, "{n}");
    assert!(
        failures.is_empty(),
        "{} of {n} cases differ:\n{}",
        failures.len(),
        failures
            .iter()
            .take(40)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn every_case_is_checked() {
    let (all, _) = run(|_| false);
    let (tmpl, _) = run(uses_go_template);
    let (rest, _) = run(|v| !uses_go_template(v));
    assert_eq!(all, 0);
    assert_eq!(tmpl + rest, 1884);
}

#[test]
fn go_template_cases() {
    let (n, failures) = run(uses_go_template);
    assert!(n > 1500, "{n}");
    assert!(
        failures.is_empty(),
        "{} of {n} cases differ:\n{}",
        failures.len(),
        failures
            .iter()
            .take(40)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

fn run_file(path: &std::path::Path) -> (usize, Vec<String>) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut n = 0;
    let mut failures = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let mut v: serde_json::Value = serde_json::from_str(line).unwrap();
        if let Some(file) = v["model"]["chat_template_file"].as_str() {
            v["model"]["chat_template"] = testkit::llama_template(file).into();
        }
        n += 1;
        let case = RenderCase::from_json(&v).unwrap();
        let result = case.render(None);
        // The goldens record what llama-server renders. A request with tools
        // for a chat template that never mentions tools is rejected by
        // Ollama before rendering; check that instead.
        let has_tools = v["request"]["tools"]
            .as_array()
            .is_some_and(|t| !t.is_empty());
        let template = v["model"]["chat_template"].as_str().unwrap_or("");
        if has_tools && !ollama::model::chat_template_has_tools(template) {
            match result {
                Err(f)
                    if f.message
                        == "registry.ollama.ai/library/demo:latest does not support tools" => {}
                other => failures.push(format!(
                    "{}: expected Ollama's tools rejection, got {:?}",
                    v["id"],
                    other.map(|r| r.prompt)
                )),
            }
            continue;
        }
        // Likewise `think` on a chat template Ollama does not see thinking in.
        let think = &v["request"]["think"];
        let thinks = think.as_bool() == Some(true) || think.is_string();
        if thinks && !ollama::model::chat_template_has_thinking(template) {
            match result {
                Err(f) if f.message == "\"demo\" does not support thinking" => {}
                other => failures.push(format!(
                    "{}: expected Ollama's thinking rejection, got {:?}",
                    v["id"],
                    other.map(|r| r.prompt)
                )),
            }
            continue;
        }
        let got = match result {
            Ok(r) => serde_json::json!({"prompt": r.prompt.unwrap_or_default()}),
            Err(f) => serde_json::json!({"error": f.message}),
        };
        if !same_outcome(&got, &v["expect"]) {
            failures.push(format!(
                "{}\n  expected: {}\n  got:      {}",
                v["id"], v["expect"], got
            ));
        }
    }
    (n, failures)
}

/// Equal outcomes. A native-mode `expect.error` pins only llama.cpp's
/// `Jinja Exception: <msg>` (corpus README): Ollama answers with
/// llama-server's error body, whose message ends with it.
fn same_outcome(got: &serde_json::Value, want: &serde_json::Value) -> bool {
    if let (Some(g), Some(w)) = (got["error"].as_str(), want["error"].as_str()) {
        if g == w {
            return true;
        }
        let body: serde_json::Value = serde_json::from_str(g).unwrap_or_default();
        return body["error"]["message"]
            .as_str()
            .is_some_and(|m| m.ends_with(&format!("\nError: {w}")));
    }
    got == want
}

/// The GGUF chat template (native mode) goldens, through the whole pipeline:
/// the model has a chat template and no TEMPLATE, so Ollama selects it.
#[test]
fn native_mode_cases_through_the_pipeline() {
    for path in [
        golden("jinja.jsonl"),
        std::path::PathBuf::from(
            std::env::var_os("CARGO_MANIFEST_DIR")
                .expect("cargo sets CARGO_MANIFEST_DIR at run time"),
        )
        .join("tests/golden/jinja-extra.jsonl"),
    ] {
        let (n, failures) = run_file(&path);
        assert!(n >= 228, "{n}");
        assert!(
            failures.is_empty(),
            "{} of {n} cases of {} differ:\n{}",
            failures.len(),
            path.display(),
            failures
                .iter()
                .take(20)
                .cloned()
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
}
