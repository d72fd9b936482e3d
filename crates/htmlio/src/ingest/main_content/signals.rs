//! What an element says about itself: the boilerplate kind its name, its
//! ARIA role, its classes and id, or its being hidden give it, and whether
//! it is a landmark of the main content. Read once per element, by
//! [`super::measure`].

use std::sync::LazyLock;

use crate::ingest::sink::Element;
use crate::ingest::tags::Tag;

use super::Kind;

/// What an element's own markup says.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Signal {
    /// The kind of boilerplate it is, if it is one.
    pub(crate) kind: Option<Kind>,
    /// Whether the kind is certain (the element's name, its role, a class
    /// that says nothing else, hidden) rather than a guess from a class
    /// that also names content (`article-footer`).
    pub(crate) strong: bool,
    /// How much its name, role and classes say it holds the article: a
    /// landmark (`main`, `article`, `itemprop=articleBody`) or a class
    /// such as `entry-content` scores up, a boilerplate class down.
    pub(crate) weight: i32,
}

/// Class and id words that name a part around the article, whatever else
/// the class says (the lists of "unlikely candidates" in Readability and
/// of discarded parts in trafilatura carry the same idea; these words are
/// ours, checked on both benchmarks' pages).
const STRONG: &[(&str, Kind)] = &[
    ("comment", Kind::Comments),
    ("disqus", Kind::Comments),
    ("respond", Kind::Comments),
    ("share", Kind::Share),
    ("sharing", Kind::Share),
    ("social", Kind::Share),
    ("related", Kind::Related),
    ("recommend", Kind::Related),
    ("more-stories", Kind::Related),
    ("outbrain", Kind::Related),
    ("taboola", Kind::Related),
    ("trending", Kind::Related),
    ("most-read", Kind::Related),
    ("mostread", Kind::Related),
    ("cookie", Kind::Consent),
    ("consent", Kind::Consent),
    ("gdpr", Kind::Consent),
    ("newsletter", Kind::Promo),
    ("subscri", Kind::Promo),
    ("signup", Kind::Promo),
    ("sponsor", Kind::Promo),
    ("breadcrumb", Kind::Nav),
    ("pagination", Kind::Nav),
    ("skip-link", Kind::Nav),
    ("byline", Kind::Byline),
    ("author", Kind::Byline),
    ("timestamp", Kind::Byline),
    ("dateline", Kind::Byline),
];

/// Class and id words that name a part around the article unless the class
/// also names content (`article-footer`, `post-header`).
const WEAK: &[(&str, Kind)] = &[
    ("footer", Kind::Footer),
    ("header", Kind::Header),
    ("masthead", Kind::Header),
    ("sidebar", Kind::Aside),
    ("widget", Kind::Aside),
    ("menu", Kind::Nav),
    ("navbar", Kind::Nav),
    ("navigation", Kind::Nav),
    ("promo", Kind::Promo),
    ("advert", Kind::Promo),
    ("popup", Kind::Promo),
    ("modal", Kind::Promo),
    ("gallery", Kind::Media),
    ("slideshow", Kind::Media),
    ("carousel", Kind::Media),
    ("caption", Kind::Media),
    ("credit", Kind::Media),
];

/// Whole class words (split at anything but letters and digits) for parts
/// that are too short to look for inside other words.
const WORDS: &[(&str, Kind)] = &[
    ("nav", Kind::Nav),
    ("ad", Kind::Promo),
    ("ads", Kind::Promo),
    ("tags", Kind::Related),
];

/// Class and id words of the article itself (Readability's "positive"
/// class weights carry the idea).
const CONTENT: &[&str] = &[
    "article", "content", "entry", "main", "post", "story", "body", "text", "blog",
];

/// A class word of an embedded post (`social-media-embed`,
/// `embed-twitter`): a quotation of the article, whatever else the class
/// says.
const EMBED: &str = "embed";

/// Which list a class word is in, and its place there (the first of a
/// list that a class holds wins).
#[derive(Debug, Clone, Copy)]
enum Word {
    Strong(usize),
    Weak(usize),
    Content,
    Embed,
}

/// What the words of a class say.
#[derive(Debug, Clone, Copy, Default)]
struct ClassWords {
    /// The first kind of [`STRONG`] the class holds.
    strong: Option<Kind>,
    /// The first kind of [`WEAK`] it holds.
    weak: Option<Kind>,
    /// Whether it names content ([`CONTENT`]).
    content: bool,
    /// Whether it names an embedded post ([`EMBED`]).
    embed: bool,
}

/// A class word as bytes, and which list it is in.
type Entry = (&'static [u8], Word);

/// The words of [`STRONG`], [`WEAK`], [`CONTENT`] and [`EMBED`] by their first byte,
/// so that a class is read in one pass: at each byte only the words that
/// start with it are compared (a substring search per word per element
/// cost more than the rest of the selection).
static BY_FIRST_BYTE: LazyLock<Vec<Vec<Entry>>> = LazyLock::new(|| {
    let mut table: Vec<Vec<Entry>> = vec![Vec::new(); 256];
    let words = STRONG
        .iter()
        .enumerate()
        .map(|(i, (w, _))| (*w, Word::Strong(i)))
        .chain(
            WEAK.iter()
                .enumerate()
                .map(|(i, (w, _))| (*w, Word::Weak(i))),
        )
        .chain(CONTENT.iter().map(|w| (*w, Word::Content)))
        .chain([(EMBED, Word::Embed)]);
    for (word, what) in words {
        if let Some(slot) = word
            .as_bytes()
            .first()
            .and_then(|&b| table.get_mut(usize::from(b)))
        {
            slot.push((word.as_bytes(), what));
        }
    }
    table
});

/// What the words of a class (lowercased) say, read in one pass.
fn read_class(class: &str) -> ClassWords {
    let bytes = class.as_bytes();
    let (mut strong, mut weak) = (usize::MAX, usize::MAX);
    let mut out = ClassWords::default();
    for (at, &b) in bytes.iter().enumerate() {
        let Some(words) = BY_FIRST_BYTE.get(usize::from(b)) else {
            continue;
        };
        let rest = bytes.get(at..).unwrap_or_default();
        for &(word, what) in words {
            if rest.starts_with(word) {
                match what {
                    Word::Strong(i) => strong = strong.min(i),
                    Word::Weak(i) => weak = weak.min(i),
                    Word::Content => out.content = true,
                    Word::Embed => out.embed = true,
                }
            }
        }
    }
    let kind = |list: &[(&str, Kind)], i: usize| list.get(i).map(|(_, k)| *k);
    out.strong = kind(STRONG, strong);
    out.weak = kind(WEAK, weak);
    out
}

/// What `e` (of tag `tag`) says about itself; `buf` is scratch space.
pub(crate) fn signal(e: &Element, tag: Tag, buf: &mut String) -> Signal {
    let mut out = Signal::default();
    let name = &*e.name.local;
    // The element's name and ARIA role: HTML's own landmarks.
    let by_name = match name {
        "nav" => Some(Kind::Nav),
        "aside" => Some(Kind::Aside),
        "footer" => Some(Kind::Footer),
        "header" => Some(Kind::Header),
        "form" | "search" => Some(Kind::Form),
        // Captions repeat what the picture shows; the picture stays.
        "figcaption" => Some(Kind::Media),
        _ => None,
    };
    let role = e.attr("role").map(str::trim).unwrap_or("");
    let by_role = match role.to_ascii_lowercase().as_str() {
        "navigation" | "menu" | "menubar" => Some(Kind::Nav),
        "complementary" => Some(Kind::Aside),
        "contentinfo" => Some(Kind::Footer),
        "banner" => Some(Kind::Header),
        "search" | "form" => Some(Kind::Form),
        "dialog" | "alertdialog" => Some(Kind::Consent),
        "main" | "article" => {
            out.weight += 25;
            None
        }
        _ => None,
    };
    if matches!(name, "main" | "article") {
        out.weight += 25;
    }
    if e.attr("itemprop").is_some_and(|p| {
        p.split_ascii_whitespace()
            .any(|w| w.eq_ignore_ascii_case("articleBody"))
    }) {
        out.weight += 50;
    }
    if e.hidden() {
        return Signal {
            kind: Some(Kind::Hidden),
            strong: true,
            weight: out.weight - 50,
        };
    }
    if let Some(kind) = by_name.or(by_role) {
        out.kind = Some(kind);
        out.strong = true;
    }
    classes(e, buf);
    if buf.is_empty() {
        return out;
    }
    let ClassWords {
        strong,
        weak,
        content,
        embed,
    } = read_class(buf);
    if embed {
        return out;
    }
    if content {
        out.weight += 25;
    }
    let weak = weak.or_else(|| {
        buf.split(|c: char| !c.is_ascii_alphanumeric())
            .find_map(|word| WORDS.iter().find(|(w, _)| *w == word).map(|(_, k)| *k))
    });
    if strong.is_some() || weak.is_some() {
        out.weight -= 25;
    }
    if out.kind.is_none() {
        if let Some(kind) = strong {
            out.kind = Some(kind);
            out.strong = !content;
        } else if let Some(kind) = weak.filter(|_| !content) {
            out.kind = Some(kind);
        }
    }
    // A table cell or a list item is never a part of its own: its table or
    // list is.
    if matches!(tag, Tag::Cell | Tag::HeaderCell | Tag::ListItem | Tag::Row) && !out.strong {
        out.kind = None;
    }
    out
}

/// `e`'s classes and id, lowercased, into `buf`. An id of three words or
/// more is left out: it is a slug of the section's heading, as Sphinx,
/// MediaWiki and Markdown make them (`sharing-with-a-single-developer`,
/// `Related_works`), and says what the section is about, not what part
/// of the page it is.
fn classes(e: &Element, buf: &mut String) {
    buf.clear();
    let id = e.attr("id").filter(|id| !is_slug(id));
    for value in [e.attr("class"), id].into_iter().flatten() {
        buf.push_str(value);
        buf.push(' ');
    }
    buf.make_ascii_lowercase();
    if buf.trim().is_empty() {
        buf.clear();
    }
}

/// Whether an id reads as a slug of a heading: three words or more,
/// split at `-`, `_`, `.` or white space.
fn is_slug(id: &str) -> bool {
    id.split(['-', '_', '.', ' '])
        .filter(|w| !w.is_empty())
        .nth(2)
        .is_some()
}
