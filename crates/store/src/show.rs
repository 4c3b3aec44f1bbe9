//! What Ollama v0.33.0-rc2 answers for a stored model: the `/api/show`
//! body (server/routes.go `ShowHandler`, `GetModelInfo`,
//! `selectedModelTemplate`, `getModelData`; server/images.go
//! `Model.String`) as gin writes it, and what `ollama show` prints from it
//! (cmd/cmd.go `ShowHandler`, `showInfo`).

use std::collections::BTreeMap;

use base64::Engine as _;
use gguf_meta::{Array, GgufFile, Value};
use ollama::model::{GgufFacts, Model as EngineModel};
use serde_json::{Map, Value as Json};

use crate::dir::Dir;
use crate::gojson::{Obj, J};
use crate::model::{self, Refusal, StoredModel};
use crate::modelfile::{Command, Modelfile};
use crate::table::Table;

/// `api.ShowRequest`.
#[derive(Clone, Debug, Default)]
pub struct ShowRequest {
    /// `model` (or the deprecated `name`).
    pub model: String,
    /// `system`: replaces the model's SYSTEM in the answer.
    pub system: String,
    /// `verbose`: every metadata array in full.
    pub verbose: bool,
    /// `options`: merged into the Modelfile's PARAMETERs (not into
    /// `parameters`).
    pub options: Map<String, Json>,
    /// Not in the body: the client's `User-Agent` (GitHub Copilot Chat's
    /// gets `general.basename` set to the name it asked for).
    pub user_agent: String,
    /// Not in the body: `OLLAMA_NO_CLOUD` is set (cloud models answer 403).
    pub no_cloud: bool,
    /// Not in the body: the Ollama release answering (its template
    /// selection and its parsers' capabilities).
    pub release: changes::Release,
}

/// `internalcloud.DisabledError(cloudErrRemoteModelDetailsUnavailable)`.
pub const CLOUD_DISABLED: &str = "ollama cloud is disabled: remote model details are unavailable";

impl ShowRequest {
    /// Decodes the bytes of a `/api/show` body: an empty one is Ollama's
    /// `missing request body`.
    pub fn from_body(body: &[u8]) -> Result<ShowRequest, Refusal> {
        if body.iter().all(u8::is_ascii_whitespace) {
            return Err(Refusal {
                status: 400,
                message: "missing request body".into(),
            });
        }
        let v: Json = serde_json::from_slice(body).map_err(|e| Refusal {
            status: 400,
            message: crate::manifest::json_error(&e),
        })?;
        ShowRequest::from_json(&v)
    }

    /// Decodes a `/api/show` body (`model`, else `name`).
    pub fn from_json(v: &Json) -> Result<ShowRequest, Refusal> {
        let bad = |m: String| Refusal {
            status: 400,
            message: m,
        };
        let Json::Object(o) = v else {
            return Err(bad(format!(
                "json: cannot unmarshal {} into Go value of type api.ShowRequest",
                crate::manifest::go_kind(v)
            )));
        };
        let s = |k: &str| -> Result<String, Refusal> {
            match o.get(k) {
                None | Some(Json::Null) => Ok(String::new()),
                Some(Json::String(s)) => Ok(s.clone()),
                Some(v) => Err(bad(format!(
                    "json: cannot unmarshal {} into Go struct field ShowRequest.{k} of type string",
                    crate::manifest::go_kind(v)
                ))),
            }
        };
        let model = s("model")?;
        let name = s("name")?;
        let verbose = match o.get("verbose") {
            None | Some(Json::Null) => false,
            Some(Json::Bool(b)) => *b,
            Some(v) => {
                return Err(bad(format!(
                "json: cannot unmarshal {} into Go struct field ShowRequest.verbose of type bool",
                crate::manifest::go_kind(v)
            )))
            }
        };
        let options = match o.get("options") {
            None | Some(Json::Null) => Map::new(),
            Some(Json::Object(m)) => m.clone(),
            Some(v) => {
                return Err(bad(format!(
                    "json: cannot unmarshal {} into Go struct field ShowRequest.options of type map[string]interface {{}}",
                    crate::manifest::go_kind(v)
                )))
            }
        };
        if model.is_empty() && name.is_empty() {
            return Err(bad("model is required".into()));
        }
        Ok(ShowRequest {
            model: if model.is_empty() { name } else { model },
            system: s("system")?,
            verbose,
            options,
            ..ShowRequest::default()
        })
    }
}

/// A GGUF blob of the store as a `ReadAt` source.
pub struct BlobSource<'a> {
    dir: &'a dyn Dir,
    path: String,
}

impl<'a> BlobSource<'a> {
    /// The blob at `path` (relative to the models directory).
    pub fn new(dir: &'a dyn Dir, path: &str) -> BlobSource<'a> {
        BlobSource {
            dir,
            path: path.to_string(),
        }
    }
}

impl gguf_meta::ReadAt for BlobSource<'_> {
    fn size(&mut self) -> std::io::Result<u64> {
        self.dir
            .stat(&self.path)
            .map(|s| s.size)
            .map_err(|e| std::io::Error::other(e.to_string()))
    }

    fn read_at(&mut self, offset: u64, buf: &mut [u8]) -> std::io::Result<usize> {
        let b = self
            .dir
            .read_at(&self.path, offset, buf.len())
            .map_err(|e| std::io::Error::other(e.to_string()))?;
        buf[..b.len()].copy_from_slice(&b);
        Ok(b.len())
    }
}

/// Reads a blob's GGUF metadata (never its tensor data).
pub fn read_gguf(dir: &dyn Dir, path: &str) -> Result<GgufFile, String> {
    gguf_meta::parse(BlobSource::new(dir, path)).map_err(|e| format!("{path}: {e}"))
}

/// The facts the engine takes from a GGUF (`ggufCapabilities`).
pub fn gguf_facts(f: &GgufFile) -> GgufFacts {
    GgufFacts {
        architecture: f.architecture().unwrap_or("").to_string(),
        pooling: f.get("pooling_type").is_some() || f.arch_get("pooling_type").is_some(),
        vision: f.get("vision.block_count").is_some() || f.arch_get("vision.block_count").is_some(),
        audio: f.get("audio.block_count").is_some() || f.arch_get("audio.block_count").is_some(),
        context_length: f.arch_get("context_length").and_then(|v| v.as_u64()),
        sliding_window: f
            .arch_get("attention.sliding_window")
            .and_then(|v| v.as_u64()),
        block_count: f.arch_get("block_count").and_then(|v| v.as_u64()),
    }
}

/// What the embedding handlers read of a GGUF (`kvData`, with fs/ggml's
/// typed lookups).
pub fn embed_kv(f: &GgufFile) -> ollama::embed::EmbedKv {
    let mut kv = ollama::embed::EmbedKv::from_lookup(|k| {
        let v = f.get(k)?;
        let j = match v {
            gguf_meta::Value::Bool(b) => serde_json::Value::Bool(*b),
            gguf_meta::Value::String(_) => serde_json::Value::from(v.as_str().unwrap_or("")),
            other => match other.as_u64() {
                Some(u) => serde_json::Value::from(u),
                None => other
                    .as_f64()
                    .map(|x| serde_json::Value::from(x as i64))
                    .unwrap_or(serde_json::Value::Null),
            },
        };
        Some((v.type_name(), j))
    });
    kv.vision = gguf_facts(f).vision;
    kv
}

/// The engine's model for a stored model and its GGUF.
pub fn engine_model(m: &StoredModel, gguf: Option<&GgufFile>) -> EngineModel {
    EngineModel {
        name: m.full_name.clone(),
        template: m.template.clone(),
        system: m.system.clone(),
        renderer: m.config.renderer.clone(),
        parser: m.config.parser.clone(),
        family: m.config.model_family.clone(),
        families: m.config.model_families.clone(),
        capabilities: m.config.capabilities.clone(),
        chat_template: gguf.and_then(|g| g.chat_template(None)).map(str::to_string),
        chat_template_tool_use: gguf
            .and_then(|g| g.chat_template(Some("tool_use")))
            .map(str::to_string),
        gguf: gguf.map(gguf_facts),
        has_projector: !m.projectors.is_empty(),
        ..EngineModel::default()
    }
}

/// A MESSAGE as Go encodes `api.Message` with only a role and content (the
/// `/api/show` body's `messages`, and `ollama create`'s messages layer).
pub(crate) fn message_j(role: &str, content: &str) -> J {
    let mut o = Obj::default();
    o.put("role", J::s(role)).put("content", J::s(content));
    o.done()
}

fn scalar(v: &Value) -> J {
    match v {
        Value::U8(x) => J::int(*x),
        Value::I8(x) => J::int(*x),
        Value::U16(x) => J::int(*x),
        Value::I16(x) => J::int(*x),
        Value::U32(x) => J::int(*x),
        Value::I32(x) => J::int(*x),
        Value::U64(x) => J::int(*x),
        Value::I64(x) => J::int(*x),
        Value::F32(x) => J::float(*x as f64, 32),
        Value::F64(x) => J::float(*x, 64),
        Value::Bool(b) => J::Bool(*b),
        Value::String(s) => J::s(s.to_string_lossy()),
        Value::Array(a) => array(a, true),
    }
}

/// fs/ggml's `array[T]` marshals its values, which are nil (`null`) for
/// a non-empty array unless every array is kept (`verbose`); `[]uint8`
/// marshals as base64, as Go marshals byte slices.
fn array(a: &Array, keep: bool) -> J {
    if !keep && !a.is_empty() {
        return J::Null;
    }
    fn all<T>(v: &[T], f: impl Fn(&T) -> J) -> J {
        J::Arr(v.iter().map(f).collect())
    }
    match a {
        Array::U8(v) => J::s(base64::engine::general_purpose::STANDARD.encode(v)),
        Array::I8(v) => all(v, |x| J::int(*x)),
        Array::U16(v) => all(v, |x| J::int(*x)),
        Array::I16(v) => all(v, |x| J::int(*x)),
        Array::U32(v) => all(v, |x| J::int(*x)),
        Array::I32(v) => all(v, |x| J::int(*x)),
        Array::U64(v) => all(v, |x| J::int(*x)),
        Array::I64(v) => all(v, |x| J::int(*x)),
        Array::F32(v) => all(v, |x| J::float(*x as f64, 32)),
        Array::F64(v) => all(v, |x| J::float(*x, 64)),
        Array::Bool(v) => all(v, |x| J::Bool(*x)),
        Array::String(v) => all(v, |x| J::s(x.to_string_lossy())),
        // ggml refuses nested arrays ("invalid array type: 9").
        Array::Array(_) => J::Null,
    }
}

/// `getModelData`: the GGUF's key/values (with `general.parameter_count`,
/// the tensors' element count) as the answer's `model_info` holds them,
/// keys sorted as Go writes a map.
pub fn model_info(f: &GgufFile, verbose: bool) -> BTreeMap<String, J> {
    let mut kv = BTreeMap::new();
    for e in f.metadata() {
        let v = match &e.value {
            Value::Array(a) => array(a, verbose),
            v => scalar(v),
        };
        kv.insert(e.key.clone(), v);
    }
    let params = f
        .tensors()
        .iter()
        .fold(0u64, |a, t| a.wrapping_add(t.n_elements()));
    kv.insert("general.parameter_count".into(), J::int(params));
    kv
}

fn tensors(f: &GgufFile) -> Vec<J> {
    f.tensors()
        .iter()
        .map(|t| {
            let mut o = Obj::default();
            o.put("name", J::s(&t.name))
                .put("type", J::s(t.ggml_type.name()))
                .put(
                    "shape",
                    J::Arr(t.shape.iter().map(|d| J::int(*d)).collect()),
                );
            o.done()
        })
        .collect()
}

/// `Model.String()`: the Modelfile `ollama show --modelfile` prints after
/// its header. `root` is the models directory as Ollama names it (blob
/// paths are absolute). Options come in name order (Ollama walks a map).
pub fn model_string(m: &StoredModel, root: &str, options: &Map<String, Json>) -> String {
    let path = |b: &model::Blob| format!("{root}/{}", b.path);
    let mut f = Modelfile::default();
    let mut add = |name: &str, args: String| {
        f.commands.push(Command {
            name: name.into(),
            args,
        })
    };
    add("model", m.model.as_ref().map(path).unwrap_or_default());
    for a in &m.adapters {
        add("adapter", path(a));
    }
    if let Some(d) = &m.draft {
        add("draft", path(d));
    }
    for p in &m.projectors {
        add("model", path(p));
    }
    add(
        "template",
        m.template.clone().unwrap_or_else(|| "{{ .Prompt }}".into()),
    );
    if !m.system.is_empty() {
        add("system", m.system.clone());
    }
    if !m.config.renderer.is_empty() {
        add("renderer", m.config.renderer.clone());
    }
    if !m.config.parser.is_empty() {
        add("parser", m.config.parser.clone());
    }
    let mut keys: Vec<&String> = options.keys().collect();
    keys.sort();
    for k in keys {
        match &options[k] {
            Json::Array(a) => {
                for s in a {
                    add(k, crate::gofmt::v(s));
                }
            }
            v => add(k, crate::gofmt::v(v)),
        }
    }
    for l in &m.license {
        add("license", l.clone());
    }
    for msg in &m.messages {
        add("message", format!("{}: {}", msg.role, msg.content));
    }
    f.to_string()
}

/// `GetModelInfo`'s `parameters`: `%-30s %#v` per value, name order.
pub fn parameters(options: &Map<String, Json>) -> String {
    let mut keys: Vec<&String> = options.keys().collect();
    keys.sort();
    let mut lines = Vec::new();
    for k in keys {
        match &options[k] {
            Json::Array(a) => {
                for v in a {
                    lines.push(crate::gofmt::param_line(30, k, v));
                }
            }
            v => lines.push(crate::gofmt::param_line(30, k, v)),
        }
    }
    lines.join("\n")
}

/// The show handler's answer for a request: the exact body bytes, or the
/// status and error.
pub fn show(dir: &dyn Dir, root: &str, req: &ShowRequest) -> Result<String, Refusal> {
    // ShowHandler: the reference, then getExistingName, then GetModelInfo
    // with the shortest display name.
    let r = ollama::modelref::parse_ref(&req.model).map_err(|e| Refusal {
        status: 400,
        message: e,
    })?;
    let n = ollama::model::Name::parse(&r.base);
    if !n.is_valid() {
        return Err(Refusal {
            status: 400,
            message: model::INVALID_MODEL_NAME.into(),
        });
    }
    if r.source == ollama::modelref::Source::Cloud {
        if req.no_cloud {
            return Err(Refusal {
                status: 403,
                message: CLOUD_DISABLED.into(),
            });
        }
        return Err(model::resolve(dir, &req.model, None).unwrap_err());
    }
    let internal = |e: crate::Error| Refusal {
        status: 500,
        message: e.to_string(),
    };
    let name = model::existing_name(dir, &n).map_err(|e| Refusal {
        status: 400,
        message: e.to_string(),
    })?;
    // GetModelInfo parses the shortest name and canonicalizes it again,
    // which gives the same name: the store is not walked twice
    let shown = name.display_shortest();
    let not_found = || Refusal {
        status: 404,
        message: format!("model '{shown}' not found"),
    };
    let mut m = model::get_model(dir, &name.to_string()).map_err(|e| {
        if e.is_not_found() {
            not_found()
        } else {
            internal(e)
        }
    })?;
    let remote = !m.config.remote_host.is_empty();
    if remote && req.no_cloud {
        return Err(Refusal {
            status: 403,
            message: CLOUD_DISABLED.into(),
        });
    }
    if r.source == ollama::modelref::Source::Local && remote {
        return Err(Refusal {
            status: 404,
            message: format!("model '{}' not found", r.original),
        });
    }
    if !req.system.is_empty() {
        m.system.clone_from(&req.system);
    }
    let skip_gguf = remote && !m.config.remote_model.is_empty();
    let gguf = match &m.model {
        Some(b) if m.config.is_gguf() && !skip_gguf => {
            Some(read_gguf(dir, &b.path).map_err(|e| Refusal {
                status: 500,
                message: e,
            })?)
        }
        _ => None,
    };
    let engine = engine_model(&m, gguf.as_ref());
    let loaded = ollama::model::Loaded::load_in(
        &engine,
        ollama::model::GoTemplateEnv::Unset,
        ollama::date::Date::today_utc(),
        req.release,
    )
    .map_err(|e| Refusal {
        status: 500,
        message: e,
    })?;
    // ggufCapabilities adds completion only from a GGUF model file; the
    // engine assumes it for cases that give none
    let no_model_file = m.model.is_none() || !m.config.is_gguf();
    let capabilities: Vec<String> = loaded
        .capabilities(|name| ollama::parsers::parser_capabilities_in(name, req.release))
        .into_iter()
        .filter(|c| !(no_model_file && c.origin == "every generative model"))
        .map(|c| c.name)
        .collect();

    let mut options = m.options.clone();
    let params = parameters(&options);
    for (k, v) in &req.options {
        options.insert(k.clone(), v.clone());
    }
    let mut modelfile = String::from("# Modelfile generated by \"ollama show\"\n");
    let body = model_string(&m, root, &options);
    if m.config.model_format == "safetensors" {
        modelfile.push_str(&format!("FROM {}\n", m.short_name));
        if let Some((_, rest)) = body.split_once('\n') {
            modelfile.push_str(rest);
        }
    } else {
        modelfile.push_str("# To build a new Modelfile based on this, replace FROM with:\n");
        modelfile.push_str(&format!("# FROM {}\n\n", m.short_name));
        modelfile.push_str(&body);
    }

    let mut quant = m.config.file_type.clone();
    let template = match &gguf {
        Some(g) => {
            if (quant.is_empty() || quant == "unknown") && g.get("general.file_type").is_some() {
                // KV.FileType(): a file type of 0 (F32) is unknown there
                let ft = g
                    .get("general.file_type")
                    .and_then(|v| v.as_u64())
                    .filter(|&v| v > 0)
                    .map(|v| crate::ggufscan::ollama_file_type(v as i64))
                    .unwrap_or_else(|| "unknown".into());
                if ft != "unknown" {
                    quant = ft;
                }
            }
            if loaded.native() {
                loaded.model.chat_template.clone().unwrap_or_default()
            } else {
                loaded.template.raw().to_string()
            }
        }
        None => m.template.clone().unwrap_or_else(|| "{{ .Prompt }}".into()),
    };

    let mut o = Obj::default();
    let license = m.license.join("\n");
    o.str_omit("license", &license)
        .str_omit("modelfile", &modelfile)
        .str_omit("parameters", &params)
        .str_omit("template", &template)
        .str_omit("system", &m.system);
    let c = &m.config;
    let mut d = Obj::default();
    d.put("parent_model", J::s(&m.parent_model))
        .put("format", J::s(&c.model_format))
        .put("family", J::s(&c.model_family))
        .put(
            "families",
            if !c.has_model_families {
                J::Null
            } else {
                J::Arr(c.model_families.iter().map(J::s).collect())
            },
        )
        .put("parameter_size", J::s(&c.model_type))
        .put("quantization_level", J::s(&quant));
    o.put("details", d.done());
    if !m.messages.is_empty() {
        o.put(
            "messages",
            J::Arr(
                m.messages
                    .iter()
                    .map(|x| message_j(&x.role, &x.content))
                    .collect(),
            ),
        );
    }
    o.str_omit("remote_model", if remote { &c.remote_model } else { "" })
        .str_omit("remote_host", if remote { &c.remote_host } else { "" });
    let mut info = match &gguf {
        Some(g) => {
            let mut kv = model_info(g, req.verbose);
            kv.remove("general.name");
            kv.remove("tokenizer.chat_template");
            kv
        }
        None => BTreeMap::new(),
    };
    if remote && !c.model_family.is_empty() && gguf.is_none() {
        info.insert("general.architecture".into(), J::s(&c.model_family));
        if !c.base_name.is_empty() {
            info.insert("general.basename".into(), J::s(&c.base_name));
        }
        if c.context_length > 0 {
            info.insert(
                format!("{}.context_length", c.model_family),
                J::int(c.context_length),
            );
        }
        if c.embedding_length > 0 {
            info.insert(
                format!("{}.embedding_length", c.model_family),
                J::int(c.embedding_length),
            );
        }
    }
    if req.user_agent.starts_with("GitHubCopilotChat/") {
        info.insert("general.basename".into(), J::s(&req.model));
    }
    o.put("model_info", J::Obj(info.into_iter().collect()));
    if let (Some(p), false) = (m.projectors.first(), skip_gguf) {
        let pf = read_gguf(dir, &p.path).map_err(|e| Refusal {
            status: 500,
            message: e,
        })?;
        o.put(
            "projector_info",
            J::Obj(model_info(&pf, req.verbose).into_iter().collect()),
        );
    }
    if let Some(g) = &gguf {
        let t = tensors(g);
        if !t.is_empty() {
            o.put("tensors", J::Arr(t));
        }
    }
    if !capabilities.is_empty() {
        o.put(
            "capabilities",
            J::Arr(capabilities.iter().map(J::s).collect()),
        );
    }
    o.put(
        "modified_at",
        J::s(
            m.manifest
                .modified_ns
                .map(crate::gofmt::rfc3339_nano)
                .unwrap_or_else(|| "0001-01-01T00:00:00Z".into()),
        ),
    );
    o.str_omit("requires", &c.requires);
    Ok(o.done().to_json())
}

/// The show handler's answer as `(status, body)`.
pub fn show_http(dir: &dyn Dir, root: &str, req: &ShowRequest) -> (u16, String) {
    match show(dir, root, req) {
        Ok(body) => (200, body),
        Err(r) => (r.status, error_body(&r.message)),
    }
}

/// `gin.H{"error": msg}` as gin writes it.
pub fn error_body(msg: &str) -> String {
    J::Obj(vec![("error".into(), J::s(msg))]).to_json()
}

/// The `ollama show` flags that print one field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// `--license` (`Println`).
    License,
    /// `--modelfile` (`Println`).
    Modelfile,
    /// `--parameters` (`Println`).
    Parameters,
    /// `--system` (`Print`).
    System,
    /// `--template` (`Print`).
    Template,
}

fn get_str<'a>(resp: &'a Json, k: &str) -> &'a str {
    resp.get(k).and_then(Json::as_str).unwrap_or("")
}

/// What `ollama show --FIELD` prints, from the decoded answer.
pub fn field(resp: &Json, f: Field) -> String {
    match f {
        Field::License => format!("{}\n", get_str(resp, "license")),
        Field::Modelfile => format!("{}\n", get_str(resp, "modelfile")),
        Field::Parameters => format!("{}\n", get_str(resp, "parameters")),
        Field::System => get_str(resp, "system").to_string(),
        Field::Template => get_str(resp, "template").to_string(),
    }
}

fn num(v: Option<&Json>) -> Option<f64> {
    v.and_then(Json::as_f64)
}

fn fmt_float(f: f64, verb: &str) -> String {
    gotmpl::gofmt::sprintf(
        verb,
        &[gotmpl::value::Value::Float(
            f,
            gotmpl::value::FloatType::F64,
        )],
    )
}

/// `strconv.FormatFloat(f, 'f', -1, 64)`.
fn ffloat(f: f64) -> String {
    gotmpl::gofmt::format_float(f, b'f', -1, 64)
}

/// What `ollama show NAME` (`showInfo`) prints, from the decoded answer.
pub fn info(resp: &Json, verbose: bool) -> String {
    let mut out = String::new();
    let table = |out: &mut String, header: &str, rows: Vec<Vec<String>>| {
        out.push_str(&format!("  {header}\n"));
        let width = if matches!(header, "Template" | "System" | "License") {
            100
        } else {
            30
        };
        let mut t = Table::new("    ", width);
        for r in &rows {
            t.append(r);
        }
        t.render(out);
        out.push('\n');
    };
    let row = |cells: &[&str]| cells.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let details = resp.get("details").cloned().unwrap_or(Json::Null);
    let dstr = |k: &str| {
        details
            .get(k)
            .and_then(Json::as_str)
            .unwrap_or("")
            .to_string()
    };
    let mi = resp.get("model_info").and_then(Json::as_object);
    let mut rows = Vec::new();
    if !get_str(resp, "remote_host").is_empty() {
        rows.push(row(&["", "Remote model", get_str(resp, "remote_model")]));
        rows.push(row(&["", "Remote URL", get_str(resp, "remote_host")]));
    }
    match mi {
        Some(mi) => {
            let arch = mi
                .get("general.architecture")
                .and_then(Json::as_str)
                .unwrap_or("")
                .to_string();
            if !arch.is_empty() {
                rows.push(row(&["", "architecture", &arch]));
            }
            let mut p = dstr("parameter_size");
            if p.is_empty() {
                if let Some(f) = num(mi.get("general.parameter_count")) {
                    p = crate::gofmt::human_number(f as u64);
                }
            }
            if !p.is_empty() {
                rows.push(row(&["", "parameters", &p]));
            }
            if let Some(f) = num(mi.get(&format!("{arch}.context_length"))) {
                rows.push(row(&["", "context length", &ffloat(f)]));
            }
            if let Some(f) = num(mi.get(&format!("{arch}.embedding_length"))) {
                rows.push(row(&["", "embedding length", &ffloat(f)]));
            }
        }
        None => {
            rows.push(row(&["", "architecture", &dstr("family")]));
            rows.push(row(&["", "parameters", &dstr("parameter_size")]));
        }
    }
    rows.push(row(&["", "quantization", &dstr("quantization_level")]));
    if !get_str(resp, "requires").is_empty() {
        rows.push(row(&["", "requires", get_str(resp, "requires")]));
    }
    table(&mut out, "Model", rows);

    if let Some(caps) = resp.get("capabilities").and_then(Json::as_array) {
        if !caps.is_empty() {
            let rows = caps
                .iter()
                .map(|c| row(&["", c.as_str().unwrap_or("")]))
                .collect();
            table(&mut out, "Capabilities", rows);
        }
    }

    if let Some(pi) = resp.get("projector_info").and_then(Json::as_object) {
        let mut rows = Vec::new();
        let arch = pi
            .get("general.architecture")
            .and_then(Json::as_str)
            .unwrap_or("")
            .to_string();
        if !arch.is_empty() {
            rows.push(row(&["", "architecture", &arch]));
        }
        if let Some(v) = num(pi.get("general.parameter_count")) {
            rows.push(row(&[
                "",
                "parameters",
                &crate::gofmt::human_number(v as u64),
            ]));
        }
        let pv = |suffix: &str| {
            ["vision", "audio"]
                .iter()
                .find_map(|m| num(pi.get(&format!("{arch}.{m}.{suffix}"))))
        };
        if let Some(v) = pv("embedding_length") {
            rows.push(row(&["", "embedding length", &ffloat(v)]));
        }
        if let Some(v) = pv("projection_dim") {
            rows.push(row(&["", "dimensions", &ffloat(v)]));
        }
        table(&mut out, "Projector", rows);
    }

    let params = get_str(resp, "parameters");
    if !params.is_empty() {
        let rows = params
            .lines()
            .filter(|l| !l.is_empty())
            .map(|l| {
                std::iter::once(String::new())
                    .chain(l.split_whitespace().map(str::to_string))
                    .collect()
            })
            .collect();
        table(&mut out, "Parameters", rows);
    }

    if let (Some(mi), true) = (mi, verbose) {
        let mut keys: Vec<&String> = mi.keys().collect();
        keys.sort();
        let rows = keys
            .into_iter()
            .map(|k| {
                let v = match &mi[k] {
                    Json::Bool(b) => b.to_string(),
                    Json::String(s) => s.clone(),
                    Json::Number(n) => fmt_float(n.as_f64().unwrap_or(0.0), "%g"),
                    Json::Array(a) => array_cell(a),
                    Json::Null => "<nil>".into(),
                    Json::Object(_) => "map[string]interface {}".into(),
                };
                vec![String::new(), k.clone(), v]
            })
            .collect();
        table(&mut out, "Metadata", rows);
    }

    if let (Some(ts), true) = (resp.get("tensors").and_then(Json::as_array), verbose) {
        if !ts.is_empty() {
            let rows = ts
                .iter()
                .map(|t| {
                    let shape = t
                        .get("shape")
                        .map(crate::gofmt::v)
                        .unwrap_or_else(|| "[]".into());
                    vec![
                        String::new(),
                        t.get("name").and_then(Json::as_str).unwrap_or("").into(),
                        t.get("type").and_then(Json::as_str).unwrap_or("").into(),
                        shape,
                    ]
                })
                .collect();
            table(&mut out, "Tensors", rows);
        }
    }

    let head = |s: &str, n: usize| {
        let mut rows = Vec::new();
        let mut count = 0;
        for line in s.lines() {
            let t = line.trim();
            if t.is_empty() {
                continue;
            }
            count += 1;
            if count <= n {
                rows.push(row(&["", t]));
            }
        }
        if count > n {
            rows.push(row(&["", "..."]));
        }
        rows
    };
    let system = get_str(resp, "system");
    if !system.is_empty() {
        table(&mut out, "System", head(system, 2));
    }
    let license = get_str(resp, "license");
    if !license.is_empty() {
        table(&mut out, "License", head(license, 2));
    }
    out
}

/// showInfo's cell for a metadata array: as many `%v` items as fit in 10
/// columns, then ` ...+N more]`.
fn array_cell(a: &[Json]) -> String {
    let target = 10usize;
    let mut total = 1usize;
    let mut shown = 0usize;
    for (i, x) in a.iter().enumerate() {
        let mut w = crate::table::width(&crate::gofmt::v(x));
        if i > 0 {
            w += 2;
        }
        if total + w > target && i > 0 {
            break;
        }
        total += w;
        shown += 1;
    }
    if shown < a.len() {
        let head = crate::gofmt::v(&Json::Array(a[..shown].to_vec()));
        format!(
            "{} ...+{} more]",
            head.strip_suffix(']').unwrap_or(&head),
            a.len() - shown
        )
    } else {
        crate::gofmt::v(&Json::Array(a.to_vec()))
    }
}

/// A pasted `/api/show` response body made a model: its `modelfile` (which
/// holds TEMPLATE, SYSTEM, RENDERER, PARSER, PARAMETERs, MESSAGEs and
/// LICENSEs as `ollama create` would take them back) parsed as Ollama
/// parses Modelfiles, the family and capabilities from `details` and
/// `capabilities`, and whether it has a projector (`projector_info`). The
/// FROM lines name the blobs on the machine that answered.
pub fn import_body(body: &Json) -> Result<(crate::create::CreateRequest, Json), String> {
    let Some(modelfile) = body.get("modelfile").and_then(Json::as_str) else {
        return Err("not an /api/show response: it has no \"modelfile\"".into());
    };
    let f =
        crate::modelfile::parse(modelfile.as_bytes()).map_err(|e| format!("its modelfile: {e}"))?;
    let mut req = f
        .create_request()
        .map_err(|e| format!("its modelfile: {e}"))?;
    // Model.String writes Ollama's default template for a model without a
    // template layer: taken as no TEMPLATE (a model whose template layer
    // is exactly `{{ .Prompt }}` reads the same)
    if req.template == "{{ .Prompt }}" {
        req.template.clear();
    }
    let mut extra = serde_json::json!({});
    if let Some(f) = body["details"]["family"].as_str().filter(|f| !f.is_empty()) {
        extra["family"] = Json::from(f);
    }
    if let Some(fs) = body["details"]["families"].as_array() {
        extra["families"] = Json::Array(fs.clone());
    }
    if body.get("projector_info").is_some_and(|p| p.is_object()) {
        extra["projector"] = Json::Bool(true);
    }
    Ok((req, extra))
}
