//! Ollama's response bodies for `/api/chat` and `/api/generate`
//! (`api.ChatResponse`, `api.GenerateResponse`, `api.Metrics`,
//! `api.DebugInfo`), field for field and in Go's field order, with Go's
//! `omitempty` rules.

use crate::date::Date;
use crate::server::Endpoint;
use serde_json::{Map, Value as Json};

/// `api.Metrics`: counts, and durations in nanoseconds. Zero values are
/// left out, as Go's `omitempty` does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Metrics {
    /// `total_duration`
    pub total_duration: u64,
    /// `load_duration`
    pub load_duration: u64,
    /// `prompt_eval_count`
    pub prompt_eval_count: usize,
    /// `prompt_eval_duration`
    pub prompt_eval_duration: u64,
    /// `eval_count`
    pub eval_count: usize,
    /// `eval_duration`
    pub eval_duration: u64,
}

impl Metrics {
    fn write(&self, o: &mut Map<String, Json>) {
        let mut put = |k: &str, v: u64| {
            if v != 0 {
                o.insert(k.into(), Json::from(v));
            }
        };
        put("total_duration", self.total_duration);
        put("load_duration", self.load_duration);
        put("prompt_eval_count", self.prompt_eval_count as u64);
        put("prompt_eval_duration", self.prompt_eval_duration);
        put("eval_count", self.eval_count as u64);
        put("eval_duration", self.eval_duration);
    }
}

/// Go's `time.Time` JSON (RFC 3339 with nanoseconds, trailing zeros of the
/// fraction dropped) of a UTC instant given in nanoseconds since the epoch.
pub fn created_at(unix_nanos: i128) -> String {
    let secs = unix_nanos.div_euclid(1_000_000_000) as i64;
    let nanos = unix_nanos.rem_euclid(1_000_000_000) as u32;
    let day = Date::from_days(secs.div_euclid(86_400));
    let s = secs.rem_euclid(86_400);
    let mut out = format!("{day}T{:02}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
    if nanos != 0 {
        let frac = format!("{nanos:09}");
        out.push('.');
        out.push_str(frac.trim_end_matches('0'));
    }
    out.push('Z');
    out
}

/// One streamed chunk, or the final one when `done` is given.
#[derive(Clone, Debug, Default)]
pub struct Chunk<'a> {
    /// `model` as the request named it.
    pub model: &'a str,
    /// `created_at`, already formatted by [`created_at`].
    pub created_at: &'a str,
    /// The text of this chunk.
    pub content: &'a str,
    /// The thinking split out of it (omitted when empty, as Go's `omitempty`).
    pub thinking: &'a str,
    /// Tool calls the parser found (omitted when none).
    pub tool_calls: &'a [crate::api::ToolCall],
    /// `done_reason` on the final chunk; `None` while streaming.
    pub done: Option<&'a str>,
    /// Metrics (final chunk only).
    pub metrics: Metrics,
    /// `/api/generate`'s `context` (final chunk, not in raw mode).
    pub context: Option<&'a [u32]>,
    /// `_debug_info`.
    pub debug: Option<Json>,
}

/// Tool calls as chunk JSON: what [`crate::parsers::tool_calls_json`]
/// writes (Go's field order, nested objects with their keys sorted, lone
/// bytes as U+FFFD), read back as a value.
pub fn tool_calls_value(calls: &[crate::api::ToolCall]) -> Json {
    serde_json::from_str(&crate::parsers::tool_calls_json(calls)).unwrap_or(Json::Null)
}

/// The JSON of a response chunk for `endpoint`.
pub fn chunk(endpoint: Endpoint, c: &Chunk) -> Json {
    let mut o = Map::new();
    o.insert("model".into(), c.model.into());
    o.insert("created_at".into(), c.created_at.into());
    match endpoint {
        Endpoint::Chat => {
            let mut m = Map::new();
            m.insert("role".into(), "assistant".into());
            m.insert("content".into(), c.content.into());
            if !c.thinking.is_empty() {
                m.insert("thinking".into(), c.thinking.into());
            }
            if !c.tool_calls.is_empty() {
                m.insert("tool_calls".into(), tool_calls_value(c.tool_calls));
            }
            o.insert("message".into(), Json::Object(m));
            o.insert("done".into(), c.done.is_some().into());
            if let Some(r) = c.done {
                o.insert("done_reason".into(), r.into());
            }
            if let Some(d) = &c.debug {
                o.insert("_debug_info".into(), d.clone());
            }
            c.metrics.write(&mut o);
        }
        Endpoint::Generate => {
            o.insert("response".into(), c.content.into());
            if !c.thinking.is_empty() {
                o.insert("thinking".into(), c.thinking.into());
            }
            o.insert("done".into(), c.done.is_some().into());
            if let Some(r) = c.done {
                o.insert("done_reason".into(), r.into());
            }
            if let Some(ctx) = c.context.filter(|c| !c.is_empty()) {
                o.insert("context".into(), ctx.iter().copied().collect());
            }
            c.metrics.write(&mut o);
            if !c.tool_calls.is_empty() {
                o.insert("tool_calls".into(), tool_calls_value(c.tool_calls));
            }
            if let Some(d) = &c.debug {
                o.insert("_debug_info".into(), d.clone());
            }
        }
    }
    Json::Object(o)
}

/// The answer to `"_debug_render_only": true`: HTTP 200 with the rendered
/// prompt in `_debug_info.rendered_template` and `done: false`.
pub fn debug_render_only(
    endpoint: Endpoint,
    model: &str,
    created_at: &str,
    prompt: &str,
    image_count: usize,
) -> Json {
    let mut d = Map::new();
    d.insert("rendered_template".into(), prompt.into());
    if image_count > 0 {
        d.insert("image_count".into(), image_count.into());
    }
    let mut o = Map::new();
    o.insert("model".into(), model.into());
    o.insert("created_at".into(), created_at.into());
    match endpoint {
        Endpoint::Chat => {
            o.insert(
                "message".into(),
                serde_json::json!({"role": "", "content": ""}),
            );
            o.insert("done".into(), false.into());
            o.insert("_debug_info".into(), Json::Object(d));
        }
        Endpoint::Generate => {
            o.insert("response".into(), "".into());
            o.insert("done".into(), false.into());
            o.insert("_debug_info".into(), Json::Object(d));
        }
    }
    Json::Object(o)
}

/// `{"error": message}`, Ollama's error body.
pub fn error(message: &str) -> Json {
    serde_json::json!({ "error": message })
}

/// Folds streamed chunks into the single response Ollama sends for
/// `"stream": false`: the last chunk with the text of all of them, and in
/// chat with tools every chunk's tool calls.
pub fn aggregate(endpoint: Endpoint, has_tools: bool, chunks: &[Json]) -> Option<Json> {
    let mut last = chunks.last()?.clone();
    let join = |key: &str| -> String {
        chunks
            .iter()
            .filter_map(|c| match endpoint {
                Endpoint::Chat => c["message"][key].as_str(),
                Endpoint::Generate => c[key].as_str(),
            })
            .collect()
    };
    let (text, thinking) = match endpoint {
        Endpoint::Chat => (join("content"), join("thinking")),
        Endpoint::Generate => (join("response"), join("thinking")),
    };
    match endpoint {
        Endpoint::Chat => {
            // writeChatResponse: with tools every chunk's tool calls, else
            // the last chunk's
            let calls: Vec<Json> = if has_tools {
                chunks
                    .iter()
                    .filter_map(|c| c["message"]["tool_calls"].as_array())
                    .flatten()
                    .cloned()
                    .collect()
            } else {
                last["message"]["tool_calls"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default()
            };
            let mut m = Map::new();
            m.insert("role".into(), "assistant".into());
            m.insert("content".into(), text.clone().into());
            if !thinking.is_empty() {
                m.insert("thinking".into(), thinking.clone().into());
            }
            if !calls.is_empty() {
                m.insert("tool_calls".into(), Json::Array(calls));
            }
            last["message"] = Json::Object(m);
        }
        Endpoint::Generate => {
            last["response"] = text.into();
            if !thinking.is_empty() {
                // `thinking` follows `response` in GenerateResponse
                if let Json::Object(o) = &last {
                    let mut m = Map::new();
                    for (k, v) in o {
                        if k != "thinking" {
                            m.insert(k.clone(), v.clone());
                        }
                        if k == "response" {
                            m.insert("thinking".into(), thinking.clone().into());
                        }
                    }
                    last = Json::Object(m);
                }
            }
        }
    }
    if let Some(d) = chunks.iter().find_map(|c| c.get("_debug_info")) {
        if let Some(o) = last.as_object_mut() {
            o.entry("_debug_info").or_insert_with(|| d.clone());
        }
    }
    Some(last)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unstreamed_answers_join_thinking_in_gos_field_order() {
        fn piece(
            content: &'static str,
            thinking: &'static str,
            done: Option<&'static str>,
        ) -> Chunk<'static> {
            Chunk {
                model: "m",
                created_at: "t",
                content,
                thinking,
                done,
                ..Chunk::default()
            }
        }
        for endpoint in [Endpoint::Chat, Endpoint::Generate] {
            let chunks = vec![
                chunk(endpoint, &piece("", "Hm", None)),
                chunk(endpoint, &piece("A", "", None)),
                chunk(endpoint, &piece("", "", Some("stop"))),
            ];
            let one = aggregate(endpoint, false, &chunks).unwrap().to_string();
            let want = match endpoint {
                Endpoint::Chat => {
                    r#"{"model":"m","created_at":"t","message":{"role":"assistant","content":"A","thinking":"Hm"},"done":true,"done_reason":"stop"}"#
                }
                Endpoint::Generate => {
                    r#"{"model":"m","created_at":"t","response":"A","thinking":"Hm","done":true,"done_reason":"stop"}"#
                }
            };
            assert_eq!(one, want);
        }
    }

    #[test]
    fn thinking_follows_content_and_is_omitted_when_empty() {
        let c = Chunk {
            model: "m",
            created_at: "t",
            content: "A",
            thinking: "T",
            ..Chunk::default()
        };
        assert_eq!(
            chunk(Endpoint::Chat, &c).to_string(),
            r#"{"model":"m","created_at":"t","message":{"role":"assistant","content":"A","thinking":"T"},"done":false}"#
        );
        assert_eq!(
            chunk(Endpoint::Generate, &c).to_string(),
            r#"{"model":"m","created_at":"t","response":"A","thinking":"T","done":false}"#
        );
        let plain = Chunk { thinking: "", ..c };
        assert!(!chunk(Endpoint::Chat, &plain)
            .to_string()
            .contains("thinking"));
    }

    #[test]
    fn created_at_is_gos_rfc3339nano() {
        assert_eq!(created_at(0), "1970-01-01T00:00:00Z");
        assert_eq!(
            created_at(1_764_486_000_123_450_000),
            "2025-11-30T07:00:00.12345Z"
        );
    }

    #[test]
    fn chat_chunks_have_ollamas_shape_and_order() {
        let c = Chunk {
            model: "smollm2",
            created_at: "2026-11-30T00:00:00Z",
            content: "Hi",
            ..Chunk::default()
        };
        assert_eq!(
            chunk(Endpoint::Chat, &c).to_string(),
            r#"{"model":"smollm2","created_at":"2026-11-30T00:00:00Z","message":{"role":"assistant","content":"Hi"},"done":false}"#
        );
        let done = Chunk {
            content: "",
            done: Some("stop"),
            metrics: Metrics {
                total_duration: 5,
                prompt_eval_count: 30,
                eval_count: 2,
                ..Metrics::default()
            },
            ..c
        };
        assert_eq!(
            chunk(Endpoint::Chat, &done).to_string(),
            r#"{"model":"smollm2","created_at":"2026-11-30T00:00:00Z","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop","total_duration":5,"prompt_eval_count":30,"eval_count":2}"#
        );
    }

    #[test]
    fn generate_final_chunk_carries_context() {
        let c = Chunk {
            model: "m",
            created_at: "t",
            done: Some("length"),
            context: Some(&[1, 2]),
            metrics: Metrics {
                eval_count: 1,
                ..Metrics::default()
            },
            ..Chunk::default()
        };
        assert_eq!(
            chunk(Endpoint::Generate, &c).to_string(),
            r#"{"model":"m","created_at":"t","response":"","done":true,"done_reason":"length","context":[1,2],"eval_count":1}"#
        );
    }

    #[test]
    fn debug_render_only_shapes() {
        assert_eq!(
            debug_render_only(Endpoint::Chat, "m", "t", "P", 0).to_string(),
            r#"{"model":"m","created_at":"t","message":{"role":"","content":""},"done":false,"_debug_info":{"rendered_template":"P"}}"#
        );
        assert_eq!(
            debug_render_only(Endpoint::Generate, "m", "t", "P", 2).to_string(),
            r#"{"model":"m","created_at":"t","response":"","done":false,"_debug_info":{"rendered_template":"P","image_count":2}}"#
        );
    }
}
