//! `model/parsers/glm47.go`: `GLM47Parser`, the GLM-4.6 parser with
//! thinking-aware initialization. GLM-4.7's prompt ends with `<think>`
//! when thinking is enabled, so the parser starts collecting thinking at
//! once (the model writes no opening tag).
//!
//! Go's `GLM47Parser` embeds `GLM46Parser`; here it holds one and
//! delegates every method but `Init`.

use super::glm46::{Glm46Parser, Glm46ParserState};
use super::{Added, Config, Constructors, Parser};
use crate::api::{Message, Think, Tool};

/// `GLM47Parser` (embeds `GLM46Parser`).
#[derive(Clone, Debug, Default)]
pub struct Glm47Parser {
    /// The embedded `GLM46Parser`.
    pub(super) glm46: Glm46Parser,
}

impl Parser for Glm47Parser {
    /// `Init`: keeps the tools, restarts call numbering and, when thinking
    /// is enabled (`nil` or true), starts in `CollectingThinking`. (The
    /// state is otherwise left as it was.)
    fn init(&mut self, tools: &[Tool], _: Option<&Message>, think: Option<&Think>) -> Vec<Tool> {
        self.glm46.tools = tools.to_vec();
        self.glm46.call_index = 0;
        if think.is_none_or(Think::as_bool) {
            self.glm46.state = Glm46ParserState::CollectingThinking;
        }
        tools.to_vec()
    }

    fn add(&mut self, s: &str, done: bool) -> Result<Added, String> {
        self.glm46.add(s, done)
    }

    fn preserved_tokens(&self) -> Vec<String> {
        self.glm46.preserved_tokens()
    }

    fn set_release(&mut self, rules: &changes::Rules) {
        self.glm46.set_release(rules);
    }

    fn rows_reached(&self) -> Vec<&'static changes::Change> {
        self.glm46.rows_reached()
    }

    fn has_tool_support(&self) -> bool {
        self.glm46.has_tool_support()
    }

    fn has_thinking_support(&self) -> bool {
        self.glm46.has_thinking_support()
    }
}

pub(crate) fn constructors() -> Constructors {
    fn make() -> Box<dyn Parser> {
        Box::new(Glm47Parser::default())
    }
    Constructors {
        by_name: |n| (n == "glm-4.7").then(make),
        by_go_type: |t, _: &Config| (t == "GLM47Parser").then(make),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parsers::golden_support::go_traces;
    /// (case, what Go 1.26 gave for it), recorded with Ollama v0.33.0-rc2's
    /// own code (model/parsers built locally and driven case by case).
    const GO_TRACES: &[(&str, &str)] = &[
        (
            r#"{"type":"GLM47Parser","tools":[{"type":"function","function":{"name":"calculate","parameters":{"type":"object","properties":{"count":{"type":"integer"},"enabled":{"type":"boolean"}}}}}],"chunks":[{"s":"plan</think>Answer<tool_call>calculate<arg_key>count</arg_key><arg_value>3</arg_value><arg_key>enabled</arg_key><arg_value>true</arg_value></tool_call>","done":true}],"id":"add"}"#,
            r#"{"id":"add","steps":[{"calls":[{"function":{"index":0,"name":"calculate","arguments":{"count":3,"enabled":true}}}],"content":"Answer","err":null,"thinking":"plan"}]}"#,
        ),
        (
            r#"{"type":"GLM47Parser","chunks":[{"s":"</think>Plain answer","done":true}],"id":"no thinking content"}"#,
            r#"{"id":"no thinking content","steps":[{"calls":null,"content":"Plain answer","err":null,"thinking":""}]}"#,
        ),
        (
            r#"{"type":"GLM47Parser","think":false,"chunks":[{"s":"Plain answer","done":true}],"id":"thinking disabled"}"#,
            r#"{"id":"thinking disabled","steps":[{"calls":null,"content":"Plain answer","err":null,"thinking":""}]}"#,
        ),
        (
            r#"{"type":"GLM47Parser","think":"high","chunks":[{"s":"plan</think>ok","done":true}],"id":"thinking level"}"#,
            r#"{"id":"thinking level","steps":[{"calls":null,"content":"ok","err":null,"thinking":"plan"}]}"#,
        ),
        (
            r#"{"type":"GLM47Parser","chunks":[{"s":"plan</think>\n<tool_call>first<arg_key>a</arg_key><arg_value>1</arg_value></tool_call>\n<tool_call>second<arg_key>b</arg_key><arg_value>2</arg_value></tool_call>\n<tool_call>third<arg_key>c</arg_key><arg_value>3</arg_value></tool_call>","done":true}],"id":"tool call indexing"}"#,
            r#"{"id":"tool call indexing","steps":[{"calls":[{"function":{"index":0,"name":"first","arguments":{"a":"1"}}},{"function":{"index":1,"name":"second","arguments":{"b":"2"}}},{"function":{"index":2,"name":"third","arguments":{"c":"3"}}}],"content":"","err":null,"thinking":"plan"}]}"#,
        ),
        (
            r#"{"type":"GLM47Parser","chunks":[{"s":"plan</think><tool_call>first<arg_key>a</arg_key><arg_value>1</arg_value></tool_call><tool_call>second<arg_key>b</arg_key>","done":false},{"s":"<arg_value>2</arg_value></tool_call><tool_call>third<arg_key>c</arg_key><arg_value>3</arg_value></tool_call>","done":true}],"id":"tool call indexing streaming"}"#,
            r#"{"id":"tool call indexing streaming","steps":[{"calls":[{"function":{"index":0,"name":"first","arguments":{"a":"1"}}}],"content":"","err":null,"thinking":"plan"},{"calls":[{"function":{"index":1,"name":"second","arguments":{"b":"2"}}},{"function":{"index":2,"name":"third","arguments":{"c":"3"}}}],"content":"","err":null,"thinking":""}]}"#,
        ),
    ];

    #[test]
    fn go_traces_replayed() {
        go_traces::check(GO_TRACES, |c| panic!("no helper for {c}"));
    }

    /// `TestGLM47ParserToolCallIndexResetOnInit`.
    #[test]
    fn init_resets_the_call_index() {
        let mut p = Glm47Parser::default();
        p.init(&[], None, None);
        let first = p
            .add("plan</think><tool_call>first<arg_key>a</arg_key><arg_value>1</arg_value></tool_call>", true)
            .unwrap();
        assert_eq!(first.calls.len(), 1);
        p.init(&[], None, None);
        let got = p
            .add("plan</think><tool_call>second<arg_key>b</arg_key><arg_value>2</arg_value></tool_call>", true)
            .unwrap();
        assert_eq!(
            super::super::tool_calls_json(&got.calls),
            r#"[{"function":{"index":0,"name":"second","arguments":{"b":"2"}}}]"#
        );
    }

    #[test]
    fn capabilities() {
        let p = Glm47Parser::default();
        assert!(p.has_tool_support() && p.has_thinking_support());
        assert_eq!(p.preserved_tokens().len(), 8);
        assert!(super::super::parser_for_name("glm-4.7").is_some());
    }
}
