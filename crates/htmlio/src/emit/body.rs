//! The body: events in, tokens out (seed 000, "Textual Representation of
//! HTML": each construct's XHTML 1.0 element), laid out one block per line.
//!
//! The layout: in the body and in a blockquote every block is followed by a
//! newline; in an item or a definition, blocks are separated by newlines
//! and a newline precedes the end tag when the last block is a container;
//! bare text right after bare text is set apart by an empty line, as in the
//! text format, or the two would read back as one block.

use std::borrow::Cow;

use wikitext::events::{Event, Positioned, Tag, TagEnd};
use wikitext::{ListKind, Numbering, Pos, Severity};

use super::Code;
use super::walk::{Flow, Last, Open, Walker};
use crate::names::{anchor_name, fragment_reference, is_xml_name};
use crate::serialize::{Attribute, Token, TokenSink};

/// Whether `name` is a block element the preview marks with its source
/// line ([`Walker::start_block`]); inline elements and cells are not.
fn is_block(name: &str) -> bool {
    matches!(
        name,
        "p" | "pre" | "h1" | "h2" | "h3" | "h4" | "h5" | "h6" | "dt" | "table" | "tr"
    )
}

fn heading_name(level: u8) -> Option<&'static str> {
    Some(match level {
        1 => "h1",
        2 => "h2",
        3 => "h3",
        4 => "h4",
        5 => "h5",
        6 => "h6",
        _ => return None,
    })
}

impl<'d, S: TokenSink<'d>> Walker<'d, S> {
    /// The body's events, up to the end of the stream. Elements a stream
    /// leaves open are closed at its end.
    pub(super) fn body(&mut self, events: impl IntoIterator<Item = Positioned<'d>>) {
        // The body lays out its blocks like a blockquote and is never
        // closed by an event (ends look above it), so its end tag is moot.
        let mut body = Open::new(TagEnd::Blockquote, None, Pos::UNKNOWN);
        body.flow = Some(Flow::Lines);
        self.open = vec![body];
        let mut events = events.into_iter();
        while let Some((event, pos)) = events.next() {
            if self.tables && matches!(event, Event::Start(Tag::DefinitionList { compact: true })) {
                // The whole list first: is it a grid?
                let list = super::table::collect((event, pos), &mut events);
                match super::table::grid(list) {
                    Ok(grid) => self.table(grid),
                    Err(list) => self.events_of(list.into_iter()),
                }
                continue;
            }
            if matches!(event, Event::Start(Tag::Table)) {
                self.table_of_text((event, pos), &mut events);
                continue;
            }
            self.event(event, pos);
        }
        while self.open.len() > 1 {
            if let Some(end) = self.open.last().map(|o| o.end) {
                self.close(end);
            }
        }
    }

    /// Events that may hold tables of the text format.
    fn events_of(&mut self, mut events: impl Iterator<Item = Positioned<'d>>) {
        while let Some((event, pos)) = events.next() {
            if matches!(event, Event::Start(Tag::Table)) {
                self.table_of_text((event, pos), &mut events);
            } else {
                self.event(event, pos);
            }
        }
    }

    /// A table of the text format, as XHTML can hold it (see `rows`).
    fn table_of_text(
        &mut self,
        start: Positioned<'d>,
        events: &mut impl Iterator<Item = Positioned<'d>>,
    ) {
        let pos = start.1;
        let (table, left_out) = super::rows::holdable(super::table::collect(start, events));
        self.head_rows = super::rows::head_rows(&table).into();
        if left_out > 0 {
            self.report(
                Code::EmptyElementDropped,
                Severity::Info,
                format!("{left_out} table(s) without rows or row(s) without cells left out"),
                pos,
            );
        }
        for (event, pos) in table {
            self.event(event, pos);
        }
    }

    pub(super) fn event(&mut self, event: Event<'d>, pos: Pos) {
        // An image's alternative text is an attribute.
        let Some(event) = self.in_image(event) else {
            return;
        };
        match event {
            Event::Start(tag) => self.start_tag(tag, pos),
            Event::End(end) => {
                // An end closes the innermost open element it ends, and
                // whatever is still open inside it; one that ends nothing
                // open is ignored.
                let body = 1;
                if let Some(at) = self.open.iter().skip(body).rposition(|o| o.end == end) {
                    while self.open.len() > at + body {
                        if let Some(inner) = self.open.last().map(|o| o.end) {
                            self.close(inner);
                        }
                    }
                }
            }
            Event::Text(text) => {
                self.text(text, pos);
            }
            // A line division is a newline inside the element, so that a
            // paragraph keeps the lines it was written in.
            Event::LineBreak => self.line_break(),
            // A forced break is a `<br />` (in preformatted text, which only
            // a document built through the library gives one, a newline).
            Event::HardBreak => {
                if self.in_pre() {
                    self.line_break();
                } else {
                    self.start("br");
                    self.end("br");
                }
            }
            Event::Rule => {
                self.begin_block(Last::Other);
                self.start_block("hr", pos);
                self.end("hr");
                self.end_block();
            }
            Event::Email(address) => self.email(address, pos),
        }
    }

    /// Whether the events are inside preformatted text.
    pub(super) fn in_pre(&self) -> bool {
        self.open.iter().any(|o| o.end == TagEnd::Preformatted)
    }

    /// The nearest container of blocks.
    fn container(&mut self) -> Option<&mut Open> {
        self.open.iter_mut().rev().find(|o| o.flow.is_some())
    }

    /// A block of kind `last` starts in the current container: the layout
    /// before it.
    pub(super) fn begin_block(&mut self, last: Last) {
        let Some(c) = self.container() else {
            return;
        };
        let item_gap = c.flow == Some(Flow::Item) && c.last.is_some();
        let text_gap = last == Last::Text && c.last == Some(Last::Text);
        c.last = Some(last);
        if item_gap {
            self.layout();
        }
        if text_gap {
            self.layout();
        }
    }

    /// A block ended in the current container: the layout after it.
    pub(super) fn end_block(&mut self) {
        if self.container().and_then(|c| c.flow) == Some(Flow::Lines) {
            self.layout();
        }
    }

    pub(super) fn open_element(&mut self, end: TagEnd, name: Option<&'static str>, pos: Pos) {
        if let Some(name) = name {
            if self.source_lines && is_block(name) {
                self.start_block(name, pos);
            } else {
                self.start(name);
            }
        }
        self.open.push(Open::new(end, name, pos));
    }

    fn open_container(&mut self, end: TagEnd, name: &'static str, flow: Flow, pos: Pos) {
        self.start_block(name, pos);
        let mut open = Open::new(end, Some(name), pos);
        open.flow = Some(flow);
        self.open.push(open);
    }

    /// A list or definition list that waits for its first content.
    fn open_deferred(
        &mut self,
        end: TagEnd,
        name: &'static str,
        attrs: Option<&'static str>,
        pos: Pos,
    ) {
        let mut open = Open::new(end, Some(name), pos);
        open.started = false;
        open.attrs = attrs;
        self.open.push(open);
    }

    /// Writes the start of the list (or definition list) on top of the
    /// stack if it has not started yet.
    fn ensure_started(&mut self) {
        let Some(top) = self.open.last_mut() else {
            return;
        };
        if top.started {
            return;
        }
        top.started = true;
        let (name, attrs, end) = (top.name.unwrap_or("ul"), top.attrs, top.end);
        // The layout before it belongs to the container below it.
        if let Some(list) = self.open.pop() {
            self.begin_block(Last::Container);
            self.open.push(list);
        }
        let attrs = match (end, attrs) {
            (TagEnd::List, Some(numbering)) => vec![Attribute::new("type", numbering)],
            (TagEnd::DefinitionList, Some(_)) => vec![Attribute::new("compact", "compact")],
            _ => Vec::new(),
        };
        self.push(Token::start_with(name, attrs));
        self.layout();
    }

    fn start_tag(&mut self, tag: Tag<'d>, pos: Pos) {
        let end = tag.end();
        match tag {
            Tag::Paragraph => {
                self.begin_block(Last::Other);
                self.open_element(end, Some("p"), pos);
            }
            Tag::Text => {
                self.begin_block(Last::Text);
                self.open_element(end, None, pos);
            }
            Tag::Preformatted => {
                self.begin_block(Last::Other);
                self.open_element(end, Some("pre"), pos);
                self.pre_opened = Some(pos);
            }
            Tag::Heading(level) => {
                let name = heading_name(level).unwrap_or_else(|| {
                    let clamped = if level == 0 { "h1" } else { "h6" };
                    self.report(
                        Code::InvalidHeadingLevel,
                        Severity::Warning,
                        format!("heading level {level} written as {clamped}"),
                        pos,
                    );
                    clamped
                });
                self.begin_block(Last::Other);
                self.open_element(end, Some(name), pos);
            }
            Tag::Blockquote => {
                self.begin_block(Last::Container);
                self.open_container(end, "blockquote", Flow::Lines, pos);
                self.layout();
            }
            Tag::List(kind) => {
                let (name, numbering) = match kind {
                    ListKind::Unordered => ("ul", None),
                    ListKind::Ordered(Numbering::Decimal) => ("ol", None),
                    ListKind::Ordered(Numbering::LowerAlpha) => ("ol", Some("a")),
                    ListKind::Ordered(Numbering::UpperAlpha) => ("ol", Some("A")),
                };
                self.open_deferred(end, name, numbering, pos);
            }
            Tag::Item => {
                self.ensure_started();
                self.open_container(end, "li", Flow::Item, pos);
            }
            Tag::DefinitionList { compact } => {
                self.open_deferred(end, "dl", compact.then_some("compact"), pos);
            }
            Tag::DefItem => {
                if let Some(list) = self.open.last_mut()
                    && std::mem::take(&mut list.empty_dd)
                {
                    // A term without a definition followed by another item
                    // gets an empty `dd`: without it, its `dt` would join
                    // the next item's terms when the XHTML is read back
                    // (`<dt>a<dt>b<dd>x` is one item with two terms).
                    self.start("dd");
                    self.end("dd");
                    self.layout();
                }
                self.open.push(Open::new(end, None, pos));
            }
            Tag::Term | Tag::Definition => {
                let is_term = matches!(tag, Tag::Term);
                if let Some(item) = self.open.last_mut() {
                    if is_term {
                        item.terms = true;
                    } else {
                        item.definition = true;
                    }
                }
                // The definition list starts with its first term or
                // definition: it is below the item.
                if let Some(item) = self.open.pop() {
                    self.ensure_started();
                    self.open.push(item);
                }
                if is_term {
                    self.open_element(end, Some("dt"), pos);
                } else {
                    self.open_container(end, "dd", Flow::Item, pos);
                }
            }
            Tag::Emphasis => self.open_element(end, Some("em"), pos),
            Tag::Strong => self.open_element(end, Some("strong"), pos),
            Tag::Code => self.open_element(end, Some("code"), pos),
            Tag::Superscript | Tag::Subscript => {
                let name = if matches!(tag, Tag::Superscript) {
                    "sup"
                } else {
                    "sub"
                };
                if self.in_pre() {
                    self.report(
                        Code::ScriptAsText,
                        Severity::Warning,
                        format!("XHTML 1.0 allows no `<{name}>` in preformatted text; its text was written"),
                        pos,
                    );
                    self.open_element(end, None, pos);
                } else {
                    self.open_element(end, Some(name), pos);
                }
            }
            Tag::Link { url, fragment } => self.link(url, fragment, pos),
            Tag::Image {
                src,
                title,
                width,
                height,
            } => self.begin_image(src, title, (width, height), pos),
            Tag::Table => {
                self.begin_block(Last::Other);
                self.open_element(end, Some("table"), pos);
                let head = self.head_rows.pop_front().unwrap_or(0);
                if let Some(table) = self.open.last_mut() {
                    table.head_left = head;
                }
                self.layout();
            }
            Tag::Caption => self.open_element(end, Some("caption"), pos),
            Tag::Row => self.open_row(end, pos),
            Tag::Cell {
                header,
                colspan,
                rowspan,
            } => self.open_cell(end, (header, colspan, rowspan), pos),
            Tag::Figure => {
                self.begin_block(Last::Container);
                self.open_figure_part(end, "figure", pos);
            }
            Tag::FigureCaption => {
                // On a line of its own, under the image.
                self.layout();
                self.begin_block(Last::Container);
                self.open_figure_part(end, "caption", pos);
            }
        }
    }

    /// A cell (`th` for a header cell) with its spans.
    fn open_cell(&mut self, end: TagEnd, (header, colspan, rowspan): (bool, u32, u32), pos: Pos) {
        let name = if header { "th" } else { "td" };
        let mut attrs = Vec::new();
        if colspan > 1 {
            attrs.push(Attribute::new("colspan", colspan.to_string()));
        }
        if rowspan > 1 {
            attrs.push(Attribute::new("rowspan", rowspan.to_string()));
        }
        self.push(Token::start_with(name, attrs));
        let mut open = Open::new(end, Some(name), pos);
        open.flow = Some(Flow::Item);
        self.open.push(open);
    }

    /// A figure or its caption (`docs/format.md`, "Figures"): XHTML 1.0,
    /// and the HTML syntax of seed 003, have no `<figure>`, so they are a
    /// `<div>` of the class `figure` or `caption`, which ingestion reads
    /// back as the figure. Blocks in them are laid out as in a list item.
    fn open_figure_part(&mut self, end: TagEnd, class: &'static str, pos: Pos) {
        let name = "div";
        let mut attrs = vec![Attribute::new("class", class)];
        if self.source_lines && pos.line > 0 && end == TagEnd::Figure {
            attrs.push(Attribute::new("data-line", pos.line.to_string()));
        }
        self.push(Token::start_with(name, attrs));
        let mut open = Open::new(end, Some(name), pos);
        open.flow = Some(Flow::Item);
        self.open.push(open);
    }

    /// A row: in the table's `thead` while its first rows of header cells
    /// last (`rows::head_rows`), then in its `tbody`.
    fn open_row(&mut self, end: TagEnd, pos: Pos) {
        // A table's first rows of header cells go in a `thead`, the
        // rest in a `tbody`, which an HTML parser would make.
        let (mut head, mut close_head, mut body) = (false, false, false);
        if let Some(table) = self.open.last_mut()
            && table.end == TagEnd::Table
        {
            if table.head_left > 0 {
                table.head_left -= 1;
                head = !table.thead;
                table.thead = true;
            } else if !table.tbody {
                close_head = std::mem::take(&mut table.thead);
                table.tbody = true;
                body = true;
            }
        }
        if close_head {
            self.end("thead");
            self.layout();
        }
        for (open, name) in [(head, "thead"), (body, "tbody")] {
            if open {
                self.start(name);
                self.layout();
            }
        }
        self.open_element(end, Some("tr"), pos);
    }

    /// Closes the element on top, which `end` ends.
    pub(super) fn close(&mut self, end: TagEnd) {
        let Some(open) = self.open.pop() else {
            return;
        };
        // Containers: a newline before the end tag after a container.
        if open.flow == Some(Flow::Item) && open.last == Some(Last::Container) {
            self.layout();
        }
        match end {
            TagEnd::List | TagEnd::DefinitionList if !open.started => {
                let what = if end == TagEnd::List {
                    "a list without items"
                } else {
                    "a definition list without terms or definitions"
                };
                self.report(
                    Code::EmptyElementDropped,
                    Severity::Info,
                    format!("{what} has no content and was left out"),
                    open.pos,
                );
                return;
            }
            TagEnd::Link if open.name.is_some() => {
                self.link_depth = self.link_depth.saturating_sub(1);
            }
            TagEnd::DefItem => {
                if open.terms
                    && !open.definition
                    && let Some(list) = self.open.last_mut()
                {
                    list.empty_dd = true;
                }
                return;
            }
            _ => {}
        }
        for (was_open, name) in [(open.thead, "thead"), (open.tbody, "tbody")] {
            if was_open {
                self.end(name);
                self.layout();
            }
        }
        if let Some(name) = open.name {
            self.end(name);
        }
        match end {
            TagEnd::Paragraph
            | TagEnd::Text
            | TagEnd::Preformatted
            | TagEnd::Heading
            | TagEnd::Blockquote
            | TagEnd::List
            | TagEnd::DefinitionList
            | TagEnd::Table
            | TagEnd::Figure => self.end_block(),
            TagEnd::Item | TagEnd::Term | TagEnd::Definition | TagEnd::Caption | TagEnd::Row => {
                self.layout()
            }
            _ => {}
        }
    }

    fn email(&mut self, address: Cow<'d, str>, pos: Pos) {
        let address = self.cleaned(address, "an e-mail address", pos);
        if self.link_depth > 0 {
            self.report(
                Code::NestedLink,
                Severity::Warning,
                "an e-mail address inside a link text is written as its text".to_owned(),
                pos,
            );
            self.push(Token::Text(address));
            return;
        }
        self.push(Token::start_with(
            "a",
            vec![Attribute::new("href", format!("mailto:{address}"))],
        ));
        self.push(Token::Text(address));
        self.end("a");
    }

    /// Seed 000 §"Inline Elements", link: `<a>` with `name` and `id` for a
    /// fragment, `href` for a URL.
    fn link(&mut self, url: Option<Cow<'d, str>>, fragment: Option<Cow<'d, str>>, pos: Pos) {
        if self.link_depth > 0 {
            // `a` cannot contain `a` (the DTD forbids it and an HTML
            // parser would split the outer link): keep the text only.
            self.report(
                Code::NestedLink,
                Severity::Warning,
                "a link inside a link text is written as its text".to_owned(),
                pos,
            );
            self.open.push(Open::new(TagEnd::Link, None, pos));
            return;
        }
        // A script link is neutralised, as on ingestion: the text stays (and
        // the anchor, if there is one), the link does not.
        let url = match url {
            Some(url) => match crate::ingest::url::unsafe_scheme_of(&url) {
                Some(scheme) => {
                    self.report(
                        Code::UnsafeLink,
                        Severity::Warning,
                        format!("{scheme}: link neutralised: its text is kept, the link is not"),
                        pos,
                    );
                    if fragment.is_none() {
                        self.open.push(Open::new(TagEnd::Link, None, pos));
                        return;
                    }
                    None
                }
                None => Some(url),
            },
            None => None,
        };
        // `name`, `id` and `href` at most.
        let mut attrs = Vec::with_capacity(3);
        if let Some(fragment) = fragment {
            let fragment = self.cleaned(fragment, "an anchor name", pos);
            let fragment = self.valid_anchor(fragment, pos);
            // Anchors carry both `name` and `id` (XHTML 1.0, appendix C.8:
            // older browsers know only `name`, XML tools only `id`).
            attrs.push(Attribute::new("name", fragment.clone()));
            attrs.push(Attribute::new("id", fragment));
        }
        if let Some(url) = url {
            let url = self.cleaned(url, "a link URL", pos);
            // A link into this site follows its anchor's valid form.
            let url = match fragment_reference(&url) {
                Cow::Borrowed(_) => url,
                Cow::Owned(renamed) => Cow::Owned(renamed),
            };
            attrs.push(Attribute::new("href", url));
        }
        self.push(Token::start_with("a", attrs));
        self.link_depth += 1;
        self.open.push(Open::new(TagEnd::Link, Some("a"), pos));
    }

    /// The XHTML 1.0 Transitional DTD types `id` as an XML `ID` (a `Name`,
    /// unique in the document) and `a/@name` as an `NMTOKEN`: a name that
    /// is not a `Name` is written in the form [`anchor_name`] gives it (the
    /// links to it get the same form), with a note; a repeated one stays,
    /// with a warning.
    fn valid_anchor(&mut self, fragment: Cow<'d, str>, pos: Pos) -> Cow<'d, str> {
        let fragment = if is_xml_name(&fragment) {
            fragment
        } else {
            let renamed = anchor_name(&fragment).into_owned();
            self.report(
                Code::AnchorRenamed,
                Severity::Info,
                format!(
                    "anchor name {fragment:?} is not an XML name: written as {renamed:?}, and the links to it too"
                ),
                pos,
            );
            Cow::Owned(renamed)
        };
        let problem = if self.ids.insert(fragment.clone()) {
            None
        } else {
            Some("is used by an earlier anchor")
        };
        if let Some(problem) = problem {
            self.report(
                Code::InvalidAnchor,
                Severity::Warning,
                format!(
                    "anchor name {fragment:?} {problem}: kept as it is, but the XHTML is not valid against the DTD"
                ),
                pos,
            );
        }
        fragment
    }
}
