//! A labelled code editor: a textarea with a line-number gutter and, behind
//! the text, a highlight of the line and column an error points at.

use leptos::html;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use promptscope_app::errpos::{self, Pos};
use promptscope_app::highlight;

use crate::ui::store::Store;

/// A textarea for code with line numbers and an error position.
#[component]
pub fn CodeEditor(
    /// The textarea's element id; the label refers to it.
    id: &'static str,
    /// Message key of the label.
    label: &'static str,
    /// Message key of a one-line hint under the label (`""` for none).
    #[prop(default = "")]
    hint: &'static str,
    /// The `data-testid` attribute.
    #[prop(default = "")]
    test_id: &'static str,
    /// The text.
    value: Signal<String>,
    /// Called with the whole new text after each edit.
    on_input: Callback<String>,
    /// The error message to show under the editor, if any.
    #[prop(default = Signal::derive(|| None))]
    error: Signal<Option<String>>,
    /// Where the error points, if it names a position.
    #[prop(default = Signal::derive(|| None))]
    error_pos: Signal<Option<Pos>>,
    /// Visible rows.
    #[prop(default = 10)]
    rows: u32,
    /// Extra class on the wrapper (sizes).
    #[prop(default = "")]
    class: &'static str,
) -> impl IntoView {
    let store = expect_context::<Store>();
    let hint_id = format!("{id}-hint");
    let error_id = format!("{id}-error");
    let textarea = NodeRef::<html::Textarea>::new();
    let gutter = NodeRef::<html::Pre>::new();
    let backdrop = NodeRef::<html::Pre>::new();

    let lines = Memo::new(move |_| value.with(|v| highlight::line_count(v)));
    let gutter_html = move || highlight::gutter_html(lines.get(), error_pos.get().map(|p| p.line));
    let backdrop_html = move || value.with(|v| highlight::backdrop_html(v, error_pos.get()));

    // Runs in a later frame, possibly after the editor is gone: `try_` reads.
    let sync_scroll = move || {
        if let Some(ta) = textarea.try_get_untracked().flatten() {
            let (top, left) = (ta.scroll_top(), ta.scroll_left());
            if let Some(g) = gutter.try_get_untracked().flatten() {
                g.set_scroll_top(top);
            }
            if let Some(b) = backdrop.try_get_untracked().flatten() {
                b.set_scroll_top(top);
                b.set_scroll_left(left);
            }
        }
    };
    // Keep the highlight aligned after the text or the error changes.
    Effect::new(move |_| {
        value.track();
        error_pos.track();
        request_animation_frame(sync_scroll);
    });

    let go_to_error = move |_| {
        let (Some(ta), Some(pos)) = (textarea.get_untracked(), error_pos.get_untracked()) else {
            return;
        };
        let text = value.get_untracked();
        if let Some((s, e)) = errpos::byte_range(&text, pos) {
            let (s, e) = (
                errpos::utf16_offset(&text, s),
                errpos::utf16_offset(&text, e),
            );
            let _ = ta.focus();
            let _ = ta.set_selection_range(s as u32, e as u32);
        }
    };
    // The message itself gives the column in its own convention (Go's is
    // 0-based, serde_json's 1-based); the button only names the line.
    let position_text = move || {
        error_pos
            .get()
            .map(|p| store.tf("editor.go_to_line", &[("line", &p.line.to_string())]))
    };
    let described_by = {
        let hint_id = hint_id.clone();
        let error_id = error_id.clone();
        move || {
            let mut ids = Vec::new();
            if !hint.is_empty() {
                ids.push(hint_id.clone());
            }
            if error.with(Option::is_some) {
                ids.push(error_id.clone());
            }
            ids.join(" ")
        }
    };

    view! {
        <div class=format!("editor {class}")>
            <label for=id>{move || store.t(label)}</label>
            {(!hint.is_empty())
                .then(|| view! { <p class="hint" id=hint_id.clone()>{move || store.t(hint)}</p> })}
            <div class="code" class:has-error=move || error.with(Option::is_some)>
                <pre class="gutter" aria-hidden="true" node_ref=gutter inner_html=gutter_html></pre>
                <div class="code-area">
                    <pre class="backdrop" aria-hidden="true" node_ref=backdrop inner_html=backdrop_html></pre>
                    <textarea
                        id=id
                        node_ref=textarea
                        data-testid=(!test_id.is_empty()).then_some(test_id)
                        aria-describedby=described_by
                        aria-invalid=move || error.with(Option::is_some).then_some("true")
                        spellcheck="false"
                        autocomplete="off"
                        autocapitalize="off"
                        wrap="off"
                        rows=rows
                        prop:value=move || value.get()
                        on:input=move |ev| {
                            let text = ev
                                .target()
                                .and_then(|t| t.dyn_into::<web_sys::HtmlTextAreaElement>().ok())
                                .map(|t| t.value())
                                .unwrap_or_default();
                            on_input.run(text);
                        }
                        on:scroll=move |_| sync_scroll()
                    ></textarea>
                </div>
            </div>
            {move || {
                error
                    .get()
                    .map(|message| {
                        view! {
                            <p class="field-error" id=error_id.clone() data-testid=format!("{id}-error")>
                                <span>{message}</span>
                                {position_text()
                                    .map(|text| {
                                        view! {
                                            <button type="button" class="link" on:click=go_to_error>
                                                {text}
                                            </button>
                                        }
                                    })}
                            </p>
                        }
                    })
            }}
        </div>
    }
}
