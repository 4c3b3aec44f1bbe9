//! `glimmer.go`: the `glimmer` renderer (`<|start|>header<|message|>`
//! turns, `<atem:function_calls>` tool calls, reasoning strength).

use crate::api::{Message, Think, Tool, ToolCall};
use serde_json::Value as Json;

use super::json;
use super::text::{content_with_image_tags, sprint_json, to_lower};

/// The BOS the renderer writes first (`LeadingBOS`).
pub(crate) const BOS: &str = "<|begin_of_text|>";

const START: &str = "<|start|>";
const MESSAGE: &str = "<|message|>";
const END_MESSAGE: &str = "<|eom|>";
const END_TURN: &str = "<|eot|>";
const DEFAULT_SYSTEM: &str = "You are a helpful AI assistant.";
const KNOWLEDGE_CUTOFF: &str = "2026-01-04";

const TOOL_DEFINITIONS_PREFIX: &str = "In this environment you have access to a set of tools you can use to answer the user's question.

You can invoke a function by writing a \"<atem:function_calls>\" block like the following:
<atem:function_calls>
<atem:invoke name=\"$FUNCTION_NAME\">
<atem:parameter name=\"$PARAMETER_NAME\">$PARAMETER_VALUE</atem:parameter>
...
</atem:invoke>
</atem:function_calls>

String and scalar parameters should be specified as is, while lists and objects should use JSON format. Note that spaces for string values are not stripped. The output is not expected to be valid XML and is parsed with regular expressions.
Here are the functions available in JSONSchema format:
// Tool metadata
";

const TOOL_DEFINITIONS_SUFFIX: &str = "

Here's an example of how to call a function in the tool set:
(If the tool namespace is not specified, invoke the function directly as `example_function_name` rather than `example_tool_name.example_function_name`)

to=example_tool_name.example_function_name

<atem:function_calls>
<atem:invoke name=\"example_tool_name.example_function_name\">
<atem:parameter name=\"example_parameter_1\">value_1</atem:parameter>
<atem:parameter name=\"example_parameter_2\">This is the value for the second parameter
that can span
\"multiple\" lines
</atem:parameter>
</atem:invoke>
</atem:function_calls>";

/// `glimmerReasoningStrength`.
fn reasoning_strength(think: Option<&Think>) -> String {
    match think {
        None => "high".into(),
        Some(t) if !t.as_bool() => "none".into(),
        Some(Think::Level(level)) => level.clone(),
        Some(Think::Bool(_)) => "high".into(),
    }
}

/// `glimmerSystemReasoningReplacer`: "Reasoning effort" becomes
/// "Reasoning strength" in four casings, left to right.
fn normalize_system_reasoning(content: &str) -> String {
    const PAIRS: [(&str, &str); 4] = [
        ("Reasoning effort", "Reasoning strength"),
        ("Reasoning Effort", "Reasoning Strength"),
        ("reasoning effort", "reasoning strength"),
        ("REASONING EFFORT", "REASONING STRENGTH"),
    ];
    let mut out = String::with_capacity(content.len());
    let mut rest = content;
    'scan: while let Some(c) = rest.chars().next() {
        for (old, new) in PAIRS {
            if let Some(after) = rest.strip_prefix(old) {
                out.push_str(new);
                rest = after;
                continue 'scan;
            }
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

fn has_system_reasoning(content: &str) -> bool {
    to_lower(content).contains("reasoning strength")
}

/// `glimmerNamespace`: the part before the first `.`.
fn namespace(name: &str) -> &str {
    name.split_once('.').map_or(name, |(ns, _)| ns)
}

/// `glimmerNamespaces`: distinct namespaces in order.
fn namespaces(tools: &[Tool]) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    for tool in tools {
        let ns = namespace(&tool.function.name);
        if !out.contains(&ns) {
            out.push(ns);
        }
    }
    out
}

/// `glimmerJSON` of a string: Transformers' `tojson` (no HTML escaping).
fn json_string(s: &str) -> String {
    let mut out = String::new();
    json::write_string(&mut out, s, false);
    out
}

/// `writeGlimmerToolDefinitions`.
fn write_tool_definitions(sb: &mut String, tools: &[Tool]) {
    sb.push_str(TOOL_DEFINITIONS_PREFIX);
    for ns in namespaces(tools) {
        sb.push_str(&format!(
            "{{\"name\": {}, \"description\": \"\"}}\n",
            json_string(ns)
        ));
    }
    sb.push_str("// Function schemas");
    for tool in tools {
        let f = &tool.function;
        sb.push_str(&format!(
            "\n{{\"name\": {}, \"description\": {}, \"parameters\": {}}}",
            json_string(&f.name),
            json_string(&f.description),
            json::add_spaces(&json::params(&f.parameters, false))
        ));
    }
    sb.push_str(TOOL_DEFINITIONS_SUFFIX);
}

/// `writeGlimmerSystemMeta`: the valid recipients.
fn write_system_meta(sb: &mut String, tools: &[Tool]) {
    sb.push_str("# Valid recipients: \"self\"");
    for ns in namespaces(tools) {
        sb.push_str(&format!(", \"{ns}.*\""));
    }
    sb.push_str(", \"user\".");
}

/// `writeGlimmerSystem`; `today` is `Some` for the default system message.
fn write_system(
    sb: &mut String,
    content: &str,
    tools: &[Tool],
    strength: &str,
    today: Option<&str>,
    rules: &changes::Rules,
) {
    // a client's system message: normalized, and its own strength kept
    // (`glimmer_system_reasoning`, asked only where it changes something)
    let own = today.is_none() && {
        let normalized = normalize_system_reasoning(content);
        (normalized != content || has_system_reasoning(&normalized))
            && rules.on(&changes::ollama::GLIMMER_SYSTEM_REASONING)
    };
    let content = if own {
        normalize_system_reasoning(content)
    } else {
        content.to_string()
    };
    write_message_start(sb, "system");
    sb.push_str(&content);
    if let Some(today) = today {
        sb.push_str(&format!(
            "\nKnowledge cutoff: {KNOWLEDGE_CUTOFF}.\nCurrent date: {today}."
        ));
    }
    if !own || !has_system_reasoning(&content) {
        sb.push_str(&format!("\n\nReasoning strength: {strength}."));
    }
    if !tools.is_empty() {
        sb.push_str("\n\n");
        write_tool_definitions(sb, tools);
    }
    sb.push_str("\n\n");
    write_system_meta(sb, tools);
    sb.push_str(END_TURN);
}

fn write_message_start(sb: &mut String, header: &str) {
    sb.push_str(START);
    sb.push_str(header);
    sb.push_str(MESSAGE);
}

fn write_message(sb: &mut String, header: &str, content: &str, end: &str) {
    write_message_start(sb, header);
    sb.push_str(content);
    sb.push_str(end);
}

/// `glimmerToolResultName`: the tool name, else the name of the last call
/// whose id matches, else the id.
fn tool_result_name<'a>(message: &'a Message, messages: &'a [Message]) -> &'a str {
    if !message.tool_name.is_empty() {
        return &message.tool_name;
    }
    if message.tool_call_id.is_empty() {
        return "";
    }
    messages
        .iter()
        .flat_map(|m| &m.tool_calls)
        .rev()
        .find(|c| c.id == message.tool_call_id)
        .map_or(&message.tool_call_id, |c| &c.function.name)
}

/// `writeGlimmerATEM`: one call as an `<atem:function_calls>` block.
fn write_atem(sb: &mut String, call: &ToolCall) {
    sb.push_str("<atem:function_calls>\n<atem:invoke name=\"");
    sb.push_str(&call.function.name);
    sb.push_str("\">\n");
    for (name, value) in call.function.arguments.iter().flatten() {
        sb.push_str("<atem:parameter name=\"");
        sb.push_str(name);
        sb.push_str("\">");
        match value {
            Json::Null => sb.push_str("null"),
            Json::Array(_) | Json::Object(_) => {
                sb.push_str(&json::add_spaces(&json::any_unescaped(value)))
            }
            v => sb.push_str(&sprint_json(v)),
        }
        sb.push_str("</atem:parameter>\n");
    }
    sb.push_str("</atem:invoke>\n</atem:function_calls>");
}

/// `GlimmerRenderer.Render` with `useImgTags`; `today` is the server's date
/// (`YYYY-MM-DD`), printed when there is no system message.
pub(crate) fn render(
    messages: &[Message],
    tools: &[Tool],
    think: Option<&Think>,
    today: &str,
    rules: &changes::Rules,
) -> String {
    let mut sb = String::from(BOS);
    let strength = reasoning_strength(think);
    if !messages.iter().any(|m| m.role == "system") {
        write_system(
            &mut sb,
            DEFAULT_SYSTEM,
            tools,
            &strength,
            Some(today),
            rules,
        );
    }

    let mut image_offset = 0;
    for (i, message) in messages.iter().enumerate() {
        let (content, next) =
            content_with_image_tags(&message.content, message.images.len(), image_offset);
        image_offset = next;
        let end = if messages.get(i + 1).is_some_and(|m| m.role == message.role) {
            END_MESSAGE
        } else {
            END_TURN
        };
        match message.role.as_str() {
            "system" => write_system(&mut sb, &content, tools, &strength, None, rules),
            "user" => write_message(&mut sb, "user", &content, END_TURN),
            "tool" => {
                let name = tool_result_name(message, messages);
                write_message_start(&mut sb, &format!("tool {name}"));
                sb.push_str(&format!(
                    "<tool_output name=\"{name}\">\n{content}\n</tool_output>"
                ));
                sb.push_str(END_TURN);
            }
            "assistant" => {
                if !message.thinking.is_empty() {
                    write_message(&mut sb, "assistant to=self", &message.thinking, END_MESSAGE);
                }
                if !message.tool_calls.is_empty() {
                    for (j, call) in message.tool_calls.iter().enumerate() {
                        write_message_start(
                            &mut sb,
                            &format!("assistant to={}", call.function.name),
                        );
                        write_atem(&mut sb, call);
                        sb.push_str(if j + 1 == message.tool_calls.len() {
                            end
                        } else {
                            END_MESSAGE
                        });
                    }
                } else if !content.is_empty() || message.thinking.is_empty() {
                    write_message(&mut sb, "assistant to=user", &content, END_TURN);
                }
            }
            _ => {}
        }
    }

    sb.push_str(START);
    sb.push_str("assistant");
    sb
}
