//! Native mode (GGUF Jinja chat templates rendered as llama-server does):
//!
//! - `tests/corpus/golden/jinja.jsonl`, checked against a real
//!   llama-server;
//! - `tests/golden/jinja-extra.jsonl`, more model templates (llama.cpp's
//!   `models/templates`, named by file) recorded by
//!   `tools/jinja-goldens/gen.py` (Python jinja2 with llama.cpp's context).
//!
//! Every case must give the exact prompt or the exact error.

use std::path::PathBuf;

use ollama::api;
use ollama::date::Date;
use ollama::native::{render_native, template_supports_thinking, NativeInput, NativeTime};
use serde_json::{json, Value as Json};

fn corpus_golden(name: &str) -> PathBuf {
    testkit::corpus("golden").join(name)
}

fn own_golden(name: &str) -> PathBuf {
    std::path::PathBuf::from(
        std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR at run time"),
    )
    .join("tests/golden")
    .join(name)
}

/// Renders one case: messages = Modelfile SYSTEM (when the request does
/// not start with a system message) + Modelfile messages + request
/// messages, as Ollama's ChatHandler builds them.
fn render_case(v: &Json) -> Json {
    let model = &v["model"];
    let req = api::ChatRequest::decode(&v["request"]).expect("request");
    let mut msgs = Vec::new();
    let system = model["system"].as_str().unwrap_or("");
    if !system.is_empty() && req.messages.first().map(|m| m.role.as_str()) != Some("system") {
        msgs.push(api::Message::new("system", system));
    }
    msgs.extend(api::decode_messages(&model["messages"]).expect("model messages"));
    msgs.extend(req.messages.iter().cloned());
    let date = Date::parse(v["date"].as_str().unwrap_or("2026-11-30")).expect("date");
    let input = NativeInput {
        chat_template: model["chat_template"].as_str().expect("chat_template"),
        chat_template_tool_use: "",
        bos_token: model["bos_token"].as_str().unwrap_or(""),
        eos_token: model["eos_token"].as_str().unwrap_or(""),
        messages: &msgs,
        tools: req.tools.as_deref(),
        think: req.think.as_ref(),
        add_bos: false,
        add_eos: false,
        now: NativeTime::from_date(date),
        // the goldens were recorded from llama-server b11312
        build: changes::Build::B11312,
    };
    match render_native(&input) {
        Ok(p) => json!({"prompt": p}),
        Err(e) => json!({"error": e.to_string()}),
    }
}

/// The cases of a golden file. A case of `jinja-extra.jsonl` names its
/// template by file (`model.chat_template_file`: one of llama.cpp's
/// `models/templates/`, at b11312, from the upstream cache), which is read
/// into `model.chat_template`.
fn cases(path: &std::path::Path) -> Vec<Json> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let mut v: Json = serde_json::from_str(line).unwrap();
            if let Some(file) = v["model"]["chat_template_file"].as_str() {
                v["model"]["chat_template"] = testkit::llama_template(file).into();
            }
            v
        })
        .collect()
}

fn run(path: PathBuf) -> (usize, Vec<String>) {
    let mut n = 0;
    let mut failures = Vec::new();
    for v in cases(&path) {
        n += 1;
        let got = render_case(&v);
        // `expect.error` pins the raised message (corpus README): llama-server
        // wraps it in its location, and, through the autoparser, in
        // "Unable to generate parser ...".
        let same = match (v["expect"]["error"].as_str(), got["error"].as_str()) {
            (Some(want), Some(err)) => err == want || err.ends_with(&format!("\nError: {want}")),
            _ => got == v["expect"],
        };
        if !same {
            failures.push(format!(
                "{}\n  expected: {}\n  got:      {}",
                v["id"], v["expect"], got
            ));
        }
    }
    (n, failures)
}

fn check(path: PathBuf, min: usize) {
    let (n, failures) = run(path);
    assert!(n >= min, "only {n} cases");
    assert!(
        failures.is_empty(),
        "{} of {n} cases differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn corpus_jinja_goldens() {
    check(corpus_golden("jinja.jsonl"), 260);
}

#[test]
fn extra_jinja_goldens() {
    check(own_golden("jinja-extra.jsonl"), 100);
}

#[test]
fn thinking_support_detection() {
    let text = std::fs::read_to_string(corpus_golden("jinja.jsonl")).unwrap();
    let mut seen = std::collections::BTreeMap::new();
    for line in text.lines() {
        let v: Json = serde_json::from_str(line).unwrap();
        let id = v["id"].as_str().unwrap();
        let name = id.split('/').next().unwrap().to_string();
        let t = v["model"]["chat_template"].as_str().unwrap().to_string();
        seen.entry(name).or_insert(t);
    }
    for (name, t) in &seen {
        let thinking = template_supports_thinking(
            t,
            NativeTime::from_date(ollama::date::Date::new(2026, 11, 30)),
            changes::Build::B11312,
        );
        let expected = matches!(name.as_str(), "jinja-gguf-qwen3" | "jinja-gguf-gemma4");
        assert_eq!(thinking, expected, "{name}");
    }
}

#[test]
fn untrusted_templates_end_with_errors() {
    let msgs = vec![api::Message::new("user", "hi")];
    let now = NativeTime::from_date(Date::new(2026, 11, 30));
    for t in [
        "{% for i in range(100000) %}{% for j in range(100000) %}x{% endfor %}{% endfor %}",
        "{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}",
        "{% if %}",
        "{{ messages[0].content | nosuchfilter }}",
        "{{ 'a' * 1000000000000 }}",
        "{% for m in messages %}{{ m.content.nosuchmethod() }}{% endfor %}",
        "{{ raise_exception(messages) }}",
        "{{ (1, 2) | tojson(indent=-5) }}{{ none | tojson(separators=5) }}",
        "{{ '%s' % 5 }}{{ 1 / 0 }}",
        "{{ messages|tojson(1,2,3,4,5,6) }}",
    ]
    .into_iter()
    .map(str::to_string)
    .chain([
        format!("{{{{ {}1{} }}}}", "[".repeat(5000), "]".repeat(5000)),
        format!("{{{{ {}1{} }}}}", "(".repeat(5000), ")".repeat(5000)),
        "{% for m in messages %}".repeat(3000),
        format!("{}x{}", "{% if true %}".repeat(2000), "{% endif %}".repeat(2000)),
        "{% set ns = namespace(s='ab') %}{% for i in range(64) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}{{ ns.s|length }}".to_string(),
        "{% macro f(s) %}{{ f(s ~ s) }}{% endmacro %}{{ f('x') }}".to_string(),
        "{{ [][::-1] }}{{ [1][5:2] }}{{ [1, 2][::-3] }}{{ 'ab'[::-1] }}{{ messages[:0][::-1] }}".to_string(),
    ]) {
        let t = t.as_str();
        let input = NativeInput {
            chat_template: t,
            chat_template_tool_use: "",
            bos_token: "",
            eos_token: "",
            messages: &msgs,
            tools: None,
            think: None,
            add_bos: true,
            add_eos: true,
            now,
            build: changes::Build::NEWEST,
        };
        let _ = render_native(&input);
        let now = NativeTime::from_date(ollama::date::Date::new(2026, 11, 30));
        for &build in changes::Build::SUPPORTED {
            let _ = template_supports_thinking(t, now, build);
        }
    }
    let input = NativeInput {
        chat_template: "{% if %}",
        chat_template_tool_use: "",
        bos_token: "",
        eos_token: "",
        messages: &msgs,
        tools: None,
        think: None,
        add_bos: false,
        add_eos: false,
        now,
        build: changes::Build::NEWEST,
    };
    // llama.cpp's parser error, which llama-server meets when it loads the
    // template (its text carries no location).
    let err = render_native(&input).unwrap_err();
    assert_eq!(err.to_string(), "Unexpected token: %} of type 9");
    assert_eq!(err.stage, "load");
}

/// Every template of both corpora, with conversations the goldens do not
/// cover: no panic, whatever the outcome.
#[test]
fn odd_conversations_never_panic() {
    let mut templates = std::collections::BTreeMap::new();
    for path in [
        corpus_golden("jinja.jsonl"),
        own_golden("jinja-extra.jsonl"),
    ] {
        for v in cases(&path) {
            let m = &v["model"];
            templates
                .entry(m["chat_template"].as_str().unwrap().to_string())
                .or_insert((
                    m["bos_token"].as_str().unwrap_or("").to_string(),
                    m["eos_token"].as_str().unwrap_or("").to_string(),
                ));
        }
    }
    let conversations = [
        json!([]),
        json!([{"role": "system", "content": "only system"}]),
        json!([{"role": "developer", "content": "dev"}, {"role": "user", "content": "hi"}]),
        json!([{"role": "user", "content": "hi"}, {"role": "assistant", "content": "prefill"}]),
        json!([{"role": "tool", "content": "orphan result", "tool_call_id": "x"}]),
        json!([{"role": "user", "content": "é \u{2028} <b>&</b> \"q\""},
               {"role": "assistant", "content": "", "tool_calls": [
                   {"function": {"name": "f", "arguments": {"n": 1.5e300, "s": "<x>", "o": {"b": [1, {"a": null}]}}}},
                   {"function": {"name": "g"}}]},
               {"role": "tool", "content": "not json"}, {"role": "tool", "content": "[1,2]"},
               {"role": "user", "content": ""}]),
        json!([{"role": "weird", "content": "x"}, {"role": "user", "content": "y"}]),
    ];
    let tools = api::ChatRequest::decode(&json!({"tools": [
        {"type": "function", "function": {"name": "f"}},
        {"type": "function", "function": {"name": "g", "description": "d", "parameters": {
            "type": "object", "$defs": {"z": 1, "a": 2}, "properties": {
                "x": {"type": ["string", "null"], "anyOf": [{"type": "number"}], "items": {"type": "string"},
                      "properties": {}}}}}}]}))
    .unwrap()
    .tools
    .unwrap();
    let now = NativeTime::from_date(Date::new(2026, 11, 30));
    let thinks = [
        None,
        Some(api::Think::Bool(true)),
        Some(api::Think::Level("low".into())),
    ];
    for (template, (bos, eos)) in &templates {
        for (i, conv) in conversations.iter().enumerate() {
            let msgs = api::decode_messages(conv).unwrap();
            let input = NativeInput {
                chat_template: template,
                chat_template_tool_use: "",
                bos_token: bos,
                eos_token: eos,
                messages: &msgs,
                tools: if i % 2 == 0 { Some(&tools) } else { None },
                think: thinks[i % 3].as_ref(),
                add_bos: i % 2 == 1,
                add_eos: i % 2 == 1,
                now,
                build: changes::Build::NEWEST,
            };
            let _ = render_native(&input);
        }
    }
}
