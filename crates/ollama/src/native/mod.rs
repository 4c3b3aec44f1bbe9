//! Native mode: the prompt llama-server renders from a GGUF's
//! `tokenizer.chat_template` (Jinja) when Ollama has no Go template or
//! renderer for the model (SPEC §5.1).
//!
//! Ollama builds a chat body (`llamaServerChatRequest` in
//! llm/llama_server.go: the messages as `llamaServerChatMessage` writes
//! them, the tools, `chat_template_kwargs` from `think`, `response_format`
//! from `format`) and llama-server turns it into the prompt. The body is
//! built here ([`body`]); what llama-server does with it is the
//! `llamachat` crate, on llama.cpp's own Jinja engine (the `jinja` crate).

mod body;
mod json;
mod time;

use std::fmt;

use serde_json::Value as Json;

use crate::api;
pub use body::body;
pub use time::NativeTime;

/// What native rendering needs.
#[derive(Clone, Debug)]
pub struct NativeInput<'a> {
    /// The GGUF `tokenizer.chat_template`.
    pub chat_template: &'a str,
    /// The GGUF `tokenizer.chat_template.tool_use` (`""` when it has none).
    pub chat_template_tool_use: &'a str,
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
    /// The llama.cpp build llama-server is.
    pub build: changes::Build,
}

/// Why native rendering failed: llama-server's answer, as Ollama passes
/// it on (the status and the error body llama-server wrote).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NativeError {
    /// llama-server's HTTP status (400 for `std::invalid_argument`, 500
    /// for any other exception).
    pub status: u16,
    /// llama-server's `e.what()`.
    pub message: String,
    /// Where llama-server failed: `load` when it could not load the
    /// template at all (the model fails to load), `request` otherwise.
    pub stage: &'static str,
    /// The build-specific rules consulted before it failed.
    pub build_rules: Vec<crate::server::BuildRule>,
}

impl NativeError {
    fn request(e: llamachat::Error) -> NativeError {
        NativeError {
            status: e.status(),
            message: e.message,
            stage: "request",
            build_rules: Vec::new(),
        }
    }

    fn load(e: llamachat::Error, rules: &changes::Rules) -> NativeError {
        NativeError {
            status: 500,
            message: e.message,
            stage: "load",
            build_rules: build_rules(rules),
        }
    }

    /// The error body llama-server answers with
    /// (`{"error":{"code":...,"message":...,"type":...}}`).
    pub fn server_body(&self) -> String {
        let kind = if self.status == 400 {
            llamachat::ErrorKind::InvalidArgument
        } else {
            llamachat::ErrorKind::Runtime
        };
        llamachat::server::error_body(&llamachat::Error {
            kind,
            message: self.message.clone(),
        })
    }
}

impl fmt::Display for NativeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for NativeError {}

/// Message delimiters (role, text) and the rows that decided them.
pub type Delimiters = (Vec<(String, String)>, Vec<crate::server::BuildRule>);

/// llama-server with the model's template loaded: parsed once, its
/// capabilities probed and its thinking default decided, for every
/// render of one request.
pub struct NativeServer {
    params: llamachat::server::ServerChatParams,
    now: i64,
}

impl NativeServer {
    /// Loads the template as llama-server does at start.
    pub fn new(input: &NativeInput) -> Result<NativeServer, NativeError> {
        let now = input.now.unix();
        let rules = std::rc::Rc::new(changes::Rules::new(input.build));
        let tmpls = llamachat::ChatTemplates::init_with_tool_use(
            input.chat_template,
            input.chat_template_tool_use,
            input.bos_token,
            input.eos_token,
            input.add_bos,
            input.add_eos,
            rules.clone(),
        )
        .map_err(|e| NativeError::load(e, &rules))?;
        let mut params = llamachat::server::ServerChatParams::new(tmpls, now)
            .map_err(|e| NativeError::load(e, &rules))?;
        // Ollama checks for vision and audio before the runner sees media.
        params.allow_image = true;
        params.allow_audio = true;
        Ok(NativeServer { params, now })
    }

    /// The rows of llama.cpp's change table consulted so far (loading the
    /// template, probing it, rendering), as they apply to this build.
    pub fn build_rules(&self) -> Vec<crate::server::BuildRule> {
        build_rules(self.params.tmpls.default.rules())
    }

    /// llama-server's `enable_thinking` when the request leaves `think`
    /// unset.
    pub fn thinking_default(&self) -> bool {
        self.params.enable_thinking
    }

    /// The prompt of Ollama's body for these messages.
    pub fn render(
        &self,
        messages: &[api::Message],
        tools: Option<&[api::Tool]>,
        think: Option<&api::Think>,
    ) -> Result<String, NativeError> {
        let body = body(messages, tools, think, None);
        self.render_body(&body)
    }

    /// The message delimiters (role, text) llama-server's
    /// `/v1/chat/completions` passes on for these messages: the handler's
    /// own, or the autoparser's (`llamachat::apply::message_delimiters`).
    /// The server checkpoints a model's memory where user messages start.
    /// Also the rows of llama.cpp's table that decided them.
    pub fn message_delimiters(
        &self,
        messages: &[api::Message],
        tools: Option<&[api::Tool]>,
        think: Option<&api::Think>,
    ) -> Result<Delimiters, NativeError> {
        let body = body(messages, tools, think, None);
        let params = llamachat::server::chat_params_parse(&body, &self.params, self.now)
            .map_err(NativeError::request)?;
        let tmpl = self
            .params
            .tmpls
            .for_tools(tools.is_some_and(|t| !t.is_empty()));
        let rows = llamachat::handlers::delimiter_rows(params.handler)
            .into_iter()
            .map(|c| crate::server::BuildRule::of(c, tmpl.rules()))
            .collect();
        Ok((llamachat::apply::message_delimiters(tmpl, &params), rows))
    }

    /// The prompt of a chat body as llama-server's `/apply-template`
    /// gives it.
    pub fn render_body(&self, body: &Json) -> Result<String, NativeError> {
        llamachat::server::apply_template(body, &self.params, self.now)
            .map_err(NativeError::request)
    }
}

fn build_rules(rules: &changes::Rules) -> Vec<crate::server::BuildRule> {
    rules
        .applied()
        .into_iter()
        .map(|c| crate::server::BuildRule::of(c, rules))
        .collect()
}

/// Whether llama-server turns thinking on by default for this template
/// (`common_chat_templates_support_enable_thinking`): the server's value of
/// `enable_thinking` when the request leaves `think` unset. A template
/// llama-server cannot load supports nothing.
pub fn template_supports_thinking(
    chat_template: &str,
    now: NativeTime,
    build: changes::Build,
) -> bool {
    let input = NativeInput {
        chat_template,
        chat_template_tool_use: "",
        bos_token: "",
        eos_token: "",
        messages: &[],
        tools: None,
        think: None,
        add_bos: false,
        add_eos: false,
        now,
        build,
    };
    NativeServer::new(&input).is_ok_and(|s| s.thinking_default())
}

/// Renders the prompt llama-server would produce.
pub fn render_native(input: &NativeInput) -> Result<String, NativeError> {
    NativeServer::new(input)?.render(input.messages, input.tools, input.think)
}
