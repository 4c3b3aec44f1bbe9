//! One generation, as llama-server runs an Ollama completion: the prompt
//! tokens (Ollama's `completionPromptForRequest` truncation), prompt
//! evaluation, then sample / stop checks / stream one token at a time.
//!
//! It is a state machine driven by [`Generation::step`] so that a caller
//! (a Web Worker) can stop between tokens.

use crate::error::Error;
use crate::model::Model;
use crate::options::Options;
use crate::sampler::Sampler;
use tokenizer::Vocab;

/// The prompt's tokens as llama-server evaluates them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PromptTokens {
    /// The token ids (BOS included when the vocabulary adds it).
    pub ids: Vec<u32>,
    /// Tokens dropped from the middle by the context shift (0 if none).
    pub discarded: usize,
}

/// The message Ollama answers when the prompt does not fit and context
/// shift is off.
pub const PROMPT_TOO_LONG: &str = ollama::runner::PROMPT_TOO_LONG;

/// Tokenizes a rendered prompt (already through Ollama's leading-BOS rule)
/// and applies Ollama's runner truncation (`ollama::runner::cut`): when
/// `truncate` is on, the prompt is at least `num_ctx` bytes and has more
/// than `num_ctx - 1` tokens, keep `num_keep` tokens (+1 when the tokenizer
/// adds BOS), then drop enough of the middle to free about half of the rest
/// of the context; with `shift` off, fail with [`PROMPT_TOO_LONG`]. Each
/// as `release` does it (`ollama::runner::cut`).
pub fn prompt_tokens(
    vocab: &Vocab,
    prompt: &str,
    opts: &Options,
    adds_bos: bool,
    truncate: bool,
    shift: bool,
    release: changes::Release,
) -> Result<PromptTokens, Error> {
    let ids = vocab
        .tokenize(prompt, true, true)
        .map_err(|e| Error::Run(e.message().to_string()))?;
    let request = ollama::runner::Request {
        prompt_bytes: prompt.len(),
        tokens: ids.len(),
        num_ctx: opts.num_ctx,
        num_keep: opts.num_keep,
        adds_bos,
        truncate,
        has_media: false,
        context_shift: shift,
        release,
    };
    match ollama::runner::cut(&request) {
        Ok(None) => Ok(PromptTokens { ids, discarded: 0 }),
        Ok(Some(cut)) => {
            let mut out = Vec::with_capacity(cut.limit);
            out.extend_from_slice(&ids[..cut.keep]);
            out.extend_from_slice(&ids[cut.keep + cut.discarded..]);
            Ok(PromptTokens {
                ids: out,
                discarded: cut.discarded,
            })
        }
        Err(message) => Err(Error::Options(message.into())),
    }
}

/// A request ready to run: its options and its prompt tokens.
#[derive(Clone, Debug)]
pub struct Prepared {
    /// Ollama's defaults with the request's `options` applied.
    pub options: Options,
    /// The prompt as llama-server evaluates it.
    pub tokens: PromptTokens,
}

/// Applies the request's `options` (a JSON object, or null) over `defaults`
/// (Ollama's, [`Options::defaults_of`]), then turns the rendered prompt into llama-server's tokens:
/// Ollama's leading-BOS rule (`completionPrompt`), then [`prompt_tokens`],
/// with context shift as the request's `shift` or the release's default
/// for a model of architecture `family`.
#[allow(clippy::too_many_arguments)]
pub fn prepare(
    vocab: &Vocab,
    prompt: &str,
    leading_bos: Option<&str>,
    adds_bos: bool,
    options: &serde_json::Value,
    defaults: Options,
    truncate: bool,
    shift: Option<bool>,
    family: &str,
    release: changes::Release,
) -> Result<Prepared, Error> {
    let mut opts = defaults;
    if let Some(map) = options.as_object() {
        opts.apply(map)?;
    }
    let completion = ollama::server::completion_prompt(prompt, leading_bos, adds_bos);
    // the runner's context shift: the request's `shift`, else the
    // release's default for this model and num_ctx
    let rules = changes::Rules::of_release(release);
    let shift = ollama::runner::context_shift_in(shift, &[family], opts.num_ctx, &rules);
    let tokens = prompt_tokens(vocab, completion, &opts, adds_bos, truncate, shift, release)?;
    Ok(Prepared {
        options: opts,
        tokens,
    })
}

/// Why generation ended, as Ollama reports it in `done_reason`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DoneReason {
    /// An end-of-generation token or a stop string.
    Stop,
    /// `num_predict` tokens, or the context is full.
    Length,
}

impl DoneReason {
    /// The `done_reason` string.
    pub fn as_str(self) -> &'static str {
        match self {
            DoneReason::Stop => "stop",
            DoneReason::Length => "length",
        }
    }
}

/// What one [`Generation::step`] produced.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    /// Text to stream (may be empty while a stop string or a UTF-8
    /// sequence is incomplete). Call `step` again until `Done`.
    Text(String),
    /// Generation has ended; every piece of text was sent before.
    Done(DoneReason),
}

/// Counts and durations in nanoseconds, as in Ollama's `Metrics`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Timings {
    /// Prompt tokens evaluated.
    pub prompt_eval_count: usize,
    /// Time spent evaluating them.
    pub prompt_eval_duration: u64,
    /// Tokens generated (the end-of-generation token included, as
    /// llama-server counts it).
    pub eval_count: usize,
    /// Time spent generating them.
    pub eval_duration: u64,
}

impl Timings {
    /// Ollama's `Metrics` of these counts, with the request's total and
    /// load durations.
    pub fn metrics(&self, total_duration: u64, load_duration: u64) -> ollama::response::Metrics {
        ollama::response::Metrics {
            total_duration,
            load_duration,
            prompt_eval_count: self.prompt_eval_count,
            prompt_eval_duration: self.prompt_eval_duration,
            eval_count: self.eval_count,
            eval_duration: self.eval_duration,
        }
    }
}

/// A generation in progress.
pub struct Generation {
    sampler: Sampler,
    n_ctx: usize,
    num_predict: i64,
    stop: Vec<String>,
    prompt_len: usize,
    generated: Vec<u32>,
    logits: Option<Vec<f32>>,
    /// generated bytes not yet sent
    held: Vec<u8>,
    /// all text sent so far
    sent: String,
    done: Option<DoneReason>,
    timings: Timings,
    /// special tokens rendered as text (llama-server's `preserved_tokens`)
    preserved: Vec<u32>,
    /// when the token being evaluated was sampled
    stepped_at: u64,
}

/// Evaluates the prompt in batches of this many tokens (llama-server's
/// default `n_batch`).
pub const N_BATCH: usize = 512;

impl Generation {
    /// Starts a generation: resets the model and evaluates `prompt`.
    /// `now` returns a monotonic time in nanoseconds; `random_seed` is used
    /// when `opts.seed` is -1.
    pub fn start(
        model: &mut Model,
        prompt: &[u32],
        opts: &Options,
        random_seed: u32,
        now: &dyn Fn() -> u64,
    ) -> Result<Generation, Error> {
        let mut g = Generation::begin(model.n_ctx_train(), prompt, opts, random_seed)?;
        let t0 = now();
        model.set_n_ctx(g.n_ctx);
        model.reset();
        let mut logits = Vec::new();
        for chunk in prompt.chunks(N_BATCH) {
            logits = model.forward(chunk)?;
        }
        g.prompt_evaluated(logits, now().saturating_sub(t0));
        Ok(g)
    }

    /// [`Generation::start`] for a model the caller runs itself (one whose
    /// forward pass is asynchronous, as on a GPU): the checks and the
    /// sampler. The caller then resets its model, evaluates `prompt` (in
    /// batches of at most [`N_BATCH`] tokens, or as its model batches
    /// them) and hands the last logits to [`Generation::prompt_evaluated`].
    pub fn begin(
        n_ctx_train: usize,
        prompt: &[u32],
        opts: &Options,
        random_seed: u32,
    ) -> Result<Generation, Error> {
        let n_ctx = effective_ctx(opts.num_ctx, n_ctx_train);
        if prompt.is_empty() {
            return Err(Error::Run("the prompt has no tokens".into()));
        }
        if prompt.len() >= n_ctx {
            return Err(Error::Options(PROMPT_TOO_LONG.into()));
        }
        let mut sampler = Sampler::new(opts, n_ctx, random_seed);
        for &t in prompt {
            sampler.accept(t);
        }
        Ok(Generation {
            sampler,
            n_ctx,
            num_predict: opts.num_predict,
            stop: opts
                .stop
                .iter()
                .filter(|s| !s.is_empty())
                .cloned()
                .collect(),
            prompt_len: prompt.len(),
            generated: Vec::new(),
            logits: None,
            held: Vec::new(),
            sent: String::new(),
            done: None,
            timings: Timings::default(),
            preserved: Vec::new(),
            stepped_at: 0,
        })
    }

    /// The prompt's last logits, and how long its evaluation took.
    pub fn prompt_evaluated(&mut self, logits: Vec<f32>, duration_ns: u64) {
        self.logits = Some(logits);
        self.timings.prompt_eval_count = self.prompt_len;
        self.timings.prompt_eval_duration = duration_ns;
    }

    /// The context this generation runs in (`num_ctx`, at most the
    /// trained length).
    pub fn n_ctx(&self) -> usize {
        self.n_ctx
    }

    /// The sampler's seed.
    pub fn seed(&self) -> u32 {
        self.sampler.seed()
    }

    /// Tokens generated so far.
    pub fn generated(&self) -> &[u32] {
        &self.generated
    }

    /// All text streamed so far.
    pub fn text(&self) -> &str {
        &self.sent
    }

    /// Counts and durations so far.
    pub fn timings(&self) -> Timings {
        self.timings
    }

    /// Special tokens to render as text, as llama-server does for a
    /// request's `preserved_tokens` (the parser's grammar tokens): each
    /// string is kept only when it tokenizes to exactly one token.
    pub fn preserve_tokens(&mut self, vocab: &Vocab, tokens: &[String]) {
        self.preserved = tokens
            .iter()
            .filter_map(|t| match vocab.tokenize(t, false, true) {
                Ok(ids) if ids.len() == 1 => Some(ids[0]),
                _ => None,
            })
            .collect();
    }

    /// Why it ended, once it has.
    pub fn done(&self) -> Option<DoneReason> {
        self.done
    }

    /// Samples and evaluates one token.
    pub fn step(
        &mut self,
        model: &mut Model,
        vocab: &Vocab,
        now: &dyn Fn() -> u64,
    ) -> Result<Step, Error> {
        let (step, next) = self.sample(vocab, now)?;
        if let Some(id) = next {
            let logits = model.forward(&[id])?;
            self.evaluated(logits, now);
        }
        Ok(step)
    }

    /// [`Generation::step`] for a model the caller runs itself: samples
    /// one token and says what it gives; where the generation goes on, the
    /// token the model must evaluate before the next call, whose logits go
    /// to [`Generation::evaluated`].
    pub fn sample(
        &mut self,
        vocab: &Vocab,
        now: &dyn Fn() -> u64,
    ) -> Result<(Step, Option<u32>), Error> {
        if let Some(r) = self.done {
            return Ok((Step::Done(r), None));
        }
        if self.num_predict >= 0 && self.generated.len() as i64 >= self.num_predict {
            return Ok((self.finish(DoneReason::Length), None));
        }
        let t0 = now();
        let Some(logits) = self.logits.take() else {
            return Ok((self.finish(DoneReason::Length), None));
        };
        let id = self.sampler.sample(&logits);
        self.sampler.accept(id);
        self.generated.push(id);
        self.timings.eval_count += 1;
        if vocab.is_eog(id) {
            self.timings.eval_duration += now().saturating_sub(t0);
            self.done = Some(DoneReason::Stop);
            // text held back for a stop string that never came goes out
            return Ok((Step::Text(self.flush()), None));
        }
        // llama-server renders a special token only when it is preserved
        let special = self.preserved.contains(&id);
        let piece = vocab.token_to_piece(id, 0, special).unwrap_or_default();
        self.held.extend_from_slice(&piece);
        let text = self.release();
        if self.done.is_some() {
            self.timings.eval_duration += now().saturating_sub(t0);
            return Ok((Step::Text(text), None));
        }
        let full = self.prompt_len + self.generated.len() >= self.n_ctx;
        let limit = self.num_predict >= 0 && self.generated.len() as i64 >= self.num_predict;
        if full || limit {
            self.timings.eval_duration += now().saturating_sub(t0);
            // the text held back for a possible stop string goes out now
            let mut text = text;
            text.push_str(&self.flush());
            self.done = Some(DoneReason::Length);
            return Ok((Step::Text(text), None));
        }
        self.stepped_at = t0;
        Ok((Step::Text(text), Some(id)))
    }

    /// The logits of the token [`Generation::sample`] asked for.
    pub fn evaluated(&mut self, logits: Vec<f32>, now: &dyn Fn() -> u64) {
        self.logits = Some(logits);
        self.timings.eval_duration += now().saturating_sub(self.stepped_at);
    }

    fn finish(&mut self, r: DoneReason) -> Step {
        self.done = Some(r);
        Step::Done(r)
    }

    /// Everything still held, at the end.
    pub fn flush(&mut self) -> String {
        let s = String::from_utf8_lossy(&self.held).into_owned();
        self.held.clear();
        self.sent.push_str(&s);
        s
    }

    /// Sends what can be sent: up to a complete stop string (which ends
    /// generation), holding back a suffix that could start one, and an
    /// incomplete UTF-8 sequence.
    fn release(&mut self) -> String {
        let valid = match std::str::from_utf8(&self.held) {
            Ok(s) => s.len(),
            Err(e) if e.error_len().is_none() => e.valid_up_to(),
            Err(_) => self.held.len(),
        };
        let text = String::from_utf8_lossy(&self.held[..valid]).into_owned();
        // search the stop strings over the held text plus the tail of what
        // was sent that a stop string straddling tokens could start in (a
        // stop string wholly inside the sent text would have ended it)
        let longest = self.stop.iter().map(String::len).max().unwrap_or(0);
        let mut start = self.sent.len().saturating_sub(longest);
        while !self.sent.is_char_boundary(start) {
            start -= 1;
        }
        let mut joined = self.sent[start..].to_string();
        let base = joined.len();
        joined.push_str(&text);
        let first = self
            .stop
            .iter()
            .filter_map(|s| joined.find(s.as_str()))
            .min();
        if let Some(pos) = first {
            self.done = Some(DoneReason::Stop);
            self.held.clear();
            let out = if pos >= base {
                joined[base..pos].to_string()
            } else {
                String::new()
            };
            self.sent.push_str(&out);
            return out;
        }
        let hold = self
            .stop
            .iter()
            .map(|s| partial_suffix(&joined, s))
            .max()
            .unwrap_or(0)
            .min(text.len());
        let mut cut = text.len() - hold;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        let out = text[..cut].to_string();
        self.held.drain(..cut);
        self.sent.push_str(&out);
        out
    }
}

/// The length of the longest suffix of `text` that is a proper prefix of
/// `stop` (llama-server's `find_partial_stop_string`).
fn partial_suffix(text: &str, stop: &str) -> usize {
    let max = stop.len().saturating_sub(1).min(text.len());
    (1..=max)
        .rev()
        .find(|&n| {
            text.is_char_boundary(text.len() - n) && stop.starts_with(&text[text.len() - n..])
        })
        .unwrap_or(0)
}

/// The context length llama-server gets: `num_ctx`, at most what the model
/// was trained with (Ollama caps it so), at least 1.
pub fn effective_ctx(num_ctx: i64, n_ctx_train: usize) -> usize {
    let n = if num_ctx <= 0 { 4096 } else { num_ctx as usize };
    let n = if n_ctx_train > 0 {
        n.min(n_ctx_train)
    } else {
        n
    };
    n.max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partial_stop_suffixes() {
        assert_eq!(partial_suffix("hello <|im", "<|im_end|>"), 4);
        assert_eq!(partial_suffix("hello", "<|im_end|>"), 0);
        assert_eq!(partial_suffix("ab", "b"), 0);
    }

    #[test]
    fn shift_limit_is_ollamas() {
        use ollama::runner::context_shift_prompt_limit;
        assert_eq!(context_shift_prompt_limit(10, 4), 7);
        assert_eq!(context_shift_prompt_limit(1, 4), 0);
        assert_eq!(context_shift_prompt_limit(2048, 5), 2048 - 1021);
    }

    #[test]
    fn context_is_capped_by_training() {
        assert_eq!(effective_ctx(4096, 2048), 2048);
        assert_eq!(effective_ctx(512, 8192), 512);
        assert_eq!(effective_ctx(0, 8192), 4096);
    }
}
