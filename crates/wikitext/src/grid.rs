//! The grid of a table (`docs/format.md`, "Tables"): which cell covers
//! each slot of its rows and columns, in the three forms the crate needs.
//!
//! - *Reading* ([`spans`]): a row of the text is a list of tokens, a cell
//!   or one of the markers `<` (the slot belongs to the cell on its left)
//!   and `^` (to the cell above). A cell's column span is one more than the
//!   `<` right after it in its row; its row span one more than the rows
//!   below it in which every slot under it is `^`. A marker no cell claims
//!   is an empty cell.
//! - *Repairing* ([`normalize`]): cells are placed left to right in the
//!   first free slot of their row, as HTML's table model places them; a
//!   span that would overlap a cell placed before it, or run past the last
//!   row, is shortened; free slots before the last used slot of a row
//!   become empty cells; rows with nothing in them are dropped.
//! - *Writing* ([`slots`]): what each slot of a repaired table is, row by
//!   row, up to the last used slot of the row: a cell, `<` in the cell's
//!   first row, `^` in the rows below.
//!
//! Everything here is linear in the number of slots, which is bounded by
//! what the text or the cells say (spans are capped as HTML caps them).

use crate::model::{Block, Cell, Row};

/// HTML's caps on spans (the table processing model: `colspan` above 1000
/// is 1000, `rowspan` above 65534 is 65534).
const MAX_COLSPAN: u32 = 1000;
const MAX_ROWSPAN: u32 = 65534;

/// Whether a cell fits the grid form: nothing, or one text block without
/// a line division. Any other cell makes the table one of the block form,
/// which keeps a paragraph a paragraph and a line division a line
/// division (ingestion gives a cell that holds one paragraph as text, so
/// that a simple table stays a grid).
pub(crate) fn fits_grid(blocks: &[Block]) -> bool {
    match blocks {
        [] => true,
        [Block::Text { content, .. }] => !crate::walk::has_line_break(content),
        _ => false,
    }
}

/// A token of a row as read from the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Token {
    /// A cell's text (or an empty cell).
    Cell,
    /// `<`: covered by the cell on the left.
    Left,
    /// `^`: covered by the cell above.
    Up,
}

/// A token that became a cell: its index in the row's tokens and its spans.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Placed {
    pub(crate) token: usize,
    pub(crate) colspan: u32,
    pub(crate) rowspan: u32,
}

/// Reading: the cells of each row, with their spans (see the module docs).
pub(crate) fn spans(rows: &[Vec<Token>]) -> Vec<Vec<Placed>> {
    // For each slot of the previous row: the cell (row, index in `out`)
    // that covers it.
    let mut above: Vec<Option<(usize, usize)>> = Vec::new();
    let mut out: Vec<Vec<Placed>> = Vec::with_capacity(rows.len());
    for (r, tokens) in rows.iter().enumerate() {
        let mut here: Vec<Option<(usize, usize)>> = vec![None; tokens.len()];
        let mut placed: Vec<Placed> = Vec::new();
        let mut c = 0;
        while let Some(&token) = tokens.get(c) {
            match token {
                Token::Up => {
                    if let Some(width) = extends_down(&above, &out, rows, r, c) {
                        let owner = above.get(c).copied().flatten();
                        if let Some((or, oi)) = owner
                            && let Some(cell) = out.get_mut(or).and_then(|row| row.get_mut(oi))
                        {
                            cell.rowspan += 1;
                        }
                        for k in c..c + width {
                            if let Some(slot) = here.get_mut(k) {
                                *slot = owner;
                            }
                        }
                        c += width;
                        continue;
                    }
                }
                Token::Left => {
                    // The cell on the left, placed in this row and ending
                    // right there.
                    if let Some(Some((or, oi))) = c.checked_sub(1).and_then(|k| here.get(k))
                        && *or == r
                        && let Some(cell) = placed.get_mut(*oi)
                        && cell.colspan < MAX_COLSPAN
                    {
                        cell.colspan += 1;
                        let owner = Some((r, *oi));
                        if let Some(slot) = here.get_mut(c) {
                            *slot = owner;
                        }
                        c += 1;
                        continue;
                    }
                }
                Token::Cell => {}
            }
            // A cell (or a marker no cell claims, read as text).
            if let Some(slot) = here.get_mut(c) {
                *slot = Some((r, placed.len()));
            }
            placed.push(Placed {
                token: c,
                colspan: 1,
                rowspan: 1,
            });
            c += 1;
        }
        out.push(placed);
        above = here;
    }
    out
}

/// Whether the `^` at column `c` of row `r` extends the cell above it
/// down: the cell starts at column `c`, its last row is the one above, it
/// may span one more row, and every slot of this row under it is `^`.
/// Returns the cell's width then.
fn extends_down(
    above: &[Option<(usize, usize)>],
    out: &[Vec<Placed>],
    rows: &[Vec<Token>],
    r: usize,
    c: usize,
) -> Option<usize> {
    let (or, oi) = above.get(c).copied().flatten()?;
    let cell = out.get(or)?.get(oi)?;
    let first_col = cell.token;
    let last_row = or + usize::try_from(cell.rowspan).ok()? - 1;
    if first_col != c || last_row + 1 != r || cell.rowspan >= MAX_ROWSPAN {
        return None;
    }
    let width = usize::try_from(cell.colspan).ok()?;
    let tokens = rows.get(r)?;
    (c..c + width)
        .all(|k| tokens.get(k) == Some(&Token::Up))
        .then_some(width)
}

/// What a slot of a repaired table is, for the writer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Slot<'a> {
    Cell(&'a Cell),
    Left,
    Up,
}

/// Writing: the slots of each row of a repaired table (see
/// [`normalize`]), up to the last used slot of the row.
pub(crate) fn slots(rows: &[Row]) -> Vec<Vec<Slot<'_>>> {
    let mut grid: Vec<Vec<Option<Slot<'_>>>> = vec![Vec::new(); rows.len()];
    for (r, row) in rows.iter().enumerate() {
        let mut c = 0;
        for cell in &row.cells {
            while grid
                .get(r)
                .and_then(|g| g.get(c))
                .is_some_and(Option::is_some)
            {
                c += 1;
            }
            let (cs, rs) = (span(cell.colspan), span(cell.rowspan));
            for dr in 0..rs {
                for dc in 0..cs {
                    let slot = match (dr, dc) {
                        (0, 0) => Slot::Cell(cell),
                        (0, _) => Slot::Left,
                        _ => Slot::Up,
                    };
                    if let Some(line) = grid.get_mut(r + dr) {
                        if line.len() <= c + dc {
                            line.resize(c + dc + 1, None);
                        }
                        if let Some(s) = line.get_mut(c + dc) {
                            *s = Some(slot);
                        }
                    }
                }
            }
            c += cs;
        }
    }
    grid.into_iter()
        .map(|line| line.into_iter().map(|s| s.unwrap_or(Slot::Up)).collect())
        .collect()
}

fn span(n: u32) -> usize {
    usize::try_from(n.max(1)).unwrap_or(1)
}

/// Repairing: the rows as the text can say them (see the module docs).
/// Returns whether anything changed.
pub(crate) fn normalize(rows: &mut Vec<Row>) -> bool {
    let mut changed = false;
    let n = rows.len();
    // Which slots are taken, row by row, and where each cell starts.
    let mut taken: Vec<Vec<bool>> = vec![Vec::new(); n];
    let mut origins: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (r, row) in rows.iter_mut().enumerate() {
        let mut c = 0;
        for cell in &mut row.cells {
            while is_taken(&taken, r, c) {
                c += 1;
            }
            let (cs, rs) = fit(&taken, (r, c), cell, n - r);
            if (cs, rs) != (cell.colspan, cell.rowspan) {
                cell.colspan = cs;
                cell.rowspan = rs;
                changed = true;
            }
            for dr in 0..span(rs) {
                if let Some(t) = taken.get_mut(r + dr) {
                    if t.len() < c + span(cs) {
                        t.resize(c + span(cs), false);
                    }
                    for s in t.iter_mut().skip(c).take(span(cs)) {
                        *s = true;
                    }
                }
            }
            if let Some(o) = origins.get_mut(r) {
                o.push(c);
            }
            c += span(cs);
        }
    }
    // Free slots before the last taken one of a row become empty cells,
    // before the first cell that starts after them.
    for (r, t) in taken.iter().enumerate() {
        let gaps: Vec<usize> = (0..t.len()).filter(|&c| !is_taken(&taken, r, c)).collect();
        let (Some(row), Some(cols)) = (rows.get_mut(r), origins.get(r)) else {
            continue;
        };
        for &gap in gaps.iter().rev() {
            let at = cols.iter().position(|&col| col > gap).unwrap_or(cols.len());
            row.cells.insert(at, Cell::new(Vec::new()));
            changed = true;
        }
    }
    // Rows that hold no cell and that no cell reaches.
    let before = rows.len();
    let mut r = 0;
    rows.retain(|row| {
        let keep = !row.cells.is_empty() || taken.get(r).is_some_and(|t| t.contains(&true));
        r += 1;
        keep
    });
    changed || rows.len() != before
}

fn is_taken(taken: &[Vec<bool>], r: usize, c: usize) -> bool {
    taken
        .get(r)
        .and_then(|t| t.get(c))
        .copied()
        .unwrap_or(false)
}

/// The spans of `cell` placed at `(r, c)`: at least 1, capped, within the
/// `rows_left` rows, and short of any slot already taken.
fn fit(taken: &[Vec<bool>], (r, c): (usize, usize), cell: &Cell, rows_left: usize) -> (u32, u32) {
    let want_cs = cell.colspan.clamp(1, MAX_COLSPAN);
    let mut cs = 1;
    while cs < want_cs && !is_taken(taken, r, c + span(cs)) {
        cs += 1;
    }
    let left = u32::try_from(rows_left).unwrap_or(MAX_ROWSPAN);
    let want_rs = cell.rowspan.clamp(1, MAX_ROWSPAN).min(left.max(1));
    let mut rs = 1;
    while rs < want_rs && !(c..c + span(cs)).any(|col| is_taken(taken, r + span(rs), col)) {
        rs += 1;
    }
    (cs, rs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Block, Inline};
    use Token::{Cell as C, Left as L, Up as U};

    fn spans_of(rows: &[Vec<Token>]) -> Vec<Vec<(usize, u32, u32)>> {
        spans(rows)
            .into_iter()
            .map(|row| {
                row.into_iter()
                    .map(|p| (p.token, p.colspan, p.rowspan))
                    .collect()
            })
            .collect()
    }

    #[test]
    fn markers_extend_the_cell_left_of_them_and_above_them() {
        // A column span in the first row; two cells of the second row
        // that each span the third; a cell two wide and two high.
        assert_eq!(
            spans_of(&[vec![C, C, L], vec![C, C, C], vec![U, U, C]]),
            [
                vec![(0, 1, 1), (1, 2, 1)],
                vec![(0, 1, 2), (1, 1, 2), (2, 1, 1)],
                vec![(2, 1, 1)]
            ]
        );
        assert_eq!(
            spans_of(&[vec![C, L, C], vec![U, U, C]]),
            [vec![(0, 2, 2), (2, 1, 1)], vec![(2, 1, 1)]]
        );
    }

    #[test]
    fn markers_no_cell_claims_are_cells() {
        // `<` first in a row, `^` in the first row, `^` under only part of
        // a wide cell: each is an empty cell of its own, which a `<` after
        // it extends.
        assert_eq!(spans_of(&[vec![L, U]]), [vec![(0, 1, 1), (1, 1, 1)]]);
        assert_eq!(spans_of(&[vec![U, L]]), [vec![(0, 2, 1)]]);
        assert_eq!(
            spans_of(&[vec![C, L], vec![U, C]]),
            [vec![(0, 2, 1)], vec![(0, 1, 1), (1, 1, 1)]]
        );
    }

    fn cell(text: &str, colspan: u32, rowspan: u32) -> Cell {
        Cell::new(vec![Block::text(vec![Inline::text(text)])]).span(colspan, rowspan)
    }

    fn shape(rows: &[Row]) -> Vec<Vec<(u32, u32, bool)>> {
        rows.iter()
            .map(|r| {
                r.cells
                    .iter()
                    .map(|c| (c.colspan, c.rowspan, c.content.is_empty()))
                    .collect()
            })
            .collect()
    }

    #[test]
    fn spans_are_fitted_and_gaps_filled_as_html_places_cells() {
        // A row span past the last row is shortened; a column span over a
        // slot taken from above is shortened; a gap before a slot taken
        // from above becomes an empty cell; an empty row nothing reaches
        // goes.
        let mut rows = vec![
            Row::new(vec![cell("a", 1, 5), cell("b", 1, 1), cell("c", 1, 2)]),
            Row::new(vec![cell("d", 3, 1)]),
            Row::new(vec![]),
        ];
        assert!(normalize(&mut rows));
        assert_eq!(
            shape(&rows),
            [
                vec![(1, 3, false), (1, 1, false), (1, 2, false)],
                vec![(1, 1, false)],
                vec![]
            ]
        );
        let mut rows = vec![
            Row::new(vec![cell("a", 1, 1), cell("b", 1, 1), cell("c", 1, 2)]),
            Row::new(vec![cell("d", 1, 1)]),
            Row::new(vec![]),
        ];
        assert!(normalize(&mut rows));
        assert_eq!(
            shape(&rows),
            [
                vec![(1, 1, false), (1, 1, false), (1, 2, false)],
                vec![(1, 1, false), (1, 1, true)]
            ]
        );
        // A grid that fits is left alone.
        let mut rows = vec![
            Row::new(vec![cell("a", 2, 1)]),
            Row::new(vec![cell("b", 1, 1)]),
        ];
        assert!(!normalize(&mut rows));
    }

    #[test]
    fn slots_say_where_markers_go() {
        let rows = vec![
            Row::new(vec![cell("a", 2, 2), cell("b", 1, 1)]),
            Row::new(vec![cell("c", 1, 1)]),
        ];
        let seen: Vec<Vec<&str>> = slots(&rows)
            .iter()
            .map(|row| {
                row.iter()
                    .map(|s| match s {
                        Slot::Cell(_) => "cell",
                        Slot::Left => "<",
                        Slot::Up => "^",
                    })
                    .collect()
            })
            .collect();
        assert_eq!(seen, [vec!["cell", "<", "cell"], vec!["^", "^", "cell"]]);
    }
}
