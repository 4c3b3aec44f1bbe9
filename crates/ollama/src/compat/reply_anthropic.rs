//! `/v1/messages`' writer (middleware/anthropic.go `AnthropicWriter`):
//! `anthropic.ToMessagesResponse` unstreamed, `StreamConverter` streamed,
//! and `EstimateInputTokens` for `message_start` before the real count.

use std::collections::HashSet;

use serde_json::Value as Json;

use super::marshal::{any, ordered};
use super::reply::arguments_json;
use crate::godecode::Got;
use crate::gojson::J;

use super::marshal::obj as o;

/// `json.Marshal` of an `anthropic.ContentBlock` decoded from a request.
fn block_json(b: &Json) -> J {
    let g = Got::of(Some(b));
    let mut kv = vec![("type", J::s(g.str("type")))];
    if let Some(Json::String(t)) = g.get("text") {
        kv.push(("text", J::s(t)));
    }
    if !g.list("citations").is_empty() {
        let c = g
            .list("citations")
            .iter()
            .map(|c| {
                let c = Got::of(Some(c));
                let mut kv = vec![
                    ("type", J::s(c.str("type"))),
                    ("url", J::s(c.str("url"))),
                    ("title", J::s(c.str("title"))),
                ];
                for k in ["encrypted_index", "cited_text"] {
                    if !c.str(k).is_empty() {
                        kv.push((k, J::s(c.str(k))));
                    }
                }
                o(kv)
            })
            .collect();
        kv.push(("citations", J::Arr(c)));
    }
    if g.get("source").is_some() {
        let s = g.sub("source");
        let mut sk = vec![("type", J::s(s.str("type")))];
        for k in ["media_type", "data", "url"] {
            if !s.str(k).is_empty() {
                sk.push((k, J::s(s.str(k))));
            }
        }
        kv.push(("source", o(sk)));
    }
    for k in ["id", "name"] {
        if !g.str(k).is_empty() {
            kv.push((k, J::s(g.str(k))));
        }
    }
    match g.get("input") {
        Some(Json::Object(m)) => kv.push(("input", ordered(m))),
        Some(_) => kv.push(("input", J::Null)),
        None => {}
    }
    if !g.str("tool_use_id").is_empty() {
        kv.push(("tool_use_id", J::s(g.str("tool_use_id"))));
    }
    if let Some(c) = g.get("content") {
        kv.push(("content", any(c)));
    }
    if g.bool("is_error") {
        kv.push(("is_error", J::Bool(true)));
    }
    if let Some(Json::String(t)) = g.get("thinking") {
        kv.push(("thinking", J::s(t)));
    }
    if !g.str("signature").is_empty() {
        kv.push(("signature", J::s(g.str("signature"))));
    }
    o(kv)
}

fn count_block(b: &Json) -> usize {
    let g = Got::of(Some(b));
    let mut n = g.get("text").and_then(Json::as_str).map_or(0, str::len)
        + g.get("thinking").and_then(Json::as_str).map_or(0, str::len);
    if matches!(g.str("type"), "tool_use" | "tool_result") {
        n += block_json(b).to_json().len();
    }
    n
}

/// `countAnyContent` on the request's `system` (an `any`).
fn count_any(v: Option<&Json>) -> usize {
    match v {
        None | Some(Json::Null) => 0,
        Some(Json::String(s)) => s.len(),
        Some(Json::Array(items)) => items
            .iter()
            .map(|item| {
                // marshalled and decoded again as a ContentBlock
                match crate::godecode::unmarshal(item, &super::anthropic::BLOCK) {
                    Ok(Some(b)) => count_block(&b),
                    _ => 0,
                }
            })
            .sum(),
        Some(v) => any(v).to_json().len(),
    }
}

/// `EstimateInputTokens`: a quarter of the request's text length. A
/// tool's `input_schema` counts as its raw text: `body_text`'s when the
/// body's text is known, else compact JSON.
pub(crate) fn estimate_input_tokens(req: &Json, body_text: Option<&str>) -> i64 {
    let g = Got::of(Some(req));
    let mut total = count_any(g.get("system"));
    for m in g.list("messages") {
        let m = Got::of(Some(m));
        total += m.str("role").len();
        total += m.list("content").iter().map(count_block).sum::<usize>();
    }
    for (i, t) in g.list("tools").iter().enumerate() {
        let t = Got::of(Some(t));
        let schema = t.get("input_schema").map_or(0, |s| {
            body_text
                .and_then(|text| {
                    use crate::godecode::Step;
                    crate::godecode::raw_span(
                        text,
                        &[
                            Step::Key("tools"),
                            Step::Index(i),
                            Step::Key("input_schema"),
                        ],
                    )
                })
                .map_or_else(|| super::marshal::raw(s).to_json().len(), str::len)
        });
        total += t.str("name").len() + t.str("description").len() + schema;
    }
    let mut tokens = (total / 4) as i64;
    if tokens == 0
        && (!g.list("messages").is_empty() || g.get("system").is_some_and(|s| !s.is_null()))
    {
        tokens = 1;
    }
    tokens
}

fn stop_reason(reason: &str, tool_calls: bool) -> &str {
    if tool_calls {
        return "tool_use";
    }
    match reason {
        "stop" => "end_turn",
        "length" => "max_tokens",
        "" => "",
        _ => "stop_sequence",
    }
}

fn usage(input: i64, output: i64) -> J {
    o(vec![
        ("input_tokens", J::int(input)),
        ("output_tokens", J::int(output)),
    ])
}

/// The `AnthropicWriter` state for one request.
pub(crate) struct Anthropic {
    id: String,
    model: String,
    stream: bool,
    estimated: i64,
    first_write: bool,
    content_index: i64,
    input_tokens: i64,
    thinking_started: bool,
    thinking_done: bool,
    text_started: bool,
    sent: HashSet<String>,
    /// A release before `anthropic_close_text_before_thinking`.
    before_text_close: bool,
}

impl Anthropic {
    pub(crate) fn new(id: &str, req: Json, stream: bool, body_text: Option<&str>) -> Anthropic {
        Anthropic {
            id: id.into(),
            model: Got::of(Some(&req)).str("model").into(),
            stream,
            estimated: estimate_input_tokens(&req, body_text),
            first_write: true,
            content_index: 0,
            input_tokens: 0,
            thinking_started: false,
            thinking_done: false,
            text_started: false,
            sent: HashSet::new(),
            before_text_close: false,
        }
    }

    /// Writes as `release`'s `StreamConverter` does.
    pub(crate) fn set_release(&mut self, release: changes::Release) {
        self.before_text_close =
            !release.has(&changes::ollama::ANTHROPIC_CLOSE_TEXT_BEFORE_THINKING);
    }

    pub(crate) fn write(&mut self, r: &Json) -> String {
        if !self.stream {
            let mut s = self.to_messages_response(r).to_json();
            s.push('\n');
            return s;
        }
        let mut out = String::new();
        for (event, data) in self.process(r) {
            out.push_str(&format!("event: {event}\ndata: {}\n\n", data.to_json()));
        }
        out
    }

    fn to_messages_response(&self, r: &Json) -> J {
        let msg = &r["message"];
        let mut content = Vec::new();
        if let Some(t) = msg["thinking"].as_str().filter(|t| !t.is_empty()) {
            content.push(o(vec![("type", J::s("thinking")), ("thinking", J::s(t))]));
        }
        if let Some(t) = msg["content"].as_str().filter(|t| !t.is_empty()) {
            content.push(o(vec![("type", J::s("text")), ("text", J::s(t))]));
        }
        let calls = msg["tool_calls"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or(&[]);
        for tc in calls {
            let mut kv = vec![("type", J::s("tool_use"))];
            for (k, v) in [
                ("id", tc["id"].as_str()),
                ("name", tc["function"]["name"].as_str()),
            ] {
                if let Some(v) = v.filter(|v| !v.is_empty()) {
                    kv.push((k, J::s(v)));
                }
            }
            if let Some(Json::Object(m)) = tc["function"].get("arguments") {
                kv.push(("input", ordered(m)));
            }
            content.push(o(kv));
        }
        let mut kv = vec![
            ("id", J::s(&self.id)),
            ("type", J::s("message")),
            ("role", J::s("assistant")),
            ("model", J::s(r["model"].as_str().unwrap_or(""))),
            (
                "content",
                if content.is_empty() {
                    J::Null
                } else {
                    J::Arr(content)
                },
            ),
        ];
        let stop = stop_reason(r["done_reason"].as_str().unwrap_or(""), !calls.is_empty());
        if !stop.is_empty() {
            kv.push(("stop_reason", J::s(stop)));
        }
        kv.push((
            "usage",
            usage(
                r["prompt_eval_count"].as_i64().unwrap_or(0),
                r["eval_count"].as_i64().unwrap_or(0),
            ),
        ));
        o(kv)
    }

    fn stop(&self) -> (String, J) {
        (
            "content_block_stop".into(),
            o(vec![
                ("type", J::s("content_block_stop")),
                ("index", J::int(self.content_index)),
            ]),
        )
    }

    fn start(&self, block: J) -> (String, J) {
        (
            "content_block_start".into(),
            o(vec![
                ("type", J::s("content_block_start")),
                ("index", J::int(self.content_index)),
                ("content_block", block),
            ]),
        )
    }

    fn delta(&self, d: Vec<(&str, J)>) -> (String, J) {
        (
            "content_block_delta".into(),
            o(vec![
                ("type", J::s("content_block_delta")),
                ("index", J::int(self.content_index)),
                ("delta", o(d)),
            ]),
        )
    }

    fn process(&mut self, r: &Json) -> Vec<(String, J)> {
        let mut events = Vec::new();
        let msg = &r["message"];
        let thinking = msg["thinking"].as_str().unwrap_or("");
        let content = msg["content"].as_str().unwrap_or("");
        if self.first_write {
            self.first_write = false;
            self.input_tokens = r["prompt_eval_count"].as_i64().unwrap_or(0);
            if self.input_tokens == 0 && self.estimated > 0 {
                self.input_tokens = self.estimated;
            }
            events.push((
                "message_start".into(),
                o(vec![
                    ("type", J::s("message_start")),
                    (
                        "message",
                        o(vec![
                            ("id", J::s(&self.id)),
                            ("type", J::s("message")),
                            ("role", J::s("assistant")),
                            ("model", J::s(&self.model)),
                            ("content", J::Arr(Vec::new())),
                            ("usage", usage(self.input_tokens, 0)),
                        ]),
                    ),
                ]),
            ));
        }
        if !thinking.is_empty() && !self.thinking_done {
            // before 0.32.2-rc0 the open text block stayed open
            if self.text_started && !self.before_text_close {
                events.push(self.stop());
                self.content_index += 1;
                self.text_started = false;
            }
            if !self.thinking_started {
                self.thinking_started = true;
                events
                    .push(self.start(o(vec![("type", J::s("thinking")), ("thinking", J::s(""))])));
            }
            events.push(self.delta(vec![
                ("type", J::s("thinking_delta")),
                ("thinking", J::s(thinking)),
            ]));
        }
        if !content.is_empty() {
            if self.thinking_started && !self.thinking_done {
                self.thinking_done = true;
                events.push(self.stop());
                self.content_index += 1;
            }
            if !self.text_started {
                self.text_started = true;
                events.push(self.start(o(vec![("type", J::s("text")), ("text", J::s(""))])));
            }
            events.push(self.delta(vec![("type", J::s("text_delta")), ("text", J::s(content))]));
        }
        for tc in msg["tool_calls"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or(&[])
        {
            let id = tc["id"].as_str().unwrap_or("").to_string();
            if self.sent.contains(&id) {
                continue;
            }
            if self.thinking_started && !self.thinking_done {
                self.thinking_done = true;
                events.push(self.stop());
                self.content_index += 1;
            }
            if self.text_started {
                events.push(self.stop());
                self.content_index += 1;
                self.text_started = false;
            }
            let mut block = vec![("type", J::s("tool_use"))];
            if !id.is_empty() {
                block.push(("id", J::s(&id)));
            }
            if let Some(n) = tc["function"]["name"].as_str().filter(|n| !n.is_empty()) {
                block.push(("name", J::s(n)));
            }
            block.push(("input", J::Obj(Vec::new())));
            events.push(self.start(o(block)));
            events.push(self.delta(vec![
                ("type", J::s("input_json_delta")),
                ("partial_json", J::s(arguments_json(tc))),
            ]));
            events.push(self.stop());
            self.sent.insert(id);
            self.content_index += 1;
        }
        if r["done"].as_bool().unwrap_or(false) {
            if self.text_started || (self.thinking_started && !self.thinking_done) {
                events.push(self.stop());
            }
            let input = r["prompt_eval_count"].as_i64().unwrap_or(0);
            let output = r["eval_count"].as_i64().unwrap_or(0);
            let stop = stop_reason(
                r["done_reason"].as_str().unwrap_or(""),
                !self.sent.is_empty(),
            );
            let mut delta = Vec::new();
            if !stop.is_empty() {
                delta.push(("stop_reason", J::s(stop)));
            }
            events.push((
                "message_delta".into(),
                o(vec![
                    ("type", J::s("message_delta")),
                    ("delta", o(delta)),
                    ("usage", usage(input, output)),
                ]),
            ));
            events.push((
                "message_stop".into(),
                o(vec![("type", J::s("message_stop"))]),
            ));
        }
        events
    }
}
