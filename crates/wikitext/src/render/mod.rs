//! The renderer: a document the format holds, turned into text in the
//! canonical layout (see the crate documentation), with a mark for each
//! top-level block whose lines could read as something else.
//!
//! `blocks.rs` and `defs.rs` turn blocks into lines, `out.rs` writes the
//! lines with the gaps between them and checks each with the block
//! scanners as it goes, and `spell.rs` spells each inline run: as the seed
//! writes it, or with escapes where it would read back as something else
//! (asking `readback` what a spelling reads as). The renderer decides
//! nothing about what the document holds (that is `canon`'s job) and never
//! reads back a line or a part of its text: it marks the doubtful
//! top-level blocks, and the writer (`write.rs`) has `readback` read them.

use std::cell::Cell;

use crate::grammar::{ESCAPE_DECLARATION, OPEN_DECLARATION, declarations};
use crate::inline::Syntax;
use crate::model::{Block, Document};

mod blocks;
mod defs;
mod layout;
mod out;
mod run;
mod spell;
mod tables;

use blocks::render_blocks;
use layout::Container;
pub(crate) use out::TopMark;
use out::{Need, Out};
pub(crate) use run::render_run;
pub(crate) use spell::Memo;
use spell::{Marks, Spell};

/// A rendered body: the text and a mark per top-level block.
pub(crate) struct Rendered {
    /// The whole text, header included.
    pub(crate) text: String,
    /// Where each top-level block's part starts, and what was noticed.
    pub(crate) tops: Vec<TopMark>,
    /// Whether the text declares `#Escape \\` (the document did, or it
    /// needed an escape).
    pub(crate) escapes: bool,
    /// Whether the text declares `#Extend open`.
    pub(crate) open: bool,
    /// The extensions the text declares that the inline pass reads
    /// (`#Extend image`, `break`, `subsup`; escapes are `escapes`).
    pub(crate) syntax: Syntax,
    /// Whether the text declares `#Extend table`.
    pub(crate) tables: bool,
}

impl Rendered {
    /// The top-level blocks (of `n`) in groups `[i, j)` that are read
    /// together: each block with the blocks glued to it after it.
    pub(crate) fn groups(&self, n: usize) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        let mut i = 0;
        while i < n {
            let mut j = i + 1;
            while self.tops.get(j).is_some_and(|m| m.glued) {
                j += 1;
            }
            out.push((i, j));
            i = j;
        }
        out
    }

    /// The part of the text of the group `[i, j)` of top-level blocks when
    /// a line of it is doubtful; `None` when none is.
    pub(crate) fn suspect_part(&self, i: usize, j: usize) -> Option<&str> {
        let suspect = self
            .tops
            .get(i..j)
            .is_some_and(|g| g.iter().any(|m| m.suspect));
        if !suspect {
            return None;
        }
        let start = self.tops.get(i).map_or(self.text.len(), |m| m.start);
        let end = self.tops.get(j).map_or(self.text.len(), |m| m.start);
        self.text.get(start..end)
    }
}

/// Renders the canonical text of a document, noting the top-level blocks
/// whose lines could read as something else. With `escapes`, runs that
/// would read back as something else are escaped, and so are the doubtful
/// lines of the top-level blocks that `lines` flags; the header declares
/// the extension when that happened or the document declares it already.
/// With `open`, a container that opens with a list, preformatted text or
/// a blockquote is written after a bare opener, and the header declares
/// `#Extend open` (see [`needs_open`]).
///
/// Runs are spelled once per `memo`, which may serve several renderings of
/// the document.
pub(crate) fn render<'d>(
    doc: &'d Document,
    escapes: bool,
    open: bool,
    lines: &[bool],
    memo: &Memo<'d>,
) -> Rendered {
    let marks = Cell::new(Marks::default());
    let spell = if escapes || doc.meta.escape {
        Spell::escaping_once(&marks, memo.spellings())
    } else {
        Spell::seed()
    }
    .with_features(Syntax::of(&doc.meta));
    let mut text = String::with_capacity(4096);
    render_header(doc, &mut text);
    let header_end = text.len().saturating_sub(1);
    let mut out = Out::new(text, spell, lines);
    out.open = open;
    render_blocks(&mut out, &doc.body, Container::BODY);
    out.flush_prefix();
    // The end of the text counts as an empty line: text that had to be
    // followed by none reads differently there.
    if matches!(out.gap.need, Need::NoEmpty | Need::Conflict) {
        out.suspect();
    }
    let Out {
        mut text, mut tops, ..
    } = out;
    let used = marks.get();
    if used.misread {
        // A run that reads back as something else even with escapes: its
        // block is read again (rare; which block is not tracked).
        for mark in &mut tops {
            mark.suspect = true;
        }
    }
    if !doc.meta.escape && !used.escaped && used.doubled {
        // Backslashes were doubled for nothing: pure seed text after all.
        return render(doc, false, open, lines, memo);
    }
    // The declarations the rendering added go last in the header, in the
    // order `render_header` writes them.
    let mut added = String::new();
    if !doc.meta.escape && used.escaped {
        added.push_str(ESCAPE_DECLARATION);
        added.push('\n');
    }
    if !doc.meta.open && open {
        added.push_str(OPEN_DECLARATION);
        added.push('\n');
    }
    if !added.is_empty() {
        // Last, but before an `#Extend open` the document declares (only
        // `#Escape \\` is added then).
        let at = if doc.meta.open {
            header_end.saturating_sub(OPEN_DECLARATION.len() + 1)
        } else {
            header_end
        };
        text.insert_str(at, &added);
        for mark in &mut tops {
            mark.start += added.len();
        }
    }
    Rendered {
        text,
        tops,
        escapes: doc.meta.escape || used.escaped,
        open,
        syntax: Syntax::of(&doc.meta),
        tables: doc.meta.table,
    }
}

/// Whether a document needs `#Extend open` (when it may be written): some
/// list item, blockquote or definition opens with a list, preformatted
/// text or a blockquote, which the seed cannot write. The walk keeps its
/// own stack.
pub(crate) fn needs_open(body: &[Block]) -> bool {
    let mut stack: Vec<&[Block]> = vec![body];
    while let Some(blocks) = stack.pop() {
        for block in blocks {
            match block {
                Block::List { items, .. } => {
                    for item in items {
                        if opens_with_block(&item.content) {
                            return true;
                        }
                        stack.push(&item.content);
                    }
                }
                Block::Blockquote { content, .. } => {
                    if opens_with_block(content) {
                        return true;
                    }
                    stack.push(content);
                }
                Block::DefinitionList { items, .. } => {
                    for item in items {
                        if opens_with_block(&item.definition) {
                            return true;
                        }
                        stack.push(&item.definition);
                    }
                }
                Block::Table { rows, .. } => {
                    for cell in rows.iter().flat_map(|r| &r.cells) {
                        stack.push(&cell.content);
                    }
                }
                Block::Figure { caption, .. } => stack.push(caption),
                _ => {}
            }
        }
    }
    false
}

/// Whether blocks start with a list, preformatted text or a blockquote:
/// what only a bare opener lets a container start with.
pub(crate) fn opens_with_block(blocks: &[Block]) -> bool {
    matches!(
        blocks.first(),
        Some(Block::List { .. } | Block::Preformatted { .. } | Block::Blockquote { .. })
    )
}

fn render_header(doc: &Document, text: &mut String) {
    let meta = &doc.meta;
    if let Some(title) = &meta.title {
        text.push_str(&format!("#Title {title}\n"));
    }
    if let Some(lang) = &meta.lang {
        text.push_str(&format!("#Lang {lang}\n"));
    }
    for m in &meta.metas {
        if m.content.is_empty() {
            text.push_str(&format!("#Meta:{}\n", m.name));
        } else {
            text.push_str(&format!("#Meta:{} {}\n", m.name, m.content));
        }
    }
    for l in &meta.links {
        text.push_str(&format!("#Link:{} {}", l.rel.join(":"), l.href));
        if let Some(title) = &l.title {
            text.push(' ');
            text.push_str(title);
        }
        text.push('\n');
    }
    // The declarations the rendering adds go after these (see `render`).
    for line in declarations(meta) {
        text.push_str(line);
        text.push('\n');
    }
    // The empty line that ends the header (also when there is none).
    text.push('\n');
}

#[cfg(test)]
mod tests {
    use super::layout::bullet;
    use crate::model::{ListKind, Numbering};

    #[test]
    fn bullets() {
        let ord = |n| ListKind::Ordered(n);
        assert_eq!(bullet(ListKind::Unordered, 5), "*");
        assert_eq!(bullet(ord(Numbering::Decimal), 0), "1.");
        assert_eq!(bullet(ord(Numbering::Decimal), 11), "12.");
        assert_eq!(bullet(ord(Numbering::LowerAlpha), 0), "a.");
        assert_eq!(bullet(ord(Numbering::LowerAlpha), 25), "z.");
        assert_eq!(bullet(ord(Numbering::LowerAlpha), 26), "aa.");
        assert_eq!(bullet(ord(Numbering::UpperAlpha), 27), "AB.");
        assert_eq!(bullet(ord(Numbering::UpperAlpha), 702), "AAA.");
    }
}
