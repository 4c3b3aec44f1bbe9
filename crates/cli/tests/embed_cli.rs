//! Embedding cases (`"endpoint": "embed"`, `"embeddings"`,
//! `"openai-embeddings"`) through the `promptscope` binary: the fixture
//! store's embedding model (refused for chat, answered for /api/embed),
//! and the bert-bge vocabulary made an embedding model (its GGUF with a
//! `bert.pooling_type` key added), replaying the recorded goldens of
//! `crates/ollama/tests/golden/embed.jsonl` with Promptscope's tokenizer:
//! the same answers, token counts and texts sent to the runner.

use std::path::PathBuf;
mod common;

use common::run;

use serde_json::{json, Value as Json};

fn json_of(case: &Json) -> (i32, Json) {
    let (code, out, err) = run(&["render", "--json"], &case.to_string());
    let j = serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("{e}: {out} {err}"));
    (code, j)
}

fn store() -> String {
    testkit::repo_root()
        .join("crates/store/tests/fixture/models")
        .to_string_lossy()
        .into_owned()
}

#[test]
fn the_stores_embedding_model_is_refused_for_chat_and_embeds() {
    let chat = json!({"endpoint": "chat", "model": {"store": store(), "name": "embed-mini"},
                      "request": {"model": "embed-mini", "messages": [{"role": "user", "content": "hi"}]}});
    let (code, _, err) = run(&["render"], &chat.to_string());
    assert_eq!(
        (code, err.as_str()),
        (1, "\"embed-mini\" does not support chat\n")
    );

    // Its eight-token vocabulary has no [CLS] where llama.cpp's BERT
    // default BOS (101) would be, so llama.cpp aborts when llama-server
    // adds the special tokens; Ollama's own /tokenize (nothing added) works,
    // and as libllama does, finds no `▁hello` or `▁world`: [UNK] each.
    let embed = json!({"endpoint": "embed", "model": {"store": store(), "name": "embed-mini"},
                       "request": {"model": "embed-mini", "input": ["hello world", "worlds"]}});
    let (code, j) = json_of(&embed);
    assert_eq!(code, 1, "{j}");
    assert!(
        j["unsupported"]
            .as_str()
            .unwrap()
            .contains("GGML_ASSERT(special_bos_id != LLAMA_TOKEN_NULL)"),
        "{j}"
    );
    assert_eq!(j["inputs"][0]["text_tokens"], 2, "hello world: {j}");
    assert_eq!(j["inputs"][1]["text_tokens"], 1, "worlds: {j}");
    // the model's PARAMETER num_ctx 512 and its training context 512
    assert_eq!(j["runner"]["num_ctx"], 512);
    assert_eq!(j["runner"]["context"], 512);
    assert_eq!(j["inputs"][0]["limit"], 510);
    let none = json!({"endpoint": "embed", "model": {"store": store(), "name": "embed-mini"},
                      "request": {"model": "embed-mini", "input": []}});
    let (code, j) = json_of(&none);
    assert_eq!(
        (code, &j["answer"]),
        (0, &json!({"model": "embed-mini", "embeddings": []})),
        "{j}"
    );
}

#[test]
fn the_bge_model_through_each_route() {
    let dir = std::env::temp_dir().join(format!("promptscope-embed-routes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let gguf = bge_embedding_model(&dir);
    let model = json!({"gguf": gguf.to_string_lossy()});
    let embed = json!({"endpoint": "embed", "model": model,
                       "request": {"model": "bge", "input": ["hello world", "Hello, World!"]}});
    let (code, j) = json_of(&embed);
    assert_eq!(code, 0, "{j}");
    assert_eq!(
        j["inputs"][0]["tokens"],
        json!([101, 7592, 2088, 102]),
        "[CLS] hello world [SEP]: {j}"
    );
    assert_eq!(j["prompt_eval_count"], 10);
    assert_eq!(
        j["answer"],
        json!({"model": "bge", "embeddings": [384, 384], "prompt_eval_count": 10})
    );
    // plain output: each text the runner embeds, as a JSON string a line
    let (code, out, _) = run(&["render"], &embed.to_string());
    assert_eq!(
        (code, out.as_str()),
        (0, "\"hello world\"\n\"Hello, World!\"\n")
    );
    // --jsonl: the texts, without a tokenizer
    let (code, out, _) = run(
        &["render", "--jsonl"],
        &json!({"id": 1, "endpoint": "embed", "request": {"model": "bge", "input": "x"}})
            .to_string(),
    );
    assert_eq!(
        (code, out.as_str()),
        (
            0,
            "{\"id\":1,\"runtime\":\"ollama\",\"ollama\":\"0.33.0-rc2\",\"inputs\":[\"x\"]}\n"
        )
    );

    // the legacy route and the OpenAI one
    let legacy = json!({"endpoint": "embeddings", "model": model, "request": {"model": "bge", "prompt": "hello"}});
    let (code, j) = json_of(&legacy);
    assert_eq!((code, &j["answer"]), (0, &json!({"embedding": 384})), "{j}");
    let v1 = json!({"endpoint": "openai-embeddings", "model": model,
                    "request": {"model": "bge", "input": "", "encoding_format": "float", "dimensions": 64}});
    let (code, j) = json_of(&v1);
    assert_eq!(code, 0, "{j}");
    assert_eq!(
        j["api_request"],
        json!({"model": "bge", "input": [""], "dimensions": 64, "options": null})
    );
    assert_eq!(j["inputs"][0]["tokens"], json!([101, 102]));
    assert_eq!(j["answer"]["data"][0]["embedding"], 64);
    assert_eq!(
        j["answer"]["usage"],
        json!({"prompt_tokens": 2, "total_tokens": 2})
    );
    let bad = json!({"endpoint": "openai-embeddings", "model": model,
                     "request": {"model": "bge", "input": [], "encoding_format": "hex"}});
    let (code, j) = json_of(&bad);
    assert_eq!(code, 1);
    assert_eq!(
        j["error"],
        "Invalid value for 'encoding_format' = hex. Supported values: ['float', 'base64']."
    );
    assert_eq!(
        j["body"],
        r#"{"error":{"message":"Invalid value for 'encoding_format' = hex. Supported values: ['float', 'base64'].","type":"invalid_request_error","param":null,"code":null}}"#
    );
    let long = json!({"endpoint": "openai-embeddings", "model": model,
                      "request": {"model": "bge", "input": "a b c", "dimensions": 1.5}});
    let (code, j) = json_of(&long);
    assert_eq!(code, 1);
    assert_eq!(j["error"], "json: cannot unmarshal number 1.5 into Go struct field EmbedRequest.dimensions of type int");
    let _ = std::fs::remove_dir_all(&dir);
}

/// bert-bge's vocabulary GGUF with `bert.pooling_type = 1` added (a
/// vocabulary-only file has no pooling type, so Ollama would not start
/// llama-server with --embedding for it).
fn bge_embedding_model(dir: &std::path::Path) -> PathBuf {
    let bytes = std::fs::read(testkit::llama_cpp("models/ggml-vocab-bert-bge.gguf")).unwrap();
    assert_eq!(&bytes[..4], b"GGUF");
    let kv_count = u64::from_le_bytes(bytes[16..24].try_into().unwrap());
    let mut out = bytes[..16].to_vec();
    out.extend((kv_count + 1).to_le_bytes());
    let key = b"bert.pooling_type";
    out.extend((key.len() as u64).to_le_bytes());
    out.extend(key);
    out.extend(4u32.to_le_bytes()); // GGUF_TYPE_UINT32
    out.extend(1u32.to_le_bytes());
    out.extend(&bytes[24..]);
    let path = dir.join("bert-bge-embed.gguf");
    std::fs::write(&path, out).unwrap();
    path
}

#[test]
fn the_bge_goldens_through_the_binary() {
    let dir = std::env::temp_dir().join(format!("promptscope-embed-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let gguf = bge_embedding_model(&dir);
    let text = std::fs::read_to_string(
        testkit::repo_root().join("crates/ollama/tests/golden/embed.jsonl"),
    )
    .unwrap();
    // the cases whose GGUF facts are bert-bge's own (context 512), pooling added
    let plain = json!({"general.architecture": ["str", "bert"], "bert.embedding_length": ["u32", 8],
                       "bert.context_length": ["u32", 512], "bert.pooling_type": ["u32", 1]});
    let mut checked = 0;
    let mut failures = Vec::new();
    for line in text.lines() {
        let g: Json = serde_json::from_str(line).unwrap();
        if !g["vocab"].as_str().unwrap().ends_with("bert-bge.gguf")
            || g["kv"] != plain
            || g.get("params").is_some()
        {
            continue;
        }
        let case = json!({
            "endpoint": g["route"],
            "model": {"gguf": gguf.to_string_lossy()},
            "request": serde_json::from_str::<Json>(g["body"].as_str().unwrap()).unwrap(),
        });
        let (code, j) = json_of(&case);
        checked += 1;
        let status = g["status"].as_u64().unwrap();
        let legacy = g["route"] == "embeddings";
        let got = if code == 0 {
            json!({"status": 200, "prompt_eval_count": if legacy { None } else { j.get("prompt_eval_count") },
                   "n": j["inputs"].as_array().map_or(0, Vec::len)})
        } else {
            json!({"status": j.get("status").cloned().unwrap_or(json!(502)), "error": j.get("error").or(j.get("unsupported"))})
        };
        let want = if status == 200 {
            let r = &g["response"];
            json!({"status": 200, "prompt_eval_count": r.get("prompt_eval_count").filter(|n| !n.is_null()),
                   "n": r["embeddings"].as_array().map_or(usize::from(r["embedding"] != 0), Vec::len)})
        } else if status == 502 {
            json!({"status": 502, "error": j.get("unsupported")})
        } else {
            json!({"status": status, "error": g["error"]})
        };
        if got != want {
            failures.push(format!("{}:\n  want {want}\n  got  {got}", g["id"]));
            continue;
        }
        // each input: the text sent and its count, as recorded alone
        for (i, t) in g["inputs"].as_array().into_iter().flatten().enumerate() {
            let Some(inp) = j["inputs"].get(i) else { break };
            let sent = t["calls"]
                .as_array()
                .into_iter()
                .flatten()
                .rev()
                .find(|c| c["op"] == "embedding")
                .map(|c| c["text"].clone());
            if inp["sent"] != sent.unwrap_or(Json::Null) {
                failures.push(format!(
                    "{} input {i}: sent {} not {:?}",
                    g["id"], inp["sent"], t["calls"]
                ));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(checked >= 50, "{checked} cases");
    assert!(
        failures.is_empty(),
        "{} differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
