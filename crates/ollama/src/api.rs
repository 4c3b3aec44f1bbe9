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

    fn decode(v: &Json) -> D<Option<Think>> {
        match v {
            Json::Null => Ok(None),
            Json::Bool(b) => Ok(Some(Think::Bool(*b))),
            Json::String(s) => {
                if !matches!(s.as_str(), "high" | "medium" | "low" | "max") {
                    return Err(DecodeError(format!(
                        "invalid think value: {} (must be \"high\", \"medium\", \"low\", \"max\", true, or false)",
                        gotmpl::strconv::quote(s)
                    )));
                }
                Ok(Some(Think::Level(s.clone())))
            }
            _ => Err(DecodeError(
                "think must be a boolean or string (\"high\", \"medium\", \"low\", \"max\", true, or false)".into(),
            )),
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

fn type_err(v: &Json, strct: &str, path: &str, go_type: &str) -> DecodeError {
    DecodeError(format!(
        "json: cannot unmarshal {} into Go struct field {strct}.{path} of type {go_type}",
        json_kind(v)
    ))
}

/// Fields of an object matched as Go does: exact name first, then
/// case-insensitively; the last matching key wins.
struct Fields<'a> {
    obj: &'a Map<String, Json>,
    strct: &'static str,
    path: String,
}

impl<'a> Fields<'a> {
    fn get(&self, name: &str) -> Option<&'a Json> {
        let mut found = None;
        for (k, v) in self.obj {
            if k == name || crate::godecode::fold_eq(k, name) {
                found = Some(v);
            }
        }
        found.filter(|v| !v.is_null())
    }

    fn path(&self, name: &str) -> String {
        if self.path.is_empty() {
            name.to_string()
        } else {
            format!("{}.{name}", self.path)
        }
    }

    fn string(&self, name: &str) -> D<String> {
        match self.get(name) {
            None => Ok(String::new()),
            Some(Json::String(s)) => Ok(s.clone()),
            Some(v) => Err(type_err(v, self.strct, &self.path(name), "string")),
        }
    }

    fn bool(&self, name: &str) -> D<bool> {
        match self.get(name) {
            None => Ok(false),
            Some(Json::Bool(b)) => Ok(*b),
            Some(v) => Err(type_err(v, self.strct, &self.path(name), "bool")),
        }
    }

    fn opt_bool(&self, name: &str) -> D<Option<bool>> {
        match self.get(name) {
            None => Ok(None),
            Some(Json::Bool(b)) => Ok(Some(*b)),
            Some(v) => Err(type_err(v, self.strct, &self.path(name), "bool")),
        }
    }

    fn int(&self, name: &str) -> D<i64> {
        match self.get(name) {
            None => Ok(0),
            Some(v @ Json::Number(n)) => n
                .as_i64()
                .ok_or_else(|| type_err(v, self.strct, &self.path(name), "int")),
            Some(v) => Err(type_err(v, self.strct, &self.path(name), "int")),
        }
    }

    fn object(&self, name: &str, go_type: &str) -> D<Option<&'a Map<String, Json>>> {
        match self.get(name) {
            None => Ok(None),
            Some(Json::Object(o)) => Ok(Some(o)),
            Some(v) => Err(type_err(v, self.strct, &self.path(name), go_type)),
        }
    }

    fn array(&self, name: &str, go_type: &str) -> D<Option<&'a Vec<Json>>> {
        match self.get(name) {
            None => Ok(None),
            Some(Json::Array(a)) => Ok(Some(a)),
            Some(v) => Err(type_err(v, self.strct, &self.path(name), go_type)),
        }
    }

    fn strings(&self, name: &str) -> D<Option<Vec<String>>> {
        let Some(a) = self.array(name, "[]string")? else {
            return Ok(None);
        };
        a.iter()
            .map(|v| match v {
                Json::String(s) => Ok(s.clone()),
                Json::Null => Ok(String::new()),
                v => Err(type_err(v, self.strct, &self.path(name), "string")),
            })
            .collect::<D<Vec<String>>>()
            .map(Some)
    }

    fn images(&self, name: &str) -> D<Vec<ImageData>> {
        let Some(a) = self.array(name, "[]api.ImageData")? else {
            return Ok(Vec::new());
        };
        a.iter()
            .map(|v| match v {
                Json::String(s) => base64_decode(s).map(ImageData),
                Json::Null => Ok(ImageData::default()),
                v => Err(type_err(v, self.strct, &self.path(name), "api.ImageData")),
            })
            .collect()
    }
}

fn fields<'a>(v: &'a Json, strct: &'static str, path: &str, go_type: &str) -> D<Fields<'a>> {
    match v {
        Json::Object(obj) => Ok(Fields {
            obj,
            strct,
            path: path.to_string(),
        }),
        v => Err(if path.is_empty() {
            DecodeError(format!(
                "json: cannot unmarshal {} into Go value of type {go_type}",
                json_kind(v)
            ))
        } else {
            type_err(v, strct, path, go_type)
        }),
    }
}

/// Go's `base64.StdEncoding.DecodeString`, with its error text.
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
    // Go skips \r and \n.
    let bytes: Vec<(usize, u8)> = s
        .bytes()
        .enumerate()
        .filter(|&(_, b)| b != b'\r' && b != b'\n')
        .collect();
    let err = |i: usize| DecodeError(format!("illegal base64 data at input byte {i}"));
    let mut out = Vec::with_capacity(bytes.len() * 3 / 4);
    let mut chunk = bytes.chunks(4).peekable();
    while let Some(c) = chunk.next() {
        let last = chunk.peek().is_none();
        if c.len() < 4 {
            return Err(err(c.first().map(|x| x.0).unwrap_or(s.len())));
        }
        let mut n: u32 = 0;
        let mut pad = 0;
        for (j, &(i, b)) in c.iter().enumerate() {
            if b == b'=' {
                if !last || j < 2 || (j == 2 && c[3].1 != b'=') {
                    return Err(err(i));
                }
                pad += 1;
                n <<= 6;
                continue;
            }
            if pad > 0 {
                return Err(err(i));
            }
            n = (n << 6) | val(b).ok_or_else(|| err(i))?;
        }
        out.push((n >> 16) as u8);
        if pad < 2 {
            out.push((n >> 8) as u8);
        }
        if pad < 1 {
            out.push(n as u8);
        }
    }
    Ok(out)
}

fn decode_tool_call(v: &Json, path: &str) -> D<ToolCall> {
    let f = fields(v, "ToolCall", path, "api.ToolCall")?;
    let function = match f.get("function") {
        None => ToolCallFunction::default(),
        Some(fv) => {
            let ff = fields(
                fv,
                "ToolCallFunction",
                &f.path("function"),
                "api.ToolCallFunction",
            )?;
            let arguments = match ff.get("arguments") {
                None => None,
                Some(Json::Object(o)) => Some(o.clone()),
                Some(v) => {
                    return Err(DecodeError(format!(
                        "json: cannot unmarshal {} into Go value of type map[string]interface {{}}",
                        json_kind(v)
                    )))
                }
            };
            let arguments_null = ff
                .obj
                .iter()
                .rev()
                .find(|(k, _)| {
                    k.as_str() == "arguments" || crate::godecode::fold_eq(k, "arguments")
                })
                .is_some_and(|(_, v)| v.is_null());
            ToolCallFunction {
                index: ff.int("index")?,
                name: ff.string("name")?,
                arguments,
                arguments_null,
            }
        }
    };
    Ok(ToolCall {
        id: f.string("id")?,
        function,
    })
}

fn decode_message(v: &Json, path: &str) -> D<Message> {
    let f = fields(v, "Message", path, "api.Message")?;
    let tool_calls = match f.array("tool_calls", "[]api.ToolCall")? {
        None => Vec::new(),
        Some(a) => a
            .iter()
            .map(|c| decode_tool_call(c, &f.path("tool_calls")))
            .collect::<D<Vec<_>>>()?,
    };
    Ok(Message {
        role: crate::renderers::text::to_lower(&f.string("role")?),
        content: f.string("content")?,
        thinking: f.string("thinking")?,
        images: f.images("images")?,
        tool_calls,
        tool_name: f.string("tool_name")?,
        tool_call_id: f.string("tool_call_id")?,
    })
}

fn decode_property_type(v: &Json) -> D<Vec<String>> {
    match v {
        Json::String(s) => Ok(vec![s.clone()]),
        Json::Array(a) => a
            .iter()
            .map(|x| match x {
                Json::String(s) => Ok(s.clone()),
                Json::Null => Ok(String::new()),
                x => Err(DecodeError(format!(
                    "json: cannot unmarshal {} into Go value of type string",
                    json_kind(x)
                ))),
            })
            .collect(),
        v => Err(DecodeError(format!(
            "json: cannot unmarshal {} into Go value of type []string",
            json_kind(v)
        ))),
    }
}

fn decode_properties(v: &Json) -> D<Vec<(String, ToolProperty)>> {
    match v {
        Json::Object(o) => o
            .iter()
            .map(|(k, p)| decode_property(p, "").map(|p| (k.clone(), p)))
            .collect(),
        v => Err(DecodeError(format!(
            "json: cannot unmarshal {} into Go value of type map[string]api.ToolProperty",
            json_kind(v)
        ))),
    }
}

fn decode_property(v: &Json, path: &str) -> D<ToolProperty> {
    let f = fields(v, "ToolProperty", path, "api.ToolProperty")?;
    let any_of = match f.array("anyOf", "[]api.ToolProperty")? {
        None => Vec::new(),
        Some(a) => a
            .iter()
            .map(|p| decode_property(p, &f.path("anyOf")))
            .collect::<D<Vec<_>>>()?,
    };
    Ok(ToolProperty {
        any_of,
        type_: match f.get("type") {
            None => Vec::new(),
            Some(t) => decode_property_type(t)?,
        },
        items: f.get("items").cloned(),
        description: f.string("description")?,
        enum_: f.array("enum", "[]interface {}")?.cloned(),
        properties: match f.get("properties") {
            None => None,
            Some(p) => Some(decode_properties(p)?),
        },
        required: f.strings("required")?,
    })
}

fn decode_tool(v: &Json, path: &str) -> D<Tool> {
    let f = fields(v, "Tool", path, "api.Tool")?;
    let function = match f.get("function") {
        None => ToolFunction::default(),
        Some(fv) => {
            let ff = fields(fv, "ToolFunction", &f.path("function"), "api.ToolFunction")?;
            let parameters = match ff.get("parameters") {
                None => ToolFunctionParameters::default(),
                Some(pv) => {
                    let pf = fields(
                        pv,
                        "ToolFunctionParameters",
                        &ff.path("parameters"),
                        "api.ToolFunctionParameters",
                    )?;
                    ToolFunctionParameters {
                        type_: pf.string("type")?,
                        defs: pf.get("$defs").cloned(),
                        items: pf.get("items").cloned(),
                        required: pf.strings("required")?,
                        properties: match pf.get("properties") {
                            None => None,
                            Some(p) => Some(decode_properties(p)?),
                        },
                    }
                }
            };
            ToolFunction {
                name: ff.string("name")?,
                description: ff.string("description")?,
                parameters,
            }
        }
    };
    Ok(Tool {
        type_: f.string("type")?,
        items: f.get("items").cloned(),
        function,
    })
}

impl ChatRequest {
    /// Decodes an `/api/chat` body (already parsed as JSON).
    pub fn decode(v: &Json) -> D<ChatRequest> {
        let f = fields(v, "ChatRequest", "", "api.ChatRequest")?;
        let messages = match f.array("messages", "[]api.Message")? {
            None => Vec::new(),
            Some(a) => a
                .iter()
                .map(|m| decode_message(m, "messages"))
                .collect::<D<Vec<_>>>()?,
        };
        let tools = match f.array("tools", "api.Tools")? {
            None => None,
            Some(a) => Some(
                a.iter()
                    .map(|t| decode_tool(t, "tools"))
                    .collect::<D<Vec<_>>>()?,
            ),
        };
        let think = match f.get("think") {
            None => None,
            Some(t) => Think::decode(t)?,
        };
        Ok(ChatRequest {
            model: f.string("model")?,
            messages,
            tools,
            think,
            options: f.object("options", "map[string]interface {}")?.cloned(),
            truncate: f.opt_bool("truncate")?,
            debug_render_only: f.bool("_debug_render_only")?,
            top_logprobs: f.int("top_logprobs")?,
        })
    }
}

impl GenerateRequest {
    /// Decodes an `/api/generate` body (already parsed as JSON).
    pub fn decode(v: &Json) -> D<GenerateRequest> {
        let f = fields(v, "GenerateRequest", "", "api.GenerateRequest")?;
        let context = match f.array("context", "[]int")? {
            None => None,
            Some(a) => Some(
                a.iter()
                    .map(|x| {
                        x.as_i64()
                            .ok_or_else(|| type_err(x, "GenerateRequest", "context", "int"))
                    })
                    .collect::<D<Vec<_>>>()?,
            ),
        };
        let think = match f.get("think") {
            None => None,
            Some(t) => Think::decode(t)?,
        };
        Ok(GenerateRequest {
            model: f.string("model")?,
            prompt: f.string("prompt")?,
            suffix: f.string("suffix")?,
            system: f.string("system")?,
            template: f.string("template")?,
            context,
            raw: f.bool("raw")?,
            images: f.images("images")?,
            think,
            options: f.object("options", "map[string]interface {}")?.cloned(),
            truncate: f.opt_bool("truncate")?,
            debug_render_only: f.bool("_debug_render_only")?,
            top_logprobs: f.int("top_logprobs")?,
        })
    }
}

/// Decodes a list of messages (Modelfile `MESSAGE` lines as API messages).
pub fn decode_messages(v: &Json) -> D<Vec<Message>> {
    match v {
        Json::Array(a) => a.iter().map(|m| decode_message(m, "messages")).collect(),
        Json::Null => Ok(Vec::new()),
        v => Err(DecodeError(format!(
            "json: cannot unmarshal {} into Go value of type []api.Message",
            json_kind(v)
        ))),
    }
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
            "json: cannot unmarshal number into Go struct field Message.messages.content of type string"
        );
        assert_eq!(base64_decode("aGk=").unwrap(), b"hi");
        assert_eq!(
            base64_decode("a*k=").unwrap_err().0,
            "illegal base64 data at input byte 1"
        );
    }
}
