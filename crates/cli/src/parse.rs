//! `promptscope parse`: what Ollama makes of the model's output — a render
//! case plus the model's raw text (`"output"`) or its streamed pieces
//! (`"chunks"`) gives the message Ollama's non-streamed answer carries, or
//! the error it answers with.

use std::io::{self, Write};
use std::time::{SystemTime, UNIX_EPOCH};

use ollama::answer;
use ollama::case::{AnswerError, RenderCase};
use ollama::gojson::J;
use serde_json::Value as Json;

use crate::{parse_json, Failure, Input};

/// Arguments of `promptscope parse`.
#[derive(clap::Args)]
pub struct Args {
    /// One case per input line, one result per output line (each with its id)
    #[arg(long)]
    jsonl: bool,
    /// One object with the message (or error), every streamed response and
    /// which parsers ran, and why
    #[arg(long, conflicts_with = "jsonl")]
    json: bool,
    #[command(flatten)]
    opts: Input,
}

/// The outcome of one case: the JSON to print, and whether Ollama fails.
enum Outcome {
    /// Ollama answers (the message) or fails the request (`{"error"}`).
    Answer(J, bool),
    /// The case itself is wrong, or Promptscope cannot say.
    Invalid(String),
}

fn seed() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0)
}

fn one(mut v: Json, detail: bool) -> Outcome {
    if let Err(why) = crate::not_transformers(&v, "output parsers") {
        return Outcome::Invalid(why);
    }
    match crate::store::resolve_case(&mut v) {
        Ok(()) => {}
        Err(crate::store::Prep::Usage(m)) => return Outcome::Invalid(m),
        Err(crate::store::Prep::Ollama(r)) => {
            return Outcome::Answer(J::Obj(vec![("error".into(), J::s(r.message))]), true)
        }
    }
    let pieces = match answer::pieces_of(&v) {
        Ok(p) => p,
        Err(e) => return Outcome::Invalid(e),
    };
    let case = match RenderCase::from_json(&v) {
        Ok(c) => c,
        Err(e) => return Outcome::Invalid(e),
    };
    match case.answer(&pieces, answer::tool_call_ids(seed())) {
        Ok(a) => {
            let failed = a.result.is_err();
            let j = if detail {
                a.detail_json(case.endpoint)
            } else {
                a.result_json(case.endpoint)
            };
            Outcome::Answer(j, failed)
        }
        Err(AnswerError::Ollama(f)) => {
            Outcome::Answer(J::Obj(vec![("error".into(), J::s(f.message))]), true)
        }
        Err(AnswerError::Unsupported(why)) => Outcome::Invalid(why),
    }
}

fn write_line(out: &mut impl Write, j: &J) -> Result<(), Failure> {
    out.write_all(j.to_json().as_bytes())
        .and_then(|_| out.write_all(b"\n"))
        .map_err(|e| Failure::Usage(format!("cannot write output: {e}")))
}

/// Runs `promptscope parse`.
pub fn run(args: Args) -> Result<(), Failure> {
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    if args.jsonl {
        let mut failed = false;
        for (n, line) in args.opts.input_lines()?.enumerate() {
            let line = line.map_err(|e| Failure::Usage(format!("cannot read input: {e}")))?;
            if line.trim().is_empty() {
                continue;
            }
            let v = match parse_json(&line, &format!("line {}", n + 1)) {
                Ok(v) => v,
                Err(why) => {
                    write_line(
                        &mut out,
                        &J::Obj(vec![("id".into(), J::Null), ("invalid".into(), J::s(why))]),
                    )?;
                    failed = true;
                    continue;
                }
            };
            let id = J::from_ordered(v.get("id").unwrap_or(&Json::Null));
            let mut kv = vec![("id".to_string(), id)];
            match one(v, false) {
                Outcome::Answer(J::Obj(fields), _) => kv.extend(fields),
                Outcome::Answer(other, _) => kv.push(("message".into(), other)),
                Outcome::Invalid(why) => {
                    failed = true;
                    kv.push(("invalid".into(), J::s(why)));
                }
            }
            write_line(&mut out, &J::Obj(kv))?;
        }
        out.flush()
            .map_err(|e| Failure::Usage(format!("cannot write output: {e}")))?;
        return if failed { Err(Failure::Engine) } else { Ok(()) };
    }
    let text = args.opts.read_input()?;
    let v = parse_json(&text, args.opts.name()).map_err(Failure::Usage)?;
    match one(v, args.json) {
        Outcome::Answer(j, failed) => {
            write_line(&mut out, &j)?;
            out.flush()
                .map_err(|e| Failure::Usage(format!("cannot write output: {e}")))?;
            if failed {
                Err(Failure::Engine)
            } else {
                Ok(())
            }
        }
        Outcome::Invalid(why) => Err(Failure::Usage(why)),
    }
}
