//! Snapshot suite `sniff`: every `testdata/sniff/pages/*.html` file is a case
//! showing what the sniffing algorithm decides under the later standard and
//! under the seed's rules, and the start of the decoded, preprocessed text.

use std::fmt::Write;
use std::path::Path;

use sniff::{Hints, Rules, decode, sniff};
use testkit::SnapshotSuite;

fn render(_path: &Path, bytes: &[u8]) -> String {
    let mut out = String::new();
    let standard = sniff(bytes, &Hints::default());
    let seed = sniff(bytes, &Hints::default().with_rules(Rules::Seed2007));
    let _ = writeln!(out, "standard:  {standard}");
    let _ = writeln!(out, "seed-2007: {seed}");
    let decoded = decode(bytes, standard.encoding);
    let (had_errors, bom_removed) = (decoded.had_errors, decoded.bom_removed);
    let input = decoded.preprocess();
    let r = input.replaced;
    let _ = writeln!(
        out,
        "decoded with {}: errors {had_errors}, BOM removed {bom_removed}, CR LF {}, lone CR {}, NUL {}",
        standard.encoding.name(),
        r.crlf,
        r.lone_cr,
        r.nul
    );
    let _ = writeln!(out, "---");
    let text: String = input.text.chars().take(400).collect();
    out.push_str(&text);
    out
}

#[test]
fn sniff_pages() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    SnapshotSuite::new(
        "sniff",
        root.join("../../testdata/sniff/pages"),
        root.join("tests/snapshots/sniff"),
    )
    .extension("html")
    .run(render);
}
