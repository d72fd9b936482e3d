//! Tables (`docs/format.md`, "Tables").
//!
//! - The grid form: a caption line `|+ ...`, then one line per row, each
//!   cell between bars (`|=` for a header cell), `<` and `^` in the slots
//!   a spanning cell covers. Cells are padded so that the columns line
//!   up, up to a width past which a column is not padded (a long cell
//!   would widen every row).
//! - The block form, for a table whose cells hold more than one line of
//!   text: the caption line, then `|-` before each row, each cell's mark
//!   (`|` or `|=`) at the start of a line with the cell's blocks after it,
//!   as a list item's after its bullet; `| <` and `| ^` for the slots a
//!   spanning cell covers.

use super::blocks::render_blocks;
use super::layout::{Container, Start};
use super::out::Out;
use super::spell::Spell;
use crate::grid::{Slot, slots};
use crate::model::{Block, Cell, Inline, Row};

/// Whether a table is written in the grid form: every cell is empty or
/// one line of text (what canon leaves of a grid table), which the grid
/// form reads back as it is.
pub(super) fn is_grid(rows: &[Row]) -> bool {
    rows.iter()
        .flat_map(|r| &r.cells)
        .all(|c| crate::grid::fits_grid(&c.content))
}

/// How a table stands among the blocks around it.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Around {
    /// A table in the block form comes right before it: a line `|+` must
    /// start this one, or its lines would continue that table.
    pub(super) after_blocks: bool,
    /// An indented block comes right after it: a last `|-` must end the
    /// last cell, or that block's first line would continue the cell.
    pub(super) before_indented: bool,
}

/// Writes a table at column `base`, in the grid form when it fits it.
pub(super) fn render_any_table<'s>(
    out: &mut Out<'s>,
    (caption, rows): (&'s [Inline], &'s [Row]),
    base: usize,
    around: Around,
) {
    if around.after_blocks && caption.is_empty() {
        out.line(base, "|+");
        out.must_none();
    }
    if is_grid(rows) {
        render_table(out, caption, rows, base);
    } else {
        render_block_table(out, caption, rows, base, around.before_indented);
    }
}

/// The first line of a table (without indentation).
pub(super) fn first_line<'s>(caption: &'s [Inline], rows: &'s [Row], spell: Spell<'s>) -> String {
    if is_grid(rows) {
        table_lines(caption, rows, spell)
            .into_iter()
            .next()
            .unwrap_or_default()
    } else if caption.is_empty() {
        "|-".to_owned()
    } else {
        format!("|+ {}", spell.cell(caption, true, false))
    }
}

/// Writes a table in the block form at column `base`.
fn render_block_table<'s>(
    out: &mut Out<'s>,
    caption: &'s [Inline],
    rows: &'s [Row],
    base: usize,
    end_mark: bool,
) {
    // Read back always: a table's lines are new to the line checks.
    out.suspect();
    if !caption.is_empty() {
        let line = format!("|+ {}", out.spell.cell(caption, true, false));
        out.line(base, &line);
        out.must_none();
    }
    for (r, row) in slots(rows).into_iter().enumerate() {
        // The first line takes the gap its container chose.
        if r > 0 || !caption.is_empty() {
            out.prefer(false);
        }
        out.line(base, "|-");
        for slot in row {
            out.prefer(false);
            match slot {
                Slot::Left => {
                    out.line(base, "| <");
                }
                Slot::Up => {
                    out.line(base, "| ^");
                }
                Slot::Cell(cell) => render_cell(out, cell, base),
            }
        }
    }
    // A last `|-` ends the last cell where the line after it would
    // continue the cell, or where its last text must have no empty line
    // after it (the end of the text counts as one).
    if end_mark || out.gap.need == super::out::Need::NoEmpty {
        out.prefer(false);
        out.line(base, "|-");
    }
}

/// Writes a cell of the block form: its mark, then its blocks. Text is
/// written on the mark's line, any other first block (or a text that
/// would read as a span marker there) from the next line on, at the
/// column after the mark and one space.
fn render_cell<'s>(out: &mut Out<'s>, cell: &'s Cell, base: usize) {
    let mark = if cell.header { "|=" } else { "|" };
    let content_col = base + mark.len() + 1;
    let on_mark = match cell.content.as_slice() {
        [] => {
            out.line(base, mark);
            return;
        }
        // Only a data cell of the text `<` or `^` alone reads as a marker.
        [Block::Text { content, .. }] if !cell.header => {
            !matches!(content.as_slice(), [Inline::Text { text, .. }] if text == "<" || text == "^")
        }
        [Block::Text { .. }, ..] => true,
        _ => false,
    };
    if on_mark {
        out.set_prefix(base, &[mark, " "].concat());
        render_blocks(
            out,
            &cell.content,
            Container::nested(content_col, Start::OnBullet),
        );
    } else {
        out.line(base, mark);
        render_blocks(
            out,
            &cell.content,
            Container::nested(content_col, Start::OwnLine),
        );
    }
}

/// Columns are padded up to this many characters.
const PAD_UP_TO: usize = 40;

/// Writes a table at column `base`.
pub(super) fn render_table<'s>(
    out: &mut Out<'s>,
    caption: &'s [Inline],
    rows: &'s [Row],
    base: usize,
) {
    // Read back always: a table's lines are new to the line checks.
    out.suspect();
    for (j, line) in table_lines(caption, rows, out.spell).iter().enumerate() {
        if j > 0 {
            out.must_none();
        }
        out.line(base, line);
    }
}

/// The lines of a table, without indentation.
pub(super) fn table_lines<'s>(
    caption: &'s [Inline],
    rows: &'s [Row],
    spell: Spell<'s>,
) -> Vec<String> {
    let mut lines = Vec::with_capacity(rows.len() + 1);
    if !caption.is_empty() {
        lines.push(format!("|+ {}", spell.cell(caption, true, false)));
    }
    // Each slot as the text between its bars, before padding; a row whose
    // bars and brackets in text would split it elsewhere is spelled again
    // with them escaped.
    let grid: Vec<Vec<String>> = slots(rows)
        .into_iter()
        .map(|row| {
            let plain: Vec<String> = row
                .iter()
                .map(|&slot| segment(slot, spell, false))
                .collect();
            if splits_as(&plain, spell.escapes()) {
                plain
            } else {
                row.into_iter()
                    .map(|slot| segment(slot, spell, true))
                    .collect()
            }
        })
        .collect();
    let columns = grid.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|c| {
            grid.iter()
                .filter_map(|row| row.get(c))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
                .min(PAD_UP_TO)
        })
        .collect();
    for row in grid {
        let mut line = String::new();
        for (c, seg) in row.iter().enumerate() {
            line.push('|');
            line.push_str(seg);
            let width = widths.get(c).copied().unwrap_or(0);
            let pad = width.saturating_sub(seg.chars().count());
            line.extend(std::iter::repeat_n(' ', pad + 1));
        }
        line.push('|');
        lines.push(line);
    }
    lines
}

/// The text of a slot between its bars: `= ` and the text of a header
/// cell, a space and the text of a data cell, ` <` or ` ^` for a covered
/// slot.
fn segment<'s>(slot: Slot<'s>, spell: Spell<'s>, force: bool) -> String {
    match slot {
        Slot::Left => " <".to_owned(),
        Slot::Up => " ^".to_owned(),
        Slot::Cell(cell) => {
            let run: &[Inline] = match cell.content.first() {
                Some(Block::Text { content, .. } | Block::Paragraph { content, .. }) => content,
                _ => &[],
            };
            let text = spell.cell(run, cell.header, force);
            if cell.header {
                format!("= {text}")
            } else {
                format!(" {text}")
            }
        }
    }
}

/// Whether the row of these segments reads back as these cells: as many,
/// each with the same text.
/// `escapes`: the text declares `#Escape \\` (or will, if it escapes
/// anything).
fn splits_as(segments: &[String], escapes: bool) -> bool {
    // As written, but unpadded: each segment with one space after it.
    let mut line = String::from("|");
    for seg in segments {
        line.push_str(seg);
        line.push_str(" |");
    }
    let escapable = escapes.then_some(crate::grammar::is_escapable as fn(char) -> bool);
    match crate::scan::table_line(&line, escapable) {
        Some(crate::scan::TableLine::Row(cells)) => {
            cells.len() == segments.len()
                && cells.iter().zip(segments).all(|(cell, seg)| {
                    let seg = seg.strip_prefix('=').unwrap_or(seg);
                    cell.text == seg.trim_matches(' ')
                })
        }
        _ => false,
    }
}
