//! Reading a pasted request: a JSON body, or a `curl` command such as
//! `curl http://localhost:11434/api/chat -d '{...}'` (its `-d`/`--data`
//! payload and the endpoint from its URL: `/api/chat`, `/api/generate` or
//! one of the compatibility routes, `/v1/chat/completions`,
//! `/v1/completions`, `/v1/responses`, `/v1/messages`, on any host); a bare
//! body's endpoint is guessed from its shape. And writing the `curl`
//! command that checks a render against a real Ollama
//! (`"_debug_render_only": true` where the route has it).

use serde_json::{Map, Value};

use crate::errpos::{self, Pos};
use crate::state::Endpoint;

/// Where a pasted request points Ollama, and its body.
#[derive(Clone, Debug, PartialEq)]
pub struct Imported {
    /// The endpoint, from the URL or guessed from the body; `None` when
    /// neither says for sure.
    pub endpoint: Option<Endpoint>,
    /// Without a sure endpoint: the endpoints the body's shape fits, the
    /// likeliest first (empty when the shape says nothing).
    pub candidates: Vec<Endpoint>,
    /// The request body (a JSON object).
    pub body: Value,
    /// The URL of a `curl` command.
    pub url: Option<String>,
}

impl Imported {
    /// The endpoint to switch to from `current`: the sure one, else
    /// `current` when the body fits it, else the likeliest candidate;
    /// `None` keeps `current`.
    pub fn choose(&self, current: Endpoint) -> Option<Endpoint> {
        if self.endpoint.is_some() {
            return self.endpoint;
        }
        if self.candidates.contains(&current) {
            return None;
        }
        self.candidates.first().copied()
    }
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
    let candidates = infer_endpoints(&body);
    Ok(Imported {
        endpoint: sure(&candidates),
        candidates,
        body,
        url: None,
    })
}

fn sure(candidates: &[Endpoint]) -> Option<Endpoint> {
    match candidates {
        [one] => Some(*one),
        _ => None,
    }
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

/// The endpoint a body's shape says, when only one fits (see
/// [`infer_endpoints`]).
pub fn infer_endpoint(body: &Value) -> Option<Endpoint> {
    sure(&infer_endpoints(body))
}

/// Which of an object's keys are there (not null).
fn has(obj: &Map<String, Value>, key: &str) -> bool {
    obj.get(key).is_some_and(|v| !v.is_null())
}

/// The `type`s of the blocks of a content list (`[{"type": "text"}, ...]`).
fn block_types(content: Option<&Value>) -> Vec<&str> {
    content
        .and_then(Value::as_array)
        .map(|blocks| {
            blocks
                .iter()
                .filter_map(|b| b.get("type").and_then(Value::as_str))
                .collect()
        })
        .unwrap_or_default()
}

/// Signs in a `messages` body of each dialect: (native `/api/chat`,
/// OpenAI chat completions, Anthropic Messages).
fn messages_dialects(obj: &Map<String, Value>) -> (bool, bool, bool) {
    let (mut native, mut openai, mut anthropic) = (false, false, false);
    // top-level fields only one of them has
    native |= [
        "think",
        "options",
        "format",
        "keep_alive",
        "truncate",
        "shift",
    ]
    .iter()
    .any(|k| has(obj, k));
    openai |= [
        "max_completion_tokens",
        "response_format",
        "stream_options",
        "n",
        "reasoning_effort",
        "parallel_tool_calls",
        "frequency_penalty",
        "presence_penalty",
        "logit_bias",
        "seed",
        "stop",
        "user",
        "service_tier",
    ]
    .iter()
    .any(|k| has(obj, k));
    anthropic |= ["stop_sequences", "top_k", "anthropic_version"]
        .iter()
        .any(|k| has(obj, k));
    anthropic |= obj.get("system").is_some_and(Value::is_array);
    anthropic |= obj.get("thinking").is_some_and(Value::is_object);
    if let Some(tools) = obj.get("tools").and_then(Value::as_array) {
        for t in tools {
            anthropic |= t.get("input_schema").is_some();
            let ty = t.get("type").and_then(Value::as_str).unwrap_or("");
            anthropic |= ty.starts_with("web_search_") || ty.starts_with("bash_");
        }
    }
    let messages = obj.get("messages").and_then(Value::as_array);
    for m in messages.into_iter().flatten() {
        let role = m.get("role").and_then(Value::as_str).unwrap_or("");
        openai |= role == "developer";
        openai |= m.get("tool_call_id").is_some();
        native |= m.get("images").is_some() || m.get("tool_name").is_some();
        native |= m.get("thinking").is_some_and(Value::is_string);
        for call in m
            .get("tool_calls")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            match call.pointer("/function/arguments") {
                Some(Value::String(_)) => openai = true,
                Some(Value::Object(_)) => native = true,
                _ => {}
            }
        }
        for ty in block_types(m.get("content")) {
            match ty {
                "tool_use"
                | "tool_result"
                | "thinking"
                | "redacted_thinking"
                | "image"
                | "document"
                | "server_tool_use"
                | "web_search_tool_result" => anthropic = true,
                "image_url" | "input_audio" | "file" | "refusal" => openai = true,
                _ => {}
            }
        }
    }
    (native, openai, anthropic)
}

/// The endpoints a body's shape fits, the likeliest first; empty when the
/// shape says nothing. One endpoint when it is unambiguous:
/// `input` is the Responses API's; `messages` is `/api/chat`'s unless
/// something only OpenAI's chat completions (string tool-call arguments,
/// `tool_call_id`, `max_completion_tokens`, `response_format`, `image_url`
/// parts...) or only Anthropic's Messages (typed blocks such as `tool_use`
/// and `tool_result`, a `system` list, tools with `input_schema`...) has
/// says otherwise, `max_tokens` alone fitting both; `prompt` (or `suffix`)
/// is `/api/generate`'s unless OpenAI's completions fields (`max_tokens`,
/// top-level sampling fields) appear without native ones.
pub fn infer_endpoints(body: &Value) -> Vec<Endpoint> {
    let Some(obj) = body.as_object() else {
        return Vec::new();
    };
    if has(obj, "messages") {
        let (native, openai, anthropic) = messages_dialects(obj);
        let either = [
            "max_tokens",
            "temperature",
            "top_p",
            "tool_choice",
            "metadata",
        ]
        .iter()
        .any(|k| has(obj, k));
        return match (openai, anthropic) {
            (true, false) => vec![Endpoint::OpenAiChat],
            (false, true) => vec![Endpoint::AnthropicMessages],
            (true, true) => vec![Endpoint::OpenAiChat, Endpoint::AnthropicMessages],
            (false, false) if either && !native => {
                vec![Endpoint::OpenAiChat, Endpoint::AnthropicMessages]
            }
            (false, false) => vec![Endpoint::Chat],
        };
    }
    if [
        "input",
        "instructions",
        "max_output_tokens",
        "previous_response_id",
    ]
    .iter()
    .any(|k| has(obj, k))
    {
        return vec![Endpoint::OpenAiResponses];
    }
    if has(obj, "prompt") || has(obj, "suffix") {
        let native = [
            "raw",
            "template",
            "system",
            "context",
            "images",
            "options",
            "think",
            "format",
            "keep_alive",
        ]
        .iter()
        .any(|k| has(obj, k));
        let openai = [
            "max_tokens",
            "n",
            "echo",
            "best_of",
            "logit_bias",
            "stop",
            "temperature",
            "top_p",
            "seed",
            "frequency_penalty",
            "presence_penalty",
            "stream_options",
            "user",
        ]
        .iter()
        .any(|k| has(obj, k))
            || obj.get("prompt").is_some_and(Value::is_array)
            || obj.get("logprobs").is_some_and(Value::is_number);
        return if openai && !native {
            vec![Endpoint::OpenAiCompletions]
        } else {
            vec![Endpoint::Generate]
        };
    }
    Vec::new()
}

/// The endpoint a URL names: `.../api/chat`, `.../api/generate`, or a
/// compatibility route's `.../v1/chat/completions`, `.../v1/completions`,
/// `.../v1/responses`, `.../v1/messages` (any host, any prefix).
pub fn endpoint_of_url(url: &str) -> Option<Endpoint> {
    let no_query = url.split(['?', '#']).next().unwrap_or("");
    let path = no_query.trim_end_matches('/');
    Endpoint::ALL.into_iter().find(|e| path.ends_with(e.path()))
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
    let (endpoint, candidates) = match &url {
        Some(u) => {
            let e = endpoint_of_url(u).ok_or_else(|| {
                ImportError::new(format!(
                    "the URL {u} is none of /api/chat, /api/generate, /v1/chat/completions, /v1/completions, /v1/responses, /v1/messages, /api/embed, /api/embeddings, /v1/embeddings"
                ))
            })?;
            (Some(e), vec![e])
        }
        None => {
            let c = infer_endpoints(&body);
            (sure(&c), c)
        }
    };
    Ok(Imported {
        endpoint,
        candidates,
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

/// Whether Ollama's handler for `endpoint` reads `_debug_render_only`
/// (render the prompt, run nothing): the native endpoints and the OpenAI
/// chat completions and completions routes do (their request types have
/// the field); the Responses and Anthropic Messages routes do not.
pub fn renders_only(endpoint: Endpoint) -> bool {
    !matches!(
        endpoint,
        Endpoint::OpenAiResponses
            | Endpoint::AnthropicMessages
            | Endpoint::Embed
            | Endpoint::Embeddings
            | Endpoint::OpenAiEmbeddings
    )
}

/// A `curl` command that sends `body` to `endpoint` on a running Ollama,
/// with `"_debug_render_only": true` where [`renders_only`] says the
/// handler reads it (it then answers with the prompt and runs nothing;
/// elsewhere the command runs the model); `None` when `body` is not a
/// JSON object.
pub fn debug_curl(endpoint: Endpoint, body: &Value) -> Option<String> {
    let mut body = body.as_object()?.clone();
    if renders_only(endpoint) {
        body.insert("_debug_render_only".into(), Value::Bool(true));
    }
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
        let err = parse_import("curl http://localhost:11434/api/pull -d '{}'").unwrap_err();
        assert!(err.message.contains("/api/pull"), "{}", err.message);
        // the embedding routes are doors too
        for (url, e) in [
            ("/api/embed", Endpoint::Embed),
            ("/api/embeddings", Endpoint::Embeddings),
            ("/v1/embeddings", Endpoint::OpenAiEmbeddings),
        ] {
            let got = parse_import(&format!(
                "curl http://localhost:11434{url} -d '{{\"model\":\"m\",\"input\":\"x\"}}'"
            ))
            .unwrap();
            assert_eq!(got.endpoint, Some(e), "{url}");
        }
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
    fn reads_curls_to_every_compatibility_route() {
        let cases = [
            (
                "http://localhost:11434/v1/chat/completions",
                Endpoint::OpenAiChat,
            ),
            (
                "https://ollama.example:443/v1/completions",
                Endpoint::OpenAiCompletions,
            ),
            (
                "http://10.0.0.2:11434/v1/responses/",
                Endpoint::OpenAiResponses,
            ),
            (
                "http://localhost:11434/v1/messages?beta=true",
                Endpoint::AnthropicMessages,
            ),
            (
                "https://proxy.example/ollama/v1/messages",
                Endpoint::AnthropicMessages,
            ),
        ];
        for (url, endpoint) in cases {
            let cmd = format!(
                r#"curl {url} \
  -H "Content-Type: application/json" \
  -H "Authorization: Bearer ollama" \
  -H "x-api-key: sk-ant-xxx" \
  -H "anthropic-version: 2023-06-01" \
  -d '{{"model": "m", "messages": [{{"role": "user", "content": "hi"}}]}}'"#
            );
            let got = parse_import(&cmd).unwrap();
            assert_eq!(got.endpoint, Some(endpoint), "{url}");
            assert_eq!(got.choose(Endpoint::Chat), Some(endpoint), "{url}");
            assert_eq!(got.body["messages"][0]["content"], "hi");
            assert_eq!(got.url.as_deref(), Some(url));
        }
        // the URL wins over the body's shape, -X and --json included
        let got = parse_import(
            r#"curl -X POST --json '{"model":"m","prompt":"p","max_tokens":3}' http://h:1/v1/chat/completions"#,
        )
        .unwrap();
        assert_eq!(got.endpoint, Some(Endpoint::OpenAiChat));
    }

    fn guess(body: Value) -> Vec<Endpoint> {
        parse_import(&body.to_string()).unwrap().candidates
    }

    #[test]
    fn responses_bodies_have_input() {
        assert_eq!(
            guess(json!({"model": "m", "input": "hi"})),
            [Endpoint::OpenAiResponses]
        );
        assert_eq!(
            guess(json!({"model": "m", "instructions": "be brief",
                "input": [{"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hi"}]}]})),
            [Endpoint::OpenAiResponses]
        );
    }

    #[test]
    fn anthropic_bodies_have_typed_blocks_or_a_system_list() {
        let tool_turns = json!({"model": "m", "max_tokens": 1024, "messages": [
            {"role": "user", "content": "list files"},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "ls", "input": {}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "a.txt"}]}]});
        assert_eq!(guess(tool_turns), [Endpoint::AnthropicMessages]);
        let system_list = json!({"model": "m", "max_tokens": 10,
            "system": [{"type": "text", "text": "x", "cache_control": {"type": "ephemeral"}}],
            "messages": [{"role": "user", "content": "hi"}]});
        assert_eq!(guess(system_list), [Endpoint::AnthropicMessages]);
        let schema_tools = json!({"model": "m", "max_tokens": 10,
            "tools": [{"name": "f", "input_schema": {"type": "object"}}],
            "messages": [{"role": "user", "content": "hi"}]});
        assert_eq!(guess(schema_tools), [Endpoint::AnthropicMessages]);
        let thinking = json!({"model": "m", "max_tokens": 10, "thinking": {"type": "enabled", "budget_tokens": 5},
            "messages": [{"role": "user", "content": "hi"}]});
        assert_eq!(guess(thinking), [Endpoint::AnthropicMessages]);
    }

    #[test]
    fn openai_chat_bodies_have_openai_shapes() {
        let calls = json!({"model": "m", "messages": [
            {"role": "user", "content": "weather?"},
            {"role": "assistant", "content": null, "tool_calls": [{"id": "call_1", "type": "function",
              "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}}]},
            {"role": "tool", "tool_call_id": "call_1", "content": "18"}]});
        assert_eq!(guess(calls), [Endpoint::OpenAiChat]);
        for extra in [
            json!({"max_completion_tokens": 5}),
            json!({"response_format": {"type": "json_object"}}),
            json!({"messages": [{"role": "user", "content": [
                {"type": "text", "text": "what is this?"},
                {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}]}]}),
            json!({"messages": [{"role": "developer", "content": "x"}]}),
            json!({"max_tokens": 5, "n": 2}),
        ] {
            let mut body = json!({"model": "m", "messages": [{"role": "user", "content": "hi"}]});
            for (k, v) in extra.as_object().unwrap() {
                body[k] = v.clone();
            }
            assert_eq!(guess(body.clone()), [Endpoint::OpenAiChat], "{body}");
        }
    }

    #[test]
    fn ambiguous_bodies_keep_a_fitting_endpoint() {
        // max_tokens and plain messages: OpenAI's chat completions or Anthropic's Messages
        let got = parse_import(
            r#"{"model": "m", "max_tokens": 100, "messages": [{"role": "user", "content": "hi"}]}"#,
        )
        .unwrap();
        assert_eq!(got.endpoint, None);
        assert_eq!(
            got.candidates,
            [Endpoint::OpenAiChat, Endpoint::AnthropicMessages]
        );
        assert_eq!(got.choose(Endpoint::AnthropicMessages), None);
        assert_eq!(got.choose(Endpoint::OpenAiChat), None);
        assert_eq!(got.choose(Endpoint::Generate), Some(Endpoint::OpenAiChat));
        // nothing to go by: the endpoint stays
        let got = parse_import(r#"{"model": "m"}"#).unwrap();
        assert_eq!(got.choose(Endpoint::OpenAiResponses), None);
    }

    #[test]
    fn completions_bodies_have_openai_fields_and_no_native_ones() {
        assert_eq!(
            guess(json!({"model": "m", "prompt": "def f():", "max_tokens": 16})),
            [Endpoint::OpenAiCompletions]
        );
        assert_eq!(
            guess(json!({"model": "m", "prompt": "x", "temperature": 0, "stop": ["\n"]})),
            [Endpoint::OpenAiCompletions]
        );
        // native fields: /api/generate
        assert_eq!(
            guess(json!({"model": "m", "prompt": "x", "max_tokens": 16, "raw": true})),
            [Endpoint::Generate]
        );
        assert_eq!(
            guess(json!({"model": "m", "prompt": "x", "options": {"temperature": 0}})),
            [Endpoint::Generate]
        );
    }

    #[test]
    fn native_bodies_keep_their_guesses() {
        assert_eq!(
            guess(json!({"model": "m", "messages": [{"role": "user", "content": "hi"}]})),
            [Endpoint::Chat]
        );
        assert_eq!(
            guess(
                json!({"model": "m", "think": true, "options": {"num_ctx": 8}, "messages": [
                {"role": "assistant", "tool_calls": [{"function": {"name": "f", "arguments": {"a": 1}}}]},
                {"role": "tool", "tool_name": "f", "content": "1"}]})
            ),
            [Endpoint::Chat]
        );
        // native fields beside max_tokens: still /api/chat (max_tokens is dropped there)
        assert_eq!(
            guess(json!({"model": "m", "max_tokens": 5, "options": {}, "messages": []})),
            [Endpoint::Chat]
        );
        assert_eq!(
            guess(json!({"model": "m", "prompt": "p"})),
            [Endpoint::Generate]
        );
        assert_eq!(guess(json!({"model": "m"})), []);
    }

    #[test]
    fn debug_curls_use_the_route_and_say_when_it_cannot_render_only() {
        let body = json!({"model": "m", "messages": [{"role": "user", "content": "hi"}]});
        for e in Endpoint::ALL {
            let cmd = debug_curl(e, &body).unwrap();
            assert!(
                cmd.starts_with(&format!("curl http://localhost:11434{} -d '", e.path())),
                "{cmd}"
            );
            let back = parse_import(&cmd).unwrap();
            assert_eq!(back.endpoint, Some(e));
            assert_eq!(
                back.body.get("_debug_render_only").is_some(),
                renders_only(e),
                "{e:?}"
            );
        }
        assert!(renders_only(Endpoint::OpenAiChat) && renders_only(Endpoint::OpenAiCompletions));
        assert!(
            !renders_only(Endpoint::OpenAiResponses) && !renders_only(Endpoint::AnthropicMessages)
        );
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
