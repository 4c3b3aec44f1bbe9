//! One-click examples: each loads a model and a request.

use leptos::prelude::*;

use promptscope_app::examples;

use crate::ui::store::Store;

/// The examples menu.
#[component]
pub fn ExamplesBar() -> impl IntoView {
    let store = expect_context::<Store>();
    view! {
        <nav class="examples" aria-labelledby="examples-label">
            <span id="examples-label" class="label">{move || store.t("examples.label")}</span>
            <ul>
                {examples::all()
                    .iter()
                    .map(|ex| {
                        let id = ex.id;
                        view! {
                            <li>
                                <button
                                    type="button"
                                    class="small"
                                    data-testid=format!("example-{id}")
                                    title=move || store.t(ex.summary_key)
                                    on:click=move |_| {
                                        store.load_example(id);
                                        store.say(store.tf("notice.example_loaded", &[("name", ex.title)]));
                                    }
                                >
                                    {ex.title}
                                </button>
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
        </nav>
    }
}
