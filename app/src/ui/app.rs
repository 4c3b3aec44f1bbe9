//! The page shell: a top bar (where the model comes from, the settings),
//! examples and toolbar, then three columns that scroll on their own on a
//! wide screen (the model; the request; the prompt, Explain and the
//! secondary panes), so the conversation, the prompt and Explain share the
//! first screen; one column on a narrow one. Or the compact embedded layout.

use leptos::prelude::*;

use promptscope_app::state::State;

use crate::ui::answer_client;
use crate::ui::answer_pane::AnswerPane;
use crate::ui::browser;
use crate::ui::compare_pane::ComparePane;
use crate::ui::embed_bridge;
use crate::ui::embed_view::EmbedView;
use crate::ui::examples_bar::ExamplesBar;
use crate::ui::explain_pane::ExplainPane;
use crate::ui::generate_pane::GeneratePane;
use crate::ui::model_pane::ModelPane;
use crate::ui::prompt_pane::PromptPane;
use crate::ui::request_pane::RequestPane;
use crate::ui::settings::Settings;
use crate::ui::sources::{PaneNav, RuntimeLine, SourceBar};
use crate::ui::store::{Store, Theme};
use crate::ui::toolbar::Toolbar;

/// Root component of the Promptscope web app.
#[component]
pub fn App() -> impl IntoView {
    let store = Store::new();
    provide_context(store);

    // Every edit schedules a render (at most one per frame); the Answer
    // pane's input does not change the prompt, so its edits are only saved.
    let rendered_part = Memo::new(move |_| {
        store.state.with(|s| State {
            answer: Default::default(),
            ..s.clone()
        })
    });
    // (read, not only tracked: a memo subscribes to its sources when it runs)
    Effect::new(move |_| {
        rendered_part.with(|_| ());
        store.schedule_render();
    });
    let answer_input = store.slice(|s| s.answer.clone());
    Effect::new(move |first: Option<()>| {
        answer_input.with(|_| ());
        if first.is_some() {
            store.save_state();
        }
    });
    Effect::new(move |_| {
        let lang = store.lang.get();
        browser::set_root_attribute("lang", Some(lang.code()));
        store.save_prefs();
    });
    Effect::new(move |_| {
        let theme = store.theme.get();
        let attr = match theme {
            Theme::System => None,
            t => Some(t.as_str()),
        };
        browser::set_root_attribute("data-theme", attr);
        store.save_prefs();
    });
    Effect::new(move |_| {
        store.show_ws.track();
        store.save_prefs();
    });
    answer_client::install(store);
    embed_bridge::install(store);

    if store.embedded() {
        browser::set_root_attribute("data-embed", Some("true"));
        return view! { <EmbedView /> }.into_any();
    }

    view! {
        <a class="skip-link" href="#prompt-pane">{move || store.t("app.skip")}</a>
        <header class="site-header">
            <div class="brand">
                <h1>"Promptscope"</h1>
                <p class="tagline">{move || store.t("app.tagline")}</p>
            </div>
            <SourceBar />
        </header>
        <div class="bar">
            <ExamplesBar />
            <RuntimeLine />
            <div class="bar-end">
                <Toolbar />
                <Settings />
            </div>
        </div>
        <p class="notice" role="status" data-testid="notice">
            {move || store.notice.get()}
        </p>
        <main class="panes">
            <div class="col col-model" data-testid="col-model">
                <ModelPane />
            </div>
            <div class="col col-request" data-testid="col-request">
                <RequestPane />
            </div>
            <div class="col col-output" data-testid="col-output">
                <PaneNav />
                <PromptPane />
                <ExplainPane />
                <ComparePane />
                <GeneratePane />
                <AnswerPane />
            </div>
        </main>
        <footer class="site-footer">
            <p>{move || store.t("app.footer")}</p>
        </footer>
    }
    .into_any()
}
