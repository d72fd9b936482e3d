//! URLs and anchor names as the text format can hold them.
//!
//! Seed 000 "Inline Elements": URL and Fragment "are not allowed to contain
//! white-space characters or any character from the set `{}[|]<>"`". A URL
//! from a page is first stripped the way a URL parser strips it (leading and
//! trailing C0 controls and spaces, tabs and newlines anywhere), then each
//! remaining forbidden character is percent-encoded, which leaves the URL
//! meaning the same resource. Anchor names get the same percent-encoding, so
//! that a `#fragment` link and its target keep matching.

use std::borrow::Cow;
use std::fmt::Write as _;

/// Percent-encodes what a URL or fragment cannot hold in text: control
/// characters (the URL Standard's rule: they are not URL code points), then
/// the characters the text format forbids ([`wikitext::grammar`] owns that
/// set). Returns the text and whether anything changed.
fn encode_forbidden(s: &str) -> (String, bool) {
    let controls: Cow<'_, str> = if s.chars().any(char::is_control) {
        let mut out = String::with_capacity(s.len() + 8);
        let mut buf = [0u8; 4];
        for c in s.chars() {
            if c.is_control() {
                for b in c.encode_utf8(&mut buf).bytes() {
                    let _ = write!(out, "%{b:02X}");
                }
            } else {
                out.push(c);
            }
        }
        Cow::Owned(out)
    } else {
        Cow::Borrowed(s)
    };
    let encoded = wikitext::grammar::encode_link_value(&controls);
    let changed = matches!(controls, Cow::Owned(_)) || matches!(encoded, Cow::Owned(_));
    (encoded.into_owned(), changed)
}

/// A URL cleaned for the format.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CleanUrl {
    /// The URL to use.
    pub(crate) url: String,
    /// Whether characters had to be percent-encoded.
    pub(crate) encoded: bool,
    /// The scheme, lowercase, when the URL has one.
    pub(crate) scheme: Option<String>,
}

/// Cleans an `href` (or `src`): `None` when nothing is left.
pub(crate) fn clean_url(raw: &str) -> Option<CleanUrl> {
    // URL Standard, basic URL parser: strip leading and trailing C0 control
    // or space, then remove all ASCII tab or newline.
    let trimmed = raw.trim_matches(|c: char| c <= ' ');
    let stripped: String;
    let s = if trimmed.contains(['\t', '\n', '\r']) {
        stripped = trimmed
            .chars()
            .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
            .collect();
        &stripped
    } else {
        trimmed
    };
    if s.is_empty() {
        return None;
    }
    let (url, encoded) = encode_forbidden(s);
    Some(CleanUrl {
        scheme: scheme_of(&url),
        url,
        encoded,
    })
}

/// The scheme of a URL (URL Standard, scheme state: an ASCII letter, then
/// letters, digits, `+`, `-`, `.`, up to `:`), lowercased.
fn scheme_of(url: &str) -> Option<String> {
    let colon = url.find(':')?;
    let scheme = url.get(..colon)?;
    let mut chars = scheme.chars();
    let first = chars.next()?;
    if !first.is_ascii_alphabetic()
        || !chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
    {
        return None;
    }
    Some(scheme.to_ascii_lowercase())
}

/// Whether a scheme runs code or smuggles content when followed (DESIGN
/// decision 6).
pub(crate) fn is_unsafe_scheme(scheme: &str) -> bool {
    matches!(scheme, "javascript" | "vbscript" | "data")
}

/// An anchor name (from `id` or `a/@name`) for the format: trimmed of
/// surrounding white space, forbidden characters percent-encoded. `None`
/// when empty.
pub(crate) fn clean_anchor(raw: &str) -> Option<(String, bool)> {
    let s = raw.trim_matches(|c: char| c.is_ascii_whitespace());
    if s.is_empty() {
        return None;
    }
    let (name, encoded) = encode_forbidden(s);
    Some((name, encoded || s.len() != raw.len()))
}

/// The address of a `mailto:` URL when it is a bare address the format can
/// write as `<localpart@domain>` (seed 000, rule 5: letters (any script, as
/// the text parser reads them), digits, `-` and
/// `.` on both sides, `_` too in the local part, and a `.` in the domain).
pub(crate) fn mailto_address(url: &str) -> Option<&str> {
    let rest = url.get(..7).filter(|p| p.eq_ignore_ascii_case("mailto:"))?;
    let address = url.get(rest.len()..)?;
    is_email(address).then_some(address)
}

/// Seed 000, inline rule 5 (the rule is wikitext's).
pub(crate) fn is_email(address: &str) -> bool {
    wikitext::grammar::is_email_address(address)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_stripped_and_encoded() {
        let u = clean_url("  http://x.org/a b|c\n ").unwrap();
        assert_eq!(u.url, "http://x.org/a%20b%7Cc");
        assert!(u.encoded);
        assert_eq!(u.scheme.as_deref(), Some("http"));
        assert_eq!(clean_url(" \t "), None);
        let u = clean_url("page.html#x").unwrap();
        assert!(!u.encoded);
        assert_eq!(u.scheme, None);
    }

    #[test]
    fn unsafe_schemes_survive_obfuscation() {
        for raw in [
            "javascript:alert(1)",
            " JavaScript:x",
            "java\tscript:x",
            "\u{1}vbscript:x",
            "DATA:text/html,x",
        ] {
            let u = clean_url(raw).unwrap();
            assert!(is_unsafe_scheme(u.scheme.as_deref().unwrap_or("")), "{raw}");
        }
        let u = clean_url("javascript-docs.html").unwrap();
        assert_eq!(u.scheme, None);
    }

    #[test]
    fn anchors() {
        assert_eq!(clean_anchor("sec-1"), Some(("sec-1".to_owned(), false)));
        assert_eq!(
            clean_anchor("Section 1"),
            Some(("Section%201".to_owned(), true))
        );
        assert_eq!(clean_anchor("  "), None);
    }

    #[test]
    fn emails_follow_rule_5() {
        // Seed 000's own example of rule 5.
        assert_eq!(
            mailto_address("mailto:no_reply@aksware.de"),
            Some("no_reply@aksware.de")
        );
        assert_eq!(mailto_address("MAILTO:a@b.c"), Some("a@b.c"));
        assert_eq!(mailto_address("mailto:a@localhost"), None);
        assert_eq!(mailto_address("mailto:a@b.c?subject=x"), None);
        assert_eq!(mailto_address("mailto:a@b_c.d"), None);
        assert_eq!(mailto_address("http://a@b.c"), None);
    }
}
