//! The built-in `qwen3.5` parser (also `ornith`'s), `glimmer`, the GLM
//! parsers (`glm-4.7`, `glm-ocr`) and Laguna's (`laguna`, `laguna-v8`,
//! `poolside-v1`) as each supported Ollama release parses streamed output:
//! `tests/golden/releases/parsers-<tag>.jsonl` hold what
//! `ParserForName(name)` returned at v0.32.2-rc2, v0.32.2, v0.32.6,
//! v0.32.7, v0.32.8, v0.32.9, v0.32.11, v0.32.12 and v0.33.0-rc2 for 113
//! chunked outputs (Init as ChatHandler calls it, then each chunk's
//! `Add(chunk, false)` and a final `Add("", true)`, or, for the cases
//! ported from Go tests that do so, the last chunk with done); README.md
//! there says how they were recorded. Each supported release is checked
//! against a recording whose release no `parser` row of
//! `changes::ollama::TABLE` separates from it.

use ollama::api::ChatRequest;
use ollama::parsers;
use serde_json::{json, Value as Json};

mod releases_common;

use releases_common::{area_rows, lines, recording_for};

const RECORDED: [&str; 14] = [
    "0.30.0",
    "0.30.9",
    "0.30.10",
    "0.30.11-rc0",
    "0.32.0",
    "0.32.2-rc2",
    "0.32.2",
    "0.32.6",
    "0.32.7",
    "0.32.8",
    "0.32.9",
    "0.32.11",
    "0.32.12",
    "0.33.0-rc2",
];

#[test]
fn every_supported_release_parses_as_its_go_code_did() {
    check("parsers", &RECORDED, &area_rows("parser"));
}

/// The gemma4 parsers (`gemma4`, `gemma4-no-thinking`) over 20 outputs
/// after a tool result, a prefill and a user message, thinking on and off
/// (`parsers-gemma4-<tag>.jsonl`, recorded at v0.32.0, v0.32.1 and
/// v0.33.0-rc2; v0.32.1's equal to v0.33.0-rc2's): before
/// `gemma4_thinking_after_tool` an answer after a tool result starts as
/// content.
#[test]
fn the_gemma4_parser_per_release() {
    check(
        "parsers-gemma4",
        &["0.32.0", "0.33.0-rc2"],
        &[&changes::ollama::GEMMA4_THINKING_AFTER_TOOL],
    );
}

/// The lfm2 parsers (`lfm2`, `lfm2-thinking`) over 31 outputs, thinking
/// on, off and absent, after a user message and a prefill
/// (`parsers-lfm2-<tag>.jsonl`, recorded at v0.30.9-rc0, v0.30.9-rc1 and
/// v0.33.0-rc2; v0.30.9-rc1's equal to v0.33.0-rc2's): before
/// `lfm2_optional_thinking` an answer with thinking on is thinking up to
/// its first `</think>`.
#[test]
fn the_lfm2_parser_per_release() {
    check(
        "parsers-lfm2",
        &["0.30.9-rc0", "0.33.0-rc2"],
        &[&changes::ollama::LFM2_OPTIONAL_THINKING],
    );
}

/// Every supported release parses `<prefix>-<tag>.jsonl` as recorded at
/// the recording no row of `rows` separates from it.
fn check(prefix: &str, recorded: &[&'static str], rows: &[&'static changes::Change]) {
    let mut failures = Vec::new();
    let mut checked = 0;
    for release in changes::Release::SUPPORTED {
        let tag = recording_for(*release, recorded, rows);
        for c in lines(&format!("{prefix}-{tag}.jsonl")) {
            let id = c["id"].as_str().unwrap();
            let Some(mut p) = parsers::parser_for_name_in(c["parser"].as_str().unwrap(), *release)
            else {
                // a name the registry does not have at this release
                assert!(
                    c["error"].as_str().unwrap().starts_with("unknown parser"),
                    "{release} {id}"
                );
                continue;
            };
            let messages: Vec<&Json> = [&c["last"]].into_iter().filter(|m| !m.is_null()).collect();
            let mut body = json!({"model": "m", "messages": messages});
            for k in ["tools", "think"] {
                if let Some(v) = c.get(k) {
                    body[k] = v.clone();
                }
            }
            let req = ChatRequest::decode(&body).unwrap_or_else(|e| panic!("{id}: {}", e.0));
            p.init(
                req.tools.as_deref().unwrap_or(&[]),
                req.messages.last(),
                req.think.as_ref(),
            );
            let chunks: Vec<&str> = c["chunks"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s.as_str().unwrap())
                .collect();
            // `done_on_last`: the last chunk comes with done, as the Go
            // tests feed it, and no empty final call follows
            let done_on_last = c["done_on_last"] == true;
            let n = chunks.len();
            let inputs: Vec<(&str, bool)> = if done_on_last {
                chunks
                    .iter()
                    .enumerate()
                    .map(|(i, s)| (*s, i + 1 == n))
                    .collect()
            } else {
                chunks
                    .iter()
                    .map(|s| (*s, false))
                    .chain([("", true)])
                    .collect()
            };
            let mut got = Vec::new();
            for (input, done) in inputs {
                got.push(match p.add(input, done) {
                    Ok(a) => json!({"input": input, "done": done, "content": a.content,
                        "thinking": a.thinking,
                        "tool_calls": a.calls.iter().map(|t| serde_json::from_str::<Json>(&parsers::tool_call_json(t).to_json()).unwrap()).collect::<Vec<_>>(),
                        "error": null}),
                    Err(e) => json!({"input": input, "done": done, "content": "", "thinking": "",
                        "tool_calls": [], "error": e}),
                });
                if got.last().unwrap()["error"] != Json::Null {
                    break;
                }
            }
            checked += 1;
            let want = c["steps"].as_array().unwrap();
            if got[..] != want[..] {
                failures.push(format!(
                    "{release} (recorded at {tag}) {id}:\n  got  {}\n  want {}",
                    json!(got),
                    json!(want)
                ));
            }
        }
    }
    println!("{checked} parses, {} failed", failures.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
