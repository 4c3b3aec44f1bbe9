//! "Paste a Modelfile or an /api/show body": the model fields filled as
//! Ollama would create the model from it (`modelstore::import_text`).

use leptos::prelude::*;

use promptscope_app::modelstore::import_text;

use crate::ui::store::Store;

/// The paste box and its button.
#[component]
pub fn ImportPane() -> impl IntoView {
    let store = expect_context::<Store>();
    let text = RwSignal::new(String::new());
    let status = RwSignal::new(None::<(bool, String)>);
    let on_import = move |_| {
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
                let mut note = store.tf("import.done", &[("kind", got.kind), ("from", &got.from)]);
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
