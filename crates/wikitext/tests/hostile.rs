//! Hostile input beyond `pathological.rs`: the parser and the writer
//! promise never to panic and to stay linear on any text, and text from
//! the web is sometimes made to break tools. Megabytes of mixed markup
//! characters, blockquote and bullet markers repeated 100,000 times, tabs
//! as indentation, NUL and other control characters, byte order marks in
//! the middle, a million lines. Every case
//! checks the result and the round-trip invariant
//! `parse(write(parse(t))) == parse(t)`; none checks time, but the sizes
//! make quadratic behaviour obvious.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

use wikitext::dump::{all_text, depth};
use wikitext::{Block, Document, MAX_DEPTH, parse, write};

/// Sizes are divided by this in debug builds (`cargo test` without
/// `--release`), where the same work is about ten times slower; CI runs
/// these tests with `--release` at full size.
const SCALE: usize = if cfg!(debug_assertions) { 10 } else { 1 };

/// Parses, checks the depth bound and the round-trip invariant, returns
/// the document.
#[track_caller]
fn parse_checked(text: &str) -> Document {
    let doc = parse(text).document;
    assert!(depth(&doc.body) <= MAX_DEPTH, "deeper than MAX_DEPTH");
    let written = write(&doc);
    let back = parse(&written.text).document;
    assert!(back == doc, "parse(write(parse(t))) differs from parse(t)");
    doc
}

#[test]
fn ten_megabytes_of_mixed_markup_on_one_line() {
    let unit = "_*'[|<>]x ";
    let line = unit.repeat(1_000_000 / SCALE);
    let doc = parse_checked(&format!("\n{line}\n"));
    // Every letter is kept, whatever the markup made of the rest.
    assert_eq!(all_text(&doc).matches('x').count(), (1_000_000 / SCALE));
}

#[test]
fn runs_of_each_pair_of_markup_characters() {
    let chars = ['_', '*', '\'', '[', '|', '<', '>', ']', ':', '#', '-'];
    for a in chars {
        for b in chars {
            let text = format!("\nw{}w\n", format!("{a}{b}").repeat(100_000 / SCALE));
            let doc = parse_checked(&text);
            assert!(all_text(&doc).matches('w').count() == 2, "{a}{b}");
        }
    }
}

#[test]
fn a_hundred_thousand_blockquote_markers_and_bullets_on_one_line() {
    for marker in ["> ", "* ", "- ", "1. ", "a) ", ":: ", "> * "] {
        let text = format!("\n  {}deep\n", marker.repeat(100_000 / SCALE));
        let doc = parse_checked(&text);
        assert!(all_text(&doc).contains("deep"), "{marker:?}");
    }
}

#[test]
fn a_hundred_thousand_nested_blockquotes_by_indentation() {
    // Each line a quote one column deeper than the last, restarting every
    // 100 levels so that the input stays linear in the number of levels.
    let mut text = String::from("\n");
    for i in 0..(100_000 / SCALE) {
        text.push_str(&" ".repeat(2 + i % 100));
        text.push_str("> q\n");
    }
    let doc = parse_checked(&text);
    assert!(depth(&doc.body) <= MAX_DEPTH);
    assert_eq!(all_text(&doc).matches('q').count(), (100_000 / SCALE));
}

#[test]
fn tabs_as_indentation() {
    // 100,000 tabs are 800,000 columns of indentation.
    let doc = parse_checked(&format!("\n{}x\n", "\t".repeat(100_000 / SCALE)));
    assert_eq!(all_text(&doc).trim(), "x");
    // Alternating tabs and spaces deepening by one tab stop per line.
    let mut text = String::from("\n");
    for i in 0..(20_000 / SCALE) {
        text.push_str(&"\t ".repeat(i % 50));
        text.push_str("* item\n");
    }
    let doc = parse_checked(&text);
    assert_eq!(all_text(&doc).matches("item").count(), (20_000 / SCALE));
}

#[test]
fn control_characters_and_nul() {
    let mut text = String::from("#Title \0x\u{1}\n\n");
    for c in [
        '\0', '\u{1}', '\u{7}', '\u{b}', '\u{c}', '\u{1b}', '\u{7f}', '\u{85}', '\u{2028}',
        '\u{2029}',
    ] {
        text.push_str(&format!("a{c}b _{c}_ *{c}* [{c}|{c}|{c}] <{c}@x.y>\n"));
    }
    text.push_str(&"\0".repeat(1_000_000 / SCALE));
    text.push('\n');
    let doc = parse_checked(&text);
    assert!(all_text(&doc).contains("a\0b"));
    assert!(all_text(&doc).matches('\0').count() >= (1_000_000 / SCALE));
}

#[test]
fn byte_order_marks_in_the_middle() {
    let mut text = String::from("\u{feff}#Title t\n\n");
    for _ in 0..(100_000 / SCALE) {
        text.push_str("\u{feff}_x_\u{feff} \u{feff}* y\n");
    }
    let doc = parse_checked(&text);
    assert!(all_text(&doc).matches('\u{feff}').count() >= (200_000 / SCALE));
}

#[test]
fn a_million_lines() {
    let doc = parse_checked(&"\na\n".repeat(500_000 / SCALE));
    assert_eq!(doc.body.len(), (500_000 / SCALE));
    let doc = parse_checked(&"\n".repeat(1_000_000 / SCALE));
    assert!(doc.body.is_empty());
    let doc = parse_checked(&"\r\n\r".repeat(300_000 / SCALE));
    assert!(doc.body.is_empty());
    let doc = parse_checked(&format!("\n{}", "  x\n".repeat(500_000 / SCALE)));
    assert_eq!(all_text(&doc).matches('x').count(), (500_000 / SCALE));
}

#[test]
fn huge_metadata_and_link_parts() {
    let long = "u".repeat(5_000_000 / SCALE);
    let text = format!(
        "#Title {long}\n#Meta:{long} {long}\n#Link:{long}:x {long} {long}\n\n[{long}|{long}|{long}] <{long}@{long}.x>\n"
    );
    let doc = parse_checked(&text);
    assert!(
        doc.meta
            .title
            .as_deref()
            .is_some_and(|t| t.len() == long.len())
    );
}

#[test]
fn headings_and_rules_in_bulk() {
    let doc = parse_checked(&"\n= a =\n\n----------\n".repeat(100_000 / SCALE));
    assert!(doc.body.len() >= (100_000 / SCALE));
    let doc = parse_checked(&format!("\n{}\n", "-".repeat(5_000_000 / SCALE)));
    assert!(matches!(
        doc.body.as_slice(),
        [Block::Rule { .. }] | [Block::Paragraph { .. }]
    ));
    assert!(
        !matches!(doc.body.first(), Some(Block::Heading { content, .. }) if content.is_empty())
    );
}

#[test]
fn a_megabyte_of_escapes() {
    // Escapes of every kind, escaped backslashes and lone backslashes, on
    // one line and on many.
    let unit = "\\_x\\* \\\\_y_ \\[a|b|c] \\ \\ z\\ ";
    let line = unit.repeat(1_000_000 / SCALE / unit.len());
    let doc = parse_checked(&format!("#Escape \\\n\n{line}\n"));
    assert!(doc.meta.escape);
    assert_eq!(
        all_text(&doc).matches('x').count(),
        line.matches('x').count()
    );
    let mut text = String::from("#Escape \\\n\n");
    for i in 0..(100_000 / SCALE) {
        text.push_str(["\\- a", "  1\\. b", "x:\\:", "\\----", "\\= h ="][i % 5]);
        text.push('\n');
    }
    parse_checked(&text);
}
