//! A model as Ollama v0.33.0-rc2's `GetModel` reads it from the store
//! (server/images.go), its name resolved as the handlers resolve it
//! (`parseAndValidateModelRef`, `getExistingName`), and what it gives a
//! render case.

use ollama::model::Name;
use ollama::modelref::{self, Source};
use serde_json::{Map, Value as Json};

use crate::config::{self, Config};
use crate::dir::Dir;
use crate::manifest::{self, media, Layer, Manifest};
use crate::{Error, ErrorKind};

/// The most bytes a config, template, system, params, messages or license
/// blob may have (Ollama reads them whole; real ones are a few KiB).
pub const SMALL_BLOB_LIMIT: u64 = 32 << 20;

/// Ollama's `errtypes.InvalidModelNameErrMsg`.
pub const INVALID_MODEL_NAME: &str = "invalid model name";

/// A blob a layer names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Blob {
    /// `sha256:<hex>`.
    pub digest: String,
    /// `blobs/sha256-<hex>`, relative to the models directory.
    pub path: String,
    /// The layer's media type.
    pub media_type: String,
    /// The size the layer claims.
    pub size: i64,
}

/// A MESSAGE from the messages layer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    /// The role, lower-cased as `api.Message` decodes it.
    pub role: String,
    /// The content.
    pub content: String,
}

/// Where one input of the model came from, for Explain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Origin {
    /// The input (`TEMPLATE`, `SYSTEM`, `num_ctx 8192`, `RENDERER qwen3`).
    pub what: String,
    /// Where it was found (`template layer sha256:ab12…`, `config`).
    pub from: String,
}

/// `server.Model`, as `GetModel` fills it.
#[derive(Clone, Debug, Default)]
pub struct StoredModel {
    /// The name, its parts as the store spells them.
    pub name: Name,
    /// `m.Name`: the fully qualified name.
    pub full_name: String,
    /// `m.ShortName`: `DisplayShortest`.
    pub short_name: String,
    /// The manifest.
    pub manifest: Manifest,
    /// The config blob.
    pub config: Config,
    /// The GGUF model layer.
    pub model: Option<Blob>,
    /// The model layer's `from`.
    pub parent_model: String,
    /// Adapters, in order.
    pub adapters: Vec<Blob>,
    /// Projectors, in order.
    pub projectors: Vec<Blob>,
    /// The draft model.
    pub draft: Option<Blob>,
    /// The Go TEMPLATE text (template or older prompt layer); `None`: no
    /// such layer, and Ollama's default `{{ .Prompt }}` applies.
    pub template: Option<String>,
    /// SYSTEM.
    pub system: String,
    /// LICENSEs, in order.
    pub license: Vec<String>,
    /// The params layer: option defaults, as decoded JSON (numbers are
    /// float64 in Go; `stop` a list).
    pub options: Map<String, Json>,
    /// Whether a params layer was there.
    pub has_params: bool,
    /// MESSAGEs.
    pub messages: Vec<Message>,
    /// Where each input came from.
    pub origins: Vec<Origin>,
}

fn short(digest: &str) -> String {
    let hex = digest.strip_prefix("sha256:").unwrap_or(digest);
    format!("sha256:{}", &hex[..hex.len().min(12)])
}

fn read_text(dir: &dyn Dir, layer: &Layer) -> Result<(Blob, Vec<u8>), Error> {
    let path = manifest::blob_path(&layer.digest)
        .map_err(|e| Error::new(&layer.digest, ErrorKind::Manifest(e)))?;
    let bytes = dir.read(&path, SMALL_BLOB_LIMIT)?;
    Ok((blob(layer, path), bytes))
}

fn blob(layer: &Layer, path: String) -> Blob {
    Blob {
        digest: layer.digest.clone(),
        path,
        media_type: layer.media_type.clone(),
        size: layer.size,
    }
}

/// Go's `string(bytes)` keeps invalid UTF-8; ours cannot and replaces it.
fn text(b: Vec<u8>) -> String {
    String::from_utf8(b).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

fn decode_json(path: &str, bytes: &[u8]) -> Result<Json, Error> {
    serde_json::from_slice(bytes)
        .map_err(|e| Error::new(path, ErrorKind::Blob(manifest::json_error(&e))))
}

/// `GetModel(name)`: `name` is parsed with `ParseName` (defaults filled);
/// callers resolve case first ([`existing_name`]).
pub fn get_model(dir: &dyn Dir, name: &str) -> Result<StoredModel, Error> {
    let n = Name::parse(name);
    let mf = manifest::read_named(dir, &n)?;
    let mut m = StoredModel {
        full_name: n.to_string(),
        short_name: n.display_shortest(),
        name: n,
        ..StoredModel::default()
    };
    if !mf.config.digest.is_empty() {
        let (b, bytes) = read_text(dir, &mf.config)?;
        m.config = config::parse(&bytes).map_err(|e| Error::new(&b.path, ErrorKind::Blob(e)))?;
        let c = &m.config;
        for (what, v) in [
            ("RENDERER", &c.renderer),
            ("PARSER", &c.parser),
            ("family", &c.model_family),
            ("REQUIRES", &c.requires),
        ] {
            if !v.is_empty() {
                m.origins.push(Origin {
                    what: format!("{what} {v}"),
                    from: format!("config {}", short(&b.digest)),
                });
            }
        }
    }
    for layer in &mf.layers {
        let path = manifest::blob_path(&layer.digest)
            .map_err(|e| Error::new(&mf.path, ErrorKind::Manifest(e)))?;
        let origin = |what: &str, kind: &str| Origin {
            what: what.to_string(),
            from: format!("{kind} layer {}", short(&layer.digest)),
        };
        match layer.media_type.as_str() {
            media::MODEL => {
                m.parent_model = layer.from.clone();
                m.origins.push(origin("GGUF", "model"));
                m.model = Some(blob(layer, path));
            }
            media::DRAFT => m.draft = Some(blob(layer, path)),
            media::ADAPTER => m.adapters.push(blob(layer, path)),
            media::PROJECTOR => {
                m.origins.push(origin("projector (vision)", "projector"));
                m.projectors.push(blob(layer, path));
            }
            media::PROMPT | media::TEMPLATE => {
                let (_, bytes) = read_text(dir, layer)?;
                let kind = if layer.media_type == media::PROMPT {
                    "prompt"
                } else {
                    "template"
                };
                m.origins.push(origin("TEMPLATE", kind));
                m.template = Some(text(bytes));
            }
            media::SYSTEM => {
                let (_, bytes) = read_text(dir, layer)?;
                m.origins.push(origin("SYSTEM", "system"));
                m.system = text(bytes);
            }
            media::PARAMS => {
                let (b, bytes) = read_text(dir, layer)?;
                match decode_json(&b.path, &bytes)? {
                    Json::Object(o) => {
                        for (k, v) in &o {
                            let shown = match v {
                                Json::Array(a) => a
                                    .iter()
                                    .map(crate::gofmt::v)
                                    .collect::<Vec<_>>()
                                    .join(", "),
                                v => crate::gofmt::v(v),
                            };
                            m.origins.push(origin(&format!("{k} {shown}"), "params"));
                        }
                        // A second params layer decodes into the same map.
                        m.options.extend(o);
                    }
                    Json::Null => {}
                    v => {
                        return Err(Error::new(
                            &b.path,
                            ErrorKind::Blob(format!(
                                "json: cannot unmarshal {} into Go value of type map[string]interface {{}}",
                                manifest::go_kind(&v)
                            )),
                        ))
                    }
                }
                m.has_params = true;
            }
            media::MESSAGES => {
                let (b, bytes) = read_text(dir, layer)?;
                m.messages = decode_messages(&b.path, &bytes)?;
                m.origins.push(origin(
                    &format!("{} MESSAGE lines", m.messages.len()),
                    "messages",
                ));
            }
            media::LICENSE => {
                let (_, bytes) = read_text(dir, layer)?;
                m.license.push(text(bytes));
            }
            _ => {}
        }
    }
    m.manifest = mf;
    Ok(m)
}

fn decode_messages(path: &str, bytes: &[u8]) -> Result<Vec<Message>, Error> {
    let bad = |v: &Json, ty: &str| {
        Error::new(
            path,
            ErrorKind::Blob(format!(
                "json: cannot unmarshal {} into Go value of type {ty}",
                manifest::go_kind(v)
            )),
        )
    };
    match decode_json(path, bytes)? {
        Json::Null => Ok(Vec::new()),
        Json::Array(a) => a
            .iter()
            .map(|x| match x {
                Json::Object(o) => {
                    let s = |k: &str| -> Result<String, Error> {
                        match o.get(k) {
                            None | Some(Json::Null) => Ok(String::new()),
                            Some(Json::String(s)) => Ok(s.clone()),
                            Some(v) => Err(bad(v, "string")),
                        }
                    };
                    Ok(Message {
                        role: s("role")?.to_lowercase(),
                        content: s("content")?,
                    })
                }
                Json::Null => Ok(Message {
                    role: String::new(),
                    content: String::new(),
                }),
                v => Err(bad(v, "api.Message")),
            })
            .collect(),
        v => Err(bad(&v, "[]api.Message")),
    }
}

/// The names of the store's manifests (`manifests/*/*/*/*` that make
/// valid names), without reading them.
pub fn names(dir: &dyn Dir) -> Result<Vec<Name>, Error> {
    let mut out: Vec<Name> = manifest::files(dir)?
        .0
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    out.sort_by_key(|n| n.to_string());
    Ok(out)
}

/// `getExistingName`: each part of `n` takes the spelling of a stored
/// model's part that equals it without case. Ollama walks a Go map, so
/// when several spellings match, which one wins is random; here a model
/// that matches every part wins (one of Ollama's outcomes), else the last
/// match in name order.
pub fn existing_name(dir: &dyn Dir, n: &Name) -> Result<Name, Error> {
    let all = names(dir)?;
    let mut n = n.clone();
    if let Some(e) = all.iter().find(|e| e.equal_fold(&n)) {
        n.host.clone_from(&e.host);
        n.namespace.clone_from(&e.namespace);
        n.model.clone_from(&e.model);
        n.tag.clone_from(&e.tag);
        return Ok(n);
    }
    let fold = |a: &str, b: &str| {
        Name {
            model: a.into(),
            ..Name::default()
        }
        .equal_fold(&Name {
            model: b.into(),
            ..Name::default()
        })
    };
    for e in &all {
        if fold(&e.host, &n.host) {
            n.host.clone_from(&e.host);
        }
        if fold(&e.namespace, &n.namespace) {
            n.namespace.clone_from(&e.namespace);
        }
        if fold(&e.model, &n.model) {
            n.model.clone_from(&e.model);
        }
        if fold(&e.tag, &n.tag) {
            n.tag.clone_from(&e.tag);
        }
    }
    Ok(n)
}

/// How a handler refuses a name, with its HTTP status.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// The HTTP status.
    pub status: u16,
    /// The error text.
    pub message: String,
}

/// A name resolved as the chat and generate handlers resolve it.
#[derive(Clone, Debug)]
pub struct Resolved {
    /// The reference without its source suffix (`req.Model` after it).
    pub base: String,
    /// The name, canonicalized against the store.
    pub name: Name,
    /// `:local`, `:cloud` or neither.
    pub source: Source,
}

/// `parseAndValidateModelRef` then `getExistingName`, with the errors the
/// chat and generate handlers answer (`fallback` is the text a handler
/// gives other parse errors: `model is required`, or the error itself).
pub fn resolve(dir: &dyn Dir, raw: &str, fallback: Option<&str>) -> Result<Resolved, Refusal> {
    let r = modelref::parse_ref(raw).map_err(|e| Refusal {
        status: 400,
        message: if e.starts_with("use either") {
            e
        } else {
            fallback.map(str::to_string).unwrap_or(e)
        },
    })?;
    let n = Name::parse(&r.base);
    if !n.is_valid() {
        return Err(Refusal {
            status: 400,
            message: INVALID_MODEL_NAME.into(),
        });
    }
    if r.source == Source::Cloud {
        return Err(Refusal {
            status: 502,
            message: format!(
                "{}: a cloud model; Ollama forwards such requests to ollama.com, which Promptscope does not do",
                r.original
            ),
        });
    }
    let name = existing_name(dir, &n).map_err(|e| Refusal {
        status: 500,
        message: e.to_string(),
    })?;
    Ok(Resolved {
        base: r.base,
        name,
        source: r.source,
    })
}

/// Loads the model a handler would serve for `raw`: the name resolved,
/// `GetModel`, and the handlers' `model 'X' not found` (404).
pub fn load(dir: &dyn Dir, raw: &str) -> Result<StoredModel, Refusal> {
    let r = resolve(dir, raw, Some("model is required"))?;
    let m = get_model(dir, &r.name.to_string()).map_err(|e| {
        if e.is_not_found() {
            Refusal {
                status: 404,
                message: format!("model '{raw}' not found"),
            }
        } else {
            Refusal {
                status: 500,
                message: e.to_string(),
            }
        }
    })?;
    if r.source == Source::Local
        && !m.config.remote_host.is_empty()
        && !m.config.remote_model.is_empty()
    {
        return Err(Refusal {
            status: 404,
            message: format!("model '{raw}' not found"),
        });
    }
    Ok(m)
}

impl StoredModel {
    /// Fills a render case's `model` (what the case does not say itself)
    /// and puts the params layer under the request's options, the request
    /// winning key by key (`stop` replaced, not appended), as
    /// `modelOptions` merges them. `model.gguf` is the model blob's path
    /// relative to the models directory; the caller makes it a real path.
    pub fn fill_case(&self, case: &mut Json) {
        let c = &self.config;
        let messages = self
            .messages
            .iter()
            .map(|x| (x.role.as_str(), x.content.as_str()));
        crate::create::fill_model(
            case,
            &[
                ("system", Some(self.system.as_str())),
                ("renderer", Some(c.renderer.as_str())),
                ("parser", Some(c.parser.as_str())),
                ("family", Some(c.model_family.as_str())),
                ("gguf", self.model.as_ref().map(|b| b.path.as_str())),
            ],
            messages,
        );
        let m = &mut case["model"];
        let free = |m: &Json, k: &str| m.get(k).is_none_or(Json::is_null);
        // a template layer, even an empty one, is a Go TEMPLATE
        if let (Some(t), true) = (&self.template, free(m, "template")) {
            m["template"] = Json::from(t.as_str());
        }
        for (k, list) in [
            ("families", &c.model_families),
            ("capabilities", &c.capabilities),
        ] {
            if !list.is_empty() && free(m, k) {
                m[k] = Json::from(list.clone());
            }
        }
        if !self.projectors.is_empty() && free(m, "projector") {
            m["projector"] = Json::Bool(true);
        }
        crate::create::options_under_request(case, &self.options);
    }
}
