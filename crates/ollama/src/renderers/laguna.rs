//! `laguna.go`: the `laguna` (v2) and `poolside-v1` (v8) renderers.

use crate::api::{Message, Think, Tool};
use serde_json::Value as Json;

use super::json;
use super::text::{trim_right_space, trim_space};

/// The BOS the renderers write first (`LeadingBOS`).
pub(crate) const BOS: &str = "〈|EOS|〉";

const THOUGHT_OPEN: &str = "<think>";
const THOUGHT_CLOSE: &str = "</think>";
const DEFAULT_SYSTEM: &str = "You are a helpful, conversationally-fluent assistant made by Poolside. You are here to be helpful to users through natural language conversations.";

/// One tool per line, as `json.dumps` would print it.
fn write_tool_lines(sb: &mut String, tools: &[Tool]) {
    for tool in tools {
        sb.push_str(&json::add_spaces(&json::tool(tool, true)));
        sb.push('\n');
    }
}

/// `formatLagunaToolCallArgument`: strings as they are, anything else as
/// spaced JSON (marshalling JSON input cannot fail, so Go's fallback to
/// `formatToolCallArgument` never runs).
fn format_argument(value: &Json) -> String {
    match value {
        Json::String(s) => s.clone(),
        v => json::add_spaces(&json::any(v)),
    }
}

/// What the v2 renderer does in a release (rows of Ollama's table).
#[derive(Clone, Copy, Debug)]
pub(crate) struct V2 {
    /// `laguna_v2_embedded_thinking`: reasoning tagged inside an assistant
    /// message's content is taken out of it.
    pub embedded_thinking: bool,
    /// `laguna_spaced_tool_arguments`: non-string arguments as spaced JSON
    /// (else `formatToolCallArgument`'s compact JSON and `%v`).
    pub spaced_arguments: bool,
}

/// `LagunaRenderer.Render` (the v2 template).
pub(crate) fn render(
    messages: &[Message],
    tools: &[Tool],
    think: Option<&Think>,
    v2: V2,
) -> String {
    let mut sb = String::from(BOS);
    let thinking = think.is_some_and(Think::as_bool);

    let first_is_system = messages.first().is_some_and(|m| m.role == "system");
    let system = if first_is_system {
        messages[0].content.as_str()
    } else {
        DEFAULT_SYSTEM
    };
    let has_system = !trim_space(system).is_empty();

    if has_system || !tools.is_empty() {
        sb.push_str("<system>\n");
        if has_system {
            sb.push('\n');
            sb.push_str(trim_right_space(system));
        }
        if !tools.is_empty() {
            sb.push_str("\n\n### Tools\n\n");
            sb.push_str("You may call functions to assist with the user query.\n");
            sb.push_str("All available function signatures are listed below:\n");
            sb.push_str("<available_tools>\n");
            write_tool_lines(&mut sb, tools);
            sb.push_str("</available_tools>\n\n");
            if thinking {
                sb.push_str("Wrap your thinking in '<think>', '</think>' tags, followed by a function call. For each function call, return an unescaped XML-like object with function name and arguments within '<tool_call>' and '</tool_call>' tags, like here:\n");
                sb.push_str("<think> your thoughts here </think>\n");
            } else {
                sb.push_str("For each function call, return an unescaped XML-like object with function name and arguments within '<tool_call>' and '</tool_call>' tags, like here:\n");
            }
            sb.push_str("<tool_call>function-name\n<arg_key>argument-key</arg_key>\n<arg_value>value-of-argument-key</arg_value>\n</tool_call>");
        }
        sb.push_str("\n</system>\n");
    }

    for (i, message) in messages.iter().enumerate() {
        if i == 0 && first_is_system {
            continue;
        }
        match message.role.as_str() {
            "user" => {
                sb.push_str("<user>\n");
                sb.push_str(&message.content);
                sb.push_str("\n</user>\n");
            }
            "assistant" => {
                let (content, reasoning) = if v2.embedded_thinking {
                    v2_assistant_content(&message.content, &message.thinking)
                } else {
                    (message.content.as_str(), message.thinking.clone())
                };
                let last = i == messages.len() - 1;
                let prefill = last
                    && (!trim_space(content).is_empty()
                        || !trim_space(&reasoning).is_empty()
                        || !message.tool_calls.is_empty());

                sb.push_str("<assistant>\n");
                // A full reasoning block, or a bare </think> for a direct turn.
                let reasoning = trim_space(&reasoning);
                if reasoning.is_empty() {
                    sb.push_str("</think>\n");
                } else {
                    sb.push_str("<think>\n");
                    sb.push_str(reasoning);
                    sb.push_str("\n</think>\n");
                }
                if !trim_space(content).is_empty() {
                    sb.push_str(trim_space(content));
                    sb.push('\n');
                }
                for call in &message.tool_calls {
                    sb.push_str("<tool_call>");
                    sb.push_str(&call.function.name);
                    sb.push('\n');
                    for (name, value) in call.function.arguments.iter().flatten() {
                        let value = if v2.spaced_arguments {
                            format_argument(value)
                        } else {
                            super::qwen3coder::format_tool_call_argument(value)
                        };
                        sb.push_str(&format!(
                            "<arg_key>{name}</arg_key>\n<arg_value>{value}</arg_value>\n"
                        ));
                    }
                    sb.push_str("</tool_call>\n");
                }
                if !prefill {
                    sb.push_str("</assistant>\n");
                }
            }
            "tool" => {
                sb.push_str("<tool_response>\n");
                sb.push_str(&message.content);
                sb.push_str("\n</tool_response>\n");
            }
            "system" => {
                sb.push_str("<system>\n");
                sb.push_str(&message.content);
                sb.push_str("\n</system>\n");
            }
            _ => {}
        }
    }

    // Continue an assistant prefill in place, or open a fresh turn.
    if messages.last().is_none_or(|m| m.role != "assistant") {
        sb.push_str("<assistant>\n");
        sb.push_str(if thinking {
            THOUGHT_OPEN
        } else {
            THOUGHT_CLOSE
        });
    }
    sb
}

/// `lagunaV2AssistantContent`: content after the last `</think>`, and the
/// reasoning (the message's, or the tagged text before the first
/// `</think>`).
fn v2_assistant_content<'a>(content: &'a str, reasoning: &str) -> (&'a str, String) {
    if !content.contains(THOUGHT_CLOSE) {
        return (content, reasoning.to_string());
    }
    let mut reasoning = reasoning.to_string();
    if reasoning.is_empty() {
        let first = content.split(THOUGHT_CLOSE).next().unwrap_or_default();
        let mut before = first.trim_end_matches('\n');
        if let Some(i) = before.rfind(THOUGHT_OPEN) {
            before = &before[i + THOUGHT_OPEN.len()..];
        }
        reasoning = before.trim_start_matches('\n').to_string();
    }
    let last = content.rsplit(THOUGHT_CLOSE).next().unwrap_or_default();
    (last.trim_start_matches('\n'), reasoning)
}

/// `LagunaV8Renderer.Render` (`poolside-v1`).
pub(crate) fn render_v8(messages: &[Message], tools: &[Tool], think: Option<&Think>) -> String {
    let mut sb = String::from(BOS);
    let thinking = think.is_some_and(Think::as_bool);

    let first_is_system = messages.first().is_some_and(|m| m.role == "system");
    let system = if first_is_system {
        messages[0].content.as_str()
    } else {
        DEFAULT_SYSTEM
    };
    let has_system = !trim_space(system).is_empty();

    if has_system || !tools.is_empty() || thinking {
        sb.push_str("<system>");
        if has_system {
            sb.push_str(trim_right_space(system));
            if !tools.is_empty() {
                sb.push_str("\n\n");
            }
        }
        if !tools.is_empty() {
            sb.push_str("### Tools\n\n");
            sb.push_str("You may call functions to assist with the user query.\n");
            sb.push_str("All available function signatures are listed below:\n");
            sb.push_str("<available_tools>\n");
            write_tool_lines(&mut sb, tools);
            sb.push_str("</available_tools>");
        }
        sb.push_str("</system>\n");
    }

    for (i, message) in messages.iter().enumerate() {
        if i == 0 && first_is_system {
            continue;
        }
        match message.role.as_str() {
            "user" => {
                sb.push_str("<user>");
                sb.push_str(&message.content);
                sb.push_str("</user>\n");
            }
            "assistant" => {
                sb.push_str("<assistant>");
                if thinking {
                    sb.push_str(THOUGHT_OPEN);
                    sb.push_str(&message.thinking);
                }
                sb.push_str(THOUGHT_CLOSE);
                sb.push_str(&message.content);
                for call in &message.tool_calls {
                    sb.push_str("<tool_call>");
                    sb.push_str(&call.function.name);
                    for (name, value) in call.function.arguments.iter().flatten() {
                        sb.push_str(&format!(
                            "<arg_key>{name}</arg_key><arg_value>{}</arg_value>",
                            format_argument(value)
                        ));
                    }
                    sb.push_str("</tool_call>");
                }
                sb.push_str("</assistant>\n");
            }
            "tool" => {
                sb.push_str("<tool_response>");
                sb.push_str(&message.content);
                sb.push_str("</tool_response>\n");
            }
            "system" => {
                sb.push_str("<system>");
                sb.push_str(&message.content);
                sb.push_str("</system>\n");
            }
            _ => {}
        }
    }

    sb.push_str("<assistant>");
    sb.push_str(if thinking {
        THOUGHT_OPEN
    } else {
        THOUGHT_CLOSE
    });
    sb
}
