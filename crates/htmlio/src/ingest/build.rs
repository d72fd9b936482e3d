//! From the tree html5ever built to a [`wikitext::Document`]: one walk over
//! the arena, without recursion (the walk follows parent and sibling links,
//! so a page nested 100,000 elements deep costs no stack), building blocks on
//! an explicit stack of frames.
//!
//! - A *frame* is a block the model will hold: the body, a list item, a
//!   blockquote, a definition, a table cell, a heading, a term, preformatted
//!   text; or a container of such (a list, a definition list, a table, a
//!   row). Content frames collect blocks and one inline [`Run`].
//! - Inline formatting (`em`, `strong`, `code`, links) is a stack of entries
//!   along the current path of the tree. A run opens the inline elements of
//!   the entries lazily, when text arrives, and closes them when the text
//!   that follows is no longer inside them. So a block inside an inline
//!   element splits it (the formatting carries on in the block) instead of
//!   losing anything, and elements without text vanish.
//! - Broken structure is mended the way browsers show it: content directly
//!   inside a list goes into its previous item (a list directly inside a list
//!   nests under the previous item), a stray `<li>`/`<dt>`/`<dd>` gets an
//!   implicit list around it, text in a table outside cells gets a cell.
//! - Blocks never nest deeper than the text format's limit
//!   ([`wikitext::MAX_DEPTH`], counting the body as the parser does): deeper
//!   containers are read as plain blocks, with a diagnostic.

use std::collections::{BTreeMap, HashSet};
use std::mem;

use wikitext::{
    Block, DefItem, Document, Inline, ListItem, ListKind, MAX_DEPTH, Meta, Metadata, Numbering,
    Pos, Severity, Term,
};

use super::Options;
use super::diag::{Code, Diagnostic};
use super::run::{Kind, Mode, Pending, Run, trim_end};
use super::sink::{Arena, DOCUMENT, Data, Element, NONE, NodeId};
use super::tags::{Fmt, Tag};
use super::url::{clean_anchor, clean_url, is_unsafe_scheme};

/// The deepest nesting of blocks the text parser produces: it counts the
/// body as one of its `MAX_DEPTH` open containers, so blocks sit inside at
/// most `MAX_DEPTH - 1` list items, blockquotes or definitions.
pub(crate) const MAX_NEST: usize = MAX_DEPTH - 1;

/// A cell of a table row, as collected.
#[derive(Debug)]
struct CellData {
    blocks: Vec<Block>,
    line: u32,
}

#[derive(Debug)]
enum FrameKind {
    Root,
    Item,
    Quote,
    Definition,
    Cell,
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
    Pre {
        lines: Vec<Vec<Inline>>,
        at_start: bool,
    },
}

impl FrameKind {
    /// Whether text and blocks can go straight into the frame.
    fn takes_content(&self) -> bool {
        !matches!(
            self,
            FrameKind::List { .. }
                | FrameKind::Dl { .. }
                | FrameKind::Table { .. }
                | FrameKind::Row { .. }
        )
    }

    /// Whether the frame holds one run of inlines and no blocks.
    fn inline_only(&self) -> bool {
        matches!(
            self,
            FrameKind::Heading(_) | FrameKind::Term | FrameKind::Pre { .. }
        )
    }

    fn mode(&self) -> Mode {
        match self {
            FrameKind::Heading(_) => Mode::Heading,
            FrameKind::Term => Mode::Term,
            _ => Mode::Flow,
        }
    }

    fn is_pre(&self) -> bool {
        matches!(self, FrameKind::Pre { .. })
    }
}

#[derive(Debug)]
struct Frame {
    kind: FrameKind,
    /// The element that opened the frame; `NONE` for implicit frames.
    owner: NodeId,
    /// How deep the frame's blocks are nested (the body's are at 0).
    depth: usize,
    blocks: Vec<Block>,
    run: Run,
    /// How many `<p>` elements are open in this frame.
    para: u32,
    pos: Pos,
    /// The frame element's own `id` (headings and terms wrap their whole
    /// text in it when they can).
    anchor: Option<(String, u32)>,
    /// An empty line or two `<br>` ended the last text block: the next bare
    /// text is a block of its own.
    split_text: bool,
}

impl Frame {
    fn new(kind: FrameKind, owner: NodeId, depth: usize, pos: Pos) -> Frame {
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
    fn add_block(&mut self, block: Block) {
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
        // Seed 000: consecutive list items of the same type are merged into
        // one list, consecutive definition list items into one definition
        // list; the text format cannot hold two such lists in a row.
        match (self.blocks.last_mut(), block) {
            (
                Some(Block::List { kind, items, .. }),
                Block::List {
                    kind: k2,
                    items: more,
                    ..
                },
            ) if *kind == k2 => items.extend(more),
            (
                Some(Block::DefinitionList { items, .. }),
                Block::DefinitionList { items: more, .. },
            ) => items.extend(more),
            (_, block) => self.blocks.push(block),
        }
    }
}

/// Appends `more` to `run`, merging text at the seam.
fn extend_run(run: &mut Vec<Inline>, more: Vec<Inline>) {
    let mut more = more.into_iter();
    if let Some(first) = more.next() {
        match (run.last_mut(), first) {
            (Some(Inline::Text { text, .. }), Inline::Text { text: t, .. }) => text.push_str(&t),
            (_, first) => run.push(first),
        }
    }
    run.extend(more);
}

/// The serials of formatting entries: at most one entry per kind of inline
/// element is ever on the stack, so four fit.
#[derive(Debug, Default)]
struct Serials {
    items: [u32; 4],
    len: usize,
}

impl Serials {
    fn push(&mut self, serial: u32) {
        if let Some(slot) = self.items.get_mut(self.len) {
            *slot = serial;
            self.len += 1;
        }
    }

    fn as_slice(&self) -> &[u32] {
        self.items.get(..self.len).unwrap_or(&[])
    }
}

/// An inline formatting entry on the path from the root.
#[derive(Debug)]
struct FmtEntry {
    serial: u32,
    kind: Kind,
    /// Whether some run opened it (it had text). An anchor is placed once:
    /// when a link's text is split over several blocks or lines, only the
    /// first part carries the anchor name.
    used: bool,
}

impl FmtEntry {
    /// Whether the entry still applies: an anchor without URL applies only
    /// until its first use.
    fn applies(&self, pre: bool) -> bool {
        match &self.kind {
            Kind::Code => !pre,
            Kind::Link { url: None, .. } => !self.used,
            _ => true,
        }
    }

    /// The element a run opens for the entry.
    fn element(&self) -> Kind {
        match &self.kind {
            Kind::Link { url, .. } if self.used => Kind::Link {
                url: url.clone(),
                fragment: None,
            },
            kind => kind.clone(),
        }
    }
}

/// What to undo when an element ends.
#[derive(Debug, Default)]
struct Exit {
    /// The element pushed a formatting entry.
    fmt: bool,
    /// The element is an `a` whose entry may need its text or anchor.
    anchor_link: Option<Option<String>>,
    /// The element opened the frame at this index.
    frame: Option<usize>,
    /// The element is a block: the frame count when it started.
    block: Option<usize>,
    /// The element is a `<p>` counted in the frame at this index.
    para: Option<usize>,
    /// The element is a `<q>`.
    quote: bool,
}

pub(crate) struct Builder<'a> {
    arena: &'a Arena,
    keep_unsafe_links: bool,
    frames: Vec<Frame>,
    fmt: Vec<FmtEntry>,
    serial: u32,
    exits: Vec<Exit>,
    pending_anchors: Vec<(String, u32)>,
    /// Anchor names placed so far.
    anchors_seen: HashSet<String>,
    meta: Metadata,
    content_language: Option<String>,
    pub(crate) diags: Vec<Diagnostic>,
    pub(crate) ballast: BTreeMap<String, usize>,
    unknown_seen: HashSet<String>,
    depth_warned: bool,
}

fn at(line: u32) -> Pos {
    Pos::at_line(line)
}

/// Collapses white space to single spaces and trims it (titles, meta
/// contents: "words joined by single spaces").
fn words(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Whether a character is white space for HTML (ASCII white space).
/// Which kind of list a stray child needs around it.
#[derive(Clone, Copy)]
enum ListShape {
    /// `<li>` in a `<ul>`/`<ol>`.
    Items,
    /// `<dt>`/`<dd>` in a `<dl>`.
    Definitions,
}

fn is_html_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c')
}

impl<'a> Builder<'a> {
    pub(crate) fn new(arena: &'a Arena, options: &Options<'_>) -> Builder<'a> {
        Builder {
            arena,
            keep_unsafe_links: options.keep_unsafe_links,
            frames: vec![Frame::new(FrameKind::Root, DOCUMENT, 0, Pos::UNKNOWN)],
            fmt: Vec::new(),
            serial: 0,
            exits: Vec::new(),
            pending_anchors: Vec::new(),
            anchors_seen: HashSet::new(),
            meta: Metadata::default(),
            content_language: None,
            diags: Vec::new(),
            ballast: BTreeMap::new(),
            unknown_seen: HashSet::new(),
            depth_warned: false,
        }
    }

    fn report(&mut self, code: Code, severity: Severity, line: u32, message: impl Into<String>) {
        self.diags
            .push(Diagnostic::at_line(code, severity, line, message));
    }

    // ---- the walk ---------------------------------------------------------

    /// Walks the whole tree and returns the document.
    pub(crate) fn build(mut self) -> (Document, Vec<Diagnostic>, BTreeMap<String, usize>) {
        let arena = self.arena;
        let mut node = arena.node(DOCUMENT).map_or(NONE, |n| n.first_child);
        while node != NONE {
            let descend = self.enter(node);
            let first = arena.node(node).map_or(NONE, |n| n.first_child);
            if descend && first != NONE {
                node = first;
                continue;
            }
            if descend {
                self.exit(node);
            }
            // Up until there is a next sibling.
            loop {
                let Some(n) = arena.node(node) else {
                    node = NONE;
                    break;
                };
                if n.next != NONE {
                    node = n.next;
                    break;
                }
                node = n.parent;
                if node == DOCUMENT || node == NONE {
                    node = NONE;
                    break;
                }
                self.exit(node);
            }
        }
        self.finish()
    }

    fn finish(mut self) -> (Document, Vec<Diagnostic>, BTreeMap<String, usize>) {
        while self.frames.len() > 1 {
            self.close_top_frame();
        }
        self.flush();
        let leftovers = mem::take(&mut self.pending_anchors);
        for (id, line) in leftovers {
            self.report(
                Code::AnchorDropped,
                Severity::Warning,
                line,
                format!("anchor {id:?} has no text after it to stay on and was left out"),
            );
        }
        if self.meta.lang.is_none() {
            self.meta.lang = self.content_language.take();
        }
        let body = self.frames.pop().map(|f| f.blocks).unwrap_or_default();
        let doc = Document::new(mem::take(&mut self.meta), body);
        (doc, self.diags, self.ballast)
    }

    /// Handles the start of a node; whether to walk into its children (an
    /// [`Exit`] was pushed then).
    fn enter(&mut self, id: NodeId) -> bool {
        let arena = self.arena;
        let Some(node) = arena.node(id) else {
            return false;
        };
        let line = node.line;
        match &node.data {
            Data::Text(t) => {
                self.text(t, line);
                false
            }
            Data::Element(e) => self.element(id, e, line),
            Data::Document | Data::Discard => false,
        }
    }

    fn exit(&mut self, id: NodeId) {
        let Some(exit) = self.exits.pop() else { return };
        let line = self.arena.node(id).map_or(0, |n| n.line);
        if exit.quote {
            self.inline_text("\u{201d}", line);
        }
        if let Some(frame) = exit.frame {
            while self.frames.len() > frame + 1 {
                self.close_top_frame();
            }
            if self.frames.len() == frame + 1 {
                self.close_top_frame();
            }
        }
        if let Some(len) = exit.block {
            self.close_implicit_above(len);
            self.block_boundary();
        }
        if let Some(f) = exit.para.and_then(|frame| self.frames.get_mut(frame)) {
            f.para = f.para.saturating_sub(1);
        }
        if let Some(url) = exit.anchor_link {
            self.end_anchor(url, line);
        }
        if exit.fmt {
            self.fmt.pop();
        }
    }

    // ---- elements ---------------------------------------------------------

    fn element(&mut self, id: NodeId, e: &Element, line: u32) -> bool {
        let mut exit = Exit::default();
        let tag = e.tag;
        // Ids become anchors: headings and terms keep theirs for their whole
        // text, `a` handles its own, everything else puts it on the next word.
        let mut own_id = if matches!(
            tag,
            Tag::Anchor
                | Tag::Html
                | Tag::Head
                | Tag::Title
                | Tag::Meta
                | Tag::Link
                | Tag::Base
                | Tag::Ballast
                | Tag::Nothing
                | Tag::Svg
        ) {
            None
        } else {
            e.attr("id").and_then(|raw| self.id_anchor(raw, line))
        };
        let descend = self.element_kind(id, e, tag, line, &mut exit, &mut own_id);
        if let Some(anchor) = own_id {
            self.pending_anchors.push((anchor, line));
        }
        if descend {
            self.exits.push(exit);
        }
        descend
    }

    fn element_kind(
        &mut self,
        id: NodeId,
        e: &Element,
        tag: Tag,
        line: u32,
        exit: &mut Exit,
        own_id: &mut Option<String>,
    ) -> bool {
        match tag {
            Tag::Html => {
                let lang = e.attr("lang").or_else(|| e.attr("xml:lang")).map(str::trim);
                if let Some(lang) = lang.filter(|l| !l.is_empty()) {
                    self.set_lang(lang, line);
                }
            }
            Tag::Head | Tag::Body => {}
            Tag::Title => {
                self.title(id, line);
                return false;
            }
            Tag::Meta => {
                self.meta_element(e, line);
                return false;
            }
            Tag::Link => {
                self.link_element(e, line);
                return false;
            }
            Tag::Base => {
                if e.attr("href").is_some() {
                    self.report(
                        Code::BaseIgnored,
                        Severity::Warning,
                        line,
                        "<base href> ignored: relative URLs are kept as written",
                    );
                }
                return false;
            }
            Tag::Ballast => {
                *self.ballast.entry(e.name.local.to_string()).or_insert(0) += 1;
                return false;
            }
            Tag::Nothing => return false,
            Tag::Svg => {
                self.report(
                    Code::SvgDropped,
                    Severity::Warning,
                    line,
                    "SVG graphic left out",
                );
                return false;
            }
            Tag::Math => {
                let parent_is_math = self
                    .arena
                    .node(id)
                    .and_then(|n| self.arena.element(n.parent))
                    .is_some_and(|p| p.tag == Tag::Math);
                if !parent_is_math {
                    self.report(
                        Code::MathAsText,
                        Severity::Info,
                        line,
                        "formula kept as plain text",
                    );
                }
            }
            Tag::Unknown => {
                let name = e.name.local.to_string();
                if self.unknown_seen.insert(name.clone()) {
                    self.report(
                        Code::UnknownElement,
                        Severity::Info,
                        line,
                        format!("unknown element <{name}> read as its content"),
                    );
                }
            }
            Tag::Inline => {}
            Tag::Presentational => {
                let what = match &*e.name.local {
                    "sub" => "subscript",
                    "sup" => "superscript",
                    _ => "struck-through text",
                };
                self.report(
                    Code::PresentationLost,
                    Severity::Info,
                    line,
                    format!("{what} kept as plain text"),
                );
            }
            Tag::Format(fmt) => {
                exit.fmt = self.push_fmt(match fmt {
                    Fmt::Em => Kind::Em,
                    Fmt::Strong => Kind::Strong,
                    Fmt::Code => Kind::Code,
                });
            }
            Tag::Anchor => self.start_anchor(e, line, exit),
            Tag::LineBreak => {
                self.line_break(line);
                return false;
            }
            Tag::Image => {
                self.image(e, line);
                return false;
            }
            Tag::Quote => {
                self.inline_text("\u{201c}", line);
                exit.quote = true;
            }
            Tag::Rule => {
                self.rule(line);
                return false;
            }
            Tag::Frame => {
                self.frame_link(e, line);
                return false;
            }
            Tag::Block | Tag::Frameset | Tag::RowGroup => self.start_block(exit),
            Tag::Paragraph => {
                if !self.top_inline_only() {
                    self.prepare_content();
                }
                self.start_block(exit);
                if !self.top_inline_only() {
                    let idx = self.frames.len() - 1;
                    if let Some(f) = self.frames.last_mut() {
                        f.para += 1;
                        exit.para = Some(idx);
                    }
                }
            }
            Tag::Heading(level) => {
                if self.top_inline_only() {
                    self.flattened(line, "a heading");
                    self.start_block(exit);
                } else {
                    self.prepare_content();
                    self.block_boundary();
                    exit.frame = Some(self.open_frame(FrameKind::Heading(level), id, 0, line));
                    if let Some(f) = self.frames.last_mut() {
                        f.anchor = own_id.take().map(|a| (a, line));
                    }
                }
            }
            Tag::Pre => {
                if self.top_inline_only() {
                    self.flattened(line, "preformatted text");
                    self.start_block(exit);
                } else {
                    self.prepare_content();
                    self.block_boundary();
                    exit.frame = Some(self.open_frame(
                        FrameKind::Pre {
                            lines: Vec::new(),
                            at_start: true,
                        },
                        id,
                        0,
                        line,
                    ));
                }
            }
            Tag::Blockquote => {
                if self.container_allowed(line, "a blockquote") {
                    self.prepare_content();
                    self.block_boundary();
                    exit.frame = Some(self.open_frame(FrameKind::Quote, id, 1, line));
                } else {
                    self.start_block(exit);
                }
            }
            Tag::UnorderedList | Tag::OrderedList => {
                if self.container_allowed(line, "a list") {
                    self.prepare_content();
                    self.block_boundary();
                    let kind = if tag == Tag::OrderedList {
                        ListKind::Ordered(self.numbering(e, line))
                    } else {
                        ListKind::Unordered
                    };
                    exit.frame = Some(self.open_frame(
                        FrameKind::List {
                            kind,
                            items: Vec::new(),
                        },
                        id,
                        0,
                        line,
                    ));
                } else {
                    self.start_block(exit);
                }
            }
            Tag::ListItem => {
                if e.attr("value").is_some() {
                    self.report(
                        Code::NumberingLost,
                        Severity::Warning,
                        line,
                        "the item's explicit number (value) is lost",
                    );
                }
                if self.prepare_item(line) {
                    exit.frame = Some(self.open_frame(FrameKind::Item, id, 1, line));
                } else {
                    self.start_block(exit);
                }
            }
            Tag::DefinitionList => {
                if self.container_allowed(line, "a definition list") {
                    self.prepare_content();
                    self.block_boundary();
                    exit.frame = Some(self.open_frame(
                        FrameKind::Dl {
                            compact: e.attr("compact").is_some(),
                            items: Vec::new(),
                            terms: Vec::new(),
                        },
                        id,
                        0,
                        line,
                    ));
                } else {
                    self.start_block(exit);
                }
            }
            Tag::Term | Tag::Definition => {
                if self.prepare_dl_child(line) {
                    if tag == Tag::Term {
                        // A term joins the terms waiting for a definition;
                        // after a definition it starts a new item.
                        exit.frame = Some(self.open_frame(FrameKind::Term, id, 0, line));
                        if let Some(f) = self.frames.last_mut() {
                            f.anchor = own_id.take().map(|a| (a, line));
                        }
                    } else {
                        exit.frame = Some(self.open_frame(FrameKind::Definition, id, 1, line));
                    }
                } else {
                    self.start_block(exit);
                }
            }
            Tag::Table => {
                if self.container_allowed(line, "a table") {
                    self.prepare_content();
                    self.block_boundary();
                    exit.frame = Some(self.open_frame(
                        FrameKind::Table {
                            rows: Vec::new(),
                            caption: Vec::new(),
                            spans: false,
                        },
                        id,
                        0,
                        line,
                    ));
                } else {
                    self.start_block(exit);
                }
            }
            Tag::Caption => {
                if self.prepare_table_part() {
                    exit.frame = Some(self.open_frame(FrameKind::Caption, id, 0, line));
                } else {
                    self.start_block(exit);
                }
            }
            Tag::Row => {
                if self.prepare_row() {
                    exit.frame =
                        Some(self.open_frame(FrameKind::Row { cells: Vec::new() }, id, 0, line));
                } else {
                    self.start_block(exit);
                }
            }
            Tag::Cell | Tag::HeaderCell => {
                let spans = [e.attr("colspan"), e.attr("rowspan")]
                    .into_iter()
                    .flatten()
                    .any(|v| v.trim().parse::<u32>().is_ok_and(|n| n > 1));
                if self.prepare_cell() {
                    if spans
                        && let Some(Frame {
                            kind: FrameKind::Table { spans, .. },
                            ..
                        }) = self.frames.iter_mut().rev().nth(1)
                    {
                        *spans = true;
                    }
                    exit.frame = Some(self.open_frame(FrameKind::Cell, id, 1, line));
                } else {
                    self.start_block(exit);
                }
                if tag == Tag::HeaderCell {
                    exit.fmt = self.push_fmt(Kind::Strong);
                }
            }
        }
        true
    }

    fn top_inline_only(&self) -> bool {
        self.frames.last().is_some_and(|f| f.kind.inline_only())
    }

    fn top_kind(&self) -> Option<&FrameKind> {
        self.frames.last().map(|f| &f.kind)
    }

    /// A transparent block element: a block boundary at both ends.
    fn start_block(&mut self, exit: &mut Exit) {
        self.block_boundary();
        exit.block = Some(self.frames.len());
    }

    fn flattened(&mut self, line: u32, what: &str) {
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
    fn container_allowed(&mut self, line: u32, what: &str) -> bool {
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

    /// Pushes a frame; `deeper` is 1 for frames whose blocks sit one level
    /// below their parent's (items, blockquotes, definitions, cells).
    fn open_frame(&mut self, kind: FrameKind, owner: NodeId, deeper: usize, line: u32) -> usize {
        let base = self.frames.last().map_or(0, |f| f.depth);
        self.frames
            .push(Frame::new(kind, owner, base + deeper, at(line)));
        self.frames.len() - 1
    }

    // ---- making room for content -------------------------------------------

    /// Makes the top frame one that takes text and blocks: closes implicit
    /// lists and definition lists, reopens the previous item of a real list
    /// (content directly inside a list belongs to its previous item), opens
    /// an implicit cell in a table.
    fn prepare_content(&mut self) {
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
                    self.frames
                        .push(Frame::new(FrameKind::Cell, NONE, depth + 1, pos));
                    return;
                }
                _ => return,
            }
        }
    }

    /// Makes room for an `<li>`: the top frame becomes a list (an implicit
    /// one around a stray item). False when the item must be read as a plain
    /// block (inside a heading, or too deep).
    fn prepare_item(&mut self, line: u32) -> bool {
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
    fn prepare_dl_child(&mut self, line: u32) -> bool {
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
    fn prepare_table_part(&mut self) -> bool {
        loop {
            match self.top_kind() {
                Some(FrameKind::Table { .. }) => return true,
                Some(FrameKind::Row { .. } | FrameKind::Cell) if self.top_is_implicit() => {
                    self.close_top_frame()
                }
                _ => return false,
            }
        }
    }

    fn top_is_implicit(&self) -> bool {
        self.frames.last().is_some_and(|f| f.owner == NONE)
    }

    /// Makes room for a `<tr>`.
    fn prepare_row(&mut self) -> bool {
        self.prepare_table_part()
    }

    /// Makes room for a `<td>`/`<th>`: the top frame becomes a row.
    fn prepare_cell(&mut self) -> bool {
        loop {
            match self.top_kind() {
                Some(FrameKind::Row { .. }) => return true,
                Some(FrameKind::Cell) if self.top_is_implicit() => self.close_top_frame(),
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
    fn close_implicit_above(&mut self, len: usize) {
        while self.frames.len() > len.max(1) && self.top_is_implicit() {
            self.close_top_frame();
        }
    }

    // ---- block boundaries and frames --------------------------------------

    /// The current inline run ends here (a block starts or ends).
    fn block_boundary(&mut self) {
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
    fn flush(&mut self) {
        let Some(top) = self.frames.last_mut() else {
            return;
        };
        if top.kind.inline_only() || top.run.is_empty() {
            top.run.clear_pending();
            return;
        }
        let (content, pos) = top.run.finish(false);
        let spaces = mem::take(&mut top.run.spaces_added);
        if content.is_empty() {
            return;
        }
        let block = if top.para > 0 {
            Block::Paragraph { content, pos }
        } else {
            Block::Text { content, pos }
        };
        top.add_block(block);
        self.spaces_added(spaces, pos.line);
    }

    fn spaces_added(&mut self, n: u32, line: u32) {
        if n > 0 {
            self.report(
                Code::SpaceAdded,
                Severity::Info,
                line,
                format!(
                    "{n} space{} put in where inline markup touched a letter or digit (the text format needs a \
                     space or punctuation there)",
                    if n == 1 { "" } else { "s" }
                ),
            );
        }
    }

    /// Adds finished blocks to the top frame (making room first).
    fn deliver(&mut self, blocks: Vec<Block>) {
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
    fn close_top_frame(&mut self) {
        if self.frames.len() <= 1 {
            return;
        }
        if self.top_kind().is_some_and(FrameKind::is_pre) {
            self.pre_newline();
        } else {
            self.flush();
        }
        let Some(mut frame) = self.frames.pop() else {
            return;
        };
        let line = frame.pos.line;
        match frame.kind {
            FrameKind::Root => {}
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
            FrameKind::Cell => {
                if let Some(Frame {
                    kind: FrameKind::Row { cells },
                    ..
                }) = self.frames.last_mut()
                {
                    cells.push(CellData {
                        blocks: frame.blocks,
                        line,
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
            FrameKind::List { kind, items } => {
                if !items.is_empty() {
                    let pos = items.first().map_or(frame.pos, |i| i.pos);
                    self.deliver(vec![Block::List { kind, items, pos }]);
                }
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
            FrameKind::Heading(level) => {
                let (mut content, pos) = frame.run.finish(false);
                self.spaces_added(frame.run.spaces_added, line);
                if let Some((anchor, aline)) = frame.anchor.take() {
                    self.attach_own_anchor(&mut content, anchor, aline);
                }
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
            FrameKind::Term => {
                let (mut content, pos) = frame.run.finish(false);
                self.spaces_added(frame.run.spaces_added, line);
                if let Some((anchor, aline)) = frame.anchor.take() {
                    self.attach_own_anchor(&mut content, anchor, aline);
                }
                if !content.is_empty() {
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
            }
            FrameKind::Pre { mut lines, .. } => {
                while lines.last().is_some_and(Vec::is_empty) {
                    lines.pop();
                }
                let lead = lines.iter().take_while(|l| l.is_empty()).count();
                lines.drain(..lead);
                // The text format collapses consecutive empty lines.
                lines.dedup_by(|a, b| a.is_empty() && b.is_empty());
                if strip_common_indent(&mut lines) {
                    self.report(
                        Code::PreIndentLost,
                        Severity::Warning,
                        line,
                        "the first line of preformatted text was indented more than a later line; \
                         the text format measures from the first line, so its extra indentation was dropped",
                    );
                }
                if !lines.is_empty() {
                    self.deliver(vec![Block::Preformatted {
                        lines,
                        pos: frame.pos,
                    }]);
                }
            }
        }
    }

    // ---- tables ---------------------------------------------------------------

    /// Seed 000 "compact definition list ... it is even possible to emulate
    /// simple tables": a data table becomes one compact item per row, each
    /// cell the term of the next nested compact item, the last cell the
    /// definition (empty cells are `::` terms). Header cells are strong (the
    /// `th` mapping). A table whose cells hold blocks (other than the last
    /// cell of a row), or that has a single column, is a layout table: its
    /// cells' blocks follow each other.
    fn finish_table(
        &mut self,
        rows: Vec<Vec<CellData>>,
        caption: Vec<Block>,
        spans: bool,
        depth: usize,
        line: u32,
    ) -> Vec<Block> {
        let mut out = caption;
        let rows: Vec<Vec<CellData>> = rows
            .into_iter()
            .map(|mut r| {
                // A cell with nothing but white space (`&nbsp;` included) is
                // an empty cell.
                for cell in &mut r {
                    if cell.blocks.iter().all(|b| block_text(b).trim().is_empty()) {
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

    /// A cell as a one-line term (none when the cell is empty).
    fn cell_term(&mut self, cell: CellData) -> Option<Term> {
        let block = cell.blocks.into_iter().next()?;
        let (content, pos) = match block {
            Block::Paragraph { content, pos } | Block::Text { content, pos } => (content, pos),
            other => {
                let pos = other.pos();
                (vec![Inline::text(block_text(&other))], pos)
            }
        };
        let (content, changed) = one_line(content);
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

    // ---- text ------------------------------------------------------------------

    /// A text node.
    fn text(&mut self, text: &str, line: u32) {
        if self.top_kind().is_some_and(FrameKind::is_pre) {
            self.pre_text(text, line);
            return;
        }
        let bytes = text.as_bytes();
        if bytes.iter().all(|&b| is_html_ws(b)) {
            if let Some(top) = self.frames.last_mut()
                && top.kind.takes_content()
            {
                top.run.pending_ws(text);
            }
            return;
        }
        self.prepare_content();
        // Split into words and white space; single spaces between words need
        // no special handling and stay inside the pieces.
        let mut line = line;
        let mut start = 0;
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes.get(i).copied().unwrap_or(b'x');
            if !is_html_ws(b) {
                i += 1;
                continue;
            }
            let mut j = i;
            while bytes.get(j).is_some_and(|&b| is_html_ws(b)) {
                j += 1;
            }
            let simple = b == b' ' && j == i + 1 && i > start && j < bytes.len();
            if simple {
                i = j;
                continue;
            }
            if i > start {
                self.word(text.get(start..i).unwrap_or(""), line);
            }
            let ws = text.get(i..j).unwrap_or("");
            if let Some(top) = self.frames.last_mut() {
                top.run.pending_ws(ws);
            }
            line = line.saturating_add(u32::try_from(ws.matches('\n').count()).unwrap_or(0));
            start = j;
            i = j;
        }
        if start < bytes.len() {
            self.word(text.get(start..).unwrap_or(""), line);
        }
    }

    /// Text that is not from a text node (alt text, quotation marks): white
    /// space in it is normalised the same way.
    fn inline_text(&mut self, text: &str, line: u32) {
        self.text(text, line);
    }

    /// A piece of text without white space at its edges.
    fn word(&mut self, piece: &str, line: u32) {
        let pos = at(line);
        self.sync_close();
        let Some(top) = self.frames.last_mut() else {
            return;
        };
        let mode = match top.kind.mode() {
            Mode::Flow if top.para == 0 && !matches!(top.kind, FrameKind::Root) => Mode::Bare,
            mode => mode,
        };
        match top.run.take_pending(mode) {
            Pending::Nothing => {}
            Pending::Space(ws) => top.run.text(&ws, pos),
            Pending::Break => top.run.line_break(pos),
            Pending::Split => {
                self.flush();
                if let Some(top) = self.frames.last_mut() {
                    top.split_text = true;
                }
            }
        }
        self.sync_open(line);
        let mut rest = piece;
        if !self.pending_anchors.is_empty() {
            rest = self.place_anchors(rest, line);
        }
        if let Some(top) = self.frames.last_mut() {
            top.run.text(rest, pos);
        }
    }

    /// Puts waiting anchors on the first words of `piece`; returns the rest.
    fn place_anchors<'t>(&mut self, piece: &'t str, line: u32) -> &'t str {
        let mut rest = piece;
        while !rest.is_empty() && !self.pending_anchors.is_empty() {
            let Some(top) = self.frames.last_mut() else {
                break;
            };
            if let Some(fragment) = top.run.fresh_link() {
                if fragment.is_none() {
                    *fragment = Some(self.pending_anchors.remove(0).0);
                    continue;
                }
                break;
            }
            if top.run.in_link() {
                break;
            }
            let cut = rest.find(' ').unwrap_or(rest.len());
            let (word, tail) = rest.split_at(cut);
            let (anchor, _) = self.pending_anchors.remove(0);
            top.run.inline(
                Inline::Link {
                    url: None,
                    fragment: Some(anchor),
                    content: vec![Inline::text(word)],
                    pos: at(line),
                },
                word.chars().next_back(),
            );
            rest = match tail.strip_prefix(' ') {
                Some(t) => {
                    top.run.text(" ", at(line));
                    t
                }
                None => tail,
            };
        }
        rest
    }

    /// Whether a formatting entry applies in the top frame now: no sample
    /// text in preformatted text, and an anchor without URL only until its
    /// first use is over.
    fn entry_applies(&self, f: &FmtEntry, pre: bool) -> bool {
        f.applies(pre)
            || self
                .frames
                .last()
                .is_some_and(|t| t.run.open.iter().any(|o| o.serial == f.serial))
    }

    /// The serials of the entries that apply in the top frame, in order
    /// (at most one entry per kind of inline element, so a few).
    fn effective_serials(&self) -> Serials {
        let pre = self.top_kind().is_some_and(FrameKind::is_pre);
        let mut out = Serials::default();
        for f in self.fmt.iter().filter(|f| self.entry_applies(f, pre)) {
            out.push(f.serial);
        }
        out
    }

    /// Closes the open elements of the top run that the current path has
    /// left.
    fn sync_close(&mut self) {
        let serials = self.effective_serials();
        let Some(top) = self.frames.last_mut() else {
            return;
        };
        let pre = top.kind.is_pre();
        let keep = top
            .run
            .open
            .iter()
            .zip(serials.as_slice())
            .take_while(|(o, s)| o.serial == **s)
            .count();
        while top.run.open.len() > keep {
            top.run.close_top(pre);
        }
    }

    /// Opens the elements of the current path the top run lacks.
    fn sync_open(&mut self, line: u32) {
        let serials = self.effective_serials();
        let Some(top) = self.frames.last_mut() else {
            return;
        };
        let have = top.run.open.len();
        for serial in serials.as_slice().iter().skip(have) {
            if let Some(entry) = self.fmt.iter_mut().find(|f| f.serial == *serial) {
                top.run.open(entry.serial, entry.element(), at(line));
                entry.used = true;
            }
        }
    }

    fn push_fmt(&mut self, kind: Kind) -> bool {
        // The same formatting inside itself adds nothing (and `__x__` would
        // not read back as nested emphasis).
        let same = |f: &FmtEntry| mem::discriminant(&f.kind) == mem::discriminant(&kind);
        if self.fmt.iter().any(same) {
            return false;
        }
        self.serial = self.serial.wrapping_add(1);
        self.fmt.push(FmtEntry {
            serial: self.serial,
            kind,
            used: false,
        });
        true
    }

    /// `<br>`.
    fn line_break(&mut self, line: u32) {
        match self.top_kind() {
            Some(FrameKind::Pre { .. }) => self.pre_newline(),
            Some(k) if k.takes_content() => {
                if let Some(top) = self.frames.last_mut() {
                    top.run.pending_br();
                }
            }
            _ => {}
        }
        let _ = line;
    }

    // ---- preformatted text -----------------------------------------------------

    fn pre_text(&mut self, text: &str, line: u32) {
        // A form feed is HTML white space that XML cannot hold (emission
        // would write U+FFFD, breaking the round trip): in preformatted text
        // too it is a space, as outside (found by cargo fuzz).
        let text = if text.contains('\u{c}') {
            std::borrow::Cow::Owned(text.replace('\u{c}', " "))
        } else {
            std::borrow::Cow::Borrowed(text)
        };
        let mut first = true;
        let mut line = line;
        for piece in text.split('\n') {
            if !first {
                self.pre_newline();
                line = line.saturating_add(1);
            }
            first = false;
            if piece.is_empty() {
                continue;
            }
            self.sync_close();
            self.sync_open(line);
            let Some(top) = self.frames.last_mut() else {
                return;
            };
            let FrameKind::Pre { at_start, .. } = &mut top.kind else {
                return;
            };
            if *at_start {
                // Leading tabs are eight spaces each, as the text format
                // reads them (and as tab stops at the start of a line are).
                let lead = piece.len() - piece.trim_start_matches([' ', '\t']).len();
                let (indent, rest) = piece.split_at(lead);
                if !rest.is_empty() {
                    *at_start = false;
                }
                let expanded = indent.replace('\t', "        ");
                top.run.text(&expanded, at(line));
                top.run.text(rest, at(line));
            } else {
                top.run.text(piece, at(line));
            }
        }
    }

    /// Ends the current line of preformatted text.
    fn pre_newline(&mut self) {
        let Some(top) = self.frames.last_mut() else {
            return;
        };
        let (mut content, pos) = top.run.finish(true);
        let spaces = mem::take(&mut top.run.spaces_added);
        trim_end(&mut content);
        if let FrameKind::Pre { lines, at_start } = &mut top.kind {
            lines.push(content);
            *at_start = true;
        }
        self.spaces_added(spaces, pos.line);
    }

    // ---- inline elements ------------------------------------------------------

    fn start_anchor(&mut self, e: &Element, line: u32, exit: &mut Exit) {
        let mut url = None;
        if let Some(href) = e.attr("href") {
            match clean_url(href) {
                None => self.report(
                    Code::EmptyUrl,
                    Severity::Warning,
                    line,
                    "link with an empty URL kept as its text",
                ),
                Some(clean) => {
                    if let Some(scheme) = clean.scheme.as_deref().filter(|s| is_unsafe_scheme(s)) {
                        if self.keep_unsafe_links {
                            url = Some(clean.url);
                        } else {
                            self.report(
                                Code::UnsafeLink,
                                Severity::Warning,
                                line,
                                format!(
                                    "{scheme}: link neutralised: its text is kept, the link is not"
                                ),
                            );
                        }
                    } else {
                        if clean.encoded {
                            self.report(
                                Code::UrlEncoded,
                                Severity::Info,
                                line,
                                format!("characters the text format forbids in a URL were percent-encoded: {}", clean.url),
                            );
                        }
                        url = Some(clean.url);
                    }
                }
            }
        }
        // The anchor name: `name`, else `id`; a different `id` as well waits
        // for the next word.
        let name = e.attr("name").and_then(|raw| self.link_anchor(raw, line));
        // `name` and `id` with the same value (as pagetext writes them) are
        // one anchor.
        let id = e
            .attr("id")
            .filter(|raw| {
                clean_anchor(raw).map(|c| c.0) != e.attr("name").and_then(clean_anchor).map(|c| c.0)
            })
            .and_then(|raw| self.link_anchor(raw, line));
        let fragment = match (name, id) {
            (Some(n), Some(i)) => {
                self.pending_anchors.push((i, line));
                Some(n)
            }
            (n, i) => n.or(i),
        };
        if url.is_none() && fragment.is_none() {
            return;
        }
        if self.fmt.iter().any(|f| matches!(f.kind, Kind::Link { .. })) {
            if url.is_some() {
                self.report(
                    Code::NestedLink,
                    Severity::Warning,
                    line,
                    "link inside a link: only its text is kept",
                );
            }
            if let Some(fragment) = fragment {
                self.pending_anchors.push((fragment, line));
            }
            return;
        }
        exit.fmt = self.push_fmt(Kind::Link {
            url: url.clone(),
            fragment,
        });
        if exit.fmt {
            exit.anchor_link = Some(url);
        }
    }

    /// The end of an `a`: a link that got no text shows its URL (as the
    /// format does for an empty link text); an anchor without text waits for
    /// the next word.
    fn end_anchor(&mut self, url: Option<String>, line: u32) {
        let Some(entry) = self.fmt.last() else { return };
        if entry.used {
            return;
        }
        if let Some(url) = url {
            self.report(
                Code::EmptyLinkText,
                Severity::Info,
                line,
                "link without text: its URL is shown as its text",
            );
            self.inline_text(&url, line);
        } else if let Some(Kind::Link {
            fragment: Some(fragment),
            ..
        }) = self.fmt.last().map(|f| &f.kind)
        {
            let fragment = fragment.clone();
            self.pending_anchors.push((fragment, line));
        }
    }

    /// The anchor name of an `a` element's `name` or `id`, or `None` when an
    /// earlier anchor has it (a browser goes to the first; a repeated
    /// anchor would make the XHTML invalid). Parsers repeat anchors too:
    /// `<a id="x"/>` leaves the `a` open, and each block that follows gets a
    /// copy of it.
    fn link_anchor(&mut self, raw: &str, line: u32) -> Option<String> {
        let (name, changed) = clean_anchor(raw)?;
        if !self.anchors_seen.insert(name.clone()) {
            self.report(
                Code::AnchorDropped,
                Severity::Info,
                line,
                format!("anchor {name:?} repeats an earlier one and was left out"),
            );
            return None;
        }
        if changed {
            self.report(
                Code::UrlEncoded,
                Severity::Info,
                line,
                format!("characters the text format forbids in an anchor name were percent-encoded: {name}"),
            );
        }
        Some(name)
    }

    /// The anchor name of another element's `id`, or `None` when an earlier
    /// anchor has it (a browser goes to the first; a repeated anchor would
    /// make the XHTML invalid).
    fn id_anchor(&mut self, raw: &str, line: u32) -> Option<String> {
        let (name, changed) = clean_anchor(raw)?;
        if !self.anchors_seen.insert(name.clone()) {
            self.report(
                Code::AnchorDropped,
                Severity::Info,
                line,
                format!("id {name:?} repeats an anchor of the page and was left out"),
            );
            return None;
        }
        if changed {
            self.report(
                Code::UrlEncoded,
                Severity::Info,
                line,
                format!("characters the text format forbids in an anchor name were percent-encoded: {name}"),
            );
        }
        Some(name)
    }

    /// A heading's or term's own `id`: around the whole text when it holds
    /// no link, otherwise on its first word.
    fn attach_own_anchor(&mut self, content: &mut Vec<Inline>, anchor: String, line: u32) {
        if content.is_empty() {
            self.pending_anchors.push((anchor, line));
            return;
        }
        if !has_link(content) {
            let pos = content.first().map_or(at(line), Inline::pos);
            let inner = mem::take(content);
            content.push(Inline::Link {
                url: None,
                fragment: Some(anchor),
                content: inner,
                pos,
            });
            return;
        }
        if let Some(Inline::Link { fragment, .. }) = content.first_mut()
            && fragment.is_none()
        {
            *fragment = Some(anchor);
            return;
        }
        if let Some(Inline::Text { text, pos }) = content.first_mut() {
            let cut = text.find(' ').unwrap_or(text.len());
            let word: String = text.drain(..cut).collect();
            let pos = *pos;
            let link = Inline::Link {
                url: None,
                fragment: Some(anchor),
                content: vec![Inline::text(word).at(pos)],
                pos,
            };
            if text.is_empty() {
                content.remove(0);
            }
            content.insert(0, link);
            return;
        }
        self.report(
            Code::AnchorDropped,
            Severity::Warning,
            line,
            format!("anchor {anchor:?} could not be placed on its text and was left out"),
        );
    }

    fn image(&mut self, e: &Element, line: u32) {
        match e.attr("alt") {
            Some(alt) if !alt.trim().is_empty() => {
                self.report(
                    Code::ImageAsText,
                    Severity::Info,
                    line,
                    format!("image shown as its alt text {:?}", words(alt)),
                );
                self.inline_text(alt, line);
            }
            // An empty alt says the image is decoration.
            Some(_) => {}
            None => self.report(
                Code::ImageDropped,
                Severity::Warning,
                line,
                match e.attr("src") {
                    Some(src) => format!("image without alt text left out ({})", src.trim()),
                    None => "image without alt text left out".to_owned(),
                },
            ),
        }
    }

    fn rule(&mut self, line: u32) {
        match self.top_kind() {
            Some(k) if k.inline_only() => self.block_boundary(),
            _ => self.deliver(vec![Block::Rule { pos: at(line) }]),
        }
    }

    /// `<frame src name>`: a link to the frame's document.
    fn frame_link(&mut self, e: &Element, line: u32) {
        let Some(clean) = e.attr("src").and_then(clean_url) else {
            return;
        };
        if clean.scheme.as_deref().is_some_and(is_unsafe_scheme) && !self.keep_unsafe_links {
            self.report(
                Code::UnsafeLink,
                Severity::Warning,
                line,
                "frame with an unsafe URL left out",
            );
            return;
        }
        let text = e
            .attr("title")
            .or_else(|| e.attr("name"))
            .map(words)
            .filter(|t| !t.is_empty())
            .unwrap_or_else(|| clean.url.clone());
        self.report(
            Code::FrameAsLink,
            Severity::Info,
            line,
            format!("frame shown as a link to {}", clean.url),
        );
        let mut content = Vec::new();
        wikitext::push_text(&mut content, &text, at(line));
        self.deliver(vec![Block::Text {
            content: vec![Inline::Link {
                url: Some(clean.url),
                fragment: None,
                content,
                pos: at(line),
            }],
            pos: at(line),
        }]);
    }

    fn numbering(&mut self, e: &Element, line: u32) -> Numbering {
        if e.attr("start").is_some() || e.attr("reversed").is_some() {
            self.report(
                Code::NumberingLost,
                Severity::Warning,
                line,
                "the list's start value or reversed order is lost",
            );
        }
        match e.attr("type").map(str::trim) {
            None | Some("1" | "") => Numbering::Decimal,
            Some("a") => Numbering::LowerAlpha,
            Some("A") => Numbering::UpperAlpha,
            Some(other) => {
                self.report(
                    Code::NumberingLost,
                    Severity::Warning,
                    line,
                    format!("list numbering type {other:?} is not in the text format: numbered with digits"),
                );
                Numbering::Decimal
            }
        }
    }

    // ---- the head ------------------------------------------------------------

    fn set_lang(&mut self, lang: &str, line: u32) {
        let first = lang.split_whitespace().next().unwrap_or("");
        if first.len() != lang.len() {
            self.report(
                Code::MetadataChanged,
                Severity::Warning,
                line,
                format!("language {lang:?} has white space: kept its first word"),
            );
        }
        if !first.is_empty() {
            self.meta.lang = Some(first.to_owned());
        }
    }

    fn title(&mut self, id: NodeId, line: u32) {
        let title = words(&self.arena.child_text(id));
        if title.is_empty() {
            return;
        }
        if self.meta.title.is_some() {
            self.report(
                Code::ExtraTitle,
                Severity::Info,
                line,
                "another <title> ignored",
            );
        } else {
            self.meta.title = Some(title);
        }
    }

    fn meta_element(&mut self, e: &Element, line: u32) {
        let content = e.attr("content").map(words).unwrap_or_default();
        if let Some(equiv) = e.attr("http-equiv") {
            if equiv.trim().eq_ignore_ascii_case("content-language")
                && self.content_language.is_none()
            {
                let lang = content.split([' ', ',']).next().unwrap_or("");
                if !lang.is_empty() {
                    self.content_language = Some(lang.to_owned());
                }
            }
            // Pragmas (the content type above all) are the output's own.
            return;
        }
        let Some(name) = e.attr("name").map(str::trim).filter(|n| !n.is_empty()) else {
            if e.attr("charset").is_none() {
                let what = e
                    .attr("property")
                    .map(|p| format!("<meta property={:?}>", p.trim()))
                    .unwrap_or_else(|| "<meta> without a name".to_owned());
                self.report(
                    Code::MetadataDropped,
                    Severity::Info,
                    line,
                    format!("{what} left out"),
                );
            }
            return;
        };
        let clean: String = name.split_whitespace().collect::<Vec<_>>().join("-");
        if clean != name {
            self.report(
                Code::MetadataChanged,
                Severity::Warning,
                line,
                format!("meta name {name:?} has white space: written {clean:?}"),
            );
        }
        self.meta.metas.push(Meta {
            name: clean,
            content,
            pos: at(line),
        });
    }

    fn link_element(&mut self, e: &Element, line: u32) {
        let Some(clean) = e.attr("href").and_then(clean_url) else {
            self.report(
                Code::MetadataDropped,
                Severity::Info,
                line,
                "<link> without href left out",
            );
            return;
        };
        if clean.scheme.as_deref().is_some_and(is_unsafe_scheme) && !self.keep_unsafe_links {
            self.report(
                Code::UnsafeLink,
                Severity::Warning,
                line,
                "<link> with an unsafe URL left out",
            );
            return;
        }
        if clean.encoded {
            self.report(
                Code::UrlEncoded,
                Severity::Info,
                line,
                format!(
                    "characters the text format forbids in a URL were percent-encoded: {}",
                    clean.url
                ),
            );
        }
        let mut rel = Vec::new();
        for value in e.attr("rel").unwrap_or("").split_ascii_whitespace() {
            if value.contains(':') {
                self.report(
                    Code::MetadataChanged,
                    Severity::Warning,
                    line,
                    format!("link relation {value:?} has a colon, which the text format cannot hold: left out"),
                );
            } else {
                rel.push(value.to_owned());
            }
        }
        let title = e.attr("title").map(words).filter(|t| !t.is_empty());
        self.meta.links.push(wikitext::Link {
            rel,
            href: clean.url,
            title,
            pos: at(line),
        });
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

/// The text format measures preformatted lines from the indentation of the
/// block (seed 000: "All following lines that have an equal or greater
/// indentation than the first line are part of the same block"), so an
/// indentation shared by all lines cannot be held: it is removed; and the
/// first line cannot be indented more than a later line: its excess is
/// removed (returns whether that happened).
fn strip_common_indent(lines: &mut [Vec<Inline>]) -> bool {
    fn indent(line: &[Inline]) -> usize {
        match line.first() {
            Some(Inline::Text { text, .. }) => text.len() - text.trim_start_matches(' ').len(),
            _ => 0,
        }
    }
    fn dedent(line: &mut Vec<Inline>, n: usize) {
        if n == 0 {
            return;
        }
        if let Some(Inline::Text { text, .. }) = line.first_mut() {
            text.replace_range(..n.min(text.len()), "");
            if text.is_empty() {
                line.remove(0);
            }
        }
    }
    let mut cut_first = false;
    let rest_min = lines
        .iter()
        .skip(1)
        .filter(|l| !l.is_empty())
        .map(|l| indent(l))
        .min();
    if let (Some(first), Some(rest_min)) = (lines.first_mut(), rest_min) {
        let first_indent = indent(first);
        if first_indent > rest_min {
            dedent(first, first_indent - rest_min);
            cut_first = true;
        }
    }
    let common = lines
        .iter()
        .filter(|l| !l.is_empty())
        .map(|l| indent(l))
        .min()
        .unwrap_or(0);
    for line in lines.iter_mut().filter(|l| !l.is_empty()) {
        dedent(line, common);
    }
    cut_first
}

/// Whether a run holds a link or an e-mail address at any depth.
fn has_link(run: &[Inline]) -> bool {
    let mut stack: Vec<&[Inline]> = vec![run];
    while let Some(items) = stack.pop() {
        for inline in items {
            match inline {
                Inline::Link { .. } | Inline::Email { .. } => return true,
                Inline::Emphasis { content, .. }
                | Inline::Strong { content, .. }
                | Inline::Code { content, .. } => stack.push(content),
                Inline::Text { .. } | Inline::LineBreak { .. } => {}
            }
        }
    }
    false
}

/// Whether a cell's blocks fit on one line of a compact item: nothing, or
/// one paragraph or text block.
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
                _ => {}
            }
        }
    }
    max
}

/// A run with its line divisions turned into spaces (at any depth: inline
/// nesting is bounded by the four kinds of inline element, each at most
/// once on a path). Returns whether anything changed.
fn one_line(run: Vec<Inline>) -> (Vec<Inline>, bool) {
    fn go(run: Vec<Inline>, changed: &mut bool, depth: usize) -> Vec<Inline> {
        let mut out: Vec<Inline> = Vec::with_capacity(run.len());
        for inline in run {
            let inline = match inline {
                Inline::LineBreak { pos } => {
                    *changed = true;
                    Inline::Text {
                        text: " ".into(),
                        pos,
                    }
                }
                Inline::Emphasis { content, pos } if depth < 8 => Inline::Emphasis {
                    content: go(content, changed, depth + 1),
                    pos,
                },
                Inline::Strong { content, pos } if depth < 8 => Inline::Strong {
                    content: go(content, changed, depth + 1),
                    pos,
                },
                Inline::Code { content, pos } if depth < 8 => Inline::Code {
                    content: go(content, changed, depth + 1),
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
                    content: go(content, changed, depth + 1),
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
    let out = go(run, &mut changed, 0);
    (out, changed)
}

/// The plain text of a block (for flattening), lines joined by spaces.
fn block_text(block: &Block) -> String {
    let mut out = String::new();
    let mut stack: Vec<&Block> = vec![block];
    while let Some(b) = stack.pop() {
        let mut add = |run: &[Inline]| {
            let t = wikitext::plain_text(run).replace('\n', " ");
            if !out.is_empty() && !t.is_empty() {
                out.push(' ');
            }
            out.push_str(&t);
        };
        match b {
            Block::Paragraph { content, .. }
            | Block::Text { content, .. }
            | Block::Heading { content, .. } => add(content),
            Block::Preformatted { lines, .. } => {
                for l in lines {
                    add(l);
                }
            }
            Block::Rule { .. } => {}
            Block::Blockquote { content, .. } => stack.extend(content.iter().rev()),
            Block::List { items, .. } => {
                for item in items.iter().rev() {
                    stack.extend(item.content.iter().rev());
                }
            }
            Block::DefinitionList { items, .. } => {
                for item in items.iter().rev() {
                    stack.extend(item.definition.iter().rev());
                    for t in &item.terms {
                        add(&t.content);
                    }
                }
            }
        }
    }
    out
}
