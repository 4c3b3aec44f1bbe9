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

fn lines(name: &str) -> Vec<Json> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden/releases")
        .join(name);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

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
    let cases = lines("renderers.jsonl");
    let mut recorded: BTreeSet<String> = BTreeSet::new();
    let mut overrides: BTreeMap<(String, String), Json> = BTreeMap::new();
    for o in lines("renderers-releases.jsonl") {
        let release = o["release"].as_str().unwrap().to_string();
        recorded.insert(release.clone());
        overrides.insert(
            (release, o["id"].as_str().unwrap().into()),
            o["expect"].clone(),
        );
    }
    // the newest recorded release has no overrides: it is the base
    recorded.insert(changes::Release::NEWEST.tag.to_string());
    let mut failures = Vec::new();
    let mut checked = 0;
    for release in changes::Release::SUPPORTED {
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
                .unwrap_or_else(|| panic!("{release}: no recording at or after it"));
            assert!(
                changes::ollama::TABLE
                    .iter()
                    .all(|c| release.has(c) == next.has(c) || c.area != "renderer"),
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
        "{checked} renders over {} releases, {} failed",
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
