//! What llama-server can reuse from its KV cache when the next turn of a
//! conversation arrives (tools/server/server-context.cpp, the slot's
//! prompt handling with `cache_prompt`, which Ollama always sets).
//!
//! Ollama runs one slot per model (`-np 1` unless `OLLAMA_NUM_PARALLEL`)
//! and never passes `--cache-reuse`, so the rule is the longest common
//! token prefix of what the slot holds and the new prompt, less one when
//! the whole prompt matches (llama-server evaluates at least one token).
//! The slot holds the previous prompt and every generated token but the
//! last: the token that ended the turn (an end-of-generation token, the
//! one that completed a stop string, or the `num_predict`-th) is sampled
//! but never decoded.
//!
//! Ollama reports `prompt_eval_count` as `cache_n + prompt_n`
//! (llm/llama_server.go `promptEvalCount`): the whole prompt, cached or
//! not. `prompt_n` is what is really evaluated.
//!
//! Token lists and texts in, figures out: the caller renders and tokenizes.

use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

use crate::api;
use crate::case::RenderCase;
use crate::runner;
use crate::server::{self, Endpoint, Rendered, TokenCounter};

/// What the slot holds after a turn: the prompt's tokens, then the
/// generated tokens but the last (sampled, never decoded).
pub fn slot_after(prompt: &[u32], generated: &[u32]) -> Vec<u32> {
    let mut held = prompt.to_vec();
    held.extend_from_slice(&generated[..generated.len().saturating_sub(1)]);
    held
}

/// How much of a new prompt llama-server takes from the slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reuse {
    /// Tokens the slot held.
    pub held: usize,
    /// The new prompt's tokens.
    pub tokens: usize,
    /// The longest common prefix of the two (`get_common_prefix`).
    pub common_prefix: usize,
    /// `cache_n`: tokens taken from the cache.
    pub cache_n: usize,
    /// `prompt_n`: tokens evaluated.
    pub prompt_n: usize,
    /// `prompt_eval_count` as the release reports it: `cache_n + prompt_n`
    /// (before `prompt_eval_count_includes_cache`, `prompt_n`).
    #[serde(default)]
    pub reported: usize,
}

impl Reuse {
    /// `prompt_eval_count` as Ollama reports it.
    pub fn prompt_eval_count(&self) -> usize {
        self.reported
    }

    /// The first token of the new prompt that differs from the slot's, if
    /// the new prompt does not simply extend what the slot held.
    pub fn first_difference(&self) -> Option<usize> {
        (self.common_prefix < self.held && self.common_prefix < self.tokens)
            .then_some(self.common_prefix)
    }
}

/// llama-server's reuse of `held` for `prompt`: the common prefix, and at
/// least one token evaluated (`[TAG_PROMPT_LOGITS]`).
pub fn reuse(held: &[u32], prompt: &[u32]) -> Reuse {
    reuse_in(
        held,
        prompt,
        true,
        &changes::Rules::of_release(changes::Release::NEWEST),
    )
}

/// [`reuse`] as a release runs it: `cache_prompt` false (a request with
/// `"shift": false` before `cache_prompt_always`) reuses nothing, and
/// `prompt_eval_count` counts the cached tokens from
/// `prompt_eval_count_includes_cache` on. The rows that decide are noted
/// in `rules`.
pub fn reuse_in(held: &[u32], prompt: &[u32], cache_prompt: bool, rules: &changes::Rules) -> Reuse {
    let common_prefix = held.iter().zip(prompt).take_while(|(a, b)| a == b).count();
    let mut cache_n = if cache_prompt { common_prefix } else { 0 };
    if cache_n == prompt.len() && cache_n > 0 {
        cache_n -= 1;
    }
    reuse_of(held, prompt, common_prefix, cache_n, rules)
}

/// The figures for `cache_n` tokens taken from the cache.
fn reuse_of(
    held: &[u32],
    prompt: &[u32],
    common_prefix: usize,
    cache_n: usize,
    rules: &changes::Rules,
) -> Reuse {
    let prompt_n = prompt.len() - cache_n;
    let reported = if cache_n == 0 || rules.on(&changes::ollama::PROMPT_EVAL_COUNT_INCLUDES_CACHE) {
        cache_n + prompt_n
    } else {
        prompt_n
    };
    Reuse {
        held: held.len(),
        tokens: prompt.len(),
        common_prefix,
        cache_n,
        prompt_n,
        reported,
    }
}

/// The byte offset in `text` where each token starts, and the text's
/// length last, from the tokens' pieces (detokenized with special tokens
/// shown). A BOS the tokenizer added in front, and the space a
/// SentencePiece vocabulary puts before the first word, take no bytes of
/// the text. `None` when the pieces do not spell the text.
pub fn piece_offsets(text: &str, pieces: &[&[u8]]) -> Option<Vec<usize>> {
    let bytes = text.as_bytes();
    let mut at = 0usize;
    let mut starts = Vec::with_capacity(pieces.len() + 1);
    for (i, piece) in pieces.iter().enumerate() {
        starts.push(at);
        let rest = &bytes[at..];
        if rest.starts_with(piece) {
            at += piece.len();
        } else if i <= 1 && piece.first() == Some(&b' ') && rest.starts_with(&piece[1..]) {
            at += piece.len() - 1;
        } else if i == 0 {
            // a BOS added in front of the text
        } else {
            return None;
        }
    }
    (at == bytes.len()).then_some(())?;
    starts.push(at);
    Some(starts)
}

/// One message as the break's explanation needs it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Turn<'a> {
    /// The message's role.
    pub role: &'a str,
    /// Its content.
    pub content: &'a str,
    /// Its thinking, if any.
    pub thinking: &'a str,
    /// Whether it carries tool calls.
    pub tool_calls: bool,
}

/// Where the previous turn's cache stops matching, in words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Break {
    /// What kind of break: `none` (the new prompt extends the cached one),
    /// `reply` (the earlier reply is rendered otherwise than the model
    /// wrote it), `generation-prompt` (the previous turn's generation
    /// prompt is not how the template closes the finished turn),
    /// `earlier` (the template rewrote an earlier part of the prompt) or
    /// `tokenization` (same text, tokenized otherwise across the seam).
    pub kind: String,
    /// The message whose rendering breaks the cache, when one does.
    pub message: Option<usize>,
    /// The sentence shown in Explain.
    pub cause: String,
}

/// Explains a break: `held_text` is the previous prompt followed by the
/// reply as the model wrote it (`prev_len` bytes of prompt), `text` the new
/// prompt, `at` the byte of `text` where the first differing token starts
/// (`None`: no break). `turns` are the messages of the new conversation in
/// prompt order and `reply` the index of the reply among them.
pub fn explain_break(
    held_text: &str,
    prev_len: usize,
    text: &str,
    at: Option<usize>,
    turns: &[Turn],
    reply: usize,
) -> Break {
    let Some(at) = at else {
        return Break {
            kind: "none".into(),
            message: None,
            cause: "the new prompt extends the cached one: all of it is reused".into(),
        };
    };
    let same = held_text
        .bytes()
        .zip(text.bytes())
        .take_while(|(a, b)| a == b)
        .count();
    if same >= held_text.len() {
        return Break {
            kind: "tokenization".into(),
            message: None,
            cause: format!(
                "the text matches, but the tokens at byte {at} differ: the reply's last tokens merge otherwise with what the template puts after it"
            ),
        };
    }
    let byte = same;
    if byte >= prev_len {
        let r = turns.get(reply).cloned().unwrap_or_default();
        let cause = if !r.thinking.is_empty() && !text.contains(r.thinking) {
            "the template drops the thinking of earlier turns, so the reply as the model wrote it (thinking first) is not what the next prompt holds".to_string()
        } else if r.tool_calls {
            "the template re-renders the reply's tool calls from their JSON, not as the model wrote them".to_string()
        } else {
            format!(
                "the template renders the earlier reply otherwise than the model wrote it (byte {} of the reply)",
                byte - prev_len
            )
        };
        return Break {
            kind: "reply".into(),
            message: Some(reply),
            cause,
        };
    }
    // Before the reply: which message's text the byte falls in, found in
    // prompt order.
    let mut from = 0usize;
    let mut spans = Vec::new();
    for (i, t) in turns.iter().enumerate() {
        if t.content.is_empty() {
            continue;
        }
        if let Some(p) = held_text[from..].find(t.content) {
            spans.push((i, from + p, from + p + t.content.len()));
            from += p + t.content.len();
        }
    }
    let last_before_reply = spans.iter().rev().find(|s| s.0 < reply).map(|s| s.2);
    if last_before_reply.is_some_and(|end| byte >= end) || spans.is_empty() {
        let r = turns.get(reply).cloned().unwrap_or_default();
        if !r.thinking.is_empty() && !text.contains(r.thinking) {
            // the generation prompt opened the thinking the model then wrote
            return Break {
                kind: "reply".into(),
                message: Some(reply),
                cause: "the template drops the thinking of earlier turns: the previous turn's generation prompt opened it and the model wrote it, the next prompt holds the answer alone".into(),
            };
        }
        return Break {
            kind: "generation-prompt".into(),
            message: Some(reply),
            cause: format!(
                "the previous turn's generation prompt ({:?}) is not how the template renders the finished turn ({:?})",
                snippet(&held_text[byte..prev_len]),
                snippet(&text[byte..])
            ),
        };
    }
    let inside = spans.iter().find(|s| byte >= s.1 && byte < s.2);
    let after = spans.iter().find(|s| s.1 > byte);
    let (message, cause) = match (inside, after) {
        (Some(s), _) => (
            s.0,
            format!(
                "the template rewrites the text of message {} ({}) in the new prompt",
                s.0, turns[s.0].role
            ),
        ),
        (None, Some(s)) => (
            s.0,
            format!(
                "the template changes what it puts before message {} ({}): {:?} instead of {:?}",
                s.0,
                turns[s.0].role,
                snippet(&text[byte..]),
                snippet(&held_text[byte..])
            ),
        ),
        (None, None) => (reply, "the template changes the end of the prompt".into()),
    };
    Break {
        kind: "earlier".into(),
        message: Some(message),
        cause,
    }
}

/// The model's tokenizer as llama-server uses it, for the cache view and
/// the runner's stage.
pub trait PromptTokens: TokenCounter {
    /// The prompt's tokens as llama-server tokenizes what Ollama sends
    /// (`completion`, after Ollama's leading-BOS rule): BOS added when the
    /// vocabulary adds it, special tokens parsed.
    fn prompt_tokens(&self, completion: &str) -> Result<Vec<u32>, String>;
    /// Generated text's tokens: nothing added, special tokens parsed.
    fn text_tokens(&self, text: &str) -> Result<Vec<u32>, String>;
    /// A token's piece, special tokens shown.
    fn piece(&self, id: u32) -> Vec<u8>;
    /// Ollama's `tokenizerAddsBOS()` for the model.
    fn adds_bos(&self) -> bool;
    /// The model's architecture, when the case names no family.
    fn architecture(&self) -> &str;
}

/// The tokens the model sees for a rendered prompt: the prompt as sent to
/// llama-server, its tokens, and the runner's stage applied to them.
pub struct Seen {
    /// The prompt as sent (`completionPrompt`).
    pub sent: String,
    /// Its tokens before the runner's cut.
    pub all: Vec<u32>,
    /// The runner's stage.
    pub runner: runner::Figures,
}

impl Seen {
    /// The tokens llama-server evaluates: the runner's cut applied.
    pub fn evaluated(&self) -> Vec<u32> {
        match self.runner.cut {
            Some(c) => {
                let mut t = self.all[..c.keep].to_vec();
                t.extend_from_slice(&self.all[c.keep + c.discarded..]);
                t
            }
            None => self.all.clone(),
        }
    }
}

/// Tokenizes a rendered prompt and applies the runner's stage to it, as
/// `promptscope render --json` and the app report it.
pub fn seen(
    case: &RenderCase,
    r: &Rendered,
    prompt: &str,
    tok: &dyn PromptTokens,
) -> Result<Seen, String> {
    let leading_bos = r.explain.leading_bos.as_deref();
    let sent = server::completion_prompt(prompt, leading_bos, tok.adds_bos()).to_string();
    let all = tok.prompt_tokens(&sent)?;
    let family = if case.model.family.is_empty() {
        tok.architecture()
    } else {
        case.model.family.as_str()
    };
    let model = runner::ModelContext {
        vision: r.explain.capabilities.iter().any(|c| c.name == "vision"),
        train_ctx: case.model.gguf.as_ref().and_then(|g| g.context_length),
    };
    // native chat goes to llama-server's /v1/chat/completions, where
    // nothing is cut; native /api/generate sends the /apply-template
    // prompt to /completion, through the runner's cut like any other
    let runner = if r.explain.branch == "native" && case.endpoint == Endpoint::Chat {
        runner::native(&case.request, all.len(), model, case.release)
    } else {
        runner::for_request(
            &case.request,
            family,
            &sent,
            all.len(),
            tok.adds_bos(),
            r.image_count > 0,
            model,
            case.release,
        )
    };
    Ok(Seen { sent, all, runner })
}

/// The turns of a chat case: for each assistant message followed by more
/// messages, its index and the end (exclusive) of the next turn's request:
/// the next assistant message, else the whole conversation.
pub fn turns(case: &RenderCase) -> Vec<(usize, usize)> {
    if case.endpoint != Endpoint::Chat {
        return Vec::new();
    }
    let Some(msgs) = case.request.get("messages").and_then(Json::as_array) else {
        return Vec::new();
    };
    let is_reply = |m: &Json| {
        m.get("role")
            .and_then(Json::as_str)
            .is_some_and(|r| r.eq_ignore_ascii_case("assistant"))
    };
    let replies: Vec<usize> = (0..msgs.len())
        .filter(|&i| is_reply(&msgs[i]) && i + 1 < msgs.len())
        .collect();
    replies
        .iter()
        .enumerate()
        .map(|(k, &a)| (a, replies.get(k + 1).copied().unwrap_or(msgs.len())))
        .collect()
}

/// The first token where the slot and the new prompt differ.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Difference {
    /// Its index.
    pub token: usize,
    /// The slot's token there (id, piece), if the slot reaches it.
    pub held: Option<(u32, String)>,
    /// The new prompt's token there (id, piece).
    pub new: (u32, String),
    /// The byte of the new prompt (as sent) where that token starts, when
    /// the tokens' pieces spell the prompt.
    pub byte: Option<usize>,
}

/// One turn's cache figures.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnView {
    /// The reply's index among the request's messages.
    pub reply: usize,
    /// The messages of the new turn's request (`messages[..end]`).
    pub end: usize,
    /// How the reply's tokens were taken.
    pub assumption: String,
    /// The previous prompt's tokens, as evaluated (after the runner's cut).
    pub previous_tokens: usize,
    /// The reply's tokens (the token that ended the turn not counted).
    pub reply_tokens: usize,
    /// What llama-server reuses.
    pub reuse: Reuse,
    /// Where the slot and the new prompt first differ.
    pub first_difference: Option<Difference>,
    /// Why they differ there.
    #[serde(rename = "break")]
    pub why: Break,
    /// The previous prompt as sent to llama-server.
    pub previous_prompt: String,
    /// The reply as assumed (see `assumption`).
    pub reply_text: String,
    /// The new prompt as sent to llama-server.
    pub prompt: String,
    /// The rows of the release's table the reuse consulted
    /// (`cache_prompt_always`, `prompt_eval_count_includes_cache`, and
    /// llama.cpp's checkpoint rows for a model that needs them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub release_rules: Vec<server::BuildRule>,
    /// For a model whose memory cannot be cut back to any token
    /// (sliding-window attention, recurrent layers): the context
    /// checkpoints that decided the reuse.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checkpoints: Option<Checkpoints>,
}

/// How llama-server's context checkpoints decided a turn's reuse
/// (`slot`): the whole conversation replayed through the slot, each
/// earlier prompt followed by its assumed reply.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Checkpoints {
    /// The model's memory, in words.
    pub memory: String,
    /// `n_swa`, for sliding-window attention.
    pub n_swa: Option<u32>,
    /// Recurrent layers (a recurrent or hybrid architecture).
    pub recurrent: bool,
    /// The checkpoints the slot held when the new turn came (token count,
    /// positions, the request that made them: 1 is the conversation's
    /// first).
    pub held: Vec<slot::Checkpoint>,
    /// Where user messages start in the new prompt (the handler's message
    /// delimiters; none for a prompt sent to `/completion`).
    pub user_starts: Vec<usize>,
    /// The memory's lowest position, and the lowest the cached prefix
    /// needs (`pos_min_thold`), when the cache was asked.
    pub pos_min: Option<(i32, i32)>,
    /// The checkpoint restored.
    pub restored: Option<slot::Checkpoint>,
    /// No checkpoint served: the whole prompt was evaluated again.
    pub reset: bool,
    /// What happened, in a line.
    pub why: String,
}

fn with_messages(case: &RenderCase, n: usize) -> RenderCase {
    let mut c = case.clone();
    if let Some(a) = c.request.get_mut("messages").and_then(Json::as_array_mut) {
        a.truncate(n);
    }
    c
}

fn rendered(
    case: &RenderCase,
    tok: &dyn PromptTokens,
    what: &str,
) -> Result<(Rendered, String), String> {
    let r = case
        .render_prompt(Some(tok as &dyn TokenCounter))
        .map_err(|f| format!("{what}: {}", f.message))?;
    let p = r
        .prompt
        .clone()
        .ok_or_else(|| format!("{what}: Ollama renders no prompt"))?;
    Ok((r, p))
}

fn piece(tok: &dyn PromptTokens, id: u32) -> String {
    String::from_utf8_lossy(&tok.piece(id)).into_owned()
}

/// The cache view of one turn (`reply`, `end` from [`turns`]): the previous
/// turn's prompt (`messages[..reply]`) and the reply as the model would
/// have written it, in the slot, against the new turn's prompt
/// (`messages[..end]`).
///
/// The reply is taken as the template renders it when it is the latest
/// message (what Ollama prefills: thinking, content and tool calls in the
/// model's own format) when that rendering extends the previous prompt,
/// else as its content alone; it is tokenized on its own, as a model
/// samples it, followed by the token that ended the turn.
pub fn turn(
    case: &RenderCase,
    reply: usize,
    end: usize,
    tok: &dyn PromptTokens,
) -> Result<TurnView, String> {
    turn_after(case, reply, end, tok, None)
}

/// [`turn`] for the case's own last turn, given what the caller already
/// rendered and tokenized for the whole case (`current`): the new turn is
/// not rendered and tokenized again.
pub fn last_turn(
    case: &RenderCase,
    tok: &dyn PromptTokens,
    current: (&Rendered, &Seen),
) -> Option<Result<TurnView, String>> {
    let &(reply, end) = turns(case).last()?;
    Some(turn_after(case, reply, end, tok, Some(current)))
}

/// The reply to the prompt of `messages[..reply]` (`prev`, rendered as
/// `prev_r`) as the model would have written it: its text, how it was
/// taken, and its tokens (see [`turn`]).
fn assumed_reply(
    case: &RenderCase,
    r: &api::Message,
    reply: usize,
    prev_r: &Rendered,
    prev: &str,
    tok: &dyn PromptTokens,
) -> Result<(String, String, Vec<u32>), String> {
    let prefilled = rendered(&with_messages(case, reply + 1), tok, "the reply")
        .ok()
        .and_then(|(_, p)| p.strip_prefix(prev).map(str::to_string))
        .filter(|s| !s.is_empty());
    let (mut reply_text, mut assumption) = match prefilled {
        Some(t) => (
            t,
            "the reply as the template renders it when it is the latest message (what Ollama prefills), tokenized on its own".to_string(),
        ),
        None => (
            r.content.clone(),
            "the reply's content alone, tokenized on its own (the template does not render the finished reply after the previous prompt)".to_string(),
        ),
    };
    if !r.thinking.is_empty() && !reply_text.contains(r.thinking.as_str()) {
        // The template does not show the reply's thinking (native mode
        // never passes it on): the model wrote it first, in its tags.
        let (open, close) = prev_r
            .explain
            .thinking_tags
            .clone()
            .unwrap_or_else(|| ("<think>".into(), "</think>".into()));
        reply_text = format!("{open}\n{}\n{close}\n\n{reply_text}", r.thinking);
        assumption.push_str(&format!(
            "; the thinking written first as {open}\\n…\\n{close}\\n\\n"
        ));
    }
    let reply_ids = tok.text_tokens(&reply_text)?;
    Ok((reply_text, assumption, reply_ids))
}

fn turn_after(
    case: &RenderCase,
    reply: usize,
    end: usize,
    tok: &dyn PromptTokens,
    current: Option<(&Rendered, &Seen)>,
) -> Result<TurnView, String> {
    let prev_case = with_messages(case, reply);
    let (prev_r, prev) = rendered(&prev_case, tok, "the previous turn")?;
    let prev_seen = seen(&prev_case, &prev_r, &prev, tok)?;
    let msgs = case.request["messages"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let decoded = api::decode_messages(&Json::Array(msgs[..end].to_vec()))
        .map_err(|e| format!("messages: {}", e.0))?;
    let (reply_text, assumption, reply_ids) =
        assumed_reply(case, &decoded[reply], reply, &prev_r, &prev, tok)?;
    let held_prompt = prev_seen.evaluated();
    let mut held = held_prompt.clone();
    held.extend_from_slice(&reply_ids);

    let computed;
    let (cur_r, cur_seen) = match current {
        Some(c) => c,
        None => {
            let cur_case = with_messages(case, end);
            let (r, p) = rendered(&cur_case, tok, "the new turn")?;
            let s = seen(&cur_case, &r, &p, tok)?;
            computed = (r, s);
            (&computed.0, &computed.1)
        }
    };
    let new = cur_seen.evaluated();
    let rules = changes::Rules::of_release(case.release);
    // cache_prompt followed the request's shift before cache_prompt_always
    let shift_off = case.request.get("shift").and_then(Json::as_bool) == Some(false);
    let cache_prompt = !shift_off || rules.on(&changes::ollama::CACHE_PROMPT_ALWAYS);
    let mut reuse = reuse_in(&held, &new, cache_prompt, &rules);
    let memory = memory_of(case, tok);
    let checkpoints = if memory.checkpoints() {
        let replay = Replay {
            case,
            reply,
            cache_prompt,
            tok,
            decoded: &decoded,
        };
        let num_batch = case
            .request
            .pointer("/options/num_batch")
            .and_then(Json::as_u64)
            .filter(|&n| n > 0)
            .unwrap_or(512)
            .min(u64::from(u32::MAX)) as u32;
        let num_ctx = cur_seen.runner.num_ctx.clamp(1, i64::from(u32::MAX)) as u32;
        let params = slot::Params::ollama(num_ctx, num_batch);
        let mut s = slot::Slot::new(params, memory, &rules);
        replay.earlier(&mut s)?;
        let prev_spans = spans(&prev_r, &held_prompt, tok)?;
        s.request(&held_prompt, &prev_spans, cache_prompt)
            .map_err(|e| e.to_string())?;
        s.decoded(&reply_ids).map_err(|e| e.to_string())?;
        let before = s.checkpoints().to_vec();
        let new_spans = spans(cur_r, &new, tok)?;
        let o = s
            .request(&new, &new_spans, cache_prompt)
            .map_err(|e| e.to_string())?;
        reuse = reuse_of(&held, &new, reuse.common_prefix, o.cache_n, &rules);
        Some(checkpoint_view(memory, before, &new_spans, o))
    } else {
        None
    };
    let mut release_rules: Vec<server::BuildRule> = rules
        .applied()
        .into_iter()
        .map(|c| server::BuildRule::of(c, &rules))
        .collect();
    if checkpoints.is_some() {
        // the rows that decided where user messages start
        for r in &cur_r.explain.delimiter_rules {
            if !release_rules.iter().any(|x| x.id == r.id) {
                release_rules.push(r.clone());
            }
        }
    }

    let offsets = |text: &str, ids: &[u32]| {
        let pieces: Vec<Vec<u8>> = ids.iter().map(|&i| tok.piece(i)).collect();
        let refs: Vec<&[u8]> = pieces.iter().map(Vec::as_slice).collect();
        piece_offsets(text, &refs)
    };
    let cur_offsets = (cur_seen.runner.cut.is_none())
        .then(|| offsets(&cur_seen.sent, &new))
        .flatten();
    let first_difference = reuse.first_difference().map(|i| Difference {
        token: i,
        held: held.get(i).map(|&id| (id, piece(tok, id))),
        new: (new[i], piece(tok, new[i])),
        byte: cur_offsets.as_ref().map(|o| o[i]),
    });
    let held_text = format!("{}{}", prev_seen.sent, reply_text);
    let prev_len = prev_seen.sent.len();
    let turns: Vec<Turn> = decoded
        .iter()
        .map(|m| Turn {
            role: &m.role,
            content: &m.content,
            thinking: &m.thinking,
            tool_calls: !m.tool_calls.is_empty(),
        })
        .collect();
    let dropped = cur_r
        .explain
        .truncation
        .as_ref()
        .map_or(0, |t| t.first_kept);
    let why = match &first_difference {
        Some(d) if cur_seen.runner.cut.is_some() || prev_seen.runner.cut.is_some() => Break {
            kind: "cut".into(),
            message: None,
            cause: format!(
                "the runner cut the middle of a prompt that did not fit num_ctx {}: token {} is no longer the same",
                cur_seen.runner.num_ctx, d.token
            ),
        },
        Some(d) if dropped > 0 && d.byte.is_none_or(|b| b < prev_len) => Break {
            kind: "truncation".into(),
            message: Some(dropped),
            cause: format!(
                "num_ctx truncation dropped the oldest messages: the new prompt starts at message {dropped}"
            ),
        },
        Some(d) => explain_break(
            &held_text,
            prev_len,
            &cur_seen.sent,
            Some(d.byte.unwrap_or(0)),
            &turns,
            reply,
        ),
        None => explain_break(&held_text, prev_len, &cur_seen.sent, None, &turns, reply),
    };
    Ok(TurnView {
        reply,
        end,
        assumption,
        previous_tokens: held_prompt.len(),
        reply_tokens: reply_ids.len(),
        reuse,
        first_difference,
        why,
        previous_prompt: prev_seen.sent,
        reply_text,
        prompt: cur_seen.sent.clone(),
        release_rules,
        checkpoints,
    })
}

/// The model's memory as llama.cpp builds it, from its architecture and
/// sliding window.
fn memory_of(case: &RenderCase, tok: &dyn PromptTokens) -> slot::Memory {
    let (arch, window, layers) = match &case.model.gguf {
        Some(g) => (g.architecture.as_str(), g.sliding_window, g.block_count),
        None => (tok.architecture(), None, None),
    };
    slot::Memory::of(arch, window, layers)
}

/// Where user messages start in `tokens`, from the handler's message
/// delimiters (native chat), tokenized as llama-server does.
fn spans(r: &Rendered, tokens: &[u32], tok: &dyn PromptTokens) -> Result<slot::Spans, String> {
    let mut delims = Vec::new();
    for (role, text) in &r.explain.message_delimiters {
        delims.push(slot::Delimiter {
            role: slot::Role::parse(role),
            tokens: tok.text_tokens(text)?,
        });
    }
    Ok(slot::Spans::find(tokens, &delims))
}

/// The conversation's earlier turns, replayed through a slot.
struct Replay<'a> {
    case: &'a RenderCase,
    reply: usize,
    cache_prompt: bool,
    tok: &'a dyn PromptTokens,
    /// The request's messages, decoded once (at least up to `reply`).
    decoded: &'a [api::Message],
}

impl Replay<'_> {
    /// Each turn before the one whose reply is `self.reply`: its prompt
    /// requested, its assumed reply decoded.
    fn earlier(&self, s: &mut slot::Slot) -> Result<(), String> {
        for (a, _) in turns(self.case)
            .into_iter()
            .filter(|&(a, _)| a < self.reply)
        {
            let c = with_messages(self.case, a);
            let (r, p) = rendered(&c, self.tok, "an earlier turn")?;
            let seen = seen(&c, &r, &p, self.tok)?;
            let tokens = seen.evaluated();
            s.request(&tokens, &spans(&r, &tokens, self.tok)?, self.cache_prompt)
                .map_err(|e| e.to_string())?;
            let (_, _, ids) = assumed_reply(self.case, &self.decoded[a], a, &r, &p, self.tok)?;
            s.decoded(&ids).map_err(|e| e.to_string())?;
        }
        Ok(())
    }
}

fn checkpoint_view(
    memory: slot::Memory,
    held: Vec<slot::Checkpoint>,
    spans: &slot::Spans,
    o: slot::Outcome,
) -> Checkpoints {
    let what = match (memory.swa, memory.recurrent) {
        (_, true) => "recurrent layers (one state per sequence)".to_string(),
        (Some((n, _)), false) => format!("sliding-window attention (n_swa {n})"),
        (None, false) => "full attention".to_string(),
    };
    let why = if let Some(c) = &o.restored {
        format!(
            "the memory ({what}) no longer holds what the cached prefix of {} tokens needs: llama-server restored the checkpoint made at token {} (request {}) and reuses {} tokens",
            o.common_prefix, c.n_tokens, c.request, o.cache_n
        )
    } else if o.reset {
        format!(
            "the memory ({what}) no longer holds what the cached prefix of {} tokens needs and no checkpoint covers it: llama-server evaluates the whole prompt again",
            o.common_prefix
        )
    } else {
        format!("the memory ({what}) still holds the cached prefix: no checkpoint needed")
    };
    Checkpoints {
        memory: what,
        n_swa: memory.swa.map(|(n, _)| n),
        recurrent: memory.recurrent,
        held,
        user_starts: spans.user_starts(),
        pos_min: o.pos_min,
        restored: o.restored,
        reset: o.reset,
        why,
    }
}

fn snippet(s: &str) -> String {
    s.chars().take(40).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_slot_holds_all_but_the_last_sampled_token() {
        assert_eq!(slot_after(&[1, 2, 3], &[7, 8, 9]), vec![1, 2, 3, 7, 8]);
        assert_eq!(slot_after(&[1, 2], &[]), vec![1, 2]);
        assert_eq!(slot_after(&[1, 2], &[5]), vec![1, 2]);
    }

    #[test]
    fn reuse_is_the_common_prefix_with_one_token_evaluated() {
        // The new prompt extends the held tokens.
        let r = reuse(&[1, 2, 3], &[1, 2, 3, 4, 5]);
        assert_eq!((r.common_prefix, r.cache_n, r.prompt_n), (3, 3, 2));
        assert_eq!(r.first_difference(), None);
        assert_eq!(r.prompt_eval_count(), 5);
        // A break at token 1.
        let r = reuse(&[1, 2, 3], &[1, 9, 3, 4]);
        assert_eq!((r.cache_n, r.prompt_n), (1, 3));
        assert_eq!(r.first_difference(), Some(1));
        // The same prompt again: one token is evaluated anyway.
        let r = reuse(&[1, 2, 3], &[1, 2, 3]);
        assert_eq!((r.common_prefix, r.cache_n, r.prompt_n), (3, 2, 1));
        // A shorter prompt inside the cache.
        let r = reuse(&[1, 2, 3, 4], &[1, 2]);
        assert_eq!((r.cache_n, r.prompt_n), (1, 1));
        // Nothing held.
        let r = reuse(&[], &[1, 2]);
        assert_eq!((r.cache_n, r.prompt_n), (0, 2));
    }

    /// v0.30.0 reports prompt_n alone (llm/llama_server_test.go
    /// TestLlamaServerCompletionPromptEvalCountIncludesCache, added with
    /// `prompt_eval_count_includes_cache`: cache_n 12, prompt_n 5 -> 17),
    /// and before v0.30.8-rc0 a request with `"shift": false` runs without
    /// cache_prompt, so nothing is reused.
    #[test]
    fn reuse_by_release() {
        let at = |tag: &str| changes::Rules::of_release(changes::Release::parse(tag).unwrap());
        let held: Vec<u32> = (0..12).collect();
        let prompt: Vec<u32> = (0..17).collect();
        let r = reuse_in(&held, &prompt, true, &at("0.30.1-rc0"));
        assert_eq!((r.cache_n, r.prompt_n, r.prompt_eval_count()), (12, 5, 17));
        let rules = at("0.30.0");
        let r = reuse_in(&held, &prompt, true, &rules);
        assert_eq!((r.cache_n, r.prompt_n, r.prompt_eval_count()), (12, 5, 5));
        assert_eq!(
            rules.applied(),
            [&changes::ollama::PROMPT_EVAL_COUNT_INCLUDES_CACHE]
        );
        // a first turn: the same count either way, and no row consulted
        let rules = at("0.30.0");
        let r = reuse_in(&[], &prompt, true, &rules);
        assert_eq!(r.prompt_eval_count(), 17);
        assert!(rules.applied().is_empty());
        // cache_prompt false: everything evaluated again
        let r = reuse_in(&held, &prompt, false, &at("0.30.7"));
        assert_eq!(
            (
                r.common_prefix,
                r.cache_n,
                r.prompt_n,
                r.prompt_eval_count()
            ),
            (12, 0, 17, 17)
        );
    }

    #[test]
    fn offsets_follow_the_pieces() {
        let o = piece_offsets("ab<x>c", &[b"ab", b"<x>", b"c"]).unwrap();
        assert_eq!(o, vec![0, 2, 5, 6]);
        // A BOS added in front takes no bytes.
        let o = piece_offsets("hi", &[b"<s>", b"hi"]).unwrap();
        assert_eq!(o, vec![0, 0, 2]);
        // SentencePiece's leading space.
        let o = piece_offsets("Hi there", &[b"<s>", b" Hi", b" there"]).unwrap();
        assert_eq!(o, vec![0, 0, 2, 8]);
        assert_eq!(piece_offsets("abc", &[b"ab", b"x"]), None);
        assert_eq!(piece_offsets("abc", &[b"ab"]), None);
    }

    fn turns() -> Vec<Turn<'static>> {
        vec![
            Turn {
                role: "user",
                content: "Hi",
                ..Turn::default()
            },
            Turn {
                role: "assistant",
                content: "Hello",
                thinking: "greet back",
                tool_calls: false,
            },
            Turn {
                role: "user",
                content: "Bye",
                ..Turn::default()
            },
        ]
    }

    #[test]
    fn a_template_that_drops_old_thinking_breaks_at_the_reply() {
        let prev = "<u>Hi</u><a>";
        let held = format!("{prev}<think>greet back</think>Hello");
        let text = "<u>Hi</u><a>Hello</a><u>Bye</u><a>";
        let b = explain_break(&held, prev.len(), text, Some(prev.len()), &turns(), 1);
        assert_eq!(b.kind, "reply");
        assert_eq!(b.message, Some(1));
        assert!(b.cause.contains("drops the thinking"), "{}", b.cause);
    }

    #[test]
    fn a_generation_prompt_the_finished_turn_does_not_repeat() {
        let prev = "<u>Hi</u><a><think></think>";
        let held = format!("{prev}Hello");
        let text = "<u>Hi</u><a>Hello</a><u>Bye</u><a>";
        let at = "<u>Hi</u><a>".len();
        let mut t = turns();
        t[1].thinking = "";
        let b = explain_break(&held, prev.len(), text, Some(at), &t, 1);
        assert_eq!(b.kind, "generation-prompt", "{}", b.cause);
        // with thinking the template left out: the thinking is the cause
        let b = explain_break(&held, prev.len(), text, Some(at), &turns(), 1);
        assert_eq!(b.kind, "reply", "{}", b.cause);
    }

    #[test]
    fn an_earlier_rewrite_names_the_message() {
        let prev = "<s>sys A</s><u>Hi</u><a>";
        let held = format!("{prev}Hello");
        let text = "<s>sys B</s><u>Hi</u><a>Hello</a><u>Bye</u><a>";
        let mut t = turns();
        t.insert(
            0,
            Turn {
                role: "system",
                content: "sys",
                ..Turn::default()
            },
        );
        let b = explain_break(&held, prev.len(), text, Some(7), &t, 2);
        assert_eq!(b.kind, "earlier");
        assert_eq!(b.message, Some(1), "{}", b.cause);
        assert!(b.cause.contains("before message 1"), "{}", b.cause);
    }

    #[test]
    fn no_break_and_a_tokenization_seam() {
        let b = explain_break("ab", 1, "abc", None, &turns(), 1);
        assert_eq!(b.kind, "none");
        let b = explain_break("ab", 1, "abc", Some(1), &turns(), 1);
        assert_eq!(b.kind, "tokenization");
    }
}
