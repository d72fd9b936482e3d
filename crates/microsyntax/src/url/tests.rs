//! Tests of the URL Standard side (the seed variant's are in `seed`).

use super::*;

/// A stand-in for windows-1251 (its Cyrillic letters U+0410..U+044F are
/// 0xC0..0xFF), for the tests of both variants.
pub(crate) fn cp1251(c: char, out: &mut Vec<u8>) -> bool {
    match u32::from(c) {
        n @ 0x410..=0x44F => {
            out.push(u8::try_from(n - 0x410 + 0xC0).unwrap_or(b'?'));
            true
        }
        _ => false,
    }
}

#[test]
fn query_in_the_documents_encoding() {
    let enc = QueryEncoding::new(&cp1251);
    let base = Url::parse("http://example.com/dir/").unwrap();
    let got = resolve_url("search?q=Привет#Привет", &base, enc).unwrap();
    assert_eq!(
        got.as_str(),
        "http://example.com/dir/search?q=%CF%F0%E8%E2%E5%F2#%D0%9F%D1%80%D0%B8%D0%B2%D0%B5%D1%82"
    );
    // The path is always UTF-8.
    let got = resolve_url("Привет", &base, enc).unwrap();
    assert_eq!(
        got.as_str(),
        "http://example.com/dir/%D0%9F%D1%80%D0%B8%D0%B2%D0%B5%D1%82"
    );
    // What the encoding cannot express is a character reference.
    let got = resolve_url("?q=☺", &base, enc).unwrap();
    assert_eq!(got.as_str(), "http://example.com/dir/?q=%26%239786%3B");
    // Not for schemes that are not special: their queries are UTF-8.
    let got = resolve_url("web+x:a?q=Я", &base, enc).unwrap();
    assert_eq!(got.as_str(), "web+x:a?q=%D0%AF");
}

#[test]
fn reference_queries() {
    let enc = QueryEncoding::new(&cp1251);
    assert_eq!(encode_reference_query("a?b", enc), "a?b");
    assert_eq!(encode_reference_query("Я#?Я", enc), "Я#?Я");
    assert_eq!(encode_reference_query("?Я'", enc), "?%DF'");
    assert_eq!(encode_reference_query("x?Я b#c", enc), "x?%DF b#c");
}

#[test]
fn validity() {
    let base = Url::parse("http://a/").unwrap();
    for (input, valid) in [
        ("b/c", true),
        ("http://example.com/", true),
        ("http:\\\\example.com\\path", false),
        (" b", false),
        ("b c", false),
        ("http://bücher.example/", true),
    ] {
        let got = parse_url(input, Some(&base), QueryEncoding::UTF_8).unwrap();
        assert_eq!(got.valid, valid, "{input}");
    }
    assert!(matches!(
        parse_url("http://[::1", None, QueryEncoding::UTF_8),
        Err(UrlError::Standard(_))
    ));
    assert!(parse_url("page.html", None, QueryEncoding::UTF_8).is_err());
}

#[test]
fn parts() {
    let u = Url::parse("http://example.com:8080/a/b?c=d#e").unwrap();
    let p = UrlParts::from(&u);
    assert_eq!(p.scheme.as_deref(), Some("http"));
    assert_eq!(p.host.as_deref(), Some("example.com"));
    assert_eq!(p.port.as_deref(), Some("8080"));
    assert_eq!(p.path, "/a/b");
    assert_eq!(p.query.as_deref(), Some("c=d"));
    assert_eq!(p.fragment.as_deref(), Some("e"));
    let u = Url::parse("HTTP://EXAMPLE.com:80").unwrap();
    let p = UrlParts::from(&u);
    assert_eq!(p.href, "http://example.com/");
    assert_eq!(p.port, None);
}

#[test]
fn base_urls() {
    let address = Url::parse("http://example.com/a/b.html").unwrap();
    let enc = QueryEncoding::UTF_8;
    assert_eq!(
        document_base_url(None, Some(&address), enc),
        Some(address.clone())
    );
    assert_eq!(document_base_url(None, None, enc), None);
    // A base that does not parse leaves the address.
    assert_eq!(
        document_base_url(Some("http://[x"), Some(&address), enc),
        Some(address.clone())
    );
    let got = document_base_url(Some("http://other.example/x/"), None, enc).unwrap();
    assert_eq!(got.as_str(), "http://other.example/x/");
}
