//! Embedding: the page's query parameters (`?embed=1&origin=https://docs.example`)
//! and the origin allow-list for the `postMessage` API (docs/embedding.md).

/// Settings read from the page's query string.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Query {
    /// `embed=1`: the compact layout.
    pub embed: bool,
    /// `origin=...` (repeatable, or comma-separated): the origins whose
    /// messages are accepted, normalised.
    pub allowed_origins: Vec<String>,
    /// `lang=en|es|ru`.
    pub lang: Option<String>,
    /// `theme=light|dark`.
    pub theme: Option<String>,
}

/// Decodes `%XX` escapes and `+` (as a space) in a query component.
pub fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let escaped = (bytes[i] == b'%')
            .then(|| bytes.get(i + 1..i + 3))
            .flatten()
            .filter(|h| h.iter().all(u8::is_ascii_hexdigit))
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], escaped) {
            (_, Some(b)) => {
                out.push(b);
                i += 3;
                continue;
            }
            (b'+', None) => out.push(b' '),
            (b, None) => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// An origin as browsers write `event.origin`: `scheme://host[:port]`,
/// lower case, no path, no trailing slash. `None` for anything else
/// (including `*` and `null`, which are never allowed).
pub fn normalize_origin(s: &str) -> Option<String> {
    let s = s.trim();
    let (scheme, rest) = s.split_once("://")?;
    let scheme = scheme.to_ascii_lowercase();
    if scheme != "http" && scheme != "https" {
        return None;
    }
    let host = rest.split(['/', '?', '#']).next().unwrap_or("");
    if host.is_empty() || host.contains('@') || host.contains('*') {
        return None;
    }
    let host = host.to_ascii_lowercase();
    // Drop a default port, as browsers do.
    let host = match (scheme.as_str(), host.rsplit_once(':')) {
        ("http", Some((h, "80"))) | ("https", Some((h, "443"))) => h.to_string(),
        _ => host,
    };
    Some(format!("{scheme}://{host}"))
}

/// Reads the query string (with or without the leading `?`).
pub fn parse_query(query: &str) -> Query {
    let mut q = Query::default();
    let query = query.strip_prefix('?').unwrap_or(query);
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        let value = percent_decode(value);
        match percent_decode(key).as_str() {
            "embed" => q.embed = !matches!(value.as_str(), "0" | "false" | "no"),
            "origin" => {
                for o in value.split(',') {
                    if let Some(o) = normalize_origin(o) {
                        if !q.allowed_origins.contains(&o) {
                            q.allowed_origins.push(o);
                        }
                    }
                }
            }
            "lang" => q.lang = Some(value),
            "theme" => q.theme = Some(value),
            _ => {}
        }
    }
    q
}

impl Query {
    /// Whether a message from `origin` (a `MessageEvent.origin`) is accepted.
    pub fn allows(&self, origin: &str) -> bool {
        normalize_origin(origin).is_some_and(|o| self.allowed_origins.contains(&o))
    }
}

/// The message types of the `postMessage` API.
pub mod message {
    /// Parent → frame: `{type, state}` sets (part of) the state.
    pub const SET: &str = "promptscope:set";
    /// Parent → frame: `{type}` asks for the current result.
    pub const GET: &str = "promptscope:get";
    /// Frame → parent: `{type, prompt, error, source}` after each set or get.
    pub const RENDERED: &str = "promptscope:rendered";
    /// Frame → parent: `{type}` once the app is listening.
    pub const READY: &str = "promptscope:ready";
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_query() {
        let q = parse_query(
            "?embed=1&origin=https%3A%2F%2FDocs.Example%2F&origin=http://127.0.0.1:8000,*&lang=es",
        );
        assert!(q.embed);
        assert_eq!(
            q.allowed_origins,
            vec!["https://docs.example", "http://127.0.0.1:8000"]
        );
        assert_eq!(q.lang.as_deref(), Some("es"));
        assert!(q.allows("https://docs.example"));
        assert!(q.allows("http://127.0.0.1:8000"));
        assert!(!q.allows("http://127.0.0.1:8001"));
        assert!(!q.allows("null"));
        assert!(!q.allows("https://docs.example.evil.test"));
        assert!(!parse_query("").embed);
        assert!(!parse_query("embed=0").embed);
    }

    #[test]
    fn origins_normalise() {
        assert_eq!(
            normalize_origin("HTTPS://A.example:443/path").as_deref(),
            Some("https://a.example")
        );
        assert_eq!(
            normalize_origin("http://a.example:8080").as_deref(),
            Some("http://a.example:8080")
        );
        assert_eq!(normalize_origin("*"), None);
        assert_eq!(normalize_origin("null"), None);
        assert_eq!(normalize_origin("file:///x"), None);
        assert_eq!(normalize_origin("https://user@a.example"), None);
    }

    #[test]
    fn percent_decoding() {
        assert_eq!(percent_decode("a%20b+c%2"), "a b c%2");
        assert_eq!(percent_decode("%E2%9C%93"), "✓");
        assert_eq!(percent_decode("%zz"), "%zz");
    }
}
