//! Space-separated tokens (seed 002 §2.4.5) and comma-separated tokens
//! (seed 002 §2.4.6, and the later standard's version that strips white
//! space around each token).
//!
//! Tokens borrow from the input. How tokens compare (case-sensitively or
//! not) and which values are allowed is up to each attribute; these
//! functions compare exactly.

use std::collections::HashSet;

use crate::idioms::{Cursor, Spaces, strip_leading_and_trailing_whitespace};

/// An iterator over the tokens of a set of space-separated tokens: the lazy
/// form of [`split_on_spaces`], which does not allocate.
#[derive(Debug, Clone)]
pub struct SpaceSeparatedTokens<'a> {
    cursor: Cursor<'a>,
    spaces: Spaces,
}

impl<'a> Iterator for SpaceSeparatedTokens<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let spaces = self.spaces;
        // Steps 4 and 5.3. Skip whitespace.
        self.cursor.skip_spaces(spaces);
        // Step 5. While position is not past the end of input:
        if self.cursor.is_at_end() {
            return None;
        }
        // Steps 5.1–5.2. Collect a sequence of non-space characters.
        Some(self.cursor.collect(|c| !spaces.contains(c)))
    }
}

/// Spec: seed 002 §2.4.5 "split a string on spaces" (same in the later
/// standard), as an iterator.
///
/// ```
/// let mut t = microsyntax::space_separated_tokens(" a  b\t");
/// assert_eq!(t.next(), Some("a"));
/// assert_eq!(t.next(), Some("b"));
/// assert_eq!(t.next(), None);
/// ```
pub fn space_separated_tokens(input: &str) -> SpaceSeparatedTokens<'_> {
    SpaceSeparatedTokens {
        cursor: Cursor::new(input),
        spaces: Spaces::Standard,
    }
}

/// Spec: seed 002 §2.4.5 "split a string on spaces", steps 1–6: the tokens
/// between runs of space characters.
///
/// ```
/// assert_eq!(microsyntax::split_on_spaces("  foo bar\nbaz "), ["foo", "bar", "baz"]);
/// assert!(microsyntax::split_on_spaces(" \t ").is_empty());
/// ```
pub fn split_on_spaces(input: &str) -> Vec<&str> {
    space_separated_tokens(input).collect()
}

/// Spec: seed 004 "split a string on spaces": U+000B LINE TABULATION also
/// separates tokens.
///
/// ```
/// assert_eq!(microsyntax::split_on_spaces_seed004("a\u{B}b"), ["a", "b"]);
/// assert_eq!(microsyntax::split_on_spaces("a\u{B}b"), ["a\u{B}b"]);
/// ```
pub fn split_on_spaces_seed004(input: &str) -> Vec<&str> {
    SpaceSeparatedTokens {
        cursor: Cursor::new(input),
        spaces: Spaces::Seed004,
    }
    .collect()
}

/// The tokens of `input` without repeats, in order of first occurrence: what
/// an ordered (or unordered) set of unique space-separated tokens holds.
///
/// ```
/// assert_eq!(microsyntax::unique_tokens("b a b c a"), ["b", "a", "c"]);
/// ```
pub fn unique_tokens(input: &str) -> Vec<&str> {
    let mut seen = HashSet::new();
    space_separated_tokens(input)
        .filter(|t| seen.insert(*t))
        .collect()
}

/// Spec: seed 002 §2.4.5 "unordered set of unique space-separated tokens"
/// and "ordered set of unique space-separated tokens" (the conformance side
/// of both is the same): no token appears twice, comparing exactly.
///
/// ```
/// assert!(microsyntax::is_valid_unique_tokens(" a b c "));
/// assert!(!microsyntax::is_valid_unique_tokens("a b a"));
/// assert!(microsyntax::is_valid_unique_tokens("a A")); // compared case-sensitively
/// ```
pub fn is_valid_unique_tokens(input: &str) -> bool {
    let mut seen = HashSet::new();
    space_separated_tokens(input).all(|t| seen.insert(t))
}

/// Spec: seed 002 §2.4.5 "remove a token from a string", steps 1–10: every
/// occurrence of `token` goes, and the spaces around it collapse to one
/// U+0020 SPACE (or to nothing at either end of the string). Other white
/// space is kept as it was.
///
/// ```
/// use microsyntax::remove_token;
/// assert_eq!(remove_token("a  b\tc", "b"), "a c");
/// assert_eq!(remove_token(" b a b ", "b"), "a");
/// assert_eq!(remove_token("a\t\tc", "b"), "a\t\tc");
/// ```
pub fn remove_token(input: &str, token: &str) -> String {
    remove_token_with(input, token, Spaces::Standard)
}

/// Spec: seed 004 "remove a token from a string": [`remove_token`] with VT
/// as a space character.
///
/// ```
/// assert_eq!(microsyntax::remove_token_seed004("a\u{B}b", "b"), "a");
/// ```
pub fn remove_token_seed004(input: &str, token: &str) -> String {
    remove_token_with(input, token, Spaces::Seed004)
}

fn remove_token_with(input: &str, token: &str, spaces: Spaces) -> String {
    // Steps 1–4.
    let mut cursor = Cursor::new(input);
    let mut output = String::with_capacity(input.len());
    // Step 5. At the end, output is the result.
    while let Some(c) = cursor.peek() {
        // Step 6. Copy a space character.
        if spaces.contains(c) {
            output.push(c);
            cursor.advance();
            continue;
        }
        // Step 7. A token.
        let s = cursor.collect(|c| !spaces.contains(c));
        if s == token {
            // Step 8.1. Skip whitespace (in input).
            cursor.skip_spaces(spaces);
            // Step 8.2. Remove the space characters at the end of output.
            let kept = output.trim_end_matches(|c| spaces.contains(c)).len();
            output.truncate(kept);
            // Step 8.3. One space between two remaining parts.
            if !cursor.is_at_end() && !output.is_empty() {
                output.push(' ');
            }
        } else {
            // Step 9.
            output.push_str(s);
        }
        // Step 10. Back to step 6 (via step 5's end check).
    }
    output
}

/// Spec: reference "split a string on commas" (the later standard), steps
/// 1–10: tokens between commas, each stripped of leading and trailing space
/// characters; empty tokens are kept.
///
/// ```
/// use microsyntax::split_on_commas;
/// assert_eq!(split_on_commas(" a ,b, ,d d "), ["a", "b", "", "d d"]);
/// assert_eq!(split_on_commas("a,"), ["a"]);
/// assert!(split_on_commas("").is_empty());
/// ```
pub fn split_on_commas(input: &str) -> Vec<&str> {
    split_on_commas_raw(input)
        .into_iter()
        .map(strip_leading_and_trailing_whitespace)
        .collect()
}

/// Spec: seed 002 §2.4.6 "split a string on commas", steps 1–9: like
/// [`split_on_commas`], but the white space around tokens is kept.
///
/// ```
/// assert_eq!(microsyntax::split_on_commas_seed(" a , b"), [" a ", " b"]);
/// ```
pub fn split_on_commas_seed(input: &str) -> Vec<&str> {
    split_on_commas_raw(input)
}

fn split_on_commas_raw(input: &str) -> Vec<&str> {
    // Steps 1–3.
    let mut cursor = Cursor::new(input);
    let mut tokens = Vec::new();
    // Step 4. Token: if position is past the end of input, stop.
    while !cursor.is_at_end() {
        // Steps 5–6. Collect the characters up to a comma.
        tokens.push(cursor.collect(|c| c != ','));
        // Step 7. Skip the comma.
        cursor.eat(',');
    }
    tokens
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_on_spaces_steps() {
        assert!(split_on_spaces("").is_empty());
        assert_eq!(split_on_spaces("a"), ["a"]);
        assert_eq!(split_on_spaces("\u{C}a\r\nb\u{A0}c"), ["a", "b\u{A0}c"]);
        assert_eq!(split_on_spaces_seed004("\u{B}a\u{B}"), ["a"]);
    }

    #[test]
    fn remove_token_steps() {
        // The seed's summary: spaces around a removed token collapse to one,
        // except at the start and end of the string, where they go.
        assert_eq!(remove_token("b", "b"), "");
        assert_eq!(remove_token("  b  ", "b"), "");
        assert_eq!(remove_token("a b", "b"), "a");
        assert_eq!(remove_token("b a", "b"), "a");
        assert_eq!(remove_token("a \n b \n c", "b"), "a c");
        assert_eq!(remove_token("a b b c", "b"), "a c");
        assert_eq!(remove_token("ab b", "b"), "ab");
        assert_eq!(remove_token("  a  ", "b"), "  a  ");
        assert_eq!(remove_token("", "b"), "");
        assert_eq!(remove_token("é b é", "b"), "é é");
        assert_eq!(remove_token_seed004("a\u{B}b\u{B}c", "b"), "a c");
        assert_eq!(remove_token("a\u{B}b", "b"), "a\u{B}b");
    }

    #[test]
    fn commas() {
        assert_eq!(split_on_commas(","), [""]);
        assert_eq!(split_on_commas(",,"), ["", ""]);
        assert_eq!(split_on_commas(" , "), ["", ""]);
        assert_eq!(split_on_commas_seed(",a"), ["", "a"]);
        assert_eq!(split_on_commas_seed("a,,"), ["a", ""]);
        assert!(split_on_commas_seed("").is_empty());
    }

    #[test]
    fn unique() {
        assert!(unique_tokens("").is_empty());
        assert!(is_valid_unique_tokens(""));
        assert_eq!(unique_tokens("a\ta a"), ["a"]);
    }
}
