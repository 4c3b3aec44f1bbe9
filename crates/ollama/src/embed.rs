//! `/api/embed` and `/api/embeddings` up to the runner (server/routes.go
//! `EmbedHandler`, `EmbeddingsHandler`): the body decoded, the input
//! normalised, the model reference checked, the options in effect, then
//! for each input what Ollama's truncation makes of it (the runner's
//! `/tokenize`, the context length less the BOS/EOS Ollama expects the
//! runner to add, `/detokenize` of the tokens kept) and what llama-server
//! does with the text it is sent (llm/llama_server.go `Embedding`,
//! tools/server/server-context.cpp `/v1/embeddings`: tokenized with the
//! vocabulary's special tokens added, refused when it does not fit its
//! physical batch or its slot), with Ollama's retry at `num_batch`.
//!
//! The tokenizer is behind [`EmbedTokens`] (the CLI and the app implement
//! it with the model's vocabulary); without one, everything up to the
//! runner is still decided.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value as Json};

use crate::api::DecodeError;
use crate::model::Name;

/// Which route.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Route {
    /// `POST /api/embed` (`EmbedHandler`).
    Embed,
    /// `POST /api/embeddings` (`EmbeddingsHandler`, the legacy route).
    Embeddings,
    /// `POST /v1/embeddings` (middleware/openai.go `EmbeddingsMiddleware`,
    /// then `EmbedHandler`).
    OpenAiEmbeddings,
}

impl Route {
    /// The route's path.
    pub fn path(self) -> &'static str {
        match self {
            Route::Embed => "/api/embed",
            Route::Embeddings => "/api/embeddings",
            Route::OpenAiEmbeddings => "/v1/embeddings",
        }
    }

    /// The render case's `endpoint` name.
    pub fn name(self) -> &'static str {
        match self {
            Route::Embed => "embed",
            Route::Embeddings => "embeddings",
            Route::OpenAiEmbeddings => "openai-embeddings",
        }
    }

    /// The route for a render case's `endpoint` name.
    pub fn from_name(name: &str) -> Option<Route> {
        Some(match name {
            "embed" => Route::Embed,
            "embeddings" => Route::Embeddings,
            "openai-embeddings" => Route::OpenAiEmbeddings,
            _ => return None,
        })
    }
}

/// llama-server's answer when it was started without `--embedding`
/// (Ollama passes it only for a GGUF with `<arch>.pooling_type`).
pub const NOT_SUPPORTED: &str =
    "This server does not support embeddings. Start it with `--embeddings`";
/// llama-server's answer for a model whose pooling type is `none`.
pub const POOLING_NONE: &str =
    "Pooling type 'none' is not OAI compatible. Please use a different pooling type";
/// llama-server's answer for an input with no tokens.
pub const EMPTY_INPUT: &str = "Input content cannot be empty";
/// What Ollama makes of llama-server's "too large" / "context size" errors
/// (`normalizeEmbeddingError`), and its own refusal with `truncate: false`.
pub const TOO_LONG: &str = "the input length exceeds the context length";
/// `truncateInputToLimit` when the limit leaves no room.
pub const NO_ROOM: &str = "input after truncation exceeds maximum context length";
/// `embedWithRetry` when the retry at `num_batch` would cut nothing.
pub const CANNOT_CUT: &str = "input exceeds maximum context length and cannot be truncated further";

/// What the handlers read of the model's GGUF (`kvData`, fs/ggml's typed
/// lookups: a key of another type reads as the default).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EmbedKv {
    /// `general.architecture`.
    pub architecture: String,
    /// `kvData.ContextLength()`: `<arch>.context_length` as a uint32, else 0.
    pub context_length: u64,
    /// `tokenizer.ggml.bos_token_id` as a uint32, else 0.
    pub bos_token_id: u64,
    /// `tokenizer.ggml.eos_token_id` as a uint32, else 0.
    pub eos_token_id: u64,
    /// `kvData.Bool("add_bos_token", true)`: the key read is
    /// `<arch>.add_bos_token` (fs/ggml prefixes the architecture), which
    /// GGUFs rarely have, so this is nearly always true.
    pub add_bos_token: bool,
    /// `kvData.Bool("add_eos_token", true)`, likewise `<arch>.add_eos_token`.
    pub add_eos_token: bool,
    /// `<arch>.pooling_type` when present (its integer value, if it is one):
    /// Ollama starts llama-server with `--embedding` only then.
    pub pooling_type: Option<Option<i64>>,
    /// `<arch>.embedding_length`: the length of each embedding.
    pub embedding_length: Option<u64>,
    /// The model has the vision capability (the runner's context is then
    /// at least 2048).
    pub vision: bool,
}

impl EmbedKv {
    /// The facts from `(key, value)` lookups in a GGUF's metadata, values
    /// as JSON with their GGUF type names (`u32`, `i32`, `bool`, ...).
    pub fn from_lookup(get: impl Fn(&str) -> Option<(String, Json)>) -> EmbedKv {
        let arch = match get("general.architecture") {
            Some((t, Json::String(s))) if t == "string" => s,
            _ => "unknown".to_string(),
        };
        let u32_of = |k: &str| match get(k) {
            Some((t, v)) if t == "u32" => v.as_u64(),
            _ => None,
        };
        let bool_of = |k: &str| match get(k) {
            Some((t, v)) if t == "bool" => v.as_bool(),
            _ => None,
        };
        let ak = |k: &str| format!("{arch}.{k}");
        EmbedKv {
            context_length: u32_of(&ak("context_length")).unwrap_or(0),
            bos_token_id: u32_of("tokenizer.ggml.bos_token_id").unwrap_or(0),
            eos_token_id: u32_of("tokenizer.ggml.eos_token_id").unwrap_or(0),
            add_bos_token: bool_of(&ak("add_bos_token")).unwrap_or(true),
            add_eos_token: bool_of(&ak("add_eos_token")).unwrap_or(true),
            pooling_type: get(&ak("pooling_type")).map(|(_, v)| v.as_i64()),
            embedding_length: get(&ak("embedding_length")).and_then(|(_, v)| v.as_u64()),
            vision: get(&ak("vision.block_count")).is_some(),
            architecture: arch,
        }
    }
}

/// The runner's tokenizer as the embedding path uses it.
pub trait EmbedTokens {
    /// llama-server's `/tokenize` as Ollama calls it: nothing added,
    /// special tokens parsed.
    fn tokenize(&self, text: &str) -> Result<Vec<u32>, String>;
    /// llama-server's `/detokenize` (`tokens_to_str`: each token's piece,
    /// special tokens shown, joined), as the JSON string it answers.
    fn detokenize(&self, tokens: &[u32]) -> Result<String, String>;
    /// The tokens llama-server's `/v1/embeddings` evaluates for a text:
    /// the vocabulary's BOS/EOS (BERT's `[CLS]`/`[SEP]`) added, special
    /// tokens parsed.
    fn embed_tokens(&self, text: &str) -> Result<Vec<u32>, String>;
}

impl<T: crate::cache::PromptTokens + ?Sized> EmbedTokens for T {
    fn tokenize(&self, text: &str) -> Result<Vec<u32>, String> {
        self.text_tokens(text)
    }
    fn detokenize(&self, tokens: &[u32]) -> Result<String, String> {
        let mut bytes = Vec::new();
        for &t in tokens {
            bytes.extend(self.piece(t));
        }
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    }
    fn embed_tokens(&self, text: &str) -> Result<Vec<u32>, String> {
        self.prompt_tokens(text)
    }
}

/// The options the embedding path reads, in effect (`modelOptions`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Runner {
    /// `opts.NumCtx`: the request's `num_ctx` (the model's PARAMETER under
    /// it), else Ollama's default.
    pub num_ctx: i64,
    /// `opts.NumBatch`: the request's `num_batch`, else for an embedding
    /// model `min(2048, num_ctx)` (`WithDefaultEmbeddingNumBatch`), else 512.
    pub num_batch: i64,
    /// Whether the embedding batch default applied.
    pub batch_default: bool,
    /// The context Ollama truncates to: the training context, capped by
    /// `num_ctx` when that is positive.
    pub context: i64,
    /// llama-server's context per slot: the runner's `num_ctx` (at least 4,
    /// 2048 with vision) padded to 256.
    pub slot_ctx: i64,
    /// llama-server's physical batch (`-ub`): `min(num_batch, num_ctx)`,
    /// or its default 512 when Ollama passes none.
    pub ubatch: i64,
    /// llama-server runs with `--embedding` (the GGUF has `pooling_type`).
    pub embedding: bool,
}

/// One input on its way to the runner.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Input {
    /// Its index in the request.
    pub index: usize,
    /// The text as the request gave it.
    pub text: String,
    /// The text sent to llama-server for the embedding that succeeded or
    /// was refused last (`None` when it never got there).
    pub sent: Option<String>,
    /// llama-server's tokens of `sent` (specials added).
    pub tokens: Option<Vec<u32>>,
    /// Tokens evaluated (its share of `prompt_eval_count`).
    pub count: Option<usize>,
    /// Ollama's `/tokenize` of the original text: how many tokens.
    pub text_tokens: Option<usize>,
    /// The token limit Ollama computed for it (context less BOS/EOS).
    pub limit: Option<i64>,
    /// Ollama truncated it.
    pub truncated: bool,
    /// llama-server refused the first try and Ollama cut again at `num_batch`.
    pub retried: bool,
    /// What happened, step by step.
    pub steps: Vec<String>,
    /// Its failure: HTTP status and text.
    pub error: Option<(u16, String)>,
}

/// What an embedding request comes to.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// The route.
    pub route: Option<Route>,
    /// `req.Model`.
    pub model: String,
    /// The request's `truncate` (`None`: absent, which truncates).
    pub truncate: Option<bool>,
    /// `dimensions`.
    pub dimensions: i64,
    /// Each input; empty when the request has none.
    pub inputs: Vec<Input>,
    /// The options and the runner's sizes, once the model is scheduled.
    pub runner: Option<Runner>,
    /// The length of each embedding in the answer, when known.
    pub embedding_length: Option<u64>,
    /// `prompt_eval_count` of the answer (all inputs' tokens), when the
    /// tokenizer is known and every input succeeded.
    pub prompt_eval_count: Option<usize>,
    /// How the request was read, step by step.
    pub notes: Vec<String>,
    /// Ollama's answer when it fails: HTTP status and the `error` text.
    pub error: Option<(u16, String)>,
    /// Where Promptscope cannot follow (a cloud model).
    pub unsupported: Option<String>,
    /// `/v1/embeddings`: the `/api/embed` body the middleware hands on.
    pub api_request: Option<Json>,
    /// `/v1/embeddings`: the route's error body (OpenAI's shape).
    pub body: Option<String>,
}

impl Outcome {
    /// Ollama's answer body when the request succeeds, the embeddings
    /// elided (they need the model's weights): `null` where the request
    /// fails.
    pub fn answer_shape(&self) -> Json {
        if self.error.is_some() || self.unsupported.is_some() {
            return Json::Null;
        }
        let lengths = || -> Vec<Json> {
            self.inputs
                .iter()
                .map(|_| self.output_length().map(Json::from).unwrap_or(Json::Null))
                .collect()
        };
        match self.route {
            Some(Route::OpenAiEmbeddings) => {
                let n = self.prompt_eval_count.unwrap_or(0);
                serde_json::json!({
                    "object": "list",
                    "data": lengths().into_iter().enumerate().map(|(i, e)| serde_json::json!({"object": "embedding", "embedding": e, "index": i})).collect::<Vec<_>>(),
                    "model": self.model,
                    "usage": {"prompt_tokens": n, "total_tokens": n},
                })
            }
            Some(Route::Embeddings) => {
                let n = if self.inputs.is_empty() {
                    Some(0)
                } else {
                    self.embedding_length
                };
                serde_json::json!({ "embedding": n })
            }
            _ => {
                let mut o = Map::new();
                o.insert("model".into(), Json::from(self.model.clone()));
                o.insert("embeddings".into(), Json::Array(lengths()));
                if let Some(n) = self.prompt_eval_count.filter(|n| *n > 0) {
                    o.insert("prompt_eval_count".into(), Json::from(n));
                }
                Json::Object(o)
            }
        }
    }

    /// The length of each returned embedding: the model's, cut to
    /// `dimensions` when that is positive and smaller.
    pub fn output_length(&self) -> Option<u64> {
        let n = self.embedding_length?;
        Some(if self.dimensions > 0 && (self.dimensions as u64) < n {
            self.dimensions as u64
        } else {
            n
        })
    }
}

/// Why an input failed: Ollama's `api.StatusError` (its status) or a plain
/// error (answered 400 by `/api/embed`).
#[derive(Clone, Debug)]
enum Fail {
    Status(u16, String),
    Plain(String),
    /// The tokenizer fails where llama.cpp aborts (a `GGML_ASSERT`):
    /// llama-server dies mid-request.
    Crash(String),
}

/// What one request of llama-server's `/v1/embeddings` answered.
struct Served {
    tokens: Vec<u32>,
    result: Result<usize, Fail>,
}

struct Run<'a> {
    kv: &'a EmbedKv,
    tk: &'a dyn EmbedTokens,
    runner: &'a Runner,
    truncate: Option<bool>,
}

impl Run<'_> {
    /// `adjustTokenLimit`: one less for the BOS and one for the EOS that
    /// Ollama expects llama-server to add.
    fn adjust(&self, tokens: &[u32], mut limit: i64) -> i64 {
        if let (Some(first), Some(last)) = (tokens.first(), tokens.last()) {
            if *first as u64 != self.kv.bos_token_id && self.kv.add_bos_token {
                limit -= 1;
            }
            if *last as u64 != self.kv.eos_token_id && self.kv.add_eos_token {
                limit -= 1;
            }
        }
        limit
    }

    /// `inputTokensAndContext`.
    fn tokens_and_context(&self, text: &str) -> Result<(Vec<u32>, i64), Fail> {
        let tokens = self.tk.tokenize(text).map_err(Fail::Plain)?;
        let mut ctx = self.kv.context_length as i64;
        if self.runner.num_ctx > 0 {
            ctx = ctx.min(self.runner.num_ctx);
        }
        let limit = self.adjust(&tokens, ctx);
        Ok((tokens, limit))
    }

    /// `truncateInputToLimit`.
    fn truncate_to(&self, text: &str, limit: i64, inp: &mut Input) -> Result<(String, bool), Fail> {
        let (tokens, mut ctx) = self.tokens_and_context(text)?;
        if limit > 0 {
            ctx = ctx.min(self.adjust(&tokens, limit));
        }
        if inp.text_tokens.is_none() {
            inp.text_tokens = Some(tokens.len());
        }
        inp.limit = Some(ctx);
        if ctx <= 0 {
            return Err(Fail::Plain(NO_ROOM.into()));
        }
        if tokens.len() as i64 <= ctx {
            return Ok((text.to_string(), false));
        }
        let cut = self
            .tk
            .detokenize(&tokens[..ctx as usize])
            .map_err(Fail::Plain)?;
        Ok((cut, true))
    }

    /// llama-server's `/v1/embeddings` for `{"input": text}`, through
    /// `normalizeEmbeddingError`.
    fn serve(&self, text: &str) -> Served {
        let refused = |status, msg: &str| Served {
            tokens: Vec::new(),
            result: Err(Fail::Status(status, msg.to_string())),
        };
        if !self.runner.embedding {
            return refused(501, NOT_SUPPORTED);
        }
        if self.kv.pooling_type == Some(Some(0)) {
            return refused(400, POOLING_NONE);
        }
        let tokens = match self.tk.embed_tokens(text) {
            Ok(t) => t,
            Err(e) => {
                return Served {
                    tokens: Vec::new(),
                    result: Err(Fail::Crash(e)),
                }
            }
        };
        let n = tokens.len();
        let result = if n == 0 {
            Err(Fail::Status(400, EMPTY_INPUT.into()))
        } else if n as i64 > self.runner.ubatch || n as i64 > self.runner.slot_ctx {
            Err(Fail::Status(400, TOO_LONG.into()))
        } else {
            Ok(n)
        };
        Served { tokens, result }
    }

    fn embedding(&self, text: &str, inp: &mut Input) -> Result<usize, Fail> {
        let s = self.serve(text);
        inp.sent = Some(text.to_string());
        inp.tokens = Some(s.tokens.clone());
        let n = s.tokens.len();
        match &s.result {
            Ok(_) => inp.steps.push(format!(
                "llama-server evaluates {n} token{} (the vocabulary's special tokens added)",
                plural(n)
            )),
            Err(Fail::Crash(e)) => inp.steps.push(format!(
                "llama-server aborts while tokenizing the text with its special tokens ({e})"
            )),
            Err(Fail::Status(_, m)) | Err(Fail::Plain(m)) => {
                let why = if !self.runner.embedding {
                    "it was started without --embedding: the GGUF has no pooling_type, so Ollama takes it for a completion model".to_string()
                } else if m == TOO_LONG {
                    if n as i64 > self.runner.ubatch {
                        format!(
                            "its {n} tokens exceed the physical batch of {} (llama-server: \"input ({n} tokens) is too large to process. increase the physical batch size\")",
                            self.runner.ubatch
                        )
                    } else {
                        format!(
                            "its {n} tokens exceed the slot's context of {} (llama-server: \"input ({n} tokens) is larger than the max context size ({} tokens)\")",
                            self.runner.slot_ctx, self.runner.slot_ctx
                        )
                    }
                } else {
                    format!("llama-server: {m}")
                };
                inp.steps
                    .push(format!("llama-server refuses the text: {why}"));
            }
        }
        s.result
    }

    /// `embedWithRetry`.
    fn embed_with_retry(&self, text: &str, inp: &mut Input) -> Result<usize, Fail> {
        let mut text = text.to_string();
        if self.truncate == Some(false) {
            let (tokens, ctx) = self.tokens_and_context(&text)?;
            inp.text_tokens = Some(tokens.len());
            inp.limit = Some(ctx);
            if ctx <= 0 {
                return Err(Fail::Plain(NO_ROOM.into()));
            }
            if tokens.len() as i64 > ctx {
                inp.steps.push(format!(
                    "truncate is false and its {} tokens exceed the limit of {ctx}",
                    tokens.len()
                ));
                return Err(Fail::Status(400, TOO_LONG.into()));
            }
            inp.steps.push(format!(
                "{} token{}, within the limit of {ctx} (truncate false: nothing would be cut)",
                tokens.len(),
                plural(tokens.len())
            ));
        } else {
            let (t, cut) = self.truncate_to(&text, 0, inp)?;
            let (n, limit) = (inp.text_tokens.unwrap_or(0), inp.limit.unwrap_or(0));
            if cut {
                inp.truncated = true;
                inp.steps.push(format!(
                    "{n} tokens, over the limit of {limit}: Ollama keeps the first {limit} and sends their text (llama-server's /detokenize)"
                ));
            } else {
                inp.steps.push(format!(
                    "{n} tokens, within the limit of {limit}: sent whole"
                ));
            }
            text = t;
        }
        let first = self.embedding(&text, inp);
        let err = match first {
            Ok(n) => return Ok(n),
            Err(e) => e,
        };
        if !matches!(err, Fail::Status(400, _)) || self.truncate == Some(false) {
            return Err(err);
        }
        inp.retried = true;
        let (cut, ok) = self.truncate_to(&text, self.runner.num_batch, inp)?;
        if !ok {
            inp.steps.push(format!(
                "Ollama retries at num_batch {}: the text already fits that limit, so it gives up",
                self.runner.num_batch
            ));
            return Err(Fail::Plain(CANNOT_CUT.into()));
        }
        inp.truncated = true;
        inp.steps.push(format!(
            "Ollama retries at num_batch {}: it keeps the first {} tokens",
            self.runner.num_batch,
            inp.limit.unwrap_or(0)
        ));
        self.embedding(&cut, inp)
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// What the case says of the model besides its GGUF facts.
pub struct ModelInfo<'a> {
    /// The model's configured capabilities (`config.capabilities`).
    pub capabilities: &'a [String],
    /// The model's PARAMETERs when the request's options do not already
    /// hold them (`model.Options`, under the request's).
    pub params: Option<&'a Map<String, Json>>,
}

/// Ollama's `FromMap` type check of the options (every `api.Options`
/// field by its Go kind), first error in the map's order.
fn check_options(options: &Map<String, Json>) -> Result<(), String> {
    const INTS: &[&str] = &[
        "num_ctx",
        "num_batch",
        "num_gpu",
        "num_thread",
        "draft_num_predict",
        "num_keep",
        "seed",
        "num_predict",
        "top_k",
        "repeat_last_n",
        "main_gpu",
    ];
    const FLOATS: &[&str] = &[
        "top_p",
        "min_p",
        "typical_p",
        "temperature",
        "repeat_penalty",
        "presence_penalty",
        "frequency_penalty",
    ];
    for (k, v) in options {
        if v.is_null() {
            continue;
        }
        let kind = if INTS.contains(&k.as_str()) {
            (!v.is_number()).then_some("integer")
        } else if FLOATS.contains(&k.as_str()) {
            (!v.is_number()).then_some("float32")
        } else if k == "use_mmap" {
            (!v.is_boolean()).then_some("boolean")
        } else if k == "stop" {
            match v {
                Json::Array(a) if a.iter().all(Json::is_string) => None,
                Json::Array(_) => {
                    return Err(format!("option {k:?} must be of an array of strings"))
                }
                _ => Some("array"),
            }
        } else {
            None
        };
        if let Some(kind) = kind {
            return Err(format!("option {k:?} must be of type {kind}"));
        }
    }
    Ok(())
}

/// An integer option as `FromMap` sets it (a JSON number truncated).
fn int_option(options: &Map<String, Json>, key: &str) -> Option<i64> {
    options.get(key).and_then(Json::as_f64).map(|f| f as i64)
}

/// `modelOptions` and the scheduler's launch: the options in effect and
/// the runner's sizes.
fn runner_for(
    options: &Map<String, Json>,
    kv: Option<&EmbedKv>,
    info: &ModelInfo,
    default_num_ctx: i64,
) -> Runner {
    let num_ctx = match options.get("num_ctx") {
        Some(Json::Null) | None => default_num_ctx,
        Some(_) => int_option(options, "num_ctx").unwrap_or(default_num_ctx),
    };
    let embedding_cap = info.capabilities.iter().any(|c| c == "embedding")
        || kv.is_some_and(|k| k.pooling_type.is_some());
    let batch_default = !options.contains_key("num_batch") && embedding_cap;
    let num_batch = if batch_default {
        if num_ctx > 0 {
            num_ctx.min(2048)
        } else {
            2048
        }
    } else {
        match options.get("num_batch") {
            Some(Json::Null) | None => 512,
            Some(_) => int_option(options, "num_batch").unwrap_or(512),
        }
    };
    let mut launch_ctx = num_ctx.max(4);
    if kv.is_some_and(|k| k.vision) {
        launch_ctx = launch_ctx.max(2048);
    }
    let ubatch = if num_batch <= 0 {
        512
    } else {
        num_batch.min(launch_ctx)
    };
    let train = kv.map_or(0, |k| k.context_length as i64);
    Runner {
        num_ctx,
        num_batch,
        batch_default,
        context: if num_ctx > 0 {
            train.min(num_ctx)
        } else {
            train
        },
        slot_ctx: (launch_ctx + 255) / 256 * 256,
        ubatch,
        embedding: kv.is_some_and(|k| k.pooling_type.is_some()),
    }
}

/// The model reference checks both routes make first
/// (`parseAndValidateModelRef`, `writeModelRefParseError`).
fn model_ref(raw: &str, route: Route) -> Result<crate::modelref::Ref, (u16, String)> {
    let r = crate::modelref::parse_ref(raw).map_err(|e| {
        if e.starts_with("use either") {
            (400, e)
        } else {
            match route {
                Route::Embeddings => (400, "model is required".to_string()),
                _ => (404, format!("model '{raw}' not found")),
            }
        }
    })?;
    if !Name::parse(&r.base).is_valid() {
        return Err((400, "invalid model name".into()));
    }
    Ok(r)
}

static OPENAI_EMBED_T: crate::godecode::Struct = crate::godecode::Struct {
    name: "EmbedRequest",
    go: "openai.EmbedRequest",
    fields: &[
        ("input", crate::godecode::Ty::Any),
        ("model", crate::godecode::Ty::Str),
        ("dimensions", crate::godecode::Ty::Int),
        ("encoding_format", crate::godecode::Ty::Str),
    ],
};

/// `EmbeddingsMiddleware`: the `/v1/embeddings` body to the `/api/embed`
/// body it hands on (`api.EmbedRequest{Model, Input, Dimensions}` as
/// `encoding/json` writes it), or its refusal (400).
pub fn convert_openai(body: &Json) -> Result<Json, String> {
    let ty = crate::godecode::Ty::Struct(&OPENAI_EMBED_T);
    let req = crate::godecode::unmarshal(body, &ty).map_err(|e| e.text())?;
    let g = crate::godecode::Got::of(req.as_ref());
    let format = g.str("encoding_format");
    if !format.is_empty()
        && !format.eq_ignore_ascii_case("float")
        && !format.eq_ignore_ascii_case("base64")
    {
        return Err(format!(
            "Invalid value for 'encoding_format' = {format}. Supported values: ['float', 'base64']."
        ));
    }
    let input = match g.get("input") {
        Some(Json::String(s)) if s.is_empty() => Json::Array(vec![Json::from("")]),
        None | Some(Json::Null) => return Err("invalid input".into()),
        Some(Json::Array(a)) if a.is_empty() => return Err("invalid input".into()),
        Some(v) => v.clone(),
    };
    let mut o = Map::new();
    o.insert("model".into(), Json::from(g.str("model")));
    o.insert("input".into(), input);
    if g.int("dimensions") != 0 {
        o.insert("dimensions".into(), Json::from(g.int("dimensions")));
    }
    o.insert("options".into(), Json::Null);
    Ok(Json::Object(o))
}

/// The `/v1/embeddings` route's error body (`openai.NewError`), as the
/// middleware (`c.AbortWithStatusJSON`) or the handler behind it (through
/// `EmbedWriter`, `json.NewEncoder`: a newline) writes it.
fn openai_error_body(status: u16, message: &str, newline: bool) -> String {
    crate::compat::Route::OpenAiChat.error_body(status, message, newline, "")
}

/// Follows an embedding request through its handler.
///
/// `kv` is what the handler reads from the model's GGUF and `tokens` the
/// runner's tokenizer; without them the request is followed up to the
/// runner. `default_num_ctx` is the server's context default (4096 here).
pub fn embed(
    route: Route,
    request: &Json,
    info: &ModelInfo,
    kv: Option<&EmbedKv>,
    tokens: Option<&dyn EmbedTokens>,
    default_num_ctx: i64,
) -> Outcome {
    if route != Route::OpenAiEmbeddings {
        return handle(route, request, info, kv, tokens, default_num_ctx);
    }
    let native = match convert_openai(request) {
        Ok(n) => n,
        Err(e) => {
            return Outcome {
                route: Some(route),
                body: Some(openai_error_body(400, &e, false)),
                error: Some((400, e)),
                ..Outcome::default()
            }
        }
    };
    let mut out = handle(Route::Embed, &native, info, kv, tokens, default_num_ctx);
    out.route = Some(route);
    out.notes.insert(
        0,
        "the OpenAI middleware hands the input and dimensions on to /api/embed; encoding_format only shapes the answer".into(),
    );
    if let Some((s, m)) = &out.error {
        out.body = Some(openai_error_body(*s, m, true));
    }
    out.api_request = Some(native);
    out
}

fn handle(
    route: Route,
    request: &Json,
    info: &ModelInfo,
    kv: Option<&EmbedKv>,
    tokens: Option<&dyn EmbedTokens>,
    default_num_ctx: i64,
) -> Outcome {
    let mut out = Outcome {
        route: Some(route),
        ..Outcome::default()
    };
    let decoded = match route {
        Route::Embeddings => crate::api_decode::embedding(request),
        _ => crate::api_decode::embed(request),
    };
    let req = match decoded {
        Ok(r) => r,
        Err(DecodeError(e)) => {
            out.error = Some((400, e));
            return out;
        }
    };
    let str_of = |k: &str| req.get(k).and_then(Json::as_str).unwrap_or("").to_string();
    out.model = str_of("model");
    out.truncate = req.get("truncate").and_then(Json::as_bool);
    out.dimensions = req.get("dimensions").and_then(Json::as_i64).unwrap_or(0);
    let mref = match model_ref(&out.model, route) {
        Ok(r) => r,
        Err(e) => {
            out.error = Some(e);
            return out;
        }
    };
    if mref.source == crate::modelref::Source::Cloud {
        out.unsupported = Some(format!(
            "{} names a cloud model: Ollama sends the request to ollama.com ({}) and answers with what comes back",
            out.model, mref.base
        ));
        return out;
    }
    // the inputs
    let texts: Vec<String> = match route {
        Route::Embed | Route::OpenAiEmbeddings => match req.get("input") {
            None | Some(Json::Null) => Vec::new(),
            Some(Json::String(s)) => {
                if s.is_empty() {
                    out.notes
                        .push("input is an empty string: no input at all".into());
                    Vec::new()
                } else {
                    out.notes.push("input is a string: one input".into());
                    vec![s.clone()]
                }
            }
            Some(Json::Array(a)) => {
                let mut v = Vec::new();
                for x in a {
                    match x {
                        Json::String(s) => v.push(s.clone()),
                        _ => {
                            out.error = Some((400, "invalid input type".into()));
                            out.notes.push(format!(
                                "input holds a {}: each input must be a string",
                                crate::godecode::kind(x)
                            ));
                            return out;
                        }
                    }
                }
                out.notes.push(format!(
                    "input is a list: {} input{}",
                    v.len(),
                    plural(v.len())
                ));
                v
            }
            Some(other) => {
                out.error = Some((400, "invalid input type".into()));
                out.notes.push(format!(
                    "input is a {}: it must be a string or a list of strings",
                    crate::godecode::kind(other)
                ));
                return out;
            }
        },
        Route::Embeddings => {
            let p = str_of("prompt");
            if p.is_empty() {
                Vec::new()
            } else {
                vec![p]
            }
        }
    };
    // scheduleRunner: the options
    let mut options = info.params.cloned().unwrap_or_default();
    if let Some(asked) = req.get("options").and_then(Json::as_object) {
        for (k, v) in asked {
            options.insert(k.clone(), v.clone());
        }
    }
    if let Err(e) = check_options(&options) {
        out.error = Some((500, e));
        return out;
    }
    let runner = runner_for(&options, kv, info, default_num_ctx);
    out.embedding_length = kv.and_then(|k| k.embedding_length);
    out.runner = Some(runner.clone());
    if texts.is_empty() {
        out.notes.push(match route {
            Route::Embeddings => {
                "no prompt: Ollama loads the model and answers an empty embedding".into()
            }
            _ => "no input: Ollama loads the model and answers with no embeddings".into(),
        });
        return out;
    }
    out.inputs = texts
        .iter()
        .enumerate()
        .map(|(index, t)| Input {
            index,
            text: t.clone(),
            ..Input::default()
        })
        .collect();
    let (Some(kv), Some(tk)) = (kv, tokens) else {
        out.notes.push(
            "no GGUF: the inputs' tokens, Ollama's truncation and the runner's answer need the model's vocabulary".into(),
        );
        return out;
    };
    let run = Run {
        kv,
        tk,
        runner: &runner,
        truncate: out.truncate,
    };
    let mut total = 0;
    let mut first_err: Option<(u16, String)> = None;
    for inp in out.inputs.iter_mut() {
        let text = inp.text.clone();
        let result = match route {
            Route::Embeddings => {
                inp.steps.push(
                    "the legacy route sends the prompt whole: Ollama truncates nothing".into(),
                );
                run.embedding(&text, inp)
            }
            _ => run.embed_with_retry(&text, inp),
        };
        match result {
            Ok(n) => {
                inp.count = Some(n);
                total += n;
            }
            Err(Fail::Crash(e)) => {
                out.unsupported.get_or_insert(format!(
                    "llama-server aborts on input {} ({e}): Ollama answers with the error of the broken connection to its runner",
                    inp.index + 1
                ));
            }
            Err(f) => {
                let e = match (route, f) {
                    (Route::Embeddings, Fail::Status(_, m) | Fail::Plain(m)) => {
                        (500, m.trim().to_string())
                    }
                    (_, Fail::Status(s, m)) => (s, m.trim().to_string()),
                    (_, Fail::Plain(m) | Fail::Crash(m)) => (400, m.trim().to_string()),
                };
                inp.error = Some(e.clone());
                first_err.get_or_insert(e);
            }
        }
    }
    match first_err {
        Some(e) => out.error = Some(e),
        None if out.unsupported.is_none() => out.prompt_eval_count = Some(total),
        None => {}
    }
    out
}
