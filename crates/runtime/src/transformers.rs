//! Hugging Face transformers' `apply_chat_template(tokenize=False)`, as
//! transformers 5.25.0 with jinja2 3.1.6 runs it (what vLLM, SGLang and
//! MLX-LM render with): the argument handling of
//! `PreTrainedTokenizerBase.apply_chat_template` and `get_chat_template`
//! (tokenization_utils_base.py) and of `render_jinja_template`
//! (utils/chat_template_utils.py), over the `jinja` crate in its Jinja2
//! dialect ([`jinja::jinja2`]).
//!
//! Errors are the exception as Python prints its last line:
//! `TypeName: message` (`ValueError: ...`, `TemplateError: ...`).

use serde_json::{Map, Value as Json};

/// The transformers release whose behaviour this is.
pub const VERSION: &str = "5.25.0";
/// The jinja2 release it was recorded with.
pub const JINJA2_VERSION: &str = "3.1.6";

/// The named special tokens transformers passes to every template, in
/// `SPECIAL_TOKENS_ATTRIBUTES` order (`special_tokens_map`).
pub const SPECIAL_TOKENS: [&str; 7] = [
    "bos_token",
    "eos_token",
    "unk_token",
    "sep_token",
    "pad_token",
    "cls_token",
    "mask_token",
];

/// The model side: the tokenizer's chat template(s) and special tokens.
#[derive(Clone, Debug, Default)]
pub struct Model {
    /// One template, or the named templates of a `tokenizer_config.json`
    /// (`[{"name": "default", "template": ...}, ...]` or a map), in order.
    pub templates: Templates,
    /// The named special tokens that are set (`bos_token` ...), in
    /// [`SPECIAL_TOKENS`] order.
    pub special: Vec<(String, String)>,
}

/// `tokenizer.chat_template`: a string, a dict of named templates, or unset.
#[derive(Clone, Debug, Default)]
pub enum Templates {
    /// No chat template.
    #[default]
    None,
    /// One template.
    One(String),
    /// Named templates (`default`, `tool_use`, ...).
    Named(Vec<(String, String)>),
}

/// A special token's text from a `tokenizer_config.json` value: a string,
/// or an `AddedToken` object's `content`.
fn token_text(v: &Json) -> Option<String> {
    match v {
        Json::String(s) => Some(s.clone()),
        Json::Object(o) => o.get("content").and_then(Json::as_str).map(str::to_string),
        _ => None,
    }
}

impl Model {
    /// The model a case's `model` object gives (contract v3):
    /// `chat_template` (a string, a list of `{name, template}` or a map),
    /// the special tokens by name, or `tokenizer_config` (the parsed
    /// `tokenizer_config.json`, whose keys the case's own keys override).
    pub fn from_case(model: &Json) -> Result<Model, String> {
        let empty = Map::new();
        let config = match model.get("tokenizer_config") {
            None | Some(Json::Null) => &empty,
            Some(Json::Object(o)) => o,
            Some(_) => return Err("model.tokenizer_config must be an object".into()),
        };
        let get = |k: &str| model.get(k).or_else(|| config.get(k));
        let templates = match get("chat_template") {
            None | Some(Json::Null) => Templates::None,
            Some(Json::String(s)) => Templates::One(s.clone()),
            Some(Json::Array(items)) => {
                let mut named = Vec::new();
                for (i, it) in items.iter().enumerate() {
                    let name = it.get("name").and_then(Json::as_str);
                    let tmpl = it.get("template").and_then(Json::as_str);
                    match (name, tmpl) {
                        (Some(n), Some(t)) => named.push((n.to_string(), t.to_string())),
                        _ => {
                            return Err(format!(
                                "model.chat_template[{i}] must be {{\"name\": string, \"template\": string}}"
                            ))
                        }
                    }
                }
                Templates::Named(named)
            }
            Some(Json::Object(o)) => {
                let mut named = Vec::new();
                for (n, t) in o {
                    match t.as_str() {
                        Some(t) => named.push((n.clone(), t.to_string())),
                        None => return Err(format!("model.chat_template[{n:?}] must be a string")),
                    }
                }
                Templates::Named(named)
            }
            Some(_) => {
                return Err(
                    "model.chat_template must be a string, a list of {name, template} or an object"
                        .into(),
                )
            }
        };
        let mut special = Vec::new();
        for k in SPECIAL_TOKENS {
            if let Some(v) = get(k) {
                if let Some(t) = token_text(v) {
                    special.push((k.to_string(), t));
                } else if !v.is_null() {
                    return Err(format!(
                        "model.{k} must be a string or an object with \"content\""
                    ));
                }
            }
        }
        Ok(Model { templates, special })
    }
}

/// What a render gives: the prompt, or the exception.
pub type Rendered = Result<String, String>;

/// `get_chat_template(None, tools)`.
fn chat_template(model: &Model, has_tools: bool) -> Result<&str, String> {
    match &model.templates {
        Templates::Named(named) => {
            let find = |n: &str| named.iter().find(|(k, _)| k == n).map(|(_, t)| t.as_str());
            if has_tools {
                if let Some(t) = find("tool_use") {
                    return Ok(t);
                }
            }
            if let Some(t) = find("default") {
                return Ok(t);
            }
            let mut names: Vec<&str> = named.iter().map(|(k, _)| k.as_str()).collect();
            names.sort();
            Err(format!(
                "ValueError: This model has multiple chat templates with no default specified! Please \
                 either pass a chat template or the name of the template you wish to use to the \
                 `chat_template` argument. Available template names are {}.",
                jinja::jinja2::py_repr(&Json::Array(
                    names.into_iter().map(|s| Json::String(s.into())).collect()
                ))
            ))
        }
        Templates::One(t) => Ok(t),
        Templates::None => Err(
            "ValueError: Cannot use chat template functions because tokenizer.chat_template is not \
             set and no template argument was passed! For information about writing templates and \
             setting the tokenizer.chat_template attribute, please see the documentation at \
             https://huggingface.co/docs/transformers/main/en/chat_templating"
                .into(),
        ),
    }
}

/// Python's truthiness of a JSON value (`continue_final_message` may be a
/// bool or a field name).
fn truthy(v: &Json) -> bool {
    match v {
        Json::Null => false,
        Json::Bool(b) => *b,
        Json::Number(n) => n.as_f64() != Some(0.0),
        Json::String(s) => !s.is_empty(),
        Json::Array(a) => !a.is_empty(),
        Json::Object(o) => !o.is_empty(),
    }
}

/// The names a message's reasoning is passed under (`_REASONING_FIELDS`).
const REASONING_FIELDS: [&str; 3] = ["reasoning_content", "thinking", "reasoning"];
const CONTINUE_TAG: &str = "CONTINUE_FINAL_MESSAGE_TAG ";

/// `_alias_reasoning_fields` on one message: `{"thinking": r, **message,
/// "reasoning_content": r}` where the message has reasoning under any name.
fn alias_reasoning(msg: Map<String, Json>) -> Map<String, Json> {
    let reasoning = REASONING_FIELDS
        .iter()
        .find_map(|k| msg.get(*k).filter(|v| !v.is_null()).cloned());
    let Some(r) = reasoning else { return msg };
    let mut out = Map::new();
    out.insert("thinking".into(), r.clone());
    for (k, v) in msg {
        out.insert(k, v);
    }
    out.insert("reasoning_content".into(), r);
    out
}

/// Python's `str.strip()`: Unicode whitespace off both ends.
fn py_strip(s: &str) -> &str {
    s.trim_matches(jinja::jinja2::py_isspace)
}

/// `apply_chat_template(messages, tools, documents, add_generation_prompt,
/// continue_final_message, tokenize=False, **chat_template_kwargs)` for a
/// contract-v3 transformers request, with `strftime_now` reading `now`
/// (seconds since the epoch, as local time).
pub fn render(model: &Model, request: &Json, now: i64) -> Rendered {
    let field = |k: &str| request.get(k).filter(|v| !v.is_null());
    let tools = field("tools");
    let template = chat_template(model, tools.is_some())?;
    let messages = match request.get("messages") {
        Some(Json::Array(m)) => m,
        _ => return Err("ValueError: request.messages must be a list".into()),
    };
    if messages.is_empty() {
        return Err(
            "ValueError: Cannot apply chat template to an empty conversation. Provide at \
                    least one message."
                .into(),
        );
    }
    // `_normalize_chat_messages`: dicts only, None-valued keys dropped
    let mut chat = Vec::with_capacity(messages.len());
    for m in messages {
        match m {
            Json::Object(o) => chat.push(
                o.iter()
                    .filter(|(_, v)| !v.is_null())
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect::<Map<_, _>>(),
            ),
            other => {
                return Err(format!(
                    "TypeError: Chat messages should be dicts, dataclasses or pydantic models, but got {}.",
                    jinja::jinja2::py_repr(other)
                ))
            }
        }
    }
    let continue_final = field("continue_final_message")
        .filter(|v| truthy(v))
        .cloned();
    let add_generation_prompt = field("add_generation_prompt").is_some_and(truthy);
    if continue_final.is_some() && add_generation_prompt {
        return Err(
            "ValueError: continue_final_message and add_generation_prompt are not \
                    compatible. Use continue_final_message when you want the model to continue \
                    the final message, and add_generation_prompt when you want to add a header \
                    that will prompt it to start a new assistant message instead."
                .into(),
        );
    }
    // `{**self.special_tokens_map, **kwargs}`
    let mut vars = Map::new();
    for (k, v) in &model.special {
        vars.insert(k.clone(), Json::String(v.clone()));
    }
    match request.get("chat_template_kwargs") {
        None | Some(Json::Null) => {}
        Some(Json::Object(kw)) => {
            for (k, v) in kw {
                vars.insert(k.clone(), v.clone());
            }
        }
        Some(_) => return Err("ValueError: chat_template_kwargs must be an object".into()),
    }
    // render_jinja_template
    let program = jinja::jinja2::compile(template).map_err(|e| e.to_string())?;
    if let Some(tools) = tools {
        let Json::Array(list) = tools else {
            return Err("TypeError: tools must be a list".into());
        };
        if list.iter().any(|t| !t.is_object()) {
            return Err(
                "ValueError: Tools should either be a JSON schema, or a callable function \
                        with type hints and a docstring suitable for auto-conversion to a schema."
                    .into(),
            );
        }
    }
    let documents = field("documents");
    if let Some(docs) = documents {
        let ok = match docs {
            Json::Array(list) => list.iter().all(Json::is_object),
            _ => false,
        };
        if !ok {
            return Err(
                "TypeError: Documents should be a list of dicts with 'title' and 'text' keys!"
                    .into(),
            );
        }
    }
    let mut chat: Vec<Map<String, Json>> = chat.into_iter().map(alias_reasoning).collect();
    let mut final_message = None;
    if let Some(cont) = &continue_final {
        let key = match cont {
            Json::String(s) => s.clone(),
            _ => "content".to_string(),
        };
        let last = chat.last_mut().expect("not empty");
        let Some(fm) = last.get(&key).filter(|v| !v.is_null()).cloned() else {
            return Err(format!(
                "ValueError: continue_final_message is set but the final message has no \"{key}\" to continue!"
            ));
        };
        let fields: Vec<String> = if REASONING_FIELDS.contains(&key.as_str()) {
            REASONING_FIELDS
                .iter()
                .filter(|f| last.get(**f) == Some(&fm))
                .map(|f| f.to_string())
                .collect()
        } else {
            vec![key.clone()]
        };
        if !fields.iter().any(|f| template.contains(f.as_str())) {
            return Err(format!(
                "ValueError: continue_final_message is set to \"{key}\" but this is not an accepted field in the chat_template"
            ));
        }
        match fm {
            Json::Array(mut blocks) => {
                let mut found = None;
                for block in blocks.iter_mut().rev() {
                    if let Some(Json::String(text)) = block.get("text") {
                        let text = text.clone();
                        block["text"] = Json::String(format!("{text}{CONTINUE_TAG}"));
                        found = Some(text);
                        break;
                    }
                }
                let Some(text) = found else {
                    return Err(
                        "ValueError: continue_final_message is set but we could not find \
                                any text to continue in the final message!"
                            .into(),
                    );
                };
                last.insert(key.clone(), Json::Array(blocks));
                final_message = Some(text);
            }
            Json::String(s) => {
                for f in &fields {
                    if let Some(Json::String(v)) = last.get(f) {
                        let v = format!("{v}{CONTINUE_TAG}");
                        last.insert(f.clone(), Json::String(v));
                    }
                }
                final_message = Some(s);
            }
            other => {
                return Err(format!(
                    "TypeError: {}",
                    jinja::jinja2::py_concat_error(&other, "str")
                ))
            }
        }
    }
    let mut ctx_vars = Map::new();
    ctx_vars.insert(
        "messages".into(),
        Json::Array(chat.into_iter().map(Json::Object).collect()),
    );
    ctx_vars.insert("tools".into(), tools.cloned().unwrap_or(Json::Null));
    ctx_vars.insert("documents".into(), documents.cloned().unwrap_or(Json::Null));
    ctx_vars.insert(
        "add_generation_prompt".into(),
        Json::Bool(add_generation_prompt),
    );
    for (k, v) in vars {
        ctx_vars.insert(k, v);
    }
    let mut rendered =
        jinja::jinja2::render(&program, &Json::Object(ctx_vars), now).map_err(|e| e.to_string())?;
    if let Some(fm) = final_message {
        let tag = py_strip(CONTINUE_TAG);
        if !rendered.contains(py_strip(&fm)) || !rendered.contains(tag) {
            return Err(format!(
                "ValueError: continue_final_message is set but the final message does not appear \
                 in the chat after applying the chat template! This can happen if the chat \
                 template deletes portions of the final message. Please verify the chat template \
                 and final message in your chat to ensure they are compatible.Final message to \
                 continue: {}\nRendered chat:\n{rendered}",
                py_strip(&fm)
            ));
        }
        let at = rendered.rfind(tag).expect("contains");
        if rendered[at..].starts_with(CONTINUE_TAG) {
            rendered.truncate(at);
        } else {
            rendered.truncate(at);
            let keep = rendered.trim_end_matches(jinja::jinja2::py_isspace).len();
            rendered.truncate(keep);
        }
    }
    Ok(rendered)
}

/// A transformers request as llama-server's body: the same messages,
/// tools and template arguments; a final assistant message to continue is
/// what llama-server continues when it asks for a generation prompt.
pub fn server_body_of(req: &Json) -> Json {
    let mut body = Map::new();
    for k in ["messages", "tools", "chat_template_kwargs"] {
        if let Some(x) = req.get(k).filter(|x| !x.is_null()) {
            body.insert(k.into(), x.clone());
        }
    }
    let truthy = |k: &str| {
        req.get(k)
            .is_some_and(|x| x.as_bool() != Some(false) && !x.is_null())
    };
    body.insert(
        "add_generation_prompt".into(),
        serde_json::json!(truthy("add_generation_prompt") || truthy("continue_final_message")),
    );
    Json::Object(body)
}

/// A llama-server body as a transformers request: the same messages,
/// tools and template arguments; llama-server's generation prompt
/// (`add_generation_prompt`, default true) becomes transformers'
/// `continue_final_message` where the last message is the assistant's
/// (llama-server continues it) and `add_generation_prompt` otherwise.
pub fn request_of_server_body(body: &Json) -> Json {
    let mut req = Map::new();
    for k in ["messages", "tools", "chat_template_kwargs"] {
        if let Some(x) = body.get(k).filter(|x| !x.is_null()) {
            req.insert(k.into(), x.clone());
        }
    }
    let agp = body
        .get("add_generation_prompt")
        .and_then(Json::as_bool)
        .unwrap_or(true);
    let last_is_assistant = body["messages"]
        .as_array()
        .and_then(|m| m.last())
        .is_some_and(|m| m["role"] == "assistant");
    if agp && last_is_assistant {
        req.insert("continue_final_message".into(), serde_json::json!(true));
    } else {
        req.insert("add_generation_prompt".into(), serde_json::json!(agp));
    }
    Json::Object(req)
}
