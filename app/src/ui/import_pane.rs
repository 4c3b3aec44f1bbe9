//! "Paste a Modelfile, an /api/show body or a tokenizer_config.json": the
//! model fields filled as Ollama would create the model from it, or as a
//! GGUF converted from a Hugging Face model has them
//! (`modelstore::import_text`); pasted or read from a file.

use leptos::prelude::*;

use promptscope_app::modelstore::import_text;

use crate::ui::store::Store;

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
    // a file chosen: its text goes into the box and is imported
    let on_file = move |ev: web_sys::Event| {
        use wasm_bindgen::JsCast;
        let Some(file) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
            .and_then(|input| input.files())
            .and_then(|files| files.get(0))
        else {
            return;
        };
        wasm_bindgen_futures::spawn_local(async move {
            match wasm_bindgen_futures::JsFuture::from(file.text()).await {
                Ok(v) => {
                    text.set(v.as_string().unwrap_or_default());
                    import();
                }
                Err(_) => status.set(Some((
                    true,
                    store.tf(
                        "import.failed",
                        &[("why", &format!("cannot read {}", file.name()))],
                    ),
                ))),
            }
        });
    };
    view! {
        <details class="import-model" data-testid="import-model-pane">
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
