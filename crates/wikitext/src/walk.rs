//! Walks over a document's blocks, without recursion: its inline runs in
//! order, how deep its blocks nest, whether it holds an image, and the
//! plain text of a run.

use crate::model::{Block, Inline};

/// The inline runs of blocks in document order: paragraphs, text blocks,
/// headings, each term before its definition, each line of preformatted
/// text. Walks without recursion, so any depth is safe.
///
/// ```
/// let doc = wikitext::parse("\n= T =\n\n  * a::\n        b\n").document;
/// let texts: Vec<String> = wikitext::runs(&doc.body).map(wikitext::plain_text).collect();
/// assert_eq!(texts, ["T", "a", "b"]);
/// ```
pub fn runs(blocks: &[Block]) -> Runs<'_> {
    Runs {
        stack: blocks.iter().rev().map(Step::Block).collect(),
        preformatted: true,
    }
}

/// The inline runs of blocks in document order as [`runs`] gives them,
/// without the lines of preformatted text: what a page says in sentences,
/// not its code and program output.
///
/// ```
/// let doc = wikitext::parse("\n= T =\n\n  $ ls -l\n\nText.\n").document;
/// let texts: Vec<String> = wikitext::prose_runs(&doc.body).map(wikitext::plain_text).collect();
/// assert_eq!(texts, ["T", "Text."]);
/// ```
pub fn prose_runs(blocks: &[Block]) -> Runs<'_> {
    Runs {
        preformatted: false,
        ..runs(blocks)
    }
}

/// The iterator [`runs`] and [`prose_runs`] return.
#[derive(Debug, Clone)]
pub struct Runs<'a> {
    stack: Vec<Step<'a>>,
    /// Whether the lines of preformatted text are given.
    preformatted: bool,
}

#[derive(Debug, Clone, Copy)]
enum Step<'a> {
    Block(&'a Block),
    Run(&'a [Inline]),
}

impl<'a> Iterator for Runs<'a> {
    type Item = &'a [Inline];

    fn next(&mut self) -> Option<&'a [Inline]> {
        while let Some(step) = self.stack.pop() {
            let block = match step {
                Step::Run(run) => return Some(run),
                Step::Block(block) => block,
            };
            match block {
                Block::Paragraph { content, .. }
                | Block::Text { content, .. }
                | Block::Heading { content, .. } => return Some(content),
                Block::Preformatted { lines, .. } => {
                    if self.preformatted {
                        self.stack.extend(lines.iter().rev().map(|l| Step::Run(l)));
                    }
                }
                Block::Rule { .. } => {}
                Block::Blockquote { content, .. } => {
                    self.stack.extend(content.iter().rev().map(Step::Block));
                }
                Block::List { items, .. } => {
                    for item in items.iter().rev() {
                        self.stack
                            .extend(item.content.iter().rev().map(Step::Block));
                    }
                }
                Block::DefinitionList { items, .. } => {
                    for item in items.iter().rev() {
                        self.stack
                            .extend(item.definition.iter().rev().map(Step::Block));
                        self.stack
                            .extend(item.terms.iter().rev().map(|t| Step::Run(&t.content)));
                    }
                }
                Block::Table { caption, rows, .. } => {
                    for row in rows.iter().rev() {
                        for cell in row.cells.iter().rev() {
                            self.stack
                                .extend(cell.content.iter().rev().map(Step::Block));
                        }
                    }
                    if !caption.is_empty() {
                        self.stack.push(Step::Run(caption));
                    }
                }
                Block::Figure { image, caption, .. } => {
                    self.stack.extend(caption.iter().rev().map(Step::Block));
                    self.stack.push(Step::Run(image));
                }
            }
        }
        None
    }
}

/// How deep blocks nest, counted as [`MAX_DEPTH`] counts them (the body's
/// blocks are at 1). Walks without recursion.
///
/// ```
/// let doc = wikitext::parse("\n  * a\n\n      > b\n").document;
/// assert_eq!(wikitext::depth(&doc.body), 3);
/// ```
pub fn depth(blocks: &[Block]) -> usize {
    let mut max = 0;
    let mut stack: Vec<(&[Block], usize)> = vec![(blocks, 1)];
    while let Some((blocks, d)) = stack.pop() {
        for b in blocks {
            max = max.max(d);
            match b {
                Block::Blockquote { content, .. } => stack.push((content, d + 1)),
                Block::List { items, .. } => {
                    stack.extend(items.iter().map(|i| (i.content.as_slice(), d + 1)));
                }
                Block::DefinitionList { items, .. } => {
                    stack.extend(items.iter().map(|i| (i.definition.as_slice(), d + 1)));
                }
                Block::Table { rows, .. } => {
                    for row in rows {
                        stack.extend(row.cells.iter().map(|c| (c.content.as_slice(), d + 1)));
                    }
                }
                Block::Figure { caption, .. } => stack.push((caption, d + 1)),
                _ => {}
            }
        }
    }
    max
}

/// Whether blocks hold an image, at any depth. Walks without recursion.
///
/// ```
/// let doc = wikitext::parse("#Extend image\n\n[a.html||![a.png||A]]\n").document;
/// assert!(wikitext::has_images(&doc.body));
/// ```
pub fn has_images(blocks: &[Block]) -> bool {
    any_inline(blocks, |node| matches!(node, Inline::Image { .. }))
}

/// Whether blocks hold a figure, at any depth. Walks without recursion.
///
/// ```
/// let doc = wikitext::parse("#Extend image figure\n\n![a.png||A]   The caption.\n").document;
/// assert!(wikitext::has_figures(&doc.body));
/// ```
pub fn has_figures(blocks: &[Block]) -> bool {
    any_block(blocks, |b| matches!(b, Block::Figure { .. }))
}

/// Whether some block of blocks, at any depth (in items, blockquotes,
/// definitions, cells and captions), is one `found` is looking for. Walks
/// without recursion.
pub(crate) fn any_block(blocks: &[Block], found: impl Fn(&Block) -> bool) -> bool {
    let mut stack: Vec<&[Block]> = vec![blocks];
    while let Some(blocks) = stack.pop() {
        for b in blocks {
            if found(b) {
                return true;
            }
            match b {
                Block::Blockquote { content, .. } => stack.push(content),
                Block::List { items, .. } => stack.extend(items.iter().map(|i| &*i.content)),
                Block::DefinitionList { items, .. } => {
                    stack.extend(items.iter().map(|i| &*i.definition));
                }
                Block::Table { rows, .. } => {
                    for row in rows {
                        stack.extend(row.cells.iter().map(|c| &*c.content));
                    }
                }
                Block::Figure { caption, .. } => stack.push(caption),
                Block::Paragraph { .. }
                | Block::Text { .. }
                | Block::Preformatted { .. }
                | Block::Heading { .. }
                | Block::Rule { .. } => {}
            }
        }
    }
    false
}

/// Whether blocks hold a forced line break, and whether they hold a
/// superscript or subscript, at any depth (what `#Extend break` and
/// `#Extend subsup` are declared for). Walks without recursion.
///
/// ```
/// let doc = wikitext::parse("#Extend subsup\n\nH~{2}O\n").document;
/// assert_eq!(wikitext::has_extended_inlines(&doc.body), (false, true));
/// ```
pub fn has_extended_inlines(blocks: &[Block]) -> (bool, bool) {
    (
        any_inline(blocks, |node| matches!(node, Inline::HardBreak { .. })),
        any_inline(blocks, |node| {
            matches!(node, Inline::Superscript { .. } | Inline::Subscript { .. })
        }),
    )
}

/// Whether some inline of blocks, at any depth (an image's alternative
/// text included), is one `found` is looking for. Walks without recursion.
fn any_inline(blocks: &[Block], found: impl Fn(&Inline) -> bool) -> bool {
    runs(blocks).any(|run| {
        let mut stack: Vec<&[Inline]> = vec![run];
        while let Some(run) = stack.pop() {
            for node in run {
                if found(node) {
                    return true;
                }
                if let Some(children) = node.children() {
                    stack.push(children);
                }
            }
        }
        false
    })
}

/// Visits the leaves of an inline run in order (text, line divisions,
/// forced breaks, e-mail addresses), inside every container: link texts
/// and the alternative texts of images too. Walks without recursion.
pub(crate) fn for_each_leaf<'a>(run: &'a [Inline], mut visit: impl FnMut(&'a Inline)) {
    let mut stack: Vec<std::slice::Iter<'a, Inline>> = vec![run.iter()];
    while let Some(top) = stack.last_mut() {
        let Some(node) = top.next() else {
            stack.pop();
            continue;
        };
        match node.children() {
            Some(children) => stack.push(children.iter()),
            None => visit(node),
        }
    }
}

/// The plain text of an inline run: text, e-mail addresses, link texts and
/// the alternative texts of images with markup removed, line divisions as `\n`.
pub fn plain_text(run: &[Inline]) -> String {
    let mut out = String::new();
    for_each_leaf(run, |leaf| match leaf {
        Inline::Text { text, .. } => out.push_str(text),
        Inline::Email { address, .. } => out.push_str(address),
        _ => out.push('\n'),
    });
    out
}

/// Whether an inline run holds a line division (a forced break, `<br>`,
/// stands on its line), at any depth. Walks
/// without recursion.
pub(crate) fn has_line_break(run: &[Inline]) -> bool {
    let mut stack: Vec<&[Inline]> = vec![run];
    while let Some(run) = stack.pop() {
        for node in run {
            if matches!(node, Inline::LineBreak { .. }) {
                return true;
            }
            if let Some(children) = node.children() {
                stack.push(children);
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Pos, push_text};

    #[test]
    fn plain_text_shows_line_divisions_as_line_feeds() {
        let mut run = Vec::new();
        push_text(&mut run, "a", Pos::UNKNOWN);
        push_text(&mut run, "b\nc", Pos::UNKNOWN);
        assert_eq!(plain_text(&run), "ab\nc");
    }
}
