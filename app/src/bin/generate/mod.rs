//! The generation worker's code, shared by `generate-worker`,
//! `generate-worker-relaxed` (the same source, built with and without the
//! `relaxed-simd` feature) and `generate-worker-threads` (the relaxed one
//! with the `threads` feature: nightly, `+atomics`, shared memory; its
//! matrix products run on a pool of Web Workers that it starts first).

use std::cell::RefCell;
use std::rc::Rc;

use inference::{Generation, Model, Step};
use promptscope_app::generate::{self, Job, MemoryNeed, ModelShape};
use wasm_bindgen::prelude::*;
use web_sys::MessageEvent;

use crate::common::{self, error, post, scope};

struct Loaded {
    model: Model,
    vocab: tokenizer::Vocab,
    adds_bos: bool,
    /// The header's shapes, for each job's memory check.
    shape: Option<ModelShape>,
    file_size: u64,
}

#[derive(Default)]
struct State {
    loaded: Option<Loaded>,
    stop: bool,
    busy: bool,
}

fn now_ns() -> u64 {
    let ms = scope().performance().map(|p| p.now()).unwrap_or(0.0);
    (ms * 1e6) as u64
}

fn created_at() -> String {
    ollama::response::created_at((js_sys::Date::now() * 1e6) as i128)
}

/// Yields to the event loop so that a `stop` message can arrive.
async fn yield_now() {
    gloo_timers::future::TimeoutFuture::new(0).await;
}

/// Reads the whole file in 8 MiB slices into one buffer of its size
/// (each slice copied in once), reporting progress.
fn read_file(source: &common::FileSource, total: u64) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    bytes
        .try_reserve_exact(total as usize)
        .map_err(|_| format!("cannot allocate {total} bytes for the file"))?;
    let mut at = 0u64;
    const STEP: u64 = 8 << 20;
    while at < total {
        let end = (at + STEP).min(total);
        let part = source.read_range(at, end).map_err(|e| e.to_string())?;
        let start = bytes.len();
        let n = part.length() as usize;
        if n as u64 != end - at {
            return Err(format!("the file changed while it was read (at byte {at})"));
        }
        bytes.resize(start + n, 0);
        part.copy_to(&mut bytes[start..]);
        at = end;
        post(&[
            ("type", "progress".into()),
            ("done", (at as f64).into()),
            ("total", (total as f64).into()),
        ]);
    }
    Ok(bytes)
}

fn load(state: &Rc<RefCell<State>>, file: web_sys::File, num_ctx: Option<i64>) {
    let t0 = now_ns();
    let total = file.size() as u64;
    let mut source = match common::FileSource::new(file) {
        Ok(s) => s,
        Err(e) => return error(&e),
    };
    // the header first (only the bytes it spans), then the memory check
    let meta = match gguf_meta::parse(&mut source) {
        Ok(m) => m,
        Err(e) => return error(&e.to_string()),
    };
    let shape = ModelShape::from_gguf(&meta).ok();
    let n_ctx = shape
        .as_ref()
        .map_or(0, |s| s.ctx_for(num_ctx.unwrap_or(0)));
    if let Err(why) = MemoryNeed::new(total, shape.as_ref(), n_ctx).check() {
        return error(&why);
    }
    let vocab = match tokenizer::Vocab::from_gguf_with(&meta, tokenizer::LoadOptions::ollama(true))
    {
        Ok(v) => v,
        Err(e) => return error(&e.llama_log_line()),
    };
    let adds_bos = ollama::server::tokenizer_adds_bos(
        meta.get_str("tokenizer.ggml.pre").unwrap_or(""),
        meta.get_str("tokenizer.ggml.model").unwrap_or(""),
        meta.get("tokenizer.ggml.add_bos_token")
            .and_then(|v| v.as_bool()),
    );
    let bytes = match read_file(&source, total) {
        Ok(b) => b,
        Err(e) => return error(&e),
    };
    // the buffer moves into the model, which uses the weights in place
    let model = match Model::from_vec(bytes) {
        Ok(m) => m,
        Err(e) => return error(&e.to_string()),
    };
    let arch = model.arch().to_string();
    // what runs where, as the engine says it
    let runner = model.runner().line();
    drop(meta);
    state.borrow_mut().loaded = Some(Loaded {
        model,
        vocab,
        adds_bos,
        shape,
        file_size: total,
    });
    post(&[
        ("type", "loaded".into()),
        ("ms", ((now_ns() - t0) as f64 / 1e6).into()),
        ("arch", arch.into()),
        ("runner", runner.into()),
    ]);
}

async fn run(state: Rc<RefCell<State>>, job: Job) {
    let start = now_ns();
    let clock = || now_ns() - start;
    let emit = |line: &serde_json::Value| {
        post(&[("type", "chunk".into()), ("json", line.to_string().into())]);
    };
    let prepared = {
        let st = state.borrow();
        let Some(l) = &st.loaded else {
            return error("no model is loaded");
        };
        inference::generate::prepare(
            &l.vocab,
            &job.prompt,
            job.leading_bos.as_deref(),
            l.adds_bos,
            &job.options,
            job.default_num_ctx,
            job.truncate,
            job.shift,
        )
    };
    let inference::generate::Prepared { options, tokens } = match prepared {
        Ok(p) => p,
        Err(e) => return error(&e.to_string()),
    };
    // this job's KV cache next to the weights (loaded: no copy left)
    if let Some(l) = &state.borrow().loaded {
        let n_ctx = inference::generate::effective_ctx(options.num_ctx, l.model.n_ctx_train());
        let mut need = MemoryNeed::new(l.file_size, l.shape.as_ref(), n_ctx as u64);
        need.copy = 0;
        if let Err(why) = need.check() {
            return error(&why);
        }
    }
    if options.num_predict == 0 {
        let m = ollama::response::Metrics {
            total_duration: clock(),
            prompt_eval_count: tokens.ids.len(),
            ..Default::default()
        };
        emit(&generate::final_chunk(
            &job,
            &created_at(),
            &Default::default(),
            "length",
            m,
            None,
        ));
        return;
    }
    let seed = (js_sys::Math::random() * 4_294_967_294.0) as u32;
    let mut g = {
        let mut st = state.borrow_mut();
        let Some(l) = st.loaded.as_mut() else {
            return error("no model is loaded");
        };
        match Generation::start(&mut l.model, &tokens.ids, &options, seed, &clock) {
            Ok(g) => g,
            Err(e) => return error(&e.to_string()),
        }
    };
    let mut debug = job.debug.then(|| {
        serde_json::json!({"rendered_template": job.prompt, "options": options.to_json(), "seed": g.seed(),
                           "prompt_tokens": tokens.ids.len()})
    });
    // what the handler makes of the pieces: the model's parser, the
    // generic thinking parser, the TEMPLATE's tool parser
    let setup = match ollama::answer::Setup::from_spec(&job.answer, ollama::date::Date::today_utc())
    {
        Ok(s) => s,
        Err(e) => return error(&format!("bad job: {e}")),
    };
    let mut handler = ollama::answer::Handler::new(
        &setup,
        ollama::answer::tool_call_ids(u64::from(seed) ^ (js_sys::Date::now() as u64)),
    );
    if let Some(l) = &state.borrow().loaded {
        g.preserve_tokens(&l.vocab, &handler.preserved_tokens());
    }
    let mut repeats = ollama::answer::RepeatGuard::default();
    let reason = loop {
        if state.borrow().stop {
            // a stop from the user ends the answer as a stop string would
            break Some("stop");
        }
        let step = {
            let mut st = state.borrow_mut();
            let Some(l) = st.loaded.as_mut() else {
                return error("no model is loaded");
            };
            g.step(&mut l.model, &l.vocab, &clock)
        };
        match step {
            Ok(Step::Text(t)) if t.is_empty() => {}
            Ok(Step::Text(t)) => {
                // the raw piece, before Ollama's parsers (the Answer pane)
                post(&[("type", "piece".into()), ("text", t.as_str().into())]);
                if repeats.aborts(&t) {
                    // llama_server.go aborts; no final response follows
                    break None;
                }
                match handler.piece(&t, false) {
                    Ok(Some(out)) => emit(&generate::text_chunk(
                        &job,
                        &created_at(),
                        &out,
                        debug.take(),
                    )),
                    Ok(None) => {}
                    Err(e) => return error(&e),
                }
            }
            Ok(Step::Done(r)) => break Some(r.as_str()),
            Err(e) => return error(&e.to_string()),
        }
        yield_now().await;
    };
    let Some(reason) = reason else {
        return;
    };
    let last = match handler.piece("", true) {
        Ok(o) => o.unwrap_or_default(),
        Err(e) => return error(&e),
    };
    let context = {
        let st = state.borrow();
        st.loaded
            .as_ref()
            .filter(|_| job.wants_context())
            .and_then(|l| {
                l.vocab
                    .tokenize(&format!("{}{}", job.prompt, g.text()), false, true)
                    .ok()
            })
    };
    let t = g.timings();
    let m = t.metrics(clock(), 0);
    emit(&generate::final_chunk(
        &job,
        &created_at(),
        &last,
        reason,
        m,
        context.as_deref(),
    ));
}

/// Installs the message handler. A `start` export, since wasm-bindgen
/// does not run a worker binary's `main` by itself. In the threaded build
/// (where wasm-bindgen runs it on the first thread only) the helper
/// threads start first.
#[wasm_bindgen(start)]
pub fn start() {
    #[cfg(feature = "threads")]
    wasm_bindgen_futures::spawn_local(async {
        let threads = generate::threads_from_query(
            &scope().location().search(),
            scope().navigator().hardware_concurrency() as u32,
        );
        match pool::start(threads).await {
            Ok(()) => serve(),
            Err(e) => error(&format!(
                "the {} helper threads did not start: {e}",
                threads - 1
            )),
        }
    });
    #[cfg(not(feature = "threads"))]
    serve();
}

/// The threaded build's helper threads (`inference::threads::help`).
#[cfg(feature = "threads")]
mod pool {
    use wasm_bindgen::prelude::*;

    #[wasm_bindgen(module = "/src/bin/generate/pool.js")]
    extern "C" {
        #[wasm_bindgen(js_name = startHelpers)]
        fn start_helpers(
            module: JsValue,
            memory: JsValue,
            main_js: JsValue,
            count: usize,
        ) -> js_sys::Promise;
    }

    #[wasm_bindgen]
    extern "C" {
        /// The URL of this worker's wasm-bindgen module, which the
        /// helpers load again.
        #[wasm_bindgen(thread_local_v2, js_namespace = ["import", "meta"], js_name = url)]
        static MODULE_URL: js_sys::JsString;
    }

    /// A helper thread's entry (pool.js calls it once the module is
    /// loaded): takes the products' tiles for good.
    #[wasm_bindgen]
    pub fn pool_helper() {
        inference::threads::help()
    }

    /// Starts `threads - 1` helpers and waits until each has loaded the
    /// module; from then on the products run on `threads` threads.
    pub async fn start(threads: usize) -> Result<(), String> {
        if threads > 1 {
            let started = start_helpers(
                wasm_bindgen::module(),
                wasm_bindgen::memory(),
                MODULE_URL.with(|u| u.clone()).into(),
                threads - 1,
            );
            wasm_bindgen_futures::JsFuture::from(started)
                .await
                .map_err(|e| {
                    js_sys::Error::from(e)
                        .message()
                        .as_string()
                        .unwrap_or_default()
                })?;
        }
        inference::threads::set_threads(threads);
        Ok(())
    }
}

/// Answers the page's messages, then says it is ready.
fn serve() {
    let state = Rc::new(RefCell::new(State::default()));
    common::serve(move |ev: MessageEvent| {
        let data = ev.data();
        match common::field(&data, "type").as_deref().unwrap_or("") {
            "load" => {
                let Some(file) = common::file_field(&data) else {
                    return error("load needs a file");
                };
                state.borrow_mut().loaded = None;
                let num_ctx = js_sys::Reflect::get(&data, &"num_ctx".into())
                    .ok()
                    .and_then(|v| v.as_f64())
                    .map(|f| f as i64);
                load(&state, file, num_ctx);
            }
            "generate" => {
                let json = common::field(&data, "json").unwrap_or_default();
                let job = match Job::from_json(&json) {
                    Ok(j) => j,
                    Err(e) => return error(&e),
                };
                {
                    let mut st = state.borrow_mut();
                    if st.busy {
                        return error("a generation is already running");
                    }
                    st.busy = true;
                    st.stop = false;
                }
                let state = state.clone();
                wasm_bindgen_futures::spawn_local(async move {
                    run(state.clone(), job).await;
                    state.borrow_mut().busy = false;
                    post(&[("type", "done".into())]);
                });
            }
            "stop" => state.borrow_mut().stop = true,
            other => error(&format!("unknown message {other:?}")),
        }
    });
}
