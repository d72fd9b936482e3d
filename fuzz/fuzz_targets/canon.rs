//! What the text format holds, on documents no parser made: any bytes are
//! ingested (a document faithful to the page, with everything HTML can say),
//! made canonical under the pages' policy, and the canonical text must read
//! back as exactly the canonical document (the check release builds of
//! `wikitext::write` no longer make), and writing it again must change
//! nothing.
#![no_main]

use htmlio::ingest::{Options, POLICY, ingest};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let ingested = ingest(data, &Options::default());
    let done = wikitext::canonicalize(ingested.document, &POLICY);
    let (document, text) = done.canonical.into_parts();
    let back = wikitext::parse(&text).document;
    assert!(
        back == document,
        "the canonical text reads back differently\ntext: {text:?}"
    );
    let again = wikitext::write(&back);
    assert!(again.is_exact(), "{:?}", again.diagnostics);
    assert_eq!(again.text, text);
});
