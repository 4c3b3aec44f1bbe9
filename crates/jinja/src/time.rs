//! `std::strftime` over `std::localtime(&ctx.current_time)` for `strftime_now`.
//! Our version has no time zone database: local time is UTC, and the "C"
//! locale's names and formats are used.

const DAYS: [&str; 7] = [
    "Sunday",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
];
const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

struct Tm {
    year: i64,
    mon: usize,
    mday: i64,
    hour: i64,
    min: i64,
    sec: i64,
    wday: usize,
    yday: i64,
    epoch: i64,
}

/// ISO 8601 week-based year and week number.
fn iso_week(tm: &Tm) -> (i64, i64) {
    let wday = (tm.wday as i64 + 6) % 7; // Monday = 0
    let mut year = tm.year;
    let mut week = (tm.yday - wday + 10) / 7;
    let weeks_in = |y: i64| -> i64 {
        let jan1 = (days_from_civil(y) + 4).rem_euclid(7); // weekday of Jan 1, Sunday = 0
        let leap = is_leap(y);
        if jan1 == 4 || (leap && jan1 == 3) {
            53
        } else {
            52
        }
    };
    if week < 1 {
        year -= 1;
        week = weeks_in(year);
    } else if week > weeks_in(year) {
        year += 1;
        week = 1;
    }
    (year, week)
}

fn days_from_civil(y: i64) -> i64 {
    // days since the epoch of January 1 of year y
    let y1 = y - 1;
    365 * (y - 1970) + (y1.div_euclid(4) - 1969 / 4) - (y1.div_euclid(100) - 1969 / 100)
        + (y1.div_euclid(400) - 1969 / 400)
}

fn civil_from_days(z: i64) -> (i64, usize, i64) {
    let z = z + 719468;
    let era = z.div_euclid(146097);
    let doe = z.rem_euclid(146097);
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (if m <= 2 { y + 1 } else { y }, (m - 1) as usize, d)
}

fn is_leap(y: i64) -> bool {
    (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
}

fn gmtime(t: i64) -> Tm {
    let days = t.div_euclid(86400);
    let secs = t.rem_euclid(86400);
    let (year, mon, mday) = civil_from_days(days);
    let cum = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334];
    let yday = cum[mon] + mday - 1 + if mon >= 2 && is_leap(year) { 1 } else { 0 };
    Tm {
        year,
        mon,
        mday,
        hour: secs / 3600,
        min: secs / 60 % 60,
        sec: secs % 60,
        wday: (days + 4).rem_euclid(7) as usize,
        yday,
        epoch: t,
    }
}

/// Formats `t` (seconds since the epoch, as UTC) with a C `strftime` format.
pub fn strftime(fmt: &[u8], t: i64) -> Vec<u8> {
    let tm = gmtime(t);
    let mut out = Vec::new();
    format_into(&mut out, fmt, &tm, 0);
    out
}

fn format_into(out: &mut Vec<u8>, fmt: &[u8], tm: &Tm, depth: usize) {
    let mut i = 0;
    while i < fmt.len() {
        let c = fmt[i];
        if c != b'%' || i + 1 >= fmt.len() {
            out.push(c);
            i += 1;
            continue;
        }
        let mut j = i + 1;
        let mut pad: Option<u8> = None;
        let mut upper = false;
        while j < fmt.len() && matches!(fmt[j], b'-' | b'_' | b'0' | b'^' | b'#') {
            if matches!(fmt[j], b'-' | b'_' | b'0') {
                pad = Some(fmt[j]);
            } else {
                upper = true;
            }
            j += 1;
        }
        let mut width: Option<usize> = None;
        while j < fmt.len() && fmt[j].is_ascii_digit() {
            width = Some((width.unwrap_or(0) * 10 + (fmt[j] - b'0') as usize).min(64));
            j += 1;
        }
        while j < fmt.len() && matches!(fmt[j], b'E' | b'O') {
            j += 1;
        }
        if j >= fmt.len() {
            out.extend_from_slice(&fmt[i..]);
            break;
        }
        let spec = fmt[j];
        j += 1;
        let num = |out: &mut Vec<u8>, v: i64, w: usize, default_pad: u8| {
            let s = v.to_string();
            let w = width.unwrap_or(w);
            match pad.unwrap_or(default_pad) {
                b'-' if width.is_none() => out.extend_from_slice(s.as_bytes()),
                b'-' | b'_' | b' ' => out.extend_from_slice(format!("{:>w$}", s, w = w).as_bytes()),
                _ => {
                    if let Some(rest) = s.strip_prefix('-') {
                        out.extend_from_slice(
                            format!("-{:0>w$}", rest, w = w.saturating_sub(1)).as_bytes(),
                        )
                    } else {
                        out.extend_from_slice(format!("{:0>w$}", s, w = w).as_bytes())
                    }
                }
            }
        };
        let (iso_year, iso_week) = iso_week(tm);
        let text = |out: &mut Vec<u8>, t: &[u8]| {
            let t = if upper {
                t.to_ascii_uppercase()
            } else {
                t.to_vec()
            };
            let w = width.unwrap_or(0);
            if t.len() < w {
                out.extend(std::iter::repeat_n(b' ', w - t.len()));
            }
            out.extend_from_slice(&t);
        };
        let hour12 = if tm.hour % 12 == 0 { 12 } else { tm.hour % 12 };
        let sub = |out: &mut Vec<u8>, f: &[u8]| {
            if depth < 2 {
                format_into(out, f, tm, depth + 1)
            }
        };
        match spec {
            b'a' => text(out, &DAYS[tm.wday].as_bytes()[..3]),
            b'A' => text(out, DAYS[tm.wday].as_bytes()),
            b'b' | b'h' => text(out, &MONTHS[tm.mon].as_bytes()[..3]),
            b'B' => text(out, MONTHS[tm.mon].as_bytes()),
            b'c' => sub(out, b"%a %b %e %H:%M:%S %Y"),
            b'C' => num(out, tm.year.div_euclid(100), 2, b'0'),
            b'd' => num(out, tm.mday, 2, b'0'),
            b'D' | b'x' => sub(out, b"%m/%d/%y"),
            b'e' => num(out, tm.mday, 2, b'_'),
            b'F' => sub(out, b"%Y-%m-%d"),
            b'H' => num(out, tm.hour, 2, b'0'),
            b'I' => num(out, hour12, 2, b'0'),
            b'j' => num(out, tm.yday + 1, 3, b'0'),
            b'k' => num(out, tm.hour, 2, b'_'),
            b'l' => num(out, hour12, 2, b'_'),
            b'm' => num(out, tm.mon as i64 + 1, 2, b'0'),
            b'M' => num(out, tm.min, 2, b'0'),
            b'n' => out.push(b'\n'),
            b'p' => out.extend_from_slice(if tm.hour < 12 { b"AM" } else { b"PM" }),
            b'P' => out.extend_from_slice(if tm.hour < 12 { b"am" } else { b"pm" }),
            b'r' => sub(out, b"%I:%M:%S %p"),
            b'R' => sub(out, b"%H:%M"),
            b's' => num(out, tm.epoch, 1, b'0'),
            b'G' => num(out, iso_year, 1, b'0'),
            b'g' => num(out, iso_year.rem_euclid(100), 2, b'0'),
            b'V' => num(out, iso_week, 2, b'0'),
            b'S' => num(out, tm.sec, 2, b'0'),
            b't' => out.push(b'\t'),
            b'T' | b'X' => sub(out, b"%H:%M:%S"),
            b'u' => num(out, if tm.wday == 0 { 7 } else { tm.wday as i64 }, 1, b'0'),
            b'w' => num(out, tm.wday as i64, 1, b'0'),
            b'y' => num(out, tm.year.rem_euclid(100), 2, b'0'),
            b'Y' => num(out, tm.year, 1, b'0'),
            b'z' => out.extend_from_slice(b"+0000"),
            b'Z' => out.extend_from_slice(b"UTC"),
            b'%' => out.push(b'%'),
            b'U' => num(out, (tm.yday + 7 - tm.wday as i64) / 7, 2, b'0'),
            b'W' => num(out, (tm.yday + 7 - ((tm.wday as i64 + 6) % 7)) / 7, 2, b'0'),
            _ => out.extend_from_slice(&fmt[i..j]),
        }
        i = j;
    }
}
