//! An embedding request (`/api/embed`, `/api/embeddings`, `/v1/embeddings`)
//! in the Prompt and Explain panes: each input as the model sees it (the
//! text Ollama sends llama-server after its truncation), its tokens, what
//! truncation did, and why.

use leptos::prelude::*;

use ollama::embed::{Input, Outcome, Runner};

use crate::ui::store::Store;

fn embed_outcome(store: Store) -> Memo<Option<Outcome>> {
    Memo::new(move |_| store.outcome.with(|o| o.embed.clone()))
}

/// One input as the runner gets it.
#[component]
fn InputCard(input: Input) -> impl IntoView {
    let store = expect_context::<Store>();
    let n = (input.index + 1).to_string();
    let count = match input.count.or(input.tokens.as_ref().map(Vec::len)) {
        Some(c) => store.tf("embed.tokens", &[("n", &c.to_string())]),
        None => store.t("embed.tokens_unknown").to_string(),
    };
    let truncated = input.truncated.then(|| {
        let from = input.text_tokens.unwrap_or(0).to_string();
        let to = input.limit.unwrap_or(0).to_string();
        view! {
            " · "
            <span class="badge" data-testid="embed-truncated">
                {store.tf("embed.truncated", &[("from", &from), ("to", &to)])}
            </span>
        }
    });
    let changed = (input.sent.as_ref().is_some_and(|s| *s != input.text) && !input.truncated)
        .then(|| view! { " · " <span class="badge">{store.t("embed.changed")}</span> });
    let error = input.error.clone().map(|(status, message)| {
        view! {
            <p class="field-error" data-testid="embed-input-error">
                {format!("{status}: {message}")}
            </p>
        }
    });
    let sent = input.sent.clone().unwrap_or_else(|| input.text.clone());
    let original = input.truncated.then(|| {
        let text = input.text.clone();
        view! {
            <details>
                <summary>{store.t("embed.original")}</summary>
                <pre class="prompt" data-testid="embed-original">{text}</pre>
            </details>
        }
    });
    view! {
        <li class="embed-input" data-testid="embed-input" data-index=input.index.to_string()>
            <p class="stats">
                <strong>{store.tf("embed.input", &[("n", &n)])}</strong>
                " · "
                <span data-testid="embed-count">{count}</span>
                {truncated}
                {changed}
            </p>
            <pre class="prompt" data-testid="embed-sent">{sent}</pre>
            {original}
            {error}
        </li>
    }
}

/// The Prompt pane's view of an embedding request.
#[component]
pub fn EmbedInputs() -> impl IntoView {
    let store = expect_context::<Store>();
    let outcome = embed_outcome(store);
    move || {
        outcome.get().map(|o| {
            let summary = match (o.prompt_eval_count, o.output_length()) {
                (Some(n), Some(d)) => store.tf(
                    "embed.summary",
                    &[
                        ("n", &o.inputs.len().to_string()),
                        ("count", &n.to_string()),
                        ("dims", &d.to_string()),
                    ],
                ),
                (Some(n), None) => store.tf(
                    "embed.summary_count",
                    &[("n", &o.inputs.len().to_string()), ("count", &n.to_string())],
                ),
                _ => store.tf("embed.summary_inputs", &[("n", &o.inputs.len().to_string())]),
            };
            let empty = (o.inputs.is_empty() && o.error.is_none() && o.unsupported.is_none())
                .then(|| view! { <p class="note" data-testid="embed-none">{store.t("embed.none")}</p> });
            view! {
                <div class="embed-inputs" data-testid="embed-inputs">
                    <p class="stats" data-testid="embed-summary">{summary}</p>
                    {empty}
                    <ol class="plain">
                        {o.inputs.into_iter().map(|i| view! { <InputCard input=i /> }).collect_view()}
                    </ol>
                </div>
            }
        })
    }
}

fn runner_line(store: Store, r: &Runner) -> String {
    store.tf(
        "embed.runner",
        &[
            ("num_ctx", &r.num_ctx.to_string()),
            ("num_batch", &r.num_batch.to_string()),
            ("context", &r.context.to_string()),
            ("slot", &r.slot_ctx.to_string()),
            ("ubatch", &r.ubatch.to_string()),
            (
                "embedding",
                if r.embedding {
                    "--embedding"
                } else {
                    store.t("embed.no_embedding_flag")
                },
            ),
        ],
    )
}

/// The Explain pane's account of an embedding request: how the body was
/// read, the sizes in effect, and each input's steps.
#[component]
pub fn EmbedExplain() -> impl IntoView {
    let store = expect_context::<Store>();
    let outcome = embed_outcome(store);
    move || {
        outcome.get().map(|o| {
            let route = o.route.map(|r| r.path()).unwrap_or("");
            let runner = o.runner.as_ref().map(|r| {
                view! { <p class="rule" data-testid="embed-runner">{runner_line(store, r)}</p> }
            });
            let api_request = o.api_request.as_ref().map(|a| {
                let text = promptscope_app::state::pretty(a);
                view! {
                    <h4>{store.t("embed.api_request")}</h4>
                    <pre data-testid="embed-api-request">{text}</pre>
                }
            });
            let truncate = match o.truncate {
                Some(false) => store.t("embed.truncate_false"),
                _ => store.t("embed.truncate_true"),
            };
            view! {
                <div data-testid="embed-explain">
                    <h3>{store.tf("embed.explain_title", &[("route", route)])}</h3>
                    <ul class="notes" data-testid="embed-notes">
                        {o.notes.into_iter().map(|n| view! { <li>{n}</li> }).collect_view()}
                        <li>{truncate}</li>
                    </ul>
                    {runner}
                    {api_request}
                    <ol class="notes">
                        {o
                            .inputs
                            .into_iter()
                            .map(|i| {
                                let n = (i.index + 1).to_string();
                                view! {
                                    <li data-testid="embed-steps">
                                        <strong>{store.tf("embed.input", &[("n", &n)])}</strong>
                                        <ul>{i.steps.into_iter().map(|s| view! { <li>{s}</li> }).collect_view()}</ul>
                                    </li>
                                }
                            })
                            .collect_view()}
                    </ol>
                </div>
            }
        })
    }
}
