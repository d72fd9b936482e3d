//! Ingestion of any bytes, then emission: the XHTML is well-formed XML, and
//! ingesting it gives back the same document (see "Round trips are
//! fixpoints" in docs/decisions.md).
#![no_main]

use htmlio::ingest::{Options, ingest, ingest_str};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let ingested = ingest(data, &Options::default());
    let out = htmlio::emit::xhtml(&ingested.document);
    if let Err(e) = roxmltree::Document::parse(&out.text) {
        panic!("not well-formed XML ({e}): {:?}", out.text);
    }
    let again = ingest_str(&out.text, &Options::default());
    assert!(
        again.document == ingested.document,
        "ingest(emit(d)) != d\nxhtml: {:?}",
        out.text
    );
});
