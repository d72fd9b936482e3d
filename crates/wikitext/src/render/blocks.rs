//! Blocks to lines (seed 000 "Block-level Elements", in the canonical
//! layout of the crate documentation): the gap before each block, then
//! the block itself, one function a kind.

use crate::model::{Block, DefItem, Inline, ListItem, ListKind};
use crate::scan::ends_sentence;

use super::defs::{
    Form, decide_form, first_item_line, needs_lead, render_def_item, starts_with_term_line,
};
use super::layout::{
    Container, Level, RULE, Start, bare_shift, bullet, heading_line, is_text, last_text_line,
    layout, padded, spaces_after,
};
use super::out::Out;
use super::spell::LineKind;

fn prev_block(blocks: &[Block], i: usize) -> Option<&Block> {
    i.checked_sub(1).and_then(|j| blocks.get(j))
}

/// Writes the blocks of a container.
pub(super) fn render_blocks<'s>(out: &mut Out<'s>, blocks: &'s [Block], container: Container) {
    let Container { base, level, start } = container;
    let nested = level == Level::Nested;
    let layout = layout(blocks, base, out.open);
    for (i, block) in blocks.iter().enumerate() {
        if level == Level::Body {
            out.begin_top();
        }
        // A term still waiting for its definition takes up an indented
        // block after it, empty lines or not: the two are read together.
        // So does text whose last line reads as a term (pure seed text
        // cannot escape its `::`).
        let waiting = matches!(prev_block(blocks, i), Some(Block::DefinitionList { items, .. })
                if items.last().is_some_and(|item| item.definition.is_empty()))
            || prev_block(blocks, i)
                .and_then(|b| last_text_line(b, out.spell))
                .is_some_and(|l| crate::scan::term_line(&l).is_some());
        // A table of the block form goes on over empty lines while lines
        // start with a bar: what follows it is read with it.
        let after_blocks = matches!(prev_block(blocks, i), Some(Block::Table { rows, .. })
                if !super::tables::is_grid(rows));
        if waiting || after_blocks {
            match level {
                Level::Body => out.glue(),
                Level::Nested => out.suspect(),
            }
        }
        let prev = i.checked_sub(1).and_then(|j| blocks.get(j));
        let first_on_bullet = i == 0 && start == Start::OnBullet;
        // Only bare text and definition lists are sure to read back where a
        // bullet's line (or an indented definition's first line) opens a
        // container; anything else there is read again.
        let risky_start = match start {
            // A definition list is laid out for it (see `defs`).
            Start::OnBullet => !matches!(block, Block::Text { .. } | Block::DefinitionList { .. }),
            Start::Indented => matches!(
                block,
                Block::Preformatted { .. } | Block::List { .. } | Block::Blockquote { .. }
            ),
            Start::OwnLine => false,
        };
        if i == 0 && risky_start {
            out.suspect();
        }
        if !first_on_bullet {
            gap_before(out, block, prev, nested, after_blocks);
        }
        let (next_start, pre_indent) = layout.get(i).copied().unwrap_or((None, base + 2));
        // What the block leaves open must start right of the next line.
        let min_content = next_start.map_or(0, |n| n + 1);
        let place = Place {
            first_on_bullet,
            first_indented: i == 0 && start == Start::Indented,
            pre_indent,
            min_content,
            after_blocks,
        };
        render_block(out, block, base, place);
    }
}

/// The gap before a block that does not start on its bullet's line:
/// an empty line where the block would otherwise join the one before
/// (`prev`), else the gap the layout prefers (none inside a container).
fn gap_before<'s>(
    out: &mut Out<'s>,
    block: &'s Block,
    prev: Option<&'s Block>,
    nested: bool,
    after_blocks: bool,
) {
    match block {
        Block::Paragraph { .. } => {
            if nested || is_text(prev) {
                out.must_empty();
            } else {
                out.prefer(true);
            }
        }
        Block::DefinitionList { compact, items, .. } => {
            // A first term ending in `::` would take up the lines of
            // text before it that do not end a sentence.
            let joins = items.first().is_some_and(|item| {
                starts_with_term_line(item, decide_form(item, 0, *compact, out.spell).0, out.spell)
            }) && !prev
                .and_then(|b| last_text_line(b, out.spell))
                .is_some_and(|l| ends_sentence(&l));
            // Two lines in a row that start with a bar read as a table's
            // rows where `#Extend table` is declared: text ending in such a
            // line and a list starting with one are kept apart.
            let bars = prev
                .and_then(|b| last_text_line(b, out.spell))
                .is_some_and(|l| l.starts_with('|'))
                && items.first().is_some_and(|item| {
                    first_item_line(item, *compact, out.spell).starts_with('|')
                });
            if is_text(prev) && (joins || bars) {
                out.must_empty();
            } else {
                out.prefer(!nested);
            }
        }
        Block::Text { .. }
        | Block::Preformatted { .. }
        | Block::Blockquote { .. }
        | Block::Figure { .. } => {
            // After text, an empty line keeps the lines apart (and
            // keeps an indented line from reading as a compact
            // definition).
            if is_text(prev) {
                out.must_empty();
            } else {
                out.prefer(!nested);
            }
        }
        Block::List { .. } | Block::Heading { .. } | Block::Rule { .. } => {
            out.prefer(!nested);
        }
        Block::Table { .. } => {
            // Rows right after text or another table's would join
            // it; after a table of the block form, the caption line
            // that starts this one ends that table.
            if is_text(prev) || (matches!(prev, Some(Block::Table { .. })) && !after_blocks) {
                out.must_empty();
            } else {
                out.prefer(!nested);
            }
        }
    }
}

/// `docs/format.md`, "Figures": the image on its line, as a compact
/// term, and the caption indented under it, right away.
fn figure<'s>(
    out: &mut Out<'s>,
    image: &'s [Inline],
    caption: &'s [Block],
    base: usize,
    place: Place,
) {
    let line = super::layout::inline_lines(image, out.spell).join(" ");
    if place.first_on_bullet || place.first_indented {
        // Read where a container opens: checked by reading it back.
        out.suspect();
    }
    out.line_of(LineKind::Text, base, &line);
    out.must_none();
    render_blocks(
        out,
        caption,
        Container::nested((base + 4).max(place.min_content), Start::Indented),
    );
}

/// Where a block is written, besides its column.
#[derive(Debug, Clone, Copy)]
struct Place {
    /// The block is the first of its container, on its bullet's line.
    first_on_bullet: bool,
    /// The block is the first of a definition, read as an indented line.
    first_indented: bool,
    /// The indentation of preformatted text.
    pre_indent: usize,
    /// What the block leaves open must have its content at this column or
    /// further right (0: no constraint).
    min_content: usize,
    /// A table in the block form comes right before the block.
    after_blocks: bool,
}

fn render_block<'s>(out: &mut Out<'s>, block: &'s Block, base: usize, place: Place) {
    match block {
        Block::Paragraph { content, .. } => text_block(out, content, true, base, place),
        Block::Text { content, .. } => text_block(out, content, false, base, place),
        Block::Heading { level, content, .. } => {
            let line = heading_line(*level, content, out.spell);
            let title = line.get(usize::from(*level) + 1..line.len() - usize::from(*level) - 1);
            if crate::scan::heading(&line)
                .is_none_or(|h| h.level != *level || Some(h.title) != title)
            {
                out.suspect();
            }
            out.line(base, &line);
        }
        Block::Rule { .. } => {
            out.line(base, RULE);
        }
        Block::Table { caption, rows, .. } => {
            let around = super::tables::Around {
                after_blocks: place.after_blocks,
                before_indented: place.min_content > 0,
            };
            super::tables::render_any_table(out, (caption, rows), base, around);
        }
        Block::Preformatted { lines, .. } => preformatted(out, lines, place.pre_indent),
        Block::Figure { image, caption, .. } => figure(out, image, caption, base, place),
        Block::Blockquote { content, .. } => {
            let col = base + 2 + bare_shift(block, base, place.min_content, out.open);
            let spaces = spaces_after(col, ">", 1, place.min_content);
            if bare_opener(out, content, col, ">", spaces) {
                return;
            }
            let prefix = padded(">", spaces);
            out.set_prefix(col, &prefix);
            render_blocks(
                out,
                content,
                Container::nested(col + 1 + spaces, Start::OnBullet),
            );
        }
        Block::List { kind, items, .. } => {
            let col = base + 2 + bare_shift(block, base, place.min_content, out.open);
            list(out, (*kind, items), col, place.min_content);
        }
        Block::DefinitionList { compact, items, .. } => {
            definition_list(out, (*compact, items), base, place);
        }
    }
}

/// A paragraph (`paragraph`) or bare text block: its lines, the gap after
/// it, and a read-back check where the text would not be read as the kind
/// of block it is.
fn text_block<'s>(
    out: &mut Out<'s>,
    content: &'s [Inline],
    paragraph: bool,
    base: usize,
    place: Place,
) {
    let mut preceded = false;
    let rendered = out.spell.run(content, false);
    for (j, line) in rendered.split('\n').enumerate() {
        if j > 0 {
            out.must_none();
        }
        // Only a definition's first line is read for bullets
        // (interpretation 6); elsewhere text stands where a bullet
        // would be text too.
        let kind = if place.first_indented && j == 0 {
            LineKind::FirstOfDefinition
        } else {
            LineKind::Text
        };
        let empty = out.line_of(kind, base, line);
        if j == 0 {
            preceded = empty && !place.first_on_bullet;
        }
    }
    // Seed 000: text surrounded by empty lines is a paragraph.
    if paragraph && !preceded {
        out.suspect();
    }
    if paragraph {
        out.must_empty();
    } else if preceded {
        out.must_none();
    }
}

/// Preformatted text at `indent`: its lines, empty lines between them kept
/// as one.
fn preformatted<'s>(out: &mut Out<'s>, lines: &'s [Vec<Inline>], indent: usize) {
    let mut after_empty = false;
    for (j, line) in lines.iter().enumerate() {
        if line.is_empty() {
            after_empty = true;
            continue;
        }
        if j > 0 {
            if after_empty {
                out.must_empty();
            } else {
                out.must_none();
            }
        }
        after_empty = false;
        // A line of preformatted text holds no line division; should
        // one be there, it is written as a space.
        let text = out.spell.run(line, true);
        let kind = if j == 0 {
            LineKind::PreFirst
        } else {
            LineKind::Pre
        };
        out.line_of(kind, indent, &text);
    }
}

/// A list whose bullets are at `col`: each item's bullet, then its blocks
/// on the bullet's line (or after a bare opener).
fn list<'s>(
    out: &mut Out<'s>,
    (kind, items): (ListKind, &'s [ListItem]),
    col: usize,
    min_content: usize,
) {
    for (k, item) in items.iter().enumerate() {
        if k > 0 {
            out.prefer(false);
        }
        let mark = bullet(kind, k);
        let min = if k + 1 == items.len() { min_content } else { 0 };
        let spaces = spaces_after(col, &mark, 1, min);
        if bare_opener(out, &item.content, col, &mark, spaces) {
            continue;
        }
        let prefix = padded(&mark, spaces);
        out.set_prefix(col, &prefix);
        render_blocks(
            out,
            &item.content,
            Container::nested(col + prefix.chars().count(), Start::OnBullet),
        );
    }
}

/// A definition list: each item in the form [`decide_form`] picks, with
/// a lead `::` line where the first item would not read as a term.
fn definition_list<'s>(
    out: &mut Out<'s>,
    (compact, items): (bool, &'s [DefItem]),
    base: usize,
    place: Place,
) {
    for (k, item) in items.iter().enumerate() {
        let prev_empty = k
            .checked_sub(1)
            .and_then(|j| items.get(j))
            .is_some_and(|p| p.definition.is_empty());
        if prev_empty {
            // Otherwise this item's terms would join the previous
            // item's, which has no definition yet.
            out.must_empty();
        } else if k > 0 {
            out.prefer(false);
        }
        let min = if k + 1 == items.len() {
            place.min_content
        } else {
            0
        };
        let (form, def_line) = decide_form(item, k, compact, out.spell);
        // The first item's form says whether the list is compact.
        if k == 0 && compact == (form == Form::Normal) {
            out.suspect();
        }
        if k == 0
            && needs_lead(
                item,
                form,
                def_line.as_deref(),
                place.first_indented,
                out.spell,
            )
        {
            out.line(base, "::");
            out.must_none();
        }
        render_def_item(out, item, form, base, min);
    }
}

/// `#Extend open`: a list item or blockquote whose content opens with a
/// list, preformatted text or a blockquote is written as its mark alone on
/// a line (at `col`), then its content from the next line on, at the
/// column after the mark and one space, where the reader puts it. Only
/// where the text declares the feature and one space after the mark is
/// enough (`spaces`; [`bare_shift`] sees to that), and where the mark
/// starts its own line; otherwise nothing is written and the caller writes
/// the content on the mark's line (which reads back as something else, and
/// is then adopted as that). Returns whether it wrote the container.
fn bare_opener<'s>(
    out: &mut Out<'s>,
    content: &'s [Block],
    col: usize,
    mark: &str,
    spaces: usize,
) -> bool {
    if !out.open || spaces != 1 || !super::opens_with_block(content) || out.prefix.is_some() {
        return false;
    }
    out.line(col, mark);
    // The content must follow the mark: read again to make sure.
    out.suspect();
    let content_col = col + mark.chars().count() + 1;
    render_blocks(out, content, Container::nested(content_col, Start::OwnLine));
    true
}
