//! `common_chat_templates` and `common_chat_template` (common/chat.h,
//! common/chat.cpp): the template parsed once with its capabilities, and
//! `common_chat_template_direct_apply_impl` /
//! `common_chat_template_generation_prompt_impl`, the two ways every path
//! renders it.

use serde_json::{Map, Value as Json};

use crate::apply::GenParams;
use crate::{Error, ErrorKind};

/// llama.cpp's fallback when a model has no template.
pub const CHATML_TEMPLATE_SRC: &str = "{%- for message in messages -%}\n  {{- '<|im_start|>' + message.role + '\n' + message.content + '<|im_end|>\n' -}}\n{%- endfor -%}\n{%- if add_generation_prompt -%}\n  {{- '<|im_start|>assistant\n' -}}\n{%- endif -%}";

/// `common_chat_template`: the source as the lexer kept it, the program,
/// BOS/EOS texts and the capabilities `caps_get` found.
pub struct Template {
    src: String,
    prog: jinja::ast::Program,
    bos: String,
    eos: String,
    caps: jinja::Caps,
    /// Set once a render ran out of fuel: every later render of this
    /// template fails the same way at once, so the probes, the analysis
    /// and the real renders of a runaway template cost one budget, not
    /// one each (our addition; llama.cpp has no budget).
    exhausted: std::cell::RefCell<Option<Error>>,
    /// The differential analysis, done once per template (it renders the
    /// template on its own probe conversations, whatever the request).
    analysis: std::cell::OnceCell<crate::analyze::Reasoning>,
    delimiters: std::cell::OnceCell<Vec<(String, String)>>,
    /// The llama.cpp build whose engine and rules this is, and the rows of
    /// its change table consulted so far (parsing, probes, renders).
    rules: std::rc::Rc<changes::Rules>,
}

impl Template {
    /// Lexes, parses and probes `src` as the newest build does.
    pub fn new(src: &str, bos: &str, eos: &str) -> Result<Template, Error> {
        Template::with_build(src, bos, eos, changes::Build::NEWEST)
    }

    /// Lexes, parses and probes `src` as `build` does.
    pub fn with_build(
        src: &str,
        bos: &str,
        eos: &str,
        build: changes::Build,
    ) -> Result<Template, Error> {
        Template::with_rules(src, bos, eos, std::rc::Rc::new(changes::Rules::new(build)))
    }

    /// Lexes, parses and probes `src` as `rules`' build does, noting there
    /// the rows consulted (the caller keeps them when loading fails).
    pub fn with_rules(
        src: &str,
        bos: &str,
        eos: &str,
        rules: std::rc::Rc<changes::Rules>,
    ) -> Result<Template, Error> {
        let lexed = jinja::Lexer::new().tokenize(src).map_err(jinja_error)?;
        let prog = jinja::parse_from_tokens_with(&lexed, &rules).map_err(jinja_error)?;
        let caps = jinja::caps_get_with(&prog, &rules).map_err(jinja_error)?;
        Ok(Template {
            src: String::from_utf8_lossy(&lexed.source).into_owned(),
            prog,
            bos: bos.into(),
            eos: eos.into(),
            caps,
            exhausted: std::cell::RefCell::new(None),
            analysis: std::cell::OnceCell::new(),
            delimiters: std::cell::OnceCell::new(),
            rules,
        })
    }

    /// The build's rules, with the rows consulted so far.
    pub fn rules(&self) -> &changes::Rules {
        &self.rules
    }

    /// The source.
    pub fn source(&self) -> &str {
        &self.src
    }

    /// `bos_token()`.
    pub fn bos_token(&self) -> &str {
        &self.bos
    }

    /// `eos_token()`.
    pub fn eos_token(&self) -> &str {
        &self.eos
    }

    /// The reasoning markers of the differential analysis (computed on
    /// first use).
    pub fn reasoning(&self) -> &crate::analyze::Reasoning {
        self.analysis
            .get_or_init(|| crate::analyze::analyze_template(self))
    }

    /// The autoparser's message delimiters (role, text), as
    /// [`crate::analyze::autoparser_delimiters`] finds them (on first use).
    pub fn autoparser_delimiters(&self) -> &[(String, String)] {
        self.delimiters
            .get_or_init(|| crate::analyze::autoparser_delimiters(self, 0))
    }

    /// `original_caps()`.
    pub fn caps(&self) -> &jinja::Caps {
        &self.caps
    }

    /// Runs the program on `globals` (`global_from_json(ctx, inp,
    /// mark_input)` after the reasoning hooks).
    pub(crate) fn execute(
        &self,
        globals: &Json,
        preserve_reasoning: Option<bool>,
        reasoning_effort: Option<&str>,
        now: i64,
        mark_input: bool,
    ) -> Result<String, Error> {
        if let Some(e) = self.exhausted.borrow().as_ref() {
            return Err(e.clone());
        }
        let out = self.run(
            globals,
            preserve_reasoning,
            reasoning_effort,
            now,
            mark_input,
        );
        if let Err((e, jinja::ErrorKind::FuelExhausted)) = &out {
            *self.exhausted.borrow_mut() = Some(e.clone());
        }
        out.map_err(|(e, _)| e)
    }

    fn run(
        &self,
        globals: &Json,
        preserve_reasoning: Option<bool>,
        reasoning_effort: Option<&str>,
        now: i64,
        mark_input: bool,
    ) -> Result<String, (Error, jinja::ErrorKind)> {
        let err = |e: jinja::Error| {
            let kind = e.kind();
            (jinja_error(e), kind)
        };
        let mut ctx = jinja::Context::with_rules(&self.src, self.rules.clone());
        ctx.current_time = now;
        if let Some(enabled) = preserve_reasoning {
            // noted: where the build decides whether drop_thinking is set
            self.rules
                .on(&changes::llamacpp::PRESERVE_REASONING_DROP_THINKING);
            jinja::caps_apply_preserve_reasoning(&mut ctx, enabled).map_err(err)?;
        }
        if let Some(effort) = reasoning_effort {
            jinja::caps_apply_reasoning_effort(&mut ctx, effort).map_err(err)?;
        }
        jinja::global_from_json(&mut ctx, globals, mark_input).map_err(err)?;
        let runtime = jinja::Runtime::new(&ctx);
        let result = runtime.execute(&self.prog).map_err(err)?;
        Ok(jinja::gather_string_parts(&result).map_err(err)?.str())
    }
}

/// A Jinja failure as the exception llama-server sees (all of them
/// `std::runtime_error`s).
pub(crate) fn jinja_error(e: jinja::Error) -> Error {
    Error {
        kind: ErrorKind::Runtime,
        message: e.to_string(),
    }
}

/// `common_chat_templates`.
pub struct ChatTemplates {
    /// Whether the vocabulary adds BOS itself.
    pub add_bos: bool,
    /// Whether the vocabulary adds EOS itself.
    pub add_eos: bool,
    /// `template_default`.
    pub default: Template,
    /// `template_tool_use`: the GGUF's `tokenizer.chat_template.tool_use`,
    /// which renders the requests that have tools (`None` when the model
    /// has none, or it does not parse: llama-server then ignores it).
    pub tool_use: Option<Template>,
}

impl ChatTemplates {
    /// `common_chat_templates_init(model, chat_template_override, ...)`
    /// with the model's template `src` (empty when it has none) and the
    /// vocabulary's BOS/EOS texts and add flags, as the newest build does.
    pub fn init(
        src: &str,
        bos: &str,
        eos: &str,
        add_bos: bool,
        add_eos: bool,
    ) -> Result<ChatTemplates, Error> {
        ChatTemplates::init_with_build(src, bos, eos, add_bos, add_eos, changes::Build::NEWEST)
    }

    /// [`ChatTemplates::init`] as `build` does.
    pub fn init_with_build(
        src: &str,
        bos: &str,
        eos: &str,
        add_bos: bool,
        add_eos: bool,
        build: changes::Build,
    ) -> Result<ChatTemplates, Error> {
        let rules = std::rc::Rc::new(changes::Rules::new(build));
        ChatTemplates::init_with_rules(src, bos, eos, add_bos, add_eos, rules)
    }

    /// [`ChatTemplates::init`] as `rules`' build does, noting there the rows
    /// consulted (the caller keeps them when loading fails).
    pub fn init_with_rules(
        src: &str,
        bos: &str,
        eos: &str,
        add_bos: bool,
        add_eos: bool,
        rules: std::rc::Rc<changes::Rules>,
    ) -> Result<ChatTemplates, Error> {
        ChatTemplates::init_with_tool_use(src, "", bos, eos, add_bos, add_eos, rules)
    }

    /// [`ChatTemplates::init_with_rules`] for a model that also has a
    /// `tool_use` template (`tool_use_src`, empty when it has none): it is
    /// the default template too when the model has no other (or `chatml`),
    /// and a template that does not parse is ignored.
    pub fn init_with_tool_use(
        src: &str,
        tool_use_src: &str,
        bos: &str,
        eos: &str,
        add_bos: bool,
        add_eos: bool,
        rules: std::rc::Rc<changes::Rules>,
    ) -> Result<ChatTemplates, Error> {
        let mut src = src.to_string();
        if src.is_empty() || src == "chatml" {
            src = if tool_use_src.is_empty() {
                CHATML_TEMPLATE_SRC
            } else {
                tool_use_src
            }
            .to_string();
        }
        if src.contains("<|channel|>") && src.contains("in message.content or") {
            src = src.replace(
                "{%- if \"<|channel|>analysis<|message|>\" in message.content or \"<|channel|>final<|message|>\" in message.content %}",
                "{%- if false %}",
            );
        }
        if src.contains("[TOOL_CALLS]") && src.contains("if (message['content'] is none or") {
            src = src.replace(
                "{%- if (message['content'] is none or message['content'] == '' or message['content']|length == 0) and (message['tool_calls'] is not defined or message['tool_calls'] is none or message['tool_calls']|length == 0) %}",
                "{%- if false %}",
            );
        }
        let default = Template::with_rules(&src, bos, eos, rules.clone())?;
        let tool_use = (!tool_use_src.is_empty())
            .then(|| Template::with_rules(tool_use_src, bos, eos, rules).ok())
            .flatten();
        Ok(ChatTemplates {
            add_bos,
            add_eos,
            default,
            tool_use,
        })
    }

    /// The template a request renders with (`common_chat_templates_apply`):
    /// the `tool_use` one when the request has tools and the model has it.
    pub fn for_tools(&self, has_tools: bool) -> &Template {
        match &self.tool_use {
            Some(t) if has_tools => t,
            _ => &self.default,
        }
    }

    /// `common_chat_templates_get_caps`: the capabilities llama-server
    /// reads (e.g. the default of `parallel_tool_calls`).
    pub fn server_caps(&self) -> &jinja::Caps {
        match &self.tool_use {
            Some(t)
                if self
                    .default
                    .rules()
                    .on(&changes::llamacpp::CAPS_TOOL_USE_TEMPLATE) =>
            {
                t.caps()
            }
            _ => self.default.caps(),
        }
    }
}

/// `messages_inp_normalizer::normalize`: string content made typed for a
/// template that reads only typed content, typed content joined for one
/// that reads only strings.
pub(crate) fn normalize_messages(caps: &jinja::Caps, messages: &Json) -> Json {
    let only_string = caps.supports_string_content && !caps.supports_typed_content;
    let only_typed = !caps.supports_string_content && caps.supports_typed_content;
    let Json::Array(list) = messages else {
        return messages.clone();
    };
    if !only_string && !only_typed {
        return messages.clone();
    }
    let mut out = Vec::with_capacity(list.len());
    for msg in list {
        let mut copy = msg.clone();
        if let Some(Json::Object(o)) = Some(&mut copy) {
            if let Some(it) = o.get_mut("content") {
                if only_typed {
                    if let Json::String(s) = it {
                        let mut part = Map::new();
                        part.insert("type".into(), Json::String("text".into()));
                        part.insert("text".into(), Json::String(std::mem::take(s)));
                        *it = Json::Array(vec![Json::Object(part)]);
                    }
                } else if let Json::Array(parts) = it {
                    let joined = crate::msg::concat_parts(parts.iter().map(|p| {
                        (
                            p.get("type").and_then(Json::as_str).unwrap_or(""),
                            p.get("text").and_then(Json::as_str).unwrap_or(""),
                        )
                    }));
                    *it = Json::String(joined);
                }
            }
        }
        out.push(copy);
    }
    Json::Array(out)
}

/// nlohmann's `empty()`: null, `[]` and `{}` are empty, any other value is not.
pub(crate) fn json_empty(j: &Json) -> bool {
    match j {
        Json::Null => true,
        Json::Array(a) => a.is_empty(),
        Json::Object(o) => o.is_empty(),
        _ => false,
    }
}

/// `common_chat_template_direct_apply_impl`.
pub fn direct_apply(
    tmpl: &Template,
    inputs: &GenParams,
    messages_override: Option<&Json>,
    tools_override: Option<&Json>,
    additional_context: Option<&Json>,
) -> Result<String, Error> {
    let mut inp = Map::new();
    inp.insert(
        "messages".into(),
        match messages_override {
            Some(m) => m.clone(),
            None => {
                let normalized = normalize_messages(tmpl.caps(), &inputs.messages);
                // before: the messages as given (the row is consulted only
                // where normalizing changes them)
                if normalized == inputs.messages
                    || tmpl
                        .rules()
                        .on(&changes::llamacpp::DIRECT_APPLY_NORMALIZES_MESSAGES)
                {
                    normalized
                } else {
                    inputs.messages.clone()
                }
            }
        },
    );
    inp.insert("bos_token".into(), Json::String(tmpl.bos.clone()));
    inp.insert("eos_token".into(), Json::String(tmpl.eos.clone()));
    inp.insert("enable_thinking".into(), Json::Bool(inputs.enable_thinking));
    if tools_override.is_some() || !json_empty(&inputs.tools) {
        inp.insert(
            "tools".into(),
            tools_override
                .cloned()
                .unwrap_or_else(|| inputs.tools.clone()),
        );
    }
    if let Json::Object(extra) = &inputs.extra_context {
        for (k, v) in extra {
            inp.insert(k.clone(), v.clone());
        }
    }
    if let Some(Json::Object(add)) = additional_context {
        for (k, v) in add {
            inp.insert(k.clone(), v.clone());
        }
    }
    if inputs.add_generation_prompt {
        inp.insert("add_generation_prompt".into(), Json::Bool(true));
    }
    // before `preserve_reasoning_kwarg` it is only a variable of that name
    let preserve = inp
        .get("preserve_reasoning")
        .and_then(Json::as_bool)
        .filter(|_| {
            tmpl.rules()
                .on(&changes::llamacpp::PRESERVE_REASONING_KWARG)
        });
    // before `reasoning_strength_alias` the template sees reasoning_effort
    // only as given (no reasoning_strength beside it)
    let effort = inp
        .get("reasoning_effort")
        .and_then(Json::as_str)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .filter(|_| {
            tmpl.rules()
                .on(&changes::llamacpp::REASONING_STRENGTH_ALIAS)
        });
    let globals = Json::Object(inp);
    let mut result = tmpl.execute(
        &globals,
        preserve,
        effort.as_deref(),
        inputs.now,
        inputs.mark_input,
    )?;
    if inputs.add_bos && result.starts_with(tmpl.bos_token()) {
        result.drain(..tmpl.bos.len());
    }
    if inputs.add_eos && result.ends_with(tmpl.eos_token()) {
        result.truncate(result.len() - tmpl.eos.len());
    }
    Ok(result)
}

/// `common_chat_template_generation_prompt_impl`: what rendering with
/// `add_generation_prompt` adds, as the tail after the common prefix.
pub fn generation_prompt(
    tmpl: &Template,
    inputs: &GenParams,
    messages_override: Option<&Json>,
    tools_override: Option<&Json>,
    additional_context: Option<&Json>,
) -> Result<String, Error> {
    let mut params = inputs.clone();
    params.add_generation_prompt = false;
    params.continue_final_message = crate::Continuation::None;
    let no_gen = direct_apply(
        tmpl,
        &params,
        messages_override,
        tools_override,
        additional_context,
    )?;
    params.add_generation_prompt = true;
    let gen = direct_apply(
        tmpl,
        &params,
        messages_override,
        tools_override,
        additional_context,
    )?;
    let a = no_gen.as_bytes();
    let b = gen.as_bytes();
    let mut n = 0;
    while n < a.len().min(b.len()) && a[n] == b[n] {
        n += 1;
    }
    Ok(String::from_utf8_lossy(&b[n..]).into_owned())
}
