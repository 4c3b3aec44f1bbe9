//! The friendly form over the request body: model, think, `num_ctx`; for
//! chat the messages (role, content, tool calls, images); for generate the
//! prompt, system, suffix, template, raw and images. For a compatibility
//! route, the route's own fields: `max_tokens` (or `max_output_tokens`),
//! the messages in its roles (content lists are left to the JSON editor),
//! Anthropic's `system`, the completions' prompt and suffix, the Responses
//! API's instructions.

use leptos::prelude::*;
use serde_json::Value;

use promptscope_app::engine::TemplateTarget;
use promptscope_app::reqedit::{self, MessageRow, THINK_CHOICES};
use promptscope_app::state::Endpoint;

use crate::ui::code_editor::CodeEditor;
use crate::ui::store::Store;

fn think_label(store: Store, choice: &str) -> String {
    match choice {
        "" => store.t("form.think_unset").to_string(),
        c => c.to_string(),
    }
}

/// One message of a chat request.
#[component]
fn MessageEditor(
    index: usize,
    rows: Memo<Vec<MessageRow>>,
    /// The roles offered.
    roles: &'static [&'static str],
    /// Native `/api/chat` messages: the tool-call and image buttons write
    /// Ollama's own shapes, so only they get them.
    native: bool,
) -> impl IntoView {
    let store = expect_context::<Store>();
    let row = move || rows.with(|r| r.get(index).cloned());
    let role = move || row().map(|r| r.role).unwrap_or_default();
    let content = move || row().map(|r| r.content).unwrap_or_default();
    let parts = move || row().map_or((0, String::new()), |r| (r.parts, r.part_types));
    let extras = move || {
        row().map(|r| {
            let mut parts = Vec::new();
            if r.tool_calls > 0 {
                parts.push(store.tf("form.n_tool_calls", &[("n", &r.tool_calls.to_string())]));
            }
            if r.images > 0 {
                parts.push(store.tf("form.n_images", &[("n", &r.images.to_string())]));
            }
            parts.join(", ")
        })
    };
    let n = index + 1;
    let role_id = format!("msg-{index}-role");
    let content_id = format!("msg-{index}-content");
    view! {
        <li class="message-row" data-testid="message-row">
            <div class="message-head">
                <label for=role_id.clone() class="sr-only">
                    {move || store.tf("form.role_of", &[("n", &n.to_string())])}
                </label>
                <select
                    id=role_id
                    on:change=move |ev| {
                        let v = event_target_value(&ev);
                        store.edit_body(|b| reqedit::set_role(b, index, &v));
                    }
                >
                    {roles
                        .iter()
                        .map(|r| view! { <option value=*r selected=move || role() == *r>{*r}</option> })
                        .collect_view()}
                    {move || {
                        let r = role();
                        (!roles.contains(&r.as_str()))
                            .then(|| view! { <option value=r.clone() selected=true>{r.clone()}</option> })
                    }}
                </select>
                <span class="extras">{extras}</span>
                <span class="spacer"></span>
                {native
                    .then(|| {
                        view! {
                            <button
                                type="button"
                                class="small"
                                on:click=move |_| store.edit_body(|b| reqedit::add_tool_call(b, index))
                            >
                                {move || store.t("form.add_tool_call")}
                            </button>
                            <button
                                type="button"
                                class="small"
                                on:click=move |_| store.edit_body(|b| reqedit::attach_image(b, Some(index)))
                            >
                                {move || store.t("form.attach_image")}
                            </button>
                        }
                    })}
                <button
                    type="button"
                    class="small danger"
                    aria-label=move || store.tf("form.remove_n", &[("n", &n.to_string())])
                    on:click=move |_| store.edit_body(|b| reqedit::remove_message(b, index))
                >
                    "×"
                </button>
            </div>
            {move || {
                let (n_parts, types) = parts();
                if n_parts > 0 {
                    // a list of parts or blocks: a text box would flatten it
                    return view! {
                        <p class="note" data-testid="message-parts">
                            {store.tf("form.parts", &[("n", &n_parts.to_string()), ("types", &types)])}
                        </p>
                    }
                        .into_any();
                }
                let content_id = content_id.clone();
                view! {
                    <label for=content_id.clone() class="sr-only">
                        {move || store.tf("form.content_of", &[("n", &n.to_string())])}
                    </label>
                    <textarea
                        id=content_id
                        rows="2"
                        spellcheck="false"
                        prop:value=content
                        on:input=move |ev| {
                            let v = event_target_value(&ev);
                            store.edit_body(|b| reqedit::set_content(b, index, &v));
                        }
                    ></textarea>
                }
                    .into_any()
            }}
        </li>
    }
}

/// A labelled single-line or multi-line text field over a string key of the body.
#[component]
fn BodyText(
    key: &'static str,
    label: &'static str,
    #[prop(default = 1)] rows: u32,
) -> impl IntoView {
    let store = expect_context::<Store>();
    let body = store.body;
    let value = move || {
        body.with(|b| {
            b.as_ref()
                .map(|b| reqedit::str_field(b, key))
                .unwrap_or_default()
        })
    };
    let id = format!("form-{key}");
    let on_input = move |ev| {
        let v = event_target_value(&ev);
        store.edit_body(|b| reqedit::set_str_field(b, key, &v));
    };
    view! {
        <div class="field">
            <label for=id.clone()>{move || store.t(label)}</label>
            {if rows > 1 {
                view! { <textarea id=id rows=rows spellcheck="false" prop:value=value on:input=on_input></textarea> }
                    .into_any()
            } else {
                view! { <input id=id type="text" spellcheck="false" prop:value=value on:input=on_input /> }.into_any()
            }}
        </div>
    }
}

/// A whole-number field over a key of the body (a route's `max_tokens`).
#[component]
fn BodyNumber(key: &'static str) -> impl IntoView {
    let store = expect_context::<Store>();
    let body = store.body;
    let value = move || {
        body.with(|b| {
            b.as_ref()
                .map(|b| reqedit::num_field(b, key))
                .unwrap_or_default()
        })
    };
    let id = format!("form-{key}");
    view! {
        <div class="field narrow">
            <label for=id.clone()>
                <code>{key}</code>
            </label>
            <input
                id=id
                type="number"
                min="1"
                step="1"
                inputmode="numeric"
                data-testid=format!("form-{key}")
                prop:value=value
                on:input=move |ev| {
                    let v = event_target_value(&ev);
                    let n = v.trim().parse::<u64>().ok().filter(|n| *n > 0);
                    if v.trim().is_empty() || n.is_some() {
                        store.edit_body(|b| reqedit::set_num_field(b, key, n));
                    }
                }
            />
        </div>
    }
}

/// An embedding body's inputs, one per line.
#[component]
fn EmbedInputList() -> impl IntoView {
    let store = expect_context::<Store>();
    let lines = Memo::new(move |_| {
        store
            .body
            .with(|b| b.as_ref().ok().map(reqedit::embed_lines))
    });
    view! {
        <div class="field">
            <label for="form-embed-inputs">{move || store.t("form.embed_inputs")}</label>
            <p class="hint" id="form-embed-inputs-hint">{move || store.t("form.embed_inputs_hint")}</p>
            {move || match lines.get() {
                Some(Some(text)) => {
                    view! {
                        <textarea
                            id="form-embed-inputs"
                            data-testid="embed-inputs-input"
                            rows="4"
                            spellcheck="false"
                            aria-describedby="form-embed-inputs-hint"
                            prop:value=text
                            on:input=move |ev| {
                                let v = event_target_value(&ev);
                                store.edit_body(|b| reqedit::set_embed_lines(b, &v));
                            }
                        ></textarea>
                    }
                        .into_any()
                }
                _ => view! { <p class="note">{store.t("form.embed_inputs_json")}</p> }.into_any(),
            }}
        </div>
    }
}

/// `num_ctx` (not on `/v1/embeddings`, whose body has no options),
/// `dimensions` and `truncate` of an embedding body.
#[component]
fn EmbedSettings() -> impl IntoView {
    let store = expect_context::<Store>();
    let endpoint = store.slice(|s| s.endpoint);
    let body = store.body;
    let num_ctx = move || body.with(|b| b.as_ref().map(reqedit::num_ctx).unwrap_or_default());
    let truncate = move || body.with(|b| b.as_ref().map(reqedit::truncate_on).unwrap_or(true));
    view! {
        {move || {
            (endpoint.get() != Endpoint::OpenAiEmbeddings)
                .then(|| {
                    view! {
                        <div class="field narrow">
                            <label for="form-num-ctx">
                                <code>"num_ctx"</code>
                            </label>
                            <input
                                id="form-num-ctx"
                                type="number"
                                min="1"
                                step="1"
                                inputmode="numeric"
                                placeholder="4096"
                                data-testid="form-num-ctx"
                                prop:value=num_ctx
                                on:input=move |ev| {
                                    let v = event_target_value(&ev);
                                    let n = v.trim().parse::<u64>().ok().filter(|n| *n > 0);
                                    if v.trim().is_empty() || n.is_some() {
                                        store.edit_body(|b| reqedit::set_num_ctx(b, n));
                                    }
                                }
                            />
                        </div>
                    }
                })
        }}
        {move || (endpoint.get() != Endpoint::Embeddings).then(|| view! { <BodyNumber key="dimensions" /> })}
        {move || {
            (endpoint.get() == Endpoint::Embed)
                .then(|| {
                    view! {
                        <label class="check">
                            <input
                                type="checkbox"
                                data-testid="form-truncate"
                                prop:checked=truncate
                                on:change=move |ev| {
                                    let on = event_target_checked(&ev);
                                    store.edit_body(|b| reqedit::set_truncate(b, on));
                                }
                            />
                            <code>"truncate"</code>
                            " "
                            {move || store.t("form.truncate")}
                        </label>
                    }
                })
        }}
    }
}

/// The messages of a chat body (native or a route's), with the roles
/// that endpoint knows.
#[component]
fn MessagesForm(endpoint: Endpoint) -> impl IntoView {
    let store = expect_context::<Store>();
    let body = store.body;
    let body_ok = Memo::new(move |_| body.with(Result::is_ok));
    let rows = Memo::new(move |_| {
        body.with(|b| {
            b.as_ref()
                .ok()
                .and_then(reqedit::messages)
                .unwrap_or_default()
        })
    });
    let messages_ok = Memo::new(move |_| {
        body.with(|b| {
            b.as_ref()
                .map(|b| reqedit::messages(b).is_some())
                .unwrap_or(false)
        })
    });
    let count = Memo::new(move |_| rows.with(Vec::len));
    let roles = reqedit::roles(endpoint);
    let native = endpoint == Endpoint::Chat;
    let new_role = RwSignal::new("user".to_string());
    view! {
        <div class="messages-form">
            <h4>{move || store.t("form.messages")}</h4>
            {move || (!messages_ok.get() && body_ok.get()).then(|| view! { <p class="note">{store.t("form.messages_not_list")}</p> })}
            <ol class="message-list">
                <For each=move || 0..count.get() key=|i| *i let:index>
                    <MessageEditor index=index rows=rows roles=roles native=native />
                </For>
            </ol>
            <div class="row add-message">
                <label for="new-role" class="sr-only">{move || store.t("form.new_role")}</label>
                <select id="new-role" on:change=move |ev| new_role.set(event_target_value(&ev))>
                    {roles
                        .iter()
                        .map(|r| view! { <option value=*r selected=*r == "user">{*r}</option> })
                        .collect_view()}
                </select>
                <button
                    type="button"
                    data-testid="add-message"
                    on:click=move |_| {
                        let role = new_role.get_untracked();
                        store.edit_body(|b| reqedit::add_message(b, &role));
                    }
                >
                    {move || store.t("form.add_message")}
                </button>
            </div>
        </div>
    }
}

/// Anthropic's `system`: text in the form, a list of blocks left to the
/// JSON editor.
#[component]
fn AnthropicSystem() -> impl IntoView {
    let store = expect_context::<Store>();
    let blocks = Memo::new(move |_| {
        store.body.with(|b| {
            b.as_ref()
                .map(|b| {
                    let system = b.get("system");
                    (reqedit::parts(system), reqedit::part_types(system))
                })
                .unwrap_or_default()
        })
    });
    move || {
        let (n, types) = blocks.get();
        if n == 0 {
            view! { <BodyText key="system" label="form.system" rows=2 /> }.into_any()
        } else {
            view! {
                <div class="field">
                    <span class="label"><code>"system"</code></span>
                    <p class="note" data-testid="system-parts">
                        {store.tf("form.parts", &[("n", &n.to_string()), ("types", &types)])}
                    </p>
                </div>
            }
            .into_any()
        }
    }
}

/// The form.
#[component]
pub fn RequestForm() -> impl IntoView {
    let store = expect_context::<Store>();
    let endpoint = store.slice(|s| s.endpoint);
    let body = store.body;
    let body_ok = Memo::new(move |_| body.with(Result::is_ok));
    let with_body =
        move |f: fn(&Value) -> String| body.with(|b| b.as_ref().map(f).unwrap_or_default());
    let model = move || with_body(|b| reqedit::str_field(b, "model"));
    let think = Memo::new(move |_| with_body(reqedit::think));
    let num_ctx = move || with_body(reqedit::num_ctx);
    let images = move || body.with(|b| b.as_ref().map(reqedit::image_count).unwrap_or(0));

    let template_value = Signal::derive(move || with_body(|b| reqedit::str_field(b, "template")));
    let template_error = Signal::derive(move || {
        store.outcome.with(|o| {
            o.error.as_ref().and_then(|e| match e.position {
                Some((TemplateTarget::Request, _)) => Some(e.message.clone()),
                _ => None,
            })
        })
    });
    let template_pos = Signal::derive(move || {
        store.outcome.with(|o| {
            o.error.as_ref().and_then(|e| match e.position {
                Some((TemplateTarget::Request, p)) => Some(p),
                _ => None,
            })
        })
    });

    // think and num_ctx: fields of Ollama's own API only
    let native_settings = move || {
        view! {
            <div class="field">
                <label for="form-think">{move || store.t("form.think")}</label>
                <select
                    id="form-think"
                    data-testid="think-select"
                    on:change=move |ev| {
                        let v = event_target_value(&ev);
                        store.edit_body(|b| reqedit::set_think(b, &v));
                    }
                >
                    {THINK_CHOICES
                        .iter()
                        .map(|c| {
                            view! {
                                <option value=*c selected=move || think.get() == *c>
                                    {move || think_label(store, c)}
                                </option>
                            }
                        })
                        .collect_view()}
                    {move || {
                        let t = think.get();
                        (!THINK_CHOICES.contains(&t.as_str()))
                            .then(|| view! { <option value=t.clone() selected=true>{t.clone()}</option> })
                    }}
                </select>
            </div>
            <div class="field narrow">
                <label for="form-num-ctx">
                    <code>"num_ctx"</code>
                </label>
                <input
                    id="form-num-ctx"
                    type="number"
                    min="1"
                    step="1"
                    inputmode="numeric"
                    placeholder="4096"
                    prop:value=num_ctx
                    on:input=move |ev| {
                        let v = event_target_value(&ev);
                        let n = v.trim().parse::<u64>().ok().filter(|n| *n > 0);
                        if v.trim().is_empty() || n.is_some() {
                            store.edit_body(|b| reqedit::set_num_ctx(b, n));
                        }
                    }
                />
            </div>
        }
    };

    view! {
        <div class="form" role="group" aria-labelledby="form-heading">
            <h3 id="form-heading">{move || store.t("form.title")}</h3>
            {move || (!body_ok.get()).then(|| view! { <p class="note">{store.t("request.fix_body_first")}</p> })}
            <fieldset class="plain" prop:disabled=move || !body_ok.get()>
                <div class="row wrap">
                    <div class="field">
                        <label for="form-model">{move || store.t("form.model")}</label>
                        <input
                            id="form-model"
                            type="text"
                            spellcheck="false"
                            prop:value=model
                            on:input=move |ev| {
                                let v = event_target_value(&ev);
                                store.edit_body(|b| reqedit::set_str_field(b, "model", &v));
                            }
                        />
                    </div>
                    {move || match reqedit::max_tokens_key(endpoint.get()) {
                        Some(key) => view! { <BodyNumber key=key /> }.into_any(),
                        None if endpoint.get().embed().is_some() => view! { <EmbedSettings /> }.into_any(),
                        None => native_settings().into_any(),
                    }}
                </div>
                {move || match endpoint.get() {
                    e @ (Endpoint::Chat | Endpoint::OpenAiChat) => view! { <MessagesForm endpoint=e /> }.into_any(),
                    Endpoint::AnthropicMessages => {
                        view! {
                            <AnthropicSystem />
                            <MessagesForm endpoint=Endpoint::AnthropicMessages />
                        }
                            .into_any()
                    }
                    Endpoint::OpenAiCompletions => {
                        view! {
                            <div class="generate-form">
                                <BodyText key="prompt" label="form.prompt" rows=3 />
                                <BodyText key="suffix" label="form.suffix" rows=2 />
                            </div>
                        }
                            .into_any()
                    }
                    Endpoint::OpenAiResponses => {
                        view! { <BodyText key="instructions" label="form.instructions" rows=2 /> }.into_any()
                    }
                    Endpoint::Embed | Endpoint::OpenAiEmbeddings => {
                        view! { <EmbedInputList /> }.into_any()
                    }
                    Endpoint::Embeddings => {
                        view! { <BodyText key="prompt" label="form.prompt" rows=3 /> }.into_any()
                    }
                    Endpoint::Generate => {
                        view! {
                            <div class="generate-form">
                                <BodyText key="prompt" label="form.prompt" rows=3 />
                                <BodyText key="suffix" label="form.suffix" rows=2 />
                                <BodyText key="system" label="form.system" rows=2 />
                                <CodeEditor
                                    id="request-template"
                                    label="form.template"
                                    hint="form.template_hint"
                                    value=template_value
                                    on_input=Callback::new(move |v: String| {
                                        store.edit_body(|b| reqedit::set_str_field(b, "template", &v))
                                    })
                                    error=template_error
                                    error_pos=template_pos
                                    rows=4
                                />
                                <div class="row">
                                    <label class="check">
                                        <input
                                            type="checkbox"
                                            prop:checked=move || with_body(|b| reqedit::bool_field(b, "raw").to_string()) == "true"
                                            on:change=move |ev| {
                                                let on = event_target_checked(&ev);
                                                store.edit_body(|b| reqedit::set_bool_field(b, "raw", on));
                                            }
                                        />
                                        <code>"raw"</code>
                                        " "
                                        {move || store.t("form.raw")}
                                    </label>
                                    <span class="spacer"></span>
                                    <span class="extras">
                                        {move || store.tf("form.n_images", &[("n", &images().to_string())])}
                                    </span>
                                    <button type="button" class="small" on:click=move |_| store.edit_body(|b| reqedit::attach_image(b, None))>
                                        {move || store.t("form.attach_image")}
                                    </button>
                                    <button type="button" class="small" on:click=move |_| store.edit_body(reqedit::clear_images)>
                                        {move || store.t("form.clear_images")}
                                    </button>
                                </div>
                            </div>
                        }
                            .into_any()
                    }
                }}
            </fieldset>
        </div>
    }
}
