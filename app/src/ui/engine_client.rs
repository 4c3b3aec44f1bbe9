//! The page's side of the engine worker (`engine-worker`, protocol in
//! `promptscope_app::jobs`): with a GGUF, renders run there with its
//! vocabulary and come back as [`Answer`]s.
//!
//! Cancellation: a request still unanswered after [`RESTART_MS`] when a
//! newer one arrives (the user typed on) terminates the worker and starts a
//! fresh one on the same file; the Cancel button does the same and turns
//! token counting off until asked again.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;
use std::time::Duration;

use gloo_events::EventListener;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use promptscope_app::jobs::{Loaded, Reply, Request};
use promptscope_app::state::State;

use crate::ui::browser;
use crate::ui::store::{Store, Tokenizer};

/// After this long unanswered, the page shows that it is counting, with a
/// Cancel button.
pub const SLOW_MS: u64 = 300;
/// A request unanswered this long is abandoned (the worker restarted) when
/// a newer one arrives.
pub const RESTART_MS: f64 = 1000.0;

/// The page's render slot.
pub const MAIN: &str = "main";
/// The Compare pane's slot.
pub const COMPARE: &str = "compare";

/// One running worker.
pub struct Client {
    worker: web_sys::Worker,
    file: web_sys::File,
    /// Whether the worker has read the file (requests wait until then).
    loaded: bool,
    ready: bool,
    /// Requests not yet posted: the latest per slot.
    outbox: BTreeMap<String, String>,
    /// Per slot: the latest sequence number sent, and since when (ms) a
    /// request of the slot has been waiting for an answer.
    sent: BTreeMap<String, (u64, Option<f64>)>,
    /// The worker's `message` and `error` listeners (removed on drop).
    _listeners: [EventListener; 2],
}

/// The client, shared by the closures that talk to it.
pub type Shared = Rc<RefCell<Client>>;

fn post(worker: &web_sys::Worker, fields: &[(&str, JsValue)]) {
    let o = js_sys::Object::new();
    for (k, v) in fields {
        let _ = js_sys::Reflect::set(&o, &JsValue::from_str(k), v);
    }
    let _ = worker.post_message(&o);
}

fn field(data: &JsValue, name: &str) -> Option<String> {
    js_sys::Reflect::get(data, &name.into())
        .ok()
        .and_then(|v| v.as_string())
}

/// Starts a worker on `file` (replacing any running one).
pub fn start(store: Store, file: web_sys::File) {
    stop(store);
    let worker = match web_sys::Worker::new("./engine-worker_loader.js") {
        Ok(w) => w,
        Err(e) => {
            store.tokenizer.set(Tokenizer::Failed(format!("{e:?}")));
            return;
        }
    };
    store.tokenizer.set(Tokenizer::Loading);
    let on_message = EventListener::new(&worker, "message", move |ev| {
        on_message(store, ev.unchecked_ref::<web_sys::MessageEvent>().data())
    });
    // a worker that cannot start (its script missing offline) says so
    // (an ErrorEvent from a failing script; a plain Event when the script
    // cannot be fetched)
    let on_error = EventListener::new(&worker, "error", move |ev| {
        let why = field(ev, "message").filter(|m| !m.is_empty());
        let why = why.unwrap_or_else(|| "its script did not load".to_string());
        give_up(store, format!("the engine worker failed: {why}"));
    });
    let client = Client {
        worker,
        file,
        loaded: false,
        ready: false,
        outbox: BTreeMap::new(),
        sent: BTreeMap::new(),
        _listeners: [on_message, on_error],
    };
    store.engine.set_value(Some(Rc::new(RefCell::new(client))));
}

/// Terminates the worker, if one runs.
pub fn stop(store: Store) {
    if let Some(c) = store.engine.get_value() {
        c.borrow().worker.terminate();
    }
    store.engine.set_value(None);
    store.counting.set(false);
}

/// The worker failed (could not start, could not read the file): say
/// why, and render on the page from now on. Deferred, since the worker's
/// own handler is running and stopping drops it.
fn give_up(store: Store, message: String) {
    store.tokenizer.set(Tokenizer::Failed(message));
    set_timeout(
        move || {
            stop(store);
            store.schedule_render();
        },
        Duration::ZERO,
    );
}

/// Starts again on the same file (the running request is abandoned).
fn restart(store: Store) {
    let Some(c) = store.engine.get_value() else {
        return;
    };
    let (file, outbox) = {
        let c = c.borrow();
        (c.file.clone(), c.outbox.clone())
    };
    start(store, file);
    if let Some(c) = store.engine.get_value() {
        c.borrow_mut().outbox = outbox;
    }
}

fn on_message(store: Store, data: JsValue) {
    let Some(shared) = store.engine.get_value() else {
        return;
    };
    match field(&data, "type").as_deref().unwrap_or("") {
        "ready" => {
            let mut c = shared.borrow_mut();
            c.ready = true;
            post(
                &c.worker,
                &[("type", "load".into()), ("file", c.file.clone().into())],
            );
        }
        "loaded" => {
            let loaded: Option<Loaded> =
                field(&data, "json").and_then(|j| serde_json::from_str(&j).ok());
            let Some(loaded) = loaded else { return };
            let first = store.tokenizer.get_untracked() == Tokenizer::Loading;
            store.tokenizer.set(match loaded.vocab_error {
                None => Tokenizer::Ready,
                Some(e) => Tokenizer::Failed(e),
            });
            let outbox = {
                let mut c = shared.borrow_mut();
                c.loaded = true;
                std::mem::take(&mut c.outbox)
            };
            for (slot, json) in outbox {
                send_now(&shared, &slot, json);
            }
            if first {
                let (bos, eos) = (loaded.bos, loaded.eos);
                let changed = store
                    .state
                    .with_untracked(|s| s.model.bos_token != bos || s.model.eos_token != eos);
                if changed {
                    store.update(|s| {
                        s.model.bos_token = bos;
                        s.model.eos_token = eos;
                    });
                }
                store.schedule_render();
            }
        }
        "reply" => {
            let reply: Option<Reply> =
                field(&data, "json").and_then(|j| serde_json::from_str(&j).ok());
            if let Some(r) = reply {
                on_reply(store, &shared, r);
            }
        }
        "error" => give_up(store, field(&data, "message").unwrap_or_default()),
        _ => {}
    }
}

fn on_reply(store: Store, shared: &Shared, reply: Reply) {
    let latest = {
        let mut c = shared.borrow_mut();
        let Some(entry) = c.sent.get_mut(&reply.slot) else {
            return;
        };
        if entry.0 == reply.seq {
            entry.1 = None;
            true
        } else {
            // an older request answered: the newer one starts waiting now
            entry.1 = Some(browser::now_ms());
            false
        }
    };
    if !latest {
        return;
    }
    let answers = match reply.answers {
        Ok(a) => a,
        Err(e) => {
            store.say(e);
            return;
        }
    };
    if reply.slot == MAIN {
        // from the render request to its answer (the keystroke benchmark)
        browser::measure("promptscope:engine-worker", "promptscope:render-start");
        store.counting.set(false);
        if let Some(a) = answers.into_iter().next() {
            store.apply_answer(a);
        }
    } else if reply.slot == COMPARE {
        store.compare_answers.set(Some(answers));
    }
}

fn send_now(shared: &Shared, slot: &str, json: String) {
    let c = shared.borrow();
    post(
        &c.worker,
        &[
            ("type", "run".into()),
            ("slot", slot.into()),
            ("json", json.into()),
        ],
    );
}

/// Asks for renders of `states` in `slot`, with the shown prompts' tokens
/// when `tokens`. Returns false when no worker runs (no GGUF, or counting
/// turned off): the caller renders itself.
pub fn request(store: Store, slot: &str, states: &[&State], today: &str, tokens: bool) -> bool {
    let Some(shared) = store.engine.get_value() else {
        return false;
    };
    let stale = {
        let c = shared.borrow();
        c.sent
            .get(slot)
            .and_then(|(_, since)| *since)
            .is_some_and(|t| browser::now_ms() - t > RESTART_MS)
    };
    if stale {
        restart(store);
    }
    let Some(shared) = store.engine.get_value() else {
        return false;
    };
    let seq = {
        let mut c = shared.borrow_mut();
        let now = browser::now_ms();
        let entry = c.sent.entry(slot.to_string()).or_insert((0, None));
        entry.0 += 1;
        if entry.1.is_none() {
            entry.1 = Some(now);
        }
        entry.0
    };
    let json =
        serde_json::to_string(&Request::new(slot, seq, today, states, tokens)).unwrap_or_default();
    let loaded = shared.borrow().loaded;
    if loaded {
        send_now(&shared, slot, json);
    } else {
        shared.borrow_mut().outbox.insert(slot.to_string(), json);
    }
    if slot == MAIN {
        let waiting = shared.clone();
        set_timeout(
            move || {
                let still = waiting
                    .borrow()
                    .sent
                    .get(MAIN)
                    .is_some_and(|&(s, since)| s == seq && since.is_some());
                if still {
                    store.counting.set(true);
                }
            },
            Duration::from_millis(SLOW_MS),
        );
    }
    true
}

/// The Cancel button: abandons the running render and renders on the page
/// without counting tokens until [`resume`].
pub fn cancel(store: Store) {
    // the file stays in `gguf_file` for `resume`
    stop(store);
    store.tokenizer.set(Tokenizer::Off);
    store.schedule_render();
}

/// Counts tokens again after [`cancel`].
pub fn resume(store: Store) {
    if let Some(f) = store.gguf_file.get_value() {
        start(store, f);
    }
}
