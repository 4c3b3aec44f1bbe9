//! `promptscope create NAME [-f Modelfile] [--models DIR] [--templates DIR]`:
//! a model written into an Ollama models directory as `ollama create`
//! lays it out (`store::layout`): FROM a GGUF file, a model of the store
//! or a cloud model; ADAPTER; TEMPLATE, SYSTEM, LICENSE, PARAMETER,
//! MESSAGE, RENDERER, PARSER and REQUIRES.

use std::fs::File;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use gguf_meta::{GgufFile, SeekSource};
use ollama::model::Name;
use ollama::modelref::{parse_ref, Source as RefSource};
use ollama::named::parse_index;
use store::layout::{self, BaseModel, Builtin, GgufInput, Source};
use store::manifest::{self, media};

use crate::store::Models;
use crate::Failure;

/// `promptscope create`.
#[derive(clap::Args)]
pub struct Args {
    /// The model's name: NAME[:TAG], or HOST/NAMESPACE/NAME:TAG
    name: String,
    /// The Modelfile (default: ./Modelfile)
    #[arg(short = 'f', long = "file", value_name = "FILE")]
    file: Option<String>,
    #[command(flatten)]
    models: Models,
    /// Ollama's template/ folder (its built-in templates and index.json).
    /// With it, a GGUF whose chat template Ollama recognizes gets that
    /// built-in TEMPLATE and its stop parameters, as `ollama create` does
    #[arg(long, value_name = "DIR")]
    templates: Option<String>,
    /// No progress lines
    #[arg(long)]
    quiet: bool,
    /// Store the model GGUF as given, as Ollama's test stub does, instead
    /// of `llama-quantize … COPY`'s rewrite of it (what Ollama stores)
    #[arg(long)]
    keep_gguf: bool,
}

fn usage(m: impl Into<String>) -> Failure {
    Failure::Usage(m.into())
}

/// An error Ollama gives for the same input, printed as its client prints
/// it (`Error: …`); exit 1.
fn ollama(m: impl std::fmt::Display) -> Failure {
    let _ = writeln!(std::io::stderr(), "Error: {m}");
    Failure::Engine
}

/// `expandPath`: `~` and `~/…` from the home directory, a relative path
/// from the Modelfile's folder.
fn expand(path: &str, relative_dir: &Path) -> PathBuf {
    let home = || {
        std::env::var_os("HOME")
            .map(PathBuf::from)
            .unwrap_or_default()
    };
    if path == "~" {
        return home();
    }
    if let Some(rest) = path.strip_prefix("~/") {
        return home().join(rest);
    }
    let p = Path::new(path);
    if p.is_absolute() {
        p.to_path_buf()
    } else {
        relative_dir.join(p)
    }
}

/// A GGUF file: its digest (streamed), size and header.
struct Read1 {
    source: String,
    digest: String,
    size: i64,
    path: PathBuf,
    file: GgufFile,
    /// llama-quantize COPY's output in the store: digest and size.
    copy: Option<(String, i64)>,
}

/// Writes `llama-quantize … COPY`'s rewrite of the file into the store's
/// blobs (`gguf_meta::copy`), hashing it on the way; its digest and size.
fn write_copy(r: &Read1, root: &Path, projector: bool) -> Result<(String, i64), Failure> {
    use std::io::{Seek, SeekFrom};
    let plan = if projector {
        // addDefaultLlavaProjectorType: Ollama's writer, with the key added
        gguf_meta::copy::ollama_write_gguf(
            &r.file,
            &[(
                "clip.projector_type",
                gguf_meta::Value::String(gguf_meta::GgufString::from_bytes(b"mlp".to_vec())),
            )],
        )
        .map_err(ollama)?
    } else {
        gguf_meta::copy::llama_quantize_copy(&r.file)
            .map_err(|e| usage(format!("{}: {e}", r.path.display())))?
    };
    let blobs = root.join("blobs");
    std::fs::create_dir_all(&blobs).map_err(|e| usage(format!("{}: {e}", blobs.display())))?;
    let tmp = blobs.join(format!("sha256-copy-{}-partial", std::process::id()));
    let fail = |e: std::io::Error| usage(format!("{}: {e}", tmp.display()));
    let mut out = std::io::BufWriter::new(File::create(&tmp).map_err(fail)?);
    let mut input = File::open(&r.path).map_err(|e| usage(format!("{}: {e}", r.path.display())))?;
    let mut hasher = manifest::Sha256Stream::default();
    let mut put = |out: &mut std::io::BufWriter<File>, b: &[u8]| -> Result<(), Failure> {
        hasher.update(b);
        out.write_all(b).map_err(fail)
    };
    put(&mut out, &plan.header)?;
    let mut buf = vec![0u8; 1 << 20];
    for p in &plan.pieces {
        input
            .seek(SeekFrom::Start(p.from))
            .map_err(|e| usage(format!("{}: {e}", r.path.display())))?;
        let mut left = p.size;
        while left > 0 {
            let n = left.min(buf.len() as u64) as usize;
            input
                .read_exact(&mut buf[..n])
                .map_err(|e| usage(format!("{}: {e}", r.path.display())))?;
            put(&mut out, &buf[..n])?;
            left -= n as u64;
        }
        put(&mut out, &vec![0u8; p.pad as usize])?;
    }
    out.flush().map_err(fail)?;
    drop(out);
    let digest = format!("sha256:{}", hasher.hex());
    let dest = root.join(manifest::blob_path(&digest).map_err(usage)?);
    if dest.exists() {
        let _ = std::fs::remove_file(&tmp);
    } else {
        std::fs::rename(&tmp, &dest).map_err(|e| usage(format!("{}: {e}", dest.display())))?;
    }
    Ok((digest, plan.size() as i64))
}

fn read_gguf(path: &Path) -> Result<Read1, Failure> {
    let shown = path.display();
    let mut f = File::open(path).map_err(|e| usage(format!("{shown}: {e}")))?;
    let mut magic = [0u8; 4];
    let n = f
        .read(&mut magic)
        .map_err(|e| usage(format!("{shown}: {e}")))?;
    let is_gguf = n == 4 && &magic == b"GGUF";
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    // detectModelTypeFromFiles, then ggufLayers' content check
    if name.ends_with(".safetensors") {
        return Err(usage(format!(
            "{shown}: Ollama converts safetensors files; promptscope create takes GGUF files"
        )));
    }
    if !is_gguf {
        return Err(ollama(if name.ends_with(".gguf") {
            "supplied file was not in GGUF format"
        } else {
            "unknown type"
        }));
    }
    let mut f = File::open(path).map_err(|e| usage(format!("{shown}: {e}")))?;
    let mut hasher = manifest::Sha256Stream::default();
    let mut buf = vec![0u8; 1 << 20];
    let mut size = 0i64;
    loop {
        let n = f
            .read(&mut buf)
            .map_err(|e| usage(format!("{shown}: {e}")))?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
        size += n as i64;
    }
    let file = gguf_meta::parse(SeekSource::new(
        File::open(path).map_err(|e| usage(format!("{shown}: {e}")))?,
    ))
    .map_err(|e| usage(format!("{shown}: {e}")))?;
    Ok(Read1 {
        source: path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
        digest: format!("sha256:{}", hasher.hex()),
        size,
        path: path.to_path_buf(),
        file,
        copy: None,
    })
}

fn input(r: &Read1) -> GgufInput<'_> {
    GgufInput {
        source: r.source.clone(),
        digest: r.digest.clone(),
        size: r.size,
        file: &r.file,
        copy: r.copy.clone(),
    }
}

/// Ollama's built-in templates from its `template/` folder.
fn builtins(dir: &str) -> Result<Vec<Builtin>, Failure> {
    let dir = Path::new(dir);
    let read = |p: PathBuf| {
        std::fs::read_to_string(&p).map_err(|e| usage(format!("{}: {e}", p.display())))
    };
    let index = parse_index(&read(dir.join("index.json"))?)
        .map_err(|e| usage(format!("{}: {e}", dir.join("index.json").display())))?;
    index
        .into_iter()
        .map(|known| {
            let gotmpl = read(dir.join(format!("{}.gotmpl", known.name)))?;
            let params = dir.join(format!("{}.json", known.name));
            let stop = if params.exists() {
                let v: serde_json::Value = serde_json::from_str(&read(params.clone())?)
                    .map_err(|e| usage(format!("{}: {e}", params.display())))?;
                Some(
                    v.get("stop")
                        .and_then(|s| s.as_array())
                        .map(|a| {
                            a.iter()
                                .filter_map(|x| x.as_str().map(str::to_string))
                                .collect()
                        })
                        .unwrap_or_default(),
                )
            } else {
                None
            };
            Ok(Builtin {
                known,
                gotmpl,
                stop,
            })
        })
        .collect()
}

/// Runs `promptscope create`.
pub fn run(args: Args) -> Result<(), Failure> {
    let name = Name::parse(&args.name);
    if !name.is_valid() {
        return Err(ollama(format!("invalid model name: {}", args.name)));
    }
    let modelfile_path = PathBuf::from(args.file.as_deref().unwrap_or("Modelfile"));
    let text = std::fs::read(&modelfile_path)
        .map_err(|e| usage(format!("{}: {e}", modelfile_path.display())))?;
    let parsed = store::modelfile::parse(&text).map_err(ollama)?;
    let req = parsed.create_request().map_err(ollama)?;
    let relative_dir = modelfile_path
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    let models = args.models.dir()?;
    std::fs::create_dir_all(&models).map_err(|e| usage(format!("{models}: {e}")))?;
    let opened = crate::store::open(&models).map_err(usage)?;
    let mut err = std::io::stderr();
    for w in &req.warnings {
        let _ = writeln!(err, "{w}");
    }
    if !req.drafts.is_empty() {
        return Err(usage(
            "DRAFT models are not written by promptscope create yet",
        ));
    }
    if req.from.is_empty() {
        // errNeitherFromOrFiles
        return Err(ollama("neither 'from' or 'files' was specified"));
    }

    // FROM (each one): a file joins the files, anything else names a model
    let mut files = Vec::new();
    let mut from_model = None;
    for c in parsed.commands.iter().filter(|c| c.name == "model") {
        let path = expand(&c.args, &relative_dir);
        if path.is_dir() {
            return Err(usage(format!(
                "{}: a safetensors folder; Ollama converts it, promptscope create takes GGUF files",
                path.display()
            )));
        } else if path.exists() {
            files.push(read_gguf(&path)?);
        } else {
            from_model = Some(c.args.clone());
        }
    }
    let mut base_manifest = None;
    let mut base_name = String::new();
    let mut remote = None;
    // r.From wins over r.Files (CreateHandler)
    if let Some(from) = &from_model {
        let r = parse_ref(from).map_err(ollama)?;
        let from_name = Name::parse(&r.base);
        if !from_name.is_valid() {
            return Err(ollama("invalid model name"));
        }
        if r.source == RefSource::Cloud {
            remote = Some(("https://ollama.com:443".to_string(), r.base.clone()));
        } else {
            let n = store::model::existing_name(&opened.dir, &from_name)
                .map_err(|e| usage(e.to_string()))?;
            let m = manifest::read_named(&opened.dir, &n).map_err(|e| {
                if e.is_not_found() {
                    usage(format!(
                        "model '{from}' is not in {models} (Ollama would pull it; promptscope create reads only the local store)"
                    ))
                } else {
                    usage(e.to_string())
                }
            })?;
            base_name = n.display_shortest();
            base_manifest = Some(m);
        }
    }
    let mut adapters = req
        .adapters
        .iter()
        .map(|a| read_gguf(&expand(a, &relative_dir)))
        .collect::<Result<Vec<_>, _>>()?;
    // the GGUFs Ollama rewrites, written now: model files through
    // llama-quantize COPY (unless --keep-gguf), LLaVA projectors through its
    // own writer
    if from_model.is_none() {
        let root = PathBuf::from(&models);
        for r in files.iter_mut().chain(adapters.iter_mut()) {
            if layout::copies(&r.file) && !args.keep_gguf {
                if !args.quiet {
                    let _ = writeln!(err, "validating GGUF model (llama-quantize COPY)");
                }
                r.copy = Some(write_copy(r, &root, false)?);
            } else if layout::rewrites_projector(&r.file) {
                r.copy = Some(write_copy(r, &root, true)?);
            }
        }
    }

    // the base model's GGUF headers, config and params
    let mut base_ggufs = Vec::new();
    let mut base_config = None;
    let mut base_params = Vec::new();
    if let Some(m) = &base_manifest {
        if let Ok(bytes) = manifest::read_blob(&opened.dir, &m.config.digest, 1 << 20) {
            base_config = serde_json::from_slice(&bytes).ok();
        }
        for l in &m.layers {
            if l.media_type == media::MODEL || l.media_type == media::DRAFT {
                let path = opened.real(&manifest::blob_path(&l.digest).map_err(usage)?);
                let f = gguf_meta::parse(SeekSource::new(
                    File::open(&path).map_err(|e| usage(format!("{}: {e}", path.display())))?,
                ))
                .map_err(|e| usage(format!("{}: {e}", path.display())))?;
                base_ggufs.push((l.digest.clone(), f));
            } else if l.media_type == "application/vnd.ollama.image.params" {
                let bytes = manifest::read_blob(&opened.dir, &l.digest, 1 << 20)
                    .map_err(|e| usage(e.to_string()))?;
                base_params.push((l.digest.clone(), bytes));
            }
        }
    }
    let source = match (&base_manifest, remote) {
        (_, Some((host, model))) => Source::Remote { host, model },
        (Some(m), None) => Source::Model(BaseModel {
            name: base_name,
            manifest: m,
            config: base_config,
            ggufs: base_ggufs.iter().map(|(d, f)| (d.clone(), f)).collect(),
            params: base_params,
        }),
        (None, None) => Source::Files(files.iter().map(input).collect()),
    };
    let builtins = args.templates.as_deref().map(builtins).transpose()?;
    let target =
        store::model::existing_name(&opened.dir, &name).map_err(|e| usage(e.to_string()))?;
    let plan = layout::plan(
        &target,
        &req,
        source,
        adapters.iter().map(input).collect(),
        builtins.as_deref(),
    )
    .map_err(|e| match e {
        layout::Refused::Ollama(m) => ollama(m),
        layout::Refused::Unsupported(m) => usage(m),
    })?;

    // write the blobs (a GGUF by copying its file), then the manifest
    let root = PathBuf::from(&models);
    for (digest, bytes) in &plan.blobs {
        let rel = manifest::blob_path(digest).map_err(usage)?;
        let dest = root.join(&rel);
        if dest.exists() {
            continue;
        }
        std::fs::create_dir_all(root.join("blobs")).map_err(|e| usage(format!("{models}: {e}")))?;
        let tmp = root.join(format!("{rel}-partial"));
        match bytes {
            Some(b) => std::fs::write(&tmp, b),
            None => {
                let src = files
                    .iter()
                    .chain(&adapters)
                    .find(|f| f.digest == *digest)
                    .map(|f| f.path.clone())
                    .ok_or_else(|| usage(format!("{digest}: blob missing from {models}")))?;
                if !args.quiet {
                    let _ = writeln!(err, "copying file {digest} 100%");
                }
                std::fs::copy(&src, &tmp).map(|_| ())
            }
        }
        .map_err(|e| usage(format!("{}: {e}", tmp.display())))?;
        std::fs::rename(&tmp, &dest).map_err(|e| usage(format!("{}: {e}", dest.display())))?;
    }
    if !args.quiet {
        for s in &plan.status {
            let _ = writeln!(err, "{s}");
        }
    }
    let dest = root.join(&plan.manifest_path);
    if let Some(dir) = dest.parent() {
        std::fs::create_dir_all(dir).map_err(|e| usage(format!("{}: {e}", dir.display())))?;
    }
    std::fs::write(&dest, &plan.manifest).map_err(|e| usage(format!("{}: {e}", dest.display())))?;
    if !args.quiet {
        let _ = writeln!(err, "success");
    }
    Ok(())
}
