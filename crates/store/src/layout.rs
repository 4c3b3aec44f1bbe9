//! What `ollama create` writes into a models directory for a Modelfile
//! (server/create.go at v0.33.0-rc2: `CreateHandler`, `createModel`, the
//! `set*` layer functions, `detectChatTemplate`, `createConfigLayer` and
//! manifest.WriteManifest): the manifest, the config blob and the small
//! layers (TEMPLATE, SYSTEM, LICENSE, params, messages), byte for byte.
//!
//! No file system: the caller reads the GGUFs (digest, size, header) and
//! the base model's manifest, then writes what [`plan`] returns.
//!
//! Ollama passes every model GGUF it is given through llama.cpp's
//! `llama-quantize … COPY` (`gguf_meta::copy` builds that file); the
//! caller writes it and gives its digest ([`GgufInput::copy`]), or keeps
//! the file as given, as Ollama's own test stub (`copyLlamaQuantizeInput`)
//! does. A LLaVA projector without `clip.projector_type` is rewritten by
//! Ollama's own GGUF writer (`gguf_meta::copy::ollama_write_gguf`), given
//! the same way. Safetensors folders are refused with a message that says
//! so.

use gguf_meta::{GgufFile, Value};
use ollama::model::Name;
use ollama::named::{named, KnownTemplate};
use serde_json::{Map, Value as Json};

use crate::create::CreateRequest;
use crate::gofmt::human_number;
use crate::gojson::{Obj, J};
use crate::manifest::{media, sha256_hex, Layer, Manifest};

/// A GGUF named by FROM or ADAPTER, as the caller read it.
pub struct GgufInput<'a> {
    /// The name `ollama create` sends for it: the file's base name.
    pub source: String,
    /// `sha256:<hex>` of the file.
    pub digest: String,
    /// Its size in bytes.
    pub size: i64,
    /// Its header (metadata and tensor infos).
    pub file: &'a GgufFile,
    /// Digest and size of `llama-quantize … COPY`'s rewrite of it, where
    /// Ollama stores that ([`copies`]); `None` stores the file as given
    /// (Ollama's test stub does that).
    pub copy: Option<(String, i64)>,
}

/// Whether Ollama stores this GGUF, given as a file, through
/// `llama-quantize … COPY` (`createModel`: a model layer, not an adapter or
/// projector, without embedded compatibility tensors).
pub fn copies(f: &GgufFile) -> bool {
    kind(f) != "adapter" && !is_projector(f) && !has_compat_tensors(f)
}

/// Whether this GGUF, given as a file, is a projector that Ollama rewrites
/// ([`needs_projector_type`]).
pub fn rewrites_projector(f: &GgufFile) -> bool {
    kind(f) != "adapter" && is_projector(f) && needs_projector_type(f)
}

/// `hasEmbeddedCompatibilityTensors`.
fn has_compat_tensors(f: &GgufFile) -> bool {
    f.tensors().iter().any(|t| {
        ["a.", "mm.", "mtp.", "s.", "v."]
            .iter()
            .any(|p| t.name.starts_with(p))
    })
}

/// A base model of the store (FROM a model name).
pub struct BaseModel<'a> {
    /// `name.DisplayShortest()`: what each inherited layer's `from` says.
    pub name: String,
    /// Its manifest.
    pub manifest: &'a Manifest,
    /// Its config blob, where it could be read.
    pub config: Option<Json>,
    /// The headers of its model and draft layers, by digest.
    pub ggufs: Vec<(String, &'a GgufFile)>,
    /// The bytes of its params layers, by digest (`setParameters` merges them).
    pub params: Vec<(String, Vec<u8>)>,
}

/// Where the model comes from.
pub enum Source<'a> {
    /// FROM a GGUF file.
    Files(Vec<GgufInput<'a>>),
    /// FROM a model of the store.
    Model(BaseModel<'a>),
    /// FROM a cloud model (`…:cloud`, `…-cloud`): a config that names it.
    Remote {
        /// `remote_host`.
        host: String,
        /// `remote_model`.
        model: String,
    },
}

/// One of Ollama's built-in templates (`template/*.gotmpl`, with its
/// `index.json` entry and its `.json` parameters), for `detectChatTemplate`.
#[derive(Clone, Debug)]
pub struct Builtin {
    /// The index entry (name and the Jinja template it stands for).
    pub known: KnownTemplate,
    /// The Go template text.
    pub gotmpl: String,
    /// `{"stop": [...]}` where the template has a `.json` file.
    pub stop: Option<Vec<String>>,
}

/// Why a create stops.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refused {
    /// Ollama's own error text (its client prints `Error: <text>`).
    Ollama(String),
    /// A step Ollama takes that this crate does not reproduce, said as such.
    Unsupported(String),
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refused::Ollama(m) | Refused::Unsupported(m) => f.write_str(m),
        }
    }
}

/// What to write.
#[derive(Debug, Default)]
pub struct Plan {
    /// `manifests/<host>/<namespace>/<model>/<tag>`.
    pub manifest_path: String,
    /// The manifest's bytes.
    pub manifest: Vec<u8>,
    /// The blobs the manifest references, each with its digest: the small
    /// ones (config, TEMPLATE, SYSTEM, …) as bytes; GGUFs by the digest the
    /// caller gave (`None`: copy the file itself).
    pub blobs: Vec<(String, Option<Vec<u8>>)>,
    /// Ollama's progress lines (`using autodetected template chatml`, …).
    pub status: Vec<String>,
}

const MODEL: &str = media::MODEL;
const ADAPTER: &str = "application/vnd.ollama.image.adapter";
const PROJECTOR: &str = "application/vnd.ollama.image.projector";
const TEMPLATE: &str = "application/vnd.ollama.image.template";
const SYSTEM: &str = "application/vnd.ollama.image.system";
const LICENSE: &str = "application/vnd.ollama.image.license";
const PARAMS: &str = "application/vnd.ollama.image.params";
const MESSAGES: &str = "application/vnd.ollama.image.messages";
const DRAFT: &str = media::DRAFT;

/// A layer on its way into the manifest, with what createModel reads.
struct Pending<'a> {
    layer: Layer,
    gguf: Option<&'a GgufFile>,
    /// Came from a file the user gave (`rewriteForCreate`).
    rewrite: bool,
    /// The blob's bytes where this plan makes it.
    bytes: Option<Vec<u8>>,
    /// llama-quantize COPY's output (digest, size), where the caller made it.
    copy: Option<(String, i64)>,
}

/// `KV.String(key)` (a string value, else empty).
fn kv_str<'f>(f: &'f GgufFile, key: &str) -> &'f str {
    f.get_str(key).unwrap_or("")
}

/// `KV.Uint(key)`: a uint32 under `key` (arch-prefixed unless `general.` or
/// `tokenizer.`), else 0.
fn kv_u32(f: &GgufFile, key: &str) -> u32 {
    let full = if key.starts_with("general.") || key.starts_with("tokenizer.") {
        key.to_string()
    } else {
        format!("{}.{key}", architecture(f))
    };
    match f.get(&full) {
        Some(Value::U32(v)) => *v,
        _ => 0,
    }
}

/// `KV.Bool(key)` (arch-prefixed like [`kv_u32`]).
fn kv_bool(f: &GgufFile, key: &str) -> bool {
    matches!(
        f.get(&format!("{}.{key}", architecture(f))),
        Some(Value::Bool(true))
    )
}

/// `KV.Architecture()`.
fn architecture(f: &GgufFile) -> String {
    match f.get_str("general.architecture") {
        Some(a) => a.to_string(),
        None => "unknown".into(),
    }
}

/// `KV.Kind()`.
fn kind(f: &GgufFile) -> &str {
    f.get_str("general.type").unwrap_or("unknown")
}

/// `isProjectorGGUF`.
fn is_projector(f: &GgufFile) -> bool {
    if matches!(kind(f), "projector" | "mmproj") {
        return true;
    }
    if kv_u32(f, "block_count") == 0 && kv_u32(f, "vision.block_count") > 0 {
        return true;
    }
    architecture(f) == "clip"
        && kv_u32(f, "block_count") == 0
        && (kv_bool(f, "has_vision_encoder") || kv_bool(f, "has_audio_encoder"))
}

/// `needsDefaultLlavaProjectorType`: a projector given as a file that
/// Ollama rewrites with its own writer, adding `clip.projector_type`
/// (`gguf_meta::copy::ollama_write_gguf`); the caller gives the result as
/// [`GgufInput::copy`].
pub fn needs_projector_type(f: &GgufFile) -> bool {
    architecture(f) == "clip"
        && kv_bool(f, "has_vision_encoder")
        && f.get("clip.projector_type").is_none()
        && f.get("clip.vision.projector_type").is_none()
}

/// `KV.FileType().String()`.
fn file_type(f: &GgufFile) -> String {
    match kv_u32(f, "general.file_type") {
        0 => "unknown".into(),
        t => crate::ggufscan::ollama_file_type(i64::from(t)),
    }
}

/// `manifest.NewLayer` over bytes.
fn new_layer<'a>(bytes: Vec<u8>, media_type: &str) -> Pending<'a> {
    Pending {
        layer: Layer {
            media_type: media_type.into(),
            digest: format!("sha256:{}", sha256_hex(&bytes)),
            size: bytes.len() as i64,
            ..Layer::default()
        },
        gguf: None,
        rewrite: false,
        bytes: Some(bytes),
        copy: None,
    }
}

/// Go's `json.NewEncoder(w).Encode(v)`: the value and a newline.
fn encode(v: &J) -> Vec<u8> {
    let mut s = v.to_json();
    s.push('\n');
    s.into_bytes()
}

/// `detectChatTemplate`: a built-in template (and its stop parameters) for
/// each layer whose GGUF carries a chat template that `template.Named`
/// matches.
fn detect<'a>(layers: &mut Vec<Pending<'a>>, builtins: &[Builtin], status: &mut Vec<String>) {
    let known: Vec<KnownTemplate> = builtins.iter().map(|b| b.known.clone()).collect();
    let mut added = Vec::new();
    for l in layers.iter() {
        let Some(f) = l.gguf else { continue };
        let chat = kv_str(f, "tokenizer.chat_template");
        if chat.is_empty() {
            continue;
        }
        let Ok(m) = named(chat, &known) else { continue };
        let b = &builtins[m.index];
        let t = new_layer(b.gotmpl.clone().into_bytes(), TEMPLATE);
        status.push(format!("using autodetected template {}", b.known.name));
        added.push(t);
        if let Some(stop) = &b.stop {
            let mut o = Obj::default();
            o.put("stop", J::Arr(stop.iter().map(J::s).collect()));
            added.push(new_layer(encode(&o.done()), PARAMS));
        }
    }
    layers.extend(added);
}

/// Removes every layer of a media type (`removeLayer`).
fn remove(layers: &mut Vec<Pending>, media_type: &str) {
    layers.retain(|l| l.layer.media_type != media_type);
}

/// The base layers of FROM files (`convertModelFromFiles`): sorted by
/// name, their media types from the header, then template detection.
fn file_layers<'a>(
    files: Vec<GgufInput<'a>>,
    adapter: bool,
    builtins: Option<&[Builtin]>,
    status: &mut Vec<String>,
) -> Result<Vec<Pending<'a>>, Refused> {
    if files.is_empty() {
        return Err(Refused::Ollama("no files provided to convert".into()));
    }
    if files.len() > 1 && adapter {
        return Err(Refused::Ollama(
            "only one adapter is currently supported".into(),
        ));
    }
    let mut files = files;
    files.sort_by(|a, b| a.source.cmp(&b.source));
    let mut layers = Vec::new();
    for g in files {
        status.push("parsing GGUF".into());
        if g.file.get("split.count").is_some() {
            return Err(Refused::Unsupported(format!(
                "{}: split GGUFs (split.count) are merged by Ollama's create; Promptscope does not write them yet",
                g.source
            )));
        }
        let media_type = if kind(g.file) == "adapter" {
            ADAPTER
        } else if is_projector(g.file) {
            PROJECTOR
        } else {
            MODEL
        };
        layers.push(Pending {
            layer: Layer {
                media_type: media_type.into(),
                digest: g.digest,
                size: g.size,
                from: g.source,
                ..Layer::default()
            },
            gguf: Some(g.file),
            rewrite: true,
            bytes: None,
            copy: g.copy,
        });
    }
    if let Some(b) = builtins {
        detect(&mut layers, b, status);
    }
    Ok(layers)
}

/// `ConfigV2` as Go encodes it.
#[derive(Default)]
struct Config {
    model_format: String,
    model_family: String,
    model_families: Option<Vec<String>>,
    model_type: String,
    file_type: String,
    renderer: String,
    parser: String,
    requires: String,
    remote_host: String,
    remote_model: String,
    capabilities: Vec<String>,
    draft: Option<(String, String)>,
}

impl Config {
    fn to_j(&self) -> J {
        let mut o = Obj::default();
        o.put("model_format", J::s(&self.model_format))
            .put("model_family", J::s(&self.model_family))
            .put(
                "model_families",
                match &self.model_families {
                    Some(f) => J::Arr(f.iter().map(J::s).collect()),
                    None => J::Null,
                },
            )
            .put("model_type", J::s(&self.model_type))
            .put("file_type", J::s(&self.file_type))
            .str_omit("renderer", &self.renderer)
            .str_omit("parser", &self.parser)
            .str_omit("requires", &self.requires)
            .str_omit("remote_host", &self.remote_host)
            .str_omit("remote_model", &self.remote_model);
        if !self.capabilities.is_empty() {
            o.put(
                "capabilities",
                J::Arr(self.capabilities.iter().map(J::s).collect()),
            );
        }
        if let Some((format, arch)) = &self.draft {
            let mut d = Obj::default();
            d.str_omit("model_format", format)
                .str_omit("architecture", arch);
            o.put("draft", d.done());
        }
        o.put("architecture", J::s("amd64"))
            .put("os", J::s("linux"));
        o.done()
    }
}

/// `cmp.Or` for strings.
fn or(a: &mut String, b: &str) {
    if a.is_empty() {
        *a = b.to_string();
    }
}

/// `layer.MarshalJSON` order: mediaType, digest, size, from, name.
fn layer_j(l: &Layer) -> J {
    let mut o = Obj::default();
    o.put("mediaType", J::s(&l.media_type))
        .put("digest", J::s(&l.digest))
        .put("size", J::int(l.size))
        .str_omit("from", &l.from)
        .str_omit("name", &l.name);
    o.done()
}

/// The whole create: the manifest, its path and the blobs to write, or
/// Ollama's error text.
pub fn plan(
    name: &Name,
    req: &CreateRequest,
    source: Source,
    adapters: Vec<GgufInput>,
    builtins: Option<&[Builtin]>,
) -> Result<Plan, Refused> {
    let Some(rel) = name.filepath().filter(|_| name.is_valid()) else {
        return Err(Refused::Ollama("invalid model name".into()));
    };
    let mut status = Vec::new();
    let mut config = Config {
        renderer: req.renderer.clone(),
        parser: req.parser.clone(),
        requires: req.requires.clone(),
        ..Config::default()
    };
    // params blobs of the base model, by digest, for setParameters
    let mut base_params: Vec<(String, Vec<u8>)> = Vec::new();
    let mut layers: Vec<Pending> = match source {
        Source::Remote { host, model } => {
            config.remote_host = host;
            config.remote_model = model;
            Vec::new()
        }
        Source::Model(base) => {
            if let Some(c) = &base.config {
                let s = |k: &str| c.get(k).and_then(Json::as_str).unwrap_or("").to_string();
                or(&mut config.renderer, &s("renderer"));
                or(&mut config.parser, &s("parser"));
                or(&mut config.requires, &s("requires"));
                or(&mut config.model_format, &s("model_format"));
                if let Some(caps) = c.get("capabilities").and_then(Json::as_array) {
                    config.capabilities = caps
                        .iter()
                        .map(|x| x.as_str().unwrap_or("").to_string())
                        .collect();
                }
            }
            base_params = base.params;
            base.manifest
                .layers
                .iter()
                .map(|l| Pending {
                    layer: Layer {
                        media_type: l.media_type.clone(),
                        digest: l.digest.clone(),
                        size: l.size,
                        from: base.name.clone(),
                        name: l.name.clone(),
                    },
                    gguf: if l.media_type == MODEL || l.media_type == DRAFT {
                        base.ggufs
                            .iter()
                            .find(|(d, _)| *d == l.digest)
                            .map(|(_, f)| *f)
                    } else {
                        None
                    },
                    rewrite: false,
                    bytes: None,
                    copy: None,
                })
                .collect()
        }
        Source::Files(files) => file_layers(files, false, builtins, &mut status)?,
    };
    if !adapters.is_empty() {
        let more = file_layers(adapters, true, builtins, &mut status)?;
        layers.extend(more);
    }

    // createModel: the GGUF layers and the config they give
    let mut params = req.parameters.clone();
    for l in layers.iter_mut() {
        let Some(f) = l.gguf else { continue };
        if l.rewrite && l.layer.media_type == MODEL && !has_compat_tensors(f) {
            // llama-quantize COPY: a new layer (no `from`) of its output
            status.push("validating GGUF model".into());
            l.layer.from.clear();
            if let Some((digest, size)) = l.copy.take() {
                l.layer.digest = digest;
                l.layer.size = size;
            }
        }
        if l.rewrite && l.layer.media_type == PROJECTOR && needs_projector_type(f) {
            // addDefaultLlavaProjectorType: a new layer of Ollama's rewrite
            status.push("updating GGUF projector metadata".into());
            let Some((digest, size)) = l.copy.take() else {
                return Err(Refused::Unsupported(format!(
                    "{}: Ollama rewrites this projector (adding clip.projector_type); give the rewrite",
                    l.layer.from
                )));
            };
            l.layer.digest = digest;
            l.layer.size = size;
            l.layer.from.clear();
        }
        match l.layer.media_type.as_str() {
            MODEL => {
                let arch = architecture(f);
                or(&mut config.model_format, "gguf");
                or(&mut config.model_family, &arch);
                or(&mut config.model_type, &human_number(f.parameter_count()));
                or(&mut config.file_type, &file_type(f));
                config
                    .model_families
                    .get_or_insert_with(Vec::new)
                    .push(arch.clone());
                if config.renderer.is_empty() || config.parser.is_empty() {
                    if arch == "gemma4" && !params.contains_key("stop") {
                        params.insert("stop".into(), Json::Array(vec![Json::from("<turn|>")]));
                    }
                    let (r, p) = match arch.as_str() {
                        "gemma4" => ("gemma4", "gemma4"),
                        "laguna" => ("laguna", "laguna"),
                        "nemotron_h" | "nemotron_h_moe" | "nemotron_h_omni" => {
                            ("nemotron-3-nano", "nemotron-3-nano")
                        }
                        _ => ("", ""),
                    };
                    or(&mut config.renderer, r);
                    or(&mut config.parser, p);
                }
            }
            DRAFT => config.draft = Some(("gguf".into(), architecture(f))),
            _ => {}
        }
    }
    if !req.template.is_empty() {
        remove(&mut layers, TEMPLATE);
        // template.Parse (the date only feeds the template's functions)
        if let Err(e) =
            ollama::template::Template::parse(&req.template, ollama::date::Date::new(2026, 1, 1))
        {
            return Err(Refused::Ollama(format!("template error: {e}")));
        }
        layers.push(new_layer(req.template.clone().into_bytes(), TEMPLATE));
    }
    if !req.system.is_empty() {
        remove(&mut layers, SYSTEM);
        layers.push(new_layer(req.system.clone().into_bytes(), SYSTEM));
    }
    for l in &req.license {
        layers.push(new_layer(l.clone().into_bytes(), LICENSE));
    }

    // setParameters: the request's values, then the existing params layers'
    // keys the request does not set
    for l in layers.iter().filter(|l| l.layer.media_type == PARAMS) {
        let bytes = match &l.bytes {
            Some(b) => b.clone(),
            None => base_params
                .iter()
                .find(|(d, _)| *d == l.layer.digest)
                .map(|(_, b)| b.clone())
                .ok_or_else(|| {
                    Refused::Unsupported(format!(
                        "{}: the params layer could not be read",
                        l.layer.digest
                    ))
                })?,
        };
        let existing: Map<String, Json> =
            serde_json::from_slice(&bytes).map_err(|e| Refused::Ollama(e.to_string()))?;
        for (k, v) in existing {
            params.entry(k).or_insert(v);
        }
    }
    if !params.is_empty() {
        remove(&mut layers, PARAMS);
        layers.push(new_layer(
            encode(&J::from_any(&Json::Object(params))),
            PARAMS,
        ));
    }
    if !req.messages.is_empty() {
        remove(&mut layers, MESSAGES);
        let list = J::Arr(
            req.messages
                .iter()
                .map(|m| crate::show::message_j(&m.role, &m.content))
                .collect(),
        );
        layers.push(new_layer(encode(&list), MESSAGES));
    }

    let config_blob = encode(&config.to_j());
    let config_layer = new_layer(config_blob, media::CONFIG);
    status.push("writing manifest".into());
    let mut m = Obj::default();
    m.put("schemaVersion", J::int(2))
        .put(
            "mediaType",
            J::s("application/vnd.docker.distribution.manifest.v2+json"),
        )
        .put("config", layer_j(&config_layer.layer))
        .put(
            "layers",
            J::Arr(layers.iter().map(|l| layer_j(&l.layer)).collect()),
        );
    let mut blobs = vec![(config_layer.layer.digest.clone(), config_layer.bytes)];
    for l in layers {
        if !blobs.iter().any(|(d, _)| *d == l.layer.digest) {
            blobs.push((l.layer.digest, l.bytes));
        }
    }
    Ok(Plan {
        manifest_path: format!("manifests/{rel}"),
        manifest: encode(&m.done()),
        blobs,
        status,
    })
}
