//! `qwen3coder.go`: the `qwen3-coder` renderer (ChatML with XML-style tool
//! definitions and `<function=..>` tool calls), and the argument format the
//! Qwen 3.5 family shares.

use crate::api::{Message, Tool};
use serde_json::Value as Json;

use super::json;
use super::text::sprint_json;

pub(crate) const IM_START: &str = "<|im_start|>";
pub(crate) const IM_END: &str = "<|im_end|>";

const DEFAULT_SYSTEM: &str =
    "You are Qwen, a helpful AI assistant that can interact with a computer to solve tasks.";

const TOOL_INSTRUCTIONS: &str = "\n\nIf you choose to call a function ONLY reply in the following format with NO suffix:\n\n<tool_call>\n<function=example_function_name>\n<parameter=example_parameter_1>\nvalue_1\n</parameter>\n<parameter=example_parameter_2>\nThis is the value for the second parameter\nthat can span\nmultiple lines\n</parameter>\n</function>\n</tool_call>\n\n<IMPORTANT>\nReminder:\n- Function calls MUST follow the specified format: an inner <function=...></function> block must be nested within <tool_call></tool_call> XML tags\n- Required parameters MUST be specified\n- You may provide optional reasoning for your function call in natural language BEFORE the function call, but NOT after\n- If there is no function call available, answer the question like normal with your current knowledge and do not tell the user about function calls\n</IMPORTANT>";

/// `renderAdditionalKeys`: every field of `marshaled` (the object's JSON)
/// except `handled`, as `\n<key>value</key>`; containers as JSON, scalars
/// with `%v`, nulls skipped.
///
/// Go decodes the JSON into a `map[string]any` and ranges over it. Such a
/// small map (at most 8 keys) keeps its entries in insertion order and
/// Go's iteration starts at a random slot, so Go prints a rotation of the
/// field order, most often the field order itself, which this uses.
fn render_additional_keys(marshaled: &str, handled: &[&str]) -> String {
    let Ok(Json::Object(obj)) = serde_json::from_str::<Json>(marshaled) else {
        return String::new();
    };
    let mut sb = String::new();
    for (key, value) in &obj {
        if handled.contains(&key.as_str()) {
            continue;
        }
        let text = match value {
            Json::Object(_) | Json::Array(_) => json::any(value),
            Json::Null => continue,
            v => sprint_json(v),
        };
        sb.push_str(&format!("\n<{key}>{text}</{key}>"));
    }
    sb
}

/// `formatToolCallArgument`: strings as they are, containers as JSON,
/// `null`, and `%v` for numbers and booleans.
pub(crate) fn format_tool_call_argument(value: &Json) -> String {
    match value {
        Json::Null => "null".to_string(),
        Json::String(s) => s.clone(),
        Json::Object(_) | Json::Array(_) => json::any(value),
        v => sprint_json(v),
    }
}

/// `formatToolDefinitionType`.
fn format_tool_definition_type(types: &[String]) -> String {
    match types {
        [] => "[]".to_string(),
        [one] => one.clone(),
        _ => json::property_type(types),
    }
}

/// `Qwen3CoderRenderer.Render`.
pub(crate) fn render(messages: &[Message], tools: &[Tool]) -> String {
    let mut sb = String::new();

    // The first system message wins; the others are dropped.
    let mut system = "";
    let mut filtered: Vec<&Message> = Vec::new();
    for message in messages {
        if message.role != "system" {
            filtered.push(message);
        } else if system.is_empty() {
            system = &message.content;
        }
    }

    if !system.is_empty() || !tools.is_empty() {
        sb.push_str(IM_START);
        sb.push_str("system\n");
        sb.push_str(if system.is_empty() {
            DEFAULT_SYSTEM
        } else {
            system
        });

        if !tools.is_empty() {
            sb.push_str("\n\n# Tools\n\nYou have access to the following functions:\n\n<tools>");
            for tool in tools {
                let f = &tool.function;
                sb.push_str("\n<function>\n<name>");
                sb.push_str(&f.name);
                sb.push_str("</name>");
                if !f.description.is_empty() {
                    sb.push_str(&format!("\n<description>{}</description>", f.description));
                }
                sb.push_str("\n<parameters>");
                for (name, prop) in f.parameters.properties.iter().flatten() {
                    sb.push_str("\n<parameter>\n<name>");
                    sb.push_str(name);
                    sb.push_str("</name>");
                    if !prop.type_.is_empty() {
                        sb.push_str(&format!(
                            "\n<type>{}</type>",
                            format_tool_definition_type(&prop.type_)
                        ));
                    }
                    if !prop.description.is_empty() {
                        sb.push_str(&format!(
                            "\n<description>{}</description>",
                            prop.description
                        ));
                    }
                    sb.push_str(&render_additional_keys(
                        &json::property(prop),
                        &["type", "description"],
                    ));
                    sb.push_str("\n</parameter>");
                }
                sb.push_str(&render_additional_keys(
                    &json::params(&f.parameters, true),
                    &["type", "properties"],
                ));
                sb.push_str("\n</parameters>\n</function>");
            }
            sb.push_str("\n</tools>");
            sb.push_str(TOOL_INSTRUCTIONS);
        }
        sb.push_str(IM_END);
        sb.push('\n');
    }

    for (i, message) in filtered.iter().enumerate() {
        let last = i == filtered.len() - 1;
        let prefill = last && message.role == "assistant";
        match message.role.as_str() {
            "assistant" if !message.tool_calls.is_empty() => {
                sb.push_str(IM_START);
                sb.push_str("assistant\n");
                if !message.content.is_empty() {
                    sb.push_str(&message.content);
                    sb.push('\n');
                }
                for call in &message.tool_calls {
                    sb.push_str("\n<tool_call>\n<function=");
                    sb.push_str(&call.function.name);
                    sb.push('>');
                    for (name, value) in call.function.arguments.iter().flatten() {
                        sb.push_str(&format!(
                            "\n<parameter={name}>\n{}\n</parameter>",
                            format_tool_call_argument(value)
                        ));
                    }
                    sb.push_str("\n</function>\n</tool_call>");
                }
                sb.push_str("<|im_end|>\n");
            }
            "assistant" => {
                sb.push_str(IM_START);
                sb.push_str("assistant\n");
                sb.push_str(&message.content);
                if !prefill {
                    sb.push_str(IM_END);
                    sb.push('\n');
                }
            }
            "tool" => {
                // Consecutive tool responses share one user turn.
                if i == 0 || filtered[i - 1].role != "tool" {
                    sb.push_str(IM_START);
                    sb.push_str("user");
                }
                sb.push_str("\n<tool_response>\n");
                sb.push_str(&message.content);
                sb.push_str("\n</tool_response>");
                if last || filtered[i + 1].role != "tool" {
                    sb.push_str(IM_END);
                    sb.push('\n');
                }
            }
            role => {
                sb.push_str(IM_START);
                sb.push_str(role);
                sb.push('\n');
                sb.push_str(&message.content);
                sb.push_str(IM_END);
                sb.push('\n');
            }
        }
        if last && !prefill {
            sb.push_str(IM_START);
            sb.push_str("assistant\n");
        }
    }
    sb
}
