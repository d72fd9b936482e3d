//! Byte-level sniffing cases from public test suites, shared by the `sniff`
//! crate's tests (`crates/sniff/tests/byte_cases.rs`, through the library)
//! and the CLI's (`crates/cli/tests/cli.rs`, through `pagetext sniff
//! --json`). Each case is rebuilt here from what its suite's file holds:
//! the bytes the algorithm looks at (declarations, byte patterns, padding)
//! are the suite's, byte for byte; the running text around them is ours.
//!
//! Sources:
//!
//! - web-platform-tests `html/syntax/xmldecl/` (`xmldecl-1.html`,
//!   `xmldecl-2.html`): each `support/NAME.htm` alone and as its
//!   `NAME-trail.htm` twin, the same bytes followed by 8192 NUL bytes. The
//!   expected encoding is the class of the `<div>` that frames the file.
//! - web-platform-tests `encoding/`: the UTF-32 pages of `utf-32.html` and
//!   `utf-32-from-win1252.html` (UTF-32 is not an encoding of the Encoding
//!   Standard, so they are read in their parent's encoding, except that
//!   `FF FE 00 00` starts with the UTF-16LE BOM), and the doubled BOMs of
//!   `remove-only-one-bom.html`.
//! - jsdom's html-encoding-sniffer, `test/xml-declarations.mjs`: a
//!   declaration of 1023, 1024, 1025 or 4096 bytes, padded before or after
//!   its `encoding`, with or without 8192 trailing NUL bytes.
//! - Pages padded with NUL bytes, as real ones are: a `<meta>` early in
//!   the window decides; one past 1024 bytes of NULs does not (until the
//!   parser meets it).

/// One case: bytes, an optional `Content-Type` (the transport layer), and
/// the encoding browsers read the bytes in, by its WHATWG name.
pub(crate) struct Case {
    /// Where the case comes from and its file name there.
    pub(crate) name: String,
    /// The bytes to sniff.
    pub(crate) bytes: Vec<u8>,
    /// The `Content-Type` header the suite serves the file with, if it
    /// names a charset.
    pub(crate) content_type: Option<&'static str>,
    /// The encoding a browser falls back on for this file: the suite's
    /// parent document's (`--default-encoding`, [`sniff::Hints::user_default`]).
    pub(crate) default: &'static str,
    /// The encoding the sniffing algorithm gives, as
    /// `encoding_rs::Encoding::name` spells it.
    pub(crate) expected: &'static str,
    /// When the parser later meets a `<meta>` that changes a tentative
    /// encoding ("changing the encoding while parsing", as browsers do),
    /// the encoding the document ends up in: what `pagetext sniff` reports.
    pub(crate) parsed: Option<&'static str>,
}

/// The encoding of the web-platform-tests documents that frame these files
/// (`<meta charset="windows-1252">`), which a framed document without a
/// declaration inherits (the sniffing algorithm's step 5); jsdom's default
/// too.
const PARENT: &str = "windows-1252";

/// How many NUL bytes a web-platform-tests `-trail` file adds.
const TRAIL: usize = 8192;

/// Text after an ASCII-compatible declaration: ASCII, and one byte (0xE6)
/// that windows-1251 reads as U+0436 and windows-1252 as U+00E6.
const BODY: &[u8] = b"\n<p>The byte after the colon is the test: \xE6</p>\n<p>A Cyrillic &#x0436; there means the declaration counted.</p>\n";

/// The web-platform-tests `html/syntax/xmldecl` cases whose declaration is
/// ASCII: the file's name, its bytes up to the first `>`, the expected
/// encoding.
const XMLDECL_ASCII: &[(&str, &[u8], &str)] = &[
    // xmldecl-1.html, class "windows-1251".
    (
        "baseline",
        b"<?xml version=\"1.0\" encoding=\"windows-1251\"?>",
        "windows-1251",
    ),
    (
        "cp1251",
        b"<?xml version=\"1.0\" encoding=\"cp1251\"?>",
        "windows-1251",
    ),
    (
        "letter-between-xml-and-encoding",
        b"<?xmlaencoding=\"windows-1251\"?>",
        "windows-1251",
    ),
    (
        "lt-between-xml-and-encoding",
        b"<?xml<encoding=\"windows-1251\"?>",
        "windows-1251",
    ),
    (
        "meta-inside-xml-charset-before-encoding",
        b"<?xml version=\"1.0\" <meta charset=\"windows-1253\" encoding=\"windows-1251\"?>",
        "windows-1251",
    ),
    (
        "meta-inside-xml-encoding-before-charset",
        b"<?xml version=\"1.0\" <meta encoding=\"windows-1251\" charset=\"windows-1253\"?>",
        "windows-1251",
    ),
    (
        "no-version",
        b"<?xml encoding=\"windows-1251\"?>",
        "windows-1251",
    ),
    (
        "no-version-or-space",
        b"<?xmlencoding=\"windows-1251\"?>",
        "windows-1251",
    ),
    (
        "no-version-or-space-or-trailing-question",
        b"<?xmlencoding=\"windows-1251\">",
        "windows-1251",
    ),
    (
        "no-version-or-space-or-trailing-question-trailing-body",
        b"<?xmlencoding=\"windows-1251\"<body>",
        "windows-1251",
    ),
    (
        "no-version-or-space-or-trailing-question-trailing-body-single-quotes",
        b"<?xmlencoding='windows-1251'<body>",
        "windows-1251",
    ),
    (
        "no-version-or-space-or-trailing-question-trailing-body-single-quotes-spaces-and-line-breaks-around-equals",
        b"<?xmlencoding  \n = \n   'windows-1251'<body>",
        "windows-1251",
    ),
    (
        "no-version-or-space-or-trailing-question-trailing-body-single-quotes-spaces-around-equals",
        b"<?xmlencoding   =   'windows-1251'<body>",
        "windows-1251",
    ),
    (
        "no-version-or-space-or-trailing-question-trailing-lt",
        b"<?xmlencoding=\"windows-1251\"<>",
        "windows-1251",
    ),
    (
        "one-around-equals",
        b"<?xml version=\"1.0\" encoding\x01=\x01\"windows-1251\"?>",
        "windows-1251",
    ),
    (
        "VERSION",
        b"<?xml VERSION=\"1.0\" encoding=\"windows-1251\"?>",
        "windows-1251",
    ),
    (
        "WINDOWS",
        b"<?xml version=\"1.0\" encoding=\"WINDOWS-1251\"?>",
        "windows-1251",
    ),
    (
        "zero-around-equals",
        b"<?xml version=\"1.0\" encoding\x00=\x00\"windows-1251\"?>",
        "windows-1251",
    ),
    // xmldecl-2.html, class "windows-1252".
    (
        "encodingencoding",
        b"<?xml version=\"1.0\" encodingencoding=\"windows-1251\"?>",
        "windows-1252",
    ),
    (
        "encoding-equals-encoding",
        b"<?xml version=\"1.0\" encoding=encoding=\"windows-1251\"?>",
        "windows-1252",
    ),
    (
        "ENCODING",
        b"<?xml version=\"1.0\" ENCODING=\"windows-1251\"?>",
        "windows-1252",
    ),
    (
        "gt-between-xml-and-encoding",
        b"<?xml>encoding=\"windows-1251\"?>",
        "windows-1252",
    ),
    (
        "no-quotes",
        b"<?xml version=\"1.0\" encoding=windows-1251?>",
        "windows-1252",
    ),
    (
        "no-quotes-space",
        b"<?xml version=\"1.0\" encoding=windows-1251 ?>",
        "windows-1252",
    ),
    (
        "one-around-label",
        b"<?xml version=\"1.0\" encoding=\"\x01windows-1251\x01\"?>",
        "windows-1252",
    ),
    (
        "space-around-label",
        b"<?xml version=\"1.0\" encoding=\" windows-1251 \"?>",
        "windows-1252",
    ),
    (
        "space-before",
        b" <?xml version=\"1.0\" encoding=\"windows-1251\"?>",
        "windows-1252",
    ),
    (
        "unmatched-quotes",
        b"<?xml version=\"1.0\" encoding=\"windows-1251'?>",
        "windows-1252",
    ),
    (
        "XML",
        b"<?XML version=\"1.0\" encoding=\"windows-1251\"?>",
        "windows-1252",
    ),
    (
        "zero-around-label",
        b"<?xml version=\"1.0\" encoding=\"\x00windows-1251\x00\"?>",
        "windows-1252",
    ),
    // xmldecl-2.html, class "windows-1253": a `<meta>` after the
    // declaration wins (the prescan's `<meta>` loop runs first).
    (
        "xml-and-meta",
        b"<?xml version=\"1.0\" encoding=\"windows-1251\"?>\n<meta charset=\"windows-1253\">",
        "windows-1253",
    ),
    // xmldecl-2.html, class "UTF-8": a UTF-16 label in an ASCII
    // declaration is read as UTF-8.
    (
        "ascii-decl-for-utf-16",
        b"<?xml version=\"1.0\" encoding=\"UTF-16\"?>",
        "UTF-8",
    ),
];

/// `kilobyte-*.htm` (xmldecl-1.html) and `kilobyte-plus-one-*.htm`
/// (xmldecl-2.html): `<?xml version="1.0" encoding="windows-1251"?>` with
/// spaces after the closing quote (`after`) or before ` encoding`
/// (`before`), so that its `>` is byte `gt` (1-based): all windows-1251.
fn kilobyte(gt: usize, after: bool) -> Vec<u8> {
    const START: &[u8] = b"<?xml version=\"1.0\"";
    const ENCODING: &[u8] = b" encoding=\"windows-1251\"";
    let pad = vec![b' '; gt - START.len() - ENCODING.len() - 2];
    let parts: [&[u8]; 4] = if after {
        [START, ENCODING, &pad, b"?>"]
    } else {
        [START, &pad, ENCODING, b"?>"]
    };
    parts.concat()
}

/// `text` in UTF-16LE or UTF-16BE.
fn utf16(text: &str, little_endian: bool) -> Vec<u8> {
    text.encode_utf16()
        .flat_map(|unit| {
            if little_endian {
                unit.to_le_bytes()
            } else {
                unit.to_be_bytes()
            }
        })
        .collect()
}

/// `text` in UTF-32LE or UTF-32BE.
fn utf32(text: &str, little_endian: bool) -> Vec<u8> {
    text.chars()
        .flat_map(|c| {
            let c = u32::from(c);
            if little_endian {
                c.to_le_bytes()
            } else {
                c.to_be_bytes()
            }
        })
        .collect()
}

/// The `html/syntax/xmldecl` cases that start with the UTF-16 byte
/// patterns of `<?x` (prescan step 2), or with all but one of their bytes,
/// followed by a `<meta>` in ASCII, and those served with an HTTP charset.
fn xmldecl_utf16() -> Vec<(&'static str, Vec<u8>, Option<&'static str>, &'static str)> {
    let meta = b"<meta charset=\"windows-1253\">".as_slice();
    let text_le = utf16("One byte to read: \u{3C0}.", true);
    let text_be = utf16("One byte to read: \u{3C0}.", false);
    let http = Some("text/html; charset=UTF-8");
    vec![
        // Class "UTF-16LE" / "UTF-16BE": the pattern wins over the `<meta>`.
        (
            "utf-16le-and-meta",
            [b"<\0?\0x\0>".as_slice(), meta, &text_le].concat(),
            None,
            "UTF-16LE",
        ),
        (
            "utf-16be-and-meta",
            [b"\0<\0?\0x>".as_slice(), meta, &text_be].concat(),
            None,
            "UTF-16BE",
        ),
        // Class "windows-1253": five of the six bytes are no pattern.
        (
            "incomplete-utf-16le-and-meta",
            [b"<\0?\0x>".as_slice(), meta, &text_le].concat(),
            None,
            "windows-1253",
        ),
        (
            "incomplete-utf-16be-and-meta",
            [b"\0<\0?\0>".as_slice(), meta, &text_be].concat(),
            None,
            "windows-1253",
        ),
        // Class "UTF-8": the transport layer's charset comes first.
        (
            "utf-16le-vs-http",
            [b"<\0?\0x\0>\0".as_slice(), &text_le].concat(),
            http,
            "UTF-8",
        ),
        (
            "utf-16be-vs-http",
            [b"\0<\0?\0x\0>".as_slice(), &text_be].concat(),
            http,
            "UTF-8",
        ),
        (
            "xml-vs-http",
            [
                b"<?xml version=\"1.0\" encoding=\"windows-1251\"?>".as_slice(),
                BODY,
            ]
            .concat(),
            http,
            "UTF-8",
        ),
        // Class "replacement": ISO-2022-KR is a label of the replacement
        // encoding.
        (
            "replacement",
            b"<?xml version=\"1.0\" encoding=\"ISO-2022-KR\"?>\n<p>No text to read.</p>\n".to_vec(),
            None,
            "replacement",
        ),
    ]
}

/// Every web-platform-tests `html/syntax/xmldecl` file, alone and as its
/// `-trail` twin (8192 NUL bytes more).
fn xmldecl() -> Vec<Case> {
    let mut files: Vec<(String, Vec<u8>, Option<&'static str>, &'static str)> = XMLDECL_ASCII
        .iter()
        .map(|&(name, declaration, expected)| {
            (
                name.to_owned(),
                [declaration, BODY].concat(),
                None,
                expected,
            )
        })
        .collect();
    for (name, gt) in [("kilobyte", 1024), ("kilobyte-plus-one", 1025)] {
        for (side, after) in [("after", true), ("before", false)] {
            let bytes = [kilobyte(gt, after).as_slice(), BODY].concat();
            files.push((format!("{name}-{side}"), bytes, None, "windows-1251"));
        }
    }
    for (name, bytes, content_type, expected) in xmldecl_utf16() {
        files.push((name.to_owned(), bytes, content_type, expected));
    }
    let mut cases = Vec::new();
    for (name, bytes, content_type, expected) in files {
        let trail = [bytes.as_slice(), &[0; TRAIL]].concat();
        cases.push(Case {
            name: format!("wpt html/syntax/xmldecl/support/{name}.htm"),
            bytes,
            content_type,
            default: PARENT,
            expected,
            parsed: None,
        });
        cases.push(Case {
            name: format!("wpt html/syntax/xmldecl/support/{name}-trail.htm"),
            bytes: trail,
            content_type,
            default: PARENT,
            expected,
            parsed: None,
        });
    }
    cases
}

/// web-platform-tests `encoding/`: UTF-32 pages and doubled BOMs.
fn encoding() -> Vec<Case> {
    let page =
        "<html>\n<head><title>UTF-32</title></head>\n<body>Read on its own.</body>\n</html>\n";
    let mut cases = Vec::new();
    // `utf-32-from-win1252.html` (a windows-1252 parent) and `utf-32.html`
    // (a UTF-8 parent): the parent's encoding, but for the UTF-16LE BOM.
    for (test, parent) in [
        ("utf-32-from-win1252.html", PARENT),
        ("utf-32.html", "UTF-8"),
    ] {
        for (name, little_endian, bom) in [
            ("utf-32-big-endian-bom.html", false, true),
            ("utf-32-big-endian-nobom.html", false, false),
            ("utf-32-little-endian-bom.html", true, true),
            ("utf-32-little-endian-nobom.html", true, false),
        ] {
            let text = if bom {
                format!("\u{FEFF}{page}")
            } else {
                page.to_owned()
            };
            cases.push(Case {
                name: format!("wpt encoding/{test}: resources/{name}"),
                bytes: utf32(&text, little_endian),
                content_type: None,
                default: parent,
                expected: if little_endian && bom {
                    "UTF-16LE"
                } else {
                    parent
                },
                parsed: None,
            });
        }
    }
    for (name, bytes, expected) in [
        (
            "two-boms-utf-8.html",
            b"\xEF\xBB\xBF\xEF\xBB\xBF".as_slice(),
            "UTF-8",
        ),
        ("two-boms-utf-16le.html", b"\xFF\xFE\xFF\xFE", "UTF-16LE"),
        ("two-boms-utf-16be.html", b"\xFE\xFF\xFE\xFF", "UTF-16BE"),
    ] {
        cases.push(Case {
            name: format!("wpt encoding/resources/{name}"),
            bytes: bytes.to_vec(),
            content_type: None,
            default: PARENT,
            expected,
            parsed: None,
        });
    }
    cases
}

/// jsdom html-encoding-sniffer, `test/xml-declarations.mjs`: a
/// declaration `length` bytes long, padded before or after its `encoding`,
/// with 0 or 8192 NUL bytes after it; and the two long declarations that
/// do not count.
fn jsdom() -> Vec<Case> {
    const SHORTEST: &[u8] = b"<?xml encoding=\"windows-1251\"?>";
    let mut cases = Vec::new();
    for length in [1023, 1024, 1025, 4096] {
        for before in [true, false] {
            for trailing in [0, TRAIL] {
                let pad = vec![b' '; length - SHORTEST.len()];
                let declaration = if before {
                    [b"<?xml ".as_slice(), &pad, b"encoding=\"windows-1251\"?>"].concat()
                } else {
                    [b"<?xml encoding=\"windows-1251\"".as_slice(), &pad, b"?>"].concat()
                };
                let side = if before { "before" } else { "after" };
                cases.push(Case {
                    name: format!(
                        "jsdom xml-declarations: {length} bytes, padding {side} encoding, {trailing} trailing bytes"
                    ),
                    bytes: [declaration.as_slice(), &vec![0; trailing]].concat(),
                    content_type: None,
                    default: PARENT,
                    expected: "windows-1251",
                    parsed: None,
                });
            }
        }
    }
    let spaces = vec![b' '; 4096];
    cases.push(Case {
        name: "jsdom xml-declarations: still requires the closing > in a long declaration".into(),
        bytes: [b"<?xml encoding=\"windows-1251\"".as_slice(), &spaces, b"?"].concat(),
        content_type: None,
        default: PARENT,
        expected: "windows-1252",
        parsed: None,
    });
    cases.push(Case {
        name: "jsdom xml-declarations: does not search beyond the first > in a long declaration"
            .into(),
        bytes: [
            b"<?xml ".as_slice(),
            &spaces,
            b">encoding=\"windows-1251\"?>",
        ]
        .concat(),
        content_type: None,
        default: PARENT,
        expected: "windows-1252",
        parsed: None,
    });
    cases
}

/// Short pages followed by NUL padding: what the prescan finds in its
/// window decides; nothing past it does.
fn nul_padded() -> Vec<Case> {
    let nuls = vec![0u8; TRAIL];
    let early = |head: &[u8]| {
        [
            head,
            b"<title>\xCF\xF0\xE8\xE2\xE5\xF2</title><p>Text.</p>\n".as_slice(),
            &nuls,
        ]
        .concat()
    };
    vec![
        Case {
            name: "NUL-padded: <meta charset> first".into(),
            bytes: early(b"<meta charset=\"windows-1251\">"),
            content_type: None,
            default: PARENT,
            expected: "windows-1251",
            parsed: None,
        },
        Case {
            name: "NUL-padded: <meta http-equiv> first".into(),
            bytes: early(
                b"<meta http-equiv=\"Content-Type\" content=\"text/html; charset=ISO-8859-2\">",
            ),
            content_type: None,
            default: PARENT,
            expected: "ISO-8859-2",
            parsed: None,
        },
        Case {
            name: "NUL-padded: <meta charset> after 1024 NUL bytes".into(),
            bytes: [
                &nuls[..1024],
                b"<meta charset=\"windows-1251\"><p>Text.</p>\n".as_slice(),
                &nuls,
            ]
            .concat(),
            content_type: None,
            default: PARENT,
            expected: "windows-1252",
            // The NUL bytes start the body, and a `<meta>` in the body is
            // processed as in the head: its charset changes the tentative
            // encoding.
            parsed: Some("windows-1251"),
        },
        Case {
            name: "NUL-padded: a Content-Type charset wins".into(),
            bytes: early(b"<meta charset=\"windows-1251\">"),
            content_type: Some("text/html; charset=koi8-r"),
            default: PARENT,
            expected: "KOI8-R",
            parsed: None,
        },
    ]
}

/// All the cases.
pub(crate) fn cases() -> Vec<Case> {
    let mut all = xmldecl();
    all.extend(encoding());
    all.extend(jsdom());
    all.extend(nul_padded());
    all
}
