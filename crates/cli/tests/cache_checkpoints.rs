//! The cache view of a model whose memory llama-server can only take back
//! to a context checkpoint (`crates/slot`, checked against real servers in
//! `crates/slot/tests/golden_slot.rs`): Gemma 3 270M, sliding window 512,
//! in native mode, as `promptscope cache` and `render --json` give it.

mod common;

use common::run;
use serde_json::{json, Value};

fn gemma() -> String {
    let p = testkit::model_cache().join("gemma-3-270m-q4_k_m.gguf");
    assert!(
        p.exists(),
        "missing {}: run `bash scripts/fetch-models.sh`",
        p.display()
    );
    p.to_str().unwrap().to_string()
}

/// A Gemma-style chat template (the GGUF has none), as the slot goldens
/// were recorded with.
const GEMMA_TEMPLATE: &str = "{{ bos_token }}{% for m in messages %}{% if m.role == 'assistant' %}{% set r = 'model' %}{% else %}{% set r = m.role %}{% endif %}<start_of_turn>{{ r }}\n{{ m.content | trim }}<end_of_turn>\n{% endfor %}{% if add_generation_prompt %}<start_of_turn>model\n{% endif %}";

fn chat(model: &str, release: Option<&str>) -> Value {
    let mut c = json!({"id": "g", "endpoint": "chat", "date": "2026-12-05",
        "model": {"gguf": model, "chat_template": GEMMA_TEMPLATE},
        "request": {"model": "g", "messages": [
            {"role": "user", "content": "What is the capital of France?"},
            {"role": "assistant", "content": "Paris."},
            {"role": "user", "content": "And of Italy?"},
            {"role": "assistant", "content": "Rome."},
            {"role": "user", "content": "Thanks"}]}});
    if let Some(r) = release {
        c["ollama"] = json!(r);
    }
    c
}

fn cache(case: &Value) -> Vec<Value> {
    let (code, out, err) = run(&["cache"], &case.to_string());
    assert_eq!(code, 0, "{err}");
    out.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn a_short_gemma3_conversation_goes_back_to_the_checkpoint_before_the_end() {
    let turns = cache(&chat(&gemma(), None));
    assert_eq!(turns.len(), 2);
    for t in &turns {
        let c = &t["checkpoints"];
        assert_eq!(c["memory"], "sliding-window attention (n_swa 512)", "{t}");
        // within the window, the lowest position (0) never falls below the
        // threshold (0): the newest checkpoint at or before the cached
        // prefix's end serves, the one made 4 tokens before the previous
        // prompt's end; its last position is the prefix llama-server keeps
        let restored = &c["restored"];
        let prev = t["previous_tokens"].as_u64().unwrap();
        assert_eq!(restored["n_tokens"].as_u64().unwrap(), prev - 4, "{t}");
        assert_eq!(t["cache_n"].as_u64().unwrap(), prev - 5, "{t}");
        assert!(t["cache_n"].as_u64().unwrap() < t["common_prefix"].as_u64().unwrap());
        assert_eq!(
            t["prompt_n"].as_u64().unwrap() + t["cache_n"].as_u64().unwrap(),
            t["tokens"].as_u64().unwrap()
        );
        // the handler's delimiters: the user messages' starts in the new prompt
        let starts = c["user_starts"].as_array().unwrap();
        assert_eq!(
            starts.len(),
            (t["messages"].as_u64().unwrap() as usize).div_ceil(2),
            "{t}"
        );
        assert_eq!(starts[0], 1, "{t}");
        let rows: Vec<&str> = t["release_rules"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["id"].as_str().unwrap())
            .collect();
        assert!(rows.contains(&"checkpoint_evict_spaced"), "{rows:?}");
        assert!(c["why"]
            .as_str()
            .unwrap()
            .contains("restored the checkpoint"));
    }
    // the second turn's slot holds the first turn's checkpoints too
    assert!(turns[1]["checkpoints"]["held"].as_array().unwrap().len() >= 2);
}

#[test]
fn render_json_shows_the_delimiters_and_the_last_turns_checkpoints() {
    let case = chat(&gemma(), None);
    let (code, out, err) = run(&["render", "--json"], &case.to_string());
    assert_eq!(code, 0, "{err}");
    let j: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        j["explain"]["message_delimiters"],
        json!([
            {"role": "assistant", "delimiter": "<start_of_turn>model"},
            {"role": "user", "delimiter": "<start_of_turn>user"}
        ]),
        "{}",
        j["explain"]
    );
    assert!(
        j["cache"]["checkpoints"]["restored"].is_object(),
        "{}",
        j["cache"]
    );
}

#[test]
fn a_full_attention_model_needs_no_checkpoint() {
    let smollm2 = testkit::smollm2();
    let mut case = chat(smollm2.to_str().unwrap(), None);
    case["model"]
        .as_object_mut()
        .unwrap()
        .remove("chat_template");
    let turns = cache(&case);
    assert_eq!(turns.len(), 2);
    for t in &turns {
        assert!(t.get("checkpoints").is_none(), "{t}");
    }
}

#[test]
fn before_b9981_the_first_requests_checkpoints_stay_and_serve() {
    // Ollama v0.30.0 runs b9452: no spacing eviction, a batch break before
    // every user message; the short conversation still goes back to the
    // previous prompt's last checkpoint
    let turns = cache(&chat(&gemma(), Some("0.30.0")));
    let rows: Vec<String> = turns[1]["release_rules"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["id"] == "checkpoint_evict_spaced")
        .map(|r| r["in_effect"].to_string())
        .collect();
    assert_eq!(rows, ["false"]);
    let held = turns[1]["checkpoints"]["held"].as_array().unwrap();
    // request 1's checkpoints are still held at the third request
    assert!(held.iter().any(|c| c["request"] == 1), "{held:?}");
}
