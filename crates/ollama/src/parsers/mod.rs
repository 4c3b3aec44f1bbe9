//! Ollama's built-in output parsers (`model/parsers`), file for file: each
//! Go file `model/parsers/X.go` is `parsers/X.rs` here, and `parsers.go`
//! (the `Parser` interface, `ParserForName`, `PassthroughParser` and the
//! string helpers) is this module.
//!
//! A parser turns the runner's streamed text into `content`, `thinking`
//! and tool calls. The `/api/chat` and `/api/generate` handlers build one
//! with [`parser_for_name`] from the model's `PARSER` (or `harmony` for
//! gpt-oss), call [`Parser::init`] once with the request's tools, the last
//! message (chat only: prefill) and `think`, then [`Parser::add`] for each
//! piece the runner sends and once more, with `done`, at the end.
//!
//! The capability table ([`parser_capabilities`]) feeds
//! `Model.Capabilities()`; `Init`'s returned tools feed the prompt.

use serde_json::{Map, Value as Json};

use crate::api::{Message, Think, Tool, ToolCall, ToolCallFunction, ToolProperty};
use crate::gojson::J;
use gotmpl::unicode::is_space;

mod cogito;
mod cohere;
mod deepseek3;
mod functiongemma;
mod gemma4;
mod glimmer;
mod glm46;
mod glm47;
mod glmocr;
pub(crate) mod gojson_decode;
#[cfg(test)]
pub(crate) mod golden_support;
mod laguna;
mod lfm2;
mod ministral;
mod nemotron3nano;
mod olmo3;
mod olmo3_think;
mod qwen3;
mod qwen35;
mod qwen3coder;
mod qwen3vl;

/// What one [`Parser::add`] gives back: Go's `(content, thinking, calls)`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Added {
    /// Content to emit now.
    pub content: String,
    /// Thinking to emit now.
    pub thinking: String,
    /// Tool calls completed by this piece (Go's `nil` is empty).
    pub calls: Vec<ToolCall>,
}

impl Added {
    /// Content only.
    pub fn content(s: impl Into<String>) -> Added {
        Added {
            content: s.into(),
            ..Added::default()
        }
    }
}

/// `parsers.Parser`. Errors are Go's `err.Error()` texts.
pub trait Parser {
    /// `Init(tools, lastMessage, thinkValue)`: the tools to render with.
    fn init(
        &mut self,
        tools: &[Tool],
        last_message: Option<&Message>,
        think: Option<&Think>,
    ) -> Vec<Tool>;
    /// `Add(s, done)`.
    fn add(&mut self, s: &str, done: bool) -> Result<Added, String>;
    /// `PreservedTokens()`.
    fn preserved_tokens(&self) -> Vec<String>;
    /// `HasToolSupport()`.
    fn has_tool_support(&self) -> bool;
    /// `HasThinkingSupport()`.
    fn has_thinking_support(&self) -> bool;
    /// Takes the parser as an Ollama release has it (the rows of
    /// `changes::ollama::TABLE` that act in it; the newest by default).
    fn set_release(&mut self, _rules: &changes::Rules) {}
    /// The rows whose behaviours parted on the output so far (where the
    /// release decided what the parser made of it).
    fn rows_reached(&self) -> Vec<&'static changes::Change> {
        Vec::new()
    }
}

/// A module's constructors: by `ParserForName` name, and by Go type name
/// with the struct's configuration fields (how Ollama's tests build them).
pub(crate) struct Constructors {
    pub by_name: fn(&str) -> Option<Box<dyn Parser>>,
    pub by_go_type: fn(&str, &Config) -> Option<Box<dyn Parser>>,
}

/// A Go struct literal's configuration fields, by Go field name.
pub(crate) type Config = Map<String, Json>;

fn modules() -> [Constructors; 20] {
    [
        passthrough_constructors(),
        cogito::constructors(),
        cohere::constructors(),
        deepseek3::constructors(),
        functiongemma::constructors(),
        gemma4::constructors(),
        glimmer::constructors(),
        glm46::constructors(),
        glm47::constructors(),
        glmocr::constructors(),
        laguna::constructors(),
        lfm2::constructors(),
        ministral::constructors(),
        nemotron3nano::constructors(),
        olmo3::constructors(),
        olmo3_think::constructors(),
        qwen3::constructors(),
        qwen35::constructors(),
        qwen3coder::constructors(),
        qwen3vl::constructors(),
    ]
}

/// `parsers.ParserForName(name)`; `None` for a name it does not know.
pub fn parser_for_name(name: &str) -> Option<Box<dyn Parser>> {
    if name == "harmony" {
        return Some(Box::new(crate::harmony::HarmonyMessageHandler::new()));
    }
    modules().iter().find_map(|m| (m.by_name)(name))
}

/// `ParserForName(name)` as `release` has it: a parser the release does
/// not have yet is nil, and one it has reads as the release's does.
pub fn parser_for_name_in(name: &str, release: changes::Release) -> Option<Box<dyn Parser>> {
    if !known_in(name, release) {
        return None;
    }
    let mut p = parser_for_name(name)?;
    p.set_release(&changes::Rules::of_release(release));
    Some(p)
}

/// The parser a Go test builds as `&T{field: value, ...}` (`ty` is the Go
/// type name, `config` its non-zero configuration fields by Go name).
#[doc(hidden)]
pub fn for_go_type(ty: &str, config: &Map<String, Json>) -> Option<Box<dyn Parser>> {
    if ty == "HarmonyMessageHandler" {
        return Some(Box::new(crate::harmony::HarmonyMessageHandler::new()));
    }
    modules().iter().find_map(|m| (m.by_go_type)(ty, config))
}

/// A bool configuration field of a Go struct literal (absent = `false`).
pub(crate) fn cfg_bool(config: &Config, field: &str) -> bool {
    config.get(field).and_then(Json::as_bool).unwrap_or(false)
}

/// `PassthroughParser`: everything is content.
#[derive(Clone, Debug, Default)]
pub struct PassthroughParser;

impl Parser for PassthroughParser {
    fn init(&mut self, tools: &[Tool], _: Option<&Message>, _: Option<&Think>) -> Vec<Tool> {
        tools.to_vec()
    }
    fn add(&mut self, s: &str, _done: bool) -> Result<Added, String> {
        Ok(Added::content(s))
    }
    fn preserved_tokens(&self) -> Vec<String> {
        Vec::new()
    }
    fn has_tool_support(&self) -> bool {
        false
    }
    fn has_thinking_support(&self) -> bool {
        false
    }
}

fn passthrough_constructors() -> Constructors {
    fn make() -> Box<dyn Parser> {
        Box::new(PassthroughParser)
    }
    Constructors {
        by_name: |n| (n == "passthrough").then(make),
        by_go_type: |t, _| (t == "PassthroughParser").then(make),
    }
}

/// `strings.TrimRightFunc(s, unicode.IsSpace)`.
pub(crate) fn trim_right_space(s: &str) -> &str {
    s.trim_end_matches(is_space)
}

/// `strings.TrimLeftFunc(s, unicode.IsSpace)`.
pub(crate) fn trim_left_space(s: &str) -> &str {
    s.trim_start_matches(is_space)
}

/// `strings.TrimSpace(s)`.
pub(crate) fn trim_space(s: &str) -> &str {
    trim_left_space(trim_right_space(s))
}

/// `splitAtTag(sb, tag, trimAfter)`: the text before `tag` (trailing space
/// trimmed) and after it (leading space trimmed when `trim_after`); the
/// buffer keeps what is after. Without the tag the buffer empties and the
/// whole text comes back as "before".
pub(crate) fn split_at_tag(sb: &mut String, tag: &str, trim_after: bool) -> (String, String) {
    let Some(i) = sb.find(tag) else {
        return (std::mem::take(sb), String::new());
    };
    let before = trim_right_space(&sb[..i]).to_string();
    let mut after = &sb[i + tag.len()..];
    if trim_after {
        after = trim_left_space(after);
    }
    let after = after.to_string();
    *sb = after.clone();
    (before, after)
}

/// `overlap(s, delim)`: the longest suffix of `s` that is a prefix of
/// `delim`, in bytes.
pub(crate) fn overlap(s: &str, delim: &str) -> usize {
    let max = delim.len().min(s.len());
    (1..=max)
        .rev()
        .find(|&i| s.as_bytes().ends_with(&delim.as_bytes()[..i]))
        .unwrap_or(0)
}

/// `trailingWhitespaceLen(s)`: the length in bytes of trailing white space
/// (Go's `unicode.IsSpace`).
pub(crate) fn trailing_whitespace_len(s: &str) -> usize {
    s.len() - trim_right_space(s).len()
}

/// `strconv.ParseInt(s, 10, 64)`: an optional sign and decimal digits (no
/// underscores, no base prefix); `None` on a syntax or range error.
pub(crate) fn parse_int10(s: &str) -> Option<i64> {
    let (neg, digits) = match s.as_bytes().first()? {
        b'+' => (false, &s[1..]),
        b'-' => (true, &s[1..]),
        _ => (false, s),
    };
    if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let mut n: u64 = 0;
    for c in digits.bytes() {
        n = n.checked_mul(10)?.checked_add(u64::from(c - b'0'))?;
    }
    if neg {
        if n > 1 << 63 {
            return None;
        }
        Some((n as i64).wrapping_neg())
    } else {
        i64::try_from(n).ok()
    }
}

/// `strconv.ParseFloat(s, 64)`: decimal and hexadecimal forms with
/// underscores, `inf`/`infinity` (signed or not) and an unsigned `nan`,
/// any case; `None` on a syntax or range error. (`gotmpl::strconv::
/// parse_float` but for a signed NaN: Go's `special` takes a sign only
/// before `inf`/`infinity`, so `+nan` and `-nan` are syntax errors.)
pub(crate) fn parse_float64(s: &str) -> Option<f64> {
    if s.strip_prefix(['+', '-'])
        .is_some_and(|u| u.eq_ignore_ascii_case("nan"))
    {
        return None;
    }
    gotmpl::strconv::parse_float(s).ok()
}

/// Go's `int64(f)` for a whole float on amd64 (where the recorded runs
/// were made): exact within range; out of range (and ±Inf) the "integer
/// indefinite" value CVTTSD2SQ gives, `math.MinInt64`.
pub(crate) fn go_f64_to_i64(f: f64) -> i64 {
    // -2^63 <= f < 2^63
    if (-9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0).contains(&f) {
        f as i64
    } else {
        i64::MIN
    }
}

/// A Go `float64` as a JSON value. NaN and the infinities have no JSON
/// form: Go's `json.Marshal` fails on them (`json: unsupported value:
/// NaN`, and the response with it); they are null here.
pub(crate) fn float_json(f: f64) -> Json {
    serde_json::Number::from_f64(f)
        .map(Json::Number)
        .unwrap_or(Json::Null)
}

/// An `api.ToolCall` of `name` with its arguments (`ID` empty, `Index` 0:
/// the parsers set the index as they hand calls out).
pub(crate) fn tool_call(name: impl Into<String>, args: gojson_decode::Args) -> ToolCall {
    ToolCall {
        id: String::new(),
        function: ToolCallFunction {
            index: 0,
            name: name.into(),
            arguments: args.map,
            arguments_null: args.null,
        },
    }
}

/// `ToolPropertiesMap.Get(key)` on properties as the API decodes them (an
/// ordered map: a key set twice keeps its last value).
pub(crate) fn properties_get<'a>(
    props: &'a [(String, ToolProperty)],
    key: &str,
) -> Option<&'a ToolProperty> {
    props.iter().rev().find(|(k, _)| k == key).map(|(_, p)| p)
}

/// `tool.Function.Parameters.Properties.Get(key)`.
pub(crate) fn tool_property<'a>(tool: &'a Tool, key: &str) -> Option<&'a ToolProperty> {
    properties_get(tool.function.parameters.properties.as_ref()?, key)
}

/// The `paramType` qwen3coder.go, glm46.go, laguna.go and glimmer.go each
/// gather (inline, the same lines) for a declared property before
/// `parseValue`/`parseTypedToolValue`: the `anyOf` options' types, in
/// order, or else the property's own.
pub(crate) fn property_types(prop: &ToolProperty) -> Vec<String> {
    if !prop.any_of.is_empty() {
        prop.any_of.iter().flat_map(|p| p.type_.clone()).collect()
    } else {
        prop.type_.clone()
    }
}

/// A Go `any` value as `encoding/json` writes it: an integer
/// [`serde_json::Number`] stands for a Go `int`, a float one for a
/// `float64` (Go's float format); an object for a `map[string]any` (keys
/// sorted).
pub fn go_any(v: &Json) -> J {
    match v {
        Json::Number(n) if n.is_i64() || n.is_u64() => J::Raw(n.to_string()),
        Json::Number(n) => J::float(n.as_f64().unwrap_or(0.0), 64),
        Json::Array(a) => J::Arr(a.iter().map(go_any).collect()),
        Json::Object(m) => {
            let mut kv: Vec<(String, J)> = m.iter().map(|(k, x)| (k.clone(), go_any(x))).collect();
            kv.sort_by(|a, b| a.0.cmp(&b.0));
            J::Obj(kv)
        }
        Json::Null => J::Null,
        Json::Bool(b) => J::Bool(*b),
        Json::String(s) => J::s(s.clone()),
    }
}

/// The stand-in for a lone byte `b` (0x80–0xFF) that Go keeps in a string
/// where UTF-8 cannot: a character of the last private-use plane,
/// U+10FF00 + `b`, so lone bytes stay distinct and in byte order.
/// [`tool_call_json`] writes each as `\ufffd`, as Go's encoder writes an
/// invalid byte.
pub(crate) fn lone_byte(b: u8) -> char {
    char::from_u32(0x10FF00 + u32::from(b)).unwrap_or('\u{fffd}')
}

fn is_lone_byte(c: char) -> bool {
    (0x10FF80..=0x10FFFF).contains(&(c as u32))
}

/// An `api.ToolCall` as Go marshals it (`id` omitted when empty, the
/// arguments in their order, `{}` for a nil map).
pub fn tool_call_json(c: &ToolCall) -> J {
    let j = tool_call_json_raw(c);
    let text = j.to_json();
    if !text.chars().any(is_lone_byte) {
        return j;
    }
    J::Raw(
        text.chars()
            .map(|c| {
                if is_lone_byte(c) {
                    "\\ufffd".to_string()
                } else {
                    c.to_string()
                }
            })
            .collect(),
    )
}

fn tool_call_json_raw(c: &ToolCall) -> J {
    let mut o = Vec::new();
    if !c.id.is_empty() {
        o.push(("id".to_string(), J::s(&c.id)));
    }
    let args = match &c.function.arguments {
        Some(m) => ordered_arguments(m),
        None if c.function.arguments_null => J::Null,
        None => J::Obj(Vec::new()),
    };
    o.push((
        "function".to_string(),
        J::Obj(vec![
            ("index".to_string(), J::int(c.function.index)),
            ("name".to_string(), J::s(&c.function.name)),
            ("arguments".to_string(), args),
        ]),
    ));
    J::Obj(o)
}

/// `ToolCallFunctionArguments.MarshalJSON`: the ordered map as wk8's
/// orderedmap writes it, keys through easyjson's writer (which spells
/// backspace and form feed `\u0008` and `\u000c`, where `encoding/json`
/// writes `\b` and `\f`), values through `json.Marshal`; `encoding/json`
/// then compacts it with HTML escaping, as for its own output.
fn ordered_arguments(m: &Map<String, Json>) -> J {
    let mut out = String::from("{");
    for (i, (k, v)) in m.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let key = J::s(k.clone()).to_json();
        let mut chars = key.chars();
        while let Some(c) = chars.next() {
            if c != '\\' {
                out.push(c);
                continue;
            }
            match chars.next() {
                Some('b') => out.push_str("\\u0008"),
                Some('f') => out.push_str("\\u000c"),
                Some(n) => {
                    out.push('\\');
                    out.push(n);
                }
                None => out.push('\\'),
            }
        }
        out.push(':');
        out.push_str(&go_any(v).to_json());
    }
    out.push('}');
    J::Raw(out)
}

/// `[]api.ToolCall` as Go marshals it (`null` for none).
pub fn tool_calls_json(calls: &[ToolCall]) -> String {
    if calls.is_empty() {
        return "null".to_string();
    }
    J::Arr(calls.iter().map(tool_call_json).collect()).to_json()
}

/// The names `parsers.ParserForName` knows, in the order of Go's switch.
pub const PARSER_NAMES: [&str; 27] = [
    "qwen3",
    "qwen3-thinking",
    "qwen3.5",
    "ornith",
    "qwen3-coder",
    "qwen3-vl-instruct",
    "qwen3-vl-thinking",
    "ministral",
    "passthrough",
    "harmony",
    "cogito",
    "deepseek3",
    "olmo3",
    "olmo3-think",
    "nemotron-3-nano",
    "nemotron-3.5-nano",
    "functiongemma",
    "glm-4.7",
    "gemma4",
    "gemma4-no-thinking",
    "glm-ocr",
    "lfm2",
    "lfm2-thinking",
    "laguna",
    "poolside-v1",
    "cohere",
    "glimmer",
];

/// `(HasToolSupport(), HasThinkingSupport())` of the parser
/// `ParserForName(name)` builds, or `None` for a name it does not know
/// (Go's `nil` parser, which adds no capabilities).
pub fn parser_capabilities(name: &str) -> Option<(bool, bool)> {
    Some(match name {
        "qwen3" => (true, false),
        "qwen3-thinking" => (true, true),
        "qwen3.5" | "ornith" => (true, true),
        "qwen3-coder" => (true, false),
        "qwen3-vl-instruct" => (true, false),
        "qwen3-vl-thinking" => (true, true),
        "ministral" => (true, false),
        "passthrough" => (false, false),
        "harmony" => (true, true),
        "cogito" => (true, true),
        "deepseek3" => (true, true),
        "olmo3" => (true, false),
        "olmo3-think" => (false, true),
        "nemotron-3-nano" | "nemotron-3.5-nano" => (true, true),
        "functiongemma" => (true, false),
        // GLM47Parser embeds GLM46Parser.
        "glm-4.7" => (true, true),
        "gemma4" => (true, true),
        "gemma4-no-thinking" => (true, false),
        // GlmOcrParser embeds GLM46Parser and turns thinking off.
        "glm-ocr" => (true, false),
        "lfm2" => (true, false),
        "lfm2-thinking" => (true, true),
        // LagunaV8Parser embeds LagunaParser.
        "laguna" | "poolside-v1" | "laguna-v8" => (true, true),
        "cohere" => (true, true),
        "glimmer" => (true, true),
        _ => return None,
    })
}

/// Whether `release`'s `ParserForName` knows `name` (the parsers added
/// since the oldest supported release are rows of Ollama's table).
fn known_in(name: &str, release: changes::Release) -> bool {
    use changes::ollama::{
        COHERE_PARSER, GLIMMER_PARSER, LAGUNA_V8_PARSER, ORNITH_PARSER, POOLSIDE_V1_PARSER,
    };
    // a name needs its row; a renamed one is gone once the rename's row is in
    let added: &[(&str, &changes::Change)] = &[
        ("cohere", &COHERE_PARSER),
        ("ornith", &ORNITH_PARSER),
        ("glimmer", &GLIMMER_PARSER),
        ("laguna-v8", &LAGUNA_V8_PARSER),
        ("poolside-v1", &POOLSIDE_V1_PARSER),
    ];
    let removed: &[(&str, &changes::Change)] = &[("laguna-v8", &POOLSIDE_V1_PARSER)];
    !added.iter().any(|(n, row)| *n == name && !release.has(row))
        && !removed
            .iter()
            .any(|(n, row)| *n == name && release.has(row))
}

/// [`parser_capabilities`] as `release` has its parsers.
pub fn parser_capabilities_in(name: &str, release: changes::Release) -> Option<(bool, bool)> {
    known_in(name, release)
        .then(|| parser_capabilities(name))
        .flatten()
}

/// `HasToolSupport()` of a built-in parser; `false` for an unknown name.
pub fn has_tool_support(name: &str) -> bool {
    parser_capabilities(name).is_some_and(|(tools, _)| tools)
}

/// `HasThinkingSupport()` of a built-in parser; `false` for an unknown name.
pub fn has_thinking_support(name: &str) -> bool {
    parser_capabilities(name).is_some_and(|(_, thinking)| thinking)
}

/// `parser.Init(tools, ..)`'s returned tools for the parser `name`: the
/// harmony parser renames them ([`harmony_rename_tools`]); every other
/// parser, and an unknown name (no parser), leaves them as they are.
pub fn init_tools(name: &str, tools: &[Tool]) -> Vec<Tool> {
    if name == "harmony" {
        harmony_rename_tools(tools)
    } else {
        tools.to_vec()
    }
}

/// The harmony parser's `Init` renaming (`harmony/harmonyparser.go`,
/// `FunctionNameMap.ConvertAndAdd`): see [`crate::harmony::harmony_rename_tools`].
pub use crate::harmony::harmony_rename_tools;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::ToolFunction;

    fn tools(names: &[&str]) -> Vec<Tool> {
        names
            .iter()
            .map(|n| Tool {
                type_: "function".into(),
                function: ToolFunction {
                    name: n.to_string(),
                    ..ToolFunction::default()
                },
                ..Tool::default()
            })
            .collect()
    }

    fn names(ts: &[Tool]) -> Vec<String> {
        ts.iter().map(|t| t.function.name.clone()).collect()
    }

    #[test]
    fn harmony_names() {
        // Recorded from the Go harmony parser's Init.
        let renamed = harmony_rename_tools(&tools(&[
            "get-weather.v2",
            "9lives",
            "get weather",
            "get_weather",
            "get_weather",
            "",
            "!!!",
            "python",
            "python",
            "browser.open",
            "héllo wörld",
            "a$b%c",
            "٣x",
            "unnamed",
            "unnamed",
            "python_2",
            "x.y-z w",
            "日本語",
            "Ⅻ",
            "_",
        ]));
        assert_eq!(
            names(&renamed),
            [
                "get_weather_v2",
                "_9lives",
                "get_weather",
                "get_weather_2",
                "get_weather_3",
                "",
                "unnamed",
                "python",
                "python",
                "browser.open",
                "héllo_wörld",
                "a$bc",
                "٣x",
                "unnamed_2",
                "unnamed_3",
                "python_2",
                "x_y_z_w",
                "日本語",
                "unnamed_4",
                "_",
            ]
        );
        assert_eq!(names(&init_tools("qwen3", &tools(&["a-b"]))), ["a-b"]);
        assert_eq!(names(&init_tools("harmony", &tools(&["a-b"]))), ["a_b"]);
    }

    #[test]
    fn capabilities() {
        assert!(PARSER_NAMES
            .iter()
            .all(|n| parser_capabilities(n).is_some()));
        assert_eq!(parser_capabilities("passthrough"), Some((false, false)));
        assert_eq!(parser_capabilities("olmo3-think"), Some((false, true)));
        assert_eq!(parser_capabilities("glm-ocr"), Some((true, false)));
        assert_eq!(parser_capabilities("nope"), None);
        assert!(!has_tool_support("nope"));
        assert!(has_thinking_support("poolside-v1"));
    }
}
