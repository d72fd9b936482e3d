//! Writing a text onto a page, for any page and any text: the page's own
//! text gives back its bytes, and the changes reported say exactly where
//! the result differs from the page (see "A save writes the edit onto the
//! page, not a new page" in docs/decisions.md).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // The first line is the edit, the rest the page.
    let (edit, page) = match data.iter().position(|&b| b == b'\n') {
        Some(i) => (String::from_utf8_lossy(&data[..i]).into_owned(), &data[i + 1..]),
        None => (String::new(), data),
    };
    let options = htmlio::TextOptions::default();
    let text = htmlio::to_text(page, &options).text;
    let same = htmlio::onto::onto(page, &text, &options);
    assert!(same.bytes == page, "the page's own text changed its bytes");
    let edited = format!("{text}\n{edit}\n");
    let saved = htmlio::onto::onto(page, &edited, &options);
    let mut rebuilt = Vec::new();
    let mut at = 0;
    for c in &saved.changes {
        assert!(c.page.start >= at && c.page.end >= c.page.start);
        rebuilt.extend_from_slice(&page[at..c.page.start]);
        rebuilt.extend_from_slice(&saved.bytes[c.result.clone()]);
        at = c.page.end;
    }
    rebuilt.extend_from_slice(&page[at..]);
    assert!(rebuilt == saved.bytes, "the changes do not say where the bytes differ");
});
