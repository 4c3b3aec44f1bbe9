//! `model/parsers/olmo3_think.go`: the OLMo 3 thinking parser. The prompt
//! opens `<think>`, so output is thinking up to `</think>`, then content.

use super::{
    overlap, trailing_whitespace_len, trim_left_space, trim_right_space, Added, Config,
    Constructors, Parser,
};
use crate::api::{Message, Think, Tool};

/// `olmo3ThinkParserState`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Olmo3ThinkParserState {
    /// `olmo3CollectingThink`
    #[default]
    CollectingThink,
    /// `olmo3CollectingContent`
    CollectingContent,
}

/// `olmo3ThinkCloseTag`
const OLMO3_THINK_CLOSE_TAG: &str = "</think>";

/// `Olmo3ThinkParser`.
#[derive(Clone, Debug, Default)]
pub struct Olmo3ThinkParser {
    state: Olmo3ThinkParserState,
    buffer: String,
}

/// `olmo3Event`.
#[derive(Clone, Debug, PartialEq)]
enum Olmo3Event {
    /// `olmo3EventThinkContent`
    ThinkContent(String),
    /// `olmo3EventContent`
    Content(String),
}

impl Olmo3ThinkParser {
    /// `setInitialState`.
    fn set_initial_state(&mut self, last_message: Option<&Message>) {
        let prefill = last_message.is_some_and(|m| m.role == "assistant");

        // If prefilling with content, skip to content collection
        if prefill && last_message.is_some_and(|m| !m.content.is_empty()) {
            self.state = Olmo3ThinkParserState::CollectingContent;
            return;
        }

        // Model always thinks first (the <think> tag is injected in the prompt)
        self.state = Olmo3ThinkParserState::CollectingThink;
    }

    /// `parseEvents`.
    fn parse_events(&mut self) -> Vec<Olmo3Event> {
        let mut all = Vec::new();
        let mut keep_looping = true;
        while keep_looping {
            let events;
            (events, keep_looping) = self.eat();
            all.extend(events);
        }
        // Go logs the events at trace level here.
        all
    }

    /// `eat`.
    fn eat(&mut self) -> (Vec<Olmo3Event>, bool) {
        let mut events = Vec::new();
        let buf_str = self.buffer.clone();
        if buf_str.is_empty() {
            return (events, false);
        }

        match self.state {
            Olmo3ThinkParserState::CollectingThink => {
                if let Some(i) = buf_str.find(OLMO3_THINK_CLOSE_TAG) {
                    // Found complete </think> tag
                    let thinking = trim_right_space(&buf_str[..i]);
                    let remaining = trim_left_space(&buf_str[i + OLMO3_THINK_CLOSE_TAG.len()..]);

                    self.buffer = remaining.to_string();
                    self.state = Olmo3ThinkParserState::CollectingContent;

                    if !thinking.is_empty() {
                        events.push(Olmo3Event::ThinkContent(thinking.to_string()));
                    }
                    return (events, true);
                }
                let overlap_len = overlap(&buf_str, OLMO3_THINK_CLOSE_TAG);
                // Partial </think> tag - withhold ambiguous content (and the
                // white space before it); without one, withhold trailing
                // white space in case </think> follows. The cuts are at
                // char boundaries (an ASCII tag's prefix, white space).
                let before_partial_tag = &buf_str[..buf_str.len() - overlap_len];
                let trailing_len = trailing_whitespace_len(before_partial_tag);
                let ambiguous_start = before_partial_tag.len() - trailing_len;

                let unambiguous = &buf_str[..ambiguous_start];
                self.buffer = buf_str[ambiguous_start..].to_string();
                if !unambiguous.is_empty() {
                    events.push(Olmo3Event::ThinkContent(unambiguous.to_string()));
                }
                (events, false)
            }
            Olmo3ThinkParserState::CollectingContent => {
                // Emit all content directly
                self.buffer.clear();
                events.push(Olmo3Event::Content(buf_str));
                (events, false)
            }
        }
    }
}

impl Parser for Olmo3ThinkParser {
    fn init(
        &mut self,
        tools: &[Tool],
        last_message: Option<&Message>,
        _: Option<&Think>,
    ) -> Vec<Tool> {
        self.set_initial_state(last_message);
        tools.to_vec()
    }

    fn add(&mut self, s: &str, _done: bool) -> Result<Added, String> {
        self.buffer.push_str(s);
        let events = self.parse_events();

        let mut content = String::new();
        let mut thinking = String::new();
        for event in events {
            match event {
                Olmo3Event::ThinkContent(t) => thinking.push_str(&t),
                Olmo3Event::Content(c) => content.push_str(&c),
            }
        }

        Ok(Added {
            content,
            thinking,
            calls: Vec::new(),
        })
    }

    fn preserved_tokens(&self) -> Vec<String> {
        vec![OLMO3_THINK_CLOSE_TAG.to_string()]
    }

    fn has_tool_support(&self) -> bool {
        false
    }

    fn has_thinking_support(&self) -> bool {
        true
    }
}

pub(crate) fn constructors() -> Constructors {
    fn make() -> Box<dyn Parser> {
        Box::new(Olmo3ThinkParser::default())
    }
    fn by_go_type(ty: &str, _: &Config) -> Option<Box<dyn Parser>> {
        (ty == "Olmo3ThinkParser").then(make)
    }
    Constructors {
        by_name: |n| (n == "olmo3-think").then(make),
        by_go_type,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(chunks: &[&str], last: Option<&Message>) -> (String, String, Vec<(String, String)>) {
        let mut p = Olmo3ThinkParser::default();
        p.init(&[], last, None);
        let (mut content, mut thinking, mut steps) = (String::new(), String::new(), Vec::new());
        for c in chunks {
            let a = p.add(c, false).unwrap();
            content += &a.content;
            thinking += &a.thinking;
            steps.push((a.content, a.thinking));
        }
        (content, thinking, steps)
    }

    #[test]
    fn olmo3_think_parser() {
        let (c, t, _) = run(
            &["Yes, that should work. Let me go with that response.\n\n</think>\n\nHi! 😊"],
            None,
        );
        assert_eq!(t, "Yes, that should work. Let me go with that response.");
        assert_eq!(c, "Hi! 😊");

        let (c, t, steps) = run(
            &[
                "Let me think... ",
                "Option A: $100 ",
                "Option B: €200</think>",
            ],
            None,
        );
        assert_eq!(t, "Let me think... Option A: $100 Option B: €200");
        assert_eq!(c, "");
        assert_eq!(steps[0], (String::new(), "Let me think...".to_string()));

        // a partial close tag and the space before it are withheld
        let (_, _, steps) = run(&["abc </th", "ink>  done"], None);
        assert_eq!(steps[0], (String::new(), "abc".to_string()));
        assert_eq!(steps[1], ("done".to_string(), String::new()));

        // prefill with content starts in content
        let last = Message::new("assistant", "Hi");
        let (c, t, _) = run(&["more</think>x"], Some(&last));
        assert_eq!((c.as_str(), t.as_str()), ("more</think>x", ""));
        let last = Message::new("assistant", "");
        let (c, t, _) = run(&["think</think>x"], Some(&last));
        assert_eq!((c.as_str(), t.as_str()), ("x", "think"));
    }
}
