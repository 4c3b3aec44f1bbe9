//! The clock the native path sees: `strftime_now`, `datetime` and
//! `date_string` (C `strftime` in the "C" locale, server local time).

use crate::date::Date;

/// A local date and time for `strftime_now`, `datetime` and `date_string`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NativeTime {
    /// The date.
    pub date: Date,
    /// Hour, 0 to 23.
    pub hour: u32,
    /// Minute, 0 to 59.
    pub minute: u32,
    /// Second, 0 to 60.
    pub second: u32,
}

impl NativeTime {
    /// Midnight at the start of `date`.
    pub fn from_date(date: Date) -> NativeTime {
        NativeTime {
            date,
            hour: 0,
            minute: 0,
            second: 0,
        }
    }

    /// Now, in UTC (the recording's `TZ=UTC`); midnight of
    /// [`Date::today_utc`] where the platform has no clock.
    pub fn now_utc() -> NativeTime {
        #[cfg(not(target_arch = "wasm32"))]
        {
            if let Ok(d) = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
                let secs = d.as_secs() as i64;
                let day = secs.div_euclid(86_400);
                let rem = secs.rem_euclid(86_400) as u32;
                return NativeTime {
                    date: Date::from_days(day),
                    hour: rem / 3600,
                    minute: rem / 60 % 60,
                    second: rem % 60,
                };
            }
        }
        NativeTime::from_date(Date::today_utc())
    }

    /// Seconds since the epoch.
    pub fn unix(&self) -> i64 {
        self.date.days() * 86_400
            + i64::from(self.hour) * 3600
            + i64::from(self.minute) * 60
            + i64::from(self.second)
    }

    /// 0 = Sunday.
    fn weekday(&self) -> usize {
        // 1970-01-01 was a Thursday.
        (self.date.days() + 4).rem_euclid(7) as usize
    }

    fn day_of_year(&self) -> i64 {
        self.date.days() - Date::new(self.date.year, 1, 1).days() + 1
    }

    /// C `strftime` with the "C" locale. Unknown conversions are copied
    /// through unchanged.
    pub fn strftime(&self, fmt: &str) -> String {
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
        let d = &self.date;
        let month = MONTHS[(d.month.clamp(1, 12) - 1) as usize];
        let day = DAYS[self.weekday()];
        let h12 = match self.hour % 12 {
            0 => 12,
            h => h,
        };
        let mut out = String::new();
        let mut chars = fmt.chars().peekable();
        while let Some(c) = chars.next() {
            if c != '%' {
                out.push(c);
                continue;
            }
            // glibc flags and modifiers that do not change "C" output here
            let mut spec = chars.next();
            let mut no_pad = false;
            while matches!(
                spec,
                Some('E') | Some('O') | Some('-') | Some('_') | Some('0') | Some('^') | Some('#')
            ) {
                no_pad |= spec == Some('-');
                spec = chars.next();
            }
            let Some(spec) = spec else {
                out.push('%');
                break;
            };
            let s = match spec {
                'a' => day[..3].to_string(),
                'A' => day.to_string(),
                'b' | 'h' => month[..3].to_string(),
                'B' => month.to_string(),
                'c' => format!(
                    "{} {} {:>2} {:02}:{:02}:{:02} {}",
                    &day[..3],
                    &month[..3],
                    d.day,
                    self.hour,
                    self.minute,
                    self.second,
                    d.year
                ),
                'C' => format!("{:02}", d.year.div_euclid(100)),
                'd' => format!("{:02}", d.day),
                'D' | 'x' => format!("{:02}/{:02}/{:02}", d.month, d.day, d.year.rem_euclid(100)),
                'e' => format!("{:>2}", d.day),
                'F' => format!("{}-{:02}-{:02}", d.year, d.month, d.day),
                'H' => format!("{:02}", self.hour),
                'I' => format!("{:02}", h12),
                'j' => format!("{:03}", self.day_of_year()),
                'k' => format!("{:>2}", self.hour),
                'l' => format!("{:>2}", h12),
                'm' => format!("{:02}", d.month),
                'M' => format!("{:02}", self.minute),
                'n' => "\n".into(),
                'p' => if self.hour < 12 { "AM" } else { "PM" }.into(),
                'P' => if self.hour < 12 { "am" } else { "pm" }.into(),
                'r' => format!(
                    "{:02}:{:02}:{:02} {}",
                    h12,
                    self.minute,
                    self.second,
                    if self.hour < 12 { "AM" } else { "PM" }
                ),
                'R' => format!("{:02}:{:02}", self.hour, self.minute),
                's' => (self.date.days() * 86_400
                    + (self.hour * 3600 + self.minute * 60 + self.second) as i64)
                    .to_string(),
                'S' => format!("{:02}", self.second),
                't' => "\t".into(),
                'T' | 'X' => format!("{:02}:{:02}:{:02}", self.hour, self.minute, self.second),
                'u' => match self.weekday() {
                    0 => "7".into(),
                    w => w.to_string(),
                },
                'w' => self.weekday().to_string(),
                'y' => format!("{:02}", d.year.rem_euclid(100)),
                'Y' => d.year.to_string(),
                'z' => "+0000".into(),
                'Z' => "UTC".into(),
                '%' => "%".into(),
                other => format!("%{other}"),
            };
            if no_pad && s.chars().all(|c| c.is_ascii_digit() || c == ' ') {
                let t = s.trim_start_matches(['0', ' ']);
                out.push_str(if t.is_empty() { "0" } else { t });
            } else {
                out.push_str(&s);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        let t = NativeTime::from_date(Date::new(2026, 11, 30));
        assert_eq!(t.strftime("%b %d %Y"), "Nov 30 2026");
        assert_eq!(t.strftime("%d %b %Y"), "30 Nov 2026");
        assert_eq!(
            t.strftime("%A, %B %-d, %Y %H:%M %%"),
            "Monday, November 30, 2026 00:00 %"
        );
        assert_eq!(t.strftime("%Y-%m-%d %j"), "2026-11-30 334");
    }
}
