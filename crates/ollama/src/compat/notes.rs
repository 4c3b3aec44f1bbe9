//! What a compatibility route's conversion did with each field of the body
//! the client sent: mapped to a native field, defaulted when absent,
//! dropped, or used only by the response writer. Read from the same
//! conversion code (openai/openai.go, openai/responses.go,
//! anthropic/anthropic.go); shown beside the converted request.

use serde_json::Value as Json;

use super::Route;
use crate::godecode::fold_eq;

/// What happened to a field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Fate {
    /// Carried into the native request, perhaps under another name.
    Mapped,
    /// Absent from the body; the route put a value of its own.
    Defaulted,
    /// Decoded and then not used, or not a field of the route at all.
    Dropped,
    /// Only the response writer reads it (streaming, usage).
    Response,
}

/// One field's fate.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FieldNote {
    /// The body's field (`max_tokens`, `messages[].content`).
    pub field: String,
    /// What happened.
    pub fate: Fate,
    /// Where it went, or why.
    pub detail: String,
}

use Fate::*;

type Table = &'static [(&'static str, Fate, &'static str)];

const CHAT: Table = &[
    ("model", Mapped, "model"),
    ("messages", Mapped, "messages: content parts become one message each (text, or an image from a data: URI); tool_calls' string arguments are parsed as JSON; reasoning becomes thinking; a tool message's name (or the name of the call its tool_call_id answers) becomes tool_name"),
    ("stream", Mapped, "stream"),
    ("stream_options", Response, "include_usage adds a usage chunk before [DONE]"),
    ("max_tokens", Mapped, "options.num_predict"),
    ("seed", Mapped, "options.seed"),
    ("stop", Mapped, "options.stop (a string becomes a list; non-strings in a list are left out)"),
    ("temperature", Mapped, "options.temperature"),
    ("frequency_penalty", Mapped, "options.frequency_penalty"),
    ("presence_penalty", Mapped, "options.presence_penalty"),
    ("top_p", Mapped, "options.top_p"),
    ("response_format", Mapped, "format: json_object becomes \"json\", json_schema its schema; other types are dropped"),
    ("tools", Mapped, "tools"),
    ("reasoning", Mapped, "think (reasoning.effort; wins over reasoning_effort)"),
    ("reasoning_effort", Mapped, "think: none = false, minimal = low, xhigh and ultra = max"),
    ("logprobs", Mapped, "logprobs"),
    ("top_logprobs", Mapped, "top_logprobs"),
    ("_debug_render_only", Mapped, "_debug_render_only"),
];
const CHAT_DEFAULTS: Table = &[
    (
        "temperature",
        Defaulted,
        "options.temperature = 1 (OpenAI's default), over the model's PARAMETER",
    ),
    (
        "top_p",
        Defaulted,
        "options.top_p = 1 (OpenAI's default), over the model's PARAMETER",
    ),
];

const COMPLETIONS: Table = &[
    ("model", Mapped, "model"),
    (
        "prompt",
        Mapped,
        "prompt (a string only; lists of prompts or tokens are refused)",
    ),
    ("frequency_penalty", Mapped, "options.frequency_penalty"),
    ("max_tokens", Mapped, "options.num_predict"),
    ("presence_penalty", Mapped, "options.presence_penalty"),
    ("seed", Mapped, "options.seed"),
    (
        "stop",
        Mapped,
        "options.stop (a string becomes a list; a non-string in a list is refused)",
    ),
    ("stream", Mapped, "stream"),
    (
        "stream_options",
        Response,
        "include_usage adds a usage chunk before [DONE]",
    ),
    ("temperature", Mapped, "options.temperature"),
    ("top_p", Mapped, "options.top_p (0 counts as absent)"),
    ("suffix", Mapped, "suffix"),
    (
        "logprobs",
        Mapped,
        "logprobs and top_logprobs (when above 0)",
    ),
    ("_debug_render_only", Mapped, "_debug_render_only"),
];
const COMPLETIONS_DEFAULTS: Table = &[
    (
        "temperature",
        Defaulted,
        "options.temperature = 1, over the model's PARAMETER",
    ),
    (
        "top_p",
        Defaulted,
        "options.top_p = 1, over the model's PARAMETER",
    ),
    (
        "frequency_penalty",
        Defaulted,
        "options.frequency_penalty = 0, over the model's PARAMETER",
    ),
    (
        "presence_penalty",
        Defaulted,
        "options.presence_penalty = 0, over the model's PARAMETER",
    ),
];

const RESPONSES: Table = &[
    ("model", Mapped, "model"),
    ("background", Dropped, "not supported"),
    ("conversation", Dropped, "not supported"),
    ("include", Dropped, "ignored"),
    ("input", Mapped, "messages: a string is one user message; message items keep their role; function_call items become an assistant's tool_calls; function_call_output items become tool messages; a reasoning item's encrypted_content becomes the next assistant message's thinking"),
    ("instructions", Mapped, "a system message first"),
    ("max_output_tokens", Mapped, "options.num_predict"),
    ("reasoning", Mapped, "think (reasoning.effort; summary is ignored)"),
    ("temperature", Mapped, "options.temperature"),
    ("text", Mapped, "format (text.format of type json_schema: its schema; other types are dropped)"),
    ("top_p", Mapped, "options.top_p"),
    ("truncation", Dropped, "ignored"),
    ("tools", Mapped, "tools (function tools; namespace tools expand to their members as namespace.name; web_search becomes a web_search function)"),
    ("stream", Mapped, "stream"),
];
const RESPONSES_DEFAULTS: Table = &[(
    "temperature",
    Defaulted,
    "options.temperature = 1, over the model's PARAMETER",
)];

const MESSAGES: Table = &[
    ("model", Mapped, "model"),
    ("max_tokens", Mapped, "options.num_predict"),
    ("messages", Mapped, "messages: text blocks are joined; image blocks (base64 only) become images; tool_use blocks become tool_calls; tool_result blocks become tool messages (before the user's text); thinking blocks become thinking"),
    ("system", Mapped, "a system message first (text blocks joined; cache_control is ignored)"),
    ("stream", Mapped, "stream"),
    ("temperature", Mapped, "options.temperature"),
    ("top_p", Mapped, "options.top_p"),
    ("top_k", Mapped, "options.top_k"),
    ("stop_sequences", Mapped, "options.stop"),
    ("tools", Mapped, "tools (input_schema becomes parameters; web_search_* becomes a web_search function)"),
    ("tool_choice", Dropped, "ignored"),
    ("thinking", Mapped, "think: enabled = true, disabled = false (budget_tokens is ignored); a model that cannot think drops it instead of failing (relax_thinking)"),
    ("metadata", Dropped, "ignored"),
    ("output_config", Mapped, "think from effort (high, medium, low, max; xhigh = high) when thinking is not set"),
];

fn table(route: Route) -> (Table, Table, &'static str) {
    match route {
        Route::OpenAiChat => (CHAT, CHAT_DEFAULTS, "openai.ChatCompletionRequest"),
        Route::OpenAiCompletions => (
            COMPLETIONS,
            COMPLETIONS_DEFAULTS,
            "openai.CompletionRequest",
        ),
        Route::OpenAiResponses => (RESPONSES, RESPONSES_DEFAULTS, "openai.ResponsesRequest"),
        Route::AnthropicMessages => (MESSAGES, &[], "anthropic.MessagesRequest"),
    }
}

/// Fields whose conversion reads otherwise before a row of Ollama's table:
/// (route, field, row, the detail in a release without the row). Oldest
/// row first for each field: a release lacks every row after the first
/// one it lacks, so that row's entry describes it.
const BEFORE: &[(Route, &str, &changes::Change, &str)] = {
    use changes::ollama::*;
    &[
        (Route::OpenAiChat, "reasoning", &OPENAI_REASONING_EFFORT_CLAMP,
            "think (reasoning.effort: high, medium, low and max as themselves, none = false; any other value is a 400; wins over reasoning_effort)"),
        (Route::OpenAiChat, "reasoning_effort", &OPENAI_REASONING_EFFORT_CLAMP,
            "think: high, medium, low and max as themselves, none = false; any other value is a 400"),
        (Route::OpenAiResponses, "reasoning", &OPENAI_REASONING_EFFORT_CLAMP,
            "think (reasoning.effort: high, medium, low and max as themselves, none = false; any other value is a 400; summary is ignored)"),
        (Route::OpenAiResponses, "tools", &RESPONSES_NAMESPACE_TOOLS,
            "tools (function tools; a namespace tool becomes one function named after the namespace, with no parameters, its members dropped; a web_search tool passes through as a function with no name)"),
        (Route::OpenAiResponses, "tools", &RESPONSES_WEB_SEARCH,
            "tools (function tools; namespace tools expand to their members as namespace.name; a web_search tool passes through as a function with no name)"),
        (Route::OpenAiResponses, "input", &RESPONSES_WEB_SEARCH,
            "messages: a string is one user message; message items keep their role (an assistant message replayed between a function_call and its output stays a turn of its own); function_call items become an assistant's tool_calls; function_call_output items become tool messages; a web_search_call item is a 400; a reasoning item's encrypted_content becomes the next assistant message's thinking"),
    ]
};

/// The detail of a known field in `release`: the table's, or where the
/// release lacks a row that changed it, what it did before, naming the row.
fn detail_in(route: Route, field: &str, newest: &str, release: changes::Release) -> String {
    BEFORE
        .iter()
        .find(|(r, f, row, _)| *r == route && *f == field && !release.has(row))
        .map_or_else(
            || newest.to_string(),
            |(_, _, row, old)| {
                format!(
                    "{old} (before {}, Ollama {})",
                    row.id,
                    changes::ollama::name_of(row.first)
                )
            },
        )
}

/// The fate of each top-level field of `body` in an Ollama release, then
/// the defaults the route added for fields the body leaves out.
pub fn notes(route: Route, body: &Json, release: changes::Release) -> Vec<FieldNote> {
    let (known, defaults, go) = table(route);
    let mut out = Vec::new();
    let Some(obj) = body.as_object() else {
        return out;
    };
    let present = |name: &str| {
        obj.iter()
            .any(|(k, v)| (k == name || fold_eq(k, name)) && !v.is_null())
    };
    for (k, v) in obj {
        let hit = known
            .iter()
            .find(|(n, _, _)| n == k)
            .or_else(|| known.iter().find(|(n, _, _)| fold_eq(n, k)));
        out.push(match hit {
            Some(_) if v.is_null() => FieldNote {
                field: k.clone(),
                fate: Dropped,
                detail: "null: left unset".into(),
            },
            Some((name, fate, detail)) => FieldNote {
                field: k.clone(),
                fate: *fate,
                detail: detail_in(route, name, detail, release),
            },
            None => FieldNote {
                field: k.clone(),
                fate: Dropped,
                detail: format!("not a field of {go}"),
            },
        });
    }
    for (name, fate, detail) in defaults {
        if !present(name) {
            out.push(FieldNote {
                field: (*name).into(),
                fate: *fate,
                detail: (*detail).into(),
            });
        }
    }
    if route == Route::AnthropicMessages {
        out.push(FieldNote {
            field: "(route)".into(),
            fate: Mapped,
            detail:
                "relax_thinking: think: true on a model that cannot think is dropped, not refused"
                    .into(),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_named() {
        let n = notes(
            Route::OpenAiChat,
            &serde_json::json!({"model": "m", "messages": [], "max_tokens": 5, "n": 2, "Top_P": null}),
            changes::Release::NEWEST,
        );
        let fate = |f: &str| n.iter().find(|x| x.field == f).map(|x| x.fate);
        assert_eq!(fate("max_tokens"), Some(Mapped));
        assert_eq!(fate("n"), Some(Dropped));
        assert_eq!(fate("temperature"), Some(Defaulted));
        assert_eq!(fate("top_p"), Some(Defaulted));
        assert_eq!(fate("Top_P"), Some(Dropped));
    }

    /// A field a row of the release table changed reads as the release
    /// converts it, and names the row it lacks.
    #[test]
    fn fields_read_as_the_release_converts() {
        let release = |t: &str| changes::Release::parse(t).unwrap();
        let detail = |route, body: serde_json::Value, field: &str, r| {
            notes(route, &body, r)
                .into_iter()
                .find(|n| n.field == field)
                .unwrap()
                .detail
        };
        let chat = serde_json::json!({"model": "m", "messages": [], "reasoning_effort": "minimal"});
        let newest = detail(
            Route::OpenAiChat,
            chat.clone(),
            "reasoning_effort",
            changes::Release::NEWEST,
        );
        assert_eq!(
            newest,
            "think: none = false, minimal = low, xhigh and ultra = max"
        );
        assert_eq!(
            detail(
                Route::OpenAiChat,
                chat.clone(),
                "reasoning_effort",
                release("0.32.11")
            ),
            newest
        );
        let old = detail(
            Route::OpenAiChat,
            chat,
            "reasoning_effort",
            release("0.32.10"),
        );
        assert!(
            old.ends_with(
                "any other value is a 400 (before openai_reasoning_effort_clamp, Ollama 0.32.11)"
            ),
            "{old}"
        );
        let tools = serde_json::json!({"model": "m", "input": "hi", "tools": []});
        let at = |t| detail(Route::OpenAiResponses, tools.clone(), "tools", release(t));
        assert!(
            at("0.32.6").contains("one function named after the namespace"),
            "{}",
            at("0.32.6")
        );
        assert!(at("0.32.6").ends_with("(before responses_namespace_tools, Ollama 0.32.7)"));
        assert!(at("0.32.9").contains("expand to their members"));
        assert!(at("0.32.9").ends_with("(before responses_web_search, Ollama 0.32.10-rc0)"));
        assert!(
            !at("0.32.10-rc0").contains("before"),
            "{}",
            at("0.32.10-rc0")
        );
        // every row named here is a row of Ollama's table, and each field
        // lists its rows oldest first
        for w in BEFORE.windows(2) {
            if (w[0].0, w[0].1) == (w[1].0, w[1].1) {
                assert!(
                    w[0].2.first <= w[1].2.first,
                    "{} then {}",
                    w[0].2.id,
                    w[1].2.id
                );
            }
        }
        for (_, _, row, _) in BEFORE {
            assert!(
                changes::ollama::TABLE.iter().any(|r| r.id == row.id),
                "{}",
                row.id
            );
        }
    }
}
