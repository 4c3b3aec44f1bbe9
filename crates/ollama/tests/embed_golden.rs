//! `/api/embed` and `/api/embeddings` against `tests/golden/embed.jsonl`,
//! recorded from Ollama v0.33.0-rc2's own `EmbedHandler` and
//! `EmbeddingsHandler` (`tests/golden/README.md`) over a fake
//! runner whose tokenizer is libllama's: every answer's status and error
//! text, `prompt_eval_count` and the embeddings' lengths equal, and for each
//! input of an `/api/embed` request (recorded alone) its status, error,
//! token count and the text the runner was sent.
//!
//! The tokenizer here answers from what the recording asked of libllama
//! (`/tokenize`, `/detokenize` and `/v1/embeddings`' tokens): a text the
//! recording never tokenized is a divergence, and fails.

use std::collections::HashMap;

use ollama::embed::{self, EmbedKv, EmbedTokens, ModelInfo, Route};
use serde_json::{json, Map, Value};

fn golden() -> Vec<Value> {
    let path = std::path::PathBuf::from(
        std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR at run time"),
    )
    .join("tests/golden/embed.jsonl");
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[derive(Default)]
struct Recorded {
    tokenize: HashMap<String, Vec<u32>>,
    special: HashMap<String, Vec<u32>>,
    detokenize: HashMap<Vec<u32>, String>,
}

fn ids(v: &Value) -> Vec<u32> {
    v.as_array()
        .map(|a| a.iter().map(|x| x.as_u64().unwrap() as u32).collect())
        .unwrap_or_default()
}

impl Recorded {
    fn learn(&mut self, calls: &Value) {
        for c in calls.as_array().into_iter().flatten() {
            let text = c["text"].as_str().unwrap_or("").to_string();
            match c["op"].as_str().unwrap() {
                "tokenize" => {
                    self.tokenize.insert(text, ids(&c["tokens"]));
                }
                "embedding" => {
                    if c.get("special").is_some() || c["status"] == 200 {
                        self.special.insert(text, ids(&c["special"]));
                    }
                }
                "detokenize" => {
                    self.detokenize
                        .insert(ids(&c["tokens"]), c["out"].as_str().unwrap().to_string());
                }
                op => panic!("unknown op {op}"),
            }
        }
    }
}

impl EmbedTokens for Recorded {
    fn tokenize(&self, text: &str) -> Result<Vec<u32>, String> {
        self.tokenize
            .get(text)
            .cloned()
            .ok_or_else(|| format!("not recorded: /tokenize of {text:?}"))
    }
    fn detokenize(&self, tokens: &[u32]) -> Result<String, String> {
        self.detokenize
            .get(tokens)
            .cloned()
            .ok_or_else(|| format!("not recorded: /detokenize of {tokens:?}"))
    }
    fn embed_tokens(&self, text: &str) -> Result<Vec<u32>, String> {
        self.special
            .get(text)
            .cloned()
            .ok_or_else(|| format!("not recorded: /v1/embeddings of {text:?}"))
    }
}

/// The golden's `kv` (`[type, value]` per key) as GGUF lookups.
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

fn request_of(g: &Value) -> Value {
    let mut body: Value = serde_json::from_str(g["body"].as_str().unwrap()).unwrap();
    // the model's PARAMETERs under the request's options, as a case holds them
    if let (Some(Value::Object(params)), Some(o)) = (g.get("params"), body.as_object_mut()) {
        let mut options: Map<String, Value> = params.clone();
        if let Some(Value::Object(asked)) = o.get("options") {
            for (k, v) in asked {
                options.insert(k.clone(), v.clone());
            }
        }
        o.insert("options".into(), Value::Object(options));
    }
    body
}

#[test]
fn embedding_handlers_answer_as_ollama() {
    let cases = golden();
    assert!(cases.len() >= 100, "{} cases", cases.len());
    let mut failures = Vec::new();
    let mut inputs_checked = 0;
    for g in &cases {
        let id = g["id"].as_str().unwrap();
        let route = match g["route"].as_str().unwrap() {
            "embed" => Route::Embed,
            _ => Route::Embeddings,
        };
        let mut tk = Recorded::default();
        tk.learn(&g["calls"]);
        for i in g["inputs"].as_array().into_iter().flatten() {
            tk.learn(&i["calls"]);
        }
        let kv = kv_of(&g["kv"]);
        let info = ModelInfo {
            capabilities: &[],
            params: None,
        };
        let out = embed::embed(route, &request_of(g), &info, Some(&kv), Some(&tk), 4096);
        let status = g["status"].as_u64().unwrap() as u16;
        let got = if out.unsupported.is_some() {
            json!({"status": 502, "error": "promptscope-recorder: proxied to the cloud"})
        } else if let Some((s, e)) = &out.error {
            json!({"status": s, "error": e})
        } else {
            json!({"status": 200, "response": out.answer_shape()})
        };
        let want = if status == 200 {
            json!({"status": 200, "response": g["response"]})
        } else {
            json!({"status": status, "error": g["error"]})
        };
        if got != want {
            failures.push(format!("{id}:\n  want {want}\n  got  {got}"));
            continue;
        }
        // each input alone
        let Some(traces) = g["inputs"].as_array() else {
            continue;
        };
        if out.inputs.len() != traces.len() {
            continue;
        }
        for (inp, t) in out.inputs.iter().zip(traces) {
            inputs_checked += 1;
            let sent = t["calls"]
                .as_array()
                .unwrap()
                .iter()
                .rev()
                .find(|c| c["op"] == "embedding")
                .map(|c| c["text"].clone())
                .unwrap_or(Value::Null);
            let want = json!({
                "status": t["status"],
                "error": t["error"],
                "count": if t["status"] == 200 { t["prompt_eval_count"].clone() } else { Value::Null },
                "sent": sent,
            });
            let got = json!({
                "status": inp.error.as_ref().map_or(200, |e| e.0),
                "error": inp.error.as_ref().map(|e| e.1.clone()),
                "count": inp.count,
                "sent": inp.sent,
            });
            if got != want {
                failures.push(format!(
                    "{id} input {}:\n  want {want}\n  got  {got}\n  steps {:?}",
                    inp.index, inp.steps
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
    assert!(inputs_checked >= 60, "{inputs_checked} inputs checked");
    eprintln!("{} cases, {inputs_checked} inputs alone", cases.len());
}
