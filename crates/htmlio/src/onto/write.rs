//! What a save writes: the patches that turn the page into the page of the
//! edited text. A block that did not change keeps its bytes; a block whose
//! words changed but not its markup gets only those words replaced; a
//! block changed beyond its words is written inside its own element (its
//! start tag kept) when it is the same kind of block, in place of its
//! element otherwise; a new block goes beside its neighbour, in the page's
//! syntax; a deleted block's element goes, with its line.

use std::ops::Range;

use similar::DiffTag;
use wikitext::events::Event;
use wikitext::{Block, Document, Metadata, Severity};

use super::page::{Page, Patch};
use super::place::{Place, diff, fits};
use super::words::PageWord;
use super::{Code, Diagnostic};
use crate::emit::{self, EmitOptions, Syntax};

/// The two texts, and where the old one's blocks and words lie.
pub(crate) struct Texts<'a> {
    /// The text read from the page.
    pub(crate) old: &'a Document,
    /// The edited text.
    pub(crate) new: &'a Document,
    /// The old text's words, with their blocks.
    pub(crate) words: &'a [(String, usize)],
    /// For each old word, the page word it lines up with.
    pub(crate) matched: &'a [Option<usize>],
    /// Where each old block lies.
    pub(crate) places: &'a [Option<Place>],
}

/// Collects the patches of one save.
pub(crate) struct Writer<'a> {
    page: Page<'a>,
    texts: Texts<'a>,
    /// For each old block, the range of its words in `texts.words`.
    block_words: Vec<Range<usize>>,
    /// Where each old block lies: `texts.places`, and for a block without
    /// words (a rule, an image) the element of its kind between its
    /// neighbours.
    placed: Vec<Option<Place>>,
    pub(crate) patches: Vec<Patch>,
    pub(crate) diagnostics: Vec<Diagnostic>,
}

impl<'a> Writer<'a> {
    /// A writer for `texts` onto `page`.
    pub(crate) fn new(page: Page<'a>, texts: Texts<'a>) -> Writer<'a> {
        let mut block_words = vec![0..0; texts.old.body.len()];
        for (i, (_, b)) in texts.words.iter().enumerate() {
            if let Some(r) = block_words.get_mut(*b) {
                if r.start == r.end {
                    *r = i..i + 1;
                } else {
                    r.end = i + 1;
                }
            }
        }
        let placed = wordless(&page, &texts);
        Writer {
            page,
            texts,
            block_words,
            placed,
            patches: Vec::new(),
            diagnostics: Vec::new(),
        }
    }

    /// The header's lines, written into the page's head (`head.rs`).
    pub(crate) fn header(&mut self) {
        let (patches, diagnostics) =
            super::head::header(&self.page, &self.texts.old.meta, &self.texts.new.meta);
        self.patches.extend(patches);
        self.diagnostics.extend(diagnostics);
    }

    /// The body: the old blocks diffed against the new ones.
    pub(crate) fn body(&mut self) {
        let (old, new) = (&self.texts.old.body, &self.texts.new.body);
        for op in diff(old, new) {
            // Pairs in order, then what is left over deleted or inserted.
            let (gone, come) = (op.old_range(), op.new_range());
            if op.tag() == DiffTag::Equal {
                continue;
            }
            let pairs = gone.len().min(come.len());
            for k in 0..pairs {
                self.replace(gone.start + k, come.start + k);
            }
            (gone.start + pairs..gone.end).for_each(|b| self.delete(b));
            if come.len() > pairs {
                self.insert(gone.start + pairs, come.start + pairs..come.end);
            }
        }
    }

    /// Old block `b` became new block `c`.
    fn replace(&mut self, b: usize, c: usize) {
        let (Some(old), Some(new)) = (self.texts.old.body.get(b), self.texts.new.body.get(c))
        else {
            return;
        };
        if same_shape(old, new)
            && let Some(patches) = self.words_patch(b, new)
        {
            self.patches.extend(patches);
            return;
        }
        let place = self.placed.get(b).cloned().flatten();
        let markup = self.markup(std::slice::from_ref(new));
        match place {
            Some(Place {
                element: Some(e), ..
            }) => {
                let Some(el) = self.page.tree.elements.get(e) else {
                    return;
                };
                let (start, open_end, close_start, end) =
                    (el.start, el.open_end, el.close_start, el.end);
                let same_kind = std::mem::discriminant(old) == std::mem::discriminant(new)
                    && fits(new, &el.name)
                    && heading_level(old) == heading_level(new);
                let markup_of = |blocks: &[Block]| self.markup(blocks);
                if same_kind
                    && let Some(patches) = super::items::items(&self.page, e, old, new, &markup_of)
                {
                    self.patches.extend(patches);
                    return;
                }
                match inner(&markup).filter(|_| same_kind) {
                    Some(inside) => self.patch(open_end, close_start, inside.to_owned()),
                    None => self.patch(start, end, markup),
                }
            }
            Some(Place {
                words,
                element: None,
            }) => {
                self.diagnostics.push(Diagnostic::at_line(
                    Code::TextRewritten,
                    Severity::Info,
                    0,
                    "an edited block has no element of its own on the page: its text is \
                     written over the old one's",
                ));
                // Text over text stays inline, as the old words were;
                // anything else is a block of its own (bare text where a
                // list was would join a paragraph left open before it).
                let text = |b: &Block| matches!(b, Block::Paragraph { .. } | Block::Text { .. });
                let with = if text(old) && text(new) {
                    inner(&markup).unwrap_or(&markup).to_owned()
                } else {
                    markup
                };
                self.patch(words.start, words.end, with);
            }
            None => self.unplaced(b, c..c + 1),
        }
    }

    /// The patches that replace only the words of old block `b` that
    /// changed, when each change lies in text with no markup inside it.
    fn words_patch(&self, b: usize, new: &Block) -> Option<Vec<Patch>> {
        let range = self.block_words.get(b)?.clone();
        let old_words = self.texts.words.get(range.clone())?;
        let new_doc = Document::new(Metadata::default(), vec![new.clone()]);
        let new_words = super::words::doc_words(&new_doc);
        let a: Vec<&str> = old_words.iter().map(|(w, _)| w.as_str()).collect();
        let n: Vec<&str> = new_words.iter().map(|(w, _)| w.as_str()).collect();
        let page_word = |i: usize| -> Option<&PageWord> {
            let m = self.texts.matched.get(range.start + i).copied().flatten()?;
            self.page.words.get(m)
        };
        let mut out = Vec::new();
        for op in diff(&a, &n) {
            if op.tag() == DiffTag::Equal {
                continue;
            }
            let (old, new) = (op.old_range(), op.new_range());
            if old.len() == new.len() && !old.is_empty() {
                // Word for word: each word's changed characters alone.
                for (o, w) in old.clone().zip(new.clone()) {
                    let pw = page_word(o)?;
                    out.push(self.in_word(pw, a.get(o)?, n.get(w)?)?);
                }
                continue;
            }
            let words: Vec<&str> = n.get(new.clone())?.to_vec();
            let mut with = String::new();
            self.escape(&mut with, &words.join(" "));
            let (start, end) = if old.is_empty() {
                // Inserted words: after the word before, or before the next.
                if old.start > 0 {
                    let w = page_word(old.start - 1)?;
                    with.insert(0, ' ');
                    (w.end, w.end)
                } else {
                    let w = page_word(0)?;
                    with.push(' ');
                    (w.start, w.start)
                }
            } else if new.is_empty() {
                // Deleted words, with the space before them (or after).
                let last = page_word(old.end - 1)?;
                if old.start > 0 {
                    (page_word(old.start - 1)?.end, last.end)
                } else {
                    (page_word(0)?.start, page_word(old.end)?.start)
                }
            } else {
                (page_word(old.start)?.start, page_word(old.end - 1)?.end)
            };
            // The words replaced must lie in one stretch of text, with the
            // page words between them all lined up.
            let text = self.page.text.get(start..end)?;
            if text.contains('<') {
                return None;
            }
            out.push(Patch { start, end, with });
        }
        Some(out)
    }

    /// The patch that turns page word `pw`, read as `old`, into `new`: the
    /// characters between their common start and end, found in the page's
    /// text past the phrase tags and comments inside the word. `None` when
    /// those characters are not in one stretch of text.
    fn in_word(&self, pw: &PageWord, old: &str, new: &str) -> Option<Patch> {
        let (old, new) = trim_to_page(&pw.text, old, new)?;
        let prefix = old
            .chars()
            .zip(new.chars())
            .take_while(|(a, b)| a == b)
            .count();
        let old_rest: Vec<char> = old.chars().skip(prefix).collect();
        let new_rest: Vec<char> = new.chars().skip(prefix).collect();
        let suffix = old_rest
            .iter()
            .rev()
            .zip(new_rest.iter().rev())
            .take_while(|(a, b)| a == b)
            .count();
        let changed = old_rest.len() - suffix;
        let source = self.page.text.get(pw.start..pw.end)?;
        let start = pw.start + super::words::source_offset(source, prefix)?;
        let end = pw.start + super::words::source_offset(source, prefix + changed)?;
        let text = self.page.text.get(start..end)?;
        if text.contains('<') {
            return None;
        }
        let mut with = String::new();
        let middle: String = new_rest.get(..new_rest.len() - suffix)?.iter().collect();
        self.escape(&mut with, &middle);
        Some(Patch { start, end, with })
    }

    /// Old block `b` was deleted.
    fn delete(&mut self, b: usize) {
        match self.outer(b) {
            Some(r) => {
                let r = self.page.whole_lines(r);
                self.patch(r.start, r.end, String::new());
            }
            None => self.unplaced(b, 0..0),
        }
    }

    /// New blocks `new` were inserted before old block `at`.
    fn insert(&mut self, at: usize, new: Range<usize>) {
        let Some(blocks) = self.texts.new.body.get(new) else {
            return;
        };
        let markup = self.markup(blocks);
        let nl = self.page.newline();
        if let Some(prev) = at.checked_sub(1).and_then(|p| self.outer(p)) {
            let indent = self.page.indent(prev.start);
            let with = format!("{nl}{indent}{}", self.page.lay_out(&markup, indent));
            self.patch(prev.end, prev.end, with);
        } else if let Some(next) = self.outer(at) {
            let indent = self.page.indent(next.start);
            let with = format!("{}{nl}{indent}", self.page.lay_out(&markup, indent));
            self.patch(next.start, next.start, with);
        } else {
            let tree = self.page.tree;
            let end = tree
                .elements
                .iter()
                .find(|e| e.name == "body")
                .map_or(self.page.text.len(), |b| b.close_start);
            self.patch(end, end, format!("{markup}\n"));
        }
    }

    /// An old block whose place on the page is not known: its new form is
    /// written where the blocks around it leave room, with a warning.
    fn unplaced(&mut self, b: usize, new: Range<usize>) {
        self.diagnostics.push(Diagnostic::at_line(
            Code::NotPlaced,
            Severity::Warning,
            0,
            "an edited block could not be found on the page (none of its words are the page's): \
             its new form is written after the block before it, and the old one is left",
        ));
        if !new.is_empty() {
            self.insert(b + 1, new);
        }
    }

    /// The range old block `b` takes on the page: its element's, or its
    /// words'.
    fn outer(&self, b: usize) -> Option<Range<usize>> {
        match self.placed.get(b).cloned().flatten()? {
            Place {
                element: Some(e), ..
            } => self.page.tree.elements.get(e).map(|el| el.start..el.end),
            Place { words, .. } => Some(words),
        }
    }

    /// `blocks` as markup in the page's syntax, one after the other.
    fn markup(&self, blocks: &[Block]) -> String {
        markup(&self.texts.new.meta, blocks, self.page.syntax)
    }

    fn escape(&self, out: &mut String, s: &str) {
        self.page.escape(out, s);
    }

    fn patch(&mut self, start: usize, end: usize, with: String) {
        self.patches.push(Patch { start, end, with });
    }
}

/// `old` and `new` without the punctuation at their ends that the page's
/// word `page` does not have (the text's quotes for a `q` element), when
/// what is left of `old` is the page's word.
fn trim_to_page<'s>(page: &str, old: &'s str, new: &'s str) -> Option<(&'s str, &'s str)> {
    if page == old {
        return Some((old, new));
    }
    let lead = old.len() - old.trim_start_matches(|c: char| !c.is_alphanumeric()).len();
    let trail = old.len() - old.trim_end_matches(|c: char| !c.is_alphanumeric()).len();
    let (old_lead, new_lead) = (old.get(..lead)?, new.get(..lead)?);
    let (old_trail, new_trail) = (
        old.get(old.len() - trail..)?,
        new.get(new.len().checked_sub(trail)?..)?,
    );
    let cut_lead = if page.starts_with(old_lead) || old_lead != new_lead {
        0
    } else {
        lead
    };
    let cut_trail = if page.ends_with(old_trail) || old_trail != new_trail {
        0
    } else {
        trail
    };
    let old = old.get(cut_lead..old.len() - cut_trail)?;
    let new = new.get(cut_lead..new.len().checked_sub(cut_trail)?)?;
    (old == page).then_some((old, new))
}

/// `texts.places`, with each block without words (a rule, an image)
/// placed on an element of its kind between the blocks around it: the
/// first such element after the block before for the first such block, the
/// second for the second, and so on.
fn wordless(page: &Page<'_>, texts: &Texts<'_>) -> Vec<Option<Place>> {
    let places = texts.places;
    let blocks = &texts.old.body;
    let mut out = places.to_vec();
    let mut prev_end = 0;
    let mut taken: Vec<usize> = Vec::new();
    for (b, block) in blocks.iter().enumerate() {
        if let Some(Some(place)) = places.get(b) {
            prev_end = place.words.end;
            taken.clear();
            continue;
        }
        let to = places
            .get(b + 1..)
            .and_then(|p| p.iter().flatten().next())
            .map_or(page.text.len(), |p| p.words.start);
        let found = page.tree.elements.iter().enumerate().find(|(i, e)| {
            e.start >= prev_end
                && e.end <= to
                && fits(block, &e.name)
                && !taken.contains(i)
                && !taken.iter().any(|&t| {
                    page.tree
                        .elements
                        .get(t)
                        .is_some_and(|t| t.start <= e.start && e.end <= t.end)
                })
        });
        if let (Some((i, e)), Some(slot)) = (found, out.get_mut(b)) {
            taken.push(i);
            *slot = Some(Place {
                words: e.start..e.end,
                element: Some(i),
            });
        }
    }
    out
}

/// The content of one element's markup: what lies between its start tag
/// and its end tag.
fn inner(markup: &str) -> Option<&str> {
    let open = markup.find('>')? + 1;
    let close = markup.rfind("</")?;
    (close >= open && !markup.get(..open)?.ends_with("/>")).then(|| markup.get(open..close))?
}

fn heading_level(block: &Block) -> u8 {
    match block {
        Block::Heading { level, .. } => *level,
        _ => 0,
    }
}

/// Whether two blocks differ only in their words: the same elements,
/// links and images in the same order, text anywhere between them.
pub(crate) fn same_shape(a: &Block, b: &Block) -> bool {
    fn shape(block: &Block) -> Vec<String> {
        let doc = Document::new(Metadata::default(), vec![block.clone()]);
        let mut out: Vec<String> = Vec::new();
        for (event, _) in doc.events() {
            match event {
                Event::Text(_) | Event::LineBreak => {
                    if out.last().is_none_or(|l| l != "text") {
                        out.push("text".to_owned());
                    }
                }
                other => out.push(format!("{other:?}")),
            }
        }
        out
    }
    shape(a) == shape(b)
}

/// `blocks` as markup in `syntax`, one after the other: the body of the
/// document they make under `meta`'s declarations (the head left out).
pub(crate) fn markup(meta: &Metadata, blocks: &[Block], syntax: Syntax) -> String {
    let meta = Metadata {
        title: None,
        lang: None,
        metas: Vec::new(),
        links: Vec::new(),
        ..meta.clone()
    };
    let doc = Document::new(meta, blocks.to_vec());
    let options = EmitOptions {
        syntax,
        tables: true,
        ..EmitOptions::default()
    };
    let text = emit::emit(&doc, &options).text;
    let start = text.find("<body>").map_or(0, |i| i + "<body>".len());
    let end = text.rfind("</body>").unwrap_or(text.len()).max(start);
    text.get(start..end)
        .unwrap_or_default()
        .trim_matches('\n')
        .to_owned()
}
