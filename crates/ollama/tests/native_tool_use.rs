//! A GGUF with a `tokenizer.chat_template.tool_use` in native mode:
//! llama-server renders requests with tools with it, while Ollama's Go
//! side reads only `tokenizer.chat_template` (its capabilities, and so
//! whether a request with tools is accepted at all).

use ollama::date::Date;
use ollama::model::{GgufFacts, Model};
use ollama::server::{render, Endpoint, Settings};
use serde_json::json;

const DEFAULT: &str = "D:{% for m in messages %}{{ m.content }}{% endfor %}";
const DEFAULT_WITH_TOOLS: &str =
    "D:{% if tools %}(tools){% endif %}{% for m in messages %}{{ m.content }}{% endfor %}";
const TOOL_USE: &str =
    "T:{% for t in tools %}{{ t.function.name }};{% endfor %}{% for m in messages %}{{ m.content }}{% endfor %}";

fn model(default: Option<&str>) -> Model {
    Model {
        name: "hermes".into(),
        chat_template: default.map(str::to_string),
        chat_template_tool_use: Some(TOOL_USE.into()),
        gguf: Some(GgufFacts {
            architecture: "llama".into(),
            ..GgufFacts::default()
        }),
        ..Model::default()
    }
}

fn chat(m: &Model, tools: bool) -> Result<String, (u16, String, String)> {
    let mut req = json!({"model": "hermes", "messages": [{"role": "user", "content": "hi"}]});
    if tools {
        req["tools"] = json!([{"type": "function", "function": {"name": "get_weather", "description": "", "parameters": {"type": "object", "properties": {}}}}]);
    }
    let settings = Settings {
        date: Date::new(2026, 11, 30),
        ..Settings::default()
    };
    render(Endpoint::Chat, m, &req, &settings)
        .map(|r| r.prompt.unwrap())
        .map_err(|f| (f.status, f.message, f.explain.source_rule.clone()))
}

#[test]
fn tools_render_with_the_tool_use_template() {
    let m = model(Some(DEFAULT_WITH_TOOLS));
    assert_eq!(chat(&m, true).unwrap(), "T:get_weather;hi");
    assert_eq!(chat(&m, false).unwrap(), "D:hi");
}

#[test]
fn ollama_judges_tools_by_the_default_template_alone() {
    let m = model(Some(DEFAULT));
    let (status, message, _) = chat(&m, true).unwrap_err();
    assert_eq!(status, 400);
    assert_eq!(
        message,
        "registry.ollama.ai/library/hermes:latest does not support tools"
    );
    assert_eq!(chat(&m, false).unwrap(), "D:hi");
}

#[test]
fn without_a_default_llama_server_uses_the_tool_use_template() {
    let m = model(None);
    assert_eq!(chat(&m, false).unwrap(), "T:hi");
    let loaded = ollama::model::Loaded::load(
        &m,
        ollama::model::GoTemplateEnv::Unset,
        Date::new(2026, 11, 30),
    )
    .unwrap();
    assert!(
        loaded.selection_rule.contains("tool_use template"),
        "{}",
        loaded.selection_rule
    );
}
