//! Manifests and blobs as Ollama v0.33.0-rc2 keeps them (manifest/):
//! `manifests/<host>/<namespace>/<model>/<tag>` holds a JSON manifest whose
//! layers name blobs `blobs/sha256-<hex>`; the manifest's own digest is the
//! sha256 of its bytes (`ParseNamedManifest` hashes what the decoder reads,
//! which for a file is the whole file).

use ollama::model::Name;
use serde_json::Value as Json;
use sha2::{Digest, Sha256};

use crate::dir::{Dir, DirError, DirErrorKind, Kind};
use crate::{Error, ErrorKind};

/// The most bytes a manifest may have (real ones are under 2 KiB; a
/// thousand-layer safetensors manifest is about 200 KiB).
pub const MANIFEST_LIMIT: u64 = 4 << 20;
/// The most manifests a store may list.
pub const ENTRY_LIMIT: usize = 100_000;

/// `model.image.*` media types Ollama reads.
pub mod media {
    /// The GGUF weights.
    pub const MODEL: &str = "application/vnd.ollama.image.model";
    /// The Go TEMPLATE.
    pub const TEMPLATE: &str = "application/vnd.ollama.image.template";
    /// The TEMPLATE of models made before 0.1.x: read as a template.
    pub const PROMPT: &str = "application/vnd.ollama.image.prompt";
    /// SYSTEM.
    pub const SYSTEM: &str = "application/vnd.ollama.image.system";
    /// PARAMETERs as a JSON object.
    pub const PARAMS: &str = "application/vnd.ollama.image.params";
    /// MESSAGEs as a JSON array.
    pub const MESSAGES: &str = "application/vnd.ollama.image.messages";
    /// One LICENSE.
    pub const LICENSE: &str = "application/vnd.ollama.image.license";
    /// A LoRA adapter (GGUF).
    pub const ADAPTER: &str = "application/vnd.ollama.image.adapter";
    /// A vision projector (GGUF).
    pub const PROJECTOR: &str = "application/vnd.ollama.image.projector";
    /// A draft model for speculative decoding.
    pub const DRAFT: &str = "application/vnd.ollama.image.draft";
    /// Embeddings of old Modelfiles (deprecated, ignored).
    pub const EMBED: &str = "application/vnd.ollama.image.embed";
    /// A safetensors tensor.
    pub const TENSOR: &str = "application/vnd.ollama.image.tensor";
    /// A JSON configuration file of a safetensors model.
    pub const JSON: &str = "application/vnd.ollama.image.json";
    /// The config blob.
    pub const CONFIG: &str = "application/vnd.docker.container.image.v1+json";
}

/// A manifest layer (manifest/layer.go `Layer`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Layer {
    /// `mediaType`.
    pub media_type: String,
    /// `digest`, `sha256:<hex>`.
    pub digest: String,
    /// `size` as the manifest claims it.
    pub size: i64,
    /// `from`: the model this layer came from.
    pub from: String,
    /// `name`: a tensor or config file name.
    pub name: String,
}

/// A parsed manifest (manifest/manifest.go `Manifest`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Manifest {
    /// `schemaVersion`.
    pub schema_version: i64,
    /// `mediaType`.
    pub media_type: String,
    /// `config`.
    pub config: Layer,
    /// `layers`.
    pub layers: Vec<Layer>,
    /// sha256 of the manifest's bytes, hex.
    pub digest: String,
    /// The manifest's path in the store.
    pub path: String,
    /// Its modification time (ns since the epoch), where known.
    pub modified_ns: Option<i128>,
}

impl Manifest {
    /// `Size`: the layers' and the config's sizes as claimed.
    pub fn size(&self) -> i64 {
        self.layers
            .iter()
            .chain(std::iter::once(&self.config))
            .fold(0i64, |a, l| a.wrapping_add(l.size))
    }
}

/// sha256 of bytes, lower-case hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// sha256 over bytes given piece by piece (a GGUF too large to hold).
#[derive(Default)]
pub struct Sha256Stream(Sha256);

impl Sha256Stream {
    /// Adds bytes.
    pub fn update(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }

    /// The digest, lower-case hex.
    pub fn hex(self) -> String {
        hex(&self.0.finalize())
    }
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// Go's `encoding/json` matches object keys to struct fields without case.
pub(crate) fn field<'a>(m: &'a serde_json::Map<String, Json>, name: &str) -> Option<&'a Json> {
    m.get(name).or_else(|| {
        m.iter()
            .rev()
            .find(|(k, _)| ollama::godecode::fold_eq(k, name))
            .map(|(_, v)| v)
    })
}

fn str_field(m: &serde_json::Map<String, Json>, name: &str, what: &str) -> Result<String, String> {
    match field(m, name) {
        None | Some(Json::Null) => Ok(String::new()),
        Some(Json::String(s)) => Ok(s.clone()),
        Some(v) => Err(format!(
            "json: cannot unmarshal {} into Go struct field {what}.{name} of type string",
            go_kind(v)
        )),
    }
}

fn int_field(m: &serde_json::Map<String, Json>, name: &str, what: &str) -> Result<i64, String> {
    match field(m, name) {
        None | Some(Json::Null) => Ok(0),
        Some(Json::Number(n)) => n.as_i64().ok_or_else(|| {
            format!("json: cannot unmarshal number {n} into Go struct field {what}.{name} of type int64")
        }),
        Some(v) => Err(format!(
            "json: cannot unmarshal {} into Go struct field {what}.{name} of type int64",
            go_kind(v)
        )),
    }
}

pub use ollama::api::json_kind as go_kind;

fn layer(v: &Json) -> Result<Layer, String> {
    let m = match v {
        Json::Object(m) => m,
        Json::Null => return Ok(Layer::default()),
        v => {
            return Err(format!(
                "json: cannot unmarshal {} into Go value of type manifest.Layer",
                go_kind(v)
            ))
        }
    };
    Ok(Layer {
        media_type: str_field(m, "mediaType", "Layer")?,
        digest: str_field(m, "digest", "Layer")?,
        size: int_field(m, "size", "Layer")?,
        from: str_field(m, "from", "Layer")?,
        name: str_field(m, "name", "Layer")?,
    })
}

/// Parses a manifest's bytes (what `ParseNamedManifest` decodes).
pub fn parse(bytes: &[u8]) -> Result<Manifest, String> {
    let v: Json = serde_json::from_slice(bytes).map_err(|e| json_error(&e))?;
    let m = match &v {
        Json::Object(m) => m,
        v => {
            return Err(format!(
                "json: cannot unmarshal {} into Go value of type manifest.Manifest",
                go_kind(v)
            ))
        }
    };
    let layers = match field(m, "layers") {
        None | Some(Json::Null) => Vec::new(),
        Some(Json::Array(a)) => a.iter().map(layer).collect::<Result<_, _>>()?,
        Some(v) => {
            return Err(format!(
                "json: cannot unmarshal {} into Go struct field Manifest.layers of type []manifest.Layer",
                go_kind(v)
            ))
        }
    };
    Ok(Manifest {
        schema_version: int_field(m, "schemaVersion", "Manifest")?,
        media_type: str_field(m, "mediaType", "Manifest")?,
        config: field(m, "config")
            .map(layer)
            .transpose()?
            .unwrap_or_default(),
        layers,
        digest: sha256_hex(bytes),
        path: String::new(),
        modified_ns: None,
    })
}

/// A JSON syntax error, with where it is.
pub fn json_error(e: &serde_json::Error) -> String {
    let msg = e.to_string();
    let msg = msg
        .rsplit_once(" at line ")
        .map(|(m, _)| m.to_string())
        .unwrap_or(msg);
    format!(
        "invalid JSON at line {} column {}: {msg}",
        e.line(),
        e.column()
    )
}

/// `BlobsPath`: `blobs/sha256-<hex>` for a `sha256:<hex>` (or `-`)
/// digest of exactly 64 hex digits, else Ollama's "invalid digest format".
pub fn blob_path(digest: &str) -> Result<String, String> {
    let ok = digest.len() == 71
        && digest.starts_with("sha256")
        && matches!(digest.as_bytes()[6], b':' | b'-')
        && digest[7..].bytes().all(|c| c.is_ascii_hexdigit());
    if !ok {
        return Err("invalid digest format".into());
    }
    Ok(format!("blobs/sha256-{}", &digest[7..]))
}

/// The manifest path of a fully qualified name.
pub fn manifest_path(n: &Name) -> Option<String> {
    n.filepath().map(|p| format!("manifests/{p}"))
}

/// `ParseNamedManifest`: the manifest of a fully qualified name.
pub fn read_named(dir: &dyn Dir, n: &Name) -> Result<Manifest, Error> {
    let Some(path) = manifest_path(n) else {
        return Err(Error::new("", ErrorKind::InvalidName(format!("{n}"))));
    };
    let stat = dir.stat(&path).map_err(Error::from)?;
    if stat.kind != Kind::File {
        return Err(DirError::new(&path, DirErrorKind::WrongKind).into());
    }
    let bytes = dir.read(&path, MANIFEST_LIMIT).map_err(Error::from)?;
    let mut m = parse(&bytes).map_err(|e| Error::new(&path, ErrorKind::Manifest(e)))?;
    m.path = path;
    m.modified_ns = stat.modified_ns;
    Ok(m)
}

/// A manifest that could not be read while listing (Ollama logs it and
/// goes on: `Manifests(continueOnError=true)`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    /// The manifest's path.
    pub path: String,
    /// Why.
    pub why: String,
}

/// The manifests read, by name, and those skipped.
pub type Listing = (Vec<(Name, Manifest)>, Vec<Skipped>);

/// `Manifests(true)`: every `manifests/*/*/*/*` file whose path makes a
/// valid name, parsed; the others are skipped with the reason.
pub fn all(dir: &dyn Dir) -> Result<Listing, Error> {
    let (found, mut skipped) = files(dir)?;
    let mut out = Vec::new();
    for (n, path) in found {
        match read_named(dir, &n) {
            Ok(m) => out.push((n, m)),
            Err(err) => skipped.push(Skipped {
                path,
                why: err.to_string(),
            }),
        }
    }
    out.sort_by(|a, b| a.1.path.cmp(&b.1.path));
    skipped.sort_by(|a, b| a.path.cmp(&b.path));
    Ok((out, skipped))
}

/// Manifest files by name, with their paths, and those skipped.
pub type Files = (Vec<(Name, String)>, Vec<Skipped>);

/// The `manifests/*/*/*/*` files whose paths make valid names, with their
/// paths, unread; the others (a bad name, a link out of the store, a
/// folder gone meanwhile) skipped with the reason, as Ollama skips what
/// it cannot read. At most [`ENTRY_LIMIT`] entries in all.
pub fn files(dir: &dyn Dir) -> Result<Files, Error> {
    let mut out = Vec::new();
    let mut skipped = Vec::new();
    let top = match dir.entries("manifests", ENTRY_LIMIT) {
        Ok(e) => e,
        // Ollama creates the folder: an empty store.
        Err(e) if e.is_not_found() => return Ok((out, skipped)),
        Err(e) => return Err(e.into()),
    };
    let mut budget = ENTRY_LIMIT;
    let mut walk = vec![(String::from("manifests"), top, 1usize)];
    while let Some((base, entries, depth)) = walk.pop() {
        for e in entries {
            let path = format!("{base}/{}", e.name);
            if depth < 4 {
                if e.kind != Kind::Dir {
                    continue;
                }
                match dir.entries(&path, budget) {
                    Ok(sub) => {
                        budget = budget.saturating_sub(sub.len());
                        walk.push((path, sub, depth + 1));
                    }
                    Err(e)
                        if matches!(
                            e.kind,
                            DirErrorKind::Escapes
                                | DirErrorKind::NotFound
                                | DirErrorKind::WrongKind
                        ) =>
                    {
                        skipped.push(Skipped {
                            path,
                            why: e.to_string(),
                        })
                    }
                    Err(e) => return Err(e.into()),
                }
                continue;
            }
            if e.kind == Kind::Dir {
                continue;
            }
            let n = Name::from_filepath(&path["manifests/".len()..]);
            if n.is_valid() {
                out.push((n, path));
            } else {
                skipped.push(Skipped {
                    path,
                    why: "bad manifest name".into(),
                });
            }
        }
    }
    Ok((out, skipped))
}

/// Reads a small blob whole, checking that it exists and is no bigger than
/// `limit` (and than the size its layer claims, when `claimed` is given).
pub fn read_blob(dir: &dyn Dir, digest: &str, limit: u64) -> Result<Vec<u8>, Error> {
    let path = blob_path(digest).map_err(|e| Error::new(digest, ErrorKind::Manifest(e)))?;
    dir.read(&path, limit).map_err(Error::from)
}

/// Verifies a blob's sha256 against its digest, reading it in pieces
/// (`chunk` bytes at a time), never whole. Returns the size read.
pub fn verify_blob(dir: &dyn Dir, digest: &str, chunk: usize) -> Result<u64, Error> {
    let path = blob_path(digest).map_err(|e| Error::new(digest, ErrorKind::Manifest(e)))?;
    let size = dir.stat(&path).map_err(Error::from)?.size;
    let mut h = Sha256::new();
    let mut off = 0u64;
    while off < size {
        let piece = dir.read_at(&path, off, chunk).map_err(Error::from)?;
        if piece.is_empty() {
            break;
        }
        h.update(&piece);
        off += piece.len() as u64;
    }
    let got = hex(&h.finalize());
    if !got.eq_ignore_ascii_case(&digest[7..]) {
        return Err(Error::new(
            &path,
            ErrorKind::Digest {
                want: digest.to_string(),
                got: format!("sha256:{got}"),
            },
        ));
    }
    Ok(off)
}
