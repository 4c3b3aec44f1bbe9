//! `promptscope render --json` on the compatibility routes: the converted
//! request (`api_request`, exactly the bytes `ollama::compat` writes, which
//! `crates/ollama/tests/compat_golden.rs` checks against Ollama's), the
//! options in effect (the route's defaults over the model's PARAMETERs),
//! the fate of each field, the prompt of the converted request, and the
//! route's own error bodies; a stored model's PARAMETERs under a route.

mod common;

use common::run;
use serde_json::{json, Value};

const TEMPLATE: &str =
    "{{- range .Messages }}<|{{ .Role }}|>{{ .Content }}\n{{ end }}<|assistant|>";

fn render(case: &Value) -> (i32, Value) {
    let (code, out, err) = run(&["render", "--json"], &case.to_string());
    assert!(code == 0 || code == 1, "{err}");
    (
        code,
        serde_json::from_str(&out).unwrap_or_else(|_| panic!("{out}{err}")),
    )
}

#[test]
fn openai_chat_converts_renders_and_names_every_field() {
    let body = json!({
        "model": "m",
        "messages": [
            {"role": "system", "content": "Be brief."},
            {"role": "user", "content": [{"type": "text", "text": "Hi"}, {"type": "text", "text": "there"}]}
        ],
        "max_tokens": 7,
        "n": 2
    });
    let (code, j) = render(&json!({
        "endpoint": "openai-chat",
        "model": {"template": TEMPLATE, "parameters": {"temperature": 0.2, "num_ctx": 2048}},
        "request": body,
    }));
    assert_eq!(code, 0, "{j}");
    assert_eq!(
        j["prompt"],
        // the two parts are two user messages, which the template's
        // collate step joins
        "<|system|>Be brief.\n<|user|>Hi\n\nthere\n<|assistant|>"
    );
    assert_eq!(j["native_endpoint"], "chat");
    let want = ollama::compat::convert(ollama::compat::Route::OpenAiChat, &body).unwrap();
    assert_eq!(j["api_request"], want.request);
    // the route's temperature and top_p (1) over the model's; its num_ctx stays
    assert_eq!(j["options"]["temperature"], 1);
    assert_eq!(j["options"]["top_p"], 1);
    assert_eq!(j["options"]["num_predict"], 7);
    assert_eq!(j["options"]["num_ctx"], 2048);
    let fate = |f: &str| {
        j["fields"]
            .as_array()
            .unwrap()
            .iter()
            .find(|n| n["field"] == f)
            .map(|n| n["fate"].as_str().unwrap().to_string())
    };
    assert_eq!(fate("max_tokens").as_deref(), Some("mapped"));
    assert_eq!(fate("n").as_deref(), Some("dropped"));
    assert_eq!(fate("temperature").as_deref(), Some("defaulted"));
}

#[test]
fn route_errors_are_the_routes_bodies() {
    // the middleware's own refusal: c.AbortWithStatusJSON, no newline
    let (code, j) = render(
        &json!({"endpoint": "openai-chat", "model": {"template": TEMPLATE},
        "request": {"model": "m", "messages": []}}),
    );
    assert_eq!(code, 1);
    assert_eq!(j["status"], 400);
    assert_eq!(
        j["body"],
        r#"{"error":{"message":"[] is too short - 'messages'","type":"invalid_request_error","param":null,"code":null}}"#
    );
    // the handler's refusal behind the middleware: written by json.Encoder
    let (code, j) = render(
        &json!({"endpoint": "anthropic-messages", "model": {"template": TEMPLATE},
        "request": {"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": "hi"}],
            "tools": [{"name": "f", "input_schema": {"type": "object"}}]}}),
    );
    assert_eq!(code, 1);
    let body = j["body"].as_str().unwrap();
    assert!(body.starts_with(r#"{"type":"error","error":{"type":"invalid_request_error","message":"registry.ollama.ai/library/m:latest does not support tools"},"request_id":"req_"#), "{body}");
    assert!(body.ends_with("\"}\n"), "{body}");
    // Go's decoding errors, number literal and struct context included
    let (_, j) = render(
        &json!({"endpoint": "openai-completions", "model": {"template": TEMPLATE},
        "request": {"model": "m", "prompt": "p", "max_tokens": 1.5}}),
    );
    assert_eq!(
        j["error"],
        "json: cannot unmarshal number 1.5 into Go struct field CompletionRequest.max_tokens of type int"
    );
}

#[test]
fn anthropic_relaxes_thinking_where_chat_refuses_it() {
    let msgs = json!([{"role": "user", "content": "hi"}]);
    let (code, j) = render(
        &json!({"endpoint": "anthropic-messages", "model": {"template": TEMPLATE},
        "request": {"model": "m", "max_tokens": 5, "messages": msgs, "thinking": {"type": "enabled", "budget_tokens": 100}}}),
    );
    assert_eq!(code, 0, "{j}");
    assert_eq!(j["api_request"]["think"], true);
    assert_eq!(j["explain"]["think"], Value::Null);
    let (code, j) = render(&json!({"endpoint": "chat", "model": {"template": TEMPLATE},
        "request": {"model": "m", "messages": msgs, "think": true}}));
    assert_eq!(code, 1);
    assert_eq!(j["error"], "\"m\" does not support thinking");
}

#[test]
fn a_stored_models_parameters_go_under_the_route() {
    let store = std::path::PathBuf::from(
        std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR at run time"),
    )
    .join("../store/tests/fixture/models");
    let (code, j) = render(&json!({"endpoint": "openai-responses",
        "model": {"store": store.to_str().unwrap(), "name": "smol-go"},
        "request": {"model": "smol-go", "input": "Hi", "instructions": "Be brief.", "top_p": 0.5}}));
    assert_eq!(code, 0, "{j}");
    // smol-go's PARAMETERs: num_ctx 8192, temperature 0.7, two stops;
    // Responses defaults temperature to 1 and leaves top_p to the request
    assert_eq!(j["options"]["num_ctx"], 8192);
    assert_eq!(j["options"]["temperature"], 1);
    assert_eq!(j["options"]["top_p"], 0.5);
    assert_eq!(j["options"]["stop"], json!(["<|im_end|>", "<|im_start|>"]));
    assert_eq!(
        j["api_request"]["messages"][0],
        json!({"role": "system", "content": "Be brief."})
    );
    assert!(j["prompt"].as_str().unwrap().contains("Be brief."), "{j}");
}
