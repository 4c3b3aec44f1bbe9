//! Component tests in a real browser (`wasm-bindgen-test`, run by
//! `scripts/test.sh` through wasm-bindgen-test-runner and chromedriver):
//! each mounts one component (or the whole app) into the page with a fresh
//! [`Store`], drives it through DOM events and checks the DOM and the store.
//!
//! `cargo test --target wasm32-unknown-unknown -p promptscope-app --bin promptscope-app`
//! with `CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner`.

use std::cell::Cell;
use std::rc::Rc;

use leptos::prelude::*;
use serde_json::Value;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement};

use promptscope_app::engine::{self, Outcome};
use promptscope_app::errpos::Pos;
use promptscope_app::examples;
use promptscope_app::jobs::Answer;

use crate::ui::answer_pane::AnswerPane;
use crate::ui::app::App;
use crate::ui::code_editor::CodeEditor;
use crate::ui::compare_pane::ComparePane;
use crate::ui::examples_bar::ExamplesBar;
use crate::ui::explain_pane::ExplainPane;
use crate::ui::json_field::JsonField;
use crate::ui::prompt_pane::PromptPane;
use crate::ui::request_form::RequestForm;
use crate::ui::settings::Settings;
use crate::ui::store::{Store, Tokenizer};
use crate::ui::toolbar::Toolbar;

wasm_bindgen_test_configure!(run_in_browser);

fn document() -> web_sys::Document {
    web_sys::window().unwrap().document().unwrap()
}

/// A fresh container in the page (the previous test's is removed), and no
/// state left in local storage by an earlier test.
fn container() -> HtmlElement {
    let doc = document();
    if let Some(old) = doc.get_element_by_id("component-test") {
        old.remove();
    }
    if let Ok(Some(s)) = web_sys::window().unwrap().local_storage() {
        let _ = s.clear();
    }
    let div: HtmlElement = doc.create_element("div").unwrap().unchecked_into();
    div.set_id("component-test");
    doc.body().unwrap().append_child(&div).unwrap();
    div
}

/// Mounts `view` with a fresh store in context; returns the store.
fn mount<V: IntoView + 'static>(view: impl FnOnce() -> V + 'static) -> Store {
    let slot = Rc::new(Cell::new(None::<Store>));
    let out = slot.clone();
    let handle = leptos::mount::mount_to(container(), move || {
        let store = Store::new();
        provide_context(store);
        out.set(Some(store));
        view()
    });
    // the component stays mounted until the next test replaces the container
    std::mem::forget(handle);
    slot.get().unwrap()
}

fn find(selector: &str) -> Element {
    document()
        .query_selector(selector)
        .unwrap()
        .unwrap_or_else(|| panic!("no element matches {selector}"))
}

fn by_test_id(id: &str) -> Element {
    find(&format!("[data-testid=\"{id}\"]"))
}

fn exists(selector: &str) -> bool {
    document().query_selector(selector).unwrap().is_some()
}

fn text(el: &Element) -> String {
    el.text_content().unwrap_or_default()
}

/// Types `value` into a textarea or input as a user would (one `input` event).
fn type_into(el: &Element, value: &str) {
    if let Some(ta) = el.dyn_ref::<web_sys::HtmlTextAreaElement>() {
        ta.set_value(value);
    } else if let Some(input) = el.dyn_ref::<web_sys::HtmlInputElement>() {
        input.set_value(value);
    }
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    let ev = web_sys::Event::new_with_event_init_dict("input", &init).unwrap();
    el.dispatch_event(&ev).unwrap();
}

/// Picks `value` in a select (one `change` event).
fn select(el: &Element, value: &str) {
    el.dyn_ref::<web_sys::HtmlSelectElement>()
        .unwrap()
        .set_value(value);
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    let ev = web_sys::Event::new_with_event_init_dict("change", &init).unwrap();
    el.dispatch_event(&ev).unwrap();
}

fn click(el: &Element) {
    el.dyn_ref::<HtmlElement>().unwrap().click();
}

/// Waits `ms` milliseconds (lets effects, frames and timers run).
async fn sleep(ms: i32) {
    let p = js_sys::Promise::new(&mut |resolve, _| {
        web_sys::window()
            .unwrap()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms)
            .unwrap();
    });
    wasm_bindgen_futures::JsFuture::from(p).await.unwrap();
}

/// Waits until `check` holds (at most three seconds).
async fn eventually(what: &str, check: impl Fn() -> bool) {
    for _ in 0..150 {
        if check() {
            return;
        }
        sleep(20).await;
    }
    panic!("still not true after 3 s: {what}");
}

const TODAY: &str = "2025-06-15";

#[wasm_bindgen_test]
async fn code_editor_numbers_lines_marks_the_error_and_reports_edits() {
    let edited = RwSignal::new(String::new());
    let value = RwSignal::new("one\ntwo\nthree".to_string());
    mount(move || {
        view! {
            <CodeEditor
                id="ed"
                label="model.template"
                test_id="ed"
                value=Signal::from(value)
                on_input=Callback::new(move |v: String| {
                    edited.set(v.clone());
                    value.set(v);
                })
                error=Signal::derive(|| Some("template: t:2: unexpected".to_string()))
                error_pos=Signal::derive(|| Some(Pos { line: 2, col: Some(1) }))
            />
        }
    });
    let gutter = find("#component-test .gutter");
    assert_eq!(text(&gutter), "1\n2\n3\n");
    assert_eq!(text(&find("#component-test .gutter mark.err-line-no")), "2");
    assert_eq!(
        text(&find("[data-testid=\"ed-error\"] span")),
        "template: t:2: unexpected"
    );
    // and offers to jump to the line
    assert_eq!(
        text(&find("[data-testid=\"ed-error\"] button")),
        "Go to the error (line 2)"
    );
    // the label names the textarea, and the textarea points at its error
    let ta = by_test_id("ed");
    assert_eq!(
        find("#component-test label")
            .get_attribute("for")
            .as_deref(),
        Some("ed")
    );
    assert!(ta
        .get_attribute("aria-describedby")
        .unwrap_or_default()
        .contains("ed-error"));

    type_into(&ta, "one\ntwo\nthree\nfour");
    assert_eq!(edited.get_untracked(), "one\ntwo\nthree\nfour");
    eventually("the gutter counts four lines", || {
        text(&find("#component-test .gutter")) == "1\n2\n3\n4\n"
    })
    .await;
}

#[wasm_bindgen_test]
async fn prompt_pane_shows_the_prompt_whitespace_counts_and_tokens() {
    let store = mount(|| view! { <PromptPane /> });
    let out = Outcome {
        prompt: Some("<|im_start|>user\nhi there<|im_end|>\n".into()),
        ..Outcome::default()
    };
    store.apply_answer(Answer {
        outcome: out,
        tokens: None,
    });
    let prompt = by_test_id("prompt-output");
    eventually("the prompt is shown", || {
        text(&prompt) == "<|im_start|>user\nhi there<|im_end|>\n"
    })
    .await;
    assert_eq!(text(&by_test_id("prompt-stats")), "36 characters, 36 bytes");
    assert!(text(&by_test_id("token-count")).contains("load a GGUF"));
    assert!(!exists("[data-testid=\"token-view-toggle\"]"));

    click(&by_test_id("whitespace-toggle"));
    eventually("whitespace is visible", || {
        let t = text(&by_test_id("prompt-output"));
        t.contains("hi·there") && t.contains('↵')
    })
    .await;
    click(&by_test_id("whitespace-toggle"));

    // with a GGUF: the count, and the worker's tokens in the token view
    store.tokenizer.set(Tokenizer::Ready);
    store.apply_answer(Answer {
        outcome: Outcome {
            prompt: Some("hi there".into()),
            token_count: Some(Ok(3)),
            ..Outcome::default()
        },
        tokens: Some(Ok(vec![
            (1, "<s>".into()),
            (2, "hi".into()),
            (3, " there".into()),
        ])),
    });
    eventually("the count is shown", || {
        text(&by_test_id("token-count")).starts_with("3 tokens")
    })
    .await;
    click(&by_test_id("token-view-toggle"));
    eventually("the token view", || {
        document()
            .query_selector_all("[data-testid=\"prompt-output\"] .tk")
            .unwrap()
            .length()
            == 3
    })
    .await;
    let first = find("[data-testid=\"prompt-output\"] .tk");
    assert_eq!(first.get_attribute("title").as_deref(), Some("1: \"<s>\""));

    // a long count shows Cancel
    store.counting.set(true);
    eventually("the Cancel button", || {
        exists("[data-testid=\"token-cancel\"]")
    })
    .await;
}

#[wasm_bindgen_test]
async fn explain_pane_names_the_path_and_the_rule() {
    let store = mount(|| view! { <ExplainPane /> });
    let state = examples::by_id("llama3").unwrap().state();
    let out = engine::run(&state, TODAY);
    let source = out.source().to_string();
    assert_eq!(source, "go_template");
    store.apply_answer(Answer {
        outcome: out,
        tokens: None,
    });
    eventually("the selected path", || {
        exists("[data-testid=\"selected-path\"]")
            && text(&by_test_id("selected-path")).contains(&source)
    })
    .await;
    assert!(!text(&by_test_id("selected-rule")).is_empty());
}

#[wasm_bindgen_test]
async fn explain_pane_shows_a_routes_conversion_and_fields() {
    let store = mount(|| view! { <ExplainPane /> });
    store.load_example("claude-code");
    let state = store.state.get_untracked();
    let out = engine::run(&state, TODAY);
    store.apply_answer(Answer {
        outcome: out,
        tokens: None,
    });
    eventually("the field table", || {
        exists("[data-testid=\"route-fields\"]")
    })
    .await;
    assert_eq!(
        text(&by_test_id("route-summary")),
        "POST /v1/messages → /api/chat"
    );
    let api: Value = serde_json::from_str(&text(&by_test_id("api-request"))).unwrap();
    assert_eq!(api["messages"][3]["role"], "tool");
    let metadata = find("[data-testid=\"route-field\"][data-field=\"metadata\"]");
    assert_eq!(
        metadata.get_attribute("data-fate").as_deref(),
        Some("dropped")
    );
    assert!(exists(
        "[data-testid=\"route-field\"][data-field=\"(route)\"]"
    ));
    // no _debug_render_only on /v1/messages: the converted request to /api/chat instead
    assert!(!text(&by_test_id("debug-curl")).contains("_debug_render_only"));
    assert!(text(&by_test_id("debug-curl-native"))
        .starts_with("curl http://localhost:11434/api/chat -d '"));
}

#[wasm_bindgen_test]
async fn request_form_follows_the_route() {
    let store = mount(|| view! { <RequestForm /> });
    store.load_example("claude-code");
    eventually("max_tokens", || exists("[data-testid=\"form-max_tokens\"]")).await;
    // no think or num_ctx: not fields of the route
    assert!(!exists("[data-testid=\"think-select\"]"));
    assert!(text(&by_test_id("system-parts")).contains("3 content part(s) (text ×3)"));
    type_into(&by_test_id("form-max_tokens"), "128");
    eventually("max_tokens written", || {
        store.state.with_untracked(|s| {
            serde_json::from_str::<Value>(&s.request).unwrap()["max_tokens"] == 128
        })
    })
    .await;
    store.load_example("chatml");
    eventually("think is back", || exists("[data-testid=\"think-select\"]")).await;
    assert!(!exists("[data-testid=\"form-max_tokens\"]"));
}

#[wasm_bindgen_test]
async fn json_field_points_at_a_json_error_and_writes_valid_edits_back() {
    let store = mount(|| {
        view! { <JsonField key="options" id="options-json" label="request.options_json" hint="request.options_hint" /> }
    });
    store.load_example("chatml");
    sleep(50).await; // the example's effects run before the user types
    let field = by_test_id("options-json");
    type_into(&field, "{\n  \"num_ctx\": 8,\n  oops\n}");
    eventually("the JSON error", || {
        exists("[data-testid=\"options-json-error\"]")
    })
    .await;
    let error = text(&by_test_id("options-json-error"));
    assert!(error.contains("line 3"), "{error}");
    assert_eq!(text(&find("#component-test .gutter mark.err-line-no")), "3");

    type_into(&field, "{\"num_ctx\": 8}");
    eventually("the body has the options", || {
        store.state.with_untracked(|s| {
            serde_json::from_str::<Value>(&s.request)
                .ok()
                .and_then(|b| b["options"]["num_ctx"].as_i64())
                == Some(8)
        })
    })
    .await;
    eventually("the error is gone", || {
        !exists("[data-testid=\"options-json-error\"]")
    })
    .await;
}

#[wasm_bindgen_test]
async fn request_form_adds_a_message_with_a_role() {
    let store = mount(|| view! { <RequestForm /> });
    store.load_example("chatml");
    let count = || {
        store.state.with_untracked(|s| {
            serde_json::from_str::<Value>(&s.request).unwrap()["messages"]
                .as_array()
                .map_or(0, Vec::len)
        })
    };
    eventually("the rows", || exists("[data-testid=\"message-row\"]")).await;
    let before = count();
    let rows = || {
        document()
            .query_selector_all("[data-testid=\"message-row\"]")
            .unwrap()
            .length() as usize
    };
    assert_eq!(rows(), before);
    click(&by_test_id("add-message"));
    eventually("one more message", || {
        count() == before + 1 && rows() == before + 1
    })
    .await;
}

#[wasm_bindgen_test]
async fn settings_switch_language_and_theme() {
    let store = mount(|| view! { <Settings /> });
    select(&by_test_id("lang-select"), "es");
    assert_eq!(store.lang.get_untracked().code(), "es");
    let lang = by_test_id("lang-select");
    eventually("the label is translated", || {
        lang.get_attribute("title").as_deref() == Some("Idioma")
    })
    .await;
    select(&by_test_id("theme-select"), "dark");
    assert_eq!(store.theme.get_untracked().as_str(), "dark");
}

#[wasm_bindgen_test]
async fn examples_bar_loads_an_example() {
    let store = mount(|| view! { <ExamplesBar /> });
    // the user's own work, which the example replaces
    store.update(|s| s.model.template = "MY TEMPLATE {{ .Prompt }}".into());
    let mine = store.state.get_untracked();
    assert!(!exists("[data-testid=\"example-undo\"]"));
    click(&by_test_id("example-llama3"));
    let expected = examples::by_id("llama3").unwrap().state();
    eventually("the example's state", || {
        store.state.with_untracked(|s| *s == expected)
    })
    .await;
    // one click brings it back
    eventually("undo offered", || exists("[data-testid=\"example-undo\"]")).await;
    click(&by_test_id("example-undo"));
    eventually("the user's state again", || {
        store.state.with_untracked(|s| *s == mine)
    })
    .await;
    eventually("undo gone", || !exists("[data-testid=\"example-undo\"]")).await;
    // not offered once the example was edited: that would lose the edit
    click(&by_test_id("example-llama3"));
    eventually("undo offered", || exists("[data-testid=\"example-undo\"]")).await;
    store.update(|s| s.model.template.push('!'));
    eventually("undo withdrawn", || {
        !exists("[data-testid=\"example-undo\"]")
    })
    .await;
}

#[wasm_bindgen_test]
async fn the_app_renders_as_you_type() {
    mount(|| view! { <App /> });
    click(&by_test_id("example-chatml"));
    let template = by_test_id("template-input");
    type_into(
        &template,
        "{{ range .Messages }}[{{ .Role }}] {{ .Content }}\n{{ end }}",
    );
    // (pasted over the example's template: the example's SYSTEM went with it)
    eventually("the prompt follows the template", || {
        text(&by_test_id("prompt-output")).starts_with("[user] Why is the sky blue?")
    })
    .await;
    assert_eq!(
        by_test_id("system-input")
            .dyn_into::<web_sys::HtmlTextAreaElement>()
            .unwrap()
            .value(),
        ""
    );
    // a Go error, with its position in the editor
    type_into(&template, "{{ range .Messages }}\n{{ .Content }\n");
    eventually("the error", || exists("[data-testid=\"error-output\"]")).await;
    let error = text(&by_test_id("error-output"));
    assert!(
        error.starts_with("template: ") && error.contains(":2:"),
        "{error}"
    );
    // the template editor marks line 2
    eventually("the editor marks the line", || {
        exists("#model-pane .gutter mark.err-line-no")
            && text(&find("#model-pane .gutter mark.err-line-no")) == "2"
    })
    .await;
}

#[wasm_bindgen_test]
async fn answer_pane_parses_the_output_and_takes_the_generated_pieces() {
    // (the app installs the answer client beside its panes)
    let store = mount(|| {
        crate::ui::answer_client::install(expect_context::<Store>());
        view! { <AnswerPane /> }
    });
    let mut state = examples::by_id("chatml").unwrap().state();
    state.model.template = "{{ range .Messages }}{{ .Role }}: {{ if .Thinking }}<think>{{ .Thinking }}</think>{{ end }}{{ .Content }}\n{{ end }}assistant: ".into();
    state.request =
        r#"{"model": "m", "think": true, "messages": [{"role": "user", "content": "hi"}]}"#.into();
    let out = engine::run(&state, TODAY);
    assert!(out.answer_setup.is_some());
    store.state.set(state);
    store.apply_answer(Answer {
        outcome: out,
        tokens: None,
    });
    eventually("the empty note", || exists("[data-testid=\"answer-note\"]")).await;
    assert!(by_test_id("answer-take").has_attribute("disabled"));
    type_into(&by_test_id("answer-input"), "<think>Hm.</think>Hello");
    eventually("the thinking", || {
        exists("[data-testid=\"answer-thinking\"]") && text(&by_test_id("answer-thinking")) == "Hm."
    })
    .await;
    assert_eq!(text(&by_test_id("answer-content")), "Hello");
    assert_eq!(text(&by_test_id("answer-kind")), "thinking");
    assert_eq!(
        store.state.with_untracked(|s| s.answer.text.clone()),
        "<think>Hm.</think>Hello"
    );
    // the Generate pane's pieces, taken as they came
    store
        .generated_pieces
        .set(vec!["<think>".into(), "A".into(), "</think>B".into()]);
    eventually("the take button", || {
        !by_test_id("answer-take").has_attribute("disabled")
    })
    .await;
    click(&by_test_id("answer-take"));
    eventually("the pieces", || {
        exists("[data-testid=\"answer-thinking\"]") && text(&by_test_id("answer-thinking")) == "A"
    })
    .await;
    assert_eq!(
        by_test_id("answer-mode-chunks")
            .get_attribute("aria-pressed")
            .as_deref(),
        Some("true")
    );
    let typed = by_test_id("answer-input")
        .dyn_into::<web_sys::HtmlTextAreaElement>()
        .unwrap()
        .value();
    assert_eq!(typed, "[\n  \"<think>\",\n  \"A\",\n  \"</think>B\"\n]");
    assert_eq!(text(&by_test_id("answer-content")), "B");
}

#[wasm_bindgen_test]
async fn compare_pane_diffs_the_two_engines_then_a_kept_version() {
    let store = mount(|| view! { <ComparePane /> });
    store.load_example("gguf-wins");
    store.update(|s| s.model.template = format!("[go] {}", s.model.template));
    find("#compare-pane details")
        .set_attribute("open", "")
        .unwrap();
    let init = web_sys::EventInit::new();
    let toggle = web_sys::Event::new_with_event_init_dict("toggle", &init).unwrap();
    find("#compare-pane details")
        .dispatch_event(&toggle)
        .unwrap();
    store.renders.update(|n| *n += 1);
    eventually("both paths", || {
        exists("[data-testid=\"compare-b-path\"]")
            && text(&by_test_id("compare-a-path")) == "go_template"
            && text(&by_test_id("compare-b-path")) == "gguf_chat_template"
    })
    .await;
    assert!(text(&find("[data-testid=\"compare-diff\"] del")).starts_with("[go]"));

    // keeping a version means nothing when comparing the two engines
    assert!(!exists("[data-testid=\"compare-keep\"]"));

    // the Go TEMPLATE forced on, so that its edits reach the prompt
    store.update(|s| s.model.go_template_env = Some("true".into()));
    select(&by_test_id("compare-mode"), "version");
    eventually("nothing kept yet", || {
        exists("[data-testid=\"compare-note\"]") && exists("[data-testid=\"compare-keep\"]")
    })
    .await;
    click(&by_test_id("compare-keep"));
    store.update(|s| s.model.template.push_str("MARK"));
    store.renders.update(|n| *n += 1);
    eventually("the edit against the kept version", || {
        exists("[data-testid=\"compare-diff\"] ins") || exists("[data-testid=\"compare-diff\"] del")
    })
    .await;
    // remembered for the next visit
    let saved = web_sys::window()
        .unwrap()
        .local_storage()
        .unwrap()
        .unwrap()
        .get_item("promptscope.compare.v1")
        .unwrap()
        .unwrap();
    assert!(saved.contains("[go]") && !saved.contains("MARK"), "{saved}");
}

#[wasm_bindgen_test]
async fn toolbar_makes_a_share_link_that_holds_the_state() {
    let store = mount(|| view! { <Toolbar /> });
    store.load_example("llama3");
    click(&by_test_id("share-button"));
    eventually("the link", || exists("[data-testid=\"share-url\"]")).await;
    let el = by_test_id("share-url");
    let url = el
        .dyn_ref::<web_sys::HtmlInputElement>()
        .map(|i| i.value())
        .unwrap_or_else(|| text(&el));
    let fragment = url.split_once('#').map(|(_, f)| f).unwrap_or_default();
    let state = promptscope_app::share::decode(fragment).unwrap().unwrap();
    assert_eq!(state, examples::by_id("llama3").unwrap().state());
}
