//! Figures (`docs/format.md`, "Figures"): a `<figure>` that holds one
//! image (or one linked image) in running text and a `<figcaption>` with
//! text becomes a [`Block::Figure`]; the rest of its content joins the
//! caption. Any other figure stays what it was, blocks in the page's
//! order. XHTML 1.0 has no figure, so the
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

/// How many images blocks hold, at any depth (alternative texts and link
/// texts included).
fn count_images(blocks: &[Block]) -> usize {
    let mut n = 0;
    for run in wikitext::runs(blocks) {
        let mut stack: Vec<&[Inline]> = vec![run];
        while let Some(run) = stack.pop() {
            for node in run {
                if matches!(node, Inline::Image { .. }) {
                    n += 1;
                }
                if let Some(children) = node.children() {
                    stack.push(children);
                }
            }
        }
    }
    n
}

/// Takes a figure's image out of its blocks: the one image of the
/// figure, standing in the run of a paragraph or text block at its top
/// (alone, or as a link's whole text). What else that run holds stays a
/// text block. `None`, and the blocks untouched, when the figure holds no
/// image or more than one, or its image stands elsewhere (in a list, say).
/// Also gives the index of the block that went with the image, if one did.
fn take_image(blocks: &mut Vec<Block>) -> Option<(Vec<Inline>, Option<usize>)> {
    if count_images(blocks) != 1 {
        return None;
    }
    let (b, i) = blocks
        .iter()
        .enumerate()
        .find_map(|(b, block)| match block {
            Block::Paragraph { content, .. } | Block::Text { content, .. } => content
                .iter()
                .position(|node| wikitext::grammar::is_figure_image(std::slice::from_ref(node)))
                .map(|i| (b, i)),
            _ => None,
        })?;
    let (Block::Paragraph { content, .. } | Block::Text { content, .. }) = blocks.get_mut(b)?
    else {
        return None;
    };
    let image = content.remove(i);
    let blank = |node: &Inline| match node {
        Inline::Text { text, .. } => text.trim().is_empty(),
        Inline::LineBreak { .. } | Inline::HardBreak { .. } => true,
        _ => false,
    };
    let gone = content.iter().all(blank);
    if gone {
        blocks.remove(b);
    } else if let Some(Block::Paragraph { content, pos }) = blocks.get_mut(b) {
        // What was beside the image is no paragraph of its own.
        let (content, pos) = (std::mem::take(content), *pos);
        blocks[b] = Block::Text { content, pos };
    }
    Some((vec![image], gone.then_some(b)))
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
        if matches!(self.top_kind(), Some(FrameKind::Figure { .. })) && is_caption(e) {
            self.block_boundary();
            if let Some(Frame {
                kind: FrameKind::Figure { caption_at, .. },
                blocks,
                ..
            }) = self.frames.last_mut()
            {
                caption_at.get_or_insert(blocks.len());
            }
            exit.frame = Some(self.open_frame(FrameKind::FigureCaption, id, Level::Deeper, line));
            return true;
        }
        if is_figure(e) {
            self.open_container(id, line, "a figure", Level::Same, exit, |_| {
                FrameKind::Figure {
                    caption: None,
                    caption_at: None,
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
    /// caption with text. The rest of its content joins the caption, where
    /// the page has it: before the caption's blocks what came before the
    /// `<figcaption>`, after them what came after (a credit line, a label
    /// beside the image). Otherwise its blocks and its caption's, in the
    /// page's order.
    pub(super) fn close_figure(&mut self, frame: Frame) {
        let FrameKind::Figure {
            caption,
            caption_at,
        } = frame.kind
        else {
            return;
        };
        let mut blocks = frame.blocks;
        let caption = caption.unwrap_or_default();
        let at = caption_at.unwrap_or(blocks.len()).min(blocks.len());
        let has_text = !wikitext::runs(&caption).all(|r| wikitext::plain_text(r).trim().is_empty());
        if has_text && let Some((image, gone)) = take_image(&mut blocks) {
            // The image's block may have gone from before the caption.
            let at = match gone {
                Some(b) if b < at => at - 1,
                _ => at,
            };
            let after = blocks.split_off(at);
            let mut all = blocks;
            all.extend(caption);
            all.extend(after);
            let pos = image.first().map_or(frame.pos, Inline::pos);
            self.deliver(vec![Block::Figure {
                image,
                caption: all,
                pos,
            }]);
            return;
        }
        let after = blocks.split_off(at);
        self.deliver(blocks);
        self.deliver(caption);
        self.deliver(after);
    }
}
