//! llama.cpp's chat message (`common_chat_msg`, common/chat.h) and its
//! OpenAI-compatible JSON both ways (`common_chat_msgs_parse_oaicompat`,
//! `common_chat_msg::to_json_oaicompat`, `common_chat_tools_parse_oaicompat`,
//! `common_chat_tools_to_json_oaicompat`), from common/chat.cpp.

use serde_json::{Map, Value as Json};

use crate::dump::dump;
use crate::Error;

/// `common_chat_msg_content_part`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ContentPart {
    /// `text` or `media_marker`.
    pub kind: String,
    /// The text.
    pub text: String,
}

/// `common_chat_tool_call`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ToolCall {
    /// The function name.
    pub name: String,
    /// The arguments as text (a JSON object given as one is dumped).
    pub arguments: String,
    /// The call id, empty when none.
    pub id: String,
}

/// `common_chat_msg`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Msg {
    /// The role.
    pub role: String,
    /// String content.
    pub content: String,
    /// Typed content parts.
    pub content_parts: Vec<ContentPart>,
    /// Tool calls.
    pub tool_calls: Vec<ToolCall>,
    /// `reasoning_content`.
    pub reasoning_content: String,
    /// `name`.
    pub tool_name: String,
    /// `tool_call_id`.
    pub tool_call_id: String,
}

/// `common_chat_tool`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tool {
    /// The function name.
    pub name: String,
    /// The description.
    pub description: String,
    /// The parameters, dumped.
    pub parameters: String,
}

impl Msg {
    /// `empty()`.
    pub fn is_empty(&self) -> bool {
        self.content.is_empty()
            && self.content_parts.is_empty()
            && self.tool_calls.is_empty()
            && self.reasoning_content.is_empty()
            && self.tool_name.is_empty()
            && self.tool_call_id.is_empty()
    }

    /// `contains_media()`.
    pub fn contains_media(&self) -> bool {
        self.content_parts.iter().any(|p| p.kind == "media_marker")
    }

    /// `render_content(delimiter)`.
    pub fn render_content(&self, delimiter: &str) -> Result<String, Error> {
        if !self.content.is_empty() && !self.content_parts.is_empty() {
            return Err(Error::runtime(
                "Cannot specify both content and content_parts",
            ));
        }
        if !self.content.is_empty() {
            return Ok(self.content.clone());
        }
        let mut text = String::new();
        for part in &self.content_parts {
            if part.kind == "text" {
                if !text.is_empty() {
                    text.push_str(delimiter);
                }
                text.push_str(&part.text);
            }
        }
        Ok(text)
    }

    /// `to_json_oaicompat(concat_typed_text)`.
    pub fn to_json_oaicompat(&self, concat_typed_text: bool) -> Result<Json, Error> {
        if !self.content.is_empty() && !self.content_parts.is_empty() {
            return Err(Error::runtime(
                "Cannot specify both content and content_parts",
            ));
        }
        let mut j = Map::new();
        j.insert("role".into(), Json::String(self.role.clone()));
        if !self.content.is_empty() {
            j.insert("content".into(), Json::String(self.content.clone()));
        } else if !self.content_parts.is_empty() {
            if concat_typed_text || self.contains_media() {
                j.insert(
                    "content".into(),
                    Json::String(concat_parts(
                        self.content_parts
                            .iter()
                            .map(|p| (p.kind.as_str(), p.text.as_str())),
                    )),
                );
            } else {
                let parts = self
                    .content_parts
                    .iter()
                    .map(|p| {
                        let mut o = Map::new();
                        o.insert("type".into(), Json::String(p.kind.clone()));
                        o.insert("text".into(), Json::String(p.text.clone()));
                        Json::Object(o)
                    })
                    .collect();
                j.insert("content".into(), Json::Array(parts));
            }
        } else {
            j.insert("content".into(), Json::String(String::new()));
        }
        if !self.reasoning_content.is_empty() {
            j.insert(
                "reasoning_content".into(),
                Json::String(self.reasoning_content.clone()),
            );
        }
        if !self.tool_name.is_empty() {
            j.insert("name".into(), Json::String(self.tool_name.clone()));
        }
        if !self.tool_call_id.is_empty() {
            j.insert(
                "tool_call_id".into(),
                Json::String(self.tool_call_id.clone()),
            );
        }
        if !self.tool_calls.is_empty() {
            let calls = self
                .tool_calls
                .iter()
                .map(|tc| {
                    let mut f = Map::new();
                    f.insert("name".into(), Json::String(tc.name.clone()));
                    f.insert("arguments".into(), Json::String(tc.arguments.clone()));
                    let mut c = Map::new();
                    c.insert("type".into(), Json::String("function".into()));
                    c.insert("function".into(), Json::Object(f));
                    if !tc.id.is_empty() {
                        c.insert("id".into(), Json::String(tc.id.clone()));
                    }
                    Json::Object(c)
                })
                .collect();
            j.insert("tool_calls".into(), Json::Array(calls));
        }
        Ok(Json::Object(j))
    }
}

/// Joins typed parts with newlines, none before or after a media marker
/// (`to_json_oaicompat` and `messages_inp_normalizer::concat_content_parts`).
pub(crate) fn concat_parts<'a>(parts: impl Iterator<Item = (&'a str, &'a str)>) -> String {
    let mut text = String::new();
    let mut last_was_media_marker = false;
    for (kind, t) in parts {
        let add_new_line = match kind {
            "text" => {
                let add = !last_was_media_marker && !text.is_empty();
                last_was_media_marker = false;
                add
            }
            "media_marker" => {
                last_was_media_marker = true;
                false
            }
            _ => continue,
        };
        if add_new_line {
            text.push('\n');
        }
        text.push_str(t);
    }
    text
}

/// nlohmann's `get<std::string>()` on a value that must be a string.
fn get_string(j: &Json) -> Result<String, Error> {
    match j {
        Json::String(s) => Ok(s.clone()),
        other => Err(Error::runtime(format!(
            "[json.exception.type_error.302] type must be string, but is {}",
            type_name(other)
        ))),
    }
}

/// nlohmann's `type_name()`.
pub(crate) fn type_name(j: &Json) -> &'static str {
    match j {
        Json::Null => "null",
        Json::Bool(_) => "boolean",
        Json::Number(_) => "number",
        Json::String(_) => "string",
        Json::Array(_) => "array",
        Json::Object(_) => "object",
    }
}

/// nlohmann's `at(key)` on an object.
fn at<'a>(j: &'a Json, key: &str) -> Result<&'a Json, Error> {
    match j {
        Json::Object(o) => o.get(key).ok_or_else(|| {
            Error::runtime(format!(
                "[json.exception.out_of_range.403] key '{key}' not found"
            ))
        }),
        other => Err(Error::runtime(format!(
            "[json.exception.type_error.304] cannot use at() with {}",
            type_name(other)
        ))),
    }
}

fn contains(j: &Json, key: &str) -> bool {
    j.as_object().is_some_and(|o| o.contains_key(key))
}

/// `common_chat_msgs_parse_oaicompat`.
pub fn msgs_parse_oaicompat(messages: &Json) -> Result<Vec<Msg>, Error> {
    parse_msgs(messages)
        .map_err(|e| Error::runtime(format!("Failed to parse messages: {}", e.message)))
}

fn parse_msgs(messages: &Json) -> Result<Vec<Msg>, Error> {
    let Json::Array(list) = messages else {
        return Err(Error::invalid(format!(
            "Expected 'messages' to be an array, got {}",
            dump(messages)
        )));
    };
    let mut msgs = Vec::new();
    for message in list {
        if !message.is_object() {
            return Err(Error::invalid(format!(
                "Expected 'message' to be an object, got {}",
                dump(message)
            )));
        }
        let mut msg = Msg::default();
        if !contains(message, "role") {
            return Err(Error::invalid(format!(
                "Missing 'role' in message: {}",
                dump(message)
            )));
        }
        msg.role = get_string(at(message, "role")?)?;
        let has_content = contains(message, "content");
        let has_tool_calls = contains(message, "tool_calls");
        if has_content {
            let content = at(message, "content")?;
            match content {
                Json::String(s) => msg.content = s.clone(),
                Json::Array(parts) => {
                    for part in parts {
                        if !contains(part, "type") {
                            return Err(Error::invalid(format!(
                                "Missing content part type: {}",
                                dump(part)
                            )));
                        }
                        let ty = at(part, "type")?;
                        if ty.as_str() != Some("text") && ty.as_str() != Some("media_marker") {
                            return Err(Error::invalid(format!(
                                "Unsupported content part type: {}",
                                dump(ty)
                            )));
                        }
                        msg.content_parts.push(ContentPart {
                            kind: get_string(ty)?,
                            text: get_string(at(part, "text")?)?,
                        });
                    }
                }
                Json::Null => {}
                other => {
                    return Err(Error::invalid(format!(
                        "Invalid 'content' type: expected string or array, got {} (ref: https://github.com/ggml-org/llama.cpp/issues/8367)",
                        dump(other)
                    )))
                }
            }
        }
        if has_tool_calls {
            for tool_call in iter_values(at(message, "tool_calls")?) {
                if !contains(tool_call, "type") {
                    return Err(Error::invalid(format!(
                        "Missing tool call type: {}",
                        dump(tool_call)
                    )));
                }
                if at(tool_call, "type")?.as_str() != Some("function") {
                    return Err(Error::invalid(format!(
                        "Unsupported tool call type: {}",
                        dump(tool_call)
                    )));
                }
                if !contains(tool_call, "function") {
                    return Err(Error::invalid(format!(
                        "Missing tool call function: {}",
                        dump(tool_call)
                    )));
                }
                let fc = at(tool_call, "function")?;
                if !contains(fc, "name") {
                    return Err(Error::invalid(format!(
                        "Missing tool call name: {}",
                        dump(tool_call)
                    )));
                }
                let name = get_string(at(fc, "name")?)?;
                let args = at(fc, "arguments")?;
                let arguments = match args {
                    Json::String(s) => s.clone(),
                    other => dump(other),
                };
                let id = if contains(tool_call, "id") {
                    get_string(at(tool_call, "id")?)?
                } else {
                    String::new()
                };
                msg.tool_calls.push(ToolCall {
                    name,
                    arguments,
                    id,
                });
            }
        }
        if !has_content && !has_tool_calls {
            return Err(Error::invalid(
                "Expected 'content' or 'tool_calls' (ref: https://github.com/ggml-org/llama.cpp/issues/8367 & https://github.com/ggml-org/llama.cpp/issues/12279)",
            ));
        }
        if contains(message, "reasoning_content") {
            msg.reasoning_content = get_string(at(message, "reasoning_content")?)?;
        }
        if contains(message, "name") {
            msg.tool_name = get_string(at(message, "name")?)?;
        }
        if contains(message, "tool_call_id") {
            msg.tool_call_id = get_string(at(message, "tool_call_id")?)?;
        }
        msgs.push(msg);
    }
    Ok(msgs)
}

/// nlohmann's range-for over a value: an array's elements, an object's
/// values, a scalar itself once, nothing for null.
fn iter_values(j: &Json) -> Vec<&Json> {
    match j {
        Json::Null => Vec::new(),
        Json::Array(a) => a.iter().collect(),
        Json::Object(o) => o.values().collect(),
        other => vec![other],
    }
}

/// `common_chat_tools_parse_oaicompat`.
pub fn tools_parse_oaicompat(tools: &Json) -> Result<Vec<Tool>, Error> {
    parse_tools(tools).map_err(|e| {
        Error::runtime(format!(
            "Failed to parse tools: {}; tools = {}",
            e.message,
            crate::dump::dump_indent(tools, 2)
        ))
    })
}

fn parse_tools(tools: &Json) -> Result<Vec<Tool>, Error> {
    let mut result = Vec::new();
    if tools.is_null() {
        return Ok(result);
    }
    let Json::Array(list) = tools else {
        return Err(Error::invalid(format!(
            "Expected 'tools' to be an array, got {}",
            dump(tools)
        )));
    };
    for tool in list {
        if !contains(tool, "type") {
            return Err(Error::invalid(format!("Missing tool type: {}", dump(tool))));
        }
        if at(tool, "type")?.as_str() != Some("function") {
            return Err(Error::invalid(format!(
                "Unsupported tool type: {}",
                dump(tool)
            )));
        }
        if !contains(tool, "function") {
            return Err(Error::invalid(format!(
                "Missing tool function: {}",
                dump(tool)
            )));
        }
        let function = at(tool, "function")?;
        let name = get_string(at(function, "name")?)?;
        let description = match function.get("description") {
            Some(d) => get_string(d)?,
            None => String::new(),
        };
        let parameters = match function.get("parameters") {
            Some(p) => dump(p),
            None => "{}".into(),
        };
        result.push(Tool {
            name,
            description,
            parameters,
        });
    }
    Ok(result)
}

/// `common_chat_tools_to_json_oaicompat`: `null` for no tools.
pub fn tools_to_json_oaicompat(tools: &[Tool]) -> Result<Json, Error> {
    if tools.is_empty() {
        return Ok(Json::Null);
    }
    let mut out = Vec::new();
    for tool in tools {
        let parameters: Json = crate::parse_json(&tool.parameters)?;
        let mut f = Map::new();
        f.insert("name".into(), Json::String(tool.name.clone()));
        f.insert("description".into(), Json::String(tool.description.clone()));
        f.insert("parameters".into(), parameters);
        let mut t = Map::new();
        t.insert("type".into(), Json::String("function".into()));
        t.insert("function".into(), Json::Object(f));
        out.push(Json::Object(t));
    }
    Ok(Json::Array(out))
}
