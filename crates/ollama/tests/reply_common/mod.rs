#![allow(dead_code)] // each test binary uses a part of it
//! What the tests of the compatibility routes' writers share: the golden
//! `tests/golden/v1-responses.jsonl` (recorded from Ollama v0.33.0-rc2's
//! writers), running a case's chunks through a [`Writer`], and comparing
//! what it wrote with a recording, values Ollama draws from the clock or
//! at random blanked.

use ollama::compat::{self, reply::Writer, Route};
use serde_json::Value;

/// The request's text as the recorder sent it (Python's `json.dumps`:
/// `", "` and `": "` separators): Anthropic's estimate counts tool
/// schemas as written.
pub fn python_text(v: &Value) -> String {
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

pub fn golden() -> Vec<Value> {
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

/// What the writer for `c`'s route writes for its chunks, as `release`
/// writes.
pub fn write_case(c: &Value, release: changes::Release) -> String {
    let route = Route::from_name(c["route"].as_str().unwrap()).unwrap();
    let env = compat::Env {
        no_cloud: false,
        release,
    };
    let conv =
        compat::convert_with(route, &c["request"], env).expect("the recorded request converts");
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
    .with_release(release)
    .with_body_text(&c["request"], &python_text(&c["request"]));
    let status = c["status"].as_u64().unwrap() as u16;
    let mut got = String::new();
    for chunk in c["chunks"].as_array().unwrap() {
        got.push_str(&match chunk {
            Value::String(raw) => w.write_text(status, raw),
            v => w.write(status, v),
        });
    }
    got
}

/// Compares what a writer wrote with what Ollama wrote (`want`), segment by
/// segment (SSE events, or the one body); a segment with a `volatile` path
/// (`"<segment>.<key>.<key>"` in a stream, `"<key>..."` in a body) is
/// compared as JSON with those values blanked. The counts of segments
/// compared exactly and masked, or what differs.
pub fn compare(
    id: &str,
    got: &str,
    want: &str,
    volatile: &[&str],
) -> Result<(usize, usize), String> {
    let (mut exact, mut masked) = (0, 0);
    let (gs, ws) = (segments(got), segments(want));
    if gs.len() != ws.len() {
        return Err(format!(
            "{id}: {} segments, Ollama writes {}\n  want {want:?}\n  got  {got:?}",
            gs.len(),
            ws.len()
        ));
    }
    let sse = ws.len() > 1 || want.starts_with("data: ") || want.starts_with("event: ");
    for (i, (g, wseg)) in gs.iter().zip(&ws).enumerate() {
        let paths: Vec<Vec<&str>> = volatile
            .iter()
            .filter_map(|p| {
                let parts: Vec<&str> = p.split('.').collect();
                if sse {
                    (parts.first() == Some(&i.to_string().as_str())).then(|| parts[1..].to_vec())
                } else {
                    Some(parts)
                }
            })
            .collect();
        if paths.is_empty() {
            exact += 1;
            if g != wseg {
                return Err(format!(
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
                    return Err(format!(
                        "{id}: segment {i} differs (volatile {paths:?} blanked)\n  want {wseg:?}\n  got  {g:?}"
                    ));
                }
            }
            _ => return Err(format!("{id}: segment {i} is not JSON\n  got {g:?}")),
        }
    }
    Ok((exact, masked))
}

/// A case's `volatile` paths.
pub fn volatile(c: &Value) -> Vec<&str> {
    c["volatile"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect()
}
