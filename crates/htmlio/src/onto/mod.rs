//! Writing an edited text back onto the page it was read from, so that a
//! save changes only what was edited: [`onto`].
//!
//! The text format holds what a reader sees of a page, not its template:
//! classes, styles, scripts, the navigation around the content. A save
//! that wrote the text as a new document would lose all of that. Instead:
//!
//! 1. the page is read again as [`to_text`](crate::to_text) reads it; when
//!    the edited text is that text (or parses to the same document), the
//!    page's bytes are the answer, exactly;
//! 2. the page is cut into tokens with their spans (`scan`: the tokenizer's
//!    states, as far as where each token starts and ends), and its elements
//!    found (`tree`: the tree builder's implied end tags);
//! 3. the words of the text read from the page are lined up with the words
//!    the page shows (`words`, `place`), which gives each top-level block
//!    its range on the page and, where one holds it alone, its element;
//! 4. the old blocks are diffed against the edited ones, and each change
//!    becomes a patch of the page's text (`write`); so do the header's
//!    lines, in the head (`head`);
//! 5. the patches are applied to the page's bytes: everything between them
//!    is copied as it was, and new text is written in the page's encoding,
//!    with a character reference for each character it lacks (`bytes`).
//!
//! ```
//! let page = b"<!DOCTYPE html>\n<html><head><title>T</title><link rel=stylesheet href=s.css></head>\n\
//!     <body class=x>\n<nav class=menu><a href=/>Home</a></nav>\n\
//!     <p class=lead style=\"color:red\">A first paragraph.</p>\n<p>A second one.</p>\n</body></html>\n";
//! let read = htmlio::to_text(page, &Default::default());
//! // No edit: the page itself.
//! let same = htmlio::onto::onto(page, &read.text, &Default::default());
//! assert_eq!(same.bytes, page.to_vec());
//! assert!(same.changes.is_empty());
//! // One word: only that word's bytes change.
//! let edited = read.text.replace("first", "very first");
//! let saved = htmlio::onto::onto(page, &edited, &Default::default());
//! let want = String::from_utf8_lossy(page).replace("A first", "A very first");
//! assert_eq!(String::from_utf8_lossy(&saved.bytes), want);
//! assert_eq!(saved.changes.len(), 1);
//! ```

mod bytes;
mod head;
mod items;
mod page;
mod place;
mod scan;
mod tree;
mod words;
mod write;

use std::ops::Range;

use encoding_rs::Encoding;
use wikitext::{DiagnosticCode, Precision, Severity};

use crate::TextOptions;
use crate::emit::Syntax;

/// What an onto diagnostic is about. Each code has a stable kebab-case name
/// ([`Code::as_str`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Code {
    /// A changed header line could not be written into the page's head
    /// (no element of its own there, no head, no `<html>` start tag).
    HeaderNotWritten,
    /// An edited block has no element of its own on the page (its text
    /// shares one with other text): its text was written over the old one.
    TextRewritten,
    /// An edited or deleted block could not be found on the page.
    NotPlaced,
    /// The edits could not be placed apart from each other: the body's
    /// content was written again from the text.
    BodyRewritten,
}

impl Code {
    /// The code's stable name.
    pub fn as_str(&self) -> &'static str {
        match self {
            Code::HeaderNotWritten => "header-not-written",
            Code::TextRewritten => "text-rewritten",
            Code::NotPlaced => "not-placed",
            Code::BodyRewritten => "body-rewritten",
        }
    }
}

impl DiagnosticCode for Code {
    /// Onto's diagnostics say what happened, not where in the text.
    const PRECISION: Precision = Precision::Line;

    fn as_str(&self) -> &'static str {
        Code::as_str(self)
    }
}

/// One thing [`onto`] has to say: the text format's diagnostic shape with
/// an onto [`Code`].
pub type Diagnostic = wikitext::Diagnostic<Code>;

/// One change of the page's bytes: the range of the page replaced, and the
/// range of the result that replaced it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// The bytes of the page that were replaced.
    pub page: Range<usize>,
    /// The bytes of the result that stand in their place.
    pub result: Range<usize>,
}

/// A text written onto its page.
#[derive(Debug, Clone)]
pub struct Onto {
    /// The page with the edit: its bytes where nothing was edited.
    pub bytes: Vec<u8>,
    /// The page's encoding, which the result keeps.
    pub encoding: &'static Encoding,
    /// What changed, in order; empty when the page is given back as it was.
    pub changes: Vec<Change>,
    /// What could not be written as asked.
    pub diagnostics: Vec<Diagnostic>,
    /// The parser's diagnostics of the edited text.
    pub parsed: Vec<wikitext::Diagnostic>,
}

/// Writes `text`, a text read from `page` with `options` and edited, onto
/// `page`: the page's bytes where nothing was edited, the edit where it
/// was (see the module docs). Never fails; what cannot be placed is
/// written as near its place as can be, with a diagnostic.
pub fn onto(page: &[u8], text: &str, options: &TextOptions<'_>) -> Onto {
    let read = crate::to_text(page, options);
    let encoding = read.encoding.encoding;
    let parsed = wikitext::parse(text);
    let unchanged = |parsed: Vec<wikitext::Diagnostic>| Onto {
        bytes: page.to_vec(),
        encoding,
        changes: Vec::new(),
        diagnostics: Vec::new(),
        parsed,
    };
    if text == read.text {
        return unchanged(parsed.diagnostics);
    }
    let old = wikitext::parse(&read.text).document;
    if old == parsed.document {
        return unchanged(parsed.diagnostics);
    }
    let decoded = bytes::Decoded::new(page, encoding);
    let tokens = scan::scan(&decoded.text);
    let tree = tree::build(&tokens, decoded.text.len());
    let page_words = words::page_words(&decoded.text, &tokens, &tree);
    let old_words = words::doc_words(&old);
    let matched = place::line_up(&old_words, &page_words);
    let places = place::places(&old.body, &old_words, &matched, &page_words, &tree);
    let mut writer = write::Writer::new(
        page::Page {
            text: &decoded.text,
            tree: &tree,
            words: &page_words,
            syntax: syntax_of(&decoded.text, &tokens),
        },
        write::Texts {
            old: &old,
            new: &parsed.document,
            words: &old_words,
            matched: &matched,
            places: &places,
        },
    );
    writer.header();
    writer.body();
    let mut diagnostics = std::mem::take(&mut writer.diagnostics);
    let mut patches = std::mem::take(&mut writer.patches);
    drop(writer);
    patches.sort_by_key(|p| (p.start, p.end));
    if patches.windows(2).any(|w| w[1].start < w[0].end) {
        patches = body_rewritten(&tree, &decoded.text, &parsed.document, &tokens);
        diagnostics.push(Diagnostic::at_line(
            Code::BodyRewritten,
            Severity::Warning,
            0,
            "the edits overlap on the page: the body's content was written again from the text \
             (its head, and the start and end of its body, are kept)",
        ));
    }
    let guessed = read.encoding.confidence == sniff::Confidence::Tentative;
    let (bytes, changes) = apply(page, &decoded, &patches, guessed);
    Onto {
        bytes,
        encoding,
        changes,
        diagnostics,
        parsed: parsed.diagnostics,
    }
}

/// The patch that writes the whole body's content again, for edits that
/// cannot be placed apart.
fn body_rewritten(
    tree: &tree::Tree,
    text: &str,
    doc: &wikitext::Document,
    tokens: &[scan::Token],
) -> Vec<page::Patch> {
    let body = tree.elements.iter().find(|e| e.name == "body");
    let (start, end) = body.map_or((0, text.len()), |b| (b.open_end, b.close_start));
    let with = write::markup(&doc.meta, &doc.body, syntax_of(text, tokens));
    vec![page::Patch {
        start,
        end,
        with: format!("\n{with}\n"),
    }]
}

/// The syntax of the page: XHTML when it says so (an XML declaration, the
/// XHTML namespace or an XHTML DOCTYPE), the HTML syntax otherwise.
fn syntax_of(text: &str, tokens: &[scan::Token]) -> Syntax {
    let xhtml = tokens.iter().take(8).any(|t| {
        let s = text.get(t.start..t.end).unwrap_or_default();
        match t.kind {
            scan::Kind::Comment => s.starts_with("<?xml"),
            scan::Kind::Doctype => s.to_ascii_lowercase().contains("xhtml"),
            scan::Kind::Start { .. } => {
                t.name == "html" && s.contains("http://www.w3.org/1999/xhtml")
            }
            _ => false,
        }
    });
    if xhtml {
        Syntax::Xhtml
    } else {
        Syntax::Html {
            omit_optional_tags: false,
        }
    }
}

/// The page's bytes with `patches` (sorted, apart) applied: the bytes
/// between them copied, each replacement in the page's encoding (only
/// ASCII, the rest as references, with `ascii`: see `Decoded::encode`).
fn apply(
    page: &[u8],
    decoded: &bytes::Decoded,
    patches: &[page::Patch],
    ascii: bool,
) -> (Vec<u8>, Vec<Change>) {
    let mut out = Vec::with_capacity(page.len() + 64);
    let mut changes: Vec<Change> = Vec::new();
    let mut copied = 0;
    for p in patches {
        let start = decoded.byte_at(p.start).max(copied);
        let end = decoded.byte_at(p.end).max(start);
        out.extend_from_slice(page.get(copied..start).unwrap_or_default());
        let from = out.len();
        out.extend_from_slice(&decoded.encode(&p.with, ascii));
        let change = Change {
            page: start..end,
            result: from..out.len(),
        };
        // Replacements that touch are one change.
        match changes.last_mut() {
            Some(last) if last.page.end == start => {
                last.page.end = end;
                last.result.end = out.len();
            }
            _ if change.page.is_empty() && change.result.is_empty() => {}
            _ => changes.push(change),
        }
        copied = end;
    }
    out.extend_from_slice(page.get(copied..).unwrap_or_default());
    (out, changes)
}

#[cfg(test)]
mod tests;
