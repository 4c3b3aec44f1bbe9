//! The page's side of the answer worker: a second `engine-worker`, with no
//! GGUF, that runs Ollama's output parsers for the Answer pane
//! (`answer::Job`) and the compatibility routes' writers for the Generate
//! pane (`answer::RouteJob`). Both are heavy and wanted only once there is
//! output, so they stay out of the page's wasm: the worker starts with the
//! first job. Jobs of a kind are coalesced (only the latest counts; replies
//! to older ones are dropped). In the component tests, which have no worker
//! files, the jobs run on the page.

use std::cell::RefCell;
use std::rc::Rc;

use leptos::prelude::*;
use serde::Serialize;

use promptscope_app::answer::{self, Job, Reply, RouteJob, RouteReply};

use crate::ui::store::Store;

/// The worker's two kinds of job.
const ANSWER: &str = "answer";
const ROUTE: &str = "route";

/// What the page holds of the answer worker.
#[derive(Clone, Copy)]
pub struct Answers {
    /// The latest answer for the Answer pane (and the embedding API).
    pub reply: RwSignal<Option<Reply>>,
    /// The latest route answer for the Generate pane.
    pub route: RwSignal<Option<RouteReply>>,
    /// The worker, once started.
    #[cfg_attr(test, allow(dead_code))]
    worker: StoredValue<Option<Rc<RefCell<Client>>>, LocalStorage>,
    /// The latest job number sent, per kind (answer, route).
    seq: StoredValue<(u64, u64)>,
    /// The render and output of the latest answer job.
    #[cfg_attr(test, allow(dead_code))]
    latest: StoredValue<(u64, answer::Input)>,
}

#[cfg_attr(test, allow(dead_code))]
struct Client {
    worker: web_sys::Worker,
    /// Whether the worker listens (jobs wait until then).
    ready: bool,
    /// Jobs not yet posted: the latest per kind.
    outbox: Vec<(&'static str, String)>,
    /// Why the worker cannot run, once it failed.
    failed: Option<String>,
    _listeners: [gloo_events::EventListener; 2],
}

impl Answers {
    /// Nothing asked yet.
    pub fn new() -> Answers {
        Answers {
            reply: RwSignal::new(None),
            route: RwSignal::new(None),
            worker: StoredValue::new_local(None),
            seq: StoredValue::new((0, 0)),
            latest: StoredValue::new((0, answer::Input::default())),
        }
    }

    /// Asks for the answer to `job` (its `seq` is set here). An empty
    /// output is answered at once.
    pub fn ask(self, mut job: Job) {
        let seq = self.seq.with_value(|s| s.0) + 1;
        self.seq.update_value(|s| s.0 = seq);
        job.seq = seq;
        self.latest.set_value((job.render, job.input.clone()));
        if job.input.is_empty() {
            self.reply.set(Some(Reply {
                seq,
                render: job.render,
                input: job.input,
                shown: answer::Shown::Empty,
                embed: None,
            }));
            return;
        }
        #[cfg(test)]
        self.reply.set(Some(answer::run_job(&job)));
        #[cfg(not(test))]
        if let Err(why) = self.send(ANSWER, &job) {
            self.reply
                .set(Some(Reply::unavailable(seq, job.render, job.input, why)));
        }
    }

    /// Asks for a route's answer to the Generate pane's lines.
    pub fn ask_route(self, mut job: RouteJob) {
        let seq = self.seq.with_value(|s| s.1) + 1;
        self.seq.update_value(|s| s.1 = seq);
        job.seq = seq;
        #[cfg(test)]
        self.route.set(Some(answer::run_route_job(&job)));
        #[cfg(not(test))]
        if self.send(ROUTE, &job).is_err() {
            self.route.set(Some(RouteReply { seq, text: None }));
        }
    }

    /// Posts a job, starting the worker first if needed.
    #[cfg_attr(test, allow(dead_code))]
    fn send(self, kind: &'static str, job: &impl Serialize) -> Result<(), String> {
        let json = serde_json::to_string(job).map_err(|e| e.to_string())?;
        let client = match self.worker.get_value() {
            Some(c) => c,
            None => {
                let c = self.start()?;
                self.worker.set_value(Some(c.clone()));
                c
            }
        };
        let mut c = client.borrow_mut();
        if let Some(why) = &c.failed {
            return Err(why.clone());
        }
        if c.ready {
            post(&c.worker, kind, json);
        } else {
            c.outbox.retain(|(k, _)| *k != kind);
            c.outbox.push((kind, json));
        }
        Ok(())
    }

    #[cfg_attr(test, allow(dead_code))]
    fn start(self) -> Result<Rc<RefCell<Client>>, String> {
        use wasm_bindgen::JsCast;
        let worker = web_sys::Worker::new("./engine-worker_loader.js")
            .or_else(|_| blob_worker())
            .map_err(|e| format!("the answer worker cannot start: {e:?}"))?;
        let on_message = gloo_events::EventListener::new(&worker, "message", move |ev| {
            self.on_message(&ev.unchecked_ref::<web_sys::MessageEvent>().data())
        });
        // a script that cannot load (offline without it, or failing)
        let on_error = gloo_events::EventListener::new(&worker, "error", move |ev| {
            let why = field(ev, "message").filter(|m| !m.is_empty());
            let why = why.unwrap_or_else(|| "its script did not load".to_string());
            self.fail(format!("the answer worker failed: {why}"));
        });
        Ok(Rc::new(RefCell::new(Client {
            worker,
            ready: false,
            outbox: Vec::new(),
            failed: None,
            _listeners: [on_message, on_error],
        })))
    }

    #[cfg_attr(test, allow(dead_code))]
    fn on_message(self, data: &wasm_bindgen::JsValue) {
        let Some(client) = self.worker.get_value() else {
            return;
        };
        let json = field(data, "json").unwrap_or_default();
        match field(data, "type").as_deref().unwrap_or("") {
            "ready" => {
                let mut c = client.borrow_mut();
                c.ready = true;
                for (kind, json) in std::mem::take(&mut c.outbox) {
                    post(&c.worker, kind, json);
                }
            }
            ANSWER => {
                let Ok(r) = serde_json::from_str::<Reply>(&json) else {
                    return;
                };
                if r.seq == self.seq.with_value(|s| s.0) {
                    self.reply.set(Some(r));
                }
            }
            ROUTE => {
                let Ok(r) = serde_json::from_str::<RouteReply>(&json) else {
                    return;
                };
                if r.seq == self.seq.with_value(|s| s.1) {
                    self.route.set(Some(r));
                }
            }
            "error" => self.fail(field(data, "message").unwrap_or_default()),
            _ => {}
        }
    }

    /// The worker cannot run: what waits is answered with why, and so is
    /// every later job.
    #[cfg_attr(test, allow(dead_code))]
    fn fail(self, why: String) {
        if let Some(c) = self.worker.get_value() {
            let mut c = c.borrow_mut();
            c.failed = Some(why.clone());
            c.outbox.clear();
        }
        let seq = self.seq.get_value();
        let waiting = self
            .reply
            .with_untracked(|r| r.as_ref().is_none_or(|r| r.seq != seq.0));
        if waiting {
            let (render, input) = self.latest.get_value();
            self.reply
                .set(Some(Reply::unavailable(seq.0, render, input, why)));
        }
        self.route.set(Some(RouteReply {
            seq: seq.1,
            text: None,
        }));
    }
}

/// In a sandboxed frame (an opaque origin) no script URL is the page's
/// origin, so the worker starts from a `blob:` URL of our own making (the
/// Content-Security-Policy's `worker-src 'self' blob:`) that loads the
/// same files by their full URLs (fetched in CORS mode, as the page's own
/// module script is).
#[cfg_attr(test, allow(dead_code))]
fn blob_worker() -> Result<web_sys::Worker, wasm_bindgen::JsValue> {
    let base = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.base_uri().ok().flatten())
        .unwrap_or_default();
    let url = |file: &str| {
        web_sys::Url::new_with_base(file, &base)
            .map(|u| u.href())
            .unwrap_or_default()
    };
    // JSON strings are JavaScript string literals
    let script = format!(
        "importScripts({});wasm_bindgen({});",
        serde_json::Value::from(url("./engine-worker.js")),
        serde_json::Value::from(url("./engine-worker_bg.wasm")),
    );
    let parts = js_sys::Array::of1(&script.into());
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("text/javascript");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options)?;
    // (kept for the page's life: one worker per page)
    let href = web_sys::Url::create_object_url_with_blob(&blob)?;
    web_sys::Worker::new(&href)
}

#[cfg_attr(test, allow(dead_code))]
fn post(worker: &web_sys::Worker, kind: &str, json: String) {
    let o = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&o, &"type".into(), &kind.into());
    let _ = js_sys::Reflect::set(&o, &"json".into(), &json.into());
    let _ = worker.post_message(&o);
}

#[cfg_attr(test, allow(dead_code))]
fn field(data: &wasm_bindgen::JsValue, name: &str) -> Option<String> {
    js_sys::Reflect::get(data, &name.into())
        .ok()
        .and_then(|v| v.as_string())
}

/// Asks for the Answer pane's answer after each render and each change of
/// the output or the endpoint (whether or not the pane is shown: the
/// embedding API reads it too).
pub fn install(store: Store) {
    let input = store.slice(|s| s.answer.clone());
    let chat = store.slice(|s| s.endpoint.server() == ollama::server::Endpoint::Chat);
    Effect::new(move |_| {
        let render = store.renders.get();
        let input = input.get();
        let chat = chat.get();
        let (gate, route) = store.outcome.with_untracked(|o| {
            let route = o.route.as_ref().and_then(|r| {
                let body = store.body.with_untracked(|b| b.as_ref().ok().cloned())?;
                Some((r.route.clone(), body))
            });
            (answer::Gate::of(o), route)
        });
        store.answers.ask(Job {
            seq: 0,
            render,
            chat,
            input,
            today: crate::ui::browser::today(),
            gate,
            route,
            now: (js_sys::Date::now() / 1000.0) as i64,
        });
    });
}
