//! The frame stack: the kinds of frame, and making room for content
//! (implicit items, cells and lists around stray content, the nesting
//! limit) before a frame opens.

use std::mem;

use wikitext::{Block, DefItem, Inline, ListItem, ListKind, MAX_DEPTH, Pos, Severity, Term};

use super::{Builder, MAX_NEST, at};
use crate::ingest::diag::Code;
use crate::ingest::run::{Mode, Run};
use crate::ingest::sink::{NONE, NodeId};

/// What a frame builds, with what it has collected so far.
#[derive(Debug)]
pub(super) enum FrameKind {
    Root,
    Item,
    Quote,
    Definition,
    Cell(CellAttrs),
    Caption,
    List {
        kind: ListKind,
        items: Vec<ListItem>,
    },
    Dl {
        compact: bool,
        items: Vec<DefItem>,
        terms: Vec<Term>,
    },
    Table {
        rows: Vec<Vec<CellData>>,
        caption: Vec<Block>,
        spans: bool,
    },
    Row {
        cells: Vec<CellData>,
    },
    Heading(u8),
    Term,
    /// A `<figure>`: its blocks are the image (if it becomes a figure).
    Figure {
        /// The blocks of its (first) caption, once that closed.
        caption: Option<Vec<Block>>,
        /// How many of its blocks came before its (first) caption.
        caption_at: Option<usize>,
    },
    /// A figure's `<figcaption>`.
    FigureCaption,
    Pre {
        lines: Vec<Vec<Inline>>,
        at_start: bool,
    },
}

/// A cell of a table row, as collected.
#[derive(Debug)]
pub(super) struct CellData {
    pub(super) blocks: Vec<Block>,
    pub(super) line: u32,
    /// `th`, the spans.
    pub(super) attrs: CellAttrs,
}

/// What a cell's element says: a header cell (`th`), its spans.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct CellAttrs {
    pub(super) header: bool,
    pub(super) colspan: u32,
    pub(super) rowspan: u32,
}

impl Default for CellAttrs {
    fn default() -> Self {
        CellAttrs {
            header: false,
            colspan: 1,
            rowspan: 1,
        }
    }
}

impl FrameKind {
    /// Whether text and blocks can go straight into the frame.
    pub(super) fn takes_content(&self) -> bool {
        !matches!(
            self,
            FrameKind::List { .. }
                | FrameKind::Dl { .. }
                | FrameKind::Table { .. }
                | FrameKind::Row { .. }
        )
    }

    /// Whether the frame holds one run of inlines and no blocks.
    pub(super) fn inline_only(&self) -> bool {
        matches!(
            self,
            FrameKind::Heading(_) | FrameKind::Term | FrameKind::Pre { .. }
        )
    }

    /// How the frame's run treats white space and line divisions.
    pub(super) fn mode(&self) -> Mode {
        match self {
            FrameKind::Heading(_) => Mode::Heading,
            FrameKind::Term => Mode::Term,
            _ => Mode::Flow,
        }
    }

    /// Whether the frame is preformatted text.
    pub(super) fn is_pre(&self) -> bool {
        matches!(self, FrameKind::Pre { .. })
    }
}

/// A block being built, on the stack of open frames.
#[derive(Debug)]
pub(super) struct Frame {
    pub(super) kind: FrameKind,
    /// The element that opened the frame; `NONE` for implicit frames.
    pub(super) owner: NodeId,
    /// How deep the frame's blocks are nested (the body's are at 0).
    pub(super) depth: usize,
    pub(super) blocks: Vec<Block>,
    pub(super) run: Run,
    /// How many `<p>` elements are open in this frame.
    pub(super) para: u32,
    pub(super) pos: Pos,
    /// The frame element's own `id` (headings and terms wrap their whole
    /// text in it when they can).
    pub(super) anchor: Option<(String, u32)>,
    /// An empty line or two `<br>` ended the last text block: the next bare
    /// text is a block of its own.
    pub(super) split_text: bool,
}

impl Frame {
    /// An empty frame.
    pub(super) fn new(kind: FrameKind, owner: NodeId, depth: usize, pos: Pos) -> Frame {
        Frame {
            kind,
            owner,
            depth,
            blocks: Vec::new(),
            run: Run::new(),
            para: 0,
            pos,
            anchor: None,
            split_text: false,
        }
    }

    /// Adds a finished block: bare text at the top level is a paragraph
    /// (seed 000: "always assumed to be the case at the top-level"), and bare
    /// text right after bare text continues it on a new line (text split by
    /// block elements, `<li>a<div>b</div></li>`), unless an empty line or two
    /// `<br>` set it apart: then it is a text block of its own, as two text
    /// blocks in a row are written in the text format (and in XHTML).
    pub(super) fn add_block(&mut self, block: Block) {
        let split = mem::take(&mut self.split_text);
        let block = match (block, &self.kind) {
            (Block::Text { content, pos }, FrameKind::Root) => Block::Paragraph { content, pos },
            (block, _) => block,
        };
        if let Block::Text { content, .. } = block {
            if !split && let Some(Block::Text { content: last, .. }) = self.blocks.last_mut() {
                last.push(Inline::line_break());
                extend_run(last, content);
            } else {
                let pos = content.first().map_or(self.pos, Inline::pos);
                self.blocks.push(Block::Text { content, pos });
            }
            return;
        }
        // Lists in a row stay as the page has them: the text format cannot
        // hold two such lists in a row, and wikitext::canon merges them.
        self.blocks.push(block);
    }
}

/// Appends `more` to `run`, merging text at the seam.
pub(super) fn extend_run(run: &mut Vec<Inline>, more: Vec<Inline>) {
    let mut more = more.into_iter();
    if let Some(first) = more.next() {
        match (run.last_mut(), first) {
            (Some(Inline::Text { text, .. }), Inline::Text { text: t, .. }) => text.push_str(&t),
            (_, first) => run.push(first),
        }
    }
    run.extend(more);
}

/// Where the blocks of a frame an element opens sit, relative to its
/// parent's.
#[derive(Clone, Copy)]
pub(super) enum Level {
    /// At the same depth (lists, definition lists, tables, rows, captions,
    /// headings, terms, preformatted text).
    Same,
    /// One level deeper (items, blockquotes, definitions, cells).
    Deeper,
}

/// Which kind of list a stray child needs around it.
#[derive(Clone, Copy)]
enum ListShape {
    /// `<li>` in a `<ul>`/`<ol>`.
    Items,
    /// `<dt>`/`<dd>` in a `<dl>`.
    Definitions,
}

impl Builder<'_> {
    /// Whether the top frame holds one run of inlines and no blocks.
    pub(super) fn top_inline_only(&self) -> bool {
        self.frames.last().is_some_and(|f| f.kind.inline_only())
    }

    /// The kind of the top frame.
    pub(super) fn top_kind(&self) -> Option<&FrameKind> {
        self.frames.last().map(|f| &f.kind)
    }

    /// Notes that a block element inside a heading, term or preformatted
    /// text was read as its text.
    pub(super) fn flattened(&mut self, line: u32, what: &str) {
        let inside = match self.top_kind() {
            Some(FrameKind::Heading(_)) => "a heading",
            Some(FrameKind::Term) => "a term",
            _ => "preformatted text",
        };
        self.report(
            Code::BlocksFlattened,
            Severity::Warning,
            line,
            format!("{what} inside {inside} was flattened into its text"),
        );
    }

    /// Whether a container whose content would be one level deeper than the
    /// current frame's blocks may open here.
    pub(super) fn container_allowed(&mut self, line: u32, what: &str) -> bool {
        if self.top_inline_only() {
            self.flattened(line, what);
            return false;
        }
        let depth = self.content_depth();
        if depth < MAX_NEST {
            return true;
        }
        if !self.depth_warned {
            self.depth_warned = true;
            self.report(
                Code::NestingTooDeep,
                Severity::Warning,
                line,
                format!(
                    "blocks nest deeper than the text format's {MAX_DEPTH} levels here: \
                     {what} and everything deeper is read as plain blocks"
                ),
            );
        }
        false
    }

    /// The depth at which a block added now would sit.
    fn content_depth(&self) -> usize {
        match self.frames.last() {
            Some(f) if f.kind.takes_content() => f.depth,
            // Content for a container goes into an item one level deeper.
            Some(f) => f.depth + 1,
            None => 0,
        }
    }

    /// Pushes a frame; its blocks sit at `level` relative to its parent's.
    pub(super) fn open_frame(
        &mut self,
        kind: FrameKind,
        owner: NodeId,
        level: Level,
        line: u32,
    ) -> usize {
        let base = self.frames.last().map_or(0, |f| f.depth);
        let deeper = match level {
            Level::Same => 0,
            Level::Deeper => 1,
        };
        self.frames
            .push(Frame::new(kind, owner, base + deeper, at(line)));
        self.frames.len() - 1
    }

    // ---- making room for content -------------------------------------------

    /// Makes the top frame one that takes text and blocks: closes implicit
    /// lists and definition lists, reopens the previous item of a real list
    /// (content directly inside a list belongs to its previous item), opens
    /// an implicit cell in a table.
    pub(super) fn prepare_content(&mut self) {
        loop {
            let Some(top) = self.frames.last_mut() else {
                return;
            };
            let implicit = top.owner == NONE;
            let depth = top.depth;
            let pos = top.pos;
            match &mut top.kind {
                k if k.takes_content() => return,
                FrameKind::List { .. } | FrameKind::Dl { .. } if implicit => self.close_top_frame(),
                FrameKind::List { items, .. } => {
                    let mut frame = Frame::new(FrameKind::Item, NONE, depth + 1, pos);
                    if let Some(last) = items.pop() {
                        frame.blocks = last.content;
                        frame.pos = last.pos;
                    }
                    self.frames.push(frame);
                    return;
                }
                FrameKind::Dl { items, terms, .. } => {
                    let mut frame = Frame::new(FrameKind::Definition, NONE, depth + 1, pos);
                    if terms.is_empty()
                        && let Some(last) = items.pop()
                    {
                        *terms = last.terms;
                        frame.blocks = last.definition;
                        frame.pos = last.pos;
                    }
                    self.frames.push(frame);
                    return;
                }
                FrameKind::Table { .. } => {
                    self.frames.push(Frame::new(
                        FrameKind::Row { cells: Vec::new() },
                        NONE,
                        depth,
                        pos,
                    ));
                }
                FrameKind::Row { .. } => {
                    self.frames.push(Frame::new(
                        FrameKind::Cell(CellAttrs::default()),
                        NONE,
                        depth + 1,
                        pos,
                    ));
                    return;
                }
                _ => return,
            }
        }
    }

    /// Makes room for an `<li>`: the top frame becomes a list (an implicit
    /// one around a stray item). False when the item must be read as a plain
    /// block (inside a heading, or too deep).
    pub(super) fn prepare_item(&mut self, line: u32) -> bool {
        self.prepare_list_child(line, ListShape::Items)
    }

    /// Whether the top frame is implicit and sits on a frame `parent` accepts.
    fn implicit_under(&self, parent: impl Fn(&FrameKind) -> bool) -> bool {
        let n = self.frames.len();
        n >= 2
            && self.frames.get(n - 1).is_some_and(|f| f.owner == NONE)
            && self.frames.get(n - 2).is_some_and(|f| parent(&f.kind))
    }

    /// Makes room for a `<dt>` or `<dd>`: the top frame becomes a definition
    /// list (an implicit one around stray terms and definitions).
    pub(super) fn prepare_dl_child(&mut self, line: u32) -> bool {
        self.prepare_list_child(line, ListShape::Definitions)
    }

    /// What [`prepare_item`](Self::prepare_item) and
    /// [`prepare_dl_child`](Self::prepare_dl_child) share: close implicit
    /// children of the list, refuse inside inline-only frames, open an
    /// implicit list when none is on top.
    fn prepare_list_child(&mut self, line: u32, shape: ListShape) -> bool {
        let is_list = |k: &FrameKind| match shape {
            ListShape::Items => matches!(k, FrameKind::List { .. }),
            ListShape::Definitions => matches!(k, FrameKind::Dl { .. }),
        };
        let is_child = |k: &FrameKind| match shape {
            ListShape::Items => matches!(k, FrameKind::Item),
            ListShape::Definitions => matches!(k, FrameKind::Definition),
        };
        let what = match shape {
            ListShape::Items => ("a list item", "a list"),
            ListShape::Definitions => ("a definition list", "a definition list"),
        };
        loop {
            match self.top_kind() {
                Some(k) if is_list(k) => return true,
                Some(k) if is_child(k) && self.implicit_under(is_list) => {
                    self.close_top_frame();
                }
                Some(k) if k.inline_only() => {
                    self.flattened(line, what.0);
                    return false;
                }
                Some(k) if !k.takes_content() => self.prepare_content(),
                _ => {
                    if !self.container_allowed(line, what.1) {
                        return false;
                    }
                    self.block_boundary();
                    let depth = self.frames.last().map_or(0, |f| f.depth);
                    let kind = match shape {
                        ListShape::Items => FrameKind::List {
                            kind: ListKind::Unordered,
                            items: Vec::new(),
                        },
                        ListShape::Definitions => FrameKind::Dl {
                            compact: false,
                            items: Vec::new(),
                            terms: Vec::new(),
                        },
                    };
                    self.frames.push(Frame::new(kind, NONE, depth, at(line)));
                    return true;
                }
            }
        }
    }

    /// Makes room for a caption: the top frame must be a table.
    pub(super) fn prepare_table_part(&mut self) -> bool {
        loop {
            match self.top_kind() {
                Some(FrameKind::Table { .. }) => return true,
                Some(FrameKind::Row { .. } | FrameKind::Cell(_)) if self.top_is_implicit() => {
                    self.close_top_frame()
                }
                _ => return false,
            }
        }
    }

    /// Whether the top frame was opened by no element.
    fn top_is_implicit(&self) -> bool {
        self.frames.last().is_some_and(|f| f.owner == NONE)
    }

    /// Makes room for a `<tr>`.
    pub(super) fn prepare_row(&mut self) -> bool {
        self.prepare_table_part()
    }

    /// Makes room for a `<td>`/`<th>`: the top frame becomes a row.
    pub(super) fn prepare_cell(&mut self) -> bool {
        loop {
            match self.top_kind() {
                Some(FrameKind::Row { .. }) => return true,
                Some(FrameKind::Cell(_)) if self.top_is_implicit() => self.close_top_frame(),
                Some(FrameKind::Table { .. }) => {
                    let depth = self.frames.last().map_or(0, |f| f.depth);
                    let pos = self.frames.last().map_or(Pos::UNKNOWN, |f| f.pos);
                    self.frames.push(Frame::new(
                        FrameKind::Row { cells: Vec::new() },
                        NONE,
                        depth,
                        pos,
                    ));
                    return true;
                }
                _ => return false,
            }
        }
    }

    /// Closes implicit frames above `len` (those opened inside a block
    /// element that ends).
    pub(super) fn close_implicit_above(&mut self, len: usize) {
        while self.frames.len() > len.max(1) && self.top_is_implicit() {
            self.close_top_frame();
        }
    }
}
