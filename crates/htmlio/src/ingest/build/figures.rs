//! Figures (`docs/format.md`, "Figures"): a `<figure>` whose content is
//! one image (or one linked image) and whose `<figcaption>` holds text
//! becomes a [`Block::Figure`]. Anything else in a figure stays what it
//! was, blocks in the page's order. XHTML 1.0 has no figure, so the
//! emitter writes `<div class="figure">` and `<div class="caption">`;
//! those read back as the figure too.

use wikitext::{Block, Inline};

use super::frames::{Frame, FrameKind, Level};
use super::{Builder, Exit};
use crate::ingest::sink::{Element, NodeId};

/// Whether the element opens a figure: `<figure>`, or the `<div
/// class="figure">` that stands for one in XHTML 1.0.
pub(super) fn is_figure(e: &Element) -> bool {
    match &*e.name.local {
        "figure" => true,
        "div" => has_class(e, "figure"),
        _ => false,
    }
}

/// Whether the element is a figure's caption: `<figcaption>`, or `<div
/// class="caption">` (in a figure: the caller checks).
pub(super) fn is_caption(e: &Element) -> bool {
    match &*e.name.local {
        "figcaption" => true,
        "div" => has_class(e, "caption"),
        _ => false,
    }
}

fn has_class(e: &Element, class: &str) -> bool {
    e.attr("class")
        .is_some_and(|v| v.split_ascii_whitespace().any(|c| c == class))
}

/// The image of a figure's blocks: exactly one text block or paragraph
/// that holds nothing but one image, or one link around one (white space
/// around it aside).
fn lone_image(blocks: &mut Vec<Block>) -> Option<Vec<Inline>> {
    let [Block::Paragraph { content, .. } | Block::Text { content, .. }] = blocks.as_mut_slice()
    else {
        return None;
    };
    let blank = |node: &Inline| match node {
        Inline::Text { text, .. } => text.trim().is_empty(),
        Inline::LineBreak { .. } | Inline::HardBreak { .. } => true,
        _ => false,
    };
    let run: Vec<Inline> = std::mem::take(content)
        .into_iter()
        .filter(|n| !blank(n))
        .collect();
    if wikitext::grammar::is_figure_image(&run) {
        Some(run)
    } else {
        *content = run;
        None
    }
}

impl Builder<'_> {
    /// A figure, or its caption, starts. Returns whether the element was
    /// one of them (its frame is opened, or its block begun).
    pub(super) fn figure_element(
        &mut self,
        id: NodeId,
        e: &Element,
        line: u32,
        exit: &mut Exit,
    ) -> bool {
        if is_caption(e) && matches!(self.top_kind(), Some(FrameKind::Figure { .. })) {
            self.block_boundary();
            let empty = self.frames.last().is_some_and(|f| f.blocks.is_empty());
            if let Some(Frame {
                kind: FrameKind::Figure { caption_first, .. },
                ..
            }) = self.frames.last_mut()
            {
                *caption_first |= empty;
            }
            exit.frame = Some(self.open_frame(FrameKind::FigureCaption, id, Level::Deeper, line));
            return true;
        }
        if is_figure(e) {
            self.open_container(id, line, "a figure", Level::Same, exit, |_| {
                FrameKind::Figure {
                    caption: None,
                    caption_first: false,
                }
            });
            return true;
        }
        false
    }

    /// A caption's frame closes: its blocks are the figure's caption (a
    /// second caption's blocks are the figure's content).
    pub(super) fn close_caption(&mut self, frame: Frame) {
        if let Some(Frame {
            kind: FrameKind::Figure { caption, .. },
            ..
        }) = self.frames.last_mut()
            && caption.is_none()
        {
            *caption = Some(frame.blocks);
            return;
        }
        self.deliver(frame.blocks);
    }

    /// A figure's frame closes: a figure when it holds one image and a
    /// caption with text, else its blocks and its caption's, in the
    /// page's order.
    pub(super) fn close_figure(&mut self, frame: Frame) {
        let FrameKind::Figure {
            caption,
            caption_first,
        } = frame.kind
        else {
            return;
        };
        let mut blocks = frame.blocks;
        let caption = caption.unwrap_or_default();
        if !caption.is_empty()
            && let Some(image) = lone_image(&mut blocks)
        {
            let pos = image.first().map_or(frame.pos, Inline::pos);
            self.deliver(vec![Block::Figure {
                image,
                caption,
                pos,
            }]);
            return;
        }
        if caption_first {
            self.deliver(caption);
            self.deliver(blocks);
        } else {
            self.deliver(blocks);
            self.deliver(caption);
        }
    }
}
