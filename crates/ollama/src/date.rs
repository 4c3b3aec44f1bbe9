//! Calendar dates for `currentDate` and `yesterdayDate`.

use std::fmt;

/// A proleptic Gregorian date.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Date {
    /// Year.
    pub year: i32,
    /// Month, 1 to 12.
    pub month: u32,
    /// Day, 1 to 31.
    pub day: u32,
}

impl Date {
    /// A date.
    pub fn new(year: i32, month: u32, day: u32) -> Date {
        Date { year, month, day }
    }

    /// Parses `YYYY-MM-DD`.
    pub fn parse(s: &str) -> Option<Date> {
        let mut it = s.split('-');
        let (y, m, d) = (it.next()?, it.next()?, it.next()?);
        if it.next().is_some() || y.len() != 4 || m.len() != 2 || d.len() != 2 {
            return None;
        }
        let date = Date::new(y.parse().ok()?, m.parse().ok()?, d.parse().ok()?);
        (Date::from_days(date.days()) == date).then_some(date)
    }

    /// Days since 1970-01-01.
    pub fn days(self) -> i64 {
        let (y, m, d) = (self.year as i64, self.month as i64, self.day as i64);
        let y = if m <= 2 { y - 1 } else { y };
        let era = y.div_euclid(400);
        let yoe = y - era * 400;
        let mp = (m + 9) % 12;
        let doy = (153 * mp + 2) / 5 + d - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        era * 146097 + doe - 719468
    }

    /// The date `days` days after 1970-01-01.
    pub fn from_days(days: i64) -> Date {
        let z = days + 719468;
        let era = z.div_euclid(146097);
        let doe = z - era * 146097;
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
        let y = yoe + era * 400;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let d = doy - (153 * mp + 2) / 5 + 1;
        let m = if mp < 10 { mp + 3 } else { mp - 9 };
        Date::new((if m <= 2 { y + 1 } else { y }) as i32, m as u32, d as u32)
    }

    /// The day before (Go's `AddDate(0, 0, -1)`).
    pub fn yesterday(self) -> Date {
        Date::from_days(self.days() - 1)
    }

    /// Today in UTC, from the system clock; 1970-01-01 where there is no
    /// clock (WebAssembly in a browser, whose callers pass the date in).
    pub fn today_utc() -> Date {
        #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
        let secs = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs() as i64)
            .unwrap_or(0);
        #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
        let secs = 0i64;
        Date::from_days(secs.div_euclid(86400))
    }
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(
            Date::parse("2026-03-01").unwrap().yesterday().to_string(),
            "2026-02-28"
        );
        assert_eq!(
            Date::parse("2024-03-01").unwrap().yesterday().to_string(),
            "2024-02-29"
        );
        assert_eq!(
            Date::parse("2026-01-01").unwrap().yesterday().to_string(),
            "2025-12-31"
        );
        assert!(Date::parse("2026-02-30").is_none());
        assert_eq!(Date::from_days(0).to_string(), "1970-01-01");
    }
}
