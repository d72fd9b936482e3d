//! The constructors and accessors of [`Block`]: one per kind of block,
//! with an unknown position, and where a block starts.

use super::{Block, DefItem, Inline, ListItem, ListKind, Pos, Row};

impl Block {
    /// A paragraph with an unknown position.
    pub fn paragraph(content: Vec<Inline>) -> Block {
        Block::Paragraph {
            content,
            pos: Pos::UNKNOWN,
        }
    }

    /// A bare text block with an unknown position.
    pub fn text(content: Vec<Inline>) -> Block {
        Block::Text {
            content,
            pos: Pos::UNKNOWN,
        }
    }

    /// Preformatted text with an unknown position.
    pub fn preformatted(lines: Vec<Vec<Inline>>) -> Block {
        Block::Preformatted {
            lines,
            pos: Pos::UNKNOWN,
        }
    }

    /// A heading with an unknown position.
    pub fn heading(level: u8, content: Vec<Inline>) -> Block {
        Block::Heading {
            level,
            content,
            pos: Pos::UNKNOWN,
        }
    }

    /// A horizontal rule with an unknown position.
    pub fn rule() -> Block {
        Block::Rule { pos: Pos::UNKNOWN }
    }

    /// A blockquote section with an unknown position.
    pub fn blockquote(content: Vec<Block>) -> Block {
        Block::Blockquote {
            content,
            pos: Pos::UNKNOWN,
        }
    }

    /// A list with an unknown position.
    pub fn list(kind: ListKind, items: Vec<ListItem>) -> Block {
        Block::List {
            kind,
            items,
            pos: Pos::UNKNOWN,
        }
    }

    /// A table without caption, with an unknown position.
    pub fn table(rows: Vec<Row>) -> Block {
        Block::Table {
            caption: Vec::new(),
            rows,
            pos: Pos::UNKNOWN,
        }
    }

    /// A definition list with an unknown position.
    pub fn definition_list(compact: bool, items: Vec<DefItem>) -> Block {
        Block::DefinitionList {
            compact,
            items,
            pos: Pos::UNKNOWN,
        }
    }

    /// A figure with an unknown position.
    pub fn figure(image: Vec<Inline>, caption: Vec<Block>) -> Block {
        Block::Figure {
            image,
            caption,
            pos: Pos::UNKNOWN,
        }
    }

    /// Where the block starts.
    pub fn pos(&self) -> Pos {
        match self {
            Block::Paragraph { pos, .. }
            | Block::Text { pos, .. }
            | Block::Preformatted { pos, .. }
            | Block::Heading { pos, .. }
            | Block::Rule { pos }
            | Block::Blockquote { pos, .. }
            | Block::List { pos, .. }
            | Block::DefinitionList { pos, .. }
            | Block::Table { pos, .. }
            | Block::Figure { pos, .. } => *pos,
        }
    }

    /// The same block at `pos`.
    pub fn at(mut self, new: Pos) -> Block {
        match &mut self {
            Block::Paragraph { pos, .. }
            | Block::Text { pos, .. }
            | Block::Preformatted { pos, .. }
            | Block::Heading { pos, .. }
            | Block::Rule { pos }
            | Block::Blockquote { pos, .. }
            | Block::List { pos, .. }
            | Block::DefinitionList { pos, .. }
            | Block::Table { pos, .. }
            | Block::Figure { pos, .. } => *pos = new,
        }
        self
    }

    /// A short lowercase name of the kind of block (`"paragraph"`, `"list"`, ...).
    pub fn kind_name(&self) -> &'static str {
        match self {
            Block::Paragraph { .. } => "paragraph",
            Block::Text { .. } => "text block",
            Block::Preformatted { .. } => "preformatted text",
            Block::Heading { .. } => "heading",
            Block::Rule { .. } => "rule",
            Block::Blockquote { .. } => "blockquote",
            Block::List { .. } => "list",
            Block::DefinitionList { .. } => "definition list",
            Block::Table { .. } => "table",
            Block::Figure { .. } => "figure",
        }
    }
}
