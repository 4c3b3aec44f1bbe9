//! `model/parsers/ministral.go`: Ministral's output format.
//!
//! Thinking is `[THINK]…[/THINK]`, a tool call is
//! `[TOOL_CALLS]NAME[ARGS]{json}`; the call's name must be one of the
//! request's tools and its arguments must decode, or `Add` fails.

use super::gojson_decode::unmarshal_arguments;
use super::tool_call;
use super::{
    cfg_bool, overlap, trailing_whitespace_len, trim_left_space, trim_right_space, Added, Config,
    Constructors, Parser,
};
use crate::api::{Message, Think, Tool};

/// `ministralParserState`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[allow(clippy::enum_variant_names)] // Go's names
enum MinistralParserState {
    /// `ministralCollectingContent`
    #[default]
    CollectingContent,
    /// `ministralCollectingThinkingContent`
    CollectingThinkingContent,
    /// `ministralCollectingToolName`
    CollectingToolName,
    /// `ministralCollectingToolArgs`
    CollectingToolArgs,
}

/// `ministralEvent`: an event emitted during parsing.
#[derive(Clone, Debug, PartialEq, Eq)]
enum MinistralEvent {
    /// `ministralEventContent`
    Content(String),
    /// `ministralEventThinking`
    Thinking(String),
    /// `ministralEventToolCall`: the name and the raw JSON arguments.
    ToolCall { name: String, args: String },
}

/// `MinistralParser`.
#[derive(Clone, Debug, Default)]
pub struct MinistralParser {
    state: MinistralParserState,
    buffer: String,
    tools: Vec<Tool>,
    call_index: i64,
    has_thinking_support: bool,
    /// Stores the tool name while collecting args.
    pending_tool_name: String,
}

impl MinistralParser {
    /// `&MinistralParser{hasThinkingSupport: …}`.
    pub fn new(has_thinking_support: bool) -> MinistralParser {
        MinistralParser {
            has_thinking_support,
            ..MinistralParser::default()
        }
    }

    /// `setInitialState`.
    fn set_initial_state(&mut self, last_message: Option<&Message>) {
        let prefill = last_message.is_some_and(|m| m.role == "assistant");
        if !self.has_thinking_support() {
            self.state = MinistralParserState::CollectingContent;
            return;
        }

        if prefill && last_message.is_some_and(|m| !m.content.is_empty()) {
            self.state = MinistralParserState::CollectingContent;
            return;
        }

        self.state = MinistralParserState::CollectingThinkingContent;
    }
}

impl Parser for MinistralParser {
    /// `Init`.
    fn init(
        &mut self,
        tools: &[Tool],
        last_message: Option<&Message>,
        _think: Option<&Think>,
    ) -> Vec<Tool> {
        self.tools = tools.to_vec();
        self.call_index = 0;
        self.set_initial_state(last_message);
        tools.to_vec()
    }

    /// `Add`. An unknown tool or arguments that do not decode are an error
    /// (Go returns the content so far with it, which its callers drop).
    fn add(&mut self, s: &str, _done: bool) -> Result<Added, String> {
        self.buffer.push_str(s);

        let events = self.parse_events();

        let mut content = String::new();
        let mut thinking = String::new();
        let mut tool_calls = Vec::new();

        for event in events {
            match event {
                MinistralEvent::Content(c) => content.push_str(&c),
                MinistralEvent::Thinking(t) => thinking.push_str(&t),
                MinistralEvent::ToolCall { name, args } => {
                    // Validate tool exists
                    let tool = tool_by_name(&self.tools, &name)?;
                    // Parse JSON arguments
                    let args = unmarshal_arguments(&args).map_err(|e| e.text())?;
                    tool_calls.push(tool_call(&tool.function.name, args));
                }
            }
        }

        for c in &mut tool_calls {
            c.function.index = self.call_index;
            self.call_index += 1;
        }

        Ok(Added {
            content,
            thinking,
            calls: tool_calls,
        })
    }

    /// `PreservedTokens`.
    fn preserved_tokens(&self) -> Vec<String> {
        [
            MINISTRAL_TOOL_CALLS_TAG,
            MINISTRAL_THINK_TAG,
            MINISTRAL_THINK_END_TAG,
            MINISTRAL_ARGS_TAG,
        ]
        .iter()
        .map(|s| s.to_string())
        .collect()
    }

    /// `HasToolSupport`.
    fn has_tool_support(&self) -> bool {
        true
    }

    /// `HasThinkingSupport`.
    fn has_thinking_support(&self) -> bool {
        self.has_thinking_support
    }
}

/// `toolByName`.
fn tool_by_name<'a>(tools: &'a [Tool], n: &str) -> Result<&'a Tool, String> {
    tools
        .iter()
        .find(|t| t.function.name == n)
        .ok_or_else(|| format!("tool '{n}' not found"))
}

/// `ministralToolCallsTag`
const MINISTRAL_TOOL_CALLS_TAG: &str = "[TOOL_CALLS]";
/// `ministralThinkTag`
const MINISTRAL_THINK_TAG: &str = "[THINK]";
/// `ministralThinkEndTag`
const MINISTRAL_THINK_END_TAG: &str = "[/THINK]";
/// `ministralArgsTag`
const MINISTRAL_ARGS_TAG: &str = "[ARGS]";

impl MinistralParser {
    /// `eat`: consumes the parser's buffer, and returns a list of any
    /// unambiguous events from the current parser state. The second return
    /// value indicates whether to keep looping (true when state
    /// transitions, false when waiting for more data).
    fn eat(&mut self) -> (Vec<MinistralEvent>, bool) {
        let mut events = Vec::new();
        let buf = self.buffer.clone();

        match self.state {
            MinistralParserState::CollectingContent => {
                // Check for [TOOL_CALLS] tag
                if let Some(idx) = buf.find(MINISTRAL_TOOL_CALLS_TAG) {
                    let before = trim_right_space(&buf[..idx]);
                    if !before.is_empty() {
                        events.push(MinistralEvent::Content(before.to_string()));
                    }
                    self.buffer = buf[idx + MINISTRAL_TOOL_CALLS_TAG.len()..].to_string();
                    self.state = MinistralParserState::CollectingToolName;
                    return (events, true);
                }

                // Check for [THINK] tag
                if let Some(idx) = buf.find(MINISTRAL_THINK_TAG) {
                    let before = trim_right_space(&buf[..idx]);
                    if !before.is_empty() {
                        events.push(MinistralEvent::Content(before.to_string()));
                    }
                    self.buffer = buf[idx + MINISTRAL_THINK_TAG.len()..].to_string();
                    self.state = MinistralParserState::CollectingThinkingContent;
                    return (events, true);
                }

                // Check for partial tag overlap with [TOOL_CALLS] or
                // [THINK]; without one, withhold trailing whitespace.
                let max_overlap =
                    overlap(&buf, MINISTRAL_TOOL_CALLS_TAG).max(overlap(&buf, MINISTRAL_THINK_TAG));
                let before_partial_tag = &buf[..buf.len() - max_overlap];
                let trailing_ws = trailing_whitespace_len(before_partial_tag);
                let ambiguous_start = before_partial_tag.len() - trailing_ws;
                let unambiguous = &buf[..ambiguous_start];
                self.buffer = buf[ambiguous_start..].to_string();
                if !unambiguous.is_empty() {
                    events.push(MinistralEvent::Content(unambiguous.to_string()));
                }
                (events, false)
            }

            MinistralParserState::CollectingThinkingContent => {
                if let Some(idx) = buf.find(MINISTRAL_THINK_END_TAG) {
                    let thinking_content = &buf[..idx];
                    let after = trim_left_space(&buf[idx + MINISTRAL_THINK_END_TAG.len()..]);
                    self.buffer = after.to_string();
                    if !thinking_content.is_empty() {
                        events.push(MinistralEvent::Thinking(thinking_content.to_string()));
                    }
                    self.state = MinistralParserState::CollectingContent;
                    return (events, true);
                }

                // Check for partial overlap with [/THINK]; without one,
                // emit all thinking content.
                let overlap_len = overlap(&buf, MINISTRAL_THINK_END_TAG);
                let unambiguous = &buf[..buf.len() - overlap_len];
                self.buffer = buf[buf.len() - overlap_len..].to_string();
                if !unambiguous.is_empty() {
                    events.push(MinistralEvent::Thinking(unambiguous.to_string()));
                }
                (events, false)
            }

            MinistralParserState::CollectingToolName => {
                if let Some(idx) = buf.find(MINISTRAL_ARGS_TAG) {
                    self.pending_tool_name = buf[..idx].to_string();
                    self.buffer = buf[idx + MINISTRAL_ARGS_TAG.len()..].to_string();
                    self.state = MinistralParserState::CollectingToolArgs;
                    return (events, true);
                }
                // Wait for more data
                (events, false)
            }

            MinistralParserState::CollectingToolArgs => {
                if let Some(json_end) = find_json_end(&buf) {
                    let json_str = &buf[..=json_end];
                    let remaining = &buf[json_end + 1..];

                    events.push(MinistralEvent::ToolCall {
                        name: std::mem::take(&mut self.pending_tool_name),
                        args: json_str.to_string(),
                    });

                    self.buffer = remaining.to_string();
                    self.state = MinistralParserState::CollectingContent;
                    return (events, true);
                }
                // Wait for more data
                (events, false)
            }
        }
    }

    /// `parseEvents`: loops calling `eat()` until it returns false.
    fn parse_events(&mut self) -> Vec<MinistralEvent> {
        let mut all = Vec::new();
        let mut keep_looping = true;
        while keep_looping {
            let (events, keep) = self.eat();
            keep_looping = keep;
            all.extend(events);
        }
        all
    }
}

/// `findJSONEnd`: the index of the closing brace that completes a JSON
/// object. It properly handles nested objects, arrays, and strings
/// (including escaped characters). `None` (Go's -1) if the JSON is not yet
/// complete.
fn find_json_end(s: &str) -> Option<usize> {
    let mut depth: i64 = 0;
    let mut in_string = false;
    let mut escaped = false;

    for (i, r) in s.char_indices() {
        if in_string {
            if escaped {
                // If the previous character was a backslash, skip this
                // character
                escaped = false;
            } else if r == '\\' {
                // Mark the next character as escaped
                escaped = true;
            } else if r == '"' {
                // End of string literal
                in_string = false;
            }
            continue;
        }

        match r {
            // Start of string literal
            '"' => in_string = true,
            // Increase nesting level for objects and arrays
            '{' | '[' => depth += 1,
            // Decrease nesting level
            '}' | ']' => {
                depth -= 1;
                if depth == 0 {
                    // Reached the end of the root JSON structure
                    return Some(i);
                }
            }
            _ => {}
        }
    }

    None
}

pub(crate) fn constructors() -> Constructors {
    fn by_name(name: &str) -> Option<Box<dyn Parser>> {
        (name == "ministral").then(|| Box::new(MinistralParser::new(false)) as Box<dyn Parser>)
    }
    fn by_go_type(ty: &str, config: &Config) -> Option<Box<dyn Parser>> {
        (ty == "MinistralParser").then(|| {
            Box::new(MinistralParser::new(cfg_bool(config, "hasThinkingSupport")))
                as Box<dyn Parser>
        })
    }
    Constructors {
        by_name,
        by_go_type,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::ToolFunction;
    use crate::parsers::tool_calls_json;

    fn tools(names: &[&str]) -> Vec<Tool> {
        names
            .iter()
            .map(|n| Tool {
                function: ToolFunction {
                    name: n.to_string(),
                    ..ToolFunction::default()
                },
                ..Tool::default()
            })
            .collect()
    }

    fn c(s: &str) -> MinistralEvent {
        MinistralEvent::Content(s.to_string())
    }
    fn h(s: &str) -> MinistralEvent {
        MinistralEvent::Thinking(s.to_string())
    }
    fn t(name: &str, args: &str) -> MinistralEvent {
        MinistralEvent::ToolCall {
            name: name.to_string(),
            args: args.to_string(),
        }
    }

    // TestMinistralParserStreaming: the events of each step.
    #[test]
    #[allow(clippy::type_complexity)]
    fn ministral_parser_streaming() {
        let cases: Vec<(&str, bool, Vec<&str>, Vec<(&str, Vec<MinistralEvent>)>)> = vec![
            ("simple content", false, vec![], vec![("Hello, how can I help you?", vec![c("Hello, how can I help you?")])]),
            ("streaming content word by word", false, vec![], vec![("Hello,", vec![c("Hello,")]), (" how", vec![c(" how")]), (" can I help?", vec![c(" can I help?")])]),
            ("simple tool call", false, vec!["get_weather"], vec![("[TOOL_CALLS]get_weather[ARGS]{\"location\": \"San Francisco\"}", vec![t("get_weather", "{\"location\": \"San Francisco\"}")])]),
            ("tool call with nested object", false, vec!["create_entities"], vec![("[TOOL_CALLS]create_entities[ARGS]{\"entities\": [{\"entityType\": \"Person\", \"name\": \"Jack\", \"observations\": [\"Works as a baker\"]}]}", vec![t("create_entities", "{\"entities\": [{\"entityType\": \"Person\", \"name\": \"Jack\", \"observations\": [\"Works as a baker\"]}]}")])]),
            ("tool call with deeply nested objects", false, vec!["update_config"], vec![("[TOOL_CALLS]update_config[ARGS]{\"settings\": {\"user\": {\"profile\": {\"name\": \"John\", \"age\": 30}}, \"theme\": \"dark\"}}", vec![t("update_config", "{\"settings\": {\"user\": {\"profile\": {\"name\": \"John\", \"age\": 30}}, \"theme\": \"dark\"}}")])]),
            ("tool call with array of objects", false, vec!["process_items"], vec![("[TOOL_CALLS]process_items[ARGS]{\"items\": [{\"id\": 1}, {\"id\": 2}, {\"id\": 3}]}", vec![t("process_items", "{\"items\": [{\"id\": 1}, {\"id\": 2}, {\"id\": 3}]}")])]),
            ("tool call with escaped quotes in string", false, vec!["search"], vec![("[TOOL_CALLS]search[ARGS]{\"query\": \"say \\\"hello\\\"\"}", vec![t("search", "{\"query\": \"say \\\"hello\\\"\"}")])]),
            ("tool call with braces inside string", false, vec!["format"], vec![("[TOOL_CALLS]format[ARGS]{\"template\": \"Hello {name}!\"}", vec![t("format", "{\"template\": \"Hello {name}!\"}")])]),
            ("empty JSON object", false, vec!["no_args"], vec![("[TOOL_CALLS]no_args[ARGS]{}", vec![t("no_args", "{}")])]),
            ("JSON with newlines in string", false, vec!["write"], vec![("[TOOL_CALLS]write[ARGS]{\"content\": \"line1\\nline2\\nline3\"}", vec![t("write", "{\"content\": \"line1\\nline2\\nline3\"}")])]),
            ("backslash in string value", false, vec!["path"], vec![("[TOOL_CALLS]path[ARGS]{\"dir\": \"C:\\\\Users\\\\test\"}", vec![t("path", "{\"dir\": \"C:\\\\Users\\\\test\"}")])]),
            ("content after tool call", false, vec!["test"], vec![("[TOOL_CALLS]test[ARGS]{\"a\": 1}some content after", vec![t("test", "{\"a\": 1}"), c("some content after")])]),
            ("multiple tool calls in sequence", false, vec!["get_weather", "get_time"], vec![("[TOOL_CALLS]get_weather[ARGS]{\"location\": \"NYC\"}[TOOL_CALLS]get_time[ARGS]{\"timezone\": \"EST\"}", vec![t("get_weather", "{\"location\": \"NYC\"}"), t("get_time", "{\"timezone\": \"EST\"}")])]),
            ("multiple tool calls streamed separately", false, vec!["tool_a", "tool_b"], vec![("[TOOL_CALLS]tool_a[ARGS]{\"x\": 1}", vec![t("tool_a", "{\"x\": 1}")]), ("[TOOL_CALLS]tool_b[ARGS]{\"y\": 2}", vec![t("tool_b", "{\"y\": 2}")])]),
            ("streaming tool call with nested objects", false, vec!["create_entities"], vec![("[TOOL_CALLS]create_entities[ARGS]", vec![]), ("{\"entities\": [{\"entityType\": \"Person\",", vec![]), (" \"name\": \"Jack\",", vec![]), (" \"observations\": [\"Works", vec![]), (" as a baker\"]}", vec![]), ("]}", vec![t("create_entities", "{\"entities\": [{\"entityType\": \"Person\", \"name\": \"Jack\", \"observations\": [\"Works as a baker\"]}]}")])]),
            ("streaming with incomplete JSON waits for completion", false, vec!["test"], vec![("[TOOL_CALLS]test[ARGS]{", vec![]), ("\"a\": {", vec![]), ("\"b\": 1", vec![]), ("}", vec![]), ("}", vec![t("test", "{\"a\": {\"b\": 1}}")])]),
            ("partial tool tag fakeout", false, vec![], vec![("abc[TOOL", vec![c("abc")]), (" not a tag", vec![c("[TOOL not a tag")])]),
            ("tool call tag split across chunks", false, vec!["test"], vec![("[TOOL_", vec![]), ("CALLS]test[ARGS]{}", vec![t("test", "{}")])]),
            ("content before tool call", false, vec!["get_weather"], vec![("hello [TOOL_CALLS]get_weather[ARGS]{}", vec![c("hello"), t("get_weather", "{}")])]),
            ("whitespace between content and tool call is trimmed", false, vec!["test"], vec![("content \n [TOOL_CALLS]test[ARGS]{}", vec![c("content"), t("test", "{}")])]),
            ("tabs and newlines before tool call are trimmed", false, vec!["test"], vec![("content\t\n\t[TOOL_CALLS]test[ARGS]{}", vec![c("content"), t("test", "{}")])]),
            ("non-breaking space before tool call is trimmed", false, vec!["test"], vec![("content [TOOL_CALLS]test[ARGS]{}", vec![c("content"), t("test", "{}")])]),
            ("whitespace before THINK tag is trimmed", false, vec![], vec![("content \n [THINK]thinking[/THINK]after", vec![c("content"), h("thinking"), c("after")])]),
            ("trailing whitespace withheld then emitted", false, vec![], vec![("Hello ", vec![c("Hello")]), ("world", vec![c(" world")])]),
            ("trailing newline withheld then emitted", false, vec![], vec![("Hello\n", vec![c("Hello")]), ("world", vec![c("\nworld")])]),
            ("thinking content", true, vec![], vec![("thinking here[/THINK]", vec![h("thinking here")]), ("content after", vec![c("content after")])]),
            ("thinking with whitespace after end tag", true, vec![], vec![("my thoughts[/THINK]  \n  response", vec![h("my thoughts"), c("response")])]),
            ("non-breaking space after think end tag is trimmed", true, vec![], vec![("thinking[/THINK] response", vec![h("thinking"), c("response")])]),
            ("partial think end tag", true, vec![], vec![("thinking[/THI", vec![h("thinking")]), ("NK]after", vec![c("after")])]),
            ("think tag fakeout", true, vec![], vec![("thinking[/THI", vec![h("thinking")]), ("not end tag", vec![h("[/THInot end tag")])]),
            ("thinking then tool call", true, vec!["test"], vec![("let me think[/THINK][TOOL_CALLS]test[ARGS]{}", vec![h("let me think"), t("test", "{}")])]),
            ("content then think tag", false, vec![], vec![("content[THINK]thinking[/THINK]more", vec![c("content"), h("thinking"), c("more")])]),
            ("unicode content", false, vec![], vec![("你好 🌍 مرحبا", vec![c("你好 🌍 مرحبا")])]),
            ("unicode in tool args", false, vec!["greet"], vec![("[TOOL_CALLS]greet[ARGS]{\"message\": \"你好 🌍\"}", vec![t("greet", "{\"message\": \"你好 🌍\"}")])]),
        ];
        for (desc, think, names, steps) in cases {
            let mut p = MinistralParser::new(think);
            p.init(&tools(&names), None, None);
            for (i, (input, want)) in steps.into_iter().enumerate() {
                p.buffer.push_str(input);
                assert_eq!(p.parse_events(), want, "{desc}: step {i}: {input:?}");
            }
        }
    }

    // TestMinistralParserAssignsSequentialToolCallIndices
    #[test]
    fn ministral_sequential_tool_call_indices() {
        let mut p = MinistralParser::default();
        p.init(&tools(&["get_weather", "get_time"]), None, None);
        let a = p
            .add(
                r#"[TOOL_CALLS]get_weather[ARGS]{"location":"NYC"}[TOOL_CALLS]get_time[ARGS]{"timezone":"EST"}"#,
                true,
            )
            .unwrap();
        assert_eq!((a.content.as_str(), a.thinking.as_str()), ("", ""));
        assert_eq!(
            tool_calls_json(&a.calls),
            r#"[{"function":{"index":0,"name":"get_weather","arguments":{"location":"NYC"}}},{"function":{"index":1,"name":"get_time","arguments":{"timezone":"EST"}}}]"#
        );
    }

    // TestMinistralParser_Errors, with Go's error texts.
    #[test]
    fn ministral_errors() {
        let add = |known: &str, s: &str| {
            let mut p = MinistralParser::default();
            p.init(&tools(&[known]), None, None);
            p.add(s, true)
        };
        assert_eq!(
            add("known_tool", r#"[TOOL_CALLS]unknown_tool[ARGS]{"a": 1}"#),
            Err("tool 'unknown_tool' not found".to_string())
        );
        assert_eq!(
            add("test", "[TOOL_CALLS]test[ARGS]{invalid json}"),
            Err("invalid character 'i' looking for beginning of object key string".to_string())
        );
        assert_eq!(
            add("test", "[TOOL_CALLS]test[ARGS][1]"),
            Err(crate::parsers::gojson_decode::MALFORMED_OBJECT.to_string())
        );
        assert_eq!(
            add(
                "test",
                r#"[TOOL_CALLS]test[ARGS]{"a":{"b":[1,-1E+400]},"c":1e999}"#
            ),
            Err("json: cannot unmarshal number -1E+400 into Go value of type float64".to_string())
        );
        // A failed call leaves the index where it was.
        let mut p = MinistralParser::default();
        p.init(&tools(&["a"]), None, None);
        assert!(p.add("[TOOL_CALLS]b[ARGS]{}", false).is_err());
        let a = p.add("[TOOL_CALLS]a[ARGS]{\"x\":null}", true).unwrap();
        assert_eq!(
            tool_calls_json(&a.calls),
            r#"[{"function":{"index":0,"name":"a","arguments":{"x":null}}}]"#
        );
    }

    // TestFindJSONEnd
    #[test]
    fn find_json_end_table() {
        let cases: [(&str, i64); 18] = [
            (r#"{"a": 1}"#, 7),
            (r#"{"a": {"b": 2}}"#, 14),
            (r#"{"items": [1, 2, 3]}"#, 19),
            (r#"{"template": "Hello {name}!"}"#, 28),
            (r#"{"msg": "say \"hi\""}"#, 20),
            (r#"{"a": {"b": 1}"#, -1),
            (r#"{"a": {"b": {"c": {"d": 1}}}}"#, 28),
            (r#"{"a": 1} extra"#, 7),
            (r#"[{"a": 1}, {"b": 2}]"#, 19),
            (r#"{"path": "C:\\"}"#, 15),
            ("", -1),
            ("hello world", -1),
            ("{", -1),
            (r#"{"key": "unclosed"#, -1),
            (r#"{"path": "C:\\\\"}"#, 17),
            (r#"{"키": "값"}"#, 13),
            (r#"{"matrix": [[1, 2], [3, 4]]}"#, 27),
            (r#"{"a": [{"b": {"c": [1, 2, 3]}}]}"#, 31),
        ];
        for (input, want) in cases {
            assert_eq!(
                find_json_end(input).map_or(-1, |i| i as i64),
                want,
                "{input:?}"
            );
        }
    }

    // TestMinistralParser_HasToolSupport, _HasThinkingSupport
    #[test]
    fn ministral_support() {
        assert!(MinistralParser::default().has_tool_support());
        assert!(!MinistralParser::new(false).has_thinking_support());
        assert!(MinistralParser::new(true).has_thinking_support());
        let p = crate::parsers::parser_for_name("ministral").unwrap();
        assert!(!p.has_thinking_support());
        assert_eq!(
            p.preserved_tokens(),
            ["[TOOL_CALLS]", "[THINK]", "[/THINK]", "[ARGS]"]
        );
    }
}

/// Ollama's `ministral_test.go` calls of unexported code, recorded
/// (`tests/golden/parsers-tests.jsonl`) and replayed: `findJSONEnd` (`func` lines) and
/// `parseEvents` on a parser whose buffer the test writes by hand
/// (`parser_methods` lines, with the parser's state before and after each
/// call).
#[cfg(test)]
mod golden {
    use super::*;
    use crate::parsers::golden_support;
    use serde_json::{json, Value as Json};

    fn lines(kind: &str) -> Vec<(&'static str, &'static Json)> {
        golden_support::lines(kind, &["ministral_test.go"])
    }

    #[test]
    fn find_json_end_replayed() {
        let lines = lines("func");
        for (line, t) in &lines {
            assert_eq!(t["func"], "findJSONEnd", "{line}");
            let got = find_json_end(t["args"][0].as_str().unwrap_or("")).map_or(-1, |i| i as i64);
            assert_eq!(json!([got]), t["ret"], "{line}");
        }
        assert!(!lines.is_empty());
    }

    fn state_number(s: MinistralParserState) -> i64 {
        match s {
            MinistralParserState::CollectingContent => 0,
            MinistralParserState::CollectingThinkingContent => 1,
            MinistralParserState::CollectingToolName => 2,
            MinistralParserState::CollectingToolArgs => 3,
        }
    }

    /// The recorded state's fields this port has (tools by name).
    fn state_of(p: &MinistralParser) -> Json {
        json!({
            "state": state_number(p.state),
            "buffer": p.buffer,
            "tools": p.tools.iter().map(|t| t.function.name.clone()).collect::<Vec<_>>(),
            "callIndex": p.call_index,
            "hasThinkingSupport": p.has_thinking_support,
            "pendingToolName": p.pending_tool_name,
        })
    }

    fn recorded_state(s: &Json) -> Json {
        let names: Vec<String> = s["tools"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|t| t["function"]["name"].as_str().unwrap_or("").to_string())
            .collect();
        json!({
            "state": s["state"],
            "buffer": s["buffer"],
            "tools": names,
            "callIndex": s["callIndex"],
            "hasThinkingSupport": s["hasThinkingSupport"],
            "pendingToolName": s["pendingToolName"],
        })
    }

    fn event_json(e: &MinistralEvent) -> Json {
        match e {
            MinistralEvent::Content(c) => {
                json!({"$type": "ministralEventContent", "value": {"content": c}})
            }
            MinistralEvent::Thinking(t) => {
                json!({"$type": "ministralEventThinking", "value": {"thinking": t}})
            }
            MinistralEvent::ToolCall { name, args } => {
                json!({"$type": "ministralEventToolCall", "value": {"name": name, "args": args}})
            }
        }
    }

    #[test]
    fn parse_events_replayed() {
        let lines = lines("parser_methods");
        for (line, t) in &lines {
            let mut p = MinistralParser::new(t["state"]["hasThinkingSupport"] == true);
            for c in t["calls"].as_array().into_iter().flatten() {
                // The test writes the buffer by hand between calls.
                p.buffer = c["state"]["buffer"].as_str().unwrap_or("").to_string();
                assert_eq!(state_of(&p), recorded_state(&c["state"]), "{line}");
                let ret = match c["m"].as_str().unwrap_or("") {
                    "Init" => {
                        let tools = golden_support::tools(&c["args"][0]);
                        let ret = p.init(&tools, None, None);
                        json!([ret
                            .iter()
                            .map(|t| t.function.name.clone())
                            .collect::<Vec<_>>()])
                    }
                    "parseEvents" => {
                        let events = p.parse_events();
                        json!([if events.is_empty() {
                            Json::Null
                        } else {
                            events.iter().map(event_json).collect()
                        }])
                    }
                    other => panic!("no replay for {other}: {line}"),
                };
                let want = if c["m"] == "Init" {
                    json!([recorded_state(&json!({"tools": c["ret"][0]}))["tools"]])
                } else {
                    c["ret"].clone()
                };
                assert_eq!(ret, want, "{line}");
                assert_eq!(state_of(&p), recorded_state(&c["after"]), "{line}");
            }
        }
        assert!(!lines.is_empty());
    }
}
