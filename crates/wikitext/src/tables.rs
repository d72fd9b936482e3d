//! Tables in the block pass (`docs/format.md`, "Tables"): the lines of a
//! table as the block pass collects them, and the items they become when
//! the table ends: the caption and each cell as a leaf for the inline
//! pass, the spans from the grid's markers ([`crate::grid::spans`]).

use crate::grid::{Token, spans};
use crate::model::Pos;
use crate::scan::{RowCell, TableLine};

/// A line of the source, as the block pass hands it over: its number, the
/// column of the first character of `text`, and the text.
#[derive(Debug, Clone, Copy)]
pub(crate) struct SrcText<'a> {
    pub(crate) num: u32,
    pub(crate) col: u32,
    pub(crate) text: &'a str,
}

impl SrcText<'_> {
    pub(crate) fn pos(&self) -> Pos {
        Pos::new(self.num, self.col)
    }

    /// The column of the byte at `offset` of the text.
    fn col_at(&self, offset: usize) -> u32 {
        let before = self.text.get(..offset).unwrap_or_default().chars().count();
        self.col
            .saturating_add(u32::try_from(before).unwrap_or(u32::MAX))
    }
}

/// The lines of a table being read.
#[derive(Debug, Default)]
pub(crate) struct TableLines<'a> {
    /// `|+ caption`: its line, text and offset.
    caption: Option<(SrcText<'a>, &'a str, usize)>,
    rows: Vec<(SrcText<'a>, Vec<RowCell<'a>>)>,
}

impl<'a> TableLines<'a> {
    /// A table that starts with `line`.
    pub(crate) fn start(src: SrcText<'a>, line: TableLine<'a>) -> TableLines<'a> {
        let mut t = TableLines::default();
        match line {
            TableLine::Caption(text, offset) => t.caption = Some((src, text, offset)),
            TableLine::Row(cells) => t.rows.push((src, cells)),
        }
        t
    }

    /// Adds a row line.
    pub(crate) fn push_row(&mut self, src: SrcText<'a>, cells: Vec<RowCell<'a>>) {
        self.rows.push((src, cells));
    }

    /// What the table's lines become, in order. A caption line that no
    /// row followed is no table: it is given back (`Err`), to be read as a
    /// line of text.
    pub(crate) fn parts(self) -> Result<Vec<Part<'a>>, SrcText<'a>> {
        if self.rows.is_empty() {
            return match self.caption {
                Some((src, _, _)) => Err(src),
                None => Ok(Vec::new()),
            };
        }
        let first = self.rows.first().map_or(Pos::UNKNOWN, |(s, _)| s.pos());
        let pos = self.caption.as_ref().map_or(first, |(s, _, _)| s.pos());
        let mut parts = vec![Part::Start(pos)];
        // An empty caption is no caption.
        if let Some((src, text, offset)) = self.caption.filter(|(_, text, _)| !text.is_empty()) {
            let line = SrcText {
                num: src.num,
                col: src.col_at(offset),
                text,
            };
            parts.push(Part::Caption(line));
        }
        let tokens: Vec<Vec<Token>> = self
            .rows
            .iter()
            .map(|(_, cells)| {
                cells
                    .iter()
                    .map(|c| match c.marker {
                        Some(b'<') => Token::Left,
                        Some(_) => Token::Up,
                        None => Token::Cell,
                    })
                    .collect()
            })
            .collect();
        let placed = spans(&tokens);
        for ((src, cells), row) in self.rows.iter().zip(placed) {
            parts.push(Part::RowStart(src.pos()));
            for p in row {
                let Some(cell) = cells.get(p.token) else {
                    continue;
                };
                let at = SrcText {
                    num: src.num,
                    col: src.col_at(cell.offset),
                    text: cell.text,
                };
                // A marker that covers nothing (no cell on its left or
                // above to extend) is an empty cell: its character could
                // not be written back as itself without an escape.
                let empty = cell.text.is_empty() || cell.marker.is_some();
                parts.push(Part::Cell {
                    header: cell.header,
                    colspan: p.colspan,
                    rowspan: p.rowspan,
                    text: (!empty).then_some(at),
                    pos: at.pos(),
                });
            }
            parts.push(Part::RowEnd);
        }
        parts.push(Part::End);
        Ok(parts)
    }
}

/// What a table's lines become, for the block pass to write as items.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Part<'a> {
    Start(Pos),
    Caption(SrcText<'a>),
    RowStart(Pos),
    Cell {
        header: bool,
        colspan: u32,
        rowspan: u32,
        /// The cell's text; none for an empty cell.
        text: Option<SrcText<'a>>,
        pos: Pos,
    },
    RowEnd,
    End,
}

/// A table in the block form being read (`docs/format.md`, "Tables"):
/// its cells were written as items as they came; what is kept here is
/// where each one's items are, so that the spans can be put in when the
/// table ends.
#[derive(Debug, Default)]
pub(crate) struct BlockCells {
    /// Each row's cells: what the cell is, and the indices of its first
    /// and last item.
    rows: Vec<Vec<(Token, usize, usize)>>,
    /// A `|-` came after the last cell: the next cell starts a row.
    row_ended: bool,
}

/// What the block pass does to a block table's items when the table ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fix {
    /// The cell that starts at this item spans these columns and rows.
    Spans {
        item: usize,
        colspan: u32,
        rowspan: u32,
    },
    /// A marker a cell claimed: its items (first and last) are no cell.
    Drop(usize, usize),
}

impl BlockCells {
    /// Whether the next cell starts a new row (the first cell, or a cell
    /// after `|-`).
    pub(crate) fn starts_row(&self) -> bool {
        self.rows.is_empty() || self.row_ended
    }

    /// Whether a row has started (its end is written when the next row
    /// starts or the table ends).
    pub(crate) fn has_rows(&self) -> bool {
        !self.rows.is_empty()
    }

    /// `|-`: the row in progress ends.
    pub(crate) fn row_end(&mut self) {
        self.row_ended = true;
    }

    /// A cell whose items are `first..=last`; a marker (`<` or `^`) is
    /// given as its token.
    pub(crate) fn cell(&mut self, token: Token, first: usize, last: usize) {
        if self.starts_row() {
            self.rows.push(Vec::new());
            self.row_ended = false;
        }
        if let Some(row) = self.rows.last_mut() {
            row.push((token, first, last));
        }
    }

    /// The spans of the cells, as the grid form reads them
    /// ([`crate::grid::spans`]), and the markers a cell claimed.
    pub(crate) fn fixes(&self) -> Vec<Fix> {
        let tokens: Vec<Vec<Token>> = self
            .rows
            .iter()
            .map(|row| row.iter().map(|&(t, _, _)| t).collect())
            .collect();
        let placed = spans(&tokens);
        let mut fixes = Vec::new();
        for (row, placed) in self.rows.iter().zip(placed) {
            let mut kept = vec![false; row.len()];
            for p in placed {
                let Some(&(_, first, _)) = row.get(p.token) else {
                    continue;
                };
                if let Some(k) = kept.get_mut(p.token) {
                    *k = true;
                }
                if p.colspan > 1 || p.rowspan > 1 {
                    fixes.push(Fix::Spans {
                        item: first,
                        colspan: p.colspan,
                        rowspan: p.rowspan,
                    });
                }
            }
            for (&(_, first, last), kept) in row.iter().zip(kept) {
                if !kept {
                    fixes.push(Fix::Drop(first, last));
                }
            }
        }
        fixes
    }
}
