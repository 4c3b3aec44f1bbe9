//! `model/parsers/functiongemma.go`: FunctionGemma's output format.
//!
//! A tool call is `<start_function_call>call:NAME{key:value,…}<end_function_call>`;
//! strings are wrapped in `<escape>`, other values are booleans, numbers
//! (as `fmt.Sscanf` reads them), arrays or objects.

use serde_json::{Map, Number, Value as Json};

use super::{overlap, parse_float64, parse_int10, Added, Config, Constructors, Parser};
use crate::api::{Message, Think, Tool, ToolCall};

/// `FunctionGemmaParserState`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum FunctionGemmaParserState {
    /// `FunctionGemmaCollectingContent`
    #[default]
    CollectingContent,
    /// `FunctionGemmaCollectingToolCalls`
    CollectingToolCalls,
}

/// `functionGemmaFunctionCallOpen`
const FUNCTION_GEMMA_FUNCTION_CALL_OPEN: &str = "<start_function_call>";
/// `functionGemmaFunctionCallClose`
const FUNCTION_GEMMA_FUNCTION_CALL_CLOSE: &str = "<end_function_call>";

/// `FunctionGemmaParser`: this format uses
/// `<start_function_call>call:name{args}<end_function_call>` for tool
/// calls.
#[derive(Clone, Debug, Default)]
pub struct FunctionGemmaParser {
    state: FunctionGemmaParserState,
    buffer: String,
    tools: Vec<Tool>,
    call_index: i64,
}

/// `functionGemmaEvent`.
#[derive(Clone, Debug, PartialEq)]
enum FunctionGemmaEvent {
    /// `FunctionGemmaEventContent`
    Content(String),
    /// `functionGemmaEventToolCall`
    ToolCall(ToolCall),
}

/// A Go runtime panic while parsing a value: the only one reachable is
/// `parseValue` slicing `value[8:len(value)-8]` when the value is exactly
/// `<escape>`, which in Ollama takes the server down. The port makes it an
/// error of `Add` with the panic's text instead.
#[derive(Clone, Debug, PartialEq, Eq)]
struct GoPanic(String);

impl Parser for FunctionGemmaParser {
    /// `Init`.
    fn init(&mut self, tools: &[Tool], _: Option<&Message>, _: Option<&Think>) -> Vec<Tool> {
        self.tools = tools.to_vec();
        self.state = FunctionGemmaParserState::CollectingContent;
        self.call_index = 0;
        tools.to_vec()
    }

    /// `Add`.
    fn add(&mut self, s: &str, _done: bool) -> Result<Added, String> {
        self.buffer.push_str(s);
        let events = self.parse_events().map_err(|p| p.0)?;

        let mut tool_calls = Vec::new();
        let mut content = String::new();
        for event in events {
            match event {
                FunctionGemmaEvent::ToolCall(c) => tool_calls.push(c),
                FunctionGemmaEvent::Content(c) => content.push_str(&c),
            }
        }

        for c in &mut tool_calls {
            c.function.index = self.call_index;
            self.call_index += 1;
        }

        Ok(Added {
            content,
            thinking: String::new(),
            calls: tool_calls,
        })
    }

    /// `PreservedTokens`.
    fn preserved_tokens(&self) -> Vec<String> {
        vec![
            FUNCTION_GEMMA_FUNCTION_CALL_OPEN.to_string(),
            FUNCTION_GEMMA_FUNCTION_CALL_CLOSE.to_string(),
        ]
    }

    /// `HasToolSupport`.
    fn has_tool_support(&self) -> bool {
        true
    }

    /// `HasThinkingSupport`.
    fn has_thinking_support(&self) -> bool {
        false
    }
}

impl FunctionGemmaParser {
    /// `parseEvents`.
    fn parse_events(&mut self) -> Result<Vec<FunctionGemmaEvent>, GoPanic> {
        let mut all = Vec::new();
        let mut keep_looping = true;
        while keep_looping {
            let (events, keep) = self.eat()?;
            keep_looping = keep;
            all.extend(events);
        }
        Ok(all)
    }

    /// `emitWithPartialCheck`: the unambiguous content before a potential
    /// partial tag, and the rest.
    fn emit_with_partial_check<'a>(&self, buf: &'a str, tag: &str) -> (&'a str, &'a str) {
        buf.split_at(buf.len() - overlap(buf, tag))
    }

    /// `eat`.
    fn eat(&mut self) -> Result<(Vec<FunctionGemmaEvent>, bool), GoPanic> {
        let buf = self.buffer.clone();
        if buf.is_empty() {
            return Ok((Vec::new(), false));
        }

        match self.state {
            FunctionGemmaParserState::CollectingContent => {
                if let Some((content, rest)) = buf.split_once(FUNCTION_GEMMA_FUNCTION_CALL_OPEN) {
                    self.buffer = rest.to_string();
                    self.state = FunctionGemmaParserState::CollectingToolCalls;
                    if !content.is_empty() {
                        return Ok((vec![FunctionGemmaEvent::Content(content.to_string())], true));
                    }
                    return Ok((Vec::new(), true));
                }
                let (unambig, ambig) =
                    self.emit_with_partial_check(&buf, FUNCTION_GEMMA_FUNCTION_CALL_OPEN);
                self.buffer = ambig.to_string();
                if !unambig.is_empty() {
                    return Ok((
                        vec![FunctionGemmaEvent::Content(unambig.to_string())],
                        false,
                    ));
                }
                Ok((Vec::new(), false))
            }

            FunctionGemmaParserState::CollectingToolCalls => {
                if let Some((call, remaining)) = buf.split_once(FUNCTION_GEMMA_FUNCTION_CALL_CLOSE)
                {
                    self.buffer = remaining.to_string();

                    // parseToolCall never fails (a text that does not match
                    // gives an empty call).
                    let events = vec![FunctionGemmaEvent::ToolCall(self.parse_tool_call(call)?)];

                    if !remaining.contains(FUNCTION_GEMMA_FUNCTION_CALL_OPEN) {
                        self.state = FunctionGemmaParserState::CollectingContent;
                    }
                    return Ok((events, true));
                }
                Ok((Vec::new(), false))
            }
        }
    }

    /// `parseToolCall`: Go's `functionGemmaCallRegex`,
    /// `call:([^{]+)\{(.*)\}`, matched by hand; no match gives an empty
    /// call (no name, nil arguments).
    fn parse_tool_call(&self, content: &str) -> Result<ToolCall, GoPanic> {
        let mut tool_call = ToolCall::default();

        // Extract function name and arguments
        let Some((name, args_str)) = function_gemma_call_match(content) else {
            return Ok(tool_call);
        };

        tool_call.function.name = name.to_string();

        // Parse arguments
        tool_call.function.arguments = Some(self.parse_arguments(args_str)?);

        Ok(tool_call)
    }

    /// `parseArguments`: the `key:value,key:value` format.
    fn parse_arguments(&self, args_str: &str) -> Result<Map<String, Json>, GoPanic> {
        let mut args = Map::new();
        if args_str.is_empty() {
            return Ok(args);
        }

        // Split by comma, but handle nested structures
        for part in self.split_arguments(args_str) {
            // Find the first colon to split key:value
            let Some((key, value)) = part.split_once(':') else {
                continue;
            };

            // Parse the value (an existing key keeps its place, as in the
            // ordered map)
            args.insert(key.to_string(), self.parse_value(value)?);
        }

        Ok(args)
    }

    /// `splitArguments`: splits arguments by comma, respecting nested
    /// structures and `<escape>`d text.
    fn split_arguments(&self, args_str: &str) -> Vec<String> {
        let b = args_str.as_bytes();
        let mut parts: Vec<Vec<u8>> = Vec::new();
        let mut current: Vec<u8> = Vec::new();
        let mut depth: i64 = 0;
        let mut in_escape = false;

        let mut i = 0;
        while i < b.len() {
            let ch = b[i];

            // Check for <escape> tags
            if b[i..].starts_with(b"<escape>") {
                in_escape = !in_escape;
                current.extend_from_slice(b"<escape>");
                i += 8;
                continue;
            }

            if !in_escape {
                match ch {
                    b'{' | b'[' => {
                        depth += 1;
                        current.push(ch);
                    }
                    b'}' | b']' => {
                        depth -= 1;
                        current.push(ch);
                    }
                    b',' if depth == 0 => {
                        if !current.is_empty() {
                            parts.push(std::mem::take(&mut current));
                        }
                    }
                    _ => current.push(ch),
                }
            } else {
                current.push(ch);
            }
            i += 1;
        }

        if !current.is_empty() {
            parts.push(current);
        }

        // Cut only at ASCII bytes: each part is valid UTF-8.
        parts
            .into_iter()
            .map(|p| {
                String::from_utf8(p)
                    .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
            })
            .collect()
    }

    /// `parseValue`: a single value from the FunctionGemma format.
    fn parse_value(&self, value: &str) -> Result<Json, GoPanic> {
        // Check for escaped string
        if value.starts_with("<escape>") && value.ends_with("<escape>") {
            // Remove the escape tags
            if value.len() < 16 {
                // Only `<escape>` itself (the tag has no border); Go's
                // value[8:0] panics.
                return Err(GoPanic(format!(
                    "runtime error: slice bounds out of range [8:{}]",
                    value.len() - 8
                )));
            }
            return Ok(Json::String(value[8..value.len() - 8].to_string()));
        }

        // Check for boolean
        if value == "true" {
            return Ok(Json::Bool(true));
        }
        if value == "false" {
            return Ok(Json::Bool(false));
        }

        // Check for number
        if let Some(num) = parse_number(value) {
            return Ok(num);
        }

        // Check for array
        if value.starts_with('[') && value.ends_with(']') && value.len() >= 2 {
            return self.parse_array(&value[1..value.len() - 1]);
        }

        // Check for object
        if value.starts_with('{') && value.ends_with('}') && value.len() >= 2 {
            return self
                .parse_object(&value[1..value.len() - 1])
                .map(Json::Object);
        }

        // Default to string
        Ok(Json::String(value.to_string()))
    }

    /// `parseArray`: Go's `[]any`, nil (`null`) when there are no parts.
    fn parse_array(&self, content: &str) -> Result<Json, GoPanic> {
        let parts = self.split_arguments(content);
        if parts.is_empty() {
            return Ok(Json::Null);
        }
        let mut result = Vec::with_capacity(parts.len());
        for part in &parts {
            result.push(self.parse_value(part)?);
        }
        Ok(Json::Array(result))
    }

    /// `parseObject`: Go's `map[string]any` (written with sorted keys; the
    /// last of a repeated key wins).
    fn parse_object(&self, content: &str) -> Result<Map<String, Json>, GoPanic> {
        let mut result = Map::new();
        for part in self.split_arguments(content) {
            let Some((key, value)) = part.split_once(':') else {
                continue;
            };
            result.insert(key.to_string(), self.parse_value(value)?);
        }
        Ok(result)
    }
}

/// `functionGemmaCallRegex.FindStringSubmatch(content)` for
/// `call:([^{]+)\{(.*)\}`: the leftmost `call:` followed by at least one
/// non-`{` character up to the first `{`, then the longest text without a
/// newline that ends just before a `}`.
fn function_gemma_call_match(content: &str) -> Option<(&str, &str)> {
    let b = content.as_bytes();
    let mut from = 0;
    while let Some(rel) = content[from..].find("call:") {
        let start = from + rel;
        let name_start = start + "call:".len();
        // [^{]+ runs to the first '{' (none: no later start matches either)
        let brace = name_start + content[name_start..].find('{')?;
        if brace > name_start {
            let args_start = brace + 1;
            let line_end = content[args_start..]
                .find('\n')
                .map_or(b.len(), |i| args_start + i);
            if let Some(close) = content[args_start..line_end].rfind('}') {
                return Some((
                    &content[name_start..brace],
                    &content[args_start..args_start + close],
                ));
            }
        }
        from = start + 1;
    }
    None
}

/// `parseNumber`: `fmt.Sscanf(s, "%d", &int64)` when `s` is exactly the
/// integer it scans to (an integer number), else `fmt.Sscanf(s, "%f",
/// &float64)` (a float number: a prefix of `s`, after spaces, read as
/// `fmt` reads floats), else not a number.
///
/// A NaN or an infinity (`nan`, `inf`, `1p99999`) cannot be held in JSON
/// here; Go keeps it and then fails to marshal the response (`json:
/// unsupported value`). The port makes it `null`.
fn parse_number(s: &str) -> Option<Json> {
    // Try integer first: Sprintf("%d", v) == s holds exactly for Go's
    // canonical decimal form of an int64, which %d scans whole.
    if let Ok(v) = s.parse::<i64>() {
        if v.to_string() == s {
            return Some(Json::Number(Number::from(v)));
        }
    }

    // Try float
    let f = sscanf_float(s)?;
    Some(Number::from_f64(f).map_or(Json::Null, Json::Number))
}

/// `fmt.Sscanf(s, "%f", &v)`: `v`, or `None` for an error.
fn sscanf_float(s: &str) -> Option<f64> {
    let mut sc = Scanner {
        chars: s.chars().collect(),
        pos: 0,
        buf: String::new(),
    };
    // doScanf skips space before the verb, and scanOne again.
    sc.skip_space()?;
    sc.skip_space()?;
    // notEOF
    if sc.pos >= sc.chars.len() {
        return None;
    }
    let tok = sc.float_token();
    convert_float(&tok)
}

/// The part of `fmt`'s scan state `%f` uses.
struct Scanner {
    chars: Vec<char>,
    pos: usize,
    buf: String,
}

impl Scanner {
    /// `ss.SkipSpace` for `Sscanf` (a newline is not a space: an error).
    fn skip_space(&mut self) -> Option<()> {
        while let Some(&r) = self.chars.get(self.pos) {
            if r == '\r' && self.chars.get(self.pos + 1) == Some(&'\n') {
                self.pos += 1;
                continue;
            }
            if r == '\n' {
                // "unexpected newline"
                return None;
            }
            if !fmt_is_space(r) {
                break;
            }
            self.pos += 1;
        }
        Some(())
    }

    /// `ss.accept(ok)`: takes the next rune into the token if it is one of
    /// `ok`.
    fn accept(&mut self, ok: &str) -> bool {
        match self.chars.get(self.pos) {
            Some(&r) if ok.contains(r) => {
                self.buf.push(r);
                self.pos += 1;
                true
            }
            _ => false,
        }
    }

    /// `ss.floatToken`.
    fn float_token(&mut self) -> String {
        const DECIMAL_DIGITS: &str = "0123456789";
        const HEXADECIMAL_DIGITS: &str = "0123456789aAbBcCdDeEfF";
        const SIGN: &str = "+-";
        const PERIOD: &str = ".";
        const EXPONENT: &str = "eEpP";

        self.buf.clear();
        // NaN?
        if self.accept("nN") && self.accept("aA") && self.accept("nN") {
            return self.buf.clone();
        }
        // leading sign?
        self.accept(SIGN);
        // Inf?
        if self.accept("iI") && self.accept("nN") && self.accept("fF") {
            return self.buf.clone();
        }
        let mut digits = format!("{DECIMAL_DIGITS}_");
        let mut exp = EXPONENT;
        if self.accept("0") && self.accept("xX") {
            digits = format!("{HEXADECIMAL_DIGITS}_");
            exp = "pP";
        }
        // digits?
        while self.accept(&digits) {}
        // decimal point?
        if self.accept(PERIOD) {
            // fraction?
            while self.accept(&digits) {}
        }
        // exponent?
        if self.accept(exp) {
            // leading sign?
            self.accept(SIGN);
            // digits?
            while self.accept("0123456789_") {}
        }
        self.buf.clone()
    }
}

/// `fmt`'s `isSpace` (its own table of space runes).
fn fmt_is_space(r: char) -> bool {
    matches!(
        r as u32,
        0x0009..=0x000d
            | 0x0020
            | 0x0085
            | 0x00a0
            | 0x1680
            | 0x2000..=0x200a
            | 0x2028..=0x2029
            | 0x202f
            | 0x205f
            | 0x3000
    )
}

/// `ss.convertFloat(str, 64)`: a decimal mantissa with a binary exponent
/// (`1.5p3`) is evaluated here, everything else by `strconv.ParseFloat`.
fn convert_float(s: &str) -> Option<f64> {
    if let Some(p) = s.find('p') {
        if !s.contains(['x', 'X']) {
            // Atof doesn't handle power-of-2 exponents, but they're easy
            // to evaluate.
            // strconv.ParseFloat, strconv.Atoi (ParseInt base 10 for a
            // 64-bit int); floatToken never yields a signed NaN
            let f = parse_float64(&s[..p])?;
            let m = parse_int10(&s[p + 1..])?;
            return Some(ldexp(f, m));
        }
    }
    parse_float64(s)
}

/// `math.Ldexp(frac, exp)`, with Go's wrapping `int` arithmetic.
fn ldexp(frac: f64, exp: i64) -> f64 {
    const MASK: u64 = 0x7ff;
    const SHIFT: u64 = 64 - 11 - 1;
    const BIAS: i64 = 1023;

    // special cases
    if frac == 0.0 || frac.is_infinite() || frac.is_nan() {
        return frac;
    }
    // normalize
    let (frac, e) = if frac.abs() < f64::MIN_POSITIVE {
        (frac * (1u64 << 52) as f64, -52i64)
    } else {
        (frac, 0)
    };
    let mut exp = exp.wrapping_add(e);
    let mut x = frac.to_bits();
    exp = exp.wrapping_add(((x >> SHIFT) & MASK) as i64 - BIAS);
    if exp < -1075 {
        return 0.0f64.copysign(frac); // underflow
    }
    if exp > 1023 {
        // overflow
        return if frac < 0.0 {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
    }
    let mut m = 1.0f64;
    if exp < -1022 {
        // denormal
        exp += 53;
        m = 1.0 / (1u64 << 53) as f64; // 2**-53
    }
    x &= !(MASK << SHIFT);
    x |= ((exp + BIAS) as u64) << SHIFT;
    m * f64::from_bits(x)
}

pub(crate) fn constructors() -> Constructors {
    fn make() -> Box<dyn Parser> {
        Box::new(FunctionGemmaParser::default())
    }
    Constructors {
        by_name: |n| (n == "functiongemma").then(make),
        by_go_type: |t, _: &Config| (t == "FunctionGemmaParser").then(make),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parsers::{go_any, tool_calls_json};

    /// Feeds chunks as the Go test does (the last with `done`); the content
    /// and all calls as Go marshals them.
    fn feed(chunks: &[&str]) -> (String, String) {
        let mut p = FunctionGemmaParser::default();
        p.init(&[], None, None);
        let (mut content, mut calls) = (String::new(), Vec::new());
        for (i, c) in chunks.iter().enumerate() {
            let a = p.add(c, i == chunks.len() - 1).unwrap();
            content += &a.content;
            calls.extend(a.calls);
        }
        (content, tool_calls_json(&calls))
    }

    // TestFunctionGemmaParser (expected calls as Go marshals them).
    #[test]
    fn function_gemma_parser() {
        let cases: Vec<(&str, Vec<&str>, &str, &str)> = vec![
            (
                "plain_content",
                vec![
                    "H", "e", "l", "l", "o", ",", " ", "w", "o", "r", "l", "d", "!",
                ],
                "Hello, world!",
                r#"null"#,
            ),
            (
                "simple_tool_call",
                vec![
                    "<", "start", "_", "function", "_", "call", ">", "call", ":", "get", "_",
                    "weather", "{", "city", ":", "<", "escape", ">", "Paris", "<", "escape", ">",
                    "}", "<", "end", "_", "function", "_", "call", ">",
                ],
                "",
                r#"[{"function":{"index":0,"name":"get_weather","arguments":{"city":"Paris"}}}]"#,
            ),
            (
                "content_before_tool_call",
                vec![
                    "L", "et", " ", "me", " ", "check", ".", "<", "start", "_", "function", "_",
                    "call", ">", "call", ":", "get", "_", "weather", "{", "city", ":", "<",
                    "escape", ">", "Paris", "<", "escape", ">", "}", "<", "end", "_", "function",
                    "_", "call", ">",
                ],
                "Let me check.",
                r#"[{"function":{"index":0,"name":"get_weather","arguments":{"city":"Paris"}}}]"#,
            ),
            (
                "numeric_arguments",
                vec![
                    "<", "start", "_", "function", "_", "call", ">", "call", ":", "add", "{", "a",
                    ":", "1", ",", "b", ":", "2", "}", "<", "end", "_", "function", "_", "call",
                    ">",
                ],
                "",
                r#"[{"function":{"index":0,"name":"add","arguments":{"a":1,"b":2}}}]"#,
            ),
            (
                "boolean_arguments",
                vec![
                    "<", "start", "_", "function", "_", "call", ">", "call", ":", "set", "_",
                    "flag", "{", "enabled", ":", "true", ",", "verbose", ":", "false", "}", "<",
                    "end", "_", "function", "_", "call", ">",
                ],
                "",
                r#"[{"function":{"index":0,"name":"set_flag","arguments":{"enabled":true,"verbose":false}}}]"#,
            ),
            (
                "multiple_tool_calls",
                vec![
                    "<", "start", "_", "function", "_", "call", ">", "call", ":", "get", "_",
                    "weather", "{", "city", ":", "<", "escape", ">", "Paris", "<", "escape", ">",
                    "}", "<", "end", "_", "function", "_", "call", ">", "<", "start", "_",
                    "function", "_", "call", ">", "call", ":", "get", "_", "weather", "{", "city",
                    ":", "<", "escape", ">", "London", "<", "escape", ">", "}", "<", "end", "_",
                    "function", "_", "call", ">",
                ],
                "",
                r#"[{"function":{"index":0,"name":"get_weather","arguments":{"city":"Paris"}}},{"function":{"index":1,"name":"get_weather","arguments":{"city":"London"}}}]"#,
            ),
            (
                "array_argument",
                vec![
                    "<", "start", "_", "function", "_", "call", ">", "call", ":", "process", "{",
                    "items", ":", "[", "<", "escape", ">", "a", "<", "escape", ">", ",", "<",
                    "escape", ">", "b", "<", "escape", ">", ",", "<", "escape", ">", "c", "<",
                    "escape", ">", "]", "}", "<", "end", "_", "function", "_", "call", ">",
                ],
                "",
                r#"[{"function":{"index":0,"name":"process","arguments":{"items":["a","b","c"]}}}]"#,
            ),
            (
                "object_argument",
                vec![
                    "<", "start", "_", "function", "_", "call", ">", "call", ":", "update", "{",
                    "data", ":", "{", "name", ":", "<", "escape", ">", "test", "<", "escape", ">",
                    ",", "value", ":", "42", "}", "}", "<", "end", "_", "function", "_", "call",
                    ">",
                ],
                "",
                r#"[{"function":{"index":0,"name":"update","arguments":{"data":{"name":"test","value":42}}}}]"#,
            ),
            ("empty_input", vec![], "", r#"null"#),
            (
                "tool_call_with_no_arguments",
                vec![
                    "<", "start", "_", "function", "_", "call", ">", "call", ":", "get", "_",
                    "time", "{", "}", "<", "end", "_", "function", "_", "call", ">",
                ],
                "",
                r#"[{"function":{"index":0,"name":"get_time","arguments":{}}}]"#,
            ),
            (
                "content_with_angle_brackets",
                vec![
                    "The", " ", "result", " ", "is", " ", "a", " ", "<", "value", ">", " ", "tag",
                ],
                "The result is a <value> tag",
                r#"null"#,
            ),
            (
                "float_argument",
                vec![
                    "<", "start", "_", "function", "_", "call", ">", "call", ":", "set", "_",
                    "temp", "{", "value", ":", "3", ".", "14", "}", "<", "end", "_", "function",
                    "_", "call", ">",
                ],
                "",
                r#"[{"function":{"index":0,"name":"set_temp","arguments":{"value":3.14}}}]"#,
            ),
            (
                "content_after_tool_call",
                vec![
                    "<", "start", "_", "function", "_", "call", ">", "call", ":", "test", "{", "}",
                    "<", "end", "_", "function", "_", "call", ">", "Done", "!",
                ],
                "Done!",
                r#"[{"function":{"index":0,"name":"test","arguments":{}}}]"#,
            ),
            (
                "unicode_content_and_arguments",
                vec![
                    "こんにちは",
                    " ",
                    "<",
                    "start",
                    "_",
                    "function",
                    "_",
                    "call",
                    ">",
                    "call",
                    ":",
                    "greet",
                    "{",
                    "name",
                    ":",
                    "<",
                    "escape",
                    ">",
                    "日本語",
                    "<",
                    "escape",
                    ">",
                    "}",
                    "<",
                    "end",
                    "_",
                    "function",
                    "_",
                    "call",
                    ">",
                ],
                "こんにちは ",
                r#"[{"function":{"index":0,"name":"greet","arguments":{"name":"日本語"}}}]"#,
            ),
            (
                "multiple_params_sorted",
                vec![
                    "<", "start", "_", "function", "_", "call", ">", "call", ":", "search", "{",
                    "query", ":", "<", "escape", ">", "test", "<", "escape", ">", ",", "limit",
                    ":", "10", ",", "offset", ":", "0", "}", "<", "end", "_", "function", "_",
                    "call", ">",
                ],
                "",
                r#"[{"function":{"index":0,"name":"search","arguments":{"query":"test","limit":10,"offset":0}}}]"#,
            ),
            (
                "nested_object_argument",
                vec![
                    "<", "start", "_", "function", "_", "call", ">", "call", ":", "create", "{",
                    "config", ":", "{", "settings", ":", "{", "enabled", ":", "true", ",", "name",
                    ":", "<", "escape", ">", "test", "<", "escape", ">", "}", "}", "}", "<", "end",
                    "_", "function", "_", "call", ">",
                ],
                "",
                r#"[{"function":{"index":0,"name":"create","arguments":{"config":{"settings":{"enabled":true,"name":"test"}}}}}]"#,
            ),
            (
                "partial_start_tag_in_content",
                vec!["Hello", " ", "<", "start", " ", "world"],
                "Hello <start world",
                r#"null"#,
            ),
            (
                "parallel_tool_calls",
                vec![
                    "<", "start", "_", "function", "_", "call", ">", "call", ":", "get", "_",
                    "weather", "{", "city", ":", "<", "escape", ">", "Paris", "<", "escape", ">",
                    "}", "<", "end", "_", "function", "_", "call", ">", "<", "start", "_",
                    "function", "_", "call", ">", "call", ":", "get", "_", "time", "{", "timezone",
                    ":", "<", "escape", ">", "UTC", "<", "escape", ">", "}", "<", "end", "_",
                    "function", "_", "call", ">",
                ],
                "",
                r#"[{"function":{"index":0,"name":"get_weather","arguments":{"city":"Paris"}}},{"function":{"index":1,"name":"get_time","arguments":{"timezone":"UTC"}}}]"#,
            ),
            (
                "content_between_tool_calls",
                vec![
                    "<", "start", "_", "function", "_", "call", ">", "call", ":", "first", "{",
                    "}", "<", "end", "_", "function", "_", "call", ">", "Some", " ", "text", " ",
                    "here", "<", "start", "_", "function", "_", "call", ">", "call", ":", "second",
                    "{", "}", "<", "end", "_", "function", "_", "call", ">",
                ],
                "Some text here",
                r#"[{"function":{"index":0,"name":"first","arguments":{}}},{"function":{"index":1,"name":"second","arguments":{}}}]"#,
            ),
        ];
        for (name, chunks, content, calls) in cases {
            let chunks = if chunks.is_empty() { vec![""] } else { chunks };
            assert_eq!(
                feed(&chunks),
                (content.to_string(), calls.to_string()),
                "{name}"
            );
        }
    }

    // TestFunctionGemmaParser_HasSupport
    #[test]
    fn function_gemma_parser_has_support() {
        let p = FunctionGemmaParser::default();
        assert!(p.has_tool_support());
        assert!(!p.has_thinking_support());
        assert!(crate::parsers::parser_for_name("functiongemma").is_some());
    }

    /// `parseNumber` against Go's results (recorded from the Go code):
    /// integers only in Go's canonical form, everything else as `%f` scans
    /// it; `Some("null")` is a NaN or infinity.
    #[test]
    fn parse_number_like_go() {
        let cases: Vec<(&str, Option<&str>)> = vec![
            ("1", Some("1")),
            ("-2", Some("-2")),
            ("0", Some("0")),
            ("-0", Some("-0")),
            ("+7", Some("7")),
            ("007", Some("7")),
            ("3.14", Some("3.14")),
            (" 5", Some("5")),
            ("\n5", None),
            ("\r\n5", None),
            ("\r5", Some("5")),
            (" 5", Some("5")),
            ("1e5", Some("100000")),
            ("1E5", Some("100000")),
            ("1e+5", Some("100000")),
            ("1e", None),
            ("1.", Some("1")),
            (".5", Some("0.5")),
            (".", None),
            ("-", None),
            ("", None),
            ("nan", Some("null")),
            ("NaN", Some("null")),
            ("-nan", None),
            ("inf", Some("null")),
            ("+Inf", Some("null")),
            ("-INF", Some("null")),
            ("infinity", Some("null")),
            ("in", None),
            ("0x1p4", Some("16")),
            ("0X1P-2", Some("0.25")),
            ("0x1.8p1", Some("3")),
            ("0x10", None),
            ("0x_1p4", Some("16")),
            ("1p4", Some("16")),
            ("1.5p-1", Some("0.75")),
            ("1p", None),
            ("1p+3", Some("8")),
            ("1p-1075", Some("0")),
            ("1p-1074", Some("5e-324")),
            ("1p99999", Some("null")),
            ("2p9223372036854775807", Some("0")),
            ("1e400", None),
            ("1e-400", Some("0")),
            ("1_000", Some("1000")),
            ("1__0", None),
            ("_1", None),
            ("1e1_0", Some("10000000000")),
            ("5abc", Some("5")),
            ("3 apples", Some("3")),
            ("1.2.3", Some("1.2")),
            ("9223372036854775807", Some("9223372036854775807")),
            ("9223372036854775808", Some("9223372036854776000")),
            ("-9223372036854775808", Some("-9223372036854775808")),
            ("12345678901234567890", Some("12345678901234567000")),
            ("1e21", Some("1e+21")),
            ("1e20", Some("100000000000000000000")),
            ("4.9e-324", Some("5e-324")),
            ("e5", None),
            ("p5", None),
            ("true", None),
            ("0b101", Some("0")),
        ];
        for (s, want) in cases {
            let got = parse_number(s).map(|v| go_any(&v).to_json());
            assert_eq!(got.as_deref(), want, "{s:?}");
        }
    }

    #[test]
    fn values_and_call_regex() {
        let p = FunctionGemmaParser::default();
        let args = |s: &str| {
            let m = p.parse_arguments(s).unwrap();
            go_any(&Json::Object(m)).to_json()
        };
        // An empty array is Go's nil slice; object keys are sorted, the
        // last repeated key wins; a repeated top-level key keeps its place.
        assert_eq!(
            args("a:[],b:{y:1,x:2,y:3},c:<escape>s,t<escape>,a:true"),
            r#"{"a":true,"b":{"x":2,"y":3},"c":"s,t"}"#
        );
        assert_eq!(args("k:[1,<escape>x<escape>],n"), r#"{"k":[1,"x"]}"#);
        // `<escape>` alone panics in Go.
        assert_eq!(
            p.parse_arguments("k:<escape>"),
            Err(GoPanic(
                "runtime error: slice bounds out of range [8:0]".to_string()
            ))
        );
        let mut fg = FunctionGemmaParser::default();
        fg.init(&[], None, None);
        assert_eq!(
            fg.add(
                "<start_function_call>call:f{k:<escape>}<end_function_call>",
                true
            ),
            Err("runtime error: slice bounds out of range [8:0]".to_string())
        );

        assert_eq!(
            function_gemma_call_match("x call:f{a:1}} y"),
            Some(("f", "a:1}"))
        );
        assert_eq!(function_gemma_call_match("call:{a}"), None);
        assert_eq!(
            function_gemma_call_match("call:{a} call:g{b}"),
            Some(("g", "b"))
        );
        assert_eq!(
            function_gemma_call_match("call:f{a\n}call:g\n{b}"),
            Some(("g\n", "b"))
        );
        assert_eq!(function_gemma_call_match("call:f{a\n}"), None);
        assert_eq!(function_gemma_call_match("call:f{a}\n}"), Some(("f", "a")));
        assert_eq!(
            function_gemma_call_match("call:call:f{x}"),
            Some(("call:f", "x"))
        );
        // No match: an empty call.
        assert_eq!(
            feed(&["<start_function_call>nothing<end_function_call>"]).1,
            r#"[{"function":{"index":0,"name":"","arguments":{}}}]"#
        );
    }

    #[test]
    fn ldexp_like_go() {
        assert_eq!(ldexp(1.0, 4), 16.0);
        assert_eq!(ldexp(-0.0, 5).to_bits(), (-0.0f64).to_bits());
        assert_eq!(ldexp(1.0, -1074), 5e-324);
        assert_eq!(ldexp(1.0, -1075), 0.0);
        assert_eq!(ldexp(1.5, -1074), 1e-323);
        assert_eq!(ldexp(1.0, 1024), f64::INFINITY);
        assert_eq!(ldexp(-1.0, 1024), f64::NEG_INFINITY);
        assert_eq!(ldexp(5e-324, 1074), 1.0);
        assert_eq!(ldexp(2.0, i64::MAX), 0.0);
    }
}
