//! Reads JSON lines `{"template": ..., "vars": {...}}` on stdin and prints one
//! line per case: `{"got": ...}`, `{"error": ...}` or `{"skip": ...}` (the
//! C++ `not_implemented_exception`); with `caps` as argument, `{"caps": {...}}`; with `dump`, `{"got": debug_dump_program}`.
//! The same protocol as a small C++ driver over llama.cpp's engine, for
//! differential testing.

use std::io::{BufRead, Write};

fn main() {
    let mode = std::env::args().nth(1).unwrap_or_default();
    let caps = mode == "caps";
    let dump = mode == "dump";
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let Ok(row) = serde_json::from_str::<serde_json::Value>(&line) else {
            continue;
        };
        let tmpl = row["template"].as_str().unwrap_or("");
        let mut res = serde_json::Map::new();
        let r = if dump {
            jinja::parse(tmpl).map(|p| ("got", jinja::Runtime::debug_dump_program(&p, tmpl).into()))
        } else if caps {
            jinja::parse(tmpl)
                .and_then(|p| jinja::caps_get(&p))
                .map(|c| {
                    let m: serde_json::Map<String, serde_json::Value> = c
                        .to_map()
                        .into_iter()
                        .map(|(k, v)| (k.to_string(), v.into()))
                        .collect();
                    ("caps", serde_json::Value::Object(m))
                })
        } else {
            jinja::render(tmpl, &row["vars"]).map(|s| ("got", serde_json::Value::String(s)))
        };
        match r {
            Ok((k, v)) => {
                res.insert(k.into(), v);
            }
            Err(e) if e.kind() == jinja::ErrorKind::NotImplemented => {
                res.insert("skip".into(), e.message().into());
            }
            Err(e) => {
                res.insert("error".into(), e.message().into());
            }
        }
        let _ = writeln!(out, "{}", serde_json::Value::Object(res));
    }
}
