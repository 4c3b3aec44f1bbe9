//! The page shell: header, main content, footer.

use leptos::prelude::*;

use crate::playground::Playground;

/// Root component of the Promptscope web app.
#[component]
pub fn App() -> impl IntoView {
    view! {
        <header class="site-header">
            <h1>"Promptscope"</h1>
            <p class="tagline">
                "See exactly what prompt Ollama builds. Everything runs in your browser; nothing is sent anywhere."
            </p>
        </header>
        <main>
            <Playground />
        </main>
        <footer class="site-footer">
            <p>
                "Templates are executed by a pure-Rust port of Go's text/template, aiming for Go's exact output and error messages."
            </p>
        </footer>
    }
}
