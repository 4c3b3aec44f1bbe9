//! Ollama's built-in output parsers (`model/parsers`), as far as they shape
//! the prompt: the capabilities they report (which feed
//! `Model.Capabilities()`), and what `Parser.Init` does to the request.
//!
//! `Init(tools, lastMessage, think)` runs before rendering when the model
//! has a parser (`PARSER <name>`, or `harmony` for gpt-oss). Every parser
//! only reads the last message and `think`; the harmony parser is the only
//! one that returns different tools, renaming them into identifiers
//! ([`harmony_rename_tools`]). All others return the tools unchanged.

use std::collections::HashSet;

use crate::api::Tool;
use gotmpl::unicode::{is_digit, is_letter};

/// The names `parsers.ParserForName` knows, in the order of Go's switch.
pub const PARSER_NAMES: [&str; 27] = [
    "qwen3",
    "qwen3-thinking",
    "qwen3.5",
    "ornith",
    "qwen3-coder",
    "qwen3-vl-instruct",
    "qwen3-vl-thinking",
    "ministral",
    "passthrough",
    "harmony",
    "cogito",
    "deepseek3",
    "olmo3",
    "olmo3-think",
    "nemotron-3-nano",
    "nemotron-3.5-nano",
    "functiongemma",
    "glm-4.7",
    "gemma4",
    "gemma4-no-thinking",
    "glm-ocr",
    "lfm2",
    "lfm2-thinking",
    "laguna",
    "poolside-v1",
    "cohere",
    "glimmer",
];

/// `(HasToolSupport(), HasThinkingSupport())` of the parser
/// `ParserForName(name)` builds, or `None` for a name it does not know
/// (Go's `nil` parser, which adds no capabilities).
pub fn parser_capabilities(name: &str) -> Option<(bool, bool)> {
    Some(match name {
        "qwen3" => (true, false),
        "qwen3-thinking" => (true, true),
        "qwen3.5" | "ornith" => (true, true),
        "qwen3-coder" => (true, false),
        "qwen3-vl-instruct" => (true, false),
        "qwen3-vl-thinking" => (true, true),
        "ministral" => (true, false),
        "passthrough" => (false, false),
        "harmony" => (true, true),
        "cogito" => (true, true),
        "deepseek3" => (true, true),
        "olmo3" => (true, false),
        "olmo3-think" => (false, true),
        "nemotron-3-nano" | "nemotron-3.5-nano" => (true, true),
        "functiongemma" => (true, false),
        // GLM47Parser embeds GLM46Parser.
        "glm-4.7" => (true, true),
        "gemma4" => (true, true),
        "gemma4-no-thinking" => (true, false),
        // GlmOcrParser embeds GLM46Parser and turns thinking off.
        "glm-ocr" => (true, false),
        "lfm2" => (true, false),
        "lfm2-thinking" => (true, true),
        // LagunaV8Parser embeds LagunaParser.
        "laguna" | "poolside-v1" => (true, true),
        "cohere" => (true, true),
        "glimmer" => (true, true),
        _ => return None,
    })
}

/// `HasToolSupport()` of a built-in parser; `false` for an unknown name.
pub fn has_tool_support(name: &str) -> bool {
    parser_capabilities(name).is_some_and(|(tools, _)| tools)
}

/// `HasThinkingSupport()` of a built-in parser; `false` for an unknown name.
pub fn has_thinking_support(name: &str) -> bool {
    parser_capabilities(name).is_some_and(|(_, thinking)| thinking)
}

/// `parser.Init(tools, ..)`'s returned tools for the parser `name`: the
/// harmony parser renames them ([`harmony_rename_tools`]); every other
/// parser, and an unknown name (no parser), leaves them as they are.
pub fn init_tools(name: &str, tools: &[Tool]) -> Vec<Tool> {
    if name == "harmony" {
        harmony_rename_tools(tools)
    } else {
        tools.to_vec()
    }
}

/// The harmony parser's `Init` (`harmony/harmonyparser.go`): each named
/// tool's function name becomes a TypeScript-like identifier
/// (`FunctionNameMap.ConvertAndAdd`):
///
/// - space, `-` and `.` become `_`; other characters that are not letters,
///   digits (Go's `unicode.IsLetter` / `IsDigit`), `_` or `$` are dropped;
/// - an empty result becomes `unnamed`; a leading ASCII digit gets `_`
///   prepended;
/// - a name already produced gets `_2`, `_3`, … (even for a repeated
///   original name);
/// - `browser.open`, `browser.search`, `browser.find` and `python` are kept
///   as they are.
///
/// Tools with an empty name are left alone.
pub fn harmony_rename_tools(tools: &[Tool]) -> Vec<Tool> {
    let mut taken: HashSet<String> = HashSet::new();
    tools
        .iter()
        .map(|tool| {
            let mut tool = tool.clone();
            if !tool.function.name.is_empty() {
                let user = &tool.function.name;
                let mut name = derive_name(user, &taken);
                if matches!(
                    user.as_str(),
                    "browser.open" | "browser.search" | "browser.find" | "python"
                ) {
                    name = user.clone();
                }
                taken.insert(name.clone());
                tool.function.name = name;
            }
            tool
        })
        .collect()
}

/// `convertToValidChars`.
fn convert_to_valid_chars(name: &str) -> String {
    let candidate: String = name
        .chars()
        .filter_map(|r| match r {
            ' ' | '-' | '.' => Some('_'),
            r if is_letter(r) || is_digit(r) || r == '_' || r == '$' => Some(r),
            _ => None,
        })
        .collect();
    if candidate.is_empty() {
        return "unnamed".to_string();
    }
    // Go checks the first byte as a rune: only an ASCII digit matches.
    if candidate.as_bytes()[0].is_ascii_digit() {
        return format!("_{candidate}");
    }
    candidate
}

/// `deriveName`: the converted name, suffixed until unused.
fn derive_name(name: &str, taken: &HashSet<String>) -> String {
    let original = convert_to_valid_chars(name);
    let mut candidate = original.clone();
    let mut count = 2;
    while taken.contains(&candidate) {
        candidate = format!("{original}_{count}");
        count += 1;
    }
    candidate
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::ToolFunction;

    fn tools(names: &[&str]) -> Vec<Tool> {
        names
            .iter()
            .map(|n| Tool {
                type_: "function".into(),
                function: ToolFunction {
                    name: n.to_string(),
                    ..ToolFunction::default()
                },
                ..Tool::default()
            })
            .collect()
    }

    fn names(ts: &[Tool]) -> Vec<String> {
        ts.iter().map(|t| t.function.name.clone()).collect()
    }

    #[test]
    fn harmony_names() {
        // Recorded from the Go harmony parser's Init.
        let renamed = harmony_rename_tools(&tools(&[
            "get-weather.v2",
            "9lives",
            "get weather",
            "get_weather",
            "get_weather",
            "",
            "!!!",
            "python",
            "python",
            "browser.open",
            "héllo wörld",
            "a$b%c",
            "٣x",
            "unnamed",
            "unnamed",
            "python_2",
            "x.y-z w",
            "日本語",
            "Ⅻ",
            "_",
        ]));
        assert_eq!(
            names(&renamed),
            [
                "get_weather_v2",
                "_9lives",
                "get_weather",
                "get_weather_2",
                "get_weather_3",
                "",
                "unnamed",
                "python",
                "python",
                "browser.open",
                "héllo_wörld",
                "a$bc",
                "٣x",
                "unnamed_2",
                "unnamed_3",
                "python_2",
                "x_y_z_w",
                "日本語",
                "unnamed_4",
                "_",
            ]
        );
        assert_eq!(names(&init_tools("qwen3", &tools(&["a-b"]))), ["a-b"]);
        assert_eq!(names(&init_tools("harmony", &tools(&["a-b"]))), ["a_b"]);
    }

    #[test]
    fn capabilities() {
        assert!(PARSER_NAMES
            .iter()
            .all(|n| parser_capabilities(n).is_some()));
        assert_eq!(parser_capabilities("passthrough"), Some((false, false)));
        assert_eq!(parser_capabilities("olmo3-think"), Some((false, true)));
        assert_eq!(parser_capabilities("glm-ocr"), Some((true, false)));
        assert_eq!(parser_capabilities("nope"), None);
        assert!(!has_tool_support("nope"));
        assert!(has_thinking_support("poolside-v1"));
    }
}
