//! `model/parsers/qwen35.go`: the Qwen3.5 parser (also `ornith`). It
//! separates the reasoning (the prompt opens `<think>`; an explicit
//! leading `<think>` is dropped once) and hands everything after
//! `</think>` to a [`Qwen3CoderParser`], which finds the XML tool calls.

use super::qwen3coder::{Qwen3CoderParser, TOOL_CLOSE_TAG, TOOL_OPEN_TAG};
use super::{
    overlap, split_at_tag, trailing_whitespace_len, trim_left_space, Added, Constructors, Parser,
};
use crate::api::{Message, Think, Tool};

/// `qwen35ParserState`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Qwen35ParserState {
    /// `qwen35ParserStateCollectingThinking` (the zero value).
    #[default]
    CollectingThinking,
    /// `qwen35ParserStateThinkingDoneEatingWhitespace`.
    ThinkingDoneEatingWhitespace,
    /// `qwen35ParserStateCollectingContent`.
    CollectingContent,
}

/// `qwen35ThinkingOpenTag`.
const QWEN35_THINKING_OPEN_TAG: &str = "<think>";
/// `qwen35ThinkingCloseTag`.
const QWEN35_THINKING_CLOSE_TAG: &str = "</think>";
/// `qwen35ToolCallOpenTag`.
const QWEN35_TOOL_CALL_OPEN_TAG: &str = "<tool_call>";

/// `Qwen35Parser`: reasoning extraction; post-thinking content (with its
/// XML tool calls) goes through a [`Qwen3CoderParser`].
#[derive(Clone, Debug, Default)]
pub struct Qwen35Parser {
    tool_parser: Qwen3CoderParser,

    state: Qwen35ParserState,
    buffer: String,
    /// Some checkpoints emit an explicit leading `<think>` even when the
    /// prompt already opened thinking: at most one is stripped.
    allow_leading_think_open_tag: bool,
    trim_leading_thinking_space: bool,
    /// Before `qwen35_parser_think_space` (Ollama 0.32.12): a `<think>`
    /// alone in its chunk left the next chunk's leading whitespace in the
    /// thinking and a second `<think>` strippable.
    before_think_space: bool,
    /// Whether that case arose.
    think_space_reached: bool,
}

impl Parser for Qwen35Parser {
    /// `HasToolSupport`.
    fn has_tool_support(&self) -> bool {
        true
    }

    /// `HasThinkingSupport`.
    fn has_thinking_support(&self) -> bool {
        true
    }

    fn set_release(&mut self, rules: &changes::Rules) {
        self.before_think_space = !rules.has(&changes::ollama::QWEN35_PARSER_THINK_SPACE);
    }

    fn rows_reached(&self) -> Vec<&'static changes::Change> {
        if self.think_space_reached {
            vec![&changes::ollama::QWEN35_PARSER_THINK_SPACE]
        } else {
            Vec::new()
        }
    }

    /// `PreservedTokens`.
    fn preserved_tokens(&self) -> Vec<String> {
        [
            QWEN35_THINKING_OPEN_TAG,
            QWEN35_THINKING_CLOSE_TAG,
            TOOL_OPEN_TAG,
            TOOL_CLOSE_TAG,
        ]
        .map(String::from)
        .to_vec()
    }

    /// `Init`: thinking unless `think` is false or the last message is an
    /// assistant prefill with content.
    fn init(
        &mut self,
        tools: &[Tool],
        last_message: Option<&Message>,
        think: Option<&Think>,
    ) -> Vec<Tool> {
        self.buffer.clear();
        self.tool_parser = Qwen3CoderParser::default();
        self.tool_parser.init(tools, None, None);

        let thinking_enabled = think.is_none_or(Think::as_bool);

        let assistant_prefill =
            last_message.is_some_and(|m| m.role == "assistant" && !m.content.is_empty());
        if thinking_enabled && !assistant_prefill {
            self.state = Qwen35ParserState::CollectingThinking;
            self.allow_leading_think_open_tag = true;
        } else {
            self.state = Qwen35ParserState::CollectingContent;
            self.allow_leading_think_open_tag = false;
        }
        self.trim_leading_thinking_space = false;

        tools.to_vec()
    }

    /// `Add`.
    fn add(&mut self, s: &str, done: bool) -> Result<Added, String> {
        self.buffer.push_str(s);
        let events = self.parse_events();

        let mut out = Added::default();
        for event in events {
            match event {
                Qwen35Event::Content { content } => {
                    // Go logs "qwen3.5 tool call parsing failed".
                    let parsed = self.tool_parser.add(&content, done)?;
                    out.content.push_str(&parsed.content);
                    out.calls.extend(parsed.calls);
                }
                Qwen35Event::ThinkingContent { content } => out.thinking.push_str(&content),
            }
        }
        Ok(out)
    }
}

/// `qwen35Event`.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Qwen35Event {
    /// `qwen35EventContent`.
    Content { content: String },
    /// `qwen35EventThinkingContent`.
    ThinkingContent { content: String },
}

impl Qwen35Parser {
    /// `parseEvents` (Go also logs the events at trace level).
    fn parse_events(&mut self) -> Vec<Qwen35Event> {
        let mut all = Vec::new();
        let mut keep_looping = true;
        while keep_looping {
            let events;
            (events, keep_looping) = self.eat();
            all.extend(events);
        }
        all
    }

    /// `splitAtTag`.
    fn split_at_tag(&mut self, tag: &str, trim_after: bool) -> (String, String) {
        split_at_tag(&mut self.buffer, tag, trim_after)
    }

    /// `eatLeadingWhitespaceAndTransitionTo`.
    fn eat_leading_whitespace_and_transition_to(
        &mut self,
        next_state: Qwen35ParserState,
    ) -> (Vec<Qwen35Event>, bool) {
        let trimmed = trim_left_space(&self.buffer).to_string();
        self.buffer.clear();
        if trimmed.is_empty() {
            return (Vec::new(), false);
        }
        self.state = next_state;
        self.buffer = trimmed;
        (Vec::new(), true)
    }

    /// `maybeConsumeLeadingThinkOpenTag`: a single optional leading
    /// `<think>`. Returns (handled, continue parsing now).
    fn maybe_consume_leading_think_open_tag(&mut self, acc: &str) -> (bool, bool) {
        if !self.allow_leading_think_open_tag {
            return (false, false);
        }

        let trimmed = trim_left_space(acc);
        if let Some(after) = trimmed.strip_prefix(QWEN35_THINKING_OPEN_TAG) {
            let after = trim_left_space(after).to_string();
            let empty = after.is_empty();
            self.think_space_reached |= empty;
            if !(empty && self.before_think_space) {
                self.allow_leading_think_open_tag = false;
                self.trim_leading_thinking_space = empty;
            }
            self.buffer = after;
            return (true, !empty);
        }

        if QWEN35_THINKING_OPEN_TAG.starts_with(trimmed) {
            return (true, false);
        }

        self.allow_leading_think_open_tag = false;
        (false, false)
    }

    /// `eat`.
    fn eat(&mut self) -> (Vec<Qwen35Event>, bool) {
        let mut events = Vec::new();

        match self.state {
            Qwen35ParserState::CollectingThinking => {
                let mut acc = self.buffer.clone();

                let (handled, continue_now) = self.maybe_consume_leading_think_open_tag(&acc);
                if handled {
                    return (events, continue_now);
                }
                if self.trim_leading_thinking_space {
                    acc = trim_left_space(&acc).to_string();
                    self.buffer = acc.clone();
                    if acc.is_empty() {
                        return (events, false);
                    }
                    self.trim_leading_thinking_space = false;
                }

                if acc.contains(QWEN35_THINKING_CLOSE_TAG) {
                    let (thinking, remaining) = self.split_at_tag(QWEN35_THINKING_CLOSE_TAG, true);
                    if !thinking.is_empty() {
                        events.push(Qwen35Event::ThinkingContent { content: thinking });
                    }
                    self.state = if remaining.is_empty() {
                        Qwen35ParserState::ThinkingDoneEatingWhitespace
                    } else {
                        Qwen35ParserState::CollectingContent
                    };
                    return (events, true);
                }
                let overlap_len = overlap(&acc, QWEN35_THINKING_CLOSE_TAG)
                    .max(overlap(&acc, QWEN35_TOOL_CALL_OPEN_TAG));
                if overlap_len > 0 {
                    // (the overlap is an ASCII prefix: a character boundary)
                    let before_partial_tag = &acc[..acc.len() - overlap_len];
                    let ambiguous_start =
                        before_partial_tag.len() - trailing_whitespace_len(before_partial_tag);
                    let unambiguous = acc[..ambiguous_start].to_string();
                    self.buffer = acc[ambiguous_start..].to_string();
                    if !unambiguous.is_empty() {
                        events.push(Qwen35Event::ThinkingContent {
                            content: unambiguous,
                        });
                    }
                    return (events, false);
                } else if acc.contains(QWEN35_TOOL_CALL_OPEN_TAG) {
                    // qwen3.5:9b sometimes forgets </think> before a
                    // <tool_call> block: end the thinking there and go on
                    // with the call.
                    let (thinking, tooling) = self.split_at_tag(QWEN35_TOOL_CALL_OPEN_TAG, true);
                    self.buffer = format!(
                        "{thinking}{QWEN35_THINKING_CLOSE_TAG}{QWEN35_TOOL_CALL_OPEN_TAG}{tooling}"
                    );
                    return (events, true);
                }

                let ambiguous_start = acc.len() - trailing_whitespace_len(&acc);
                let unambiguous = acc[..ambiguous_start].to_string();
                self.buffer = acc[ambiguous_start..].to_string();
                if !unambiguous.is_empty() {
                    events.push(Qwen35Event::ThinkingContent {
                        content: unambiguous,
                    });
                }
                (events, false)
            }

            Qwen35ParserState::ThinkingDoneEatingWhitespace => {
                self.eat_leading_whitespace_and_transition_to(Qwen35ParserState::CollectingContent)
            }

            Qwen35ParserState::CollectingContent => {
                if self.buffer.is_empty() {
                    return (events, false);
                }
                let content = std::mem::take(&mut self.buffer);
                events.push(Qwen35Event::Content { content });
                (events, false)
            }
        }
    }
}

pub(crate) fn constructors() -> Constructors {
    fn make() -> Box<dyn Parser> {
        Box::new(Qwen35Parser::default())
    }
    Constructors {
        by_name: |n| matches!(n, "qwen3.5" | "ornith").then(make),
        by_go_type: |t, _| (t == "Qwen35Parser").then(make),
    }
}

#[cfg(test)]
impl Qwen35Parser {
    /// The state as the recorder dumps it (with no tools).
    fn state_dump(&self) -> serde_json::Value {
        let mut tool_parser = self.tool_parser.state_dump();
        tool_parser["tools"] = serde_json::Value::Null;
        serde_json::json!({
            "toolParser": tool_parser,
            "state": self.state as i64,
            "buffer": self.buffer,
            "allowLeadingThinkOpenTag": self.allow_leading_think_open_tag,
            "trimLeadingThinkingSpace": self.trim_leading_thinking_space,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parsers::golden_support as golden;

    #[test]
    fn recorded_parser_for_name() {
        // ParserForName's value as the tests got it (its zero state).
        let files = ["qwen3_test.go", "qwen38_test.go", "qwen35_test.go"];
        for (_, t) in golden::lines("func", &files) {
            assert_eq!(t["func"], "ParserForName");
            let name = t["args"][0].as_str().unwrap_or("");
            let ret = &t["ret"][0];
            assert_eq!(ret["$type"], "Qwen35Parser", "{name}");
            assert!(matches!(name, "qwen3.5" | "ornith"), "{name}");
            assert!((constructors().by_name)(name).is_some());
            assert_eq!(ret["state"], Qwen35Parser::default().state_dump(), "{name}");
        }
    }

    fn run(
        think: Option<bool>,
        last: Option<&Message>,
        chunks: &[&str],
    ) -> (String, String, String) {
        let mut p = Qwen35Parser::default();
        p.init(&[], last, think.map(Think::Bool).as_ref());
        let mut out = (String::new(), String::new(), Vec::new());
        for (i, c) in chunks.iter().enumerate() {
            let a = p.add(c, i + 1 == chunks.len()).unwrap();
            out.0.push_str(&a.content);
            out.1.push_str(&a.thinking);
            out.2.extend(a.calls);
        }
        (out.0, out.1, super::super::tool_calls_json(&out.2))
    }

    #[test]
    fn thinking_and_tool_calls() {
        // TestQwen35ParserXMLToolCall
        let (c, t, calls) = run(
            None,
            None,
            &["Need weather lookup</think><tool_call><function=get_weather><parameter=location>\nSF\n</parameter><parameter=days>\n3\n</parameter></function></tool_call>"],
        );
        assert_eq!((c.as_str(), t.as_str()), ("", "Need weather lookup"));
        assert_eq!(
            calls,
            r#"[{"function":{"index":0,"name":"get_weather","arguments":{"location":"SF","days":"3"}}}]"#
        );
        // TestQwen35ParserThinkingWithExplicitOpeningTag
        assert_eq!(
            run(None, None, &["<think>\nLet me think...</think>Answer."]),
            ("Answer.".into(), "Let me think...".into(), "null".into())
        );
        // TestQwen35ParserAssistantPrefillStartsInContent
        let prefill = Message::new("assistant", "Prefilled");
        assert_eq!(
            run(None, Some(&prefill), &[" continuation"]),
            (" continuation".into(), String::new(), "null".into())
        );
        // TestQwen35ParserToolCallEmittedInThinkingIsParsed (no </think>)
        let (c, t, calls) = run(
            None,
            None,
            &["Thinking<tool_call><function=f><parameter=a>1</parameter></function></tool_call>"],
        );
        assert_eq!((c.as_str(), t.as_str()), ("", "Thinking"));
        assert_eq!(
            calls,
            r#"[{"function":{"index":0,"name":"f","arguments":{"a":"1"}}}]"#
        );
        // TestQwen35ParserStreamingSplitThinkCloseTag
        assert_eq!(
            run(None, None, &["Reasoning text</th", "ink>The final answer."]),
            (
                "The final answer.".into(),
                "Reasoning text".into(),
                "null".into()
            )
        );
        // TestQwen35ParserThinkingDisabledWithCloseTagTreatsAsContent
        assert_eq!(
            run(
                Some(false),
                None,
                &["</think>Some content after spurious tag."]
            ),
            (
                "</think>Some content after spurious tag.".into(),
                String::new(),
                "null".into()
            )
        );
    }
}
