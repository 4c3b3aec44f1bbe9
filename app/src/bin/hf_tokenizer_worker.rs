//! The Hugging Face tokenizer Web Worker: holds a `tokenizer.json` and
//! counts a prompt's tokens exactly as the `tokenizers` library does (what
//! transformers' `apply_chat_template(tokenize=True)` gives: the rendered
//! text encoded without special tokens). Its own module because the
//! library's wasm build is large (fetched only when a `tokenizer.json` is
//! opened).
//!
//! Messages: `{type: "load", text}` → `{type: "loaded", vocab}` or
//! `{type: "error", message}`; `{type: "encode", seq, text}` →
//! `{type: "ids", seq, json}` (`json`: the ids as a JSON array) or
//! `{type: "error", message}`.

// the GGUF file reading there is the other workers'
#[cfg(target_arch = "wasm32")]
#[allow(dead_code)]
mod common;

#[cfg(target_arch = "wasm32")]
mod worker {
    use std::cell::RefCell;
    use std::rc::Rc;

    use hftokenizer::HfTokenizer;
    use wasm_bindgen::prelude::*;
    use web_sys::MessageEvent;

    use crate::common::{self, post};

    #[wasm_bindgen(start)]
    pub fn start() {
        let tokenizer: Rc<RefCell<Option<HfTokenizer>>> = Rc::new(RefCell::new(None));
        common::serve(move |ev: MessageEvent| {
            let data = ev.data();
            match common::field(&data, "type").as_deref().unwrap_or("") {
                "load" => {
                    let text = common::field(&data, "text").unwrap_or_default();
                    match HfTokenizer::from_json(text.as_bytes()) {
                        Ok(t) => {
                            let vocab = t.vocab_size() as f64;
                            *tokenizer.borrow_mut() = Some(t);
                            post(&[("type", "loaded".into()), ("vocab", vocab.into())]);
                        }
                        Err(e) => {
                            *tokenizer.borrow_mut() = None;
                            common::error(&e.0)
                        }
                    }
                }
                "encode" => {
                    let seq = js_sys::Reflect::get(&data, &"seq".into()).unwrap_or(JsValue::NULL);
                    let text = common::field(&data, "text").unwrap_or_default();
                    let held = tokenizer.borrow();
                    let Some(t) = held.as_ref() else {
                        return common::error("no tokenizer.json is loaded");
                    };
                    match t.encode(&text, false) {
                        Ok(ids) => post(&[
                            ("type", "ids".into()),
                            ("seq", seq),
                            (
                                "json",
                                serde_json::to_string(&ids).unwrap_or_default().into(),
                            ),
                        ]),
                        Err(e) => common::error(&e.0),
                    }
                }
                other => common::error(&format!("unknown message {other:?}")),
            }
        });
    }
}

fn main() {}
