//! The text format: parsing is total, and writing is a fixpoint (see "Round
//! trips are fixpoints" in docs/decisions.md): `parse(write(parse(t))) ==
//! parse(t)`, and the writer's output is canonical (writing it again changes
//! nothing). Text to XHTML as a stream gives the same bytes as through the
//! tree.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let first = wikitext::parse(&text).document;
    let written = wikitext::write(&first);
    let second = wikitext::parse(&written.text).document;
    assert!(
        second == first,
        "parse(write(parse(t))) != parse(t)\nwritten: {:?}",
        written.text
    );
    let rewritten = wikitext::write(&second);
    assert_eq!(rewritten.text, written.text, "write is not canonical");
    // Emission of any parsed document is well-formed XML.
    let out = htmlio::emit::xhtml(&first);
    // The stream (parser events into the emitter, no tree) gives the same
    // bytes as the tree.
    let streamed = htmlio::emit::emit_text(&text, &htmlio::emit::EmitOptions::default());
    assert_eq!(streamed.emitted.text, out.text, "stream and tree differ");
    assert!(
        roxmltree::Document::parse(&out.text).is_ok(),
        "not well-formed: {:?}",
        out.text
    );
});
