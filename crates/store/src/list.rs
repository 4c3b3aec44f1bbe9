//! `/api/tags` and `ollama list` (server/model_list_cache.go
//! `buildModelListSummary`, `sortListModelResponses`; cmd/cmd.go
//! `ListHandler`): per model the manifest, the config, the template layer
//! and the GGUF's header values, never a blob's tensor data.

use ollama::model::Name;

use crate::config::{self, Config};
use crate::dir::Dir;
use crate::gojson::{Obj, J};
use crate::manifest::{self, media, Manifest, Skipped};
use crate::model::SMALL_BLOB_LIMIT;
use crate::table::Table;
use crate::Error;

/// One `api.ListModelResponse`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Listed {
    /// `name` (and `model`): the shortest display name.
    pub name: String,
    /// The fully qualified name.
    pub full_name: String,
    /// `remote_model`.
    pub remote_model: String,
    /// `remote_host`.
    pub remote_host: String,
    /// `modified_at`: the manifest's modification time (ns).
    pub modified_ns: Option<i128>,
    /// `size`: the layers' and config's sizes, as claimed.
    pub size: i64,
    /// `digest`: the manifest's sha256.
    pub digest: String,
    /// `details.parent_model`.
    pub parent_model: String,
    /// The config (format, family, families, type, file type).
    pub config: Config,
    /// `details.quantization_level` (the GGUF's when the config says none).
    pub quantization: String,
    /// `details.context_length`.
    pub context_length: i64,
    /// `details.embedding_length`.
    pub embedding_length: i64,
    /// `capabilities`.
    pub capabilities: Vec<String>,
    /// Bytes read from the model blob (its header only).
    pub gguf_bytes_read: u64,
}

fn add(caps: &mut Vec<String>, c: &str) {
    if !c.is_empty() && !caps.iter().any(|x| x == c) {
        caps.push(c.to_string());
    }
}

/// `buildModelListSummary` for one manifest.
pub fn summary(dir: &dyn Dir, n: &Name, mf: &Manifest) -> Result<Listed, Error> {
    let cfg = if mf.config.digest.is_empty() {
        Config::default()
    } else {
        let bytes = manifest::read_blob(dir, &mf.config.digest, SMALL_BLOB_LIMIT)?;
        let path = manifest::blob_path(&mf.config.digest).unwrap_or_default();
        config::parse(&bytes).map_err(|e| Error::new(&path, crate::ErrorKind::Blob(e)))?
    };
    let mut s = Listed {
        name: n.display_shortest(),
        full_name: n.to_string(),
        remote_model: cfg.remote_model.clone(),
        remote_host: cfg.remote_host.clone(),
        modified_ns: mf.modified_ns,
        size: mf.size(),
        digest: mf.digest.clone(),
        quantization: cfg.file_type.clone(),
        context_length: cfg.context_length,
        embedding_length: cfg.embedding_length,
        ..Listed::default()
    };
    let mut model_path = None;
    let mut projectors = 0;
    let mut template = String::from("{{ .Prompt }}");
    for l in &mf.layers {
        match l.media_type.as_str() {
            media::MODEL => {
                let p = manifest::blob_path(&l.digest)
                    .map_err(|e| Error::new(&mf.path, crate::ErrorKind::Manifest(e)))?;
                model_path = Some(p);
                s.parent_model.clone_from(&l.from);
            }
            media::PROJECTOR => projectors += 1,
            media::PROMPT | media::TEMPLATE => {
                let b = manifest::read_blob(dir, &l.digest, SMALL_BLOB_LIMIT)?;
                template = String::from_utf8_lossy(&b).into_owned();
            }
            _ => {}
        }
    }
    let tmpl = ollama::template::Template::parse(&template, ollama::date::Date::new(2026, 1, 1))
        .map_err(|e| Error::new(&mf.path, crate::ErrorKind::Blob(e)))?;
    if cfg.remote_host.is_empty() && cfg.remote_model.is_empty() {
        if let Some(p) = &model_path {
            let (info, read) = crate::ggufscan::list_info(dir, p);
            s.gguf_bytes_read = read;
            // Ollama logs a failed read at debug level and goes on.
            if let Ok(info) = info {
                for c in &info.capabilities {
                    add(&mut s.capabilities, c);
                }
                if s.context_length == 0 {
                    s.context_length = info.context_length;
                }
                if s.embedding_length == 0 {
                    s.embedding_length = info.embedding_length;
                }
                let unknown = |q: &str| q.is_empty() || q == "unknown";
                if unknown(&s.quantization) && !unknown(&info.file_type) {
                    s.quantization = info.file_type;
                }
            }
        }
    }
    for c in &cfg.capabilities {
        add(&mut s.capabilities, c);
    }
    let parser = (!cfg.parser.is_empty())
        .then(|| ollama::parsers::parser_capabilities(&cfg.parser))
        .flatten();
    if tmpl.has_var("tools") || parser.is_some_and(|p| p.0) {
        add(&mut s.capabilities, "tools");
    }
    if tmpl.has_var("suffix") {
        add(&mut s.capabilities, "insert");
    }
    let (open, close) = tmpl.infer_tags();
    let gptoss = matches!(cfg.model_family.as_str(), "gptoss" | "gpt-oss");
    if !s.capabilities.iter().any(|c| c == "thinking")
        && ((!open.is_empty() && !close.is_empty()) || gptoss || parser.is_some_and(|p| p.1))
    {
        add(&mut s.capabilities, "thinking");
    }
    if projectors > 0 {
        add(&mut s.capabilities, "vision");
    }
    if cfg.model_format == "safetensors" {
        let gemma4 = matches!(cfg.renderer.as_str(), "gemma4" | "gemma4-nothink");
        if gemma4 {
            s.capabilities.retain(|c| c != "vision" && c != "audio");
        }
        if cfg.renderer == "glimmer" {
            s.capabilities.retain(|c| c != "audio");
        }
    }
    s.config = cfg;
    Ok(s)
}

/// The store's models as `/api/tags` lists them (most recently modified
/// first, by whole seconds; ties in name order, where Ollama's order comes
/// from a map), with the manifests that were skipped and why.
pub fn list(dir: &dyn Dir) -> Result<(Vec<Listed>, Vec<Skipped>), Error> {
    let (all, mut skipped) = manifest::all(dir)?;
    let mut out = Vec::new();
    for (n, mf) in &all {
        match summary(dir, n, mf) {
            Ok(s) => out.push(s),
            Err(e) => skipped.push(Skipped {
                path: mf.path.clone(),
                why: e.to_string(),
            }),
        }
    }
    out.sort_by(|a, b| {
        let secs = |x: &Listed| x.modified_ns.map(|t| t.div_euclid(1_000_000_000));
        secs(b)
            .cmp(&secs(a))
            .then_with(|| a.full_name.cmp(&b.full_name))
    });
    Ok((out, skipped))
}

impl Listed {
    /// The model as `/api/tags` writes it.
    pub fn to_j(&self) -> J {
        let c = &self.config;
        let mut d = Obj::default();
        d.put("parent_model", J::s(&self.parent_model))
            .put("format", J::s(&c.model_format))
            .put("family", J::s(&c.model_family))
            .put(
                "families",
                if c.has_model_families {
                    J::Arr(c.model_families.iter().map(J::s).collect())
                } else {
                    J::Null
                },
            )
            .put("parameter_size", J::s(&c.model_type))
            .put("quantization_level", J::s(&self.quantization));
        if self.context_length != 0 {
            d.put("context_length", J::int(self.context_length));
        }
        if self.embedding_length != 0 {
            d.put("embedding_length", J::int(self.embedding_length));
        }
        let mut o = Obj::default();
        o.put("name", J::s(&self.name))
            .put("model", J::s(&self.name));
        o.str_omit("remote_model", &self.remote_model)
            .str_omit("remote_host", &self.remote_host);
        o.put(
            "modified_at",
            J::s(
                self.modified_ns
                    .map(crate::gofmt::rfc3339_nano)
                    .unwrap_or_else(|| "0001-01-01T00:00:00Z".into()),
            ),
        )
        .put("size", J::int(self.size))
        .put("digest", J::s(&self.digest))
        .put("details", d.done());
        if !self.capabilities.is_empty() {
            o.put(
                "capabilities",
                J::Arr(self.capabilities.iter().map(J::s).collect()),
            );
        }
        o.done()
    }
}

/// The `/api/tags` body.
pub fn tags_body(models: &[Listed]) -> String {
    J::Obj(vec![(
        "models".into(),
        J::Arr(models.iter().map(Listed::to_j).collect()),
    )])
    .to_json()
}

/// What `ollama list [PREFIX]` prints at `now` (ns since the epoch).
pub fn table(models: &[Listed], prefix: Option<&str>, now: i128) -> String {
    let mut t = Table::new("    ", 30);
    t.header(&["NAME", "ID", "SIZE", "MODIFIED"]);
    for m in models {
        if let Some(p) = prefix {
            if !m.name.to_lowercase().starts_with(&p.to_lowercase()) {
                continue;
            }
        }
        let size = if m.remote_model.is_empty() {
            crate::gofmt::human_bytes(m.size)
        } else {
            "-".into()
        };
        t.append(&[
            m.name.clone(),
            m.digest.chars().take(12).collect(),
            size,
            crate::gofmt::human_time(m.modified_ns, now, "Never"),
        ]);
    }
    let mut out = String::new();
    t.render(&mut out);
    out
}
