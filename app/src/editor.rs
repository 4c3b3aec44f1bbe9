//! A labelled plain-text editor (a textarea tuned for code).

use leptos::prelude::*;

/// A labelled textarea for code; reports every edit.
#[component]
pub fn CodeEditor(
    /// The textarea's element id; the label refers to it.
    id: &'static str,
    /// Visible label text.
    label: &'static str,
    /// One line of help shown under the label and linked with `aria-describedby`.
    hint: &'static str,
    /// The `data-testid` attribute, a stable hook for browser tests.
    test_id: &'static str,
    /// The current text.
    #[prop(into)]
    value: Signal<String>,
    /// Called with the whole new text after each edit.
    #[prop(into)]
    on_input: Callback<String>,
) -> impl IntoView {
    let hint_id = format!("{id}-hint");
    view! {
        <div class="editor">
            <label for=id>{label}</label>
            <p class="hint" id=hint_id.clone()>{hint}</p>
            <textarea
                id=id
                data-testid=test_id
                aria-describedby=hint_id
                spellcheck="false"
                autocomplete="off"
                autocapitalize="off"
                wrap="off"
                prop:value=move || value.get()
                on:input=move |ev| on_input.run(event_target_value(&ev))
            ></textarea>
        </div>
    }
}
