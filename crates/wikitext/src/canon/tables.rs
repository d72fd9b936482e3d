//! Tables as the format holds them (`docs/format.md`, "Tables"): in the
//! grid form each cell is empty or one line of inline text; in the block
//! form, which a table takes when one of its cells holds more than that,
//! each cell holds blocks as a list item does. Spans fit the grid
//! ([`crate::grid::normalize`]), and a table has rows. Where the text may
//! hold no table (pure seed text), its caption and its cells' blocks
//! follow each other, as a layout table's do.

use crate::diag::{Code, Severity};
use crate::model::{Block, Cell, Inline, Pos, Row, push_text};

use super::blocks::canon_blocks;
use super::inlines::canon_inlines;
use super::merge::{Merge, push_merging};
use super::{Ctx, Fixer, Role};

/// A table at `depth` (its cells' blocks one deeper), into `out`.
pub(super) fn table(
    (caption, rows, pos): (Vec<Inline>, Vec<Row>, Pos),
    depth: usize,
    out: &mut Vec<Block>,
    fixer: &mut Fixer,
) {
    if !fixer.tables() {
        fixer.report(
            Code::NotRoundTrip,
            Severity::Warning,
            "pure seed text cannot hold a table; its caption and cells were written as blocks, in order",
            pos,
        );
        let mut blocks = Vec::new();
        if !caption.is_empty() {
            blocks.push(Block::Text {
                content: caption,
                pos,
            });
        }
        for row in rows {
            for cell in row.cells {
                blocks.extend(cell.content);
            }
        }
        // They follow the blocks before the table: a list there and a
        // list of the same type here read back as one.
        for block in canon_blocks(blocks, depth, fixer) {
            push_merging(out, block, Merge::Repair, fixer);
        }
        return;
    }
    let caption = one_line(caption);
    let ctx = fixer.heading();
    let caption = canon_inlines(caption, ctx, Role::Caption, pos, fixer);
    let caption = trimmed(caption, ctx, pos, fixer);
    let grid = rows
        .iter()
        .flat_map(|r| &r.cells)
        .all(|c| crate::grid::fits_grid(&c.content));
    let mut rows: Vec<Row> = rows
        .into_iter()
        .map(|row| Row {
            cells: row
                .cells
                .into_iter()
                .map(|c| {
                    if grid {
                        cell(c, fixer)
                    } else {
                        block_cell(c, depth, fixer)
                    }
                })
                .collect(),
            pos: row.pos,
        })
        .collect();
    if crate::grid::normalize(&mut rows) {
        fixer.report(
            Code::ModelNormalized,
            Severity::Info,
            "the table's cells were fitted to its grid (spans shortened, gaps filled, empty rows dropped)",
            pos,
        );
    }
    if rows.is_empty() {
        fixer.report(
            Code::EmptyElementDropped,
            Severity::Info,
            "a table without rows was dropped (its caption kept as text)",
            pos,
        );
        if !caption.is_empty() {
            out.push(Block::Paragraph {
                content: caption,
                pos,
            });
        }
        return;
    }
    out.push(Block::Table { caption, rows, pos });
}

/// A cell of the block form: its blocks, as a list item's (one level
/// deeper than the table).
fn block_cell(mut cell: Cell, depth: usize, fixer: &mut Fixer) -> Cell {
    let content = std::mem::take(&mut cell.content);
    cell.content = canon_blocks(content, depth + 1, fixer);
    cell
}

/// A cell of the grid form, which [`crate::grid::fits_grid`] lets
/// through only empty or as one text block without a line division: its
/// run repaired and trimmed.
fn cell(mut cell: Cell, fixer: &mut Fixer) -> Cell {
    let pos = cell.pos;
    let run = match std::mem::take(&mut cell.content).as_mut_slice() {
        [Block::Text { content, .. }] => std::mem::take(content),
        _ => Vec::new(),
    };
    let ctx = fixer.heading();
    let run = canon_inlines(run, ctx, Role::Cell, pos, fixer);
    let run = trimmed(run, ctx, pos, fixer);
    cell.content = if run.is_empty() {
        Vec::new()
    } else {
        vec![Block::Text { content: run, pos }]
    };
    cell
}

/// A cell's or caption's run without white space at its edges (any white
/// space: the row's padding is read so), but a first space that escapes
/// keep (`ctx`), written `\\ `.
fn trimmed(mut run: Vec<Inline>, ctx: Ctx, pos: Pos, fixer: &mut Fixer) -> Vec<Inline> {
    let mut changed = false;
    let kept = ctx == Ctx::KeptHeading;
    let edge = |c: char| c.is_whitespace() && !(kept && c == ' ');
    if let Some(Inline::Text { text, .. }) = run.first_mut()
        && text.starts_with(edge)
    {
        *text = text.trim_start_matches(edge).to_owned();
        changed = true;
    }
    if let Some(Inline::Text { text, .. }) = run.last_mut()
        && text.ends_with(char::is_whitespace)
    {
        *text = text.trim_end().to_owned();
        changed = true;
    }
    if changed {
        run.retain(|i| !matches!(i, Inline::Text { text, .. } if text.is_empty()));
        fixer.report(
            Code::WhitespaceNormalized,
            Severity::Info,
            "white space at the edges of a table cell was removed",
            pos,
        );
    }
    run
}

/// A run on one line: its line divisions as spaces.
fn one_line(run: Vec<Inline>) -> Vec<Inline> {
    if !run.iter().any(|i| matches!(i, Inline::LineBreak { .. })) {
        return run;
    }
    let mut out: Vec<Inline> = Vec::with_capacity(run.len());
    for node in run {
        match node {
            Inline::LineBreak { pos } => push_text(&mut out, " ", pos),
            Inline::Text { text, pos } => push_text(&mut out, &text, pos),
            other => out.push(other),
        }
    }
    out
}
