//! What llama-server does with a chat body before the model sees it:
//! `oaicompat_chat_params_parse` (tools/server/server-common.cpp), the
//! part that checks the body and builds the prompt, as `POST
//! /apply-template` and `/v1/chat/completions` run it; the server's
//! defaults (`server_context::load_model`: thinking on when the template
//! supports it, `preserve_reasoning` on); and the error body its
//! `ex_wrapper` answers with.

use std::collections::BTreeMap;

use serde_json::{Map, Value as Json};

use crate::apply::{apply, supports_enable_thinking, ChatParams, Continuation, Inputs, ToolChoice};
use crate::dump::dump;
use crate::msg::{msgs_parse_oaicompat, tools_parse_oaicompat};
use crate::template::{json_empty, ChatTemplates};
use crate::Error;

/// `server_chat_params`, as llama-server holds them for the loaded model.
pub struct ServerChatParams {
    /// The model's templates.
    pub tmpls: ChatTemplates,
    /// `prefill_assistant` (on by default).
    pub prefill_assistant: bool,
    /// `chat_template_kwargs` from the command line: `preserve_reasoning`
    /// is `true` unless set.
    pub chat_template_kwargs: BTreeMap<String, String>,
    /// Whether images may be sent (a projector is loaded).
    pub allow_image: bool,
    /// Whether audio may be sent.
    pub allow_audio: bool,
    /// Whether video may be sent.
    pub allow_video: bool,
    /// The server's default `enable_thinking`.
    pub enable_thinking: bool,
    /// `get_media_marker()`: random per server process unless
    /// `LLAMA_MEDIA_MARKER` pins it.
    pub media_marker: String,
}

impl ServerChatParams {
    /// The parameters llama-server starts with for `tmpls` (as Ollama
    /// starts it: `--jinja`, no reasoning options), `now` being the
    /// clock the thinking probe renders at. Fails where llama-server
    /// fails to load the model's template.
    pub fn new(tmpls: ChatTemplates, now: i64) -> Result<ServerChatParams, Error> {
        let enable_thinking = supports_enable_thinking(&tmpls, now)?;
        let mut chat_template_kwargs = BTreeMap::new();
        // before: no default; the template's own default applies. Noted
        // only for a template that reads it.
        let t = &tmpls.default;
        let reads =
            t.caps().supports_preserve_reasoning || t.source().contains("preserve_reasoning");
        let default = &changes::llamacpp::PRESERVE_REASONING_DEFAULT;
        let on = if reads {
            t.rules().on(default)
        } else {
            t.rules().build().has(default)
        };
        if on {
            chat_template_kwargs.insert("preserve_reasoning".to_string(), "true".to_string());
        }
        Ok(ServerChatParams {
            tmpls,
            prefill_assistant: true,
            chat_template_kwargs,
            allow_image: false,
            allow_audio: false,
            allow_video: false,
            enable_thinking,
            media_marker: "<__media__>".into(),
        })
    }
}

/// `json_value(body, key, default)`: the default where the key is
/// missing, null, or of another type.
fn value_str(body: &Json, key: &str, default: &str) -> String {
    match body.get(key) {
        Some(Json::String(s)) => s.clone(),
        _ => default.to_string(),
    }
}

fn value_bool(body: &Json, key: &str, default: bool) -> bool {
    match body.get(key) {
        Some(Json::Bool(b)) => *b,
        _ => default,
    }
}

fn value_json(body: &Json, key: &str, default: Json) -> Json {
    match body.get(key) {
        Some(Json::Null) | None => default,
        Some(v) => v.clone(),
    }
}

fn value_object(body: &Json, key: &str) -> Json {
    match body.get(key) {
        Some(v @ Json::Object(_)) => v.clone(),
        _ => Json::Object(Map::new()),
    }
}

fn contains(j: &Json, key: &str) -> bool {
    j.as_object().is_some_and(|o| o.contains_key(key))
}

/// `base64_decode`'s output length: it reads base64 characters up to the
/// first `=` or other character, three bytes per four and one less than
/// the characters of a last partial group.
fn base64_decoded_len(s: &str) -> usize {
    let n = s
        .bytes()
        .take_while(|&c| c != b'=' && (c.is_ascii_alphanumeric() || c == b'+' || c == b'/'))
        .count();
    n / 4 * 3 + (n % 4).saturating_sub(1)
}

/// `handle_media`'s checks of a media part's URL, in its order (the media
/// are not decoded: an `http` URL would be downloaded, which Promptscope
/// does not do). Ollama starts llama-server without `--media-path`.
fn handle_media(url: &str, image: bool, opt: &ServerChatParams) -> Result<(), Error> {
    if url.starts_with("http") {
        return Ok(());
    }
    if url.starts_with("file://") {
        return Err(Error::invalid(
            "file:// URLs are not allowed unless --media-path is specified",
        ));
    }
    // before `data_uri_media`: data: URIs for images only, their errors
    // `std::runtime_error`s (500); another part's data: URI is read as raw
    // base64
    let newer = || {
        opt.tmpls
            .default
            .rules()
            .on(&changes::llamacpp::DATA_URI_MEDIA)
    };
    if url.starts_with("data:") && (image || newer()) {
        let fail = |m: String| {
            if newer() {
                Error::invalid(m)
            } else {
                Error::runtime(m)
            }
        };
        let parts: Vec<&str> = url.split(',').collect();
        let head = parts[0];
        let media = |kind: &str| head.starts_with(&format!("data:{kind}/"));
        if parts.len() != 2 {
            return Err(fail("Invalid uri-encoded base64 value".into()));
        } else if !media("image") && !((media("video") || media("audio")) && newer()) {
            return Err(fail(format!("Invalid uri format: {head}")));
        } else if !head.ends_with("base64") {
            return Err(fail("uri must be base64 encoded".into()));
        }
        return Ok(());
    }
    if base64_decoded_len(url) == 0 {
        return Err(Error::runtime("Invalid base64 value"));
    }
    Ok(())
}

/// The media checks before `media_handle_unified`: an image's URL goes
/// through the image-only `handle_media` (http, file://, else a data: URI,
/// its errors `std::runtime_error`s), audio and video are their `data`
/// read as raw base64 (never an error), and audio's `format` must be wav or
/// mp3.
fn media_before_unified(ty: &str, inner: &Json) -> Result<(), Error> {
    match ty {
        "image_url" => {
            let url = value_str(inner, "url", "");
            if url.starts_with("http") {
                return Ok(());
            }
            if url.starts_with("file://") {
                return Err(Error::invalid(
                    "file:// URLs are not allowed unless --media-path is specified",
                ));
            }
            let parts: Vec<&str> = url.split(',').collect();
            let head = parts[0];
            if parts.len() != 2 {
                Err(Error::runtime("Invalid url value"))
            } else if !head.starts_with("data:image/") {
                Err(Error::runtime(format!("Invalid url format: {head}")))
            } else if !head.ends_with("base64") {
                Err(Error::runtime("url must be base64 encoded"))
            } else {
                Ok(())
            }
        }
        "input_audio" => {
            // (flac is supported, but refused to match the OpenAI spec)
            let format = value_str(inner, "format", "");
            if format != "wav" && format != "mp3" {
                return Err(Error::invalid(
                    "input_audio.format must be either 'wav' or 'mp3'",
                ));
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// `oaicompat_content_load_media`: media parts become the media marker
/// where the model allows them and their URLs pass `handle_media`'s checks
/// (the media themselves are not decoded here).
fn load_media(content: &mut Json, opt: &ServerChatParams) -> Result<(), Error> {
    let Json::Array(parts) = content else {
        return Ok(());
    };
    for p in parts {
        let ty = value_str(p, "type", "");
        let (allowed, what, keys): (bool, &str, &[&str]) = match ty.as_str() {
            "image_url" => (opt.allow_image, "image", &["image_url"]),
            "input_audio" => (opt.allow_audio, "audio", &["input_audio"]),
            // before: `video_url` is not a content type (nor, before
            // `input_video_part`, `input_video`)
            "input_video" | "video_url"
                if (ty == "input_video"
                    && opt
                        .tmpls
                        .default
                        .rules()
                        .on(&changes::llamacpp::INPUT_VIDEO_PART))
                    || opt
                        .tmpls
                        .default
                        .rules()
                        .on(&changes::llamacpp::VIDEO_URL_ALIAS) =>
            {
                (opt.allow_video, "video", &["input_video", "video_url"])
            }
            "text" => continue,
            _ => return Err(Error::invalid("unsupported content[].type")),
        };
        if !allowed {
            return Err(Error::runtime(format!(
                "{what} input is not supported - hint: if this is unexpected, you may need to provide the mmproj"
            )));
        }
        let inner = match p.get(ty.as_str()) {
            Some(Json::Null) | None => Json::Object(Map::new()),
            Some(v) => v.clone(),
        };
        if opt
            .tmpls
            .default
            .rules()
            .on(&changes::llamacpp::MEDIA_HANDLE_UNIFIED)
        {
            let url = if ty == "image_url" {
                value_str(&inner, "url", "")
            } else {
                match inner.get("data") {
                    Some(Json::String(s)) => s.clone(),
                    _ => value_str(&inner, "url", ""),
                }
            };
            handle_media(&url, ty == "image_url", opt)?;
        } else {
            media_before_unified(&ty, &inner)?;
        }
        if let Json::Object(o) = p {
            o.insert("type".into(), Json::String("media_marker".into()));
            o.insert("text".into(), Json::String(opt.media_marker.clone()));
            for k in keys {
                o.shift_remove(*k);
            }
        }
    }
    Ok(())
}

/// `common_chat_tool_choice_parse_oaicompat`.
fn tool_choice(s: &str) -> Result<ToolChoice, Error> {
    match s {
        "auto" => Ok(ToolChoice::Auto),
        "none" => Ok(ToolChoice::None),
        "required" => Ok(ToolChoice::Required),
        _ => Err(Error::invalid(format!("Invalid tool_choice: {s}"))),
    }
}

/// `common_chat_continuation_parse`.
fn continuation(v: &Json) -> Continuation {
    match v {
        Json::Bool(true) => Continuation::Auto,
        Json::String(s) if s == "reasoning_content" => Continuation::Reasoning,
        Json::String(s) if s == "content" => Continuation::Content,
        _ => Continuation::None,
    }
}

/// `oaicompat_chat_params_parse`, up to and including
/// `common_chat_templates_apply`: the checks in llama-server's order,
/// then the prompt.
pub fn chat_params_parse(
    body: &Json,
    opt: &ServerChatParams,
    now: i64,
) -> Result<ChatParams, Error> {
    let mut body = body.clone();
    let tools = value_json(&body, "tools", Json::Null);
    let tool_choice_s = value_str(&body, "tool_choice", "auto");

    let mut json_schema = value_json(&body, "json_schema", Json::Null);
    let grammar = value_str(&body, "grammar", "");
    if !json_schema.is_null() && !grammar.is_empty() {
        return Err(Error::runtime("Cannot use both json_schema and grammar"));
    }
    if contains(&body, "response_format") {
        let rf = value_object(&body, "response_format");
        let ty = value_str(&rf, "type", "");
        if ty == "json_object" {
            if contains(&rf, "schema") || json_empty(&json_schema) {
                json_schema = value_object(&rf, "schema");
            }
        } else if ty == "json_schema" {
            let wrapper = value_object(&rf, "json_schema");
            json_schema = value_object(&wrapper, "schema");
        } else if !ty.is_empty() && ty != "text" {
            return Err(Error::invalid(format!(
                "response_format type must be one of \"text\" or \"json_object\", but got: {ty}"
            )));
        }
    }
    // an absent or empty schema means any object (before: it stays {})
    if let Json::Object(o) = &mut json_schema {
        if o.is_empty()
            && opt
                .tmpls
                .default
                .rules()
                .on(&changes::llamacpp::EMPTY_JSON_SCHEMA_IS_OBJECT)
        {
            o.insert("type".into(), Json::String("object".into()));
        }
    }

    if !contains(&body, "messages") {
        return Err(Error::invalid("'messages' is required"));
    }
    let Some(Json::Array(messages)) = body.get_mut("messages") else {
        return Err(Error::invalid("Expected 'messages' to be an array"));
    };
    for msg in messages.iter_mut() {
        let role = value_str(msg, "role", "");
        if role != "assistant" && !contains(msg, "content") {
            return Err(Error::invalid(
                "All non-assistant messages must contain 'content'",
            ));
        }
        if role == "assistant" {
            if !contains(msg, "content") && !contains(msg, "tool_calls") {
                return Err(Error::invalid(
                    "Assistant message must contain either 'content' or 'tool_calls'!",
                ));
            }
            if !contains(msg, "content") {
                continue;
            }
        }
        let content = &mut msg["content"];
        if content.is_string() || content.is_null() {
            continue;
        }
        if !content.is_array() {
            return Err(Error::invalid(
                "Expected 'content' to be a string or an array",
            ));
        }
        load_media(content, opt)?;
    }
    let messages = body.get("messages").cloned().unwrap_or(Json::Null);

    let mut inputs = Inputs {
        messages: msgs_parse_oaicompat(&messages)?,
        tools: tools_parse_oaicompat(&tools)?,
        tool_choice: tool_choice(&tool_choice_s)?,
        json_schema: if json_schema.is_null() {
            String::new()
        } else {
            dump(&json_schema)
        },
        grammar,
        now,
        ..Inputs::default()
    };
    inputs.parallel_tool_calls = value_bool(
        &body,
        "parallel_tool_calls",
        opt.tmpls.server_caps().supports_parallel_tool_calls,
    );
    inputs.add_generation_prompt = value_bool(&body, "add_generation_prompt", true);
    inputs.continue_final_message = body
        .get("continue_final_message")
        .map(continuation)
        .unwrap_or(Continuation::None);
    if inputs.continue_final_message == Continuation::None
        && opt.prefill_assistant
        && inputs
            .messages
            .last()
            .is_some_and(|m| m.role == "assistant")
    {
        let n = inputs.messages.len();
        if n >= 2 && inputs.messages[n - 2].role == "assistant" {
            return Err(Error::invalid(
                "Cannot have 2 or more assistant messages at the end of the list.",
            ));
        }
        inputs.continue_final_message = Continuation::Auto;
        inputs.add_generation_prompt = false;
    }
    if inputs.continue_final_message != Continuation::None && inputs.add_generation_prompt {
        return Err(Error::invalid(
            "Cannot set both add_generation_prompt and continue_final_message to true.",
        ));
    }
    // before: such a message is continued, and its tool calls dropped
    if inputs.continue_final_message != Continuation::None
        && inputs
            .messages
            .last()
            .is_some_and(|m| m.role == "assistant" && !m.tool_calls.is_empty())
        && opt
            .tmpls
            .default
            .rules()
            .on(&changes::llamacpp::CONTINUE_TOOL_CALLS_ERROR)
    {
        return Err(Error::invalid(
            "Cannot continue an assistant message that contains tool calls.",
        ));
    }
    if let Some(rf) = body.get("reasoning_format") {
        let name = match rf {
            Json::String(s) => s.clone(),
            other => {
                return Err(Error::runtime(format!(
                    "[json.exception.type_error.302] type must be string, but is {}",
                    crate::msg::type_name(other)
                )))
            }
        };
        if !matches!(
            name.as_str(),
            "none" | "auto" | "deepseek" | "deepseek-legacy"
        ) {
            return Err(Error::runtime(format!("Unknown reasoning format: {name}")));
        }
    }
    inputs.enable_thinking = opt.enable_thinking;
    if !inputs.tools.is_empty()
        && inputs.tool_choice != ToolChoice::None
        && contains(&body, "grammar")
    {
        return Err(Error::invalid(
            "Cannot use custom grammar constraints with tools.",
        ));
    }
    let mut kwargs = opt.chat_template_kwargs.clone();
    if let Json::Object(o) = value_object(&body, "chat_template_kwargs") {
        for (k, v) in o {
            kwargs.insert(k, dump(&v));
        }
    }
    match kwargs.get("enable_thinking").map(String::as_str) {
        Some("true") => inputs.enable_thinking = true,
        Some("false") => inputs.enable_thinking = false,
        Some(s) if s.starts_with('"') => {
            return Err(Error::invalid(
                "invalid type for \"enable_thinking\" (expected boolean, got string)",
            ))
        }
        _ => {}
    }
    if contains(&body, "reasoning_effort")
        && opt
            .tmpls
            .default
            .rules()
            .on(&changes::llamacpp::REASONING_EFFORT_NONE)
    {
        let effort = value_str(&body, "reasoning_effort", "");
        if effort == "none" {
            inputs.enable_thinking = false;
            if kwargs.contains_key("reasoning_effort")
                && opt
                    .tmpls
                    .default
                    .rules()
                    .on(&changes::llamacpp::REASONING_EFFORT_BODY)
            {
                kwargs.remove("reasoning_effort");
            }
        } else if !effort.is_empty()
            && opt
                .tmpls
                .default
                .rules()
                .on(&changes::llamacpp::REASONING_EFFORT_BODY)
        {
            kwargs.insert("reasoning_effort".into(), dump(&Json::String(effort)));
        }
    }
    inputs.chat_template_kwargs = kwargs;
    apply(&opt.tmpls, &inputs)
}

/// `POST /apply-template`: `{"prompt": ...}` or the error.
pub fn apply_template(body: &Json, opt: &ServerChatParams, now: i64) -> Result<String, Error> {
    chat_params_parse(body, opt, now).map(|p| p.prompt)
}

/// The body llama-server answers a failure with
/// (`format_error_response` under `ex_wrapper`, written compactly).
pub fn error_body(e: &Error) -> String {
    let (code, ty) = match e.status() {
        400 => (400, "invalid_request_error"),
        _ => (500, "server_error"),
    };
    let mut inner = Map::new();
    inner.insert("code".into(), Json::from(code));
    inner.insert("message".into(), Json::String(e.message.clone()));
    inner.insert("type".into(), Json::String(ty.into()));
    let mut outer = Map::new();
    outer.insert("error".into(), Json::Object(inner));
    dump(&Json::Object(outer))
}
