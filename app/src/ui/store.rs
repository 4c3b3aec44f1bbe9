//! The app's reactive state, shared through context: the edited [`State`],
//! the latest render, preferences, and the render scheduler.

use std::sync::Arc;
use std::time::Duration;

use promptscope_app::jobs::{Answer, Tokens};

use leptos::prelude::*;
use serde_json::Value;

use promptscope_app::embed::{self, Query};
use promptscope_app::engine::{self, InputError, Outcome};
use promptscope_app::gguf::Gguf;
use promptscope_app::i18n::{self, Lang};
use promptscope_app::state::{pretty, Form, State};
use promptscope_app::{examples, share};

use crate::ui::answer_client;
use crate::ui::browser;
use crate::ui::engine_client;

/// Token counting with a GGUF (the engine worker's vocabulary).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tokenizer {
    /// No GGUF.
    None,
    /// The worker is reading the vocabulary.
    Loading,
    /// Renders count tokens.
    Ready,
    /// The vocabulary did not load (llama.cpp's message).
    Failed(String),
    /// Turned off by the Cancel button: renders count nothing.
    Off,
}

/// The model last loaded from the user's models folder: its name and where
/// each of its inputs came from (for Explain).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoreModel {
    /// The name, as `ollama list` shows it.
    pub name: String,
    /// `TEMPLATE: template layer sha256:…`, one per input.
    pub origins: Vec<String>,
}

/// Where the state is remembered between visits.
const STATE_KEY: &str = "promptscope.state.v1";
/// Where the preferences (language, theme, whitespace) are remembered.
const PREFS_KEY: &str = "promptscope.prefs.v1";

/// The colour theme.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Theme {
    /// Follow `prefers-color-scheme`.
    System,
    /// Always light.
    Light,
    /// Always dark.
    Dark,
}

impl Theme {
    /// `system`, `light` or `dark`.
    pub fn as_str(self) -> &'static str {
        match self {
            Theme::System => "system",
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }

    /// Parses [`Theme::as_str`].
    pub fn parse(s: &str) -> Option<Theme> {
        match s {
            "system" => Some(Theme::System),
            "light" => Some(Theme::Light),
            "dark" => Some(Theme::Dark),
            _ => None,
        }
    }
}

/// The state and models-folder model before an example, and the example's state.
pub type BeforeExample = (State, Option<StoreModel>, State);

/// Everything the components share.
#[derive(Clone, Copy)]
pub struct Store {
    /// What the user edits.
    pub state: RwSignal<State>,
    /// The latest render.
    pub outcome: RwSignal<Outcome>,
    /// Counts renders, so that listeners can react to each one.
    pub renders: RwSignal<u64>,
    /// The request body, parsed.
    pub body: Memo<Result<Value, InputError>>,
    /// Interface language.
    pub lang: RwSignal<Lang>,
    /// Colour theme.
    pub theme: RwSignal<Theme>,
    /// Whether the prompt shows whitespace.
    pub show_ws: RwSignal<bool>,
    /// A short message for the status line (copied, imported, errors).
    pub notice: RwSignal<Option<String>>,
    /// The page's query settings (`embed`, allowed origins).
    pub query: StoredValue<Query>,
    /// The model's GGUF, held in memory only (re-dropped after a reload).
    pub gguf: RwSignal<Option<Arc<Gguf>>>,
    /// Whether the prompt shows its tokens (with a GGUF).
    pub show_tokens: RwSignal<bool>,
    /// The GGUF file itself, for the workers.
    pub gguf_file: StoredValue<Option<web_sys::File>, LocalStorage>,
    /// Token counting with the GGUF.
    pub tokenizer: RwSignal<Tokenizer>,
    /// The GGUF pane's status line: (is an error, text).
    pub gguf_status: RwSignal<Option<(bool, String)>>,
    /// The model loaded from the models folder, while its fields stand.
    pub store_model: RwSignal<Option<StoreModel>>,
    /// What an example replaced: the state and models-folder model before
    /// it, and the example's own state (undo is offered while the state is
    /// still the example's, so that no edit made since is lost).
    pub before_example: RwSignal<Option<Box<BeforeExample>>>,
    /// The shown prompt's tokens (from the engine worker).
    pub tokens: RwSignal<Tokens>,
    /// A render has waited on the engine worker for a while.
    pub counting: RwSignal<bool>,
    /// The Compare pane's renders from the engine worker.
    pub compare_answers: RwSignal<Option<Vec<Answer>>>,
    /// The engine worker, while a GGUF is loaded.
    pub engine: StoredValue<Option<engine_client::Shared>, LocalStorage>,
    /// The Hugging Face tokenizer (transformers' token counts).
    pub hf: RwSignal<crate::ui::hf_client::HfState>,
    /// Its worker, once a `tokenizer.json` was opened.
    pub hf_client: StoredValue<Option<crate::ui::hf_client::Shared>, LocalStorage>,
    /// The latest ids it answered (the last few): (sequence number, ids or
    /// why not).
    pub hf_ids: RwSignal<Vec<crate::ui::hf_client::Ids>>,
    /// The sequence number of the latest request.
    pub hf_seq: StoredValue<u64>,
    /// The raw pieces of the Generate pane's last generation, as the model
    /// produced them (before Ollama's parsers): the Answer pane takes them.
    pub generated_pieces: RwSignal<Vec<String>>,
    /// The answer worker's latest answers (the Answer pane's, the
    /// Generate pane's route answer).
    pub answers: answer_client::Answers,
    pending: StoredValue<bool>,
}

impl Store {
    /// Reads the URL, local storage and the browser's preferences.
    pub fn new() -> Store {
        let query = embed::parse_query(&browser::query());
        let prefs: Value = browser::load(PREFS_KEY)
            .and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or(Value::Null);
        let lang = query
            .lang
            .as_deref()
            .and_then(Lang::from_tag)
            .or_else(|| {
                prefs
                    .get("lang")
                    .and_then(Value::as_str)
                    .and_then(Lang::from_tag)
            })
            .unwrap_or_else(|| i18n::negotiate(&browser::languages()));
        let theme = query
            .theme
            .as_deref()
            .and_then(Theme::parse)
            .or_else(|| {
                prefs
                    .get("theme")
                    .and_then(Value::as_str)
                    .and_then(Theme::parse)
            })
            .unwrap_or(Theme::System);
        let show_ws = prefs
            .get("whitespace")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        let mut notice = None;
        let state = initial_state(&query, lang, &mut notice);

        let state = RwSignal::new(state);
        let request_text = Memo::new(move |_| state.with(|s| s.request.clone()));
        let body = Memo::new(move |_| request_text.with(|t| engine::parse_request(t)));
        Store {
            state,
            outcome: RwSignal::new(Outcome::default()),
            renders: RwSignal::new(0),
            body,
            lang: RwSignal::new(lang),
            theme: RwSignal::new(theme),
            show_ws: RwSignal::new(show_ws),
            notice: RwSignal::new(notice),
            query: StoredValue::new(query),
            gguf: RwSignal::new(None),
            show_tokens: RwSignal::new(false),
            gguf_file: StoredValue::new_local(None),
            tokenizer: RwSignal::new(Tokenizer::None),
            gguf_status: RwSignal::new(None),
            store_model: RwSignal::new(None),
            before_example: RwSignal::new(None),
            tokens: RwSignal::new(None),
            counting: RwSignal::new(false),
            compare_answers: RwSignal::new(None),
            engine: StoredValue::new_local(None),
            hf: RwSignal::new(crate::ui::hf_client::HfState::Off),
            hf_client: StoredValue::new_local(None),
            hf_ids: RwSignal::new(Vec::new()),
            hf_seq: StoredValue::new(0),
            generated_pieces: RwSignal::new(Vec::new()),
            answers: answer_client::Answers::new(),
            pending: StoredValue::new(false),
        }
    }

    /// Whether the page runs in the compact embedded layout.
    pub fn embedded(&self) -> bool {
        self.query.with_value(|q| q.embed)
    }

    /// A translated string (reactive: re-read when the language changes).
    pub fn t(&self, key: &str) -> &'static str {
        i18n::t(self.lang.get(), key)
    }

    /// A translated string with `{name}` placeholders filled.
    pub fn tf(&self, key: &str, args: &[(&str, &str)]) -> String {
        i18n::tf(self.lang.get(), key, args)
    }

    /// A memo over part of the state.
    pub fn slice<T>(&self, f: impl Fn(&State) -> T + Send + Sync + 'static) -> Memo<T>
    where
        T: PartialEq + Clone + Send + Sync + 'static,
    {
        let state = self.state;
        Memo::new(move |_| state.with(&f))
    }

    /// Changes the state.
    pub fn update(&self, f: impl FnOnce(&mut State)) {
        self.state.update(f);
    }

    /// Edits the parsed request body and writes it back, pretty-printed.
    /// Does nothing while the body is not valid JSON.
    pub fn edit_body(&self, f: impl FnOnce(&mut Value)) {
        let Ok(mut body) = self.body.get_untracked() else {
            return;
        };
        f(&mut body);
        let text = pretty(&body);
        self.state.update(|s| s.request = text);
    }

    /// Loads an example (model and request).
    pub fn load_example(&self, id: &str) {
        if let Some(ex) = examples::by_id(id) {
            let before = self.state.get_untracked();
            // an example keeps the release the user picked
            let loaded = State {
                ollama: before.ollama.clone(),
                ..ex.state()
            };
            let model = self.store_model.get_untracked();
            self.before_example
                .set((before != loaded).then(|| Box::new((before, model, loaded.clone()))));
            self.state.set(loaded);
            self.store_model.set(None);
        }
    }

    /// Whether undoing the last example is offered: one was loaded over
    /// other work, and nothing was edited since.
    pub fn can_undo_example(&self) -> bool {
        self.before_example
            .with(|b| b.as_ref().is_some_and(|b| self.state.with(|s| *s == b.2)))
    }

    /// Brings back what the last example replaced.
    pub fn undo_example(&self) {
        if let Some(b) = self.before_example.get_untracked() {
            let (state, model, _) = *b;
            self.before_example.set(None);
            self.state.set(state);
            self.store_model.set(model);
        }
    }

    /// Shows a short status message.
    pub fn say(&self, text: impl Into<String>) {
        self.notice.set(Some(text.into()));
    }

    /// Renders on the next animation frame (at most once per frame, however
    /// many edits arrive). A timer backs the frame up: frames do not run in
    /// hidden tabs or frames, and an embedding page still gets its answer.
    pub fn schedule_render(&self) {
        if self.pending.get_value() {
            return;
        }
        self.pending.set_value(true);
        browser::mark("promptscope:input");
        let store = *self;
        let run = move || store.render_now();
        request_animation_frame(run);
        set_timeout(run, Duration::from_millis(100));
    }

    fn render_now(&self) {
        if !self.pending.get_value() {
            return;
        }
        self.pending.set_value(false);
        browser::mark("promptscope:frame-start");
        browser::mark("promptscope:render-start");
        let today = browser::today();
        self.save_state();
        // with a GGUF, the engine worker renders (it holds the vocabulary;
        // the token list only while the token view is open)
        let tokens = self.show_tokens.get_untracked();
        let sent = self.state.with_untracked(|s| {
            engine_client::request(*self, engine_client::MAIN, &[s], &today, tokens)
        });
        if sent {
            return;
        }
        let gguf = self.gguf.get_untracked();
        let out = self
            .state
            .with_untracked(|s| engine::run_with(s, &today, gguf.as_deref()));
        browser::measure("promptscope:render", "promptscope:render-start");
        self.apply_answer(Answer {
            outcome: out,
            tokens: None,
        });
    }

    /// Remembers the state for the next visit (not when embedded).
    pub fn save_state(&self) {
        if !self.embedded() {
            self.state
                .with_untracked(|s| browser::save(STATE_KEY, &s.to_json_string(Form::Exact)));
        }
    }

    /// Shows a render (from this thread or the engine worker).
    pub fn apply_answer(&self, answer: Answer) {
        self.outcome.set(answer.outcome);
        self.tokens.set(answer.tokens);
        self.renders.update(|n| *n += 1);
    }

    /// Remembers the preferences (not when embedded: an embedding page's
    /// `?lang=` or `?theme=` must not change the user's own app).
    pub fn save_prefs(&self) {
        if self.embedded() {
            return;
        }
        let prefs = serde_json::json!({
            "lang": self.lang.get_untracked().code(),
            "theme": self.theme.get_untracked().as_str(),
            "whitespace": self.show_ws.get_untracked(),
        });
        browser::save(PREFS_KEY, &prefs.to_string());
    }

    /// A share link for the current state.
    pub fn share_url(&self) -> String {
        let fragment = self.state.with_untracked(share::encode);
        format!("{}#{fragment}", share_base())
    }
}

/// The app's address for share links: this page without `embed` and `origin`.
fn share_base() -> String {
    let href = browser::href_without_fragment();
    match href.find('?') {
        Some(i) => href[..i].to_string(),
        None => href,
    }
}

/// The first state: a share link in the URL, else the last session (not
/// when embedded), else the default example.
fn initial_state(query: &Query, lang: Lang, notice: &mut Option<String>) -> State {
    if let Some(shared) = share::decode(&browser::fragment()) {
        match shared {
            Ok(state) => {
                if !query.embed {
                    // The state now lives in local storage; a reload keeps later edits.
                    let url = format!("{}{}", share_base(), browser::query());
                    browser::replace_url(&url);
                }
                return state;
            }
            Err(e) => *notice = Some(i18n::tf(lang, "notice.bad_link", &[("why", &e)])),
        }
    }
    if !query.embed {
        if let Some(state) = browser::load(STATE_KEY).and_then(|t| State::from_json_str(&t).ok()) {
            return state;
        }
    }
    examples::default_state()
}
