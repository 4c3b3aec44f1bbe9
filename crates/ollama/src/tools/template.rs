//! `tools/template.go`: the tool-call tag, found in a model's Go template.

use gotmpl::parse::{Arg, BranchNode, Node, TextNode};

use crate::parsers::trim_space;

/// `parseTag(tmpl)`: the tool calling tag of a Go template (often
/// `<tool_call>`, `[TOOL_CALL]` or similar): the first text of the first
/// `{{if}}` on `.ToolCalls`, up to any `{`, trimmed. Without one (or
/// without a template or parse tree), `{`: every JSON object is then tried
/// as a tool call.
pub fn parse_tag(tmpl: Option<&gotmpl::Template>) -> String {
    // Go logs "template or tree is nil" at debug level.
    let Some(root) = tmpl.and_then(|t| t.root()) else {
        return "{".to_string();
    };

    let Some(tc) = find_tool_call_node(&root.nodes) else {
        return "{".to_string();
    };

    let Some(tn) = find_text_node(&tc.list.nodes) else {
        return "{".to_string();
    };

    let tag = tn.text.replace("\r\n", "\n");

    // avoid parsing { onwards as this may be a tool call however keep '{' as
    // a prefix if there is no tag so that all json objects will be
    // attempted to be parsed as tool calls
    let tag = tag
        .split_once('{')
        .map_or(tag.as_str(), |(before, _)| before);
    let tag = trim_space(tag);
    if tag.is_empty() {
        return "{".to_string();
    }

    tag.to_string()
}

/// `findToolCallNode(nodes)`: the first `{{if}}` whose pipeline has a field
/// (`.ToolCalls`, `.X.ToolCalls`, …) naming `ToolCalls` among its
/// commands' arguments, searching depth-first into `if`, `range` and
/// `with` bodies and their `else` branches.
fn find_tool_call_node(nodes: &[Node]) -> Option<&BranchNode> {
    let is_tool_calls_node = |n: &BranchNode| {
        n.pipe.cmds.iter().any(|cmd| {
            cmd.args.iter().any(|arg| match arg {
                Arg::Field { ident, .. } => ident.iter().any(|i| i == "ToolCalls"),
                _ => false,
            })
        })
    };

    for node in nodes {
        match node {
            Node::If(n) => {
                if is_tool_calls_node(n) {
                    return Some(n);
                }
                // Recursively search in nested IfNodes
                if let Some(result) = find_in_branch(n) {
                    return Some(result);
                }
            }
            Node::Range(n) | Node::With(n) => {
                if let Some(result) = find_in_branch(n) {
                    return Some(result);
                }
            }
            _ => {}
        }
    }
    None
}

/// The `List` then `ElseList` search of `findToolCallNode`.
fn find_in_branch(n: &BranchNode) -> Option<&BranchNode> {
    if let Some(result) = find_tool_call_node(&n.list.nodes) {
        return Some(result);
    }
    n.else_list
        .as_ref()
        .and_then(|e| find_tool_call_node(&e.nodes))
}

/// `findTextNode(nodes)`: a depth-first search for the first text that is
/// not only white space, stopping at template constructs (an action, or an
/// `if`/`range`/`with` without text inside) to avoid taking text after the
/// tool calls.
fn find_text_node(nodes: &[Node]) -> Option<&TextNode> {
    for node in nodes {
        match node {
            Node::Text(n) => {
                // skip whitespace-only text nodes
                if trim_space(&n.text).is_empty() {
                    continue;
                }
                return Some(n);
            }
            Node::If(n) | Node::Range(n) | Node::With(n) => {
                if let Some(text) = find_text_node(&n.list.nodes) {
                    return Some(text);
                }
                if let Some(e) = &n.else_list {
                    if let Some(text) = find_text_node(&e.nodes) {
                        return Some(text);
                    }
                }
                return None;
            }
            Node::Action(_) => return None,
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `TestParseTag`.
    #[test]
    fn parse_tag_table() {
        let cases = [
            ("empty", "", "{"),
            ("no tag", "{{if .ToolCalls}}{{end}}", "{"),
            (
                "no tag with range",
                "{{if .ToolCalls}}{{range .ToolCalls}}{{ . }}{{end}}{{end}}",
                "{",
            ),
            (
                "tool call with json format",
                "{{if .ToolCalls}}```json\n{{end}}",
                "```json",
            ),
            (
                "square brackets",
                "{{if .ToolCalls}}[{{range .ToolCalls}}{{ . }}{{end}}]{{end}}",
                "[",
            ),
            (
                "square brackets with whitespace",
                "{{if .ToolCalls}}\n [ {{range .ToolCalls}}{{ . }}{{end}}]{{end}}",
                "[",
            ),
            (
                "tailing ]",
                "{{if .ToolCalls}}{{range .ToolCalls}}{{ . }}{{end}}]{{end}}",
                "{",
            ),
            (
                "whitespace only",
                "{{if .ToolCalls}} {{range .ToolCalls}}{{ . }}{{end}}{{end}}",
                "{",
            ),
            (
                "whitespace only in range",
                "{{if .ToolCalls}}{{range .ToolCalls}}\n{{ . }}\n{{end}}{{end}}",
                "{",
            ),
            (
                "json objects",
                r#"{{if .ToolCalls}}{{range .ToolCalls}}{"name": "{{ .Function.Name }}", "arguments": {{ .Function.Arguments }}}{{end}}{{end}}"#,
                "{",
            ),
            (
                "json objects with whitespace",
                "{{if .ToolCalls}}{{range .ToolCalls}}\n{\"name\": \"{{ .Function.Name }}\", \"arguments\": {{ .Function.Arguments }}}{{end}}{{end}}",
                "{",
            ),
            (
                "json objects with CRLF",
                "{{if .ToolCalls}}{{range .ToolCalls}}\r\n{\"name\": \"{{ .Function.Name }}\", \"arguments\": {{ .Function.Arguments }}}{{end}}{{end}}",
                "{",
            ),
            (
                "json objects with whitespace before and after range",
                "{{if .ToolCalls}}\n{{range .ToolCalls}}\n{\"name\": \"{{ .Function.Name }}\", \"arguments\": {{ .Function.Arguments }}}\r\n{{end}}\r\n{{end}}",
                "{",
            ),
            (
                "before and after range",
                "{{if .ToolCalls}}<|tool▁calls▁begin|>{{range .ToolCalls}}<|tool▁call▁begin|>functionget_current_weather\n```json\n{\"location\": \"Tokyo\"}\n```<|tool▁call▁end|>\n{{end}}<|tool▁calls▁end|>{{end}}",
                "<|tool▁calls▁begin|>",
            ),
            (
                "after range",
                "{{if .ToolCalls}}{{range .ToolCalls}}<tool_call>{\"name\": \"{{ .Function.Name }}\", \"arguments\": {{ .Function.Arguments }}}</tool_call>{{end}}{{end}}",
                "<tool_call>",
            ),
            (
                "after range with leading whitespace before range",
                "{{if .ToolCalls}}\n{{range .ToolCalls}}<tool_call>{\"name\": \"{{ .Function.Name }}\", \"arguments\": {{ .Function.Arguments }}}</tool_call>{{end}}{{end}}",
                "<tool_call>",
            ),
            (
                "tool call in range with {",
                r#"{{if .ToolCalls}}{{range .ToolCalls}}<tool_call>{"name": "{{ .Function.Name }}", "arguments": {{ .Function.Arguments }}}<tool_call>{{end}}{{end}}"#,
                "<tool_call>",
            ),
            (
                "tool call with multiple text nodes",
                "{{if .ToolCalls}}First text{{if .Something}}inner{{end}}Second text{{end}}",
                "First text",
            ),
            (
                "action tag",
                "{{if .ToolCalls}}Action: ```json{{end}}",
                "Action: ```json",
            ),
            (
                "incomplete functools bracket",
                "{{if .ToolCalls}}functools[{{end}}",
                "functools[",
            ),
            (
                "uppercase tool call with incomplete bracket",
                "{{if .ToolCalls}}[TOOL_CALL] [{{end}}",
                "[TOOL_CALL] [",
            ),
            (
                "uppercase tool call with adjacent bracket",
                "{{if .ToolCalls}}[TOOL_CALL][{{end}}",
                "[TOOL_CALL][",
            ),
            // not in Go's table
            (
                "nested in range and else",
                "{{range .Messages}}{{if .Content}}x{{else if .Message.ToolCalls}}\n<calls>{{end}}{{end}}",
                "<calls>",
            ),
            (
                "action first",
                "{{if .ToolCalls}}{{ .Content }}<tool_call>{{end}}",
                "{",
            ),
            ("variable is not a field", "{{if $.ToolCalls}}<a>{{end}}", "{"),
        ];

        for (name, text, want) in cases {
            let tmpl = gotmpl::Template::parse("test", text).ok();
            assert!(tmpl.is_some() || text.is_empty(), "{name}: parses");
            assert_eq!(parse_tag(tmpl.as_ref()), want, "{name}");
        }
        assert_eq!(parse_tag(None), "{");
    }
}
