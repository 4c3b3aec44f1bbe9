//! The output panel: the rendered prompt, or the exact error plus partial output.

use leptos::prelude::*;

use crate::render::Rendered;

/// The most output put on the page, in bytes. A runaway template can write
/// megabytes before the engine's limit stops it; only this much of it is shown.
const DISPLAY_LIMIT: usize = 256 * 1024;

/// The longest prefix of `text` that fits in [`DISPLAY_LIMIT`], cut at a character boundary.
fn displayed(text: &str) -> &str {
    if text.len() <= DISPLAY_LIMIT {
        return text;
    }
    let mut end = DISPLAY_LIMIT;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// A human-readable size, e.g. `256 KiB` or `9.5 MiB`.
fn size(bytes: usize) -> String {
    const KIB: f64 = 1024.0;
    let bytes = bytes as f64;
    if bytes < KIB * KIB {
        format!("{:.0} KiB", bytes / KIB)
    } else {
        format!("{:.1} MiB", bytes / (KIB * KIB))
    }
}

/// Shows the result of a run: the prompt with whitespace preserved, and the
/// error text exactly as the engine reports it when the run failed.
#[component]
pub fn OutputPanel(
    /// The result of the latest run.
    #[prop(into)]
    result: Signal<Rendered>,
) -> impl IntoView {
    let error = move || result.with(|r| r.error.clone());
    let output = move || result.with(|r| displayed(&r.output).to_owned());
    let truncation = move || {
        result.with(|r| {
            (r.output.len() > DISPLAY_LIMIT).then(|| {
                format!(
                    "The output is {}; only its first {} is shown.",
                    size(r.output.len()),
                    size(DISPLAY_LIMIT)
                )
            })
        })
    };
    let has_error = move || result.with(|r| r.error.is_some());
    let stats = move || {
        result.with(|r| {
            let chars = r.output.chars().count();
            let lines = if r.output.is_empty() {
                0
            } else {
                r.output.lines().count()
            };
            format!(
                "{chars} character{}, {lines} line{}",
                plural(chars),
                plural(lines)
            )
        })
    };
    let output_label = move || {
        if has_error() {
            "Output written before the error"
        } else {
            "Prompt"
        }
    };

    view! {
        <section class="output" aria-labelledby="output-heading">
            <div class="output-head">
                <h2 id="output-heading">{output_label}</h2>
                <span class="stats">{stats}</span>
            </div>
            <div class="error-slot" aria-live="polite">
                {move || {
                    error()
                        .map(|err| {
                            view! {
                                <div class="error">
                                    <h3>{err.stage.title()}</h3>
                                    <pre data-testid="error-output">{err.message}</pre>
                                </div>
                            }
                        })
                }}
            </div>
            {move || truncation().map(|note| view! { <p class="truncated">{note}</p> })}
            <pre class="prompt" class:partial=has_error data-testid="prompt-output">
                {output}
            </pre>
        </section>
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
