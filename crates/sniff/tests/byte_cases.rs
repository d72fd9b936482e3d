//! The byte-level cases of web-platform-tests (`html/syntax/xmldecl`,
//! `encoding`) and of jsdom's sniffer, rebuilt in
//! `testdata/sniff/byte_cases.rs`, through the library: `sniff` under the
//! living standard, with the suite's parent document's encoding as the
//! default a browser would fall back on (in place of autodetection, as
//! `pagetext sniff --default-encoding` does) and its `Content-Type` as the
//! transport layer.

#[path = "../../../testdata/sniff/byte_cases.rs"]
mod cases;

use encoding_rs::Encoding;
use sniff::{Confidence, Hints, sniff};

#[test]
fn every_byte_case_reads_as_browsers_read_it() {
    let cases = cases::cases();
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|case| {
            let default = Encoding::for_label(case.default.as_bytes());
            let hints = Hints::default().with_user_default(default);
            let hints = match case.content_type {
                Some(value) => hints.with_content_type(value.as_bytes()),
                None => hints,
            };
            let sniffed = sniff(&case.bytes, &hints);
            // A `<meta>` the parser meets later can change only a
            // tentative answer (`pagetext sniff` reports the change).
            if case.parsed.is_some() && sniffed.confidence != Confidence::Tentative {
                return Some(format!("{}: {sniffed} cannot change", case.name));
            }
            (sniffed.encoding.name() != case.expected)
                .then(|| format!("{}: expected {}, got {sniffed}", case.name, case.expected))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} cases fail:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
    // The suites' cases are all there.
    assert_eq!(cases.len(), 88 + 11 + 18 + 4);
}
