//! Render cases: the JSON shape of `shared/spec/cli.md` (`endpoint`,
//! `model`, `request`, `date`), shared by the CLI, the app and the tests.

use serde_json::Value as Json;

use crate::api;
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
        let obj = v.as_object().ok_or("a render case must be a JSON object")?;
        let endpoint = match obj.get("endpoint").and_then(Json::as_str).unwrap_or("chat") {
            "chat" => Endpoint::Chat,
            "generate" => Endpoint::Generate,
            other => {
                return Err(format!(
                    "endpoint must be \"chat\" or \"generate\", not {other:?}"
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
        let request = obj
            .get("request")
            .cloned()
            .unwrap_or(Json::Object(serde_json::Map::new()));
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
        })
    }

    /// Renders the case.
    pub fn render(&self, tokenizer: Option<&dyn TokenCounter>) -> Result<Rendered, Failure> {
        let settings = Settings {
            date: self.date.unwrap_or_else(Date::today_utc),
            go_template_env: self.go_template_env.clone(),
            tokenizer,
            default_num_ctx: 4096,
        };
        server::render(self.endpoint, &self.model, &self.request, &settings)
    }
}
