//! `/v1/messages` (anthropic/anthropic.go, AnthropicMessagesMiddleware).

use serde_json::{Map, Value as Json};

use super::marshal::{self, ApiMessage, ApiToolCall, Common, PARAMETERS};
use super::openai::bind;
use super::{Flags, Refused};
use crate::godecode::{self, GoErr, Got, Struct, Ty};
use crate::gojson::J;
use crate::server::Endpoint;

/// `anthropic.NewError`'s error type for a status.
pub fn error_type(status: u16) -> &'static str {
    match status {
        400 => "invalid_request_error",
        401 => "authentication_error",
        403 => "permission_error",
        404 => "not_found_error",
        429 => "rate_limit_error",
        503 | 529 => "overloaded_error",
        _ => "api_error",
    }
}

/// An id of the shape `generateID` makes (`prefix_` and 24 hex digits),
/// derived from `seed` so that the same request gives the same id.
pub fn id_for(prefix: &str, seed: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut out = String::new();
    for round in 0..2u64 {
        for b in seed.bytes().chain(round.to_le_bytes()) {
            h ^= b as u64;
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
        out.push_str(&format!("{h:016x}"));
    }
    format!("{prefix}_{}", &out[..24])
}

static CITATION_T: Struct = Struct {
    name: "Citation",
    go: "anthropic.Citation",
    fields: &[
        ("type", Ty::Str),
        ("url", Ty::Str),
        ("title", Ty::Str),
        ("encrypted_index", Ty::Str),
        ("cited_text", Ty::Str),
    ],
};
static CITATION: Ty = Ty::Struct(&CITATION_T);
static SOURCE_T: Struct = Struct {
    name: "ImageSource",
    go: "anthropic.ImageSource",
    fields: &[
        ("type", Ty::Str),
        ("media_type", Ty::Str),
        ("data", Ty::Str),
        ("url", Ty::Str),
    ],
};
static SOURCE: Ty = Ty::Struct(&SOURCE_T);

fn input(v: &Json) -> Result<Option<Json>, GoErr> {
    marshal::arguments(v).map(Some)
}

static BLOCK_T: Struct = Struct {
    name: "ContentBlock",
    go: "anthropic.ContentBlock",
    fields: &[
        ("type", Ty::Str),
        ("text", Ty::Ptr(&Ty::Str)),
        ("citations", Ty::Slice(&CITATION, "[]anthropic.Citation")),
        ("source", Ty::Ptr(&SOURCE)),
        ("id", Ty::Str),
        ("name", Ty::Str),
        ("input", Ty::Custom(input)),
        ("tool_use_id", Ty::Str),
        ("content", Ty::Any),
        ("is_error", Ty::Bool),
        ("thinking", Ty::Ptr(&Ty::Str)),
        ("signature", Ty::Str),
    ],
};
pub(crate) static BLOCK: Ty = Ty::Struct(&BLOCK_T);
static BLOCKS: Ty = Ty::Slice(&BLOCK, "[]anthropic.ContentBlock");

static RAW_MESSAGE_T: Struct = Struct {
    name: "",
    go: "struct { Role string \"json:\\\"role\\\"\"; Content json.RawMessage \"json:\\\"content\\\"\" }",
    fields: &[("role", Ty::Str), ("content", Ty::Raw)],
};

/// `MessageParam.UnmarshalJSON`: content as a string or blocks.
fn message_param(v: &Json) -> Result<Option<Json>, GoErr> {
    let raw = godecode::unmarshal(v, &Ty::Struct(&RAW_MESSAGE_T))?.unwrap_or(Json::Null);
    let r = Got::of(Some(&raw));
    let content = match r.get("content") {
        None => return Err(godecode::unexpected_end()),
        Some(Json::String(s)) => serde_json::json!([{"type": "text", "text": s}]),
        Some(Json::Null) => serde_json::json!([{"type": "text", "text": ""}]),
        Some(c) => godecode::unmarshal(c, &BLOCKS)?.unwrap_or(Json::Null),
    };
    Ok(Some(
        serde_json::json!({"role": r.str("role"), "content": content}),
    ))
}

static TOOL_T: Struct = Struct {
    name: "Tool",
    go: "anthropic.Tool",
    fields: &[
        ("type", Ty::Str),
        ("name", Ty::Str),
        ("description", Ty::Str),
        ("input_schema", Ty::Raw),
        ("max_uses", Ty::Int),
    ],
};
static TOOL: Ty = Ty::Struct(&TOOL_T);
static TOOL_CHOICE_T: Struct = Struct {
    name: "ToolChoice",
    go: "anthropic.ToolChoice",
    fields: &[
        ("type", Ty::Str),
        ("name", Ty::Str),
        ("disable_parallel_tool_use", Ty::Bool),
    ],
};
static TOOL_CHOICE: Ty = Ty::Struct(&TOOL_CHOICE_T);
static THINKING_T: Struct = Struct {
    name: "ThinkingConfig",
    go: "anthropic.ThinkingConfig",
    fields: &[("type", Ty::Str), ("budget_tokens", Ty::Int)],
};
static THINKING: Ty = Ty::Struct(&THINKING_T);
static METADATA_T: Struct = Struct {
    name: "Metadata",
    go: "anthropic.Metadata",
    fields: &[("user_id", Ty::Str)],
};
static METADATA: Ty = Ty::Struct(&METADATA_T);
static OUTPUT_CONFIG_T: Struct = Struct {
    name: "OutputConfig",
    go: "anthropic.OutputConfig",
    fields: &[("effort", Ty::Str)],
};
static OUTPUT_CONFIG: Ty = Ty::Struct(&OUTPUT_CONFIG_T);
static MESSAGE_PARAM: Ty = Ty::Custom(message_param);

static REQUEST_T: Struct = Struct {
    name: "MessagesRequest",
    go: "anthropic.MessagesRequest",
    fields: &[
        ("model", Ty::Str),
        ("max_tokens", Ty::Int),
        (
            "messages",
            Ty::Slice(&MESSAGE_PARAM, "[]anthropic.MessageParam"),
        ),
        ("system", Ty::Any),
        ("stream", Ty::Bool),
        ("temperature", Ty::Ptr(&Ty::F64)),
        ("top_p", Ty::Ptr(&Ty::F64)),
        ("top_k", Ty::Ptr(&Ty::Int)),
        ("stop_sequences", Ty::Slice(&Ty::Str, "[]string")),
        ("tools", Ty::Slice(&TOOL, "[]anthropic.Tool")),
        ("tool_choice", Ty::Ptr(&TOOL_CHOICE)),
        ("thinking", Ty::Ptr(&THINKING)),
        ("metadata", Ty::Ptr(&METADATA)),
        ("output_config", Ty::Ptr(&OUTPUT_CONFIG)),
    ],
};

/// `resolveImageSource`.
fn image_source(ty: &str, data: &str) -> Result<String, Refused> {
    if ty != "base64" {
        return Err(Refused::bad(format!(
            "invalid image source type: {ty}. Only base64 images are supported."
        )));
    }
    crate::api::base64_decode(data)
        .map(|b| marshal::image(&b))
        .map_err(|e| Refused::bad(format!("invalid base64 image data: {e}")))
}

/// `convertToolResultContent`.
fn tool_result_content(content: Option<&Json>) -> Result<(String, Vec<String>), Refused> {
    match content {
        Some(Json::String(s)) => Ok((s.clone(), Vec::new())),
        Some(Json::Array(a)) => {
            let mut text = String::new();
            let mut images = Vec::new();
            for cb in a {
                let Json::Object(m) = cb else { continue };
                match m.get("type").and_then(Json::as_str) {
                    Some("text") => {
                        if let Some(t) = m.get("text").and_then(Json::as_str) {
                            text.push_str(t);
                        }
                    }
                    Some("image") => {
                        let Some(Json::Object(src)) = m.get("source") else {
                            return Err(Refused::bad("invalid tool_result image source"));
                        };
                        let s = |k: &str| src.get(k).and_then(Json::as_str).unwrap_or("");
                        images.push(image_source(s("type"), s("data"))?);
                    }
                    _ => {}
                }
            }
            Ok((text, images))
        }
        _ => Ok((String::new(), Vec::new())),
    }
}

fn web_search_error(m: &Map<String, Json>) -> String {
    match m.get("error_code").and_then(Json::as_str).unwrap_or("") {
        "" => "web_search_tool_result_error".into(),
        code => format!("web_search_tool_result_error: {code}"),
    }
}

/// `formatWebSearchToolResultContent`.
fn web_search_result(content: Option<&Json>) -> String {
    match content {
        Some(Json::String(s)) => s.clone(),
        Some(Json::Array(a)) => {
            let mut out = String::new();
            for it in a {
                let Json::Object(m) = it else { continue };
                match m.get("type").and_then(Json::as_str) {
                    Some("web_search_result") => {
                        let s = |k: &str| m.get(k).and_then(Json::as_str).unwrap_or("");
                        out.push_str(&format!("- {}: {}\n", s("title"), s("url")));
                    }
                    Some("web_search_tool_result_error") => return web_search_error(m),
                    _ => {}
                }
            }
            out
        }
        Some(Json::Object(m))
            if m.get("type").and_then(Json::as_str) == Some("web_search_tool_result_error") =>
        {
            web_search_error(m)
        }
        Some(v) => marshal::any(v).to_json(),
        None => "null".into(),
    }
}

/// `convertMessage`.
fn convert_message(msg: &Got) -> Result<Vec<ApiMessage>, Refused> {
    let role = crate::renderers::text::to_lower(msg.str("role"));
    let mut text = String::new();
    let mut images = Vec::new();
    let mut tool_calls = Vec::new();
    let mut thinking = String::new();
    let mut results = Vec::new();
    for block in msg.list("content") {
        let b = Got::of(Some(block));
        match b.str("type") {
            "text" => text.push_str(b.str("text")),
            "image" => {
                if b.get("source").is_none() {
                    return Err(Refused::bad("invalid image source"));
                }
                let s = b.sub("source");
                images.push(image_source(s.str("type"), s.str("data"))?);
            }
            "tool_use" | "server_tool_use" => {
                if b.str("type") == "tool_use" {
                    if b.str("id").is_empty() {
                        return Err(Refused::bad("tool_use block missing required 'id' field"));
                    }
                    if b.str("name").is_empty() {
                        return Err(Refused::bad("tool_use block missing required 'name' field"));
                    }
                }
                tool_calls.push(ApiToolCall {
                    id: b.str("id").into(),
                    index: 0,
                    name: b.str("name").into(),
                    args: b.get("input").cloned(),
                });
            }
            "tool_result" => {
                let (content, imgs) = tool_result_content(b.get("content"))?;
                results.push(ApiMessage {
                    role: "tool".into(),
                    content,
                    images: imgs,
                    tool_call_id: b.str("tool_use_id").into(),
                    ..ApiMessage::default()
                });
            }
            "thinking" => {
                if let Some(t) = b.get("thinking").and_then(Json::as_str) {
                    thinking = t.to_string();
                }
            }
            "web_search_tool_result" => results.push(ApiMessage {
                role: "tool".into(),
                content: web_search_result(b.get("content")),
                tool_call_id: b.str("tool_use_id").into(),
                ..ApiMessage::default()
            }),
            _ => {}
        }
    }
    let mut out = Vec::new();
    let user_results = role == "user" && !results.is_empty();
    if user_results {
        out.append(&mut results);
    }
    if !text.is_empty() || !images.is_empty() || !tool_calls.is_empty() || !thinking.is_empty() {
        out.push(ApiMessage {
            role: role.clone(),
            content: text,
            images,
            tool_calls: Some(tool_calls),
            thinking,
            ..ApiMessage::default()
        });
    }
    if !user_results {
        out.append(&mut results);
    }
    Ok(out)
}

/// AnthropicMessagesMiddleware and `FromMessagesRequest`.
pub(crate) fn convert(body: &Json) -> Result<(Endpoint, J, Flags), Refused> {
    let v = bind(body, &REQUEST_T)?;
    let r = Got::of(Some(&v));
    if r.str("model").is_empty() {
        return Err(Refused::bad("model is required"));
    }
    if r.int("max_tokens") <= 0 {
        return Err(Refused::bad("max_tokens is required and must be positive"));
    }
    if r.list("messages").is_empty() {
        return Err(Refused::bad("messages is required"));
    }
    let mut messages = Vec::new();
    match r.get("system") {
        Some(Json::String(s)) if !s.is_empty() => messages.push(ApiMessage::new("system", s)),
        Some(Json::Array(blocks)) => {
            let mut content = String::new();
            for b in blocks {
                if let Json::Object(m) = b {
                    if m.get("type").and_then(Json::as_str) == Some("text") {
                        if let Some(t) = m.get("text").and_then(Json::as_str) {
                            content.push_str(t);
                        }
                    }
                }
            }
            if !content.is_empty() {
                messages.push(ApiMessage::new("system", &content));
            }
        }
        _ => {}
    }
    for m in r.list("messages") {
        messages.extend(convert_message(&Got::of(Some(m)))?);
    }
    let mut options = vec![("num_predict".to_string(), J::int(r.int("max_tokens")))];
    for k in ["temperature", "top_p"] {
        if let Some(x) = r.get(k) {
            options.push((k.into(), J::float(x.as_f64().unwrap_or(0.0), 64)));
        }
    }
    if let Some(k) = r.get("top_k") {
        options.push(("top_k".into(), J::int(k.as_i64().unwrap_or(0))));
    }
    let stops = r.list("stop_sequences");
    if !stops.is_empty() {
        options.push((
            "stop".into(),
            J::Arr(
                stops
                    .iter()
                    .map(|s| J::s(s.as_str().unwrap_or("")))
                    .collect(),
            ),
        ));
    }
    let tool_list = r.list("tools");
    let builtin = tool_list
        .iter()
        .any(|t| Got::of(Some(t)).str("type").starts_with("web_search"));
    let mut tools = Vec::new();
    for t in tool_list {
        let t = Got::of(Some(t));
        let web = t.str("type").starts_with("web_search");
        if builtin && !web && t.str("name") == "web_search" {
            continue;
        }
        if web {
            tools.push(marshal::web_search_tool(
                "Search the web for current information. Use this to find up-to-date information about any topic.",
                "The search query to look up on the web",
            ));
            continue;
        }
        let params = match t.get("input_schema") {
            Some(schema) => {
                let p = godecode::unmarshal(schema, &PARAMETERS)
                    .map_err(|e| {
                        Refused::bad(format!(
                            "invalid input_schema for tool {}: {e}",
                            gotmpl::strconv::quote(t.str("name"))
                        ))
                    })?
                    .unwrap_or(Json::Object(Map::new()));
                marshal::parameters(&Got::of(Some(&p)))
            }
            None => marshal::parameters(&Got::of(None)),
        };
        tools.push(marshal::tool(
            "function",
            None,
            t.str("name"),
            t.str("description"),
            params,
        ));
    }
    let effort = match r.get("output_config") {
        Some(_) => {
            let e = crate::renderers::text::to_lower(r.sub("output_config").str("effort").trim());
            if e == "xhigh" {
                "high".to_string()
            } else {
                e
            }
        }
        None => String::new(),
    };
    let mut think = match r.get("thinking").map(|_| r.sub("thinking").str("type")) {
        Some("enabled") => Some(J::Bool(true)),
        Some("disabled") => Some(J::Bool(false)),
        _ => None,
    };
    if think.is_none() && matches!(effort.as_str(), "high" | "medium" | "low" | "max") {
        think = Some(J::s(&effort));
    }
    let common = Common {
        stream: Some(r.bool("stream")),
        tools: Some(tools),
        options,
        think,
        ..Common::default()
    };
    Ok((
        Endpoint::Chat,
        marshal::chat_request(r.str("model"), &messages, common),
        Flags {
            stream: r.bool("stream"),
            include_usage: false,
            web_search: builtin,
        },
    ))
}

/// The decoded `anthropic.MessagesRequest` (its writer estimates tokens from it).
pub(crate) fn decode(body: &Json) -> Json {
    bind(body, &REQUEST_T).unwrap_or(Json::Object(Map::new()))
}
