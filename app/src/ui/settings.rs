//! Language and theme switchers.

use leptos::prelude::*;

use promptscope_app::i18n::Lang;

use crate::ui::store::{Store, Theme};

/// The language and theme pickers.
#[component]
pub fn Settings() -> impl IntoView {
    let store = expect_context::<Store>();
    view! {
        <div class="settings">
            <label for="lang-select" class="sr-only">{move || store.t("settings.language")}</label>
            <select
                id="lang-select"
                data-testid="lang-select"
                title=move || store.t("settings.language")
                on:change=move |ev| {
                    if let Some(l) = Lang::from_tag(&event_target_value(&ev)) {
                        store.lang.set(l);
                    }
                }
            >
                {Lang::ALL
                    .iter()
                    .map(|l| {
                        view! {
                            <option value=l.code() lang=l.code() selected=move || store.lang.get() == *l>
                                {l.native_name()}
                            </option>
                        }
                    })
                    .collect_view()}
            </select>
            <label for="theme-select" class="sr-only">{move || store.t("settings.theme")}</label>
            <select
                id="theme-select"
                data-testid="theme-select"
                title=move || store.t("settings.theme")
                on:change=move |ev| {
                    if let Some(t) = Theme::parse(&event_target_value(&ev)) {
                        store.theme.set(t);
                    }
                }
            >
                {[Theme::System, Theme::Light, Theme::Dark]
                    .into_iter()
                    .map(|t| {
                        let key = match t {
                            Theme::System => "settings.theme_system",
                            Theme::Light => "settings.theme_light",
                            Theme::Dark => "settings.theme_dark",
                        };
                        view! {
                            <option value=t.as_str() selected=move || store.theme.get() == t>
                                {move || store.t(key)}
                            </option>
                        }
                    })
                    .collect_view()}
            </select>
        </div>
    }
}
