//! The model side: what a local Ollama model provides (Modelfile TEMPLATE,
//! SYSTEM, MESSAGE lines, RENDERER, PARSER, family, extra capabilities, the
//! GGUF chat template), model names as Ollama formats them, template
//! selection (server/routes.go, server/images.go) and capabilities.

use crate::api;
use crate::date::Date;
use crate::template::Template;

/// What the local model provides.
#[derive(Clone, Debug, Default)]
pub struct Model {
    /// Model name as written (`llama3.2`, `myorg/m:8b`).
    pub name: String,
    /// Modelfile `TEMPLATE` (Go text/template); `None` = no template layer.
    pub template: Option<String>,
    /// Modelfile `SYSTEM`.
    pub system: String,
    /// Modelfile `MESSAGE` lines.
    pub messages: Vec<api::Message>,
    /// Modelfile `RENDERER`.
    pub renderer: String,
    /// Modelfile `PARSER`.
    pub parser: String,
    /// `config.model_family`.
    pub family: String,
    /// `config.model_families` (e.g. `mllama`).
    pub families: Vec<String>,
    /// Extra capabilities from the config (`tools`, `thinking`, `insert`, `vision`).
    pub capabilities: Vec<String>,
    /// The GGUF's `tokenizer.chat_template` (Jinja), if any.
    pub chat_template: Option<String>,
    /// The GGUF's `tokenizer.chat_template.tool_use`, if any: llama-server
    /// renders requests with tools with it (and with nothing else, it is
    /// the default template too). Ollama's Go side never reads it.
    pub chat_template_tool_use: Option<String>,
    /// The template Ollama's `llama/compat` layer gives llama-server when
    /// the GGUF has none (Ollama-format gemma3 files: `handle_gemma3`).
    /// Ollama's Go side never sees it; native chats render with it.
    pub compat_chat_template: Option<String>,
    /// The vocabulary's BOS token text, as native templates see `bos_token`.
    pub bos_token: String,
    /// The vocabulary's EOS token text, as native templates see `eos_token`.
    pub eos_token: String,
    /// Whether the vocabulary adds BOS (a leading `bos_token` is then
    /// stripped from a native render); false without a GGUF.
    pub add_bos: bool,
    /// Whether the vocabulary adds EOS.
    pub add_eos: bool,
    /// Facts read from the model's GGUF, when one is given.
    pub gguf: Option<GgufFacts>,
    /// Whether the model has a vision projector (images cost 768 tokens each
    /// when truncating).
    pub has_projector: bool,
}

/// What Ollama reads from a GGUF besides the chat template
/// (`ggufCapabilities`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GgufFacts {
    /// `general.architecture`.
    pub architecture: String,
    /// `pooling_type` is present: an embedding model.
    pub pooling: bool,
    /// `vision.block_count` is present.
    pub vision: bool,
    /// `audio.block_count` is present.
    pub audio: bool,
    /// `<arch>.context_length`: the training context, which caps `num_ctx`.
    pub context_length: Option<u64>,
    /// `<arch>.attention.sliding_window`: the window of a model with
    /// sliding-window attention, which decides what llama-server's cache
    /// can reuse (`slot::Memory`).
    pub sliding_window: Option<u64>,
    /// `<arch>.block_count` (a loader may decide the window by it).
    pub block_count: Option<u64>,
}

/// A model name (types/model/name.go `Name`): host, namespace, model, tag
/// and the protocol scheme a `scheme://host/...` name gave.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Name {
    /// Host, e.g. `registry.ollama.ai`.
    pub host: String,
    /// Namespace, e.g. `library`.
    pub namespace: String,
    /// Model.
    pub model: String,
    /// Tag, e.g. `latest`.
    pub tag: String,
    /// Protocol scheme, e.g. `https`.
    pub scheme: String,
}

/// `MissingPart`: a part a separator promised but that is empty.
pub const MISSING_PART: &str = "!MISSING!";

const DEFAULT_HOST: &str = "registry.ollama.ai";
const DEFAULT_NAMESPACE: &str = "library";
const DEFAULT_TAG: &str = "latest";

fn cut_promised<'a>(s: &'a str, sep: &str) -> (&'a str, &'a str, bool) {
    match s.rfind(sep) {
        Some(i) => {
            let (b, a) = (&s[..i], &s[i + sep.len()..]);
            (
                if b.is_empty() { MISSING_PART } else { b },
                if a.is_empty() { MISSING_PART } else { a },
                true,
            )
        }
        None => (s, "", false),
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Part {
    Host,
    Namespace,
    Model,
    Tag,
}

/// `isValidPart`: 1 to 80 bytes (350 for the host), a letter, digit or
/// `_` first, then also `-` and `_`, `.` except in a namespace, `:` only in
/// the host.
fn is_valid_part(kind: Part, s: &str) -> bool {
    let max = if kind == Part::Host { 350 } else { 80 };
    if s.is_empty() || s.len() > max {
        return false;
    }
    let alnum = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    s.bytes().enumerate().all(|(i, c)| match c {
        _ if i == 0 => alnum(c),
        b'_' | b'-' => true,
        b'.' => kind != Part::Namespace,
        b':' => kind == Part::Host,
        _ => alnum(c),
    })
}

impl Name {
    /// `model.ParseName`: [`Name::parse_bare`] with the defaults
    /// `registry.ollama.ai`, `library`, `latest` and `https` filled in.
    pub fn parse(s: &str) -> Name {
        Name::parse_bare(s).merge(&Name {
            host: DEFAULT_HOST.into(),
            namespace: DEFAULT_NAMESPACE.into(),
            tag: DEFAULT_TAG.into(),
            scheme: "https".into(),
            ..Name::default()
        })
    }

    /// `model.ParseNameBare`: the parts as written.
    pub fn parse_bare(s: &str) -> Name {
        let mut n = Name::default();
        let mut s = s;
        if s.rfind(':').map(|i| i as isize).unwrap_or(-1)
            > s.rfind('/').map(|i| i as isize).unwrap_or(-1)
        {
            let (rest, tag, _) = cut_promised(s, ":");
            s = rest;
            n.tag = tag.to_string();
        }
        let (rest, model, promised) = cut_promised(s, "/");
        if !promised {
            n.model = s.to_string();
            return n;
        }
        n.model = model.to_string();
        let (rest2, ns, promised) = cut_promised(rest, "/");
        if !promised {
            n.namespace = rest.to_string();
            return n;
        }
        n.namespace = ns.to_string();
        match rest2.split_once("://") {
            Some((scheme, host)) => {
                n.scheme = scheme.to_string();
                n.host = host.to_string();
            }
            None => n.host = rest2.to_string(),
        }
        n
    }

    /// `model.Merge`: this name's host, namespace, tag and scheme, else
    /// `b`'s.
    pub fn merge(mut self, b: &Name) -> Name {
        for (a, b) in [
            (&mut self.host, &b.host),
            (&mut self.namespace, &b.namespace),
            (&mut self.tag, &b.tag),
            (&mut self.scheme, &b.scheme),
        ] {
            if a.is_empty() {
                a.clone_from(b);
            }
        }
        self
    }

    /// `IsValid` (= `IsFullyQualified`): every part present and valid.
    pub fn is_valid(&self) -> bool {
        is_valid_part(Part::Host, &self.host)
            && is_valid_part(Part::Namespace, &self.namespace)
            && is_valid_part(Part::Model, &self.model)
            && is_valid_part(Part::Tag, &self.tag)
    }

    /// `DisplayShortest`: host and namespace only where they are not the
    /// defaults (compared without case), then `model:tag`.
    pub fn display_shortest(&self) -> String {
        let mut s = String::new();
        if !self.host.eq_ignore_ascii_case(DEFAULT_HOST) {
            s.push_str(&format!("{}/{}/", self.host, self.namespace));
        } else if !self.namespace.eq_ignore_ascii_case(DEFAULT_NAMESPACE) {
            s.push_str(&format!("{}/", self.namespace));
        }
        s.push_str(&format!("{}:{}", self.model, self.tag));
        s
    }

    /// `Filepath`: `host/namespace/model/tag`, for a valid name only (the
    /// parts' characters cannot leave the folder: no `/`, no part starting
    /// with `.`).
    pub fn filepath(&self) -> Option<String> {
        self.is_valid().then(|| {
            format!(
                "{}/{}/{}/{}",
                self.host, self.namespace, self.model, self.tag
            )
        })
    }

    /// `ParseNameFromFilepath`: four `/`-separated parts that make a valid
    /// name, else the empty name.
    pub fn from_filepath(s: &str) -> Name {
        let parts: Vec<&str> = s.split('/').collect();
        let [host, namespace, model, tag] = parts[..] else {
            return Name::default();
        };
        let n = Name {
            host: host.into(),
            namespace: namespace.into(),
            model: model.into(),
            tag: tag.into(),
            scheme: String::new(),
        };
        if n.is_valid() {
            n
        } else {
            Name::default()
        }
    }

    /// `EqualFold`: host, namespace, model and tag equal without case
    /// (Unicode simple folding, as Go's `strings.EqualFold`).
    pub fn equal_fold(&self, o: &Name) -> bool {
        let fold = |a: &str, b: &str| {
            a.chars().count() == b.chars().count()
                && a.chars().zip(b.chars()).all(|(x, y)| {
                    x == y
                        || x.to_lowercase().eq(y.to_lowercase())
                        || x.to_uppercase().eq(y.to_uppercase())
                })
        };
        fold(&self.host, &o.host)
            && fold(&self.namespace, &o.namespace)
            && fold(&self.model, &o.model)
            && fold(&self.tag, &o.tag)
    }
}

impl std::fmt::Display for Name {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if !self.host.is_empty() {
            write!(f, "{}/", self.host)?;
        }
        if !self.namespace.is_empty() {
            write!(f, "{}/", self.namespace)?;
        }
        f.write_str(&self.model)?;
        if !self.tag.is_empty() {
            write!(f, ":{}", self.tag)?;
        }
        Ok(())
    }
}

/// Which prompt path Ollama selects (`selectedTemplateSource`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// Renderer and parser both set.
    RendererParser,
    /// Renderer set.
    Renderer,
    /// Parser set (the Go template renders).
    Parser,
    /// gpt-oss harmony (the Go template renders).
    Harmony,
    /// The Modelfile Go TEMPLATE.
    GoTemplate,
    /// The GGUF chat template, rendered by llama-server (native mode).
    GgufChatTemplate,
    /// Nothing: Ollama's default `{{ .Prompt }}`.
    None,
}

impl Source {
    /// The label Ollama logs (`selected=`).
    pub fn label(self) -> &'static str {
        match self {
            Source::RendererParser => "renderer_parser",
            Source::Renderer => "renderer",
            Source::Parser => "parser",
            Source::Harmony => "harmony",
            Source::GoTemplate => "go_template",
            Source::GgufChatTemplate => "gguf_chat_template",
            Source::None => "none",
        }
    }
}

/// The `OLLAMA_GO_TEMPLATE` setting.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum GoTemplateEnv {
    /// Unset (the default).
    #[default]
    Unset,
    /// Set to a value Go's `strconv.ParseBool` reads as true, or unparsable.
    True,
    /// Set to a value read as false.
    False,
}

impl GoTemplateEnv {
    /// `envconfig.BoolWithDefault`: empty is unset; an unparsable value counts as true.
    pub fn from_env_value(v: Option<&str>) -> GoTemplateEnv {
        // envconfig.Var: trimmed of spaces, then of quotes.
        match v.map(|s| s.trim().trim_matches(|c| c == '"' || c == '\'')) {
            None | Some("") => GoTemplateEnv::Unset,
            Some("0" | "f" | "F" | "false" | "FALSE" | "False") => GoTemplateEnv::False,
            // "1", "t", "true"... and anything unparsable.
            Some(_) => GoTemplateEnv::True,
        }
    }
}

/// A model with its parsed template and the selection facts.
#[derive(Clone, Debug)]
pub struct Loaded {
    /// The model as given.
    pub model: Model,
    /// Fully qualified name (`m.Name`).
    pub full_name: String,
    /// `m.Template`: the Modelfile template or the default `{{ .Prompt }}`.
    pub template: Template,
    /// Whether the model has a Go template layer.
    pub has_go_template: bool,
    /// The env setting.
    pub env: GoTemplateEnv,
    /// Why the template selection came out as it did.
    pub selection_rule: String,
    /// The Ollama release whose selection rules apply.
    pub release: changes::Release,
}

/// A capability and where it came from.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Capability {
    /// `completion`, `tools`, `thinking`, `insert`, `vision`, ...
    pub name: String,
    /// What turned it on.
    pub origin: String,
}

fn add_cap(caps: &mut Vec<Capability>, name: &str, origin: String) {
    if !caps.iter().any(|c| c.name == name) {
        caps.push(Capability {
            name: name.to_string(),
            origin,
        });
    }
}

/// `chatTemplateHasToolSupport`.
pub fn chat_template_has_tools(t: &str) -> bool {
    t.contains("tools") || t.contains("tool_call")
}

/// `chatTemplateHasToolRoundTrip`.
pub fn chat_template_has_tool_round_trip(t: &str) -> bool {
    if !chat_template_has_tools(t) {
        return false;
    }
    let calls = t.contains("tool_calls") || t.contains("assistant_tool_call");
    calls
        && [
            "tool_response",
            "tool_results",
            "role'] == 'tool'",
            "role'] == \"tool\"",
            "role\"] == 'tool'",
            "role\"] == \"tool\"",
            "message.role == 'tool'",
            "message.role == \"tool\"",
            "ipython",
        ]
        .iter()
        .any(|s| t.contains(s))
}

/// `chatTemplateHasThinkingSupport`.
pub fn chat_template_has_thinking(t: &str) -> bool {
    if t.contains("<think>") && t.contains("</think>") {
        return true;
    }
    (t.contains("content.split('</think>')") || t.contains("content.split(\"</think>\")"))
        && !t.contains("reasoning_content")
        && !t.contains("<SPECIAL_12>")
}

/// Capabilities of a GGUF chat template, with the substring that turned each on.
pub fn chat_template_capabilities(t: &str) -> Vec<Capability> {
    let mut caps = Vec::new();
    if t.is_empty() {
        return caps;
    }
    if chat_template_has_tools(t) {
        let why = if t.contains("tools") {
            "tools"
        } else {
            "tool_call"
        };
        add_cap(
            &mut caps,
            "tools",
            format!("GGUF chat template contains {why:?}"),
        );
    }
    if chat_template_has_thinking(t) {
        add_cap(
            &mut caps,
            "thinking",
            "GGUF chat template has <think> tags or splits on </think>".into(),
        );
    }
    caps
}

/// `goTemplateCapabilities`, with origins.
pub fn go_template_capabilities(t: &Template) -> Vec<Capability> {
    let mut caps = Vec::new();
    if t.has_var("tools") {
        add_cap(&mut caps, "tools", "template uses .Tools".into());
    }
    if t.has_var("suffix") {
        add_cap(&mut caps, "insert", "template uses .Suffix".into());
    }
    let (open, close) = t.infer_tags();
    if !open.is_empty() && !close.is_empty() {
        add_cap(
            &mut caps,
            "thinking",
            format!("template shows .Thinking between {open} and {close} inside range .Messages"),
        );
    }
    caps
}

/// `goTemplateHasToolRoundTrip`.
pub fn go_template_has_tool_round_trip(t: &Template) -> bool {
    t.has_var("tools")
        && t.has_var("toolcalls")
        && (t.contains("eq .Role \"tool\"")
            || t.contains("tool_response")
            || t.contains("TOOL_RESULTS"))
}

fn same_caps(a: &[Capability], b: &[Capability]) -> bool {
    a.len() == b.len() && a.iter().all(|c| b.iter().any(|d| d.name == c.name))
}

fn has(caps: &[Capability], name: &str) -> bool {
    caps.iter().any(|c| c.name == name)
}

/// `shouldPreferChatTemplate`, with the reason, as the newest release
/// decides it.
pub fn should_prefer_chat_template(chat: &str, go: &Template) -> (bool, String) {
    should_prefer_chat_template_in(
        chat,
        go,
        &changes::Rules::of_release(changes::Release::NEWEST),
    )
}

/// `shouldPreferChatTemplate` under a release's `rules` (the tie-break on
/// a tool round trip is `prefer_chat_template_tool_round_trip`), with the
/// reason.
pub fn should_prefer_chat_template_in(
    chat: &str,
    go: &Template,
    rules: &changes::Rules,
) -> (bool, String) {
    let chat_caps = chat_template_capabilities(chat);
    let go_caps = go_template_capabilities(go);
    let names = |c: &[Capability]| {
        if c.is_empty() {
            return "none".to_string();
        }
        c.iter()
            .map(|c| c.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    if chat_caps.len() > go_caps.len() {
        let go_rt = go_template_has_tool_round_trip(go);
        let chat_rt = chat_template_has_tool_round_trip(chat);
        let prefer = !go_rt || chat_rt;
        return (
            prefer,
            format!(
                "the GGUF chat template can do more than the Go TEMPLATE (GGUF: {}; Go: {}){}",
                names(&chat_caps),
                names(&go_caps),
                if prefer {
                    String::new()
                } else {
                    "; but only the Go template has a tool round trip".into()
                }
            ),
        );
    }
    if !same_caps(&chat_caps, &go_caps) || !has(&chat_caps, "tools") || !has(&go_caps, "tools") {
        return (
            false,
            format!(
                "the GGUF chat template can do nothing more than the Go TEMPLATE (GGUF: {}; Go: {})",
                names(&chat_caps),
                names(&go_caps)
            ),
        );
    }
    let round_trip =
        chat_template_has_tool_round_trip(chat) && !go_template_has_tool_round_trip(go);
    if !rules.on(&changes::ollama::PREFER_CHAT_TEMPLATE_TOOL_ROUND_TRIP) {
        return (
            false,
            format!(
                "the GGUF chat template can do nothing more than the Go TEMPLATE (GGUF: {}; Go: {}), and this release keeps the Go TEMPLATE on a tie{}",
                names(&chat_caps),
                names(&go_caps),
                if round_trip {
                    " even where only the GGUF chat template has a tool round trip"
                } else {
                    ""
                }
            ),
        );
    }
    (
        round_trip,
        if round_trip {
            "same capabilities with tools; only the GGUF chat template has a tool round trip".into()
        } else {
            "same capabilities with tools; the GGUF chat template has no better tool round trip"
                .into()
        },
    )
}

impl Loaded {
    /// `GetModel`: parses the template layer (or uses the default); the
    /// newest release's selection.
    pub fn load(model: &Model, env: GoTemplateEnv, today: Date) -> Result<Loaded, String> {
        Loaded::load_in(model, env, today, changes::Release::NEWEST)
    }

    /// [`Loaded::load`] as `release` selects.
    pub fn load_in(
        model: &Model,
        env: GoTemplateEnv,
        today: Date,
        release: changes::Release,
    ) -> Result<Loaded, String> {
        let has_go_template = model.template.is_some();
        let template =
            Template::parse(model.template.as_deref().unwrap_or("{{ .Prompt }}"), today)?;
        let mut l = Loaded {
            full_name: Name::parse(&model.name).to_string(),
            model: model.clone(),
            template,
            has_go_template,
            env,
            selection_rule: String::new(),
            release,
        };
        l.selection_rule = l.explain_selection();
        Ok(l)
    }

    /// `shouldUseHarmony`.
    pub fn uses_harmony(&self) -> bool {
        matches!(self.model.family.as_str(), "gptoss" | "gpt-oss")
            && self.template.contains("<|start|>")
            && self.template.contains("<|end|>")
    }

    fn chat_template(&self) -> &str {
        self.model.chat_template.as_deref().unwrap_or("")
    }

    /// `PreferChatTemplate`.
    pub fn prefer_chat_template(&self) -> bool {
        self.env == GoTemplateEnv::Unset
            && self.has_go_template
            && !self.chat_template().is_empty()
            && self.model.renderer.is_empty()
            && self.model.parser.is_empty()
            && !self.uses_harmony()
            && self.prefer(&changes::Rules::of_release(self.release)).0
    }

    /// `shouldPreferChatTemplate` for this model and release.
    fn prefer(&self, rules: &changes::Rules) -> (bool, String) {
        should_prefer_chat_template_in(self.chat_template(), &self.template, rules)
    }

    /// The release rows the template selection consulted (the tie-break
    /// when both templates have the same capabilities with tools).
    pub fn selection_rules(&self) -> changes::Rules {
        let rules = changes::Rules::of_release(self.release);
        if self.env == GoTemplateEnv::Unset
            && self.has_go_template
            && !self.chat_template().is_empty()
            && self.model.renderer.is_empty()
            && self.model.parser.is_empty()
            && !self.uses_harmony()
        {
            self.prefer(&rules);
        }
        rules
    }

    /// `shouldUseGoTemplate`.
    pub fn uses_go_template(&self) -> bool {
        if !self.has_go_template {
            return false;
        }
        match self.env {
            GoTemplateEnv::True => true,
            GoTemplateEnv::False => false,
            GoTemplateEnv::Unset => !self.prefer_chat_template(),
        }
    }

    /// `usesOllamaRenderedChat`.
    pub fn ollama_renders(&self) -> bool {
        !self.model.renderer.is_empty()
            || !self.model.parser.is_empty()
            || self.uses_harmony()
            || self.uses_go_template()
    }

    /// Whether `/api/generate`'s chat-like flow renders natively (the GGUF
    /// has a chat template and Ollama does not render: routes.go's
    /// `m.HasChatTemplate && chatModeForModel(m) == native`).
    pub fn native(&self) -> bool {
        !self.ollama_renders() && !self.chat_template().is_empty()
    }

    /// Whether `/api/chat` goes to llama-server (`chatModeForModel`):
    /// whenever Ollama does not render, with or without a GGUF chat
    /// template. Without one, llama-server renders with what it loaded
    /// instead ([`Loaded::server_chat_template`]).
    pub fn native_chat(&self) -> bool {
        !self.ollama_renders()
    }

    /// The template llama-server renders native chats with: the GGUF's,
    /// else the one Ollama's compat layer injected, else empty (llama.cpp
    /// falls back to ChatML).
    pub fn server_chat_template(&self) -> &str {
        match self.chat_template() {
            "" => self.model.compat_chat_template.as_deref().unwrap_or(""),
            t => t,
        }
    }

    /// `selectedTemplateSource`.
    pub fn source(&self) -> Source {
        let m = &self.model;
        if !m.renderer.is_empty() && !m.parser.is_empty() {
            Source::RendererParser
        } else if !m.renderer.is_empty() {
            Source::Renderer
        } else if !m.parser.is_empty() {
            Source::Parser
        } else if self.uses_harmony() {
            Source::Harmony
        } else if self.uses_go_template() {
            Source::GoTemplate
        } else if !self.chat_template().is_empty() {
            Source::GgufChatTemplate
        } else {
            Source::None
        }
    }

    fn explain_selection(&self) -> String {
        let m = &self.model;
        if !m.renderer.is_empty() && !m.parser.is_empty() {
            return format!(
                "RENDERER {} and PARSER {} are set: the built-in renderer writes the prompt",
                m.renderer, m.parser
            );
        }
        if !m.renderer.is_empty() {
            return format!(
                "RENDERER {} is set: the built-in renderer writes the prompt; TEMPLATE is ignored",
                m.renderer
            );
        }
        if !m.parser.is_empty() {
            return format!(
                "PARSER {} is set: Ollama renders with the Go template and parses output with {}",
                m.parser, m.parser
            );
        }
        if self.uses_harmony() {
            return "family gptoss and the template contains <|start|> and <|end|>: harmony mode (Go template, harmony parser)".into();
        }
        if !self.has_go_template {
            return if self.chat_template().is_empty() {
                self.no_template_rule("no TEMPLATE and no GGUF chat template")
            } else {
                "no TEMPLATE: llama-server renders the GGUF chat template (native mode)".into()
            };
        }
        match self.env {
            GoTemplateEnv::True => {
                "OLLAMA_GO_TEMPLATE is true (or unparsable): the Go TEMPLATE is used".into()
            }
            GoTemplateEnv::False => {
                if self.chat_template().is_empty() {
                    self.no_template_rule(
                        "OLLAMA_GO_TEMPLATE is false and there is no GGUF chat template",
                    )
                } else {
                    "OLLAMA_GO_TEMPLATE is false: the GGUF chat template is used (native mode)"
                        .into()
                }
            }
            GoTemplateEnv::Unset => {
                if self.chat_template().is_empty() {
                    "the model has a Go TEMPLATE and no GGUF chat template".into()
                } else {
                    let (prefer, why) = self.prefer(&changes::Rules::of_release(self.release));
                    if prefer {
                        format!("OLLAMA_GO_TEMPLATE unset and {why}: the GGUF chat template is preferred")
                    } else {
                        format!("OLLAMA_GO_TEMPLATE unset and {why}: the Go TEMPLATE is kept")
                    }
                }
            }
        }
    }

    /// Where the prompt comes from when neither the Go side nor the GGUF
    /// has a template.
    fn no_template_rule(&self, why: &str) -> String {
        let server = if self.model.compat_chat_template.is_some() {
            "the Gemma 3 template Ollama's compat layer gives this Ollama-format gemma3 file"
        } else if self.model.chat_template_tool_use.is_some() {
            "the GGUF's tool_use template (tokenizer.chat_template.tool_use), its default when the model has no other"
        } else {
            "its fallback, ChatML"
        };
        format!(
            "{why}: /api/chat goes to llama-server, which renders with {server}; /api/generate uses Ollama's default {{{{ .Prompt }}}}"
        )
    }

    /// `Model.Capabilities()`, with where each came from.
    pub fn capabilities(
        &self,
        parser_caps: impl Fn(&str) -> Option<(bool, bool)>,
    ) -> Vec<Capability> {
        let m = &self.model;
        let mut caps = Vec::new();
        for c in &m.capabilities {
            add_cap(&mut caps, c, "model configuration".into());
        }
        if !self.ollama_renders() {
            for c in chat_template_capabilities(self.chat_template()) {
                add_cap(&mut caps, &c.name, c.origin);
            }
        }
        match &m.gguf {
            None => add_cap(&mut caps, "completion", "every generative model".into()),
            Some(g) => {
                if g.pooling {
                    add_cap(
                        &mut caps,
                        "embedding",
                        "the GGUF is an embedding model (it has pooling_type)".into(),
                    );
                } else {
                    add_cap(
                        &mut caps,
                        "completion",
                        "the GGUF is not an embedding model (it has no pooling_type)".into(),
                    );
                }
                if g.vision {
                    add_cap(&mut caps, "vision", "GGUF has vision.block_count".into());
                }
                if g.audio {
                    add_cap(&mut caps, "audio", "GGUF has audio.block_count".into());
                }
            }
        }
        if m.has_projector {
            add_cap(&mut caps, "vision", "vision projector".into());
        }
        if !self.has_go_template || self.uses_go_template() {
            for c in go_template_capabilities(&self.template) {
                add_cap(&mut caps, &c.name, c.origin);
            }
        }
        if let Some((tools, thinking)) = parser_caps(&m.parser) {
            if tools {
                add_cap(&mut caps, "tools", format!("parser {}", m.parser));
            }
            if thinking {
                add_cap(&mut caps, "thinking", format!("parser {}", m.parser));
            }
        }
        if matches!(m.family.as_str(), "gptoss" | "gpt-oss") {
            add_cap(&mut caps, "thinking", "family gptoss".into());
        }
        // filterUnsupportedCapabilities: llama.cpp cannot load Nemotron 3's
        // audio projector safely, so Ollama does not offer audio for it
        // (its safetensors rules do not apply to GGUF models).
        let omni = "nemotron_h_omni";
        if m.gguf.as_ref().is_some_and(|g| g.architecture == omni)
            || m.family == omni
            || m.families.iter().any(|f| f == omni)
        {
            caps.retain(|c| c.name != "audio");
        }
        caps
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        let cases = [
            ("demo", "registry.ollama.ai/library/demo:latest"),
            (
                "myorg/llama-custom:8b-q4",
                "registry.ollama.ai/myorg/llama-custom:8b-q4",
            ),
            (
                "registry.example.com/team/model:v2",
                "registry.example.com/team/model:v2",
            ),
            ("Demo:Latest", "registry.ollama.ai/library/Demo:Latest"),
            ("hf.co/org/repo:Q4_K_M", "hf.co/org/repo:Q4_K_M"),
            ("https://h.example/a/b", "h.example/a/b:latest"),
        ];
        for (input, want) in cases {
            assert_eq!(Name::parse(input).to_string(), want);
        }
        assert_eq!(Name::parse("deepseek-r1:7b").model, "deepseek-r1");
    }

    #[test]
    fn env_values() {
        assert_eq!(GoTemplateEnv::from_env_value(None), GoTemplateEnv::Unset);
        assert_eq!(
            GoTemplateEnv::from_env_value(Some("0")),
            GoTemplateEnv::False
        );
        assert_eq!(
            GoTemplateEnv::from_env_value(Some("TRUE")),
            GoTemplateEnv::True
        );
        assert_eq!(
            GoTemplateEnv::from_env_value(Some("maybe")),
            GoTemplateEnv::True
        );
    }
}
