//! The `postMessage` API of the embedded app (docs/embedding.md).
//!
//! Only with `?embed=1`, and only messages whose `event.origin` is in the
//! `origin=` allow-list of the URL are read; everything else is ignored.
//! Answers go to the parent window, addressed to the asking origin.

use leptos::prelude::*;
use serde_json::{json, Value};

use promptscope_app::embed::message;

use crate::ui::browser;
use crate::ui::store::Store;

/// Starts listening for the embedding page's messages.
pub fn install(store: Store) {
    if !store.embedded() {
        return;
    }
    // (origin, id, the render count when it came) of the messages waiting
    // for the next render: a reply describes a render that began after its
    // message, never one already shown (nor an answer to an older gate).
    let waiting = StoredValue::new(Vec::<(String, Value, u64)>::new());

    let handle = window_event_listener(leptos::ev::message, move |ev| {
        let origin = ev.origin();
        if !store.query.with_value(|q| q.allows(&origin)) {
            return;
        }
        let Some(data) = browser::message_json(&ev.data()) else {
            return;
        };
        let id = data.get("id").cloned().unwrap_or(Value::Null);
        match data.get("type").and_then(Value::as_str) {
            Some(message::SET) => {
                let state = data.get("state").cloned().unwrap_or(Value::Null);
                let mut next = store.state.get_untracked();
                if let Err(e) = next.merge_json(&state) {
                    reply(
                        &origin,
                        &id,
                        Reply {
                            error: Some(format!("invalid state: {e}")),
                            ..Reply::default()
                        },
                    );
                    return;
                }
                let seen = store.renders.get_untracked();
                waiting.update_value(|w| w.push((origin, id, seen)));
                store.state.set(next);
                store.schedule_render();
            }
            Some(message::GET) => {
                let seen = store.renders.get_untracked();
                waiting.update_value(|w| w.push((origin, id, seen)));
                store.schedule_render();
            }
            _ => {}
        }
    });
    // The listener lives as long as the page.
    std::mem::forget(handle);

    // Each render answers what waits; with output, once the answer worker
    // has answered for this very render and output.
    Effect::new(move |_| {
        let render = store.renders.get();
        let answered = store.answers.reply.with(|r| {
            r.as_ref()
                .map(|r| (r.render, r.input.clone(), r.embed.clone()))
        });
        if !waiting.with_value(|w| w.iter().any(|(_, _, seen)| *seen < render)) {
            return;
        }
        let input = store.state.with_untracked(|s| s.answer.clone());
        let answer = if input.is_empty() {
            None
        } else {
            match answered {
                Some((r, i, embed)) if r == render && i == input => embed,
                _ => return,
            }
        };
        let pending = waiting
            .try_update_value(|w| {
                let (due, later) = std::mem::take(w)
                    .into_iter()
                    .partition::<Vec<_>, _>(|(_, _, seen)| *seen < render);
                *w = later;
                due
            })
            .unwrap_or_default();
        store.outcome.with_untracked(|o| {
            let error = o
                .error
                .as_ref()
                .map(|e| e.message.clone())
                .or_else(|| o.input_error.as_ref().map(|e| e.message.clone()));
            let route = route_json(o);
            for (origin, id, _) in &pending {
                reply(
                    origin,
                    id,
                    Reply {
                        prompt: o.prompt.clone(),
                        error: error.clone(),
                        source: o.source(),
                        route: route.clone(),
                        answer: answer.clone(),
                    },
                );
            }
        });
    });

    if let Some(parent) = browser::parent() {
        let ready = json!({ "type": message::READY });
        store.query.with_value(|q| {
            for origin in &q.allowed_origins {
                browser::post_json(&parent, &ready, origin);
            }
        });
    }
}

/// For a compatibility route: the route, the converted native request,
/// every field's fate and, when it refuses, the route's own error body.
fn route_json(o: &promptscope_app::engine::Outcome) -> Option<Value> {
    let r = o.route.as_ref()?;
    Some(json!({
        "endpoint": r.route,
        "path": r.path,
        "native": r.native_path,
        "api_request": r.api_request.as_deref().and_then(|t| serde_json::from_str::<Value>(t).ok()),
        "fields": r.fields,
        "error_body": o.error.as_ref().and_then(|e| e.body.clone()),
    }))
}

/// What a `promptscope:rendered` reply carries.
#[derive(Default)]
struct Reply<'a> {
    prompt: Option<String>,
    error: Option<String>,
    source: &'a str,
    route: Option<Value>,
    answer: Option<Value>,
}

fn reply(origin: &str, id: &Value, r: Reply) {
    let Some(parent) = browser::parent() else {
        return;
    };
    let mut msg = json!({
        "type": message::RENDERED,
        "prompt": r.prompt,
        "error": r.error,
        "source": r.source,
    });
    if let Some(route) = r.route {
        msg["route"] = route;
    }
    if let Some(a) = r.answer {
        msg["answer"] = a;
    }
    if !id.is_null() {
        msg["id"] = id.clone();
    }
    browser::post_json(&parent, &msg, origin);
}
