//! Native mode: the prompt llama-server renders from a GGUF's
//! `tokenizer.chat_template` (Jinja) when Ollama has no Go template or
//! renderer for the model (SPEC §5.1).
//!
//! The pipeline, as in llama.cpp's `common_chat_templates_apply_jinja`
//! and `common_chat_template_direct_apply`:
//!
//! 1. The template is patched ([`engine::patch_source`]) and parsed with
//!    llama.cpp's whitespace rules.
//! 2. Capability probes ([`probe::caps`]) decide whether a leading system
//!    message is merged into the next one and whether tool-call arguments
//!    reach the template as JSON strings or parsed objects.
//! 3. The messages Ollama sends are rebuilt as llama.cpp builds them and
//!    the workarounds applied ([`convert::messages`]).
//! 4. The globals: `messages`, `bos_token`, `eos_token`, `enable_thinking`,
//!    `tools` (only when there is at least one), `datetime`,
//!    `date_string`, the `chat_template_kwargs` Ollama derives from
//!    `think` (`enable_thinking`, and `reasoning_effort` for a level), and
//!    `add_generation_prompt: true`.
//! 5. A leading `bos_token` / trailing `eos_token` is removed when the
//!    vocabulary adds it itself.
//!
//! A conversation that ends with an assistant message is rendered the way
//! llama-server prefills: without that message, then its content appended.

mod convert;
mod engine;
mod json;
mod probe;
mod thinking;
mod time;

use std::fmt;

use minijinja::value::Serde;
use minijinja::Value;
use serde_json::Value as Json;

use crate::api;
pub use time::NativeTime;

/// What native rendering needs.
#[derive(Clone, Debug)]
pub struct NativeInput<'a> {
    /// The GGUF `tokenizer.chat_template`.
    pub chat_template: &'a str,
    /// The vocabulary's BOS token text (`""` when it has none).
    pub bos_token: &'a str,
    /// The vocabulary's EOS token text (`""` when it has none).
    pub eos_token: &'a str,
    /// The conversation (Modelfile messages and SYSTEM already applied).
    pub messages: &'a [api::Message],
    /// The request's tools.
    pub tools: Option<&'a [api::Tool]>,
    /// The request's `think`; `None` lets llama-server's default apply.
    pub think: Option<&'a api::Think>,
    /// The vocabulary adds BOS itself: a leading `bos_token` is stripped.
    pub add_bos: bool,
    /// The vocabulary adds EOS itself: a trailing `eos_token` is stripped.
    pub add_eos: bool,
    /// The server's local time.
    pub now: NativeTime,
}

/// Why native rendering failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NativeError {
    /// The template called `raise_exception(msg)`.
    Raised(String),
    /// The template could not be parsed or rendered, or the request could
    /// not be turned into template input; the text says where.
    Template(String),
}

impl fmt::Display for NativeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NativeError::Raised(m) => write!(f, "Jinja Exception: {m}"),
            NativeError::Template(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for NativeError {}

impl From<engine::Failure> for NativeError {
    fn from(f: engine::Failure) -> NativeError {
        match f {
            engine::Failure::Raised(m) => NativeError::Raised(m),
            engine::Failure::Template(m) => NativeError::Template(m),
        }
    }
}

/// Whether llama-server turns thinking on by default for this template
/// (`common_chat_templates_support_enable_thinking`): the server's value of
/// `enable_thinking` when the request leaves `think` unset. An unparsable
/// template supports nothing.
pub fn template_supports_thinking(chat_template: &str, now: NativeTime) -> bool {
    match engine::Engine::new(chat_template, now) {
        Ok(e) => thinking::supports_thinking(&e, &probe::caps(&e)),
        Err(_) => false,
    }
}

/// Renders the prompt llama-server would produce.
pub fn render_native(input: &NativeInput) -> Result<String, NativeError> {
    let engine = engine::Engine::new(input.chat_template, input.now)?;
    let caps = probe::caps(&engine);

    // llama-server's prefill: a trailing assistant message is rendered as
    // the start of the generation.
    let mut msgs = input.messages;
    let mut prefill: Option<&str> = None;
    if let Some((last, rest)) = msgs.split_last() {
        if last.role == "assistant" {
            if rest.last().map(|m| m.role.as_str()) == Some("assistant") {
                return Err(NativeError::Template(
                    "Cannot have 2 or more assistant messages at the end of the list.".into(),
                ));
            }
            prefill = Some(&last.content);
            msgs = rest;
        }
    }

    let messages =
        convert::messages(msgs, &caps, engine.source()).map_err(NativeError::Template)?;
    let enable_thinking = match input.think {
        Some(t) => t.as_bool(),
        None => thinking::supports_thinking(&engine, &caps),
    };

    let mut ctx: Vec<(String, Value)> = vec![
        ("messages".into(), Value::from(Serde(&messages))),
        ("bos_token".into(), Value::from(input.bos_token)),
        ("eos_token".into(), Value::from(input.eos_token)),
        ("enable_thinking".into(), Value::from(enable_thinking)),
    ];
    if let Some(tools) = input.tools.filter(|t| !t.is_empty()) {
        let tools: Json = json::tools_json(tools);
        ctx.push(("tools".into(), Value::from(Serde(&tools))));
    }
    ctx.push((
        "datetime".into(),
        Value::from(input.now.strftime("%b %d %Y")),
    ));
    ctx.push((
        "date_string".into(),
        Value::from(input.now.strftime("%d %b %Y")),
    ));
    // llama-server's default kwargs: preserve_reasoning=true, which also
    // sets the variables templates use for it.
    ctx.push(("preserve_reasoning".into(), Value::from(true)));
    ctx.push(("preserve_thinking".into(), Value::from(true)));
    ctx.push(("clear_thinking".into(), Value::from(false)));
    ctx.push(("truncate_history_thinking".into(), Value::from(false)));
    ctx.push(("drop_thinking".into(), Value::from(false)));
    if let Some(api::Think::Level(level)) = input.think {
        ctx.push(("reasoning_effort".into(), Value::from(level.as_str())));
        ctx.push(("reasoning_strength".into(), Value::from(level.as_str())));
    }
    ctx.push(("add_generation_prompt".into(), Value::from(true)));

    let mut out = engine.render(&Value::from_pairs(ctx))?;
    if input.add_bos && !input.bos_token.is_empty() && out.starts_with(input.bos_token) {
        out.drain(..input.bos_token.len());
    }
    if input.add_eos && !input.eos_token.is_empty() && out.ends_with(input.eos_token) {
        out.truncate(out.len() - input.eos_token.len());
    }
    // llama.cpp's Gemma 4 handler reopens the model turn when the template
    // did not.
    if convert::is_gemma4(engine.source()) && out.ends_with("<turn|>\n") && prefill.is_none() {
        out.push_str("<|turn>model\n");
    }
    if let Some(p) = prefill {
        out.push_str(p);
    }
    Ok(out)
}
