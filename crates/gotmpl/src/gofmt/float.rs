//! `strconv.FormatFloat`, byte for byte.
//!
//! Go produces decimal digits in two ways: the shortest digit string that
//! parses back to the same float (precision `-1`), and a correctly rounded
//! (round half to even, on the exact binary value) fixed number of digits.
//! Rust's formatting machinery computes exactly those digit strings
//! (`{:e}` is shortest round-trip, `{:.N$e}` and `{:.N$}` are correctly
//! rounded), so this module takes the digits from it and lays them out the
//! way Go's `fmtEFG`, `fmtB` and `fmtX` do.

use std::fmt::Write as _;

/// `strconv.FormatFloat(f, fmt, prec, bits)`.
///
/// `fmt` is one of `b'e'`, `b'E'`, `b'f'`, `b'g'`, `b'G'`, `b'b'`, `b'x'`,
/// `b'X'`; `prec` is the precision, `-1` meaning the fewest digits that
/// round-trip; `bits` is 32 (the value is first rounded to `float32`) or 64.
/// An unknown `fmt` gives `%` followed by it, as in Go.
pub fn format_float(f: f64, fmt: u8, prec: i32, bits: u32) -> String {
    let mut out = Vec::with_capacity(24);
    append_float(&mut out, f, fmt, i64::from(prec), bits);
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Decimal digits `0.d1d2d3... × 10^dp`, without trailing zeros
/// (Go's `decimal` / `setDigits` result: `d[:nd]`, `dp`).
struct Digits {
    d: Vec<u8>,
    dp: i64,
}

impl Digits {
    fn zero() -> Digits {
        Digits {
            d: Vec::new(),
            dp: 0,
        }
    }

    /// Parses Rust's `{:e}` output of a positive finite number: `d[.ddd]e[-]x`.
    fn from_exp_form(s: &str) -> Digits {
        let (mant, exp) = s.split_once('e').unwrap_or((s, "0"));
        let exp: i64 = exp.parse().unwrap_or(0);
        let mut d: Vec<u8> = mant.bytes().filter(u8::is_ascii_digit).collect();
        // Leading zeros only occur for zero itself.
        let lead = d.iter().take_while(|&&c| c == b'0').count();
        if lead == d.len() {
            return Digits::zero();
        }
        d.drain(..lead);
        let mut digits = Digits {
            d,
            dp: exp + 1 - lead as i64,
        };
        digits.trim();
        digits
    }

    /// Parses Rust's `{:.N$}` output of a non-negative finite number:
    /// `ddd[.ddd]`.
    fn from_fixed_form(s: &str) -> Digits {
        let (int, frac) = s.split_once('.').unwrap_or((s, ""));
        let mut d: Vec<u8> = Vec::with_capacity(int.len() + frac.len());
        d.extend_from_slice(int.as_bytes());
        d.extend_from_slice(frac.as_bytes());
        let lead = d.iter().take_while(|&&c| c == b'0').count();
        if lead == d.len() {
            return Digits::zero();
        }
        d.drain(..lead);
        let mut digits = Digits {
            d,
            dp: int.len() as i64 - lead as i64,
        };
        digits.trim();
        digits
    }

    fn trim(&mut self) {
        while self.d.last() == Some(&b'0') {
            self.d.pop();
        }
    }

    fn nd(&self) -> i64 {
        self.d.len() as i64
    }
}

/// Shortest round-trip digits of a positive finite value.
///
/// When two shortest candidates are equally close to the exact value (it
/// ends in a 5 just past them), Rust picks the upper one but Go's
/// `shortFloat` takes the correctly rounded one, rounding half to even:
/// so the correctly rounded digits of the same length win when they
/// round-trip too.
fn shortest(abs: f64, bits: u32) -> Digits {
    let s = if bits == 32 {
        format!("{:e}", abs as f32)
    } else {
        format!("{abs:e}")
    };
    let digits = Digits::from_exp_form(&s);
    let rounded = fixed_significant(abs, digits.nd());
    if rounded.d == digits.d && rounded.dp == digits.dp {
        return digits;
    }
    let text = format!(
        "{}e{}",
        std::str::from_utf8(&rounded.d).unwrap_or("0"),
        rounded.dp - rounded.nd()
    );
    let round_trips = if bits == 32 {
        text.parse::<f32>().is_ok_and(|f| f == abs as f32)
    } else {
        text.parse::<f64>().is_ok_and(|f| f == abs)
    };
    if round_trips {
        rounded
    } else {
        digits
    }
}

/// `n >= 1` significant digits, correctly rounded.
fn fixed_significant(abs: f64, n: i64) -> Digits {
    let mut s = String::new();
    let _ = write!(s, "{:.*e}", usize::try_from(n - 1).unwrap_or(0), abs);
    Digits::from_exp_form(&s)
}

/// Digits rounded to `prec` places after the decimal point.
fn fixed_fraction(abs: f64, prec: i64) -> Digits {
    let mut s = String::new();
    let _ = write!(s, "{:.*}", usize::try_from(prec).unwrap_or(0), abs);
    Digits::from_fixed_form(&s)
}

/// Go's `ftoa32`/`ftoa64`, appending to `dst`.
pub(super) fn append_float(dst: &mut Vec<u8>, val: f64, fmt: u8, mut prec: i64, bits: u32) {
    let (b, exp_bits, mant_bits, bias): (u64, u32, u32, i64) = if bits == 32 {
        (u64::from((val as f32).to_bits()), 8, 23, -127)
    } else {
        (val.to_bits(), 11, 52, -1023)
    };
    let neg = b >> (exp_bits + mant_bits) != 0;
    let mut exp = ((b >> mant_bits) & ((1 << exp_bits) - 1)) as i64;
    let mut mant = b & ((1u64 << mant_bits) - 1);
    if exp == (1 << exp_bits) - 1 {
        dst.extend_from_slice(if mant != 0 {
            b"NaN"
        } else if neg {
            b"-Inf"
        } else {
            b"+Inf"
        });
        return;
    }
    if exp == 0 {
        exp += 1;
    } else {
        mant |= 1 << mant_bits;
    }
    exp += bias;

    match fmt {
        b'b' => return fmt_b(dst, neg, mant, exp - i64::from(mant_bits)),
        b'x' | b'X' => return fmt_x(dst, prec, fmt, neg, mant, exp, mant_bits),
        b'e' | b'E' | b'f' | b'g' | b'G' => {}
        _ => {
            dst.push(b'%');
            dst.push(fmt);
            return;
        }
    }

    if mant == 0 {
        return fmt_efg(dst, neg, &Digits::zero(), prec, fmt, prec < 0);
    }

    let abs = if bits == 32 {
        f64::from((val as f32).abs())
    } else {
        val.abs()
    };
    if prec < 0 {
        let digs = shortest(abs, bits);
        prec = match fmt {
            b'e' | b'E' => (digs.nd() - 1).max(0),
            b'f' => (digs.nd() - digs.dp).max(0),
            _ => digs.nd(),
        };
        return fmt_efg(dst, neg, &digs, prec, fmt, true);
    }
    let digs = match fmt {
        b'e' | b'E' => fixed_significant(abs, prec + 1),
        b'f' => fixed_fraction(abs, prec),
        _ => {
            if prec == 0 {
                prec = 1;
            }
            fixed_significant(abs, prec)
        }
    };
    fmt_efg(dst, neg, &digs, prec, fmt, false)
}

/// Go's `fmtEFG`: lays out digits in `%e`, `%f` or `%g` form.
fn fmt_efg(
    dst: &mut Vec<u8>,
    neg: bool,
    digs: &Digits,
    mut prec: i64,
    mut fmt: u8,
    shortest: bool,
) {
    let s = &digs.d;
    let nd = digs.nd();
    let dp = digs.dp;
    if fmt == b'g' || fmt == b'G' {
        let mut eprec = prec;
        if eprec > nd && nd >= dp {
            eprec = nd;
        }
        if shortest {
            eprec = 6;
        }
        let exp = dp - 1;
        if exp < -4 || exp >= eprec {
            if prec > nd {
                prec = nd;
            }
            prec -= 1;
            fmt = fmt + b'e' - b'g';
        } else {
            if prec > dp {
                prec = nd;
            }
            prec = (prec - dp).max(0);
            fmt = b'f';
        }
    }

    if neg {
        dst.push(b'-');
    }
    if fmt == b'f' {
        if dp > 0 {
            let m = nd.min(dp) as usize;
            dst.extend_from_slice(&s[..m]);
            dst.resize(dst.len() + (dp as usize - m), b'0');
        } else {
            dst.push(b'0');
        }
        if prec > 0 {
            dst.push(b'.');
            let lz = prec.min((-dp).max(0));
            let off = dp + lz;
            let m = (prec - lz).min((nd - off).max(0));
            let tz = (prec - lz - m).max(0);
            dst.resize(dst.len() + lz as usize, b'0');
            if m > 0 {
                dst.extend_from_slice(&s[off as usize..(off + m) as usize]);
            }
            dst.resize(dst.len() + tz as usize, b'0');
        }
        return;
    }

    // %e: -d.ddddde±dd
    dst.push(if nd != 0 { s[0] } else { b'0' });
    if prec > 0 {
        dst.push(b'.');
        let m = nd.min(prec + 1);
        let mut i = 1;
        if i < m {
            dst.extend_from_slice(&s[1..m as usize]);
            i = m;
        }
        dst.resize(dst.len() + (prec + 1 - i) as usize, b'0');
    }
    dst.push(fmt);
    let mut exp = if nd == 0 { 0 } else { dp - 1 };
    if exp < 0 {
        dst.push(b'-');
        exp = -exp;
    } else {
        dst.push(b'+');
    }
    if exp < 10 {
        dst.push(b'0');
    }
    let _ = write_int(dst, exp);
}

fn write_int(dst: &mut Vec<u8>, n: i64) -> usize {
    let s = n.to_string();
    dst.extend_from_slice(s.as_bytes());
    s.len()
}

/// Go's `fmtB`: `-ddddp±ddd`.
fn fmt_b(dst: &mut Vec<u8>, neg: bool, mant: u64, exp: i64) {
    if neg {
        dst.push(b'-');
    }
    dst.extend_from_slice(mant.to_string().as_bytes());
    dst.push(b'p');
    if exp >= 0 {
        dst.push(b'+');
    }
    write_int(dst, exp);
}

/// Go's `fmtX`: `-0x1.yyyyp±dd`.
fn fmt_x(
    dst: &mut Vec<u8>,
    prec: i64,
    fmt: u8,
    neg: bool,
    mut mant: u64,
    mut exp: i64,
    mant_bits: u32,
) {
    if mant == 0 {
        exp = 0;
    }
    // Shift digits so the leading 1 (if any) is at bit 1<<60.
    mant <<= 60 - mant_bits;
    while mant != 0 && mant & (1 << 60) == 0 {
        mant <<= 1;
        exp -= 1;
    }
    // Round if requested.
    if (0..15).contains(&prec) {
        let shift = (prec * 4) as u32;
        let extra = mant.wrapping_shl(shift) & ((1 << 60) - 1);
        mant >>= 60 - shift;
        if extra | (mant & 1) > 1 << 59 {
            mant += 1;
        }
        mant = mant.wrapping_shl(60 - shift);
        if mant & (1 << 61) != 0 {
            // Wrapped around.
            mant >>= 1;
            exp += 1;
        }
    }
    let hex: &[u8; 16] = if fmt == b'X' {
        b"0123456789ABCDEF"
    } else {
        b"0123456789abcdef"
    };
    if neg {
        dst.push(b'-');
    }
    dst.extend_from_slice(&[b'0', fmt, b'0' + ((mant >> 60) & 1) as u8]);
    mant <<= 4; // remove leading 0 or 1
    if prec < 0 && mant != 0 {
        dst.push(b'.');
        while mant != 0 {
            dst.push(hex[((mant >> 60) & 15) as usize]);
            mant <<= 4;
        }
    } else if prec > 0 {
        dst.push(b'.');
        for _ in 0..prec {
            dst.push(hex[((mant >> 60) & 15) as usize]);
            mant <<= 4;
        }
    }
    dst.push(if fmt == b'X' { b'P' } else { b'p' });
    if exp < 0 {
        dst.push(b'-');
        exp = -exp;
    } else {
        dst.push(b'+');
    }
    if exp < 10 {
        dst.push(b'0');
    }
    write_int(dst, exp);
}

#[cfg(test)]
mod tests {
    use super::format_float as ff;

    #[test]
    fn shortest() {
        assert_eq!(ff(0.1, b'g', -1, 64), "0.1");
        assert_eq!(ff(1e21, b'g', -1, 64), "1e+21");
        assert_eq!(ff(1e20, b'f', -1, 64), "100000000000000000000");
        assert_eq!(ff(123456789.0, b'g', -1, 64), "1.23456789e+08");
        assert_eq!(ff(100000.0, b'g', -1, 64), "100000");
        assert_eq!(ff(1000000.0, b'g', -1, 64), "1e+06");
        assert_eq!(ff(1e-5, b'g', -1, 64), "1e-05");
        assert_eq!(ff(0.0001, b'g', -1, 64), "0.0001");
        assert_eq!(ff(-0.0, b'g', -1, 64), "-0");
        assert_eq!(ff(5e-324, b'e', -1, 64), "5e-324");
        assert_eq!(ff(f64::MAX, b'e', -1, 64), "1.7976931348623157e+308");
        assert_eq!(ff(0.1, b'e', -1, 32), "1e-01");
        assert_eq!(ff(f64::from(0.1f32), b'g', -1, 64), "0.10000000149011612");
        assert_eq!(ff(f64::from(1.2345678f32), b'g', -1, 32), "1.2345678");
        assert_eq!(ff(1.0 / 3.0, b'f', -1, 64), "0.3333333333333333");
    }

    #[test]
    fn fixed() {
        assert_eq!(ff(0.5, b'f', 0, 64), "0");
        assert_eq!(ff(1.5, b'f', 0, 64), "2");
        assert_eq!(ff(2.5, b'f', 0, 64), "2");
        assert_eq!(ff(0.125, b'f', 2, 64), "0.12");
        assert_eq!(ff(9.9995, b'e', 3, 64), "9.999e+00");
        assert_eq!(ff(1234.5678e3, b'e', 6, 64), "1.234568e+06");
        assert_eq!(ff(-1e-9, b'f', 6, 64), "-0.000000");
        assert_eq!(ff(1.0, b'g', 3, 64), "1");
        assert_eq!(ff(100000.0, b'g', 4, 64), "1e+05");
        assert_eq!(ff(0.012, b'g', 4, 64), "0.012");
        assert_eq!(ff(1e-323, b'g', 6, 64), "9.88131e-324");
        assert_eq!(ff(12345678901.234568, b'f', 6, 64), "12345678901.234568");
        assert_eq!(ff(1e100, b'e', 0, 64), "1e+100");
        assert_eq!(ff(99.99, b'g', 2, 64), "1e+02");
        assert_eq!(ff(0.0, b'e', 3, 64), "0.000e+00");
        assert_eq!(ff(0.0, b'g', 3, 64), "0");
    }

    #[test]
    fn binary_and_hex() {
        assert_eq!(ff(1.0, b'b', -1, 64), "4503599627370496p-52");
        assert_eq!(ff(1.0, b'b', -1, 32), "8388608p-23");
        assert_eq!(ff(1.0, b'x', -1, 64), "0x1p+00");
        assert_eq!(ff(123.0, b'x', 4, 64), "0x1.ec00p+06");
        assert_eq!(ff(-1.0, b'X', 3, 64), "-0X1.000P+00");
        assert_eq!(ff(0.0, b'x', -1, 64), "0x0p+00");
        assert_eq!(ff(5e-324, b'x', -1, 64), "0x1p-1074");
        assert_eq!(ff(1.0, b'x', 0, 64), "0x1p+00");
        assert_eq!(ff(1.9999, b'x', 1, 64), "0x1.0p+01");
    }

    #[test]
    fn specials() {
        assert_eq!(ff(f64::NAN, b'g', -1, 64), "NaN");
        assert_eq!(ff(f64::INFINITY, b'f', 2, 64), "+Inf");
        assert_eq!(ff(f64::NEG_INFINITY, b'e', -1, 32), "-Inf");
        assert_eq!(ff(1.0, b'z', -1, 64), "%z");
        assert_eq!(ff(1e300, b'g', -1, 32), "+Inf");
    }
}
