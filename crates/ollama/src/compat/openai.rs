//! `/v1/chat/completions` and `/v1/completions` (openai/openai.go,
//! middleware/openai.go).

use serde_json::Value as Json;

use super::marshal::{self, ApiMessage, ApiToolCall, Common, TOOL};
use super::{Flags, Refused};
use crate::godecode::{self, Got, Struct, Ty};
use crate::gojson::J;
use crate::server::Endpoint;

/// `openai.NewError`'s error type for a status.
pub fn error_type(status: u16) -> &'static str {
    match status {
        400 => "invalid_request_error",
        404 => "not_found_error",
        _ => "api_error",
    }
}

static FUNCTION_T: Struct = Struct {
    name: "",
    go: "struct { Name string \"json:\\\"name\\\"\"; Arguments string \"json:\\\"arguments\\\"\" }",
    fields: &[("name", Ty::Str), ("arguments", Ty::Str)],
};
static TOOL_CALL_T: Struct = Struct {
    name: "ToolCall",
    go: "openai.ToolCall",
    fields: &[
        ("id", Ty::Str),
        ("index", Ty::Int),
        ("type", Ty::Str),
        ("function", Ty::Struct(&FUNCTION_T)),
    ],
};
static TOOL_CALL: Ty = Ty::Struct(&TOOL_CALL_T);
static MESSAGE_T: Struct = Struct {
    name: "Message",
    go: "openai.Message",
    fields: &[
        ("role", Ty::Str),
        ("content", Ty::Any),
        ("reasoning", Ty::Str),
        ("tool_calls", Ty::Slice(&TOOL_CALL, "[]openai.ToolCall")),
        ("name", Ty::Str),
        ("tool_call_id", Ty::Str),
    ],
};
static MESSAGE: Ty = Ty::Struct(&MESSAGE_T);
static STREAM_OPTIONS_T: Struct = Struct {
    name: "StreamOptions",
    go: "openai.StreamOptions",
    fields: &[("include_usage", Ty::Bool)],
};
static STREAM_OPTIONS: Ty = Ty::Struct(&STREAM_OPTIONS_T);
static JSON_SCHEMA_T: Struct = Struct {
    name: "JsonSchema",
    go: "openai.JsonSchema",
    fields: &[("schema", Ty::Raw)],
};
static JSON_SCHEMA: Ty = Ty::Struct(&JSON_SCHEMA_T);
static RESPONSE_FORMAT_T: Struct = Struct {
    name: "ResponseFormat",
    go: "openai.ResponseFormat",
    fields: &[("type", Ty::Str), ("json_schema", Ty::Ptr(&JSON_SCHEMA))],
};
static RESPONSE_FORMAT: Ty = Ty::Struct(&RESPONSE_FORMAT_T);
static REASONING_T: Struct = Struct {
    name: "Reasoning",
    go: "openai.Reasoning",
    fields: &[("effort", Ty::Str)],
};
static REASONING: Ty = Ty::Struct(&REASONING_T);

static CHAT_T: Struct = Struct {
    name: "ChatCompletionRequest",
    go: "openai.ChatCompletionRequest",
    fields: &[
        ("model", Ty::Str),
        ("messages", Ty::Slice(&MESSAGE, "[]openai.Message")),
        ("stream", Ty::Bool),
        ("stream_options", Ty::Ptr(&STREAM_OPTIONS)),
        ("max_tokens", Ty::Ptr(&Ty::Int)),
        ("seed", Ty::Ptr(&Ty::Int)),
        ("stop", Ty::Any),
        ("temperature", Ty::Ptr(&Ty::F64)),
        ("frequency_penalty", Ty::Ptr(&Ty::F64)),
        ("presence_penalty", Ty::Ptr(&Ty::F64)),
        ("top_p", Ty::Ptr(&Ty::F64)),
        ("response_format", Ty::Ptr(&RESPONSE_FORMAT)),
        ("tools", Ty::Slice(&TOOL, "[]api.Tool")),
        ("reasoning", Ty::Ptr(&REASONING)),
        ("reasoning_effort", Ty::Ptr(&Ty::Str)),
        ("logprobs", Ty::Ptr(&Ty::Bool)),
        ("top_logprobs", Ty::Int),
        ("_debug_render_only", Ty::Bool),
    ],
};

static COMPLETION_T: Struct = Struct {
    name: "CompletionRequest",
    go: "openai.CompletionRequest",
    fields: &[
        ("model", Ty::Str),
        ("prompt", Ty::Str),
        ("frequency_penalty", Ty::F32),
        ("max_tokens", Ty::Ptr(&Ty::Int)),
        ("presence_penalty", Ty::F32),
        ("seed", Ty::Ptr(&Ty::Int)),
        ("stop", Ty::Any),
        ("stream", Ty::Bool),
        ("stream_options", Ty::Ptr(&STREAM_OPTIONS)),
        ("temperature", Ty::Ptr(&Ty::F32)),
        ("top_p", Ty::F32),
        ("suffix", Ty::Str),
        ("logprobs", Ty::Ptr(&Ty::Int)),
        ("_debug_render_only", Ty::Bool),
    ],
};

/// gin's `c.ShouldBindJSON(&req)` for a struct type.
pub(crate) fn bind(body: &Json, st: &'static Struct) -> Result<Json, Refused> {
    match godecode::unmarshal(body, &Ty::Struct(st)) {
        Ok(v) => Ok(v.unwrap_or(Json::Object(Default::default()))),
        Err(e) => Err(Refused::bad(e.text())),
    }
}

/// Go's `%T` of a value decoded into `any`.
pub(crate) fn go_type_name(v: Option<&Json>) -> &'static str {
    match v {
        None | Some(Json::Null) => "<nil>",
        Some(Json::Bool(_)) => "bool",
        Some(Json::Number(_)) => "float64",
        Some(Json::String(_)) => "string",
        Some(Json::Array(_)) => "[]interface {}",
        Some(Json::Object(_)) => "map[string]interface {}",
    }
}

fn f64_of(v: &Json) -> f64 {
    v.as_f64().unwrap_or(0.0)
}

/// `thinkFromReasoningEffort` (before `openai_reasoning_effort_clamp`,
/// each route's own check: `chat` is /v1/chat/completions').
pub(crate) fn think_from_effort(
    effort: &str,
    rules: &changes::Rules,
    chat: bool,
) -> Result<Option<J>, Refused> {
    let clamped = matches!(effort, "minimal" | "xhigh" | "ultra")
        || !matches!(effort, "" | "none" | "low" | "medium" | "high" | "max");
    if clamped && !rules.on(&changes::ollama::OPENAI_REASONING_EFFORT_CLAMP) {
        let must = "(must be \"high\", \"medium\", \"low\", \"max\", or \"none\")";
        return Err(Refused::bad(if chat {
            format!("invalid reasoning value: '{effort}' {must}")
        } else {
            format!(
                "invalid reasoning value: {} {must}",
                gotmpl::strconv::quote(effort)
            )
        }));
    }
    Ok(Some(match effort {
        "" => return Ok(None),
        "none" => J::Bool(false),
        "minimal" => J::s("low"),
        "low" | "medium" | "high" | "max" => J::s(effort),
        "xhigh" | "ultra" => J::s("max"),
        _ => {
            return Err(Refused::bad(format!(
                "invalid reasoning value: {} (must be \"minimal\", \"low\", \"medium\", \"high\", \"xhigh\", \"ultra\", \"max\", or \"none\")",
                gotmpl::strconv::quote(effort)
            )))
        }
    }))
}

/// `decodeImageURL`: a base64 data URI's bytes.
pub(crate) fn decode_image_url(url: &str) -> Result<Vec<u8>, Refused> {
    if url.starts_with("http://") || url.starts_with("https://") {
        return Err(Refused::bad(
            "image URLs are not currently supported, please use base64 encoded data instead",
        ));
    }
    let data = if let Some(rest) = url.strip_prefix("data:;base64,") {
        rest
    } else {
        ["jpeg", "jpg", "png", "webp"]
            .iter()
            .find_map(|t| url.strip_prefix(&format!("data:image/{t};base64,")))
            .ok_or_else(|| Refused::bad("invalid image input"))?
    };
    crate::api::base64_decode(data).map_err(|_| Refused::bad("invalid image input"))
}

fn tool_calls_of(list: &[Json]) -> Result<Vec<ApiToolCall>, Refused> {
    list.iter()
        .map(|tc| {
            let g = Got::of(Some(tc));
            let f = g.sub("function");
            let args = marshal::arguments_from_text(f.str("arguments"))
                .map_err(|_| Refused::bad("invalid tool call arguments"))?;
            Ok(ApiToolCall {
                id: g.str("id").into(),
                index: 0,
                name: f.str("name").into(),
                args: Some(args),
            })
        })
        .collect()
}

fn name_from_tool_call_id(messages: &[Json], id: &str) -> String {
    for m in messages.iter().rev() {
        for tc in Got::of(Some(m)).list("tool_calls") {
            let g = Got::of(Some(tc));
            if g.str("id") == id {
                return g.sub("function").str("name").into();
            }
        }
    }
    String::new()
}

fn convert_messages(list: &[Json]) -> Result<Vec<ApiMessage>, Refused> {
    let invalid = || Refused::bad("invalid message format");
    let mut messages: Vec<ApiMessage> = Vec::new();
    for m in list {
        let msg = Got::of(Some(m));
        let role = msg.str("role");
        let mut tool_name = String::new();
        if crate::renderers::text::to_lower(role) == "tool" {
            tool_name = msg.str("name").into();
            if tool_name.is_empty() && !msg.str("tool_call_id").is_empty() {
                tool_name = name_from_tool_call_id(list, msg.str("tool_call_id"));
            }
        }
        let calls = msg.get("tool_calls");
        match msg.get("content") {
            Some(Json::String(content)) => {
                let tool_calls = tool_calls_of(msg.list("tool_calls"))?;
                messages.push(ApiMessage {
                    role: role.into(),
                    content: content.clone(),
                    thinking: msg.str("reasoning").into(),
                    tool_calls: Some(tool_calls),
                    tool_name,
                    tool_call_id: msg.str("tool_call_id").into(),
                    ..ApiMessage::default()
                });
            }
            Some(Json::Array(parts)) => {
                for c in parts {
                    let Json::Object(data) = c else {
                        return Err(invalid());
                    };
                    match data.get("type").and_then(Json::as_str) {
                        Some("text") => {
                            let text = data
                                .get("text")
                                .and_then(Json::as_str)
                                .ok_or_else(invalid)?;
                            messages.push(ApiMessage::new(role, text));
                        }
                        Some("image_url") => {
                            let url = match data.get("image_url") {
                                Some(Json::Object(u)) => {
                                    u.get("url").and_then(Json::as_str).ok_or_else(invalid)?
                                }
                                other => other.and_then(Json::as_str).ok_or_else(invalid)?,
                            };
                            let img = decode_image_url(url)?;
                            messages.push(ApiMessage {
                                role: role.into(),
                                images: vec![marshal::image(&img)],
                                ..ApiMessage::default()
                            });
                        }
                        Some("input_audio") => {
                            let Some(Json::Object(audio)) = data.get("input_audio") else {
                                return Err(Refused::bad("invalid input_audio format"));
                            };
                            let b64 =
                                audio.get("data").and_then(Json::as_str).ok_or_else(|| {
                                    Refused::bad("invalid input_audio format: missing data")
                                })?;
                            let bytes = crate::api::base64_decode(b64).map_err(|e| {
                                Refused::bad(format!("invalid input_audio base64 data: {e}"))
                            })?;
                            messages.push(ApiMessage {
                                role: role.into(),
                                images: vec![marshal::image(&bytes)],
                                ..ApiMessage::default()
                            });
                        }
                        _ => return Err(invalid()),
                    }
                }
                if !messages.is_empty() && !msg.list("tool_calls").is_empty() {
                    let tool_calls = tool_calls_of(msg.list("tool_calls"))?;
                    let last = messages.last_mut().expect("not empty");
                    last.tool_calls = Some(tool_calls);
                    last.tool_name = tool_name;
                    last.tool_call_id = msg.str("tool_call_id").into();
                    last.thinking = msg.str("reasoning").into();
                }
            }
            other => {
                if calls.is_none() {
                    return Err(Refused::bad(format!(
                        "invalid message content type: {}",
                        go_type_name(other)
                    )));
                }
                let tool_calls = tool_calls_of(msg.list("tool_calls"))?;
                messages.push(ApiMessage {
                    role: role.into(),
                    thinking: msg.str("reasoning").into(),
                    tool_calls: Some(tool_calls),
                    tool_call_id: msg.str("tool_call_id").into(),
                    ..ApiMessage::default()
                });
            }
        }
    }
    Ok(messages)
}

fn stop_option(v: Option<&Json>, strict: bool) -> Result<Option<J>, Refused> {
    Ok(match v {
        Some(Json::String(s)) => Some(J::Arr(vec![J::s(s)])),
        Some(Json::Array(a)) => {
            let mut stops = Vec::new();
            for s in a {
                match s {
                    Json::String(s) => stops.push(J::s(s)),
                    other if strict => {
                        return Err(Refused::bad(format!(
                            "invalid type for 'stop' field: {}",
                            go_type_name(Some(other))
                        )))
                    }
                    _ => {}
                }
            }
            Some(if stops.is_empty() {
                J::Null
            } else {
                J::Arr(stops)
            })
        }
        _ => None,
    })
}

/// ChatMiddleware and `FromChatRequest`.
pub(crate) fn chat(body: &Json, rules: &changes::Rules) -> Result<(Endpoint, J, Flags), Refused> {
    let v = bind(body, &CHAT_T)?;
    let r = Got::of(Some(&v));
    if r.list("messages").is_empty() {
        return Err(Refused::bad("[] is too short - 'messages'"));
    }
    let messages = convert_messages(r.list("messages"))?;
    let mut options = Vec::new();
    if let Some(s) = stop_option(r.get("stop"), false)? {
        options.push(("stop".to_string(), s));
    }
    if let Some(n) = r.get("max_tokens") {
        options.push(("num_predict".into(), J::int(n.as_i64().unwrap_or(0))));
    }
    options.push((
        "temperature".into(),
        J::float(r.get("temperature").map(f64_of).unwrap_or(1.0), 64),
    ));
    if let Some(n) = r.get("seed") {
        options.push(("seed".into(), J::int(n.as_i64().unwrap_or(0))));
    }
    for k in ["frequency_penalty", "presence_penalty"] {
        if let Some(x) = r.get(k) {
            options.push((k.into(), J::float(f64_of(x), 64)));
        }
    }
    options.push((
        "top_p".into(),
        J::float(r.get("top_p").map(f64_of).unwrap_or(1.0), 64),
    ));
    let mut format = None;
    if r.get("response_format").is_some() {
        let rf = r.sub("response_format");
        match crate::renderers::text::to_lower(rf.str("type").trim()).as_str() {
            "json_object" => format = Some(Json::String("json".into())),
            "json_schema" => format = rf.sub("json_schema").get("schema").cloned(),
            _ => {}
        }
    }
    let effort = if r.get("reasoning").is_some() {
        r.sub("reasoning").str("effort").to_string()
    } else {
        r.get("reasoning_effort")
            .and_then(Json::as_str)
            .unwrap_or("")
            .to_string()
    };
    let think = think_from_effort(&effort, rules, true)?;
    let tools = r.get("tools").map(|_| {
        r.list("tools")
            .iter()
            .map(marshal::decoded_tool)
            .collect::<Vec<_>>()
    });
    let common = Common {
        stream: Some(r.bool("stream")),
        format,
        tools,
        options,
        think,
        debug_render_only: r.bool("_debug_render_only"),
        logprobs: r.bool("logprobs"),
        top_logprobs: r.int("top_logprobs"),
    };
    let flags = Flags {
        stream: r.bool("stream"),
        include_usage: r.sub("stream_options").bool("include_usage"),
        web_search: false,
    };
    Ok((
        Endpoint::Chat,
        marshal::chat_request(r.str("model"), &messages, common),
        flags,
    ))
}

fn f32_j(v: &Json) -> J {
    J::float(v.as_f64().unwrap_or(0.0) as f32 as f64, 32)
}

/// CompletionsMiddleware and `FromCompleteRequest`.
pub(crate) fn completions(body: &Json) -> Result<(Endpoint, J, Flags), Refused> {
    let v = bind(body, &COMPLETION_T)?;
    let r = Got::of(Some(&v));
    let mut options = Vec::new();
    if let Some(s) = stop_option(r.get("stop"), true)? {
        options.push(("stop".to_string(), s));
    }
    if let Some(n) = r.get("max_tokens") {
        options.push(("num_predict".into(), J::int(n.as_i64().unwrap_or(0))));
    }
    options.push((
        "temperature".into(),
        r.get("temperature").map(f32_j).unwrap_or(J::float(1.0, 64)),
    ));
    if let Some(n) = r.get("seed") {
        options.push(("seed".into(), J::int(n.as_i64().unwrap_or(0))));
    }
    let zero = Json::from(0);
    for k in ["frequency_penalty", "presence_penalty"] {
        options.push((k.into(), f32_j(r.get(k).unwrap_or(&zero))));
    }
    let top_p = r
        .get("top_p")
        .map(|x| x.as_f64().unwrap_or(0.0) as f32)
        .unwrap_or(0.0);
    options.push((
        "top_p".into(),
        if top_p != 0.0 {
            J::float(top_p as f64, 32)
        } else {
            J::float(1.0, 64)
        },
    ));
    let logprobs = r.get("logprobs").and_then(Json::as_i64).unwrap_or(0);
    let common = Common {
        stream: Some(r.bool("stream")),
        options,
        debug_render_only: r.bool("_debug_render_only"),
        logprobs: logprobs > 0,
        top_logprobs: if logprobs > 0 { logprobs } else { 0 },
        ..Common::default()
    };
    let flags = Flags {
        stream: r.bool("stream"),
        include_usage: r.sub("stream_options").bool("include_usage"),
        web_search: false,
    };
    Ok((
        Endpoint::Generate,
        marshal::generate_request(r.str("model"), r.str("prompt"), r.str("suffix"), common),
        flags,
    ))
}
