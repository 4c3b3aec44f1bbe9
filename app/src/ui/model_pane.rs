//! The model pane: TEMPLATE, SYSTEM, MESSAGE lines, RENDERER, PARSER,
//! family, `OLLAMA_GO_TEMPLATE`, extra capabilities, the server date and
//! the GGUF chat template.

use leptos::prelude::*;

use ollama::parsers::PARSER_NAMES;
use ollama::renderers::RENDERER_NAMES;
use promptscope_app::engine::{Field, TemplateTarget};
use promptscope_app::errpos;
use promptscope_app::examples;
use promptscope_app::state::{parse_json_text, ModelState, EXTRA_CAPABILITIES};

use crate::ui::code_editor::CodeEditor;
use crate::ui::gguf_pane::GgufDrop;
use crate::ui::help::Help;
use crate::ui::import_pane::ImportPane;
use crate::ui::store::Store;
use crate::ui::store_pane::StorePane;

/// A picker over a list of names, with an empty first entry.
#[component]
fn NamePicker(
    id: &'static str,
    label: &'static str,
    names: &'static [&'static str],
    get: fn(&ModelState) -> &String,
    set: fn(&mut ModelState, String),
) -> impl IntoView {
    let store = expect_context::<Store>();
    let value = store.slice(move |s| get(&s.model).clone());
    view! {
        <div class="field">
            <label for=id>{move || store.t(label)}</label>
            <select
                id=id
                data-testid=id
                on:change=move |ev| {
                    let v = event_target_value(&ev);
                    store.update(|s| set(&mut s.model, v));
                }
            >
                <option value="" selected=move || value.with(String::is_empty)>
                    {move || store.t("model.none")}
                </option>
                {names
                    .iter()
                    .map(|n| view! { <option value=*n selected=move || value.get() == *n>{*n}</option> })
                    .collect_view()}
                {move || {
                    let v = value.get();
                    (!v.is_empty() && !names.contains(&v.as_str()))
                        .then(|| view! { <option value=v.clone() selected=true>{v.clone()}</option> })
                }}
            </select>
        </div>
    }
}

/// The model side of a render.
#[component]
pub fn ModelPane() -> impl IntoView {
    let store = expect_context::<Store>();
    let has_template = store.slice(|s| s.model.has_template);
    let template = store.slice(|s| s.model.template.clone());
    let system = store.slice(|s| s.model.system.clone());
    let messages = store.slice(|s| s.model.messages.clone());
    let options = store.slice(|s| s.model.options.clone());
    let family = store.slice(|s| s.model.family.clone());
    let env = store.slice(|s| s.model.go_template_env.clone());
    let caps = store.slice(|s| s.model.capabilities.clone());
    let date = store.slice(|s| s.model.date.clone());
    let chat_template = store.slice(|s| s.model.chat_template.clone());
    let bos = store.slice(|s| s.model.bos_token.clone());
    let eos = store.slice(|s| s.model.eos_token.clone());

    let template_error = Memo::new(move |_| {
        store.outcome.with(|o| {
            o.error.as_ref().and_then(|e| match e.position {
                Some((TemplateTarget::Model, p)) => Some((e.message.clone(), p)),
                _ => None,
            })
        })
    });
    let messages_error = Memo::new(move |_| {
        let syntax = messages.with(|m| {
            parse_json_text(m, serde_json::json!([]))
                .err()
                .map(|e| (e.to_string(), Some(errpos::json(&e))))
        });
        syntax.or_else(|| {
            store.outcome.with(|o| {
                o.input_error
                    .as_ref()
                    .filter(|e| e.field == Field::ModelMessages)
                    .map(|e| (e.message.clone(), e.pos))
            })
        })
    });
    let options_error = Memo::new(move |_| {
        let syntax = options.with(|m| {
            parse_json_text(m, serde_json::json!({}))
                .err()
                .map(|e| (e.to_string(), Some(errpos::json(&e))))
        });
        syntax.or_else(|| {
            store.outcome.with(|o| {
                o.input_error
                    .as_ref()
                    .filter(|e| e.field == Field::ModelOptions)
                    .map(|e| (e.message.clone(), e.pos))
            })
        })
    });
    let date_error = Memo::new(move |_| {
        store.outcome.with(|o| {
            o.input_error
                .as_ref()
                .filter(|e| e.field == Field::Date)
                .map(|e| e.message.clone())
        })
    });
    let env_choice = move || match env.get().as_deref() {
        None => "unset".to_string(),
        Some("true") => "true".to_string(),
        Some("false") => "false".to_string(),
        Some(_) => "other".to_string(),
    };

    // The fields behind "More" that hold something: counted in its summary,
    // and the fold starts open when the page opens with any of them set.
    let more_set = Memo::new(move |_| {
        store.state.with(|s| {
            let m = &s.model;
            [
                !m.messages.trim().is_empty(),
                !m.options.trim().is_empty(),
                !m.renderer.is_empty(),
                !m.parser.is_empty(),
                !m.family.is_empty(),
                m.go_template_env.is_some(),
                !m.date.is_empty(),
                !m.capabilities.is_empty(),
            ]
            .iter()
            .filter(|b| **b)
            .count()
        })
    });
    let more_open_at_start = more_set.get_untracked() > 0;

    view! {
        <section class="pane" id="model-pane" aria-labelledby="model-heading">
            <h2 id="model-heading">{move || store.t("model.title")}</h2>
            <label class="check">
                <input
                    type="checkbox"
                    data-testid="has-template"
                    prop:checked=move || has_template.get()
                    on:change=move |ev| {
                        let on = event_target_checked(&ev);
                        store.update(|s| s.model.has_template = on);
                    }
                />
                {move || store.t("model.has_template")}
            </label>
            <div class:disabled-block=move || !has_template.get()>
                <CodeEditor
                    id="template"
                    label="model.template"
                    hint="model.template_hint"
                    test_id="template-input"
                    value=Signal::from(template)
                    on_input=Callback::new(move |v: String| {
                        let mut dropped = false;
                        store.update(|s| {
                            dropped = examples::template_drops_example_system(&s.model.template, &v, &s.model.system);
                            if dropped {
                                s.model.system.clear();
                            }
                            s.model.template = v;
                        });
                        if dropped {
                            store.say(store.t("notice.example_system_dropped"));
                        }
                    })
                    error=Signal::derive(move || template_error.get().map(|(m, _)| m))
                    error_pos=Signal::derive(move || template_error.get().map(|(_, p)| p))
                    rows=14
                    class="tall"
                />
            </div>
            <Help key="help.function" />
            <div class="field">
                <label for="model-system">"SYSTEM"</label>
                <textarea
                    id="model-system"
                    data-testid="system-input"
                    rows="2"
                    spellcheck="false"
                    prop:value=move || system.get()
                    on:input=move |ev| {
                        let v = event_target_value(&ev);
                        store.update(|s| s.model.system = v);
                    }
                ></textarea>
            </div>
            <details class="more" data-testid="model-more" prop:open=more_open_at_start>
            <summary>
                {move || store.t("model.more")}
                {move || {
                    let n = more_set.get();
                    (n > 0).then(|| view! { " " <strong data-testid="model-more-set">{store.tf("model.more_set", &[("n", &n.to_string())])}</strong> })
                }}
            </summary>
            <CodeEditor
                id="model-messages"
                label="model.messages"
                hint="model.messages_hint"
                test_id="model-messages-input"
                value=Signal::from(messages)
                on_input=Callback::new(move |v: String| store.update(|s| s.model.messages = v))
                error=Signal::derive(move || messages_error.get().map(|(m, _)| m))
                error_pos=Signal::derive(move || messages_error.get().and_then(|(_, p)| p))
                rows=3
            />
            <CodeEditor
                id="model-options"
                label="model.options"
                hint="model.options_hint"
                test_id="model-options-input"
                value=Signal::from(options)
                on_input=Callback::new(move |v: String| store.update(|s| s.model.options = v))
                error=Signal::derive(move || options_error.get().map(|(m, _)| m))
                error_pos=Signal::derive(move || options_error.get().and_then(|(_, p)| p))
                rows=3
            />
            <div class="row wrap">
                <NamePicker
                    id="renderer-select"
                    label="model.renderer"
                    names=&RENDERER_NAMES
                    get=|m| &m.renderer
                    set=|m, v| m.renderer = v
                />
                <NamePicker
                    id="parser-select"
                    label="model.parser"
                    names=&PARSER_NAMES
                    get=|m| &m.parser
                    set=|m, v| m.parser = v
                />
                <div class="field">
                    <label for="model-family">{move || store.t("model.family")}</label>
                    <input
                        id="model-family"
                        type="text"
                        spellcheck="false"
                        placeholder="llama, qwen3, gptoss…"
                        prop:value=move || family.get()
                        on:input=move |ev| {
                            let v = event_target_value(&ev);
                            store.update(|s| s.model.family = v);
                        }
                    />
                </div>
            </div>
            <div class="row wrap">
                <div class="field">
                    <label for="go-template-env">
                        <code>"OLLAMA_GO_TEMPLATE"</code>
                    </label>
                    <select
                        id="go-template-env"
                        data-testid="go-template-env"
                        on:change=move |ev| {
                            let v = event_target_value(&ev);
                            store.update(|s| {
                                s.model.go_template_env = match v.as_str() {
                                    "unset" => None,
                                    "other" => Some("1".into()),
                                    other => Some(other.to_string()),
                                }
                            });
                        }
                    >
                        <option value="unset" selected=move || env_choice() == "unset">
                            {move || store.t("model.env_unset")}
                        </option>
                        <option value="true" selected=move || env_choice() == "true">"true"</option>
                        <option value="false" selected=move || env_choice() == "false">"false"</option>
                        <option value="other" selected=move || env_choice() == "other">
                            {move || store.t("model.env_other")}
                        </option>
                    </select>
                </div>
                {move || {
                    (env_choice() == "other")
                        .then(|| {
                            view! {
                                <div class="field narrow">
                                    <label for="go-template-env-value">{move || store.t("model.env_value")}</label>
                                    <input
                                        id="go-template-env-value"
                                        type="text"
                                        spellcheck="false"
                                        prop:value=move || env.get().unwrap_or_default()
                                        on:input=move |ev| {
                                            let v = event_target_value(&ev);
                                            store.update(|s| s.model.go_template_env = Some(v));
                                        }
                                    />
                                </div>
                            }
                        })
                }}
                <div class="field narrow">
                    <label for="model-date">{move || store.t("model.date")}</label>
                    <input
                        id="model-date"
                        type="text"
                        inputmode="numeric"
                        placeholder="YYYY-MM-DD"
                        aria-invalid=move || date_error.with(Option::is_some).then_some("true")
                        prop:value=move || date.get()
                        on:input=move |ev| {
                            let v = event_target_value(&ev);
                            store.update(|s| s.model.date = v);
                        }
                    />
                    {move || date_error.get().map(|e| view! { <p class="field-error">{e}</p> })}
                </div>
            </div>
            <fieldset class="caps">
                <legend>{move || store.t("model.capabilities")}</legend>
                {EXTRA_CAPABILITIES
                    .iter()
                    .map(|cap| {
                        view! {
                            <label class="check">
                                <input
                                    type="checkbox"
                                    data-testid=format!("cap-{cap}")
                                    prop:checked=move || caps.with(|c| c.iter().any(|x| x == cap))
                                    on:change=move |ev| {
                                        let on = event_target_checked(&ev);
                                        store.update(|s| {
                                            s.model.capabilities.retain(|x| x != cap);
                                            if on {
                                                s.model.capabilities.push(cap.to_string());
                                            }
                                        });
                                    }
                                />
                                {*cap}
                            </label>
                        }
                    })
                    .collect_view()}
            </fieldset>
            <Help key="help.dates" />
            </details>
            <StorePane />
            <ImportPane />
            <GgufDrop />
            <CodeEditor
                id="chat-template"
                label="model.chat_template"
                hint="model.chat_template_hint"
                test_id="chat-template-input"
                value=Signal::from(chat_template)
                on_input=Callback::new(move |v: String| store.update(|s| s.model.chat_template = v))
                rows=6
            />
            <div class="row wrap">
                <div class="field">
                    <label for="model-bos">
                        <code>"bos_token"</code>
                    </label>
                    <input
                        id="model-bos"
                        type="text"
                        spellcheck="false"
                        placeholder="<s>"
                        prop:value=move || bos.get()
                        on:input=move |ev| {
                            let v = event_target_value(&ev);
                            store.update(|s| s.model.bos_token = v);
                        }
                    />
                </div>
                <div class="field">
                    <label for="model-eos">
                        <code>"eos_token"</code>
                    </label>
                    <input
                        id="model-eos"
                        type="text"
                        spellcheck="false"
                        placeholder="</s>"
                        prop:value=move || eos.get()
                        on:input=move |ev| {
                            let v = event_target_value(&ev);
                            store.update(|s| s.model.eos_token = v);
                        }
                    />
                </div>
            </div>
            <Help key="help.gguf_wins" />
        </section>
    }
}
