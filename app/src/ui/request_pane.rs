//! The request pane: endpoint (Ollama's two, and the four compatibility
//! routes), paste box (a body or a `curl` command), the form, and the JSON
//! editors (whole body, `messages` or `input`, `tools`, `options`).

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
    let current = store.state.with_untracked(|s| s.endpoint);
    let chosen = imported.choose(current);
    let body = pretty(&imported.body);
    store.update(|s| {
        if let Some(e) = chosen {
            s.endpoint = e;
        }
        s.request = body;
    });
    let what = match (curl::is_curl(text), imported.endpoint, chosen) {
        (true, Some(e), _) => store.tf("notice.filled_curl", &[("path", e.path())]),
        (_, _, Some(e)) => store.tf("notice.filled_body_as", &[("path", e.path())]),
        _ => store.t("notice.filled_body").to_string(),
    };
    store.say(what);
    Ok(())
}

/// The message-catalogue key naming a compatibility route.
fn route_key(e: Endpoint) -> &'static str {
    match e {
        Endpoint::OpenAiChat => "request.route_openai_chat",
        Endpoint::OpenAiCompletions => "request.route_openai_completions",
        Endpoint::OpenAiResponses => "request.route_openai_responses",
        Endpoint::OpenAiEmbeddings => "request.route_openai_embeddings",
        _ => "request.route_anthropic_messages",
    }
}

/// The JSON sub-editors a body sent to `e` has, besides the whole body.
fn tabs(e: Endpoint) -> &'static [&'static str] {
    match e {
        Endpoint::Chat => &["messages", "tools", "options"],
        Endpoint::Generate => &["options"],
        Endpoint::OpenAiChat | Endpoint::AnthropicMessages => &["messages", "tools"],
        Endpoint::OpenAiResponses => &["input", "tools"],
        Endpoint::OpenAiCompletions => &[],
        Endpoint::Embed => &["input", "options"],
        Endpoint::Embeddings => &["options"],
        Endpoint::OpenAiEmbeddings => &["input"],
    }
}

/// One endpoint's radio button.
#[component]
fn EndpointChoice(
    /// The endpoint.
    endpoint: Endpoint,
    /// The chosen endpoint.
    chosen: Memo<Endpoint>,
    /// Called when this one is picked.
    on_pick: Callback<Endpoint>,
) -> impl IntoView {
    let store = expect_context::<Store>();
    let caption = (endpoint.route().is_some() || endpoint == Endpoint::OpenAiEmbeddings).then_some(()).map(
        |_| view! { " " <span class="route-name">{move || store.t(route_key(endpoint))}</span> },
    );
    view! {
        <label>
            <input
                type="radio"
                name="endpoint"
                value=endpoint.as_str()
                data-testid=format!("endpoint-{}", endpoint.as_str())
                prop:checked=move || chosen.get() == endpoint
                on:change=move |_| on_pick.run(endpoint)
            />
            <code>{endpoint.path()}</code>
            {caption}
        </label>
    }
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
    // the current tab, or the body when the endpoint has no such editor
    Effect::new(move |_| {
        let e = endpoint.get();
        let t = tab.get_untracked();
        if t != "body" && !tabs(e).contains(&t) {
            tab.set("body");
        }
    });
    let set_endpoint = Callback::new(move |e: Endpoint| store.update(|s| s.endpoint = e));
    let choices = move |list: &'static [Endpoint]| {
        list.iter()
            .map(|&e| view! { <EndpointChoice endpoint=e chosen=endpoint on_pick=set_endpoint /> })
            .collect_view()
    };
    let route_hint = move || {
        let e = endpoint.get();
        e.route().map(|_| {
            view! {
                <p class="hint" data-testid="route-hint">
                    {store.tf("request.route_hint", &[("path", e.path()), ("native", e.native().path())])}
                </p>
            }
        })
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
                <div class="endpoint-group" role="group" aria-labelledby="endpoint-native">
                    <span class="group-label" id="endpoint-native">{move || store.t("request.endpoint_native")}</span>
                    {choices(&[Endpoint::Chat, Endpoint::Generate])}
                </div>
                <div class="endpoint-group" role="group" aria-labelledby="endpoint-compat">
                    <span class="group-label" id="endpoint-compat">{move || store.t("request.endpoint_compat")}</span>
                    {choices(
                        &[
                            Endpoint::OpenAiChat,
                            Endpoint::OpenAiCompletions,
                            Endpoint::OpenAiResponses,
                            Endpoint::AnthropicMessages,
                        ],
                    )}
                </div>
                <div class="endpoint-group" role="group" aria-labelledby="endpoint-embed">
                    <span class="group-label" id="endpoint-embed">{move || store.t("request.endpoint_embed")}</span>
                    {choices(&[Endpoint::Embed, Endpoint::Embeddings, Endpoint::OpenAiEmbeddings])}
                </div>
            </fieldset>
            {route_hint}
            <div class="segmented" role="group" aria-label=move || store.t("request.json_editors")>
                {tab_button("body", "body")}
                {move || tabs(endpoint.get()).iter().map(|&t| tab_button(t, t)).collect_view()}
            </div>
            {move || match tab.get() {
                "messages" if endpoint.get() == Endpoint::Chat => {
                    view! {
                        <JsonField key="messages" id="messages-json" label="request.messages_json" hint="request.messages_hint" />
                    }
                        .into_any()
                }
                "messages" => {
                    view! {
                        <JsonField key="messages" id="messages-json" label="request.messages_json" hint="request.route_messages_hint" />
                    }
                        .into_any()
                }
                "input" if endpoint.get().embed().is_some() => {
                    view! {
                        <JsonField key="input" id="input-json" label="request.input_json" hint="request.embed_input_hint" />
                    }
                        .into_any()
                }
                "input" => {
                    view! {
                        <JsonField key="input" id="input-json" label="request.input_json" hint="request.input_hint" />
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
            <RequestForm />
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
        </section>
    }
}
