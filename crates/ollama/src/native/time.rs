//! The clock the native path sees: the server's local time, which
//! llama-server formats for `strftime_now`, `datetime` and `date_string`
//! (the `jinja` crate's `strftime`, the "C" locale).

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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_since_the_epoch() {
        let t = NativeTime {
            date: Date::new(2026, 1, 15),
            hour: 10,
            minute: 20,
            second: 30,
        };
        assert_eq!(t.unix(), 1_768_472_430);
    }
}
