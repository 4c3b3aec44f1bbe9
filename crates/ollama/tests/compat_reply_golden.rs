//! What the four compatibility routes write back, against
//! `tests/golden/v1-responses.jsonl`, recorded from Ollama v0.33.0-rc2's
//! own writers (`tests/golden/README.md`; middleware/openai.go `ChatWriter`,
//! `CompleteWriter`, `ResponsesWriter`, middleware/anthropic.go
//! `AnthropicWriter`, with openai/ and anthropic/ converting) fed native
//! responses as the handlers write them: streamed and not, thinking, tool
//! calls, usage, errors before and during a stream.
//!
//! Every byte is compared, except the values Ollama draws from the clock or
//! at random, which the golden lists per case (`volatile`): an SSE event or
//! body holding one is compared as JSON with those values blanked.

use ollama::compat::{self, reply::Writer, Route};
use serde_json::Value;

/// The request's text as the recorder sent it (Python's `json.dumps`:
/// `", "` and `": "` separators): Anthropic's estimate counts tool
/// schemas as written.
fn python_text(v: &Value) -> String {
    struct Py;
    impl serde_json::ser::Formatter for Py {
        fn begin_array_value<W: ?Sized + std::io::Write>(
            &mut self,
            w: &mut W,
            first: bool,
        ) -> std::io::Result<()> {
            if first {
                Ok(())
            } else {
                w.write_all(b", ")
            }
        }
        fn begin_object_key<W: ?Sized + std::io::Write>(
            &mut self,
            w: &mut W,
            first: bool,
        ) -> std::io::Result<()> {
            if first {
                Ok(())
            } else {
                w.write_all(b", ")
            }
        }
        fn begin_object_value<W: ?Sized + std::io::Write>(
            &mut self,
            w: &mut W,
        ) -> std::io::Result<()> {
            w.write_all(b": ")
        }
    }
    let mut out = Vec::new();
    let mut ser = serde_json::Serializer::with_formatter(&mut out, Py);
    serde::Serialize::serialize(v, &mut ser).unwrap();
    String::from_utf8(out).unwrap()
}

fn golden() -> Vec<Value> {
    let path = std::path::PathBuf::from(
        std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR at run time"),
    )
    .join("tests/golden/v1-responses.jsonl");
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The written bytes as segments: SSE events, or the one JSON body.
fn segments(s: &str) -> Vec<String> {
    if s.starts_with("data: ") || s.starts_with("event: ") {
        s.split_inclusive("\n\n").map(str::to_string).collect()
    } else {
        vec![s.to_string()]
    }
}

fn data_of(seg: &str) -> Option<Value> {
    let json = seg
        .lines()
        .find_map(|l| l.strip_prefix("data: "))
        .unwrap_or(seg);
    serde_json::from_str(json).ok()
}

fn blank(v: &mut Value, path: &[&str]) {
    let Some((first, rest)) = path.split_first() else {
        *v = Value::Null;
        return;
    };
    let next = match v {
        Value::Object(o) => o.get_mut(*first),
        Value::Array(a) => first.parse::<usize>().ok().and_then(|i| a.get_mut(i)),
        _ => None,
    };
    if let Some(n) = next {
        blank(n, rest);
    }
}

#[test]
fn writers_are_ollamas() {
    let cases = golden();
    let mut failures = Vec::new();
    let (mut exact, mut masked) = (0, 0);
    for c in &cases {
        let id = c["id"].as_str().unwrap();
        let route = Route::from_name(c["route"].as_str().unwrap()).unwrap();
        let conv = compat::convert(route, &c["request"]).expect("the recorded request converts");
        let ids = &c["ids"];
        let pick = |k: &str| ids[k].as_str().unwrap_or("").to_string();
        let (a, b) = match route {
            Route::OpenAiResponses => (pick("response_id"), pick("item_id")),
            Route::AnthropicMessages => (pick("message_id"), String::new()),
            _ => (pick("id"), String::new()),
        };
        let mut w = Writer::for_route(
            route,
            &c["request"],
            conv.stream,
            conv.include_usage,
            (&a, &b),
            1_700_000_000,
            7,
        )
        .with_body_text(&c["request"], &python_text(&c["request"]));
        let status = c["status"].as_u64().unwrap() as u16;
        let mut got = String::new();
        for chunk in c["chunks"].as_array().unwrap() {
            got.push_str(&match chunk {
                Value::String(raw) => w.write_text(status, raw),
                v => w.write(status, v),
            });
        }
        let want = c["written"].as_str().unwrap();
        let volatile: Vec<&str> = c["volatile"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        let (gs, ws) = (segments(&got), segments(want));
        if gs.len() != ws.len() {
            failures.push(format!(
                "{id}: {} segments, Ollama writes {}\n  want {want:?}\n  got  {got:?}",
                gs.len(),
                ws.len()
            ));
            continue;
        }
        let sse = ws.len() > 1 || want.starts_with("data: ") || want.starts_with("event: ");
        for (i, (g, wseg)) in gs.iter().zip(&ws).enumerate() {
            let paths: Vec<Vec<&str>> = volatile
                .iter()
                .filter_map(|p| {
                    let parts: Vec<&str> = p.split('.').collect();
                    if sse {
                        (parts.first() == Some(&i.to_string().as_str()))
                            .then(|| parts[1..].to_vec())
                    } else {
                        Some(parts)
                    }
                })
                .collect();
            if paths.is_empty() {
                exact += 1;
                if g != wseg {
                    failures.push(format!(
                        "{id}: segment {i} differs\n  want {wseg:?}\n  got  {g:?}"
                    ));
                }
                continue;
            }
            masked += 1;
            let head = |s: &str| {
                s.lines()
                    .find(|l| l.starts_with("event: "))
                    .unwrap_or("")
                    .to_string()
            };
            match (data_of(g), data_of(wseg)) {
                (Some(mut gv), Some(mut wv)) => {
                    for p in &paths {
                        blank(&mut gv, p);
                        blank(&mut wv, p);
                    }
                    if gv != wv || (sse && head(g) != head(wseg)) {
                        failures.push(format!(
                            "{id}: segment {i} differs (volatile {paths:?} blanked)\n  want {wseg:?}\n  got  {g:?}"
                        ));
                    }
                }
                _ => failures.push(format!("{id}: segment {i} is not JSON\n  got {g:?}")),
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
    assert!(cases.len() >= 400, "only {} cases", cases.len());
    eprintln!("{exact} segments equal byte for byte, {masked} equal up to their volatile values");
}

/// `EstimateInputTokens`, which `message_start` reports before the real count.
#[test]
fn anthropic_estimates_are_ollamas() {
    let mut n = 0;
    for c in golden() {
        let Some(want) = c.get("estimated_input_tokens") else {
            continue;
        };
        n += 1;
        assert_eq!(
            compat::reply::estimate_input_tokens(&c["request"], Some(&python_text(&c["request"]))),
            want.as_i64().unwrap(),
            "{}",
            c["id"]
        );
    }
    assert!(n >= 100, "{n}");
}
