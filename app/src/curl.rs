//! Reading a pasted request: a JSON body, or a `curl` command such as
//! `curl http://localhost:11434/api/chat -d '{...}'` (its `-d`/`--data`
//! payload and the endpoint from its URL); and writing the `curl` command
//! that checks a render against a real Ollama (`"_debug_render_only": true`).

use serde_json::Value;

use crate::errpos::{self, Pos};
use crate::state::Endpoint;

/// Where a pasted request points Ollama, and its body.
#[derive(Clone, Debug, PartialEq)]
pub struct Imported {
    /// The endpoint, from the URL or guessed from the body; `None` when neither says.
    pub endpoint: Option<Endpoint>,
    /// The request body (a JSON object).
    pub body: Value,
    /// The URL of a `curl` command.
    pub url: Option<String>,
}

/// Why a paste could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportError {
    /// What is wrong.
    pub message: String,
    /// Where in the JSON payload, when the payload is not valid JSON.
    pub pos: Option<Pos>,
}

impl ImportError {
    fn new(message: impl Into<String>) -> ImportError {
        ImportError {
            message: message.into(),
            pos: None,
        }
    }
}

/// Whether `text` looks like a `curl` command rather than a JSON body.
pub fn is_curl(text: &str) -> bool {
    let t = text.trim_start();
    let t = t.strip_prefix('$').map_or(t, str::trim_start);
    let word: String = t.chars().take_while(|c| !c.is_whitespace()).collect();
    word == "curl" || word.ends_with("/curl") || word == "curl.exe"
}

/// Reads a pasted request body or `curl` command.
pub fn parse_import(text: &str) -> Result<Imported, ImportError> {
    if is_curl(text) {
        return parse_curl(text);
    }
    let body = parse_body(text)?;
    Ok(Imported {
        endpoint: infer_endpoint(&body),
        body,
        url: None,
    })
}

fn parse_body(text: &str) -> Result<Value, ImportError> {
    let body: Value = serde_json::from_str(text).map_err(|e| ImportError {
        message: e.to_string(),
        pos: Some(errpos::json(&e)),
    })?;
    if !body.is_object() {
        return Err(ImportError::new("the request body must be a JSON object"));
    }
    Ok(body)
}

/// `chat` when the body has `messages`, `generate` when it has `prompt` or `suffix`.
pub fn infer_endpoint(body: &Value) -> Option<Endpoint> {
    let obj = body.as_object()?;
    if obj.contains_key("messages") {
        Some(Endpoint::Chat)
    } else if obj.contains_key("prompt") || obj.contains_key("suffix") {
        Some(Endpoint::Generate)
    } else {
        None
    }
}

/// The endpoint a URL names (`.../api/chat`, `.../api/generate`).
pub fn endpoint_of_url(url: &str) -> Option<Endpoint> {
    let no_query = url.split(['?', '#']).next().unwrap_or("");
    let path = no_query.trim_end_matches('/');
    if path.ends_with("/api/chat") {
        Some(Endpoint::Chat)
    } else if path.ends_with("/api/generate") {
        Some(Endpoint::Generate)
    } else {
        None
    }
}

/// Splits a shell command line into words: single and double quotes,
/// `$'...'`, backslash escapes and line continuations (`\` or `^` before a
/// newline). Stops at an unquoted `|`, `;` or `&` (e.g. `| jq`).
pub fn shell_words(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('\n') => {}
                Some('\r') if chars.peek() == Some(&'\n') => {
                    chars.next();
                }
                Some(n) => {
                    word.push(n);
                    in_word = true;
                }
                None => {}
            },
            '^' if matches!(chars.peek(), Some('\n' | '\r')) => {
                // cmd.exe's line continuation.
                while matches!(chars.peek(), Some('\n' | '\r')) {
                    chars.next();
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err("a single quote is not closed".into()),
                    }
                }
            }
            '$' if chars.peek() == Some(&'\'') => {
                chars.next();
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some('\\') => match chars.next() {
                            Some('n') => word.push('\n'),
                            Some('t') => word.push('\t'),
                            Some('r') => word.push('\r'),
                            Some(c) => word.push(c),
                            None => return Err("a $'...' quote is not closed".into()),
                        },
                        Some(c) => word.push(c),
                        None => return Err("a $'...' quote is not closed".into()),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.peek() {
                            Some(&n @ ('"' | '\\' | '$' | '`')) => {
                                chars.next();
                                word.push(n);
                            }
                            Some('\n') => {
                                chars.next();
                            }
                            _ => word.push('\\'),
                        },
                        Some(c) => word.push(c),
                        None => return Err("a double quote is not closed".into()),
                    }
                }
            }
            '|' | ';' | '&' => break,
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

/// Options that take a value (the value is skipped).
const VALUE_OPTIONS: &[&str] = &[
    "-X",
    "--request",
    "-H",
    "--header",
    "-o",
    "--output",
    "-u",
    "--user",
    "-A",
    "--user-agent",
    "-e",
    "--referer",
    "-m",
    "--max-time",
    "--connect-timeout",
    "-w",
    "--write-out",
    "-b",
    "--cookie",
    "--retry",
    "-x",
    "--proxy",
];

/// Options whose value is the request body.
const DATA_OPTIONS: &[&str] = &[
    "-d",
    "--data",
    "--data-raw",
    "--data-binary",
    "--data-ascii",
    "--json",
];

fn parse_curl(text: &str) -> Result<Imported, ImportError> {
    let words = shell_words(text.trim_start().trim_start_matches('$')).map_err(ImportError::new)?;
    let mut data: Option<String> = None;
    let mut url: Option<String> = None;
    let mut args = words.into_iter().skip(1);
    while let Some(arg) = args.next() {
        if DATA_OPTIONS.contains(&arg.as_str()) {
            let value = args
                .next()
                .ok_or_else(|| ImportError::new(format!("{arg} has no value")))?;
            data = Some(value);
        } else if let Some(value) = arg.strip_prefix("-d").filter(|v| !v.is_empty()) {
            data = Some(value.to_string());
        } else if arg == "--url" {
            url = args.next();
        } else if VALUE_OPTIONS.contains(&arg.as_str()) {
            args.next();
        } else if arg.starts_with('-') {
            // A flag without a value (-s, -N, --no-buffer, -v ...).
        } else if url.is_none() {
            url = Some(arg);
        }
    }
    let data = data.ok_or_else(|| {
        ImportError::new("the curl command has no -d/--data payload (the request body)")
    })?;
    if data.starts_with('@') {
        return Err(ImportError::new(
            "the curl command reads its body from a file (-d @file); paste the JSON itself",
        ));
    }
    let body = parse_body(&data)?;
    let endpoint = match &url {
        Some(u) => Some(endpoint_of_url(u).ok_or_else(|| {
            ImportError::new(format!(
                "the URL {u} is neither /api/chat nor /api/generate"
            ))
        })?),
        None => infer_endpoint(&body),
    };
    Ok(Imported {
        endpoint,
        body,
        url,
    })
}

/// `text` quoted for a POSIX shell.
pub fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
}

/// The default Ollama address.
pub const OLLAMA_URL: &str = "http://localhost:11434";

/// A `curl` command that asks a running Ollama for the prompt it renders
/// for `body` (with `"_debug_render_only": true`), or `None` when `body`
/// is not a JSON object.
pub fn debug_curl(endpoint: Endpoint, body: &Value) -> Option<String> {
    let mut body = body.as_object()?.clone();
    body.insert("_debug_render_only".into(), Value::Bool(true));
    let json = Value::Object(body).to_string();
    Some(format!(
        "curl {OLLAMA_URL}{} -d {}",
        endpoint.path(),
        shell_quote(&json)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn splits_like_a_shell() {
        assert_eq!(
            shell_words(r#"curl -s "a b" 'c d' e\ f $'g\nh' "i\"j" | jq ."#).unwrap(),
            vec!["curl", "-s", "a b", "c d", "e f", "g\nh", "i\"j"]
        );
        assert_eq!(
            shell_words("curl \\\n  http://x \\\r\n  -d '{}'").unwrap(),
            vec!["curl", "http://x", "-d", "{}"]
        );
        assert!(shell_words("curl 'open").is_err());
    }

    #[test]
    fn reads_a_chat_curl() {
        let cmd = r#"curl http://localhost:11434/api/chat -d '{
  "model": "llama3.2",
  "messages": [{"role": "user", "content": "it'\''s here"}],
  "stream": false
}'"#;
        let got = parse_import(cmd).unwrap();
        assert_eq!(got.endpoint, Some(Endpoint::Chat));
        assert_eq!(got.body["model"], "llama3.2");
        assert_eq!(got.body["messages"][0]["content"], "it's here");
        assert_eq!(got.url.as_deref(), Some("http://localhost:11434/api/chat"));
    }

    #[test]
    fn reads_options_in_any_order() {
        let cmd = r#"$ curl -X POST -H "Content-Type: application/json" --data-raw "{\"model\":\"m\",\"prompt\":\"hi\"}" http://127.0.0.1:11434/api/generate/"#;
        let got = parse_import(cmd).unwrap();
        assert_eq!(got.endpoint, Some(Endpoint::Generate));
        assert_eq!(got.body, json!({"model": "m", "prompt": "hi"}));
        let got = parse_import(r#"curl -d'{"model":"m","messages":[]}'"#).unwrap();
        assert_eq!(got.endpoint, Some(Endpoint::Chat));
    }

    #[test]
    fn explains_bad_pastes() {
        let err = parse_import("curl http://localhost:11434/api/embed -d '{}'").unwrap_err();
        assert!(err.message.contains("/api/embed"), "{}", err.message);
        let err = parse_import("curl http://localhost:11434/api/chat").unwrap_err();
        assert!(err.message.contains("-d"), "{}", err.message);
        let err = parse_import("curl http://h/api/chat -d @body.json").unwrap_err();
        assert!(err.message.contains("file"), "{}", err.message);
        let err = parse_import("{\n  \"model\": 1,\n  x\n}").unwrap_err();
        assert_eq!(err.pos.map(|p| p.line), Some(3));
        assert!(parse_import("[1]").is_err());
    }

    #[test]
    fn bodies_guess_their_endpoint() {
        let got = parse_import(r#"{"model":"m","prompt":"p","suffix":"s"}"#).unwrap();
        assert_eq!(got.endpoint, Some(Endpoint::Generate));
        let got = parse_import(r#"{"model":"m"}"#).unwrap();
        assert_eq!(got.endpoint, None);
    }

    #[test]
    fn writes_a_debug_curl_that_reads_back() {
        let body = json!({"model": "m", "messages": [{"role": "user", "content": "it's"}]});
        let cmd = debug_curl(Endpoint::Chat, &body).unwrap();
        assert!(cmd.starts_with("curl http://localhost:11434/api/chat -d '"));
        let back = parse_import(&cmd).unwrap();
        assert_eq!(back.body["_debug_render_only"], true);
        assert_eq!(back.body["messages"][0]["content"], "it's");
        assert_eq!(back.endpoint, Some(Endpoint::Chat));
        assert!(debug_curl(Endpoint::Chat, &json!([])).is_none());
    }
}
