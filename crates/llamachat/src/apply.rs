//! `common_chat_templates_apply_jinja` (common/chat.cpp): the message
//! JSON, the workarounds, the extra context, then a dedicated handler
//! ([`crate::handlers`]) or the differential autoparser's prompt
//! (`peg_generator::generate_parser`, common/chat-auto-parser-generator.cpp).

use std::collections::BTreeMap;

use serde_json::{Map, Value as Json};

use crate::analyze::ReasoningMode;
use crate::msg::{self, Msg, Tool};
use crate::template::{self, ChatTemplates, Template};
use crate::{handlers, Error};

/// `common_chat_continuation`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Continuation {
    /// No continuation.
    #[default]
    None,
    /// Decided from the last message (`true`).
    Auto,
    /// Continue the reasoning.
    Reasoning,
    /// Continue the content.
    Content,
}

/// `common_chat_tool_choice`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ToolChoice {
    /// `auto`.
    #[default]
    Auto,
    /// `required`.
    Required,
    /// `none`.
    None,
}

/// `common_chat_templates_inputs`.
#[derive(Clone, Debug)]
pub struct Inputs {
    /// The conversation.
    pub messages: Vec<Msg>,
    /// `grammar`.
    pub grammar: String,
    /// `json_schema`, dumped (empty for none).
    pub json_schema: String,
    /// `add_generation_prompt` (default true).
    pub add_generation_prompt: bool,
    /// `continue_final_message`.
    pub continue_final_message: Continuation,
    /// The tools.
    pub tools: Vec<Tool>,
    /// `tool_choice`.
    pub tool_choice: ToolChoice,
    /// `parallel_tool_calls`.
    pub parallel_tool_calls: bool,
    /// `enable_thinking` (default true).
    pub enable_thinking: bool,
    /// `now`, seconds since the epoch.
    pub now: i64,
    /// `chat_template_kwargs`: each value a JSON text, keys in order (a
    /// `std::map`).
    pub chat_template_kwargs: BTreeMap<String, String>,
}

impl Default for Inputs {
    fn default() -> Inputs {
        Inputs {
            messages: Vec::new(),
            grammar: String::new(),
            json_schema: String::new(),
            add_generation_prompt: true,
            continue_final_message: Continuation::None,
            tools: Vec::new(),
            tool_choice: ToolChoice::Auto,
            parallel_tool_calls: false,
            enable_thinking: true,
            now: 0,
            chat_template_kwargs: BTreeMap::new(),
        }
    }
}

/// `autoparser::generation_params`: what every render of one request
/// shares.
#[derive(Clone, Debug)]
pub struct GenParams {
    /// The messages as the template gets them.
    pub messages: Json,
    /// The tools (`null` for none).
    pub tools: Json,
    /// `tool_choice`.
    pub tool_choice: ToolChoice,
    /// `json_schema` (`null` for none).
    pub json_schema: Json,
    /// `add_generation_prompt`.
    pub add_generation_prompt: bool,
    /// `continue_final_message`.
    pub continue_final_message: Continuation,
    /// The message being continued.
    pub continue_msg: Msg,
    /// `enable_thinking`.
    pub enable_thinking: bool,
    /// `now`.
    pub now: i64,
    /// `extra_context`.
    pub extra_context: Json,
    /// `add_bos`.
    pub add_bos: bool,
    /// `add_eos`.
    pub add_eos: bool,
    /// `is_inference`.
    pub is_inference: bool,
    /// `mark_input`.
    pub mark_input: bool,
}

impl Default for GenParams {
    fn default() -> GenParams {
        GenParams {
            messages: Json::Null,
            tools: Json::Null,
            tool_choice: ToolChoice::Auto,
            json_schema: Json::Null,
            add_generation_prompt: false,
            continue_final_message: Continuation::None,
            continue_msg: Msg::default(),
            enable_thinking: true,
            now: 0,
            extra_context: Json::Null,
            add_bos: false,
            add_eos: false,
            is_inference: true,
            mark_input: true,
        }
    }
}

impl GenParams {
    /// `has_continuation()`.
    pub fn has_continuation(&self) -> bool {
        self.continue_final_message != Continuation::None && !self.continue_msg.is_empty()
    }
}

/// The part of `common_chat_params` that is the prompt.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChatParams {
    /// `prompt`.
    pub prompt: String,
    /// `generation_prompt`.
    pub generation_prompt: String,
    /// `supports_thinking`.
    pub supports_thinking: bool,
    /// Which path built it: a dedicated handler's name, or `autoparser`.
    pub handler: &'static str,
}

fn messages_json(msgs: &[Msg], caps: &jinja::Caps) -> Result<Json, Error> {
    let mut out = Vec::with_capacity(msgs.len());
    for m in msgs {
        out.push(m.to_json_oaicompat(false)?);
    }
    Ok(template::normalize_messages(caps, &Json::Array(out)))
}

fn role_is(m: &Json, role: &str) -> bool {
    m.get("role").and_then(Json::as_str) == Some(role)
}

/// `workaround::map_developer_role_to_system`.
fn map_developer_role_to_system(messages: &mut Json) {
    if let Json::Array(list) = messages {
        for m in list {
            if role_is(m, "developer") {
                m["role"] = Json::String("system".into());
            }
        }
    }
}

/// `workaround::system_message_not_supported`.
fn system_message_not_supported(messages: &mut Json) -> Result<(), Error> {
    let Json::Array(list) = messages else {
        return Ok(());
    };
    if list.first().is_some_and(|m| role_is(m, "system")) {
        if list.len() > 1 {
            let first = content_string(&list[0])?;
            let second = content_string(&list[1])?;
            list[1]["content"] = Json::String(format!("{first}\n{second}"));
        }
        list.remove(0);
    }
    Ok(())
}

/// `msg.at("content").get<std::string>()`.
fn content_string(m: &Json) -> Result<String, Error> {
    match m.get("content") {
        Some(Json::String(s)) => Ok(s.clone()),
        Some(other) => Err(Error::runtime(format!(
            "[json.exception.type_error.302] type must be string, but is {}",
            msg::type_name(other)
        ))),
        None => Err(Error::runtime(
            "[json.exception.out_of_range.403] key 'content' not found",
        )),
    }
}

/// `workaround::requires_non_null_content`.
fn requires_non_null_content(messages: &mut Json) {
    if let Json::Array(list) = messages {
        for m in list {
            if let Json::Object(o) = m {
                if o.contains_key("tool_calls") && !o.contains_key("content") {
                    o.insert("content".into(), Json::String(String::new()));
                }
            }
        }
    }
}

/// `workaround::func_args_not_string`.
fn func_args_not_string(messages: &mut Json) -> Result<(), Error> {
    let Json::Array(list) = messages else {
        return Ok(());
    };
    for m in list {
        let Some(Json::Array(calls)) = m.get_mut("tool_calls") else {
            continue;
        };
        for tc in calls {
            let Some(f) = tc.get_mut("function") else {
                continue;
            };
            let Some(args) = f.get_mut("arguments") else {
                continue;
            };
            if let Json::String(s) = args {
                *args = crate::parse_json(s).map_err(|e| {
                    Error::runtime(format!(
                        "Failed to parse tool call arguments as JSON: {}",
                        e.message
                    ))
                })?;
            }
        }
    }
    Ok(())
}

/// `workaround::trim_all_content`.
fn trim_all_content(messages: &mut [Msg]) {
    for m in messages {
        m.content = crate::trim_whitespace(&m.content).to_string();
        m.reasoning_content = crate::trim_whitespace(&m.reasoning_content).to_string();
        for part in &mut m.content_parts {
            if part.kind == "text" {
                part.text = crate::trim_whitespace(&part.text).to_string();
            }
        }
    }
}

/// C `strftime` in the "C" locale on UTC (the recordings run with
/// `TZ=UTC`).
pub(crate) fn format_time(now: i64, fmt: &str) -> String {
    String::from_utf8_lossy(&jinja::time::strftime(fmt.as_bytes(), now)).into_owned()
}

/// `common_chat_extra_context`.
fn extra_context(now: i64) -> Map<String, Json> {
    let mut ctx = Map::new();
    ctx.insert(
        "datetime".into(),
        Json::String(format_time(now, "%b %d %Y")),
    );
    ctx.insert(
        "date_string".into(),
        Json::String(format_time(now, "%d %b %Y")),
    );
    ctx
}

/// `common_chat_templates_apply` with `use_jinja`.
pub fn apply(tmpls: &ChatTemplates, inputs: &Inputs) -> Result<ChatParams, Error> {
    let mut params = GenParams {
        tools: msg::tools_to_json_oaicompat(&inputs.tools)?,
        ..GenParams::default()
    };
    let tmpl = tmpls.for_tools(params.tools.is_array());
    let src = tmpl.source();
    let caps = tmpl.caps().clone();
    let trimmed;
    let mut to_render: &[Msg] = &inputs.messages;
    if src.contains("You have access to the following functions in JSONSchema format")
        && tmpl.rules().on(&changes::llamacpp::STEPFUN_TRIM_CONTENT)
    {
        let mut t = inputs.messages.clone();
        trim_all_content(&mut t);
        trimmed = t;
        to_render = &trimmed;
    }
    params.messages = messages_json(to_render, &caps)?;
    params.tool_choice = inputs.tool_choice;
    params.enable_thinking = inputs.enable_thinking;
    params.now = inputs.now;
    params.add_generation_prompt = inputs.add_generation_prompt;
    params.add_bos = tmpls.add_bos;
    params.add_eos = tmpls.add_eos;
    params.continue_final_message = inputs.continue_final_message;
    if params.continue_final_message != Continuation::None {
        params.add_generation_prompt = false;
        if let Some(last) = inputs.messages.last() {
            params.continue_msg = last.clone();
            if let Json::Array(list) = &mut params.messages {
                list.pop();
            }
        }
        if params.continue_final_message == Continuation::Auto && !inputs.messages.is_empty() {
            params.continue_final_message = Continuation::Content;
            if !params.continue_msg.reasoning_content.is_empty()
                && params.continue_msg.content.is_empty()
                && params.continue_msg.content_parts.is_empty()
            {
                params.continue_final_message = Continuation::Reasoning;
            }
        }
    }
    if !src.contains("<|channel|>") {
        map_developer_role_to_system(&mut params.messages);
    }
    if !caps.supports_system_role {
        system_message_not_supported(&mut params.messages)?;
    }
    if caps.supports_tool_calls {
        requires_non_null_content(&mut params.messages);
    }
    if caps.supports_object_arguments {
        func_args_not_string(&mut params.messages)?;
    }
    let mut extra = extra_context(inputs.now);
    for (k, v) in &inputs.chat_template_kwargs {
        extra.insert(k.clone(), crate::parse_json(v)?);
    }
    params.extra_context = Json::Object(extra);
    if !inputs.json_schema.is_empty() {
        params.json_schema = crate::parse_json(&inputs.json_schema)?;
    }
    if params.tools.is_array()
        && params.tool_choice != ToolChoice::None
        && !inputs.grammar.is_empty()
    {
        return Err(Error::runtime("Cannot specify grammar with tools"));
    }

    if let Some(result) = handlers::try_specialized(tmpl, src, &mut params)? {
        return Ok(result);
    }
    autoparser(tmpl, &params).map_err(|e| {
        Error::invalid(format!(
            "Unable to generate parser for this template. Automatic parser generation failed: {}",
            e.message
        ))
    })
}

/// `peg_generator::generate_parser`'s prompt.
fn autoparser(tmpl: &Template, inputs: &GenParams) -> Result<ChatParams, Error> {
    let analysis = tmpl.reasoning();
    let mut data = ChatParams {
        prompt: template::direct_apply(tmpl, inputs, None, None, None)?,
        generation_prompt: template::generation_prompt(tmpl, inputs, None, None, None)?,
        supports_thinking: analysis.mode != ReasoningMode::None,
        handler: "autoparser",
    };
    if inputs.continue_final_message != Continuation::None && !inputs.continue_msg.is_empty() {
        let m = &inputs.continue_msg;
        if !analysis.start.is_empty() {
            if let Some(pos) = data.generation_prompt.find(&analysis.start) {
                data.generation_prompt.truncate(pos);
            }
            data.generation_prompt.push_str(&analysis.start);
            data.generation_prompt.push_str(&m.reasoning_content);
            if inputs.continue_final_message == Continuation::Content {
                data.generation_prompt.push_str(&analysis.end);
            }
        }
        if inputs.continue_final_message == Continuation::Content {
            data.generation_prompt.push_str(&m.render_content("\n\n")?);
        }
        data.prompt.push_str(&data.generation_prompt);
    }
    Ok(data)
}

/// The message delimiters (role, text) of the handler that built `params`
/// for `tmpl`, as llama-server's `/v1/chat/completions` passes them on
/// (`message_delimiters`): it checkpoints a model's memory where user
/// messages start.
pub fn message_delimiters(tmpl: &Template, params: &ChatParams) -> Vec<(String, String)> {
    // the handler's rows are not noted: the delimiters do not change the
    // prompt (`handlers::delimiter_rows` names them where they matter)
    match handlers::message_delimiters(params.handler, tmpl.rules()) {
        Some(list) => list
            .into_iter()
            .map(|(r, d)| (r.to_string(), d.to_string()))
            .collect(),
        None => tmpl.autoparser_delimiters().to_vec(),
    }
}

/// `common_chat_templates_support_enable_thinking`.
pub fn supports_enable_thinking(tmpls: &ChatTemplates, now: i64) -> Result<bool, Error> {
    let inputs = Inputs {
        messages: vec![Msg {
            role: "user".into(),
            content: "test".into(),
            ..Msg::default()
        }],
        enable_thinking: true,
        add_generation_prompt: true,
        now,
        ..Inputs::default()
    };
    Ok(apply(tmpls, &inputs)?.supports_thinking)
}

/// Whether `j` is a non-empty array (`is_array() && !empty()`).
pub(crate) fn nonempty_array(j: &Json) -> bool {
    j.as_array().is_some_and(|a| !a.is_empty())
}
