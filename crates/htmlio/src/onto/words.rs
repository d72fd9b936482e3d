//! The words a reader sees, on both sides: the page's, each with the range
//! of the page's text it was read from, and a document's, each with the
//! top-level block it belongs to. Words are runs of characters between
//! white space; phrase elements (`b`, `a`, `span`...) and comments do not
//! end a word, any other element does, as a browser lays text out.

use std::borrow::Cow;

use wikitext::Document;
use wikitext::events::{Event, Tag, TagEnd};

use super::scan::{Kind, TextKind, Token};
use super::tree::Tree;

/// A word of the page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PageWord {
    /// The characters, with character references read.
    pub(crate) text: String,
    /// Where it starts in the page's text.
    pub(crate) start: usize,
    /// Where it ends.
    pub(crate) end: usize,
    /// Whether it lies in one text token (no markup inside it).
    pub(crate) tight: bool,
    /// The element that holds its first character.
    pub(crate) element: usize,
}

/// Elements that do not end a word: phrase and formatting elements.
const PHRASE: &[&str] = &[
    "a", "abbr", "acronym", "b", "bdi", "bdo", "big", "cite", "code", "data", "del", "dfn", "em",
    "font", "i", "ins", "kbd", "label", "mark", "nobr", "q", "s", "samp", "small", "span",
    "strike", "strong", "sub", "sup", "time", "tt", "u", "var",
];

/// Whether an element named `name` is a phrase element (it does not end a
/// word).
pub(crate) fn is_phrase(name: &str) -> bool {
    PHRASE.contains(&name)
}

/// Elements whose text no reader sees in the body.
const HIDDEN: &[&str] = &["head", "title", "template", "script", "style"];

/// The page's words, in order.
pub(crate) fn page_words(text: &str, tokens: &[Token], tree: &Tree) -> Vec<PageWord> {
    let mut hidden = vec![false; tree.elements.len()];
    for (i, e) in tree.elements.iter().enumerate() {
        let up = hidden.get(e.parent).copied().unwrap_or(false) && e.parent != i;
        if let Some(h) = hidden.get_mut(i) {
            *h = up || HIDDEN.contains(&e.name.as_str());
        }
    }
    let mut out = Vec::new();
    let mut word: Option<PageWord> = None;
    let mut token_of_word = usize::MAX;
    for (t, token) in tokens.iter().enumerate() {
        let parent = tree.parent_of.get(t).copied().unwrap_or(0);
        match token.kind {
            Kind::Text(TextKind::Data | TextKind::Rcdata | TextKind::Cdata)
                if !hidden.get(parent).copied().unwrap_or(true) =>
            {
                let (from, to) = if token.kind == Kind::Text(TextKind::Cdata) {
                    (
                        token.start + 9,
                        token.end.saturating_sub(3).max(token.start + 9),
                    )
                } else {
                    (token.start, token.end)
                };
                for (c, a, b) in visible_chars(text, from, to) {
                    if is_space(&c) {
                        out.extend(word.take());
                        continue;
                    }
                    match &mut word {
                        Some(w) => {
                            w.text.push_str(&c);
                            w.end = b;
                            w.tight &= token_of_word == t;
                        }
                        None => {
                            word = Some(PageWord {
                                text: c.into_owned(),
                                start: a,
                                end: b,
                                tight: true,
                                element: parent,
                            });
                            token_of_word = t;
                        }
                    }
                }
            }
            Kind::Start { .. } | Kind::End if is_phrase(&token.name) => {}
            Kind::Comment => {}
            _ => out.extend(word.take()),
        }
    }
    out.extend(word);
    out
}

/// Whether `c` ends a word, on both sides: white space, but not a
/// no-break space (which holds its words together).
fn ends_word(c: char) -> bool {
    c.is_whitespace() && c != '\u{a0}'
}

fn is_space(c: &str) -> bool {
    c.chars().all(ends_word)
}

/// Where the `n`th character a reader sees of `source` (a page word's
/// text, which may hold phrase tags and comments) starts; the end of the
/// source for `n` past its last character. A character reference counts
/// as the characters it stands for, and a place inside one is `None`.
pub(crate) fn source_offset(source: &str, n: usize) -> Option<usize> {
    let mut seen = 0;
    let mut i = 0;
    while seen < n {
        let rest = source.get(i..)?;
        let c = rest.chars().next()?;
        if c == '<' {
            let close = if rest.starts_with("<!--") { "-->" } else { ">" };
            i += rest.find(close)? + close.len();
            continue;
        }
        let (count, len) = match char_ref(rest).filter(|_| c == '&') {
            Some((value, len)) => (value.chars().count(), len),
            None => (1, c.len_utf8()),
        };
        if seen + count > n {
            return None;
        }
        seen += count;
        i += len;
    }
    Some(i)
}

/// The characters a reader sees in `text[from..to]`, character references
/// read (seed 001 §8.2.4.2 "consume a character reference"): each as the
/// string it stands for and the range it was read from.
fn visible_chars(
    text: &str,
    from: usize,
    to: usize,
) -> impl Iterator<Item = (Cow<'_, str>, usize, usize)> {
    let s = text.get(from..to).unwrap_or_default();
    let mut i = 0;
    std::iter::from_fn(move || {
        let rest = s.get(i..)?;
        let c = rest.chars().next()?;
        let at = from + i;
        if c == '&'
            && let Some((value, len)) = char_ref(rest)
        {
            i += len;
            return Some((Cow::Owned(value), at, at + len));
        }
        i += c.len_utf8();
        Some((
            Cow::Borrowed(rest.get(..c.len_utf8()).unwrap_or_default()),
            at,
            at + c.len_utf8(),
        ))
    })
}

/// The character reference at the start of `s` (which starts with `&`):
/// what it stands for and its length, or `None` when it is not one.
pub(crate) fn char_ref(s: &str) -> Option<(String, usize)> {
    let rest = s.get(1..)?;
    if let Some(num) = rest.strip_prefix('#') {
        let (hex, digits) = match num.strip_prefix(['x', 'X']) {
            Some(h) => (true, h),
            None => (false, num),
        };
        let n = digits
            .bytes()
            .take_while(|b| {
                if hex {
                    b.is_ascii_hexdigit()
                } else {
                    b.is_ascii_digit()
                }
            })
            .count();
        if n == 0 {
            return None;
        }
        let value = digits.get(..n).map_or(0, |d| {
            u32::from_str_radix(d, if hex { 16 } else { 10 }).unwrap_or(u32::MAX)
        });
        let semi = usize::from(digits.as_bytes().get(n) == Some(&b';'));
        let len = 2 + usize::from(hex) + n + semi;
        return Some((numeric(value).to_string(), len));
    }
    // Named: the longest name in the table (names without `;` are the
    // legacy ones the table holds too).
    let mut best = None;
    for (i, c) in rest.char_indices() {
        if !(c.is_ascii_alphanumeric() || c == ';') || i > 40 {
            break;
        }
        let end = i + c.len_utf8();
        let name = rest.get(..end).unwrap_or_default();
        match html5ever::data::NAMED_ENTITIES.get(name) {
            Some(&(0, _)) => {}
            Some(&(a, b)) => best = Some((a, b, end)),
            None => break,
        }
        if c == ';' {
            break;
        }
    }
    let (a, b, len) = best?;
    let mut value: String = char::from_u32(a).into_iter().collect();
    if b != 0 {
        value.extend(char::from_u32(b));
    }
    Some((value, 1 + len))
}

/// A numeric reference's character (§8.2.4.2: 0, surrogates and values past
/// U+10FFFF are U+FFFD; 0x80 to 0x9F are read as windows-1252).
fn numeric(n: u32) -> char {
    const C1: [u16; 32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160,
        0x2039, 0x0152, 0x8D, 0x017D, 0x8F, 0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013,
        0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
    ];
    let n = match n {
        0x80..=0x9F => C1.get((n - 0x80) as usize).map_or(n, |&c| u32::from(c)),
        _ => n,
    };
    match n {
        0 => '\u{FFFD}',
        _ => char::from_u32(n).unwrap_or('\u{FFFD}'),
    }
}

/// The words of a document's body, each with its top-level block.
pub(crate) fn doc_words(doc: &Document) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut depth = 0usize;
    let mut block = 0usize;
    let mut image = 0usize;
    let flush = |word: &mut String, block: usize, out: &mut Vec<(String, usize)>| {
        if !word.is_empty() {
            out.push((std::mem::take(word), block));
        }
    };
    for (event, _) in doc.events() {
        match event {
            Event::Start(tag) => {
                if depth == 0 {
                    flush(&mut word, block, &mut out);
                }
                depth += 1;
                match tag {
                    Tag::Emphasis
                    | Tag::Strong
                    | Tag::Code
                    | Tag::Superscript
                    | Tag::Subscript
                    | Tag::Link { .. } => {}
                    Tag::Image { .. } => {
                        image += 1;
                        flush(&mut word, block, &mut out);
                    }
                    _ => flush(&mut word, block, &mut out),
                }
            }
            Event::End(end) => {
                depth = depth.saturating_sub(1);
                match end {
                    TagEnd::Emphasis
                    | TagEnd::Strong
                    | TagEnd::Code
                    | TagEnd::Superscript
                    | TagEnd::Subscript
                    | TagEnd::Link => {}
                    TagEnd::Image => image = image.saturating_sub(1),
                    _ => flush(&mut word, block, &mut out),
                }
                if depth == 0 {
                    flush(&mut word, block, &mut out);
                    block += 1;
                }
            }
            Event::Rule => {
                flush(&mut word, block, &mut out);
                if depth == 0 {
                    block += 1;
                }
            }
            Event::LineBreak | Event::HardBreak => flush(&mut word, block, &mut out),
            Event::Text(t) | Event::Email(t) if image == 0 => {
                for piece in t.split_inclusive(ends_word) {
                    let trimmed = piece.trim_end_matches(ends_word);
                    word.push_str(trimmed);
                    if trimmed.len() != piece.len() {
                        flush(&mut word, block, &mut out);
                    }
                }
            }
            Event::Text(_) | Event::Email(_) => {}
        }
    }
    flush(&mut word, block, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::super::{scan::scan, tree::build};
    use super::*;

    fn page(p: &str) -> Vec<(String, &str, bool)> {
        let tokens = scan(p);
        let tree = build(&tokens, p.len());
        page_words(p, &tokens, &tree)
            .into_iter()
            .map(|w| (w.text, &p[w.start..w.end], w.tight))
            .collect()
    }

    #[test]
    fn the_page_reads_as_a_browser_lays_it_out() {
        let got = page(
            "<title>no</title><p>AT&amp;T H<sub>2</sub>O&nbsp;x<br>y<script>z</script></p><td>a</td><td>b",
        );
        let words: Vec<&str> = got.iter().map(|g| g.0.as_str()).collect();
        assert_eq!(words, ["AT&T", "H2O\u{a0}x", "y", "a", "b"]);
        assert_eq!(got[0].1, "AT&amp;T");
        assert!(got[0].2 && !got[1].2);
    }

    #[test]
    fn character_references_as_the_tokenizer_reads_them() {
        assert_eq!(char_ref("&amp;x"), Some(("&".to_owned(), 5)));
        assert_eq!(char_ref("&ampx"), Some(("&".to_owned(), 4)));
        assert_eq!(char_ref("&notin;"), Some(("∉".to_owned(), 7)));
        assert_eq!(char_ref("&noti"), Some(("¬".to_owned(), 4)));
        assert_eq!(char_ref("&#x41;"), Some(("A".to_owned(), 6)));
        assert_eq!(char_ref("&#150"), Some(("–".to_owned(), 5)));
        assert_eq!(char_ref("&#0;"), Some(("\u{FFFD}".to_owned(), 4)));
        assert_eq!(char_ref("&bogus;"), None);
        assert_eq!(char_ref("& x"), None);
    }

    #[test]
    fn a_document_s_words_by_top_level_block() {
        let doc = wikitext::parse(
            "\n= Head line =\n\nSome _emph_ asis\nand *more*.\n\n----\n\n  * item one\n  * two\n",
        )
        .document;
        let got = doc_words(&doc);
        assert_eq!(
            got,
            [
                ("Head".to_owned(), 0),
                ("line".to_owned(), 0),
                ("Some".to_owned(), 1),
                ("emph".to_owned(), 1),
                ("asis".to_owned(), 1),
                ("and".to_owned(), 1),
                ("more.".to_owned(), 1),
                ("item".to_owned(), 3),
                ("one".to_owned(), 3),
                ("two".to_owned(), 3),
            ]
        );
    }
}
