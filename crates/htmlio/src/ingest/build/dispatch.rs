//! Element dispatch: what each kind of element ([`Tag`]) does when the walk
//! enters it: open a frame, push a formatting entry, add text, or read
//! nothing further.

use wikitext::{Block, ListKind, Numbering, Severity};

use super::frames::{CellAttrs, Frame, FrameKind, Level};
use super::{Builder, Exit, at};
use crate::ingest::diag::Code;
use crate::ingest::run::Kind;
use crate::ingest::sink::{Element, NodeId};
use crate::ingest::tags::{Fmt, Tag};

/// An element the walk enters: what the handlers of its group read.
#[derive(Clone, Copy)]
struct Entered<'e> {
    id: NodeId,
    e: &'e Element,
    tag: Tag,
    line: u32,
}

impl Builder<'_> {
    /// Handles the start of an element: what it does, by its [`Tag`];
    /// whether to walk into its children.
    pub(super) fn element(&mut self, id: NodeId, e: &Element, line: u32) -> bool {
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
        if tag == Tag::Block && &*e.name.local == "noscript" && !self.holds_image(id) {
            // What a page says to readers without scripts ("enable
            // JavaScript", a comment service's link, a template's stray
            // text): every browser a reader uses runs scripts and shows
            // none of it. A `<noscript>` with an image is read: it is the
            // one copy of a picture a script shows (its lazy copies are
            // left out where the image is read).
            self.report(
                Code::NoscriptDropped,
                Severity::Info,
                line,
                "<noscript> without an image left out: a browser that runs scripts never shows it",
            );
            if let Some(anchor) = own_id {
                self.pending_anchors.push_back((anchor, line));
            }
            return false;
        }
        let el = Entered { id, e, tag, line };
        // By the row groups of the mapping table ([`Tag`]); a heading or a
        // term takes `own_id` as its own anchor.
        let descend = match tag {
            Tag::Html | Tag::Head | Tag::Body | Tag::Title | Tag::Meta | Tag::Link | Tag::Base => {
                self.head_element(el)
            }
            Tag::Ballast | Tag::Nothing | Tag::Math | Tag::Annotation | Tag::Svg | Tag::Unknown => {
                self.unread_element(el)
            }
            Tag::Format(_)
            | Tag::Anchor
            | Tag::LineBreak
            | Tag::Image
            | Tag::Media
            | Tag::Quote
            | Tag::Presentational
            | Tag::Inline
            | Tag::Choice => self.inline_element(el, &mut exit),
            Tag::Block
            | Tag::Frameset
            | Tag::RowGroup
            | Tag::Paragraph
            | Tag::Heading(_)
            | Tag::Pre
            | Tag::Blockquote
            | Tag::Rule
            | Tag::Frame => self.block_element(el, &mut exit, &mut own_id),
            Tag::UnorderedList
            | Tag::OrderedList
            | Tag::ListItem
            | Tag::DefinitionList
            | Tag::Term
            | Tag::Definition => {
                self.list_element(el, &mut exit, &mut own_id);
                true
            }
            Tag::Table | Tag::Caption | Tag::Row | Tag::Cell | Tag::HeaderCell => {
                self.table_element(el, &mut exit);
                true
            }
        };
        if let Some(anchor) = own_id {
            self.pending_anchors.push_back((anchor, line));
        }
        if descend {
            if tag == Tag::Block && &*e.name.local == "noscript" {
                exit.noscript = true;
                self.noscript += 1;
            }
            if &*e.name.local == "textarea" {
                exit.textarea = true;
                self.textarea += 1;
            }
            self.exits.push(exit);
        }
        descend
    }

    /// The document and its head: the language and the metadata; `head` and
    /// `body` are walked into.
    fn head_element(&mut self, el: Entered<'_>) -> bool {
        let Entered { id, e, tag, line } = el;
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
                // The first one was read before the walk (`Builder::new`).
                if e.attr("href").is_some() && id != self.base_element {
                    self.report(
                        Code::BaseIgnored,
                        Severity::Info,
                        line,
                        "a second <base href> is ignored, as browsers ignore it",
                    );
                }
                return false;
            }
            // The other tags are in other groups (see `element`).
            _ => {}
        }
        true
    }

    /// Elements whose content is not read as text of the page: ballast is
    /// dropped with everything inside, SVG becomes an image; MathML and unknown elements
    /// are read as their content, with a note.
    fn unread_element(&mut self, el: Entered<'_>) -> bool {
        let Entered { id, e, tag, line } = el;
        match tag {
            Tag::Ballast => {
                *self.ballast.entry(e.name.local.to_string()).or_insert(0) += 1;
                return false;
            }
            Tag::Nothing | Tag::Annotation => return false,
            Tag::Svg => {
                self.svg(id, line);
                return false;
            }
            Tag::Math => {
                let parent = self
                    .arena
                    .node(id)
                    .and_then(|n| self.arena.element(n.parent));
                // A formula the page hides (Wikipedia keeps its MathML in
                // a `display: none` span beside the formula's image, which
                // is what a reader sees) is left out.
                if e.not_shown() || parent.is_some_and(|p| p.not_shown()) {
                    self.report(
                        Code::MathAsText,
                        Severity::Info,
                        line,
                        "hidden formula left out (the page shows it otherwise, as an image)",
                    );
                    return false;
                }
                let parent_is_math = parent.is_some_and(|p| p.tag == Tag::Math);
                if !parent_is_math && self.math_as_tex(id, line) {
                    return false;
                }
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
            // The other tags are in other groups (see `element`).
            _ => {}
        }
        true
    }

    /// Inline elements: formatting entries, links and anchors, line breaks,
    /// images as their alt text, quotations in quotation marks.
    fn inline_element(&mut self, el: Entered<'_>, exit: &mut Exit) -> bool {
        let Entered { id, e, tag, line } = el;
        match tag {
            Tag::Inline => {
                // A highlight or an insertion mark keeps its words and loses
                // its look (said, as every other loss is).
                let what = match &*e.name.local {
                    "mark" => Some("highlighted text (<mark>)"),
                    "ins" => Some("inserted text (<ins>)"),
                    _ => None,
                };
                if let Some(what) = what {
                    self.report(
                        Code::HighlightLost,
                        Severity::Info,
                        line,
                        format!("{what} kept as plain text"),
                    );
                }
            }
            Tag::Presentational => {
                // A warning: `<s>$50</s> $30` reads `$50 $30`, which says
                // something else.
                self.report(
                    Code::PresentationLost,
                    Severity::Warning,
                    line,
                    "struck-through text kept as plain text (it reads as if it stood)",
                );
            }
            Tag::Format(fmt @ (Fmt::Sup | Fmt::Sub))
                if self.top_kind().is_some_and(FrameKind::is_pre) =>
            {
                // Preformatted text holds no markup: `mc<sup>2</sup>`
                // would read `mc2`, a change a reader sees.
                let what = if fmt == Fmt::Sup {
                    "superscript"
                } else {
                    "subscript"
                };
                self.report(
                    Code::PresentationLost,
                    Severity::Warning,
                    line,
                    format!("{what} in preformatted text kept as plain text (preformatted text holds no markup)"),
                );
            }
            Tag::Format(fmt) => {
                exit.fmt = self.push_fmt(match fmt {
                    Fmt::Em => Kind::Em,
                    Fmt::Strong => Kind::Strong,
                    Fmt::Code => Kind::Code,
                    Fmt::Sup => Kind::Sup,
                    Fmt::Sub => Kind::Sub,
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
            Tag::Media => {
                // An `<object>` with an image for readers that cannot show
                // it is read as that image, which XHTML 1.0 and every
                // reader can show (`<object data=logo.svg><img src=logo.png>`).
                if &*e.name.local == "object" && self.holds_image(id) {
                    self.report(
                        Code::MediaAsImage,
                        Severity::Info,
                        line,
                        "<object> read as the image it holds for readers that cannot show it",
                    );
                    return true;
                }
                self.media(id, e, line);
                return false;
            }
            Tag::Quote => {
                self.inline_text("\u{201c}", line);
                exit.quote = true;
            }
            Tag::Choice => return self.choice(id, e, line),
            // The other tags are in other groups (see `element`).
            _ => {}
        }
        true
    }

    /// Blocks: rules, transparent block elements, paragraphs, headings,
    /// preformatted text, blockquotes, and frames as links.
    fn block_element(
        &mut self,
        el: Entered<'_>,
        exit: &mut Exit,
        own_id: &mut Option<String>,
    ) -> bool {
        let Entered { id, e, tag, line } = el;
        match tag {
            Tag::Rule => {
                self.rule(line);
                return false;
            }
            Tag::Block if self.figure_element(id, e, line, exit) => {}
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
                let kind = FrameKind::Heading(level);
                if self.open_inline_frame(id, line, "a heading", exit, kind)
                    && let Some(f) = self.frames.last_mut()
                {
                    f.anchor = own_id.take().map(|a| (a, line));
                }
            }
            Tag::Pre => {
                let kind = FrameKind::Pre {
                    lines: Vec::new(),
                    at_start: true,
                };
                self.open_inline_frame(id, line, "preformatted text", exit, kind);
            }
            Tag::Blockquote => {
                self.open_container(id, line, "a blockquote", Level::Deeper, exit, |_| {
                    FrameKind::Quote
                });
            }
            Tag::Frame => {
                self.frame_link(e, line);
                return false;
            }
            // The other tags are in other groups (see `element`).
            _ => {}
        }
        true
    }

    /// Lists and definition lists, their items, terms and definitions.
    fn list_element(&mut self, el: Entered<'_>, exit: &mut Exit, own_id: &mut Option<String>) {
        let Entered { id, e, tag, line } = el;
        match tag {
            Tag::UnorderedList | Tag::OrderedList => {
                self.open_container(id, line, "a list", Level::Same, exit, |b| {
                    let kind = if tag == Tag::OrderedList {
                        ListKind::Ordered(b.numbering(e, line))
                    } else {
                        ListKind::Unordered
                    };
                    FrameKind::List {
                        kind,
                        items: Vec::new(),
                    }
                });
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
                    exit.frame = Some(self.open_frame(FrameKind::Item, id, Level::Deeper, line));
                } else {
                    self.start_block(exit);
                }
            }
            Tag::DefinitionList => {
                self.open_container(id, line, "a definition list", Level::Same, exit, |_| {
                    FrameKind::Dl {
                        compact: e.attr("compact").is_some(),
                        items: Vec::new(),
                        terms: Vec::new(),
                    }
                });
            }
            Tag::Term | Tag::Definition => {
                if self.prepare_dl_child(line) {
                    if tag == Tag::Term {
                        // A term joins the terms waiting for a definition;
                        // after a definition it starts a new item.
                        exit.frame = Some(self.open_frame(FrameKind::Term, id, Level::Same, line));
                        if let Some(f) = self.frames.last_mut() {
                            f.anchor = own_id.take().map(|a| (a, line));
                        }
                    } else {
                        exit.frame =
                            Some(self.open_frame(FrameKind::Definition, id, Level::Deeper, line));
                    }
                } else {
                    self.start_block(exit);
                }
            }
            // The other tags are in other groups (see `element`).
            _ => {}
        }
    }

    /// Tables, their captions, rows and cells.
    fn table_element(&mut self, el: Entered<'_>, exit: &mut Exit) {
        let Entered { id, e, tag, line } = el;
        match tag {
            Tag::Table => {
                self.open_container(id, line, "a table", Level::Same, exit, |_| {
                    FrameKind::Table {
                        rows: Vec::new(),
                        caption: Vec::new(),
                        spans: false,
                    }
                });
            }
            Tag::Caption => {
                if self.prepare_table_part() {
                    exit.frame = Some(self.open_frame(FrameKind::Caption, id, Level::Same, line));
                } else {
                    self.start_block(exit);
                }
            }
            Tag::Row => {
                if self.prepare_row() {
                    exit.frame = Some(self.open_frame(
                        FrameKind::Row { cells: Vec::new() },
                        id,
                        Level::Same,
                        line,
                    ));
                } else {
                    self.start_block(exit);
                }
            }
            Tag::Cell | Tag::HeaderCell => {
                // HTML's rules for the spans: a non-negative integer, 0 or
                // an error as 1 (a `rowspan` of 0 spans the rest of the
                // row group: taken as 1 here).
                let span = |name: &str| {
                    e.attr(name)
                        .and_then(|v| microsyntax::parse_non_negative_integer(v).ok())
                        .map(|n| u32::try_from(n).unwrap_or(u32::MAX))
                        .filter(|&n| n > 0)
                        .unwrap_or(1)
                };
                let attrs = CellAttrs {
                    header: tag == Tag::HeaderCell,
                    colspan: span("colspan"),
                    rowspan: span("rowspan"),
                };
                let spans = attrs.colspan > 1 || attrs.rowspan > 1;
                if self.prepare_cell() {
                    if spans
                        && let Some(Frame {
                            kind: FrameKind::Table { spans, .. },
                            ..
                        }) = self.frames.iter_mut().rev().nth(1)
                    {
                        *spans = true;
                    }
                    exit.frame =
                        Some(self.open_frame(FrameKind::Cell(attrs), id, Level::Deeper, line));
                } else {
                    self.start_block(exit);
                }
                // A header cell's text is strong (the `th` mapping); a table
                // of the extension says it is a header cell instead (see
                // `grid_content`).
                if tag == Tag::HeaderCell {
                    exit.fmt = self.push_fmt(Kind::Strong);
                }
            }
            // The other tags are in other groups (see `element`).
            _ => {}
        }
    }

    /// Opens the frame of an element that holds one run of inlines (a
    /// heading, preformatted text), unless the top frame holds one run
    /// already: there the element is flattened into its text. Whether it
    /// opened.
    fn open_inline_frame(
        &mut self,
        id: NodeId,
        line: u32,
        what: &str,
        exit: &mut Exit,
        kind: FrameKind,
    ) -> bool {
        if self.top_inline_only() {
            self.flattened(line, what);
            self.start_block(exit);
            false
        } else {
            self.prepare_content();
            self.block_boundary();
            exit.frame = Some(self.open_frame(kind, id, Level::Same, line));
            true
        }
    }

    /// Opens the frame of a container (a blockquote, a list, a definition
    /// list, a table) where one may open: the frame `kind` makes, once room
    /// is made for it. Elsewhere (inside a heading, term or preformatted
    /// text, or too deep) the element is read as a plain block.
    pub(super) fn open_container(
        &mut self,
        id: NodeId,
        line: u32,
        what: &str,
        level: Level,
        exit: &mut Exit,
        kind: impl FnOnce(&mut Self) -> FrameKind,
    ) {
        if self.container_allowed(line, what) {
            self.prepare_content();
            self.block_boundary();
            let kind = kind(self);
            exit.frame = Some(self.open_frame(kind, id, level, line));
        } else {
            self.start_block(exit);
        }
    }

    /// A transparent block element: a block boundary at both ends.
    fn start_block(&mut self, exit: &mut Exit) {
        self.block_boundary();
        exit.block = Some(self.frames.len());
    }

    /// `<hr>`: a rule, or a block boundary inside a heading, term or
    /// preformatted text.
    fn rule(&mut self, line: u32) {
        match self.top_kind() {
            Some(k) if k.inline_only() => self.block_boundary(),
            _ => self.deliver(vec![Block::Rule { pos: at(line) }]),
        }
    }

    /// The numbering of an `<ol>`, noting what the text format cannot hold.
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
}
