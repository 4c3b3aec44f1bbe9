//! `lfm2.go`: the `lfm2` and `lfm2-thinking` renderers (Liquid LFM2:
//! ChatML with `<|tool_list_start|>` tools and Pythonic tool calls).

use crate::api::{Message, Think, Tool, ToolCall};
use serde_json::Value as Json;

use super::json;
use super::text::{content_with_image_tags, trim_space};

/// The BOS the renderer writes first (`LeadingBOS`).
pub(crate) const BOS: &str = "<|startoftext|>";

const THINK_OPEN: &str = "<think>";
const THINK_CLOSE: &str = "</think>";
const TOOL_LIST_START: &str = "<|tool_list_start|>";
const TOOL_LIST_END: &str = "<|tool_list_end|>";
const TOOL_CALL_START: &str = "<|tool_call_start|>";
const TOOL_CALL_END: &str = "<|tool_call_end|>";
const TOOL_RESPONSE_START: &str = "<|tool_response_start|>";
const TOOL_RESPONSE_END: &str = "<|tool_response_end|>";

/// `lfm2JSON` of a tool: HF `tojson` (no HTML escaping, `", "` and `": "`
/// separators) of the function schema, or of the whole tool when it has no
/// name (`lfm2ToolSchema`).
fn tool_schema_json(tool: &Tool) -> String {
    let compact = if tool.function.name.is_empty() {
        json::tool(tool, false)
    } else {
        json::function(&tool.function, false)
    };
    json::add_spaces(&compact)
}

/// `lfm2RenderToolCalls`: `<|tool_call_start|>[name(k=v,…),…]<|tool_call_end|>`,
/// keys sorted, values as HF `tojson`.
fn render_tool_calls(calls: &[ToolCall]) -> String {
    let mut sb = String::from(TOOL_CALL_START);
    sb.push('[');
    for (i, call) in calls.iter().enumerate() {
        if i > 0 {
            sb.push(',');
        }
        sb.push_str(&call.function.name);
        sb.push('(');
        let mut args: Vec<(&String, &Json)> = call.function.arguments.iter().flatten().collect();
        args.sort_by(|a, b| a.0.cmp(b.0));
        for (j, (key, value)) in args.into_iter().enumerate() {
            if j > 0 {
                sb.push(',');
            }
            sb.push_str(key);
            sb.push('=');
            sb.push_str(&json::add_spaces(&json::any_unescaped(value)));
        }
        sb.push(')');
    }
    sb.push(']');
    sb.push_str(TOOL_CALL_END);
    sb
}

/// Everything up to an earlier assistant turn's last `</think>` goes, and
/// the rest is trimmed.
fn strip_reasoning(content: &mut String) {
    if let Some(idx) = content.rfind(THINK_CLOSE) {
        *content = trim_space(&content[idx + THINK_CLOSE.len()..]).to_string();
    }
}

/// `LFM2Renderer.Render` with `useImgTags`; `thinking` is `lfm2-thinking`.
pub(crate) fn render(
    thinking: bool,
    messages: &[Message],
    tools: &[Tool],
    think: Option<&Think>,
    rules: &changes::Rules,
) -> String {
    let mut sb = String::from(BOS);

    let (mut system, start) = match messages.first() {
        Some(first) if first.role == "system" => (first.content.clone(), 1),
        _ => (String::new(), 0),
    };

    if !tools.is_empty() {
        if !system.is_empty() {
            system.push('\n');
        }
        system.push_str("List of tools: ");
        system.push_str(TOOL_LIST_START);
        system.push('[');
        let schemas: Vec<String> = tools.iter().map(tool_schema_json).collect();
        system.push_str(&schemas.join(", "));
        system.push(']');
        system.push_str(TOOL_LIST_END);
    }
    if !system.is_empty() {
        sb.push_str("<|im_start|>system\n");
        sb.push_str(&system);
        sb.push_str("<|im_end|>\n");
    }

    let keep_past_thinking = thinking && think.is_some_and(Think::as_bool);
    let last_assistant_index = messages[start..]
        .iter()
        .rposition(|m| m.role == "assistant")
        .map(|i| i + start);

    let mut image_offset: usize = messages[..start].iter().map(|m| m.images.len()).sum();
    for (i, message) in messages.iter().enumerate().skip(start) {
        let last = i == messages.len() - 1;
        let prefill = last && message.role == "assistant";

        sb.push_str("<|im_start|>");
        sb.push_str(&message.role);
        sb.push('\n');

        let (mut content, _) =
            content_with_image_tags(&message.content, message.images.len(), image_offset);
        image_offset += message.images.len();
        let earlier_assistant =
            message.role == "assistant" && !keep_past_thinking && Some(i) != last_assistant_index;
        // Before `lfm2_history_strip_after_tool_calls` the reasoning was cut
        // from the content before the tool calls were prepended.
        let strip_after_calls = !earlier_assistant
            || message.tool_calls.is_empty()
            || content.contains(TOOL_CALL_START)
            || !content.contains(THINK_CLOSE)
            || rules.on(&changes::ollama::LFM2_HISTORY_STRIP_AFTER_TOOL_CALLS);
        if earlier_assistant && !strip_after_calls {
            strip_reasoning(&mut content);
        }
        if message.role == "assistant"
            && !message.tool_calls.is_empty()
            && !content.contains(TOOL_CALL_START)
        {
            let calls = render_tool_calls(&message.tool_calls);
            content = if trim_space(&content).is_empty() {
                calls + &content
            } else {
                calls + "\n" + &content
            };
        }
        // The thinking variant puts the reasoning back inline, before tool
        // calls and content.
        if thinking
            && message.role == "assistant"
            && !message.thinking.is_empty()
            && !content.contains(THINK_CLOSE)
            && rules.on(&changes::ollama::LFM2_THINKING_FIELD_RENDERED)
        {
            content = format!("{THINK_OPEN}{}{THINK_CLOSE}{content}", message.thinking);
        }
        // Earlier assistant turns drop their reasoning unless it is kept.
        if earlier_assistant && strip_after_calls {
            strip_reasoning(&mut content);
        }
        if message.role == "tool" && !content.contains(TOOL_RESPONSE_START) {
            content = format!("{TOOL_RESPONSE_START}{content}{TOOL_RESPONSE_END}");
        }

        sb.push_str(&content);
        if !prefill {
            sb.push_str("<|im_end|>\n");
        }
    }

    if messages.last().is_none_or(|m| m.role != "assistant") {
        sb.push_str("<|im_start|>assistant\n");
    }
    sb
}
