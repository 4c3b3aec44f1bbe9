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

use ollama::compat;

mod reply_common;

use reply_common::{compare, golden, python_text, volatile, write_case};

#[test]
fn writers_are_ollamas() {
    let cases = golden();
    let mut failures = Vec::new();
    let (mut exact, mut masked) = (0, 0);
    for c in &cases {
        let id = c["id"].as_str().unwrap();
        let got = write_case(c, changes::Release::NEWEST);
        match compare(id, &got, c["written"].as_str().unwrap(), &volatile(c)) {
            Ok((e, m)) => {
                exact += e;
                masked += m;
            }
            Err(f) => failures.push(f),
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
