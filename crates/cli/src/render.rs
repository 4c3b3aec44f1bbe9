//! `promptscope render`: a render case to the exact prompt Ollama builds.

use std::io::{self, Write};

use ollama::case::RenderCase;
use ollama::server::{Explain, Failure, Rendered, TokenCounter};
use serde_json::{json, Map, Value as Json};

use crate::{parse_json, write_json_line, Failure as CliFailure, Input};

pub(crate) use engine::gguf::Gguf;

/// Opens and reads a GGUF file.
pub(crate) fn load_gguf(path: &str) -> Result<Gguf, String> {
    let f = std::fs::File::open(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    Gguf::read(f, path)
}

/// The runner's second truncation stage (`ollama::runner`) as JSON:
/// the options in effect, and the kept and dropped token ranges, or the
/// error Ollama answers.
fn runner_json(f: &ollama::runner::Figures) -> Json {
    let mut out = json!({
        "num_ctx": f.num_ctx,
        "num_keep": f.num_keep,
        "context_shift": f.context_shift,
        "tokens": f.tokens,
        "cut": f.cut.map(|c| json!({
            "kept": [0, c.keep],
            "dropped": [c.keep, c.keep + c.discarded],
            "tokens_after": c.limit,
        })),
    });
    if let Some(e) = &f.error {
        out["error"] = json!(e);
    }
    out
}

/// The cache view of a turn as JSON.
pub(crate) fn turn_json(t: &ollama::cache::TurnView) -> Json {
    let d = t.first_difference.as_ref();
    json!({
        "reply": t.reply,
        "messages": t.end,
        "assumption": t.assumption,
        "previous_tokens": t.previous_tokens,
        "reply_tokens": t.reply_tokens,
        "held": t.reuse.held,
        "tokens": t.reuse.tokens,
        "common_prefix": t.reuse.common_prefix,
        "cache_n": t.reuse.cache_n,
        "prompt_n": t.reuse.prompt_n,
        "prompt_eval_count": t.reuse.prompt_eval_count(),
        "first_difference": d.map(|d| json!({
            "token": d.token,
            "held": d.held.as_ref().map(|(id, p)| json!({"id": id, "piece": p})),
            "new": {"id": d.new.0, "piece": d.new.1},
            "byte": d.byte,
        })),
        "break": {"kind": t.why.kind, "message": t.why.message, "cause": t.why.cause},
    })
}

/// The case's `model.gguf` path, if any.
fn gguf_path(v: &Json) -> Option<String> {
    v.get("model")?.get("gguf")?.as_str().map(str::to_string)
}

fn explain_json(ex: &Explain) -> Json {
    json!({
        "model": ex.model_name,
        "source": ex.source,
        "source_rule": ex.source_rule,
        "branch": ex.branch,
        "vars": ex.vars,
        "response_appended": ex.response_appended,
        "capabilities": ex.capabilities.iter().map(|c| json!({"name": c.name, "origin": c.origin})).collect::<Vec<_>>(),
        "requested": ex.requested,
        "think": ex.think,
        "think_rule": ex.think_rule,
        "messages": ex.messages.iter().map(|m| json!({"index": m.index, "role": m.role, "origin": m.origin, "notes": m.notes})).collect::<Vec<_>>(),
        "tool_renames": ex.tool_renames.iter().map(|(a, b)| json!({"from": a, "to": b})).collect::<Vec<_>>(),
        "truncation": ex.truncation.as_ref().map(|t| json!({"num_ctx": t.num_ctx, "first_kept": t.first_kept, "counts": t.counts})),
        "message_tokens": ex.message_tokens,
        "legacy_dropped": ex.legacy_dropped,
        "leading_bos": ex.leading_bos,
    })
}

/// The `--json` object for a result.
pub fn result_json(result: &Result<Rendered, Failure>) -> Json {
    match result {
        Ok(r) => {
            let mut o = Map::new();
            o.insert("prompt".into(), json!(r.prompt));
            o.insert("source".into(), json!(r.explain.source));
            o.insert("vars".into(), json!(r.explain.vars));
            o.insert(
                "capabilities".into(),
                json!(r
                    .explain
                    .capabilities
                    .iter()
                    .map(|c| c.name.clone())
                    .collect::<Vec<_>>()),
            );
            o.insert("image_count".into(), json!(r.image_count));
            o.insert("explain".into(), explain_json(&r.explain));
            Json::Object(o)
        }
        Err(f) => {
            json!({"error": f.message, "status": f.status, "explain": explain_json(&f.explain)})
        }
    }
}

/// A float32 option as Go writes it (its shortest decimal form).
fn f32_json(f: f32) -> Json {
    if f.fract() == 0.0 && f.abs() < 1e15 {
        return Json::from(f as i64);
    }
    format!("{f}")
        .parse::<f64>()
        .ok()
        .and_then(serde_json::Number::from_f64)
        .map(Json::Number)
        .unwrap_or(Json::Null)
}

/// The options in effect for a native request: `api.DefaultOptions()` with
/// the request's (the model's PARAMETERs already under them) applied.
fn options_in_effect(request: &Json) -> Json {
    let mut o = inference::Options::defaults(4096);
    if let Some(Json::Object(asked)) = request.get("options") {
        if let Err(e) = o.apply(asked) {
            return json!({"error": e.to_string()});
        }
    }
    let mut j = o.to_json();
    for k in [
        "top_p",
        "min_p",
        "typical_p",
        "temperature",
        "repeat_penalty",
        "presence_penalty",
        "frequency_penalty",
    ] {
        if let Some(f) = j[k].as_f64() {
            j[k] = f32_json(f as f32);
        }
    }
    j
}

/// For a compatibility route: the converted request (`api_request`), the
/// options in effect, and on failure the route's own error body.
fn route_json(case: &RenderCase, result: &Result<Rendered, Failure>, j: &mut Json) {
    let Some(rc) = &case.route else { return };
    if let Ok(c) = &rc.converted {
        j["api_request"] = c.request.clone();
        j["native_endpoint"] = json!(match c.endpoint {
            ollama::server::Endpoint::Chat => "chat",
            ollama::server::Endpoint::Generate => "generate",
        });
        j["options"] = options_in_effect(&case.request);
    }
    j["fields"] = json!(ollama::compat::notes::notes(rc.route, &rc.body));
    if let Err(f) = result {
        if let Some(b) = &f.body {
            j["body"] = json!(b);
        }
    }
}

/// An embedding case's `--json` object.
pub fn embed_json(o: &ollama::embed::Outcome) -> Json {
    let mut j = json!({
        "endpoint": o.route.map(|r| r.name()),
        "model": o.model,
        "truncate": o.truncate,
        "dimensions": o.dimensions,
        "inputs": o.inputs.iter().map(|i| json!({
            "index": i.index,
            "text": i.text,
            "sent": i.sent,
            "tokens": i.tokens,
            "count": i.count,
            "text_tokens": i.text_tokens,
            "limit": i.limit,
            "truncated": i.truncated,
            "retried": i.retried,
            "steps": i.steps,
            "error": i.error.as_ref().map(|e| json!({"status": e.0, "error": e.1})),
        })).collect::<Vec<_>>(),
        "runner": o.runner.as_ref().map(|r| json!({
            "num_ctx": r.num_ctx,
            "num_batch": r.num_batch,
            "context": r.context,
            "slot_ctx": r.slot_ctx,
            "ubatch": r.ubatch,
            "embedding": r.embedding,
        })),
        "embedding_length": o.output_length(),
        "notes": o.notes,
    });
    if let Some(n) = o.prompt_eval_count {
        j["prompt_eval_count"] = json!(n);
    }
    if let Some(a) = &o.api_request {
        j["api_request"] = a.clone();
    }
    match (&o.error, &o.unsupported) {
        (Some((s, e)), _) => {
            j["error"] = json!(e);
            j["status"] = json!(s);
            if let Some(b) = &o.body {
                j["body"] = json!(b);
            }
        }
        (None, Some(u)) => j["unsupported"] = json!(u),
        (None, None) => j["answer"] = o.answer_shape(),
    }
    j
}

/// What an embedding case sends the runner: each input's text (as sent
/// when the tokenizer is known, else as given).
fn embed_texts(o: &ollama::embed::Outcome) -> Vec<String> {
    o.inputs
        .iter()
        .map(|i| i.sent.clone().unwrap_or_else(|| i.text.clone()))
        .collect()
}

/// `promptscope render` of an embedding case: `--json` the whole outcome;
/// otherwise each text the runner embeds as a JSON string on its own line
/// (an embedding request has several inputs and no prompt), or Ollama's
/// error on stderr with exit 1.
fn run_embed(
    case: &RenderCase,
    gguf: Option<&Gguf>,
    as_json: bool,
    origins: Option<Json>,
    out: &mut impl Write,
) -> Result<(), CliFailure> {
    let kv = gguf.map(Gguf::embed_kv);
    let o = case
        .embed(
            kv.as_ref(),
            gguf.map(|g| g as &dyn ollama::embed::EmbedTokens),
        )
        .expect("an embedding case");
    let failed = o.error.is_some() || o.unsupported.is_some();
    if as_json {
        let mut j = embed_json(&o);
        if let Some(x) = origins {
            j["origins"] = x;
        }
        write_json_line(out, &j)?;
    } else if let Some((_, e)) = &o.error {
        let _ = writeln!(io::stderr(), "{e}");
    } else if let Some(u) = &o.unsupported {
        let _ = writeln!(io::stderr(), "{u}");
    } else {
        for t in embed_texts(&o) {
            write_json_line(out, &json!(t))?;
        }
    }
    out.flush()
        .map_err(|e| CliFailure::Usage(format!("cannot write output: {e}")))?;
    if failed {
        Err(CliFailure::Engine)
    } else {
        Ok(())
    }
}

/// `promptscope render [--json|--jsonl] [FILE|-]`.
#[derive(clap::Args)]
pub struct Args {
    /// One JSON object: the prompt, its source, variables, capabilities,
    /// the explanation and, with a GGUF, `prompt_eval_count`
    #[arg(long)]
    json: bool,
    /// One case per input line, one result per output line (each with its id)
    #[arg(long)]
    jsonl: bool,
    #[command(flatten)]
    opts: Input,
}

/// Runs `promptscope render`.
pub fn run(args: Args) -> Result<(), CliFailure> {
    let opts = &args.opts;
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let flush = |out: &mut io::BufWriter<io::StdoutLock>| {
        out.flush()
            .map_err(|e| CliFailure::Usage(format!("cannot write output: {e}")))
    };
    if args.jsonl {
        for (n, line) in opts.input_lines()?.enumerate() {
            let line = line.map_err(|e| CliFailure::Usage(format!("cannot read input: {e}")))?;
            if line.trim().is_empty() {
                continue;
            }
            let mut refused = None;
            let result = parse_json(&line, &format!("line {}", n + 1))
                .and_then(|mut v| match crate::store::resolve_case(&mut v) {
                    Ok(()) => Ok(v),
                    Err(crate::store::Prep::Usage(m)) => Err(m),
                    Err(crate::store::Prep::Ollama(r)) => {
                        refused = Some(json!({"id": v.get("id").cloned().unwrap_or(Json::Null), "error": r.message}));
                        Err(String::new())
                    }
                })
                .and_then(|v| RenderCase::from_json(&v))
                .map(|case| {
                    let mut o = Map::new();
                    o.insert("id".into(), case.id.clone());
                    if let Some(e) = case.embed(None, None) {
                        match (&e.error, &e.unsupported) {
                            (Some((_, m)), _) | (None, Some(m)) => {
                                o.insert("error".into(), json!(m))
                            }
                            (None, None) => o.insert("inputs".into(), json!(embed_texts(&e))),
                        };
                        return Json::Object(o);
                    }
                    match case.render(None) {
                        Ok(r) => o.insert("prompt".into(), json!(r.prompt)),
                        Err(f) => o.insert("error".into(), json!(f.message)),
                    };
                    Json::Object(o)
                })
                .unwrap_or_else(|why| {
                    refused
                        .take()
                        .unwrap_or_else(|| json!({"id": null, "invalid": why}))
                });
            write_json_line(&mut out, &result)?;
        }
        return flush(&mut out);
    }
    let text = opts.read_input()?;
    let mut v = parse_json(&text, opts.name()).map_err(CliFailure::Usage)?;
    match crate::store::resolve_case(&mut v) {
        Ok(()) => {}
        Err(crate::store::Prep::Usage(m)) => return Err(CliFailure::Usage(m)),
        Err(crate::store::Prep::Ollama(r)) => {
            if args.json {
                write_json_line(&mut out, &json!({"error": r.message, "status": r.status}))?;
                flush(&mut out)?;
            } else {
                let _ = writeln!(io::stderr(), "{}", r.message);
            }
            return Err(CliFailure::Engine);
        }
    }
    let origins = v["model"].get("origins").cloned();
    let mut case = RenderCase::from_json(&v).map_err(CliFailure::Usage)?;
    let gguf = match gguf_path(&v) {
        Some(p) => Some(load_gguf(&p).map_err(CliFailure::Usage)?),
        None => None,
    };
    if let Some(g) = &gguf {
        g.apply(&mut case);
    }
    if case.embed.is_some() {
        return run_embed(&case, gguf.as_ref(), args.json, origins, &mut out);
    }
    let result = case.render(gguf.as_ref().map(|g| g as &dyn TokenCounter));
    if args.json {
        let mut j = result_json(&result);
        if let Some(o) = origins {
            j["origins"] = o;
        }
        route_json(&case, &result, &mut j);
        if let (Some(g), Ok(r)) = (&gguf, &result) {
            if let Some(prompt) = &r.prompt {
                let seen = ollama::cache::seen(&case, r, prompt, g).map_err(CliFailure::Usage)?;
                let images = if case.model.has_projector {
                    768 * r.image_count
                } else {
                    0
                };
                // what llama-server evaluates after the runner's cut, and
                // Ollama reports
                j["prompt_eval_count"] = json!(seen.runner.evaluated() + images);
                j["runner"] = runner_json(&seen.runner);
                if let Some(t) = ollama::cache::last_turn(&case, g, (r, &seen)) {
                    j["cache"] = match t {
                        Ok(t) => turn_json(&t),
                        Err(e) => json!({"error": e}),
                    };
                }
            }
        }
        write_json_line(&mut out, &j)?;
        flush(&mut out)?;
        return result.map(|_| ()).map_err(|_| CliFailure::Engine);
    }
    match result {
        Ok(r) => {
            out.write_all(r.prompt.unwrap_or_default().as_bytes())
                .map_err(|e| CliFailure::Usage(format!("cannot write output: {e}")))?;
            flush(&mut out)
        }
        Err(f) => {
            let _ = writeln!(io::stderr(), "{}", f.message);
            Err(CliFailure::Engine)
        }
    }
}
