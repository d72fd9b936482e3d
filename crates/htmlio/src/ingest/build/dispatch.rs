//! Element dispatch: what each kind of element ([`Tag`]) does when the walk
//! enters it: open a frame, push a formatting entry, add text, or read
//! nothing further.

use wikitext::{Block, ListKind, Numbering, Severity};

use super::frames::{Frame, FrameKind};
use super::{Builder, Exit, at, words};
use crate::ingest::diag::Code;
use crate::ingest::run::Kind;
use crate::ingest::sink::{Element, NodeId};
use crate::ingest::tags::{Fmt, Tag};

impl Builder<'_> {
    /// Handles the start of an element; whether to walk into its children.
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
        let descend = self.element_kind(id, e, tag, line, &mut exit, &mut own_id);
        if let Some(anchor) = own_id {
            self.pending_anchors.push((anchor, line));
        }
        if descend {
            self.exits.push(exit);
        }
        descend
    }

    /// What the element does, by its [`Tag`]; whether to walk into its
    /// children. A heading or term takes `own_id` as its own anchor.
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

    /// A transparent block element: a block boundary at both ends.
    fn start_block(&mut self, exit: &mut Exit) {
        self.block_boundary();
        exit.block = Some(self.frames.len());
    }

    /// `<img>`: its alt text, or nothing (with a diagnostic when it has none).
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
