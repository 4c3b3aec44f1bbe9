//! The built-in renderers as each supported Ollama release renders:
//! `tests/golden/releases/renderers.jsonl` holds every renderer over the
//! same 25 conversations with what the newest recorded release's Go code
//! (`renderers.RenderWithRenderer`) returned, and
//! `renderers-releases.jsonl` each (release, case) whose answer differs
//! from it (README.md there says how they were recorded). Every supported
//! release must have been recorded, and each renders through its own rows
//! of `changes::ollama::TABLE`.

use std::collections::{BTreeMap, BTreeSet};

use ollama::api::ChatRequest;
use ollama::renderers;
use serde_json::{json, Value as Json};

mod releases_common;

use releases_common::lines;

/// The renderer's answer as the golden writes it.
fn answer(r: Result<String, String>) -> Json {
    match r {
        Ok(p) => json!({ "prompt": p }),
        Err(e) => json!({ "error": e }),
    }
}

/// Lines sorted: the form compared for the cases whose Go output depends
/// on map iteration order (the same lines, in an order that varies
/// between runs of the same binary).
fn sorted_lines(v: &Json) -> Json {
    match v.get("prompt").and_then(Json::as_str) {
        Some(p) => {
            let mut l: Vec<&str> = p.split('\n').collect();
            l.sort_unstable();
            json!({ "prompt_lines": l })
        }
        None => v.clone(),
    }
}

#[test]
fn every_supported_release_renders_as_its_go_code_did() {
    check("renderers", |c| c.area == "renderer", |_| true);
}

/// Laguna's renderers (`laguna`, `laguna-v8`, `poolside-v1`) over reasoning
/// written inside an assistant's content, a lone `</think>`, prefills and
/// tool-call arguments of every JSON kind, and `laguna-v8` over the 25
/// conversations of `renderers.jsonl` (67 cases recorded at v0.32.2-rc2,
/// v0.32.2, v0.32.3-rc0, v0.32.6 and v0.33.0-rc2).
#[test]
fn laguna_per_release() {
    // only Laguna's renderers are in this set
    check(
        "renderers-laguna",
        |c| c.area == "renderer" && (c.id.starts_with("laguna") || c.id.starts_with("poolside")),
        |_| true,
    );
}

/// The gemma4 renderers and qwen3.5's (with ornith's) over 60 cases aimed
/// at their rows (`renderers-gemma4-qwen35.jsonl`, recorded at
/// v0.30.11-rc0, v0.30.11-rc1, v0.32.0, v0.32.1 and v0.33.0-rc2): adjacent
/// assistant messages, tool-call turns with and without content, prompts
/// that end with tool results, thinking after the last user message, nulls
/// in arguments and schemas; reasoning inside an earlier turn's content
/// with and without a thinking field.
#[test]
fn gemma4_and_qwen35_per_release() {
    check(
        "renderers-gemma4-qwen35",
        |c| {
            c.area == "renderer"
                && ["gemma4", "qwen35", "ornith"]
                    .iter()
                    .any(|p| c.id.starts_with(p))
        },
        |_| true,
    );
}

/// The lfm2 renderers over 56 cases aimed at v0.30.9-rc1's rows (recorded
/// at v0.30.9-rc0, v0.30.9-rc1 and v0.33.0-rc2): thinking fields on the
/// last and on earlier assistant messages, under think true, false and
/// absent, prefills, and reasoning inside an earlier turn's content with
/// and without tool calls.
#[test]
fn lfm2_per_release() {
    check(
        "renderers-lfm2",
        |c| c.area == "renderer" && c.id.starts_with("lfm2"),
        |_| true,
    );
}

/// glimmer's system messages that speak of reasoning effort or strength
/// (38 cases recorded at v0.32.10, v0.32.11 and v0.33.0-rc2), at every
/// release that has the glimmer renderer; before it, each is the error
/// `renderers.jsonl` recorded for glimmer at v0.32.6.
#[test]
fn glimmer_reasoning_in_system_messages_per_release() {
    let has = |r: &changes::Release| r.has(&changes::ollama::GLIMMER_RENDERER);
    // only glimmer's renderer is in this set
    check(
        "renderers-extra",
        |c| c.area == "renderer" && c.id.starts_with("glimmer"),
        has,
    );
    let unknown = lines("renderers-releases.jsonl")
        .into_iter()
        .find(|o| o["release"] == "0.32.6" && o["id"] == "glimmer/plain")
        .expect("v0.32.6 recorded glimmer/plain")["expect"]
        .clone();
    let mut checked = 0;
    for release in changes::Release::SUPPORTED.iter().filter(|r| !has(r)) {
        for c in lines("renderers-extra.jsonl") {
            let req = ChatRequest::decode(&json!({"model": "m", "messages": c["messages"]}))
                .unwrap_or_else(|e| panic!("{}", e.0));
            let got = answer(renderers::render_with_renderer_in(
                "glimmer",
                &req.messages,
                None,
                None,
                c["date"].as_str().unwrap(),
                &changes::Rules::of_release(*release),
            ));
            assert_eq!(got, unknown, "{release} {}", c["id"]);
            checked += 1;
        }
    }
    assert!(
        checked > 0,
        "a supported release lacks the glimmer renderer"
    );
}

/// Checks a set at every supported release; `rows` are the rows of
/// Ollama's table that can act on its cases.
fn check(
    set: &str,
    rows: fn(&changes::Change) -> bool,
    releases: impl Fn(&changes::Release) -> bool,
) {
    let cases = lines(&format!("{set}.jsonl"));
    let mut recorded: BTreeSet<String> = BTreeSet::new();
    let mut overrides: BTreeMap<(String, String), Json> = BTreeMap::new();
    for o in lines(&format!("{set}-releases.jsonl")) {
        let release = o["release"].as_str().unwrap().to_string();
        recorded.insert(release.clone());
        // a line without an id only says the release was recorded
        if let Some(id) = o["id"].as_str() {
            overrides.insert((release, id.into()), o["expect"].clone());
        }
    }
    let mut failures = Vec::new();
    let mut checked = 0;
    for release in changes::Release::SUPPORTED.iter().filter(|r| releases(r)) {
        // a release the recorder did not run is equal to the next one
        // recorded only if no row of the table tells them apart; say so
        // rather than assume it
        let base = if recorded.contains(release.tag) {
            release.tag
        } else {
            let next = changes::Release::SUPPORTED
                .iter()
                .filter(|r| r.number() > release.number() && recorded.contains(r.tag))
                .min_by_key(|r| r.number())
                .unwrap_or_else(|| panic!("{set}: {release}: no recording at or after it"));
            assert!(
                changes::ollama::TABLE
                    .iter()
                    .all(|c| release.has(c) == next.has(c) || !rows(c)),
                "{release} is not recorded and a renderer row separates it from {next}"
            );
            next.tag
        };
        for c in &cases {
            let id = c["id"].as_str().unwrap();
            let expect = overrides
                .get(&(base.to_string(), id.to_string()))
                .unwrap_or(&c["expect"]);
            let mut body = json!({"model": "m", "messages": c["messages"]});
            for k in ["tools", "think"] {
                if let Some(v) = c.get(k) {
                    body[k] = v.clone();
                }
            }
            let req = ChatRequest::decode(&body).unwrap_or_else(|e| panic!("{id}: {}", e.0));
            let rules = changes::Rules::of_release(*release);
            let got = answer(renderers::render_with_renderer_in(
                c["renderer"].as_str().unwrap(),
                &req.messages,
                req.tools.as_deref(),
                req.think.as_ref(),
                c["date"].as_str().unwrap(),
                &rules,
            ));
            let (got, expect) = if c["unstable"] == true {
                (sorted_lines(&got), sorted_lines(expect))
            } else {
                (got, expect.clone())
            };
            checked += 1;
            if got != expect {
                failures.push(format!(
                    "{release} {id}:\n  got    {got}\n  expect {expect}"
                ));
            }
        }
    }
    println!(
        "{set}: {checked} renders over {} releases, {} failed",
        changes::Release::SUPPORTED.len(),
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {checked}:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
