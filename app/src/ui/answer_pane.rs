//! The Answer pane: what Ollama answers for what the model wrote. The raw
//! output (one piece, or the pieces the runner streamed; or the Generate
//! pane's, taken as they came) goes through the handler's parsers with the
//! latest render's setup, in the answer worker (`answer_client`): the
//! message (content, thinking, tool calls) or the parser's error, every
//! streamed response, through a compatibility route what the route writes
//! back, which parser ran and why, and why a tool call stayed content.

use leptos::prelude::*;

use promptscope_app::answer::{self, Call, Message, Mode, Shown};

use crate::ui::browser;
use crate::ui::code_editor::CodeEditor;
use crate::ui::store::Store;

fn code_chips(items: Vec<String>) -> impl IntoView {
    items
        .into_iter()
        .map(|s| view! { <code class="chip">{s}</code> " " })
        .collect_view()
}

/// A heading with a copy button over a block of text.
fn copy_head(store: Store, title: String, text: String) -> impl IntoView {
    view! {
        <div class="pane-head">
            <h4>{title}</h4>
            <button
                type="button"
                class="small"
                on:click=move |_| {
                    browser::copy(&text, move |ok| {
                        store.say(store.t(if ok { "notice.copied" } else { "notice.copy_failed" }))
                    });
                }
            >
                {store.t("prompt.copy")}
            </button>
        </div>
    }
}

fn call_view(c: Call) -> impl IntoView {
    let (name, id) = (c.name.clone(), c.id.clone());
    view! {
        <li class="tool-call" data-testid="answer-tool-call" data-name=name data-id=id>
            <p>
                <code class="path" data-testid="answer-tool-name">{c.name}</code>
                " "
                <span class="rule">"index " <code>{c.index}</code> " · id " <code>{c.id}</code></span>
            </p>
            <pre class="snippet" data-testid="answer-tool-args" tabindex="0">{c.arguments}</pre>
        </li>
    }
}

/// Which parser ran, and why.
fn explain_view(store: Store, e: ollama::answer::Explain) -> impl IntoView {
    let dash = || "—".to_string();
    let tags = e.thinking_tags.clone().map(|(a, b)| vec![a, b]);
    view! {
        <h3>{store.t("answer.parser")}</h3>
        <dl class="facts" data-testid="answer-explain">
            <dt>{store.t("answer.kind")}</dt>
            <dd><code data-testid="answer-kind">{e.kind.clone()}</code></dd>
            <dt>"PARSER"</dt>
            <dd><code data-testid="answer-parser">{if e.parser.is_empty() { dash() } else { e.parser.clone() }}</code></dd>
            {tags.map(|t| view! { <dt>{store.t("answer.thinking_tags")}</dt> <dd data-testid="answer-thinking-tags">{code_chips(t)}</dd> })}
            {e.tool_tag.clone().map(|t| view! { <dt>{store.t("answer.tool_tag")}</dt> <dd><code data-testid="answer-tool-tag">{t}</code></dd> })}
            {(!e.preserved_tokens.is_empty())
                .then(|| view! { <dt>{store.t("answer.preserved")}</dt> <dd data-testid="answer-preserved">{code_chips(e.preserved_tokens.clone())}</dd> })}
        </dl>
        <ul class="why" data-testid="answer-why">
            {e.why.into_iter().map(|w| view! { <li>{w}</li> }).collect_view()}
        </ul>
    }
}

fn parsed_view(store: Store, p: Message, route: Option<String>) -> impl IntoView {
    let chat = p.chat;
    // through a compatibility route (its path): what it writes back
    let route = route.map(|path| {
        let text = p
            .route_text
            .clone()
            .unwrap_or_else(|| store.t("explain.route_refused").to_string());
        view! {
            <details class="route-answer" open=true>
                <summary>{store.tf("generate.route_answer", &[("path", &path)])}</summary>
                <p class="hint">{store.t("answer.route_hint")}</p>
                <pre class="snippet" data-testid="answer-route" tabindex="0">{text}</pre>
            </details>
        }
    });
    let diagnosis = (!p.diagnosis.is_empty()).then(|| {
        view! {
            <div class="diagnosis" role="status" data-testid="answer-diagnosis">
                <h3>{store.t("answer.diagnosis")}</h3>
                <ul>{p.diagnosis.iter().map(|d| view! { <li>{d.clone()}</li> }).collect_view()}</ul>
            </div>
        }
    });
    let repeat = p.repeat_abort.map(|n| {
        view! { <p class="note" data-testid="answer-repeat">{store.tf("answer.repeat", &[("n", &n.to_string())])}</p> }
    });
    let body = match &p.result {
        Err(e) => view! {
            <div class="error" data-testid="answer-error">
                <h3>{store.t("answer.error")}</h3>
                <pre data-testid="answer-error-text">{e.clone()}</pre>
                <pre class="snippet" data-testid="answer-message" tabindex="0">{p.message_json.clone()}</pre>
            </div>
        }
        .into_any(),
        Ok(out) => {
            let thinking = (!out.thinking.is_empty()).then(|| {
                let t = out.thinking.clone();
                view! {
                    <dt>"thinking"</dt>
                    <dd><pre class="prompt answer-text" data-testid="answer-thinking" tabindex="0">{t}</pre></dd>
                }
            });
            let calls = (!p.calls.is_empty()).then(|| {
                let calls = p.calls.clone();
                view! {
                    <dt>"tool_calls"</dt>
                    <dd>
                        <ol class="tool-calls" data-testid="answer-tool-calls">
                            {calls.into_iter().map(call_view).collect_view()}
                        </ol>
                    </dd>
                }
            });
            view! {
                <dl class="facts answer-message">
                    <dt>{if chat { "content" } else { "response" }}</dt>
                    <dd><pre class="prompt answer-text" data-testid="answer-content" tabindex="0">{out.content.clone()}</pre></dd>
                    {thinking}
                    {calls}
                </dl>
                <div class="copy-block">
                    {copy_head(
                        store,
                        store.t(if chat { "answer.message_json" } else { "answer.response_json" }).to_string(),
                        p.message_json.clone(),
                    )}
                    <pre class="snippet" data-testid="answer-message" tabindex="0">{p.message_json.clone()}</pre>
                </div>
            }
            .into_any()
        }
    };
    let n = p.stream.len();
    let stream = p.stream.join("\n");
    view! {
        {diagnosis}
        <h3>{store.t(if chat { "answer.message" } else { "answer.response" })}</h3>
        {body}
        {repeat}
        {route}
        {explain_view(store, p.explain)}
        <details class="answer-stream">
            <summary>{store.tf("answer.stream", &[("n", &n.to_string()), ("pieces", &p.pieces.to_string())])}</summary>
            <pre class="snippet" data-testid="answer-stream" tabindex="0">{stream}</pre>
        </details>
    }
}

/// The pane.
#[component]
pub fn AnswerPane() -> impl IntoView {
    let store = expect_context::<Store>();
    let mode = store.slice(|s| s.answer.mode);
    let text = store.slice(|s| s.answer.text.clone());
    // the answer worker's latest answer (until the first, nothing)
    let shown = Memo::new(move |_| {
        store
            .answers
            .reply
            .with(|r| r.as_ref().map_or(Shown::Empty, |r| r.shown.clone()))
    });
    let bad_input = Memo::new(move |_| {
        shown.with(|v| match v {
            Shown::BadInput(b) => Some((b.message.clone(), b.pos)),
            _ => None,
        })
    });
    let pieces = Memo::new(move |_| store.generated_pieces.with(Vec::len));
    // through a compatibility route (with a body that reads): its path
    let route = Memo::new(move |_| {
        let path = store
            .outcome
            .with(|o| o.route.as_ref().map(|r| r.path.clone()))?;
        store.body.with(|b| b.is_ok()).then_some(path)
    });

    let set_mode = move |m: Mode| store.update(|s| s.answer.switch(m));
    let take = move |_| {
        let p = store.generated_pieces.get_untracked();
        if p.is_empty() {
            return;
        }
        let n = p.len();
        store.update(|s| {
            s.answer.mode = Mode::Chunks;
            s.answer.text = answer::pieces_text(&p);
        });
        store.say(store.tf("answer.taken", &[("n", &n.to_string())]));
    };
    let seg = move |m: Mode, key: &'static str| {
        view! {
            <button
                type="button"
                class="seg"
                aria-pressed=move || (mode.get() == m).to_string()
                data-testid=format!("answer-mode-{}", m.as_str())
                on:click=move |_| set_mode(m)
            >
                {move || store.t(key)}
            </button>
        }
    };

    view! {
        <section class="pane" id="answer-pane" data-testid="answer-pane" aria-labelledby="answer-heading">
            <div class="pane-head">
                <h2 id="answer-heading">{move || store.t("answer.title")}</h2>
                <button type="button" data-testid="answer-take" on:click=take
                    disabled=move || pieces.get() == 0
                    title=move || store.t("answer.take_hint")>
                    {move || store.t("answer.take")}
                </button>
            </div>
            <p class="hint">{move || store.t("answer.help")}</p>
            <div class="segmented" role="group" aria-label=move || store.t("answer.mode")>
                {seg(Mode::Output, "answer.mode_output")}
                {seg(Mode::Chunks, "answer.mode_chunks")}
            </div>
            {move || {
                let hint = if mode.get() == Mode::Chunks { "answer.input_hint_chunks" } else { "answer.input_hint_output" };
                view! {
                    <CodeEditor
                        id="answer-input"
                        label="answer.input"
                        hint=hint
                        test_id="answer-input"
                        value=Signal::from(text)
                        on_input=Callback::new(move |v: String| store.update(|s| s.answer.text = v))
                        error=Signal::derive(move || bad_input.get().map(|(m, _)| m))
                        error_pos=Signal::derive(move || bad_input.get().and_then(|(_, p)| p))
                        rows=6
                    />
                }
            }}
            <div class="answer-result" data-testid="answer-result" data-state=move || shown.with(Shown::state)>
                {move || match shown.get() {
                    Shown::Empty => view! { <p class="note" data-testid="answer-note">{store.t("answer.empty")}</p> }.into_any(),
                    Shown::BadInput(_) => ().into_any(),
                    Shown::NoRequest(why) => view! {
                        <p class="note" data-testid="answer-note">{store.tf("answer.no_request", &[("why", &why)])}</p>
                    }
                    .into_any(),
                    Shown::Rejected(status, message) => {
                        let body = answer::error_json(&message);
                        view! {
                            <div class="rejection" data-testid="answer-rejected">
                                <h3>{store.tf("answer.rejected", &[("status", &status.to_string())])}</h3>
                                <pre>{body}</pre>
                            </div>
                        }
                        .into_any()
                    }
                    Shown::Native(e) => view! {
                        <p class="note" data-testid="answer-note">{answer::NATIVE}</p>
                        {explain_view(store, e)}
                    }
                    .into_any(),
                    Shown::NoSetup(why) => view! {
                        <p class="note" data-testid="answer-note">{store.tf("answer.no_setup", &[("why", &why)])}</p>
                    }
                    .into_any(),
                    Shown::Unavailable(why) => view! {
                        <p class="note" data-testid="answer-note">{why}</p>
                    }
                    .into_any(),
                    Shown::Message(p) => parsed_view(store, *p, route.get()).into_any(),
                }}
            </div>
        </section>
    }
}
