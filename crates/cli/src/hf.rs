//! A `"runtime": "transformers"` case (contract v3): the model's chat
//! template(s) and special tokens, the clock, and the
//! `apply_chat_template` request; rendered by `runtime::transformers`.

use std::io::{self, Write};

use runtime::transformers::{Model, Templates};
use serde_json::{json, Value as Json};

use crate::{write_json_line, Failure as CliFailure};

/// What `apply_chat_template` is given.
pub(crate) struct TransformersCase {
    model: Model,
    now: i64,
    /// `model.tokenizer`: a `tokenizer.json` for the token count.
    tokenizer: Option<hftokenizer::HfTokenizer>,
    /// The request: `messages`, `tools`, `documents`,
    /// `add_generation_prompt`, `continue_final_message`,
    /// `chat_template_kwargs`.
    pub request: Json,
}

impl TransformersCase {
    /// The case's `model` (`chat_template` as a string, named templates or
    /// a map; the special tokens; `tokenizer_config`; or `gguf`, whose
    /// `tokenizer.chat_template` and BOS/EOS texts stand for the tokenizer
    /// transformers' GGUF loader builds), `date` (the clock `strftime_now`
    /// reads; absent = now) and `request`.
    pub(crate) fn from_json(v: &Json) -> Result<TransformersCase, String> {
        let m = v.get("model").cloned().unwrap_or(Json::Null);
        if !m.is_object() {
            return Err("model must be an object".into());
        }
        let mut model = Model::from_case(&m)?;
        if let Some(p) = m.get("gguf").and_then(Json::as_str) {
            let g = crate::render::load_gguf(p)?;
            if matches!(model.templates, Templates::None) {
                if let Some(t) = g.file.get_str("tokenizer.chat_template") {
                    model.templates = Templates::One(t.to_string());
                }
            }
            for (k, t) in [
                ("bos_token", g.vocab.bos_text()),
                ("eos_token", g.vocab.eos_text()),
            ] {
                if let Some(t) = t {
                    if !model.special.iter().any(|(n, _)| n == k) {
                        model.special.push((k.to_string(), t));
                    }
                }
            }
            let order = |k: &str| {
                runtime::transformers::SPECIAL_TOKENS
                    .iter()
                    .position(|s| *s == k)
            };
            model.special.sort_by_key(|(k, _)| order(k));
        }
        let now = crate::render::case_clock(v)?;
        let tokenizer = match m.get("tokenizer") {
            None | Some(Json::Null) => None,
            Some(Json::String(p)) => {
                let bytes = std::fs::read(p).map_err(|e| format!("cannot read {p}: {e}"))?;
                Some(
                    hftokenizer::HfTokenizer::from_json(&bytes)
                        .map_err(|e| format!("model.tokenizer {p}: {e}"))?,
                )
            }
            Some(_) => return Err("model.tokenizer must be a path to a tokenizer.json".into()),
        };
        let request = v.get("request").cloned().unwrap_or(Json::Null);
        if !request.is_object() {
            return Err(
                "request must be an object: apply_chat_template's arguments (messages, tools, ...)"
                    .into(),
            );
        }
        Ok(TransformersCase {
            model,
            now,
            tokenizer,
            request,
        })
    }

    /// `apply_chat_template(tokenize=False)`.
    pub(crate) fn render(&self) -> runtime::transformers::Rendered {
        runtime::transformers::render(&self.model, &self.request, self.now)
    }

    /// The prompt's ids as `apply_chat_template(tokenize=True)` gives them
    /// (the rendered text encoded without special tokens), with a
    /// tokenizer.
    pub(crate) fn tokens(&self, prompt: &str) -> Option<Result<Vec<u32>, String>> {
        let t = self.tokenizer.as_ref()?;
        Some(t.encode(prompt, false).map_err(|e| e.0))
    }

    /// A result's `--json` object: the runtime keys, the prompt or the
    /// exception, and the token count with a tokenizer.
    pub(crate) fn result_json(&self, result: &runtime::transformers::Rendered) -> Json {
        let mut j =
            json!({"runtime": "transformers", "transformers": runtime::transformers::VERSION});
        match result {
            Ok(p) => {
                j["prompt"] = json!(p);
                match self.tokens(p) {
                    Some(Ok(t)) => j["prompt_tokens"] = json!(t.len()),
                    Some(Err(e)) => j["prompt_tokens_error"] = json!(e),
                    None => {}
                }
            }
            Err(e) => j["error"] = json!(e),
        }
        j
    }
}

/// `promptscope render` of a transformers case: the prompt, or the
/// exception on standard error (exit 1).
pub(crate) fn run_render(v: &Json, as_json: bool, out: &mut impl Write) -> Result<(), CliFailure> {
    let case = TransformersCase::from_json(v).map_err(CliFailure::Usage)?;
    let result = case.render();
    if as_json {
        write_json_line(out, &case.result_json(&result))?;
    } else {
        match &result {
            Ok(p) => out
                .write_all(p.as_bytes())
                .map_err(|e| CliFailure::Usage(format!("cannot write output: {e}")))?,
            Err(e) => {
                let _ = writeln!(io::stderr(), "{e}");
            }
        }
    }
    out.flush()
        .map_err(|e| CliFailure::Usage(format!("cannot write output: {e}")))?;
    result.map(|_| ()).map_err(|_| CliFailure::Engine)
}
