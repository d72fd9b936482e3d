//! Tables (`docs/format.md`, "Tables"), in the grid form: a caption line
//! `|+ ...`, then one line per row, each cell between bars (`|=` for a
//! header cell), `<` and `^` in the slots a spanning cell covers. Cells
//! are padded so that the columns line up, up to a width past which a
//! column is not padded (a long cell would widen every row).

use super::out::Out;
use super::spell::Spell;
use crate::grid::{Slot, slots};
use crate::model::{Block, Inline, Row};

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
