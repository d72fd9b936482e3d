//! The encoding the ingestion pipeline settles on: the html5lib-tests
//! encoding cases (read from `../shared/conformance/` when present; the
//! lead's `cargo xtask conformance` runs them too), including those whose
//! `<meta>` lies beyond the prescan's 1024-byte window, which only the
//! parser finds.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

use std::path::PathBuf;

use htmlio::ingest::{Options, Why, ingest, settle_encoding};
use sniff::Hints;

fn conformance_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("PAGETEXT_CONFORMANCE_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/conformance")
        })
        .join("html5lib-tests/encoding");
    dir.is_dir().then_some(dir)
}

/// The `#data` / `#encoding` cases of a `.dat` file.
fn cases(bytes: &[u8]) -> Vec<(Vec<u8>, String)> {
    let mut out = Vec::new();
    for chunk in
        bytes
            .split_inclusive(|&b| b == b'\n')
            .fold(Vec::<Vec<u8>>::new(), |mut acc, line| {
                if line == b"#data\n" {
                    acc.push(Vec::new());
                } else if let Some(last) = acc.last_mut() {
                    last.extend_from_slice(line);
                }
                acc
            })
    {
        let marker = b"#encoding\n";
        let at = chunk
            .windows(marker.len())
            .position(|w| w == marker)
            .unwrap();
        let data = chunk[..at].to_vec();
        let data = data.strip_suffix(b"\n").map(<[u8]>::to_vec).unwrap_or(data);
        let expected = String::from_utf8_lossy(&chunk[at + marker.len()..])
            .trim()
            .to_owned();
        out.push((data, expected));
    }
    out
}

#[test]
fn html5lib_encoding_cases() {
    let Some(dir) = conformance_dir() else {
        eprintln!("html5lib-tests not found: skipped");
        return;
    };
    // The suite assumes a browser without autodetection: windows-1252 when
    // nothing declares an encoding.
    let hints = Hints::default().with_autodetect(None);
    let mut failures = Vec::new();
    let mut total = 0;
    let mut past_window = 0;
    for file in ["tests1.dat", "tests2.dat", "test-yahoo-jp.dat"] {
        let Ok(bytes) = std::fs::read(dir.join(file)) else {
            continue;
        };
        for (n, (data, expected)) in cases(&bytes).into_iter().enumerate() {
            total += 1;
            let settled = settle_encoding(&data, &hints);
            let want = encoding_rs::Encoding::for_label(expected.as_bytes()).unwrap();
            if matches!(settled.why, Why::Changed { .. }) {
                past_window += 1;
            }
            if settled.encoding != want {
                failures.push(format!("{file} #{n}: expected {expected}, got {settled}"));
            }
        }
    }
    assert!(total > 70, "only {total} cases found");
    assert!(
        past_window >= 6,
        "only {past_window} cases needed the parser"
    );
    assert!(
        failures.is_empty(),
        "{} of {total} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn ingest_agrees_with_settle_encoding() {
    let mut page = b"<!DOCTYPE html><title>\xbcuvre</title><!--".to_vec();
    page.extend(std::iter::repeat_n(b'x', 1100));
    page.extend_from_slice(b"--><meta charset=\"iso-8859-15\"><p>5 \xa4");
    let hints = Hints::default().with_autodetect(None);
    let settled = settle_encoding(&page, &hints);
    let out = ingest(
        &page,
        &Options {
            hints,
            ..Options::default()
        },
    );
    assert_eq!(settled, out.encoding);
    assert_eq!(out.encoding.encoding, encoding_rs::ISO_8859_15);
    assert!(matches!(
        out.encoding.why,
        Why::Changed {
            on_the_fly: false,
            ..
        }
    ));
    assert_eq!(out.document.meta.title.as_deref(), Some("Œuvre"));
    assert_eq!(
        wikitext::plain_text(match &out.document.body[0] {
            wikitext::Block::Paragraph { content, .. } => content,
            other => panic!("{other:?}"),
        }),
        "5 €"
    );
}

#[test]
fn a_meta_naming_the_same_encoding_makes_it_certain() {
    let page = b"<meta charset=windows-1252><p>caf\xe9";
    let hints = Hints::default().with_autodetect(None);
    let settled = settle_encoding(page, &hints);
    assert_eq!(settled.encoding, encoding_rs::WINDOWS_1252);
    assert_eq!(settled.confidence, sniff::Confidence::Certain);
    assert!(
        matches!(settled.why, Why::Confirmed { line: 1, .. }),
        "{settled}"
    );
}

#[test]
fn transport_charset_is_certain_and_wins() {
    let page = b"<meta charset=iso-8859-2><p>\xb1";
    let hints = Hints::default().with_content_type(b"text/html; charset=windows-1250");
    let out = ingest(
        page,
        &Options {
            hints,
            ..Options::default()
        },
    );
    assert_eq!(out.encoding.encoding, encoding_rs::WINDOWS_1250);
    assert!(matches!(
        out.encoding.why,
        Why::Sniffed(sniff::Source::Transport)
    ));
}

#[test]
fn an_unknown_label_does_not_settle() {
    // `charset=bogus` names no encoding; the http-equiv on the same element
    // is then read (later standard, "in head" meta step 2).
    let mut page = b"<!--".to_vec();
    page.extend(std::iter::repeat_n(b'x', 1100));
    page.extend_from_slice(b"--><meta charset=bogus http-equiv=content-type content='text/html; charset=koi8-r'><p>\xf0");
    let settled = settle_encoding(&page, &Hints::default().with_autodetect(None));
    assert_eq!(settled.encoding, encoding_rs::KOI8_R, "{settled}");
}
