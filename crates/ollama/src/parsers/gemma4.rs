//! `model/parsers/gemma4.go`: Gemma 4's output format.
//!
//! Thinking is `<|channel>thought\n…<channel|>`, tool calls are
//! `<|tool_call>call:NAME{key:value,…}<tool_call|>` with Gemma's own
//! argument syntax (bare keys, strings between `<|"|>` delimiters), turned
//! into JSON and decoded as `api.ToolCallFunctionArguments`; a call that
//! does not decode goes through a few schema-guided repairs before it is
//! dropped.
//!
//! Go works on the bytes of its strings; so does this port where Go
//! indexes bytes (the argument rewriting), and every place it cuts a string
//! is at an ASCII byte or a rune boundary, so the pieces stay valid UTF-8.

use super::gojson_decode::{unmarshal_arguments, Args};
use super::{
    cfg_bool, overlap, properties_get, tool_call, trailing_whitespace_len, trim_left_space,
    trim_right_space, trim_space, Added, Config, Constructors, Parser,
};
use crate::api::{Message, Think, Tool, ToolCall, ToolProperty};
use crate::gojson::J;
use gotmpl::unicode::{is_digit, is_letter, is_space};

/// `Gemma4ParserState`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Gemma4ParserState {
    /// `Gemma4CollectingContent`
    #[default]
    CollectingContent,
    /// `Gemma4CollectingThinking`
    CollectingThinking,
    /// `Gemma4CollectingToolCall`
    CollectingToolCall,
    /// `Gemma4IgnoringPostToolCallNoise`
    IgnoringPostToolCallNoise,
}

/// `gemma4ThinkingOpenTag`
const GEMMA4_THINKING_OPEN_TAG: &str = "<|channel>";
/// `gemma4ThinkingCloseTag`
const GEMMA4_THINKING_CLOSE_TAG: &str = "<channel|>";
/// `gemma4ToolCallOpenTag`
const GEMMA4_TOOL_CALL_OPEN_TAG: &str = "<|tool_call>";
/// `gemma4ToolCallCloseTag`
const GEMMA4_TOOL_CALL_CLOSE_TAG: &str = "<tool_call|>";
/// `gemma4ToolResponseTag`
const GEMMA4_TOOL_RESPONSE_TAG: &str = "<|tool_response>";
/// `gemma4StringDelimiter`
const GEMMA4_STRING_DELIMITER: &str = "<|\"|>";

/// `Gemma4Parser`.
#[derive(Clone, Debug, Default)]
pub struct Gemma4Parser {
    state: Gemma4ParserState,
    buffer: String,
    tools: Vec<Tool>,
    call_index: i64,
    has_thinking_support: bool,
    /// True when both the model supports and the user requested thinking.
    thinking_enabled: bool,
    /// True when we just entered thinking and need to strip `thought\n`.
    needs_channel_name_strip: bool,
    /// A release before `gemma4_thinking_after_tool`: after a tool result
    /// the answer starts as content.
    before_thinking_after_tool: bool,
    /// Whether that row decided where the answer started.
    thinking_after_tool_reached: bool,
}

impl Gemma4Parser {
    /// `&Gemma4Parser{hasThinkingSupport: …}`.
    pub fn new(has_thinking_support: bool) -> Gemma4Parser {
        Gemma4Parser {
            has_thinking_support,
            ..Gemma4Parser::default()
        }
    }
}

/// `gemma4Event`.
#[derive(Clone, Debug, PartialEq)]
enum Gemma4Event {
    /// `gemma4EventThinkingContent`
    ThinkingContent(String),
    /// `gemma4EventContent`
    Content(String),
    /// `gemma4EventToolCall`
    ToolCall(ToolCall),
}

impl Parser for Gemma4Parser {
    /// `Init`.
    fn init(
        &mut self,
        tools: &[Tool],
        last_message: Option<&Message>,
        think: Option<&Think>,
    ) -> Vec<Tool> {
        self.tools = tools.to_vec();
        self.call_index = 0;

        let prefill = last_message.is_some_and(|m| m.role == "assistant");

        self.thinking_enabled = self.has_thinking_support() && think.is_some_and(Think::as_bool);

        if !self.thinking_enabled {
            self.state = Gemma4ParserState::CollectingContent;
            return tools.to_vec();
        }

        if last_message.is_some_and(|m| m.role == "tool") {
            self.thinking_after_tool_reached = true;
        }
        if last_message.is_some_and(|m| m.role == "tool") && !self.before_thinking_after_tool {
            self.state = Gemma4ParserState::CollectingThinking;
            self.needs_channel_name_strip = false;
            return tools.to_vec();
        }

        if prefill && last_message.is_some_and(|m| !m.content.is_empty()) {
            self.state = Gemma4ParserState::CollectingContent;
            return tools.to_vec();
        }

        // When thinking is enabled, start in content mode but we'll switch
        // to thinking when we see <|channel>. The model typically starts
        // with <|channel> immediately when thinking is enabled.
        self.state = Gemma4ParserState::CollectingContent;
        tools.to_vec()
    }

    /// `Add`.
    fn add(&mut self, s: &str, done: bool) -> Result<Added, String> {
        self.buffer.push_str(s);
        let events = self.parse_events(done);

        let mut tool_calls = Vec::new();
        let mut content = String::new();
        let mut thinking = String::new();
        for event in events {
            match event {
                Gemma4Event::ToolCall(c) => tool_calls.push(c),
                Gemma4Event::ThinkingContent(t) => {
                    if self.thinking_enabled {
                        thinking.push_str(&t);
                    }
                    // When thinking is disabled, silently discard channel
                    // content.
                }
                Gemma4Event::Content(c) => content.push_str(&c),
            }
        }

        for c in &mut tool_calls {
            c.function.index = self.call_index;
            self.call_index += 1;
        }

        Ok(Added {
            content,
            thinking,
            calls: tool_calls,
        })
    }

    /// `PreservedTokens`.
    fn preserved_tokens(&self) -> Vec<String> {
        [
            GEMMA4_THINKING_OPEN_TAG,
            GEMMA4_THINKING_CLOSE_TAG,
            GEMMA4_TOOL_CALL_OPEN_TAG,
            GEMMA4_TOOL_CALL_CLOSE_TAG,
            GEMMA4_TOOL_RESPONSE_TAG,
            GEMMA4_STRING_DELIMITER,
        ]
        .iter()
        .map(|s| s.to_string())
        .collect()
    }

    /// `HasToolSupport`.
    fn has_tool_support(&self) -> bool {
        true
    }

    /// `HasThinkingSupport`.
    fn has_thinking_support(&self) -> bool {
        self.has_thinking_support
    }

    fn set_release(&mut self, rules: &changes::Rules) {
        self.before_thinking_after_tool = !rules.has(&changes::ollama::GEMMA4_THINKING_AFTER_TOOL);
    }

    fn rows_reached(&self) -> Vec<&'static changes::Change> {
        if self.thinking_after_tool_reached {
            vec![&changes::ollama::GEMMA4_THINKING_AFTER_TOOL]
        } else {
            Vec::new()
        }
    }
}

/// `longestOverlap(bufStr, tags...)`: the longest overlap between the suffix
/// of `buf` and a prefix of any of the tags.
fn longest_overlap(buf: &str, tags: &[&str]) -> usize {
    tags.iter().map(|t| overlap(buf, t)).max().unwrap_or(0)
}

impl Gemma4Parser {
    /// `parseEvents`.
    fn parse_events(&mut self, done: bool) -> Vec<Gemma4Event> {
        let mut all = Vec::new();
        let mut keep_looping = true;
        while keep_looping {
            let (events, keep) = self.eat(done);
            keep_looping = keep;
            all.extend(events);
        }
        all
    }

    /// Holds back a partial tag (and the white space before it) at the
    /// end of `buf`: the buffer keeps the ambiguous tail, the rest comes
    /// back.
    fn withhold(&mut self, buf: &str, overlap_len: usize) -> String {
        let before_partial_tag = &buf[..buf.len() - overlap_len];
        let trailing_len = trailing_whitespace_len(before_partial_tag);
        let ambiguous_start = before_partial_tag.len() - trailing_len;
        let unambiguous = buf[..ambiguous_start].to_string();
        self.buffer = buf[ambiguous_start..].to_string();
        unambiguous
    }

    /// `eat`.
    fn eat(&mut self, done: bool) -> (Vec<Gemma4Event>, bool) {
        let mut events = Vec::new();
        let mut buf = self.buffer.clone();
        if buf.is_empty() {
            return (events, false);
        }

        match self.state {
            Gemma4ParserState::CollectingContent => {
                // Check for thinking open tag
                if let Some(idx) = buf.find(GEMMA4_THINKING_OPEN_TAG) {
                    let content_before = trim_right_space(&buf[..idx]);
                    self.buffer = buf[idx + GEMMA4_THINKING_OPEN_TAG.len()..].to_string();
                    self.state = Gemma4ParserState::CollectingThinking;
                    self.needs_channel_name_strip = true;
                    if !content_before.is_empty() {
                        events.push(Gemma4Event::Content(content_before.to_string()));
                    }
                    return (events, true);
                }

                // Check for tool call open tag
                if let Some(idx) = buf.find(GEMMA4_TOOL_CALL_OPEN_TAG) {
                    let content_before = trim_right_space(&buf[..idx]);
                    self.buffer = buf[idx + GEMMA4_TOOL_CALL_OPEN_TAG.len()..].to_string();
                    self.state = Gemma4ParserState::CollectingToolCall;
                    if !content_before.is_empty() {
                        events.push(Gemma4Event::Content(content_before.to_string()));
                    }
                    return (events, true);
                }

                // Check for partial tag overlap
                if !done {
                    let overlap_len = longest_overlap(
                        &buf,
                        &[GEMMA4_THINKING_OPEN_TAG, GEMMA4_TOOL_CALL_OPEN_TAG],
                    );
                    if overlap_len > 0 {
                        let unambiguous = self.withhold(&buf, overlap_len);
                        if !unambiguous.is_empty() {
                            events.push(Gemma4Event::Content(unambiguous));
                        }
                        return (events, false);
                    }
                }

                // No tags found, emit all content
                self.buffer.clear();
                events.push(Gemma4Event::Content(buf));
                (events, false)
            }

            Gemma4ParserState::CollectingThinking => {
                // Strip channel name (e.g., "thought\n") after <|channel>.
                // Gemma 4 format: <|channel>thought\n...content...<channel|>
                // In streaming mode, "thought" and "\n" may arrive in
                // separate chunks.
                if self.needs_channel_name_strip {
                    if let Some(rest) = buf.strip_prefix("thought\n") {
                        buf = rest.to_string();
                        self.buffer = buf.clone();
                        self.needs_channel_name_strip = false;
                    } else if !done && (buf == "thought" || "thought\n".starts_with(&buf)) {
                        // Partial match — wait for more data.
                        return (events, false);
                    } else {
                        // No match (different channel name or no newline) —
                        // don't strip.
                        self.needs_channel_name_strip = false;
                    }
                }

                if let Some(idx) = buf.find(GEMMA4_THINKING_CLOSE_TAG) {
                    let thinking = trim_right_space(&buf[..idx]);
                    let remaining = trim_left_space(&buf[idx + GEMMA4_THINKING_CLOSE_TAG.len()..]);
                    self.buffer = remaining.to_string();
                    self.state = Gemma4ParserState::CollectingContent;
                    if !thinking.is_empty() {
                        events.push(Gemma4Event::ThinkingContent(thinking.to_string()));
                    }
                    return (events, true);
                }

                // Check for partial close tag
                if !done {
                    let overlap_len = overlap(&buf, GEMMA4_THINKING_CLOSE_TAG);
                    if overlap_len > 0 {
                        let unambiguous = self.withhold(&buf, overlap_len);
                        if !unambiguous.is_empty() {
                            events.push(Gemma4Event::ThinkingContent(unambiguous));
                        }
                        return (events, false);
                    }
                }

                // No close tag, emit thinking content (hold back trailing
                // whitespace)
                if !done {
                    let unambiguous = self.withhold(&buf, 0);
                    if !unambiguous.is_empty() {
                        events.push(Gemma4Event::ThinkingContent(unambiguous));
                    }
                } else {
                    self.buffer.clear();
                    if !buf.is_empty() {
                        events.push(Gemma4Event::ThinkingContent(buf));
                    }
                }
                (events, false)
            }

            Gemma4ParserState::CollectingToolCall => {
                if let Some(idx) = buf.find(GEMMA4_TOOL_CALL_CLOSE_TAG) {
                    let tool_call_content = &buf[..idx];
                    let remaining = trim_left_space(&buf[idx + GEMMA4_TOOL_CALL_CLOSE_TAG.len()..]);
                    self.buffer = remaining.to_string();
                    self.state = Gemma4ParserState::IgnoringPostToolCallNoise;

                    // Go logs the error ("gemma4 tool call parsing failed")
                    // and drops the call.
                    if let Ok(call) = parse_gemma4_tool_call(tool_call_content, &self.tools) {
                        events.push(Gemma4Event::ToolCall(call));
                    }
                    return (events, true);
                }

                // If done, flush any accumulated tool call content even
                // without closing tag. The model may hit a stop token before
                // emitting <tool_call|>.
                if done {
                    self.buffer.clear();
                    self.state = Gemma4ParserState::CollectingContent;
                    // Go logs "gemma4 tool call flush on done failed".
                    if let Ok(call) = parse_gemma4_tool_call(&buf, &self.tools) {
                        events.push(Gemma4Event::ToolCall(call));
                    }
                    return (events, false);
                }

                // Wait for closing tag
                (events, false)
            }

            Gemma4ParserState::IgnoringPostToolCallNoise => {
                // We've observed Gemma 4 occasionally emitting extra
                // <tool_call|> tags after a valid tool call. We suppress
                // those leading control tags in this immediate
                // post-tool-call state so they do not leak into assistant
                // content. The tradeoff is that if the model intentionally
                // begins its next content span with one of those literal
                // strings, we will erroneously treat it as noise and drop
                // it. We also suppress a leading <|tool_response> marker
                // here because the updated upstream parser/template uses it
                // as a post-tool-call boundary.
                let mut rest = trim_left_space(&buf);
                loop {
                    if let Some(r) = rest.strip_prefix(GEMMA4_TOOL_CALL_CLOSE_TAG) {
                        rest = trim_left_space(r);
                    } else if let Some(r) = rest.strip_prefix(GEMMA4_TOOL_RESPONSE_TAG) {
                        rest = trim_left_space(r);
                    } else {
                        break;
                    }
                }
                self.buffer = rest.to_string();

                if rest.is_empty() {
                    return (events, false);
                }

                if GEMMA4_TOOL_CALL_CLOSE_TAG.starts_with(rest)
                    || GEMMA4_TOOL_RESPONSE_TAG.starts_with(rest)
                {
                    if done {
                        self.buffer.clear();
                        self.state = Gemma4ParserState::CollectingContent;
                    }
                    return (events, false);
                }

                self.state = Gemma4ParserState::CollectingContent;
                (events, true)
            }
        }
    }
}

/// `parseGemma4ToolCall`: a tool call in Gemma 4 format,
/// `call:NAME{key:value,key:value}`.
fn parse_gemma4_tool_call(content: &str, tools: &[Tool]) -> Result<ToolCall, String> {
    // Expected format: call:NAME{args}
    let Some(content) = content.strip_prefix("call:") else {
        return Err("expected 'call:' prefix".to_string());
    };

    // Find the opening brace for args
    let Some(brace_idx) = content.find('{') else {
        return Err("expected '{' in tool call".to_string());
    };

    let tool_name = trim_space(&content[..brace_idx]);
    let args_str = &content[brace_idx..];

    // Convert Gemma 4 argument format to JSON
    let json_str = gemma4_args_to_json(args_str);

    let args = match unmarshal_arguments(&json_str) {
        Ok(args) => args,
        Err(err) => match repair_gemma4_tool_call_args(args_str, tool_name, tools) {
            Ok(args) => args,
            // errors.Join(err, repairErr)
            Err(repair_err) => return Err(format!("{}\n{repair_err}", err.text())),
        },
    };

    Ok(tool_call(tool_name, args))
}

/// The byte index of `needle` in `hay` (`strings.Index` on bytes).
fn index_bytes(hay: &[u8], needle: &[u8]) -> Option<usize> {
    if needle.is_empty() {
        return Some(0);
    }
    hay.windows(needle.len()).position(|w| w == needle)
}

/// Bytes cut from a valid UTF-8 string at ASCII bytes or rune boundaries,
/// back as a string (lossy only if that ever failed to hold).
fn string_of(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// `utf8.DecodeRuneInString(s[i:])`: the rune at byte `i` and its size;
/// `(U+FFFD, 1)` for a byte that does not start a valid sequence, size 0
/// at the end.
fn decode_rune(b: &[u8], i: usize) -> (char, usize) {
    if i >= b.len() {
        return ('\u{FFFD}', 0);
    }
    let chunk = &b[i..(i + 4).min(b.len())];
    let valid = match std::str::from_utf8(chunk) {
        Ok(s) => s,
        Err(e) => std::str::from_utf8(&chunk[..e.valid_up_to()]).unwrap_or(""),
    };
    match valid.chars().next() {
        Some(c) => (c, c.len_utf8()),
        None => ('\u{FFFD}', 1),
    }
}

/// The Gemma string placeholder Go writes for the `i`th quoted string:
/// `"\x00" + string(rune(i)) + "\x00"` (`string(rune(i))` is U+FFFD for a
/// surrogate or out-of-range value).
fn gemma4_placeholder(i: usize) -> String {
    let r = u32::try_from(i)
        .ok()
        .and_then(char::from_u32)
        .unwrap_or('\u{FFFD}');
    format!("\x00{r}\x00")
}

/// `gemma4ArgsToJSON`: Gemma 4's custom argument format as JSON.
///
/// Go's `gemma4QuotedStringRe` (`(?s)<\|"\|>(.*?)<\|"\|>`) matches, from
/// the left, a delimiter and the shortest text up to the next delimiter;
/// it is matched here by hand.
fn gemma4_args_to_json(s: &str) -> String {
    let d = GEMMA4_STRING_DELIMITER;
    let mut quoted_strings: Vec<&str> = Vec::new();
    let mut text = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(open) = rest.find(d) {
        let after = &rest[open + d.len()..];
        let Some(close) = after.find(d) else {
            break;
        };
        text.push_str(&rest[..open]);
        quoted_strings.push(&after[..close]);
        text.push_str(&gemma4_placeholder(quoted_strings.len() - 1));
        rest = &after[close + d.len()..];
    }
    text.push_str(rest);

    let mut text = quote_gemma4_bare_keys(&text);

    for (i, value) in quoted_strings.iter().enumerate() {
        let escaped = J::s(*value).to_json();
        text = text.replace(&gemma4_placeholder(i), &escaped);
    }

    text
}

/// `quoteGemma4BareKeys`: quotes each bare key after `{` or `,` (JSON
/// strings are copied as they are).
fn quote_gemma4_bare_keys(s: &str) -> String {
    let b = s.as_bytes();
    let mut sb: Vec<u8> = Vec::with_capacity(b.len() + 16);

    let mut i = 0;
    while i < b.len() {
        if b[i] == b'"' {
            if let Some(end) = gemma4_json_quoted_string_end(b, i) {
                sb.extend_from_slice(&b[i..end]);
                i = end;
                continue;
            }
        }

        if b[i] != b'{' && b[i] != b',' {
            sb.push(b[i]);
            i += 1;
            continue;
        }

        sb.push(b[i]);
        i += 1;

        let space_start = i;
        i = gemma4_skip_space(b, i);
        sb.extend_from_slice(&b[space_start..i]);

        let key_end = gemma4_bare_key_end(b, i);
        if key_end > i && key_end < b.len() && b[key_end] == b':' {
            sb.push(b'"');
            sb.extend_from_slice(&b[i..key_end]);
            sb.push(b'"');
            sb.push(b':');
            i = key_end + 1;
            continue;
        }
    }

    string_of(sb)
}

/// Whether a rune may be part of a bare key: `_`, a letter or a digit.
fn is_bare_key_rune(r: char) -> bool {
    r == '_' || is_letter(r) || is_digit(r)
}

/// `gemma4BareKeyEnd`.
fn gemma4_bare_key_end(b: &[u8], start: usize) -> usize {
    let mut i = start;
    while i < b.len() {
        let (r, size) = decode_rune(b, i);
        if !is_bare_key_rune(r) {
            break;
        }
        i += size;
    }
    i
}

/// `repairGemma4ToolCallArgs`: a best-effort repair after strict parsing
/// fails. For example, if the model emits an unclosed gemma string as the
/// last value, we can repair it by closing it with the gemma string
/// delimiter.
fn repair_gemma4_tool_call_args(
    args_str: &str,
    tool_name: &str,
    tools: &[Tool],
) -> Result<Args, String> {
    for candidate in gemma4_repair_candidates(args_str, tool_name, tools) {
        let json_str = gemma4_args_to_json(&candidate);
        if let Ok(args) = unmarshal_arguments(&json_str) {
            return Ok(args);
        }
    }
    Err("repair failed to produce valid JSON arguments".to_string())
}

/// `gemma4ToolProperties`: the properties of the first tool named
/// `tool_name` (`None` for none, or a nil map).
fn gemma4_tool_properties<'a>(
    tool_name: &str,
    tools: &'a [Tool],
) -> Option<&'a [(String, ToolProperty)]> {
    tools
        .iter()
        .find(|t| t.function.name == tool_name)
        .and_then(|t| t.function.parameters.properties.as_deref())
}

/// `gemma4RepairCandidates`: the small set of repaired argument strings we
/// are willing to try after strict parsing fails. Each candidate still has
/// to pass the normal Gemma4-to-JSON conversion and JSON unmarshal before
/// it is used.
fn gemma4_repair_candidates(args_str: &str, tool_name: &str, tools: &[Tool]) -> Vec<String> {
    let mut candidates: Vec<String> = Vec::new();
    let mut add_candidate = |candidate: &str, allow_missing_object_close: bool| {
        let original = candidate;
        let mut candidate = repair_gemma4_single_quoted_values(candidate);
        candidate = repair_gemma4_missing_string_delimiter(&candidate);
        if allow_missing_object_close || candidate != original {
            candidate = repair_gemma4_missing_object_close(&candidate);
        }
        if !candidates.contains(&candidate) {
            candidates.push(candidate);
        }
    };

    add_candidate(args_str, false);
    if let Some(raw) = repair_gemma4_raw_terminal_string_value(args_str, tool_name, tools) {
        add_candidate(&raw, true);
    }

    candidates
}

/// `repairGemma4MissingStringDelimiter`: closes an unbalanced Gemma string
/// marker. When the value is immediately followed by a closing
/// brace/bracket, the marker is inserted before that structural close
/// rather than after it.
fn repair_gemma4_missing_string_delimiter(s: &str) -> String {
    if s.matches(GEMMA4_STRING_DELIMITER).count().is_multiple_of(2) {
        return s.to_string();
    }

    let b = s.as_bytes();
    let mut insert_at = gemma4_trim_right_space_index(s);
    if insert_at > 0 && (b[insert_at - 1] == b'}' || b[insert_at - 1] == b']') {
        insert_at -= 1;
    }

    let mut sb = Vec::with_capacity(b.len() + GEMMA4_STRING_DELIMITER.len());
    sb.extend_from_slice(&b[..insert_at]);
    sb.extend_from_slice(GEMMA4_STRING_DELIMITER.as_bytes());
    sb.extend_from_slice(&b[insert_at..]);
    string_of(sb)
}

/// `repairGemma4MissingObjectClose`: adds a final object close after
/// another repair has made a truncated object plausible. Callers decide
/// when that guardrail is satisfied; this helper only performs the
/// mechanical insertion.
fn repair_gemma4_missing_object_close(s: &str) -> String {
    if !trim_left_space(s).starts_with('{') {
        return s.to_string();
    }

    let b = s.as_bytes();
    let trimmed_end = gemma4_trim_right_space_index(s);
    if trimmed_end > 0 && b[trimmed_end - 1] == b'}' {
        return s.to_string();
    }

    let mut sb = Vec::with_capacity(b.len() + 1);
    sb.extend_from_slice(&b[..trimmed_end]);
    sb.push(b'}');
    sb.extend_from_slice(&b[trimmed_end..]);
    string_of(sb)
}

/// `repairGemma4SingleQuotedValues`: converts single-quoted argument values
/// into Gemma string-delimited values. It also drops a stray Gemma
/// delimiter that sometimes appears immediately after the closing single
/// quote.
fn repair_gemma4_single_quoted_values(s: &str) -> String {
    let d = GEMMA4_STRING_DELIMITER.as_bytes();
    let b = s.as_bytes();
    let mut sb: Vec<u8> = Vec::with_capacity(b.len());

    let mut i = 0;
    while i < b.len() {
        if b[i..].starts_with(d) {
            let Some(end) = index_bytes(&b[i + d.len()..], d) else {
                sb.extend_from_slice(&b[i..]);
                break;
            };
            let end = i + d.len() + end + d.len();
            sb.extend_from_slice(&b[i..end]);
            i = end;
            continue;
        }

        if b[i] == b'"' {
            if let Some(end) = gemma4_json_quoted_string_end(b, i) {
                sb.extend_from_slice(&b[i..end]);
                i = end;
                continue;
            }
        }

        if b[i] != b':' {
            sb.push(b[i]);
            i += 1;
            continue;
        }

        sb.push(b[i]);
        i += 1;

        let space_end = gemma4_skip_space(b, i);
        sb.extend_from_slice(&b[i..space_end]);
        i = space_end;
        if i >= b.len() || b[i] != b'\'' {
            continue;
        }

        let Some((value, end)) = gemma4_single_quoted_value(b, i) else {
            continue;
        };

        sb.extend_from_slice(d);
        sb.extend_from_slice(&value);
        sb.extend_from_slice(d);
        i = end;
        if b[i..].starts_with(d) {
            i += d.len();
        }
    }

    string_of(sb)
}

/// `gemma4SingleQuotedValue`: the text of the single-quoted value at
/// `start` and the index after its closing quote (`None`: unterminated).
fn gemma4_single_quoted_value(b: &[u8], start: usize) -> Option<(Vec<u8>, usize)> {
    let mut sb = Vec::new();
    let mut escaped = false;
    for (i, &c) in b.iter().enumerate().skip(start + 1) {
        if c == b'\'' && !escaped {
            return Some((sb, i + 1));
        }

        sb.push(c);
        escaped = c == b'\\' && !escaped;
    }
    None
}

/// `repairGemma4RawTerminalStringValue`: wraps a raw value in Gemma string
/// delimiters only when the tool schema says that argument is a string.
/// This is deliberately schema-gated because raw text is otherwise too
/// ambiguous.
fn repair_gemma4_raw_terminal_string_value(
    args_str: &str,
    tool_name: &str,
    tools: &[Tool],
) -> Option<String> {
    let props = gemma4_tool_properties(tool_name, tools)?;

    for (key, prop) in props {
        if !gemma4_property_accepts_string(prop) {
            continue;
        }

        if let Some(repaired) =
            repair_gemma4_raw_terminal_string_value_for_key(args_str, key, props)
        {
            return Some(repaired);
        }
    }

    None
}

/// `repairGemma4RawTerminalStringValueForKey`.
fn repair_gemma4_raw_terminal_string_value_for_key(
    s: &str,
    key: &str,
    props: &[(String, ToolProperty)],
) -> Option<String> {
    let b = s.as_bytes();
    let mut search_start = 0;
    while search_start < b.len() {
        let value_start = gemma4_find_value_start_for_key(b, key.as_bytes(), search_start)?;

        let value_check = gemma4_skip_space(b, value_start);
        if value_check < b.len() && gemma4_value_starts_structured(b, value_check) {
            search_start = value_start;
            continue;
        }

        let value_end = gemma4_raw_string_value_end(s, value_start, props);
        let d = GEMMA4_STRING_DELIMITER.as_bytes();
        let mut out = Vec::with_capacity(b.len() + 2 * d.len());
        out.extend_from_slice(&b[..value_start]);
        out.extend_from_slice(d);
        out.extend_from_slice(&b[value_start..value_end]);
        out.extend_from_slice(d);
        out.extend_from_slice(&b[value_end..]);
        return Some(string_of(out));
    }

    None
}

/// `gemma4FindValueStartForKey`: the index after the colon of `key` as an
/// object key at or after `search_start`.
fn gemma4_find_value_start_for_key(b: &[u8], key: &[u8], search_start: usize) -> Option<usize> {
    let d = GEMMA4_STRING_DELIMITER.as_bytes();
    let mut i = search_start;
    while i < b.len() {
        if b[i..].starts_with(d) {
            let end = index_bytes(&b[i + d.len()..], d)?;
            i += d.len() + end + d.len();
            continue;
        }

        if b[i] == b'"' {
            if let Some(end) = gemma4_json_quoted_string_end(b, i) {
                i = end;
                continue;
            }
        }

        if b[i] != b'{' && b[i] != b',' {
            i += 1;
            continue;
        }

        let key_start = gemma4_skip_space(b, i + 1);
        if !b[key_start..].starts_with(key) {
            i += 1;
            continue;
        }

        let colon = gemma4_skip_space(b, key_start + key.len());
        if colon < b.len() && b[colon] == b':' {
            return Some(colon + 1);
        }
        i += 1;
    }

    None
}

/// `gemma4RawStringValueEnd`: where a raw value starting at `start` ends:
/// before a `,` that starts a known property, else before a final `}`,
/// else at the end.
fn gemma4_raw_string_value_end(s: &str, start: usize, props: &[(String, ToolProperty)]) -> usize {
    let b = s.as_bytes();
    for i in start..b.len() {
        if b[i] != b',' {
            continue;
        }

        let key_start = gemma4_skip_space(b, i + 1);
        let key_end = gemma4_bare_key_end(b, key_start);
        if key_end == key_start {
            continue;
        }

        let colon = gemma4_skip_space(b, key_end);
        if colon < b.len()
            && b[colon] == b':'
            && s.get(key_start..key_end)
                .and_then(|key| properties_get(props, key))
                .is_some()
        {
            return i;
        }
    }

    let end = gemma4_trim_right_space_index(s);
    if end > start && b[end - 1] == b'}' {
        return end - 1;
    }
    b.len()
}

/// `gemma4ValueStartsStructured`.
fn gemma4_value_starts_structured(b: &[u8], pos: usize) -> bool {
    if pos >= b.len() {
        return false;
    }
    if b[pos..].starts_with(GEMMA4_STRING_DELIMITER.as_bytes()) {
        return true;
    }

    match b[pos] {
        b'\'' | b'"' | b'{' | b'[' => true,
        c => gemma4_looks_like_json_literal_start(c),
    }
}

/// `gemma4JSONQuotedStringEnd`: the index after the closing quote of the
/// JSON string at `start` (`None`: unterminated).
fn gemma4_json_quoted_string_end(b: &[u8], start: usize) -> Option<usize> {
    let mut escaped = false;
    for (i, &c) in b.iter().enumerate().skip(start + 1) {
        if c == b'"' && !escaped {
            return Some(i + 1);
        }
        escaped = c == b'\\' && !escaped;
    }
    None
}

/// `gemma4SkipSpace`: the index of the first non-space rune at or after
/// `i`.
fn gemma4_skip_space(b: &[u8], mut i: usize) -> usize {
    while i < b.len() {
        let (r, size) = decode_rune(b, i);
        if !is_space(r) {
            return i;
        }
        i += size;
    }
    i
}

/// `gemma4TrimRightSpaceIndex`: the length of `s` without its trailing
/// space.
fn gemma4_trim_right_space_index(s: &str) -> usize {
    trim_right_space(s).len()
}

/// `gemma4PropertyAcceptsString`: a type `string` (any case), itself or in
/// an `anyOf`.
fn gemma4_property_accepts_string(prop: &ToolProperty) -> bool {
    prop.type_.iter().any(|t| equal_fold_string(t))
        || prop.any_of.iter().any(gemma4_property_accepts_string)
}

/// `strings.EqualFold(t, "string")`: Unicode simple case folding, under
/// which `s` also matches U+017F (ſ) and the other letters only their two
/// ASCII cases.
fn equal_fold_string(t: &str) -> bool {
    let mut chars = t.chars();
    for want in "string".chars() {
        let Some(c) = chars.next() else {
            return false;
        };
        let ok = c.to_ascii_lowercase() == want || (want == 's' && c == '\u{017F}');
        if !ok {
            return false;
        }
    }
    chars.next().is_none()
}

/// `gemma4LooksLikeJSONLiteralStart`.
fn gemma4_looks_like_json_literal_start(ch: u8) -> bool {
    ch == b'-' || ch.is_ascii_digit() || ch == b't' || ch == b'f' || ch == b'n'
}

pub(crate) fn constructors() -> Constructors {
    fn by_name(name: &str) -> Option<Box<dyn Parser>> {
        match name {
            "gemma4" => Some(Box::new(Gemma4Parser::new(true))),
            "gemma4-no-thinking" => Some(Box::new(Gemma4Parser::new(false))),
            _ => None,
        }
    }
    fn by_go_type(ty: &str, config: &Config) -> Option<Box<dyn Parser>> {
        (ty == "Gemma4Parser").then(|| {
            Box::new(Gemma4Parser::new(cfg_bool(config, "hasThinkingSupport"))) as Box<dyn Parser>
        })
    }
    Constructors {
        by_name,
        by_go_type,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{ToolFunction, ToolFunctionParameters};
    use crate::parsers::{tool_call_json, tool_calls_json};

    /// Feeds chunks (the last with `done`); content, thinking and all calls
    /// as Go marshals them.
    fn feed(
        p: &mut Gemma4Parser,
        tools: &[Tool],
        last: Option<&Message>,
        think: Option<Think>,
        chunks: &[&str],
    ) -> (String, String, String) {
        p.init(tools, last, think.as_ref());
        let (mut content, mut thinking, mut calls) = (String::new(), String::new(), Vec::new());
        for (i, c) in chunks.iter().enumerate() {
            let a = p.add(c, i == chunks.len() - 1).unwrap();
            content += &a.content;
            thinking += &a.thinking;
            calls.extend(a.calls);
        }
        (content, thinking, tool_calls_json(&calls))
    }

    /// `gemma4TestStringTool(name, argNames...)`.
    fn string_tool(name: &str, args: &[&str]) -> Tool {
        typed_tool(
            name,
            &args.iter().map(|a| (*a, "string")).collect::<Vec<_>>(),
        )
    }

    fn typed_tool(name: &str, args: &[(&str, &str)]) -> Tool {
        Tool {
            type_: "function".into(),
            function: ToolFunction {
                name: name.into(),
                parameters: ToolFunctionParameters {
                    type_: "object".into(),
                    properties: Some(
                        args.iter()
                            .map(|(a, t)| {
                                (
                                    a.to_string(),
                                    ToolProperty {
                                        type_: vec![t.to_string()],
                                        ..ToolProperty::default()
                                    },
                                )
                            })
                            .collect(),
                    ),
                    ..ToolFunctionParameters::default()
                },
                ..ToolFunction::default()
            },
            ..Tool::default()
        }
    }

    // TestGemma4Parser (expected calls recorded from the Go code).
    #[test]
    #[allow(clippy::type_complexity)]
    fn gemma4_parser() {
        let cases: Vec<(&str, &str, &str, &str, &str, bool, Option<(&str, &str)>)> = vec![
            ("simple_content", "This is a simple response.", "This is a simple response.", "", r###"null"###, false, None),
            ("thinking_then_content", "<|channel>thought\nLet me think about this...<channel|>The answer is 42.", "The answer is 42.", "Let me think about this...", r###"null"###, true, None),
            ("multiple_thinking_blocks", "<|channel>first thought<channel|><|channel>second thought<channel|>Final answer.", "Final answer.", "first thoughtsecond thought", r###"null"###, true, None),
            ("thinking_only_no_content", "<|channel>just thinking<channel|>", "", "just thinking", r###"null"###, true, None),
            ("tool_call_simple", "<|tool_call>call:get_weather{location:<|\"|>Paris<|\"|>}<tool_call|>", "", "", r###"[{"function":{"index":0,"name":"get_weather","arguments":{"location":"Paris"}}}]"###, false, None),
            ("tool_call_with_multiple_args", "<|tool_call>call:get_weather{location:<|\"|>Paris<|\"|>,units:<|\"|>metric<|\"|>}<tool_call|>", "", "", r###"[{"function":{"index":0,"name":"get_weather","arguments":{"location":"Paris","units":"metric"}}}]"###, false, None),
            ("tool_call_with_number_arg", "<|tool_call>call:set_temp{value:42}<tool_call|>", "", "", r###"[{"function":{"index":0,"name":"set_temp","arguments":{"value":42}}}]"###, false, None),
            ("tool_call_with_boolean_arg", "<|tool_call>call:toggle{enabled:true}<tool_call|>", "", "", r###"[{"function":{"index":0,"name":"toggle","arguments":{"enabled":true}}}]"###, false, None),
            ("tool_call_with_null_arg", "<|tool_call>call:set_optional{value:null,nested:{value:null}}<tool_call|>", "", "", r###"[{"function":{"index":0,"name":"set_optional","arguments":{"value":null,"nested":{"value":null}}}}]"###, false, None),
            ("tool_call_with_nested_object", "<|tool_call>call:process{config:{enabled:true,name:<|\"|>test<|\"|>}}<tool_call|>", "", "", r###"[{"function":{"index":0,"name":"process","arguments":{"config":{"enabled":true,"name":"test"}}}}]"###, false, None),
            ("tool_call_with_array", "<|tool_call>call:process{items:[<|\"|>a<|\"|>,<|\"|>b<|\"|>]}<tool_call|>", "", "", r###"[{"function":{"index":0,"name":"process","arguments":{"items":["a","b"]}}}]"###, false, None),
            ("tool_call_with_array_of_multiple_gemma_quoted_strings", "<|tool_call>call:process{items:[<|\"|>a<|\"|>,<|\"|>b \"quoted\"<|\"|>,<|\"|>c<|\"|>]}<tool_call|>", "", "", r###"[{"function":{"index":0,"name":"process","arguments":{"items":["a","b \"quoted\"","c"]}}}]"###, false, None),
            ("tool_call_with_multiline_string_arg", "<|tool_call>call:bash{command:<|\"|>date\n<|\"|>}<tool_call|>", "", "", r###"[{"function":{"index":0,"name":"bash","arguments":{"command":"date\n"}}}]"###, false, None),
            ("tool_call_with_escaped_double_quotes_in_string_arg", "<|tool_call>call:search{query:<|\"|>say \\\"hello\\\"<|\"|>}<tool_call|>", "", "", r###"[{"function":{"index":0,"name":"search","arguments":{"query":"say \\\"hello\\\""}}}]"###, false, None),
            ("tool_call_with_unescaped_double_quotes_in_string_arg", "<|tool_call>call:search{query:<|\"|>say \"hello\"<|\"|>}<tool_call|>", "", "", r###"[{"function":{"index":0,"name":"search","arguments":{"query":"say \"hello\""}}}]"###, false, None),
            ("tool_call_with_multiple_unescaped_double_quote_segments", "<|tool_call>call:search{query:<|\"|>say \"hello\", then \"goodbye\"<|\"|>}<tool_call|>", "", "", r###"[{"function":{"index":0,"name":"search","arguments":{"query":"say \"hello\", then \"goodbye\""}}}]"###, false, None),
            ("tool_call_with_mixed_escaped_and_unescaped_double_quotes", "<|tool_call>call:search{query:<|\"|>first \\\"quoted\\\" then \"raw\"<|\"|>}<tool_call|>", "", "", r###"[{"function":{"index":0,"name":"search","arguments":{"query":"first \\\"quoted\\\" then \"raw\""}}}]"###, false, None),
            ("tool_call_exec_with_embedded_quoted_path", "<|tool_call>call:exec{command:<|\"|>ls -F \"vault/\"<|\"|>}<tool_call|>", "", "", r###"[{"function":{"index":0,"name":"exec","arguments":{"command":"ls -F \"vault/\""}}}]"###, false, None),
            ("tool_call_exec_with_embedded_quoted_url", "<|tool_call>call:exec{command:<|\"|>fetch \"https://ollama.com/library/gemma4\" --extract<|\"|>}<tool_call|>", "", "", r###"[{"function":{"index":0,"name":"exec","arguments":{"command":"fetch \"https://ollama.com/library/gemma4\" --extract"}}}]"###, false, None),
            ("tool_call_done_flush_without_close_tag_with_unescaped_double_quotes", "<|tool_call>call:search{query:<|\"|>say \"hello\" and \"bye\"<|\"|>}", "", "", r###"[{"function":{"index":0,"name":"search","arguments":{"query":"say \"hello\" and \"bye\""}}}]"###, false, None),
            ("tool_call_with_mixed_raw_and_gemma_quoted_values", "<|tool_call>call:search{query:\"raw \\\"quoted\\\"\",note:<|\"|>gemma \"quoted\"<|\"|>}<tool_call|>", "", "", r###"[{"function":{"index":0,"name":"search","arguments":{"query":"raw \"quoted\"","note":"gemma \"quoted\""}}}]"###, false, None),
            ("tool_call_with_array_of_objects_and_mixed_quotes", "<|tool_call>call:plan{steps:[{title:<|\"|>step \"one\"<|\"|>,done:false},{title:<|\"|>step \\\"two\\\"<|\"|>,done:true}]}<tool_call|>", "", "", r###"[{"function":{"index":0,"name":"plan","arguments":{"steps":[{"done":false,"title":"step \"one\""},{"done":true,"title":"step \\\"two\\\""}]}}}]"###, false, None),
            ("tool_call_edit_with_array_of_objects_multiline_markdown_and_quotes", "<|tool_call>call:edit{edits:[\n  {newText:<|\"|># Gemma4 + openclaude speed optimization guide\n\nUse \"nvfp4\" only after validating tool calls.\n<|\"|>,oldText:<|\"|># Gemma4 + openclaude speed optimization guide\n\nUse the default quantization.\n<|\"|>},\n  {newText:<|\"|>## 14. Methods tried but not adopted\n\n### 1. Model quantization\nDo not enable \"mxfp8\" by default.\n<|\"|>,oldText:<|\"|>## 14. Methods tried but not adopted\n<|\"|>}\n]}<tool_call|>", "", "", r###"[{"function":{"index":0,"name":"edit","arguments":{"edits":[{"newText":"# Gemma4 + openclaude speed optimization guide\n\nUse \"nvfp4\" only after validating tool calls.\n","oldText":"# Gemma4 + openclaude speed optimization guide\n\nUse the default quantization.\n"},{"newText":"## 14. Methods tried but not adopted\n\n### 1. Model quantization\nDo not enable \"mxfp8\" by default.\n","oldText":"## 14. Methods tried but not adopted\n"}]}}}]"###, false, None),
            ("tool_call_edit_with_array_of_objects_issue_comment_spacing", "<|tool_call>call:edit{edits:[\n  {newText:<|\"|># Gemma4 + openclaude speed optimization guide...<|\"|>,\n   oldText:<|\"|># Gemma4 + openclaude speed optimization guide...<|\"|>},\n  {newText:<|\"|>## 14. Methods tried but not adopted\\n\\n### 1. Model quantization...<|\"|>,\n   oldText:<|\"|>## 14. Methods tried but not adopted\\n<|\"|>}\n]}<tool_call|>", "", "", r###"[{"function":{"index":0,"name":"edit","arguments":{"edits":[{"newText":"# Gemma4 + openclaude speed optimization guide...","oldText":"# Gemma4 + openclaude speed optimization guide..."},{"newText":"## 14. Methods tried but not adopted\\n\\n### 1. Model quantization...","oldText":"## 14. Methods tried but not adopted\\n"}]}}}]"###, false, None),
            ("tool_call_with_windows_path_single_backslashes", "<|tool_call>call:open_file{path:<|\"|>C:\\users\\bob\\file.txt<|\"|>}<tool_call|>", "", "", r###"[{"function":{"index":0,"name":"open_file","arguments":{"path":"C:\\users\\bob\\file.txt"}}}]"###, false, None),
            ("multiple_tool_calls", "<|tool_call>call:get_weather{location:<|\"|>Paris<|\"|>}<tool_call|><|tool_call>call:get_weather{location:<|\"|>London<|\"|>}<tool_call|>", "", "", r###"[{"function":{"index":0,"name":"get_weather","arguments":{"location":"Paris"}}},{"function":{"index":1,"name":"get_weather","arguments":{"location":"London"}}}]"###, false, None),
            ("thinking_then_tool_call", "<|channel>thought\nI need to check the weather<channel|><|tool_call>call:get_weather{location:<|\"|>Paris<|\"|>}<tool_call|>", "", "I need to check the weather", r###"[{"function":{"index":0,"name":"get_weather","arguments":{"location":"Paris"}}}]"###, true, None),
            ("content_then_tool_call", "Let me check that for you.<|tool_call>call:get_weather{location:<|\"|>Paris<|\"|>}<tool_call|>", "Let me check that for you.", "", r###"[{"function":{"index":0,"name":"get_weather","arguments":{"location":"Paris"}}}]"###, false, None),
            ("thinking_disabled_channel_tags_as_content", "<|channel>this is not thinking<channel|>actual content", "actual content", "", r###"null"###, false, None),
            ("prefill_content_only", "Continuing content.", "Continuing content.", "", r###"null"###, true, Some(("assistant", "Previous content"))),
        ];
        for (name, input, content, thinking, calls, thinking_enabled, last) in cases {
            let last = last.map(|(r, c)| Message::new(r, c));
            let got = feed(
                &mut Gemma4Parser::new(true),
                &[],
                last.as_ref(),
                Some(Think::Bool(thinking_enabled)),
                &[input],
            );
            assert_eq!(
                got,
                (content.into(), thinking.into(), calls.into()),
                "{name}"
            );
        }
    }

    const PARIS: &str =
        r#"[{"function":{"index":0,"name":"get_weather","arguments":{"location":"Paris"}}}]"#;

    // TestGemma4Parser_Streaming, _ToolResponseContinuationStartsInThinking,
    // _StreamingToolCall, _StreamingSplitThinkingTag
    #[test]
    fn gemma4_parser_streaming() {
        let think = || Some(Think::Bool(true));
        assert_eq!(
            feed(
                &mut Gemma4Parser::new(true),
                &[],
                None,
                think(),
                &[
                    "<|channel>thought",
                    "\nLet me think",
                    "...<channel|>The answer",
                    " is 42."
                ]
            ),
            (
                "The answer is 42.".into(),
                "Let me think...".into(),
                "null".into()
            )
        );
        assert_eq!(
            feed(
                &mut Gemma4Parser::new(true),
                &[],
                Some(&Message::new("tool", "go.mod\ngo.sum\n")),
                think(),
                &["The user asked for files.<channel|>go.mod and go.sum"]
            ),
            (
                "go.mod and go.sum".into(),
                "The user asked for files.".into(),
                "null".into()
            )
        );
        assert_eq!(
            feed(
                &mut Gemma4Parser::new(false),
                &[],
                None,
                None,
                &[
                    "<|tool_call>call:get_",
                    "weather{location:<|\"|>Par",
                    "is<|\"|>}<tool_call|>"
                ]
            ),
            (String::new(), String::new(), PARIS.into())
        );
        for chunks in [
            ["<|chan", "nel>thinking here<channel|>content"],
            ["<|channel>thinking here<chan", "nel|>content"],
        ] {
            assert_eq!(
                feed(&mut Gemma4Parser::new(true), &[], None, think(), &chunks),
                ("content".into(), "thinking here".into(), "null".into())
            );
        }
    }

    // TestGemma4Parser_IgnoresExtraToolCallCloseTags,
    // _IgnoresToolResponseBoundaryAfterToolCall
    #[test]
    fn gemma4_parser_ignores_post_tool_call_noise() {
        let call = r#"<|tool_call>call:get_weather{location:<|"|>Paris<|"|>}<tool_call|>"#;
        let cases: Vec<(Vec<String>, &str)> = vec![
            (vec![format!("{call}<tool_call|>")], ""),
            (vec![format!("{call}<tool_call|>Done.")], "Done."),
            (vec![format!("{call}<tool_"), "call|>Done.".into()], "Done."),
            (vec![format!("{call}<|tool_response>")], ""),
            (vec![format!("{call}<|tool_response>Done.")], "Done."),
            (
                vec![format!("{call}<|tool_res"), "ponse>Done.".into()],
                "Done.",
            ),
            (
                vec![format!(
                    "{call} <tool_call|>\n<|tool_response> <tool_call|>Done."
                )],
                "Done.",
            ),
        ];
        for (chunks, content) in cases {
            let chunks: Vec<&str> = chunks.iter().map(String::as_str).collect();
            assert_eq!(
                feed(&mut Gemma4Parser::new(false), &[], None, None, &chunks),
                (content.into(), String::new(), PARIS.into()),
                "{chunks:?}"
            );
        }
    }

    // TestGemma4ArgsToJSON
    #[test]
    fn gemma4_args_to_json_table() {
        let cases: Vec<(&str, &str)> = vec![
            ("{location:<|\"|>Paris<|\"|>}", "{\"location\":\"Paris\"}"),
            ("{location:<|\"|>Paris<|\"|>,units:<|\"|>metric<|\"|>}", "{\"location\":\"Paris\",\"units\":\"metric\"}"),
            ("{value:42}", "{\"value\":42}"),
            ("{enabled:true}", "{\"enabled\":true}"),
            ("{config:{enabled:true,name:<|\"|>test<|\"|>}}", "{\"config\":{\"enabled\":true,\"name\":\"test\"}}"),
            ("{edits:[{ newText:<|\"|>a<|\"|>, oldText:<|\"|>b<|\"|>} ]}", "{\"edits\":[{ \"newText\":\"a\", \"oldText\":\"b\"} ]}"),
            ("{edits:[{newText:<|\"|>a<|\"|>, oldText:<|\"|>b<|\"|>} ]}", "{\"edits\":[{\"newText\":\"a\", \"oldText\":\"b\"} ]}"),
            ("{edits:[\n  {newText:<|\"|>a<|\"|>,\n   oldText:<|\"|>b<|\"|>}\n]}", "{\"edits\":[\n  {\"newText\":\"a\",\n   \"oldText\":\"b\"}\n]}"),
            ("{items:[<|\"|>a<|\"|>,<|\"|>b<|\"|>]}", "{\"items\":[\"a\",\"b\"]}"),
            ("{items:[<|\"|>a<|\"|>,<|\"|>b \"quoted\"<|\"|>,<|\"|>c<|\"|>]}", "{\"items\":[\"a\",\"b \\\"quoted\\\"\",\"c\"]}"),
            ("{}", "{}"),
            ("{name:<|\"|>test<|\"|>,count:5,active:true,tags:[<|\"|>a<|\"|>]}", "{\"name\":\"test\",\"count\":5,\"active\":true,\"tags\":[\"a\"]}"),
            ("{value:null}", "{\"value\":null}"),
            ("{command:<|\"|>date\n<|\"|>}", "{\"command\":\"date\\n\"}"),
            ("{query:<|\"|>say \\\"hello\\\"<|\"|>}", "{\"query\":\"say \\\\\\\"hello\\\\\\\"\"}"),
            ("{query:<|\"|>say \"hello\"<|\"|>}", "{\"query\":\"say \\\"hello\\\"\"}"),
            ("{query:<|\"|>say \"hello\", then \"goodbye\"<|\"|>}", "{\"query\":\"say \\\"hello\\\", then \\\"goodbye\\\"\"}"),
            ("{query:<|\"|>first \\\"quoted\\\" then \"raw\"<|\"|>}", "{\"query\":\"first \\\\\\\"quoted\\\\\\\" then \\\"raw\\\"\"}"),
            ("{query:<|\"|>a,b:{c}[d]<|\"|>}", "{\"query\":\"a,b:{c}[d]\"}"),
            ("{path:<|\"|>C:\\\\Temp\\\\file.txt<|\"|>}", "{\"path\":\"C:\\\\\\\\Temp\\\\\\\\file.txt\"}"),
            ("{path:<|\"|>C:\\users\\bob<|\"|>}", "{\"path\":\"C:\\\\users\\\\bob\"}"),
            ("{url:<|\"|>https:\\/\\/example.com\\/a<|\"|>}", "{\"url\":\"https:\\\\/\\\\/example.com\\\\/a\"}"),
            ("{s:<|\"|>snowman:\\u2603<|\"|>}", "{\"s\":\"snowman:\\\\u2603\"}"),
            ("{s:<|\"|>bad \\x escape<|\"|>}", "{\"s\":\"bad \\\\x escape\"}"),
            ("{s:<|\"|>bad \\uZZZZ escape<|\"|>}", "{\"s\":\"bad \\\\uZZZZ escape\"}"),
            ("{q:\"say \\\"hi\\\" and \\\"bye\\\"\"}", "{\"q\":\"say \\\"hi\\\" and \\\"bye\\\"\"}"),
            ("{q:\"keep , oldText: literal\",note:<|\"|>ok<|\"|>}", "{\"q\":\"keep , oldText: literal\",\"note\":\"ok\"}"),
            ("{q:\"keep , oldText: and \\\"quoted\\\" text\",note:<|\"|>ok<|\"|>}", "{\"q\":\"keep , oldText: and \\\"quoted\\\" text\",\"note\":\"ok\"}"),
            ("{meta:{title:<|\"|>t \"1\"<|\"|>,note:\"n \\\"2\\\"\"},items:[<|\"|>x \"3\"<|\"|>,\"y \\\"4\\\"\"]}", "{\"meta\":{\"title\":\"t \\\"1\\\"\",\"note\":\"n \\\"2\\\"\"},\"items\":[\"x \\\"3\\\"\",\"y \\\"4\\\"\"]}"),
        ];
        for (input, want) in cases {
            assert_eq!(gemma4_args_to_json(input), want, "{input:?}");
        }
        // Go's json.Marshal escapes HTML characters and U+2028.
        assert_eq!(
            gemma4_args_to_json("{a:<|\"|><b>&\u{2028}<|\"|>}"),
            r#"{"a":"\u003cb\u003e\u0026\u2028"}"#
        );
    }

    // TestRepairGemma4MissingStringDelimiter
    #[test]
    fn repair_gemma4_missing_string_delimiter_table() {
        for (input, want) in [
            (r#"{command:<|"|>ls}"#, r#"{command:<|"|>ls<|"|>}"#),
            (
                r#"{path:<|"|>/tmp<|"|>,command:<|"|>ls}"#,
                r#"{path:<|"|>/tmp<|"|>,command:<|"|>ls<|"|>}"#,
            ),
            (r#"{command:<|"|>ls"#, r#"{command:<|"|>ls<|"|>"#),
            (r#"{command:<|"|>ls<|"|>}"#, r#"{command:<|"|>ls<|"|>}"#),
            (r#"{command:ls}"#, r#"{command:ls}"#),
        ] {
            assert_eq!(
                repair_gemma4_missing_string_delimiter(input),
                want,
                "{input:?}"
            );
        }
    }

    // TestRepairGemma4MissingObjectClose
    #[test]
    fn repair_gemma4_missing_object_close_table() {
        for (input, want) in [
            (
                r#"{content:<|"|>hello<|"|>"#,
                r#"{content:<|"|>hello<|"|>}"#,
            ),
            (
                "{content:<|\"|>hello<|\"|>  ",
                "{content:<|\"|>hello<|\"|>}  ",
            ),
            (
                r#"{content:<|"|>hello<|"|>}"#,
                r#"{content:<|"|>hello<|"|>}"#,
            ),
            (r#"content:<|"|>hello<|"|>"#, r#"content:<|"|>hello<|"|>"#),
        ] {
            assert_eq!(repair_gemma4_missing_object_close(input), want, "{input:?}");
        }
    }

    // TestRepairGemma4SingleQuotedValues
    #[test]
    fn repair_gemma4_single_quoted_values_table() {
        for (input, want) in [
            (r#"{pattern:':\s*\w+'}"#, r#"{pattern:<|"|>:\s*\w+<|"|>}"#),
            (
                r#"{include:<|"|>*.py<|"|>,pattern:'abc',path:<|"|>/tmp<|"|>}"#,
                r#"{include:<|"|>*.py<|"|>,pattern:<|"|>abc<|"|>,path:<|"|>/tmp<|"|>}"#,
            ),
            (r#"{pattern:'abc'<|"|>}"#, r#"{pattern:<|"|>abc<|"|>}"#),
            (r#"{pattern:<|"|>abc<|"|>}"#, r#"{pattern:<|"|>abc<|"|>}"#),
            (r#"{pattern:"abc"}"#, r#"{pattern:"abc"}"#),
            (r#"{pattern:'abc}"#, r#"{pattern:'abc}"#),
            (
                r#"{p:'a\'b', q: 'é'}"#,
                r#"{p:<|"|>a\'b<|"|>, q: <|"|>é<|"|>}"#,
            ),
        ] {
            assert_eq!(repair_gemma4_single_quoted_values(input), want, "{input:?}");
        }
    }

    // TestRepairGemma4RawTerminalStringValue
    #[test]
    fn repair_gemma4_raw_terminal_string_value_table() {
        let write = [string_tool("write", &["content"])];
        let number = [typed_tool("write", &[("content", "number")])];
        let cases: Vec<(&str, &str, &[Tool], Option<&str>)> = vec![
            (
                "{content:\n\n# Title",
                "write",
                &write,
                Some("{content:<|\"|>\n\n# Title<|\"|>"),
            ),
            (r#"{content:hello,mode:<|"|>fast<|"|>}"#, "write", &[], None),
            (r#"{content:hello"#, "write", &[], None),
            (r#"{content:hello"#, "write", &number, None),
            (r#"{content:<|"|>hello<|"|>}"#, "write", &write, None),
            (r#"{content:123}"#, "write", &write, None),
            (r#"{content:hello"#, "missing", &write, None),
        ];
        for (input, tool, tools, want) in cases {
            assert_eq!(
                repair_gemma4_raw_terminal_string_value(input, tool, tools).as_deref(),
                want,
                "{input:?}"
            );
        }
        let write_mode = [string_tool("write", &["content", "mode"])];
        assert_eq!(
            repair_gemma4_raw_terminal_string_value(
                r#"{content:hello,mode:<|"|>fast<|"|>}"#,
                "write",
                &write_mode
            )
            .as_deref(),
            Some(r#"{content:<|"|>hello<|"|>,mode:<|"|>fast<|"|>}"#)
        );
        // Type names compare under Unicode case folding.
        for ty in ["STRING", "ſtring"] {
            let tools = [typed_tool("write", &[("content", ty)])];
            assert!(
                repair_gemma4_raw_terminal_string_value("{content:x", "write", &tools).is_some(),
                "{ty}"
            );
        }
        let tools = [typed_tool("write", &[("content", "strings")])];
        assert!(repair_gemma4_raw_terminal_string_value("{content:x", "write", &tools).is_none());
    }

    // TestGemma4RepairCandidates
    #[test]
    fn gemma4_repair_candidates_table() {
        let cases: Vec<(&str, Tool, Vec<&str>)> = vec![
            (
                r#"{command:<|"|>ls}"#,
                string_tool("bash", &["command"]),
                vec![r#"{command:<|"|>ls<|"|>}"#],
            ),
            (
                r#"{pattern:'abc'<|"|>}"#,
                string_tool("grep", &["pattern"]),
                vec![r#"{pattern:<|"|>abc<|"|>}"#],
            ),
            (
                r#"{content:hello"#,
                string_tool("write", &["content"]),
                vec![r#"{content:hello"#, r#"{content:<|"|>hello<|"|>}"#],
            ),
            (r#"{n:1"#, string_tool("count", &["name"]), vec![r#"{n:1"#]),
        ];
        for (input, tool, want) in cases {
            let name = tool.function.name.clone();
            assert_eq!(
                gemma4_repair_candidates(input, &name, &[tool]),
                want,
                "{input:?}"
            );
        }
    }

    // TestGemma4Parser_HasToolSupport, _HasThinkingSupport
    #[test]
    fn gemma4_parser_support() {
        assert!(Gemma4Parser::default().has_tool_support());
        assert!(Gemma4Parser::new(true).has_thinking_support());
        assert!(!Gemma4Parser::new(false).has_thinking_support());
        let p = crate::parsers::parser_for_name("gemma4").unwrap();
        assert!(p.has_thinking_support());
        assert_eq!(p.preserved_tokens().len(), 6);
        let p = crate::parsers::parser_for_name("gemma4-no-thinking").unwrap();
        assert!(!p.has_thinking_support() && p.has_tool_support());
    }

    fn parsed(content: &str, tools: &[Tool]) -> String {
        tool_call_json(&parse_gemma4_tool_call(content, tools).unwrap()).to_json()
    }

    // TestParseGemma4ToolCall_*
    #[test]
    fn parse_gemma4_tool_call_cases() {
        assert!(
            parse_gemma4_tool_call(r#"call:open_file{path:"C:\users\bob\file.txt"}"#, &[]).is_err()
        );
        assert_eq!(
            parsed(
                r#"call:foo{n:<|"|>1<|"|>,b:<|"|>true<|"|>,z:<|"|>null<|"|>}"#,
                &[]
            ),
            r#"{"function":{"index":0,"name":"foo","arguments":{"n":"1","b":"true","z":"null"}}}"#
        );
        assert_eq!(
            parsed("call:foo{n:1,b:true,z:null}", &[]),
            r#"{"function":{"index":0,"name":"foo","arguments":{"n":1,"b":true,"z":null}}}"#
        );
        assert_eq!(
            parsed(
                r#"call:get_current_temperature{detail_level:0,location:<|"|>Paris, France<|"|>,unit:<|"|>celsius<|"|>}"#,
                &[]
            ),
            r#"{"function":{"index":0,"name":"get_current_temperature","arguments":{"detail_level":0,"location":"Paris, France","unit":"celsius"}}}"#
        );
        assert_eq!(
            parsed(r#"call:foo{q:"a,b:c"}"#, &[]),
            r#"{"function":{"index":0,"name":"foo","arguments":{"q":"a,b:c"}}}"#
        );
        assert!(parse_gemma4_tool_call(
            r#"call:example{first:<|"|>one,second:<|"|>two<|"|>}"#,
            &[string_tool("example", &["first", "second"])]
        )
        .is_err());
        assert_eq!(
            parse_gemma4_tool_call("get{}", &[]),
            Err("expected 'call:' prefix".to_string())
        );
        assert_eq!(
            parse_gemma4_tool_call("call:get", &[]),
            Err("expected '{' in tool call".to_string())
        );
        assert_eq!(
            parse_gemma4_tool_call("call:f{a:}", &[]),
            Err("invalid character '}' looking for beginning of value\nrepair failed to produce valid JSON arguments".to_string())
        );
    }

    // TestParseGemma4ToolCall_RepairsIssue15315Examples, _RepairsMultipleProperties
    #[test]
    fn parse_gemma4_tool_call_repairs() {
        let write_content = "\n\n# Project Style Guide for Autonomous Agents' Code Generation (AGENTS.md)\n\nThis document captures the *de facto* coding standards observed across the `src/` and `components/` source code, designed to ensure consistency for all generated code and modules consumed by the agent system.";
        assert_eq!(
            parsed(
                &format!("call:write{{content:{write_content}"),
                &[string_tool("write", &["content"])]
            ),
            format!(
                r#"{{"function":{{"index":0,"name":"write","arguments":{{"content":{}}}}}}}"#,
                J::s(write_content).to_json()
            )
        );
        assert_eq!(
            parsed(
                r#"call:grep{include:<|"|>*.py<|"|>,output_mode:<|"|>content<|"|>,path:<|"|>/data/robotics/experiment1<|"|>,pattern:':\s*\w+'<|"|>}"#,
                &[string_tool(
                    "grep",
                    &["include", "output_mode", "path", "pattern"]
                )]
            ),
            r#"{"function":{"index":0,"name":"grep","arguments":{"include":"*.py","output_mode":"content","path":"/data/robotics/experiment1","pattern":":\\s*\\w+"}}}"#
        );
        assert_eq!(
            parsed(
                r#"call:bash{command:<|"|>ls}"#,
                &[string_tool("bash", &["command"])]
            ),
            r#"{"function":{"index":0,"name":"bash","arguments":{"command":"ls"}}}"#
        );
        assert_eq!(
            parsed(
                r#"call:grep{include:<|"|>*.py<|"|>,pattern:'abc',path:<|"|>/tmp<|"|>}"#,
                &[string_tool("grep", &["include", "pattern", "path"])]
            ),
            r#"{"function":{"index":0,"name":"grep","arguments":{"include":"*.py","pattern":"abc","path":"/tmp"}}}"#
        );
        assert_eq!(
            parsed(
                r#"call:bash{path:<|"|>/tmp<|"|>,command:<|"|>ls}"#,
                &[string_tool("bash", &["path", "command"])]
            ),
            r#"{"function":{"index":0,"name":"bash","arguments":{"path":"/tmp","command":"ls"}}}"#
        );
        assert_eq!(
            parsed(
                r#"call:write{content:hello,mode:<|"|>fast<|"|>}"#,
                &[string_tool("write", &["content", "mode"])]
            ),
            r#"{"function":{"index":0,"name":"write","arguments":{"content":"hello","mode":"fast"}}}"#
        );
    }

    #[test]
    fn placeholders() {
        assert_eq!(gemma4_placeholder(0), "\x00\x00\x00");
        assert_eq!(gemma4_placeholder(0xD800), "\x00\u{FFFD}\x00");
        assert_eq!(gemma4_placeholder(0x110000), "\x00\u{FFFD}\x00");
    }
}

/// Ollama's `gemma4_test.go` calls of unexported functions, recorded as
/// `func` lines (`tests/golden/parsers-tests.jsonl`), replayed.
#[cfg(test)]
mod golden {
    use super::*;
    use crate::parsers::golden_support::{call_result, err_of, lines, parse, tools as tools_of};
    use serde_json::Value as Json;

    #[test]
    fn gemma4_funcs_replayed() {
        let mut n = 0;
        for (line, t) in lines("func", &["gemma4_test.go"]) {
            n += 1;
            let args = t["args"].as_array().cloned().unwrap_or_default();
            let s = |i: usize| args.get(i).and_then(Json::as_str).unwrap_or("").to_string();
            let tools = || tools_of(args.get(2).unwrap_or(&Json::Null));
            let ret = &t["ret"];
            let func = t["func"].as_str().unwrap_or("");
            let got = match func {
                "gemma4ArgsToJSON" => serde_json::json!([gemma4_args_to_json(&s(0))]),
                "repairGemma4MissingStringDelimiter" => {
                    serde_json::json!([repair_gemma4_missing_string_delimiter(&s(0))])
                }
                "repairGemma4MissingObjectClose" => {
                    serde_json::json!([repair_gemma4_missing_object_close(&s(0))])
                }
                "repairGemma4SingleQuotedValues" => {
                    serde_json::json!([repair_gemma4_single_quoted_values(&s(0))])
                }
                "repairGemma4RawTerminalStringValue" => {
                    let r = repair_gemma4_raw_terminal_string_value(&s(0), &s(1), &tools());
                    serde_json::json!([r.clone().unwrap_or_default(), r.is_some()])
                }
                "gemma4RepairCandidates" => {
                    let c = gemma4_repair_candidates(&s(0), &s(1), &tools());
                    serde_json::json!([if c.is_empty() { Json::Null } else { c.into() }])
                }
                "parseGemma4ToolCall" => {
                    let tools = tools_of(args.get(1).unwrap_or(&Json::Null));
                    let (call, err) = call_result(&parse_gemma4_tool_call(&s(0), &tools));
                    assert_eq!(err_of(&err), err_of(&ret[1]), "{line}");
                    // The recorded call went through a JSON round trip:
                    // compare values.
                    serde_json::json!([parse(&call), err])
                }
                other => panic!("no replay for {other}: {line}"),
            };
            assert_eq!(&got, ret, "{line}");
        }
        assert!(n > 0);
    }
}
