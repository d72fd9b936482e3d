//! A lean tree for html5ever: an arena of nodes indexed by `u32`, linked by
//! parent, sibling and child indices, holding only what the mapping reads.
//!
//! Compared with a general DOM (markup5ever_rcdom), nothing is reference
//! counted, children need no vector of their own, comments, doctypes and
//! processing instructions are never stored, the text of scripts and styles
//! is dropped as it arrives, and only the attributes the mapping reads are
//! kept. Elements in the SVG namespace are the exception: they keep every
//! attribute (namespaced ones such as `xlink:href` as html5ever adjusted
//! them) and their text, which the SVG sanitiser (`super::svg`) reads.
//! Every element records the line html5ever was on when it created it, so
//! diagnostics point at the source.

use std::borrow::Cow;
use std::cell::{Cell, RefCell};

use html5ever::tendril::StrTendril;
use html5ever::tree_builder::{ElementFlags, NodeOrText, QuirksMode, TreeSink};
use html5ever::{Attribute, ExpandedName, LocalName, Namespace, QualName, local_name, ns};

use super::tags::{Tag, classify, keeps_attribute, keeps_structure_attribute, names_figure_part};

/// Index of a node in the arena.
pub(crate) type NodeId = u32;
/// "No node" in a link field.
pub(crate) const NONE: NodeId = u32::MAX;
/// The document node.
pub(crate) const DOCUMENT: NodeId = 0;
/// A node that swallows whatever is appended to it: it stands for comments,
/// processing instructions and the contents of templates.
const DISCARD: NodeId = 1;

/// An element: its name, its classification and the attributes kept.
#[derive(Debug)]
pub(crate) struct Element {
    pub(crate) name: QualName,
    pub(crate) tag: Tag,
    pub(crate) attrs: Vec<Attribute>,
    /// html5ever's flag for MathML `annotation-xml` integration points.
    integration_point: bool,
}

impl Element {
    /// The value of the attribute named `local` (no namespace), if present.
    pub(crate) fn attr(&self, local: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|a| &*a.name.local == local)
            .map(|a| &*a.value)
    }

    /// Whether the page hides the element from every reader: the `hidden`
    /// attribute, `aria-hidden="true"`, or an inline style of `display:
    /// none` or `visibility: hidden` (Readability drops these too; style
    /// sheets are not read, so only the inline style counts).
    pub(crate) fn hidden(&self) -> bool {
        if self
            .attr("aria-hidden")
            .is_some_and(|v| v.trim().eq_ignore_ascii_case("true"))
        {
            return true;
        }
        self.not_shown()
    }

    /// Whether a browser shows the element at all: not when it has the
    /// `hidden` attribute or an inline style of `display: none` or
    /// `visibility: hidden` (kept whatever the mapping is asked for).
    pub(crate) fn not_shown(&self) -> bool {
        self.attrs.iter().any(|a| hides(&a.name.local, &a.value))
    }
}

/// Whether an attribute hides its element: `hidden`, or an inline style
/// of `display: none` or `visibility: hidden`.
fn hides(name: &str, value: &str) -> bool {
    match name {
        "hidden" => true,
        "style" => {
            let squeezed: String = value
                .chars()
                .filter(|c| !c.is_ascii_whitespace())
                .map(|c| c.to_ascii_lowercase())
                .collect();
            squeezed.contains("display:none") || squeezed.contains("visibility:hidden")
        }
        _ => false,
    }
}

/// What a node is.
#[derive(Debug)]
pub(crate) enum Data {
    Document,
    Discard,
    Element(Box<Element>),
    Text(StrTendril),
}

/// One node of the arena.
#[derive(Debug)]
pub(crate) struct Node {
    pub(crate) parent: NodeId,
    pub(crate) first_child: NodeId,
    last_child: NodeId,
    prev: NodeId,
    pub(crate) next: NodeId,
    /// The source line html5ever was on when the node was created (for
    /// text, where it started).
    pub(crate) line: u32,
    /// How deep the node was when it was inserted (not updated when the
    /// tree builder moves it: only used to bound the depth of the tree).
    depth: u32,
    pub(crate) data: Data,
}

impl Node {
    fn new(data: Data, line: u32) -> Node {
        Node {
            parent: NONE,
            first_child: NONE,
            last_child: NONE,
            prev: NONE,
            next: NONE,
            line,
            depth: 0,
            data,
        }
    }
}

/// The tree html5ever built, plus what it said while building it.
#[derive(Debug)]
pub(crate) struct Arena {
    pub(crate) nodes: Vec<Node>,
    /// How many parse errors html5ever reported.
    pub(crate) parse_errors: usize,
    /// The parse errors themselves (line, message), when asked for.
    pub(crate) error_list: Vec<(u32, Cow<'static, str>)>,
    /// The line of the first parse error.
    pub(crate) first_error_line: u32,
    /// How many start tags were ignored because the tree was too deep, and
    /// the line of the first.
    pub(crate) too_deep: (usize, u32),
    /// How many characters XML cannot hold were replaced with U+FFFD, and
    /// the line of the first.
    pub(crate) forbidden: (usize, u32),
}

/// What walks the arena's tree ([`Arena::walk`]).
pub(crate) trait Visit {
    /// A node is reached; whether the walk goes into its children.
    fn enter(&mut self, id: NodeId) -> bool;
    /// A node the walk went into is done (its children, if any, are).
    fn exit(&mut self, id: NodeId);
}

impl Arena {
    /// Walks the descendants of `root` in tree order by the arena's links,
    /// without recursion: down into a node `visit` enters, otherwise on to
    /// the next sibling, up (exiting each node left) when there is none.
    pub(crate) fn walk(&self, root: NodeId, visit: &mut impl Visit) {
        let mut node = self.node(root).map_or(NONE, |n| n.first_child);
        while node != NONE {
            let descend = visit.enter(node);
            let first = self.node(node).map_or(NONE, |n| n.first_child);
            if descend && first != NONE {
                node = first;
                continue;
            }
            if descend {
                visit.exit(node);
            }
            // Up until there is a next sibling.
            loop {
                let Some(n) = self.node(node) else {
                    node = NONE;
                    break;
                };
                if n.next != NONE {
                    node = n.next;
                    break;
                }
                node = n.parent;
                if node == root || node == NONE {
                    node = NONE;
                    break;
                }
                visit.exit(node);
            }
        }
    }

    pub(crate) fn node(&self, id: NodeId) -> Option<&Node> {
        self.nodes.get(id as usize)
    }

    pub(crate) fn element(&self, id: NodeId) -> Option<&Element> {
        match &self.node(id)?.data {
            Data::Element(e) => Some(e),
            _ => None,
        }
    }

    /// Whether `id` is `outer` or inside it (up the parents, no recursion).
    pub(crate) fn contains(&self, outer: NodeId, id: NodeId) -> bool {
        let mut at = id;
        while at != NONE {
            if at == outer {
                return true;
            }
            at = self.node(at).map_or(NONE, |n| n.parent);
        }
        false
    }

    /// The concatenated text of all the text inside `id`, in document
    /// order (a walk, no recursion).
    pub(crate) fn text_of(&self, id: NodeId) -> String {
        struct Collect<'a> {
            arena: &'a Arena,
            out: String,
        }
        impl Visit for Collect<'_> {
            fn enter(&mut self, id: NodeId) -> bool {
                match self.arena.node(id).map(|n| &n.data) {
                    Some(Data::Text(t)) => {
                        self.out.push_str(t);
                        false
                    }
                    Some(Data::Element(_)) => true,
                    _ => false,
                }
            }
            fn exit(&mut self, _id: NodeId) {}
        }
        let mut collect = Collect {
            arena: self,
            out: String::new(),
        };
        self.walk(id, &mut collect);
        collect.out
    }

    /// The concatenated text of the children of `id` (not deeper).
    pub(crate) fn child_text(&self, id: NodeId) -> String {
        let mut out = String::new();
        let mut child = self.node(id).map_or(NONE, |n| n.first_child);
        while let Some(node) = self.node(child) {
            if let Data::Text(t) = &node.data {
                out.push_str(t);
            }
            child = node.next;
        }
        out
    }
}

/// What the tree builder holds for a node: its index, and for elements its
/// name, so that `elem_name` (which the tree builder calls for every element
/// on its stack, many times per tag) is a field access, not a look-up.
#[derive(Debug, Clone)]
pub(crate) struct Handle {
    pub(crate) id: NodeId,
    ns: Namespace,
    local: LocalName,
}

impl Handle {
    fn plain(id: NodeId) -> Handle {
        Handle {
            id,
            ns: ns!(),
            local: local_name!(""),
        }
    }
}

/// What the sink does with html5ever's parse errors: they are always
/// counted (for the summary); their messages are kept only when asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ParseErrors {
    /// Count them, and the line of the first.
    Count,
    /// Count them and keep each one's line and message.
    Keep,
}

/// What the sink keeps beyond the tree the mapping reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Keep {
    /// What becomes of html5ever's parse errors.
    pub(crate) errors: ParseErrors,
    /// Whether the attributes that hint at the page's structure are kept
    /// too (`tags::keeps_structure_attribute`), for the main-content
    /// selection. Off, the arena is exactly the one the mapping needs.
    pub(crate) structure: bool,
}

impl From<ParseErrors> for Keep {
    fn from(errors: ParseErrors) -> Keep {
        Keep {
            errors,
            structure: false,
        }
    }
}

/// The [`TreeSink`] that fills an [`Arena`].
pub(crate) struct Sink {
    nodes: RefCell<Vec<Node>>,
    line: Cell<u32>,
    parse_errors: Cell<usize>,
    first_error_line: Cell<u32>,
    errors: ParseErrors,
    error_list: RefCell<Vec<(u32, Cow<'static, str>)>>,
    /// The last `meta` element created: html5ever signals an encoding
    /// declaration right after inserting it.
    last_meta: Cell<NodeId>,
    /// About how many elements are open (the depth of the last element
    /// inserted, less one per element popped since).
    open_depth: Cell<u32>,
    /// Characters XML cannot hold that [`Sink::clean`] replaced, and the
    /// line of the first.
    forbidden: Cell<(usize, u32)>,
    /// Keep the structure attributes too ([`Keep::structure`]).
    structure: bool,
}

impl Sink {
    pub(crate) fn new(errors: ParseErrors) -> Sink {
        Sink::for_text(errors.into(), 0)
    }

    /// A sink for a document of `len` bytes, its arena sized for the nodes
    /// such a page usually has (a node per 25 to 40 bytes on the corpus;
    /// one per 32 assumed), so that the arena is not copied over and over
    /// as it grows. The guess is capped (a million nodes): a huge page of
    /// few nodes must not reserve memory it never uses, and the arena
    /// grows as usual past the cap.
    pub(crate) fn for_text(keep: Keep, len: usize) -> Sink {
        const MOST_RESERVED: usize = 1 << 20;
        let mut nodes = Vec::with_capacity(2 + (len / 32).min(MOST_RESERVED));
        nodes.push(Node::new(Data::Document, 1));
        nodes.push(Node::new(Data::Discard, 1));
        Sink {
            nodes: RefCell::new(nodes),
            line: Cell::new(1),
            parse_errors: Cell::new(0),
            first_error_line: Cell::new(0),
            errors: keep.errors,
            error_list: RefCell::new(Vec::new()),
            last_meta: Cell::new(NONE),
            open_depth: Cell::new(0),
            forbidden: Cell::new((0, 0)),
            structure: keep.structure,
        }
    }

    /// About how many elements the tree builder has open.
    pub(crate) fn open_depth(&self) -> u32 {
        self.open_depth.get()
    }

    fn inserted(&self, nodes: &[Node], id: NodeId) {
        if let Some(n) = nodes.get(id as usize) {
            self.open_depth.set(n.depth);
        }
    }

    /// The attributes and line of the last `meta` element created.
    pub(crate) fn last_meta(&self) -> Option<(Vec<(String, String)>, u32)> {
        let nodes = self.nodes.borrow();
        let node = nodes.get(self.last_meta.get() as usize)?;
        match &node.data {
            Data::Element(e) => Some((
                e.attrs
                    .iter()
                    .map(|a| (a.name.local.to_string(), a.value.to_string()))
                    .collect(),
                node.line,
            )),
            _ => None,
        }
    }

    fn push_node(&self, node: Node) -> NodeId {
        let mut nodes = self.nodes.borrow_mut();
        // More than four billion nodes cannot come from an input that fits
        // in memory; saturate rather than wrap.
        let id = NodeId::try_from(nodes.len()).unwrap_or(NONE - 1);
        nodes.push(node);
        id
    }
}

/// Link surgery on the node vector.
fn get(nodes: &mut [Node], id: NodeId) -> Option<&mut Node> {
    nodes.get_mut(id as usize)
}

fn detach(nodes: &mut [Node], id: NodeId) {
    let Some(node) = get(nodes, id) else { return };
    let (parent, prev, next) = (node.parent, node.prev, node.next);
    node.parent = NONE;
    node.prev = NONE;
    node.next = NONE;
    if parent == NONE {
        return;
    }
    match get(nodes, prev) {
        Some(p) => p.next = next,
        None => {
            if let Some(p) = get(nodes, parent) {
                p.first_child = next;
            }
        }
    }
    match get(nodes, next) {
        Some(n) => n.prev = prev,
        None => {
            if let Some(p) = get(nodes, parent) {
                p.last_child = prev;
            }
        }
    }
}

fn append_child(nodes: &mut [Node], parent: NodeId, child: NodeId) {
    detach(nodes, child);
    let Some(p) = get(nodes, parent) else { return };
    let last = p.last_child;
    p.last_child = child;
    if last == NONE {
        p.first_child = child;
    }
    if let Some(l) = get(nodes, last) {
        l.next = child;
    }
    let depth = get(nodes, parent).map_or(0, |p| p.depth.saturating_add(1));
    if let Some(c) = get(nodes, child) {
        c.parent = parent;
        c.prev = last;
        c.depth = depth;
    }
}

fn insert_before(nodes: &mut [Node], sibling: NodeId, child: NodeId) {
    detach(nodes, child);
    let Some(s) = get(nodes, sibling) else { return };
    let (parent, prev) = (s.parent, s.prev);
    if parent == NONE {
        return;
    }
    s.prev = child;
    match get(nodes, prev) {
        Some(p) => p.next = child,
        None => {
            if let Some(p) = get(nodes, parent) {
                p.first_child = child;
            }
        }
    }
    let depth = get(nodes, parent).map_or(0, |p| p.depth.saturating_add(1));
    if let Some(c) = get(nodes, child) {
        c.parent = parent;
        c.prev = prev;
        c.next = sibling;
        c.depth = depth;
    }
}

fn newlines(s: &str) -> u32 {
    u32::try_from(s.bytes().filter(|&b| b == b'\n').count()).unwrap_or(u32::MAX)
}

impl Sink {
    /// Whether text appended to `parent` is kept.
    fn keeps_text_in(nodes: &[Node], parent: NodeId) -> bool {
        match nodes.get(parent as usize).map(|n| &n.data) {
            Some(Data::Element(e)) => !e.tag.drops_text(),
            Some(Data::Document) => true,
            _ => false,
        }
    }

    /// Replaces the characters XML 1.0 cannot hold (C0 controls other than
    /// tab, LF, CR and FF, and U+FFFE, U+FFFF: html5ever keeps them, from raw
    /// bytes or from references like `&#1;`) with U+FFFD and counts them.
    /// Emission could not write them back, so keeping them would break the
    /// round trip (emit then ingest must give back the same document). FF is
    /// HTML white space, which the builder turns into a space.
    fn clean(&self, text: StrTendril) -> StrTendril {
        let (out, replaced) = replace_forbidden(text);
        if replaced > 0 {
            let (count, line) = self.forbidden.get();
            let line = if count == 0 { self.line.get() } else { line };
            self.forbidden.set((count.saturating_add(replaced), line));
        }
        out
    }

    fn new_text(&self, text: StrTendril) -> Node {
        let line = self.line.get().saturating_sub(newlines(&text));
        Node::new(Data::Text(text), line.max(1))
    }
}

/// `text` with the characters [`forbidden`] names replaced with U+FFFD, and
/// how many there were.
fn replace_forbidden(text: StrTendril) -> (StrTendril, usize) {
    if !has_forbidden(text.as_bytes()) {
        return (text, 0);
    }
    let mut replaced = 0;
    let out: String = text
        .chars()
        .map(|c| {
            if forbidden(c) {
                replaced += 1;
                '\u{fffd}'
            } else {
                c
            }
        })
        .collect();
    (StrTendril::from(out), replaced)
}

/// A character [`Sink::clean`] replaces.
fn forbidden(c: char) -> bool {
    matches!(c, '\0'..='\u{8}' | '\u{b}' | '\u{e}'..='\u{1f}' | '\u{fffe}' | '\u{ffff}')
}

/// Whether UTF-8 text holds a character [`Sink::clean`] replaces, judged on
/// bytes (text almost always holds line feeds, so a test for any C0 byte
/// would send most text through a second, per-character pass): a C0 byte
/// other than tab, LF, FF and CR stands for itself, and 0xEF only ever
/// starts a three-byte character, U+FFFE or U+FFFF when `BF BE` or `BF BF`
/// follow. Eight bytes are tested at a time for a byte below 0x20 or 0xEF;
/// only a word that holds one is looked at byte by byte.
fn has_forbidden(bytes: &[u8]) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut at = 0;
    for chunk in bytes.chunks_exact(8) {
        let word = <[u8; 8]>::try_from(chunk).map_or(u64::MAX, u64::from_le_bytes);
        // The high bit of a byte below 0x20 is set in `below`, and of a byte
        // 0xEF in `ef` (set bits above a match may be spurious; a word with
        // none has no such byte).
        let below = word.wrapping_sub(ONES * 0x20) & !word & HIGH;
        let xored = word ^ (ONES * 0xef);
        let ef = xored.wrapping_sub(ONES) & !xored & HIGH;
        if below | ef != 0 && forbidden_in(bytes, at, at + 8) {
            return true;
        }
        at += 8;
    }
    forbidden_in(bytes, at, bytes.len())
}

/// [`has_forbidden`] byte by byte, for the characters starting in
/// `bytes[from..to]`.
fn forbidden_in(bytes: &[u8], from: usize, to: usize) -> bool {
    (from..to).any(|i| match bytes.get(i).copied().unwrap_or(0x20) {
        b'\t' | b'\n' | b'\x0c' | b'\r' => false,
        0x00..=0x1f => true,
        0xef => bytes.get(i + 1) == Some(&0xbf) && matches!(bytes.get(i + 2), Some(0xbe | 0xbf)),
        _ => false,
    })
}

impl TreeSink for Sink {
    type Handle = Handle;
    type Output = Arena;
    type ElemName<'a> = ExpandedName<'a>;

    fn finish(self) -> Arena {
        Arena {
            nodes: self.nodes.into_inner(),
            parse_errors: self.parse_errors.get(),
            error_list: self.error_list.into_inner(),
            first_error_line: self.first_error_line.get(),
            too_deep: (0, 0),
            forbidden: self.forbidden.get(),
        }
    }

    fn parse_error(&self, msg: Cow<'static, str>) {
        let n = self.parse_errors.get();
        if n == 0 {
            self.first_error_line.set(self.line.get());
        }
        self.parse_errors.set(n.saturating_add(1));
        if self.errors == ParseErrors::Keep {
            self.error_list.borrow_mut().push((self.line.get(), msg));
        }
    }

    fn get_document(&self) -> Handle {
        Handle::plain(DOCUMENT)
    }

    fn elem_name<'a>(&'a self, target: &'a Handle) -> ExpandedName<'a> {
        ExpandedName {
            ns: &target.ns,
            local: &target.local,
        }
    }

    fn create_element(&self, name: QualName, attrs: Vec<Attribute>, flags: ElementFlags) -> Handle {
        let tag = classify(&name.ns, &name.local);
        // Elements whose content is dropped keep no attribute, but media
        // and their `<source>` children, which give the media's source.
        let unread = tag.drops_text() && tag != Tag::Media && name.local != local_name!("source");
        let attrs = if unread {
            Vec::new()
        } else if name.ns == ns!(svg) {
            // All of them: the SVG sanitiser decides which to keep. The
            // characters XML cannot hold are replaced but not counted: they
            // change no text of the page, only the graphic's encoding.
            attrs
                .into_iter()
                .map(|mut a| {
                    a.value = replace_forbidden(a.value).0;
                    a
                })
                .collect()
        } else {
            attrs
                .into_iter()
                .filter_map(|mut a| {
                    if keeps_attribute(&a.name.local) {
                        a.value = self.clean(a.value);
                        Some(a)
                    } else if (self.structure && keeps_structure_attribute(&a.name.local))
                        || hides(&a.name.local, &a.value)
                        || (name.local == local_name!("div")
                            && a.name.local == local_name!("class")
                            && names_figure_part(&a.value))
                    {
                        // Read by the selection, or by the mapping to leave
                        // out what the page hides, never written: not
                        // cleaned (nor counted as a change to the page's text).
                        Some(a)
                    } else {
                        None
                    }
                })
                .collect()
        };
        let handle = Handle {
            id: NONE,
            ns: name.ns.clone(),
            local: name.local.clone(),
        };
        let element = Element {
            name,
            tag,
            attrs,
            integration_point: flags.mathml_annotation_xml_integration_point,
        };
        let id = self.push_node(Node::new(Data::Element(Box::new(element)), self.line.get()));
        if tag == Tag::Meta {
            self.last_meta.set(id);
        }
        Handle { id, ..handle }
    }

    fn create_comment(&self, _text: StrTendril) -> Handle {
        Handle::plain(DISCARD)
    }

    fn create_pi(&self, _target: StrTendril, _data: StrTendril) -> Handle {
        Handle::plain(DISCARD)
    }

    fn append(&self, parent: &Handle, child: NodeOrText<Handle>) {
        let parent = parent.id;
        if parent == DISCARD {
            return;
        }
        match child {
            NodeOrText::AppendNode(child) => {
                if child.id != DISCARD {
                    let mut nodes = self.nodes.borrow_mut();
                    append_child(&mut nodes, parent, child.id);
                    self.inserted(&nodes, child.id);
                }
            }
            NodeOrText::AppendText(text) => {
                let text = self.clean(text);
                let mut nodes = self.nodes.borrow_mut();
                if !Sink::keeps_text_in(&nodes, parent) {
                    return;
                }
                let last = nodes.get(parent as usize).map_or(NONE, |p| p.last_child);
                if let Some(Node {
                    data: Data::Text(t),
                    ..
                }) = get(&mut nodes, last)
                {
                    t.push_tendril(&text);
                    return;
                }
                drop(nodes);
                let id = self.push_node(self.new_text(text));
                append_child(&mut self.nodes.borrow_mut(), parent, id);
            }
        }
    }

    fn append_based_on_parent_node(
        &self,
        element: &Handle,
        prev_element: &Handle,
        child: NodeOrText<Handle>,
    ) {
        let has_parent = self
            .nodes
            .borrow()
            .get(element.id as usize)
            .is_some_and(|n| n.parent != NONE);
        if has_parent {
            self.append_before_sibling(element, child);
        } else {
            self.append(prev_element, child);
        }
    }

    fn append_doctype_to_document(
        &self,
        _name: StrTendril,
        _public: StrTendril,
        _system: StrTendril,
    ) {
    }

    fn get_template_contents(&self, _target: &Handle) -> Handle {
        // Templates are ballast: their contents go nowhere.
        Handle::plain(DISCARD)
    }

    fn same_node(&self, x: &Handle, y: &Handle) -> bool {
        x.id == y.id
    }

    fn set_quirks_mode(&self, _mode: QuirksMode) {}

    fn append_before_sibling(&self, sibling: &Handle, new_node: NodeOrText<Handle>) {
        let sibling = sibling.id;
        match new_node {
            NodeOrText::AppendNode(child) => {
                if child.id != DISCARD {
                    let mut nodes = self.nodes.borrow_mut();
                    insert_before(&mut nodes, sibling, child.id);
                    self.inserted(&nodes, child.id);
                }
            }
            NodeOrText::AppendText(text) => {
                let text = self.clean(text);
                let mut nodes = self.nodes.borrow_mut();
                let Some(s) = nodes.get(sibling as usize) else {
                    return;
                };
                let (parent, prev) = (s.parent, s.prev);
                if parent == NONE || !Sink::keeps_text_in(&nodes, parent) {
                    return;
                }
                if let Some(Node {
                    data: Data::Text(t),
                    ..
                }) = get(&mut nodes, prev)
                {
                    t.push_tendril(&text);
                    return;
                }
                drop(nodes);
                let id = self.push_node(self.new_text(text));
                insert_before(&mut self.nodes.borrow_mut(), sibling, id);
            }
        }
    }

    fn add_attrs_if_missing(&self, target: &Handle, attrs: Vec<Attribute>) {
        let mut nodes = self.nodes.borrow_mut();
        if let Some(Node {
            data: Data::Element(e),
            ..
        }) = get(&mut nodes, target.id)
        {
            for mut attr in attrs {
                if keeps_attribute(&attr.name.local) && !e.attrs.iter().any(|a| a.name == attr.name)
                {
                    // A second `<html>` or `<body>` tag: its attributes are
                    // cleaned like those of a new element (found by cargo fuzz).
                    attr.value = self.clean(attr.value);
                    e.attrs.push(attr);
                }
            }
        }
    }

    fn remove_from_parent(&self, target: &Handle) {
        detach(&mut self.nodes.borrow_mut(), target.id);
    }

    fn reparent_children(&self, node: &Handle, new_parent: &Handle) {
        let mut nodes = self.nodes.borrow_mut();
        let mut child = nodes.get(node.id as usize).map_or(NONE, |n| n.first_child);
        while child != NONE {
            let next = nodes.get(child as usize).map_or(NONE, |n| n.next);
            append_child(&mut nodes, new_parent.id, child);
            child = next;
        }
    }

    fn pop(&self, node: &Handle) {
        if let Some(n) = self.nodes.borrow().get(node.id as usize) {
            self.open_depth.set(n.depth.saturating_sub(1));
        }
    }

    fn is_mathml_annotation_xml_integration_point(&self, handle: &Handle) -> bool {
        match self.nodes.borrow().get(handle.id as usize).map(|n| &n.data) {
            Some(Data::Element(e)) => e.integration_point,
            _ => false,
        }
    }

    fn set_current_line(&self, line_number: u64) {
        self.line
            .set(u32::try_from(line_number).unwrap_or(u32::MAX));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forbidden_bytes_are_forbidden_characters() {
        let mut buf = [0u8; 4];
        for c in (0..=0x10ffff).filter_map(char::from_u32) {
            let alone = c.encode_utf8(&mut buf).as_bytes().to_vec();
            assert_eq!(has_forbidden(&alone), forbidden(c), "{c:?}");
            let framed = format!("a{c}\u{efbf}b");
            assert_eq!(has_forbidden(framed.as_bytes()), forbidden(c), "{c:?}");
        }
        // At every offset of the eight-byte words, among other bytes.
        let samples = (0..0x100).chain(0xef00..0xf000).chain(0xfff0..0x10000);
        for c in samples.filter_map(char::from_u32) {
            for offset in 0..17 {
                let text = format!(
                    "{}{c}\t\n\u{efbf}\u{e9}{}",
                    "x".repeat(offset),
                    "y".repeat(9)
                );
                assert_eq!(
                    has_forbidden(text.as_bytes()),
                    forbidden(c),
                    "{c:?} at {offset}"
                );
            }
        }
    }
}
