//! Generation as Ollama's handlers answer it, on the CPU through the
//! `inference` crate: the native response chunks of `/api/chat` or
//! `/api/generate` for a rendered case, handed to `emit` one by one
//! (`emit` returns `false` when the client has gone: generation stops).
//!
//! - no prompt (empty messages or prompt): the `done_reason: "load"` answer;
//! - `"_debug_render_only": true`: Ollama's `_debug_info` answer;
//! - `options.num_predict: 0`: renders and counts, never loads the weights;
//! - `"stream": false`, or `one_response`: one aggregated response.

use std::time::{SystemTime, UNIX_EPOCH};

use inference::generate::Prepared;
use inference::{Generation, Model, Step};
use ollama::case::RenderCase;
use ollama::response::{self, Chunk, Metrics};
use ollama::server::{Endpoint, Rendered};
use serde_json::{json, Value as Json};

use crate::gguf::Gguf;

/// A failure with the HTTP status Ollama answers it with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fail {
    /// HTTP status.
    pub status: u16,
    /// The text of `{"error": ...}`.
    pub message: String,
}

impl Fail {
    fn new(status: u16, message: impl Into<String>) -> Fail {
        Fail {
            status,
            message: message.into(),
        }
    }
}

/// `created_at` now.
pub fn now_created_at() -> String {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos() as i128)
        .unwrap_or(0);
    response::created_at(nanos)
}

/// What to run.
pub struct Job<'a> {
    /// The case, with its GGUF applied.
    pub case: &'a RenderCase,
    /// Its render.
    pub rendered: &'a Rendered,
    /// The model's GGUF (vocabulary and metadata).
    pub gguf: &'a Gguf,
    /// One aggregated response even when the request streams.
    pub one_response: bool,
    /// Promptscope's `_debug_info` on the first chunk (the prompt, the
    /// options in effect, the prompt's token count, the seed).
    pub debug: bool,
}

/// Runs a job: renders nothing again, loads the weights through
/// `load_model` only when it must, and emits the chunks.
pub fn run(
    job: Job,
    load_model: impl FnOnce() -> Result<Vec<u8>, String>,
    clock: &dyn Fn() -> u64,
    emit: &mut dyn FnMut(Json) -> bool,
) -> Result<(), Fail> {
    let Job {
        case,
        rendered,
        gguf,
        one_response,
        debug,
    } = job;
    let request = &case.request;
    // fields as Go's decoder finds them: case-insensitively, the last key winning
    let field = |k: &str| ollama::godecode::field(request, k);
    let model_name = field("model")
        .and_then(Json::as_str)
        .unwrap_or("")
        .to_string();
    let flag = |k: &str| field(k).and_then(Json::as_bool);
    let endpoint = case.endpoint;
    let Some(prompt) = rendered.prompt.clone() else {
        // empty messages / prompt: Ollama answers that the model loaded
        let mut c = response::chunk(
            endpoint,
            &Chunk {
                model: &model_name,
                created_at: &now_created_at(),
                done: Some("load"),
                ..Chunk::default()
            },
        );
        if endpoint == Endpoint::Chat {
            c["message"]["role"] = "assistant".into();
        }
        emit(c);
        return Ok(());
    };
    if flag("_debug_render_only") == Some(true) {
        let r = response::debug_render_only(
            endpoint,
            &model_name,
            &now_created_at(),
            &prompt,
            rendered.image_count,
        );
        emit(r);
        return Ok(());
    }

    let prepared = inference::generate::prepare(
        &gguf.vocab,
        &prompt,
        rendered.explain.leading_bos.as_deref(),
        gguf.adds_bos(),
        field("options").unwrap_or(&Json::Null),
        inference::Options::defaults_of(4096, &case.release),
        flag("truncate") != Some(false),
        flag("shift"),
        ollama::cache::PromptTokens::architecture(gguf),
        case.release,
    );
    let Prepared { options, tokens } = match prepared {
        Ok(p) => p,
        Err(e) => return Err(Fail::new(500, e.to_string())),
    };
    if options.num_thread > 0 {
        inference::threads::set_threads(options.num_thread as usize);
    }
    let stream = flag("stream") != Some(false) && !one_response;
    let debug = debug.then(|| {
        json!({"rendered_template": prompt, "options": options.to_json(), "prompt_tokens": tokens.ids.len()})
    });
    let raw = endpoint == Endpoint::Generate && flag("raw") == Some(true);
    let has_tools = endpoint == Endpoint::Chat
        && request
            .get("tools")
            .and_then(Json::as_array)
            .is_some_and(|t| !t.is_empty());
    let context = |text: &str| -> Option<Vec<u32>> {
        (endpoint == Endpoint::Generate && !raw)
            .then(|| {
                gguf.vocab
                    .tokenize(&format!("{prompt}{text}"), false, true)
                    .ok()
            })
            .flatten()
    };

    let mut chunks: Vec<Json> = Vec::new();
    let mut send = |c: Json| -> bool {
        if stream {
            emit(c)
        } else {
            chunks.push(c);
            true
        }
    };

    if options.num_predict == 0 {
        // render and count: the model never runs
        let ctx = context("");
        let metrics = Metrics {
            total_duration: clock(),
            prompt_eval_count: tokens.ids.len(),
            ..Metrics::default()
        };
        let mut c = response::chunk(
            endpoint,
            &Chunk {
                model: &model_name,
                created_at: &now_created_at(),
                done: Some("length"),
                metrics,
                context: ctx.as_deref(),
                debug: debug.clone(),
                ..Chunk::default()
            },
        );
        if let Some(d) = &debug {
            c["_debug_info"] = d.clone();
        }
        if !send(c) {
            return Ok(());
        }
    } else {
        let load_start = clock();
        let bytes = load_model().map_err(|e| Fail::new(500, e))?;
        let mut model = match Model::from_vec(bytes) {
            Ok(m) => m,
            Err(e) => {
                return Err(Fail::new(
                    500,
                    format!(
                        "this model cannot be run here: {e}; send \"options\": {{\"num_predict\": 0}} to render and count the prompt without running it"
                    ),
                ))
            }
        };
        let load_duration = clock() - load_start;
        let seed = (SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0)
            & 0xFFFF_FFFE) as u32;
        let mut g = match Generation::start(&mut model, &tokens.ids, &options, seed, &clock) {
            Ok(g) => g,
            Err(e) => return Err(Fail::new(500, e.to_string())),
        };
        let mut debug = debug.map(|mut d| {
            d["seed"] = g.seed().into();
            // what runs where: the graph, the weight types, the CPU
            // instructions and threads
            d["runner"] = model.runner().to_json();
            d
        });
        // what the handler makes of the pieces: the model's parser, the
        // generic thinking parser, the TEMPLATE's tool parser
        let setup = case.answer_setup(&prompt).map_err(|e| Fail::new(500, e))?;
        let mut handler = ollama::answer::Handler::new(
            &setup,
            ollama::answer::tool_call_ids(u64::from(seed) ^ clock()),
        );
        g.preserve_tokens(&gguf.vocab, &handler.preserved_tokens());
        let mut repeats = ollama::answer::RepeatGuard::default();
        let reason = loop {
            match g.step(&mut model, &gguf.vocab, &clock) {
                Ok(Step::Text(t)) if t.is_empty() => {}
                Ok(Step::Text(t)) => {
                    if repeats.aborts(&t) {
                        // llama_server.go: the prediction is aborted and
                        // no final response follows
                        break None;
                    }
                    let out = match handler.piece(&t, false) {
                        Ok(Some(out)) => out,
                        Ok(None) => continue,
                        Err(e) => return Err(Fail::new(500, e)),
                    };
                    let c = response::chunk(
                        endpoint,
                        &Chunk {
                            model: &model_name,
                            created_at: &now_created_at(),
                            content: &out.content,
                            thinking: &out.thinking,
                            tool_calls: &out.tool_calls,
                            debug: debug.take(),
                            ..Chunk::default()
                        },
                    );
                    if !send(c) {
                        return Ok(());
                    }
                }
                Ok(Step::Done(r)) => break Some(r),
                Err(e) => return Err(Fail::new(500, e.to_string())),
            }
        };
        let Some(reason) = reason else {
            if !stream {
                if let Some(one) = response::aggregate(endpoint, has_tools, &chunks) {
                    emit(one);
                }
            }
            return Ok(());
        };
        let last = handler
            .piece("", true)
            .map_err(|e| Fail::new(500, e))?
            .unwrap_or_default();
        let t = g.timings();
        let ctx = context(g.text());
        let metrics = t.metrics(clock(), load_duration);
        let c = response::chunk(
            endpoint,
            &Chunk {
                model: &model_name,
                created_at: &now_created_at(),
                content: &last.content,
                thinking: &last.thinking,
                tool_calls: &last.tool_calls,
                done: Some(reason.as_str()),
                metrics,
                context: ctx.as_deref(),
                debug: debug.take(),
            },
        );
        if !send(c) {
            return Ok(());
        }
    }
    if !stream {
        if let Some(one) = response::aggregate(endpoint, has_tools, &chunks) {
            emit(one);
        }
    }
    Ok(())
}

/// The prompt's token count as the runner evaluates it (after its own
/// truncation stage): what `prompt_eval_count` reports.
pub fn prompt_tokens(case: &RenderCase, rendered: &Rendered, gguf: &Gguf) -> Result<usize, Fail> {
    let Some(prompt) = &rendered.prompt else {
        return Ok(0);
    };
    let request = &case.request;
    let flag = |k: &str| ollama::godecode::field(request, k).and_then(Json::as_bool);
    inference::generate::prepare(
        &gguf.vocab,
        prompt,
        rendered.explain.leading_bos.as_deref(),
        gguf.adds_bos(),
        ollama::godecode::field(request, "options").unwrap_or(&Json::Null),
        inference::Options::defaults_of(4096, &case.release),
        flag("truncate") != Some(false),
        flag("shift"),
        ollama::cache::PromptTokens::architecture(gguf),
        case.release,
    )
    .map(|p| p.tokens.ids.len())
    .map_err(|e| Fail::new(500, e.to_string()))
}
