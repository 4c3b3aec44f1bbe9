//! `promptscope render`: a render case to the exact prompt Ollama builds.

use std::io::{self, Write};

use ollama::case::RenderCase;
use ollama::server::{Explain, Failure, Rendered};
use serde_json::{json, Map, Value as Json};

use crate::{parse_json, write_json_line, Failure as CliFailure, Opts};

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

/// Runs `promptscope render`.
pub fn run(args: &[String]) -> Result<(), CliFailure> {
    let opts = Opts::parse(args, &["--json", "--jsonl"])?;
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let flush = |out: &mut io::BufWriter<io::StdoutLock>| {
        out.flush()
            .map_err(|e| CliFailure::Usage(format!("cannot write output: {e}")))
    };
    if opts.has("--jsonl") {
        for (n, line) in opts.input_lines()?.enumerate() {
            let line = line.map_err(|e| CliFailure::Usage(format!("cannot read input: {e}")))?;
            if line.trim().is_empty() {
                continue;
            }
            let result = parse_json(&line, &format!("line {}", n + 1))
                .and_then(|v| RenderCase::from_json(&v))
                .map(|case| {
                    let mut o = Map::new();
                    o.insert("id".into(), case.id.clone());
                    match case.render(None) {
                        Ok(r) => o.insert("prompt".into(), json!(r.prompt)),
                        Err(f) => o.insert("error".into(), json!(f.message)),
                    };
                    Json::Object(o)
                })
                .unwrap_or_else(|why| json!({"id": null, "invalid": why}));
            write_json_line(&mut out, &result)?;
        }
        return flush(&mut out);
    }
    let text = opts.read_input()?;
    let v = parse_json(&text, opts.input.as_deref().unwrap_or("standard input"))
        .map_err(CliFailure::Usage)?;
    let case = RenderCase::from_json(&v).map_err(CliFailure::Usage)?;
    let result = case.render(None);
    if opts.has("--json") {
        write_json_line(&mut out, &result_json(&result))?;
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
