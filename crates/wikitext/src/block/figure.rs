//! Figures (`docs/format.md`, "Figures"): in a document that declares
//! `#Extend figure`, a compact definition item whose only term is a lone
//! image is written as a figure, its definition as the caption.

use super::{Item, Leaf};
use crate::events::Tag;
use crate::inline::{Mode, Places, Syntax, parse_inlines};
use crate::model::Pos;

/// Whether a compact term is a lone image (or a link around one), read
/// with `syntax` when the document declares figures (`None` otherwise).
pub(super) fn is_lone_image(term: &str, syntax: Option<Syntax>) -> bool {
    let Some(syntax) = syntax else {
        return false;
    };
    // Only an image or a link can be one: most terms are not read twice.
    if !(term.starts_with("![") || term.starts_with('[')) {
        return false;
    }
    let run = parse_inlines(term, Places::Unknown, Mode::Normal, syntax);
    crate::grammar::is_figure_image(&run)
}

/// Writes the start of a figure: the image (its one term, as the
/// figure's own run), then the caption's start.
pub(super) fn start(items: &mut Vec<Item>, mut terms: Vec<Item>, pos: Pos) {
    items.push(Item::Start(Tag::Figure, pos));
    if let Some(Item::Leaf { leaf, .. }) = terms.first_mut() {
        *leaf = Leaf::FigureImage;
    }
    items.extend(terms);
    items.push(Item::Start(Tag::FigureCaption, Pos::UNKNOWN));
}

/// Writes the end of a figure; a caption that got no block is none.
pub(super) fn end(items: &mut Vec<Item>) {
    if items.last() == Some(&Item::Start(Tag::FigureCaption, Pos::UNKNOWN)) {
        items.pop();
    } else {
        items.push(Item::End(Tag::FigureCaption));
    }
    items.push(Item::End(Tag::Figure));
}
