//! `/v1/responses` (openai/responses.go, ResponsesMiddleware).

use serde_json::{Map, Value as Json};

use super::marshal::{self, ApiMessage, ApiToolCall, Common, PARAMETERS};
use super::openai::{bind, decode_image_url, think_from_effort};
use super::{Flags, Refused};
use crate::godecode::{self, GoErr, Got, Struct, Ty};
use crate::gojson::J;
use crate::server::Endpoint;

const ANON_TYPE_ROLE: &str =
    "struct { Type string \"json:\\\"type\\\"\"; Role string \"json:\\\"role\\\"\" }";
const ANON_TYPE: &str = "struct { Type string \"json:\\\"type\\\"\" }";

static TYPE_ROLE_T: Struct = Struct {
    name: "",
    go: ANON_TYPE_ROLE,
    fields: &[("type", Ty::Str), ("role", Ty::Str)],
};
static TYPE_T: Struct = Struct {
    name: "",
    go: ANON_TYPE,
    fields: &[("type", Ty::Str)],
};
static MESSAGE_AUX_T: Struct = Struct {
    name: "",
    go: "struct { Type string \"json:\\\"type\\\"\"; Role string \"json:\\\"role\\\"\"; Content json.RawMessage \"json:\\\"content\\\"\" }",
    fields: &[("type", Ty::Str), ("role", Ty::Str), ("content", Ty::Raw)],
};
static OUTPUT_AUX_T: Struct = Struct {
    name: "",
    go: "struct { Type string \"json:\\\"type\\\"\"; CallID string \"json:\\\"call_id\\\"\"; Output json.RawMessage \"json:\\\"output\\\"\" }",
    fields: &[("type", Ty::Str), ("call_id", Ty::Str), ("output", Ty::Raw)],
};
static TEXT_CONTENT_T: Struct = Struct {
    name: "ResponsesTextContent",
    go: "openai.ResponsesTextContent",
    fields: &[("type", Ty::Str), ("text", Ty::Str)],
};
static IMAGE_CONTENT_T: Struct = Struct {
    name: "ResponsesImageContent",
    go: "openai.ResponsesImageContent",
    fields: &[
        ("type", Ty::Str),
        ("detail", Ty::Str),
        ("file_id", Ty::Str),
        ("image_url", Ty::Str),
    ],
};
static OUTPUT_TEXT_CONTENT_T: Struct = Struct {
    name: "ResponsesOutputTextContent",
    go: "openai.ResponsesOutputTextContent",
    fields: &[("type", Ty::Str), ("text", Ty::Str)],
};
static FILE_CONTENT_T: Struct = Struct {
    name: "ResponsesFileContent",
    go: "openai.ResponsesFileContent",
    fields: &[
        ("type", Ty::Str),
        ("file_data", Ty::Str),
        ("file_id", Ty::Str),
        ("file_url", Ty::Str),
        ("filename", Ty::Str),
    ],
};
static FUNCTION_CALL_T: Struct = Struct {
    name: "ResponsesFunctionCall",
    go: "openai.ResponsesFunctionCall",
    fields: &[
        ("id", Ty::Str),
        ("type", Ty::Str),
        ("call_id", Ty::Str),
        ("name", Ty::Str),
        ("arguments", Ty::Str),
    ],
};
static SUMMARY_T: Struct = Struct {
    name: "ResponsesReasoningSummary",
    go: "openai.ResponsesReasoningSummary",
    fields: &[("type", Ty::Str), ("text", Ty::Str)],
};
static SUMMARY: Ty = Ty::Struct(&SUMMARY_T);
static REASONING_INPUT_T: Struct = Struct {
    name: "ResponsesReasoningInput",
    go: "openai.ResponsesReasoningInput",
    fields: &[
        ("id", Ty::Str),
        ("type", Ty::Str),
        (
            "summary",
            Ty::Slice(&SUMMARY, "[]openai.ResponsesReasoningSummary"),
        ),
        ("encrypted_content", Ty::Str),
    ],
};
static ACTION_T: Struct = Struct {
    name: "ResponsesWebSearchAction",
    go: "openai.ResponsesWebSearchAction",
    fields: &[("type", Ty::Str), ("query", Ty::Str)],
};
static ACTION: Ty = Ty::Struct(&ACTION_T);
static WEB_SEARCH_CALL_T: Struct = Struct {
    name: "ResponsesWebSearchCall",
    go: "openai.ResponsesWebSearchCall",
    fields: &[
        ("id", Ty::Str),
        ("type", Ty::Str),
        ("status", Ty::Str),
        ("action", Ty::Ptr(&ACTION)),
    ],
};

static REASONING_T: Struct = Struct {
    name: "ResponsesReasoning",
    go: "openai.ResponsesReasoning",
    fields: &[
        ("effort", Ty::Str),
        ("generate_summary", Ty::Str),
        ("summary", Ty::Str),
    ],
};
static TEXT_FORMAT_T: Struct = Struct {
    name: "ResponsesTextFormat",
    go: "openai.ResponsesTextFormat",
    fields: &[
        ("type", Ty::Str),
        ("name", Ty::Str),
        ("schema", Ty::Raw),
        ("strict", Ty::Ptr(&Ty::Bool)),
    ],
};
static TEXT_FORMAT: Ty = Ty::Struct(&TEXT_FORMAT_T);
static TEXT_T: Struct = Struct {
    name: "ResponsesText",
    go: "openai.ResponsesText",
    fields: &[("format", Ty::Ptr(&TEXT_FORMAT))],
};
static TEXT: Ty = Ty::Struct(&TEXT_T);
/// `openai.ResponsesTool`'s fields, then `$more`.
macro_rules! tool_struct {
    ($($more:expr),*) => {
        Struct {
            name: "ResponsesTool",
            go: "openai.ResponsesTool",
            fields: &[
                ("type", Ty::Str),
                ("name", Ty::Str),
                ("description", Ty::Ptr(&Ty::Str)),
                ("strict", Ty::Ptr(&Ty::Bool)),
                ("parameters", Ty::Map(&Ty::Any, "map[string]interface {}")),
                $($more),*
            ],
        }
    };
}

static TOOL_T: Struct = tool_struct!(("tools", Ty::Slice(&TOOL, "[]openai.ResponsesTool")));
static TOOL: Ty = Ty::Struct(&TOOL_T);
/// `openai.ResponsesTool` before `responses_namespace_tools` (Ollama
/// 0.32.7): no member `tools`.
static TOOL_BEFORE_NAMESPACES_T: Struct = tool_struct!();
static TOOL_BEFORE_NAMESPACES: Ty = Ty::Struct(&TOOL_BEFORE_NAMESPACES_T);

/// `openai.ResponsesRequest`, its `input` decoded by `$input` and its
/// tools as `$tool`.
macro_rules! request_struct {
    ($input:expr, $tool:expr) => {
        Struct {
            name: "ResponsesRequest",
            go: "openai.ResponsesRequest",
            fields: &[
                ("model", Ty::Str),
                ("background", Ty::Bool),
                ("conversation", Ty::Raw),
                ("include", Ty::Slice(&Ty::Str, "[]string")),
                ("input", Ty::Custom($input)),
                ("instructions", Ty::Str),
                ("max_output_tokens", Ty::Ptr(&Ty::Int)),
                ("reasoning", Ty::Struct(&REASONING_T)),
                ("temperature", Ty::Ptr(&Ty::F64)),
                ("text", Ty::Ptr(&TEXT)),
                ("top_p", Ty::Ptr(&Ty::F64)),
                ("truncation", Ty::Ptr(&Ty::Str)),
                ("tools", Ty::Slice($tool, "[]openai.ResponsesTool")),
                ("stream", Ty::Ptr(&Ty::Bool)),
            ],
        }
    };
}

static REQUEST_T: Struct = request_struct!(input, &TOOL);
/// Before `responses_web_search` (Ollama 0.32.10-rc0): no
/// `web_search_call` input items.
static REQUEST_BEFORE_WEB_SEARCH_T: Struct = request_struct!(input_before_web_search, &TOOL);
/// Before `responses_namespace_tools` (Ollama 0.32.7) too: tools have no
/// members.
static REQUEST_BEFORE_NAMESPACES_T: Struct =
    request_struct!(input_before_web_search, &TOOL_BEFORE_NAMESPACES);

fn un(v: &Json, st: &'static Struct) -> Result<Json, GoErr> {
    Ok(godecode::unmarshal(v, &Ty::Struct(st))?.unwrap_or(Json::Object(Map::new())))
}

fn raw_list(v: &Json, what: &str) -> Result<Vec<Json>, GoErr> {
    match v {
        Json::Array(a) => Ok(a.clone()),
        Json::Null => Ok(Vec::new()),
        v => Err(GoErr::msg(format!(
            "{what} must be a string or array: json: cannot unmarshal {} into Go value of type []json.RawMessage",
            godecode::kind(v)
        ))),
    }
}

/// `unmarshalResponsesContent`.
fn content(v: &Json) -> Result<Json, GoErr> {
    let t = un(v, &TYPE_T)?;
    let ty = Got::of(Some(&t)).str("type").to_string();
    let st = match ty.as_str() {
        "input_text" => &TEXT_CONTENT_T,
        "input_image" => &IMAGE_CONTENT_T,
        "output_text" => &OUTPUT_TEXT_CONTENT_T,
        "input_file" => &FILE_CONTENT_T,
        _ => return Err(GoErr::msg(format!("unknown content type: {ty}"))),
    };
    let mut c = un(v, st)?;
    c["kind"] = Json::String(ty);
    Ok(c)
}

fn contents(raw: Option<&Json>, what: &str) -> Result<Option<Vec<Json>>, GoErr> {
    let Some(raw) = raw else { return Ok(None) };
    if let Json::String(_) | Json::Null = raw {
        return Ok(None);
    }
    let items = raw_list(raw, what)?;
    let mut out = Vec::with_capacity(items.len());
    for (i, x) in items.iter().enumerate() {
        out.push(content(x).map_err(|e| GoErr::msg(format!("{what}[{i}]: {e}")))?);
    }
    Ok(Some(out))
}

/// `unmarshalResponsesInputItem`.
fn item(v: &Json, web_search: bool) -> Result<Json, GoErr> {
    let tr = un(v, &TYPE_ROLE_T)?;
    let tr = Got::of(Some(&tr));
    let mut kind = tr.str("type").to_string();
    if kind.is_empty() && !tr.str("role").is_empty() {
        kind = "message".into();
    }
    let mut out = match kind.as_str() {
        "message" => {
            let aux = un(v, &MESSAGE_AUX_T)?;
            let a = Got::of(Some(&aux));
            let mut m = Map::new();
            m.insert("role".into(), Json::String(a.str("role").into()));
            match a.get("content") {
                None => {}
                Some(Json::String(s)) => {
                    m.insert(
                        "content".into(),
                        serde_json::json!([{"kind": "input_text", "text": s}]),
                    );
                }
                Some(Json::Null) => {
                    m.insert(
                        "content".into(),
                        serde_json::json!([{"kind": "input_text", "text": ""}]),
                    );
                }
                raw => {
                    let c = contents(raw, "content")?.unwrap_or_default();
                    m.insert("content".into(), Json::Array(c));
                }
            }
            Json::Object(m)
        }
        "function_call" => un(v, &FUNCTION_CALL_T)?,
        "function_call_output" => {
            let aux = un(v, &OUTPUT_AUX_T)?;
            let a = Got::of(Some(&aux));
            let mut m = Map::new();
            m.insert("call_id".into(), Json::String(a.str("call_id").into()));
            let mut output = String::new();
            match a.get("output") {
                Some(Json::String(s)) => output = s.clone(),
                raw @ Some(_) => {
                    if let Some(items) = contents(raw, "output")? {
                        for c in &items {
                            let g = Got::of(Some(c));
                            if matches!(g.str("kind"), "input_text" | "output_text") {
                                output.push_str(g.str("text"));
                            }
                        }
                        m.insert("items".into(), Json::Array(items));
                    }
                }
                None => {}
            }
            m.insert("output".into(), Json::String(output));
            Json::Object(m)
        }
        "reasoning" => un(v, &REASONING_INPUT_T)?,
        "web_search_call" if web_search => un(v, &WEB_SEARCH_CALL_T)?,
        "" => return Err(GoErr::msg("input item missing required 'type' field")),
        other => {
            return Err(GoErr::msg(format!(
                "unknown input item type: {}",
                gotmpl::strconv::quote(other)
            )))
        }
    };
    out["kind"] = Json::String(kind);
    Ok(out)
}

/// `ResponsesInput.UnmarshalJSON`.
fn input(v: &Json) -> Result<Option<Json>, GoErr> {
    input_with(v, true)
}

/// `ResponsesInput.UnmarshalJSON` before `responses_web_search`.
fn input_before_web_search(v: &Json) -> Result<Option<Json>, GoErr> {
    input_with(v, false)
}

fn input_with(v: &Json, web_search: bool) -> Result<Option<Json>, GoErr> {
    match v {
        Json::String(s) => return Ok(Some(serde_json::json!({ "text": s }))),
        Json::Null => return Ok(Some(serde_json::json!({ "text": "" }))),
        _ => {}
    }
    let items = raw_list(v, "input")?;
    let mut out = Vec::with_capacity(items.len());
    for (i, x) in items.iter().enumerate() {
        out.push(item(x, web_search).map_err(|e| GoErr::msg(format!("input[{i}]: {e}")))?);
    }
    Ok(Some(serde_json::json!({ "items": out })))
}

/// `convertResponsesContent`.
fn convert_content(list: &[Json]) -> Result<(String, Vec<String>), Refused> {
    let mut content = String::new();
    let mut images = Vec::new();
    for c in list {
        let g = Got::of(Some(c));
        match g.str("kind") {
            "input_text" | "output_text" => content.push_str(g.str("text")),
            "input_image" => {
                if g.str("image_url").is_empty() {
                    continue;
                }
                images.push(marshal::image(&decode_image_url(g.str("image_url"))?));
            }
            "input_file" => {
                return Err(Refused::bad("file inputs are not currently supported"));
            }
            _ => {}
        }
    }
    Ok((content, images))
}

fn convert_tool(t: &Got) -> Result<J, Refused> {
    let params = match t.get("parameters") {
        // A map[string]any, marshalled (keys sorted, at every level) and
        // decoded again as api.ToolFunctionParameters.
        Some(p) => {
            let p = godecode::unmarshal(&sorted(p), &PARAMETERS)
                .map_err(|e| Refused::bad(format!("failed to unmarshal tool parameters: {e}")))?
                .unwrap_or(Json::Object(Map::new()));
            marshal::parameters(&Got::of(Some(&p)))
        }
        None => marshal::parameters(&Got::of(None)),
    };
    Ok(marshal::tool(
        t.str("type"),
        None,
        t.str("name"),
        t.str("description"),
        params,
    ))
}

/// A decoded `any` after `json.Marshal`: object keys sorted at every level.
fn sorted(v: &Json) -> Json {
    match v {
        Json::Object(o) => {
            let mut kv: Vec<(&String, &Json)> = o.iter().collect();
            kv.sort_by(|a, b| a.0.cmp(b.0));
            Json::Object(
                kv.into_iter()
                    .map(|(k, x)| (k.clone(), sorted(x)))
                    .collect(),
            )
        }
        Json::Array(a) => Json::Array(a.iter().map(sorted).collect()),
        x => x.clone(),
    }
}

/// A tool as (name, tool) so namespaces can rename their members.
fn convert_tools(t: &Got) -> Result<Vec<(String, J)>, Refused> {
    if t.str("type") != "namespace" {
        return Ok(vec![(t.str("name").to_string(), convert_tool(t)?)]);
    }
    let mut tools = Vec::new();
    for member in t.list("tools") {
        for (mut name, mut tool) in convert_tools(&Got::of(Some(member)))? {
            let prefix = format!("{}.", t.str("name"));
            if !t.str("name").is_empty() && !name.starts_with(&prefix) {
                name = format!("{prefix}{name}");
                rename(&mut tool, &name);
            }
            tools.push((name, tool));
        }
    }
    Ok(tools)
}

fn rename(tool: &mut J, name: &str) {
    if let J::Obj(o) = tool {
        for (k, v) in o.iter_mut() {
            if k == "function" {
                if let J::Obj(f) = v {
                    for (fk, fv) in f.iter_mut() {
                        if fk == "name" {
                            *fv = J::s(name);
                        }
                    }
                }
            }
        }
    }
}

/// ResponsesMiddleware and `FromResponsesRequest`.
pub(crate) fn convert(
    body: &Json,
    rules: &changes::Rules,
) -> Result<(Endpoint, J, Flags), Refused> {
    // the web-search rows are consulted only where a request names it
    let web_search = if body.to_string().contains("web_search") {
        rules.on(&changes::ollama::RESPONSES_WEB_SEARCH)
    } else {
        rules.has(&changes::ollama::RESPONSES_WEB_SEARCH)
    };
    let names_tool = |kind: &str| {
        body.get("tools")
            .and_then(Json::as_array)
            .is_some_and(|ts| {
                ts.iter()
                    .any(|t| t.get("type").and_then(Json::as_str) == Some(kind))
            })
    };
    let namespaces = if names_tool("namespace") {
        rules.on(&changes::ollama::RESPONSES_NAMESPACE_TOOLS)
    } else {
        rules.has(&changes::ollama::RESPONSES_NAMESPACE_TOOLS)
    };
    let v = bind(
        body,
        match (web_search, namespaces) {
            (true, _) => &REQUEST_T,
            (false, true) => &REQUEST_BEFORE_WEB_SEARCH_T,
            (false, false) => &REQUEST_BEFORE_NAMESPACES_T,
        },
    )?;
    let r = Got::of(Some(&v));
    let mut messages: Vec<ApiMessage> = Vec::new();
    if !r.str("instructions").is_empty() {
        messages.push(ApiMessage::new("system", r.str("instructions")));
    }
    let input = r.sub("input");
    if !input.str("text").is_empty() {
        messages.push(ApiMessage::new("user", input.str("text")));
    }
    let items = input.list("items");
    let mut pending = String::new();
    for (i, it) in items.iter().enumerate() {
        let g = Got::of(Some(it));
        match g.str("kind") {
            "reasoning" => pending = g.str("encrypted_content").to_string(),
            "message" => {
                let (content, images) = convert_content(g.list("content"))?;
                let mut msg = ApiMessage {
                    role: g.str("role").into(),
                    content,
                    images,
                    ..ApiMessage::default()
                };
                if msg.role == "assistant" && !pending.is_empty() {
                    msg.thinking = std::mem::take(&mut pending);
                }
                let output_call_id = items
                    .get(i + 1)
                    .map(|n| Got::of(Some(n)))
                    .filter(|n| n.str("kind") == "function_call_output")
                    .map(|n| n.str("call_id").to_string())
                    .unwrap_or_default();
                if msg.role == "assistant" && !output_call_id.is_empty() {
                    if let Some(last) = messages.last_mut() {
                        let calls = last.tool_calls.as_deref().unwrap_or(&[]);
                        if last.role == "assistant"
                            && !calls.is_empty()
                            && calls.iter().any(|c| c.id == output_call_id)
                            && rules.on(&changes::ollama::RESPONSES_MERGE_REPLAYED_ASSISTANT)
                        {
                            if !last.content.is_empty() && !msg.content.is_empty() {
                                last.content.push('\n');
                            }
                            last.content.push_str(&msg.content);
                            last.images.extend(msg.images);
                            if !msg.thinking.is_empty() {
                                last.thinking = msg.thinking;
                            }
                            continue;
                        }
                    }
                }
                messages.push(msg);
            }
            "function_call" => {
                let args = if g.str("arguments").is_empty() {
                    None
                } else {
                    Some(
                        marshal::arguments_from_text(g.str("arguments")).map_err(|e| {
                            Refused::bad(format!("failed to parse function call arguments: {e}"))
                        })?,
                    )
                };
                let call = ApiToolCall {
                    id: g.str("call_id").into(),
                    index: 0,
                    name: g.str("name").into(),
                    args,
                };
                match messages.last_mut().filter(|m| m.role == "assistant") {
                    Some(last) => {
                        last.tool_calls.get_or_insert_with(Vec::new).push(call);
                        if !pending.is_empty() {
                            last.thinking = std::mem::take(&mut pending);
                        }
                    }
                    None => messages.push(ApiMessage {
                        role: "assistant".into(),
                        tool_calls: Some(vec![call]),
                        thinking: std::mem::take(&mut pending),
                        ..ApiMessage::default()
                    }),
                }
            }
            "function_call_output" => {
                let mut content = g.str("output").to_string();
                let mut images = Vec::new();
                if !g.list("items").is_empty() {
                    (content, images) = convert_content(g.list("items"))?;
                }
                messages.push(ApiMessage {
                    role: "tool".into(),
                    content,
                    images,
                    tool_call_id: g.str("call_id").into(),
                    ..ApiMessage::default()
                });
            }
            _ => {}
        }
    }
    if !pending.is_empty() {
        messages.push(ApiMessage {
            role: "assistant".into(),
            thinking: pending,
            ..ApiMessage::default()
        });
    }
    let mut options = vec![(
        "temperature".to_string(),
        J::float(
            r.get("temperature").and_then(Json::as_f64).unwrap_or(1.0),
            64,
        ),
    )];
    if let Some(p) = r.get("top_p") {
        options.push(("top_p".into(), J::float(p.as_f64().unwrap_or(0.0), 64)));
    }
    if let Some(n) = r.get("max_output_tokens") {
        options.push(("num_predict".into(), J::int(n.as_i64().unwrap_or(0))));
    }
    let think = think_from_effort(r.sub("reasoning").str("effort"), rules, false)?;
    let tool_list = r.list("tools");
    let has_web_search = web_search
        && tool_list
            .iter()
            .any(|t| Got::of(Some(t)).str("type") == "web_search");
    let mut tools = Vec::new();
    for t in tool_list {
        let g = Got::of(Some(t));
        if web_search && g.str("type") == "web_search" {
            tools.push(marshal::web_search_tool(
                "Search the web for current information.",
                "The search query.",
            ));
            continue;
        }
        let converted = if namespaces {
            convert_tools(&g)?
        } else {
            vec![(g.str("name").to_string(), convert_tool(&g)?)]
        };
        for (name, tool) in converted {
            if has_web_search && name == "web_search" {
                continue;
            }
            tools.push(tool);
        }
    }
    let format = match r.get("text") {
        Some(_) => {
            let f = r.sub("text").sub("format");
            if f.str("type") == "json_schema" {
                f.get("schema").cloned()
            } else {
                None
            }
        }
        None => None,
    };
    let stream = r.get("stream").and_then(Json::as_bool).unwrap_or(false);
    let common = Common {
        stream: Some(stream),
        format,
        tools: Some(tools),
        options,
        think,
        ..Common::default()
    };
    Ok((
        Endpoint::Chat,
        marshal::chat_request(r.str("model"), &messages, common),
        Flags {
            stream,
            include_usage: false,
            web_search: has_web_search,
        },
    ))
}

/// The decoded `openai.ResponsesRequest` (its writer echoes fields back).
pub(crate) fn decode(body: &Json) -> Json {
    bind(body, &REQUEST_T).unwrap_or(Json::Object(Map::new()))
}
