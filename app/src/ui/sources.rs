//! The top bar's two small navigations: where the model comes from (each
//! button opens that source's chooser or field in the Model pane) and the
//! secondary panes (Explain, Compare, Generate, Answer, the GGUF metadata),
//! each one click away however long the columns are.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::ui::store::Store;

/// The element matched by a CSS selector.
fn find(selector: &str) -> Option<web_sys::HtmlElement> {
    web_sys::window()?
        .document()?
        .query_selector(selector)
        .ok()??
        .dyn_into::<web_sys::HtmlElement>()
        .ok()
}

/// Brings the element to the top of its column where the columns scroll on
/// their own (the page stays where it is); elsewhere scrolls the page to it.
fn bring_into_view(el: &web_sys::Element) {
    if let Some(col) = el.closest(".col").ok().flatten() {
        if col.scroll_height() > col.client_height() {
            let top = el.get_bounding_client_rect().top() - col.get_bounding_client_rect().top()
                + f64::from(col.scroll_top());
            // room above it for the column's sticky "Go to" row
            col.set_scroll_top((top - 48.0).max(0.0) as i32);
            return;
        }
    }
    el.scroll_into_view_with_bool(true);
}

/// Brings the element into view (its column scrolls, not the page) and
/// focuses it; a closed `<details>` on the way is opened first.
fn reveal(selectors: &[&str]) {
    let Some(el) = selectors.iter().find_map(|s| find(s)) else {
        return;
    };
    let mut up = el.parent_element();
    while let Some(p) = up {
        if p.tag_name().eq_ignore_ascii_case("details") {
            let _ = p.set_attribute("open", "");
        }
        up = p.parent_element();
    }
    bring_into_view(&el);
    if !el.has_attribute("tabindex") && matches!(el.tag_name().as_str(), "SECTION" | "DIV") {
        let _ = el.set_attribute("tabindex", "-1");
    }
    let _ = el.focus();
}

/// A source: its label key, test id, and what its button does.
#[derive(Clone, Copy)]
enum Action {
    /// Opens a file or folder chooser: the first of these that exists and
    /// is enabled is clicked (a picker button, else its file input).
    Choose(&'static [&'static str]),
    /// Shows and focuses a field (the first of these that exists).
    Reveal(&'static [&'static str]),
}

const SOURCES: &[(&str, &str, Action)] = &[
    (
        "sources.folder",
        "source-folder",
        Action::Choose(&[
            "[data-testid=store-open]:not([disabled])",
            "[data-testid=store-input]",
        ]),
    ),
    (
        "sources.gguf",
        "source-gguf",
        Action::Choose(&["[data-testid=gguf-input]"]),
    ),
    (
        "sources.modelfile",
        "source-modelfile",
        Action::Reveal(&["[data-testid=import-model-text]"]),
    ),
    (
        "sources.config",
        "source-config",
        Action::Choose(&["[data-testid=import-model-file]"]),
    ),
    (
        "sources.template",
        "source-template",
        Action::Reveal(&["[data-testid=template-input]"]),
    ),
];

/// Which runtime and release renders the prompt, in the top bar (where the
/// runtime and release pickers go): Ollama's release, and llama-server's
/// build when Ollama hands the model to it (native mode).
#[component]
pub fn RuntimeLine() -> impl IntoView {
    let store = expect_context::<Store>();
    // native mode: the llama-server build Ollama hands the model to
    let native = Memo::new(move |_| {
        store
            .outcome
            .with(|o| o.explain.as_ref().and_then(|e| e.llamacpp.clone()))
            .map(|build| format!("· {} llama-server {build}", store.t("model.native_mode")))
    });
    // newest first; the newest is stored as "" (the default)
    let pick = move |ev: leptos::ev::Event| {
        let tag = event_target_value(&ev);
        let tag = if tag == changes::Release::NEWEST.tag {
            String::new()
        } else {
            tag
        };
        store.update(|s| s.ollama = tag);
        store.schedule_render();
    };
    view! {
        <p class="runtime-line" data-testid="model-runtime">
            {move || store.t("model.rendered_by")} " " <strong>"Ollama"</strong> " "
            <select
                data-testid="release-select"
                aria-label=move || store.t("model.release")
                title=move || store.t("model.release")
                on:change=pick
            >
                {changes::Release::SUPPORTED
                    .iter()
                    .rev()
                    .map(|r| {
                        let tag = r.tag;
                        view! {
                            <option
                                value=tag
                                selected=move || {
                                    store.state.with(|s| {
                                        s.ollama == tag
                                            || (s.ollama.is_empty() && tag == changes::Release::NEWEST.tag)
                                    })
                                }
                            >
                                {tag}
                            </option>
                        }
                    })
                    .collect_view()}
            </select>
            {move || native.get().map(|n| view! {
                " " <strong data-testid="model-runtime-native">{n}</strong>
            })}
        </p>
    }
}

/// "Model from: Ollama folder · GGUF file · Modelfile · TEMPLATE".
#[component]
pub fn SourceBar() -> impl IntoView {
    let store = expect_context::<Store>();
    view! {
        <nav class="sources" aria-labelledby="sources-label" data-testid="sources">
            <span class="label" id="sources-label">{move || store.t("sources.label")}</span>
            {SOURCES
                .iter()
                .map(|&(key, id, action)| {
                    let on_click = move |_| match action {
                        Action::Choose(selectors) => {
                            if let Some(el) = selectors.iter().find_map(|s| find(s)) {
                                bring_into_view(&el);
                                el.click();
                            }
                        }
                        Action::Reveal(selector) => reveal(selector),
                    };
                    view! {
                        <button type="button" data-testid=id on:click=on_click>
                            {move || store.t(key)}
                        </button>
                    }
                })
                .collect_view()}
        </nav>
    }
}

/// Label key, test id, and where it leads (the first that exists): the
/// GGUF metadata once a file is read, else the drop zone that reads one.
const SECONDARY: &[(&str, &str, &[&str])] = &[
    ("explain.title", "nav-explain", &["#explain-pane"]),
    ("compare.title", "nav-compare", &["#compare-pane"]),
    ("generate.title", "nav-generate", &["#generate-pane"]),
    ("answer.title", "nav-answer", &["#answer-pane"]),
    (
        "nav.gguf",
        "nav-gguf",
        &["[data-testid=gguf-metadata] > summary", "#gguf-drop"],
    ),
];

/// Links to the panes below the prompt (and the GGUF metadata in the Model
/// column): a click scrolls that column to it and moves focus there.
#[component]
pub fn PaneNav() -> impl IntoView {
    let store = expect_context::<Store>();
    view! {
        <nav class="pane-nav" aria-label=move || store.t("nav.label") data-testid="pane-nav">
            {SECONDARY
                .iter()
                .map(|&(key, id, targets)| {
                    view! {
                        <a
                            href=targets[targets.len() - 1]
                            data-testid=id
                            on:click=move |ev| {
                                ev.prevent_default();
                                reveal(targets);
                            }
                        >
                            {move || store.t(key)}
                        </a>
                    }
                })
                .collect_view()}
        </nav>
    }
}
