//! `cogito.go`: the `cogito` renderer (DeepSeek-style special tokens,
//! indented JSON tool definitions).

use crate::api::{Message, Think, Tool};

use super::json;

/// The BOS the renderer writes first (`LeadingBOS`), shared with DeepSeek.
pub(crate) const BOS: &str = "<｜begin▁of▁sentence｜>";

const DEFAULT_PROMPT: &str =
    "You are Cogito, an AI assistant created by Deep Cogito, which is an AI research lab based in San Francisco.";

/// `CogitoRenderer.Render` (`isThinking: true`).
pub(crate) fn render(messages: &[Message], tools: &[Tool], think: Option<&Think>) -> String {
    let mut sb = String::new();
    let enable_thinking = think.is_some_and(Think::as_bool);

    let (system, conversation) = match messages.split_first() {
        Some((first, rest)) if first.role == "system" => (first.content.as_str(), rest),
        _ => ("", messages),
    };

    let mut system_prompt = String::new();
    if enable_thinking {
        system_prompt.push_str("Enable deep thinking subroutine.\n\n");
        system_prompt.push_str(DEFAULT_PROMPT);
        if !system.is_empty() {
            system_prompt.push_str("\n\n");
            system_prompt.push_str(system);
            system_prompt.push_str("\n\n");
        }
    } else {
        system_prompt.push_str(DEFAULT_PROMPT);
        if !system.is_empty() {
            system_prompt.push_str("\n\n");
            system_prompt.push_str(system);
        }
    }

    if !tools.is_empty() {
        // The prompt is never empty here.
        system_prompt.push_str("\nYou have the following functions available:\n");
        for tool in tools {
            system_prompt.push_str("```json\n");
            system_prompt.push_str(&json::indent(&json::tool(tool, true), "    "));
            system_prompt.push_str("\n```\n");
        }
    }

    sb.push_str(BOS);
    sb.push_str(&system_prompt);

    let mut outputs_open = false;
    let mut is_last_user = false;
    for (i, message) in conversation.iter().enumerate() {
        match message.role.as_str() {
            "user" => {
                is_last_user = true;
                sb.push_str("<｜User｜>");
                sb.push_str(&message.content);
                sb.push_str("<｜Assistant｜>");
            }
            "assistant" => {
                is_last_user = false;
                if message.tool_calls.is_empty() {
                    sb.push_str(&message.content);
                    sb.push_str("<｜end▁of▁sentence｜>");
                    continue;
                }
                sb.push_str(&message.content);
                sb.push_str("<｜tool▁calls▁begin｜>");
                for (j, call) in message.tool_calls.iter().enumerate() {
                    sb.push_str("<｜tool▁call▁begin｜>function<｜tool▁sep｜>");
                    sb.push_str(&call.function.name);
                    sb.push_str("\n```json\n");
                    sb.push_str(&json::call_args(&call.function));
                    sb.push_str("\n```<｜tool▁call▁end｜>");
                    if j < message.tool_calls.len() - 1 {
                        sb.push('\n');
                    }
                }
                sb.push_str("<｜tool▁calls▁end｜><｜end▁of▁sentence｜>");
            }
            "tool" => {
                is_last_user = false;
                if !outputs_open {
                    sb.push_str("<｜tool▁outputs▁begin｜>");
                    outputs_open = true;
                }
                sb.push_str("<｜tool▁output▁begin｜>");
                sb.push_str(&message.content);
                sb.push_str("<｜tool▁output▁end｜>");
                if conversation.get(i + 1).is_some_and(|m| m.role == "tool") {
                    sb.push('\n');
                } else {
                    sb.push_str("<｜tool▁outputs▁end｜>");
                    outputs_open = false;
                }
            }
            _ => {}
        }
    }
    if outputs_open {
        sb.push_str("<｜tool▁outputs▁end｜>");
    }
    if !is_last_user {
        sb.push_str("<｜Assistant｜>");
    }
    if enable_thinking {
        sb.push_str("<think>\n");
    }
    sb
}
