//! The reference's parsing rules for months, dates, yearless dates, times,
//! floating (local) dates and times, time-zone offsets, global dates and
//! times, weeks and "date or time" strings, and the matching "valid …
//! string" checks. They fill seed 002's placeholders §2.4.4.3–§2.4.4.8.
//!
//! The parsers follow the reference's steps: they accept a little more than
//! the valid syntax (any number of fraction digits in the seconds), which
//! the `is_valid_*` functions reject. None of them allocates.
//!
//! Years: the valid strings follow the living standard (WHATWG HTML, as of
//! 2024), which asks for "four or more ASCII digits, representing year,
//! where year > 0" in months, dates, floating and global dates and times,
//! and week-years; HTML 5.2 (the reference) had "four or more" for the
//! parsers but the same wording in the syntax, and this crate used to read
//! the syntax as exactly four digits. So `20133-12` is a valid month string
//! and `12014-09-29` a valid date string. Years above [`MAX_YEAR`] are this
//! crate's limit: the parsers return [`ErrorKind::Overflow`] and the
//! validity checks say no.

use core::fmt::{self, Write as _};

use super::types::{
    Date, DateOrTime, GlobalDateTime, LocalDateTime, MAX_YEAR, Month, Time, TimeZoneOffset, Week,
    YearlessDate,
};
use crate::error::{Component, Error, ErrorKind};
use crate::idioms::Cursor;
use crate::integers::{digits_to_u32_saturating, digits_to_u64};

/// Collects exactly two ASCII digits (as "collect a sequence of characters
/// that are ASCII digits … not exactly two characters long, then fail").
pub(crate) fn two_digits(cursor: &mut Cursor<'_>, component: Component) -> Result<u8, Error> {
    let start = cursor.position();
    let digits = cursor.collect_digits();
    match digits.as_bytes() {
        [a, b] => Ok((a - b'0') * 10 + (b - b'0')),
        [] => Err(cursor.expected("an ASCII digit")),
        _ => Err(Error::new(ErrorKind::DigitCount(component), start)),
    }
}

/// Advances past `c` or fails with "expected `what`".
pub(crate) fn expect(cursor: &mut Cursor<'_>, c: char, what: &'static str) -> Result<(), Error> {
    if cursor.eat(c) {
        Ok(())
    } else {
        Err(cursor.expected(what))
    }
}

/// The year of "at least four" collected digits, or an error.
fn year_of(digits: &str, start: usize) -> Result<i32, Error> {
    if digits.len() < 4 {
        return Err(Error::new(ErrorKind::DigitCount(Component::Year), start));
    }
    digits_to_u64(digits)
        .and_then(|y| i32::try_from(y).ok())
        .filter(|&y| y <= MAX_YEAR)
        .ok_or(Error::new(ErrorKind::Overflow, start))
}

/// Spec: reference "parse a month component", steps 1–6.
pub(crate) fn month_component(cursor: &mut Cursor<'_>) -> Result<Month, Error> {
    // Step 1. At least four digits of year.
    let start = cursor.position();
    let year = year_of(cursor.collect_digits(), start)?;
    // Step 2. The year is greater than zero.
    if year == 0 {
        return Err(Error::new(ErrorKind::OutOfRange(Component::Year), start));
    }
    // Step 3.
    expect(cursor, '-', "U+002D HYPHEN-MINUS (-)")?;
    // Step 4.
    let month_start = cursor.position();
    let month = two_digits(cursor, Component::Month)?;
    // Step 5.
    Month::new(year, month).ok_or(Error::new(
        ErrorKind::OutOfRange(Component::Month),
        month_start,
    ))
}

/// Spec: reference "parse a date component", steps 1–6.
pub(crate) fn date_component(cursor: &mut Cursor<'_>) -> Result<Date, Error> {
    // Step 1.
    let month = month_component(cursor)?;
    // Step 2 is in `Date::new`: maxday.
    // Step 3.
    expect(cursor, '-', "U+002D HYPHEN-MINUS (-)")?;
    // Step 4.
    let day_start = cursor.position();
    let day = two_digits(cursor, Component::Day)?;
    // Step 5.
    Date::new(month.year(), month.month(), day)
        .ok_or(Error::new(ErrorKind::OutOfRange(Component::Day), day_start))
}

/// Spec: reference "parse a yearless date component", steps 1–8.
fn yearless_date_component(cursor: &mut Cursor<'_>) -> Result<YearlessDate, Error> {
    // Step 1. Zero or two hyphens.
    let start = cursor.position();
    if !matches!(cursor.collect_bytes(|b| b == b'-').len(), 0 | 2) {
        return Err(Error::new(
            ErrorKind::Expected("zero or two U+002D HYPHEN-MINUS (-)"),
            start,
        ));
    }
    // Steps 2–3.
    let month_start = cursor.position();
    let month = two_digits(cursor, Component::Month)?;
    if !(1..=12).contains(&month) {
        return Err(Error::new(
            ErrorKind::OutOfRange(Component::Month),
            month_start,
        ));
    }
    // Step 5.
    expect(cursor, '-', "U+002D HYPHEN-MINUS (-)")?;
    // Steps 4, 6–7. maxday of a leap year.
    let day_start = cursor.position();
    let day = two_digits(cursor, Component::Day)?;
    YearlessDate::new(month, day)
        .ok_or(Error::new(ErrorKind::OutOfRange(Component::Day), day_start))
}

/// Splits a seconds string (digits with at most one `.`) into whole seconds
/// (saturating) and nanoseconds (further digits dropped).
pub(crate) fn seconds_of(s: &str) -> (u32, u32) {
    let (whole, fraction) = s.split_once('.').unwrap_or((s, ""));
    (digits_to_u32_saturating(whole), fraction_nanos(fraction))
}

/// The nanoseconds of the fraction `0.<digits>` (digits past the ninth are
/// dropped).
pub(crate) fn fraction_nanos(digits: &str) -> u32 {
    let mut nanos = 0u32;
    let mut scale = 100_000_000u32;
    for b in digits.bytes().take(9) {
        nanos += u32::from(b.wrapping_sub(b'0')) * scale;
        scale /= 10;
    }
    nanos
}

/// Spec: reference "parse a time component", steps 1–10.
pub(crate) fn time_component(cursor: &mut Cursor<'_>) -> Result<Time, Error> {
    // Steps 1–2.
    let hour_start = cursor.position();
    let hour = two_digits(cursor, Component::Hour)?;
    if hour > 23 {
        return Err(Error::new(
            ErrorKind::OutOfRange(Component::Hour),
            hour_start,
        ));
    }
    // Step 3.
    expect(cursor, ':', "U+003A COLON (:)")?;
    // Steps 4–5.
    let minute_start = cursor.position();
    let minute = two_digits(cursor, Component::Minute)?;
    if minute > 59 {
        return Err(Error::new(
            ErrorKind::OutOfRange(Component::Minute),
            minute_start,
        ));
    }
    // Step 6.
    let mut second = "0";
    let second_start = cursor.position();
    // Step 7.
    if cursor.eat(':') {
        // Step 7.2. Two digits must follow.
        let two = cursor.peek_byte().is_some_and(|b| b.is_ascii_digit())
            && cursor.peek_byte_at(1).is_some_and(|b| b.is_ascii_digit());
        if !two {
            return Err(cursor.expected("two ASCII digits"));
        }
        // Step 7.3.
        let start = cursor.position();
        let s = cursor.collect_bytes(|b| b.is_ascii_digit() || b == b'.');
        let bad = s.len() == 3
            || (s.len() > 3 && s.as_bytes().get(2) != Some(&b'.'))
            || s.bytes().filter(|&b| b == b'.').count() > 1;
        if bad {
            return Err(Error::new(ErrorKind::DigitCount(Component::Second), start));
        }
        second = s;
    }
    // Steps 8–9.
    let (whole, nanos) = seconds_of(second);
    let whole = u8::try_from(whole).unwrap_or(u8::MAX);
    // Step 10.
    Time::new(hour, minute, whole, nanos).ok_or(Error::new(
        ErrorKind::OutOfRange(Component::Second),
        second_start,
    ))
}

/// Spec: reference "parse a time-zone offset component", steps 1–2.
pub(crate) fn time_zone_offset_component(cursor: &mut Cursor<'_>) -> Result<TimeZoneOffset, Error> {
    // Step 1. `Z`.
    if cursor.eat('Z') {
        return Ok(TimeZoneOffset::UTC);
    }
    // Otherwise `+` or `-`.
    let negative = match cursor.peek_byte() {
        Some(b'+') => false,
        Some(b'-') => true,
        _ => return Err(cursor.expected("Z, U+002B PLUS SIGN (+) or U+002D HYPHEN-MINUS (-)")),
    };
    // Steps 1.1–1.2.
    cursor.advance();
    // Steps 1.3–1.4. Two digits and `:` and two digits, or four digits.
    let start = cursor.position();
    let s = cursor.collect_digits();
    let value = |d: &[u8]| d.iter().fold(0u8, |v, b| v * 10 + (b - b'0'));
    let (hours, minutes, minutes_start) = match s.as_bytes() {
        [a, b] => {
            let hours = value(&[*a, *b]);
            expect(cursor, ':', "U+003A COLON (:)")?;
            let minutes_start = cursor.position();
            (
                hours,
                two_digits(cursor, Component::OffsetMinutes)?,
                minutes_start,
            )
        }
        [a, b, c, d] => (value(&[*a, *b]), value(&[*c, *d]), start + 2),
        [] => return Err(cursor.expected("an ASCII digit")),
        _ => {
            return Err(Error::new(
                ErrorKind::DigitCount(Component::OffsetHours),
                start,
            ));
        }
    };
    // Step 1.5.
    if hours > 23 {
        return Err(Error::new(
            ErrorKind::OutOfRange(Component::OffsetHours),
            start,
        ));
    }
    // Step 1.7.
    if minutes > 59 {
        return Err(Error::new(
            ErrorKind::OutOfRange(Component::OffsetMinutes),
            minutes_start,
        ));
    }
    // Steps 1.6 and 1.8. The sign applies to both.
    let (h, m) = (hours as i8, minutes as i8);
    let offset = if negative {
        TimeZoneOffset::new(-h, -m)
    } else {
        TimeZoneOffset::new(h, m)
    };
    offset.ok_or(Error::new(
        ErrorKind::OutOfRange(Component::OffsetHours),
        start,
    ))
}

/// "If position is not beyond the end of input, then fail."
fn end(cursor: &Cursor<'_>) -> Result<(), Error> {
    if cursor.is_at_end() {
        Ok(())
    } else {
        Err(cursor.error(ErrorKind::TrailingCharacters))
    }
}

/// Steps 1–5 of the whole-string algorithms: run `component`, then require
/// the end of the input.
fn whole<T>(
    input: &str,
    component: impl FnOnce(&mut Cursor<'_>) -> Result<T, Error>,
) -> Result<T, Error> {
    let mut cursor = Cursor::new(input);
    let value = component(&mut cursor)?;
    end(&cursor)?;
    Ok(value)
}

/// Spec: reference "parse a month string" (seed 002 §2.4.4.6 placeholder).
///
/// ```
/// use microsyntax::parse_month;
/// assert_eq!(parse_month("0033-03").map(|m| m.year()), Ok(33));
/// assert!(parse_month("325-03").is_err()); // not four digits
/// assert!(parse_month("2005-13").is_err());
/// ```
pub fn parse_month(input: &str) -> Result<Month, Error> {
    whole(input, month_component)
}

/// Spec: reference "parse a date string" (seed 002 §2.4.4.5 placeholder).
///
/// ```
/// use microsyntax::parse_date;
/// assert_eq!(parse_date("2016-02-29")?.to_string(), "2016-02-29");
/// assert!(parse_date("2015-02-29").is_err());
/// assert!(parse_date("2016-02-29 ").is_err());
/// # Ok::<(), microsyntax::Error>(())
/// ```
pub fn parse_date(input: &str) -> Result<Date, Error> {
    whole(input, date_component)
}

/// Spec: reference "parse a yearless date string".
///
/// ```
/// use microsyntax::parse_yearless_date;
/// assert_eq!(parse_yearless_date("02-29").map(|d| d.day()), Ok(29));
/// assert!(parse_yearless_date("-02-29").is_err());
/// ```
pub fn parse_yearless_date(input: &str) -> Result<YearlessDate, Error> {
    whole(input, yearless_date_component)
}

/// Spec: reference "parse a time string" (seed 002 §2.4.4.8 placeholder).
///
/// ```
/// use microsyntax::parse_time;
/// assert_eq!(parse_time("19:45")?.second(), 0);
/// assert_eq!(parse_time("00:00:05.123456")?.nanosecond(), 123_456_000);
/// assert!(parse_time("24:00").is_err());
/// # Ok::<(), microsyntax::Error>(())
/// ```
pub fn parse_time(input: &str) -> Result<Time, Error> {
    whole(input, time_component)
}

/// Spec: reference "parse a floating date and time string" (seed 002
/// §2.4.4.4 "local date and time" placeholder): a date, `T` or a space, and
/// a time.
///
/// ```
/// use microsyntax::parse_local_date_time;
/// let dt = parse_local_date_time("1985-04-12T23:20:50.52")?;
/// assert_eq!(dt.time().nanosecond(), 520_000_000);
/// # Ok::<(), microsyntax::Error>(())
/// ```
pub fn parse_local_date_time(input: &str) -> Result<LocalDateTime, Error> {
    whole(input, |cursor| {
        // Step 3.
        let date = date_component(cursor)?;
        // Step 4.
        if !(cursor.eat('T') || cursor.eat(' ')) {
            return Err(cursor.expected("U+0054 LATIN CAPITAL LETTER T or U+0020 SPACE"));
        }
        // Step 5.
        let time = time_component(cursor)?;
        Ok(LocalDateTime::new(date, time))
    })
}

/// Spec: reference "parse a time-zone offset string".
///
/// ```
/// use microsyntax::parse_time_zone_offset;
/// assert_eq!(parse_time_zone_offset("Z").map(|o| o.total_minutes()), Ok(0));
/// assert_eq!(parse_time_zone_offset("+05:30").map(|o| o.total_minutes()), Ok(330));
/// assert!(parse_time_zone_offset("+5:30").is_err());
/// ```
pub fn parse_time_zone_offset(input: &str) -> Result<TimeZoneOffset, Error> {
    whole(input, time_zone_offset_component)
}

/// Spec: reference "parse a global date and time string" (seed 002
/// §2.4.4.3 placeholder), steps 1–11. The result keeps the date and time as
/// written with their offset; [`GlobalDateTime::to_utc`] is the UTC moment.
///
/// ```
/// use microsyntax::parse_global_date_time;
/// let g = parse_global_date_time("8592-01-01T02:09+02:09")?;
/// assert_eq!(g.to_normalized_string(), "8592-01-01T00:00Z"); // midnight UTC
/// assert!(parse_global_date_time("2001-12-21  12:00Z").is_err()); // two spaces
/// # Ok::<(), microsyntax::Error>(())
/// ```
pub fn parse_global_date_time(input: &str) -> Result<GlobalDateTime, Error> {
    whole(input, |cursor| {
        // Step 3.
        let date = date_component(cursor)?;
        // Step 4.
        if !(cursor.eat('T') || cursor.eat(' ')) {
            return Err(cursor.expected("U+0054 LATIN CAPITAL LETTER T or U+0020 SPACE"));
        }
        // Step 5.
        let time = time_component(cursor)?;
        // Step 6.
        if cursor.is_at_end() {
            return Err(cursor.error(ErrorKind::UnexpectedEnd));
        }
        // Step 7.
        let offset = time_zone_offset_component(cursor)?;
        // Steps 9–11.
        Ok(GlobalDateTime::new(date, time, offset))
    })
}

/// Spec: reference "parse a week string" (seed 002 §2.4.4.7 placeholder),
/// steps 1–11.
///
/// ```
/// use microsyntax::parse_week;
/// assert_eq!(parse_week("2020-W53").map(|w| w.week()), Ok(53));
/// assert!(parse_week("2019-W53").is_err());
/// assert!(parse_week("2019-w01").is_err());
/// ```
pub fn parse_week(input: &str) -> Result<Week, Error> {
    let mut cursor = Cursor::new(input);
    // Step 3.
    let start = cursor.position();
    let year = year_of(cursor.collect_digits(), start)?;
    // Step 4.
    if year == 0 {
        return Err(Error::new(ErrorKind::OutOfRange(Component::Year), start));
    }
    // Steps 5–6.
    expect(&mut cursor, '-', "U+002D HYPHEN-MINUS (-)")?;
    expect(&mut cursor, 'W', "U+0057 LATIN CAPITAL LETTER W")?;
    // Step 7.
    let week_start = cursor.position();
    let week = two_digits(&mut cursor, Component::Week)?;
    // Steps 8–9.
    let week = Week::new(year, week).ok_or(Error::new(
        ErrorKind::OutOfRange(Component::Week),
        week_start,
    ))?;
    // Step 10.
    end(&cursor)?;
    Ok(week)
}

/// Spec: reference "parse a date or time string" (used for `ins`/`del`
/// `datetime` and `time`), steps 1–11: a date, a time, or a date, time and
/// offset.
///
/// ```
/// use microsyntax::{parse_date_or_time, DateOrTime};
/// assert!(matches!(parse_date_or_time("2011-11-18"), Ok(DateOrTime::Date(_))));
/// assert!(matches!(parse_date_or_time("14:54"), Ok(DateOrTime::Time(_))));
/// assert!(matches!(parse_date_or_time("2011-11-18T14:54Z"), Ok(DateOrTime::GlobalDateTime(_))));
/// assert!(parse_date_or_time("2011-11-18T14:54").is_err()); // a date and time need an offset
/// ```
pub fn parse_date_or_time(input: &str) -> Result<DateOrTime, Error> {
    // Steps 1–3.
    let mut cursor = Cursor::new(input);
    let start = cursor.position();
    // Steps 4–5.
    let date = date_component(&mut cursor).ok();
    let mut time_present = true;
    // Step 6.
    if date.is_some() {
        if !(cursor.eat('T') || cursor.eat(' ')) {
            time_present = false;
        }
    } else {
        cursor.set_position(start);
    }
    // Step 7.
    let time = if time_present {
        Some(time_component(&mut cursor)?)
    } else {
        None
    };
    let value = match (date, time) {
        (Some(date), Some(time)) => {
            // Step 8.
            if cursor.is_at_end() {
                return Err(cursor.error(ErrorKind::UnexpectedEnd));
            }
            // Step 9.
            let offset = time_zone_offset_component(&mut cursor)?;
            DateOrTime::GlobalDateTime(GlobalDateTime::new(date, time, offset))
        }
        (Some(date), None) => DateOrTime::Date(date),
        (None, Some(time)) => DateOrTime::Time(time),
        // Unreachable: without a date, the time is always parsed.
        (None, None) => return Err(cursor.error(ErrorKind::UnexpectedEnd)),
    };
    // Step 10.
    end(&cursor)?;
    // Step 11.
    Ok(value)
}

/// Whether `value` writes exactly `expected`, without allocating.
pub(crate) fn displays_as(value: &impl fmt::Display, expected: &str) -> bool {
    struct Compare<'a> {
        rest: &'a str,
        ok: bool,
    }
    impl fmt::Write for Compare<'_> {
        fn write_str(&mut self, s: &str) -> fmt::Result {
            match self.rest.strip_prefix(s) {
                Some(rest) => self.rest = rest,
                None => self.ok = false,
            }
            Ok(())
        }
    }
    let mut c = Compare {
        rest: expected,
        ok: true,
    };
    write!(c, "{value}").is_ok() && c.ok && c.rest.is_empty()
}

/// Spec: living standard "valid month string": four or more digits of year
/// (≥ 1, at most [`MAX_YEAR`] here), `-`, two digits of month (1–12).
///
/// ```
/// assert!(microsyntax::is_valid_month_string("2005-02"));
/// assert!(microsyntax::is_valid_month_string("20133-12"));
/// assert!(!microsyntax::is_valid_month_string("205-02"));
/// assert!(!microsyntax::is_valid_month_string("0000-02"));
/// ```
pub fn is_valid_month_string(s: &str) -> bool {
    s.len() == year_len(s) + 3 && parse_month(s).is_ok()
}

/// Spec: living standard "valid date string": a valid month string (four
/// or more digits of year), `-`, two digits of day (1 to the days of that
/// month).
///
/// ```
/// assert!(microsyntax::is_valid_date_string("0033-03-27"));
/// assert!(microsyntax::is_valid_date_string("12014-09-29"));
/// assert!(!microsyntax::is_valid_date_string("325-03-03"));
/// ```
pub fn is_valid_date_string(s: &str) -> bool {
    s.len() == year_len(s) + 6 && parse_date(s).is_ok()
}

/// Spec: reference "valid yearless date string": optionally `--`, then
/// `MM-DD` (February 29 allowed).
///
/// ```
/// assert!(microsyntax::is_valid_yearless_date_string("--02-29"));
/// assert!(!microsyntax::is_valid_yearless_date_string("02-30"));
/// ```
pub fn is_valid_yearless_date_string(s: &str) -> bool {
    parse_yearless_date(s).is_ok()
}

/// Spec: reference "valid time string": `HH:MM`, optionally `:SS`, and
/// optionally `.` with one to three digits.
///
/// ```
/// assert!(microsyntax::is_valid_time_string("19:45:45.456"));
/// assert!(!microsyntax::is_valid_time_string("19:45:45.4567"));
/// assert!(!microsyntax::is_valid_time_string("19:45:45."));
/// ```
pub fn is_valid_time_string(s: &str) -> bool {
    s.len() <= 12 && parse_time(s).is_ok()
}

/// The number of ASCII digits `s` starts with: the length of a year.
fn year_len(s: &str) -> usize {
    s.bytes().take_while(u8::is_ascii_digit).count()
}

/// Splits `date SEP rest` where the date is a year (four or more digits)
/// and six more bytes (`-MM-DD`).
fn split_date(s: &str) -> Option<(&str, u8, &str)> {
    let date_len = year_len(s).checked_add(6)?;
    let date = s.get(..date_len)?;
    let sep = *s.as_bytes().get(date_len)?;
    Some((date, sep, s.get(date_len + 1..)?))
}

/// Spec: reference "valid floating date and time string" (seed 002
/// §2.4.4.4 "valid local date and time string"): a valid date string, `T`
/// or a space, a valid time string.
///
/// ```
/// assert!(microsyntax::is_valid_local_date_time_string("2004-12-31 23:59:59.999"));
/// assert!(!microsyntax::is_valid_local_date_time_string("2004-12-31t23:59"));
/// ```
pub fn is_valid_local_date_time_string(s: &str) -> bool {
    split_date(s).is_some_and(|(date, sep, time)| {
        matches!(sep, b'T' | b' ') && is_valid_date_string(date) && is_valid_time_string(time)
    })
}

/// Spec: reference "valid normalized floating date and time string": a
/// valid date string, `T`, and the shortest valid time string for the time.
///
/// ```
/// use microsyntax::is_valid_normalized_local_date_time_string as normalized;
/// assert!(normalized("2004-12-31T23:59"));
/// assert!(!normalized("2004-12-31T23:59:00"));
/// assert!(!normalized("2004-12-31 23:59"));
/// ```
pub fn is_valid_normalized_local_date_time_string(s: &str) -> bool {
    split_date(s).is_some_and(|(date, sep, time)| {
        sep == b'T'
            && is_valid_date_string(date)
            && is_valid_time_string(time)
            && parse_time(time).is_ok_and(|t| displays_as(&t, time))
    })
}

/// Spec: reference "valid time-zone offset string": `Z`, or `+` (or `-` for
/// a non-zero offset), two digits of hours (0–23), an optional `:`, and two
/// digits of minutes (0–59).
///
/// ```
/// use microsyntax::is_valid_time_zone_offset_string as valid;
/// assert!(valid("Z") && valid("+00:00") && valid("-0800"));
/// assert!(!valid("-00:00"));
/// assert!(!valid("+24:00"));
/// ```
pub fn is_valid_time_zone_offset_string(s: &str) -> bool {
    match parse_time_zone_offset(s) {
        Ok(o) => !(s.starts_with('-') && o.total_minutes() == 0),
        Err(_) => false,
    }
}

/// Spec: reference "valid global date and time string": a valid date
/// string, `T` or a space, a valid time string, a valid time-zone offset
/// string.
///
/// ```
/// use microsyntax::is_valid_global_date_time_string as valid;
/// assert!(valid("0037-12-13 00:00Z"));
/// assert!(valid("1979-10-14T12:00:00.001-04:00"));
/// assert!(!valid("1979-10-14T12:00:00.001"));
/// ```
pub fn is_valid_global_date_time_string(s: &str) -> bool {
    split_date(s).is_some_and(|(date, sep, rest)| {
        let Some(at) = rest.find(['Z', '+', '-']) else {
            return false;
        };
        let (time, offset) = rest.split_at(at);
        matches!(sep, b'T' | b' ')
            && is_valid_date_string(date)
            && is_valid_time_string(time)
            && is_valid_time_zone_offset_string(offset)
    })
}

/// Spec: reference "valid normalized global date and time string": a date
/// and time already in UTC: the date, `T`, the shortest time, `Z`.
///
/// ```
/// use microsyntax::is_valid_normalized_global_date_time_string as valid;
/// assert!(valid("1979-10-14T16:00:00.001Z"));
/// assert!(!valid("1979-10-14T12:00:00.001-04:00"));
/// assert!(!valid("1979-10-14T16:00:00Z"));
/// ```
pub fn is_valid_normalized_global_date_time_string(s: &str) -> bool {
    s.strip_suffix('Z')
        .is_some_and(is_valid_normalized_local_date_time_string)
}

/// Spec: living standard "valid week string": four or more digits of
/// week-year (≥ 1), `-W`, two digits of week (1 to 52 or 53).
///
/// ```
/// assert!(microsyntax::is_valid_week_string("2004-W53"));
/// assert!(microsyntax::is_valid_week_string("12004-W01"));
/// assert!(!microsyntax::is_valid_week_string("2004-W54"));
/// ```
pub fn is_valid_week_string(s: &str) -> bool {
    s.len() == year_len(s) + 4 && parse_week(s).is_ok()
}

/// Spec: reference "valid date string with optional time": a valid date
/// string or a valid global date and time string.
///
/// ```
/// use microsyntax::is_valid_date_string_with_optional_time as valid;
/// assert!(valid("2011-11-18") && valid("2011-11-18T14:54:39.929-06:00"));
/// assert!(!valid("14:54"));
/// ```
pub fn is_valid_date_string_with_optional_time(s: &str) -> bool {
    is_valid_date_string(s) || is_valid_global_date_time_string(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ErrorKind::*;

    fn kind<T: core::fmt::Debug>(r: Result<T, Error>) -> ErrorKind {
        match r {
            Ok(v) => panic!("expected an error, got {v:?}"),
            Err(e) => e.kind(),
        }
    }

    #[test]
    fn month_steps() {
        assert_eq!(kind(parse_month("")), DigitCount(Component::Year));
        assert_eq!(kind(parse_month("325-03")), DigitCount(Component::Year)); // step 1
        assert_eq!(kind(parse_month("0000-03")), OutOfRange(Component::Year)); // step 2
        assert_eq!(kind(parse_month("2005")), UnexpectedEnd); // step 3
        assert_eq!(
            kind(parse_month("2005/03")),
            Expected("U+002D HYPHEN-MINUS (-)")
        );
        assert_eq!(kind(parse_month("2005-3")), DigitCount(Component::Month)); // step 4
        assert_eq!(kind(parse_month("2005-")), UnexpectedEnd);
        assert_eq!(kind(parse_month("2005-00")), OutOfRange(Component::Month)); // step 5
        assert_eq!(kind(parse_month("2005-02-")), TrailingCharacters);
        assert_eq!(parse_month("02005-02").map(|m| m.year()), Ok(2005)); // more than 4 digits parse
        assert_eq!(parse_month("2147483646-01").map(|m| m.year()), Ok(MAX_YEAR));
        assert_eq!(kind(parse_month("2147483647-01")), Overflow);
        assert_eq!(
            kind(parse_month(&format!("{}-01", "9".repeat(40)))),
            Overflow
        );
    }

    #[test]
    fn date_steps() {
        assert_eq!(kind(parse_date("2005-02")), UnexpectedEnd);
        assert_eq!(kind(parse_date("2005-02-1")), DigitCount(Component::Day));
        assert_eq!(kind(parse_date("2005-02-00")), OutOfRange(Component::Day));
        assert_eq!(kind(parse_date("2005-04-31")), OutOfRange(Component::Day));
        assert_eq!(kind(parse_date("1900-02-29")), OutOfRange(Component::Day));
        assert!(parse_date("2000-02-29").is_ok());
        assert_eq!(
            parse_date("1582-03-01").map(|d| d.to_string()),
            Ok("1582-03-01".into())
        );
    }

    #[test]
    fn yearless_steps() {
        assert!(parse_yearless_date("03-03").is_ok());
        assert!(parse_yearless_date("--03-03").is_ok());
        assert_eq!(
            kind(parse_yearless_date("---03-03")),
            Expected("zero or two U+002D HYPHEN-MINUS (-)")
        );
        assert_eq!(
            kind(parse_yearless_date("3-03")),
            DigitCount(Component::Month)
        );
        assert_eq!(
            kind(parse_yearless_date("13-01")),
            OutOfRange(Component::Month)
        );
        assert_eq!(kind(parse_yearless_date("02")), UnexpectedEnd);
        assert_eq!(
            kind(parse_yearless_date("04-31")),
            OutOfRange(Component::Day)
        );
        assert_eq!(kind(parse_yearless_date("02-29x")), TrailingCharacters);
    }

    #[test]
    fn time_steps() {
        assert_eq!(kind(parse_time("1:00")), DigitCount(Component::Hour)); // step 1
        assert_eq!(kind(parse_time("24:00")), OutOfRange(Component::Hour)); // step 2
        assert_eq!(kind(parse_time("12")), UnexpectedEnd); // step 3
        assert_eq!(kind(parse_time("12:6")), DigitCount(Component::Minute)); // step 4
        assert_eq!(kind(parse_time("12:60")), OutOfRange(Component::Minute)); // step 5
        assert_eq!(kind(parse_time("12:00:")), UnexpectedEnd); // step 7.2
        assert_eq!(kind(parse_time("12:00:5")), Expected("two ASCII digits"));
        assert_eq!(kind(parse_time("12:00:5x")), Expected("two ASCII digits"));
        assert_eq!(kind(parse_time("12:00:05.")), DigitCount(Component::Second)); // step 7.3
        assert_eq!(kind(parse_time("12:00:055")), DigitCount(Component::Second));
        assert_eq!(
            kind(parse_time("12:00:05.5.5")),
            DigitCount(Component::Second)
        );
        assert_eq!(kind(parse_time("12:00:60")), OutOfRange(Component::Second)); // step 9
        assert_eq!(kind(parse_time("12:00 ")), TrailingCharacters);
        assert_eq!(
            parse_time("12:00:59.9999999999").map(|t| t.nanosecond()),
            Ok(999_999_999)
        );
        assert_eq!(
            parse_time("23:59:59.1").map(|t| t.to_string()),
            Ok("23:59:59.1".into())
        );
    }

    #[test]
    fn offset_steps() {
        assert_eq!(kind(parse_time_zone_offset("")), UnexpectedEnd);
        assert_eq!(
            kind(parse_time_zone_offset("z")),
            Expected("Z, U+002B PLUS SIGN (+) or U+002D HYPHEN-MINUS (-)")
        );
        assert_eq!(kind(parse_time_zone_offset("+")), UnexpectedEnd);
        assert_eq!(
            kind(parse_time_zone_offset("+1")),
            DigitCount(Component::OffsetHours)
        );
        assert_eq!(
            kind(parse_time_zone_offset("+123")),
            DigitCount(Component::OffsetHours)
        );
        assert_eq!(kind(parse_time_zone_offset("+12")), UnexpectedEnd);
        assert_eq!(
            kind(parse_time_zone_offset("+12:3")),
            DigitCount(Component::OffsetMinutes)
        );
        assert_eq!(
            kind(parse_time_zone_offset("+24:00")),
            OutOfRange(Component::OffsetHours)
        );
        assert_eq!(
            kind(parse_time_zone_offset("+0060")),
            OutOfRange(Component::OffsetMinutes)
        );
        assert_eq!(kind(parse_time_zone_offset("Z ")), TrailingCharacters);
        assert_eq!(
            parse_time_zone_offset("-00:00").map(|o| o.total_minutes()),
            Ok(0)
        );
        assert_eq!(
            parse_time_zone_offset("-23:59").map(|o| o.total_minutes()),
            Ok(-1439)
        );
    }

    #[test]
    fn global_steps() {
        // The reference's three examples.
        let g = parse_global_date_time("0037-12-13 00:00Z").unwrap();
        assert_eq!(g.to_normalized_string(), "0037-12-13T00:00Z");
        let g = parse_global_date_time("1979-10-14T12:00:00.001-04:00").unwrap();
        assert_eq!((g.offset().hours(), g.offset().minutes()), (-4, 0));
        let g = parse_global_date_time("8592-01-01T02:09+02:09").unwrap();
        assert_eq!(g.to_utc().to_string(), "8592-01-01T00:00");
        // Failure branches.
        assert_eq!(
            kind(parse_global_date_time("37-12-13 00:00Z")),
            DigitCount(Component::Year)
        ); // step 3
        assert_eq!(kind(parse_global_date_time("2001-12-21")), UnexpectedEnd); // step 4
        assert_eq!(
            kind(parse_global_date_time("2001-12-21  12:00Z")),
            Expected("an ASCII digit")
        );
        assert_eq!(kind(parse_global_date_time("2001-12-21T12")), UnexpectedEnd); // step 5
        assert_eq!(
            kind(parse_global_date_time("2001-12-21T12:00")),
            UnexpectedEnd
        ); // step 6
        assert_eq!(
            kind(parse_global_date_time("2001-12-21T12:00 Z")),
            Expected("Z, U+002B PLUS SIGN (+) or U+002D HYPHEN-MINUS (-)")
        ); // step 7
        assert_eq!(
            kind(parse_global_date_time("2001-12-21T12:00ZZ")),
            TrailingCharacters
        ); // step 8
    }

    #[test]
    fn local_steps() {
        assert!(parse_local_date_time("2001-12-21 12:00").is_ok());
        assert_eq!(
            kind(parse_local_date_time("2001-12-21t12:00")),
            Expected("U+0054 LATIN CAPITAL LETTER T or U+0020 SPACE")
        );
        assert_eq!(
            kind(parse_local_date_time("2001-12-21T12:00Z")),
            TrailingCharacters
        );
    }

    #[test]
    fn week_steps() {
        assert_eq!(kind(parse_week("200-W01")), DigitCount(Component::Year));
        assert_eq!(kind(parse_week("0000-W01")), OutOfRange(Component::Year));
        assert_eq!(
            kind(parse_week("2004W01")),
            Expected("U+002D HYPHEN-MINUS (-)")
        );
        assert_eq!(
            kind(parse_week("2004-01")),
            Expected("U+0057 LATIN CAPITAL LETTER W")
        );
        assert_eq!(kind(parse_week("2004-W1")), DigitCount(Component::Week));
        assert_eq!(kind(parse_week("2004-W00")), OutOfRange(Component::Week));
        assert_eq!(kind(parse_week("2004-W54")), OutOfRange(Component::Week));
        assert_eq!(kind(parse_week("2004-W01-")), TrailingCharacters);
        assert!(parse_week("1970-W53").is_ok());
    }

    #[test]
    fn date_or_time_steps() {
        assert!(matches!(
            parse_date_or_time("2011-11-18 14:54Z"),
            Ok(DateOrTime::GlobalDateTime(_))
        ));
        assert_eq!(kind(parse_date_or_time("2011-11-18 ")), UnexpectedEnd); // step 7
        assert_eq!(kind(parse_date_or_time("2011-11-18T14:54")), UnexpectedEnd); // step 8
        assert_eq!(kind(parse_date_or_time("2011-11-18T14:54+")), UnexpectedEnd); // step 9
        assert_eq!(kind(parse_date_or_time("2011-11-18x")), TrailingCharacters); // step 10
        assert_eq!(kind(parse_date_or_time("14:54Z")), TrailingCharacters);
        assert_eq!(kind(parse_date_or_time("")), UnexpectedEnd);
        assert_eq!(
            kind(parse_date_or_time("2011-13-18")),
            DigitCount(Component::Hour)
        );
    }

    #[test]
    fn validity() {
        assert!(is_valid_time_string("00:00"));
        assert!(is_valid_time_string("00:00:00"));
        assert!(!is_valid_time_string("00:00:00.0000"));
        assert!(is_valid_normalized_local_date_time_string(
            "2000-01-01T00:00:00.5"
        ));
        assert!(!is_valid_normalized_local_date_time_string(
            "2000-01-01T00:00:00.50"
        ));
        assert!(is_valid_global_date_time_string("2000-01-01T00:00+0530"));
        assert!(!is_valid_global_date_time_string("2000-01-01T00:00-00:00"));
        assert!(!is_valid_global_date_time_string("2000-01-01T00:00Zx"));
        assert!(!is_valid_global_date_time_string("2000-01-01"));
        // Living standard: "four or more" digits of week-year, leading
        // zeros included (this crate used to require exactly four).
        assert!(is_valid_week_string("02004-W01"));
        assert!(!is_valid_week_string("204-W01"));
        assert!(!is_valid_local_date_time_string("é"));
        assert!(!is_valid_local_date_time_string("2000-01-01é00:00"));
        assert!(displays_as(&Time::new(1, 2, 0, 0).unwrap(), "01:02"));
        assert!(!displays_as(&Time::new(1, 2, 0, 0).unwrap(), "01:02:00"));
        assert!(!displays_as(&Time::new(1, 2, 0, 0).unwrap(), "01:0"));
    }

    /// Living standard: every kind with a year takes "four or more ASCII
    /// digits, representing year, where year > 0", in the parsers, the
    /// validity checks and the serializers alike.
    #[test]
    fn years_above_9999() {
        // Years of five digits and more are valid and keep every digit.
        assert!(is_valid_month_string("20133-12"));
        assert_eq!(parse_month("20133-12").map(|m| m.year()), Ok(20133));
        assert!(is_valid_date_string("12014-09-29"));
        let date = parse_date("12014-09-29");
        assert_eq!(date.map(|d| d.to_string()), Ok("12014-09-29".to_string()));
        // Every other kind that contains a year.
        assert!(is_valid_week_string("12004-W53"));
        assert_eq!(
            parse_week("12004-W53").map(|w| w.to_string()),
            Ok("12004-W53".into())
        );
        assert!(is_valid_local_date_time_string("12014-09-29T10:00"));
        assert!(is_valid_local_date_time_string("12014-09-29 10:00"));
        assert!(is_valid_normalized_local_date_time_string(
            "12014-09-29T10:00"
        ));
        assert!(is_valid_global_date_time_string("12014-09-29T10:00+01:00"));
        assert!(is_valid_normalized_global_date_time_string(
            "12014-09-29T10:00Z"
        ));
        assert!(is_valid_date_string_with_optional_time("12014-09-29"));
        assert!(is_valid_date_string_with_optional_time(
            "12014-09-29T10:00Z"
        ));
        assert_eq!(
            parse_global_date_time("99999-12-31T23:30-01:00").map(|g| g.to_normalized_string()),
            Ok("100000-01-01T00:30Z".to_string())
        );
        assert_eq!(
            parse_local_date_time("12014-09-29 10:00").map(|l| l.to_string()),
            Ok("12014-09-29T10:00".to_string())
        );
        // Still at least four digits, and year > 0.
        assert!(!is_valid_month_string("999-12"));
        assert!(!is_valid_month_string("00000-12"));
        assert!(!is_valid_date_string("12014-9-29"));
        assert!(!is_valid_local_date_time_string("12014-09-2910:00"));
        // Serializers: below 1000 zero-padded to four digits.
        assert_eq!(
            Date::new(33, 3, 27).map(|d| d.to_string()),
            Some("0033-03-27".into())
        );
        assert_eq!(
            Month::new(10000, 1).map(|m| m.to_string()),
            Some("10000-01".into())
        );
        // The crate's limit: MAX_YEAR parses, one more overflows.
        let max = format!("{MAX_YEAR}-01");
        assert!(is_valid_month_string(&max));
        let over = format!("{}-01", i64::from(MAX_YEAR) + 1);
        assert_eq!(kind(parse_month(&over)), Overflow);
        assert!(!is_valid_month_string(&over));
    }
}
