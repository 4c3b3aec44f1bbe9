//! `model/parsers/qwen3.go`: the Qwen3 parser. With thinking on, the
//! prompt ends in `<think>`, so output starts with thinking (an explicit
//! leading `<think>` is dropped once) up to `</think>`; then content, with
//! JSON tool calls in `<tool_call>…</tool_call>` (a tool call before
//! `</think>` ends the thinking too).

use super::gojson_decode::{unmarshal_struct, FieldTy, FieldVal, GoStruct};
use super::{
    cfg_bool, overlap, split_at_tag, trailing_whitespace_len, trim_left_space, Added, Config,
    Constructors, Parser,
};
use crate::api::{Message, Think, Tool, ToolCall};

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

/// The anonymous struct `parseQwen3ToolCall` decodes into.
const QWEN3_CALL: GoStruct = GoStruct {
    name: "",
    go_type: "struct { Name string \"json:\\\"name\\\"\"; Arguments api.ToolCallFunctionArguments \"json:\\\"arguments\\\"\" }",
    fields: &[("name", FieldTy::Str), ("arguments", FieldTy::Args)],
};

/// `parseQwen3ToolCall`: `{"name": …, "arguments": {…}}`. qwen3 uses the
/// JSON arguments directly, without schema coercion.
pub(super) fn parse_qwen3_tool_call(raw: &str, _tools: &[Tool]) -> Result<ToolCall, String> {
    let parsed = unmarshal_struct(raw, &QWEN3_CALL)
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

    Ok(super::tool_call(name, arguments))
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
}
