//! Anchor names as XHTML 1.0 can hold them, and the references to them.
//!
//! The XHTML 1.0 DTDs type `id` as an XML `ID` (an XML 1.0 `Name`) and
//! `a/@name` as an `NMTOKEN`; pagetext writes both with one value (so that
//! old and new readers find the anchor), so an anchor name must be a `Name`.
//! Real pages carry `id="2550"`, `name="2000-07"` or `name="*"`, and the text
//! format holds such names, so they are given a valid form by one function,
//! [`anchor_name`], and every reference to them, by [`fragment_reference`],
//! which applies the same function to a link's fragment. Ingestion uses both
//! (so the text already holds the valid form and converting it again changes
//! nothing), and so does emission (for text written by hand).
//!
//! ```
//! use htmlio::names::{anchor_name, fragment_reference};
//! assert_eq!(anchor_name("intro"), "intro");
//! assert_eq!(anchor_name("2550"), "_2550");
//! assert_eq!(anchor_name("*"), "__2A");
//! assert_eq!(fragment_reference("#2000-07"), "#_2000-07");
//! assert_eq!(fragment_reference("news.html#2000-07"), "news.html#_2000-07");
//! // Another site's names are its own.
//! assert_eq!(fragment_reference("http://example.com/#2000-07"), "http://example.com/#2000-07");
//! ```

use std::borrow::Cow;
use std::fmt::Write as _;

/// XML 1.0 (Fifth Edition) §2.3 `NameStartChar`.
fn is_name_start(c: char) -> bool {
    matches!(c,
        ':' | 'A'..='Z' | '_' | 'a'..='z'
        | '\u{c0}'..='\u{d6}' | '\u{d8}'..='\u{f6}' | '\u{f8}'..='\u{2ff}'
        | '\u{370}'..='\u{37d}' | '\u{37f}'..='\u{1fff}' | '\u{200c}'..='\u{200d}'
        | '\u{2070}'..='\u{218f}' | '\u{2c00}'..='\u{2fef}' | '\u{3001}'..='\u{d7ff}'
        | '\u{f900}'..='\u{fdcf}' | '\u{fdf0}'..='\u{fffd}' | '\u{10000}'..='\u{effff}')
}

/// XML 1.0 (Fifth Edition) §2.3 `NameChar`.
fn is_name_char(c: char) -> bool {
    is_name_start(c)
        || matches!(c, '-' | '.' | '0'..='9' | '\u{b7}' | '\u{300}'..='\u{36f}' | '\u{203f}'..='\u{2040}')
}

/// Whether `s` matches the XML `Name` production (the type of `id`).
///
/// ```
/// assert!(htmlio::names::is_xml_name("_x.1-2"));
/// assert!(!htmlio::names::is_xml_name("1st"));
/// ```
pub fn is_xml_name(s: &str) -> bool {
    // Most names are ASCII: a byte test each, without decoding characters.
    let bytes = s.as_bytes();
    if bytes.is_ascii() {
        let name_char =
            |b: &u8| b.is_ascii_alphanumeric() || matches!(b, b':' | b'_' | b'-' | b'.');
        return bytes
            .first()
            .is_some_and(|b| b.is_ascii_alphabetic() || matches!(b, b':' | b'_'))
            && bytes.iter().all(name_char);
    }
    let mut chars = s.chars();
    chars.next().is_some_and(is_name_start) && chars.all(is_name_char)
}

/// Whether `s` matches the XML `Nmtoken` production (the type of `a/@name`
/// and `lang` in the XHTML 1.0 Transitional DTD).
///
/// ```
/// assert!(htmlio::names::is_nmtoken("1st"));
/// assert!(!htmlio::names::is_nmtoken("a b"));
/// ```
pub fn is_nmtoken(s: &str) -> bool {
    !s.is_empty() && s.chars().all(is_name_char)
}

/// The form of an anchor name that XHTML 1.0 can hold as both `id` and
/// `name`: the name itself when it is an XML `Name`; otherwise `_` in front
/// when it does not start as a name must, each `%` (of a percent-encoded
/// byte, whose hex digits follow) as `_`, and each other character a name
/// cannot hold as `_` and its code point in hex. The result is always a
/// `Name`, so the function gives the same result when applied again, and
/// a name that was valid is never changed. Two names can meet in one form
/// (`2550` and `_2550`); ingestion then keeps the first, as it does for a
/// repeated name.
pub fn anchor_name(s: &str) -> Cow<'_, str> {
    if is_xml_name(s) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 4);
    if !s.chars().next().is_some_and(is_name_start) {
        out.push('_');
    }
    for c in s.chars() {
        if is_name_char(c) {
            out.push(c);
        } else if c == '%' {
            out.push('_');
        } else {
            let _ = write!(out, "_{:X}", u32::from(c));
        }
    }
    Cow::Owned(out)
}

/// A link's URL with its fragment, percent-decoded ([`decode_fragment`]),
/// as [`anchor_name`] writes the anchor it names, for a reference into this
/// site: an in-page `#name`, or a relative
/// URL with a fragment (the other page is converted the same way). An
/// absolute URL is left alone: its names are another site's.
pub fn fragment_reference(url: &str) -> Cow<'_, str> {
    let Some((before, fragment)) = site_reference(url) else {
        return Cow::Borrowed(url);
    };
    if is_xml_name(fragment) {
        return Cow::Borrowed(url);
    }
    let name = anchor_name(&decode_fragment(fragment)).into_owned();
    Cow::Owned(format!("{before}#{name}"))
}

/// A fragment percent-decoded, as a browser decodes it to find its target
/// (the HTML Standard's "find a potential indicated element" tries the
/// decoded fragment): `caf%C3%A9` names the anchor `café`. Left as it is
/// when the bytes are not UTF-8.
pub fn decode_fragment(fragment: &str) -> Cow<'_, str> {
    if !fragment.contains('%') {
        return Cow::Borrowed(fragment);
    }
    match percent_encoding::percent_decode_str(fragment).decode_utf8() {
        Ok(decoded) => decoded,
        Err(_) => Cow::Borrowed(fragment),
    }
}

/// A URL into this site with a fragment, split at its first `#`: what comes
/// before it and the fragment; `None` for an absolute URL, a URL without a
/// fragment, or an empty one.
///
/// ```
/// use htmlio::names::site_reference;
/// assert_eq!(site_reference("a.html#x#y"), Some(("a.html", "x#y")));
/// assert_eq!(site_reference("http://a/#x"), None);
/// ```
pub fn site_reference(url: &str) -> Option<(&str, &str)> {
    let (before, fragment) = url.split_once('#')?;
    if fragment.is_empty() || microsyntax::url::has_scheme(before) {
        return None;
    }
    Some((before, fragment))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ascii_test_of_names_agrees_with_the_productions() {
        // Every ASCII string of one and two characters, against the
        // character-by-character productions.
        let slow = |s: &str| {
            let mut chars = s.chars();
            chars.next().is_some_and(is_name_start) && chars.all(is_name_char)
        };
        for a in 0..128u8 {
            let one = char::from(a).to_string();
            assert_eq!(is_xml_name(&one), slow(&one), "{one:?}");
            for b in 0..128u8 {
                let two: String = [char::from(a), char::from(b)].iter().collect();
                assert_eq!(is_xml_name(&two), slow(&two), "{two:?}");
            }
        }
        assert!(!is_xml_name(""));
    }

    #[test]
    fn names_and_tokens() {
        assert!(is_xml_name("inline"));
        assert!(is_xml_name("_x.1-2"));
        assert!(is_xml_name("café"));
        assert!(!is_xml_name("1st"));
        assert!(!is_xml_name("a/b"));
        assert!(!is_xml_name(""));
        assert!(is_nmtoken("1st"));
        assert!(is_nmtoken("en-us"));
        assert!(!is_nmtoken("a b"));
        assert!(!is_nmtoken("a#b"));
    }

    /// Names seen on real pages (`id="2550"`, `name="2000-07"`, `name="*"`) and
    /// a percent-encoded space as ingestion writes one.
    #[test]
    fn invalid_names_get_a_valid_form() {
        for (name, want) in [
            ("2550", "_2550"),
            ("2000-07", "_2000-07"),
            ("*", "__2A"),
            ("Section%201", "Section_201"),
            ("a/b", "a_2Fb"),
            ("-x", "_-x"),
            (".", "_."),
            ("\u{b7}", "_\u{b7}"),
        ] {
            let got = anchor_name(name);
            assert_eq!(got, want, "{name}");
            assert!(is_xml_name(&got), "{got}");
            assert_eq!(anchor_name(&got), got, "applied again");
        }
        assert!(matches!(anchor_name("fine"), Cow::Borrowed("fine")));
    }

    #[test]
    fn references_follow_their_anchors() {
        assert_eq!(fragment_reference("#2550"), "#_2550");
        assert_eq!(fragment_reference("#ok"), "#ok");
        // Decoded as a browser decodes it: a space, a letter outside ASCII.
        assert_eq!(fragment_reference("#Section%201"), "#Section_201");
        assert_eq!(anchor_name("Section 1"), "Section_201");
        assert_eq!(fragment_reference("#caf%C3%A9"), "#café");
        assert_eq!(fragment_reference("#%FF"), "#__FF");
        assert_eq!(fragment_reference("#"), "#");
        assert_eq!(fragment_reference("../a.html#1"), "../a.html#_1");
        assert_eq!(fragment_reference("page.html"), "page.html");
        assert_eq!(fragment_reference("https://x.org/#1"), "https://x.org/#1");
        assert_eq!(fragment_reference("mailto:a@b.c#1"), "mailto:a@b.c#1");
    }
}
