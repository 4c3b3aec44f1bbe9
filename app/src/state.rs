//! Everything the user edits, and its JSON forms.
//!
//! The JSON shape extends the render case of `shared/spec/cli.md`, so an
//! exported state can be piped into `promptscope render`:
//!
//! ```json
//! {"promptscope": 1, "endpoint": "chat",
//!  "model": {"template": "...", "system": "...", "messages": [...], "renderer": "",
//!            "parser": "", "family": "", "capabilities": [], "options": {},
//!            "chat_template": "", "bos_token": "<s>", "eos_token": "</s>"},
//!  "env": {"OLLAMA_GO_TEMPLATE": "true"}, "date": "2025-01-31",
//!  "request": {"model": "demo", "messages": [...]}}
//! ```
//!
//! `model.messages` and `request` may also be strings holding JSON text:
//! that is how the exact text (formatting, or JSON that does not parse yet)
//! travels in share links and local storage. `model.template: null` means
//! the Modelfile has no TEMPLATE. `model.options` holds the model's option
//! defaults (its PARAMETERs, a stored model's params layer); the render
//! case form also merges them under the request's `options` (the request
//! winning key by key, as Ollama's `modelOptions` does), since
//! `promptscope render` reads only the request's. `endpoint` may also name
//! a compatibility route (`openai-chat`, `openai-completions`,
//! `openai-responses`, `anthropic-messages`); `request` is then the body a
//! client sends to that route, and the render case form gives the model's
//! option defaults as `model.parameters` instead (a route's body has no
//! `options`; the engine puts them under what the route converted).
//! The Answer pane's input travels as `"output"` (the model's text) or
//! `"chunks"` (the pieces the runner streamed; in the exact form the JSON
//! text of the array), so an exported state with one is also a case for
//! `promptscope parse`; none is written while the pane is empty.
//! Reading is lenient: a missing key keeps its current value, so a partial
//! state updates only what it names.

use ollama::compat::Route;
use serde_json::{json, Map, Value};

/// Which Ollama endpoint the request goes to: a native one, or one of
/// the compatibility routes, whose body Ollama converts to a native
/// request first (`ollama::compat`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Endpoint {
    /// `/api/chat`
    #[default]
    Chat,
    /// `/api/generate`
    Generate,
    /// `/v1/chat/completions` (OpenAI chat completions)
    OpenAiChat,
    /// `/v1/completions` (OpenAI completions)
    OpenAiCompletions,
    /// `/v1/responses` (OpenAI Responses)
    OpenAiResponses,
    /// `/v1/messages` (Anthropic Messages)
    AnthropicMessages,
    /// `/api/embed`
    Embed,
    /// `/api/embeddings` (the legacy embedding route)
    Embeddings,
    /// `/v1/embeddings` (OpenAI embeddings, handed on to `/api/embed`)
    OpenAiEmbeddings,
}

impl Endpoint {
    /// Every endpoint, in the order the request pane lists them.
    pub const ALL: [Endpoint; 9] = [
        Endpoint::Chat,
        Endpoint::Generate,
        Endpoint::OpenAiChat,
        Endpoint::OpenAiCompletions,
        Endpoint::OpenAiResponses,
        Endpoint::AnthropicMessages,
        Endpoint::Embed,
        Endpoint::Embeddings,
        Endpoint::OpenAiEmbeddings,
    ];

    /// The embedding route, for the three embedding endpoints.
    pub fn embed(self) -> Option<ollama::embed::Route> {
        Some(match self {
            Endpoint::Embed => ollama::embed::Route::Embed,
            Endpoint::Embeddings => ollama::embed::Route::Embeddings,
            Endpoint::OpenAiEmbeddings => ollama::embed::Route::OpenAiEmbeddings,
            _ => return None,
        })
    }

    /// The render case's name: `chat`, `generate`, or a route's
    /// (`openai-chat`, `openai-completions`, `openai-responses`,
    /// `anthropic-messages`).
    pub fn as_str(self) -> &'static str {
        match self {
            Endpoint::Chat => "chat",
            Endpoint::Generate => "generate",
            e => match e.embed() {
                Some(r) => r.name(),
                None => e.route().map_or("chat", Route::name),
            },
        }
    }

    /// The URL path: `/api/chat`, `/api/generate` or the route's `/v1/...`.
    pub fn path(self) -> &'static str {
        match self {
            Endpoint::Chat => "/api/chat",
            Endpoint::Generate => "/api/generate",
            e => match e.embed() {
                Some(r) => r.path(),
                None => e.route().map_or("/api/chat", Route::path),
            },
        }
    }

    /// Parses [`Endpoint::as_str`].
    pub fn parse(s: &str) -> Option<Endpoint> {
        Endpoint::ALL.into_iter().find(|e| e.as_str() == s)
    }

    /// The compatibility route, for the four `/v1` endpoints.
    pub fn route(self) -> Option<Route> {
        Some(match self {
            Endpoint::Chat
            | Endpoint::Generate
            | Endpoint::Embed
            | Endpoint::Embeddings
            | Endpoint::OpenAiEmbeddings => return None,
            Endpoint::OpenAiChat => Route::OpenAiChat,
            Endpoint::OpenAiCompletions => Route::OpenAiCompletions,
            Endpoint::OpenAiResponses => Route::OpenAiResponses,
            Endpoint::AnthropicMessages => Route::AnthropicMessages,
        })
    }

    /// The native endpoint the request ends up at: itself, or where the
    /// route hands its converted request.
    pub fn native(self) -> Endpoint {
        match self.route().map(Route::native) {
            None => self,
            Some(ollama::server::Endpoint::Generate) => Endpoint::Generate,
            Some(ollama::server::Endpoint::Chat) => Endpoint::Chat,
        }
    }

    /// The engine's native endpoint for [`Endpoint::native`].
    pub fn server(self) -> ollama::server::Endpoint {
        match self.native() {
            Endpoint::Generate => ollama::server::Endpoint::Generate,
            _ => ollama::server::Endpoint::Chat,
        }
    }

    /// The endpoint of an engine's native endpoint.
    pub fn of_server(e: ollama::server::Endpoint) -> Endpoint {
        match e {
            ollama::server::Endpoint::Chat => Endpoint::Chat,
            ollama::server::Endpoint::Generate => Endpoint::Generate,
        }
    }
}

/// The capabilities a model configuration can add, in the order shown.
pub const EXTRA_CAPABILITIES: [&str; 4] = ["tools", "thinking", "insert", "vision"];

/// The model side: what `ollama create` would store from a Modelfile and a GGUF.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ModelState {
    /// Whether the Modelfile has a TEMPLATE at all (without one Ollama uses
    /// `{{ .Prompt }}` or the GGUF chat template).
    pub has_template: bool,
    /// Modelfile TEMPLATE (Go text/template).
    pub template: String,
    /// Modelfile SYSTEM.
    pub system: String,
    /// Modelfile MESSAGE lines, as the JSON text of an `/api/chat` message list.
    pub messages: String,
    /// Modelfile RENDERER.
    pub renderer: String,
    /// Modelfile PARSER.
    pub parser: String,
    /// `config.model_family`.
    pub family: String,
    /// Extra capabilities from the model configuration.
    pub capabilities: Vec<String>,
    /// The model's option defaults (PARAMETERs; a stored model's params
    /// layer), as the JSON text of an object; empty = none. Ollama puts
    /// them under the request's `options`, the request winning key by key.
    pub options: String,
    /// The GGUF `tokenizer.chat_template` (Jinja); empty = none.
    pub chat_template: String,
    /// The BOS token string the chat template sees as `bos_token`.
    pub bos_token: String,
    /// The EOS token string the chat template sees as `eos_token`.
    pub eos_token: String,
    /// `OLLAMA_GO_TEMPLATE`; `None` = unset.
    pub go_template_env: Option<String>,
    /// The server's date (`YYYY-MM-DD`) for `currentDate`; empty = today.
    pub date: String,
}

/// The whole editable state.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct State {
    /// Chat or generate.
    pub endpoint: Endpoint,
    /// The model.
    pub model: ModelState,
    /// The request body, as JSON text.
    pub request: String,
    /// The model's output for the Answer pane (a parse case's `"output"`
    /// or `"chunks"`).
    pub answer: crate::answer::Input,
    /// The Ollama release rendering it (`0.32.15`); empty = the newest.
    pub ollama: String,
}

/// How [`State::to_json`] writes JSON-valued fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// Exactly as typed, as strings (share links, local storage).
    Exact,
    /// As JSON values where the text parses (export; a valid render case).
    RenderCase,
}

/// Parses editor text as JSON; blank text is `default`.
pub fn parse_json_text(text: &str, default: Value) -> Result<Value, serde_json::Error> {
    if text.trim().is_empty() {
        Ok(default)
    } else {
        serde_json::from_str(text)
    }
}

/// Pretty JSON with two-space indentation, as the editors show it.
pub fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_default()
}

fn get_string(obj: &Map<String, Value>, key: &str, path: &str) -> Result<Option<String>, String> {
    match obj.get(key) {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(Value::Null) => Ok(Some(String::new())),
        Some(_) => Err(format!("{path}{key} must be a string")),
    }
}

/// A JSON-text field: a string is kept as typed, any other value is pretty-printed.
fn get_json_text(obj: &Map<String, Value>, key: &str) -> Option<String> {
    match obj.get(key)? {
        Value::String(s) => Some(s.clone()),
        Value::Null => Some(String::new()),
        v => Some(pretty(v)),
    }
}

/// Puts a model's option defaults under the request's `options`, as
/// Ollama's `modelOptions` does: the request wins key by key (so its `stop`
/// replaces the model's, it is not appended). A request whose `options`
/// is there but not an object is left as it is, for Ollama to refuse.
pub fn merge_options(request: &mut Value, defaults: &Map<String, Value>) {
    if defaults.is_empty() {
        return;
    }
    let Some(body) = request.as_object_mut() else {
        return;
    };
    match body.get_mut("options") {
        None | Some(Value::Null) => {
            body.insert("options".into(), Value::Object(defaults.clone()));
        }
        Some(Value::Object(asked)) => {
            let mut merged = defaults.clone();
            for (k, v) in asked.iter() {
                merged.insert(k.clone(), v.clone());
            }
            *asked = merged;
        }
        Some(_) => {}
    }
}

impl State {
    /// Applies the keys present in `v` (a state or render-case object) and
    /// keeps the rest.
    pub fn merge_json(&mut self, v: &Value) -> Result<(), String> {
        let obj = v.as_object().ok_or("the state must be a JSON object")?;
        if let Some(e) = obj.get("endpoint") {
            let s = e.as_str().ok_or("endpoint must be a string")?;
            self.endpoint = Endpoint::parse(s).ok_or_else(|| {
                format!(
                    "endpoint must be \"chat\", \"generate\", \"openai-chat\", \"openai-completions\", \"openai-responses\", \"anthropic-messages\", \"embed\", \"embeddings\" or \"openai-embeddings\", not {s:?}"
                )
            })?;
        }
        if let Some(m) = obj.get("model") {
            let m = m.as_object().ok_or("model must be an object")?;
            let model = &mut self.model;
            match m.get("template") {
                None => {}
                Some(Value::Null) => {
                    model.has_template = false;
                    model.template.clear();
                }
                Some(Value::String(s)) => {
                    model.has_template = true;
                    model.template = s.clone();
                }
                Some(_) => return Err("model.template must be a string or null".into()),
            }
            if let Some(b) = m.get("has_template") {
                model.has_template = b.as_bool().ok_or("model.has_template must be a boolean")?;
            }
            for (key, slot) in [
                ("system", &mut model.system),
                ("renderer", &mut model.renderer),
                ("parser", &mut model.parser),
                ("family", &mut model.family),
                ("chat_template", &mut model.chat_template),
                ("bos_token", &mut model.bos_token),
                ("eos_token", &mut model.eos_token),
            ] {
                if let Some(s) = get_string(m, key, "model.")? {
                    *slot = s;
                }
            }
            if let Some(text) = get_json_text(m, "messages") {
                model.messages = text;
            }
            // `parameters`: a route case's name for the same defaults
            if let Some(text) =
                get_json_text(m, "options").or_else(|| get_json_text(m, "parameters"))
            {
                model.options = text;
            }
            match m.get("capabilities") {
                None => {}
                Some(Value::Null) => model.capabilities.clear(),
                Some(Value::Array(a)) => {
                    model.capabilities = a
                        .iter()
                        .map(|c| c.as_str().map(str::to_string))
                        .collect::<Option<Vec<_>>>()
                        .ok_or("model.capabilities must be strings")?;
                }
                Some(_) => return Err("model.capabilities must be an array".into()),
            }
        }
        if let Some(env) = obj.get("env") {
            let env = env.as_object().ok_or("env must be an object")?;
            match env.get("OLLAMA_GO_TEMPLATE") {
                None | Some(Value::Null) => self.model.go_template_env = None,
                Some(Value::String(s)) => self.model.go_template_env = Some(s.clone()),
                Some(Value::Bool(b)) => self.model.go_template_env = Some(b.to_string()),
                Some(_) => return Err("env.OLLAMA_GO_TEMPLATE must be a string".into()),
            }
        }
        if let Some(d) = get_string(obj, "date", "")? {
            self.model.date = d;
        }
        if let Some(tag) = get_string(obj, "ollama", "")? {
            if !tag.is_empty() {
                changes::Release::parse(&tag)?;
            }
            self.ollama = tag;
        }
        if let Some(text) = get_json_text(obj, "request") {
            self.request = text;
        }
        if let Some(answer) = crate::answer::Input::from_case(obj)? {
            self.answer = answer;
        }
        Ok(())
    }

    /// A state read from JSON, starting from empty fields.
    pub fn from_json(v: &Value) -> Result<State, String> {
        let mut s = State {
            model: ModelState {
                has_template: true,
                ..ModelState::default()
            },
            ..State::default()
        };
        s.merge_json(v)?;
        Ok(s)
    }

    /// The state as JSON.
    pub fn to_json(&self, form: Form) -> Value {
        let m = &self.model;
        let as_value = |text: &str, default: Value| match form {
            Form::Exact => Value::String(text.to_string()),
            Form::RenderCase => {
                parse_json_text(text, default).unwrap_or_else(|_| Value::String(text.to_string()))
            }
        };
        let mut model = Map::new();
        model.insert(
            "template".into(),
            if m.has_template {
                Value::String(m.template.clone())
            } else {
                Value::Null
            },
        );
        model.insert("system".into(), json!(m.system));
        model.insert("messages".into(), as_value(&m.messages, json!([])));
        model.insert("renderer".into(), json!(m.renderer));
        model.insert("parser".into(), json!(m.parser));
        model.insert("family".into(), json!(m.family));
        model.insert("capabilities".into(), json!(m.capabilities));
        model.insert("options".into(), as_value(&m.options, json!({})));
        model.insert("chat_template".into(), json!(m.chat_template));
        if !m.bos_token.is_empty() {
            model.insert("bos_token".into(), json!(m.bos_token));
        }
        if !m.eos_token.is_empty() {
            model.insert("eos_token".into(), json!(m.eos_token));
        }
        let mut out = Map::new();
        out.insert("promptscope".into(), json!(1));
        out.insert("endpoint".into(), json!(self.endpoint.as_str()));
        out.insert("model".into(), Value::Object(model));
        if let Some(env) = &m.go_template_env {
            out.insert("env".into(), json!({ "OLLAMA_GO_TEMPLATE": env }));
        }
        if !m.date.is_empty() {
            out.insert("date".into(), json!(m.date));
        }
        if !self.ollama.is_empty() {
            out.insert("ollama".into(), json!(self.ollama));
        }
        let mut request = as_value(&self.request, json!({}));
        if form == Form::RenderCase {
            if let Ok(Value::Object(defaults)) = parse_json_text(&m.options, json!({})) {
                if self.endpoint.route().is_none() {
                    merge_options(&mut request, &defaults);
                } else if !defaults.is_empty() {
                    if let Some(Value::Object(model)) = out.get_mut("model") {
                        model.insert("parameters".into(), Value::Object(defaults));
                    }
                }
            }
        }
        out.insert("request".into(), request);
        if let Some((key, value)) = self.answer.case_entry(form == Form::Exact) {
            out.insert(key.into(), value);
        }
        Value::Object(out)
    }

    /// The state as compact JSON text.
    pub fn to_json_string(&self, form: Form) -> String {
        self.to_json(form).to_string()
    }

    /// Reads a state from JSON text.
    pub fn from_json_str(text: &str) -> Result<State, String> {
        let v: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
        State::from_json(&v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> State {
        State {
            endpoint: Endpoint::Generate,
            model: ModelState {
                has_template: true,
                template: "{{ .Prompt }}\n".into(),
                system: "be brief".into(),
                messages: "[ {\"role\": \"user\", \"content\": \"hi\"} ]".into(),
                renderer: String::new(),
                parser: "qwen3".into(),
                family: "qwen3".into(),
                capabilities: vec!["tools".into(), "vision".into()],
                options: "{\"num_ctx\": 8192, \"stop\": [\"</s>\"]".into(),
                chat_template: "{{ messages }}".into(),
                bos_token: "<s>".into(),
                eos_token: String::new(),
                go_template_env: Some("false".into()),
                date: "2025-02-03".into(),
            },
            ollama: String::new(),
            request: "{\n  \"model\": \"demo\",\n  \"prompt\": \"x\"\n".into(),
            answer: crate::answer::Input {
                mode: crate::answer::Mode::Chunks,
                text: "[\"<think>\", \"hm\"".into(),
            },
        }
    }

    #[test]
    fn exact_form_round_trips_even_invalid_json() {
        let s = sample();
        let text = s.to_json_string(Form::Exact);
        assert_eq!(State::from_json_str(&text).unwrap(), s);
    }

    #[test]
    fn the_release_round_trips_and_is_checked() {
        let mut s = sample();
        s.ollama = "0.32.15".into();
        let v = s.to_json(Form::RenderCase);
        assert_eq!(v["ollama"], "0.32.15");
        assert_eq!(State::from_json(&v).unwrap().ollama, "0.32.15");
        assert_eq!(
            State::from_json_str(&s.to_json_string(Form::Exact)).unwrap(),
            s
        );
        // the newest is not written
        assert!(sample().to_json(Form::Exact).get("ollama").is_none());
        let e = State::from_json(&serde_json::json!({"ollama": "0.1.0"})).unwrap_err();
        assert!(
            e.starts_with("Ollama \"0.1.0\" is not a supported release"),
            "{e}"
        );
    }

    #[test]
    fn render_case_form_is_a_render_case() {
        let mut s = sample();
        s.request = "{\"model\": \"demo\", \"prompt\": \"x\"}".into();
        let v = s.to_json(Form::RenderCase);
        assert_eq!(v["request"]["prompt"], "x");
        assert_eq!(v["model"]["messages"][0]["content"], "hi");
        assert_eq!(v["env"]["OLLAMA_GO_TEMPLATE"], "false");
        assert!(ollama::case::RenderCase::from_json(&v).is_ok());
        // Read back, the JSON values become pretty-printed text.
        let back = State::from_json(&v).unwrap();
        assert_eq!(
            back.request,
            "{\n  \"model\": \"demo\",\n  \"prompt\": \"x\"\n}"
        );
        assert_eq!(back.model.template, s.model.template);
        // with the Answer pane's pieces it is a parse case too
        s.answer.text = "[\"<think>\", \"hm\"]".into();
        let v = s.to_json(Form::RenderCase);
        assert_eq!(
            ollama::answer::pieces_of(&v).unwrap(),
            vec!["<think>".to_string(), "hm".to_string()]
        );
        assert_eq!(
            State::from_json(&v).unwrap().answer.text,
            "[\n  \"<think>\",\n  \"hm\"\n]"
        );
        s.answer = crate::answer::Input {
            mode: crate::answer::Mode::Output,
            text: "Hi".into(),
        };
        let v = s.to_json(Form::RenderCase);
        assert_eq!(v["output"], "Hi");
        assert!(v.get("chunks").is_none());
        assert_eq!(State::from_json(&v).unwrap().answer, s.answer);
        // an empty pane writes nothing, and a state without it keeps the pane's
        s.answer = crate::answer::Input::default();
        let v = s.to_json(Form::Exact);
        assert!(v.get("output").is_none() && v.get("chunks").is_none());
        let mut t = sample();
        t.merge_json(&json!({"request": {}})).unwrap();
        assert_eq!(t.answer, sample().answer);
    }

    #[test]
    fn merge_keeps_what_is_not_named() {
        let mut s = sample();
        s.merge_json(&json!({"request": {"model": "m", "messages": []}}))
            .unwrap();
        assert_eq!(s.model.template, "{{ .Prompt }}\n");
        assert!(s.request.contains("\"messages\": []"));
        s.merge_json(&json!({"model": {"template": null}, "env": {}}))
            .unwrap();
        assert!(!s.model.has_template);
        assert_eq!(s.model.go_template_env, None);
    }

    #[test]
    fn model_options_go_under_the_request_options() {
        let defaults = json!({"num_ctx": 8192, "stop": ["</s>"], "temperature": 0.5});
        let defaults = defaults.as_object().unwrap();
        // the request wins key by key; its stop replaces the model's
        let mut body = json!({"model": "m", "options": {"stop": ["x"], "seed": 1}});
        merge_options(&mut body, defaults);
        assert_eq!(
            body["options"],
            json!({"num_ctx": 8192, "stop": ["x"], "temperature": 0.5, "seed": 1})
        );
        for absent in [
            json!({"model": "m"}),
            json!({"model": "m", "options": null}),
        ] {
            let mut body = absent;
            merge_options(&mut body, defaults);
            assert_eq!(&body["options"], &Value::Object(defaults.clone()));
        }
        // not an object: left for Ollama to refuse
        let mut body = json!({"options": "fast"});
        merge_options(&mut body, defaults);
        assert_eq!(body["options"], "fast");
        let mut body = json!({"model": "m"});
        merge_options(&mut body, &Map::new());
        assert_eq!(body, json!({"model": "m"}));

        // the render case form merges them (promptscope render reads only
        // the request's), and keeps them as model.options
        let mut s = sample();
        s.model.options = "{\"num_ctx\": 8192, \"stop\": [\"</s>\"]}".into();
        s.request = "{\"model\": \"demo\", \"options\": {\"num_ctx\": 64}}".into();
        let v = s.to_json(Form::RenderCase);
        assert_eq!(
            v["request"]["options"],
            json!({"num_ctx": 64, "stop": ["</s>"]})
        );
        assert_eq!(
            v["model"]["options"],
            json!({"num_ctx": 8192, "stop": ["</s>"]})
        );
        let back = State::from_json(&v).unwrap();
        assert_eq!(
            back.model.options,
            "{\n  \"num_ctx\": 8192,\n  \"stop\": [\n    \"</s>\"\n  ]\n}"
        );
        // none: an empty object, so an import replaces earlier defaults
        s.model.options.clear();
        assert_eq!(s.to_json(Form::RenderCase)["model"]["options"], json!({}));
        assert_eq!(s.to_json(Form::Exact)["model"]["options"], "");
    }

    #[test]
    fn every_endpoint_travels_and_old_states_still_read() {
        for e in Endpoint::ALL {
            assert_eq!(Endpoint::parse(e.as_str()), Some(e));
            let s = State {
                endpoint: e,
                ..sample()
            };
            assert_eq!(
                State::from_json_str(&s.to_json_string(Form::Exact)).unwrap(),
                s
            );
            assert_eq!(
                State::from_json(&s.to_json(Form::RenderCase))
                    .unwrap()
                    .endpoint,
                e
            );
        }
        assert_eq!(Endpoint::OpenAiChat.path(), "/v1/chat/completions");
        assert_eq!(Endpoint::AnthropicMessages.as_str(), "anthropic-messages");
        assert_eq!(Endpoint::OpenAiCompletions.native(), Endpoint::Generate);
        assert_eq!(Endpoint::OpenAiResponses.native(), Endpoint::Chat);
        assert_eq!(Endpoint::Generate.native(), Endpoint::Generate);
        // a state saved before the routes existed
        let old = r#"{"promptscope":1,"endpoint":"generate","model":{"template":"{{ .Prompt }}"},"request":"{}"}"#;
        assert_eq!(
            State::from_json_str(old).unwrap().endpoint,
            Endpoint::Generate
        );
        let old = r#"{"model":{"template":"x"},"request":{"model":"m"}}"#;
        assert_eq!(State::from_json_str(old).unwrap().endpoint, Endpoint::Chat);
    }

    #[test]
    fn a_route_case_carries_the_parameters_apart() {
        let mut s = sample();
        s.endpoint = Endpoint::AnthropicMessages;
        s.model.options = "{\"num_ctx\": 8192}".into();
        let body =
            json!({"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": "hi"}]});
        s.request = body.to_string();
        let v = s.to_json(Form::RenderCase);
        assert_eq!(v["endpoint"], "anthropic-messages");
        // the body as the client sends it: no options added
        assert_eq!(v["request"], body);
        assert_eq!(v["model"]["parameters"], json!({"num_ctx": 8192}));
        let case = ollama::case::RenderCase::from_json(&v).unwrap();
        assert_eq!(case.request["options"]["num_ctx"], 8192);
        assert_eq!(case.request["options"]["num_predict"], 5);
        // read back: the defaults again
        let back = State::from_json(&v).unwrap();
        assert_eq!(back.model.options, "{\n  \"num_ctx\": 8192\n}");
        let only = json!({"endpoint": "openai-chat", "model": {"parameters": {"seed": 1}}});
        assert_eq!(
            State::from_json(&only).unwrap().model.options,
            "{\n  \"seed\": 1\n}"
        );
    }

    #[test]
    fn bad_fields_are_named() {
        let err = State::from_json(&json!({"endpoint": "pull"})).unwrap_err();
        assert!(err.contains("endpoint"), "{err}");
        let err = State::from_json(&json!({"model": {"system": 3}})).unwrap_err();
        assert_eq!(err, "model.system must be a string");
        assert!(State::from_json(&json!([1])).is_err());
    }
}
