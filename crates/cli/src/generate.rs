//! `promptscope generate --gguf FILE [--json] [--debug] [CASE|-]`: renders
//! a case as Ollama would, then runs the model and writes Ollama's response
//! chunks as NDJSON (`shared/spec/cli.md`).
//!
//! - `"_debug_render_only": true` answers like Ollama: the rendered prompt
//!   in `_debug_info.rendered_template`, without running the model.
//! - `options.num_predict: 0` renders and counts (`prompt_eval_count`) and
//!   never loads the weights.
//! - `"stream": false` in the request, or `--json`, writes one response
//!   with the whole text.
//! - `--debug` (Promptscope's opt-in) adds `_debug_info` to the first chunk:
//!   the rendered prompt, the options in effect and the seed.

use std::io::{self, Write};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use ollama::case::RenderCase;
use ollama::response;
use ollama::server::TokenCounter;
use serde_json::Value as Json;

use crate::{parse_json, write_json_line, Failure, Input};

/// Writes `{"error": ...}` and fails with exit 1, as Ollama answers an error.
/// Reads the model file whole into the one buffer the model keeps (its
/// weights are used in place), showing progress by bytes on stderr when
/// stderr is a terminal.
fn read_model(path: &str) -> Result<Vec<u8>, String> {
    use std::io::{IsTerminal, Read};
    let fail = |e: io::Error| format!("cannot read {path}: {e}");
    let mut f = std::fs::File::open(path).map_err(fail)?;
    let total = f.metadata().map_err(fail)?.len();
    let show = io::stderr().is_terminal();
    let mut bytes = Vec::with_capacity(total as usize);
    let mut chunk = vec![0u8; 8 << 20];
    let mb = |b: u64| b as f64 / 1e6;
    loop {
        let n = f.read(&mut chunk).map_err(fail)?;
        if n == 0 {
            break;
        }
        bytes.extend_from_slice(&chunk[..n]);
        if show {
            eprint!(
                "\rloading {path}: {:.0} of {:.0} MB",
                mb(bytes.len() as u64),
                mb(total)
            );
        }
    }
    if show {
        eprintln!();
    }
    Ok(bytes)
}

fn engine_error(out: &mut impl Write, message: &str) -> Result<(), Failure> {
    write_json_line(out, &response::error(message))?;
    out.flush().ok();
    Err(Failure::Engine)
}

/// Where the native handler's responses go: written as NDJSON, or through
/// a compatibility route's writer (`ollama::compat::reply`).
struct Sink {
    writer: Option<ollama::compat::reply::Writer>,
}

impl Sink {
    fn send(&mut self, out: &mut impl Write, c: &Json) -> Result<(), Failure> {
        match &mut self.writer {
            None => write_json_line(out, c),
            Some(w) => out
                .write_all(w.write(200, c).as_bytes())
                .map_err(|e| Failure::Usage(format!("cannot write output: {e}"))),
        }
    }

    fn fail(&mut self, out: &mut impl Write, status: u16, message: &str) -> Result<(), Failure> {
        match &mut self.writer {
            None => write_json_line(out, &response::error(message))?,
            Some(w) => out
                .write_all(w.write(status, &response::error(message)).as_bytes())
                .map_err(|e| Failure::Usage(format!("cannot write output: {e}")))?,
        }
        out.flush().ok();
        Err(Failure::Engine)
    }
}

/// `promptscope generate --gguf FILE [--json] [--debug] [CASE|-]`.
#[derive(clap::Args)]
pub struct Args {
    /// The model to run (default: the case's model.gguf, or its model in
    /// model.store)
    #[arg(long, value_name = "FILE")]
    gguf: Option<String>,
    /// One response with the whole text instead of streamed chunks
    #[arg(long)]
    json: bool,
    /// Add `_debug_info` to the first chunk: the prompt, the options in
    /// effect and the prompt's token count
    #[arg(long)]
    debug: bool,
    #[command(flatten)]
    opts: Input,
}

/// Runs `promptscope generate`.
pub fn run(args: Args) -> Result<(), Failure> {
    let start = Instant::now();
    let clock = || start.elapsed().as_nanos() as u64;
    let opts = &args.opts;
    let text = opts.read_input()?;
    let mut v = parse_json(&text, opts.name()).map_err(Failure::Usage)?;
    crate::not_transformers(&v, "generation and its answers").map_err(Failure::Usage)?;
    if let Some(path) = &args.gguf {
        if v["model"].get("gguf").is_none() {
            // the model file is --gguf's, whatever the Modelfile's FROM or
            // the store says
            v["model"]["gguf"] = Json::from(path.as_str());
        }
    }
    if let Err(e) = crate::store::resolve_case(&mut v) {
        return match e {
            crate::store::Prep::Usage(m) => Err(Failure::Usage(m)),
            crate::store::Prep::Ollama(r) => {
                let mut out = io::BufWriter::new(io::stdout().lock());
                engine_error(&mut out, &r.message)
            }
        };
    }
    let path = crate::need_gguf(
        args.gguf
            .or_else(|| v["model"]["gguf"].as_str().map(str::to_string)),
        "generate",
    )?;
    let mut case = RenderCase::from_json(&v).map_err(Failure::Usage)?;
    let gguf = crate::render::load_gguf(&path).map_err(Failure::Usage)?;
    gguf.apply(&mut case);
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());

    let mut sink = Sink { writer: None };
    if let Some(rc) = &case.route {
        match &rc.converted {
            Ok(c) => {
                let clock = SystemTime::now()
                    .duration_since(UNIX_EPOCH)
                    .unwrap_or_default();
                let (now, n) = (clock.as_secs() as i64, clock.as_nanos() as u64);
                let ids = ollama::compat::reply::random_ids(rc.route, n);
                sink.writer = Some(
                    ollama::compat::reply::Writer::for_route(
                        rc.route,
                        &rc.body,
                        c.stream,
                        c.include_usage,
                        (&ids.0, &ids.1),
                        now,
                        n,
                    )
                    .with_release(case.release),
                );
            }
            Err(e) => {
                let body = rc.error_body(e.status, &e.message, false);
                out.write_all(body.as_bytes()).ok();
                out.flush().ok();
                return Err(Failure::Engine);
            }
        }
    }
    let rendered = match case.render(Some(&gguf as &dyn TokenCounter)) {
        Ok(r) => r,
        Err(f) => return sink.fail(&mut out, f.status, &f.message),
    };
    let job = engine::generate::Job {
        case: &case,
        rendered: &rendered,
        gguf: &gguf,
        one_response: args.json,
        debug: args.debug,
    };
    let mut failed = None;
    let result = engine::generate::run(job, || read_model(&path), &clock, &mut |c| match sink
        .send(&mut out, &c)
        .and_then(|()| {
            out.flush()
                .map_err(|e| Failure::Usage(format!("cannot write output: {e}")))
        }) {
        Ok(()) => true,
        Err(e) => {
            failed = Some(e);
            false
        }
    });
    if let Some(e) = failed {
        return Err(e);
    }
    if let Err(f) = result {
        return sink.fail(&mut out, f.status, &f.message);
    }
    out.flush().map_err(|e| Failure::Usage(e.to_string()))
}
