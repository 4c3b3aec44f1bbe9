//! `model/parsers/qwen3.go`: the Qwen3 parser. With thinking on, the
//! prompt ends in `<think>`, so output starts with thinking (an explicit
//! leading `<think>` is dropped once) up to `</think>`; then content, with
//! JSON tool calls in `<tool_call>…</tool_call>` (a tool call before
//! `</think>` ends the thinking too).
//!
//! The second half of this file is the part of Go's `encoding/json` (and
//! of `jsonparser`, which `api.ToolCallFunctionArguments` decodes with)
//! that the Qwen parsers' tool calls go through: [`go_unmarshal_any`],
//! [`unmarshal_arguments`] and [`unmarshal_struct`].

use serde_json::{Map, Value as Json};

use super::{
    cfg_bool, overlap, split_at_tag, trailing_whitespace_len, trim_left_space, Added, Config,
    Constructors, Parser,
};
use crate::api::{Message, Think, Tool, ToolCall, ToolCallFunction};
use crate::godecode::{check_valid, fold_eq, GoErr};

/// `qwen3ParserState`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Qwen3ParserState {
    /// `qwen3ParserStateLookingForThinkingOpen` (the zero value).
    #[default]
    LookingForThinkingOpen,
    /// `qwen3ParserStateThinkingStartedEatingWhitespace`.
    ThinkingStartedEatingWhitespace,
    /// `qwen3ParserStateCollectingThinking`.
    CollectingThinking,
    /// `qwen3ParserStateThinkingDoneEatingWhitespace`.
    ThinkingDoneEatingWhitespace,
    /// `qwen3ParserStateCollectingContent`.
    CollectingContent,
    /// `qwen3ParserStateToolStartedEatingWhitespace`.
    ToolStartedEatingWhitespace,
    /// `qwen3ParserStateCollectingToolContent`.
    CollectingToolContent,
}

/// `qwen3ThinkingOpenTag`.
const QWEN3_THINKING_OPEN_TAG: &str = "<think>";
/// `qwen3ThinkingCloseTag`.
const QWEN3_THINKING_CLOSE_TAG: &str = "</think>";
/// `qwen3ToolOpenTag`.
const QWEN3_TOOL_OPEN_TAG: &str = "<tool_call>";
/// `qwen3ToolCloseTag`.
const QWEN3_TOOL_CLOSE_TAG: &str = "</tool_call>";

/// `Qwen3Parser`: Qwen3 output with thinking and tool calls.
#[derive(Clone, Debug, Default)]
pub struct Qwen3Parser {
    state: Qwen3ParserState,
    buffer: String,
    tools: Vec<Tool>,
    call_index: i64,
    has_thinking_support: bool,
    default_thinking: bool,
    maybe_thinking_open_at_bol: bool,
}

impl Parser for Qwen3Parser {
    /// `HasToolSupport`.
    fn has_tool_support(&self) -> bool {
        true
    }

    /// `HasThinkingSupport`.
    fn has_thinking_support(&self) -> bool {
        self.has_thinking_support
    }

    /// `PreservedTokens`.
    fn preserved_tokens(&self) -> Vec<String> {
        [
            QWEN3_THINKING_OPEN_TAG,
            QWEN3_THINKING_CLOSE_TAG,
            QWEN3_TOOL_OPEN_TAG,
            QWEN3_TOOL_CLOSE_TAG,
        ]
        .map(String::from)
        .to_vec()
    }

    /// `Init`: thinking when supported and asked for (`think` absent:
    /// `defaultThinking`).
    fn init(&mut self, tools: &[Tool], _: Option<&Message>, think: Option<&Think>) -> Vec<Tool> {
        self.tools = tools.to_vec();
        self.buffer.clear();
        self.call_index = 0;

        let thinking_enabled = match think {
            Some(t) => t.as_bool(),
            None => self.default_thinking,
        };

        if self.has_thinking_support && thinking_enabled {
            self.state = Qwen3ParserState::CollectingThinking;
            self.maybe_thinking_open_at_bol = true;
        } else {
            self.state = Qwen3ParserState::CollectingContent;
            self.maybe_thinking_open_at_bol = false;
        }
        tools.to_vec()
    }

    /// `Add`.
    fn add(&mut self, s: &str, _done: bool) -> Result<Added, String> {
        self.buffer.push_str(s);
        let events = self.parse_events();

        let mut out = Added::default();
        for event in events {
            match event {
                Qwen3Event::RawToolCall { raw } => {
                    // Go logs "qwen3 tool call parsing failed".
                    let mut tool_call = parse_qwen3_tool_call(&raw, &self.tools)?;
                    tool_call.function.index = self.call_index;
                    self.call_index += 1;
                    out.calls.push(tool_call);
                }
                Qwen3Event::ThinkingContent { content } => out.thinking.push_str(&content),
                Qwen3Event::Content { content } => out.content.push_str(&content),
            }
        }
        Ok(out)
    }
}

/// `qwen3Event`.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Qwen3Event {
    /// `qwen3EventContent`.
    Content { content: String },
    /// `qwen3EventRawToolCall`.
    RawToolCall { raw: String },
    /// `qwen3EventThinkingContent`.
    ThinkingContent { content: String },
}

impl Qwen3Parser {
    /// `parseEvents` (Go also logs the events at trace level).
    fn parse_events(&mut self) -> Vec<Qwen3Event> {
        let mut all = Vec::new();
        let mut keep_looping = true;
        while keep_looping {
            let events;
            (events, keep_looping) = self.eat();
            all.extend(events);
        }
        all
    }

    /// `eatLeadingWhitespaceAndTransitionTo`.
    fn eat_leading_whitespace_and_transition_to(
        &mut self,
        next_state: Qwen3ParserState,
    ) -> (Vec<Qwen3Event>, bool) {
        let trimmed = trim_left_space(&self.buffer).to_string();
        self.buffer.clear();
        if trimmed.is_empty() {
            return (Vec::new(), false);
        }
        self.state = next_state;
        self.buffer = trimmed;
        (Vec::new(), true)
    }

    /// `splitAtTag`.
    fn split_at_tag(&mut self, tag: &str, trim_after: bool) -> (String, String) {
        split_at_tag(&mut self.buffer, tag, trim_after)
    }

    /// Emits what precedes a possible partial tag of `overlap_len` bytes
    /// at the end of `acc` and the white space before it, keeping the
    /// rest (without one, `overlap_len` is 0: only the trailing white
    /// space is kept). `thinking` picks the event kind.
    fn emit_unambiguous(
        &mut self,
        acc: &str,
        overlap_len: usize,
        thinking: bool,
    ) -> (Vec<Qwen3Event>, bool) {
        let before_partial_tag = &acc[..acc.len() - overlap_len];
        let ambiguous_start =
            before_partial_tag.len() - trailing_whitespace_len(before_partial_tag);
        let unambiguous = acc[..ambiguous_start].to_string();
        self.buffer = acc[ambiguous_start..].to_string();
        let mut events = Vec::new();
        if !unambiguous.is_empty() {
            events.push(if thinking {
                Qwen3Event::ThinkingContent {
                    content: unambiguous,
                }
            } else {
                Qwen3Event::Content {
                    content: unambiguous,
                }
            });
        }
        (events, false)
    }

    /// `eat`.
    fn eat(&mut self) -> (Vec<Qwen3Event>, bool) {
        let mut events = Vec::new();

        match self.state {
            Qwen3ParserState::LookingForThinkingOpen => {
                let trimmed = trim_left_space(&self.buffer);
                if let Some(after) = trimmed.strip_prefix(QWEN3_THINKING_OPEN_TAG) {
                    let after = trim_left_space(after).to_string();
                    self.state = if after.is_empty() {
                        Qwen3ParserState::ThinkingStartedEatingWhitespace
                    } else {
                        Qwen3ParserState::CollectingThinking
                    };
                    self.buffer = after;
                    return (events, true);
                } else if QWEN3_THINKING_OPEN_TAG.starts_with(trimmed) || trimmed.is_empty() {
                    return (events, false);
                }
                self.state = Qwen3ParserState::CollectingContent;
                (events, true)
            }

            Qwen3ParserState::ThinkingStartedEatingWhitespace => {
                self.eat_leading_whitespace_and_transition_to(Qwen3ParserState::CollectingThinking)
            }

            Qwen3ParserState::CollectingThinking => {
                let acc = self.buffer.clone();

                // Some qwen3 checkpoints emit an explicit opening <think>
                // tag even though the prompt already ended with <think>:
                // strip exactly one leading opening tag if present.
                if self.maybe_thinking_open_at_bol {
                    let trimmed = trim_left_space(&acc);
                    if let Some(after) = trimmed.strip_prefix(QWEN3_THINKING_OPEN_TAG) {
                        let after = trim_left_space(after).to_string();
                        let empty = after.is_empty();
                        self.buffer = after;
                        if empty {
                            return (events, false);
                        }
                        self.maybe_thinking_open_at_bol = false;
                        return (events, true);
                    }
                    if QWEN3_THINKING_OPEN_TAG.starts_with(trimmed) {
                        return (events, false);
                    }
                    self.maybe_thinking_open_at_bol = false;
                }

                let thinking_close_idx = acc.find(QWEN3_THINKING_CLOSE_TAG);
                let tool_open_idx = acc.find(QWEN3_TOOL_OPEN_TAG);

                // A tool call before </think> ends the thinking for parsing
                // purposes; continue in tool-call mode.
                if let Some(t) = tool_open_idx {
                    if thinking_close_idx.is_none_or(|c| t < c) {
                        let (before, after) = self.split_at_tag(QWEN3_TOOL_OPEN_TAG, true);
                        if !before.is_empty() {
                            events.push(Qwen3Event::ThinkingContent { content: before });
                        }
                        self.state = if after.is_empty() {
                            Qwen3ParserState::ToolStartedEatingWhitespace
                        } else {
                            Qwen3ParserState::CollectingToolContent
                        };
                        return (events, true);
                    }
                }

                if thinking_close_idx.is_some() {
                    let (thinking, remaining) = self.split_at_tag(QWEN3_THINKING_CLOSE_TAG, true);
                    if !thinking.is_empty() {
                        events.push(Qwen3Event::ThinkingContent { content: thinking });
                    }
                    self.state = if remaining.is_empty() {
                        Qwen3ParserState::ThinkingDoneEatingWhitespace
                    } else {
                        Qwen3ParserState::CollectingContent
                    };
                    return (events, true);
                }
                let overlap_len =
                    overlap(&acc, QWEN3_THINKING_CLOSE_TAG).max(overlap(&acc, QWEN3_TOOL_OPEN_TAG));
                self.emit_unambiguous(&acc, overlap_len, true)
            }

            Qwen3ParserState::ThinkingDoneEatingWhitespace => {
                self.eat_leading_whitespace_and_transition_to(Qwen3ParserState::CollectingContent)
            }

            Qwen3ParserState::CollectingContent => {
                let acc = self.buffer.clone();
                if acc.contains(QWEN3_TOOL_OPEN_TAG) {
                    let (before, after) = self.split_at_tag(QWEN3_TOOL_OPEN_TAG, true);
                    if !before.is_empty() {
                        events.push(Qwen3Event::Content { content: before });
                    }
                    self.state = if after.is_empty() {
                        Qwen3ParserState::ToolStartedEatingWhitespace
                    } else {
                        Qwen3ParserState::CollectingToolContent
                    };
                    return (events, true);
                }
                let overlap_len = overlap(&acc, QWEN3_TOOL_OPEN_TAG);
                self.emit_unambiguous(&acc, overlap_len, false)
            }

            Qwen3ParserState::ToolStartedEatingWhitespace => self
                .eat_leading_whitespace_and_transition_to(Qwen3ParserState::CollectingToolContent),

            Qwen3ParserState::CollectingToolContent => {
                if self.buffer.contains(QWEN3_TOOL_CLOSE_TAG) {
                    let (tool_content, _) = self.split_at_tag(QWEN3_TOOL_CLOSE_TAG, true);
                    // (Go warns when the call is empty.)
                    events.push(Qwen3Event::RawToolCall { raw: tool_content });
                    self.state = Qwen3ParserState::CollectingContent;
                    return (events, true);
                }
                (events, false)
            }
        }
    }
}

/// The Go type `parseQwen3ToolCall` decodes into, as `reflect` names it.
const QWEN3_CALL_TYPE: &str = "struct { Name string \"json:\\\"name\\\"\"; Arguments api.ToolCallFunctionArguments \"json:\\\"arguments\\\"\" }";

/// `parseQwen3ToolCall`: `{"name": …, "arguments": {…}}`. qwen3 uses the
/// JSON arguments directly, without schema coercion.
pub(super) fn parse_qwen3_tool_call(raw: &str, _tools: &[Tool]) -> Result<ToolCall, String> {
    let parsed = unmarshal_struct(
        raw,
        "",
        QWEN3_CALL_TYPE,
        &[("name", FieldTy::Str), ("arguments", FieldTy::Args)],
    )
    .map_err(|e| format!("failed to parse JSON: {}", e.text()))?;
    let mut fields = parsed.into_iter();
    let name = fields
        .next()
        .and_then(FieldVal::into_str)
        .unwrap_or_default();
    let arguments = fields
        .next()
        .and_then(FieldVal::into_args)
        .unwrap_or_default();

    if name.is_empty() {
        return Err("empty function name".to_string());
    }

    Ok(ToolCall {
        id: String::new(),
        function: ToolCallFunction {
            index: 0,
            name,
            arguments: arguments.map,
            arguments_null: arguments.null,
        },
    })
}

pub(crate) fn constructors() -> Constructors {
    fn make(has_thinking_support: bool, default_thinking: bool) -> Box<dyn Parser> {
        Box::new(Qwen3Parser {
            has_thinking_support,
            default_thinking,
            ..Qwen3Parser::default()
        })
    }
    fn by_go_type(t: &str, c: &Config) -> Option<Box<dyn Parser>> {
        (t == "Qwen3Parser").then(|| {
            Box::new(Qwen3Parser {
                has_thinking_support: cfg_bool(c, "hasThinkingSupport"),
                default_thinking: cfg_bool(c, "defaultThinking"),
                maybe_thinking_open_at_bol: cfg_bool(c, "maybeThinkingOpenAtBOL"),
                ..Qwen3Parser::default()
            }) as Box<dyn Parser>
        })
    }
    Constructors {
        by_name: |n| match n {
            "qwen3" => Some(make(false, false)),
            "qwen3-thinking" => Some(make(true, true)),
            _ => None,
        },
        by_go_type,
    }
}

// ---- Go's encoding/json (and jsonparser) as the Qwen tool calls meet it ----
//
// Go decodes a tool call's JSON after `checkValid` has accepted the whole
// text, so everything below walks valid JSON. Duplicate keys are seen one
// by one, as Go sees them (a struct field or an ordered argument set
// again, a type error of the first occurrence kept), numbers are read
// from their literals, and nesting is walked without recursion (Go
// allows 10000 levels).

/// The byte at `i`, 0 past the end.
fn at(b: &[u8], i: usize) -> u8 {
    b.get(i).copied().unwrap_or(0)
}

/// Past JSON white space from `i`.
fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while matches!(at(b, i), b' ' | b'\t' | b'\n' | b'\r') {
        i += 1;
    }
    i
}

/// The end of the string whose opening quote is at `i`.
fn string_end(b: &[u8], i: usize) -> usize {
    let mut j = i + 1;
    while j < b.len() {
        match b[j] {
            b'\\' => j += 2,
            b'"' => return j + 1,
            _ => j += 1,
        }
    }
    b.len()
}

/// The end of the value starting at `i`.
fn value_end(b: &[u8], i: usize) -> usize {
    match at(b, i) {
        b'"' => string_end(b, i),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut j = i;
            while j < b.len() {
                match b[j] {
                    b'"' => {
                        j = string_end(b, j);
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth = depth.saturating_sub(1);
                        if depth == 0 {
                            return j + 1;
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
            b.len()
        }
        _ => {
            let mut j = i;
            while j < b.len() && !matches!(b[j], b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r')
            {
                j += 1;
            }
            j
        }
    }
}

/// The members of the object at `i`: (key start, key end, value start,
/// value end), the key with its quotes.
fn members(b: &[u8], i: usize) -> Vec<(usize, usize, usize, usize)> {
    let mut out = Vec::new();
    let mut i = skip_ws(b, i + 1);
    while at(b, i) == b'"' {
        let kend = string_end(b, i);
        let v = skip_ws(b, skip_ws(b, kend) + 1);
        let vend = value_end(b, v);
        out.push((i, kend, v, vend));
        i = skip_ws(b, vend);
        if at(b, i) != b',' {
            break;
        }
        i = skip_ws(b, i + 1);
    }
    out
}

/// `getu4`: the value of `\uXXXX` at the start of `b`.
fn getu4(b: &[u8]) -> Option<u32> {
    if b.len() < 6 || b[0] != b'\\' || b[1] != b'u' {
        return None;
    }
    std::str::from_utf8(&b[2..6])
        .ok()
        .and_then(|h| u32::from_str_radix(h, 16).ok())
}

/// Go's `unquote` of a JSON string literal (with its quotes): a `\u`
/// surrogate that does not pair becomes U+FFFD.
fn go_unquote(raw: &str) -> String {
    let s = raw.strip_prefix('"').unwrap_or(raw);
    let s = s.strip_suffix('"').unwrap_or(s);
    let b = s.as_bytes();
    let mut out: Vec<u8> = Vec::with_capacity(b.len());
    let push = |out: &mut Vec<u8>, r: u32| {
        let c = char::from_u32(r).unwrap_or('\u{fffd}');
        let mut tmp = [0u8; 4];
        out.extend_from_slice(c.encode_utf8(&mut tmp).as_bytes());
    };
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' {
            out.push(b[i]);
            i += 1;
            continue;
        }
        match at(b, i + 1) {
            c @ (b'"' | b'\\' | b'/' | b'\'') => out.push(c),
            b'b' => out.push(0x08),
            b'f' => out.push(0x0c),
            b'n' => out.push(b'\n'),
            b'r' => out.push(b'\r'),
            b't' => out.push(b'\t'),
            b'u' => {
                let Some(rr) = getu4(&b[i..]) else { break };
                i += 6;
                if (0xD800..0xE000).contains(&rr) {
                    // utf16.DecodeRune: a high then a low surrogate
                    let pair = getu4(&b[i..]).filter(|lo| {
                        (0xD800..0xDC00).contains(&rr) && (0xDC00..0xE000).contains(lo)
                    });
                    match pair {
                        Some(lo) => {
                            i += 6;
                            push(&mut out, 0x10000 + ((rr - 0xD800) << 10) + (lo - 0xDC00));
                        }
                        None => push(&mut out, 0xFFFD),
                    }
                } else {
                    push(&mut out, rr);
                }
                continue;
            }
            // not valid JSON: checkValid refused it already
            _ => break,
        }
        i += 2;
    }
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// A Go number literal decoded into `any`: `strconv.ParseFloat`, or the
/// error Go saves for it.
fn any_number(lit: &str) -> Result<Json, GoErr> {
    match lit.parse::<f64>() {
        Ok(f) if f.is_finite() => Ok(serde_json::Number::from_f64(f)
            .map(Json::Number)
            .unwrap_or(Json::Null)),
        _ => Err(GoErr::Type {
            value: format!("number {lit}"),
            ty: "float64".to_string(),
            strct: String::new(),
            field: String::new(),
        }),
    }
}

/// Go's decoding into `any` of the (valid) value at `start`: objects as
/// `map[string]any` (a repeated key: the last value), numbers `float64`;
/// the first error (a number beyond float64) is returned once the value
/// is done, as Go's saved error.
fn any_value(text: &str, start: usize) -> Result<Json, GoErr> {
    enum Frame {
        Arr(Vec<Json>),
        Obj(Map<String, Json>, String),
    }
    let b = text.as_bytes();
    let mut saved: Option<GoErr> = None;
    let mut stack: Vec<Frame> = Vec::new();
    let mut i = skip_ws(b, start);
    // reads a key at `i` (a quote) and the colon after it
    let key_at = |i: usize| -> (String, usize) {
        let kend = string_end(b, i);
        (go_unquote(&text[i..kend]), skip_ws(b, skip_ws(b, kend) + 1))
    };
    loop {
        // a value at i
        let mut v = match at(b, i) {
            b'{' => {
                let j = skip_ws(b, i + 1);
                if at(b, j) == b'"' {
                    let (k, j) = key_at(j);
                    stack.push(Frame::Obj(Map::new(), k));
                    i = j;
                    continue;
                }
                i = j + 1;
                Json::Object(Map::new())
            }
            b'[' => {
                let j = skip_ws(b, i + 1);
                if at(b, j) != b']' {
                    stack.push(Frame::Arr(Vec::new()));
                    i = j;
                    continue;
                }
                i = j + 1;
                Json::Array(Vec::new())
            }
            b'"' => {
                let end = string_end(b, i);
                let s = go_unquote(&text[i..end]);
                i = end;
                Json::String(s)
            }
            b't' => {
                i += 4;
                Json::Bool(true)
            }
            b'f' => {
                i += 5;
                Json::Bool(false)
            }
            b'n' => {
                i += 4;
                Json::Null
            }
            _ => {
                let end = value_end(b, i).max(i);
                let lit = text.get(i..end).unwrap_or("");
                i = end;
                match any_number(lit) {
                    Ok(n) => n,
                    Err(e) => {
                        saved.get_or_insert(e);
                        Json::Null
                    }
                }
            }
        };
        // hand it to the open containers, closing those that end here
        loop {
            i = skip_ws(b, i);
            match stack.last_mut() {
                None => {
                    return match saved {
                        Some(e) => Err(e),
                        None => Ok(v),
                    };
                }
                Some(Frame::Arr(a)) => {
                    a.push(v);
                    if at(b, i) == b',' {
                        i = skip_ws(b, i + 1);
                        break;
                    }
                    i += 1;
                    let Some(Frame::Arr(a)) = stack.pop() else {
                        return Err(GoErr::msg("unexpected end of JSON input"));
                    };
                    v = Json::Array(a);
                }
                Some(Frame::Obj(m, k)) => {
                    m.insert(std::mem::take(k), v);
                    if at(b, i) == b',' {
                        let (nk, j) = key_at(skip_ws(b, i + 1));
                        *k = nk;
                        i = j;
                        break;
                    }
                    i += 1;
                    let Some(Frame::Obj(m, _)) = stack.pop() else {
                        return Err(GoErr::msg("unexpected end of JSON input"));
                    };
                    v = Json::Object(m);
                }
            }
        }
    }
}

/// `json.Unmarshal([]byte(text), &v)` with `v any` (or `[]any`,
/// `map[string]any`, whose kinds the caller checks): Go's syntax errors,
/// numbers `float64`, a number beyond float64 an error.
pub(super) fn go_unmarshal_any(text: &str) -> Result<Json, GoErr> {
    check_valid(text.as_bytes()).map_err(GoErr::Msg)?;
    any_value(text, 0)
}

/// jsonparser's `MalformedObjectError`.
const MALFORMED_OBJECT: &str = "Value looks like object, but can't find closing '}' symbol";
/// jsonparser's `MalformedStringEscapeError`.
const MALFORMED_STRING_ESCAPE: &str = "Encountered an invalid escape sequence in a string";

/// jsonparser's `decodeSingleUnicodeEscape` (the `\u` itself unchecked).
fn jp_single_unicode_escape(b: &[u8]) -> Option<u32> {
    if b.len() < 6 {
        return None;
    }
    b[2..6].iter().try_fold(0u32, |acc, &c| {
        let d = (c as char).to_digit(16)?;
        Some(acc << 4 | d)
    })
}

/// jsonparser's `Unescape` of a key (between its quotes). Its quirks:
/// any surrogate must be followed by six more bytes whose last four are
/// hex (the `\u` is not checked), at least `DC00`, and the two combine
/// even when they are no proper pair (a result beyond U+10FFFF is written
/// as U+FFFD).
fn jp_unescape(key: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(key.len());
    let mut i = 0;
    while i < key.len() {
        if key[i] != b'\\' {
            out.push(key[i]);
            i += 1;
            continue;
        }
        let e = *key.get(i + 1)?;
        let basic = match e {
            b'"' => Some(b'"'),
            b'\\' => Some(b'\\'),
            b'/' => Some(b'/'),
            b'b' => Some(0x08),
            b'f' => Some(0x0c),
            b'n' => Some(b'\n'),
            b'r' => Some(b'\r'),
            b't' => Some(b'\t'),
            _ => None,
        };
        if let Some(c) = basic {
            out.push(c);
            i += 2;
            continue;
        }
        if e != b'u' {
            return None;
        }
        let r = jp_single_unicode_escape(&key[i..])?;
        let (r, len) = if !(0xD800..=0xDFFF).contains(&r) {
            (r, 6)
        } else {
            let r2 = jp_single_unicode_escape(&key[i + 6..])?;
            if r2 < 0xDC00 {
                return None;
            }
            (0x10000 + ((r - 0xD800) << 10) + (r2 - 0xDC00), 12)
        };
        let c = char::from_u32(r).unwrap_or('\u{fffd}');
        let mut tmp = [0u8; 4];
        out.extend_from_slice(c.encode_utf8(&mut tmp).as_bytes());
        i += len;
    }
    Some(out)
}

/// `api.ToolCallFunctionArguments` as decoded: the ordered map (`None`:
/// nil), and whether the JSON was `null` (which Go marshals back as
/// `null`, a nil map as `{}`).
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Args {
    pub map: Option<Map<String, Json>>,
    pub null: bool,
}

/// `ToolCallFunctionArguments.UnmarshalJSON` of a valid value's text
/// (without surrounding white space): `null` is kept as null; an object
/// is read by jsonparser's `ObjectEach`, each value through
/// `json.Unmarshal` into `any`, a repeated key keeping its first place;
/// anything else is jsonparser's error.
pub(super) fn unmarshal_arguments(text: &str) -> Result<Args, GoErr> {
    let b = text.as_bytes();
    let i = skip_ws(b, 0);
    if &b[i..value_end(b, i).min(b.len()).max(i)] == b"null" {
        return Ok(Args {
            map: None,
            null: true,
        });
    }
    if at(b, i) != b'{' {
        return Err(GoErr::msg(MALFORMED_OBJECT));
    }
    let mut map = Map::new();
    for (ks, ke, vs, _) in members(b, i) {
        let raw_key = &b[ks + 1..ke.saturating_sub(1).max(ks + 1)];
        let key = if raw_key.contains(&b'\\') {
            jp_unescape(raw_key).ok_or_else(|| GoErr::msg(MALFORMED_STRING_ESCAPE))?
        } else {
            raw_key.to_vec()
        };
        // orderedmap's decodeUTF8
        let key = String::from_utf8(key).map_err(|e| {
            GoErr::msg(format!(
                "not a valid UTF-8 string (at position {}): {}",
                e.utf8_error().valid_up_to(),
                String::from_utf8_lossy(e.as_bytes())
            ))
        })?;
        let value = any_value(text, vs)?;
        map.insert(key, value);
    }
    Ok(Args {
        map: Some(map),
        null: false,
    })
}

/// A field's Go type, for [`unmarshal_struct`].
#[derive(Clone, Copy, Debug)]
pub(super) enum FieldTy {
    /// `int`
    Int,
    /// `string`
    Str,
    /// `api.ToolCallFunctionArguments`
    Args,
}

/// A decoded field.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) enum FieldVal {
    /// Not set (absent, or `null`).
    #[default]
    Unset,
    /// An `int`.
    Int(i64),
    /// A `string`.
    Str(String),
    /// The arguments.
    Args(Args),
}

impl FieldVal {
    pub(super) fn into_str(self) -> Option<String> {
        match self {
            FieldVal::Str(s) => Some(s),
            _ => None,
        }
    }

    pub(super) fn into_int(self) -> Option<i64> {
        match self {
            FieldVal::Int(i) => Some(i),
            _ => None,
        }
    }

    pub(super) fn into_args(self) -> Option<Args> {
        match self {
            FieldVal::Args(a) => Some(a),
            _ => None,
        }
    }
}

/// How Go's decoder names the kind of the value at `i`.
fn kind_at(b: &[u8], i: usize) -> &'static str {
    match at(b, i) {
        b'{' => "object",
        b'[' => "array",
        b'"' => "string",
        b't' | b'f' => "bool",
        b'n' => "null",
        _ => "number",
    }
}

/// `json.Unmarshal([]byte(text), &v)` for a struct `v` of the given
/// fields (JSON name and type), from its zero value: keys matched exactly,
/// then case-insensitively; a field's type error saved (the first one,
/// with `strct.field`) while decoding goes on; an error of the arguments'
/// own `UnmarshalJSON` returned at once (with the field's context when it
/// is a type error). `strct` is the struct's name in errors, `go_type` its
/// type when the JSON is not an object. The fields come back in order.
pub(super) fn unmarshal_struct(
    text: &str,
    strct: &str,
    go_type: &str,
    fields: &[(&str, FieldTy)],
) -> Result<Vec<FieldVal>, GoErr> {
    check_valid(text.as_bytes()).map_err(GoErr::Msg)?;
    let b = text.as_bytes();
    let mut out = vec![FieldVal::Unset; fields.len()];
    let i = skip_ws(b, 0);
    match kind_at(b, i) {
        "null" => return Ok(out),
        "object" => {}
        kind => {
            return Err(GoErr::Type {
                value: kind.to_string(),
                ty: go_type.to_string(),
                strct: String::new(),
                field: String::new(),
            });
        }
    }
    let mut saved: Option<GoErr> = None;
    for (ks, ke, vs, ve) in members(b, i) {
        let key = go_unquote(&text[ks..ke]);
        let Some(f) = fields
            .iter()
            .position(|(n, _)| *n == key)
            .or_else(|| fields.iter().position(|(n, _)| fold_eq(n, &key)))
        else {
            continue;
        };
        let (name, ty) = fields[f];
        let value = text.get(vs..ve).unwrap_or("");
        let type_error = |value: String, ty: &str| GoErr::Type {
            value,
            ty: ty.to_string(),
            strct: strct.to_string(),
            field: name.to_string(),
        };
        match (ty, kind_at(b, vs)) {
            (FieldTy::Args, _) => match unmarshal_arguments(value) {
                Ok(a) => out[f] = FieldVal::Args(a),
                Err(GoErr::Type {
                    value,
                    ty,
                    field: inner,
                    ..
                }) => {
                    let field = if inner.is_empty() {
                        name.to_string()
                    } else {
                        format!("{name}.{inner}")
                    };
                    return Err(GoErr::Type {
                        value,
                        ty,
                        strct: strct.to_string(),
                        field,
                    });
                }
                Err(e) => return Err(e),
            },
            (_, "null") => {}
            (FieldTy::Str, "string") => out[f] = FieldVal::Str(go_unquote(value)),
            (FieldTy::Int, "number") => match parse_int_literal(value) {
                Some(n) => out[f] = FieldVal::Int(n),
                None => {
                    saved.get_or_insert(type_error(format!("number {value}"), "int"));
                }
            },
            (FieldTy::Str, kind) => {
                saved.get_or_insert(type_error(kind.to_string(), "string"));
            }
            (FieldTy::Int, kind) => {
                saved.get_or_insert(type_error(kind.to_string(), "int"));
            }
        }
    }
    match saved {
        Some(e) => Err(e),
        None => Ok(out),
    }
}

/// `strconv.ParseInt(lit, 10, 64)` of a JSON number literal: only an
/// integer literal within int64 succeeds.
fn parse_int_literal(lit: &str) -> Option<i64> {
    let digits = lit.strip_prefix('-').unwrap_or(lit);
    if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    lit.parse::<i64>().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parser(think: bool) -> Qwen3Parser {
        let mut p = Qwen3Parser {
            has_thinking_support: true,
            default_thinking: true,
            ..Qwen3Parser::default()
        };
        p.init(&[], None, Some(&Think::Bool(think)));
        p
    }

    fn add(p: &mut Qwen3Parser, s: &str) -> (String, String, String) {
        let a = p.add(s, false).unwrap();
        (
            a.content,
            a.thinking,
            super::super::tool_calls_json(&a.calls),
        )
    }

    #[test]
    fn parser_for_name() {
        // ParserForName's names for the Qwen and Cogito parsers, with the
        // capabilities of the values it builds
        for name in [
            "qwen3",
            "qwen3-thinking",
            "qwen3.5",
            "ornith",
            "qwen3-coder",
            "qwen3-vl-instruct",
            "qwen3-vl-thinking",
            "cogito",
        ] {
            let p = super::super::parser_for_name(name).expect(name);
            assert_eq!(
                Some((p.has_tool_support(), p.has_thinking_support())),
                super::super::parser_capabilities(name),
                "{name}"
            );
        }
        // qwen3-thinking thinks by default, qwen3 never
        let mut p = super::super::parser_for_name("qwen3-thinking").unwrap();
        p.init(&[], None, None);
        assert_eq!(p.add("hmm</think>ok", true).unwrap().thinking, "hmm");
        let mut p = super::super::parser_for_name("qwen3").unwrap();
        p.init(&[], None, Some(&Think::Bool(true)));
        assert_eq!(
            p.add("hmm</think>ok", true).unwrap().content,
            "hmm</think>ok"
        );
    }

    #[test]
    fn thinking_enabled() {
        // TestQwen3ParserThinkingEnabled
        let mut p = parser(true);
        let (c, t, _) = add(&mut p, "Let me think...</think>Answer.");
        assert_eq!((c.as_str(), t.as_str()), ("Answer.", "Let me think..."));
    }

    #[test]
    fn explicit_and_split_opening_tag() {
        // TestQwen3ParserThinkingEnabledWithExplicitOpeningTag
        let mut p = parser(true);
        let (c, t, _) = add(&mut p, "<think>\nLet me think...</think>Answer.");
        assert_eq!((c.as_str(), t.as_str()), ("Answer.", "Let me think..."));
        // TestQwen3ParserThinkingEnabledWithSplitOpeningTag
        let mut p = parser(true);
        assert_eq!(add(&mut p, "<thi").1, "");
        let (c, t, _) = add(&mut p, "nk>Let me think...</think>Answer.");
        assert_eq!((c.as_str(), t.as_str()), ("Answer.", "Let me think..."));
    }

    #[test]
    fn tool_calls() {
        // TestQwen3ParserToolCall
        let mut p = parser(false);
        let (c, t, calls) = add(
            &mut p,
            "<tool_call>{\"name\":\"get_weather\",\"arguments\":{\"location\":\"San Francisco\",\"unit\":\"celsius\"}}</tool_call>",
        );
        assert_eq!((c.as_str(), t.as_str()), ("", ""));
        assert_eq!(
            calls,
            r#"[{"function":{"index":0,"name":"get_weather","arguments":{"location":"San Francisco","unit":"celsius"}}}]"#
        );
        // TestQwen3ParserThinkingWithToolCallBeforeThinkingClose
        let mut p = parser(true);
        let (c, t, calls) = add(
            &mut p,
            "Let me think<tool_call>{\"name\":\"get_weather\",\"arguments\":{\"location\":\"SF\"}}</tool_call>",
        );
        assert_eq!((c.as_str(), t.as_str()), ("", "Let me think"));
        assert_eq!(
            calls,
            r#"[{"function":{"index":0,"name":"get_weather","arguments":{"location":"SF"}}}]"#
        );
    }

    #[test]
    fn tool_call_errors() {
        let e = |raw: &str| parse_qwen3_tool_call(raw, &[]).unwrap_err();
        assert_eq!(e("{\"name\":\"\"}"), "empty function name");
        assert_eq!(
            e("{bad"),
            "failed to parse JSON: invalid character 'b' looking for beginning of object key string"
        );
        assert_eq!(
            e("{\"name\":1}"),
            "failed to parse JSON: json: cannot unmarshal number into Go struct field .name of type string"
        );
        assert_eq!(
            e("{\"name\":\"a\",\"arguments\":[]}"),
            "failed to parse JSON: Value looks like object, but can't find closing '}' symbol"
        );
    }

    #[test]
    fn recorded_edge_cases() {
        // parseQwen3ToolCall of Go 1.26 (encoding/json, jsonparser's keys)
        let cases: &[(&str, &str, Option<&str>)] = &[
        ("{\"name\":\"a\",\"arguments\":{\"\\ud800ab\\udc00\":1}}", "{\"function\":{\"index\":0,\"name\":\"\",\"arguments\":{}}}", Some("failed to parse JSON: Encountered an invalid escape sequence in a string")),
        ("{\"name\":\"a\",\"arguments\":{\"\\udc00\\udc00\":1}}", "{\"function\":{\"index\":0,\"name\":\"a\",\"arguments\":{\"\u{fffd}\":1}}}", None),
        ("{\"name\":\"a\",\"arguments\":{\"\\ud800\\ue000\":1}}", "{\"function\":{\"index\":0,\"name\":\"a\",\"arguments\":{\"𐐀\":1}}}", None),
        ("{\"name\":\"a\",\"arguments\":{\"\\udbff\\uffff\":1}}", "{\"function\":{\"index\":0,\"name\":\"a\",\"arguments\":{\"\u{fffd}\":1}}}", None),
        ("{\"name\":\"a\",\"arguments\":{\"\\ud800\\u0041\":1}}", "{\"function\":{\"index\":0,\"name\":\"\",\"arguments\":{}}}", Some("failed to parse JSON: Encountered an invalid escape sequence in a string")),
        ("{\"name\":\"a\",\"arguments\":{\"k\":\"\\ud800\\u0041\",\"j\":\"\\udc00\"}}", "{\"function\":{\"index\":0,\"name\":\"a\",\"arguments\":{\"k\":\"\u{fffd}A\",\"j\":\"\u{fffd}\"}}}", None),
        ("{\"name\":\"a\",\"arguments\":{\"a\":1},\"arguments\":{\"b\":2}}", "{\"function\":{\"index\":0,\"name\":\"a\",\"arguments\":{\"b\":2}}}", None),
        ("{\"name\":\"a\",\"arguments\":{\"b\":1,\"a\":2,\"b\":3}}", "{\"function\":{\"index\":0,\"name\":\"a\",\"arguments\":{\"b\":3,\"a\":2}}}", None),
        ("{\"name\":5,\"name\":\"a\"}", "{\"function\":{\"index\":0,\"name\":\"\",\"arguments\":{}}}", Some("failed to parse JSON: json: cannot unmarshal number into Go struct field .name of type string")),
        ("{\"argumentſ\":{\"x\":-0},\"NAME\":\"a\"}", "{\"function\":{\"index\":0,\"name\":\"a\",\"arguments\":{\"x\":-0}}}", None),
        ("[]", "{\"function\":{\"index\":0,\"name\":\"\",\"arguments\":{}}}", Some("failed to parse JSON: json: cannot unmarshal array into Go value of type struct { Name string \"json:\\\"name\\\"\"; Arguments api.ToolCallFunctionArguments \"json:\\\"arguments\\\"\" }")),
        ("\"x\"", "{\"function\":{\"index\":0,\"name\":\"\",\"arguments\":{}}}", Some("failed to parse JSON: json: cannot unmarshal string into Go value of type struct { Name string \"json:\\\"name\\\"\"; Arguments api.ToolCallFunctionArguments \"json:\\\"arguments\\\"\" }")),
        ("null", "{\"function\":{\"index\":0,\"name\":\"\",\"arguments\":{}}}", Some("empty function name")),
        ("{\"name\":\"a\",\"arguments\":{\"a\":[1e400]},\"name\":3}", "{\"function\":{\"index\":0,\"name\":\"\",\"arguments\":{}}}", Some("failed to parse JSON: json: cannot unmarshal number 1e400 into Go struct field .arguments of type float64")),
        ("{\"name\":3,\"arguments\":5}", "{\"function\":{\"index\":0,\"name\":\"\",\"arguments\":{}}}", Some("failed to parse JSON: Value looks like object, but can't find closing '}' symbol")),
        ];
        for (raw, want, want_err) in cases {
            let r = parse_qwen3_tool_call(raw, &[]);
            let call =
                super::super::tool_call_json(r.as_ref().unwrap_or(&ToolCall::default())).to_json();
            assert_eq!(
                (call.as_str(), r.err().as_deref()),
                (*want, *want_err),
                "{raw:?}"
            );
        }
    }

    #[test]
    fn arguments_decoding() {
        let a = unmarshal_arguments(r#"{"b":1,"a":2.5,"b":{"y":1,"x":[1e2,"\ud800"]}}"#).unwrap();
        assert_eq!(
            serde_json::to_string(&a.map.unwrap()).unwrap(),
            r#"{"b":{"y":1.0,"x":[100.0,"�"]},"a":2.5}"#
        );
        assert!(unmarshal_arguments("null").unwrap().null);
        // jsonparser's key unescaping
        let a = unmarshal_arguments(r#"{"\ud83d\ude00":1}"#).unwrap();
        assert!(a.map.unwrap().contains_key("😀"));
        assert_eq!(
            unmarshal_arguments(r#"{"\ud800":1}"#).unwrap_err().text(),
            MALFORMED_STRING_ESCAPE
        );
        assert_eq!(
            unmarshal_arguments(r#"{"a":1e400}"#).unwrap_err().text(),
            "json: cannot unmarshal number 1e400 into Go value of type float64"
        );
    }
}
