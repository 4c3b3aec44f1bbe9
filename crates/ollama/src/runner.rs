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

/// The error of v0.30.9-rc1 (`prompt_over_context_400` without
/// `context_shift_truncation`), where every prompt too long is refused.
pub const PROMPT_TOO_LONG_0_30_9_RC1: &str = "the prompt is longer than the context length currently available to the model; shorten the prompt or adjust the context length in settings";

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
    /// The Ollama release (`context_shift_generation_headroom`).
    pub release: changes::Release,
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
    cut_in(r, &changes::Rules::of_release(r.release))
}

/// [`cut`], noting in `rules` the release rows it consulted.
pub fn cut_in(r: &Request, rules: &changes::Rules) -> Result<Option<Cut>, &'static str> {
    if !r.truncate || r.has_media || r.num_ctx <= 1 || (r.prompt_bytes as i64) < r.num_ctx {
        return Ok(None);
    }
    let full = r.num_ctx - 1;
    if r.tokens as i64 <= full {
        return Ok(None);
    }
    if !rules.on(&changes::ollama::PROMPT_OVER_CONTEXT_400) {
        // cut to num_ctx - 1 whatever context shift is
        let keep = if r.num_keep < 0 {
            r.tokens as i64
        } else {
            r.num_keep
        }
        .min(full);
        return Ok(Some(Cut {
            keep: keep as usize,
            discarded: r.tokens - full as usize,
            limit: full as usize,
        }));
    }
    if !rules.on(&changes::ollama::CONTEXT_SHIFT_TRUNCATION) {
        return Err(PROMPT_TOO_LONG_0_30_9_RC1);
    }
    if !r.context_shift {
        return Err(PROMPT_TOO_LONG);
    }
    let mut keep = if r.num_keep < 0 {
        r.tokens as i64
    } else {
        r.num_keep
    };
    let headroom = rules.on(&changes::ollama::CONTEXT_SHIFT_GENERATION_HEADROOM);
    if r.adds_bos && headroom {
        keep += 1;
    }
    let keep = keep.min(full);
    let limit = if headroom {
        context_shift_prompt_limit(r.num_ctx, keep)
    } else {
        full
    };
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
    let rules = changes::Rules::of_release(changes::Release::NEWEST);
    context_shift_in(shift, families, 4096, &rules)
}

/// [`context_shift`] as the release of `rules` resolves it for a runner of
/// `num_ctx` (`resolveContextShift`): before `context_shift_default_on`,
/// on only below 8192, and before `context_shift_off_deepseek2` on for
/// deepseek2 too.
pub fn context_shift_in(
    shift: Option<bool>,
    families: &[&str],
    num_ctx: i64,
    rules: &changes::Rules,
) -> bool {
    if let Some(s) = shift {
        return s;
    }
    if !rules.on(&changes::ollama::CONTEXT_SHIFT_DEFAULT_ON) {
        return num_ctx > 0 && num_ctx < 8192;
    }
    !(families.contains(&"deepseek2") && rules.on(&changes::ollama::CONTEXT_SHIFT_OFF_DEEPSEEK2))
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
    /// The rows of the release's table the cut consulted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub release_rules: Vec<crate::server::BuildRule>,
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
/// tokens, as `release` cuts it.
#[allow(clippy::too_many_arguments)]
pub fn for_request(
    request: &serde_json::Value,
    family: &str,
    completion: &str,
    tokens: usize,
    adds_bos: bool,
    has_media: bool,
    model: ModelContext,
    release: changes::Release,
) -> Figures {
    let rules = changes::Rules::of_release(release);
    let mut f = in_effect(request, family, model, tokens, &rules);
    let r = Request {
        prompt_bytes: completion.len(),
        tokens,
        num_ctx: f.num_ctx,
        num_keep: f.num_keep,
        adds_bos,
        truncate: request["truncate"].as_bool() != Some(false),
        has_media,
        context_shift: f.context_shift,
        release,
    };
    match cut_in(&r, &rules) {
        Ok(c) => f.cut = c,
        Err(e) => f.error = Some(e.to_string()),
    }
    f.release_rules = rules
        .applied()
        .into_iter()
        .map(|c| crate::server::BuildRule::of(c, &rules))
        .collect();
    f
}

/// The runner's options in effect for a request, nothing cut yet.
fn in_effect(
    request: &serde_json::Value,
    family: &str,
    model: ModelContext,
    tokens: usize,
    rules: &changes::Rules,
) -> Figures {
    let option = |k: &str| {
        request["options"]
            .get(k)
            .and_then(serde_json::Value::as_f64)
    };
    let requested = option("num_ctx").filter(|n| *n > 0.0).unwrap_or(4096.0) as i64;
    let num_ctx = runner_context(requested, model.vision, model.train_ctx);
    Figures {
        num_ctx,
        num_keep: option("num_keep").unwrap_or(4.0) as i64,
        context_shift: context_shift_in(request["shift"].as_bool(), &[family], num_ctx, rules),
        tokens,
        cut: None,
        error: None,
        release_rules: Vec::new(),
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
pub fn native(
    request: &serde_json::Value,
    tokens: usize,
    model: ModelContext,
    release: changes::Release,
) -> Figures {
    let rules = changes::Rules::of_release(release);
    let mut f = in_effect(request, "", model, tokens, &rules);
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
            changes::Release::NEWEST,
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
            release: changes::Release::NEWEST,
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

    /// The same cases before `context_shift_generation_headroom`: v0.30.10's
    /// TestLlamaServerCompletionContextShiftTruncatesPromptOverContext
    /// (10 tokens at num_ctx 8, num_keep 3 -> [0 1 2 6 7 8 9]), and the
    /// 16618 case, where the tokenizer's BOS is not kept on top.
    #[test]
    fn completion_prompt_before_the_headroom() {
        let old = changes::Release::parse("0.30.10").unwrap();
        let long = "long prompt ".repeat(2);
        let mut r = request(&long, 10, 8, 3);
        r.release = old;
        let rules = changes::Rules::of_release(old);
        let c = cut_in(&r, &rules).unwrap().unwrap();
        let ids: Vec<usize> = (0..10).collect();
        let kept: Vec<usize> = [&ids[..c.keep], &ids[c.keep + c.discarded..]].concat();
        assert_eq!(kept, [0, 1, 2, 6, 7, 8, 9]);
        let ids: Vec<_> = rules.applied().iter().map(|c| c.id).collect();
        assert_eq!(
            ids,
            [
                "prompt_over_context_400",
                "context_shift_truncation",
                "context_shift_generation_headroom"
            ]
        );
        r.context_shift = false;
        assert_eq!(cut(&r), Err(PROMPT_TOO_LONG));
        let mut r = request(&"long prompt ".repeat(500), 5000, 4096, 4);
        r.adds_bos = true;
        r.release = old;
        let c = cut(&r).unwrap().unwrap();
        assert_eq!((c.limit, c.keep, c.discarded), (4095, 4, 905));
        // num_keep -1: everything up to the limit, as before
        let mut r = request(&"x".repeat(100), 50, 8, -1);
        r.release = old;
        assert_eq!(
            cut(&r).unwrap().unwrap(),
            Cut {
                keep: 7,
                discarded: 43,
                limit: 7
            }
        );
        let f = for_request(
            &serde_json::json!({"options": {"num_ctx": 8, "num_keep": 3}}),
            "llama",
            &long,
            10,
            false,
            false,
            ModelContext::default(),
            old,
        );
        assert_eq!(f.evaluated(), 7);
        let row = f
            .release_rules
            .iter()
            .find(|r| r.id == "context_shift_generation_headroom")
            .unwrap();
        assert!(!row.in_effect);
    }

    /// server/sched_test.go TestResolveContextShift at v0.30.9-rc0 (shift,
    /// num_ctx), v0.30.9-rc1 (shift) and v0.30.10 (shift, model family).
    #[test]
    fn resolve_context_shift_by_release() {
        let at = |tag: &str| changes::Rules::of_release(changes::Release::parse(tag).unwrap());
        let rc0 = at("0.30.9-rc0");
        for (shift, ctx, want) in [
            (None, 128, true),
            (None, 8192, false),
            (None, 0, false),
            (Some(false), 128, false),
            (Some(true), 32768, true),
        ] {
            assert_eq!(
                context_shift_in(shift, &["llama"], ctx, &rc0),
                want,
                "{shift:?} {ctx}"
            );
        }
        // deepseek2 has no rule of its own yet
        assert!(context_shift_in(None, &["deepseek2"], 128, &rc0));
        let rc1 = at("0.30.9-rc1");
        for (shift, want) in [(None, true), (Some(false), false), (Some(true), true)] {
            assert_eq!(context_shift_in(shift, &["llama"], 32768, &rc1), want);
        }
        assert!(context_shift_in(None, &["deepseek2"], 4096, &rc1));
        let v = at("0.30.10");
        for (shift, families, want) in [
            (None, &[][..], true),
            (None, &["deepseek2"][..], false),
            (None, &["llama", "deepseek2"][..], false),
            (Some(false), &[][..], false),
            (Some(false), &["deepseek2"][..], false),
            (Some(true), &[][..], true),
            (Some(true), &["deepseek2"][..], true),
        ] {
            assert_eq!(
                context_shift_in(shift, families, 32768, &v),
                want,
                "{shift:?} {families:?}"
            );
        }
    }

    /// The three states of an over-long prompt before the headroom:
    /// v0.30.9-rc0's TestLlamaServerCompletionTruncatesPromptAsTokens (cut
    /// to num_ctx - 1 whether context shift is on or not), v0.30.9-rc1's
    /// TestLlamaServerCompletionRejectsPromptOverContext (always the short
    /// error) and v0.30.9-rc2's (the long error with shift off, the cut
    /// with it on).
    #[test]
    fn an_over_long_prompt_by_release() {
        let long = "long prompt ".repeat(2);
        let tokens: Vec<usize> = (0..10).collect();
        let kept = |c: Cut| [&tokens[..c.keep], &tokens[c.keep + c.discarded..]].concat();
        for (tag, shift_on, shift_off) in [
            (
                "0.30.0",
                Ok(vec![0, 1, 2, 6, 7, 8, 9]),
                Ok(vec![0, 1, 2, 6, 7, 8, 9]),
            ),
            (
                "0.30.9-rc0",
                Ok(vec![0, 1, 2, 6, 7, 8, 9]),
                Ok(vec![0, 1, 2, 6, 7, 8, 9]),
            ),
            (
                "0.30.9-rc1",
                Err(PROMPT_TOO_LONG_0_30_9_RC1),
                Err(PROMPT_TOO_LONG_0_30_9_RC1),
            ),
            (
                "0.30.9-rc2",
                Ok(vec![0, 1, 2, 6, 7, 8, 9]),
                Err(PROMPT_TOO_LONG),
            ),
            (
                "0.30.10",
                Ok(vec![0, 1, 2, 6, 7, 8, 9]),
                Err(PROMPT_TOO_LONG),
            ),
            (
                "0.30.11-rc0",
                Ok(vec![0, 1, 2, 7, 8, 9]),
                Err(PROMPT_TOO_LONG),
            ),
        ] {
            let mut r = request(&long, 10, 8, 3);
            r.release = changes::Release::parse(tag).unwrap();
            for (shift, want) in [(true, &shift_on), (false, &shift_off)] {
                r.context_shift = shift;
                let got = cut(&r).map(|c| kept(c.expect("a cut")));
                assert_eq!(&got, want, "{tag} shift {shift}");
            }
            // what fits is never touched
            let mut fits = request(&long, 7, 8, 3);
            fits.release = r.release;
            assert_eq!(cut(&fits), Ok(None), "{tag}");
        }
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
            changes::Release::NEWEST,
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
            changes::Release::NEWEST,
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
            changes::Release::NEWEST,
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
