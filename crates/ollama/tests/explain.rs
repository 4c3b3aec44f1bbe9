//! The explanation record: which path, which branch, where capabilities
//! came from, what happened to each message.

use ollama::date::Date;
use ollama::model::{GoTemplateEnv, Model};
use ollama::server::{render, Endpoint, Settings};
use serde_json::json;

fn settings() -> Settings<'static> {
    Settings {
        date: Date::new(2026, 11, 30),
        ..Settings::default()
    }
}

#[test]
fn messages_branch_with_merges_system_and_think_default() {
    let model = Model {
        name: "demo".into(),
        template: Some(
            "{{ range .Messages }}{{ .Role }}:{{ if .Thinking }}<think>{{ .Thinking }}</think>{{ end }}{{ .Content }}\n{{ end }}{{ if .Tools }}T{{ end }}"
                .into(),
        ),
        system: "sys".into(),
        ..Model::default()
    };
    let req = json!({"model": "demo", "messages": [
        {"role": "user", "content": "a", "images": ["aGk="]},
        {"role": "user", "content": "b"}
    ]});
    let r = render(Endpoint::Chat, &model, &req, &settings()).unwrap();
    assert_eq!(
        r.prompt.as_deref(),
        Some("system:sys\nuser:[img-0]a\n\nb\n")
    );
    let ex = r.explain;
    assert_eq!(ex.source, "go_template");
    assert_eq!(ex.branch, "messages");
    assert_eq!(ex.think.as_deref(), Some("true"));
    assert!(ex.think_rule.contains("defaults to true"));
    let caps: Vec<(&str, &str)> = ex
        .capabilities
        .iter()
        .map(|c| (c.name.as_str(), c.origin.as_str()))
        .collect();
    assert!(caps.contains(&("tools", "template uses .Tools")));
    assert!(caps
        .iter()
        .any(|(n, o)| *n == "thinking" && o.contains("<think> and </think>")));
    assert_eq!(ex.messages[0].origin, "modelfile SYSTEM");
    assert!(ex.messages[1]
        .notes
        .iter()
        .any(|n| n == "image tags [img-0]"));
    assert!(ex.messages[2]
        .notes
        .iter()
        .any(|n| n.starts_with("merged into message 1")));
}

#[test]
fn legacy_branch_and_appended_response() {
    let model = Model {
        name: "demo".into(),
        template: Some("{{ if .System }}S:{{ .System }} {{ end }}U:{{ .Prompt }} A:".into()),
        ..Model::default()
    };
    let req = json!({"model": "demo", "messages": [
        {"role": "user", "content": "q1"}, {"role": "assistant", "content": "r1"}, {"role": "user", "content": "q2"}
    ]});
    let r = render(Endpoint::Chat, &model, &req, &settings()).unwrap();
    assert_eq!(r.prompt.as_deref(), Some("U:q1 A:r1U:q2 A:"));
    assert_eq!(r.explain.branch, "legacy");
    assert!(r.explain.response_appended);
    assert_eq!(r.explain.vars, ["prompt", "response", "system"]);
}

#[test]
fn chat_template_preferred_when_it_can_do_more() {
    let model = Model {
        name: "demo".into(),
        template: Some("{{ range .Messages }}{{ .Content }}{{ end }}".into()),
        chat_template: Some("{% for m in messages %}{{ m.content }}{% endfor %}{% if tools %}{{ tools }}{% endif %}".into()),
        ..Model::default()
    };
    let loaded =
        ollama::model::Loaded::load(&model, GoTemplateEnv::Unset, Date::new(2026, 11, 30)).unwrap();
    assert_eq!(loaded.source().label(), "gguf_chat_template");
    assert!(
        loaded
            .selection_rule
            .contains("can do more than the Go TEMPLATE"),
        "{}",
        loaded.selection_rule
    );
    let forced = ollama::model::Loaded::load(
        &model,
        GoTemplateEnv::from_env_value(Some("true")),
        Date::new(2026, 11, 30),
    )
    .unwrap();
    assert_eq!(forced.source().label(), "go_template");
}

#[test]
fn legacy_branch_reports_user_turns_it_loses() {
    let model = Model {
        name: "demo".into(),
        template: Some("U:{{ .Prompt }} A:{{ .Response }}\n".into()),
        ..Model::default()
    };
    // The empty assistant turn does not flush: "q1" is replaced by "q2".
    let req = json!({"model": "demo", "messages": [
        {"role": "user", "content": "q1"}, {"role": "assistant", "content": ""}, {"role": "user", "content": "q2"}
    ]});
    let r = render(Endpoint::Chat, &model, &req, &settings()).unwrap();
    assert_eq!(r.prompt.as_deref(), Some("U:q2 A:"));
    assert_eq!(r.explain.legacy_dropped, vec![0]);
    assert!(r.explain.messages[0]
        .notes
        .iter()
        .any(|n| n.starts_with("dropped by the legacy template path")));
}

#[test]
fn the_generic_thinking_parser_is_chosen_as_the_handlers_choose_it() {
    let template = "{{ range .Messages }}{{ .Role }}:{{ if .Thinking }}<think>{{ .Thinking }}</think>{{ end }}{{ .Content }}\n{{ end }}";
    let model = |parser: &str| Model {
        name: "demo".into(),
        template: Some(template.into()),
        parser: parser.into(),
        ..Model::default()
    };
    let tags = Some(("<think>".to_string(), "</think>".to_string()));
    let chat = |m: &Model, think: serde_json::Value| {
        let mut req = json!({"model": "demo", "messages": [{"role": "user", "content": "a"}]});
        if !think.is_null() {
            req["think"] = think;
        }
        render(Endpoint::Chat, m, &req, &settings())
            .unwrap()
            .explain
            .thinking_tags
    };
    // think defaults to true for a thinking template
    assert_eq!(chat(&model(""), serde_json::Value::Null), tags);
    assert_eq!(chat(&model(""), json!("high")), tags);
    assert_eq!(chat(&model(""), json!(false)), None);
    // a built-in parser does the splitting instead; an unknown name is no parser
    assert_eq!(chat(&model("qwen3-thinking"), json!(true)), None);
    assert_eq!(chat(&model("no-such-parser"), json!(true)), tags);

    // generate: a built-in parser is skipped in raw mode
    let generate = |m: &Model, raw: bool| {
        let req = json!({"model": "demo", "prompt": "p", "raw": raw, "think": true});
        render(Endpoint::Generate, m, &req, &settings())
            .unwrap()
            .explain
            .thinking_tags
    };
    assert_eq!(generate(&model(""), false), tags);
    assert_eq!(generate(&model("qwen3-thinking"), false), None);
    assert_eq!(generate(&model("qwen3-thinking"), true), tags);
}

/// Explain reads as sentences: no empty `[]` lists, no bare "unset" beside
/// the value "unset", no key name standing for a reason.
#[test]
fn explain_is_worded_for_people() {
    let model = Model {
        name: "demo".into(),
        template: Some("{{ range .Messages }}{{ .Content }}{{ end }}".into()),
        chat_template: Some("{% for m in messages %}{{ m.content }}{% endfor %}".into()),
        gguf: Some(ollama::model::GgufFacts {
            architecture: "llama".into(),
            ..Default::default()
        }),
        ..Model::default()
    };
    let req = json!({"model": "demo", "messages": [{"role": "user", "content": "hi"}]});
    let ex = render(Endpoint::Chat, &model, &req, &settings())
        .unwrap()
        .explain;
    assert_eq!(
        ex.source_rule,
        "OLLAMA_GO_TEMPLATE unset and the GGUF chat template can do nothing more than the Go TEMPLATE (GGUF: none; Go: none): the Go TEMPLATE is kept"
    );
    assert!(!ex.source_rule.contains("[]"));
    assert_eq!(ex.think, None);
    assert_eq!(
        ex.think_rule,
        "the request does not set it and the model cannot think, so the template is told nothing about thinking"
    );
    let completion = ex
        .capabilities
        .iter()
        .find(|c| c.name == "completion")
        .unwrap();
    assert_eq!(
        completion.origin,
        "the GGUF is not an embedding model (it has no pooling_type)"
    );
}
