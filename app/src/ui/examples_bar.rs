//! The examples menu in the bar: one click opens it, one loads an example
//! (a model and a request), and the menu closes again.

use leptos::prelude::*;

use promptscope_app::examples;

use crate::ui::store::Store;

/// The examples menu.
#[component]
pub fn ExamplesBar() -> impl IntoView {
    let store = expect_context::<Store>();
    let menu = NodeRef::<leptos::html::Details>::new();
    view! {
        <nav class="examples" aria-labelledby="examples-label">
            <details class="menu" data-testid="examples-menu" node_ref=menu>
            <summary id="examples-label" class="button">
                {move || store.t("examples.label")} " (" {examples::all().len()} ")"
            </summary>
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
                                        if let Some(m) = menu.get_untracked() {
                                            m.set_open(false);
                                        }
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
            </details>
            {move || store.can_undo_example().then(|| view! {
                <button
                    type="button"
                    class="small"
                    data-testid="example-undo"
                    on:click=move |_| {
                        store.undo_example();
                        store.say(store.t("notice.example_undone"));
                    }
                >
                    {move || store.t("examples.undo")}
                </button>
            })}
        </nav>
    }
}
