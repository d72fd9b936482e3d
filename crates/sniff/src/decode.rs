//! Decoding the bytes with the chosen encoding, and the seed's preprocessing
//! of the input stream.
//!
//! Spec: seed 001 §8.2.2.3 ("Preprocessing the input stream"): decode by the
//! rules of the encoding with malformed bytes as U+FFFD, ignore one leading
//! U+FEFF, replace U+0000 by U+FFFD, and turn CR LF and lone CR into LF.
//!
//! [`decode`] does the first three (the NUL rule included, counted in
//! [`Decoded::nul`]), so that the text handed to a tokenizer holds no
//! U+0000; [`preprocess`] also does the newline rule.
//!
//! # U+0000: seed versus later standard
//!
//! The seed replaces every U+0000 of the input stream by U+FFFD, each one a
//! parse error. The later standard moved NUL handling into the tokenizer:
//! in most states (attribute values, comments, RCDATA, RAWTEXT, script
//! data, tag names, DOCTYPEs, foreign content) it still becomes U+FFFD with a
//! parse error, but in the data state it is passed on as U+0000 and the tree
//! builder drops it (in body, in table text...), with a parse error. That is
//! what html5ever does, so a NUL in body text would vanish from the
//! document. [`decode`] applies the seed's rule under both [`Rules`]
//! (it takes none): the text keeps a visible U+FFFD where the byte was, and
//! the count is there for the caller to report as parse errors. Everywhere
//! but in data-state text the result is the same as the later standard's.
//!
//! [`Rules`]: crate::Rules

use std::borrow::Cow;

use encoding_rs::{Encoding, GB18030, GBK, UTF_8, UTF_16BE, UTF_16LE};

/// Text decoded from bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decoded<'a> {
    /// The text; borrowed from the bytes when they were valid UTF-8 (or
    /// ASCII in an ASCII-compatible encoding) and needed no change.
    pub text: Cow<'a, str>,
    /// The encoding used.
    pub encoding: &'static Encoding,
    /// Whether some bytes were malformed and became U+FFFD.
    pub had_errors: bool,
    /// Whether a leading byte order mark was removed.
    pub bom_removed: bool,
    /// How many U+0000 characters the decoded text had, each now U+FFFD
    /// (seed 001 §8.2.2.3: each one a parse error for the caller to report).
    pub nul: usize,
    /// Byte offset in [`text`](Self::text) of the first U+FFFD that replaced
    /// a U+0000 (to report its line; also to tell it from a U+FFFD of a
    /// malformed byte), or `None` when there was none.
    pub first_nul: Option<usize>,
}

impl<'a> Decoded<'a> {
    /// Runs the seed's preprocessing ([`preprocess`]) on the text. The NULs
    /// [`decode`] replaced are counted in [`Replacements::nul`].
    pub fn preprocess(self) -> Preprocessed<'a> {
        let mut out = preprocess(self.text);
        out.replaced.nul += self.nul;
        out
    }
}

/// Replaces every U+0000 of `text` by U+FFFD; returns the text (not copied
/// when it has none), how many there were and where the first one is (the
/// same offset before and after: only later bytes move).
fn replace_nul(text: Cow<'_, str>) -> (Cow<'_, str>, usize, Option<usize>) {
    let Some(first) = text.find('\0') else {
        return (text, 0, None);
    };
    let nul = text.bytes().filter(|&b| b == 0).count();
    (Cow::Owned(text.replace('\0', "\u{FFFD}")), nul, Some(first))
}

/// The byte form of U+FEFF at the start of `bytes` in `encoding`, if any:
/// these bytes decode to exactly one U+FEFF, so skipping them is the same as
/// decoding and then dropping that character, without moving the text.
fn leading_bom_len(bytes: &[u8], encoding: &'static Encoding) -> usize {
    let bom: &[u8] = if encoding == UTF_8 {
        b"\xEF\xBB\xBF"
    } else if encoding == UTF_16LE {
        b"\xFF\xFE"
    } else if encoding == UTF_16BE {
        b"\xFE\xFF"
    } else if encoding == GB18030 || encoding == GBK {
        // gb18030 maps U+FEFF to this four-byte sequence (and the GBK
        // decoder is the gb18030 decoder).
        b"\x84\x31\x95\x33"
    } else {
        // No other encoding of the Encoding Standard can spell U+FEFF.
        b""
    };
    if bytes.starts_with(bom) { bom.len() } else { 0 }
}

/// <https://encoding.spec.whatwg.org/#decode>, with the seed's BOM and NUL
/// rules.
///
/// Decodes `bytes` as `encoding`: malformed sequences become U+FFFD, one
/// leading U+FEFF is removed (seed §8.2.2.3), which for the encoding a BOM
/// selected is the same as the Encoding Standard's "decode", and every
/// U+0000 becomes U+FFFD (seed §8.2.2.3; counted in [`Decoded::nul`]; the
/// module docs say how this compares with the later standard). Unlike that
/// algorithm, a BOM does not override `encoding` here: [`sniff`](crate::sniff)
/// already lets it win when the rules say so. The cost is that of
/// [`Encoding::decode_without_bom_handling`]; valid UTF-8 is borrowed.
///
/// ```
/// let decoded = sniff::decode(b"\xEF\xBB\xBFcaf\xC3\xA9 \xFF", encoding_rs::UTF_8);
/// assert_eq!(decoded.text, "café \u{FFFD}");
/// assert!(decoded.bom_removed && decoded.had_errors);
///
/// let decoded = sniff::decode(b"<p>a\0b", encoding_rs::WINDOWS_1252);
/// assert_eq!((decoded.text.as_ref(), decoded.nul), ("<p>a\u{FFFD}b", 1));
/// assert!(!decoded.had_errors);
/// ```
pub fn decode<'a>(bytes: &'a [u8], encoding: &'static Encoding) -> Decoded<'a> {
    let bom_len = leading_bom_len(bytes, encoding);
    let body = bytes.get(bom_len..).unwrap_or(bytes);
    let (text, had_errors) = encoding.decode_without_bom_handling(body);
    let (text, nul, first_nul) = replace_nul(text);
    Decoded {
        text,
        encoding,
        had_errors,
        bom_removed: bom_len > 0,
        nul,
        first_nul,
    }
}

/// What the preprocessing replaced.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Replacements {
    /// CR LF pairs turned into LF.
    pub crlf: usize,
    /// CR characters not followed by LF, turned into LF.
    pub lone_cr: usize,
    /// U+0000 characters turned into U+FFFD (each one a parse error).
    pub nul: usize,
}

impl Replacements {
    /// Whether nothing was replaced.
    pub fn is_empty(&self) -> bool {
        *self == Replacements::default()
    }
}

/// Text after the seed's preprocessing of the input stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Preprocessed<'a> {
    /// The text: no CR left, no U+0000 left. Unchanged (and not copied) when
    /// there was nothing to replace.
    pub text: Cow<'a, str>,
    /// What was replaced.
    pub replaced: Replacements,
}

/// Seed 001 §8.2.2.3: U+0000 becomes U+FFFD; CR LF becomes LF; a CR not
/// followed by LF becomes LF. Returns the text and counts of each.
///
/// [`decode`] has already replaced the NULs of decoded text (and
/// [`Decoded::preprocess`] adds its count to [`Replacements::nul`]); this
/// function replaces any in text from elsewhere. The module docs say how the
/// later standard's tokenizer treats NUL.
///
/// ```
/// let out = sniff::preprocess("a\r\nb\rc\0");
/// assert_eq!(out.text, "a\nb\nc\u{FFFD}");
/// assert_eq!((out.replaced.crlf, out.replaced.lone_cr, out.replaced.nul), (1, 1, 1));
/// ```
pub fn preprocess<'a>(text: impl Into<Cow<'a, str>>) -> Preprocessed<'a> {
    let text = text.into();
    // Searching for one byte uses the standard library's fast byte search;
    // NUL is rare, so the two-byte search only runs when there is one.
    let has_nul = text.contains('\0');
    let next_special = |from: usize| -> Option<usize> {
        let rest = text.get(from..)?;
        let found = if has_nul {
            rest.bytes().position(|b| b == b'\r' || b == 0)
        } else {
            rest.find('\r')
        };
        found.map(|at| from + at)
    };
    let Some(first) = next_special(0) else {
        return Preprocessed {
            text,
            replaced: Replacements::default(),
        };
    };
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len() + 8);
    let mut replaced = Replacements::default();
    // Copy the runs between special bytes. CR and NUL are ASCII, so each
    // split point is a character boundary.
    let mut start = 0;
    let mut next = Some(first);
    while let Some(i) = next {
        out.push_str(text.get(start..i).unwrap_or_default());
        if bytes.get(i) == Some(&0) {
            out.push('\u{FFFD}');
            replaced.nul += 1;
            start = i + 1;
        } else {
            out.push('\n');
            if bytes.get(i + 1) == Some(&b'\n') {
                replaced.crlf += 1;
                start = i + 2;
            } else {
                replaced.lone_cr += 1;
                start = i + 1;
            }
        }
        next = next_special(start);
    }
    out.push_str(text.get(start..).unwrap_or_default());
    Preprocessed {
        text: Cow::Owned(out),
        replaced,
    }
}

#[cfg(test)]
mod tests {
    use encoding_rs::{SHIFT_JIS, WINDOWS_1252};

    use super::*;

    #[test]
    fn malformed_bytes_become_replacement_characters() {
        let decoded = decode(b"a\xffb\xe3\x81", UTF_8);
        assert_eq!(decoded.text, "a\u{FFFD}b\u{FFFD}");
        assert!(decoded.had_errors);
        let decoded = decode(b"\x82\xa0\x82", SHIFT_JIS);
        assert_eq!(decoded.text, "\u{3042}\u{FFFD}");
    }

    #[test]
    fn one_leading_bom_is_removed() {
        let decoded = decode(b"\xEF\xBB\xBF\xEF\xBB\xBFx", UTF_8);
        assert_eq!(decoded.text, "\u{FEFF}x");
        assert!(decoded.bom_removed && !decoded.had_errors);
        let decoded = decode(b"\xFF\xFEx\x00", UTF_16LE);
        assert_eq!(decoded.text, "x");
        let decoded = decode(b"\xFE\xFF\x00x", UTF_16BE);
        assert_eq!(decoded.text, "x");
        let decoded = decode(b"\x84\x31\x95\x33x", GB18030);
        assert_eq!((decoded.text.as_ref(), decoded.bom_removed), ("x", true));
        // A U+FEFF later on stays.
        let decoded = decode(b"x\xEF\xBB\xBF", UTF_8);
        assert_eq!(
            (decoded.text.as_ref(), decoded.bom_removed),
            ("x\u{FEFF}", false)
        );
    }

    #[test]
    fn a_bom_of_another_encoding_is_just_bytes() {
        // The seed lets the transport layer win over a BOM; the bytes then
        // decode as what they are in that encoding.
        let decoded = decode(b"\xEF\xBB\xBFx", WINDOWS_1252);
        assert_eq!(decoded.text, "\u{EF}\u{BB}\u{BF}x");
        assert!(!decoded.bom_removed);
    }

    #[test]
    fn valid_utf8_is_borrowed() {
        let bytes = "caf\u{e9}".as_bytes();
        assert!(matches!(decode(bytes, UTF_8).text, Cow::Borrowed(_)));
        assert!(matches!(
            decode(b"\xEF\xBB\xBFok", UTF_8).text,
            Cow::Borrowed("ok")
        ));
        assert!(matches!(
            decode(b"ascii", WINDOWS_1252).text,
            Cow::Borrowed("ascii")
        ));
    }

    #[track_caller]
    fn check(input: &str, expect: &str, replaced: (usize, usize, usize)) {
        let out = preprocess(input);
        assert_eq!(out.text, expect, "{input:?}");
        let r = out.replaced;
        assert_eq!((r.crlf, r.lone_cr, r.nul), replaced, "{input:?}");
    }

    #[test]
    fn preprocessing_newlines_and_nul() {
        check("a\r\nb", "a\nb", (1, 0, 0));
        check("a\rb", "a\nb", (0, 1, 0));
        check("a\r", "a\n", (0, 1, 0));
        check("\r\r\n\n", "\n\n\n", (1, 1, 0));
        check("\n\r", "\n\n", (0, 1, 0));
        check("\0a\0", "\u{FFFD}a\u{FFFD}", (0, 0, 2));
        check("é\r\nñ\0", "é\nñ\u{FFFD}", (1, 0, 1));
        check("plain\ntext", "plain\ntext", (0, 0, 0));
        check("", "", (0, 0, 0));
        assert!(preprocess("a\r").replaced.lone_cr == 1);
        assert!(preprocess("x").replaced.is_empty());
    }

    #[test]
    fn decoding_turns_nul_into_replacement_characters_and_counts_them() {
        // Seed 001 §8.2.2.3: "U+0000 NULL characters in the input stream must
        // be replaced by U+FFFD REPLACEMENT CHARACTERs", each a parse error.
        let decoded = decode(b"<p>a\0b\0\0</p>", WINDOWS_1252);
        assert_eq!(decoded.text, "<p>a\u{FFFD}b\u{FFFD}\u{FFFD}</p>");
        assert_eq!((decoded.nul, decoded.first_nul), (3, Some(4)));
        assert!(!decoded.had_errors);
        // In every encoding: a NUL decoded from UTF-16 too.
        let decoded = decode(b"a\0\0\0", UTF_16LE);
        assert_eq!((decoded.text.as_ref(), decoded.nul), ("a\u{FFFD}", 1));
        let decoded = decode(b"\xEF\xBB\xBF\0", UTF_8);
        assert_eq!((decoded.text.as_ref(), decoded.nul), ("\u{FFFD}", 1));
        // Preprocessing counts them once, with its own newline counts.
        let input = decode(b"a\0\r\nb", UTF_8).preprocess();
        assert_eq!(input.text, "a\u{FFFD}\nb");
        assert_eq!((input.replaced.nul, input.replaced.crlf), (1, 1));
        // Without NUL nothing is copied.
        let decoded = decode(b"plain", UTF_8);
        assert!(matches!(decoded.text, Cow::Borrowed("plain")));
        assert_eq!((decoded.nul, decoded.first_nul), (0, None));
        // The first one after a malformed byte: told apart by its offset.
        let decoded = decode(b"\xff\n\0", UTF_8);
        assert_eq!(decoded.text, "\u{FFFD}\n\u{FFFD}");
        assert_eq!((decoded.had_errors, decoded.first_nul), (true, Some(4)));
    }

    #[test]
    fn preprocessing_unchanged_text_is_not_copied() {
        assert!(matches!(preprocess("abc\n").text, Cow::Borrowed("abc\n")));
        let decoded = decode(b"line\r\n", UTF_8).preprocess();
        assert_eq!(decoded.text, "line\n");
    }
}
