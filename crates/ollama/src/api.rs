//! Ollama's request types (`api/types.go`) and their JSON decoding, with
//! Go's `encoding/json` rules: case-insensitive field names, unknown fields
//! ignored, `null` leaves a field unset, and Ollama's own unmarshalers
//! (lowercased roles, `think` as a bool or a level, ordered tool-call
//! arguments and tool properties).

use serde_json::{Map, Value as Json};

/// A decoding error, worded as Go's `encoding/json` or Ollama's unmarshalers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError(pub String);

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for DecodeError {}

type D<T> = Result<T, DecodeError>;

/// `api.ThinkValue`: a bool or one of `high`, `medium`, `low`, `max`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Think {
    /// `true` / `false`
    Bool(bool),
    /// A level string.
    Level(String),
}

impl Think {
    /// `ThinkValue.Bool()`.
    pub fn as_bool(&self) -> bool {
        match self {
            Think::Bool(b) => *b,
            Think::Level(s) => matches!(s.as_str(), "high" | "medium" | "low" | "max"),
        }
    }

    /// `ThinkValue.String()`: the level; `"medium"` for `true`; `""` for `false`.
    pub fn level(&self) -> String {
        match self {
            Think::Bool(true) => "medium".into(),
            Think::Bool(false) => String::new(),
            Think::Level(s) => s.clone(),
        }
    }
}

/// `api.ImageData`: bytes, base64 in JSON.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct ImageData(pub Vec<u8>);

/// An ordered JSON object (tool-call arguments), `None` when Go's map is nil.
pub type OrderedArgs = Option<Map<String, Json>>;

/// `api.ToolCall`.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct ToolCall {
    /// `id`
    pub id: String,
    /// `function`
    pub function: ToolCallFunction,
}

/// `api.ToolCallFunction`.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct ToolCallFunction {
    /// `index`
    pub index: i64,
    /// `name`
    pub name: String,
    /// `arguments`, in request order; `None` when absent or `null`.
    pub arguments: OrderedArgs,
    /// Whether the request sent `"arguments": null` (Go marshals that back
    /// as `null`, an absent field as `{}`).
    pub arguments_null: bool,
}

/// `api.Message`.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Message {
    /// `role`, lowercased.
    pub role: String,
    /// `content`
    pub content: String,
    /// `thinking`
    pub thinking: String,
    /// `images`
    pub images: Vec<ImageData>,
    /// `tool_calls`
    pub tool_calls: Vec<ToolCall>,
    /// `tool_name`
    pub tool_name: String,
    /// `tool_call_id`
    pub tool_call_id: String,
}

impl Message {
    /// A message with a role and content.
    pub fn new(role: &str, content: &str) -> Message {
        Message {
            role: role.to_string(),
            content: content.to_string(),
            ..Message::default()
        }
    }
}

/// `api.ToolProperty`.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct ToolProperty {
    /// `anyOf`
    pub any_of: Vec<ToolProperty>,
    /// `type` (`api.PropertyType`, a string or a list of strings).
    pub type_: Vec<String>,
    /// `items`
    pub items: Option<Json>,
    /// `description`
    pub description: String,
    /// `enum`; `None` when Go's slice is nil.
    pub enum_: Option<Vec<Json>>,
    /// `properties`, in request order; `None` for a nil pointer.
    pub properties: Option<Vec<(String, ToolProperty)>>,
    /// `required`; `None` when nil.
    pub required: Option<Vec<String>>,
}

impl ToolProperty {
    /// `ToTypeScriptType()`.
    pub fn to_typescript_type(&self) -> String {
        if !self.any_of.is_empty() {
            return self
                .any_of
                .iter()
                .map(|p| p.to_typescript_type())
                .collect::<Vec<_>>()
                .join(" | ");
        }
        match self.type_.len() {
            0 => "any".into(),
            1 => ts_type(&self.type_[0]).into(),
            _ => self
                .type_
                .iter()
                .map(|t| ts_type(t))
                .collect::<Vec<_>>()
                .join(" | "),
        }
    }
}

fn ts_type(t: &str) -> &'static str {
    match t {
        "string" => "string",
        "number" | "integer" => "number",
        "boolean" => "boolean",
        "array" => "any[]",
        "object" => "Record<string, any>",
        "null" => "null",
        _ => "any",
    }
}

/// `api.ToolFunctionParameters`.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct ToolFunctionParameters {
    /// `type`
    pub type_: String,
    /// `$defs`
    pub defs: Option<Json>,
    /// `items`
    pub items: Option<Json>,
    /// `required`; `None` when nil.
    pub required: Option<Vec<String>>,
    /// `properties`, in request order; `None` for a nil pointer.
    pub properties: Option<Vec<(String, ToolProperty)>>,
}

/// `api.ToolFunction`.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct ToolFunction {
    /// `name`
    pub name: String,
    /// `description`
    pub description: String,
    /// `parameters`
    pub parameters: ToolFunctionParameters,
}

/// `api.Tool`.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Tool {
    /// `type`
    pub type_: String,
    /// `items`
    pub items: Option<Json>,
    /// `function`
    pub function: ToolFunction,
}

/// `api.ChatRequest` (the fields that shape the prompt).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct ChatRequest {
    /// `model`
    pub model: String,
    /// `messages`
    pub messages: Vec<Message>,
    /// `tools`; `None` when nil.
    pub tools: Option<Vec<Tool>>,
    /// `think`
    pub think: Option<Think>,
    /// `options`
    pub options: Option<Map<String, Json>>,
    /// `truncate`
    pub truncate: Option<bool>,
    /// `_debug_render_only`
    pub debug_render_only: bool,
    /// `top_logprobs`
    pub top_logprobs: i64,
    /// Whether `format` is set (Go's `req.Format != nil`: any value, even
    /// `null`).
    pub format: bool,
}

/// `api.GenerateRequest` (the fields that shape the prompt).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct GenerateRequest {
    /// `model`
    pub model: String,
    /// `prompt`
    pub prompt: String,
    /// `suffix`
    pub suffix: String,
    /// `system`
    pub system: String,
    /// `template`
    pub template: String,
    /// `context`; `None` when nil.
    pub context: Option<Vec<i64>>,
    /// `raw`
    pub raw: bool,
    /// `images`
    pub images: Vec<ImageData>,
    /// `think`
    pub think: Option<Think>,
    /// `options`
    pub options: Option<Map<String, Json>>,
    /// `truncate`
    pub truncate: Option<bool>,
    /// `_debug_render_only`
    pub debug_render_only: bool,
    /// `top_logprobs`
    pub top_logprobs: i64,
}

// ---- decoding helpers ----

/// How Go's `encoding/json` names a JSON value's kind in a type error.
pub fn json_kind(v: &Json) -> &'static str {
    match v {
        Json::Null => "null",
        Json::Bool(_) => "bool",
        Json::Number(_) => "number",
        Json::String(_) => "string",
        Json::Array(_) => "array",
        Json::Object(_) => "object",
    }
}

/// Go's `base64.StdEncoding.DecodeString`, with its error text
/// (`decodeQuantum`: `\r` and `\n` skipped, the byte a `CorruptInputError`
/// names).
pub fn base64_decode(s: &str) -> D<Vec<u8>> {
    fn val(c: u8) -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    }
    let src = s.as_bytes();
    let err = |i: usize| DecodeError(format!("illegal base64 data at input byte {i}"));
    let mut out = Vec::with_capacity(src.len() * 3 / 4);
    let mut si = 0;
    while si < src.len() {
        let mut dbuf = [0u32; 4];
        let mut dlen = 4;
        let mut j = 0;
        let mut trailing = None;
        while j < 4 {
            if si == src.len() {
                if j == 0 {
                    return Ok(out);
                }
                // j == 1, or padding is required
                return Err(err(si - j));
            }
            let c = src[si];
            si += 1;
            if let Some(v) = val(c) {
                dbuf[j] = v;
                j += 1;
                continue;
            }
            if c == b'\n' || c == b'\r' {
                continue;
            }
            if c != b'=' {
                return Err(err(si - 1));
            }
            match j {
                0 | 1 => return Err(err(si - 1)),
                2 => {
                    while si < src.len() && (src[si] == b'\n' || src[si] == b'\r') {
                        si += 1;
                    }
                    if si == src.len() {
                        return Err(err(src.len()));
                    }
                    if src[si] != b'=' {
                        return Err(err(si - 1));
                    }
                    si += 1;
                }
                _ => {}
            }
            while si < src.len() && (src[si] == b'\n' || src[si] == b'\r') {
                si += 1;
            }
            if si < src.len() {
                trailing = Some(si);
            }
            dlen = j;
            break;
        }
        let n = dbuf[0] << 18 | dbuf[1] << 12 | dbuf[2] << 6 | dbuf[3];
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend_from_slice(&bytes[..dlen.saturating_sub(1).min(3)]);
        if let Some(t) = trailing {
            return Err(err(t));
        }
        if dlen < 4 {
            return Ok(out);
        }
    }
    Ok(out)
}

impl ChatRequest {
    /// Decodes an `/api/chat` body (already parsed as JSON), as Go 1.26's
    /// `encoding/json` does (`crate::api_decode`).
    pub fn decode(v: &Json) -> D<ChatRequest> {
        crate::api_decode::chat(v)
    }
}

impl GenerateRequest {
    /// Decodes an `/api/generate` body (already parsed as JSON), as Go
    /// 1.26's `encoding/json` does (`crate::api_decode`).
    pub fn decode(v: &Json) -> D<GenerateRequest> {
        crate::api_decode::generate(v)
    }

    /// [`GenerateRequest::decode`] as a release decodes it.
    pub fn decode_in(v: &Json, release: changes::Release) -> D<GenerateRequest> {
        crate::api_decode::generate_in(v, release)
    }
}

/// Decodes a list of messages (Modelfile `MESSAGE` lines as API messages).
pub fn decode_messages(v: &Json) -> D<Vec<Message>> {
    crate::api_decode::message_list(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chat(s: &str) -> D<ChatRequest> {
        ChatRequest::decode(&serde_json::from_str(s).unwrap())
    }

    #[test]
    fn roles_lowercased_and_fields_case_insensitive() {
        let r = chat(r#"{"Model":"m","messages":[{"ROLE":"User","Content":"hi"}]}"#).unwrap();
        assert_eq!(r.model, "m");
        assert_eq!(r.messages[0].role, "user");
        assert_eq!(r.messages[0].content, "hi");
    }

    #[test]
    fn think_values() {
        assert_eq!(
            chat(r#"{"think":"high"}"#).unwrap().think,
            Some(Think::Level("high".into()))
        );
        assert_eq!(chat(r#"{"think":null}"#).unwrap().think, None);
        assert_eq!(
            chat(r#"{"think":"x"}"#).unwrap_err().0,
            r#"invalid think value: "x" (must be "high", "medium", "low", "max", true, or false)"#
        );
        assert_eq!(
            chat(r#"{"think":1}"#).unwrap_err().0,
            r#"think must be a boolean or string ("high", "medium", "low", "max", true, or false)"#
        );
        assert_eq!(Think::Bool(true).level(), "medium");
    }

    #[test]
    fn ordered_arguments_and_properties() {
        let r = chat(
            r#"{"messages":[{"role":"assistant","tool_calls":[{"function":{"name":"f","arguments":{"b":1,"a":2}}}]}],
                "tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object","properties":{"z":{"type":["string","null"]},"a":{"type":"number"}}}}}]}"#,
        )
        .unwrap();
        let args = r.messages[0].tool_calls[0]
            .function
            .arguments
            .as_ref()
            .unwrap();
        assert_eq!(args.keys().collect::<Vec<_>>(), vec!["b", "a"]);
        let props = r.tools.unwrap()[0]
            .function
            .parameters
            .properties
            .clone()
            .unwrap();
        assert_eq!(props[0].0, "z");
        assert_eq!(props[0].1.to_typescript_type(), "string | null");
    }

    #[test]
    fn type_errors_like_go() {
        assert_eq!(
            chat(r#"{"messages":[{"content":5}]}"#).unwrap_err().0,
            "json: cannot unmarshal number into Go struct field ChatRequest.messages.content of type string"
        );
        assert_eq!(base64_decode("aGk=").unwrap(), b"hi");
        assert_eq!(
            base64_decode("a*k=").unwrap_err().0,
            "illegal base64 data at input byte 1"
        );
    }
}
