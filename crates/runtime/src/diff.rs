//! Where two renders of one conversation part: the first differing byte
//! (and token, given each side's tokens), the text around it on both
//! sides, and the rows of the change table that explain it.

use ollama::server::BuildRule;
use serde_json::Value as Json;

use crate::Spec;

/// The first byte at which `a` and `b` differ (the shorter one's length
/// when one is a prefix of the other); `None` when they are equal.
pub fn first_byte(a: &str, b: &str) -> Option<usize> {
    if a == b {
        return None;
    }
    let n = a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
    Some(n)
}

/// The first index at which two token lists differ.
pub fn first_token(a: &[u32], b: &[u32]) -> Option<usize> {
    if a == b {
        return None;
    }
    Some(a.iter().zip(b).take_while(|(x, y)| x == y).count())
}

/// The text around byte `at` of `s`: up to `radius` bytes on each side,
/// widened to character boundaries.
pub fn context(s: &str, at: usize, radius: usize) -> String {
    let mut start = at.saturating_sub(radius).min(s.len());
    while !s.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = (at + radius).min(s.len());
    while !s.is_char_boundary(end) {
        end += 1;
    }
    s[start..end].to_string()
}

/// The rows that explain why two specs' renders differ: the rows in
/// effect in one version and not the other that either render consulted
/// (`rules`: llama.cpp's rows, and for Ollama its release's own). Between
/// two Ollama releases that is both tables (the builds they compile
/// included); otherwise llama.cpp's, through each side's build. Two
/// renders at the same version have no such rows.
pub fn explained_by(
    a: (Spec, &[BuildRule]),
    b: (Spec, &[BuildRule]),
) -> Vec<&'static changes::Change> {
    let between = match (a.0, b.0) {
        (Spec::Ollama(ra), Spec::Ollama(rb)) => ra.differences(&rb),
        _ => match (a.0.llama_cpp(), b.0.llama_cpp()) {
            (Some(ba), Some(bb)) => ba.differences(bb),
            _ => return Vec::new(),
        },
    };
    between
        .into_iter()
        .filter(|c| a.1.iter().chain(b.1).any(|r| r.id == c.id))
        .collect()
}

/// A construct where two runtimes take the same conversation differently.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cause {
    /// Its name (`content_parts`).
    pub id: &'static str,
    /// What each runtime does, in a line.
    pub line: &'static str,
}

/// The causes [`runtime_causes`] names.
pub mod causes {
    use super::Cause;
    /// List content.
    pub const CONTENT_PARTS: Cause = Cause {
        id: "content_parts",
        line:
            "a message's content is a list of parts: transformers gives the template the list as \
               it is (printed, it is Python's repr); llama-server and Ollama join its text parts \
               into one string",
    };
    /// Reasoning under several names.
    pub const REASONING_ALIAS: Cause = Cause {
        id: "reasoning_alias",
        line: "transformers gives a message's reasoning to the template as both `thinking` and \
               `reasoning_content`; llama-server passes `reasoning_content` only, and Ollama \
               sends its `thinking` as `reasoning_content`",
    };
    /// Tool schemas rewritten.
    pub const TOOL_SCHEMA: Cause = Cause {
        id: "tool_schema",
        line: "llama-server rewrites each tool into its own schema (key order, an empty \
               `description`, `parameters` filled in) before the template sees it; transformers \
               passes the tools as given",
    };
    /// Markup escaping.
    pub const HTML_ESCAPE: Cause = Cause {
        id: "html_escape",
        line: "in Jinja2 a `|safe` string is Markup, and `+` with a plain string HTML-escapes the \
               plain one (`&#34;`); llama.cpp's engine concatenates as is",
    };
    /// A final assistant message.
    pub const CONTINUATION: Cause = Cause {
        id: "continuation",
        line: "the conversation ends with an assistant message: llama-server continues it (and \
               says so to the template differently), transformers continues it only with \
               `continue_final_message` and cuts the prompt at its end",
    };
    /// The thinking switch.
    pub const THINKING_DEFAULT: Cause = Cause {
        id: "thinking_default",
        line: "the thinking switch: llama-server sets `enable_thinking` (and reasoning options) \
               from its own defaults, transformers passes only what the request's \
               `chat_template_kwargs` say, so the template's own default applies",
    };
    /// Documents.
    pub const DOCUMENTS: Cause = Cause {
        id: "documents",
        line: "the request has `documents`: transformers passes them to the template; \
               llama-server and Ollama have no such field",
    };
    /// Keys set to null.
    pub const NONE_KEYS: Cause = Cause {
        id: "none_keys",
        line: "a message has keys set to null: transformers drops them before rendering, the \
               other runtimes pass `None`",
    };
    /// The date.
    pub const DATE: Cause = Cause {
        id: "date",
        line: "the template prints today's date: each runtime's clock (and llama-server's own \
               date argument) gives it",
    };
    /// The engines themselves.
    pub const ENGINE: Cause = Cause {
        id: "engine",
        line: "the two Jinja engines differ here: llama.cpp's own engine against Python's jinja2 \
               (printing, filters, errors)",
    };
}

/// The constructs that explain where a transformers render and an Ollama
/// or llama-server render of the same request part, at byte `at` of
/// `a` and `b`; `request` is the case's request, `template` the chat
/// template. The most specific first; [`causes::ENGINE`] when none fits.
pub fn runtime_causes(a: &str, b: &str, at: usize, request: &Json, template: &str) -> Vec<Cause> {
    use causes::*;
    let window = |s: &str| context(s, at, 48);
    let (wa, wb) = (window(a), window(b));
    let either = |needle: &str| wa.contains(needle) || wb.contains(needle);
    let messages = request["messages"].as_array().cloned().unwrap_or_default();
    let mut out = Vec::new();
    if messages.iter().any(|m| m["content"].is_array()) && either("[{'type'") {
        out.push(CONTENT_PARTS);
    }
    let reasoning = messages.iter().find_map(|m| {
        ["reasoning_content", "thinking", "reasoning"]
            .iter()
            .find_map(|k| m[*k].as_str().filter(|s| !s.is_empty()))
    });
    if reasoning.is_some_and(|r| wa.contains(r) != wb.contains(r)) {
        out.push(REASONING_ALIAS);
    }
    let (na, nb) = (context(a, at, 24), context(b, at, 24));
    let in_schema = |w: &str| {
        [
            "\"name\"",
            "\"description\"",
            "\"parameters\"",
            "\"properties\"",
        ]
        .iter()
        .any(|k| w.contains(k))
    };
    if request["tools"].as_array().is_some_and(|t| !t.is_empty())
        && in_schema(&na)
        && in_schema(&nb)
    {
        out.push(TOOL_SCHEMA);
    }
    if ["&#34;", "&#39;", "&lt;", "&gt;", "&amp;"]
        .iter()
        .any(|e| wa.contains(e) != wb.contains(e))
    {
        out.push(HTML_ESCAPE);
    }
    if request["documents"]
        .as_array()
        .is_some_and(|d| !d.is_empty())
    {
        out.push(DOCUMENTS);
    }
    if messages
        .iter()
        .any(|m| m.as_object().is_some_and(|o| o.values().any(Json::is_null)))
    {
        out.push(NONE_KEYS);
    }
    if (template.contains("strftime_now") || template.contains("date_string"))
        && wa.chars().filter(char::is_ascii_digit).count() >= 2
    {
        out.push(DATE);
    }
    if either("<think>") || either("</think>") || template.contains("enable_thinking") {
        out.push(THINKING_DEFAULT);
    }
    if messages.last().is_some_and(|m| m["role"] == "assistant")
        && (at >= a.len().min(b.len()) || out.is_empty())
    {
        out.push(CONTINUATION);
    }
    if out.is_empty() {
        out.push(ENGINE);
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn causes_between_runtimes_are_named() {
        let req = serde_json::json!({"messages": [
            {"role": "user", "content": [{"type": "text", "text": "hi"}]}]});
        let a = "<|user|>hi<|end|>";
        let b = "<|user|>[{'type': 'text', 'text': 'hi'}]<|end|>";
        let at = first_byte(a, b).unwrap();
        assert_eq!(
            runtime_causes(a, b, at, &req, "{{ m.content }}"),
            vec![causes::CONTENT_PARTS]
        );
        let req = serde_json::json!({"messages": [{"role": "user", "content": "x"}]});
        let (a, b) = ("<p>&#34;x&#34;", "<p>\"x\"");
        assert_eq!(
            runtime_causes(a, b, 3, &req, "{{ '<p>'|safe + x }}"),
            vec![causes::HTML_ESCAPE]
        );
        assert_eq!(
            runtime_causes("ab", "ac", 1, &req, ""),
            vec![causes::ENGINE]
        );
    }

    use super::*;
    use crate::Build;

    #[test]
    fn the_first_difference_and_its_context() {
        assert_eq!(first_byte("abc", "abc"), None);
        assert_eq!(first_byte("abc", "abd"), Some(2));
        assert_eq!(first_byte("ab", "abc"), Some(2));
        assert_eq!(first_token(&[1, 2, 3], &[1, 2]), Some(2));
        assert_eq!(context("héllo wörld", 2, 1), "é");
        assert_eq!(context("abcdef", 3, 2), "bcde");
    }

    #[test]
    fn only_consulted_rows_between_the_builds_explain() {
        let consulted = [BuildRule::of(
            &changes::llamacpp::PRESERVE_REASONING_DEFAULT,
            &changes::Rules::new(Build::B10488),
        )];
        let rows = explained_by(
            (Spec::LlamaServer(Build::B10488), &consulted),
            (Spec::LlamaServer(Build::B11312), &[]),
        );
        assert_eq!(rows, vec![&changes::llamacpp::PRESERVE_REASONING_DEFAULT]);
        assert!(explained_by(
            (Spec::LlamaServer(Build::B11312), &consulted),
            (Spec::LlamaServer(Build::B11312), &consulted)
        )
        .is_empty());
    }
}
