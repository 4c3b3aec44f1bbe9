//! A JSON editor for one key of the request body (`messages`, `tools`,
//! `options`), with serde_json's line-and-column errors. While the text does
//! not parse it stays as typed (a draft); once it parses it is written into
//! the body.

use leptos::prelude::*;

use promptscope_app::errpos::{self, Pos};
use promptscope_app::reqedit;
use promptscope_app::state::pretty;

use crate::ui::code_editor::CodeEditor;
use crate::ui::store::Store;

/// Edits `body[key]` as JSON.
#[component]
pub fn JsonField(
    /// The body key.
    key: &'static str,
    /// Element id of the textarea.
    id: &'static str,
    /// Message key of the label.
    label: &'static str,
    /// Message key of the hint.
    hint: &'static str,
) -> impl IntoView {
    let store = expect_context::<Store>();
    let draft = RwSignal::new(None::<String>);
    let written = StoredValue::new(None::<String>);
    let parse_error = RwSignal::new(None::<(String, Pos)>);
    let request = store.slice(|s| s.request.clone());

    // An edit elsewhere (the body editor, the form, an example) replaces the draft.
    Effect::new(move |_| {
        let changed = request.with(|text| written.get_value().as_deref() != Some(text.as_str()));
        if changed {
            draft.set(None);
            parse_error.set(None);
        }
    });

    let body_ok = Memo::new(move |_| store.body.with(Result::is_ok));
    let derived = Memo::new(move |_| {
        store.body.with(|b| {
            b.as_ref()
                .map(|b| reqedit::field_text(b, key))
                .unwrap_or_default()
        })
    });
    let value = Signal::derive(move || draft.get().unwrap_or_else(|| derived.get()));
    let on_input = Callback::new(move |text: String| {
        draft.set(Some(text.clone()));
        let Ok(mut body) = store.body.get_untracked() else {
            return;
        };
        match reqedit::set_field_from_text(&mut body, key, &text) {
            Ok(()) => {
                let new_text = pretty(&body);
                written.set_value(Some(new_text.clone()));
                parse_error.set(None);
                store.update(|s| s.request = new_text);
            }
            Err(e) => parse_error.set(Some((e.to_string(), errpos::json(&e)))),
        }
    });
    let error = Signal::derive(move || {
        if !body_ok.get() {
            return Some(store.t("request.fix_body_first").to_string());
        }
        parse_error.with(|e| e.as_ref().map(|(m, _)| m.clone()))
    });
    let error_pos = Signal::derive(move || parse_error.with(|e| e.as_ref().map(|(_, p)| *p)));

    view! {
        <CodeEditor
            id=id
            label=label
            hint=hint
            test_id=id
            value=value
            on_input=on_input
            error=error
            error_pos=error_pos
            rows=8
        />
    }
}
