//! Render cases: the JSON shape of `shared/spec/cli.md` (`endpoint`,
//! `model`, `request`, `date`), shared by the CLI, the app and the tests.

use serde_json::Value as Json;

use crate::api;
use crate::compat::{self, Converted, Refused, Route};
use crate::date::Date;
use crate::model::{GoTemplateEnv, Model};
use crate::server::{self, Endpoint, Failure, Rendered, Settings, TokenCounter};

/// A decoded render case.
#[derive(Clone, Debug)]
pub struct RenderCase {
    /// The case id, passed through.
    pub id: Json,
    /// Which endpoint.
    pub endpoint: Endpoint,
    /// The model.
    pub model: Model,
    /// The request body.
    pub request: Json,
    /// The server date; `None` = today.
    pub date: Option<Date>,
    /// `OLLAMA_GO_TEMPLATE`, if the case sets it (`"env": {"OLLAMA_GO_TEMPLATE": ...}`).
    pub go_template_env: GoTemplateEnv,
    /// A request through a compatibility route: the route, the body the
    /// client sent, and what the middleware made of it. `endpoint` and
    /// `request` are then the converted native request.
    pub route: Option<RouteCase>,
    /// An embedding request (`embed`, `embeddings`, `openai-embeddings`):
    /// `request` is its body, and [`RenderCase::embed`] follows it
    /// (there is no prompt to render).
    pub embed: Option<crate::embed::Route>,
    /// `model.parameters` (the model's PARAMETERs, for a route whose body
    /// cannot carry them).
    pub parameters: Option<serde_json::Map<String, Json>>,
    /// The Ollama release (the case's `ollama`, else the newest): its own
    /// rules, and the llama.cpp build of the llama-server that renders
    /// native mode.
    pub release: changes::Release,
}

/// Why [`RenderCase::answer`] gives no answer.
#[derive(Debug)]
pub enum AnswerError {
    /// Ollama fails the request before the model runs.
    Ollama(Failure),
    /// Promptscope cannot say what Ollama would make of it.
    Unsupported(String),
}

/// A render case's compatibility-route request.
#[derive(Clone, Debug)]
pub struct RouteCase {
    /// The route.
    pub route: Route,
    /// The body as the client sent it.
    pub body: Json,
    /// The converted request, or the middleware's refusal.
    pub converted: Result<Converted, Refused>,
    /// The Ollama release whose middleware converted it.
    pub release: changes::Release,
}

impl RouteCase {
    /// The Anthropic route's error bodies carry a random `request_id`;
    /// ours is derived from the body, so a case always answers the same.
    pub fn request_id(&self) -> String {
        compat::anthropic::id_for("req", &self.body.to_string())
    }

    /// The exact body the route answers a failure with.
    pub fn error_body(&self, status: u16, message: &str, downstream: bool) -> String {
        self.route
            .error_body(status, message, downstream, &self.request_id())
    }
}

fn opt_str(m: &serde_json::Map<String, Json>, key: &str) -> Result<Option<String>, String> {
    match m.get(key) {
        None | Some(Json::Null) => Ok(None),
        Some(Json::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(format!("model.{key} must be a string")),
    }
}

impl RenderCase {
    /// Decodes a case. Errors say which field is wrong.
    pub fn from_json(v: &Json) -> Result<RenderCase, String> {
        RenderCase::from_json_converted(v, None)
    }

    /// [`RenderCase::from_json`] for a route case whose body the caller has
    /// already converted (a server converts first, to answer the route's
    /// errors): the conversion is not done again.
    pub fn from_json_converted(
        v: &Json,
        mut converted: Option<Result<compat::Converted, compat::Refused>>,
    ) -> Result<RenderCase, String> {
        let obj = v.as_object().ok_or("a render case must be a JSON object")?;
        let release = match obj.get("ollama") {
            None | Some(Json::Null) => changes::Release::NEWEST,
            Some(Json::String(tag)) => changes::Release::parse(tag)?,
            Some(_) => return Err("ollama must be a string".into()),
        };
        let name = obj.get("endpoint").and_then(Json::as_str).unwrap_or("chat");
        let route = Route::from_name(name);
        let embed = crate::embed::Route::from_name(name);
        let mut endpoint = match (name, route) {
            ("chat", _) => Endpoint::Chat,
            ("generate", _) => Endpoint::Generate,
            (_, Some(r)) => r.native(),
            _ if embed.is_some() => Endpoint::Generate,
            (other, None) => {
                return Err(format!(
                    "endpoint must be \"chat\", \"generate\", \"openai-chat\", \"openai-completions\", \"openai-responses\", \"anthropic-messages\", \"embed\", \"embeddings\" or \"openai-embeddings\", not {other:?}"
                ))
            }
        };
        let m = match obj.get("model") {
            Some(Json::Object(m)) => m.clone(),
            None => serde_json::Map::new(),
            Some(_) => return Err("model must be an object".into()),
        };
        let messages = match m.get("messages") {
            None => Vec::new(),
            Some(v) => api::decode_messages(v).map_err(|e| format!("model.messages: {e}"))?,
        };
        let capabilities = match m.get("capabilities") {
            None | Some(Json::Null) => Vec::new(),
            Some(Json::Array(a)) => a
                .iter()
                .map(|c| {
                    c.as_str()
                        .map(str::to_string)
                        .ok_or("model.capabilities must be strings")
                })
                .collect::<Result<Vec<_>, _>>()?,
            Some(_) => return Err("model.capabilities must be an array".into()),
        };
        let families = match m.get("families") {
            Some(Json::Array(a)) => a
                .iter()
                .filter_map(|c| c.as_str().map(str::to_string))
                .collect(),
            _ => Vec::new(),
        };
        let mut request = obj
            .get("request")
            .cloned()
            .unwrap_or(Json::Object(serde_json::Map::new()));
        let env = compat::Env {
            no_cloud: compat::Env::truthy(
                obj.get("env")
                    .and_then(|e| e.get("OLLAMA_NO_CLOUD"))
                    .and_then(Json::as_str),
            ),
            release,
        };
        let route = route.map(|route| {
            let converted = converted
                .take()
                .unwrap_or_else(|| compat::convert_with(route, &request, env));
            let body = std::mem::take(&mut request);
            if let Ok(c) = &converted {
                request = c.request.clone();
                endpoint = c.endpoint;
                // The model's PARAMETERs, under what the route converted.
                if let (Some(Json::Object(params)), Some(r)) =
                    (m.get("parameters"), request.as_object_mut())
                {
                    let mut options = params.clone();
                    if let Some(Json::Object(asked)) = r.get("options") {
                        for (k, v) in asked {
                            options.insert(k.clone(), v.clone());
                        }
                    }
                    r.insert("options".into(), Json::Object(options));
                }
            }
            RouteCase {
                route,
                body,
                converted,
                release,
            }
        });
        let name = opt_str(&m, "name")?
            .or_else(|| {
                request
                    .get("model")
                    .and_then(Json::as_str)
                    .map(str::to_string)
            })
            .unwrap_or_default();
        let model = Model {
            name,
            template: opt_str(&m, "template")?,
            system: opt_str(&m, "system")?.unwrap_or_default(),
            messages,
            renderer: opt_str(&m, "renderer")?.unwrap_or_default(),
            parser: opt_str(&m, "parser")?.unwrap_or_default(),
            family: opt_str(&m, "family")?.unwrap_or_default(),
            families,
            capabilities,
            chat_template: opt_str(&m, "chat_template")?,
            chat_template_tool_use: opt_str(&m, "chat_template_tool_use")?,
            compat_chat_template: None,
            bos_token: opt_str(&m, "bos_token")?.unwrap_or_default(),
            eos_token: opt_str(&m, "eos_token")?.unwrap_or_default(),
            add_bos: false,
            add_eos: false,
            gguf: None,
            has_projector: m.get("projector").and_then(Json::as_bool).unwrap_or(false),
        };
        let date = match obj.get("date") {
            None | Some(Json::Null) => None,
            Some(Json::String(s)) => {
                Some(Date::parse(s).ok_or_else(|| format!("date {s:?} is not YYYY-MM-DD"))?)
            }
            Some(_) => return Err("date must be a string YYYY-MM-DD".into()),
        };
        let env = obj
            .get("env")
            .and_then(|e| e.get("OLLAMA_GO_TEMPLATE"))
            .and_then(Json::as_str);
        Ok(RenderCase {
            id: obj.get("id").cloned().unwrap_or(Json::Null),
            endpoint,
            model,
            request,
            date,
            go_template_env: GoTemplateEnv::from_env_value(env),
            route,
            embed,
            parameters: m.get("parameters").and_then(Json::as_object).cloned(),
            release,
        })
    }

    /// An embedding case followed through its handler (`None` for a
    /// chat or generate case): `kv` is what Ollama reads of the model's
    /// GGUF, `tokens` its vocabulary.
    pub fn embed(
        &self,
        kv: Option<&crate::embed::EmbedKv>,
        tokens: Option<&dyn crate::embed::EmbedTokens>,
    ) -> Option<crate::embed::Outcome> {
        let route = self.embed?;
        let info = crate::embed::ModelInfo {
            capabilities: &self.model.capabilities,
            params: self.parameters.as_ref(),
        };
        Some(crate::embed::embed(
            route,
            &self.request,
            &info,
            kv,
            tokens,
            4096,
        ))
    }

    /// What the handler knows when the runner starts answering (the case
    /// rendered to `prompt`).
    pub fn answer_setup(&self, prompt: &str) -> Result<crate::answer::Setup, String> {
        let relax_thinking = match &self.route {
            Some(RouteCase {
                converted: Ok(c), ..
            }) => c.relax_thinking,
            _ => false,
        };
        let settings = Settings {
            date: self.date.unwrap_or_else(Date::today_utc),
            go_template_env: self.go_template_env.clone(),
            tokenizer: None,
            default_num_ctx: 4096,
            relax_thinking,
            release: self.release,
            message_costs: false,
        };
        server::answer_setup(self.endpoint, &self.model, &self.request, &settings, prompt)
    }

    /// `promptscope parse`: the case rendered, then the model's output (the
    /// runner's pieces) through the handler.
    pub fn answer(
        &self,
        pieces: &[String],
        ids: Box<dyn FnMut() -> String>,
    ) -> Result<crate::answer::Answer, AnswerError> {
        let rendered = self.render(None).map_err(AnswerError::Ollama)?;
        let Some(prompt) = rendered.prompt.clone() else {
            // no messages / no prompt: Ollama loads the model and answers
            // `done_reason: "load"` without running it
            return Ok(crate::answer::Answer::loaded_only(self.endpoint));
        };
        let setup = self.answer_setup(&prompt).map_err(|message| {
            AnswerError::Ollama(Failure {
                message,
                status: 500,
                explain: Box::new(rendered.explain.clone()),
                body: None,
            })
        })?;
        if setup.native {
            return Err(AnswerError::Unsupported(
                "this model renders through llama-server's own chat path (its GGUF chat template): llama-server's chat parser (llama.cpp common/chat.cpp), not Ollama's, reads its answer, and Promptscope does not reproduce that parser".into(),
            ));
        }
        Ok(crate::answer::run(&setup, pieces, ids))
    }

    /// Renders the case.
    pub fn render(&self, tokenizer: Option<&dyn TokenCounter>) -> Result<Rendered, Failure> {
        self.render_with(tokenizer, true)
    }

    /// [`RenderCase::render`] without each message's token count
    /// (`Explain::message_tokens` left empty): the prompt, truncation and
    /// the rest of the explanation as `render` gives them, at a fraction of
    /// the renders.
    pub fn render_prompt(&self, tokenizer: Option<&dyn TokenCounter>) -> Result<Rendered, Failure> {
        self.render_with(tokenizer, false)
    }

    fn render_with(
        &self,
        tokenizer: Option<&dyn TokenCounter>,
        message_costs: bool,
    ) -> Result<Rendered, Failure> {
        if let Some(route) = self.embed {
            return Err(Failure {
                message: format!(
                    "{} renders no prompt: each input goes to the runner as text (RenderCase::embed)",
                    route.path()
                ),
                status: 400,
                explain: Box::default(),
                body: None,
            });
        }
        let mut relax_thinking = false;
        if let Some(rc) = &self.route {
            match &rc.converted {
                Ok(c) => relax_thinking = c.relax_thinking,
                Err(e) => {
                    return Err(Failure {
                        message: e.message.clone(),
                        status: e.status,
                        explain: Box::default(),
                        body: Some(rc.error_body(e.status, &e.message, false)),
                    })
                }
            }
        }
        let settings = Settings {
            date: self.date.unwrap_or_else(Date::today_utc),
            go_template_env: self.go_template_env.clone(),
            tokenizer,
            default_num_ctx: 4096,
            relax_thinking,
            release: self.release,
            message_costs,
        };
        server::render(self.endpoint, &self.model, &self.request, &settings).map_err(|mut f| {
            if let Some(rc) = &self.route {
                f.body = Some(rc.error_body(f.status, &f.message, true));
            }
            f
        })
    }
}
