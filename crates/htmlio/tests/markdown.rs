//! `to_text` with `TextFormat::Markdown`, read by a CommonMark
//! implementation (pulldown-cmark, GFM tables on): its words and links must
//! be those of pagetext's own XHTML of the page. Over every page of
//! `testdata/htmlio/` and pages made here for Markdown's special
//! characters.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeMap;
use std::path::Path;

use htmlio::{TextFormat, TextOptions};
use pulldown_cmark::{Options, Parser};

mod support;
use support::Tree;

/// Words (runs of letters and digits) and link targets.
#[derive(Debug, Default, PartialEq)]
struct Seen {
    words: BTreeMap<String, usize>,
    links: BTreeMap<String, usize>,
}

fn add_words(text: &str, words: &mut BTreeMap<String, usize>) {
    for word in text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
    {
        *words.entry(word.to_owned()).or_default() += 1;
    }
}

/// A link target with its percent-encoded unreserved characters decoded
/// (RFC 3986 §6.2.2.2: `%5F` and `_` name the same thing; the text format
/// encodes some where they would read as markup) and its non-ASCII ones
/// encoded.
fn normal_link(href: &str) -> String {
    let mut out = String::with_capacity(href.len());
    let bytes = href.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(hex) = href.get(i + 1..i + 3)
            && let Ok(b) = u8::from_str_radix(hex, 16)
            && (b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~'))
        {
            out.push(char::from(b));
            i += 3;
            continue;
        }
        // Non-ASCII characters, and the ASCII ones a URL may not hold as
        // they are, percent-encoded, as a renderer may write them (the same
        // URL).
        let ch = href[i..].chars().next().unwrap();
        if ch.is_ascii()
            && !matches!(
                ch,
                '\\' | '"' | '<' | '>' | '[' | ']' | '^' | '`' | '{' | '|' | '}' | ' '
            )
        {
            out.push(ch);
        } else {
            let mut buf = [0u8; 4];
            for b in ch.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("%{b:02X}"));
            }
        }
        i += ch.len_utf8();
    }
    out
}

/// What a browser shows of an HTML (or XHTML) document, as html5ever
/// builds it: the body's words (not an image's alternative text, an
/// attribute) and its links' targets.
fn read_rendered(html: &str) -> Seen {
    let mut seen = Seen::default();
    let mut stack = vec![support::html_tree(html)];
    while let Some(node) = stack.pop() {
        match node {
            Tree::Text(text) => add_words(&text, &mut seen.words),
            Tree::Element(_, name, attrs, children) => {
                if name == "head" {
                    continue;
                }
                if name == "a"
                    && let Some((_, href)) = attrs.iter().find(|(k, _)| k == "href")
                {
                    *seen.links.entry(normal_link(href)).or_default() += 1;
                }
                stack.extend(children.into_iter().rev());
            }
        }
    }
    seen
}

/// What a CommonMark reader renders of `markdown` (GFM tables on).
fn read_markdown(markdown: &str) -> Seen {
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, Parser::new_ext(markdown, Options::ENABLE_TABLES));
    read_rendered(&html)
}

/// The same of pagetext's XHTML.
fn read_xhtml(xhtml: &str) -> Seen {
    read_rendered(xhtml)
}

/// How many words differ between the two, over the XHTML's.
fn word_difference(a: &Seen, b: &Seen) -> (usize, usize) {
    let mut differ = 0;
    let keys: std::collections::BTreeSet<&String> = a.words.keys().chain(b.words.keys()).collect();
    for key in keys {
        let (x, y) = (
            a.words.get(key).copied().unwrap_or(0),
            b.words.get(key).copied().unwrap_or(0),
        );
        differ += x.abs_diff(y);
    }
    (differ, b.words.values().sum())
}

fn check(name: &str, page: &[u8]) {
    let text = htmlio::to_text(page, &TextOptions::default()).text;
    let xhtml = htmlio::to_xhtml(&text, &htmlio::emit::EmitOptions::default());
    let ours = read_xhtml(&xhtml.emitted.text);
    let options = TextOptions {
        format: TextFormat::Markdown,
        ..TextOptions::default()
    };
    let markdown = htmlio::to_text(page, &options).text;
    let theirs = read_markdown(&markdown);
    let (differ, total) = word_difference(&theirs, &ours);
    assert!(
        differ * 100 <= total.max(1),
        "{name}: {differ} of {total} words differ\nmarkdown:\n{markdown}\nours: {:?}\ntheirs: {:?}",
        ours.words,
        theirs.words
    );
    assert_eq!(
        theirs.links, ours.links,
        "{name}: links\nmarkdown:\n{markdown}"
    );
}

#[test]
fn markdown_reads_back_as_the_pages_words_and_links() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/htmlio");
    let pages = testkit::files_below(&root);
    let pages: Vec<_> = pages
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
        .collect();
    assert!(
        pages.len() > 20,
        "testdata not found under {}",
        root.display()
    );
    for path in pages {
        check(&path.display().to_string(), &std::fs::read(&path).unwrap());
    }
}

#[test]
fn markdown_characters_in_text_stay_text() {
    for page in [
        "<h1># Not a heading</h1><p>1. Not a list, - nor this, * nor this</p>",
        "<p>2 * 3 * 4, snake_case_name, a [bracket] and <code>`ticks`</code> &amp; an &lt;tag&gt;</p>",
        "<p>A <a href=\"/a_(b)\">link with (parens)</a> and <a href=\"#top\">in-page</a>.</p>",
        "<table><tr><td>a | b</td><td>c</td></tr><tr><td>1</td><td>2</td></tr></table>",
        "<ul><li>one<ul><li>inner</li></ul></li><li>two</li></ul><blockquote><p>quoted</p><p>twice</p></blockquote>",
        "<pre>```\ncode\n```</pre><dl><dt>Term</dt><dd>Its definition.</dd></dl>",
    ] {
        check(page, page.as_bytes());
    }
}

/// The pages of a folder named by `PAGETEXT_MARKDOWN_CORPUS` (real pages
/// a developer has; nothing to do without it): each must pass, and those
/// that do not are named together.
#[test]
fn a_corpus_when_one_is_given() {
    let Some(dir) = std::env::var_os("PAGETEXT_MARKDOWN_CORPUS") else {
        return;
    };
    let pages = testkit::files_below(Path::new(&dir));
    let (mut passed, mut failed) = (0, Vec::new());
    for path in pages
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
    {
        let bytes = std::fs::read(path).unwrap();
        let name = path.display().to_string();
        match std::panic::catch_unwind(|| check(&name, &bytes)) {
            Ok(()) => passed += 1,
            Err(_) => failed.push(name),
        }
    }
    eprintln!(
        "markdown corpus: {passed} passed, {} failed: {failed:?}",
        failed.len()
    );
    assert!(
        failed.is_empty(),
        "{} of {} pages failed: {failed:?}",
        failed.len(),
        passed + failed.len()
    );
}
