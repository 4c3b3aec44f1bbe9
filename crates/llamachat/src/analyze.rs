//! The reasoning half of llama.cpp's differential template analysis
//! (`autoparser::analyze_template`, common/chat-diff-analyzer.cpp, with
//! the helpers of common/chat-auto-parser-helpers.cpp): the template is
//! rendered on probe conversations and the outputs diffed to find the
//! markers around reasoning. They decide whether thinking is on by
//! default (`supports_thinking`) and what a continued assistant message
//! is prefixed with. The tool-call half of the analysis builds only the
//! output parser and is not ported.
//!
//! The byte-level helpers work on bytes, as the C++ does, and give text
//! back lossily only at the end.

use serde_json::{json, Value as Json};

use crate::apply::GenParams;
use crate::template::{direct_apply, Template};

const USER_MSG: &str = "U_USER_MSG Hello END_U";
const USER_MSG_TWO: &str = "V_USER_MSG Hello END_V";
const ASSISTANT_MSG: &str = "A_ASST_MSG I can help END_A";
const THINKING_CONTENT: &str = "REASON_PART I am thinking END_R";
const FUN_FIRST: &str = "FFF_FIRST_FUN_F";
const FUN_SECOND: &str = "SSS_SECOND_FUN_S";
const ARG_FIRST: &str = "AA_ARG_FST_AA";
const ARG_SECOND: &str = "BB_ARG_SND_BB";
const CALL_ID_001: &str = "call00001";

/// `reasoning_mode`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ReasoningMode {
    /// `NONE`.
    #[default]
    None,
    /// `TAG_BASED`.
    TagBased,
    /// `TOOLS_ONLY`.
    ToolsOnly,
}

/// The reasoning markers the analysis found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reasoning {
    /// The mode.
    pub mode: ReasoningMode,
    /// The start marker.
    pub start: String,
    /// The end marker.
    pub end: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SegType {
    Text,
    Marker,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Segment {
    ty: SegType,
    value: Vec<u8>,
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

fn trim(s: &[u8]) -> &[u8] {
    let mut a = 0;
    while a < s.len() && is_space(s[a]) {
        a += 1;
    }
    let mut b = s.len();
    while b > a && is_space(s[b - 1]) {
        b -= 1;
    }
    &s[a..b]
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    if needle.is_empty() {
        return Some(0);
    }
    hay.windows(needle.len()).position(|w| w == needle)
}

fn rfind(hay: &[u8], needle: &[u8]) -> Option<usize> {
    if needle.is_empty() {
        return Some(hay.len());
    }
    hay.windows(needle.len()).rposition(|w| w == needle)
}

/// `segmentize_markers`: text split into `<...>` / `[...]` markers and
/// the text between them.
fn segmentize_markers(text: &[u8]) -> Vec<Segment> {
    let mut out = Vec::new();
    let mut in_marker = false;
    let mut opener = 0u8;
    let mut last = 0;
    for (pos, &c) in text.iter().enumerate() {
        if !in_marker && (c == b'<' || c == b'[') {
            if last < pos {
                out.push(Segment {
                    ty: SegType::Text,
                    value: text[last..pos].to_vec(),
                });
            }
            last = pos;
            in_marker = true;
            opener = c;
        } else if in_marker && ((opener == b'<' && c == b'>') || (opener == b'[' && c == b']')) {
            out.push(Segment {
                ty: SegType::Marker,
                value: text[last..=pos].to_vec(),
            });
            last = pos + 1;
            in_marker = false;
            opener = 0;
        }
    }
    if last < text.len() {
        out.push(Segment {
            ty: SegType::Text,
            value: text[last..].to_vec(),
        });
    }
    out
}

/// `prune_whitespace_segments`.
fn prune_whitespace_segments(segs: Vec<Segment>) -> Vec<Segment> {
    segs.into_iter()
        .filter(|s| !trim(&s.value).is_empty())
        .collect()
}

/// `diff_split`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct DiffSplit {
    prefix: Vec<u8>,
    suffix: Vec<u8>,
    left: Vec<u8>,
    right: Vec<u8>,
}

fn common_prefix_len(a: &[u8], b: &[u8]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

fn common_suffix_len(a: &[u8], b: &[u8]) -> usize {
    a.iter()
        .rev()
        .zip(b.iter().rev())
        .take_while(|(x, y)| x == y)
        .count()
}

fn prepend(dst: &mut Vec<u8>, v: &[u8]) {
    let mut n = v.to_vec();
    n.extend_from_slice(dst);
    *dst = n;
}

/// `calculate_diff_split`: the common prefix and suffix (aligned on
/// markers) and what differs in between.
fn calculate_diff_split(left: &[u8], right: &[u8]) -> DiffSplit {
    let mut result = DiffSplit::default();
    let l = segmentize_markers(left);
    let r = segmentize_markers(right);
    if l.is_empty() {
        result.right = right.to_vec();
        return result;
    }
    if r.is_empty() {
        result.left = left.to_vec();
        return result;
    }
    let (mut ls, mut le, mut rs, mut re) = (0usize, l.len() - 1, 0usize, r.len() - 1);
    let mut lfc = false;
    let mut rfc = false;
    while ls != le && rs != re {
        let mut advanced = false;
        if l[ls] == r[rs] {
            result.prefix.extend_from_slice(&l[ls].value);
            ls += 1;
            rs += 1;
            advanced = true;
        }
        if l[le] == r[re] {
            prepend(&mut result.suffix, &l[le].value);
            if ls != le {
                le -= 1;
            } else {
                lfc = true;
            }
            if rs != re {
                re -= 1;
            } else {
                rfc = true;
            }
            advanced = true;
        }
        if !advanced {
            break;
        }
    }
    if ls == le && rs != re {
        if l[ls] == r[re] {
            prepend(&mut result.suffix, &r[re].value);
            re -= 1;
            lfc = true;
        } else if l[ls] == r[rs] {
            result.prefix.extend_from_slice(&r[rs].value);
            rs += 1;
            lfc = true;
        }
    } else if rs == re && ls != le {
        if l[le] == r[rs] {
            prepend(&mut result.suffix, &l[le].value);
            le -= 1;
            rfc = true;
        } else if l[ls] == r[rs] {
            result.prefix.extend_from_slice(&l[ls].value);
            ls += 1;
            rfc = true;
        }
    } else if ls == le && rs == re && l[ls] == r[rs] && l[ls].ty == SegType::Marker {
        result.prefix.extend_from_slice(&r[rs].value);
        lfc = true;
        rfc = true;
    }
    let can_suffix = l[le].ty == SegType::Text && r[re].ty == SegType::Text;
    let can_prefix = r[rs].ty == SegType::Text && l[ls].ty == SegType::Text;
    let cat = |segs: &[Segment], a: usize, b: usize| -> Vec<u8> {
        segs[a..b]
            .iter()
            .flat_map(|s| s.value.iter().copied())
            .collect()
    };
    let rl = cat(&l, ls, if lfc { le } else { le + 1 });
    let rr = cat(&r, rs, if rfc { re } else { re + 1 });
    let suffix_len = if can_suffix {
        common_suffix_len(&rl, &rr)
    } else {
        0
    };
    let prefix_len = if can_prefix {
        common_prefix_len(&rl[..rl.len() - suffix_len], &rr[..rr.len() - suffix_len])
    } else {
        0
    };
    result.prefix.extend_from_slice(&rl[..prefix_len]);
    prepend(&mut result.suffix, &rl[rl.len() - suffix_len..]);
    result.left = rl[prefix_len..rl.len() - suffix_len].to_vec();
    result.right = rr[prefix_len..rr.len() - suffix_len].to_vec();
    if result.left.is_empty() && result.right.is_empty() {
        result.prefix = left.to_vec();
        result.suffix.clear();
    }
    if result.left.is_empty()
        && !result.right.is_empty()
        && left.len() <= right.len()
        && right.starts_with(left)
    {
        result.prefix = left.to_vec();
        result.suffix.clear();
        result.right = right[left.len()..].to_vec();
    }
    result
}

/// `template_params`.
#[derive(Clone)]
struct Probe {
    messages: Json,
    tools: Json,
    add_generation_prompt: bool,
    enable_thinking: bool,
}

/// A probe of `messages` without tools or a generation prompt, thinking on
/// (`template_params` as most of the analysis sets it).
fn probe(messages: Json) -> Probe {
    Probe {
        messages,
        tools: Json::Null,
        add_generation_prompt: false,
        enable_thinking: true,
    }
}

/// `apply_template`: `None` where the template fails.
fn apply_probe(tmpl: &Template, p: &Probe, now: i64) -> Option<Vec<u8>> {
    let params = GenParams {
        messages: p.messages.clone(),
        tools: p.tools.clone(),
        add_generation_prompt: p.add_generation_prompt,
        enable_thinking: p.enable_thinking,
        extra_context: json!({ "enable_thinking": p.enable_thinking }),
        now,
        ..GenParams::default()
    };
    direct_apply(tmpl, &params, None, None, None)
        .ok()
        .map(String::into_bytes)
}

struct Comparison {
    diff: DiffSplit,
    a: Vec<u8>,
    b: Vec<u8>,
}

/// `compare_variants`.
fn compare(
    tmpl: &Template,
    a: &Probe,
    modify: impl FnOnce(&mut Probe),
    now: i64,
) -> Option<Comparison> {
    let mut b = a.clone();
    modify(&mut b);
    let out_a = apply_probe(tmpl, a, now)?;
    let out_b = apply_probe(tmpl, &b, now)?;
    Some(Comparison {
        diff: calculate_diff_split(&out_a, &out_b),
        a: out_a,
        b: out_b,
    })
}

/// `p.marker()` at `i`: the end of `<...>` or `[...]`.
fn marker_at(s: &[u8], i: usize) -> Option<usize> {
    let close = match s.get(i)? {
        b'<' => b'>',
        b'[' => b']',
        _ => return None,
    };
    s[i + 1..]
        .iter()
        .position(|&c| c == close)
        .map(|p| i + 1 + p + 1)
}

/// `p.space()` at `i`.
fn space_at(s: &[u8], mut i: usize) -> usize {
    while i < s.len() && is_space(s[i]) {
        i += 1;
    }
    i
}

/// `space + marker + space` at `k`: where it ends.
fn space_marker_space(s: &[u8], k: usize) -> Option<usize> {
    let a = space_at(s, k);
    marker_at(s, a).map(|b| space_at(s, b))
}

/// The `pre` and `post` tags of a successful tagged parse.
#[derive(Default)]
struct Tags {
    pre: Vec<u8>,
    post: Vec<u8>,
}

/// `parse_anywhere_and_extract` of
/// `tag(pre, marker + space) + literal(R) + <post>`: the first position
/// where it matches.
fn wrapped(s: &[u8], r: &[u8], post: impl Fn(&[u8], usize) -> Option<usize>) -> Option<Tags> {
    for i in 0..s.len() {
        let Some(m) = marker_at(s, i) else { continue };
        let k = space_at(s, m);
        if !s[k..].starts_with(r) {
            continue;
        }
        let k2 = k + r.len();
        let Some(end) = post(s, k2) else { continue };
        return Some(Tags {
            pre: s[i..k].to_vec(),
            post: s[k2..end].to_vec(),
        });
    }
    None
}

/// `parse_anywhere_and_extract` of
/// `literal(R) + space + optional(tag(post, marker + space) ...)`.
fn delimited(s: &[u8], r: &[u8]) -> Option<Tags> {
    let i = find(s, r)?;
    let a = space_at(s, i + r.len());
    let post = match marker_at(s, a) {
        Some(b) => s[a..space_at(s, b)].to_vec(),
        None => Vec::new(),
    };
    Some(Tags {
        pre: Vec::new(),
        post,
    })
}

struct Analysis {
    mode: ReasoningMode,
    start: Vec<u8>,
    end: Vec<u8>,
}

fn user_msg() -> Json {
    json!({ "role": "user", "content": USER_MSG })
}

impl Analysis {
    /// `compare_reasoning_presence`.
    fn presence(&mut self, tmpl: &Template, now: i64) {
        let base = probe(json!([user_msg(), { "role": "assistant", "content": ASSISTANT_MSG }]));
        let Some(c) = compare(
            tmpl,
            &base,
            |p| {
                p.messages = json!([user_msg(), {
                    "role": "assistant",
                    "content": ASSISTANT_MSG,
                    "reasoning_content": THINKING_CONTENT
                }])
            },
            now,
        ) else {
            return;
        };
        let r = THINKING_CONTENT.as_bytes();
        if c.diff.right.is_empty() || find(&c.diff.right, r).is_none() {
            return;
        }
        let tags = wrapped(&c.b, r, space_marker_space).or_else(|| delimited(&c.b, r));
        if let Some(t) = tags {
            if !t.pre.is_empty() && !t.post.is_empty() {
                self.mode = ReasoningMode::TagBased;
                self.start = t.pre;
                self.end = t.post;
            } else if !t.post.is_empty() {
                self.mode = ReasoningMode::TagBased;
                self.end = t.post;
            }
        }
    }

    /// `compare_thinking_enabled`.
    fn thinking_enabled(&mut self, tmpl: &Template, now: i64) {
        let base = Probe {
            messages: json!([user_msg()]),
            tools: Json::Null,
            add_generation_prompt: true,
            enable_thinking: false,
        };
        let Some(c) = compare(tmpl, &base, |p| p.enable_thinking = true, now) else {
            return;
        };
        let left_t = trim(&c.diff.left).to_vec();
        let right_t = trim(&c.diff.right).to_vec();
        if left_t.is_empty() && !c.diff.right.is_empty() {
            if !right_t.is_empty() && c.b.ends_with(&right_t) && self.start.is_empty() {
                self.start = c.diff.right.clone();
                self.mode = ReasoningMode::TagBased;
            }
        } else if right_t.is_empty() && !c.diff.left.is_empty() {
            if !left_t.is_empty() && c.a.ends_with(&left_t) && self.end.is_empty() {
                let seg = prune_whitespace_segments(segmentize_markers(&c.a));
                if seg.len() >= 2
                    && seg[seg.len() - 1].value == left_t
                    && seg[seg.len() - 2].ty == SegType::Marker
                {
                    self.start = seg[seg.len() - 2].value.clone();
                }
                self.end = c.diff.left.clone();
                self.mode = ReasoningMode::TagBased;
            }
        } else if !left_t.is_empty() && !right_t.is_empty() {
            const ANCHOR_LEN: usize = 64;
            for dir in 0..2 {
                let (base, extended) = if dir == 0 { (&c.b, &c.a) } else { (&c.a, &c.b) };
                let len = base.len().min(ANCHOR_LEN);
                let anchor = &base[base.len() - len..];
                let Some(pos) = rfind(extended, anchor) else {
                    continue;
                };
                if pos + len >= extended.len() {
                    continue;
                }
                let extra = trim(&extended[pos + len..]).to_vec();
                if extra.is_empty() {
                    continue;
                }
                let seg = prune_whitespace_segments(segmentize_markers(&extra));
                if seg.len() == 2 && seg[0].ty == SegType::Marker && seg[1].ty == SegType::Marker {
                    if self.start.is_empty() {
                        self.start = seg[0].value.clone();
                    }
                    if self.end.is_empty() {
                        self.end = seg[1].value.clone();
                    }
                    self.mode = ReasoningMode::TagBased;
                    break;
                }
            }
        }
        if self.mode == ReasoningMode::None && self.start.is_empty() && !self.end.is_empty() {
            self.mode = ReasoningMode::TagBased;
        }
    }

    /// `compare_reasoning_scope`.
    fn scope(&mut self, tmpl: &Template, now: i64) {
        let params_schema = json!({
            "type": "object",
            "properties": {
                ARG_FIRST: { "type": "string", "description": "First argument" },
                ARG_SECOND: { "type": "string", "description": "Second argument" }
            },
            "required": []
        });
        let tools = json!([
            { "type": "function", "function": { "name": FUN_FIRST, "description": "Test function foo", "parameters": params_schema } },
            { "type": "function", "function": { "name": FUN_SECOND, "description": "Test function bar", "parameters": params_schema } }
        ]);
        let base = Probe {
            messages: json!([user_msg(), {
                "role": "assistant",
                "content": ASSISTANT_MSG,
                "reasoning_content": THINKING_CONTENT
            }]),
            tools,
            add_generation_prompt: false,
            enable_thinking: true,
        };
        let Some(c) = compare(
            tmpl,
            &base,
            |p| {
                p.messages = json!([user_msg(), {
                    "role": "assistant",
                    "content": null,
                    "reasoning_content": THINKING_CONTENT,
                    "tool_calls": [{
                        "id": CALL_ID_001,
                        "type": "function",
                        "function": { "name": FUN_FIRST, "arguments": { ARG_FIRST: "VVVV", ARG_SECOND: "XXXX" } }
                    }]
                }])
            },
            now,
        ) else {
            return;
        };
        let r = THINKING_CONTENT.as_bytes();
        let in_a = find(&c.a, r).is_some();
        let in_b = find(&c.b, r).is_some();
        if in_a || !in_b {
            return;
        }
        self.mode = ReasoningMode::ToolsOnly;
        // `literal(R) + space + tag(post, marker + space)`: the space
        // before the marker is outside the tag.
        if let Some(t) = wrapped(&c.b, r, space_marker_space) {
            self.start = t.pre;
            let skip = t.post.iter().take_while(|&&b| is_space(b)).count();
            self.end = t.post[skip..].to_vec();
        } else if let Some(t) = delimited(&c.b, r) {
            self.end = t.post;
        } else {
            self.mode = ReasoningMode::None;
        }
    }
}

/// The reasoning analysis and the workarounds that touch it.
pub fn analyze_template(tmpl: &Template) -> Reasoning {
    analyze_template_at(tmpl, 0)
}

/// [`analyze_template`] with the clock the probes see.
pub fn analyze_template_at(tmpl: &Template, now: i64) -> Reasoning {
    let mut a = Analysis {
        mode: ReasoningMode::None,
        start: Vec::new(),
        end: Vec::new(),
    };
    a.presence(tmpl, now);
    a.thinking_enabled(tmpl, now);
    if tmpl.caps().supports_tool_calls {
        a.scope(tmpl, now);
    }
    let src = tmpl.source();
    // old Qwen/DeepSeek thinking templates
    if src.contains("content.split('</think>')")
        && !src.contains("reasoning_content")
        && !src.contains("<SPECIAL_12>")
        && a.mode == ReasoningMode::None
    {
        a.mode = ReasoningMode::TagBased;
        a.start = b"<think>".to_vec();
        a.end = b"</think>".to_vec();
    }
    // Granite 3.3
    if src.contains(
        "Write your thoughts between <think></think> and write your response between <response></response>",
    ) {
        a.mode = ReasoningMode::TagBased;
        a.start = b"<think>".to_vec();
        a.end = b"</think>".to_vec();
    }
    // Nemotron Nano v2
    if src.contains("<SPECIAL_10>")
        && src.contains("<SPECIAL_11>")
        && src.contains("<SPECIAL_12>")
        && src.contains("<TOOL_RESPONSE>")
    {
        a.mode = ReasoningMode::TagBased;
        // `<think>\n\n` before nemotron_v2_reasoning_start: the generation
        // prompt's `<think>\n` does not hold it
        a.start = if tmpl
            .rules()
            .on(&changes::llamacpp::NEMOTRON_V2_REASONING_START)
        {
            b"<think>\n".to_vec()
        } else {
            b"<think>\n\n".to_vec()
        };
        a.end = b"</think>".to_vec();
    }
    // Laguna
    if src.contains("laguna_glm_thinking")
        && tmpl.rules().on(&changes::llamacpp::LAGUNA_AUTOPARSER_TRIM)
    {
        a.start = trim(&a.start).to_vec();
        a.end = trim(&a.end).to_vec();
    }
    Reasoning {
        mode: a.mode,
        start: String::from_utf8_lossy(&a.start).into_owned(),
        end: String::from_utf8_lossy(&a.end).into_owned(),
    }
}

/// `detect_assistant_start_marker`: what the template writes before an
/// assistant message, up to its reasoning markers.
fn assistant_start(tmpl: &Template, reasoning: &Reasoning, now: i64) -> Vec<u8> {
    let base = probe(json!([user_msg()]));
    let Some(c) = compare(
        tmpl,
        &base,
        |p| p.messages = json!([user_msg(), { "role": "assistant", "content": ASSISTANT_MSG }]),
        now,
    ) else {
        return Vec::new();
    };
    let right = &c.diff.right;
    let mut prefix = right[..find(right, ASSISTANT_MSG.as_bytes()).unwrap_or(right.len())].to_vec();
    for marker in [&reasoning.start, &reasoning.end] {
        if marker.is_empty() {
            continue;
        }
        if let Some(i) = find(&prefix, trim(marker.as_bytes())) {
            prefix.truncate(i);
        }
    }
    trim(&prefix).to_vec()
}

/// `detect_user_start_marker`: the markers the template writes before a
/// user message, less a leading end marker.
fn user_start(tmpl: &Template, now: i64) -> Vec<u8> {
    let user = || json!({ "role": "user", "content": USER_MSG });
    let assistant = || json!({ "role": "assistant", "content": ASSISTANT_MSG });
    let two = || json!({ "role": "user", "content": USER_MSG_TWO });
    let mut base = probe(json!([]));
    let c = match compare(tmpl, &base, |p| p.messages = json!([user()]), now) {
        Some(c) => c,
        None => {
            base.messages = json!([two(), assistant()]);
            match compare(
                tmpl,
                &base,
                |p| p.messages = json!([two(), assistant(), user()]),
                now,
            ) {
                Some(c) => c,
                None => return Vec::new(),
            }
        }
    };
    let mut msg: &[u8] = &c.diff.right;
    if let Some(i) = find(msg, ASSISTANT_MSG.as_bytes()) {
        msg = &msg[i + ASSISTANT_MSG.len()..];
    }
    let candidate = &msg[..find(msg, USER_MSG.as_bytes()).unwrap_or(msg.len())];
    let mut out = Vec::new();
    let mut seen_marker = false;
    for seg in segmentize_markers(candidate) {
        let lower = seg.value.to_ascii_lowercase();
        if seg.ty == SegType::Marker
            && !seen_marker
            && (find(&lower, b"end").is_some() || find(&lower, b"close").is_some())
        {
            continue;
        }
        if seg.ty == SegType::Text && !seen_marker && trim(&seg.value).is_empty() {
            continue;
        }
        seen_marker |= seg.ty == SegType::Marker;
        out.extend_from_slice(&seg.value);
    }
    trim(&out).to_vec()
}

/// The message delimiters the autoparser declares (common/chat.cpp: its
/// `assistant_start` and `user_start`, after the analysis's workarounds),
/// which llama-server tokenizes to find where user messages start in a
/// prompt and checkpoints there.
pub fn autoparser_delimiters(tmpl: &Template, now: i64) -> Vec<(String, String)> {
    let mut assistant = assistant_start(tmpl, tmpl.reasoning(), now);
    let mut user = user_start(tmpl, now);
    let src = tmpl.source();
    // Cohere Command R+ (content wrapped in <|CHATBOT_TOKEN|>...)
    if src.contains("<|CHATBOT_TOKEN|>") && src.contains("<|END_OF_TURN_TOKEN|>") {
        user = b"<|START_OF_TURN_TOKEN|><|USER_TOKEN|>".to_vec();
    }
    // Nemotron Nano v2
    if src.contains("<SPECIAL_10>")
        && src.contains("<SPECIAL_11>")
        && src.contains("<SPECIAL_12>")
        && src.contains("<TOOL_RESPONSE>")
    {
        assistant = b"<SPECIAL_11>Assistant".to_vec();
        user = b"<SPECIAL_11>User".to_vec();
    }
    // Fireworks
    if src.contains("{%- set system_prompt = '<|start_header_id|>' + 'system' + '<|end_header_id|>\\n\\n' + message['content'] | trim + '\\n' + system_prompt_suffix + '<|eot_id|>' -%}") {
        assistant = b"<|start_header_id|>assistant<|end_header_id|>".to_vec();
        user = b"<|start_header_id|>user<|end_header_id|>".to_vec();
    }
    // Solar Open
    if src.contains("<|begin|>assistant<|think|><|end|>") {
        assistant = b"<|begin|>assistant".to_vec();
    }
    // Apriel 1.6
    if src.contains("if not loop.last and '[BEGIN FINAL RESPONSE]' in asst_text") {
        user = b"<|begin_user|>".to_vec();
        assistant = b"<|begin_assistant|>".to_vec();
    }
    let mut out = Vec::new();
    for (role, d) in [("assistant", assistant), ("user", user)] {
        if !d.is_empty() {
            out.push((role.to_string(), String::from_utf8_lossy(&d).into_owned()));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seg(s: &str) -> Vec<String> {
        segmentize_markers(s.as_bytes())
            .into_iter()
            .map(|s| String::from_utf8(s.value).unwrap())
            .collect()
    }

    #[test]
    fn segments_as_the_header_documents() {
        assert_eq!(
            seg("<|tool_call|>[args]{ are here }[/args]<|tool_call_end|>"),
            [
                "<|tool_call|>",
                "[args]",
                "{ are here }",
                "[/args]",
                "<|tool_call_end|>"
            ]
        );
    }

    #[test]
    fn diff_of_a_generation_prompt() {
        let d = calculate_diff_split(
            b"<|user|>hi<|end|>\n",
            b"<|user|>hi<|end|>\n<|assistant|>\n",
        );
        assert_eq!(d.prefix, b"<|user|>hi<|end|>\n");
        assert_eq!(d.right, b"<|assistant|>\n");
        assert!(d.left.is_empty());
    }
}
