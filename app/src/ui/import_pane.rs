//! "Paste a Modelfile, an /api/show body or a tokenizer_config.json": the
//! model fields filled as Ollama would create the model from it, or as a
//! GGUF converted from a Hugging Face model has them
//! (`modelstore::import_text`); pasted or read from a file.

use leptos::prelude::*;

use promptscope_app::modelstore::import_text;

use crate::ui::store::Store;

/// The file a file input's change event chose.
fn chosen(ev: &web_sys::Event) -> Option<web_sys::File> {
    use wasm_bindgen::JsCast;
    ev.target()
        .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
        .and_then(|input| input.files())
        .and_then(|files| files.get(0))
}

/// Reads `file`'s text, then gives its name and text to `then` (or its
/// name to `failed`).
fn read_file(
    file: web_sys::File,
    then: impl FnOnce(String, String) + 'static,
    failed: impl FnOnce(String) + 'static,
) {
    wasm_bindgen_futures::spawn_local(async move {
        let name = file.name();
        match wasm_bindgen_futures::JsFuture::from(file.text()).await {
            Ok(v) => then(name, v.as_string().unwrap_or_default()),
            Err(_) => failed(name),
        }
    });
}

/// The paste box and its button.
#[component]
pub fn ImportPane() -> impl IntoView {
    let store = expect_context::<Store>();
    let text = RwSignal::new(String::new());
    let status = RwSignal::new(None::<(bool, String)>);
    let import = move || {
        let pasted = text.get_untracked();
        let mut result = None;
        store.update(|s| {
            let mut model = s.model.clone();
            let r = import_text(&mut model, &pasted);
            if r.is_ok() {
                s.model = model;
            }
            result = Some(r);
        });
        status.set(match result {
            Some(Ok(got)) => {
                let mut note = if got.kind == "tokenizer_config.json" {
                    store.t("import.done_config").to_string()
                } else {
                    store.tf("import.done", &[("kind", got.kind), ("from", &got.from)])
                };
                for w in &got.warnings {
                    note.push_str(&format!(" {w}"));
                }
                Some((false, note))
            }
            Some(Err(e)) => Some((true, store.tf("import.failed", &[("why", &e)]))),
            None => None,
        });
        store.schedule_render();
    };
    let on_import = move |_| import();
    // a tokenizer.json: read, then loaded by the tokenizer worker
    let tokenizer_failed = move |name: String| {
        store.hf.set(crate::ui::hf_client::HfState::Failed(format!(
            "cannot read {name}"
        )))
    };
    let on_tokenizer = move |ev: web_sys::Event| {
        if let Some(file) = chosen(&ev) {
            read_file(
                file,
                move |name, text| crate::ui::hf_client::load(store, name, text),
                tokenizer_failed,
            )
        }
    };
    let tokenizer_status = move || {
        use crate::ui::hf_client::HfState;
        let (bad, text) = match store.hf.get() {
            HfState::Off => return None,
            HfState::Loading(name) => (
                false,
                store.tf("import.tokenizer_loading", &[("name", &name)]),
            ),
            HfState::Loaded { name, vocab } => (
                false,
                store.tf(
                    "import.tokenizer_loaded",
                    &[("name", &name), ("vocab", &vocab.to_string())],
                ),
            ),
            HfState::Failed(why) => (true, store.tf("import.tokenizer_failed", &[("why", &why)])),
        };
        Some(view! {
            <p class=if bad { "field-error" } else { "note" } data-testid="import-tokenizer-status">{text}</p>
        })
    };
    // a file chosen: its text goes into the box and is imported
    let import_failed = move |name: String| {
        let why = format!("cannot read {name}");
        status.set(Some((true, store.tf("import.failed", &[("why", &why)]))))
    };
    let on_file = move |ev: web_sys::Event| {
        if let Some(file) = chosen(&ev) {
            read_file(
                file,
                move |_, t| {
                    text.set(t);
                    import();
                },
                import_failed,
            )
        }
    };
    // a file dropped on the box: a tokenizer.json goes to the tokenizer
    // worker, anything else is imported
    let on_drop = move |ev: web_sys::DragEvent| {
        ev.prevent_default();
        let Some(file) = ev
            .data_transfer()
            .and_then(|d| d.files())
            .and_then(|l| l.get(0))
        else {
            return;
        };
        read_file(
            file,
            move |name, t| {
                if promptscope_app::modelstore::is_tokenizer_json(&t) {
                    crate::ui::hf_client::load(store, name, t);
                } else {
                    text.set(t);
                    import();
                }
            },
            import_failed,
        )
    };
    view! {
        <details
            class="import-model"
            data-testid="import-model-pane"
            on:dragover=move |ev: web_sys::DragEvent| ev.prevent_default()
            on:drop=on_drop
        >
            <summary>{move || store.t("import.title")}</summary>
            <p class="hint">{move || store.t("import.hint")}</p>
            <textarea
                rows="6"
                spellcheck="false"
                data-testid="import-model-text"
                aria-label=move || store.t("import.title")
                prop:value=move || text.get()
                on:input=move |ev| text.set(event_target_value(&ev))
            ></textarea>
            <button type="button" data-testid="import-model" on:click=on_import>
                {move || store.t("import.button")}
            </button>
            <label class="file-label">
                {move || store.t("import.file")} " "
                <input
                    type="file"
                    accept=".json,.txt,Modelfile,application/json,text/plain"
                    data-testid="import-model-file"
                    on:change=on_file
                />
            </label>
            <label class="file-label">
                {move || store.t("import.tokenizer")} " "
                <input
                    type="file"
                    accept=".json,application/json"
                    data-testid="import-tokenizer-file"
                    on:change=on_tokenizer
                />
            </label>
            {tokenizer_status}
            {move || {
                status
                    .get()
                    .map(|(bad, t)| {
                        view! {
                            <p class=if bad { "field-error" } else { "note" } data-testid="import-model-status">
                                {t}
                            </p>
                        }
                    })
            }}
        </details>
    }
}
