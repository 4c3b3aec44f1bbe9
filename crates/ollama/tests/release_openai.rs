//! `/v1/chat/completions` and `/v1/responses` reasoning effort as each
//! supported Ollama release converts it: `tests/golden/releases/
//! openai-effort-<tag>.jsonl` hold what `openai.FromChatRequest` and
//! `openai.FromResponsesRequest` returned at v0.32.10, v0.32.11 and
//! v0.33.0-rc2 for 24 bodies (README.md there). Each supported release is
//! checked against a recording that has the same reasoning-effort row
//! (`openai_reasoning_effort_clamp`) in effect.

use ollama::compat::{self, Env, Route};

mod releases_common;

use releases_common::{lines, recording_for};

const RECORDED: [&str; 3] = ["0.32.10", "0.32.11", "0.33.0-rc2"];

#[test]
fn every_supported_release_converts_reasoning_effort_as_its_go_code_did() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for release in changes::Release::SUPPORTED {
        let tag = recording_for(
            *release,
            &RECORDED,
            // the one row these bodies reach (none names web search or
            // replays an assistant message between a call and its output)
            &[&changes::ollama::OPENAI_REASONING_EFFORT_CLAMP],
        );
        for c in lines(&format!("openai-effort-{tag}.jsonl")) {
            let id = c["id"].as_str().unwrap();
            let route = match c["route"].as_str() {
                Some("chat") => Route::OpenAiChat,
                _ => Route::OpenAiResponses,
            };
            let env = Env {
                release: *release,
                ..Env::default()
            };
            let got = compat::convert_with(route, &c["body"], env);
            checked += 1;
            let ok = match (&got, c.get("error")) {
                (Err(e), Some(want)) => Some(e.message.as_str()) == want.as_str(),
                // the request the route hands on, as Go marshals api.ChatRequest
                // (`stream` is set by ResponsesMiddleware after
                // FromResponsesRequest, the function recorded)
                (Ok(conv), None) => {
                    let mut request = conv.request.clone();
                    if route == Route::OpenAiResponses && c["result"].get("stream").is_none() {
                        request.as_object_mut().unwrap().remove("stream");
                    }
                    request == c["result"]
                }
                _ => false,
            };
            if !ok {
                failures.push(format!(
                    "{release} (recorded at {tag}) {id}: got {:?}, want {}",
                    got.as_ref()
                        .map(|c| c.request.to_string())
                        .map_err(|e| e.message.clone()),
                    c.get("error").unwrap_or(&c["result"])
                ));
            }
        }
    }
    println!("{checked} conversions, {} failed", failures.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
