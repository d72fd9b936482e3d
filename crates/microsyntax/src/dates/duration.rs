//! Durations: the reference's "Durations" (seed 002 §2.4.4.9 leaves a
//! placeholder, "time offsets … in the format 5d4h3m2.1s or similar"; seed
//! 004 sketches "5d4h3m2s1ms" or "00:00:00.00"). Two syntaxes are valid:
//! ISO 8601's `P1DT2H3M4.5S` and the component form `1d 2h 3m 4.5s` (also
//! with weeks, in any order).
//!
//! Deviation: the spec's numbers are unbounded; a duration of more than
//! `u64::MAX` seconds is an [`ErrorKind::Overflow`] error, and fraction
//! digits beyond the nanosecond are dropped.

use core::fmt;

use super::types::write_fraction;
use crate::error::{Error, ErrorKind};
use crate::idioms::Cursor;
use crate::integers::digits_to_u64;

/// Spec: reference "duration": a number of seconds (kept as whole seconds
/// and nanoseconds).
///
/// ```
/// let d = microsyntax::parse_duration("1h 30m")?;
/// assert_eq!(d.seconds(), 5400);
/// assert_eq!(d.to_string(), "PT1H30M");
/// assert_eq!(d.to_component_string(), "1h 30m");
/// # Ok::<(), microsyntax::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Duration {
    seconds: u64,
    nanosecond: u32,
}

impl Duration {
    /// A duration of `seconds` and `nanosecond` (which must be < 10⁹).
    pub const fn new(seconds: u64, nanosecond: u32) -> Option<Self> {
        if nanosecond < 1_000_000_000 {
            Some(Self {
                seconds,
                nanosecond,
            })
        } else {
            None
        }
    }

    /// The whole seconds.
    pub const fn seconds(&self) -> u64 {
        self.seconds
    }

    /// The fraction of a second, in nanoseconds.
    pub const fn nanosecond(&self) -> u32 {
        self.nanosecond
    }

    /// The seconds with their fraction, as the nearest `f64`.
    pub fn seconds_f64(&self) -> f64 {
        if self.nanosecond == 0 {
            return self.seconds as f64;
        }
        let mut d = crate::float::Decimal::new();
        let mut whole = [0u8; 20];
        let mut n = self.seconds;
        let mut len = 0;
        while n > 0 {
            if let Some(slot) = whole.get_mut(len) {
                *slot = (n % 10) as u8;
                len += 1;
            }
            n /= 10;
        }
        for &digit in whole.iter().take(len).rev() {
            d.push_integer_digit(digit);
        }
        let mut fraction = self.nanosecond;
        for scale in [
            100_000_000,
            10_000_000,
            1_000_000,
            100_000,
            10_000,
            1000,
            100,
            10,
            1,
        ] {
            d.push_fraction_digit((fraction / scale) as u8);
            fraction %= scale;
        }
        d.to_f64(0)
    }

    /// The component form of a valid duration string, e.g. `1w 2d 3h 4m
    /// 5.5s` (zero is `0s`). Valid when the fraction has at most three
    /// digits.
    pub fn to_component_string(&self) -> String {
        struct Components(Duration);
        impl fmt::Display for Components {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                let s = self.0.seconds;
                let parts = [
                    (s / 604_800, 'w'),
                    (s / 86_400 % 7, 'd'),
                    (s / 3600 % 24, 'h'),
                    (s / 60 % 60, 'm'),
                ];
                let mut first = true;
                for (n, unit) in parts {
                    if n != 0 {
                        if !first {
                            f.write_str(" ")?;
                        }
                        write!(f, "{n}{unit}")?;
                        first = false;
                    }
                }
                if !s.is_multiple_of(60) || self.0.nanosecond != 0 || first {
                    if !first {
                        f.write_str(" ")?;
                    }
                    write!(f, "{}", s % 60)?;
                    write_fraction(f, self.0.nanosecond)?;
                    f.write_str("s")?;
                }
                Ok(())
            }
        }
        Components(*self).to_string()
    }
}

/// Writes the ISO 8601 form of a valid duration string: `P`, days, then `T`
/// with hours, minutes and seconds, e.g. `P1DT2H3M4.5S` (zero is `PT0S`).
/// Valid when the fraction has at most three digits.
impl fmt::Display for Duration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.seconds;
        let (days, hours, minutes, seconds) = (s / 86_400, s / 3600 % 24, s / 60 % 60, s % 60);
        f.write_str("P")?;
        if days != 0 {
            write!(f, "{days}D")?;
        }
        let has_seconds = seconds != 0 || self.nanosecond != 0 || s == 0;
        if hours != 0 || minutes != 0 || has_seconds {
            f.write_str("T")?;
            if hours != 0 {
                write!(f, "{hours}H")?;
            }
            if minutes != 0 {
                write!(f, "{minutes}M")?;
            }
            if has_seconds {
                write!(f, "{seconds}")?;
                write_fraction(f, self.nanosecond)?;
                f.write_str("S")?;
            }
        }
        Ok(())
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Units {
    Years,
    Months,
    Weeks,
    Days,
    Hours,
    Minutes,
    Seconds,
}

/// Spec: reference "parse a duration string", steps 1–11. Accepts both
/// syntaxes and more (any order, repeated units, white space, lower case);
/// years and months are parsed but make the duration fail.
///
/// ```
/// use microsyntax::parse_duration;
/// assert_eq!(parse_duration("PT4H18M3S")?.seconds(), 15483);
/// assert_eq!(parse_duration("4h 18m 3s")?.seconds(), 15483);
/// assert_eq!(parse_duration(" 2w 1.5s")?.nanosecond(), 500_000_000);
/// assert!(parse_duration("P1M").is_err()); // one month: not a fixed number of seconds
/// assert_eq!(parse_duration("1M")?.seconds(), 60); // outside `P…`, M is minutes
/// # Ok::<(), microsyntax::Error>(())
/// ```
pub fn parse_duration(input: &str) -> Result<Duration, Error> {
    // Steps 1–2.
    let mut cursor = Cursor::new(input);
    let c = &mut cursor;
    // Step 3.
    let mut months: u64 = 0;
    let mut seconds: u64 = 0;
    let mut nanosecond: u32 = 0;
    let mut component_count: u32 = 0;
    // Step 4.
    let mut m_means_months = false;
    // Step 5.
    c.skip_whitespace();
    // Step 6.
    if c.is_at_end() {
        return Err(c.error(ErrorKind::UnexpectedEnd));
    }
    // Step 7.
    if c.eat('P') {
        m_means_months = true;
        c.skip_whitespace();
    }
    // Step 8.
    loop {
        // Steps 8.1–8.3.
        if c.is_at_end() {
            break;
        }
        // Step 8.4.
        if c.eat('T') {
            m_means_months = false;
            c.skip_whitespace();
            continue;
        }
        let component_start = c.position();
        let overflow = Error::new(ErrorKind::Overflow, component_start);
        // Steps 8.5–8.6. N.
        let mut n: u64 = 0;
        let mut n_nanos: u32 = 0;
        match c.peek_byte() {
            Some(b'.') => {}
            Some(b) if b.is_ascii_digit() => {
                n = digits_to_u64(c.collect_digits()).ok_or(overflow)?
            }
            _ => return Err(c.expected("an ASCII digit or U+002E FULL STOP (.)")),
        }
        // Steps 8.7–8.8.
        let Some(mut next) = c.next_char() else {
            return Err(c.error(ErrorKind::UnexpectedEnd));
        };
        let units;
        if next == '.' {
            // Step 8.9 (fraction). Digits, white space, then S.
            let s = c.collect_digits();
            if s.is_empty() {
                return Err(c.expected("an ASCII digit"));
            }
            n_nanos = super::parse::fraction_nanos(s);
            c.skip_whitespace();
            match c.next_char() {
                Some('S' | 's') => {}
                Some(_) => {
                    return Err(Error::new(
                        ErrorKind::Expected("U+0053 LATIN CAPITAL LETTER S"),
                        c.position() - 1,
                    ));
                }
                None => return Err(c.error(ErrorKind::UnexpectedEnd)),
            }
            units = Units::Seconds;
        } else {
            // Step 8.9 (otherwise).
            if crate::is_space_character(next) {
                c.skip_whitespace();
                next = c.next_char().ok_or(c.error(ErrorKind::UnexpectedEnd))?;
            }
            units = unit(c, next, &mut m_means_months)?;
        }
        // Step 8.10.
        component_count += 1;
        // Steps 8.11–8.13.
        let multiplier: u64 = match units {
            Units::Years => 12,
            Units::Months => 1,
            Units::Weeks => 604_800,
            Units::Days => 86_400,
            Units::Hours => 3600,
            Units::Minutes => 60,
            Units::Seconds => 1,
        };
        if matches!(units, Units::Years | Units::Months) {
            months = n
                .checked_mul(multiplier)
                .and_then(|v| v.checked_add(months))
                .ok_or(overflow)?;
        } else {
            seconds = n
                .checked_mul(multiplier)
                .and_then(|v| v.checked_add(seconds))
                .ok_or(overflow)?;
            // Only seconds carry a fraction.
            let total = nanosecond + n_nanos;
            nanosecond = total % 1_000_000_000;
            seconds = seconds
                .checked_add(u64::from(total / 1_000_000_000))
                .ok_or(overflow)?;
        }
        // Step 8.14.
        c.skip_whitespace();
    }
    // Step 9.
    if component_count == 0 {
        return Err(c.error(ErrorKind::NoComponents));
    }
    // Step 10.
    if months != 0 {
        return Err(Error::new(ErrorKind::MonthsInDuration, 0));
    }
    // Step 11.
    Ok(Duration {
        seconds,
        nanosecond,
    })
}

/// Step 8.9 of [`parse_duration`], a unit: `next` read as one (`M` is
/// months while `m_means_months`, minutes otherwise), and what it says of
/// the next `M`.
fn unit(c: &Cursor<'_>, next: char, m_means_months: &mut bool) -> Result<Units, Error> {
    Ok(match next {
        'Y' | 'y' => {
            *m_means_months = true;
            Units::Years
        }
        'M' | 'm' if *m_means_months => Units::Months,
        'W' | 'w' => {
            *m_means_months = false;
            Units::Weeks
        }
        'D' | 'd' => {
            *m_means_months = false;
            Units::Days
        }
        'H' | 'h' => {
            *m_means_months = false;
            Units::Hours
        }
        'M' | 'm' => Units::Minutes,
        'S' | 's' => {
            *m_means_months = false;
            Units::Seconds
        }
        _ => {
            return Err(Error::new(
                ErrorKind::Expected("a unit: Y, M, W, D, H or S"),
                c.position() - next.len_utf8(),
            ));
        }
    })
}

/// Spec: reference "valid duration string": either `P` followed by days
/// (`nD`) and/or `T` with hours (`nH`), minutes (`nM`) and seconds (`n.fffS`)
/// in that order, or one or more "duration time components" (`n w|d|h|m|s`,
/// upper or lower case, seconds with an optional fraction of one to three
/// digits, space characters allowed around them) with different units, in
/// any order.
///
/// ```
/// use microsyntax::is_valid_duration_string as valid;
/// assert!(valid("PT4H18M3S") && valid("P1D") && valid("PT0.5S"));
/// assert!(valid("4h 18m 3s") && valid("3s 4h") && valid(" 1W "));
/// assert!(!valid("P") && !valid("PT") && !valid("P1M") && !valid("PT1.5M"));
/// assert!(!valid("1h 1h") && !valid("1.5h") && !valid("1.2345s"));
/// ```
pub fn is_valid_duration_string(s: &str) -> bool {
    if let Some(rest) = s.strip_prefix('P') {
        valid_iso_duration(rest)
    } else {
        valid_component_duration(s)
    }
}

fn valid_iso_duration(rest: &str) -> bool {
    let mut c = Cursor::new(rest);
    let mut any = false;
    let digits_then = |c: &mut Cursor<'_>, unit: char| -> bool {
        let save = c.position();
        if !c.collect_digits().is_empty() && c.eat(unit) {
            true
        } else {
            c.set_position(save);
            false
        }
    };
    any |= digits_then(&mut c, 'D');
    if c.eat('T') {
        let mut any_time = digits_then(&mut c, 'H');
        any_time |= digits_then(&mut c, 'M');
        let save = c.position();
        if !c.collect_digits().is_empty() {
            if c.eat('.') {
                let f = c.collect_digits();
                if !(1..=3).contains(&f.len()) {
                    return false;
                }
            }
            if !c.eat('S') {
                return false;
            }
            any_time = true;
        } else {
            c.set_position(save);
        }
        if !any_time {
            return false;
        }
        any = true;
    }
    any && c.is_at_end()
}

fn valid_component_duration(s: &str) -> bool {
    let mut c = Cursor::new(s);
    let mut seen = [false; 5];
    let mut any = false;
    loop {
        c.skip_whitespace();
        if c.is_at_end() {
            return any;
        }
        if c.collect_digits().is_empty() {
            return false;
        }
        let mut fraction = false;
        if c.eat('.') {
            if !(1..=3).contains(&c.collect_digits().len()) {
                return false;
            }
            fraction = true;
        }
        c.skip_whitespace();
        let slot = match c.next_char() {
            Some('W' | 'w') => 0,
            Some('D' | 'd') => 1,
            Some('H' | 'h') => 2,
            Some('M' | 'm') => 3,
            Some('S' | 's') => 4,
            _ => return false,
        };
        if (fraction && slot != 4) || seen.get(slot).copied().unwrap_or(true) {
            return false;
        }
        if let Some(flag) = seen.get_mut(slot) {
            *flag = true;
        }
        any = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(s: &str) -> Result<(u64, u32), ErrorKind> {
        parse_duration(s)
            .map(|d| (d.seconds(), d.nanosecond()))
            .map_err(|e| e.kind())
    }

    #[test]
    fn duration_steps() {
        assert_eq!(secs(""), Err(ErrorKind::UnexpectedEnd)); // step 6
        assert_eq!(secs("  "), Err(ErrorKind::UnexpectedEnd));
        assert_eq!(secs("P"), Err(ErrorKind::NoComponents)); // step 9
        assert_eq!(secs("PT"), Err(ErrorKind::NoComponents));
        assert_eq!(secs("P1D"), Ok((86_400, 0)));
        assert_eq!(secs("P1DT1H"), Ok((90_000, 0)));
        assert_eq!(secs("PT1M"), Ok((60, 0))); // step 8.4: after T, M is minutes
        assert_eq!(secs("P1M"), Err(ErrorKind::MonthsInDuration)); // step 10
        assert_eq!(secs("P1Y"), Err(ErrorKind::MonthsInDuration));
        assert_eq!(secs("P0Y0M1D"), Ok((86_400, 0))); // zero months are fine
        assert_eq!(secs("1y 1m"), Err(ErrorKind::MonthsInDuration)); // Y switches M to months
        assert_eq!(secs("1w 1m"), Ok((604_860, 0))); // W switches it back
        assert_eq!(
            secs("x"),
            Err(ErrorKind::Expected(
                "an ASCII digit or U+002E FULL STOP (.)"
            ))
        ); // step 8.6
        assert_eq!(secs("5"), Err(ErrorKind::UnexpectedEnd)); // step 8.7
        assert_eq!(secs(".5s"), Ok((0, 500_000_000))); // N = 0 at a full stop
        assert_eq!(secs("1.s"), Err(ErrorKind::Expected("an ASCII digit"))); // step 8.9.2
        assert_eq!(secs("1.5"), Err(ErrorKind::UnexpectedEnd)); // step 8.9.7
        assert_eq!(secs("1.5 s"), Ok((1, 500_000_000)));
        assert_eq!(
            secs("1.5h"),
            Err(ErrorKind::Expected("U+0053 LATIN CAPITAL LETTER S"))
        ); // step 8.9.9
        assert_eq!(secs("1 h"), Ok((3600, 0))); // space before the unit
        assert_eq!(secs("1 "), Err(ErrorKind::UnexpectedEnd));
        assert_eq!(
            secs("1x"),
            Err(ErrorKind::Expected("a unit: Y, M, W, D, H or S"))
        );
        assert_eq!(secs("1h1h"), Ok((7200, 0))); // repeats add up
        assert_eq!(secs("0.9s 0.2s"), Ok((1, 100_000_000)));
        assert_eq!(secs("1.1234567891s"), Ok((1, 123_456_789)));
        assert_eq!(secs("18446744073709551615s"), Ok((u64::MAX, 0)));
        assert_eq!(secs("18446744073709551616s"), Err(ErrorKind::Overflow));
        assert_eq!(
            secs("30500000000000w"),
            Ok((30_500_000_000_000 * 604_800, 0))
        );
        assert_eq!(secs("30600000000000w"), Err(ErrorKind::Overflow));
    }

    #[test]
    fn serializers() {
        let d = |s, n| Duration::new(s, n).unwrap();
        assert_eq!(d(0, 0).to_string(), "PT0S");
        assert_eq!(d(0, 0).to_component_string(), "0s");
        assert_eq!(d(86_400, 0).to_string(), "P1D");
        assert_eq!(d(90_061, 500_000_000).to_string(), "P1DT1H1M1.5S");
        assert_eq!(d(691_200 + 3600, 0).to_component_string(), "1w 1d 1h");
        assert_eq!(d(0, 250_000_000).to_component_string(), "0.25s");
        assert_eq!(d(60, 0).to_string(), "PT1M");
        assert_eq!(d(1, 500_000_000).seconds_f64(), 1.5);
    }

    #[test]
    fn validity() {
        for ok in [
            "P1D",
            "PT1H",
            "PT1M",
            "PT1S",
            "PT1.123S",
            "P1DT1H1M1S",
            "1s",
            "1.5s",
            " 1 s ",
            "1w1d1h1m1s",
            "1s 1m",
        ] {
            assert!(is_valid_duration_string(ok), "{ok}");
        }
        for bad in [
            "", " ", "P", "PT", "P1H", "PT1D", "P1DT", "PT1.S", "PT.5S", "PT1M1H", "1", "1x",
            "1s1s", "1.5m", "p1d", "P 1D",
        ] {
            assert!(!is_valid_duration_string(bad), "{bad}");
        }
    }
}
