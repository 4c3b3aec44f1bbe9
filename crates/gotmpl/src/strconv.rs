//! The parts of Go's `strconv` that templates depend on: quoting and
//! unquoting string and character literals, and parsing Go number literals.

/// Go's `strconv.ErrSyntax` / `ErrRange` distinction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NumError {
    /// `invalid syntax`
    Syntax,
    /// `value out of range`
    Range,
}

pub use crate::gofmt::{quote, quote_ascii, quote_rune, quote_rune_ascii};

fn unhex(b: u8) -> Option<u32> {
    (b as char).to_digit(16)
}

/// One decoded element of a quoted literal: a character or a raw byte
/// (from `\x` and octal escapes, which may not be UTF-8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unquoted {
    /// A Unicode character.
    Char(char),
    /// A single byte.
    Byte(u8),
}

/// `strconv.UnquoteChar`: decodes the first character or escape of `s`,
/// returning it and the rest.
pub fn unquote_char(s: &str, quote: u8) -> Result<(Unquoted, &str), NumError> {
    let b = s.as_bytes();
    let Some(&c) = b.first() else {
        return Err(NumError::Syntax);
    };
    if c == quote && (quote == b'\'' || quote == b'"') {
        return Err(NumError::Syntax);
    }
    if c >= 0x80 {
        let r = s.chars().next().ok_or(NumError::Syntax)?;
        return Ok((Unquoted::Char(r), &s[r.len_utf8()..]));
    }
    if c != b'\\' {
        return Ok((Unquoted::Char(c as char), &s[1..]));
    }
    if b.len() <= 1 {
        return Err(NumError::Syntax);
    }
    let c = b[1];
    if c >= 0x80 {
        // A backslash before a multi-byte character is no escape.
        return Err(NumError::Syntax);
    }
    let rest = &s[2..];
    let value = match c {
        b'a' => Unquoted::Char('\x07'),
        b'b' => Unquoted::Char('\x08'),
        b'f' => Unquoted::Char('\x0c'),
        b'n' => Unquoted::Char('\n'),
        b'r' => Unquoted::Char('\r'),
        b't' => Unquoted::Char('\t'),
        b'v' => Unquoted::Char('\x0b'),
        b'x' | b'u' | b'U' => {
            let n = match c {
                b'x' => 2,
                b'u' => 4,
                _ => 8,
            };
            let rb = rest.as_bytes();
            if rb.len() < n {
                return Err(NumError::Syntax);
            }
            let mut v: u32 = 0;
            for &d in &rb[..n] {
                v = (v << 4) | unhex(d).ok_or(NumError::Syntax)?;
            }
            let tail = &rest[n..];
            if c == b'x' {
                return Ok((Unquoted::Byte(v as u8), tail));
            }
            let r = char::from_u32(v).ok_or(NumError::Syntax)?;
            return Ok((Unquoted::Char(r), tail));
        }
        b'0'..=b'7' => {
            let rb = rest.as_bytes();
            if rb.len() < 2 {
                return Err(NumError::Syntax);
            }
            let mut v = (c - b'0') as u32;
            for &d in &rb[..2] {
                if !(b'0'..=b'7').contains(&d) {
                    return Err(NumError::Syntax);
                }
                v = (v << 3) | (d - b'0') as u32;
            }
            if v > 255 {
                return Err(NumError::Syntax);
            }
            return Ok((Unquoted::Byte(v as u8), &rest[2..]));
        }
        b'\\' => Unquoted::Char('\\'),
        b'\'' | b'"' => {
            if c != quote {
                return Err(NumError::Syntax);
            }
            Unquoted::Char(c as char)
        }
        _ => return Err(NumError::Syntax),
    };
    Ok((value, rest))
}

/// `strconv.Unquote` for `"..."`, `` `...` `` and `'.'` literals. Bytes that
/// are not UTF-8 (from `\x` or octal escapes) become U+FFFD.
pub fn unquote(s: &str) -> Result<String, NumError> {
    let b = s.as_bytes();
    if b.len() < 2 {
        return Err(NumError::Syntax);
    }
    let quote = b[0];
    if quote != b[b.len() - 1] {
        return Err(NumError::Syntax);
    }
    let inner = &s[1..s.len() - 1];
    match quote {
        b'`' => {
            if inner.contains('`') {
                return Err(NumError::Syntax);
            }
            Ok(inner.replace('\r', ""))
        }
        b'"' | b'\'' => {
            if inner.contains('\n') {
                return Err(NumError::Syntax);
            }
            let mut out: Vec<u8> = Vec::with_capacity(inner.len());
            let mut rest = inner;
            let mut count = 0;
            while !rest.is_empty() {
                let (v, tail) = unquote_char(rest, quote)?;
                match v {
                    Unquoted::Char(r) => {
                        let mut tmp = [0u8; 4];
                        out.extend_from_slice(r.encode_utf8(&mut tmp).as_bytes());
                    }
                    Unquoted::Byte(x) => out.push(x),
                }
                rest = tail;
                count += 1;
                if quote == b'\'' && !rest.is_empty() {
                    return Err(NumError::Syntax);
                }
            }
            if quote == b'\'' && count != 1 {
                return Err(NumError::Syntax);
            }
            Ok(String::from_utf8(out)
                .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()))
        }
        _ => Err(NumError::Syntax),
    }
}

/// Go's `underscoreOK`: underscores only between digits, or between a base
/// prefix and a digit.
pub fn underscore_ok(s: &str) -> bool {
    let mut b = s.as_bytes();
    let mut saw = b'^';
    if let Some(&c) = b.first() {
        if c == b'-' || c == b'+' {
            b = &b[1..];
        }
    }
    let mut i = 0;
    let mut hex = false;
    if b.len() >= 2 && b[0] == b'0' && matches!(b[1].to_ascii_lowercase(), b'b' | b'o' | b'x') {
        i = 2;
        saw = b'0';
        hex = b[1].eq_ignore_ascii_case(&b'x');
    }
    while i < b.len() {
        let c = b[i];
        let l = c.to_ascii_lowercase();
        if c.is_ascii_digit() || (hex && (b'a'..=b'f').contains(&l)) {
            saw = b'0';
        } else if c == b'_' {
            if saw != b'0' {
                return false;
            }
            saw = b'_';
        } else {
            if saw == b'_' {
                return false;
            }
            saw = b'!';
        }
        i += 1;
    }
    saw != b'_'
}

/// `strconv.ParseUint(s, 0, 64)`.
pub fn parse_uint(s: &str) -> Result<u64, NumError> {
    let b = s.as_bytes();
    if b.is_empty() {
        return Err(NumError::Syntax);
    }
    let mut base = 10u64;
    let mut digits = b;
    if b[0] == b'0' {
        if b.len() >= 3 && b[1].eq_ignore_ascii_case(&b'b') {
            base = 2;
            digits = &b[2..];
        } else if b.len() >= 3 && b[1].eq_ignore_ascii_case(&b'o') {
            base = 8;
            digits = &b[2..];
        } else if b.len() >= 3 && b[1].eq_ignore_ascii_case(&b'x') {
            base = 16;
            digits = &b[2..];
        } else {
            base = 8;
            digits = &b[1..];
        }
    }
    let mut n: u64 = 0;
    let mut underscores = false;
    let mut range_err = false;
    for &c in digits {
        if c == b'_' {
            underscores = true;
            continue;
        }
        let d = match (c as char).to_digit(36) {
            Some(d) if (d as u64) < base => d as u64,
            _ => return Err(NumError::Syntax),
        };
        if range_err {
            continue;
        }
        match n.checked_mul(base).and_then(|m| m.checked_add(d)) {
            Some(v) => n = v,
            None => range_err = true,
        }
    }
    if underscores && !underscore_ok(s) {
        return Err(NumError::Syntax);
    }
    if range_err {
        return Err(NumError::Range);
    }
    Ok(n)
}

/// `strconv.ParseInt(s, 0, 64)`.
pub fn parse_int(s: &str) -> Result<i64, NumError> {
    if s.is_empty() {
        return Err(NumError::Syntax);
    }
    let (neg, body) = match s.as_bytes()[0] {
        b'+' => (false, &s[1..]),
        b'-' => (true, &s[1..]),
        _ => (false, s),
    };
    let u = parse_uint(body)?;
    if neg {
        if u > 1u64 << 63 {
            return Err(NumError::Range);
        }
        Ok((u as i64).wrapping_neg())
    } else {
        if u >= 1u64 << 63 {
            return Err(NumError::Range);
        }
        Ok(u as i64)
    }
}

/// `strconv.ParseFloat(s, 64)` for the forms Go number literals take:
/// decimal and hexadecimal (`0x1p-2`), with underscores.
pub fn parse_float(s: &str) -> Result<f64, NumError> {
    let b = s.as_bytes();
    if b.is_empty() {
        return Err(NumError::Syntax);
    }
    let (neg, body) = match b[0] {
        b'+' => (false, &s[1..]),
        b'-' => (true, &s[1..]),
        _ => (false, s),
    };
    let lower = body.to_ascii_lowercase();
    let special = match lower.as_str() {
        "inf" | "infinity" => Some(f64::INFINITY),
        "nan" => Some(f64::NAN),
        _ => None,
    };
    if let Some(v) = special {
        return Ok(if neg { -v } else { v });
    }
    if s.contains('_') && !underscore_ok(s) {
        return Err(NumError::Syntax);
    }
    let clean: String = body.chars().filter(|&c| c != '_').collect();
    let v = if clean.len() >= 2
        && clean.as_bytes()[0] == b'0'
        && matches!(clean.as_bytes()[1], b'x' | b'X')
    {
        parse_hex_float(&clean[2..])?
    } else {
        parse_decimal_float(&clean)?
    };
    if v.is_infinite() {
        return Err(NumError::Range);
    }
    Ok(if neg { -v } else { v })
}

fn parse_decimal_float(s: &str) -> Result<f64, NumError> {
    let b = s.as_bytes();
    let mut i = 0;
    let mut mantissa_digits = 0;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
        mantissa_digits += 1;
    }
    if i < b.len() && b[i] == b'.' {
        i += 1;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
            mantissa_digits += 1;
        }
    }
    if mantissa_digits == 0 {
        return Err(NumError::Syntax);
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == start {
            return Err(NumError::Syntax);
        }
    }
    if i != b.len() {
        return Err(NumError::Syntax);
    }
    s.parse::<f64>().map_err(|_| NumError::Syntax)
}

fn parse_hex_float(s: &str) -> Result<f64, NumError> {
    // mantissa: hex digits with an optional point; exponent 'p' required.
    let b = s.as_bytes();
    let mut i = 0;
    let mut mant: u64 = 0;
    let mut sticky = false;
    let mut exp: i64 = 0;
    let mut ndigits = 0;
    let mut seen_point = false;
    while i < b.len() {
        let c = b[i];
        if c == b'.' {
            if seen_point {
                return Err(NumError::Syntax);
            }
            seen_point = true;
            i += 1;
            continue;
        }
        let Some(d) = unhex(c) else { break };
        ndigits += 1;
        if mant >> 60 == 0 {
            mant = (mant << 4) | d as u64;
            if seen_point {
                exp -= 4;
            }
        } else {
            sticky |= d != 0;
            if !seen_point {
                exp += 4;
            }
        }
        i += 1;
    }
    if ndigits == 0 || i >= b.len() || (b[i] != b'p' && b[i] != b'P') {
        return Err(NumError::Syntax);
    }
    i += 1;
    let mut eneg = false;
    if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
        eneg = b[i] == b'-';
        i += 1;
    }
    let start = i;
    let mut e: i64 = 0;
    while i < b.len() && b[i].is_ascii_digit() {
        e = (e * 10 + (b[i] - b'0') as i64).min(100_000);
        i += 1;
    }
    if i == start || i != b.len() {
        return Err(NumError::Syntax);
    }
    exp += if eneg { -e } else { e };
    Ok(assemble_float(mant, exp, sticky))
}

/// mant * 2^exp, correctly rounded (ties to even); `sticky` means there
/// are nonzero bits below `mant`.
fn assemble_float(mant: u64, exp: i64, sticky: bool) -> f64 {
    if mant == 0 {
        return 0.0;
    }
    let lz = mant.leading_zeros() as i64;
    let m = mant << lz; // value = m * 2^(exp - lz)
    let low = exp - lz; // exponent of m's lowest bit
    let top = low + 63; // exponent of m's highest bit
    let mut lsb = (top - 52).max(-1074); // exponent of the result's lowest bit
    let shift = lsb - low;
    let (mut q, rem_gt_half, rem_eq_half) = if shift <= 0 {
        (m << (-shift).min(63), false, false)
    } else if shift > 64 {
        (0, false, false)
    } else if shift == 64 {
        (
            0,
            m > 1 << 63 || (m == 1 << 63 && sticky),
            m == 1 << 63 && !sticky,
        )
    } else {
        let rem = m & ((1u64 << shift) - 1);
        let half = 1u64 << (shift - 1);
        (
            m >> shift,
            rem > half || (rem == half && sticky),
            rem == half && !sticky,
        )
    };
    if rem_gt_half || (rem_eq_half && q & 1 == 1) {
        q += 1;
        if q == 1 << 53 {
            q >>= 1;
            lsb += 1;
        }
    }
    if q < 1 << 52 {
        return f64::from_bits(q); // subnormal (lsb == -1074)
    }
    let biased = lsb + 52 + 1023;
    if biased >= 2047 {
        return f64::INFINITY;
    }
    f64::from_bits(((biased as u64) << 52) | (q & ((1u64 << 52) - 1)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting() {
        assert_eq!(
            quote("a\"b\\\n\x01é\u{2028}"),
            "\"a\\\"b\\\\\\n\\x01é\\u2028\""
        );
        assert_eq!(quote_rune('\'' as i32), "'\\''");
    }

    #[test]
    fn unquoting() {
        assert_eq!(unquote(r#""a\tb\u00e9""#).unwrap(), "a\tbé");
        assert_eq!(unquote("`a\r\nb`").unwrap(), "a\nb");
        assert_eq!(unquote(r#""\q""#), Err(NumError::Syntax));
        assert_eq!(unquote("'ab'"), Err(NumError::Syntax));
        // Found by fuzzing: a backslash before a multi-byte character.
        assert_eq!(unquote("\"\\\u{7a3}\""), Err(NumError::Syntax));
    }

    #[test]
    fn integers() {
        assert_eq!(parse_int("0x1F"), Ok(31));
        assert_eq!(parse_int("0o17"), Ok(15));
        assert_eq!(parse_int("017"), Ok(15));
        assert_eq!(parse_int("0b101"), Ok(5));
        assert_eq!(parse_int("1_000"), Ok(1000));
        assert_eq!(parse_int("1__0"), Err(NumError::Syntax));
        assert_eq!(parse_int("-9223372036854775808"), Ok(i64::MIN));
        assert_eq!(parse_uint("18446744073709551616"), Err(NumError::Range));
    }

    #[test]
    fn floats() {
        assert_eq!(parse_float("0x1p-2"), Ok(0.25));
        assert_eq!(parse_float("0x1.8p1"), Ok(3.0));
        assert_eq!(parse_float("1_0.5e1"), Ok(105.0));
        assert_eq!(parse_float("1e400"), Err(NumError::Range));
        assert_eq!(parse_float("0x1p-1074"), Ok(f64::from_bits(1)));
        assert_eq!(parse_float("0x1.fffffffffffff8p1023"), Err(NumError::Range));
        assert_eq!(parse_float("0x10"), Err(NumError::Syntax));
        assert_eq!(parse_float(".5"), Ok(0.5));
    }
}
