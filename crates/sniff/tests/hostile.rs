//! Hostile input for the prescan, the sniffing algorithm and decoding (bad
//! input gets a diagnostic, never a panic; see docs/decisions.md): megabytes
//! on one line, unterminated constructs, huge attribute values, NUL bytes,
//! invalid UTF-8, byte order marks in the middle. Every case asserts on the
//! result; none asserts on time, but the sizes are large enough that
//! quadratic behaviour would turn each case into minutes. The unbounded
//! prescan (the seed's rules) is the dangerous one, so most cases run it as
//! well as the standard's 1024-byte window.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

use encoding_rs::{UTF_8, UTF_16LE, WINDOWS_1252};
use sniff::{Confidence, Hints, Prescan, Rules, Source, decode, preprocess, prescan, sniff};

/// Sizes are divided by this in debug builds (`cargo test` without
/// `--release`), where the same work is about ten times slower; CI runs
/// these tests with `--release` at full size.
const SCALE: usize = if cfg!(debug_assertions) { 10 } else { 1 };

const MB: usize = (1 << 20) / SCALE;

/// The seed's prescan, which reads the whole input.
fn unbounded() -> Prescan {
    Prescan::for_rules(Rules::Seed2007)
}

/// Hints that reach the prescan and skip autodetection (which only reads a
/// bounded prefix anyway and would hide what the prescan did).
fn hints_seed() -> Hints<'static> {
    Hints::default()
        .with_rules(Rules::Seed2007)
        .with_autodetect(None)
}

#[test]
fn ten_megabytes_on_one_line_of_plain_text() {
    let bytes = vec![b'a'; 10 * MB];
    assert!(prescan(&bytes).is_none());
    assert!(unbounded().run(&bytes).is_none());
    let s = sniff(&bytes, &hints_seed());
    assert_eq!(s.encoding, WINDOWS_1252);
    assert_eq!(s.confidence, Confidence::Tentative);
    assert_eq!(s.source, Source::Default);
    let d = decode(&bytes, s.encoding);
    assert_eq!(d.text.len(), bytes.len());
    assert!(!d.had_errors);
}

#[test]
fn a_declaration_after_megabytes_of_tags_is_found_only_without_a_window() {
    let mut bytes = b"<a b=c>".repeat(MB);
    bytes.extend_from_slice(b"<meta charset=utf-8>");
    assert!(prescan(&bytes).is_none(), "beyond the 1024-byte window");
    let found = unbounded().run(&bytes);
    assert_eq!(found.map(|m| (m.encoding, m.offset)), Some((UTF_8, 7 * MB)));
}

/// "Get an XML encoding" reads a declaration to its first `>` however far
/// it is (no 1024-byte window): megabytes of it, with near-misses of
/// `encoding` all the way, or with no `>` at all, are read once.
#[test]
fn an_xml_declaration_megabytes_long() {
    let hints = Hints::default().with_autodetect(None);
    let far = [
        b"<?xml".as_slice(),
        &b" encodin".repeat(MB),
        b" encoding='koi8-r'?>",
    ]
    .concat();
    let s = sniff(&far, &hints);
    assert_eq!(s.encoding, encoding_rs::KOI8_R);
    assert!(matches!(s.source, Source::XmlDeclaration { offset, .. } if offset == far.len() - 9));
    let open = [b"<?xml encoding='koi8-r'".as_slice(), &vec![b' '; 10 * MB]].concat();
    assert_eq!(sniff(&open, &hints).source, Source::Default);
    let spaces = [
        b"<?xml encoding=".as_slice(),
        &vec![0; 10 * MB],
        b"'koi8-r'>",
    ]
    .concat();
    assert_eq!(sniff(&spaces, &hints).encoding, encoding_rs::KOI8_R);
}

#[test]
fn long_runs_of_tag_openers_and_unterminated_constructs() {
    for run in [
        b"<".repeat(4 * MB),
        b"<meta ".repeat(MB),
        b"<!--".repeat(MB),
        b"</".repeat(2 * MB),
        b"<!".repeat(2 * MB),
        b"<?".repeat(2 * MB),
        b"<meta a".repeat(MB / 2),
        b"<meta a=".repeat(MB / 2),
        b"<meta a='".repeat(MB / 2),
        b"<meta charset=\"".repeat(MB / 4),
        b"<meta http-equiv=content-type content=\"charset=".repeat(MB / 8),
        b"= ' \" / > ".repeat(MB / 2),
    ] {
        assert!(prescan(&run).is_none());
        // Some of these may end in a declaration of nothing usable; none
        // may produce a usable one, since no label is complete.
        assert!(unbounded().run(&run).is_none(), "{:?}", run.get(..20));
        let s = sniff(&run, &hints_seed());
        assert_eq!(s.source, Source::Default);
    }
}

#[test]
fn huge_attribute_values() {
    // A 10 MB value before the charset attribute: the same tag still
    // declares the encoding when the window is unbounded.
    let mut bytes = b"<meta content=\"".to_vec();
    bytes.extend(std::iter::repeat_n(b'x', 10 * MB));
    bytes.extend_from_slice(b"\" charset=koi8-r>");
    assert!(prescan(&bytes).is_none());
    assert_eq!(
        unbounded().run(&bytes).map(|m| m.encoding),
        Some(encoding_rs::KOI8_R)
    );

    // A 10 MB charset value is no label.
    let mut bytes = b"<meta charset=".to_vec();
    bytes.extend(std::iter::repeat_n(b'u', 10 * MB));
    bytes.push(b'>');
    assert!(unbounded().run(&bytes).is_none());

    // 10 MB of attributes, each a name with no value.
    let mut bytes = b"<meta ".to_vec();
    bytes.extend(b"a ".repeat(5 * MB));
    bytes.extend_from_slice(b"charset=utf-8>");
    assert_eq!(unbounded().run(&bytes).map(|m| m.encoding), Some(UTF_8));

    // The same attribute repeated: under the later standard only the first
    // counts, so the later charset attributes are ignored (the first one
    // names no encoding); the seed's rules take the first usable one.
    let mut bytes = b"<meta charset=bogus ".to_vec();
    bytes.extend(b"charset=utf-8 ".repeat(MB / 2));
    bytes.push(b'>');
    assert!(
        Prescan::standard()
            .with_window(usize::MAX)
            .run(&bytes)
            .is_none()
    );
    assert_eq!(unbounded().run(&bytes).map(|m| m.encoding), Some(UTF_8));
}

#[test]
fn nul_bytes_everywhere() {
    let bytes = vec![0u8; 10 * MB];
    assert!(unbounded().run(&bytes).is_none());
    let s = sniff(&bytes, &Hints::default());
    let d = decode(&bytes, s.encoding);
    // Every encoding of the standard that sniffing can choose for this
    // input decodes NUL bytes to U+0000 (UTF-16 would pair them), which
    // `decode` turns into U+FFFD (seed §8.2.2.3), one per byte.
    assert_eq!(d.nul, bytes.len(), "{}", s.encoding.name());
    assert!(d.text.chars().all(|c| c == '\u{FFFD}'));
    let p = d.preprocess();
    assert_eq!(p.replaced.nul, p.text.chars().count());
    assert!(p.text.chars().all(|c| c == '\u{FFFD}'));
    // Text from elsewhere is preprocessed the same way.
    let p = preprocess("\0".repeat(MB));
    assert_eq!(p.replaced.nul, MB);

    // NULs inside the tag: `<meta\0charset=utf-8>` is not a meta tag
    // (NUL is not one of the separators), and a NUL inside the label makes
    // it no label.
    assert!(unbounded().run(b"<meta\0charset=utf-8>").is_none());
    assert!(unbounded().run(b"<meta charset=utf\0-8>").is_none());
    // A NUL in another attribute's value does not matter.
    assert_eq!(
        unbounded()
            .run(b"<meta name=\"\0\0\" charset=utf-8>")
            .map(|m| m.encoding),
        Some(UTF_8)
    );
}

#[test]
fn invalid_utf8_in_bulk() {
    // Every byte value that can never appear in UTF-8, and truncated
    // sequences, repeated to 10 MB.
    let junk: Vec<u8> = [0xC0, 0xC1, 0xF5, 0xFF, 0xE2, 0x82, 0xED, 0xA0, 0x80, b'a']
        .iter()
        .copied()
        .cycle()
        .take(10 * MB)
        .collect();
    let d = decode(&junk, UTF_8);
    assert!(d.had_errors);
    // Only ASCII 'a' and U+FFFD, and each byte gives at most one character.
    assert!(d.text.chars().all(|c| c == 'a' || c == '\u{FFFD}'));
    assert!(d.text.chars().count() <= junk.len());
    assert_eq!(
        d.text.chars().filter(|&c| c == 'a').count(),
        junk.iter().filter(|&&b| b == b'a').count()
    );

    let s = sniff(&junk, &Hints::default());
    // Whatever autodetection says, decoding with it is total.
    let d = decode(&junk, s.encoding);
    assert!(!d.text.is_empty());
}

#[test]
fn byte_order_marks_in_the_middle_are_text() {
    let mut bytes = b"<p>a".to_vec();
    for _ in 0..MB {
        bytes.extend_from_slice(b"\xEF\xBB\xBF");
    }
    let s = sniff(&bytes, &Hints::default().with_autodetect(None));
    assert_ne!(s.source, Source::Bom);
    let d = decode(&bytes, UTF_8);
    assert!(!d.bom_removed);
    assert_eq!(d.text.chars().filter(|&c| c == '\u{FEFF}').count(), MB);

    // A leading BOM followed by more BOMs: exactly one is removed.
    let bytes = b"\xEF\xBB\xBF".repeat(1000);
    let s = sniff(&bytes, &Hints::default());
    assert_eq!((s.encoding, s.source), (UTF_8, Source::Bom));
    let d = decode(&bytes, s.encoding);
    assert!(d.bom_removed);
    assert_eq!(d.text.chars().count(), 999);

    // A UTF-16LE BOM, then an odd number of bytes: the last byte is malformed.
    let mut bytes = b"\xFF\xFE".to_vec();
    bytes.extend(b"a\0".repeat(MB));
    bytes.extend_from_slice(b"\xFF\xFEz");
    let s = sniff(&bytes, &Hints::default());
    assert_eq!(s.encoding, UTF_16LE);
    let d = decode(&bytes, s.encoding);
    assert!(d.had_errors);
    assert!(d.text.starts_with("aaaa"));
    assert!(d.text.ends_with("\u{FEFF}\u{FFFD}"));
}

#[test]
fn carriage_returns_in_bulk() {
    let text = "\r".repeat(5 * MB) + &"\r\n".repeat(MB);
    let p = preprocess(text.as_str());
    assert_eq!(p.replaced.lone_cr, 5 * MB);
    assert_eq!(p.replaced.crlf, MB);
    assert_eq!(p.text.len(), 6 * MB);
    assert!(p.text.bytes().all(|b| b == b'\n'));
}

#[test]
fn every_prefix_of_a_declaration_is_safe() {
    let full = b"<meta http-equiv=\"Content-Type\" content=\"text/html; charset=iso-8859-2\">";
    // Up to the closing quote of the content value, no prefix declares
    // anything (after it, a prescan may or may not wait for the `>`).
    let quote = full.len() - 2;
    for end in 0..full.len() {
        let part = full.get(..end).unwrap_or_default();
        if end < quote {
            assert!(unbounded().run(part).is_none(), "{end}");
        }
        let _ = sniff(part, &Hints::default());
    }
    assert_eq!(
        unbounded().run(full).map(|m| m.encoding),
        Some(encoding_rs::ISO_8859_2)
    );
}
