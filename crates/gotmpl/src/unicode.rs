//! Character classes exactly as Go's `unicode` package defines them.

use crate::unicode_tables::{DIGIT, GRAPHIC_NOT_PRINT, LETTER, PRINT};

fn in_table(table: &[(u32, u32)], r: char) -> bool {
    let c = r as u32;
    table
        .binary_search_by(|&(lo, hi)| {
            if hi < c {
                std::cmp::Ordering::Less
            } else if lo > c {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

/// `unicode.IsLetter`.
pub fn is_letter(r: char) -> bool {
    if r.is_ascii() {
        return r.is_ascii_alphabetic();
    }
    in_table(LETTER, r)
}

/// `unicode.IsDigit`.
pub fn is_digit(r: char) -> bool {
    if r.is_ascii() {
        return r.is_ascii_digit();
    }
    in_table(DIGIT, r)
}

/// `unicode.IsPrint` (and `strconv.IsPrint`).
pub fn is_print(r: char) -> bool {
    if r.is_ascii() {
        return (' '..='~').contains(&r);
    }
    in_table(PRINT, r)
}

/// `unicode.IsGraphic` (and `strconv.IsGraphic`).
pub fn is_graphic(r: char) -> bool {
    if r.is_ascii() {
        return (' '..='~').contains(&r);
    }
    is_print(r) || in_table(GRAPHIC_NOT_PRINT, r)
}

/// Graphic but not printable: the space separators other than U+0020
/// (Go's `isInGraphicList`).
pub fn is_graphic_not_print(r: char) -> bool {
    in_table(GRAPHIC_NOT_PRINT, r)
}

/// `unicode.IsSpace`.
pub fn is_space(r: char) -> bool {
    matches!(
        r,
        '\t' | '\n' | '\x0b' | '\x0c' | '\r' | ' ' | '\u{85}' | '\u{a0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200a}' | '\u{2028}' | '\u{2029}' | '\u{202f}' | '\u{205f}' | '\u{3000}'
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes() {
        assert!(is_letter('é') && !is_letter('\u{345}') && !is_letter('Ⅰ'));
        assert!(is_digit('٣') && !is_digit('½'));
        assert!(is_print('é') && !is_print('\u{a0}') && is_graphic('\u{a0}'));
    }
}
