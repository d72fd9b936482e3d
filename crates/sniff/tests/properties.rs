//! Property tests: the prescan never reads past its window, nothing panics,
//! a BOM always wins under the later standard, and decoding and
//! preprocessing keep their promises.

use proptest::prelude::*;
use sniff::{
    Autodetect, Confidence, Encoding, Hints, Prescan, Rules, Source, Utf8Guess, decode, preprocess,
    sniff,
};

/// Bytes built from the pieces the prescan reacts to, so that the generated
/// inputs reach its branches, mixed with arbitrary bytes.
fn markup() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        Just(b"<meta charset=utf-8>".to_vec()),
        Just(b"<meta http-equiv=content-type content='charset=koi8-r'>".to_vec()),
        Just(b" charset=big5".to_vec()),
        Just(b"<meta ".to_vec()),
        Just(b"<META/".to_vec()),
        Just(b"<meta\x0b".to_vec()),
        Just(b"charset".to_vec()),
        Just(b"content".to_vec()),
        Just(b"http-equiv".to_vec()),
        Just(b"content-type".to_vec()),
        Just(b"=".to_vec()),
        Just(b"utf-8".to_vec()),
        Just(b"koi8-r".to_vec()),
        Just(b"utf-16".to_vec()),
        Just(b"x-user-defined".to_vec()),
        Just(b"text/html;".to_vec()),
        Just(b"\"".to_vec()),
        Just(b"'".to_vec()),
        Just(b" ".to_vec()),
        Just(b"\x0b".to_vec()),
        Just(b"/".to_vec()),
        Just(b"<".to_vec()),
        Just(b">".to_vec()),
        Just(b"<!--".to_vec()),
        Just(b"-->".to_vec()),
        Just(b"<!".to_vec()),
        Just(b"</".to_vec()),
        Just(b"<?".to_vec()),
        Just(b"<p ".to_vec()),
        Just(b"<?xml ".to_vec()),
        Just(b"encoding".to_vec()),
        Just(b"encoding='koi8-r'".to_vec()),
        Just(b"<\0?\0x\0".to_vec()),
        Just(b"\0<\0?\0x".to_vec()),
        prop::collection::vec(any::<u8>(), 0..8),
    ];
    prop::collection::vec(piece, 0..60).prop_map(|pieces| pieces.concat())
}

fn rules() -> impl Strategy<Value = Rules> {
    prop_oneof![Just(Rules::Standard), Just(Rules::Seed2007)]
}

/// Every encoding encoding_rs knows.
fn encoding() -> impl Strategy<Value = &'static Encoding> {
    let all: Vec<&'static Encoding> = [
        "utf-8",
        "ibm866",
        "iso-8859-2",
        "iso-8859-3",
        "iso-8859-4",
        "iso-8859-5",
        "iso-8859-6",
        "iso-8859-7",
        "iso-8859-8",
        "iso-8859-8-i",
        "iso-8859-10",
        "iso-8859-13",
        "iso-8859-14",
        "iso-8859-15",
        "iso-8859-16",
        "koi8-r",
        "koi8-u",
        "macintosh",
        "windows-874",
        "windows-1250",
        "windows-1251",
        "windows-1252",
        "windows-1253",
        "windows-1254",
        "windows-1255",
        "windows-1256",
        "windows-1257",
        "windows-1258",
        "x-mac-cyrillic",
        "gbk",
        "gb18030",
        "big5",
        "euc-jp",
        "iso-2022-jp",
        "shift_jis",
        "euc-kr",
        "replacement",
        "utf-16be",
        "utf-16le",
        "x-user-defined",
    ]
    .iter()
    .filter_map(|label| Encoding::for_label(label.as_bytes()))
    .collect();
    prop::sample::select(all)
}

prop_compose! {
    fn hints()(
        rules in rules(),
        user in prop::option::of(encoding()),
        transport in prop::option::of(encoding()),
        window in prop::option::of(0usize..3000),
        likely in prop::option::of(encoding()),
        detect in any::<bool>(),
        allow_utf8 in any::<bool>(),
        tld in prop::option::of("[a-zA-Z0-9.\\-é]{0,12}"),
        max_bytes in 0usize..5000,
        enough in 0usize..500,
        default in encoding(),
    ) -> (Hints<'static>, Option<String>) {
        let hints = Hints {
            rules,
            user_override: user,
            transport,
            prescan_window: window,
            likely,
            autodetect: None,
            default,
            user_default: None,
            xml: false,
        };
        let autodetect = detect.then_some((allow_utf8, max_bytes, enough));
        (
            match autodetect {
                Some((allow, max_bytes, enough_non_ascii)) => hints.with_autodetect(Some(Autodetect {
                    tld: None,
                    utf8: if allow { Utf8Guess::Allow } else { Utf8Guess::Deny },
                    max_bytes,
                    enough_non_ascii,
                })),
                None => hints,
            },
            tld,
        )
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Whatever follows the window cannot change the answer: the prescan of
    /// the whole input equals the prescan of the window alone, and of the
    /// window followed by anything else.
    #[test]
    fn the_prescan_never_reads_past_its_window(
        bytes in markup(),
        tail in markup(),
        window in 0usize..400,
        rules in rules(),
    ) {
        let prescan = Prescan { rules, window };
        let cut = bytes.len().min(window);
        let alone = prescan.run(&bytes[..cut]);
        prop_assert_eq!(prescan.run(&bytes), alone);
        if cut == window {
            let other = [&bytes[..cut], tail.as_slice()].concat();
            prop_assert_eq!(prescan.run(&other), alone);
        }
        if let Some(found) = alone {
            // What it found starts inside the window, at a `<meta`.
            prop_assert!(found.offset < cut);
            prop_assert!(bytes[found.offset..].get(..5).is_some_and(|m| m.eq_ignore_ascii_case(b"<meta")));
        }
    }

    /// Under the later standard, with no autodetection, nothing past the
    /// prescan's window (1024 bytes) counts, except that "get an XML
    /// encoding" reads a declaration at the start to its first `>` wherever
    /// that is (its step 3 has no end condition; wpt html/syntax/xmldecl,
    /// `kilobyte-plus-one-*.htm`): cutting the input after the window, or
    /// after that `>` when it is further, changes nothing. What the steps
    /// find starts the input.
    #[test]
    fn the_xml_declaration_steps_stay_in_the_window_or_the_declaration(
        head in prop_oneof![Just(b"<?xml ".to_vec()), Just(b"<\0?\0x\0".to_vec()), Just(Vec::new())],
        bytes in markup(),
        more in markup(),
    ) {
        let bytes = [head, bytes, more.clone(), more].concat();
        let hints = Hints::default().with_autodetect(None);
        let whole = sniff(&bytes, &hints);
        let declaration_end = if bytes.starts_with(b"<?xml") {
            bytes.iter().position(|&b| b == b'>').map_or(0, |gt| gt + 1)
        } else {
            0
        };
        let cut = bytes.len().min(sniff::PRESCAN_WINDOW.max(declaration_end));
        prop_assert_eq!(sniff(&bytes[..cut], &hints), whole);
        if let Source::XmlDeclaration { offset, utf16_pattern, .. } = whole.source {
            prop_assert!(offset < cut);
            let start: &[u8] = if utf16_pattern { &bytes[..6] } else { b"<?xml" };
            prop_assert!(bytes.starts_with(start));
            prop_assert_eq!(whole.confidence, Confidence::Tentative);
        }
    }

    /// The standard prescan looks at 1024 bytes.
    #[test]
    fn the_default_window_is_1024_bytes(bytes in markup(), tail in markup()) {
        let mut padded = bytes.clone();
        padded.resize(1024, b' ');
        let extended = [padded.as_slice(), tail.as_slice()].concat();
        prop_assert_eq!(sniff::prescan(&extended), sniff::prescan(&padded));
    }

    /// No input and no hints make any entry point panic.
    #[test]
    fn nothing_panics(bytes in markup(), (hints, tld) in hints(), encoding in encoding()) {
        let hints = match (&hints.autodetect, &tld) {
            (Some(a), Some(tld)) => hints.with_autodetect(Some(Autodetect { tld: Some(tld), ..*a })),
            _ => hints,
        };
        let sniffed = sniff(&bytes, &hints);
        let _ = sniffed.to_string();
        let decoded = decode(&bytes, sniffed.encoding);
        let _ = decoded.preprocess();
        let _ = decode(&bytes, encoding);
        let _ = sniff::extract_encoding_from_meta_content(&bytes, hints.rules);
        let _ = sniff::change_the_encoding(encoding, Confidence::Tentative, sniffed.encoding, &bytes, hints.rules);
    }

    /// Arbitrary bytes (not only markup) through the whole pipeline.
    #[test]
    fn nothing_panics_on_arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..3000), rules in rules()) {
        let hints = Hints::default().with_rules(rules);
        let sniffed = sniff(&bytes, &hints);
        let _ = decode(&bytes, sniffed.encoding).preprocess();
    }

    /// Under the later standard a BOM decides, whatever else is known.
    #[test]
    fn a_bom_always_wins(bom in 0usize..3, bytes in markup(), (hints, _) in hints()) {
        let (prefix, expect): (&[u8], _) = match bom {
            0 => (b"\xEF\xBB\xBF", encoding_rs::UTF_8),
            1 => (b"\xFF\xFE", encoding_rs::UTF_16LE),
            _ => (b"\xFE\xFF", encoding_rs::UTF_16BE),
        };
        let input = [prefix, bytes.as_slice()].concat();
        let hints = hints.with_rules(Rules::Standard);
        let sniffed = sniff(&input, &hints);
        prop_assert_eq!(sniffed.encoding, expect);
        prop_assert_eq!(sniffed.confidence, Confidence::Certain);
        prop_assert_eq!(sniffed.source, Source::Bom);
        // And decoding removes it.
        let decoded = decode(&input, sniffed.encoding);
        prop_assert!(decoded.bom_removed);
        // In the seed only the transport layer (and a user override) come first.
        let seed = sniff(&input, &hints.with_rules(Rules::Seed2007));
        if hints.user_override.is_none() && hints.transport.is_none() {
            prop_assert_eq!(seed.source, Source::Bom);
            prop_assert_eq!(seed.encoding, expect);
        }
    }

    /// `decode` is encoding_rs's decoding with one BOM of that encoding
    /// removed (encoding_rs removes UTF-8 and UTF-16 BOMs; for gb18030 the
    /// four-byte form of U+FEFF is removed as the seed asks), and every
    /// U+0000 replaced by U+FFFD and counted (seed §8.2.2.3).
    #[test]
    fn decode_agrees_with_encoding_rs(bytes in prop::collection::vec(any::<u8>(), 0..500), encoding in encoding()) {
        let ours = decode(&bytes, encoding);
        let gb = encoding == encoding_rs::GB18030 || encoding == encoding_rs::GBK;
        let body = if gb && bytes.starts_with(b"\x84\x31\x95\x33") { &bytes[4..] } else { &bytes[..] };
        let (theirs, errors) = encoding.decode_with_bom_removal(body);
        prop_assert_eq!(ours.text.as_ref(), theirs.replace('\0', "\u{FFFD}"));
        prop_assert_eq!(ours.nul, theirs.matches('\0').count());
        prop_assert_eq!(ours.had_errors, errors);
    }

    /// Preprocessing leaves no CR and no NUL, and its counts add up.
    #[test]
    fn preprocessing_counts_add_up(text in "[a\r\n\0é]{0,40}") {
        let out = preprocess(text.as_str());
        prop_assert!(!out.text.contains('\r'));
        prop_assert!(!out.text.contains('\0'));
        let r = out.replaced;
        prop_assert_eq!(r.crlf + r.lone_cr, text.matches('\r').count());
        prop_assert_eq!(r.nul, text.matches('\0').count());
        // CR LF loses a byte, a lone CR keeps its length, NUL grows by two.
        prop_assert_eq!(out.text.len() + r.crlf, text.len() + 2 * r.nul);
        prop_assert_eq!(out.text.matches('\n').count(), text.matches('\n').count() + r.lone_cr);
    }
}
