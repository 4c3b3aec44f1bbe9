//! `model/parsers/cogito.go`: the Cogito parser. Thinking (only when
//! asked for, without tools and not after an assistant prefill with
//! content) runs to `</think>`; tool calls use DeepSeek's
//! `<｜tool▁calls▁begin｜>` blocks, each call
//! `function<｜tool▁sep｜>name\n```json\n{args}\n```` between
//! `<｜tool▁call▁begin｜>` and `<｜tool▁call▁end｜>`; tool outputs the
//! model echoes are dropped.

use super::gojson_decode::unmarshal_arguments;
use super::{overlap, trailing_whitespace_len, trim_left_space, trim_right_space, trim_space};
use super::{Added, Constructors, Parser};
use crate::api::{Message, Think, Tool, ToolCall};

/// `CogitoParserState` (the variants keep Go's constant names).
#[allow(clippy::enum_variant_names)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum CogitoParserState {
    /// `CogitoCollectingThinking` (the zero value).
    #[default]
    CollectingThinking,
    /// `CogitoCollectingContent`.
    CollectingContent,
    /// `CogitoCollectingToolCalls`.
    CollectingToolCalls,
    /// `CogitoCollectingToolOutput`.
    CollectingToolOutput,
}

/// `cogitoThinkingCloseTag`.
const COGITO_THINKING_CLOSE_TAG: &str = "</think>";
/// `cogitoToolCallsBeginTag`.
const COGITO_TOOL_CALLS_BEGIN_TAG: &str = "<｜tool▁calls▁begin｜>";
/// `cogitoToolCallsEndTag`.
const COGITO_TOOL_CALLS_END_TAG: &str = "<｜tool▁calls▁end｜>";
/// `cogitoToolCallBeginTag`.
const COGITO_TOOL_CALL_BEGIN_TAG: &str = "<｜tool▁call▁begin｜>";
/// `cogitoToolCallEndTag`.
const COGITO_TOOL_CALL_END_TAG: &str = "<｜tool▁call▁end｜>";
/// `cogitoToolSepTag`.
const COGITO_TOOL_SEP_TAG: &str = "<｜tool▁sep｜>";
/// `cogitoToolOutputBeginTag`.
const COGITO_TOOL_OUTPUT_BEGIN_TAG: &str = "<｜tool▁output▁begin｜>";
/// `cogitoToolOutputEndTag`.
const COGITO_TOOL_OUTPUT_END_TAG: &str = "<｜tool▁output▁end｜>";
/// `cogitoToolOutputsBeginTag`.
const COGITO_TOOL_OUTPUTS_BEGIN_TAG: &str = "<｜tool▁outputs▁begin｜>";
/// `cogitoToolOutputsEndTag`.
const COGITO_TOOL_OUTPUTS_END_TAG: &str = "<｜tool▁outputs▁end｜>";

/// `CogitoParser`.
#[derive(Clone, Debug, Default)]
pub struct CogitoParser {
    state: CogitoParserState,
    buffer: String,
    call_index: i64,
}

impl Parser for CogitoParser {
    /// `HasToolSupport`.
    fn has_tool_support(&self) -> bool {
        true
    }

    /// `HasThinkingSupport`.
    fn has_thinking_support(&self) -> bool {
        true
    }

    /// `PreservedTokens`.
    fn preserved_tokens(&self) -> Vec<String> {
        [
            COGITO_THINKING_CLOSE_TAG,
            COGITO_TOOL_CALLS_BEGIN_TAG,
            COGITO_TOOL_CALLS_END_TAG,
            COGITO_TOOL_CALL_BEGIN_TAG,
            COGITO_TOOL_CALL_END_TAG,
            COGITO_TOOL_SEP_TAG,
            COGITO_TOOL_OUTPUT_BEGIN_TAG,
            COGITO_TOOL_OUTPUT_END_TAG,
            COGITO_TOOL_OUTPUTS_BEGIN_TAG,
            COGITO_TOOL_OUTPUTS_END_TAG,
        ]
        .map(String::from)
        .to_vec()
    }

    /// `Init`.
    fn init(
        &mut self,
        tools: &[Tool],
        last_message: Option<&Message>,
        think: Option<&Think>,
    ) -> Vec<Tool> {
        self.call_index = 0;
        self.set_initial_state(last_message, tools, think);
        tools.to_vec()
    }

    /// `Add`.
    fn add(&mut self, s: &str, _done: bool) -> Result<Added, String> {
        self.buffer.push_str(s);
        let events = self.parse_events();

        let mut out = Added::default();
        for event in events {
            match event {
                CogitoEvent::ToolCall { tool_call } => out.calls.push(tool_call),
                CogitoEvent::ThinkingContent { content } => out.thinking.push_str(&content),
                CogitoEvent::Content { content } => out.content.push_str(&content),
            }
        }

        for call in &mut out.calls {
            call.function.index = self.call_index;
            self.call_index += 1;
        }

        Ok(out)
    }
}

/// `cogitoEvent`.
#[derive(Clone, Debug, PartialEq)]
enum CogitoEvent {
    /// `cogitoEventThinkingContent`.
    ThinkingContent { content: String },
    /// `cogitoEventContent`.
    Content { content: String },
    /// `cogitoEventToolCall`.
    ToolCall { tool_call: ToolCall },
}

impl CogitoParser {
    /// `setInitialState`: thinking only when `think` is true, there is no
    /// assistant prefill with content and no tools (for cogito, tools mean
    /// no thinking).
    fn set_initial_state(
        &mut self,
        last_message: Option<&Message>,
        tools: &[Tool],
        think: Option<&Think>,
    ) {
        let prefill = last_message.filter(|m| m.role == "assistant");

        // both the model's capability and the request's preference
        let thinking_enabled = think.is_some_and(Think::as_bool);

        if !thinking_enabled {
            self.state = CogitoParserState::CollectingContent;
            return;
        }

        if prefill.is_some_and(|m| !m.content.is_empty()) {
            self.state = CogitoParserState::CollectingContent;
            return;
        }

        if !tools.is_empty() {
            self.state = CogitoParserState::CollectingContent;
            return;
        }

        self.state = CogitoParserState::CollectingThinking;
    }

    /// `parseEvents`.
    fn parse_events(&mut self) -> Vec<CogitoEvent> {
        let mut all = Vec::new();
        let mut keep_looping = true;
        while keep_looping {
            let events;
            (events, keep_looping) = self.eat();
            all.extend(events);
        }
        all
    }

    /// `eat`.
    fn eat(&mut self) -> (Vec<CogitoEvent>, bool) {
        let mut events = Vec::new();
        let buf_str = self.buffer.clone();
        if buf_str.is_empty() {
            return (events, false);
        }

        match self.state {
            CogitoParserState::CollectingThinking => {
                if let Some(i) = buf_str.find(COGITO_THINKING_CLOSE_TAG) {
                    // thinking[</think>] -> content
                    let thinking = trim_right_space(&buf_str[..i]);
                    let remaining =
                        trim_left_space(&buf_str[i + COGITO_THINKING_CLOSE_TAG.len()..]);

                    self.buffer = remaining.to_string();
                    self.state = CogitoParserState::CollectingContent;

                    if !thinking.is_empty() {
                        events.push(CogitoEvent::ThinkingContent {
                            content: thinking.to_string(),
                        });
                    }
                    return (events, true);
                }
                // a partial </think>, or plain thinking (0): what precedes
                // it and its trailing white space is unambiguous (the
                // overlap is an ASCII prefix: a character boundary)
                let overlap_len = overlap(&buf_str, COGITO_THINKING_CLOSE_TAG);
                let before_partial_tag = &buf_str[..buf_str.len() - overlap_len];
                let ambiguous_start =
                    before_partial_tag.len() - trailing_whitespace_len(before_partial_tag);

                let unambiguous = &buf_str[..ambiguous_start];
                self.buffer = buf_str[ambiguous_start..].to_string();
                if !unambiguous.is_empty() {
                    events.push(CogitoEvent::ThinkingContent {
                        content: unambiguous.to_string(),
                    });
                }
                (events, false)
            }

            CogitoParserState::CollectingContent => {
                if let Some(i) = buf_str.find(COGITO_TOOL_CALLS_BEGIN_TAG) {
                    // content[<｜tool▁calls▁begin｜>] -> tool calls
                    let content_before = trim_right_space(&buf_str[..i]);
                    self.buffer = buf_str[i + COGITO_TOOL_CALLS_BEGIN_TAG.len()..].to_string();
                    self.state = CogitoParserState::CollectingToolCalls;

                    if !content_before.is_empty() {
                        events.push(CogitoEvent::Content {
                            content: content_before.to_string(),
                        });
                    }
                    (events, true)
                } else if let Some(i) = buf_str.find(COGITO_TOOL_OUTPUTS_BEGIN_TAG) {
                    // content[<｜tool▁outputs▁begin｜>] -> tool outputs
                    let content_before = trim_right_space(&buf_str[..i]);
                    self.buffer = buf_str[i + COGITO_TOOL_OUTPUTS_BEGIN_TAG.len()..].to_string();
                    self.state = CogitoParserState::CollectingToolOutput;

                    if !content_before.is_empty() {
                        events.push(CogitoEvent::Content {
                            content: content_before.to_string(),
                        });
                    }
                    (events, true)
                } else {
                    // otherwise it is content
                    self.buffer.clear();
                    events.push(CogitoEvent::Content { content: buf_str });
                    (events, false)
                }
            }

            CogitoParserState::CollectingToolCalls => {
                if let Some(idx) = buf_str.find(COGITO_TOOL_CALL_BEGIN_TAG) {
                    let start_idx = idx + COGITO_TOOL_CALL_BEGIN_TAG.len();
                    if let Some(end_idx) = buf_str[start_idx..].find(COGITO_TOOL_CALL_END_TAG) {
                        let tool_call_content = &buf_str[start_idx..start_idx + end_idx];

                        // (Go logs "cogito tool call parsing failed" when
                        // this fails, and looks for the end of the block.)
                        if let Ok(tool_call) = parse_tool_call_content(tool_call_content) {
                            let remaining = trim_left_space(
                                &buf_str[start_idx + end_idx + COGITO_TOOL_CALL_END_TAG.len()..],
                            );
                            self.buffer = remaining.to_string();
                            events.push(CogitoEvent::ToolCall { tool_call });
                            return (events, true);
                        }
                    }
                }

                if let Some(idx) = buf_str.find(COGITO_TOOL_CALLS_END_TAG) {
                    let remaining =
                        trim_left_space(&buf_str[idx + COGITO_TOOL_CALLS_END_TAG.len()..]);
                    self.buffer = remaining.to_string();
                    self.state = CogitoParserState::CollectingContent;
                    return (events, true);
                }

                (events, false)
            }

            CogitoParserState::CollectingToolOutput => {
                if let Some(idx) = buf_str.find(COGITO_TOOL_OUTPUT_BEGIN_TAG) {
                    let start_idx = idx + COGITO_TOOL_OUTPUT_BEGIN_TAG.len();
                    if let Some(end_idx) = buf_str[start_idx..].find(COGITO_TOOL_OUTPUT_END_TAG) {
                        let remaining = trim_left_space(
                            &buf_str[start_idx + end_idx + COGITO_TOOL_OUTPUT_END_TAG.len()..],
                        );
                        self.buffer = remaining.to_string();
                        return (events, true);
                    }
                }

                if let Some(idx) = buf_str.find(COGITO_TOOL_OUTPUTS_END_TAG) {
                    let remaining =
                        trim_left_space(&buf_str[idx + COGITO_TOOL_OUTPUTS_END_TAG.len()..]);
                    self.buffer = remaining.to_string();
                    self.state = CogitoParserState::CollectingContent;
                    return (events, true);
                }

                (events, false)
            }
        }
    }
}

/// `parseToolCallContent`: `function<｜tool▁sep｜>tool_name\n```json\n{args}\n````
/// (the error texts are Go's; the parser only logs them).
pub(super) fn parse_tool_call_content(content: &str) -> Result<ToolCall, String> {
    let Some((_, name_and_args)) = content.split_once(COGITO_TOOL_SEP_TAG) else {
        return Err("invalid format".to_string());
    };

    let Some(json_start) = name_and_args.find("\n```json\n") else {
        return Err("invalid format".to_string());
    };
    let tool_name = trim_space(&name_and_args[..json_start]);
    let json_content = &name_and_args[json_start + "\n```json\n".len()..];

    let Some(json_end) = json_content.find("\n```") else {
        return Err("invalid format".to_string());
    };
    let args_json = &json_content[..json_end];

    let args = unmarshal_arguments(args_json).map_err(|e| e.text())?;

    Ok(super::tool_call(tool_name, args))
}

pub(crate) fn constructors() -> Constructors {
    fn make() -> Box<dyn Parser> {
        Box::new(CogitoParser::default())
    }
    Constructors {
        by_name: |n| (n == "cogito").then(make),
        by_go_type: |t, _| (t == "CogitoParser").then(make),
    }
}

#[cfg(test)]
impl CogitoParser {
    /// Sets the fields from a recorded state dump.
    fn load_state(&mut self, v: &serde_json::Value) {
        self.state = match v["state"].as_i64() {
            Some(1) => CogitoParserState::CollectingContent,
            Some(2) => CogitoParserState::CollectingToolCalls,
            Some(3) => CogitoParserState::CollectingToolOutput,
            _ => CogitoParserState::CollectingThinking,
        };
        self.buffer = v["buffer"].as_str().unwrap_or("").to_string();
        self.call_index = v["callIndex"].as_i64().unwrap_or(0);
    }

    /// The state as the recorder dumps it.
    fn state_dump(&self) -> serde_json::Value {
        serde_json::json!({
            "state": self.state as i64,
            "buffer": self.buffer,
            "callIndex": self.call_index,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parsers::golden_support::{self as golden, call_result, err_of, ret_span};

    #[test]
    fn recorded_method_calls() {
        for (line, t) in golden::lines("parser_methods", &["cogito_test.go"]) {
            assert_eq!(t["type"], "CogitoParser");
            let mut p = CogitoParser::default();
            for (i, c) in t["calls"].as_array().into_iter().flatten().enumerate() {
                let at = format!("{} #{} call {i} {}", t["test"], t["n"], c["m"]);
                p.load_state(&c["state"]);
                match c["m"].as_str().unwrap_or("") {
                    "parseToolCallContent" => {
                        let content = c["args"][0].as_str().unwrap_or("");
                        let (call, err) = call_result(&parse_tool_call_content(content));
                        assert_eq!(call, ret_span(line, Some(i), 0), "{at}");
                        assert_eq!(err_of(&err), err_of(&c["ret"][1]), "{at}");
                    }
                    other => panic!("{at}: no replay for {other}"),
                }
                assert_eq!(c["after"], p.state_dump(), "{at}");
            }
        }
    }

    fn run(think: Option<bool>, tools: usize, chunks: &[&str]) -> (String, String, String) {
        let mut p = CogitoParser::default();
        let tools = vec![Tool::default(); tools];
        p.init(&tools, None, think.map(Think::Bool).as_ref());
        let mut out = (String::new(), String::new(), Vec::new());
        for c in chunks {
            let a = p.add(c, false).unwrap();
            out.0.push_str(&a.content);
            out.1.push_str(&a.thinking);
            out.2.extend(a.calls);
        }
        (out.0, out.1, super::super::tool_calls_json(&out.2))
    }

    #[test]
    fn streaming() {
        // TestCogitoParser / _Streaming (a few of their cases)
        assert_eq!(
            run(Some(true), 0, &["I need to think.</think>", "\nAnswer."]),
            ("\nAnswer.".into(), "I need to think.".into(), "null".into())
        );
        assert_eq!(
            run(None, 0, &["no thinking</think>x"]),
            ("no thinking</think>x".into(), String::new(), "null".into())
        );
        let call = "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{\"location\":\"Paris\",\"unit\":\"c\"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>";
        let (c, t, calls) = run(Some(true), 1, &["Let me check.", call]);
        assert_eq!((c.as_str(), t.as_str()), ("Let me check.", ""));
        assert_eq!(
            calls,
            r#"[{"function":{"index":0,"name":"get_weather","arguments":{"location":"Paris","unit":"c"}}}]"#
        );
        // a call that does not parse is dropped with its block
        let bad = "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>x\n```json\n{bad}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>after";
        assert_eq!(
            run(None, 0, &[bad]),
            ("after".into(), String::new(), "null".into())
        );
        // echoed tool outputs are dropped
        let outputs = "<｜tool▁outputs▁begin｜><｜tool▁output▁begin｜>{\"t\":1}<｜tool▁output▁end｜><｜tool▁outputs▁end｜>done";
        assert_eq!(
            run(None, 0, &[outputs]),
            ("done".into(), String::new(), "null".into())
        );
    }

    #[test]
    fn tool_call_content() {
        // TestCogitoParser_parseToolCallContent (a few of its cases)
        assert_eq!(
            parse_tool_call_content("get_weather\n```json\n{}\n```").unwrap_err(),
            "invalid format"
        );
        assert_eq!(
            parse_tool_call_content("function<｜tool▁sep｜>f\n```json\n{\"a\":\n```").unwrap_err(),
            "unexpected end of JSON input"
        );
        let c = parse_tool_call_content("function<｜tool▁sep｜> f \n```json\n null \n```").unwrap();
        assert_eq!(
            super::super::tool_call_json(&c).to_json(),
            r#"{"function":{"index":0,"name":"f","arguments":null}}"#
        );
    }
}
