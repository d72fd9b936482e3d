//! One walk over the arena, without recursion, that measures what the
//! selection weighs: each node's text (characters other than white
//! space), the part of it inside links, its commas, where it starts in the
//! page's text, what its markup says ([`signals`]), and the blocks that
//! read as paragraphs.

use crate::ingest::sink::{Arena, DOCUMENT, Data, NONE, NodeId, Visit};
use crate::ingest::tags::Tag;

use super::signals::{self, Signal};

/// What the walk found for one node.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Measure {
    /// Characters of text inside, white space not counted.
    pub(crate) text: u32,
    /// Of those, the characters inside links.
    pub(crate) link: u32,
    /// Commas inside.
    pub(crate) commas: u32,
    /// Characters of the page's text before the node starts.
    pub(crate) start: u32,
    /// Characters of text whose nearest block is this node (its own lines,
    /// not those of blocks inside it).
    pub(crate) inline: u32,
    /// What the node's markup says.
    pub(crate) signal: Signal,
}

impl Measure {
    /// The share of the text inside links, 0 to 1.
    pub(crate) fn link_density(&self) -> f32 {
        if self.text == 0 {
            0.0
        } else {
            self.link as f32 / self.text as f32
        }
    }
}

/// A block that reads as a paragraph: its own lines hold text.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Paragraph {
    /// The block.
    pub(crate) id: NodeId,
    /// The nearest ancestor whose markup certainly says boilerplate, or
    /// [`NONE`].
    pub(crate) boiler: NodeId,
}

/// The measures of a whole page.
#[derive(Debug, Default)]
pub(crate) struct Measures {
    /// One per node of the arena.
    pub(crate) nodes: Vec<Measure>,
    /// The body, [`NONE`] when the page has none.
    pub(crate) body: NodeId,
    /// The blocks that read as paragraphs, in document order.
    pub(crate) paragraphs: Vec<Paragraph>,
    /// The headings of level 1 and 2, in document order.
    pub(crate) headings: Vec<(NodeId, u8)>,
}

impl Measures {
    /// The measure of `id` (a default one for an id out of range).
    pub(crate) fn get(&self, id: NodeId) -> Measure {
        self.nodes.get(id as usize).copied().unwrap_or_default()
    }
}

/// One open element of the walk.
struct Open {
    id: NodeId,
    /// The nearest block at or above it.
    block: NodeId,
    /// The nearest certain boilerplate at or above it.
    boiler: NodeId,
}

/// The walk's state.
struct Walker<'a> {
    arena: &'a Arena,
    out: Measures,
    open: Vec<Open>,
    /// Characters of text so far.
    seen: u32,
    buf: String,
}

/// Measures `arena`'s body in one walk.
pub(crate) fn measure(arena: &Arena) -> Measures {
    let mut walker = Walker {
        arena,
        out: Measures {
            nodes: vec![Measure::default(); arena.nodes.len()],
            body: NONE,
            paragraphs: Vec::new(),
            headings: Vec::new(),
        },
        open: Vec::new(),
        seen: 0,
        buf: String::new(),
    };
    arena.walk(DOCUMENT, &mut walker);
    walker.out
}

/// Whether an element of this tag holds lines of its own (a block): text
/// inside it belongs to it unless a block inside holds it.
fn is_block(tag: Tag) -> bool {
    matches!(
        tag,
        Tag::Body
            | Tag::Block
            | Tag::Paragraph
            | Tag::Heading(_)
            | Tag::Pre
            | Tag::Blockquote
            | Tag::UnorderedList
            | Tag::OrderedList
            | Tag::ListItem
            | Tag::DefinitionList
            | Tag::Term
            | Tag::Definition
            | Tag::Table
            | Tag::Caption
            | Tag::RowGroup
            | Tag::Row
            | Tag::Cell
            | Tag::HeaderCell
            | Tag::Frameset
    )
}

/// Characters of `text` other than ASCII white space (counted on bytes:
/// each byte that starts a character), and its commas (`,`, and the
/// ideographic `、` and fullwidth `，`).
fn count(text: &str) -> (u32, u32) {
    let bytes = text.as_bytes();
    let mut chars = 0u32;
    let mut commas = 0u32;
    for (i, &b) in bytes.iter().enumerate() {
        if b & 0xc0 != 0x80 && !b.is_ascii_whitespace() {
            chars = chars.saturating_add(1);
        }
        let comma = b == b','
            || (b == 0xe3 && bytes.get(i + 1) == Some(&0x80) && bytes.get(i + 2) == Some(&0x81))
            || (b == 0xef && bytes.get(i + 1) == Some(&0xbc) && bytes.get(i + 2) == Some(&0x8c));
        if comma {
            commas = commas.saturating_add(1);
        }
    }
    (chars, commas)
}

impl Walker<'_> {
    fn node_mut(&mut self, id: NodeId) -> Option<&mut Measure> {
        self.out.nodes.get_mut(id as usize)
    }
}

impl Visit for Walker<'_> {
    fn enter(&mut self, id: NodeId) -> bool {
        let arena = self.arena;
        let Some(node) = arena.node(id) else {
            return false;
        };
        match &node.data {
            Data::Text(t) => {
                let (chars, commas) = count(t);
                let block = self.open.last().map_or(NONE, |o| o.block);
                let seen = self.seen;
                if let Some(m) = self.node_mut(id) {
                    m.text = chars;
                    m.commas = commas;
                    m.start = seen;
                }
                if let Some(m) = self.node_mut(block) {
                    m.inline = m.inline.saturating_add(chars);
                }
                // Into the parent at once: a text node is never exited.
                if let Some(m) = self.node_mut(node.parent) {
                    m.text = m.text.saturating_add(chars);
                    m.commas = m.commas.saturating_add(commas);
                }
                self.seen = self.seen.saturating_add(chars);
                false
            }
            Data::Element(e) => {
                let tag = e.tag;
                if matches!(
                    tag,
                    Tag::Head
                        | Tag::Title
                        | Tag::Ballast
                        | Tag::Nothing
                        | Tag::Svg
                        | Tag::Annotation
                        | Tag::Media
                ) {
                    return false;
                }
                if tag == Tag::Body && self.out.body == NONE {
                    self.out.body = id;
                }
                let signal = signals::signal(e, tag, &mut self.buf);
                let seen = self.seen;
                if let Some(m) = self.node_mut(id) {
                    m.signal = signal;
                    m.start = seen;
                }
                let above = self.open.last();
                let block = if is_block(tag) {
                    id
                } else {
                    above.map_or(NONE, |o| o.block)
                };
                let boiler = if signal.strong {
                    id
                } else {
                    above.map_or(NONE, |o| o.boiler)
                };
                if let Tag::Heading(level @ (1 | 2)) = tag {
                    self.out.headings.push((id, level));
                }
                self.open.push(Open { id, block, boiler });
                true
            }
            Data::Document | Data::Discard => false,
        }
    }

    fn exit(&mut self, id: NodeId) {
        let Some(open) = self.open.pop() else { return };
        debug_assert_eq!(open.id, id);
        let arena = self.arena;
        let Some(node) = arena.node(id) else { return };
        let Some(e) = arena.element(id) else { return };
        let mut m = self.out.nodes.get(id as usize).copied().unwrap_or_default();
        if e.tag == Tag::Anchor && e.attr("href").is_some() {
            m.link = m.text;
            if let Some(own) = self.node_mut(id) {
                own.link = m.text;
            }
        }
        // The paragraphs of Readability's scoring: blocks with lines of
        // their own, 25 characters or more (shorter ones say too little).
        if m.inline >= 25
            && matches!(
                e.tag,
                Tag::Paragraph
                    | Tag::Pre
                    | Tag::Cell
                    | Tag::Block
                    | Tag::Blockquote
                    | Tag::Definition
            )
        {
            self.out.paragraphs.push(Paragraph {
                id,
                boiler: open.boiler,
            });
        }
        if let Some(parent) = self.node_mut(node.parent) {
            parent.text = parent.text.saturating_add(m.text);
            parent.link = parent.link.saturating_add(m.link);
            parent.commas = parent.commas.saturating_add(m.commas);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::count;

    #[test]
    fn characters_and_commas_are_counted_on_bytes() {
        assert_eq!(count(" a, b\n"), (3, 1));
        assert_eq!(count("é ü、x，"), (5, 2));
        assert_eq!(count(""), (0, 0));
    }
}
