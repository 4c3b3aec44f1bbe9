//! Ollama's generic thinking parser (`thinking/parser.go`): for a
//! Go-template model without a built-in PARSER, the streamed text is split
//! into `thinking` and content at the tags `thinking.InferTags` finds in
//! the template ([`crate::template::Template::infer_tags`]).

use crate::parsers::{overlap, trim_left_space};

/// `thinkingState`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    /// Looking for the opening tag; only whitespace seen so far.
    LookingForOpening,
    /// Opening tag seen; eating the whitespace after it.
    ThinkingStartedEatingWhitespace,
    /// Inside the thinking text.
    Thinking,
    /// Closing tag seen; eating the whitespace after it.
    ThinkingDoneEatingWhitespace,
    /// Past the thinking: everything is content.
    ThinkingDone,
}

/// `thinking.Parser`: splits streamed text into thinking and content,
/// holding back what is still ambiguous (a partial tag).
#[derive(Clone, Debug)]
pub struct Parser {
    state: State,
    opening: String,
    closing: String,
    acc: String,
}

impl Parser {
    /// A parser for these tags.
    pub fn new(opening: impl Into<String>, closing: impl Into<String>) -> Parser {
        Parser {
            state: State::LookingForOpening,
            opening: opening.into(),
            closing: closing.into(),
            acc: String::new(),
        }
    }

    /// The state (for tests and the explanation).
    pub fn state(&self) -> State {
        self.state
    }

    /// `AddContent`: the thinking and the content that can be sent now.
    pub fn add_content(&mut self, content: &str) -> (String, String) {
        self.acc.push_str(content);
        let (mut thinking, mut remaining) = (String::new(), String::new());
        loop {
            let (t, r, more) = self.eat();
            thinking.push_str(&t);
            remaining.push_str(&r);
            if !more {
                return (thinking, remaining);
            }
        }
    }

    fn eat(&mut self) -> (String, String, bool) {
        match self.state {
            State::LookingForOpening => {
                let acc = std::mem::take(&mut self.acc);
                let trimmed = trim_left_space(&acc);
                if let Some(after) = trimmed.strip_prefix(self.opening.as_str()) {
                    let after = trim_left_space(after).to_string();
                    self.state = if after.is_empty() {
                        State::ThinkingStartedEatingWhitespace
                    } else {
                        State::Thinking
                    };
                    self.acc = after;
                    (String::new(), String::new(), true)
                } else if self.opening.starts_with(trimmed) {
                    // a partial opening tag, or only whitespace: keep accumulating
                    self.acc = acc;
                    (String::new(), String::new(), false)
                } else {
                    // content without an opening tag: thinking was skipped (the
                    // content keeps its leading whitespace)
                    self.state = State::ThinkingDone;
                    (String::new(), acc, false)
                }
            }
            State::ThinkingStartedEatingWhitespace => {
                let acc = std::mem::take(&mut self.acc);
                let trimmed = trim_left_space(&acc);
                if trimmed.is_empty() {
                    (String::new(), String::new(), false)
                } else {
                    self.state = State::Thinking;
                    self.acc = trimmed.to_string();
                    (String::new(), String::new(), true)
                }
            }
            State::Thinking => {
                let acc = std::mem::take(&mut self.acc);
                if let Some(i) = acc.find(self.closing.as_str()) {
                    let thinking = acc[..i].to_string();
                    let remaining = trim_left_space(&acc[i + self.closing.len()..]).to_string();
                    self.state = if remaining.is_empty() {
                        State::ThinkingDoneEatingWhitespace
                    } else {
                        State::ThinkingDone
                    };
                    (thinking, remaining, false)
                } else {
                    let n = overlap(&acc, &self.closing);
                    // a possible closing tag is held until it is decided
                    let cut = acc.len() - n;
                    self.acc = acc[cut..].to_string();
                    (acc[..cut].to_string(), String::new(), false)
                }
            }
            State::ThinkingDoneEatingWhitespace => {
                let acc = std::mem::take(&mut self.acc);
                let trimmed = trim_left_space(&acc).to_string();
                if !trimmed.is_empty() {
                    self.state = State::ThinkingDone;
                }
                (String::new(), trimmed, false)
            }
            State::ThinkingDone => (String::new(), std::mem::take(&mut self.acc), false),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Go's TestExtractThinking.
    #[test]
    fn extracts_thinking() {
        for (input, think, content) in [
            ("<think> internal </think> world", "internal ", "world"),
            (
                "<think>a</think><think>b</think>c",
                "a",
                "<think>b</think>c",
            ),
            ("no think", "", "no think"),
        ] {
            let mut p = Parser::new("<think>", "</think>");
            assert_eq!(
                p.add_content(input),
                (think.to_string(), content.to_string()),
                "{input}"
            );
        }
    }

    /// Go's TestThinkingStreaming, every case.
    #[test]
    fn streams() {
        use State::*;
        /// input, thinking out, content out, state after
        type Step = (&'static str, &'static str, &'static str, State);
        let cases: &[(&str, &[Step])] = &[
            (
                "content without a thinking tag",
                &[
                    ("  abc", "", "  abc", ThinkingDone),
                    ("def", "", "def", ThinkingDone),
                ],
            ),
            (
                "content before a thinking tag nerfs the thinking tag",
                &[(
                    "  abc <think>def</think> ghi",
                    "",
                    "  abc <think>def</think> ghi",
                    ThinkingDone,
                )],
            ),
            (
                "building up a thinking tag partially",
                &[
                    ("  <th", "", "", LookingForOpening),
                    ("in", "", "", LookingForOpening),
                    ("k>a", "a", "", Thinking),
                ],
            ),
            (
                "partial closing tag",
                &[
                    ("<think>abc</th", "abc", "", Thinking),
                    ("ink>def", "", "def", ThinkingDone),
                ],
            ),
            (
                "partial closing tag fakeout",
                &[
                    ("<think>abc</th", "abc", "", Thinking),
                    ("ing>def", "</thing>def", "", Thinking),
                    ("ghi</thi", "ghi", "", Thinking),
                    ("nk>jkl", "", "jkl", ThinkingDone),
                ],
            ),
            (
                "whitespace after thinking tag",
                &[("  <think>abc</think>\n\ndef", "abc", "def", ThinkingDone)],
            ),
            (
                "whitespace after thinking tag (incremental)",
                &[
                    (
                        "  <think>abc</think>",
                        "abc",
                        "",
                        ThinkingDoneEatingWhitespace,
                    ),
                    ("\n\ndef", "", "def", ThinkingDone),
                ],
            ),
            (
                "whitespace after thinking tag with content and more whitespace",
                &[
                    ("  <think>abc</think>\n\ndef ", "abc", "def ", ThinkingDone),
                    (" ghi", "", " ghi", ThinkingDone),
                ],
            ),
            (
                "token by token",
                &[
                    ("<think>", "", "", ThinkingStartedEatingWhitespace),
                    ("\n", "", "", ThinkingStartedEatingWhitespace),
                    ("</think>", "", "", ThinkingDoneEatingWhitespace),
                    ("\n\n", "", "", ThinkingDoneEatingWhitespace),
                    ("Hi", "", "Hi", ThinkingDone),
                    (" there", "", " there", ThinkingDone),
                ],
            ),
            (
                "leading thinking whitespace",
                &[
                    ("  <think>   \t ", "", "", ThinkingStartedEatingWhitespace),
                    ("  these are some ", "these are some ", "", Thinking),
                    (
                        "thoughts </think>  ",
                        "thoughts ",
                        "",
                        ThinkingDoneEatingWhitespace,
                    ),
                    ("  more content", "", "more content", ThinkingDone),
                ],
            ),
        ];
        for (desc, steps) in cases {
            let mut p = Parser::new("<think>", "</think>");
            for (i, (input, think, content, state)) in steps.iter().enumerate() {
                let got = p.add_content(input);
                assert_eq!(
                    got,
                    (think.to_string(), content.to_string()),
                    "{desc}, step {i}"
                );
                assert_eq!(p.state(), *state, "{desc}, step {i}");
            }
        }
    }

    #[test]
    fn overlap_counts_bytes_of_a_tag_prefix() {
        assert_eq!(overlap("abc</th", "</think>"), 4);
        assert_eq!(overlap("abc", "</think>"), 0);
        assert_eq!(overlap("é<", "<é>"), 1);
    }

    fn tags(src: &str) -> (String, String) {
        let t = gotmpl::Template::parse("t", src).unwrap();
        crate::template::infer_tags(t.root().unwrap())
    }

    /// `InferTags`: Go's TestInferThinkingTags.
    #[test]
    fn infers_tags() {
        let basic = "
			{{ if .Thinking}}
				/think
			{{ end }}
			{{- range $i, $_ := .Messages }}
				{{- $last := eq (len (slice $.Messages $i)) 1 -}}
				{{ if and $last .Thinking }}
					<think>{{ .Thinking }}</think>
				{{ end }}
			{{ end }}
		";
        assert_eq!(tags(basic), ("<think>".into(), "</think>".into()));
        let nested = "
			{{ if .Thinking}}
				/think
			{{ end }}
			{{- range $i, $_ := .Messages }}
				{{- range $j, $_ := .NotMessages }}
					{{- $last := eq (len (slice $.Messages $i)) 1 -}}
					{{ if and $last .Thinking }}
						<think>{{ .Thinking }}</think>
					{{ end }}
				{{ end }}
			{{ end }}
		";
        assert_eq!(tags(nested), (String::new(), String::new()));
        let spaced = "
			{{ if .Thinking}}
				/think
			{{ end }}
			{{- range $i, $_ := .Messages }}
				{{- $last := eq (len (slice $.Messages $i)) 1 -}}
				{{ if and $last .Thinking }}
					Some text before   {{ .Thinking }}    Some text after
				{{ end }}
			{{ end }}
		";
        assert_eq!(
            tags(spaced),
            ("Some text before".into(), "Some text after".into())
        );
        // recorded from Ollama's InferTags (thinking/template.go, Go 1.27):
        // Go's qwen3 test template and edge cases (else lists, non-text
        // ends, parenthesized and `$.` ranges, chains, nested ranges)
        let golden = include_str!("../tests/golden/thinking_tags.jsonl");
        for line in golden.lines() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let t = v["template"].as_str().unwrap();
            assert_eq!(
                tags(t),
                (
                    v["opening"].as_str().unwrap().to_string(),
                    v["closing"].as_str().unwrap().to_string()
                ),
                "{t}"
            );
        }
        // no Messages range, no template pipeline: nothing, and no panic
        assert_eq!(
            tags("{{ .Thinking }}{{ template \"x\" }}{{ define \"x\" }}{{ end }}"),
            (String::new(), String::new())
        );
    }
}
