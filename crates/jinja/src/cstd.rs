//! The C and C++ library calls `value.cpp` relies on, with their exact
//! semantics: `std::stoi`, `std::stod` (`strtod`, hexadecimal form included)
//! and llama.cpp's `common_parse_utf8_codepoint`.

/// `std::stoi(str, nullptr, base)`: `None` where it throws.
pub fn cpp_stoi(s: &[u8], base: i64) -> Option<i64> {
    let mut i = 0;
    while i < s.len() && crate::utils::is_space(s[i]) {
        i += 1;
    }
    let mut neg = false;
    if i < s.len() && (s[i] == b'+' || s[i] == b'-') {
        neg = s[i] == b'-';
        i += 1;
    }
    let digit = |c: u8| -> Option<i64> {
        let d = match c {
            b'0'..=b'9' => (c - b'0') as i64,
            b'a'..=b'z' => (c - b'a') as i64 + 10,
            b'A'..=b'Z' => (c - b'A') as i64 + 10,
            _ => return None,
        };
        Some(d)
    };
    let mut base = base;
    let has_hex_prefix = i + 1 < s.len()
        && s[i] == b'0'
        && (s[i + 1] == b'x' || s[i + 1] == b'X')
        && s.get(i + 2).and_then(|&c| digit(c)).is_some_and(|d| d < 16);
    if base == 0 {
        if has_hex_prefix {
            base = 16;
            i += 2;
        } else if i < s.len() && s[i] == b'0' {
            base = 8;
        } else {
            base = 10;
        }
    } else if base == 16 && has_hex_prefix {
        i += 2;
    }
    let mut v: i128 = 0;
    let mut any = false;
    let mut overflow = false;
    while i < s.len() {
        let Some(d) = digit(s[i]) else { break };
        if d >= base {
            break;
        }
        any = true;
        v = v * base as i128 + d as i128;
        if v > (i64::MAX as i128) + 1 {
            overflow = true;
            v = (i64::MAX as i128) + 1;
        }
        i += 1;
    }
    if !any {
        return None;
    }
    let v = if neg { -v } else { v };
    if overflow || v > i64::MAX as i128 || v < i64::MIN as i128 {
        return None;
    }
    if v > i32::MAX as i128 || v < i32::MIN as i128 {
        return None;
    }
    Some(v as i64)
}

/// `std::stod(str)`: `None` where it throws (no number, overflow or underflow).
pub fn cpp_stod(s: &[u8]) -> Option<f64> {
    let mut i = 0;
    while i < s.len() && crate::utils::is_space(s[i]) {
        i += 1;
    }
    let start = i;
    if i < s.len() && (s[i] == b'+' || s[i] == b'-') {
        i += 1;
    }
    let rest = &s[i..];
    let lower: Vec<u8> = rest
        .iter()
        .take(8)
        .map(|c| c.to_ascii_lowercase())
        .collect();
    let neg = start < s.len() && s[start] == b'-';
    if lower.starts_with(b"inf") {
        return Some(if neg {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        });
    }
    if lower.starts_with(b"nan") {
        return Some(if neg { -f64::NAN } else { f64::NAN });
    }
    if rest.len() > 2
        && rest[0] == b'0'
        && (rest[1] | 0x20) == b'x'
        && (rest[2].is_ascii_hexdigit()
            || (rest[2] == b'.' && rest.get(3).is_some_and(|c| c.is_ascii_hexdigit())))
    {
        return hex_float(&rest[2..], neg);
    }
    let mut digits = false;
    let mut nonzero = false;
    while i < s.len() && s[i].is_ascii_digit() {
        digits = true;
        nonzero |= s[i] != b'0';
        i += 1;
    }
    if i < s.len() && s[i] == b'.' {
        i += 1;
        while i < s.len() && s[i].is_ascii_digit() {
            digits = true;
            nonzero |= s[i] != b'0';
            i += 1;
        }
    }
    if !digits {
        return None;
    }
    if i < s.len() && (s[i] == b'e' || s[i] == b'E') {
        let mut j = i + 1;
        if j < s.len() && (s[j] == b'+' || s[j] == b'-') {
            j += 1;
        }
        if j < s.len() && s[j].is_ascii_digit() {
            while j < s.len() && s[j].is_ascii_digit() {
                j += 1;
            }
            i = j;
        }
    }
    let text = std::str::from_utf8(&s[start..i]).ok()?;
    let v: f64 = text.parse().ok()?;
    if v.is_infinite() || (nonzero && (v == 0.0 || v.abs() < f64::MIN_POSITIVE)) {
        return None;
    }
    Some(v)
}

/// The hexadecimal form of `strtod` (`0x1.8p3`), after the `0x`.
fn hex_float(s: &[u8], neg: bool) -> Option<f64> {
    let mut i = 0;
    let mut mant: f64 = 0.0;
    let mut exp: i64 = 0;
    let mut nonzero = false;
    while i < s.len() && s[i].is_ascii_hexdigit() {
        let d = (s[i] as char).to_digit(16)? as f64;
        nonzero |= d != 0.0;
        mant = mant * 16.0 + d;
        i += 1;
    }
    if i < s.len() && s[i] == b'.' {
        i += 1;
        while i < s.len() && s[i].is_ascii_hexdigit() {
            let d = (s[i] as char).to_digit(16)? as f64;
            nonzero |= d != 0.0;
            mant = mant * 16.0 + d;
            exp -= 4;
            i += 1;
        }
    }
    if i < s.len() && (s[i] | 0x20) == b'p' {
        let mut j = i + 1;
        let mut eneg = false;
        if j < s.len() && (s[j] == b'+' || s[j] == b'-') {
            eneg = s[j] == b'-';
            j += 1;
        }
        if j < s.len() && s[j].is_ascii_digit() {
            let mut e: i64 = 0;
            while j < s.len() && s[j].is_ascii_digit() {
                e = (e * 10 + (s[j] - b'0') as i64).min(100_000);
                j += 1;
            }
            exp += if eneg { -e } else { e };
        }
    }
    let v = mant * 2f64.powi(exp.clamp(-100_000, 100_000) as i32);
    if v.is_infinite() || (nonzero && (v == 0.0 || v.abs() < f64::MIN_POSITIVE)) {
        return None;
    }
    Some(if neg { -v } else { v })
}

/// `common_parse_utf8_codepoint` (success only).
pub fn parse_utf8_codepoint(s: &[u8], off: usize) -> Option<(u32, usize)> {
    let b0 = *s.get(off)? as u32;
    if b0 & 0x80 == 0 {
        return Some((b0, 1));
    }
    if b0 & 0x40 == 0 {
        return None;
    }
    let n = if b0 & 0x20 == 0 {
        2
    } else if b0 & 0x10 == 0 {
        3
    } else if b0 & 0x08 == 0 {
        4
    } else {
        return None;
    };
    let mut cp = b0 & (0x7f >> n);
    for i in 1..n {
        let b = *s.get(off + i)? as u32;
        if b & 0xc0 != 0x80 {
            return None;
        }
        cp = (cp << 6) | (b & 0x3f);
    }
    Some((cp, n))
}
