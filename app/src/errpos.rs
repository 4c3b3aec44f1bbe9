//! Where an error points in the editor text: Go template errors
//! (`template: NAME:LINE: msg`, `template: NAME:LINE:COL: executing ...`) and
//! JSON errors (serde_json's line and column).

/// A position in an editor's text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Pos {
    /// Line, 1-based.
    pub line: usize,
    /// Byte offset in the line, 0-based, when the error names a column.
    pub col: Option<usize>,
}

fn digits(s: &str) -> Option<(usize, &str)> {
    let end = s.bytes().take_while(u8::is_ascii_digit).count();
    if end == 0 {
        return None;
    }
    Some((s[..end].parse().ok()?, &s[end..]))
}

/// The position a Go template error names. Parse errors give a line
/// (`template: :3: unexpected EOF`); execution errors give a line and the
/// byte offset of the failing command in it (`template: :1:3: executing ...`).
pub fn go_template(msg: &str) -> Option<Pos> {
    let rest = msg.strip_prefix("template: ")?;
    // The template's name runs up to the first ':' followed by a digit.
    let mut search = 0;
    loop {
        let i = search + rest[search..].find(':')?;
        let after = &rest[i + 1..];
        if let Some((line, tail)) = digits(after) {
            let col = tail
                .strip_prefix(':')
                .and_then(digits)
                .filter(|(_, t)| t.starts_with(':'))
                .map(|(c, _)| c);
            if tail.starts_with(':') && line > 0 {
                return Some(Pos { line, col });
            }
        }
        search = i + 1;
    }
}

/// The position of a serde_json error (its column is 1-based; 0 at the end of input).
pub fn json(err: &serde_json::Error) -> Pos {
    Pos {
        line: err.line().max(1),
        col: Some(err.column().saturating_sub(1)),
    }
}

/// The byte range in `text` to select for `pos`: the character at the
/// column, or the whole line when there is no column. `None` when the line
/// does not exist.
pub fn byte_range(text: &str, pos: Pos) -> Option<(usize, usize)> {
    let mut start = 0;
    for _ in 1..pos.line {
        start += text[start..].find('\n')? + 1;
    }
    let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    match pos.col {
        None => Some((start, line_end)),
        Some(col) => {
            let mut at = (start + col).min(line_end);
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            let end = text[at..line_end]
                .chars()
                .next()
                .map_or(at, |c| at + c.len_utf8());
            Some((at, end))
        }
    }
}

/// A byte offset in `text` as a UTF-16 offset (what a textarea's selection uses).
pub fn utf16_offset(text: &str, byte: usize) -> usize {
    let mut byte = byte.min(text.len());
    while !text.is_char_boundary(byte) {
        byte -= 1;
    }
    text[..byte].encode_utf16().count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_parse_and_exec_errors() {
        assert_eq!(
            go_template("template: :1: unclosed action"),
            Some(Pos { line: 1, col: None })
        );
        assert_eq!(
            go_template("template: :12: function \"foo\" not defined"),
            Some(Pos {
                line: 12,
                col: None
            })
        );
        assert_eq!(
            go_template(
                "template: :1:3: executing \"\" at <index .l 9>: error calling index: index out of range: 9"
            ),
            Some(Pos {
                line: 1,
                col: Some(3)
            })
        );
        assert_eq!(
            go_template("template: t:4:10: executing \"t\" at <.X>: boom"),
            Some(Pos {
                line: 4,
                col: Some(10)
            })
        );
        assert_eq!(go_template("model is required"), None);
        assert_eq!(go_template("template: no position here"), None);
    }

    #[test]
    fn json_positions() {
        let err =
            serde_json::from_str::<serde_json::Value>("{\n  \"a\": 1,\n  \"b\": ]\n}").unwrap_err();
        let pos = json(&err);
        assert_eq!(pos.line, 3);
        assert_eq!(pos.col, Some(7));
        let text = "{\n  \"a\": 1,\n  \"b\": ]\n}";
        let (s, e) = byte_range(text, pos).unwrap();
        assert_eq!(&text[s..e], "]");
    }

    #[test]
    fn ranges() {
        let text = "ab\nçd{{x}}\nlast";
        assert_eq!(byte_range(text, Pos { line: 2, col: None }), Some((3, 11)));
        let (s, e) = byte_range(
            text,
            Pos {
                line: 2,
                col: Some(3),
            },
        )
        .unwrap();
        assert_eq!(&text[s..e], "{");
        // Past the end of the line: an empty range at its end.
        assert_eq!(
            byte_range(
                text,
                Pos {
                    line: 3,
                    col: Some(99)
                }
            ),
            Some((text.len(), text.len()))
        );
        assert_eq!(byte_range(text, Pos { line: 9, col: None }), None);
        assert_eq!(utf16_offset("çd😀x", 7), 4);
    }
}
