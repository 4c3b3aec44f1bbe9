//! `functiongemma.go`: the `functiongemma` renderer (Gemma 3 turns with
//! `<start_function_declaration>` tools and `<escape>`-delimited strings).

use crate::api::{Message, Tool, ToolCall, ToolProperty};
use serde_json::Value as Json;

use super::gemma4::BOS;
use super::text::{int_or_float, json_f64, to_upper, trim_space};

const DEFAULT_SYSTEM: &str = "You can do function calling with the following functions:";

/// `FunctionGemmaRenderer.Render`.
pub(crate) fn render(messages: &[Message], tools: &[Tool]) -> String {
    let mut sb = String::from(BOS);

    let (system, loop_messages) = match messages.split_first() {
        Some((first, rest)) if first.role == "system" || first.role == "developer" => {
            (first.content.as_str(), rest)
        }
        _ => ("", messages),
    };

    if !system.is_empty() || !tools.is_empty() {
        sb.push_str("<start_of_turn>developer\n");
        sb.push_str(trim_space(system));
        if !tools.is_empty() {
            if !system.is_empty() {
                sb.push('\n');
            }
            // The default instruction unless the system message is it.
            if trim_space(system) != DEFAULT_SYSTEM {
                sb.push_str(DEFAULT_SYSTEM);
            }
        }
        for tool in tools {
            sb.push_str(&render_tool_declaration(tool));
        }
        sb.push_str("<end_of_turn>\n");
    }

    let mut prev_message_type = "";
    for (i, message) in loop_messages.iter().enumerate() {
        match message.role.as_str() {
            "assistant" => {
                if prev_message_type != "tool_response" {
                    sb.push_str("<start_of_turn>model\n");
                }
                prev_message_type = "";
                sb.push_str(trim_space(&message.content));
                if message.tool_calls.is_empty() {
                    sb.push_str("<end_of_turn>\n");
                } else {
                    for call in &message.tool_calls {
                        sb.push_str(&format_tool_call(call));
                    }
                    // Tool responses are expected next.
                    if loop_messages.get(i + 1).is_some_and(|m| m.role == "tool") {
                        sb.push_str("<start_function_response>");
                        prev_message_type = "tool_call";
                    } else {
                        sb.push_str("<end_of_turn>\n");
                    }
                }
            }
            "user" => {
                if prev_message_type != "tool_response" {
                    sb.push_str("<start_of_turn>user\n");
                }
                prev_message_type = "";
                sb.push_str(trim_space(&message.content));
                sb.push_str("<end_of_turn>\n");
            }
            "tool" => {
                let name = tool_name(loop_messages, i);
                if prev_message_type != "tool_call" {
                    sb.push_str("<start_function_response>");
                }
                sb.push_str(&format!(
                    "response:{name}{{<escape>{}<escape>}}<end_function_response>",
                    message.content
                ));
                prev_message_type = "tool_response";
            }
            role => {
                sb.push_str("<start_of_turn>");
                sb.push_str(role);
                sb.push('\n');
                sb.push_str(trim_space(&message.content));
                sb.push_str("<end_of_turn>\n");
            }
        }
    }

    if prev_message_type != "tool_response" {
        sb.push_str("<start_of_turn>model\n");
    }
    sb
}

/// The name of the call a tool message answers: the nearest earlier
/// assistant message with tool calls, indexed by how many tool messages lie
/// between.
fn tool_name(messages: &[Message], i: usize) -> &str {
    let Some(j) = messages[..i]
        .iter()
        .rposition(|m| m.role == "assistant" && !m.tool_calls.is_empty())
    else {
        return "";
    };
    let index = messages[j + 1..i]
        .iter()
        .filter(|m| m.role == "tool")
        .count();
    messages[j]
        .tool_calls
        .get(index)
        .map_or("", |c| c.function.name.as_str())
}

/// `renderToolDeclaration`.
fn render_tool_declaration(tool: &Tool) -> String {
    let f = &tool.function;
    let params = &f.parameters;
    let mut sb = format!(
        "<start_function_declaration>declaration:{}{{description:<escape>{}<escape>",
        f.name, f.description
    );
    if params.properties.is_some() || !params.type_.is_empty() {
        sb.push_str(",parameters:{");
        let mut needs_comma = false;
        if let Some(props) = params.properties.as_ref().filter(|p| !p.is_empty()) {
            sb.push_str("properties:{");
            write_properties(&mut sb, props);
            sb.push('}');
            needs_comma = true;
        }
        if let Some(required) = params.required.as_ref().filter(|r| !r.is_empty()) {
            if needs_comma {
                sb.push(',');
            }
            let quoted: Vec<String> = required
                .iter()
                .map(|r| format!("<escape>{r}<escape>"))
                .collect();
            sb.push_str(&format!("required:[{}]", quoted.join(",")));
            needs_comma = true;
        }
        if !params.type_.is_empty() {
            if needs_comma {
                sb.push(',');
            }
            sb.push_str(&format!("type:<escape>{}<escape>", to_upper(&params.type_)));
        }
        sb.push('}');
    }
    sb.push_str("}<end_function_declaration>");
    sb
}

/// `writeProperties`: names sorted, description and first type only.
fn write_properties(sb: &mut String, props: &[(String, ToolProperty)]) {
    let mut sorted: Vec<&(String, ToolProperty)> = props.iter().collect();
    sorted.sort_by(|a, b| a.0.cmp(&b.0));
    for (i, (name, prop)) in sorted.into_iter().enumerate() {
        if i > 0 {
            sb.push(',');
        }
        sb.push_str(&format!(
            "{name}:{{description:<escape>{}<escape>",
            prop.description
        ));
        if let Some(t) = prop.type_.first() {
            sb.push_str(&format!(",type:<escape>{}<escape>", to_upper(t)));
        }
        sb.push('}');
    }
}

/// `formatToolCall`: arguments with sorted keys.
fn format_tool_call(call: &ToolCall) -> String {
    let mut args: Vec<(&String, &Json)> = call.function.arguments.iter().flatten().collect();
    args.sort_by(|a, b| a.0.cmp(b.0));
    let parts: Vec<String> = args
        .into_iter()
        .map(|(k, v)| format!("{k}:{}", format_arg_value(v)))
        .collect();
    format!(
        "<start_function_call>call:{}{{{}}}<end_function_call>",
        call.function.name,
        parts.join(",")
    )
}

/// `formatArgValue`; `null` falls to Go's `%v`, `<nil>`.
fn format_arg_value(v: &Json) -> String {
    match v {
        Json::Null => "<nil>".to_string(),
        Json::String(s) => format!("<escape>{s}<escape>"),
        Json::Bool(b) => b.to_string(),
        Json::Number(n) => int_or_float(json_f64(n)),
        Json::Array(items) => {
            let parts: Vec<String> = items.iter().map(format_arg_value).collect();
            format!("[{}]", parts.join(","))
        }
        Json::Object(obj) => {
            let mut entries: Vec<(&String, &Json)> = obj.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            let parts: Vec<String> = entries
                .into_iter()
                .map(|(k, v)| format!("{k}:{}", format_arg_value(v)))
                .collect();
            format!("{{{}}}", parts.join(","))
        }
    }
}
