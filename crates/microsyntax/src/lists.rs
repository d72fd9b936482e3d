//! Lists of numbers: seed 002 §2.4.3.6 "rules for parsing a list of
//! integers" (the default, as only the seeds define it), seed 004's earlier
//! version of the same rules, and the reference's "rules for parsing a list
//! of floating-point numbers".
//!
//! Each parser is an iterator that yields the numbers one by one without
//! allocating; the `parse_*` functions collect it into a `Vec`.
//!
//! Seed 004's text lost the sub-steps of its big "Parser" step in
//! extraction (only "Follow these substeps:" remains) and mentions a
//! variable `multiple` whose use is not recoverable. What survives differs
//! from seed 002 in two ways, and the seed 004 variant implements exactly
//! those: only U+0020 SPACE and U+002C COMMA separate numbers (no U+003B
//! SEMICOLON), and there is no `got number` flag: where seed 002 tests
//! `got number`, seed 004 tests `started` (set by a digit or a `-`), so a
//! lone `-` yields 0. Its sub-steps are otherwise seed 002's.
//!
//! Deviation: the seeds' integers are unbounded; values saturate at the
//! `i64` range.

use crate::float::parse_float;

/// Which draft's list-of-integers rules to follow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ListRules {
    Seed002,
    Seed004,
}

impl ListRules {
    const fn is_separator(self, b: u8) -> bool {
        match self {
            Self::Seed002 => matches!(b, b' ' | b',' | b';'),
            Self::Seed004 => matches!(b, b' ' | b','),
        }
    }
}

/// The numbers of a list of integers, one at a time: the lazy form of
/// [`parse_list_of_integers`] (and of its seed 004 variant).
#[derive(Debug, Clone)]
pub struct IntegerList<'a> {
    input: &'a [u8],
    position: usize,
    done: bool,
    rules: ListRules,
}

impl IntegerList<'_> {
    fn byte(&self) -> Option<u8> {
        self.input.get(self.position).copied()
    }
}

impl Iterator for IntegerList<'_> {
    type Item = i64;

    fn next(&mut self) -> Option<i64> {
        if self.done {
            return None;
        }
        let rules = self.rules;
        // Steps 4–6. Skip separators, one at a time.
        loop {
            // Step 4.
            if self.byte().is_some_and(|b| rules.is_separator(b)) {
                self.position += 1;
            }
            match self.byte() {
                // Step 5. The end: the list is complete.
                None => {
                    self.done = true;
                    return None;
                }
                // Step 6. Another separator: back to step 4.
                Some(b) if rules.is_separator(b) => {}
                Some(_) => break,
            }
        }
        // Steps 7–12.
        let mut negated = false;
        let mut value: i64 = 0;
        let mut started = false;
        let mut got_number = false;
        let mut finished = false;
        let mut bogus = false;
        // Seed 004 has no "got number"; it tests "started" instead.
        let has_number = |started: bool, got_number: bool| match rules {
            ListRules::Seed002 => got_number,
            ListRules::Seed004 => started,
        };
        // Step 13. Parser.
        while let Some(b) = self.byte() {
            match b {
                b'-' => {
                    // Substeps 1–5.
                    if has_number(started, got_number) {
                        finished = true;
                    }
                    if !finished {
                        if started {
                            negated = false;
                        } else if !bogus {
                            negated = true;
                        }
                        started = true;
                    }
                }
                b'0'..=b'9' => {
                    // Substeps 1–5.
                    if !finished {
                        value = value.saturating_mul(10).saturating_add(i64::from(b - b'0'));
                        started = true;
                        got_number = true;
                    }
                }
                b if rules.is_separator(b) => {
                    // Substep 1. An entry without digits ends the list.
                    if !has_number(started, got_number) {
                        self.done = true;
                        return None;
                    }
                    // Substeps 2–4. Append, then back to step 4 (the
                    // position stays on the separator, which step 4 skips).
                    return Some(if negated { -value } else { value });
                }
                b'.' => {
                    // Substeps 1–3.
                    if has_number(started, got_number) {
                        finished = true;
                    }
                    if !finished {
                        negated = false;
                    }
                }
                _ => {
                    // Substeps 1–4. (A non-ASCII character is several
                    // bytes; these substeps give the same result when
                    // repeated, so walking its bytes is equivalent.)
                    if !finished {
                        negated = false;
                        bogus = true;
                        if started {
                            // The value being parsed is dropped.
                            self.done = true;
                            return None;
                        }
                    }
                }
            }
            // Steps 14–15.
            self.position += 1;
        }
        // Steps 16–18.
        self.done = true;
        has_number(started, got_number).then_some(if negated { -value } else { value })
    }
}

/// Spec: seed 002 §2.4.3.6 "rules for parsing a list of integers", as an
/// iterator.
///
/// ```
/// let sum: i64 = microsyntax::integer_list("1,2,3").sum();
/// assert_eq!(sum, 6);
/// ```
pub fn integer_list(input: &str) -> IntegerList<'_> {
    IntegerList {
        input: input.as_bytes(),
        position: 0,
        done: false,
        rules: ListRules::Seed002,
    }
}

/// Spec: seed 002 §2.4.3.6 "rules for parsing a list of integers", steps
/// 1–18. Lenient: spaces, commas and semicolons separate; garbage inside an
/// entry ends the list.
///
/// ```
/// use microsyntax::parse_list_of_integers;
/// assert_eq!(parse_list_of_integers("1, -2;3"), [1, -2, 3]);
/// assert_eq!(parse_list_of_integers("1,2,x,4"), [1, 2]);
/// assert_eq!(parse_list_of_integers("10.5,20"), [10, 20]);
/// ```
pub fn parse_list_of_integers(input: &str) -> Vec<i64> {
    integer_list(input).collect()
}

/// Spec: seed 004 "rules for parsing a list of integers" (Oct 2007): only
/// spaces and commas separate, and a `-` counts as a started number (see
/// the module docs for what the seed's text lost).
///
/// ```
/// use microsyntax::{parse_list_of_integers, parse_list_of_integers_seed004};
/// assert_eq!(parse_list_of_integers_seed004("1 2;3"), [1]); // `;` is garbage here
/// assert_eq!(parse_list_of_integers("1 2;3"), [1, 2, 3]);
/// assert_eq!(parse_list_of_integers_seed004("1,-"), [1, 0]);
/// ```
pub fn parse_list_of_integers_seed004(input: &str) -> Vec<i64> {
    IntegerList {
        input: input.as_bytes(),
        position: 0,
        done: false,
        rules: ListRules::Seed004,
    }
    .collect()
}

/// Spec: seed 002 §2.4.3.6 "valid list of integers" (same in seed 004):
/// [valid integers](crate::is_valid_integer) separated by single commas,
/// with nothing else; the empty string is the empty list.
///
/// ```
/// use microsyntax::is_valid_list_of_integers;
/// assert!(is_valid_list_of_integers("1,-2,3"));
/// assert!(!is_valid_list_of_integers("1, 2"));
/// assert!(!is_valid_list_of_integers("1,,2"));
/// ```
pub fn is_valid_list_of_integers(s: &str) -> bool {
    s.is_empty() || s.split(',').all(crate::is_valid_integer)
}

/// The numbers of a list of floating-point numbers, one at a time: the lazy
/// form of [`parse_list_of_floats`].
#[derive(Debug, Clone)]
pub struct FloatList<'a> {
    cursor: crate::Cursor<'a>,
}

const fn is_float_list_delimiter(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0C | b'\r' | b',' | b';')
}

impl Iterator for FloatList<'_> {
    type Item = f64;

    fn next(&mut self) -> Option<f64> {
        // Step 5. While position is not past the end of input:
        if self.cursor.is_at_end() {
            return None;
        }
        // Step 5.1. Skip leading garbage.
        self.cursor.collect(|c| {
            !(c.is_ascii()
                && (is_float_list_delimiter(c as u8) || c.is_ascii_digit() || c == '.' || c == '-'))
        });
        // Step 5.2.
        let unparsed = self
            .cursor
            .collect(|c| !(c.is_ascii() && is_float_list_delimiter(c as u8)));
        // Steps 5.3–5.5. An error becomes zero.
        let number = parse_float(unparsed).unwrap_or(0.0);
        // Step 5.6. Skip the delimiters.
        self.cursor.collect_bytes(is_float_list_delimiter);
        Some(number)
    }
}

/// Spec: reference "rules for parsing a list of floating-point numbers", as
/// an iterator.
pub fn float_list(input: &str) -> FloatList<'_> {
    let mut cursor = crate::Cursor::new(input);
    // Step 4. Skip leading delimiters.
    cursor.collect_bytes(is_float_list_delimiter);
    FloatList { cursor }
}

/// Spec: reference "rules for parsing a list of floating-point numbers",
/// steps 1–6: delimiters are space characters, commas and semicolons;
/// leading garbage of an entry is skipped; an entry that is not a number
/// becomes 0.
///
/// ```
/// use microsyntax::parse_list_of_floats;
/// assert_eq!(parse_list_of_floats("1.5, 2e1;x3 abc"), [1.5, 20.0, 3.0, 0.0]);
/// ```
pub fn parse_list_of_floats(input: &str) -> Vec<f64> {
    float_list(input).collect()
}

/// Spec: reference "valid list of floating-point numbers":
/// [valid floating-point numbers](crate::is_valid_float) separated by single
/// commas, with nothing else.
///
/// ```
/// assert!(microsyntax::is_valid_list_of_floats("1.5,-2,3e2"));
/// assert!(!microsyntax::is_valid_list_of_floats("1.5, 2"));
/// ```
pub fn is_valid_list_of_floats(s: &str) -> bool {
    s.is_empty() || s.split(',').all(crate::is_valid_float)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn check(input: &str, expected: &[i64]) {
        assert_eq!(parse_list_of_integers(input), expected, "{input:?}");
    }

    #[test]
    fn list_of_integers_steps() {
        // Steps 4–6: leading separators, one at a time.
        check("", &[]);
        check(" ,;", &[]);
        check(",,1", &[1]);
        // Step 13, hyphen: a second `-` before digits cancels the first.
        check("-1", &[-1]);
        check("--1", &[1]);
        check("1-2", &[1]); // got number → finished; the rest is ignored
        check("x-1", &[1]); // bogus: the `-` does not negate
        // Step 13, digits.
        check("12 34", &[12, 34]);
        // Step 13, separators: an entry without digits ends the list.
        check("1,-,2", &[1]);
        check("1,2,x,4", &[1, 2]);
        // Step 13, full stop.
        check("1.9,2", &[1, 2]);
        check("-.5", &[5]); // `.` before digits clears negated
        // Step 13, any other character.
        check("1x,2", &[]);
        check("x1,2", &[1, 2]);
        check("1a", &[]);
        check("é1,2", &[1, 2]);
        // Steps 16–18.
        check("-", &[]);
        check("7", &[7]);
        check("-7", &[-7]);
        // Saturation.
        check("99999999999999999999", &[i64::MAX]);
        check("-99999999999999999999", &[-i64::MAX]);
    }

    #[test]
    fn list_of_integers_seed004() {
        let s = parse_list_of_integers_seed004;
        assert_eq!(s("1,2 3"), [1, 2, 3]);
        assert_eq!(s("1;2"), Vec::<i64>::new()); // `;` is "any other character"
        assert_eq!(s("-,2"), [0, 2]); // "started" without digits still appends
        assert_eq!(s("-"), [0]);
        assert_eq!(s("1,x,2"), [1]);
        assert_eq!(s("1-2"), [1]);
    }

    #[test]
    fn list_validity() {
        assert!(is_valid_list_of_integers(""));
        assert!(is_valid_list_of_integers("-0"));
        assert!(!is_valid_list_of_integers("1,"));
        assert!(!is_valid_list_of_integers("1;2"));
        assert!(!is_valid_list_of_integers("+1"));
        assert!(is_valid_list_of_floats(".5,1"));
        assert!(!is_valid_list_of_floats("5.,1"));
    }

    #[test]
    fn list_of_floats_steps() {
        let f = parse_list_of_floats;
        assert!(f("").is_empty());
        assert!(f(" ,; ").is_empty()); // step 4
        assert_eq!(f("abc"), [0.0]); // step 5.1 eats all: empty → error → 0
        assert_eq!(f("1,x"), [1.0, 0.0]);
        assert_eq!(f("1 , , 2"), [1.0, 2.0]); // step 5.6 collects the whole run
        assert_eq!(f("-1e-1"), [-0.1]);
        assert_eq!(f("1abc2,3"), [1.0, 3.0]); // trailing garbage of an entry is ignored
        assert_eq!(f("é1.5"), [1.5]);
        assert_eq!(f("1é5,2"), [1.0, 2.0]);
    }
}
