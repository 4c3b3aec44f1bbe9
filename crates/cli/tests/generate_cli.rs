//! `promptscope generate` on SmolLM2-135M-Instruct Q4_1: Ollama's response
//! shapes, `prompt_eval_count` equal to llama.cpp's, greedy text.
//!
//! The case is the second prompt of `crates/inference/tests/golden/
//! smollm2-greedy.jsonl` (recorded from llama.cpp): SmolLM2's chat template
//! renders this conversation to exactly that text, so its llama.cpp token
//! count and greedy continuation are known.

mod common;

use common::run;
use serde_json::{json, Value};

/// The llama.cpp golden: (prompt text, prompt ids).
fn golden() -> (String, usize) {
    let path = std::path::PathBuf::from(
        std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR at run time"),
    )
    .join("../inference/tests/golden/smollm2-greedy.jsonl");
    let line = std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .nth(1)
        .unwrap()
        .to_string();
    let v: Value = serde_json::from_str(&line).unwrap();
    (
        v["prompt"].as_str().unwrap().to_string(),
        v["prompt_ids"].as_array().unwrap().len(),
    )
}

fn case(extra: Value, options: Value) -> String {
    let mut request = json!({
        "model": "smollm2",
        "messages": [
            {"role": "system", "content": "You are a helpful assistant."},
            {"role": "user", "content": "What is the capital of Japan?"}
        ],
        "options": options,
    });
    for (k, v) in extra.as_object().unwrap() {
        request[k] = v.clone();
    }
    json!({"endpoint": "chat", "model": {"name": "smollm2"}, "request": request}).to_string()
}

fn lines(stdout: &str) -> Vec<Value> {
    stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn keys(v: &Value) -> Vec<&str> {
    v.as_object().unwrap().keys().map(String::as_str).collect()
}

#[test]
fn num_predict_zero_counts_like_llama_cpp_without_running() {
    let gguf = testkit::smollm2();
    let (_, want) = golden();
    let (code, out, err) = run(
        &["generate", "--gguf", gguf.to_str().unwrap()],
        &case(json!({}), json!({"num_predict": 0})),
    );
    assert_eq!(code, 0, "{err}");
    let l = lines(&out);
    assert_eq!(l.len(), 1);
    assert_eq!(
        keys(&l[0]),
        [
            "model",
            "created_at",
            "message",
            "done",
            "done_reason",
            "total_duration",
            "prompt_eval_count"
        ]
    );
    assert_eq!(l[0]["prompt_eval_count"], want);
    assert_eq!(l[0]["done"], true);
    assert_eq!(l[0]["done_reason"], "length");
    assert_eq!(l[0]["message"], json!({"role": "assistant", "content": ""}));
}

#[test]
fn debug_render_only_answers_like_ollama() {
    let gguf = testkit::smollm2();
    let (prompt, _) = golden();
    let (code, out, err) = run(
        &["generate", "--gguf", gguf.to_str().unwrap()],
        &case(json!({"_debug_render_only": true}), json!({})),
    );
    assert_eq!(code, 0, "{err}");
    let l = lines(&out);
    assert_eq!(l.len(), 1);
    assert_eq!(
        keys(&l[0]),
        ["model", "created_at", "message", "done", "_debug_info"]
    );
    assert_eq!(l[0]["message"], json!({"role": "", "content": ""}));
    assert_eq!(l[0]["done"], false);
    assert_eq!(l[0]["_debug_info"], json!({"rendered_template": prompt}));
}

#[test]
fn greedy_chat_streams_ollama_chunks() {
    let gguf = testkit::smollm2();
    let (_, n_prompt) = golden();
    let (code, out, err) = run(
        &["generate", "--gguf", gguf.to_str().unwrap(), "--debug"],
        &case(json!({}), json!({"temperature": 0, "num_predict": 64})),
    );
    assert_eq!(code, 0, "{err}");
    let l = lines(&out);
    let text: String = l
        .iter()
        .map(|c| c["message"]["content"].as_str().unwrap())
        .collect();
    assert_eq!(text, "The capital of Japan is Tokyo.");
    // the opt-in debug output rides on the first chunk
    assert_eq!(l[0]["_debug_info"]["prompt_tokens"], n_prompt);
    assert_eq!(l[0]["_debug_info"]["options"]["temperature"], 0.0);
    // and says what runs where
    let runner = &l[0]["_debug_info"]["runner"];
    assert_eq!(runner["arch"], "llama");
    assert_eq!(runner["graph"], "Promptscope's decoder");
    assert_eq!(
        runner["tensor_types"],
        json!([{"type": "Q4_1", "count": 210}, {"type": "F32", "count": 61}, {"type": "Q8_0", "count": 1}])
    );
    assert!(runner["threads"].as_u64().unwrap() >= 1);
    assert!(["AVX2", "scalar"].contains(&runner["cpu"].as_str().unwrap()));
    for c in &l[..l.len() - 1] {
        assert_eq!(c["done"], false);
        assert_eq!(c["message"]["role"], "assistant");
    }
    let last = l.last().unwrap();
    assert_eq!(
        keys(last),
        [
            "model",
            "created_at",
            "message",
            "done",
            "done_reason",
            "total_duration",
            "load_duration",
            "prompt_eval_count",
            "prompt_eval_duration",
            "eval_count",
            "eval_duration"
        ]
    );
    assert_eq!(last["done_reason"], "stop");
    assert_eq!(last["prompt_eval_count"], n_prompt);
    // seven text tokens and <|im_end|>, which llama-server counts
    assert_eq!(last["eval_count"], 8);
    let total = last["total_duration"].as_u64().unwrap();
    let parts = ["load_duration", "prompt_eval_duration", "eval_duration"]
        .map(|k| last[k].as_u64().unwrap());
    assert!(parts.iter().sum::<u64>() <= total, "{last}");
}

#[test]
fn generate_endpoint_unstreamed_has_context() {
    let gguf = testkit::smollm2();
    let c = json!({"endpoint": "generate", "model": {"name": "smollm2"},
        "request": {"model": "smollm2", "prompt": "The quick brown fox", "raw": true, "stream": false,
                    "options": {"temperature": 0, "num_predict": 5}}});
    let (code, out, err) = run(
        &["generate", "--gguf", gguf.to_str().unwrap()],
        &c.to_string(),
    );
    assert_eq!(code, 0, "{err}");
    let l = lines(&out);
    assert_eq!(l.len(), 1);
    assert_eq!(l[0]["response"], " with a quick brown bear");
    assert_eq!(l[0]["done_reason"], "length");
    assert_eq!(l[0]["eval_count"], 5);
    // raw mode: no context
    assert!(l[0].get("context").is_none());
    let c2 = c.to_string().replace(r#""raw":true,"#, "");
    let (code, out, _) = run(&["generate", "--gguf", gguf.to_str().unwrap()], &c2);
    assert_eq!(code, 0);
    let v: Value = serde_json::from_str(out.trim()).unwrap();
    assert!(v["context"].as_array().is_some_and(|a| !a.is_empty()));
}

#[test]
fn bad_options_are_ollamas_errors() {
    let gguf = testkit::smollm2();
    let (code, out, _) = run(
        &["generate", "--gguf", gguf.to_str().unwrap()],
        &case(json!({}), json!({"num_predict": "ten"})),
    );
    assert_eq!(code, 1);
    assert_eq!(
        out.trim(),
        r#"{"error":"option \"num_predict\" must be of type integer"}"#
    );
    let (code, _, err) = run(&["generate"], "{}");
    assert_eq!(code, 2);
    assert!(err.contains("generate needs --gguf FILE"), "{err}");
}

/// A Go TEMPLATE with thinking whose prompt ends in `<think>`: with think
/// on, Ollama's generic thinking parser sends the answer as `thinking` (no
/// closing tag comes), its leading whitespace eaten; with think off, the
/// same greedy text is `content`.
#[test]
fn the_generic_thinking_parser_splits_the_answer() {
    let gguf = testkit::smollm2();
    let template = "{{ range .Messages }}<|im_start|>{{ .Role }}\n{{ if .Thinking }}<think>{{ .Thinking }}</think>{{ end }}{{ .Content }}<|im_end|>\n{{ end }}<|im_start|>assistant\n<think>\n";
    let run_with = |think: bool| {
        let request = json!({
            "model": "smollm2",
            "messages": [{"role": "user", "content": "What is the capital of Japan?"}],
            "think": think,
            "options": {"temperature": 0, "num_predict": 12},
        });
        let case = json!({"endpoint": "chat", "model": {"name": "smollm2", "template": template}, "request": request});
        let (code, out, err) = run(
            &["generate", "--gguf", gguf.to_str().unwrap()],
            &case.to_string(),
        );
        assert_eq!(code, 0, "{err}");
        lines(&out)
    };
    let join = |l: &[Value], key: &str| -> String {
        l.iter()
            .filter_map(|c| c["message"][key].as_str())
            .collect()
    };
    let off = run_with(false);
    let on = run_with(true);
    let text = join(&off, "content");
    assert!(!text.trim().is_empty());
    assert!(off.iter().all(|c| c["message"].get("thinking").is_none()));
    assert_eq!(join(&on, "thinking"), text.trim_start());
    assert_eq!(join(&on, "content"), "");
    // the chunk order is Go's: role, content, thinking
    let first = &on[0]["message"];
    assert_eq!(keys(first), ["role", "content", "thinking"]);
    assert_eq!(
        on.last().unwrap()["eval_count"],
        off.last().unwrap()["eval_count"]
    );
}

fn openai_case(extra: Value) -> String {
    let mut request = json!({
        "model": "smollm2",
        "messages": [
            {"role": "system", "content": "You are a helpful assistant."},
            {"role": "user", "content": [{"type": "text", "text": "What is the capital of Japan?"}]}
        ],
        "temperature": 0,
        "max_tokens": 64,
    });
    for (k, v) in extra.as_object().unwrap() {
        request[k] = v.clone();
    }
    json!({"endpoint": "openai-chat", "model": {"name": "smollm2"}, "request": request}).to_string()
}

/// `/v1/chat/completions`: the conversion (content parts, `max_tokens`),
/// the same greedy text, and the route's own shapes: a `chat.completion`
/// with `usage` unstreamed; streamed, `chat.completion.chunk` events, a
/// finish chunk, the usage chunk `stream_options.include_usage` asks for,
/// and `[DONE]`.
#[test]
fn openai_chat_answers_in_its_own_shapes() {
    let gguf = testkit::smollm2();
    let (_, n_prompt) = golden();
    let (code, out, err) = run(
        &["generate", "--gguf", gguf.to_str().unwrap()],
        &openai_case(json!({})),
    );
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        keys(&v),
        [
            "id",
            "object",
            "created",
            "model",
            "system_fingerprint",
            "choices",
            "usage"
        ]
    );
    assert!(v["id"].as_str().unwrap().starts_with("chatcmpl-"));
    assert_eq!(v["object"], "chat.completion");
    assert_eq!(
        v["choices"][0]["message"]["content"],
        "The capital of Japan is Tokyo."
    );
    assert_eq!(v["choices"][0]["finish_reason"], "stop");
    assert_eq!(v["usage"]["prompt_tokens"], n_prompt);
    assert_eq!(v["usage"]["completion_tokens"], 8);
    assert_eq!(v["usage"]["total_tokens"], n_prompt as u64 + 8);

    let (code, out, err) = run(
        &["generate", "--gguf", gguf.to_str().unwrap()],
        &openai_case(json!({"stream": true, "stream_options": {"include_usage": true}})),
    );
    assert_eq!(code, 0, "{err}");
    let events: Vec<&str> = out
        .split("\n\n")
        .filter(|e| !e.is_empty())
        .map(|e| e.strip_prefix("data: ").expect("SSE data lines"))
        .collect();
    assert_eq!(*events.last().unwrap(), "[DONE]");
    let chunks: Vec<Value> = events[..events.len() - 1]
        .iter()
        .map(|e| serde_json::from_str(e).unwrap())
        .collect();
    let text: String = chunks
        .iter()
        .filter_map(|c| c["choices"][0]["delta"]["content"].as_str())
        .collect();
    assert_eq!(text, "The capital of Japan is Tokyo.");
    assert_eq!(chunks[0]["choices"][0]["delta"]["role"], "assistant");
    assert!(chunks[1..]
        .iter()
        .all(|c| c["choices"][0]["delta"].get("role").is_none()));
    let created = &chunks[0]["created"];
    assert!(chunks.iter().all(|c| &c["created"] == created));
    let n = chunks.len();
    assert_eq!(chunks[n - 2]["choices"][0]["finish_reason"], "stop");
    assert_eq!(chunks[n - 2]["choices"][0]["delta"], json!({}));
    assert_eq!(chunks[n - 1]["choices"], json!([]));
    assert_eq!(chunks[n - 1]["usage"]["prompt_tokens"], n_prompt);
}

/// A Hermes-style TEMPLATE (tool calls as `<tool_call>` and a JSON object)
/// and a conversation that steers SmolLM2 into that format: two earlier
/// turns answered with a tool call, then a new question.
fn tool_case(parser: &str, stream: bool) -> String {
    let template = "{{- if .Tools }}<|im_start|>system\nYou can call tools. To call one, answer with <tool_call> and a JSON object.\n<tools>\n{{- range .Tools }}\n{{ json .Function }}\n{{- end }}\n</tools><|im_end|>\n{{ end }}\n{{- range .Messages }}\n{{- if eq .Role \"tool\" }}<|im_start|>user\n<tool_response>\n{{ .Content }}\n</tool_response><|im_end|>\n{{ else }}<|im_start|>{{ .Role }}\n{{ if .Content }}{{ .Content }}{{ end }}\n{{- if .ToolCalls }}<tool_call>\n{{ range .ToolCalls }}{\"name\": \"{{ .Function.Name }}\", \"arguments\": {{ .Function.Arguments }}}\n{{ end }}</tool_call>\n{{- end }}<|im_end|>\n{{ end }}\n{{- end }}<|im_start|>assistant\n";
    let call =
        |city: &str| json!([{"function": {"name": "get_weather", "arguments": {"city": city}}}]);
    let mut model = json!({"name": "smollm2", "template": template});
    if !parser.is_empty() {
        model["parser"] = parser.into();
    }
    json!({"endpoint": "chat", "model": model, "request": {
        "model": "smollm2",
        "messages": [
            {"role": "user", "content": "What is the weather in Paris?"},
            {"role": "assistant", "content": "", "tool_calls": call("Paris")},
            {"role": "tool", "content": "18 C, cloudy"},
            {"role": "assistant", "content": "It is 18 C and cloudy in Paris."},
            {"role": "user", "content": "What is the weather in Berlin?"},
            {"role": "assistant", "content": "", "tool_calls": call("Berlin")},
            {"role": "tool", "content": "12 C, rain"},
            {"role": "assistant", "content": "It is 12 C and rainy in Berlin."},
            {"role": "user", "content": "What is the weather in Tokyo?"}
        ],
        "tools": [{"type": "function", "function": {"name": "get_weather", "description": "Get the weather in a city",
            "parameters": {"type": "object", "required": ["city"], "properties": {"city": {"type": "string", "description": "The city"}}}}}],
        "stream": stream,
        "options": {"temperature": 0, "num_predict": 40}
    }})
    .to_string()
}

/// Generation answers with `tool_calls` as Ollama would: through the tool
/// parser Ollama derives from the TEMPLATE (tag `<tool_call>`), and through
/// the built-in `qwen3` parser; unstreamed, the one message carries the
/// call with an id of Ollama's shape and no content; streamed, one chunk
/// carries it.
#[test]
fn generation_answers_with_tool_calls() {
    let gguf = testkit::smollm2();
    let is_id = |v: &Value| {
        let s = v.as_str().unwrap_or("");
        s.len() == 13
            && s.starts_with("call_")
            && s[5..]
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
    };
    for parser in ["", "qwen3"] {
        let (code, out, err) = run(
            &["generate", "--gguf", gguf.to_str().unwrap()],
            &tool_case(parser, false),
        );
        assert_eq!(code, 0, "{err}");
        let one = lines(&out);
        assert_eq!(one.len(), 1, "{out}");
        let m = &one[0]["message"];
        assert_eq!(m["content"], "", "{parser:?}: {out}");
        let calls = m["tool_calls"].as_array().expect("tool_calls");
        assert_eq!(calls.len(), 1, "{out}");
        assert!(is_id(&calls[0]["id"]), "{out}");
        assert_eq!(
            calls[0]["function"],
            json!({"index": 0, "name": "get_weather", "arguments": {"city": "Tokyo"}}),
            "{parser:?}"
        );
        assert_eq!(one[0]["done_reason"], "stop");

        let (code, out, err) = run(
            &["generate", "--gguf", gguf.to_str().unwrap()],
            &tool_case(parser, true),
        );
        assert_eq!(code, 0, "{err}");
        let chunks = lines(&out);
        let with_calls: Vec<&Value> = chunks
            .iter()
            .filter(|c| c["message"].get("tool_calls").is_some())
            .collect();
        assert_eq!(with_calls.len(), 1, "{parser:?}: {out}");
        assert_eq!(
            with_calls[0]["message"]["tool_calls"][0]["function"]["arguments"],
            json!({"city": "Tokyo"})
        );
        // no tool-call text leaks into the content
        let content: String = chunks
            .iter()
            .filter_map(|c| c["message"]["content"].as_str())
            .collect();
        assert!(!content.contains("tool_call"), "{parser:?}: {content:?}");
        assert_eq!(chunks.last().unwrap()["done"], true);
    }
}
