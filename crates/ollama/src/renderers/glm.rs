//! `glm47.go` and `glmocr.go`: the `glm-4.7` and `glm-ocr` renderers.

use crate::api::{Message, OrderedArgs, Think, Tool};
use serde_json::Value as Json;

use super::json;
use super::text::{content_with_image_tags, trim_space};

const TOOLS_HEADER: &str = "<|system|>\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\nYou are provided with function signatures within <tools></tools> XML tags:\n<tools>\n";
const TOOLS_FOOTER: &str = "</tools>\n\nFor each function call, output the function name and arguments within the following XML format:\n<tool_call>{function-name}<arg_key>{arg-key-1}</arg_key><arg_value>{arg-value-1}</arg_value><arg_key>{arg-key-2}</arg_key><arg_value>{arg-value-2}</arg_value>...</tool_call>";

/// The tools block both renderers share (`formatGLM47ToolJSON`).
fn write_tools(sb: &mut String, tools: &[Tool]) {
    if tools.is_empty() {
        return;
    }
    sb.push_str(TOOLS_HEADER);
    for tool in tools {
        sb.push_str(&json::add_spaces(&json::tool(tool, true)));
        sb.push('\n');
    }
    sb.push_str(TOOLS_FOOTER);
}

/// `renderGLM47ToolArguments` / `renderGlmOcrToolArguments`: strings as
/// they are, anything else as JSON.
fn tool_arguments(args: &OrderedArgs) -> String {
    let mut sb = String::new();
    for (key, value) in args.iter().flatten() {
        let value = match value {
            Json::String(s) => s.clone(),
            v => json::any(v),
        };
        sb.push_str(&format!(
            "<arg_key>{key}</arg_key><arg_value>{value}</arg_value>"
        ));
    }
    sb
}

/// `GLM47Renderer.Render`: thinking is on unless the request turns it off,
/// and past reasoning is kept.
pub(crate) fn render_glm47(messages: &[Message], tools: &[Tool], think: Option<&Think>) -> String {
    let mut sb = String::from("[gMASK]<sop>");
    write_tools(&mut sb, tools);
    let think = think.is_none_or(Think::as_bool);

    for (i, message) in messages.iter().enumerate() {
        match message.role.as_str() {
            "user" => {
                sb.push_str("<|user|>");
                sb.push_str(&message.content);
            }
            "assistant" => {
                sb.push_str("<|assistant|>");
                if message.thinking.is_empty() {
                    sb.push_str("</think>");
                } else {
                    sb.push_str(&format!("<think>{}</think>", message.thinking));
                }
                sb.push_str(&message.content);
                for call in &message.tool_calls {
                    sb.push_str("<tool_call>");
                    sb.push_str(&call.function.name);
                    sb.push_str(&tool_arguments(&call.function.arguments));
                    sb.push_str("</tool_call>");
                }
            }
            "tool" => {
                if i == 0 || messages[i - 1].role != "tool" {
                    sb.push_str("<|observation|>");
                }
                sb.push_str("<tool_response>");
                sb.push_str(&message.content);
                sb.push_str("</tool_response>");
            }
            "system" => {
                sb.push_str("<|system|>");
                sb.push_str(&message.content);
            }
            _ => {}
        }
    }

    sb.push_str("<|assistant|>");
    sb.push_str(if think { "<think>" } else { "</think>" });
    sb
}

/// `GlmOcrRenderer.Render` with `useImgTags`.
pub(crate) fn render_glm_ocr(
    messages: &[Message],
    tools: &[Tool],
    think: Option<&Think>,
) -> String {
    let mut sb = String::from("[gMASK]<sop>");
    write_tools(&mut sb, tools);
    // Only an explicit think=false turns thinking off.
    let no_think = think.is_some_and(|t| !t.as_bool());

    let mut image_offset = 0;
    for (i, message) in messages.iter().enumerate() {
        match message.role.as_str() {
            "user" => {
                sb.push_str("<|user|>\n");
                let (content, next) =
                    content_with_image_tags(&message.content, message.images.len(), image_offset);
                image_offset = next;
                sb.push_str(&content);
                if no_think && !message.content.ends_with("/nothink") {
                    sb.push_str("/nothink");
                }
            }
            "assistant" => {
                sb.push_str("<|assistant|>\n");
                if message.thinking.is_empty() {
                    sb.push_str("<think></think>");
                } else {
                    sb.push_str(&format!("<think>{}</think>", trim_space(&message.thinking)));
                }
                if !message.content.is_empty() {
                    sb.push('\n');
                    sb.push_str(trim_space(&message.content));
                }
                for call in &message.tool_calls {
                    sb.push_str("\n<tool_call>");
                    sb.push_str(&call.function.name);
                    sb.push_str(&tool_arguments(&call.function.arguments));
                    sb.push_str("</tool_call>");
                }
                sb.push('\n');
            }
            "tool" => {
                if i == 0 || messages[i - 1].role != "tool" {
                    sb.push_str("<|observation|>");
                }
                let (content, next) =
                    content_with_image_tags(&message.content, message.images.len(), image_offset);
                image_offset = next;
                sb.push_str("\n<tool_response>\n");
                sb.push_str(&content);
                sb.push_str("\n</tool_response>\n");
            }
            "system" => {
                sb.push_str("<|system|>\n");
                sb.push_str(&message.content);
                sb.push('\n');
            }
            _ => {}
        }
    }

    sb.push_str("<|assistant|>\n");
    if no_think {
        sb.push_str("<think></think>\n");
    }
    sb
}
