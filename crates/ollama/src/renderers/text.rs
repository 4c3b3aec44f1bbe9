//! The Go string, number and printing helpers the renderers lean on
//! (`strings.TrimSpace`, `strings.ToUpper`, `fmt.Sprint`, float-to-int
//! conversions), plus `image_tags.go`.

use gotmpl::unicode::is_space;
use gotmpl::Value;
use serde_json::Value as Json;

/// `strings.TrimSpace` (Go's `unicode.IsSpace`).
pub(crate) fn trim_space(s: &str) -> &str {
    s.trim_matches(is_space)
}

/// `strings.TrimRightFunc(s, unicode.IsSpace)`.
pub(crate) fn trim_right_space(s: &str) -> &str {
    s.trim_end_matches(is_space)
}

/// Go's `unicode.ToUpper` (simple case mapping) for one character.
fn upper_char(c: char) -> char {
    let mut it = c.to_uppercase();
    match (it.next(), it.next()) {
        (Some(u), None) => u,
        // Characters whose full mapping has several characters: Go maps
        // them one to one, or leaves them alone.
        _ => match c as u32 {
            0x1f80..=0x1faf if c as u32 & 0xf < 8 => char::from_u32(c as u32 + 8).unwrap_or(c),
            0x1fb3 | 0x1fc3 | 0x1ff3 => char::from_u32(c as u32 + 9).unwrap_or(c),
            _ => c,
        },
    }
}

/// Go's `unicode.ToLower` (simple case mapping) for one character.
fn lower_char(c: char) -> char {
    let mut it = c.to_lowercase();
    match (it.next(), it.next()) {
        (Some(l), None) => l,
        // Only U+0130 has a longer full mapping; its simple one is `i`.
        _ => 'i',
    }
}

/// `strings.ToUpper`.
pub(crate) fn to_upper(s: &str) -> String {
    if s.is_ascii() {
        return s.to_ascii_uppercase();
    }
    s.chars().map(upper_char).collect()
}

/// `strings.ToLower`.
pub(crate) fn to_lower(s: &str) -> String {
    if s.is_ascii() {
        return s.to_ascii_lowercase();
    }
    s.chars().map(lower_char).collect()
}

/// `strings.EqualFold(s, target)` for an ASCII lowercase `target`: besides
/// ASCII case, Go folds `ſ` (U+017F) with `s` and the Kelvin sign with `k`.
pub(crate) fn equal_fold_ascii(s: &str, target: &str) -> bool {
    let mut chars = s.chars();
    for t in target.chars() {
        let Some(c) = chars.next() else {
            return false;
        };
        let same = c.to_ascii_lowercase() == t
            || (t == 's' && c == '\u{17f}')
            || (t == 'k' && c == '\u{212a}');
        if !same {
            return false;
        }
    }
    chars.next().is_none()
}

/// A JSON number as Go's `encoding/json` decodes it into `any`: `float64`.
pub(crate) fn json_f64(n: &serde_json::Number) -> f64 {
    if let Some(i) = n.as_i64() {
        i as f64
    } else if let Some(u) = n.as_u64() {
        u as f64
    } else {
        n.as_f64().unwrap_or(f64::NAN)
    }
}

/// `fmt.Sprint(v)` (`%v`) of a value decoded from JSON into `any`:
/// `<nil>`, `true`, `1e+06`, `map[a:1]`, `[1 2]`.
pub(crate) fn sprint_json(v: &Json) -> String {
    gotmpl::gofmt::sprint(&[Value::from_json_elem(v)])
}

/// `fmt.Sprint(f)` of a `float64`.
pub(crate) fn sprint_f64(f: f64) -> String {
    gotmpl::gofmt::sprint(&[Value::float(f)])
}

/// Go's `int64(f)` on amd64 (`CVTTSD2SQ`): truncation, and the "integer
/// indefinite" value `math.MinInt64` for NaN and out-of-range values.
pub(crate) fn go_f64_to_i64(f: f64) -> i64 {
    const TWO_63: f64 = 9_223_372_036_854_775_808.0;
    if f.is_nan() || !(-TWO_63..TWO_63).contains(&f) {
        i64::MIN
    } else {
        f as i64
    }
}

/// Go's `uint64(f)` on amd64: below 2^63 through `int64`, otherwise offset
/// by 2^63 and the top bit set.
pub(crate) fn go_f64_to_u64(f: f64) -> u64 {
    const TWO_63: f64 = 9_223_372_036_854_775_808.0;
    if f < TWO_63 {
        go_f64_to_i64(f) as u64
    } else {
        (go_f64_to_i64(f - TWO_63) as u64) | (1 << 63)
    }
}

/// The Gemma renderers' number format: `%d` of `int64(v)` when that
/// round-trips, otherwise `%v`.
pub(crate) fn int_or_float(v: f64) -> String {
    let i = go_f64_to_i64(v);
    if v == i as f64 {
        i.to_string()
    } else {
        sprint_f64(v)
    }
}

/// `renderContentWithImageTags` (`image_tags.go`): replaces `[img]`
/// placeholders with `[img-N]` tags in order and prefixes tags for the
/// remaining images (then a space when the content starts with a
/// non-space character). Content that already has `[img-` is left alone.
/// Returns the content and the next image number.
pub(crate) fn content_with_image_tags(
    content: &str,
    image_count: usize,
    offset: usize,
) -> (String, usize) {
    if image_count == 0 {
        return (content.to_string(), offset);
    }
    if content.contains("[img-") {
        return (content.to_string(), offset + image_count);
    }
    let mut content = content.to_string();
    let mut prefix = String::new();
    for i in 0..image_count {
        let tag = format!("[img-{}]", offset + i);
        if content.contains("[img]") {
            content = content.replacen("[img]", &tag, 1);
        } else {
            prefix.push_str(&tag);
        }
    }
    if !prefix.is_empty() {
        // utf8.DecodeRuneInString reports U+FFFD as RuneError too.
        if let Some(r) = content.chars().next() {
            if r != '\u{fffd}' && !is_space(r) {
                prefix.push(' ');
            }
        }
    }
    (prefix + &content, offset + image_count)
}

/// Today's date as `YYYY-MM-DD` in UTC (see [`crate::date::Date::today_utc`]).
pub(crate) fn today_utc() -> String {
    crate::date::Date::today_utc().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_case_mapping() {
        assert_eq!(to_upper("straße ﬁ"), "STRAßE ﬁ");
        assert_eq!(to_upper("ᾳ"), "ᾼ");
        assert_eq!(to_upper("ᾀ"), "ᾈ");
        assert_eq!(to_upper("ᾈ"), "ᾈ");
        assert_eq!(to_lower("İSTANBUL"), "istanbul");
        assert_eq!(to_lower("ΟΔΟΣ"), "οδοσ");
        assert!(equal_fold_ascii("ſystem", "system"));
        assert!(equal_fold_ascii("SYSTEM", "system"));
        assert!(!equal_fold_ascii("systems", "system"));
        assert!(!equal_fold_ascii("syste", "system"));
    }

    #[test]
    fn numbers_like_go() {
        assert_eq!(int_or_float(3.0), "3");
        assert_eq!(int_or_float(-0.0), "0");
        assert_eq!(int_or_float(2.5), "2.5");
        assert_eq!(int_or_float(1e20), "1e+20");
        assert_eq!(
            int_or_float(9_223_372_036_854_775_808.0),
            "9.223372036854776e+18"
        );
        assert_eq!(
            int_or_float(-9_223_372_036_854_775_808.0),
            "-9223372036854775808"
        );
        assert_eq!(sprint_f64(1e6), "1e+06");
        assert_eq!(go_f64_to_u64(-5e9), (-5_000_000_000i64) as u64);
        assert_eq!(go_f64_to_u64(1e19), 10_000_000_000_000_000_000);
    }

    #[test]
    fn image_tags() {
        assert_eq!(
            content_with_image_tags("look [img] here", 2, 0),
            ("[img-1] look [img-0] here".into(), 2)
        );
        assert_eq!(content_with_image_tags(" x", 1, 3), ("[img-3] x".into(), 4));
        assert_eq!(
            content_with_image_tags("", 2, 0),
            ("[img-0][img-1]".into(), 2)
        );
        assert_eq!(
            content_with_image_tags("[img-7] x", 2, 0),
            ("[img-7] x".into(), 2)
        );
        assert_eq!(
            content_with_image_tags("\u{fffd}", 1, 0),
            ("[img-0]\u{fffd}".into(), 1)
        );
    }

    #[test]
    fn dates() {
        assert_eq!(today_utc().len(), 10);
    }
}
