//! The `ingest` snapshot suite: every page under `testdata/htmlio/ingest/`
//! (`.html`, `.htm`) is converted by `htmlio::to_text` with the default
//! options and shown as the encoding settled on, the text, the ingestion's
//! diagnostics and summary, and the writer's diagnostics.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

use std::fmt::Write as _;
use std::path::Path;

use testkit::SnapshotSuite;

fn render(bytes: &[u8]) -> String {
    let page = htmlio::to_text(bytes, &Default::default());
    let mut snap = String::new();
    let _ = writeln!(snap, "encoding: {}", page.encoding);
    snap.push_str("--- text ---\n");
    snap.push_str(&page.text);
    snap.push_str("--- ingest diagnostics ---\n");
    for d in &page.ingest_diagnostics {
        let _ = writeln!(snap, "{d}");
    }
    snap.push_str("--- summary ---\n");
    let _ = write!(snap, "{}", page.summary);
    if !page.write_diagnostics.is_empty() {
        snap.push_str("--- write diagnostics ---\n");
        for d in &page.write_diagnostics {
            let _ = writeln!(snap, "{d}");
        }
    }
    snap
}

#[test]
fn ingest_suite() {
    let krate = Path::new(env!("CARGO_MANIFEST_DIR"));
    SnapshotSuite::new(
        "ingest",
        krate.join("../../testdata/htmlio/ingest"),
        krate.join("tests/snapshots/ingest"),
    )
    .extension("html")
    .extension("htm")
    .run(|_path, bytes| render(bytes));
}
