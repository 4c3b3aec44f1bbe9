//! Share links: the whole state, deflated and base64url-encoded, in the URL
//! fragment (`#s=...`). Fragments never reach a server.

use crate::base64url;
use crate::state::{Form, State};

/// The fragment parameter that holds a shared state.
pub const KEY: &str = "s";

/// The most bytes a shared state may inflate to (a guard against hostile links).
pub const MAX_INFLATED: usize = 16 * 1024 * 1024;

/// The fragment, without `#`, that holds `state`: `s=<base64url(deflate(json))>`.
pub fn encode(state: &State) -> String {
    let json = state.to_json_string(Form::Exact);
    let deflated = miniz_oxide::deflate::compress_to_vec(json.as_bytes(), 9);
    format!("{KEY}={}", base64url::encode(&deflated))
}

/// Reads the state from a URL fragment (with or without the leading `#`);
/// `None` when the fragment holds no shared state.
pub fn decode(fragment: &str) -> Option<Result<State, String>> {
    let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
    let payload = fragment
        .split('&')
        .find_map(|part| part.strip_prefix(KEY)?.strip_prefix('='))?;
    Some(decode_payload(payload))
}

fn decode_payload(payload: &str) -> Result<State, String> {
    let deflated = base64url::decode(payload).map_err(|e| format!("share link: {e}"))?;
    let json = miniz_oxide::inflate::decompress_to_vec_with_limit(&deflated, MAX_INFLATED)
        .map_err(|e| {
            format!(
                "share link: the compressed state is damaged ({:?})",
                e.status
            )
        })?;
    let text = String::from_utf8(json).map_err(|_| "share link: not UTF-8".to_string())?;
    State::from_json_str(&text).map_err(|e| format!("share link: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::examples;

    #[test]
    fn round_trips_every_example() {
        for ex in examples::all() {
            let state = ex.state();
            let fragment = encode(&state);
            assert!(fragment.starts_with("s="));
            let back = decode(&format!("#{fragment}")).unwrap().unwrap();
            assert_eq!(back, state, "{}", ex.id);
        }
    }

    #[test]
    fn compresses() {
        let state = examples::all()[0].state();
        let plain = state.to_json_string(Form::Exact).len();
        assert!(encode(&state).len() < plain, "no gain over {plain} bytes");
    }

    #[test]
    fn finds_the_key_among_others() {
        let state = examples::all()[1].state();
        let fragment = format!("#x=1&{}&y=2", encode(&state));
        assert_eq!(decode(&fragment).unwrap().unwrap(), state);
        assert!(decode("#other=1").is_none());
        assert!(decode("").is_none());
    }

    #[test]
    fn damaged_links_give_errors() {
        assert!(decode("#s=!!!").unwrap().is_err());
        assert!(decode("#s=AAAA").unwrap().is_err());
        let ok = encode(&examples::all()[0].state());
        let cut = &ok[..ok.len() / 2];
        assert!(decode(cut).unwrap().is_err());
    }
}
