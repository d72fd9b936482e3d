//! The JSON shape of the value types (feature `serde`), which `pagetext
//! sniff --json` prints.
#![cfg(feature = "serde")]

use sniff::{Hints, sniff};

#[test]
fn sniffed_serialises_with_whatwg_names() {
    let sniffed = sniff(b"<meta charset=utf-16>", &Hints::default());
    let json = serde_json::to_string(&sniffed).unwrap();
    assert_eq!(
        json,
        r#"{"encoding":"UTF-8","confidence":"tentative","source":{"kind":"meta","offset":0,"declaration":"charset","declared":"UTF-16LE"}}"#
    );
    let sniffed = sniff(b"<!doctype html><meta charset=euc-jp>", &Hints::default());
    let json = serde_json::to_string(&sniffed).unwrap();
    assert_eq!(
        json,
        r#"{"encoding":"EUC-JP","confidence":"tentative","source":{"kind":"meta","offset":15,"declaration":"charset"}}"#
    );
    let sniffed = sniff(
        b"\xff\xfe",
        &Hints::default().with_content_type(b"text/html; charset=shift_jis"),
    );
    let json = serde_json::to_string(&sniffed).unwrap();
    assert_eq!(
        json,
        r#"{"encoding":"UTF-16LE","confidence":"certain","source":{"kind":"bom"}}"#
    );
    let sniffed = sniff(
        b"<p>",
        &Hints::default().with_content_type(b"text/html; charset=shift_jis"),
    );
    let json = serde_json::to_string(&sniffed).unwrap();
    assert_eq!(
        json,
        r#"{"encoding":"Shift_JIS","confidence":"certain","source":{"kind":"transport"}}"#
    );
    let sniffed = sniff(b"\xe9t\xe9", &Hints::default());
    let json = serde_json::to_value(sniffed).unwrap();
    assert_eq!(json["source"]["kind"], "autodetected");
    assert_eq!(json["source"]["examined"], 3);
    let sniffed = sniff(
        b"<?xml version='1.0' encoding='utf-16'?><p>",
        &Hints::default(),
    );
    let json = serde_json::to_string(&sniffed).unwrap();
    assert_eq!(
        json,
        r#"{"encoding":"UTF-8","confidence":"tentative","source":{"kind":"xml-declaration","offset":30,"utf16_pattern":false,"declared":"UTF-16LE"}}"#
    );
    let sniffed = sniff(b"<\0?\0x\0m\0l\0", &Hints::default());
    let json = serde_json::to_string(&sniffed).unwrap();
    assert_eq!(
        json,
        r#"{"encoding":"UTF-16LE","confidence":"tentative","source":{"kind":"xml-declaration","offset":0,"utf16_pattern":true}}"#
    );
}
