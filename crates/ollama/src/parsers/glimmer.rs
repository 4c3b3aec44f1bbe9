//! `model/parsers/glimmer.go`: the Glimmer parser. Output is a sequence of
//! messages, `<|start|>assistant to=RECIPIENT<|message|>BODY<|eom|>` (or
//! `<|eot|>`), the first header already in the prompt: `self` is
//! reasoning, a declared tool an ATEM call
//! (`<atem:function_calls><atem:invoke name="…">…</atem:invoke></atem:function_calls>`),
//! anything else content.

use std::collections::HashMap;

use serde_json::Map;

use super::gojson_decode::Args;
use super::qwen3coder::parse_typed_tool_value;
use super::{
    overlap, property_types, tool_call, tool_property, trim_space, Added, Config, Constructors,
    Parser,
};
use crate::api::{Message, Think, Tool, ToolCall};

/// `glimmerStartTag`
const GLIMMER_START_TAG: &str = "<|start|>";
/// `glimmerMessageTag`
const GLIMMER_MESSAGE_TAG: &str = "<|message|>";
/// `glimmerEndMessageTag`
const GLIMMER_END_MESSAGE_TAG: &str = "<|eom|>";
/// `glimmerEndTurnTag`
const GLIMMER_END_TURN_TAG: &str = "<|eot|>";

/// `glimmerAssistantHeaderPrefix`
const GLIMMER_ASSISTANT_HEADER_PREFIX: &str = "<|start|>assistant";

/// `glimmerATEMCallsOpen`
const GLIMMER_ATEM_CALLS_OPEN: &str = "<atem:function_calls>";
/// `glimmerATEMCallsClose`
const GLIMMER_ATEM_CALLS_CLOSE: &str = "</atem:function_calls>";
/// `glimmerATEMInvokeOpen`
const GLIMMER_ATEM_INVOKE_OPEN: &str = "<atem:invoke name=\"";
/// `glimmerATEMInvokeClose`
const GLIMMER_ATEM_INVOKE_CLOSE: &str = "</atem:invoke>";
/// `glimmerATEMParamOpen`
const GLIMMER_ATEM_PARAM_OPEN: &str = "<atem:parameter name=\"";
/// `glimmerATEMParamClose`
const GLIMMER_ATEM_PARAM_CLOSE: &str = "</atem:parameter>";

/// `glimmerParserState`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum GlimmerParserState {
    /// `glimmerParserHeader`
    #[default]
    Header,
    /// `glimmerParserContent`
    Content,
    /// `glimmerParserThinking`
    Thinking,
    /// `glimmerParserTool`
    Tool,
}

/// The declared tools by (trimmed) name: Go's `map[string]api.Tool`, only
/// ever looked up.
type ToolsByName = HashMap<String, Tool>;

/// `GlimmerParser`.
#[derive(Clone, Debug, Default)]
pub struct GlimmerParser {
    state: GlimmerParserState,
    buffer: String,
    recipient: String,
    tools: ToolsByName,
    call_index: i64,
    emit_thinking: bool,

    /// `contentStreamed`: whether any of the current message's body has
    /// already been emitted as content. The fumbled-recipient tool-call
    /// fallback only applies while nothing has streamed, so a message
    /// either becomes a tool call or streams as content — never half of
    /// each.
    content_streamed: bool,

    /// Before `glimmer_atem_name_recovery` (Ollama 0.32.9): the invoke name
    /// ends at the first `">` and only then loses its `<|message|>` tokens.
    before_name_recovery: bool,
    /// Whether an invoke name was read that the two behaviours read apart.
    name_recovery_reached: bool,
}

/// `tools[name].Function.Name != ""`.
fn declared(tools: &ToolsByName, name: &str) -> bool {
    tools.get(name).is_some_and(|t| !t.function.name.is_empty())
}

impl Parser for GlimmerParser {
    fn init(&mut self, tools: &[Tool], _: Option<&Message>, think: Option<&Think>) -> Vec<Tool> {
        self.state = GlimmerParserState::Header;
        self.buffer.clear();
        self.recipient.clear();
        self.tools = glimmer_tools_by_name(tools);
        self.call_index = 0;
        self.emit_thinking = think.is_none_or(Think::as_bool);
        self.content_streamed = false;
        tools.to_vec()
    }

    fn add(&mut self, s: &str, done: bool) -> Result<Added, String> {
        self.buffer.push_str(s);
        let mut content_sb = String::new();
        let mut thinking_sb = String::new();
        let mut calls = Vec::new();

        loop {
            if self.state == GlimmerParserState::Header {
                let (progress, fallback) = self.consume_header(done);
                content_sb.push_str(&fallback);
                if !progress {
                    break;
                }
                continue;
            }

            let (progress, body, complete) = self.consume_body(done);
            match self.state {
                GlimmerParserState::Content => {
                    if let Some(call) = self.content_tool_call_fallback(&body, complete) {
                        calls.push(call);
                    } else if !body.is_empty() {
                        content_sb.push_str(&body);
                        self.content_streamed = true;
                    }
                }
                GlimmerParserState::Thinking => {
                    if self.emit_thinking {
                        thinking_sb.push_str(&body);
                    }
                }
                GlimmerParserState::Tool => {
                    if complete {
                        // Go returns what it has with the error; the error
                        // is what the caller answers with.
                        calls.push(self.parse_tool_call(&body)?);
                    }
                }
                GlimmerParserState::Header => {}
            }
            if complete {
                self.state = GlimmerParserState::Header;
                self.recipient.clear();
                self.content_streamed = false;
            }
            if !progress {
                break;
            }
        }

        Ok(Added {
            content: content_sb,
            thinking: thinking_sb,
            calls,
        })
    }

    fn preserved_tokens(&self) -> Vec<String> {
        [
            GLIMMER_START_TAG,
            GLIMMER_MESSAGE_TAG,
            GLIMMER_END_MESSAGE_TAG,
            GLIMMER_END_TURN_TAG,
        ]
        .map(String::from)
        .to_vec()
    }

    fn has_tool_support(&self) -> bool {
        true
    }

    fn has_thinking_support(&self) -> bool {
        true
    }

    fn set_release(&mut self, rules: &changes::Rules) {
        self.before_name_recovery = !rules.has(&changes::ollama::GLIMMER_ATEM_NAME_RECOVERY);
    }

    fn rows_reached(&self) -> Vec<&'static changes::Change> {
        if self.name_recovery_reached {
            vec![&changes::ollama::GLIMMER_ATEM_NAME_RECOVERY]
        } else {
            Vec::new()
        }
    }
}

/// `glimmerHeaderStatus`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum GlimmerHeaderStatus {
    /// `glimmerHeaderInvalid`
    Invalid,
    /// `glimmerHeaderPending`
    Pending,
    /// `glimmerHeaderValid`
    Valid,
}

impl GlimmerParser {
    /// `consumeHeader`.
    fn consume_header(&mut self, done: bool) -> (bool, String) {
        let mut acc = self.buffer.clone();
        if let Some(rest) = acc.strip_prefix(GLIMMER_ASSISTANT_HEADER_PREFIX) {
            acc = rest.to_string();
            self.buffer = acc.clone();
        } else if GLIMMER_ASSISTANT_HEADER_PREFIX.starts_with(acc.as_str())
            && acc.starts_with('<')
            && !done
        {
            return (false, String::new());
        }

        let Some(idx) = acc.find(GLIMMER_MESSAGE_TAG) else {
            if !done {
                return (false, String::new());
            }
            self.buffer.clear();
            return (!acc.is_empty(), acc);
        };

        let header = trim_space(&acc[..idx]);
        self.buffer = acc[idx + GLIMMER_MESSAGE_TAG.len()..].to_string();
        self.recipient = trim_space(header.strip_prefix("to=").unwrap_or(header)).to_string();
        self.set_state_for_recipient();
        (true, String::new())
    }

    /// `setStateForRecipient`.
    fn set_state_for_recipient(&mut self) {
        let (_, is_tool) = glimmer_resolve_tool_name(&self.tools, &self.recipient);
        self.state = if self.recipient == "self" {
            GlimmerParserState::Thinking
        } else if is_tool {
            GlimmerParserState::Tool
        } else {
            GlimmerParserState::Content
        };
    }

    /// `consumeBody`: progress, the body text, and whether the message is
    /// complete.
    fn consume_body(&mut self, done: bool) -> (bool, String, bool) {
        let acc = self.buffer.clone();
        let hold = self.state == GlimmerParserState::Tool || self.hold_content(&acc);
        let mut control_start = 0;
        if hold {
            control_start = match acc.find(GLIMMER_ATEM_CALLS_CLOSE) {
                Some(close) => close + GLIMMER_ATEM_CALLS_CLOSE.len(),
                None => acc.len(),
            };
        }

        let (idx, marker_len) = match glimmer_body_terminator(&acc[control_start..]) {
            Some((i, n)) => (Some(i + control_start), n),
            None => (None, 0),
        };
        let (implicit_idx, wait_for_implicit) =
            self.implicit_header_start(&acc, control_start, done);
        if let Some(implicit) = implicit_idx {
            if !wait_for_implicit && idx.is_none_or(|i| implicit < i) {
                self.buffer = acc[implicit..].to_string();
                return (true, acc[..implicit].to_string(), true);
            }
        }
        if let Some(i) = idx {
            self.buffer = acc[i + marker_len..].to_string();
            return (true, acc[..i].to_string(), true);
        }
        if done {
            self.buffer.clear();
            let progress = !acc.is_empty() || self.state == GlimmerParserState::Tool;
            return (progress, acc, true);
        }
        if hold {
            return (false, String::new(), false);
        }
        if wait_for_implicit {
            if let Some(implicit) = implicit_idx {
                let body = acc[..implicit].to_string();
                self.buffer = acc[implicit..].to_string();
                return (!body.is_empty(), body, false);
            }
        }

        let keep = overlap(&acc, GLIMMER_END_MESSAGE_TAG).max(overlap(&acc, GLIMMER_END_TURN_TAG));
        if acc.len() == keep {
            return (false, String::new(), false);
        }
        // The overlap is an ASCII tag's prefix: a char boundary.
        let body = acc[..acc.len() - keep].to_string();
        self.buffer = acc[acc.len() - keep..].to_string();
        (!body.is_empty(), body, false)
    }

    /// `implicitHeaderStart`: where a new assistant header starts in `s`
    /// (at or after `search`), and whether it is still pending (wait for
    /// more). Go's `-1` is `None`.
    fn implicit_header_start(
        &self,
        s: &str,
        mut search: usize,
        done: bool,
    ) -> (Option<usize>, bool) {
        while let Some(i) = s[search..].find(GLIMMER_START_TAG) {
            let i = i + search;

            match self.assistant_header_status(&s[i..], done) {
                GlimmerHeaderStatus::Valid => return (Some(i), false),
                GlimmerHeaderStatus::Pending => return (Some(i), true),
                GlimmerHeaderStatus::Invalid => {}
            }

            search = i + GLIMMER_START_TAG.len();
        }

        if done {
            return (None, false);
        }
        let keep = overlap(&s[search..], GLIMMER_ASSISTANT_HEADER_PREFIX);
        if keep > 0 {
            return (Some(s.len() - keep), true);
        }
        (None, false)
    }

    /// `assistantHeaderStatus`.
    fn assistant_header_status(&self, s: &str, done: bool) -> GlimmerHeaderStatus {
        use GlimmerHeaderStatus::{Invalid, Pending, Valid};
        if s.len() < GLIMMER_ASSISTANT_HEADER_PREFIX.len() {
            if !done && GLIMMER_ASSISTANT_HEADER_PREFIX.starts_with(s) {
                return Pending;
            }
            return Invalid;
        }
        let Some(rest) = s.strip_prefix(GLIMMER_ASSISTANT_HEADER_PREFIX) else {
            return Invalid;
        };

        if rest.starts_with(GLIMMER_MESSAGE_TAG) {
            return Valid;
        }
        if !done && GLIMMER_MESSAGE_TAG.starts_with(rest) {
            return Pending;
        }
        if rest.is_empty() {
            if done {
                return Invalid;
            }
            return Pending;
        }

        const RECIPIENT_PREFIX: &str = " to=";
        if rest.len() < RECIPIENT_PREFIX.len() {
            if !done && RECIPIENT_PREFIX.starts_with(rest) {
                return Pending;
            }
            return Invalid;
        }
        let Some(recipient_and_after) = rest.strip_prefix(RECIPIENT_PREFIX) else {
            return Invalid;
        };

        if let Some(message_idx) = recipient_and_after.find(GLIMMER_MESSAGE_TAG) {
            if self.valid_assistant_recipient(&recipient_and_after[..message_idx]) {
                return Valid;
            }
            return Invalid;
        }
        if done {
            return Invalid;
        }
        if recipient_and_after.is_empty() {
            return Pending;
        }
        if recipient_and_after.contains([' ', '\t', '\r', '\n']) {
            return Invalid;
        }
        if let Some(lt) = recipient_and_after.find('<') {
            if GLIMMER_MESSAGE_TAG.starts_with(&recipient_and_after[lt..]) {
                return Pending;
            }
            return Invalid;
        }
        Pending
    }

    /// `validAssistantRecipient`.
    fn valid_assistant_recipient(&self, recipient: &str) -> bool {
        recipient == "self" || recipient == "user" || declared(&self.tools, recipient)
    }

    /// `holdContent`: whether the content accumulated so far may be a
    /// fumbled tool call: a message that opens with the ATEM wrapper
    /// despite a non-tool recipient (the model sometimes omits the
    /// recipient, addresses the namespace or the user, or names the
    /// wrapper element itself). Such content is withheld from streaming
    /// until the message completes, so `contentToolCallFallback` can decide
    /// whether it is a tool call or ordinary content. Anything else streams
    /// immediately.
    fn hold_content(&self, acc: &str) -> bool {
        if self.state != GlimmerParserState::Content
            || self.content_streamed
            || self.tools.is_empty()
        {
            return false;
        }
        let trimmed = acc.trim_start_matches([' ', '\t', '\r', '\n']);
        GLIMMER_ATEM_CALLS_OPEN.starts_with(trimmed) || trimmed.starts_with(GLIMMER_ATEM_CALLS_OPEN)
    }

    /// `contentToolCallFallback`: recovers a tool call from a
    /// content-position message whose complete body is solely a
    /// well-formed ATEM block invoking a declared tool. The recipient
    /// header is authoritative when it names a tool; this fallback exists
    /// for the fumbled headers `holdContent` describes, where streaming the
    /// raw XML at the client is never the right answer. The function name
    /// is read from the invoke element, not the header.
    fn content_tool_call_fallback(&mut self, body: &str, complete: bool) -> Option<ToolCall> {
        if !complete || self.content_streamed || self.tools.is_empty() {
            return None;
        }
        let trimmed = trim_space(body);
        if !trimmed.starts_with(GLIMMER_ATEM_CALLS_OPEN)
            || !trimmed.ends_with(GLIMMER_ATEM_CALLS_CLOSE)
        {
            return None;
        }
        let name = glimmer_atem_invoke_name(trimmed, self.before_name_recovery);
        self.note_name_recovery(trimmed);
        let (resolved, ok) = glimmer_resolve_tool_name(&self.tools, &name);
        if !ok {
            return None;
        }
        let tool = self.tools.get(&resolved).cloned().unwrap_or_default();
        let (_, args) = parse_glimmer_atem(trimmed, &tool, self.before_name_recovery).ok()?;
        Some(self.new_tool_call(&resolved, args))
    }

    /// `parseToolCall`.
    fn parse_tool_call(&mut self, body: &str) -> Result<ToolCall, String> {
        if self.recipient.is_empty() {
            return Err("empty Glimmer function name".into());
        }

        let (recipient, ok) = glimmer_resolve_tool_name(&self.tools, &self.recipient);
        if !ok {
            return Err(format!(
                "undeclared Glimmer function {}",
                gotmpl::strconv::quote(&self.recipient)
            ));
        }
        let tool = self.tools.get(&recipient).cloned().unwrap_or_default();

        self.note_name_recovery(body);
        let (name, args) = parse_glimmer_atem(body, &tool, self.before_name_recovery)
            .map_err(|e| format!("parse Glimmer call to {}: {e}", self.recipient))?;
        let (resolved, ok) = glimmer_resolve_tool_name(&self.tools, &name);
        if !ok || resolved != recipient {
            return Err(format!(
                "Glimmer recipient {} does not match ATEM invoke {}",
                gotmpl::strconv::quote(&self.recipient),
                gotmpl::strconv::quote(&name)
            ));
        }
        Ok(self.new_tool_call(&recipient, args))
    }

    /// Notes whether the two releases' invoke-name readings part on `body`
    /// (`glimmer_atem_name_recovery`).
    fn note_name_recovery(&mut self, body: &str) {
        if let Some(i) = body.find(GLIMMER_ATEM_INVOKE_OPEN) {
            let after = &body[i + GLIMMER_ATEM_INVOKE_OPEN.len()..];
            if cut_invoke_name(after, true) != cut_invoke_name(after, false) {
                self.name_recovery_reached = true;
            }
        }
    }

    /// `newToolCall`.
    fn new_tool_call(&mut self, name: &str, args: Map<String, serde_json::Value>) -> ToolCall {
        let mut call = tool_call(name, Args::of(args));
        call.function.index = self.call_index;
        self.call_index += 1;
        call
    }
}

/// `glimmerBodyTerminator`: the earliest `<|eom|>` or `<|eot|>`, and its
/// length.
fn glimmer_body_terminator(s: &str) -> Option<(usize, usize)> {
    let mut found: Option<(usize, usize)> = None;
    for marker in [GLIMMER_END_MESSAGE_TAG, GLIMMER_END_TURN_TAG] {
        if let Some(i) = s.find(marker) {
            if found.is_none_or(|(idx, _)| i < idx) {
                found = Some((i, marker.len()));
            }
        }
    }
    found
}

/// `glimmerATEMInvokeName`: the invoke element's function name from a body
/// already known to carry the ATEM wrapper, or `""` when the invoke is
/// malformed.
fn glimmer_atem_invoke_name(body: &str, before_name_recovery: bool) -> String {
    // The wrapper's open and close cannot overlap (each has its only `<`
    // first, and they differ there): the slice is in order.
    let inner = trim_space(
        &body[GLIMMER_ATEM_CALLS_OPEN.len()..body.len() - GLIMMER_ATEM_CALLS_CLOSE.len()],
    );
    let Some(after) = inner.strip_prefix(GLIMMER_ATEM_INVOKE_OPEN) else {
        return String::new();
    };
    match cut_invoke_name(after, before_name_recovery) {
        Some((name, _)) => name,
        None => String::new(),
    }
}

/// `glimmerCutInvokeName`: splits an ATEM invoke element's name attribute
/// from the text after its `">` terminator, recovering the `<|message|>`
/// boundary tokens the model occasionally fumbles into the name region —
/// echoing the header form `to=read<|message|>`. Observed shapes: the tag
/// inside a terminated name (`name="read<|message|>">`) and the tag in
/// place of the terminator itself (`name="read<|message|><atem:parameter
/// ...`). Function names are identifiers, so a boundary token before the
/// terminator is never legitimate; parameter values are unaffected
/// because they only appear after the terminator.
fn glimmer_cut_invoke_name(s: &str) -> Option<(String, &str)> {
    let mut b = String::new();
    let mut rest = s;
    loop {
        let term_idx = rest.find("\">");
        let tag_idx = rest.find(GLIMMER_MESSAGE_TAG);
        if let Some(tag) = tag_idx {
            if term_idx.is_none_or(|t| tag < t) {
                // Boundary token before the terminator: drop it and keep
                // scanning. If the parameter list begins immediately after,
                // the token replaced the terminator and the name is
                // complete. (Go warns that it recovered one.)
                b.push_str(&rest[..tag]);
                rest = &rest[tag + GLIMMER_MESSAGE_TAG.len()..];
                if rest.starts_with(GLIMMER_ATEM_PARAM_OPEN) {
                    break;
                }
                continue;
            }
        }
        let term = term_idx?;
        b.push_str(&rest[..term]);
        rest = &rest[term + 2..];
        break;
    }
    Some((b, rest))
}

/// The invoke name as a release reads it: before
/// `glimmer_atem_name_recovery` (Ollama 0.32.9), `strings.Cut` at the
/// first `">` and `glimmerTrimStrayMessageTag` (every `<|message|>` removed
/// from the name), so a token in place of the terminator leaves the cut to
/// a later `">`.
fn cut_invoke_name(s: &str, before_name_recovery: bool) -> Option<(String, &str)> {
    if !before_name_recovery {
        return glimmer_cut_invoke_name(s);
    }
    let (name, rest) = s.split_once("\">")?;
    Some((name.replace(GLIMMER_MESSAGE_TAG, ""), rest))
}

/// `glimmerResolveToolName`: resolves a recipient or ATEM invoke name to a
/// declared tool name. Exact matches win. The chat template derives a
/// namespace from the first dot-component of each declared tool name and
/// advertises recipients `<ns>.*` to the model, so an undotted tool `read`
/// is legitimately addressable as `read.read`; resolve `ns.fn` to the
/// declared `fn` when ns is fn's own derived namespace.
fn glimmer_resolve_tool_name(tools: &ToolsByName, name: &str) -> (String, bool) {
    if declared(tools, name) {
        return (name.to_string(), true);
    }
    if let Some((ns, func)) = name.split_once('.') {
        if declared(tools, func) {
            let fn_ns = func.split_once('.').map_or(func, |(a, _)| a);
            if ns == fn_ns {
                return (func.to_string(), true);
            }
        }
    }
    (name.to_string(), false)
}

/// `glimmerToolsByName`: by trimmed name, the last of a repeated name
/// winning; tools with a blank name left out.
fn glimmer_tools_by_name(tools: &[Tool]) -> ToolsByName {
    let mut by_name = ToolsByName::new();
    for tool in tools {
        let name = trim_space(&tool.function.name);
        if name.is_empty() {
            continue;
        }
        by_name.insert(name.to_string(), tool.clone());
    }
    by_name
}

/// `parseGlimmerATEM`: the invoked name and the arguments, typed by the
/// tool's declared parameters.
fn parse_glimmer_atem(
    body: &str,
    tool: &Tool,
    before_name_recovery: bool,
) -> Result<(String, Map<String, serde_json::Value>), String> {
    let body = trim_space(body);
    if !body.starts_with(GLIMMER_ATEM_CALLS_OPEN) || !body.ends_with(GLIMMER_ATEM_CALLS_CLOSE) {
        return Err("missing ATEM function_calls wrapper".into());
    }

    let invoke = trim_space(
        &body[GLIMMER_ATEM_CALLS_OPEN.len()..body.len() - GLIMMER_ATEM_CALLS_CLOSE.len()],
    );
    if !invoke.starts_with(GLIMMER_ATEM_INVOKE_OPEN) || !invoke.ends_with(GLIMMER_ATEM_INVOKE_CLOSE)
    {
        return Err("missing ATEM invoke wrapper".into());
    }
    let invoke = &invoke[GLIMMER_ATEM_INVOKE_OPEN.len()..];
    let Some((name, rest)) = cut_invoke_name(invoke, before_name_recovery) else {
        return Err("malformed ATEM invoke name".into());
    };
    if rest.len() < GLIMMER_ATEM_INVOKE_CLOSE.len() {
        return Err("malformed ATEM invoke name".into());
    }
    // `rest` is a suffix of `invoke`, which ends with the close tag: the
    // cut is at its `<`.
    let mut params = &rest[..rest.len() - GLIMMER_ATEM_INVOKE_CLOSE.len()];
    params = params.strip_prefix('\n').unwrap_or(params);
    params = params.strip_suffix('\n').unwrap_or(params);

    let mut args = Map::new();
    while !params.is_empty() {
        let Some(after) = params.strip_prefix(GLIMMER_ATEM_PARAM_OPEN) else {
            return Err("malformed ATEM parameter".into());
        };
        params = after;
        let Some(param_name_end) = params.find("\">") else {
            return Err("malformed ATEM parameter name".into());
        };
        let param_name = &params[..param_name_end];
        params = &params[param_name_end + 2..];
        let Some(value_end) = params.find(GLIMMER_ATEM_PARAM_CLOSE) else {
            return Err(format!(
                "unterminated ATEM parameter {}",
                gotmpl::strconv::quote(param_name)
            ));
        };
        let value = &params[..value_end];
        params = &params[value_end + GLIMMER_ATEM_PARAM_CLOSE.len()..];
        params = params.strip_prefix('\n').unwrap_or(params);

        let param_type = tool_property(tool, param_name)
            .map(property_types)
            .unwrap_or_default();
        args.insert(
            param_name.to_string(),
            parse_typed_tool_value(value, &param_type),
        );
    }

    Ok((name, args))
}

pub(crate) fn constructors() -> Constructors {
    fn make() -> Box<dyn Parser> {
        Box::new(GlimmerParser::default())
    }
    fn by_go_type(ty: &str, _: &Config) -> Option<Box<dyn Parser>> {
        (ty == "GlimmerParser").then(make)
    }
    Constructors {
        by_name: |n| (n == "glimmer").then(make),
        by_go_type,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{ToolFunction, ToolFunctionParameters, ToolProperty};
    use crate::parsers::tool_calls_json;

    fn tool(name: &str, props: &[(&str, &str)]) -> Tool {
        Tool {
            type_: "function".into(),
            function: ToolFunction {
                name: name.into(),
                parameters: ToolFunctionParameters {
                    type_: "object".into(),
                    properties: Some(
                        props
                            .iter()
                            .map(|(k, t)| {
                                (
                                    k.to_string(),
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

    fn atem(name: &str, params: &str) -> String {
        format!("<atem:function_calls>\n<atem:invoke name=\"{name}\">\n{params}</atem:invoke>\n</atem:function_calls>")
    }

    fn run(
        tools: &[Tool],
        think: Option<Think>,
        chunks: &[&str],
    ) -> Result<(String, String, String), String> {
        let mut p = GlimmerParser::default();
        p.init(tools, None, think.as_ref());
        let (mut content, mut thinking, mut calls) = (String::new(), String::new(), Vec::new());
        for c in chunks {
            let a = p.add(c, false)?;
            content += &a.content;
            thinking += &a.thinking;
            calls.extend(a.calls);
        }
        let a = p.add("", true)?;
        content += &a.content;
        thinking += &a.thinking;
        calls.extend(a.calls);
        Ok((content, thinking, tool_calls_json(&calls)))
    }

    #[test]
    fn glimmer_messages() {
        assert_eq!(
            run(&[], None, &[" to=user<|message|>Hello", " there<|eot|>"]),
            Ok(("Hello there".into(), "".into(), "null".into()))
        );
        assert_eq!(
            run(
                &[],
                None,
                &[" to=self<|message|>hmm<|eom|><|start|>assistant to=user<|message|>Hi<|eot|>"]
            ),
            Ok(("Hi".into(), "hmm".into(), "null".into()))
        );
        assert_eq!(
            run(
                &[],
                Some(Think::Bool(false)),
                &[" to=self<|message|>hmm<|eom|><|start|>assistant to=user<|message|>Hi<|eot|>"]
            ),
            Ok(("Hi".into(), "".into(), "null".into()))
        );
        let weather = tool("get_weather", &[("city", "string"), ("days", "integer")]);
        let input = format!(
            " to=get_weather<|message|>{}<|eom|>",
            atem("get_weather", "<atem:parameter name=\"city\">Paris</atem:parameter>\n<atem:parameter name=\"days\">3</atem:parameter>\n")
        );
        let want = r#"[{"function":{"index":0,"name":"get_weather","arguments":{"city":"Paris","days":3}}}]"#;
        assert_eq!(
            run(std::slice::from_ref(&weather), None, &[&input]),
            Ok(("".into(), "".into(), want.into()))
        );
        // at every boundary
        for i in 1..input.len() {
            if !input.is_char_boundary(i) {
                continue;
            }
            assert_eq!(
                run(
                    std::slice::from_ref(&weather),
                    None,
                    &[&input[..i], &input[i..]]
                ),
                Ok(("".into(), "".into(), want.into())),
                "split at {i}"
            );
        }
        // a fumbled recipient still makes the call
        let fumbled = format!("<|message|>{}<|eot|>", atem("get_weather", ""));
        assert_eq!(
            run(std::slice::from_ref(&weather), None, &[&fumbled]),
            Ok((
                "".into(),
                "".into(),
                r#"[{"function":{"index":0,"name":"get_weather","arguments":{}}}]"#.into()
            ))
        );
        // mismatched invoke
        let bad = format!(" to=get_weather<|message|>{}<|eom|>", atem("read_file", ""));
        assert_eq!(
            run(std::slice::from_ref(&weather), None, &[&bad]),
            Err(r#"Glimmer recipient "get_weather" does not match ATEM invoke "read_file""#.into())
        );
        let bad = " to=get_weather<|message|>nope<|eom|>";
        assert_eq!(
            run(&[weather], None, &[bad]),
            Err("parse Glimmer call to get_weather: missing ATEM function_calls wrapper".into())
        );
    }

    /// The recorded calls of `glimmerResolveToolName` (Ollama's
    /// glimmer_test.go), made again; the tools map as recorded (keys
    /// sorted, each tool as Go marshals it).
    #[test]
    fn glimmer_recorded_funcs() {
        use crate::parsers::golden_support::{lines, tools as decode_tools};
        use serde_json::{json, Value as Json};
        let mut n = 0;
        for (line, t) in lines("func", &["glimmer_test.go"]) {
            assert_eq!(t["func"], "glimmerResolveToolName", "{line}");
            let by_name = t["args"][0].as_object().cloned().unwrap_or_default();
            let tools: ToolsByName = by_name
                .keys()
                .cloned()
                .zip(decode_tools(&Json::Array(
                    by_name.values().cloned().collect(),
                )))
                .collect();
            let (name, ok) = glimmer_resolve_tool_name(&tools, t["args"][1].as_str().unwrap());
            assert_eq!(json!([name, ok]), t["ret"], "{line}");
            n += 1;
        }
        eprintln!("glimmer_test.go: {n} recorded func calls equal");
    }

    #[test]
    fn glimmer_names() {
        let tools = glimmer_tools_by_name(&[tool("read", &[]), tool("repo.read", &[])]);
        for (name, want, ok) in [
            ("read", "read", true),
            ("read.read", "read", true),
            ("repo.read", "repo.read", true),
            ("other.read", "other.read", false),
            ("repo.repo.read", "repo.read", true),
            ("x.repo.read", "x.repo.read", false),
        ] {
            assert_eq!(
                glimmer_resolve_tool_name(&tools, name),
                (want.to_string(), ok),
                "{name}"
            );
        }
        assert_eq!(
            glimmer_cut_invoke_name("read<|message|>\">rest"),
            Some(("read".to_string(), "rest"))
        );
        assert_eq!(
            glimmer_cut_invoke_name("read<|message|><atem:parameter name=\"a\">"),
            Some(("read".to_string(), "<atem:parameter name=\"a\">"))
        );
        assert_eq!(glimmer_cut_invoke_name("read"), None);
    }
}
