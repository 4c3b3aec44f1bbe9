//! The GGUF file picker / drop zone (only the metadata is read, through
//! `Blob.slice`) and the metadata pane: keys, tensors, parameter count and
//! the memory estimate.

use std::io;
use std::sync::Arc;

use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use promptscope_app::gguf::{self, Gguf};

use crate::ui::engine_client;
use crate::ui::store::{Store, Tokenizer};

/// A browser `Blob` as a random-access byte source.
struct BlobSource {
    blob: web_sys::Blob,
}

fn js_err(e: wasm_bindgen::JsValue) -> io::Error {
    io::Error::other(format!("{e:?}"))
}

impl gguf_meta::AsyncReadAt for BlobSource {
    async fn size(&mut self) -> io::Result<u64> {
        Ok(self.blob.size() as u64)
    }

    async fn read_at(&mut self, offset: u64, buf: &mut [u8]) -> io::Result<usize> {
        let end = (offset + buf.len() as u64).min(self.blob.size() as u64);
        if offset >= end {
            return Ok(0);
        }
        let part = self
            .blob
            .slice_with_f64_and_f64(offset as f64, end as f64)
            .map_err(js_err)?;
        let ab = JsFuture::from(part.array_buffer()).await.map_err(js_err)?;
        let bytes = js_sys::Uint8Array::new(&ab);
        let n = bytes.length() as usize;
        bytes.copy_to(&mut buf[..n]);
        Ok(n)
    }
}

/// A file's GGUF metadata, read by slices (no vocabulary is built).
pub(crate) async fn read_metadata(file: web_sys::File) -> Result<Gguf, String> {
    let name = file.name();
    let blob: web_sys::Blob = file.unchecked_into();
    gguf_meta::parse_async(BlobSource { blob })
        .await
        .map(|f| Gguf::metadata_only(name.clone(), f))
        .map_err(|e| format!("{name}: {e}"))
}

/// Reads a dropped or chosen file's metadata (by slices) and installs it:
/// the page keeps the metadata, the engine worker reads the vocabulary.
/// Also used for a model blob from the models folder.
pub(crate) fn load_file(
    store: Store,
    file: web_sys::File,
    status: RwSignal<Option<(bool, String)>>,
) {
    let name = file.name();
    status.set(Some((
        false,
        store.tf("model.gguf_reading", &[("name", &name)]),
    )));
    spawn_local(async move {
        let handle = file.clone();
        let blob: web_sys::Blob = file.unchecked_into();
        let parsed = gguf_meta::parse_async(BlobSource { blob }).await;
        match parsed {
            Err(e) => {
                status.set(Some((true, format!("{name}: {e}"))));
            }
            Ok(f) => {
                // the vocabulary is built by the engine worker, off this thread
                let g = Gguf::metadata_only(name.clone(), f);
                let read = g.file.read_stats().bytes_read;
                let text = store.tf(
                    "model.gguf_loaded",
                    &[
                        ("name", &name),
                        ("read", &gguf::human_bytes(read)),
                        ("size", &gguf::human_bytes(g.file.file_size())),
                    ],
                );
                let template = g.chat_template().map(str::to_string);
                if let Some(t) = template {
                    store.update(|s| s.model.chat_template = t);
                }
                status.set(Some((false, text)));
                store.gguf.set(Some(Arc::new(g)));
                store.gguf_file.set_value(Some(handle.clone()));
                engine_client::start(store, handle);
                store.schedule_render();
            }
        }
    });
}

/// Drops the GGUF: renders go back to the page, without tokens.
pub(crate) fn forget(store: Store) {
    engine_client::stop(store);
    store.tokenizer.set(Tokenizer::None);
    store.gguf.set(None);
    store.gguf_file.set_value(None);
    store.gguf_status.set(None);
    store.schedule_render();
}

/// The picker and drop zone.
#[component]
pub fn GgufDrop() -> impl IntoView {
    let store = expect_context::<Store>();
    let status = store.gguf_status;
    let over = RwSignal::new(false);
    let on_change = move |ev: web_sys::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        if let Some(f) = input.files().and_then(|l| l.get(0)) {
            // not the stored model's file any more
            store.store_model.set(None);
            load_file(store, f, status);
        }
    };
    let on_drop = move |ev: web_sys::DragEvent| {
        ev.prevent_default();
        over.set(false);
        if let Some(f) = ev
            .data_transfer()
            .and_then(|d| d.files())
            .and_then(|l| l.get(0))
        {
            store.store_model.set(None);
            load_file(store, f, status);
        }
    };
    view! {
        <div
            class="gguf-drop"
            id="gguf-drop"
            class:over=move || over.get()
            data-testid="gguf-drop"
            on:dragover=move |ev: web_sys::DragEvent| {
                ev.prevent_default();
                over.set(true);
            }
            on:dragleave=move |_| over.set(false)
            on:drop=on_drop
        >
            <label for="gguf-file">{move || store.t("model.gguf_pick")}</label>
            <input id="gguf-file" type="file" accept=".gguf" data-testid="gguf-input" on:change=on_change />
            <p class="hint">{move || store.t("model.gguf_hint")}</p>
            {move || {
                status
                    .get()
                    .map(|(bad, text)| {
                        view! {
                            <p class=if bad { "field-error" } else { "note" } data-testid="gguf-status">
                                {text}
                            </p>
                        }
                    })
            }}
            {move || match store.tokenizer.get() {
                Tokenizer::Loading => Some(
                    view! { <p class="note" data-testid="vocab-status">{store.t("model.vocab_loading")}</p> }.into_any(),
                ),
                Tokenizer::Failed(e) => Some(
                    view! { <p class="field-error" data-testid="vocab-status">{e}</p> }.into_any(),
                ),
                _ => None,
            }}
            {move || {
                store
                    .gguf
                    .with(|g| g.is_some())
                    .then(|| {
                        view! {
                            <button type="button" data-testid="gguf-forget" on:click=move |_| {
                                store.store_model.set(None);
                                forget(store);
                            }>{move || store.t("model.gguf_forget")}</button>
                        }
                    })
            }}
        </div>
        <MetadataPane />
    }
}

/// All keys and tensors of the loaded file, searchable.
#[component]
fn MetadataPane() -> impl IntoView {
    let store = expect_context::<Store>();
    let query = RwSignal::new(String::new());
    let rows = Memo::new(move |_| {
        store
            .gguf
            .with(|g| g.as_ref().map(|g| g.meta_rows()).unwrap_or_default())
    });
    let num_ctx = Memo::new(move |_| {
        store
            .body
            .with(|b| b.as_ref().map_or(gguf::DEFAULT_NUM_CTX, gguf::num_ctx))
    });
    let summary = move || {
        store.gguf.with(|g| {
            g.as_ref().map(|g| {
                let n = num_ctx.get();
                let est = g.file.estimate_memory(n);
                store.tf(
                    "model.gguf_summary",
                    &[
                        ("params", &gguf::human_count(g.file.parameter_count())),
                        ("ctx", &n.to_string()),
                        ("total", &gguf::human_bytes(est.total())),
                        ("weights", &gguf::human_bytes(est.weights)),
                        ("kv", &gguf::human_bytes(est.kv_cache())),
                        ("compute", &gguf::human_bytes(est.compute)),
                    ],
                )
            })
        })
    };
    move || {
        store.gguf.with(|g| g.is_some()).then(|| {
            let keys = move || {
                let q = query.get().to_lowercase();
                rows.with(|rows| {
                    rows.iter()
                        .filter(|r| q.is_empty() || r.key.to_lowercase().contains(&q))
                        .map(|r| {
                            let value = match &r.elements {
                                Some(items) => view! {
                                    <details>
                                        <summary>{r.summary.clone()}</summary>
                                        <ol start="0">
                                            {items.iter().map(|x| view! { <li>{x.clone()}</li> }).collect_view()}
                                        </ol>
                                    </details>
                                }
                                .into_any(),
                                None => view! { <span>{r.summary.clone()}</span> }.into_any(),
                            };
                            view! {
                                <tr>
                                    <td><code>{r.key.clone()}</code></td>
                                    <td>{r.type_name.clone()}</td>
                                    <td class="meta-value">{value}</td>
                                </tr>
                            }
                        })
                        .collect_view()
                })
            };
            let tensors = move || {
                let q = query.get().to_lowercase();
                store.gguf.with(|g| {
                    g.as_ref()
                        .map(|g| {
                            g.file
                                .tensors()
                                .iter()
                                .filter(|t| q.is_empty() || t.name.to_lowercase().contains(&q))
                                .map(|t| {
                                    let shape = t
                                        .shape
                                        .iter()
                                        .map(u64::to_string)
                                        .collect::<Vec<_>>()
                                        .join(" × ");
                                    view! {
                                        <tr>
                                            <td><code>{t.name.clone()}</code></td>
                                            <td>{t.ggml_type.name()}</td>
                                            <td>{shape}</td>
                                            <td>{gguf::human_bytes(t.size)}</td>
                                        </tr>
                                    }
                                })
                                .collect_view()
                        })
                        .unwrap_or_default()
                })
            };
            view! {
                <details class="gguf-meta" data-testid="gguf-metadata">
                    <summary>{move || store.t("model.gguf_metadata")}</summary>
                    <p class="note" data-testid="gguf-summary">{summary}</p>
                    <input
                        type="search"
                        data-testid="gguf-search"
                        aria-label=move || store.t("model.gguf_search")
                        placeholder=move || store.t("model.gguf_search")
                        prop:value=move || query.get()
                        on:input=move |ev| query.set(event_target_value(&ev))
                    />
                    <div class="table-scroll" tabindex="0" role="region" aria-label=move || store.t("model.gguf_keys_region")>
                        <table class="meta">
                            <thead>
                                <tr>
                                    <th scope="col">{move || store.t("model.gguf_key")}</th>
                                    <th scope="col">{move || store.t("model.gguf_type")}</th>
                                    <th scope="col">{move || store.t("model.gguf_value")}</th>
                                </tr>
                            </thead>
                            <tbody data-testid="gguf-keys">{keys}</tbody>
                        </table>
                    </div>
                    <div class="table-scroll" tabindex="0" role="region" aria-label=move || store.t("model.gguf_tensors_region")>
                        <table class="meta">
                            <thead>
                                <tr>
                                    <th scope="col">{move || store.t("model.gguf_tensor")}</th>
                                    <th scope="col">{move || store.t("model.gguf_type")}</th>
                                    <th scope="col">{move || store.t("model.gguf_shape")}</th>
                                    <th scope="col">{move || store.t("model.gguf_size")}</th>
                                </tr>
                            </thead>
                            <tbody data-testid="gguf-tensors">{tensors}</tbody>
                        </table>
                    </div>
                </details>
            }
        })
    }
}
