//! Share link, export and import of the whole state.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use promptscope_app::state::{pretty, Form, State};

use crate::ui::browser;
use crate::ui::store::Store;

/// The share / export / import buttons.
#[component]
pub fn Toolbar() -> impl IntoView {
    let store = expect_context::<Store>();
    let share_url = RwSignal::new(None::<String>);

    let share = move |_| {
        let url = store.share_url();
        share_url.set(Some(url.clone()));
        store.say(store.t("notice.link_ready"));
        browser::copy(&url, move |ok| {
            if ok {
                store.say(store.t("notice.link_copied"));
            }
        });
    };
    let export = move |_| {
        let json = store
            .state
            .with_untracked(|s| pretty(&s.to_json(Form::RenderCase)));
        browser::download("promptscope-state.json", &json, "application/json");
    };
    let import = move |ev: web_sys::Event| {
        let Some(input) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
        else {
            return;
        };
        let Some(file) = input.files().and_then(|f| f.get(0)) else {
            return;
        };
        input.set_value("");
        let promise = file.text();
        wasm_bindgen_futures::spawn_local(async move {
            let text = wasm_bindgen_futures::JsFuture::from(promise)
                .await
                .ok()
                .and_then(|v| v.as_string())
                .unwrap_or_default();
            match State::from_json_str(&text) {
                Ok(state) => {
                    store.state.set(state);
                    store.say(store.t("notice.imported"));
                }
                Err(e) => store.say(store.tf("notice.import_failed", &[("why", &e)])),
            }
        });
    };

    view! {
        <div class="toolbar" role="group" aria-label=move || store.t("toolbar.label")>
            <button type="button" data-testid="share-button" on:click=share>
                {move || store.t("toolbar.share")}
            </button>
            <button type="button" data-testid="export-button" on:click=export>
                {move || store.t("toolbar.export")}
            </button>
            <label class="button">
                {move || store.t("toolbar.import")}
                <input
                    type="file"
                    class="visually-hidden-file"
                    data-testid="import-input"
                    accept=".json,application/json"
                    on:change=import
                />
            </label>
            {move || {
                share_url
                    .get()
                    .map(|url| {
                        view! {
                            <label class="share-url">
                                <span class="sr-only">{store.t("toolbar.share_url")}</span>
                                <input
                                    type="text"
                                    readonly=true
                                    data-testid="share-url"
                                    prop:value=url
                                    on:focus=move |ev| {
                                        if let Some(i) = ev
                                            .target()
                                            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
                                        {
                                            i.select();
                                        }
                                    }
                                />
                            </label>
                        }
                    })
            }}
        </div>
    }
}
