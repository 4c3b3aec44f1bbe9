//! Hugging Face transformers' `apply_chat_template(tokenize=False)`,
//! recorded from transformers 5.25.0 and jinja2 3.1.6 themselves
//! (tools/transformers-goldens/record.py: a real `PreTrainedTokenizerFast`
//! and its `apply_chat_template`) for every chat template of llama.cpp's
//! models/templates (b11312) and of tests/corpus/golden/jinja.jsonl, over
//! ten conversations each (errors included): the prompt, or the exception
//! as Python prints it, must be equal byte for byte. `ONLY=<id prefix>`
//! narrows the run, `SHOW=1` prints every difference.

use std::collections::HashMap;
use std::path::PathBuf;

use runtime::transformers::{render, Model};
use serde_json::{json, Value as Json};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The time a case's `date` (YYYY-MM-DD) stands for: that day, 00:00:00
/// (the recorder's clock), through the calendar Ollama's date code keeps.
fn midnight(date: &str) -> i64 {
    ollama::native::NativeTime::from_date(ollama::date::Date::parse(date).unwrap()).unix()
}

#[test]
fn transformers_goldens() {
    let corpus: HashMap<String, Json> =
        std::fs::read_to_string(root().join("../../tests/corpus/golden/jinja.jsonl"))
            .unwrap()
            .lines()
            .map(|l| {
                let v: Json = serde_json::from_str(l).unwrap();
                (v["id"].as_str().unwrap().to_string(), v["model"].clone())
            })
            .collect();
    let text = std::fs::read_to_string(root().join("tests/golden/transformers.jsonl")).unwrap();
    let only = std::env::var("ONLY").ok();
    let show = std::env::var("SHOW").is_ok();
    let (mut total, mut failed) = (0, Vec::new());
    for line in text.lines() {
        let case: Json = serde_json::from_str(line).unwrap();
        let id = case["id"].as_str().unwrap();
        if only.as_deref().is_some_and(|o| !id.starts_with(o)) {
            continue;
        }
        total += 1;
        let mut model = case["model"].clone();
        let template = if let Some(f) = model.get("chat_template_file").and_then(Json::as_str) {
            testkit::llama_template(f)
        } else {
            let cid = model["corpus_case"].as_str().unwrap();
            corpus[cid]["chat_template"].as_str().unwrap().to_string()
        };
        model["chat_template"] = json!(template);
        let got = render(
            &Model::from_case(&model).unwrap(),
            &case["request"],
            midnight(case["date"].as_str().unwrap()),
        );
        let want = &case["expect"];
        let ok = match (&got, want.get("prompt"), want.get("error")) {
            (Ok(p), Some(Json::String(w)), _) => p == w,
            (Err(e), _, Some(Json::String(w))) => e == w,
            _ => false,
        };
        if !ok {
            if show {
                eprintln!("--- {id}\n  want: {want}\n  got:  {got:?}");
            }
            failed.push(id.to_string());
        }
    }
    assert!(total >= 1000 || only.is_some(), "only {total} cases");
    assert!(
        failed.is_empty(),
        "{} of {total} differ from transformers:\n{}",
        failed.len(),
        failed.join("\n")
    );
}
