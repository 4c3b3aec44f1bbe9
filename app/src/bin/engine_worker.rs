//! The engine Web Worker: holds a GGUF's vocabulary and runs the renders
//! that tokenize (truncation, per-message costs, `prompt_eval_count`, the
//! token view) off the page's thread. Requests are coalesced per slot: when
//! several wait, only the latest runs. The page cancels a render that takes
//! too long by terminating this worker and starting another.
//! The protocol is in `promptscope_app::jobs`.
//!
//! A second instance, with no GGUF, does the Answer pane's work
//! (`answer`: `promptscope_app::answer::Job`) and the Generate pane's
//! route answers (`route`: `answer::RouteJob`): Ollama's output parsers and
//! the compatibility routes' writers live here, not in the page's wasm.

#[cfg(target_arch = "wasm32")]
mod common;

#[cfg(target_arch = "wasm32")]
mod worker {
    use std::cell::RefCell;
    use std::collections::BTreeMap;
    use std::rc::Rc;

    use promptscope_app::answer;
    use promptscope_app::gguf::Gguf;
    use promptscope_app::jobs;
    use wasm_bindgen::prelude::*;
    use web_sys::MessageEvent;

    use crate::common::{self, post};

    #[derive(Default)]
    struct State {
        gguf: Option<Gguf>,
        /// The latest request of each slot not yet run.
        waiting: BTreeMap<String, String>,
        /// The latest answer and route jobs not yet run.
        jobs: BTreeMap<&'static str, String>,
        scheduled: bool,
    }

    fn load(state: &Rc<RefCell<State>>, file: web_sys::File) {
        state.borrow_mut().gguf = None;
        let name = file.name();
        let source = match common::FileSource::new(file) {
            Ok(s) => s,
            Err(e) => return common::error(&e),
        };
        let parsed = match gguf_meta::parse(source) {
            Ok(f) => f,
            Err(e) => return common::error(&format!("{name}: {e}")),
        };
        let g = Gguf::new(name, parsed);
        let loaded = serde_json::to_string(&jobs::Loaded::of(&g)).unwrap_or_default();
        state.borrow_mut().gguf = Some(g);
        post(&[("type", "loaded".into()), ("json", loaded.into())]);
    }

    /// Runs the waiting requests (one per slot: the latest).
    fn run_waiting(state: &Rc<RefCell<State>>) {
        let (waiting, jobs) = {
            let mut st = state.borrow_mut();
            st.scheduled = false;
            (
                std::mem::take(&mut st.waiting),
                std::mem::take(&mut st.jobs),
            )
        };
        for (kind, json) in jobs {
            let reply = match kind {
                "answer" => serde_json::from_str(&json)
                    .map(|j| serde_json::to_string(&answer::run_job(&j)).unwrap_or_default()),
                _ => serde_json::from_str(&json)
                    .map(|j| serde_json::to_string(&answer::run_route_job(&j)).unwrap_or_default()),
            };
            match reply {
                Ok(reply) => post(&[("type", kind.into()), ("json", reply.into())]),
                Err(e) => common::error(&format!("{kind}: {e}")),
            }
        }
        for (slot, request) in waiting {
            let st = state.borrow();
            let reply = match &st.gguf {
                Some(g) => jobs::run(g, &request),
                None => jobs::Reply {
                    slot,
                    seq: 0,
                    answers: Err("no GGUF is loaded".into()),
                },
            };
            let json = serde_json::to_string(&reply).unwrap_or_default();
            post(&[("type", "reply".into()), ("json", json.into())]);
        }
    }

    /// Queues a request; the run happens after the messages already
    /// queued are read, so that a newer request of the slot replaces it.
    fn queue(state: &Rc<RefCell<State>>, slot: String, request: String) {
        state.borrow_mut().waiting.insert(slot, request);
        schedule(state);
    }

    /// Queues an answer or route job (the latest of its kind runs).
    fn queue_job(state: &Rc<RefCell<State>>, kind: &'static str, json: String) {
        state.borrow_mut().jobs.insert(kind, json);
        schedule(state);
    }

    fn schedule(state: &Rc<RefCell<State>>) {
        let mut st = state.borrow_mut();
        if st.scheduled {
            return;
        }
        st.scheduled = true;
        let state = state.clone();
        gloo_timers::callback::Timeout::new(0, move || run_waiting(&state)).forget();
    }

    #[wasm_bindgen(start)]
    pub fn start() {
        let state = Rc::new(RefCell::new(State::default()));
        common::serve(move |ev: MessageEvent| {
            let data = ev.data();
            match common::field(&data, "type").as_deref().unwrap_or("") {
                "load" => match common::file_field(&data) {
                    Some(file) => load(&state, file),
                    None => common::error("load needs a file"),
                },
                "run" => queue(
                    &state,
                    common::field(&data, "slot").unwrap_or_default(),
                    common::field(&data, "json").unwrap_or_default(),
                ),
                kind @ ("answer" | "route") => queue_job(
                    &state,
                    if kind == "answer" { "answer" } else { "route" },
                    common::field(&data, "json").unwrap_or_default(),
                ),
                other => common::error(&format!("unknown message {other:?}")),
            }
        });
    }
}

fn main() {}
