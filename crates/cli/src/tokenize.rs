//! `promptscope tokenize --gguf FILE [--jsonl] [--ollama-compat] [FILE|-]`: llama.cpp's token
//! ids for text, from a GGUF file's vocabulary (`shared/spec/cli.md`).
//!
//! The vocabulary is loaded as llama.cpp loads the file, at the newest
//! supported build unless `--llamacpp` names another (the tokenizer rules
//! that differ between builds are rows of `changes::llamacpp`). With
//! `--ollama-compat`, Ollama's `llama/compat` metadata rewrites are applied
//! first, as Ollama's llama-server does (they matter for GGUFs published in
//! Ollama's registry).
//!
//! A case is `{"id", "text", "add_special": bool, "parse_special": bool}`
//! (the flags default as llama-server's `/tokenize` does: `add_special`
//! false, `parse_special` true); the result is `{"id", "ids": [...],
//! "count": N}`, or `{"id", "error"}` when llama.cpp would fail.

use std::io::{self, Write};

use serde_json::{json, Map};
use tokenizer::{LoadOptions, Vocab};

use crate::{need_gguf, parse_json, write_json_line, Failure, Input};

/// Loads the vocabulary of a GGUF file, reading only its metadata.
fn load_vocab(path: &str, options: LoadOptions) -> Result<Vocab, Failure> {
    let file = std::fs::File::open(path)
        .map_err(|e| Failure::Usage(format!("cannot read {path}: {e}")))?;
    let gguf = gguf_meta::parse(gguf_meta::SeekSource::new(file))
        .map_err(|e| Failure::Usage(format!("{path}: {e}")))?;
    Vocab::from_gguf_with(&gguf, options).map_err(|e| {
        let _ = writeln!(io::stderr(), "promptscope: {path}: {}", e.llama_log_line());
        Failure::Engine
    })
}

/// The result of one case, as a JSON object carrying its id, and whether
/// it succeeded.
fn run_case(vocab: &Vocab, case: &serde_json::Value) -> Result<(serde_json::Value, bool), String> {
    let obj = case.as_object().ok_or("a case must be a JSON object")?;
    let id = obj.get("id").cloned().unwrap_or(serde_json::Value::Null);
    let text = match obj.get("text") {
        Some(serde_json::Value::String(s)) => s.as_str(),
        Some(_) => return Err("\"text\" must be a string".into()),
        None => return Err("missing \"text\"".into()),
    };
    let flag = |name: &str, default: bool| match obj.get(name) {
        None | Some(serde_json::Value::Null) => Ok(default),
        Some(serde_json::Value::Bool(b)) => Ok(*b),
        Some(_) => Err(format!("\"{name}\" must be a boolean")),
    };
    let add_special = flag("add_special", false)?;
    let parse_special = flag("parse_special", true)?;
    let mut out = Map::new();
    out.insert("id".into(), id);
    let ok = match vocab.tokenize(text, add_special, parse_special) {
        Ok(ids) => {
            out.insert("ids".into(), json!(ids));
            out.insert("count".into(), json!(ids.len()));
            true
        }
        Err(e) => {
            out.insert("error".into(), json!(e.to_string()));
            false
        }
    };
    Ok((serde_json::Value::Object(out), ok))
}

/// `promptscope tokenize --gguf FILE [--jsonl] [--ollama-compat] [FILE|-]`.
#[derive(clap::Args)]
pub struct Args {
    /// The GGUF whose vocabulary tokenizes
    #[arg(long, value_name = "FILE")]
    gguf: Option<String>,
    /// Or a model of the Ollama model store, by name: its GGUF
    #[arg(long, value_name = "NAME", conflicts_with = "gguf")]
    model: Option<String>,
    #[command(flatten)]
    models: crate::store::Models,
    /// One case per input line, one result per output line
    #[arg(long)]
    jsonl: bool,
    /// Apply Ollama's llama/compat metadata rewrites first
    #[arg(long)]
    ollama_compat: bool,
    /// The llama.cpp build whose tokenizer to follow (b10488; default: the newest)
    #[arg(long, value_name = "BUILD")]
    llamacpp: Option<String>,
    #[command(flatten)]
    opts: Input,
}

/// Runs `promptscope tokenize`.
pub fn run(args: Args) -> Result<(), Failure> {
    let gguf = match &args.model {
        Some(name) => crate::store::model_gguf(&args.models, name)?,
        None => need_gguf(args.gguf, "tokenize")?,
    };
    let opts = &args.opts;
    let build = match &args.llamacpp {
        Some(b) => changes::Build::parse(b).map_err(Failure::Usage)?,
        None => changes::Build::NEWEST,
    };
    let vocab = load_vocab(
        &gguf,
        LoadOptions::ollama(args.ollama_compat).with_build(build),
    )?;
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    if args.jsonl {
        for (n, line) in opts.input_lines()?.enumerate() {
            let line = line.map_err(|e| Failure::Usage(format!("cannot read input: {e}")))?;
            if line.trim().is_empty() {
                continue;
            }
            let result = parse_json(&line, &format!("line {}", n + 1))
                .and_then(|case| run_case(&vocab, &case).map(|(v, _)| v))
                .unwrap_or_else(|why| json!({"id": null, "invalid": why}));
            write_json_line(&mut out, &result)?;
        }
        out.flush()
            .map_err(|e| Failure::Usage(format!("cannot write output: {e}")))?;
        return Ok(());
    }
    let text = opts.read_input()?;
    let case = parse_json(&text, opts.name()).map_err(Failure::Usage)?;
    let (result, ok) = run_case(&vocab, &case).map_err(Failure::Usage)?;
    write_json_line(&mut out, &result)?;
    out.flush()
        .map_err(|e| Failure::Usage(format!("cannot write output: {e}")))?;
    if ok {
        Ok(())
    } else {
        Err(Failure::Engine)
    }
}
