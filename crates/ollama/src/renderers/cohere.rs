//! `cohere.go`: the `cohere` renderer (Cohere North / Command A 2026).

use std::collections::HashMap;

use crate::api::{Message, Think, Tool};

use super::json;
use super::text::{equal_fold_ascii, to_lower};

/// The renderer's `LeadingBOS` (it is not written into the prompt).
pub(crate) const BOS: &str = "<BOS_TOKEN>";

/// `cohereToolJSON`: one tool as the template's `tojson` prints it.
fn tool_json(tool: &Tool) -> String {
    format!(
        "{{\"name\": {}, \"description\": {}, \"parameters\": {}, \"responses\": null}}",
        json::string(&tool.function.name),
        json::string(&tool.function.description),
        json::add_spaces(&json::params(&tool.function.parameters, true))
    )
}

/// `writeToolsSection`: the "# Available Tools" block, written even when
/// there are no tools.
fn write_tools_section(sb: &mut String, tools: &[Tool]) {
    sb.push_str("# Available Tools\n```json\n[\n");
    if tools.is_empty() {
        sb.push_str("\n\n");
    }
    for (i, tool) in tools.iter().enumerate() {
        sb.push_str("\n    ");
        sb.push_str(&tool_json(tool));
        if i < tools.len() - 1 {
            sb.push(',');
        }
        sb.push_str("\n\n");
    }
    sb.push_str("\n]\n```");
}

/// `writeToolResult`: one entry of a `<|START_TOOL_RESULT|>` array.
fn write_tool_result(sb: &mut String, call_id: &str, content: &str) {
    sb.push_str("\n    {\n        \"tool_call_id\": \"");
    sb.push_str(call_id);
    sb.push_str("\",\n        \"results\": {\n\n            \n            \"0\": ");
    sb.push_str(&format!("{{\"content\": {}}}", json::string(content)));
    sb.push_str("\n\n        },\n        \"is_error\": null\n    }");
}

/// `CohereRenderer.Render`.
pub(crate) fn render(messages: &[Message], tools: &[Tool], think: Option<&Think>) -> String {
    let mut sb = String::new();
    // Reasoning defaults to on; only think=false turns it off.
    let reasoning = think.is_none_or(Think::as_bool);

    let (system, rest) = match messages.split_first() {
        Some((first, rest)) if equal_fold_ascii(&first.role, "system") => {
            (first.content.as_str(), rest)
        }
        _ => ("", messages),
    };

    sb.push_str("<|START_OF_TURN_TOKEN|><|SYSTEM_TOKEN|><|START_TEXT|>");
    if !system.is_empty() {
        sb.push_str(system);
        sb.push_str("\n\n\n\n");
    }
    write_tools_section(&mut sb, tools);
    sb.push_str("<|END_TEXT|><|END_OF_TURN_TOKEN|>");

    // Tool call ids become sequential indices across the conversation;
    // results refer to the index of their call.
    let mut call_index = 0usize;
    let mut id_to_index: HashMap<&str, String> = HashMap::new();

    let mut prefill = false;
    let mut i = 0;
    while i < rest.len() {
        let message = &rest[i];
        match to_lower(&message.role).as_str() {
            "system" => {
                sb.push_str("<|START_OF_TURN_TOKEN|><|SYSTEM_TOKEN|><|START_TEXT|>");
                sb.push_str(&message.content);
                sb.push_str("<|END_TEXT|><|END_OF_TURN_TOKEN|>");
            }
            "user" => {
                sb.push_str("<|START_OF_TURN_TOKEN|><|USER_TOKEN|><|START_TEXT|>");
                sb.push_str(&message.content);
                sb.push_str("<|END_TEXT|><|END_OF_TURN_TOKEN|>");
            }
            "assistant" | "chatbot" => {
                sb.push_str("<|START_OF_TURN_TOKEN|><|CHATBOT_TOKEN|>");
                if !message.tool_calls.is_empty() {
                    sb.push_str("\n            \n                ");
                    write_thinking(&mut sb, &message.thinking);
                    sb.push_str("<|START_ACTION|>[");
                    for (j, call) in message.tool_calls.iter().enumerate() {
                        let index = call_index.to_string();
                        call_index += 1;
                        if !call.id.is_empty() {
                            id_to_index.entry(&call.id).or_insert_with(|| index.clone());
                        }
                        sb.push_str("\n\n    {\"tool_call_id\": \"");
                        sb.push_str(&index);
                        sb.push_str("\", \"tool_name\": \"");
                        sb.push_str(&call.function.name);
                        sb.push_str("\", \"parameters\": ");
                        sb.push_str(&json::add_spaces(&json::call_args(&call.function)));
                        sb.push('}');
                        if j < message.tool_calls.len() - 1 {
                            sb.push(',');
                        }
                    }
                    sb.push_str("\n\n]<|END_ACTION|><|END_OF_TURN_TOKEN|>");
                } else {
                    write_thinking(&mut sb, &message.thinking);
                    sb.push_str("<|START_TEXT|>");
                    sb.push_str(&message.content);
                    if i == rest.len() - 1 {
                        // An assistant prefill stays open.
                        prefill = true;
                    } else {
                        sb.push_str("<|END_TEXT|><|END_OF_TURN_TOKEN|>");
                    }
                }
            }
            "tool" => {
                // Consecutive tool messages share one TOOL_RESULT array.
                let result_id = |m: &Message| {
                    id_to_index
                        .get(m.tool_call_id.as_str())
                        .cloned()
                        .unwrap_or_else(|| m.tool_call_id.clone())
                };
                sb.push_str("<|START_OF_TURN_TOKEN|><|SYSTEM_TOKEN|><|START_TOOL_RESULT|>[");
                write_tool_result(&mut sb, &result_id(message), &message.content);
                while i + 1 < rest.len() && equal_fold_ascii(&rest[i + 1].role, "tool") {
                    i += 1;
                    sb.push(',');
                    write_tool_result(&mut sb, &result_id(&rest[i]), &rest[i].content);
                }
                sb.push_str("\n\n]<|END_TOOL_RESULT|><|END_OF_TURN_TOKEN|>");
            }
            _ => {}
        }
        i += 1;
    }

    if !prefill {
        sb.push_str("<|START_OF_TURN_TOKEN|><|CHATBOT_TOKEN|>");
        sb.push_str(if reasoning {
            "<|START_THINKING|>"
        } else {
            "<|START_THINKING|><|END_THINKING|>"
        });
    }
    sb
}

fn write_thinking(sb: &mut String, thinking: &str) {
    if !thinking.is_empty() {
        sb.push_str("<|START_THINKING|>");
        sb.push_str(thinking);
        sb.push_str("<|END_THINKING|>");
    }
}
