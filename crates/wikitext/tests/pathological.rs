//! Hostile input: long runs of markup characters, very deep nesting, a 10 MB
//! line. Each test checks that parsing (and writing) completes and that the
//! result is what the rules say. No timings are asserted; the sizes are big
//! enough that quadratic behaviour would make these tests run for minutes
//! or hours instead of well under a second each (in release builds).

use wikitext::dump::depth;
use wikitext::{Block, Document, Inline, MAX_DEPTH, parse, plain_text, write};

/// The inlines of a document that is one paragraph.
fn only_paragraph(doc: &Document) -> Option<&[Inline]> {
    match doc.body.as_slice() {
        [Block::Paragraph { content, .. }] => Some(content),
        _ => None,
    }
}

#[track_caller]
fn assert_plain(text: &str) {
    let doc = parse(&format!("\n{text}\n")).document;
    let run = only_paragraph(&doc);
    assert!(
        matches!(run, Some([Inline::Text { text: t, .. }]) if t == text),
        "not one paragraph of plain text: {} blocks, {:?} inlines",
        doc.body.len(),
        run.map(<[Inline]>::len)
    );
}

#[track_caller]
fn assert_round_trip(doc: &Document) {
    let written = write(doc);
    assert!(written.is_exact(), "{:?}", written.diagnostics.first());
    assert!(parse(&written.text).document == *doc);
}

const RUN: usize = 1_000_000;

#[test]
fn long_runs_of_single_markup_characters_stay_text() {
    for c in ['_', '*', '\'', '[', ']', '|', '<', '>'] {
        let run = c.to_string().repeat(RUN);
        // Alone on a line, some runs are rules: keep text around them.
        assert_plain(&format!("a {run} b"));
        assert_plain(&format!("a{run}b"));
    }
}

#[test]
fn starts_without_ends() {
    // Every `_` is a valid start, and no end is valid (white space before).
    assert_plain("_a ".repeat(RUN / 3).trim_end());
    assert_plain("*a ".repeat(RUN / 3).trim_end());
    // Valid link prefixes that never close.
    assert_plain("[u|f|x ".repeat(RUN / 7).trim_end());
    // E-mail addresses that never close.
    assert_plain("<a@b.cd ".repeat(RUN / 8).trim_end());
    // Prefixes that never complete.
    assert_plain("[a|b ".repeat(RUN / 5).trim_end());
}

#[test]
fn many_small_elements() {
    let n = 200_000;
    let text = "_a_ ".repeat(n);
    let doc = parse(&format!("\n{}\n", text.trim_end())).document;
    let run = only_paragraph(&doc).expect("one paragraph");
    let ems = run
        .iter()
        .filter(|i| matches!(i, Inline::Emphasis { .. }))
        .count();
    assert_eq!(ems, n);
    assert_round_trip(&doc);

    let text = "[u||x] <a@b.cd> 'c' ".repeat(n / 4);
    let doc = parse(&format!("\n{}\n", text.trim_end())).document;
    assert_eq!(
        only_paragraph(&doc).map(<[Inline]>::len),
        Some(3 * (n / 4) * 2 - 1)
    );
    assert_round_trip(&doc);
}

#[test]
fn deeply_nested_brackets_make_one_link() {
    let n = 100_000;
    let text = format!("{}x{}", "[u||".repeat(n), "]".repeat(n));
    let doc = parse(&format!("\n{text}\n")).document;
    let Some([Inline::Link { url, content, .. }]) = only_paragraph(&doc) else {
        panic!("expected one link");
    };
    assert_eq!(url.as_deref(), Some("u"));
    let inner = format!("{}x{}", "[u||".repeat(n - 1), "]".repeat(n - 1));
    assert!(plain_text(content) == inner);
}

#[test]
fn ten_megabyte_line() {
    let text = "word ".repeat(2_000_000);
    let text = text.trim_end();
    assert_plain(text);
    let doc = parse(&format!("\n{text}\n")).document;
    assert_round_trip(&doc);
    // The same length as indentation: one line of preformatted text.
    let doc = parse(&format!("\n{}x\n", " ".repeat(10_000_000))).document;
    assert!(matches!(doc.body.as_slice(), [Block::Preformatted { lines, .. }] if lines.len() == 1));
}

#[test]
fn a_hundred_thousand_compact_levels_on_one_line() {
    // Each `x   ` opens a compact definition inside the previous one.
    let n = 100_000;
    let doc = parse(&format!("\n{}y\n", "x   ".repeat(n))).document;
    assert_eq!(depth(&doc.body), MAX_DEPTH);
    assert_round_trip(&doc);
}

#[test]
fn a_hundred_thousand_lines_of_deepening_indentation() {
    // Staircases of 40 levels (deeper than the limit), 2,500 of them.
    let mut text = String::from("\n");
    for _ in 0..2_500 {
        for level in 0..40 {
            text.push_str(&" ".repeat(2 + 3 * level));
            text.push_str("* x\n");
        }
    }
    let doc = parse(&text).document;
    assert_eq!(depth(&doc.body), MAX_DEPTH);
    assert_round_trip(&doc);
    // Definitions one column deeper each line: 3,000 levels.
    let mut text = String::from("\n");
    for level in 0..3_000 {
        text.push_str(&" ".repeat(level));
        text.push_str("T::\n");
    }
    let doc = parse(&text).document;
    assert_eq!(depth(&doc.body), MAX_DEPTH);
    assert_round_trip(&doc);
}

#[test]
fn deep_documents_built_by_hand_are_bounded_by_the_writer() {
    // 100,000 nested blockquotes, built without recursion.
    let mut block = Block::text(vec![Inline::text("deep")]);
    for _ in 0..100_000 {
        block = Block::blockquote(vec![Block::text(vec![Inline::text("q")]), block]);
    }
    let doc = Document::new(Default::default(), vec![block]);
    let written = write(&doc);
    assert!(!written.is_exact());
    let back = parse(&written.text).document;
    assert_eq!(depth(&back.body), MAX_DEPTH);
    assert!(written.text.contains("deep"));
    // Dropping a deep document recurses; take it apart by hand.
    let mut doc = doc;
    let mut stack = std::mem::take(&mut doc.body);
    while let Some(b) = stack.pop() {
        if let Block::Blockquote { content, .. } = b {
            stack.extend(content);
        }
    }
}
