//! Reading an encoding out of a `Content-Type` value or a `<meta>` element.
//!
//! Spec: seed 001 names "the algorithm for extracting an encoding from a
//! Content-Type" (§8.2.2.1 step 4) without spelling it out; the 2007 drafts
//! defined it next to the other microsyntaxes. The later standard calls it the
//! "algorithm for extracting a character encoding from a `meta` element" and
//! adds one thing: a `charset` not followed by `=` no longer ends the search,
//! the search goes on after it. Labels resolve by the Encoding Standard's "get
//! an encoding" ([`Encoding::for_label`]).

use encoding_rs::Encoding;

use crate::Rules;

/// <https://html.spec.whatwg.org/multipage/urls-and-fetching.html#algorithm-for-extracting-a-character-encoding-from-a-meta-element>
///
/// Finds `charset=LABEL` in a `Content-Type` style value (as in
/// `text/html; charset=utf-8`) and resolves the label. `None` when there is no
/// such parameter or its label names no encoding.
///
/// The later standard's version ([`Rules::Standard`]) keeps looking when a
/// `charset` is not followed by `=`; the seed's ([`Rules::Seed2007`]) gives up
/// there and counts VT (U+000B) as a space.
///
/// ```
/// use sniff::{Rules, extract_encoding_from_meta_content};
///
/// let value = b"text/html; charset=\"ISO-8859-1\"";
/// // ISO-8859-1 is a label of windows-1252, as the seed requires.
/// assert_eq!(
///     extract_encoding_from_meta_content(value, Rules::Standard),
///     Some(encoding_rs::WINDOWS_1252)
/// );
/// let tricky = b"charsetfoo; charset=utf-8";
/// assert_eq!(extract_encoding_from_meta_content(tricky, Rules::Standard), Some(encoding_rs::UTF_8));
/// assert_eq!(extract_encoding_from_meta_content(tricky, Rules::Seed2007), None);
/// ```
pub fn extract_encoding_from_meta_content(value: &[u8], rules: Rules) -> Option<&'static Encoding> {
    let is_space = |b: u8| match rules {
        Rules::Standard => b.is_ascii_whitespace(),
        Rules::Seed2007 => b.is_ascii_whitespace() || b == 0x0B,
    };
    let skip_spaces = |mut pos: usize| {
        while value.get(pos).is_some_and(|&b| is_space(b)) {
            pos += 1;
        }
        pos
    };
    // Step 1: position at the start.
    let mut pos = 0;
    loop {
        // Step 2 ("Loop"): the next "charset", in any case; none: nothing.
        let rest = value.get(pos..)?;
        pos += find_ascii_case_insensitive(rest, b"charset")? + b"charset".len();
        // Step 3: skip spaces after it.
        pos = skip_spaces(pos);
        // Step 4: an `=` must follow. If not, the later standard searches
        // again from just before that character; the seed returns nothing.
        if value.get(pos) == Some(&b'=') {
            break;
        }
        if rules == Rules::Seed2007 {
            return None;
        }
    }
    // Step 5: skip spaces after the `=`.
    pos = skip_spaces(pos + 1);
    // Step 6: the value, quoted or not.
    match *value.get(pos)? {
        quote @ (b'"' | b'\'') => {
            // A quote with a matching later quote: what lies between.
            // An unmatched quote: nothing.
            let rest = value.get(pos + 1..)?;
            let len = rest.iter().position(|&b| b == quote)?;
            Encoding::for_label(rest.get(..len)?)
        }
        _ => {
            // Up to the first space or `;`, or the end.
            let rest = value.get(pos..)?;
            let len = rest
                .iter()
                .position(|&b| is_space(b) || b == b';')
                .unwrap_or(rest.len());
            Encoding::for_label(rest.get(..len)?)
        }
    }
}

/// The encoding a parsed `<meta>` element declares, as the later standard's
/// tree builder reads it when it inserts the element ("in head", a start tag
/// named `meta`): its `charset` attribute if that names an encoding, otherwise
/// the `charset=` in its `content` attribute if `http-equiv` is
/// `Content-Type` in any case.
///
/// `htmlio` calls this for each `<meta>` html5ever gives it and, while the
/// confidence is tentative, hands the result to
/// [`change_the_encoding`](crate::change_the_encoding). Attribute names are
/// compared without regard to ASCII case; if a name repeats, the first wins
/// (as the tokenizer keeps the first).
///
/// ```
/// let attrs = [("http-equiv", "Content-Type"), ("content", "text/html; charset=Shift_JIS")];
/// assert_eq!(sniff::meta_declared_encoding(attrs), Some(encoding_rs::SHIFT_JIS));
/// assert_eq!(sniff::meta_declared_encoding([("content", "text/html; charset=Shift_JIS")]), None);
/// ```
pub fn meta_declared_encoding<I, N, V>(attributes: I) -> Option<&'static Encoding>
where
    I: IntoIterator<Item = (N, V)>,
    N: AsRef<[u8]>,
    V: AsRef<[u8]>,
{
    let mut charset: Option<Option<&'static Encoding>> = None;
    let mut pragma: Option<bool> = None;
    let mut content: Option<Option<&'static Encoding>> = None;
    for (name, value) in attributes {
        let (name, value) = (name.as_ref(), value.as_ref());
        if name.eq_ignore_ascii_case(b"charset") && charset.is_none() {
            charset = Some(Encoding::for_label(value));
        } else if name.eq_ignore_ascii_case(b"http-equiv") && pragma.is_none() {
            pragma = Some(value.eq_ignore_ascii_case(b"content-type"));
        } else if name.eq_ignore_ascii_case(b"content") && content.is_none() {
            content = Some(extract_encoding_from_meta_content(value, Rules::Standard));
        }
    }
    if let Some(Some(encoding)) = charset {
        return Some(encoding);
    }
    if pragma == Some(true) {
        return content.flatten();
    }
    None
}

/// The first occurrence of `needle` in `haystack`, ignoring ASCII case.
fn find_ascii_case_insensitive(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    if needle.is_empty() {
        return Some(0);
    }
    haystack
        .windows(needle.len())
        .position(|w| w.eq_ignore_ascii_case(needle))
}

#[cfg(test)]
mod tests {
    use encoding_rs::{BIG5, KOI8_R, SHIFT_JIS, UTF_8, WINDOWS_1252};

    use super::*;

    #[track_caller]
    fn check(rules: Rules, value: &str, expect: Option<&'static Encoding>) {
        assert_eq!(
            extract_encoding_from_meta_content(value.as_bytes(), rules),
            expect,
            "{value:?}"
        );
    }

    #[test]
    fn extraction_step_by_step() {
        for rules in [Rules::Standard, Rules::Seed2007] {
            // Step 2: no "charset" at all.
            check(rules, "text/html", None);
            check(rules, "", None);
            // Step 2: any case.
            check(rules, "text/html; CharSet=utf-8", Some(UTF_8));
            // Steps 3 and 5: spaces around `=`.
            check(rules, "text/html; charset \t= \nkoi8-r", Some(KOI8_R));
            // Step 6: quotes.
            check(rules, "charset=\"big5\"", Some(BIG5));
            check(rules, "charset='big5'; x", Some(BIG5));
            check(rules, "charset=\"shift_jis' \"", None);
            // Step 6: an unmatched quote, or nothing after `=`.
            check(rules, "charset=\"utf-8", None);
            check(rules, "charset='utf-8", None);
            check(rules, "charset=", None);
            check(rules, "charset= ", None);
            check(rules, "charset", None);
            // Step 6: unquoted, up to a space or `;`.
            check(rules, "text/html; charset=utf-8; q=1", Some(UTF_8));
            check(rules, "charset=shift_jis extra", Some(SHIFT_JIS));
            check(rules, "charset=iso-8859-1", Some(WINDOWS_1252));
            check(rules, "charset=bogus", None);
        }
    }

    #[test]
    fn the_later_standard_searches_on_after_a_charset_without_equals() {
        check(Rules::Standard, "x-charset; charset=utf-8", Some(UTF_8));
        check(Rules::Seed2007, "x-charset; charset=utf-8", None);
        check(Rules::Standard, "charsetcharset=big5", Some(BIG5));
    }

    #[test]
    fn the_seed_counts_vt_as_a_space() {
        check(Rules::Seed2007, "charset=\x0butf-8", Some(UTF_8));
        check(Rules::Seed2007, "charset=utf-8\x0bx", Some(UTF_8));
        check(Rules::Standard, "charset=\x0butf-8", None);
    }

    #[test]
    fn meta_declared_encoding_follows_the_tree_builder_rule() {
        // charset wins.
        let attrs = [
            ("charset", "big5"),
            ("http-equiv", "content-type"),
            ("content", "charset=koi8-r"),
        ];
        assert_eq!(meta_declared_encoding(attrs), Some(BIG5));
        // A bad charset falls through to the pragma.
        let attrs = [
            ("charset", "bogus"),
            ("http-equiv", "Content-Type"),
            ("content", "charset=koi8-r"),
        ];
        assert_eq!(meta_declared_encoding(attrs), Some(KOI8_R));
        // The pragma needs http-equiv=Content-Type, in any case.
        let attrs = [
            ("HTTP-EQUIV", "CONTENT-TYPE"),
            ("Content", "text/html; charset=koi8-r"),
        ];
        assert_eq!(meta_declared_encoding(attrs), Some(KOI8_R));
        assert_eq!(
            meta_declared_encoding([("content", "charset=koi8-r")]),
            None
        );
        let attrs = [("http-equiv", "refresh"), ("content", "charset=koi8-r")];
        assert_eq!(meta_declared_encoding(attrs), None);
        // Nothing declared.
        assert_eq!(meta_declared_encoding([("name", "viewport")]), None);
        assert_eq!(meta_declared_encoding(Vec::<(String, String)>::new()), None);
        // The first of repeated names counts.
        assert_eq!(
            meta_declared_encoding([("charset", "big5"), ("charset", "utf-8")]),
            Some(BIG5)
        );
    }
}
