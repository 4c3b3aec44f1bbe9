//! The user's Ollama models folder, read in the browser: which folder of
//! the chosen one is the models directory, what to read of it (through
//! `store::plan`: manifests, small blobs whole, model blobs only their
//! header), the list as `ollama list` shows it, and a stored model turned
//! into the model fields a Modelfile with the same values would give.
//!
//! The browser side (a folder handle from `showDirectoryPicker`, or the
//! files of an `<input webkitdirectory>`) implements [`Folder`]; everything
//! else is here and tested natively.

use std::collections::BTreeSet;

use serde_json::{json, Value};
use store::dir::MemDir;
use store::list::Listed;
use store::manifest::{Skipped, MANIFEST_LIMIT};
use store::model::{Refusal, StoredModel};
use store::plan::{How, Need};

use crate::state::{pretty, ModelState};

/// The path of a file chosen with `<input webkitdirectory>`, relative to
/// the chosen folder: `webkitRelativePath` without its first component
/// (the chosen folder's own name). `None` for a path with no folder part.
pub fn strip_first(rel: &str) -> Option<&str> {
    let (_, rest) = rel.split_once('/')?;
    (!rest.is_empty()).then_some(rest)
}

/// Whether `path` (relative to the models directory) is a manifest file:
/// `manifests/<host>/<namespace>/<model>/<tag>`.
pub fn is_manifest_path(path: &str) -> bool {
    let parts: Vec<&str> = path.split('/').collect();
    parts.len() == 5 && parts[0] == "manifests" && parts.iter().all(|p| !p.is_empty())
}

/// Where the models directory is among the chosen folder's files (paths
/// relative to the chosen folder): `""` when the chosen folder is the
/// models directory itself, `"models/"` when it is its parent `.ollama`,
/// in general the least deep folder named `manifests` that holds a
/// manifest file (the first in name order among equals). `None`: no such
/// folder.
pub fn models_root<'a>(paths: impl IntoIterator<Item = &'a str>) -> Option<String> {
    let mut best: Option<(usize, String)> = None;
    for p in paths {
        let parts: Vec<&str> = p.split('/').collect();
        if parts.len() < 5 {
            continue;
        }
        let i = parts.len() - 5;
        if !is_manifest_path(&parts[i..].join("/")) {
            continue;
        }
        let prefix: String = parts[..i].iter().map(|s| format!("{s}/")).collect();
        if best.as_ref().is_none_or(|b| (i, &prefix) < (b.0, &b.1)) {
            best = Some((i, prefix));
        }
    }
    best.map(|(_, p)| p)
}

/// `File.lastModified` (milliseconds since the epoch) in nanoseconds.
pub fn ms_to_ns(ms: f64) -> Option<i128> {
    // whole milliseconds exactly (a f64 product would round them)
    ms.is_finite()
        .then(|| ms.trunc() as i128 * 1_000_000 + (ms.fract() * 1e6).round() as i128)
}

/// What a folder says about one file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileInfo {
    /// Size in bytes.
    pub size: u64,
    /// Modification time, ns since the epoch.
    pub modified_ns: Option<i128>,
}

/// The models directory, read asynchronously (a browser folder).
#[allow(async_fn_in_trait)]
pub trait Folder {
    /// The manifest files (`manifests/<host>/<namespace>/<model>/<tag>`).
    async fn manifests(&self) -> Result<Vec<String>, String>;
    /// The file at `path` (relative to the models directory); `None`
    /// where there is none.
    async fn info(&self, path: &str) -> Result<Option<FileInfo>, String>;
    /// The first `len` bytes of the file at `path` (all of it when it is
    /// no longer).
    async fn read(&self, path: &str, len: u64) -> Result<Vec<u8>, String>;
}

/// How much of a file to read, given what the plan asks and its size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fetch {
    /// All of it.
    Whole,
    /// Its first bytes (fewer than its size).
    Prefix(u64),
    /// Nothing: only its size (a model blob, or a file over its limit,
    /// which the store reader then refuses by name).
    Size,
}

/// What to read of a file of `size` bytes that the plan asks for as `how`.
pub fn fetch_for(how: How, size: u64) -> Fetch {
    match how {
        How::Whole { limit } if size > limit => Fetch::Size,
        How::Whole { .. } => Fetch::Whole,
        How::Prefix(n) if n >= size => Fetch::Whole,
        How::Prefix(n) => Fetch::Prefix(n),
        How::Size => Fetch::Size,
    }
}

/// What reading one file gave.
enum Fetched {
    Missing,
    Failed(String),
    Unread(FileInfo),
    Read(FileInfo, Vec<u8>),
}

/// A models folder being read into a [`MemDir`].
pub struct Reader<F> {
    /// The folder.
    pub folder: F,
    /// What has been read of it.
    pub dir: MemDir,
    /// Bytes read from the folder so far.
    pub bytes_read: u64,
    /// Each read: the path and how many bytes.
    pub reads: Vec<(String, u64)>,
    /// Files that could not be read (`path: why`).
    pub errors: Vec<String>,
    tried: BTreeSet<String>,
}

impl<F: Folder> Reader<F> {
    /// Reads every manifest of `folder`.
    pub async fn open(folder: F) -> Result<Reader<F>, String> {
        let mut r = Reader {
            folder,
            dir: MemDir::new(),
            bytes_read: 0,
            reads: Vec::new(),
            errors: Vec::new(),
            tried: BTreeSet::new(),
        };
        let paths = r.folder.manifests().await?;
        let needs: Vec<Need> = paths
            .into_iter()
            .filter(|p| is_manifest_path(p))
            .map(|path| Need {
                path,
                how: How::Whole {
                    limit: MANIFEST_LIMIT,
                },
            })
            .collect();
        r.fetch_all(&needs).await;
        Ok(r)
    }

    /// Reads the files `needs` names, the folder asked for all of them at
    /// once (a folder handle answers each call after a round trip), and
    /// puts what came back into the store in order.
    async fn fetch_all(&mut self, needs: &[Need]) {
        let folder = &self.folder;
        let got = futures_util::future::join_all(
            needs
                .iter()
                .map(|n| Self::fetch_one(folder, &n.path, n.how)),
        )
        .await;
        for (n, r) in needs.iter().zip(got) {
            self.put(&n.path, r);
        }
    }

    /// One file: its info, and its bytes as far as `how` asks.
    async fn fetch_one(folder: &F, path: &str, how: How) -> Fetched {
        let info = match folder.info(path).await {
            Ok(Some(i)) => i,
            // missing: the store reader names it
            Ok(None) => return Fetched::Missing,
            Err(e) => return Fetched::Failed(e),
        };
        let len = match fetch_for(how, info.size) {
            Fetch::Size => return Fetched::Unread(info),
            Fetch::Whole => info.size,
            Fetch::Prefix(n) => n,
        };
        match folder.read(path, len).await {
            Ok(bytes) => Fetched::Read(info, bytes),
            Err(e) => Fetched::Failed(e),
        }
    }

    fn put(&mut self, path: &str, got: Fetched) {
        match got {
            Fetched::Missing => {}
            Fetched::Failed(e) => self.errors.push(format!("{path}: {e}")),
            Fetched::Unread(info) => self.dir.insert_unread(path, info.size, info.modified_ns),
            Fetched::Read(info, bytes) => {
                self.bytes_read += bytes.len() as u64;
                self.reads.push((path.to_string(), bytes.len() as u64));
                if bytes.len() as u64 >= info.size {
                    self.dir.insert(path, bytes, info.modified_ns);
                } else {
                    self.dir
                        .insert_prefix(path, bytes, info.size, info.modified_ns);
                }
            }
        }
    }

    /// Reads what `plan` says is still needed, until nothing is (each
    /// file is tried once per way of reading it).
    pub async fn fill(&mut self, plan: fn(&MemDir) -> Vec<Need>) {
        loop {
            let needs: Vec<Need> = plan(&self.dir)
                .into_iter()
                .filter(|n| !self.tried.contains(&key(n)))
                .collect();
            if needs.is_empty() {
                return;
            }
            for n in &needs {
                self.tried.insert(key(n));
            }
            self.fetch_all(&needs).await;
        }
    }

    /// The models as `ollama list` lists them, with the manifests skipped
    /// and why (reads what the list needs first).
    pub async fn list(&mut self) -> Result<(Vec<Listed>, Vec<Skipped>), String> {
        self.fill(store::plan::for_list).await;
        store::list::list(&self.dir).map_err(|e| e.to_string())
    }

    /// The model `name` as Ollama's handlers load it (reads its small
    /// layers first).
    pub async fn load(&mut self, name: &str) -> Result<StoredModel, Refusal> {
        self.fill(store::plan::for_models).await;
        store::model::load(&self.dir, name)
    }
}

fn key(n: &Need) -> String {
    format!("{:?} {}", n.how, n.path)
}

/// One row of the list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// The name as `ollama list` shows it.
    pub name: String,
    /// The size, as `ollama list` writes it (`-` for a cloud model).
    pub size: String,
    /// `details.family`.
    pub family: String,
    /// `details.parameter_size`.
    pub parameters: String,
    /// `details.quantization_level`.
    pub quantization: String,
    /// `capabilities`.
    pub capabilities: Vec<String>,
}

/// The list's rows.
pub fn rows(models: &[Listed]) -> Vec<Row> {
    models
        .iter()
        .map(|m| Row {
            name: m.name.clone(),
            size: if m.remote_model.is_empty() {
                store::gofmt::human_bytes(m.size)
            } else {
                "-".into()
            },
            family: m.config.model_family.clone(),
            parameters: m.config.model_type.clone(),
            quantization: m.quantization.clone(),
            capabilities: m.capabilities.clone(),
        })
        .collect()
}

/// Fills the model fields from a stored model, as a Modelfile with the
/// same TEMPLATE, SYSTEM, MESSAGEs, RENDERER, PARSER and PARAMETERs (and
/// the config's family and capabilities) would: no template layer is no
/// TEMPLATE; the params layer becomes the option defaults. The GGUF's
/// chat template and BOS/EOS are cleared: they come from the model blob.
pub fn apply_stored(model: &mut ModelState, m: &StoredModel) {
    model.has_template = m.template.is_some();
    model.template = m.template.clone().unwrap_or_default();
    model.system.clone_from(&m.system);
    model.messages = if m.messages.is_empty() {
        String::new()
    } else {
        pretty(&Value::Array(
            m.messages
                .iter()
                .map(|x| json!({"role": x.role, "content": x.content}))
                .collect(),
        ))
    };
    model.renderer.clone_from(&m.config.renderer);
    model.parser.clone_from(&m.config.parser);
    model.family.clone_from(&m.config.model_family);
    model.capabilities.clone_from(&m.config.capabilities);
    model.options = if m.options.is_empty() {
        String::new()
    } else {
        pretty(&Value::Object(m.options.clone()))
    };
    model.chat_template.clear();
    model.bos_token.clear();
    model.eos_token.clear();
}

/// What a pasted text gave: the model fields filled, and what the user
/// still has to do (the FROM it names is a file on the machine that
/// wrote it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Imported {
    /// `Modelfile` or `/api/show`.
    pub kind: &'static str,
    /// The FROM, as written.
    pub from: String,
    /// `ollama create`'s warnings (deprecated parameters).
    pub warnings: Vec<String>,
}

/// Fills the model fields from a pasted Modelfile (as `ollama show
/// --modelfile` prints it, or any other) or `/api/show` response body,
/// parsed as Ollama parses them (`store::modelfile`, `store::create`,
/// `store::show::import_body`): every field the text says is replaced, the
/// rest cleared, as a model created from it would have them. Errors are
/// Ollama's, with the line.
pub fn import_text(model: &mut ModelState, text: &str) -> Result<Imported, String> {
    let trimmed = text.trim_start();
    let (req, extra, kind) = if trimmed.starts_with('{') {
        let body: Value = serde_json::from_str(trimmed).map_err(|e| {
            format!(
                "/api/show body: line {} column {}: {e}",
                e.line(),
                e.column()
            )
        })?;
        if is_tokenizer_config(&body) {
            return import_tokenizer_config(model, &body);
        }
        let (req, extra) = store::show::import_body(&body)?;
        (req, extra, "/api/show")
    } else {
        let f = store::modelfile::parse(text.as_bytes()).map_err(|e| e.to_string())?;
        (f.create_request()?, json!({}), "Modelfile")
    };
    let mut case = json!({"model": extra, "request": {}});
    req.fill_case(&mut case);
    let m = &case["model"];
    let s = |k: &str| m.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    model.has_template = m.get("template").is_some_and(Value::is_string);
    model.template = s("template");
    model.system = s("system");
    model.messages = match m.get("messages") {
        Some(v @ Value::Array(_)) => pretty(v),
        _ => String::new(),
    };
    model.renderer = s("renderer");
    model.parser = s("parser");
    model.family = s("family");
    model.capabilities.clear();
    model.options = match case["request"].get("options") {
        Some(v @ Value::Object(_)) => pretty(v),
        _ => String::new(),
    };
    Ok(Imported {
        kind,
        from: req.from.clone(),
        warnings: req.warnings.clone(),
    })
}

/// Whether a dropped file's text is a Hugging Face `tokenizer.json` (a
/// `model` with its `type` or `vocab`, and the pipeline's other parts),
/// rather than something the import box reads.
pub fn is_tokenizer_json(text: &str) -> bool {
    let Ok(Value::Object(o)) = serde_json::from_str::<Value>(text.trim_start()) else {
        return false;
    };
    o.get("model")
        .is_some_and(|m| m.get("type").is_some() || m.get("vocab").is_some())
        && ["added_tokens", "normalizer", "pre_tokenizer", "decoder"]
            .iter()
            .any(|k| o.contains_key(*k))
}

/// A Hugging Face `tokenizer_config.json` (a chat template and the tokenizer's
/// settings) rather than an `/api/show` body (which has a `modelfile`, a
/// `template` or `details`).
fn is_tokenizer_config(body: &Value) -> bool {
    body.get("chat_template").is_some()
        && [
            "modelfile",
            "template",
            "details",
            "model_info",
            "parameters",
        ]
        .iter()
        .all(|k| body.get(*k).is_none())
}

/// Fills the model fields from a `tokenizer_config.json`, as a model
/// converted from it to a GGUF has them (llama.cpp's converter writes its
/// chat template to `tokenizer.chat_template`): no TEMPLATE, so Ollama's
/// native mode renders the Jinja template; its BOS and EOS texts. Of named
/// templates the `default` one is used (transformers' choice without tools).
fn import_tokenizer_config(model: &mut ModelState, body: &Value) -> Result<Imported, String> {
    let m = runtime::transformers::Model::from_case(&json!({ "tokenizer_config": body }))
        .map_err(|e| format!("tokenizer_config.json: {e}"))?;
    let mut warnings = Vec::new();
    let template = match &m.templates {
        runtime::transformers::Templates::One(t) => t.clone(),
        runtime::transformers::Templates::Named(named) => {
            let names: Vec<&str> = named.iter().map(|(n, _)| n.as_str()).collect();
            let (name, t) = named
                .iter()
                .find(|(n, _)| n == "default")
                .or_else(|| named.first())
                .ok_or("tokenizer_config.json: chat_template has no templates")?;
            warnings.push(format!(
                "Of its named templates ({}), \"{name}\" is used.",
                names.join(", ")
            ));
            t.clone()
        }
        runtime::transformers::Templates::None => {
            return Err("tokenizer_config.json: chat_template is null".into())
        }
    };
    let token = |k: &str| {
        m.special
            .iter()
            .find(|(n, _)| n == k)
            .map(|(_, t)| t.clone())
            .unwrap_or_default()
    };
    *model = ModelState {
        chat_template: template,
        bos_token: token("bos_token"),
        eos_token: token("eos_token"),
        date: std::mem::take(&mut model.date),
        go_template_env: model.go_template_env.take(),
        ..ModelState::default()
    };
    Ok(Imported {
        kind: "tokenizer_config.json",
        from: String::new(),
        warnings,
    })
}

/// Where each input of a stored model came from, one line each
/// (`TEMPLATE: template layer sha256:ab12…`).
pub fn origin_lines(m: &StoredModel) -> Vec<String> {
    m.origins
        .iter()
        .map(|o| format!("{}: {}", o.what, o.from))
        .collect()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::cell::RefCell;
    use std::collections::BTreeMap;
    use std::future::Future;
    use std::pin::pin;
    use std::task::{Context, Poll, Waker};

    use store::manifest::sha256_hex;

    use crate::state::{Endpoint, State};

    /// Runs a future whose awaits are all ready (the test folder's).
    pub(crate) fn block_on<T>(f: impl Future<Output = T>) -> T {
        let mut f = pin!(f);
        let mut cx = Context::from_waker(Waker::noop());
        loop {
            if let Poll::Ready(v) = f.as_mut().poll(&mut cx) {
                return v;
            }
        }
    }

    /// A folder in memory that logs what is read of it.
    #[derive(Default)]
    pub(crate) struct MemFolder {
        pub files: BTreeMap<String, Vec<u8>>,
        pub log: RefCell<Vec<(String, u64)>>,
    }

    const T: i128 = 1_790_000_000_000_000_000;

    impl Folder for MemFolder {
        async fn manifests(&self) -> Result<Vec<String>, String> {
            Ok(self
                .files
                .keys()
                .filter(|k| k.starts_with("manifests/"))
                .cloned()
                .collect())
        }
        async fn info(&self, path: &str) -> Result<Option<FileInfo>, String> {
            Ok(self.files.get(path).map(|b| FileInfo {
                size: b.len() as u64,
                modified_ns: Some(T),
            }))
        }
        async fn read(&self, path: &str, len: u64) -> Result<Vec<u8>, String> {
            let b = self.files.get(path).ok_or("gone")?;
            let n = (len as usize).min(b.len());
            self.log.borrow_mut().push((path.to_string(), n as u64));
            Ok(b[..n].to_vec())
        }
    }

    impl MemFolder {
        fn blob(&mut self, media: &str, bytes: &[u8]) -> Value {
            let hex = sha256_hex(bytes);
            self.files
                .insert(format!("blobs/sha256-{hex}"), bytes.to_vec());
            json!({"mediaType": media, "digest": format!("sha256:{hex}"), "size": bytes.len()})
        }
    }

    /// A store with `demo:latest` (a GGUF of 4 MiB: a header, then tensor
    /// data), a template, system, params and messages layer, and a
    /// manifest that does not decode.
    pub(crate) fn folder() -> MemFolder {
        let mut f = MemFolder::default();
        let cfg = f.blob(
            "application/vnd.docker.container.image.v1+json",
            br#"{"model_format":"gguf","model_family":"llama","model_families":["llama"],"model_type":"1M","file_type":"Q8_0","capabilities":["vision"]}"#,
        );
        let mut gguf = b"GGUF\x03\x00\x00\x00".to_vec();
        gguf.extend_from_slice(&0u64.to_le_bytes());
        gguf.extend_from_slice(&0u64.to_le_bytes());
        gguf.resize(4 << 20, 0);
        let layers = vec![
            f.blob("application/vnd.ollama.image.model", &gguf),
            f.blob(
                "application/vnd.ollama.image.template",
                b"{{ if .System }}<s>{{ .System }}</s>{{ end }}{{ range .Messages }}<{{ .Role }}>{{ .Content }}{{ end }}",
            ),
            f.blob("application/vnd.ollama.image.system", b"Be brief."),
            f.blob(
                "application/vnd.ollama.image.params",
                br#"{"num_ctx":8192,"stop":["</s>"],"temperature":0.5}"#,
            ),
            f.blob(
                "application/vnd.ollama.image.messages",
                br#"[{"role":"user","content":"Hi"},{"role":"assistant","content":"Hello"}]"#,
            ),
        ];
        let m = json!({"schemaVersion": 2, "mediaType": "application/vnd.docker.distribution.manifest.v2+json", "config": cfg, "layers": layers});
        f.files.insert(
            "manifests/registry.ollama.ai/library/demo/latest".into(),
            serde_json::to_vec(&m).unwrap(),
        );
        f.files.insert(
            "manifests/registry.ollama.ai/library/broken/latest".into(),
            b"{not json".to_vec(),
        );
        f
    }

    #[test]
    fn paths_of_a_chosen_folder() {
        assert_eq!(
            strip_first("models/manifests/registry.ollama.ai/library/qwen3/0.6b"),
            Some("manifests/registry.ollama.ai/library/qwen3/0.6b")
        );
        assert_eq!(
            strip_first("models/blobs/sha256-ab"),
            Some("blobs/sha256-ab")
        );
        assert_eq!(strip_first("lonely"), None);
        assert_eq!(strip_first("dir/"), None);

        let models = [
            "blobs/sha256-ab",
            "manifests/registry.ollama.ai/library/qwen3/0.6b",
        ];
        assert_eq!(models_root(models).as_deref(), Some(""));
        let dot_ollama = [
            "id_ed25519",
            "history",
            "models/blobs/sha256-ab",
            "models/manifests/registry.ollama.ai/library/qwen3/0.6b",
        ];
        assert_eq!(models_root(dot_ollama).as_deref(), Some("models/"));
        // the shortest wins; a manifests folder with no manifest file in it
        // (too shallow) is none
        let both = [
            "x/y/manifests/a/b/c/d",
            "models/manifests/a/b/c/d",
            "manifests/a/b",
        ];
        assert_eq!(models_root(both).as_deref(), Some("models/"));
        assert_eq!(models_root(["manifests/a/b/c", "blobs/x"]), None);
        assert_eq!(models_root(["manifests/a//c/d"]), None);
        assert_eq!(models_root(Vec::<&str>::new()), None);

        assert!(is_manifest_path("manifests/h/n/m/t"));
        assert!(!is_manifest_path("manifests/h/n/m"));
        assert!(!is_manifest_path("blobs/h/n/m/t"));
        assert_eq!(
            ms_to_ns(1_700_000_000_123.0),
            Some(1_700_000_000_123_000_000)
        );
        assert_eq!(ms_to_ns(f64::NAN), None);
    }

    #[test]
    fn what_is_read_of_each_file() {
        assert_eq!(fetch_for(How::Whole { limit: 10 }, 10), Fetch::Whole);
        assert_eq!(fetch_for(How::Whole { limit: 10 }, 11), Fetch::Size);
        assert_eq!(fetch_for(How::Prefix(100), 40), Fetch::Whole);
        assert_eq!(fetch_for(How::Prefix(100), 4000), Fetch::Prefix(100));
        assert_eq!(fetch_for(How::Size, 4000), Fetch::Size);
    }

    #[test]
    fn lists_and_loads_without_reading_the_weights() {
        let f = folder();
        let model_blob = f
            .files
            .iter()
            .find(|(_, b)| b.len() == 4 << 20)
            .map(|(k, _)| k.clone())
            .unwrap();
        let mut r = block_on(Reader::open(f)).unwrap();
        let (models, skipped) = block_on(r.list()).unwrap();
        assert_eq!(models.len(), 1);
        assert_eq!(skipped.len(), 1);
        assert!(skipped[0].path.ends_with("broken/latest"), "{skipped:?}");
        let rows = rows(&models);
        assert_eq!(rows[0].name, "demo:latest");
        assert_eq!(rows[0].family, "llama");
        assert_eq!(rows[0].quantization, "Q8_0");
        assert!(rows[0].capabilities.iter().any(|c| c == "vision"));
        let listed_bytes = r.bytes_read;

        let m = block_on(r.load("demo")).unwrap();
        assert!(r.bytes_read > listed_bytes, "the small layers were read");
        assert_eq!(m.system, "Be brief.");
        assert_eq!(m.model.as_ref().unwrap().path, model_blob);
        // the model blob: only its header, once
        let blob_reads: Vec<u64> = r
            .folder
            .log
            .borrow()
            .iter()
            .filter(|(p, _)| *p == model_blob)
            .map(|(_, n)| *n)
            .collect();
        assert_eq!(blob_reads, vec![store::plan::HEADER_PREFIX]);
        assert_eq!(r.reads.len(), r.folder.log.borrow().len());
        let lines = origin_lines(&m);
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("TEMPLATE: template layer sha256:")),
            "{lines:?}"
        );
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("num_ctx 8192: params layer sha256:")),
            "{lines:?}"
        );

        let refusal = block_on(r.load("nothere")).unwrap_err();
        assert_eq!(refusal.status, 404);
        assert_eq!(refusal.message, "model 'nothere' not found");
        assert!(r.errors.is_empty(), "{:?}", r.errors);
    }

    #[test]
    fn a_file_gone_between_listing_and_reading_is_named() {
        struct Gone(MemFolder);
        impl Folder for Gone {
            async fn manifests(&self) -> Result<Vec<String>, String> {
                self.0.manifests().await
            }
            async fn info(&self, path: &str) -> Result<Option<FileInfo>, String> {
                self.0.info(path).await
            }
            async fn read(&self, path: &str, len: u64) -> Result<Vec<u8>, String> {
                if path.starts_with("blobs/") {
                    return Err("NotReadableError".into());
                }
                self.0.read(path, len).await
            }
        }
        let mut r = block_on(Reader::open(Gone(folder()))).unwrap();
        let (models, skipped) = block_on(r.list()).unwrap();
        assert!(models.is_empty());
        assert_eq!(skipped.len(), 2, "{skipped:?}");
        assert!(r.errors.iter().all(|e| e.contains("NotReadableError")));
        assert!(!r.errors.is_empty());
    }

    /// The app's fields from a stored model render as the CLI's
    /// `model.store` case does (`StoredModel::fill_case`).
    #[test]
    fn a_stored_model_renders_as_its_case() {
        let mut r = block_on(Reader::open(folder())).unwrap();
        let m = block_on(r.load("demo")).unwrap();
        let request = json!({"model": "demo", "messages": [{"role": "user", "content": "Go"}],
                             "options": {"temperature": 0.1, "stop": ["x"]}});
        let mut state = State {
            endpoint: Endpoint::Chat,
            request: request.to_string(),
            ..State::default()
        };
        state.model.chat_template = "stale".into();
        apply_stored(&mut state.model, &m);
        assert!(state.model.chat_template.is_empty());
        let app = crate::engine::render_case(&state, "2025-06-15").unwrap();

        let mut case =
            json!({"endpoint": "chat", "model": {}, "request": request, "date": "2025-06-15"});
        m.fill_case(&mut case);
        assert_eq!(app["request"]["options"], case["request"]["options"]);
        assert_eq!(
            app["request"]["options"],
            json!({"num_ctx": 8192, "stop": ["x"], "temperature": 0.1})
        );
        let render = |v: &Value| {
            ollama::case::RenderCase::from_json(v)
                .unwrap()
                .render(None)
                .unwrap()
                .prompt
        };
        let prompt = render(&app);
        assert_eq!(prompt, render(&case));
        assert_eq!(
            prompt.as_deref(),
            Some("<s>Be brief.</s><system>Be brief.<user>Hi<assistant>Hello<user>Go")
        );
    }

    #[test]
    fn a_pasted_modelfile_or_show_body_fills_the_model() {
        let mut m = ModelState {
            chat_template: "kept".into(),
            ..ModelState::default()
        };
        let text = "# Modelfile generated by \"ollama show\"\nFROM /models/blobs/sha256-ab\nTEMPLATE \"\"\"{{ .Prompt }}!\"\"\"\nSYSTEM Be brief.\nPARAMETER num_ctx 8192\nPARAMETER stop <|im_end|>\nMESSAGE user Hi\n";
        let got = import_text(&mut m, text).unwrap();
        assert_eq!(got.kind, "Modelfile");
        assert_eq!(got.from, "/models/blobs/sha256-ab");
        assert!(m.has_template);
        assert_eq!(m.template, "{{ .Prompt }}!");
        assert_eq!(m.system, "Be brief.");
        assert_eq!(
            serde_json::from_str::<Value>(&m.options).unwrap(),
            json!({"num_ctx": 8192, "stop": ["<|im_end|>"]})
        );
        assert_eq!(
            serde_json::from_str::<Value>(&m.messages).unwrap(),
            json!([{"role": "user", "content": "Hi"}])
        );
        assert_eq!(m.chat_template, "kept");
        // the same model as /api/show answers it
        let body = json!({"modelfile": text, "template": "{{ .Prompt }}!", "details": {"family": "llama"}});
        let mut n = ModelState {
            chat_template: "kept".into(),
            ..ModelState::default()
        };
        assert_eq!(
            import_text(&mut n, &body.to_string()).unwrap().kind,
            "/api/show"
        );
        assert_eq!(n.family, "llama");
        n.family.clear();
        assert_eq!(n, m);
        // Ollama's errors, with the line
        assert_eq!(
            import_text(&mut m, "FROM x\nMESSAGE bot hi").unwrap_err(),
            "(line 2): message role must be one of \"system\", \"user\", or \"assistant\""
        );
        assert!(import_text(&mut m, "{\"license\": 1}")
            .unwrap_err()
            .contains("no \"modelfile\""));
    }

    #[test]
    fn a_tokenizer_json_is_told_from_what_the_box_reads() {
        let t = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../tests/corpus/hf-tokenizer/wordpiece.json"),
        )
        .unwrap();
        assert!(is_tokenizer_json(&t));
        assert!(!is_tokenizer_json(
            "{\"chat_template\": \"x\", \"model_max_length\": 8}"
        ));
        assert!(!is_tokenizer_json("FROM x\nTEMPLATE y"));
        assert!(!is_tokenizer_json(
            "{\"model\": \"llama3\", \"modelfile\": \"\"}"
        ));
    }

    #[test]
    fn a_tokenizer_config_gives_the_jinja_template_and_its_tokens() {
        let mut m = ModelState {
            has_template: true,
            template: "{{ .Prompt }}".into(),
            system: "be brief".into(),
            date: "2026-12-01".into(),
            ..ModelState::default()
        };
        let config = json!({
            "tokenizer_class": "PreTrainedTokenizerFast",
            "bos_token": {"content": "<|begin_of_text|>", "special": true},
            "eos_token": "<|eot_id|>",
            "chat_template": [
                {"name": "default", "template": "D"},
                {"name": "tool_use", "template": "T"}
            ]
        });
        let got = import_text(&mut m, &config.to_string()).unwrap();
        assert_eq!(got.kind, "tokenizer_config.json");
        assert_eq!(
            got.warnings,
            ["Of its named templates (default, tool_use), \"default\" is used."]
        );
        assert_eq!(
            m,
            ModelState {
                chat_template: "D".into(),
                bos_token: "<|begin_of_text|>".into(),
                eos_token: "<|eot_id|>".into(),
                date: "2026-12-01".into(),
                ..ModelState::default()
            }
        );
        assert_eq!(
            import_text(&mut m, "{\"chat_template\": 3}").unwrap_err(),
            "tokenizer_config.json: model.chat_template must be a string, a list of {name, template} or an object"
        );
    }
}
