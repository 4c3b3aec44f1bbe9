//! llama-server itself (`"runtime": "llama-server"`): the prompt of its own
//! request body (`POST /apply-template`, `/v1/chat/completions`: messages,
//! tools, `chat_template_kwargs`, `reasoning_format`,
//! `add_generation_prompt`, `response_format`), rendered as a build of it
//! started with `--jinja` and its defaults renders it, or its error answer.

use std::rc::Rc;

use serde_json::Value as Json;

use crate::Build;
use ollama::server::BuildRule;

/// What llama-server has loaded: the model's chat template (empty: the
/// model has none, and llama-server falls back to ChatML), its
/// vocabulary's BOS/EOS texts and whether the vocabulary adds them.
#[derive(Clone, Debug, Default)]
pub struct Model<'a> {
    /// `tokenizer.chat_template` (or `--chat-template-file`).
    pub chat_template: &'a str,
    /// `tokenizer.chat_template.tool_use` (`""`: none, or a
    /// `--chat-template-file` replaces the model's templates).
    pub chat_template_tool_use: &'a str,
    /// The BOS token's text.
    pub bos_token: &'a str,
    /// The EOS token's text.
    pub eos_token: &'a str,
    /// The vocabulary adds BOS itself.
    pub add_bos: bool,
    /// The vocabulary adds EOS itself.
    pub add_eos: bool,
    /// A projector is loaded: images may be sent.
    pub vision: bool,
    /// Audio may be sent.
    pub audio: bool,
}

/// A rendered prompt, and what the build decided on the way.
#[derive(Clone, Debug)]
pub struct Rendered {
    /// The prompt.
    pub prompt: String,
    /// The server's thinking default for this template.
    pub thinking_default: bool,
    /// The build-specific rules consulted.
    pub build_rules: Vec<BuildRule>,
}

/// llama-server's refusal: its status, the exception's text and the exact
/// error body it answers with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// 400 (`std::invalid_argument`) or 500 (any other exception; also a
    /// template llama-server cannot load).
    pub status: u16,
    /// `e.what()`.
    pub message: String,
    /// The body, as llama-server writes it.
    pub body: String,
    /// `load` (the template does not load: the server would not start)
    /// or `request`.
    pub stage: &'static str,
    /// The build-specific rules consulted before it failed.
    pub build_rules: Vec<BuildRule>,
}

fn rules_of(rules: &changes::Rules) -> Vec<BuildRule> {
    rules
        .applied()
        .into_iter()
        .map(|c| BuildRule::of(c, rules))
        .collect()
}

/// Renders llama-server's own request `body` at `build`, with its clock at
/// `now` (seconds since the epoch; templates read it through
/// `strftime_now`).
pub fn render(model: &Model, body: &Json, build: Build, now: i64) -> Result<Rendered, Failure> {
    let rules = Rc::new(changes::Rules::new(build));
    let fail = |e: llamachat::Error, stage: &'static str, rules: &changes::Rules| Failure {
        status: if stage == "load" { 500 } else { e.status() },
        body: llamachat::server::error_body(&e),
        message: e.message,
        stage,
        build_rules: rules_of(rules),
    };
    let tmpls = llamachat::ChatTemplates::init_with_tool_use(
        model.chat_template,
        model.chat_template_tool_use,
        model.bos_token,
        model.eos_token,
        model.add_bos,
        model.add_eos,
        rules.clone(),
    )
    .map_err(|e| fail(e, "load", &rules))?;
    let mut params = llamachat::server::ServerChatParams::new(tmpls, now)
        .map_err(|e| fail(e, "load", &rules))?;
    params.allow_image = model.vision;
    params.allow_audio = model.audio;
    let prompt = llamachat::server::apply_template(body, &params, now)
        .map_err(|e| fail(e, "request", &rules))?;
    Ok(Rendered {
        prompt,
        thinking_default: params.enable_thinking,
        build_rules: rules_of(&rules),
    })
}

/// The llama-server body Ollama's native mode sends for an `/api/chat`
/// request: the model's SYSTEM first where the conversation has none, the
/// messages, tools and thinking as `ollama::native::body` writes them.
pub fn body_of_ollama_chat(system: Option<&str>, request: &Json) -> Result<Json, String> {
    let req = ollama::api::ChatRequest::decode(request).map_err(|e| e.to_string())?;
    let mut msgs = Vec::new();
    if let Some(system) = system {
        if !system.is_empty() && req.messages.first().map(|m| m.role.as_str()) != Some("system") {
            msgs.push(ollama::api::Message::new("system", system));
        }
    }
    msgs.extend(req.messages.iter().cloned());
    Ok(ollama::native::body(
        &msgs,
        req.tools.as_deref().filter(|t| !t.is_empty()),
        req.think.as_ref(),
        None,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const DEEPSEEK_STYLE: &str =
        "{%- for m in messages %}{{ m.role }}:{{ m.content }}\n{%- endfor %}\
{%- if response_format is defined %}schema:{{ response_format | tojson }}{% endif %}";

    #[test]
    fn a_trailing_assistant_message_with_tool_calls_is_refused_by_the_newer_build() {
        let model = Model {
            chat_template: "{% for m in messages %}{{ m.role }}: {{ m.content }}\n{% endfor %}",
            ..Model::default()
        };
        let body = json!({"messages": [
            {"role": "user", "content": "weather?"},
            {"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "type": "function",
                "function": {"name": "get_weather", "arguments": "{\"city\":\"Rome\"}"}}]}]});
        let new = render(&model, &body, Build::B11312, 0).unwrap_err();
        assert_eq!(new.status, 400);
        assert_eq!(
            new.body,
            "{\"error\":{\"code\":400,\"message\":\"Cannot continue an assistant message that contains tool calls.\",\"type\":\"invalid_request_error\"}}"
        );
        assert_eq!(new.build_rules[0].id, "continue_tool_calls_error");
        let old = render(&model, &body, Build::B10488, 0).unwrap();
        assert!(
            old.prompt.starts_with("user: weather?\n"),
            "{:?}",
            old.prompt
        );
        assert!(old
            .build_rules
            .iter()
            .any(|r| r.id == "continue_tool_calls_error" && !r.in_effect));
    }

    #[test]
    fn a_bare_test_argument_does_not_load_in_the_older_build() {
        let model = Model {
            chat_template: "{% for m in messages %}{% if loop.index is divisibleby 2 %}{{ m.content }}{% endif %}{% endfor %}",
            ..Model::default()
        };
        let body = json!({"messages": [{"role": "user", "content": "a"}, {"role": "assistant", "content": "b"}, {"role": "user", "content": "c"}]});
        assert_eq!(render(&model, &body, Build::B11312, 0).unwrap().prompt, "b");
        let old = render(&model, &body, Build::B10488, 0).unwrap_err();
        assert_eq!(old.stage, "load");
        assert!(old.message.contains("Expected %}"), "{}", old.message);
        assert_eq!(old.build_rules[0].id, "jinja_test_arg_without_parens");
    }

    #[test]
    fn an_empty_schema_prints_as_an_object_only_in_the_newer_build() {
        let model = Model {
            chat_template: DEEPSEEK_STYLE,
            ..Model::default()
        };
        // the template reads response_format from the context only when
        // a handler passes it; here it is undefined either way, so check
        // the switch through the rules consulted
        let body = json!({"messages": [{"role": "user", "content": "hi"}],
                          "response_format": {"type": "json_object"}});
        let new = render(&model, &body, Build::B11312, 0).unwrap();
        let old = render(&model, &body, Build::B10488, 0).unwrap();
        assert!(new
            .build_rules
            .iter()
            .any(|r| r.id == "empty_json_schema_is_object" && r.in_effect));
        assert!(old
            .build_rules
            .iter()
            .any(|r| r.id == "empty_json_schema_is_object" && !r.in_effect));
    }
}
