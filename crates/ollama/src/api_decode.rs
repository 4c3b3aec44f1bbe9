//! `api.ChatRequest` and `api.GenerateRequest` decoded as the handlers'
//! `c.ShouldBindJSON` decodes them (Go 1.26 `encoding/json` through
//! [`crate::godecode`]), with Ollama's own unmarshalers: `api.Message`
//! (through a local `Alias` type, the role lowercased), `ThinkValue`,
//! `Duration` (`keep_alive`), `ToolCallFunctionArguments`, `PropertyType`,
//! `ToolPropertiesMap`.

use serde_json::{Map, Value as Json};

use crate::api::{
    ChatRequest, DecodeError, GenerateRequest, ImageData, Message, Think, Tool, ToolCall,
    ToolCallFunction, ToolFunction, ToolFunctionParameters, ToolProperty,
};
use crate::compat::marshal::TOOL;
use crate::godecode::{self, GoErr, Got, Struct, Ty};

type D<T> = Result<T, DecodeError>;

fn think(v: &Json) -> Result<Option<Json>, GoErr> {
    match v {
        Json::Bool(_) => Ok(Some(v.clone())),
        Json::Null => Ok(Some(Json::Bool(false))),
        Json::String(s) => {
            if !matches!(s.as_str(), "high" | "medium" | "low" | "max") {
                return Err(GoErr::msg(format!(
                    "invalid think value: {} (must be \"high\", \"medium\", \"low\", \"max\", true, or false)",
                    gotmpl::strconv::quote(s)
                )));
            }
            Ok(Some(v.clone()))
        }
        _ => Err(GoErr::msg(
            "think must be a boolean or string (\"high\", \"medium\", \"low\", \"max\", true, or false)",
        )),
    }
}

/// `time.ParseDuration`'s check, with its error texts.
pub fn parse_duration(orig: &str) -> Result<(), String> {
    duration_nanos(orig).map(|_| ())
}

/// Whether a `keep_alive` string is a zero duration (`0`, `0s`, `-0m`).
pub fn duration_is_zero(s: &str) -> bool {
    duration_nanos(s) == Ok(0)
}

/// `time.ParseDuration`'s magnitude in nanoseconds, or its error text.
fn duration_nanos(orig: &str) -> Result<u128, String> {
    fn quote(s: &str) -> String {
        let mut out = String::from("\"");
        for c in s.chars() {
            if (c as u32) >= 0x80 || c < ' ' {
                let mut b = [0u8; 4];
                for byte in c.encode_utf8(&mut b).bytes() {
                    out.push_str(&format!("\\x{byte:02x}"));
                }
            } else {
                if c == '"' || c == '\\' {
                    out.push('\\');
                }
                out.push(c);
            }
        }
        out.push('"');
        out
    }
    let invalid = || Err(format!("time: invalid duration {}", quote(orig)));
    let mut s = orig;
    if let Some(r) = s.strip_prefix(['-', '+']) {
        s = r;
    }
    if s == "0" {
        return Ok(0);
    }
    if s.is_empty() {
        return invalid();
    }
    let mut total: u128 = 0;
    while !s.is_empty() {
        let b = s.as_bytes();
        if !(b[0] == b'.' || b[0].is_ascii_digit()) {
            return invalid();
        }
        let int_len = b.iter().take_while(|c| c.is_ascii_digit()).count();
        let int: u128 = if int_len > 0 {
            match s[..int_len].parse::<u64>() {
                Ok(v) if v <= 1 << 63 => v as u128,
                _ => return invalid(),
            }
        } else {
            0
        };
        s = &s[int_len..];
        let mut frac_len = 0;
        let mut frac = "";
        if let Some(r) = s.strip_prefix('.') {
            frac_len = r.bytes().take_while(|c| c.is_ascii_digit()).count();
            frac = &r[..frac_len];
            s = &r[frac_len..];
            if int_len == 0 && frac_len == 0 {
                return invalid();
            }
        } else if int_len == 0 {
            return invalid();
        }
        let unit_len = s
            .char_indices()
            .find(|(_, c)| *c == '.' || c.is_ascii_digit())
            .map_or(s.len(), |(i, _)| i);
        if unit_len == 0 {
            return Err(format!("time: missing unit in duration {}", quote(orig)));
        }
        let unit = &s[..unit_len];
        s = &s[unit_len..];
        let scale: u128 = match unit {
            "ns" => 1,
            "us" | "\u{b5}s" | "\u{3bc}s" => 1_000,
            "ms" => 1_000_000,
            "s" => 1_000_000_000,
            "m" => 60_000_000_000,
            "h" => 3_600_000_000_000,
            _ => {
                return Err(format!(
                    "time: unknown unit {} in duration {}",
                    quote(unit),
                    quote(orig)
                ))
            }
        };
        if int > (1u128 << 63) / scale {
            return invalid();
        }
        let mut v = int * scale;
        if frac_len > 0 {
            let digits = frac.get(..frac_len.min(18)).unwrap_or(frac);
            let f: u128 = digits.parse().unwrap_or(0);
            v += f * scale / 10u128.pow(digits.len() as u32);
        }
        total += v;
        if total > 1u128 << 63 {
            return invalid();
        }
    }
    if total == 1u128 << 63 && !orig.starts_with('-') {
        return invalid();
    }
    Ok(total)
}

fn duration(v: &Json) -> Result<Option<Json>, GoErr> {
    match v {
        Json::Number(_) => Ok(Some(v.clone())),
        Json::String(s) => parse_duration(s)
            .map(|_| Some(v.clone()))
            .map_err(GoErr::Msg),
        other => Err(GoErr::msg(format!(
            "Unsupported type: '{}'",
            match other {
                Json::Bool(_) => "bool",
                Json::Array(_) => "[]interface {}",
                Json::Object(_) => "map[string]interface {}",
                _ => "<nil>",
            }
        ))),
    }
}

fn arguments(v: &Json) -> Result<Option<Json>, GoErr> {
    crate::compat::marshal::arguments(v).map(Some)
}

static FUNCTION_T: Struct = Struct {
    name: "ToolCallFunction",
    go: "api.ToolCallFunction",
    fields: &[
        ("index", Ty::Int),
        ("name", Ty::Str),
        ("arguments", Ty::Custom(arguments)),
    ],
};
static TOOL_CALL_T: Struct = Struct {
    name: "ToolCall",
    go: "api.ToolCall",
    fields: &[("id", Ty::Str), ("function", Ty::Struct(&FUNCTION_T))],
};
static TOOL_CALL: Ty = Ty::Struct(&TOOL_CALL_T);
static IMAGE: Ty = Ty::Bytes("api.ImageData");
static ALIAS_T: Struct = Struct {
    name: "Alias",
    go: "api.Alias",
    fields: &[
        ("role", Ty::Str),
        ("content", Ty::Str),
        ("thinking", Ty::Str),
        ("images", Ty::Slice(&IMAGE, "[]api.ImageData")),
        ("tool_calls", Ty::Slice(&TOOL_CALL, "[]api.ToolCall")),
        ("tool_name", Ty::Str),
        ("tool_call_id", Ty::Str),
    ],
};

/// `Message.UnmarshalJSON`: decoded as the local `Alias` type.
fn message(v: &Json) -> Result<Option<Json>, GoErr> {
    godecode::unmarshal(v, &Ty::Struct(&ALIAS_T))
        .map(|m| Some(m.unwrap_or(Json::Object(Map::new()))))
}

static MESSAGE: Ty = Ty::Custom(message);
static THINK: Ty = Ty::Custom(think);
static DURATION: Ty = Ty::Custom(duration);

static CHAT_T: Struct = Struct {
    name: "ChatRequest",
    go: "api.ChatRequest",
    fields: &[
        ("model", Ty::Str),
        ("messages", Ty::Slice(&MESSAGE, "[]api.Message")),
        ("stream", Ty::Ptr(&Ty::Bool)),
        ("format", Ty::Raw),
        ("keep_alive", Ty::Ptr(&DURATION)),
        ("tools", Ty::Slice(&TOOL, "api.Tools")),
        ("options", Ty::Map(&Ty::Any, "map[string]interface {}")),
        ("think", Ty::Ptr(&THINK)),
        ("truncate", Ty::Ptr(&Ty::Bool)),
        ("shift", Ty::Ptr(&Ty::Bool)),
        ("_debug_render_only", Ty::Bool),
        ("logprobs", Ty::Bool),
        ("top_logprobs", Ty::Int),
    ],
};

/// `api.GenerateRequest`'s fields, and those a release adds after them.
macro_rules! generate_struct {
    ($name:ident $(, $extra:expr)*) => {
        static $name: Struct = Struct {
            name: "GenerateRequest",
            go: "api.GenerateRequest",
            fields: &[
                ("model", Ty::Str),
                ("prompt", Ty::Str),
                ("suffix", Ty::Str),
                ("system", Ty::Str),
                ("template", Ty::Str),
                ("context", Ty::Slice(&Ty::Int, "[]int")),
                ("stream", Ty::Ptr(&Ty::Bool)),
                ("raw", Ty::Bool),
                ("format", Ty::Raw),
                ("keep_alive", Ty::Ptr(&DURATION)),
                ("images", Ty::Slice(&IMAGE, "[]api.ImageData")),
                ("options", Ty::Map(&Ty::Any, "map[string]interface {}")),
                ("think", Ty::Ptr(&THINK)),
                ("truncate", Ty::Ptr(&Ty::Bool)),
                ("shift", Ty::Ptr(&Ty::Bool)),
                ("_debug_render_only", Ty::Bool),
                ("logprobs", Ty::Bool),
                ("top_logprobs", Ty::Int),
                $($extra,)*
            ],
        };
    };
}
generate_struct!(GENERATE_T);
// before `generate_image_fields`: the image-generation runner's size and steps
generate_struct!(
    GENERATE_T_WITH_IMAGE_FIELDS,
    ("width", Ty::I32),
    ("height", Ty::I32),
    ("steps", Ty::I32)
);

static EMBED_T: Struct = Struct {
    name: "EmbedRequest",
    go: "api.EmbedRequest",
    fields: &[
        ("model", Ty::Str),
        ("input", Ty::Any),
        ("keep_alive", Ty::Ptr(&DURATION)),
        ("truncate", Ty::Ptr(&Ty::Bool)),
        ("dimensions", Ty::Int),
        ("options", Ty::Map(&Ty::Any, "map[string]interface {}")),
    ],
};

static EMBEDDING_T: Struct = Struct {
    name: "EmbeddingRequest",
    go: "api.EmbeddingRequest",
    fields: &[
        ("model", Ty::Str),
        ("prompt", Ty::Str),
        ("keep_alive", Ty::Ptr(&DURATION)),
        ("options", Ty::Map(&Ty::Any, "map[string]interface {}")),
    ],
};

/// An `/api/embed` body (`api.EmbedRequest`) as the handler decodes it:
/// the fields set, by their JSON names (`input` as Go's `any` holds it).
pub fn embed(v: &Json) -> D<Map<String, Json>> {
    unmarshal(v, &EMBED_T).map(|j| match j {
        Json::Object(o) => o,
        _ => Map::new(),
    })
}

/// An `/api/embeddings` body (`api.EmbeddingRequest`).
pub fn embedding(v: &Json) -> D<Map<String, Json>> {
    unmarshal(v, &EMBEDDING_T).map(|j| match j {
        Json::Object(o) => o,
        _ => Map::new(),
    })
}

fn unmarshal(v: &Json, st: &'static Struct) -> D<Json> {
    godecode::unmarshal(v, &Ty::Struct(st))
        .map(|x| x.unwrap_or(Json::Object(Map::new())))
        .map_err(|e| DecodeError(e.text()))
}

fn images(list: &[Json]) -> Vec<ImageData> {
    list.iter()
        .map(|b| ImageData(crate::api::base64_decode(b.as_str().unwrap_or("")).unwrap_or_default()))
        .collect()
}

fn strings(v: Option<&Json>) -> Option<Vec<String>> {
    v?.as_array().map(|a| {
        a.iter()
            .map(|s| s.as_str().unwrap_or("").to_string())
            .collect()
    })
}

fn property(v: &Json) -> ToolProperty {
    let g = Got::of(Some(v));
    ToolProperty {
        any_of: g.list("anyOf").iter().map(property).collect(),
        type_: strings(g.get("type")).unwrap_or_default(),
        items: g.get("items").cloned(),
        description: g.str("description").into(),
        enum_: g.get("enum").and_then(Json::as_array).cloned(),
        properties: properties(g.get("properties")),
        required: strings(g.get("required")),
    }
}

fn properties(v: Option<&Json>) -> Option<Vec<(String, ToolProperty)>> {
    v?.as_object()
        .map(|o| o.iter().map(|(k, p)| (k.clone(), property(p))).collect())
}

fn tool(v: &Json) -> Tool {
    let g = Got::of(Some(v));
    let f = g.sub("function");
    let p = f.sub("parameters");
    Tool {
        type_: g.str("type").into(),
        items: g.get("items").cloned(),
        function: ToolFunction {
            name: f.str("name").into(),
            description: f.str("description").into(),
            parameters: ToolFunctionParameters {
                type_: p.str("type").into(),
                defs: p.get("$defs").cloned(),
                items: p.get("items").cloned(),
                required: strings(p.get("required")),
                properties: properties(p.get("properties")),
            },
        },
    }
}

fn messages(list: &[Json]) -> Vec<Message> {
    list.iter()
        .map(|m| {
            let g = Got::of(Some(m));
            Message {
                role: crate::renderers::text::to_lower(g.str("role")),
                content: g.str("content").into(),
                thinking: g.str("thinking").into(),
                images: images(g.list("images")),
                tool_calls: g
                    .list("tool_calls")
                    .iter()
                    .map(|c| {
                        let c = Got::of(Some(c));
                        let f = c.sub("function");
                        ToolCall {
                            id: c.str("id").into(),
                            function: ToolCallFunction {
                                index: f.int("index"),
                                name: f.str("name").into(),
                                arguments: f.get("arguments").and_then(Json::as_object).cloned(),
                                arguments_null: f.get("arguments").is_some_and(Json::is_null),
                            },
                        }
                    })
                    .collect(),
                tool_name: g.str("tool_name").into(),
                tool_call_id: g.str("tool_call_id").into(),
            }
        })
        .collect()
}

fn think_of(g: &Got) -> Option<Think> {
    match g.get("think")? {
        Json::Bool(b) => Some(Think::Bool(*b)),
        Json::String(s) => Some(Think::Level(s.clone())),
        _ => None,
    }
}

/// Decodes an `/api/chat` body.
pub fn chat(v: &Json) -> D<ChatRequest> {
    let d = unmarshal(v, &CHAT_T)?;
    let g = Got::of(Some(&d));
    Ok(ChatRequest {
        model: g.str("model").into(),
        messages: messages(g.list("messages")),
        tools: g
            .get("tools")
            .and_then(Json::as_array)
            .map(|a| a.iter().map(tool).collect()),
        think: think_of(&g),
        options: g.get("options").and_then(Json::as_object).cloned(),
        truncate: g.get("truncate").and_then(Json::as_bool),
        debug_render_only: g.bool("_debug_render_only"),
        top_logprobs: g.int("top_logprobs"),
        format: g.get("format").is_some(),
    })
}

/// Decodes an `/api/generate` body.
pub fn generate(v: &Json) -> D<GenerateRequest> {
    generate_in(v, changes::Release::NEWEST)
}

/// [`generate`] as a release's `api.GenerateRequest` has it (with `width`,
/// `height` and `steps` before `generate_image_fields`).
pub fn generate_in(v: &Json, release: changes::Release) -> D<GenerateRequest> {
    let t = if release.has(&changes::ollama::GENERATE_IMAGE_FIELDS) {
        &GENERATE_T
    } else {
        &GENERATE_T_WITH_IMAGE_FIELDS
    };
    let d = unmarshal(v, t)?;
    let g = Got::of(Some(&d));
    Ok(GenerateRequest {
        model: g.str("model").into(),
        prompt: g.str("prompt").into(),
        suffix: g.str("suffix").into(),
        system: g.str("system").into(),
        template: g.str("template").into(),
        context: g
            .get("context")
            .and_then(Json::as_array)
            .map(|a| a.iter().map(|n| n.as_i64().unwrap_or(0)).collect()),
        raw: g.bool("raw"),
        images: images(g.list("images")),
        think: think_of(&g),
        options: g.get("options").and_then(Json::as_object).cloned(),
        truncate: g.get("truncate").and_then(Json::as_bool),
        debug_render_only: g.bool("_debug_render_only"),
        top_logprobs: g.int("top_logprobs"),
    })
}

/// Decodes a list of `api.Message` (Modelfile `MESSAGE`s as a case gives them).
pub fn message_list(v: &Json) -> D<Vec<Message>> {
    let d = godecode::unmarshal(v, &Ty::Slice(&MESSAGE, "[]api.Message"))
        .map_err(|e| DecodeError(e.text()))?;
    Ok(messages(
        d.as_ref()
            .and_then(Json::as_array)
            .map(Vec::as_slice)
            .unwrap_or(&[]),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_like_go() {
        for ok in [
            "5m", "0", "-1s", "1h2m3.5s", ".5s", "1.s", "300ms", "2\u{b5}s",
        ] {
            assert_eq!(parse_duration(ok), Ok(()), "{ok}");
        }
        assert_eq!(
            parse_duration("xyz"),
            Err("time: invalid duration \"xyz\"".into())
        );
        assert_eq!(
            parse_duration("5"),
            Err("time: missing unit in duration \"5\"".into())
        );
        assert_eq!(
            parse_duration("5d"),
            Err("time: unknown unit \"d\" in duration \"5d\"".into())
        );
        assert_eq!(
            parse_duration(""),
            Err("time: invalid duration \"\"".into())
        );
        assert_eq!(
            parse_duration("é"),
            Err("time: invalid duration \"\\xc3\\xa9\"".into())
        );
    }
}
