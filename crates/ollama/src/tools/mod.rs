//! `tools/tools.go`: the tool-call parser Ollama derives from a model's Go
//! TEMPLATE, used when a request has tools and the model has no built-in
//! parser with tool support (`tools.NewParser(m.Template.Template,
//! req.Tools)` in server/routes.go). The tag it looks for comes from the
//! template ([`template::parse_tag`], `tools/template.go`).
//!
//! Go builds each call's arguments by ranging over a `map[string]any`, so
//! their order is random in Go. Here they come in the order of the JSON
//! text (each key at its first place): for the maps of up to eight entries
//! tool calls have, Go's iteration is a rotation of the insertion order,
//! and this is the rotation that starts at the first key. The search of
//! nested objects for the arguments (`findObject`, also a range over a
//! map) goes through the members in text order as well.

use serde_json::{Map, Value as Json};

use crate::api::{Tool, ToolCall};
use crate::parsers::gojson_decode::{unmarshal_any, Args};
use crate::parsers::{tool_call, trim_space};

pub mod template;

pub use template::parse_tag;

/// `toolsState`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum ToolsState {
    /// `toolsState_LookingForTag`
    #[default]
    LookingForTag,
    /// `toolsState_ToolCalling`
    ToolCalling,
    /// `toolsState_Done`
    Done,
}

/// `tools.Parser`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Parser {
    tag: String,
    tools: Vec<Tool>,

    state: ToolsState,
    buffer: Vec<u8>,
    n: i64,

    /// A release before `tools_brace_in_json_string`: braces and brackets
    /// inside JSON strings count too.
    counts_inside_strings: bool,
    /// Whether the two readings of `done()` parted on this output.
    string_brace_seen: std::cell::Cell<bool>,
}

/// The JSON-string state the tool scanners keep (a `\\` escapes the next
/// byte wherever it is, as Go's loops do).
#[derive(Default)]
struct StringSkip {
    in_string: bool,
    escaped: bool,
}

impl StringSkip {
    /// Whether byte `c` is skipped: an escape, an escaped byte, a quote,
    /// or a byte inside a string.
    fn skips(&mut self, c: u8) -> bool {
        if self.escaped {
            self.escaped = false;
            return true;
        }
        match c {
            b'\\' => self.escaped = true,
            b'"' => self.in_string = !self.in_string,
            _ => return self.in_string,
        }
        true
    }
}

/// Whether `buffer` holds the `close` that balances its first `open`:
/// `done()`'s count, skipping JSON strings (with `\` escapes) when
/// `skip_strings`, as releases from `tools_brace_in_json_string` do, and
/// counting every byte before it.
fn closes(buffer: &[u8], open: u8, close: u8, skip_strings: bool) -> bool {
    let mut count = 0i64;
    let mut strings = StringSkip::default();
    for &c in buffer {
        if skip_strings && strings.skips(c) {
            continue;
        }
        if c == open {
            count += 1;
        } else if c == close {
            count -= 1;
            if count == 0 {
                return true;
            }
        }
    }
    false
}

/// A Go `string(bytes)` of text that is valid UTF-8 by construction (the
/// buffer is only ever cut at tags, tool names and ASCII bytes).
fn string_of(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

impl Parser {
    /// `GetBuffer()`.
    pub fn get_buffer(&self) -> &[u8] {
        &self.buffer
    }

    /// `Tag()`: the tool-call tag string the parser looks for in the output
    /// stream.
    pub fn tag(&self) -> &str {
        &self.tag
    }

    /// `NewParser(tmpl, tools)`: a parser for a model's chat template
    /// (Ollama's parsed TEMPLATE, whose Go template it walks) and the
    /// request's tools. `None` is a nil template.
    pub fn new(tmpl: Option<&crate::template::Template>, tools: &[Tool]) -> Parser {
        Parser::from_go_template(tmpl.map(|t| t.go_template()), tools)
    }

    /// `NewParser(tmpl, tools)` with a plain `text/template` template (as
    /// Ollama's tests build them).
    pub fn from_go_template(tmpl: Option<&gotmpl::Template>, tools: &[Tool]) -> Parser {
        Parser::new_with_tag(tools, &parse_tag(tmpl))
    }

    /// `NewParserWithTag(tools, tag)`.
    pub fn new_with_tag(tools: &[Tool], tag: &str) -> Parser {
        Parser {
            tag: tag.to_string(),
            tools: tools.to_vec(),
            ..Parser::default()
        }
    }

    /// `Add(s)`: the tool calls completed so far and the content that
    /// should be sent back to the user.
    pub fn add(&mut self, s: &str) -> (Vec<ToolCall>, String) {
        if self.state == ToolsState::Done {
            return (Vec::new(), s.to_string());
        }

        self.buffer.extend_from_slice(s.as_bytes());

        let mut content = String::new();
        if self.state == ToolsState::LookingForTag {
            let (i, found) = self.find_tag();

            match i {
                None => {
                    content = string_of(&self.buffer);
                    self.buffer.clear();
                }
                Some(i) => {
                    content = string_of(&self.buffer[..i]);
                    self.buffer.drain(..i);
                }
            }

            // for models where { or [ are used as tool calling tags, we only
            // support parsing tools if the first non-whitespace character is
            // { or [
            if (self.tag == "{" || self.tag == "[") && !trim_space(&content).is_empty() {
                self.state = ToolsState::Done;
                return (Vec::new(), content + &string_of(&self.buffer));
            }

            if !found {
                return (Vec::new(), content);
            }

            self.state = ToolsState::ToolCalling;
        }

        let mut calls = Vec::new();
        while let Some(call) = self.parse_tool_call() {
            calls.push(call);
        }

        if self.done() {
            self.state = ToolsState::Done;
            content = string_of(&self.buffer);
            self.buffer.clear();
        }

        (calls, content)
    }

    /// `findTag()`: where the tag starts in the buffer and whether it is
    /// all there (`(-1, false)`, here `None`, when no part of it is): the
    /// first complete occurrence, else the longest suffix of the buffer that
    /// begins it.
    fn find_tag(&self) -> (Option<usize>, bool) {
        let tag = self.tag.as_bytes();
        // First check for complete substring anywhere in s
        if let Some(i) = index(&self.buffer, tag) {
            return (Some(i), true);
        }

        // Then check for partial suffix overlap
        let max = self.buffer.len().min(tag.len());
        for i in (1..=max).rev() {
            if self.buffer.ends_with(&tag[..i]) {
                return (Some(self.buffer.len() - i), false);
            }
        }
        (None, false)
    }

    /// `parseToolCall()`: the next complete tool call in the buffer,
    /// incrementing `n` and advancing the buffer.
    fn parse_tool_call(&mut self) -> Option<ToolCall> {
        let (tool, mut end) = find_tool(&self.tools, &self.buffer);
        let tool = tool?;

        let (found, i) = find_arguments(tool, &self.buffer);
        let args_map = found?;
        if i > end {
            end = i;
        }

        // Go ranges over the map here (random order); the text's order is
        // kept (see the module's documentation).
        let mut tc = tool_call(&tool.function.name, Args::of(args_map));
        tc.function.index = self.n;

        self.n += 1;
        self.buffer.drain(..end.min(self.buffer.len()));
        Some(tc)
    }

    /// Reads as `release`'s `tools.Parser` does.
    pub fn set_release(&mut self, release: changes::Release) {
        self.counts_inside_strings = !release.has(&changes::ollama::TOOLS_BRACE_IN_JSON_STRING);
    }

    /// The rows of Ollama's table whose behaviour this parser's reading
    /// reached.
    pub fn rows_reached(&self) -> Vec<&'static changes::Change> {
        if self.string_brace_seen.get() {
            vec![&changes::ollama::TOOLS_BRACE_IN_JSON_STRING]
        } else {
            Vec::new()
        }
    }

    /// `done()`: whether the closing `}` or `]` of a `{` or `[` tag has
    /// come (other tags never finish: `{}`/`[]` pairs may not be tool
    /// calls).
    fn done(&self) -> bool {
        let (open, close) = match self.tag.as_str() {
            "{" => (b'{', b'}'),
            "[" => (b'[', b']'),
            _ => return false,
        };

        let aware = closes(&self.buffer, open, close, true);
        // without a quote or a backslash the two readings are one
        if !self.buffer.iter().any(|&c| c == b'"' || c == b'\\') {
            return aware;
        }
        let counting = closes(&self.buffer, open, close, false);
        if aware != counting {
            // the two readings part here
            self.string_brace_seen.set(true);
        }
        if self.counts_inside_strings {
            counting
        } else {
            aware
        }
    }

    /// `Content()`: any remaining content that should be sent to the
    /// user: empty unless the tag is `{` or `[` and no tool call was found.
    pub fn content(&self) -> String {
        if self.n > 0 {
            return String::new();
        }

        if self.tag == "{" || self.tag == "[" {
            return string_of(&self.buffer);
        }

        String::new()
    }
}

/// `bytes.Index(s, sep)`.
fn index(s: &[u8], sep: &[u8]) -> Option<usize> {
    if sep.is_empty() {
        return Some(0);
    }
    s.windows(sep.len()).position(|w| w == sep)
}

/// `findTool(tools, buf)`: the tool whose name occurs first in the buffer
/// (the longest name among those at the same place) and the end of that
/// name; nothing when the buffer ends with a partial tool name (wait for
/// more data to tell `get` from `get_weather`) or holds none.
fn find_tool<'t>(tools: &'t [Tool], buf: &[u8]) -> (Option<&'t Tool>, usize) {
    if buf.is_empty() {
        return (None, 0);
    }

    // check if buffer ends with a partial tool name
    // this prevents matching "get" when seeing "get_weather"
    let mut longest: &str = "";
    for t in tools {
        if t.function.name.len() > longest.len() {
            longest = &t.function.name;
        }
    }

    // Only check up to longest characters from the end
    for i in 1..=buf.len().min(longest.len()) {
        let tail = &buf[buf.len() - i..];
        for t in tools {
            let name = t.function.name.as_bytes();
            if tail.len() < name.len() && name.starts_with(tail) {
                return (None, 0);
            }
        }
    }

    // find first occurrence of the longest tool name
    let mut found: Option<&Tool> = None;
    let mut start: Option<usize> = None;
    let mut end = 0;

    for tool in tools {
        let name = tool.function.name.as_bytes();
        let Some(pos) = index(buf, name) else {
            continue;
        };

        // Skip if we have a better match already
        if let (Some(start), Some(found)) = (start, found) {
            if pos > start {
                continue;
            }
            if pos == start && name.len() <= found.function.name.len() {
                continue;
            }
        }

        found = Some(tool);
        start = Some(pos);
        end = pos + name.len();
    }

    match found {
        Some(f) => (Some(f), end),
        None => (None, 0),
    }
}

/// `findArguments(tool, buffer)`: the first object in the buffer that
/// appears to be arguments for the tool, and the position of its closing
/// brace; `None` (Go's nil map) when there are none.
///
/// Objects are found by counting braces outside strings; one that does not
/// decode (`json.Unmarshal` into `map[string]any`) is passed over. In a
/// decoded object, an object with a `name` gives its `arguments` or
/// `parameters` (an object or a string holding one), or nothing; an object
/// with the tool's name as a key gives that member; otherwise nested
/// objects (and objects in arrays) are searched, members in text order (Go
/// ranges over the map); failing all that, the object itself.
fn find_arguments(tool: &Tool, buffer: &[u8]) -> (Option<Map<String, Json>>, usize) {
    if buffer.is_empty() {
        return (None, 0);
    }

    let mut start: Option<usize> = None;
    let mut braces = 0i64;
    let mut strings = StringSkip::default();

    for (i, &c) in buffer.iter().enumerate() {
        if strings.skips(c) {
            continue;
        }

        if c == b'{' {
            if braces == 0 {
                start = Some(i);
            }
            braces += 1;
        } else if c == b'}' {
            braces -= 1;
            if braces == 0 {
                if let Some(s) = start {
                    let object = &buffer[s..=i];

                    let data = match std::str::from_utf8(object).map(unmarshal_any) {
                        Ok(Ok(Json::Object(m))) => m,
                        // not a valid object, keep looking
                        _ => {
                            start = None;
                            continue;
                        }
                    };

                    if let (args, true) = find_object(tool, &data) {
                        return (args, i);
                    }

                    return (Some(data), i);
                }
            }

            if braces < 0 {
                braces = 0;
            }
        }
    }

    (None, 0)
}

/// `findObject(obj)` of `findArguments`: `(args, found)`.
fn find_object(tool: &Tool, obj: &Map<String, Json>) -> (Option<Map<String, Json>>, bool) {
    if obj.contains_key("name") {
        if let (args, true) = find_map("arguments", obj) {
            return (args, true);
        }
        if let (args, true) = find_map("parameters", obj) {
            return (args, true);
        }
        return (None, true);
    }
    if let (args, true) = find_map(&tool.function.name, obj) {
        return (args, true);
    }

    // Go ranges over the map (random order): members in text order here.
    for v in obj.values() {
        match v {
            Json::Object(child) => {
                if let (result, true) = find_object(tool, child) {
                    return (result, true);
                }
            }
            Json::Array(items) => {
                for item in items {
                    if let Json::Object(child) = item {
                        if let (result, true) = find_object(tool, child) {
                            return (result, true);
                        }
                    }
                }
            }
            _ => {}
        }
    }

    (None, false)
}

/// `findMap(name, obj)` of `findArguments`: the member `name` as an object,
/// or a string that decodes (`json.Unmarshal` into `map[string]any`) to
/// one (`null` decodes to a nil map, still found).
fn find_map(name: &str, obj: &Map<String, Json>) -> (Option<Map<String, Json>>, bool) {
    match obj.get(name) {
        Some(Json::Object(args)) => (Some(args.clone()), true),
        Some(Json::String(args_str)) => match unmarshal_any(args_str) {
            Ok(Json::Object(args_data)) => (Some(args_data), true),
            Ok(Json::Null) => (None, true),
            _ => (None, false),
        },
        _ => (None, false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{ToolFunction, ToolFunctionParameters};
    use crate::parsers::tool_calls_json;

    fn go_tmpl(name: &str, text: &str) -> gotmpl::Template {
        gotmpl::Template::parse(name, text).expect("the test template parses")
    }

    fn tool(name: &str) -> Tool {
        Tool {
            type_: "function".into(),
            function: ToolFunction {
                name: name.into(),
                parameters: ToolFunctionParameters {
                    type_: "object".into(),
                    ..ToolFunctionParameters::default()
                },
                ..ToolFunction::default()
            },
            ..Tool::default()
        }
    }

    fn tools() -> Vec<Tool> {
        [
            "get_temperature",
            "get_conditions",
            "say_hello",
            "say_hello_world",
            "get_address",
            "add",
        ]
        .into_iter()
        .map(tool)
        .collect()
    }

    /// A call as Go marshals it.
    fn call(index: i64, name: &str, args: &str) -> String {
        format!(r#"{{"function":{{"index":{index},"name":"{name}","arguments":{args}}}}}"#)
    }

    /// `TestParser`.
    #[test]
    fn parser() {
        let qwen = go_tmpl(
            "qwen",
            r#"{{if .ToolCalls}}<tool_call>{{range .ToolCalls}}{"name": "{{.Function.Name}}", "arguments": {{.Function.Arguments}}}{{end}}</tool_call>{{end}}"#,
        );
        let deepseek = go_tmpl(
            "deepseek",
            "{{if .ToolCalls}}<|tool▁calls▁begin|>{{range .ToolCalls}}<|tool▁call▁begin|>function<|tool▁sep|>get_current_weather\n```json\n{\"location\": \"Tokyo\"}\n```<|tool▁call▁end|>{{end}}<|tool▁calls▁end|><|end▁of▁sentence|>{{end}}",
        );
        let json = go_tmpl(
            "json",
            r#"{{if .ToolCalls}}{{range .ToolCalls}}{"name": "{{.Function.Name}}", "arguments": {{.Function.Arguments}}}{{end}}{{end}}"#,
        );
        let mistral = go_tmpl(
            "mistral",
            r#"{{if .ToolCalls}}[TOOL_CALLS] [{{range .ToolCalls}}{"name": "{{.Function.Name}}", "arguments": {{.Function.Arguments}}}{{end}}][/TOOL_CALLS]{{end}}"#,
        );
        let list = go_tmpl(
            "list",
            r#"{{if .ToolCalls}}[{{range .ToolCalls}}{"name": "{{.Function.Name}}", "arguments": {{.Function.Arguments}}}{{end}}]{{end}}"#,
        );

        /// name, inputs, template, content, calls
        type Case<'a> = (
            &'a str,
            Vec<&'a str>,
            &'a gotmpl::Template,
            &'a str,
            Vec<String>,
        );
        let none: Vec<String> = Vec::new();
        let cases: Vec<Case> = vec![
            (
                "no tool calls - just text",
                vec!["Hello, how can I help you today?"],
                &qwen,
                "Hello, how can I help you today?",
                none.clone(),
            ),
            ("empty input", vec![""], &qwen, "", none.clone()),
            (
                "tool call",
                vec![r#"<tool_call>{"name": "get_conditions", "arguments": {"location": "San Francisco"}}</tool_call>"#],
                &qwen,
                "",
                vec![call(0, "get_conditions", r#"{"location":"San Francisco"}"#)],
            ),
            (
                "empty args",
                vec![r#"<tool_call>{"name": "get_conditions", "arguments": {}}</tool_call>"#],
                &qwen,
                "",
                vec![call(0, "get_conditions", "{}")],
            ),
            (
                "text before tool call",
                vec![r#"Let me check the weather. <tool_call>{"name": "get_temperature", "arguments": {"city": "New York"}}</tool_call>"#],
                &qwen,
                "Let me check the weather. ",
                vec![call(0, "get_temperature", r#"{"city":"New York"}"#)],
            ),
            (
                "qwen no args with text",
                vec!["Let me say hello to the user. I'll use the say_hello tool. "],
                &qwen,
                "Let me say hello to the user. I'll use the say_hello tool. ",
                none.clone(),
            ),
            (
                "two tool calls in a list",
                vec![r#"[TOOL_CALLS] [{"name": "get_temperature", "arguments": {"city": "London", "format": "fahrenheit"}}, {"name": "get_conditions", "arguments": {"location": "Tokyo"}}][/TOOL_CALLS]"#],
                &mistral,
                "",
                vec![
                    call(0, "get_temperature", r#"{"city":"London","format":"fahrenheit"}"#),
                    call(1, "get_conditions", r#"{"location":"Tokyo"}"#),
                ],
            ),
            (
                "qwen two tool calls",
                vec![r#"Okay, let's call both tools! <tool_call>{"name": "get_temperature", "arguments": {"city": "London", "format": "fahrenheit"}}</tool_call><tool_call>{"name": "get_conditions", "arguments": {"location": "Tokyo"}}</tool_call>"#],
                &qwen,
                "Okay, let's call both tools! ",
                vec![
                    call(0, "get_temperature", r#"{"city":"London","format":"fahrenheit"}"#),
                    call(1, "get_conditions", r#"{"location":"Tokyo"}"#),
                ],
            ),
            (
                "empty args followed by args",
                vec![r#"Let me say hello and check the weather. <tool_call>{"name": "say_hello", "arguments": {}}</tool_call><tool_call>{"name": "get_temperature", "arguments": {"city": "London", "format": "fahrenheit"}}</tool_call>"#],
                &qwen,
                "Let me say hello and check the weather. ",
                vec![
                    call(0, "say_hello", "{}"),
                    call(1, "get_temperature", r#"{"city":"London","format":"fahrenheit"}"#),
                ],
            ),
            (
                "qwen empty followed by args",
                vec![r#"Let me check the weather. <tool_call>{"name": "get_conditions", "arguments": {}}</tool_call><tool_call>{"name": "get_conditions", "arguments": {"location": "Tokyo"}}"#],
                &qwen,
                "Let me check the weather. ",
                vec![
                    call(0, "get_conditions", "{}"),
                    call(1, "get_conditions", r#"{"location":"Tokyo"}"#),
                ],
            ),
            (
                "deepseek",
                vec!["<think>Wait, I need to call a tool</think><|tool▁calls▁begin|><|tool▁call▁begin|>function<|tool▁sep|>get_temperature\n```json\n{\"city\": \"Tokyo\"}\n```<|tool▁call▁end|><|tool▁calls▁end|><|end▁of▁sentence|>"],
                &deepseek,
                "<think>Wait, I need to call a tool</think>",
                vec![call(0, "get_temperature", r#"{"city":"Tokyo"}"#)],
            ),
            (
                "deepseek incremental",
                vec![
                    "<think>Wait",
                    ", I need",
                    " to call",
                    " a tool</think><|too",
                    "l▁calls▁begin",
                    "|>",
                    "<|tool▁call▁begin|>function<|tool▁sep|>get_temperature\n",
                    "```json\n",
                    "{\"city\": \"Tokyo\"}\n",
                    "```",
                    "<|tool▁c",
                    "all▁end|>",
                    "<|tool▁calls▁end|>",
                    "<|end▁of▁sentence|>",
                ],
                &deepseek,
                "<think>Wait, I need to call a tool</think>",
                vec![call(0, "get_temperature", r#"{"city":"Tokyo"}"#)],
            ),
            (
                "json",
                vec![
                    "{",
                    "\"name\": \"get_temperature\",",
                    "\"arguments\": {",
                    "\"city\": \"Tokyo\"",
                    "}",
                    "}",
                ],
                &json,
                "",
                vec![call(0, "get_temperature", r#"{"city":"Tokyo"}"#)],
            ),
            (
                "json maybe a tool call",
                vec!["{", "\"name\": \"get_temperature\",", "\"arguments\": {"],
                &json,
                "",
                none.clone(),
            ),
            (
                "json not a tool call",
                vec![
                    "{",
                    "\"name\": \"search\", ",
                    "\"arguments\": {",
                    "\"query\": \"What is the capital of Canada?\"",
                    "}",
                    "}",
                ],
                &json,
                "{\"name\": \"search\", \"arguments\": {\"query\": \"What is the capital of Canada?\"}}",
                none.clone(),
            ),
            (
                "json object followed by tool call",
                vec![
                    "{\"name\": \"jeff\"}",
                    "{\"name\": \"get_conditions\", \"arguments\": {\"location\": \"San Francisco\"}}",
                ],
                &json,
                "{\"name\": \"jeff\"}{\"name\": \"get_conditions\", \"arguments\": {\"location\": \"San Francisco\"}}",
                none.clone(),
            ),
            (
                "json object followed by tool call split",
                vec![
                    "{\"name\": \"jeff\"} {",
                    "\"name\": \"get_conditions\", \"arguments\": {\"location\": \"San Francisco\"}}",
                ],
                &json,
                "{\"name\": \"jeff\"} {\"name\": \"get_conditions\", \"arguments\": {\"location\": \"San Francisco\"}}",
                none.clone(),
            ),
            (
                "json code",
                vec!["for { fmt.Println(\"hello\") }"],
                &json,
                "for { fmt.Println(\"hello\") }",
                none.clone(),
            ),
            (
                "list multiple",
                vec![
                    "[",
                    "{",
                    "\"name\": \"get_temperature\", ",
                    "\"arguments\": {",
                    "\"city\": \"London\"",
                    "}",
                    "},",
                    "{",
                    "\"name\": \"get_conditions\", ",
                    "\"arguments\": {",
                    "\"location\": \"Tokyo\"",
                    "}",
                    "}]",
                ],
                &list,
                "",
                vec![
                    call(0, "get_temperature", r#"{"city":"London"}"#),
                    call(1, "get_conditions", r#"{"location":"Tokyo"}"#),
                ],
            ),
            (
                "list partial",
                vec![
                    "[{",
                    "\"name\": \"get_conditions\", ",
                    "\"arguments\": {",
                    "\"location\": \"Tokyo\"",
                    "}",
                    "}",
                ],
                &list,
                "",
                vec![call(0, "get_conditions", r#"{"location":"Tokyo"}"#)],
            ),
            (
                "list invalid",
                vec![
                    "[",
                    "{",
                    "\"name\": \"search\", ",
                    "\"arguments\": {",
                    "\"query\": \"What is the capital of Canada?\"",
                    "}",
                    "}",
                ],
                &list,
                "",
                none.clone(),
            ),
            (
                "list trailing ]",
                vec![
                    "[",
                    "{",
                    "\"name\": \"get_conditions\", ",
                    "\"arguments\": {",
                    "\"location\": \"Tokyo\"",
                    "}",
                    "}",
                    "]",
                    "]",
                ],
                &list,
                "",
                vec![call(0, "get_conditions", r#"{"location":"Tokyo"}"#)],
            ),
            (
                "list not a tool call",
                vec!["[special", " del", "ivery]"],
                &list,
                "[special delivery]",
                none.clone(),
            ),
            (
                "tool name with collision",
                vec![
                    "<tool_call>",
                    "{",
                    "\"name\": \"say_hello",
                    "_world\",",
                    "\"arguments\": {}}",
                    "}",
                ],
                &qwen,
                "",
                vec![call(0, "say_hello_world", "{}")],
            ),
            (
                "tool name with collision multiple",
                vec![
                    "<tool_call>",
                    "{",
                    "\"name\": \"say_hello",
                    "_world\",",
                    "\"arguments\": {}}",
                    "</tool_call>",
                    "<tool_call>",
                    "{",
                    "\"name\": \"say_hello",
                    "\",",
                    "\"arguments\": {}}",
                    "</tool_call>",
                ],
                &qwen,
                "",
                vec![call(0, "say_hello_world", "{}"), call(1, "say_hello", "{}")],
            ),
            (
                "tool name with collision non streaming",
                vec![r#"<tool_call>{"name": "say_hello"#],
                &qwen,
                "",
                none.clone(),
            ),
            (
                "tool name with collision non streaming multiple",
                vec![r#"<tool_call>{"name": "say_hello", "arguments": {}}</tool_call><tool_call>{"name": "say_hello_world", "arguments": {}}"#],
                &qwen,
                "",
                vec![call(0, "say_hello", "{}"), call(1, "say_hello_world", "{}")],
            ),
            (
                "tool name with collision non streaming shorter",
                vec![r#"<tool_call>{"name": "say_hello", "arguments": {}}</tool_call>"#],
                &qwen,
                "",
                vec![call(0, "say_hello", "{}")],
            ),
            (
                "tool name with collision non streaming longer",
                vec![r#"<tool_call>{"name": "say_hello_world", "arguments": {}}</tool_call>"#],
                &qwen,
                "",
                vec![call(0, "say_hello_world", "{}")],
            ),
            (
                "tool name with substring of another",
                vec![
                    "{",
                    "\"name\": \"get_address\",",
                    "\"arguments\": {",
                    "\"location\": \"London\"",
                    "}",
                    "}",
                ],
                &json,
                "",
                vec![call(0, "get_address", r#"{"location":"London"}"#)],
            ),
            (
                "tool name with substring of another",
                vec![r#"<tool_call>{"name": "get_address", "arguments": {"location": "London"}}</tool_call>"#],
                &qwen,
                "",
                vec![call(0, "get_address", r#"{"location":"London"}"#)],
            ),
            (
                "args before name",
                vec![r#"<tool_call>{"arguments": {"a": "5", "b": "10"}, "name": "add"}</tool_call>"#],
                &qwen,
                "",
                vec![call(0, "add", r#"{"a":"5","b":"10"}"#)],
            ),
            // not in Go's table: numbers are float64, nested maps sorted,
            // top-level order as written
            (
                "values",
                vec![r#"<tool_call>{"name": "add", "arguments": {"b": 12345678901234567890, "a": {"z": 1.50, "y": [1e3, -0]}, "b": true}}</tool_call>"#],
                &qwen,
                "",
                vec![call(0, "add", r#"{"b":true,"a":{"y":[1000,-0],"z":1.5}}"#)],
            ),
        ];

        for (name, inputs, tmpl, content, want) in cases {
            let mut parser = Parser::from_go_template(Some(tmpl), &tools());
            let mut calls = Vec::new();
            let mut got = String::new();
            for input in inputs {
                let (tcs, c) = parser.add(input);
                calls.extend(tcs);
                got += &c;
            }
            assert_eq!(got, content, "{name}: content");
            let got: Vec<String> = calls
                .iter()
                .map(|c| tool_calls_json(std::slice::from_ref(c)))
                .map(|s| s[1..s.len() - 1].to_string())
                .collect();
            assert_eq!(got, want, "{name}: calls");
        }
    }

    fn with_buffer(tag: &str, buffer: &[u8], n: i64) -> Parser {
        Parser {
            tag: tag.into(),
            buffer: buffer.to_vec(),
            n,
            ..Parser::default()
        }
    }

    /// `TestDone`.
    #[test]
    fn done() {
        let cases: [(&str, &[u8], bool); 11] = [
            ("<tool_call>", b"", false),
            ("<tool_call>", b"", false),
            ("{", b"{\"name\": \"get_weather\"", false),
            ("{", b"{\"name\": \"get_weather\"}", true),
            ("{", b"{}", true),
            ("[", b"[{\"name\": \"get_weather\"", false),
            ("[", b"[{\"name\": \"get_weather\"}]", true),
            ("[", b"[]", true),
            ("{", b"{\"note\": \"a}b\"", false),
            ("{", b"{\"note\": \"a}b\"}", true),
            ("[", b"[{\"note\": \"x]y\"}", false),
        ];
        for (i, (tag, buffer, want)) in cases.into_iter().enumerate() {
            assert_eq!(with_buffer(tag, buffer, 0).done(), want, "case {i}");
        }
    }

    /// `TestContent`.
    #[test]
    fn content() {
        let cases: [(&str, &[u8], &str, i64); 7] = [
            ("{", b"", "", 0),
            (
                "<tool_call>",
                b"<tool_call>{\"name\": \"get_temperature\"",
                "",
                0,
            ),
            (
                "{",
                b"{\"name\": \"get_temperature\"}",
                "{\"name\": \"get_temperature\"}",
                0,
            ),
            ("{", b"{\"hello\": \"world\"}", "{\"hello\": \"world\"}", 0),
            ("{", b"{\"hello\": \"world\"}", "", 1),
            (
                "[",
                b"[{\"name\": \"get_temperature\"}]",
                "[{\"name\": \"get_temperature\"}]",
                0,
            ),
            (
                "{",
                b"{ fmt.Println(\"hello\")",
                "{ fmt.Println(\"hello\")",
                0,
            ),
        ];
        for (i, (tag, buffer, want, n)) in cases.into_iter().enumerate() {
            assert_eq!(with_buffer(tag, buffer, n).content(), want, "case {i}");
        }
    }

    /// `TestFindTag`.
    #[test]
    fn find_tag() {
        let cases: [(&[u8], &str, i64, bool); 13] = [
            (b"hello world", "<tool_call>", -1, false),
            (b"<tool_call>", "<tool_call>", 0, true),
            (
                b"    <tool_call>\n {\"name\": \"bob\"}",
                "<tool_call>",
                4,
                true,
            ),
            (b"<tool_call>{\"name\"", "<tool_call>", 0, true),
            (b"text <tool_call>", "<tool_call>", 5, true),
            (b"<tool_calls><tool_call>", "<tool_calls>", 0, true),
            (b"<tool>", "<tool_call>", -1, false),
            (b"", "<tool_call>", -1, false),
            (b"test<", "<tool_call>", 4, false),
            (b"hello <tool_", "<tool_call>", 6, false),
            (b"calling tools: [", "[", 15, true),
            (b"{\"name\": \"bob\"", "{", 0, true),
            (b"\n\n{\n\"name\": \"bob\"", "{", 2, true),
        ];
        for (k, (buffer, tag, i, found)) in cases.into_iter().enumerate() {
            let (got_i, got_found) = with_buffer(tag, buffer, 0).find_tag();
            let got_i = got_i.map_or(-1, |i| i as i64);
            assert_eq!((got_i, got_found), (i, found), "case {k}");
        }
    }

    /// `TestFindArguments`.
    #[test]
    fn find_arguments_table() {
        let long = "a{b}c".repeat(100);
        let long_buf = format!(r#"{{"name": "test", "arguments": {{"data": "{long}"}}}}"#);
        let long_want = format!(r#"{{"data":"{long}"}}"#);
        let cases: Vec<(&str, &str, Option<&str>)> = vec![
            ("", "", None),
            ("   \n\t  ", "", None),
            (r#"{"format": "fahrenheit", "location": "San Francisco""#, "", None),
            (
                r#"{"format": "fahrenheit"}}"#,
                "",
                Some(r#"{"format":"fahrenheit"}"#),
            ),
            (r#"{format: fahrenheit, location: "San Francisco"}"#, "", None),
            (
                r#"{"name": "get_temperature", "arguments": {"format": "fahrenheit", "location": "San Francisco, CA"}}"#,
                "",
                Some(r#"{"format":"fahrenheit","location":"San Francisco, CA"}"#),
            ),
            (
                r#"[tool]get_temperature[args]{"format": "fahrenheit", "location": "San Francisco, CA"}[end]"#,
                "",
                Some(r#"{"format":"fahrenheit","location":"San Francisco, CA"}"#),
            ),
            (
                r#"[{"name": "get_temperature", "arguments": {"format": "fahrenheit", "location": "San Francisco, CA"}}"#,
                "",
                Some(r#"{"format":"fahrenheit","location":"San Francisco, CA"}"#),
            ),
            (
                r#"{"function": {"name": "get_temperature", "arguments": {"format": "fahrenheit", "location": "San Francisco, CA"}}}"#,
                "",
                Some(r#"{"format":"fahrenheit","location":"San Francisco, CA"}"#),
            ),
            (
                r#"get_temperature({"location": "San Francisco, CA"})"#,
                "",
                Some(r#"{"location":"San Francisco, CA"}"#),
            ),
            (
                r#"[{"name": "get_temperature", "arguments": {"location": "San Francisco, CA", "format": "fahrenheit"}}, {"name": "get_weather", "arguments": {"location": "San Francisco, CA", "format": "fahrenheit"}}]"#,
                "",
                Some(r#"{"location":"San Francisco, CA","format":"fahrenheit"}"#),
            ),
            (
                "<|tool▁calls▁begin|><|tool▁call▁begin|>function<|tool▁sep|>get_temperature\n```json\n{\"location\": \"Tokyo\"}\n```<|tool▁call▁end|><|tool▁calls▁end|><|end▁of▁sentence|>",
                "",
                Some(r#"{"location":"Tokyo"}"#),
            ),
            (
                r#""arguments": {"location": "Tokyo"}}</tool_call>"#,
                "",
                Some(r#"{"location":"Tokyo"}"#),
            ),
            (
                r#"{"name": "process_code", "arguments": {"code": "if (x > 0) { return true; }"}}"#,
                "",
                Some(r#"{"code":"if (x \u003e 0) { return true; }"}"#),
            ),
            (
                r#"{"name": "send_data", "arguments": {"payload": "{\"nested\": {\"key\": \"value\"}}"}}"#,
                "",
                Some(r#"{"payload":"{\"nested\": {\"key\": \"value\"}}"}"#),
            ),
            (
                r#"{"name": "analyze", "arguments": {"text": "The JSON is: {\"key\": \"val{ue}\"}"}}"#,
                "",
                Some(r#"{"text":"The JSON is: {\"key\": \"val{ue}\"}"}"#),
            ),
            (
                r#"{"name": "test", "arguments": {"query": "find } in text"}} {"name": "other"}"#,
                "",
                Some(r#"{"query":"find } in text"}"#),
            ),
            (
                r#"{"name": "search", "arguments": {"pattern": "regex: }"}}"#,
                "",
                Some(r#"{"pattern":"regex: }"}"#),
            ),
            (
                r#"{"name": "analyze", "arguments": {"data": "{\"items\": [{\"value\": \"}\"}, {\"code\": \"if (x) { return y; }\"}]}"}}"#,
                "",
                Some(r#"{"data":"{\"items\": [{\"value\": \"}\"}, {\"code\": \"if (x) { return y; }\"}]}"}"#),
            ),
            (
                r#"{"name": "format", "arguments": {"template": "{\n  \"key\": \"value\"\n}"}}"#,
                "",
                Some(r#"{"template":"{\n  \"key\": \"value\"\n}"}"#),
            ),
            (
                r#"{"name": "test", "arguments": {"text": "Unicode: \u007B and \u007D"}}"#,
                "",
                Some(r#"{"text":"Unicode: { and }"}"#),
            ),
            (
                r#"{"name": "batch", "arguments": ["item1", "item2", "{\"nested\": true}"]}"#,
                "",
                None,
            ),
            (
                r#"{"name": "path", "arguments": {"dir": "C:\\Program Files\\{App}\\"}}"#,
                "",
                Some(r#"{"dir":"C:\\Program Files\\{App}\\"}"#),
            ),
            (
                r#"{"name": "query", "arguments": {"sql": "SELECT * FROM users WHERE name = '{admin}'"}}"#,
                "",
                Some(r#"{"sql":"SELECT * FROM users WHERE name = '{admin}'"}"#),
            ),
            (r#"{"name": "test", "arguments": {"data": "some {""#, "", None),
            (
                r#"{"name": "echo", "arguments": {"msg": "He said \"Hello {World}\" loudly"}}"#,
                "",
                Some(r#"{"msg":"He said \"Hello {World}\" loudly"}"#),
            ),
            (
                r#"{"name": "code", "arguments": {"snippet": "// This is a comment with { and }"}}"#,
                "",
                Some(r#"{"snippet":"// This is a comment with { and }"}"#),
            ),
            (
                r#"{"name": "test", "arguments": {"path": "C:\\\\{folder}\\\\"}}"#,
                "",
                Some(r#"{"path":"C:\\\\{folder}\\\\"}"#),
            ),
            (
                r#"{"name": "test", "arguments": {"a": "", "b": "{value}"}}"#,
                "",
                Some(r#"{"a":"","b":"{value}"}"#),
            ),
            (
                r#"{"name": "test", "arguments": {"key{": "value", "key}": "value2"}}"#,
                "",
                Some(r#"{"key{":"value","key}":"value2"}"#),
            ),
            (&long_buf, "", Some(&long_want)),
            (
                r#"{"name": "test", "arguments": {"code": "\tif (true) {\n\t\treturn;\n\t}"}}"#,
                "",
                Some(r#"{"code":"\tif (true) {\n\t\treturn;\n\t}"}"#),
            ),
            (
                r#"{"name": "test", "arguments": {"data": "before\u0000{after}"}}"#,
                "",
                Some(r#"{"data":"before\u0000{after}"}"#),
            ),
            (
                r#"{"name": "test", "arguments": {"data": "text with quote at end\\\""}}"#,
                "",
                Some(r#"{"data":"text with quote at end\\\""}"#),
            ),
            (
                r#"{"name": "test", "arguments": {"items": ["{", "}", {"key": "value"}]}}"#,
                "",
                Some(r#"{"items":["{","}",{"key":"value"}]}"#),
            ),
            (
                r#"{"name": "get_temperature", "arguments": "{\"format\": \"fahrenheit\", \"location\": \"San Francisco, CA\"}"}"#,
                "",
                Some(r#"{"format":"fahrenheit","location":"San Francisco, CA"}"#),
            ),
            (
                r#"{"name": "get_temperature", "parameters": "{\"format\": \"fahrenheit\", \"location\": \"San Francisco, CA\"}"}"#,
                "",
                Some(r#"{"format":"fahrenheit","location":"San Francisco, CA"}"#),
            ),
            (
                r#"{"get_temperature": {"format": "fahrenheit", "location": "San Francisco, CA"}}"#,
                "get_temperature",
                Some(r#"{"format":"fahrenheit","location":"San Francisco, CA"}"#),
            ),
            (
                r#"{"get_temperature": "{\"format\": \"fahrenheit\", \"location\": \"San Francisco, CA\"}"}"#,
                "get_temperature",
                Some(r#"{"format":"fahrenheit","location":"San Francisco, CA"}"#),
            ),
            // not in Go's table: a stringified null is found (a nil map)
            (r#"{"name": "x", "arguments": "null"}"#, "", None),
            (r#"{"name": "x", "arguments": "[1]"}"#, "", None),
        ];
        for (i, (buffer, name, want)) in cases.into_iter().enumerate() {
            let (got, _) = find_arguments(&tool(name), buffer.as_bytes());
            let got = got.map(|m| {
                crate::gojson::J::Obj(
                    m.iter()
                        .map(|(k, v)| (k.clone(), crate::parsers::go_any(v)))
                        .collect(),
                )
                .to_json()
            });
            assert_eq!(got.as_deref(), want, "case {i}: {buffer}");
        }
    }

    #[test]
    fn tag_and_done_state() {
        let t = crate::template::Template::parse(
            "{{- if .ToolCalls }}[TOOL_CALLS] {{ range .ToolCalls }}{{ .Function.Name }}{{ end }}{{ end }}",
            crate::date::Date::new(2026, 11, 30),
        )
        .expect("parses");
        let p = Parser::new(Some(&t), &tools());
        assert_eq!(p.tag(), "[TOOL_CALLS]");
        assert_eq!(Parser::new(None, &tools()).tag(), "{");

        // a `{` tag after text: done, everything is content from then on
        let mut p = Parser::new_with_tag(&tools(), "{");
        assert_eq!(p.add("hi {\"a\""), (vec![], "hi {\"a\"".to_string()));
        assert_eq!(p.add("}"), (vec![], "}".to_string()));
        assert_eq!(p.content(), "{\"a\"");
        assert_eq!(p.get_buffer(), b"{\"a\"");
    }
}

/// Replay of the recorded calls `tools/tools_test.go` and
/// `tools/template_test.go` make (`tests/golden/parsers-tests.jsonl`): `tools_parser`
/// lines (a `Parser` built by `NewParser` or by hand, and its method
/// calls) and `func` lines (`NewParser`, `parseTag`, `findArguments`). Go
/// orders a call's arguments at random (see the module's documentation),
/// so calls are compared as JSON values, object members in any order.
#[cfg(test)]
mod golden {
    use super::*;
    use crate::parsers::golden_support::{self, dump_value, parse};
    use serde_json::json;

    const FILES: [&str; 2] = ["tools_test.go", "template_test.go"];

    thread_local! {
        /// `Add` results equal to Go's only up to the order of arguments.
        static REORDERED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    }

    /// A recorded `*template.Template` argument.
    fn template_from(v: &Json) -> Option<gotmpl::Template> {
        let text = v.get("$template")?.as_str()?;
        gotmpl::Template::parse("test", text).ok()
    }

    fn tools_from(v: &Json) -> Vec<Tool> {
        golden_support::tools(v)
    }

    fn parser_from(s: &Json) -> Parser {
        Parser {
            tag: s["tag"].as_str().unwrap_or("").to_string(),
            tools: tools_from(&s["tools"]),
            state: match s["state"].as_i64() {
                Some(1) => ToolsState::ToolCalling,
                Some(2) => ToolsState::Done,
                _ => ToolsState::LookingForTag,
            },
            buffer: s["buffer"].as_str().unwrap_or("").as_bytes().to_vec(),
            n: s["n"].as_i64().unwrap_or(0),
            ..Parser::default()
        }
    }

    /// The state as recorded, less `tools` (Go's marshaling of them), a
    /// nil buffer read as empty.
    fn state_of(p: &Parser) -> Json {
        let state = match p.state {
            ToolsState::LookingForTag => 0,
            ToolsState::ToolCalling => 1,
            ToolsState::Done => 2,
        };
        json!({"tag": p.tag, "state": state, "buffer": string_of(&p.buffer), "n": p.n})
    }

    fn recorded_state(s: &Json) -> Json {
        json!({
            "tag": s["tag"],
            "state": s["state"],
            "buffer": s["buffer"].as_str().unwrap_or(""),
            "n": s["n"],
        })
    }

    fn calls_of(calls: &[ToolCall]) -> Json {
        parse(&crate::parsers::tool_calls_json(calls))
    }

    /// Replays one line; `Ok(false)` for a line of another kind.
    fn replay(t: &Json) -> Result<bool, String> {
        let test = &t["test"];
        match t["kind"].as_str().unwrap_or("") {
            "tools_parser" => {
                let mut p = match t.get("new") {
                    Some(new) if new["func"] == "NewParser" => Parser::from_go_template(
                        template_from(&new["args"][0]).as_ref(),
                        &tools_from(&new["args"][1]),
                    ),
                    Some(new) if new["func"] == "NewParserWithTag" => Parser::new_with_tag(
                        &tools_from(&new["args"][0]),
                        new["args"][1].as_str().unwrap_or(""),
                    ),
                    Some(new) => return Err(format!("{test}: no replay for {}", new["func"])),
                    None => parser_from(&t["state"]),
                };
                for (i, call) in t["calls"].as_array().into_iter().flatten().enumerate() {
                    let at = |what: &str, want: &Json, got: &Json| {
                        format!(
                            "{test} #{}: call {i} ({}): {what}: want {want}, got {got}",
                            t["n"], call["m"]
                        )
                    };
                    let before = recorded_state(&call["state"]);
                    if state_of(&p) != before {
                        return Err(at("state before", &before, &state_of(&p)));
                    }
                    let ret = match call["m"].as_str().unwrap_or("") {
                        "Add" => {
                            let (calls, content) = p.add(call["args"][0].as_str().unwrap_or(""));
                            let got = calls_of(&calls);
                            // the same calls with the members in another order
                            let in_order = |v: &Json| serde_json::to_string(v).unwrap_or_default();
                            if got == call["ret"][0] && in_order(&got) != in_order(&call["ret"][0])
                            {
                                REORDERED.with(|n| n.set(n.get() + 1));
                            }
                            json!([got, content])
                        }
                        "done" => json!([p.done()]),
                        "Content" => json!([p.content()]),
                        "Tag" => json!([p.tag()]),
                        "GetBuffer" => json!([string_of(p.get_buffer())]),
                        "findTag" => {
                            let (i, found) = p.find_tag();
                            json!([i.map_or(-1, |i| i as i64), found])
                        }
                        m => return Err(format!("{test}: no replay for Parser.{m}")),
                    };
                    if ret != call["ret"] {
                        return Err(at("results", &call["ret"], &ret));
                    }
                    if !call["after"].is_null() {
                        let after = recorded_state(&call["after"]);
                        if state_of(&p) != after {
                            return Err(at("state after", &after, &state_of(&p)));
                        }
                    }
                }
                Ok(true)
            }
            "func" => {
                let args = &t["args"];
                let ret = match t["func"].as_str().unwrap_or("") {
                    "parseTag" => json!([parse_tag(template_from(&args[0]).as_ref())]),
                    "NewParser" => {
                        let p = Parser::from_go_template(
                            template_from(&args[0]).as_ref(),
                            &tools_from(&args[1]),
                        );
                        let want = recorded_state(&t["ret"][0]["state"]);
                        if state_of(&p) != want {
                            return Err(format!(
                                "{test}: NewParser: want {want}, got {}",
                                state_of(&p)
                            ));
                        }
                        return Ok(true);
                    }
                    "findArguments" => {
                        let tool = tools_from(&json!([args[0]])).pop().unwrap_or_default();
                        let (found, i) =
                            find_arguments(&tool, args[1].as_str().unwrap_or("").as_bytes());
                        json!([
                            found.map_or(Json::Null, |m| dump_value(&Json::Object(m))),
                            i
                        ])
                    }
                    f => return Err(format!("{test}: no replay for func {f}")),
                };
                if ret != t["ret"] {
                    return Err(format!(
                        "{test}: {}({}): want {}, got {ret}",
                        t["func"], args, t["ret"]
                    ));
                }
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    #[test]
    fn recorded_tools_calls() {
        // the comparison relies on this: objects are equal whatever the
        // order of their members
        assert_eq!(parse(r#"{"a":1,"b":2}"#), parse(r#"{"b":2,"a":1}"#));
        let mut replayed = 0;
        let mut failures = Vec::new();
        for (_, t) in golden_support::all() {
            if !FILES.iter().any(|f| t["file"] == *f) || t.get("skip").is_some() {
                continue;
            }
            match replay(t) {
                Ok(true) => replayed += 1,
                Ok(false) => {}
                Err(e) => failures.push(e),
            }
        }
        assert!(
            failures.is_empty(),
            "{} of {} differ:\n{}",
            failures.len(),
            replayed + failures.len(),
            failures.join("\n")
        );
        eprintln!(
            "tools: {replayed} recorded values replayed; {} Add results equal up to the order of arguments (Go's map order)",
            REORDERED.with(|n| n.get())
        );
    }
}
