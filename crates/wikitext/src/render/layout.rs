//! The layout the blocks share (the canonical layout of the crate
//! documentation): where a container's blocks start, how far a block is
//! indented so that the next line does not continue it, the marks (bullets,
//! rules, heading marks) and the room after them.

use crate::model::{Block, Inline, ListKind, Numbering};

use super::spell::Spell;

/// The last line of a paragraph or text block.
pub(super) fn last_text_line<'s>(block: &'s Block, spell: Spell<'s>) -> Option<String> {
    match block {
        Block::Paragraph { content, .. } | Block::Text { content, .. } => {
            inline_lines(content, spell).pop()
        }
        _ => None,
    }
}

pub(super) fn is_text(block: Option<&Block>) -> bool {
    matches!(block, Some(Block::Paragraph { .. } | Block::Text { .. }))
}

/// Layout of the blocks of one container: for each block, the column of
/// the first line of an indented block that comes right after it (if any).
/// That line must be outdented relative to everything the block leaves open
/// (the content of its last item, a preformatted block itself), or it would
/// continue it. Preformatted text is indented one more than such a line;
/// list items, blockquotes and definitions push their content right.
/// Returns, per block, that column and the indentation of preformatted text.
/// With `open`, a list or blockquote may start further right (see
/// [`bare_shift`]).
pub(super) fn layout(blocks: &[Block], base: usize, open: bool) -> Vec<(Option<usize>, usize)> {
    let mut out = vec![(None, base + 2); blocks.len()];
    let mut next_start: Option<usize> = None;
    for (i, block) in blocks.iter().enumerate().rev() {
        let pre = next_start.map_or(base + 2, |n| (n + 2).max(base + 2));
        if let Some(slot) = out.get_mut(i) {
            *slot = (next_start, pre);
        }
        let min_content = next_start.map_or(0, |n| n + 1);
        next_start = match block {
            Block::Preformatted { .. } => Some(pre),
            Block::List { .. } | Block::Blockquote { .. } => {
                Some(base + 2 + bare_shift(block, base, min_content, open))
            }
            _ => None,
        };
    }
    out
}

/// How many columns right of `base + 2` a list or blockquote is written
/// so that its last item (or the blockquote), written after a bare opener,
/// has its content at `min_content` or further: the content of a bare
/// opener is one space after the mark, so the mark itself moves. Zero
/// unless `open` and such an opener is written.
pub(super) fn bare_shift(block: &Block, base: usize, min_content: usize, open: bool) -> usize {
    if !open {
        return 0;
    }
    let content = match block {
        Block::List { kind, items, .. } => match items.last() {
            Some(last) if super::opens_with_block(&last.content) => {
                base + 3 + bullet(*kind, items.len() - 1).chars().count()
            }
            _ => return 0,
        },
        Block::Blockquote { content, .. } if super::opens_with_block(content) => base + 4,
        _ => return 0,
    };
    min_content.saturating_sub(content)
}

/// How many spaces follow a bullet (or compact term) at `col` with text
/// `mark` so that the content starts at `min` or later, `least` at least.
pub(super) fn spaces_after(col: usize, mark: &str, least: usize, min: usize) -> usize {
    let end = col + mark.chars().count();
    least.max(min.saturating_sub(end))
}

/// Where the blocks of a container are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Container {
    /// The column of its non-indented lines.
    pub(super) base: usize,
    /// The body or a container inside it.
    pub(super) level: Level,
    /// Where its first block starts.
    pub(super) start: Start,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Level {
    Body,
    Nested,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Start {
    /// On a line of its own.
    OwnLine,
    /// On the line of a bullet, `>` or compact term.
    OnBullet,
    /// On a line of its own that is read as an indented line (the
    /// definition of a `term::` item).
    Indented,
}

impl Container {
    pub(super) const BODY: Container = Container {
        base: 0,
        level: Level::Body,
        start: Start::OwnLine,
    };

    pub(super) fn nested(base: usize, start: Start) -> Container {
        Container {
            base,
            level: Level::Nested,
            start,
        }
    }
}

pub(super) fn heading_line<'s>(level: u8, content: &'s [Inline], spell: Spell<'s>) -> String {
    let marks = "=".repeat(usize::from(level));
    // A title that starts with a space (escaped text) needs its escape.
    let title = spell.leading_space(inline_lines(content, spell).join(" "));
    [marks.as_str(), " ", &title, " ", &marks].concat()
}

/// `mark` followed by `spaces` spaces (a bullet, `>` or compact term with
/// the room after it), built without the formatting machinery: the writer
/// makes one per item.
pub(super) fn padded(mark: &str, spaces: usize) -> String {
    let mut s = String::with_capacity(mark.len() + spaces);
    s.push_str(mark);
    s.extend(std::iter::repeat_n(' ', spaces));
    s
}

pub(super) const RULE: &str = "----------";

/// The bullet of the `k`-th item (from 0): `*`, `1.`, `a.`, `A.`; letters
/// go on `z`, `aa`, `ab`...
pub(super) fn bullet(kind: ListKind, k: usize) -> String {
    let letters = |base: u8| {
        let mut n = k;
        let mut out = Vec::new();
        loop {
            out.push(char::from(base + (n % 26) as u8));
            if n < 26 {
                break;
            }
            n = n / 26 - 1;
        }
        out.iter().rev().collect::<String>()
    };
    match kind {
        ListKind::Unordered => "*".to_owned(),
        ListKind::Ordered(Numbering::Decimal) => format!("{}.", k + 1),
        ListKind::Ordered(Numbering::LowerAlpha) => format!("{}.", letters(b'a')),
        ListKind::Ordered(Numbering::UpperAlpha) => format!("{}.", letters(b'A')),
    }
}

/// An inline run as lines of text (split at its line divisions).
pub(super) fn inline_lines<'s>(run: &'s [Inline], spell: Spell<'s>) -> Vec<String> {
    let s = spell.run(run, false);
    if !s.contains('\n') {
        return vec![s];
    }
    s.split('\n').map(str::to_owned).collect()
}
