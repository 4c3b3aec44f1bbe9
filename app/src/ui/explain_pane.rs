//! The explain pane: the path Ollama takes and the rule that chose it, the
//! execution branch, the template's names, capabilities and their origins,
//! think, where a model from the models folder got each input, Ollama's
//! rejection (in a compatibility route's own error shape), what the route
//! made of the body (the converted request and each field's fate), what
//! happened to each message, and how to check the result against a real
//! Ollama.

use leptos::prelude::*;

use ollama::compat::notes::{Fate, FieldNote};
use ollama::model::Capability;
use ollama::server::MessageNote;
use promptscope_app::curl;
use promptscope_app::engine::RouteView;
use promptscope_app::modelfile::modelfile;
use promptscope_app::state::pretty;

use crate::ui::browser;
use crate::ui::embed_route::EmbedExplain;
use crate::ui::help::Help;
use crate::ui::store::Store;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Facts {
    source: String,
    rule: String,
    branch: String,
    model_name: String,
    vars: Vec<String>,
    response_appended: bool,
    requested: Vec<String>,
    think: Option<String>,
    think_rule: String,
    format_rule: String,
    delimiters: String,
    leading_bos: Option<String>,
    tool_renames: Vec<(String, String)>,
    truncation: Option<String>,
}

fn branch_key(branch: &str) -> Option<&'static str> {
    Some(match branch {
        "messages" => "branch.messages",
        "legacy" => "branch.legacy",
        "insert" => "branch.insert",
        "renderer" => "branch.renderer",
        "raw" => "branch.raw",
        "load" => "branch.load",
        "native" => "branch.native",
        _ => return None,
    })
}

fn code_list(items: Vec<String>) -> impl IntoView {
    items
        .into_iter()
        .map(|s| view! { <code class="chip">{s}</code> " " })
        .collect_view()
}

/// The message-catalogue key of a field's fate.
fn fate_key(fate: Fate) -> &'static str {
    match fate {
        Fate::Mapped => "explain.fate_mapped",
        Fate::Defaulted => "explain.fate_defaulted",
        Fate::Dropped => "explain.fate_dropped",
        Fate::Response => "explain.fate_response",
    }
}

/// A stable class name for a fate (styles and tests).
fn fate_class(fate: Fate) -> &'static str {
    match fate {
        Fate::Mapped => "mapped",
        Fate::Defaulted => "defaulted",
        Fate::Dropped => "dropped",
        Fate::Response => "response",
    }
}

/// A block of text with a copy button.
#[component]
fn CopyBlock(
    /// Message key of the heading.
    label: &'static str,
    test_id: &'static str,
    text: Signal<String>,
    /// A heading that replaces `label`'s (one with placeholders filled).
    #[prop(optional, into)]
    heading: Option<Signal<String>>,
) -> impl IntoView {
    let store = expect_context::<Store>();
    let title = move || match heading {
        Some(h) => h.get(),
        None => store.t(label).to_string(),
    };
    view! {
        <div class="copy-block">
            <div class="pane-head">
                <h4>{title}</h4>
                <button
                    type="button"
                    class="small"
                    on:click=move |_| {
                        browser::copy(&text.get_untracked(), move |ok| {
                            store.say(store.t(if ok { "notice.copied" } else { "notice.copy_failed" }))
                        });
                    }
                >
                    {move || store.t("prompt.copy")}
                </button>
            </div>
            <pre class="snippet" data-testid=test_id tabindex="0">{move || text.get()}</pre>
        </div>
    }
}

/// What a compatibility route made of the body: the body beside the
/// converted native request, and the fate of each field.
#[component]
fn RouteSection(route: Memo<Option<RouteView>>) -> impl IntoView {
    let store = expect_context::<Store>();
    let path =
        Memo::new(move |_| route.with(|r| r.as_ref().map(|r| r.path.clone()).unwrap_or_default()));
    let native = Memo::new(move |_| {
        route.with(|r| {
            r.as_ref()
                .map(|r| r.native_path.clone())
                .unwrap_or_default()
        })
    });
    let body_text = Signal::derive(move || {
        store.body.with(|b| match b {
            Ok(body) => pretty(body),
            Err(_) => store.t("request.fix_body_first").to_string(),
        })
    });
    let api_request =
        Memo::new(move |_| route.with(|r| r.as_ref().and_then(|r| r.api_request.clone())));
    let fields = Memo::new(move |_| {
        route.with(|r| r.as_ref().map(|r| r.fields.clone()).unwrap_or_default())
    });
    view! {
        <h3>{move || store.t("explain.route")}</h3>
        <p class="rule" data-testid="route-summary">
            <code>{move || format!("POST {}", path.get())}</code>
            " → "
            <code>{move || native.get()}</code>
        </p>
        <div class="route-bodies">
            <CopyBlock
                label="explain.route_body"
                test_id="route-body"
                text=body_text
                heading=Signal::derive(move || store.tf("explain.route_body", &[("path", &path.get())]))
            />
            {move || match api_request.get() {
                Some(text) => {
                    view! {
                        <CopyBlock
                            label="explain.api_request"
                            test_id="api-request"
                            text=Signal::derive(move || text.clone())
                            heading=Signal::derive(move || store.tf("explain.api_request", &[("native", &native.get())]))
                        />
                    }
                        .into_any()
                }
                None => view! { <p class="note" data-testid="route-refused">{store.t("explain.route_refused")}</p> }.into_any(),
            }}
        </div>
        <h4>{move || store.t("explain.fields")}</h4>
        <table class="notes route-fields" data-testid="route-fields">
            <thead>
                <tr>
                    <th scope="col">{move || store.t("explain.field")}</th>
                    <th scope="col">{move || store.t("explain.fate")}</th>
                    <th scope="col">{move || store.t("explain.detail")}</th>
                </tr>
            </thead>
            <tbody>
                {move || {
                    fields
                        .get()
                        .into_iter()
                        .map(|f: FieldNote| {
                            let class = fate_class(f.fate);
                            let name = f.field.clone();
                            view! {
                                <tr class=format!("fate-{class}") data-testid="route-field" data-field=name data-fate=class>
                                    <td><code>{f.field}</code></td>
                                    <td><span class="fate">{store.t(fate_key(f.fate))}</span></td>
                                    <td>{f.detail}</td>
                                </tr>
                            }
                        })
                        .collect_view()
                }}
            </tbody>
        </table>
    }
}

/// How the prompt came about.
#[component]
pub fn ExplainPane() -> impl IntoView {
    let store = expect_context::<Store>();
    let facts = Memo::new(move |_| {
        store.outcome.with(|o| {
            o.explain
                .as_ref()
                .map(|e| Facts {
                    source: e.source.clone(),
                    rule: e.source_rule.clone(),
                    branch: e.branch.clone(),
                    model_name: e.model_name.clone(),
                    vars: e.vars.clone(),
                    response_appended: e.response_appended,
                    requested: e.requested.clone(),
                    think: e.think.clone(),
                    think_rule: e.think_rule.clone(),
                    format_rule: e.format_rule.clone(),
                    delimiters: e
                        .message_delimiters
                        .iter()
                        .map(|(r, d)| format!("{r}: {d:?}"))
                        .collect::<Vec<_>>()
                        .join(", "),
                    leading_bos: e.leading_bos.clone(),
                    tool_renames: e.tool_renames.clone(),
                    truncation: e.truncation.as_ref().map(|t| {
                        format!("num_ctx {}, first kept message {}", t.num_ctx, t.first_kept)
                    }),
                })
                .unwrap_or_default()
        })
    });
    let caps = Memo::new(move |_| {
        store.outcome.with(|o| {
            o.explain
                .as_ref()
                .map(|e| e.capabilities.clone())
                .unwrap_or_default()
        })
    });
    let notes = Memo::new(move |_| {
        store.outcome.with(|o| {
            o.explain
                .as_ref()
                .map(|e| e.messages.clone())
                .unwrap_or_default()
        })
    });
    // Native mode: the llama.cpp build and the build-specific rules that
    // applied.
    let build = Memo::new(move |_| {
        store.outcome.with(|o| {
            o.explain
                .as_ref()
                .and_then(|e| e.llamacpp.clone().map(|b| (b, e.build_rules.clone())))
        })
    });
    // The rows of Ollama's own change table the render reached.
    let release_rules = Memo::new(move |_| {
        store.outcome.with(|o| {
            o.explain
                .as_ref()
                .map(|e| e.release_rules.clone())
                .unwrap_or_default()
        })
    });
    // Per-message token costs, and where num_ctx truncation cut.
    let costs = Memo::new(move |_| {
        store.outcome.with(|o| {
            o.explain
                .as_ref()
                .map(|e| {
                    (
                        e.message_tokens.clone(),
                        e.truncation.as_ref().map(|t| (t.first_kept, t.num_ctx)),
                    )
                })
                .unwrap_or_default()
        })
    });
    // The runner's second stage (with a GGUF).
    let runner = Memo::new(move |_| {
        store.outcome.with(|o| {
            o.runner
                .as_ref()
                .map(promptscope_app::engine::runner_summary)
        })
    });
    // What llama-server's cache reuses from the previous turn.
    let cache = Memo::new(move |_| {
        store.outcome.with(|o| {
            o.cache.as_ref().map(|c| match c {
                Ok(t) => (
                    promptscope_app::engine::cache_summary(t),
                    t.assumption.clone(),
                ),
                Err(e) => (e.clone(), String::new()),
            })
        })
    });
    // Ollama's answer: through a route, the route's own error body
    let rejection = Memo::new(move |_| {
        store.outcome.with(|o| {
            o.error.as_ref().map(|e| {
                (
                    e.status,
                    e.body.clone().unwrap_or_else(|| e.message.clone()),
                )
            })
        })
    });
    let route = Memo::new(move |_| store.outcome.with(|o| o.route.clone()));
    let refused =
        Memo::new(move |_| route.with(|r| r.as_ref().is_some_and(|r| r.api_request.is_none())));
    let endpoint = store.slice(|s| s.endpoint);
    let curl_text = Signal::derive(move || {
        store.body.with(|b| match b {
            Ok(body) => curl::debug_curl(endpoint.get(), body).unwrap_or_default(),
            Err(_) => store.t("request.fix_body_first").to_string(),
        })
    });
    // the routes without _debug_render_only: the converted request, to the native endpoint
    let native_curl = Memo::new(move |_| {
        let e = endpoint.get();
        if curl::renders_only(e) {
            return None;
        }
        let text = route.with(|r| r.as_ref().and_then(|r| r.api_request.clone()))?;
        let body: serde_json::Value = serde_json::from_str(&text).ok()?;
        curl::debug_curl(e.native(), &body)
    });
    let model = store.slice(|s| s.model.clone());
    let model_name = Memo::new(move |_| {
        store.body.with(|b| {
            b.as_ref()
                .ok()
                .and_then(|b| b.get("model"))
                .and_then(|m| m.as_str())
                .unwrap_or("")
                .to_string()
        })
    });
    let modelfile_text = Signal::derive(move || model.with(|m| modelfile(m, "./model.gguf")));
    let create_cmd = move || {
        let name = model_name.get();
        let name = if name.is_empty() {
            "<name>".to_string()
        } else {
            name
        };
        format!("ollama create {name} -f Modelfile")
    };

    let dash = || "—".to_string();
    view! {
        <section class="pane" id="explain-pane" aria-labelledby="explain-heading">
            <h2 id="explain-heading">{move || store.t("explain.title")}</h2>
            <EmbedExplain />
            <div class="chat-only" class:hidden=move || endpoint.get().embed().is_some()>
            <dl class="facts">
                <dt>{move || store.t("explain.path")}</dt>
                <dd>
                    <code class="path" data-testid="selected-path">
                        {move || facts.with(|f| if f.source.is_empty() { dash() } else { f.source.clone() })}
                    </code>
                    <p class="rule" data-testid="selected-rule">
                        {move || {
                            facts
                                .with(|f| {
                                    if !f.rule.is_empty() {
                                        f.rule.clone()
                                    } else if refused.get() {
                                        store.t("explain.route_refused").to_string()
                                    } else {
                                        store.t("explain.no_path").to_string()
                                    }
                                })
                        }}
                    </p>
                </dd>
                <dt>{move || store.t("explain.model")}</dt>
                <dd>
                    <code>{move || facts.with(|f| if f.model_name.is_empty() { dash() } else { f.model_name.clone() })}</code>
                </dd>
                <dt>{move || store.t("explain.branch")}</dt>
                <dd data-testid="explain-branch">
                    {move || {
                        facts
                            .with(|f| {
                                if f.branch.is_empty() {
                                    dash().into_any()
                                } else {
                                    let text = branch_key(&f.branch).map(|k| store.t(k)).unwrap_or("");
                                    view! { <code>{f.branch.clone()}</code> " " <span>{text}</span> }.into_any()
                                }
                            })
                    }}
                    {move || {
                        facts.with(|f| f.response_appended).then(|| view! { <p class="rule">{store.t("explain.response_appended")}</p> })
                    }}
                </dd>
                <dt>{move || store.t("explain.vars")}</dt>
                <dd data-testid="explain-vars">
                    {move || {
                        let vars = facts.with(|f| f.vars.clone());
                        if vars.is_empty() { dash().into_any() } else { code_list(vars).into_any() }
                    }}
                </dd>
                <dt>{move || store.t("explain.capabilities")}</dt>
                <dd>
                    <ul class="caps-list" data-testid="explain-capabilities">
                        {move || {
                            caps.get()
                                .into_iter()
                                .map(|c: Capability| {
                                    view! {
                                        <li>
                                            <code>{c.name}</code>
                                            " — "
                                            <span>{c.origin}</span>
                                        </li>
                                    }
                                })
                                .collect_view()
                        }}
                    </ul>
                    {move || {
                        let req = facts.with(|f| f.requested.clone());
                        (!req.is_empty())
                            .then(|| view! { <p class="rule">{store.t("explain.requested")} " " {code_list(req)}</p> })
                    }}
                </dd>
                <dt>"think"</dt>
                <dd data-testid="explain-think">
                    <code>{move || facts.with(|f| f.think.clone().unwrap_or_else(|| store.t("form.think_unset").to_string()))}</code>
                    " "
                    <span class="rule">{move || facts.with(|f| f.think_rule.clone())}</span>
                </dd>
                {move || {
                    let rule = facts.with(|f| f.format_rule.clone());
                    (!rule.is_empty())
                        .then(|| view! { <dt>"format"</dt> <dd data-testid="explain-format"><span class="rule">{rule}</span></dd> })
                }}
                {move || {
                    // native chat: where llama-server finds user messages
                    // (and checkpoints a windowed or recurrent model's memory)
                    let d = facts.with(|f| f.delimiters.clone());
                    (!d.is_empty()).then(|| view! {
                        <dt>"delimiters"</dt>
                        <dd data-testid="explain-delimiters" title="the message delimiters llama-server's chat handler declares: a context checkpoint is made where the last user message starts">{d}</dd>
                    })
                }}
                {move || {
                    facts
                        .with(|f| f.leading_bos.clone())
                        .map(|bos| view! { <dt>{store.t("explain.bos")}</dt> <dd><code>{bos}</code></dd> })
                }}
                {move || {
                    let renames = facts.with(|f| f.tool_renames.clone());
                    (!renames.is_empty())
                        .then(|| {
                            view! {
                                <dt>{store.t("explain.renames")}</dt>
                                <dd>
                                    {renames
                                        .into_iter()
                                        .map(|(a, b)| view! { <code>{a}</code> " → " <code>{b}</code> " " })
                                        .collect_view()}
                                </dd>
                            }
                        })
                }}
                {move || {
                    facts
                        .with(|f| f.truncation.clone())
                        .map(|t| view! { <dt>{store.t("explain.truncation")}</dt> <dd>{t}</dd> })
                }}
                {move || {
                    build.get().map(|(build, rules)| {
                        view! {
                            <dt>{store.t("explain.llamacpp")}</dt>
                            <dd data-testid="explain-llamacpp">
                                <code>{build.clone()}</code>
                                " "
                                <span class="rule">{store.t("explain.llamacpp_rule").replace("{build}", &build)}</span>
                            </dd>
                            {(!rules.is_empty()).then(|| view! {
                                <dt>{store.t("explain.build_rules")}</dt>
                                <dd>{rules_list(store, rules, "explain-build-rules", "explain.build_rule_since")}</dd>
                            })}
                        }
                    })
                }}
                {move || {
                    let rules = release_rules.get();
                    (!rules.is_empty()).then(|| view! {
                        <dt>{store.t("explain.release_rules")}</dt>
                        <dd>{rules_list(store, rules, "explain-release-rules", "explain.release_rule_since")}</dd>
                    })
                }}
                {move || {
                    store.store_model.get().map(|m| {
                        view! {
                            <dt>{store.t("explain.origins")}</dt>
                            <dd data-testid="explain-origins">
                                <code>{m.name}</code>
                                <ul class="origins">
                                    {m.origins.into_iter().map(|o| view! { <li>{o}</li> }).collect_view()}
                                </ul>
                            </dd>
                        }
                    })
                }}
                {move || {
                    runner.get().map(|t| {
                        view! {
                            <dt>{store.t("explain.runner")}</dt>
                            <dd data-testid="explain-runner">{t}</dd>
                        }
                    })
                }}
                {move || {
                    cache.get().map(|(t, assumption)| {
                        view! {
                            <dt>{store.t("explain.cache")}</dt>
                            <dd data-testid="explain-cache" title=assumption>{t}</dd>
                        }
                    })
                }}
            </dl>
            {move || {
                rejection
                    .get()
                    .map(|(status, message)| {
                        view! {
                            <div class="rejection" data-testid="explain-rejection">
                                <h3>{store.tf("explain.rejection", &[("status", &status.to_string())])}</h3>
                                <pre>{message}</pre>
                            </div>
                        }
                    })
            }}
            {move || route.with(Option::is_some).then(|| view! { <RouteSection route=route /> })}
            <h3>{move || store.t("explain.messages")}</h3>
            {move || {
                let notes = notes.get();
                if notes.is_empty() {
                    return view! { <p class="note">{store.t("explain.no_messages")}</p> }.into_any();
                }
                view! {
                    <table class="notes" data-testid="explain-messages">
                        <thead>
                            <tr>
                                <th scope="col">"#"</th>
                                <th scope="col">{store.t("explain.role")}</th>
                                <th scope="col">{store.t("explain.origin")}</th>
                                <th scope="col">{store.t("explain.what")}</th>
                                {(!costs.with(|c| c.0.is_empty()))
                                    .then(|| view! { <th scope="col">{store.t("explain.tokens")}</th> })}
                            </tr>
                        </thead>
                        <tbody>
                            {notes
                                .into_iter()
                                .enumerate()
                                .map(|(i, n): (usize, MessageNote)| {
                                    let what = if n.notes.is_empty() { "—".to_string() } else { n.notes.join("; ") };
                                    let (tokens, cut) = costs.get();
                                    let dropped = cut
                                        .filter(|&(first, _)| i < first && n.role != "system")
                                        .map(|(_, num_ctx)| store.tf("explain.dropped", &[("n", &num_ctx.to_string())]));
                                    let cost = tokens.get(i).map(|c| view! { <td data-testid="message-tokens">{*c}</td> });
                                    view! {
                                        <tr
                                            class:changed=!n.notes.is_empty()
                                            class:dropped=dropped.is_some()
                                            data-testid=dropped.is_some().then_some("dropped-message")
                                            title=dropped
                                        >
                                            <td>{n.index}</td>
                                            <td><code>{n.role}</code></td>
                                            <td>{n.origin}</td>
                                            <td>{what}</td>
                                            {cost}
                                        </tr>
                                    }
                                })
                                .collect_view()}
                        </tbody>
                    </table>
                }
                    .into_any()
            }}
            </div>
            <h3>{move || store.t("explain.check")}</h3>
            <p class="hint">{move || store.t("explain.check_hint")}</p>
            <CopyBlock label="explain.modelfile" test_id="modelfile" text=modelfile_text />
            <p class="hint"><code>{create_cmd}</code></p>
            {move || {
                let e = endpoint.get();
                if e.embed().is_some() {
                    return view! {
                        <CopyBlock
                            label="explain.curl_route"
                            test_id="debug-curl"
                            text=curl_text
                            heading=Signal::derive(move || store.tf("explain.curl_route", &[("path", e.path())]))
                        />
                        <p class="note" data-testid="debug-note">{store.tf("explain.no_debug_embed", &[("path", e.path())])}</p>
                    }
                        .into_any();
                }
                match (e.route(), curl::renders_only(e)) {
                    (None, _) => view! { <CopyBlock label="explain.curl" test_id="debug-curl" text=curl_text /> }.into_any(),
                    (Some(_), true) => {
                        view! {
                            <CopyBlock label="explain.curl" test_id="debug-curl" text=curl_text />
                            <p class="hint" data-testid="debug-note">{store.tf("explain.debug_passes", &[("path", e.path())])}</p>
                        }
                            .into_any()
                    }
                    (Some(_), false) => {
                        let native = e.native().path();
                        view! {
                            <CopyBlock
                                label="explain.curl_route"
                                test_id="debug-curl"
                                text=curl_text
                                heading=Signal::derive(move || store.tf("explain.curl_route", &[("path", e.path())]))
                            />
                            <p class="note" data-testid="debug-note">
                                {store.tf("explain.no_debug", &[("path", e.path()), ("native", native)])}
                            </p>
                            {move || {
                                native_curl
                                    .get()
                                    .map(|text| {
                                        view! {
                                            <CopyBlock
                                                label="explain.curl_native"
                                                test_id="debug-curl-native"
                                                text=Signal::derive(move || text.clone())
                                                heading=Signal::derive(move || store.tf("explain.curl_native", &[("native", native)]))
                                            />
                                        }
                                    })
                            }}
                        }
                            .into_any()
                    }
                }
            }}
            <Help key="help.heap" />
        </section>
    }
}

/// The version-specific rules a render reached: each row's name, what
/// this version does, and where it changed (`since`: the message key).
fn rules_list(
    store: Store,
    rules: Vec<ollama::server::BuildRule>,
    test_id: &'static str,
    since: &'static str,
) -> impl IntoView {
    view! {
        <ul class="build-rules" data-testid=test_id>
            {rules.into_iter().map(|r| view! {
                <li data-rule=r.id.clone() data-in-effect=r.in_effect.to_string()>
                    <code>{r.id.clone()}</code>
                    " — "
                    <span>{r.behaviour.clone()}</span>
                    " "
                    <span class="rule">{
                        store.t(since)
                            .replace("{first}", &r.first)
                            .replace("{upstream}", &r.upstream)
                    }</span>
                </li>
            }).collect_view()}
        </ul>
    }
}
