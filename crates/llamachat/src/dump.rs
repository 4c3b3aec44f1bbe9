//! nlohmann::json's `dump()` as llama.cpp's `common_json` uses it: compact,
//! keys in insertion order, UTF-8 kept, control characters as `\u00xx`,
//! doubles in nlohmann's shortest form (`1.0`, `1e+100`, `1.5e-07`).
//!
//! Error texts of llama-server quote request parts with `dump()`, and tool
//! parameters and object arguments round-trip through it, so the prompt
//! depends on it.

use serde_json::Value as Json;

/// `j.dump()`.
pub fn dump(j: &Json) -> String {
    let mut out = String::new();
    write(&mut out, j, None, 0);
    out
}

/// `j.dump(indent)`.
pub fn dump_indent(j: &Json, indent: usize) -> String {
    let mut out = String::new();
    write(&mut out, j, Some(indent), 0);
    out
}

fn write(out: &mut String, j: &Json, indent: Option<usize>, level: usize) {
    match j {
        Json::Null => out.push_str("null"),
        Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Json::Number(n) => {
            if let Some(i) = n.as_i64() {
                out.push_str(&i.to_string());
            } else if let Some(u) = n.as_u64() {
                out.push_str(&u.to_string());
            } else {
                out.push_str(&double(n.as_f64().unwrap_or(0.0)));
            }
        }
        Json::String(s) => string(out, s),
        Json::Array(a) => {
            if a.is_empty() {
                out.push_str("[]");
                return;
            }
            out.push('[');
            for (i, v) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(out, indent, level + 1);
                write(out, v, indent, level + 1);
            }
            newline(out, indent, level);
            out.push(']');
        }
        Json::Object(o) => {
            if o.is_empty() {
                out.push_str("{}");
                return;
            }
            out.push('{');
            for (i, (k, v)) in o.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(out, indent, level + 1);
                string(out, k);
                out.push(':');
                if indent.is_some() {
                    out.push(' ');
                }
                write(out, v, indent, level + 1);
            }
            newline(out, indent, level);
            out.push('}');
        }
    }
}

fn newline(out: &mut String, indent: Option<usize>, level: usize) {
    if let Some(n) = indent {
        out.push('\n');
        out.extend(std::iter::repeat_n(' ', n * level));
    }
}

fn string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// nlohmann's `to_chars`: the shortest round-trip digits, written as
/// `ddd.0`, `d.dd`, `0.000dd` or `d.dde+XX` (exponent with a sign and at
/// least two digits) for decimal exponents outside -4..15.
pub fn double(f: f64) -> String {
    if !f.is_finite() {
        return "null".into();
    }
    if f == 0.0 {
        return if f.is_sign_negative() { "-0.0" } else { "0.0" }.into();
    }
    let sign = if f < 0.0 { "-" } else { "" };
    // Rust's `{:e}` gives the shortest round-trip digits.
    let sci = format!("{:e}", f.abs());
    let (mant, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: String = mant.chars().filter(|c| c.is_ascii_digit()).collect();
    let len = digits.len() as i32;
    // value = 0.d1d2...dn * 10^n with n = exp + 1
    let n = exp + 1;
    let body = if len <= n && n <= 15 {
        // digits, zeros, ".0"
        let mut s = digits.clone();
        s.extend(std::iter::repeat_n('0', (n - len) as usize));
        s.push_str(".0");
        s
    } else if 0 < n && n <= 15 {
        let (a, b) = digits.split_at(n as usize);
        format!("{a}.{b}")
    } else if -4 < n && n <= 0 {
        let mut s = String::from("0.");
        s.extend(std::iter::repeat_n('0', (-n) as usize));
        s.push_str(&digits);
        s
    } else {
        let e = n - 1;
        let mut s = String::new();
        s.push_str(&digits[..1]);
        if len > 1 {
            s.push('.');
            s.push_str(&digits[1..]);
        }
        s.push('e');
        s.push(if e < 0 { '-' } else { '+' });
        let a = e.unsigned_abs();
        if a < 10 {
            s.push('0');
        }
        s.push_str(&a.to_string());
        s
    };
    format!("{sign}{body}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doubles_as_nlohmann_writes_them() {
        for (f, s) in [
            (1.0, "1.0"),
            (1.5, "1.5"),
            (100.0, "100.0"),
            (0.001, "0.001"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (1e14, "100000000000000.0"),
            (1e15, "1e+15"),
            (1e16, "1e+16"),
            (1.5e-7, "1.5e-07"),
            (1e100, "1e+100"),
            (-2.25, "-2.25"),
            (123456.789, "123456.789"),
        ] {
            assert_eq!(double(f), s, "{f}");
        }
    }

    #[test]
    fn compact_and_indented() {
        let j: Json = serde_json::from_str(r#"{"b":[1,2.0,"x\u0001"],"a":{}}"#).unwrap();
        assert_eq!(dump(&j), r#"{"b":[1,2.0,"x\u0001"],"a":{}}"#);
        assert_eq!(
            dump_indent(&j, 2),
            "{\n  \"b\": [\n    1,\n    2.0,\n    \"x\\u0001\"\n  ],\n  \"a\": {}\n}"
        );
    }
}
