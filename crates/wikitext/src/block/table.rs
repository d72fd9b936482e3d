//! Tables in the block pass (`docs/format.md`, "Tables"): where a table
//! starts, the lines of a table in the block form (its cells are
//! containers of the block pass), and the items a table becomes when it
//! ends.

use super::{
    BodyParser, Flat, Frame, Item, Kind, Leaf, Step, VLine, chars, col_plus, separator_columns,
    text_before,
};
use crate::events::Tag;
use crate::grid::Token;
use crate::model::Pos;
use crate::scan::{BlockLine, TableLine, block_line, table_line};
use crate::tables::{BlockCells, Fix, Part, SrcText, TableLines};

impl<'a> BodyParser<'a, '_> {
    /// The block form of tables (`docs/format.md`, "Tables"): `|-` right
    /// before a cell, or a caption line right before such a `|-`, at the
    /// same indentation, opens a table (so a table has a row). Its cells
    /// are containers, so it opens only where one more container may.
    pub(super) fn block_table_start(&mut self, v: &VLine<'a>) -> Option<Step<'a>> {
        let at_indent = |line: Option<(usize, &'a str)>| {
            line.filter(|&(indent, _)| indent == v.indent)
                .and_then(|(_, text)| block_line(text))
        };
        let is_cell = |line: Option<BlockLine>| matches!(line, Some(BlockLine::Cell { .. }));
        let next = at_indent(self.next_line);
        let caption = match block_line(v.text) {
            Some(BlockLine::RowEnd) if is_cell(next) => None,
            Some(_) => return None,
            None => match table_line(v.text, self.escapes) {
                Some(TableLine::Caption(text, offset))
                    if next == Some(BlockLine::RowEnd)
                        && is_cell(at_indent(self.line_after_next)) =>
                {
                    Some((text, offset))
                }
                _ => return None,
            },
        };
        if !self.can_open() {
            self.too_deep(v);
            return None;
        }
        let (top, out) = self.top();
        top.flush_all(out, false);
        out.items.push(Item::Start(Tag::Table, v.pos()));
        // An empty caption is no caption: it only starts a table.
        if let Some((text, offset)) = caption.filter(|(text, _)| !text.is_empty()) {
            let line = SrcText {
                num: v.num,
                col: col_plus(v.col, chars(text_before(v.text, offset))),
                text,
            };
            let item = out.leaf_of(Leaf::Caption, [line], Pos::UNKNOWN);
            out.items.push(item);
        }
        let frame = Frame::new(Kind::Blocks(BlockCells::default()), v.indent, v.pos());
        self.stack.push(frame);
        Some(Step::Done)
    }

    /// A line of a block table at its indentation: `|-` ends the row in
    /// progress; a cell's mark starts a cell, and a row when it is the
    /// first cell or follows `|-`. The cell is a container whose content
    /// is at the column of the text after the mark, or one column after
    /// the mark when nothing follows it (its first block then starts on
    /// the next line). A data cell that holds only `<` or `^`, with no
    /// line of the cell after it, is a span marker.
    pub(super) fn block_table_line(&mut self, v: VLine<'a>, line: BlockLine) -> Step<'a> {
        let next_indent = self.next_indent;
        let (top, out) = self.top();
        let Kind::Blocks(cells) = &mut top.kind else {
            return Step::Done;
        };
        let BlockLine::Cell { header, mark } = line else {
            cells.row_end();
            return Step::Done;
        };
        if cells.starts_row() {
            if cells.has_rows() {
                out.items.push(Item::End(Tag::Row));
            }
            out.items.push(Item::Start(Tag::Row, v.pos()));
        }
        let first = out.items.len();
        let tag = Tag::Cell {
            header,
            colspan: 1,
            rowspan: 1,
        };
        out.items.push(Item::Start(tag.clone(), v.pos()));
        let rest = v.text.get(mark..).unwrap_or("");
        let indent = if rest.is_empty() {
            v.indent + if header { 3 } else { 2 }
        } else {
            v.indent + separator_columns(text_before(v.text, mark))
        };
        let marker = match rest.trim_end_matches([' ', '\t']) {
            "<" if !header => Some(Token::Left),
            "^" if !header => Some(Token::Up),
            _ => None,
        };
        if let Some(token) = marker
            && next_indent.is_none_or(|n| n < indent)
        {
            out.items.push(Item::End(tag));
            cells.cell(token, first, first + 1);
            return Step::Done;
        }
        self.open(Kind::Cell { start: first }, indent, v.pos());
        self.prev_empty = false;
        if rest.is_empty() {
            return Step::Done;
        }
        Step::Again(VLine {
            num: v.num,
            indent,
            text: rest,
            col: col_plus(v.col, mark),
        })
    }

    /// Whether a table line starts a table here: a row does; a caption
    /// only when a row follows it at its indentation.
    pub(super) fn opens_table(&self, line: &TableLine<'_>, indent: usize) -> bool {
        match line {
            TableLine::Row(_) => true,
            TableLine::Caption(..) => self.next_line.is_some_and(|(next_indent, text)| {
                next_indent == indent
                    && matches!(table_line(text, self.escapes), Some(TableLine::Row(_)))
            }),
        }
    }
}

/// Puts the spans into a block table's cells, and drops the markers its
/// cells claimed.
pub(super) fn fix_block_table(cells: &BlockCells, items: &mut [Item]) {
    for fix in cells.fixes() {
        match fix {
            Fix::Spans {
                item,
                colspan,
                rowspan,
            } => {
                if let Some(Item::Start(
                    Tag::Cell {
                        colspan: c,
                        rowspan: r,
                        ..
                    },
                    _,
                )) = items.get_mut(item)
                {
                    *c = colspan;
                    *r = rowspan;
                }
            }
            Fix::Drop(first, last) => {
                for item in items.get_mut(first..=last).unwrap_or_default() {
                    *item = Item::Skip;
                }
            }
        }
    }
}

/// Writes a table's items; gives back a caption line no row followed.
pub(super) fn write_table<'a>(table: TableLines<'a>, out: &mut Flat<'a>) -> Option<SrcText<'a>> {
    let parts = match table.parts() {
        Ok(parts) => parts,
        Err(line) => return Some(line),
    };
    for part in parts {
        let item = match part {
            Part::Start(pos) => Item::Start(Tag::Table, pos),
            // The model keeps no position for a caption.
            Part::Caption(line) => out.leaf_of(Leaf::Caption, [line], Pos::UNKNOWN),
            Part::RowStart(pos) => Item::Start(Tag::Row, pos),
            Part::Cell {
                header,
                colspan,
                rowspan,
                text,
                pos,
            } => {
                let leaf = Leaf::Cell {
                    header,
                    colspan,
                    rowspan,
                };
                out.leaf_of(leaf, text, pos)
            }
            Part::RowEnd => Item::End(Tag::Row),
            Part::End => Item::End(Tag::Table),
        };
        out.items.push(item);
    }
    None
}
