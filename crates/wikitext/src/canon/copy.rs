//! Copies and drops that stay within the depth bounds, for documents built
//! by hand that nest deeper than any parser would (the derived `Clone` and
//! `Drop` of the model recurse).

use crate::model::{Block, Cell, DefItem, Document, Inline, ListItem, MAX_DEPTH, Pos, Row, Term};
use crate::walk::plain_text;

use super::MAX_INLINE_DEPTH;

/// A copy of a document, exact up to the depth bounds ([`MAX_DEPTH`] for
/// blocks, a little more than [`MAX_INLINE_DEPTH`] for inlines, so that
/// canonicalization still sees and reports what is too deep). A container
/// at the block bound keeps its kind and holds all its text in one text
/// block; deeper inlines become their text.
pub(crate) fn bounded_copy(doc: &Document) -> Document {
    Document {
        meta: doc.meta.clone(),
        body: blocks(&doc.body, 1),
    }
}

fn blocks(blocks_in: &[Block], depth: usize) -> Vec<Block> {
    blocks_in.iter().map(|b| block(b, depth)).collect()
}

fn block(block_in: &Block, depth: usize) -> Block {
    if depth >= MAX_DEPTH {
        return shell(block_in);
    }
    match block_in {
        Block::Paragraph { content, pos } => Block::Paragraph {
            content: inlines(content, 0),
            pos: *pos,
        },
        Block::Text { content, pos } => Block::Text {
            content: inlines(content, 0),
            pos: *pos,
        },
        Block::Heading {
            level,
            content,
            pos,
        } => Block::Heading {
            level: *level,
            content: inlines(content, 0),
            pos: *pos,
        },
        Block::Preformatted { lines, pos } => Block::Preformatted {
            lines: lines.iter().map(|l| inlines(l, 0)).collect(),
            pos: *pos,
        },
        Block::Rule { pos } => Block::Rule { pos: *pos },
        Block::Blockquote { content, pos } => Block::Blockquote {
            content: blocks(content, depth + 1),
            pos: *pos,
        },
        Block::List { kind, items, pos } => Block::List {
            kind: *kind,
            items: items
                .iter()
                .map(|i| ListItem {
                    content: blocks(&i.content, depth + 1),
                    pos: i.pos,
                })
                .collect(),
            pos: *pos,
        },
        Block::DefinitionList {
            compact,
            items,
            pos,
        } => Block::DefinitionList {
            compact: *compact,
            items: items
                .iter()
                .map(|i| DefItem {
                    terms: i
                        .terms
                        .iter()
                        .map(|t| Term {
                            content: inlines(&t.content, 0),
                            pos: t.pos,
                        })
                        .collect(),
                    definition: blocks(&i.definition, depth + 1),
                    pos: i.pos,
                })
                .collect(),
            pos: *pos,
        },
        Block::Table { caption, rows, pos } => Block::Table {
            caption: inlines(caption, 0),
            rows: rows
                .iter()
                .map(|r| Row {
                    cells: r
                        .cells
                        .iter()
                        .map(|c| Cell {
                            header: c.header,
                            colspan: c.colspan,
                            rowspan: c.rowspan,
                            content: blocks(&c.content, depth + 1),
                            pos: c.pos,
                        })
                        .collect(),
                    pos: r.pos,
                })
                .collect(),
            pos: *pos,
        },
        Block::Figure {
            image,
            caption,
            pos,
        } => Block::Figure {
            image: inlines(image, 0),
            caption: blocks(caption, depth + 1),
            pos: *pos,
        },
    }
}

/// A block at the bound: leaf blocks as they are (bounded), containers of
/// the same kind holding their whole text.
fn shell(block_in: &Block) -> Block {
    let text = || vec![Block::text(block_text(std::slice::from_ref(block_in)))];
    let pos = block_in.pos();
    match block_in {
        Block::Blockquote { content, .. } if !content.is_empty() => Block::Blockquote {
            content: text(),
            pos,
        },
        Block::List { kind, items, .. } if !items.is_empty() => Block::List {
            kind: *kind,
            items: vec![ListItem::new(text())],
            pos,
        },
        Block::DefinitionList { compact, items, .. }
            if items.iter().any(|i| !i.definition.is_empty()) =>
        {
            Block::DefinitionList {
                compact: *compact,
                items: vec![DefItem::new(Vec::new(), text())],
                pos,
            }
        }
        other => block(other, MAX_DEPTH - 1),
    }
}

/// Inlines up to two levels past the bound; below that, their text.
fn inlines(run: &[Inline], depth: usize) -> Vec<Inline> {
    if depth > MAX_INLINE_DEPTH + 2 {
        let mut out = Vec::new();
        crate::model::push_text(&mut out, &crate::walk::plain_text(run), crate::Pos::UNKNOWN);
        return out;
    }
    run.iter()
        .map(|node| match node.without_children() {
            Some(mut copy) => {
                if let (Some(children), Some(content)) = (node.children(), copy.children_mut()) {
                    *content = inlines(children, depth + 1);
                }
                copy
            }
            None => node.clone(),
        })
        .collect()
}

/// The plain text of blocks, one line division between runs that have
/// any (the walk is the model's, without recursion).
pub(super) fn block_text(blocks: &[Block]) -> Vec<Inline> {
    let mut out: Vec<Inline> = Vec::new();
    for run in crate::walk::runs(blocks) {
        let text = plain_text(run);
        if text.trim().is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push(Inline::line_break());
        }
        crate::model::push_text(&mut out, &text, Pos::UNKNOWN);
    }
    out
}

/// Drops blocks without recursion (a container deeper than the bounds
/// would overflow the stack in the derived `Drop`).
pub(crate) fn dismantle(block: Block) {
    let mut stack = vec![block];
    let mut runs: Vec<Vec<Inline>> = Vec::new();
    while let Some(b) = stack.pop() {
        match b {
            Block::Blockquote { content, .. } => stack.extend(content),
            Block::List { items, .. } => {
                for item in items {
                    stack.extend(item.content);
                }
            }
            Block::Table { caption, rows, .. } => {
                runs.push(caption);
                for row in rows {
                    for cell in row.cells {
                        stack.extend(cell.content);
                    }
                }
            }
            Block::DefinitionList { items, .. } => {
                for item in items {
                    stack.extend(item.definition);
                    runs.extend(item.terms.into_iter().map(|t| t.content));
                }
            }
            Block::Figure { image, caption, .. } => {
                runs.push(image);
                stack.extend(caption);
            }
            Block::Paragraph { content, .. }
            | Block::Text { content, .. }
            | Block::Heading { content, .. } => runs.push(content),
            Block::Preformatted { lines, .. } => runs.extend(lines),
            Block::Rule { .. } => {}
        }
    }
    for run in runs {
        dismantle_inlines(run);
    }
}

/// Drops inlines without recursion.
pub(crate) fn dismantle_inlines(run: Vec<Inline>) {
    let mut stack = run;
    while let Some(mut node) = stack.pop() {
        if let Some(content) = node.children_mut() {
            stack.append(content);
        }
    }
}
