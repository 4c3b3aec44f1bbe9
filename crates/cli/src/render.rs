//! `promptscope render`: a render case to the exact prompt Ollama builds.

use std::io::{self, Write};

use ollama::case::RenderCase;
use ollama::server::{Explain, Failure, Rendered, TokenCounter};
use serde_json::{json, Map, Value as Json};

use crate::{parse_json, write_json_line, Failure as CliFailure, Input};

pub(crate) use engine::gguf::Gguf;

/// Opens and reads a GGUF file as Ollama's llama-server loads it.
pub(crate) fn load_gguf(path: &str) -> Result<Gguf, String> {
    let f = std::fs::File::open(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    Gguf::read(f, path)
}

/// [`load_gguf`] for the llama-server of an Ollama release's build.
pub(crate) fn load_gguf_at(path: &str, build: changes::Build) -> Result<Gguf, String> {
    let f = std::fs::File::open(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let options = tokenizer::LoadOptions::ollama(true).with_build(build);
    Gguf::read_with(f, path, options)
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
    if !f.release_rules.is_empty() {
        out["release_rules"] = build_rules_json(&f.release_rules);
    }
    out
}

/// The cache view of a turn as JSON.
pub(crate) fn turn_json(t: &ollama::cache::TurnView) -> Json {
    let d = t.first_difference.as_ref();
    let mut j = json!({
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
    });
    if !t.release_rules.is_empty() {
        j["release_rules"] = build_rules_json(&t.release_rules);
    }
    if let Some(c) = &t.checkpoints {
        j["checkpoints"] = serde_json::to_value(c).unwrap_or(Json::Null);
    }
    j
}

/// The case's `model.gguf` path, if any.
fn gguf_path(v: &Json) -> Option<String> {
    v.get("model")?.get("gguf")?.as_str().map(str::to_string)
}

fn explain_json(ex: &Explain) -> Json {
    let mut j = json!({
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
        "llamacpp": ex.llamacpp,
        "build_rules": build_rules_json(&ex.build_rules),
        "release_rules": build_rules_json(&ex.release_rules),
    });
    if !ex.format_rule.is_empty() {
        j["format_rule"] = json!(ex.format_rule);
    }
    if !ex.message_delimiters.is_empty() {
        j["message_delimiters"] = ex
            .message_delimiters
            .iter()
            .map(|(r, d)| json!({"role": r, "delimiter": d}))
            .collect();
    }
    j
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
    j["fields"] = json!(ollama::compat::notes::notes(rc.route, &rc.body, rc.release));
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

/// The clock a case's `date` (YYYY-MM-DD) sets, in seconds since the
/// epoch (absent = now): what `strftime_now` reads.
pub(crate) fn case_clock(v: &Json) -> Result<i64, String> {
    Ok(match v.get("date") {
        None | Some(Json::Null) => ollama::native::NativeTime::now_utc(),
        Some(Json::String(d)) => ollama::native::NativeTime::from_date(
            ollama::date::Date::parse(d).ok_or_else(|| format!("date {d:?} is not YYYY-MM-DD"))?,
        ),
        Some(_) => return Err("date must be a string YYYY-MM-DD".into()),
    }
    .unix())
}

/// A `"runtime": "llama-server"` case: what llama-server has loaded, its
/// clock, and the request.
pub(crate) struct ServerCase {
    template: String,
    /// The GGUF's `tokenizer.chat_template.tool_use` (or the case's
    /// `model.chat_template_tool_use`); none when the case's own
    /// `chat_template` replaces the model's, as `--chat-template-file` does.
    template_tool_use: String,
    bos: String,
    eos: String,
    add_bos: bool,
    add_eos: bool,
    vision: bool,
    /// The model's GGUF as llama-server loads it at the build.
    pub gguf: Option<Gguf>,
    now: i64,
    /// The request body.
    pub request: Json,
}

impl ServerCase {
    /// The case's model (`chat_template`, `bos_token`, `eos_token`, or
    /// `gguf`: its template, its vocabulary's BOS/EOS at `build`, without
    /// Ollama's compat rewrites), `date` (llama-server's clock; absent =
    /// now) and `request`.
    pub(crate) fn from_json(v: &Json, build: changes::Build) -> Result<ServerCase, String> {
        let m = v.get("model").cloned().unwrap_or(Json::Null);
        let text = |k: &str| -> Result<Option<String>, String> {
            match m.get(k) {
                None | Some(Json::Null) => Ok(None),
                Some(Json::String(s)) => Ok(Some(s.clone())),
                Some(_) => Err(format!("model.{k} must be a string")),
            }
        };
        let gguf = match text("gguf")? {
            Some(p) => {
                let f = std::fs::File::open(&p).map_err(|e| format!("cannot read {p}: {e}"))?;
                let options = tokenizer::LoadOptions::default().with_build(build);
                Some(Gguf::read_with(f, &p, options)?)
            }
            None => None,
        };
        let template_tool_use = match (text("chat_template_tool_use")?, &gguf) {
            (Some(t), _) => t,
            (None, Some(g)) if text("chat_template")?.is_none() => g
                .file
                .chat_template(Some("tool_use"))
                .unwrap_or("")
                .to_string(),
            _ => String::new(),
        };
        let template = match (text("chat_template")?, &gguf) {
            (Some(t), _) => t,
            (None, Some(g)) => g.file.chat_template(None).unwrap_or("").to_string(),
            (None, None) => String::new(),
        };
        let (bos, eos, add_bos, add_eos) = match &gguf {
            Some(g) => (
                g.vocab.bos_text().unwrap_or_default(),
                g.vocab.eos_text().unwrap_or_default(),
                g.vocab.add_bos(),
                g.vocab.add_eos(),
            ),
            None => (
                text("bos_token")?.unwrap_or_default(),
                text("eos_token")?.unwrap_or_default(),
                false,
                false,
            ),
        };
        let vision = m
            .get("capabilities")
            .and_then(Json::as_array)
            .is_some_and(|c| c.iter().any(|x| x == "vision"));
        let now = case_clock(v)?;
        let request = v.get("request").cloned().unwrap_or(Json::Null);
        if !request.is_object() {
            return Err("request must be an object: llama-server's request body".into());
        }
        Ok(ServerCase {
            template,
            template_tool_use,
            bos,
            eos,
            add_bos,
            add_eos,
            vision,
            gguf,
            now,
            request,
        })
    }

    /// Renders it as llama-server at `build` does.
    pub(crate) fn render(
        &self,
        build: changes::Build,
    ) -> Result<runtime::llama_server::Rendered, runtime::llama_server::Failure> {
        let model = runtime::llama_server::Model {
            chat_template: &self.template,
            chat_template_tool_use: &self.template_tool_use,
            bos_token: &self.bos,
            eos_token: &self.eos,
            add_bos: self.add_bos,
            add_eos: self.add_eos,
            vision: self.vision,
            audio: false,
        };
        runtime::llama_server::render(&model, &self.request, build, self.now)
    }

    /// The prompt's tokens as llama-server tokenizes it for completion
    /// (special tokens added and parsed), with a GGUF.
    pub(crate) fn tokens(&self, prompt: &str) -> Option<Result<Vec<u32>, String>> {
        let g = self.gguf.as_ref()?;
        Some(
            g.vocab
                .tokenize(prompt, true, true)
                .map_err(|e| e.message().to_string()),
        )
    }
}

/// The build-specific rules as JSON.
pub(crate) fn build_rules_json(rules: &[ollama::server::BuildRule]) -> Json {
    json!(rules
        .iter()
        .map(
            |r| json!({"id": r.id, "in_effect": r.in_effect, "first": r.first,
                        "upstream": r.upstream, "behaviour": r.behaviour})
        )
        .collect::<Vec<_>>())
}

/// A llama-server result's `--json` object.
pub(crate) fn server_json(
    sc: &ServerCase,
    build: changes::Build,
    result: &Result<runtime::llama_server::Rendered, runtime::llama_server::Failure>,
) -> Json {
    let mut j = json!({"runtime": "llama-server", "llamacpp": build.to_string()});
    match result {
        Ok(r) => {
            j["prompt"] = json!(r.prompt);
            j["thinking_default"] = json!(r.thinking_default);
            j["build_rules"] = build_rules_json(&r.build_rules);
            match sc.tokens(&r.prompt) {
                Some(Ok(t)) => j["prompt_tokens"] = json!(t.len()),
                Some(Err(e)) => j["prompt_tokens_error"] = json!(e),
                None => {}
            }
        }
        Err(f) => {
            j["error"] = json!(f.message);
            j["status"] = json!(f.status);
            j["body"] = json!(f.body);
            j["stage"] = json!(f.stage);
            j["build_rules"] = build_rules_json(&f.build_rules);
        }
    }
    j
}

/// `promptscope render` of a llama-server case.
fn run_server(
    v: &Json,
    build: changes::Build,
    as_json: bool,
    out: &mut impl Write,
) -> Result<(), CliFailure> {
    let sc = ServerCase::from_json(v, build).map_err(CliFailure::Usage)?;
    let result = sc.render(build);
    if as_json {
        write_json_line(out, &server_json(&sc, build, &result))?;
    } else {
        match &result {
            Ok(r) => out
                .write_all(r.prompt.as_bytes())
                .map_err(|e| CliFailure::Usage(format!("cannot write output: {e}")))?,
            Err(f) => {
                let _ = writeln!(io::stderr(), "{}", f.message);
            }
        }
    }
    out.flush()
        .map_err(|e| CliFailure::Usage(format!("cannot write output: {e}")))?;
    result.map(|_| ()).map_err(|_| CliFailure::Engine)
}

/// The runtime keys every Ollama result carries.
pub(crate) fn ollama_runtime_json(j: &mut Json, release: changes::Release, native: bool) {
    j["runtime"] = json!("ollama");
    j["ollama"] = json!(release.tag);
    if native {
        j["llamacpp"] = json!(release.llama_cpp.to_string());
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
    runtime: crate::RuntimeFlags,
    #[command(flatten)]
    opts: Input,
}

/// One `--jsonl` case's result line: `Err` is bad input (an `invalid`
/// line).
fn jsonl_result(mut v: Json, defaults: &runtime::Defaults) -> Result<Json, String> {
    let id = v.get("id").cloned().unwrap_or(Json::Null);
    let release = match runtime::Spec::of_case(&v, defaults)? {
        runtime::Spec::LlamaServer(build) => {
            let sc = ServerCase::from_json(&v, build)?;
            let mut o = json!({"id": id, "runtime": "llama-server", "llamacpp": build.to_string()});
            match sc.render(build) {
                Ok(r) => o["prompt"] = json!(r.prompt),
                Err(f) => o["error"] = json!(f.message),
            }
            return Ok(o);
        }
        runtime::Spec::Transformers => {
            let tc = crate::hf::TransformersCase::from_json(&v)?;
            let mut o = tc.result_json(&tc.render());
            o["id"] = id;
            return Ok(o);
        }
        runtime::Spec::Ollama(release) => release,
    };
    match crate::store::resolve_case(&mut v) {
        Ok(()) => {}
        Err(crate::store::Prep::Usage(m)) => return Err(m),
        Err(crate::store::Prep::Ollama(r)) => return Ok(json!({"id": id, "error": r.message})),
    }
    let mut case = RenderCase::from_json(&v)?;
    case.release = release;
    let mut o = Map::new();
    o.insert("id".into(), case.id.clone());
    o.insert("runtime".into(), json!("ollama"));
    o.insert("ollama".into(), json!(release.tag));
    if let Some(e) = case.embed(None, None) {
        match (&e.error, &e.unsupported) {
            (Some((_, m)), _) | (None, Some(m)) => o.insert("error".into(), json!(m)),
            (None, None) => o.insert("inputs".into(), json!(embed_texts(&e))),
        };
        return Ok(Json::Object(o));
    }
    match case.render(None) {
        Ok(r) => o.insert("prompt".into(), json!(r.prompt)),
        Err(f) => o.insert("error".into(), json!(f.message)),
    };
    Ok(Json::Object(o))
}

/// Runs `promptscope render`.
pub fn run(args: Args) -> Result<(), CliFailure> {
    let opts = &args.opts;
    let defaults = args.runtime.defaults();
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
            let result = match parse_json(&line, &format!("line {}", n + 1))
                .and_then(|v| jsonl_result(v, &defaults))
            {
                Ok(j) => j,
                Err(why) => json!({"id": null, "invalid": why}),
            };
            write_json_line(&mut out, &result)?;
        }
        return flush(&mut out);
    }
    let text = opts.read_input()?;
    let mut v = parse_json(&text, opts.name()).map_err(CliFailure::Usage)?;
    let release = match runtime::Spec::of_case(&v, &defaults).map_err(CliFailure::Usage)? {
        runtime::Spec::LlamaServer(build) => return run_server(&v, build, args.json, &mut out),
        runtime::Spec::Transformers => return crate::hf::run_render(&v, args.json, &mut out),
        runtime::Spec::Ollama(release) => release,
    };
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
    case.release = release;
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
        let native = match &result {
            Ok(r) => r.explain.branch == "native",
            Err(f) => f.explain.branch == "native",
        };
        ollama_runtime_json(&mut j, release, native);
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
