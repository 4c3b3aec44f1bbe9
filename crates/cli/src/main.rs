//! `promptscope`: the Promptscope engine on the command line.
//!
//! The interface is the contract in `shared/spec/cli.md`: exit 0 on
//! success, 1 when the engine reports an error, 2 for bad usage or input.
//! Arguments are parsed by `clap` (derive): `promptscope help` and
//! `promptscope <command> --help` describe each command.

#![forbid(unsafe_code)]

use std::io::{self, BufRead, Read, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod cache;
mod create;
mod diff;
mod exec;
mod generate;
mod gguf;
mod hf;
mod parse;
mod render;
mod serve;
mod store;
mod tokenize;
mod upgrade;

/// The `promptscope` command line: one subcommand per tool.
#[derive(Parser)]
#[command(
    name = "promptscope",
    version,
    about = "The Promptscope engine on the command line: the exact prompt Ollama builds, \
             llama.cpp's token counts, GGUF metadata and generation",
    after_help = "Exit codes: 0 success, 1 the engine reported an error, 2 bad usage or input.",
    arg_required_else_help = true
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Execute a Go text/template case {"id", "template", "data"}
    Exec(exec::Args),
    /// The exact prompt Ollama builds for a render case
    Render(render::Args),
    /// GGUF metadata: keys, tensors, sizes, memory estimate (no tensor data read)
    Gguf(gguf::Args),
    /// llama.cpp token ids for {"id", "text", "add_special", "parse_special"}
    Tokenize(tokenize::Args),
    /// Render a case, run the model, write Ollama's NDJSON response chunks
    Generate(generate::Args),
    /// What llama-server's KV cache reuses, turn by turn, for chat cases
    Cache(cache::Args),
    /// The models of an Ollama model store, as `ollama list` prints them
    List(store::ListArgs),
    /// A stored model as `ollama show` prints it (or the /api/show body)
    Show(store::ShowArgs),
    /// Ollama's HTTP API over a model store, with dry-run and debug modes
    Serve(serve::Args),
    /// Write a model into a model store from a Modelfile, as `ollama create` does
    Create(create::Args),
    /// What Ollama makes of the model's output: content, thinking, tool calls
    Parse(parse::Args),
    /// One case rendered as two runtimes or releases, and where they part
    Diff(diff::Args),
}

/// Refuses a `"runtime": "transformers"` case in a command that runs what
/// only Ollama and llama-server have (`what`: their output parsers, KV
/// cache, generation): transformers' runtime here renders prompts.
pub fn not_transformers(v: &serde_json::Value, what: &str) -> Result<(), String> {
    if v.get("runtime").and_then(serde_json::Value::as_str) == Some("transformers") {
        return Err(format!(
            "runtime \"transformers\" renders prompts only (promptscope render, promptscope diff); \
             {what} are Ollama's and llama-server's"
        ));
    }
    Ok(())
}

/// A case's `model.modelfile` and `model.store` (spec: "A model from an
/// Ollama model store") resolved into plain model keys; an answer Ollama
/// would give (a model not found) comes back as its text.
pub fn resolve_modelfile(v: &mut serde_json::Value) -> Result<(), String> {
    store::resolve_case(v).map_err(|e| match e {
        store::Prep::Usage(m) => m,
        store::Prep::Ollama(r) => r.message,
    })
}

/// A failure that maps to an exit code.
pub enum Failure {
    /// The engine reported an error (exit 1); already printed.
    Engine,
    /// Bad usage or unreadable input (exit 2), with a message.
    Usage(String),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // Help and version go to stdout with exit 0; usage errors to
        // stderr with exit 2.
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
        }
    };
    // Go's template engine recurses up to 100,000 levels: give it room.
    let worker = std::thread::Builder::new()
        .stack_size(512 << 20)
        .spawn(move || run(cli.command))
        .expect("spawn worker thread");
    match worker.join() {
        Ok(Ok(())) => ExitCode::SUCCESS,
        Ok(Err(Failure::Engine)) => ExitCode::from(1),
        Ok(Err(Failure::Usage(msg))) => {
            let _ = writeln!(io::stderr(), "promptscope: {msg}");
            ExitCode::from(2)
        }
        Err(_) => ExitCode::from(3),
    }
}

fn run(command: Command) -> Result<(), Failure> {
    match command {
        Command::Exec(args) => exec::run(args),
        Command::Render(args) => render::run(args),
        Command::Gguf(args) => gguf::run(args),
        Command::Tokenize(args) => tokenize::run(args),
        Command::Generate(args) => generate::run(args),
        Command::Cache(args) => cache::run(args),
        Command::List(args) => store::list(args),
        Command::Show(args) => store::show(args),
        Command::Serve(args) => serve::run(args),
        Command::Create(args) => create::run(args),
        Command::Parse(args) => parse::run(args),
        Command::Diff(args) => diff::run(args),
    }
}

/// `--runtime`, `--ollama`, `--llamacpp`: the runtime and version every
/// case that names none gets (contract v3).
#[derive(clap::Args, Clone, Debug, Default)]
pub struct RuntimeFlags {
    /// The runtime: ollama (default), llama-server, transformers
    #[arg(long, value_name = "RUNTIME")]
    pub runtime: Option<String>,
    /// The Ollama release, as `ollama -v` prints it (default: the newest)
    #[arg(long, value_name = "VERSION")]
    pub ollama: Option<String>,
    /// The llama.cpp build of runtime llama-server (b10488; default: the newest)
    #[arg(long, value_name = "BUILD")]
    pub llamacpp: Option<String>,
    /// The transformers release of runtime transformers (5.25.0, the only one)
    #[arg(long, value_name = "VERSION")]
    pub transformers: Option<String>,
}

impl RuntimeFlags {
    /// The defaults they give.
    pub fn defaults(&self) -> runtime::Defaults {
        runtime::Defaults {
            runtime: self.runtime.clone(),
            ollama: self.ollama.clone(),
            llamacpp: self.llamacpp.clone(),
            transformers: self.transformers.clone(),
        }
    }
}

/// The input a command reads: a path, or standard input for `-` or none.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct Input {
    /// Input file; `-` or none reads standard input
    #[arg(value_name = "FILE|-")]
    pub input: Option<String>,
}

impl Input {
    /// How error messages name the input.
    pub fn name(&self) -> &str {
        match self.input.as_deref() {
            None | Some("-") => "standard input",
            Some(path) => path,
        }
    }

    /// Reads the whole input.
    pub fn read_input(&self) -> Result<String, Failure> {
        match self.input.as_deref() {
            None | Some("-") => {
                let mut s = String::new();
                io::stdin()
                    .read_to_string(&mut s)
                    .map_err(|e| Failure::Usage(format!("cannot read standard input: {e}")))?;
                Ok(s)
            }
            Some(path) => std::fs::read_to_string(path)
                .map_err(|e| Failure::Usage(format!("cannot read {path}: {e}"))),
        }
    }

    /// The input as lines, for `--jsonl`.
    pub fn input_lines(&self) -> Result<Box<dyn Iterator<Item = io::Result<String>>>, Failure> {
        match self.input.as_deref() {
            None | Some("-") => Ok(Box::new(io::BufReader::new(io::stdin()).lines())),
            Some(path) => {
                let f = std::fs::File::open(path)
                    .map_err(|e| Failure::Usage(format!("cannot read {path}: {e}")))?;
                Ok(Box::new(io::BufReader::new(f).lines()))
            }
        }
    }
}

/// `--gguf FILE`, checked by the command so that its absence names the
/// command (`generate needs --gguf FILE`).
pub fn need_gguf(gguf: Option<String>, cmd: &str) -> Result<String, Failure> {
    gguf.ok_or_else(|| Failure::Usage(format!("{cmd} needs --gguf FILE")))
}

/// Parses a JSON document, with a message naming line and column.
pub fn parse_json(text: &str, what: &str) -> Result<serde_json::Value, String> {
    serde_json::from_str(text).map_err(|e| {
        let msg = e.to_string();
        let msg = msg
            .rsplit_once(" at line ")
            .map(|(m, _)| m.to_string())
            .unwrap_or(msg);
        format!(
            "invalid JSON in {what} at line {} column {}: {msg}",
            e.line(),
            e.column()
        )
    })
}

/// Writes one JSON value as a line.
pub fn write_json_line(out: &mut impl Write, v: &serde_json::Value) -> Result<(), Failure> {
    serde_json::to_writer(&mut *out, v)
        .map_err(|e| Failure::Usage(format!("cannot write output: {e}")))?;
    out.write_all(b"\n")
        .map_err(|e| Failure::Usage(format!("cannot write output: {e}")))
}
