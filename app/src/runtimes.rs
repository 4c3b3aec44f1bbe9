//! The same conversation as another runtime renders it: Hugging Face
//! transformers' `apply_chat_template` (what vLLM, SGLang and MLX-LM render
//! with), beside Ollama's prompt, and what explains where they part.
//!
//! The conversation goes as Ollama's native mode sends it to llama-server
//! (`runtime::llama_server::body_of_ollama_chat`), then as transformers
//! takes that body (`runtime::transformers::request_of_server_body`): the
//! same messages, tools and template arguments. The model is the state's
//! Jinja chat template and BOS/EOS texts, as a `tokenizer_config.json` or a
//! GGUF gives them.

use serde_json::Value;

use crate::state::{Endpoint, State};

pub use runtime::diff::Cause;
pub use runtime::transformers::VERSION as TRANSFORMERS_VERSION;

/// Why there is no transformers render to show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotComparable {
    /// `/api/generate` sends no conversation.
    NeedsChat,
    /// The request is not valid JSON, or not an `/api/chat` body.
    BadRequest,
}

/// A transformers render of the state's conversation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TransformersRender {
    /// The prompt, or the exception as Python prints it.
    pub prompt: Result<String, String>,
    /// The request transformers was given (for Explain and the causes).
    pub request: Value,
}

/// The seconds of `date` (`YYYY-MM-DD`) at 00:00 UTC; 0 when unreadable.
fn midnight(date: &str) -> i64 {
    ollama::date::Date::parse(date)
        .map(|d| ollama::native::NativeTime::from_date(d).unix())
        .unwrap_or(0)
}

/// The state's conversation as transformers 5.25.0 renders it. `today`
/// (`YYYY-MM-DD`) is the clock when the state sets no date.
pub fn transformers(state: &State, today: &str) -> Result<TransformersRender, NotComparable> {
    if state.endpoint != Endpoint::Chat {
        return Err(NotComparable::NeedsChat);
    }
    let request: Value =
        serde_json::from_str(&state.request).map_err(|_| NotComparable::BadRequest)?;
    let system = Some(state.model.system.as_str()).filter(|s| !s.is_empty());
    let body = runtime::llama_server::body_of_ollama_chat(system, &request)
        .map_err(|_| NotComparable::BadRequest)?;
    let request = runtime::transformers::request_of_server_body(&body);
    let m = &state.model;
    let model = runtime::transformers::Model {
        templates: if m.chat_template.is_empty() {
            runtime::transformers::Templates::None
        } else {
            runtime::transformers::Templates::One(m.chat_template.clone())
        },
        special: [("bos_token", &m.bos_token), ("eos_token", &m.eos_token)]
            .into_iter()
            .filter(|(_, t)| !t.is_empty())
            .map(|(k, t)| (k.to_string(), t.clone()))
            .collect(),
    };
    let date = if m.date.is_empty() { today } else { &m.date };
    let prompt = runtime::transformers::render(&model, &request, midnight(date));
    Ok(TransformersRender { prompt, request })
}

/// Where Ollama's prompt `a` and transformers' `b` first part (a byte
/// offset) and the constructs that explain it; `None` when equal.
pub fn first_difference(
    a: &str,
    b: &str,
    render: &TransformersRender,
    state: &State,
) -> Option<(usize, Vec<Cause>)> {
    let at = runtime::diff::first_byte(a, b)?;
    Some((
        at,
        runtime::diff::runtime_causes(a, b, at, &render.request, &state.model.chat_template),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chat(template: &str, request: &str) -> State {
        let mut s = State {
            endpoint: Endpoint::Chat,
            request: request.into(),
            ..State::default()
        };
        s.model.chat_template = template.into();
        s.model.bos_token = "<s>".into();
        s
    }

    #[test]
    fn the_conversation_as_transformers_renders_it() {
        let s = chat(
            "{{ bos_token }}{% for m in messages %}[{{ m.role }}] {{ m.content }}\n{% endfor %}{% if add_generation_prompt %}[assistant]{% endif %}",
            r#"{"model": "m", "messages": [{"role": "user", "content": "hi"}]}"#,
        );
        let r = transformers(&s, "2026-12-01").unwrap();
        assert_eq!(r.prompt.as_deref(), Ok("<s>[user] hi\n[assistant]"));
        // the Ollama prompt that dropped the newline parts at byte 11
        let (at, causes) = first_difference(
            "<s>[user] hi[assistant]",
            r.prompt.as_ref().unwrap(),
            &r,
            &s,
        )
        .unwrap();
        assert_eq!(at, 12);
        assert_eq!(causes[0].id, "engine");
        let mut g = s.clone();
        g.endpoint = Endpoint::Generate;
        assert_eq!(
            transformers(&g, "2026-12-01"),
            Err(NotComparable::NeedsChat)
        );
    }

    #[test]
    fn no_jinja_template_is_transformers_own_error() {
        let s = chat(
            "",
            r#"{"model": "m", "messages": [{"role": "user", "content": "hi"}]}"#,
        );
        let r = transformers(&s, "2026-12-01").unwrap();
        assert!(r
            .prompt
            .unwrap_err()
            .starts_with("ValueError: Cannot use chat template functions"));
    }
}
