//! Calendar arithmetic in the proleptic Gregorian calendar: leap years, the
//! number of days in a month (seed 002 §2.4.4) and the number of weeks in a
//! week-year (reference "Weeks"). All functions are total for every `i32`.

/// Whether `year` is a Gregorian leap year: divisible by 400, or by 4 but
/// not by 100 (seed 002 §2.4.4). Year 0 (1 BC) is a leap year.
///
/// ```
/// assert!(microsyntax::is_leap_year(2000));
/// assert!(!microsyntax::is_leap_year(1900));
/// assert!(microsyntax::is_leap_year(2024));
/// ```
pub const fn is_leap_year(year: i32) -> bool {
    year.rem_euclid(400) == 0 || (year.rem_euclid(4) == 0 && year.rem_euclid(100) != 0)
}

/// Spec: seed 002 §2.4.4 "the number of days in month month of year year":
/// 31, 30, or for February 29 in leap years and 28 otherwise. Returns 0 for
/// a month outside 1–12.
///
/// ```
/// assert_eq!(microsyntax::days_in_month(2004, 2), 29);
/// assert_eq!(microsyntax::days_in_month(2100, 2), 28);
/// assert_eq!(microsyntax::days_in_month(2005, 4), 30);
/// ```
pub const fn days_in_month(year: i32, month: u8) -> u8 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if is_leap_year(year) => 29,
        2 => 28,
        _ => 0,
    }
}

/// The day of the week of January 1st of `year`: 0 = Sunday … 6 = Saturday
/// (Gauss's formula, with Euclidean remainders so that it holds for every
/// year).
pub(crate) const fn january_first_weekday(year: i32) -> u8 {
    let y = year as i64 - 1;
    let w = 1 + 5 * y.rem_euclid(4) + 4 * y.rem_euclid(100) + 6 * y.rem_euclid(400);
    w.rem_euclid(7) as u8
}

/// Spec: reference "Weeks": the week number of the last day of week-year
/// `year`, 53 if January 1st is a Thursday, or a Wednesday in a leap year,
/// and 52 otherwise (ISO 8601 weeks).
///
/// ```
/// assert_eq!(microsyntax::weeks_in_year(2004), 53); // starts on a Thursday
/// assert_eq!(microsyntax::weeks_in_year(2020), 53); // a leap year starting on a Wednesday
/// assert_eq!(microsyntax::weeks_in_year(2019), 52);
/// ```
pub const fn weeks_in_year(year: i32) -> u8 {
    match january_first_weekday(year) {
        4 => 53,
        3 if is_leap_year(year) => 53,
        _ => 52,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_in_every_month() {
        let common = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
        for (m, &d) in (1..=12).zip(common.iter()) {
            assert_eq!(days_in_month(2001, m), d);
        }
        assert_eq!(days_in_month(2001, 0), 0);
        assert_eq!(days_in_month(2001, 13), 0);
        assert_eq!(days_in_month(0, 2), 29);
        assert_eq!(days_in_month(-4, 2), 29);
        assert_eq!(days_in_month(i32::MAX, 2), 28);
    }

    #[test]
    fn weekdays() {
        assert_eq!(january_first_weekday(2000), 6); // Saturday
        assert_eq!(january_first_weekday(1970), 4); // Thursday
        assert_eq!(january_first_weekday(1), 1); // Monday
        assert_eq!(january_first_weekday(2026), 4);
        // A 400-year cycle has a whole number of weeks.
        for y in [1, 1582, 1999, 2024] {
            assert_eq!(january_first_weekday(y), january_first_weekday(y + 400));
        }
    }

    #[test]
    fn long_years() {
        // ISO years with 53 weeks between 2000 and 2040.
        let long: Vec<i32> = (2000..=2040).filter(|&y| weeks_in_year(y) == 53).collect();
        assert_eq!(long, [2004, 2009, 2015, 2020, 2026, 2032, 2037]);
        assert_eq!(weeks_in_year(1970), 53);
    }
}
