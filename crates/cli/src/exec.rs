//! `promptscope exec`: plain Go `text/template`, no Ollama.

use std::io::{self, Write};

use gotmpl::{Template, Value};
use serde_json::{json, Map};

use crate::{parse_json, write_json_line, Failure, Input};

/// The result of one case, as a JSON object carrying its id.
fn run_case(case: &serde_json::Value) -> Result<(serde_json::Value, bool), String> {
    let obj = case.as_object().ok_or("a case must be a JSON object")?;
    let id = obj.get("id").cloned().unwrap_or(serde_json::Value::Null);
    let template = match obj.get("template") {
        Some(serde_json::Value::String(s)) => s.as_str(),
        Some(_) => return Err("\"template\" must be a string".into()),
        None => return Err("missing \"template\"".into()),
    };
    let data = Value::from_json_value(obj.get("data").unwrap_or(&serde_json::Value::Null));
    let mut builder = Template::new("t");
    if let Some(d) = obj.get("delims") {
        let pair = d
            .as_array()
            .filter(|a| a.len() == 2 && a.iter().all(|x| x.is_string()))
            .ok_or("\"delims\" must be two strings")?;
        builder = builder.delims(
            pair[0].as_str().unwrap_or(""),
            pair[1].as_str().unwrap_or(""),
        );
    }
    if let Some(opts) = obj.get("options") {
        let opts = opts
            .as_array()
            .ok_or("\"options\" must be an array of strings")?;
        for o in opts {
            let o = o
                .as_str()
                .ok_or("\"options\" must be an array of strings")?;
            builder = builder.option(o).map_err(|e| e.to_string())?;
        }
    }
    let mut out = Map::new();
    out.insert("id".into(), id);
    let ok = match builder.parse(template) {
        Err(e) => {
            out.insert("error".into(), json!(e.to_string()));
            false
        }
        Ok(t) => match t.execute(&data) {
            Ok(s) => {
                out.insert("output".into(), json!(s));
                true
            }
            Err(e) => {
                out.insert("error".into(), json!(e.to_string()));
                out.insert("partial".into(), json!(e.partial));
                false
            }
        },
    };
    Ok((serde_json::Value::Object(out), ok))
}

/// `promptscope exec [--jsonl] [FILE|-]`.
#[derive(clap::Args)]
pub struct Args {
    /// One case per input line, one result per output line
    #[arg(long)]
    jsonl: bool,
    #[command(flatten)]
    opts: Input,
}

/// Runs `promptscope exec`.
pub fn run(args: Args) -> Result<(), Failure> {
    let opts = &args.opts;
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    if args.jsonl {
        for (n, line) in opts.input_lines()?.enumerate() {
            let line = line.map_err(|e| Failure::Usage(format!("cannot read input: {e}")))?;
            if line.trim().is_empty() {
                continue;
            }
            let result = parse_json(&line, &format!("line {}", n + 1))
                .and_then(|case| run_case(&case).map(|(v, _)| v))
                .unwrap_or_else(|why| json!({"id": null, "invalid": why}));
            write_json_line(&mut out, &result)?;
        }
        out.flush()
            .map_err(|e| Failure::Usage(format!("cannot write output: {e}")))?;
        return Ok(());
    }
    let text = opts.read_input()?;
    let case = parse_json(&text, opts.name()).map_err(Failure::Usage)?;
    let (result, ok) = run_case(&case).map_err(Failure::Usage)?;
    write_json_line(&mut out, &result)?;
    out.flush()
        .map_err(|e| Failure::Usage(format!("cannot write output: {e}")))?;
    if ok {
        Ok(())
    } else {
        Err(Failure::Engine)
    }
}
