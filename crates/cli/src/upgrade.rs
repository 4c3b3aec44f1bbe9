//! `promptscope diff --as ollama@A --as ollama@B --models DIR`: the
//! upgrade check for a whole library. Every model of the store renders a
//! fixed set of standard conversations under both releases; each model
//! gets one line (or, with `--json`, one object): the same prompts, where
//! the first conversation that differs parts (byte, token with the model's
//! GGUF) and the rows of the change tables that explain it, or the error
//! one release gives and the other does not.

use std::io::{self, Write};

use runtime::upgrade::{conversations, model_line, Compared};
use runtime::Spec;
use serde_json::json;

use crate::diff::{render_side, Side};
use crate::{write_json_line, Failure as CliFailure};

/// The CLI's side of one conversation, as the shared check reads it.
fn upgrade_side(s: Side) -> runtime::upgrade::Side {
    runtime::upgrade::Side {
        spec: s.spec,
        error: s.result["error"].as_str().map(str::to_string),
        prompt: s.prompt,
        tokens: s.tokens,
        rules: s.rules,
    }
}

/// Runs the check over every model of `dir`.
pub fn run(specs: [Spec; 2], dir: &str, as_json: bool) -> Result<(), CliFailure> {
    if !specs.iter().all(|s| matches!(s, Spec::Ollama(_))) {
        return Err(CliFailure::Usage(format!(
            "--models compares two Ollama releases (--as ollama@A --as ollama@B), not {} and {}",
            specs[0], specs[1]
        )));
    }
    let opened = crate::store::open(dir).map_err(CliFailure::Usage)?;
    let (models, skipped) =
        store::list::list(&opened.dir).map_err(|e| CliFailure::Usage(e.to_string()))?;
    for s in &skipped {
        let _ = writeln!(io::stderr(), "promptscope: skipped {}: {}", s.path, s.why);
    }
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let write = |out: &mut io::BufWriter<io::StdoutLock>, s: &str| {
        out.write_all(s.as_bytes())
            .map_err(|e| CliFailure::Usage(format!("cannot write output: {e}")))
    };
    if !as_json {
        write(&mut out, &format!("a: {}\nb: {}\n", specs[0], specs[1]))?;
    }
    let today = ollama::date::Date::today_utc().to_string();
    for m in &models {
        let mut compared = Vec::new();
        for (conversation, fields) in conversations() {
            let mut request = fields.clone();
            request["model"] = json!(m.name);
            let case =
                json!({"date": today, "model": {"store": dir, "name": m.name}, "request": request});
            let side = |spec: Spec| -> Side {
                render_side(spec, Spec::Ollama(changes::Release::NEWEST), &case).unwrap_or_else(
                    // the store refuses the model: the same refusal in both
                    |e| Side::failed(spec, e),
                )
            };
            compared.push(Compared {
                name: conversation,
                a: upgrade_side(side(specs[0])),
                b: upgrade_side(side(specs[1])),
            });
        }
        let (_, text, object) = model_line(&m.name, &compared);
        if as_json {
            write_json_line(&mut out, &object)?;
        } else {
            write(&mut out, &format!("{text}\n"))?;
        }
    }
    out.flush()
        .map_err(|e| CliFailure::Usage(format!("cannot write output: {e}")))
}
