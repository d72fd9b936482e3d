//! The XML declaration as an encoding declaration in an HTML document: the
//! living standard's "prescan a byte stream to determine its encoding"
//! step 2 (the UTF-16 byte patterns of `<?x`) and "get an XML encoding",
//! which the prescan runs when it finds no `<meta>` (whatwg/html pull
//! request 1752, 2021).
//!
//! Neither the seed (2007) nor HTML 5.2 has these steps, so they run under
//! [`Rules::Standard`](crate::Rules::Standard) only. The reference copy of
//! the later standard in this project is HTML 5.2, which predates them: the
//! step numbers below are the WHATWG living standard's.
//!
//! Why not the `xmldecl` crate: it implements Gecko's reading of the
//! declaration, which differs from the standard's text (for example in how
//! it treats a UTF-16 label in an ASCII-compatible declaration and where it
//! allows spaces); the standard's steps are short, so they are written here,
//! step by step, with no dependency.
//!
//! # The 1,024-byte boundary
//!
//! "Get an XML encoding" is given every byte there is, not the prescan's
//! first 1024: its step 3 takes "the next byte in the input byte stream
//! which is 0x3E (>)", and unlike the `<meta>` loop it has no end condition.
//! Browsers read it so (Chromium and WebKit wait for the `>` however far it
//! is; Gecko dropped its 1024-byte limit in 2021, bug 1710790). The
//! web-platform-tests cases that pin it down, all in `html/syntax/xmldecl/`:
//!
//! - `xmldecl-1.html`: `support/kilobyte-after.htm` and
//!   `support/kilobyte-before.htm`, a declaration padded with spaces after
//!   or before `encoding="windows-1251"` so that its `>` is the 1024th byte:
//!   windows-1251;
//! - `xmldecl-2.html`: `support/kilobyte-plus-one-after.htm` and
//!   `support/kilobyte-plus-one-before.htm`, the same with the `>` as the
//!   1025th byte: windows-1251 too (wpt commit 9d4fe00914, "Adjust WPT to
//!   expect bogo XML decl longer than a kilobyte to be honored", moved them
//!   from the windows-1252 list);
//! - each with a `-trail` twin, the same bytes followed by 8192 NUL bytes,
//!   which shows the answer does not wait for, or look at, what follows.
//!
//! `crates/sniff/tests/byte_cases.rs` runs these and the other `xmldecl`
//! cases.

use encoding_rs::{Encoding, UTF_8, UTF_16BE, UTF_16LE};

/// What the XML-declaration steps found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct XmlEncoding {
    /// The encoding to use: a UTF-16 label already read as UTF-8 ("get an
    /// XML encoding" step 17); for the byte patterns, UTF-16LE or UTF-16BE.
    pub encoding: &'static Encoding,
    /// The encoding the label names, before step 17 (the same as `encoding`
    /// for the byte patterns).
    pub declared: &'static Encoding,
    /// Byte offset of the first byte of the encoding name (after the
    /// quote); 0 for the byte patterns, whose name is not read.
    pub offset: usize,
    /// Whether the UTF-16 byte pattern of `<?x` decided (prescan step 2).
    pub utf16_pattern: bool,
}

/// Living standard, "prescan a byte stream to determine its encoding",
/// step 2 ("prescan for UTF-16 XML declarations"): the bytes start with
/// `<?x` in UTF-16LE (`3C 00 3F 00 78 00`) or UTF-16BE (`00 3C 00 3F 00 78`).
/// The standard notes that, for historical reasons, the prefix is two bytes
/// longer than in XML's Appendix F and the encoding name is not checked.
///
/// ```
/// let le = "<?xml version='1.0'?>".encode_utf16().flat_map(u16::to_le_bytes).collect::<Vec<u8>>();
/// assert_eq!(sniff::utf16_xml_declaration(&le).map(|x| x.encoding), Some(encoding_rs::UTF_16LE));
/// assert_eq!(sniff::utf16_xml_declaration(b"<?xml version='1.0'?>"), None);
/// ```
pub fn utf16_xml_declaration(bytes: &[u8]) -> Option<XmlEncoding> {
    let encoding = match bytes {
        // "A sequence of bytes starting with: 0x3C, 0x0, 0x3F, 0x0, 0x78,
        // 0x0": return UTF-16LE.
        [0x3C, 0x00, 0x3F, 0x00, 0x78, 0x00, ..] => UTF_16LE,
        // "A sequence of bytes starting with: 0x0, 0x3C, 0x0, 0x3F, 0x0,
        // 0x78": return UTF-16BE.
        [0x00, 0x3C, 0x00, 0x3F, 0x00, 0x78, ..] => UTF_16BE,
        _ => return None,
    };
    Some(XmlEncoding {
        encoding,
        declared: encoding,
        offset: 0,
        utf16_pattern: true,
    })
}

/// Living standard, "get an XML encoding" (steps 1 to 18), on all the bytes
/// of the input (not only the prescan's 1024: see "The 1,024-byte boundary"
/// in the module's documentation). `None` is the algorithm's "failure".
///
/// ```
/// let found = sniff::get_an_xml_encoding(b"<?xml version=\"1.0\" encoding=\"windows-1251\"?><p>").unwrap();
/// assert_eq!(found.encoding, encoding_rs::WINDOWS_1251);
/// assert_eq!(found.offset, 30);
/// ```
pub fn get_an_xml_encoding(bytes: &[u8]) -> Option<XmlEncoding> {
    // Step 1: encodingPosition points at the start of the stream.
    // Step 2: if it does not point at `<?xml` (case-sensitive), failure.
    if !bytes.starts_with(b"<?xml") {
        return None;
    }
    // Step 3: xmlDeclarationEnd is the next `>`; none is failure. Every
    // search below stays before it. No end condition bounds this search: a
    // `>` past the first 1024 bytes counts (wpt html/syntax/xmldecl,
    // `kilobyte-plus-one-after.htm` and `kilobyte-plus-one-before.htm`,
    // whose `>` is the 1025th byte, are read as windows-1251).
    let end = bytes.iter().position(|&b| b == b'>')?;
    let declaration = bytes.get(..end)?;
    // Step 4: encodingPosition moves to the first `encoding` at or after
    // it (the stream's start); none is failure.
    let found = declaration
        .windows(b"encoding".len())
        .position(|w| w == b"encoding")?;
    // Step 5: advance past the `g`.
    let mut pos = found + b"encoding".len();
    // Step 6: skip bytes 0x20 and below (spaces and controls, NUL included).
    while *declaration.get(pos)? <= 0x20 {
        pos += 1;
    }
    // Step 7: the byte there must be `=`, else failure.
    if *declaration.get(pos)? != b'=' {
        return None;
    }
    // Step 8: advance past it.
    pos += 1;
    // Step 9: skip bytes 0x20 and below again.
    while *declaration.get(pos)? <= 0x20 {
        pos += 1;
    }
    // Step 10: quoteMark is the byte there.
    let quote = *declaration.get(pos)?;
    // Step 11: it must be `"` or `'`, else failure.
    if quote != b'"' && quote != b'\'' {
        return None;
    }
    // Step 12: advance past it.
    pos += 1;
    // Step 13: encodingEndPosition is the next quoteMark (before the `>` of
    // step 3); none is failure.
    let rest = declaration.get(pos..)?;
    let len = rest.iter().position(|&b| b == quote)?;
    // Step 14: potentialEncoding is the bytes in between.
    let potential = rest.get(..len)?;
    // Step 15: any byte 0x20 or below in it is failure (so ` utf-8` fails,
    // although "get an encoding" would trim it).
    if potential.iter().any(|&b| b <= 0x20) {
        return None;
    }
    // Step 16: get an encoding from potentialEncoding, isomorphic decoded
    // (a label is ASCII, so the bytes are the label); no encoding is failure.
    let declared = Encoding::for_label(potential)?;
    // Step 17: UTF-16BE/LE becomes UTF-8 (the bytes are ASCII-compatible,
    // or step 2 of the prescan would have answered).
    let encoding = if declared == UTF_16BE || declared == UTF_16LE {
        UTF_8
    } else {
        declared
    };
    // Step 18: return it.
    Some(XmlEncoding {
        encoding,
        declared,
        offset: pos,
        utf16_pattern: false,
    })
}

#[cfg(test)]
mod tests {
    use encoding_rs::{ISO_8859_2, SHIFT_JIS, WINDOWS_1251, X_USER_DEFINED};

    use super::*;

    fn xml(bytes: &[u8]) -> Option<&'static Encoding> {
        get_an_xml_encoding(bytes).map(|x| x.encoding)
    }

    #[test]
    fn a_windows_1251_page_declared_by_its_xml_declaration() {
        let page =
            b"<?xml version=\"1.0\" encoding=\"windows-1251\"?><p>\xcf\xf0\xe8\xe2\xe5\xf2</p>";
        let found = get_an_xml_encoding(page).unwrap();
        assert_eq!(found.encoding, WINDOWS_1251);
        assert_eq!(found.declared, WINDOWS_1251);
        assert_eq!(&page[found.offset..found.offset + 12], b"windows-1251");
        assert!(!found.utf16_pattern);
    }

    #[test]
    fn step_2_the_stream_must_start_with_lt_question_xml() {
        assert_eq!(xml(b"<?xml encoding='koi8-r'?>"), Some(encoding_rs::KOI8_R));
        // Case-sensitive, at the very start: no space, no BOM, no `<?XML`.
        assert_eq!(xml(b" <?xml encoding='koi8-r'?>"), None);
        assert_eq!(xml(b"<?XML encoding='koi8-r'?>"), None);
        assert_eq!(xml(b"<?xmX encoding='koi8-r'?>"), None);
        assert_eq!(xml(b"<!-- --><?xml encoding='koi8-r'?>"), None);
        // `<?xml-stylesheet` starts with `<?xml` too: the steps do not check
        // the target name's end.
        assert_eq!(
            xml(b"<?xml-stylesheet encoding='koi8-r'?>"),
            Some(encoding_rs::KOI8_R)
        );
        assert_eq!(xml(b""), None);
    }

    #[test]
    fn step_3_the_declaration_ends_at_the_first_gt() {
        assert_eq!(xml(b"<?xml version='1.0'?> encoding='koi8-r'"), None);
        assert_eq!(xml(b"<?xml encoding='koi8-r'"), None);
        // The `>` is the first one, even inside quotes.
        assert_eq!(xml(b"<?xml a='>' encoding='koi8-r'?>"), None);
        // Step 13's closing quote must come before it too.
        assert_eq!(xml(b"<?xml encoding='koi8>-r'?>"), None);
        // The next `>` of the whole input: no 1024-byte limit (wpt
        // html/syntax/xmldecl, `kilobyte-plus-one-*.htm`).
        let long = [b"<?xml ".as_slice(), &[b' '; 4096], b"encoding='koi8-r'?>"].concat();
        assert_eq!(xml(&long), Some(encoding_rs::KOI8_R));
        let open = [b"<?xml encoding='koi8-r'".as_slice(), &[b' '; 4096], b"?"].concat();
        assert_eq!(xml(&open), None);
    }

    #[test]
    fn steps_4_and_5_the_first_encoding_word_anywhere_before_gt() {
        assert_eq!(xml(b"<?xml version='1.0'?>"), None);
        // Any `encoding`, even inside another value: the first one counts.
        assert_eq!(xml(b"<?xml v='encoding' encoding='koi8-r'?>"), None);
        assert_eq!(xml(b"<?xmlencoding='koi8-r'?>"), Some(encoding_rs::KOI8_R));
        assert_eq!(xml(b"<?xml ENCODING='koi8-r'?>"), None);
    }

    #[test]
    fn steps_6_to_9_bytes_up_to_0x20_around_the_equals_sign() {
        assert_eq!(
            xml(b"<?xml encoding \t\n\r='koi8-r'?>"),
            Some(encoding_rs::KOI8_R)
        );
        assert_eq!(
            xml(b"<?xml encoding=\x00\x0b\x1f 'koi8-r'?>"),
            Some(encoding_rs::KOI8_R)
        );
        // Step 7: no `=` after the spaces.
        assert_eq!(xml(b"<?xml encoding:'koi8-r'?>"), None);
        assert_eq!(xml(b"<?xml encoding ?>"), None);
        // Running out of bytes in steps 6 and 9.
        assert_eq!(xml(b"<?xml encoding  >"), None);
        assert_eq!(xml(b"<?xml encoding=  >"), None);
    }

    #[test]
    fn steps_10_to_14_a_quoted_name() {
        assert_eq!(xml(b"<?xml encoding=\"iso-8859-2\"?>"), Some(ISO_8859_2));
        assert_eq!(xml(b"<?xml encoding='iso-8859-2'?>"), Some(ISO_8859_2));
        // Step 11: unquoted is failure.
        assert_eq!(xml(b"<?xml encoding=iso-8859-2 ?>"), None);
        // Step 13: the same quote closes it; an unmatched one is failure.
        assert_eq!(xml(b"<?xml encoding='iso-8859-2\"?>"), None);
        assert_eq!(xml(b"<?xml encoding=\"sjis'\"?>"), None);
        assert_eq!(xml(b"<?xml encoding=\"sjis\"?>"), Some(SHIFT_JIS));
    }

    #[test]
    fn step_15_no_spaces_or_controls_in_the_name() {
        assert_eq!(xml(b"<?xml encoding=' koi8-r'?>"), None);
        assert_eq!(xml(b"<?xml encoding='koi8-r '?>"), None);
        assert_eq!(xml(b"<?xml encoding='koi8\x00-r'?>"), None);
        assert_eq!(xml(b"<?xml encoding=''?>"), None);
    }

    #[test]
    fn step_16_labels_resolve_by_the_encoding_standard() {
        assert_eq!(
            xml(b"<?xml encoding='ISO-8859-1'?>"),
            Some(encoding_rs::WINDOWS_1252)
        );
        assert_eq!(xml(b"<?xml encoding='Shift_JIS'?>"), Some(SHIFT_JIS));
        assert_eq!(xml(b"<?xml encoding='no-such-thing'?>"), None);
        assert_eq!(xml(b"<?xml encoding='utf-7'?>"), None);
        // The prescan's x-user-defined rule is not part of these steps.
        assert_eq!(
            xml(b"<?xml encoding='x-user-defined'?>"),
            Some(X_USER_DEFINED)
        );
    }

    #[test]
    fn step_17_utf16_labels_read_as_utf8() {
        for label in ["utf-16", "UTF-16LE", "utf-16be", "unicode"] {
            let page = format!("<?xml version='1.0' encoding='{label}'?>");
            let found = get_an_xml_encoding(page.as_bytes()).unwrap();
            assert_eq!(found.encoding, UTF_8, "{label}");
            assert_ne!(found.declared, UTF_8, "{label}");
        }
    }

    #[test]
    fn prescan_step_2_utf16_patterns() {
        let le = utf16_xml_declaration(b"<\0?\0x\0m\0l\0").unwrap();
        assert_eq!(
            (le.encoding, le.offset, le.utf16_pattern),
            (UTF_16LE, 0, true)
        );
        let be = utf16_xml_declaration(b"\0<\0?\0x\0m\0l").unwrap();
        assert_eq!(
            (be.encoding, be.offset, be.utf16_pattern),
            (UTF_16BE, 0, true)
        );
        // Six bytes are enough; the name after `x` is not checked.
        assert!(utf16_xml_declaration(b"<\0?\0x\0").is_some());
        assert!(utf16_xml_declaration(b"\0<\0?\0x").is_some());
        assert!(utf16_xml_declaration(b"<\0?\0x\0-\0").is_some());
        // Case-sensitive, at the start, all six bytes.
        assert!(utf16_xml_declaration(b"<\0?\0X\0").is_none());
        assert!(utf16_xml_declaration(b"<\0?\0x").is_none());
        assert!(utf16_xml_declaration(b" \0<\0?\0x\0").is_none());
        assert!(utf16_xml_declaration(b"<?xml").is_none());
    }
}
