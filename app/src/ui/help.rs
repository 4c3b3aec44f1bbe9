//! Short help on Ollama's tricky behaviours, folded in `<details>`.

use leptos::prelude::*;

use crate::ui::store::Store;

/// Splits `text` at backticks: odd parts are code.
fn code_spans(text: &str) -> Vec<(bool, String)> {
    text.split('`')
        .enumerate()
        .filter(|(_, s)| !s.is_empty())
        .map(|(i, s)| (i % 2 == 1, s.to_string()))
        .collect()
}

/// A help topic: `{key}.q` is the summary, `{key}.a` the answer
/// (`` `code` `` spans allowed).
#[component]
pub fn Help(key: &'static str) -> impl IntoView {
    let store = expect_context::<Store>();
    let q = format!("{key}.q");
    let a = format!("{key}.a");
    view! {
        <details class="help" data-testid=key>
            <summary>{move || store.t(&q)}</summary>
            <p>
                {move || {
                    code_spans(store.t(&a))
                        .into_iter()
                        .map(|(code, s)| {
                            if code {
                                view! { <code>{s}</code> }.into_any()
                            } else {
                                s.into_any()
                            }
                        })
                        .collect_view()
                }}
            </p>
        </details>
    }
}
