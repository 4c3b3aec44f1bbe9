//! `model/parsers/cohere.go`: the Cohere North / Command A 2026 parser
//! (e.g. North-Mini-Code-1.0). The generation prompt ends with
//! `<|START_THINKING|>` (reasoning on) or
//! `<|START_THINKING|><|END_THINKING|>` (reasoning off), so output begins
//! inside the thinking block when reasoning is enabled. After thinking, the
//! model emits either `<|START_TEXT|>content<|END_TEXT|>` or an
//! `<|START_ACTION|>[...]<|END_ACTION|>` tool call array, then
//! `<|END_OF_TURN_TOKEN|>`.

use super::gojson_decode::{unmarshal_struct, unmarshal_struct_slice, FieldTy, FieldVal, GoStruct};
use super::{
    overlap, trailing_whitespace_len, trim_left_space, trim_right_space, trim_space, Added, Config,
    Constructors, Parser,
};
use crate::api::{Message, Think, Tool, ToolCall};

/// `CohereParser`.
#[derive(Clone, Debug, Default)]
pub struct CohereParser {
    state: CohereParserState,
    buffer: String,
    call_index: i64,
}

/// `cohereParserState`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum CohereParserState {
    /// `cohereCollectingThinking`
    #[default]
    CollectingThinking,
    /// `cohereAwaitingBlock`
    AwaitingBlock,
    /// `cohereCollectingContent`
    CollectingContent,
    /// `cohereCollectingAction`
    CollectingAction,
}

/// `cohereEndThinking`
const COHERE_END_THINKING: &str = "<|END_THINKING|>";
/// `cohereStartText`
const COHERE_START_TEXT: &str = "<|START_TEXT|>";
/// `cohereEndText`
const COHERE_END_TEXT: &str = "<|END_TEXT|>";
/// `cohereStartAction`
const COHERE_START_ACTION: &str = "<|START_ACTION|>";
/// `cohereEndAction`
const COHERE_END_ACTION: &str = "<|END_ACTION|>";
/// `cohereEndOfTurn`
const COHERE_END_OF_TURN: &str = "<|END_OF_TURN_TOKEN|>";

// Legacy response markers from the older Command A chat template, which
// also ships in these models' tokenizer_config and shows up in sampled
// output; treated as aliases for START_TEXT / END_TEXT.

/// `cohereStartResponse`
const COHERE_START_RESPONSE: &str = "<|START_RESPONSE|>";
/// `cohereEndResponse`
const COHERE_END_RESPONSE: &str = "<|END_RESPONSE|>";

impl CohereParser {
    /// `eat`: consumes what it can from the buffer for the current state.
    /// `more` is true when a state transition happened and the remaining
    /// buffer should be reprocessed.
    fn eat(&mut self, done: bool) -> (String, String, Vec<ToolCall>, bool) {
        let buf = self.buffer.clone();
        if buf.is_empty() {
            return (String::new(), String::new(), Vec::new(), false);
        }

        match self.state {
            CohereParserState::CollectingThinking => {
                if let Some(idx) = buf.find(COHERE_END_THINKING) {
                    let thinking = trim_right_space(&buf[..idx]).to_string();
                    self.reset_buffer(&buf[idx + COHERE_END_THINKING.len()..]);
                    self.state = CohereParserState::AwaitingBlock;
                    return (String::new(), thinking, Vec::new(), true);
                }
                // Emit all but a possible partial tag / trailing whitespace.
                // (Both cuts fall on char boundaries.)
                let keep = overlap(&buf, COHERE_END_THINKING);
                let mut emit_end = buf.len() - keep;
                emit_end -= trailing_whitespace_len(&buf[..emit_end]);
                let mut thinking = String::new();
                if emit_end > 0 {
                    thinking = buf[..emit_end].to_string();
                    self.reset_buffer(&buf[emit_end..]);
                }
                (String::new(), thinking, Vec::new(), false)
            }

            CohereParserState::AwaitingBlock => {
                // Between blocks: look for the next text or action opener,
                // skipping whitespace and the end-of-turn token.
                for open in [COHERE_START_TEXT, COHERE_START_RESPONSE] {
                    if let Some(idx) = buf.find(open) {
                        self.reset_buffer(&buf[idx + open.len()..]);
                        self.state = CohereParserState::CollectingContent;
                        return (String::new(), String::new(), Vec::new(), true);
                    }
                }
                if let Some(idx) = buf.find(COHERE_START_ACTION) {
                    self.reset_buffer(&buf[idx + COHERE_START_ACTION.len()..]);
                    self.state = CohereParserState::CollectingAction;
                    return (String::new(), String::new(), Vec::new(), true);
                }
                let trimmed = trim_left_space(&buf);
                if let Some(rest) = trimmed.strip_prefix(COHERE_END_OF_TURN) {
                    self.reset_buffer(rest);
                    return (String::new(), String::new(), Vec::new(), true);
                }
                if trimmed.is_empty() {
                    if done {
                        self.buffer.clear();
                    }
                    return (String::new(), String::new(), Vec::new(), false);
                }
                // Wait only while the buffer could still grow into one of the
                // expected tags. Anything else — bare content or an
                // unrecognized tag — streams out as content rather than
                // buffering forever.
                if !done && maybe_partial_tag(trimmed) {
                    return (String::new(), String::new(), Vec::new(), false);
                }
                self.state = CohereParserState::CollectingContent;
                self.buffer = trimmed.to_string();
                (String::new(), String::new(), Vec::new(), true)
            }

            CohereParserState::CollectingContent => {
                // END_OF_TURN also closes content for models that skip END_TEXT.
                for close in [COHERE_END_TEXT, COHERE_END_RESPONSE, COHERE_END_OF_TURN] {
                    if let Some(idx) = buf.find(close) {
                        let content = buf[..idx].to_string();
                        self.reset_buffer(&buf[idx + close.len()..]);
                        self.state = CohereParserState::AwaitingBlock;
                        return (content, String::new(), Vec::new(), true);
                    }
                }
                let keep = overlap(&buf, COHERE_END_TEXT)
                    .max(overlap(&buf, COHERE_END_RESPONSE))
                    .max(overlap(&buf, COHERE_END_OF_TURN));
                let emit_end = buf.len() - keep;
                let mut content = String::new();
                if emit_end > 0 {
                    content = buf[..emit_end].to_string();
                    self.reset_buffer(&buf[emit_end..]);
                }
                if done && !self.buffer.is_empty() {
                    content.push_str(&self.buffer);
                    self.buffer.clear();
                }
                (content, String::new(), Vec::new(), false)
            }

            CohereParserState::CollectingAction => {
                if let Some(idx) = buf.find(COHERE_END_ACTION) {
                    let payload = &buf[..idx];
                    self.reset_buffer(&buf[idx + COHERE_END_ACTION.len()..]);
                    self.state = CohereParserState::AwaitingBlock;
                    let calls = parse_cohere_actions(payload);
                    return (String::new(), String::new(), calls, true);
                }
                if done {
                    // Best effort on truncated output.
                    let calls = parse_cohere_actions(&buf);
                    self.buffer.clear();
                    return (String::new(), String::new(), calls, false);
                }
                (String::new(), String::new(), Vec::new(), false)
            }
        }
    }

    /// `resetBuffer`.
    fn reset_buffer(&mut self, s: &str) {
        self.buffer = s.to_string();
    }
}

impl Parser for CohereParser {
    fn init(
        &mut self,
        tools: &[Tool],
        last_message: Option<&Message>,
        think: Option<&Think>,
    ) -> Vec<Tool> {
        self.buffer.clear();
        self.call_index = 0;

        // The template enables reasoning by default; nil means default.
        let thinking_enabled = think.is_none_or(Think::as_bool);

        let assistant_prefill =
            last_message.is_some_and(|m| m.role == "assistant" && !m.content.is_empty());
        self.state = if assistant_prefill {
            // The prompt left an open <|START_TEXT|> for continuation.
            CohereParserState::CollectingContent
        } else if thinking_enabled {
            CohereParserState::CollectingThinking
        } else {
            CohereParserState::AwaitingBlock
        };
        tools.to_vec()
    }

    fn add(&mut self, s: &str, done: bool) -> Result<Added, String> {
        self.buffer.push_str(s);

        let mut content = String::new();
        let mut thinking = String::new();
        let mut calls = Vec::new();
        loop {
            let (c, t, tc, more) = self.eat(done);
            content.push_str(&c);
            thinking.push_str(&t);
            calls.extend(tc);
            if !more {
                break;
            }
        }

        for call in &mut calls {
            call.function.index = self.call_index;
            self.call_index += 1;
        }

        Ok(Added {
            content,
            thinking,
            calls,
        })
    }

    fn preserved_tokens(&self) -> Vec<String> {
        [
            "<|START_THINKING|>",
            COHERE_END_THINKING,
            COHERE_START_TEXT,
            COHERE_END_TEXT,
            COHERE_START_ACTION,
            COHERE_END_ACTION,
            COHERE_START_RESPONSE,
            COHERE_END_RESPONSE,
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

/// `maybePartialTag`: whether `s` is a proper prefix of one of the tags the
/// awaiting-block state recognizes — the only case worth waiting on for
/// more output before treating the buffer as content.
fn maybe_partial_tag(s: &str) -> bool {
    [
        COHERE_START_TEXT,
        COHERE_START_RESPONSE,
        COHERE_START_ACTION,
        COHERE_END_OF_TURN,
    ]
    .iter()
    .any(|tag| s.len() < tag.len() && tag.starts_with(s))
}

/// `cohereToolCall`.
const COHERE_TOOL_CALL: GoStruct = GoStruct {
    name: "cohereToolCall",
    go_type: "parsers.cohereToolCall",
    fields: &[
        ("tool_call_id", FieldTy::Str),
        ("tool_name", FieldTy::Str),
        ("parameters", FieldTy::Args),
    ],
};

/// `cohereToolCall.toolCall()`, from the decoded fields.
fn cohere_tool_call(fields: Vec<FieldVal>) -> ToolCall {
    let mut fields = fields.into_iter();
    let id = fields
        .next()
        .and_then(FieldVal::into_str)
        .unwrap_or_default();
    let name = fields
        .next()
        .and_then(FieldVal::into_str)
        .unwrap_or_default();
    let args = fields
        .next()
        .and_then(FieldVal::into_args)
        .unwrap_or_default();
    let mut call = super::tool_call(name, args);
    call.id = id;
    call
}

/// `parseCohereActions`: the JSON array inside an action block,
/// `[{"tool_call_id": "0", "tool_name": ..., "parameters": {...}}, ...]`.
///
/// Sampled output occasionally malforms the JSON (a missing comma between
/// calls, an unquoted value). When the array as a whole fails to parse,
/// fall back to scanning its balanced top-level objects and parse each
/// independently, so one bad call doesn't drop its siblings.
fn parse_cohere_actions(payload: &str) -> Vec<ToolCall> {
    let payload = trim_space(payload);
    if payload.is_empty() {
        return Vec::new();
    }

    if let Ok(parsed) =
        unmarshal_struct_slice(payload, &COHERE_TOOL_CALL, "[]parsers.cohereToolCall")
    {
        return parsed.into_iter().map(cohere_tool_call).collect();
    }

    let mut calls = Vec::new();
    for obj in scan_json_objects(payload) {
        match unmarshal_struct(obj, &COHERE_TOOL_CALL) {
            // Go warns "cohere action parsing failed" and skips it.
            Err(_) => continue,
            Ok(c) => calls.push(cohere_tool_call(c)),
        }
    }
    calls
}

/// `scanJSONObjects`: the balanced top-level `{...}` chunks of `s`,
/// tracking strings and escapes so braces inside values don't split
/// objects.
fn scan_json_objects(s: &str) -> Vec<&str> {
    let mut objects = Vec::new();
    let mut depth = 0usize;
    let mut start: Option<usize> = None;
    let (mut in_string, mut escaped) = (false, false);
    for (i, &c) in s.as_bytes().iter().enumerate() {
        if escaped {
            escaped = false;
        } else if c == b'\\' && in_string {
            escaped = true;
        } else if c == b'"' {
            in_string = !in_string;
        } else if in_string {
        } else if c == b'{' {
            if depth == 0 {
                start = Some(i);
            }
            depth += 1;
        } else if c == b'}' && depth > 0 {
            depth -= 1;
            if depth == 0 {
                if let Some(st) = start.take() {
                    // `{` and `}` are ASCII: char boundaries.
                    objects.push(&s[st..=i]);
                }
            }
        }
    }
    objects
}

pub(crate) fn constructors() -> Constructors {
    fn make() -> Box<dyn Parser> {
        Box::new(CohereParser::default())
    }
    fn by_go_type(ty: &str, _: &Config) -> Option<Box<dyn Parser>> {
        (ty == "CohereParser").then(make)
    }
    Constructors {
        by_name: |n| (n == "cohere").then(make),
        by_go_type,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parsers::tool_calls_json;

    /// The recorded `ParserForName` calls of cohere_test.go, made again.
    #[test]
    fn recorded_parser_for_name() {
        crate::parsers::golden_support::check_parser_for_name(
            "cohere_test.go",
            constructors().by_name,
            |n| (n == "cohere").then_some("CohereParser"),
        );
    }

    fn add_all(p: &mut CohereParser, chunks: &[&str]) -> (String, String, String) {
        let (mut content, mut thinking, mut calls) = (String::new(), String::new(), Vec::new());
        for (i, c) in chunks.iter().enumerate() {
            let a = p.add(c, i == chunks.len() - 1).unwrap();
            content += &a.content;
            thinking += &a.thinking;
            calls.extend(a.calls);
        }
        (content, thinking, tool_calls_json(&calls))
    }

    fn parser(think: Option<Think>, last: Option<Message>) -> CohereParser {
        let mut p = CohereParser::default();
        p.init(&[], last.as_ref(), think.as_ref());
        p
    }

    #[test]
    fn cohere_parser() {
        let mut p = parser(None, None);
        assert_eq!(
            add_all(
                &mut p,
                &[
                    "Let me think.\n<|END_",
                    "THINKING|><|START_TEXT|>Hello",
                    " world<|END_TEXT|><|END_OF_TURN_TOKEN|>",
                    ""
                ]
            ),
            ("Hello world".into(), "Let me think.".into(), "null".into())
        );

        let mut p = parser(None, None);
        assert_eq!(
            add_all(
                &mut p,
                &[r#"t<|END_THINKING|><|START_ACTION|>[{"tool_call_id": "0", "tool_name": "get_weather", "parameters": {"city": "Paris", "days": 3}}]<|END_ACTION|><|END_OF_TURN_TOKEN|>"#]
            )
            .2,
            r#"[{"id":"0","function":{"index":0,"name":"get_weather","arguments":{"city":"Paris","days":3}}}]"#
        );

        // reasoning off, bare content
        let mut p = parser(Some(Think::Bool(false)), None);
        assert_eq!(
            add_all(&mut p, &["  Hi there<|END_OF_TURN_TOKEN|>"]).0,
            "Hi there"
        );

        // prefill continues content
        let mut p = parser(None, Some(Message::new("assistant", "Once")));
        assert_eq!(
            add_all(&mut p, &[" continued<|END_TEXT|>"]),
            (" continued".into(), "".into(), "null".into())
        );

        // malformed arrays fall back to object scanning
        let mut p = parser(None, None);
        assert_eq!(
            add_all(
                &mut p,
                &[r#"x<|END_THINKING|><|START_ACTION|>[{"tool_call_id": "0", "tool_name": "a", "parameters": {}} {"tool_call_id": "1", "tool_name": "b", "parameters": {"q": "}"}}, {"tool_name": bad}]<|END_ACTION|>"#]
            )
            .2,
            r#"[{"id":"0","function":{"index":0,"name":"a","arguments":{}}},{"id":"1","function":{"index":1,"name":"b","arguments":{"q":"}"}}}]"#
        );
        let mut p = parser(None, None);
        assert_eq!(
            add_all(
                &mut p,
                &["x<|END_THINKING|><|START_ACTION|>[!!!]<|END_ACTION|>"]
            )
            .2,
            "null"
        );
        // null elements and parameters; case-insensitive fields
        let mut p = parser(None, None);
        assert_eq!(
            add_all(
                &mut p,
                &[r#"<|END_THINKING|><|START_ACTION|>[null, {"TOOL_NAME": "c", "parameters": null}]<|END_ACTION|>"#]
            )
            .2,
            r#"[{"function":{"index":0,"name":"","arguments":{}}},{"function":{"index":1,"name":"c","arguments":null}}]"#
        );
    }
}
