//! Hostile shapes: pages nested 100,000 elements deep must neither overflow
//! the stack nor take quadratic time, and the document that comes out never
//! nests deeper than the text format allows.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

use htmlio::ingest::{Code, Options, ingest};
use wikitext::MAX_DEPTH;
use wikitext::dump::depth;

const N: usize = 100_000;

fn check(name: &str, html: String, expect_deep: bool) {
    let out = ingest(html.as_bytes(), &Options::default());
    let d = depth(&out.document.body);
    assert!(d <= MAX_DEPTH, "{name}: depth {d}");
    assert!(!out.document.body.is_empty(), "{name}: nothing kept");
    if expect_deep {
        assert!(
            out.diagnostics
                .iter()
                .any(|d| d.code == Code::NestingTooDeep),
            "{name}: no nesting-too-deep diagnostic"
        );
    }
    // The text of the innermost element survives.
    let text = wikitext::write_with(out.document.clone(), &htmlio::ingest::POLICY).text;
    assert!(text.contains("deepest"), "{name}: lost the innermost text");
}

#[test]
fn nested_divs() {
    check(
        "div",
        format!("{}deepest{}", "<div>".repeat(N), "</div>".repeat(N)),
        true,
    );
}

#[test]
fn nested_lists() {
    check("ul li", format!("{}deepest", "<ul><li>x".repeat(N)), true);
    check("ul ul", format!("{}<li>deepest", "<ul>".repeat(N)), true);
    check("ol li", format!("{}deepest", "<ol><li>".repeat(N)), true);
}

#[test]
fn nested_definitions_and_quotes() {
    check(
        "dl dd",
        format!("{}deepest", "<dl><dt>t<dd>".repeat(N)),
        true,
    );
    check(
        "blockquote",
        format!("{}deepest", "<blockquote>".repeat(N)),
        true,
    );
}

#[test]
fn nested_tables() {
    check(
        "table",
        format!("{}deepest", "<table><tr><td>x<td>".repeat(N)),
        true,
    );
}

#[test]
fn nested_inline_elements() {
    check("b i", format!("{}deepest", "<b><i>".repeat(N)), false);
    check("span", format!("{}deepest", "<span>".repeat(N)), false);
    check("a", format!("{}deepest", "<a href=x>".repeat(N)), false);
}

#[test]
fn wide_table_rows() {
    // 100,000 cells in one row: no chain of compact items that deep.
    let html = format!(
        "<table><tr>{}<td>deepest</tr><tr><td>a<td>b</tr></table>",
        "<td>c".repeat(N)
    );
    check("wide", html, false);
}
