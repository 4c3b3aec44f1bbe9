//! Code-point classification and UTF-8 handling as llama.cpp's `unicode.cpp`
//! does it: its own category tables (not the Rust standard library's), its
//! lenient UTF-8 decoder, and GPT-2's byte-to-unicode mapping.

use crate::unicode_data::{FLAGS, LOWERCASE, NFD};

/// `unicode_cpt_flags` bits.
pub(crate) mod flag {
    pub const UNDEFINED: u16 = 0x0001;
    pub const NUMBER: u16 = 0x0002;
    pub const LETTER: u16 = 0x0004;
    pub const ACCENT_MARK: u16 = 0x0010;
    pub const PUNCTUATION: u16 = 0x0020;
    pub const SYMBOL: u16 = 0x0040;
    pub const CONTROL: u16 = 0x0080;
    pub const MASK_CATEGORIES: u16 = 0x00FF;
    pub const WHITESPACE: u16 = 0x0100;
}

/// The flags of one code point, as `unicode_cpt_flags_from_cpt`: `UNDEFINED`
/// past U+10FFFF. Out-of-fragment positions are represented by `0` in the
/// splitters (llama.cpp's default-constructed flags).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Flags(pub u16);

impl Flags {
    #[inline]
    pub fn of(cpt: u32) -> Flags {
        if cpt < 128 {
            return Flags(ASCII_FLAGS[cpt as usize]);
        }
        Flags(lookup(cpt))
    }
    #[inline]
    pub fn is_number(self) -> bool {
        self.0 & flag::NUMBER != 0
    }
    #[inline]
    pub fn is_letter(self) -> bool {
        self.0 & flag::LETTER != 0
    }
    #[inline]
    pub fn is_accent_mark(self) -> bool {
        self.0 & flag::ACCENT_MARK != 0
    }
    #[inline]
    pub fn is_punctuation(self) -> bool {
        self.0 & flag::PUNCTUATION != 0
    }
    #[inline]
    pub fn is_symbol(self) -> bool {
        self.0 & flag::SYMBOL != 0
    }
    #[inline]
    pub fn is_control(self) -> bool {
        self.0 & flag::CONTROL != 0
    }
    #[inline]
    pub fn is_whitespace(self) -> bool {
        self.0 & flag::WHITESPACE != 0
    }
    #[inline]
    pub fn category(self) -> u16 {
        self.0 & flag::MASK_CATEGORIES
    }
    #[inline]
    pub fn any(self) -> bool {
        self.0 != 0
    }
}

fn lookup(cpt: u32) -> u16 {
    if cpt >= 0x110000 {
        return flag::UNDEFINED;
    }
    // The last run starting at or before cpt.
    let i = FLAGS.partition_point(|&(start, _)| start <= cpt);
    FLAGS[i - 1].1
}

static ASCII_FLAGS: [u16; 128] = {
    let mut t = [0u16; 128];
    let mut c = 0;
    while c < 128 {
        // FLAGS is sorted; find the run for c at compile time.
        let mut i = 0;
        while i + 1 < FLAGS.len() && FLAGS[i + 1].0 <= c as u32 {
            i += 1;
        }
        t[c] = FLAGS[i].1;
        c += 1;
    }
    t
};

/// `unicode_tolower`: the mapped code point, or the code point itself.
pub(crate) fn to_lower(cpt: u32) -> u32 {
    match LOWERCASE.binary_search_by_key(&cpt, |&(c, _)| c) {
        Ok(i) => LOWERCASE[i].1,
        Err(_) => cpt,
    }
}

/// `unicode_cpts_normalize_nfd` for one code point: the NFD code point of
/// the last range starting at or before it, when it falls inside (each
/// code point maps to one: combining marks are dropped, not emitted).
pub(crate) fn nfd(cpt: u32) -> u32 {
    let i = NFD.partition_point(|&(first, _, _)| first <= cpt);
    match i.checked_sub(1).map(|i| NFD[i]) {
        Some((first, last, n)) if first <= cpt && cpt <= last => n,
        _ => cpt,
    }
}

/// `unicode_cpt_is_han`.
pub(crate) fn is_han(cpt: u32) -> bool {
    matches!(cpt,
        0x4E00..=0x9FFF | 0x3400..=0x4DBF | 0x20000..=0x2A6DF | 0x2A700..=0x2B73F
        | 0x2B740..=0x2B81F | 0x2B820..=0x2CEAF | 0x2CEB0..=0x2EBEF | 0xF900..=0xFAFF
        | 0x2F800..=0x2FA1F)
}

/// `unicode_len_utf8`: the sequence length announced by a lead byte (1 for
/// continuation bytes).
#[inline]
pub(crate) fn len_utf8(byte: u8) -> usize {
    const LOOKUP: [usize; 16] = [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 3, 4];
    LOOKUP[(byte >> 4) as usize]
}

/// `unicode_cpts_from_utf8`: llama.cpp's decoder. It does not reject
/// overlong forms or surrogates; a malformed sequence becomes one U+FFFD and
/// decoding resumes at the next byte.
pub(crate) fn cpts_from_utf8(bytes: &[u8]) -> Vec<u32> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    let n = bytes.len();
    let cont = |j: usize| j < n && bytes[j] & 0xC0 == 0x80;
    while i < n {
        let b = bytes[i];
        if b & 0x80 == 0 {
            out.push(b as u32);
            i += 1;
        } else if b & 0x40 == 0 {
            out.push(0xFFFD);
            i += 1;
        } else if b & 0x20 == 0 {
            if i + 1 >= n || !cont(i + 1) {
                out.push(0xFFFD);
                i += 1;
            } else {
                out.push(((b as u32 & 0x1F) << 6) | (bytes[i + 1] as u32 & 0x3F));
                i += 2;
            }
        } else if b & 0x10 == 0 {
            if i + 2 >= n || !cont(i + 1) || !cont(i + 2) {
                out.push(0xFFFD);
                i += 1;
            } else {
                out.push(
                    ((b as u32 & 0x0F) << 12)
                        | ((bytes[i + 1] as u32 & 0x3F) << 6)
                        | (bytes[i + 2] as u32 & 0x3F),
                );
                i += 3;
            }
        } else if b & 0x08 == 0 {
            if i + 3 >= n || !cont(i + 1) || !cont(i + 2) || !cont(i + 3) {
                out.push(0xFFFD);
                i += 1;
            } else {
                out.push(
                    ((b as u32 & 0x07) << 18)
                        | ((bytes[i + 1] as u32 & 0x3F) << 12)
                        | ((bytes[i + 2] as u32 & 0x3F) << 6)
                        | (bytes[i + 3] as u32 & 0x3F),
                );
                i += 4;
            }
        } else {
            out.push(0xFFFD);
            i += 1;
        }
    }
    out
}

/// `unicode_cpt_to_utf8`, appending. `None` past U+10FFFF, where llama.cpp
/// throws `invalid codepoint`.
#[inline]
pub(crate) fn push_utf8(out: &mut Vec<u8>, cpt: u32) -> Option<()> {
    if cpt <= 0x7F {
        out.push(cpt as u8);
    } else if cpt <= 0x7FF {
        out.extend_from_slice(&[0xC0 | ((cpt >> 6) & 0x1F) as u8, 0x80 | (cpt & 0x3F) as u8]);
    } else if cpt <= 0xFFFF {
        out.extend_from_slice(&[
            0xE0 | ((cpt >> 12) & 0x0F) as u8,
            0x80 | ((cpt >> 6) & 0x3F) as u8,
            0x80 | (cpt & 0x3F) as u8,
        ]);
    } else if cpt <= 0x10FFFF {
        out.extend_from_slice(&[
            0xF0 | ((cpt >> 18) & 0x07) as u8,
            0x80 | ((cpt >> 12) & 0x3F) as u8,
            0x80 | ((cpt >> 6) & 0x3F) as u8,
            0x80 | (cpt & 0x3F) as u8,
        ]);
    } else {
        return None;
    }
    Some(())
}

/// GPT-2's byte-to-unicode table (`unicode_byte_to_utf8_map`): the code point
/// that stands for each byte in byte-level BPE vocabularies.
pub(crate) static BYTE_TO_CPT: [u32; 256] = {
    let mut t = [0u32; 256];
    let mut n = 0u32;
    let mut b = 0;
    while b < 256 {
        let printable =
            (b >= 0x21 && b <= 0x7E) || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
        if printable {
            t[b] = b as u32;
        } else {
            t[b] = 256 + n;
            n += 1;
        }
        b += 1;
    }
    t
};

/// The bytes GPT-2 maps past U+00FF, in order: byte `NON_PRINTABLE[k]` is
/// code point `0x100 + k`.
static NON_PRINTABLE: [u8; 68] = {
    let mut t = [0u8; 68];
    let mut n = 0;
    let mut b = 0;
    while b < 256 {
        if BYTE_TO_CPT[b] >= 256 {
            t[n] = b as u8;
            n += 1;
        }
        b += 1;
    }
    t
};

/// The inverse of [`BYTE_TO_CPT`] (`unicode_utf8_to_byte`): `None` for code
/// points that stand for no byte.
pub(crate) fn cpt_to_byte(cpt: u32) -> Option<u8> {
    match cpt {
        0x21..=0x7E | 0xA1..=0xAC | 0xAE..=0xFF => Some(cpt as u8),
        0x100..=0x143 => Some(NON_PRINTABLE[(cpt - 0x100) as usize]),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_match_llama_tables() {
        assert!(Flags::of('a' as u32).is_letter());
        assert!(Flags::of('7' as u32).is_number());
        assert!(Flags::of(' ' as u32).is_whitespace());
        assert!(Flags::of(0x85).is_whitespace());
        assert!(!Flags::of(0x1C).is_whitespace());
        assert!(Flags::of(0x3000).is_whitespace());
        assert!(!Flags::of(0x200B).is_whitespace());
        assert_eq!(Flags::of(0x110000).0, flag::UNDEFINED);
        assert!(Flags::of(0x0301).is_accent_mark());
        assert!(Flags::of(0x4E2D).is_letter());
    }

    #[test]
    fn byte_map_round_trips() {
        for b in 0..=255u8 {
            assert_eq!(cpt_to_byte(BYTE_TO_CPT[b as usize]), Some(b));
        }
        assert_eq!(BYTE_TO_CPT[b' ' as usize], 0x120);
        assert_eq!(BYTE_TO_CPT[b'\n' as usize], 0x10A);
    }

    #[test]
    fn lenient_decoder() {
        assert_eq!(cpts_from_utf8(b"a\xC3\xA9"), vec![0x61, 0xE9]);
        assert_eq!(cpts_from_utf8(b"\xC3"), vec![0xFFFD]);
        assert_eq!(cpts_from_utf8(b"\x80a"), vec![0xFFFD, 0x61]);
        assert_eq!(cpts_from_utf8(b"\xED\xA0\x80"), vec![0xD800]);
        assert_eq!(to_lower('A' as u32), 'a' as u32);
    }
}
