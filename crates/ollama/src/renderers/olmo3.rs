//! `olmo3.go` and `olmo3_think.go`: the `olmo3`, `olmo3.1`, `olmo3-think`
//! and `olmo3-32b-think` renderers.

use crate::api::{Message, Tool};

use super::json;

const OLMO3_DEFAULT_SYSTEM: &str = "You are a helpful function-calling AI assistant. ";
const OLMO31_DEFAULT_SYSTEM: &str = "You are Olmo, a helpful AI assistant built by Ai2. Your date cutoff is December 2024, and your model weights are available at https://huggingface.co/allenai. ";
const NO_FUNCTIONS: &str = "You do not currently have access to any functions. ";
const WITH_FUNCTIONS: &str = "You are provided with function signatures within <functions></functions> XML tags. You may call one or more functions to assist with the user query. Output any function calls within <function_calls></function_calls> XML tags. Do not make assumptions about what values to plug into functions.";

const THINK_FUNCTIONS_SUFFIX: &str =
    " You do not currently have access to any functions. <functions></functions>";
const THINK_32B_SYSTEM: &str = "You are a helpful AI assistant.";
const THINK_31_SYSTEM: &str = "You are Olmo, a helpful AI assistant built by Ai2. Your date cutoff is December 2024, and your model weights are available at https://huggingface.co/allenai.";

/// `Olmo3ThinkVariant`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ThinkVariant {
    /// `olmo3-32b-think`: allenai/Olmo-3-32B-Think.
    Olmo3Think32B,
    /// `olmo3-think`: Olmo-3-7B-Think and Olmo-3.1-32B-Think.
    Olmo31Think,
}

/// The first system message, and the other messages without system ones.
fn split_system(messages: &[Message]) -> (Option<&Message>, Vec<&Message>) {
    let system = messages.iter().find(|m| m.role == "system");
    (
        system,
        messages.iter().filter(|m| m.role != "system").collect(),
    )
}

/// `Olmo3Renderer.Render`.
pub(crate) fn render(extended_system: bool, messages: &[Message], tools: &[Tool]) -> String {
    let mut sb = String::new();
    let (system, filtered) = split_system(messages);

    sb.push_str("<|im_start|>system\n");
    if let Some(system) = system {
        sb.push_str(&system.content);
        if !tools.is_empty() {
            sb.push_str("<functions>");
            sb.push_str(&json::add_spaces(&json::tools(tools)));
            sb.push_str("</functions>");
        }
    } else {
        sb.push_str(if extended_system {
            OLMO31_DEFAULT_SYSTEM
        } else {
            OLMO3_DEFAULT_SYSTEM
        });
        if !tools.is_empty() {
            sb.push_str(WITH_FUNCTIONS);
            sb.push_str("<functions>");
            sb.push_str(&json::add_spaces(&json::tools(tools)));
            sb.push_str("</functions>");
        } else {
            sb.push_str(NO_FUNCTIONS);
            sb.push_str("<functions></functions>");
        }
    }
    sb.push_str("<|im_end|>\n");

    for (i, message) in filtered.iter().enumerate() {
        let last = i == filtered.len() - 1;
        match message.role.as_str() {
            "user" => {
                sb.push_str("<|im_start|>user\n");
                sb.push_str(&message.content);
                sb.push_str("<|im_end|>\n");
            }
            "assistant" => {
                sb.push_str("<|im_start|>assistant\n");
                sb.push_str(&message.content);
                if !message.tool_calls.is_empty() {
                    sb.push_str("<function_calls>");
                    for (j, call) in message.tool_calls.iter().enumerate() {
                        // name(arg1="value1", arg2="value2"), keys sorted
                        sb.push_str(&call.function.name);
                        sb.push('(');
                        let mut args: Vec<_> = call.function.arguments.iter().flatten().collect();
                        args.sort_by(|a, b| a.0.cmp(b.0));
                        for (k, (key, value)) in args.into_iter().enumerate() {
                            if k > 0 {
                                sb.push_str(", ");
                            }
                            sb.push_str(key);
                            sb.push('=');
                            sb.push_str(&json::any(value));
                        }
                        sb.push(')');
                        if j < message.tool_calls.len() - 1 {
                            sb.push('\n');
                        }
                    }
                    sb.push_str("</function_calls>");
                }
                // A last message with content only is a prefill.
                if !last || !message.tool_calls.is_empty() {
                    sb.push_str("<|im_end|>\n");
                }
            }
            "tool" => {
                sb.push_str("<|im_start|>environment\n");
                sb.push_str(&message.content);
                sb.push_str("<|im_end|>\n");
            }
            _ => {}
        }
    }

    let needs_generation_prompt = filtered.last().is_none_or(|m| {
        !(m.role == "assistant" && m.tool_calls.is_empty() && !m.content.is_empty())
    });
    if needs_generation_prompt {
        sb.push_str("<|im_start|>assistant\n");
    }
    sb
}

/// `Olmo3ThinkRenderer.Render`: no tools, tool messages dropped.
pub(crate) fn render_think(variant: ThinkVariant, messages: &[Message]) -> String {
    let mut sb = String::new();
    let (system, filtered) = split_system(messages);

    sb.push_str("<|im_start|>system\n");
    match system {
        Some(system) => {
            sb.push_str(&system.content);
            sb.push_str(THINK_FUNCTIONS_SUFFIX);
        }
        None => sb.push_str(match variant {
            ThinkVariant::Olmo3Think32B => THINK_32B_SYSTEM,
            ThinkVariant::Olmo31Think => THINK_31_SYSTEM,
        }),
    }
    sb.push_str("<|im_end|>\n");

    for message in filtered {
        match message.role.as_str() {
            "user" => {
                sb.push_str("<|im_start|>user\n");
                sb.push_str(&message.content);
                sb.push_str("<|im_end|>\n");
            }
            "assistant" => {
                sb.push_str("<|im_start|>assistant\n");
                sb.push_str(&message.content);
                sb.push_str("<|im_end|>\n");
            }
            _ => {}
        }
    }
    sb.push_str("<|im_start|>assistant\n<think>");
    sb
}
