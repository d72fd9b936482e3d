//! Snapshot suites of htmlio (one #[test] per suite, see `testkit`).

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

mod support;

use std::fmt::Write as _;
use std::path::Path;

use testkit::SnapshotSuite;

/// `xhtml`: every text document under testdata/wikitext/ (each seed example
/// and the seed's sample document), parsed with `wikitext::parse` and
/// emitted as UTF-8 XHTML. Each output is also checked for real: well-formed
/// XML, valid against the XHTML 1.0 Transitional DTD and polyglot (as the
/// emitter's own diagnostics promise); a failed check fails the case.
#[test]
fn xhtml() {
    let krate = Path::new(env!("CARGO_MANIFEST_DIR"));
    SnapshotSuite::new(
        "xhtml",
        krate.join("../../testdata/wikitext"),
        krate.join("tests/snapshots/xhtml"),
    )
    .extension("txt")
    .run(|_path, bytes| {
        let text = String::from_utf8_lossy(bytes);
        let parsed = wikitext::parse(&text);
        let out = htmlio::emit::xhtml(&parsed.document);
        support::check_document(&out.bytes, out.encoding, support::Expect::from(&out));
        let mut snap = out.text;
        if !out.diagnostics.is_empty() {
            snap.push_str("--- emit diagnostics ---\n");
            for d in &out.diagnostics {
                let _ = writeln!(snap, "{d}");
            }
        }
        snap
    });
}
