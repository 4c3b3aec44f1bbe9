//! `harmony/harmonyparser.go`: gpt-oss's harmony format, file for file.
//!
//! [`HarmonyParser`] turns the runner's text into [`HarmonyEvent`]s
//! (message start, header, content, message end); [`HarmonyMessageHandler`]
//! maps those onto Ollama's content, thinking and tool calls and is the
//! `harmony` [`Parser`]; [`FunctionNameMap`] renames user tools into
//! TypeScript-like identifiers and back.

use std::collections::{HashMap, HashSet};

use crate::api::{Message, Think, Tool};
use crate::parsers::gojson_decode::unmarshal_arguments;
use crate::parsers::{tool_call, trim_space, Added, Parser};
use gotmpl::unicode::{is_digit, is_letter, is_space};

/// `harmonyParserState`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum HarmonyParserState {
    /// `harmonyParserState_LookingForMessageStart`: looking for the message
    /// start tag.
    #[default]
    LookingForMessageStart,
    /// `harmonyParserState_ParsingHeader`
    ParsingHeader,
    /// `harmonyParserState_ParsingContent`
    ParsingContent,
}

impl HarmonyParserState {
    /// `harmonyParserState.String()`.
    pub fn as_str(self) -> &'static str {
        match self {
            HarmonyParserState::LookingForMessageStart => "LookingForMessageStart",
            HarmonyParserState::ParsingHeader => "ParsingHeader",
            HarmonyParserState::ParsingContent => "ParsingContent",
        }
    }
}

impl std::fmt::Display for HarmonyParserState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// `HarmonyParser`: splits harmony text into events.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HarmonyParser {
    state: HarmonyParserState,
    /// `MessageStartTag` (`<|start|>`).
    pub message_start_tag: String,
    /// `MessageEndTag` (`<|end|>`).
    pub message_end_tag: String,
    /// `HeaderEndTag` (`<|message|>`).
    pub header_end_tag: String,
    acc: String,
    lifetime_acc: String,
}

/// `HarmonyEvent` and its four implementations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HarmonyEvent {
    /// `HarmonyEventMessageStart{}`
    MessageStart,
    /// `HarmonyEventHeaderComplete{Header}`
    HeaderComplete {
        /// `Header`
        header: HarmonyHeader,
    },
    /// `HarmonyEventContentEmitted{Content}`
    ContentEmitted {
        /// `Content`
        content: String,
    },
    /// `HarmonyEventMessageEnd{}`
    MessageEnd,
}

/// `HarmonyHeader`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HarmonyHeader {
    /// `Role`
    pub role: String,
    /// `Channel`
    pub channel: String,
    /// `Recipient`
    pub recipient: String,
}

impl HarmonyParser {
    /// `HarmonyParser{MessageStartTag: .., MessageEndTag: .., HeaderEndTag: ..}`.
    pub fn new(message_start_tag: &str, message_end_tag: &str, header_end_tag: &str) -> Self {
        HarmonyParser {
            message_start_tag: message_start_tag.to_string(),
            message_end_tag: message_end_tag.to_string(),
            header_end_tag: header_end_tag.to_string(),
            ..HarmonyParser::default()
        }
    }

    /// The parser `NewHarmonyMessageHandler` and `Init` build
    /// (`<|start|>`, `<|end|>`, `<|message|>`).
    fn standard() -> Self {
        HarmonyParser::new("<|start|>", "<|end|>", "<|message|>")
    }

    /// `AddImplicitStart()`.
    pub fn add_implicit_start(&mut self) {
        self.acc.push_str("<|start|>assistant");
    }

    /// `AddImplicitStartOrPrefill(lastMessage)`.
    pub fn add_implicit_start_or_prefill(&mut self, last_message: Option<&Message>) {
        if let Some(last) = last_message.filter(|m| m.role == "assistant") {
            // handle prefilling conditions
            if !last.content.is_empty() {
                self.acc
                    .push_str("<|start|>assistant<|channel|>final<|message|>");
                return;
            } else if !last.thinking.is_empty() {
                self.acc
                    .push_str("<|start|>assistant<|channel|>analysis<|message|>");
                return;
            }
        }
        self.add_implicit_start();
    }

    /// `AddContent(content)`: the events the text completes.
    pub fn add_content(&mut self, content: &str) -> Vec<HarmonyEvent> {
        self.lifetime_acc.push_str(content);
        self.acc.push_str(content);

        let mut events = Vec::new();

        // we loop because we might pass through multiple parsing states in a
        // single call to addContent, and we want to make sure callers don't
        // have to wait for data that's already unambiguous
        let mut keep_looping = true;
        while keep_looping {
            let (new_events, more) = eat(self);
            keep_looping = more;
            events.extend(new_events);
        }

        events
    }

    /// `parseHeader(raw)`.
    fn parse_header(&self, raw: &str) -> HarmonyHeader {
        let mut harmony_header = HarmonyHeader::default();
        let mut raw = raw.to_string();

        // if `<|constrain|>` is present, ensure it has a space before it so it
        // gets parsed as a separate token, even if the model didn't include
        // the space
        if raw.contains("<|constrain|>") {
            raw = raw.replacen("<|constrain|>", " <|constrain|>", 1);
            raw = trim_space(&raw).to_string();
        }

        // look for the optional channel tag, which is `<|channel|>` followed
        // by the channel name, all without any whitespace
        if let Some(channel_index) = raw.find("<|channel|>") {
            let before = &raw[..channel_index];
            let after = &raw[channel_index + "<|channel|>".len()..];
            // the channel name is `after` all the way up to the first (if
            // any) whitespace character
            let idx = after.find(is_space).unwrap_or(after.len());
            harmony_header.channel = after[..idx].to_string();
            let after = &after[idx..];
            // now we remove the channel tag from the raw string to further
            // process
            raw = trim_space(&format!("{before}{after}")).to_string();
        }

        // split the header into whitespace-separated tokens
        // (`strings.Fields`)
        let tokens: Vec<&str> = raw.split(is_space).filter(|t| !t.is_empty()).collect();

        // the first token is treated as the role (Go logs "missing role in
        // header" without one)
        let Some((role, tokens)) = tokens.split_first() else {
            return harmony_header;
        };
        // special case: if role starts with to= then it's a tool call
        if let Some(recipient) = role.strip_prefix("to=") {
            harmony_header.recipient = recipient.to_string();
            harmony_header.role = "tool".to_string();
        } else {
            harmony_header.role = role.to_string();
        }

        // the recipient (if any) can be specified before or after the channel
        // tag, so we check it at the end once we've already parsed the
        // channel and role
        if harmony_header.recipient.is_empty() {
            if let Some(recipient) = tokens.first().and_then(|t| t.strip_prefix("to=")) {
                harmony_header.recipient = recipient.to_string();
            }
        }

        harmony_header
    }
}

/// `eat(s)`: the events of one step; the bool is true iff we should
/// continue eating.
fn eat(s: &mut HarmonyParser) -> (Vec<HarmonyEvent>, bool) {
    match s.state {
        HarmonyParserState::LookingForMessageStart => {
            // does the acc contain the message start tag?
            if let Some((_before, after)) = split_n2(&s.acc, &s.message_start_tag) {
                // split the acc into the message start tag and the rest (Go
                // warns when something comes before it)
                s.acc = after;
                s.state = HarmonyParserState::ParsingHeader;
                return (vec![HarmonyEvent::MessageStart], true);
            }

            // no match, so we keep accumulating
            (Vec::new(), false)
        }
        HarmonyParserState::ParsingHeader => {
            if let Some((header, after)) = split_n2(&s.acc, &s.header_end_tag) {
                s.acc = after;
                s.state = HarmonyParserState::ParsingContent;
                let header = s.parse_header(&header);
                return (vec![HarmonyEvent::HeaderComplete { header }], true);
            }
            (Vec::new(), false)
        }
        HarmonyParserState::ParsingContent => {
            if let Some((content, after)) = split_n2(&s.acc, &s.message_end_tag) {
                // if we already have the message end tag, we can emit the
                // content up to it
                s.acc = after;
                s.state = HarmonyParserState::LookingForMessageStart;
                let mut events = Vec::new();
                if !content.is_empty() {
                    events.push(HarmonyEvent::ContentEmitted { content });
                }
                events.push(HarmonyEvent::MessageEnd);
                return (events, true);
            }
            let overlap_len = overlap(&s.acc, &s.message_end_tag);
            if overlap_len > 0 {
                // if our suffix contains the start of the message end tag, we
                // can emit the content up to the start of the message end tag.
                // The overlap starts with the tag's first byte, so it starts
                // on a character boundary.
                let cut = s.acc.len() - overlap_len;
                let (content, remaining) = match (s.acc.get(..cut), s.acc.get(cut..)) {
                    (Some(c), Some(r)) => (c.to_string(), r.to_string()),
                    _ => return (Vec::new(), false),
                };
                s.acc = remaining;
                // emit the content we know isn't part of the message end tag,
                // and keep accumulating to disambiguate the rest
                if content.is_empty() {
                    return (Vec::new(), false);
                }
                return (vec![HarmonyEvent::ContentEmitted { content }], false);
            }
            // no end tag, so it's still normal content that we can
            // immediately emit
            if s.acc.is_empty() {
                return (Vec::new(), false);
            }
            let content = std::mem::take(&mut s.acc);
            (vec![HarmonyEvent::ContentEmitted { content }], false)
        }
    }
}

/// `strings.SplitN(s, sep, 2)` where `strings.Contains(s, sep)`: the text
/// before the first `sep` and after it. An empty `sep` splits off the first
/// character; on an empty `s` as well Go's `split[1]` panics (only a
/// `HarmonyParser` built with empty tags gets there), here `None`, which
/// ends the eating.
fn split_n2(s: &str, sep: &str) -> Option<(String, String)> {
    if sep.is_empty() {
        let c = s.chars().next()?;
        let n = c.len_utf8();
        return Some((s[..n].to_string(), s[n..].to_string()));
    }
    let i = s.find(sep)?;
    Some((s[..i].to_string(), s[i + sep.len()..].to_string()))
}

/// `overlap(s, delim)`: the longest overlap between a suffix of `s` and a
/// prefix of `delim`, in bytes (the same function as `model/parsers`').
fn overlap(s: &str, delim: &str) -> usize {
    crate::parsers::overlap(s, delim)
}

/// `harmonyMessageState`: the current state of message processing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum HarmonyMessageState {
    /// `harmonyMessageState_Normal`
    #[default]
    Normal,
    /// `harmonyMessageState_Thinking`
    Thinking,
    /// `harmonyMessageState_ToolCalling`
    ToolCalling,
}

/// `HarmonyMessageHandler`: processes harmony events and accumulates
/// content appropriately, mapping harmony concepts onto Ollama's.
#[derive(Clone, Debug)]
pub struct HarmonyMessageHandler {
    state: HarmonyMessageState,
    /// `HarmonyParser` (never nil here: Go's `Init` only builds one for a
    /// zero-value handler, which `NewHarmonyMessageHandler` never gives).
    pub harmony_parser: HarmonyParser,
    /// `FunctionNameMap`
    pub function_name_map: FunctionNameMap,
    /// `toolAccumulator`. Go leaves it nil until `Init` (and would panic on
    /// a tool call or on `done` before it); here it starts out as
    /// `CreateToolParser()` gives it, and `Init` replaces it.
    tool_accumulator: HarmonyToolCallAccumulator,
    converted_tools: HashSet<String>,
}

impl Default for HarmonyMessageHandler {
    fn default() -> Self {
        HarmonyMessageHandler::new()
    }
}

impl HarmonyMessageHandler {
    /// `NewHarmonyMessageHandler()`.
    pub fn new() -> HarmonyMessageHandler {
        HarmonyMessageHandler {
            state: HarmonyMessageState::Normal,
            harmony_parser: HarmonyParser::standard(),
            function_name_map: FunctionNameMap::new(),
            tool_accumulator: HarmonyToolCallAccumulator::default(),
            converted_tools: HashSet::new(),
        }
    }

    /// `AddContent(content, toolParser)`: `(content, thinking, toolContent)`;
    /// content and thinking are fully parsed, tool content still needs to
    /// go to the tool parser.
    pub fn add_content(
        &mut self,
        content: &str,
        tool_parser: &mut HarmonyToolCallAccumulator,
    ) -> (String, String, String) {
        let mut content_sb = String::new();
        let mut thinking_sb = String::new();
        let mut tool_content_sb = String::new();

        for event in self.harmony_parser.add_content(content) {
            match event {
                HarmonyEvent::HeaderComplete { header } => match header.channel.as_str() {
                    "analysis" => {
                        if !header.recipient.is_empty() {
                            self.state = HarmonyMessageState::ToolCalling;
                            // the recipient is the tool name, something like
                            // "browser.search" for a built-in, or
                            // "functions.calc" for a custom one
                            tool_parser.set_tool_name(&header.recipient);
                        } else {
                            self.state = HarmonyMessageState::Thinking;
                        }
                    }
                    "commentary" => {
                        if !header.recipient.is_empty() {
                            self.state = HarmonyMessageState::ToolCalling;
                            tool_parser.set_tool_name(&header.recipient);
                        } else {
                            self.state = HarmonyMessageState::Normal;
                        }
                    }
                    "final" => self.state = HarmonyMessageState::Normal,
                    _ => {}
                },
                HarmonyEvent::ContentEmitted { content } => match self.state {
                    HarmonyMessageState::Normal => content_sb.push_str(&content),
                    HarmonyMessageState::Thinking => thinking_sb.push_str(&content),
                    HarmonyMessageState::ToolCalling => tool_content_sb.push_str(&content),
                },
                HarmonyEvent::MessageEnd => self.state = HarmonyMessageState::Normal,
                HarmonyEvent::MessageStart => {}
            }
        }
        (content_sb, thinking_sb, tool_content_sb)
    }

    /// `CreateToolParser()`.
    pub fn create_tool_parser(&self) -> HarmonyToolCallAccumulator {
        HarmonyToolCallAccumulator {
            state: HarmonyToolCallState::Normal,
            acc: String::new(),
            current_tool_name: None,
        }
    }
}

/// `harmonyToolCallState`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum HarmonyToolCallState {
    /// `harmonyToolCallState_Normal`
    #[default]
    Normal,
    /// `harmonyToolCallState_ToolCalling` (never entered, as in Go).
    #[allow(dead_code)]
    ToolCalling,
}

/// `HarmonyToolCallAccumulator`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HarmonyToolCallAccumulator {
    state: HarmonyToolCallState,
    acc: String,
    current_tool_name: Option<String>,
}

impl HarmonyToolCallAccumulator {
    /// `SetToolName(toolName)`.
    pub fn set_tool_name(&mut self, tool_name: &str) {
        self.current_tool_name = Some(tool_name.to_string());
    }

    /// `Add(content)`.
    pub fn add(&mut self, content: &str) {
        self.acc.push_str(content);
    }

    /// `Drain()`: the current tool name (Go's `*string`, kept after the
    /// drain) and the accumulated text, which is reset.
    pub fn drain(&mut self) -> (Option<String>, String) {
        let s = std::mem::take(&mut self.acc);
        self.state = HarmonyToolCallState::Normal;
        (self.current_tool_name.clone(), s)
    }

    /// `Content()`.
    pub fn content(&self) -> &str {
        &self.acc
    }
}

/// `FunctionNameMap`: maps a user-specified function name to a valid
/// function name for harmony (which look like TypeScript identifiers), and
/// back.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FunctionNameMap {
    user_to_harmony: HashMap<String, String>,
    harmony_to_user: HashMap<String, String>,
}

impl FunctionNameMap {
    /// `NewFunctionNameMap()`.
    pub fn new() -> FunctionNameMap {
        FunctionNameMap::default()
    }
}

impl Parser for HarmonyMessageHandler {
    /// `Init(tools, lastMessage, thinkValue)`: the implicit start (or the
    /// prefill of a trailing assistant message) and the renamed tools.
    fn init(
        &mut self,
        tools: &[Tool],
        last_message: Option<&Message>,
        _think: Option<&Think>,
    ) -> Vec<Tool> {
        // Handle prefill for chat mode
        if last_message.is_some() {
            self.harmony_parser
                .add_implicit_start_or_prefill(last_message);
        } else {
            self.harmony_parser.add_implicit_start();
        }

        // Initialize tool accumulator
        self.tool_accumulator = self.create_tool_parser();

        // Process tools and return renamed versions
        let mut processed_tools = tools.to_vec();
        for tool in &mut processed_tools {
            if !tool.function.name.is_empty() {
                let user = tool.function.name.clone();
                tool.function.name = self.function_name_map.convert_and_add(&user);
                self.converted_tools.insert(user);
            }
        }
        processed_tools
    }

    /// `Add(s, done)`: content and thinking as they come; the tool call
    /// (one at a time, always at the end of a message) only with `done`.
    fn add(&mut self, s: &str, done: bool) -> Result<Added, String> {
        let mut acc = std::mem::take(&mut self.tool_accumulator);
        let (content, thinking, tool_content) = self.add_content(s, &mut acc);
        if !tool_content.is_empty() {
            acc.add(&tool_content);
        }

        let mut calls = Vec::new();
        // tool calls always happen one at a time, and always at the end of a
        // message, so for simplicity we defer parsing them until we know
        // we're done
        let drained = done.then(|| acc.drain());
        self.tool_accumulator = acc;
        if let Some((Some(tool_name), raw)) = drained {
            let name = tool_name.strip_prefix("functions.").unwrap_or(&tool_name);
            let name = self.function_name_map.original_from_converted(name);
            let args = unmarshal_arguments(&raw).map_err(|err| {
                format!("error parsing tool call: raw='{raw}', err={}", err.text())
            })?;
            calls.push(tool_call(name, args));
        }

        Ok(Added {
            content,
            thinking,
            calls,
        })
    }

    /// `PreservedTokens()`: the structural tokens the parser uses (`<|call|>`
    /// is left out so that llama-server stops on it).
    fn preserved_tokens(&self) -> Vec<String> {
        [
            "<|start|>",
            "<|end|>",
            "<|message|>",
            "<|channel|>",
            "<|constrain|>",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect()
    }

    /// `HasToolSupport()`.
    fn has_tool_support(&self) -> bool {
        true
    }

    /// `HasThinkingSupport()`.
    fn has_thinking_support(&self) -> bool {
        true
    }
}

impl FunctionNameMap {
    /// `ConvertAndAdd(userFunctionName)`: the harmony name, remembered both
    /// ways; built-in functions keep their names.
    pub fn convert_and_add(&mut self, user_function_name: &str) -> String {
        let mut harmony_function_name = self.derive_name(user_function_name);
        // built-in functions should not be renamed
        if matches!(
            user_function_name,
            "browser.open" | "browser.search" | "browser.find" | "python"
        ) {
            harmony_function_name = user_function_name.to_string();
        }
        self.user_to_harmony.insert(
            user_function_name.to_string(),
            harmony_function_name.clone(),
        );
        self.harmony_to_user.insert(
            harmony_function_name.clone(),
            user_function_name.to_string(),
        );
        harmony_function_name
    }

    /// `OriginalFromConverted(harmonyFunctionName)`: the user's name for a
    /// converted one; without a mapping (Go warns) the name itself.
    pub fn original_from_converted(&self, harmony_function_name: &str) -> String {
        match self.harmony_to_user.get(harmony_function_name) {
            Some(user) => user.clone(),
            None => harmony_function_name.to_string(),
        }
    }

    /// `convertToValidChars(userFunctionName)`: space, `-` and `.` become
    /// `_`; letters, digits (`unicode.IsLetter` / `IsDigit`), `_` and `$`
    /// stay; everything else goes. Empty becomes `unnamed`; a leading
    /// digit gets `_` prepended.
    fn convert_to_valid_chars(&self, user_function_name: &str) -> String {
        let candidate: String = user_function_name
            .chars()
            .filter_map(|r| match r {
                // first, replace certain characters with underscores
                ' ' | '-' | '.' => Some('_'),
                r if is_letter(r) || is_digit(r) || r == '_' || r == '$' => Some(r),
                // finally, remove any other characters
                _ => None,
            })
            .collect();

        // set a default name if we end up with nothing left
        if candidate.is_empty() {
            return "unnamed".to_string();
        }

        // if the candidate starts with a number, prepend an underscore to
        // make it a valid identifier. Go tests the first byte as a rune, so
        // only an ASCII digit matches.
        if candidate.as_bytes()[0].is_ascii_digit() {
            return format!("_{candidate}");
        }

        candidate
    }

    /// `deriveName(userFunctionName)`: the converted name, with `_2`, `_3`,
    /// … appended while it is taken.
    fn derive_name(&self, user_function_name: &str) -> String {
        let original_candidate = self.convert_to_valid_chars(user_function_name);
        let mut candidate = original_candidate.clone();

        // Check for dupes, and if so, add a number to the end. We start at 2
        // because if we have dupes and the first is never renamed, it makes
        // sense for them to be named, say, `f`, `f_2`, `f_3`
        let mut count = 2;
        while self.harmony_to_user.contains_key(&candidate) {
            candidate = format!("{original_candidate}_{count}");
            count += 1;
        }

        candidate
    }
}

/// The harmony parser's tool renaming: the tools `Init` returns for a
/// fresh `NewHarmonyMessageHandler()` (each named tool through
/// [`FunctionNameMap::convert_and_add`], empty names left alone).
pub fn harmony_rename_tools(tools: &[Tool]) -> Vec<Tool> {
    HarmonyMessageHandler::new().init(tools, None, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parser() -> HarmonyParser {
        HarmonyParser::new("<|start|>", "<|end|>", "<|message|>")
    }

    fn header(role: &str, channel: &str, recipient: &str) -> HarmonyEvent {
        HarmonyEvent::HeaderComplete {
            header: HarmonyHeader {
                role: role.into(),
                channel: channel.into(),
                recipient: recipient.into(),
            },
        }
    }

    fn content(s: &str) -> HarmonyEvent {
        HarmonyEvent::ContentEmitted { content: s.into() }
    }

    use HarmonyEvent::{MessageEnd as End, MessageStart as Start};

    /// `TestHeaderParsing`.
    #[test]
    fn header_parsing() {
        let cases = [
            ("assistant<|channel|>analysis", "assistant", "analysis", ""),
            (
                "assistant<|channel|>analysis to=functions.get_weather",
                "assistant",
                "analysis",
                "functions.get_weather",
            ),
            (
                "assistant to=functions.get_weather<|channel|>analysis",
                "assistant",
                "analysis",
                "functions.get_weather",
            ),
            // special case where the role is replaced by the recipient
            // (matches reference code)
            (
                "to=functions.get_weather<|channel|>analysis",
                "tool",
                "analysis",
                "functions.get_weather",
            ),
            // extra token after the recipient is ignored
            (
                "assistant to=functions.get_weather abc<|channel|>analysis",
                "assistant",
                "analysis",
                "functions.get_weather",
            ),
            // with constrain tag, recipient after channel tag
            (
                "assistant<|channel|>commentary to=functions.get_weather <|constrain|>json",
                "assistant",
                "commentary",
                "functions.get_weather",
            ),
            // with constrain tag, recipient before channel tag
            (
                "assistant to=functions.get_weather<|channel|>commentary <|constrain|>json",
                "assistant",
                "commentary",
                "functions.get_weather",
            ),
            // constrain tag without space
            (
                "assistant<|channel|>commentary to=functions.get_weather<|constrain|>json",
                "assistant",
                "commentary",
                "functions.get_weather",
            ),
            // constrain tag without space, different order
            (
                "assistant to=functions.get_weather<|channel|>commentary<|constrain|>json",
                "assistant",
                "commentary",
                "functions.get_weather",
            ),
            // not in Go's table: no role at all, white space of all kinds
            ("", "", "", ""),
            ("<|channel|>final", "", "final", ""),
            (
                "\u{a0}user\u{2003}to=x\u{85}<|channel|>c\u{3000}d",
                "user",
                "c",
                "x",
            ),
        ];
        for (i, (input, role, channel, recipient)) in cases.into_iter().enumerate() {
            let h = parser().parse_header(input);
            assert_eq!(
                (h.role.as_str(), h.channel.as_str(), h.recipient.as_str()),
                (role, channel, recipient),
                "case {i}: {input:?}"
            );
        }
    }

    /// `TestHarmonyParserHeaderEvent`.
    #[test]
    fn header_event() {
        let cases = [
            ("<|start|>user<|message|>What is 2 + 2?<|end|>", "user", "", "", false),
            (
                "<|start|>assistant<|channel|>analysis<|message|>What is 2 + 2?<|end|>",
                "assistant",
                "analysis",
                "",
                false,
            ),
            (
                "<|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{\"location\":\"San Francisco\"}<|call|><|start|>functions.get_weather to=assistant<|message|>{\"sunny\": true, \"temperature\": 20}<|end|>",
                "assistant",
                "commentary",
                "functions.get_weather",
                false,
            ),
            (
                "<|channel|>analysis<|message|>User asks weather in SF. We need location. Use get_current_weather with location \"San Francisco, CA\".<|end|><|start|>assistant<|channel|>commentary to=functions.get_current_weather <|constrain|>json<|message|>{\"location\":\"San Francisco, CA\"}<|call|>",
                "assistant",
                "analysis",
                "",
                true,
            ),
        ];
        for (i, (input, role, channel, recipient, implicit)) in cases.into_iter().enumerate() {
            let mut p = parser();
            if implicit {
                p.add_implicit_start();
            }
            let events = p.add_content(input);
            assert!(!events.is_empty(), "case {i}");
            let first = events.iter().find_map(|e| match e {
                HarmonyEvent::HeaderComplete { header } => Some(header.clone()),
                _ => None,
            });
            let h = first.expect("a header event");
            assert_eq!(
                (h.role.as_str(), h.channel.as_str(), h.recipient.as_str()),
                (role, channel, recipient),
                "case {i}"
            );
        }
    }

    /// `TestHarmonyParserNonStreaming`.
    #[test]
    fn non_streaming() {
        let cases: Vec<(&str, bool, Vec<HarmonyEvent>)> = vec![
            (
                "<|start|>user<|message|>What is 2 + 2?<|end|>",
                false,
                vec![Start, header("user", "", ""), content("What is 2 + 2?"), End],
            ),
            (
                "<|start|>assistant<|channel|>analysis<|message|>The answer is 4<|end|>",
                false,
                vec![
                    Start,
                    header("assistant", "analysis", ""),
                    content("The answer is 4"),
                    End,
                ],
            ),
            (
                "<|start|>assistant<|channel|>commentary to=functions.calc<|message|>Computing...<|end|>",
                false,
                vec![
                    Start,
                    header("assistant", "commentary", "functions.calc"),
                    content("Computing..."),
                    End,
                ],
            ),
            (
                "<|start|>user<|message|><|end|>",
                false,
                vec![Start, header("user", "", ""), End],
            ),
            (
                "<|start|>user<|message|>Hello<|end|><|start|>assistant<|message|>Hi!<|end|>",
                false,
                vec![
                    Start,
                    header("user", "", ""),
                    content("Hello"),
                    End,
                    Start,
                    header("assistant", "", ""),
                    content("Hi!"),
                    End,
                ],
            ),
            (
                "<|channel|>analysis<|message|>Thinking about the request<|end|>",
                true,
                vec![
                    Start,
                    header("assistant", "analysis", ""),
                    content("Thinking about the request"),
                    End,
                ],
            ),
        ];
        for (i, (input, implicit, want)) in cases.into_iter().enumerate() {
            let mut p = parser();
            if implicit {
                p.add_implicit_start();
            }
            assert_eq!(p.add_content(input), want, "case {i}");
        }
    }

    /// `TestHarmonyParserStreaming`.
    #[test]
    fn streaming() {
        type Steps = Vec<(&'static str, Vec<HarmonyEvent>)>;
        let cases: Vec<(&str, bool, Steps)> = vec![
            (
                "simple message streamed character by character",
                false,
                vec![
                    ("<", vec![]),
                    ("|", vec![]),
                    ("start|>u", vec![Start]),
                    ("ser<|mess", vec![]),
                    ("age|>Hi", vec![header("user", "", ""), content("Hi")]),
                    (" there", vec![content(" there")]),
                    ("<|e", vec![]),
                    ("nd|>", vec![End]),
                ],
            ),
            (
                "message with channel streamed",
                false,
                vec![
                    ("<|start|>assistant", vec![Start]),
                    ("<|chan", vec![]),
                    ("nel|>analysis", vec![]),
                    ("<|message|>", vec![header("assistant", "analysis", "")]),
                    ("Thinking", vec![content("Thinking")]),
                    ("...", vec![content("...")]),
                    ("<|end|>", vec![End]),
                ],
            ),
            (
                "message with channel and recipient",
                false,
                vec![
                    (
                        "<|start|>assistant<|channel|>commentary to=functions.calc<|message|>",
                        vec![Start, header("assistant", "commentary", "functions.calc")],
                    ),
                    ("{\"x\": 5}", vec![content("{\"x\": 5}")]),
                    ("<|end|>", vec![End]),
                ],
            ),
            (
                "message with channel and recipient (receipient before channel)",
                false,
                vec![
                    (
                        "<|start|>assistant to=functions.calc<|channel|>commentary<|message|>",
                        vec![Start, header("assistant", "commentary", "functions.calc")],
                    ),
                    ("{\"x\": 5}", vec![content("{\"x\": 5}")]),
                    ("<|end|>", vec![End]),
                ],
            ),
            (
                "implicit start with channel",
                true,
                vec![
                    ("<|channel|>thinking", vec![Start]),
                    ("<|message|>", vec![header("assistant", "thinking", "")]),
                    ("Processing request", vec![content("Processing request")]),
                    ("<|end|>", vec![End]),
                ],
            ),
            (
                "multiple messages streamed",
                false,
                vec![
                    (
                        "<|start|>user<|message|>Hello<|end|>",
                        vec![Start, header("user", "", ""), content("Hello"), End],
                    ),
                    ("<|start|>", vec![Start]),
                    ("assistant<|message|>", vec![header("assistant", "", "")]),
                    ("Hi!", vec![content("Hi!")]),
                    ("<|end|>", vec![End]),
                ],
            ),
            (
                "empty message",
                false,
                vec![(
                    "<|start|>system<|message|><|end|>",
                    vec![Start, header("system", "", ""), End],
                )],
            ),
            (
                "partial tag that looks like end but isn't",
                false,
                vec![
                    (
                        "<|start|>user<|message|>test<|e",
                        vec![Start, header("user", "", ""), content("test")],
                    ),
                    ("xample|>more", vec![content("<|example|>more")]),
                    ("<|end|>", vec![End]),
                ],
            ),
        ];
        for (desc, implicit, steps) in cases {
            let mut p = parser();
            if implicit {
                p.add_implicit_start();
            }
            for (i, (input, want)) in steps.into_iter().enumerate() {
                assert_eq!(p.add_content(input), want, "{desc}: step {i}: {input:?}");
            }
        }
    }

    /// `TestFunctionConvertToValidChars`.
    #[test]
    fn convert_to_valid_chars() {
        let cases = [
            ("get weather", "get_weather"),
            ("get-weather", "get_weather"),
            ("get.weather", "get_weather"),
            ("get weather!", "get_weather"),
            ("a🫠bc", "abc"),
            ("🫠", "unnamed"),
            ("123", "_123"),
            ("$", "$"),
            ("𝓸𝓵𝓵𝓪𝓶𝓪", "𝓸𝓵𝓵𝓪𝓶𝓪"),
            ("ⓞⓛⓛⓐⓜⓐ123", "_123"),
        ];
        for (i, (input, want)) in cases.into_iter().enumerate() {
            let m = FunctionNameMap::new();
            assert_eq!(m.convert_to_valid_chars(input), want, "case {i}");
        }
    }

    /// `TestFunctionConvertAndAdd`.
    #[test]
    fn convert_and_add() {
        let cases: [(&[&str], &[&str]); 5] = [
            (
                &["get weather", "get weather"],
                &["get_weather", "get_weather_2"],
            ),
            (
                &["get weather", "get_weather", "get-weather"],
                &["get_weather", "get_weather_2", "get_weather_3"],
            ),
            (
                &[
                    "get weather",
                    "get_weather",
                    "get-weather",
                    "something-different",
                ],
                &[
                    "get_weather",
                    "get_weather_2",
                    "get_weather_3",
                    "something_different",
                ],
            ),
            (
                &["a", "a", "b", "a", "a", "b", "a"],
                &["a", "a_2", "b", "a_3", "a_4", "b_2", "a_5"],
            ),
            (
                &[
                    "browser.open",
                    "python",
                    "not.a.built-in.function",
                    "browser.not_a_real_built_in",
                ],
                &[
                    "browser.open",
                    "python",
                    "not_a_built_in_function",
                    "browser_not_a_real_built_in",
                ],
            ),
        ];
        for (i, (input, want)) in cases.into_iter().enumerate() {
            let mut m = FunctionNameMap::new();
            for (j, name) in input.iter().enumerate() {
                assert_eq!(m.convert_and_add(name), want[j], "case {i}");
                assert_eq!(m.user_to_harmony[*name], want[j], "case {i}");
                assert_eq!(m.harmony_to_user[want[j]], *name, "case {i}");
            }
        }
    }

    fn add(h: &mut HarmonyMessageHandler, s: &str, done: bool) -> (String, String, String) {
        match h.add(s, done) {
            Ok(a) => (
                a.content,
                a.thinking,
                crate::parsers::tool_calls_json(&a.calls),
            ),
            Err(e) => ("ERR".into(), e, String::new()),
        }
    }

    #[test]
    fn message_handler() {
        use crate::api::ToolFunction;
        let tool = |n: &str| Tool {
            type_: "function".into(),
            function: ToolFunction {
                name: n.into(),
                ..ToolFunction::default()
            },
            ..Tool::default()
        };
        let mut h = HarmonyMessageHandler::new();
        let renamed = h.init(&[tool("get-weather"), tool("")], None, None);
        assert_eq!(renamed[0].function.name, "get_weather");
        assert_eq!(renamed[1].function.name, "");
        assert_eq!(
            add(&mut h, "<|channel|>analysis<|message|>think", false),
            ("".into(), "think".into(), "null".into())
        );
        assert_eq!(
            add(&mut h, "ing<|end|><|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{\"b\": 1, \"a\": [1.50, {\"z\": 1, \"y\": 2}], \"b\": 12345678901234567890}", false),
            ("".into(), "ing".into(), "null".into())
        );
        assert_eq!(
            add(&mut h, "", true),
            (
                "".into(),
                "".into(),
                r#"[{"function":{"index":0,"name":"get-weather","arguments":{"b":12345678901234567000,"a":[1.5,{"y":2,"z":1}]}}}]"#.into()
            )
        );

        // prefill: final channel content
        let mut h = HarmonyMessageHandler::new();
        h.init(&[], Some(&Message::new("assistant", "x")), None);
        assert_eq!(
            add(&mut h, "hello<|e", false),
            ("hello".into(), "".into(), "null".into())
        );
        assert_eq!(
            add(&mut h, "nd|>", true),
            ("".into(), "".into(), "null".into())
        );

        // an unknown tool keeps its name; bad JSON is an error
        let mut h = HarmonyMessageHandler::new();
        h.init(&[], None, None);
        add(
            &mut h,
            "<|channel|>commentary to=functions.x<|message|>{\"a\":",
            false,
        );
        assert_eq!(
            add(&mut h, "", true),
            (
                "ERR".into(),
                "error parsing tool call: raw='{\"a\":', err=unexpected end of JSON input".into(),
                String::new()
            )
        );
        // a name without tool content: the text is empty
        let mut h = HarmonyMessageHandler::new();
        h.init(&[], None, None);
        assert_eq!(
            add(
                &mut h,
                "<|channel|>analysis to=browser.search<|message|>",
                true
            ),
            (
                "ERR".into(),
                "error parsing tool call: raw='', err=unexpected end of JSON input".into(),
                String::new()
            )
        );
        let mut h = HarmonyMessageHandler::new();
        h.init(&[], None, None);
        assert_eq!(
            add(
                &mut h,
                "<|channel|>analysis to=browser.search<|message|>null",
                true
            ),
            (
                "".into(),
                "".into(),
                r#"[{"function":{"index":0,"name":"browser.search","arguments":null}}]"#.into()
            )
        );
    }
}

/// Replay of the recorded calls `harmony/harmonyparser_test.go` makes on
/// `HarmonyParser` and `FunctionNameMap` values (lines of kind
/// `harmony_parser` and `function_name_map`, and the `func` lines of
/// `NewFunctionNameMap`; the recorder of `tests/golden/parsers-tests.jsonl`): each value is rebuilt
/// from its recorded state, each method called again, its results and the
/// state after it compared with Go's. `HarmonyMessageHandler` lines (kind
/// `parser`) are replayed by tests/parsers_golden.rs.
#[cfg(test)]
mod golden {
    use super::*;
    use crate::parsers::golden_support;
    use serde_json::{json, Value as Json};

    const FILE: &str = "harmonyparser_test.go";

    fn state_of(p: &HarmonyParser) -> Json {
        let state = match p.state {
            HarmonyParserState::LookingForMessageStart => 0,
            HarmonyParserState::ParsingHeader => 1,
            HarmonyParserState::ParsingContent => 2,
        };
        json!({
            "state": state,
            "MessageStartTag": p.message_start_tag,
            "MessageEndTag": p.message_end_tag,
            "HeaderEndTag": p.header_end_tag,
            "acc": p.acc,
            "lifetimeAcc": p.lifetime_acc,
        })
    }

    fn parser_from(s: &Json) -> HarmonyParser {
        let text = |k: &str| s[k].as_str().unwrap_or("").to_string();
        HarmonyParser {
            state: match s["state"].as_i64() {
                Some(1) => HarmonyParserState::ParsingHeader,
                Some(2) => HarmonyParserState::ParsingContent,
                _ => HarmonyParserState::LookingForMessageStart,
            },
            message_start_tag: text("MessageStartTag"),
            message_end_tag: text("MessageEndTag"),
            header_end_tag: text("HeaderEndTag"),
            acc: text("acc"),
            lifetime_acc: text("lifetimeAcc"),
        }
    }

    fn header_of(h: &HarmonyHeader) -> Json {
        json!({"Role": h.role, "Channel": h.channel, "Recipient": h.recipient})
    }

    fn events_of(events: &[HarmonyEvent]) -> Json {
        if events.is_empty() {
            return Json::Null;
        }
        events
            .iter()
            .map(|e| match e {
                HarmonyEvent::MessageStart => {
                    json!({"$type": "HarmonyEventMessageStart", "value": {}})
                }
                HarmonyEvent::HeaderComplete { header } => json!({
                    "$type": "HarmonyEventHeaderComplete",
                    "value": {"Header": header_of(header)},
                }),
                HarmonyEvent::ContentEmitted { content } => json!({
                    "$type": "HarmonyEventContentEmitted",
                    "value": {"Content": content},
                }),
                HarmonyEvent::MessageEnd => json!({"$type": "HarmonyEventMessageEnd", "value": {}}),
            })
            .collect()
    }

    fn map_of(m: &HashMap<String, String>) -> Json {
        Json::Object(
            m.iter()
                .map(|(k, v)| (k.clone(), Json::String(v.clone())))
                .collect(),
        )
    }

    fn names_state(m: &FunctionNameMap) -> Json {
        json!({"userToHarmony": map_of(&m.user_to_harmony), "harmonyToUser": map_of(&m.harmony_to_user)})
    }

    fn names_from(s: &Json) -> FunctionNameMap {
        let m = |k: &str| -> HashMap<String, String> {
            s[k].as_object()
                .into_iter()
                .flatten()
                .map(|(k, v)| (k.clone(), v.as_str().unwrap_or("").to_string()))
                .collect()
        };
        FunctionNameMap {
            user_to_harmony: m("userToHarmony"),
            harmony_to_user: m("harmonyToUser"),
        }
    }

    fn message_from(v: &Json) -> Option<Message> {
        golden_support::init_args(&[Json::Null, v.clone(), Json::Null]).1
    }

    fn str_arg(call: &Json, i: usize) -> &str {
        call["args"][i].as_str().unwrap_or("")
    }

    /// Replays one line; `Ok(false)` for a line of another kind.
    fn replay(t: &Json) -> Result<bool, String> {
        let at = |i: usize, call: &Json, what: &str, want: &Json, got: &Json| {
            format!(
                "{} #{}: call {i} ({}): {what}: want {want}, got {got}",
                t["test"], t["n"], call["m"]
            )
        };
        let calls = t["calls"].as_array().cloned().unwrap_or_default();
        match t["kind"].as_str().unwrap_or("") {
            "harmony_parser" => {
                let mut p = parser_from(&t["state"]);
                for (i, call) in calls.iter().enumerate() {
                    if state_of(&p) != call["state"] {
                        return Err(at(i, call, "state before", &call["state"], &state_of(&p)));
                    }
                    let ret = match call["m"].as_str().unwrap_or("") {
                        "parseHeader" => json!([header_of(&p.parse_header(str_arg(call, 0)))]),
                        "AddContent" => json!([events_of(&p.add_content(str_arg(call, 0)))]),
                        "AddImplicitStart" => {
                            p.add_implicit_start();
                            json!([])
                        }
                        "AddImplicitStartOrPrefill" => {
                            p.add_implicit_start_or_prefill(
                                message_from(&call["args"][0]).as_ref(),
                            );
                            json!([])
                        }
                        m => return Err(format!("{}: no replay for HarmonyParser.{m}", t["test"])),
                    };
                    if ret != call["ret"] {
                        return Err(at(i, call, "results", &call["ret"], &ret));
                    }
                    if !call["after"].is_null() && state_of(&p) != call["after"] {
                        return Err(at(i, call, "state after", &call["after"], &state_of(&p)));
                    }
                }
                Ok(true)
            }
            "function_name_map" => {
                let mut m = names_from(&t["state"]);
                for (i, call) in calls.iter().enumerate() {
                    if names_state(&m) != call["state"] {
                        return Err(at(
                            i,
                            call,
                            "state before",
                            &call["state"],
                            &names_state(&m),
                        ));
                    }
                    let arg = str_arg(call, 0);
                    let ret = match call["m"].as_str().unwrap_or("") {
                        "convertToValidChars" => m.convert_to_valid_chars(arg),
                        "ConvertAndAdd" => m.convert_and_add(arg),
                        "OriginalFromConverted" => m.original_from_converted(arg),
                        "deriveName" => m.derive_name(arg),
                        f => {
                            return Err(format!("{}: no replay for FunctionNameMap.{f}", t["test"]))
                        }
                    };
                    let ret = json!([ret]);
                    if ret != call["ret"] {
                        return Err(at(i, call, "results", &call["ret"], &ret));
                    }
                    if !call["after"].is_null() && names_state(&m) != call["after"] {
                        return Err(at(i, call, "state after", &call["after"], &names_state(&m)));
                    }
                }
                Ok(true)
            }
            "func" => {
                let got = match t["func"].as_str().unwrap_or("") {
                    "NewFunctionNameMap" => names_state(&FunctionNameMap::new()),
                    f => return Err(format!("{}: no replay for func {f}", t["test"])),
                };
                let want = &t["ret"][0]["state"];
                if &got != want {
                    return Err(format!(
                        "{}: {}: want {want}, got {got}",
                        t["test"], t["func"]
                    ));
                }
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    #[test]
    fn recorded_harmony_calls() {
        let mut replayed = 0;
        let mut failures = Vec::new();
        for (_, t) in golden_support::all() {
            if t["file"] != FILE || t.get("skip").is_some() {
                continue;
            }
            match replay(t) {
                Ok(true) => replayed += 1,
                Ok(false) => {}
                Err(e) => failures.push(e),
            }
        }
        assert!(
            failures.is_empty(),
            "{} of {} differ:\n{}",
            failures.len(),
            replayed + failures.len(),
            failures.join("\n")
        );
        eprintln!("harmony: {replayed} recorded values replayed");
    }
}
