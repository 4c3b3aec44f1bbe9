//! `promptscope parse`: a render case plus the model's output gives the
//! message Ollama answers with (spec/cli.md, "Additions (contract v2)").
//! The parsers themselves are checked against Ollama's own code in
//! crates/ollama/tests (parsers_golden, answer_golden); these tests check
//! the command: its input forms, outputs, errors and exit codes.

mod common;

use common::run;
use serde_json::{json, Value};

const TOOLS: &str = r#"[{"type": "function", "function": {"name": "get_weather", "description": "Weather",
    "parameters": {"type": "object", "required": ["city"], "properties": {"city": {"type": "string"}, "days": {"type": "integer"}}}}}]"#;

fn tools() -> Value {
    serde_json::from_str(TOOLS).unwrap()
}

/// A chat case for a model with `PARSER parser`, with tools.
fn case(parser: &str, output: Value) -> Value {
    let mut c = json!({
        "id": parser,
        "endpoint": "chat",
        "model": {"name": "m", "template": "{{ .Prompt }}", "parser": parser},
        "request": {"model": "m", "messages": [{"role": "user", "content": "Weather in Paris?"}], "tools": tools()},
    });
    for (k, v) in output.as_object().unwrap() {
        c[k] = v.clone();
    }
    c
}

/// Masks Ollama's random tool-call ids (`call_` and 8 of `a-z0-9`).
fn mask(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find("\"call_") {
        out.push_str(&rest[..i + 6]);
        let id = &rest[i + 6..];
        assert!(
            id.len() > 8
                && id.as_bytes()[8] == b'"'
                && id[..8]
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()),
            "an id of Ollama's shape: {s}"
        );
        out.push_str("XXXXXXXX");
        rest = &id[8..];
    }
    out.push_str(rest);
    out
}

const QWEN3_CODER_CALL: &str =
    "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n<parameter=days>\n3\n</parameter>\n</function>\n</tool_call>";

#[test]
fn a_qwen3_coder_tool_call_in_any_chunking() {
    let want = r#"{"role":"assistant","content":"","tool_calls":[{"id":"call_XXXXXXXX","function":{"index":0,"name":"get_weather","arguments":{"city":"Paris","days":3}}}]}"#;
    let whole = case("qwen3-coder", json!({"output": QWEN3_CODER_CALL}));
    let (code, out, err) = run(&["parse"], &whole.to_string());
    assert_eq!(code, 0, "{err}");
    assert_eq!(mask(out.trim_end()), want);
    // per character, and in pieces of 5 bytes: the same message
    let chars: Vec<String> = QWEN3_CODER_CALL.chars().map(String::from).collect();
    let fives: Vec<String> = QWEN3_CODER_CALL
        .as_bytes()
        .chunks(5)
        .map(|c| String::from_utf8(c.to_vec()).unwrap())
        .collect();
    for chunks in [chars, fives] {
        let c = case("qwen3-coder", json!({"chunks": chunks}));
        let (code, out, err) = run(&["parse"], &c.to_string());
        assert_eq!(code, 0, "{err}");
        assert_eq!(mask(out.trim_end()), want);
    }
}

#[test]
fn a_harmony_answer_splits_thinking_and_calls() {
    // gpt-oss ends a call with <|call|>, an end-of-generation token that never reaches the text
    let output = "<|channel|>analysis<|message|>Let me check the weather.<|end|><|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{\"city\":\"Paris\"}";
    let c = case("harmony", json!({"output": output}));
    let (code, out, err) = run(&["parse"], &c.to_string());
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        mask(out.trim_end()),
        r#"{"role":"assistant","content":"","thinking":"Let me check the weather.","tool_calls":[{"id":"call_XXXXXXXX","function":{"index":0,"name":"get_weather","arguments":{"city":"Paris"}}}]}"#
    );
}

#[test]
fn without_tools_a_call_stays_content_and_json_says_why() {
    // the TEMPLATE's tool parser runs only when the request has tools
    let mut c = case(
        "",
        json!({"output": "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>"}),
    );
    c["model"] = json!({"name": "m", "template": "{{ if .Tools }}{{ .Tools }}{{ end }}{{ range .ToolCalls }}<tool_call>{{ end }}{{ .Prompt }}"});
    c["request"].as_object_mut().unwrap().remove("tools");
    let (code, out, err) = run(&["parse", "--json"], &c.to_string());
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert!(v["message"]["content"]
        .as_str()
        .unwrap()
        .starts_with("<tool_call>"));
    assert!(v["message"].get("tool_calls").is_none());
    assert_eq!(v["parser"]["kind"], "none");
    let why = v["parser"]["why"].to_string();
    assert!(why.contains("no tools"), "{why}");
    let diagnosis = v["diagnosis"].to_string();
    assert!(diagnosis.contains("line 1, column 1"), "{diagnosis}");
    // the stream ends with the done response
    let stream = v["stream"].as_array().unwrap();
    assert_eq!(stream.last().unwrap()["done"], true);
}

#[test]
fn the_generic_thinking_parser_and_generate() {
    let template = "{{ range .Messages }}<|im_start|>{{ .Role }}\n{{ if .Thinking }}<think>{{ .Thinking }}</think>{{ end }}{{ .Content }}<|im_end|>\n{{ end }}<|im_start|>assistant\n{{ if .Think }}<think>\n{{ end }}";
    let c = json!({
        "endpoint": "chat",
        "model": {"name": "m", "template": template},
        "request": {"model": "m", "messages": [{"role": "user", "content": "hi"}], "think": true},
        "chunks": ["Hmm, a greeting.", "</think>", "\n\nHello!"],
    });
    let (code, out, err) = run(&["parse"], &c.to_string());
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out.trim_end(),
        r#"{"role":"assistant","content":"Hello!","thinking":"Hmm, a greeting."}"#
    );
    // generate: `response`, as api.GenerateResponse marshals it
    let g = json!({
        "endpoint": "generate",
        "model": {"name": "m", "template": "{{ .Prompt }}", "parser": "qwen3-thinking"},
        "request": {"model": "m", "prompt": "hi"},
        "output": "Thinking...</think>Hi there",
    });
    let (code, out, err) = run(&["parse"], &g.to_string());
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out.trim_end(),
        r#"{"response":"Hi there","thinking":"Thinking..."}"#
    );
}

#[test]
fn ollama_errors_and_bad_cases() {
    // the qwen3 parser fails the request on a malformed call (500 in Ollama)
    let c = case(
        "qwen3",
        json!({"output": "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\",}}\n</tool_call>"}),
    );
    let (code, out, _) = run(&["parse"], &c.to_string());
    assert_eq!(code, 1);
    assert_eq!(
        out.trim_end(),
        r#"{"error":"failed to parse JSON: invalid character '}' looking for beginning of object key string"}"#
    );
    // a request Ollama refuses before the model runs
    let mut c = case("", json!({"output": "x"}));
    c["request"]["think"] = true.into();
    c["request"].as_object_mut().unwrap().remove("tools");
    let (code, out, _) = run(&["parse"], &c.to_string());
    assert_eq!(code, 1);
    assert_eq!(
        out.trim_end(),
        r#"{"error":"\"m\" does not support thinking"}"#
    );
    // no output at all is a usage error (exit 2) that says what is missing
    let c = case("qwen3", json!({}));
    let (code, _, err) = run(&["parse"], &c.to_string());
    assert_eq!(code, 2);
    assert!(err.contains("\"output\""), "{err}");
    let c = case("qwen3", json!({"chunks": ["a", 5]}));
    let (code, _, err) = run(&["parse"], &c.to_string());
    assert_eq!(code, 2);
    assert!(err.contains("\"chunks\"[1]"), "{err}");
    let (code, _, err) = run(&["parse"], "{not json");
    assert_eq!(code, 2);
    assert!(err.contains("invalid JSON"), "{err}");
}

#[test]
fn jsonl_results_carry_ids() {
    let a = case("qwen3-coder", json!({"id": 7, "output": QWEN3_CODER_CALL}));
    let b = case("qwen3", json!({"id": "b", "output": "<tool_call>\n{bad"}));
    let bad = "{oops";
    let input = format!("{a}\n\n{b}\n{bad}\n");
    let (code, out, _) = run(&["parse", "--jsonl"], &input);
    assert_eq!(code, 1, "an invalid line makes the exit code 1");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(lines[0].starts_with(r#"{"id":7,"role":"assistant","content":"","tool_calls":"#));
    let v: Value = serde_json::from_str(lines[1]).unwrap();
    assert_eq!(v["id"], "b");
    assert!(v.get("role").is_some() || v.get("error").is_some(), "{v}");
    let v: Value = serde_json::from_str(lines[2]).unwrap();
    assert!(v["invalid"].as_str().unwrap().contains("line 4"), "{v}");
}
