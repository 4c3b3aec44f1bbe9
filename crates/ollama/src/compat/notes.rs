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

/// The fate of each top-level field of `body`, then the defaults the route
/// added for fields the body leaves out.
pub fn notes(route: Route, body: &Json) -> Vec<FieldNote> {
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
            Some((_, fate, detail)) => FieldNote {
                field: k.clone(),
                fate: *fate,
                detail: (*detail).into(),
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
        );
        let fate = |f: &str| n.iter().find(|x| x.field == f).map(|x| x.fate);
        assert_eq!(fate("max_tokens"), Some(Mapped));
        assert_eq!(fate("n"), Some(Dropped));
        assert_eq!(fate("temperature"), Some(Defaulted));
        assert_eq!(fate("top_p"), Some(Defaulted));
        assert_eq!(fate("Top_P"), Some(Dropped));
    }
}
