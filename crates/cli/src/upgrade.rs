//! `promptscope diff --as ollama@A --as ollama@B --models DIR`: the
//! upgrade check for a whole library. Every model of the store renders a
//! fixed set of standard conversations under both releases; each model
//! gets one line (or, with `--json`, one object): the same prompts, where
//! the first conversation that differs parts (byte, token with the model's
//! GGUF) and the rows of the change tables that explain it, or the error
//! one release gives and the other does not.

use std::io::{self, Write};

use runtime::Spec;
use serde_json::{json, Value as Json};

use crate::diff::{render_side, Side};
use crate::{write_json_line, Failure as CliFailure};

/// The standard conversations: (name, request fields beside `model`).
pub fn conversations() -> Vec<(&'static str, Json)> {
    let user = |t: &str| json!({"role": "user", "content": t});
    let weather = json!([{"type": "function", "function": {
        "name": "get_weather", "description": "Get the current weather for a city",
        "parameters": {"type": "object", "required": ["city"],
            "properties": {"city": {"type": "string", "description": "The city"}}}}}]);
    vec![
        ("plain", json!({"messages": [user("Hello!")]})),
        (
            "system",
            json!({"messages": [
                {"role": "system", "content": "You are a helpful assistant."},
                user("Hello!")]}),
        ),
        (
            "multi-turn",
            json!({"messages": [user("Hello!"),
                {"role": "assistant", "content": "Hi! How can I help?"},
                user("What is 2 + 2?")]}),
        ),
        (
            "tools",
            json!({"tools": weather, "messages": [user("What is the weather in Paris?"),
                {"role": "assistant", "content": "", "tool_calls": [{"function":
                    {"name": "get_weather", "arguments": {"city": "Paris"}}}]},
                {"role": "tool", "content": "{\"temp\": 20}", "tool_name": "get_weather"},
                user("And in Berlin?")]}),
        ),
        (
            "thinking",
            json!({"think": true, "messages": [user("Why is the sky blue?")]}),
        ),
    ]
}

/// One conversation under both releases.
struct Compared {
    name: &'static str,
    a: Side,
    b: Side,
}

impl Compared {
    fn error(s: &Side) -> Option<String> {
        s.result["error"].as_str().map(str::to_string)
    }

    /// The same prompt, or the same error, on both sides.
    fn equal(&self) -> bool {
        self.a.prompt == self.b.prompt && Compared::error(&self.a) == Compared::error(&self.b)
    }

    fn json(&self) -> Json {
        let byte = match (&self.a.prompt, &self.b.prompt) {
            (Some(x), Some(y)) => runtime::diff::first_byte(x, y),
            _ => None,
        };
        let token = match (&self.a.tokens, &self.b.tokens) {
            (Some(x), Some(y)) if byte.is_some() => runtime::diff::first_token(x, y),
            _ => None,
        };
        let rows: Vec<&str> = if self.equal() {
            Vec::new()
        } else {
            runtime::diff::explained_by((self.a.spec, &self.a.rules), (self.b.spec, &self.b.rules))
                .into_iter()
                .map(|c| c.id)
                .collect()
        };
        json!({"conversation": self.name, "equal": self.equal(), "byte": byte, "token": token,
               "a_error": Compared::error(&self.a), "b_error": Compared::error(&self.b),
               "explained_by": rows})
    }
}

/// One model's line.
fn line(name: &str, specs: [Spec; 2], compared: &[Compared]) -> (String, Json) {
    let objects: Vec<Json> = compared.iter().map(Compared::json).collect();
    let first = compared.iter().zip(&objects).find(|(c, _)| !c.equal());
    let (verdict, text) = match first {
        None => ("same", format!("same ({} conversations)", compared.len())),
        Some((c, o)) => match (Compared::error(&c.a), Compared::error(&c.b)) {
            (Some(e), None) => ("error", format!("{}: fails in {}: {e}", c.name, specs[0])),
            (None, Some(e)) => ("error", format!("{}: fails in {}: {e}", c.name, specs[1])),
            (Some(x), Some(y)) => (
                "differs",
                format!(
                    "{}: the errors differ: {} says {x:?}, {} says {y:?}",
                    c.name, specs[0], specs[1]
                ),
            ),
            (None, None) => {
                let mut t = format!("differs in {} at byte {}", c.name, o["byte"]);
                if let Some(tok) = o["token"].as_u64() {
                    t.push_str(&format!(" (token {tok})"));
                }
                let rows: Vec<&str> = o["explained_by"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Json::as_str)
                    .collect();
                t.push_str(&match rows.is_empty() {
                    true => ": no version-specific rule".to_string(),
                    false => format!(": {}", rows.join(", ")),
                });
                ("differs", t)
            }
        },
    };
    (
        format!("{name}: {text}"),
        json!({"model": name, "result": verdict, "conversations": objects}),
    )
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
                a: side(specs[0]),
                b: side(specs[1]),
            });
        }
        let (text, object) = line(&m.name, specs, &compared);
        if as_json {
            write_json_line(&mut out, &object)?;
        } else {
            write(&mut out, &format!("{text}\n"))?;
        }
    }
    out.flush()
        .map_err(|e| CliFailure::Usage(format!("cannot write output: {e}")))
}
