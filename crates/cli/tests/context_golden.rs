//! What num_ctx keeps and what llama-server's cache reuses, against
//! `tests/golden/context.jsonl`, recorded from Ollama's own truncation
//! code (v0.33.0-rc2, run against a real llama-server) and from a real
//! llama-server's timings (`tests/golden/README.md` says how):
//!
//! - `native-truncation`: `promptscope render --json` keeps the messages
//!   `truncateNativeChatMessages` keeps and renders the same prompt;
//! - `runner`: `ollama::runner::cut` on our tokens gives the token list,
//!   the whole prompt or the error `completionPromptForRequest` gives;
//! - `native-error`: llama-server's body for a chat that does not fit;
//! - `cache`: `promptscope cache` gives llama-server's `cache_n` and
//!   `prompt_n` for each recorded turn.

mod common;

use std::collections::HashMap;

use common::run;
use serde_json::{json, Value};

fn golden(kind: &str) -> Vec<Value> {
    let model = testkit::smollm2();
    let model = model.to_str().unwrap();
    let path = std::path::PathBuf::from(
        std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR at run time"),
    )
    .join("tests/golden/context.jsonl");
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(&l.replace("$SMOLLM2", model)).unwrap())
        .filter(|v| v["kind"] == kind)
        .collect()
}

#[test]
fn native_truncation_keeps_what_ollama_keeps() {
    let cases = golden("native-truncation");
    assert!(cases.len() >= 40, "{}", cases.len());
    let (mut exact, mut errors) = (0, 0);
    for c in &cases {
        let id = c["id"].as_str().unwrap();
        let (code, out, err) = run(&["render", "--json"], &c["case"].to_string());
        let got: Value = serde_json::from_str(&out).unwrap_or_else(|_| panic!("{id}: {err}"));
        if let Some(e) = c["expect"].get("error") {
            // llama.cpp's own Jinja refusing the trial: Ollama's error is
            // llama-server's error body.
            assert_eq!(code, 1, "{id}: llama.cpp failed ({e}), we rendered");
            assert_eq!(&got["error"], e, "{id}: error");
            errors += 1;
            continue;
        }
        assert_eq!(code, 0, "{id}: {}", got["error"]);
        assert_eq!(got["prompt"], c["expect"]["prompt"], "{id}: prompt");
        let msgs = c["case"]["request"]["messages"].as_array().unwrap();
        let first = got["explain"]["truncation"]["first_kept"]
            .as_u64()
            .unwrap_or(0) as usize;
        let systems = msgs[..first]
            .iter()
            .filter(|m| m["role"] == "system")
            .count();
        let kept = systems + msgs.len() - first;
        assert_eq!(
            kept as u64,
            c["expect"]["kept"].as_u64().unwrap(),
            "{id}: kept"
        );
        exact += 1;
    }
    assert!(exact >= 40, "{exact} exact, {errors} errors");
}

#[test]
fn the_runners_cut_is_ollamas() {
    let cases = golden("runner");
    assert!(cases.len() >= 40);
    let model = testkit::smollm2();
    let input: String = cases
        .iter()
        .map(|c| {
            json!({"id": c["id"], "text": c["prompt"], "add_special": true, "parse_special": true})
                .to_string()
                + "\n"
        })
        .collect();
    let (code, out, err) = run(
        &["tokenize", "--gguf", model.to_str().unwrap(), "--jsonl"],
        &input,
    );
    assert_eq!(code, 0, "{err}");
    let mut cuts = 0;
    for (c, line) in cases.iter().zip(out.lines()) {
        let id = c["id"].as_str().unwrap();
        let t: Value = serde_json::from_str(line).unwrap();
        let tokens: Vec<u64> = t["ids"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap())
            .collect();
        let prompt = c["prompt"].as_str().unwrap();
        let r = ollama::runner::Request {
            prompt_bytes: prompt.len(),
            tokens: tokens.len(),
            num_ctx: c["num_ctx"].as_i64().unwrap(),
            num_keep: c["num_keep"].as_i64().unwrap(),
            adds_bos: c["adds_bos"].as_bool().unwrap(),
            truncate: c["truncate"].as_bool().unwrap(),
            has_media: false,
            context_shift: c["shift"].as_bool().unwrap(),
            release: changes::Release::NEWEST,
        };
        let e = &c["expect"];
        match ollama::runner::cut(&r) {
            Ok(None) => assert_eq!(e["prompt"].as_str(), Some(prompt), "{id}: {e}"),
            Ok(Some(cut)) => {
                let mut kept = tokens[..cut.keep].to_vec();
                kept.extend_from_slice(&tokens[cut.keep + cut.discarded..]);
                assert_eq!(json!(kept), e["tokens"], "{id}");
                assert_eq!(kept.len(), cut.limit, "{id}");
                cuts += 1;
            }
            Err(msg) => assert_eq!(e["error"].as_str(), Some(msg), "{id}"),
        }
    }
    assert!(cuts >= 10, "{cuts} cuts");
}

#[test]
fn llama_servers_answer_to_a_chat_too_long() {
    for c in golden("native-error") {
        let tokens = c["tokens"].as_u64().unwrap() as usize;
        let slot = ollama::runner::native_slot_context(c["num_ctx"].as_i64().unwrap());
        assert_eq!(c["expect"]["status"], 400);
        assert_eq!(
            ollama::runner::native_too_long(tokens, slot),
            c["expect"]["body"].as_str().unwrap()
        );
        let f = ollama::runner::native(
            &json!({"options": {"num_ctx": c["num_ctx"]}}),
            tokens,
            ollama::runner::ModelContext {
                vision: false,
                train_ctx: Some(8192),
            },
            changes::Release::NEWEST,
        );
        assert_eq!(f.error.as_deref(), c["expect"]["body"].as_str());
        assert!(f.cut.is_none());
    }
}

#[test]
fn the_cache_reuses_what_llama_server_reuses() {
    let cases = golden("cache");
    assert!(cases.len() >= 40, "{}", cases.len());
    // One case per conversation; the recorded turns of each.
    let mut want: HashMap<(String, u64), &Value> = HashMap::new();
    let mut input = String::new();
    let mut seen = std::collections::HashSet::new();
    for c in &cases {
        let conv = c["id"]
            .as_str()
            .unwrap()
            .rsplit_once('/')
            .unwrap()
            .0
            .to_string();
        want.insert((conv.clone(), c["turn"].as_u64().unwrap()), &c["expect"]);
        if seen.insert(conv.clone()) {
            let mut case = c["case"].clone();
            case["id"] = json!(conv);
            input.push_str(&case.to_string());
            input.push('\n');
        }
    }
    let (code, out, err) = run(&["cache"], &input);
    assert_eq!(code, 0, "{err}");
    let mut checked = 0;
    let mut breaks = 0;
    for line in out.lines() {
        let t: Value = serde_json::from_str(line).unwrap();
        let key = (
            t["id"].as_str().unwrap().to_string(),
            t["turn"].as_u64().unwrap(),
        );
        let Some(e) = want.get(&key) else { continue };
        assert_eq!(
            (&t["cache_n"], &t["prompt_n"]),
            (&e["cache_n"], &e["prompt_n"]),
            "{key:?}: {t}"
        );
        assert_eq!(t["prompt_eval_count"], t["tokens"], "{key:?}");
        if t["first_difference"].is_object() {
            breaks += 1;
            assert_ne!(t["break"]["kind"], "none", "{key:?}");
        }
        checked += 1;
    }
    assert_eq!(checked, cases.len(), "every recorded turn answered");
    // Templates that strip old thinking break the cache; others do not.
    assert!(breaks > 0 && breaks < checked, "{breaks} of {checked}");
}
