//! The message delimiters llama-server's chat handlers declare
//! (`message_delimiters` of `common_chat_params`: a dedicated handler's
//! list, or the autoparser's assistant and user starts), which the server
//! tokenizes to find where user messages start and checkpoint there.
//! Against `golden/delimiters-<build>.jsonl`, recorded from each build's own
//! `oaicompat_chat_params_parse` (tools/slot-goldens/record-delimiters.sh):
//! every template of models/templates, a plain chat and one with tools.

use llamachat::apply::message_delimiters;
use llamachat::server::{chat_params_parse, ServerChatParams};
use llamachat::ChatTemplates;
use serde_json::Value as Json;

fn check(build: changes::Build) -> usize {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(format!("tests/golden/delimiters-b{}.jsonl", build.0));
    let text = std::fs::read_to_string(&path).unwrap();
    let mut bad = Vec::new();
    let mut n = 0;
    for line in text.lines() {
        let case: Json = serde_json::from_str(line).unwrap();
        let name = case["template"].as_str().unwrap();
        let Some(want) = case["message_delimiters"].as_array() else {
            continue;
        };
        let want: Vec<(String, String)> = want
            .iter()
            .map(|d| {
                (
                    d["role"].as_str().unwrap().to_string(),
                    d["delimiter"].as_str().unwrap().to_string(),
                )
            })
            .collect();
        let src = std::fs::read_to_string(testkit::llama_cpp(&format!("models/templates/{name}")))
            .unwrap();
        let bos = case["bos_token"].as_str().unwrap();
        let eos = case["eos_token"].as_str().unwrap();
        let now = 1_768_472_430;
        let srv = ChatTemplates::init_with_build(&src, bos, eos, false, false, build)
            .and_then(|t| ServerChatParams::new(t, now))
            .unwrap();
        let params = chat_params_parse(&case["body"], &srv, now).unwrap();
        let tools = case["body"]["tools"]
            .as_array()
            .is_some_and(|a| !a.is_empty());
        let got = message_delimiters(srv.tmpls.for_tools(tools), &params);
        if got != want {
            bad.push(format!(
                "{name} {}: {got:?}, llama-server {want:?}",
                case["case"]
            ));
        }
        n += 1;
    }
    assert!(
        bad.is_empty(),
        "{} of {n} differ:\n{}",
        bad.len(),
        bad.join("\n")
    );
    n
}

#[test]
fn delimiters_b10488() {
    assert!(check(changes::Build::B10488) >= 140);
}

#[test]
fn delimiters_b11312() {
    assert!(check(changes::Build::B11312) >= 140);
}
