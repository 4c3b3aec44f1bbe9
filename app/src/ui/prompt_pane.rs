//! The prompt pane: the exact prompt (special tokens tinted, whitespace
//! visible on demand), its counts, copy and download, and Ollama's error
//! or "no prompt" answer.

use leptos::html;
use leptos::prelude::*;

use promptscope_app::engine::Field;
use promptscope_app::jobs::{displayed, DISPLAY_LIMIT};
use promptscope_app::{gguf, highlight};

use crate::ui::browser;
use crate::ui::embed_route::EmbedInputs;
use crate::ui::engine_client;
use crate::ui::store::{Store, Tokenizer};

/// The rendered prompt and its counts.
#[component]
pub fn PromptPane(
    /// The compact variant for embedding (fewer controls).
    #[prop(default = false)]
    compact: bool,
) -> impl IntoView {
    let store = expect_context::<Store>();
    let out_ref = NodeRef::<html::Pre>::new();
    let prompt = Memo::new(move |_| store.outcome.with(|o| o.prompt.clone()));
    let specials = RwSignal::new(0usize);

    let has_vocab = Memo::new(move |_| store.tokenizer.get() == Tokenizer::Ready);
    let token_view = Memo::new(move |_| store.show_tokens.get() && has_vocab.get());
    // One innerHTML write per render: cheaper than a node per token.
    Effect::new(move |_| {
        let show = store.show_ws.get();
        let Some(el) = out_ref.get() else { return };
        if token_view.get() {
            let html = store.tokens.with(|t| match t {
                Some(Ok(t)) => gguf::tokens_html(t),
                _ => String::new(),
            });
            el.set_inner_html(&html);
            return;
        }
        let marks = store.outcome.with(|o| (o.cut_bytes, o.cache_break));
        prompt.with(|p| {
            let text = displayed(p.as_deref().unwrap_or(""));
            let (html, n) = highlight::marked_prompt_html(text, show, marks.0, marks.1);
            el.set_inner_html(&html);
            specials.set(n);
        });
        // From the edit, and from the start of the frame that rendered it.
        browser::measure("promptscope:update", "promptscope:input");
        browser::measure("promptscope:frame", "promptscope:frame-start");
    });

    let stats = move || {
        prompt.with(|p| {
            let p = p.as_deref().unwrap_or("");
            store.tf(
                "prompt.stats",
                &[
                    ("chars", &p.chars().count().to_string()),
                    ("bytes", &p.len().to_string()),
                ],
            )
        })
    };
    let token_count = move || {
        store.outcome.with(|o| match &o.token_count {
            Some(Ok(n)) => store.tf("prompt.tokens", &[("n", &n.to_string())]),
            Some(Err(e)) => store.tf("prompt.tokens_error", &[("why", e)]),
            None => store.t("prompt.tokens_placeholder").to_string(),
        })
    };
    // While the engine worker counts (a long prompt, a large vocabulary).
    let counting = move || {
        store.counting.get().then(|| {
            view! {
                " · "
                <span data-testid="token-counting">{move || store.t("prompt.counting")}</span>
                " "
                <button type="button" data-testid="token-cancel" on:click=move |_| engine_client::cancel(store)>
                    {move || store.t("prompt.counting_cancel")}
                </button>
            }
        })
    };
    let counting_off = move || {
        (store.tokenizer.get() == Tokenizer::Off).then(|| {
            view! {
                " · "
                <button type="button" data-testid="token-resume" on:click=move |_| engine_client::resume(store)>
                    {move || store.t("prompt.counting_resume")}
                </button>
            }
        })
    };
    let truncated = move || {
        prompt.with(|p| {
            let len = p.as_ref().map_or(0, String::len);
            (len > DISPLAY_LIMIT).then(|| {
                store.tf(
                    "prompt.truncated",
                    &[("kib", &(DISPLAY_LIMIT / 1024).to_string())],
                )
            })
        })
    };
    let error = Memo::new(move |_| {
        store.outcome.with(|o| {
            o.error
                .as_ref()
                .map(|e| (e.status, e.message.clone(), e.body.clone()))
        })
    });
    let input_error = Memo::new(move |_| {
        store.outcome.with(|o| {
            o.input_error.as_ref().map(|e| {
                let field = match e.field {
                    Field::Request => "field.request",
                    Field::ModelMessages => "field.model_messages",
                    Field::ModelOptions => "field.model_options",
                    Field::Date => "field.date",
                };
                (field, e.message.clone())
            })
        })
    });
    let no_prompt =
        Memo::new(move |_| store.outcome.with(|o| o.no_prompt() && o.explain.is_some()));
    let images = Memo::new(move |_| store.outcome.with(|o| o.image_count));
    // an embedding request has inputs, not a prompt
    let is_embed = Memo::new(move |_| store.outcome.with(|o| o.embed.is_some()));

    let copy = move |_| {
        let text = prompt.get_untracked().unwrap_or_default();
        browser::copy(&text, move |ok| {
            store.say(store.t(if ok {
                "notice.copied"
            } else {
                "notice.copy_failed"
            }))
        });
    };
    let download = move |_| {
        let text = prompt.get_untracked().unwrap_or_default();
        browser::download("prompt.txt", &text, "text/plain;charset=utf-8");
    };

    view! {
        <section class="pane prompt-pane" id="prompt-pane" aria-labelledby="prompt-heading">
            <div class="pane-head">
                <h2 id="prompt-heading">{move || store.t("prompt.title")}</h2>
                <div class="tools">
                    <label class="check">
                        <input
                            type="checkbox"
                            data-testid="whitespace-toggle"
                            prop:checked=move || store.show_ws.get()
                            on:change=move |ev| store.show_ws.set(event_target_checked(&ev))
                        />
                        {move || store.t("prompt.whitespace")}
                    </label>
                    {move || {
                        has_vocab
                            .get()
                            .then(|| {
                                view! {
                                    <label class="check">
                                        <input
                                            type="checkbox"
                                            data-testid="token-view-toggle"
                                            prop:checked=move || store.show_tokens.get()
                                            on:change=move |ev| {
                                                let on = event_target_checked(&ev);
                                                store.show_tokens.set(on);
                                                // the worker sends tokens only when asked
                                                if on && store.tokens.with_untracked(Option::is_none) {
                                                    store.schedule_render();
                                                }
                                            }
                                        />
                                        {move || store.t("prompt.token_view")}
                                    </label>
                                }
                            })
                    }}
                    <button type="button" data-testid="copy-prompt" on:click=copy>
                        {move || store.t("prompt.copy")}
                    </button>
                    {(!compact)
                        .then(|| {
                            view! {
                                <button type="button" data-testid="download-prompt" on:click=download>
                                    {move || store.t("prompt.download")}
                                </button>
                            }
                        })}
                </div>
            </div>
            <p class="stats" class:hidden=move || is_embed.get()>
                <span data-testid="prompt-stats">{stats}</span>
                " · "
                <span data-testid="token-count">{token_count}</span>
                {counting}
                {counting_off}
                {move || {
                    let n = specials.get();
                    (n > 0).then(|| view! { " · " <span class="tok-legend">{store.tf("prompt.specials", &[("n", &n.to_string())])}</span> })
                }}
                {move || {
                    let n = images.get();
                    (n > 0).then(|| view! { " · " <span>{store.tf("prompt.images", &[("n", &n.to_string())])}</span> })
                }}
            </p>
            <div class="live" aria-live="polite">
                {move || {
                    input_error
                        .get()
                        .map(|(field, message)| {
                            view! {
                                <div class="input-error" data-testid="input-error">
                                    <strong>{store.t(field)}</strong>
                                    " "
                                    <span>{message}</span>
                                </div>
                            }
                        })
                }}
                {move || {
                    error
                        .get()
                        .map(|(status, message, body)| {
                            // through a compatibility route, the body it answers with
                            let body = body
                                .map(|b| {
                                    view! {
                                        <h4>{store.t("explain.route_answer")}</h4>
                                        <pre data-testid="error-body">{b}</pre>
                                    }
                                });
                            view! {
                                <div class="error">
                                    <h3>{store.tf("prompt.error_heading", &[("status", &status.to_string())])}</h3>
                                    <pre data-testid="error-output">{message}</pre>
                                    {body}
                                </div>
                            }
                        })
                }}
                {move || {
                    no_prompt
                        .get()
                        .then(|| view! { <p class="note" data-testid="no-prompt">{store.t("prompt.no_prompt")}</p> })
                }}
            </div>
            {move || truncated().map(|note| view! { <p class="note">{note}</p> })}
            <EmbedInputs />
            <pre
                class="prompt"
                class:hidden=move || is_embed.get()
                class:visible-ws=move || store.show_ws.get()
                class:token-view=move || token_view.get()
                tabindex="0"
                role="region"
                aria-label=move || store.t("prompt.title")
                data-testid="prompt-output"
                node_ref=out_ref
            ></pre>
        </section>
    }
}
