//! `model/parsers/glmocr.go`: `GlmOcrParser`, the GLM-4.6 parser with
//! thinking disabled.
//!
//! Go's `GlmOcrParser` embeds `GLM46Parser`; here it holds one and
//! delegates every method but `Init` and `HasThinkingSupport`.

use super::glm46::Glm46Parser;
use super::{Added, Config, Constructors, Parser};
use crate::api::{Message, Think, Tool};

/// `GlmOcrParser` (embeds `GLM46Parser`).
#[derive(Clone, Debug, Default)]
pub struct GlmOcrParser {
    /// The embedded `GLM46Parser`.
    pub(super) glm46: Glm46Parser,
}

impl Parser for GlmOcrParser {
    /// `Init`: keeps the tools only (unlike `GLM46Parser.Init`, the call
    /// index is not reset).
    fn init(&mut self, tools: &[Tool], _: Option<&Message>, _: Option<&Think>) -> Vec<Tool> {
        self.glm46.tools = tools.to_vec();
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

    /// `HasThinkingSupport`: false.
    fn has_thinking_support(&self) -> bool {
        false
    }
}

pub(crate) fn constructors() -> Constructors {
    fn make() -> Box<dyn Parser> {
        Box::new(GlmOcrParser::default())
    }
    Constructors {
        by_name: |n| (n == "glm-ocr").then(make),
        by_go_type: |t, _: &Config| (t == "GlmOcrParser").then(make),
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
            r#"{"type":"GlmOcrParser","think":true,"chunks":[{"s":"Text: ","done":false},{"s":"hello  ","done":false},{"s":"world","done":false},{"s":"","done":true}],"id":"plain text"}"#,
            r#"{"id":"plain text","steps":[{"calls":null,"content":"Text:","err":null,"thinking":""},{"calls":null,"content":" hello","err":null,"thinking":""},{"calls":null,"content":"  world","err":null,"thinking":""},{"calls":null,"content":"","err":null,"thinking":""}]}"#,
        ),
        (
            r#"{"type":"GlmOcrParser","chunks":[{"s":"<think>t</think>x","done":true}],"id":"think tags still parsed"}"#,
            r#"{"id":"think tags still parsed","steps":[{"calls":null,"content":"x","err":null,"thinking":"t"}]}"#,
        ),
    ];

    #[test]
    fn go_traces_replayed() {
        go_traces::check(GO_TRACES, |c| panic!("no helper for {c}"));
    }

    /// Unlike `GLM46Parser.Init`, `GlmOcrParser.Init` keeps counting calls.
    #[test]
    fn init_keeps_the_call_index() {
        let mut p = GlmOcrParser::default();
        p.init(&[], None, None);
        p.add("<tool_call>a</tool_call>", true).unwrap();
        p.init(&[], None, None);
        let got = p.add("<tool_call>b</tool_call>", true).unwrap();
        assert_eq!(got.calls[0].function.index, 1);
        assert!(p.has_tool_support());
        assert!(!p.has_thinking_support());
        assert!(super::super::parser_for_name("glm-ocr").is_some());
    }
}
