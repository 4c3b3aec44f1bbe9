//! The Generate pane: runs the model of the chosen GGUF in a Web Worker
//! (`generate-worker`, loaded only when asked) and streams Ollama's response
//! chunks: progress while the weights load, the text as it comes, tokens
//! per second, a stop button and the NDJSON the worker produced. The raw
//! pieces the model wrote go to the store, for the Answer pane.

use gloo_events::EventListener;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use promptscope_app::generate::{self, Engine, Job, Summary};

use crate::ui::store::Store;

/// Where the pane is.
#[derive(Clone, Debug, PartialEq)]
enum Phase {
    Idle,
    /// Bytes read of the file's total.
    Loading(f64, f64),
    Running,
    Error(String),
}

fn message(fields: &[(&str, JsValue)]) -> JsValue {
    let o = js_sys::Object::new();
    for (k, v) in fields {
        let _ = js_sys::Reflect::set(&o, &JsValue::from_str(k), v);
    }
    o.into()
}

/// Where the engine choice is saved.
const ENGINE_KEY: &str = "promptscope.generate.engine";

fn engine_label(e: Engine) -> &'static str {
    match e {
        Engine::Auto => "generate.engine.auto",
        Engine::WebGpu => "generate.engine.webgpu",
        Engine::CpuThreads => "generate.engine.cpu-threads",
        Engine::CpuRelaxed => "generate.engine.cpu-relaxed",
        Engine::CpuSimd128 => "generate.engine.cpu-simd128",
    }
}

/// Whether this browser validates relaxed SIMD (checked once).
fn has_relaxed_simd() -> bool {
    thread_local! {
        static HAS: bool = js_sys::WebAssembly::validate(
            &js_sys::Uint8Array::from(&generate::relaxed_simd_probe()[..]).into(),
        )
        .unwrap_or(false);
    }
    HAS.with(|h| *h)
}

/// What this browser offers the workers (read once): relaxed SIMD, shared
/// memory (`crossOriginIsolated` and `SharedArrayBuffer`: the service
/// worker's COOP/COEP headers make the page isolated; an iframe is only
/// where its host page is) and the core count.
fn browser_caps() -> generate::Browser {
    let global = js_sys::global();
    let isolated = js_sys::Reflect::get(&global, &"crossOriginIsolated".into())
        .ok()
        .and_then(|v| v.as_bool())
        .unwrap_or(false);
    let sab = js_sys::Reflect::has(&global, &"SharedArrayBuffer".into()).unwrap_or(false);
    let cores = web_sys::window()
        .map(|w| w.navigator().hardware_concurrency())
        .unwrap_or(0.0);
    generate::Browser {
        relaxed_simd: has_relaxed_simd(),
        shared_memory: isolated && sab,
        cores: cores as u32,
    }
}

/// The pane.
#[component]
pub fn GeneratePane() -> impl IntoView {
    let store = expect_context::<Store>();
    let phase = RwSignal::new(Phase::Idle);
    let lines = RwSignal::new(Vec::<String>::new());
    let loaded_name = StoredValue::new_local(None::<String>);
    let worker = StoredValue::new_local(None::<web_sys::Worker>);
    let pending = StoredValue::new_local(None::<String>);
    let debug = RwSignal::new(false);
    // what runs where, from the worker once the model is loaded
    let runner = RwSignal::new(None::<String>);
    // Messages wait here until the worker says it is ready (a message
    // posted while its wasm still loads would be lost).
    let ready = StoredValue::new_local(false);
    let queue = StoredValue::new_local(Vec::<JsValue>::new());
    let post = move |w: &web_sys::Worker, fields: &[(&str, JsValue)]| {
        let m = message(fields);
        if ready.get_value() {
            let _ = w.post_message(&m);
        } else {
            queue.update_value(|q| q.push(m));
        }
    };
    let summary = Memo::new(move |_| lines.with(|l| generate::summarize(l)));
    // a compatibility route's (name, path, body as the client sent it)
    let route = RwSignal::new(None::<(String, String, serde_json::Value)>);
    let seed = StoredValue::new(0u64);
    // what the route writes back, from the answer worker (which holds the
    // routes' writers), asked again as the lines come
    Effect::new(move |_| {
        let Some((name, _, body)) = route.get() else {
            return;
        };
        store.answers.ask_route(promptscope_app::answer::RouteJob {
            seq: 0,
            route: name,
            body,
            lines: lines.get(),
            now: (js_sys::Date::now() / 1000.0) as i64,
            seed: seed.get_value(),
            release: store.state.with_untracked(|s| s.ollama.clone()),
        });
    });
    let route_answer = Memo::new(move |_| {
        store
            .answers
            .route
            .with(|r| r.as_ref().and_then(|r| r.text.clone()))
    });

    // the worker build to run (the pane's engine choice, saved)
    let engine = RwSignal::new(
        crate::ui::browser::load(ENGINE_KEY)
            .and_then(|k| Engine::from_key(&k))
            .unwrap_or_default(),
    );
    let caps = browser_caps();
    let worker_url = StoredValue::new_local(None::<String>);
    let spawn = move || -> Option<web_sys::Worker> {
        let start = engine.get_untracked().worker(caps);
        if let Some(w) = worker.get_value() {
            if worker_url.get_value().as_deref() == Some(start.url.as_str()) {
                return Some(w);
            }
            // another build was chosen: the old worker and its model go
            w.terminate();
            worker.set_value(None);
            ready.set_value(false);
            queue.set_value(Vec::new());
            loaded_name.set_value(None);
        }
        worker_url.set_value(Some(start.url.clone()));
        let made = if start.module {
            let options = web_sys::WorkerOptions::new();
            options.set_type(web_sys::WorkerType::Module);
            web_sys::Worker::new_with_options(&start.url, &options)
        } else {
            web_sys::Worker::new(&start.url)
        };
        let w = match made {
            Ok(w) => w,
            Err(e) => {
                phase.set(Phase::Error(format!("{e:?}")));
                return None;
            }
        };
        let on_message = EventListener::new(&w, "message", move |ev| {
            let data = ev.unchecked_ref::<web_sys::MessageEvent>().data();
            let get = |k: &str| {
                js_sys::Reflect::get(&data, &JsValue::from_str(k)).unwrap_or(JsValue::UNDEFINED)
            };
            match get("type").as_string().as_deref() {
                Some("ready") => {
                    ready.set_value(true);
                    if let Some(w) = worker.get_value() {
                        for m in queue.get_value() {
                            let _ = w.post_message(&m);
                        }
                    }
                    queue.set_value(Vec::new());
                }
                Some("progress") => {
                    let (d, t) = (
                        get("done").as_f64().unwrap_or(0.0),
                        get("total").as_f64().unwrap_or(1.0),
                    );
                    phase.set(Phase::Loading(d, t));
                }
                Some("loaded") => {
                    runner.set(get("runner").as_string());
                    phase.set(Phase::Running);
                    if let (Some(w), Some(job)) = (worker.get_value(), pending.get_value()) {
                        pending.set_value(None);
                        post(&w, &[("type", "generate".into()), ("json", job.into())]);
                    }
                }
                Some("piece") => {
                    if let Some(t) = get("text").as_string() {
                        store.generated_pieces.update(|p| p.push(t));
                    }
                }
                Some("chunk") => {
                    if let Some(line) = get("json").as_string() {
                        lines.update(|l| l.push(line));
                    }
                }
                Some("done") if phase.get_untracked() == Phase::Running => phase.set(Phase::Idle),
                Some("error") => {
                    loaded_name.set_value(None);
                    phase.set(Phase::Error(get("message").as_string().unwrap_or_default()));
                }
                _ => {}
            }
        });
        // a worker that cannot start (its script missing, a module the
        // browser refuses) says so here, not with a message
        let on_error = EventListener::new(&w, "error", move |ev| {
            let why = js_sys::Reflect::get(ev, &JsValue::from_str("message"))
                .ok()
                .and_then(|m| m.as_string())
                .filter(|m| !m.is_empty())
                .unwrap_or_else(|| "the generation worker did not start".to_string());
            loaded_name.set_value(None);
            phase.set(Phase::Error(why));
        });
        // the listeners live as long as the worker, for the page's life
        on_message.forget();
        on_error.forget();
        worker.set_value(Some(w.clone()));
        Some(w)
    };

    let run = move |_| {
        let Some(file) = store.gguf_file.get_value() else {
            phase.set(Phase::Error(store.t("generate.no_gguf").to_string()));
            return;
        };
        let outcome = store.outcome.get_untracked();
        let Some(prompt) = outcome.prompt.clone() else {
            let why = outcome
                .error
                .as_ref()
                .map(|e| e.message.clone())
                .unwrap_or_else(|| store.t("generate.no_prompt").to_string());
            phase.set(Phase::Error(why));
            return;
        };
        let Ok(mut request) = store.body.get_untracked() else {
            phase.set(Phase::Error(store.t("generate.no_prompt").to_string()));
            return;
        };
        route.set(
            outcome
                .route
                .as_ref()
                .map(|r| (r.route.clone(), r.path.clone(), request.clone())),
        );
        seed.set_value(js_sys::Date::now() as u64);
        // through a compatibility route: what the route handed the native handler
        if let Some(converted) = outcome
            .route
            .as_ref()
            .and_then(|r| r.api_request.as_deref())
            .and_then(|t| serde_json::from_str(t).ok())
        {
            request = converted;
        }
        let endpoint = store.state.with_untracked(|s| s.endpoint).server();
        let leading_bos = outcome.explain.as_ref().and_then(|e| e.leading_bos.clone());
        let mut job = Job::new(
            endpoint,
            &request,
            prompt,
            leading_bos,
            debug.get_untracked(),
        );
        job.answer = outcome.answer_setup.clone().unwrap_or_default();
        job.release = store.state.with_untracked(|s| s.ollama.clone());
        let num_ctx = job.num_ctx();
        // the memory check, with the KV cache when the Model pane read this
        // file's header (the worker checks again with the header it reads)
        let gguf = store.gguf.get_untracked();
        let shape = gguf
            .as_ref()
            .filter(|g| g.name == file.name())
            .and_then(|g| generate::ModelShape::from_gguf(&g.file).ok());
        let n_ctx = shape.as_ref().map_or(0, |s| s.ctx_for(num_ctx));
        if let Err(why) =
            generate::MemoryNeed::new(file.size() as u64, shape.as_ref(), n_ctx).check()
        {
            phase.set(Phase::Error(why));
            return;
        }
        let job = job.to_json();
        let Some(w) = spawn() else { return };
        lines.set(Vec::new());
        store.generated_pieces.set(Vec::new());
        if loaded_name.get_value().as_deref() == Some(file.name().as_str()) {
            phase.set(Phase::Running);
            post(&w, &[("type", "generate".into()), ("json", job.into())]);
        } else {
            loaded_name.set_value(Some(file.name()));
            pending.set_value(Some(job));
            runner.set(None);
            phase.set(Phase::Loading(0.0, file.size()));
            post(
                &w,
                &[
                    ("type", "load".into()),
                    ("file", file.into()),
                    ("num_ctx", (num_ctx as f64).into()),
                    ("gpu", engine.get_untracked().gpu().key().into()),
                ],
            );
        }
    };
    let stop = move |_| {
        if let Some(w) = worker.get_value() {
            post(&w, &[("type", "stop".into())]);
        }
    };

    let status = move || match phase.get() {
        Phase::Idle => summary.with(|s: &Summary| match &s.done_reason {
            Some(r) => store.tf(
                "generate.finished",
                &[
                    ("reason", r),
                    ("prompt", &s.prompt_eval_count.to_string()),
                    ("eval", &s.eval_count.to_string()),
                    (
                        "tps",
                        &s.tokens_per_second
                            .map(|t| format!("{t:.1}"))
                            .unwrap_or_else(|| "–".into()),
                    ),
                    (
                        "pps",
                        &s.prompt_tokens_per_second
                            .map(|t| format!("{t:.1}"))
                            .unwrap_or_else(|| "–".into()),
                    ),
                ],
            ),
            None => match store.gguf.get() {
                Some(g) => store.tf("generate.ready", &[("name", &g.name)]),
                None => store.t("generate.idle").to_string(),
            },
        }),
        Phase::Loading(done, total) => store.tf(
            "generate.loading",
            &[
                ("done", &generate::megabytes(done)),
                ("total", &generate::megabytes(total)),
                ("pct", &format!("{:.0}", done / total.max(1.0) * 100.0)),
            ],
        ),
        Phase::Running => store.t("generate.running").to_string(),
        Phase::Error(e) => e,
    };

    view! {
        <section class="pane" id="generate-pane" data-testid="generate-pane" aria-labelledby="generate-heading">
            <div class="pane-head">
                <h2 id="generate-heading">{move || store.t("generate.title")}</h2>
                <button type="button" data-testid="generate-run" on:click=run
                    disabled=move || matches!(phase.get(), Phase::Loading(..) | Phase::Running)>
                    {move || store.t("generate.run")}
                </button>
                <button type="button" data-testid="generate-stop" on:click=stop
                    disabled=move || phase.get() != Phase::Running>
                    {move || store.t("generate.stop")}
                </button>
                <label>
                    {move || store.t("generate.engine")} " "
                    <select data-testid="generate-engine"
                        disabled=move || matches!(phase.get(), Phase::Loading(..) | Phase::Running)
                        on:change=move |ev| {
                            if let Some(e) = Engine::from_key(&event_target_value(&ev)) {
                                crate::ui::browser::save(ENGINE_KEY, e.key());
                                engine.set(e);
                            }
                        }>
                        {Engine::offered(caps)
                            .into_iter()
                            .map(|e| {
                                view! {
                                    <option value=e.key() selected=move || engine.get() == e>
                                        {move || store.t(engine_label(e))}
                                    </option>
                                }
                            })
                            .collect_view()}
                    </select>
                </label>
                <label>
                    <input type="checkbox" data-testid="generate-debug"
                        on:change=move |ev| debug.set(event_target_checked(&ev)) />
                    " " {move || store.t("generate.debug")}
                </label>
            </div>
            <p class="hint">{move || store.t("generate.help")}</p>
            <progress data-testid="generate-progress"
                max=move || match phase.get() { Phase::Loading(_, t) => t.max(1.0), _ => 1.0 }
                value=move || match phase.get() { Phase::Loading(d, _) => d, _ => 0.0 }
                hidden=move || !matches!(phase.get(), Phase::Loading(..)) />
            <p role="status" data-testid="generate-status"
                data-state=move || match phase.get() {
                    Phase::Idle => if summary.with(|s| s.done_reason.is_some()) { "done" } else { "idle" },
                    Phase::Loading(..) => "loading",
                    Phase::Running => "running",
                    Phase::Error(_) => "error",
                }>
                {status}
            </p>
            <p class="hint" data-testid="generate-runner" hidden=move || runner.with(Option::is_none)>
                {move || runner.get().unwrap_or_default()}
            </p>
            {move || {
                let thinking = summary.with(|s| s.thinking.clone());
                (!thinking.is_empty())
                    .then(|| {
                        view! {
                            <details class="thinking" open=true>
                                <summary>{move || store.t("generate.thinking")}</summary>
                                <pre class="prompt" data-testid="generate-thinking" tabindex="0">{thinking}</pre>
                            </details>
                        }
                    })
            }}
            <pre class="prompt" data-testid="generate-output" tabindex="0">{move || summary.with(|s| s.text.clone())}</pre>
            {move || {
                route.with(|r| r.as_ref().map(|(_, path, _)| path.clone())).map(|path| {
                    view! {
                        <details class="route-answer" open=true>
                            <summary>{move || store.tf("generate.route_answer", &[("path", &path)])}</summary>
                            <pre class="prompt" data-testid="generate-route" tabindex="0">{move || route_answer.get().unwrap_or_default()}</pre>
                        </details>
                    }
                })
            }}
            <details>
                <summary>{move || store.t("generate.json")}</summary>
                <pre class="prompt" data-testid="generate-json" tabindex="0">{move || lines.with(|l| l.join("\n"))}</pre>
            </details>
        </section>
    }
}
