//! `model/parsers/laguna.go`: the Laguna (poolside) parser, and
//! `LagunaV8Parser`, which embeds it. Reasoning runs up to `</think>`;
//! tool calls are `<tool_call>name<arg_key>k</arg_key><arg_value>v</arg_value></tool_call>`
//! (or JSON), with aliases the model is known to produce: `<user>`-tagged
//! calls and standalone JSON objects.

use serde_json::Map;

use super::gojson_decode::{
    unmarshal_arguments, unmarshal_struct, Args, FieldTy, FieldVal, GoStruct,
};
use super::qwen3coder::parse_value;
use super::{
    overlap, property_types, tool_call, tool_property, trailing_whitespace_len, trim_left_space,
    trim_right_space, trim_space, Added, Config, Constructors, Parser,
};
use crate::api::{Message, Think, Tool, ToolCall};
use crate::godecode;

/// `lagunaThinkingOpenTag`
const LAGUNA_THINKING_OPEN_TAG: &str = "<think>";
/// `lagunaThinkingCloseTag`
const LAGUNA_THINKING_CLOSE_TAG: &str = "</think>";
/// `lagunaToolCallOpenTag`
const LAGUNA_TOOL_CALL_OPEN_TAG: &str = "<tool_call>";
/// `lagunaToolCallCloseTag`
const LAGUNA_TOOL_CALL_CLOSE_TAG: &str = "</tool_call>";
/// `lagunaUserOpenTag`
const LAGUNA_USER_OPEN_TAG: &str = "<user>";
/// `lagunaUserCloseTag`
const LAGUNA_USER_CLOSE_TAG: &str = "</user>";
/// `lagunaArgKeyOpenTag`
const LAGUNA_ARG_KEY_OPEN_TAG: &str = "<arg_key>";
/// `lagunaArgKeyCloseTag`
const LAGUNA_ARG_KEY_CLOSE_TAG: &str = "</arg_key>";
/// `lagunaArgValueOpenTag`
const LAGUNA_ARG_VALUE_OPEN_TAG: &str = "<arg_value>";
/// `lagunaArgValueCloseTag`
const LAGUNA_ARG_VALUE_CLOSE_TAG: &str = "</arg_value>";

/// `lagunaParserState`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum LagunaParserState {
    /// `lagunaParserStateThinking`
    #[default]
    Thinking,
    /// `lagunaParserStateContent`
    Content,
    /// `lagunaParserStateTool`
    Tool,
}

/// `LagunaParser`.
#[derive(Clone, Debug, Default)]
pub struct LagunaParser {
    state: LagunaParserState,
    buffer: String,
    tools: Vec<Tool>,
    call_index: i64,
    thinking_enabled: bool,
    thinking_suppressed: bool,
    allow_leading_think_open: bool,
    at_content_start: bool,
}

/// `LagunaV8Parser`: matches the v8 renderer, which closes any assistant
/// history turn and emits a fresh assistant generation prompt instead of
/// continuing the final assistant message in place.
#[derive(Clone, Debug, Default)]
pub struct LagunaV8Parser {
    laguna_parser: LagunaParser,
}

impl Parser for LagunaParser {
    fn init(
        &mut self,
        tools: &[Tool],
        last_message: Option<&Message>,
        think: Option<&Think>,
    ) -> Vec<Tool> {
        self.tools = tools.to_vec();
        self.call_index = 0;
        self.buffer.clear();
        // The prompt primes the reasoning mode: <think> when thinking is
        // enabled (so the model's output begins with reasoning and no
        // opening tag), or </think> otherwise. Thinking defaults off,
        // matching the chat template.
        self.thinking_enabled = think.is_some_and(Think::as_bool);
        self.thinking_suppressed = !self.thinking_enabled;
        self.at_content_start = true;

        // When the request ends with an assistant prefill, the renderer
        // continues that turn in place instead of emitting a fresh
        // generation prompt: it has already written the closing </think>,
        // so the model resumes with content (or a tool call), not
        // reasoning. Start in the content state even when thinking is
        // enabled, otherwise the continuation would be reported as
        // thinking until done and clients would receive an empty answer.
        let assistant_prefill = last_message.is_some_and(|m| m.role == "assistant");

        if self.thinking_enabled && !assistant_prefill {
            self.state = LagunaParserState::Thinking;
            self.allow_leading_think_open = true;
        } else {
            self.state = LagunaParserState::Content;
            self.allow_leading_think_open = false;
        }
        tools.to_vec()
    }

    fn add(&mut self, s: &str, done: bool) -> Result<Added, String> {
        self.buffer.push_str(s);
        let mut content_sb = String::new();
        let mut thinking_sb = String::new();
        let mut calls = Vec::new();

        loop {
            let progress;
            match self.state {
                LagunaParserState::Thinking => {
                    let thinking;
                    (progress, thinking) = self.consume_thinking(done);
                    if self.thinking_enabled {
                        thinking_sb.push_str(&thinking);
                    }
                }
                LagunaParserState::Content => {
                    let (p, content, parsed_calls) = self.consume_content(done)?;
                    progress = p;
                    content_sb.push_str(&content);
                    calls.extend(parsed_calls);
                }
                LagunaParserState::Tool => {
                    let call;
                    (progress, call) = self.consume_tool(done)?;
                    if progress {
                        calls.extend(call);
                    }
                }
            }
            if !progress {
                break;
            }
        }

        Ok(Added {
            content: content_sb,
            thinking: thinking_sb,
            calls,
        })
    }

    fn preserved_tokens(&self) -> Vec<String> {
        [
            LAGUNA_THINKING_OPEN_TAG,
            LAGUNA_THINKING_CLOSE_TAG,
            LAGUNA_TOOL_CALL_OPEN_TAG,
            LAGUNA_TOOL_CALL_CLOSE_TAG,
            LAGUNA_USER_OPEN_TAG,
            LAGUNA_USER_CLOSE_TAG,
            LAGUNA_ARG_KEY_OPEN_TAG,
            LAGUNA_ARG_KEY_CLOSE_TAG,
            LAGUNA_ARG_VALUE_OPEN_TAG,
            LAGUNA_ARG_VALUE_CLOSE_TAG,
        ]
        .map(String::from)
        .to_vec()
    }

    fn has_tool_support(&self) -> bool {
        true
    }

    fn has_thinking_support(&self) -> bool {
        true
    }
}

impl Parser for LagunaV8Parser {
    /// `LagunaV8Parser.Init`: the last message is never a prefill.
    fn init(&mut self, tools: &[Tool], _: Option<&Message>, think: Option<&Think>) -> Vec<Tool> {
        self.laguna_parser.init(tools, None, think)
    }

    fn add(&mut self, s: &str, done: bool) -> Result<Added, String> {
        self.laguna_parser.add(s, done)
    }

    fn preserved_tokens(&self) -> Vec<String> {
        self.laguna_parser.preserved_tokens()
    }

    fn has_tool_support(&self) -> bool {
        self.laguna_parser.has_tool_support()
    }

    fn has_thinking_support(&self) -> bool {
        self.laguna_parser.has_thinking_support()
    }
}

/// `strings.HasPrefix(tag, s)`.
fn tag_has_prefix(tag: &str, s: &str) -> bool {
    tag.starts_with(s)
}

impl LagunaParser {
    /// `consumeThinking`.
    fn consume_thinking(&mut self, done: bool) -> (bool, String) {
        let mut acc = self.buffer.clone();
        if self.allow_leading_think_open {
            let trimmed = trim_left_space(&acc).to_string();
            if let Some(rest) = trimmed.strip_prefix(LAGUNA_THINKING_OPEN_TAG) {
                // the model echoed the primed <think>; drop it
                self.buffer = trim_left_space(rest).to_string();
                self.allow_leading_think_open = false;
                return (true, String::new());
            }
            if tag_has_prefix(LAGUNA_THINKING_OPEN_TAG, &trimmed) && !done {
                // possibly a partial opening tag; keep it (minus leading
                // space) and wait
                self.buffer = trimmed;
                return (false, String::new());
            }
            // reasoning begins here: drop the leading whitespace the model
            // emits after the primed <think> (its trained format is
            // "<think>\n…").
            self.buffer = trimmed.clone();
            self.allow_leading_think_open = false;
            acc = trimmed;
        }

        if let Some(idx) = acc.find(LAGUNA_THINKING_CLOSE_TAG) {
            let thinking = trim_right_space(&acc[..idx]).to_string();
            let after = trim_left_space(&acc[idx + LAGUNA_THINKING_CLOSE_TAG.len()..]);
            self.buffer = after.to_string();
            self.state = LagunaParserState::Content;
            return (true, thinking);
        }
        if let Some(idx) = acc.find(LAGUNA_TOOL_CALL_OPEN_TAG) {
            let thinking = trim_right_space(&acc[..idx]).to_string();
            self.buffer = acc[idx + LAGUNA_TOOL_CALL_OPEN_TAG.len()..].to_string();
            self.state = LagunaParserState::Tool;
            return (true, thinking);
        }
        if done {
            self.buffer.clear();
            self.state = LagunaParserState::Content;
            let acc = trim_right_space(&acc).to_string();
            return (!acc.is_empty(), acc);
        }

        let overlap_len =
            overlap(&acc, LAGUNA_THINKING_CLOSE_TAG).max(overlap(&acc, LAGUNA_TOOL_CALL_OPEN_TAG));
        let trailing_len = trailing_whitespace_len(&acc);
        // Either cut is at a char boundary (white space, an ASCII tag's
        // prefix).
        let keep = overlap_len.max(trailing_len);
        if keep > 0 && keep < acc.len() {
            let emit = acc[..acc.len() - keep].to_string();
            self.buffer = acc[acc.len() - keep..].to_string();
            return (!emit.is_empty(), emit);
        }
        (false, String::new())
    }

    /// `consumeContent`.
    fn consume_content(&mut self, done: bool) -> Result<(bool, String, Vec<ToolCall>), String> {
        if self.at_content_start {
            // Drop the leading whitespace the model emits before content
            // (its trained format puts a newline after the primed/closed
            // </think>).
            let trimmed = trim_left_space(&self.buffer).to_string();
            self.buffer = trimmed;
            if self.buffer.is_empty() {
                return Ok((false, String::new(), Vec::new()));
            }
            self.at_content_start = false;
        }
        let acc = self.buffer.clone();
        if self.thinking_enabled || self.thinking_suppressed {
            if let Some(idx) = acc.find(LAGUNA_THINKING_OPEN_TAG) {
                let content = acc[..idx].to_string();
                let after = trim_left_space(&acc[idx + LAGUNA_THINKING_OPEN_TAG.len()..]);
                self.buffer = after.to_string();
                self.state = LagunaParserState::Thinking;
                self.allow_leading_think_open = false;
                return Ok((true, content, Vec::new()));
            }
            if !done {
                let overlap_len = overlap(&acc, LAGUNA_THINKING_OPEN_TAG);
                if overlap_len > 0 && overlap_len < acc.len() {
                    let content = acc[..acc.len() - overlap_len].to_string();
                    self.buffer = acc[acc.len() - overlap_len..].to_string();
                    return Ok((!content.is_empty(), content, Vec::new()));
                }
            }
        }
        // The same test, once for thinking enabled and once for thinking
        // suppressed (Go repeats the block; one of the two is set after
        // Init).
        for flag in [self.thinking_enabled, self.thinking_suppressed] {
            if !flag {
                continue;
            }
            let trimmed = trim_left_space(&acc);
            if let Some(rest) = trimmed.strip_prefix(LAGUNA_THINKING_CLOSE_TAG) {
                self.buffer = trim_left_space(rest).to_string();
                return Ok((true, String::new(), Vec::new()));
            }
            if tag_has_prefix(LAGUNA_THINKING_CLOSE_TAG, trimmed) && !done {
                return Ok((false, String::new(), Vec::new()));
            }
        }
        if let Some(idx) = acc.find(LAGUNA_TOOL_CALL_OPEN_TAG) {
            let content = trim_right_space(&acc[..idx]).to_string();
            self.buffer = acc[idx + LAGUNA_TOOL_CALL_OPEN_TAG.len()..].to_string();
            self.state = LagunaParserState::Tool;
            return Ok((true, content, Vec::new()));
        }
        if let Some(idx) = acc.find(LAGUNA_USER_OPEN_TAG) {
            if !self.tools.is_empty() {
                let before = trim_right_space(&acc[..idx]).to_string();
                let after_open = &acc[idx + LAGUNA_USER_OPEN_TAG.len()..];
                if let Some(close_idx) = after_open.find(LAGUNA_USER_CLOSE_TAG) {
                    let raw = &after_open[..close_idx];
                    if let Some(call) = self.parse_tool_alias(raw) {
                        let after =
                            trim_left_space(&after_open[close_idx + LAGUNA_USER_CLOSE_TAG.len()..]);
                        self.buffer = after.to_string();
                        return Ok((true, before, vec![call]));
                    }
                } else if !done {
                    if idx > 0 {
                        self.buffer = acc[idx..].to_string();
                        return Ok((true, before, Vec::new()));
                    }
                    return Ok((false, String::new(), Vec::new()));
                }
            }
        }
        if !self.tools.is_empty() {
            if let Some(got) = self.consume_standalone_json_tool(done)? {
                // Go hands back the call with any progress, the zero
                // `api.ToolCall` too (content before a JSON object still
                // streaming): an empty call (`index` 0, `name` "",
                // `arguments` {}) goes out with that content.
                return Ok(match got {
                    Some((content, call)) => (true, content, vec![call]),
                    None => (false, String::new(), Vec::new()),
                });
            }
        }
        if done {
            self.buffer.clear();
            let acc = trim_right_space(&acc).to_string();
            return Ok((!acc.is_empty(), acc, Vec::new()));
        }
        let mut overlap_len =
            overlap(&acc, LAGUNA_TOOL_CALL_OPEN_TAG).max(overlap(&acc, LAGUNA_USER_OPEN_TAG));
        if self.thinking_enabled || self.thinking_suppressed {
            overlap_len = overlap_len.max(overlap(&acc, LAGUNA_THINKING_OPEN_TAG));
        }
        if self.thinking_suppressed {
            overlap_len = overlap_len.max(overlap(&acc, LAGUNA_THINKING_CLOSE_TAG));
        }
        let trailing_len = trailing_whitespace_len(&acc);
        let keep = overlap_len.max(trailing_len);
        if keep > 0 && keep < acc.len() {
            let emit = acc[..acc.len() - keep].to_string();
            self.buffer = acc[acc.len() - keep..].to_string();
            return Ok((!emit.is_empty(), emit, Vec::new()));
        }
        if keep == 0 && !acc.is_empty() {
            self.buffer.clear();
            return Ok((true, acc, Vec::new()));
        }
        Ok((false, String::new(), Vec::new()))
    }

    /// `consumeStandaloneJSONTool`: `None` where Go's `ok` is false (not a
    /// JSON tool call); else `Some(None)` (wait: no progress) or
    /// `Some(Some((content, call)))` (progress: the content before the
    /// JSON, and the call — Go's zero `api.ToolCall` while the JSON is
    /// incomplete).
    fn consume_standalone_json_tool(
        &mut self,
        done: bool,
    ) -> Result<Option<Option<(String, ToolCall)>>, String> {
        let acc = self.buffer.clone();
        let Some(json_idx) = acc.find('{') else {
            return Ok(None);
        };

        let before = trim_right_space(&acc[..json_idx]).to_string();
        let raw = trim_left_space(&acc[json_idx..]);
        if !laguna_looks_like_json_tool_call(raw, done) {
            return Ok(None);
        }

        if !done && godecode::check_valid(trim_space(raw).as_bytes()).is_err() {
            if !before.is_empty() {
                self.buffer = acc[json_idx..].to_string();
                return Ok(Some(Some((before, ToolCall::default()))));
            }
            return Ok(Some(None));
        }

        let mut call = parse_laguna_tool_call(raw, &self.tools)?;
        call.function.index = self.call_index;
        self.call_index += 1;
        self.buffer.clear();
        self.state = LagunaParserState::Content;
        Ok(Some(Some((before, call))))
    }

    /// `parseToolAlias`.
    fn parse_tool_alias(&mut self, raw: &str) -> Option<ToolCall> {
        let raw = clean_laguna_tool_call_raw(raw);
        let name = laguna_tool_call_name(&raw)?;
        laguna_resolve_tool_name(&name, &self.tools)
            .1
            .then_some(())?;
        let mut call = parse_laguna_tool_call(&raw, &self.tools).ok()?;
        call.function.index = self.call_index;
        self.call_index += 1;
        Some(call)
    }

    /// `consumeTool`.
    fn consume_tool(&mut self, done: bool) -> Result<(bool, Option<ToolCall>), String> {
        let acc = self.buffer.clone();
        if let Some(idx) = acc.find(LAGUNA_TOOL_CALL_CLOSE_TAG) {
            let raw = &acc[..idx];
            let after = trim_left_space(&acc[idx + LAGUNA_TOOL_CALL_CLOSE_TAG.len()..]);
            self.buffer = after.to_string();
            self.state = LagunaParserState::Content;
            let mut call = parse_laguna_tool_call(raw, &self.tools)?;
            call.function.index = self.call_index;
            self.call_index += 1;
            return Ok((true, Some(call)));
        }
        if done && !trim_space(&acc).is_empty() {
            self.buffer.clear();
            self.state = LagunaParserState::Content;
            let mut call = parse_laguna_tool_call(&acc, &self.tools)?;
            call.function.index = self.call_index;
            self.call_index += 1;
            return Ok((true, Some(call)));
        }
        Ok((false, None))
    }
}

/// `lagunaLooksLikeJSONToolCall`.
fn laguna_looks_like_json_tool_call(raw: &str, done: bool) -> bool {
    let trimmed = trim_left_space(raw);
    if !trimmed.starts_with('{') {
        return false;
    }
    if trimmed.contains("\"name\"") || trimmed.contains("\"arguments\"") {
        return true;
    }
    if done {
        return false;
    }
    trimmed.starts_with("{\"") || trimmed.starts_with("{\n") || trimmed.starts_with("{\r\n")
}

/// `lagunaResolveToolName`: the declared tool a name stands for (the name
/// itself, or one of a few aliases), and whether there is one.
fn laguna_resolve_tool_name(name: &str, tools: &[Tool]) -> (String, bool) {
    if tools.iter().any(|t| t.function.name == name) {
        return (name.to_string(), true);
    }

    let alias = match name {
        "read_file" => Some("read"),
        "write_file" => Some("write"),
        "edit_file" => Some("edit"),
        "web_fetch" => Some("webfetch"),
        _ => None,
    };
    if let Some(alias) = alias {
        if tools.iter().any(|t| t.function.name == alias) {
            return (alias.to_string(), true);
        }
    }
    (name.to_string(), false)
}

/// `cleanLagunaToolCallRaw`.
fn clean_laguna_tool_call_raw(raw: &str) -> String {
    let mut raw = trim_space(raw);
    while let Some(rest) = raw.strip_prefix(LAGUNA_TOOL_CALL_OPEN_TAG) {
        raw = trim_space(rest);
    }
    if let Some(idx) = raw.find(LAGUNA_TOOL_CALL_CLOSE_TAG) {
        raw = trim_space(&raw[..idx]);
    }
    if let Some(idx) = raw.find(LAGUNA_TOOL_CALL_OPEN_TAG) {
        let before = trim_space(&raw[..idx]);
        if !before.is_empty() {
            return before.to_string();
        }
        raw = trim_space(&raw[idx + LAGUNA_TOOL_CALL_OPEN_TAG.len()..]);
    }
    raw.to_string()
}

/// `struct { Name string `json:"name"` }` (in `lagunaToolCallName`).
const LAGUNA_NAME: GoStruct = GoStruct {
    name: "",
    go_type: "struct { Name string \"json:\\\"name\\\"\" }",
    fields: &[("name", FieldTy::Str)],
};

/// `struct { Name string; Arguments api.ToolCallFunctionArguments }` (in
/// `parseLagunaToolCall`).
const LAGUNA_JSON_CALL: GoStruct = GoStruct {
    name: "",
    go_type: "struct { Name string \"json:\\\"name\\\"\"; Arguments api.ToolCallFunctionArguments \"json:\\\"arguments\\\"\" }",
    fields: &[("name", FieldTy::Str), ("arguments", FieldTy::Args)],
};

/// `lagunaToolCallName`: the call's name, `None` when empty (or its JSON
/// does not decode).
fn laguna_tool_call_name(raw: &str) -> Option<String> {
    let raw = clean_laguna_tool_call_raw(raw);
    if raw.starts_with('{') {
        let parsed = unmarshal_struct(&raw, &LAGUNA_NAME).ok()?;
        let name = parsed.into_iter().next().and_then(FieldVal::into_str);
        let name = trim_space(name.as_deref().unwrap_or(""));
        return (!name.is_empty()).then(|| name.to_string());
    }

    let name_end = raw
        .find(LAGUNA_ARG_KEY_OPEN_TAG)
        .or_else(|| raw.find('{'))
        .or_else(|| raw.find(['\r', '\n']))
        .unwrap_or(raw.len());
    let name = trim_space(&raw[..name_end]);
    (!name.is_empty()).then(|| name.to_string())
}

/// Go's `\s` (RE2's Perl class): `[\t\n\f\r ]`.
fn is_re2_space(c: u8) -> bool {
    matches!(c, b'\t' | b'\n' | b'\x0c' | b'\r' | b' ')
}

/// `lagunaArgRE.FindAllStringSubmatch(s, -1)` with `lagunaArgRE` =
/// `(?s)<arg_key>(.*?)</arg_key>\s*<arg_value>(.*?)</arg_value>`: the key
/// and value of each match, leftmost first. From a start, the lazy key
/// takes the first `</arg_key>` followed by `\s*<arg_value>`, the lazy
/// value the first `</arg_value>` after that; the next search starts after
/// the match.
fn laguna_arg_re_find_all(s: &str) -> Vec<(&str, &str)> {
    let mut out = Vec::new();
    let mut pos = 0;
    'search: while let Some(start) = s[pos..].find(LAGUNA_ARG_KEY_OPEN_TAG).map(|i| i + pos) {
        let key_start = start + LAGUNA_ARG_KEY_OPEN_TAG.len();
        let mut from = key_start;
        while let Some(key_end) = s[from..].find(LAGUNA_ARG_KEY_CLOSE_TAG).map(|i| i + from) {
            let mut j = key_end + LAGUNA_ARG_KEY_CLOSE_TAG.len();
            while j < s.len() && is_re2_space(s.as_bytes()[j]) {
                j += 1;
            }
            if s[j..].starts_with(LAGUNA_ARG_VALUE_OPEN_TAG) {
                let value_start = j + LAGUNA_ARG_VALUE_OPEN_TAG.len();
                let Some(value_end) = s[value_start..]
                    .find(LAGUNA_ARG_VALUE_CLOSE_TAG)
                    .map(|i| i + value_start)
                else {
                    // No `</arg_value>` from here on: neither a longer key
                    // nor a later start can match.
                    break 'search;
                };
                out.push((&s[key_start..key_end], &s[value_start..value_end]));
                pos = value_end + LAGUNA_ARG_VALUE_CLOSE_TAG.len();
                continue 'search;
            }
            from = key_end + 1;
        }
        // No `</arg_key>` followed by `<arg_value>` after this start: none
        // after a later start either.
        break;
    }
    out
}

/// `parseLagunaToolCall`.
fn parse_laguna_tool_call(raw: &str, tools: &[Tool]) -> Result<ToolCall, String> {
    let raw = clean_laguna_tool_call_raw(raw);
    if raw.starts_with('{') {
        let parsed = unmarshal_struct(&raw, &LAGUNA_JSON_CALL)
            .map_err(|e| format!("failed to parse Laguna JSON tool call: {}", e.text()))?;
        let mut fields = parsed.into_iter();
        let mut name = fields
            .next()
            .and_then(FieldVal::into_str)
            .unwrap_or_default();
        if name.is_empty() {
            return Err("empty Laguna tool call name".into());
        }
        if let (resolved, true) = laguna_resolve_tool_name(&name, tools) {
            name = resolved;
        }
        let arguments = fields
            .next()
            .and_then(FieldVal::into_args)
            .unwrap_or_default();
        return Ok(tool_call(name, arguments));
    }

    let (mut name, args_text) = match raw.find(LAGUNA_ARG_KEY_OPEN_TAG) {
        Some(name_end) => (&raw[..name_end], &raw[name_end..]),
        None => match raw.find('{') {
            Some(json_start) => (&raw[..json_start], &raw[json_start..]),
            None => (raw.as_str(), ""),
        },
    };
    name = trim_space(name);
    let mut name = name.to_string();
    if let (resolved, true) = laguna_resolve_tool_name(&name, tools) {
        name = resolved;
    }

    let matched_tool = tools.iter().find(|t| t.function.name == name);

    if trim_space(args_text).starts_with('{') {
        let args = unmarshal_arguments(trim_space(args_text)).map_err(|e| {
            format!(
                "failed to parse Laguna JSON tool call arguments: {}",
                e.text()
            )
        })?;
        return Ok(tool_call(name, args));
    }
    let mut args = Map::new();
    for (key, value) in laguna_arg_re_find_all(args_text) {
        let key = trim_space(key);
        let param_type = matched_tool
            .and_then(|t| tool_property(t, key))
            .map(property_types)
            .unwrap_or_default();
        args.insert(key.to_string(), parse_value(value, &param_type));
    }
    Ok(tool_call(name, Args::of(args)))
}

pub(crate) fn constructors() -> Constructors {
    fn laguna() -> Box<dyn Parser> {
        Box::new(LagunaParser::default())
    }
    fn laguna_v8() -> Box<dyn Parser> {
        Box::new(LagunaV8Parser::default())
    }
    fn by_name(n: &str) -> Option<Box<dyn Parser>> {
        match n {
            "laguna" => Some(laguna()),
            // `laguna-v8` from 0.32.2-rc3 to 0.32.2 (`parser_for_name_in`)
            "poolside-v1" | "laguna-v8" => Some(laguna_v8()),
            _ => None,
        }
    }
    fn by_go_type(ty: &str, _: &Config) -> Option<Box<dyn Parser>> {
        match ty {
            "LagunaParser" => Some(laguna()),
            "LagunaV8Parser" => Some(laguna_v8()),
            _ => None,
        }
    }
    Constructors {
        by_name,
        by_go_type,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{ToolFunction, ToolFunctionParameters, ToolProperty};
    use crate::parsers::tool_calls_json;

    /// The recorded `ParserForName` calls of laguna_test.go, made again.
    #[test]
    fn recorded_parser_for_name() {
        crate::parsers::golden_support::check_parser_for_name(
            "laguna_test.go",
            constructors().by_name,
            |n| match n {
                "laguna" => Some("LagunaParser"),
                "poolside-v1" => Some("LagunaV8Parser"),
                _ => None,
            },
        );
    }

    fn prop(ty: &str) -> ToolProperty {
        ToolProperty {
            type_: vec![ty.to_string()],
            ..ToolProperty::default()
        }
    }

    fn tool(name: &str, props: &[(&str, &str)]) -> Tool {
        Tool {
            type_: "function".into(),
            function: ToolFunction {
                name: name.into(),
                parameters: ToolFunctionParameters {
                    type_: "object".into(),
                    properties: Some(
                        props
                            .iter()
                            .map(|(k, t)| (k.to_string(), prop(t)))
                            .collect(),
                    ),
                    ..ToolFunctionParameters::default()
                },
                ..ToolFunction::default()
            },
            ..Tool::default()
        }
    }

    fn tools() -> Vec<Tool> {
        vec![
            tool(
                "get_weather",
                &[("location", "string"), ("days", "integer")],
            ),
            tool("read", &[("path", "string")]),
        ]
    }

    fn run(p: &mut dyn Parser, chunks: &[&str]) -> (String, String, String) {
        let (mut content, mut thinking, mut calls) = (String::new(), String::new(), Vec::new());
        for c in chunks {
            let a = p.add(c, false).unwrap();
            content += &a.content;
            thinking += &a.thinking;
            calls.extend(a.calls);
        }
        let a = p.add("", true).unwrap();
        content += &a.content;
        thinking += &a.thinking;
        calls.extend(a.calls);
        (content, thinking, tool_calls_json(&calls))
    }

    #[test]
    fn laguna_tool_calls() {
        let mut p = LagunaParser::default();
        p.init(&tools(), None, None);
        assert_eq!(
            run(
                &mut p,
                &["Checking.\n<tool_call>get_weather\n<arg_key>location</arg_key>\n<arg_value>Paris</arg_value>\n<arg_key>days</arg_key>\n<arg_value>3</arg_value>\n</tool_call>"]
            ),
            (
                "Checking.".into(),
                "".into(),
                r#"[{"function":{"index":0,"name":"get_weather","arguments":{"location":"Paris","days":3}}}]"#.into()
            )
        );

        let mut p = LagunaParser::default();
        p.init(&tools(), None, None);
        assert_eq!(
            run(&mut p, &[r#"<tool_call>{"name": "get_weather", "arguments": {"location": "Paris", "days": 3}}</tool_call>"#]).2,
            r#"[{"function":{"index":0,"name":"get_weather","arguments":{"location":"Paris","days":3}}}]"#
        );

        // standalone JSON, streamed
        let mut p = LagunaParser::default();
        p.init(&tools(), None, None);
        assert_eq!(
            run(
                &mut p,
                &[
                    "Sure. ",
                    r#"{"name": "read_file", "#,
                    r#""arguments": {"path": "a.txt"}}"#
                ]
            ),
            (
                "Sure.".into(),
                "".into(),
                r#"[{"function":{"index":0,"name":"read","arguments":{"path":"a.txt"}}}]"#.into()
            )
        );

        // <user>-tagged alias
        let mut p = LagunaParser::default();
        p.init(&tools(), None, None);
        assert_eq!(
            run(&mut p, &["Let me read it.\n<user>read_file<arg_key>path</arg_key><arg_value>x</arg_value></user>"]),
            (
                "Let me read it.".into(),
                "".into(),
                r#"[{"function":{"index":0,"name":"read","arguments":{"path":"x"}}}]"#.into()
            )
        );

        // a non-tool <user> tag stays content
        let mut p = LagunaParser::default();
        p.init(&tools(), None, None);
        assert_eq!(
            run(&mut p, &["hi <user>there</user>"]).0,
            "hi <user>there</user>"
        );
    }

    #[test]
    fn laguna_thinking() {
        let on = Think::Bool(true);
        let mut p = LagunaParser::default();
        p.init(&tools(), None, Some(&on));
        assert_eq!(
            run(&mut p, &["<think>\nhmm ", "ok</think>\n\nAnswer"]),
            ("Answer".into(), "hmm ok".into(), "null".into())
        );

        // thinking defaults off: the model's </think> is dropped
        let mut p = LagunaParser::default();
        p.init(&[], None, None);
        assert_eq!(run(&mut p, &["</think>\nHello"]).0, "Hello");

        // thinking then a tool call
        let mut p = LagunaParser::default();
        p.init(&tools(), None, Some(&on));
        assert_eq!(
            run(&mut p, &["plan<tool_call>read<arg_key>path</arg_key><arg_value>a</arg_value></tool_call>"]),
            (
                "".into(),
                "plan".into(),
                r#"[{"function":{"index":0,"name":"read","arguments":{"path":"a"}}}]"#.into()
            )
        );

        // a prefill starts in content, but the v8 parser ignores it
        let last = Message::new("assistant", "x");
        let mut p = LagunaParser::default();
        p.init(&[], Some(&last), Some(&on));
        assert_eq!(run(&mut p, &["more"]).0, "more");
        let mut p = LagunaV8Parser::default();
        p.init(&[], Some(&last), Some(&on));
        assert_eq!(run(&mut p, &["more"]).1, "more");
    }

    #[test]
    fn laguna_errors() {
        let mut p = LagunaParser::default();
        p.init(&tools(), None, None);
        assert_eq!(
            p.add(r#"<tool_call>{"name": 5}</tool_call>"#, false),
            Err("failed to parse Laguna JSON tool call: json: cannot unmarshal number into Go struct field .name of type string".into())
        );
        let mut p = LagunaParser::default();
        p.init(&tools(), None, None);
        assert_eq!(
            p.add(r#"<tool_call>{"arguments": {}}</tool_call>"#, false),
            Err("empty Laguna tool call name".into())
        );
        let mut p = LagunaParser::default();
        p.init(&tools(), None, None);
        assert_eq!(
            p.add("<tool_call>read{\"path\": x}</tool_call>", false),
            Err("failed to parse Laguna JSON tool call arguments: invalid character 'x' looking for beginning of value".into())
        );
    }

    #[test]
    fn laguna_go_quirks() {
        // Content before a standalone JSON object that is still streaming
        // goes out with Go's zero api.ToolCall.
        let mut p = LagunaParser::default();
        p.init(&tools(), None, None);
        let a = p.add("Sure {\"name\": \"rea", false).unwrap();
        assert_eq!(a.content, "Sure");
        assert_eq!(
            tool_calls_json(&a.calls),
            r#"[{"function":{"index":0,"name":"","arguments":{}}}]"#
        );
        // json.Unmarshal's end of input: the scanner is fed a space.
        for (args, err) in [
            ("{\"x\\", "invalid character ' ' in string escape code"),
            (
                "{\"x\": tru",
                "invalid character ' ' in literal true (expecting 'e')",
            ),
            ("{\"x\": 1", "unexpected end of JSON input"),
        ] {
            let mut p = LagunaParser::default();
            p.init(&tools(), None, None);
            assert_eq!(
                p.add(&format!("<tool_call>read{args}</tool_call>"), false),
                Err(format!(
                    "failed to parse Laguna JSON tool call arguments: {err}"
                ))
            );
        }
    }

    #[test]
    fn arg_regex() {
        assert_eq!(
            laguna_arg_re_find_all("<arg_key>a</arg_key> \n<arg_value>1</arg_value><arg_key>b</arg_key>x</arg_key><arg_value>2\n</arg_value>"),
            vec![("a", "1"), ("b</arg_key>x", "2\n")]
        );
        assert_eq!(
            laguna_arg_re_find_all("<arg_key>a</arg_key>\x0b<arg_value>1</arg_value>"),
            vec![]
        );
        assert_eq!(
            laguna_arg_re_find_all("<arg_key><arg_key>k</arg_key><arg_value>v</arg_value>"),
            vec![("<arg_key>k", "v")]
        );
    }
}
