//! Small wrappers over browser APIs. Every one fails soft: in a sandboxed
//! iframe there is no local storage, the clipboard may be refused, and the
//! page must keep working.

use wasm_bindgen::{JsCast, JsValue};

fn window() -> Option<web_sys::Window> {
    web_sys::window()
}

fn local_storage() -> Option<web_sys::Storage> {
    window()?.local_storage().ok().flatten()
}

/// The value saved under `key`, if storage is available and has it.
pub fn load(key: &str) -> Option<String> {
    local_storage()?.get_item(key).ok().flatten()
}

/// Saves `value` under `key`; does nothing if storage is unavailable or full.
pub fn save(key: &str, value: &str) {
    if let Some(storage) = local_storage() {
        let _ = storage.set_item(key, value);
    }
}

/// Today's date in UTC, `YYYY-MM-DD` (the engine cannot read the clock on wasm).
pub fn today() -> String {
    let d = js_sys::Date::new_0();
    format!(
        "{:04}-{:02}-{:02}",
        d.get_utc_full_year(),
        d.get_utc_month() + 1,
        d.get_utc_date()
    )
}

/// The page's query string (`?embed=1...`), or empty.
pub fn query() -> String {
    window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default()
}

/// The page's fragment (`#s=...`), or empty.
pub fn fragment() -> String {
    window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default()
}

/// The page's address without its fragment.
pub fn href_without_fragment() -> String {
    let href = window()
        .and_then(|w| w.location().href().ok())
        .unwrap_or_default();
    match href.find('#') {
        Some(i) => href[..i].to_string(),
        None => href,
    }
}

/// Replaces the address bar's URL without reloading or adding history.
pub fn replace_url(url: &str) {
    if let Some(history) = window().and_then(|w| w.history().ok()) {
        let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(url));
    }
}

/// The browser's preferred languages, most preferred first.
pub fn languages() -> Vec<String> {
    let Some(nav) = window().map(|w| w.navigator()) else {
        return Vec::new();
    };
    let mut out: Vec<String> = nav
        .languages()
        .iter()
        .filter_map(|v| v.as_string())
        .collect();
    if let Some(l) = nav.language() {
        out.push(l);
    }
    out
}

/// Sets (or with `None` removes) an attribute of the `<html>` element.
pub fn set_root_attribute(name: &str, value: Option<&str>) {
    let Some(root) = window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    else {
        return;
    };
    let _ = match value {
        Some(v) => root.set_attribute(name, v),
        None => root.remove_attribute(name),
    };
}

/// Copies `text` to the clipboard, then calls `done` with whether it worked
/// (the clipboard may be missing or refused, e.g. in a sandboxed frame).
pub fn copy(text: &str, done: impl FnOnce(bool) + 'static) {
    let Some(w) = window() else {
        done(false);
        return;
    };
    let clipboard = w.navigator().clipboard();
    if clipboard.is_undefined() {
        done(false);
        return;
    }
    let promise = clipboard.write_text(text);
    wasm_bindgen_futures::spawn_local(async move {
        done(wasm_bindgen_futures::JsFuture::from(promise).await.is_ok());
    });
}

/// Offers `text` as a file download named `name`.
pub fn download(name: &str, text: &str, mime: &str) {
    let Some(document) = window().and_then(|w| w.document()) else {
        return;
    };
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options) else {
        return;
    };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else {
        return;
    };
    if let Ok(a) = document.create_element("a") {
        if let Ok(a) = a.dyn_into::<web_sys::HtmlAnchorElement>() {
            a.set_href(&url);
            a.set_download(name);
            a.set_rel("noopener");
            if let Some(body) = document.body() {
                let _ = body.append_child(&a);
                a.click();
                let _ = body.remove_child(&a);
            }
        }
    }
    let _ = web_sys::Url::revoke_object_url(&url);
}

/// Milliseconds since the page started (`performance.now()`).
pub fn now_ms() -> f64 {
    window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// `performance.mark(name)`.
pub fn mark(name: &str) {
    if let Some(p) = window().and_then(|w| w.performance()) {
        let _ = p.mark(name);
    }
}

/// `performance.measure(name, start)` (then forgets the start mark).
pub fn measure(name: &str, start: &str) {
    if let Some(p) = window().and_then(|w| w.performance()) {
        let _ = p.measure_with_start_mark(name, start);
        p.clear_marks_with_mark_name(start);
    }
}

/// The parent window when the app runs in a frame.
pub fn parent() -> Option<web_sys::Window> {
    let w = window()?;
    let parent = w.parent().ok().flatten()?;
    // A top-level window is its own parent.
    let same: &JsValue = parent.as_ref();
    if same == AsRef::<JsValue>::as_ref(&w) {
        None
    } else {
        Some(parent)
    }
}

/// Posts a JSON message to `target` for `origin`.
pub fn post_json(target: &web_sys::Window, message: &serde_json::Value, origin: &str) {
    if let Ok(v) = js_sys::JSON::parse(&message.to_string()) {
        let _ = target.post_message(&v, origin);
    }
}

/// A message's data as JSON (structured-clone objects, or a JSON string).
pub fn message_json(data: &JsValue) -> Option<serde_json::Value> {
    if let Some(s) = data.as_string() {
        return serde_json::from_str(&s).ok();
    }
    let text = js_sys::JSON::stringify(data).ok()?.as_string()?;
    serde_json::from_str(&text).ok()
}
