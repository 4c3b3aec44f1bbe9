//! `model/parsers/olmo3.go`: the OLMo 3 (instruct) parser. Content streams
//! as it comes; `<function_calls>…</function_calls>` holds Python-esque
//! calls, one a line (`get_weather(location="SF", days=3)`).

use serde_json::{Map, Value as Json};

use super::gojson_decode::Args;
use super::{
    float_json, overlap, parse_float64, parse_int10, tool_call, trim_space, Added, Config,
    Constructors, Parser,
};
use crate::api::{Message, Think, Tool, ToolCall};

/// `olmo3ParserState`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Olmo3ParserState {
    /// `olmo3StateContent`
    #[default]
    Content,
    /// `olmo3StateToolCalls`
    ToolCalls,
    /// `olmo3StateToolCallsDone`
    ToolCallsDone,
}

/// `olmo3FuncCallsOpenTag`
const OLMO3_FUNC_CALLS_OPEN_TAG: &str = "<function_calls>";
/// `olmo3FuncCallsCloseTag`
const OLMO3_FUNC_CALLS_CLOSE_TAG: &str = "</function_calls>";

/// `Olmo3Parser`.
#[derive(Clone, Debug, Default)]
pub struct Olmo3Parser {
    state: Olmo3ParserState,
    buffer: String,
    call_index: i64,
}

/// `olmo3ParserEvent`.
#[derive(Clone, Debug, PartialEq)]
enum Olmo3ParserEvent {
    /// `olmo3ParserEventContent`
    Content(String),
    /// `olmo3ParserEventToolCalls`
    ToolCalls(Vec<ToolCall>),
}

/// How parsing a function-call block fails: an error (Go logs it and drops
/// the calls) or a Go runtime panic (which escapes `Add`; Go's process
/// would crash), with the panic's text.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Olmo3Fail {
    /// An `error`, with its text.
    Err(String),
    /// A runtime panic, with its text (`panic: runtime error: ...`).
    Panic(String),
}

impl Olmo3Fail {
    fn wrap(self, f: impl FnOnce(String) -> String) -> Olmo3Fail {
        match self {
            Olmo3Fail::Err(e) => Olmo3Fail::Err(f(e)),
            p => p,
        }
    }
}

/// The panic Go's `s[1:len(s)-1]` raises on a one-byte quote (`"` or `'`
/// alone, which both starts and ends with the quote).
fn quote_slice_panic() -> Olmo3Fail {
    Olmo3Fail::Panic("panic: runtime error: slice bounds out of range [1:0]".into())
}

impl Olmo3Parser {
    /// `parseEvents`.
    fn parse_events(&mut self) -> Result<Vec<Olmo3ParserEvent>, String> {
        let mut all = Vec::new();
        let mut keep_looping = true;
        while keep_looping {
            let events;
            (events, keep_looping) = self.eat()?;
            all.extend(events);
        }
        // Go logs the events at trace level here.
        Ok(all)
    }

    /// `eat`. `Err` only for a Go runtime panic in the call parser.
    fn eat(&mut self) -> Result<(Vec<Olmo3ParserEvent>, bool), String> {
        let mut events = Vec::new();
        let buf_str = self.buffer.clone();
        if buf_str.is_empty() {
            return Ok((events, false));
        }

        match self.state {
            Olmo3ParserState::Content => {
                if let Some(i) = buf_str.find(OLMO3_FUNC_CALLS_OPEN_TAG) {
                    // Found <function_calls> tag
                    let content = &buf_str[..i];
                    self.buffer = buf_str[i + OLMO3_FUNC_CALLS_OPEN_TAG.len()..].to_string();
                    self.state = Olmo3ParserState::ToolCalls;
                    if !content.is_empty() {
                        events.push(Olmo3ParserEvent::Content(content.to_string()));
                    }
                    Ok((events, true))
                } else {
                    let overlap_len = overlap(&buf_str, OLMO3_FUNC_CALLS_OPEN_TAG);
                    if overlap_len > 0 {
                        // Partial <function_calls> tag - withhold ambiguous content.
                        // The overlap is a prefix of an ASCII tag: a char boundary.
                        let cut = buf_str.len() - overlap_len;
                        self.buffer = buf_str[cut..].to_string();
                        if cut > 0 {
                            events.push(Olmo3ParserEvent::Content(buf_str[..cut].to_string()));
                        }
                    } else {
                        // Regular content - emit all
                        self.buffer.clear();
                        events.push(Olmo3ParserEvent::Content(buf_str));
                    }
                    Ok((events, false))
                }
            }
            Olmo3ParserState::ToolCalls => {
                if let Some(i) = buf_str.find(OLMO3_FUNC_CALLS_CLOSE_TAG) {
                    // Found </function_calls> tag
                    let tool_calls_str = &buf_str[..i];
                    self.buffer = buf_str[i + OLMO3_FUNC_CALLS_CLOSE_TAG.len()..].to_string();
                    self.state = Olmo3ParserState::ToolCallsDone;
                    match parse_olmo3_function_calls(tool_calls_str) {
                        // Go logs the error at trace level and drops the calls.
                        Err(Olmo3Fail::Err(_)) => {}
                        Err(Olmo3Fail::Panic(p)) => return Err(p),
                        Ok(calls) if !calls.is_empty() => {
                            events.push(Olmo3ParserEvent::ToolCalls(calls))
                        }
                        Ok(_) => {}
                    }
                    return Ok((events, true));
                }
                // Still collecting tool calls (or a partial </function_calls>
                // tag): wait for the close tag.
                Ok((events, false))
            }
            Olmo3ParserState::ToolCallsDone => {
                // After tool calls, emit remaining content
                self.buffer.clear();
                self.state = Olmo3ParserState::Content;
                events.push(Olmo3ParserEvent::Content(buf_str));
                Ok((events, false))
            }
        }
    }
}

impl Parser for Olmo3Parser {
    fn init(&mut self, tools: &[Tool], _: Option<&Message>, _: Option<&Think>) -> Vec<Tool> {
        self.state = Olmo3ParserState::Content;
        self.call_index = 0;
        tools.to_vec()
    }

    fn add(&mut self, s: &str, done: bool) -> Result<Added, String> {
        self.buffer.push_str(s);

        if done {
            // Drain any remaining content
            let buf_str = std::mem::take(&mut self.buffer);
            if self.state == Olmo3ParserState::Content && !buf_str.is_empty() {
                return Ok(Added::content(buf_str));
            }
            return Ok(Added::default());
        }

        let events = self.parse_events()?;

        let mut content = String::new();
        let mut all_calls = Vec::new();
        for event in events {
            match event {
                Olmo3ParserEvent::Content(c) => content.push_str(&c),
                Olmo3ParserEvent::ToolCalls(calls) => all_calls.extend(calls),
            }
        }

        for call in &mut all_calls {
            call.function.index = self.call_index;
            self.call_index += 1;
        }

        Ok(Added {
            content,
            thinking: String::new(),
            calls: all_calls,
        })
    }

    fn preserved_tokens(&self) -> Vec<String> {
        vec![
            OLMO3_FUNC_CALLS_OPEN_TAG.to_string(),
            OLMO3_FUNC_CALLS_CLOSE_TAG.to_string(),
        ]
    }

    fn has_tool_support(&self) -> bool {
        true
    }

    fn has_thinking_support(&self) -> bool {
        false
    }
}

/// `parseOlmo3FunctionCalls`: function calls in Python-esque format,
/// `func_name(arg1="value1", arg2=123)`, one a line.
pub(super) fn parse_olmo3_function_calls(s: &str) -> Result<Vec<ToolCall>, Olmo3Fail> {
    let mut calls = Vec::new();
    let s = trim_space(s);
    if s.is_empty() {
        return Ok(calls);
    }

    // Split by newlines for multiple function calls
    for line in s.split('\n') {
        let line = trim_space(line);
        if line.is_empty() {
            continue;
        }
        let call = parse_olmo3_single_function_call(line).map_err(|e| {
            e.wrap(|e| {
                format!(
                    "failed to parse function call {}: {e}",
                    gotmpl::strconv::quote(line)
                )
            })
        })?;
        calls.push(call);
    }

    Ok(calls)
}

/// `funcCallRegex` (`^(\w+)\((.*)\)$`) on one line: the name and the text
/// between the parentheses. `\w` is ASCII; `(.*)` is greedy and stops at
/// no character but `\n`, so the arguments run to the line's last `)`,
/// which must end the line.
fn func_call_regex_match(s: &str) -> Option<(&str, &str)> {
    if s.contains('\n') {
        return None;
    }
    let b = s.as_bytes();
    let name_len = b
        .iter()
        .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
        .count();
    if name_len == 0 || b.get(name_len) != Some(&b'(') {
        return None;
    }
    if b.len() < name_len + 2 || b[b.len() - 1] != b')' {
        return None;
    }
    Some((&s[..name_len], &s[name_len + 1..s.len() - 1]))
}

/// `parseOlmo3SingleFunctionCall`.
fn parse_olmo3_single_function_call(s: &str) -> Result<ToolCall, Olmo3Fail> {
    let Some((func_name, args_str)) = func_call_regex_match(s) else {
        return Err(Olmo3Fail::Err("invalid function call format".into()));
    };

    let args = parse_olmo3_arguments(args_str)
        .map_err(|e| e.wrap(|e| format!("failed to parse arguments: {e}")))?;

    Ok(tool_call(func_name, Args::of(args)))
}

/// `parseOlmo3Arguments`: comma-separated `key=value` pairs, in order (a
/// repeated key keeps its first place and takes the last value, as the
/// ordered map's `Set` does).
fn parse_olmo3_arguments(s: &str) -> Result<Map<String, Json>, Olmo3Fail> {
    let mut args = Map::new();
    let s = trim_space(s);
    if s.is_empty() {
        return Ok(args);
    }

    // Split by commas, but respect nested structures and quotes
    for part in split_arguments(s) {
        let part = trim_space(&part);
        if part.is_empty() {
            continue;
        }

        // Find the first = sign
        let Some(eq_idx) = part.find('=') else {
            return Err(Olmo3Fail::Err(format!("invalid argument format: {part}")));
        };

        let key = trim_space(&part[..eq_idx]);
        let value_str = trim_space(&part[eq_idx + 1..]);

        let value = parse_olmo3_value(value_str)
            .map_err(|e| e.wrap(|e| format!("failed to parse value for {key}: {e}")))?;

        args.insert(key.to_string(), value);
    }

    Ok(args)
}

/// `splitArguments`: splits by commas, respecting quotes and nested
/// structures.
///
/// Go ranges over the string by rune (`for i := range s`) but reads and
/// keeps only the byte at each rune's start (`s[i]`): every non-ASCII
/// character is cut to its lead byte, which alone is not UTF-8 (the
/// encoder writes it as `\ufffd`). Here each such character becomes the
/// lone byte's stand-in ([`super::lone_byte`]), which keeps lone bytes
/// apart as Go does and is written `\ufffd` in tool calls.
fn split_arguments(s: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let mut current = String::new();
    let mut depth: i64 = 0;
    let mut in_string = false;
    let mut string_char: Option<char> = None;
    let mut escaped = false;

    for ch in s.chars() {
        // The byte Go keeps: ASCII as it is, else a lone lead byte.
        let c = if ch.is_ascii() {
            ch
        } else {
            let mut b = [0u8; 4];
            super::lone_byte(ch.encode_utf8(&mut b).as_bytes()[0])
        };

        if escaped {
            current.push(c);
            escaped = false;
            continue;
        }

        if c == '\\' && in_string {
            current.push(c);
            escaped = true;
            continue;
        }

        if (c == '"' || c == '\'') && !in_string {
            in_string = true;
            string_char = Some(c);
            current.push(c);
            continue;
        }

        if Some(c) == string_char && in_string {
            in_string = false;
            string_char = None;
            current.push(c);
            continue;
        }

        if !in_string {
            match c {
                '(' | '[' | '{' => {
                    depth += 1;
                    current.push(c);
                }
                ')' | ']' | '}' => {
                    depth -= 1;
                    current.push(c);
                }
                ',' => {
                    if depth == 0 {
                        parts.push(std::mem::take(&mut current));
                        continue;
                    }
                    current.push(c);
                }
                _ => current.push(c),
            }
        } else {
            current.push(c);
        }
    }

    if !current.is_empty() {
        parts.push(current);
    }

    parts
}

/// Whether `s` is quoted with `"` or `'` (Go's prefix-and-suffix test,
/// which a lone quote passes).
fn is_quoted(s: &str) -> bool {
    (s.starts_with('"') && s.ends_with('"')) || (s.starts_with('\'') && s.ends_with('\''))
}

/// `parseOlmo3Value`: a string, number, boolean, null, array or object.
/// An `int64` is an integer number, a `float64` a float one, a
/// `map[string]any` an object.
pub(super) fn parse_olmo3_value(s: &str) -> Result<Json, Olmo3Fail> {
    let s = trim_space(s);

    // Check for quoted string
    if is_quoted(s) {
        if s.len() < 2 {
            return Err(quote_slice_panic());
        }
        // Remove quotes and unescape
        return Ok(Json::String(unescape_string(&s[1..s.len() - 1])));
    }

    // Check for boolean
    if s == "true" || s == "True" {
        return Ok(Json::Bool(true));
    }
    if s == "false" || s == "False" {
        return Ok(Json::Bool(false));
    }

    // Check for null/None
    if s == "null" || s == "None" || s == "nil" {
        return Ok(Json::Null);
    }

    // Check for number
    if let Some(i) = parse_int10(s) {
        return Ok(Json::from(i));
    }
    if let Some(f) = parse_float64(s) {
        return Ok(float_json(f));
    }

    // Check for array [...]
    if s.starts_with('[') && s.ends_with(']') {
        return parse_olmo3_array(&s[1..s.len() - 1]).map(Json::Array);
    }

    // Check for object {...}
    if s.starts_with('{') && s.ends_with('}') {
        return parse_olmo3_object(&s[1..s.len() - 1]).map(Json::Object);
    }

    // Default to string without quotes
    Ok(Json::String(s.to_string()))
}

/// `parseOlmo3Array`.
fn parse_olmo3_array(s: &str) -> Result<Vec<Json>, Olmo3Fail> {
    let s = trim_space(s);
    if s.is_empty() {
        return Ok(Vec::new());
    }

    let mut arr = Vec::new();
    for part in split_arguments(s) {
        arr.push(parse_olmo3_value(&part)?);
    }
    Ok(arr)
}

/// `parseOlmo3Object`: `key: value` or `"key": value` entries (a
/// `map[string]any`: the last of a repeated key wins; the encoder sorts
/// the keys).
fn parse_olmo3_object(s: &str) -> Result<Map<String, Json>, Olmo3Fail> {
    let s = trim_space(s);
    let mut obj = Map::new();
    if s.is_empty() {
        return Ok(obj);
    }

    for part in split_arguments(s) {
        let part = trim_space(&part);
        if part.is_empty() {
            continue;
        }

        // Find colon separator
        let Some(colon_idx) = part.find(':') else {
            return Err(Olmo3Fail::Err(format!("invalid object entry: {part}")));
        };

        let mut key_str = trim_space(&part[..colon_idx]);
        let value_str = trim_space(&part[colon_idx + 1..]);

        // Remove quotes from key if present
        if is_quoted(key_str) {
            if key_str.len() < 2 {
                return Err(quote_slice_panic());
            }
            key_str = &key_str[1..key_str.len() - 1];
        }

        let val = parse_olmo3_value(value_str)
            .map_err(|e| e.wrap(|e| format!("failed to parse value for key {key_str}: {e}")))?;

        obj.insert(key_str.to_string(), val);
    }

    Ok(obj)
}

/// `unescapeString`: common escape sequences (note Go's NUL placeholder:
/// a NUL in the text comes out as a backslash).
fn unescape_string(s: &str) -> String {
    s.replace("\\\\", "\x00") // Placeholder for backslash
        .replace("\\\"", "\"")
        .replace("\\'", "'")
        .replace("\\n", "\n")
        .replace("\\t", "\t")
        .replace("\\r", "\r")
        .replace('\x00', "\\") // Restore backslash
}

pub(crate) fn constructors() -> Constructors {
    fn make() -> Box<dyn Parser> {
        Box::new(Olmo3Parser::default())
    }
    fn by_go_type(ty: &str, _: &Config) -> Option<Box<dyn Parser>> {
        (ty == "Olmo3Parser").then(make)
    }
    Constructors {
        by_name: |n| (n == "olmo3").then(make),
        by_go_type,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parsers::tool_calls_json;

    fn run(chunks: &[&str]) -> (String, String) {
        let mut p = Olmo3Parser::default();
        p.init(&[], None, None);
        let mut content = String::new();
        let mut calls = Vec::new();
        for c in chunks {
            let a = p.add(c, false).unwrap();
            content += &a.content;
            calls.extend(a.calls);
        }
        let a = p.add("", true).unwrap();
        content += &a.content;
        calls.extend(a.calls);
        (content, tool_calls_json(&calls))
    }

    #[test]
    fn olmo3_parser() {
        assert_eq!(
            run(&["Hello, how can I help you?"]),
            ("Hello, how can I help you?".into(), "null".into())
        );
        assert_eq!(
            run(&[
                r#"Let me check the weather.<function_calls>get_weather(location="NYC")</function_calls>"#
            ]),
            (
                "Let me check the weather.".into(),
                r#"[{"function":{"index":0,"name":"get_weather","arguments":{"location":"NYC"}}}]"#
                    .into()
            )
        );
        assert_eq!(
            run(&["<function_calls>get_weather(location=\"San Francisco\")\nget_weather(location=\"New York\")</function_calls>"]).1,
            r#"[{"function":{"index":0,"name":"get_weather","arguments":{"location":"San Francisco"}}},{"function":{"index":1,"name":"get_weather","arguments":{"location":"New York"}}}]"#
        );
        assert_eq!(
            run(&[r#"<function_calls>update_config(settings={"theme": "dark", "fontSize": 14}, amount=19.99, n=72, on=true, x=null)</function_calls>"#]).1,
            r#"[{"function":{"index":0,"name":"update_config","arguments":{"settings":{"fontSize":14,"theme":"dark"},"amount":19.99,"n":72,"on":true,"x":null}}}]"#
        );
        // streaming, the tag split
        assert_eq!(
            run(&["<func", "tion_calls>test()</function_calls>"]).1,
            r#"[{"function":{"index":0,"name":"test","arguments":{}}}]"#
        );
        assert_eq!(
            run(&[
                "<function_",
                "calls>get_weather",
                "(location=\"SF\")",
                "</function_calls>"
            ])
            .1,
            r#"[{"function":{"index":0,"name":"get_weather","arguments":{"location":"SF"}}}]"#
        );
        // a bad call drops the block
        assert_eq!(
            run(&["a<function_calls>not a call</function_calls>b"]),
            ("ab".into(), "null".into())
        );
    }

    #[test]
    fn olmo3_function_calls() {
        let calls =
            parse_olmo3_function_calls("get_weather(location=\"SF\")\nget_time(timezone=\"PST\")")
                .unwrap();
        assert_eq!(
            tool_calls_json(&calls),
            r#"[{"function":{"index":0,"name":"get_weather","arguments":{"location":"SF"}}},{"function":{"index":0,"name":"get_time","arguments":{"timezone":"PST"}}}]"#
        );
        assert_eq!(parse_olmo3_function_calls(""), Ok(vec![]));
        assert_eq!(parse_olmo3_function_calls("   \n   "), Ok(vec![]));
        assert_eq!(
            parse_olmo3_function_calls("f(x)"),
            Err(Olmo3Fail::Err(
                "failed to parse function call \"f(x)\": failed to parse arguments: invalid argument format: x".into()
            ))
        );
        assert_eq!(
            parse_olmo3_function_calls("f(x=\")"),
            Err(quote_slice_panic())
        );
    }

    #[test]
    fn olmo3_values() {
        let v = |s: &str| crate::parsers::go_any(&parse_olmo3_value(s).unwrap()).to_json();
        for (input, want) in [
            (r#""hello""#, r#""hello""#),
            ("'hello'", r#""hello""#),
            ("42", "42"),
            ("-10", "-10"),
            ("+7", "7"),
            ("3.14", "3.14"),
            ("1e21", "1e+21"),
            ("99999999999999999999", "100000000000000000000"),
            ("1_000", "1000"),
            ("0x10", r#""0x10""#),
            ("0x1p4", "16"),
            ("010", "10"),
            ("+nan", r#""+nan""#),
            ("true", "true"),
            ("True", "true"),
            ("false", "false"),
            ("null", "null"),
            ("None", "null"),
            ("[]", "[]"),
            (r#"["a", "b"]"#, r#"["a","b"]"#),
            ("[1, 2, 3]", "[1,2,3]"),
            ("[,]", r#"[""]"#),
            ("{}", "{}"),
            (r#"{"name": "John"}"#, r#"{"name":"John"}"#),
            (r#"{"b": 1, "a": 2}"#, r#"{"a":2,"b":1}"#),
            (r#""a\\nb\n\"c\"""#, r#""a\\nb\n\"c\"""#),
            ("bare words", r#""bare words""#),
        ] {
            assert_eq!(v(input), want, "{input}");
        }
        // Only the lead byte of a non-ASCII character survives the split.
        assert_eq!(
            parse_olmo3_arguments("q=\"café\"").unwrap()["q"],
            Json::String(format!("caf{}", crate::parsers::lone_byte(0xc3)))
        );
        assert_eq!(parse_olmo3_value("\""), Err(quote_slice_panic()));
        assert_eq!(parse_olmo3_value("{\":1}"), Err(quote_slice_panic()));
    }

    /// The recorded calls of `parseOlmo3FunctionCalls` and `parseOlmo3Value`
    /// (Ollama's olmo3_test.go), made again.
    #[test]
    fn olmo3_recorded_funcs() {
        use crate::parsers::golden_support::{dump_value, err_of, lines, ret_span};
        let mut n = 0;
        for (line, t) in lines("func", &["olmo3_test.go"]) {
            let arg = t["args"][0].as_str().unwrap();
            let want_err = err_of(&t["ret"][1]);
            match t["func"].as_str().unwrap() {
                "parseOlmo3FunctionCalls" => {
                    let got = parse_olmo3_function_calls(arg);
                    match (got, want_err) {
                        (Ok(calls), None) => {
                            assert_eq!(tool_calls_json(&calls), ret_span(line, None, 0), "{line}")
                        }
                        (Err(Olmo3Fail::Err(e)), Some(w)) => assert_eq!(e, w, "{line}"),
                        (got, _) => panic!("{line}: got {got:?}"),
                    }
                }
                "parseOlmo3Value" => {
                    let got = parse_olmo3_value(arg);
                    match (got, want_err) {
                        (Ok(v), None) => assert_eq!(dump_value(&v), t["ret"][0], "{line}"),
                        (Err(Olmo3Fail::Err(e)), Some(w)) => assert_eq!(e, w, "{line}"),
                        (got, _) => panic!("{line}: got {got:?}"),
                    }
                }
                other => panic!("unexpected recorded func {other}"),
            }
            n += 1;
        }
        eprintln!("olmo3_test.go: {n} recorded func calls equal");
    }

    #[test]
    fn olmo3_panic_escapes_add() {
        let mut p = Olmo3Parser::default();
        p.init(&[], None, None);
        assert_eq!(
            p.add("<function_calls>f(x=')</function_calls>", false),
            Err("panic: runtime error: slice bounds out of range [1:0]".into())
        );
    }
}
