//! Ollama's compatibility routes (`/v1/chat/completions`, `/v1/completions`,
//! `/v1/responses`, `/v1/messages`): the body a client sends, decoded as
//! gin's `ShouldBindJSON` decodes it, converted as `openai.FromChatRequest`,
//! `FromCompleteRequest`, `FromResponsesRequest` and
//! `anthropic.FromMessagesRequest` convert it, with the middleware's checks
//! around them (middleware/openai.go, middleware/anthropic.go), and written
//! as the middleware writes the native request it hands on
//! (`json.NewEncoder(&b).Encode(chatReq)`). Errors come out in the route's
//! own error shape.

pub mod anthropic;
pub(crate) mod marshal;
pub mod notes;
pub mod openai;
pub mod reply;
mod reply_anthropic;
mod reply_responses;
pub mod responses;

use serde_json::Value as Json;

use crate::gojson::J;
use crate::server::Endpoint;

pub use marshal::{ApiMessage, ApiToolCall};

/// A compatibility route.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Route {
    /// `POST /v1/chat/completions`
    OpenAiChat,
    /// `POST /v1/completions`
    OpenAiCompletions,
    /// `POST /v1/responses`
    OpenAiResponses,
    /// `POST /v1/messages`
    AnthropicMessages,
}

impl Route {
    /// The route for a render case's `endpoint` name.
    pub fn from_name(name: &str) -> Option<Route> {
        Some(match name {
            "openai-chat" => Route::OpenAiChat,
            "openai-completions" => Route::OpenAiCompletions,
            "openai-responses" => Route::OpenAiResponses,
            "anthropic-messages" => Route::AnthropicMessages,
            _ => return None,
        })
    }

    /// The render case's name of the route.
    pub fn name(self) -> &'static str {
        match self {
            Route::OpenAiChat => "openai-chat",
            Route::OpenAiCompletions => "openai-completions",
            Route::OpenAiResponses => "openai-responses",
            Route::AnthropicMessages => "anthropic-messages",
        }
    }

    /// The URL path.
    pub fn path(self) -> &'static str {
        match self {
            Route::OpenAiChat => "/v1/chat/completions",
            Route::OpenAiCompletions => "/v1/completions",
            Route::OpenAiResponses => "/v1/responses",
            Route::AnthropicMessages => "/v1/messages",
        }
    }

    /// The native endpoint the converted request goes to.
    pub fn native(self) -> Endpoint {
        match self {
            Route::OpenAiCompletions => Endpoint::Generate,
            _ => Endpoint::Chat,
        }
    }

    /// The error body this route answers with for a status and message.
    /// `newline`: written by `json.NewEncoder` (errors of the handler
    /// behind the middleware) rather than `c.AbortWithStatusJSON` (the
    /// middleware's own). Anthropic's carries a random `request_id`;
    /// `request_id` gives it.
    pub fn error_body(self, status: u16, message: &str, newline: bool, request_id: &str) -> String {
        let mut s = match self {
            Route::AnthropicMessages => J::Obj(vec![
                ("type".into(), J::s("error")),
                (
                    "error".into(),
                    J::Obj(vec![
                        ("type".into(), J::s(anthropic::error_type(status))),
                        ("message".into(), J::s(message)),
                    ]),
                ),
                ("request_id".into(), J::s(request_id)),
            ]),
            _ => J::Obj(vec![(
                "error".into(),
                J::Obj(vec![
                    ("message".into(), J::s(message)),
                    ("type".into(), J::s(openai::error_type(status))),
                    ("param".into(), J::Null),
                    ("code".into(), J::Null),
                ]),
            )]),
        }
        .to_json();
        if newline {
            s.push('\n');
        }
        s
    }
}

/// A converted request.
#[derive(Clone, Debug)]
pub struct Converted {
    /// Which native handler it goes to.
    pub endpoint: Endpoint,
    /// The bytes the middleware writes as the native request body
    /// (`json.Encoder` output, newline included).
    pub text: String,
    /// The same, parsed.
    pub request: Json,
    /// The Anthropic middleware's `c.Set("relax_thinking", true)`: a model
    /// without thinking drops `think` instead of failing.
    pub relax_thinking: bool,
    /// Whether the client asked for a stream.
    pub stream: bool,
    /// `stream_options.include_usage`.
    pub include_usage: bool,
    /// The request declares a built-in web-search tool.
    pub web_search: bool,
}

/// A request the middleware refuses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused {
    /// HTTP status.
    pub status: u16,
    /// The error text.
    pub message: String,
}

impl Refused {
    fn bad(message: impl Into<String>) -> Refused {
        Refused {
            status: 400,
            message: message.into(),
        }
    }
}

/// The server's environment, where a conversion depends on it.
#[derive(Clone, Copy, Debug, Default)]
pub struct Env {
    /// `OLLAMA_NO_CLOUD`: the Anthropic route refuses a built-in web-search
    /// tool for a cloud model (403).
    pub no_cloud: bool,
    /// The Ollama release whose middleware converts.
    pub release: changes::Release,
}

impl Env {
    /// `envconfig.Bool`: set and not a false value of `strconv.ParseBool`.
    pub fn truthy(v: Option<&str>) -> bool {
        match v.map(str::trim) {
            None | Some("") => false,
            Some(s) => !matches!(s, "0" | "f" | "F" | "false" | "FALSE" | "False"),
        }
    }
}

/// Converts a route's request body.
pub fn convert(route: Route, body: &Json) -> Result<Converted, Refused> {
    convert_with(route, body, Env::default())
}

/// Converts a body given as text (what a server receives): as
/// [`convert_with`], and Go's errors quote number literals exactly as
/// written. `None` when the text is not one JSON value serde reads.
pub fn convert_text(route: Route, text: &str, env: Env) -> Option<Result<Converted, Refused>> {
    let body: Json = serde_json::from_str(text).ok()?;
    Some(crate::godecode::with_literals(text, || {
        convert_with(route, &body, env)
    }))
}

/// Converts a route's request body in an environment.
pub fn convert_with(route: Route, body: &Json, env: Env) -> Result<Converted, Refused> {
    let rules = changes::Rules::of_release(env.release);
    let (endpoint, j, flags) = match route {
        Route::OpenAiChat => openai::chat(body, &rules)?,
        Route::OpenAiCompletions => openai::completions(body)?,
        Route::OpenAiResponses => responses::convert(body, &rules)?,
        Route::AnthropicMessages => anthropic::convert(body)?,
    };
    if route == Route::AnthropicMessages && flags.web_search && env.no_cloud {
        // The middleware's cloud gate, after the conversion.
        let model = body
            .as_object()
            .and_then(|o| {
                o.iter()
                    .rev()
                    .find(|(k, _)| crate::godecode::fold_eq(k, "model"))
            })
            .and_then(|(_, v)| v.as_str())
            .unwrap_or("");
        let cloud = crate::modelref::parse_ref(model)
            .is_ok_and(|r| r.source == crate::modelref::Source::Cloud);
        if cloud {
            return Err(Refused {
                status: 403,
                message: "ollama cloud is disabled: web search is unavailable".into(),
            });
        }
    }
    let mut text = j.to_json();
    text.push('\n');
    let request = serde_json::from_str(&text).map_err(|e| Refused {
        status: 500,
        message: e.to_string(),
    })?;
    Ok(Converted {
        endpoint,
        text,
        request,
        relax_thinking: route == Route::AnthropicMessages,
        stream: flags.stream,
        include_usage: flags.include_usage,
        web_search: flags.web_search,
    })
}

/// What a conversion tells the response writer.
#[derive(Default, Clone, Copy)]
pub(crate) struct Flags {
    pub stream: bool,
    pub include_usage: bool,
    pub web_search: bool,
}

const ROUTES: [Route; 4] = [
    Route::OpenAiChat,
    Route::OpenAiCompletions,
    Route::OpenAiResponses,
    Route::AnthropicMessages,
];

/// The `compat` fuzz target's body (fuzz/fuzz_targets/compat.rs), also run
/// by `cargo test` on the inputs kept in `tests/fuzz-regressions/`: the
/// first byte picks the route and flags, the rest up to a `0xff` is the
/// body text, then native response chunks separated by `0xfe`.
#[doc(hidden)]
pub fn exercise(data: &[u8]) {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let route = ROUTES[first as usize % 4];
    let mut parts = rest.split(|&b| b == 0xff);
    let body = String::from_utf8_lossy(parts.next().unwrap_or(&[])).into_owned();
    if crate::godecode::check_valid(body.as_bytes()).is_ok() {
        let _ = crate::godecode::parse(&body).expect("a valid body parses");
    }
    let env = Env {
        no_cloud: first & 4 != 0,
        // the fuzzer reaches every supported release
        release: changes::Release::SUPPORTED
            [usize::from(first >> 3) % changes::Release::SUPPORTED.len()],
    };
    let Some(converted) = convert_text(route, &body, env) else {
        return;
    };
    let parsed: serde_json::Value = serde_json::from_str(&body).unwrap_or_default();
    let _ = notes::notes(route, &parsed, env.release);
    let case = serde_json::json!({
        "endpoint": route.name(),
        "model": {"template": "{{ range .Messages }}{{ .Role }}: {{ .Content }}{{ end }}"},
        "request": parsed,
    });
    if let Ok(c) = crate::case::RenderCase::from_json(&case) {
        let _ = c.render(None);
    }
    let (stream, usage) = match &converted {
        Ok(c) => (c.stream, c.include_usage),
        Err(_) => (first & 8 != 0, first & 16 != 0),
    };
    let mut w = reply::Writer::for_route(route, &parsed, stream, usage, ("id", "item"), 0, 1)
        .with_body_text(&parsed, &body);
    for chunk in parts.next().unwrap_or(&[]).split(|&b| b == 0xfe) {
        let text = String::from_utf8_lossy(chunk);
        let status = if first & 32 != 0 { 500 } else { 200 };
        let _ = w.write_text(status, &text);
    }
}
