//! `gemma4.go`: the `gemma4`, `gemma4-small` and `gemma4-large` renderers
//! (`<|turn>` markers, `<|"|>` string delimiters, `<|tool>` declarations in
//! Gemma's own schema syntax).
//!
//! The Go code walks schemas as untyped Go values (`map[string]any` built
//! from tool properties, decoded request JSON, `[]string`); [`Sv`] is that
//! value space.

use std::borrow::Cow;
use std::collections::BTreeMap;

use crate::api::{Message, Think, Tool, ToolCall, ToolProperty};
use serde_json::Value as Json;

use super::text::{content_with_image_tags, int_or_float, sprint_json, to_upper, trim_space};

/// The BOS the Gemma renderers write first (`LeadingBOS`).
pub(crate) const BOS: &str = "<bos>";

/// Gemma 4's string delimiter.
const Q: &str = "<|\"|>";

/// `Gemma4Renderer.Render` with `useImgTags`; `empty_block_on_nothink` is
/// the `gemma4-large` configuration.
pub(crate) fn render(
    empty_block_on_nothink: bool,
    messages: &[Message],
    tools: &[Tool],
    think: Option<&Think>,
    rules: &changes::Rules,
) -> String {
    let null = &Nil(rules);
    let mut sb = String::from(BOS);
    let mut image_offset = 0;

    let (system, loop_messages, has_system_role) = match messages.split_first() {
        Some((first, rest)) if first.role == "system" || first.role == "developer" => {
            (first.content.as_str(), rest, true)
        }
        _ => ("", messages, false),
    };

    let has_think = think.is_some_and(Think::as_bool);
    if has_system_role || !tools.is_empty() || has_think {
        sb.push_str("<|turn>system\n");
        if has_think {
            sb.push_str("<|think|>\n");
        }
        sb.push_str(trim_space(system));
        for tool in tools {
            sb.push_str(&render_tool_declaration(tool, null));
        }
        sb.push_str("<turn|>\n");
    }

    let last_user_idx = loop_messages.iter().rposition(|m| m.role == "user");

    let mut prev_message_type = "";
    let mut prev_non_tool_role = "";

    // Tool messages are folded into the preceding assistant turn, and
    // adjacent assistant messages continue the same model turn.
    for (i, message) in loop_messages.iter().enumerate() {
        if message.role == "tool" {
            continue;
        }
        prev_message_type = "";
        let role = if message.role == "assistant" {
            "model"
        } else {
            message.role.as_str()
        };

        if !(role == "model" && prev_non_tool_role == "assistant") {
            sb.push_str("<|turn>");
            sb.push_str(role);
            sb.push('\n');
        }

        if message.role == "assistant"
            && !message.thinking.is_empty()
            && last_user_idx.is_none_or(|u| i > u)
            // before 0.32.1, only a turn with tool calls wrote its thinking
            && (!message.tool_calls.is_empty()
                || rules.on(&changes::ollama::GEMMA4_THINKING_CUES))
        {
            sb.push_str("<|channel>thought\n");
            sb.push_str(&message.thinking);
            sb.push_str("\n<channel|>");
        }

        if !message.tool_calls.is_empty() {
            for call in &message.tool_calls {
                sb.push_str(&format_tool_call(call, null));
            }
            prev_message_type = "tool_call";
        }

        let mut tool_responses_emitted = false;
        if !message.tool_calls.is_empty() {
            for response in loop_messages[i + 1..]
                .iter()
                .take_while(|m| m.role == "tool")
            {
                let content =
                    render_content(&response.content, response.images.len(), &mut image_offset);
                let name = tool_response_name(response, &message.tool_calls);
                sb.push_str(&format!(
                    "<|tool_response>response:{name}{{value:{Q}{content}{Q}}}<tool_response|>"
                ));
                tool_responses_emitted = true;
                prev_message_type = "tool_response";
            }
        }

        let mut had_content = false;
        if role == "model" {
            if !message.content.is_empty() || !message.images.is_empty() {
                let content = strip_thinking(&message.content);
                sb.push_str(&render_content(
                    &content,
                    message.images.len(),
                    &mut image_offset,
                ));
                had_content = has_content(&content, message.images.len());
            }
        } else {
            let content = trim_space(&message.content);
            sb.push_str(&render_content(
                content,
                message.images.len(),
                &mut image_offset,
            ));
            had_content = has_content(content, message.images.len());
        }

        let next_non_tool_role = loop_messages[i + 1..]
            .iter()
            .find(|m| m.role != "tool")
            .map_or("", |m| m.role.as_str());
        let continues_into_next = role == "model"
            && next_non_tool_role == "assistant"
            && (message.tool_calls.is_empty() || tool_responses_emitted);
        if prev_message_type == "tool_call" && !tool_responses_emitted {
            sb.push_str("<|tool_response>");
        } else {
            let close = !(continues_into_next
                || (tool_responses_emitted && !had_content && next_non_tool_role.is_empty()));
            // before 0.32.1: every turn closed but a tool-call turn without
            // content, wherever the next message went
            let close_before = !tool_responses_emitted || had_content;
            let close = if close == close_before
                || rules.on(&changes::ollama::GEMMA4_MODEL_TURN_STRUCTURE)
            {
                close
            } else {
                close_before
            };
            if close {
                sb.push_str("<turn|>\n");
            }
        }

        prev_non_tool_role = &message.role;
    }

    // Generation prompt.
    if prev_message_type != "tool_response" && prev_message_type != "tool_call" {
        sb.push_str("<|turn>model\n");
        if empty_block_on_nothink && !has_think {
            sb.push_str("<|channel>thought\n<channel|>");
        }
    } else if prev_message_type == "tool_response"
        && has_think
        && rules.on(&changes::ollama::GEMMA4_THINKING_CUES)
    {
        sb.push_str("<|channel>thought\n");
    }
    sb
}

/// How a nil value prints in a tool call's arguments or a tool's schema:
/// `null`, or Go's `%v` (`<nil>`) before `gemma4_null_values`.
struct Nil<'r>(&'r changes::Rules);

impl Nil<'_> {
    fn text(&self) -> &'static str {
        if self.0.on(&changes::ollama::GEMMA4_NULL_VALUES) {
            "null"
        } else {
            "<nil>"
        }
    }
}

/// `stripThinking`: removes `<|channel>…<channel|>` blocks (and everything
/// after an unclosed one), then trims.
fn strip_thinking(text: &str) -> String {
    let mut result = String::new();
    let mut text = text;
    loop {
        let Some(start) = text.find("<|channel>") else {
            result.push_str(text);
            break;
        };
        result.push_str(&text[..start]);
        let Some(end) = text[start..].find("<channel|>") else {
            break;
        };
        text = &text[start + end + "<channel|>".len()..];
    }
    trim_space(&result).to_string()
}

/// `renderContent`: the content with `[img-N]` tags (callers trim it
/// first where Go does).
fn render_content(content: &str, images: usize, image_offset: &mut usize) -> String {
    if images == 0 {
        return content.to_string();
    }
    let (content, next) = content_with_image_tags(content, images, *image_offset);
    *image_offset = next;
    content
}

/// `messageHasContent`.
fn has_content(content: &str, images: usize) -> bool {
    !trim_space(content).is_empty() || images > 0
}

/// `toolResponseName`: the name of the call the response answers.
fn tool_response_name<'a>(message: &'a Message, calls: &'a [ToolCall]) -> &'a str {
    let mut name = if message.tool_name.is_empty() {
        "unknown"
    } else {
        message.tool_name.as_str()
    };
    if !message.tool_call_id.is_empty() {
        if let Some(call) = calls.iter().find(|c| c.id == message.tool_call_id) {
            name = &call.function.name;
        }
    }
    name
}

/// `renderToolDeclaration`.
fn render_tool_declaration(tool: &Tool, null: &Nil) -> String {
    let f = &tool.function;
    let params = &f.parameters;
    let mut sb = format!(
        "<|tool>declaration:{}{{description:{Q}{}{Q}",
        f.name, f.description
    );
    if params.properties.is_some() || !params.type_.is_empty() {
        sb.push_str(",parameters:{");
        let mut needs_comma = false;
        if let Some(props) = params.properties.as_ref().filter(|p| !p.is_empty()) {
            sb.push_str("properties:{");
            write_schema_properties(&mut sb, &typed_properties_map(props), null);
            sb.push('}');
            needs_comma = true;
        }
        if let Some(required) = params.required.as_ref().filter(|r| !r.is_empty()) {
            if needs_comma {
                sb.push(',');
            }
            write_quoted_list(&mut sb, "required", required.iter().map(String::as_str));
            needs_comma = true;
        }
        if !params.type_.is_empty() {
            if needs_comma {
                sb.push(',');
            }
            sb.push_str(&format!("type:{Q}{}{Q}", to_upper(&params.type_)));
        }
        sb.push('}');
    }
    sb.push_str("}<tool|>");
    sb
}

/// `name:[<|"|>a<|"|>,<|"|>b<|"|>]`
fn write_quoted_list<'s>(sb: &mut String, name: &str, items: impl Iterator<Item = &'s str>) {
    sb.push_str(name);
    sb.push_str(":[");
    for (i, item) in items.enumerate() {
        if i > 0 {
            sb.push(',');
        }
        sb.push_str(Q);
        sb.push_str(item);
        sb.push_str(Q);
    }
    sb.push(']');
}

/// A Go value as the schema walk sees it.
#[derive(Clone, Debug)]
enum Sv<'a> {
    /// A value decoded from the request into `any`.
    Json(&'a Json),
    /// A Go `string` built by the renderer.
    Str(String),
    /// A `[]string`.
    Strings(Vec<String>),
    /// `ToolProperty.Enum`, a `[]any`.
    Enum(&'a Vec<Json>),
    /// A `map[string]any` built by the renderer.
    Map(SchemaMap<'a>),
    /// A `*api.ToolPropertiesMap`.
    Props(&'a [(String, ToolProperty)]),
}

/// A `map[string]any`; Go sorts its keys wherever it is walked.
type SchemaMap<'a> = BTreeMap<String, Sv<'a>>;

impl Sv<'_> {
    fn is_nil(&self) -> bool {
        matches!(self, Sv::Json(Json::Null))
    }

    /// A `.(string)` assertion.
    fn as_str(&self) -> Option<&str> {
        match self {
            Sv::Str(s) => Some(s),
            Sv::Json(Json::String(s)) => Some(s),
            _ => None,
        }
    }
}

/// `typedSchemaPropertiesMap`.
fn typed_properties_map(props: &[(String, ToolProperty)]) -> SchemaMap<'_> {
    props
        .iter()
        .map(|(k, p)| (k.clone(), Sv::Map(top_level_typed_schema_value(p))))
        .collect()
}

/// `topLevelTypedSchemaValueFromToolProperty`: several types become the
/// string `['STRING', 'NULL']`, as upstream's template prints them.
fn top_level_typed_schema_value(prop: &ToolProperty) -> SchemaMap<'_> {
    let mut out = SchemaMap::new();
    if !prop.type_.is_empty() {
        out.insert("type".into(), Sv::Str(upstream_typed_type(&prop.type_)));
    } else if let Some(types) = simple_any_of_types(prop) {
        out.insert("type".into(), Sv::Str(upstream_typed_type(&types)));
    }
    insert_common(&mut out, prop);
    if let Some(props) = &prop.properties {
        out.insert("properties".into(), Sv::Map(typed_properties_map(props)));
    }
    out
}

/// `schemaValueFromToolProperty`.
fn schema_value(prop: &ToolProperty) -> SchemaMap<'_> {
    let mut out = SchemaMap::new();
    let types = if prop.type_.is_empty() {
        simple_any_of_types(prop)
    } else {
        Some(prop.type_.clone())
    };
    match types {
        Some(mut types) if types.len() == 1 => {
            out.insert("type".into(), Sv::Str(types.remove(0)));
        }
        Some(types) => {
            out.insert("type".into(), Sv::Strings(types));
        }
        None => {}
    }
    insert_common(&mut out, prop);
    if let Some(props) = &prop.properties {
        out.insert("properties".into(), Sv::Props(props));
    }
    out
}

/// The description, enum, items and required entries both conversions
/// share.
fn insert_common<'a>(out: &mut SchemaMap<'a>, prop: &'a ToolProperty) {
    if !prop.description.is_empty() {
        out.insert("description".into(), Sv::Str(prop.description.clone()));
    }
    if let Some(values) = prop.enum_.as_ref().filter(|e| !e.is_empty()) {
        out.insert("enum".into(), Sv::Enum(values));
    }
    if let Some(items) = prop.items.as_ref().filter(|v| !v.is_null()) {
        out.insert("items".into(), Sv::Json(items));
    }
    if let Some(required) = prop.required.as_ref().filter(|r| !r.is_empty()) {
        out.insert("required".into(), Sv::Strings(required.clone()));
    }
}

/// `upstreamTypedPropertyTypeValue`.
fn upstream_typed_type(types: &[String]) -> String {
    if let [one] = types {
        return one.clone();
    }
    let quoted: Vec<String> = types.iter().map(|t| format!("'{}'", to_upper(t))).collect();
    format!("[{}]", quoted.join(", "))
}

/// `simpleAnyOfTypes`: the union of `anyOf` branches that are bare types.
fn simple_any_of_types(prop: &ToolProperty) -> Option<Vec<String>> {
    if prop.any_of.is_empty() {
        return None;
    }
    let mut out: Vec<String> = Vec::new();
    for branch in &prop.any_of {
        if !is_bare_type_only(branch) {
            return None;
        }
        for t in &branch.type_ {
            if !out.contains(t) {
                out.push(t.clone());
            }
        }
    }
    (!out.is_empty()).then_some(out)
}

/// `isBareTypeOnlyToolProperty`.
fn is_bare_type_only(p: &ToolProperty) -> bool {
    p.any_of.is_empty()
        && !p.type_.is_empty()
        && p.items.as_ref().is_none_or(Json::is_null)
        && p.description.is_empty()
        && p.enum_.as_ref().is_none_or(Vec::is_empty)
        && p.properties.is_none()
        && p.required.as_ref().is_none_or(Vec::is_empty)
}

fn is_schema_standard_key(key: &str) -> bool {
    matches!(
        key,
        "description" | "type" | "properties" | "required" | "nullable"
    )
}

/// `asSchemaMap`.
fn as_schema_map<'m, 'a>(value: Option<&'m Sv<'a>>) -> Option<Cow<'m, SchemaMap<'a>>> {
    match value? {
        Sv::Map(m) => Some(Cow::Borrowed(m)),
        Sv::Json(Json::Object(obj)) => Some(Cow::Owned(
            obj.iter().map(|(k, v)| (k.clone(), Sv::Json(v))).collect(),
        )),
        Sv::Props(props) => Some(Cow::Owned(
            props
                .iter()
                .map(|(k, p)| (k.clone(), Sv::Map(schema_value(p))))
                .collect(),
        )),
        _ => None,
    }
}

/// A `[]any`: decoded JSON list or an enum.
fn any_list<'b>(value: Option<&'b Sv>) -> Option<&'b [Json]> {
    match value? {
        Sv::Json(Json::Array(items)) => Some(items),
        Sv::Enum(items) => Some(items),
        _ => None,
    }
}

/// `normalizeTypeNames`: upper-cased type names.
fn normalize_type_names(value: Option<&Sv>) -> Vec<String> {
    match value {
        Some(Sv::Str(s)) | Some(Sv::Json(Json::String(s))) => vec![to_upper(s)],
        Some(Sv::Strings(v)) => v.iter().map(|s| to_upper(s)).collect(),
        _ => any_list(value).map_or_else(Vec::new, |items| {
            items
                .iter()
                .filter_map(Json::as_str)
                .map(to_upper)
                .collect()
        }),
    }
}

/// `normalizeStringSlice`.
fn normalize_string_slice(value: Option<&Sv>) -> Vec<String> {
    match value {
        Some(Sv::Strings(v)) => v.clone(),
        _ => any_list(value).map_or_else(Vec::new, |items| {
            items
                .iter()
                .filter_map(Json::as_str)
                .map(str::to_string)
                .collect()
        }),
    }
}

/// `normalizeSlice`, each element printed with `%v`.
fn normalize_slice_printed(value: Option<&Sv>) -> Vec<String> {
    match value {
        Some(Sv::Strings(v)) => v.clone(),
        _ => any_list(value).map_or_else(Vec::new, |items| items.iter().map(sprint_json).collect()),
    }
}

/// `type:<|"|>T<|"|>` or `type:[…]`; nothing for no types.
fn write_type_names(sb: &mut String, names: &[String]) {
    match names {
        [] => {}
        [one] => sb.push_str(&format!("type:{Q}{one}{Q}")),
        _ => write_quoted_list(sb, "type", names.iter().map(String::as_str)),
    }
}

/// `writeSchemaItemsSpec`: an array's items schema, keys sorted.
fn write_schema_items_spec(sb: &mut String, items: &SchemaMap, null: &Nil) {
    let mut first = true;
    for (key, value) in items {
        if value.is_nil() {
            continue;
        }
        if !first {
            sb.push(',');
        }
        first = false;
        match key.as_str() {
            "properties" => {
                sb.push_str("properties:{");
                if let Some(props) = as_schema_map(Some(value)) {
                    write_schema_properties(sb, &props, null);
                }
                sb.push('}');
            }
            "required" => {
                let required = normalize_string_slice(Some(value));
                write_quoted_list(sb, "required", required.iter().map(String::as_str));
            }
            "type" => write_type_names(sb, &normalize_type_names(Some(value))),
            _ => {
                sb.push_str(key);
                sb.push(':');
                sb.push_str(&format_schema_value(value, null));
            }
        }
    }
}

/// `writeSchemaProperties`: each property as `name:{…}`, names sorted,
/// names that are schema keywords skipped.
fn write_schema_properties(sb: &mut String, props: &SchemaMap, null: &Nil) {
    let mut first = true;
    for (name, value) in props {
        if is_schema_standard_key(name) {
            continue;
        }
        let Some(prop) = as_schema_map(Some(value)) else {
            continue;
        };
        if !first {
            sb.push(',');
        }
        first = false;
        sb.push_str(name);
        sb.push_str(":{");

        let mut sep = Separator::default();
        if let Some(description) = prop
            .get("description")
            .and_then(Sv::as_str)
            .filter(|d| !d.is_empty())
        {
            sb.push_str(&format!("description:{Q}{description}{Q}"));
            sep.0 = true;
        }

        let type_names = normalize_type_names(prop.get("type"));
        let type_name = type_names.first().map_or("", String::as_str);
        match type_name {
            "STRING" => {
                let values = normalize_slice_printed(prop.get("enum"));
                if !values.is_empty() {
                    sep.next(sb);
                    write_quoted_list(sb, "enum", values.iter().map(String::as_str));
                }
            }
            "ARRAY" => {
                if let Some(items) = as_schema_map(prop.get("items")).filter(|m| !m.is_empty()) {
                    sep.next(sb);
                    sb.push_str("items:{");
                    write_schema_items_spec(sb, &items, null);
                    sb.push('}');
                }
            }
            _ => {}
        }

        if matches!(prop.get("nullable"), Some(Sv::Json(Json::Bool(true)))) {
            sep.next(sb);
            sb.push_str("nullable:true");
        }

        if type_name == "OBJECT" {
            sep.next(sb);
            sb.push_str("properties:{");
            match as_schema_map(prop.get("properties")) {
                Some(nested) => write_schema_properties(sb, &nested, null),
                None => write_schema_properties(sb, &prop, null),
            }
            sb.push('}');
            let required = normalize_string_slice(prop.get("required"));
            if !required.is_empty() {
                sep.next(sb);
                write_quoted_list(sb, "required", required.iter().map(String::as_str));
            }
        }

        if !type_names.is_empty() {
            sep.next(sb);
            write_type_names(sb, &type_names);
        }
        sb.push('}');
    }
}

/// Go's `addComma` flag: a comma before every field but the first.
#[derive(Default)]
struct Separator(bool);

impl Separator {
    fn next(&mut self, sb: &mut String) {
        if self.0 {
            sb.push(',');
        }
        self.0 = true;
    }
}

/// `formatSchemaValue`: schema literals, strings delimited, map keys
/// delimited and sorted.
fn format_schema_value(value: &Sv, null: &Nil) -> String {
    match value {
        Sv::Json(v) => format_schema_json(v, null),
        Sv::Str(s) => format!("{Q}{s}{Q}"),
        Sv::Strings(items) => {
            let parts: Vec<String> = items.iter().map(|s| format!("{Q}{s}{Q}")).collect();
            format!("[{}]", parts.join(","))
        }
        Sv::Enum(items) => {
            let parts: Vec<String> = items.iter().map(|v| format_schema_json(v, null)).collect();
            format!("[{}]", parts.join(","))
        }
        Sv::Map(m) => {
            let parts: Vec<String> = m
                .iter()
                .map(|(k, v)| format!("{Q}{k}{Q}:{}", format_schema_value(v, null)))
                .collect();
            format!("{{{}}}", parts.join(","))
        }
        // Go prints the map's pointer here; no schema the renderer builds
        // puts a properties map where a literal is printed.
        Sv::Props(_) => String::new(),
    }
}

fn format_schema_json(v: &Json, null: &Nil) -> String {
    match v {
        Json::Null => null.text().to_string(),
        Json::String(s) => format!("{Q}{s}{Q}"),
        Json::Bool(b) => b.to_string(),
        Json::Number(n) => int_or_float(super::text::json_f64(n)),
        Json::Array(items) => {
            let parts: Vec<String> = items.iter().map(|v| format_schema_json(v, null)).collect();
            format!("[{}]", parts.join(","))
        }
        Json::Object(obj) => {
            let mut entries: Vec<(&String, &Json)> = obj.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            let parts: Vec<String> = entries
                .into_iter()
                .map(|(k, v)| format!("{Q}{k}{Q}:{}", format_schema_json(v, null)))
                .collect();
            format!("{{{}}}", parts.join(","))
        }
    }
}

/// `formatToolCall`: `<|tool_call>call:name{k:v,…}<tool_call|>`, keys
/// sorted.
fn format_tool_call(call: &ToolCall, null: &Nil) -> String {
    let mut args: Vec<(&String, &Json)> = call.function.arguments.iter().flatten().collect();
    args.sort_by(|a, b| a.0.cmp(b.0));
    let parts: Vec<String> = args
        .into_iter()
        .map(|(k, v)| format!("{k}:{}", format_arg_value(v, null)))
        .collect();
    format!(
        "<|tool_call>call:{}{{{}}}<tool_call|>",
        call.function.name,
        parts.join(",")
    )
}

/// `formatArgValue`.
fn format_arg_value(v: &Json, null: &Nil) -> String {
    match v {
        Json::Null => null.text().to_string(),
        Json::String(s) => format!("{Q}{s}{Q}"),
        Json::Bool(b) => b.to_string(),
        Json::Number(n) => int_or_float(super::text::json_f64(n)),
        Json::Array(items) => {
            let parts: Vec<String> = items.iter().map(|v| format_arg_value(v, null)).collect();
            format!("[{}]", parts.join(","))
        }
        Json::Object(obj) => {
            let mut entries: Vec<(&String, &Json)> = obj.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            let parts: Vec<String> = entries
                .into_iter()
                .map(|(k, v)| format!("{k}:{}", format_arg_value(v, null)))
                .collect();
            format!("{{{}}}", parts.join(","))
        }
    }
}
