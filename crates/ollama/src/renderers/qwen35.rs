//! `qwen35.go` and `ornith.go`: the `qwen3.5`, `qwen3.8` and `ornith`
//! renderers (ChatML, JSON tool definitions, XML-style tool calls,
//! `<think>` blocks).

use crate::api::{Message, Think, Tool};

use super::json;
use super::qwen3coder::{format_tool_call_argument, IM_END, IM_START};
use super::text::{content_with_image_tags, trim_space};

const THINK_OPEN: &str = "<think>";
const THINK_CLOSE: &str = "</think>";

const XHIGH_REASONING: &str = "Reasoning effort is set to xhigh. Please think carefully through the task, validate key assumptions, consider plausible alternatives, and prioritize correctness, consistency, and clarity in the final answer.";
const LOW_REASONING: &str = "Reasoning effort is set to low. Keep your thinking brief and focused, moving directly to the conclusion without unnecessary elaboration.";

const TOOL_POSTAMBLE: &str = "\n</tools>\n\nIf you choose to call a function ONLY reply in the following format with NO suffix:\n\n<tool_call>\n<function=example_function_name>\n<parameter=example_parameter_1>\nvalue_1\n</parameter>\n<parameter=example_parameter_2>\nThis is the value for the second parameter\nthat can span\nmultiple lines\n</parameter>\n</function>\n</tool_call>\n\n<IMPORTANT>\nReminder:\n- Function calls MUST follow the specified format: an inner <function=...></function> block must be nested within <tool_call></tool_call> XML tags\n- Required parameters MUST be specified\n- You may provide optional reasoning for your function call in natural language BEFORE the function call, but NOT after\n- If there is no function call available, answer the question like normal with your current knowledge and do not tell the user about function calls\n</IMPORTANT>";

/// The three configurations of Go's `Qwen35Renderer`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Variant {
    /// `qwen3.5`
    Qwen35,
    /// `qwen3.8` (`qwen35Renderer38`)
    Qwen38,
    /// `ornith`
    Ornith,
}

impl Variant {
    fn is_38(self) -> bool {
        self == Variant::Qwen38
    }

    /// `alwaysRenderAssistantThinkBlock`
    fn always_think_block(self) -> bool {
        matches!(self, Variant::Qwen38 | Variant::Ornith)
    }
}

fn render_content(message: &Message, offset: usize) -> (String, usize) {
    content_with_image_tags(&message.content, message.images.len(), offset)
}

/// `splitQwen35ReasoningContent`: the reasoning and the remaining content.
fn split_reasoning(
    content: &str,
    thinking: &str,
    is_thinking: bool,
    extract_tagged: bool,
) -> (String, String) {
    if is_thinking && !thinking.is_empty() {
        return (trim_space(thinking).to_string(), content.to_string());
    }
    if !extract_tagged {
        return (String::new(), content.to_string());
    }
    let mut reasoning = "";
    let mut content = content;
    if let Some(idx) = content.find(THINK_CLOSE) {
        let before = &content[..idx];
        reasoning = match before.rfind(THINK_OPEN) {
            Some(open) => &before[open + THINK_OPEN.len()..],
            None => before,
        };
        content = content[idx + THINK_CLOSE.len()..].trim_start_matches('\n');
    }
    (trim_space(reasoning).to_string(), content.to_string())
}

/// `qwen38ReasoningInstructions`.
fn qwen38_reasoning_instructions(think: Option<&Think>) -> &'static str {
    let Some(think) = think else {
        return XHIGH_REASONING;
    };
    if !think.as_bool() {
        return "";
    }
    match think.level().as_str() {
        "low" => LOW_REASONING,
        "high" | "max" => XHIGH_REASONING,
        _ => "",
    }
}

fn is_instruction(m: &Message) -> bool {
    m.role == "system" || m.role == "developer"
}

/// `normalizeQwen38Messages`: all system and developer messages folded into
/// one leading system message. Before `qwen38_fold_all_instructions`
/// (Ollama 0.32.15-rc2) only the leading run of them, and only when it
/// holds a developer message.
fn normalize_qwen38(messages: &[Message], rules: &changes::Rules) -> Result<Vec<Message>, String> {
    if !rules.on(&changes::ollama::QWEN38_FOLD_ALL_INSTRUCTIONS) {
        return normalize_qwen38_leading(messages, rules);
    }
    let mut count = 0;
    let mut instructions: Vec<&str> = Vec::new();
    for message in messages.iter().filter(|m| is_instruction(m)) {
        if !message.images.is_empty() {
            return Err(format!("{} message cannot contain images", message.role));
        }
        count += 1;
        let content = trim_space(&message.content);
        if !content.is_empty() {
            instructions.push(content);
        }
    }
    if count == 0 || (count == 1 && messages[0].role == "system") {
        return Ok(messages.to_vec());
    }
    let mut normalized = Vec::with_capacity(messages.len() - count + 1);
    normalized.push(Message::new("system", &instructions.join("\n\n")));
    normalized.extend(messages.iter().filter(|m| !is_instruction(m)).cloned());
    Ok(normalized)
}

/// `normalizeQwen38Messages` up to v0.32.15-rc1: the leading system and
/// developer messages folded into one system message when one of them is a
/// developer message.
fn normalize_qwen38_leading(
    messages: &[Message],
    rules: &changes::Rules,
) -> Result<Vec<Message>, String> {
    let leading = messages.iter().take_while(|m| is_instruction(m)).count();
    // before `qwen38_developer_role` (v0.32.12) there is no normalizing:
    // asked only where it would change something
    let acts = messages[..leading]
        .iter()
        .any(|m| m.role == "developer" || !m.images.is_empty());
    if acts && !rules.on(&changes::ollama::QWEN38_DEVELOPER_ROLE) {
        return Ok(messages.to_vec());
    }
    let mut instructions: Vec<&str> = Vec::new();
    for message in &messages[..leading] {
        if !message.images.is_empty() {
            return Err(format!("{} message cannot contain images", message.role));
        }
        let content = trim_space(&message.content);
        if !content.is_empty() {
            instructions.push(content);
        }
    }
    if !messages[..leading].iter().any(|m| m.role == "developer") {
        return Ok(messages.to_vec());
    }
    let mut normalized = Vec::with_capacity(messages.len() - leading + 1);
    normalized.push(Message::new("system", &instructions.join("\n\n")));
    normalized.extend_from_slice(&messages[leading..]);
    Ok(normalized)
}

fn is_tool_response(content: &str) -> bool {
    content.starts_with("<tool_response>") && content.ends_with("</tool_response>")
}

/// `validateMessages` (only `qwen3.8` validates).
fn validate(variant: Variant, messages: &[Message], rules: &changes::Rules) -> Result<(), String> {
    if !variant.is_38() {
        return Ok(());
    }
    let Some(first) = messages.first() else {
        return Err("no messages provided".into());
    };
    if first.role == "system" && !first.images.is_empty() {
        return Err("system message cannot contain images".into());
    }
    let found_query = messages
        .iter()
        .filter(|m| m.role == "user")
        .any(|m| !is_tool_response(trim_space(&render_content(m, 0).0)));
    if !found_query {
        return Err("no user query found in messages".into());
    }
    // before `qwen38_system_anywhere` and `qwen38_developer_role`, the
    // roles were checked too
    for (i, m) in messages.iter().enumerate() {
        match m.role.as_str() {
            "system" => {
                if i != 0 && !rules.on(&changes::ollama::QWEN38_SYSTEM_ANYWHERE) {
                    return Err("system message must be at the beginning".into());
                }
            }
            "user" | "assistant" | "tool" => {}
            role => {
                if !rules.on(&changes::ollama::QWEN38_DEVELOPER_ROLE) {
                    return Err(format!(
                        "unexpected message role {}",
                        gotmpl::strconv::quote(role)
                    ));
                }
            }
        }
    }
    Ok(())
}

/// `Qwen35Renderer.Render` (with `isThinking`, `emitEmptyThinkOnNoThink`
/// and `useImgTags` set, as all three names configure it).
pub(crate) fn render(
    variant: Variant,
    messages: &[Message],
    tools: &[Tool],
    think: Option<&Think>,
    rules: &changes::Rules,
) -> Result<String, String> {
    let normalized;
    let messages = if variant.is_38() {
        normalized = normalize_qwen38(messages, rules)?;
        &normalized[..]
    } else {
        messages
    };
    validate(variant, messages, rules)?;

    let mut sb = String::new();
    let is_thinking = think.is_none_or(Think::as_bool);
    let reasoning_instructions = if variant.is_38() {
        qwen38_reasoning_instructions(think)
    } else {
        ""
    };
    let first_is_system = messages.first().is_some_and(|m| m.role == "system");

    if !tools.is_empty() {
        sb.push_str(IM_START);
        sb.push_str("system\n");
        if !reasoning_instructions.is_empty() {
            sb.push_str(reasoning_instructions);
            sb.push_str("\n\n");
        }
        sb.push_str("# Tools\n\nYou have access to the following functions:\n\n<tools>");
        for tool in tools {
            sb.push('\n');
            sb.push_str(&json::add_spaces(&json::tool(tool, true)));
        }
        sb.push_str(TOOL_POSTAMBLE);
        if first_is_system {
            let (system, _) = render_content(&messages[0], 0);
            let system = trim_space(&system);
            if !system.is_empty() {
                sb.push_str("\n\n");
                sb.push_str(system);
            }
        }
        sb.push_str(IM_END);
        sb.push('\n');
    } else if first_is_system {
        let (system, _) = render_content(&messages[0], 0);
        let system = trim_space(&system);
        if !variant.is_38() || !system.is_empty() || !reasoning_instructions.is_empty() {
            sb.push_str(IM_START);
            sb.push_str("system\n");
            if !reasoning_instructions.is_empty() {
                sb.push_str(reasoning_instructions);
                if !system.is_empty() {
                    sb.push_str("\n\n");
                }
            }
            sb.push_str(system);
            sb.push_str(IM_END);
            sb.push('\n');
        }
    } else if !reasoning_instructions.is_empty() {
        sb.push_str(IM_START);
        sb.push_str("system\n");
        sb.push_str(reasoning_instructions);
        sb.push_str(IM_END);
        sb.push('\n');
    }

    // The last user message that is not only a tool response.
    let mut multi_step_tool = true;
    let mut last_query_index = messages.len() as isize - 1;
    for (i, message) in messages.iter().enumerate().rev() {
        if multi_step_tool
            && message.role == "user"
            && !is_tool_response(trim_space(&render_content(message, 0).0))
        {
            multi_step_tool = false;
            last_query_index = i as isize;
        }
    }

    let mut image_offset = 0;
    for (i, message) in messages.iter().enumerate() {
        let (content, next) = render_content(message, image_offset);
        image_offset = next;
        let content = trim_space(&content);
        let last = i == messages.len() - 1;
        let prefill = last && message.role == "assistant";

        if message.role == "user" || (message.role == "system" && i != 0) {
            sb.push_str(IM_START);
            sb.push_str(&message.role);
            sb.push('\n');
            sb.push_str(content);
            sb.push_str(IM_END);
            sb.push('\n');
        } else if message.role == "assistant" {
            let think_block =
                variant.always_think_block() || (is_thinking && i as isize > last_query_index);
            // before 0.30.11-rc1 the split followed thinking, not the block
            let split_by = if think_block == is_thinking
                || message.thinking.is_empty()
                || rules.on(&changes::ollama::QWEN35_HISTORICAL_THINK_SPLIT)
            {
                think_block
            } else {
                is_thinking
            };
            let (reasoning, content) =
                split_reasoning(content, &message.thinking, split_by, !variant.is_38());
            sb.push_str(IM_START);
            sb.push_str("assistant\n");
            if think_block {
                sb.push_str("<think>\n");
                sb.push_str(&reasoning);
                sb.push_str("\n</think>\n\n");
            }
            sb.push_str(&content);
            for (j, call) in message.tool_calls.iter().enumerate() {
                if j > 0 {
                    sb.push('\n');
                } else if !trim_space(&content).is_empty() {
                    sb.push_str("\n\n");
                }
                sb.push_str("<tool_call>\n<function=");
                sb.push_str(&call.function.name);
                sb.push_str(">\n");
                for (name, value) in call.function.arguments.iter().flatten() {
                    sb.push_str("<parameter=");
                    sb.push_str(name);
                    sb.push_str(">\n");
                    sb.push_str(&format_tool_call_argument(value));
                    sb.push_str("\n</parameter>\n");
                }
                sb.push_str("</function>\n</tool_call>");
            }
            if !prefill {
                sb.push_str(IM_END);
                sb.push('\n');
            }
        } else if message.role == "tool" {
            if i == 0 || messages[i - 1].role != "tool" {
                sb.push_str(IM_START);
                sb.push_str("user");
            }
            sb.push_str("\n<tool_response>\n");
            sb.push_str(content);
            sb.push_str("\n</tool_response>");
            if last || messages[i + 1].role != "tool" {
                sb.push_str(IM_END);
                sb.push('\n');
            }
        } else if variant.is_38() && message.role != "system" {
            // Go logs a warning and renders the turn as it is.
            sb.push_str(IM_START);
            sb.push_str(&message.role);
            sb.push('\n');
            sb.push_str(content);
            sb.push_str(IM_END);
            sb.push('\n');
        }

        if last && !prefill {
            sb.push_str(IM_START);
            sb.push_str("assistant\n");
            sb.push_str(if is_thinking {
                "<think>\n"
            } else {
                "<think>\n\n</think>\n\n"
            });
        }
    }
    Ok(sb)
}
