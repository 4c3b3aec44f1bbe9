//! Remembering the playground's text in the browser's local storage.
//!
//! Every failure (storage disabled, quota exceeded, private mode) is ignored:
//! the playground then simply starts from the example again.

fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// The value saved under `key`, if any.
pub fn load(key: &str) -> Option<String> {
    local_storage()?.get_item(key).ok().flatten()
}

/// Saves `value` under `key`, silently doing nothing if storage is unavailable.
pub fn save(key: &str, value: &str) {
    if let Some(storage) = local_storage() {
        let _ = storage.set_item(key, value);
    }
}
