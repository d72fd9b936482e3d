//! RFC 3986 §5.4 "Reference Resolution Examples" (base `http://a/b/c/d;p?q`)
//! in both variants: seed 002 §2.5.3, which applies RFC 3986 §5.2 as its
//! step 10, must give every result; the URL Standard (the default) gives
//! the same except where listed, with why.
#![cfg(feature = "url")]

use microsyntax::url::{QueryEncoding, Url, resolve_url, seed};

const BASE: &str = "http://a/b/c/d;p?q";

/// §5.4.1 "Normal Examples".
const NORMAL: &[(&str, &str)] = &[
    ("g:h", "g:h"),
    ("g", "http://a/b/c/g"),
    ("./g", "http://a/b/c/g"),
    ("g/", "http://a/b/c/g/"),
    ("/g", "http://a/g"),
    ("//g", "http://g"),
    ("?y", "http://a/b/c/d;p?y"),
    ("g?y", "http://a/b/c/g?y"),
    ("#s", "http://a/b/c/d;p?q#s"),
    ("g#s", "http://a/b/c/g#s"),
    ("g?y#s", "http://a/b/c/g?y#s"),
    (";x", "http://a/b/c/;x"),
    ("g;x", "http://a/b/c/g;x"),
    ("g;x?y#s", "http://a/b/c/g;x?y#s"),
    ("", "http://a/b/c/d;p?q"),
    (".", "http://a/b/c/"),
    ("./", "http://a/b/c/"),
    ("..", "http://a/b/"),
    ("../", "http://a/b/"),
    ("../g", "http://a/b/g"),
    ("../..", "http://a/"),
    ("../../", "http://a/"),
    ("../../g", "http://a/g"),
];

/// §5.4.2 "Abnormal Examples" (`http:g` as a strict parser reads it).
const ABNORMAL: &[(&str, &str)] = &[
    ("../../../g", "http://a/g"),
    ("../../../../g", "http://a/g"),
    ("/./g", "http://a/g"),
    ("/../g", "http://a/g"),
    ("g.", "http://a/b/c/g."),
    (".g", "http://a/b/c/.g"),
    ("g..", "http://a/b/c/g.."),
    ("..g", "http://a/b/c/..g"),
    ("./../g", "http://a/b/g"),
    ("./g/.", "http://a/b/c/g/"),
    ("g/./h", "http://a/b/c/g/h"),
    ("g/../h", "http://a/b/c/h"),
    ("g;x=1/./y", "http://a/b/c/g;x=1/y"),
    ("g;x=1/../y", "http://a/b/c/y"),
    ("g?y/./x", "http://a/b/c/g?y/./x"),
    ("g?y/../x", "http://a/b/c/g?y/../x"),
    ("g#s/./x", "http://a/b/c/g#s/./x"),
    ("g#s/../x", "http://a/b/c/g#s/../x"),
    ("http:g", "http:g"),
];

/// Where the URL Standard's result differs from RFC 3986's, and why.
const STANDARD_DIFFERS: &[(&str, &str)] = &[
    // An http URL always has a path: the empty path serializes as "/".
    ("//g", "http://g/"),
    // A special scheme equal to the base's makes the reference relative
    // (RFC 3986 §5.2.2 allows this as the "non-strict" parser, for
    // backward compatibility, and the URL Standard does it).
    ("http:g", "http://a/b/c/g"),
];

#[test]
fn rfc3986_examples_seed() {
    assert_eq!(NORMAL.len(), 23);
    assert_eq!(ABNORMAL.len(), 19);
    for &(reference, expected) in NORMAL.iter().chain(ABNORMAL) {
        let got = seed::resolve_url(reference, BASE, QueryEncoding::UTF_8);
        assert_eq!(got.as_deref(), Ok(expected), "{reference:?}");
    }
}

#[test]
fn rfc3986_examples_standard() {
    let base = Url::parse(BASE).unwrap();
    for &(reference, rfc) in NORMAL.iter().chain(ABNORMAL) {
        let expected = STANDARD_DIFFERS
            .iter()
            .find(|(r, _)| *r == reference)
            .map_or(rfc, |&(_, e)| e);
        let got = resolve_url(reference, &base, QueryEncoding::UTF_8).unwrap();
        assert_eq!(got.as_str(), expected, "{reference:?}");
    }
}
