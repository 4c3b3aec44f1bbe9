//! Go's `strconv` quoting (`Quote`, `QuoteToASCII`, `QuoteRune`, ...) and the
//! `unicode/utf8` helpers `fmt` relies on.
//!
//! Go strings are byte strings that may hold invalid UTF-8, so the internal
//! functions work on bytes and decode runes the way `utf8.DecodeRune` does:
//! an invalid byte is one rune, `U+FFFD`, of width 1.

/// `utf8.RuneError`, the replacement character.
pub(super) const RUNE_ERROR: i32 = 0xFFFD;
/// `utf8.MaxRune`.
pub(super) const MAX_RUNE: i32 = 0x10FFFF;

const LOWER_HEX: &[u8; 16] = b"0123456789abcdef";

/// `utf8.DecodeRune`: the first rune of `b` and its width in bytes;
/// `(RUNE_ERROR, 1)` for an invalid encoding, `(RUNE_ERROR, 0)` if empty.
pub(super) fn decode_rune(b: &[u8]) -> (i32, usize) {
    if b.is_empty() {
        return (RUNE_ERROR, 0);
    }
    if b[0] < 0x80 {
        return (i32::from(b[0]), 1);
    }
    let head = &b[..b.len().min(4)];
    let valid = match std::str::from_utf8(head) {
        Ok(s) => s,
        Err(e) => std::str::from_utf8(&head[..e.valid_up_to()]).unwrap_or(""),
    };
    match valid.chars().next() {
        Some(c) => (c as i32, c.len_utf8()),
        None => (RUNE_ERROR, 1),
    }
}

/// `utf8.RuneCount`.
pub(super) fn rune_count(mut b: &[u8]) -> usize {
    let mut n = 0;
    while !b.is_empty() {
        let (_, w) = decode_rune(b);
        b = &b[w..];
        n += 1;
    }
    n
}

/// `utf8.ValidRune`.
pub(super) fn valid_rune(r: i32) -> bool {
    (0..0xD800).contains(&r) || (0xE000..=MAX_RUNE).contains(&r)
}

/// `utf8.AppendRune`: invalid runes are written as `U+FFFD`.
pub(super) fn append_rune(buf: &mut Vec<u8>, r: i32) {
    let c = u32::try_from(r)
        .ok()
        .and_then(char::from_u32)
        .unwrap_or(char::REPLACEMENT_CHARACTER);
    let mut tmp = [0u8; 4];
    buf.extend_from_slice(c.encode_utf8(&mut tmp).as_bytes());
}

/// `strconv.IsPrint` (the same as `unicode.IsPrint`): letters, marks,
/// numbers, punctuation, symbols and the ASCII space.
pub fn is_print(r: i32) -> bool {
    u32::try_from(r)
        .ok()
        .and_then(char::from_u32)
        .is_some_and(crate::unicode::is_print)
}

/// Go's `isInGraphicList`: graphic runes that are not printable (spaces).
fn is_in_graphic_list(r: i32) -> bool {
    u32::try_from(r)
        .ok()
        .and_then(char::from_u32)
        .is_some_and(crate::unicode::is_graphic_not_print)
}

/// `strconv.CanBackquote`: whether `s` can be written as a raw string
/// literal without control characters other than tab.
pub(super) fn can_backquote(mut s: &[u8]) -> bool {
    while !s.is_empty() {
        let (r, w) = decode_rune(s);
        s = &s[w..];
        if w > 1 {
            if r == 0xFEFF {
                return false;
            }
            continue;
        }
        if r == RUNE_ERROR {
            return false;
        }
        if (r < 0x20 && r != i32::from(b'\t')) || r == i32::from(b'`') || r == 0x7F {
            return false;
        }
    }
    true
}

/// Go's `appendQuotedWith`.
pub(super) fn append_quoted(
    buf: &mut Vec<u8>,
    mut s: &[u8],
    quote: u8,
    ascii_only: bool,
    graphic_only: bool,
) {
    buf.reserve(s.len() + 2);
    buf.push(quote);
    while !s.is_empty() {
        let (r, w) = decode_rune(s);
        if w == 1 && r == RUNE_ERROR {
            buf.extend_from_slice(b"\\x");
            buf.push(LOWER_HEX[usize::from(s[0] >> 4)]);
            buf.push(LOWER_HEX[usize::from(s[0] & 0xF)]);
        } else {
            append_escaped_rune(buf, r, quote, ascii_only, graphic_only);
        }
        s = &s[w..];
    }
    buf.push(quote);
}

/// Go's `appendQuotedRuneWith`.
pub(super) fn append_quoted_rune(
    buf: &mut Vec<u8>,
    mut r: i32,
    quote: u8,
    ascii_only: bool,
    graphic_only: bool,
) {
    buf.push(quote);
    if !valid_rune(r) {
        r = RUNE_ERROR;
    }
    append_escaped_rune(buf, r, quote, ascii_only, graphic_only);
    buf.push(quote);
}

/// Go's `appendEscapedRune`.
fn append_escaped_rune(buf: &mut Vec<u8>, r: i32, quote: u8, ascii_only: bool, graphic_only: bool) {
    if r == i32::from(quote) || r == i32::from(b'\\') {
        buf.push(b'\\');
        buf.push(r as u8);
        return;
    }
    if ascii_only {
        if r < 0x80 && is_print(r) {
            buf.push(r as u8);
            return;
        }
    } else if is_print(r) || (graphic_only && is_in_graphic_list(r)) {
        append_rune(buf, r);
        return;
    }
    match r {
        0x07 => buf.extend_from_slice(b"\\a"),
        0x08 => buf.extend_from_slice(b"\\b"),
        0x0C => buf.extend_from_slice(b"\\f"),
        0x0A => buf.extend_from_slice(b"\\n"),
        0x0D => buf.extend_from_slice(b"\\r"),
        0x09 => buf.extend_from_slice(b"\\t"),
        0x0B => buf.extend_from_slice(b"\\v"),
        _ if r < 0x20 || r == 0x7F => {
            buf.extend_from_slice(b"\\x");
            buf.push(LOWER_HEX[(r >> 4) as usize & 0xF]);
            buf.push(LOWER_HEX[r as usize & 0xF]);
        }
        _ => {
            let r = if valid_rune(r) { r } else { RUNE_ERROR };
            let (prefix, digits) = if r < 0x10000 {
                (b"\\u", 4)
            } else {
                (b"\\U", 8)
            };
            buf.extend_from_slice(prefix);
            for k in (0..digits).rev() {
                buf.push(LOWER_HEX[(r >> (4 * k)) as usize & 0xF]);
            }
        }
    }
}

fn into_string(buf: Vec<u8>) -> String {
    // Quoting escapes every invalid byte, so the result is valid UTF-8.
    String::from_utf8(buf).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// `strconv.Quote`: a double-quoted Go string literal, with Go escapes
/// (`\t`, `\n`, `\xFF`, `\u0100`) for control and non-printable characters.
pub fn quote(s: &str) -> String {
    let mut buf = Vec::with_capacity(s.len() + 2);
    append_quoted(&mut buf, s.as_bytes(), b'"', false, false);
    into_string(buf)
}

/// `strconv.QuoteToASCII`: like [`quote`], but escapes every non-ASCII
/// character too.
pub fn quote_ascii(s: &str) -> String {
    let mut buf = Vec::with_capacity(s.len() + 2);
    append_quoted(&mut buf, s.as_bytes(), b'"', true, false);
    into_string(buf)
}

/// `strconv.QuoteRune`: a single-quoted Go character literal. Invalid code
/// points (Go's `rune` is an `int32`) are quoted as `U+FFFD`.
pub fn quote_rune(r: i32) -> String {
    let mut buf = Vec::new();
    append_quoted_rune(&mut buf, r, b'\'', false, false);
    into_string(buf)
}

/// `strconv.QuoteRuneToASCII`: like [`quote_rune`], but escapes non-ASCII.
pub fn quote_rune_ascii(r: i32) -> String {
    let mut buf = Vec::new();
    append_quoted_rune(&mut buf, r, b'\'', true, false);
    into_string(buf)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_like_go() {
        assert_eq!(quote("a\"b\\c\n\u{7f}☺"), r#""a\"b\\c\n\x7f☺""#);
        assert_eq!(quote_ascii("☺\u{1F600}"), r#""\u263a\U0001f600""#);
        assert_eq!(quote("\u{10ffff}\u{e00}"), r#""\U0010ffff\u0e00""#);
        assert_eq!(quote_rune('\'' as i32), r"'\''");
        assert_eq!(quote_rune(-1), "'�'");
        assert_eq!(quote_rune_ascii(0xFF), r"'\u00ff'");
        let mut buf = Vec::new();
        append_quoted(&mut buf, b"a\xffb", b'"', false, false);
        assert_eq!(buf, br#""a\xffb""#);
    }

    #[test]
    fn decodes_like_go() {
        assert_eq!(decode_rune(b"\xe6\x97"), (RUNE_ERROR, 1));
        assert_eq!(decode_rune("日本".as_bytes()), (0x65E5, 3));
        assert_eq!(rune_count(b"\xe6\x97a"), 3);
        assert!(!is_print(0xAD) && is_print(0x263A) && !is_print(0x10FFFF));
        assert!(!can_backquote(b"a\nb") && can_backquote("日\tx".as_bytes()));
    }
}
