//! The seed's own date and time algorithms: seed 002 §2.4.4.1 "Specific
//! moments in time" (parse a string as a datetime value) and §2.4.4.2
//! "Vaguer moments in time" (date or time strings, in content and in
//! attributes), with seed 004's variants.
//!
//! Seed 004 differs only in its white space: VT is a space character, and
//! the "in content" variant skips Zs characters where seed 002 skips
//! White_Space characters. (The seed 004 text also lacks the range checks of
//! months, hours, minutes, seconds and offsets; those lines carry formulas
//! and were lost in extraction, so the checks are kept.)
//!
//! Fixed typos (listed in the crate docs): §2.4.4.1 step 10 and §2.4.4.2
//! step 18.4 test the wrong variable (`1 ≤ month ≤ maxday`, `0 ≤ minute <
//! 60`); §2.4.4.2 step 18 never advances past the colon before collecting
//! the seconds; §2.4.4.2 step 20.4 negates the offset's hours but not its
//! minutes; §2.4.4.1 step 25 has no "otherwise fail" when neither `Z` nor a
//! sign follows (step 26 would then accept a missing offset).

use super::parse::seconds_of;
use super::types::{Date, GlobalDateTime, MAX_YEAR, Time, TimeZoneOffset};
use crate::error::{Component, Error, ErrorKind};
use crate::idioms::{Cursor, Spaces};
use crate::integers::digits_to_u32_saturating;

/// Collects a run of ASCII digits that must be exactly `n` long.
fn exact_digits(cursor: &mut Cursor<'_>, n: usize, component: Component) -> Result<u32, Error> {
    let start = cursor.position();
    let digits = cursor.collect_digits();
    if digits.is_empty() {
        return Err(cursor.expected("an ASCII digit"));
    }
    if digits.len() != n {
        return Err(Error::new(ErrorKind::DigitCount(component), start));
    }
    Ok(digits_to_u32_saturating(digits))
}

fn expect(cursor: &mut Cursor<'_>, c: char, what: &'static str) -> Result<(), Error> {
    if cursor.eat(c) {
        Ok(())
    } else {
        Err(cursor.expected(what))
    }
}

/// A parsed datetime and whether its seconds had exactly two integer
/// digits, as the seed's prose (but not its algorithm) requires.
fn datetime(input: &str, spaces: Spaces) -> Result<(GlobalDateTime, bool), Error> {
    // Steps 1–2.
    let mut cursor = Cursor::new(input);
    let c = &mut cursor;
    // Step 3. Exactly four digits of year (0000 included).
    let year_start = c.position();
    let year = exact_digits(c, 4, Component::Year)?;
    let year = i32::try_from(year).map_err(|_| Error::new(ErrorKind::Overflow, year_start))?;
    // Step 4.
    expect(c, '-', "U+002D HYPHEN-MINUS (-)")?;
    // Steps 5–6.
    let month_start = c.position();
    let month = exact_digits(c, 2, Component::Month)?;
    if !(1..=12).contains(&month) {
        return Err(Error::new(
            ErrorKind::OutOfRange(Component::Month),
            month_start,
        ));
    }
    // Steps 7–8.
    expect(c, '-', "U+002D HYPHEN-MINUS (-)")?;
    // Steps 9–10. (Typo fixed: the draft checks "1 ≤ month ≤ maxday".)
    let day_start = c.position();
    let day = exact_digits(c, 2, Component::Day)?;
    let date = Date::new(year, month as u8, u8::try_from(day).unwrap_or(0))
        .ok_or(Error::new(ErrorKind::OutOfRange(Component::Day), day_start))?;
    // Step 11. T or space characters, at least one, at most one T.
    let separator_start = c.position();
    let separator = c.collect(|ch| ch == 'T' || spaces.contains(ch));
    if separator.is_empty() {
        return Err(c.expected("U+0054 LATIN CAPITAL LETTER T or a space character"));
    }
    if separator.bytes().filter(|&b| b == b'T').count() > 1 {
        return Err(Error::new(
            ErrorKind::Expected("at most one U+0054 LATIN CAPITAL LETTER T"),
            separator_start,
        ));
    }
    // Steps 12–13.
    let hour_start = c.position();
    let hour = exact_digits(c, 2, Component::Hour)?;
    if hour > 23 {
        return Err(Error::new(
            ErrorKind::OutOfRange(Component::Hour),
            hour_start,
        ));
    }
    // Step 14.
    expect(c, ':', "U+003A COLON (:)")?;
    // Steps 15–16.
    let minute_start = c.position();
    let minute = exact_digits(c, 2, Component::Minute)?;
    if minute > 59 {
        return Err(Error::new(
            ErrorKind::OutOfRange(Component::Minute),
            minute_start,
        ));
    }
    // Step 17.
    let mut second = "0";
    // Step 18.
    if c.is_at_end() {
        return Err(c.error(ErrorKind::UnexpectedEnd));
    }
    // Step 19.
    let second_start = c.position();
    let mut two_digit_seconds = true;
    if c.eat(':') {
        // Step 19.2. Two digits must follow.
        let two = c.peek_byte().is_some_and(|b| b.is_ascii_digit())
            && c.peek_byte_at(1).is_some_and(|b| b.is_ascii_digit());
        if !two {
            return Err(c.expected("two ASCII digits"));
        }
        // Step 19.3.
        let start = c.position();
        let s = c.collect_bytes(|b| b.is_ascii_digit() || b == b'.');
        if s.bytes().filter(|&b| b == b'.').count() > 1 || s.ends_with('.') {
            return Err(Error::new(
                ErrorKind::Expected("seconds with at most one U+002E FULL STOP (.) not at the end"),
                start,
            ));
        }
        two_digit_seconds = s.split('.').next().is_some_and(|whole| whole.len() == 2);
        second = s;
    }
    // Steps 20–21.
    let (whole, nanos) = seconds_of(second);
    let time = Time::new(
        hour as u8,
        minute as u8,
        u8::try_from(whole).unwrap_or(u8::MAX),
        nanos,
    )
    .ok_or(Error::new(
        ErrorKind::OutOfRange(Component::Second),
        second_start,
    ))?;
    // Step 22.
    if c.is_at_end() {
        return Err(c.error(ErrorKind::UnexpectedEnd));
    }
    // Step 23.
    c.skip_spaces(spaces);
    // Steps 24–25.
    let offset = match c.peek_byte() {
        Some(b'Z') => {
            c.advance();
            TimeZoneOffset::UTC
        }
        Some(sign @ (b'+' | b'-')) => {
            c.advance();
            let hours_start = c.position();
            let hours = exact_digits(c, 2, Component::OffsetHours)?;
            if hours > 23 {
                return Err(Error::new(
                    ErrorKind::OutOfRange(Component::OffsetHours),
                    hours_start,
                ));
            }
            expect(c, ':', "U+003A COLON (:)")?;
            let minutes_start = c.position();
            let minutes = exact_digits(c, 2, Component::OffsetMinutes)?;
            if minutes > 59 {
                return Err(Error::new(
                    ErrorKind::OutOfRange(Component::OffsetMinutes),
                    minutes_start,
                ));
            }
            let (h, m) = (hours as i8, minutes as i8);
            let offset = if sign == b'-' {
                TimeZoneOffset::new(-h, -m)
            } else {
                TimeZoneOffset::new(h, m)
            };
            offset.ok_or(Error::new(
                ErrorKind::OutOfRange(Component::OffsetHours),
                hours_start,
            ))?
        }
        // Typo fixed: the draft has no "otherwise, fail" here.
        _ => return Err(c.expected("Z, U+002B PLUS SIGN (+) or U+002D HYPHEN-MINUS (-)")),
    };
    // Step 26.
    if !c.is_at_end() {
        return Err(c.error(ErrorKind::TrailingCharacters));
    }
    // Steps 27–29.
    Ok((GlobalDateTime::new(date, time, offset), two_digit_seconds))
}

/// Spec: seed 002 §2.4.4.1 "parse a string as a datetime value", steps
/// 1–29: four-digit year (0000 allowed), `T` and/or spaces, a time with
/// optional seconds and fraction, optional spaces, and `Z` or `±HH:MM`.
/// Returns the date and time as written with its offset;
/// [`GlobalDateTime::to_utc`] is the "time in UTC" of step 27.
///
/// ```
/// use microsyntax::parse_datetime;
/// // The seed's three examples.
/// assert_eq!(parse_datetime("0037-12-13 00:00 Z")?.to_normalized_string(), "0037-12-13T00:00Z");
/// assert_eq!(
///     parse_datetime("1979-10-14T12:00:00.001-04:00")?.to_normalized_string(),
///     "1979-10-14T16:00:00.001Z"
/// );
/// assert_eq!(parse_datetime("8592-01-01 T 02:09 +02:09")?.to_normalized_string(), "8592-01-01T00:00Z");
/// # Ok::<(), microsyntax::Error>(())
/// ```
pub fn parse_datetime(input: &str) -> Result<GlobalDateTime, Error> {
    datetime(input, Spaces::Standard).map(|(g, _)| g)
}

/// Spec: seed 004's "parse a string as a datetime value": seed 002's steps
/// with VT among the space characters.
///
/// ```
/// assert!(microsyntax::parse_datetime_seed004("2000-01-01\u{B}00:00Z").is_ok());
/// assert!(microsyntax::parse_datetime("2000-01-01\u{B}00:00Z").is_err());
/// ```
pub fn parse_datetime_seed004(input: &str) -> Result<GlobalDateTime, Error> {
    datetime(input, Spaces::Seed004).map(|(g, _)| g)
}

/// Spec: seed 002 §2.4.4.1 "valid datetime". The draft tells conformance
/// checkers to use the parsing algorithm; this also applies the prose's
/// one stricter rule, that the seconds' integer part is exactly two digits
/// (the algorithm accepts `00:00:005`).
///
/// ```
/// use microsyntax::is_valid_datetime;
/// assert!(is_valid_datetime("8592-01-01 T 02:09 +02:09"));
/// assert!(!is_valid_datetime("2000-01-01T00:00:005Z"));
/// assert!(!is_valid_datetime("2000-01-01T00:00"));
/// ```
pub fn is_valid_datetime(s: &str) -> bool {
    datetime(s, Spaces::Standard).is_ok_and(|(_, two_digit_seconds)| two_digit_seconds)
}

/// Spec: seed 004's "valid datetime": [`is_valid_datetime`] with VT among
/// the space characters.
///
/// ```
/// assert!(microsyntax::is_valid_datetime_seed004("2000-01-01\u{B}00:00Z"));
/// ```
pub fn is_valid_datetime_seed004(s: &str) -> bool {
    datetime(s, Spaces::Seed004).is_ok_and(|(_, two_digit_seconds)| two_digit_seconds)
}

/// Where a date or time string appears (seed 002 §2.4.4.2): the only
/// difference is which white space is skipped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Context {
    /// In an attribute value: space characters are skipped.
    #[default]
    Attribute,
    /// In element content: White_Space characters (seed 004: Zs characters)
    /// are skipped.
    Content,
}

/// What seed 002 §2.4.4.2 returns: the results it collected before it
/// finished or aborted, and whether the string is a valid date or time
/// string. Even with results, the string can be invalid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct DateOrTimeResults {
    /// The date, if one was parsed.
    pub date: Option<Date>,
    /// The time, if one was parsed.
    pub time: Option<Time>,
    /// The time-zone offset, if one was parsed (only after a date and time).
    pub timezone: Option<TimeZoneOffset>,
    /// Whether the algorithm never said "the string is invalid".
    pub valid: bool,
}

#[derive(Clone, Copy)]
struct Skipper {
    context: Context,
    spaces: Spaces,
}

impl Skipper {
    fn skip(self, cursor: &mut Cursor<'_>) {
        match (self.context, self.spaces) {
            (Context::Attribute, spaces) => cursor.skip_spaces(spaces),
            (Context::Content, Spaces::Standard) => cursor.skip_white_space_characters(),
            (Context::Content, Spaces::Seed004) => cursor.skip_zs_characters(),
        }
    }
}

/// Runs the steps; `Err(())` is "the string is invalid; abort these steps".
fn date_or_time(
    cursor: &mut Cursor<'_>,
    skipper: Skipper,
    r: &mut DateOrTimeResults,
) -> Result<(), ()> {
    // Step 4.
    skipper.skip(cursor);
    // Steps 5–6.
    let mut s = cursor.collect_digits();
    if s.is_empty() {
        return Err(());
    }
    // Step 7.
    if cursor.is_at_end() {
        return Err(());
    }
    // Step 8. A date.
    if cursor.peek_byte() != Some(b':') {
        s = date_part(cursor, skipper, s, r)?;
    }
    // Steps 9–11.
    if s.len() != 2 {
        r.valid = false;
    }
    let hour = digits_to_u32_saturating(s);
    if hour > 23 {
        return Err(());
    }
    // Step 12.
    if !cursor.eat(':') {
        return Err(());
    }
    // Steps 13–16.
    let m = cursor.collect_digits();
    if m.is_empty() {
        return Err(());
    }
    if m.len() != 2 {
        r.valid = false;
    }
    let minute = digits_to_u32_saturating(m);
    if minute > 59 {
        return Err(());
    }
    // Steps 17–18. (Typo fixed: advance past the colon first.)
    let (mut second, mut nanos) = (0, 0);
    if cursor.eat(':') {
        let sec = cursor.collect_bytes(|b| b.is_ascii_digit() || b == b'.');
        if sec.is_empty() || sec.bytes().filter(|&b| b == b'.').count() > 1 {
            return Err(());
        }
        if !sec.starts_with(|c: char| c.is_ascii_digit()) {
            r.valid = false;
        }
        (second, nanos) = seconds_of(sec);
        // Step 18.4. (Typo fixed: the draft tests "0 ≤ minute < 60".)
        if second >= 60 {
            return Err(());
        }
    }
    // Step 19.
    r.time = Time::new(hour as u8, minute as u8, second as u8, nanos);
    // Step 20.
    if r.date.is_some() && r.time.is_some() {
        // Step 20.1.
        skipper.skip(cursor);
        timezone_part(cursor, r)?;
    }
    // Step 21.
    skipper.skip(cursor);
    // Step 22.
    if !cursor.is_at_end() {
        r.valid = false;
    }
    Ok(())
}

/// Step 8 of [`date_or_time`], a date: `year` (the digits collected
/// already) `-MM-DD`, then what separates it from the time, and the
/// time's first digits, which it returns.
fn date_part<'s>(
    cursor: &mut Cursor<'s>,
    skipper: Skipper,
    year_digits: &'s str,
    r: &mut DateOrTimeResults,
) -> Result<&'s str, ()> {
    // Step 8.1.
    if cursor.peek_byte() != Some(b'-') {
        return Err(());
    }
    // Step 8.2.
    if year_digits.len() != 4 {
        r.valid = false;
    }
    // Step 8.3. (Deviation: a year beyond MAX_YEAR aborts.)
    let year = i32::try_from(digits_to_u32_saturating(year_digits))
        .ok()
        .filter(|&y| y <= MAX_YEAR)
        .ok_or(())?;
    // Step 8.4.
    cursor.advance();
    // Steps 8.5–8.7.
    let m = cursor.collect_digits();
    if m.is_empty() {
        return Err(());
    }
    if m.len() != 2 {
        r.valid = false;
    }
    let month = digits_to_u32_saturating(m);
    // Steps 8.8–8.9.
    if !(1..=12).contains(&month) {
        return Err(());
    }
    // Step 8.10.
    if !cursor.eat('-') {
        return Err(());
    }
    // Steps 8.11–8.13.
    let d = cursor.collect_digits();
    if d.is_empty() {
        return Err(());
    }
    if d.len() != 2 {
        r.valid = false;
    }
    // Steps 8.14–8.15.
    let day = u8::try_from(digits_to_u32_saturating(d)).unwrap_or(0);
    r.date = Some(Date::new(year, month as u8, day).ok_or(())?);
    // Steps 8.16–8.18.
    skipper.skip(cursor);
    cursor.eat('T');
    skipper.skip(cursor);
    // Steps 8.19–8.20.
    let s = cursor.collect_digits();
    if s.is_empty() {
        return Err(());
    }
    Ok(s)
}

/// Steps 20.2 to 20.5 of [`date_or_time`]: the time-zone offset after a
/// date and a time (`Z`, `+HH:MM`, `-HH:MM`, or nothing).
fn timezone_part(cursor: &mut Cursor<'_>, r: &mut DateOrTimeResults) -> Result<(), ()> {
    match cursor.peek_byte() {
        // Step 20.2.
        None => {}
        // Step 20.3.
        Some(b'Z') => {
            r.timezone = Some(TimeZoneOffset::UTC);
            cursor.advance();
        }
        // Step 20.4.
        Some(sign @ (b'+' | b'-')) => {
            cursor.advance();
            let h = cursor.collect_digits();
            if h.len() != 2 {
                r.valid = false;
            }
            let hours = digits_to_u32_saturating(h);
            if hours > 23 {
                return Err(());
            }
            if !cursor.eat(':') {
                return Err(());
            }
            let m = cursor.collect_digits();
            if m.len() != 2 {
                r.valid = false;
            }
            let minutes = digits_to_u32_saturating(m);
            if minutes > 59 {
                return Err(());
            }
            // Typo fixed: the minutes take the sign too.
            let (h, m) = (hours as i8, minutes as i8);
            r.timezone = if sign == b'-' {
                TimeZoneOffset::new(-h, -m)
            } else {
                TimeZoneOffset::new(h, m)
            };
        }
        // Step 20.5.
        Some(_) => return Err(()),
    }
    Ok(())
}

fn date_or_time_string(input: &str, context: Context, spaces: Spaces) -> DateOrTimeResults {
    // Steps 1–3.
    let mut cursor = Cursor::new(input);
    let mut results = DateOrTimeResults {
        valid: true,
        ..DateOrTimeResults::default()
    };
    if date_or_time(&mut cursor, Skipper { context, spaces }, &mut results).is_err() {
        results.valid = false;
    }
    results
}

/// Spec: seed 002 §2.4.4.2 "parse a date or time string", steps 1–23, in
/// the "in attributes" or "in content" variant. Returns whatever date, time
/// and offset it collected, and whether the string is valid.
///
/// ```
/// use microsyntax::{parse_date_or_time_string, Context};
/// let r = parse_date_or_time_string(" 2008-10-11 T 14:30 +01:00 ", Context::Attribute);
/// assert!(r.valid);
/// assert_eq!(r.timezone.map(|o| o.total_minutes()), Some(60));
/// // A three-digit year is invalid, but the date is still returned.
/// let r = parse_date_or_time_string("208-10-11", Context::Attribute);
/// assert!(!r.valid && r.date.is_some());
/// // In content, any White_Space (here U+3000) is skipped.
/// assert!(parse_date_or_time_string("\u{3000}12:00", Context::Content).valid);
/// assert!(!parse_date_or_time_string("\u{3000}12:00", Context::Attribute).valid);
/// ```
pub fn parse_date_or_time_string(input: &str, context: Context) -> DateOrTimeResults {
    date_or_time_string(input, context, Spaces::Standard)
}

/// Spec: seed 004's "parse a date or time string": in attributes VT is a
/// space character; in content only Zs characters are skipped (not, say,
/// U+000A LINE FEED, which is White_Space but not Zs).
///
/// ```
/// use microsyntax::{parse_date_or_time_string_seed004, Context};
/// assert!(!parse_date_or_time_string_seed004("\n12:00", Context::Content).valid);
/// assert!(parse_date_or_time_string_seed004("\u{B}12:00", Context::Attribute).valid);
/// ```
pub fn parse_date_or_time_string_seed004(input: &str, context: Context) -> DateOrTimeResults {
    date_or_time_string(input, context, Spaces::Seed004)
}

/// Spec: seed 002 §2.4.4.2 "valid date or time string": the algorithm does
/// not say the string is invalid.
///
/// ```
/// use microsyntax::{is_valid_date_or_time_string, Context};
/// assert!(is_valid_date_or_time_string("2008-10-11 12:00", Context::Attribute));
/// assert!(is_valid_date_or_time_string("12:00", Context::Attribute));
/// // In this draft a date needs a time (step 8.19).
/// assert!(!is_valid_date_or_time_string("2008-10-11", Context::Attribute));
/// assert!(!is_valid_date_or_time_string("12:00 junk", Context::Attribute));
/// ```
pub fn is_valid_date_or_time_string(s: &str, context: Context) -> bool {
    parse_date_or_time_string(s, context).valid
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(r: Result<GlobalDateTime, Error>) -> ErrorKind {
        r.expect_err("expected an error").kind()
    }

    #[test]
    fn seed_examples_as_moments() {
        let g = parse_datetime("1979-10-14T12:00:00.001-04:00").unwrap();
        assert_eq!(g.to_utc().time().nanosecond(), 1_000_000);
        assert_eq!(g.offset().total_minutes(), -240);
        let g = parse_datetime("8592-01-01 T 02:09 +02:09").unwrap();
        assert_eq!((g.offset().hours(), g.offset().minutes()), (2, 9));
        assert_eq!(g.to_utc().time().to_string(), "00:00");
        assert!(is_valid_datetime("0037-12-13 00:00 Z"));
        assert!(is_valid_datetime("1979-10-14T12:00:00.001-04:00"));
    }

    #[test]
    fn datetime_steps() {
        use Component::*;
        use ErrorKind::*;
        assert_eq!(kind(parse_datetime("037-12-13 00:00Z")), DigitCount(Year)); // step 3
        assert_eq!(
            kind(parse_datetime("2000/12-13 00:00Z")),
            Expected("U+002D HYPHEN-MINUS (-)")
        ); // step 4
        assert_eq!(kind(parse_datetime("2000-1-13 00:00Z")), DigitCount(Month)); // step 5
        assert_eq!(kind(parse_datetime("2000-13-13 00:00Z")), OutOfRange(Month)); // step 6
        assert_eq!(
            kind(parse_datetime("2000-12 13 00:00Z")),
            Expected("U+002D HYPHEN-MINUS (-)")
        ); // step 8
        assert_eq!(kind(parse_datetime("2000-12-1 00:00Z")), DigitCount(Day)); // step 9
        assert_eq!(kind(parse_datetime("2001-02-29 00:00Z")), OutOfRange(Day)); // step 10
        assert!(parse_datetime("0000-02-29 00:00Z").is_ok()); // year 0 is a leap year
        assert_eq!(kind(parse_datetime("2000-12-1300:00Z")), DigitCount(Day)); // step 9 again
        assert_eq!(
            kind(parse_datetime("2000-12-13x00:00Z")),
            Expected("U+0054 LATIN CAPITAL LETTER T or a space character")
        ); // step 11
        assert_eq!(
            kind(parse_datetime("2000-12-13TT00:00Z")),
            Expected("at most one U+0054 LATIN CAPITAL LETTER T")
        );
        assert!(parse_datetime("2000-12-13 \t T\n00:00Z").is_ok());
        assert_eq!(kind(parse_datetime("2000-12-13 0:00Z")), DigitCount(Hour)); // step 12
        assert_eq!(kind(parse_datetime("2000-12-13 24:00Z")), OutOfRange(Hour)); // step 13
        assert_eq!(
            kind(parse_datetime("2000-12-13 00.00Z")),
            Expected("U+003A COLON (:)")
        ); // step 14
        assert_eq!(kind(parse_datetime("2000-12-13 00:0Z")), DigitCount(Minute)); // step 15
        assert_eq!(
            kind(parse_datetime("2000-12-13 00:60Z")),
            OutOfRange(Minute)
        ); // step 16
        assert_eq!(kind(parse_datetime("2000-12-13 00:00")), UnexpectedEnd); // step 18
        assert_eq!(
            kind(parse_datetime("2000-12-13 00:00:0Z")),
            Expected("two ASCII digits")
        ); // step 19.2
        assert_eq!(kind(parse_datetime("2000-12-13 00:00:")), UnexpectedEnd);
        assert_eq!(
            kind(parse_datetime("2000-12-13 00:00:00.Z")),
            Expected("seconds with at most one U+002E FULL STOP (.) not at the end")
        ); // step 19.3
        assert_eq!(
            kind(parse_datetime("2000-12-13 00:00:00.1.2Z")),
            Expected("seconds with at most one U+002E FULL STOP (.) not at the end")
        );
        assert_eq!(
            kind(parse_datetime("2000-12-13 00:00:60Z")),
            OutOfRange(Second)
        ); // step 21
        assert_eq!(kind(parse_datetime("2000-12-13 00:00:00")), UnexpectedEnd); // step 22
        assert_eq!(kind(parse_datetime("2000-12-13 00:00 ")), UnexpectedEnd); // step 25 (typo fixed)
        assert_eq!(
            kind(parse_datetime("2000-12-13 00:00 x")),
            Expected("Z, U+002B PLUS SIGN (+) or U+002D HYPHEN-MINUS (-)")
        );
        assert_eq!(
            kind(parse_datetime("2000-12-13 00:00+1:00")),
            DigitCount(OffsetHours)
        ); // step 25.3
        assert_eq!(
            kind(parse_datetime("2000-12-13 00:00+24:00")),
            OutOfRange(OffsetHours)
        ); // step 25.4
        assert_eq!(
            kind(parse_datetime("2000-12-13 00:00+0100")),
            DigitCount(OffsetHours)
        );
        assert_eq!(kind(parse_datetime("2000-12-13 00:00+01")), UnexpectedEnd); // step 25.6
        assert_eq!(
            kind(parse_datetime("2000-12-13 00:00+01:0")),
            DigitCount(OffsetMinutes)
        ); // step 25.7
        assert_eq!(
            kind(parse_datetime("2000-12-13 00:00+01:60")),
            OutOfRange(OffsetMinutes)
        ); // step 25.8
        assert_eq!(
            kind(parse_datetime("2000-12-13 00:00Z ")),
            TrailingCharacters
        ); // step 26
        assert_eq!(
            parse_datetime("2000-12-13 00:00-00:30").map(|g| g.offset().total_minutes()),
            Ok(-30)
        );
        assert_eq!(
            parse_datetime("2000-12-13 00:00:005Z").map(|g| g.time().second()),
            Ok(5)
        );
    }

    #[track_caller]
    fn check(
        input: &str,
        context: Context,
        valid: bool,
        date: bool,
        time: bool,
        timezone: Option<i16>,
    ) {
        let r = parse_date_or_time_string(input, context);
        assert_eq!(
            (
                r.valid,
                r.date.is_some(),
                r.time.is_some(),
                r.timezone.map(|o| o.total_minutes())
            ),
            (valid, date, time, timezone),
            "{input:?}"
        );
    }

    #[test]
    fn date_or_time_steps() {
        use Context::{Attribute as A, Content as C};
        check("", A, false, false, false, None); // step 5
        check("2008", A, false, false, false, None); // step 7
        check("2008/10", A, false, false, false, None); // step 8.1
        check("208-10-11", A, false, true, false, None); // step 8.2 (continues)
        check("2008-", A, false, false, false, None); // step 8.5
        check("2008-1-11", A, false, true, false, None); // step 8.6
        check("2008-13-11", A, false, false, false, None); // step 8.8
        check("2008-10", A, false, false, false, None); // step 8.10
        check("2008-10-", A, false, false, false, None); // step 8.11
        check("2008-10-1", A, false, true, false, None); // step 8.12
        check("2008-02-30", A, false, false, false, None); // step 8.14
        check("2008-10-11", A, false, true, false, None); // step 8.19: a date needs a time here
        check("2008-10-11T", A, false, true, false, None);
        check("2008-10-11T1:30", A, false, true, true, None); // step 9 (continues)
        check("2008-10-11T24:30", A, false, true, false, None); // step 11
        check("12", A, false, false, false, None); // step 7
        check("12:", A, false, false, false, None); // step 13
        check("12:3", A, false, false, true, None); // step 14 (continues)
        check("12:60", A, false, false, false, None); // step 16
        check("12:30", A, true, false, true, None);
        check("12:30:", A, false, false, false, None); // step 18.1 (empty)
        check("12:30:1.2.3", A, false, false, false, None); // step 18.1 (two points)
        check("12:30:.5", A, false, false, true, None); // step 18.2 (continues)
        check("12:30:60", A, false, false, false, None); // step 18.4
        check("12:30:59.999", A, true, false, true, None);
        check("2008-10-11 12:30", A, true, true, true, None); // step 20.2
        check("2008-10-11 12:30 Z", A, true, true, true, Some(0)); // step 20.3
        check("2008-10-11 12:30-04:30", A, true, true, true, Some(-270)); // step 20.4
        check("2008-10-11 12:30+4:30", A, false, true, true, Some(270)); // step 20.4.3 (continues)
        check("2008-10-11 12:30+24:00", A, false, true, true, None); // step 20.4.5
        check("2008-10-11 12:30+04", A, false, true, true, None); // step 20.4.7
        check("2008-10-11 12:30+04:60", A, false, true, true, None); // step 20.4.10
        check("2008-10-11 12:30 x", A, false, true, true, None); // step 20.5
        check("12:30 Z", A, false, false, true, None); // step 22: no offset without a date
        check("12:30 ", A, true, false, true, None); // step 21
        check("\u{A0}12:30\u{A0}", C, true, false, true, None);
        check("\u{A0}12:30", A, false, false, false, None);
    }

    #[test]
    fn seed004_white_space() {
        let r = parse_date_or_time_string_seed004("\u{2003}12:30\u{A0}", Context::Content);
        assert!(r.valid);
        let r = parse_date_or_time_string_seed004("12:30\u{85}", Context::Content);
        assert!(!r.valid); // NEL is White_Space but not Zs
        assert!(parse_date_or_time_string("12:30\u{85}", Context::Content).valid);
    }
}
