//! llama.cpp's template capability probes (`common/jinja/caps.cpp`).
//!
//! llama.cpp renders the template with probe conversations while its
//! runtime records which input values the template *reads*, and decides
//! from that how to shape the real messages:
//!
//! - `supports_system_role`: the content of a leading system message is
//!   read (otherwise the system message is merged into the next one);
//! - `supports_object_arguments`: the key `arg` of a tool call's
//!   `arguments` object is read, by a member access, by iterating it, or by
//!   `tojson` / `|string` on the whole object (then the arguments strings
//!   are parsed back into objects);
//! - typed content: rendering fails with string content but works with a
//!   list of `{type: "text", text}` parts.
//!
//! MiniJinja cannot record reads of plain values, so the probe inputs are
//! built from custom objects ([`Tracked`]) that log every key or index
//! looked up on them into a shared set of paths
//! (`messages[1].tool_calls[0].function.arguments.arg`). A read is thus
//! "the template looked the value up", which is what llama.cpp's member
//! access marks. `tojson` and `|string` log every path below the value
//! they are given ([`mark_all_read`]). Printing a tracked object does not
//! count as a read. One known difference: `'key' in obj` also looks the
//! key up here, where llama.cpp only checks for it.

use std::collections::HashSet;
use std::fmt;
use std::sync::{Arc, Mutex};

use minijinja::value::{Enumerator, Object, ObjectRepr, Serde};
use minijinja::Value;
use serde_json::{json, Value as Json};

use super::engine::Engine;

type Log = Arc<Mutex<HashSet<String>>>;

/// A probe input value that logs reads of its children.
#[derive(Debug)]
enum Tracked {
    Map {
        path: String,
        entries: Vec<(String, Value)>,
        log: Log,
    },
    Seq {
        path: String,
        items: Vec<Value>,
        log: Log,
    },
}

impl Tracked {
    fn log_path(&self, child: &str) {
        let (path, log) = match self {
            Tracked::Map { path, log, .. } | Tracked::Seq { path, log, .. } => (path, log),
        };
        if let Ok(mut l) = log.lock() {
            l.insert(format!("{path}{child}"));
        }
    }
}

impl Object for Tracked {
    fn repr(self: &Arc<Self>) -> ObjectRepr {
        match **self {
            Tracked::Map { .. } => ObjectRepr::Map,
            Tracked::Seq { .. } => ObjectRepr::Seq,
        }
    }

    fn get_value(self: &Arc<Self>, key: &Value) -> Option<Value> {
        match &**self {
            Tracked::Map { entries, .. } => {
                let k = key.as_str()?;
                let v = entries.iter().find(|(name, _)| name == k)?.1.clone();
                self.log_path(&format!(".{k}"));
                Some(v)
            }
            Tracked::Seq { items, .. } => {
                let i = key.as_i64()?;
                let i = if i < 0 { i + items.len() as i64 } else { i };
                let v = items.get(usize::try_from(i).ok()?)?.clone();
                self.log_path(&format!("[{i}]"));
                Some(v)
            }
        }
    }

    fn enumerate(self: &Arc<Self>) -> Enumerator {
        match &**self {
            Tracked::Map { entries, .. } => Enumerator::Values(
                entries
                    .iter()
                    .map(|(k, _)| Value::from(k.as_str()))
                    .collect(),
            ),
            Tracked::Seq { items, .. } => Enumerator::Seq(items.len()),
        }
    }

    fn render(self: &Arc<Self>, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let plain = match &**self {
            Tracked::Map { entries, .. } => Value::from_pairs(entries.iter().cloned()),
            Tracked::Seq { items, .. } => Value::from(items.clone()),
        };
        fmt::Display::fmt(&plain, f)
    }
}

/// Builds a tracked value from JSON.
fn track(v: &Json, path: &str, log: &Log) -> Value {
    match v {
        Json::Object(m) => Value::from_object(Tracked::Map {
            path: path.to_string(),
            entries: m
                .iter()
                .map(|(k, v)| (k.clone(), track(v, &format!("{path}.{k}"), log)))
                .collect(),
            log: log.clone(),
        }),
        Json::Array(a) => Value::from_object(Tracked::Seq {
            path: path.to_string(),
            items: a
                .iter()
                .enumerate()
                .map(|(i, v)| track(v, &format!("{path}[{i}]"), log))
                .collect(),
            log: log.clone(),
        }),
        other => Value::from(Serde(other)),
    }
}

/// Logs every path below `v` as read (what `tojson` and `|string` do to a
/// value in llama.cpp's probes). A no-op for untracked values.
pub(crate) fn mark_all_read(v: &Value) {
    fn walk(v: &Value, depth: usize) {
        if depth > 64 {
            return;
        }
        if let Some(t) = v.downcast_object_ref::<Tracked>() {
            match t {
                Tracked::Map { entries, .. } => {
                    for (k, child) in entries {
                        t.log_path(&format!(".{k}"));
                        walk(child, depth + 1);
                    }
                }
                Tracked::Seq { items, .. } => {
                    for (i, child) in items.iter().enumerate() {
                        t.log_path(&format!("[{i}]"));
                        walk(child, depth + 1);
                    }
                }
            }
        }
    }
    walk(v, 0);
}

/// What the probes found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Caps {
    /// The template renders with string content.
    pub supports_string_content: bool,
    /// The template renders with a list of typed content parts.
    pub supports_typed_content: bool,
    /// The template reads a leading system message's content.
    pub supports_system_role: bool,
    /// The template reads an assistant message's tool calls.
    pub supports_tool_calls: bool,
    /// The template reads the keys of tool-call arguments objects.
    pub supports_object_arguments: bool,
}

/// Renders one probe; returns whether it succeeded, the output and the
/// paths read.
fn run(engine: &Engine, messages: Json, tools: Json) -> (bool, String, HashSet<String>) {
    let log: Log = Arc::new(Mutex::new(HashSet::new()));
    let ctx = Value::from_pairs([
        ("messages".to_string(), track(&messages, "messages", &log)),
        ("tools".to_string(), track(&tools, "tools", &log)),
        ("bos_token".to_string(), Value::from("")),
        ("eos_token".to_string(), Value::from("")),
        ("add_generation_prompt".to_string(), Value::from(true)),
    ]);
    let out = engine.render(&ctx);
    let read = log.lock().map(|l| l.clone()).unwrap_or_default();
    match out {
        Ok(s) => (true, s, read),
        Err(_) => (false, String::new(), read),
    }
}

fn probe_tools() -> Json {
    json!([{
        "name": "tool",
        "type": "function",
        "function": {
            "name": "tool1",
            "description": "Tool description",
            "parameters": {
                "type": "object",
                "properties": {"arg": {"type": "string", "description": "Arg description"}},
                "required": ["arg"]
            }
        }
    }])
}

fn tool_call_conversation(arguments: Json) -> Json {
    json!([
        {"role": "user", "content": "User message"},
        {"role": "assistant", "content": "", "tool_calls": [{
            "id": "call00001",
            "type": "function",
            "function": {"name": "tool1", "arguments": arguments}
        }]},
        {"role": "tool", "content": "Tool response", "tool_call_id": "call00001"},
        {"role": "assistant", "content": "The tool response was 'tool response'"},
        {"role": "user", "content": "User message"}
    ])
}

const CONTENT_MARKER: &str = "STRING_MARKER";

/// Runs llama.cpp's probes against a template.
///
/// Typed content differs in method: llama.cpp records whether the content
/// was indexed or filtered like a list; here a template "uses content as a
/// list" when string content fails or never reaches the output while the
/// same text as a `[{type: "text", text}]` list renders and shows.
pub(crate) fn caps(engine: &Engine) -> Caps {
    // typed content
    let (string_ok, out, _) = run(
        engine,
        json!([{"role": "user", "content": CONTENT_MARKER}]),
        json!([]),
    );
    let mut supports_string_content = string_ok;
    let mut supports_typed_content = false;
    if !string_ok || !out.contains(CONTENT_MARKER) {
        let (typed_ok, typed_out, _) = run(
            engine,
            json!([{"role": "user", "content": [{"type": "text", "text": CONTENT_MARKER}]}]),
            json!([]),
        );
        if typed_ok && typed_out.contains(CONTENT_MARKER) {
            supports_typed_content = true;
            supports_string_content = false;
        }
    }

    // system role
    let (_, _, read) = run(
        engine,
        json!([
            {"role": "system", "content": "System message"},
            {"role": "user", "content": "User message"}
        ]),
        json!([]),
    );
    let supports_system_role = read.contains("messages[0].content");

    // tool calls with object arguments, then with string arguments
    let (ok, _, read) = run(
        engine,
        tool_call_conversation(json!({"arg": "value"})),
        probe_tools(),
    );
    let mut supports_tool_calls = !ok || read.contains("messages[1].tool_calls");
    let supports_object_arguments =
        ok && read.contains("messages[1].tool_calls[0].function.arguments.arg");
    if !supports_object_arguments {
        let (ok, _, read) = run(
            engine,
            tool_call_conversation(json!("{\"arg\": \"value\"}")),
            probe_tools(),
        );
        supports_tool_calls = ok && read.contains("messages[1].tool_calls");
    }

    Caps {
        supports_string_content,
        supports_typed_content,
        supports_system_role,
        supports_tool_calls,
        supports_object_arguments,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tracked_reads() {
        let log: Log = Arc::new(Mutex::new(HashSet::new()));
        let v = track(&json!({"a": {"b": [1, {"c": 2}]}}), "x", &log);
        let _ = v
            .get_attr("a")
            .unwrap()
            .get_attr("b")
            .unwrap()
            .get_item(&Value::from(1));
        let read = log.lock().unwrap().clone();
        assert!(read.contains("x.a") && read.contains("x.a.b") && read.contains("x.a.b[1]"));
        assert!(!read.contains("x.a.b[1].c"));
        mark_all_read(&v);
        assert!(log.lock().unwrap().contains("x.a.b[1].c"));
    }
}
