//! The Go template playground: template and data editors plus live output.

use leptos::prelude::*;

use crate::editor::CodeEditor;
use crate::examples::{CHATML_DATA, CHATML_TEMPLATE};
use crate::output::OutputPanel;
use crate::render::render;
use crate::storage;

const TEMPLATE_KEY: &str = "promptscope.playground.template";
const DATA_KEY: &str = "promptscope.playground.data";

/// Edits a template and its JSON data and re-renders the output on every keystroke.
/// The text is remembered in local storage; the first visit starts from a
/// ChatML-style example.
#[component]
pub fn Playground() -> impl IntoView {
    let (template, set_template) =
        signal(storage::load(TEMPLATE_KEY).unwrap_or_else(|| CHATML_TEMPLATE.to_owned()));
    let (data, set_data) =
        signal(storage::load(DATA_KEY).unwrap_or_else(|| CHATML_DATA.to_owned()));

    Effect::new(move |_| template.with(|t| storage::save(TEMPLATE_KEY, t)));
    Effect::new(move |_| data.with(|d| storage::save(DATA_KEY, d)));

    let rendered = Memo::new(move |_| template.with(|t| data.with(|d| render(t, d))));

    let load_example = move |_| {
        set_template.set(CHATML_TEMPLATE.to_owned());
        set_data.set(CHATML_DATA.to_owned());
    };

    view! {
        <div class="playground">
            <div class="inputs">
                <CodeEditor
                    id="template"
                    label="Template"
                    hint="Go text/template syntax, as in a Modelfile TEMPLATE."
                    test_id="template-input"
                    value=template
                    on_input=move |text| set_template.set(text)
                />
                <CodeEditor
                    id="data"
                    label="Data (JSON)"
                    hint="The value the template runs on: the dot. Empty means null."
                    test_id="data-input"
                    value=data
                    on_input=move |text| set_data.set(text)
                />
                <div class="actions">
                    <button type="button" on:click=load_example>
                        "Load the ChatML example"
                    </button>
                </div>
            </div>
            <OutputPanel result=rendered />
        </div>
    }
}
