//! The Answer pane's logic: what Ollama makes of the model's raw output —
//! the handler's parsers (`ollama::answer`) run over the text the user
//! pastes (one piece, or the pieces the runner streamed), with the setup
//! of the latest render (`Outcome::answer_setup`). Leptos-free, tested
//! natively.

use ollama::answer::{self, Answer, Explain, Out};
use ollama::date::Date;
use ollama::gojson::J;
use ollama::server::Endpoint;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::engine::Outcome;
use crate::errpos::{self, Pos};

/// How the output is given.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Mode {
    /// The model's text as one piece (a parse case's `"output"`).
    #[default]
    Output,
    /// The pieces the runner streamed, as the JSON text of an array of
    /// strings (a parse case's `"chunks"`).
    Chunks,
}

impl Mode {
    /// The parse case's key: `output` or `chunks`.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Output => "output",
            Mode::Chunks => "chunks",
        }
    }
}

/// What the user gave the Answer pane.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Input {
    /// One piece or pieces.
    pub mode: Mode,
    /// The text as typed (in chunks mode, JSON text).
    pub text: String,
}

/// The pieces text could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BadPieces {
    /// What is wrong.
    pub message: String,
    /// Where, for a JSON error.
    pub pos: Option<Pos>,
}

impl Input {
    /// Nothing to parse: no text at all.
    pub fn is_empty(&self) -> bool {
        self.text.is_empty()
    }

    /// The runner's pieces.
    pub fn pieces(&self) -> Result<Vec<String>, BadPieces> {
        match self.mode {
            Mode::Output => Ok(vec![self.text.clone()]),
            Mode::Chunks => {
                let v: Value = serde_json::from_str(&self.text).map_err(|e| BadPieces {
                    message: e.to_string(),
                    pos: Some(errpos::json(&e)),
                })?;
                answer::pieces_of(&json!({ "chunks": v }))
                    .map_err(|message| BadPieces { message, pos: None })
            }
        }
    }

    /// Switches the mode, converting the text when it can: one piece
    /// becomes a one-element array, pieces that read become their
    /// concatenation.
    pub fn switch(&mut self, mode: Mode) {
        if mode == self.mode {
            return;
        }
        let text = match (mode, self.pieces()) {
            (_, _) if self.text.is_empty() => String::new(),
            (Mode::Chunks, _) => pieces_text(std::slice::from_ref(&self.text)),
            (Mode::Output, Ok(p)) => p.concat(),
            (Mode::Output, Err(_)) => self.text.clone(),
        };
        self.mode = mode;
        self.text = text;
    }

    /// The input as a parse case's key (`"output"` or `"chunks"`) and
    /// value; `None` when empty. With `exact` the chunks stay the text as
    /// typed (share links, local storage); otherwise they are the array
    /// when the text reads as JSON.
    pub fn case_entry(&self, exact: bool) -> Option<(&'static str, Value)> {
        if self.is_empty() {
            return None;
        }
        let v = match self.mode {
            Mode::Output => Value::String(self.text.clone()),
            Mode::Chunks if exact => Value::String(self.text.clone()),
            Mode::Chunks => serde_json::from_str(&self.text)
                .unwrap_or_else(|_| Value::String(self.text.clone())),
        };
        Some((self.mode.as_str(), v))
    }

    /// Reads a state or parse case's `"chunks"` / `"output"`: `None` when
    /// neither key is there (the input stays as it is). `chunks` may be an
    /// array or the JSON text of one; `null` clears.
    pub fn from_case(obj: &serde_json::Map<String, Value>) -> Result<Option<Input>, String> {
        if let Some(c) = obj.get("chunks") {
            return Ok(Some(match c {
                Value::Null => Input::default(),
                Value::String(s) => Input {
                    mode: Mode::Chunks,
                    text: s.clone(),
                },
                Value::Array(_) => Input {
                    mode: Mode::Chunks,
                    text: serde_json::to_string_pretty(c).unwrap_or_default(),
                },
                _ => return Err("chunks must be an array of strings".into()),
            }));
        }
        match obj.get("output") {
            None => Ok(None),
            Some(Value::Null) => Ok(Some(Input::default())),
            Some(Value::String(s)) => Ok(Some(Input {
                mode: Mode::Output,
                text: s.clone(),
            })),
            Some(_) => Err("output must be a string".into()),
        }
    }
}

/// Pieces as the chunks editor shows them: a pretty JSON array of strings.
pub fn pieces_text(pieces: &[String]) -> String {
    serde_json::to_string_pretty(pieces).unwrap_or_default()
}

/// Pretty JSON with two-space indentation as Go's `json.MarshalIndent`
/// writes it: the values (strings with Go's escapes, numbers, parts Ollama
/// writes itself) byte for byte as Ollama sends them.
pub fn indent(j: &J) -> String {
    indent_text(&j.to_json())
}

/// Go's `json.Indent(dst, src, "", "  ")` over compact JSON text: only the
/// space between tokens changes (`{}` and `[]` stay as they are).
pub fn indent_text(src: &str) -> String {
    let mut out = String::with_capacity(src.len() * 2);
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    // an opening bracket waits for its first value (an empty one closes at once)
    let mut pending_open = false;
    let newline = |out: &mut String, depth: usize| {
        out.push('\n');
        for _ in 0..depth {
            out.push_str("  ");
        }
    };
    for c in src.chars() {
        if in_string {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
            continue;
        }
        if c.is_ascii_whitespace() {
            continue;
        }
        if pending_open && c != ']' && c != '}' {
            pending_open = false;
            newline(&mut out, depth);
        }
        match c {
            '"' => {
                in_string = true;
                out.push(c);
            }
            '{' | '[' => {
                out.push(c);
                depth += 1;
                pending_open = true;
            }
            '}' | ']' => {
                depth = depth.saturating_sub(1);
                if pending_open {
                    pending_open = false;
                } else {
                    newline(&mut out, depth);
                }
                out.push(c);
            }
            ',' => {
                out.push(c);
                newline(&mut out, depth);
            }
            ':' => out.push_str(": "),
            _ => out.push(c),
        }
    }
    out
}

/// Ollama's error body `{"error": ...}`, pretty, as Go escapes it.
pub fn error_json(message: &str) -> String {
    indent(&J::Obj(vec![("error".into(), J::s(message))]))
}

/// One tool call as the pane lists it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Call {
    /// `id` (`call_…`; Ollama draws it at random).
    pub id: String,
    /// `function.index`.
    pub index: i64,
    /// `function.name`.
    pub name: String,
    /// `function.arguments`, pretty, values as Ollama writes them.
    pub arguments: String,
    /// The whole call as Ollama writes it (compact).
    pub json: String,
}

/// What Ollama answers for the output: the message, or the error it fails
/// the request with.
#[derive(Clone, Debug, PartialEq)]
pub struct Parsed {
    /// The native endpoint whose answer this is.
    pub endpoint: Endpoint,
    /// The message (chat) or response (generate), or the parser's error
    /// (Ollama answers HTTP 500 with it).
    pub result: Result<Out, String>,
    /// The message as Ollama marshals it, pretty (or `{"error": ...}`).
    pub message_json: String,
    /// The tool calls of the message.
    pub calls: Vec<Call>,
    /// Each response the handler sent, as Ollama writes its message part
    /// and `done` (compact, one per line).
    pub stream: Vec<String>,
    /// Which parsers ran, and why.
    pub explain: Explain,
    /// Why a tool call in the content stayed content (empty when nothing
    /// looks like one, or when there are tool calls).
    pub diagnosis: Vec<String>,
    /// The runner aborted at this piece (too many identical pieces in a
    /// row): no final response follows.
    pub repeat_abort: Option<usize>,
    /// `promptscope parse --json`'s object (compact, Go's JSON).
    pub detail: String,
    /// How many pieces were fed.
    pub pieces: usize,
    /// The responses themselves (for a compatibility route's answer).
    pub chunks: Vec<Out>,
}

/// What the pane shows.
#[derive(Clone, Debug, PartialEq)]
pub enum View {
    /// Nothing pasted yet.
    Empty,
    /// The pieces text does not read.
    BadInput(BadPieces),
    /// The request cannot be read (an input error): nothing to answer.
    NoRequest(String),
    /// Ollama fails the request before the model runs: its status and error.
    Rejected(u16, String),
    /// The model runs through llama-server's own chat path: its parser,
    /// not Ollama's, reads the answer.
    Native(Explain),
    /// The render has no handler setup (why).
    NoSetup(String),
    /// The answer.
    Parsed(Box<Parsed>),
}

/// Tool-call ids the same for the same output (Ollama's are random; any
/// `call_` and eight of `a-z0-9` is one it can give), so that the pane
/// does not change as the render is redone.
pub fn seed_of(pieces: &[String]) -> u64 {
    // FNV-1a over the pieces and their boundaries
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for p in pieces {
        for b in p.bytes().chain([0xff]) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    h
}

fn calls_of(out: &Out) -> Vec<Call> {
    out.tool_calls
        .iter()
        .map(|c| {
            let j = ollama::parsers::tool_call_json(c);
            let arguments = match &j {
                J::Obj(o) => o
                    .iter()
                    .find(|(k, _)| k == "function")
                    .and_then(|(_, f)| match f {
                        J::Obj(f) => f.iter().find(|(k, _)| k == "arguments").map(|(_, a)| a),
                        _ => None,
                    })
                    .map(indent)
                    .unwrap_or_default(),
                _ => String::new(),
            };
            Call {
                id: c.id.clone(),
                index: c.function.index,
                name: c.function.name.clone(),
                arguments,
                json: j.to_json(),
            }
        })
        .collect()
}

/// Runs the handler over `pieces` with `setup` and shapes the result.
pub fn parse(setup: &answer::Setup, pieces: &[String], output: &str) -> Parsed {
    let a: Answer = answer::run(setup, pieces, answer::tool_call_ids(seed_of(pieces)));
    shape(setup.endpoint, a, output, pieces.len())
}

fn shape(endpoint: Endpoint, a: Answer, output: &str, pieces: usize) -> Parsed {
    let detail = a.detail_json(endpoint);
    let stream = match &detail {
        J::Obj(o) => o
            .iter()
            .find(|(k, _)| k == "stream")
            .and_then(|(_, s)| match s {
                J::Arr(a) => Some(a.iter().map(J::to_json).collect()),
                _ => None,
            })
            .unwrap_or_default(),
        _ => Vec::new(),
    };
    let message_json = indent(&a.result_json(endpoint));
    let calls = a.result.as_ref().map(calls_of).unwrap_or_default();
    Parsed {
        endpoint,
        diagnosis: a.diagnose(output),
        result: a.result,
        message_json,
        calls,
        stream,
        explain: a.explain,
        repeat_abort: a.repeat_abort,
        detail: detail.to_json(),
        pieces,
        chunks: a.stream,
    }
}

/// The native response lines (`/api/chat` or `/api/generate` NDJSON) of
/// an answer, as the handler writes them for `model`: each response, the
/// last with `done_reason` `stop` (the model stopped by itself), then the
/// parser's `{"error"}` when it failed.
pub fn native_lines(p: &Parsed, model: &str, created_at: &str) -> Vec<String> {
    use ollama::response::{self, Chunk};
    let mut lines: Vec<String> = p
        .chunks
        .iter()
        .map(|o| {
            response::chunk(
                p.endpoint,
                &Chunk {
                    model,
                    created_at,
                    content: &o.content,
                    thinking: &o.thinking,
                    tool_calls: &o.tool_calls,
                    done: o.done.then_some("stop"),
                    ..Chunk::default()
                },
            )
            .to_string()
        })
        .collect();
    if let Err(e) = &p.result {
        lines.push(json!({ "error": e }).to_string());
    }
    lines
}

/// Through a compatibility route: what the route writes back for the
/// answer (`body`: what the client sent; `now`: Unix seconds; ids drawn
/// from the output; `release`: the Ollama release whose middleware
/// writes). `None` when the route refuses the body.
pub fn route_answer(
    route: &str,
    body: &Value,
    p: &Parsed,
    now: i64,
    release: changes::Release,
) -> Option<String> {
    let model = body.get("model").and_then(Value::as_str).unwrap_or("");
    let created = ollama::response::created_at(i128::from(now) * 1_000_000_000);
    let lines = native_lines(p, model, &created);
    let seed = p.chunks.len() as u64 ^ seed_of(std::slice::from_ref(&p.detail));
    crate::generate::route_answer(route, body, &lines, (now, seed), release)
}

/// What the answer needs of a render (an [`Outcome`]): whether the
/// request reads, whether Ollama rejects it, and the handler's setup.
/// Small, so that it travels to the worker that parses.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Gate {
    /// The request cannot be read (the input error).
    NoRequest(String),
    /// Ollama fails the request before the model runs.
    Rejected(u16, String),
    /// Ollama only loads the model (no prompt).
    NoPrompt,
    /// No handler setup (why).
    NoSetup(String),
    /// The handler's setup (`Outcome::answer_setup`).
    Setup(Value),
}

impl Gate {
    /// The gate of a render.
    pub fn of(outcome: &Outcome) -> Gate {
        if let Some(e) = &outcome.input_error {
            return Gate::NoRequest(e.message.clone());
        }
        if let Some(e) = &outcome.error {
            return Gate::Rejected(e.status, e.message.clone());
        }
        if outcome.no_prompt() {
            return Gate::NoPrompt;
        }
        match &outcome.answer_setup {
            Some(spec) => Gate::Setup(spec.clone()),
            None => Gate::NoSetup(outcome.answer_error.clone().unwrap_or_default()),
        }
    }

    /// The Ollama release the render ran as (the setup's `ollama`; the
    /// newest where there is no setup or it names none).
    pub fn release(&self) -> changes::Release {
        match self {
            Gate::Setup(spec) => spec
                .get("ollama")
                .and_then(Value::as_str)
                .and_then(|t| changes::Release::parse(t).ok())
                .unwrap_or_default(),
            _ => changes::Release::NEWEST,
        }
    }
}

/// What the pane shows for `input` after the render `outcome`; `endpoint`
/// is the request's native endpoint, `today` the browser's date
/// (`YYYY-MM-DD`, for the template's parse).
pub fn view(outcome: &Outcome, endpoint: Endpoint, input: &Input, today: &str) -> View {
    view_of(&Gate::of(outcome), endpoint, input, today)
}

/// [`view`] from a render's [`Gate`].
pub fn view_of(gate: &Gate, endpoint: Endpoint, input: &Input, today: &str) -> View {
    if input.is_empty() {
        return View::Empty;
    }
    let pieces = match input.pieces() {
        Ok(p) => p,
        Err(e) => return View::BadInput(e),
    };
    let spec = match gate {
        Gate::NoRequest(m) => return View::NoRequest(m.clone()),
        Gate::Rejected(status, m) => return View::Rejected(*status, m.clone()),
        Gate::NoSetup(m) => return View::NoSetup(m.clone()),
        Gate::NoPrompt => {
            return View::Parsed(Box::new(shape(
                endpoint,
                Answer::loaded_only(endpoint),
                &pieces.concat(),
                pieces.len(),
            )))
        }
        Gate::Setup(spec) => spec,
    };
    let output = pieces.concat();
    let today = Date::parse(today).unwrap_or_else(Date::today_utc);
    let setup = match answer::Setup::from_spec(spec, today) {
        Ok(s) => s,
        Err(e) => return View::NoSetup(e),
    };
    if setup.native {
        let h = answer::Handler::new(&setup, answer::tool_call_ids(0));
        return View::Native(h.explain().clone());
    }
    View::Parsed(Box::new(parse(&setup, &pieces, &output)))
}

/// The Answer pane's work, done off the page (in a worker: the parsers and
/// the routes' writers are most of their weight): the output, the render's
/// gate, and through a compatibility route its name and the client's body.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Job {
    /// The page's number for the job (newer is larger).
    pub seq: u64,
    /// The render (`Store::renders`) the gate comes from.
    pub render: u64,
    /// `/api/chat` (else `/api/generate`).
    pub chat: bool,
    /// The output.
    pub input: Input,
    /// The browser's date (`YYYY-MM-DD`).
    pub today: String,
    /// What the render allows.
    pub gate: Gate,
    /// A compatibility route's name and the body the client sent.
    pub route: Option<(String, Value)>,
    /// Unix seconds, for the route's answer.
    pub now: i64,
}

/// The message part the pane shows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Text {
    /// `content` / `response`.
    pub content: String,
    /// `thinking`.
    pub thinking: String,
}

/// An answer as the pane shows it (a [`Parsed`] less what only the CLI
/// and the embedding API read, plus the route's answer).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Message {
    /// `/api/chat` (else `/api/generate`).
    pub chat: bool,
    /// The message, or the parser's error.
    pub result: Result<Text, String>,
    /// [`Parsed::message_json`].
    pub message_json: String,
    /// [`Parsed::calls`].
    pub calls: Vec<Call>,
    /// [`Parsed::stream`].
    pub stream: Vec<String>,
    /// [`Parsed::explain`].
    pub explain: Explain,
    /// [`Parsed::diagnosis`].
    pub diagnosis: Vec<String>,
    /// [`Parsed::repeat_abort`].
    pub repeat_abort: Option<usize>,
    /// [`Parsed::pieces`].
    pub pieces: usize,
    /// Through a compatibility route: what it writes back (`None`: it
    /// refuses the body, or there is no route).
    pub route_text: Option<String>,
}

/// What the pane shows: a [`View`] as it travels back from the worker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Shown {
    /// [`View::Empty`].
    Empty,
    /// [`View::BadInput`].
    BadInput(BadPieces),
    /// [`View::NoRequest`].
    NoRequest(String),
    /// [`View::Rejected`].
    Rejected(u16, String),
    /// [`View::Native`].
    Native(Explain),
    /// [`View::NoSetup`].
    NoSetup(String),
    /// [`View::Parsed`].
    Message(Box<Message>),
    /// The worker that parses could not run (why).
    Unavailable(String),
}

impl Shown {
    /// The pane's `data-state`.
    pub fn state(&self) -> &'static str {
        match self {
            Shown::Empty => "empty",
            Shown::BadInput(_) => "bad-input",
            Shown::NoRequest(_) => "no-request",
            Shown::Rejected(..) => "rejected",
            Shown::Native(_) => "native",
            Shown::NoSetup(_) => "no-setup",
            Shown::Message(m) if m.result.is_ok() => "message",
            Shown::Message(_) => "error",
            Shown::Unavailable(_) => "unavailable",
        }
    }
}

/// The worker's answer to a [`Job`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Reply {
    /// The job's number.
    pub seq: u64,
    /// The job's render.
    pub render: u64,
    /// The job's output.
    pub input: Input,
    /// What the pane shows.
    pub shown: Shown,
    /// What the embedding API answers ([`embed_json`]).
    pub embed: Option<Value>,
}

impl Reply {
    /// The answer when the worker cannot run.
    pub fn unavailable(seq: u64, render: u64, input: Input, why: String) -> Reply {
        Reply {
            seq,
            render,
            input,
            embed: Some(json!({ "invalid": why })),
            shown: Shown::Unavailable(why),
        }
    }
}

/// Does a [`Job`].
pub fn run_job(job: &Job) -> Reply {
    let endpoint = if job.chat {
        Endpoint::Chat
    } else {
        Endpoint::Generate
    };
    let v = view_of(&job.gate, endpoint, &job.input, &job.today);
    let embed = embed_json(&v);
    let shown = match v {
        View::Empty => Shown::Empty,
        View::BadInput(b) => Shown::BadInput(b),
        View::NoRequest(m) => Shown::NoRequest(m),
        View::Rejected(status, m) => Shown::Rejected(status, m),
        View::Native(e) => Shown::Native(e),
        View::NoSetup(m) => Shown::NoSetup(m),
        View::Parsed(p) => {
            let route_text = job
                .route
                .as_ref()
                .and_then(|(name, body)| route_answer(name, body, &p, job.now, job.gate.release()));
            let p = *p;
            Shown::Message(Box::new(Message {
                chat: job.chat,
                result: p.result.map(|o| Text {
                    content: o.content,
                    thinking: o.thinking,
                }),
                message_json: p.message_json,
                calls: p.calls,
                stream: p.stream,
                explain: p.explain,
                diagnosis: p.diagnosis,
                repeat_abort: p.repeat_abort,
                pieces: p.pieces,
                route_text,
            }))
        }
    };
    Reply {
        seq: job.seq,
        render: job.render,
        input: job.input.clone(),
        shown,
        embed,
    }
}

/// The Generate pane's work off the page: what a compatibility route
/// writes back for the native lines the generation gave.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RouteJob {
    /// The page's number for the job.
    pub seq: u64,
    /// The route's name.
    pub route: String,
    /// The body the client sent.
    pub body: Value,
    /// The native NDJSON lines.
    pub lines: Vec<String>,
    /// Unix seconds.
    pub now: i64,
    /// Where the route's ids are drawn from.
    pub seed: u64,
    /// The Ollama release whose middleware writes (`0.32.9`; empty: the
    /// newest).
    #[serde(default)]
    pub release: String,
}

/// The answer to a [`RouteJob`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RouteReply {
    /// The job's number.
    pub seq: u64,
    /// What the route writes back (`None`: it refuses the body).
    pub text: Option<String>,
}

/// Does a [`RouteJob`].
pub fn run_route_job(job: &RouteJob) -> RouteReply {
    RouteReply {
        seq: job.seq,
        text: crate::generate::route_answer(
            &job.route,
            &job.body,
            &job.lines,
            (job.now, job.seed),
            changes::Release::parse(&job.release).unwrap_or_default(),
        ),
    }
}

/// The answer for an embedding page (`promptscope:rendered`'s `answer`):
/// `promptscope parse --json`'s object with `diagnosis`, or `{"error"}`
/// when Ollama fails the request before the model runs, or `{"invalid"}`
/// when Promptscope cannot say. `None` when there is no output.
pub fn embed_json(v: &View) -> Option<Value> {
    Some(match v {
        View::Empty => return None,
        View::BadInput(e) => json!({ "invalid": format!("chunks: {}", e.message) }),
        View::NoRequest(e) => json!({ "invalid": e }),
        View::Rejected(status, e) => json!({ "error": e, "status": status }),
        View::Native(_) => json!({ "invalid": NATIVE }),
        View::NoSetup(e) => json!({ "invalid": e }),
        View::Parsed(p) => {
            let mut v: Value = serde_json::from_str(&p.detail).unwrap_or(Value::Null);
            v["diagnosis"] = json!(p.diagnosis);
            v
        }
    })
}

/// Why Promptscope does not say what a native model's answer becomes (the
/// CLI's words).
pub const NATIVE: &str = "this model renders through llama-server's own chat path (its GGUF chat template): llama-server's chat parser (llama.cpp common/chat.cpp), not Ollama's, reads its answer, and Promptscope does not reproduce that parser";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::{Endpoint as StateEndpoint, ModelState, State};

    const TODAY: &str = "2025-06-15";

    fn state(template: &str, parser: &str, request: Value) -> State {
        State {
            endpoint: StateEndpoint::Chat,
            model: ModelState {
                has_template: true,
                template: template.into(),
                parser: parser.into(),
                ..ModelState::default()
            },
            request: request.to_string(),
            ..State::default()
        }
    }

    fn output(text: &str) -> Input {
        Input {
            mode: Mode::Output,
            text: text.into(),
        }
    }

    fn parsed(s: &State, input: &Input) -> Parsed {
        let outcome = crate::engine::run(s, TODAY);
        match view(&outcome, s.endpoint.server(), input, TODAY) {
            View::Parsed(p) => *p,
            other => panic!("not parsed: {other:?}"),
        }
    }

    const THINK_TEMPLATE: &str = "{{ range .Messages }}<|{{ .Role }}|>{{ if .Thinking }}<think>{{ .Thinking }}</think>{{ end }}{{ .Content }}\n{{ end }}<|assistant|>";

    #[test]
    fn the_thinking_parser_splits_thinking_out() {
        let s = state(
            THINK_TEMPLATE,
            "",
            json!({"model": "m", "think": true, "messages": [{"role": "user", "content": "hi"}]}),
        );
        let p = parsed(&s, &output("<think>Let me see.</think>Hello!"));
        let out = p.result.as_ref().unwrap();
        assert_eq!(out.thinking, "Let me see.");
        assert_eq!(out.content, "Hello!");
        assert_eq!(p.explain.kind, "thinking");
        assert_eq!(
            p.explain.thinking_tags,
            Some(("<think>".into(), "</think>".into()))
        );
        assert!(p.message_json.contains("\"thinking\": \"Let me see.\""));
        assert!(p.diagnosis.is_empty());
        // the stream ends with done
        assert!(p.stream.last().unwrap().ends_with("\"done\":true}"));
        let v: Value = serde_json::from_str(&p.detail).unwrap();
        assert_eq!(v["message"]["thinking"], "Let me see.");

        // think off: the tags stay in the content (a model that can think
        // thinks by default)
        let s = state(
            THINK_TEMPLATE,
            "",
            json!({"model": "m", "think": false, "messages": [{"role": "user", "content": "hi"}]}),
        );
        let p = parsed(&s, &output("<think>x</think>y"));
        assert_eq!(p.result.unwrap().content, "<think>x</think>y");
    }

    #[test]
    fn pieces_are_fed_as_streamed() {
        let s = state(
            THINK_TEMPLATE,
            "",
            json!({"model": "m", "think": true, "messages": [{"role": "user", "content": "hi"}]}),
        );
        let input = Input {
            mode: Mode::Chunks,
            text: pieces_text(&["<thi".into(), "nk>Hm</think>".into(), "Yes".into()]),
        };
        let p = parsed(&s, &input);
        assert_eq!(p.pieces, 3);
        let out = p.result.unwrap();
        assert_eq!((out.thinking.as_str(), out.content.as_str()), ("Hm", "Yes"));
        assert!(p.stream.len() >= 2, "{:?}", p.stream);
    }

    #[test]
    fn a_tool_call_without_tools_stays_content_and_says_why() {
        let s = state(
            "{{ range .Messages }}{{ .Role }}: {{ .Content }}\n{{ end }}assistant:",
            "",
            json!({"model": "m", "messages": [{"role": "user", "content": "Weather in Paris?"}]}),
        );
        let text = "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>";
        let p = parsed(&s, &output(text));
        let out = p.result.as_ref().unwrap();
        assert!(out.tool_calls.is_empty());
        assert_eq!(out.content, text);
        assert!(!p.diagnosis.is_empty());
        assert!(
            p.diagnosis[0].contains("\"<tool_call>\" at line 1, column 1"),
            "{:?}",
            p.diagnosis
        );
        assert!(
            p.diagnosis.iter().any(|d| d.contains("no tools")),
            "{:?}",
            p.diagnosis
        );
        let e = embed_json(&View::Parsed(Box::new(p))).unwrap();
        assert_eq!(e["message"]["content"], text);
        assert!(e["diagnosis"].as_array().is_some_and(|d| !d.is_empty()));
    }

    #[test]
    fn tool_calls_are_listed_with_their_exact_arguments() {
        let mut args = serde_json::Map::new();
        args.insert("city".into(), json!("Paris"));
        args.insert("days".into(), json!(3));
        let call = ollama::api::ToolCall {
            id: "call_abc12345".into(),
            function: ollama::api::ToolCallFunction {
                index: 0,
                name: "get_weather".into(),
                arguments: Some(args),
                arguments_null: false,
            },
        };
        let out = Out {
            tool_calls: vec![call],
            done: true,
            ..Out::default()
        };
        let a = Answer {
            stream: vec![out.clone()],
            result: Ok(out),
            explain: Explain {
                kind: "builtin".into(),
                parser: "qwen3-coder".into(),
                thinking_tags: None,
                tool_tag: None,
                preserved_tokens: vec!["<tool_call>".into()],
                why: vec!["because".into()],
                tool_names: vec!["get_weather".into()],
            },
            repeat_abort: None,
            release_rules: Vec::new(),
            output: "<tool_call>…".into(),
        };
        let p = shape(Endpoint::Chat, a, "<tool_call>…", 1);
        assert_eq!(p.calls.len(), 1);
        let c = &p.calls[0];
        assert_eq!(
            (c.name.as_str(), c.index, c.id.as_str()),
            ("get_weather", 0, "call_abc12345")
        );
        assert_eq!(c.arguments, "{\n  \"city\": \"Paris\",\n  \"days\": 3\n}");
        assert_eq!(
            c.json,
            r#"{"id":"call_abc12345","function":{"index":0,"name":"get_weather","arguments":{"city":"Paris","days":3}}}"#
        );
        assert!(
            p.message_json
                .contains("\"tool_calls\": [\n    {\n      \"id\": \"call_abc12345\""),
            "{}",
            p.message_json
        );
        assert!(p.diagnosis.is_empty());
        assert_eq!(p.stream.len(), 1);
        let v: Value = serde_json::from_str(&p.detail).unwrap();
        assert_eq!(v["parser"]["parser"], "qwen3-coder");
        assert_eq!(
            v["message"]["tool_calls"][0]["function"]["arguments"]["city"],
            "Paris"
        );
        // ids drawn for the pane stay the same for the same output
        let ids = |p: &[String]| answer::tool_call_ids(seed_of(p))();
        assert_eq!(ids(&["x".into()]), ids(&["x".into()]));
    }

    #[test]
    fn what_the_pane_says_without_an_answer() {
        let s = state(
            "{{ .Prompt }}",
            "",
            json!({"model": "m", "messages": [{"role": "user", "content": "hi"}]}),
        );
        let outcome = crate::engine::run(&s, TODAY);
        let e = Endpoint::Chat;
        assert_eq!(view(&outcome, e, &Input::default(), TODAY), View::Empty);
        let bad = Input {
            mode: Mode::Chunks,
            text: "[\"a\", 3]".into(),
        };
        match view(&outcome, e, &bad, TODAY) {
            View::BadInput(b) => assert_eq!(b.message, "\"chunks\"[1] must be a string"),
            other => panic!("{other:?}"),
        }
        let bad = Input {
            mode: Mode::Chunks,
            text: "[\"a\",".into(),
        };
        assert!(matches!(
            view(&outcome, e, &bad, TODAY),
            View::BadInput(BadPieces { pos: Some(_), .. })
        ));
        // a request that does not read
        let mut broken = s.clone();
        broken.request = "{".into();
        let out = crate::engine::run(&broken, TODAY);
        assert!(matches!(
            view(&out, e, &output("x"), TODAY),
            View::NoRequest(_)
        ));
        // Ollama rejects the request: tools for a model without them
        let tools = json!([{"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}]);
        let rejected = state(
            "{{ .Prompt }}",
            "",
            json!({"model": "m", "tools": tools, "messages": [{"role": "user", "content": "hi"}]}),
        );
        let out = crate::engine::run(&rejected, TODAY);
        match view(&out, e, &output("x"), TODAY) {
            View::Rejected(400, m) => assert!(m.contains("does not support tools"), "{m}"),
            other => panic!("{other:?}"),
        }
        // no messages: Ollama only loads the model
        let load = state("{{ .Prompt }}", "", json!({"model": "m", "messages": []}));
        let out = crate::engine::run(&load, TODAY);
        let p = match view(&out, e, &output("x"), TODAY) {
            View::Parsed(p) => p,
            other => panic!("{other:?}"),
        };
        assert_eq!(p.explain.kind, "load");
        assert!(embed_json(&View::Empty).is_none());
    }

    #[test]
    fn generate_answers_with_response() {
        let s = State {
            endpoint: StateEndpoint::Generate,
            ..state("{{ .Prompt }}", "", json!({"model": "m", "prompt": "hi"}))
        };
        let p = parsed(&s, &output("Hello <b>&"));
        assert_eq!(p.endpoint, Endpoint::Generate);
        // Go's escapes, kept in the pretty form
        assert_eq!(
            p.message_json,
            "{\n  \"response\": \"Hello \\u003cb\\u003e\\u0026\"\n}"
        );
    }

    #[test]
    fn a_route_answers_in_its_own_shape() {
        let body = json!({"model": "m", "messages": [{"role": "user", "content": "hi"}]});
        let s = State {
            endpoint: StateEndpoint::OpenAiChat,
            ..state(THINK_TEMPLATE, "", body.clone())
        };
        let p = parsed(&s, &output("<think>Hm.</think>Hi"));
        let lines = native_lines(&p, "m", "2025-06-15T00:00:00Z");
        let last: Value = serde_json::from_str(lines.last().unwrap()).unwrap();
        assert_eq!(last["done_reason"], "stop");
        let one =
            route_answer("openai-chat", &body, &p, 1_750_000_000, Default::default()).unwrap();
        let v: Value = serde_json::from_str(&one).unwrap();
        assert_eq!(v["object"], "chat.completion");
        assert_eq!(v["choices"][0]["message"]["content"], "Hi");
        assert_eq!(v["choices"][0]["message"]["reasoning"], "Hm.");
        assert_eq!(v["choices"][0]["finish_reason"], "stop");
        // streamed: server-sent events
        let body =
            json!({"model": "m", "stream": true, "messages": [{"role": "user", "content": "hi"}]});
        let sse =
            route_answer("openai-chat", &body, &p, 1_750_000_000, Default::default()).unwrap();
        assert!(sse.starts_with("data: "), "{sse}");
        assert!(sse.trim_end().ends_with("data: [DONE]"), "{sse}");
    }

    #[test]
    fn a_job_travels_as_json_and_answers_as_the_view_does() {
        let body = json!({"model": "m", "messages": [{"role": "user", "content": "hi"}]});
        let s = State {
            endpoint: StateEndpoint::OpenAiChat,
            ..state(THINK_TEMPLATE, "", body.clone())
        };
        let outcome = crate::engine::run(&s, TODAY);
        let input = output("<think>Hm.</think>Hi");
        let job = Job {
            seq: 7,
            render: 3,
            chat: true,
            input: input.clone(),
            today: TODAY.into(),
            gate: Gate::of(&outcome),
            route: Some(("openai-chat".into(), body.clone())),
            now: 1_750_000_000,
        };
        // as the page posts it and the worker reads it
        let job: Job = serde_json::from_str(&serde_json::to_string(&job).unwrap()).unwrap();
        let reply: Reply =
            serde_json::from_str(&serde_json::to_string(&run_job(&job)).unwrap()).unwrap();
        assert_eq!((reply.seq, reply.render, &reply.input), (7, 3, &input));
        let view = view(&outcome, Endpoint::Chat, &input, TODAY);
        assert_eq!(reply.embed, embed_json(&view));
        let View::Parsed(p) = view else {
            panic!("{view:?}")
        };
        assert_eq!(reply.shown.state(), "message");
        let Shown::Message(m) = reply.shown else {
            unreachable!()
        };
        assert_eq!(
            m.result,
            Ok(Text {
                content: "Hi".into(),
                thinking: "Hm.".into()
            })
        );
        assert_eq!(
            (&m.message_json, &m.stream, &m.explain, m.pieces),
            (&p.message_json, &p.stream, &p.explain, p.pieces)
        );
        assert_eq!(
            m.route_text,
            route_answer("openai-chat", &body, &p, 1_750_000_000, Default::default())
        );
        assert!(m.route_text.unwrap().contains("chat.completion"));

        // each gate as the view gives it
        let mut broken = s.clone();
        broken.request = "{".into();
        let out = crate::engine::run(&broken, TODAY);
        let job = Job {
            gate: Gate::of(&out),
            route: None,
            ..job
        };
        assert_eq!(run_job(&job).shown.state(), "no-request");
        let empty = Job {
            input: Input::default(),
            ..job.clone()
        };
        assert_eq!(run_job(&empty).shown, Shown::Empty);
        assert_eq!(run_job(&empty).embed, None);
        let gone = Reply::unavailable(1, 2, input, "no worker".into());
        assert_eq!(gone.shown.state(), "unavailable");
        assert_eq!(gone.embed, Some(json!({"invalid": "no worker"})));

        // the Generate pane's route job
        let lines = native_lines(&p, "m", "2025-06-15T00:00:00Z");
        let r = run_route_job(&RouteJob {
            seq: 2,
            route: "openai-chat".into(),
            body: body.clone(),
            lines: lines.clone(),
            now: 1_750_000_000,
            seed: 5,
            release: String::new(),
        });
        assert_eq!(r.seq, 2);
        assert_eq!(
            r.text,
            crate::generate::route_answer(
                "openai-chat",
                &body,
                &lines,
                (1_750_000_000, 5),
                changes::Release::NEWEST
            )
        );
        assert!(r.text.is_some());
    }

    /// The route answers as the render's release writes: a `/v1/responses`
    /// stream whose second tool call comes in a later chunk gets its own
    /// output_index from 0.32.10-rc0 on (`responses_stream_items`) and
    /// reuses index 0 before, in the Answer pane's job and the Generate
    /// pane's alike.
    #[test]
    fn a_route_answers_as_the_renders_release() {
        let body = json!({"model": "m", "stream": true, "input": "hi",
            "tools": [{"type": "function", "name": "f", "parameters": {"type": "object"}}]});
        let call = |name: &str| {
            json!({"model": "m", "created_at": "2025-06-15T00:00:00Z",
                "message": {"role": "assistant", "content": "", "tool_calls": [
                    {"id": format!("call_{name}"), "function": {"index": 0, "name": name, "arguments": {}}}]},
                "done": false})
            .to_string()
        };
        let done = json!({"model": "m", "created_at": "2025-06-15T00:00:00Z",
            "message": {"role": "assistant", "content": ""}, "done": true, "done_reason": "stop"})
        .to_string();
        let lines = vec![call("f"), call("g"), done];
        let indexes = |release: &str| {
            let r = run_route_job(&RouteJob {
                seq: 1,
                route: "openai-responses".into(),
                body: body.clone(),
                lines: lines.clone(),
                now: 1_750_000_000,
                seed: 5,
                release: release.into(),
            });
            let text = r.text.expect("the route takes the body");
            text.lines()
                .filter_map(|l| l.strip_prefix("data: "))
                .filter_map(|d| serde_json::from_str::<Value>(d).ok())
                .filter(|e| e["type"] == "response.output_item.added")
                .map(|e| e["output_index"].as_u64().unwrap())
                .collect::<Vec<_>>()
        };
        assert_eq!(indexes("0.32.9"), [0, 0]);
        assert_eq!(indexes("0.32.10-rc0"), [0, 1]);
        assert_eq!(indexes(""), indexes(changes::Release::NEWEST.tag));

        // the Answer pane's job takes the release from the render's setup
        let s = State {
            endpoint: StateEndpoint::Chat,
            ollama: "0.32.9".into(),
            ..state(
                THINK_TEMPLATE,
                "",
                json!({"model": "m", "messages": [{"role": "user", "content": "hi"}]}),
            )
        };
        let gate = Gate::of(&crate::engine::run(&s, TODAY));
        assert_eq!(gate.release().tag, "0.32.9");
        assert_eq!(Gate::NoPrompt.release(), changes::Release::NEWEST);
    }

    #[test]
    fn modes_convert_and_travel_as_a_parse_case() {
        let mut i = output("a\nb");
        i.switch(Mode::Chunks);
        assert_eq!(i.text, "[\n  \"a\\nb\"\n]");
        assert_eq!(i.pieces().unwrap(), vec!["a\nb".to_string()]);
        i.text = pieces_text(&["x".into(), "y".into()]);
        i.switch(Mode::Output);
        assert_eq!(i, output("xy"));
        let mut empty = Input::default();
        empty.switch(Mode::Chunks);
        assert_eq!(empty.text, "");
        assert_eq!(empty.case_entry(false), None);

        let chunks = Input {
            mode: Mode::Chunks,
            text: "[\"a\", \"b\"]".into(),
        };
        assert_eq!(
            chunks.case_entry(false),
            Some(("chunks", json!(["a", "b"])))
        );
        assert_eq!(
            chunks.case_entry(true),
            Some(("chunks", json!("[\"a\", \"b\"]")))
        );
        let obj = json!({"chunks": ["a", "b"]});
        let back = Input::from_case(obj.as_object().unwrap()).unwrap().unwrap();
        assert_eq!(back.pieces().unwrap(), vec!["a", "b"]);
        let obj = json!({"chunks": "[\"a\", \"b\"]"});
        assert_eq!(
            Input::from_case(obj.as_object().unwrap()).unwrap().unwrap(),
            chunks
        );
        let obj = json!({"output": "hi"});
        assert_eq!(
            Input::from_case(obj.as_object().unwrap()).unwrap().unwrap(),
            output("hi")
        );
        let obj = json!({"output": null});
        assert_eq!(
            Input::from_case(obj.as_object().unwrap()).unwrap().unwrap(),
            Input::default()
        );
        assert_eq!(Input::from_case(&serde_json::Map::new()).unwrap(), None);
        assert!(Input::from_case(json!({"output": 1}).as_object().unwrap()).is_err());
    }

    #[test]
    fn indent_writes_as_go_does() {
        let j = J::Obj(vec![
            ("a".into(), J::Arr(vec![])),
            ("b".into(), J::Obj(vec![])),
            ("c".into(), J::Arr(vec![J::int(1), J::Raw("1e+21".into())])),
            ("d".into(), J::s("<x>")),
        ]);
        assert_eq!(
            indent(&j),
            "{\n  \"a\": [],\n  \"b\": {},\n  \"c\": [\n    1,\n    1e+21\n  ],\n  \"d\": \"\\u003cx\\u003e\"\n}"
        );
        assert_eq!(indent(&J::Null), "null");
        // parts Ollama writes itself, strings with brackets and escapes
        assert_eq!(
            indent(&J::Arr(vec![J::Raw(
                r#"{"a":{"b":[]},"c":"x,\"{y}:\\"}"#.into()
            )])),
            r#"[
  {
    "a": {
      "b": []
    },
    "c": "x,\"{y}:\\"
  }
]"#
        );
        assert_eq!(
            error_json("a <b>"),
            "{\n  \"error\": \"a \\u003cb\\u003e\"\n}"
        );
    }

    #[test]
    fn seeds_follow_the_pieces() {
        assert_eq!(seed_of(&["ab".into()]), seed_of(&["ab".into()]));
        assert_ne!(seed_of(&["ab".into()]), seed_of(&["a".into(), "b".into()]));
    }
}
