//! Port of `common/jinja/utils.h`: source snippets for error messages and the
//! FNV-style [`Hasher`].

/// `string_replace_all`: replaces every occurrence of `search` (no-op when empty).
pub fn string_replace_all(s: &[u8], search: &[u8], replace: &[u8]) -> Vec<u8> {
    if search.is_empty() {
        return s.to_vec();
    }
    let mut out = Vec::with_capacity(s.len());
    let mut last = 0;
    while let Some(p) = find_bytes(s, search, last) {
        out.extend_from_slice(&s[last..p]);
        out.extend_from_slice(replace);
        last = p + search.len();
    }
    out.extend_from_slice(&s[last..]);
    out
}

/// `std::string::find(needle, from)` on bytes.
pub fn find_bytes(hay: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    if from > hay.len() {
        return None;
    }
    if needle.is_empty() {
        return Some(from);
    }
    if needle.len() > hay.len() {
        return None;
    }
    (from..=hay.len() - needle.len()).find(|&i| &hay[i..i + needle.len()] == needle)
}

/// `std::string::rfind(needle)` on bytes.
pub fn rfind_bytes(hay: &[u8], needle: &[u8]) -> Option<usize> {
    if needle.len() > hay.len() {
        return None;
    }
    (0..=hay.len() - needle.len())
        .rev()
        .find(|&i| &hay[i..i + needle.len()] == needle)
}

/// `peak_source`: the source around `pos` with a caret under it.
pub fn peak_source(source: &[u8], pos: usize) -> Vec<u8> {
    const MAX_PEAK: usize = 40;
    if source.is_empty() {
        return b"(no source available)".to_vec();
    }
    let start = pos.saturating_sub(MAX_PEAK);
    let end = (pos + MAX_PEAK).min(source.len());
    let sub = if start < end {
        &source[start..end]
    } else {
        &source[0..0]
    };
    let sub = string_replace_all(sub, b"\n", "\u{21b5}".as_bytes());
    let mut out = b"...".to_vec();
    out.extend_from_slice(&sub);
    out.extend_from_slice(b"...\n");
    out.extend(std::iter::repeat_n(b' ', pos - start + 3));
    out.push(b'^');
    out
}

/// `fmt_error_with_source`: `TAG: MSG\n` followed by [`peak_source`].
pub fn fmt_error_with_source(tag: &str, msg: &[u8], source: &[u8], pos: usize) -> String {
    let mut out = tag.as_bytes().to_vec();
    out.extend_from_slice(b": ");
    out.extend_from_slice(msg);
    out.push(b'\n');
    out.extend_from_slice(&peak_source(source, pos));
    lossy(out)
}

/// Bytes to a Rust string (invalid UTF-8 becomes U+FFFD).
pub fn lossy(v: Vec<u8>) -> String {
    match String::from_utf8(v) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    }
}

/// `jinja::hasher`: a simple, non-cryptographic FNV-1a-like hasher over
/// 8-byte blocks (the 64-bit `size_t` variant).
#[derive(Clone, Debug)]
pub struct Hasher {
    buffer: [u8; 8],
    idx: usize,
    state: u64,
}

impl Default for Hasher {
    fn default() -> Self {
        Self::new()
    }
}

impl Hasher {
    const PRIME: u64 = 0x100000001b3;
    const SEED: u64 = 0xcbf29ce484222325;

    /// A fresh hasher.
    pub fn new() -> Self {
        Hasher {
            buffer: [0; 8],
            idx: 0,
            state: Self::SEED,
        }
    }

    /// Feeds bytes; `update(a ++ b) == update(a).update(b)`.
    pub fn update(&mut self, bytes: &[u8]) -> &mut Self {
        if bytes.is_empty() {
            return self;
        }
        let mut processed = 0;
        if self.idx > 0 {
            let to_fill = (8 - self.idx).min(bytes.len());
            self.buffer[self.idx..self.idx + to_fill].copy_from_slice(&bytes[..to_fill]);
            self.idx += to_fill;
            processed += to_fill;
            if self.idx == 8 {
                let b = self.buffer;
                self.update_block(&b);
                self.idx = 0;
            }
        }
        while processed + 8 <= bytes.len() {
            let mut b = [0u8; 8];
            b.copy_from_slice(&bytes[processed..processed + 8]);
            self.update_block(&b);
            processed += 8;
        }
        let remaining = bytes.len() - processed;
        if remaining > 0 {
            self.buffer[..remaining].copy_from_slice(&bytes[processed..]);
            self.idx = remaining;
        }
        self
    }

    /// Pads a partial block with zeros and returns the state.
    pub fn digest(&mut self) -> u64 {
        if self.idx > 0 {
            for i in self.idx..8 {
                self.buffer[i] = 0;
            }
            let b = self.buffer;
            self.update_block(&b);
            self.idx = 0;
        }
        self.state
    }

    fn update_block(&mut self, block: &[u8; 8]) {
        self.state ^= u64::from_le_bytes(*block);
        self.state = self.state.wrapping_mul(Self::PRIME);
    }
}

/// C's `isspace` in the "C" locale.
pub fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// `static_cast<int64_t>(double)` as x86-64 computes it (out of range and NaN give `INT64_MIN`).
pub fn f64_to_i64(f: f64) -> i64 {
    const TWO63: f64 = 9_223_372_036_854_775_808.0;
    if f.is_nan() || !(-TWO63..TWO63).contains(&f) {
        i64::MIN
    } else {
        f as i64
    }
}

/// `std::to_string(double)`: `%f`.
pub fn cpp_to_string_f64(f: f64) -> String {
    if f.is_nan() {
        return if f.is_sign_negative() {
            "-nan".into()
        } else {
            "nan".into()
        };
    }
    if f.is_infinite() {
        return if f < 0.0 { "-inf".into() } else { "inf".into() };
    }
    format!("{:.6}", f)
}

/// `std::ostream << double` with the default flags: `%g`, precision 6.
pub fn cpp_ostream_f64(f: f64) -> String {
    if f.is_nan() {
        return if f.is_sign_negative() {
            "-nan".into()
        } else {
            "nan".into()
        };
    }
    if f.is_infinite() {
        return if f < 0.0 { "-inf".into() } else { "inf".into() };
    }
    if f == 0.0 {
        return if f.is_sign_negative() {
            "-0".into()
        } else {
            "0".into()
        };
    }
    let e = format!("{:.5e}", f);
    let (mant, exp) = e.split_once('e').unwrap_or((&e, "0"));
    let x: i32 = exp.parse().unwrap_or(0);
    let strip = |s: &str| -> String {
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s.to_string()
        }
    };
    if !(-4..6).contains(&x) {
        format!(
            "{}e{}{:02}",
            strip(mant),
            if x < 0 { '-' } else { '+' },
            x.abs()
        )
    } else {
        strip(&format!("{:.*}", (5 - x) as usize, f))
    }
}
