//! `/v1/responses`' writer (middleware/openai.go `ResponsesWriter`):
//! `openai.ToResponse` unstreamed, `ResponsesStreamConverter` streamed.
//! The converter's events are Go maps, so their keys come out sorted.

use serde_json::Value as Json;

use super::marshal::{obj, raw};
use super::reply::{arguments_json, unix_seconds};
use crate::godecode::Got;
use crate::gojson::J;

/// A Go `map[string]any`: keys sorted.
fn m(kv: Vec<(&str, J)>) -> J {
    let mut kv: Vec<(String, J)> = kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
    kv.sort_by(|a, b| a.0.cmp(&b.0));
    J::Obj(kv)
}

fn text_part(text: &str) -> J {
    m(vec![
        ("type", J::s("output_text")),
        ("text", J::s(text)),
        ("annotations", J::Arr(Vec::new())),
        ("logprobs", J::Arr(Vec::new())),
    ])
}

fn message_item(id: &str, text: &str) -> J {
    m(vec![
        ("id", J::s(id)),
        ("type", J::s("message")),
        ("status", J::s("completed")),
        ("role", J::s("assistant")),
        ("content", J::Arr(vec![text_part(text)])),
    ])
}

/// A completed reasoning item (`finishReasoning`, `buildFinalOutput`).
fn reasoning_item(id: &str, thinking: &str) -> J {
    m(vec![
        ("id", J::s(id)),
        ("type", J::s("reasoning")),
        (
            "summary",
            J::Arr(vec![m(vec![
                ("type", J::s("summary_text")),
                ("text", J::s(thinking)),
            ])]),
        ),
        ("encrypted_content", J::s(thinking)),
    ])
}

fn opt_str(v: Option<&Json>) -> J {
    match v {
        Some(Json::String(s)) => J::s(s),
        _ => J::Null,
    }
}

/// A `ResponsesTool` echoed back: its fields in struct order (the stream's
/// map of them sorts them).
fn tool_fields(t: &Got) -> Vec<(&'static str, J)> {
    vec![
        ("type", J::s(t.str("type"))),
        ("name", J::s(t.str("name"))),
        ("description", opt_str(t.get("description"))),
        (
            "strict",
            t.get("strict")
                .map(|b| J::Bool(b.as_bool().unwrap_or(false)))
                .unwrap_or(J::Null),
        ),
        (
            "parameters",
            t.get("parameters").map(J::from_any).unwrap_or(J::Null),
        ),
    ]
}

/// The request's `text.format` echoed back (`{"type": "text"}` when it
/// has none), fields in struct order.
fn format_fields(g: &Got) -> Vec<(&'static str, J)> {
    if g.sub("text").get("format").is_none() {
        return vec![("type", J::s("text"))];
    }
    let f = g.sub("text").sub("format");
    let mut format = vec![("type", J::s(f.str("type")))];
    if !f.str("name").is_empty() {
        format.push(("name", J::s(f.str("name"))));
    }
    if let Some(s) = f.get("schema") {
        format.push(("schema", raw(s)));
    }
    if let Some(b) = f.get("strict").and_then(Json::as_bool) {
        format.push(("strict", J::Bool(b)));
    }
    format
}

/// The `ResponsesWriter` state for one request.
pub(crate) struct Responses {
    response_id: String,
    item_id: String,
    req: Json,
    stream: bool,
    now: i64,
    rng: u64,
    first_write: bool,
    output_index: i64,
    content_index: i64,
    content_started: bool,
    tool_calls_sent: bool,
    accumulated_text: String,
    seq: i64,
    accumulated_thinking: String,
    reasoning_item_id: String,
    reasoning_started: bool,
    completed: Vec<J>,
    /// Before `responses_stream_items` (Ollama 0.32.10-rc0): one reasoning
    /// item, function calls that do not move the output index, and a final
    /// output of the reasoning, then the calls or else the message.
    before_items: bool,
    /// (before) The reasoning item was closed.
    reasoning_done: bool,
    /// (before) The function calls, for the final output.
    tool_call_items: Vec<J>,
}

impl Responses {
    pub(crate) fn new(
        response_id: &str,
        item_id: &str,
        req: Json,
        stream: bool,
        now: i64,
        seed: u64,
    ) -> Responses {
        Responses {
            response_id: response_id.into(),
            item_id: item_id.into(),
            req,
            stream,
            now,
            rng: seed | 1,
            first_write: true,
            output_index: 0,
            content_index: 0,
            content_started: false,
            tool_calls_sent: false,
            accumulated_text: String::new(),
            seq: 0,
            accumulated_thinking: String::new(),
            reasoning_item_id: String::new(),
            reasoning_started: false,
            completed: Vec::new(),
            before_items: false,
            reasoning_done: false,
            tool_call_items: Vec::new(),
        }
    }

    /// The converter as a release has it (`responses_stream_items`).
    pub(crate) fn set_release(&mut self, release: changes::Release) {
        self.before_items = !release.has(&changes::ollama::RESPONSES_STREAM_ITEMS);
    }

    /// `rand.Intn(999999)`, from our own generator.
    fn intn(&mut self) -> u64 {
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        self.rng % 999_999
    }

    fn model(&self) -> String {
        Got::of(Some(&self.req)).str("model").to_string()
    }

    pub(crate) fn write(&mut self, r: &Json) -> String {
        if !self.stream {
            let mut s = self.to_response(r).to_json();
            s.push('\n');
            return s;
        }
        let mut out = String::new();
        for (event, data) in self.process(r) {
            out.push_str(&format!("event: {event}\ndata: {}\n\n", data.to_json()));
        }
        out
    }

    fn event(&mut self, ty: &str, mut data: Vec<(&str, J)>) -> (String, J) {
        data.push(("type", J::s(ty)));
        data.push(("sequence_number", J::int(self.seq)));
        self.seq += 1;
        (ty.to_string(), m(data))
    }

    fn process(&mut self, r: &Json) -> Vec<(String, J)> {
        let mut events = Vec::new();
        let msg = &r["message"];
        let calls = msg["tool_calls"].as_array().cloned().unwrap_or_default();
        let thinking = msg["thinking"].as_str().unwrap_or("").to_string();
        let content = msg["content"].as_str().unwrap_or("").to_string();
        if self.first_write {
            self.first_write = false;
            for ty in ["response.created", "response.in_progress"] {
                let resp = self.response_object("in_progress", Vec::new(), J::Null);
                events.push(self.event(ty, vec![("response", resp)]));
            }
        }
        if !thinking.is_empty() {
            events.extend(self.thinking(&thinking));
        }
        if !calls.is_empty() {
            events.extend(self.finish_reasoning());
            events.extend(self.function_calls(&calls));
            self.tool_calls_sent = true;
        }
        if calls.is_empty() && !self.tool_calls_sent && !content.is_empty() {
            events.extend(self.text(&content));
        }
        if r["done"].as_bool().unwrap_or(false) {
            events.extend(self.completion(r));
        }
        events
    }

    fn tools_map(&self) -> J {
        let g = Got::of(Some(&self.req));
        J::Arr(
            g.list("tools")
                .iter()
                .map(|t| m(tool_fields(&Got::of(Some(t)))))
                .collect(),
        )
    }

    fn response_object(&self, status: &str, output: Vec<J>, usage: J) -> J {
        let g = Got::of(Some(&self.req));
        let instructions = match g.str("instructions") {
            "" => J::Null,
            s => J::s(s),
        };
        let truncation = g
            .get("truncation")
            .and_then(Json::as_str)
            .unwrap_or("disabled");
        let format = format_fields(&g);
        let rs = g.sub("reasoning");
        let reasoning = if !rs.str("effort").is_empty() || !rs.str("summary").is_empty() {
            let v = |k: &str| match rs.str(k) {
                "" => J::Null,
                s => J::s(s),
            };
            m(vec![("effort", v("effort")), ("summary", v("summary"))])
        } else {
            J::Null
        };
        let f64_or = |k: &str| g.get(k).and_then(Json::as_f64).unwrap_or(1.0);
        m(vec![
            ("id", J::s(&self.response_id)),
            ("object", J::s("response")),
            ("created_at", J::int(self.now)),
            ("completed_at", J::Null),
            ("status", J::s(status)),
            ("incomplete_details", J::Null),
            ("model", J::s(self.model())),
            ("previous_response_id", J::Null),
            ("instructions", instructions),
            ("output", J::Arr(output)),
            ("error", J::Null),
            ("tools", self.tools_map()),
            ("tool_choice", J::s("auto")),
            ("truncation", J::s(truncation)),
            ("parallel_tool_calls", J::Bool(true)),
            ("text", m(vec![("format", m(format))])),
            ("top_p", J::float(f64_or("top_p"), 64)),
            ("presence_penalty", J::int(0)),
            ("frequency_penalty", J::int(0)),
            ("top_logprobs", J::int(0)),
            ("temperature", J::float(f64_or("temperature"), 64)),
            ("reasoning", reasoning),
            ("usage", usage),
            (
                "max_output_tokens",
                g.get("max_output_tokens")
                    .map(|n| J::int(n.as_i64().unwrap_or(0)))
                    .unwrap_or(J::Null),
            ),
            ("max_tool_calls", J::Null),
            ("store", J::Bool(false)),
            ("background", J::Bool(g.bool("background"))),
            ("service_tier", J::s("default")),
            ("metadata", J::Obj(Vec::new())),
            ("safety_identifier", J::Null),
            ("prompt_cache_key", J::Null),
        ])
    }

    fn thinking(&mut self, thinking: &str) -> Vec<(String, J)> {
        let mut events = Vec::new();
        if !self.reasoning_started {
            self.reasoning_started = true;
            self.reasoning_item_id = format!("rs_{}", self.intn());
            let item = m(vec![
                ("id", J::s(&self.reasoning_item_id)),
                ("type", J::s("reasoning")),
                ("summary", J::Arr(Vec::new())),
            ]);
            let oi = J::int(self.output_index);
            events.push(self.event(
                "response.output_item.added",
                vec![("output_index", oi), ("item", item)],
            ));
        }
        self.accumulated_thinking.push_str(thinking);
        let (id, oi) = (J::s(&self.reasoning_item_id), J::int(self.output_index));
        events.push(self.event(
            "response.reasoning_summary_text.delta",
            vec![
                ("item_id", id),
                ("output_index", oi),
                ("summary_index", J::int(0)),
                ("delta", J::s(thinking)),
            ],
        ));
        events
    }

    fn finish_reasoning(&mut self) -> Vec<(String, J)> {
        if !self.reasoning_started || (self.before_items && self.reasoning_done) {
            return Vec::new();
        }
        let (id, thinking) = if self.before_items {
            // the item stays open to later thinking
            self.reasoning_done = true;
            (
                self.reasoning_item_id.clone(),
                self.accumulated_thinking.clone(),
            )
        } else {
            (
                std::mem::take(&mut self.reasoning_item_id),
                std::mem::take(&mut self.accumulated_thinking),
            )
        };
        let oi = self.output_index;
        let item = reasoning_item(&id, &thinking);
        if !self.before_items {
            self.completed.push(item.clone());
            self.reasoning_started = false;
        }
        self.output_index += 1;
        vec![
            self.event(
                "response.reasoning_summary_text.done",
                vec![
                    ("item_id", J::s(&id)),
                    ("output_index", J::int(oi)),
                    ("summary_index", J::int(0)),
                    ("text", J::s(&thinking)),
                ],
            ),
            self.event(
                "response.output_item.done",
                vec![("output_index", J::int(oi)), ("item", item)],
            ),
        ]
    }

    fn function_calls(&mut self, calls: &[Json]) -> Vec<(String, J)> {
        let mut events = Vec::new();
        for (i, tc) in calls.iter().enumerate() {
            let oi = self.output_index + i as i64;
            let id = format!("fc_{}_{i}", self.intn());
            let call_id = tc["id"].as_str().unwrap_or("");
            let name = tc["function"]["name"].as_str().unwrap_or("");
            let args = arguments_json(tc);
            let item = |status: &str, args: &str| {
                m(vec![
                    ("id", J::s(&id)),
                    ("type", J::s("function_call")),
                    ("status", J::s(status)),
                    ("call_id", J::s(call_id)),
                    ("name", J::s(name)),
                    ("arguments", J::s(args)),
                ])
            };
            let done = item("completed", &args);
            if self.before_items {
                self.tool_call_items.push(done.clone());
            } else {
                self.completed.push(done.clone());
            }
            let added = item("in_progress", "");
            events.push(self.event(
                "response.output_item.added",
                vec![("output_index", J::int(oi)), ("item", added)],
            ));
            // (before: no delta for empty arguments)
            if !self.before_items || !args.is_empty() {
                events.push(self.event(
                    "response.function_call_arguments.delta",
                    vec![
                        ("item_id", J::s(&id)),
                        ("output_index", J::int(oi)),
                        ("delta", J::s(&args)),
                    ],
                ));
            }
            events.push(self.event(
                "response.function_call_arguments.done",
                vec![
                    ("item_id", J::s(&id)),
                    ("output_index", J::int(oi)),
                    ("arguments", J::s(&args)),
                ],
            ));
            events.push(self.event(
                "response.output_item.done",
                vec![("output_index", J::int(oi)), ("item", done)],
            ));
        }
        if !self.before_items {
            self.output_index += calls.len() as i64;
        }
        events
    }

    fn text(&mut self, content: &str) -> Vec<(String, J)> {
        let mut events = self.finish_reasoning();
        if !self.content_started {
            self.content_started = true;
            let item = m(vec![
                ("id", J::s(&self.item_id)),
                ("type", J::s("message")),
                ("status", J::s("in_progress")),
                ("role", J::s("assistant")),
                ("content", J::Arr(Vec::new())),
            ]);
            let oi = J::int(self.output_index);
            events.push(self.event(
                "response.output_item.added",
                vec![("output_index", oi), ("item", item)],
            ));
            let (id, oi, ci) = (
                J::s(&self.item_id),
                J::int(self.output_index),
                J::int(self.content_index),
            );
            events.push(self.event(
                "response.content_part.added",
                vec![
                    ("item_id", id),
                    ("output_index", oi),
                    ("content_index", ci),
                    ("part", text_part("")),
                ],
            ));
        }
        self.accumulated_text.push_str(content);
        let (id, oi) = (J::s(&self.item_id), J::int(self.output_index));
        events.push(self.event(
            "response.output_text.delta",
            vec![
                ("item_id", id),
                ("output_index", oi),
                ("content_index", J::int(0)),
                ("delta", J::s(content)),
                ("logprobs", J::Arr(Vec::new())),
            ],
        ));
        events
    }

    /// `buildFinalOutput` before `responses_stream_items`: the reasoning
    /// item, then the function calls, or else the message.
    fn final_output_before_items(&self, text: &str) -> Vec<J> {
        let mut output = Vec::new();
        if self.reasoning_started {
            output.push(reasoning_item(
                &self.reasoning_item_id,
                &self.accumulated_thinking,
            ));
        }
        if !self.tool_call_items.is_empty() {
            output.extend(self.tool_call_items.iter().cloned());
        } else if self.content_started {
            output.push(message_item(&self.item_id, text));
        }
        output
    }

    fn completion(&mut self, r: &Json) -> Vec<(String, J)> {
        let mut events = self.finish_reasoning();
        let text = self.accumulated_text.clone();
        if !self.tool_calls_sent && self.content_started {
            let (id, oi) = (self.item_id.clone(), self.output_index);
            events.push(self.event(
                "response.output_text.done",
                vec![
                    ("item_id", J::s(&id)),
                    ("output_index", J::int(oi)),
                    ("content_index", J::int(0)),
                    ("text", J::s(&text)),
                    ("logprobs", J::Arr(Vec::new())),
                ],
            ));
            events.push(self.event(
                "response.content_part.done",
                vec![
                    ("item_id", J::s(&id)),
                    ("output_index", J::int(oi)),
                    ("content_index", J::int(0)),
                    ("part", text_part(&text)),
                ],
            ));
            events.push(self.event(
                "response.output_item.done",
                vec![
                    ("output_index", J::int(oi)),
                    ("item", message_item(&id, &text)),
                ],
            ));
        }
        let p = r["prompt_eval_count"].as_i64().unwrap_or(0);
        let e = r["eval_count"].as_i64().unwrap_or(0);
        let usage = m(vec![
            ("input_tokens", J::int(p)),
            ("output_tokens", J::int(e)),
            ("total_tokens", J::int(p + e)),
            (
                "input_tokens_details",
                m(vec![("cached_tokens", J::int(0))]),
            ),
            (
                "output_tokens_details",
                m(vec![("reasoning_tokens", J::int(0))]),
            ),
        ]);
        let output = if self.before_items {
            self.final_output_before_items(&text)
        } else {
            let mut output = self.completed.clone();
            if self.content_started {
                output.push(message_item(&self.item_id, &text));
            }
            output
        };
        // append([]any(nil), ...) of nothing stays nil: `"output":null`
        let mut response = self.response_object("completed", output, usage);
        if let J::Obj(o) = &mut response {
            for (k, v) in o.iter_mut() {
                if k == "output" && matches!(v, J::Arr(a) if a.is_empty()) {
                    *v = J::Null;
                }
            }
        }
        if let J::Obj(o) = &mut response {
            for (k, v) in o.iter_mut() {
                if k == "completed_at" {
                    *v = J::int(self.now);
                }
            }
        }
        events.push(self.event("response.completed", vec![("response", response)]));
        events
    }

    /// `openai.ToResponse`, with the middleware's `completed_at`.
    fn to_response(&self, r: &Json) -> J {
        let g = Got::of(Some(&self.req));
        let msg = &r["message"];
        let thinking = msg["thinking"].as_str().unwrap_or("");
        let mut output = Vec::new();
        if !thinking.is_empty() {
            output.push(reasoning_item(
                &format!("rs_{}", self.response_id),
                thinking,
            ));
        }
        let calls = msg["tool_calls"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or(&[]);
        if !calls.is_empty() {
            for (i, tc) in calls.iter().enumerate() {
                let mut o = vec![
                    (
                        "id".to_string(),
                        J::s(format!("fc_{}_{i}", self.response_id)),
                    ),
                    ("type".into(), J::s("function_call")),
                    ("status".into(), J::s("completed")),
                ];
                let call_id = tc["id"].as_str().unwrap_or("");
                let name = tc["function"]["name"].as_str().unwrap_or("");
                if !call_id.is_empty() {
                    o.push(("call_id".into(), J::s(call_id)));
                }
                if !name.is_empty() {
                    o.push(("name".into(), J::s(name)));
                }
                o.push(("arguments".into(), J::s(arguments_json(tc))));
                output.push(J::Obj(o));
            }
        } else {
            output.push(J::Obj(vec![
                ("id".into(), J::s(&self.item_id)),
                ("type".into(), J::s("message")),
                ("status".into(), J::s("completed")),
                ("role".into(), J::s("assistant")),
                (
                    "content".into(),
                    J::Arr(vec![J::Obj(vec![
                        ("type".into(), J::s("output_text")),
                        ("text".into(), J::s(msg["content"].as_str().unwrap_or(""))),
                        ("annotations".into(), J::Arr(Vec::new())),
                        ("logprobs".into(), J::Arr(Vec::new())),
                    ])]),
                ),
            ]));
        }
        fn tool(t: &Json) -> J {
            let t = Got::of(Some(t));
            let mut o = tool_fields(&t);
            if !t.list("tools").is_empty() {
                o.push(("tools", J::Arr(t.list("tools").iter().map(tool).collect())));
            }
            obj(o)
        }
        let format = format_fields(&g);
        let rs = g.sub("reasoning");
        let reasoning = if !rs.str("effort").is_empty() || !rs.str("summary").is_empty() {
            let mut o = Vec::new();
            if !rs.str("effort").is_empty() {
                o.push(("effort".to_string(), J::s(rs.str("effort"))));
            }
            if !rs.str("summary").is_empty() {
                o.push(("summary".to_string(), J::s(rs.str("summary"))));
            }
            J::Obj(o)
        } else {
            J::Null
        };
        let p = r["prompt_eval_count"].as_i64().unwrap_or(0);
        let e = r["eval_count"].as_i64().unwrap_or(0);
        let f64_or = |k: &str| g.get(k).and_then(Json::as_f64).unwrap_or(1.0);
        let kv: Vec<(&str, J)> = vec![
            ("id", J::s(&self.response_id)),
            ("object", J::s("response")),
            (
                "created_at",
                J::int(
                    r["created_at"]
                        .as_str()
                        .and_then(unix_seconds)
                        .unwrap_or(-62135596800),
                ),
            ),
            ("completed_at", J::int(self.now)),
            ("status", J::s("completed")),
            ("incomplete_details", J::Null),
            ("model", J::s(self.model())),
            ("previous_response_id", J::Null),
            (
                "instructions",
                match g.str("instructions") {
                    "" => J::Null,
                    s => J::s(s),
                },
            ),
            ("output", J::Arr(output)),
            ("error", J::Null),
            ("tools", J::Arr(g.list("tools").iter().map(tool).collect())),
            ("tool_choice", J::s("auto")),
            (
                "truncation",
                J::s(
                    g.get("truncation")
                        .and_then(Json::as_str)
                        .unwrap_or("disabled"),
                ),
            ),
            ("parallel_tool_calls", J::Bool(true)),
            ("text", J::Obj(vec![("format".into(), obj(format))])),
            ("top_p", J::float(f64_or("top_p"), 64)),
            ("presence_penalty", J::int(0)),
            ("frequency_penalty", J::int(0)),
            ("top_logprobs", J::int(0)),
            ("temperature", J::float(f64_or("temperature"), 64)),
            ("reasoning", reasoning),
            (
                "usage",
                J::Obj(vec![
                    ("input_tokens".into(), J::int(p)),
                    ("output_tokens".into(), J::int(e)),
                    ("total_tokens".into(), J::int(p + e)),
                    (
                        "input_tokens_details".into(),
                        J::Obj(vec![("cached_tokens".into(), J::int(0))]),
                    ),
                    (
                        "output_tokens_details".into(),
                        J::Obj(vec![("reasoning_tokens".into(), J::int(0))]),
                    ),
                ]),
            ),
            (
                "max_output_tokens",
                g.get("max_output_tokens")
                    .map(|n| J::int(n.as_i64().unwrap_or(0)))
                    .unwrap_or(J::Null),
            ),
            ("max_tool_calls", J::Null),
            ("store", J::Bool(false)),
            ("background", J::Bool(g.bool("background"))),
            ("service_tier", J::s("default")),
            ("metadata", J::Obj(Vec::new())),
            ("safety_identifier", J::Null),
            ("prompt_cache_key", J::Null),
        ];
        obj(kv)
    }
}
