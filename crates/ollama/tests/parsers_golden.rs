//! Ollama's own parser tests (`model/parsers/*_test.go`, `harmony/`,
//! `tools/`), replayed: every call those tests made on a parser, recorded
//! with what Ollama's code returned (`tests/golden/README.md`), made again on
//! the Rust port. `PARSER_FILE=qwen3coder_test.go` narrows the run to one
//! Go test file.

use std::collections::BTreeMap;

use ollama::api::{Message, Think, Tool};
use ollama::godecode::{
    raw_span,
    Step::{Index, Key},
};
use ollama::parsers::{self, Parser};
use serde_json::{json, Value as Json};

const TRACES: &str = include_str!("golden/parsers-tests.jsonl");

/// The request pieces a trace's `init` carries, decoded as Ollama decodes
/// a chat request.
fn init_args(call: &Json) -> (Vec<Tool>, Option<Message>, Option<Think>) {
    let last = call.get("last").filter(|v| !v.is_null()).cloned();
    let body = json!({
        "model": "m",
        "messages": last.iter().collect::<Vec<_>>(),
        "tools": call.get("tools").cloned().unwrap_or(Json::Null),
        "think": call.get("think").cloned().unwrap_or(Json::Null),
    });
    let req = ollama::api::ChatRequest::decode(&body).expect("a trace's init decodes");
    let last = last.and_then(|_| req.messages.into_iter().next());
    (req.tools.unwrap_or_default(), last, req.think)
}

fn str_of<'a>(v: &'a Json, k: &str) -> &'a str {
    v.get(k).and_then(Json::as_str).unwrap_or("")
}

/// Replays one trace; `Err` says where it differs.
fn replay(line: &str, t: &Json, p: &mut dyn Parser) -> Result<(), String> {
    for (i, call) in t["calls"].as_array().into_iter().flatten().enumerate() {
        let at = |what: &str, want: &dyn std::fmt::Debug, got: &dyn std::fmt::Debug| {
            format!(
                "call {i} ({}): {what}: want {want:?}, got {got:?}",
                call["m"]
            )
        };
        match call["m"].as_str().unwrap_or("") {
            "init" => {
                let (tools, last, think) = init_args(call);
                let ret = p.init(&tools, last.as_ref(), think.as_ref());
                let want: Vec<&str> = call["ret"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|t| t["function"]["name"].as_str().unwrap_or(""))
                    .collect();
                let got: Vec<&str> = ret.iter().map(|t| t.function.name.as_str()).collect();
                if want != got {
                    return Err(at("returned tool names", &want, &got));
                }
            }
            "add" => {
                let got = p.add(str_of(call, "s"), call["done"].as_bool().unwrap_or(false));
                match (call["err"].as_str(), got) {
                    (Some(want), Err(got)) if want == got => {}
                    (Some(want), got) => return Err(at("error", &want, &got)),
                    (None, Err(got)) => return Err(at("no error", &"", &got)),
                    (None, Ok(got)) => {
                        if got.content != str_of(call, "content") {
                            return Err(at("content", &str_of(call, "content"), &got.content));
                        }
                        if got.thinking != str_of(call, "thinking") {
                            return Err(at("thinking", &str_of(call, "thinking"), &got.thinking));
                        }
                        // Go's exact bytes, from the line itself.
                        let want = raw_span(line, &[Key("calls"), Index(i), Key("calls")])
                            .unwrap_or("null");
                        let got = parsers::tool_calls_json(&got.calls);
                        if want != got {
                            return Err(at("calls", &want, &got));
                        }
                    }
                }
            }
            "has_tool_support" => {
                if Some(p.has_tool_support()) != call["ret"].as_bool() {
                    return Err(at("has_tool_support", &call["ret"], &p.has_tool_support()));
                }
            }
            "has_thinking_support" => {
                if Some(p.has_thinking_support()) != call["ret"].as_bool() {
                    return Err(at(
                        "has_thinking_support",
                        &call["ret"],
                        &p.has_thinking_support(),
                    ));
                }
            }
            "preserved_tokens" => {
                let want: Vec<String> =
                    serde_json::from_value(call["ret"].clone()).unwrap_or_default();
                if p.preserved_tokens() != want {
                    return Err(at("preserved_tokens", &want, &p.preserved_tokens()));
                }
            }
            other => return Err(format!("call {i}: unknown method {other}")),
        }
    }
    Ok(())
}

#[test]
fn ollama_parser_tests_replayed() {
    let only = std::env::var("PARSER_FILE").ok();
    let replayed = replay_all(TRACES, changes::Release::NEWEST, only.as_deref());
    assert!(only.is_some() || replayed > 0);
}

/// The parser tests of older releases (`tests/golden/releases/
/// parsers-tests-<tag>.jsonl`, recorded the same way from each tag's own
/// test files), replayed with the parsers as that release has them.
#[test]
fn older_releases_parser_tests_replayed() {
    let mut replayed = 0;
    for tag in OLDER {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join(format!("tests/golden/releases/parsers-tests-{tag}.jsonl"));
        let traces =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let release = changes::Release::parse(tag).unwrap();
        eprintln!("v{tag}:");
        replayed += replay_all(&traces, release, None);
    }
    assert!(replayed > 0);
}

/// The older tags whose own parser tests were recorded.
const OLDER: [&str; 4] = ["0.30.9-rc0", "0.30.11", "0.31.2", "0.32.0"];

/// Replays every `parser` trace of `traces` (narrowed to one Go test file
/// by `only`) on the parsers as `release` has them; fails with the
/// traces that differ, else returns how many were replayed.
fn replay_all(traces: &str, release: changes::Release, only: Option<&str>) -> usize {
    let rules = changes::Rules::of_release(release);
    // file -> (replayed, equal, skipped)
    let mut per_file: BTreeMap<String, (usize, usize, usize)> = BTreeMap::new();
    let mut failures = Vec::new();
    for line in traces.lines().filter(|l| !l.trim().is_empty()) {
        let t: Json = serde_json::from_str(line).expect("a trace line is JSON");
        if t["kind"] != "parser" {
            continue;
        }
        let file = str_of(&t, "file").to_string();
        if only.is_some_and(|f| f != file) {
            continue;
        }
        let row = per_file.entry(file.clone()).or_default();
        if t.get("skip").is_some_and(|s| !s.is_null()) {
            row.2 += 1;
            continue;
        }
        row.0 += 1;
        let config = t["config"].as_object().cloned().unwrap_or_default();
        let Some(mut p) = parsers::for_go_type(str_of(&t, "type"), &config) else {
            failures.push(format!(
                "{file} {} #{}: no parser for Go type {} {config:?}",
                str_of(&t, "test"),
                t["n"],
                str_of(&t, "type")
            ));
            continue;
        };
        p.set_release(&rules);
        match replay(line, &t, p.as_mut()) {
            Ok(()) => row.1 += 1,
            Err(e) => failures.push(format!("{file} {} #{}: {e}", str_of(&t, "test"), t["n"])),
        }
    }
    for (file, (n, ok, skipped)) in &per_file {
        eprintln!("{file}: {ok}/{n} equal, {skipped} skipped");
    }
    for f in failures.iter().take(40) {
        eprintln!("{f}");
    }
    assert!(
        failures.is_empty(),
        "{release}: {} traces differ",
        failures.len()
    );
    per_file.values().map(|r| r.0).sum()
}
