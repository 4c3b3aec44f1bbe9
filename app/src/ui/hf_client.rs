//! The page's side of the Hugging Face tokenizer worker
//! (`hf-tokenizer-worker`): a `tokenizer.json` loaded there counts
//! transformers' prompts exactly as the `tokenizers` library does. The
//! worker starts when the first `tokenizer.json` is opened.

use std::cell::RefCell;
use std::rc::Rc;

use gloo_events::EventListener;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::ui::store::Store;

/// Where the tokenizer stands.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum HfState {
    /// None opened.
    #[default]
    Off,
    /// Being read by the worker (its file name).
    Loading(String),
    /// Ready: its file name and vocabulary size.
    Loaded { name: String, vocab: usize },
    /// Refused or the worker failed: why.
    Failed(String),
}

/// The running worker.
pub struct Client {
    worker: web_sys::Worker,
    ready: bool,
    /// Messages posted before the worker said it was ready.
    queued: Vec<js_sys::Object>,
    _listeners: [EventListener; 2],
}

/// An answer: its request's sequence number, and the ids or why not.
pub type Ids = (u64, Result<Vec<u32>, String>);

/// The client, shared by the closures that talk to it.
pub type Shared = Rc<RefCell<Client>>;

fn message(fields: &[(&str, JsValue)]) -> js_sys::Object {
    let o = js_sys::Object::new();
    for (k, v) in fields {
        let _ = js_sys::Reflect::set(&o, &JsValue::from_str(k), v);
    }
    o
}

fn field(data: &JsValue, name: &str) -> Option<String> {
    js_sys::Reflect::get(data, &name.into())
        .ok()
        .and_then(|v| v.as_string())
}

fn send(store: Store, msg: js_sys::Object) {
    let Some(c) = store.hf_client.get_value() else {
        return;
    };
    let mut c = c.borrow_mut();
    if c.ready {
        let _ = c.worker.post_message(&msg);
    } else {
        c.queued.push(msg);
    }
}

fn on_message(store: Store, data: JsValue) {
    let name = match store.hf.get_untracked() {
        HfState::Loading(n) | HfState::Loaded { name: n, .. } => n,
        _ => String::new(),
    };
    match field(&data, "type").as_deref() {
        Some("ready") => {
            if let Some(c) = store.hf_client.get_value() {
                let mut c = c.borrow_mut();
                c.ready = true;
                for m in std::mem::take(&mut c.queued) {
                    let _ = c.worker.post_message(&m);
                }
            }
        }
        Some("loaded") => {
            let vocab = js_sys::Reflect::get(&data, &"vocab".into())
                .ok()
                .and_then(|v| v.as_f64())
                .unwrap_or(0.0) as usize;
            store.hf.set(HfState::Loaded { name, vocab });
        }
        Some("ids") => {
            let seq = js_sys::Reflect::get(&data, &"seq".into())
                .ok()
                .and_then(|v| v.as_f64())
                .unwrap_or(0.0) as u64;
            let ids: Result<Vec<u32>, String> =
                serde_json::from_str(&field(&data, "json").unwrap_or_default())
                    .map_err(|e| e.to_string());
            remember(store, (seq, ids));
        }
        _ => {
            let why = field(&data, "message").unwrap_or_else(|| "no answer".into());
            if matches!(store.hf.get_untracked(), HfState::Loading(_)) {
                store.hf.set(HfState::Failed(format!("{name}: {why}")));
            } else {
                let seq = store.hf_seq.get_value();
                remember(store, (seq, Err(why)));
            }
        }
    }
}

/// Keeps an answer among the last few.
fn remember(store: Store, ids: Ids) {
    store.hf_ids.update(|v| {
        v.push(ids);
        let extra = v.len().saturating_sub(8);
        v.drain(..extra);
    });
}

/// The answer to request `seq`, once it came.
pub fn answer(store: Store, seq: u64) -> Option<Result<Vec<u32>, String>> {
    store
        .hf_ids
        .with(|v| v.iter().find(|(s, _)| *s == seq).map(|(_, r)| r.clone()))
}

/// Loads a `tokenizer.json` (its file name and text), starting the worker
/// the first time.
pub fn load(store: Store, name: String, text: String) {
    if store.hf_client.get_value().is_none() {
        let worker = match web_sys::Worker::new("./hf-tokenizer-worker_loader.js") {
            Ok(w) => w,
            Err(e) => return store.hf.set(HfState::Failed(format!("{e:?}"))),
        };
        let on_msg = EventListener::new(&worker, "message", move |ev| {
            on_message(store, ev.unchecked_ref::<web_sys::MessageEvent>().data())
        });
        let on_error = EventListener::new(&worker, "error", move |ev| {
            let why = field(ev, "message").filter(|m| !m.is_empty());
            let why = why.unwrap_or_else(|| "its script did not load".to_string());
            store.hf.set(HfState::Failed(format!(
                "the tokenizer worker failed: {why}"
            )));
        });
        store.hf_client.set_value(Some(Rc::new(RefCell::new(Client {
            worker,
            ready: false,
            queued: Vec::new(),
            _listeners: [on_msg, on_error],
        }))));
    }
    store.hf.set(HfState::Loading(name));
    store.hf_ids.set(Vec::new());
    send(
        store,
        message(&[("type", "load".into()), ("text", text.into())]),
    );
}

/// Asks for the ids of `text`; the answer arrives in `store.hf_ids` with
/// the returned sequence number ([`answer`]). `None` without a loaded
/// tokenizer.
pub fn encode(store: Store, text: &str) -> Option<u64> {
    if !matches!(store.hf.get_untracked(), HfState::Loaded { .. }) {
        return None;
    }
    let seq = store.hf_seq.get_value() + 1;
    store.hf_seq.set_value(seq);
    send(
        store,
        message(&[
            ("type", "encode".into()),
            ("seq", (seq as f64).into()),
            ("text", text.into()),
        ]),
    );
    Some(seq)
}
