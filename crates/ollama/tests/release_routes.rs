//! The routes' release rows: what `/v1/chat/completions` writes back
//! (`ChatWriter`, recorded from v0.32.5's own code beside the v0.33.0-rc2
//! recording of `v1-responses.jsonl`), how `/api/generate`'s body decodes
//! (recorded at v0.32.5 and v0.32.6-rc0), and a Go test of the tag that
//! refuses image-generation models, ported.
//!
//! - `imagegen_refused` (v0.32.6-rc0, server/routes_generate_test.go
//!   `TestImageGenerateUnsupported`): `/api/generate` on a model whose
//!   configuration has the `image` capability is a 400; before, the
//!   image-generation runner ran it, which Promptscope does not reproduce
//!   and says so.
//! - `anthropic_close_text_before_thinking` (v0.32.2-rc0): `/v1/messages`
//!   as v0.32.1's `AnthropicWriter` wrote it (recorded).
//! - `format_immediate_for_thinking_parsers` (v0.31.2-rc2): when
//!   ChatHandler applies a `format`, as Explain says it.
//! - `generate_image_fields` (v0.32.6-rc0, api/types.go): before it,
//!   `width`, `height` and `steps` are int32 fields of the request, whose
//!   decoding errors are Go's `encoding/json` texts.

use ollama::case::RenderCase;
use serde_json::{json, Value};

mod releases_common;
mod reply_common;

use releases_common::{lines, recording_for, report};
use reply_common::{compare, golden, volatile, write_case};

/// `/v1/chat/completions`' 125 recorded answers (streamed and not: content,
/// thinking, tool calls, done reasons, usage, errors) at every release:
/// before `openai_stream_wire_format` and
/// `openai_finish_length_over_tool_calls` as v0.32.5's `ChatWriter` wrote
/// them (`openai-chat-writer-0.32.5.jsonl`; each chunk's `created` there
/// is the clock's), from v0.32.6-rc0 as v0.33.0-rc2's (`v1-responses.jsonl`).
#[test]
fn the_chat_completions_writer_per_release() {
    let (cases, old) = writer_cases("openai-chat", None, "openai-chat-writer-0.32.5.jsonl");
    let rows = [
        &changes::ollama::OPENAI_STREAM_WIRE_FORMAT,
        &changes::ollama::OPENAI_FINISH_LENGTH_OVER_TOOL_CALLS,
    ];
    check_writer(&cases, &old, "0.32.5", &rows, "chat completions answers");
}

/// `/v1/messages`' 140 recorded answers and 6 streams that interleave text
/// and thinking (`anthropic-writer-extra.jsonl`, v0.33.0-rc2's output) at
/// every release: before `anthropic_close_text_before_thinking` as
/// v0.32.1's `AnthropicWriter` wrote them (`anthropic-writer-0.32.1.jsonl`;
/// v0.32.2-rc0's recording equals v0.33.0-rc2's), from v0.32.2-rc0 as
/// v0.33.0-rc2's (`v1-responses.jsonl`).
#[test]
fn the_anthropic_messages_writer_per_release() {
    let (cases, old) = writer_cases(
        "anthropic-messages",
        Some("anthropic-writer-extra.jsonl"),
        "anthropic-writer-0.32.1.jsonl",
    );
    // the two recordings part on 5 streams (their random ids aside)
    let parted = cases
        .iter()
        .filter(|c| {
            let id = c["id"].as_str().unwrap();
            let (a, b) = (&old[id]["written"], &c["written"]);
            compare(id, a.as_str().unwrap(), b.as_str().unwrap(), &volatile(c)).is_err()
        })
        .count();
    assert_eq!(parted, 5);
    let rows = [&changes::ollama::ANTHROPIC_CLOSE_TEXT_BEFORE_THINKING];
    check_writer(&cases, &old, "0.32.1", &rows, "messages answers");
}

/// A route's cases of `v1-responses.jsonl` (and of `extra`, in its line
/// format), with an older release's recording of each by id.
fn writer_cases(
    route: &str,
    extra: Option<&str>,
    old_file: &str,
) -> (Vec<Value>, std::collections::BTreeMap<String, Value>) {
    let old: std::collections::BTreeMap<String, Value> = lines(old_file)
        .into_iter()
        .map(|c| (c["id"].as_str().unwrap().to_string(), c))
        .collect();
    let cases: Vec<Value> = golden()
        .into_iter()
        .filter(|c| c["route"] == route)
        .chain(extra.into_iter().flat_map(lines))
        .collect();
    assert_eq!(cases.len(), old.len());
    (cases, old)
}

/// Every supported release writes each case as recorded: at `old_tag`
/// where that recording has the same of `rows` in effect, else as
/// v0.33.0-rc2 (the case's own `written`).
fn check_writer(
    cases: &[Value],
    old: &std::collections::BTreeMap<String, Value>,
    old_tag: &'static str,
    rows: &[&'static changes::Change],
    what: &str,
) {
    let mut failures = Vec::new();
    let mut checked = 0;
    for release in changes::Release::SUPPORTED {
        let tag = recording_for(*release, &[old_tag, "0.33.0-rc2"], rows);
        for c in cases {
            let id = c["id"].as_str().unwrap();
            let want = if tag == old_tag { &old[id] } else { c };
            let got = write_case(c, *release);
            checked += 1;
            if let Err(f) = compare(id, &got, want["written"].as_str().unwrap(), &volatile(want)) {
                failures.push(format!("{release} (recorded at {tag}) {f}"));
            }
        }
    }
    report(what, checked, &failures);
}

/// `json.Unmarshal` of `/api/generate` bodies into each release's
/// `api.GenerateRequest` (16 bodies, recorded at v0.32.5 and v0.32.6-rc0):
/// the error text, or none.
#[test]
fn generate_bodies_decode_as_each_release_decodes() {
    let rows = [&changes::ollama::GENERATE_IMAGE_FIELDS];
    let mut failures = Vec::new();
    let mut checked = 0;
    for release in changes::Release::SUPPORTED {
        let tag = recording_for(*release, &["0.32.5", "0.32.6-rc0"], &rows);
        for c in lines(&format!("generate-decode-{tag}.jsonl")) {
            let text = c["body"].as_str().unwrap();
            let body: Value = serde_json::from_str(text).unwrap();
            let got = ollama::godecode::with_literals(text, || {
                ollama::api::GenerateRequest::decode_in(&body, *release)
            })
            .err()
            .map(|e| e.0);
            checked += 1;
            if got.as_deref() != c["error"].as_str() {
                failures.push(format!(
                    "{release} {text}: got {got:?}, want {}",
                    c["error"]
                ));
            }
        }
    }
    report("generate bodies", checked, &failures);
}

fn render(release: &str, model: Value, request: Value) -> Result<String, (u16, String)> {
    let case =
        json!({"ollama": release, "endpoint": "generate", "model": model, "request": request});
    RenderCase::from_json(&case)
        .unwrap()
        .render(None)
        .map(|r| r.prompt.unwrap_or_default())
        .map_err(|f| (f.status, f.message))
}

fn image_model() -> Value {
    json!({"name": "test-image", "template": "{{ .Prompt }}", "capabilities": ["image"]})
}

#[test]
fn an_image_generation_model_is_refused_from_0_32_6_rc0() {
    let req = json!({"model": "test-image", "prompt": "test prompt"});
    for release in ["0.32.6-rc0", "0.32.6", "0.33.0-rc2"] {
        assert_eq!(
            render(release, image_model(), req.clone()),
            Err((
                400,
                "image generation models are not currently supported".into()
            )),
            "{release}"
        );
    }
    for release in ["0.32.2-rc0", "0.32.5"] {
        let (status, message) = render(release, image_model(), req.clone()).unwrap_err();
        assert_eq!(status, 400, "{release}");
        assert!(
            message.contains("image-generation runner, which Promptscope does not reproduce"),
            "{release}: {message}"
        );
    }
    // the unload request comes first: an empty prompt with keep_alive 0
    // (a number of seconds or a duration) expires the runner
    for keep_alive in [json!(0), json!("0s"), json!("-0m")] {
        let unload = json!({"model": "test-image", "prompt": "", "keep_alive": keep_alive});
        assert_eq!(
            render("0.33.0-rc2", image_model(), unload),
            Ok(String::new())
        );
    }
    // any other keep_alive is no unload
    let load = json!({"model": "test-image", "prompt": "", "keep_alive": "5m"});
    assert_eq!(
        render("0.33.0-rc2", image_model(), load).unwrap_err().0,
        400
    );
    // and a model without the capability renders as before
    let plain = json!({"name": "m", "template": "{{ .Prompt }}"});
    assert_eq!(render("0.32.5", plain, req), Ok("test prompt".into()));
}

#[test]
fn width_height_and_steps_are_int32_fields_before_0_32_6_rc0() {
    let model = || json!({"name": "m", "template": "{{ .Prompt }}"});
    let body = |field: &str, v: Value| {
        let mut b = json!({"model": "m", "prompt": "x"});
        b[field] = v;
        b
    };
    let cases = [
        (
            "width",
            json!("a"),
            "json: cannot unmarshal string into Go struct field GenerateRequest.width of type int32",
        ),
        (
            "height",
            json!(1.5),
            "json: cannot unmarshal number 1.5 into Go struct field GenerateRequest.height of type int32",
        ),
        (
            "steps",
            json!(3_000_000_000u64),
            "json: cannot unmarshal number 3000000000 into Go struct field GenerateRequest.steps of type int32",
        ),
    ];
    for (field, value, error) in cases {
        assert_eq!(
            render("0.32.5", model(), body(field, value.clone())),
            Err((400, error.to_string())),
            "{field}"
        );
        // from 0.32.6-rc0 they are not fields: ignored
        assert_eq!(
            render("0.32.6-rc0", model(), body(field, value)),
            Ok("x".into()),
            "{field}"
        );
    }
    for (field, value) in [
        ("width", json!(1024)),
        ("steps", json!(-7)),
        ("height", Value::Null),
    ] {
        assert_eq!(
            render("0.32.5", model(), body(field, value)),
            Ok("x".into())
        );
    }
}

/// When `/api/chat` applies a `format` (ChatHandler's structured-outputs
/// loop, commit 892e7f6be): with think false, a built-in parser that
/// supports thinking has it applied from the first token from
/// v0.31.2-rc2 on; before, only gemma4's did, and the others' completion
/// waited for thinking that never came (`format_immediate_for_thinking_parsers`).
#[test]
fn a_format_with_think_false_is_applied_at_once_from_0_31_2_rc2() {
    let chat = |release: &str, parser: &str, think: Value| {
        let model = json!({"name": "m", "renderer": "qwen3.5", "parser": parser,
            "capabilities": ["completion", "thinking"]});
        let mut request = json!({"model": "m", "format": {"type": "object"},
            "messages": [{"role": "user", "content": "Respond in JSON."}]});
        if !think.is_null() {
            request["think"] = think;
        }
        let case =
            json!({"ollama": release, "endpoint": "chat", "model": model, "request": request});
        let ex = RenderCase::from_json(&case)
            .unwrap()
            .render(None)
            .unwrap()
            .explain;
        let row = ex
            .release_rules
            .iter()
            .find(|r| r.id == "format_immediate_for_thinking_parsers")
            .map(|r| r.in_effect);
        (ex.format_rule, row)
    };
    for release in ["0.31.2-rc2", "0.32.0", "0.33.0-rc2"] {
        let (rule, row) = chat(release, "qwen3.5", json!(false));
        assert_eq!(row, Some(true), "{release}");
        assert!(rule.contains("from the first token"), "{release}: {rule}");
    }
    for release in ["0.30.11-rc0", "0.31.2-rc1"] {
        let (rule, row) = chat(release, "qwen3.5", json!(false));
        assert_eq!(row, Some(false), "{release}");
        assert!(rule.contains("never applied"), "{release}: {rule}");
        // gemma4's parser always had it at once: no row decides
        let (rule, row) = chat(release, "gemma4", json!(false));
        assert_eq!(row, None, "{release}");
        assert!(rule.contains("from the first token"), "{release}: {rule}");
    }
    // a parser that reads no thinking on a model that can think: held back
    // for good, at every release
    let (rule, row) = chat("0.33.0-rc2", "qwen3-coder", json!(false));
    assert_eq!(row, None);
    assert!(rule.contains("never applied"), "{rule}");
    // thinking on: held back until the thinking ends, at every release
    for release in ["0.31.2-rc1", "0.33.0-rc2"] {
        let (rule, row) = chat(release, "qwen3.5", json!(true));
        assert_eq!(row, None, "{release}");
        assert!(rule.contains("held back"), "{release}: {rule}");
    }
}
