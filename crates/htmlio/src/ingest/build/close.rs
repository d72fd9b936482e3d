//! Ending blocks: at a block boundary the current run becomes a block, and a
//! closing frame hands what it built to the frame below.

use std::mem;

use wikitext::{Block, DefItem, Inline, ListItem, Severity, Term};

use super::frames::CellData;
use super::frames::{Frame, FrameKind, extend_run};
use super::{Builder, block_text};
use crate::ingest::diag::Code;
use crate::ingest::sink::NONE;

impl Builder<'_> {
    /// The current inline run ends here (a block starts or ends).
    pub(super) fn block_boundary(&mut self) {
        match self.top_kind() {
            Some(FrameKind::Heading(_) | FrameKind::Term) => {
                if let Some(f) = self.frames.last_mut() {
                    f.run.pending_ws(" ");
                }
            }
            Some(FrameKind::Pre { .. }) => {
                if self.frames.last().is_some_and(|f| !f.run.is_empty()) {
                    self.pre_newline();
                }
            }
            _ => self.flush(),
        }
    }

    /// Turns the top frame's run into a paragraph or a bare text block.
    pub(super) fn flush(&mut self) {
        let Some(top) = self.frames.last_mut() else {
            return;
        };
        if top.kind.inline_only() || top.run.is_empty() {
            top.run.clear_pending();
            return;
        }
        let (content, pos) = top.run.finish(false);
        let orphans = top.run.take_orphans();
        self.adopt_orphans(orphans);
        if content.is_empty() {
            return;
        }
        let Some(top) = self.frames.last_mut() else {
            return;
        };
        let block = if top.para > 0 {
            Block::Paragraph { content, pos }
        } else {
            Block::Text { content, pos }
        };
        top.add_block(block);
    }

    /// Adds finished blocks to the top frame (making room first).
    pub(super) fn deliver(&mut self, blocks: Vec<Block>) {
        if blocks.is_empty() {
            return;
        }
        self.prepare_content();
        if self.top_inline_only() {
            // Only reachable through broken nesting: keep the text.
            for block in blocks {
                let text = block_text(&block);
                let line = block.pos().line;
                self.inline_text(&text, line);
            }
            return;
        }
        self.flush();
        if let Some(top) = self.frames.last_mut() {
            for block in blocks {
                top.add_block(block);
            }
        }
    }

    /// Pops the top frame and hands what it built to the frame below.
    pub(super) fn close_top_frame(&mut self) {
        if self.frames.len() <= 1 {
            return;
        }
        if self.top_kind().is_some_and(FrameKind::is_pre) {
            self.pre_newline();
        } else {
            self.flush();
        }
        let Some(frame) = self.frames.pop() else {
            return;
        };
        match frame.kind {
            FrameKind::Root => {}
            FrameKind::Item
            | FrameKind::Quote
            | FrameKind::Definition
            | FrameKind::Cell(_)
            | FrameKind::Caption => self.close_content_frame(frame),
            FrameKind::List { .. }
            | FrameKind::Dl { .. }
            | FrameKind::Table { .. }
            | FrameKind::Row { .. } => self.close_container(frame),
            FrameKind::Heading(_) | FrameKind::Term => self.close_inline_frame(frame),
            FrameKind::Figure { .. } => self.close_figure(frame),
            FrameKind::FigureCaption => self.close_caption(frame),
            FrameKind::Pre { .. } => self.close_pre(frame),
        }
    }

    /// Closes a frame that collects blocks (an item, a blockquote, a
    /// definition, a cell, a caption): its blocks go into the container
    /// below, or are delivered as they are when it is not there.
    fn close_content_frame(&mut self, mut frame: Frame) {
        let line = frame.pos.line;
        match frame.kind {
            FrameKind::Item => {
                bare_first(&mut frame.blocks);
                // The text format has no empty list item.
                if frame.blocks.is_empty() {
                    if frame.owner != NONE {
                        self.report(
                            Code::EmptyDropped,
                            Severity::Info,
                            line,
                            "empty list item left out",
                        );
                    }
                } else if let Some(Frame {
                    kind: FrameKind::List { items, .. },
                    ..
                }) = self.frames.last_mut()
                {
                    items.push(ListItem {
                        content: frame.blocks,
                        pos: frame.pos,
                    });
                } else {
                    self.deliver(frame.blocks);
                }
            }
            FrameKind::Quote => {
                bare_first(&mut frame.blocks);
                if frame.blocks.is_empty() {
                    self.report(
                        Code::EmptyDropped,
                        Severity::Info,
                        line,
                        "empty blockquote left out",
                    );
                } else {
                    self.deliver(vec![Block::Blockquote {
                        content: frame.blocks,
                        pos: frame.pos,
                    }]);
                }
            }
            FrameKind::Definition => {
                if let Some(Frame {
                    kind: FrameKind::Dl { items, terms, .. },
                    ..
                }) = self.frames.last_mut()
                {
                    let terms = mem::take(terms);
                    if !terms.is_empty() || !frame.blocks.is_empty() {
                        let pos = terms.first().map_or(frame.pos, |t| t.pos);
                        items.push(DefItem {
                            terms,
                            definition: frame.blocks,
                            pos,
                        });
                    }
                } else {
                    self.deliver(frame.blocks);
                }
            }
            FrameKind::Cell(attrs) => {
                if let Some(Frame {
                    kind: FrameKind::Row { cells },
                    ..
                }) = self.frames.last_mut()
                {
                    cells.push(CellData {
                        blocks: frame.blocks,
                        line,
                        attrs,
                    });
                } else {
                    self.deliver(frame.blocks);
                }
            }
            FrameKind::Caption => {
                if let Some(Frame {
                    kind: FrameKind::Table { caption, .. },
                    ..
                }) = self.frames.last_mut()
                {
                    caption.extend(frame.blocks);
                } else {
                    self.deliver(frame.blocks);
                }
            }
            // The other kinds are closed by the other `close_` methods.
            _ => {}
        }
    }

    /// Closes a container (a list, a definition list, a table, a row): what
    /// it collected becomes a block, or a row of the table below.
    fn close_container(&mut self, frame: Frame) {
        let line = frame.pos.line;
        match frame.kind {
            FrameKind::List { kind, items } if !items.is_empty() => {
                let pos = items.first().map_or(frame.pos, |i| i.pos);
                self.deliver(vec![Block::List { kind, items, pos }]);
            }
            FrameKind::Dl {
                compact,
                mut items,
                terms,
            } => {
                if !terms.is_empty() {
                    let pos = terms.first().map_or(frame.pos, |t| t.pos);
                    items.push(DefItem {
                        terms,
                        definition: Vec::new(),
                        pos,
                    });
                }
                if !items.is_empty() {
                    let pos = items.first().map_or(frame.pos, |i| i.pos);
                    self.deliver(vec![Block::DefinitionList {
                        compact,
                        items,
                        pos,
                    }]);
                }
            }
            FrameKind::Table {
                rows,
                caption,
                spans,
            } => {
                let blocks = self.finish_table(rows, caption, spans, frame.depth, line);
                self.deliver(blocks);
            }
            FrameKind::Row { cells } => {
                if let Some(Frame {
                    kind: FrameKind::Table { rows, .. },
                    ..
                }) = self.frames.last_mut()
                {
                    if !cells.is_empty() {
                        rows.push(cells);
                    }
                } else {
                    self.deliver(cells.into_iter().flat_map(|c| c.blocks).collect());
                }
            }
            // An empty list leaves nothing; the other kinds are closed by the
            // other `close_` methods.
            _ => {}
        }
    }

    /// Closes a heading or a term: its run, with the frame's own anchor on
    /// it, becomes a heading, or a term of the definition list below.
    fn close_inline_frame(&mut self, mut frame: Frame) {
        let line = frame.pos.line;
        let (mut content, pos) = frame.run.finish(false);
        self.adopt_orphans(frame.run.take_orphans());
        if let Some((anchor, aline)) = frame.anchor.take() {
            self.attach_own_anchor(&mut content, anchor, aline);
        }
        match frame.kind {
            FrameKind::Heading(level) => {
                if content.is_empty() {
                    self.report(
                        Code::EmptyDropped,
                        Severity::Info,
                        line,
                        "empty heading left out",
                    );
                } else {
                    self.deliver(vec![Block::Heading {
                        level,
                        content,
                        pos: if pos.is_known() { pos } else { frame.pos },
                    }]);
                }
            }
            FrameKind::Term if !content.is_empty() => {
                let term = Term {
                    content,
                    pos: if pos.is_known() { pos } else { frame.pos },
                };
                match self.frames.last_mut() {
                    Some(Frame {
                        kind: FrameKind::Dl { terms, .. },
                        ..
                    }) => terms.push(term),
                    _ => self.deliver(vec![Block::Text {
                        content: term.content,
                        pos: term.pos,
                    }]),
                }
            }
            // An empty term leaves nothing; the other kinds are closed by the
            // other `close_` methods.
            _ => {}
        }
    }
}

/// The text of a list item or blockquote starts on its bullet's line, so it
/// is never a paragraph (seed 000: a paragraph is "surrounded by empty
/// lines"): a first `<p>` is read as the item's bare text, joined by the bare
/// text that may follow it.
fn bare_first(blocks: &mut Vec<Block>) {
    if let Some(first) = blocks.first_mut()
        && let Block::Paragraph { content, pos } = first
    {
        *first = Block::Text {
            content: mem::take(content),
            pos: *pos,
        };
        if matches!(blocks.get(1), Some(Block::Text { .. })) {
            let second = blocks.remove(1);
            if let (Some(Block::Text { content, .. }), Block::Text { content: more, .. }) =
                (blocks.first_mut(), second)
            {
                content.push(Inline::line_break());
                extend_run(content, more);
            }
        }
    }
}
