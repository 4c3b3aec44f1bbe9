//! What a real llama-server reuses across the turns of a conversation with
//! Gemma 3 270M (sliding-window attention) and a tiny Mamba (recurrent),
//! against
//! `tests/golden/slot-<build>.jsonl` (tools/slot-goldens/record.py): every
//! request's `cache_n` and `prompt_n`, for each recorded build.

use changes::llamacpp::Build;
use changes::Rules;
use serde_json::Value;
use slot::{Delimiter, Memory, Params, Role, Slot, Spans};

fn golden(build: &str) -> Vec<Value> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(format!("slot-{build}.jsonl"));
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn ids(v: &Value) -> Vec<u32> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_u64().unwrap() as u32)
        .collect()
}

fn check(build: &str) -> (usize, usize) {
    let b = Build::parse(&std::env::var("AS_BUILD").unwrap_or(build.to_string())).unwrap();
    let (mut turns, mut restored) = (0, 0);
    for conv in golden(build) {
        let id = conv["id"].as_str().unwrap();
        let num_ctx = conv["num_ctx"].as_u64().unwrap() as u32;
        let delimiters: Vec<Delimiter> = conv["delimiters"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| Delimiter {
                role: Role::parse(d["role"].as_str().unwrap()),
                tokens: ids(&d["tokens"]),
            })
            .collect();
        let rules = Rules::new(b);
        let mut s = Slot::new(
            Params::ollama(num_ctx, 512),
            Memory::of(
                conv["arch"].as_str().unwrap(),
                conv["sliding_window"].as_u64(),
                None,
            ),
            &rules,
        );
        for (k, r) in conv["requests"].as_array().unwrap().iter().enumerate() {
            let prompt = ids(&r["prompt"]);
            let spans = Spans::find(&prompt, &delimiters);
            let o = s.request(&prompt, &spans, true).unwrap();
            assert_eq!(
                (o.cache_n as u64, (prompt.len() - o.cache_n) as u64),
                (
                    r["cache_n"].as_u64().unwrap(),
                    r["prompt_n"].as_u64().unwrap()
                ),
                "{build} {id} request {k}: {o:?}"
            );
            restored += usize::from(o.restored.is_some());
            s.generate(&ids(&r["generated"])).unwrap();
            turns += 1;
        }
    }
    (turns, restored)
}

#[test]
fn windowed_and_recurrent_models_reuse_what_llama_server_b10488_reuses() {
    let (turns, restored) = check("b10488");
    assert!(turns >= 250, "{turns}");
    assert!(restored > 0, "some turns restore a checkpoint");
}

#[test]
fn windowed_and_recurrent_models_reuse_what_llama_server_b11312_reuses() {
    let (turns, restored) = check("b11312");
    assert!(turns >= 250, "{turns}");
    assert!(restored > 0, "some turns restore a checkpoint");
}

#[test]
fn windowed_and_recurrent_models_reuse_what_llama_server_b9781_reuses() {
    // Ollama v0.30.11's build: a batch break before every user message, no
    // spacing eviction, only the last user message exempt from the spacing
    let (turns, restored) = check("b9781");
    assert!(turns >= 250, "{turns}");
    assert!(restored > 0, "some turns restore a checkpoint");
}
