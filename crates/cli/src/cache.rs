//! `promptscope cache`: what llama-server reuses from its KV cache, turn by
//! turn (`ollama::cache`).

use std::io::{self, Write};

use ollama::case::RenderCase;
use serde_json::{json, Value as Json};

use crate::render::{turn_json, Gguf};
use crate::{parse_json, write_json_line, Failure, Input};

/// `promptscope cache [--gguf FILE] [--texts] [FILE|-]`.
#[derive(clap::Args)]
pub struct Args {
    /// The model's GGUF, for cases that name none in `model.gguf`
    #[arg(long, value_name = "FILE")]
    gguf: Option<String>,
    /// Add the previous prompt, the reply as assumed and the new prompt (as
    /// sent to llama-server) to each line
    #[arg(long)]
    texts: bool,
    #[command(flatten)]
    opts: Input,
}

/// Runs `promptscope cache`: one chat case per input line; one line per
/// turn (each assistant message followed by more messages) with the
/// case's id, the turn's number and its figures, or the error.
pub fn run(args: Args) -> Result<(), Failure> {
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let mut loaded: Option<(String, Gguf)> = None;
    for (n, line) in args.opts.input_lines()?.enumerate() {
        let line = line.map_err(|e| Failure::Usage(format!("cannot read input: {e}")))?;
        if line.trim().is_empty() {
            continue;
        }
        let at = format!("line {}", n + 1);
        let mut v = parse_json(&line, &at).map_err(Failure::Usage)?;
        crate::not_transformers(&v, "the KV cache and its reuse")
            .map_err(|e| Failure::Usage(format!("{at}: {e}")))?;
        crate::resolve_modelfile(&mut v).map_err(|e| Failure::Usage(format!("{at}: {e}")))?;
        let mut case =
            RenderCase::from_json(&v).map_err(|e| Failure::Usage(format!("{at}: {e}")))?;
        let path = v["model"]["gguf"]
            .as_str()
            .map(str::to_string)
            .or_else(|| args.gguf.clone())
            .ok_or_else(|| Failure::Usage(format!("{at}: no GGUF: give model.gguf or --gguf")))?;
        if loaded.as_ref().is_none_or(|(p, _)| *p != path) {
            loaded = Some((
                path.clone(),
                crate::render::load_gguf(&path).map_err(Failure::Usage)?,
            ));
        }
        let g = &loaded.as_ref().expect("loaded above").1;
        g.apply(&mut case);
        for (k, (reply, end)) in ollama::cache::turns(&case).into_iter().enumerate() {
            let mut o = match ollama::cache::turn(&case, reply, end, g) {
                Ok(t) => {
                    let mut o = turn_json(&t);
                    if args.texts {
                        o["previous_prompt"] = json!(t.previous_prompt);
                        o["reply_text"] = json!(t.reply_text);
                        o["prompt"] = json!(t.prompt);
                    }
                    o
                }
                Err(e) => json!({"reply": reply, "messages": end, "error": e}),
            };
            o["id"] = case.id.clone();
            o["turn"] = json!(k + 1);
            write_json_line(&mut out, &reorder(o))?;
        }
    }
    out.flush()
        .map_err(|e| Failure::Usage(format!("cannot write output: {e}")))
}

/// `id` and `turn` first.
fn reorder(o: Json) -> Json {
    let Json::Object(mut m) = o else { return o };
    let mut r = serde_json::Map::new();
    for k in ["id", "turn"] {
        if let Some(v) = m.remove(k) {
            r.insert(k.into(), v);
        }
    }
    r.extend(m);
    Json::Object(r)
}
