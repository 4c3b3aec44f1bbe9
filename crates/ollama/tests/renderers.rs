//! The built-in Go renderers against `tests/corpus/golden/render.jsonl`:
//! every `renderer-*` case whose model has a renderer and no template,
//! through a small driver that does what Ollama's handlers do around the
//! renderer (Modelfile SYSTEM and MESSAGEs, capability checks, the think
//! default, `parser.Init`).

use std::path::PathBuf;

use ollama::api::{self, ChatRequest, GenerateRequest, Message, Think, Tool};
use ollama::{parsers, renderers};
use serde_json::Value as Json;

fn golden(name: &str) -> PathBuf {
    testkit::corpus("golden").join(name)
}

/// The local model a case describes.
struct Model<'a> {
    name: &'a str,
    system: &'a str,
    messages: Vec<Message>,
    renderer: &'a str,
    parser: &'a str,
    family: &'a str,
    capabilities: Vec<&'a str>,
}

impl<'a> Model<'a> {
    fn from_json(m: &'a Json) -> Model<'a> {
        let s = |k: &str| m.get(k).and_then(Json::as_str).unwrap_or("");
        Model {
            name: s("name"),
            system: s("system"),
            messages: api::decode_messages(m.get("messages").unwrap_or(&Json::Null)).unwrap(),
            renderer: s("renderer"),
            parser: s("parser"),
            family: s("family"),
            capabilities: m
                .get("capabilities")
                .and_then(Json::as_array)
                .map(|a| a.iter().filter_map(Json::as_str).collect())
                .unwrap_or_default(),
        }
    }

    /// `Model.Capabilities()` for a renderer model: the configured
    /// capabilities, completion, the parser's, and thinking for gpt-oss.
    fn capabilities(&self) -> Vec<&str> {
        let mut caps = self.capabilities.clone();
        caps.push("completion");
        if let Some((tools, thinking)) = parsers::parser_capabilities(self.parser) {
            if tools {
                caps.push("tools");
            }
            if thinking {
                caps.push("thinking");
            }
        }
        if self.family == "gptoss" || self.family == "gpt-oss" {
            caps.push("thinking");
        }
        caps
    }

    /// The think value after the handler's defaulting, or the thinking error.
    fn think(&self, requested: Option<Think>) -> Result<Option<Think>, String> {
        if self.capabilities().contains(&"thinking") {
            Ok(requested.or(Some(Think::Bool(true))))
        } else if requested.as_ref().is_some_and(Think::as_bool) {
            Err(format!(
                "{} does not support thinking",
                gotmpl::strconv::quote(self.name)
            ))
        } else {
            Ok(requested)
        }
    }

    fn check_tools(&self, wants_tools: bool) -> Result<(), String> {
        if wants_tools && !self.capabilities().contains(&"tools") {
            // The goldens' model names are plain, so the fully qualified
            // name only adds the default host, namespace and tag.
            return Err(format!(
                "registry.ollama.ai/library/{}:latest does not support tools",
                self.name
            ));
        }
        Ok(())
    }

    fn render(
        &self,
        msgs: &[Message],
        tools: Option<&[Tool]>,
        think: Option<&Think>,
        date: &str,
    ) -> Result<String, String> {
        let name = renderers::resolve_renderer_name(self.renderer, self.name, None);
        renderers::render_with_renderer_at(&name, msgs, tools, think, date)
    }
}

fn chat(model: &Model, request: &Json, date: &str) -> Result<String, String> {
    let req = ChatRequest::decode(request).map_err(|e| e.0)?;
    let think = model.think(req.think.clone())?;
    model.check_tools(req.tools.as_ref().is_some_and(|t| !t.is_empty()))?;
    if req.messages.is_empty() {
        return Ok(String::new());
    }
    let mut msgs = model.messages.clone();
    msgs.extend(req.messages.iter().cloned());
    if req.messages[0].role != "system" && !model.system.is_empty() {
        msgs.insert(0, Message::new("system", model.system));
    }
    let tools = match (&req.tools, parsers::parser_capabilities(model.parser)) {
        (Some(tools), Some(_)) => Some(parsers::init_tools(model.parser, tools)),
        (tools, _) => tools.clone(),
    };
    model.render(&msgs, tools.as_deref(), think.as_ref(), date)
}

fn generate(model: &Model, request: &Json, date: &str) -> Result<String, String> {
    let req = GenerateRequest::decode(request).map_err(|e| e.0)?;
    let think = model.think(req.think.clone())?;
    let system = if req.system.is_empty() {
        model.system
    } else {
        &req.system
    };
    let mut msgs = Vec::new();
    if !system.is_empty() {
        msgs.push(Message::new("system", system));
    }
    if req.context.is_none() {
        msgs.extend(model.messages.iter().cloned());
    }
    msgs.push(Message {
        images: req.images.clone(),
        ..Message::new("user", &req.prompt)
    });
    model.render(&msgs, Some(&[]), think.as_ref(), date)
}

fn is_renderer_case(v: &Json) -> bool {
    let id = v["id"].as_str().unwrap_or("");
    let m = &v["model"];
    id.starts_with("renderer-") && m.get("renderer").is_some() && m.get("template").is_none()
}

#[test]
fn renderer_goldens() {
    let text = std::fs::read_to_string(golden("render.jsonl")).unwrap();
    let mut n = 0;
    let mut failures = Vec::new();
    for line in text.lines() {
        let v: Json = serde_json::from_str(line).unwrap();
        if !is_renderer_case(&v) {
            continue;
        }
        n += 1;
        let model = Model::from_json(&v["model"]);
        let date = v["date"].as_str().unwrap_or("");
        let got = match v["endpoint"].as_str() {
            Some("generate") => generate(&model, &v["request"], date),
            _ => chat(&model, &v["request"], date),
        };
        let got = match got {
            Ok(prompt) => serde_json::json!({ "prompt": prompt }),
            Err(error) => serde_json::json!({ "error": error }),
        };
        if got != v["expect"] {
            failures.push(format!(
                "{}\n  expected: {}\n  got:      {}",
                v["id"], v["expect"], got
            ));
        }
    }
    assert!(n >= 225, "only {n} renderer cases found");
    assert!(
        failures.is_empty(),
        "{} of {n} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    eprintln!("{n} renderer cases pass");
}
