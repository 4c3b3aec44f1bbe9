//! What Ollama's llama-server runner does to a rendered prompt before the
//! model sees it (llm/llama_server.go `completionPromptForRequest`): the
//! second truncation stage, after the messages that did not fit `num_ctx`
//! were dropped. A prompt still longer than the context keeps its first
//! `num_keep` tokens (one more when the tokenizer adds BOS) and its tail,
//! and loses the middle, so that about half of the rest of the context is
//! free for the answer; with context shift off it is an error instead.
//!
//! Token lists in, figures out: the caller tokenizes (`/tokenize` with
//! `add_special` on) and evaluates.

/// The error Ollama answers (HTTP 400) when the prompt does not fit and
/// context shift is off.
pub const PROMPT_TOO_LONG: &str = "the prompt is longer than the context length currently available to the model; shorten the prompt, adjust the context length in settings, or use a model with a longer context length";

/// What the runner is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Request {
    /// The prompt's length in bytes (`len(prompt)`, checked before
    /// tokenizing: a prompt shorter than `num_ctx` bytes is never cut).
    pub prompt_bytes: usize,
    /// The prompt's tokens (`/tokenize`, `add_special` on).
    pub tokens: usize,
    /// The runner's context length (`num_ctx`).
    pub num_ctx: i64,
    /// The request's `num_keep` (negative: keep everything).
    pub num_keep: i64,
    /// Whether the tokenizer adds BOS (`tokenizerAddsBOS`): one more token kept.
    pub adds_bos: bool,
    /// The request's `truncate` (absent = true).
    pub truncate: bool,
    /// Whether the request carries images or other media (never cut).
    pub has_media: bool,
    /// Context shift (`shift`, else on unless the model is deepseek2).
    pub context_shift: bool,
}

/// A cut: tokens `[keep, keep + discarded)` are dropped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Cut {
    /// Tokens kept at the front.
    pub keep: usize,
    /// Tokens dropped after them.
    pub discarded: usize,
    /// The prompt's length after the cut (`contextShiftPromptLimit`).
    pub limit: usize,
}

/// `completionPromptForRequest`: `Ok(None)` when the prompt goes to the
/// model whole, `Ok(Some(cut))` when its middle is dropped, and
/// `Err(PROMPT_TOO_LONG)` when it does not fit and context shift is off.
pub fn cut(r: &Request) -> Result<Option<Cut>, &'static str> {
    if !r.truncate || r.has_media || r.num_ctx <= 1 || (r.prompt_bytes as i64) < r.num_ctx {
        return Ok(None);
    }
    let full = r.num_ctx - 1;
    if r.tokens as i64 <= full {
        return Ok(None);
    }
    if !r.context_shift {
        return Err(PROMPT_TOO_LONG);
    }
    let mut keep = if r.num_keep < 0 {
        r.tokens as i64
    } else {
        r.num_keep
    };
    if r.adds_bos {
        keep += 1;
    }
    let keep = keep.min(full);
    let limit = context_shift_prompt_limit(r.num_ctx, keep);
    Ok(Some(Cut {
        keep: keep as usize,
        discarded: r.tokens - limit as usize,
        limit: limit as usize,
    }))
}

/// `contextShiftPromptLimit`: keep `num_keep` (clamped to `[0, num_ctx -
/// 1]`), then free about half of the rest of the context.
pub fn context_shift_prompt_limit(num_ctx: i64, num_keep: i64) -> i64 {
    if num_ctx <= 1 {
        return 0;
    }
    let num_keep = num_keep.min(num_ctx - 1).max(0);
    num_ctx - ((num_ctx - num_keep) / 2).max(1)
}

/// Context shift as the scheduler resolves it (`resolveContextShift`):
/// the request's `shift` when given, else on unless the model's family is
/// `deepseek2`.
pub fn context_shift(shift: Option<bool>, families: &[&str]) -> bool {
    shift.unwrap_or(!families.contains(&"deepseek2"))
}

/// The runner's stage for one request, as Promptscope shows it: the
/// options in effect and what happens to the prompt's tokens.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Figures {
    /// `num_ctx` as the runner has it ([`runner_context`] of the request's
    /// option, else Ollama's 4096).
    pub num_ctx: i64,
    /// `num_keep` (the request's option, else Ollama's 4).
    pub num_keep: i64,
    /// Context shift as resolved for the request and model.
    pub context_shift: bool,
    /// The prompt's tokens before the cut.
    pub tokens: usize,
    /// The cut, when the prompt is too long and context shift is on.
    pub cut: Option<Cut>,
    /// Ollama's error, when the prompt is too long and context shift is off.
    pub error: Option<String>,
}

impl Figures {
    /// The tokens llama-server evaluates (`prompt_n` without a cache).
    pub fn evaluated(&self) -> usize {
        self.cut.map_or(self.tokens, |c| c.limit)
    }
}

/// What of the model bounds the runner's context.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ModelContext {
    /// The model has the vision capability.
    pub vision: bool,
    /// Its training context (`<arch>.context_length`), if known.
    pub train_ctx: Option<u64>,
}

/// The runner's context for a requested `num_ctx`: at least 4, at least
/// 2048 for a model with vision (server/sched.go `getRunner`), then at
/// most the model's training context (llm/server.go `NewLlamaServer`).
pub fn runner_context(requested: i64, vision: bool, train_ctx: Option<u64>) -> i64 {
    let mut n = requested.max(4);
    if vision {
        n = n.max(2048);
    }
    match train_ctx {
        Some(t) if t > 0 && n > t as i64 => t as i64,
        _ => n,
    }
}

/// [`cut`] for a request body (its `options.num_ctx`, `options.num_keep`,
/// `truncate` and `shift`), a model of `family`, and the prompt as sent to
/// llama-server (`completion`, after Ollama's leading-BOS rule) of `tokens`
/// tokens.
pub fn for_request(
    request: &serde_json::Value,
    family: &str,
    completion: &str,
    tokens: usize,
    adds_bos: bool,
    has_media: bool,
    model: ModelContext,
) -> Figures {
    let mut f = in_effect(request, family, model, tokens);
    let r = Request {
        prompt_bytes: completion.len(),
        tokens,
        num_ctx: f.num_ctx,
        num_keep: f.num_keep,
        adds_bos,
        truncate: request["truncate"].as_bool() != Some(false),
        has_media,
        context_shift: f.context_shift,
    };
    match cut(&r) {
        Ok(c) => f.cut = c,
        Err(e) => f.error = Some(e.to_string()),
    }
    f
}

/// The runner's options in effect for a request, nothing cut yet.
fn in_effect(
    request: &serde_json::Value,
    family: &str,
    model: ModelContext,
    tokens: usize,
) -> Figures {
    let option = |k: &str| {
        request["options"]
            .get(k)
            .and_then(serde_json::Value::as_f64)
    };
    let requested = option("num_ctx").filter(|n| *n > 0.0).unwrap_or(4096.0) as i64;
    Figures {
        num_ctx: runner_context(requested, model.vision, model.train_ctx),
        num_keep: option("num_keep").unwrap_or(4.0) as i64,
        context_shift: context_shift(request["shift"].as_bool(), &[family]),
        tokens,
        cut: None,
        error: None,
    }
}

/// llama-server's answer (HTTP 400) to a chat whose prompt of `tokens`
/// tokens does not fit its context of `num_ctx`: Ollama passes the body on
/// as its error (llm/llama_server.go `Chat`, `statusErrorMessage`).
pub fn native_too_long(tokens: usize, num_ctx: i64) -> String {
    format!(
        r#"{{"error":{{"code":400,"message":"request ({tokens} tokens) exceeds the available context size ({num_ctx} tokens), try increasing it","type":"exceed_context_size_error","n_prompt_tokens":{tokens},"n_ctx":{num_ctx}}}}}"#
    )
}

/// The runner's stage in native mode: Ollama sends the messages to
/// llama-server's `/v1/chat/completions` and cuts nothing
/// (`completionPromptForRequest` is not on that path); llama-server
/// refuses a prompt as long as its slot's context or longer: `num_ctx`
/// rounded up to a multiple of 256 (src/llama-context.cpp pads `n_ctx`;
/// one slot).
pub fn native(request: &serde_json::Value, tokens: usize, model: ModelContext) -> Figures {
    let mut f = in_effect(request, "", model, tokens);
    let slot = native_slot_context(f.num_ctx);
    if tokens as i64 >= slot {
        f.error = Some(native_too_long(tokens, slot));
    }
    f
}

/// llama-server's slot context for Ollama's `-c num_ctx -np 1`.
pub fn native_slot_context(num_ctx: i64) -> i64 {
    (num_ctx.max(1) + 255) / 256 * 256
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_runners_context_has_ollamas_floors_and_cap() {
        assert_eq!(runner_context(2, false, None), 4);
        assert_eq!(runner_context(512, true, None), 2048);
        assert_eq!(runner_context(512, true, Some(1024)), 1024);
        assert_eq!(runner_context(100_000, false, Some(8192)), 8192);
        assert_eq!(runner_context(4096, false, Some(0)), 4096);
        let f = for_request(
            &serde_json::json!({"options": {"num_ctx": 2}}),
            "llama",
            "",
            1,
            false,
            false,
            ModelContext::default(),
        );
        assert_eq!(f.num_ctx, 4);
    }

    /// llm/llama_server_test.go TestContextShiftPromptLimit.
    #[test]
    fn context_shift_prompt_limit_cases() {
        for (name, num_ctx, num_keep, want) in [
            ("small context reserves half after keep", 8, 3, 6),
            (
                "issue 16618 context preserves generation headroom",
                4096,
                4,
                2050,
            ),
            ("issue 16618 with implicit BOS keep", 4096, 5, 2051),
            ("keep is clamped below context", 8, 99, 7),
            ("negative keep is treated as zero", 8, -1, 4),
            ("invalid context has no prompt budget", 1, 0, 0),
        ] {
            assert_eq!(
                context_shift_prompt_limit(num_ctx, num_keep),
                want,
                "{name}"
            );
        }
    }

    fn request(prompt: &str, tokens: usize, num_ctx: i64, num_keep: i64) -> Request {
        Request {
            prompt_bytes: prompt.len(),
            tokens,
            num_ctx,
            num_keep,
            adds_bos: false,
            truncate: true,
            has_media: false,
            context_shift: true,
        }
    }

    /// The runner cases of llm/llama_server_test.go, on the token counts the
    /// fake `/tokenize` answers.
    #[test]
    fn completion_prompt_for_request_cases() {
        let long = "long prompt ".repeat(2);
        // TestLlamaServerCompletionRejectsPromptOverContext: 10 tokens, num_ctx 8, no shift.
        let mut r = request(&long, 10, 8, 3);
        r.context_shift = false;
        assert_eq!(cut(&r), Err(PROMPT_TOO_LONG));
        // ...AllowsPromptWithHeadroom: 7 tokens fit num_ctx - 1.
        assert_eq!(cut(&request(&long, 7, 8, 3)), Ok(None));
        // ...TruncatesPromptOverContext: 10 tokens -> [0 1 2] + [7 8 9].
        let c = cut(&request(&long, 10, 8, 3)).unwrap().unwrap();
        assert_eq!(
            c,
            Cut {
                keep: 3,
                discarded: 4,
                limit: 6
            }
        );
        let ids: Vec<usize> = (0..10).collect();
        let kept: Vec<usize> = [&ids[..c.keep], &ids[c.keep + c.discarded..]].concat();
        assert_eq!(kept, [0, 1, 2, 7, 8, 9]);
        // ...AvoidsOneTokenHeadroomRegression: 5000 tokens at 4096, keep 4 + BOS.
        let mut r = request(&"long prompt ".repeat(500), 5000, 4096, 4);
        r.adds_bos = true;
        let c = cut(&r).unwrap().unwrap();
        assert_eq!((c.limit, c.keep), (2051, 5));
        assert_eq!(c.keep + c.discarded, 2954, "first shifted token");
    }

    #[test]
    fn what_is_never_cut() {
        // shorter in bytes than num_ctx: not even tokenized
        assert_eq!(cut(&request("hi", 50, 8, 3)), Ok(None));
        let long = "x".repeat(100);
        let mut r = request(&long, 50, 8, 3);
        r.truncate = false;
        assert_eq!(cut(&r), Ok(None));
        r.truncate = true;
        r.has_media = true;
        assert_eq!(cut(&r), Ok(None));
        assert_eq!(cut(&request(&long, 50, 1, 3)), Ok(None));
        // num_keep -1 keeps everything it can: num_ctx - 1, then the limit
        let c = cut(&request(&long, 50, 8, -1)).unwrap().unwrap();
        assert_eq!(
            c,
            Cut {
                keep: 7,
                discarded: 43,
                limit: 7
            }
        );
    }

    #[test]
    fn figures_from_a_request_body() {
        let long = "x".repeat(100);
        let req = serde_json::json!({"options": {"num_ctx": 8, "num_keep": 3}});
        let f = for_request(
            &req,
            "llama",
            &long,
            10,
            false,
            false,
            ModelContext::default(),
        );
        assert_eq!((f.num_ctx, f.num_keep, f.context_shift), (8, 3, true));
        assert_eq!(
            f.cut,
            Some(Cut {
                keep: 3,
                discarded: 4,
                limit: 6
            })
        );
        assert_eq!(f.evaluated(), 6);
        let f = for_request(
            &req,
            "deepseek2",
            &long,
            10,
            false,
            false,
            ModelContext::default(),
        );
        assert_eq!((f.cut, f.error.as_deref()), (None, Some(PROMPT_TOO_LONG)));
        assert_eq!(f.evaluated(), 10);
        let f = for_request(
            &serde_json::json!({}),
            "llama",
            &long,
            10,
            true,
            false,
            ModelContext::default(),
        );
        assert_eq!((f.num_ctx, f.num_keep, f.cut), (4096, 4, None));
    }

    #[test]
    fn context_shift_defaults() {
        assert!(context_shift(None, &["llama"]));
        assert!(!context_shift(None, &["deepseek2"]));
        assert!(context_shift(Some(true), &["deepseek2"]));
        assert!(!context_shift(Some(false), &[]));
    }
}
