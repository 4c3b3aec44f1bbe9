//! The answer side as Ollama's handlers drive it, against
//! `golden/parsers-handler.jsonl` (`golden/README.md`): the parsers'
//! output fed piece by piece through the `/api/chat` and `/api/generate`
//! callbacks, every streamed response and the non-streamed message equal
//! (tool-call ids, which Ollama draws at random, compared by shape).

use ollama::answer::{self, Out, Setup};
use ollama::date::Date;
use serde_json::Value as Json;

const CASES: &str = include_str!("golden/parsers-handler.jsonl");

/// Ids as `call_` and eight characters, masked.
fn mask_ids(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find("\"call_") {
        out.push_str(&rest[..i]);
        let tail = &rest[i + 6..];
        let id: String = tail.chars().take(8).collect();
        if id.len() == 8
            && id
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
            && tail[8..].starts_with('"')
        {
            out.push_str("\"call_********");
            rest = &tail[8..];
        } else {
            out.push_str("\"call_");
            rest = tail;
        }
    }
    out.push_str(rest);
    out
}

fn setup(c: &Json) -> Setup {
    Setup::from_spec(c, Date::today_utc()).expect("a case's setup decodes")
}

/// A JSON value with every object's keys sorted.
fn sorted(v: &Json) -> Json {
    match v {
        Json::Object(m) => {
            let mut kv: Vec<_> = m.iter().collect();
            kv.sort_by(|a, b| a.0.cmp(b.0));
            Json::Object(
                kv.into_iter()
                    .map(|(k, x)| (k.clone(), sorted(x)))
                    .collect(),
            )
        }
        Json::Array(a) => Json::Array(a.iter().map(sorted).collect()),
        x => x.clone(),
    }
}

#[test]
fn handler_loop_equals_ollama() {
    let mut n = 0;
    let mut refused = 0;
    let mut failures = Vec::new();
    for (line_no, line) in CASES
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let c: Json = serde_json::from_str(line).expect("a case line is JSON");
        if c["status"] == 400 {
            // refused before the model runs (a capability check): the
            // render's own goldens cover those answers
            refused += 1;
            continue;
        }
        n += 1;
        let s = setup(&c);
        let chunks: Vec<String> = serde_json::from_value(c["chunks"].clone()).unwrap_or_default();
        let a = answer::run(&s, &chunks, answer::tool_call_ids(line_no as u64));
        let id = c["id"].as_str().unwrap_or("?");
        // the stream, as message objects
        let want_stream: Vec<String> = c["stream"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|m| {
                if let Some(e) = m.get("error") {
                    return format!("error {e}");
                }
                let out = Out {
                    content: m["content"].as_str().unwrap_or("").into(),
                    thinking: m["thinking"].as_str().unwrap_or("").into(),
                    tool_calls: Vec::new(),
                    done: m["done"].as_bool().unwrap_or(false),
                };
                let mut j = out.to_json(s.endpoint).to_json();
                if let Some(tc) = m.get("tool_calls").filter(|t| !t.is_null()) {
                    j = format!("{} tool_calls={}", j, tc);
                }
                j.push_str(if out.done { " done" } else { "" });
                mask_ids(&j)
            })
            .collect();
        let mut got_stream: Vec<String> = a
            .stream
            .iter()
            .map(|o| {
                let mut plain = o.clone();
                plain.tool_calls.clear();
                let mut j = plain.to_json(s.endpoint).to_json();
                if !o.tool_calls.is_empty() {
                    let tc: Json =
                        serde_json::from_str(&ollama::parsers::tool_calls_json(&o.tool_calls))
                            .unwrap_or(Json::Null);
                    j = format!("{} tool_calls={}", j, tc);
                }
                j.push_str(if o.done { " done" } else { "" });
                mask_ids(&j)
            })
            .collect();
        if let Err(e) = &a.result {
            got_stream.push(format!("error {}", Json::String(e.clone())));
        }
        let nondet = c["nondeterministic"] == true;
        let canon_stream = |v: &[String]| -> Vec<String> {
            v.iter()
                .map(|s| match s.split_once(" tool_calls=") {
                    Some((a, b)) => {
                        let (calls, done) =
                            b.split_once(" done").map_or((b, ""), |(x, _)| (x, " done"));
                        let j = serde_json::from_str::<Json>(calls)
                            .map(|v| sorted(&v).to_string())
                            .unwrap_or_default();
                        format!("{a} tool_calls={j}{done}")
                    }
                    None => s.clone(),
                })
                .collect()
        };
        let stream_differs = if nondet {
            canon_stream(&want_stream) != canon_stream(&got_stream)
        } else {
            want_stream != got_stream
        };
        if stream_differs {
            failures.push(format!(
                "{id}: stream\n  want {want_stream:?}\n  got  {got_stream:?}"
            ));
            continue;
        }
        match (&a.result, c["error"].as_str()) {
            (Err(got), Some(want)) if got == want => {}
            (Ok(got), None) => {
                use ollama::godecode::{raw_span, Step::Key};
                let mut want = raw_span(line, &[Key("final")])
                    .unwrap_or("null")
                    .to_string();
                if c["endpoint"] == "generate" {
                    // the recording writes all three; GenerateResponse omits
                    // an empty `thinking` and no `tool_calls`
                    let span = |k| raw_span(line, &[Key("final"), Key(k)]).unwrap_or("null");
                    let mut w = format!("{{\"response\":{}", span("response"));
                    if c["final"]["thinking"]
                        .as_str()
                        .is_some_and(|t| !t.is_empty())
                    {
                        w.push_str(&format!(",\"thinking\":{}", span("thinking")));
                    }
                    if c["final"]["tool_calls"]
                        .as_array()
                        .is_some_and(|t| !t.is_empty())
                    {
                        w.push_str(&format!(",\"tool_calls\":{}", span("tool_calls")));
                    }
                    w.push('}');
                    want = w;
                }
                let want = want.as_str();
                let _ = got;
                let got = a.result_json(s.endpoint).to_json();
                // where Go's map order decides the argument order, any
                // order Go can give is right: compare as objects
                let canon = |t: &str| {
                    serde_json::from_str::<Json>(&mask_ids(t))
                        .map(|v| sorted(&v).to_string())
                        .unwrap_or_default()
                };
                let differs = if c["nondeterministic"] == true {
                    canon(want) != canon(&got)
                } else {
                    mask_ids(want) != mask_ids(&got)
                };
                if differs {
                    failures.push(format!("{id}: final\n  want {want}\n  got  {got}"));
                }
            }
            (got, want) => failures.push(format!("{id}: want error {want:?}, got {got:?}")),
        }
    }
    let show: usize = std::env::var("SHOW")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(30);
    let only = std::env::var("ONLY").unwrap_or_default();
    for f in failures.iter().filter(|f| f.starts_with(&only)).take(show) {
        eprintln!("{f}");
    }
    let mut by: std::collections::BTreeMap<String, usize> = Default::default();
    for f in &failures {
        let key: String = f.split('/').take(2).collect::<Vec<_>>().join("/");
        *by.entry(key).or_default() += 1;
    }
    eprintln!("{by:?}");
    eprintln!(
        "{} of {n} handler cases equal ({refused} refused before the model runs, not replayed)",
        n - failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {n} cases differ",
        failures.len()
    );
    assert!(n > 0, "no cases");
}
