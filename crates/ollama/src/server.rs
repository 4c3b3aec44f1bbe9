//! The handlers' path from a request to a prompt (server/routes.go,
//! server/prompt.go): capability checks, the think default, Modelfile
//! messages and SYSTEM, think-tag stripping, harmony, truncation to
//! `num_ctx`, image tags and the final render, with an explanation of
//! every step.

use serde_json::Value as Json;

use crate::api::{self, ChatRequest, GenerateRequest, Message, Think};
use crate::date::Date;
use crate::model::{Capability, GoTemplateEnv, Loaded, Model, Name, Source};
use crate::template::{Branch, Template, Values};
use crate::{parsers, renderers};

/// Counts tokens as the runner would for truncation (`/tokenize` with
/// `add_special=false`, `parse_special=true`).
pub trait TokenCounter {
    /// Number of tokens in `text`.
    fn count(&self, text: &str) -> Result<usize, String>;
}

/// Ollama's `tokenizerAddsBOS()` (spec §6.2), from the GGUF's
/// `tokenizer.ggml.pre`, `tokenizer.ggml.model` and `add_bos_token`.
pub fn tokenizer_adds_bos(pre: &str, model: &str, add_bos_token: Option<bool>) -> bool {
    pre == "lfm2" || pre == "gemma4" || model == "gemma4" || add_bos_token == Some(true)
}

/// The prompt as `completionPrompt` sends it to llama-server: when Ollama's
/// tokenizer adds BOS, a renderer's leading BOS string (or else a literal
/// `<bos>`) is removed; nothing else is.
pub fn completion_prompt<'a>(
    prompt: &'a str,
    leading_bos: Option<&str>,
    adds_bos: bool,
) -> &'a str {
    if adds_bos {
        if let Some(rest) = leading_bos.and_then(|b| prompt.strip_prefix(b)) {
            return rest;
        }
        if let Some(rest) = prompt.strip_prefix("<bos>") {
            return rest;
        }
    }
    prompt
}

/// Which endpoint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Endpoint {
    /// `/api/chat`
    Chat,
    /// `/api/generate`
    Generate,
}

/// Everything besides the model and the request.
pub struct Settings<'a> {
    /// The server's date for `currentDate` / `yesterdayDate`.
    pub date: Date,
    /// `OLLAMA_GO_TEMPLATE`.
    pub go_template_env: GoTemplateEnv,
    /// Token counter for `num_ctx` truncation; `None` skips truncation.
    pub tokenizer: Option<&'a dyn TokenCounter>,
    /// Context length when the request sets no `num_ctx` option.
    pub default_num_ctx: usize,
    /// The Anthropic route's `relax_thinking`: a model that cannot think
    /// drops `think: true` instead of refusing the request.
    pub relax_thinking: bool,
    /// The Ollama release: its own rows of `changes::ollama::TABLE`, and
    /// the llama.cpp build its llama-server is (native mode).
    pub release: changes::Release,
    /// Count each message's tokens for the explanation
    /// (`Explain::message_tokens`: one render per message); off where only
    /// the prompt is wanted (the cache view's replay of earlier turns).
    pub message_costs: bool,
}

/// The llama.cpp build the newest supported Ollama release compiles
/// (`LLAMA_CPP_VERSION`).
pub const OLLAMA_LLAMA_CPP: changes::Build = changes::Release::NEWEST.llama_cpp;

impl Default for Settings<'_> {
    fn default() -> Self {
        Settings {
            date: Date::today_utc(),
            go_template_env: GoTemplateEnv::Unset,
            tokenizer: None,
            default_num_ctx: 4096,
            relax_thinking: false,
            release: changes::Release::NEWEST,
            message_costs: true,
        }
    }
}

/// What happened to one message on its way into the prompt.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct MessageNote {
    /// Index in the full message list (Modelfile SYSTEM and MESSAGEs first).
    pub index: usize,
    /// Role.
    pub role: String,
    /// Where it came from: `request`, `modelfile SYSTEM`, `modelfile MESSAGE`, `generate`.
    pub origin: String,
    /// Notes: merged, stripped, image-tagged, dropped, truncated.
    pub notes: Vec<String>,
}

/// The explanation record for the UI (serializable, for the app's worker).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Explain {
    /// Selected path (`selectedTemplateSource` label).
    pub source: String,
    /// The rule that decided it.
    pub source_rule: String,
    /// Execution branch of the Go template (`messages`, `legacy`, `insert`),
    /// or `renderer` / `raw` / `native`.
    pub branch: String,
    /// `Vars()` of the template in use.
    pub vars: Vec<String>,
    /// Whether `Parse` appended `{{ .Response }}`.
    pub response_appended: bool,
    /// Capabilities and what turned each on.
    pub capabilities: Vec<Capability>,
    /// Capabilities the request needs.
    pub requested: Vec<String>,
    /// The think value used (`None` = unset) and whether it was defaulted.
    pub think: Option<String>,
    /// Why think has its value.
    pub think_rule: String,
    /// Per-message notes.
    pub messages: Vec<MessageNote>,
    /// Tool renames done by the harmony parser (`from`, `to`).
    pub tool_renames: Vec<(String, String)>,
    /// Truncation: `num_ctx`, index of the first kept message, and token counts tried.
    pub truncation: Option<Truncation>,
    /// Legacy branch: indexes (into the rendered message list) of user turns
    /// whose text never reaches the prompt.
    pub legacy_dropped: Vec<usize>,
    /// With a tokenizer: each message's token cost, in `messages` order.
    /// The cost of message `i` is the tokens of the conversation rendered
    /// from `i` on minus those from `i + 1` on, so the costs add up to the
    /// whole conversation's count (image tags and images excluded). A cost
    /// can be negative: a template may add a default (a system prompt) when
    /// a message is missing.
    pub message_tokens: Vec<i64>,
    /// Fully qualified model name.
    pub model_name: String,
    /// Leading BOS string of the renderer, if any.
    pub leading_bos: Option<String>,
    /// The tags Ollama's generic thinking parser splits the answer at
    /// (`thinking.InferTags` of the model's TEMPLATE), when it would: think
    /// on, no built-in PARSER, both tags found.
    pub thinking_tags: Option<(String, String)>,
    /// Native mode: the llama.cpp build that rendered the prompt (`b10488`).
    pub llamacpp: Option<String>,
    /// Native mode: the rows of llama.cpp's change table the render
    /// consulted, where that build's behaviour differs from another's.
    pub build_rules: Vec<BuildRule>,
    /// The rows of Ollama's own change table (`changes::ollama::TABLE`)
    /// the request reached: where the release decided what happened.
    pub release_rules: Vec<BuildRule>,
    /// A chat with a `format`: when the handler applies it (from the
    /// first token, or once the thinking ends); empty without one.
    #[serde(default)]
    pub format_rule: String,
    /// Native chat: the message delimiters (role, text) llama-server's
    /// chat handler declares, where it checkpoints a model's memory.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub message_delimiters: Vec<(String, String)>,
    /// The rows of llama.cpp's table that decided the delimiters (listed
    /// by the cache view, where they matter; they do not change the
    /// prompt).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub delimiter_rules: Vec<BuildRule>,
}

/// A version-specific rule that applied to a render: a row of
/// `changes::llamacpp::TABLE` or `changes::ollama::TABLE`.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct BuildRule {
    /// The row's name (`preserve_reasoning_default`).
    pub id: String,
    /// Whether the build in use has the newer behaviour.
    pub in_effect: bool,
    /// The first version with the newer behaviour (llama.cpp's `b11312`,
    /// Ollama's `0.32.15-rc2`).
    pub first: String,
    /// The upstream change.
    pub upstream: String,
    /// What this build does, in a line.
    pub behaviour: String,
}

impl BuildRule {
    /// The row as it applies under `rules`.
    pub fn of(change: &changes::Change, rules: &changes::Rules) -> BuildRule {
        let in_effect = rules.has(change);
        BuildRule {
            id: change.id.to_string(),
            in_effect,
            first: change.first_version(),
            upstream: change.upstream.to_string(),
            behaviour: if in_effect { change.new } else { change.old }.to_string(),
        }
    }
}

/// Adds the rows `rules` consulted to the explanation's release rules,
/// each once.
fn note_rules(ex: &mut Explain, rules: &changes::Rules) {
    for c in rules.applied() {
        if !ex.release_rules.iter().any(|r| r.id == c.id) {
            ex.release_rules.push(BuildRule::of(c, rules));
        }
    }
}

/// What `num_ctx` truncation did.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Truncation {
    /// Context length used.
    pub num_ctx: usize,
    /// Index of the first message kept (earlier system messages are kept too).
    pub first_kept: usize,
    /// Tokens counted for each start index tried.
    pub counts: Vec<(usize, usize)>,
}

/// A successful render.
#[derive(Clone, Debug)]
pub struct Rendered {
    /// The prompt; `None` when Ollama answers `done_reason: "load"` without
    /// rendering (empty messages or prompt).
    pub prompt: Option<String>,
    /// Images handed to the runner.
    pub image_count: usize,
    /// How the prompt came about.
    pub explain: Explain,
}

/// A rejected request or failed render, with Ollama's exact error text.
#[derive(Clone, Debug)]
pub struct Failure {
    /// The text Ollama puts in `{"error": ...}`.
    pub message: String,
    /// HTTP status Ollama answers with.
    pub status: u16,
    /// What had been decided before the failure.
    pub explain: Box<Explain>,
    /// For a request through a compatibility route: the exact body the
    /// route answers with (its own error shape).
    pub body: Option<String>,
}

type R<T> = Result<T, Failure>;

fn fail(status: u16, message: impl Into<String>, explain: &Explain) -> Failure {
    Failure {
        message: message.into(),
        status,
        explain: Box::new(explain.clone()),
        body: None,
    }
}

/// Renders a request to the prompt Ollama would hand the runner.
pub fn render(
    endpoint: Endpoint,
    model: &Model,
    request: &Json,
    settings: &Settings,
) -> R<Rendered> {
    let mut ex = Explain {
        model_name: Name::parse(&model.name).to_string(),
        ..Explain::default()
    };
    match endpoint {
        Endpoint::Chat => {
            let req = ChatRequest::decode(request).map_err(|e| fail(400, e.0, &ex))?;
            chat(model, req, settings, &mut ex)
        }
        Endpoint::Generate => {
            let req = GenerateRequest::decode_in(request, settings.release)
                .map_err(|e| fail(400, e.0, &ex))?;
            let unload = req.prompt.is_empty() && keep_alive_zero(request);
            generate(model, req, unload, settings, &mut ex)
        }
    }
}

fn load(model: &Model, settings: &Settings, ex: &mut Explain) -> R<Loaded> {
    let loaded = Loaded::load_in(
        model,
        settings.go_template_env.clone(),
        settings.date,
        settings.release,
    )
    .map_err(|e| fail(500, e, ex))?;
    note_rules(ex, &loaded.selection_rules());
    ex.source = loaded.source().label().to_string();
    ex.source_rule = loaded.selection_rule.clone();
    ex.vars = loaded.template.vars().to_vec();
    ex.response_appended = loaded.template.response_appended();
    ex.capabilities =
        loaded.capabilities(|name| parsers::parser_capabilities_in(name, settings.release));
    Ok(loaded)
}

/// The context length the first truncation stage uses: the request's
/// `num_ctx` (else the default), capped at the runner's
/// (`optionsForPrompt`), which is at most the model's training context
/// (llm/server.go `NewLlamaServer`).
fn num_ctx(
    options: &Option<serde_json::Map<String, Json>>,
    settings: &Settings,
    model: &Model,
) -> usize {
    let n = options
        .as_ref()
        .and_then(|o| o.get("num_ctx"))
        .and_then(|v| v.as_f64())
        .filter(|v| *v > 0.0)
        .map(|v| v as usize)
        .unwrap_or(settings.default_num_ctx);
    match model.gguf.as_ref().and_then(|g| g.context_length) {
        Some(train) if train > 0 => n.min(train as usize),
        _ => n,
    }
}

/// The think default and the "does not support thinking" rejection.
fn think_default(
    model_req: &str,
    caps: &[Capability],
    think: &mut Option<Think>,
    requested: &mut Vec<String>,
    relax: bool,
    ex: &mut Explain,
) -> R<()> {
    if caps.iter().any(|c| c.name == "thinking") {
        requested.push("thinking".into());
        if think.is_none() {
            *think = Some(Think::Bool(true));
            ex.think_rule =
                "the model can think and the request leaves think unset: think defaults to true"
                    .into();
        } else {
            ex.think_rule = "set by the request".into();
        }
    } else if think.as_ref().is_some_and(Think::as_bool) && relax {
        // routes.go: "model does not support thinking, relaxing thinking to nil"
        *think = None;
        ex.think_rule = "the model cannot think and the Anthropic route relaxes think to unset (relax_thinking)".into();
    } else if think.as_ref().is_some_and(Think::as_bool) {
        return Err(fail(
            400,
            format!(
                "{} does not support thinking",
                gotmpl::strconv::quote(model_req)
            ),
            ex,
        ));
    } else {
        ex.think_rule = if think.is_some() {
            "set by the request".into()
        } else {
            "the request does not set it and the model cannot think, so the template is told nothing about thinking".into()
        };
    }
    Ok(())
}

/// The capabilities `CheckCapabilities` knows (its `capToErr` map), each
/// with the word its error uses.
const CAPABILITY_WORDS: [(&str, &str); 8] = [
    ("completion", "completion"),
    ("tools", "tools"),
    ("insert", "insert"),
    ("vision", "vision"),
    ("audio", "audio"),
    ("embedding", "embedding"),
    ("thinking", "thinking"),
    ("image", "image generation"),
];

/// `Model.CheckCapabilities(want...)` (server/images.go): `None` when the
/// model has every capability wanted, else its error text: `unknown
/// capability: X` at the first name it does not know, or `does not
/// support` and the missing ones' words joined by newlines
/// (`errors.Join`), with the advice to pull again when thinking is missing
/// from a qwen3-family model or a `deepseek-r1`.
pub fn capability_error(loaded: &Loaded, caps: &[Capability], want: &[String]) -> Option<String> {
    let mut missing = Vec::new();
    for w in want {
        let Some((_, word)) = CAPABILITY_WORDS.iter().find(|(name, _)| name == w) else {
            return Some(format!("unknown capability: {w}"));
        };
        if !caps.iter().any(|c| &c.name == w) {
            missing.push(*word);
        }
    }
    if missing.is_empty() {
        return None;
    }
    let mut msg = format!("does not support {}", missing.join("\n"));
    if missing.contains(&"thinking")
        && (loaded.model.family == "qwen3" || Name::parse(&loaded.full_name).model == "deepseek-r1")
    {
        msg.push_str(". Pull the model again to get the latest version with full thinking support");
    }
    Some(msg)
}

/// `CheckCapabilities`, worded as the scheduler reports it.
fn check_capabilities(
    loaded: &Loaded,
    caps: &[Capability],
    want: &[String],
    ex: &Explain,
) -> R<()> {
    let missing: Vec<&str> = want
        .iter()
        .filter(|w| !caps.iter().any(|c| &c.name == *w))
        .map(|s| s.as_str())
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    if missing.contains(&"completion") {
        return Err(fail(400, "completion", ex));
    }
    match capability_error(loaded, caps, want) {
        Some(e) => Err(fail(400, format!("{} {e}", loaded.full_name), ex)),
        None => Ok(()),
    }
}

/// The handlers' capability step: requested capabilities (completion plus
/// `extra`), the think default or rejection, then `CheckCapabilities`.
fn check_request(
    loaded: &Loaded,
    model_req: &str,
    endpoint: &str,
    extra: Option<&str>,
    think: &mut Option<Think>,
    relax: bool,
    ex: &mut Explain,
) -> R<()> {
    let caps = ex.capabilities.clone();
    let mut requested = vec!["completion".to_string()];
    requested.extend(extra.map(str::to_string));
    think_default(model_req, &caps, think, &mut requested, relax, ex)?;
    ex.requested = requested.clone();
    ex.think = think_string(think);
    check_capabilities(loaded, &caps, &requested, ex).map_err(|mut f| {
        if f.message == "completion" {
            f.message = format!(
                "{} does not support {endpoint}",
                gotmpl::strconv::quote(model_req)
            );
        }
        f
    })
}

/// Ollama's answer when there is nothing to render: the model is loaded
/// (`done_reason: "load"`).
fn loaded_only(ex: &mut Explain) -> Rendered {
    ex.branch = "load".into();
    Rendered {
        prompt: None,
        image_count: 0,
        explain: ex.clone(),
    }
}

fn think_string(t: &Option<Think>) -> Option<String> {
    t.as_ref().map(|t| match t {
        Think::Bool(b) => b.to_string(),
        Think::Level(s) => format!("{s:?}"),
    })
}

/// The generic thinking parser's tags, when the handler would use it: no
/// built-in parser (`ParserForName` knows the name), think on, and both
/// tags inferred from the model's template.
fn generic_thinking(
    loaded: &Loaded,
    think: Option<&Think>,
    builtin: bool,
) -> Option<(String, String)> {
    if builtin || !think.is_some_and(Think::as_bool) {
        return None;
    }
    let (open, close) = loaded.template.infer_tags();
    (!open.is_empty() && !close.is_empty()).then_some((open, close))
}

/// `filterThinkTags` (qwen3 family and deepseek-r1).
fn filter_think_tags(msgs: &mut [Message], loaded: &Loaded, notes: &mut [MessageNote]) {
    if loaded.model.family != "qwen3" && Name::parse(&loaded.full_name).model != "deepseek-r1" {
        return;
    }
    let Some(last_user) = msgs.iter().rposition(|m| m.role == "user") else {
        return;
    };
    for (i, m) in msgs.iter_mut().enumerate() {
        if m.role == "assistant" && i < last_user {
            let stripped = strip_thinking(&m.content);
            if stripped != m.content {
                notes[i]
                    .notes
                    .push("<think>…</think> stripped from this earlier assistant turn".into());
            }
            m.content = stripped;
        }
    }
}

/// One `thinking.Parser{<think>, </think>}.AddContent(content)`: the
/// non-thinking output.
pub fn strip_thinking(content: &str) -> String {
    const OPEN: &str = "<think>";
    const CLOSE: &str = "</think>";
    let trim_left = |s: &str| s.trim_start_matches(gotmpl::unicode::is_space).to_string();
    let trimmed = trim_left(content);
    if let Some(rest) = trimmed.strip_prefix(OPEN) {
        let after = trim_left(rest);
        if after.is_empty() {
            return String::new();
        }
        match after.find(CLOSE) {
            Some(i) => trim_left(&after[i + CLOSE.len()..]),
            None => String::new(),
        }
    } else if OPEN.starts_with(trimmed.as_str()) {
        String::new()
    } else {
        content.to_string()
    }
}

/// `imageTaggedMessages(m, msgs, start, clearImages=false)`.
fn image_tagged(
    loaded: &Loaded,
    msgs: &[Message],
    start: usize,
    notes: &mut [MessageNote],
) -> R<(Vec<Message>, usize)> {
    let mut out = msgs.to_vec();
    let mut count = 0;
    for (offset, m) in out[start..].iter_mut().enumerate() {
        if loaded.model.families.iter().any(|f| f == "mllama") && m.images.len() > 1 {
            return Err(Failure {
                message: "this model only supports one image while more than one image requested"
                    .into(),
                status: 500,
                explain: Box::default(),
                body: None,
            });
        }
        let mut prefix = String::new();
        let mut prompt = m.content.clone();
        let mut tags = Vec::new();
        for _ in &m.images {
            let id = count;
            count += 1;
            if !loaded.model.renderer.is_empty() {
                continue;
            }
            let tag = format!("[img-{id}]");
            if prompt.contains("[img]") {
                prompt = prompt.replacen("[img]", &tag, 1);
            } else {
                prefix.push_str(&tag);
            }
            tags.push(tag);
        }
        if loaded.model.renderer.is_empty() {
            m.content = prefix + &prompt;
            if !tags.is_empty() {
                if let Some(n) = notes.get_mut(start + offset) {
                    n.notes.push(format!("image tags {}", tags.join(" ")));
                }
            }
        }
    }
    Ok((out, count))
}

struct Prepared<'a> {
    loaded: &'a Loaded,
    today: String,
    tools: Option<Vec<api::Tool>>,
    think: Option<Think>,
    /// The release's rules (the rows a renderer consults).
    rules: changes::Rules,
}

/// `renderPrompt`.
fn render_prompt(p: &Prepared, msgs: &[Message], ex: &mut Explain) -> Result<String, String> {
    let m = &p.loaded.model;
    if !m.renderer.is_empty() {
        let name =
            renderers::resolve_renderer_name_in(&m.renderer, &p.loaded.full_name, None, &p.rules);
        ex.branch = "renderer".into();
        let prompt = renderers::render_with_renderer_in(
            &name,
            msgs,
            p.tools.as_deref(),
            p.think.as_ref(),
            &p.today,
            &p.rules,
        );
        note_rules(ex, &p.rules);
        return prompt;
    }
    let values = Values {
        messages: msgs.to_vec(),
        tools: p.tools.clone(),
        prompt: String::new(),
        suffix: String::new(),
        think: p.think.as_ref().is_some_and(Think::as_bool),
        think_level: p.think.as_ref().map(Think::level).unwrap_or_default(),
        is_think_set: p.think.is_some(),
    };
    let out = p.loaded.template.execute(&values)?;
    ex.branch = out.branch.name().into();
    // Legacy branch: user turns lost to an empty assistant turn, as indexes
    // into `msgs` (the first message of each collated group).
    ex.legacy_dropped = out
        .dropped
        .iter()
        .filter_map(|&c| out.collated.get(c).map(|(_, from)| from[0]))
        .collect();
    Ok(out.prompt)
}

/// The system messages before `first`: truncation keeps them, in front.
fn kept_system(msgs: &[Message], first: usize) -> Vec<Message> {
    msgs[..first]
        .iter()
        .filter(|m| m.role == "system")
        .cloned()
        .collect()
}

/// Where `num_ctx` truncation cuts (the loop of server/prompt.go
/// `chatPrompt` and of server/routes.go `truncateNativeChatMessages`): the
/// first start `i` whose trial conversation (the system messages before
/// `i`, then `msgs[i..]`) counts at most `num_ctx` tokens, else the last
/// message. `count(i, trial)` gives a trial's tokens, images included as
/// the caller's path counts them. Returns the start and each count tried.
fn truncation_start(
    msgs: &[Message],
    num_ctx: usize,
    mut count: impl FnMut(usize, &[Message]) -> R<usize>,
) -> R<(usize, Vec<(usize, usize)>)> {
    let last = msgs.len().saturating_sub(1);
    let mut counts = Vec::new();
    for i in 0..=last {
        let mut trial = kept_system(msgs, i);
        trial.extend_from_slice(&msgs[i..]);
        let n = count(i, &trial)?;
        counts.push((i, n));
        if n <= num_ctx || i == last {
            return Ok((i, counts));
        }
    }
    Ok((0, counts))
}

/// The per-message notes of a cut at `first`.
fn note_truncation(notes: &mut [MessageNote], msgs: &[Message], first: usize, num_ctx: usize) {
    for (i, note) in notes.iter_mut().enumerate().take(first) {
        if msgs[i].role == "system" {
            note.notes.push(
                "kept by truncation (system messages before the cut move to the front)".into(),
            );
        } else {
            note.notes
                .push(format!("dropped by num_ctx truncation (num_ctx {num_ctx})"));
        }
    }
}

/// `chatPrompt`: truncation, image tags, the final render.
fn chat_prompt(
    p: &Prepared,
    msgs: &[Message],
    num_ctx: usize,
    settings: &Settings,
    notes: &mut [MessageNote],
    ex: &mut Explain,
) -> R<(String, usize)> {
    let mut first = 0;
    if let Some(tok) = settings.tokenizer {
        let (start, counts) = truncation_start(msgs, num_ctx, |i, trial| {
            let prompt =
                render_prompt(p, trial, &mut Explain::default()).map_err(|e| fail(500, e, ex))?;
            let mut n = tok.count(&prompt).map_err(|e| fail(500, e, ex))?;
            // chatPrompt counts the images of the messages from the cut on
            if p.loaded.model.has_projector {
                n += msgs[i..]
                    .iter()
                    .map(|m| 768 * m.images.len())
                    .sum::<usize>();
            }
            Ok(n)
        })?;
        first = start;
        note_truncation(notes, msgs, first, num_ctx);
        ex.truncation = Some(Truncation {
            num_ctx,
            first_kept: first,
            counts,
        });
    }
    let mut system = kept_system(msgs, first);
    if settings.tokenizer.is_some() {
        go_template_wrote_into_system(p, msgs, first, &mut system, notes);
    }
    if let Some(tok) = settings.tokenizer.filter(|_| settings.message_costs) {
        let mut suffix = vec![0i64; msgs.len() + 1];
        for i in (0..msgs.len()).rev() {
            let prompt = render_prompt(p, &msgs[i..], &mut Explain::default())
                .map_err(|e| fail(500, e, ex))?;
            suffix[i] = tok.count(&prompt).map_err(|e| fail(500, e, ex))? as i64;
        }
        ex.message_tokens = (0..msgs.len()).map(|i| suffix[i] - suffix[i + 1]).collect();
    }
    let (tagged, count) = image_tagged(p.loaded, msgs, first, notes).map_err(|mut f| {
        f.explain = Box::new(ex.clone());
        f
    })?;
    // Where each rendered message came from: kept system messages, then the rest.
    let origin: Vec<usize> = (0..first)
        .filter(|&i| msgs[i].role == "system")
        .chain(first..msgs.len())
        .collect();
    let mut final_msgs = system;
    final_msgs.extend_from_slice(&tagged[first..]);
    let prompt = render_prompt(p, &final_msgs, ex).map_err(|e| fail(500, e, ex))?;
    for &pos in &ex.legacy_dropped {
        if let Some(n) = origin.get(pos).and_then(|&i| notes.get_mut(i)) {
            n.notes.push(
                "dropped by the legacy template path: the assistant turn after it is empty, so the next user turn replaces it".into(),
            );
        }
    }
    Ok((prompt, count))
}

/// What the chosen truncation trial left in `chatPrompt`'s `system`
/// slice. The trial renders `append(system, msgs[first:]...)`; when
/// `system`'s backing array has room for the whole trial (Go's `append`
/// growth, [`crate::goslice`]), the trial is that array, and the Go
/// template's `collate` merges consecutive same-role messages into the
/// first of each run in place: a run that starts among the kept system
/// messages leaves its merged text in that system message, which the final
/// render then merges again with the messages that follow it (so the
/// later system messages appear twice). The renderers do not collate.
fn go_template_wrote_into_system(
    p: &Prepared,
    msgs: &[Message],
    first: usize,
    system: &mut [Message],
    notes: &mut [MessageNote],
) {
    let k = system.len();
    if k == 0
        || !p.loaded.model.renderer.is_empty()
        || crate::goslice::append_capacity(k, crate::goslice::API_MESSAGE_SIZE)
            < k + (msgs.len() - first)
    {
        return;
    }
    let mut trial = system.to_vec();
    trial.extend_from_slice(&msgs[first..]);
    let (_, collated) = crate::template::collate(&trial);
    let origin: Vec<usize> = (0..first).filter(|&i| msgs[i].role == "system").collect();
    for (merged, from) in collated {
        if from[0] < k && from.len() > 1 {
            system[from[0]].content = merged.content;
            if let Some(n) = notes.get_mut(origin[from[0]]) {
                n.notes.push(format!(
                    "its text is the {} merged messages of the last truncation trial: that trial shared this message's slice (Go's append had room for it) and the template's collate merged them in place, so they are merged again in the final prompt",
                    from.len()
                ));
            }
        }
    }
}

fn note_merges(loaded: &Loaded, msgs: &[Message], notes: &mut [MessageNote]) {
    if !loaded.model.renderer.is_empty() {
        return;
    }
    let (_, collated) = crate::template::collate(msgs);
    for (_, from) in collated {
        for &i in from.iter().skip(1) {
            if let Some(n) = notes.get_mut(i) {
                n.notes.push(format!(
                    "merged into message {} (consecutive {} messages are joined with a blank line; its images and tool calls are dropped)",
                    from[0], msgs[i].role
                ));
            }
        }
    }
}

fn chat(model: &Model, mut req: ChatRequest, settings: &Settings, ex: &mut Explain) -> R<Rendered> {
    if req.top_logprobs < 0 || req.top_logprobs > 20 {
        return Err(fail(400, "top_logprobs must be between 0 and 20", ex));
    }
    if req.model.is_empty() {
        return Err(fail(400, "model is required", ex));
    }
    let mut loaded = load(model, settings, ex)?;
    let wants_tools = req.tools.as_ref().is_some_and(|t| !t.is_empty());
    check_request(
        &loaded,
        &req.model,
        "chat",
        wants_tools.then_some("tools"),
        &mut req.think,
        settings.relax_thinking,
        ex,
    )?;
    if req.messages.is_empty() {
        return Ok(loaded_only(ex));
    }

    // Modelfile messages, then the SYSTEM rule.
    let mut msgs: Vec<Message> = model.messages.clone();
    let mut notes: Vec<MessageNote> = model
        .messages
        .iter()
        .map(|m| MessageNote {
            index: 0,
            role: m.role.clone(),
            origin: "modelfile MESSAGE".into(),
            notes: vec![],
        })
        .collect();
    msgs.extend(req.messages.iter().cloned());
    notes.extend(req.messages.iter().map(|m| MessageNote {
        index: 0,
        role: m.role.clone(),
        origin: "request".into(),
        notes: vec![],
    }));
    if req.messages[0].role != "system" && !model.system.is_empty() {
        msgs.insert(0, Message::new("system", &model.system));
        notes.insert(
            0,
            MessageNote {
                index: 0,
                role: "system".into(),
                origin: "modelfile SYSTEM".into(),
                notes: vec![
                    "added because the request does not start with a system message".into(),
                ],
            },
        );
    }
    for (i, n) in notes.iter_mut().enumerate() {
        n.index = i;
    }
    filter_think_tags(&mut msgs, &loaded, &mut notes);

    if loaded.uses_harmony() {
        if let Some(Think::Level(l)) = &req.think {
            if l == "max" {
                req.think = Some(Think::Level("high".into()));
                ex.think = think_string(&req.think);
                ex.think_rule
                    .push_str("; harmony turns \"max\" into \"high\"");
            }
        }
        if loaded.model.parser.is_empty() {
            loaded.model.parser = "harmony".into();
        }
    }
    if loaded.native_chat() {
        ex.messages = notes;
        let truncate =
            (req.truncate != Some(false)).then(|| num_ctx(&req.options, settings, model));
        return native(
            &loaded,
            &msgs,
            req.tools.as_deref(),
            req.think.as_ref(),
            truncate,
            settings,
            ex,
            true,
        );
    }
    let builtin = parsers::parser_capabilities(&loaded.model.parser).is_some();
    ex.thinking_tags = generic_thinking(&loaded, req.think.as_ref(), builtin);
    let format_row = req
        .format
        .then(|| {
            format_rule(
                &loaded.model.parser,
                req.think.as_ref(),
                ex,
                settings.release,
            )
        })
        .flatten();
    let mut tools = req.tools.clone();
    if loaded.model.parser == "harmony" {
        if let Some(t) = &tools {
            let renamed = parsers::harmony_rename_tools(t);
            for (a, b) in t.iter().zip(&renamed) {
                if a.function.name != b.function.name {
                    ex.tool_renames
                        .push((a.function.name.clone(), b.function.name.clone()));
                }
            }
            tools = Some(renamed);
        }
    }
    note_merges(&loaded, &msgs, &mut notes);
    let prepared = Prepared {
        loaded: &loaded,
        today: settings.date.to_string(),
        tools,
        think: req.think.clone(),
        rules: changes::Rules::of_release(settings.release),
    };
    let ctx = num_ctx(&req.options, settings, model);
    let settings_for_truncation = if req.truncate == Some(false) {
        Settings {
            tokenizer: None,
            date: settings.date,
            go_template_env: settings.go_template_env.clone(),
            default_num_ctx: settings.default_num_ctx,
            relax_thinking: settings.relax_thinking,
            release: settings.release,
            message_costs: settings.message_costs,
        }
    } else {
        Settings {
            tokenizer: settings.tokenizer,
            date: settings.date,
            go_template_env: settings.go_template_env.clone(),
            default_num_ctx: settings.default_num_ctx,
            relax_thinking: settings.relax_thinking,
            release: settings.release,
            message_costs: settings.message_costs,
        }
    };
    let (prompt, images) = chat_prompt(
        &prepared,
        &msgs,
        ctx,
        &settings_for_truncation,
        &mut notes,
        ex,
    )?;
    if !loaded.model.renderer.is_empty() {
        ex.leading_bos = renderers::leading_bos(&loaded.model.renderer).map(str::to_string);
    }
    if let Some(row) = format_row {
        prepared.rules.on(row);
        ex.release_rules.push(BuildRule::of(row, &prepared.rules));
    }
    ex.messages = notes;
    Ok(Rendered {
        prompt: Some(prompt),
        image_count: images,
        explain: ex.clone(),
    })
}

/// When ChatHandler applies a request's `format` (its structured-outputs
/// loop), as `ex.format_rule`; the row of Ollama's table that decided it,
/// if one did. A model that can think and whose answer is parsed for
/// thinking (a built-in parser, or the TEMPLATE's thinking tags) has the
/// format held back until the thinking ends, unless think is false and
/// the parser supports thinking (before
/// `format_immediate_for_thinking_parsers`, only the gemma4 parser).
fn format_rule(
    parser: &str,
    think: Option<&Think>,
    ex: &mut Explain,
    release: changes::Release,
) -> Option<&'static changes::Change> {
    let row = &changes::ollama::FORMAT_IMMEDIATE_FOR_THINKING_PARSERS;
    let builtin = parsers::parser_capabilities_in(parser, release);
    let parsed_for_thinking = builtin.is_some() || ex.thinking_tags.is_some();
    let can_think = ex.capabilities.iter().any(|c| c.name == "thinking");
    let think_false = think.is_some_and(|t| !t.as_bool());
    let thinking_parser = builtin.is_some_and(|(_, thinking)| thinking);
    let (immediate, decided_by) = if thinking_parser && think_false && parser != "gemma4" {
        (release.has(row), Some(row))
    } else {
        (thinking_parser && think_false, None)
    };
    ex.format_rule = if immediate {
        format!("think is false and the PARSER {parser} supports thinking: the format constrains the completion from the first token")
    } else if parsed_for_thinking && can_think {
        if decided_by.is_some() {
            format!("think is false, but this release applies the format at once only for the gemma4 parser: with PARSER {parser} the completion waits for thinking that does not come, so the format is never applied")
        } else if builtin.is_some() && !thinking_parser {
            format!("the model can think, so the format is held back until thinking ends, but PARSER {parser} reads no thinking: the format is never applied")
        } else {
            "the model can think and its answer is read for thinking: the format is held back until the thinking ends, then the completion restarts with it (Promptscope's generation runs once, without it)".to_string()
        }
    } else {
        "the format constrains the completion from the first token".to_string()
    };
    decided_by
}

/// Whether a body's `keep_alive` is zero (`api.Duration`: a number of
/// seconds, or a duration string).
fn keep_alive_zero(request: &Json) -> bool {
    match request.get("keep_alive") {
        // `time.Duration(t * float64(time.Second))`, truncated
        Some(Json::Number(n)) => n.as_f64().is_some_and(|t| (0.0..1e-9).contains(&t)),
        Some(Json::String(s)) => crate::api_decode::duration_is_zero(s),
        _ => false,
    }
}

fn generate(
    model: &Model,
    mut req: GenerateRequest,
    unload: bool,
    settings: &Settings,
    ex: &mut Explain,
) -> R<Rendered> {
    if req.top_logprobs < 0 || req.top_logprobs > 20 {
        return Err(fail(400, "top_logprobs must be between 0 and 20", ex));
    }
    if req.model.is_empty() {
        return Err(fail(404, format!("model '{}' not found", req.model), ex));
    }
    let mut loaded = load(model, settings, ex)?;
    // after the unload request (the runner is expired) and before raw mode
    if !unload && ex.capabilities.iter().any(|c| c.name == "image") {
        let rules = changes::Rules::of_release(settings.release);
        let refused = rules.on(&changes::ollama::IMAGEGEN_REFUSED);
        note_rules(ex, &rules);
        return Err(fail(
            400,
            if refused {
                "image generation models are not currently supported"
            } else {
                // the image-generation runner (MLX), which Promptscope does not run
                "image generation: this release runs the model with its image-generation runner, which Promptscope does not reproduce (Ollama answers with an image, not this error)"
            },
            ex,
        ));
    }
    if req.raw
        && (!req.template.is_empty()
            || !req.system.is_empty()
            || req.context.as_ref().is_some_and(|c| !c.is_empty()))
    {
        return Err(fail(
            400,
            "raw mode does not support template, system, or context",
            ex,
        ));
    }
    if loaded.uses_harmony() {
        if let Some(Think::Level(l)) = &req.think {
            if l == "max" {
                req.think = Some(Think::Level("high".into()));
            }
        }
        if loaded.model.parser.is_empty() {
            loaded.model.parser = "harmony".into();
        }
    }
    let wants_insert = !req.suffix.is_empty();
    check_request(
        &loaded,
        &req.model,
        "generate",
        wants_insert.then_some("insert"),
        &mut req.think,
        false,
        ex,
    )?;
    let builtin = !req.raw && parsers::parser_capabilities(&loaded.model.parser).is_some();
    ex.thinking_tags = generic_thinking(&loaded, req.think.as_ref(), builtin);
    if req.prompt.is_empty() {
        return Ok(loaded_only(ex));
    }
    if loaded.model.families.iter().any(|f| f == "mllama") && req.images.len() > 1 {
        return Err(fail(
            400,
            "this model only supports one image while more than one image requested",
            ex,
        ));
    }
    let media = req.images.len();
    if req.raw {
        ex.branch = "raw".into();
        return Ok(Rendered {
            prompt: Some(req.prompt.clone()),
            image_count: media,
            explain: ex.clone(),
        });
    }
    let think = req.think.clone();
    let tmpl_override = if req.template.is_empty() {
        None
    } else {
        Some(Template::parse(&req.template, settings.date).map_err(|e| fail(500, e, ex))?)
    };
    let is_think_set = think.is_some();
    let think_bool = think.as_ref().is_some_and(Think::as_bool);
    let think_level = think.as_ref().map(Think::level).unwrap_or_default();
    if !req.suffix.is_empty() {
        let t = tmpl_override.as_ref().unwrap_or(&loaded.template);
        let values = Values {
            prompt: req.prompt.clone(),
            suffix: req.suffix.clone(),
            think: think_bool,
            think_level,
            is_think_set,
            ..Values::default()
        };
        let out = t.execute(&values).map_err(|e| fail(500, e, ex))?;
        ex.branch = Branch::Insert.name().into();
        return Ok(Rendered {
            prompt: Some(out.prompt),
            image_count: media,
            explain: ex.clone(),
        });
    }
    let mut msgs = Vec::new();
    let mut notes = Vec::new();
    if !req.system.is_empty() {
        msgs.push(Message::new("system", &req.system));
        notes.push(("system", "request system"));
    } else if !model.system.is_empty() {
        msgs.push(Message::new("system", &model.system));
        notes.push(("system", "modelfile SYSTEM"));
    }
    if req.context.is_none() {
        for m in &model.messages {
            msgs.push(m.clone());
            notes.push(("", "modelfile MESSAGE"));
        }
    }
    let mut user = Message::new("user", &req.prompt);
    user.images = req.images.clone();
    msgs.push(user);
    notes.push(("user", "request prompt"));
    let mut notes: Vec<MessageNote> = notes
        .iter()
        .enumerate()
        .map(|(i, (_, origin))| MessageNote {
            index: i,
            role: msgs[i].role.clone(),
            origin: origin.to_string(),
            notes: vec![],
        })
        .collect();
    if let Some(t) = tmpl_override {
        // A request template runs directly: no image tags, no truncation.
        let values = Values {
            messages: msgs,
            think: think_bool,
            think_level,
            is_think_set,
            ..Values::default()
        };
        let out = t.execute(&values).map_err(|e| fail(500, e, ex))?;
        ex.branch = out.branch.name().into();
        ex.vars = t.vars().to_vec();
        ex.messages = notes;
        return Ok(Rendered {
            prompt: Some(out.prompt),
            image_count: media,
            explain: ex.clone(),
        });
    }
    if loaded.native() {
        let rules = changes::Rules::of_release(settings.release);
        let renders_natively = rules.on(&changes::ollama::GENERATE_NATIVE_CHAT_TEMPLATE);
        note_rules(ex, &rules);
        if renders_natively {
            ex.messages = notes;
            let truncate =
                (req.truncate != Some(false)).then(|| num_ctx(&req.options, settings, model));
            return native(
                &loaded,
                &msgs,
                None,
                think.as_ref(),
                truncate,
                settings,
                ex,
                false,
            );
        }
        ex.source_rule.push_str(if loaded.has_go_template {
            "; /api/generate still renders with the Go TEMPLATE in this release"
        } else {
            "; /api/generate still renders with Ollama's default {{ .Prompt }} in this release"
        });
    }
    note_merges(&loaded, &msgs, &mut notes);
    let prepared = Prepared {
        loaded: &loaded,
        today: settings.date.to_string(),
        tools: Some(Vec::new()),
        think,
        rules: changes::Rules::of_release(settings.release),
    };
    let ctx = num_ctx(&req.options, settings, model);
    let s = Settings {
        tokenizer: if req.truncate == Some(false) {
            None
        } else {
            settings.tokenizer
        },
        date: settings.date,
        go_template_env: settings.go_template_env.clone(),
        default_num_ctx: settings.default_num_ctx,
        relax_thinking: false,
        release: settings.release,
        message_costs: settings.message_costs,
    };
    let (prompt, images) = chat_prompt(&prepared, &msgs, ctx, &s, &mut notes, ex)?;
    if !loaded.model.renderer.is_empty() {
        ex.leading_bos = renderers::leading_bos(&loaded.model.renderer).map(str::to_string);
    }
    ex.messages = notes;
    let _ = Source::None;
    Ok(Rendered {
        prompt: Some(prompt),
        image_count: images,
        explain: ex.clone(),
    })
}

/// Native mode: llama-server renders the GGUF chat template
/// (`/apply-template`). With a tokenizer and `truncate` (`Some(num_ctx)`
/// unless the request says `"truncate": false`), the oldest messages are
/// dropped first as `truncateNativeChatMessages` does. `chat`: the chat
/// endpoint, which goes to `/v1/chat/completions` with the handler's
/// message delimiters (`/api/generate` sends a plain prompt).
#[allow(clippy::too_many_arguments)]
fn native(
    loaded: &Loaded,
    msgs: &[Message],
    tools: Option<&[api::Tool]>,
    think: Option<&Think>,
    truncate: Option<usize>,
    settings: &Settings,
    ex: &mut Explain,
    chat: bool,
) -> R<Rendered> {
    let m = &loaded.model;
    let input = crate::native::NativeInput {
        chat_template: loaded.server_chat_template(),
        chat_template_tool_use: m.chat_template_tool_use.as_deref().unwrap_or(""),
        bos_token: &m.bos_token,
        eos_token: &m.eos_token,
        messages: msgs,
        tools: tools.filter(|t| !t.is_empty()),
        think,
        add_bos: m.add_bos,
        add_eos: m.add_eos,
        now: crate::native::NativeTime::from_date(settings.date),
        build: settings.release.llama_cpp,
    };
    ex.branch = "native".into();
    ex.llamacpp = Some(settings.release.llama_cpp.to_string());
    // llama-server's answer as Ollama passes it on: its status, and its
    // error body as the message.
    let native_fail =
        |e: crate::native::NativeError, ex: &Explain| fail(e.status, e.server_body(), ex);
    let srv = match crate::native::NativeServer::new(&input) {
        Ok(srv) => srv,
        Err(e) => {
            ex.build_rules = e.build_rules.clone();
            return Err(native_fail(e, ex));
        }
    };
    if think.is_none() {
        let default = srv.thinking_default();
        ex.think_rule = format!(
            "the request does not set it, so llama-server's default applies: thinking {}",
            if default {
                "on, because the template supports it"
            } else {
                "off"
            }
        );
    }
    // truncateNativeChatMessages: only with more than one message; each
    // trial rendered through the template and counted with /tokenize, the
    // images of every message of the trial counted as 768 tokens when the
    // model has a projector.
    let mut first = 0;
    if let (Some(tok), Some(num_ctx)) = (settings.tokenizer, truncate) {
        if num_ctx > 0 && msgs.len() > 1 {
            let (start, counts) = truncation_start(msgs, num_ctx, |_, trial| {
                let text = srv
                    .render(trial, input.tools, think)
                    .map_err(|e| native_fail(e, ex))?;
                let mut n = tok.count(&text).map_err(|e| fail(500, e, ex))?;
                if m.has_projector {
                    n += trial.iter().map(|t| 768 * t.images.len()).sum::<usize>();
                }
                Ok(n)
            })?;
            first = start;
            note_truncation(&mut ex.messages, msgs, first, num_ctx);
            ex.truncation = Some(Truncation {
                num_ctx,
                first_kept: first,
                counts,
            });
        }
    }
    let mut kept = kept_system(msgs, first);
    kept.extend_from_slice(&msgs[first..]);
    let prompt = srv.render(&kept, input.tools, think);
    if chat && prompt.is_ok() {
        (ex.message_delimiters, ex.delimiter_rules) = srv
            .message_delimiters(&kept, input.tools, think)
            .unwrap_or_default();
    }
    ex.build_rules = srv.build_rules();
    let prompt = prompt.map_err(|e| native_fail(e, ex))?;
    if let Some(tok) = settings.tokenizer.filter(|_| settings.message_costs) {
        let mut suffix = vec![0i64; msgs.len() + 1];
        for i in (0..msgs.len()).rev() {
            let text = srv
                .render(&msgs[i..], input.tools, think)
                .unwrap_or_default();
            suffix[i] = tok.count(&text).map_err(|e| fail(500, e, ex))? as i64;
        }
        ex.message_tokens = (0..msgs.len()).map(|i| suffix[i] - suffix[i + 1]).collect();
    }
    // what Ollama's _debug_info reports in native mode:
    // countChatImages(msgs), before truncation
    let images = msgs.iter().map(|m| m.images.len()).sum();
    Ok(Rendered {
        prompt: Some(prompt),
        image_count: images,
        explain: ex.clone(),
    })
}

/// What the handler knows when the runner starts answering this request
/// ([`crate::answer::Setup`]): the parser after the harmony rule, the
/// model's template, the request's tools and think, the last message.
pub fn answer_setup(
    endpoint: Endpoint,
    model: &Model,
    request: &Json,
    settings: &Settings,
    prompt: &str,
) -> Result<crate::answer::Setup, String> {
    let loaded = Loaded::load_in(
        model,
        settings.go_template_env.clone(),
        settings.date,
        settings.release,
    )?;
    let harmony = loaded.uses_harmony();
    let mut parser = loaded.model.parser.clone();
    if harmony && parser.is_empty() {
        parser = "harmony".into();
    }
    let caps = loaded.capabilities(|name| parsers::parser_capabilities_in(name, settings.release));
    // harmony's `max` → `high`, then the capability check's default
    let think_for = |t: Option<Think>, model_req: &str, relax: bool| {
        let mut t = match t {
            Some(Think::Level(l)) if harmony && l == "max" => Some(Think::Level("high".into())),
            t => t,
        };
        let mut ex = Explain::default();
        think_default(model_req, &caps, &mut t, &mut Vec::new(), relax, &mut ex)
            .map_err(|f| f.message)?;
        Ok::<_, String>(t)
    };
    let setup = |tools, (init_think, think), last_message, raw, native| crate::answer::Setup {
        endpoint,
        parser: parser.clone(),
        template: loaded.template.clone(),
        tools,
        init_think,
        think,
        last_message,
        prompt: prompt.to_string(),
        raw,
        native,
        release: settings.release,
    };
    Ok(match endpoint {
        Endpoint::Chat => {
            let req = ChatRequest::decode(request).map_err(|e| e.0)?;
            setup(
                req.tools.unwrap_or_default(),
                {
                    let t = think_for(req.think, &req.model, settings.relax_thinking)?;
                    (t.clone(), t)
                },
                req.messages.last().cloned(),
                false,
                loaded.native_chat(),
            )
        }
        Endpoint::Generate => {
            let req = GenerateRequest::decode(request).map_err(|e| e.0)?;
            // GenerateHandler initializes its parser before the think
            // default (routes.go 441-445 before 456-458)
            let init_think = match req.think.clone() {
                Some(Think::Level(l)) if harmony && l == "max" => Some(Think::Level("high".into())),
                t => t,
            };
            let think = think_for(req.think, &req.model, false)?;
            setup(Vec::new(), (init_think, think), None, req.raw, false)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leading_bos_rule() {
        assert!(tokenizer_adds_bos("lfm2", "gpt2", None));
        assert!(tokenizer_adds_bos("", "gemma4", None));
        assert!(tokenizer_adds_bos("llama-bpe", "gpt2", Some(true)));
        assert!(!tokenizer_adds_bos("llama-bpe", "gpt2", None));
        assert_eq!(completion_prompt("<bos>x", Some("<bos>"), true), "x");
        assert_eq!(completion_prompt("<bos>x", None, true), "x");
        assert_eq!(
            completion_prompt("<BOS_TOKEN>x", Some("<BOS_TOKEN>"), false),
            "<BOS_TOKEN>x"
        );
        // Only the one leading string: a Go template's <|begin_of_text|> stays.
        assert_eq!(
            completion_prompt("<|begin_of_text|>x", None, true),
            "<|begin_of_text|>x"
        );
    }

    #[test]
    fn think_stripping() {
        assert_eq!(
            strip_thinking("  <think>secret</think>\n\nHello!"),
            "Hello!"
        );
        assert_eq!(
            strip_thinking("Hello <think>x</think>"),
            "Hello <think>x</think>"
        );
        assert_eq!(strip_thinking("   "), "");
        assert_eq!(strip_thinking("<thi"), "");
        assert_eq!(strip_thinking("<think>abc"), "");
        assert_eq!(strip_thinking("<think>abc</think>"), "");
        assert_eq!(strip_thinking("<think>a</think>b</think>c"), "b</think>c");
    }
}
