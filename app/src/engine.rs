//! One render: the state turned into a render case and run through the
//! engine (`ollama::case::RenderCase`), with input errors kept apart from
//! Ollama's own answers.

use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use ollama::case::{RenderCase, RouteCase};
use ollama::compat::notes::{self, FieldNote};
use ollama::date::Date;
use ollama::server::{Explain, TokenCounter};

use crate::errpos::{self, Pos};
use crate::gguf::Gguf;
use crate::state::{merge_options, parse_json_text, pretty, Endpoint, State};

/// Which editor an input error belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Field {
    /// The Modelfile MESSAGE list.
    ModelMessages,
    /// The model's option defaults (PARAMETERs).
    ModelOptions,
    /// The request body.
    Request,
    /// The server date.
    Date,
}

/// Text the engine cannot take yet (not valid JSON, wrong shape): not an
/// Ollama error, so it is shown beside the editor.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InputError {
    /// The editor.
    pub field: Field,
    /// What is wrong.
    pub message: String,
    /// Where, when known.
    pub pos: Option<Pos>,
}

/// Which template a Go template error points into.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TemplateTarget {
    /// The Modelfile TEMPLATE.
    Model,
    /// The `template` of a generate request.
    Request,
}

/// Ollama's answer when it rejects the request or fails to render.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EngineError {
    /// The exact text of Ollama's `{"error": ...}`.
    pub message: String,
    /// The HTTP status Ollama answers with.
    pub status: u16,
    /// Where a Go template error points, and in which template.
    pub position: Option<(TemplateTarget, Pos)>,
    /// Through a compatibility route: the exact body the route answers
    /// with, in its own error shape.
    pub body: Option<String>,
}

/// What a compatibility route made of the body the client sent.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RouteView {
    /// The route's render-case name (`openai-chat`, ...).
    pub route: String,
    /// The route's URL path (`/v1/chat/completions`, ...).
    pub path: String,
    /// The native endpoint the converted request goes to (`/api/chat` or
    /// `/api/generate`).
    pub native_path: String,
    /// The converted native request as the middleware writes it (pretty
    /// JSON, the CLI's `api_request`); `None` when the route refused the body.
    pub api_request: Option<String>,
    /// What happened to each top-level field of the body.
    pub fields: Vec<FieldNote>,
}

/// The result of one render (serializable: the engine worker sends it).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// The prompt; `None` on an error, or when Ollama answers without
    /// rendering (no messages, empty prompt: `done_reason: "load"`).
    pub prompt: Option<String>,
    /// Images handed to the runner.
    pub image_count: usize,
    /// Ollama's error.
    pub error: Option<EngineError>,
    /// An input that could not be read.
    pub input_error: Option<InputError>,
    /// How the prompt came about (also after a rejection: what was decided by then).
    pub explain: Option<Explain>,
    /// With a GGUF: `prompt_eval_count` as `promptscope render --json`
    /// reports it (after the runner's cut), or why it could not be counted.
    pub token_count: Option<Result<usize, String>>,
    /// With a GGUF: the runner's second truncation stage (`num_keep`, the
    /// cut or Ollama's context-length error).
    pub runner: Option<ollama::runner::Figures>,
    /// With a GGUF, in a chat with an earlier reply: what llama-server's
    /// KV cache reuses from the previous turn (or why it cannot be said).
    pub cache: Option<Result<ollama::cache::TurnView, String>>,
    /// With a GGUF and the runner's cut: the dropped bytes of the prompt
    /// as sent, `[start, end)`, where the tokens' pieces spell it.
    pub cut_bytes: Option<(usize, usize)>,
    /// The byte of the prompt where the previous turn's cache stops
    /// matching, where the tokens' pieces spell it.
    pub cache_break: Option<usize>,
    /// Through a compatibility route: the converted request and the fate
    /// of each field.
    pub route: Option<RouteView>,
    /// What the handler knows when the model answers
    /// ([`ollama::answer::Setup::to_spec`]): the Generate and Answer panes
    /// read the model's output with it.
    pub answer_setup: Option<Value>,
    /// Why there is no `answer_setup` although there is a prompt.
    pub answer_error: Option<String>,
    /// An embedding request (`/api/embed`, `/api/embeddings`,
    /// `/v1/embeddings`): each input as the model sees it, its tokens and
    /// what truncation did. There is no prompt then.
    pub embed: Option<ollama::embed::Outcome>,
}

impl Outcome {
    fn input(field: Field, message: impl Into<String>, pos: Option<Pos>) -> Outcome {
        Outcome {
            input_error: Some(InputError {
                field,
                message: message.into(),
                pos,
            }),
            ..Outcome::default()
        }
    }

    /// Whether Ollama answered without rendering (`done_reason: "load"`).
    pub fn no_prompt(&self) -> bool {
        self.prompt.is_none()
            && self.error.is_none()
            && self.input_error.is_none()
            && self.embed.is_none()
    }

    /// The selected path's label (`go_template`, `renderer`, ...), if known.
    pub fn source(&self) -> &str {
        self.explain.as_ref().map_or("", |e| e.source.as_str())
    }
}

/// The request body parsed, or the input error.
pub fn parse_request(text: &str) -> Result<Value, InputError> {
    let v = parse_json_text(text, json!({})).map_err(|e| InputError {
        field: Field::Request,
        message: e.to_string(),
        pos: Some(errpos::json(&e)),
    })?;
    if !v.is_object() {
        return Err(InputError {
            field: Field::Request,
            message: "the request body must be a JSON object".into(),
            pos: None,
        });
    }
    Ok(v)
}

/// The render case for `state` (`shared/spec/cli.md`), with `today` as the
/// date when the state sets none. The model's option defaults go under the
/// request's `options` (the request wins key by key); through a
/// compatibility route they are `model.parameters`, which the engine puts
/// under what the route converted.
pub fn render_case(state: &State, today: &str) -> Result<Value, InputError> {
    let m = &state.model;
    let messages = parse_json_text(&m.messages, json!([])).map_err(|e| InputError {
        field: Field::ModelMessages,
        message: e.to_string(),
        pos: Some(errpos::json(&e)),
    })?;
    let defaults = match parse_json_text(&m.options, json!({})) {
        Ok(Value::Object(o)) => o,
        Ok(_) => {
            return Err(InputError {
                field: Field::ModelOptions,
                message: "the PARAMETERs must be a JSON object".into(),
                pos: None,
            })
        }
        Err(e) => {
            return Err(InputError {
                field: Field::ModelOptions,
                message: e.to_string(),
                pos: Some(errpos::json(&e)),
            })
        }
    };
    let mut request = parse_request(&state.request)?;
    // the OpenAI embeddings body carries no options: the PARAMETERs go
    // beside it, as for a compatibility route
    let openai_embed = state.endpoint == Endpoint::OpenAiEmbeddings;
    let route = state.endpoint.route().is_some() || openai_embed;
    if !route {
        // the model's defaults under the request's own, as `modelOptions`
        merge_options(&mut request, &defaults);
    }
    let date = if m.date.trim().is_empty() {
        today.to_string()
    } else {
        m.date.trim().to_string()
    };
    if Date::parse(&date).is_none() {
        return Err(InputError {
            field: Field::Date,
            message: format!("{date:?} is not a date (YYYY-MM-DD)"),
            pos: None,
        });
    }
    let mut model = Map::new();
    if m.has_template {
        model.insert("template".into(), json!(m.template));
    }
    model.insert("system".into(), json!(m.system));
    model.insert("messages".into(), messages);
    model.insert("renderer".into(), json!(m.renderer.trim()));
    model.insert("parser".into(), json!(m.parser.trim()));
    model.insert("family".into(), json!(m.family.trim()));
    model.insert("capabilities".into(), json!(m.capabilities));
    if !m.chat_template.is_empty() {
        model.insert("chat_template".into(), json!(m.chat_template));
    }
    for (key, value) in [("bos_token", &m.bos_token), ("eos_token", &m.eos_token)] {
        if !value.is_empty() {
            model.insert(key.into(), json!(value));
        }
    }
    if route && !defaults.is_empty() {
        model.insert("parameters".into(), Value::Object(defaults));
    }
    let mut case = Map::new();
    if !state.ollama.is_empty() {
        case.insert("ollama".into(), json!(state.ollama));
    }
    case.insert("endpoint".into(), json!(state.endpoint.as_str()));
    case.insert("model".into(), Value::Object(model));
    case.insert("request".into(), request);
    case.insert("date".into(), json!(date));
    if let Some(env) = &m.go_template_env {
        case.insert("env".into(), json!({ "OLLAMA_GO_TEMPLATE": env }));
    }
    Ok(Value::Object(case))
}

/// What the route made of the body: the converted request and the notes.
pub fn route_view(rc: &RouteCase) -> RouteView {
    let native = match &rc.converted {
        Ok(c) => Endpoint::of_server(c.endpoint),
        Err(_) => Endpoint::of_server(rc.route.native()),
    };
    RouteView {
        route: rc.route.name().to_string(),
        path: rc.route.path().to_string(),
        native_path: native.path().to_string(),
        api_request: rc.converted.as_ref().ok().map(|c| pretty(&c.request)),
        fields: notes::notes(rc.route, &rc.body, rc.release),
    }
}

/// One line for the runner's second truncation stage: the options in
/// effect, then the whole prompt evaluated, the kept and dropped token
/// ranges, or Ollama's error.
pub fn runner_summary(f: &ollama::runner::Figures) -> String {
    let head = format!(
        "num_ctx {}, num_keep {}, context shift {}",
        f.num_ctx,
        f.num_keep,
        if f.context_shift { "on" } else { "off" }
    );
    if let Some(e) = &f.error {
        return format!("{head}: {} tokens do not fit: {e}", f.tokens);
    }
    match f.cut {
        None => format!("{head}: all {} tokens evaluated", f.tokens),
        Some(c) => format!(
            "{head}: tokens 0–{} and {}–{} kept, {}–{} dropped ({} tokens); {} evaluated",
            c.keep,
            c.keep + c.discarded,
            f.tokens,
            c.keep,
            c.keep + c.discarded,
            c.discarded,
            c.limit
        ),
    }
}

/// The bytes of the prompt (as sent) that the runner's cut drops.
fn cut_bytes(g: &Gguf, s: &ollama::cache::Seen) -> Option<(usize, usize)> {
    use ollama::cache::PromptTokens;
    let c = s.runner.cut?;
    let pieces: Vec<Vec<u8>> = s.all.iter().map(|&id| g.piece(id)).collect();
    let refs: Vec<&[u8]> = pieces.iter().map(Vec::as_slice).collect();
    let o = ollama::cache::piece_offsets(&s.sent, &refs)?;
    Some((o[c.keep], o[c.keep + c.discarded]))
}

/// One line for the cache view: what llama-server reuses of the previous
/// turn, and where and why it stops.
pub fn cache_summary(t: &ollama::cache::TurnView) -> String {
    let r = &t.reuse;
    let head = format!(
        "{} of {} tokens reused from the previous turn (reply: message {}), {} evaluated; prompt_eval_count {}",
        r.cache_n,
        r.tokens,
        t.reply,
        r.prompt_n,
        r.prompt_eval_count()
    );
    let line = match &t.first_difference {
        None => format!("{head}. {}", t.why.cause),
        Some(d) => format!(
            "{head}. First difference at token {} ({:?} in the cache, {:?} now): {}",
            d.token,
            d.held.as_ref().map_or("", |h| h.1.as_str()),
            d.new.1,
            t.why.cause
        ),
    };
    match &t.checkpoints {
        // a model whose memory cannot be cut back: the checkpoint decided
        Some(c) if c.restored.is_some() || c.reset => format!("{line}. Checkpoints: {}", c.why),
        _ => line,
    }
}

/// An embedding case: each input through the handler, with the GGUF's
/// facts and vocabulary when there is one.
fn run_embed(case: &RenderCase, gguf: Option<&Gguf>) -> Outcome {
    let kv = gguf.map(Gguf::embed_kv);
    let tokens = gguf
        .filter(|g| g.has_vocab())
        .map(|g| g as &dyn ollama::embed::EmbedTokens);
    let Some(o) = case.embed(kv.as_ref(), tokens) else {
        return Outcome::default();
    };
    let error = match (&o.error, &o.unsupported) {
        (Some((status, message)), _) => Some(EngineError {
            message: message.clone(),
            status: *status,
            position: None,
            body: o.body.clone(),
        }),
        (None, Some(u)) => Some(EngineError {
            message: u.clone(),
            status: 0,
            position: None,
            body: None,
        }),
        (None, None) => None,
    };
    Outcome {
        error,
        token_count: o.prompt_eval_count.map(Ok),
        embed: Some(o),
        ..Outcome::default()
    }
}

/// Renders `state` as Ollama would. `today` (`YYYY-MM-DD`) is the date
/// used when the state sets none; the browser passes its own.
pub fn run(state: &State, today: &str) -> Outcome {
    run_with(state, today, None)
}

/// Renders `state` with a model's GGUF: what Ollama reads from the file
/// fills the case, truncation and per-message costs use its tokenizer, and
/// the prompt's `prompt_eval_count` is counted.
pub fn run_with(state: &State, today: &str, gguf: Option<&Gguf>) -> Outcome {
    let case = match render_case(state, today) {
        Ok(c) => c,
        Err(e) => return Outcome::input(e.field, e.message, e.pos),
    };
    let mut case = match RenderCase::from_json(&case) {
        Ok(c) => c,
        Err(e) => {
            let field = if e.starts_with("model.messages") {
                Field::ModelMessages
            } else {
                Field::Request
            };
            return Outcome::input(field, e, None);
        }
    };
    if let Some(g) = gguf {
        g.apply(&mut case);
    }
    if case.embed.is_some() {
        return run_embed(&case, gguf);
    }
    let route = case.route.as_ref().map(route_view);
    let counter = gguf.filter(|g| g.has_vocab());
    match case.render(counter.map(|g| g as &dyn TokenCounter)) {
        Ok(r) => {
            let seen = counter
                .zip(r.prompt.as_deref())
                .map(|(g, p)| g.seen(&case, &r, p));
            let token_count = seen.as_ref().map(|f| {
                let images = if case.model.has_projector {
                    768 * r.image_count
                } else {
                    0
                };
                f.as_ref()
                    .map(|f| f.runner.evaluated() + images)
                    .map_err(Clone::clone)
            });
            let ok_seen = seen.as_ref().and_then(|s| s.as_ref().ok());
            let cache = counter
                .zip(ok_seen)
                .and_then(|(g, s)| ollama::cache::last_turn(&case, g, (&r, s)));
            // offsets are of the prompt as sent, a suffix of the rendered one
            let full = r.prompt.as_ref().map_or(0, String::len);
            let shift = full - ok_seen.map_or(full, |s| s.sent.len());
            let cut_bytes = counter
                .zip(ok_seen)
                .and_then(|(g, s)| cut_bytes(g, s))
                .map(|(a, b)| (a + shift, b + shift));
            let cache_break = cache
                .as_ref()
                .and_then(|c| c.as_ref().ok())
                .and_then(|t| Some(t.first_difference.as_ref()?.byte? + shift));
            let (answer_setup, answer_error) =
                match r.prompt.as_deref().map(|p| case.answer_setup(p)) {
                    Some(Ok(s)) => (Some(s.to_spec(&case.request)), None),
                    Some(Err(e)) => (None, Some(e)),
                    None => (None, None),
                };
            // the release's rows the runner's cut and the cache reuse
            // consulted join the render's in Explain
            let mut explain = r.explain;
            let runner_rules = ok_seen
                .filter(|s| s.runner.cut.is_some() || s.runner.error.is_some())
                .map(|s| s.runner.release_rules.clone())
                .unwrap_or_default();
            let cache_rules = match &cache {
                Some(Ok(t)) => t.release_rules.clone(),
                _ => Vec::new(),
            };
            for rule in runner_rules.into_iter().chain(cache_rules) {
                if !explain.release_rules.iter().any(|r| r.id == rule.id) {
                    explain.release_rules.push(rule);
                }
            }
            Outcome {
                answer_setup,
                answer_error,
                prompt: r.prompt,
                image_count: r.image_count,
                explain: Some(explain),
                token_count,
                runner: seen.and_then(Result::ok).map(|s| s.runner),
                cache,
                cut_bytes,
                cache_break,
                route,
                ..Outcome::default()
            }
        }
        Err(f) => {
            let position = errpos::go_template(&f.message).map(|pos| {
                let request_template = state.endpoint == Endpoint::Generate
                    && case
                        .request
                        .get("template")
                        .and_then(Value::as_str)
                        .is_some_and(|t| !t.is_empty());
                // The model template is parsed first (when loading): if
                // loading failed, the error is the model template's.
                let target = if request_template && !f.explain.source.is_empty() {
                    TemplateTarget::Request
                } else {
                    TemplateTarget::Model
                };
                (target, pos)
            });
            Outcome {
                error: Some(EngineError {
                    message: f.message,
                    status: f.status,
                    position,
                    body: f.body,
                }),
                explain: Some(*f.explain),
                route,
                ..Outcome::default()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::ModelState;

    const TODAY: &str = "2025-06-15";

    fn chat(template: &str, request: Value) -> State {
        State {
            endpoint: Endpoint::Chat,
            model: ModelState {
                has_template: true,
                template: template.into(),
                ..ModelState::default()
            },
            request: request.to_string(),
            ..State::default()
        }
    }

    #[test]
    fn renders_a_chat() {
        let s = chat(
            "{{ range .Messages }}<{{ .Role }}>{{ .Content }}{{ end }}",
            json!({"model": "demo", "messages": [{"role": "user", "content": "hi"}]}),
        );
        let out = run(&s, TODAY);
        assert_eq!(out.prompt.as_deref(), Some("<user>hi"));
        assert_eq!(out.source(), "go_template");
        assert_eq!(out.explain.unwrap().branch, "messages");
    }

    #[test]
    fn go_errors_carry_their_position() {
        let s = chat(
            "ok\n{{ .Foo ",
            json!({"model": "demo", "messages": [{"role": "user", "content": "hi"}]}),
        );
        let out = run(&s, TODAY);
        let err = out.error.unwrap();
        assert_eq!(err.message, "template: :2: unclosed action");
        assert_eq!(
            err.position,
            Some((TemplateTarget::Model, Pos { line: 2, col: None }))
        );
        let s = chat(
            "{{ range .Messages }}\n  {{ index .Images 3 }}{{ end }}",
            json!({"model": "demo", "messages": [{"role": "user", "content": "hi"}]}),
        );
        let err = run(&s, TODAY).error.unwrap();
        assert!(
            err.message.starts_with("template: :2:5: executing"),
            "{}",
            err.message
        );
        assert_eq!(
            err.position.unwrap().1,
            Pos {
                line: 2,
                col: Some(5)
            }
        );
    }

    #[test]
    fn rejects_tools_without_the_capability() {
        let s = chat(
            "{{ range .Messages }}{{ .Content }}{{ end }}",
            json!({"model": "plain", "messages": [{"role": "user", "content": "hi"}],
                   "tools": [{"type": "function", "function": {"name": "f", "parameters": {"type": "object", "properties": {}}}}]}),
        );
        let out = run(&s, TODAY);
        let err = out.error.unwrap();
        assert_eq!(
            err.message,
            "registry.ollama.ai/library/plain:latest does not support tools"
        );
        assert_eq!(err.status, 400);
        assert_eq!(out.explain.unwrap().source, "go_template");
    }

    #[test]
    fn no_messages_means_no_prompt() {
        let s = chat("{{ .Prompt }}", json!({"model": "m", "messages": []}));
        let out = run(&s, TODAY);
        assert!(out.no_prompt());
    }

    #[test]
    fn input_errors_name_the_editor() {
        let mut s = chat("x", json!({}));
        s.request = "{\n  \"model\": ,\n}".into();
        let e = run(&s, TODAY).input_error.unwrap();
        assert_eq!(e.field, Field::Request);
        assert_eq!(e.pos.unwrap().line, 2);
        s.request = "{\"model\": \"m\"}".into();
        s.model.messages = "[{\"role\": 1}]".into();
        let e = run(&s, TODAY).input_error.unwrap();
        assert_eq!(e.field, Field::ModelMessages);
        s.model.messages = String::new();
        s.model.date = "June".into();
        assert_eq!(run(&s, TODAY).input_error.unwrap().field, Field::Date);
    }

    #[test]
    fn request_template_errors_point_at_the_request() {
        let s = State {
            endpoint: Endpoint::Generate,
            model: ModelState {
                has_template: true,
                template: "{{ .Prompt }}".into(),
                ..ModelState::default()
            },
            request: json!({"model": "m", "prompt": "p", "template": "{{ .Prompt "}).to_string(),
            ..State::default()
        };
        let err = run(&s, TODAY).error.unwrap();
        assert_eq!(err.position.unwrap().0, TemplateTarget::Request);
    }

    #[test]
    fn native_mode_with_think_unset_renders() {
        let mut state = crate::examples::by_id("gguf-wins").unwrap().state();
        state.request =
            json!({"model": "m", "messages": [{"role": "user", "content": "hi"}]}).to_string();
        let out = run(&state, TODAY);
        assert_eq!(out.source(), "gguf_chat_template");
        assert!(out
            .prompt
            .unwrap()
            .contains("<|im_start|>user\nhi<|im_end|>"));
    }

    #[test]
    fn model_options_are_defaults_under_the_request() {
        let mut s = chat(
            "{{ range .Messages }}{{ .Content }}{{ end }}",
            json!({"model": "m", "messages": [{"role": "user", "content": "hi"}],
                   "options": {"stop": ["x"], "num_ctx": 64}}),
        );
        s.model.options =
            json!({"num_ctx": 8192, "stop": ["</s>"], "temperature": 0.5}).to_string();
        let case = render_case(&s, TODAY).unwrap();
        assert_eq!(
            case["request"]["options"],
            json!({"num_ctx": 64, "stop": ["x"], "temperature": 0.5})
        );
        s.request = json!({"model": "m"}).to_string();
        let case = render_case(&s, TODAY).unwrap();
        assert_eq!(
            case["request"]["options"],
            json!({"num_ctx": 8192, "stop": ["</s>"], "temperature": 0.5})
        );
        s.model.options = String::new();
        assert!(render_case(&s, TODAY).unwrap()["request"]
            .get("options")
            .is_none());
        s.model.options = "[1]".into();
        assert_eq!(
            render_case(&s, TODAY).unwrap_err().field,
            Field::ModelOptions
        );
        s.model.options = "{\n  \"num_ctx\": ,\n}".into();
        let e = run(&s, TODAY).input_error.unwrap();
        assert_eq!(e.field, Field::ModelOptions);
        assert_eq!(e.pos.unwrap().line, 2);
    }

    /// bert-bge's vocabulary with `bert.pooling_type = 1` added after the
    /// header: an embedding model to Ollama.
    fn bge_embedding_model() -> Gguf {
        let bytes = std::fs::read(testkit::llama_cpp("models/ggml-vocab-bert-bge.gguf")).unwrap();
        let kv_count = u64::from_le_bytes(bytes[16..24].try_into().unwrap());
        let mut out = bytes[..16].to_vec();
        out.extend((kv_count + 1).to_le_bytes());
        let key = b"bert.pooling_type";
        out.extend((key.len() as u64).to_le_bytes());
        out.extend(key);
        out.extend(4u32.to_le_bytes());
        out.extend(1u32.to_le_bytes());
        out.extend(&bytes[24..]);
        Gguf::from_bytes("bert-bge-embed.gguf", &out).unwrap()
    }

    #[test]
    fn an_embedding_request_shows_each_input_as_the_model_gets_it() {
        let words: Vec<String> = (0..40).map(|i| format!("word{i}")).collect();
        let mut s = State {
            endpoint: Endpoint::Embed,
            request: json!({"model": "bge", "input": ["hello world", words.join(" ")],
                "options": {"num_ctx": 16}})
            .to_string(),
            ..State::default()
        };
        // no GGUF: the inputs, no tokens
        let o = run(&s, TODAY);
        let e = o.embed.as_ref().unwrap();
        assert_eq!(e.inputs.len(), 2);
        assert_eq!(e.inputs[1].count, None);
        assert!(o.prompt.is_none() && !o.no_prompt() && o.error.is_none());
        // with bert-bge: [CLS] ... [SEP], the long input cut to 16 - 2 tokens
        let g = bge_embedding_model();
        let o = run_with(&s, TODAY, Some(&g));
        let e = o.embed.unwrap();
        assert_eq!(e.inputs[0].tokens, Some(vec![101, 7592, 2088, 102]));
        assert!(e.inputs[1].truncated);
        assert_eq!(
            e.inputs[1].sent.as_deref(),
            Some(" word0 word1 word2 word3 word4 word5 word6")
        );
        assert_eq!(o.token_count, Some(Ok(20)));
        assert_eq!(e.output_length(), Some(384));
        // truncate false: Ollama's refusal
        s.request = json!({"model": "bge", "input": words.join(" "), "truncate": false,
            "options": {"num_ctx": 16}})
        .to_string();
        let err = run_with(&s, TODAY, Some(&g)).error.unwrap();
        assert_eq!(
            (err.status, err.message.as_str()),
            (400, "the input length exceeds the context length")
        );
        // /v1/embeddings: the model's PARAMETERs still count, its error in OpenAI's shape
        s.endpoint = Endpoint::OpenAiEmbeddings;
        s.model.options = json!({"num_ctx": 8}).to_string();
        s.request = json!({"model": "bge", "input": words.join(" ")}).to_string();
        let e = run_with(&s, TODAY, Some(&g)).embed.unwrap();
        assert_eq!(e.runner.unwrap().num_ctx, 8);
        assert_eq!(e.inputs[0].count, Some(8));
        s.request = json!({"model": "bge", "input": []}).to_string();
        let err = run_with(&s, TODAY, Some(&g)).error.unwrap();
        assert_eq!(err.body.as_deref(), Some("{\"error\":{\"message\":\"invalid input\",\"type\":\"invalid_request_error\",\"param\":null,\"code\":null}}"));
    }

    #[test]
    fn model_options_reach_truncation() {
        let g = crate::gguf::corpus_llama3();
        let mut s = crate::examples::by_id("llama3").unwrap().state();
        let words: Vec<String> = (0..300).map(|i| format!("w{i}")).collect();
        s.request = json!({"model": "m",
            "messages": [{"role": "user", "content": words.join(" ")}]})
        .to_string();
        s.model.options = json!({"num_ctx": 64}).to_string();
        let f = run_with(&s, TODAY, Some(&g)).runner.unwrap();
        assert_eq!(f.num_ctx, 64);
        assert!(f.cut.is_some());
        // the request's num_ctx wins
        s.request = json!({"model": "m", "options": {"num_ctx": 4096},
            "messages": [{"role": "user", "content": words.join(" ")}]})
        .to_string();
        let f = run_with(&s, TODAY, Some(&g)).runner.unwrap();
        assert_eq!((f.num_ctx, f.cut), (4096, None));
    }

    fn route(endpoint: Endpoint, request: Value) -> State {
        State {
            endpoint,
            ..chat(
                "{{ range .Messages }}<{{ .Role }}>{{ .Content }}{{ end }}",
                request,
            )
        }
    }

    #[test]
    fn a_route_converts_then_renders() {
        let mut s = route(
            Endpoint::OpenAiChat,
            json!({"model": "m", "max_tokens": 7, "n": 2,
                   "messages": [{"role": "developer", "content": "be brief"}, {"role": "user", "content": [{"type": "text", "text": "hi"}]}]}),
        );
        s.model.options = json!({"num_ctx": 2048, "temperature": 0.3}).to_string();
        let case = render_case(&s, TODAY).unwrap();
        assert_eq!(case["endpoint"], "openai-chat");
        assert!(case["request"].get("options").is_none());
        assert_eq!(
            case["model"]["parameters"],
            json!({"num_ctx": 2048, "temperature": 0.3})
        );
        let out = run(&s, TODAY);
        assert_eq!(out.prompt.as_deref(), Some("<developer>be brief<user>hi"));
        let r = out.route.unwrap();
        assert_eq!(
            (r.path.as_str(), r.native_path.as_str()),
            ("/v1/chat/completions", "/api/chat")
        );
        let api: Value = serde_json::from_str(r.api_request.as_deref().unwrap()).unwrap();
        // the route's own defaults, not yet the model's PARAMETERs
        assert_eq!(
            api["options"],
            json!({"num_predict": 7, "temperature": 1, "top_p": 1})
        );
        let fate = |name: &str| r.fields.iter().find(|f| f.field == name).map(|f| f.fate);
        use ollama::compat::notes::Fate;
        assert_eq!(fate("max_tokens"), Some(Fate::Mapped));
        assert_eq!(fate("n"), Some(Fate::Dropped));
        assert_eq!(fate("temperature"), Some(Fate::Defaulted));

        let s = route(
            Endpoint::OpenAiCompletions,
            json!({"model": "m", "prompt": "def f():", "max_tokens": 5}),
        );
        let out = run(&s, TODAY);
        assert_eq!(out.route.unwrap().native_path, "/api/generate");
        assert!(out.error.is_none(), "{:?}", out.error);
    }

    #[test]
    fn a_refusal_is_the_routes_own_body() {
        // the middleware refuses: nothing converted
        let s = route(
            Endpoint::AnthropicMessages,
            json!({"model": "m", "max_tokens": 5, "messages": []}),
        );
        let out = run(&s, TODAY);
        let e = out.error.unwrap();
        assert_eq!(
            (e.status, e.message.as_str()),
            (400, "messages is required")
        );
        let body: Value = serde_json::from_str(e.body.as_deref().unwrap()).unwrap();
        assert_eq!(body["type"], "error");
        assert_eq!(
            body["error"],
            json!({"type": "invalid_request_error", "message": "messages is required"})
        );
        let r = out.route.unwrap();
        assert_eq!(r.api_request, None);
        assert!(!r.fields.is_empty());
        // the handler behind it refuses: in the route's shape too
        let mut s = route(
            Endpoint::OpenAiChat,
            json!({"model": "m", "messages": [{"role": "user", "content": "hi"}],
                   "tools": [{"type": "function", "function": {"name": "f", "parameters": {"type": "object", "properties": {}}}}]}),
        );
        s.model.template = "{{ range .Messages }}{{ .Content }}{{ end }}".into();
        let e = run(&s, TODAY).error.unwrap();
        assert!(
            e.message.ends_with("does not support tools"),
            "{}",
            e.message
        );
        let body: Value = serde_json::from_str(e.body.as_deref().unwrap()).unwrap();
        assert_eq!(body["error"]["message"], e.message.as_str());
        assert_eq!(body["error"]["type"], "invalid_request_error");
        // native endpoints have no such body
        let s = chat(
            "{{ .Foo ",
            json!({"model": "m", "messages": [{"role": "user", "content": "hi"}]}),
        );
        assert_eq!(run(&s, TODAY).error.unwrap().body, None);
    }

    #[test]
    fn dates_reach_the_template() {
        let s = chat(
            "{{ currentDate }} {{ range .Messages }}{{ .Content }}{{ end }}",
            json!({"model": "m", "messages": [{"role": "user", "content": "hi"}]}),
        );
        assert_eq!(run(&s, TODAY).prompt.as_deref(), Some("2025-06-15 hi"));
    }

    #[test]
    fn a_gguf_counts_tokens_and_previews_truncation() {
        let g = crate::gguf::corpus_llama3();
        let mut s = crate::examples::by_id("llama3").unwrap().state();
        let out = run_with(&s, TODAY, Some(&g));
        let prompt = out.prompt.clone().unwrap();
        let n = out.token_count.clone().unwrap().unwrap();
        assert_eq!(
            n,
            ollama::cache::PromptTokens::prompt_tokens(&g, &prompt)
                .unwrap()
                .len()
        );
        let ex = out.explain.unwrap();
        assert_eq!(ex.message_tokens.len(), ex.messages.len());
        assert!(run(&s, TODAY).token_count.is_none());

        let mut body: Value = serde_json::from_str(&s.request).unwrap();
        body["options"] = json!({"num_ctx": 8});
        s.request = body.to_string();
        let t = run_with(&s, TODAY, Some(&g))
            .explain
            .unwrap()
            .truncation
            .unwrap();
        assert_eq!(t.num_ctx, 8);
        assert!(t.first_kept > 0);
    }

    #[test]
    fn the_cut_is_marked_and_the_cache_view_follows_the_last_turn() {
        let g = crate::gguf::corpus_llama3();
        let mut s = crate::examples::by_id("llama3").unwrap().state();
        let words: Vec<String> = (0..300).map(|i| format!("w{i}")).collect();
        s.request = json!({"model": "m", "options": {"num_ctx": 64},
            "messages": [{"role": "user", "content": words.join(" ")}]})
        .to_string();
        let out = run_with(&s, TODAY, Some(&g));
        let (a, b) = out.cut_bytes.unwrap();
        let prompt = out.prompt.unwrap();
        // the dropped bytes are inside the long message
        assert!(
            a < b && words.join(" ").contains(prompt[a..b].trim()),
            "{a}..{b}"
        );
        assert!(out.cache.is_none());

        s.request = json!({"model": "m", "messages": [
            {"role": "user", "content": "Hi"},
            {"role": "assistant", "content": "Hello! How can I help?"},
            {"role": "user", "content": "Tell me a joke"}]})
        .to_string();
        let out = run_with(&s, TODAY, Some(&g));
        let t = out.cache.unwrap().unwrap();
        assert_eq!(t.reply, 1);
        assert!(t.reuse.cache_n > t.previous_tokens, "{t:?}");
        assert_eq!(
            t.reuse.prompt_eval_count(),
            out.token_count.unwrap().unwrap()
        );
        assert!(cache_summary(&t).starts_with(&format!(
            "{} of {} tokens reused from the previous turn (reply: message 1), {} evaluated",
            t.reuse.cache_n, t.reuse.tokens, t.reuse.prompt_n
        )));
        assert!(out.cut_bytes.is_none());
    }

    #[test]
    fn a_windowed_model_shows_the_checkpoint_the_cache_goes_back_to() {
        // Gemma 3 270M: sliding window 512, read from the GGUF
        let path = testkit::model_cache().join("gemma-3-270m-q4_k_m.gguf");
        let bytes = std::fs::read(&path).unwrap_or_else(|e| {
            panic!(
                "{}: {e}: run `bash scripts/fetch-models.sh`",
                path.display()
            )
        });
        let g = crate::gguf::Gguf::from_bytes("gemma-3-270m-q4_k_m.gguf", &bytes).unwrap();
        assert_eq!(g.facts().sliding_window, Some(512));
        let s = chat(
            "{{ range .Messages }}<{{ .Role }}>{{ .Content }}\n{{ end }}<assistant>",
            json!({"model": "m", "messages": [
                {"role": "user", "content": "Hi"},
                {"role": "assistant", "content": "Hello! How can I help?"},
                {"role": "user", "content": "Tell me a joke"}]}),
        );
        let out = run_with(&s, TODAY, Some(&g));
        let t = out.cache.unwrap().unwrap();
        let c = t
            .checkpoints
            .as_ref()
            .expect("a windowed model's turn has checkpoints");
        // the whole conversation within the window: back to the checkpoint
        // made 4 tokens before the previous prompt's end
        let restored = c.restored.as_ref().unwrap();
        assert_eq!(restored.n_tokens, t.previous_tokens - 4);
        assert_eq!(t.reuse.cache_n, t.previous_tokens - 5);
        let line = cache_summary(&t);
        assert!(
            line.contains("Checkpoints: the memory (sliding-window attention (n_swa 512))"),
            "{line}"
        );
        assert!(t
            .release_rules
            .iter()
            .any(|r| r.id == "checkpoint_evict_spaced"));
    }

    #[test]
    fn a_gguf_shows_the_runners_cut_of_a_prompt_still_too_long() {
        let g = crate::gguf::corpus_llama3();
        let mut s = crate::examples::by_id("llama3").unwrap().state();
        let out = run_with(&s, TODAY, Some(&g));
        let f = out.runner.unwrap();
        assert_eq!((f.num_ctx, f.num_keep, f.cut), (4096, 4, None));
        assert_eq!(out.token_count.unwrap().unwrap(), f.tokens);

        // One long message cannot be dropped: the runner keeps num_keep
        // tokens and the BOS Llama 3 adds, then the tail.
        let words: Vec<String> = (0..300).map(|i| format!("w{i}")).collect();
        s.request = json!({"model": "m", "options": {"num_ctx": 64},
            "messages": [{"role": "user", "content": words.join(" ")}]})
        .to_string();
        let out = run_with(&s, TODAY, Some(&g));
        let f = out.runner.unwrap();
        let cut = f.cut.unwrap();
        assert_eq!(cut.keep, 5);
        // 64 - (64 - 5) / 2 = 35 tokens evaluated: prompt_eval_count.
        assert_eq!(cut.limit, 35);
        assert_eq!(cut.keep + cut.discarded + (cut.limit - cut.keep), f.tokens);
        assert_eq!(out.token_count.unwrap().unwrap(), 35);
        assert_eq!(
            runner_summary(&f),
            format!(
                "num_ctx 64, num_keep 4, context shift on: tokens 0–5 and {}–{} kept, 5–{} dropped ({} tokens); 35 evaluated",
                f.tokens - 30,
                f.tokens,
                f.tokens - 30,
                f.tokens - 35
            )
        );
        let ex = out.explain.unwrap();
        assert_eq!(ex.truncation.unwrap().first_kept, 0);

        // Context shift off: Ollama's error, and the whole count.
        s.request = json!({"model": "m", "options": {"num_ctx": 64}, "shift": false,
            "messages": [{"role": "user", "content": words.join(" ")}]})
        .to_string();
        let out = run_with(&s, TODAY, Some(&g));
        let f = out.runner.unwrap();
        assert_eq!(f.error.as_deref(), Some(ollama::runner::PROMPT_TOO_LONG));
        assert!(runner_summary(&f).starts_with("num_ctx 64, num_keep 4, context shift off: "));
        assert_eq!(out.token_count.unwrap().unwrap(), f.tokens);

        // Older releases: v0.30.10 cuts to num_ctx - 1, keeping num_keep
        // without the BOS; v0.30.9-rc1 refuses even with context shift on;
        // Explain names the rows that decided.
        let long = json!({"model": "m", "options": {"num_ctx": 64},
            "messages": [{"role": "user", "content": words.join(" ")}]})
        .to_string();
        s.request = long.clone();
        s.ollama = "0.30.10".into();
        let out = run_with(&s, TODAY, Some(&g));
        let cut = out.runner.unwrap().cut.unwrap();
        assert_eq!((cut.keep, cut.limit), (4, 63));
        assert_eq!(out.token_count.unwrap().unwrap(), 63);
        let rules = out.explain.unwrap().release_rules;
        let row = rules
            .iter()
            .find(|r| r.id == "context_shift_generation_headroom")
            .unwrap();
        assert!(!row.in_effect);
        s.ollama = "0.30.9-rc1".into();
        let out = run_with(&s, TODAY, Some(&g));
        let f = out.runner.unwrap();
        assert!(f.context_shift);
        assert_eq!(
            f.error.as_deref(),
            Some(ollama::runner::PROMPT_TOO_LONG_0_30_9_RC1)
        );
        assert!(out
            .explain
            .unwrap()
            .release_rules
            .iter()
            .any(|r| r.id == "context_shift_truncation" && !r.in_effect));
    }
}
