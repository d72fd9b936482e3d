//! The date and time value types and their serializers.
//!
//! Each type keeps its invariants (a month is 1–12, a day exists in its
//! month, …): the fields are private, constructors check them, and every
//! parser returns values that satisfy them. `Display` writes the
//! corresponding "valid … string" of the reference; for [`LocalDateTime`]
//! and [`GlobalDateTime`] there are also the normalized forms.

use core::fmt;

use super::calendar::{days_in_month, weeks_in_year};

/// The largest year the parsers accept. The spec's years are unbounded
/// (the living standard's valid strings have "four or more" digits of
/// year); this crate keeps years in an `i32` with room for the ±1 day of a
/// time-zone shift, and a larger year is an [`ErrorKind::Overflow`] error
/// (and not valid).
///
/// [`ErrorKind::Overflow`]: crate::ErrorKind::Overflow
pub const MAX_YEAR: i32 = i32::MAX - 1;

/// Writes a year with at least four digits: years below 1000 zero-padded to
/// four, larger ones in full (and a `-` if negative, which only a UTC
/// conversion of year 0 can produce).
fn write_year(f: &mut fmt::Formatter<'_>, year: i32) -> fmt::Result {
    if year < 0 {
        write!(f, "-{:04}", year.unsigned_abs())
    } else {
        write!(f, "{year:04}")
    }
}

/// Spec: reference "Months" (seed 002 §2.4.4.6): a year and a month.
///
/// ```
/// let m = microsyntax::parse_month("2005-02")?;
/// assert_eq!((m.year(), m.month()), (2005, 2));
/// assert_eq!(m.to_string(), "2005-02");
/// # Ok::<(), microsyntax::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Month {
    year: i32,
    month: u8,
}

impl Month {
    /// A month, if `month` is 1–12.
    pub const fn new(year: i32, month: u8) -> Option<Self> {
        if 1 <= month && month <= 12 {
            Some(Self { year, month })
        } else {
            None
        }
    }

    /// The year.
    pub const fn year(&self) -> i32 {
        self.year
    }

    /// The month, 1–12.
    pub const fn month(&self) -> u8 {
        self.month
    }
}

/// Writes the valid month string `YYYY-MM` (valid when the year is 1 or more).
impl fmt::Display for Month {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_year(f, self.year)?;
        write!(f, "-{:02}", self.month)
    }
}

/// Spec: reference "Dates" (seed 002 §2.4.4.5): a proleptic-Gregorian date.
///
/// ```
/// let d = microsyntax::Date::new(2016, 2, 29).unwrap();
/// assert_eq!(d.to_string(), "2016-02-29");
/// assert!(microsyntax::Date::new(2015, 2, 29).is_none());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date {
    year: i32,
    month: u8,
    day: u8,
}

impl Date {
    /// A date, if the month is 1–12 and the day exists in that month.
    pub const fn new(year: i32, month: u8, day: u8) -> Option<Self> {
        if 1 <= month && month <= 12 && 1 <= day && day <= days_in_month(year, month) {
            Some(Self { year, month, day })
        } else {
            None
        }
    }

    /// The year.
    pub const fn year(&self) -> i32 {
        self.year
    }

    /// The month, 1–12.
    pub const fn month(&self) -> u8 {
        self.month
    }

    /// The day of the month, 1–31.
    pub const fn day(&self) -> u8 {
        self.day
    }

    /// The day after this one.
    pub(crate) const fn next_day(self) -> Self {
        if self.day < days_in_month(self.year, self.month) {
            Self {
                day: self.day + 1,
                ..self
            }
        } else if self.month < 12 {
            Self {
                month: self.month + 1,
                day: 1,
                ..self
            }
        } else {
            Self {
                year: self.year.saturating_add(1),
                month: 1,
                day: 1,
            }
        }
    }

    /// The day before this one.
    pub(crate) const fn previous_day(self) -> Self {
        if self.day > 1 {
            Self {
                day: self.day - 1,
                ..self
            }
        } else if self.month > 1 {
            let month = self.month - 1;
            Self {
                month,
                day: days_in_month(self.year, month),
                ..self
            }
        } else {
            let year = self.year.saturating_sub(1);
            Self {
                year,
                month: 12,
                day: 31,
            }
        }
    }
}

/// Writes the valid date string `YYYY-MM-DD` (valid when the year is 1 or more).
impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_year(f, self.year)?;
        write!(f, "-{:02}-{:02}", self.month, self.day)
    }
}

/// Spec: reference "Yearless dates": a month and a day, with February 29
/// allowed.
///
/// ```
/// let d = microsyntax::parse_yearless_date("--02-29")?;
/// assert_eq!(d.to_string(), "02-29");
/// # Ok::<(), microsyntax::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct YearlessDate {
    month: u8,
    day: u8,
}

impl YearlessDate {
    /// A yearless date, if the day exists in that month of a leap year.
    pub const fn new(month: u8, day: u8) -> Option<Self> {
        // Year 4 stands for "any leap year".
        if 1 <= month && month <= 12 && 1 <= day && day <= days_in_month(4, month) {
            Some(Self { month, day })
        } else {
            None
        }
    }

    /// The month, 1–12.
    pub const fn month(&self) -> u8 {
        self.month
    }

    /// The day of the month, 1–31.
    pub const fn day(&self) -> u8 {
        self.day
    }
}

/// Writes the valid yearless date string `MM-DD`.
impl fmt::Display for YearlessDate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:02}-{:02}", self.month, self.day)
    }
}

/// Spec: reference "Times" (seed 002 §2.4.4.8): an hour, a minute, a second
/// and a fraction of a second (kept to the nanosecond; further digits of a
/// parsed fraction are dropped).
///
/// ```
/// let t = microsyntax::parse_time("19:45:45.456")?;
/// assert_eq!((t.hour(), t.minute(), t.second(), t.nanosecond()), (19, 45, 45, 456_000_000));
/// assert_eq!(microsyntax::parse_time("19:45:00")?.to_string(), "19:45");
/// # Ok::<(), microsyntax::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Time {
    hour: u8,
    minute: u8,
    second: u8,
    nanosecond: u32,
}

impl Time {
    /// A time, if hour < 24, minute < 60, second < 60 and nanosecond < 10⁹.
    pub const fn new(hour: u8, minute: u8, second: u8, nanosecond: u32) -> Option<Self> {
        if hour < 24 && minute < 60 && second < 60 && nanosecond < 1_000_000_000 {
            Some(Self {
                hour,
                minute,
                second,
                nanosecond,
            })
        } else {
            None
        }
    }

    /// The hour, 0–23.
    pub const fn hour(&self) -> u8 {
        self.hour
    }

    /// The minute, 0–59.
    pub const fn minute(&self) -> u8 {
        self.minute
    }

    /// The whole seconds, 0–59.
    pub const fn second(&self) -> u8 {
        self.second
    }

    /// The fraction of the second, in nanoseconds.
    pub const fn nanosecond(&self) -> u32 {
        self.nanosecond
    }

    /// The seconds with their fraction, as the nearest `f64` (e.g. 45.456).
    pub fn seconds_f64(&self) -> f64 {
        // One correctly rounded division of two exact integers gives the
        // double nearest to the decimal value.
        (u64::from(self.second) * 1_000_000_000 + u64::from(self.nanosecond)) as f64 / 1e9
    }

    pub(crate) const fn minutes_of_day(&self) -> i32 {
        self.hour as i32 * 60 + self.minute as i32
    }
}

/// Writes a fraction of a second as `.d…` without trailing zeros.
pub(crate) fn write_fraction(f: &mut fmt::Formatter<'_>, nanosecond: u32) -> fmt::Result {
    if nanosecond == 0 {
        return Ok(());
    }
    let mut digits = 9;
    let mut n = nanosecond;
    while n.is_multiple_of(10) {
        n /= 10;
        digits -= 1;
    }
    write!(f, ".{n:0digits$}")
}

/// Writes the shortest valid time string: `HH:MM`, `HH:MM:SS` or
/// `HH:MM:SS.f…` (valid when the fraction has at most three digits, which is
/// all a valid time string can express).
impl fmt::Display for Time {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:02}:{:02}", self.hour, self.minute)?;
        if self.second != 0 || self.nanosecond != 0 {
            write!(f, ":{:02}", self.second)?;
            write_fraction(f, self.nanosecond)?;
        }
        Ok(())
    }
}

/// Spec: reference "Floating dates and times" (seed 002 §2.4.4.4 "local
/// dates and times"): a date and a time without a time-zone offset.
///
/// ```
/// let dt = microsyntax::parse_local_date_time("2004-12-31 23:59")?;
/// assert_eq!(dt.to_string(), "2004-12-31T23:59"); // normalized: T and the shortest time
/// # Ok::<(), microsyntax::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LocalDateTime {
    date: Date,
    time: Time,
}

impl LocalDateTime {
    /// A date and time.
    pub const fn new(date: Date, time: Time) -> Self {
        Self { date, time }
    }

    /// The date.
    pub const fn date(&self) -> Date {
        self.date
    }

    /// The time.
    pub const fn time(&self) -> Time {
        self.time
    }

    /// This date and time moved by `minutes` (less than a day either way).
    pub(crate) const fn shifted(self, minutes: i32) -> Self {
        let mut total = self.time.minutes_of_day() + minutes;
        let mut date = self.date;
        if total < 0 {
            total += 24 * 60;
            date = date.previous_day();
        } else if total >= 24 * 60 {
            total -= 24 * 60;
            date = date.next_day();
        }
        let time = Time {
            hour: (total / 60) as u8,
            minute: (total % 60) as u8,
            ..self.time
        };
        Self { date, time }
    }
}

/// Writes the valid normalized local ("floating") date and time string:
/// the date, `T`, and the shortest time.
impl fmt::Display for LocalDateTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}T{}", self.date, self.time)
    }
}

/// Spec: reference "Time zones" (seed 002 §2.4.4.9's neighbour): a signed
/// number of hours and minutes, from −23:59 to +23:59. Both components
/// carry the sign: −00:30 is 0 hours and −30 minutes.
///
/// ```
/// let o = microsyntax::parse_time_zone_offset("-0430")?;
/// assert_eq!((o.hours(), o.minutes()), (-4, -30));
/// assert_eq!(o.to_string(), "-04:30");
/// # Ok::<(), microsyntax::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TimeZoneOffset {
    total_minutes: i16,
}

impl TimeZoneOffset {
    /// UTC: zero hours and minutes.
    pub const UTC: Self = Self { total_minutes: 0 };

    /// An offset of `hours` and `minutes`, if |hours| ≤ 23, |minutes| ≤ 59
    /// and they do not have opposite signs.
    pub const fn new(hours: i8, minutes: i8) -> Option<Self> {
        if hours.unsigned_abs() > 23
            || minutes.unsigned_abs() > 59
            || (hours > 0 && minutes < 0)
            || (hours < 0 && minutes > 0)
        {
            return None;
        }
        Some(Self {
            total_minutes: hours as i16 * 60 + minutes as i16,
        })
    }

    /// The signed hours, −23 to 23.
    pub const fn hours(&self) -> i8 {
        (self.total_minutes / 60) as i8
    }

    /// The signed minutes, −59 to 59, with the same sign as the hours.
    pub const fn minutes(&self) -> i8 {
        (self.total_minutes % 60) as i8
    }

    /// The whole offset in minutes.
    pub const fn total_minutes(&self) -> i16 {
        self.total_minutes
    }
}

/// Writes a valid time-zone offset string: `Z` for UTC, else `±HH:MM`.
impl fmt::Display for TimeZoneOffset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.total_minutes == 0 {
            return f.write_str("Z");
        }
        let sign = if self.total_minutes < 0 { '-' } else { '+' };
        let m = self.total_minutes.unsigned_abs();
        write!(f, "{sign}{:02}:{:02}", m / 60, m % 60)
    }
}

/// Spec: reference "Global dates and times" (seed 002 §2.4.4.3 "UTC dates
/// and times", §2.4.4.1 "datetime"): a date and time as written, with the
/// time-zone offset it was written in. [`GlobalDateTime::to_utc`] gives the
/// moment in UTC that the parsing rules return.
///
/// ```
/// let g = microsyntax::parse_global_date_time("1979-10-14T12:00:00.001-04:00")?;
/// assert_eq!(g.to_utc().to_string(), "1979-10-14T16:00:00.001");
/// assert_eq!(g.to_normalized_string(), "1979-10-14T16:00:00.001Z");
/// # Ok::<(), microsyntax::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct GlobalDateTime {
    local: LocalDateTime,
    offset: TimeZoneOffset,
}

impl GlobalDateTime {
    /// A date and time in the given offset.
    pub const fn new(date: Date, time: Time, offset: TimeZoneOffset) -> Self {
        Self {
            local: LocalDateTime { date, time },
            offset,
        }
    }

    /// The date as written.
    pub const fn date(&self) -> Date {
        self.local.date
    }

    /// The time as written.
    pub const fn time(&self) -> Time {
        self.local.time
    }

    /// The time-zone offset.
    pub const fn offset(&self) -> TimeZoneOffset {
        self.offset
    }

    /// The moment in UTC: the date and time minus the offset. Its year may
    /// be one less (or more) than the written one, e.g. year 0.
    pub const fn to_utc(&self) -> LocalDateTime {
        self.local.shifted(-(self.offset.total_minutes as i32))
    }

    /// Spec: reference "valid normalized global date and time string": the
    /// UTC date, `T`, the shortest UTC time, `Z`. (Valid when the UTC year is
    /// 1 or more.)
    pub fn to_normalized_string(&self) -> String {
        format!("{}Z", self.to_utc())
    }
}

/// Two global dates and times are compared as moments: the same instant
/// written in different offsets compares equal in ordering.
impl PartialOrd for GlobalDateTime {
    fn partial_cmp(&self, other: &Self) -> Option<core::cmp::Ordering> {
        Some(
            self.to_utc()
                .cmp(&other.to_utc())
                .then(self.offset.cmp(&other.offset)),
        )
    }
}

/// Writes a valid global date and time string as written: the date, `T`,
/// the shortest time and the offset.
impl fmt::Display for GlobalDateTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.local, self.offset)
    }
}

/// Spec: reference "Weeks" (seed 002 §2.4.4.7): a week-year and a week
/// number, 1 to 52 or 53.
///
/// ```
/// let w = microsyntax::parse_week("2004-W53")?;
/// assert_eq!((w.year(), w.week()), (2004, 53));
/// assert!(microsyntax::parse_week("2005-W53").is_err());
/// # Ok::<(), microsyntax::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Week {
    year: i32,
    week: u8,
}

impl Week {
    /// A week, if `week` is between 1 and the number of weeks of the year.
    pub const fn new(year: i32, week: u8) -> Option<Self> {
        if week >= 1 && week <= weeks_in_year(year) {
            Some(Self { year, week })
        } else {
            None
        }
    }

    /// The week-year.
    pub const fn year(&self) -> i32 {
        self.year
    }

    /// The week number.
    pub const fn week(&self) -> u8 {
        self.week
    }
}

/// Writes the valid week string `YYYY-Www`.
impl fmt::Display for Week {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_year(f, self.year)?;
        write!(f, "-W{:02}", self.week)
    }
}

/// What the reference's "parse a date or time string" returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DateOrTime {
    /// A date alone.
    Date(Date),
    /// A time alone.
    Time(Time),
    /// A date, time and offset.
    GlobalDateTime(GlobalDateTime),
}

/// Writes the corresponding valid string.
impl fmt::Display for DateOrTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Date(d) => d.fmt(f),
            Self::Time(t) => t.fmt(f),
            Self::GlobalDateTime(g) => g.fmt(f),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constructors_check_ranges() {
        assert!(Month::new(1, 0).is_none());
        assert!(Month::new(1, 13).is_none());
        assert!(Date::new(2000, 2, 29).is_some());
        assert!(Date::new(1900, 2, 29).is_none());
        assert!(Date::new(2000, 4, 31).is_none());
        assert!(Date::new(2000, 1, 0).is_none());
        assert!(YearlessDate::new(2, 29).is_some());
        assert!(YearlessDate::new(2, 30).is_none());
        assert!(Time::new(24, 0, 0, 0).is_none());
        assert!(Time::new(0, 60, 0, 0).is_none());
        assert!(Time::new(0, 0, 60, 0).is_none());
        assert!(Time::new(0, 0, 0, 1_000_000_000).is_none());
        assert!(TimeZoneOffset::new(24, 0).is_none());
        assert!(TimeZoneOffset::new(1, -1).is_none());
        assert!(TimeZoneOffset::new(-1, 1).is_none());
        assert!(TimeZoneOffset::new(0, -30).is_some());
        assert!(Week::new(2005, 53).is_none());
        assert!(Week::new(2005, 0).is_none());
    }

    #[test]
    fn display() {
        assert_eq!(Date::new(33, 3, 3).unwrap().to_string(), "0033-03-03");
        assert_eq!(Date::new(12345, 1, 1).unwrap().to_string(), "12345-01-01");
        assert_eq!(Date::new(-1, 12, 31).unwrap().to_string(), "-0001-12-31");
        assert_eq!(Time::new(7, 5, 0, 0).unwrap().to_string(), "07:05");
        assert_eq!(Time::new(7, 5, 9, 0).unwrap().to_string(), "07:05:09");
        assert_eq!(
            Time::new(7, 5, 0, 500_000_000).unwrap().to_string(),
            "07:05:00.5"
        );
        assert_eq!(
            Time::new(7, 5, 0, 1).unwrap().to_string(),
            "07:05:00.000000001"
        );
        assert_eq!(TimeZoneOffset::new(0, -30).unwrap().to_string(), "-00:30");
        assert_eq!(TimeZoneOffset::UTC.to_string(), "Z");
        assert_eq!(Week::new(2004, 1).unwrap().to_string(), "2004-W01");
    }

    #[test]
    fn shifting_crosses_days_months_years() {
        let t = |h, m| Time::new(h, m, 0, 0).unwrap();
        let d = |y, mo, da| Date::new(y, mo, da).unwrap();
        let g = GlobalDateTime::new(
            d(2000, 12, 31),
            t(23, 30),
            TimeZoneOffset::new(-1, 0).unwrap(),
        );
        assert_eq!(g.to_utc(), LocalDateTime::new(d(2001, 1, 1), t(0, 30)));
        let g = GlobalDateTime::new(d(2000, 3, 1), t(0, 30), TimeZoneOffset::new(1, 0).unwrap());
        assert_eq!(g.to_utc(), LocalDateTime::new(d(2000, 2, 29), t(23, 30)));
        let g = GlobalDateTime::new(d(1, 1, 1), t(0, 0), TimeZoneOffset::new(23, 59).unwrap());
        assert_eq!(g.to_utc(), LocalDateTime::new(d(0, 12, 31), t(0, 1)));
        assert_eq!(g.to_normalized_string(), "0000-12-31T00:01Z");
    }

    #[test]
    fn seconds_as_float() {
        assert_eq!(
            Time::new(0, 0, 45, 456_000_000).unwrap().seconds_f64(),
            45.456
        );
        assert_eq!(Time::new(0, 0, 0, 1_000_000).unwrap().seconds_f64(), 0.001);
    }
}
