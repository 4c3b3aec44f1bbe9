//! Ollama's `format` package (HumanBytes, HumanNumber, HumanTime) and the
//! few `fmt` verbs `ollama show` uses, through gotmpl's port of Go's `fmt`.

use gotmpl::value::{FloatType, IntType, Value};
use serde_json::Value as Json;

/// A JSON value as Go's `encoding/json` decodes it into `any`, as a value
/// Go's `fmt` can print.
pub fn go_value(v: &Json) -> Value {
    Value::from_json_value(v)
}

/// `fmt.Sprintf("%v", v)`.
pub fn v(x: &Json) -> String {
    gotmpl::gofmt::sprintf("%v", &[go_value(x)])
}

/// `fmt.Sprintf("%-*s %#v", width, k, v)`.
pub fn param_line(width: i64, k: &str, x: &Json) -> String {
    gotmpl::gofmt::sprintf(
        "%-*s %#v",
        &[
            Value::Int(width, IntType::Int),
            Value::String(k.into()),
            go_value(x),
        ],
    )
}

fn f(format: &str, x: f64) -> String {
    gotmpl::gofmt::sprintf(format, &[Value::Float(x, FloatType::F64)])
}

/// `format.HumanBytes`: decimal units, one decimal below 10.
pub fn human_bytes(b: i64) -> String {
    const K: i64 = 1000;
    let (value, unit) = match b {
        _ if b >= K * K * K * K => (b as f64 / (K * K * K * K) as f64, "TB"),
        _ if b >= K * K * K => (b as f64 / (K * K * K) as f64, "GB"),
        _ if b >= K * K => (b as f64 / (K * K) as f64, "MB"),
        _ if b >= K => (b as f64 / K as f64, "KB"),
        _ => return format!("{b} B"),
    };
    if value >= 10.0 || value == value.trunc() {
        format!("{} {unit}", value as i64)
    } else {
        format!("{} {unit}", f("%.1f", value))
    }
}

/// `format.HumanNumber`: `135M`, `1.24B`, `7K`.
pub fn human_number(b: u64) -> String {
    const T: u64 = 1000;
    if b >= T * T * T {
        let n = b as f64 / (T * T * T) as f64;
        return if n == n.floor() {
            f("%.0fB", n)
        } else {
            f("%.1fB", n)
        };
    }
    if b >= T * T {
        let n = b as f64 / (T * T) as f64;
        return if n == n.floor() {
            f("%.0fM", n)
        } else {
            f("%.2fM", n)
        };
    }
    if b >= T {
        return f("%.0fK", b as f64 / T as f64);
    }
    b.to_string()
}

/// Go's `time.Duration` in nanoseconds, `humanDuration`.
fn human_duration(d: i128) -> String {
    let seconds = d / 1_000_000_000;
    if seconds < 1 {
        return "Less than a second".into();
    }
    if seconds == 1 {
        return "1 second".into();
    }
    if seconds < 60 {
        return format!("{seconds} seconds");
    }
    let minutes = d / 60_000_000_000;
    if minutes == 1 {
        return "About a minute".into();
    }
    if minutes < 60 {
        return format!("{minutes} minutes");
    }
    let hours_f = d as f64 / 3.6e12;
    let hours = hours_f.round() as i64;
    match hours {
        1 => "About an hour".into(),
        h if h < 48 => format!("{h} hours"),
        h if h < 24 * 7 * 2 => format!("{} days", h / 24),
        h if h < 24 * 30 * 2 => format!("{} weeks", h / 24 / 7),
        h if h < 24 * 365 * 2 => format!("{} months", h / 24 / 30),
        _ => format!("{} years", (d / 3_600_000_000_000) as i64 / 24 / 365),
    }
}

/// `format.HumanTime(t, zero)` at `now` (both ns since the epoch; `None`
/// is Go's zero time).
pub fn human_time(t: Option<i128>, now: i128, zero: &str) -> String {
    let Some(t) = t else {
        return zero.to_string();
    };
    let delta = now - t;
    if (delta / 3_600_000_000_000) / 24 / 365 < -20 {
        "Forever".into()
    } else if delta < 0 {
        human_duration(-delta) + " from now"
    } else {
        human_duration(delta) + " ago"
    }
}

/// Go's `time.Time.MarshalJSON` in UTC: RFC 3339 with nanoseconds, trailing
/// zeros dropped, `Z`.
pub fn rfc3339_nano(ns: i128) -> String {
    let secs = ns.div_euclid(1_000_000_000);
    let frac = ns.rem_euclid(1_000_000_000) as u32;
    let days = secs.div_euclid(86_400) as i64;
    let sod = secs.rem_euclid(86_400) as u32;
    let date = ollama::date::Date::from_days(days);
    let (y, m, d) = (date.year, date.month, date.day);
    let mut s = format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}",
        sod / 3600,
        sod / 60 % 60,
        sod % 60
    );
    if frac != 0 {
        let digits = format!("{frac:09}");
        s.push('.');
        s.push_str(digits.trim_end_matches('0'));
    }
    s.push('Z');
    s
}

/// Parses what [`rfc3339_nano`] writes (and any RFC 3339 time with an
/// offset) to ns since the epoch.
pub fn parse_rfc3339(s: &str) -> Option<i128> {
    let b = s.as_bytes();
    if b.len() < 20 || b[4] != b'-' || b[7] != b'-' || !matches!(b[10], b'T' | b't') {
        return None;
    }
    let num = |r: std::ops::Range<usize>| s.get(r)?.parse::<i64>().ok();
    let (y, mo, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (h, mi, se) = (num(11..13)?, num(14..16)?, num(17..19)?);
    let mut i = 19;
    let mut frac: i128 = 0;
    if b.get(i) == Some(&b'.') {
        i += 1;
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        let digits = &s[start..i];
        let padded = format!("{digits:0<9}");
        frac = padded.get(..9)?.parse().ok()?;
    }
    let off: i64 = match &s[i..] {
        "Z" | "z" => 0,
        o if o.len() == 6 => {
            let sign = if o.starts_with('-') { -1 } else { 1 };
            sign * (o[1..3].parse::<i64>().ok()? * 3600 + o[4..6].parse::<i64>().ok()? * 60)
        }
        _ => return None,
    };
    let days = ollama::date::Date::new(y as i32, mo as u32, d as u32).days();
    let secs = days * 86_400 + h * 3600 + mi * 60 + se - off;
    Some(secs as i128 * 1_000_000_000 + frac)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_as_ollama() {
        assert_eq!(human_bytes(999), "999 B");
        assert_eq!(human_bytes(1500), "1.5 KB");
        assert_eq!(human_bytes(2_000_000), "2 MB");
        assert_eq!(human_bytes(270_600_000), "270 MB");
        assert_eq!(human_number(134_515_008), "134.52M");
        assert_eq!(human_number(1_000_000_000), "1B");
        assert_eq!(human_number(7_500), "8K");
        assert_eq!(human_number(0), "0");
        let h = 3_600_000_000_000i128;
        assert_eq!(human_time(Some(0), 3 * h, "Never"), "3 hours ago");
        assert_eq!(human_time(Some(0), 24 * 20 * h, "Never"), "2 weeks ago");
        assert_eq!(human_time(Some(10 * h), 0, "Never"), "10 hours from now");
        assert_eq!(human_time(None, 0, "Never"), "Never");
        let t = parse_rfc3339("2026-11-01T10:00:00.5Z").unwrap();
        assert_eq!(rfc3339_nano(t), "2026-11-01T10:00:00.5Z");
        assert_eq!(
            parse_rfc3339("2026-11-01T11:00:00+01:00"),
            parse_rfc3339("2026-11-01T10:00:00Z")
        );
        assert_eq!(
            param_line(30, "stop", &serde_json::json!("<|im_end|>")),
            format!("{:<30} \"<|im_end|>\"", "stop")
        );
        assert_eq!(v(&serde_json::json!(1000000)), "1e+06");
    }
}
