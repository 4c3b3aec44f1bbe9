//! `api.ChatRequest` and `api.GenerateRequest` as `encoding/json` writes
//! them: fields in declaration order, `omitempty`, `map[string]any` with
//! sorted keys, ordered tool-call arguments and tool properties.

use serde_json::{Map, Value as Json};

use crate::godecode::{self, GoErr, Got, Struct, Ty};
use crate::gojson::J;

/// `api.ToolCall`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ApiToolCall {
    /// `id`
    pub id: String,
    /// `function.index`
    pub index: i64,
    /// `function.name`
    pub name: String,
    /// `function.arguments`: an ordered map (`Json::Object`), `null` when
    /// it was decoded from `null`, `None` when never set (written `{}`).
    pub args: Option<Json>,
}

/// `api.Message`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ApiMessage {
    /// `role`
    pub role: String,
    /// `content`
    pub content: String,
    /// `thinking`
    pub thinking: String,
    /// `images`, base64 as Go writes them.
    pub images: Vec<String>,
    /// `tool_calls`; `None` when nil.
    pub tool_calls: Option<Vec<ApiToolCall>>,
    /// `tool_name`
    pub tool_name: String,
    /// `tool_call_id`
    pub tool_call_id: String,
}

impl ApiMessage {
    pub(crate) fn new(role: &str, content: &str) -> ApiMessage {
        ApiMessage {
            role: role.into(),
            content: content.into(),
            ..ApiMessage::default()
        }
    }
}

/// An object in the order given (a Go struct's fields).
pub(crate) fn obj(kv: Vec<(&str, J)>) -> J {
    J::Obj(kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

/// An `any` as Go marshals what it decoded: maps sorted, numbers float64.
pub(crate) fn any(v: &Json) -> J {
    J::from_any(v)
}

/// An ordered map of `any` values (`orderedmap.Map[string, any]`).
pub(crate) fn ordered(m: &Map<String, Json>) -> J {
    J::Obj(m.iter().map(|(k, v)| (k.clone(), any(v))).collect())
}

fn tool_call(c: &ApiToolCall) -> J {
    let mut o = Vec::new();
    if !c.id.is_empty() {
        o.push(("id".into(), J::s(&c.id)));
    }
    o.push((
        "function".into(),
        J::Obj(vec![
            ("index".into(), J::int(c.index)),
            ("name".into(), J::s(&c.name)),
            (
                "arguments".into(),
                match &c.args {
                    Some(Json::Object(m)) => ordered(m),
                    Some(_) => J::Null,
                    None => J::Obj(Vec::new()),
                },
            ),
        ]),
    ));
    J::Obj(o)
}

pub(crate) fn message(m: &ApiMessage) -> J {
    let mut o = vec![
        ("role".into(), J::s(&m.role)),
        ("content".into(), J::s(&m.content)),
    ];
    if !m.thinking.is_empty() {
        o.push(("thinking".into(), J::s(&m.thinking)));
    }
    if !m.images.is_empty() {
        o.push(("images".into(), J::Arr(m.images.iter().map(J::s).collect())));
    }
    if let Some(tc) = m.tool_calls.as_ref().filter(|t| !t.is_empty()) {
        o.push((
            "tool_calls".into(),
            J::Arr(tc.iter().map(tool_call).collect()),
        ));
    }
    if !m.tool_name.is_empty() {
        o.push(("tool_name".into(), J::s(&m.tool_name)));
    }
    if !m.tool_call_id.is_empty() {
        o.push(("tool_call_id".into(), J::s(&m.tool_call_id)));
    }
    J::Obj(o)
}

/// The native request's fields beyond model and messages/prompt.
#[derive(Default)]
pub(crate) struct Common {
    pub stream: Option<bool>,
    /// `format` (raw JSON), omitted when empty.
    pub format: Option<Json>,
    pub tools: Option<Vec<J>>,
    pub options: Vec<(String, J)>,
    pub think: Option<J>,
    pub debug_render_only: bool,
    pub logprobs: bool,
    pub top_logprobs: i64,
}

fn options(mut o: Vec<(String, J)>) -> J {
    o.sort_by(|a, b| a.0.cmp(&b.0));
    J::Obj(o)
}

fn tail(o: &mut Vec<(String, J)>, c: Common) {
    if !c.debug_render_only && !c.logprobs && c.top_logprobs == 0 {
        return;
    }
    if c.debug_render_only {
        o.push(("_debug_render_only".into(), J::Bool(true)));
    }
    if c.logprobs {
        o.push(("logprobs".into(), J::Bool(true)));
    }
    if c.top_logprobs != 0 {
        o.push(("top_logprobs".into(), J::int(c.top_logprobs)));
    }
}

/// `api.ChatRequest`.
pub(crate) fn chat_request(model: &str, messages: &[ApiMessage], c: Common) -> J {
    let mut o = vec![
        ("model".into(), J::s(model)),
        (
            "messages".into(),
            if messages.is_empty() {
                J::Null
            } else {
                J::Arr(messages.iter().map(message).collect())
            },
        ),
    ];
    if let Some(s) = c.stream {
        o.push(("stream".into(), J::Bool(s)));
    }
    if let Some(f) = &c.format {
        o.push(("format".into(), raw(f)));
    }
    if let Some(t) = c.tools.as_ref().filter(|t| !t.is_empty()) {
        o.push(("tools".into(), J::Arr(t.clone())));
    }
    let opts = c.options.clone();
    o.push(("options".into(), options(opts)));
    if let Some(t) = &c.think {
        o.push(("think".into(), t.clone()));
    }
    tail(&mut o, c);
    J::Obj(o)
}

/// `api.GenerateRequest`.
pub(crate) fn generate_request(model: &str, prompt: &str, suffix: &str, c: Common) -> J {
    let mut o = vec![
        ("model".into(), J::s(model)),
        ("prompt".into(), J::s(prompt)),
        ("suffix".into(), J::s(suffix)),
        ("system".into(), J::s("")),
        ("template".into(), J::s("")),
    ];
    if let Some(s) = c.stream {
        o.push(("stream".into(), J::Bool(s)));
    }
    let opts = c.options.clone();
    o.push(("options".into(), options(opts)));
    tail(&mut o, c);
    J::Obj(o)
}

/// A `json.RawMessage` as the encoder writes it (compacted, order kept).
pub(crate) fn raw(v: &Json) -> J {
    fn go(v: &Json) -> J {
        match v {
            Json::Object(m) => J::Obj(m.iter().map(|(k, x)| (k.clone(), go(x))).collect()),
            Json::Array(a) => J::Arr(a.iter().map(go).collect()),
            Json::Number(n) => J::Raw(n.to_string()),
            Json::String(s) => J::s(s.clone()),
            Json::Bool(b) => J::Bool(*b),
            Json::Null => J::Null,
        }
    }
    go(v)
}

// ---- api.Tool: decoding (its unmarshalers) and marshaling ----

fn property_type(v: &Json) -> Result<Option<Json>, GoErr> {
    // PropertyType.UnmarshalJSON: a string, else an array of strings.
    match v {
        Json::String(_) | Json::Null => Ok(Some(Json::Array(vec![Json::String(
            v.as_str().unwrap_or("").to_string(),
        )]))),
        _ => godecode::unmarshal(v, &Ty::Slice(&Ty::Str, "[]string")),
    }
}

/// `jsonparser.ObjectEach` on something that is not an object.
pub(crate) use crate::parsers::gojson_decode::MALFORMED_OBJECT;

fn properties_map(v: &Json) -> Result<Option<Json>, GoErr> {
    // ToolPropertiesMap.UnmarshalJSON: an ordered map of ToolProperty, each
    // value through its own json.Unmarshal.
    let Json::Object(o) = v else {
        return Err(GoErr::msg(MALFORMED_OBJECT));
    };
    let mut out = Map::new();
    for (k, x) in o {
        let p = godecode::unmarshal(x, &PROPERTY)?.unwrap_or(Json::Object(Map::new()));
        out.insert(k.clone(), p);
    }
    Ok(Some(Json::Object(out)))
}

static PROPERTY_T: Struct = Struct {
    name: "ToolProperty",
    go: "api.ToolProperty",
    fields: &[
        ("anyOf", Ty::Slice(&PROPERTY, "[]api.ToolProperty")),
        ("type", Ty::Custom(property_type)),
        ("items", Ty::Any),
        ("description", Ty::Str),
        ("enum", Ty::Slice(&Ty::Any, "[]interface {}")),
        ("properties", Ty::Ptr(&PROPERTIES)),
        ("required", Ty::Slice(&Ty::Str, "[]string")),
    ],
};
static PROPERTY: Ty = Ty::Struct(&PROPERTY_T);
static PROPERTIES: Ty = Ty::Custom(properties_map);

static PARAMETERS_T: Struct = Struct {
    name: "ToolFunctionParameters",
    go: "api.ToolFunctionParameters",
    fields: &[
        ("type", Ty::Str),
        ("$defs", Ty::Any),
        ("items", Ty::Any),
        ("required", Ty::Slice(&Ty::Str, "[]string")),
        ("properties", Ty::Ptr(&PROPERTIES)),
    ],
};
/// `api.ToolFunctionParameters`.
pub(crate) static PARAMETERS: Ty = Ty::Struct(&PARAMETERS_T);

static FUNCTION_T: Struct = Struct {
    name: "ToolFunction",
    go: "api.ToolFunction",
    fields: &[
        ("name", Ty::Str),
        ("description", Ty::Str),
        ("parameters", PARAMETERS),
    ],
};

static TOOL_T: Struct = Struct {
    name: "Tool",
    go: "api.Tool",
    fields: &[
        ("type", Ty::Str),
        ("items", Ty::Any),
        ("function", Ty::Struct(&FUNCTION_T)),
    ],
};
/// `api.Tool`.
pub(crate) static TOOL: Ty = Ty::Struct(&TOOL_T);

fn strings(v: Option<&Json>) -> Option<J> {
    let a = v?.as_array().filter(|a| !a.is_empty())?;
    Some(J::Arr(
        a.iter().map(|s| J::s(s.as_str().unwrap_or(""))).collect(),
    ))
}

fn property(p: &Json) -> J {
    let g = Got::of(Some(p));
    let mut o = Vec::new();
    let any_of = g.list("anyOf");
    if !any_of.is_empty() {
        o.push((
            "anyOf".into(),
            J::Arr(any_of.iter().map(property).collect()),
        ));
    }
    let ty = g.list("type");
    if ty.len() == 1 {
        o.push(("type".into(), J::s(ty[0].as_str().unwrap_or(""))));
    } else if !ty.is_empty() {
        o.push((
            "type".into(),
            J::Arr(ty.iter().map(|s| J::s(s.as_str().unwrap_or(""))).collect()),
        ));
    }
    if let Some(i) = g.get("items") {
        o.push(("items".into(), any(i)));
    }
    if !g.str("description").is_empty() {
        o.push(("description".into(), J::s(g.str("description"))));
    }
    let e = g.list("enum");
    if !e.is_empty() {
        o.push(("enum".into(), J::Arr(e.iter().map(any).collect())));
    }
    if let Some(Json::Object(m)) = g.get("properties") {
        o.push(("properties".into(), properties(m)));
    }
    if let Some(r) = strings(g.get("required")) {
        o.push(("required".into(), r));
    }
    J::Obj(o)
}

fn properties(m: &Map<String, Json>) -> J {
    J::Obj(m.iter().map(|(k, p)| (k.clone(), property(p))).collect())
}

/// `api.ToolFunctionParameters` from its decoded form.
pub(crate) fn parameters(p: &Got) -> J {
    let mut o = vec![("type".into(), J::s(p.str("type")))];
    if let Some(d) = p.get("$defs") {
        o.push(("$defs".into(), any(d)));
    }
    if let Some(i) = p.get("items") {
        o.push(("items".into(), any(i)));
    }
    if let Some(r) = strings(p.get("required")) {
        o.push(("required".into(), r));
    }
    o.push((
        "properties".into(),
        match p.get("properties") {
            Some(Json::Object(m)) => properties(m),
            _ => J::Null,
        },
    ));
    J::Obj(o)
}

/// `api.Tool` from its fields.
pub(crate) fn tool(ty: &str, items: Option<&Json>, name: &str, description: &str, params: J) -> J {
    let mut o = vec![("type".into(), J::s(ty))];
    if let Some(i) = items {
        o.push(("items".into(), any(i)));
    }
    let mut f = vec![("name".into(), J::s(name))];
    if !description.is_empty() {
        f.push(("description".into(), J::s(description)));
    }
    f.push(("parameters".into(), params));
    o.push(("function".into(), J::Obj(f)));
    J::Obj(o)
}

/// `api.Tool` from its decoded form.
pub(crate) fn decoded_tool(t: &Json) -> J {
    let g = Got::of(Some(t));
    let f = g.sub("function");
    tool(
        g.str("type"),
        g.get("items"),
        f.str("name"),
        f.str("description"),
        parameters(&f.sub("parameters")),
    )
}

/// The web-search function both routes give a local model for their
/// built-in web-search tool.
pub(crate) fn web_search_tool(description: &str, query: &str) -> J {
    tool(
        "function",
        None,
        "web_search",
        description,
        J::Obj(vec![
            ("type".into(), J::s("object")),
            ("required".into(), J::Arr(vec![J::s("query")])),
            (
                "properties".into(),
                J::Obj(vec![(
                    "query".into(),
                    J::Obj(vec![
                        ("type".into(), J::s("string")),
                        ("description".into(), J::s(query)),
                    ]),
                )]),
            ),
        ]),
    )
}

/// `json.Unmarshal([]byte(s), &args)` into `api.ToolCallFunctionArguments`.
/// The parsers' port of that call ([`crate::parsers::gojson_decode`]):
/// jsonparser's key unescaping, numbers beyond float64 Go's error.
pub(crate) fn arguments_from_text(s: &str) -> Result<Json, GoErr> {
    let a = crate::parsers::gojson_decode::unmarshal_arguments(s)?;
    Ok(a.map.map(Json::Object).unwrap_or(Json::Null))
}

/// `api.ToolCallFunctionArguments.UnmarshalJSON` on a value: an object
/// keeps its order; `null` leaves the inner map nil (written `null`);
/// anything else is jsonparser's error.
pub(crate) fn arguments(v: &Json) -> Result<Json, GoErr> {
    match v {
        Json::Object(_) | Json::Null => Ok(v.clone()),
        _ => Err(GoErr::msg(MALFORMED_OBJECT)),
    }
}

/// `api.ImageData` bytes as the encoder writes them.
pub(crate) fn image(bytes: &[u8]) -> String {
    godecode::base64_encode(bytes)
}
