//! The document model: what a text document (or an HTML page) means, as typed data.
//!
//! A [`Document`] is a metadata header ([`Metadata`]) and a body of [`Block`]s.
//! Blocks hold other blocks (lists, blockquotes, definitions) or runs of
//! [`Inline`]s (paragraphs, headings, terms). Every node has a public `pos`
//! field of type [`Pos`]: where the parser found it (line and column), or
//! [`Pos::UNKNOWN`] for nodes built by hand. Positions never take part in
//! equality: two documents are equal when they say the same thing, wherever
//! it was said.
//!
//! Build nodes with the constructors (`Block::paragraph`, `Inline::text`, ...),
//! which use an unknown position, and attach a position with `.at(pos)` when
//! there is one (for example the source line of an HTML element).
//!
//! Invariants the parser keeps and the writer expects (the writer repairs or
//! reports documents that break them):
//! - inline runs have no empty [`Inline::Text`] and no two adjacent ones;
//!   text never holds a line feed: line divisions are [`Inline::LineBreak`];
//! - heading levels are 1 to 6;
//! - a link has a URL or a fragment (or both), never neither;
//! - nesting of blocks is at most [`MAX_DEPTH`] levels.

use std::fmt;
use std::hash::{Hash, Hasher};

use serde::{Deserialize, Serialize};

mod blocks;

/// How deep blocks may nest (blocks inside list items, blockquotes and
/// definitions). The parser stops opening new containers at this depth (with a
/// diagnostic) so that every recursive walk over a parsed document, including
/// the derived `PartialEq`, `Clone`, `Drop` and serde implementations, stays
/// far from the stack limit. Builders of documents (such as `htmlio`) should
/// flatten deeper structure the same way.
pub const MAX_DEPTH: usize = 32;

/// A source position: 1-based line and column (column counted in characters of
/// the source line as written, before tabs are expanded). Zero means unknown:
/// `Pos::UNKNOWN` is neither, `Pos::at_line(n)` knows only the line.
///
/// **Equality ignores positions**: `Pos == Pos` is always true, so deriving
/// `PartialEq` on nodes compares their content only. Use [`Pos::same_place`]
/// to compare positions themselves. `Hash` is consistent with this (it hashes
/// nothing).
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize)]
pub struct Pos {
    /// 1-based line number; 0 when unknown.
    pub line: u32,
    /// 1-based column in characters; 0 when unknown.
    pub column: u32,
}

impl Pos {
    /// The position of a node that was not read from anywhere.
    pub const UNKNOWN: Pos = Pos { line: 0, column: 0 };

    /// A position at `line`, `column` (both 1-based).
    pub const fn new(line: u32, column: u32) -> Pos {
        Pos { line, column }
    }

    /// A position of which only the line is known (column 0), as HTML
    /// parsers often report.
    pub const fn at_line(line: u32) -> Pos {
        Pos { line, column: 0 }
    }

    /// Whether the line is known.
    pub const fn is_known(&self) -> bool {
        self.line != 0
    }

    /// Whether the position is unknown (used to skip it when serializing).
    pub const fn is_unknown(&self) -> bool {
        self.line == 0
    }

    /// Compares the positions themselves (the `==` operator does not).
    pub const fn same_place(&self, other: &Pos) -> bool {
        self.line == other.line && self.column == other.column
    }
}

impl PartialEq for Pos {
    /// Always true: positions never make two nodes differ.
    fn eq(&self, _other: &Pos) -> bool {
        true
    }
}

impl Eq for Pos {}

impl Hash for Pos {
    /// Hashes nothing, to agree with `PartialEq`.
    fn hash<H: Hasher>(&self, _state: &mut H) {}
}

impl fmt::Display for Pos {
    /// `line:column`, `line` when only the line is known, `?` when unknown.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.column) {
            (0, _) => f.write_str("?"),
            (line, 0) => write!(f, "{line}"),
            (line, column) => write!(f, "{line}:{column}"),
        }
    }
}

/// A whole document: the metadata header and the body.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Document {
    /// The header lines (`#Title`, `#Lang`, `#Meta:`, `#Link:`).
    pub meta: Metadata,
    /// The body: blocks in order.
    pub body: Vec<Block>,
}

impl Document {
    /// A document with the given metadata and body.
    pub fn new(meta: Metadata, body: Vec<Block>) -> Document {
        Document { meta, body }
    }
}

/// The metadata header: the lines up to the first empty line of a text
/// document, or the `<head>` of an HTML page.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Metadata {
    /// `#Title words...`: the `<title>`, words joined by single spaces.
    pub title: Option<String>,
    /// `#Lang code`: the language code of `lang`/`xml:lang` (e.g. `en-us`).
    pub lang: Option<String>,
    /// `#Meta:name content...`: one `<meta name content>` each, in order.
    pub metas: Vec<Meta>,
    /// `#Link:rel:rel href title...`: one `<link>` each, in order.
    pub links: Vec<Link>,
    /// `#Escape \`: the document uses the escape extension (a backslash
    /// before a markup character makes it plain text; see
    /// [`grammar::is_escapable`](crate::grammar::is_escapable)). This is how
    /// the text is spelled, not what it says: the writer sets it when a
    /// document needs an escape, and keeps it once a text declares it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub escape: bool,
    /// `#Extend open`: a list item, blockquote or definition may open with
    /// a list, preformatted text or a blockquote, written after a bare
    /// opener (a bullet, `>` or `::` alone on its line). Like
    /// [`escape`](Metadata::escape), this is how the text is spelled: the
    /// writer sets it when some container needs it, and keeps it once a
    /// text declares it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub open: bool,
    /// `#Extend image`: `![SRC||ALT]` is an image (see [`Inline::Image`]).
    /// The writer sets it when the body holds an image, and keeps it once
    /// a text declares it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub image: bool,
    /// `#Extend table`: lines that start and end with `|` are the rows of
    /// a table (see [`Block::Table`]). The writer sets it when the body
    /// holds a table, and keeps it once a text declares it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub table: bool,
    /// `#Extend break`: `<br>` is a forced line break (see
    /// [`Inline::HardBreak`]).
    /// The writer sets it when the body holds one, and keeps it once a
    /// text declares it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub breaks: bool,
    /// `#Extend subsup`: `^{...}` is a superscript and `~{...}` a
    /// subscript (see [`Inline::Superscript`]). The writer sets it when
    /// the body holds one, and keeps it once a text declares it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub subsup: bool,
    /// `#Extend figure`: a compact definition item whose only term is an
    /// image (or a link around one) is a figure, its definition the
    /// caption (see [`Block::Figure`]). The writer sets it when the body
    /// holds a figure, and keeps it once a text declares it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub figure: bool,
}

/// A `#Meta:` line: `<meta name="..." content="...">`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Meta {
    /// The `name` attribute (the rest of the first word; never empty, no white space).
    pub name: String,
    /// The `content` attribute (the following words joined by single spaces; may be empty).
    pub content: String,
    /// Where the line was.
    #[serde(default, skip_serializing_if = "Pos::is_unknown")]
    pub pos: Pos,
}

impl Meta {
    /// A meta entry with an unknown position.
    pub fn new(name: impl Into<String>, content: impl Into<String>) -> Meta {
        Meta {
            name: name.into(),
            content: content.into(),
            pos: Pos::UNKNOWN,
        }
    }

    /// The same entry at `pos`.
    pub fn at(mut self, pos: Pos) -> Meta {
        self.pos = pos;
        self
    }
}

/// A `#Link:` line: `<link rel="..." href="..." title="...">`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Link {
    /// The `rel` values (the colon-separated rest of the first word); each
    /// non-empty, without white space or `:`. May be empty (no `rel`).
    pub rel: Vec<String>,
    /// The `href` attribute (the second word; never empty, no white space).
    pub href: String,
    /// The optional `title` attribute (third and following words joined by single spaces).
    pub title: Option<String>,
    /// Where the line was.
    #[serde(default, skip_serializing_if = "Pos::is_unknown")]
    pub pos: Pos,
}

impl Link {
    /// A link entry with an unknown position.
    pub fn new(rel: Vec<String>, href: impl Into<String>, title: Option<String>) -> Link {
        Link {
            rel,
            href: href.into(),
            title,
            pos: Pos::UNKNOWN,
        }
    }

    /// The same entry at `pos`.
    pub fn at(mut self, pos: Pos) -> Link {
        self.pos = pos;
        self
    }
}

/// How the items of an ordered or unordered list are marked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ListKind {
    /// Bullets `*`, `-` or `+` (`<ul>`).
    Unordered,
    /// Bullets made of digits or letters followed by `.` or `)` (`<ol>`).
    Ordered(Numbering),
}

/// The numbering type of an ordered list (the HTML `type` attribute).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Numbering {
    /// Bullets like `1.` or `12)`: `type="1"` (the default).
    Decimal,
    /// Bullets like `a.` or `b)`: `type="a"`.
    LowerAlpha,
    /// Bullets like `A.` or `B)`: `type="A"`.
    UpperAlpha,
}

/// A block-level element.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Block {
    /// A paragraph (`<p>`): a text block surrounded by empty lines, or any
    /// text block at the top level. Keeps its source lines as
    /// [`Inline::LineBreak`]s.
    Paragraph {
        /// The text, with line divisions.
        content: Vec<Inline>,
        /// Where the first line starts.
        #[serde(default, skip_serializing_if = "Pos::is_unknown")]
        pos: Pos,
    },
    /// A bare text block: text inside a list item, blockquote or definition
    /// that is not marked up as a paragraph (no `<p>`).
    Text {
        /// The text, with line divisions.
        content: Vec<Inline>,
        /// Where the first line starts.
        #[serde(default, skip_serializing_if = "Pos::is_unknown")]
        pos: Pos,
    },
    /// Preformatted text (`<pre>`): each line is kept as it is, relative to
    /// the indentation of the first line; empty lines inside are empty vectors.
    Preformatted {
        /// The lines, each examined for inline markup on its own.
        lines: Vec<Vec<Inline>>,
        /// Where the first line starts.
        #[serde(default, skip_serializing_if = "Pos::is_unknown")]
        pos: Pos,
    },
    /// A heading `<h1>` to `<h6>`.
    Heading {
        /// 1 (most important) to 6.
        level: u8,
        /// The title.
        content: Vec<Inline>,
        /// Where the line starts.
        #[serde(default, skip_serializing_if = "Pos::is_unknown")]
        pos: Pos,
    },
    /// A horizontal rule (`<hr>`).
    Rule {
        /// Where the line starts.
        #[serde(default, skip_serializing_if = "Pos::is_unknown")]
        pos: Pos,
    },
    /// A blockquote section (`<blockquote>`); consecutive ones are never merged.
    Blockquote {
        /// The quoted blocks.
        content: Vec<Block>,
        /// Where the `>` is.
        #[serde(default, skip_serializing_if = "Pos::is_unknown")]
        pos: Pos,
    },
    /// An ordered or unordered list (`<ol>`, `<ul>`).
    List {
        /// Unordered, or ordered with its numbering.
        kind: ListKind,
        /// The items, at least one.
        items: Vec<ListItem>,
        /// Where the first bullet is.
        #[serde(default, skip_serializing_if = "Pos::is_unknown")]
        pos: Pos,
    },
    /// A definition list (`<dl>`).
    DefinitionList {
        /// Whether the list is compact (decided by its first item).
        compact: bool,
        /// The items, at least one.
        items: Vec<DefItem>,
        /// Where the first term (or definition) starts.
        #[serde(default, skip_serializing_if = "Pos::is_unknown")]
        pos: Pos,
    },
    /// A table (`<table>`), in a document that declares `#Extend table`:
    /// rows of cells, which may span rows and columns.
    Table {
        /// The caption (`<caption>`), on one line; empty when there is none.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        caption: Vec<Inline>,
        /// The rows, in order.
        rows: Vec<Row>,
        /// Where the first line starts.
        #[serde(default, skip_serializing_if = "Pos::is_unknown")]
        pos: Pos,
    },
    /// A figure (`<figure>`), in a document that declares `#Extend
    /// figure`: an image with its caption, written as a compact definition
    /// item whose term is the image.
    Figure {
        /// The image: one [`Inline::Image`], or one [`Inline::Link`] whose
        /// text is one image ([`grammar::is_figure_image`](crate::grammar::is_figure_image)).
        image: Vec<Inline>,
        /// The caption's blocks (`<figcaption>`), read as a definition is.
        caption: Vec<Block>,
        /// Where the image starts.
        #[serde(default, skip_serializing_if = "Pos::is_unknown")]
        pos: Pos,
    },
}

/// A row of a table (`<tr>`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Row {
    /// The cells that start in this row, left to right (positions covered
    /// by a cell of an earlier row or column are not cells).
    pub cells: Vec<Cell>,
    /// Where the row's line starts.
    #[serde(default, skip_serializing_if = "Pos::is_unknown")]
    pub pos: Pos,
}

impl Row {
    /// A row with an unknown position.
    pub fn new(cells: Vec<Cell>) -> Row {
        Row {
            cells,
            pos: Pos::UNKNOWN,
        }
    }
}

/// A cell of a table (`<td>`, or `<th>` for a header cell).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Cell {
    /// A header cell (`<th>`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub header: bool,
    /// How many columns it spans (at least 1).
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub colspan: u32,
    /// How many rows it spans (at least 1).
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub rowspan: u32,
    /// Its blocks: none for an empty cell, one text block for a cell of
    /// the grid form.
    pub content: Vec<Block>,
    /// Where the cell starts.
    #[serde(default, skip_serializing_if = "Pos::is_unknown")]
    pub pos: Pos,
}

fn one() -> u32 {
    1
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's `skip_serializing_if` passes a reference
fn is_one(n: &u32) -> bool {
    *n == 1
}

impl Cell {
    /// A data cell of one column and row holding `content`, with an
    /// unknown position.
    pub fn new(content: Vec<Block>) -> Cell {
        Cell {
            header: false,
            colspan: 1,
            rowspan: 1,
            content,
            pos: Pos::UNKNOWN,
        }
    }

    /// A data cell holding one line of text (none when `run` is empty).
    pub fn text(run: Vec<Inline>) -> Cell {
        Cell::new(if run.is_empty() {
            Vec::new()
        } else {
            vec![Block::text(run)]
        })
    }

    /// The same cell as a header cell.
    #[must_use]
    pub fn header(mut self) -> Cell {
        self.header = true;
        self
    }

    /// The same cell spanning `colspan` columns and `rowspan` rows.
    #[must_use]
    pub fn span(mut self, colspan: u32, rowspan: u32) -> Cell {
        self.colspan = colspan;
        self.rowspan = rowspan;
        self
    }
}

/// An item of an ordered or unordered list (`<li>`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ListItem {
    /// The blocks of the item (usually one [`Block::Text`]).
    pub content: Vec<Block>,
    /// Where the bullet is.
    #[serde(default, skip_serializing_if = "Pos::is_unknown")]
    pub pos: Pos,
}

impl ListItem {
    /// An item with an unknown position.
    pub fn new(content: Vec<Block>) -> ListItem {
        ListItem {
            content,
            pos: Pos::UNKNOWN,
        }
    }

    /// The same item at `pos`.
    pub fn at(mut self, pos: Pos) -> ListItem {
        self.pos = pos;
        self
    }
}

/// An item of a definition list: its terms (`<dt>`) and one definition (`<dd>`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct DefItem {
    /// The terms; empty `::` terms are left out, so an item without terms is
    /// just an indented block.
    pub terms: Vec<Term>,
    /// The blocks of the definition (empty when a term has no definition).
    pub definition: Vec<Block>,
    /// Where the first term (or the definition) starts.
    #[serde(default, skip_serializing_if = "Pos::is_unknown")]
    pub pos: Pos,
}

impl DefItem {
    /// An item with an unknown position.
    pub fn new(terms: Vec<Term>, definition: Vec<Block>) -> DefItem {
        DefItem {
            terms,
            definition,
            pos: Pos::UNKNOWN,
        }
    }

    /// The same item at `pos`.
    pub fn at(mut self, pos: Pos) -> DefItem {
        self.pos = pos;
        self
    }
}

/// A definition term (`<dt>`); a term may span several lines.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Term {
    /// The term, with line divisions; never empty.
    pub content: Vec<Inline>,
    /// Where the term starts.
    #[serde(default, skip_serializing_if = "Pos::is_unknown")]
    pub pos: Pos,
}

impl Term {
    /// A term with an unknown position.
    pub fn new(content: Vec<Inline>) -> Term {
        Term {
            content,
            pos: Pos::UNKNOWN,
        }
    }

    /// The same term at `pos`.
    pub fn at(mut self, pos: Pos) -> Term {
        self.pos = pos;
        self
    }
}

/// An inline (character-level) element.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Inline {
    /// Plain text (never empty, never containing a line feed).
    Text {
        /// The characters.
        text: String,
        /// Where the text starts.
        #[serde(default, skip_serializing_if = "Pos::is_unknown")]
        pos: Pos,
    },
    /// A line division: the end of one source line of a paragraph, text block,
    /// term or heading and the start of the next.
    LineBreak {
        /// Where the line ended.
        #[serde(default, skip_serializing_if = "Pos::is_unknown")]
        pos: Pos,
    },
    /// A forced line break (`<br />`), in a document that declares
    /// `#Extend break`: a new line a browser shows, written `<br>`. It is
    /// inline content, not white space; a line division may follow it.
    HardBreak {
        /// Where the `<` is.
        #[serde(default, skip_serializing_if = "Pos::is_unknown")]
        pos: Pos,
    },
    /// `^{superscript}` (`<sup>`), in a document that declares
    /// `#Extend subsup`.
    Superscript {
        /// The raised inlines.
        content: Vec<Inline>,
        /// Where the `^` is.
        #[serde(default, skip_serializing_if = "Pos::is_unknown")]
        pos: Pos,
    },
    /// `~{subscript}` (`<sub>`), in a document that declares
    /// `#Extend subsup`.
    Subscript {
        /// The lowered inlines.
        content: Vec<Inline>,
        /// Where the `~` is.
        #[serde(default, skip_serializing_if = "Pos::is_unknown")]
        pos: Pos,
    },
    /// `_emphasis_` (`<em>`).
    Emphasis {
        /// The emphasized inlines.
        content: Vec<Inline>,
        /// Where the `_` is.
        #[serde(default, skip_serializing_if = "Pos::is_unknown")]
        pos: Pos,
    },
    /// `*strong emphasis*` (`<strong>`).
    Strong {
        /// The strongly emphasized inlines.
        content: Vec<Inline>,
        /// Where the `*` is.
        #[serde(default, skip_serializing_if = "Pos::is_unknown")]
        pos: Pos,
    },
    /// `'sample text'` (`<code>`).
    Code {
        /// The sample text inlines.
        content: Vec<Inline>,
        /// Where the `'` is.
        #[serde(default, skip_serializing_if = "Pos::is_unknown")]
        pos: Pos,
    },
    /// `[URL|Fragment|Link text]`: a hyperlink (`href`), an anchor (`name`), or both.
    Link {
        /// The `href` (non-empty, no white space, none of `{}[|]<>"`).
        url: Option<String>,
        /// The anchor name (same restrictions as the URL).
        fragment: Option<String>,
        /// The link text (an empty link text in the source is replaced by the
        /// URL, or the fragment when there is no URL).
        content: Vec<Inline>,
        /// Where the `[` is.
        #[serde(default, skip_serializing_if = "Pos::is_unknown")]
        pos: Pos,
    },
    /// `![SRC||ALT]{WxH "title"}`: an image (`<img>`), in a document that
    /// declares `#Extend image`. The braces are left out when there is no
    /// size and no title.
    Image {
        /// The `src` (non-empty, same restrictions as a link's URL).
        src: String,
        /// The alternative text, read as a link text is (no links, no
        /// images, no e-mail addresses in it). Empty: the image is
        /// decoration (`alt=""`).
        alt: Vec<Inline>,
        /// The `title`, on one line.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        title: Option<String>,
        /// The `width` in pixels.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        width: Option<u32>,
        /// The `height` in pixels.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        height: Option<u32>,
        /// Where the `!` is.
        #[serde(default, skip_serializing_if = "Pos::is_unknown")]
        pos: Pos,
    },
    /// `<localpart@domain>`: an e-mail address (`<a href="mailto:...">`).
    Email {
        /// The address, `localpart@domain`.
        address: String,
        /// Where the `<` is.
        #[serde(default, skip_serializing_if = "Pos::is_unknown")]
        pos: Pos,
    },
}

impl Inline {
    /// Plain text with an unknown position.
    pub fn text(text: impl Into<String>) -> Inline {
        Inline::Text {
            text: text.into(),
            pos: Pos::UNKNOWN,
        }
    }

    /// A line division with an unknown position.
    pub fn line_break() -> Inline {
        Inline::LineBreak { pos: Pos::UNKNOWN }
    }

    /// A forced line break with an unknown position.
    pub fn hard_break() -> Inline {
        Inline::HardBreak { pos: Pos::UNKNOWN }
    }

    /// A superscript with an unknown position.
    pub fn superscript(content: Vec<Inline>) -> Inline {
        Inline::Superscript {
            content,
            pos: Pos::UNKNOWN,
        }
    }

    /// A subscript with an unknown position.
    pub fn subscript(content: Vec<Inline>) -> Inline {
        Inline::Subscript {
            content,
            pos: Pos::UNKNOWN,
        }
    }

    /// Emphasis with an unknown position.
    pub fn emphasis(content: Vec<Inline>) -> Inline {
        Inline::Emphasis {
            content,
            pos: Pos::UNKNOWN,
        }
    }

    /// Strong emphasis with an unknown position.
    pub fn strong(content: Vec<Inline>) -> Inline {
        Inline::Strong {
            content,
            pos: Pos::UNKNOWN,
        }
    }

    /// Sample text (code) with an unknown position.
    pub fn code(content: Vec<Inline>) -> Inline {
        Inline::Code {
            content,
            pos: Pos::UNKNOWN,
        }
    }

    /// A link or anchor with an unknown position. Empty strings are taken as absent.
    pub fn link(url: Option<String>, fragment: Option<String>, content: Vec<Inline>) -> Inline {
        Inline::Link {
            url: url.filter(|u| !u.is_empty()),
            fragment: fragment.filter(|f| !f.is_empty()),
            content,
            pos: Pos::UNKNOWN,
        }
    }

    /// An image with an unknown position, no title and no size.
    pub fn image(src: impl Into<String>, alt: Vec<Inline>) -> Inline {
        Inline::Image {
            src: src.into(),
            alt,
            title: None,
            width: None,
            height: None,
            pos: Pos::UNKNOWN,
        }
    }

    /// An e-mail address with an unknown position.
    pub fn email(address: impl Into<String>) -> Inline {
        Inline::Email {
            address: address.into(),
            pos: Pos::UNKNOWN,
        }
    }

    /// Where the inline starts.
    pub fn pos(&self) -> Pos {
        match self {
            Inline::Text { pos, .. }
            | Inline::LineBreak { pos }
            | Inline::HardBreak { pos }
            | Inline::Superscript { pos, .. }
            | Inline::Subscript { pos, .. }
            | Inline::Emphasis { pos, .. }
            | Inline::Strong { pos, .. }
            | Inline::Code { pos, .. }
            | Inline::Link { pos, .. }
            | Inline::Image { pos, .. }
            | Inline::Email { pos, .. } => *pos,
        }
    }

    /// The same inline at `pos`.
    pub fn at(mut self, new: Pos) -> Inline {
        match &mut self {
            Inline::Text { pos, .. }
            | Inline::LineBreak { pos }
            | Inline::HardBreak { pos }
            | Inline::Superscript { pos, .. }
            | Inline::Subscript { pos, .. }
            | Inline::Emphasis { pos, .. }
            | Inline::Strong { pos, .. }
            | Inline::Code { pos, .. }
            | Inline::Link { pos, .. }
            | Inline::Image { pos, .. }
            | Inline::Email { pos, .. } => *pos = new,
        }
        self
    }

    /// The children of a container inline (emphasis, strong, code, link;
    /// an image's alternative text), if any.
    pub fn children(&self) -> Option<&Vec<Inline>> {
        match self {
            Inline::Emphasis { content, .. }
            | Inline::Superscript { content, .. }
            | Inline::Subscript { content, .. }
            | Inline::Strong { content, .. }
            | Inline::Code { content, .. }
            | Inline::Link { content, .. }
            | Inline::Image { alt: content, .. } => Some(content),
            Inline::Text { .. }
            | Inline::LineBreak { .. }
            | Inline::HardBreak { .. }
            | Inline::Email { .. } => None,
        }
    }

    /// The same element without its children (empty content, or an empty
    /// alternative text for an image); `None` for text, line divisions and
    /// e-mail addresses. Copies that must not recurse over the children
    /// start from it.
    pub fn without_children(&self) -> Option<Inline> {
        Some(match self {
            Inline::Emphasis { pos, .. } => Inline::Emphasis {
                content: Vec::new(),
                pos: *pos,
            },
            Inline::Strong { pos, .. } => Inline::Strong {
                content: Vec::new(),
                pos: *pos,
            },
            Inline::Superscript { pos, .. } => Inline::Superscript {
                content: Vec::new(),
                pos: *pos,
            },
            Inline::Subscript { pos, .. } => Inline::Subscript {
                content: Vec::new(),
                pos: *pos,
            },
            Inline::Code { pos, .. } => Inline::Code {
                content: Vec::new(),
                pos: *pos,
            },
            Inline::Link {
                url, fragment, pos, ..
            } => Inline::Link {
                url: url.clone(),
                fragment: fragment.clone(),
                content: Vec::new(),
                pos: *pos,
            },
            Inline::Image {
                src,
                title,
                width,
                height,
                pos,
                ..
            } => Inline::Image {
                src: src.clone(),
                alt: Vec::new(),
                title: title.clone(),
                width: *width,
                height: *height,
                pos: *pos,
            },
            Inline::Text { .. }
            | Inline::LineBreak { .. }
            | Inline::HardBreak { .. }
            | Inline::Email { .. } => return None,
        })
    }

    /// The content of an element, to change it; `None` for text, line
    /// divisions and e-mail addresses.
    pub fn children_mut(&mut self) -> Option<&mut Vec<Inline>> {
        match self {
            Inline::Emphasis { content, .. }
            | Inline::Superscript { content, .. }
            | Inline::Subscript { content, .. }
            | Inline::Strong { content, .. }
            | Inline::Code { content, .. }
            | Inline::Link { content, .. }
            | Inline::Image { alt: content, .. } => Some(content),
            Inline::Text { .. }
            | Inline::LineBreak { .. }
            | Inline::HardBreak { .. }
            | Inline::Email { .. } => None,
        }
    }
}

/// Appends `text` to an inline run, merging it into a preceding text node so
/// that the run keeps the model's invariant (no empty or adjacent text nodes).
/// Line feeds in `text` become [`Inline::LineBreak`]s.
pub fn push_text(run: &mut Vec<Inline>, text: &str, pos: Pos) {
    let mut first = true;
    for piece in text.split('\n') {
        if !first {
            run.push(Inline::LineBreak { pos: Pos::UNKNOWN });
        }
        first = false;
        if piece.is_empty() {
            continue;
        }
        if let Some(Inline::Text { text: last, .. }) = run.last_mut() {
            last.push_str(piece);
        } else {
            run.push(Inline::Text {
                text: piece.to_owned(),
                pos,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equality_ignores_positions() {
        let a = Block::paragraph(vec![Inline::text("x").at(Pos::new(3, 1))]).at(Pos::new(3, 1));
        let b = Block::paragraph(vec![Inline::text("x")]);
        assert_eq!(a, b);
        assert_ne!(a, Block::text(vec![Inline::text("x")]));
        assert!(!Pos::new(3, 1).same_place(&Pos::UNKNOWN));
    }

    #[test]
    fn push_text_merges_and_splits_lines() {
        let mut run = Vec::new();
        push_text(&mut run, "a", Pos::UNKNOWN);
        push_text(&mut run, "b\nc", Pos::UNKNOWN);
        assert_eq!(
            run,
            vec![Inline::text("ab"), Inline::line_break(), Inline::text("c")]
        );
    }

    #[test]
    fn serde_round_trip_keeps_content() {
        let doc = Document::new(
            Metadata {
                title: Some("T".into()),
                lang: Some("en".into()),
                metas: vec![Meta::new("description", "d")],
                links: vec![Link::new(vec!["stylesheet".into()], "a.css", None)],
                escape: true,
                open: true,
                image: true,
                table: true,
                breaks: true,
                subsup: true,
                figure: true,
            },
            vec![
                Block::heading(1, vec![Inline::text("H")]),
                Block::list(
                    ListKind::Ordered(Numbering::LowerAlpha),
                    vec![ListItem::new(vec![Block::text(vec![Inline::link(
                        Some("u".into()),
                        None,
                        vec![Inline::text("t")],
                    )])])],
                ),
            ],
        );
        let json = serde_json::to_string(&doc).unwrap();
        let back: Document = serde_json::from_str(&json).unwrap();
        assert_eq!(back, doc);
        assert!(json.contains(r#""type":"heading""#), "{json}");
        assert!(json.contains(r#"{"ordered":"lower_alpha"}"#), "{json}");
    }
}
