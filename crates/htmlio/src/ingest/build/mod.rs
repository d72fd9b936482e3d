//! From the tree html5ever built to a [`wikitext::Document`]: one walk over
//! the arena, without recursion (the walk follows parent and sibling links,
//! so a page nested 100,000 elements deep costs no stack), building blocks on
//! an explicit stack of frames.
//!
//! - A *frame* is a block the model will hold: the body, a list item, a
//!   blockquote, a definition, a table cell, a heading, a term, preformatted
//!   text; or a container of such (a list, a definition list, a table, a
//!   row). Content frames collect blocks and one inline [`Run`](super::run::Run).
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
//!
//! One file per job: the walk and the builder's state here; [`dispatch`]
//! (what each element does), [`frames`] (the frame stack and making room for
//! content), [`close`] (block boundaries and closing frames), [`text`]
//! (text nodes and words), [`formatting`] (inline formatting entries),
//! [`links`] (links and anchors), [`pre`] (preformatted text), [`tables`]
//! (tables to definition lists), [`figures`] (figures and their captions),
//! [`head`] (metadata).

mod anchors;
mod close;
mod dispatch;
mod figures;
mod formatting;
mod frames;
mod head;
mod images;
mod links;
mod media;
mod pre;
mod tables;
mod text;

use std::collections::{BTreeMap, HashSet};
use std::mem;

use wikitext::{Block, Document, MAX_DEPTH, Metadata, Pos, Severity};

use super::Options;
use super::diag::{Code, Diagnostic};
use super::sink::{Arena, DOCUMENT, Data, NONE, NodeId, Visit};
use super::url::Resolver;
use formatting::FmtEntry;
use frames::{Frame, FrameKind};

/// The deepest nesting of blocks the text parser produces: it counts the
/// body as one of its `MAX_DEPTH` open containers, so blocks sit inside at
/// most `MAX_DEPTH - 1` list items, blockquotes or definitions.
pub(crate) const MAX_NEST: usize = MAX_DEPTH - 1;

/// What to undo when an element ends.
#[derive(Debug, Default)]
struct Exit {
    /// The element pushed a formatting entry.
    fmt: bool,
    /// The element is an `a` whose entry may need its text or anchor.
    /// (Its URL, and its `aria-label` or `title` as words, for a link that
    /// gets no text.)
    anchor_link: Option<(Option<String>, Option<links::Name>)>,
    /// The element opened the frame at this index.
    frame: Option<usize>,
    /// The element is a block: the frame count when it started.
    block: Option<usize>,
    /// The element is a `<p>` counted in the frame at this index.
    para: Option<usize>,
    /// The element is a `<q>`.
    quote: bool,
    /// The element is a `<noscript>`.
    noscript: bool,
    /// The element is a `<textarea>`.
    textarea: bool,
}

/// The walk's state: the open frames, the formatting entries on the path,
/// the anchors waiting for text, the metadata and the diagnostics.
pub(crate) struct Builder<'a> {
    arena: &'a Arena,
    keep_unsafe_links: bool,
    /// Images and tables use the format's extensions ([`Options::extensions`]).
    extensions: bool,
    /// Resolves the page's links (its base URL, its encoding).
    resolver: Resolver,
    /// The `<base href>` element that gives the base URL (the first).
    base_element: NodeId,
    /// Anchor names left out because they could not be placed.
    dropped_anchors: HashSet<String>,
    frames: Vec<Frame>,
    fmt: Vec<FmtEntry>,
    serial: u32,
    exits: Vec<Exit>,
    /// (A queue: anchors are taken from its front, one per word.)
    pending_anchors: std::collections::VecDeque<(String, u32)>,
    /// The script-loaded sources of the page's lazily loaded images,
    /// wherever they stand, gathered when a `<noscript>` image first asks
    /// (`None` until then): an image in `<noscript>` with one of them is
    /// the copy of one.
    lazy_sources: Option<HashSet<String>>,
    /// The text node being read stands inside an element that opened no
    /// frame (a link, a span).
    inline_parent: bool,
    /// How many `<noscript>` elements the walk is in.
    noscript: usize,
    /// How many `<textarea>` elements the walk is in.
    textarea: usize,
    /// Anchor names placed so far.
    anchors_seen: HashSet<String>,
    meta: Metadata,
    content_language: Option<String>,
    pub(crate) diags: Vec<Diagnostic>,
    /// The diagnostics (by index) made while the walk was at an element on
    /// their line: that element, whose start tag gives their columns
    /// (`ingest::columns`).
    pub(crate) attributed: Vec<(usize, NodeId)>,
    /// The element the walk is at (entering or leaving it), or `NONE` at
    /// text.
    current: NodeId,
    pub(crate) ballast: BTreeMap<String, usize>,
    unknown_seen: HashSet<String>,
    depth_warned: bool,
    /// The list box (`select`) of the last choice (`option`, `optgroup`);
    /// a choice of the same box is set apart from it.
    last_choice_owner: NodeId,
    /// A list box was kept as its choices (reported once).
    choice_seen: bool,
    /// The last drop-down seen and the option it shows (`text::choice`).
    shown_choice: (NodeId, NodeId),
    /// The nodes the walk skips with all inside them (the main-content
    /// selection's drops); empty for the whole page.
    skip: Vec<bool>,
}

/// What a walk of the tree gives.
pub(crate) struct Built {
    pub(crate) document: Document,
    pub(crate) diags: Vec<Diagnostic>,
    /// Diagnostics (by index into `diags`) and the element each is about.
    pub(crate) attributed: Vec<(usize, NodeId)>,
    pub(crate) ballast: BTreeMap<String, usize>,
}

/// The position of a line.
fn at(line: u32) -> Pos {
    Pos::at_line(line)
}

impl<'a> Builder<'a> {
    pub(crate) fn new(
        arena: &'a Arena,
        options: &Options<'_>,
        encoding: &'static encoding_rs::Encoding,
    ) -> Builder<'a> {
        let (base_element, base_href, base_line) = first_base(arena);
        let (resolver, refused) = Resolver::new(options.address, base_href, encoding);
        let mut builder = Builder {
            arena,
            keep_unsafe_links: options.keep_unsafe_links,
            extensions: options.extensions,
            resolver,
            base_element,
            dropped_anchors: HashSet::new(),
            frames: vec![Frame::new(FrameKind::Root, DOCUMENT, 0, Pos::UNKNOWN)],
            fmt: Vec::new(),
            serial: 0,
            exits: Vec::new(),
            pending_anchors: std::collections::VecDeque::new(),
            lazy_sources: None,
            noscript: 0,
            inline_parent: false,
            textarea: 0,
            anchors_seen: HashSet::new(),
            meta: Metadata::default(),
            content_language: None,
            diags: Vec::new(),
            attributed: Vec::new(),
            current: NONE,
            ballast: BTreeMap::new(),
            unknown_seen: HashSet::new(),
            depth_warned: false,
            last_choice_owner: NONE,
            choice_seen: false,
            shown_choice: (NONE, NONE),
            skip: Vec::new(),
        };
        if base_href.is_some() {
            builder.base_note(refused, base_line);
        }
        builder
    }

    /// The builder that skips the nodes marked in `skip` (indexed by node).
    pub(crate) fn skipping(mut self, skip: Vec<bool>) -> Self {
        self.skip = skip;
        self
    }

    /// Adds a diagnostic, about the element the walk is at when it is on
    /// the diagnostic's line. Warnings and errors (what a run shows
    /// without `-v`) get that element's columns; notes keep their line
    /// (finding columns costs a pass over the page's text).
    fn report(&mut self, code: Code, severity: Severity, line: u32, message: impl Into<String>) {
        if severity != Severity::Info
            && self.current != NONE
            && self
                .arena
                .node(self.current)
                .is_some_and(|n| n.line == line)
        {
            self.attributed.push((self.diags.len(), self.current));
        }
        self.diags
            .push(Diagnostic::at_line(code, severity, line, message));
    }

    /// Walks the whole tree and returns the document, the diagnostics (with
    /// the elements some are about) and the ballast.
    pub(crate) fn build(mut self) -> Built {
        let arena = self.arena;
        arena.walk(DOCUMENT, &mut self);
        self.finish()
    }

    fn finish(mut self) -> Built {
        while self.frames.len() > 1 {
            self.close_top_frame();
        }
        self.flush();
        if self.meta.lang.is_none() {
            self.meta.lang = self.content_language.take();
        }
        let mut body = self.frames.pop().map(|f| f.blocks).unwrap_or_default();
        // An anchor with no text after it stays on the text before it.
        let leftovers = mem::take(&mut self.pending_anchors);
        for (id, line) in leftovers.into_iter().rev() {
            if let Err(id) = anchors::place_on_last_word(&mut body, id) {
                self.report(
                    Code::AnchorDropped,
                    Severity::Warning,
                    line,
                    format!("anchor {id:?} was left out: the page has no text to put it on"),
                );
                self.dropped_anchors.insert(id);
            }
        }
        let doc = Document::new(mem::take(&mut self.meta), body);
        self.current = NONE;
        self.report_dangling(&doc);
        Built {
            document: doc,
            diags: self.diags,
            attributed: self.attributed,
            ballast: self.ballast,
        }
    }

    /// Says which in-page links point nowhere because their anchor was left
    /// out (seed 002 §2.4.8 step 3 finds no element): one warning per
    /// anchor, at its first link, with the lines of all of them.
    fn report_dangling(&mut self, doc: &Document) {
        if self.dropped_anchors.is_empty() {
            return;
        }
        let mut lines: BTreeMap<&str, Vec<u32>> = BTreeMap::new();
        for d in wikitext::dangling_references(doc) {
            if self.dropped_anchors.contains(d.name) {
                lines.entry(d.name).or_default().push(d.pos.line);
            }
        }
        let mut found: Vec<(&str, Vec<u32>)> = lines.into_iter().collect();
        found.sort_by_key(|(_, l)| l.first().copied());
        for (name, lines) in found {
            let first = lines.first().copied().unwrap_or(0);
            let mut listed: Vec<String> = lines.iter().take(10).map(u32::to_string).collect();
            if lines.len() > 10 {
                listed.push(format!("and {} more", lines.len() - 10));
            }
            let message = format!(
                "{} in-page link{} to #{name} (line{} {}) point{} nowhere now: the anchor was left out",
                lines.len(),
                if lines.len() == 1 { "" } else { "s" },
                if lines.len() == 1 { "" } else { "s" },
                listed.join(", "),
                if lines.len() == 1 { "s" } else { "" },
            );
            self.diags.push(Diagnostic::at_line(
                Code::LinkDangles,
                Severity::Warning,
                first,
                message,
            ));
        }
    }

    /// Handles the start of a node; whether to walk into its children (an
    /// [`Exit`] was pushed then).
    fn enter_node(&mut self, id: NodeId) -> bool {
        let arena = self.arena;
        let Some(node) = arena.node(id) else {
            return false;
        };
        if self.skip.get(id as usize) == Some(&true) {
            return false;
        }
        let line = node.line;
        match &node.data {
            Data::Text(t) => {
                self.current = NONE;
                // An empty line parts text blocks only where the frame's
                // own element holds the text (seed interpretation 1).
                self.inline_parent = self.frames.last().is_some_and(|f| f.owner != node.parent);
                self.text(t, line);
                self.inline_parent = false;
                false
            }
            Data::Element(e) => {
                self.current = id;
                self.element(id, e, line)
            }
            Data::Document | Data::Discard => false,
        }
    }

    /// Handles the end of a node the walk went into: undoes what its
    /// [`Exit`] says.
    fn exit_node(&mut self, id: NodeId) {
        let Some(exit) = self.exits.pop() else { return };
        self.current = id;
        let line = self.arena.node(id).map_or(0, |n| n.line);
        if exit.noscript {
            self.noscript = self.noscript.saturating_sub(1);
        }
        if exit.textarea {
            self.textarea = self.textarea.saturating_sub(1);
        }
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
        if let Some((url, title)) = exit.anchor_link {
            self.end_anchor(url, title, line);
        }
        if exit.fmt {
            self.fmt.pop();
        }
    }
}

/// The first `<base>` element with an `href` in tree order (seed 002
/// §2.5.3 asks for a child of `head`; the later standard takes the first
/// anywhere, and the parser puts a `<base>` of the body where it stands):
/// its node, its `href` and its line; `NONE` when there is none.
fn first_base(arena: &Arena) -> (NodeId, Option<&str>, u32) {
    // Nodes are stored in the order the parser made them, which is tree
    // order for elements from the source.
    for (i, node) in arena.nodes.iter().enumerate() {
        if let Data::Element(e) = &node.data
            && e.tag == crate::ingest::tags::Tag::Base
            && let Some(href) = e.attr("href")
        {
            return (NodeId::try_from(i).unwrap_or(NONE), Some(href), node.line);
        }
    }
    (NONE, None, 0)
}

/// The plain text of a block (for flattening), lines joined by spaces.
fn block_text(block: &Block) -> String {
    let mut out = String::new();
    for run in wikitext::runs(std::slice::from_ref(block)) {
        let t = wikitext::plain_text(run).replace('\n', " ");
        if !out.is_empty() && !t.is_empty() {
            out.push(' ');
        }
        out.push_str(&t);
    }
    out
}

impl Visit for Builder<'_> {
    fn enter(&mut self, id: NodeId) -> bool {
        self.enter_node(id)
    }

    fn exit(&mut self, id: NodeId) {
        self.exit_node(id);
    }
}
