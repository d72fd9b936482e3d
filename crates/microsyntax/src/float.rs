//! Floating-point numbers: the later standard's "rules for parsing
//! floating-point number values" (the default), seed 002 §2.4.3.3 and seed
//! 004's earlier rules, each with its "valid floating-point number" syntax,
//! and the later standard's "best representation" serializer.
//!
//! What changed between the drafts:
//!
//! | | seed 004 | seed 002 | later standard |
//! |---|---|---|---|
//! | leading `+` | error | error | skipped (non-conforming) |
//! | leading `.` (`.5`) | parsed, valid | error | parsed, valid |
//! | trailing `.` (`5.`) | parsed, valid | parsed, not valid | parsed, not valid |
//! | exponent | none | `e`/`E`, optional `-` | `e`/`E`, optional `-` or `+` |
//! | `5.e3` | 5 | 5 | 5000 |
//! | VT as white space | yes | no | no |
//! | result | step-by-step arithmetic | step-by-step arithmetic | nearest IEEE double, ties to even; ±2^1024 is an error; no −0 |
//!
//! The seed variants run the steps in `f64` arithmetic exactly as written
//! (`value += digit / divisor`), which is what implementations of that era
//! did, so their last bits can differ from the nearest double. The default
//! finds the text of the number with the standard's steps and rounds it
//! once with `core`'s correctly rounded `str::parse::<f64>`, which reads any
//! number of digits: nothing allocates.

use crate::error::{Error, ErrorKind};
use crate::idioms::{Cursor, Spaces};

/// Significant digits kept before the rest are folded into a sticky digit.
/// Any decimal halfway point between two doubles has at most 767
/// significant digits, so keeping more than that and appending a non-zero
/// digit when non-zero digits were dropped preserves correct rounding.
const MAX_SIGNIFICANT_DIGITS: usize = 800;

/// Decimal exponents are clamped to this magnitude: with at most 801
/// significant digits, anything beyond it is certainly 0 or infinite.
const MAX_EXPONENT: i64 = 100_000;

/// A decimal number `digits × 10^scale` under construction, with its
/// significant digits (no leading zeros) in a fixed buffer.
pub(crate) struct Decimal {
    digits: [u8; MAX_SIGNIFICANT_DIGITS],
    len: usize,
    scale: i64,
    /// Non-zero digits were dropped after the buffer filled up.
    sticky: bool,
}

impl Decimal {
    pub(crate) const fn new() -> Self {
        Self {
            digits: [0; MAX_SIGNIFICANT_DIGITS],
            len: 0,
            scale: 0,
            sticky: false,
        }
    }

    /// Appends a digit before the decimal point (`value = value * 10 + d`).
    pub(crate) fn push_integer_digit(&mut self, d: u8) {
        if self.len == 0 && d == 0 {
            return;
        }
        if let Some(slot) = self.digits.get_mut(self.len) {
            *slot = d;
            self.len += 1;
        } else {
            self.scale = self.scale.saturating_add(1);
            self.sticky |= d != 0;
        }
    }

    /// Appends a digit after the decimal point.
    pub(crate) fn push_fraction_digit(&mut self, d: u8) {
        if self.len == 0 && d == 0 {
            self.scale = self.scale.saturating_sub(1);
            return;
        }
        if let Some(slot) = self.digits.get_mut(self.len) {
            *slot = d;
            self.len += 1;
            self.scale = self.scale.saturating_sub(1);
        } else {
            self.sticky |= d != 0;
        }
    }

    pub(crate) fn push_integer_digits(&mut self, digits: &str) {
        for b in digits.bytes() {
            self.push_integer_digit(b.wrapping_sub(b'0'));
        }
    }

    /// The magnitude `digits × 10^(scale + exponent)` rounded to the nearest
    /// double (ties to even); infinite when it rounds to 2^1024 or beyond.
    pub(crate) fn to_f64(&self, exponent: i64) -> f64 {
        if self.len == 0 {
            return 0.0;
        }
        // digits, an optional sticky digit, 'e', a sign and up to 19 digits.
        let mut text = [0u8; MAX_SIGNIFICANT_DIGITS + 24];
        let mut n = 0;
        let mut put = |b: u8| {
            if let Some(slot) = text.get_mut(n) {
                *slot = b;
                n += 1;
            }
        };
        for &d in self.digits.iter().take(self.len) {
            put(b'0' + d);
        }
        let mut scale = self.scale;
        if self.sticky {
            put(b'1');
            scale = scale.saturating_sub(1);
        }
        let e = scale
            .saturating_add(exponent)
            .clamp(-MAX_EXPONENT, MAX_EXPONENT);
        put(b'e');
        if e < 0 {
            put(b'-');
        }
        let mut magnitude = e.unsigned_abs();
        let mut exponent_digits = [0u8; 20];
        let mut k = 0;
        loop {
            if let Some(slot) = exponent_digits.get_mut(k) {
                *slot = b'0' + (magnitude % 10) as u8;
                k += 1;
            }
            magnitude /= 10;
            if magnitude == 0 {
                break;
            }
        }
        for &b in exponent_digits.iter().take(k).rev() {
            put(b);
        }
        core::str::from_utf8(text.get(..n).unwrap_or(&[]))
            .ok()
            .and_then(|s| s.parse::<f64>().ok())
            .unwrap_or(f64::NAN)
    }
}

/// Reads a run of exponent digits as a saturating `i64`.
fn exponent_value(digits: &str) -> i64 {
    digits.bytes().fold(0i64, |v, b| {
        v.saturating_mul(10).saturating_add(i64::from(b - b'0'))
    })
}

/// Spec: reference "rules for parsing floating-point number values" (the
/// later standard), steps 1–18. Leading space characters are skipped and
/// trailing garbage ignored; the result is the nearest double (ties to
/// even), never −0, and an error if it rounds to ±2^1024: the living
/// standard's conversion steps (the same in HTML 5.2) return an error for
/// those, so `2e308` is an error ([`ErrorKind::Overflow`]).
///
/// ```
/// use microsyntax::parse_float;
/// assert_eq!(parse_float(" 1.5e3px"), Ok(1500.0));
/// assert_eq!(parse_float("+.5"), Ok(0.5));
/// assert_eq!(parse_float("5.e-1"), Ok(0.5));
/// assert_eq!(parse_float("0.1"), Ok(0.1)); // the double nearest to 1/10
/// assert!(parse_float("1e400").is_err());
/// ```
pub fn parse_float(input: &str) -> Result<f64, Error> {
    // Steps 1–5. input, position, value = 1, divisor = 1, exponent = 1. The
    // value is not computed step by step: the steps find the span of text
    // that makes up the number, and step 16's rounding is applied to it
    // once, by `core`'s correctly rounded `str::parse::<f64>`.
    let mut cursor = Cursor::new(input);
    // Step 6. Skip white space.
    cursor.skip_whitespace();
    // Step 7.
    if cursor.is_at_end() {
        return Err(cursor.error(ErrorKind::UnexpectedEnd));
    }
    let number_start = cursor.position();
    // Step 8. A `-` negates value and divisor; a `+` is skipped.
    if matches!(cursor.peek_byte(), Some(b'-' | b'+')) {
        cursor.advance();
        if cursor.is_at_end() {
            return Err(cursor.error(ErrorKind::UnexpectedEnd));
        }
    }
    // Step 9. A `.` followed by a digit: value is zero, go to "fraction".
    let leading_dot = cursor.peek_byte() == Some(b'.')
        && cursor.peek_byte_at(1).is_some_and(|b| b.is_ascii_digit());
    if !leading_dot {
        // Step 10.
        if !cursor.peek_byte().is_some_and(|b| b.is_ascii_digit()) {
            return Err(cursor.expected("an ASCII digit"));
        }
        // Step 11. Collect the integer part.
        cursor.collect_digits();
    }
    // Step 12. (At the end, the checks below find nothing more.)
    // Step 13. Fraction: the point and the fraction loop.
    if cursor.eat('.') {
        // Steps 13.2–13.8. (A point followed by neither a digit nor an
        // exponent ends the number; `5.` reads as 5.)
        cursor.collect_digits();
    }
    let mut end = cursor.position();
    // Step 14. The exponent: `e` or `E`, an optional sign, digits. Without
    // digits the exponent is ignored (steps 14.2, 14.3, 14.4).
    if matches!(cursor.peek_byte(), Some(b'e' | b'E')) {
        cursor.advance();
        if matches!(cursor.peek_byte(), Some(b'-' | b'+')) {
            cursor.advance();
        }
        // Steps 14.5–14.6.
        if !cursor.collect_digits().is_empty() {
            end = cursor.position();
        }
    }
    // Steps 15–18. Conversion: the nearest value of the set of finite
    // doubles without −0 plus ±2^1024; those two are errors. Every span
    // built above (`[+-]` digits, a point, digits, an exponent) is in
    // Rust's float grammar, which reads any number of digits.
    let span = input.get(number_start..end).unwrap_or("");
    let value: f64 = span
        .parse()
        .map_err(|_| Error::new(ErrorKind::Expected("a number"), number_start))?;
    if !value.is_finite() {
        return Err(Error::new(ErrorKind::Overflow, number_start));
    }
    // −0 is not in the set: a negative value that rounds to zero is +0.
    Ok(if value == 0.0 { 0.0 } else { value })
}

/// Spec: seed 002 §2.4.3.3 "rules for parsing floating point number values",
/// steps 1–14, in `f64` arithmetic as written: no `+`, no leading `.`, an
/// exponent only after at least one fraction digit or none, no `e+`.
///
/// Deviation: a result too large for an `f64` is an [`ErrorKind::Overflow`]
/// error (the seed's numbers are unbounded).
///
/// ```
/// use microsyntax::parse_float_seed;
/// assert_eq!(parse_float_seed("-1.5e2"), Ok(-150.0));
/// assert_eq!(parse_float_seed("5.e3"), Ok(5.0)); // step 12.2 returns before the exponent
/// assert_eq!(parse_float_seed("1e+3"), Ok(1.0)); // step 13.4: `+` is not a digit
/// assert!(parse_float_seed("+1").is_err());
/// assert!(parse_float_seed(".5").is_err());
/// ```
pub fn parse_float_seed(input: &str) -> Result<f64, Error> {
    // Steps 1–5.
    let mut cursor = Cursor::new(input);
    let mut value: f64 = 1.0;
    let mut divisor: f64 = 1.0;
    let mut exponent: i32 = 1;
    // Step 6.
    cursor.skip_whitespace();
    // Step 7.
    if cursor.is_at_end() {
        return Err(cursor.error(ErrorKind::UnexpectedEnd));
    }
    let number_start = cursor.position();
    let finish = |value: f64| {
        if value.is_finite() {
            Ok(value)
        } else {
            Err(Error::new(ErrorKind::Overflow, number_start))
        }
    };
    // Step 8.
    if cursor.eat('-') {
        value = -1.0;
        divisor = -1.0;
        if cursor.is_at_end() {
            return Err(cursor.error(ErrorKind::UnexpectedEnd));
        }
    }
    // Step 9.
    if !cursor.peek_byte().is_some_and(|b| b.is_ascii_digit()) {
        return Err(cursor.expected("an ASCII digit"));
    }
    // Step 10.
    value *= naive_integer(cursor.collect_digits());
    // Step 11.
    if cursor.is_at_end() {
        return finish(value);
    }
    // Step 12.
    if cursor.eat('.') {
        // Step 12.2.
        if !cursor.peek_byte().is_some_and(|b| b.is_ascii_digit()) {
            return finish(value);
        }
        // Steps 12.3–12.7. Fraction loop.
        for b in cursor.collect_digits().bytes() {
            divisor *= 10.0;
            value += f64::from(b - b'0') / divisor;
        }
        if cursor.is_at_end() {
            return finish(value);
        }
    }
    // Step 13.
    if matches!(cursor.peek_byte(), Some(b'e' | b'E')) {
        cursor.advance();
        if cursor.is_at_end() {
            return finish(value);
        }
        if cursor.eat('-') {
            exponent = -1;
            if cursor.is_at_end() {
                return finish(value);
            }
        }
        let digits = cursor.collect_digits();
        if digits.is_empty() {
            return finish(value);
        }
        let e = exponent_value(digits).clamp(0, i64::from(i32::MAX));
        exponent = exponent.saturating_mul(i32::try_from(e).unwrap_or(i32::MAX));
        // Step 13.6. (Zero stays zero whatever the exponent.)
        if value != 0.0 {
            value *= 10f64.powi(exponent);
        }
    }
    // Step 14.
    finish(value)
}

/// Interprets ASCII digits as an integer by the naive `v * 10 + d` loop.
fn naive_integer(digits: &str) -> f64 {
    digits
        .bytes()
        .fold(0.0, |v, b| v * 10.0 + f64::from(b - b'0'))
}

/// Spec: seed 004 "rules for parsing floating point number values" (Oct
/// 2007): an optional `-`, digits with at most one `.` anywhere (`.5`, `5.`),
/// no exponent; VT is a space character. Run in `f64` arithmetic.
///
/// The seed 004 text lost its nested sub-steps; they are restored from the
/// surrounding steps (collect the integer digits; then the fraction loop
/// "divisor × 10, value += digit / divisor").
///
/// ```
/// use microsyntax::parse_float_seed004;
/// assert_eq!(parse_float_seed004("-.25"), Ok(-0.25));
/// assert_eq!(parse_float_seed004("3.e5"), Ok(3.0)); // no exponents in this draft
/// assert!(parse_float_seed004(".").is_err());
/// ```
pub fn parse_float_seed004(input: &str) -> Result<f64, Error> {
    let mut cursor = Cursor::new(input);
    // Steps 3–4.
    let mut value: f64 = 0.0;
    let mut negative = false;
    // Leading spaces are ignored.
    cursor.skip_spaces(Spaces::Seed004);
    if cursor.is_at_end() {
        return Err(cursor.error(ErrorKind::UnexpectedEnd));
    }
    let number_start = cursor.position();
    // A leading `-`.
    if cursor.eat('-') {
        negative = true;
        if cursor.is_at_end() {
            return Err(cursor.error(ErrorKind::UnexpectedEnd));
        }
    }
    let finish = |value: f64| {
        let value = if negative { 0.0 - value } else { value };
        if value.is_finite() {
            Ok(value)
        } else {
            Err(Error::new(ErrorKind::Overflow, number_start))
        }
    };
    // Neither a digit nor a `.`: error.
    match cursor.peek_byte() {
        Some(b) if b.is_ascii_digit() => {
            value = naive_integer(cursor.collect_digits());
        }
        // A `.` must be followed by a digit.
        Some(b'.') if cursor.peek_byte_at(1).is_some_and(|b| b.is_ascii_digit()) => {}
        Some(b'.') => {
            cursor.advance();
            return Err(cursor.expected("an ASCII digit"));
        }
        _ => return Err(cursor.expected("an ASCII digit or U+002E FULL STOP (.)")),
    }
    // The end, or anything but a `.`: return the value.
    if !cursor.eat('.') {
        return finish(value);
    }
    // Divisor 1, then the fraction digits.
    let mut divisor: f64 = 1.0;
    for b in cursor.collect_digits().bytes() {
        divisor *= 10.0;
        value += f64::from(b - b'0') / divisor;
    }
    finish(value)
}

/// Spec: living standard (and reference) "valid floating-point number": an
/// optional `-`; digits, or digits `.` digits, or `.` digits; optionally `e`
/// or `E`, an optional `-` or `+`, and one or more digits; and the string
/// must represent a number: one whose value overflows to infinity is not
/// valid.
///
/// The last condition is this crate's reading of the standard (WHATWG HTML
/// as of 2024): a valid floating-point number "represents" the number its
/// significand and exponent make, and the rules for parsing floating-point
/// number values return an error when that number rounds to ±2^1024 (their
/// conversion steps), so `2e308` and `-1e400` represent no number HTML can
/// use and are rejected, while `1e-400` (which rounds to 0) stays valid. So
/// `is_valid_float(s)` implies that [`parse_float`]`(s)` is `Ok`. The seed
/// variants' checks ([`is_valid_float_seed`], [`is_valid_float_seed004`])
/// stay syntax only, as the seeds wrote them.
///
/// ```
/// use microsyntax::is_valid_float;
/// assert!(is_valid_float("-.5e+10"));
/// assert!(!is_valid_float("5."));
/// assert!(!is_valid_float("+5"));
/// assert!(!is_valid_float("Infinity"));
/// assert!(!is_valid_float("2e308"));
/// assert!(is_valid_float("1e308"));
/// ```
pub fn is_valid_float(s: &str) -> bool {
    float_syntax(s, FloatSyntax::Standard) && parse_float(s).is_ok()
}

/// Spec: seed 002 §2.4.3.3 "valid floating point number": an optional `-`,
/// digits, an optional `.` and digits, an optional exponent `e`/`E` with an
/// optional `-` (no `+`) and one or more digits (typo fixed: the draft says
/// "a series of characters", which would make `1e` valid).
///
/// ```
/// use microsyntax::is_valid_float_seed;
/// assert!(is_valid_float_seed("1.5e-3"));
/// assert!(!is_valid_float_seed("1.5e+3"));
/// assert!(!is_valid_float_seed(".5"));
/// ```
pub fn is_valid_float_seed(s: &str) -> bool {
    float_syntax(s, FloatSyntax::Seed002)
}

/// Spec: seed 004 "valid floating point number": an optional `-` and one or
/// more digits with at most one `.` before, between or after them.
///
/// ```
/// use microsyntax::is_valid_float_seed004;
/// assert!(is_valid_float_seed004("5."));
/// assert!(is_valid_float_seed004("-.5"));
/// assert!(!is_valid_float_seed004("1e3"));
/// ```
pub fn is_valid_float_seed004(s: &str) -> bool {
    let body = s.strip_prefix('-').unwrap_or(s);
    let (before, after) = body.split_once('.').unwrap_or((body, ""));
    let digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
    digits(before) && digits(after) && !(before.is_empty() && after.is_empty())
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum FloatSyntax {
    Standard,
    Seed002,
}

fn float_syntax(s: &str, syntax: FloatSyntax) -> bool {
    let mut c = Cursor::new(s);
    c.eat('-');
    let integer = c.collect_digits();
    let fraction = if c.eat('.') {
        let f = c.collect_digits();
        if f.is_empty() {
            return false;
        }
        Some(f)
    } else {
        None
    };
    match syntax {
        FloatSyntax::Standard if integer.is_empty() && fraction.is_none() => return false,
        FloatSyntax::Seed002 if integer.is_empty() => return false,
        _ => {}
    }
    if c.eat('e') || c.eat('E') {
        if !c.eat('-') && syntax == FloatSyntax::Standard {
            c.eat('+');
        }
        if c.collect_digits().is_empty() {
            return false;
        }
    }
    c.is_at_end()
}

/// Spec: reference "best representation of the number n as a floating-point
/// number": ECMAScript's `ToString(n)` (shortest digits that round-trip).
/// `None` for infinities and NaN, which have no valid representation.
///
/// The result is always a [valid floating-point number](is_valid_float)
/// that [`parse_float`] reads back as `n` (−0 is written `0`).
///
/// ```
/// use microsyntax::best_representation;
/// assert_eq!(best_representation(1.5).as_deref(), Some("1.5"));
/// assert_eq!(best_representation(1e21).as_deref(), Some("1e+21"));
/// assert_eq!(best_representation(-1e-7).as_deref(), Some("-1e-7"));
/// assert_eq!(best_representation(0.000001).as_deref(), Some("0.000001"));
/// assert_eq!(best_representation(f64::NAN), None);
/// ```
pub fn best_representation(n: f64) -> Option<String> {
    if !n.is_finite() {
        return None;
    }
    if n == 0.0 {
        return Some("0".to_owned());
    }
    // `{:e}` gives the shortest round-tripping digits: "d.ddde±x".
    let sci = format!("{:e}", n.abs());
    let (mantissa, exp) = sci.split_once('e')?;
    let exp: i64 = exp.parse().ok()?;
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let k = i64::try_from(digits.len()).ok()?;
    let n_exp = exp + 1;
    let mut out = String::new();
    if n < 0.0 {
        out.push('-');
    }
    if k <= n_exp && n_exp <= 21 {
        out.push_str(&digits);
        out.extend(std::iter::repeat_n('0', usize::try_from(n_exp - k).ok()?));
    } else if 0 < n_exp && n_exp <= 21 {
        let (a, b) = digits.split_at(usize::try_from(n_exp).ok()?);
        out.push_str(a);
        out.push('.');
        out.push_str(b);
    } else if -6 < n_exp && n_exp <= 0 {
        out.push_str("0.");
        out.extend(std::iter::repeat_n('0', usize::try_from(-n_exp).ok()?));
        out.push_str(&digits);
    } else {
        let (first, rest) = digits.split_at(1);
        out.push_str(first);
        if !rest.is_empty() {
            out.push('.');
            out.push_str(rest);
        }
        out.push('e');
        out.push(if n_exp - 1 < 0 { '-' } else { '+' });
        out.push_str(&(n_exp - 1).unsigned_abs().to_string());
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn check(input: &str, expected: Result<f64, ErrorKind>) {
        let got = parse_float(input).map_err(|e| e.kind());
        match (got, expected) {
            (Ok(a), Ok(b)) => assert!(a.to_bits() == b.to_bits(), "{input:?}: {a:e} != {b:e}"),
            (a, b) => assert_eq!(a, b, "{input:?}"),
        }
    }

    #[test]
    fn standard_steps() {
        // Step 7.
        check("", Err(ErrorKind::UnexpectedEnd));
        check("  ", Err(ErrorKind::UnexpectedEnd));
        // Step 8.3 and its `+` twin.
        check("-", Err(ErrorKind::UnexpectedEnd));
        check("+", Err(ErrorKind::UnexpectedEnd));
        // Step 9.
        check(".5", Ok(0.5));
        check("-.5", Ok(-0.5));
        check(".e1", Err(ErrorKind::Expected("an ASCII digit")));
        check(".", Err(ErrorKind::Expected("an ASCII digit")));
        // Step 10.
        check("e1", Err(ErrorKind::Expected("an ASCII digit")));
        check("--1", Err(ErrorKind::Expected("an ASCII digit")));
        // Steps 11–12.
        check("42", Ok(42.0));
        check("42abc", Ok(42.0));
        // Step 13.2: point then neither digit nor exponent.
        check("1.", Ok(1.0));
        check("1.x", Ok(1.0));
        // Step 13.3: exponent right after the point.
        check("1.e2", Ok(100.0));
        // Step 14.
        check("1e", Ok(1.0));
        check("1e-", Ok(1.0));
        check("1e+", Ok(1.0));
        check("1ex", Ok(1.0));
        check("1e+2", Ok(100.0));
        check("1E-2", Ok(0.01));
        check("2.5e1x", Ok(25.0));
        // Steps 15–18.
        check("-0", Ok(0.0));
        check("-0.0e5", Ok(0.0));
        check("-1e-400", Ok(0.0));
        check("1e-400", Ok(0.0));
        check("1e308", Ok(1e308));
        check("1e309", Err(ErrorKind::Overflow));
        check("-1e309", Err(ErrorKind::Overflow));
        check("1e99999999999999999999999", Err(ErrorKind::Overflow));
        check("0e99999999999999999999999", Ok(0.0));
        check("1e-99999999999999999999999", Ok(0.0));
        // Largest double, and the halfway point to 2^1024 (rounds up: error).
        check("1.7976931348623157e308", Ok(f64::MAX));
        // (halfway = 1.79769313486231580793728971405303415...e308)
        check(
            "1.7976931348623158079372897140531e308",
            Err(ErrorKind::Overflow),
        );
        check("1.797693134862315807937289714053e308", Ok(f64::MAX));
        // Smallest subnormal and just below half of it.
        check("5e-324", Ok(5e-324));
        check("2.4703282292062327e-324", Ok(0.0));
        check("2.4703282292062328e-324", Ok(5e-324));
    }

    #[test]
    fn correct_rounding() {
        check("0.1", Ok(0.1));
        check("0.3", Ok(0.3));
        check("123.456", Ok(123.456));
        check("9007199254740993", Ok(9007199254740992.0)); // tie to even
        check("9007199254740995", Ok(9007199254740996.0));
        // Many digits beyond the buffer still round correctly: the halfway
        // point 2^53 + 1 followed by zeros and then a 1 rounds up.
        let mut s = String::from("9007199254740993.");
        s.push_str(&"0".repeat(2000));
        s.push('1');
        check(&s, Ok(9007199254740994.0));
        let mut s = String::from("0.");
        s.push_str(&"0".repeat(5000));
        s.push_str("1e5010");
        check(&s, Ok(1e9));
        let long_integer = "1".repeat(300);
        check(&long_integer, Ok(long_integer.parse().unwrap()));
    }

    #[test]
    fn decimal_buffer_keeps_correct_rounding() {
        // The halfway point 2^53 + 1 with a non-zero digit 2000 places after
        // the point rounds up; without it, to even (down).
        let mut d = Decimal::new();
        d.push_integer_digits("9007199254740993");
        for _ in 0..2000 {
            d.push_fraction_digit(0);
        }
        assert_eq!(d.to_f64(0), 9007199254740992.0);
        d.push_fraction_digit(1);
        assert_eq!(d.to_f64(0), 9007199254740994.0);
        // Leading zeros of a fraction only move the point.
        let mut d = Decimal::new();
        for _ in 0..5000 {
            d.push_fraction_digit(0);
        }
        d.push_fraction_digit(1);
        assert_eq!(d.to_f64(5001), 1.0);
        // More digits than the buffer holds: the sticky digit stands in.
        let mut d = Decimal::new();
        for _ in 0..1000 {
            d.push_fraction_digit(3);
        }
        assert_eq!(
            d.to_f64(0),
            format!("0.{}", "3".repeat(1000)).parse::<f64>().unwrap()
        );
        let mut d = Decimal::new();
        d.push_integer_digits(&"7".repeat(900));
        assert_eq!(
            d.to_f64(-600),
            format!("{}e-600", "7".repeat(900)).parse::<f64>().unwrap()
        );
        assert!(Decimal::new().to_f64(7) == 0.0);
    }

    #[test]
    fn seed_differs_in_rounding() {
        // The seed's step-by-step arithmetic is not always the nearest
        // double: 0.1 + 0.02 + 0.003 in f64.
        let seed = parse_float_seed("0.123").unwrap();
        let nearest = parse_float("0.123").unwrap();
        assert_eq!(nearest, 0.123);
        assert_eq!(seed, 0.1 + 0.02 + 0.003);
        assert_ne!(seed.to_bits(), nearest.to_bits());
    }

    #[test]
    fn seed002_steps() {
        let k = |s: &str| parse_float_seed(s).map_err(|e| e.kind());
        assert_eq!(k(""), Err(ErrorKind::UnexpectedEnd)); // step 7
        assert_eq!(k("-"), Err(ErrorKind::UnexpectedEnd)); // step 8.3
        assert_eq!(k("+1"), Err(ErrorKind::Expected("an ASCII digit"))); // step 9
        assert_eq!(k(".5"), Err(ErrorKind::Expected("an ASCII digit")));
        assert_eq!(k("7"), Ok(7.0)); // step 11
        assert_eq!(k("7."), Ok(7.0)); // step 12.2
        assert_eq!(k("7.5"), Ok(7.5)); // step 12.6
        assert_eq!(k("-7.5x"), Ok(-7.5)); // divisor is negative too
        assert_eq!(k("7e"), Ok(7.0)); // step 13.2
        assert_eq!(k("7e-"), Ok(7.0)); // step 13.3.3
        assert_eq!(k("7ex"), Ok(7.0)); // step 13.4
        assert_eq!(k("7e2"), Ok(700.0));
        assert_eq!(k("7E-2"), Ok(0.07));
        assert_eq!(k("1e400"), Err(ErrorKind::Overflow));
        assert_eq!(k("0e400"), Ok(0.0));
        assert_eq!(k("\u{B}1"), Err(ErrorKind::Expected("an ASCII digit")));
    }

    #[test]
    fn seed004_steps() {
        let k = |s: &str| parse_float_seed004(s).map_err(|e| e.kind());
        assert_eq!(k(""), Err(ErrorKind::UnexpectedEnd));
        assert_eq!(k("\u{B} 1.5"), Ok(1.5));
        assert_eq!(k("-"), Err(ErrorKind::UnexpectedEnd));
        assert_eq!(
            k("x"),
            Err(ErrorKind::Expected(
                "an ASCII digit or U+002E FULL STOP (.)"
            ))
        );
        assert_eq!(k("."), Err(ErrorKind::UnexpectedEnd));
        assert_eq!(k(".x"), Err(ErrorKind::Expected("an ASCII digit")));
        assert_eq!(k(".5"), Ok(0.5));
        assert_eq!(k("5."), Ok(5.0));
        assert_eq!(k("5.x"), Ok(5.0));
        assert_eq!(k("-5.25"), Ok(-5.25));
        assert_eq!(k("1e5"), Ok(1.0));
        assert_eq!(
            k("+1"),
            Err(ErrorKind::Expected(
                "an ASCII digit or U+002E FULL STOP (.)"
            ))
        );
    }

    #[test]
    fn validity() {
        for ok in [
            "0", "-0", "1.5", ".5", "-.5", "1e5", "1E-5", "1e+5", "1.5e5", ".5e5",
        ] {
            assert!(is_valid_float(ok), "{ok}");
        }
        for bad in [
            "", "-", ".", "5.", "+5", "1e", "1e+", " 1", "1 ", "1.5.5", "e5", "1e5.5", "--1",
        ] {
            assert!(!is_valid_float(bad), "{bad}");
        }
        // The syntax is right but the value overflows: no number (a value
        // past the largest double, and the largest double's neighbours).
        for bad in ["2e308", "-2e308", "1e400", "1.7976931348623159e308"] {
            assert!(!is_valid_float(bad), "{bad}");
            assert_eq!(
                parse_float(bad).map_err(|e| e.kind()),
                Err(ErrorKind::Overflow),
                "{bad}"
            );
        }
        for ok in ["1.7976931348623157e308", "-1e308", "1e-400", "0e999999"] {
            assert!(is_valid_float(ok), "{ok}");
        }
        // The seed checks are the seeds' syntax alone.
        assert!(is_valid_float_seed("2e308") && is_valid_float_seed004(&"9".repeat(400)));
        for ok in ["0", "-1.5", "1e5", "1.5E-5"] {
            assert!(is_valid_float_seed(ok), "{ok}");
        }
        for bad in [".5", "1e+5", "1e", "5.", "+1"] {
            assert!(!is_valid_float_seed(bad), "{bad}");
        }
        for ok in ["1", "1.", ".1", "-1.1", "-.1", "-1."] {
            assert!(is_valid_float_seed004(ok), "{ok}");
        }
        for bad in ["", ".", "-", "-.", "1.1.1", "1e1", "+1", "1 "] {
            assert!(!is_valid_float_seed004(bad), "{bad}");
        }
    }

    #[test]
    fn best_representation_follows_ecmascript() {
        let b = |n: f64| best_representation(n).unwrap();
        assert_eq!(b(0.0), "0");
        assert_eq!(b(-0.0), "0");
        assert_eq!(b(1.0), "1");
        assert_eq!(b(-1.5), "-1.5");
        assert_eq!(b(100.0), "100");
        assert_eq!(b(1e20), "100000000000000000000");
        assert_eq!(b(1.5e21), "1.5e+21");
        assert_eq!(b(0.1), "0.1");
        assert_eq!(b(1e-6), "0.000001");
        assert_eq!(b(1.5e-7), "1.5e-7");
        assert_eq!(b(123.456), "123.456");
        assert_eq!(b(f64::MAX), "1.7976931348623157e+308");
        assert_eq!(b(5e-324), "5e-324");
        assert_eq!(best_representation(f64::INFINITY), None);
    }
}
