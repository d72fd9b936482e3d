//! Ratios: seed 002 §2.4.3.4 "steps for finding one or two numbers of a
//! ratio in a string" (used by `progress` and `meter` in that draft; seed
//! 004 has the same text). Only the seeds define ratios; the later standard
//! dropped them, so there is no variant.
//!
//! Interpretation: the sub-algorithm "find a number" parses the collected
//! digits and full stops with the rules for parsing floating-point number
//! values and says this "cannot fail". That holds for the later standard's
//! rules (and seed 004's), which read `.5` and `5.`, but not for seed 002's,
//! which reject `.5`; the later rules are used. Nothing here allocates.

use crate::float::parse_float;
use crate::idioms::{Cursor, is_white_space};

/// Spec: seed 002 §2.4.3.4 "denominator punctuation character": the
/// character and the value associated with it in the draft's table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DenominatorPunctuation {
    /// The character: `%`, `٪`, `﹪`, `％`, `‰` or `‱`.
    pub character: char,
    /// Its value: 100, 1000 or 10000.
    pub value: u32,
}

/// Spec: seed 002 §2.4.3.4 "valid denominator punctuation character": the
/// character's value in the table, or `None`.
///
/// ```
/// assert_eq!(microsyntax::denominator_punctuation_value('‰'), Some(1000));
/// assert_eq!(microsyntax::denominator_punctuation_value('/'), None);
/// ```
pub const fn denominator_punctuation_value(c: char) -> Option<u32> {
    match c {
        // U+0025 PERCENT SIGN, U+066A ARABIC PERCENT SIGN, U+FE6A SMALL
        // PERCENT SIGN, U+FF05 FULLWIDTH PERCENT SIGN.
        '%' | '\u{66A}' | '\u{FE6A}' | '\u{FF05}' => Some(100),
        // U+2030 PER MILLE SIGN.
        '\u{2030}' => Some(1000),
        // U+2031 PER TEN THOUSAND SIGN.
        '\u{2031}' => Some(10000),
        _ => None,
    }
}

/// What the ratio steps return when they return something.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Ratio {
    /// One number and no denominator (step 10).
    One(f64),
    /// Two numbers (step 15).
    Two(f64, f64),
    /// One number followed by a denominator punctuation character (step 8),
    /// e.g. `50%`.
    WithDenominator(f64, DenominatorPunctuation),
}

/// The outcome of "find a number".
enum Found {
    Nothing,
    Error,
    Number(f64),
}

/// Spec: seed 002 §2.4.3.4 "the algorithm to find a number", steps 1–6,
/// starting at the cursor's position; the cursor ends after the last
/// character examined.
fn find_a_number(cursor: &mut Cursor<'_>) -> Found {
    let is_number_char = |c: char| c == '.' || c.is_ascii_digit();
    // Step 1. Ignore everything up to a full stop or a digit.
    cursor.collect(|c| !is_number_char(c));
    // Step 2.
    if cursor.is_at_end() {
        return Found::Nothing;
    }
    // Step 3. Collect the run of full stops and digits.
    let string = cursor.collect(is_number_char);
    // Step 4.
    if string == "." || string.bytes().filter(|&b| b == b'.').count() > 1 {
        return Found::Error;
    }
    // Steps 5–6.
    match parse_float(string) {
        Ok(n) => Found::Number(n),
        Err(_) => Found::Error,
    }
}

/// Spec: seed 002 §2.4.3.4 "steps for finding one or two numbers of a ratio
/// in a string", steps 1–15. `None` is the draft's "nothing".
///
/// ```
/// use microsyntax::{parse_ratio, Ratio};
/// assert_eq!(parse_ratio("3 of 4"), Some(Ratio::Two(3.0, 4.0)));
/// assert_eq!(parse_ratio("Done: 75%"), Some(Ratio::WithDenominator(
///     75.0,
///     microsyntax::DenominatorPunctuation { character: '%', value: 100 },
/// )));
/// assert_eq!(parse_ratio("about 0.3"), Some(Ratio::One(0.3)));
/// assert_eq!(parse_ratio("1.2.3"), None);
/// assert_eq!(parse_ratio("50% of 8"), None);
/// ```
pub fn parse_ratio(input: &str) -> Option<Ratio> {
    // Step 1.
    if input.is_empty() {
        return None;
    }
    let mut cursor = Cursor::new(input);
    // Steps 2–4.
    let Found::Number(number1) = find_a_number(&mut cursor) else {
        return None;
    };
    let after_number1 = cursor.position();
    // Step 5.
    cursor.collect(is_white_space);
    // Step 6.
    let denominator = cursor.peek().and_then(|c| {
        denominator_punctuation_value(c).map(|value| DenominatorPunctuation {
            character: c,
            value,
        })
    });
    if let Some(denominator) = denominator {
        cursor.advance();
        // Step 7. Any further digit: nothing.
        if cursor.rest().bytes().any(|b| b.is_ascii_digit()) {
            return None;
        }
        // Step 8.
        return Some(Ratio::WithDenominator(number1, denominator));
    }
    // Step 9. Find a number again after the first one.
    cursor.set_position(after_number1);
    let number2 = match find_a_number(&mut cursor) {
        // Step 10.
        Found::Nothing | Found::Error => return Some(Ratio::One(number1)),
        // Step 11.
        Found::Number(n) => n,
    };
    // Step 12.
    cursor.collect(is_white_space);
    // Step 13.
    if cursor
        .peek()
        .is_some_and(|c| denominator_punctuation_value(c).is_some())
    {
        return None;
    }
    // Step 14.
    if cursor.rest().bytes().any(|b| b.is_ascii_digit()) {
        return None;
    }
    // Step 15.
    Some(Ratio::Two(number1, number2))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn denominator(character: char, value: u32) -> DenominatorPunctuation {
        DenominatorPunctuation { character, value }
    }

    #[test]
    fn ratio_steps() {
        assert_eq!(parse_ratio(""), None); // step 1
        assert_eq!(parse_ratio("no numbers"), None); // step 3 (nothing)
        assert_eq!(parse_ratio(". 5"), None); // step 3 (error: a lone full stop)
        assert_eq!(parse_ratio("1..2"), None); // step 3 (error: two full stops)
        assert_eq!(
            parse_ratio("50 %"),
            Some(Ratio::WithDenominator(50.0, denominator('%', 100)))
        ); // steps 5–8
        assert_eq!(
            parse_ratio("5\u{3000}\u{2030}"),
            Some(Ratio::WithDenominator(5.0, denominator('‰', 1000)))
        );
        assert_eq!(
            parse_ratio("5‱"),
            Some(Ratio::WithDenominator(5.0, denominator('‱', 10000)))
        );
        assert_eq!(
            parse_ratio("5٪"),
            Some(Ratio::WithDenominator(5.0, denominator('٪', 100)))
        );
        assert_eq!(
            parse_ratio("5﹪ done"),
            Some(Ratio::WithDenominator(5.0, denominator('﹪', 100)))
        );
        assert_eq!(
            parse_ratio("5％"),
            Some(Ratio::WithDenominator(5.0, denominator('％', 100)))
        );
        assert_eq!(parse_ratio("5% 6"), None); // step 7
        assert_eq!(parse_ratio("5"), Some(Ratio::One(5.0))); // step 10 (nothing)
        assert_eq!(parse_ratio("5 / ."), Some(Ratio::One(5.0))); // step 10 (error)
        assert_eq!(parse_ratio("3/4"), Some(Ratio::Two(3.0, 4.0))); // step 15
        assert_eq!(parse_ratio(".5 of 2."), Some(Ratio::Two(0.5, 2.0)));
        assert_eq!(parse_ratio("3/4%"), None); // step 13
        assert_eq!(parse_ratio("3/4 or 5"), None); // step 14
        assert_eq!(parse_ratio("-3/4"), Some(Ratio::Two(3.0, 4.0))); // signs are ignored
    }
}
