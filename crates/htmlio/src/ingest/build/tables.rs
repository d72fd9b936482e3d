//! Tables to compact definition lists (seed 000): the rows and cells a table
//! collected become one compact item per row, or blocks in order for a
//! layout table.

use std::mem;

use wikitext::{Block, Cell, DefItem, Inline, Row, Severity, Term};

use super::frames::CellData;
use super::{Builder, MAX_NEST, at, block_text};
use crate::ingest::diag::Code;

impl Builder<'_> {
    /// Seed 000 "compact definition list ... it is even possible to emulate
    /// simple tables": a data table becomes one compact item per row, each
    /// cell the term of the next nested compact item, the last cell the
    /// definition (empty cells are `::` terms). Header cells are strong (the
    /// `th` mapping). A table whose cells hold blocks (other than the last
    /// cell of a row), or that has a single column, is a layout table: its
    /// cells' blocks follow each other.
    pub(super) fn finish_table(
        &mut self,
        rows: Vec<Vec<CellData>>,
        caption: Vec<Block>,
        spans: bool,
        depth: usize,
        line: u32,
    ) -> Vec<Block> {
        if self.extensions && is_grid(&rows, depth) {
            return Self::extended_table(rows, caption, line, true);
        }
        if self.extensions && fits_depth(&rows, depth) && rows.iter().any(|r| !r.is_empty()) {
            return Self::extended_table(rows, caption, line, false);
        }
        let mut out = caption;
        let rows: Vec<Vec<CellData>> = rows
            .into_iter()
            .map(|mut r| {
                // A cell with nothing but white space (`&nbsp;` included) is
                // an empty cell; an image is something.
                for cell in &mut r {
                    if shows_nothing(&cell.blocks) {
                        cell.blocks.clear();
                    }
                }
                while r.last().is_some_and(|c| c.blocks.is_empty()) {
                    r.pop();
                }
                r
            })
            .filter(|r| !r.is_empty())
            .collect();
        if rows.is_empty() {
            return out;
        }
        if spans {
            self.report(
                Code::TableSpans,
                Severity::Warning,
                line,
                "table cells span rows or columns: the grid is not kept",
            );
        }
        let budget = MAX_NEST.saturating_sub(depth);
        let single_column = rows.iter().all(|r| r.len() == 1);
        let data = !single_column
            && rows.iter().all(|r| {
                let (last, rest) = match r.split_last() {
                    Some(x) => x,
                    None => return true,
                };
                rest.iter().all(|c| one_line_able(&c.blocks))
                    && (if r.len() == 1 {
                        one_line_able(&last.blocks)
                    } else {
                        true
                    })
                    && r.len() - 1 + blocks_depth(&last.blocks) <= budget
            });
        if !data {
            let cells: usize = rows.iter().map(Vec::len).sum();
            if cells > 1 {
                self.report(
                    Code::TableAsBlocks,
                    Severity::Info,
                    line,
                    if single_column {
                        "one-column table: its cells became blocks in order".to_owned()
                    } else {
                        "layout table (blocks in its cells, or too many columns): its cells became blocks in order"
                            .to_owned()
                    },
                );
            }
            for cell in rows.into_iter().flatten() {
                out.extend(cell.blocks);
            }
            return out;
        }
        self.report(
            Code::TableAsList,
            Severity::Info,
            line,
            "table became a compact definition list, one item per row",
        );
        // A row of one cell (a title row spanning the table) is not an item:
        // its blocks stand between the lists of the other rows.
        let mut items: Vec<DefItem> = Vec::new();
        for row in rows {
            if row.len() == 1 {
                self.table_items(&mut items, &mut out, line);
                out.extend(row.into_iter().flat_map(|c| c.blocks));
            } else if let Some(item) = self.row_item(row) {
                items.push(item);
            }
        }
        self.table_items(&mut items, &mut out, line);
        out
    }

    /// The rows collected so far as one compact definition list.
    fn table_items(&mut self, items: &mut Vec<DefItem>, out: &mut Vec<Block>, line: u32) {
        if items.is_empty() {
            return;
        }
        let items = mem::take(items);
        let pos = items.first().map_or(at(line), |i| i.pos);
        out.push(Block::DefinitionList {
            compact: true,
            items,
            pos,
        });
    }

    /// One row as a chain of compact items (built from the last cell back,
    /// so without recursion).
    fn row_item(&mut self, mut row: Vec<CellData>) -> Option<DefItem> {
        let last = row.pop()?;
        if row.is_empty() {
            // A single cell: a term without definition.
            let line = last.line;
            let terms = self.cell_term(last).into_iter().collect();
            return Some(DefItem {
                terms,
                definition: Vec::new(),
                pos: at(line),
            });
        }
        let mut definition = last.blocks;
        if let Some(first) = definition.first_mut()
            && let Block::Paragraph { content, pos } = first
        {
            *first = Block::Text {
                content: mem::take(content),
                pos: *pos,
            };
        }
        let mut item = None;
        while let Some(cell) = row.pop() {
            let line = cell.line;
            let terms: Vec<Term> = self.cell_term(cell).into_iter().collect();
            let pos = terms.first().map_or(at(line), |t| t.pos);
            let this = DefItem {
                terms,
                definition,
                pos,
            };
            if row.is_empty() {
                item = Some(this);
                break;
            }
            definition = vec![Block::DefinitionList {
                compact: true,
                items: vec![this],
                pos,
            }];
        }
        item
    }

    /// A table as a table of `#Extend table` (`docs/format.md`,
    /// "Tables"): its caption, and its rows of cells with their spans;
    /// canon fits the cells to the grid. A data table (`grid`) keeps each
    /// cell's text on one line, for the grid form ([`grid_content`]);
    /// any other table keeps its cells' blocks, for the block form
    /// ([`block_content`]): layout tables too, since their cells are
    /// content.
    fn extended_table(
        rows: Vec<Vec<CellData>>,
        caption: Vec<Block>,
        line: u32,
        grid: bool,
    ) -> Vec<Block> {
        let rows = rows
            .into_iter()
            .map(|cells| {
                let pos = cells.first().map_or_else(|| at(line), |c| at(c.line));
                let cells = cells
                    .into_iter()
                    .map(|c| {
                        let header = c.attrs.header;
                        let content = if grid {
                            grid_content(c.blocks, c.line, header)
                        } else {
                            block_content(c.blocks, header)
                        };
                        Cell {
                            header,
                            colspan: c.attrs.colspan,
                            rowspan: c.attrs.rowspan,
                            content,
                            pos: at(c.line),
                        }
                    })
                    .collect();
                Row { cells, pos }
            })
            .collect();
        vec![Block::Table {
            caption: caption_run(caption),
            rows,
            pos: at(line),
        }]
    }

    /// A cell as a one-line term (none when the cell is empty).
    fn cell_term(&mut self, cell: CellData) -> Option<Term> {
        let block = cell.blocks.into_iter().next()?;
        let (content, pos) = match block {
            Block::Paragraph { content, pos }
            | Block::Text { content, pos }
            | Block::Heading { content, pos, .. } => (content, pos),
            other => {
                let pos = other.pos();
                (vec![Inline::text(block_text(&other))], pos)
            }
        };
        let (content, changed) = one_line(content, false);
        if changed {
            self.report(
                Code::CellFlattened,
                Severity::Info,
                cell.line,
                "table cell with several lines put on one line",
            );
        }
        (!content.is_empty()).then_some(Term { content, pos })
    }
}

/// A table's caption as one run: its one paragraph or text block, or the
/// text of its blocks joined by spaces.
fn caption_run(caption: Vec<Block>) -> Vec<Inline> {
    match caption.as_slice() {
        [] => Vec::new(),
        [Block::Paragraph { content, .. } | Block::Text { content, .. }] => content.clone(),
        other => vec![Inline::text(
            other.iter().map(block_text).collect::<Vec<_>>().join(" "),
        )],
    }
}

/// Whether a table in the block form nests no deeper than the text
/// parser reads: its cells' blocks one level below the table.
fn fits_depth(rows: &[Vec<CellData>], depth: usize) -> bool {
    rows.iter()
        .flatten()
        .all(|c| depth + 1 + blocks_depth(&c.blocks) <= MAX_NEST)
}

/// Whether a cell's blocks show nothing: only white space (`&nbsp;`
/// included) and no image.
fn shows_nothing(blocks: &[Block]) -> bool {
    blocks.iter().all(|b| block_text(b).trim().is_empty()) && !wikitext::has_images(blocks)
}

/// A cell's blocks as the block form holds them: nothing when it shows
/// nothing; one paragraph as text; a header cell's text without the
/// strong emphasis the `th` mapping put around all of it.
fn block_content(blocks: Vec<Block>, header: bool) -> Vec<Block> {
    if shows_nothing(&blocks) {
        return Vec::new();
    }
    let mut blocks = blocks;
    if let [Block::Paragraph { content, pos }] = blocks.as_mut_slice() {
        blocks = vec![Block::Text {
            content: std::mem::take(content),
            pos: *pos,
        }];
    }
    if header
        && let Some(Block::Text { content, .. } | Block::Paragraph { content, .. }) =
            blocks.first_mut()
        && let [Inline::Strong { content: inner, .. }] = content.as_mut_slice()
    {
        *content = std::mem::take(inner);
    }
    blocks
}

/// Whether a cell's blocks fit on one line of a compact item: nothing, or
/// one paragraph or text block.
/// Whether a table can be written in the grid form of `#Extend table`:
/// more than one column, and every cell empty or one block of text.
fn is_grid(rows: &[Vec<CellData>], depth: usize) -> bool {
    let columns = rows
        .iter()
        .map(|r| r.iter().map(|c| c.attrs.colspan as usize).sum::<usize>())
        .max()
        .unwrap_or(0);
    columns > 1
        && depth < MAX_NEST
        && rows.iter().flatten().all(|c| {
            one_line_able(&c.blocks) || matches!(c.blocks.as_slice(), [Block::Heading { .. }])
        })
}

fn one_line_able(blocks: &[Block]) -> bool {
    matches!(blocks, [] | [Block::Paragraph { .. } | Block::Text { .. }])
}

/// How many container levels `blocks` nest (0 for text only).
fn blocks_depth(blocks: &[Block]) -> usize {
    let mut max = 0;
    let mut stack: Vec<(&[Block], usize)> = vec![(blocks, 0)];
    while let Some((items, d)) = stack.pop() {
        for block in items {
            match block {
                Block::Blockquote { content, .. } => {
                    max = max.max(d + 1);
                    stack.push((content, d + 1));
                }
                Block::List { items, .. } => {
                    max = max.max(d + 1);
                    for item in items {
                        stack.push((&item.content, d + 1));
                    }
                }
                Block::DefinitionList { items, .. } => {
                    max = max.max(d + 1);
                    for item in items {
                        stack.push((&item.definition, d + 1));
                    }
                }
                Block::Table { rows, .. } => {
                    max = max.max(d + 1);
                    for cell in rows.iter().flat_map(|r| &r.cells) {
                        stack.push((&cell.content, d + 1));
                    }
                }
                _ => {}
            }
        }
    }
    max
}

/// A run with its line divisions turned into spaces (at any depth: inline
/// nesting is bounded by the four kinds of inline element, each at most
/// once on a path), and its forced breaks too unless `keep_breaks` (a
/// `<br>` stands on its line). Returns whether anything changed.
fn one_line(run: Vec<Inline>, keep_breaks: bool) -> (Vec<Inline>, bool) {
    fn go(run: Vec<Inline>, changed: &mut bool, depth: usize, keep_breaks: bool) -> Vec<Inline> {
        let mut out: Vec<Inline> = Vec::with_capacity(run.len());
        for inline in run {
            let inline = match inline {
                Inline::HardBreak { pos } if !keep_breaks => {
                    *changed = true;
                    Inline::Text {
                        text: " ".into(),
                        pos,
                    }
                }
                Inline::LineBreak { pos } => {
                    *changed = true;
                    Inline::Text {
                        text: " ".into(),
                        pos,
                    }
                }
                Inline::Emphasis { content, pos } if depth < 8 => Inline::Emphasis {
                    content: go(content, changed, depth + 1, keep_breaks),
                    pos,
                },
                Inline::Strong { content, pos } if depth < 8 => Inline::Strong {
                    content: go(content, changed, depth + 1, keep_breaks),
                    pos,
                },
                Inline::Code { content, pos } if depth < 8 => Inline::Code {
                    content: go(content, changed, depth + 1, keep_breaks),
                    pos,
                },
                Inline::Link {
                    url,
                    fragment,
                    content,
                    pos,
                } if depth < 8 => Inline::Link {
                    url,
                    fragment,
                    content: go(content, changed, depth + 1, keep_breaks),
                    pos,
                },
                other => other,
            };
            match (out.last_mut(), inline) {
                (Some(Inline::Text { text, .. }), Inline::Text { text: t, .. }) => {
                    text.push_str(&t)
                }
                (_, inline) => out.push(inline),
            }
        }
        out
    }
    let mut changed = false;
    let out = go(run, &mut changed, 0, keep_breaks);
    (out, changed)
}

/// A cell's blocks as the grid form holds them: nothing when it shows
/// nothing, else its one block's text as a text block; a header cell's
/// text without the strong emphasis the `th` mapping put around it.
fn grid_content(blocks: Vec<Block>, line: u32, header: bool) -> Vec<Block> {
    if shows_nothing(&blocks) {
        return Vec::new();
    }
    match blocks.into_iter().next() {
        Some(
            Block::Paragraph { content, pos }
            | Block::Text { content, pos }
            | Block::Heading { content, pos, .. },
        ) => {
            let content = match content.as_slice() {
                [Inline::Strong { content: inner, .. }] if header => inner.clone(),
                _ => content,
            };
            // Line divisions (white space in HTML) would make the table
            // one of the block form: the grid form keeps the table
            // readable, and a space shows the same (a `<br>` stays).
            let (content, _) = one_line(content, true);
            vec![Block::Text { content, pos }]
        }
        Some(other) => vec![Block::text(vec![Inline::text(block_text(&other))]).at(at(line))],
        None => Vec::new(),
    }
}
