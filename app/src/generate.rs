//! What the Generate pane sends its worker and how the worker's answers are
//! shaped: a [`Job`] (the rendered prompt and the request's settings) and
//! Ollama's response chunks (`ollama::response`). Leptos-free, tested
//! natively.

use ollama::answer::Out;
use ollama::response::{self, Chunk, Metrics};
use ollama::server::Endpoint;
use serde_json::{json, Value};

/// The largest GGUF the browser build loads. wasm32 addresses 4 GiB; the
/// worker holds the file while the weights are built from it, so about
/// twice the file must fit, plus the KV cache and the page itself.
pub const MAX_FILE_BYTES: u64 = 1536 << 20;

/// Refuses, with a message, a file the worker could not hold.
pub fn check_memory(file_size: u64) -> Result<(), String> {
    if file_size > MAX_FILE_BYTES {
        return Err(format!(
            "this GGUF is {:.1} GiB; generation in the browser (wasm32, at most 4 GiB of memory) takes files up to {:.1} GiB",
            file_size as f64 / (1u64 << 30) as f64,
            MAX_FILE_BYTES as f64 / (1u64 << 30) as f64
        ));
    }
    Ok(())
}

/// One generation request for the worker.
#[derive(Clone, Debug, PartialEq)]
pub struct Job {
    /// `chat` or `generate`.
    pub endpoint: Endpoint,
    /// `model` as the request names it.
    pub model: String,
    /// The rendered prompt.
    pub prompt: String,
    /// The renderer's leading BOS string, if any.
    pub leading_bos: Option<String>,
    /// What the handler reads the model's output with
    /// ([`ollama::answer::Setup::to_spec`]; `null`: content only).
    pub answer: Value,
    /// The request's `options` object.
    pub options: Value,
    /// The request's `truncate` (default true).
    pub truncate: bool,
    /// The request's `shift` (default true).
    pub shift: bool,
    /// `/api/generate` with `raw: true` (no `context` in the answer).
    pub raw: bool,
    /// Promptscope's opt-in debug output on the first chunk.
    pub debug: bool,
    /// `num_ctx` when the request gives none.
    pub default_num_ctx: i64,
}

impl Job {
    /// A job from the request body and the rendered prompt.
    pub fn new(
        endpoint: Endpoint,
        request: &Value,
        prompt: String,
        leading_bos: Option<String>,
        debug: bool,
    ) -> Job {
        let flag = |k: &str| request.get(k).and_then(Value::as_bool);
        Job {
            endpoint,
            model: request["model"].as_str().unwrap_or("").to_string(),
            prompt,
            leading_bos,
            answer: Value::Null,
            options: request.get("options").cloned().unwrap_or(Value::Null),
            truncate: flag("truncate") != Some(false),
            shift: flag("shift") != Some(false),
            raw: endpoint == Endpoint::Generate && flag("raw") == Some(true),
            debug,
            default_num_ctx: 4096,
        }
    }

    /// Whether the final chunk carries `context` (`/api/generate`, not raw).
    pub fn wants_context(&self) -> bool {
        self.endpoint == Endpoint::Generate && !self.raw
    }

    /// The job as the JSON posted to the worker.
    pub fn to_json(&self) -> String {
        json!({
            "endpoint": if self.endpoint == Endpoint::Chat { "chat" } else { "generate" },
            "model": self.model,
            "prompt": self.prompt,
            "leading_bos": self.leading_bos,
            "answer": self.answer,
            "options": self.options,
            "truncate": self.truncate,
            "shift": self.shift,
            "raw": self.raw,
            "debug": self.debug,
            "default_num_ctx": self.default_num_ctx,
        })
        .to_string()
    }

    /// Reads [`Job::to_json`]'s output.
    pub fn from_json(text: &str) -> Result<Job, String> {
        let v: Value = serde_json::from_str(text).map_err(|e| format!("bad job: {e}"))?;
        let s = |k: &str| v[k].as_str().map(str::to_string);
        let b = |k: &str| v[k].as_bool().unwrap_or(false);
        Ok(Job {
            endpoint: match v["endpoint"].as_str() {
                Some("generate") => Endpoint::Generate,
                _ => Endpoint::Chat,
            },
            model: s("model").unwrap_or_default(),
            prompt: s("prompt").ok_or("bad job: no prompt")?,
            leading_bos: s("leading_bos"),
            answer: v["answer"].clone(),
            options: v["options"].clone(),
            truncate: b("truncate"),
            shift: b("shift"),
            raw: b("raw"),
            debug: b("debug"),
            default_num_ctx: v["default_num_ctx"].as_i64().unwrap_or(4096),
        })
    }
}

/// A streamed chunk: what the handler sends for one piece.
pub fn text_chunk(job: &Job, created_at: &str, out: &Out, debug: Option<Value>) -> Value {
    response::chunk(
        job.endpoint,
        &Chunk {
            model: &job.model,
            created_at,
            content: &out.content,
            thinking: &out.thinking,
            tool_calls: &out.tool_calls,
            debug,
            ..Chunk::default()
        },
    )
}

/// The final chunk: what the handler makes of the end (`last`),
/// `done_reason`, counts and durations (nanoseconds).
pub fn final_chunk(
    job: &Job,
    created_at: &str,
    last: &Out,
    done_reason: &str,
    metrics: Metrics,
    context: Option<&[u32]>,
) -> Value {
    response::chunk(
        job.endpoint,
        &Chunk {
            model: &job.model,
            created_at,
            content: &last.content,
            thinking: &last.thinking,
            tool_calls: &last.tool_calls,
            done: Some(done_reason),
            metrics,
            context,
            ..Chunk::default()
        },
    )
}

/// What the pane shows from the NDJSON lines received so far: the text,
/// and from the final chunk the counts and tokens per second.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    /// The streamed text.
    pub text: String,
    /// The streamed thinking (split out by the thinking parser).
    pub thinking: String,
    /// `done_reason` once done.
    pub done_reason: Option<String>,
    /// `prompt_eval_count`.
    pub prompt_eval_count: u64,
    /// `eval_count`.
    pub eval_count: u64,
    /// Generation speed, from `eval_count` / `eval_duration`.
    pub tokens_per_second: Option<f64>,
    /// Prompt speed, from `prompt_eval_count` / `prompt_eval_duration`.
    pub prompt_tokens_per_second: Option<f64>,
}

/// What a compatibility route writes back for the native response chunks
/// the worker produced (the `/api/chat` or `/api/generate` NDJSON lines):
/// the route's writer (`ollama::compat::reply`) fed each chunk as the
/// native handler writes it, or, when the client asked for no stream, the
/// one aggregated response. `body` is the body the client sent; `now` the
/// Unix seconds and `seed` the draw for the ids Ollama takes from the clock
/// and at random. `None` when the route refuses the body.
pub fn route_answer(
    route: &str,
    body: &Value,
    lines: &[String],
    now: i64,
    seed: u64,
) -> Option<String> {
    use ollama::compat::{self, reply::Writer, Route};
    let route = Route::from_name(route)?;
    let conv = compat::convert(route, body).ok()?;
    let ids = compat::reply::random_ids(route, seed);
    let text = body.to_string();
    let mut w = Writer::for_route(
        route,
        body,
        conv.stream,
        conv.include_usage,
        (&ids.0, &ids.1),
        now,
        seed,
    )
    .with_body_text(body, &text);
    let chunks: Vec<Value> = lines
        .iter()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .collect();
    let status = |v: &Value| {
        if v.get("error").is_some() && v.get("model").is_none() {
            500
        } else {
            200
        }
    };
    let mut out = String::new();
    if conv.stream {
        for c in &chunks {
            out.push_str(&w.write(status(c), c));
        }
    } else if let Some(e) = chunks.iter().find(|c| status(c) != 200) {
        out.push_str(&w.write(500, e));
    } else if let Some(one) = response::aggregate(conv.endpoint, has_tools(&conv.request), &chunks)
    {
        if one["done"] == true {
            out.push_str(&w.write(200, &one));
        }
    }
    Some(out)
}

/// Whether a native request has tools (the chat answer then keeps every
/// chunk's tool calls).
pub fn has_tools(request: &Value) -> bool {
    request
        .get("tools")
        .and_then(Value::as_array)
        .is_some_and(|t| !t.is_empty())
}

/// Folds response chunks into a [`Summary`].
pub fn summarize(lines: &[String]) -> Summary {
    let mut s = Summary::default();
    for line in lines {
        let Ok(v) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        if let Some(t) = v["message"]["content"].as_str().or(v["response"].as_str()) {
            s.text.push_str(t);
        }
        if let Some(t) = v["message"]["thinking"].as_str().or(v["thinking"].as_str()) {
            s.thinking.push_str(t);
        }
        if v["done"] == true {
            s.done_reason = v["done_reason"].as_str().map(str::to_string);
            let n = |k: &str| v[k].as_u64().unwrap_or(0);
            s.prompt_eval_count = n("prompt_eval_count");
            s.eval_count = n("eval_count");
            let rate = |count: u64, ns: u64| (ns > 0).then(|| count as f64 / (ns as f64 / 1e9));
            s.tokens_per_second = rate(n("eval_count"), n("eval_duration"));
            s.prompt_tokens_per_second = rate(n("prompt_eval_count"), n("prompt_eval_duration"));
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_route_answers_in_its_own_shape() {
        let lines = vec![
            r#"{"model":"m","created_at":"2025-06-01T12:00:00Z","message":{"role":"assistant","content":"Hi"},"done":false}"#.to_string(),
            r#"{"model":"m","created_at":"2025-06-01T12:00:01Z","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop","prompt_eval_count":5,"eval_count":1}"#.to_string(),
        ];
        let body = json!({"model": "m", "messages": [{"role": "user", "content": "hi"}]});
        let one = route_answer("openai-chat", &body, &lines, 0, 7).unwrap();
        let v: Value = serde_json::from_str(&one).unwrap();
        assert_eq!(v["object"], "chat.completion");
        assert_eq!(v["id"], "chatcmpl-7");
        assert_eq!(v["choices"][0]["message"]["content"], "Hi");
        assert_eq!(v["usage"]["total_tokens"], 6);
        let body = json!({"model": "m", "max_tokens": 5, "stream": true, "messages": [{"role": "user", "content": "hi"}]});
        let sse = route_answer("anthropic-messages", &body, &lines, 0, 7).unwrap();
        assert!(sse.starts_with("event: message_start\n"), "{sse}");
        assert!(
            sse.ends_with("event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"),
            "{sse}"
        );
        assert_eq!(
            route_answer("openai-chat", &json!({"messages": []}), &lines, 0, 7),
            None
        );
    }

    #[test]
    fn jobs_round_trip_through_json() {
        let req = json!({"model": "smollm2", "options": {"temperature": 0}, "stream": true, "truncate": false});
        let mut job = Job::new(Endpoint::Chat, &req, "P".into(), Some("<s>".into()), true);
        assert!(!job.truncate && job.shift && !job.raw);
        job.answer = json!({"endpoint": "chat", "parser": "qwen3", "template": ""});
        assert_eq!(Job::from_json(&job.to_json()).unwrap(), job);
        let raw = Job::new(
            Endpoint::Generate,
            &json!({"model": "m", "raw": true}),
            "p".into(),
            None,
            false,
        );
        assert!(!raw.wants_context());
    }

    #[test]
    fn memory_check_refuses_big_files_with_a_message() {
        assert!(check_memory(98_362_432).is_ok());
        let e = check_memory(4 << 30).unwrap_err();
        assert!(e.contains("4.0 GiB") && e.contains("1.5 GiB"), "{e}");
    }

    #[test]
    fn chunks_fold_into_a_summary() {
        let job = Job::new(
            Endpoint::Chat,
            &json!({"model": "m"}),
            "p".into(),
            None,
            false,
        );
        let out = |content: &str, thinking: &str| Out {
            content: content.into(),
            thinking: thinking.into(),
            ..Out::default()
        };
        let t = Metrics {
            total_duration: 900_000_000,
            prompt_eval_count: 27,
            prompt_eval_duration: 500_000_000,
            eval_count: 8,
            eval_duration: 200_000_000,
            ..Metrics::default()
        };
        let lines = vec![
            text_chunk(&job, "t", &out("", "Hmm."), None).to_string(),
            text_chunk(&job, "t", &out("The", ""), None).to_string(),
            text_chunk(&job, "t", &out(" capital", ""), None).to_string(),
            final_chunk(&job, "t", &Out::default(), "stop", t, None).to_string(),
        ];
        let s = summarize(&lines);
        assert_eq!(s.text, "The capital");
        assert_eq!(s.thinking, "Hmm.");
        assert_eq!(s.done_reason.as_deref(), Some("stop"));
        assert_eq!((s.prompt_eval_count, s.eval_count), (27, 8));
        assert_eq!(s.tokens_per_second, Some(40.0));
        assert_eq!(s.prompt_tokens_per_second, Some(54.0));
    }
}
