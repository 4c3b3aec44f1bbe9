//! The upgrade check over an opened models folder: every model renders the
//! standard conversations of [`runtime::upgrade`] under two Ollama
//! releases, as `promptscope diff --as ollama@A --as ollama@B --models DIR`
//! does. The prompts come from the page's own engine; a model's GGUF is its
//! metadata only (the chat template and what Ollama reads from it), so a
//! difference is placed by byte, not by token.

use runtime::upgrade::{conversations, model_line, Compared, Side, Verdict};
use runtime::Spec;
use serde_json::{json, Value};
use store::model::StoredModel;

use crate::engine;
use crate::gguf::Gguf;
use crate::modelstore::apply_stored;
use crate::state::{pretty, Endpoint, State};

/// One model's result.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelResult {
    /// The model's name.
    pub name: String,
    /// Same, differs or error.
    pub verdict: Verdict,
    /// The line `promptscope diff --models` prints.
    pub line: String,
    /// The JSON object of its `--json` form.
    pub json: Value,
}

/// The state that renders `conversation` of `stored` under `release`.
fn state_for(
    base: &State,
    name: &str,
    stored: &StoredModel,
    fields: &Value,
    release: changes::Release,
) -> State {
    let mut s = base.clone();
    apply_stored(&mut s.model, stored);
    s.endpoint = Endpoint::Chat;
    let mut request = fields.clone();
    request["model"] = json!(name);
    s.request = pretty(&request);
    s.ollama = if release == changes::Release::NEWEST {
        String::new()
    } else {
        release.tag.to_string()
    };
    s
}

/// What one render gave, as the shared check reads it.
fn side(release: changes::Release, out: engine::Outcome) -> Side {
    let rules = out
        .explain
        .as_ref()
        .map(|e| [&e.build_rules[..], &e.release_rules[..]].concat())
        .unwrap_or_default();
    let error = out
        .error
        .map(|e| e.message)
        .or(out.input_error.map(|e| e.message));
    Side {
        spec: Spec::Ollama(release),
        prompt: out.prompt,
        error,
        tokens: None,
        rules,
    }
}

/// Checks one model: the standard conversations under `a` and `b`.
/// `base` carries what the page adds to every render (its date); the
/// model's fields and the request come from `stored` and the conversation.
pub fn check_model(
    base: &State,
    name: &str,
    stored: &StoredModel,
    gguf: Option<&Gguf>,
    releases: [changes::Release; 2],
    today: &str,
) -> ModelResult {
    let compared: Vec<Compared> = conversations()
        .into_iter()
        .map(|(conversation, fields)| {
            let [a, b] = releases.map(|r| {
                let s = state_for(base, name, stored, &fields, r);
                side(r, engine::run_with(&s, today, gguf))
            });
            Compared {
                name: conversation,
                a,
                b,
            }
        })
        .collect();
    let (verdict, line, json) = model_line(name, &compared);
    ModelResult {
        name: name.to_string(),
        verdict,
        line,
        json,
    }
}

/// A model the folder could not give (its refusal): an error in both.
pub fn refused(name: &str, why: &str) -> ModelResult {
    ModelResult {
        name: name.to_string(),
        verdict: Verdict::Error,
        line: format!("{name}: {why}"),
        json: json!({"model": name, "result": "error", "error": why}),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stored(renderer: &str) -> StoredModel {
        let mut m = StoredModel::default();
        m.config.renderer = renderer.to_string();
        m.config.parser = renderer.to_string();
        m
    }

    fn release(tag: &str) -> changes::Release {
        changes::Release::parse(tag).unwrap()
    }

    #[test]
    fn a_renderer_the_old_release_lacks_is_an_error_in_it() {
        let r = check_model(
            &State::default(),
            "nemotron-3.5:4b",
            &stored("nemotron-3.5-nano"),
            None,
            [release("0.32.8"), changes::Release::NEWEST],
            "2026-12-07",
        );
        assert_eq!(r.verdict, Verdict::Error);
        assert_eq!(
            r.line,
            "nemotron-3.5:4b: plain: fails in ollama@0.32.8: unknown renderer \"nemotron-3.5-nano\""
        );
    }

    #[test]
    fn the_nemotron_template_sync_explains_the_difference() {
        let r = check_model(
            &State::default(),
            "nemotron-3-nano:30b",
            &stored("nemotron-3-nano"),
            None,
            [release("0.32.8"), release("0.32.9")],
            "2026-12-07",
        );
        assert_eq!(r.verdict, Verdict::Differs);
        assert_eq!(
            r.line,
            "nemotron-3-nano:30b: differs in plain at byte 0: nemotron3nano_template_sync"
        );
        // and the same release twice is the same
        let same = check_model(
            &State::default(),
            "nemotron-3-nano:30b",
            &stored("nemotron-3-nano"),
            None,
            [release("0.32.9"), changes::Release::NEWEST],
            "2026-12-07",
        );
        assert_eq!(same.verdict, Verdict::Same, "{}", same.line);
    }
}
