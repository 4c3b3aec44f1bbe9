//! What a compatibility route writes back for the native handler's
//! responses: middleware/openai.go's `ChatWriter` and `CompleteWriter`
//! (`ToChatCompletion`, `ToStreamChunks`, `FinishChunk`, `ToUsage`,
//! `ToCompletion`, `ToCompleteChunk`), fed the native response JSON as the
//! handler writes it, chunk by chunk.

use serde_json::Value as Json;

use super::marshal::ordered;
use super::Route;
use crate::date::Date;
use crate::gojson::J;

/// Unix seconds of an RFC 3339 time as Go's `time.Time.Unix()`; `None` for
/// Go's zero time or text that is not a time.
pub fn unix_seconds(s: &str) -> Option<i64> {
    if !s.is_ascii() {
        return None;
    }
    let date = Date::parse(s.get(..10)?)?;
    let b = s.as_bytes();
    if b.get(10) != Some(&b'T') {
        return None;
    }
    let num = |a: usize, z: usize| s.get(a..z)?.parse::<i64>().ok();
    let (h, m, sec) = (num(11, 13)?, num(14, 16)?, num(17, 19)?);
    let mut rest = s.get(19..)?;
    if let Some(r) = rest.strip_prefix('.') {
        rest = r.trim_start_matches(|c: char| c.is_ascii_digit());
    }
    let offset = match rest {
        "Z" => 0,
        z if z.len() == 6 => {
            let sign = if z.starts_with('-') { -1 } else { 1 };
            sign * (z.get(1..3)?.parse::<i64>().ok()? * 3600
                + z.get(4..6)?.parse::<i64>().ok()? * 60)
        }
        _ => return None,
    };
    if date.days() == Date::parse("0001-01-01")?.days() && h == 0 && m == 0 && sec == 0 {
        return None;
    }
    Some(date.days() * 86_400 + h * 3600 + m * 60 + sec - offset)
}

/// `ToToolCalls`: a native response's tool calls in OpenAI's shape.
pub(crate) fn tool_calls(calls: &[Json]) -> Vec<J> {
    calls
        .iter()
        .map(|tc| {
            let f = &tc["function"];
            let args = arguments_json(tc);
            J::Obj(vec![
                ("id".into(), J::s(tc["id"].as_str().unwrap_or(""))),
                ("index".into(), J::int(f["index"].as_i64().unwrap_or(0))),
                ("type".into(), J::s("function")),
                (
                    "function".into(),
                    J::Obj(vec![
                        ("name".into(), J::s(f["name"].as_str().unwrap_or(""))),
                        ("arguments".into(), J::s(args)),
                    ]),
                ),
            ])
        })
        .collect()
}

pub(crate) fn arguments_json(tc: &Json) -> String {
    match tc["function"].get("arguments") {
        Some(Json::Object(m)) => ordered(m).to_json(),
        _ => "{}".to_string(),
    }
}

fn usage(r: &Json) -> J {
    let p = r["prompt_eval_count"].as_i64().unwrap_or(0);
    let e = r["eval_count"].as_i64().unwrap_or(0);
    J::Obj(vec![
        ("prompt_tokens".into(), J::int(p)),
        ("completion_tokens".into(), J::int(e)),
        ("total_tokens".into(), J::int(p + e)),
    ])
}

fn logprobs(r: &Json) -> Option<J> {
    match r.get("logprobs") {
        Some(Json::Array(a)) if !a.is_empty() => Some(J::Obj(vec![(
            "content".into(),
            super::marshal::raw(&Json::Array(a.clone())),
        )])),
        _ => None,
    }
}

fn reason_or_null(reason: &str) -> J {
    if reason.is_empty() {
        J::Null
    } else {
        J::s(reason)
    }
}

/// The ids a route's middleware draws at random for one request, drawn
/// from `seed`: `chatcmpl-N` and `cmpl-N` (N below 999), Responses'
/// `resp_N` and `msg_N` (below 999,999), Anthropic's `msg_` and 24 hex
/// digits. The second is empty where the route draws one id.
pub fn random_ids(route: Route, seed: u64) -> (String, String) {
    match route {
        Route::OpenAiChat => (format!("chatcmpl-{}", seed % 999), String::new()),
        Route::OpenAiCompletions => (format!("cmpl-{}", seed % 999), String::new()),
        Route::OpenAiResponses => (
            format!("resp_{}", seed % 999_999),
            format!("msg_{}", (seed / 999_999) % 999_999),
        ),
        Route::AnthropicMessages => (
            super::anthropic::id_for("msg", &seed.to_string()),
            String::new(),
        ),
    }
}

/// A route's response writer for one request.
pub struct Writer {
    route: Route,
    responses: Option<super::reply_responses::Responses>,
    anthropic: Option<super::reply_anthropic::Anthropic>,
    stream: bool,
    include_usage: bool,
    id: String,
    /// Unix seconds for the chunks that take `time.Now()`.
    now: i64,
    tool_call_sent: bool,
    first_chunk_sent: bool,
    created: Option<i64>,
    /// A release before `openai_stream_wire_format`.
    before_wire_format: bool,
    /// A release before `openai_finish_length_over_tool_calls`.
    before_length_precedence: bool,
    /// The release that writes.
    release: changes::Release,
}

impl Writer {
    /// A writer for a converted request; `id` is what the middleware draws
    /// at random (`chatcmpl-N`, `cmpl-N`), `now` the clock for the fields
    /// Ollama stamps with `time.Now()`.
    pub fn new(route: Route, stream: bool, include_usage: bool, id: &str, now: i64) -> Writer {
        Writer {
            route,
            responses: None,
            anthropic: None,
            stream,
            include_usage,
            id: id.to_string(),
            now,
            tool_call_sent: false,
            first_chunk_sent: false,
            created: None,
            before_wire_format: false,
            before_length_precedence: false,
            release: changes::Release::NEWEST,
        }
    }

    /// The writer for a route's request: `body` as the client sent it,
    /// `ids` what the middleware draws at random (`chatcmpl-N`, `cmpl-N`;
    /// for Responses the response and message ids `resp_N`, `msg_N`; for
    /// Anthropic the message id `msg_<24 hex>`), `now` the Unix seconds
    /// Ollama takes from `time.Now()`, `seed` for the ids the Responses
    /// stream draws as it goes (`rs_N`, `fc_N_i`).
    pub fn for_route(
        route: Route,
        body: &Json,
        stream: bool,
        include_usage: bool,
        ids: (&str, &str),
        now: i64,
        seed: u64,
    ) -> Writer {
        let mut w = Writer::new(route, stream, include_usage, ids.0, now);
        match route {
            Route::OpenAiResponses => {
                w.responses = Some(super::reply_responses::Responses::new(
                    ids.0,
                    ids.1,
                    super::responses::decode(body),
                    stream,
                    now,
                    seed,
                ))
            }
            Route::AnthropicMessages => {
                w.anthropic = Some(super::reply_anthropic::Anthropic::new(
                    ids.0,
                    super::anthropic::decode(body),
                    stream,
                    None,
                ))
            }
            _ => {}
        }
        w
    }

    /// The writer as an Ollama release writes (the chat stream's wire
    /// format and finish reason, the Responses stream's items, the
    /// Anthropic stream's blocks).
    pub fn with_release(mut self, release: changes::Release) -> Writer {
        if let Some(r) = &mut self.responses {
            r.set_release(release);
        }
        if let Some(a) = &mut self.anthropic {
            a.set_release(release);
        }
        self.release = release;
        self.before_wire_format = !release.has(&changes::ollama::OPENAI_STREAM_WIRE_FORMAT);
        self.before_length_precedence =
            !release.has(&changes::ollama::OPENAI_FINISH_LENGTH_OVER_TOOL_CALLS);
        self
    }

    /// The body's text, where it is known (a server has it): Anthropic's
    /// token estimate counts tool schemas as written.
    pub fn with_body_text(mut self, body: &Json, text: &str) -> Writer {
        if self.route == Route::AnthropicMessages {
            self.anthropic = Some(super::reply_anthropic::Anthropic::new(
                &self.id,
                super::anthropic::decode(body),
                self.stream,
                Some(text),
            ));
            if let Some(a) = &mut self.anthropic {
                a.set_release(self.release);
            }
        }
        self
    }

    /// The bytes written for one native response body with its status.
    pub fn write(&mut self, status: u16, data: &Json) -> String {
        if status != 200 {
            return self.error(status, &Ok(data.clone()));
        }
        self.write_ok(data)
    }

    /// The same for a body given as text (a handler's error may not be
    /// JSON: its text is then the message).
    pub fn write_text(&mut self, status: u16, text: &str) -> String {
        let data = serde_json::from_str::<Json>(text).map_err(|_| text.to_string());
        if status != 200 {
            return self.error(status, &data);
        }
        self.write_ok(&data.unwrap_or(Json::Null))
    }

    /// `writeError`: the message as `api.StatusError` (or, on the Anthropic
    /// route, a struct of `error` alone) reads it from the handler's body.
    fn error(&self, status: u16, data: &Result<Json, String>) -> String {
        let field = |o: &serde_json::Map<String, Json>, name: &str| -> Result<String, ()> {
            match o
                .iter()
                .rev()
                .find(|(k, _)| crate::godecode::fold_eq(k, name))
                .map(|(_, v)| v)
            {
                None | Some(Json::Null) => Ok(String::new()),
                Some(Json::String(s)) => Ok(s.clone()),
                Some(_) => Err(()),
            }
        };
        let message = match data {
            Err(text) => text.clone(),
            Ok(Json::Object(o)) => {
                let e = field(o, "error");
                let s = if self.route == Route::AnthropicMessages {
                    Ok(String::new())
                } else {
                    field(o, "status")
                };
                let code_ok = !o.iter().any(|(k, v)| {
                    crate::godecode::fold_eq(k, "statuscode") && !v.is_null() && !v.is_i64()
                }) || self.route == Route::AnthropicMessages;
                match (s, e) {
                    (Ok(s), Ok(e)) if code_ok => match (s.is_empty(), e.is_empty()) {
                        (false, false) => format!("{s}: {e}"),
                        (false, true) => s,
                        (true, false) => e,
                        (true, true) if self.route == Route::AnthropicMessages => String::new(),
                        (true, true) => {
                            "something went wrong, please see the ollama server logs for details"
                                .into()
                        }
                    },
                    _ => data.as_ref().map(|d| d.to_string()).unwrap_or_default(),
                }
            }
            Ok(Json::Null) if self.route == Route::AnthropicMessages => String::new(),
            Ok(Json::Null) => {
                "something went wrong, please see the ollama server logs for details".into()
            }
            Ok(other) => other.to_string(),
        };
        let request_id = super::anthropic::id_for("req", &format!("{}{message}", self.id));
        self.route.error_body(status, &message, true, &request_id)
    }

    fn write_ok(&mut self, data: &Json) -> String {
        if let Some(r) = &mut self.responses {
            return r.write(data);
        }
        if let Some(a) = &mut self.anthropic {
            return a.write(data);
        }
        match self.route {
            Route::OpenAiCompletions => self.complete(data),
            _ => self.chat(data),
        }
    }

    fn chunk(&self, r: &Json, created: i64, delta: Vec<(String, J)>, lp: Option<J>) -> J {
        let mut choice = vec![
            ("index".into(), J::int(0)),
            ("delta".into(), J::Obj(delta)),
            ("finish_reason".into(), J::Null),
        ];
        if let Some(l) = lp {
            choice.push(("logprobs".into(), l));
        }
        J::Obj(vec![
            ("id".into(), J::s(&self.id)),
            ("object".into(), J::s("chat.completion.chunk")),
            ("created".into(), J::int(created)),
            ("model".into(), J::s(r["model"].as_str().unwrap_or(""))),
            ("system_fingerprint".into(), J::s("fp_ollama")),
            ("choices".into(), J::Arr(vec![J::Obj(choice)])),
        ])
    }

    /// A `chat.completion.chunk` with its choices (and usage), as text.
    fn chunk_text(&self, r: &Json, created: i64, choices: J, usage: Option<J>) -> String {
        let mut o = vec![
            ("id".into(), J::s(&self.id)),
            ("object".into(), J::s("chat.completion.chunk")),
            ("created".into(), J::int(created)),
            ("model".into(), J::s(r["model"].as_str().unwrap_or(""))),
            ("system_fingerprint".into(), J::s("fp_ollama")),
            ("choices".into(), choices),
        ];
        if let Some(u) = usage {
            o.push(("usage".into(), u));
        }
        J::Obj(o).to_json()
    }

    fn chat(&mut self, r: &Json) -> String {
        let (content, thinking, calls) = message_parts(r);
        let done = r["done"].as_bool().unwrap_or(false);
        let reason = r["done_reason"].as_str().unwrap_or("");
        if !self.stream {
            let tc = tool_calls(calls);
            let mut m = vec![
                (
                    "role".into(),
                    J::s(r["message"]["role"].as_str().unwrap_or("")),
                ),
                ("content".into(), J::s(content)),
            ];
            if !thinking.is_empty() {
                m.push(("reasoning".into(), J::s(thinking)));
            }
            let finish = if !tc.is_empty() && (reason == "stop" || self.before_length_precedence) {
                "tool_calls"
            } else {
                reason
            };
            if !tc.is_empty() {
                m.push(("tool_calls".into(), J::Arr(tc)));
            }
            let mut choice = vec![
                ("index".into(), J::int(0)),
                ("message".into(), J::Obj(m)),
                ("finish_reason".into(), reason_or_null(finish)),
            ];
            if let Some(l) = logprobs(r) {
                choice.push(("logprobs".into(), l));
            }
            let mut o = vec![
                ("id".into(), J::s(&self.id)),
                ("object".into(), J::s("chat.completion")),
                (
                    "created".into(),
                    J::int(
                        r["created_at"]
                            .as_str()
                            .and_then(unix_seconds)
                            .unwrap_or(-62135596800),
                    ),
                ),
                ("model".into(), J::s(r["model"].as_str().unwrap_or(""))),
                ("system_fingerprint".into(), J::s("fp_ollama")),
                ("choices".into(), J::Arr(vec![J::Obj(choice)])),
                ("usage".into(), usage(r)),
            ];
            if let Some(d) = r.get("_debug_info") {
                o.push(("_debug_info".into(), super::marshal::raw(d)));
            }
            let mut s = J::Obj(o).to_json();
            s.push('\n');
            return s;
        }
        if self.before_wire_format {
            return self.chat_stream_before_wire_format(r);
        }
        // One created value for the whole stream: the first response's.
        let created = *self.created.get_or_insert_with(|| {
            r["created_at"]
                .as_str()
                .and_then(unix_seconds)
                .unwrap_or(self.now)
        });
        let mut out = String::new();
        let empty_trailer = done
            && self.first_chunk_sent
            && content.is_empty()
            && thinking.is_empty()
            && calls.is_empty()
            && logprobs(r).is_none();
        if !empty_trailer {
            let role = (!self.first_chunk_sent).then(|| ("role".to_string(), J::s("assistant")));
            let tc = tool_calls(calls);
            let mixed = !thinking.is_empty() && (!content.is_empty() || !tc.is_empty());
            let mut chunks = Vec::new();
            if mixed {
                let mut d: Vec<(String, J)> = role.into_iter().collect();
                d.push(("reasoning".into(), J::s(thinking)));
                chunks.push((self.chunk(r, created, d, logprobs(r)), false));
                let mut d = vec![("content".to_string(), J::s(content))];
                if !tc.is_empty() {
                    d.push(("tool_calls".into(), J::Arr(tc)));
                }
                chunks.push((self.chunk(r, created, d, None), !calls.is_empty()));
            } else {
                let mut d: Vec<(String, J)> = role.into_iter().collect();
                d.push(("content".into(), J::s(content)));
                if !thinking.is_empty() {
                    d.push(("reasoning".into(), J::s(thinking)));
                }
                if !tc.is_empty() {
                    d.push(("tool_calls".into(), J::Arr(tc)));
                }
                chunks.push((self.chunk(r, created, d, logprobs(r)), !calls.is_empty()));
            }
            for (c, has_calls) in chunks {
                if has_calls {
                    self.tool_call_sent = true;
                }
                out.push_str(&format!("data: {}\n\n", c.to_json()));
            }
            self.first_chunk_sent = true;
        }
        if done {
            let mut reason = if reason.is_empty() { "stop" } else { reason };
            if reason == "stop" && self.tool_call_sent {
                reason = "tool_calls";
            }
            let finish = |choices: J, usage: Option<J>| self.chunk_text(r, created, choices, usage);
            let choice = J::Arr(vec![J::Obj(vec![
                ("index".into(), J::int(0)),
                ("delta".into(), J::Obj(Vec::new())),
                ("finish_reason".into(), J::s(reason)),
            ])]);
            out.push_str(&format!("data: {}\n\n", finish(choice, None)));
            if self.include_usage {
                out.push_str(&format!(
                    "data: {}\n\n",
                    finish(J::Arr(Vec::new()), Some(usage(r)))
                ));
            }
            out.push_str("data: [DONE]\n\n");
        }
        out
    }

    /// A streamed chat response before `openai_stream_wire_format`
    /// (`ToChunks`, `ChatWriter.writeResponse` at v0.32.5): every chunk
    /// with the role and its content (`""` in the reasoning half of a
    /// split), each stamped now; the finish reason on the done response's
    /// own chunk (`tool_calls` for any reason once a call was sent or the
    /// response has one); the usage chunk a copy of that chunk with no
    /// choices.
    fn chat_stream_before_wire_format(&mut self, r: &Json) -> String {
        let (content, thinking, calls) = message_parts(r);
        let reason = r["done_reason"].as_str().unwrap_or("");
        let finish = if reason.is_empty() {
            J::Null
        } else if self.tool_call_sent || !calls.is_empty() {
            J::s("tool_calls")
        } else {
            J::s(reason)
        };
        let tc = tool_calls(calls);
        let delta = |content: &str, reasoning: &str, tc: Vec<J>| {
            let mut d = vec![
                ("role".to_string(), J::s("assistant")),
                ("content".to_string(), J::s(content)),
            ];
            if !reasoning.is_empty() {
                d.push(("reasoning".into(), J::s(reasoning)));
            }
            if !tc.is_empty() {
                d.push(("tool_calls".into(), J::Arr(tc)));
            }
            d
        };
        let choice = |delta: Vec<(String, J)>, finish: J, lp: Option<J>| {
            let mut c = vec![
                ("index".to_string(), J::int(0)),
                ("delta".into(), J::Obj(delta)),
                ("finish_reason".into(), finish),
            ];
            if let Some(l) = lp {
                c.push(("logprobs".into(), l));
            }
            J::Obj(c)
        };
        let mixed = !thinking.is_empty() && (!content.is_empty() || !tc.is_empty());
        let with_calls = !tc.is_empty();
        let choices = if mixed {
            vec![
                (
                    choice(delta("", thinking, Vec::new()), J::Null, logprobs(r)),
                    false,
                ),
                (choice(delta(content, "", tc), finish, None), with_calls),
            ]
        } else {
            vec![(
                choice(delta(content, thinking, tc), finish, logprobs(r)),
                with_calls,
            )]
        };
        let chunk = |choices: J, usage: Option<J>| self.chunk_text(r, self.now, choices, usage);
        let mut out = String::new();
        let mut sent = false;
        for (c, has_calls) in choices {
            out.push_str(&format!("data: {}\n\n", chunk(J::Arr(vec![c]), None)));
            sent |= has_calls;
        }
        if r["done"].as_bool().unwrap_or(false) {
            if self.include_usage {
                out.push_str(&format!(
                    "data: {}\n\n",
                    chunk(J::Arr(Vec::new()), Some(usage(r)))
                ));
            }
            out.push_str("data: [DONE]\n\n");
        }
        self.tool_call_sent |= sent;
        out
    }

    fn complete(&mut self, r: &Json) -> String {
        let reason = r["done_reason"].as_str().unwrap_or("");
        let choice = J::Arr(vec![J::Obj(vec![
            ("text".into(), J::s(r["response"].as_str().unwrap_or(""))),
            ("index".into(), J::int(0)),
            ("finish_reason".into(), reason_or_null(reason)),
        ])]);
        let model = J::s(r["model"].as_str().unwrap_or(""));
        if !self.stream {
            let created = r["created_at"]
                .as_str()
                .and_then(unix_seconds)
                .unwrap_or(-62135596800);
            let mut s = J::Obj(vec![
                ("id".into(), J::s(&self.id)),
                ("object".into(), J::s("text_completion")),
                ("created".into(), J::int(created)),
                ("model".into(), model),
                ("system_fingerprint".into(), J::s("fp_ollama")),
                ("choices".into(), choice),
                ("usage".into(), usage(r)),
            ])
            .to_json();
            s.push('\n');
            return s;
        }
        let chunk = |choices: J, usage: Option<J>| {
            let mut o = vec![
                ("id".into(), J::s(&self.id)),
                ("object".into(), J::s("text_completion")),
                ("created".into(), J::int(self.now)),
                ("choices".into(), choices),
                ("model".into(), model.clone()),
                ("system_fingerprint".into(), J::s("fp_ollama")),
            ];
            if let Some(u) = usage {
                o.push(("usage".into(), u));
            }
            format!("data: {}\n\n", J::Obj(o).to_json())
        };
        let zero = self.include_usage.then(|| usage(&Json::Null));
        let mut out = chunk(choice, zero);
        if r["done"].as_bool().unwrap_or(false) {
            if self.include_usage {
                out.push_str(&chunk(J::Arr(Vec::new()), Some(usage(r))));
            }
            out.push_str("data: [DONE]\n\n");
        }
        out
    }
}

/// Anthropic's `EstimateInputTokens` for a `/v1/messages` body: the input
/// token count `message_start` reports until the real one is known.
pub fn estimate_input_tokens(body: &Json, body_text: Option<&str>) -> i64 {
    super::reply_anthropic::estimate_input_tokens(&super::anthropic::decode(body), body_text)
}

/// A native chat response's message: content, thinking and tool calls.
fn message_parts(r: &Json) -> (&str, &str, &[Json]) {
    let msg = &r["message"];
    (
        msg["content"].as_str().unwrap_or(""),
        msg["thinking"].as_str().unwrap_or(""),
        msg["tool_calls"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or(&[]),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times() {
        assert_eq!(unix_seconds("1970-01-02T00:00:01Z"), Some(86_401));
        assert_eq!(
            unix_seconds("2024-06-01T12:00:00.5+02:00"),
            Some(1_717_236_000)
        );
        assert_eq!(unix_seconds("0001-01-01T00:00:00Z"), None);
        // found by the compat fuzz target: a multi-byte zone
        assert_eq!(unix_seconds("2024-06-01T12:00:00é0:00"), None);
        assert_eq!(unix_seconds("2024-06-01T12:00:00+0é:00"), None);
    }

    #[test]
    fn a_stream_ends_with_finish_usage_and_done() {
        let mut w = Writer::new(Route::OpenAiChat, true, true, "chatcmpl-1", 5);
        let a = w.write(
            200,
            &serde_json::json!({"model":"m","created_at":"1970-01-01T00:00:10Z","message":{"role":"assistant","content":"Hi"},"done":false}),
        );
        assert_eq!(a, "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":10,\"model\":\"m\",\"system_fingerprint\":\"fp_ollama\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"Hi\"},\"finish_reason\":null}]}\n\n");
        let b = w.write(
            200,
            &serde_json::json!({"model":"m","created_at":"1970-01-01T00:00:11Z","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop","prompt_eval_count":3,"eval_count":1}),
        );
        assert!(b.ends_with("\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":1,\"total_tokens\":4}}\n\ndata: [DONE]\n\n"), "{b}");
        assert!(b.starts_with(
            "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":10,"
        ));
    }
}
