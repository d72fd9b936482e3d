//! Script must not get through (see "Scripts and other ballast never reach
//! the output" in docs/decisions.md): every vector of
//! `testdata/xss/vectors.txt` goes through ingest -> emit, and the XHTML is
//! read back as XML and checked element by element and attribute by
//! attribute: only the elements and attributes the mapping can write, no
//! event handler, no `http-equiv` but the encoding's, and no link whose URL a
//! browser would read as `javascript:`, `vbscript:` or `data:` (after its own
//! URL clean-up: tabs and newlines removed, leading C0 controls and spaces
//! trimmed, case folded). `keep_unsafe_links` keeps such links in the text;
//! emission neutralises them all the same.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

use std::path::PathBuf;

use htmlio::emit::xhtml;
use htmlio::ingest::{Options, ingest};

fn vectors() -> Vec<String> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata/xss/vectors.txt");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(str::to_owned)
        .collect()
}

/// The elements the emitter writes (the mapping table in `htmlio`'s docs).
const ELEMENTS: &[&str] = &[
    "html",
    "head",
    "title",
    "meta",
    "link",
    "body",
    "p",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "pre",
    "hr",
    "blockquote",
    "ul",
    "ol",
    "li",
    "dl",
    "dt",
    "dd",
    "em",
    "strong",
    "code",
    "a",
    "br",
    "img",
    "table",
    "caption",
    "tbody",
    "tr",
    "th",
    "td",
];

/// The attributes it writes.
const ATTRIBUTES: &[&str] = &[
    "xmlns",
    "lang",
    "http-equiv",
    "content",
    "name",
    "rel",
    "href",
    "title",
    "id",
    "type",
    "compact",
    "src",
    "alt",
    "width",
    "height",
    "colspan",
    "rowspan",
];

/// Whether an image source could run a script: a script scheme, a `data:`
/// URL of no image type, or an SVG data URL whose graphic holds a script,
/// an event handler, a `foreignObject` or a reference outside itself.
fn is_unsafe_image(src: &str) -> bool {
    match browser_scheme(src).as_deref() {
        Some("data") => {
            let rest = &src[src.find(':').map_or(0, |i| i + 1)..];
            let lower = rest.to_ascii_lowercase();
            if let Some(b64) = lower
                .strip_prefix("image/svg+xml;base64,")
                .map(|_| &rest["image/svg+xml;base64,".len()..])
            {
                use base64::Engine;
                let Ok(bytes) = base64::engine::general_purpose::STANDARD.decode(b64) else {
                    return true;
                };
                let Ok(text) = String::from_utf8(bytes) else {
                    return true;
                };
                return unsafe_svg(&text);
            }
            !["image/png", "image/gif", "image/jpeg", "image/webp"]
                .iter()
                .any(|t| lower.starts_with(t))
        }
        Some("javascript" | "vbscript") => true,
        _ => false,
    }
}

/// Whether an SVG document could run a script or load something.
fn unsafe_svg(text: &str) -> bool {
    let Ok(doc) = roxmltree::Document::parse(text) else {
        return true;
    };
    doc.descendants().filter(|n| n.is_element()).any(|n| {
        let name = n.tag_name().name().to_ascii_lowercase();
        matches!(name.as_str(), "script" | "foreignobject" | "iframe" | "a")
            || n.attributes().any(|a| {
                let an = a.name().to_ascii_lowercase();
                let v = a.value().to_ascii_lowercase();
                an.starts_with("on")
                    || (an == "href" && !v.trim_start().starts_with('#'))
                    || (v.contains("url(") && !v.contains("url(#"))
                    || v.contains("javascript:")
            })
    })
}

/// The scheme a browser would see in `url`: WHATWG URL parsing removes tabs
/// and newlines anywhere and C0 controls and spaces at both ends.
fn browser_scheme(url: &str) -> Option<String> {
    let cleaned: String = url
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect();
    let trimmed = cleaned.trim_matches(|c: char| c <= ' ');
    let (scheme, _) = trimmed.split_once(':')?;
    let mut chars = scheme.chars();
    let first_ok = chars.next().is_some_and(|c| c.is_ascii_alphabetic());
    if first_ok && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')) {
        Some(scheme.to_ascii_lowercase())
    } else {
        None
    }
}

/// The schemes ingestion neutralises. (Netscape's `livescript:` and
/// `mocha:` are in the corpus too, but no current browser runs them; the
/// browser check confirms it.)
fn is_unsafe_url(url: &str) -> bool {
    matches!(
        browser_scheme(url).as_deref(),
        Some("javascript" | "vbscript" | "data")
    )
}

/// Everything wrong with one XHTML output; empty when it is safe.
/// `allow_unsafe_links` lets `javascript:` and friends through in `href`s
/// (of `<a>` and of `<link>`, which that option keeps too).
fn problems(xhtml: &str, allow_unsafe_links: bool) -> Vec<String> {
    let doc = match roxmltree::Document::parse(xhtml) {
        Ok(doc) => doc,
        Err(e) => return vec![format!("not well-formed XML: {e}")],
    };
    let mut found = Vec::new();
    for node in doc.descendants().filter(|n| n.is_element()) {
        let tag = node.tag_name();
        let name = tag.name();
        if tag.namespace() != Some("http://www.w3.org/1999/xhtml") {
            found.push(format!("element {name} outside the XHTML namespace"));
        }
        if !ELEMENTS.contains(&name) {
            found.push(format!("element <{name}>"));
        }
        for attr in node.attributes() {
            let an = attr.name();
            let qualified = match attr.namespace() {
                Some("http://www.w3.org/XML/1998/namespace") if an == "lang" => true,
                Some(_) => false,
                None => ATTRIBUTES.contains(&an),
            };
            if !qualified || an.to_ascii_lowercase().starts_with("on") {
                found.push(format!("attribute {an} on <{name}>"));
            }
            if an == "http-equiv" && !attr.value().eq_ignore_ascii_case("content-type") {
                found.push(format!("http-equiv={}", attr.value()));
            }
            if an == "href" && is_unsafe_url(attr.value()) && !allow_unsafe_links {
                found.push(format!("<{name} href={:?}>", attr.value()));
            }
            if an == "src" && is_unsafe_image(attr.value()) {
                found.push(format!("<{name} src={:?}>", attr.value()));
            }
        }
        if let Some(t) = node.attribute("type").filter(|_| name == "ol")
            && !matches!(t, "1" | "a" | "A")
        {
            found.push(format!("ol type={t:?}"));
        }
    }
    found
}

#[test]
fn the_checker_catches_what_it_should() {
    // Positive controls: planted script-capable constructs are reported.
    let page = |body: &str| {
        format!(
            "<html xmlns=\"http://www.w3.org/1999/xhtml\"><head><title>t</title></head><body>{body}</body></html>"
        )
    };
    for bad in [
        "<script>alert(1)</script>",
        "<p onclick=\"alert(1)\">x</p>",
        "<a href=\"javascript:alert(1)\">x</a>",
        "<a href=\" java&#9;script:alert(1)\">x</a>",
        "<a href=\"&#1;JAVASCRIPT:alert(1)\">x</a>",
        "<a href=\"data:text/html,x\">x</a>",
        "<a href=\"vbscript:x\">x</a>",
        "<img src=\"javascript:alert(1)\" alt=\"\" />",
        "<img src=\"data:text/html,x\" alt=\"\" />",
        "<img src=\"data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciPjxzY3JpcHQ+YWxlcnQoMSk8L3NjcmlwdD48L3N2Zz4=\" alt=\"\" />",
        "<img src=\"x\" onerror=\"alert(1)\" />",
        "<p style=\"x\">x</p>",
        "<svg xmlns=\"http://www.w3.org/2000/svg\"><a href=\"x\" /></svg>",
        "<meta http-equiv=\"refresh\" content=\"0;url=javascript:alert(1)\" />",
    ] {
        assert!(!problems(&page(bad), false).is_empty(), "{bad}");
    }
    for good in [
        "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>",
        "<a href=\"http://example.com/javascript:\">x</a>",
        "<a href=\"/javascript:x\">x</a>",
        "<a href=\"mailto:javascript:x@y\">x</a>",
        "<a name=\"n\" id=\"n\">x</a>",
        "<img src=\"x.png\" alt=\"\" width=\"1\" />",
        "<img src=\"data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciPjxwYXRoIGQ9Ik0wIDBoMXYxeiIgLz48L3N2Zz4=\" alt=\"\" />",
    ] {
        assert_eq!(problems(&page(good), false), Vec::<String>::new(), "{good}");
    }
}

#[test]
fn no_vector_gets_script_through() {
    let vectors = vectors();
    assert!(
        vectors.len() >= 150,
        "the corpus has {} vectors",
        vectors.len()
    );
    let mut failures = Vec::new();
    for v in &vectors {
        for input in [
            v.clone(),
            format!(
                "<!DOCTYPE html><html><head><title>t</title></head><body><p>before</p>{v}<p>after</p></body></html>"
            ),
        ] {
            let out = xhtml(&ingest(input.as_bytes(), &Options::default()).document);
            let p = problems(&out.text, false);
            if !p.is_empty() {
                failures.push(format!("{input}\n  -> {p:?}"));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn unsafe_links_are_neutralised_with_a_diagnostic_and_kept_on_request() {
    let input = b"<p><a href=\"java&#x09;script:alert(1)\">click</a></p>";
    let ingested = ingest(input, &Options::default());
    let out = xhtml(&ingested.document);
    assert!(out.text.contains("click"), "the text stays");
    assert!(!out.text.contains("alert"), "the URL goes");
    assert!(
        !ingested.diagnostics.is_empty(),
        "neutralised with a diagnostic"
    );

    let keep = Options {
        keep_unsafe_links: true,
        ..Options::default()
    };
    let text = htmlio::to_text(input, &htmlio::TextOptions::from(keep)).text;
    assert!(
        text.contains("alert(1)"),
        "kept in the text when asked: {text}"
    );
    // Emission neutralises it all the same, with its own diagnostic: the
    // text format's links are checked on the way out too.
    let out = xhtml(&ingest(input, &keep).document);
    assert!(!out.text.contains("alert"), "{}", out.text);
    assert!(out.text.contains("click"), "the text stays");
    assert_eq!(
        out.diagnostics
            .iter()
            .map(|d| d.code.as_str())
            .collect::<Vec<_>>(),
        ["unsafe-link"]
    );
    // Even then only links may carry such URLs: no element or handler.
    let mut failures = Vec::new();
    for v in vectors() {
        let out = xhtml(&ingest(v.as_bytes(), &keep).document);
        let p = problems(&out.text, true);
        if !p.is_empty() {
            failures.push(format!("{v}\n  -> {p:?}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
