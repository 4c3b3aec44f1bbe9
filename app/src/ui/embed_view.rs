//! The compact layout for `?embed=1`: the prompt, the path, and a link that
//! opens the full app with the same state.

use leptos::prelude::*;

use crate::ui::prompt_pane::PromptPane;
use crate::ui::store::Store;

/// The embedded page.
#[component]
pub fn EmbedView() -> impl IntoView {
    let store = expect_context::<Store>();
    let source = Memo::new(move |_| store.outcome.with(|o| o.source().to_string()));
    let link = move || {
        store.state.track();
        store.share_url()
    };
    view! {
        <main class="embed">
            <PromptPane compact=true />
            <p class="embed-foot">
                <span>
                    {move || store.t("explain.path")}
                    ": "
                    <code data-testid="selected-path">{move || source.get()}</code>
                </span>
                <a href=link target="_blank" rel="noopener noreferrer">
                    {move || store.t("embed.open")}
                </a>
            </p>
        </main>
    }
}
