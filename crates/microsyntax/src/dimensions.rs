//! Percentages and lengths ("dimension values"), non-zero dimension values
//! and lists of dimensions: the reference's rules, filling seed 002
//! §2.4.3.5's placeholder ("rules for parsing dimension values (only used by
//! height/width on img, embed, object — lengths in css pixels or
//! percentages)").
//!
//! The single values follow the living standard's current steps (a leading
//! `+` is an error, `200.%` is a percentage), which differ from the
//! reference's (HTML 5.2); [`parse_dimension`] says how.
//!
//! The standard gives only the parsing rules; the validity checks here
//! accept the strings those rules read to their end without skipping
//! anything (no white space), except a full stop without digits after it,
//! and say so in their docs.
//!
//! Values are exact decimal numbers rounded once to the nearest double (the
//! reference's arithmetic is exact); the single-value parsers do not
//! allocate.

use crate::error::{Error, ErrorKind};
use crate::float::Decimal;
use crate::idioms::Cursor;
use crate::tokens::split_on_commas;

/// Whether a dimension value is a length (CSS pixels) or a percentage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DimensionType {
    /// A number of CSS pixels.
    Length,
    /// A percentage (the number was followed by `%`).
    Percentage,
}

/// A dimension value: a number ≥ 0 that is a length or a percentage.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Dimension {
    /// The number, ≥ 0.
    pub value: f64,
    /// Length or percentage.
    pub kind: DimensionType,
}

/// Spec: living standard "rules for parsing dimension values", steps 1–8,
/// and "the current dimension value", steps 1–3. Leading ASCII white space
/// is skipped; trailing garbage is ignored; a `%` right after the number
/// (or after a full stop that ends the digits, as in `200.%`) makes it a
/// percentage. A leading `+` is an error.
///
/// This is the text of the WHATWG living standard as of 2024, which
/// differs from HTML 5.2 (the reference) in two places: HTML 5.2's step 5
/// skipped one `+`, and its step 10.2 returned a length on a full stop not
/// followed by a digit, without looking for `%`. The seeds leave this
/// algorithm as a placeholder (seed 002 §2.4.3.5, seed 004), so there is no
/// seed variant, and HTML 5.2's text is not kept.
///
/// ```
/// use microsyntax::{parse_dimension, Dimension, DimensionType};
/// assert_eq!(parse_dimension(" 50%"), Ok(Dimension { value: 50.0, kind: DimensionType::Percentage }));
/// assert_eq!(parse_dimension("12.5px"), Ok(Dimension { value: 12.5, kind: DimensionType::Length }));
/// assert_eq!(parse_dimension("200.%"), Ok(Dimension { value: 200.0, kind: DimensionType::Percentage }));
/// assert!(parse_dimension("+12.5px").is_err());
/// assert!(parse_dimension("-1").is_err());
/// ```
pub fn parse_dimension(input: &str) -> Result<Dimension, Error> {
    // Steps 1–2. input, position.
    let mut cursor = Cursor::new(input);
    // Step 3. Skip ASCII whitespace.
    cursor.skip_whitespace();
    // Step 4. Past the end, or not an ASCII digit: failure.
    if cursor.is_at_end() {
        return Err(cursor.error(ErrorKind::UnexpectedEnd));
    }
    if !cursor.peek_byte().is_some_and(|b| b.is_ascii_digit()) {
        return Err(cursor.expected("an ASCII digit"));
    }
    let number_start = cursor.position();
    // Step 5. value: the digits. (The value of the digits and of the
    // fraction below is rounded once to the nearest double, from the span
    // of its text; the standard's arithmetic is exact.)
    cursor.collect_digits();
    let value_of = |end: usize| -> Result<f64, Error> {
        let value: f64 = input
            .get(number_start..end)
            .and_then(|span| span.parse().ok())
            .ok_or(Error::new(ErrorKind::Expected("a number"), number_start))?;
        if value.is_finite() {
            Ok(value)
        } else {
            Err(Error::new(ErrorKind::Overflow, number_start))
        }
    };
    // Step 6. At the end: a length.
    if cursor.is_at_end() {
        let value = value_of(cursor.position())?;
        return Ok(Dimension {
            value,
            kind: DimensionType::Length,
        });
    }
    let mut end = cursor.position();
    // Step 7. A full stop.
    if cursor.peek_byte() == Some(b'.') {
        // Step 7.1. Advance past it.
        cursor.advance();
        // Step 7.2. Past the end or not a digit: the current dimension
        // value (below), with the digits before the full stop as value.
        // Steps 7.3–7.4. The fraction loop (divisor × 10, add digit ÷
        // divisor, advance, a length at the end, break on a non-digit).
        if !cursor.collect_digits().is_empty() {
            end = cursor.position();
        }
    }
    // Step 8. The current dimension value.
    let value = value_of(end)?;
    Ok(Dimension {
        value,
        kind: current_dimension_kind(&cursor),
    })
}

/// Spec: living standard "the current dimension value", steps 1–3: past
/// the end, a length; at a `%`, a percentage; otherwise a length.
fn current_dimension_kind(cursor: &Cursor<'_>) -> DimensionType {
    // Step 1.
    if cursor.is_at_end() {
        return DimensionType::Length;
    }
    // Step 2.
    if cursor.peek_byte() == Some(b'%') {
        return DimensionType::Percentage;
    }
    // Step 3.
    DimensionType::Length
}

/// Spec: living standard (and reference) "rules for parsing non-zero
/// dimension values", steps 1–6: the [dimension rules](parse_dimension)
/// (so a leading `+` is an error and `1.%` a percentage here too), then an
/// error for zero.
///
/// ```
/// use microsyntax::parse_non_zero_dimension;
/// assert!(parse_non_zero_dimension("0%").is_err());
/// assert_eq!(parse_non_zero_dimension("0.5").map(|d| d.value), Ok(0.5));
/// ```
pub fn parse_non_zero_dimension(input: &str) -> Result<Dimension, Error> {
    // Steps 1–3. The dimension rules; their error is ours.
    let d = parse_dimension(input)?;
    // Step 4. Zero is an error.
    if d.value == 0.0 {
        return Err(Error::new(ErrorKind::Zero, 0));
    }
    // Steps 5–6. A percentage or a length, as parsed.
    Ok(d)
}

/// A valid dimension value, as this crate defines it (the standard has
/// only parsing rules): one or more ASCII digits, optionally `.` and one or
/// more digits, optionally `%`, and nothing else. So `200.%`, which the
/// parsing rules read as 200%, is not valid.
///
/// ```
/// use microsyntax::is_valid_dimension;
/// assert!(is_valid_dimension("100"));
/// assert!(is_valid_dimension("33.3%"));
/// assert!(!is_valid_dimension("100px"));
/// assert!(!is_valid_dimension(" 100"));
/// ```
pub fn is_valid_dimension(s: &str) -> bool {
    let body = s.strip_suffix('%').unwrap_or(s);
    let (integer, fraction) = match body.split_once('.') {
        Some((i, f)) if !f.is_empty() => (i, f),
        Some(_) => return false,
        None => (body, "0"),
    };
    crate::is_valid_non_negative_integer(integer) && fraction.bytes().all(|b| b.is_ascii_digit())
}

/// A [valid dimension value](is_valid_dimension) whose number is not zero.
///
/// ```
/// assert!(!microsyntax::is_valid_non_zero_dimension("0.0%"));
/// assert!(microsyntax::is_valid_non_zero_dimension("0.1%"));
/// ```
pub fn is_valid_non_zero_dimension(s: &str) -> bool {
    is_valid_dimension(s) && s.bytes().any(|b| matches!(b, b'1'..=b'9'))
}

/// The unit of one entry of a list of dimensions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DimensionUnit {
    /// A number followed by `%`.
    Percentage,
    /// A number followed by `*` (a share of the remaining space), or an
    /// empty entry.
    Relative,
    /// A plain number (pixels).
    Absolute,
}

/// One entry of a list of dimensions.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ListDimension {
    /// The number, ≥ 0 (infinite if its digits overflow a double).
    pub value: f64,
    /// Percentage, relative or absolute.
    pub unit: DimensionUnit,
}

/// Spec: reference "rules for parsing a list of dimensions" (used by
/// `frameset`'s `cols` and `rows`), steps 1–6.
///
/// ```
/// use microsyntax::{parse_list_of_dimensions, DimensionUnit::*};
/// let list = parse_list_of_dimensions("100, 2*, 25%,");
/// let units: Vec<_> = list.iter().map(|d| (d.value, d.unit)).collect();
/// assert_eq!(units, [(100.0, Absolute), (2.0, Relative), (25.0, Percentage)]);
/// ```
pub fn parse_list_of_dimensions(input: &str) -> Vec<ListDimension> {
    // Step 2. Drop one trailing comma.
    let raw = input.strip_suffix(',').unwrap_or(input);
    // Steps 3–6.
    split_on_commas(raw)
        .into_iter()
        .map(parse_list_dimension_token)
        .collect()
}

/// Spec: reference "rules for parsing a list of dimensions", step 5 for one
/// token.
fn parse_list_dimension_token(token: &str) -> ListDimension {
    // Steps 5.1–5.4.
    let mut cursor = Cursor::new(token);
    let mut decimal = Decimal::new();
    // Step 5.5. An empty token is a relative 0.
    if cursor.is_at_end() {
        return ListDimension {
            value: 0.0,
            unit: DimensionUnit::Relative,
        };
    }
    // Step 5.6. The integer part.
    decimal.push_integer_digits(cursor.collect_digits());
    // Step 5.7. A fraction: digits and space characters, spaces dropped.
    if cursor.eat('.') {
        let s = cursor
            .collect_bytes(|b| b.is_ascii_digit() || crate::is_space_character(char::from(b)));
        for b in s.bytes().filter(u8::is_ascii_digit) {
            decimal.push_fraction_digit(b - b'0');
        }
    }
    // Step 5.8.
    cursor.skip_whitespace();
    // Step 5.9.
    let unit = match cursor.peek() {
        Some('%') => DimensionUnit::Percentage,
        Some('*') => DimensionUnit::Relative,
        _ => DimensionUnit::Absolute,
    };
    // Step 5.10.
    ListDimension {
        value: decimal.to_f64(0),
        unit,
    }
}

/// A valid list of dimensions, as this crate defines it (the reference has
/// only parsing rules; this is HTML 4's MultiLengths): comma-separated
/// entries, each optionally surrounded by space characters, each a
/// [valid dimension value](is_valid_dimension), or digits (with an optional
/// fraction) followed by `*`, or a lone `*`.
///
/// ```
/// use microsyntax::is_valid_list_of_dimensions;
/// assert!(is_valid_list_of_dimensions("20%, *, 2*, 100"));
/// assert!(!is_valid_list_of_dimensions("20%,,*"));
/// ```
pub fn is_valid_list_of_dimensions(s: &str) -> bool {
    let tokens = split_on_commas(s);
    !tokens.is_empty()
        && tokens.into_iter().all(|t| {
            t == "*"
                || is_valid_dimension(t)
                || t.strip_suffix('*')
                    .is_some_and(|n| !n.ends_with('%') && is_valid_dimension(n))
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use DimensionType::{Length, Percentage};

    #[track_caller]
    fn check(input: &str, expected: Result<(f64, DimensionType), ErrorKind>) {
        let got = parse_dimension(input)
            .map(|d| (d.value, d.kind))
            .map_err(|e| e.kind());
        assert_eq!(got, expected, "{input:?}");
    }

    #[test]
    fn dimension_steps() {
        check("", Err(ErrorKind::UnexpectedEnd)); // step 4
        check(" \n", Err(ErrorKind::UnexpectedEnd));
        // Step 4: a leading `+` is not a digit (HTML 5.2 skipped it).
        check("+", Err(ErrorKind::Expected("an ASCII digit")));
        check("+1", Err(ErrorKind::Expected("an ASCII digit")));
        check("  +0", Err(ErrorKind::Expected("an ASCII digit")));
        check("-1", Err(ErrorKind::Expected("an ASCII digit")));
        check(".5", Err(ErrorKind::Expected("an ASCII digit")));
        check("7", Ok((7.0, Length))); // step 6
        check(" \t\n\x0c\r7", Ok((7.0, Length))); // step 3
        check("7.", Ok((7.0, Length))); // step 7.2, current value step 1
        check("7.x", Ok((7.0, Length))); // step 7.2, current value step 3
        // Step 7.2, current value step 2 (HTML 5.2 returned a length).
        check("200.%", Ok((200.0, Percentage)));
        check("7.%", Ok((7.0, Percentage)));
        check("7.25", Ok((7.25, Length))); // step 7.4.4
        check("7.25%", Ok((7.25, Percentage))); // step 8, current value step 2
        check("7.25.5%", Ok((7.25, Length))); // step 7.4.5 breaks, step 8
        check("7%", Ok((7.0, Percentage))); // step 8
        check("7 %", Ok((7.0, Length))); // current value step 3
        check("7px", Ok((7.0, Length)));
        check("0", Ok((0.0, Length)));
        check(&"9".repeat(400), Err(ErrorKind::Overflow));
    }

    #[test]
    fn non_zero() {
        assert_eq!(
            parse_non_zero_dimension("0.0").map_err(|e| e.kind()),
            Err(ErrorKind::Zero)
        );
        assert_eq!(
            parse_non_zero_dimension("x").map_err(|e| e.kind()),
            Err(ErrorKind::Expected("an ASCII digit"))
        );
        assert_eq!(
            parse_non_zero_dimension("1%").map(|d| d.kind),
            Ok(Percentage)
        );
        // The living standard's dimension rules underneath.
        assert_eq!(
            parse_non_zero_dimension("+1").map_err(|e| e.kind()),
            Err(ErrorKind::Expected("an ASCII digit"))
        );
        assert_eq!(
            parse_non_zero_dimension("200.%").map(|d| (d.value, d.kind)),
            Ok((200.0, Percentage))
        );
        assert_eq!(
            parse_non_zero_dimension("0.%").map_err(|e| e.kind()),
            Err(ErrorKind::Zero)
        );
    }

    #[test]
    fn validity() {
        for ok in ["0", "10", "1.5", "100%", "0.5%"] {
            assert!(is_valid_dimension(ok), "{ok}");
        }
        for bad in [
            "", "%", "1.", "200.%", ".5", "+1", "1 %", "1%%", "1.5.5", "-1",
        ] {
            assert!(!is_valid_dimension(bad), "{bad}");
        }
        assert!(!is_valid_non_zero_dimension("000"));
    }

    #[test]
    fn list_of_dimensions() {
        let l = |s: &str| {
            parse_list_of_dimensions(s)
                .iter()
                .map(|d| (d.value, d.unit))
                .collect::<Vec<_>>()
        };
        use DimensionUnit::*;
        // Step 2: one trailing comma is dropped; step 5.5: empty is relative.
        assert_eq!(l(""), []);
        assert_eq!(l(","), []);
        assert_eq!(l(",,"), [(0.0, Relative)]);
        assert_eq!(
            l("1,,2"),
            [(1.0, Absolute), (0.0, Relative), (2.0, Absolute)]
        );
        assert_eq!(l("*"), [(0.0, Relative)]);
        // Step 5.7: spaces inside the fraction are dropped.
        assert_eq!(l("1. 5 %"), [(1.5, Percentage)]);
        assert_eq!(l("3.25*"), [(3.25, Relative)]);
        assert_eq!(l("abc"), [(0.0, Absolute)]);
        assert_eq!(l(" 10 , 20% "), [(10.0, Absolute), (20.0, Percentage)]);
    }

    #[test]
    fn list_validity() {
        assert!(is_valid_list_of_dimensions("*"));
        assert!(is_valid_list_of_dimensions(" 1 , 2 "));
        assert!(!is_valid_list_of_dimensions(""));
        assert!(!is_valid_list_of_dimensions("1%*"));
        assert!(!is_valid_list_of_dimensions("a"));
    }
}
