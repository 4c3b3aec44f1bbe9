//! The answer side: what Ollama's `/api/chat` and `/api/generate` handlers
//! make of the runner's text (server/routes.go `ChatHandler` /
//! `GenerateHandler`, their `r.Completion` callbacks and the non-streamed
//! aggregation in `writeChatResponse`), fed as llm/llama_server.go's
//! `Completion` feeds them: each non-empty piece, then a final response
//! with `done` (and the runner's token-repeat abort).
//!
//! Which parser runs is the handler's choice: the model's built-in PARSER
//! ([`crate::parsers`], `harmony` for gpt-oss); else, with think on, the
//! generic thinking parser at the tags the TEMPLATE shows
//! ([`crate::thinking`]); and in chat, when the request has tools and no
//! built-in parser handles them, the tool-call parser derived from the
//! TEMPLATE ([`crate::tools`]).

use crate::api::{Message, Think, Tool, ToolCall};
use crate::gojson::J;
use crate::parsers::{self, trim_left_space as trim_start, trim_space as trim, Parser};
use crate::server::Endpoint;
use crate::template::Template;

/// What the handler knows when the runner starts answering.
#[derive(Clone, Debug)]
pub struct Setup {
    /// Which handler.
    pub endpoint: Endpoint,
    /// `m.Config.Parser` after the harmony rule (`""`: none).
    pub parser: String,
    /// `m.Template`: the model's Go template.
    pub template: Template,
    /// `req.Tools` (chat).
    pub tools: Vec<Tool>,
    /// `req.Think` as the built-in parser's `Init` sees it (generate
    /// initializes it before defaulting think for a thinking model).
    pub init_think: Option<Think>,
    /// `req.Think` as the handler has it afterwards (harmony's `max` →
    /// `high`, then `true` by default for a model that can think).
    pub think: Option<Think>,
    /// The conversation's last message (chat): the prefill the parser sees.
    pub last_message: Option<Message>,
    /// The rendered prompt.
    pub prompt: String,
    /// `req.Raw` (generate): no built-in parser.
    pub raw: bool,
    /// The model runs through llama-server's own chat path (a GGUF chat
    /// template): llama-server parses the answer, not Ollama.
    pub native: bool,
    /// The Ollama release whose handler runs.
    pub release: changes::Release,
}

/// One response the handler sends on its channel: the message part
/// (`content`, `thinking`, `tool_calls`) and `done`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Out {
    /// `message.content` / `response`.
    pub content: String,
    /// `thinking`.
    pub thinking: String,
    /// `tool_calls`.
    pub tool_calls: Vec<ToolCall>,
    /// `done`.
    pub done: bool,
}

/// Which parser the handler runs, for the explanation.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Explain {
    /// `builtin`, `thinking`, `tools`, `thinking+tools`, `none` or `native`.
    pub kind: String,
    /// The built-in parser's name, when one runs.
    pub parser: String,
    /// The generic thinking parser's tags, when it runs.
    pub thinking_tags: Option<(String, String)>,
    /// The TEMPLATE tool parser's tag (`{` when the template shows none).
    pub tool_tag: Option<String>,
    /// The tokens the built-in parser's grammar uses (`PreservedTokens`).
    pub preserved_tokens: Vec<String>,
    /// Sentences saying why, in order.
    pub why: Vec<String>,
    /// The names of the request's tools (a call must name one of them).
    #[serde(default)]
    pub tool_names: Vec<String>,
}

/// The handler loop for one request.
pub struct Handler {
    endpoint: Endpoint,
    builtin: Option<Box<dyn Parser>>,
    thinking: Option<crate::thinking::Parser>,
    tool_parser: Option<crate::tools::Parser>,
    has_tools: bool,
    explain: Explain,
    ids: Box<dyn FnMut() -> String>,
}

impl Handler {
    /// The handler's parsers for `setup`, built and initialized as the
    /// handler does; `ids` draws tool-call ids (`toolCallId()`).
    pub fn new(setup: &Setup, ids: Box<dyn FnMut() -> String>) -> Handler {
        if setup.native {
            return Handler {
                endpoint: setup.endpoint,
                builtin: None,
                thinking: None,
                tool_parser: None,
                has_tools: false,
                explain: Explain {
                    kind: "native".into(),
                    parser: String::new(),
                    thinking_tags: None,
                    tool_tag: None,
                    preserved_tokens: Vec::new(),
                    why: vec!["The model renders through llama-server's own chat path (its GGUF chat template): llama-server's chat parser reads the answer, and Promptscope passes the text through as content.".into()],
                    tool_names: Vec::new(),
                },
                ids,
            };
        }
        let mut why = Vec::new();
        let chat = setup.endpoint == Endpoint::Chat;
        let mut builtin = None;
        if !setup.parser.is_empty() && (chat || !setup.raw) {
            builtin = parsers::parser_for_name_in(&setup.parser, setup.release);
            match &mut builtin {
                Some(p) => {
                    if chat {
                        p.init(
                            &setup.tools,
                            setup.last_message.as_ref(),
                            setup.init_think.as_ref(),
                        );
                    } else {
                        // no tools or last message for generate endpoint
                        p.init(&[], None, setup.init_think.as_ref());
                    }
                    why.push(if setup.parser == "harmony" {
                        "Ollama reads this model's answer with its harmony parser (gpt-oss: PARSER harmony, or the gpt-oss family with harmony tags in its template).".to_string()
                    } else {
                        format!(
                            "The model's PARSER is {:?}: Ollama's built-in {0} parser reads the answer.",
                            setup.parser
                        )
                    });
                }
                None => why.push(format!(
                    "The model's PARSER {:?} is not a parser Ollama knows, so none runs.",
                    setup.parser
                )),
            }
        } else if !setup.parser.is_empty() {
            why.push("A raw generate request runs no built-in parser.".into());
        }
        let mut thinking = None;
        if builtin.is_none() {
            let (open, close) = setup.template.infer_tags();
            let think_on = setup.think.as_ref().is_some_and(Think::as_bool);
            if think_on && !open.is_empty() && !close.is_empty() {
                let mut t = crate::thinking::Parser::new(open.as_str(), close.as_str());
                let starts_inside = trim(&setup.prompt).ends_with(open.as_str());
                if starts_inside {
                    t.add_content(&open);
                }
                why.push(format!(
                    "Think is on and the TEMPLATE shows the tags {open:?} … {close:?}: the generic thinking parser splits the answer there{}.",
                    if starts_inside {
                        " (the prompt ends with the opening tag, so the answer starts inside the thinking)"
                    } else {
                        ""
                    }
                ));
                thinking = Some(t);
            } else if !think_on && !open.is_empty() && !close.is_empty() {
                why.push(format!(
                    "Think is not on, so the thinking tags {open:?} … {close:?} stay in the content."
                ));
            }
        }
        let has_tools = chat && !setup.tools.is_empty();
        let mut tool_parser = None;
        if has_tools && builtin.as_ref().is_none_or(|p| !p.has_tool_support()) {
            let mut p = crate::tools::Parser::new(Some(&setup.template), &setup.tools);
            p.set_release(setup.release);
            why.push(format!(
                "The request has tools and no built-in parser handles them: Ollama's tool parser, derived from the TEMPLATE, looks for {:?}.",
                p.tag()
            ));
            tool_parser = Some(p);
        } else if (!chat || setup.tools.is_empty())
            && builtin.as_ref().is_none_or(|p| !p.has_tool_support())
        {
            why.push(
                "The request has no tools, so no tool-call parser runs: a tool call the model writes stays content."
                    .into(),
            );
        }
        let kind = match (&builtin, &thinking, &tool_parser) {
            _ if setup.native => "native",
            (Some(_), _, None) => "builtin",
            (Some(_), _, Some(_)) => "builtin+tools",
            (None, Some(_), Some(_)) => "thinking+tools",
            (None, Some(_), None) => "thinking",
            (None, None, Some(_)) => "tools",
            (None, None, None) => "none",
        };
        let explain = Explain {
            kind: kind.into(),
            parser: if builtin.is_some() {
                setup.parser.clone()
            } else {
                String::new()
            },
            thinking_tags: thinking.as_ref().map(|_| setup.template.infer_tags()),
            tool_tag: tool_parser.as_ref().map(|p| p.tag().to_string()),
            preserved_tokens: builtin
                .as_ref()
                .map(|p| p.preserved_tokens())
                .unwrap_or_default(),
            why,
            tool_names: setup
                .tools
                .iter()
                .map(|t| t.function.name.clone())
                .collect(),
        };
        Handler {
            endpoint: setup.endpoint,
            builtin,
            thinking,
            tool_parser,
            has_tools,
            explain,
            ids,
        }
    }

    /// Which parsers run, and why.
    pub fn explain(&self) -> &Explain {
        &self.explain
    }

    /// The strings the handler asks llama-server to keep visible in its
    /// text (`llamaServerPreservedTokens`): the built-in parser's grammar
    /// tokens, then the tool tag's (its leading `[...]` / `<...>` special
    /// token; none for `{`, `[` or no tag).
    pub fn preserved_tokens(&self) -> Vec<String> {
        let mut tokens = self
            .builtin
            .as_ref()
            .map(|p| p.preserved_tokens())
            .unwrap_or_default();
        let tag = self
            .tool_parser
            .as_ref()
            .map(|p| p.tag())
            .unwrap_or_default();
        if !(tag.is_empty() || tag == "{" || tag == "[") {
            let close = match tag.as_bytes()[0] {
                b'[' => Some(b']'),
                b'<' => Some(b'>'),
                _ => None,
            };
            match close.and_then(|c| tag.bytes().position(|b| b == c)) {
                Some(end) if end > 0 => tokens.push(tag[..=end].to_string()),
                _ => tokens.push(tag.to_string()),
            }
        }
        tokens
    }

    /// One `CompletionResponse` through the callback: what goes on the
    /// channel (`None`: nothing), or the parser's error (the handler then
    /// answers with it).
    pub fn piece(&mut self, content: &str, done: bool) -> Result<Option<Out>, String> {
        match self.endpoint {
            Endpoint::Generate => self.generate_piece(content, done),
            Endpoint::Chat => self.chat_piece(content, done),
        }
    }

    fn generate_piece(&mut self, content: &str, done: bool) -> Result<Option<Out>, String> {
        let mut res = Out {
            content: content.to_string(),
            done,
            ..Out::default()
        };
        if let Some(p) = &mut self.builtin {
            let a = p.add(content, done)?;
            res.content = a.content;
            res.thinking = a.thinking;
            if done && !a.calls.is_empty() {
                res.tool_calls = a.calls;
            }
            let send = !res.content.is_empty()
                || !res.thinking.is_empty()
                || res.done
                || !res.tool_calls.is_empty();
            return Ok(send.then_some(res));
        } else if let Some(t) = &mut self.thinking {
            let (thinking, content) = t.add_content(content);
            res.thinking = thinking;
            res.content = content;
        }
        Ok(Some(res))
    }

    fn chat_piece(&mut self, content: &str, done: bool) -> Result<Option<Out>, String> {
        let mut res = Out {
            content: content.to_string(),
            done,
            ..Out::default()
        };
        if let Some(p) = &mut self.builtin {
            let a = p.add(content, done)?;
            res.content = a.content;
            res.thinking = a.thinking;
            let mut calls = a.calls;
            for c in &mut calls {
                c.id = (self.ids)();
            }
            res.tool_calls = calls;
            let send = !res.content.is_empty()
                || !res.thinking.is_empty()
                || !res.tool_calls.is_empty()
                || done;
            return Ok(send.then_some(res));
        }
        if let Some(t) = &mut self.thinking {
            let (thinking, remaining) = t.add_content(&res.content);
            if thinking.is_empty() && remaining.is_empty() && !done {
                // need to accumulate more to decide what to send
                return Ok(None);
            }
            res.thinking = thinking;
            res.content = remaining;
        }
        if self.has_tools {
            let Some(tp) = &mut self.tool_parser else {
                // Go: a built-in parser with tool support returned above.
                return Ok(Some(res));
            };
            let (mut calls, content) = tp.add(&res.content);
            if !content.is_empty() {
                res.content = content;
            } else if !calls.is_empty() {
                for c in &mut calls {
                    c.id = (self.ids)();
                }
                res.tool_calls = calls;
                res.content = String::new();
            } else if !res.thinking.is_empty() {
                // don't return, fall through to send
            } else {
                if done {
                    res.content = tp.content();
                    return Ok(Some(res));
                }
                return Ok(None);
            }
        }
        Ok(Some(res))
    }
}

/// The whole answer to a run of pieces.
#[derive(Clone, Debug)]
pub struct Answer {
    /// Every response sent on the channel, in order (the streamed chunks).
    pub stream: Vec<Out>,
    /// The non-streamed answer's message, or the error the handler answers
    /// with.
    pub result: Result<Out, String>,
    /// Which parsers ran.
    pub explain: Explain,
    /// The runner stopped early on its token-repeat rule after this many
    /// pieces.
    pub repeat_abort: Option<usize>,
    /// The model's whole output (the pieces joined).
    pub output: String,
    /// The rows of `changes::ollama::TABLE` the handler reached.
    pub release_rules: Vec<crate::server::BuildRule>,
}

impl Answer {
    /// The answer when the model only loads (no messages, no prompt): an
    /// empty message, no parser.
    pub fn loaded_only(endpoint: Endpoint) -> Answer {
        Answer {
            stream: Vec::new(),
            result: Ok(Out {
                done: true,
                ..Out::default()
            }),
            explain: Explain {
                kind: "load".into(),
                parser: String::new(),
                thinking_tags: None,
                tool_tag: None,
                preserved_tokens: Vec::new(),
                why: vec![format!(
                    "The request has no {}: Ollama only loads the model and answers done_reason \"load\".",
                    if endpoint == Endpoint::Chat { "messages" } else { "prompt" }
                )],
                tool_names: Vec::new(),
            },
            repeat_abort: None,
            output: String::new(),
            release_rules: Vec::new(),
        }
    }
}

/// How many identical pieces in a row (after trimming) the runner accepts
/// before it aborts the prediction (`tokenRepeat > 30`).
const TOKEN_REPEAT_LIMIT: usize = 30;

/// The runner's token-repeat rule (llm/llama_server.go): more than 30
/// pieces in a row that are equal after trimming abort the prediction,
/// and no final response follows.
///
/// The last piece starts as `""`, so blank pieces at the start count as
/// repeats, and the final stop event (empty content) counts too.
#[derive(Clone, Debug, Default)]
pub struct RepeatGuard {
    last: String,
    repeat: usize,
}

impl RepeatGuard {
    /// Counts one event's content; `true` when the runner aborts here.
    pub fn aborts(&mut self, piece: &str) -> bool {
        let t = trim(piece);
        if self.last == t {
            self.repeat += 1;
        } else {
            self.last = t.to_string();
            self.repeat = 0;
        }
        self.repeat > TOKEN_REPEAT_LIMIT
    }
}

/// Feeds the runner's pieces through the handler as `Completion` does and
/// aggregates as the non-streamed handler does.
pub fn run(setup: &Setup, pieces: &[String], ids: Box<dyn FnMut() -> String>) -> Answer {
    let mut h = Handler::new(setup, ids);
    let mut stream = Vec::new();
    let mut guard = RepeatGuard::default();
    let mut repeat_abort = None;
    let mut error = None;
    let mut feed =
        |h: &mut Handler, s: &str, done: bool, stream: &mut Vec<Out>| match h.piece(s, done) {
            Ok(Some(o)) => {
                stream.push(o);
                true
            }
            Ok(None) => true,
            Err(e) => {
                error = Some(e);
                false
            }
        };
    let mut finished = true;
    let rules = changes::Rules::of_release(setup.release);
    for (i, p) in pieces.iter().enumerate() {
        if guard.aborts(p) {
            repeat_abort = Some(i);
            finished = false;
            break;
        }
        if !p.is_empty() && !feed(&mut h, p, false, &mut stream) {
            // an error before the final chunk: whether the handler ends
            // the completion or leaves the runner held
            rules.on(&changes::ollama::PARSER_ERROR_ENDS_STREAM);
            finished = false;
            break;
        }
    }
    if finished {
        // the stop event goes through the repeat rule too
        if guard.aborts("") {
            repeat_abort = Some(pieces.len());
        } else {
            feed(&mut h, "", true, &mut stream);
        }
    }
    // the rows the parser's own behaviour reached
    if let Some(p) = &h.builtin {
        for c in p.rows_reached() {
            rules.on(c);
        }
    }
    if let Some(p) = &h.tool_parser {
        for c in p.rows_reached() {
            rules.on(c);
        }
    }
    let explain = h.explain().clone();
    let result = match error {
        Some(e) => Err(e),
        None => Ok(aggregate(setup.endpoint, !setup.tools.is_empty(), &stream)),
    };
    Answer {
        stream,
        result,
        explain,
        repeat_abort,
        output: pieces.concat(),
        release_rules: rules
            .applied()
            .into_iter()
            .map(|c| crate::server::BuildRule::of(c, &rules))
            .collect(),
    }
}

/// The non-streamed answer: content and thinking concatenated; chat keeps
/// every chunk's tool calls when the request has tools, otherwise (and
/// generate always) the last chunk's.
fn aggregate(endpoint: Endpoint, has_tools: bool, stream: &[Out]) -> Out {
    let mut out = Out::default();
    for o in stream {
        out.content.push_str(&o.content);
        out.thinking.push_str(&o.thinking);
        match endpoint {
            Endpoint::Chat if has_tools => out.tool_calls.extend(o.tool_calls.iter().cloned()),
            // without tools the answer keeps the last response's calls
            // (`resp = t`, and no appended list replaces them)
            _ => out.tool_calls = o.tool_calls.clone(),
        }
        out.done = o.done;
    }
    out
}

impl Out {
    /// The message as Go marshals it: chat's `api.Message`
    /// (`role`, `content`, `thinking`, `tool_calls`), generate's
    /// `{"response", "thinking", "tool_calls"}` of `api.GenerateResponse`.
    pub fn to_json(&self, endpoint: Endpoint) -> J {
        let mut o = Vec::new();
        match endpoint {
            Endpoint::Chat => {
                o.push(("role".to_string(), J::s("assistant")));
                o.push(("content".to_string(), J::s(&self.content)));
            }
            Endpoint::Generate => o.push(("response".to_string(), J::s(&self.content))),
        }
        if !self.thinking.is_empty() {
            o.push(("thinking".to_string(), J::s(&self.thinking)));
        }
        if !self.tool_calls.is_empty() {
            o.push((
                "tool_calls".to_string(),
                J::Arr(
                    self.tool_calls
                        .iter()
                        .map(parsers::tool_call_json)
                        .collect(),
                ),
            ));
        }
        J::Obj(o)
    }
}

/// `toolCallId()`'s ids (`call_` and eight of `a-z0-9`), drawn from `seed`
/// (Ollama draws them from `math/rand`; any id of that shape is one it can
/// give).
pub fn tool_call_ids(seed: u64) -> Box<dyn FnMut() -> String> {
    const LETTERS: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";
    let mut state = seed;
    Box::new(move || {
        let mut id = String::from("call_");
        for _ in 0..8 {
            // splitmix64
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^= z >> 31;
            id.push(LETTERS[(z % LETTERS.len() as u64) as usize] as char);
        }
        id
    })
}

/// The model's output in a parse case: `"chunks"` (the pieces as the
/// runner streamed them) or `"output"` (one piece).
pub fn pieces_of(case: &serde_json::Value) -> Result<Vec<String>, String> {
    match (case.get("chunks"), case.get("output")) {
        (Some(c), _) if !c.is_null() => {
            let arr = c
                .as_array()
                .ok_or("\"chunks\" must be an array of strings (the pieces the runner streamed)")?;
            arr.iter()
                .enumerate()
                .map(|(i, p)| {
                    p.as_str()
                        .map(str::to_string)
                        .ok_or_else(|| format!("\"chunks\"[{i}] must be a string"))
                })
                .collect()
        }
        (_, Some(o)) if !o.is_null() => o
            .as_str()
            .map(|s| vec![s.to_string()])
            .ok_or_else(|| "\"output\" must be a string (the model's text)".to_string()),
        _ => Err(
            "a parse case needs \"output\" (the model's text) or \"chunks\" (the pieces the runner streamed)"
                .into(),
        ),
    }
}

impl Answer {
    /// `promptscope parse`'s result: the non-streamed message as Go
    /// marshals it, or `{"error": ...}`.
    pub fn result_json(&self, endpoint: Endpoint) -> J {
        match &self.result {
            Ok(o) => self.message_json(o, endpoint),
            Err(e) => J::Obj(vec![("error".into(), J::s(e))]),
        }
    }

    /// The non-streamed message; a chat that received no response at all
    /// (the runner aborted first) answers Go's zero message, role `""`.
    fn message_json(&self, o: &Out, endpoint: Endpoint) -> J {
        let j = o.to_json(endpoint);
        match j {
            J::Obj(mut kv)
                if endpoint == Endpoint::Chat
                    && self.stream.is_empty()
                    && self.explain.kind != "load" =>
            {
                kv[0].1 = J::s("");
                J::Obj(kv)
            }
            j => j,
        }
    }

    /// The result with the stream and the explanation:
    /// `{"message" | "error", "stream": [...], "parser": {...}}`.
    pub fn detail_json(&self, endpoint: Endpoint) -> J {
        let mut o = Vec::new();
        match &self.result {
            Ok(m) => o.push(("message".to_string(), self.message_json(m, endpoint))),
            Err(e) => o.push(("error".to_string(), J::s(e))),
        }
        o.push((
            "stream".to_string(),
            J::Arr(
                self.stream
                    .iter()
                    .map(|c| {
                        let mut kv = match c.to_json(endpoint) {
                            J::Obj(kv) => kv,
                            other => vec![("message".into(), other)],
                        };
                        kv.push(("done".into(), J::Bool(c.done)));
                        J::Obj(kv)
                    })
                    .collect(),
            ),
        ));
        let e = &self.explain;
        let mut p = vec![
            ("kind".to_string(), J::s(&e.kind)),
            ("parser".to_string(), J::s(&e.parser)),
        ];
        if let Some((a, b)) = &e.thinking_tags {
            p.push(("thinking_tags".into(), J::Arr(vec![J::s(a), J::s(b)])));
        }
        if let Some(t) = &e.tool_tag {
            p.push(("tool_tag".into(), J::s(t)));
        }
        p.push((
            "preserved_tokens".into(),
            J::Arr(e.preserved_tokens.iter().map(J::s).collect()),
        ));
        p.push(("why".into(), J::Arr(e.why.iter().map(J::s).collect())));
        if let Some(n) = self.repeat_abort {
            p.push(("repeat_abort".into(), J::int(n as i64)));
        }
        o.push(("parser".to_string(), J::Obj(p)));
        if !self.release_rules.is_empty() {
            o.push((
                "release_rules".to_string(),
                J::Arr(
                    self.release_rules
                        .iter()
                        .map(|r| {
                            J::Obj(vec![
                                ("id".into(), J::s(&r.id)),
                                ("in_effect".into(), J::Bool(r.in_effect)),
                                ("first".into(), J::s(&r.first)),
                                ("upstream".into(), J::s(&r.upstream)),
                                ("behaviour".into(), J::s(&r.behaviour)),
                            ])
                        })
                        .collect(),
                ),
            ));
        }
        let diagnosis = self.diagnose(&self.output);
        if !diagnosis.is_empty() {
            o.push((
                "diagnosis".to_string(),
                J::Arr(diagnosis.iter().map(J::s).collect()),
            ));
        }
        J::Obj(o)
    }
}

fn think_json(t: &Option<Think>) -> serde_json::Value {
    match t {
        None => serde_json::Value::Null,
        Some(Think::Bool(b)) => (*b).into(),
        Some(Think::Level(l)) => l.clone().into(),
    }
}

impl Setup {
    /// The setup as JSON (for a worker, or a recorded case): the request's
    /// own `tools` and last message, the template's text, the think values.
    pub fn to_spec(&self, request: &serde_json::Value) -> serde_json::Value {
        let last = match self.endpoint {
            Endpoint::Chat => request
                .get("messages")
                .and_then(|m| m.as_array())
                .and_then(|m| m.last())
                .cloned()
                .unwrap_or(serde_json::Value::Null),
            Endpoint::Generate => serde_json::Value::Null,
        };
        serde_json::json!({
            "endpoint": if self.endpoint == Endpoint::Chat { "chat" } else { "generate" },
            "parser": self.parser,
            "template": self.template.raw(),
            "tools": if self.endpoint == Endpoint::Chat {
                request.get("tools").cloned().unwrap_or(serde_json::Value::Null)
            } else {
                serde_json::Value::Null
            },
            "last": last,
            "init_think": think_json(&self.init_think),
            "handler_think": think_json(&self.think),
            "prompt": self.prompt,
            "raw": self.raw,
            "native": self.native,
            "ollama": self.release.tag,
        })
    }

    /// Reads [`Setup::to_spec`]'s JSON (also the line format of
    /// `parsers-handler.jsonl`, where `init_think` may be absent: then it
    /// is `think`). The tools and the last message are decoded as the chat
    /// handler decodes them.
    pub fn from_spec(v: &serde_json::Value, today: crate::date::Date) -> Result<Setup, String> {
        use serde_json::{json, Value};
        let endpoint = match v["endpoint"].as_str() {
            Some("generate") => Endpoint::Generate,
            _ => Endpoint::Chat,
        };
        let last = v.get("last").filter(|l| !l.is_null()).cloned();
        let decode = |think: &Value| {
            crate::api::ChatRequest::decode(&json!({
                "model": "m",
                "messages": last.iter().collect::<Vec<_>>(),
                "tools": v.get("tools").cloned().unwrap_or(Value::Null),
                "think": think,
            }))
            .map_err(|e| e.0)
        };
        // the handler's think (`handler_think` in recorded cases)
        let think = v
            .get("handler_think")
            .or_else(|| v.get("think"))
            .cloned()
            .unwrap_or(Value::Null);
        let req = decode(&think)?;
        let init_think = match v.get("init_think") {
            Some(t) => decode(t)?.think,
            None => req.think.clone(),
        };
        let text = v["template"].as_str().unwrap_or("");
        let mut parser = v["parser"].as_str().unwrap_or("").to_string();
        // a recorded case names the model's family: the harmony rule
        // (`shouldUseHarmony`) then picks the parser as the handler does
        let family = v["family"].as_str().unwrap_or("");
        if parser.is_empty()
            && matches!(family, "gptoss" | "gpt-oss")
            && text.contains("<|start|>")
            && text.contains("<|end|>")
        {
            parser = "harmony".into();
        }
        Ok(Setup {
            endpoint,
            parser,
            template: Template::parse(text, today)?,
            tools: req.tools.unwrap_or_default(),
            init_think,
            think: req.think,
            last_message: last.and(req.messages.into_iter().last()),
            prompt: v["prompt"].as_str().unwrap_or("").to_string(),
            raw: v["raw"]
                .as_bool()
                .or_else(|| v["generate"]["raw"].as_bool())
                .unwrap_or(false),
            native: v["native"].as_bool().unwrap_or(false),
            release: match v.get("ollama").and_then(Value::as_str) {
                Some(tag) => changes::Release::parse(tag)?,
                None => changes::Release::NEWEST,
            },
        })
    }
}

/// Openings that usually start a tool call in some model's format.
const TOOL_OPENINGS: [&str; 10] = [
    "<tool_call>",
    "<|tool_call_start|>",
    "[TOOL_CALLS]",
    "<|python_tag|>",
    "<function=",
    "<|tool▁calls▁begin|>",
    "<start_function_call>",
    "<|tool_call>",
    "functools[",
    "{\"name\"",
];

/// Line and column (1-based, in characters) of byte `at` of `text`.
fn line_col(text: &str, at: usize) -> (usize, usize) {
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

impl Answer {
    /// When the answer has no tool calls but its content looks like one:
    /// why it stayed content — which parser ran, what opening it looks for,
    /// and where in the output that opening is (or is not).
    pub fn diagnose(&self, output: &str) -> Vec<String> {
        let Ok(msg) = &self.result else {
            // a release that leaves the runner held after this error
            return self
                .release_rules
                .iter()
                .filter(|r| r.id == changes::ollama::PARSER_ERROR_ENDS_STREAM.id && !r.in_effect)
                .map(|r| {
                    format!(
                        "the parser failed before the last chunk: this release sends the error but never ends the completion, so the runner stays held and the next request to this model hangs (ollama#17825; fixed in {})",
                        r.first
                    )
                })
                .collect();
        };
        if !msg.tool_calls.is_empty() {
            return Vec::new();
        }
        let e = &self.explain;
        let mut looks_for: Vec<String> = Vec::new();
        if let Some(t) = &e.tool_tag {
            looks_for.push(t.clone());
        }
        looks_for.extend(
            e.preserved_tokens
                .iter()
                .filter(|t| {
                    TOOL_OPENINGS
                        .iter()
                        .any(|o| o.starts_with(t.as_str()) || t.contains("tool"))
                })
                .cloned(),
        );
        let seen = TOOL_OPENINGS
            .iter()
            .chain(
                looks_for
                    .iter()
                    .map(String::as_str)
                    .collect::<Vec<_>>()
                    .iter(),
            )
            .filter_map(|o| output.find(o).map(|i| (i, o.to_string())))
            .min();
        let Some((out_at, opening)) = seen else {
            return Vec::new();
        };
        let mut why = Vec::new();
        let (line, col) = line_col(output, out_at);
        let Some(at) = msg.content.find(&opening) else {
            // the parser took the text from the opening on and let none of
            // it out
            why.push(format!(
                "The output has {opening:?} at line {line}, column {col}, which looks like a tool call, but the answer has neither tool_calls nor that text: the parser held everything from there on and found no call in it."
            ));
            if e.tool_tag.is_some()
                && !e
                    .tool_names
                    .iter()
                    .any(|n| output[out_at..].contains(&format!("\"{n}\"")))
            {
                why.push(format!(
                    "Ollama's tool parser reads a call only when it names one of the request's tools ({}) in quotes; the output names none of them.",
                    e.tool_names.iter().map(|n| format!("{n:?}")).collect::<Vec<_>>().join(", ")
                ));
            }
            return why;
        };
        why.push(format!(
            "The content has {opening:?} at line {line}, column {col} of the output, which looks like a tool call, but the answer has no tool_calls."
        ));
        match e.kind.as_str() {
            "native" => why.push("llama-server's own chat parser reads this model's answer; Ollama's parsers do not run.".into()),
            "load" => {}
            _ if e.tool_tag.is_none() && !self.has_tool_parser() => why.push(
                "No tool-call parser ran: the request has no tools (Ollama parses tool calls only when the request sends tools), or the model's parser has no tool support."
                    .into(),
            ),
            _ if matches!(e.tool_tag.as_deref(), Some("{") | Some("["))
                && !trim(&msg.content[..msg.content.find(['{', '[']).unwrap_or(0)]).is_empty() =>
            {
                let first = msg.content.len() - trim_start(&msg.content).len();
                let (l, c) = line_col(&msg.content, first);
                why.push(format!(
                    "The TEMPLATE shows no tool-call tag, so Ollama's tool parser takes {:?} as the opening and reads a call only when the answer starts with it; this answer starts with other text at line {l}, column {c}, and the parser stopped there: everything stays content.",
                    e.tool_tag.as_deref().unwrap_or("{")
                ));
            }
            _ if e.tool_tag.is_some()
                && !e.tool_names.iter().any(|n| msg.content[at..].contains(&format!("\"{n}\""))) =>
            {
                why.push(format!(
                    "After {opening:?} the tool parser looks for the name of one of the request's tools ({}) in quotes, and the output names none of them, so it found no call.",
                    e.tool_names.iter().map(|n| format!("{n:?}")).collect::<Vec<_>>().join(", ")
                ));
            }
            _ => {
                if !looks_for.is_empty() && !looks_for.iter().any(|t| msg.content.contains(t.as_str())) {
                    why.push(format!(
                        "The parser that ran ({}) looks for {}; the output does not have it where the parser expects it.",
                        if e.parser.is_empty() { "the TEMPLATE's tool parser" } else { e.parser.as_str() },
                        looks_for.iter().map(|t| format!("{t:?}")).collect::<Vec<_>>().join(" or ")
                    ));
                } else {
                    why.push(format!(
                        "The parser found its opening but gave up there: what follows {opening:?} is not a tool call it can read (malformed JSON, an unknown tool name, or text before the call), so the text stays content."
                    ));
                }
            }
        }
        why
    }

    fn has_tool_parser(&self) -> bool {
        matches!(
            self.explain.kind.as_str(),
            "builtin" | "builtin+tools" | "tools" | "thinking+tools"
        ) && (self.explain.tool_tag.is_some() || !self.explain.parser.is_empty())
    }
}

/// The fuzz harness (`fuzz/fuzz_targets/answer.rs`): arbitrary bytes as a
/// model's output through every parser. The first byte picks the parser
/// (or none, with a TEMPLATE whose tool parser and thinking tags then
/// run), the second the endpoint, tools, think and prefill; the rest is
/// the output, its pieces split at `0xff` bytes. No input may panic or
/// hang, and the answer must not depend on the pieces' boundaries beyond
/// what Ollama's parsers do (not checked: Ollama's own parsers are not
/// chunking-invariant).
#[doc(hidden)]
pub fn exercise(data: &[u8]) {
    const TEMPLATES: [&str; 3] = [
        "{{ if .Tools }}<tools>{{ range .Tools }}{{ json .Function }}{{ end }}</tools>{{ end }}{{ range .Messages }}{{ .Role }}: {{ if .Thinking }}<think>{{ .Thinking }}</think>{{ end }}{{ .Content }}{{ if .ToolCalls }}<tool_call>{{ range .ToolCalls }}{\"name\": \"{{ .Function.Name }}\", \"arguments\": {{ .Function.Arguments }}}{{ end }}</tool_call>{{ end }}\n{{ end }}assistant: {{ if .Think }}<think>{{ end }}",
        "{{ range .Messages }}{{ .Content }}{{ range .ToolCalls }}[TOOL_CALLS] [{\"name\": \"{{ .Function.Name }}\", \"arguments\": {{ .Function.Arguments }}}]{{ end }}{{ end }}",
        "{{ .Prompt }}",
    ];
    let (Some(&pick), Some(&flags)) = (data.first(), data.get(1)) else {
        return;
    };
    let rest = &data[2..];
    let names = crate::parsers::PARSER_NAMES;
    let parser = names
        .get(pick as usize % (names.len() + 3))
        .copied()
        .unwrap_or("");
    let template_text = if parser.is_empty() {
        TEMPLATES[pick as usize % TEMPLATES.len()]
    } else {
        "{{ .Prompt }}"
    };
    let Ok(template) = Template::parse(template_text, crate::date::Date::today_utc()) else {
        return;
    };
    let tool = |name: &str| {
        let v = serde_json::json!({"model": "m", "tools": [{"type": "function", "function": {"name": name,
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}, "n": {"type": "integer"},
            "x": {"type": "number"}, "ok": {"type": "boolean"}, "list": {"type": "array"}, "obj": {"type": "object"}}}}}]});
        crate::api::ChatRequest::decode(&v)
            .ok()
            .and_then(|r| r.tools)
            .unwrap_or_default()
    };
    let think = match flags >> 2 & 3 {
        0 => None,
        1 => Some(Think::Bool(true)),
        2 => Some(Think::Bool(false)),
        _ => Some(Think::Level("high".into())),
    };
    let last_message = Some(if flags & 16 != 0 {
        let mut m = Message::new("assistant", "<think>partial");
        m.thinking = "partial".into();
        m
    } else {
        Message::new("user", "hi")
    });
    let setup = Setup {
        endpoint: if flags & 1 != 0 {
            Endpoint::Generate
        } else {
            Endpoint::Chat
        },
        parser: parser.to_string(),
        template,
        tools: if flags & 2 != 0 {
            tool("get_weather")
        } else {
            Vec::new()
        },
        init_think: think.clone(),
        think,
        last_message,
        prompt: if flags & 32 != 0 {
            "assistant: <think>".into()
        } else {
            String::new()
        },
        raw: flags & 64 != 0,
        native: false,
        release: changes::Release::NEWEST,
    };
    let pieces: Vec<String> = rest
        .split(|&b| b == 0xff)
        .map(|p| String::from_utf8_lossy(p).into_owned())
        .collect();
    let a = run(&setup, &pieces, tool_call_ids(0));
    let _ = a.detail_json(setup.endpoint).to_json();
    let _ = a.diagnose(&pieces.concat());
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn answer(template: &str, parser: &str, tools: bool, output: &str) -> Answer {
        let tools = tools.then(|| {
            json!([{"type": "function", "function": {"name": "get_weather",
                "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}}])
        });
        let spec = json!({"endpoint": "chat", "parser": parser, "template": template,
            "tools": tools, "last": {"role": "user", "content": "hi"}, "prompt": ""});
        let setup = Setup::from_spec(&spec, crate::date::Date::today_utc()).unwrap();
        run(&setup, &[output.to_string()], tool_call_ids(1))
    }

    const HERMES: &str = "{{ if .Tools }}{{ .Tools }}{{ end }}{{ range .Messages }}{{ .Content }}{{ if .ToolCalls }}<tool_call>{{ range .ToolCalls }}{\"name\": \"{{ .Function.Name }}\"}{{ end }}</tool_call>{{ end }}{{ end }}";
    const BARE: &str = "{{ if .Tools }}{{ .Tools }}{{ end }}{{ range .Messages }}{{ .Content }}{{ range .ToolCalls }}{\"name\": \"{{ .Function.Name }}\"}{{ end }}{{ end }}";

    #[test]
    fn a_call_that_parses_needs_no_diagnosis() {
        let out = "<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}</tool_call>";
        let a = answer(HERMES, "", true, out);
        let m = a.result.as_ref().unwrap();
        assert_eq!(m.tool_calls.len(), 1);
        assert_eq!(a.explain.kind, "tools");
        assert_eq!(a.explain.tool_tag.as_deref(), Some("<tool_call>"));
        assert!(a.diagnose(out).is_empty());
        // the handler asks llama-server to keep the tag visible
        let h = Handler::new(
            &Setup::from_spec(
                &json!({"endpoint": "chat", "parser": "", "template": HERMES,
                    "tools": [{"type": "function", "function": {"name": "f"}}], "prompt": ""}),
                crate::date::Date::today_utc(),
            )
            .unwrap(),
            tool_call_ids(0),
        );
        assert_eq!(h.preserved_tokens(), ["<tool_call>"]);
    }

    #[test]
    fn why_a_call_stays_content() {
        let out = "<tool_call>{\"name\": \"get_weather\", \"arguments\": {}}</tool_call>";
        // no tools in the request: no tool parser runs
        let a = answer(HERMES, "", false, out);
        assert!(a.result.as_ref().unwrap().tool_calls.is_empty());
        let why = a.diagnose(out).join(" ");
        assert!(why.contains("line 1, column 1"), "{why}");
        assert!(why.contains("No tool-call parser ran"), "{why}");
        // a TEMPLATE without a tag: `{` must open the answer
        let out = "Sure! {\"name\": \"get_weather\", \"arguments\": {}}";
        let a = answer(BARE, "", true, out);
        assert_eq!(a.explain.tool_tag.as_deref(), Some("{"));
        // Ollama's own quirk: the parser gives up but keeps its buffer,
        // and Content() hands it out again at the end
        assert_eq!(
            a.result.as_ref().unwrap().content,
            format!("{out}{}", &out[6..])
        );
        let why = a.diagnose(out).join(" ");
        assert!(
            why.contains("starts with other text at line 1, column 1"),
            "{why}"
        );
        // a call naming no tool the request sent
        let out = "<tool_call>{\"name\": \"get_time\", \"arguments\": {}}</tool_call>";
        let a = answer(HERMES, "", true, out);
        let why = a.diagnose(out).join(" ");
        assert!(why.contains("\"get_weather\""), "{why}");
    }

    #[test]
    fn the_runners_repeat_rule() {
        // 31 identical pieces are delivered, the 32nd aborts: no done
        let setup = Setup::from_spec(
            &json!({"endpoint": "generate", "parser": "", "template": "{{ .Prompt }}", "prompt": "p"}),
            crate::date::Date::today_utc(),
        )
        .unwrap();
        let pieces = vec!["x".to_string(); 40];
        let a = run(&setup, &pieces, tool_call_ids(0));
        assert_eq!(a.repeat_abort, Some(31));
        assert_eq!(a.stream.len(), 31);
        assert!(a.stream.iter().all(|o| !o.done));
        // blank pieces at the start repeat the initial "" already
        let blank = vec![" ".to_string(); 31];
        let a = run(&setup, &blank, tool_call_ids(0));
        assert_eq!(a.repeat_abort, Some(30));
        let a = run(&setup, &pieces[..31], tool_call_ids(0));
        assert_eq!(a.repeat_abort, None);
        assert!(a.stream.last().unwrap().done);
    }

    /// Arguments nested thousands deep (Go decodes 10,000 levels) must not
    /// overflow a worker's stack anywhere in the answer.
    #[test]
    fn deeply_nested_calls_do_not_overflow_the_stack() {
        let worker = std::thread::Builder::new().stack_size(1 << 20);
        let h = worker
            .spawn(|| {
                let deep = format!("{}1{}", "[".repeat(5000), "]".repeat(5000));
                let mut fails = 0;
                for (parser, out) in [
                    ("qwen3", format!("<tool_call>\n{{\"name\": \"get_weather\", \"arguments\": {{\"city\": {deep}}}}}\n</tool_call>")),
                    ("deepseek3", format!("<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{{\"city\": {deep}}}<｜tool▁call▁end｜><｜tool▁calls▁end｜>")),
                    ("harmony", format!("<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{{\"city\": {deep}}}")),
                    ("", format!("{{\"name\": \"get_weather\", \"arguments\": {{\"city\": {deep}}}}}")),
                ] {
                    let a = answer("{{ if .Tools }}{{ .Tools }}{{ end }}{{ .Prompt }}", parser, true, &out);
                    let _ = a.detail_json(Endpoint::Chat).to_json();
                    fails += usize::from(a.result.is_err());
                }
                fails
            })
            .unwrap();
        // refused or content, never a crash
        let _ = h.join().expect("no stack overflow");
    }

    #[test]
    fn specs_round_trip() {
        let spec = json!({"endpoint": "chat", "parser": "qwen3", "template": "{{ .Prompt }}",
            "tools": [{"type": "function", "function": {"name": "f"}}],
            "last": {"role": "assistant", "content": "<think>"}, "init_think": null,
            "handler_think": true, "prompt": "p", "raw": false, "native": false,
            "ollama": "0.32.15-rc1"});
        let s = Setup::from_spec(&spec, crate::date::Date::today_utc()).unwrap();
        assert_eq!(s.init_think, None);
        assert_eq!(s.think, Some(Think::Bool(true)));
        assert_eq!(s.release.tag, "0.32.15-rc1");
        let request = json!({"tools": spec["tools"], "messages": [spec["last"]]});
        assert_eq!(s.to_spec(&request), spec);
        // without the key: the newest release; a tag not supported is refused
        let mut newest = spec.clone();
        newest.as_object_mut().unwrap().remove("ollama");
        let s = Setup::from_spec(&newest, crate::date::Date::today_utc()).unwrap();
        assert_eq!(s.release, changes::Release::NEWEST);
        newest["ollama"] = json!("0.1.0");
        assert!(Setup::from_spec(&newest, crate::date::Date::today_utc()).is_err());
    }
}
