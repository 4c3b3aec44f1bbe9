//! `qwen3vl.go`: the `qwen3-vl-instruct` and `qwen3-vl-thinking` renderers
//! (ChatML, JSON tool definitions, `<think>` for the current turn).

use crate::api::{Message, Think, Tool};

use super::json;
use super::qwen3coder::IM_START;
use super::text::content_with_image_tags;

/// `Qwen3VLRenderer.Render` with `useImgTags`.
pub(crate) fn render(
    thinking: bool,
    messages: &[Message],
    tools: &[Tool],
    think: Option<&Think>,
) -> String {
    let mut sb = String::new();
    let is_thinking = think.map_or(thinking, Think::as_bool);
    let first_is_system = messages.first().is_some_and(|m| m.role == "system");

    if !tools.is_empty() {
        sb.push_str(IM_START);
        sb.push_str("system\n");
        if first_is_system {
            sb.push_str(&messages[0].content);
            sb.push_str("\n\n");
        }
        sb.push_str("# Tools\n\nYou may call one or more functions to assist with the user query.\n\nYou are provided with function signatures within <tools></tools> XML tags:\n<tools>");
        for tool in tools {
            sb.push('\n');
            sb.push_str(&json::add_spaces(&json::tool(tool, true)));
        }
        sb.push_str("\n</tools>\n\nFor each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n{\"name\": <function-name>, \"arguments\": <args-json-object>}\n</tool_call><|im_end|>\n");
    } else if first_is_system {
        sb.push_str("<|im_start|>system\n");
        sb.push_str(&messages[0].content);
        sb.push_str("<|im_end|>\n");
    }

    // The last user message that is not only a tool response.
    let mut multi_step_tool = true;
    let mut last_query_index = messages.len() as isize - 1;
    for (i, message) in messages.iter().enumerate().rev() {
        if multi_step_tool && message.role == "user" {
            let (content, _) = content_with_image_tags(&message.content, message.images.len(), 0);
            if !(content.starts_with("<tool_response>") && content.ends_with("</tool_response>")) {
                multi_step_tool = false;
                last_query_index = i as isize;
            }
        }
    }

    let mut image_offset = 0;
    for (i, message) in messages.iter().enumerate() {
        let (content, next) =
            content_with_image_tags(&message.content, message.images.len(), image_offset);
        image_offset = next;
        let last = i == messages.len() - 1;
        let prefill = last && message.role == "assistant";

        if message.role == "user" || (message.role == "system" && i != 0) {
            sb.push_str(&format!(
                "<|im_start|>{}\n{content}<|im_end|>\n",
                message.role
            ));
        } else if message.role == "assistant" {
            let reasoning = if is_thinking {
                message.thinking.as_str()
            } else {
                ""
            };
            if is_thinking && i as isize > last_query_index && (last || !reasoning.is_empty()) {
                sb.push_str("<|im_start|>assistant\n<think>\n");
                sb.push_str(reasoning.trim_matches('\n'));
                if !content.is_empty() {
                    sb.push_str("\n</think>\n\n");
                    sb.push_str(content.trim_start_matches('\n'));
                }
            } else {
                sb.push_str("<|im_start|>assistant\n");
                sb.push_str(&content);
            }
            for (j, call) in message.tool_calls.iter().enumerate() {
                if j > 0 || !content.is_empty() {
                    sb.push('\n');
                }
                sb.push_str("<tool_call>\n{\"name\": \"");
                sb.push_str(&call.function.name);
                sb.push_str("\", \"arguments\": ");
                sb.push_str(&json::add_spaces(&json::call_args(&call.function)));
                sb.push_str("}\n</tool_call>");
            }
            if !prefill {
                sb.push_str("<|im_end|>\n");
            }
        } else if message.role == "tool" {
            if i == 0 || messages[i - 1].role != "tool" {
                sb.push_str("<|im_start|>user");
            }
            sb.push_str("\n<tool_response>\n");
            sb.push_str(&content);
            sb.push_str("\n</tool_response>");
            if last || messages[i + 1].role != "tool" {
                sb.push_str("<|im_end|>\n");
            }
        }

        if last && !prefill {
            sb.push_str("<|im_start|>assistant\n");
            if is_thinking {
                sb.push_str("<think>\n");
            }
        }
    }
    sb
}
