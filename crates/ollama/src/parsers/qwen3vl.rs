//! `model/parsers/qwen3vl.go`: the Qwen3-VL parser (instruct and
//! thinking). Thinking (when supported and not after an assistant prefill
//! with content) runs to `</think>` or to a `<tool_call>`; tool calls are
//! JSON `api.ToolCallFunction` objects between `<tool_call>` and
//! `</tool_call>`.

use super::gojson_decode::{unmarshal_struct, FieldTy, FieldVal, GoStruct};
use super::qwen3coder::{QwenEvent, TOOL_CLOSE_TAG, TOOL_OPEN_TAG};
use super::{
    cfg_bool, overlap, split_at_tag, trailing_whitespace_len, trim_left_space, Added, Config,
    Constructors, Parser,
};
use crate::api::{Message, Think, Tool, ToolCall};

/// `qwenParserState` with this file's constants (Go shares the integer
/// type with `Qwen3CoderParser`; the constants are this file's own).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum QwenVlState {
    /// `CollectingThinkingContent` (0, the zero value: a parser used
    /// without `Init` starts here).
    #[default]
    CollectingThinkingContent,
    /// `CollectingContent`.
    CollectingContent,
    /// `CollectingToolContent`.
    CollectingToolContent,
    /// `ThinkingDoneEatingWhitespace`.
    ThinkingDoneEatingWhitespace,
    /// `ToolCallDoneEatingWhitespace`.
    ToolCallDoneEatingWhitespace,
}

/// `thinkingCloseTag`.
const THINKING_CLOSE_TAG: &str = "</think>";

/// `Qwen3VLParser`.
#[derive(Clone, Debug, Default)]
pub struct Qwen3VLParser {
    state: QwenVlState,
    buffer: String,
    tools: Vec<Tool>,
    call_index: i64,
    has_thinking_support: bool,
}

impl Parser for Qwen3VLParser {
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
        [THINKING_CLOSE_TAG, TOOL_OPEN_TAG, TOOL_CLOSE_TAG]
            .map(String::from)
            .to_vec()
    }

    /// `Init` (`think` plays no part).
    fn init(
        &mut self,
        tools: &[Tool],
        last_message: Option<&Message>,
        _: Option<&Think>,
    ) -> Vec<Tool> {
        self.tools = tools.to_vec();
        self.call_index = 0;
        self.set_initial_state(last_message);
        tools.to_vec()
    }

    /// `Add`.
    fn add(&mut self, s: &str, _done: bool) -> Result<Added, String> {
        self.buffer.push_str(s);
        let events = self.parse_events();

        let mut out = Added::default();
        for event in events {
            match event {
                QwenEvent::RawToolCall { raw } => {
                    // Go logs "qwen tool call parsing failed".
                    out.calls.push(parse_json_tool_call(&raw, &self.tools)?);
                }
                QwenEvent::ThinkingContent { content } => out.thinking.push_str(&content),
                // TODO(drifkin) in Go: interleaved content events of one
                // turn are naively appended together.
                QwenEvent::Content { content } => out.content.push_str(&content),
            }
        }

        for call in &mut out.calls {
            call.function.index = self.call_index;
            self.call_index += 1;
        }

        Ok(out)
    }
}

impl Qwen3VLParser {
    /// `setInitialState`.
    fn set_initial_state(&mut self, last_message: Option<&Message>) {
        let prefill = last_message.filter(|m| m.role == "assistant");
        if !self.has_thinking_support {
            self.state = QwenVlState::CollectingContent;
            return;
        }

        if prefill.is_some_and(|m| !m.content.is_empty()) {
            self.state = QwenVlState::CollectingContent;
            return;
        }

        self.state = QwenVlState::CollectingThinkingContent;
    }

    /// `parseEvents` (Go also logs the events at trace level).
    fn parse_events(&mut self) -> Vec<QwenEvent> {
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
        next_state: QwenVlState,
    ) -> (Vec<QwenEvent>, bool) {
        let trimmed = trim_left_space(&self.buffer).to_string();
        self.buffer.clear();
        if trimmed.is_empty() {
            return (Vec::new(), false);
        }
        self.state = next_state;
        self.buffer = trimmed;
        (Vec::new(), true)
    }

    /// The unambiguous text before a possible partial tag of
    /// `overlap_len` bytes and the white space ahead of it (0: only the
    /// trailing white space is withheld); the rest stays buffered.
    fn take_unambiguous(&mut self, overlap_len: usize) -> String {
        let acc = std::mem::take(&mut self.buffer);
        // (the overlap is an ASCII prefix: a character boundary)
        let before_partial_tag = &acc[..acc.len() - overlap_len];
        let ambiguous_start =
            before_partial_tag.len() - trailing_whitespace_len(before_partial_tag);
        self.buffer = acc[ambiguous_start..].to_string();
        acc[..ambiguous_start].to_string()
    }

    /// `eat`.
    fn eat(&mut self) -> (Vec<QwenEvent>, bool) {
        let mut events = Vec::new();

        match self.state {
            QwenVlState::CollectingContent => {
                if self.buffer.contains(TOOL_OPEN_TAG) {
                    let (before, _) = split_at_tag(&mut self.buffer, TOOL_OPEN_TAG, false);
                    if !before.is_empty() {
                        events.push(QwenEvent::Content { content: before });
                    }
                    self.state = QwenVlState::CollectingToolContent;
                    return (events, true);
                }
                let overlap_len = overlap(&self.buffer, TOOL_OPEN_TAG);
                let unambiguous = self.take_unambiguous(overlap_len);
                if !unambiguous.is_empty() {
                    events.push(QwenEvent::Content {
                        content: unambiguous,
                    });
                }
                (events, false)
            }
            QwenVlState::CollectingToolContent => {
                if let Some(i) = self.buffer.find(TOOL_CLOSE_TAG) {
                    let before = self.buffer[..i].to_string();
                    // (Go warns when the call is empty.)
                    let after = self.buffer[i + TOOL_CLOSE_TAG.len()..].to_string();
                    events.push(QwenEvent::RawToolCall { raw: before });
                    self.buffer = after;
                    self.state = QwenVlState::ToolCallDoneEatingWhitespace;
                    return (events, true);
                }
                (events, false)
            }
            QwenVlState::CollectingThinkingContent => {
                let thinking_close_idx = self.buffer.find(THINKING_CLOSE_TAG);
                let tool_open_idx = self.buffer.find(TOOL_OPEN_TAG);

                // A tool call before </think> ends the thinking for parsing
                // purposes; continue in tool-call mode.
                if let Some(t) = tool_open_idx {
                    if thinking_close_idx.is_none_or(|c| t < c) {
                        let (before, _) = split_at_tag(&mut self.buffer, TOOL_OPEN_TAG, false);
                        if !before.is_empty() {
                            events.push(QwenEvent::ThinkingContent { content: before });
                        }
                        self.state = QwenVlState::CollectingToolContent;
                        return (events, true);
                    }
                }

                if thinking_close_idx.is_some() {
                    let (thinking, remaining) =
                        split_at_tag(&mut self.buffer, THINKING_CLOSE_TAG, true);
                    if !thinking.is_empty() {
                        events.push(QwenEvent::ThinkingContent { content: thinking });
                    }
                    self.state = if remaining.is_empty() {
                        QwenVlState::ThinkingDoneEatingWhitespace
                    } else {
                        QwenVlState::CollectingContent
                    };
                    return (events, true);
                }
                let overlap_len = overlap(&self.buffer, THINKING_CLOSE_TAG)
                    .max(overlap(&self.buffer, TOOL_OPEN_TAG));
                let unambiguous = self.take_unambiguous(overlap_len);
                if !unambiguous.is_empty() {
                    events.push(QwenEvent::ThinkingContent {
                        content: unambiguous,
                    });
                }
                (events, false)
            }
            QwenVlState::ThinkingDoneEatingWhitespace => {
                self.eat_leading_whitespace_and_transition_to(QwenVlState::CollectingContent)
            }
            QwenVlState::ToolCallDoneEatingWhitespace => {
                self.eat_leading_whitespace_and_transition_to(QwenVlState::CollectingContent)
            }
        }
    }
}

/// `api.ToolCallFunction`.
const TOOL_CALL_FUNCTION: GoStruct = GoStruct {
    name: "ToolCallFunction",
    go_type: "api.ToolCallFunction",
    fields: &[
        ("index", FieldTy::Int),
        ("name", FieldTy::Str),
        ("arguments", FieldTy::Args),
    ],
};

/// `parseJSONToolCall`: `json.Unmarshal` of the raw call into an
/// `api.ToolCallFunction` (its `index` is replaced afterwards); the error
/// is Go's, unwrapped.
pub(super) fn parse_json_tool_call(raw: &str, _tools: &[Tool]) -> Result<ToolCall, String> {
    let fields = unmarshal_struct(raw, &TOOL_CALL_FUNCTION).map_err(|e| e.text())?;
    let mut fields = fields.into_iter();
    let index = fields.next().and_then(FieldVal::into_int).unwrap_or(0);
    let name = fields
        .next()
        .and_then(FieldVal::into_str)
        .unwrap_or_default();
    let arguments = fields
        .next()
        .and_then(FieldVal::into_args)
        .unwrap_or_default();

    let mut call = super::tool_call(name, arguments);
    call.function.index = index;
    Ok(call)
}

pub(crate) fn constructors() -> Constructors {
    fn make(has_thinking_support: bool) -> Box<dyn Parser> {
        Box::new(Qwen3VLParser {
            has_thinking_support,
            ..Qwen3VLParser::default()
        })
    }
    fn by_go_type(t: &str, c: &Config) -> Option<Box<dyn Parser>> {
        (t == "Qwen3VLParser").then(|| make(cfg_bool(c, "hasThinkingSupport")))
    }
    Constructors {
        by_name: |n| match n {
            "qwen3-vl-instruct" => Some(make(false)),
            "qwen3-vl-thinking" => Some(make(true)),
            _ => None,
        },
        by_go_type,
    }
}

#[cfg(test)]
impl Qwen3VLParser {
    /// Sets the fields from a recorded state dump.
    fn load_state(&mut self, v: &serde_json::Value) {
        self.state = match v["state"].as_i64() {
            Some(1) => QwenVlState::CollectingContent,
            Some(2) => QwenVlState::CollectingToolContent,
            Some(3) => QwenVlState::ThinkingDoneEatingWhitespace,
            Some(4) => QwenVlState::ToolCallDoneEatingWhitespace,
            _ => QwenVlState::CollectingThinkingContent,
        };
        self.buffer = v["buffer"].as_str().unwrap_or("").to_string();
        self.tools = super::golden_support::tools(&v["tools"]);
        self.call_index = v["callIndex"].as_i64().unwrap_or(0);
        self.has_thinking_support = v["hasThinkingSupport"].as_bool().unwrap_or(false);
    }

    /// The state as the recorder dumps it (tools compared apart).
    fn state_dump(&self) -> serde_json::Value {
        serde_json::json!({
            "state": self.state as i64,
            "buffer": self.buffer,
            "callIndex": self.call_index,
            "hasThinkingSupport": self.has_thinking_support,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::qwen3coder::golden::dump_events;
    use super::*;
    use crate::parsers::golden_support::{self as golden, call_result, err_of, ret_span, same};

    const FILES: &[&str] = &["qwen3vl_nonthinking_test.go", "qwen3vl_thinking_test.go"];

    #[test]
    fn recorded_helper_calls() {
        for (line, t) in golden::lines("func", FILES) {
            let args = t["args"].as_array().cloned().unwrap_or_default();
            let at = format!("{} {}({:?})", t["test"], t["func"], args);
            match t["func"].as_str().unwrap_or("") {
                "parseJSONToolCall" => {
                    let raw = args[0]["raw"].as_str().unwrap_or("");
                    let tools = golden::tools(&args[1]);
                    let (call, err) = call_result(&parse_json_tool_call(raw, &tools));
                    assert_eq!(call, ret_span(line, None, 0), "{at}");
                    assert_eq!(err_of(&err), err_of(&t["ret"][1]), "{at}");
                }
                other => panic!("{at}: no replay for {other}"),
            }
        }
    }

    #[test]
    fn recorded_method_calls() {
        for (line, t) in golden::lines("parser_methods", FILES) {
            assert_eq!(t["type"], "Qwen3VLParser");
            let mut p = Qwen3VLParser::default();
            for (i, c) in t["calls"].as_array().into_iter().flatten().enumerate() {
                let at = format!("{} #{} call {i} {}", t["test"], t["n"], c["m"]);
                p.load_state(&c["state"]);
                let args = c["args"].as_array().cloned().unwrap_or_default();
                match c["m"].as_str().unwrap_or("") {
                    "parseEvents" => {
                        let got = dump_events(&p.parse_events());
                        let want = ret_span(line, Some(i), 0);
                        assert!(same(&want, &got), "{at}: want {want}, got {got}");
                    }
                    "Init" => {
                        let (tools, last, think) = golden::init_args(&args);
                        let ret = p.init(&tools, last.as_ref(), think.as_ref());
                        assert_eq!(ret, golden::tools(&c["ret"][0]), "{at}");
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

    #[test]
    fn recorded_edge_cases() {
        // parseJSONToolCall of Go 1.26 (encoding/json, jsonparser's keys)
        let cases: &[(&str, &str, Option<&str>)] = &[
        ("{\"name\":\"a\",\"arguments\":{\"\\ud800ab\\udc00\":1}}", "{\"function\":{\"index\":0,\"name\":\"\",\"arguments\":{}}}", Some("Encountered an invalid escape sequence in a string")),
        ("{\"name\":\"a\",\"arguments\":{\"\\udc00\\udc00\":1}}", "{\"function\":{\"index\":0,\"name\":\"a\",\"arguments\":{\"\u{fffd}\":1}}}", None),
        ("{\"name\":\"a\",\"arguments\":{\"\\ud800\\ue000\":1}}", "{\"function\":{\"index\":0,\"name\":\"a\",\"arguments\":{\"𐐀\":1}}}", None),
        ("{\"name\":\"a\",\"arguments\":{\"\\udbff\\uffff\":1}}", "{\"function\":{\"index\":0,\"name\":\"a\",\"arguments\":{\"\u{fffd}\":1}}}", None),
        ("{\"name\":\"a\",\"arguments\":{\"\\ud800\\u0041\":1}}", "{\"function\":{\"index\":0,\"name\":\"\",\"arguments\":{}}}", Some("Encountered an invalid escape sequence in a string")),
        ("{\"name\":\"a\",\"arguments\":{\"k\":\"\\ud800\\u0041\",\"j\":\"\\udc00\"}}", "{\"function\":{\"index\":0,\"name\":\"a\",\"arguments\":{\"k\":\"\u{fffd}A\",\"j\":\"\u{fffd}\"}}}", None),
        ("{\"name\":\"a\",\"arguments\":{\"a\":1},\"arguments\":{\"b\":2}}", "{\"function\":{\"index\":0,\"name\":\"a\",\"arguments\":{\"b\":2}}}", None),
        ("{\"name\":\"a\",\"arguments\":{\"b\":1,\"a\":2,\"b\":3}}", "{\"function\":{\"index\":0,\"name\":\"a\",\"arguments\":{\"b\":3,\"a\":2}}}", None),
        ("{\"name\":5,\"name\":\"a\"}", "{\"function\":{\"index\":0,\"name\":\"\",\"arguments\":{}}}", Some("json: cannot unmarshal number into Go struct field ToolCallFunction.name of type string")),
        ("{\"argumentſ\":{\"x\":-0},\"NAME\":\"a\"}", "{\"function\":{\"index\":0,\"name\":\"a\",\"arguments\":{\"x\":-0}}}", None),
        ("[]", "{\"function\":{\"index\":0,\"name\":\"\",\"arguments\":{}}}", Some("json: cannot unmarshal array into Go value of type api.ToolCallFunction")),
        ("\"x\"", "{\"function\":{\"index\":0,\"name\":\"\",\"arguments\":{}}}", Some("json: cannot unmarshal string into Go value of type api.ToolCallFunction")),
        ("null", "{\"function\":{\"index\":0,\"name\":\"\",\"arguments\":{}}}", None),
        ("{\"name\":\"a\",\"arguments\":{\"a\":[1e400]},\"name\":3}", "{\"function\":{\"index\":0,\"name\":\"\",\"arguments\":{}}}", Some("json: cannot unmarshal number 1e400 into Go struct field ToolCallFunction.arguments of type float64")),
        ("{\"name\":3,\"arguments\":5}", "{\"function\":{\"index\":0,\"name\":\"\",\"arguments\":{}}}", Some("Value looks like object, but can't find closing '}' symbol")),
        ("{\"index\":-0,\"name\":\"a\"}", "{\"function\":{\"index\":0,\"name\":\"a\",\"arguments\":{}}}", None),
        ("{\"index\":1e2,\"name\":\"a\"}", "{\"function\":{\"index\":0,\"name\":\"\",\"arguments\":{}}}", Some("json: cannot unmarshal number 1e2 into Go struct field ToolCallFunction.index of type int")),
        ("{\"index\":9223372036854775808}", "{\"function\":{\"index\":0,\"name\":\"\",\"arguments\":{}}}", Some("json: cannot unmarshal number 9223372036854775808 into Go struct field ToolCallFunction.index of type int")),
        ("{\"index\":true}", "{\"function\":{\"index\":0,\"name\":\"\",\"arguments\":{}}}", Some("json: cannot unmarshal bool into Go struct field ToolCallFunction.index of type int")),
        ("{\"index\":\"1\"}", "{\"function\":{\"index\":0,\"name\":\"\",\"arguments\":{}}}", Some("json: cannot unmarshal string into Go struct field ToolCallFunction.index of type int")),
        ];
        for (raw, want, want_err) in cases {
            let (call, err) = call_result(&parse_json_tool_call(raw, &[]));
            assert_eq!(
                (call.as_str(), err_of(&err).as_deref()),
                (*want, *want_err),
                "{raw:?}"
            );
        }
    }

    fn events(p: &mut Qwen3VLParser, input: &str) -> Vec<QwenEvent> {
        p.buffer.push_str(input);
        p.parse_events()
    }

    fn thinking(s: &str) -> QwenEvent {
        QwenEvent::ThinkingContent {
            content: s.to_string(),
        }
    }

    fn content(s: &str) -> QwenEvent {
        QwenEvent::Content {
            content: s.to_string(),
        }
    }

    #[test]
    fn thinking_streaming() {
        // TestQwen3VLThinkingParserStreaming (a few of its cases)
        let mut p = Qwen3VLParser {
            has_thinking_support: true,
            ..Qwen3VLParser::default()
        };
        p.init(&[], None, None);
        assert_eq!(events(&mut p, "abc</think>"), [thinking("abc")]);
        let mut p = Qwen3VLParser {
            has_thinking_support: true,
            ..Qwen3VLParser::default()
        };
        p.init(&[], None, None);
        assert_eq!(events(&mut p, "abc</th"), [thinking("abc")]);
        assert_eq!(events(&mut p, "ink> \n def"), [content("def")]);
        // an assistant prefill with content starts in content
        let mut p = Qwen3VLParser {
            has_thinking_support: true,
            ..Qwen3VLParser::default()
        };
        p.init(&[], Some(&Message::new("assistant", "pre")), None);
        assert_eq!(events(&mut p, "abc</think>"), [content("abc</think>")]);
    }

    #[test]
    fn tool_calls() {
        // TestQwen3VLNonThinkingAssignsSequentialToolCallIndices
        let mut p = Qwen3VLParser::default();
        p.init(&[], None, None);
        let a = p
            .add(
                "<tool_call>{\"name\":\"first\",\"arguments\":{\"a\":\"1\"}}</tool_call>\n<tool_call>{\"name\":\"second\",\"index\":7,\"arguments\":{\"b\":\"2\"}}</tool_call>",
                true,
            )
            .unwrap();
        assert_eq!(
            super::super::tool_calls_json(&a.calls),
            r#"[{"function":{"index":0,"name":"first","arguments":{"a":"1"}}},{"function":{"index":1,"name":"second","arguments":{"b":"2"}}}]"#
        );
        let e = |raw: &str| parse_json_tool_call(raw, &[]).unwrap_err();
        assert_eq!(
            e("{\"index\":1.5}"),
            "json: cannot unmarshal number 1.5 into Go struct field ToolCallFunction.index of type int"
        );
        assert_eq!(
            e("[1]"),
            "json: cannot unmarshal array into Go value of type api.ToolCallFunction"
        );
        assert_eq!(
            e("{\"name\":\"a\",\"arguments\":{\"x\":1e400}}"),
            "json: cannot unmarshal number 1e400 into Go struct field ToolCallFunction.arguments of type float64"
        );
        let ok = parse_json_tool_call("{\"NAME\":\"x\",\"arguments\":null}", &[]).unwrap();
        assert_eq!(
            super::super::tool_call_json(&ok).to_json(),
            r#"{"function":{"index":0,"name":"x","arguments":null}}"#
        );
    }
}
