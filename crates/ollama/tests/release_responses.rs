//! `/v1/responses` as each supported Ollama release converts a request and
//! streams its answer: `tests/golden/releases/responses*.jsonl` and
//! `converter*.jsonl` hold what ResponsesMiddleware's steps
//! (`ShouldBindJSON`, `openai.FromResponsesRequest`, the stream flag,
//! `json.NewEncoder`) and `openai.ResponsesStreamConverter` gave at
//! v0.32.9, v0.32.10-rc0 and v0.33.0-rc2 (README.md there): the 240
//! Responses bodies of `v1.jsonl` and 30 more on web search and replayed
//! assistant messages, and 15 streamed scenarios. Each supported release
//! is checked against a recording that has the same of the rows these
//! cases reach in effect.

use std::collections::{BTreeMap, HashMap};

use ollama::compat::{self, reply::Writer, Env, Route};
use serde_json::Value as Json;

mod releases_common;

use releases_common::{lines, recording_for, report};

/// A recorded set: its cases (v0.33.0-rc2's outcomes), the recorded
/// releases, and the other releases' differing outcomes by (release, id).
struct Recorded {
    cases: Vec<Json>,
    tags: Vec<&'static str>,
    overrides: BTreeMap<(String, String), Json>,
}

fn recorded(set: &str) -> Recorded {
    let mut tags = Vec::new();
    let mut overrides = BTreeMap::new();
    for o in lines(&format!("{set}-releases.jsonl")) {
        let release = o["release"].as_str().unwrap().to_string();
        match o["id"].as_str() {
            None => tags.push(changes::Release::parse(&release).unwrap().tag),
            Some(id) => {
                overrides.insert((release, id.to_string()), o["expect"].clone());
            }
        }
    }
    Recorded {
        cases: lines(&format!("{set}.jsonl")),
        tags,
        overrides,
    }
}

#[test]
fn every_supported_release_converts_responses_requests_as_its_go_code_did() {
    let Recorded {
        cases,
        tags,
        overrides,
    } = recorded("responses");
    let mut skipped = 0;
    let rows = [
        &changes::ollama::RESPONSES_NAMESPACE_TOOLS,
        &changes::ollama::RESPONSES_WEB_SEARCH,
        &changes::ollama::RESPONSES_MERGE_REPLAYED_ASSISTANT,
        &changes::ollama::OPENAI_REASONING_EFFORT_CLAMP,
    ];
    let mut failures = Vec::new();
    let mut checked = 0;
    for release in changes::Release::SUPPORTED {
        let tag = recording_for(*release, &tags, &rows);
        for c in &cases {
            let id = c["id"].as_str().unwrap();
            let want = overrides
                .get(&(tag.to_string(), id.to_string()))
                .cloned()
                .unwrap_or_else(|| c.clone());
            let env = Env {
                release: *release,
                ..Env::default()
            };
            let Some(got) =
                compat::convert_text(Route::OpenAiResponses, c["body"].as_str().unwrap(), env)
            else {
                // a body that is not one JSON value is a server's concern
                // (v1.jsonl's `raw` bodies; the recorder's decoder reads
                // the first value of trailing data)
                assert!(id.starts_with("openai-responses-"), "{id}");
                skipped += 1;
                continue;
            };
            checked += 1;
            let got = match got {
                Ok(conv) => (200, conv.text),
                Err(e) => (
                    e.status as u64,
                    Route::OpenAiResponses.error_body(e.status, &e.message, false, ""),
                ),
            };
            let want_text = want
                .get("api_request")
                .or(want.get("error"))
                .and_then(Json::as_str)
                .unwrap_or_default();
            if (got.0, got.1.trim_end()) != (want["status"].as_u64().unwrap(), want_text.trim_end())
            {
                failures.push(format!(
                    "{release} (recorded at {tag}) {id}:\n  got  {} {}\n  want {} {}",
                    got.0,
                    got.1.trim_end(),
                    want["status"],
                    want_text.trim_end()
                ));
            }
        }
    }
    report(
        &format!("conversions ({skipped} raw bodies skipped)"),
        checked,
        &failures,
    );
}

/// The recorder's placeholders: `created_at` and a numeric `completed_at`
/// as `"UNIX_TIME"`, and the random parts of `rs_N` and `fc_N_i` as
/// `RANDOMk`, k counting distinct values of each kind from 1 over the
/// whole stream (`seen`).
fn masked(data: &str, seen: &mut HashMap<(bool, String), usize>) -> Json {
    let mut out = String::new();
    let mut rest = data;
    while let Some(i) = rest.find(['r', 'f']) {
        out.push_str(&rest[..i]);
        rest = &rest[i..];
        let prefix = if rest.starts_with("rs_") {
            Some(("rs_", false))
        } else if rest.starts_with("fc_") {
            Some(("fc_", true))
        } else {
            None
        };
        let digits = prefix.map_or(0, |(p, _)| {
            rest[p.len()..]
                .bytes()
                .take_while(u8::is_ascii_digit)
                .count()
        });
        match prefix {
            Some((p, fc)) if digits > 0 => {
                let n = rest[p.len()..p.len() + digits].to_string();
                let next = seen.iter().filter(|((f, _), _)| *f == fc).count() + 1;
                let k = *seen.entry((fc, n)).or_insert(next);
                out.push_str(&format!("{p}RANDOM{k}"));
                rest = &rest[p.len() + digits..];
            }
            _ => {
                out.push_str(&rest[..1]);
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    let mut v: Json = serde_json::from_str(&out).unwrap();
    if let Some(r) = v.get_mut("response") {
        for k in ["created_at", "completed_at"] {
            if r[k].is_number() {
                r[k] = Json::String("UNIX_TIME".into());
            }
        }
    }
    v
}

#[test]
fn every_supported_release_streams_responses_as_its_go_code_did() {
    let Recorded {
        cases,
        tags,
        overrides,
    } = recorded("converter");
    let rows = [&changes::ollama::RESPONSES_STREAM_ITEMS];
    let mut failures = Vec::new();
    let mut checked = 0;
    for release in changes::Release::SUPPORTED {
        let tag = recording_for(*release, &tags, &rows);
        for c in &cases {
            let id = c["id"].as_str().unwrap();
            let events = overrides
                .get(&(tag.to_string(), id.to_string()))
                .map(|o| o["events"].clone())
                .unwrap_or_else(|| c["events"].clone());
            let mut w = Writer::for_route(
                Route::OpenAiResponses,
                &c["request"],
                true,
                false,
                ("resp_1", "msg_1"),
                1_700_000_000,
                7,
            )
            .with_release(*release);
            let mut written = String::new();
            for chunk in c["chunks"].as_array().unwrap() {
                written.push_str(&w.write(200, chunk));
            }
            let mut seen = HashMap::new();
            let got: Vec<(String, Json)> = written
                .split("\n\n")
                .filter(|s| !s.is_empty())
                .map(|seg| {
                    let (event, data) = seg.split_once('\n').unwrap();
                    (
                        event.strip_prefix("event: ").unwrap().to_string(),
                        masked(data.strip_prefix("data: ").unwrap(), &mut seen),
                    )
                })
                .collect();
            let want: Vec<(String, Json)> = events
                .as_array()
                .unwrap()
                .iter()
                .map(|e| {
                    (
                        e["event"].as_str().unwrap().to_string(),
                        serde_json::from_str(e["data"].as_str().unwrap()).unwrap(),
                    )
                })
                .collect();
            checked += 1;
            if got != want {
                let at = got.iter().zip(&want).position(|(g, w)| g != w);
                failures.push(format!(
                    "{release} (recorded at {tag}) {id}: {} events, want {}; first difference at {at:?}:\n  got  {:?}\n  want {:?}",
                    got.len(),
                    want.len(),
                    at.and_then(|i| got.get(i)),
                    at.and_then(|i| want.get(i)),
                ));
            }
        }
    }
    report("streams", checked, &failures);
}
