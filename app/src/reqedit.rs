//! The request form's edits, on the parsed request body: messages, roles,
//! tool calls, images, think, `num_ctx`, generate's fields, and the JSON
//! sub-editors for `messages`, `tools` and `options`.

use serde_json::{json, Map, Value};

use crate::state::Endpoint;

/// The `think` choices the form offers (`""` = unset).
pub const THINK_CHOICES: [&str; 7] = ["", "true", "false", "low", "medium", "high", "max"];

/// The roles the form offers.
pub const ROLES: [&str; 4] = ["system", "user", "assistant", "tool"];

/// The roles of OpenAI's chat completions.
pub const OPENAI_ROLES: [&str; 5] = ["system", "developer", "user", "assistant", "tool"];

/// The roles of Anthropic's Messages (the system prompt is `system`).
pub const ANTHROPIC_ROLES: [&str; 2] = ["user", "assistant"];

/// The roles the form offers for a body sent to `endpoint`.
pub fn roles(endpoint: Endpoint) -> &'static [&'static str] {
    match endpoint {
        Endpoint::OpenAiChat => &OPENAI_ROLES,
        Endpoint::AnthropicMessages => &ANTHROPIC_ROLES,
        _ => &ROLES,
    }
}

/// The body key of the largest number of tokens to generate, for a
/// compatibility route (`max_tokens`, or the Responses API's
/// `max_output_tokens`); `None` for the native endpoints (`num_predict`
/// is an option there).
pub fn max_tokens_key(endpoint: Endpoint) -> Option<&'static str> {
    match endpoint {
        Endpoint::Chat
        | Endpoint::Generate
        | Endpoint::Embed
        | Endpoint::Embeddings
        | Endpoint::OpenAiEmbeddings => None,
        Endpoint::OpenAiResponses => Some("max_output_tokens"),
        _ => Some("max_tokens"),
    }
}

/// A 1×1 transparent PNG, base64: the placeholder image the form attaches.
pub const PLACEHOLDER_IMAGE: &str =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAAC0lEQVR42mNgAAIAAAUAAen63NgAAAAASUVORK5CYII=";

fn obj(body: &mut Value) -> &mut Map<String, Value> {
    if !body.is_object() {
        *body = json!({});
    }
    body.as_object_mut().expect("object")
}

/// `think` as one of [`THINK_CHOICES`] (another value as its JSON text).
pub fn think(body: &Value) -> String {
    match body.get("think") {
        None | Some(Value::Null) => String::new(),
        Some(Value::Bool(b)) => b.to_string(),
        Some(Value::String(s)) => s.clone(),
        Some(v) => v.to_string(),
    }
}

/// Sets `think`: `""` removes it, `true`/`false` are booleans, levels are strings.
pub fn set_think(body: &mut Value, choice: &str) {
    let o = obj(body);
    match choice {
        "" => {
            o.remove("think");
        }
        "true" => {
            o.insert("think".into(), json!(true));
        }
        "false" => {
            o.insert("think".into(), json!(false));
        }
        level => {
            o.insert("think".into(), json!(level));
        }
    }
}

/// `options.num_ctx` as text (empty when unset).
pub fn num_ctx(body: &Value) -> String {
    match body.get("options").and_then(|o| o.get("num_ctx")) {
        None | Some(Value::Null) => String::new(),
        Some(v) => v.to_string(),
    }
}

/// Sets `options.num_ctx`; `None` removes it (and `options` when it empties).
pub fn set_num_ctx(body: &mut Value, n: Option<u64>) {
    let o = obj(body);
    match n {
        Some(n) => {
            let options = o.entry("options").or_insert_with(|| json!({}));
            if !options.is_object() {
                *options = json!({});
            }
            options
                .as_object_mut()
                .expect("object")
                .insert("num_ctx".into(), json!(n));
        }
        None => {
            if let Some(Value::Object(options)) = o.get_mut("options") {
                options.remove("num_ctx");
                if options.is_empty() {
                    o.remove("options");
                }
            }
        }
    }
}

/// A string field (`model`, `prompt`, `system`, `suffix`, `template`).
pub fn str_field(body: &Value, key: &str) -> String {
    body.get(key)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
}

/// Sets a string field; empty removes it (`model` is kept even when empty).
pub fn set_str_field(body: &mut Value, key: &str, value: &str) {
    let o = obj(body);
    if value.is_empty() && key != "model" {
        o.remove(key);
    } else {
        o.insert(key.into(), json!(value));
    }
}

/// A whole-number field (`max_tokens`) as text (empty when unset).
pub fn num_field(body: &Value, key: &str) -> String {
    match body.get(key) {
        None | Some(Value::Null) => String::new(),
        Some(v) => v.to_string(),
    }
}

/// Sets a whole-number field; `None` removes it.
pub fn set_num_field(body: &mut Value, key: &str, n: Option<u64>) {
    let o = obj(body);
    match n {
        Some(n) => {
            o.insert(key.into(), json!(n));
        }
        None => {
            o.remove(key);
        }
    }
}

/// The number of parts of a content list (`content: [{...}, ...]`), 0
/// for a string or anything else.
pub fn parts(v: Option<&Value>) -> usize {
    len_of(v)
}

/// The `type`s of a content list's parts, in order, repeats counted
/// (`text, tool_use`, `tool_result ×2`).
pub fn part_types(v: Option<&Value>) -> String {
    let mut runs: Vec<(String, usize)> = Vec::new();
    for p in v.and_then(Value::as_array).into_iter().flatten() {
        let t = p.get("type").and_then(Value::as_str).unwrap_or("?");
        match runs.last_mut() {
            Some((last, n)) if last == t => *n += 1,
            _ => runs.push((t.to_string(), 1)),
        }
    }
    runs.into_iter()
        .map(|(t, n)| if n > 1 { format!("{t} ×{n}") } else { t })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A boolean field (`raw`).
pub fn bool_field(body: &Value, key: &str) -> bool {
    body.get(key).and_then(Value::as_bool).unwrap_or(false)
}

/// Sets a boolean field; `false` removes it.
pub fn set_bool_field(body: &mut Value, key: &str, value: bool) {
    let o = obj(body);
    if value {
        o.insert(key.into(), json!(true));
    } else {
        o.remove(key);
    }
}

/// An embedding body's `input` as the form edits it: one line per input
/// (a string is one input); `None` when an input is not a one-line string
/// (the JSON editor takes those).
pub fn embed_lines(body: &Value) -> Option<String> {
    match body.get("input") {
        None | Some(Value::Null) => Some(String::new()),
        Some(Value::String(s)) if !s.contains('\n') => Some(s.clone()),
        Some(Value::Array(a)) => {
            let mut lines = Vec::new();
            for x in a {
                match x.as_str() {
                    Some(s) if !s.contains('\n') => lines.push(s),
                    _ => return None,
                }
            }
            Some(lines.join("\n"))
        }
        Some(_) => None,
    }
}

/// Sets `input` to one input per line of `text` (a trailing newline ends
/// the last line, it adds no input).
pub fn set_embed_lines(body: &mut Value, text: &str) {
    let text = text.strip_suffix('\n').unwrap_or(text);
    let lines: Vec<Value> = if text.is_empty() {
        Vec::new()
    } else {
        text.split('\n').map(|l| json!(l)).collect()
    };
    obj(body).insert("input".into(), Value::Array(lines));
}

/// `truncate` as the form shows it: on unless the body says `false`
/// (Ollama's default is to truncate).
pub fn truncate_on(body: &Value) -> bool {
    body.get("truncate").and_then(Value::as_bool) != Some(false)
}

/// Sets `truncate`: off writes `false`, on removes the key.
pub fn set_truncate(body: &mut Value, on: bool) {
    let o = obj(body);
    if on {
        o.remove("truncate");
    } else {
        o.insert("truncate".into(), json!(false));
    }
}

/// What the form shows of one message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MessageRow {
    /// `role`.
    pub role: String,
    /// `content` (text only).
    pub content: String,
    /// Number of `tool_calls`.
    pub tool_calls: usize,
    /// Number of `images`.
    pub images: usize,
    /// Number of parts when `content` is a list (OpenAI's content parts,
    /// Anthropic's blocks); 0 when it is text.
    pub parts: usize,
    /// Their types ([`part_types`]).
    pub part_types: String,
}

fn len_of(v: Option<&Value>) -> usize {
    v.and_then(Value::as_array).map_or(0, Vec::len)
}

/// The messages of a chat body (`None` when `messages` is not a list).
pub fn messages(body: &Value) -> Option<Vec<MessageRow>> {
    let list = match body.get("messages") {
        None | Some(Value::Null) => return Some(Vec::new()),
        Some(Value::Array(a)) => a,
        Some(_) => return None,
    };
    Some(
        list.iter()
            .map(|m| MessageRow {
                role: str_field(m, "role"),
                content: str_field(m, "content"),
                tool_calls: len_of(m.get("tool_calls")),
                images: len_of(m.get("images")),
                parts: len_of(m.get("content")),
                part_types: part_types(m.get("content")),
            })
            .collect(),
    )
}

fn messages_mut(body: &mut Value) -> &mut Vec<Value> {
    let o = obj(body);
    let list = o.entry("messages").or_insert_with(|| json!([]));
    if !list.is_array() {
        *list = json!([]);
    }
    list.as_array_mut().expect("array")
}

fn message_mut(body: &mut Value, i: usize) -> Option<&mut Map<String, Value>> {
    messages_mut(body).get_mut(i)?.as_object_mut()
}

/// Appends `{"role": role, "content": ""}`.
pub fn add_message(body: &mut Value, role: &str) {
    messages_mut(body).push(json!({"role": role, "content": ""}));
}

/// Sets message `i`'s role.
pub fn set_role(body: &mut Value, i: usize, role: &str) {
    if let Some(m) = message_mut(body, i) {
        m.insert("role".into(), json!(role));
    }
}

/// Sets message `i`'s content.
pub fn set_content(body: &mut Value, i: usize, content: &str) {
    if let Some(m) = message_mut(body, i) {
        m.insert("content".into(), json!(content));
    }
}

/// Removes message `i`.
pub fn remove_message(body: &mut Value, i: usize) {
    let list = messages_mut(body);
    if i < list.len() {
        list.remove(i);
    }
}

/// A placeholder for a parameter of JSON-schema type `t`.
fn placeholder(t: Option<&Value>) -> Value {
    let t = match t {
        Some(Value::Array(a)) => a.first().and_then(Value::as_str).unwrap_or("string"),
        Some(Value::String(s)) => s.as_str(),
        _ => "string",
    };
    match t {
        "integer" | "number" => json!(1),
        "boolean" => json!(true),
        "array" => json!([]),
        "object" => json!({}),
        _ => json!("..."),
    }
}

/// The tool call the form adds: the first tool of the request with its
/// required parameters filled with placeholders, or a `get_weather` example.
pub fn sample_tool_call(body: &Value) -> Value {
    let Some(f) = body
        .get("tools")
        .and_then(Value::as_array)
        .and_then(|t| t.first())
        .and_then(|t| t.get("function"))
    else {
        return json!({"function": {"name": "get_weather", "arguments": {"city": "Paris"}}});
    };
    let params = f.get("parameters");
    let props = params.and_then(|p| p.get("properties"));
    let mut args = Map::new();
    let required: Vec<&str> = params
        .and_then(|p| p.get("required"))
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    for name in required {
        let t = props.and_then(|p| p.get(name)).and_then(|p| p.get("type"));
        args.insert(name.to_string(), placeholder(t));
    }
    json!({"function": {"name": str_field(f, "name"), "arguments": args}})
}

/// Adds a tool call to message `i` (an assistant turn).
pub fn add_tool_call(body: &mut Value, i: usize) {
    let call = sample_tool_call(body);
    if let Some(m) = message_mut(body, i) {
        let calls = m.entry("tool_calls").or_insert_with(|| json!([]));
        if !calls.is_array() {
            *calls = json!([]);
        }
        calls.as_array_mut().expect("array").push(call);
    }
}

fn push_image(o: &mut Map<String, Value>) {
    let images = o.entry("images").or_insert_with(|| json!([]));
    if !images.is_array() {
        *images = json!([]);
    }
    images
        .as_array_mut()
        .expect("array")
        .push(json!(PLACEHOLDER_IMAGE));
}

/// Attaches the placeholder image to message `i`, or to a generate body
/// when `i` is `None`.
pub fn attach_image(body: &mut Value, i: Option<usize>) {
    match i {
        Some(i) => {
            if let Some(m) = message_mut(body, i) {
                push_image(m);
            }
        }
        None => push_image(obj(body)),
    }
}

/// Removes every image of a generate body.
pub fn clear_images(body: &mut Value) {
    obj(body).remove("images");
}

/// Number of images of a generate body.
pub fn image_count(body: &Value) -> usize {
    len_of(body.get("images"))
}

/// The pretty JSON text of `body[key]` (empty when absent).
pub fn field_text(body: &Value, key: &str) -> String {
    match body.get(key) {
        None => String::new(),
        Some(v) => crate::state::pretty(v),
    }
}

/// Sets `body[key]` from JSON text; blank text removes the key.
pub fn set_field_from_text(
    body: &mut Value,
    key: &str,
    text: &str,
) -> Result<(), serde_json::Error> {
    if text.trim().is_empty() {
        obj(body).remove(key);
        return Ok(());
    }
    let v: Value = serde_json::from_str(text)?;
    obj(body).insert(key.into(), v);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn think_and_num_ctx() {
        let mut b = json!({"model": "m"});
        for choice in THINK_CHOICES {
            set_think(&mut b, choice);
            assert_eq!(think(&b), choice);
        }
        assert_eq!(b.get("think"), Some(&json!("max")));
        set_think(&mut b, "true");
        assert_eq!(b["think"], json!(true));
        set_num_ctx(&mut b, Some(2048));
        assert_eq!(num_ctx(&b), "2048");
        set_num_ctx(&mut b, None);
        assert!(b.get("options").is_none());
        b["options"] = json!({"temperature": 0, "num_ctx": 8});
        set_num_ctx(&mut b, None);
        assert_eq!(b["options"], json!({"temperature": 0}));
    }

    #[test]
    fn message_edits() {
        let mut b = json!({"model": "m"});
        add_message(&mut b, "user");
        set_content(&mut b, 0, "hello");
        add_message(&mut b, "user");
        set_role(&mut b, 1, "assistant");
        add_tool_call(&mut b, 1);
        attach_image(&mut b, Some(0));
        let rows = messages(&b).unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].content, "hello");
        assert_eq!(rows[0].images, 1);
        assert_eq!(rows[1].role, "assistant");
        assert_eq!(rows[1].tool_calls, 1);
        assert_eq!(
            b["messages"][1]["tool_calls"][0]["function"]["name"],
            "get_weather"
        );
        remove_message(&mut b, 0);
        assert_eq!(messages(&b).unwrap().len(), 1);
        assert!(messages(&json!({"messages": 3})).is_none());
    }

    #[test]
    fn route_fields() {
        assert_eq!(roles(Endpoint::AnthropicMessages), ["user", "assistant"]);
        assert!(roles(Endpoint::OpenAiChat).contains(&"developer"));
        assert_eq!(roles(Endpoint::Chat), ROLES);
        assert_eq!(max_tokens_key(Endpoint::Chat), None);
        assert_eq!(
            max_tokens_key(Endpoint::OpenAiResponses),
            Some("max_output_tokens")
        );
        assert_eq!(
            max_tokens_key(Endpoint::AnthropicMessages),
            Some("max_tokens")
        );
        let mut b = json!({"model": "m", "messages": [
            {"role": "user", "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]}]});
        assert_eq!(messages(&b).unwrap()[0].parts, 2);
        assert_eq!(messages(&b).unwrap()[0].part_types, "text ×2");
        assert_eq!(
            part_types(Some(&json!([{"type": "text"}, {"type": "tool_use"}, {}]))),
            "text, tool_use, ?"
        );
        assert_eq!(parts(b.get("messages")), 1);
        set_num_field(&mut b, "max_tokens", Some(64));
        assert_eq!(num_field(&b, "max_tokens"), "64");
        set_num_field(&mut b, "max_tokens", None);
        assert_eq!(num_field(&b, "max_tokens"), "");
    }

    #[test]
    fn tool_calls_follow_the_first_tool() {
        let b = json!({"tools": [{"type": "function", "function": {"name": "add",
            "parameters": {"type": "object", "required": ["a", "b", "note"],
              "properties": {"a": {"type": "integer"}, "b": {"type": ["number", "null"]},
                             "note": {"type": "string"}}}}}]});
        assert_eq!(
            sample_tool_call(&b),
            json!({"function": {"name": "add", "arguments": {"a": 1, "b": 1, "note": "..."}}})
        );
    }

    #[test]
    fn generate_fields_and_sub_editors() {
        let mut b = json!({"model": "m"});
        set_str_field(&mut b, "prompt", "p");
        set_str_field(&mut b, "suffix", "");
        set_bool_field(&mut b, "raw", true);
        attach_image(&mut b, None);
        assert_eq!(image_count(&b), 1);
        clear_images(&mut b);
        assert_eq!(b, json!({"model": "m", "prompt": "p", "raw": true}));
        set_bool_field(&mut b, "raw", false);
        assert!(set_field_from_text(&mut b, "options", "{\n \"seed\": 1,\n}").is_err());
        set_field_from_text(&mut b, "options", "{\"seed\": 1}").unwrap();
        assert_eq!(field_text(&b, "options"), "{\n  \"seed\": 1\n}");
        set_field_from_text(&mut b, "options", "  ").unwrap();
        assert_eq!(b, json!({"model": "m", "prompt": "p"}));
        set_str_field(&mut b, "model", "");
        assert_eq!(b["model"], "");
    }
}
