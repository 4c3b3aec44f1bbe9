//! HTML for the prompt view (special tokens tinted, whitespace made
//! visible on demand) and for the editors' line gutter and error backdrop.
//! Everything written is escaped; the result is safe as `innerHTML`.

use crate::errpos::{self, Pos};

/// Special tokens the heuristic knows by name (besides `<|...|>` and
/// `<｜...｜>`, which are recognised by shape).
pub const SPECIAL_TOKENS: &[&str] = &[
    "<s>",
    "</s>",
    "<unk>",
    "<pad>",
    "<bos>",
    "<eos>",
    "[INST]",
    "[/INST]",
    "<<SYS>>",
    "<</SYS>>",
    "[SYSTEM_PROMPT]",
    "[/SYSTEM_PROMPT]",
    "[AVAILABLE_TOOLS]",
    "[/AVAILABLE_TOOLS]",
    "[TOOL_CALLS]",
    "[TOOL_RESULTS]",
    "[/TOOL_RESULTS]",
    "[THINK]",
    "[/THINK]",
    "<start_of_turn>",
    "<end_of_turn>",
    "<start_of_image>",
    "<end_of_image>",
    "<image>",
    "<think>",
    "</think>",
    "<tool_call>",
    "</tool_call>",
    "<tool_response>",
    "</tool_response>",
    "<tools>",
    "</tools>",
    "<fim_prefix>",
    "<fim_suffix>",
    "<fim_middle>",
    "<PRE>",
    "<SUF>",
    "<MID>",
    "<EOT>",
    "<|endoftext|>",
];

/// The longest special token starting `s`, by the list or by shape.
pub fn special_token_at(s: &str) -> Option<usize> {
    let mut best = 0;
    for tok in SPECIAL_TOKENS {
        if tok.len() > best && s.starts_with(tok) {
            best = tok.len();
        }
    }
    for (open, close) in [("<|", "|>"), ("<｜", "｜>")] {
        if let Some(rest) = s.strip_prefix(open) {
            // At most 64 bytes inside, no whitespace or another opening.
            let limit = rest.len().min(64 + close.len());
            if let Some(end) = rest[..floor(rest, limit)].find(close) {
                let inner = &rest[..end];
                if !inner
                    .chars()
                    .any(|c| c.is_whitespace() || c == '<' || c == '>')
                {
                    best = best.max(open.len() + end + close.len());
                }
            }
        }
    }
    (best > 0).then_some(best)
}

fn floor(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Ollama's image tags `[img-N]`.
fn image_tag_at(s: &str) -> Option<usize> {
    let rest = s.strip_prefix("[img-")?;
    let n = rest.bytes().take_while(u8::is_ascii_digit).count();
    (n > 0 && rest[n..].starts_with(']')).then_some(5 + n + 1)
}

/// Appends `c` escaped for HTML.
fn push_escaped(out: &mut String, c: char) {
    match c {
        '&' => out.push_str("&amp;"),
        '<' => out.push_str("&lt;"),
        '>' => out.push_str("&gt;"),
        '"' => out.push_str("&quot;"),
        '\'' => out.push_str("&#39;"),
        c => out.push(c),
    }
}

/// `text` escaped for HTML.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    for c in text.chars() {
        push_escaped(&mut out, c);
    }
    out
}

/// The prompt as HTML, and how many special tokens it has.
///
/// Special tokens become `<span class="tok">`, image tags `<span class="img">`.
/// With `show_whitespace`, spaces show as `·`, tabs as `→` (then the tab),
/// newlines as `↵` followed by the real newline, carriage returns as `␍`,
/// each in `<span class="ws">`.
pub fn prompt_html(text: &str, show_whitespace: bool) -> (String, usize) {
    let mut out = String::with_capacity(text.len() + text.len() / 4);
    let mut specials = 0;
    let mut i = 0;
    while i < text.len() {
        let rest = &text[i..];
        let first = rest.as_bytes()[0];
        if first == b'<' || first == b'[' {
            if let Some(n) = special_token_at(rest) {
                out.push_str("<span class=\"tok\">");
                out.push_str(&escape(&rest[..n]));
                out.push_str("</span>");
                specials += 1;
                i += n;
                continue;
            }
            if let Some(n) = image_tag_at(rest) {
                out.push_str("<span class=\"img\">");
                out.push_str(&rest[..n]);
                out.push_str("</span>");
                i += n;
                continue;
            }
        }
        let c = rest.chars().next().unwrap_or(' ');
        i += c.len_utf8();
        if show_whitespace {
            let mark = match c {
                ' ' => Some("·"),
                '\t' => Some("→"),
                '\n' => Some("↵"),
                '\r' => Some("␍"),
                _ => None,
            };
            if let Some(mark) = mark {
                out.push_str("<span class=\"ws\">");
                out.push_str(mark);
                out.push_str("</span>");
                if c == '\n' || c == '\t' {
                    out.push(c);
                }
                continue;
            }
        }
        push_escaped(&mut out, c);
    }
    (out, specials)
}

/// The line-number gutter for `line_count` lines, the error line marked.
pub fn gutter_html(line_count: usize, error_line: Option<usize>) -> String {
    let mut out = String::with_capacity(line_count * 4);
    for n in 1..=line_count.max(1) {
        if Some(n) == error_line {
            out.push_str("<mark class=\"err-line-no\">");
            out.push_str(&n.to_string());
            out.push_str("</mark>");
        } else {
            out.push_str(&n.to_string());
        }
        out.push('\n');
    }
    out
}

/// Number of lines in an editor's text (a trailing newline starts a line).
pub fn line_count(text: &str) -> usize {
    text.bytes().filter(|&b| b == b'\n').count() + 1
}

/// The text behind an editor's textarea, invisible except for the error:
/// the error line gets `<mark class="err-line">`, the character at the
/// error's column `<mark class="err-col">`. Empty when there is no position.
pub fn backdrop_html(text: &str, pos: Option<Pos>) -> String {
    let Some(pos) = pos else {
        return String::new();
    };
    let Some((line_start, line_end)) = errpos::byte_range(text, Pos { col: None, ..pos }) else {
        return String::new();
    };
    let mut out = String::with_capacity(text.len() + 64);
    out.push_str(&escape(&text[..line_start]));
    out.push_str("<mark class=\"err-line\">");
    match pos.col.and_then(|_| errpos::byte_range(text, pos)) {
        Some((s, e)) => {
            out.push_str(&escape(&text[line_start..s]));
            out.push_str("<mark class=\"err-col\">");
            // An empty range (the error is at the end of the line) still shows a mark.
            if s == e {
                out.push(' ');
            } else {
                out.push_str(&escape(&text[s..e]));
            }
            out.push_str("</mark>");
            out.push_str(&escape(&text[e..line_end]));
        }
        None => out.push_str(&escape(&text[line_start..line_end])),
    }
    out.push_str("</mark>");
    out.push_str(&escape(&text[line_end..]));
    // A trailing newline needs a character after it to take up its line.
    out.push(' ');
    out
}

/// [`prompt_html`] with two marks in the text: the bytes the runner's cut
/// drops (`cut`, `[start, end)`) in a `prompt-cut` span, and where the
/// previous turn's KV cache stops matching (`cache_break`) as an empty
/// `cache-break` mark. Offsets are bytes of `text`; one that is not on a
/// character boundary, or past the end, is left out.
pub fn marked_prompt_html(
    text: &str,
    show_whitespace: bool,
    cut: Option<(usize, usize)>,
    cache_break: Option<usize>,
) -> (String, usize) {
    let ok = |b: usize| b <= text.len() && text.is_char_boundary(b);
    let mut points: Vec<(usize, &str)> = Vec::new();
    if let Some((a, b)) = cut.filter(|&(a, b)| a < b && ok(a) && ok(b)) {
        points.push((a, "<span class=\"prompt-cut\" data-testid=\"prompt-cut\">"));
        points.push((b, "</span>"));
    }
    if let Some(b) = cache_break.filter(|&b| ok(b)) {
        points.push((
            b,
            "<mark class=\"cache-break\" data-testid=\"cache-break\" title=\"the previous turn's KV cache stops matching here\"></mark>",
        ));
    }
    if points.is_empty() {
        return prompt_html(text, show_whitespace);
    }
    // a span's end before a mark at the same byte, its start after
    points.sort_by_key(|&(b, m)| (b, m.starts_with("<span")));
    let mut out = String::new();
    let mut specials = 0;
    let mut at = 0;
    for (b, m) in points {
        let (h, n) = prompt_html(&text[at..b], show_whitespace);
        out.push_str(&h);
        out.push_str(m);
        specials += n;
        at = b;
    }
    let (h, n) = prompt_html(&text[at..], show_whitespace);
    out.push_str(&h);
    (out, specials + n)
}

#[cfg(test)]
mod tests {
    #[test]
    fn marks_the_cut_and_the_cache_break() {
        let (h, n) = super::marked_prompt_html("a<|im_end|>bcdef", false, Some((12, 14)), Some(1));
        assert_eq!(n, 1);
        assert_eq!(
            h,
            "a<mark class=\"cache-break\" data-testid=\"cache-break\" title=\"the previous turn's KV cache stops matching here\"></mark><span class=\"tok\">&lt;|im_end|&gt;</span>b<span class=\"prompt-cut\" data-testid=\"prompt-cut\">cd</span>ef"
        );
        // off a character boundary: left out
        assert_eq!(
            super::marked_prompt_html("é", false, Some((1, 2)), None),
            super::prompt_html("é", false)
        );
    }

    use super::*;

    fn strip_tags(html: &str) -> String {
        let mut out = String::new();
        let mut in_tag = false;
        for c in html.chars() {
            match c {
                '<' => in_tag = true,
                '>' => in_tag = false,
                c if !in_tag => out.push(c),
                _ => {}
            }
        }
        out.replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&quot;", "\"")
            .replace("&#39;", "'")
            .replace("&amp;", "&")
    }

    #[test]
    fn tokens_by_list_and_shape() {
        assert_eq!(special_token_at("<|im_start|>user"), Some(12));
        assert_eq!(special_token_at("<｜User｜>hi"), Some("<｜User｜>".len()));
        assert_eq!(special_token_at("<start_of_turn>user"), Some(15));
        assert_eq!(special_token_at("[INST] hi"), Some(6));
        assert_eq!(special_token_at("</s>"), Some(4));
        assert_eq!(special_token_at("<b>bold</b>"), None);
        assert_eq!(special_token_at("<| not a token |>"), None);
        assert_eq!(special_token_at("<|"), None);
    }

    #[test]
    fn prompt_text_is_preserved_and_escaped() {
        let prompt = "<|im_start|>user\n<b>&'\"x\" [img-0]\t[INST]<|im_end|>\n";
        let (html, specials) = prompt_html(prompt, false);
        assert_eq!(specials, 3);
        assert_eq!(strip_tags(&html), prompt);
        assert!(html.contains("<span class=\"tok\">&lt;|im_start|&gt;</span>"));
        assert!(html.contains("<span class=\"img\">[img-0]</span>"));
        assert!(html.contains("&lt;b&gt;&amp;&#39;&quot;x&quot;"));
    }

    #[test]
    fn visible_whitespace() {
        let (html, _) = prompt_html("a b\tc\r\nd", true);
        assert_eq!(strip_tags(&html), "a·b→\tc␍↵\nd");
    }

    #[test]
    fn gutter_and_backdrop() {
        assert_eq!(
            gutter_html(3, Some(2)),
            "1\n<mark class=\"err-line-no\">2</mark>\n3\n"
        );
        assert_eq!(line_count("a\nb\n"), 3);
        let text = "ab\n{{ x <y> }}\n";
        let html = backdrop_html(
            text,
            Some(Pos {
                line: 2,
                col: Some(3),
            }),
        );
        assert_eq!(
            html,
            "ab\n<mark class=\"err-line\">{{ <mark class=\"err-col\">x</mark> &lt;y&gt; }}</mark>\n "
        );
        assert_eq!(backdrop_html(text, None), "");
        let html = backdrop_html(text, Some(Pos { line: 1, col: None }));
        assert!(html.starts_with("<mark class=\"err-line\">ab</mark>\n"));
    }
}
