//! The Compare pane: the Go TEMPLATE against the GGUF chat template, this
//! template against a saved version, or Ollama against Hugging Face
//! transformers (what vLLM, SGLang and MLX-LM render), as a diff of
//! prompts and tokens, with the first difference and its cause.

use leptos::prelude::*;

use promptscope_app::diff::{self, Op, Span};
use promptscope_app::engine::{self, Outcome};
use promptscope_app::jobs::Answer;
use promptscope_app::runtimes;
use promptscope_app::state::State;

use crate::ui::browser;
use crate::ui::engine_client;
use crate::ui::store::Store;

/// What is compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// `OLLAMA_GO_TEMPLATE=true` against `false`.
    Engines,
    /// The current TEMPLATE against a kept one.
    Version,
    /// Ollama's prompt against transformers' `apply_chat_template`.
    Runtimes,
}

/// One side of the comparison.
#[derive(Clone, Debug, Default, PartialEq)]
struct Side {
    path: String,
    prompt: String,
    error: Option<String>,
    tokens: Option<Result<Vec<(u32, String)>, String>>,
}

/// Both sides' prompts asked of the tokenizer worker (their request
/// numbers) and which side, if any, is transformers'.
type HfAsked = (Option<u64>, Option<u64>, Option<&'static str>);

/// Where two runtimes' prompts first part (a byte) and what explains it.
type FirstDifference = (usize, Vec<runtimes::Reason>);

/// Both sides, or why there is nothing to compare.
#[derive(Clone, Debug, PartialEq)]
enum Compared {
    Sides(Box<(Side, Side)>),
    /// Ollama against transformers: the sides, and where they first part
    /// with what explains it.
    Runtimes(Box<(Side, Side, Option<FirstDifference>)>),
    Note(&'static str),
}

/// Where the kept version is remembered between visits.
const KEPT_KEY: &str = "promptscope.compare.v1";

/// Reads what the Keep button saved.
fn parse_kept(text: &str) -> Option<(bool, String)> {
    let v: serde_json::Value = serde_json::from_str(text).ok()?;
    Some((
        v["has_template"].as_bool()?,
        v["template"].as_str()?.to_string(),
    ))
}

/// One side from its render.
fn side(answer: Answer) -> Side {
    let out: Outcome = answer.outcome;
    let error = out
        .error
        .as_ref()
        .map(|e| e.message.clone())
        .or_else(|| out.input_error.as_ref().map(|e| e.message.clone()));
    Side {
        path: out.source().to_string(),
        prompt: out.prompt.clone().unwrap_or_default(),
        error,
        tokens: answer.tokens,
    }
}

fn spans_view(spans: Vec<Span>) -> impl IntoView {
    spans
        .into_iter()
        .map(|s| match s.op {
            Op::Equal => view! { <span>{s.text}</span> }.into_any(),
            Op::Delete => {
                view! { <del class="diff-del">{diff::visible_whitespace(&s.text)}</del> }.into_any()
            }
            Op::Insert => {
                view! { <ins class="diff-ins">{diff::visible_whitespace(&s.text)}</ins> }.into_any()
            }
        })
        .collect_view()
}

fn token_diff_view(a: &[(u32, String)], b: &[(u32, String)]) -> impl IntoView {
    diff::diff(a, b)
        .into_iter()
        .map(|(op, (id, piece))| {
            let (label, breaks) = diff::token_label(&piece);
            view! {
                <span class=diff::token_class(op) title=format!("{id}: {piece:?}")>
                    {label}
                </span>
                {breaks.then_some("\n")}
            }
        })
        .collect_view()
}

/// The two sides' labels, paths and errors.
fn facts(
    (a_label, b_label): (String, String),
    a_path: String,
    a_error: Option<String>,
    b_path: String,
    b_error: Option<String>,
) -> impl IntoView {
    let side_error = |e: Option<String>| e.map(|e| view! { <pre class="error">{e}</pre> });
    view! {
        <dl class="facts">
            <dt>{a_label}</dt>
            <dd>
                <code class="path" data-testid="compare-a-path">{a_path}</code>
                {side_error(a_error)}
            </dd>
            <dt>{b_label}</dt>
            <dd>
                <code class="path" data-testid="compare-b-path">{b_path}</code>
                {side_error(b_error)}
            </dd>
        </dl>
    }
}

/// The Compare pane.
#[component]
pub fn ComparePane() -> impl IntoView {
    let store = expect_context::<Store>();
    let open = RwSignal::new(false);
    let mode = RwSignal::new(Mode::Engines);
    // the two runtimes of the Runtimes mode
    let rt_a = RwSignal::new(runtimes::Runtime::Ollama(changes::Release::NEWEST));
    let rt_b = RwSignal::new(runtimes::Runtime::Transformers);
    // with a tokenizer.json: both sides' prompts sent to the tokenizer
    // worker (their request numbers), and which side is transformers'
    let hf_want = RwSignal::new(None::<HfAsked>);
    // The kept TEMPLATE: (has_template, text), remembered across visits
    // (not when embedded).
    let kept = RwSignal::new(if store.embedded() {
        None
    } else {
        browser::load(KEPT_KEY).and_then(|t| parse_kept(&t))
    });

    // The two states compared, or why there is nothing to compare.
    let pair = move || -> Result<(State, State), &'static str> {
        if !open.get() {
            return Err("compare.closed");
        }
        store.renders.track();
        let state = store.state.get_untracked();
        match mode.get() {
            Mode::Engines => {
                if !state.model.has_template || state.model.chat_template.is_empty() {
                    return Err("compare.needs_both");
                }
                let mut a = state.clone();
                a.model.go_template_env = Some("true".into());
                let mut b = state;
                b.model.go_template_env = Some("false".into());
                Ok((a, b))
            }
            Mode::Runtimes => Ok((state.clone(), state)),
            Mode::Version => {
                let Some((has, template)) = kept.get() else {
                    return Err("compare.no_version");
                };
                let mut b = state.clone();
                b.model.has_template = has;
                b.model.template = template;
                Ok((state, b))
            }
        }
    };
    // Recomputed after each render while the pane is open: by the engine
    // worker with a GGUF (its answers arrive in `compare_answers`), else here.
    let result = RwSignal::new(Compared::Note("compare.closed"));
    Effect::new(move |_| match pair() {
        Err(note) => result.set(Compared::Note(note)),
        Ok((a, _)) if mode.get_untracked() == Mode::Runtimes => {
            let today = browser::today();
            let gguf = store.gguf.get_untracked();
            let (ra, rb) = (rt_a.get(), rt_b.get());
            let render = |rt| runtimes::render_as(&a, &today, gguf.as_deref(), rt);
            let (sa, sb) = match (render(ra), render(rb)) {
                (Ok(x), Ok(y)) => (x, y),
                (Err(runtimes::NotComparable::NeedsChat), _)
                | (_, Err(runtimes::NotComparable::NeedsChat)) => {
                    return result.set(Compared::Note("compare.needs_chat"))
                }
                _ => return result.set(Compared::Note("compare.bad_request")),
            };
            let first = runtimes::explain(&a, &today, (ra, &sa), (rb, &sb));
            // re-run when a tokenizer.json loads; count transformers' prompt with it
            let _ = store.hf.get();
            let ask = |r: &runtimes::Rendered| {
                r.prompt
                    .as_ref()
                    .ok()
                    .and_then(|p| crate::ui::hf_client::encode(store, p))
            };
            let which = [(ra, "A"), (rb, "B")]
                .into_iter()
                .find(|(r, _)| *r == runtimes::Runtime::Transformers)
                .map(|(_, side)| side);
            hf_want.set(Some((ask(&sa), ask(&sb), which)));
            let side_of = |r: runtimes::Rendered| {
                let (prompt, error) = match r.prompt {
                    Ok(p) => (p, None),
                    Err(e) => (String::new(), Some(e)),
                };
                Side {
                    path: r.path,
                    prompt,
                    error,
                    tokens: None,
                }
            };
            result.set(Compared::Runtimes(Box::new((
                side_of(sa),
                side_of(sb),
                first,
            ))));
        }
        Ok((a, b)) => {
            let today = browser::today();
            if engine_client::request(store, engine_client::COMPARE, &[&a, &b], &today, true) {
                return;
            }
            let gguf = store.gguf.get_untracked();
            let run = |s: &State| Answer {
                outcome: engine::run_with(s, &today, gguf.as_deref()),
                tokens: None,
            };
            result.set(Compared::Sides(Box::new((side(run(&a)), side(run(&b))))));
        }
    });
    Effect::new(move |_| {
        let Some(answers) = store.compare_answers.get() else {
            return;
        };
        if !open.get_untracked() {
            return;
        }
        let mut it = answers.into_iter();
        if mode.get_untracked() == Mode::Runtimes {
            return;
        }
        if let (Some(a), Some(b)) = (it.next(), it.next()) {
            result.set(Compared::Sides(Box::new((side(a), side(b)))));
        }
    });

    let keep = move |_| {
        let snap = store
            .state
            .with_untracked(|s| (s.model.has_template, s.model.template.clone()));
        if !store.embedded() {
            let json = serde_json::json!({"has_template": snap.0, "template": snap.1});
            browser::save(KEPT_KEY, &json.to_string());
        }
        kept.set(Some(snap));
        store.say(store.t("compare.kept"));
    };

    let body = move || match result.get() {
        Compared::Note(key) => {
            view! { <p class="note" data-testid="compare-note">{store.t(key)}</p> }.into_any()
        }
        Compared::Runtimes(sides) => {
            let (a, b, first) = *sides;
            let hf_tokens = move || {
                let (qa, qb, which) = hf_want.get()?;
                let crate::ui::hf_client::HfState::Loaded { name, .. } = store.hf.get() else {
                    return None;
                };
                let got = |q: Option<u64>| q.and_then(|q| crate::ui::hf_client::answer(store, q));
                let (ta, tb) = (got(qa), got(qb));
                let count = which.and_then(|side| {
                    let ids = if side == "A" { ta.clone() } else { tb.clone() }?;
                    Some(match ids {
                        Ok(ids) => view! {
                            <p data-testid="compare-hf-tokens">
                                {store.tf(
                                    "compare.hf_tokens",
                                    &[("side", side), ("n", &ids.len().to_string()), ("name", &name)],
                                )}
                            </p>
                        }
                        .into_any(),
                        Err(e) => view! {
                            <p class="note">{store.tf("prompt.tokens_error", &[("why", &e)])}</p>
                        }
                        .into_any(),
                    })
                });
                let first = match (ta, tb) {
                    (Some(Ok(x)), Some(Ok(y))) => runtime::diff::first_token(&x, &y).map(|at| {
                        view! {
                            <p data-testid="compare-first-token">
                                {store.tf(
                                    "compare.first_token",
                                    &[("n", &at.to_string()), ("name", &name)],
                                )}
                            </p>
                        }
                    }),
                    _ => None,
                };
                Some(view! { {count} {first} })
            };
            let spans = diff::diff_chars(&a.prompt, &b.prompt);
            let first = first.map(|(at, causes)| {
                view! {
                    <p data-testid="compare-first">
                        {store.tf("compare.first_byte", &[("n", &at.to_string())])}
                    </p>
                    <h3>{store.t("compare.causes")}</h3>
                    <ul class="causes" data-testid="compare-causes">
                        {causes
                            .into_iter()
                            .map(|c| view! { <li><code>{c.id}</code>": " {c.line}</li> })
                            .collect_view()}
                    </ul>
                }
            });
            let same = a.error.is_none() && b.error.is_none() && a.prompt == b.prompt;
            view! {
                {facts((format!("A: {}", rt_a.get_untracked().id()), format!("B: {}", rt_b.get_untracked().id())),
                    a.path,
                    a.error,
                    b.path,
                    b.error,
                )}
                <p class="hint">{store.t(if same { "compare.same" } else { "compare.legend" })}</p>
                {first}
                <pre class="prompt diff" data-testid="compare-diff" tabindex="0">{spans_view(spans)}</pre>
                {hf_tokens}
            }
            .into_any()
        }
        Compared::Sides(sides) => {
            let (a, b) = *sides;
            let (a_label, b_label) = match mode.get_untracked() {
                Mode::Engines => ("compare.a_go", "compare.b_gguf"),
                Mode::Version | Mode::Runtimes => ("compare.a_current", "compare.b_kept"),
            };
            let spans = diff::diff_chars(&a.prompt, &b.prompt);
            let same = !diff::changed(&spans);
            let tokens = match (a.tokens, b.tokens) {
                (Some(Ok(ta)), Some(Ok(tb))) => Some(
                    view! {
                        <h3>{store.t("compare.tokens")}</h3>
                        <p data-testid="compare-token-counts">
                            {store.tf(
                                "compare.token_counts",
                                &[("a", &ta.len().to_string()), ("b", &tb.len().to_string())],
                            )}
                        </p>
                        <pre class="prompt diff tokens" data-testid="compare-token-diff" tabindex="0">
                            {token_diff_view(&ta, &tb)}
                        </pre>
                    }
                    .into_any(),
                ),
                (Some(Err(e)), _) | (_, Some(Err(e))) => {
                    Some(view! { <p class="note">{store.tf("prompt.tokens_error", &[("why", &e)])}</p> }.into_any())
                }
                _ => None,
            };
            view! {
                {facts((store.t(a_label).to_string(), store.t(b_label).to_string()), a.path, a.error, b.path, b.error)}
                <p class="hint">{store.t(if same { "compare.same" } else { "compare.legend" })}</p>
                <pre class="prompt diff" data-testid="compare-diff" tabindex="0">{spans_view(spans)}</pre>
                {tokens}
            }
            .into_any()
        }
    };

    view! {
        <section class="pane" id="compare-pane" data-testid="compare-pane" aria-labelledby="compare-heading">
            <details
                class="compare"
                on:toggle=move |ev| {
                    use wasm_bindgen::JsCast;
                    let open_now = ev
                        .target()
                        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                        .is_some_and(|d| d.has_attribute("open"));
                    open.set(open_now);
                }
            >
                <summary data-testid="compare-toggle">
                    <h2 id="compare-heading">{move || store.t("compare.title")}</h2>
                </summary>
                <div class="compare-body">
                    <div class="pane-head">
                        <label>
                            {move || store.t("compare.mode")} " "
                            <select
                                data-testid="compare-mode"
                                on:change=move |ev| {
                                    mode.set(match event_target_value(&ev).as_str() {
                                        "version" => Mode::Version,
                                        "runtimes" => Mode::Runtimes,
                                        _ => Mode::Engines,
                                    })
                                }
                            >
                                <option value="engines" selected=move || mode.get() == Mode::Engines>
                                    {move || store.t("compare.mode_engines")}
                                </option>
                                <option value="version" selected=move || mode.get() == Mode::Version>
                                    {move || store.t("compare.mode_version")}
                                </option>
                                <option value="runtimes" selected=move || mode.get() == Mode::Runtimes>
                                    {move || store.t("compare.mode_runtimes")}
                                </option>
                            </select>
                        </label>
                        {move || (mode.get() == Mode::Runtimes).then(|| {
                            let picker = move |which: RwSignal<runtimes::Runtime>, testid: &'static str, key: &'static str| view! {
                                <label>
                                    {move || store.t(key)} " "
                                    <select
                                        data-testid=testid
                                        on:change=move |ev| {
                                            if let Some(r) = runtimes::Runtime::parse(&event_target_value(&ev)) {
                                                which.set(r);
                                            }
                                        }
                                    >
                                        {runtimes::Runtime::all()
                                            .into_iter()
                                            .map(|r| view! {
                                                <option value=r.id() selected=move || which.get() == r>{r.id()}</option>
                                            })
                                            .collect_view()}
                                    </select>
                                </label>
                            };
                            view! {
                                {picker(rt_a, "compare-runtime-a", "compare.side_a")}
                                {picker(rt_b, "compare-runtime-b", "compare.side_b")}
                            }
                        })}
                        {move || (mode.get() == Mode::Version).then(|| view! {
                            <button type="button" class="small" data-testid="compare-keep" on:click=keep>
                                {move || store.t("compare.keep")}
                            </button>
                        })}
                    </div>
                    {body}
                </div>
            </details>
        </section>
    }
}
