//! Common parser idioms: seed 002 §2.4.1 (and seed 004's list, which adds
//! U+000B LINE TABULATION to the space characters), plus the reference's
//! "strip leading and trailing white space", "strip and collapse white space"
//! and "strictly split a string".
//!
//! The spec's micro-parsers walk an `input` string with a `position` pointer;
//! [`Cursor`] is that pair. Its methods are the idioms: *collect a sequence of
//! characters* ([`Cursor::collect`]), *skip whitespace*
//! ([`Cursor::skip_whitespace`]) and *skip White_Space characters*
//! ([`Cursor::skip_white_space_characters`]). A cursor never allocates.

use std::borrow::Cow;

use crate::error::{Error, ErrorKind};

/// Spec: seed 002 §2.4.1, reference "space characters": U+0020 SPACE, U+0009
/// TAB, U+000A LF, U+000C FF and U+000D CR.
///
/// ```
/// assert!(microsyntax::is_space_character('\t'));
/// assert!(!microsyntax::is_space_character('\u{B}'));
/// assert!(!microsyntax::is_space_character('\u{A0}'));
/// ```
pub const fn is_space_character(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\u{C}' | '\r')
}

/// Spec: seed 004 (Oct 2007) "space characters", which also include U+000B
/// LINE TABULATION (VT). The later drafts dropped VT; this is the seed's
/// variant of [`is_space_character`].
///
/// ```
/// assert!(microsyntax::is_space_character_seed004('\u{B}'));
/// ```
pub const fn is_space_character_seed004(c: char) -> bool {
    is_space_character(c) || c == '\u{B}'
}

/// Spec: seed 002 §2.4.1 "White_Space characters": the characters with the
/// Unicode property White_Space (as `char::is_whitespace` reports it).
///
/// ```
/// assert!(microsyntax::is_white_space('\u{3000}'));
/// assert!(!microsyntax::is_white_space('x'));
/// ```
pub fn is_white_space(c: char) -> bool {
    c.is_whitespace()
}

/// Spec: seed 004 "Zs characters": the characters of Unicode general
/// category Zs (space separators). Seed 004 skips these where seed 002 skips
/// White_Space characters (in the "in content" date or time strings).
///
/// ```
/// assert!(microsyntax::is_zs(' '));
/// assert!(microsyntax::is_zs('\u{A0}'));
/// assert!(!microsyntax::is_zs('\t')); // Cc, not Zs
/// ```
pub const fn is_zs(c: char) -> bool {
    matches!(
        c,
        '\u{20}' | '\u{A0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200A}' | '\u{202F}' | '\u{205F}' | '\u{3000}'
    )
}

/// Which set of "space characters" an algorithm skips: the seed 002 and
/// later set, or seed 004's set with VT.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Spaces {
    /// SP, TAB, LF, FF, CR (seed 002 and the later standard).
    Standard,
    /// SP, TAB, LF, VT, FF, CR (seed 004).
    Seed004,
}

impl Spaces {
    pub(crate) const fn contains(self, c: char) -> bool {
        match self {
            Self::Standard => is_space_character(c),
            Self::Seed004 => is_space_character_seed004(c),
        }
    }

    pub(crate) const fn contains_byte(self, b: u8) -> bool {
        match self {
            Self::Standard => matches!(b, b' ' | b'\t' | b'\n' | 0x0C | b'\r'),
            Self::Seed004 => matches!(b, b' ' | b'\t' | b'\n' | 0x0B | 0x0C | b'\r'),
        }
    }
}

/// The `input` and `position` pair of the spec's micro-parsers.
///
/// The position is a byte offset that always sits on a character boundary;
/// every method is total (none panics, whatever the input).
///
/// ```
/// use microsyntax::Cursor;
/// let mut c = Cursor::new("  42px");
/// c.skip_whitespace();
/// assert_eq!(c.collect_digits(), "42");
/// assert_eq!(c.rest(), "px");
/// ```
#[derive(Debug, Clone)]
pub struct Cursor<'a> {
    input: &'a str,
    position: usize,
}

impl<'a> Cursor<'a> {
    /// A cursor at the start of `input`.
    pub const fn new(input: &'a str) -> Self {
        Self { input, position: 0 }
    }

    /// The whole input.
    pub const fn input(&self) -> &'a str {
        self.input
    }

    /// The byte offset of the next character to parse.
    pub const fn position(&self) -> usize {
        self.position
    }

    /// Whether the position is past the end of the input.
    pub const fn is_at_end(&self) -> bool {
        self.position >= self.input.len()
    }

    /// The not yet parsed part of the input.
    pub fn rest(&self) -> &'a str {
        self.input.get(self.position..).unwrap_or("")
    }

    /// The character at the position, if any.
    pub fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    /// The byte at the position, if any. Only meaningful for comparisons with
    /// ASCII bytes, which never occur inside a multi-byte character.
    pub fn peek_byte(&self) -> Option<u8> {
        self.input.as_bytes().get(self.position).copied()
    }

    /// The byte after the one at the position, if any.
    pub(crate) fn peek_byte_at(&self, offset: usize) -> Option<u8> {
        self.input
            .as_bytes()
            .get(self.position.saturating_add(offset))
            .copied()
    }

    /// Advances the position past the current character (no-op at the end).
    pub fn advance(&mut self) {
        if let Some(c) = self.peek() {
            self.position += c.len_utf8();
        }
    }

    /// Returns the character at the position and advances past it.
    pub fn next_char(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.position += c.len_utf8();
        Some(c)
    }

    /// Advances past `c` if it is the character at the position.
    pub fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.position += c.len_utf8();
            true
        } else {
            false
        }
    }

    /// Moves the position back (or forward) to `position`, a value previously
    /// read from [`Cursor::position`]. Positions that are not character
    /// boundaries of the input are ignored.
    pub fn set_position(&mut self, position: usize) {
        if self.input.is_char_boundary(position) {
            self.position = position;
        }
    }

    /// Spec: seed 002 §2.4.1 "collect a sequence of characters": the longest
    /// run of characters, from the position on, for which `characters`
    /// returns true. The position moves past the run.
    pub fn collect(&mut self, mut characters: impl FnMut(char) -> bool) -> &'a str {
        let start = self.position;
        let rest = self.rest();
        let len = rest
            .char_indices()
            .find(|&(_, c)| !characters(c))
            .map_or(rest.len(), |(i, _)| i);
        self.position += len;
        self.input.get(start..self.position).unwrap_or("")
    }

    /// Collects a sequence of ASCII bytes matching `bytes`; faster than
    /// [`Cursor::collect`] for ASCII-only character sets.
    pub(crate) fn collect_bytes(&mut self, bytes: impl Fn(u8) -> bool) -> &'a str {
        let start = self.position;
        let len = self
            .input
            .as_bytes()
            .get(start..)
            .unwrap_or(&[])
            .iter()
            .take_while(|&&b| b.is_ascii() && bytes(b))
            .count();
        self.position += len;
        self.input.get(start..self.position).unwrap_or("")
    }

    /// Collects a sequence of ASCII digits (U+0030 to U+0039).
    pub fn collect_digits(&mut self) -> &'a str {
        self.collect_bytes(|b| b.is_ascii_digit())
    }

    /// Spec: seed 002 §2.4.1 "skip whitespace": collects and drops a sequence
    /// of [space characters](is_space_character).
    pub fn skip_whitespace(&mut self) {
        self.skip_spaces(Spaces::Standard);
    }

    /// Seed 004's "skip whitespace", with U+000B LINE TABULATION.
    pub fn skip_whitespace_seed004(&mut self) {
        self.skip_spaces(Spaces::Seed004);
    }

    pub(crate) fn skip_spaces(&mut self, spaces: Spaces) {
        self.collect_bytes(|b| spaces.contains_byte(b));
    }

    /// Spec: seed 002 §2.4.1 "skip White_Space characters".
    pub fn skip_white_space_characters(&mut self) {
        self.collect(is_white_space);
    }

    /// Seed 004's "skip Zs characters".
    pub fn skip_zs_characters(&mut self) {
        self.collect(is_zs);
    }

    /// An error of `kind` at the current position.
    pub(crate) const fn error(&self, kind: ErrorKind) -> Error {
        Error::new(kind, self.position)
    }

    /// An "expected X" error at the position, or "unexpected end" at the end.
    pub(crate) fn expected(&self, what: &'static str) -> Error {
        if self.is_at_end() {
            self.error(ErrorKind::UnexpectedEnd)
        } else {
            self.error(ErrorKind::Expected(what))
        }
    }
}

/// Spec: seed 002 §2.4.1 "strip line breaks": removes every U+000A LF and
/// U+000D CR. Borrows when there is nothing to remove.
///
/// ```
/// assert_eq!(microsyntax::strip_line_breaks("a\r\nb"), "ab");
/// ```
pub fn strip_line_breaks(s: &str) -> Cow<'_, str> {
    if s.contains(['\n', '\r']) {
        Cow::Owned(s.chars().filter(|&c| c != '\n' && c != '\r').collect())
    } else {
        Cow::Borrowed(s)
    }
}

/// Spec: seed 002 §2.4.1 "codepoint length": the number of Unicode code
/// points (Rust `char`s) in `s`, not its length in bytes.
///
/// ```
/// assert_eq!(microsyntax::code_point_length("naïve"), 5);
/// ```
pub fn code_point_length(s: &str) -> usize {
    s.chars().count()
}

/// Reference "strip leading and trailing white space": removes the
/// [space characters](is_space_character) at both ends.
///
/// ```
/// assert_eq!(microsyntax::strip_leading_and_trailing_whitespace(" \ta b\n"), "a b");
/// ```
pub fn strip_leading_and_trailing_whitespace(s: &str) -> &str {
    s.trim_matches(is_space_character)
}

/// Reference "strip and collapse white space": every run of space characters
/// becomes one U+0020 SPACE, then both ends are stripped.
///
/// ```
/// assert_eq!(microsyntax::strip_and_collapse_whitespace("  a \t\n b  "), "a b");
/// ```
pub fn strip_and_collapse_whitespace(s: &str) -> Cow<'_, str> {
    let trimmed = strip_leading_and_trailing_whitespace(s);
    let mut previous_space = false;
    let needs_work = trimmed.chars().any(|c| {
        let bad = is_space_character(c) && (c != ' ' || previous_space);
        previous_space = is_space_character(c);
        bad
    });
    if !needs_work {
        return Cow::Borrowed(trimmed);
    }
    let mut out = String::with_capacity(trimmed.len());
    let mut in_space = false;
    for c in trimmed.chars() {
        if is_space_character(c) {
            in_space = true;
        } else {
            if in_space {
                out.push(' ');
                in_space = false;
            }
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// Reference "strictly split a string" on `delimiter`: unlike
/// [`str::split`], the empty string gives no token and a trailing delimiter
/// does not add an empty token.
///
/// ```
/// assert_eq!(microsyntax::strictly_split("a,,b,", ','), ["a", "", "b"]);
/// assert!(microsyntax::strictly_split("", ',').is_empty());
/// ```
pub fn strictly_split(s: &str, delimiter: char) -> Vec<&str> {
    let mut cursor = Cursor::new(s);
    let mut tokens = Vec::new();
    // Step 4. While position is not past the end of input:
    while !cursor.is_at_end() {
        // Steps 4.1–4.2. Collect the characters that are not the delimiter.
        tokens.push(cursor.collect(|c| c != delimiter));
        // Step 4.3. Advance past the delimiter.
        cursor.advance();
    }
    tokens
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn space_characters() {
        for c in [' ', '\t', '\n', '\u{C}', '\r'] {
            assert!(is_space_character(c));
            assert!(is_space_character_seed004(c));
        }
        assert!(!is_space_character('\u{B}'));
        assert!(is_space_character_seed004('\u{B}'));
        assert!(!is_space_character('\u{A0}'));
    }

    #[test]
    fn zs_and_white_space() {
        assert!(is_zs('\u{2009}'));
        assert!(!is_zs('\n'));
        assert!(is_white_space('\n'));
        assert!(is_white_space('\u{85}'));
        assert!(!is_zs('\u{85}'));
    }

    #[test]
    fn cursor_collects_and_skips() {
        let mut c = Cursor::new(" \u{B}12ab");
        c.skip_whitespace();
        assert_eq!(c.position(), 1);
        c.skip_whitespace_seed004();
        assert_eq!(c.position(), 2);
        assert_eq!(c.collect_digits(), "12");
        assert_eq!(c.collect(|ch| ch.is_ascii_alphabetic()), "ab");
        assert!(c.is_at_end());
        assert_eq!(c.next_char(), None);
        c.advance();
        assert!(c.is_at_end());
    }

    #[test]
    fn cursor_handles_multibyte() {
        let mut c = Cursor::new("\u{3000}é1");
        c.skip_white_space_characters();
        assert_eq!(c.peek(), Some('é'));
        assert_eq!(c.collect_digits(), "");
        c.advance();
        assert_eq!(c.collect_digits(), "1");
        c.set_position(1); // not a boundary: ignored
        assert!(c.is_at_end());
    }

    #[test]
    fn strip_and_collapse() {
        assert_eq!(strip_and_collapse_whitespace("a b"), "a b");
        assert!(matches!(
            strip_and_collapse_whitespace("a b"),
            Cow::Borrowed(_)
        ));
        assert_eq!(strip_and_collapse_whitespace("a  b"), "a b");
        assert_eq!(strip_and_collapse_whitespace("a\tb"), "a b");
        assert_eq!(strip_and_collapse_whitespace("   "), "");
    }

    #[test]
    fn strictly_split_examples() {
        assert_eq!(strictly_split(",a", ','), ["", "a"]);
        assert_eq!(strictly_split("a", ','), ["a"]);
        assert_eq!(strictly_split(",", ','), [""]);
    }

    #[test]
    fn line_breaks_and_length() {
        assert_eq!(strip_line_breaks("no breaks"), "no breaks");
        assert_eq!(strip_line_breaks("\r\n"), "");
        assert_eq!(code_point_length(""), 0);
        assert_eq!(code_point_length("\u{1F600}"), 1);
    }
}
