//! A GGUF's second template, `tokenizer.chat_template.tool_use`
//! (`common_chat_templates_init`, `common_chat_templates_apply_jinja`,
//! `common_chat_templates_get_caps` in common/chat.cpp): requests with
//! tools render with it, it stands in for a missing default template, a
//! tool_use template that does not parse is ignored, and from 9785 the
//! capabilities llama-server reads are its own. Checked against a real
//! llama-server b10488 (`golden/tool-use-b10488.jsonl`, recorded by
//! `tools/apply-template-goldens/tool_use.py`).

use std::rc::Rc;

use llamachat::server::{apply_template, ServerChatParams};
use llamachat::ChatTemplates;
use serde_json::{json, Value as Json};

const DEFAULT: &str = "D:{% for m in messages %}{{ m.content }}{% endfor %}";
const TOOL_USE: &str = "T:{% for t in tools %}{{ t.function.name }};{% endfor %}{% for m in messages %}{{ m.content }}{% if m.tool_calls %}{% for c in m.tool_calls %}<{{ c.function.name }}>{% endfor %}{% endif %}{% endfor %}";

fn templates(default: &str, tool_use: &str, build: u32) -> ChatTemplates {
    let rules = Rc::new(changes::Rules::new(changes::Build(build)));
    ChatTemplates::init_with_tool_use(default, tool_use, "<s>", "</s>", false, false, rules)
        .unwrap()
}

fn render(t: ChatTemplates, body: &Json) -> String {
    let params = ServerChatParams::new(t, 0).unwrap();
    apply_template(body, &params, 0).unwrap()
}

fn with_tools() -> Json {
    json!({
        "messages": [{"role": "user", "content": "hi"}],
        "tools": [{"type": "function", "function": {"name": "get_weather", "description": "", "parameters": {"type": "object", "properties": {}}}}]
    })
}

fn without_tools() -> Json {
    json!({"messages": [{"role": "user", "content": "hi"}]})
}

#[test]
fn requests_with_tools_render_with_the_tool_use_template() {
    assert_eq!(
        render(templates(DEFAULT, TOOL_USE, 10488), &with_tools()),
        "T:get_weather;hi"
    );
    assert_eq!(
        render(templates(DEFAULT, TOOL_USE, 10488), &without_tools()),
        "D:hi"
    );
    // an empty tool list is no tools
    let mut empty = with_tools();
    empty["tools"] = json!([]);
    assert_eq!(render(templates(DEFAULT, TOOL_USE, 10488), &empty), "D:hi");
    // the oldest supported build does the same
    assert_eq!(
        render(templates(DEFAULT, TOOL_USE, 9452), &with_tools()),
        "T:get_weather;hi"
    );
}

#[test]
fn the_tool_use_template_stands_in_for_a_missing_default() {
    for default in ["", "chatml"] {
        let t = templates(default, TOOL_USE, 10488);
        assert_eq!(t.default.source(), TOOL_USE);
        assert_eq!(render(t, &without_tools()), "T:hi");
    }
}

#[test]
fn a_tool_use_template_that_does_not_parse_is_ignored() {
    let t = templates(DEFAULT, "{% if %}", 10488);
    assert!(t.tool_use.is_none());
    assert_eq!(render(t, &with_tools()), "D:hi");
}

#[test]
fn the_capabilities_llama_server_reads_are_the_tool_use_templates_from_9785() {
    // the default template renders no tool calls; the tool_use one renders
    // both of two parallel calls
    let default = &templates(DEFAULT, "", 10488).default;
    let tool_use = &templates(TOOL_USE, "", 10488).default;
    assert!(!default.caps().supports_parallel_tool_calls);
    assert!(tool_use.caps().supports_parallel_tool_calls);
    let before = templates(DEFAULT, TOOL_USE, 9781);
    assert!(!before.server_caps().supports_parallel_tool_calls);
    let after = templates(DEFAULT, TOOL_USE, 9840);
    assert!(after.server_caps().supports_parallel_tool_calls);
    let consulted: Vec<&str> = after
        .default
        .rules()
        .applied()
        .iter()
        .map(|c| c.id)
        .collect();
    assert!(
        consulted.contains(&"caps_tool_use_template"),
        "{consulted:?}"
    );
    // a model without a tool_use template does not consult the row
    let plain = templates(DEFAULT, "", 9840);
    plain.server_caps();
    assert!(plain.default.rules().applied().is_empty());
}

/// Every row of `golden/tool-use-b10488.jsonl`: five GGUFs (SmolLM2's, with
/// a default template or none and a tool_use template from llama.cpp's
/// models/templates, or one that does not parse), four requests each
/// (no tools, one tool, an empty tool list, a tool round trip), as a real
/// llama-server b10488 answered `/apply-template` at the fixed clock.
#[test]
fn a_real_llama_server_b10488_on_tool_use_templates() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/tool-use-b10488.jsonl");
    let text = std::fs::read_to_string(path).unwrap();
    let template = |name: &str| {
        std::fs::read_to_string(testkit::llama_cpp(&format!("models/templates/{name}"))).unwrap()
    };
    let mut checked = 0;
    for line in text.lines() {
        let row: Json = serde_json::from_str(line).unwrap();
        let default = row["default"].as_str().map(template).unwrap_or_default();
        let tool_use = match row["tool_use"].as_str().unwrap() {
            t if t.ends_with(".jinja") => template(t),
            t => t.to_string(),
        };
        let rules = Rc::new(changes::Rules::new(changes::Build::B10488));
        let t = ChatTemplates::init_with_tool_use(
            &default,
            &tool_use,
            row["bos_token"].as_str().unwrap(),
            row["eos_token"].as_str().unwrap(),
            false,
            false,
            rules,
        )
        .unwrap();
        let params = ServerChatParams::new(t, 1_768_472_430).unwrap();
        let got = apply_template(&row["body"], &params, 1_768_472_430).unwrap();
        assert_eq!(row["status"], 200);
        assert_eq!(
            got,
            row["prompt"].as_str().unwrap(),
            "{} + {}: {}",
            row["default"],
            row["tool_use"],
            row["body"]
        );
        checked += 1;
    }
    assert_eq!(checked, 20);
}
