//! The Ollama model store on the command line: `promptscope list`,
//! `promptscope show`, and `model.store` / `model.modelfile` in cases.

use std::io::{self, Write};
use std::path::Path;

use serde_json::Value as Json;
use store::show::{Field, ShowRequest};

use crate::Failure;

/// `--models DIR`.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct Models {
    /// The Ollama models directory (default: $OLLAMA_MODELS, else
    /// ~/.ollama/models)
    #[arg(long, value_name = "DIR")]
    pub models: Option<String>,
}

impl Models {
    /// The directory as Ollama names it (`envconfig.Models()`).
    pub fn dir(&self) -> Result<String, Failure> {
        if let Some(d) = &self.models {
            return Ok(d.clone());
        }
        if let Some(d) = std::env::var_os("OLLAMA_MODELS").filter(|d| !d.is_empty()) {
            return Ok(d.to_string_lossy().into_owned());
        }
        let home = std::env::var_os("HOME")
            .or_else(|| std::env::var_os("USERPROFILE"))
            .ok_or_else(|| {
                Failure::Usage("no --models DIR, OLLAMA_MODELS or home directory".into())
            })?;
        Ok(Path::new(&home)
            .join(".ollama")
            .join("models")
            .to_string_lossy()
            .into_owned())
    }
}

pub use engine::case::{open, resolve_case, Prep};

/// `promptscope list [--models DIR] [--json] [PREFIX]`.
#[derive(clap::Args)]
pub struct ListArgs {
    #[command(flatten)]
    models: Models,
    /// The `/api/tags` response body instead of the table
    #[arg(long)]
    json: bool,
    /// Only names starting with this (without case), as `ollama list PREFIX`
    prefix: Option<String>,
}

fn write_out(s: &str) -> Result<(), Failure> {
    let mut out = io::stdout().lock();
    out.write_all(s.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| Failure::Usage(format!("cannot write output: {e}")))
}

/// Runs `promptscope list`.
pub fn list(args: ListArgs) -> Result<(), Failure> {
    let opened = open(&args.models.dir()?).map_err(Failure::Usage)?;
    let (models, skipped) =
        store::list::list(&opened.dir).map_err(|e| Failure::Usage(e.to_string()))?;
    for s in &skipped {
        let _ = writeln!(io::stderr(), "promptscope: skipped {}: {}", s.path, s.why);
    }
    if args.json {
        return write_out(&format!("{}\n", store::list::tags_body(&models)));
    }
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as i128)
        .unwrap_or(0);
    write_out(&store::list::table(&models, args.prefix.as_deref(), now))
}

/// `promptscope show NAME [--models DIR] [--modelfile|...|--json]`.
#[derive(clap::Args)]
pub struct ShowArgs {
    /// The model, as Ollama names it (`qwen3:0.6b`, `user/model:tag`)
    name: String,
    #[command(flatten)]
    models: Models,
    /// The `/api/show` response body
    #[arg(long, group = "what")]
    json: bool,
    /// The Modelfile, as `ollama show --modelfile`
    #[arg(long, group = "what")]
    modelfile: bool,
    /// The template Ollama uses (the GGUF's when it prefers that one)
    #[arg(long, group = "what")]
    template: bool,
    /// The SYSTEM message
    #[arg(long, group = "what")]
    system: bool,
    /// The PARAMETERs
    #[arg(long, group = "what")]
    parameters: bool,
    /// The licenses
    #[arg(long, group = "what")]
    license: bool,
    /// Every metadata array in full, and the Metadata and Tensors tables
    #[arg(long, short)]
    verbose: bool,
    /// Check every blob of the model against its sha256 digest (read in
    /// pieces, never whole)
    #[arg(long)]
    verify: bool,
}

/// Runs `promptscope show`.
pub fn show(args: ShowArgs) -> Result<(), Failure> {
    let opened = open(&args.models.dir()?).map_err(Failure::Usage)?;
    let req = ShowRequest {
        model: args.name.clone(),
        verbose: args.verbose,
        ..ShowRequest::default()
    };
    if args.verify {
        let m = store::model::load(&opened.dir, &args.name).map_err(|r| {
            let _ = writeln!(io::stderr(), "Error: {}", r.message);
            Failure::Engine
        })?;
        let mut digests = vec![m.manifest.config.digest.clone()];
        digests.extend(m.manifest.layers.iter().map(|l| l.digest.clone()));
        for d in digests.iter().filter(|d| !d.is_empty()) {
            match store::manifest::verify_blob(&opened.dir, d, 4 << 20) {
                Ok(n) => {
                    let _ = writeln!(io::stderr(), "verified {d} ({n} bytes)");
                }
                Err(e) => {
                    let _ = writeln!(io::stderr(), "Error: {e}");
                    return Err(Failure::Engine);
                }
            }
        }
    }
    let body = match store::show::show(&opened.dir, &opened.root, &req) {
        Ok(b) => b,
        Err(r) => {
            let _ = writeln!(io::stderr(), "Error: {}", r.message);
            return Err(Failure::Engine);
        }
    };
    if args.json {
        return write_out(&format!("{body}\n"));
    }
    let resp: Json = serde_json::from_str(&body).map_err(|e| Failure::Usage(e.to_string()))?;
    if resp["capabilities"]
        .as_array()
        .is_some_and(|c| c.iter().any(|x| x == "image"))
    {
        let _ = writeln!(
            io::stderr(),
            "Error: image generation models are not currently supported"
        );
        return Err(Failure::Engine);
    }
    let field = [
        (args.license, Field::License),
        (args.modelfile, Field::Modelfile),
        (args.parameters, Field::Parameters),
        (args.system, Field::System),
        (args.template, Field::Template),
    ]
    .into_iter()
    .find(|(on, _)| *on)
    .map(|(_, f)| f);
    match field {
        Some(f) => write_out(&store::show::field(&resp, f)),
        None => write_out(&store::show::info(&resp, args.verbose)),
    }
}

/// The GGUF of a stored model, for `--model NAME`.
pub fn model_gguf(models: &Models, name: &str) -> Result<String, Failure> {
    let opened = open(&models.dir()?).map_err(Failure::Usage)?;
    let m = store::model::load(&opened.dir, name).map_err(|r| Failure::Usage(r.message))?;
    let b = m
        .model
        .ok_or_else(|| Failure::Usage(format!("{name}: the model has no GGUF model layer")))?;
    Ok(opened.real(&b.path).to_string_lossy().into_owned())
}
