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

use inference::generate::Prepared;
use inference::{Generation, Model, Step};
use ollama::case::RenderCase;
use ollama::response::{self, Chunk, Metrics};
use ollama::server::{Endpoint, TokenCounter};
use serde_json::{json, Value as Json};

use crate::render::Gguf;
use crate::{parse_json, write_json_line, Failure, Input};

fn now_created_at() -> String {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos() as i128)
        .unwrap_or(0);
    response::created_at(nanos)
}

/// Writes `{"error": ...}` and fails with exit 1, as Ollama answers an error.
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
    let gguf = Gguf::load(&path).map_err(Failure::Usage)?;
    gguf.apply(&mut case);
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let request = &case.request;
    let model_name = request["model"].as_str().unwrap_or("").to_string();
    let flag = |k: &str| request.get(k).and_then(Json::as_bool);

    let mut sink = Sink { writer: None };
    if let Some(rc) = &case.route {
        match &rc.converted {
            Ok(c) => {
                let clock = SystemTime::now()
                    .duration_since(UNIX_EPOCH)
                    .unwrap_or_default();
                let (now, n) = (clock.as_secs() as i64, clock.as_nanos() as u64);
                // the ids the middleware draws at random
                let ids = match rc.route {
                    ollama::compat::Route::OpenAiChat => {
                        (format!("chatcmpl-{}", n % 999), String::new())
                    }
                    ollama::compat::Route::OpenAiCompletions => {
                        (format!("cmpl-{}", n % 999), String::new())
                    }
                    ollama::compat::Route::OpenAiResponses => (
                        format!("resp_{}", n % 999_999),
                        format!("msg_{}", (n / 999_999) % 999_999),
                    ),
                    ollama::compat::Route::AnthropicMessages => (
                        ollama::compat::anthropic::id_for("msg", &n.to_string()),
                        String::new(),
                    ),
                };
                sink.writer = Some(ollama::compat::reply::Writer::for_route(
                    rc.route,
                    &rc.body,
                    c.stream,
                    c.include_usage,
                    (&ids.0, &ids.1),
                    now,
                    n,
                ));
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
    let endpoint = case.endpoint;
    let Some(prompt) = rendered.prompt.clone() else {
        // empty messages / prompt: Ollama answers that the model loaded
        let mut c = response::chunk(
            endpoint,
            &Chunk {
                model: &model_name,
                created_at: &now_created_at(),
                done: Some("load"),
                ..Chunk::default()
            },
        );
        if endpoint == Endpoint::Chat {
            c["message"]["role"] = "assistant".into();
        }
        sink.send(&mut out, &c)?;
        return out.flush().map_err(|e| Failure::Usage(e.to_string()));
    };
    if flag("_debug_render_only") == Some(true) {
        let r = response::debug_render_only(
            endpoint,
            &model_name,
            &now_created_at(),
            &prompt,
            rendered.image_count,
        );
        sink.send(&mut out, &r)?;
        return out.flush().map_err(|e| Failure::Usage(e.to_string()));
    }

    let prepared = inference::generate::prepare(
        &gguf.vocab,
        &prompt,
        rendered.explain.leading_bos.as_deref(),
        gguf.adds_bos(),
        request.get("options").unwrap_or(&Json::Null),
        4096,
        flag("truncate") != Some(false),
        flag("shift") != Some(false),
    );
    let Prepared { options, tokens } = match prepared {
        Ok(p) => p,
        Err(e) => return sink.fail(&mut out, 500, &e.to_string()),
    };
    if options.num_thread > 0 {
        inference::threads::set_threads(options.num_thread as usize);
    }
    let stream = flag("stream") != Some(false) && !args.json;
    let debug = args.debug.then(|| {
        json!({"rendered_template": prompt, "options": options.to_json(), "prompt_tokens": tokens.ids.len()})
    });
    let raw = endpoint == Endpoint::Generate && flag("raw") == Some(true);
    let context = |text: &str| -> Option<Vec<u32>> {
        (endpoint == Endpoint::Generate && !raw)
            .then(|| {
                gguf.vocab
                    .tokenize(&format!("{prompt}{text}"), false, true)
                    .ok()
            })
            .flatten()
    };

    let mut chunks: Vec<Json> = Vec::new();
    let mut emit = |out: &mut io::BufWriter<io::StdoutLock>, c: Json| -> Result<(), Failure> {
        if stream {
            sink.send(out, &c)?;
            out.flush().map_err(|e| Failure::Usage(e.to_string()))?;
        } else {
            chunks.push(c);
        }
        Ok(())
    };

    if options.num_predict == 0 {
        // render and count: the model never runs
        let ctx = context("");
        let metrics = Metrics {
            total_duration: clock(),
            prompt_eval_count: tokens.ids.len(),
            ..Metrics::default()
        };
        let mut c = response::chunk(
            endpoint,
            &Chunk {
                model: &model_name,
                created_at: &now_created_at(),
                done: Some("length"),
                metrics,
                context: ctx.as_deref(),
                debug: debug.clone(),
                ..Chunk::default()
            },
        );
        if let Some(d) = &debug {
            c["_debug_info"] = d.clone();
        }
        emit(&mut out, c)?;
    } else {
        let load_start = clock();
        let bytes =
            std::fs::read(&path).map_err(|e| Failure::Usage(format!("cannot read {path}: {e}")))?;
        let mut model = match Model::from_bytes(&bytes) {
            Ok(m) => m,
            Err(e) => return sink.fail(&mut out, 500, &e.to_string()),
        };
        drop(bytes);
        let load_duration = clock() - load_start;
        let seed = (SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0)
            & 0xFFFF_FFFE) as u32;
        let mut g = match Generation::start(&mut model, &tokens.ids, &options, seed, &clock) {
            Ok(g) => g,
            Err(e) => return sink.fail(&mut out, 500, &e.to_string()),
        };
        let mut debug = debug.map(|mut d| {
            d["seed"] = g.seed().into();
            d
        });
        // the generic thinking parser, when the render chose one
        let mut shaper =
            response::Shaper::new(endpoint, rendered.explain.thinking_tags.as_ref(), &prompt);
        let reason = loop {
            match g.step(&mut model, &gguf.vocab, &clock) {
                Ok(Step::Text(t)) if t.is_empty() => {}
                Ok(Step::Text(t)) => {
                    let Some((thinking, content)) = shaper.piece(&t) else {
                        continue;
                    };
                    let c = response::chunk(
                        endpoint,
                        &Chunk {
                            model: &model_name,
                            created_at: &now_created_at(),
                            content: &content,
                            thinking: &thinking,
                            debug: debug.take(),
                            ..Chunk::default()
                        },
                    );
                    emit(&mut out, c)?;
                }
                Ok(Step::Done(r)) => break r,
                Err(e) => return sink.fail(&mut out, 500, &e.to_string()),
            }
        };
        let t = g.timings();
        let ctx = context(g.text());
        let metrics = t.metrics(clock(), load_duration);
        let c = response::chunk(
            endpoint,
            &Chunk {
                model: &model_name,
                created_at: &now_created_at(),
                done: Some(reason.as_str()),
                metrics,
                context: ctx.as_deref(),
                debug: debug.take(),
                ..Chunk::default()
            },
        );
        emit(&mut out, c)?;
    }
    if !stream {
        if let Some(one) = response::aggregate(endpoint, &chunks) {
            sink.send(&mut out, &one)?;
        }
    }
    out.flush().map_err(|e| Failure::Usage(e.to_string()))
}
