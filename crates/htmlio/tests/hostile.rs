//! Hostile HTML through ingest -> emit (bad input gets a diagnostic, never a
//! panic; see docs/decisions.md): 100,000 nested elements of every kind that
//! nests, megabytes on one line, huge attribute values, NUL bytes, invalid
//! UTF-8, character references to lone surrogates and other characters XML
//! cannot hold, byte order marks in the middle. For every input: no panic, no
//! stack overflow, the model stays within [`wikitext::MAX_DEPTH`], the XHTML
//! is well-formed XML, and ingesting that XHTML gives the same document and
//! the same XHTML again. Nothing here asserts on time; the sizes make
//! quadratic behaviour obvious.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

use htmlio::emit::xhtml;
use htmlio::ingest::{Ingested, Options, ingest, ingest_str};
use wikitext::dump::{all_text, depth};
use wikitext::{Block, MAX_DEPTH};

/// Ingests `bytes`, emits XHTML, and checks bounded depth and well-formed
/// XML whose characters are all XML 1.0 `Char`s; returns the XHTML.
#[track_caller]
fn check_xml(bytes: &[u8]) -> String {
    let ingested = ingest(bytes, &Options::default());
    assert!(
        depth(&ingested.document.body) <= MAX_DEPTH,
        "model deeper than MAX_DEPTH"
    );
    let out = xhtml(&ingested.document);
    if let Err(e) = roxmltree::Document::parse(&out.text) {
        panic!("XHTML is not well-formed XML: {e}");
    }
    for c in out.text.chars() {
        // XML 1.0 Char production.
        let ok = matches!(c, '\t' | '\n' | '\r' | ' '..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..);
        assert!(ok, "U+{:04X} in the XHTML", c as u32);
    }
    out.text
}

/// Ingests `bytes`, emits XHTML, and checks: bounded depth, well-formed
/// XML, and that ingesting the XHTML gives the same document and XHTML.
#[track_caller]
fn check(bytes: &[u8]) -> (Ingested, String) {
    let ingested = ingest(bytes, &Options::default());
    let doc = &ingested.document;
    assert!(depth(&doc.body) <= MAX_DEPTH, "model deeper than MAX_DEPTH");
    let out = xhtml(doc);
    if let Err(e) = roxmltree::Document::parse(&out.text) {
        panic!("XHTML is not well-formed XML: {e}");
    }
    let again = ingest_str(&out.text, &Options::default());
    if again.document != *doc {
        let shown: String = String::from_utf8_lossy(bytes).chars().take(120).collect();
        let first = format!("{:?}", doc.body.first());
        let second = format!("{:?}", again.document.body.first());
        panic!(
            "ingest(emit(d)) differs from d for {shown:?}\nfirst block: {}\nagain: {}\ntitle {:?} / {:?}",
            first.chars().take(300).collect::<String>(),
            second.chars().take(300).collect::<String>(),
            doc.meta
                .title
                .as_deref()
                .map(|t| t.chars().take(40).collect::<String>()),
            again
                .document
                .meta
                .title
                .as_deref()
                .map(|t| t.chars().take(40).collect::<String>()),
        );
    }
    let out2 = xhtml(&again.document);
    assert!(out2.text == out.text, "XHTML is not a fixpoint");
    (ingested, out.text)
}

/// Sizes are divided by this in debug builds (`cargo test` without
/// `--release`), where the same work is about ten times slower; CI runs
/// these tests with `--release` at full size.
const SCALE: usize = if cfg!(debug_assertions) { 10 } else { 1 };

const N: usize = 100_000 / SCALE;

/// A mebibyte (scaled).
const MB: usize = (1 << 20) / SCALE;

#[test]
fn a_hundred_thousand_nested_block_elements() {
    for (open, close) in [
        ("<div>", "</div>"),
        ("<ul>", "</ul>"),
        ("<ul><li>", "</li></ul>"),
        ("<ol><li>", "</li></ol>"),
        ("<blockquote>", "</blockquote>"),
        ("<blockquote>q", "</blockquote>"),
        ("<table>", "</table>"),
        ("<table><tr><td>", "</td></tr></table>"),
        ("<table><tr><td>x</td><td>", "</td></tr></table>"),
        ("<dl><dd>", "</dd></dl>"),
        ("<dl><dt>t<dd>", "</dd></dl>"),
        ("<li>", "</li>"),
        ("<section><p>x", "</section>"),
    ] {
        // Unclosed, then closed.
        let (i, _) = check(format!("{}deep", open.repeat(N)).as_bytes());
        assert!(all_text(&i.document).contains("deep"), "{open}");
        let (i, _) = check(format!("{}deep{}", open.repeat(N), close.repeat(N)).as_bytes());
        assert!(all_text(&i.document).contains("deep"), "{open}");
    }
}

#[test]
fn a_hundred_thousand_nested_inline_elements() {
    for open in [
        "<b>",
        "<i>",
        "<b><i>",
        "<span>",
        "<font>",
        "<a href=x>",
        "<a name=n>",
        "<code>",
        "<q>",
        "<sub>",
    ] {
        let (i, _) = check(format!("<p>{}deep", open.repeat(N)).as_bytes());
        assert!(all_text(&i.document).contains("deep"), "{open}");
        let (i, _) = check(format!("<p>{}x", (open.to_owned() + "y").repeat(N)).as_bytes());
        assert!(all_text(&i.document).matches('y').count() >= N, "{open}");
    }
}

#[test]
fn misnested_formatting_in_bulk() {
    // The adoption agency algorithm's worst cases.
    check("<b><i><p>x</b>y</i>".repeat(N / 10).as_bytes());
    check("<a href=x><div><a href=y>z".repeat(N / 10).as_bytes());
    check("<table><b><tr><td>x</b>".repeat(N / 10).as_bytes());
}

#[test]
fn ten_megabytes_on_one_line() {
    let (i, _) = check(&vec![b'a'; 10 * MB]);
    assert_eq!(all_text(&i.document).len(), 10 * MB);
    let (i, _) = check("a  b\t".repeat(2 * MB).as_bytes());
    assert_eq!(all_text(&i.document).matches('a').count(), 2 * MB);
}

#[test]
fn long_runs_of_markup_characters() {
    for c in [
        "<", "&", "&#", "&amp", "_", "*", "'", "[", "|", "]", ">", "\"", "</", "<!--", "<!", "<?",
        "<a",
    ] {
        let (i, _) = check(format!("<p>x{}y", c.repeat(MB)).as_bytes());
        assert!(all_text(&i.document).contains('x'), "{c}");
    }
}

#[test]
fn huge_attribute_values() {
    let big = "v".repeat(10 * MB);
    let (i, x) = check(format!("<p><a href=\"http://e.com/{big}\">link</a>").as_bytes());
    assert!(x.contains(&big));
    assert!(all_text(&i.document).contains("link"));
    let (_, x) =
        check(format!("<p title=\"{big}\" style=\"{big}\" onclick=\"{big}\">t").as_bytes());
    assert!(!x.contains(&big), "ballast attributes are dropped");
    let (i, _) = check(format!("<p><img alt=\"{big}\">").as_bytes());
    assert!(all_text(&i.document).contains(&big));
    let (_, x) = check(format!("<h1 id=\"{big}\">h</h1>").as_bytes());
    assert!(x.contains(&big));
    // 100,000 attributes on one element.
    let attrs: String = (0..N).map(|k| format!(" a{k}=\"{k}\"")).collect();
    check(format!("<p{attrs}>x").as_bytes());
    // Huge metadata.
    let (i, _) =
        check(format!("<title>{big}</title><meta name=n content=\"{big}\"><p>x").as_bytes());
    assert_eq!(
        i.document.meta.title.as_deref().map(str::len),
        Some(big.len())
    );
}

#[test]
fn nul_bytes() {
    let (i, x) = check(b"<p>a\0b</p><p\0>c</p><a href='x\0y'>d\0</a><h1 i\0d=z>e</h1>\0\0\0");
    assert!(!x.contains('\0'), "XML cannot hold U+0000");
    assert!(all_text(&i.document).contains('a'));
    check(&vec![0u8; MB]);
    check(b"&#0;&#x0;&#00000000;");
}

#[test]
fn invalid_utf8() {
    let junk: Vec<u8> = [
        0xC0, 0xC1, 0xF5, 0xFF, 0xE2, 0x82, 0xED, 0xA0, 0x80, b'<', b'p', b'>',
    ]
    .iter()
    .copied()
    .cycle()
    .take(MB)
    .collect();
    let mut bytes = b"<meta charset=utf-8>".to_vec();
    bytes.extend(&junk);
    let (i, x) = check(&bytes);
    assert!(x.contains('\u{FFFD}'));
    assert!(
        i.diagnostics
            .iter()
            .any(|d| d.code == htmlio::ingest::Code::MalformedBytes)
    );
}

/// Lone surrogates, beyond Unicode, C0 and C1 controls, noncharacters.
const REFS: [&str; 26] = [
    "&#xD800;",
    "&#xDBFF;",
    "&#xDC00;",
    "&#xDFFF;",
    "&#55296;",
    "&#57343;",
    "&#x110000;",
    "&#x7FFFFFFF;",
    "&#99999999999999999999;",
    "&#1;",
    "&#x8;",
    "&#xB;",
    "&#xC;",
    "&#xE;",
    "&#x1F;",
    "&#x7F;",
    "&#x80;",
    "&#x81;",
    "&#x9F;",
    "&#xFFFE;",
    "&#xFFFF;",
    "&#x1FFFE;",
    "&#xFDD0;",
    "&#x10FFFF;",
    "&#xD800",
    "&#xD83D;&#xDE00;",
];

fn wraps(r: &str) -> [String; 7] {
    [
        format!("<p>a{r}b"),
        format!("<title>{r}</title><p>x"),
        format!("<p><a href=\"http://e.com/{r}\">l</a>"),
        format!("<h1 id=\"i{r}\">h</h1>"),
        format!("<pre>{r}</pre>"),
        format!("<meta name=\"{r}\" content=\"{r}\"><p>x"),
        format!("<link rel=\"{r}\" href=\"{r}\" title=\"{r}\"><p>x"),
    ]
}

#[test]
fn character_references_xml_cannot_hold_give_well_formed_xml() {
    for r in REFS {
        for wrap in wraps(r) {
            check_xml(wrap.as_bytes());
        }
    }
    check_xml("&#xD800;".repeat(N).as_bytes());
}

#[test]
fn character_references_xml_cannot_hold_round_trip() {
    for r in REFS {
        for wrap in wraps(r) {
            check(wrap.as_bytes());
        }
    }
    check("&#xD800;".repeat(N).as_bytes());
}

fn raw_controls() -> String {
    let mut html = String::from("<title>\u{1}\u{8}\u{b}\u{c}\u{1f}\u{7f}\u{85}</title><p>");
    for c in (1u32..0x20).chain(0x7f..0xa0).filter_map(char::from_u32) {
        html.push(c);
        html.push('x');
    }
    html.push_str("\u{FFFE}\u{FFFF}\u{FDD0}<a href=\"\u{1}\">\u{2}</a>");
    html
}

#[test]
fn raw_control_characters_give_well_formed_xml() {
    check_xml(raw_controls().as_bytes());
}

#[test]
fn raw_control_characters_round_trip() {
    check(raw_controls().as_bytes());
}

/// Found by `cargo xtask fuzz htmlio`: a second `<html>` (or `<body>`) tag
/// adds its attributes to the element already open, and those were not
/// cleaned of control characters, so `lang` kept a U+0008 that emission
/// wrote as U+FFFD.
#[test]
fn attributes_of_a_second_html_tag_are_cleaned_too() {
    for html in [
        "<p>x<html lang=\"p\u{0}\u{8}\">",
        "<p>x<html lang=\"p&#8;q\">",
        "<p>x<body id=\"a\u{1}b\">",
    ] {
        let (ingested, _) = check(html.as_bytes());
        if let Some(lang) = &ingested.document.meta.lang {
            assert!(!lang.contains('\u{8}') && !lang.contains('\0'), "{lang:?}");
        }
    }
}

/// Found by `cargo xtask fuzz htmlio`: a form feed inside preformatted
/// text stayed in the model, and emission (XML cannot hold it) wrote U+FFFD.
#[test]
fn a_form_feed_in_preformatted_text_is_a_space() {
    for html in [
        "<pre>a\u{c}b</pre>",
        "<pre>\u{c}lead</pre>",
        "<xmp>a\u{c}b</xmp>",
        "<listing>a&#12;b</listing>",
        "<plaintext>a\u{c}b",
    ] {
        let (ingested, xhtml) = check(html.as_bytes());
        let Some(Block::Preformatted { lines, .. }) = ingested.document.body.first() else {
            panic!(
                "no preformatted text for {html:?}: {:?}",
                ingested.document.body
            )
        };
        let text = wikitext::plain_text(&lines.concat());
        // A space (the first line's leading white space is its indentation).
        assert!(!text.contains('\u{c}'), "{text:?}");
        assert!(text == "a b" || text == "lead", "{text:?}");
        assert!(!xhtml.contains('\u{fffd}'), "{xhtml}");
    }
}

/// Found on ncurses-doc's programming HOWTO (a page of a wider corpus):
/// `<pre>&#13;    Get both` kept the carriage return in the first line, which
/// hid that line's indentation from the common indentation, and the page was
/// no fixpoint. A carriage return in preformatted text is a space, as CSS
/// shows it.
#[test]
fn a_carriage_return_in_preformatted_text_is_a_space() {
    let html = "<pre>&#13;    Get both\n        http://x</pre>";
    let (ingested, xhtml) = check(html.as_bytes());
    let Some(Block::Preformatted { lines, .. }) = ingested.document.body.first() else {
        panic!("no preformatted text: {:?}", ingested.document.body)
    };
    let texts: Vec<String> = lines.iter().map(|l| wikitext::plain_text(l)).collect();
    assert_eq!(texts, ["Get both", "   http://x"], "{xhtml}");
    let again = htmlio::ingest::ingest_str(&xhtml, &Default::default());
    assert_eq!(again.document.body, ingested.document.body);
}

/// Found by `cargo xtask fuzz htmlio`: a `<pre>` whose first lines are empty
/// lost one through emit -> ingest (an HTML parser drops the line feed right
/// after `<pre>`). Ingestion drops empty lines at the start of preformatted
/// text, which the text format cannot hold either.
#[test]
fn empty_lines_at_the_start_of_preformatted_text_go() {
    for html in [
        "<pre>\n\n\nx\n y</pre>",
        "<pre>\n\n</pre><p>after</p>",
        "<pre>\n<b></b>\nx</pre>",
    ] {
        let ingested = htmlio::ingest::ingest(html.as_bytes(), &Default::default());
        let xhtml = xhtml(&ingested.document);
        let again = htmlio::ingest::ingest_str(&xhtml.text, &Default::default());
        assert_eq!(
            again.document, ingested.document,
            "{html:?}\n{}",
            xhtml.text
        );
        if let Some(Block::Preformatted { lines, .. }) = ingested.document.body.first() {
            assert!(lines.first().is_some_and(|l| !l.is_empty()), "{lines:?}");
        }
    }
}

/// A U+FEFF that starts one of the 64 KiB chunks ingestion feeds html5ever
/// is silently deleted: html5ever's tokenizer drops a leading BOM on every
/// `feed` call while `TokenizerOpts::discard_bom` is true (the default).
#[test]
fn a_bom_at_a_chunk_boundary_is_kept() {
    let mut html = String::from("<p>");
    html.push_str(&"a".repeat(65_536 - html.len()));
    html.push_str("\u{feff}b");
    assert_eq!(html.find('\u{feff}'), Some(65_536));
    let out = ingest_str(&html, &Options::default());
    assert!(
        all_text(&out.document).contains("\u{feff}b"),
        "the U+FEFF was dropped"
    );
    let out = ingest(html.as_bytes(), &Options::default());
    assert!(
        all_text(&out.document).contains("\u{feff}b"),
        "the U+FEFF was dropped"
    );
}

#[test]
fn byte_order_marks_in_the_middle_give_well_formed_xml() {
    let mut bytes = b"\xEF\xBB\xBF<title>t\xEF\xBB\xBF</title><p>".to_vec();
    for _ in 0..N {
        bytes.extend_from_slice(b"a\xEF\xBB\xBF<b>\xEF\xBB\xBF</b>");
    }
    let x = check_xml(&bytes);
    assert_eq!(x.matches("a\u{feff}").count(), N);
}

#[test]
fn byte_order_marks_in_the_middle() {
    let mut bytes = b"\xEF\xBB\xBF<title>t\xEF\xBB\xBF</title><p>".to_vec();
    for _ in 0..N {
        bytes.extend_from_slice(b"a\xEF\xBB\xBF<b>\xEF\xBB\xBF</b>");
    }
    let (i, _) = check(&bytes);
    assert_eq!(all_text(&i.document).matches('a').count(), N);
}

#[test]
fn preformatted_text_with_a_hundred_thousand_indentation_levels() {
    // Lines indented one space deeper each, in runs of 100, and one line
    // with 100,000 tabs.
    let mut html = String::from("<pre>");
    for k in 0..N {
        html.push_str(&" ".repeat(k % 100));
        html.push_str("x\n");
    }
    html.push_str(&"\t".repeat(N));
    html.push_str("y</pre>");
    let (i, _) = check(html.as_bytes());
    assert_eq!(all_text(&i.document).matches('x').count(), N);
    // Text nested in 100,000 blockquotes, each line one level deeper.
    let mut html = String::new();
    for _ in 0..N {
        html.push_str("<blockquote>x\n");
    }
    let (i, _) = check(html.as_bytes());
    assert_eq!(all_text(&i.document).matches('x').count(), N);
}

#[test]
fn hostile_text_documents_emit_well_formed_xml() {
    for text in [
        format!("\n{}\n", "_*'[|<".repeat(N)),
        format!("\n{}deep\n", "  > ".repeat(N)),
        format!("\n{}deep\n", "x   ".repeat(N)),
        "#Title \0\u{1}\u{FFFE}\n\na\0b \u{1}_\u{7f}_ [\u{1}|\u{2}|\u{3}]\n".to_owned(),
    ] {
        let doc = wikitext::parse(&text).document;
        let out = xhtml(&doc);
        if let Err(e) = roxmltree::Document::parse(&out.text) {
            panic!("XHTML is not well-formed XML: {e}");
        }
    }
}

/// Form feeds (HTML white space) between words are spaces; `check` makes
/// sure `ingest(emit(d)) == d`, and the text format (whose rule three
/// spaces in a row are: `wikitext::canon` applies it) holds one space.
#[test]
fn form_feeds_between_words_round_trip() {
    let (i, _) = check(b"<p>t\x0c\x0c h");
    let written = wikitext::write_with(i.document, &htmlio::ingest::POLICY);
    assert_eq!(written.text, "\nt h\n", "three spaces in a row");
}
