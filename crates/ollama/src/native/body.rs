//! The chat body Ollama sends llama-server (`llamaServerChatRequest`,
//! `llamaServerChatMessage`, `llamaServerChatToolCalls` and
//! `llamaServerChatTemplateKwargs` in llm/llama_server.go), the fields that
//! decide the prompt: Go writes map keys sorted, struct fields in order.

use serde_json::{Map, Value as Json};

use super::json::{go_args, tools_json};
use crate::api;

/// One message as `llamaServerChatMessage` writes it: `content` (a string,
/// or text and media parts when the message has images), `name`, `role`,
/// `tool_call_id`, `tool_calls` (`{id?, index, type, function{name,
/// arguments: <JSON text>}}`).
fn message(m: &api::Message) -> Json {
    let mut o = Map::new();
    if m.images.is_empty() {
        o.insert("content".into(), Json::String(m.content.clone()));
    } else {
        let mut parts = Vec::new();
        if !m.content.is_empty() {
            parts.push(serde_json::json!({"text": m.content, "type": "text"}));
        }
        for _ in &m.images {
            // The media reach the template only as llama-server's marker.
            parts.push(serde_json::json!({
                "image_url": {"url": "data:image/jpeg;base64,"},
                "type": "image_url"
            }));
        }
        o.insert("content".into(), Json::Array(parts));
    }
    if !m.tool_name.is_empty() {
        o.insert("name".into(), Json::String(m.tool_name.clone()));
    }
    o.insert("role".into(), Json::String(m.role.clone()));
    if !m.tool_call_id.is_empty() {
        o.insert("tool_call_id".into(), Json::String(m.tool_call_id.clone()));
    }
    if !m.tool_calls.is_empty() {
        let calls = m
            .tool_calls
            .iter()
            .map(|tc| {
                let mut c = Map::new();
                if !tc.id.is_empty() {
                    c.insert("id".into(), Json::String(tc.id.clone()));
                }
                c.insert("index".into(), Json::from(tc.function.index));
                c.insert("type".into(), Json::String("function".into()));
                let mut f = Map::new();
                f.insert("name".into(), Json::String(tc.function.name.clone()));
                f.insert(
                    "arguments".into(),
                    Json::String(go_args(&tc.function.arguments)),
                );
                c.insert("function".into(), Json::Object(f));
                Json::Object(c)
            })
            .collect();
        o.insert("tool_calls".into(), Json::Array(calls));
    }
    Json::Object(o)
}

/// The body: `messages`, `tools` (when there are any),
/// `chat_template_kwargs` from `think` (`enable_thinking`, and
/// `reasoning_effort` for a level) and `response_format` from `format`.
pub fn body(
    messages: &[api::Message],
    tools: Option<&[api::Tool]>,
    think: Option<&api::Think>,
    response_format: Option<Json>,
) -> Json {
    let mut b = Map::new();
    if let Some(t) = think {
        let mut kw = Map::new();
        kw.insert("enable_thinking".into(), Json::Bool(t.as_bool()));
        if let api::Think::Level(l) = t {
            if !l.is_empty() {
                kw.insert("reasoning_effort".into(), Json::String(l.clone()));
            }
        }
        b.insert("chat_template_kwargs".into(), Json::Object(kw));
    }
    b.insert(
        "messages".into(),
        Json::Array(messages.iter().map(message).collect()),
    );
    if let Some(f) = response_format {
        b.insert("response_format".into(), f);
    }
    if let Some(tools) = tools.filter(|t| !t.is_empty()) {
        b.insert("tools".into(), tools_json(tools));
    }
    Json::Object(b)
}
