//! Snapshot suite "wikitext": every text under `testdata/wikitext/` (the
//! seed's examples under `seed/`, interpretations and edge cases under
//! `rules/`, the escape extension under `escape/`) shown as the model the
//! parser reads, the parser's diagnostics, and the canonical text the writer
//! makes of it.
//!
//! Besides the snapshot itself, each case checks the writer's promise: the
//! text it writes reads back as the same document, and writing that again
//! gives the same text.

use std::path::Path;

fn render(_path: &Path, bytes: &[u8]) -> String {
    let input = String::from_utf8_lossy(bytes);
    let parsed = wikitext::parse(&input);
    let written = wikitext::write(&parsed.document);
    let reparsed = wikitext::parse(&written.text);
    assert!(
        written.is_exact(),
        "the writer reports differences: {:#?}",
        written.diagnostics
    );
    assert_eq!(
        reparsed.document, parsed.document,
        "written text reads back differently"
    );
    assert_eq!(
        wikitext::write(&reparsed.document).text,
        written.text,
        "writing is not a fixpoint"
    );

    let mut out = String::new();
    out.push_str("== input (tabs as →, carriage returns as ␍)\n");
    for line in input.split_inclusive('\n') {
        out.push_str(&line.replace('\t', "→").replace('\r', "␍"));
    }
    if !input.ends_with('\n') {
        out.push('\n');
    }
    out.push_str("== model\n");
    out.push_str(&wikitext::dump::tree(&parsed.document));
    out.push_str("== diagnostics\n");
    for d in &parsed.diagnostics {
        out.push_str(&format!("{d}\n"));
    }
    out.push_str("== written\n");
    out.push_str(&written.text.replace('\t', "→"));
    out
}

#[test]
fn wikitext() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    testkit::SnapshotSuite::new(
        "wikitext",
        root.join("../../testdata/wikitext"),
        root.join("tests/snapshots/wikitext"),
    )
    .extension("txt")
    .run(render);
}
