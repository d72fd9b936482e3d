//! The `ingest` snapshot suite: every page under `testdata/htmlio/ingest/`
//! (`.html`, `.htm`) is ingested with the default options and shown as the
//! encoding settled on, the text `htmlio::ingest::write` makes of the document,
//! the ingestion's diagnostics and summary, and the writer's diagnostics.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

use std::fmt::Write as _;
use std::path::Path;

use htmlio::ingest::{Options, ingest};
use testkit::SnapshotSuite;

fn render(bytes: &[u8]) -> String {
    let out = ingest(bytes, &Options::default());
    let written = htmlio::ingest::write(out.document.clone());
    let mut snap = String::new();
    let _ = writeln!(snap, "encoding: {}", out.encoding);
    snap.push_str("--- text ---\n");
    snap.push_str(&written.text);
    snap.push_str("--- ingest diagnostics ---\n");
    for d in &out.diagnostics {
        let _ = writeln!(snap, "{d}");
    }
    snap.push_str("--- summary ---\n");
    let _ = write!(snap, "{}", out.summary);
    if !written.diagnostics.is_empty() {
        snap.push_str("--- write diagnostics ---\n");
        for d in &written.diagnostics {
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
