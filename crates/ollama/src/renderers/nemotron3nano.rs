//! `nemotron3nano.go`: the `nemotron-3-nano` and `nemotron-3.5-nano`
//! renderers (ChatML, XML-style tools, Python-flavoured JSON).

use crate::api::{Message, Think, Tool, ToolCall, ToolFunctionParameters, ToolProperty};
use gotmpl::strconv::quote;
use serde_json::Value as Json;

use super::json;
use super::text::{content_with_image_tags, sprint_json, trim_space};

const TOOL_INSTRUCTIONS: &str = "\n\nIf you choose to call a function ONLY reply in the following format with NO suffix:\n\n<tool_call>\n<function=example_function_name>\n<parameter=example_parameter_1>\nvalue_1\n</parameter>\n<parameter=example_parameter_2>\nThis is the value for the second parameter\nthat can span\nmultiple lines\n</parameter>\n</function>\n</tool_call>\n\n<IMPORTANT>\nReminder:\n- Function calls MUST follow the specified format: an inner <function=...></function> block must be nested within <tool_call></tool_call> XML tags\n- Required parameters MUST be specified\n- You may provide optional reasoning for your function call in natural language BEFORE the function call, but NOT after\n- If there is no function call available, answer the question like normal with your current knowledge and do not tell the user about function calls\n</IMPORTANT>";

/// `Nemotron3NanoRenderer.Render`; `v35` selects the Nemotron 3.5 layout.
/// `before_sync`: the layout before `nemotron3nano_template_sync` (Ollama
/// 0.32.9): three newlines first, a blank line after the system turn and
/// before the generation prompt, user and system turns as written, a
/// leading tool result in a user turn, and Go's `%v` for scalar arguments.
pub(crate) fn render(
    v35: bool,
    before_sync: bool,
    messages: &[Message],
    tools: &[Tool],
    think: Option<&Think>,
) -> String {
    let mut sb = String::new();
    let mut image_offset = 0;

    let enable_thinking = resolve_thinking(v35, messages, think);
    let medium_effort = v35 && matches!(think, Some(Think::Level(l)) if l == "medium");

    let (system, loop_messages) = match messages.split_first() {
        Some((first, rest)) if first.role == "system" => {
            (sanitize_system(v35, &first.content), rest)
        }
        _ => (String::new(), messages),
    };
    let last_user_idx = loop_messages.iter().rposition(|m| m.role == "user");

    if before_sync {
        sb.push_str("\n\n\n");
    }
    sb.push_str("<|im_start|>system\n");
    sb.push_str(&system);
    if !tools.is_empty() {
        if !system.is_empty() {
            sb.push_str("\n\n");
        }
        sb.push_str(&render_tools(tools, before_sync));
    }
    sb.push_str(if before_sync {
        "<|im_end|>\n\n"
    } else {
        "<|im_end|>\n"
    });

    for (i, message) in loop_messages.iter().enumerate() {
        match message.role.as_str() {
            "assistant" => {
                let content = build_content(v35, message);
                let truncate = last_user_idx.is_some_and(|u| i < u);
                sb.push_str("<|im_start|>assistant\n");
                if message.tool_calls.is_empty() {
                    sb.push_str(&format_assistant_content(&content, truncate));
                } else {
                    sb.push_str(&format_tool_call_content(&content, truncate));
                    write_tool_calls(&mut sb, &message.tool_calls, before_sync);
                }
                sb.push_str("<|im_end|>\n");
            }
            "user" | "system" => {
                sb.push_str("<|im_start|>");
                sb.push_str(&message.role);
                sb.push('\n');
                let mut content = render_message_content(message, image_offset);
                if before_sync {
                    // written as given
                } else if !v35 {
                    content = trim_space(&strip_think_toggles(&content)).to_string();
                } else if message.role == "user" && Some(i) == last_user_idx && medium_effort {
                    content.push_str("\n\n{reasoning effort: efficient}");
                }
                sb.push_str(&content);
                image_offset += message.images.len();
                sb.push_str("<|im_end|>\n");
            }
            "tool" => {
                let prev_was_tool = i > 0 && loop_messages[i - 1].role == "tool";
                let next_is_tool = loop_messages.get(i + 1).is_some_and(|m| m.role == "tool");
                let content = render_message_content(message, image_offset);
                image_offset += message.images.len();
                // A tool message with nothing before it opens no user block.
                if (i > 0 || before_sync) && !prev_was_tool {
                    sb.push_str("<|im_start|>user\n");
                }
                sb.push_str("<tool_response>\n");
                sb.push_str(&content);
                sb.push_str("\n</tool_response>\n");
                if !next_is_tool {
                    sb.push_str("<|im_end|>\n");
                }
            }
            role => {
                sb.push_str("<|im_start|>");
                sb.push_str(role);
                sb.push('\n');
                sb.push_str(&message.content);
                sb.push_str("<|im_end|>\n");
            }
        }
    }

    if before_sync {
        sb.push('\n');
    }
    sb.push_str(if enable_thinking {
        "<|im_start|>assistant\n<think>\n"
    } else {
        "<|im_start|>assistant\n<think></think>"
    });
    sb
}

/// `renderTools`.
fn render_tools(tools: &[Tool], before_sync: bool) -> String {
    let mut sb = String::from("# Tools\n\nYou have access to the following functions:\n\n<tools>");
    for tool in tools {
        let f = &tool.function;
        sb.push_str("\n<function>\n<name>");
        sb.push_str(&f.name);
        sb.push_str("</name>");
        if !f.description.is_empty() {
            sb.push_str(&format!(
                "\n<description>{}</description>",
                trim_space(&f.description)
            ));
        }
        sb.push_str("\n<parameters>");
        for (name, prop) in f.parameters.properties.iter().flatten() {
            sb.push_str("\n<parameter>\n<name>");
            sb.push_str(name);
            sb.push_str("</name>");
            if !prop.type_.is_empty() {
                sb.push_str(&format!(
                    "\n<type>{}</type>",
                    format_property_type(&prop.type_)
                ));
            }
            if !prop.description.is_empty() {
                sb.push_str(&format!(
                    "\n<description>{}</description>",
                    trim_space(&prop.description)
                ));
            }
            if let Some(values) = prop.enum_.as_ref().filter(|e| !e.is_empty()) {
                sb.push_str(&format!(
                    "\n<enum>{}</enum>",
                    py_list(values.iter().map(py_any))
                ));
            }
            render_property_extra_keys(&mut sb, prop);
            sb.push_str("\n</parameter>");
        }
        render_parameter_extra_keys(&mut sb, &f.parameters, before_sync);
        if let Some(required) = f.parameters.required.as_ref().filter(|r| !r.is_empty()) {
            sb.push_str(&format!("\n<required>{}</required>", py_strings(required)));
        }
        sb.push_str("\n</parameters>\n</function>");
    }
    sb.push_str("\n</tools>");
    sb.push_str(TOOL_INSTRUCTIONS);
    sb
}

/// `buildContent`: the assistant's thinking as a `<think>` block.
fn build_content(v35: bool, message: &Message) -> String {
    let content = &message.content;
    if !message.thinking.is_empty() {
        if v35 {
            return format!("<think>\n{}</think>{content}", message.thinking);
        }
        return format!("<think>\n{}\n</think>\n{content}", message.thinking);
    }
    if !content.contains("<think>") && !content.contains("</think>") {
        return format!("<think></think>{content}");
    }
    content.clone()
}

/// `formatAssistantContent`: earlier turns keep only the text after the
/// last `</think>`.
fn format_assistant_content(content: &str, truncate: bool) -> String {
    if truncate && content.contains("<think>") && content.contains("</think>") {
        let after = content.rsplit("</think>").next().unwrap_or_default();
        return trim_space(&format!("<think></think>{after}")).to_string();
    }
    trim_space(content).to_string()
}

/// `formatToolCallContent`.
fn format_tool_call_content(content: &str, truncate: bool) -> String {
    if trim_space(content).is_empty() {
        return "<think></think>".to_string();
    }
    if !truncate {
        return format!("{}\n", trim_space(content));
    }
    let mut c = content;
    if c.contains("</think>") {
        c = c.rsplit("</think>").next().unwrap_or_default();
    } else if c.contains("<think>") {
        c = c.split("<think>").next().unwrap_or_default();
    }
    let c = format!("<think></think>{}", trim_space(c));
    format!("{}\n", trim_space(&c))
}

/// `writeToolCalls`.
fn write_tool_calls(sb: &mut String, calls: &[ToolCall], before_sync: bool) {
    for call in calls {
        sb.push_str("<tool_call>\n<function=");
        sb.push_str(&call.function.name);
        sb.push_str(">\n");
        for (name, value) in call.function.arguments.iter().flatten() {
            sb.push_str(&format!(
                "<parameter={name}>\n{}\n</parameter>\n",
                if before_sync {
                    format_arg_value_before_sync(value)
                } else {
                    template_value(value)
                }
            ));
        }
        sb.push_str("</function>\n</tool_call>\n");
    }
}

/// `templateValue`: JSON for containers, Python's `str()` for scalars
/// (`True`, `False`, `None`).
fn template_value(value: &Json) -> String {
    match value {
        Json::Null => "None".to_string(),
        Json::Object(_) | Json::Array(_) => py_any(value),
        Json::Bool(true) => "True".to_string(),
        Json::Bool(false) => "False".to_string(),
        v => sprint_json(v),
    }
}

/// `formatArgValue` before `nemotron3nano_template_sync`: containers as
/// JSON, anything else with Go's `fmt.Sprintf("%v")` (`true`, `<nil>`).
fn format_arg_value_before_sync(value: &Json) -> String {
    match value {
        Json::Object(_) | Json::Array(_) => py_any(value),
        v => sprint_json(v),
    }
}

/// `renderMessageContent`: `[img-N]` tags for the message's images.
fn render_message_content(message: &Message, image_offset: usize) -> String {
    content_with_image_tags(&message.content, message.images.len(), image_offset).0
}

/// `resolveThinking`: the request decides, and before 3.5 the last
/// `/think` or `/no_think` in a user or system message overrides it.
fn resolve_thinking(v35: bool, messages: &[Message], think: Option<&Think>) -> bool {
    let mut enable = think.is_none_or(Think::as_bool);
    if v35 {
        return enable;
    }
    for message in messages
        .iter()
        .filter(|m| m.role == "user" || m.role == "system")
    {
        if message.content.replace("</think>", "").contains("/think") {
            enable = true;
        } else if message.content.contains("/no_think") {
            enable = false;
        }
    }
    enable
}

/// `sanitizeSystemMessage`.
fn sanitize_system(v35: bool, content: &str) -> String {
    if v35 {
        content.to_string()
    } else {
        strip_think_toggles(content)
    }
}

/// `stripThinkToggles`: removes `/think` and `/no_think`, keeping `</think>`.
fn strip_think_toggles(s: &str) -> String {
    s.replace("</think>", "<_end_think>")
        .replace("/think", "")
        .replace("/no_think", "")
        .replace("<_end_think>", "</think>")
}

/// `formatPropertyType`: one type as it is, several as a Python list.
fn format_property_type(types: &[String]) -> String {
    if let [one] = types {
        return one.clone();
    }
    let quoted: Vec<String> = types.iter().map(|t| format!("'{t}'")).collect();
    format!("[{}]", quoted.join(", "))
}

fn render_property_extra_keys(sb: &mut String, prop: &ToolProperty) {
    if !prop.any_of.is_empty() {
        sb.push_str(&format!(
            "\n<anyOf>{}</anyOf>",
            py_list(prop.any_of.iter().map(py_property))
        ));
    }
    if let Some(items) = prop.items.as_ref().filter(|v| !v.is_null()) {
        sb.push_str(&format!("\n<items>{}</items>", py_any(items)));
    }
    if let Some(props) = &prop.properties {
        sb.push_str(&format!(
            "\n<properties>{}</properties>",
            py_properties(props)
        ));
    }
    if let Some(required) = prop.required.as_ref().filter(|r| !r.is_empty()) {
        sb.push_str(&format!("\n<required>{}</required>", py_strings(required)));
    }
}

/// `renderToolParameterExtraKeys` (before `nemotron3nano_template_sync`,
/// `pythonJSON` for any value).
fn render_parameter_extra_keys(
    sb: &mut String,
    params: &ToolFunctionParameters,
    before_sync: bool,
) {
    let value = |v: &Json| {
        if before_sync {
            py_any(v)
        } else {
            template_value(v)
        }
    };
    if let Some(defs) = params.defs.as_ref().filter(|v| !v.is_null()) {
        sb.push_str(&format!("\n<$defs>{}</$defs>", value(defs)));
    }
    if let Some(items) = params.items.as_ref().filter(|v| !v.is_null()) {
        sb.push_str(&format!("\n<items>{}</items>", value(items)));
    }
}

// `pythonJSON`: JSON with Python's `", "` and `": "` separators, strings
// quoted with Go's `strconv.Quote`, map keys sorted and ordered maps in
// request order.

fn py_list(items: impl Iterator<Item = String>) -> String {
    format!("[{}]", items.collect::<Vec<_>>().join(", "))
}

fn py_strings(items: &[String]) -> String {
    py_list(items.iter().map(|s| quote(s)))
}

fn py_any(v: &Json) -> String {
    match v {
        Json::Null => "null".to_string(),
        Json::String(s) => quote(s),
        Json::Bool(b) => b.to_string(),
        Json::Number(_) => json::any(v),
        Json::Array(items) => py_list(items.iter().map(py_any)),
        Json::Object(obj) => {
            let mut entries: Vec<(&String, &Json)> = obj.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            let parts: Vec<String> = entries
                .into_iter()
                .map(|(k, v)| format!("{}: {}", quote(k), py_any(v)))
                .collect();
            format!("{{{}}}", parts.join(", "))
        }
    }
}

fn py_properties(props: &[(String, ToolProperty)]) -> String {
    let parts: Vec<String> = props
        .iter()
        .map(|(k, p)| format!("{}: {}", quote(k), py_property(p)))
        .collect();
    format!("{{{}}}", parts.join(", "))
}

fn py_property(p: &ToolProperty) -> String {
    let mut parts = Vec::new();
    if !p.any_of.is_empty() {
        parts.push(format!(
            "\"anyOf\": {}",
            py_list(p.any_of.iter().map(py_property))
        ));
    }
    match p.type_.as_slice() {
        [] => {}
        [one] => parts.push(format!("\"type\": {}", quote(one))),
        types => parts.push(format!("\"type\": {}", py_strings(types))),
    }
    if let Some(items) = p.items.as_ref().filter(|v| !v.is_null()) {
        parts.push(format!("\"items\": {}", py_any(items)));
    }
    if !p.description.is_empty() {
        parts.push(format!("\"description\": {}", quote(&p.description)));
    }
    if let Some(values) = p.enum_.as_ref().filter(|e| !e.is_empty()) {
        parts.push(format!("\"enum\": {}", py_list(values.iter().map(py_any))));
    }
    if let Some(props) = &p.properties {
        parts.push(format!("\"properties\": {}", py_properties(props)));
    }
    if let Some(required) = p.required.as_ref().filter(|r| !r.is_empty()) {
        parts.push(format!("\"required\": {}", py_strings(required)));
    }
    format!("{{{}}}", parts.join(", "))
}
