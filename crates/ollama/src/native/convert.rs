//! Ollama's messages as llama.cpp hands them to the template.
//!
//! Ollama sends `{role, content, tool_call_id, name, tool_calls[{id, index,
//! type, function{name, arguments: <JSON string>}}]}`; llama-server parses
//! that into its own message type and writes it back out
//! (`common_chat_msg::to_json_oaicompat`) in the key order `role`,
//! `content`, `name`, `tool_call_id`, `tool_calls`, keeping only non-empty
//! fields; each tool call becomes `{type, function{name, arguments}, id}`
//! (`index` dropped, `id` only when set). Then the workarounds of
//! `common_chat_templates_apply_jinja` run, in its order.

use serde_json::{Map, Value as Json};

use super::json::go_args;
use super::probe::Caps;
use crate::api;

/// llama.cpp's JSON of one Ollama message (string content).
fn message_json(m: &api::Message) -> Json {
    let mut o = Map::new();
    o.insert("role".into(), Json::String(m.role.clone()));
    o.insert("content".into(), Json::String(m.content.clone()));
    // Ollama's native translation does not send `thinking`, so there is
    // never a `reasoning_content` here.
    if !m.tool_name.is_empty() {
        o.insert("name".into(), Json::String(m.tool_name.clone()));
    }
    if !m.tool_call_id.is_empty() {
        o.insert("tool_call_id".into(), Json::String(m.tool_call_id.clone()));
    }
    if !m.tool_calls.is_empty() {
        let calls = m
            .tool_calls
            .iter()
            .map(|tc| {
                let mut f = Map::new();
                f.insert("name".into(), Json::String(tc.function.name.clone()));
                f.insert(
                    "arguments".into(),
                    Json::String(go_args(&tc.function.arguments)),
                );
                let mut c = Map::new();
                c.insert("type".into(), Json::String("function".into()));
                c.insert("function".into(), Json::Object(f));
                if !tc.id.is_empty() {
                    c.insert("id".into(), Json::String(tc.id.clone()));
                }
                Json::Object(c)
            })
            .collect();
        o.insert("tool_calls".into(), Json::Array(calls));
    }
    Json::Object(o)
}

fn role(m: &Json) -> &str {
    m.get("role").and_then(Json::as_str).unwrap_or("")
}

fn content_text(m: &Json) -> String {
    match m.get("content") {
        Some(Json::String(s)) => s.clone(),
        Some(Json::Array(parts)) => parts
            .iter()
            .filter_map(|p| p.get("text").and_then(Json::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

/// `workaround::system_message_not_supported`.
fn merge_leading_system(msgs: &mut Vec<Json>) {
    if msgs.first().map(role) != Some("system") {
        return;
    }
    let first = msgs.remove(0);
    if let Some(next) = msgs.first_mut() {
        let merged = format!("{}\n{}", content_text(&first), content_text(next));
        if let Some(o) = next.as_object_mut() {
            o.insert("content".into(), Json::String(merged));
        }
    }
}

/// `workaround::func_args_not_string`: arguments strings back to objects.
fn parse_arguments(msgs: &mut [Json]) -> Result<(), String> {
    for m in msgs.iter_mut() {
        let Some(calls) = m.get_mut("tool_calls").and_then(Json::as_array_mut) else {
            continue;
        };
        for call in calls {
            let Some(args) = call
                .get_mut("function")
                .and_then(|f| f.get_mut("arguments"))
            else {
                continue;
            };
            if let Json::String(s) = args {
                let parsed: Json = serde_json::from_str(s)
                    .map_err(|e| format!("Failed to parse tool call arguments as JSON: {e}"))?;
                *args = parsed;
            }
        }
    }
    Ok(())
}

/// Whether llama.cpp routes the template to its Gemma 4 handler.
pub(crate) fn is_gemma4(src: &str) -> bool {
    src.contains("'<|tool_call>call:'")
}

/// An old Gemma 4 template (without the OpenAI marker): it knows tool
/// results only as `tool_responses` on the model turn.
fn is_old_gemma4(src: &str) -> bool {
    is_gemma4(src) && !src.contains("{#- OpenAI Chat Completions:")
}

fn has_tool_calls(m: &Json) -> bool {
    m.get("tool_calls")
        .and_then(Json::as_array)
        .is_some_and(|a| !a.is_empty())
}

fn has_content(m: &Json) -> bool {
    match m.get("content") {
        Some(Json::String(s)) => !s.is_empty(),
        Some(Json::Array(a)) => !a.is_empty(),
        _ => false,
    }
}

/// `workaround::convert_tool_responses_gemma4`: an assistant turn with tool
/// calls, the tool results after it and a final assistant answer become one
/// assistant message `{role, tool_calls, tool_responses, content}`; each
/// result is `{name, response}`, the name taken from the tool call at the
/// same position (else the result's `tool_call_id`), the response parsed
/// as JSON when it is JSON. The first assistant turn's own content is not
/// kept.
fn fold_gemma4_tool_responses(msgs: Vec<Json>) -> Vec<Json> {
    let mut out = Vec::with_capacity(msgs.len());
    let mut i = 0;
    while i < msgs.len() {
        let m = &msgs[i];
        if role(m) != "assistant" || !has_tool_calls(m) {
            out.push(m.clone());
            i += 1;
            continue;
        }
        let reasoning = m
            .get("reasoning_content")
            .filter(|r| r.is_string())
            .cloned();
        let calls: Vec<Json> = m["tool_calls"].as_array().cloned().unwrap_or_default();
        let mut responses: Vec<Json> = Vec::new();
        i += 1;
        while i < msgs.len() && role(&msgs[i]) == "tool" {
            let r = &msgs[i];
            let response = match r.get("content") {
                Some(Json::String(s)) => {
                    serde_json::from_str::<Json>(s).unwrap_or_else(|_| Json::String(s.clone()))
                }
                Some(other) => other.clone(),
                None => Json::Null,
            };
            let mut name = calls
                .get(responses.len())
                .and_then(|c| c.pointer("/function/name"))
                .and_then(Json::as_str)
                .unwrap_or("")
                .to_string();
            if name.is_empty() {
                name = r
                    .get("tool_call_id")
                    .and_then(Json::as_str)
                    .unwrap_or("")
                    .to_string();
            }
            responses.push(serde_json::json!({"name": name, "response": response}));
            i += 1;
        }
        let mut content = None;
        if i < msgs.len() && role(&msgs[i]) == "assistant" {
            let next = &msgs[i];
            if !has_tool_calls(next) && has_content(next) {
                content = next.get("content").cloned();
                i += 1;
            }
        }
        let mut o = Map::new();
        o.insert("role".into(), Json::String("assistant".into()));
        o.insert("tool_calls".into(), Json::Array(calls));
        if !responses.is_empty() {
            o.insert("tool_responses".into(), Json::Array(responses));
        }
        if let Some(c) = content {
            o.insert("content".into(), c);
        }
        if let Some(r) = reasoning {
            o.insert("reasoning_content".into(), r);
        }
        out.push(Json::Object(o));
    }
    out
}

/// DeepSeek V4: consecutive tool results (within a run of user and tool
/// messages) put in the order of the preceding assistant's tool calls.
fn deepseek_v4_sort_tool_results(msgs: &mut [Json]) {
    let mut order: Vec<(String, usize)> = Vec::new();
    let mut i = 0;
    while i < msgs.len() {
        let r = role(&msgs[i]).to_string();
        if r == "assistant" && has_tool_calls(&msgs[i]) {
            order = msgs[i]["tool_calls"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .enumerate()
                        .filter_map(|(k, c)| {
                            let id = c.get("id").and_then(Json::as_str).unwrap_or("");
                            (!id.is_empty()).then(|| (id.to_string(), k))
                        })
                        .collect()
                })
                .unwrap_or_default();
            i += 1;
            continue;
        }
        if r != "user" && r != "tool" {
            i += 1;
            continue;
        }
        let mut end = i;
        let mut positions = Vec::new();
        while end < msgs.len() {
            match role(&msgs[end]) {
                "tool" => positions.push(end),
                "user" => {}
                _ => break,
            }
            end += 1;
        }
        if positions.len() > 1 && !order.is_empty() {
            let rank = |m: &Json| {
                let id = m.get("tool_call_id").and_then(Json::as_str).unwrap_or("");
                order
                    .iter()
                    .find(|(k, _)| k == id)
                    .map(|(_, n)| *n)
                    .unwrap_or(0)
            };
            let mut results: Vec<Json> = positions.iter().map(|&p| msgs[p].clone()).collect();
            results.sort_by_key(|m| rank(m));
            for (p, m) in positions.iter().zip(results) {
                msgs[*p] = m;
            }
        }
        i = end.max(i + 1);
    }
}

/// Ministral 3 / Magistral: system and assistant content as blocks.
fn ministral3_blocks(msgs: &mut [Json]) {
    for m in msgs.iter_mut() {
        if !matches!(role(m), "system" | "assistant") {
            continue;
        }
        let mut blocks = Vec::new();
        if let Some(r) = m.get("reasoning_content").and_then(Json::as_str) {
            blocks.push(serde_json::json!({"type": "thinking", "thinking": r}));
        }
        match m.get("content") {
            Some(Json::String(s)) => blocks.push(serde_json::json!({"type": "text", "text": s})),
            Some(Json::Array(a)) => blocks.extend(a.iter().cloned()),
            _ => {}
        }
        if let Some(o) = m.as_object_mut() {
            o.insert("content".into(), Json::Array(blocks));
            o.shift_remove("reasoning_content");
        }
    }
}

/// Whether llama.cpp routes the template to its Ministral 3 handler.
pub(crate) fn is_ministral3(src: &str) -> bool {
    src.contains("[SYSTEM_PROMPT]")
        && src.contains("[TOOL_CALLS]")
        && src.contains("[ARGS]")
        && !src.contains("[CALL_ID]")
}

/// The `messages` global for a conversation.
pub(crate) fn messages(msgs: &[api::Message], caps: &Caps, src: &str) -> Result<Json, String> {
    let only_typed = !caps.supports_string_content && caps.supports_typed_content;
    let mut out: Vec<Json> = msgs.iter().map(message_json).collect();
    if src.contains("You have access to the following functions in JSONSchema format") {
        // StepFun: contents trimmed before rendering
        for m in out.iter_mut() {
            if let Some(Json::String(s)) = m.get_mut("content") {
                *s = s
                    .trim_matches(|c: char| c.is_ascii_whitespace() || c == '\u{b}')
                    .to_string();
            }
        }
    }
    if only_typed {
        for m in out.iter_mut() {
            if let Some(Json::String(s)) = m.get("content").cloned() {
                if let Some(o) = m.as_object_mut() {
                    o.insert(
                        "content".into(),
                        serde_json::json!([{"type": "text", "text": s}]),
                    );
                }
            }
        }
    }
    if !src.contains("<|channel|>") {
        for m in out.iter_mut() {
            if role(m) == "developer" {
                if let Some(o) = m.as_object_mut() {
                    o.insert("role".into(), Json::String("system".into()));
                }
            }
        }
    }
    if !caps.supports_system_role {
        merge_leading_system(&mut out);
    }
    if caps.supports_object_arguments {
        parse_arguments(&mut out)?;
    }
    // llama.cpp's dedicated handlers are tried in order; these reshape
    // the messages.
    if is_ministral3(src) {
        ministral3_blocks(&mut out);
    } else if src.contains("dsml_token")
        && src.contains("DSML")
        && !src.contains("function_calls")
        && src.contains("tool_calls")
        && !src.contains("<|channel|>")
    {
        deepseek_v4_sort_tool_results(&mut out);
    } else if is_old_gemma4(src) && !src.contains("<|channel|>") {
        out = fold_gemma4_tool_responses(out);
    }
    Ok(Json::Array(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn caps() -> Caps {
        Caps {
            supports_string_content: true,
            supports_typed_content: false,
            supports_system_role: true,
            supports_tool_calls: true,
            supports_object_arguments: false,
        }
    }

    #[test]
    fn key_order_and_arguments() {
        let msgs = api::decode_messages(&serde_json::json!([
            {"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "function": {"index": 3, "name": "f", "arguments": {"b": 1, "a": "<"}}}]},
            {"role": "tool", "content": "r", "tool_name": "f", "tool_call_id": "c1"}
        ]))
        .unwrap();
        let j = messages(&msgs, &caps(), "").unwrap();
        assert_eq!(
            serde_json::to_string(&j).unwrap(),
            r#"[{"role":"assistant","content":"","tool_calls":[{"type":"function","function":{"name":"f","arguments":"{\"b\":1,\"a\":\"\\u003c\"}"},"id":"c1"}]},{"role":"tool","content":"r","name":"f","tool_call_id":"c1"}]"#
        );
        let mut c = caps();
        c.supports_object_arguments = true;
        let j = messages(&msgs, &c, "").unwrap();
        assert_eq!(j[0]["tool_calls"][0]["function"]["arguments"]["a"], "<");
    }

    #[test]
    fn system_merge_and_developer() {
        let msgs = api::decode_messages(&serde_json::json!([
            {"role": "developer", "content": "S"},
            {"role": "user", "content": "U"}
        ]))
        .unwrap();
        let mut c = caps();
        c.supports_system_role = false;
        let j = messages(&msgs, &c, "").unwrap();
        assert_eq!(j, serde_json::json!([{"role": "user", "content": "S\nU"}]));
        let j = messages(&msgs[..1], &c, "").unwrap();
        assert_eq!(j, serde_json::json!([]));
    }
}
