//! The embedding goldens (`crates/ollama/tests/golden/embed.jsonl`, from
//! Ollama's handlers over libllama's tokenizer) with Promptscope's own
//! tokenizer on the same vocabularies (bert-bge's WordPiece, nomic-bert-moe's
//! Unigram, phi-3's SentencePiece, as `Gguf::read` loads them for Ollama's
//! runner): every `/tokenize`, `/detokenize` and `/v1/embeddings`
//! tokenization the recording made gives the same tokens and text, and every
//! case the same answer, token counts and text sent to the runner.

use std::collections::HashMap;

use engine::gguf::Gguf;
use ollama::cache::PromptTokens;
use ollama::embed::{self, EmbedKv, EmbedTokens, ModelInfo, Route};
use serde_json::{json, Value};

fn golden() -> Vec<Value> {
    std::fs::read_to_string(testkit::repo_root().join("crates/ollama/tests/golden/embed.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn ids(v: &Value) -> Vec<u32> {
    v.as_array()
        .map(|a| a.iter().map(|x| x.as_u64().unwrap() as u32).collect())
        .unwrap_or_default()
}

fn kv_of(spec: &Value) -> EmbedKv {
    let spec = spec.as_object().unwrap();
    EmbedKv::from_lookup(|k| {
        let tv = spec.get(k)?;
        let t = match tv[0].as_str().unwrap() {
            "str" => "string",
            other => other,
        };
        Some((t.to_string(), tv[1].clone()))
    })
}

#[test]
fn promptscopes_tokenizer_gives_the_recorded_embedding_answers() {
    let mut vocabs: HashMap<String, Gguf> = HashMap::new();
    let mut failures = Vec::new();
    let (mut calls, mut cases) = (0, 0);
    for g in golden() {
        let id = g["id"].as_str().unwrap().to_string();
        let path = g["vocab"].as_str().unwrap().to_string();
        let vocab = vocabs.entry(path.clone()).or_insert_with(|| {
            let f = std::fs::File::open(testkit::recorded_path(&path)).unwrap();
            Gguf::read(f, &path).unwrap()
        });
        // every runner call the recording made
        let mut all: Vec<&Value> = g["calls"].as_array().into_iter().flatten().collect();
        for i in g["inputs"].as_array().into_iter().flatten() {
            all.extend(i["calls"].as_array().into_iter().flatten());
        }
        for c in all {
            calls += 1;
            let text = c["text"].as_str().unwrap_or("");
            let (want, got) = match c["op"].as_str().unwrap() {
                "tokenize" => (
                    json!(ids(&c["tokens"])),
                    json!(vocab.text_tokens(text).unwrap()),
                ),
                "embedding" if c.get("special").is_some() => (
                    json!(ids(&c["special"])),
                    json!(vocab.prompt_tokens(text).unwrap()),
                ),
                "detokenize" => (
                    c["out"].clone(),
                    json!(EmbedTokens::detokenize(vocab, &ids(&c["tokens"])).unwrap()),
                ),
                _ => continue,
            };
            if want != got {
                failures.push(format!("{id}: {c}\n  got {got}"));
            }
        }
        // the case through the handler with the real tokenizer
        cases += 1;
        let route = match g["route"].as_str().unwrap() {
            "embed" => Route::Embed,
            _ => Route::Embeddings,
        };
        let mut body: Value = serde_json::from_str(g["body"].as_str().unwrap()).unwrap();
        if let (Some(Value::Object(params)), Some(o)) = (g.get("params"), body.as_object_mut()) {
            let mut options = params.clone();
            if let Some(Value::Object(asked)) = o.get("options") {
                options.extend(asked.clone());
            }
            o.insert("options".into(), Value::Object(options));
        }
        let kv = kv_of(&g["kv"]);
        let info = ModelInfo {
            capabilities: &[],
            params: None,
        };
        let out = embed::embed(route, &body, &info, Some(&kv), Some(&*vocab), 4096);
        let got = match (&out.error, &out.unsupported) {
            (Some((s, e)), _) => json!([s, e]),
            (None, Some(_)) => json!([502, "promptscope-recorder: proxied to the cloud"]),
            (None, None) => json!([200, out.answer_shape()]),
        };
        let want = match g["status"].as_u64().unwrap() {
            200 => json!([200, g["response"]]),
            s => json!([s, g["error"]]),
        };
        if got != want {
            failures.push(format!("{id}:\n  want {want}\n  got  {got}"));
        }
    }
    assert!(cases >= 100 && calls >= 300, "{cases} cases, {calls} calls");
    assert!(
        failures.is_empty(),
        "{} differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    eprintln!("{cases} cases, {calls} runner calls");
}
