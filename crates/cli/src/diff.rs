//! `promptscope diff --as SPEC --as SPEC [--json] [CASE|-]`: one case
//! rendered as two runtimes or releases, and where they part (contract
//! v3): the first differing byte, the first differing token where both
//! sides have a tokenizer, both prompts around it, and the rows of the
//! change table that explain it.
//!
//! A case's request is in its own runtime's shape: an Ollama case's
//! conversation reaches llama-server as the body Ollama's native mode
//! sends it, and a llama-server case reaches Ollama through its
//! `/v1/chat/completions` route.

use std::io::{self, Write};

use ollama::case::RenderCase;
use ollama::server::{BuildRule, TokenCounter};
use runtime::Spec;
use serde_json::{json, Value as Json};

use crate::render::{load_gguf_at, ollama_runtime_json, result_json, ServerCase};
use crate::{parse_json, write_json_line, Failure as CliFailure, Input};

/// `promptscope diff`.
#[derive(clap::Args)]
pub struct Args {
    /// A runtime and version to render as: ollama@0.33.0-rc2,
    /// llama-server@b10488, transformers@5.25.0 (twice: A, then B)
    #[arg(long = "as", value_name = "SPEC", required = true, num_args = 1)]
    specs: Vec<String>,
    /// One JSON object: {"a", "b", "equal", "first_difference", "explained_by"}
    #[arg(long)]
    json: bool,
    /// The upgrade check: every model of this store over the standard
    /// conversations (plain, system, multi-turn, tools, thinking), one line
    /// per model (no case is read)
    #[arg(long, value_name = "DIR")]
    models: Option<String>,
    #[command(flatten)]
    opts: Input,
}

/// One side: its result object, its prompt (or none), its tokens (with a
/// GGUF) and the version-specific rules it consulted.
pub(crate) struct Side {
    pub(crate) spec: Spec,
    pub(crate) result: Json,
    pub(crate) prompt: Option<String>,
    pub(crate) tokens: Option<Vec<u32>>,
    pub(crate) rules: Vec<BuildRule>,
}

impl Side {
    /// A side that could not be prepared (the store refuses the model).
    pub(crate) fn failed(spec: Spec, error: String) -> Side {
        Side {
            spec,
            result: json!({ "error": error }),
            prompt: None,
            tokens: None,
            rules: Vec::new(),
        }
    }
}

/// The case's request as llama-server's own body: unchanged for a
/// llama-server case; for an Ollama chat case, the body Ollama's native
/// mode builds from it.
fn server_body(case_spec: Spec, v: &Json) -> Result<Json, String> {
    match case_spec {
        Spec::LlamaServer(_) => return Ok(v["request"].clone()),
        Spec::Transformers => return Ok(runtime::transformers::server_body_of(&v["request"])),
        Spec::Ollama(_) => {}
    }
    runtime::llama_server::body_of_ollama_chat(
        v["model"].get("system").and_then(Json::as_str),
        &v["request"],
    )
}

/// The case's request as transformers takes it.
fn transformers_request(case_spec: Spec, v: &Json) -> Result<Json, String> {
    match case_spec {
        Spec::Transformers => Ok(v["request"].clone()),
        _ => Ok(runtime::transformers::request_of_server_body(&server_body(
            case_spec, v,
        )?)),
    }
}

/// The case as Ollama takes it: unchanged for an Ollama case; a
/// llama-server body (or a transformers request, as llama-server's body)
/// goes through Ollama's `/v1/chat/completions` route.
fn ollama_case(case_spec: Spec, v: &Json) -> Json {
    let mut v = v.clone();
    if let Spec::Transformers = case_spec {
        v["request"] = runtime::transformers::server_body_of(&v["request"]);
    }
    if let Spec::LlamaServer(_) | Spec::Transformers = case_spec {
        v["endpoint"] = json!("openai-chat");
        if let Some(o) = v["request"].as_object_mut() {
            if let Spec::Transformers = case_spec {
                o.remove("add_generation_prompt");
            }
            o.entry("model").or_insert(json!("demo"));
        }
    }
    if let Some(o) = v.as_object_mut() {
        for k in ["runtime", "llamacpp", "ollama", "transformers"] {
            o.remove(k);
        }
    }
    v
}

pub(crate) fn render_side(spec: Spec, case_spec: Spec, v: &Json) -> Result<Side, String> {
    match spec {
        Spec::Transformers => {
            let mut tv = v.clone();
            tv["request"] = transformers_request(case_spec, v)?;
            let tc = crate::hf::TransformersCase::from_json(&tv)?;
            let r = tc.render();
            let tokens = r
                .as_ref()
                .ok()
                .and_then(|p| tc.tokens(p))
                .and_then(Result::ok);
            Ok(Side {
                spec,
                result: tc.result_json(&r),
                prompt: r.ok(),
                tokens,
                rules: Vec::new(),
            })
        }
        Spec::LlamaServer(build) => {
            let mut sv = v.clone();
            sv["request"] = server_body(case_spec, v)?;
            let sc = ServerCase::from_json(&sv, build)?;
            let r = sc.render(build);
            let result = crate::render::server_json(&sc, build, &r);
            let (prompt, rules) = match &r {
                Ok(r) => (Some(r.prompt.clone()), r.build_rules.clone()),
                Err(f) => (None, f.build_rules.clone()),
            };
            let tokens = prompt
                .as_deref()
                .and_then(|p| sc.tokens(p))
                .and_then(Result::ok);
            Ok(Side {
                spec,
                result,
                prompt,
                tokens,
                rules,
            })
        }
        Spec::Ollama(release) => {
            let mut ov = ollama_case(case_spec, v);
            crate::resolve_modelfile(&mut ov)?;
            let mut case = RenderCase::from_json(&ov)?;
            case.release = release;
            let gguf = match ov["model"].get("gguf").and_then(Json::as_str) {
                Some(p) => Some(load_gguf_at(p, release.llama_cpp)?),
                None => None,
            };
            if let Some(g) = &gguf {
                g.apply(&mut case);
            }
            let r = case.render(gguf.as_ref().map(|g| g as &dyn TokenCounter));
            let mut result = result_json(&r);
            let (prompt, rules, native) = match &r {
                Ok(r) => (
                    r.prompt.clone(),
                    [&r.explain.build_rules[..], &r.explain.release_rules[..]].concat(),
                    r.explain.branch == "native",
                ),
                Err(f) => (
                    None,
                    [&f.explain.build_rules[..], &f.explain.release_rules[..]].concat(),
                    f.explain.branch == "native",
                ),
            };
            ollama_runtime_json(&mut result, release, native);
            let tokens = match (&gguf, &prompt) {
                (Some(g), Some(p)) => ollama::cache::PromptTokens::prompt_tokens(g, p).ok(),
                _ => None,
            };
            Ok(Side {
                spec,
                result,
                prompt,
                tokens,
                rules,
            })
        }
    }
}

/// How much of each prompt is shown around the first difference.
const CONTEXT: usize = 40;

/// Runs `promptscope diff`.
pub fn run(args: Args) -> Result<(), CliFailure> {
    if args.specs.len() != 2 {
        return Err(CliFailure::Usage(format!(
            "diff needs --as twice (A and B), got it {} time(s)",
            args.specs.len()
        )));
    }
    let specs = args
        .specs
        .iter()
        .map(|s| Spec::parse(s))
        .collect::<Result<Vec<_>, _>>()
        .map_err(CliFailure::Usage)?;
    if let Some(dir) = &args.models {
        return crate::upgrade::run([specs[0], specs[1]], dir, args.json);
    }
    let text = args.opts.read_input()?;
    let v = parse_json(&text, args.opts.name()).map_err(CliFailure::Usage)?;
    let case_spec = Spec::of_case(&v, &runtime::Defaults::default()).map_err(CliFailure::Usage)?;
    let a = render_side(specs[0], case_spec, &v).map_err(CliFailure::Usage)?;
    let b = render_side(specs[1], case_spec, &v).map_err(CliFailure::Usage)?;
    let byte = match (&a.prompt, &b.prompt) {
        (Some(x), Some(y)) => runtime::diff::first_byte(x, y),
        _ => None,
    };
    let token = match (&a.tokens, &b.tokens) {
        (Some(x), Some(y)) => runtime::diff::first_token(x, y),
        _ => None,
    };
    let equal = a.prompt.is_some() && a.prompt == b.prompt;
    let explained: Vec<&changes::Change> = if equal {
        Vec::new()
    } else {
        runtime::diff::explained_by((a.spec, &a.rules), (b.spec, &b.rules))
    };
    // between transformers and another runtime: the constructs they take
    // differently
    let across = (a.spec == Spec::Transformers) != (b.spec == Spec::Transformers);
    let causes = match (&a.prompt, &b.prompt, byte) {
        (Some(x), Some(y), Some(at)) if across => runtime::diff::runtime_causes(
            x,
            y,
            at,
            &transformers_request(case_spec, &v).map_err(CliFailure::Usage)?,
            v["model"]["chat_template"].as_str().unwrap_or(""),
        ),
        _ => Vec::new(),
    };
    let difference = byte.map(|at| {
        let (x, y) = (a.prompt.as_deref().unwrap(), b.prompt.as_deref().unwrap());
        json!({"byte": at, "token": token,
               "a": runtime::diff::context(x, at, CONTEXT),
               "b": runtime::diff::context(y, at, CONTEXT)})
    });
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    if args.json {
        let j = json!({
            "a": a.result,
            "b": b.result,
            "equal": equal,
            "first_difference": difference,
            "explained_by": explained.iter().map(|c| json!({
                "id": c.id, "runtime": c.runtime.to_string(), "first": c.first_version(),
                "upstream": c.upstream, "file": c.file, "new": c.new, "old": c.old,
            })).chain(causes.iter().map(|c| json!({"id": c.id, "cause": c.line})))
            .collect::<Vec<_>>(),
        });
        write_json_line(&mut out, &j)?;
    } else {
        let mut t = String::new();
        t.push_str(&format!("a: {}\nb: {}\n", side_line(&a), side_line(&b)));
        if equal {
            t.push_str("same prompt\n");
        } else if let Some(d) = &difference {
            t.push_str(&format!("differ at byte {}", d["byte"]));
            if let Some(tok) = token {
                t.push_str(&format!(" (token {tok})"));
            }
            t.push_str(&format!(
                "\n  a: {}\n  b: {}\n",
                json!(d["a"]),
                json!(d["b"])
            ));
        } else {
            for s in [&a, &b] {
                if s.prompt.is_none() {
                    t.push_str(&match s.result["error"].as_str() {
                        Some(e) => format!("{} fails: {e}\n", s.spec),
                        // a request with no conversation only loads the model
                        None => format!(
                            "{} renders no prompt (the request only loads the model)\n",
                            s.spec
                        ),
                    });
                }
            }
        }
        if !explained.is_empty() || !causes.is_empty() {
            t.push_str("explained by:\n");
            for c in &explained {
                t.push_str(&format!("  {c}\n"));
            }
            for c in &causes {
                t.push_str(&format!("  {}: {}\n", c.id, c.line));
            }
        } else if !equal {
            t.push_str("explained by: no version-specific rule (same version, or the sides differ in how they take the request)\n");
        }
        out.write_all(t.as_bytes())
            .map_err(|e| CliFailure::Usage(format!("cannot write output: {e}")))?;
    }
    out.flush()
        .map_err(|e| CliFailure::Usage(format!("cannot write output: {e}")))?;
    if a.prompt.is_none() && b.prompt.is_none() {
        return Err(CliFailure::Engine);
    }
    Ok(())
}

fn side_line(s: &Side) -> String {
    let mut line = s.spec.to_string();
    if let Spec::Ollama(r) = s.spec {
        if s.result["llamacpp"].is_string() {
            line.push_str(&format!(" (native mode: llama.cpp {})", r.llama_cpp));
        }
    }
    if let Some(p) = &s.prompt {
        line.push_str(&format!(", {} bytes", p.len()));
        if let Some(t) = &s.tokens {
            line.push_str(&format!(", {} tokens", t.len()));
        }
    } else {
        line.push_str(", error");
    }
    line
}
