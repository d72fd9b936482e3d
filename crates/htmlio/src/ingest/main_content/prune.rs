//! Boilerplate inside the article: one walk from the article's block that
//! drops the parts whose markup says they are boilerplate and the blocks
//! that are mostly links, without going into what it drops.

use crate::ingest::sink::{Arena, NodeId, Visit};
use crate::ingest::tags::Tag;

use super::{Drops, Kind};

/// The share of the article's text a part may hold and still be dropped
/// for what its markup says: a "comments" class around most of the text is
/// more likely the article's wrapper than its comments.
const MOST_OF_ARTICLE: f32 = 0.5;

/// The share of a block's text inside links from which it is a list of
/// links (trafilatura and Readability test link density the same way;
/// the figure is ours).
const LINK_LIST: f32 = 0.5;

/// The share of a paragraph's text inside links from which it is a link,
/// not prose: "Also on our site: ...", "Read more: ...", a teaser's
/// headline (a paragraph is prose with links in it up to here).
const LINK_PARAGRAPH: f32 = 0.8;

/// The walk.
struct Pruner<'d, 'm> {
    drops: &'d mut Drops<'m>,
    arena: &'d Arena,
    root_text: u32,
}

/// Drops the boilerplate inside `root`.
pub(super) fn prune(arena: &Arena, drops: &mut Drops<'_>, root: NodeId) {
    let root_text = drops.m.get(root).text;
    let mut pruner = Pruner {
        drops,
        arena,
        root_text,
    };
    arena.walk(root, &mut pruner);
}

/// Whether a block of this tag can be a list of links (a paragraph or a
/// heading with a link in it is prose, not a list).
fn can_be_link_list(tag: Tag) -> bool {
    matches!(
        tag,
        Tag::Block
            | Tag::UnorderedList
            | Tag::OrderedList
            | Tag::DefinitionList
            | Tag::Table
            | Tag::ListItem
    )
}

impl Pruner<'_, '_> {
    /// Why `id` is dropped, if it is.
    fn verdict(&self, id: NodeId, tag: Tag) -> Option<Kind> {
        let own = self.drops.m.get(id);
        if let Some(kind) = own.signal.kind {
            if kind == Kind::Hidden {
                return Some(kind);
            }
            if (own.text as f32) <= MOST_OF_ARTICLE * self.root_text as f32 {
                return Some(kind);
            }
        }
        if can_be_link_list(tag) && own.text > 0 && own.link_density() >= LINK_LIST {
            return Some(Kind::LinkList);
        }
        if tag == Tag::Paragraph && own.text > 0 && own.link_density() >= LINK_PARAGRAPH {
            return Some(Kind::LinkList);
        }
        None
    }
}

impl Visit for Pruner<'_, '_> {
    fn enter(&mut self, id: NodeId) -> bool {
        // Text is kept with its block; only elements are judged.
        let Some(e) = self.arena.element(id) else {
            return false;
        };
        if let Some(kind) = self.verdict(id, e.tag) {
            self.drops.drop_part(id, kind);
            return false;
        }
        !e.tag.drops_text()
    }

    fn exit(&mut self, _id: NodeId) {}
}
