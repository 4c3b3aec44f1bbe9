//! Whether llama-server thinks a template supports thinking
//! (`common_chat_templates_support_enable_thinking`), which is its default
//! for `enable_thinking` when a request does not set it.
//!
//! llama.cpp answers from the handler the template is routed to: a fixed
//! answer for its dedicated model handlers, otherwise the differential
//! analysis of `chat-diff-analyzer.cpp` (`analyze_reasoning`): render pairs
//! of conversations that differ in one respect and look for reasoning
//! markers (`<...>` / `[...]`) in the difference. This is a port of that
//! analysis (its segment-wise diff included), reduced to the yes/no answer.

use minijinja::value::Serde;
use minijinja::Value;
use serde_json::{json, Value as Json};

use super::engine::Engine;
use super::probe::Caps;

const USER_MSG: &str = "U_USER_MSG Hello END_U";
const ASSISTANT_MSG: &str = "A_ASST_MSG I can help END_A";
const THINKING_CONTENT: &str = "REASON_PART I am thinking END_R";

/// The fixed answer of llama.cpp's dedicated handler for this template,
/// if it has one (`common_chat_try_specialized_template`, in its order).
fn handler_answer(src: &str) -> Option<bool> {
    let has = |s: &str| src.contains(s);
    let handlers: [(bool, bool); 16] = [
        (super::convert::is_ministral3(src), true),
        (has("<|channel|>"), true),
        (has("<atem:function_calls>") && has("<|eom|>"), true),
        (has(">>>all") && has(">>>${recipient}"), false),
        (
            has("<|tool_calls_section_begin|>") && has("<|tool_call_begin|>"),
            true,
        ),
        (
            has("<|open|>") && has("<|close|>") && has("<|end_of_msg|>"),
            true,
        ),
        (has("<role>ASSISTANT</role>") && has("<arg_key>"), true),
        (has("<|START_TEXT|>") && has("<|START_ACTION|>"), true),
        (has("<|tool_list_start|>") && has("<|tool_list_end|>"), true),
        (has("List of tools: [") && !has("<|tool_list_start|>"), true),
        (
            has("<|role_sep|>") && has("<|message_sep|>") && !has("<|function_call|>"),
            false,
        ),
        (
            has("]<]minimax[>[") && has("<tool_call>") && has("<invoke name="),
            true,
        ),
        (
            has("dsml_token") && has("DSML") && (has("function_calls") || has("tool_calls")),
            true,
        ),
        (super::convert::is_gemma4(src), true),
        (
            has("Tool usage guidelines:") && has("<function name=\"") && has("<param name=\""),
            true,
        ),
        (
            has("<tool_call>")
                && has("<function=")
                && has("<parameter=")
                && !has("'<tool_call><function=' ~ tool_call.name ~ '>'"),
            has("<think>"),
        ),
    ];
    handlers
        .iter()
        .find(|(hit, _)| *hit)
        .map(|(_, answer)| *answer)
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Segment {
    marker: bool,
    value: String,
}

/// `segmentize_markers`: text and `<...>` / `[...]` markers.
fn segmentize(text: &str) -> Vec<Segment> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut last = 0;
    let mut opener = 0u8;
    for (i, &c) in b.iter().enumerate() {
        if opener == 0 && (c == b'<' || c == b'[') {
            if last < i {
                out.push(Segment {
                    marker: false,
                    value: text[last..i].to_string(),
                });
            }
            last = i;
            opener = c;
        } else if (opener == b'<' && c == b'>') || (opener == b'[' && c == b']') {
            out.push(Segment {
                marker: true,
                value: text[last..=i].to_string(),
            });
            last = i + 1;
            opener = 0;
        }
    }
    if last < b.len() {
        out.push(Segment {
            marker: false,
            value: text[last..].to_string(),
        });
    }
    out
}

fn trim_ws(s: &str) -> &str {
    s.trim_matches(|c: char| c.is_ascii_whitespace() || c == '\u{b}')
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

/// `calculate_diff_split`: the parts only in `left` and only in `right`.
fn diff_split(left: &str, right: &str) -> (String, String) {
    let ls = segmentize(left);
    let rs = segmentize(right);
    if ls.is_empty() {
        return (String::new(), right.to_string());
    }
    if rs.is_empty() {
        return (left.to_string(), String::new());
    }
    let (mut l0, mut l1, mut r0, mut r1) = (0usize, ls.len() - 1, 0usize, rs.len() - 1);
    let (mut left_done, mut right_done) = (false, false);
    while l0 != l1 && r0 != r1 {
        let mut advanced = false;
        if ls[l0] == rs[r0] {
            l0 += 1;
            r0 += 1;
            advanced = true;
        }
        if ls[l1] == rs[r1] {
            if l0 != l1 {
                l1 -= 1;
            } else {
                left_done = true;
            }
            if r0 != r1 {
                r1 -= 1;
            } else {
                right_done = true;
            }
            advanced = true;
        }
        if !advanced {
            break;
        }
    }
    if l0 == l1 && r0 != r1 {
        if ls[l0] == rs[r1] {
            r1 -= 1;
            left_done = true;
        } else if ls[l0] == rs[r0] {
            r0 += 1;
            left_done = true;
        }
    } else if r0 == r1 && l0 != l1 {
        if ls[l1] == rs[r0] {
            l1 -= 1;
            right_done = true;
        } else if ls[l0] == rs[r0] {
            l0 += 1;
            right_done = true;
        }
    } else if l0 == l1 && r0 == r1 && ls[l0] == rs[r0] && ls[l0].marker {
        left_done = true;
        right_done = true;
    }
    let text_suffix = !ls[l1].marker && !rs[r1].marker;
    let text_prefix = !rs[r0].marker && !ls[l0].marker;
    let join = |s: &[Segment], a: usize, b: usize| -> String {
        if a >= b {
            return String::new();
        }
        s[a..b].iter().map(|x| x.value.as_str()).collect()
    };
    let rem_l = join(&ls, l0, if left_done { l1 } else { l1 + 1 });
    let rem_r = join(&rs, r0, if right_done { r1 } else { r1 + 1 });
    let (lb, rb) = (rem_l.as_bytes(), rem_r.as_bytes());
    let suf = if text_suffix {
        common_suffix_len(lb, rb)
    } else {
        0
    };
    let pre = if text_prefix {
        common_prefix_len(&lb[..lb.len() - suf], &rb[..rb.len() - suf])
    } else {
        0
    };
    let mut l = String::from_utf8_lossy(&lb[pre..lb.len() - suf]).into_owned();
    let mut r = String::from_utf8_lossy(&rb[pre..rb.len() - suf]).into_owned();
    if l.is_empty() && !r.is_empty() && right.starts_with(left) {
        r = right[left.len()..].to_string();
        l = String::new();
    }
    (l, r)
}

/// A marker right after the reasoning text (after whitespace).
fn marker_after_reasoning(out: &str) -> bool {
    let Some(i) = out.find(THINKING_CONTENT) else {
        return false;
    };
    let rest = out[i + THINKING_CONTENT.len()..].trim_start();
    let close = match rest.chars().next() {
        Some('<') => '>',
        Some('[') => ']',
        _ => return false,
    };
    rest[1..].contains(close)
}

fn render(
    engine: &Engine,
    messages: Json,
    tools: Option<&Json>,
    gen: bool,
    thinking: bool,
) -> Option<String> {
    let mut ctx = vec![
        ("messages".to_string(), Value::from(Serde(&messages))),
        ("bos_token".to_string(), Value::from("")),
        ("eos_token".to_string(), Value::from("")),
        ("enable_thinking".to_string(), Value::from(thinking)),
    ];
    if let Some(t) = tools {
        ctx.push(("tools".to_string(), Value::from(Serde(t))));
    }
    if gen {
        ctx.push(("add_generation_prompt".to_string(), Value::from(true)));
    }
    engine.render(&Value::from_pairs(ctx)).ok()
}

/// The answer for `engine`'s template; `caps` are its probe results.
pub(crate) fn supports_thinking(engine: &Engine, caps: &Caps) -> bool {
    let src = engine.source();
    if let Some(answer) = handler_answer(src) {
        return answer;
    }
    let user = json!({"role": "user", "content": USER_MSG});
    let mut tagged = false;

    // reasoning_content in the history
    let a = render(
        engine,
        json!([user, {"role": "assistant", "content": ASSISTANT_MSG}]),
        None,
        false,
        true,
    );
    let b = render(
        engine,
        json!([user, {"role": "assistant", "content": ASSISTANT_MSG, "reasoning_content": THINKING_CONTENT}]),
        None,
        false,
        true,
    );
    let mut have_end = false;
    if let (Some(a), Some(b)) = (&a, &b) {
        let (_, right) = diff_split(a, b);
        if right.contains(THINKING_CONTENT) && marker_after_reasoning(b) {
            tagged = true;
            have_end = true;
        }
    }

    // the enable_thinking switch on the generation prompt
    let off = render(engine, json!([user]), None, true, false);
    let on = render(engine, json!([user]), None, true, true);
    if let (Some(off), Some(on)) = (&off, &on) {
        let (left, right) = diff_split(off, on);
        let (lt, rt) = (trim_ws(&left), trim_ws(&right));
        if lt.is_empty() && !right.is_empty() {
            if !rt.is_empty() && on.ends_with(rt) {
                tagged = true;
            }
        } else if rt.is_empty() && !left.is_empty() {
            if !lt.is_empty() && off.ends_with(lt) && !have_end {
                tagged = true;
            }
        } else if !lt.is_empty() && !rt.is_empty() {
            for (base, extended) in [(on.as_str(), off.as_str()), (off.as_str(), on.as_str())] {
                let mut cut = base.len().saturating_sub(64);
                while !base.is_char_boundary(cut) {
                    cut -= 1;
                }
                let anchor = &base[cut..];
                let Some(pos) = extended.rfind(anchor) else {
                    continue;
                };
                if pos + anchor.len() >= extended.len() {
                    continue;
                }
                let extra = trim_ws(&extended[pos + anchor.len()..]);
                if extra.is_empty() {
                    continue;
                }
                let segs: Vec<Segment> = segmentize(extra)
                    .into_iter()
                    .filter(|s| !trim_ws(&s.value).is_empty())
                    .collect();
                if segs.len() == 2 && segs[0].marker && segs[1].marker {
                    tagged = true;
                    break;
                }
            }
        }
    }

    // reasoning shown only next to tool calls
    if !tagged && caps.supports_tool_calls {
        let tools = json!([{"type": "function", "function": {"name": "FFF_FIRST_FUN_F",
            "description": "Test function foo", "parameters": {"type": "object",
            "properties": {
                "AA_ARG_FST_AA": {"type": "string", "description": "First argument"},
                "BB_ARG_SND_BB": {"type": "string", "description": "Second argument"}},
            "required": []}}}]);
        let a = render(
            engine,
            json!([user, {"role": "assistant", "content": ASSISTANT_MSG, "reasoning_content": THINKING_CONTENT}]),
            Some(&tools),
            false,
            true,
        );
        let b = render(
            engine,
            json!([user, {"role": "assistant", "content": null, "reasoning_content": THINKING_CONTENT,
                "tool_calls": [{"id": "call00001", "type": "function", "function": {"name": "FFF_FIRST_FUN_F",
                "arguments": {"AA_ARG_FST_AA": "VVVV", "BB_ARG_SND_BB": "XXXX"}}}]}]),
            Some(&tools),
            false,
            true,
        );
        if let (Some(a), Some(b)) = (&a, &b) {
            if !a.contains(THINKING_CONTENT) && b.contains(THINKING_CONTENT) {
                tagged = true;
            }
        }
    }

    // the analysis's own patches
    tagged
        || (src.contains("content.split('</think>')")
            && !src.contains("reasoning_content")
            && !src.contains("<SPECIAL_12>"))
        || src.contains(
            "Write your thoughts between <think></think> and write your response between <response></response>",
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diffs() {
        assert_eq!(
            diff_split("ab<x>", "ab<x><think>"),
            ("".into(), "<think>".into())
        );
        assert_eq!(
            diff_split("<a>hi<think>\n\n</think>\n\n", "<a>hi"),
            ("<think>\n\n</think>\n\n".into(), "".into())
        );
        assert_eq!(segmentize("a<b>[c]d").len(), 4);
    }
}
