//! `model/parsers/qwen3coder.go`: the Qwen3-Coder parser. Content streams
//! through (trailing white space held back until it is known not to
//! precede a `<tool_call>`), and each `<tool_call>…</tool_call>` holds an
//! XML-like call:
//!
//! ```text
//! <function=get_current_temperature>
//! <parameter=location>
//! San Francisco
//! </parameter>
//! </function>
//! ```
//!
//! which Go rewrites into real XML ([`transform_to_xml`]) and decodes with
//! `encoding/xml` (ported here, [`XmlDecoder`], as far as that XML can
//! reach it), then converts each parameter by the tool's declared types
//! ([`parse_value`]).

use serde_json::{Map, Value as Json};

use super::gojson_decode::{unmarshal_any, Args};
use super::{
    float_json, go_f64_to_i64, overlap, parse_float64, parse_int10, property_types, tool_call,
    tool_property, trailing_whitespace_len, trim_left_space, trim_right_space, Added, Constructors,
    Parser,
};
use crate::api::{Message, Think, Tool, ToolCall};

/// `toolOpenTag`.
pub(super) const TOOL_OPEN_TAG: &str = "<tool_call>";
/// `toolCloseTag`.
pub(super) const TOOL_CLOSE_TAG: &str = "</tool_call>";

/// `qwenParserState` as this parser uses it (`qwenParserState_*`). Go
/// shares the integer type with `Qwen3VLParser`, whose constants are its
/// own; each parser has its own enum here.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum QwenParserState {
    /// `qwenParserState_LookingForToolStart` (the zero value).
    #[default]
    LookingForToolStart,
    /// `qwenParserState_CollectingToolContent`.
    CollectingToolContent,
}

/// `Qwen3CoderParser`.
#[derive(Clone, Debug, Default)]
pub struct Qwen3CoderParser {
    state: QwenParserState,
    acc: String,
    tools: Vec<Tool>,
    call_index: i64,
}

impl Parser for Qwen3CoderParser {
    /// `HasToolSupport`.
    fn has_tool_support(&self) -> bool {
        true
    }

    /// `HasThinkingSupport`.
    fn has_thinking_support(&self) -> bool {
        false
    }

    /// `PreservedTokens`.
    fn preserved_tokens(&self) -> Vec<String> {
        vec![TOOL_OPEN_TAG.to_string(), TOOL_CLOSE_TAG.to_string()]
    }

    /// `Init`: Qwen doesn't modify tools.
    fn init(&mut self, tools: &[Tool], _: Option<&Message>, _: Option<&Think>) -> Vec<Tool> {
        self.tools = tools.to_vec();
        self.call_index = 0;
        tools.to_vec()
    }

    /// `Add`.
    fn add(&mut self, s: &str, _done: bool) -> Result<Added, String> {
        self.acc.push_str(s);

        let events = self.parse_events();

        let mut tool_calls = Vec::new();
        let mut sb = String::new();
        for event in events {
            match event {
                QwenEvent::RawToolCall { raw } => {
                    // Go logs "qwen tool call parsing failed" and returns
                    // the error (the calls of this piece are dropped).
                    let mut tool_call = parse_tool_call(&raw, &self.tools)?;
                    tool_call.function.index = self.call_index;
                    self.call_index += 1;
                    tool_calls.push(tool_call);
                }
                // TODO(drifkin) in Go: interleaved content events of one
                // turn are naively appended together.
                QwenEvent::Content { content } => sb.push_str(&content),
                // Only `Qwen3VLParser` makes these.
                QwenEvent::ThinkingContent { .. } => {}
            }
        }

        Ok(Added {
            content: sb,
            thinking: String::new(),
            calls: tool_calls,
        })
    }
}

impl Qwen3CoderParser {
    /// `parseEvents` (Go also logs the events at trace level).
    fn parse_events(&mut self) -> Vec<QwenEvent> {
        let mut all = Vec::new();
        let mut keep_looping = true;
        while keep_looping {
            let events;
            (events, keep_looping) = eat(self);
            all.extend(events);
        }
        all
    }
}

/// `qwenEvent`: what `eat` hands `Add`. Content and parallel tool calls
/// may interleave, even though qwen3-coder isn't supposed to do this.
/// `qwenEventThinkingContent` is declared in `qwen3vl.go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum QwenEvent {
    /// `qwenEventRawToolCall`.
    RawToolCall { raw: String },
    /// `qwenEventContent`.
    Content { content: String },
    /// `qwenEventThinkingContent` (qwen3vl.go).
    ThinkingContent { content: String },
}

/// `eat`: consumes the buffer and returns the unambiguous events of the
/// current state, and whether a state change may have more to emit now.
fn eat(p: &mut Qwen3CoderParser) -> (Vec<QwenEvent>, bool) {
    let mut events = Vec::new();

    match p.state {
        QwenParserState::LookingForToolStart => {
            if let Some(i) = p.acc.find(TOOL_OPEN_TAG) {
                // a full tool open tag: emit the content before it, trailing
                // white space trimmed
                let before = trim_right_space(&p.acc[..i]);
                if !before.is_empty() {
                    events.push(QwenEvent::Content {
                        content: before.to_string(),
                    });
                }
                p.acc = p.acc[i + TOOL_OPEN_TAG.len()..].to_string();
                p.state = QwenParserState::CollectingToolContent;
                (events, true)
            } else {
                let overlap = overlap(&p.acc, TOOL_OPEN_TAG);
                // With a partial open tag, the unambiguous part ends before
                // it and before the white space ahead of it; without one,
                // trailing white space is withheld in case the content ends.
                // (The overlap is a suffix equal to an ASCII prefix, so both
                // cuts fall on character boundaries.)
                let before_partial_tag = &p.acc[..p.acc.len() - overlap];
                let ambiguous_start =
                    before_partial_tag.len() - trailing_whitespace_len(before_partial_tag);
                let unambiguous = p.acc[..ambiguous_start].to_string();
                p.acc = p.acc[ambiguous_start..].to_string();
                if !unambiguous.is_empty() {
                    events.push(QwenEvent::Content {
                        content: unambiguous,
                    });
                }
                (events, false)
            }
        }
        QwenParserState::CollectingToolContent => {
            if let Some(i) = p.acc.find(TOOL_CLOSE_TAG) {
                let before = p.acc[..i].to_string();
                // (Go warns when `before` is empty.)
                // remove any white space between the tool call and what follows
                let after = trim_left_space(&p.acc[i + TOOL_CLOSE_TAG.len()..]).to_string();
                p.acc = after;
                events.push(QwenEvent::RawToolCall { raw: before });
                p.state = QwenParserState::LookingForToolStart;
                (events, true)
            } else {
                // the call is parsed once the closing tag is seen; nothing
                // is streamed from inside it
                (events, false)
            }
        }
    }
}

/// `XMLFunctionCall`: `<function name="…">` with its `<parameter>`s.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct XmlFunctionCall {
    name: String,
    parameters: Vec<XmlParameter>,
}

/// `XMLParameter`: `<parameter name="…">` and its character data.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct XmlParameter {
    name: String,
    value: String,
}

/// `parseToolCall`: a raw call (the XML-like text between the tags) into
/// an `api.ToolCall`, each parameter converted by the matching tool's
/// declared type (the first tool of that name; `anyOf` types are pooled).
pub(super) fn parse_tool_call(raw: &str, tools: &[Tool]) -> Result<ToolCall, String> {
    let xml_string = transform_to_xml(raw);

    let function_call = xml_unmarshal(&xml_string)?;

    // Find the matching tool to get parameter types
    let matched_tool = tools.iter().find(|t| t.function.name == function_call.name);

    let mut arguments = Map::new();
    for parameter in function_call.parameters {
        // Look up the parameter type if we found the tool (anyOf: all the
        // union's types)
        let param_type = matched_tool
            .and_then(|t| tool_property(t, &parameter.name))
            .map(property_types)
            .unwrap_or_default();
        // An ordered map's Set: a repeated name keeps its first place.
        arguments.insert(parameter.name, parse_value(&parameter.value, &param_type));
    }

    Ok(tool_call(function_call.name, Args::of(arguments)))
}

/// `parseValue`: a raw parameter value converted by its declared types,
/// after removing one leading and one trailing newline (as the reference
/// implementation does). glm46.go and laguna.go call it too, glimmer.go
/// [`parse_typed_tool_value`].
///
/// The result is the Go value as JSON: a Go `int`/`int64` an integer
/// number, a `float64` a float number, `[]any` an array and
/// `map[string]any` an object of `json.Unmarshal`'s values, `nil` null.
pub(super) fn parse_value(raw: &str, param_type: &[String]) -> Json {
    let raw = raw.strip_prefix('\n').unwrap_or(raw);
    let raw = raw.strip_suffix('\n').unwrap_or(raw);
    parse_typed_tool_value(raw, param_type)
}

/// `parseTypedToolValue`. For union types the most specific type that
/// parses wins: null (whatever the types), boolean, integer, number,
/// array, object, string.
pub(super) fn parse_typed_tool_value(raw: &str, param_type: &[String]) -> Json {
    // Null first (case-insensitive), whatever the types. (Go's
    // `strings.ToLower`: only ASCII letters lower to the letters of
    // "null", "true" and "false".)
    if raw.eq_ignore_ascii_case("null") {
        return Json::Null;
    }

    // No type: a string
    if param_type.is_empty() {
        return Json::String(raw.to_string());
    }

    let has = |t: &str| param_type.iter().any(|x| x == t);
    // Go counts the declared types, repeats included.
    let only_one = param_type.len() == 1;

    // boolean first (most restrictive)
    if has("boolean") {
        if raw.eq_ignore_ascii_case("true") {
            return Json::Bool(true);
        }
        if raw.eq_ignore_ascii_case("false") {
            return Json::Bool(false);
        }
        // not a boolean, and boolean the only type: false (as the reference)
        if only_one {
            return Json::Bool(false);
        }
    }

    // integer: `strconv.ParseInt(raw, 10, 64)`; an `int` within int32,
    // else an `int64` (both integers in JSON)
    if has("integer") {
        if let Some(i) = parse_int10(raw) {
            return Json::from(i);
        }
        if only_one {
            return Json::String(raw.to_string());
        }
    }

    // number: `strconv.ParseFloat(raw, 64)`; a whole number becomes an
    // integer
    if has("number") {
        if let Some(f) = parse_float64(raw) {
            if f == f.trunc() {
                return Json::from(go_f64_to_i64(f));
            }
            return float_json(f);
        }
        if only_one {
            return Json::String(raw.to_string());
        }
    }

    // array: `json.Unmarshal` into `[]any` (`null` leaves it nil)
    if has("array") {
        if let Ok(v @ (Json::Array(_) | Json::Null)) = unmarshal_any(raw) {
            return v;
        }
        if only_one {
            return Json::String(raw.to_string());
        }
    }

    // object: `json.Unmarshal` into `map[string]any` (`null` leaves it nil)
    if has("object") {
        if let Ok(v @ (Json::Object(_) | Json::Null)) = unmarshal_any(raw) {
            return v;
        }
        if only_one {
            return Json::String(raw.to_string());
        }
    }

    // string, or no type matched: the reference would try a Python
    // literal; Go purposefully returns the string
    Json::String(raw.to_string())
}

/// `qwenTagRegex` (`<(\w+)=([^>]+)>`, Go's ASCII `\w`): the next match at
/// or after `from`, as (start, end, tag, value).
fn find_qwen_tag(s: &str, from: usize) -> Option<(usize, usize, &str, &str)> {
    let b = s.as_bytes();
    let mut i = from;
    while i < b.len() {
        if b[i] == b'<' {
            let mut j = i + 1;
            while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_') {
                j += 1;
            }
            if j > i + 1 && b.get(j) == Some(&b'=') {
                let k = j + 1;
                // `[^>]+` then `>`: up to the first `>`, at least one byte
                let gt = k + s[k..].find('>')?;
                if gt > k {
                    return Some((i, gt + 1, &s[i + 1..j], &s[k..gt]));
                }
            }
        }
        i += 1;
    }
    None
}

/// Go's RE2 `\s`: `[\t\n\f\r ]`.
fn is_re2_space(c: u8) -> bool {
    matches!(c, b'\t' | b'\n' | b'\x0c' | b'\r' | b' ')
}

/// `qwenXMLTagRegex`
/// (`</?(?:function|parameter)(?:\s+name="[^"]*")?>`): the end of a
/// match starting at `i`.
fn xml_tag_match_at(s: &str, i: usize) -> Option<usize> {
    let b = s.as_bytes();
    if b.get(i) != Some(&b'<') {
        return None;
    }
    let mut j = i + 1;
    if b.get(j) == Some(&b'/') {
        j += 1;
    }
    let rest = &s[j..];
    if rest.starts_with("function") {
        j += "function".len();
    } else if rest.starts_with("parameter") {
        j += "parameter".len();
    } else {
        return None;
    }
    // the optional attribute group first (greedy)
    let mut k = j;
    while k < b.len() && is_re2_space(b[k]) {
        k += 1;
    }
    if k > j && s[k..].starts_with("name=\"") {
        let q = k + "name=\"".len();
        if let Some(r) = s[q..].find('"') {
            let close = q + r;
            if b.get(close + 1) == Some(&b'>') {
                return Some(close + 2);
            }
        }
    }
    (b.get(j) == Some(&b'>')).then_some(j + 1)
}

/// `transformToXML`: `<tag=abc>` becomes `<tag name="abc">` (the value
/// escaped by `xml.EscapeText`), then all character data outside the
/// `function`/`parameter` tags is escaped ([`escape_text_node`]).
pub(super) fn transform_to_xml(raw: &str) -> String {
    // qwenTagRegex.ReplaceAllStringFunc
    let mut transformed = String::with_capacity(raw.len() + 16);
    let mut last = 0;
    while let Some((start, end, tag, value)) = find_qwen_tag(raw, last) {
        transformed.push_str(&raw[last..start]);
        transformed.push('<');
        transformed.push_str(tag);
        transformed.push_str(" name=\"");
        xml_escape_text(&mut transformed, value);
        transformed.push_str("\">");
        last = end;
    }
    transformed.push_str(&raw[last..]);

    // qwenXMLTagRegex.FindAllStringIndex: keep the tags, escape the rest
    let mut out = String::with_capacity(transformed.len() + 16);
    let mut last_idx = 0;
    let mut i = 0;
    let t = transformed.as_str();
    while let Some(off) = t[i..].find('<') {
        let start = i + off;
        match xml_tag_match_at(t, start) {
            Some(end) => {
                if start > last_idx {
                    escape_text_node(&mut out, &t[last_idx..start]);
                }
                out.push_str(&t[start..end]);
                last_idx = end;
                i = end;
            }
            None => i = start + 1,
        }
    }
    if last_idx < t.len() {
        escape_text_node(&mut out, &t[last_idx..]);
    }
    out
}

/// `xml.EscapeText`: `"` `'` `&` `<` `>` tab, newline and carriage return
/// as references, characters outside XML's range as U+FFFD.
fn xml_escape_text(out: &mut String, s: &str) {
    for r in s.chars() {
        match r {
            '"' => out.push_str("&#34;"),
            '\'' => out.push_str("&#39;"),
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\t' => out.push_str("&#x9;"),
            '\n' => out.push_str("&#xA;"),
            '\r' => out.push_str("&#xD;"),
            r if !is_in_character_range(r) => out.push('\u{fffd}'),
            r => out.push(r),
        }
    }
}

/// `escapeTextNode`: `&`, `<` and `>` escaped, everything else (newlines,
/// tabs) as it is.
fn escape_text_node(sb: &mut String, s: &str) {
    for r in s.chars() {
        match r {
            '&' => sb.push_str("&amp;"),
            '<' => sb.push_str("&lt;"),
            '>' => sb.push_str("&gt;"),
            r => sb.push(r),
        }
    }
}

// ---- encoding/xml (Go 1.26), as `xml.Unmarshal(data, &XMLFunctionCall)`
// meets it ----
//
// After `transform_to_xml` every `<` of the text opens one of
// `<function>`, `<parameter>`, `</function>`, `</parameter>` (optionally
// with `name="…"` after ASCII white space) and every `&` outside those
// tags is one of its own `&amp;`/`&lt;`/`&gt;`; attribute values copied
// from the model's own tags can hold anything but `"`. So of Go's
// decoder this needs start and end elements, character data, quoted
// attribute values with entity references, strict nesting and Go's
// error texts with their line numbers; comments, processing
// instructions, CDATA and directives cannot occur.

/// `isInCharacterRange`.
fn is_in_character_range(r: char) -> bool {
    let r = r as u32;
    r == 0x09
        || r == 0x0A
        || r == 0x0D
        || (0x20..=0xD7FF).contains(&r)
        || (0xE000..=0xFFFD).contains(&r)
        || (0x10000..=0x10FFFF).contains(&r)
}

/// `isNameByte`.
fn is_name_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b':' | b'.' | b'-')
}

/// A decoding error: `io.EOF`, a `*xml.SyntaxError`, or another error's
/// text.
#[derive(Clone, Debug, PartialEq, Eq)]
enum XmlErr {
    Eof,
    Syntax { msg: String, line: i64 },
}

impl XmlErr {
    fn text(&self) -> String {
        match self {
            XmlErr::Eof => "EOF".to_string(),
            XmlErr::Syntax { msg, line } => format!("XML syntax error on line {line}: {msg}"),
        }
    }
}

/// A token (`xml.Token`) of the kinds that can occur.
#[derive(Clone, Debug, PartialEq, Eq)]
enum XmlToken {
    /// `StartElement`: the local name and the attributes (local name,
    /// value). (No name here can hold a `:`, so every name space is empty.)
    Start(String, Vec<(String, String)>),
    /// `EndElement`.
    End(String),
    /// `CharData`.
    CharData(Vec<u8>),
}

/// `xml.Decoder` with `Strict` set (as `xml.Unmarshal` makes it).
struct XmlDecoder<'a> {
    data: &'a [u8],
    pos: usize,
    next_byte: Option<u8>,
    line: i64,
    err: Option<XmlErr>,
    buf: Vec<u8>,
    /// Open elements (`stkStart` entries).
    stk: Vec<String>,
    /// `needClose`/`toClose`: a self-closing element's pending end.
    to_close: Option<String>,
}

impl<'a> XmlDecoder<'a> {
    fn new(data: &'a str) -> Self {
        XmlDecoder {
            data: data.as_bytes(),
            pos: 0,
            next_byte: None,
            line: 1,
            err: None,
            buf: Vec::new(),
            stk: Vec::new(),
            to_close: None,
        }
    }

    fn syntax_error(&self, msg: impl Into<String>) -> XmlErr {
        XmlErr::Syntax {
            msg: msg.into(),
            line: self.line,
        }
    }

    fn set_syntax_error(&mut self, msg: impl Into<String>) -> XmlErr {
        let e = self.syntax_error(msg);
        self.err = Some(e.clone());
        e
    }

    /// The pending error (`d.err`), `EOF` when none was set.
    fn error(&self) -> XmlErr {
        self.err.clone().unwrap_or(XmlErr::Eof)
    }

    /// `getc`.
    fn getc(&mut self) -> Option<u8> {
        if self.err.is_some() {
            return None;
        }
        let b = match self.next_byte.take() {
            Some(b) => b,
            None => {
                let Some(&b) = self.data.get(self.pos) else {
                    self.err = Some(XmlErr::Eof);
                    return None;
                };
                self.pos += 1;
                b
            }
        };
        if b == b'\n' {
            self.line += 1;
        }
        Some(b)
    }

    /// `mustgetc`: EOF becomes the syntax error `unexpected EOF`.
    fn mustgetc(&mut self) -> Option<u8> {
        let b = self.getc();
        if b.is_none() && self.err == Some(XmlErr::Eof) {
            self.set_syntax_error("unexpected EOF");
        }
        b
    }

    /// `ungetc`.
    fn ungetc(&mut self, b: u8) {
        if b == b'\n' {
            self.line -= 1;
        }
        self.next_byte = Some(b);
    }

    /// `space`.
    fn space(&mut self) {
        while let Some(b) = self.getc() {
            if !matches!(b, b' ' | b'\r' | b'\n' | b'\t') {
                self.ungetc(b);
                return;
            }
        }
    }

    /// `readName`: name bytes into the buffer (every non-ASCII byte
    /// accepted).
    fn read_name(&mut self) -> bool {
        let Some(b) = self.mustgetc() else {
            return false;
        };
        if b < 0x80 && !is_name_byte(b) {
            self.ungetc(b);
            return false;
        }
        self.buf.push(b);
        loop {
            let Some(b) = self.mustgetc() else {
                return false;
            };
            if b < 0x80 && !is_name_byte(b) {
                self.ungetc(b);
                break;
            }
            self.buf.push(b);
        }
        true
    }

    /// `name`. Go then checks the name against XML's name characters;
    /// the names that reach here (`function`, `parameter`, `name`) are
    /// ASCII, for which that is: a letter, `_` or `:` first.
    fn name(&mut self) -> Option<String> {
        self.buf.clear();
        if !self.read_name() {
            return None;
        }
        let s = String::from_utf8_lossy(&self.buf).into_owned();
        let first_ok = s
            .bytes()
            .next()
            .is_some_and(|c| c >= 0x80 || c.is_ascii_alphabetic() || c == b'_' || c == b':');
        if !first_ok {
            self.set_syntax_error(format!("invalid XML name: {s}"));
            return None;
        }
        Some(s)
    }

    /// `nsname`: the local part (none of these names has a prefix; one
    /// with two colons fails).
    fn nsname(&mut self) -> Option<String> {
        let s = self.name()?;
        if s.matches(':').count() > 1 {
            return None;
        }
        match s.split_once(':') {
            Some((space, local)) if !space.is_empty() && !local.is_empty() => {
                Some(local.to_string())
            }
            _ => Some(s),
        }
    }

    /// `text(quote, false)`: character data up to `<` (`quote` `None`) or
    /// a quoted attribute value up to its quote; entity references
    /// resolved, `\r\n` and `\r` made `\n`, the result checked for
    /// characters outside XML's range.
    fn text(&mut self, quote: Option<u8>) -> Option<Vec<u8>> {
        let (mut b0, mut b1) = (0u8, 0u8);
        self.buf.clear();
        while let Some(b) = self.getc() {
            // `]]>` may not appear in ordinary text
            if quote.is_none() && b0 == b']' && b1 == b']' && b == b'>' {
                self.set_syntax_error("unescaped ]]> not in CDATA section");
                return None;
            }

            // Stop reading text at a <.
            if b == b'<' {
                if quote.is_some() {
                    self.set_syntax_error("unescaped < inside quoted string");
                    return None;
                }
                self.ungetc(b'<');
                break;
            }
            if quote == Some(b) {
                break;
            }
            if b == b'&' {
                let before = self.buf.len();
                self.buf.push(b'&');
                let mut text: Option<String> = None;
                let mut b = self.mustgetc()?;
                if b == b'#' {
                    self.buf.push(b);
                    b = self.mustgetc()?;
                    let mut base = 10;
                    if b == b'x' {
                        base = 16;
                        self.buf.push(b);
                        b = self.mustgetc()?;
                    }
                    let start = self.buf.len();
                    while b.is_ascii_digit() || (base == 16 && b.is_ascii_hexdigit()) {
                        self.buf.push(b);
                        b = self.mustgetc()?;
                    }
                    if b != b';' {
                        self.ungetc(b);
                    } else {
                        let s = String::from_utf8_lossy(&self.buf[start..]).into_owned();
                        self.buf.push(b';');
                        // strconv.ParseUint(s, base, 64), then string(rune(n))
                        if let Ok(n) = u64::from_str_radix(&s, base) {
                            if n <= 0x10FFFF && !s.is_empty() {
                                let r = char::from_u32(n as u32).unwrap_or('\u{fffd}');
                                text = Some(r.to_string());
                            }
                        }
                    }
                } else {
                    self.ungetc(b);
                    if !self.read_name() && self.err.is_some() {
                        return None;
                    }
                    let b = self.mustgetc()?;
                    if b != b';' {
                        self.ungetc(b);
                    } else {
                        // Only the five predefined entities are known (a
                        // name that is not an XML name is unknown too).
                        let name = &self.buf[before + 1..];
                        text = match name {
                            b"lt" => Some("<"),
                            b"gt" => Some(">"),
                            b"amp" => Some("&"),
                            b"apos" => Some("'"),
                            b"quot" => Some("\""),
                            _ => None,
                        }
                        .map(str::to_string);
                        self.buf.push(b';');
                    }
                }

                if let Some(text) = text {
                    self.buf.truncate(before);
                    self.buf.extend_from_slice(text.as_bytes());
                    b0 = 0;
                    b1 = 0;
                    continue;
                }
                let mut ent = String::from_utf8_lossy(&self.buf[before..]).into_owned();
                if !ent.ends_with(';') {
                    ent.push_str(" (no semicolon)");
                }
                self.set_syntax_error(format!("invalid character entity {ent}"));
                return None;
            }

            // unescaped \r and \r\n become \n
            if b == b'\r' {
                self.buf.push(b'\n');
            } else if b1 == b'\r' && b == b'\n' {
                // \r\n: the \n is written already
            } else {
                self.buf.push(b);
            }

            b0 = b1;
            b1 = b;
        }

        // Inspect each rune for being a disallowed character.
        let data = std::mem::take(&mut self.buf);
        let s = match std::str::from_utf8(&data) {
            Ok(s) => s,
            Err(_) => {
                self.set_syntax_error("invalid UTF-8");
                return None;
            }
        };
        if let Some(r) = s.chars().find(|&r| !is_in_character_range(r)) {
            self.set_syntax_error(format!("illegal character code U+{:04X}", r as u32));
            return None;
        }
        Some(data)
    }

    /// `attrval`: a quoted value (strict: nothing else).
    fn attrval(&mut self) -> Option<Vec<u8>> {
        let b = self.mustgetc()?;
        if b == b'"' || b == b'\'' {
            return self.text(Some(b));
        }
        self.set_syntax_error("unquoted or missing attribute value in element");
        None
    }

    /// `rawToken`.
    fn raw_token(&mut self) -> Result<XmlToken, XmlErr> {
        if let Some(e) = &self.err {
            return Err(e.clone());
        }
        if let Some(name) = self.to_close.take() {
            return Ok(XmlToken::End(name));
        }

        let Some(b) = self.getc() else {
            return Err(self.error());
        };

        if b != b'<' {
            // Text section.
            self.ungetc(b);
            return match self.text(None) {
                Some(data) => Ok(XmlToken::CharData(data)),
                None => Err(self.error()),
            };
        }

        let Some(b) = self.mustgetc() else {
            return Err(self.error());
        };
        match b {
            b'/' => {
                // </: End element
                let Some(name) = self.nsname() else {
                    if self.err.is_none() {
                        self.set_syntax_error("expected element name after </");
                    }
                    return Err(self.error());
                };
                self.space();
                let Some(b) = self.mustgetc() else {
                    return Err(self.error());
                };
                if b != b'>' {
                    return Err(
                        self.set_syntax_error(format!("invalid characters between </{name} and >"))
                    );
                }
                Ok(XmlToken::End(name))
            }
            b'?' | b'!' => {
                // Processing instructions, comments, CDATA and directives:
                // `transform_to_xml` escapes every `<` that could start one.
                Err(self.set_syntax_error("unexpected markup"))
            }
            _ => {
                // an open element like <a href="foo">
                self.ungetc(b);
                let Some(name) = self.nsname() else {
                    if self.err.is_none() {
                        self.set_syntax_error("expected element name after <");
                    }
                    return Err(self.error());
                };
                let mut attr = Vec::new();
                let mut empty = false;
                loop {
                    self.space();
                    let Some(b) = self.mustgetc() else {
                        return Err(self.error());
                    };
                    if b == b'/' {
                        empty = true;
                        let Some(b) = self.mustgetc() else {
                            return Err(self.error());
                        };
                        if b != b'>' {
                            return Err(self.set_syntax_error("expected /> in element"));
                        }
                        break;
                    }
                    if b == b'>' {
                        break;
                    }
                    self.ungetc(b);

                    let Some(a_name) = self.nsname() else {
                        if self.err.is_none() {
                            self.set_syntax_error("expected attribute name in element");
                        }
                        return Err(self.error());
                    };
                    self.space();
                    let Some(b) = self.mustgetc() else {
                        return Err(self.error());
                    };
                    if b != b'=' {
                        return Err(self.set_syntax_error("attribute name without = in element"));
                    }
                    self.space();
                    let Some(data) = self.attrval() else {
                        return Err(self.error());
                    };
                    attr.push((a_name, String::from_utf8_lossy(&data).into_owned()));
                }
                if empty {
                    self.to_close = Some(name.clone());
                }
                Ok(XmlToken::Start(name, attr))
            }
        }
    }

    /// `Token`: strict nesting; EOF inside an element is `unexpected EOF`.
    fn token(&mut self) -> Result<XmlToken, XmlErr> {
        let t = match self.raw_token() {
            Ok(t) => t,
            Err(XmlErr::Eof) if !self.stk.is_empty() => {
                return Err(self.syntax_error("unexpected EOF"));
            }
            Err(e) => return Err(e),
        };
        match &t {
            XmlToken::Start(name, _) => self.stk.push(name.clone()),
            XmlToken::End(name) => match self.stk.pop() {
                None => {
                    return Err(self.set_syntax_error(format!("unexpected end element </{name}>")));
                }
                Some(open) if open != *name => {
                    return Err(
                        self.set_syntax_error(format!("element <{open}> closed by </{name}>"))
                    );
                }
                Some(_) => {}
            },
            XmlToken::CharData(_) => {}
        }
        Ok(t)
    }

    /// `Skip`: through the end of the element just started.
    fn skip(&mut self) -> Result<(), XmlErr> {
        let mut depth: i64 = 0;
        loop {
            match self.token()? {
                XmlToken::Start(..) => depth += 1,
                XmlToken::End(_) => {
                    if depth == 0 {
                        return Ok(());
                    }
                    depth -= 1;
                }
                XmlToken::CharData(_) => {}
            }
        }
    }
}

/// `xml.Unmarshal([]byte(s), &functionCall)`: the first element must be
/// `<function>` (character data before it is skipped), its `name`
/// attribute the name; each `<parameter>` child gives its `name` and its
/// own character data; any other child element is skipped; nothing after
/// the closing `</function>` is read.
fn xml_unmarshal(s: &str) -> Result<XmlFunctionCall, String> {
    let mut d = XmlDecoder::new(s);
    let err = |e: XmlErr| e.text();

    let (name, attrs) = loop {
        if let XmlToken::Start(name, attrs) = d.token().map_err(err)? {
            break (name, attrs);
        }
    };
    if name != "function" {
        return Err(format!(
            "expected element type <function> but have <{name}>"
        ));
    }
    let mut call = XmlFunctionCall::default();
    for (k, v) in attrs {
        if k == "name" {
            call.name = v;
        }
    }

    loop {
        match d.token().map_err(err)? {
            XmlToken::Start(child, attrs) => {
                if child == "parameter" {
                    call.parameters
                        .push(xml_unmarshal_parameter(&mut d, attrs).map_err(err)?);
                } else {
                    d.skip().map_err(err)?;
                }
            }
            XmlToken::End(_) => break,
            XmlToken::CharData(_) => {}
        }
    }
    Ok(call)
}

/// An `XMLParameter` from its start element on.
fn xml_unmarshal_parameter(
    d: &mut XmlDecoder,
    attrs: Vec<(String, String)>,
) -> Result<XmlParameter, XmlErr> {
    let mut p = XmlParameter::default();
    for (k, v) in attrs {
        if k == "name" {
            p.name = v;
        }
    }
    let mut data = Vec::new();
    loop {
        match d.token()? {
            XmlToken::Start(..) => d.skip()?,
            XmlToken::End(_) => break,
            XmlToken::CharData(c) => data.extend_from_slice(&c),
        }
    }
    p.value = String::from_utf8_lossy(&data).into_owned();
    Ok(p)
}

pub(crate) fn constructors() -> Constructors {
    fn make() -> Box<dyn Parser> {
        Box::new(Qwen3CoderParser::default())
    }
    Constructors {
        by_name: |n| (n == "qwen3-coder").then(make),
        by_go_type: |t, _| (t == "Qwen3CoderParser").then(make),
    }
}

#[cfg(test)]
pub(super) mod golden {
    //! The dump of `[]qwenEvent` (`parser_methods` lines of the Qwen
    //! parsers' tests); the rest of the recorded lines' format is
    //! [`crate::parsers::golden_support`].

    use crate::gojson::J;

    /// `[]qwenEvent` as dumped (`null` for none).
    pub fn dump_events(events: &[super::QwenEvent]) -> String {
        if events.is_empty() {
            return "null".into();
        }
        J::Arr(
            events
                .iter()
                .map(|e| {
                    let (ty, k, v) = match e {
                        super::QwenEvent::RawToolCall { raw } => {
                            ("qwenEventRawToolCall", "raw", raw)
                        }
                        super::QwenEvent::Content { content } => {
                            ("qwenEventContent", "content", content)
                        }
                        super::QwenEvent::ThinkingContent { content } => {
                            ("qwenEventThinkingContent", "content", content)
                        }
                    };
                    J::Obj(vec![
                        ("$type".into(), J::s(ty)),
                        ("value".into(), J::Obj(vec![(k.into(), J::s(v))])),
                    ])
                })
                .collect(),
        )
        .to_json()
    }
}

#[cfg(test)]
impl Qwen3CoderParser {
    /// Sets the fields from a recorded state dump.
    pub(super) fn load_state(&mut self, v: &Json) {
        self.state = match v["state"].as_i64() {
            Some(1) => QwenParserState::CollectingToolContent,
            _ => QwenParserState::LookingForToolStart,
        };
        self.acc = v["acc"].as_str().unwrap_or("").to_string();
        self.tools = crate::parsers::golden_support::tools(&v["tools"]);
        self.call_index = v["callIndex"].as_i64().unwrap_or(0);
    }

    /// The state as the recorder dumps it (tools compared apart).
    pub(super) fn state_dump(&self) -> Json {
        serde_json::json!({
            "state": self.state as i64,
            "acc": self.acc,
            "callIndex": self.call_index,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::golden::dump_events;
    use super::*;
    use crate::parsers::golden_support::{
        self as golden, call_result, dump_value, err_of, ret_span, same,
    };
    use serde_json::json;

    const FILES: &[&str] = &["qwen3coder_test.go"];

    #[test]
    fn recorded_helper_calls() {
        for (line, t) in golden::lines("func", FILES) {
            let args = t["args"].as_array().cloned().unwrap_or_default();
            let arg_str = |i: usize| args.get(i).and_then(Json::as_str).unwrap_or("").to_string();
            let want = ret_span(line, None, 0);
            let at = format!("{} {}({:?})", t["test"], t["func"], args);
            match t["func"].as_str().unwrap_or("") {
                "parseValue" => {
                    let types: Vec<String> = match &args[1] {
                        Json::String(s) => vec![s.clone()],
                        v => serde_json::from_value(v.clone()).unwrap_or_default(),
                    };
                    let got = dump_value(&parse_value(&arg_str(0), &types)).to_string();
                    assert!(same(&want, &got), "{at}: want {want}, got {got}");
                }
                "transformToXML" => {
                    assert_eq!(json!(transform_to_xml(&arg_str(0))), t["ret"][0], "{at}");
                }
                "parseToolCall" => {
                    let raw = args[0]["raw"].as_str().unwrap_or("");
                    let (call, err) = call_result(&parse_tool_call(raw, &golden::tools(&args[1])));
                    assert_eq!(call, want, "{at}");
                    assert_eq!(err_of(&err), err_of(&t["ret"][1]), "{at}");
                }
                "trailingWhitespaceLen" => {
                    let got = super::super::trailing_whitespace_len(&arg_str(0));
                    assert_eq!(json!(got), t["ret"][0], "{at}");
                }
                "overlap" => {
                    let got = super::super::overlap(&arg_str(0), &arg_str(1));
                    assert_eq!(json!(got), t["ret"][0], "{at}");
                }
                other => panic!("{at}: no replay for {other}"),
            }
        }
    }

    #[test]
    fn recorded_parse_events() {
        for (line, t) in golden::lines("parser_methods", FILES) {
            assert_eq!(t["type"], "Qwen3CoderParser");
            let mut p = Qwen3CoderParser::default();
            for (i, c) in t["calls"].as_array().into_iter().flatten().enumerate() {
                let at = format!("{} #{} call {i} {}", t["test"], t["n"], c["m"]);
                p.load_state(&c["state"]);
                match c["m"].as_str().unwrap_or("") {
                    "parseEvents" => {
                        let got = dump_events(&p.parse_events());
                        let want = ret_span(line, Some(i), 0);
                        assert!(same(&want, &got), "{at}: want {want}, got {got}");
                    }
                    other => panic!("{at}: no replay for {other}"),
                }
                let mut after = c["after"].clone();
                assert_eq!(golden::tools(&after["tools"]), p.tools, "{at}");
                after.as_object_mut().map(|o| o.remove("tools"));
                assert_eq!(after, p.state_dump(), "{at}");
            }
        }
    }

    fn events(p: &mut Qwen3CoderParser, input: &str) -> Vec<QwenEvent> {
        p.acc.push_str(input);
        p.parse_events()
    }

    fn content(s: &str) -> QwenEvent {
        QwenEvent::Content {
            content: s.to_string(),
        }
    }

    fn raw(s: &str) -> QwenEvent {
        QwenEvent::RawToolCall { raw: s.to_string() }
    }

    #[test]
    fn streaming() {
        // TestQwenParserStreaming (a few of its cases)
        let mut p = Qwen3CoderParser::default();
        assert_eq!(
            events(
                &mut p,
                "before1<tool_call>in tool call</tool_call>after1<tool_call>in tool call 2</tool_call>after2"
            ),
            [
                content("before1"),
                raw("in tool call"),
                content("after1"),
                raw("in tool call 2"),
                content("after2")
            ]
        );
        let mut p = Qwen3CoderParser::default();
        assert_eq!(events(&mut p, "abc\n<tool_call"), [content("abc")]);
        assert_eq!(
            events(&mut p, " fakeout"),
            [content("\n<tool_call fakeout")]
        );
        let mut p = Qwen3CoderParser::default();
        assert_eq!(events(&mut p, "Hello\u{3000}<tool"), [content("Hello")]);
        assert_eq!(events(&mut p, "_call>abc"), []);
        assert_eq!(
            events(&mut p, "</tool_call>def"),
            [raw("abc"), content("def")]
        );
        let mut p = Qwen3CoderParser::default();
        for c in "<tool_call>abc</tool_call".chars() {
            assert_eq!(events(&mut p, &c.to_string()), []);
        }
        assert_eq!(events(&mut p, ">"), [raw("abc")]);
    }

    fn tool(name: &str, props: &[(&str, &[&str])]) -> Tool {
        use crate::api::{ToolFunction, ToolFunctionParameters, ToolProperty};
        let properties = props
            .iter()
            .map(|(k, ty)| {
                let p = ToolProperty {
                    type_: ty.iter().map(|s| s.to_string()).collect(),
                    ..ToolProperty::default()
                };
                (k.to_string(), p)
            })
            .collect();
        Tool {
            type_: "function".into(),
            function: ToolFunction {
                name: name.into(),
                parameters: ToolFunctionParameters {
                    type_: "object".into(),
                    properties: Some(properties),
                    ..ToolFunctionParameters::default()
                },
                ..ToolFunction::default()
            },
            ..Tool::default()
        }
    }

    fn call_json(raw: &str, tools: &[Tool]) -> String {
        super::super::tool_call_json(&parse_tool_call(raw, tools).unwrap()).to_json()
    }

    #[test]
    fn tool_calls() {
        // TestQwenToolParser
        assert_eq!(
            call_json(
                "<function=get current temperature>\n<parameter=location with spaces>\nSan Francisco\n</parameter>\n</function>",
                &[]
            ),
            r#"{"function":{"index":0,"name":"get current temperature","arguments":{"location with spaces":"San Francisco"}}}"#
        );
        assert_eq!(
            call_json(
                "<function=\"get current temperature\">\n<parameter=\"unit with spaces\">\n\"celsius\"\n</parameter>\n</function>",
                &[]
            ),
            r#"{"function":{"index":0,"name":"\"get current temperature\"","arguments":{"\"unit with spaces\"":"\"celsius\""}}}"#
        );
        let calc = tool(
            "calculate",
            &[
                ("x", &["number"]),
                ("y", &["integer"]),
                ("enabled", &["boolean"]),
                ("items", &["array"]),
            ],
        );
        assert_eq!(
            call_json(
                "<function=calculate>\n<parameter=x>\n3.14\n</parameter>\n<parameter=y>\n42\n</parameter>\n<parameter=enabled>\ntrue\n</parameter>\n<parameter=items>\n[\"a\", \"b\", \"c\"]\n</parameter>\n</function>",
                &[calc]
            ),
            r#"{"function":{"index":0,"name":"calculate","arguments":{"x":3.14,"y":42,"enabled":true,"items":["a","b","c"]}}}"#
        );
        assert_eq!(
            call_json(
                "<function=exec>\n<parameter=command>\nls && echo \"a > b and a < b\"\n</parameter>\n</function>",
                &[]
            ),
            r#"{"function":{"index":0,"name":"exec","arguments":{"command":"ls \u0026\u0026 echo \"a \u003e b and a \u003c b\""}}}"#
        );
    }

    #[test]
    fn xml_errors() {
        // Recorded from Go's encoding/xml through parseToolCall.
        let e = |raw: &str| parse_tool_call(raw, &[]).unwrap_err();
        assert_eq!(e(""), "EOF");
        assert_eq!(
            e("<parameter=a>x</parameter>"),
            "expected element type <function> but have <parameter>"
        );
        assert_eq!(
            e("<function=a>\n<parameter=b>\nx\n</function>"),
            "XML syntax error on line 4: element <parameter> closed by </function>"
        );
        assert_eq!(
            e("<function=a>\n<parameter=b>x"),
            "XML syntax error on line 2: unexpected EOF"
        );
        assert_eq!(
            e("<function=a>\x01</function>"),
            "XML syntax error on line 1: illegal character code U+0001"
        );
        assert_eq!(
            e("<function name=\"&bogus;\"></function>"),
            "XML syntax error on line 1: invalid character entity &bogus;"
        );
        assert_eq!(
            e("</function name=\"x\">"),
            "XML syntax error on line 1: invalid characters between </function and >"
        );
        // nothing after the function is read
        assert_eq!(
            call_json("<function=a></function>\x01<", &[]),
            r#"{"function":{"index":0,"name":"a","arguments":{}}}"#
        );
    }

    #[test]
    fn xml_transform() {
        // TestQwenXMLTransform
        assert_eq!(
            transform_to_xml("<function=\"get current temperature\">\n<parameter=\"unit\">\ncelsius\n</parameter>\n</function>"),
            "<function name=\"&#34;get current temperature&#34;\">\n<parameter name=\"&#34;unit&#34;\">\ncelsius\n</parameter>\n</function>"
        );
        assert_eq!(
            transform_to_xml("<function=a>\n\t\t<parameter=location>\n\t\tSan Francisco & San Jose\n\t\t</parameter>\n\t\t</function>"),
            "<function name=\"a\">\n\t\t<parameter name=\"location\">\n\t\tSan Francisco &amp; San Jose\n\t\t</parameter>\n\t\t</function>"
        );
    }

    #[test]
    fn typed_values() {
        let t = |raw: &str, ty: &[&str]| {
            let ty: Vec<String> = ty.iter().map(|s| s.to_string()).collect();
            crate::parsers::go_any(&parse_typed_tool_value(raw, &ty)).to_json()
        };
        assert_eq!(t("NULL", &["string"]), "null");
        assert_eq!(t("x", &[]), r#""x""#);
        assert_eq!(t("TRUE", &["boolean"]), "true");
        assert_eq!(t("yes", &["boolean"]), "false");
        assert_eq!(t("yes", &["boolean", "string"]), r#""yes""#);
        assert_eq!(t("12", &["integer"]), "12");
        assert_eq!(t("1.5", &["integer"]), r#""1.5""#);
        assert_eq!(t("1.5", &["integer", "number"]), "1.5");
        assert_eq!(t("2.0", &["number"]), "2");
        assert_eq!(t("1e300", &["number"]), "-9223372036854775808");
        assert_eq!(
            t("[1, {\"b\": 1, \"a\": 2}]", &["array"]),
            r#"[1,{"a":2,"b":1}]"#
        );
        assert_eq!(t("{\"a\": [1]}", &["object"]), r#"{"a":[1]}"#);
        assert_eq!(t("{\"a\": [1]}", &["array"]), r#""{\"a\": [1]}""#);
        assert_eq!(t("{\"a\": [1]}", &["array", "object"]), r#"{"a":[1]}"#);
        assert_eq!(
            t("9007199254740993", &["array", "object"]),
            r#""9007199254740993""#
        );
    }

    #[test]
    fn value_parsing() {
        // TestQwenToolCallValueParsing (Go's values as Go marshals them)
        let cases: &[(&str, &[&str], &str)] = &[
            ("\n\nsome-string\n\n", &[], "\"\\nsome-string\\n\""),
            ("123", &["number"], "123"),
            ("007", &["integer"], "7"),
            ("2147483648", &["integer"], "2147483648"),
            ("100.0", &["number"], "100"),
            ("1.5e-3", &["number"], "0.0015"),
            ("0.00000001", &["number"], "1e-8"),
            ("FALSE", &["boolean"], "false"),
            ("yes", &["boolean"], "false"),
            ("NULL", &["integer"], "null"),
            ("[1, 2.5, 3]", &["array"], "[1,2.5,3]"),
            (
                "{\"b\": 1, \"a\": {\"y\": 2, \"x\": 3}}",
                &["object"],
                "{\"a\":{\"x\":3,\"y\":2},\"b\":1}",
            ),
            ("[1, 2, unclosed", &["array"], "\"[1, 2, unclosed\""),
            ("3.14.159", &["number"], "\"3.14.159\""),
            ("hello", &["string", "number"], "\"hello\""),
            ("42", &["number", "integer"], "42"),
            ("false", &["string", "boolean"], "false"),
            ("[1, 2, 3]", &["object", "array"], "[1,2,3]"),
            ("yes", &["boolean", "boolean"], "\"yes\""),
            ("inf", &["number"], "-9223372036854775808"),
            ("-nan", &["number"], "\"-nan\""),
            ("1e400", &["number"], "\"1e400\""),
            ("[1e400]", &["array"], "\"[1e400]\""),
            (" null", &["array"], "null"),
        ];
        for (raw, types, want) in cases {
            let types: Vec<String> = types.iter().map(|s| s.to_string()).collect();
            let got = super::super::go_any(&parse_value(raw, &types)).to_json();
            assert_eq!(got, *want, "{raw:?} {types:?}");
        }
    }

    /// The tool the recorded edge cases were run with.
    fn edge_tool() -> Tool {
        let mut t = tool(
            "a",
            &[("v", &["number"]), ("w", &["number"]), ("n", &["number"])],
        );
        if let Some(props) = t.function.parameters.properties.as_mut() {
            let one = |ty: &str| crate::api::ToolProperty {
                type_: vec![ty.to_string()],
                ..crate::api::ToolProperty::default()
            };
            let u = crate::api::ToolProperty {
                any_of: vec![one("boolean"), one("integer")],
                ..crate::api::ToolProperty::default()
            };
            props.insert(0, ("u".to_string(), u));
        }
        t
    }

    #[test]
    fn recorded_edge_cases() {
        // parseToolCall of Go 1.26 (encoding/xml's texts and line numbers,
        // entities, \r\n, skipped elements, the types' conversions)
        let calls: &[(&str, &str, Option<&str>)] = &[
        ("<function=a>\n<parameter=b>\nx\r\ny\rz\n</parameter>\n</function>", "{\"function\":{\"index\":0,\"name\":\"a\",\"arguments\":{\"b\":\"x\\ny\\nz\"}}}", None),
        ("<function=a\r\nb>\n<parameter=p\tq>v</parameter></function>", "{\"function\":{\"index\":0,\"name\":\"a\\r\\nb\",\"arguments\":{\"p\\tq\":\"v\"}}}", None),
        ("<function name=\"a&#xD800;&#65;&#x42;&quot;&apos;&lt;&gt;&amp;\">\n</function>", "{\"function\":{\"index\":0,\"name\":\"a\u{fffd}AB\\\"'\\u003c\\u003e\\u0026\",\"arguments\":{}}}", None),
        ("<function name=\"&#0;\"></function>", "{\"function\":{\"index\":0,\"name\":\"\",\"arguments\":{}}}", Some("XML syntax error on line 1: illegal character code U+0000")),
        ("<function name=\"&#x110000;\"></function>", "{\"function\":{\"index\":0,\"name\":\"\",\"arguments\":{}}}", Some("XML syntax error on line 1: invalid character entity &#x110000;")),
        ("<function name=\"&amp\"></function>", "{\"function\":{\"index\":0,\"name\":\"\",\"arguments\":{}}}", Some("XML syntax error on line 1: invalid character entity &amp (no semicolon)")),
        ("<function name=\"&#;\"></function>", "{\"function\":{\"index\":0,\"name\":\"\",\"arguments\":{}}}", Some("XML syntax error on line 1: invalid character entity &#;")),
        ("<function name=\"a<b\"></function>", "{\"function\":{\"index\":0,\"name\":\"\",\"arguments\":{}}}", Some("XML syntax error on line 1: unescaped < inside quoted string")),
        ("<function\u{c}name=\"x\"></function>", "{\"function\":{\"index\":0,\"name\":\"\",\"arguments\":{}}}", Some("XML syntax error on line 1: expected attribute name in element")),
        ("<function\n\tname=\"x\">\n</function >", "{\"function\":{\"index\":0,\"name\":\"\",\"arguments\":{}}}", Some("XML syntax error on line 3: unexpected EOF")),
        ("</parameter><function=a></function>", "{\"function\":{\"index\":0,\"name\":\"\",\"arguments\":{}}}", Some("XML syntax error on line 1: unexpected end element </parameter>")),
        ("text\n<function=a><function=b><parameter=c>skipped</parameter></function><parameter=d>1<parameter=e>no</parameter>2</parameter></function>", "{\"function\":{\"index\":0,\"name\":\"a\",\"arguments\":{\"d\":\"12\"}}}", None),
        ("<function=a><parameter=x>1</parameter><parameter=x>2</parameter><parameter=y>3</parameter></function>", "{\"function\":{\"index\":0,\"name\":\"a\",\"arguments\":{\"x\":\"2\",\"y\":\"3\"}}}", None),
        ("<function=a>\u{fffe}</function>", "{\"function\":{\"index\":0,\"name\":\"\",\"arguments\":{}}}", Some("XML syntax error on line 1: illegal character code U+FFFE")),
        ("<function=a\u{1}b></function>", "{\"function\":{\"index\":0,\"name\":\"a\u{fffd}b\",\"arguments\":{}}}", None),
        ("<function=a>]]&gt;</function>", "{\"function\":{\"index\":0,\"name\":\"a\",\"arguments\":{}}}", None),
        ("<function=a><parameter=u>\n12\n</parameter><parameter=v>\n0x1p-2\n</parameter><parameter=w>\n1_000.5\n</parameter><parameter=n>\nInfinity\n</parameter></function>", "{\"function\":{\"index\":0,\"name\":\"a\",\"arguments\":{\"u\":12,\"v\":0.25,\"w\":1000.5,\"n\":-9223372036854775808}}}", None),
        ];
        let tools = [edge_tool()];
        for (raw, want, want_err) in calls {
            let (call, err) = call_result(&parse_tool_call(raw, &tools));
            assert_eq!(
                (call.as_str(), err_of(&err).as_deref()),
                (*want, *want_err),
                "{raw:?}"
            );
        }
        // parseValue of Go (as Go marshals the value)
        let values: &[(&str, &[&str], &str)] = &[
            ("0x1p-2", &["number"], "0.25"),
            ("1_000", &["number"], "1000"),
            ("1_000", &["integer"], "\"1_000\""),
            ("+7", &["integer"], "7"),
            ("-nan", &["number", "string"], "\"-nan\""),
            ("NaN ", &["number"], "\"NaN \""),
            ("1e309", &["number"], "\"1e309\""),
            ("9223372036854775807", &["number"], "-9223372036854775808"),
            (
                "-9223372036854775809",
                &["integer", "number"],
                "-9223372036854775808",
            ),
            ("4.9e-324", &["number"], "5e-324"),
            ("[-0]", &["array"], "[-0]"),
            (
                "{\"b\":[{\"d\":1,\"c\":2}],\"a\":\"<&>\"}",
                &["object"],
                "{\"a\":\"\\u003c\\u0026\\u003e\",\"b\":[{\"c\":2,\"d\":1}]}",
            ),
            ("null", &["boolean"], "null"),
            ("True", &["boolean", "integer"], "true"),
            ("maybe", &["boolean", "integer"], "\"maybe\""),
            ("12", &["foo"], "\"12\""),
            ("\n\n", &["string"], "\"\""),
            ("\n", &[], "\"\""),
        ];
        for (raw, types, want) in values {
            let types: Vec<String> = types.iter().map(|s| s.to_string()).collect();
            let got = super::super::go_any(&parse_value(raw, &types)).to_json();
            assert_eq!(got, *want, "{raw:?} {types:?}");
        }
    }

    #[test]
    fn tool_call_indexing() {
        // TestQwen3CoderParserToolCallIndexingStreaming / ResetOnInit
        let mut p = Qwen3CoderParser::default();
        p.init(&[], None, None);
        let a = p
            .add("<tool_call><function=first><parameter=a>1</parameter></function></tool_call><tool_call><function=second>", false)
            .unwrap();
        let b = p
            .add("<parameter=b>2</parameter></function></tool_call><tool_call><function=third><parameter=c>3</parameter></function></tool_call>", true)
            .unwrap();
        let all: Vec<ToolCall> = a.calls.into_iter().chain(b.calls).collect();
        assert_eq!(
            super::super::tool_calls_json(&all),
            r#"[{"function":{"index":0,"name":"first","arguments":{"a":"1"}}},{"function":{"index":1,"name":"second","arguments":{"b":"2"}}},{"function":{"index":2,"name":"third","arguments":{"c":"3"}}}]"#
        );
        p.init(&[], None, None);
        let c = p
            .add(
                "<tool_call><function=second><parameter=b>2</parameter></function></tool_call>",
                true,
            )
            .unwrap();
        assert_eq!(c.calls[0].function.index, 0);
    }
}
