//! Template selection (server/routes.go `selectedTemplateSource`,
//! server/images.go `shouldPreferChatTemplate`): one test per row of the
//! decision table, each `OLLAMA_GO_TEMPLATE` value, and the capability
//! comparison with tool round trips.

use ollama::date::Date;
use ollama::model::{GoTemplateEnv, Loaded, Model, Source};

const GO_PLAIN: &str = "{{ range .Messages }}{{ .Role }}: {{ .Content }}\n{{ end }}";
const GO_TOOLS: &str =
    "{{ if .Tools }}{{ .Tools }}{{ end }}{{ range .Messages }}{{ .Content }}{{ end }}";
const GO_TOOLS_ROUND_TRIP: &str = "{{ if .Tools }}{{ .Tools }}{{ end }}{{ range .Messages }}{{ if eq .Role \"tool\" }}<tool_response>{{ .Content }}</tool_response>{{ else }}{{ .Content }}{{ range .ToolCalls }}{{ .Function.Name }}{{ end }}{{ end }}{{ end }}";
const JINJA_PLAIN: &str = "{% for m in messages %}{{ m.content }}{% endfor %}";
const JINJA_TOOLS: &str =
    "{% if tools %}{{ tools }}{% endif %}{% for m in messages %}{{ m.content }}{% endfor %}";
const JINJA_TOOLS_THINK: &str = "{% if tools %}{{ tools }}{% endif %}{% for m in messages %}<think></think>{{ m.content }}{% endfor %}";
const JINJA_TOOLS_ROUND_TRIP: &str = "{% if tools %}{{ tools }}{% endif %}{% for m in messages %}{% if m.role == 'tool' %}<tool_response>{% endif %}{{ m.content }}{% for c in m.tool_calls %}{% endfor %}{% endfor %}";

fn model(template: Option<&str>, chat: Option<&str>) -> Model {
    Model {
        name: "demo".into(),
        template: template.map(str::to_string),
        chat_template: chat.map(str::to_string),
        ..Model::default()
    }
}

fn source(m: &Model, env: Option<&str>) -> Source {
    Loaded::load(
        m,
        GoTemplateEnv::from_env_value(env),
        Date::new(2026, 11, 30),
    )
    .unwrap()
    .source()
}

#[test]
fn renderer_and_parser() {
    let mut m = model(Some(GO_PLAIN), Some(JINJA_TOOLS));
    m.renderer = "qwen3-coder".into();
    m.parser = "qwen3-coder".into();
    assert_eq!(source(&m, None), Source::RendererParser);
}

#[test]
fn renderer_only() {
    let mut m = model(Some(GO_PLAIN), None);
    m.renderer = "cogito".into();
    assert_eq!(source(&m, None), Source::Renderer);
}

#[test]
fn parser_only() {
    let mut m = model(Some(GO_PLAIN), Some(JINJA_TOOLS_THINK));
    m.parser = "qwen3".into();
    assert_eq!(source(&m, None), Source::Parser);
}

#[test]
fn harmony() {
    let mut m = model(
        Some("<|start|>{{ range .Messages }}{{ .Content }}<|end|>{{ end }}"),
        Some(JINJA_TOOLS_THINK),
    );
    m.family = "gptoss".into();
    assert_eq!(source(&m, None), Source::Harmony);
    m.family = "gpt-oss".into();
    assert_eq!(source(&m, None), Source::Harmony);
    // Without the harmony tags, the family alone does not switch.
    let mut plain = model(Some(GO_PLAIN), None);
    plain.family = "gptoss".into();
    assert_eq!(source(&plain, None), Source::GoTemplate);
}

#[test]
fn go_template_without_chat_template() {
    assert_eq!(
        source(&model(Some(GO_PLAIN), None), None),
        Source::GoTemplate
    );
}

#[test]
fn gguf_chat_template_without_go_template() {
    assert_eq!(
        source(&model(None, Some(JINJA_PLAIN)), None),
        Source::GgufChatTemplate
    );
    // The env cannot bring back a template that does not exist.
    assert_eq!(
        source(&model(None, Some(JINJA_PLAIN)), Some("true")),
        Source::GgufChatTemplate
    );
}

#[test]
fn none() {
    assert_eq!(source(&model(None, None), None), Source::None);
}

#[test]
fn env_values() {
    let m = model(Some(GO_PLAIN), Some(JINJA_TOOLS));
    // Default (unset): the heuristic prefers the chat template (more capabilities).
    assert_eq!(source(&m, None), Source::GgufChatTemplate);
    assert_eq!(source(&m, Some("")), Source::GgufChatTemplate);
    // true: always the Go template.
    assert_eq!(source(&m, Some("true")), Source::GoTemplate);
    assert_eq!(source(&m, Some("1")), Source::GoTemplate);
    // false: never the Go template.
    assert_eq!(source(&m, Some("false")), Source::GgufChatTemplate);
    assert_eq!(source(&m, Some("0")), Source::GgufChatTemplate);
    // Unparsable counts as true; quotes and spaces are trimmed first.
    assert_eq!(source(&m, Some("maybe")), Source::GoTemplate);
    assert_eq!(source(&m, Some(" 'false' ")), Source::GgufChatTemplate);
    // false without a chat template: nothing is selected.
    assert_eq!(
        source(&model(Some(GO_PLAIN), None), Some("false")),
        Source::None
    );
}

#[test]
fn heuristic_more_capabilities_wins_unless_only_go_round_trips() {
    // Chat template has tools, Go has none: prefer the chat template.
    assert_eq!(
        source(&model(Some(GO_PLAIN), Some(JINJA_TOOLS)), None),
        Source::GgufChatTemplate
    );
    // Chat template has tools and thinking, Go has tools with a round trip the chat lacks: keep Go.
    assert_eq!(
        source(
            &model(Some(GO_TOOLS_ROUND_TRIP), Some(JINJA_TOOLS_THINK)),
            None
        ),
        Source::GoTemplate
    );
    // Fewer or equal capabilities without tools on both: keep Go.
    assert_eq!(
        source(&model(Some(GO_PLAIN), Some(JINJA_PLAIN)), None),
        Source::GoTemplate
    );
}

#[test]
fn heuristic_equal_tools_prefers_the_only_round_trip() {
    // Both have tools; only the chat template round-trips: prefer it.
    assert_eq!(
        source(&model(Some(GO_TOOLS), Some(JINJA_TOOLS_ROUND_TRIP)), None),
        Source::GgufChatTemplate
    );
    // Both round-trip: keep Go.
    assert_eq!(
        source(
            &model(Some(GO_TOOLS_ROUND_TRIP), Some(JINJA_TOOLS_ROUND_TRIP)),
            None
        ),
        Source::GoTemplate
    );
    // Neither round-trips: keep Go.
    assert_eq!(
        source(&model(Some(GO_TOOLS), Some(JINJA_TOOLS)), None),
        Source::GoTemplate
    );
}

#[test]
fn renderer_or_parser_disable_the_heuristic() {
    let mut m = model(Some(GO_PLAIN), Some(JINJA_TOOLS));
    m.parser = "passthrough".into();
    let l = Loaded::load(&m, GoTemplateEnv::Unset, Date::new(2026, 11, 30)).unwrap();
    assert!(!l.prefer_chat_template());
    assert!(l.ollama_renders());
}

/// No Go TEMPLATE, no RENDERER or PARSER and no GGUF chat template:
/// `chatModeForModel` still says native, so `/api/chat` goes to
/// llama-server, which renders with what it loaded: ChatML (llama.cpp's
/// fallback), or for an Ollama-format gemma3 file the Gemma 3 template
/// Ollama's compat layer injected. `/api/generate` needs `HasChatTemplate`
/// for its native flow, and keeps `{{ .Prompt }}`.
#[test]
fn no_template_at_all_chats_through_llama_servers_own() {
    use ollama::server::{render, Endpoint, Settings};
    use serde_json::json;
    let settings = Settings {
        date: Date::new(2026, 11, 30),
        ..Settings::default()
    };
    let chat = json!({"model": "demo", "messages": [
        {"role": "user", "content": " hi "},
        {"role": "assistant", "content": "hello"},
        {"role": "user", "content": "and?"}
    ]});
    let gen = json!({"model": "demo", "prompt": "hi"});
    let mut m = model(None, None);
    m.bos_token = "<bos>".into();
    assert_eq!(source(&m, None), Source::None);

    let r = render(Endpoint::Chat, &m, &chat, &settings).unwrap();
    assert_eq!(
        r.prompt.as_deref(),
        Some("<|im_start|>user\n hi <|im_end|>\n<|im_start|>assistant\nhello<|im_end|>\n<|im_start|>user\nand?<|im_end|>\n<|im_start|>assistant\n")
    );
    assert_eq!(r.explain.branch, "native");
    assert_eq!(r.explain.source, "none");
    assert!(
        r.explain.source_rule.contains("ChatML"),
        "{}",
        r.explain.source_rule
    );
    let r = render(Endpoint::Generate, &m, &gen, &settings).unwrap();
    assert_eq!(r.prompt.as_deref(), Some("hi"));

    // The same with OLLAMA_GO_TEMPLATE=false and a Go TEMPLATE: it is not
    // used, and llama-server renders.
    let mut off = m.clone();
    off.template = Some(GO_PLAIN.into());
    let settings_off = Settings {
        date: Date::new(2026, 11, 30),
        go_template_env: GoTemplateEnv::False,
        ..Settings::default()
    };
    let r = render(Endpoint::Chat, &off, &chat, &settings_off).unwrap();
    assert!(r.prompt.unwrap().starts_with("<|im_start|>user\n hi "));

    // An Ollama-format gemma3 file: Gemma 3's template, with its checks.
    m.compat_chat_template = Some(tokenizer::GEMMA3_CHAT_TEMPLATE.into());
    let r = render(Endpoint::Chat, &m, &chat, &settings).unwrap();
    assert_eq!(
        r.prompt.as_deref(),
        Some("<bos><start_of_turn>user\nhi<end_of_turn>\n<start_of_turn>model\nhello<end_of_turn>\n<start_of_turn>user\nand?<end_of_turn>\n<start_of_turn>model\n")
    );
    assert!(
        r.explain.source_rule.contains("Gemma 3"),
        "{}",
        r.explain.source_rule
    );
    let sys = json!({"model": "demo", "messages": [
        {"role": "system", "content": "s"}, {"role": "user", "content": "u"}
    ]});
    // The template refuses a system role; llama.cpp's polyfill puts it in
    // the first user message first, so the template never sees one.
    let r = render(Endpoint::Chat, &m, &sys, &settings).unwrap();
    assert_eq!(
        r.prompt.as_deref(),
        Some("<bos><start_of_turn>user\ns\nu<end_of_turn>\n<start_of_turn>model\n")
    );
    let twice = json!({"model": "demo", "messages": [
        {"role": "user", "content": "a"}, {"role": "user", "content": "b"}
    ]});
    let err = render(Endpoint::Chat, &m, &twice, &settings).unwrap_err();
    assert_eq!(err.status, 400);
    assert!(
        err.message.contains(
            "Jinja Exception: Conversation roles must alternate user/assistant/user/assistant/..."
        ),
        "{}",
        err.message
    );
    let r = render(Endpoint::Generate, &m, &gen, &settings).unwrap();
    assert_eq!(r.prompt.as_deref(), Some("hi"));
}

/// v0.30.11-rc0's two selection rows, on the inputs of the tests that
/// commit 16739dee6 added (server/images_test.go "prefers chat template
/// with stronger tool round trip", server/routes_generate_test.go
/// TestGenerateHandlerChatTemplateRoute): before them (every release from
/// 0.30.0 to 0.30.10, whose `shouldPreferChatTemplate` and
/// `GenerateHandler` are the same code), a tie keeps the Go TEMPLATE and
/// `/api/generate` renders with the Go side's template in native mode.
#[test]
fn before_0_30_11_rc0_a_tie_keeps_go_and_generate_renders_with_it() {
    use ollama::server::{render, Endpoint, Settings};
    use serde_json::json;
    let old = changes::Release::parse("0.30.10").unwrap();
    let new = changes::Release::parse("0.30.11-rc0").unwrap();
    let load = |m: &Model, r| {
        Loaded::load_in(m, GoTemplateEnv::Unset, Date::new(2026, 11, 30), r).unwrap()
    };
    // the tie-break: both [tools], only the GGUF template round-trips
    let m = model(
        Some("{{ if .Tools }}tools{{ end }}\n{{ range .Messages }}\n{{ range .ToolCalls }}{{ .Function.Name }}{{ end }}\n{{ end }}"),
        Some("{% if tools %}{{ tools }}{% endif %}\n{% for message in messages %}\n{% if message.tool_calls %}\n{% for tool_call in message.tool_calls %}{{ tool_call.function.name }}{% endfor %}\n{% endif %}\n{% if message.role == 'tool' %}tool_response {{ message.content }}{% endif %}\n{% endfor %}"),
    );
    assert!(load(&m, new).prefer_chat_template());
    let l = load(&m, old);
    assert!(!l.prefer_chat_template());
    assert_eq!(l.source(), Source::GoTemplate);
    assert!(
        l.selection_rule.contains("keeps the Go TEMPLATE on a tie"),
        "{}",
        l.selection_rule
    );
    let ids: Vec<_> = l.selection_rules().applied().iter().map(|c| c.id).collect();
    assert_eq!(ids, ["prefer_chat_template_tool_round_trip"]);
    // more capabilities: the same answer at both
    let m = model(
        Some("{{ range .Messages }}go-template: {{ .Content }}{{ end }}"),
        Some("{% if tools %}{{ tools }}{% endif %}{{ messages[0]['content'] }}"),
    );
    assert!(load(&m, old).prefer_chat_template() && load(&m, new).prefer_chat_template());
    assert!(load(&m, old).selection_rules().applied().is_empty());

    let generate = |m: &Model, release, body: serde_json::Value| {
        let settings = Settings {
            date: Date::new(2026, 11, 30),
            release,
            ..Settings::default()
        };
        render(Endpoint::Generate, m, &body, &settings).unwrap_or_else(|f| panic!("{}", f.message))
    };
    let hello = json!({"model": "demo", "prompt": "hello", "system": "be brief"});
    // a preferred GGUF template over a Go TEMPLATE
    let r = generate(&m, old, hello.clone());
    assert_eq!(
        r.prompt.as_deref(),
        Some("go-template: be briefgo-template: hello")
    );
    assert_ne!(r.explain.branch, "native");
    let row = &r.explain.release_rules[0];
    assert_eq!(
        (row.id.as_str(), row.in_effect),
        ("generate_native_chat_template", false)
    );
    assert!(r
        .explain
        .source_rule
        .ends_with("/api/generate still renders with the Go TEMPLATE in this release"));
    let r = generate(&m, new, hello.clone());
    assert_eq!(r.prompt.as_deref(), Some("be brief"));
    assert_eq!(r.explain.branch, "native");
    // no TEMPLATE: Ollama's default {{ .Prompt }}, the system prompt dropped
    let m = model(None, Some("native-template: {{ messages[0]['content'] }}"));
    assert_eq!(
        generate(&m, old, hello.clone()).prompt.as_deref(),
        Some("hello")
    );
    assert_eq!(
        generate(&m, new, hello).prompt.as_deref(),
        Some("native-template: be brief")
    );
    // no GGUF template: {{ .Prompt }} at both, and no row consulted
    let m = model(None, None);
    for r in [old, new] {
        let got = generate(&m, r, json!({"model": "demo", "prompt": "plain prompt"}));
        assert_eq!(got.prompt.as_deref(), Some("plain prompt"));
        assert!(got.explain.release_rules.is_empty());
    }
}
