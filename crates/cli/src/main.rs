//! `promptscope`: the Promptscope engine on the command line.
//!
//! The interface is the contract in `shared/spec/cli.md`: exit 0 on
//! success, 1 when the engine reports an error, 2 for bad usage or input.

#![forbid(unsafe_code)]

use std::io::{self, BufRead, Read, Write};
use std::process::ExitCode;

mod exec;
mod generate;
mod gguf;
mod render;
mod tokenize;

const USAGE: &str = "usage: promptscope <command> [options] [FILE|-]

commands:
  exec [--jsonl] [FILE|-]            execute a Go text/template case {\"id\", \"template\", \"data\"}
  render [--json|--jsonl] [FILE|-]   the exact prompt Ollama builds for a render case
  gguf [--json] [--num-ctx=N] FILE   GGUF metadata: keys, tensors, sizes, memory estimate (no tensor data read)
  tokenize --gguf FILE [--jsonl] [--ollama-compat] [FILE|-]
                                     llama.cpp token ids for {\"id\",\"text\",\"add_special\",\"parse_special\"}
  generate --gguf FILE [--json] [--debug] [CASE|-]
                                     render a case, run the model, write Ollama's NDJSON response chunks
  help                      show this help
";

/// A failure that maps to an exit code.
pub enum Failure {
    /// The engine reported an error (exit 1); already printed.
    Engine,
    /// Bad usage or unreadable input (exit 2), with a message.
    Usage(String),
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // Go's template engine recurses up to 100,000 levels: give it room.
    let worker = std::thread::Builder::new()
        .stack_size(512 << 20)
        .spawn(move || run(&args))
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

fn run(args: &[String]) -> Result<(), Failure> {
    let Some((cmd, rest)) = args.split_first() else {
        return Err(Failure::Usage(format!("missing command\n{USAGE}")));
    };
    match cmd.as_str() {
        "exec" => exec::run(rest),
        "render" => render::run(rest),
        "gguf" => gguf::run(rest),
        "tokenize" => tokenize::run(rest),
        "generate" => generate::run(rest),
        "help" | "-h" | "--help" => {
            print!("{USAGE}");
            Ok(())
        }
        other => Err(Failure::Usage(format!(
            "unknown command {other:?}\n{USAGE}"
        ))),
    }
}

/// Parsed common options: flags and at most one input path.
pub struct Opts {
    /// Flags given, like `--jsonl`.
    pub flags: Vec<String>,
    /// Input path; `None` or `-` means stdin.
    pub input: Option<String>,
}

impl Opts {
    /// Parses `args`, accepting only the `known` flags.
    pub fn parse(args: &[String], known: &[&str]) -> Result<Opts, Failure> {
        let mut flags = Vec::new();
        let mut input = None;
        for a in args {
            if a.starts_with("--") {
                if !known.contains(&a.as_str()) {
                    return Err(Failure::Usage(format!("unknown option {a}")));
                }
                flags.push(a.clone());
            } else if input.is_none() {
                input = Some(a.clone());
            } else {
                return Err(Failure::Usage(format!("unexpected argument {a:?}")));
            }
        }
        Ok(Opts { flags, input })
    }

    /// Whether a flag was given.
    pub fn has(&self, flag: &str) -> bool {
        self.flags.iter().any(|f| f == flag)
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
