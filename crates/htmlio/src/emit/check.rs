//! Character and name checks for XML 1.0 output.

use std::borrow::Cow;

/// Whether XML 1.0 (Fifth Edition) §2.2 `Char` excludes `c`: the C0 controls
/// other than tab, LF and CR, and U+FFFE, U+FFFF. (Surrogates cannot occur in
/// a Rust string.)
pub(crate) fn is_forbidden(c: char) -> bool {
    matches!(c, '\0'..='\u{8}' | '\u{b}' | '\u{c}' | '\u{e}'..='\u{1f}' | '\u{fffe}' | '\u{ffff}')
}

/// Whether `s` holds a character [`is_forbidden`] names.
pub(crate) fn has_forbidden(s: &str) -> bool {
    // Fast path on bytes: the forbidden characters are C0 bytes, or U+FFFE and
    // U+FFFF, whose UTF-8 forms start with 0xEF.
    // (A fold, not `any`: without an early exit the loop is vectorised.)
    let suspicious = s.bytes().fold(false, |seen, b| {
        seen | ((b < 0x20 && b != b'\t' && b != b'\n' && b != b'\r') | (b == 0xEF))
    });
    suspicious && s.chars().any(is_forbidden)
}

/// `s` with every forbidden character replaced by U+FFFD, and how many were
/// replaced. Borrows when there is nothing to replace (the common case).
pub(crate) fn clean(s: &str) -> (Cow<'_, str>, usize) {
    if !has_forbidden(s) {
        return (Cow::Borrowed(s), 0);
    }
    let mut count = 0;
    let cleaned = s
        .chars()
        .map(|c| {
            if is_forbidden(c) {
                count += 1;
                '\u{fffd}'
            } else {
                c
            }
        })
        .collect();
    (Cow::Owned(cleaned), count)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forbidden_characters_are_exactly_xmls() {
        for c in [
            '\0', '\u{1}', '\u{8}', '\u{b}', '\u{c}', '\u{e}', '\u{1f}', '\u{fffe}', '\u{ffff}',
        ] {
            assert!(is_forbidden(c), "{:?}", c);
        }
        for c in [
            '\t',
            '\n',
            '\r',
            ' ',
            '\u{7f}',
            '\u{85}',
            '\u{fdd0}',
            '\u{fffd}',
            '\u{10ffff}',
        ] {
            assert!(!is_forbidden(c), "{:?}", c);
        }
    }

    #[test]
    fn clean_replaces_and_counts() {
        assert_eq!(
            clean("a\u{0}b\u{ffff}"),
            (Cow::Owned("a\u{fffd}b\u{fffd}".into()), 2)
        );
        assert!(matches!(clean("fine").0, Cow::Borrowed("fine")));
    }
}
