//! The generation worker's code, shared by `generate-worker`,
//! `generate-worker-relaxed` (the same source, built with and without the
//! `relaxed-simd` feature) and `generate-worker-threads` (the relaxed one
//! with the `threads` feature: nightly, `+atomics`, shared memory; its
//! matrix products run on a pool of Web Workers that it starts first).

use std::cell::RefCell;
use std::rc::Rc;

use inference::{Generation, Model, Step};
use promptscope_app::generate::{self, GpuChoice, Job, MemoryNeed, ModelShape};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::MessageEvent;

use crate::common::{self, error, post, scope};

/// The model on the CPU (wasm kernels) or on the GPU (WebGPU).
enum Net {
    Cpu(Model),
    Gpu(Box<gpu::Model>),
}

impl Net {
    fn n_ctx_train(&self) -> usize {
        match self {
            Net::Cpu(m) => m.n_ctx_train(),
            Net::Gpu(m) => m.cpu().n_ctx_train(),
        }
    }

    /// `general.architecture`: the family context shift's default asks for.
    fn arch(&self) -> &str {
        match self {
            Net::Cpu(m) => m.arch(),
            Net::Gpu(m) => m.cpu().arch(),
        }
    }

    fn reset(&mut self) {
        match self {
            Net::Cpu(m) => m.reset(),
            Net::Gpu(m) => m.reset(),
        }
    }

    /// The context of the next job (on the GPU, fixed when it was built).
    fn set_n_ctx(&mut self, n_ctx: usize) {
        if let Net::Cpu(m) = self {
            m.set_n_ctx(n_ctx);
        }
    }

    /// The logits of the last of `ids`, evaluated after those seen (the
    /// CPU in llama-server's batches).
    async fn forward(&mut self, ids: &[u32]) -> Result<Vec<f32>, String> {
        match self {
            Net::Cpu(m) => {
                let mut logits = Vec::new();
                for chunk in ids.chunks(inference::generate::N_BATCH) {
                    logits = m.forward(chunk).map_err(|e| e.to_string())?;
                }
                Ok(logits)
            }
            Net::Gpu(m) => m.forward(ids).await.map_err(|e| e.to_string()),
        }
    }
}

struct Loaded {
    model: Net,
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

/// The browser's WebGPU adapter as its `info` describes it (vendor,
/// architecture, description; "fallback" for a software adapter) and its
/// features, for the runner line, and whether it is a software one
/// (a fallback adapter, or SwiftShader); `None` without WebGPU.
async fn adapter_line() -> Option<(String, bool)> {
    use js_sys::Reflect;
    let get = |o: &JsValue, k: &str| Reflect::get(o, &JsValue::from_str(k)).ok();
    let navigator = get(&js_sys::global(), "navigator")?;
    let gpu = get(&navigator, "gpu").filter(|g| !g.is_undefined())?;
    let request: js_sys::Function = get(&gpu, "requestAdapter")?.dyn_into().ok()?;
    let opts = js_sys::Object::new();
    Reflect::set(&opts, &"powerPreference".into(), &"high-performance".into()).ok()?;
    let promise: js_sys::Promise = request.call1(&gpu, &opts).ok()?.dyn_into().ok()?;
    let adapter = wasm_bindgen_futures::JsFuture::from(promise).await.ok()?;
    if adapter.is_null() || adapter.is_undefined() {
        return None;
    }
    let info = get(&adapter, "info").unwrap_or(JsValue::UNDEFINED);
    let text = |k: &str| {
        get(&info, k)
            .and_then(|v| v.as_string())
            .filter(|s| !s.is_empty())
    };
    let mut name: Vec<String> = ["vendor", "architecture", "device", "description"]
        .into_iter()
        .filter_map(text)
        .collect();
    name.dedup();
    let fallback = get(&info, "isFallbackAdapter").and_then(|v| v.as_bool()) == Some(true);
    if fallback {
        name.push("fallback".into());
    }
    let software = fallback
        || name
            .iter()
            .any(|n| n.to_lowercase().contains("swiftshader"));
    let features: Vec<String> = get(&adapter, "features")
        .map(|f| {
            js_sys::Array::from(&f)
                .iter()
                .filter_map(|v| v.as_string())
                .collect()
        })
        .unwrap_or_default();
    let mut features = features;
    features.sort();
    let line = format!(
        "{} (features: {})",
        if name.is_empty() {
            "unnamed adapter".to_string()
        } else {
            name.join(" ")
        },
        if features.is_empty() {
            "none".to_string()
        } else {
            features.join(", ")
        }
    );
    Some((line, software))
}

async fn load(
    state: Rc<RefCell<State>>,
    file: web_sys::File,
    num_ctx: Option<i64>,
    choice: GpuChoice,
    layers: Option<usize>,
) {
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
    let vocab = match tokenizer::Vocab::from_gguf_with(
        &meta,
        tokenizer::LoadOptions::ollama(true).with_build(ollama::server::OLLAMA_LLAMA_CPP),
    ) {
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
    let mut model = match Model::from_vec(bytes) {
        Ok(m) => m,
        Err(e) => return error(&e.to_string()),
    };
    if let Some(n) = layers {
        model.truncate_layers(n);
    }
    drop(meta);
    let arch = model.arch().to_string();
    // what runs where, as the engine says it
    let mut runner = model.runner().line();
    let mut engine = "cpu";
    let model = if choice == GpuChoice::Off {
        Net::Cpu(model)
    } else {
        // the GPU's KV cache holds the context the first job asks for (a
        // later job that needs more loads the model again)
        let ctx = if n_ctx > 0 { n_ctx as usize } else { 4096 };
        let ctx = ctx.min(model.n_ctx_train().max(1));
        let adapter = adapter_line().await;
        let software = adapter.as_ref().is_some_and(|a| a.1);
        let tried = match gpu::Gpu::new().await {
            // Auto: a software adapter (SwiftShader) runs the model
            // several times slower than the CPU path
            Ok(g) if choice == GpuChoice::Prefer && (software || g.info().fallback) => Err((
                format!(
                    "{} is a software adapter, slower than the CPU; choose WebGPU to use it",
                    adapter.as_ref().map_or("the adapter", |a| a.0.as_str())
                ),
                model,
            )),
            Ok(g) => gpu::Model::load(model, g, ctx)
                .await
                .map_err(|(e, cpu)| (e.to_string(), cpu)),
            // no adapter, or none that gives a device
            Err(e) => Err((e.to_string(), model)),
        };
        match tried {
            Ok(m) => {
                engine = "webgpu";
                runner = generate::gpu_runner_line(
                    &m.cpu().runner().line(),
                    adapter.as_ref().map_or("WebGPU", |a| a.0.as_str()),
                    m.gpu().info().fma.describe(),
                    m.weight_bytes(),
                    m.n_ctx(),
                );
                Net::Gpu(Box::new(m))
            }
            Err((why, _)) if choice == GpuChoice::Require => {
                return error(&format!("WebGPU: {why}"))
            }
            Err((why, cpu)) => {
                // Auto: the CPU runs it, and the line says why
                runner = format!("{runner} (WebGPU: {why})");
                Net::Cpu(cpu)
            }
        }
    };
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
        ("engine", engine.into()),
        ("runner", runner.into()),
    ]);
}

/// Evaluates `ids` from an empty context and posts the last logits
/// (`{type: "logits", values}`): the test of the GPU path against the CPU.
async fn logits(state: Rc<RefCell<State>>, ids: Vec<u32>) {
    let Some(mut l) = state.borrow_mut().loaded.take() else {
        return error("no model is loaded");
    };
    l.model.reset();
    let r = l.model.forward(&ids).await;
    state.borrow_mut().loaded = Some(l);
    match r {
        Ok(v) => post(&[
            ("type", "logits".into()),
            ("values", js_sys::Float32Array::from(&v[..]).into()),
        ]),
        Err(e) => error(&e),
    }
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
            inference::Options::defaults_of(job.default_num_ctx, &job.release()),
            job.truncate,
            job.shift,
            l.model.arch(),
            job.release(),
        )
    };
    let inference::generate::Prepared { options, tokens } = match prepared {
        Ok(p) => p,
        Err(e) => return error(&e.to_string()),
    };
    // this job's KV cache next to the weights
    if let Some(l) = &state.borrow().loaded {
        let n_ctx = inference::generate::effective_ctx(options.num_ctx, l.model.n_ctx_train());
        let need = MemoryNeed::new(l.file_size, l.shape.as_ref(), n_ctx as u64);
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
    // the model leaves the state for the job (its forward passes await,
    // and a `stop` message must find the state free)
    let Some(mut l) = state.borrow_mut().loaded.take() else {
        return error("no model is loaded");
    };
    let result = generate_with(&state, &mut l, &job, &options, &tokens.ids, seed, start).await;
    state.borrow_mut().loaded = Some(l);
    if let Err(e) = result {
        error(&e);
    }
}

/// The job on a loaded model: prompt evaluation, then one token a step
/// until done or stopped, streaming Ollama's chunks.
async fn generate_with(
    state: &Rc<RefCell<State>>,
    l: &mut Loaded,
    job: &Job,
    options: &inference::Options,
    prompt: &[u32],
    seed: u32,
    start: u64,
) -> Result<(), String> {
    let clock = || now_ns() - start;
    let emit = |line: &serde_json::Value| {
        post(&[("type", "chunk".into()), ("json", line.to_string().into())]);
    };
    let mut g = Generation::begin(l.model.n_ctx_train(), prompt, options, seed)
        .map_err(|e| e.to_string())?;
    let t0 = clock();
    l.model.set_n_ctx(g.n_ctx());
    l.model.reset();
    let logits = l.model.forward(prompt).await?;
    if job.first_logits {
        post(&[
            ("type", "logits".into()),
            ("values", js_sys::Float32Array::from(&logits[..]).into()),
        ]);
    }
    g.prompt_evaluated(logits, clock().saturating_sub(t0));
    let mut debug = job.debug.then(|| {
        serde_json::json!({"rendered_template": job.prompt, "options": options.to_json(), "seed": g.seed(),
                           "prompt_tokens": prompt.len()})
    });
    // what the handler makes of the pieces: the model's parser, the
    // generic thinking parser, the TEMPLATE's tool parser
    let setup = ollama::answer::Setup::from_spec(&job.answer, ollama::date::Date::today_utc())
        .map_err(|e| format!("bad job: {e}"))?;
    let mut handler = ollama::answer::Handler::new(
        &setup,
        ollama::answer::tool_call_ids(u64::from(seed) ^ (js_sys::Date::now() as u64)),
    );
    g.preserve_tokens(&l.vocab, &handler.preserved_tokens());
    let mut repeats = ollama::answer::RepeatGuard::default();
    let reason = loop {
        if state.borrow().stop {
            // a stop from the user ends the answer as a stop string would
            break Some("stop");
        }
        let (step, next) = g.sample(&l.vocab, &clock).map_err(|e| e.to_string())?;
        if let Some(id) = next {
            let logits = l.model.forward(&[id]).await?;
            g.evaluated(logits, &clock);
        }
        match step {
            Step::Text(t) if t.is_empty() => {}
            Step::Text(t) => {
                // the raw piece, before Ollama's parsers (the Answer pane)
                post(&[("type", "piece".into()), ("text", t.as_str().into())]);
                if repeats.aborts(&t) {
                    // llama_server.go aborts; no final response follows
                    break None;
                }
                if let Some(out) = handler.piece(&t, false)? {
                    emit(&generate::text_chunk(
                        job,
                        &created_at(),
                        &out,
                        debug.take(),
                    ))
                }
            }
            Step::Done(r) => break Some(r.as_str()),
        }
        yield_now().await;
    };
    let Some(reason) = reason else {
        return Ok(());
    };
    let last = handler.piece("", true)?.unwrap_or_default();
    let context = job
        .wants_context()
        .then(|| {
            l.vocab
                .tokenize(&format!("{}{}", job.prompt, g.text()), false, true)
                .ok()
        })
        .flatten();
    let t = g.timings();
    let m = t.metrics(clock(), 0);
    emit(&generate::final_chunk(
        job,
        &created_at(),
        &last,
        reason,
        m,
        context.as_deref(),
    ));
    Ok(())
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
                if state.borrow().busy {
                    return error("a generation is running: stop it before loading another model");
                }
                state.borrow_mut().loaded = None;
                let num_ctx = js_sys::Reflect::get(&data, &"num_ctx".into())
                    .ok()
                    .and_then(|v| v.as_f64())
                    .map(|f| f as i64);
                // the first layers only (checking the GPU path layer by layer)
                let layers = js_sys::Reflect::get(&data, &"layers".into())
                    .ok()
                    .and_then(|v| v.as_f64())
                    .map(|f| f as usize);
                let choice = common::field(&data, "gpu")
                    .and_then(|k| GpuChoice::from_key(&k))
                    .unwrap_or(GpuChoice::Off);
                let state = state.clone();
                wasm_bindgen_futures::spawn_local(async move {
                    state.borrow_mut().busy = true;
                    load(state.clone(), file, num_ctx, choice, layers).await;
                    state.borrow_mut().busy = false;
                });
            }
            "logits" => {
                let ids: Vec<u32> = js_sys::Reflect::get(&data, &"ids".into())
                    .ok()
                    .map(|v| {
                        js_sys::Array::from(&v)
                            .iter()
                            .filter_map(|x| x.as_f64())
                            .map(|f| f as u32)
                            .collect()
                    })
                    .unwrap_or_default();
                if state.borrow().busy {
                    return error("a generation is already running");
                }
                let state = state.clone();
                wasm_bindgen_futures::spawn_local(async move {
                    state.borrow_mut().busy = true;
                    logits(state.clone(), ids).await;
                    state.borrow_mut().busy = false;
                });
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
