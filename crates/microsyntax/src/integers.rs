//! Integers: seed 002 §2.4.3.1 (unsigned) and §2.4.3.2 (signed), seed 004's
//! identical rules with VT as a space character, and the later standard's
//! rules, which ignore a leading `+` and define the non-negative rules on top
//! of the signed ones. Also the reference's positive non-zero integers (the
//! placeholder of seed 002 §2.4.3.5).
//!
//! The spec's integers are unbounded; these functions return `i64`/`u64` and
//! report [`ErrorKind::Overflow`] beyond that (a deviation every real parser
//! makes). None of them allocates.

use crate::error::{Error, ErrorKind};
use crate::idioms::{Cursor, Spaces};

/// Which draft's rules an integer parser follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Rules {
    /// The later standard: `+` is skipped.
    Standard,
    /// Seed 002: no `+`.
    Seed002,
    /// Seed 004: no `+`, and VT is a space character.
    Seed004,
}

impl Rules {
    const fn spaces(self) -> Spaces {
        match self {
            Self::Seed004 => Spaces::Seed004,
            Self::Standard | Self::Seed002 => Spaces::Standard,
        }
    }
}

/// Accumulates ASCII digits into a `u64`, or `None` on overflow.
pub(crate) fn digits_to_u64(digits: &str) -> Option<u64> {
    digits.bytes().try_fold(0u64, |value, b| {
        value
            .checked_mul(10)?
            .checked_add(u64::from(b.wrapping_sub(b'0')))
    })
}

/// Accumulates ASCII digits into a `u32`, saturating at `u32::MAX` (for
/// components that are range-checked afterwards anyway).
pub(crate) fn digits_to_u32_saturating(digits: &str) -> u32 {
    digits.bytes().fold(0u32, |value, b| {
        value
            .saturating_mul(10)
            .saturating_add(u32::from(b.wrapping_sub(b'0')))
    })
}

/// The sign and digits of an integer, before conversion.
struct SignedDigits<'a> {
    negative: bool,
    digits: &'a str,
    start: usize,
}

/// Steps shared by the signed and unsigned rules: skip white space, read an
/// optional sign (as `rules` allows), require a digit, collect the digits.
fn scan_signed<'a>(
    input: &'a str,
    rules: Rules,
    allow_minus: bool,
) -> Result<SignedDigits<'a>, Error> {
    // Steps 1–2. input and position.
    let mut cursor = Cursor::new(input);
    // Step 4 (later standard) / step 5 (seed 002 signed). Skip white space.
    cursor.skip_spaces(rules.spaces());
    // If position is past the end of input, return an error.
    if cursor.is_at_end() {
        return Err(cursor.error(ErrorKind::UnexpectedEnd));
    }
    let mut negative = false;
    // The sign: `-` (signed rules), or `+` (later standard only).
    match cursor.peek_byte() {
        Some(b'-') if allow_minus => {
            negative = true;
            cursor.advance();
            if cursor.is_at_end() {
                return Err(cursor.error(ErrorKind::UnexpectedEnd));
            }
        }
        Some(b'+') if rules == Rules::Standard => {
            // "The `+` is ignored, but it is not conforming."
            cursor.advance();
            if cursor.is_at_end() {
                return Err(cursor.error(ErrorKind::UnexpectedEnd));
            }
        }
        _ => {}
    }
    // If the next character is not an ASCII digit, return an error.
    let start = cursor.position();
    let digits = cursor.collect_digits();
    if digits.is_empty() {
        return Err(cursor.expected("an ASCII digit"));
    }
    // Trailing characters are ignored.
    Ok(SignedDigits {
        negative,
        digits,
        start,
    })
}

fn signed(input: &str, rules: Rules) -> Result<i64, Error> {
    let SignedDigits {
        negative,
        digits,
        start,
    } = scan_signed(input, rules, true)?;
    let overflow = Error::new(ErrorKind::Overflow, start);
    let magnitude = digits_to_u64(digits).ok_or(overflow)?;
    if negative {
        // Return the result of subtracting value from zero.
        0i64.checked_sub_unsigned(magnitude).ok_or(overflow)
    } else {
        i64::try_from(magnitude).map_err(|_| overflow)
    }
}

/// Spec: reference "rules for parsing integers" (the later standard; seed
/// 002 §2.4.3.2 with a leading `+` ignored). Leading space characters are
/// skipped, trailing garbage is ignored.
///
/// ```
/// use microsyntax::parse_integer;
/// assert_eq!(parse_integer("  -42px"), Ok(-42));
/// assert_eq!(parse_integer("+7"), Ok(7));
/// assert!(parse_integer("x1").is_err());
/// ```
pub fn parse_integer(input: &str) -> Result<i64, Error> {
    signed(input, Rules::Standard)
}

/// Spec: seed 002 §2.4.3.2 "rules for parsing integers": like
/// [`parse_integer`], but a `+` sign is an error.
///
/// ```
/// assert!(microsyntax::parse_integer_seed("+7").is_err());
/// assert_eq!(microsyntax::parse_integer_seed(" -7"), Ok(-7));
/// ```
pub fn parse_integer_seed(input: &str) -> Result<i64, Error> {
    signed(input, Rules::Seed002)
}

/// Spec: seed 004 "rules for parsing integers": seed 002's rules, with
/// U+000B LINE TABULATION among the skipped space characters.
///
/// ```
/// assert_eq!(microsyntax::parse_integer_seed004("\u{B}5"), Ok(5));
/// assert!(microsyntax::parse_integer("\u{B}5").is_err());
/// ```
pub fn parse_integer_seed004(input: &str) -> Result<i64, Error> {
    signed(input, Rules::Seed004)
}

fn non_negative(input: &str, rules: Rules) -> Result<u64, Error> {
    // The later standard parses with the signed rules and rejects negative
    // values (so "-0" is 0); the seeds accept no sign at all.
    let allow_minus = rules == Rules::Standard;
    let SignedDigits {
        negative,
        digits,
        start,
    } = scan_signed(input, rules, allow_minus)?;
    let value = digits_to_u64(digits).ok_or(Error::new(ErrorKind::Overflow, start))?;
    if negative && value != 0 {
        return Err(Error::new(ErrorKind::Negative, start.saturating_sub(1)));
    }
    Ok(value)
}

/// Spec: reference "rules for parsing non-negative integers" (the later
/// standard): the signed rules, then an error for values below zero.
///
/// ```
/// use microsyntax::parse_non_negative_integer;
/// assert_eq!(parse_non_negative_integer(" 300 "), Ok(300));
/// assert_eq!(parse_non_negative_integer("+1"), Ok(1));
/// assert_eq!(parse_non_negative_integer("-0"), Ok(0));
/// assert!(parse_non_negative_integer("-1").is_err());
/// ```
pub fn parse_non_negative_integer(input: &str) -> Result<u64, Error> {
    non_negative(input, Rules::Standard)
}

/// Spec: seed 002 §2.4.3.1 "rules for parsing non-negative integers": skip
/// whitespace, then one or more digits; any sign is an error.
///
/// ```
/// use microsyntax::parse_non_negative_integer_seed;
/// assert_eq!(parse_non_negative_integer_seed("12abc"), Ok(12));
/// assert!(parse_non_negative_integer_seed("-0").is_err());
/// assert!(parse_non_negative_integer_seed("+1").is_err());
/// ```
pub fn parse_non_negative_integer_seed(input: &str) -> Result<u64, Error> {
    non_negative(input, Rules::Seed002)
}

/// Spec: seed 004 "rules for parsing non-negative integers": seed 002's
/// rules with VT as a space character.
///
/// ```
/// assert_eq!(microsyntax::parse_non_negative_integer_seed004("\u{B}9"), Ok(9));
/// ```
pub fn parse_non_negative_integer_seed004(input: &str) -> Result<u64, Error> {
    non_negative(input, Rules::Seed004)
}

/// Spec: seed 002 §2.4.3.5 placeholder "rules for parsing positive non-zero
/// integers", completed as the later standard does: the
/// [non-negative rules](parse_non_negative_integer), then an error for zero.
///
/// ```
/// use microsyntax::parse_positive_non_zero_integer;
/// assert_eq!(parse_positive_non_zero_integer("3"), Ok(3));
/// assert!(parse_positive_non_zero_integer("0").is_err());
/// ```
pub fn parse_positive_non_zero_integer(input: &str) -> Result<u64, Error> {
    match parse_non_negative_integer(input)? {
        0 => Err(Error::new(ErrorKind::Zero, 0)),
        n => Ok(n),
    }
}

/// Spec: seed 002 §2.4.3.1 "valid non-negative integer" (same in every
/// draft): one or more ASCII digits and nothing else.
///
/// ```
/// assert!(microsyntax::is_valid_non_negative_integer("007"));
/// assert!(!microsyntax::is_valid_non_negative_integer(" 7"));
/// assert!(!microsyntax::is_valid_non_negative_integer("+7"));
/// ```
pub fn is_valid_non_negative_integer(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// Spec: seed 002 §2.4.3.2 "valid integer" (same in every draft): an
/// optional `-` and one or more ASCII digits. A `+` is never valid.
///
/// ```
/// assert!(microsyntax::is_valid_integer("-12"));
/// assert!(!microsyntax::is_valid_integer("+12"));
/// ```
pub fn is_valid_integer(s: &str) -> bool {
    is_valid_non_negative_integer(s.strip_prefix('-').unwrap_or(s))
}

/// Spec: seed 002 §2.4.3.5 "valid positive non-zero integer": a
/// [valid non-negative integer](is_valid_non_negative_integer) whose value is
/// greater than zero.
///
/// ```
/// assert!(microsyntax::is_valid_positive_non_zero_integer("01"));
/// assert!(!microsyntax::is_valid_positive_non_zero_integer("00"));
/// ```
pub fn is_valid_positive_non_zero_integer(s: &str) -> bool {
    is_valid_non_negative_integer(s) && s.bytes().any(|b| b != b'0')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn check(input: &str, expected: Result<i64, ErrorKind>) {
        assert_eq!(
            parse_integer(input).map_err(|e| e.kind()),
            expected,
            "{input:?}"
        );
    }

    #[test]
    fn integer_steps() {
        // Step 5: past the end after skipping white space.
        check("", Err(ErrorKind::UnexpectedEnd));
        check(" \t\n\r\u{C}", Err(ErrorKind::UnexpectedEnd));
        // Step 6: a lone sign.
        check("-", Err(ErrorKind::UnexpectedEnd));
        check("+", Err(ErrorKind::UnexpectedEnd));
        // Step 7: not a digit.
        check("a", Err(ErrorKind::Expected("an ASCII digit")));
        check("--1", Err(ErrorKind::Expected("an ASCII digit")));
        check("-+1", Err(ErrorKind::Expected("an ASCII digit")));
        check("\u{A0}1", Err(ErrorKind::Expected("an ASCII digit")));
        check(".5", Err(ErrorKind::Expected("an ASCII digit")));
        // Steps 8–9.
        check("0", Ok(0));
        check("-0", Ok(0));
        check("  12 34", Ok(12));
        check("12.9", Ok(12));
        check("-9223372036854775808", Ok(i64::MIN));
        check("9223372036854775807", Ok(i64::MAX));
        check("9223372036854775808", Err(ErrorKind::Overflow));
        check("-9223372036854775809", Err(ErrorKind::Overflow));
        check("000000000000000000000000000042", Ok(42));
    }

    #[test]
    fn error_positions() {
        assert_eq!(parse_integer("  x").map_err(|e| e.position()), Err(2));
        assert_eq!(parse_integer("  -").map_err(|e| e.position()), Err(3));
    }

    #[test]
    fn seed_variants() {
        assert!(parse_integer_seed("+1").is_err());
        assert_eq!(parse_integer_seed("-1"), Ok(-1));
        assert!(parse_integer_seed("\u{B}1").is_err());
        assert_eq!(parse_integer_seed004("\u{B}-1"), Ok(-1));
        assert!(parse_integer_seed004("+1").is_err());
    }

    #[test]
    fn non_negative_steps() {
        assert_eq!(
            parse_non_negative_integer("18446744073709551615"),
            Ok(u64::MAX)
        );
        assert_eq!(
            parse_non_negative_integer("18446744073709551616").map_err(|e| e.kind()),
            Err(ErrorKind::Overflow)
        );
        assert_eq!(
            parse_non_negative_integer("-5").map_err(|e| e.kind()),
            Err(ErrorKind::Negative)
        );
        assert_eq!(parse_non_negative_integer("+0"), Ok(0));
        // Seed 002 §2.4.3.1 step 6: a sign is not a digit.
        assert_eq!(
            parse_non_negative_integer_seed("-0").map_err(|e| e.kind()),
            Err(ErrorKind::Expected("an ASCII digit"))
        );
        assert_eq!(parse_non_negative_integer_seed(" 1 2"), Ok(1));
        // Seed 002 §2.4.3.1 step 5.
        assert_eq!(
            parse_non_negative_integer_seed("  ").map_err(|e| e.kind()),
            Err(ErrorKind::UnexpectedEnd)
        );
        assert_eq!(parse_non_negative_integer_seed004("\u{B}\u{B}3"), Ok(3));
    }

    #[test]
    fn positive_non_zero() {
        assert_eq!(
            parse_positive_non_zero_integer("-0").map_err(|e| e.kind()),
            Err(ErrorKind::Zero)
        );
        assert_eq!(parse_positive_non_zero_integer(" 10%"), Ok(10));
        assert!(!is_valid_positive_non_zero_integer(""));
    }

    #[test]
    fn validity() {
        for ok in ["0", "-0", "123", "-123"] {
            assert!(is_valid_integer(ok), "{ok}");
        }
        for bad in ["", "-", "+1", " 1", "1 ", "1.0", "1e3", "--1", "١"] {
            assert!(!is_valid_integer(bad), "{bad}");
        }
        assert!(!is_valid_non_negative_integer("-1"));
    }
}
