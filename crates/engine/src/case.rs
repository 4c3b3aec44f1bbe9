//! A render case's `model.modelfile` and `model.store` resolved into the
//! plain model keys the engine takes (the CLI's cases and the server's
//! requests both come this way).

use std::path::{Path, PathBuf};

use serde_json::Value as Json;
use store::dir::FsDir;
use store::model::Refusal;

/// Go's `filepath.Clean` for `/`-separated paths: how Ollama's
/// `filepath.Join(models, "blobs", digest)` prints the models directory.
pub fn clean(p: &str) -> String {
    let rooted = p.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for seg in p.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                if parts.last().is_some_and(|l| *l != "..") {
                    parts.pop();
                } else if !rooted {
                    parts.push("..");
                }
            }
            s => parts.push(s),
        }
    }
    let joined = parts.join("/");
    match (rooted, joined.is_empty()) {
        (true, _) => format!("/{joined}"),
        (false, true) => ".".into(),
        (false, false) => joined,
    }
}

/// An opened store: the reader and the directory as Ollama prints it.
pub struct Opened {
    /// The reader.
    pub dir: FsDir,
    /// The models directory as given, cleaned.
    pub root: String,
}

/// Opens a models directory.
pub fn open(dir: &str) -> Result<Opened, String> {
    let fs = FsDir::open(Path::new(dir)).map_err(|e| format!("models directory {e}"))?;
    Ok(Opened {
        dir: fs,
        root: clean(dir),
    })
}

impl Opened {
    /// The real path of a blob path the reader gave.
    pub fn real(&self, rel: &str) -> PathBuf {
        self.dir.root().join(rel)
    }
}

/// How preparing a case can fail: bad input (exit 2) or an answer Ollama
/// gives (exit 1; `status` is its HTTP status).
pub enum Prep {
    /// Bad input.
    Usage(String),
    /// Ollama's refusal.
    Ollama(Refusal),
}

impl From<String> for Prep {
    fn from(s: String) -> Prep {
        Prep::Usage(s)
    }
}

/// Resolves a case's `model.modelfile` and `model.store` into the plain
/// model keys the engine takes: the Modelfile first (as `ollama create`
/// takes it), then the stored model (its FROM, or `model.name`) under it,
/// the request's options over both.
pub fn resolve_case(v: &mut Json) -> Result<(), Prep> {
    let store_dir = v["model"]
        .get("store")
        .and_then(Json::as_str)
        .map(str::to_string);
    let mut from_store: Option<String> = None;
    if let Some(text) = v["model"].get("modelfile").and_then(Json::as_str) {
        let req = store::modelfile::parse(text.as_bytes())
            .map_err(|e| e.to_string())
            .and_then(|f| f.create_request())
            .map_err(|e| format!("model.modelfile: {e}"))?;
        req.fill_case(v);
        if v["model"].get("gguf").is_none_or(|g| g.is_null()) {
            if Path::new(&req.from).is_file() {
                v["model"]["gguf"] = Json::from(req.from);
            } else if store_dir.is_some() {
                from_store = Some(req.from);
            } else {
                return Err(Prep::Usage(format!(
                    "model.modelfile: FROM {} names no file here; give model.gguf, or model.store to take it from a model store",
                    req.from
                )));
            }
        }
    }
    let Some(dir) = store_dir else {
        return Ok(());
    };
    let name = match from_store {
        Some(n) => n,
        None => v["model"]
            .get("name")
            .and_then(Json::as_str)
            .or_else(|| v["request"].get("model").and_then(Json::as_str))
            .unwrap_or("")
            .to_string(),
    };
    let opened = open(&dir).map_err(|e| Prep::Usage(format!("model.store: {e}")))?;
    let m = store::model::load(&opened.dir, &name).map_err(Prep::Ollama)?;
    m.fill_case(v);
    if let Some(b) = &m.model {
        if v["model"]["gguf"].as_str() == Some(b.path.as_str()) {
            v["model"]["gguf"] = Json::from(opened.real(&b.path).to_string_lossy().into_owned());
        }
    }
    if v["model"].get("name").is_none_or(Json::is_null) {
        v["model"]["name"] = Json::from(name);
    }
    v["model"]["origins"] = Json::Array(
        m.origins
            .iter()
            .map(|o| serde_json::json!({"what": o.what, "from": o.from}))
            .collect(),
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::clean;

    #[test]
    fn cleans_as_go() {
        assert_eq!(clean("/a//b/./c/"), "/a/b/c");
        assert_eq!(clean("a/../../b"), "../b");
        assert_eq!(clean("/../x"), "/x");
        assert_eq!(clean(""), ".");
    }
}
