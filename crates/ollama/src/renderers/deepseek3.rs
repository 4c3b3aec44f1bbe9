//! `deepseek3.go`: the `deepseek3.1` renderer.

use crate::api::{Message, Think, Tool};

use super::cogito::BOS;
use super::json;

/// `DeepSeek3Renderer.Render` (`IsThinking: true`, `Variant: Deepseek31`).
pub(crate) fn render(messages: &[Message], tools: &[Tool], think: Option<&Think>) -> String {
    let mut sb = String::new();
    let thinking = think.is_some_and(Think::as_bool);

    // All system messages, joined.
    let system = messages
        .iter()
        .filter(|m| m.role == "system")
        .map(|m| m.content.as_str())
        .collect::<Vec<_>>()
        .join("\n\n");

    sb.push_str(BOS);
    sb.push_str(&system);

    if !tools.is_empty() {
        sb.push_str("\n\n## Tools\nYou have access to the following tools:\n");
        for tool in tools {
            sb.push_str("\n### ");
            sb.push_str(&tool.function.name);
            sb.push_str("\nDescription: ");
            sb.push_str(&tool.function.description);
            sb.push_str("\n\nParameters: ");
            sb.push_str(&json::params(&tool.function.parameters, true));
            sb.push('\n');
        }
        sb.push_str("\nIMPORTANT: ALWAYS adhere to this exact format for tool use:\n");
        sb.push_str("<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>tool_call_name<｜tool▁sep｜>tool_call_arguments<｜tool▁call▁end｜>{{additional_tool_calls}}<｜tool▁calls▁end｜>\n\n");
        sb.push_str("Where:\n\n");
        sb.push_str("- `tool_call_name` must be an exact match to one of the available tools\n");
        sb.push_str("- `tool_call_arguments` must be valid JSON that strictly follows the tool's Parameters Schema\n");
        sb.push_str(
            "- For multiple tool calls, chain them directly without separators or spaces\n",
        );
    }

    let mut is_tool = false;
    let mut is_last_user = false;
    let last_user_index = messages.iter().rposition(|m| m.role == "user");

    for (i, message) in messages.iter().enumerate() {
        match message.role.as_str() {
            "user" => {
                is_tool = false;
                is_last_user = true;
                sb.push_str("<｜User｜>");
                sb.push_str(&message.content);
            }
            "assistant" if !message.tool_calls.is_empty() => {
                if is_last_user {
                    sb.push_str("<｜Assistant｜></think>");
                }
                is_last_user = false;
                is_tool = false;
                sb.push_str(&message.content);
                sb.push_str("<｜tool▁calls▁begin｜>");
                for call in &message.tool_calls {
                    sb.push_str("<｜tool▁call▁begin｜>");
                    sb.push_str(&call.function.name);
                    sb.push_str("<｜tool▁sep｜>");
                    sb.push_str(&json::call_args(&call.function));
                    sb.push_str("<｜tool▁call▁end｜>");
                }
                sb.push_str("<｜tool▁calls▁end｜><｜end▁of▁sentence｜>");
            }
            "assistant" => {
                if is_last_user {
                    sb.push_str("<｜Assistant｜>");
                    // Only the current turn (after the last user message)
                    // opens a thinking block.
                    let current_turn = last_user_index.is_none_or(|u| i > u);
                    if !message.thinking.is_empty() && thinking && current_turn {
                        sb.push_str("<think>");
                    } else {
                        sb.push_str("</think>");
                    }
                }
                is_last_user = false;
                let mut content = message.content.as_str();
                if is_tool {
                    is_tool = false;
                } else if let Some((_, after)) = content.split_once("</think>") {
                    content = after;
                }
                sb.push_str(content);
                sb.push_str("<｜end▁of▁sentence｜>");
            }
            "tool" => {
                is_last_user = false;
                is_tool = true;
                sb.push_str("<｜tool▁output▁begin｜>");
                sb.push_str(&message.content);
                sb.push_str("<｜tool▁output▁end｜>");
            }
            _ => {}
        }
    }

    if is_last_user && !is_tool {
        sb.push_str("<｜Assistant｜>");
        sb.push_str(if thinking { "<think>" } else { "</think>" });
    }
    sb
}
