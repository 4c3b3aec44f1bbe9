//! The raw formatter: a port of Go's `fmt/format.go`.
//!
//! [`Fmt`] holds one directive's flags, width and precision and formats
//! basic items (integers, strings, floats, ...) into a byte buffer, padding
//! them as the directive asks.

use super::float::append_float;
use super::quote::{
    append_quoted, append_quoted_rune, append_rune, can_backquote, decode_rune, is_print,
    rune_count, valid_rune, MAX_RUNE, RUNE_ERROR,
};

/// Digits for lower-case hex, with the `x` of the `0x` prefix at index 16.
pub(super) const LDIGITS: &[u8; 17] = b"0123456789abcdefx";
/// Digits for upper-case hex, with the `X` of the `0X` prefix at index 16.
pub(super) const UDIGITS: &[u8; 17] = b"0123456789ABCDEFX";

/// A directive's flags (Go's `fmtFlags`), kept apart for easy clearing.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Flags {
    pub wid_present: bool,
    pub prec_present: bool,
    pub minus: bool,
    pub plus: bool,
    pub sharp: bool,
    pub space: bool,
    pub zero: bool,
    /// `%+v`: the `plus` flag moved aside, since `%+v` is its own format.
    pub plus_v: bool,
    /// `%#v`: the `sharp` flag moved aside.
    pub sharp_v: bool,
}

/// Go's `fmt` struct, less the buffer (passed to each method).
#[derive(Clone, Debug, Default)]
pub(super) struct Fmt {
    pub f: Flags,
    /// Width (meaningful when `f.wid_present`).
    pub wid: i64,
    /// Precision (meaningful when `f.prec_present`).
    pub prec: i64,
}

impl Fmt {
    /// Go's `clearflags`.
    pub fn clear_flags(&mut self) {
        *self = Fmt::default();
    }

    /// Writes `n` bytes of padding.
    pub fn write_padding(&self, buf: &mut Vec<u8>, n: i64) {
        if n <= 0 {
            return;
        }
        let pad = if self.f.zero && !self.f.minus {
            b'0'
        } else {
            b' '
        };
        buf.resize(buf.len() + n as usize, pad);
    }

    /// Appends `b`, padded on the left (or the right with `-`).
    pub fn pad(&self, buf: &mut Vec<u8>, b: &[u8]) {
        if !self.f.wid_present || self.wid == 0 {
            buf.extend_from_slice(b);
            return;
        }
        let width = self.wid - rune_count(b) as i64;
        if !self.f.minus {
            self.write_padding(buf, width);
            buf.extend_from_slice(b);
        } else {
            buf.extend_from_slice(b);
            self.write_padding(buf, width);
        }
    }

    /// Go's `padString`.
    pub fn pad_str(&self, buf: &mut Vec<u8>, s: &str) {
        self.pad(buf, s.as_bytes());
    }

    /// Like [`Fmt::pad`], with zero padding turned off.
    fn pad_no_zero(&mut self, buf: &mut Vec<u8>, b: &[u8]) {
        let old_zero = self.f.zero;
        self.f.zero = false;
        self.pad(buf, b);
        self.f.zero = old_zero;
    }

    /// Go's `fmtBoolean`.
    pub fn fmt_boolean(&self, buf: &mut Vec<u8>, v: bool) {
        self.pad_str(buf, if v { "true" } else { "false" });
    }

    /// Go's `fmtUnicode`: `U+0078`, or with `#` `U+0078 'x'`.
    pub fn fmt_unicode(&mut self, buf: &mut Vec<u8>, mut u: u64) {
        let mut prec: i64 = 4;
        if self.f.prec_present && self.prec > 4 {
            prec = self.prec;
        }
        // Built right to left, then reversed.
        let mut out: Vec<u8> = Vec::with_capacity(prec as usize + 12);
        if self.f.sharp && u <= MAX_RUNE as u64 && is_print(u as i32) {
            out.push(b'\'');
            let mut ch = Vec::with_capacity(4);
            append_rune(&mut ch, u as i32);
            out.extend(ch.iter().rev());
            out.extend_from_slice(b"' ");
        }
        while u >= 16 {
            out.push(UDIGITS[(u & 0xF) as usize]);
            prec -= 1;
            u >>= 4;
        }
        out.push(UDIGITS[u as usize]);
        prec -= 1;
        while prec > 0 {
            out.push(b'0');
            prec -= 1;
        }
        out.extend_from_slice(b"+U");
        out.reverse();
        self.pad_no_zero(buf, &out);
    }

    /// Go's `fmtInteger`: formats `u` (a two's complement `int64` when
    /// `is_signed`) in `base`, honouring precision, zero padding and the
    /// `#`, `+`, space flags; verb `O` adds the `0o` prefix.
    pub fn fmt_integer(
        &mut self,
        buf: &mut Vec<u8>,
        mut u: u64,
        base: u32,
        is_signed: bool,
        verb: char,
        digits: &[u8; 17],
    ) {
        let negative = is_signed && (u as i64) < 0;
        if negative {
            u = u.wrapping_neg();
        }
        let mut len = 68usize;
        if self.f.wid_present || self.f.prec_present {
            // Room for a sign, "0x" and the zeros of width or precision.
            len = len.max((3 + self.wid + self.prec) as usize);
        }
        let mut prec: i64 = 0;
        if self.f.prec_present {
            prec = self.prec;
            // Precision 0 and value 0 means "print nothing" but padding.
            if prec == 0 && u == 0 {
                let old_zero = self.f.zero;
                self.f.zero = false;
                self.write_padding(buf, self.wid);
                self.f.zero = old_zero;
                return;
            }
        } else if self.f.zero && !self.f.minus && self.f.wid_present {
            prec = self.wid;
            if negative || self.f.plus || self.f.space {
                prec -= 1; // leave room for the sign
            }
        }

        // Built right to left, then reversed; `len` bounds it like Go's buffer.
        let mut out: Vec<u8> = Vec::with_capacity(len.min(4096));
        let b = u64::from(base);
        while u >= b {
            out.push(digits[(u % b) as usize]);
            u /= b;
        }
        out.push(digits[u as usize]);
        while out.len() < len && prec > out.len() as i64 {
            out.push(b'0');
        }
        if self.f.sharp {
            match base {
                2 => out.extend_from_slice(b"b0"),
                8 if out.last() != Some(&b'0') => out.push(b'0'),
                16 => {
                    out.push(digits[16]);
                    out.push(b'0');
                }
                _ => {}
            }
        }
        if verb == 'O' {
            out.extend_from_slice(b"o0");
        }
        if negative {
            out.push(b'-');
        } else if self.f.plus {
            out.push(b'+');
        } else if self.f.space {
            out.push(b' ');
        }
        out.reverse();
        // Zero padding was handled above like precision, or is ignored
        // because of an explicit precision.
        self.pad_no_zero(buf, &out);
    }

    /// Go's `truncate`: the first `prec` runes of `s`, if a precision is set.
    fn truncate<'a>(&self, s: &'a [u8]) -> &'a [u8] {
        if self.f.prec_present {
            let mut n = self.prec;
            let mut i = 0;
            while i < s.len() {
                n -= 1;
                if n < 0 {
                    return &s[..i];
                }
                i += decode_rune(&s[i..]).1;
            }
        }
        s
    }

    /// Go's `fmtS` / `fmtBs`: a string, truncated to the precision.
    pub fn fmt_s(&self, buf: &mut Vec<u8>, s: &[u8]) {
        let s = self.truncate(s);
        self.pad(buf, s);
    }

    /// Go's `fmtSbx`: the hex encoding of a string's or byte slice's bytes.
    pub fn fmt_sbx(&self, buf: &mut Vec<u8>, s: &[u8], digits: &[u8; 17]) {
        let mut length = s.len() as i64;
        if self.f.prec_present && self.prec < length {
            length = self.prec;
        }
        // Width of the encoding, with the `#` and space flags.
        let mut width = 2 * length;
        if width > 0 {
            if self.f.space {
                if self.f.sharp {
                    width *= 2;
                }
                width += length - 1;
            } else if self.f.sharp {
                width += 2;
            }
        } else {
            if self.f.wid_present {
                self.write_padding(buf, self.wid);
            }
            return;
        }
        if self.f.wid_present && self.wid > width && !self.f.minus {
            self.write_padding(buf, self.wid - width);
        }
        if self.f.sharp {
            buf.extend_from_slice(&[b'0', digits[16]]);
        }
        for (i, &c) in s[..length as usize].iter().enumerate() {
            if self.f.space && i > 0 {
                buf.push(b' ');
                if self.f.sharp {
                    buf.extend_from_slice(&[b'0', digits[16]]);
                }
            }
            buf.extend_from_slice(&[digits[usize::from(c >> 4)], digits[usize::from(c & 0xF)]]);
        }
        if self.f.wid_present && self.wid > width && self.f.minus {
            self.write_padding(buf, self.wid - width);
        }
    }

    /// Go's `fmtQ`: a double-quoted string, or with `#` a raw string when
    /// possible; `+` escapes non-ASCII.
    pub fn fmt_q(&self, buf: &mut Vec<u8>, s: &[u8]) {
        let s = self.truncate(s);
        let mut out = Vec::with_capacity(s.len() + 2);
        if self.f.sharp && can_backquote(s) {
            out.push(b'`');
            out.extend_from_slice(s);
            out.push(b'`');
        } else {
            append_quoted(&mut out, s, b'"', self.f.plus, false);
        }
        self.pad(buf, &out);
    }

    /// Go's `fmtC`: an integer as a character (`U+FFFD` if invalid).
    pub fn fmt_c(&self, buf: &mut Vec<u8>, c: u64) {
        let r = if c > MAX_RUNE as u64 {
            RUNE_ERROR
        } else {
            c as i32
        };
        let mut out = Vec::with_capacity(4);
        append_rune(&mut out, r);
        self.pad(buf, &out);
    }

    /// Go's `fmtQc`: an integer as a single-quoted character literal.
    pub fn fmt_qc(&self, buf: &mut Vec<u8>, c: u64) {
        let mut r = if c > MAX_RUNE as u64 {
            RUNE_ERROR
        } else {
            c as i32
        };
        if !valid_rune(r) {
            r = RUNE_ERROR;
        }
        let mut out = Vec::with_capacity(8);
        append_quoted_rune(&mut out, r, b'\'', self.f.plus, false);
        self.pad(buf, &out);
    }

    /// Go's `fmtFloat`: `verb` is a `strconv` format byte, `prec` the
    /// verb's default precision (overridden by an explicit one).
    pub fn fmt_float(&mut self, buf: &mut Vec<u8>, v: f64, size: u32, verb: u8, mut prec: i64) {
        if self.f.prec_present {
            prec = self.prec;
        }
        // Format the number, reserving room for a leading + sign.
        let mut num: Vec<u8> = Vec::with_capacity(24);
        num.push(b'+');
        append_float(&mut num, v, verb, prec, size);
        if num.get(1).is_some_and(|&c| c == b'-' || c == b'+') {
            num.remove(0);
        }
        if self.f.space && num[0] == b'+' && !self.f.plus {
            num[0] = b' ';
        }
        // Infinities and NaN are not padded with zeros.
        if num.get(1).is_some_and(|&c| c == b'I' || c == b'N') {
            let skip = usize::from(num[1] == b'N' && !self.f.space && !self.f.plus);
            self.pad_no_zero(buf, &num[skip..]);
            return;
        }
        // `#` forces a decimal point for non-binary formats and keeps
        // trailing zeros, which may need restoring.
        if self.f.sharp && verb != b'b' {
            let mut digits: i64 = 0;
            if matches!(verb, b'v' | b'g' | b'G' | b'x') {
                digits = if prec == -1 { 6 } else { prec };
            }
            let mut tail: Vec<u8> = Vec::new();
            let mut has_decimal_point = false;
            let mut saw_nonzero_digit = false;
            let mut i = 1;
            while i < num.len() {
                match num[i] {
                    b'.' => has_decimal_point = true,
                    b'p' | b'P' => {
                        tail.extend_from_slice(&num[i..]);
                        num.truncate(i);
                    }
                    b'e' | b'E' if verb != b'x' && verb != b'X' => {
                        tail.extend_from_slice(&num[i..]);
                        num.truncate(i);
                    }
                    c => {
                        if c != b'0' {
                            saw_nonzero_digit = true;
                        }
                        if saw_nonzero_digit {
                            digits -= 1;
                        }
                    }
                }
                i += 1;
            }
            if !has_decimal_point {
                if num.len() == 2 && num[1] == b'0' {
                    digits -= 1;
                }
                num.push(b'.');
            }
            while digits > 0 {
                num.push(b'0');
                digits -= 1;
            }
            num.extend_from_slice(&tail);
        }
        if self.f.plus || num[0] != b'+' {
            // Zero padding goes after the sign.
            if self.f.zero && !self.f.minus && self.f.wid_present && self.wid > num.len() as i64 {
                buf.push(num[0]);
                self.write_padding(buf, self.wid - num.len() as i64);
                buf.extend_from_slice(&num[1..]);
                return;
            }
            self.pad(buf, &num);
            return;
        }
        // No sign to show: print the unsigned number.
        self.pad(buf, &num[1..]);
    }
}
