//! The request pane: endpoint, paste box (a body or a `curl` command), the
//! form, and the JSON editors (whole body, `messages`, `tools`, `options`).

use leptos::prelude::*;

use promptscope_app::curl;
use promptscope_app::engine::InputError;
use promptscope_app::state::{pretty, Endpoint};

use crate::ui::code_editor::CodeEditor;
use crate::ui::json_field::JsonField;
use crate::ui::request_form::RequestForm;
use crate::ui::store::Store;

/// Fills the request from a pasted body or `curl` command. Returns whether it worked.
fn import(store: Store, text: &str) -> Result<(), String> {
    let imported = curl::parse_import(text).map_err(|e| e.message)?;
    let endpoint = imported.endpoint;
    let body = pretty(&imported.body);
    store.update(|s| {
        if let Some(e) = endpoint {
            s.endpoint = e;
        }
        s.request = body;
    });
    let what = match (curl::is_curl(text), endpoint) {
        (true, Some(e)) => store.tf("notice.filled_curl", &[("path", e.path())]),
        _ => store.t("notice.filled_body").to_string(),
    };
    store.say(what);
    Ok(())
}

/// The request side of a render.
#[component]
pub fn RequestPane() -> impl IntoView {
    let store = expect_context::<Store>();
    let endpoint = store.slice(|s| s.endpoint);
    let request = store.slice(|s| s.request.clone());
    let tab = RwSignal::new("body");
    let paste = RwSignal::new(String::new());
    let paste_error = RwSignal::new(None::<String>);

    let on_paste = move |text: String| {
        if text.trim().is_empty() {
            paste.set(String::new());
            paste_error.set(None);
            return;
        }
        match import(store, &text) {
            Ok(()) => {
                paste.set(String::new());
                paste_error.set(None);
            }
            Err(e) => {
                paste.set(text);
                paste_error.set(Some(e));
            }
        }
    };
    let on_body = Callback::new(move |text: String| {
        // A curl command typed or pasted into the body editor is read as one.
        if curl::is_curl(&text) && import(store, &text).is_ok() {
            return;
        }
        store.update(|s| s.request = text);
    });
    let body_error = Signal::derive(move || {
        store
            .body
            .with(|b| b.as_ref().err().map(|e: &InputError| e.message.clone()))
    });
    let body_error_pos =
        Signal::derive(move || store.body.with(|b| b.as_ref().err().and_then(|e| e.pos)));
    let set_endpoint = move |e: Endpoint| {
        store.update(|s| s.endpoint = e);
        if e == Endpoint::Generate && matches!(tab.get_untracked(), "messages" | "tools") {
            tab.set("body");
        }
    };

    let tab_button = move |id: &'static str, label: &'static str| {
        view! {
            <button
                type="button"
                class="seg"
                aria-pressed=move || (tab.get() == id).to_string()
                data-testid=format!("tab-{id}")
                on:click=move |_| tab.set(id)
            >
                {label}
            </button>
        }
    };

    view! {
        <section class="pane" id="request-pane" aria-labelledby="request-heading">
            <h2 id="request-heading">{move || store.t("request.title")}</h2>
            <fieldset class="endpoint">
                <legend>{move || store.t("request.endpoint")}</legend>
                <label>
                    <input
                        type="radio"
                        name="endpoint"
                        value="chat"
                        data-testid="endpoint-chat"
                        prop:checked=move || endpoint.get() == Endpoint::Chat
                        on:change=move |_| set_endpoint(Endpoint::Chat)
                    />
                    <code>"/api/chat"</code>
                </label>
                <label>
                    <input
                        type="radio"
                        name="endpoint"
                        value="generate"
                        data-testid="endpoint-generate"
                        prop:checked=move || endpoint.get() == Endpoint::Generate
                        on:change=move |_| set_endpoint(Endpoint::Generate)
                    />
                    <code>"/api/generate"</code>
                </label>
            </fieldset>
            <div class="field">
                <label for="paste-input">{move || store.t("request.paste")}</label>
                <p class="hint" id="paste-hint">{move || store.t("request.paste_hint")}</p>
                <textarea
                    id="paste-input"
                    data-testid="paste-input"
                    class="paste"
                    rows="2"
                    aria-describedby="paste-hint"
                    spellcheck="false"
                    prop:value=move || paste.get()
                    on:input=move |ev| on_paste(event_target_value(&ev))
                ></textarea>
                {move || {
                    paste_error
                        .get()
                        .map(|e| view! { <p class="field-error" data-testid="paste-error">{e}</p> })
                }}
            </div>
            <RequestForm />
            <div class="segmented" role="group" aria-label=move || store.t("request.json_editors")>
                {tab_button("body", "body")}
                {move || {
                    (endpoint.get() == Endpoint::Chat)
                        .then(|| view! { {tab_button("messages", "messages")} {tab_button("tools", "tools")} })
                }}
                {tab_button("options", "options")}
            </div>
            {move || match tab.get() {
                "messages" => {
                    view! {
                        <JsonField key="messages" id="messages-json" label="request.messages_json" hint="request.messages_hint" />
                    }
                        .into_any()
                }
                "tools" => {
                    view! {
                        <JsonField key="tools" id="tools-json" label="request.tools_json" hint="request.tools_hint" />
                    }
                        .into_any()
                }
                "options" => {
                    view! {
                        <JsonField key="options" id="options-json" label="request.options_json" hint="request.options_hint" />
                    }
                        .into_any()
                }
                _ => {
                    view! {
                        <CodeEditor
                            id="request"
                            label="request.body"
                            hint="request.body_hint"
                            test_id="request-input"
                            value=Signal::from(request)
                            on_input=on_body
                            error=body_error
                            error_pos=body_error_pos
                            rows=16
                        />
                    }
                        .into_any()
                }
            }}
        </section>
    }
}
