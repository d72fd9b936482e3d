//! The document as a stream of events: what [`Parser`](crate::Parser) yields
//! and what an emitter consumes, so that text can become markup without a
//! tree in between.
//!
//! A stream is balanced: every [`Event::Start`] has its [`Event::End`], and
//! they nest as the elements of the [model](crate::model) do:
//!
//! - blocks: `Paragraph`, `Text`, `Heading` and `Term` hold inline events;
//!   `Preformatted` holds inline events with an [`Event::LineBreak`] between
//!   its lines; `Blockquote`, `Item` and `Definition` hold blocks; `List`
//!   holds `Item`s; `DefinitionList` holds `DefItem`s, each of them `Term`s
//!   and then at most one `Definition`; [`Event::Rule`] stands alone;
//! - tables: `Table` holds at most one `Caption` (inline events), then
//!   `Row`s, each of them `Cell`s, which hold blocks;
//! - figures: `Figure` holds the image's inline events, then at most one
//!   `FigureCaption`, which holds blocks;
//! - inlines: `Emphasis`, `Strong`, `Code`, `Superscript`, `Subscript`
//!   and `Link` hold inline events, and `Image` its alternative text's;
//!   [`Event::Text`], [`Event::LineBreak`], [`Event::HardBreak`] and
//!   [`Event::Email`] stand alone.
//!
//! Every event comes with its source [`Pos`] (an end event with
//! [`Pos::UNKNOWN`]). Text borrows from the source wherever the source
//! holds it as it is ([`Cow::Borrowed`]); two text events never follow each
//! other when the parser yields them.
//!
//! [`Document::events`] gives the same stream for a tree, and
//! [`Document::from_events`] builds the tree from a stream:
//!
//! ```
//! use wikitext::events::{Event, Tag, TagEnd};
//!
//! let text = "\n_Hi_ there\n";
//! let events: Vec<Event<'_>> = wikitext::Parser::new(text).map(|(e, _)| e).collect();
//! assert_eq!(
//!     events,
//!     [
//!         Event::Start(Tag::Paragraph),
//!         Event::Start(Tag::Emphasis),
//!         Event::Text("Hi".into()),
//!         Event::End(TagEnd::Emphasis),
//!         Event::Text(" there".into()),
//!         Event::End(TagEnd::Paragraph),
//!     ]
//! );
//! let doc = wikitext::parse(text).document;
//! let again: Vec<Event<'_>> = doc.events().map(|(e, _)| e).collect();
//! assert_eq!(events, again);
//! ```

use std::borrow::Cow;
use std::slice;

use crate::model::{
    Block, Cell, DefItem, Document, Inline, ListItem, ListKind, Metadata, Pos, Row, Term,
};

/// One event of a document's stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event<'a> {
    /// An element starts.
    Start(Tag<'a>),
    /// The element last started and not yet ended ends.
    End(TagEnd),
    /// Plain text: never empty, never holding a line feed.
    Text(Cow<'a, str>),
    /// A line division (`\n` in the markup): between the source lines of a
    /// paragraph, text block, term or heading, and between the lines of
    /// preformatted text.
    LineBreak,
    /// A forced line break (`<br />`, `#Extend break`): a new line that a
    /// browser shows, written `<br>` in the text.
    HardBreak,
    /// A horizontal rule (`<hr>`).
    Rule,
    /// An e-mail address `localpart@domain` (`<a href="mailto:...">`).
    Email(Cow<'a, str>),
}

/// An element that holds other events.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Tag<'a> {
    /// `<p>`: a paragraph.
    Paragraph,
    /// Bare text (no element): text in an item or definition.
    Text,
    /// `<pre>`: preformatted text.
    Preformatted,
    /// `<h1>` to `<h6>`.
    Heading(u8),
    /// `<blockquote>`.
    Blockquote,
    /// `<ul>` or `<ol>`.
    List(ListKind),
    /// `<li>`.
    Item,
    /// `<dl>`, compact or not.
    DefinitionList {
        /// The list is compact (`compact="compact"`).
        compact: bool,
    },
    /// One item of a definition list: its terms and its definition.
    DefItem,
    /// `<dt>`.
    Term,
    /// `<dd>`.
    Definition,
    /// `<table>`.
    Table,
    /// `<caption>`.
    Caption,
    /// `<tr>`.
    Row,
    /// `<figure>`: its inline events are the image, then comes at most one
    /// [`Tag::FigureCaption`].
    Figure,
    /// `<figcaption>`: the blocks of a figure's caption.
    FigureCaption,
    /// `<td>`, or `<th>` for a header cell.
    Cell {
        /// A header cell (`<th>`).
        header: bool,
        /// Columns spanned (at least 1).
        colspan: u32,
        /// Rows spanned (at least 1).
        rowspan: u32,
    },
    /// `<em>`.
    Emphasis,
    /// `<strong>`.
    Strong,
    /// `<code>`.
    Code,
    /// `<sup>`.
    Superscript,
    /// `<sub>`.
    Subscript,
    /// `<a>`: a hyperlink, an anchor, or both.
    Link {
        /// The `href`.
        url: Option<Cow<'a, str>>,
        /// The anchor name.
        fragment: Option<Cow<'a, str>>,
    },
    /// `<img>`: an image; its inline events are the alternative text.
    Image {
        /// The `src`.
        src: Cow<'a, str>,
        /// The `title`.
        title: Option<Cow<'a, str>>,
        /// The `width` in pixels.
        width: Option<u32>,
        /// The `height` in pixels.
        height: Option<u32>,
    },
}

/// Which element an [`Event::End`] ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)] // Each is the end of the `Tag` of the same name.
pub enum TagEnd {
    Paragraph,
    Text,
    Preformatted,
    Heading,
    Blockquote,
    List,
    Item,
    DefinitionList,
    DefItem,
    Term,
    Definition,
    Table,
    Caption,
    Row,
    Cell,
    Figure,
    FigureCaption,
    Emphasis,
    Strong,
    Code,
    Superscript,
    Subscript,
    Link,
    Image,
}

impl Tag<'_> {
    /// The end event's tag for this start.
    pub fn end(&self) -> TagEnd {
        match self {
            Tag::Paragraph => TagEnd::Paragraph,
            Tag::Text => TagEnd::Text,
            Tag::Preformatted => TagEnd::Preformatted,
            Tag::Heading(_) => TagEnd::Heading,
            Tag::Blockquote => TagEnd::Blockquote,
            Tag::List(_) => TagEnd::List,
            Tag::Item => TagEnd::Item,
            Tag::DefinitionList { .. } => TagEnd::DefinitionList,
            Tag::DefItem => TagEnd::DefItem,
            Tag::Term => TagEnd::Term,
            Tag::Definition => TagEnd::Definition,
            Tag::Table => TagEnd::Table,
            Tag::Caption => TagEnd::Caption,
            Tag::Row => TagEnd::Row,
            Tag::Cell { .. } => TagEnd::Cell,
            Tag::Figure => TagEnd::Figure,
            Tag::FigureCaption => TagEnd::FigureCaption,
            Tag::Emphasis => TagEnd::Emphasis,
            Tag::Strong => TagEnd::Strong,
            Tag::Code => TagEnd::Code,
            Tag::Superscript => TagEnd::Superscript,
            Tag::Subscript => TagEnd::Subscript,
            Tag::Link { .. } => TagEnd::Link,
            Tag::Image { .. } => TagEnd::Image,
        }
    }
}

/// An event and where it was found.
pub type Positioned<'a> = (Event<'a>, Pos);

// ---- a tree as events ------------------------------------------------------

enum Step<'d> {
    Emit(Event<'d>),
    Blocks(slice::Iter<'d, Block>),
    Items(slice::Iter<'d, ListItem>),
    DefItems(slice::Iter<'d, DefItem>),
    Terms(slice::Iter<'d, Term>),
    Rows(slice::Iter<'d, Row>),
    Cells(slice::Iter<'d, Cell>),
    Inlines(slice::Iter<'d, Inline>),
    PreLines {
        iter: slice::Iter<'d, Vec<Inline>>,
        first: bool,
    },
}

/// The iterator [`Document::events`] returns. It keeps an explicit stack,
/// so any depth is safe.
pub struct Events<'d> {
    stack: Vec<Step<'d>>,
}

impl std::fmt::Debug for Events<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Events")
            .field("depth", &self.stack.len())
            .finish()
    }
}

impl Document {
    /// The body as a balanced stream of events, text borrowed from the
    /// document: the same stream [`Parser`](crate::Parser) yields for the
    /// text the document was read from.
    pub fn events(&self) -> Events<'_> {
        Events {
            stack: vec![Step::Blocks(self.body.iter())],
        }
    }

    /// Builds a document from `meta` and a stream of body events (see
    /// [`Document::events`]). Adjacent text events are merged. An event that
    /// does not fit where it comes (an inline outside a block, an item
    /// outside a list) is left out with what it holds; an end closes the
    /// innermost open element it ends and whatever is open inside it, and
    /// ends nothing when no such element is open; elements still open at the
    /// end are closed.
    pub fn from_events<'a>(
        meta: Metadata,
        events: impl IntoIterator<Item = Positioned<'a>>,
    ) -> Document {
        let mut builder = Builder::default();
        for (event, pos) in events {
            builder.event(event, pos);
        }
        Document {
            meta,
            body: builder.finish(),
        }
    }
}

impl<'d> Events<'d> {
    /// The events of one inline run.
    pub(crate) fn of_run(run: &'d [Inline]) -> Events<'d> {
        Events {
            stack: vec![Step::Inlines(run.iter())],
        }
    }

    fn block(&mut self, block: &'d Block) -> Positioned<'d> {
        let pos = block.pos();
        let (tag, end) = match block {
            Block::Paragraph { content, .. } => (Tag::Paragraph, Step::Inlines(content.iter())),
            Block::Text { content, .. } => (Tag::Text, Step::Inlines(content.iter())),
            Block::Preformatted { lines, .. } => (
                Tag::Preformatted,
                Step::PreLines {
                    iter: lines.iter(),
                    first: true,
                },
            ),
            Block::Heading { level, content, .. } => {
                (Tag::Heading(*level), Step::Inlines(content.iter()))
            }
            Block::Rule { .. } => return (Event::Rule, pos),
            Block::Blockquote { content, .. } => (Tag::Blockquote, Step::Blocks(content.iter())),
            Block::List { kind, items, .. } => (Tag::List(*kind), Step::Items(items.iter())),
            Block::DefinitionList { compact, items, .. } => (
                Tag::DefinitionList { compact: *compact },
                Step::DefItems(items.iter()),
            ),
            Block::Table { caption, rows, .. } => {
                self.stack.push(Step::Emit(Event::End(TagEnd::Table)));
                self.stack.push(Step::Rows(rows.iter()));
                if !caption.is_empty() {
                    self.stack.push(Step::Emit(Event::End(TagEnd::Caption)));
                    self.stack.push(Step::Inlines(caption.iter()));
                    self.stack.push(Step::Emit(Event::Start(Tag::Caption)));
                }
                return (Event::Start(Tag::Table), pos);
            }
            Block::Figure { image, caption, .. } => {
                self.stack.push(Step::Emit(Event::End(TagEnd::Figure)));
                if !caption.is_empty() {
                    self.stack
                        .push(Step::Emit(Event::End(TagEnd::FigureCaption)));
                    self.stack.push(Step::Blocks(caption.iter()));
                    self.stack
                        .push(Step::Emit(Event::Start(Tag::FigureCaption)));
                }
                self.stack.push(Step::Inlines(image.iter()));
                return (Event::Start(Tag::Figure), pos);
            }
        };
        self.stack.push(Step::Emit(Event::End(tag.end())));
        self.stack.push(end);
        (Event::Start(tag), pos)
    }

    fn inline(&mut self, inline: &'d Inline) -> Positioned<'d> {
        let pos = inline.pos();
        let (tag, content) = match inline {
            Inline::Text { text, .. } => return (Event::Text(Cow::Borrowed(text)), pos),
            Inline::LineBreak { .. } => return (Event::LineBreak, pos),
            Inline::HardBreak { .. } => return (Event::HardBreak, pos),
            Inline::Email { address, .. } => return (Event::Email(Cow::Borrowed(address)), pos),
            Inline::Emphasis { content, .. } => (Tag::Emphasis, content),
            Inline::Strong { content, .. } => (Tag::Strong, content),
            Inline::Code { content, .. } => (Tag::Code, content),
            Inline::Superscript { content, .. } => (Tag::Superscript, content),
            Inline::Subscript { content, .. } => (Tag::Subscript, content),
            Inline::Link {
                url,
                fragment,
                content,
                ..
            } => (
                Tag::Link {
                    url: url.as_deref().map(Cow::Borrowed),
                    fragment: fragment.as_deref().map(Cow::Borrowed),
                },
                content,
            ),
            Inline::Image {
                src,
                alt,
                title,
                width,
                height,
                ..
            } => (
                Tag::Image {
                    src: Cow::Borrowed(src),
                    title: title.as_deref().map(Cow::Borrowed),
                    width: *width,
                    height: *height,
                },
                alt,
            ),
        };
        self.stack.push(Step::Emit(Event::End(tag.end())));
        self.stack.push(Step::Inlines(content.iter()));
        (Event::Start(tag), pos)
    }
}

impl<'d> Iterator for Events<'d> {
    type Item = Positioned<'d>;

    fn next(&mut self) -> Option<Positioned<'d>> {
        loop {
            match self.stack.pop()? {
                Step::Emit(event) => return Some((event, Pos::UNKNOWN)),
                Step::Blocks(mut iter) => {
                    if let Some(block) = iter.next() {
                        self.stack.push(Step::Blocks(iter));
                        return Some(self.block(block));
                    }
                }
                Step::Items(mut iter) => {
                    if let Some(item) = iter.next() {
                        self.stack.push(Step::Items(iter));
                        self.stack.push(Step::Emit(Event::End(TagEnd::Item)));
                        self.stack.push(Step::Blocks(item.content.iter()));
                        return Some((Event::Start(Tag::Item), item.pos));
                    }
                }
                Step::DefItems(mut iter) => {
                    if let Some(item) = iter.next() {
                        self.stack.push(Step::DefItems(iter));
                        self.stack.push(Step::Emit(Event::End(TagEnd::DefItem)));
                        if !item.definition.is_empty() {
                            self.stack.push(Step::Emit(Event::End(TagEnd::Definition)));
                            self.stack.push(Step::Blocks(item.definition.iter()));
                            self.stack.push(Step::Emit(Event::Start(Tag::Definition)));
                        }
                        self.stack.push(Step::Terms(item.terms.iter()));
                        return Some((Event::Start(Tag::DefItem), item.pos));
                    }
                }
                Step::Terms(mut iter) => {
                    if let Some(term) = iter.next() {
                        self.stack.push(Step::Terms(iter));
                        self.stack.push(Step::Emit(Event::End(TagEnd::Term)));
                        self.stack.push(Step::Inlines(term.content.iter()));
                        return Some((Event::Start(Tag::Term), term.pos));
                    }
                }
                Step::Rows(mut iter) => {
                    if let Some(row) = iter.next() {
                        self.stack.push(Step::Rows(iter));
                        self.stack.push(Step::Emit(Event::End(TagEnd::Row)));
                        self.stack.push(Step::Cells(row.cells.iter()));
                        return Some((Event::Start(Tag::Row), row.pos));
                    }
                }
                Step::Cells(mut iter) => {
                    if let Some(cell) = iter.next() {
                        self.stack.push(Step::Cells(iter));
                        self.stack.push(Step::Emit(Event::End(TagEnd::Cell)));
                        self.stack.push(Step::Blocks(cell.content.iter()));
                        let tag = Tag::Cell {
                            header: cell.header,
                            colspan: cell.colspan,
                            rowspan: cell.rowspan,
                        };
                        return Some((Event::Start(tag), cell.pos));
                    }
                }
                Step::Inlines(mut iter) => {
                    if let Some(inline) = iter.next() {
                        self.stack.push(Step::Inlines(iter));
                        return Some(self.inline(inline));
                    }
                }
                Step::PreLines { mut iter, first } => {
                    if let Some(line) = iter.next() {
                        self.stack.push(Step::PreLines { iter, first: false });
                        self.stack.push(Step::Inlines(line.iter()));
                        if !first {
                            return Some((Event::LineBreak, Pos::UNKNOWN));
                        }
                    }
                }
            }
        }
    }
}

// ---- events as a tree ------------------------------------------------------

/// An element being built.
enum Open {
    /// The body, a blockquote, an item or a definition: blocks.
    Blocks {
        end: Option<TagEnd>,
        pos: Pos,
        blocks: Vec<Block>,
    },
    /// A paragraph, text block, heading, term or inline element: inlines.
    Run {
        tag: Tag<'static>,
        pos: Pos,
        run: Vec<Inline>,
    },
    Pre {
        pos: Pos,
        lines: Vec<Vec<Inline>>,
        run: Vec<Inline>,
    },
    List {
        kind: ListKind,
        pos: Pos,
        items: Vec<ListItem>,
    },
    DefList {
        compact: bool,
        pos: Pos,
        items: Vec<DefItem>,
    },
    DefItem {
        pos: Pos,
        terms: Vec<Term>,
        definition: Vec<Block>,
    },
    Table {
        pos: Pos,
        caption: Vec<Inline>,
        rows: Vec<Row>,
    },
    Row {
        pos: Pos,
        cells: Vec<Cell>,
    },
    /// A cell: its blocks are built in an `Open::Blocks` above it.
    Cell(Cell),
    /// A figure: the image's inlines, then the caption's blocks (built in
    /// an `Open::Blocks` above it).
    Figure {
        pos: Pos,
        image: Vec<Inline>,
        caption: Vec<Block>,
    },
}

impl Open {
    fn end(&self) -> Option<TagEnd> {
        Some(match self {
            Open::Blocks { end, .. } => return *end,
            Open::Run { tag, .. } => tag.end(),
            Open::Pre { .. } => TagEnd::Preformatted,
            Open::List { .. } => TagEnd::List,
            Open::DefList { .. } => TagEnd::DefinitionList,
            Open::DefItem { .. } => TagEnd::DefItem,
            Open::Table { .. } => TagEnd::Table,
            Open::Row { .. } => TagEnd::Row,
            Open::Cell(_) => TagEnd::Cell,
            Open::Figure { .. } => TagEnd::Figure,
        })
    }

    fn run(&mut self) -> Option<&mut Vec<Inline>> {
        match self {
            Open::Run { run, .. } | Open::Pre { run, .. } | Open::Figure { image: run, .. } => {
                Some(run)
            }
            _ => None,
        }
    }
}

struct Builder {
    stack: Vec<Open>,
}

impl Default for Builder {
    fn default() -> Self {
        Builder {
            stack: vec![Open::Blocks {
                end: None,
                pos: Pos::UNKNOWN,
                blocks: Vec::new(),
            }],
        }
    }
}

fn owned_tag(tag: Tag<'_>) -> Tag<'static> {
    match tag {
        Tag::Link { url, fragment } => Tag::Link {
            url: url.map(|u| Cow::Owned(u.into_owned())),
            fragment: fragment.map(|f| Cow::Owned(f.into_owned())),
        },
        Tag::Image {
            src,
            title,
            width,
            height,
        } => Tag::Image {
            src: Cow::Owned(src.into_owned()),
            title: title.map(|t| Cow::Owned(t.into_owned())),
            width,
            height,
        },
        Tag::Paragraph => Tag::Paragraph,
        Tag::Text => Tag::Text,
        Tag::Preformatted => Tag::Preformatted,
        Tag::Heading(level) => Tag::Heading(level),
        Tag::Blockquote => Tag::Blockquote,
        Tag::List(kind) => Tag::List(kind),
        Tag::Item => Tag::Item,
        Tag::DefinitionList { compact } => Tag::DefinitionList { compact },
        Tag::DefItem => Tag::DefItem,
        Tag::Term => Tag::Term,
        Tag::Definition => Tag::Definition,
        Tag::Table => Tag::Table,
        Tag::Caption => Tag::Caption,
        Tag::Row => Tag::Row,
        Tag::Figure => Tag::Figure,
        Tag::FigureCaption => Tag::FigureCaption,
        Tag::Cell {
            header,
            colspan,
            rowspan,
        } => Tag::Cell {
            header,
            colspan,
            rowspan,
        },
        Tag::Emphasis => Tag::Emphasis,
        Tag::Strong => Tag::Strong,
        Tag::Code => Tag::Code,
        Tag::Superscript => Tag::Superscript,
        Tag::Subscript => Tag::Subscript,
    }
}

impl Builder {
    fn event(&mut self, event: Event<'_>, pos: Pos) {
        match event {
            Event::Start(tag) => self.start(tag, pos),
            Event::End(end) => {
                // The innermost open element that `end` ends is closed, with
                // whatever is still open inside it.
                let body = 1;
                if let Some(at) = self
                    .stack
                    .iter()
                    .skip(body)
                    .rposition(|o| o.end() == Some(end))
                {
                    while self.stack.len() > at + body {
                        self.close();
                    }
                }
            }
            Event::Text(text) => {
                if let Some(run) = self.stack.last_mut().and_then(Open::run)
                    && !text.is_empty()
                {
                    if let Some(Inline::Text { text: last, .. }) = run.last_mut() {
                        last.push_str(&text);
                    } else {
                        run.push(Inline::Text {
                            text: text.into_owned(),
                            pos,
                        });
                    }
                }
            }
            Event::LineBreak => match self.stack.last_mut() {
                Some(Open::Pre { lines, run, .. }) => lines.push(std::mem::take(run)),
                Some(Open::Run { run, .. }) => run.push(Inline::LineBreak { pos }),
                _ => {}
            },
            // Preformatted text has no forced break but its line ends.
            Event::HardBreak => match self.stack.last_mut() {
                Some(Open::Pre { lines, run, .. }) => lines.push(std::mem::take(run)),
                Some(Open::Run { run, .. }) => run.push(Inline::HardBreak { pos }),
                _ => {}
            },
            Event::Email(address) => {
                if let Some(run) = self.stack.last_mut().and_then(Open::run) {
                    run.push(Inline::Email {
                        address: address.into_owned(),
                        pos,
                    });
                }
            }
            Event::Rule => {
                if let Some(Open::Blocks { blocks, .. }) = self.stack.last_mut() {
                    blocks.push(Block::Rule { pos });
                }
            }
        }
    }

    fn start(&mut self, tag: Tag<'_>, pos: Pos) {
        let Some(top) = self.stack.last() else {
            return;
        };
        let fits = match (&tag, top) {
            (Tag::Item, Open::List { .. }) => true,
            (Tag::DefItem, Open::DefList { .. }) => true,
            (Tag::Term | Tag::Definition, Open::DefItem { .. }) => true,
            (Tag::Caption | Tag::Row, Open::Table { .. }) => true,
            (Tag::Cell { .. }, Open::Row { .. }) => true,
            (Tag::FigureCaption, Open::Figure { caption, .. }) => caption.is_empty(),
            (
                Tag::Emphasis
                | Tag::Strong
                | Tag::Code
                | Tag::Superscript
                | Tag::Subscript
                | Tag::Link { .. }
                | Tag::Image { .. },
                top,
            ) => {
                matches!(
                    top,
                    Open::Run { .. } | Open::Pre { .. } | Open::Figure { .. }
                )
            }
            (_, Open::Blocks { .. }) => !matches!(
                tag,
                Tag::Item
                    | Tag::DefItem
                    | Tag::Term
                    | Tag::Definition
                    | Tag::Caption
                    | Tag::Row
                    | Tag::Cell { .. }
                    | Tag::FigureCaption
            ),
            _ => false,
        };
        if !fits {
            // Left out, with what it holds: a placeholder that swallows it.
            self.stack.push(Open::Run {
                tag: owned_tag(tag),
                pos,
                run: Vec::new(),
            });
            return;
        }
        let open = match tag {
            Tag::Blockquote | Tag::Item | Tag::Definition | Tag::FigureCaption => Open::Blocks {
                end: Some(tag.end()),
                pos,
                blocks: Vec::new(),
            },
            Tag::Preformatted => Open::Pre {
                pos,
                lines: Vec::new(),
                run: Vec::new(),
            },
            Tag::List(kind) => Open::List {
                kind,
                pos,
                items: Vec::new(),
            },
            Tag::DefinitionList { compact } => Open::DefList {
                compact,
                pos,
                items: Vec::new(),
            },
            Tag::DefItem => Open::DefItem {
                pos,
                terms: Vec::new(),
                definition: Vec::new(),
            },
            Tag::Table => Open::Table {
                pos,
                caption: Vec::new(),
                rows: Vec::new(),
            },
            Tag::Row => Open::Row {
                pos,
                cells: Vec::new(),
            },
            Tag::Figure => Open::Figure {
                pos,
                image: Vec::new(),
                caption: Vec::new(),
            },
            Tag::Cell {
                header,
                colspan,
                rowspan,
            } => {
                // The cell, then the blocks it holds above it: they are
                // handed down when the cell ends.
                self.stack.push(Open::Cell(Cell {
                    header,
                    colspan,
                    rowspan,
                    content: Vec::new(),
                    pos,
                }));
                Open::Blocks {
                    end: Some(TagEnd::Cell),
                    pos,
                    blocks: Vec::new(),
                }
            }
            tag => Open::Run {
                tag: owned_tag(tag),
                pos,
                run: Vec::new(),
            },
        };
        self.stack.push(open);
    }

    /// Closes the element on top and hands it to the one below.
    fn close(&mut self) {
        let Some(open) = self.stack.pop() else {
            return;
        };
        let Some(parent) = self.stack.last_mut() else {
            return;
        };
        let mut cell_done = false;
        match open {
            Open::Blocks {
                end, pos, blocks, ..
            } => match (end, parent) {
                (Some(TagEnd::Blockquote), Open::Blocks { blocks: p, .. }) => {
                    p.push(Block::Blockquote {
                        content: blocks,
                        pos,
                    });
                }
                (Some(TagEnd::Item), Open::List { items, .. }) => {
                    items.push(ListItem {
                        content: blocks,
                        pos,
                    });
                }
                (Some(TagEnd::Definition), Open::DefItem { definition, .. }) => {
                    definition.extend(blocks);
                }
                (Some(TagEnd::FigureCaption), Open::Figure { caption, .. }) => {
                    *caption = blocks;
                }
                (Some(TagEnd::Cell), Open::Cell(cell)) => {
                    cell.content = blocks;
                    // The cell itself ends with its blocks.
                    cell_done = true;
                }
                _ => {}
            },
            Open::Table { pos, caption, rows } => {
                if let Open::Blocks { blocks, .. } = parent {
                    blocks.push(Block::Table { caption, rows, pos });
                }
            }
            Open::Figure {
                pos,
                image,
                caption,
            } => {
                if let Open::Blocks { blocks, .. } = parent {
                    blocks.push(Block::Figure {
                        image,
                        caption,
                        pos,
                    });
                }
            }
            Open::Row { pos, cells } => {
                if let Open::Table { rows, .. } = parent {
                    rows.push(Row { cells, pos });
                }
            }
            Open::Cell(cell) => {
                if let Open::Row { cells, .. } = parent {
                    cells.push(cell);
                }
            }
            Open::Pre {
                pos,
                mut lines,
                run,
            } => {
                lines.push(run);
                if let Open::Blocks { blocks, .. } = parent {
                    blocks.push(Block::Preformatted { lines, pos });
                }
            }
            Open::List { kind, pos, items } => {
                if let Open::Blocks { blocks, .. } = parent {
                    blocks.push(Block::List { kind, items, pos });
                }
            }
            Open::DefList {
                compact,
                pos,
                items,
            } => {
                if let Open::Blocks { blocks, .. } = parent {
                    blocks.push(Block::DefinitionList {
                        compact,
                        items,
                        pos,
                    });
                }
            }
            Open::DefItem {
                pos,
                terms,
                definition,
            } => {
                if let Open::DefList { items, .. } = parent {
                    items.push(DefItem {
                        terms,
                        definition,
                        pos,
                    });
                }
            }
            Open::Run { tag, pos, run } => close_run(parent, tag, pos, run),
        }
        if cell_done {
            self.close();
        }
    }

    fn finish(mut self) -> Vec<Block> {
        while self.stack.len() > 1 {
            self.close();
        }
        match self.stack.pop() {
            Some(Open::Blocks { blocks, .. }) => blocks,
            _ => Vec::new(),
        }
    }
}

/// The inline events of one run (as the inline pass gives them) as a run
/// of the model.
pub(crate) fn inlines_from_events(events: Vec<Positioned<'_>>) -> Vec<Inline> {
    let mut builder = Builder {
        stack: vec![Open::Run {
            tag: Tag::Paragraph,
            pos: Pos::UNKNOWN,
            run: Vec::new(),
        }],
    };
    for (event, pos) in events {
        builder.event(event, pos);
    }
    while builder.stack.len() > 1 {
        builder.close();
    }
    match builder.stack.pop() {
        Some(Open::Run { run, .. }) => run,
        _ => Vec::new(),
    }
}

/// Hands a finished run element to its parent. A placeholder for an element
/// that did not fit (a parent that does not take it) is dropped here.
fn close_run(parent: &mut Open, tag: Tag<'static>, pos: Pos, content: Vec<Inline>) {
    let inline = match tag {
        Tag::Emphasis => Inline::Emphasis { content, pos },
        Tag::Strong => Inline::Strong { content, pos },
        Tag::Code => Inline::Code { content, pos },
        Tag::Superscript => Inline::Superscript { content, pos },
        Tag::Subscript => Inline::Subscript { content, pos },
        Tag::Link { url, fragment } => Inline::Link {
            url: url.map(Cow::into_owned),
            fragment: fragment.map(Cow::into_owned),
            content,
            pos,
        },
        Tag::Image {
            src,
            title,
            width,
            height,
        } => Inline::Image {
            src: src.into_owned(),
            alt: content,
            title: title.map(Cow::into_owned),
            width,
            height,
            pos,
        },
        tag => {
            match (tag, parent) {
                (Tag::Paragraph, Open::Blocks { blocks, .. }) => {
                    blocks.push(Block::Paragraph { content, pos });
                }
                (Tag::Text, Open::Blocks { blocks, .. }) => {
                    blocks.push(Block::Text { content, pos });
                }
                (Tag::Heading(level), Open::Blocks { blocks, .. }) => {
                    blocks.push(Block::Heading {
                        level,
                        content,
                        pos,
                    });
                }
                (Tag::Term, Open::DefItem { terms, .. }) => terms.push(Term { content, pos }),
                (Tag::Caption, Open::Table { caption, .. }) => *caption = content,
                _ => {}
            }
            return;
        }
    };
    if let Some(run) = parent.run() {
        run.push(inline);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Block as B, Inline as I};

    fn build(events: Vec<Event<'_>>) -> Vec<Block> {
        Document::from_events(
            Metadata::default(),
            events.into_iter().map(|e| (e, Pos::UNKNOWN)),
        )
        .body
    }

    #[test]
    fn a_balanced_stream_builds_its_tree() {
        let body = build(vec![
            Event::Start(Tag::List(ListKind::Unordered)),
            Event::Start(Tag::Item),
            Event::Start(Tag::Text),
            Event::Text("a".into()),
            Event::Text("b".into()),
            Event::LineBreak,
            Event::Start(Tag::Strong),
            Event::Text("c".into()),
            Event::End(TagEnd::Strong),
            Event::End(TagEnd::Text),
            Event::End(TagEnd::Item),
            Event::End(TagEnd::List),
            Event::Rule,
            Event::Start(Tag::Preformatted),
            Event::Text("x".into()),
            Event::LineBreak,
            Event::LineBreak,
            Event::Email("a@b.de".into()),
            Event::End(TagEnd::Preformatted),
        ]);
        assert_eq!(
            body,
            vec![
                B::list(
                    ListKind::Unordered,
                    vec![ListItem::new(vec![B::text(vec![
                        I::text("ab"),
                        I::line_break(),
                        I::strong(vec![I::text("c")]),
                    ])])]
                ),
                B::rule(),
                B::preformatted(vec![vec![I::text("x")], vec![], vec![I::email("a@b.de")]]),
            ]
        );
    }

    #[test]
    fn what_does_not_fit_is_left_out_and_open_elements_are_closed() {
        let body = build(vec![
            // An end that closes nothing, text and an item outside any block.
            Event::End(TagEnd::Paragraph),
            Event::Text("lost".into()),
            Event::Start(Tag::Item),
            Event::Text("lost too".into()),
            Event::End(TagEnd::Item),
            // A paragraph inside emphasis: the paragraph goes, the rest stays.
            Event::Start(Tag::Paragraph),
            Event::Start(Tag::Emphasis),
            Event::Start(Tag::Paragraph),
            Event::Text("inner".into()),
            Event::End(TagEnd::Paragraph),
            Event::Text("kept".into()),
            // Never closed.
        ]);
        assert_eq!(
            body,
            vec![B::paragraph(vec![I::emphasis(vec![I::text("kept")])])]
        );
    }

    /// How deep the inlines of the first paragraph nest.
    fn inline_depth(body: &[Block]) -> usize {
        let Some(B::Paragraph { content, .. }) = body.first() else {
            return 0;
        };
        let mut depth = 0;
        let mut run = content.as_slice();
        while let Some(first) = run.first() {
            depth += 1;
            run = first.children().map_or(&[], Vec::as_slice);
        }
        depth
    }

    #[test]
    fn a_deep_tree_walks_and_builds_without_recursion() {
        let mut inline = I::text("x");
        for _ in 0..100_000 {
            inline = I::emphasis(vec![inline]);
        }
        let doc = Document::new(Metadata::default(), vec![B::paragraph(vec![inline])]);
        let count = doc.events().count();
        let again = Document::from_events(Metadata::default(), doc.events());
        let depths = (inline_depth(&again.body), inline_depth(&doc.body));
        // Take the trees apart by hand before any assertion: `Inline`'s
        // derived drop recurses (the parser never nests this deep).
        for mut body in [again.body, doc.body] {
            let mut stack: Vec<Inline> = Vec::new();
            if let Some(B::Paragraph { content, .. }) = body.pop() {
                stack.extend(content);
            }
            while let Some(mut node) = stack.pop() {
                if let Some(children) = node.children_mut() {
                    stack.append(children);
                }
            }
        }
        // A paragraph start and end, a start and an end per emphasis, the text.
        assert_eq!(count, 200_003);
        assert_eq!(depths, (100_001, 100_001));
    }
}
