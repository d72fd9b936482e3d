//! Positions of diagnostics on an ingested page: each points at the line of
//! the HTML it is about, also when that text sits far below its container's
//! start tag (found on a javadoc page whose complaint about text on line 144
//! pointed at a comment on line 50).

use htmlio::ingest::{Code, Options, ingest};
use wikitext::{Code as WriteCode, Escapes, Policy, write_owned, write_with};

/// A page whose one paragraph starts on line 3 and holds, after a comment
/// on line 50, on line `far` text that reads back as emphasis (`_x_`), and
/// an image without `alt` (and with an unsafe source) on line `far + 2`.
fn page(far: usize) -> (String, usize) {
    let mut html = String::from("<!DOCTYPE html>\n<html><body>\n<p>Start of the paragraph\n");
    let mut line = 4;
    while line < far {
        if line == 50 {
            // Where the old writer's complaint pointed.
            html.push_str("<!-- a comment -->\n");
        } else {
            html.push_str("plain words on a line\n");
        }
        line += 1;
    }
    html.push_str("a word _x_ that reads as emphasis\n"); // line `far`
    html.push_str("more words\n");
    // An image without `alt` whose source is unsafe is left out.
    html.push_str("<img src=\"javascript:x()\"> after an image\n"); // line far + 2
    html.push_str("</p>\n</body></html>\n");
    (html, far)
}

#[test]
fn write_diagnostics_point_at_the_text_they_are_about() {
    let (html, far) = page(144);
    let ingested = ingest(html.as_bytes(), &Options::default());
    // With escapes (the default) the literal `_x_` is written as it is.
    let escaped = write_owned(ingested.document.clone());
    assert!(
        escaped.text.contains("a word \\_x_ that"),
        "{}",
        escaped.text
    );
    assert!(
        !escaped
            .diagnostics
            .iter()
            .any(|d| d.code == WriteCode::NotRoundTrip)
    );
    // Pure seed text cannot say it, and says where.
    let seed = Policy {
        escapes: Escapes::Never,
        ..Policy::DEFAULT
    };
    let written = write_with(ingested.document, &seed);
    let differences: Vec<_> = written
        .diagnostics
        .iter()
        .filter(|d| d.code == WriteCode::NotRoundTrip)
        .collect();
    assert_eq!(differences.len(), 1, "{:#?}", written.diagnostics);
    assert!(
        differences[0].message.contains("emphasis"),
        "{}",
        differences[0].message
    );
    assert_eq!(
        differences[0].span.line, far as u32,
        "the literal markup is on line {far}, the paragraph starts on line 3"
    );
}

#[test]
fn ingestion_diagnostics_point_at_their_element() {
    let (html, far) = page(144);
    let ingested = ingest(html.as_bytes(), &Options::default());
    let dropped: Vec<_> = ingested
        .diagnostics
        .iter()
        .filter(|d| d.code == Code::ImageDropped)
        .collect();
    assert_eq!(dropped.len(), 1, "{:#?}", ingested.diagnostics);
    assert_eq!(dropped[0].span.line, far as u32 + 2);
}
