//! The four compatibility routes against `tests/golden/v1.jsonl`, recorded
//! from Ollama v0.33.0-rc2's own conversion code
//! (`openai.FromChatRequest`, `FromCompleteRequest`, `FromResponsesRequest`,
//! `anthropic.FromMessagesRequest`, behind the middleware's checks of
//! middleware/openai.go and middleware/anthropic.go) under Go 1.26.0
//! (`tests/golden/README.md`):
//! the requests of Ollama's own tests and generated ones. For each body,
//! the native request the middleware writes is equal byte for byte, or the
//! error body is (Anthropic's random `request_id` aside).
//!
//! Bodies that are not JSON (`"raw": true`: empty, truncated, trailing
//! data) are a server's concern: a render case's request is JSON. Those
//! that parse are checked here like the others.

use ollama::compat::{self, Route};
use serde_json::Value;

fn golden() -> Vec<Value> {
    let path = std::path::PathBuf::from(
        std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR at run time"),
    )
    .join("tests/golden/v1.jsonl");
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Anthropic error bodies end in `"request_id":"req_<24 hex>"`.
fn without_request_id(s: &str) -> String {
    match s.find("\"request_id\":\"req_") {
        Some(i) => format!("{}{}", &s[..i], &s[i + 43..]),
        None => s.to_string(),
    }
}

#[test]
fn conversions_are_ollamas() {
    let cases = golden();
    let mut failures = Vec::new();
    let (mut checked, mut skipped) = (0, 0);
    for c in &cases {
        let id = c["id"].as_str().unwrap();
        let route = Route::from_name(c["route"].as_str().unwrap()).unwrap();
        let env = compat::Env {
            no_cloud: compat::Env::truthy(c["env"]["OLLAMA_NO_CLOUD"].as_str()),
            ..compat::Env::default()
        };
        let Some(got) = compat::convert_text(route, c["body"].as_str().unwrap(), env) else {
            assert_eq!(c["raw"], true, "{id}: the body does not parse");
            skipped += 1;
            continue;
        };
        checked += 1;
        match (&got, c.get("api_request")) {
            (Ok(conv), Some(want)) => {
                if conv.text != want.as_str().unwrap() {
                    failures.push(format!(
                        "{id}: request differs\n  want {}\n  got  {}",
                        want.as_str().unwrap().trim_end(),
                        conv.text.trim_end()
                    ));
                }
                if c["native"].as_str()
                    != Some(if conv.endpoint == ollama::server::Endpoint::Chat {
                        "chat"
                    } else {
                        "generate"
                    })
                {
                    failures.push(format!("{id}: native endpoint differs"));
                }
            }
            (Err(e), None) => {
                let want = c["error"].as_str().unwrap();
                let body =
                    route.error_body(e.status, &e.message, false, "req_000000000000000000000000");
                if without_request_id(&body) != without_request_id(want)
                    || c["status"].as_u64() != Some(e.status as u64)
                {
                    failures.push(format!("{id}: error differs\n  want {want}\n  got  {body}"));
                }
            }
            (Ok(conv), None) => failures.push(format!(
                "{id}: converted, Ollama refuses\n  want {}\n  got  {}",
                c["error"],
                conv.text.trim_end()
            )),
            (Err(e), Some(want)) => failures.push(format!(
                "{id}: refused ({}), Ollama converts\n  want {}",
                e.message,
                want.as_str().unwrap().trim_end()
            )),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} cases differ ({skipped} raw bodies skipped):\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(checked >= 400, "only {checked} cases");
    let refused = cases.iter().filter(|c| c.get("error").is_some()).count();
    eprintln!("{checked} bodies equal ({refused} of the {} recorded cases are refusals), {skipped} raw bodies skipped", cases.len());
}
