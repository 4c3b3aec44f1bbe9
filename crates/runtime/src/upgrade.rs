//! The upgrade check for a whole library: every model renders a fixed set
//! of standard conversations under two Ollama releases, and each model
//! gets one verdict: the same prompts, where the first conversation that
//! differs parts (byte, and token where the model's tokenizer is at hand)
//! and the rows of the change tables that explain it, or the error one
//! release gives and the other does not. The CLI (`promptscope diff
//! --models DIR`) and the app (an opened store folder) render the sides
//! their own way and share this.

use ollama::server::BuildRule;
use serde_json::{json, Value as Json};

use crate::Spec;

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

/// One conversation rendered under one release.
#[derive(Clone, Debug)]
pub struct Side {
    /// The runtime and release.
    pub spec: Spec,
    /// The prompt, when it rendered.
    pub prompt: Option<String>,
    /// The error, when it did not.
    pub error: Option<String>,
    /// The prompt's tokens, where the model's tokenizer was at hand.
    pub tokens: Option<Vec<u32>>,
    /// The rows the render consulted.
    pub rules: Vec<BuildRule>,
}

impl Side {
    /// A side that could not be prepared (the store refuses the model).
    pub fn failed(spec: Spec, error: String) -> Side {
        Side {
            spec,
            prompt: None,
            error: Some(error),
            tokens: None,
            rules: Vec::new(),
        }
    }
}

/// One conversation under both releases.
#[derive(Clone, Debug)]
pub struct Compared {
    /// The conversation's name.
    pub name: &'static str,
    /// Under the first release.
    pub a: Side,
    /// Under the second.
    pub b: Side,
}

impl Compared {
    /// The same prompt, or the same error, on both sides.
    pub fn equal(&self) -> bool {
        self.a.prompt == self.b.prompt && self.a.error == self.b.error
    }

    /// The rows that explain a difference (none when equal).
    pub fn explained_by(&self) -> Vec<&'static changes::Change> {
        if self.equal() {
            return Vec::new();
        }
        crate::diff::explained_by((self.a.spec, &self.a.rules), (self.b.spec, &self.b.rules))
    }

    /// `{"conversation", "equal", "byte", "token", "a_error", "b_error",
    /// "explained_by"}`.
    pub fn json(&self) -> Json {
        let byte = match (&self.a.prompt, &self.b.prompt) {
            (Some(x), Some(y)) => crate::diff::first_byte(x, y),
            _ => None,
        };
        let token = match (&self.a.tokens, &self.b.tokens) {
            (Some(x), Some(y)) if byte.is_some() => crate::diff::first_token(x, y),
            _ => None,
        };
        let rows: Vec<&str> = self.explained_by().into_iter().map(|c| c.id).collect();
        json!({"conversation": self.name, "equal": self.equal(), "byte": byte, "token": token,
               "a_error": self.a.error, "b_error": self.b.error, "explained_by": rows})
    }
}

/// A model's verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every conversation renders the same.
    Same,
    /// A conversation renders differently (or fails differently).
    Differs,
    /// A conversation fails under one release only.
    Error,
}

impl Verdict {
    /// `same`, `differs`, `error`.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Same => "same",
            Verdict::Differs => "differs",
            Verdict::Error => "error",
        }
    }
}

/// One model's verdict, its line of text (`NAME: ...`) and its JSON
/// object (`{"model", "result", "conversations"}`).
pub fn model_line(name: &str, compared: &[Compared]) -> (Verdict, String, Json) {
    let objects: Vec<Json> = compared.iter().map(Compared::json).collect();
    let first = compared.iter().zip(&objects).find(|(c, _)| !c.equal());
    let (verdict, text) = match first {
        None => (
            Verdict::Same,
            format!("same ({} conversations)", compared.len()),
        ),
        Some((c, o)) => match (&c.a.error, &c.b.error) {
            (Some(e), None) => (
                Verdict::Error,
                format!("{}: fails in {}: {e}", c.name, c.a.spec),
            ),
            (None, Some(e)) => (
                Verdict::Error,
                format!("{}: fails in {}: {e}", c.name, c.b.spec),
            ),
            (Some(x), Some(y)) => (
                Verdict::Differs,
                format!(
                    "{}: the errors differ: {} says {x:?}, {} says {y:?}",
                    c.name, c.a.spec, c.b.spec
                ),
            ),
            (None, None) => {
                let mut t = format!("differs in {} at byte {}", c.name, o["byte"]);
                if let Some(tok) = o["token"].as_u64() {
                    t.push_str(&format!(" (token {tok})"));
                }
                let rows: Vec<&str> = c.explained_by().into_iter().map(|r| r.id).collect();
                t.push_str(&match rows.is_empty() {
                    true => ": no version-specific rule".to_string(),
                    false => format!(": {}", rows.join(", ")),
                });
                (Verdict::Differs, t)
            }
        },
    };
    (
        verdict,
        format!("{name}: {text}"),
        json!({"model": name, "result": verdict.as_str(), "conversations": objects}),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn side(spec: Spec, prompt: Option<&str>, error: Option<&str>) -> Side {
        Side {
            spec,
            prompt: prompt.map(str::to_string),
            error: error.map(str::to_string),
            tokens: None,
            rules: Vec::new(),
        }
    }

    #[test]
    fn a_model_is_same_differs_or_errors() {
        let (a, b) = (
            Spec::Ollama(changes::Release::parse("0.32.8").unwrap()),
            Spec::Ollama(changes::Release::NEWEST),
        );
        let same = Compared {
            name: "plain",
            a: side(a, Some("x"), None),
            b: side(b, Some("x"), None),
        };
        let (v, line, _) = model_line("m", std::slice::from_ref(&same));
        assert_eq!(
            (v, line.as_str()),
            (Verdict::Same, "m: same (1 conversations)")
        );
        let differs = Compared {
            name: "system",
            a: side(a, Some("abc"), None),
            b: side(b, Some("abd"), None),
        };
        let (v, line, j) = model_line("m", &[same.clone(), differs]);
        assert_eq!(v, Verdict::Differs);
        assert_eq!(
            line,
            "m: differs in system at byte 2: no version-specific rule"
        );
        assert_eq!(j["conversations"][1]["byte"], 2);
        let fails = Compared {
            name: "tools",
            a: side(a, None, Some("unknown renderer \"x\"")),
            b: side(b, Some("p"), None),
        };
        let (v, line, _) = model_line("m", &[fails]);
        assert_eq!(v, Verdict::Error);
        assert_eq!(
            line,
            "m: tools: fails in ollama@0.32.8: unknown renderer \"x\""
        );
    }
}
