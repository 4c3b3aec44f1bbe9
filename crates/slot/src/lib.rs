//! llama-server's slot from one request to the next, as
//! `tools/server/server-context.cpp` keeps it: which part of a new prompt
//! it takes from its cache (`cache_n`), and the context checkpoints that
//! decide it for models whose memory cannot be cut back to any position.
//!
//! A model with only full attention can drop any suffix of its KV cache,
//! so the slot reuses the longest common prefix of what it holds and the
//! new prompt. A model with sliding-window attention (gemma 2, 3 and 4,
//! gpt-oss, Cohere 2, ...) keeps only the last `n_swa + n_ubatch` or so
//! positions of its windowed layers, and a recurrent or hybrid model
//! (Mamba, RWKV, LFM2, Qwen 3.5, Nemotron-H, Granite 4, ...) keeps one
//! state per sequence: their cache can be reused only from a *checkpoint*
//! the server saved while it processed an earlier prompt. This crate runs
//! that bookkeeping as the server does: the prompt's batches (where they
//! break, at the handler's user-message starts and a few tokens before the
//! end), which checkpoints it makes and evicts, the sliding-window
//! cache's cells (`src/llama-kv-cache.cpp` `find_slot`, `apply_ubatch`,
//! `seq_rm`), and which checkpoint the next request restores.
//!
//! Token lists in, figures out: the caller renders, tokenizes and finds
//! the message delimiters' tokens. The build's rows (`changes::llamacpp`,
//! area `cache`) select what differs between llama.cpp builds.

use changes::llamacpp as lc;
use changes::Rules;
use serde::{Deserialize, Serialize};

/// A message role, as `common_chat_msg_delimiters` names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// `system` (and `developer`).
    System,
    /// `assistant`.
    Assistant,
    /// `user`.
    User,
    /// `tool`.
    Tool,
}

impl Role {
    /// `common_chat_role_from_string`; `None` for any other name.
    pub fn parse(s: &str) -> Option<Role> {
        match s {
            "system" => Some(Role::System),
            "assistant" => Some(Role::Assistant),
            "user" => Some(Role::User),
            "tool" => Some(Role::Tool),
            _ => None,
        }
    }
}

/// One message delimiter, tokenized (`common_tokenize(vocab, delimiter,
/// false, true)`: no BOS, special tokens parsed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Delimiter {
    /// Its role (`None`: a name llama.cpp does not know, which matches but
    /// starts no user message).
    pub role: Option<Role>,
    /// Its tokens.
    pub tokens: Vec<u32>,
}

/// Where messages start in a prompt (`common_chat_msg_spans`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Spans {
    starts: Vec<(Option<Role>, usize)>,
}

impl Spans {
    /// `common_chat_msg_delimiters::split`: at each token, the first
    /// delimiter whose tokens start there.
    pub fn find(tokens: &[u32], delimiters: &[Delimiter]) -> Spans {
        let mut starts = Vec::new();
        for i in 0..tokens.len() {
            if let Some(d) = delimiters
                .iter()
                .find(|d| i + d.tokens.len() <= tokens.len() && tokens[i..].starts_with(&d.tokens))
            {
                starts.push((d.role, i));
            }
        }
        Spans { starts }
    }

    /// `is_user_start`.
    pub fn is_user_start(&self, pos: usize) -> bool {
        self.starts
            .iter()
            .any(|&(r, p)| r == Some(Role::User) && p == pos)
    }

    /// `last_user_message_pos` (`None` for -1).
    pub fn last_user(&self) -> Option<usize> {
        self.starts
            .iter()
            .rev()
            .find(|(r, _)| *r == Some(Role::User))
            .map(|&(_, p)| p)
    }

    /// The token positions where user messages start.
    pub fn user_starts(&self) -> Vec<usize> {
        self.starts
            .iter()
            .filter(|(r, _)| *r == Some(Role::User))
            .map(|&(_, p)| p)
            .collect()
    }
}

/// `llama_swa_type`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SwaType {
    /// A window of `n_swa` positions behind each token.
    Standard,
    /// Chunks of `n_swa` positions (llama 4).
    Chunked,
    /// `n_swa / 2` positions on either side (embedding models).
    Symmetric,
}

/// What a model's memory can give back (`llama_model::create_memory`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Memory {
    /// `n_swa` and the window's kind, for a model with sliding-window
    /// layers (`llama_model_n_swa`; `--swa-full` is never passed by Ollama).
    pub swa: Option<(u32, SwaType)>,
    /// Recurrent layers (`llm_arch_is_recurrent` or `llm_arch_is_hybrid`):
    /// one state per sequence, which cannot be cut back.
    pub recurrent: bool,
}

impl Memory {
    /// Full attention only: every prefix of the cache can be reused.
    pub const ATTENTION: Memory = Memory {
        swa: None,
        recurrent: false,
    };

    /// Whether the server makes checkpoints for it (`ctx_tgt_seq_rm_type`
    /// FULL or RS, or `n_swa > 0`).
    pub fn checkpoints(&self) -> bool {
        self.recurrent || self.n_swa() > 0
    }

    fn n_swa(&self) -> i32 {
        self.swa.map_or(0, |(n, _)| n as i32)
    }
}

/// Recurrent architectures (`llm_arch_is_recurrent`, src/llama-arch.cpp at
/// b10488), by their `general.architecture` names.
pub const RECURRENT_ARCHS: &[&str] = &["mamba", "mamba2", "rwkv6", "rwkv6qwen2", "rwkv7", "arwkv7"];

/// Hybrid architectures (`llm_arch_is_hybrid`): attention and recurrent
/// layers; the recurrent state decides what can be reused.
pub const HYBRID_ARCHS: &[&str] = &[
    "jamba",
    "falcon-h1",
    "plamo2",
    "granitehybrid",
    "lfm2",
    "lfm2moe",
    "nemotron_h",
    "nemotron_h_moe",
    "qwen3next",
    "kimi-linear",
    "bailingmoe3",
    "kimi-k3",
    "qwen35",
    "qwen35moe",
    "deepseek4",
    "minimax-01",
];

/// How an architecture's loader sets its sliding window (src/models/*.cpp
/// `load_arch_hparams` at b10488) from `<arch>.attention.sliding_window`.
#[derive(Clone, Copy)]
enum Window {
    /// The key's window, when it is there and above 0 (gemma3, olmo2,
    /// plamo3, lfm2, afmoe, laguna, mellum; and the loaders that require
    /// the key).
    Key,
    /// The key's window, else this one (gemma2).
    KeyOr(u32),
    /// This window when the key is there and above 0, whatever it says
    /// (smallthinker).
    FixedIfKey(u32),
    /// This window unless the key is there and 0 (llama4).
    FixedUnlessZero(u32),
    /// The key's window, else this one, for a model of this many layers;
    /// others have none (exaone4: its 32B).
    KeyOrForLayers(u32, u64),
}

/// The architectures with windowed layers.
const SWA_ARCHS: &[(&str, Window, SwaType)] = &[
    ("gemma2", Window::KeyOr(4096), SwaType::Standard),
    ("gemma3", Window::Key, SwaType::Standard),
    ("gemma3n", Window::Key, SwaType::Standard),
    ("gemma4", Window::Key, SwaType::Standard),
    ("gemma-embedding", Window::Key, SwaType::Symmetric),
    ("cohere2", Window::Key, SwaType::Standard),
    ("cohere2moe", Window::Key, SwaType::Standard),
    ("gpt-oss", Window::Key, SwaType::Standard),
    (
        "exaone4",
        Window::KeyOrForLayers(4096, 64),
        SwaType::Standard,
    ),
    ("exaone-moe", Window::Key, SwaType::Standard),
    ("olmo2", Window::Key, SwaType::Standard),
    ("plamo3", Window::Key, SwaType::Standard),
    ("llama4", Window::FixedUnlessZero(8192), SwaType::Chunked),
    ("step35", Window::Key, SwaType::Standard),
    ("muse-glimmer", Window::Key, SwaType::Standard),
    ("afmoe", Window::Key, SwaType::Standard),
    ("laguna", Window::Key, SwaType::Standard),
    ("mellum", Window::Key, SwaType::Standard),
    ("mimo2", Window::Key, SwaType::Standard),
    ("smallthinker", Window::FixedIfKey(4096), SwaType::Standard),
    ("lfm2", Window::Key, SwaType::Standard),
];

impl Memory {
    /// The memory of a model with `general.architecture` `arch`, the
    /// GGUF's `<arch>.attention.sliding_window` (if any) and its
    /// `<arch>.block_count`.
    pub fn of(arch: &str, sliding_window: Option<u64>, block_count: Option<u64>) -> Memory {
        let recurrent = RECURRENT_ARCHS.contains(&arch) || HYBRID_ARCHS.contains(&arch);
        let key = sliding_window.map(|n| n as u32);
        let swa = SWA_ARCHS
            .iter()
            .find(|(a, _, _)| *a == arch)
            .and_then(|&(_, window, kind)| {
                let n = match window {
                    Window::Key => key,
                    Window::KeyOr(d) => key.or(Some(d)),
                    Window::FixedIfKey(d) => key.filter(|&k| k > 0).map(|_| d),
                    Window::FixedUnlessZero(d) => (key != Some(0)).then_some(d),
                    Window::KeyOrForLayers(d, layers) => {
                        (block_count == Some(layers)).then(|| key.unwrap_or(d))
                    }
                };
                n.filter(|&n| n > 0).map(|n| (n, kind))
            });
        Memory { swa, recurrent }
    }
}

/// The server's parameters that the bookkeeping reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Params {
    /// `n_ctx` as the context has it (`-c`, padded to 256).
    pub n_ctx: u32,
    /// `-b`.
    pub n_batch: u32,
    /// `-ub`.
    pub n_ubatch: u32,
    /// `--ctx-checkpoints` (32).
    pub n_ctx_checkpoints: u32,
    /// `--checkpoint-min-step` (8192).
    pub checkpoint_min_step: u32,
}

impl Params {
    /// As Ollama starts llama-server (llm/llama_server.go): `-c num_ctx -np
    /// 1`, `-b` and `-ub` both `num_batch`, the checkpoint defaults of
    /// common/common.h.
    pub fn ollama(num_ctx: u32, num_batch: u32) -> Params {
        Params {
            n_ctx: num_ctx.min(u32::MAX - 255).div_ceil(256) * 256,
            n_batch: num_batch.max(1),
            n_ubatch: num_batch.max(1),
            n_ctx_checkpoints: 32,
            checkpoint_min_step: 8192,
        }
    }

    /// The sliding-window cache's cells (`llama_kv_cache_iswa`: the window
    /// plus a ubatch, at most the context, padded to 256).
    fn swa_cells(&self, n_swa: u32) -> usize {
        let cells = self.n_ctx.min(n_swa.saturating_add(self.n_ubatch));
        (u64::from(cells).div_ceil(256) * 256) as usize
    }
}

/// A saved context checkpoint (`common_prompt_checkpoint`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Checkpoint {
    /// The slot's tokens when it was made (the batch after it not yet
    /// decoded).
    pub n_tokens: usize,
    /// The memory's lowest position then.
    pub pos_min: i32,
    /// The memory's highest position then.
    pub pos_max: i32,
    /// The request (1 = the first) that made it.
    pub request: u32,
    #[serde(skip)]
    cells: Vec<i32>,
}

/// What one request took from the slot.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// The longest common prefix of the slot and the prompt.
    pub common_prefix: usize,
    /// `cache_n`: the tokens taken from the cache.
    pub cache_n: usize,
    /// The checkpoint restored, when the memory could not be cut back.
    pub restored: Option<Checkpoint>,
    /// True when no checkpoint served and the whole prompt was evaluated
    /// again ("forcing full prompt re-processing").
    pub reset: bool,
    /// The memory's lowest position when the request came, and the lowest
    /// it had to reach back to (`pos_min_thold`), when the cache was asked.
    pub pos_min: Option<(i32, i32)>,
    /// The checkpoints the slot holds once the prompt is processed.
    pub checkpoints: Vec<Checkpoint>,
}

/// The build's behaviour, read once from its rows.
#[derive(Clone, Copy, Debug)]
struct Switches {
    thold_new_tokens: bool,
    pos_max_guard: bool,
    user_break_spaced: bool,
    near_end_spacing: bool,
    evict_spaced: bool,
    evict_when_full: bool,
}

impl Switches {
    /// The build's switches; `note` records the rows as consulted (only
    /// where they can change the figures: a model that makes checkpoints).
    fn of(rules: &Rules, note: bool) -> Switches {
        let on = |c: &'static changes::Change| if note { rules.on(c) } else { rules.has(c) };
        Switches {
            thold_new_tokens: on(&lc::CHECKPOINT_THOLD_NEW_TOKENS),
            pos_max_guard: on(&lc::CHECKPOINT_POS_MAX_GUARD),
            user_break_spaced: on(&lc::CHECKPOINT_USER_BREAK_SPACED),
            near_end_spacing: on(&lc::CHECKPOINT_NEAR_END_SPACING),
            evict_spaced: on(&lc::CHECKPOINT_EVICT_SPACED),
            evict_when_full: on(&lc::CHECKPOINT_EVICT_WHEN_FULL),
        }
    }
}

/// The sliding-window layers' KV cells of one sequence
/// (src/llama-kv-cache.cpp, `cont = false`): `-1` is an empty cell. Only
/// the cells ever written are stored (`pos`); the others up to `size` are
/// empty, so a huge `num_ctx` or `num_batch` costs nothing.
#[derive(Clone, Debug)]
struct Cells {
    pos: Vec<i32>,
    size: usize,
    head: usize,
    n_swa: i32,
    kind: SwaType,
}

impl Cells {
    fn new(size: usize, n_swa: u32, kind: SwaType) -> Cells {
        Cells {
            pos: Vec::new(),
            size,
            head: 0,
            n_swa: n_swa as i32,
            kind,
        }
    }

    /// `llama_hparams::is_masked_swa`.
    fn masked(&self, p0: i32, p1: i32) -> bool {
        match self.kind {
            SwaType::Standard => p1 - p0 >= self.n_swa,
            SwaType::Chunked => p0 < (p1 / self.n_swa) * self.n_swa,
            SwaType::Symmetric => {
                let half = self.n_swa / 2;
                let d = p1 - p0;
                d < -half || d > half
            }
        }
    }

    fn used(&self) -> usize {
        self.pos.iter().filter(|&&p| p >= 0).count()
    }

    fn pos_min(&self) -> i32 {
        self.pos
            .iter()
            .copied()
            .filter(|&p| p >= 0)
            .min()
            .unwrap_or(-1)
    }

    fn pos_max(&self) -> i32 {
        self.pos.iter().copied().max().unwrap_or(-1)
    }

    fn at(&self, idx: usize) -> i32 {
        self.pos.get(idx).copied().unwrap_or(-1)
    }

    /// `find_slot(ubatch, false)`: the cells the ubatch's tokens go to.
    fn find_slot(&self, n: usize) -> Option<Vec<usize>> {
        let size = self.size;
        if n > size {
            return None;
        }
        let mut head = self.head;
        if head > self.used() + 2 * n {
            head = 0;
        }
        let max = self.pos_max();
        let mut tested = 0;
        let mut idxs = Vec::with_capacity(n);
        loop {
            if head + 1 > size {
                tested += size - head;
                head = 0;
                continue;
            }
            let idx = head;
            head += 1;
            tested += 1;
            let p = self.at(idx);
            if p < 0 || self.masked(p, max + 1) {
                idxs.push(idx);
            }
            if idxs.len() == n {
                return Some(idxs);
            }
            if tested >= size {
                return None;
            }
        }
    }

    /// `apply_ubatch`: the tokens placed, the positions at or below any
    /// overwritten one purged, the head after the last cell.
    fn apply(&mut self, idxs: &[usize], positions: &[i32]) {
        let mut rm_max = -1;
        for (&idx, &p) in idxs.iter().zip(positions) {
            if self.at(idx) >= 0 {
                rm_max = rm_max.max(self.at(idx));
            }
            if idx >= self.pos.len() {
                self.pos.resize(idx + 1, -1);
            }
            self.pos[idx] = p;
        }
        if rm_max >= 0 && self.pos_min() <= rm_max {
            self.seq_rm(self.pos_min(), rm_max + 1);
        }
        if let Some(&last) = idxs.last() {
            self.head = last + 1;
        }
    }

    /// `seq_rm(seq, p0, p1)`: `p0 < 0` from the start, `p1 < 0` to the end.
    fn seq_rm(&mut self, p0: i32, p1: i32) {
        let p0 = p0.max(0);
        let p1 = if p1 < 0 { i32::MAX } else { p1 };
        let mut new_head = None;
        for (i, p) in self.pos.iter_mut().enumerate() {
            if *p >= 0 && *p >= p0 && *p < p1 {
                *p = -1;
                new_head.get_or_insert(i);
            }
        }
        if let Some(h) = new_head.filter(|&h| h < self.head) {
            self.head = h;
        }
    }

    /// A ubatch of `positions`; `false` when no cells could take it.
    fn decode(&mut self, positions: &[i32]) -> bool {
        match self.find_slot(positions.len()) {
            Some(idxs) => {
                self.apply(&idxs, positions);
                true
            }
            None => false,
        }
    }

    /// The sequence's positions in cell order (`state_write`).
    fn snapshot(&self) -> Vec<i32> {
        self.pos.iter().copied().filter(|&p| p >= 0).collect()
    }

    /// `state_read` of one sequence: cleared, then the saved positions
    /// placed as a ubatch.
    fn restore(&mut self, saved: &[i32]) -> bool {
        self.seq_rm(-1, -1);
        saved.is_empty() || self.decode(saved)
    }
}

/// A slot: what it holds, its checkpoints and its memory's state.
#[derive(Clone, Debug)]
pub struct Slot {
    params: Params,
    memory: Memory,
    rules: Switches,
    tokens: Vec<u32>,
    checkpoints: Vec<Checkpoint>,
    cells: Option<Cells>,
    /// The recurrent state's position (-1: none).
    recurrent_pos: i32,
    request: u32,
}

/// Why the bookkeeping could not follow the server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error(pub String);

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl Slot {
    /// An empty slot of a model with `memory`, under the build's `rules`
    /// (the rows consulted are noted there).
    pub fn new(params: Params, memory: Memory, rules: &Rules) -> Slot {
        let cells = memory
            .swa
            .map(|(n, kind)| Cells::new(params.swa_cells(n), n, kind));
        Slot {
            params,
            memory,
            rules: Switches::of(rules, memory.checkpoints()),
            tokens: Vec::new(),
            checkpoints: Vec::new(),
            cells,
            recurrent_pos: -1,
            request: 0,
        }
    }

    /// The tokens the slot holds.
    pub fn tokens(&self) -> &[u32] {
        &self.tokens
    }

    /// The checkpoints the slot holds.
    pub fn checkpoints(&self) -> &[Checkpoint] {
        &self.checkpoints
    }

    /// `llama_memory_seq_pos_min`: the recurrent state's position for a
    /// recurrent or hybrid model, the window's lowest cell for a windowed
    /// one, else 0 (-1 when empty).
    fn pos_min(&self) -> i32 {
        if self.tokens.is_empty() {
            return -1;
        }
        if self.memory.recurrent {
            self.recurrent_pos
        } else if let Some(c) = &self.cells {
            c.pos_min()
        } else {
            0
        }
    }

    fn pos_max(&self) -> i32 {
        self.tokens.len() as i32 - 1
    }

    /// The memory cut back to its first `n` positions (`seq_rm(id, n,
    /// -1)`).
    fn keep(&mut self, n: usize) {
        self.tokens.truncate(n);
        if let Some(c) = &mut self.cells {
            c.seq_rm(n as i32, -1);
        }
        if self.recurrent_pos >= n as i32 {
            self.recurrent_pos = -1;
        }
    }

    /// One decode of the tokens from `from` (already in `tokens`), split
    /// into ubatches.
    fn decode(&mut self, from: usize) -> Result<(), Error> {
        let to = self.tokens.len();
        if let Some(c) = &mut self.cells {
            let mut p = from;
            while p < to {
                let q = (p + self.params.n_ubatch as usize).min(to);
                let positions: Vec<i32> = (p as i32..q as i32).collect();
                if !c.decode(&positions) {
                    return Err(Error(format!(
                        "the sliding-window cache ({} cells) has no room for positions {p}..{q}",
                        c.size
                    )));
                }
                p = q;
            }
        }
        if self.memory.recurrent && to > from {
            self.recurrent_pos = to as i32 - 1;
        }
        Ok(())
    }

    fn create_checkpoint(&mut self, n_cur: usize, pos_min: i32, pos_max: i32) {
        let step = self.params.checkpoint_min_step as usize;
        let full = self.params.n_ctx_checkpoints as usize;
        if self.rules.evict_spaced {
            let mut last: Option<usize> = None;
            let mut i = 0;
            while i < self.checkpoints.len()
                && (!self.rules.evict_when_full || self.checkpoints.len() + 1 >= full)
            {
                let c = &self.checkpoints[i];
                if c.request != self.request && last.is_some_and(|l| c.n_tokens <= l + step) {
                    self.checkpoints.remove(i);
                    continue;
                }
                last = Some(c.n_tokens);
                i += 1;
            }
        }
        while self.checkpoints.len() >= full {
            self.checkpoints.remove(0);
        }
        let n_tokens = self.tokens.len() - n_cur;
        if self.rules.evict_when_full {
            self.checkpoints.retain(|c| c.n_tokens != n_tokens);
        }
        self.checkpoints.push(Checkpoint {
            n_tokens,
            pos_min,
            pos_max,
            request: self.request,
            cells: self.cells.as_ref().map(Cells::snapshot).unwrap_or_default(),
        });
    }

    /// A completion request for `prompt` (its message starts in `spans`):
    /// what the slot reuses, then the prompt processed as the server
    /// batches it. `cache_prompt` false reuses nothing.
    pub fn request(
        &mut self,
        prompt: &[u32],
        spans: &Spans,
        cache_prompt: bool,
    ) -> Result<Outcome, Error> {
        self.request += 1;
        let n = prompt.len();
        let common_prefix = self
            .tokens
            .iter()
            .zip(prompt)
            .take_while(|(a, b)| a == b)
            .count();
        let mut n_past = if cache_prompt { common_prefix } else { 0 };
        let mut pos_next = n_past as i32;
        let n_swa = self.memory.n_swa();
        let thold = if self.rules.thold_new_tokens {
            (pos_next - n_swa - i32::from(n_past >= n)).max(0)
        } else {
            (pos_next - n_swa - 1).max(0)
        };
        let mut restored = None;
        let mut reset = false;
        let mut pos_min_seen = None;
        if n_past > 0 && n_past <= self.tokens.len() {
            let pos_min = self.pos_min();
            pos_min_seen = Some((pos_min, thold));
            if pos_min >= thold {
                let guard = self.rules.pos_max_guard;
                let found = self.checkpoints.iter().rposition(|c| {
                    if guard && c.pos_max > pos_next {
                        return false;
                    }
                    c.pos_min < thold || c.pos_min == 0
                });
                match found {
                    Some(i) => {
                        let c = self.checkpoints[i].clone();
                        if let Some(cells) = &mut self.cells {
                            if !cells.restore(&c.cells) {
                                return Err(Error("a checkpoint's cells do not fit".into()));
                            }
                        }
                        if self.memory.recurrent {
                            self.recurrent_pos = c.pos_max;
                        }
                        pos_next = pos_next.min((c.pos_min + 1).max(c.pos_max));
                        n_past = (pos_next.max(0) as usize).min(c.n_tokens);
                        restored = Some(c);
                    }
                    None => {
                        reset = true;
                        pos_next = 0;
                        n_past = 0;
                    }
                }
            }
        }
        self.checkpoints.retain(|c| c.pos_max <= pos_next);
        if n_past == n && n_past > 0 {
            n_past -= 1;
        }
        let cache_n = n_past;
        self.keep(n_past);
        self.process(prompt, spans)?;
        Ok(Outcome {
            common_prefix,
            cache_n,
            restored,
            reset,
            pos_min: pos_min_seen,
            checkpoints: self.checkpoints.clone(),
        })
    }

    /// The prompt's batches from what the slot kept, with the checkpoints
    /// made before each.
    fn process(&mut self, prompt: &[u32], spans: &Spans) -> Result<(), Error> {
        let n = prompt.len();
        let n_batch = self.params.n_batch as usize;
        let n_ubatch = self.params.n_ubatch as usize;
        let step = self.params.checkpoint_min_step as usize;
        let checkpointing = self.params.n_ctx_checkpoints > 0 && self.memory.checkpoints();
        let last_user = spans.last_user();
        while self.tokens.len() < n {
            let start = self.tokens.len();
            let mut do_checkpoint = checkpointing;
            while self.tokens.len() < n && self.tokens.len() - start < n_batch {
                self.tokens.push(prompt[self.tokens.len()]);
                let cur = self.tokens.len();
                if spans.is_user_start(cur) {
                    if !self.rules.user_break_spaced {
                        break;
                    }
                    if do_checkpoint
                        && (Some(cur) == last_user
                            || self
                                .checkpoints
                                .last()
                                .is_none_or(|c| cur > c.n_tokens + step))
                    {
                        break;
                    }
                }
                if do_checkpoint
                    && [4 + n_ubatch, 4]
                        .iter()
                        .any(|&off| n == cur + n_batch.min(off))
                {
                    break;
                }
            }
            let n_cur = self.tokens.len() - start;
            let near_end = n < self.tokens.len() + n_ubatch;
            let is_user_start = spans.is_user_start(start);
            let is_last_user = Some(start) == last_user;
            if self.tokens.len() < n && !is_user_start && !near_end {
                do_checkpoint = false;
            }
            // the memory before this batch: the slot's tokens less the batch
            let (pos_min, pos_max) = {
                let held = std::mem::take(&mut self.tokens);
                self.tokens = held[..start].to_vec();
                let r = (self.pos_min(), self.pos_max());
                self.tokens = held;
                r
            };
            if pos_min < 0 {
                do_checkpoint = false;
            }
            do_checkpoint = do_checkpoint
                && (self.checkpoints.is_empty()
                    || is_last_user
                    || (self.rules.near_end_spacing && near_end)
                    || self
                        .checkpoints
                        .last()
                        .is_some_and(|c| start > c.n_tokens + step));
            if do_checkpoint {
                self.create_checkpoint(n_cur, pos_min, pos_max);
            }
            self.decode(start)?;
        }
        Ok(())
    }

    /// Tokens the model generated and the server decoded, one at a time
    /// (a reply whose ending token is not among them).
    pub fn decoded(&mut self, tokens: &[u32]) -> Result<(), Error> {
        for &t in tokens {
            self.tokens.push(t);
            self.decode(self.tokens.len() - 1)?;
        }
        Ok(())
    }

    /// The reply: every generated token but the last is decoded, one at a
    /// time (the last is sampled and never decoded).
    pub fn generate(&mut self, generated: &[u32]) -> Result<(), Error> {
        self.decoded(&generated[..generated.len().saturating_sub(1)])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use changes::llamacpp::Build;

    fn rules() -> Rules {
        Rules::new(Build::B10488)
    }

    fn toks(n: usize, base: u32) -> Vec<u32> {
        (0..n as u32).map(|i| base + i).collect()
    }

    #[test]
    fn full_attention_reuses_the_common_prefix() {
        let mut s = Slot::new(Params::ollama(4096, 512), Memory::ATTENTION, &rules());
        let p1 = toks(100, 0);
        let o = s.request(&p1, &Spans::default(), true).unwrap();
        assert_eq!(o.cache_n, 0);
        s.generate(&toks(10, 1000)).unwrap();
        let mut p2 = p1.clone();
        p2.extend(toks(9, 1000));
        p2.extend(toks(20, 5000));
        let o = s.request(&p2, &Spans::default(), true).unwrap();
        assert_eq!(o.cache_n, 109);
        assert!(o.checkpoints.is_empty());
    }

    #[test]
    fn a_short_windowed_conversation_goes_back_to_the_checkpoint_before_the_end() {
        // gemma 3 270M: n_swa 512; the whole conversation within the
        // window, so pos_min 0 is never below the threshold 0
        let mem = Memory::of("gemma3", Some(512), None);
        let mut s = Slot::new(Params::ollama(4096, 512), mem, &rules());
        let p1 = toks(100, 0);
        s.request(&p1, &Spans::default(), true).unwrap();
        assert_eq!(
            s.checkpoints.iter().map(|c| c.n_tokens).collect::<Vec<_>>(),
            [96]
        );
        s.generate(&toks(10, 1000)).unwrap();
        let mut p2 = p1.clone();
        p2.extend(toks(9, 1000));
        p2.extend(toks(20, 5000));
        let o = s.request(&p2, &Spans::default(), true).unwrap();
        assert_eq!(o.restored.as_ref().map(|c| c.n_tokens), Some(96));
        assert_eq!(o.cache_n, 95);
    }

    #[test]
    fn a_recurrent_model_needs_a_checkpoint_unless_the_prompt_extends_the_slot() {
        let mem = Memory::of("mamba", None, None);
        let mut s = Slot::new(Params::ollama(4096, 512), mem, &rules());
        let p1 = toks(50, 0);
        s.request(&p1, &Spans::default(), true).unwrap();
        // the prompt extends everything held: no checkpoint needed
        let mut p2 = p1.clone();
        p2.extend(toks(5, 900));
        let o = s.request(&p2, &Spans::default(), true).unwrap();
        assert_eq!(
            (o.cache_n, o.restored.is_none(), o.reset),
            (50, true, false)
        );
        // a prompt that parts from the slot at 52 restores the latest
        // checkpoint at or before it
        let mut p3 = p2[..52].to_vec();
        p3.extend(toks(5, 7000));
        let o = s.request(&p3, &Spans::default(), true).unwrap();
        assert_eq!(o.restored.map(|c| c.n_tokens), Some(51));
        assert_eq!(o.cache_n, 51);
    }

    #[test]
    fn the_window_is_read_as_each_loader_reads_it() {
        let w = |arch, key, layers| Memory::of(arch, key, layers).swa.map(|(n, _)| n);
        assert_eq!(w("gemma3", Some(512), None), Some(512));
        assert_eq!(w("gemma3", None, None), None);
        assert_eq!(w("gemma2", None, None), Some(4096));
        assert_eq!(w("gemma2", Some(2048), None), Some(2048));
        assert_eq!(w("smallthinker", Some(1024), None), Some(4096));
        assert_eq!(w("smallthinker", None, None), None);
        assert_eq!(w("llama4", None, None), Some(8192));
        assert_eq!(w("llama4", Some(0), None), None);
        assert_eq!(w("exaone4", None, Some(64)), Some(4096));
        assert_eq!(w("exaone4", None, Some(30)), None);
        assert_eq!(w("llama", Some(4096), None), None);
        let m = Memory::of("qwen35", None, None);
        assert!(m.recurrent && m.checkpoints());
        assert!(!Memory::of("llama", None, None).checkpoints());
    }

    #[test]
    fn random_conversations_keep_the_servers_invariants() {
        // a small LCG: conversations that grow, part early, rewind and
        // regenerate, over every kind of memory and build
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: u64| {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            (seed >> 33) % n.max(1)
        };
        let memories = [
            Memory::ATTENTION,
            Memory::of("gemma3", Some(64), None),
            Memory::of("llama4", None, None),
            Memory::of("gemma-embedding", Some(64), None),
            Memory::of("mamba", None, None),
            Memory::of("lfm2", Some(32), None),
        ];
        for build in changes::llamacpp::Build::SUPPORTED {
            for mem in memories {
                let rules = Rules::new(*build);
                let params = Params {
                    n_ctx: 1024,
                    n_batch: 32,
                    n_ubatch: 32,
                    n_ctx_checkpoints: 4,
                    checkpoint_min_step: 40,
                };
                let mut s = Slot::new(params, mem, &rules);
                let mut convo: Vec<u32> = vec![1];
                for _ in 0..12 {
                    match next(4) {
                        0 => convo.truncate(1 + next(convo.len() as u64) as usize),
                        1 => convo.truncate(convo.len().saturating_sub(next(20) as usize).max(1)),
                        _ => {}
                    }
                    convo.push(7);
                    convo.extend((0..next(120)).map(|_| 10 + next(5) as u32));
                    convo.truncate(900);
                    let delims = [Delimiter {
                        role: Some(Role::User),
                        tokens: vec![7],
                    }];
                    let spans = Spans::find(&convo, &delims);
                    let common = s
                        .tokens()
                        .iter()
                        .zip(&convo)
                        .take_while(|(a, b)| a == b)
                        .count();
                    let o = s.request(&convo, &spans, next(5) > 0).unwrap();
                    assert!(o.cache_n <= common && o.cache_n < convo.len(), "{o:?}");
                    assert!(o.checkpoints.len() <= 4);
                    assert_eq!(s.tokens(), &convo[..]);
                    let reply: Vec<u32> = (0..next(30)).map(|_| 20 + next(3) as u32).collect();
                    s.generate(&reply).unwrap();
                    convo = s.tokens().to_vec();
                }
            }
        }
    }

    #[test]
    fn odd_parameters_do_not_overflow() {
        let p = Params::ollama(u32::MAX, u32::MAX);
        let mut s = Slot::new(p, Memory::of("gemma3", Some(512), None), &rules());
        s.request(&toks(10, 0), &Spans::default(), true).unwrap();
        let p = Params::ollama(0, 0);
        assert_eq!((p.n_batch, p.n_ubatch), (1, 1));
    }

    #[test]
    fn spans_take_the_first_delimiter_that_matches() {
        let d = [
            Delimiter {
                role: Some(Role::Tool),
                tokens: vec![1, 2, 9],
            },
            Delimiter {
                role: Some(Role::User),
                tokens: vec![1, 2],
            },
        ];
        let s = Spans::find(&[0, 1, 2, 5, 1, 2, 9, 1, 2], &d);
        assert_eq!(s.user_starts(), [1, 7]);
        assert_eq!(s.last_user(), Some(7));
    }

    #[test]
    fn the_window_cache_overwrites_masked_cells_and_purges_below() {
        let mut c = Cells::new(256, 128, SwaType::Standard);
        let all: Vec<i32> = (0..256).collect();
        assert!(c.decode(&all));
        assert_eq!((c.pos_min(), c.pos_max()), (0, 255));
        // the next token: cell 0 (pos 0) is masked for pos 256
        assert!(c.decode(&[256]));
        assert_eq!(c.pos_min(), 1);
    }
}
