//! Arbitrary request bodies (and Modelfile templates) through Ollama's
//! pipeline: decoding, capability checks, templates, renderers.
//! Input: a request body; optionally a NUL byte and then a template.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ollama::model::Model;
use ollama::server::{render, Endpoint, Settings};

fuzz_target!(|input: &[u8]| {
    let Ok(text) = std::str::from_utf8(input) else { return };
    let (body, template) = match text.split_once('\0') {
        Some((b, t)) => (b, Some(t.to_string())),
        None => (text, None),
    };
    let Ok(request) = serde_json::from_str::<serde_json::Value>(body) else { return };
    let settings = Settings { date: ollama::date::Date::new(2026, 11, 30), ..Settings::default() };
    for (family, renderer) in [("", ""), ("qwen3", ""), ("gptoss", ""), ("", "qwen3-coder"), ("", "gemma4")] {
        let model = Model {
            name: "demo".into(),
            template: template.clone().or_else(|| {
                Some("{{ range .Messages }}{{ .Role }}: {{ .Content }}{{ range .ToolCalls }}{{ .Function }}{{ json .Function.Arguments }}{{ end }}\n{{ end }}{{ .Tools }}".into())
            }),
            family: family.into(),
            renderer: renderer.into(),
            capabilities: vec!["tools".into(), "insert".into(), "vision".into()],
            ..Model::default()
        };
        let _ = render(Endpoint::Chat, &model, &request, &settings);
        let _ = render(Endpoint::Generate, &model, &request, &settings);
    }
});
