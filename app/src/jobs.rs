//! What the page asks the engine worker and what it answers. With a GGUF,
//! renders (which tokenize: `num_ctx` truncation, per-message costs,
//! `prompt_eval_count`) and token views run in the `engine-worker` Web
//! Worker, which holds the vocabulary, so that a large vocabulary or a long
//! prompt never blocks the page. Leptos-free, tested natively.
//!
//! Messages in: `{type: "load", file}`, `{type: "run", json}` (a
//! [`Request`]). Out: `{type: "ready"}` (first), `{type: "loaded", json}`
//! (a [`Loaded`]), `{type: "reply", json}` (a [`Reply`]), `{type: "error",
//! message}`.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::engine::{self, Outcome};
use crate::gguf::Gguf;
use crate::state::{Form, State};

/// The most prompt text shown (and tokenized for the token view); the
/// counts always cover the whole prompt.
pub const DISPLAY_LIMIT: usize = 256 * 1024;

/// The shown part of a prompt: at most [`DISPLAY_LIMIT`] bytes, cut at a
/// character boundary.
pub fn displayed(text: &str) -> &str {
    if text.len() <= DISPLAY_LIMIT {
        return text;
    }
    let mut end = DISPLAY_LIMIT;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// The worker's answer to a load.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Loaded {
    /// Why the vocabulary did not load (llama.cpp's log line), if it did not.
    pub vocab_error: Option<String>,
    /// The BOS token's text.
    pub bos: String,
    /// The EOS token's text.
    pub eos: String,
}

impl Loaded {
    /// What a loaded file tells the page.
    pub fn of(gguf: &Gguf) -> Loaded {
        let (bos, eos) = gguf.bos_eos();
        Loaded {
            vocab_error: gguf.vocab().err(),
            bos,
            eos,
        }
    }
}

/// Renders to run: one per state, all with the worker's GGUF.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Request {
    /// Who asked (`main`, `compare`): each slot's latest request counts.
    pub slot: String,
    /// Increases with each request of a slot.
    pub seq: u64,
    /// The date used when a state sets none.
    pub today: String,
    /// The states ([`State::to_json`] exact form).
    pub states: Vec<Value>,
    /// Whether the answers list the shown prompts' tokens (the token view
    /// is open, or Compare diffs tokens); the count is always there.
    pub tokens: bool,
}

impl Request {
    /// A request for `states`.
    pub fn new(slot: &str, seq: u64, today: &str, states: &[&State], tokens: bool) -> Request {
        Request {
            slot: slot.to_string(),
            seq,
            today: today.to_string(),
            states: states.iter().map(|s| s.to_json(Form::Exact)).collect(),
            tokens,
        }
    }
}

/// A prompt's tokens `(id, piece)`, why they could not be had, or nothing
/// (no prompt, no vocabulary).
pub type Tokens = Option<Result<Vec<(u32, String)>, String>>;

/// One render's result and the tokens of its shown prompt.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Answer {
    /// The render, counts included.
    pub outcome: Outcome,
    /// The shown prompt's tokens `(id, piece)`, when there is a prompt and
    /// a vocabulary; or why it could not be tokenized.
    pub tokens: Tokens,
}

/// The worker's answer to a [`Request`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reply {
    /// The request's slot.
    pub slot: String,
    /// The request's sequence number.
    pub seq: u64,
    /// One answer per state, or why the request could not be read.
    pub answers: Result<Vec<Answer>, String>,
}

/// Renders `state` with `gguf` and, when asked, tokenizes the shown prompt.
pub fn answer(gguf: &Gguf, state: &State, today: &str, tokens: bool) -> Answer {
    let outcome = engine::run_with(state, today, Some(gguf));
    let tokens = match &outcome.prompt {
        Some(p) if tokens && gguf.has_vocab() => {
            let bos = outcome.explain.as_ref().and_then(|e| e.leading_bos.clone());
            Some(gguf.tokens(displayed(p), bos.as_deref()))
        }
        _ => None,
    };
    Answer { outcome, tokens }
}

/// The worker's side: runs a request (JSON) and returns the reply.
pub fn run(gguf: &Gguf, request: &str) -> Reply {
    let req: Request = match serde_json::from_str(request) {
        Ok(r) => r,
        Err(e) => {
            return Reply {
                slot: String::new(),
                seq: 0,
                answers: Err(format!("bad request: {e}")),
            }
        }
    };
    let answers = req
        .states
        .iter()
        .map(|v| State::from_json(v).map(|s| answer(gguf, &s, &req.today, req.tokens)))
        .collect();
    Reply {
        slot: req.slot,
        seq: req.seq,
        answers,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reply_is_the_render_the_page_would_do_and_survives_json() {
        let g = crate::gguf::corpus_llama3();
        let a = crate::examples::by_id("llama3").unwrap().state();
        let mut b = a.clone();
        b.request = "{".into();
        let req = Request::new("compare", 7, "2025-06-15", &[&a, &b], true);
        let reply = run(&g, &serde_json::to_string(&req).unwrap());
        let back: Reply = serde_json::from_str(&serde_json::to_string(&reply).unwrap()).unwrap();
        assert_eq!(back, reply);
        assert_eq!((back.slot.as_str(), back.seq), ("compare", 7));
        let answers = back.answers.unwrap();
        assert_eq!(answers.len(), 2);
        let direct = engine::run_with(&a, "2025-06-15", Some(&g));
        assert_eq!(answers[0].outcome, direct);
        let n = direct.token_count.unwrap().unwrap();
        let tokens = answers[0].tokens.clone().unwrap().unwrap();
        assert_eq!(tokens.len(), n);
        assert_eq!(tokens[0], (128000, "<|begin_of_text|>".to_string()));
        // the broken request is an input error, with no tokens
        assert!(answers[1].outcome.input_error.is_some());
        assert_eq!(answers[1].tokens, None);
    }

    #[test]
    fn a_bad_request_gets_a_reply_saying_so() {
        let g = crate::gguf::corpus_llama3();
        let reply = run(&g, "{\"slot\": 1}");
        assert!(reply.answers.unwrap_err().starts_with("bad request: "));
    }

    #[test]
    fn loaded_names_the_special_tokens() {
        let g = crate::gguf::corpus_llama3();
        let l = Loaded::of(&g);
        assert_eq!(l.vocab_error, None);
        assert_eq!(l.bos, "<|begin_of_text|>");
        let m = Gguf::metadata_only("x", g.file);
        assert!(!m.has_vocab());
        assert!(Loaded::of(&m).vocab_error.is_some());
    }

    #[test]
    fn displayed_cuts_at_a_char_boundary() {
        let long = "é".repeat(DISPLAY_LIMIT);
        let d = displayed(&long);
        assert!(d.len() <= DISPLAY_LIMIT && d.len() >= DISPLAY_LIMIT - 1);
        assert_eq!(displayed("abc"), "abc");
    }
}
