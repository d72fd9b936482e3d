//! Where an anchor that has no text of its own goes: on a free word of the
//! text around it, so that a link to it still lands somewhere (see "Every
//! anchor stays reachable" in docs/decisions.md). A word is free when no
//! anchor is on it yet; a link without an anchor is free too (it takes the
//! name as well as its URL). Nothing here recurses: runs are scanned at their
//! top level, where a formatted element without a link is wrapped whole.

use std::mem;

use wikitext::{Block, Inline};

/// Which end of a run to start from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum From {
    /// The first free word (an anchor waiting for the text after it).
    Start,
    /// The last free word (an anchor with no text after it stays on the
    /// text before it).
    End,
}

/// Puts `anchor` on the first (or last) free word of `run`; gives the
/// anchor back when the run has none.
pub(super) fn place_on_free_word(
    run: &mut Vec<Inline>,
    anchor: String,
    from: From,
) -> Result<(), String> {
    let n = run.len();
    for k in 0..n {
        let i = match from {
            From::Start => k,
            From::End => n - 1 - k,
        };
        let Some(node) = run.get_mut(i) else { continue };
        match node {
            Inline::Link { fragment, .. } => {
                if fragment.is_none() {
                    *fragment = Some(anchor);
                    return Ok(());
                }
            }
            Inline::Text { text, pos } => {
                if let Some(pieces) = split_word(text, from) {
                    let pos = *pos;
                    let (before, word, after) = pieces;
                    let mut replacement = Vec::with_capacity(3);
                    if !before.is_empty() {
                        replacement.push(Inline::text(before).at(pos));
                    }
                    replacement.push(Inline::Link {
                        url: None,
                        fragment: Some(anchor),
                        content: vec![Inline::text(word).at(pos)],
                        pos,
                    });
                    if !after.is_empty() {
                        replacement.push(Inline::text(after).at(pos));
                    }
                    run.splice(i..=i, replacement);
                    return Ok(());
                }
            }
            Inline::Emphasis { content, .. }
            | Inline::Strong { content, .. }
            | Inline::Code { content, .. }
            | Inline::Superscript { content, .. }
            | Inline::Subscript { content, .. } => {
                if !holds_link(content) {
                    wrap_in_anchor(node, anchor);
                    return Ok(());
                }
            }
            // An image can stand in a link: the anchor goes around it.
            Inline::Image { .. } => {
                wrap_in_anchor(node, anchor);
                return Ok(());
            }
            Inline::Email { .. } | Inline::LineBreak { .. } | Inline::HardBreak { .. } => {}
        }
    }
    Err(anchor)
}

/// Puts the anchor `anchor` around `node` (an element without a link).
fn wrap_in_anchor(node: &mut Inline, anchor: String) {
    let pos = node.pos();
    let inner = mem::replace(node, Inline::text(""));
    *node = Inline::Link {
        url: None,
        fragment: Some(anchor),
        content: vec![inner],
        pos,
    };
}

/// The first (or last) word of `text` and what is before and after it;
/// `None` when the text is only white space.
fn split_word(text: &str, from: From) -> Option<(String, String, String)> {
    let (start, end) = match from {
        From::Start => {
            let start = text.len() - text.trim_start().len();
            let end = text
                .get(start..)?
                .find(char::is_whitespace)
                .map_or(text.len(), |n| start + n);
            (start, end)
        }
        From::End => {
            let end = text.trim_end().len();
            let start = text
                .get(..end)?
                .char_indices()
                .rev()
                .find(|(_, c)| c.is_whitespace())
                .map_or(0, |(n, c)| n + c.len_utf8());
            (start, end)
        }
    };
    if start >= end {
        return None;
    }
    Some((
        text.get(..start)?.to_owned(),
        text.get(start..end)?.to_owned(),
        text.get(end..)?.to_owned(),
    ))
}

/// Whether a run holds a link or an e-mail address at any depth.
pub(super) fn holds_link(run: &[Inline]) -> bool {
    let mut stack: Vec<&[Inline]> = vec![run];
    while let Some(items) = stack.pop() {
        for inline in items {
            if matches!(inline, Inline::Link { .. } | Inline::Email { .. }) {
                return true;
            }
            if let Some(children) = inline.children() {
                stack.push(children);
            }
        }
    }
    false
}

/// Puts `anchor` on the last free word of the text of `blocks` (their last
/// block that has one, looking into containers); gives it back when there
/// is none.
pub(super) fn place_on_last_word(blocks: &mut [Block], anchor: String) -> Result<(), String> {
    let mut anchor = anchor;
    // Blocks to try, the last first: (the block list, how many of it are
    // left to try).
    let mut stack: Vec<&mut [Block]> = vec![blocks];
    while let Some(list) = stack.pop() {
        let Some((last, rest)) = list.split_last_mut() else {
            continue;
        };
        if !rest.is_empty() {
            stack.push(rest);
        }
        match last {
            Block::Paragraph { content, .. }
            | Block::Text { content, .. }
            | Block::Heading { content, .. } => {
                match place_on_free_word(content, anchor, From::End) {
                    Ok(()) => return Ok(()),
                    Err(back) => anchor = back,
                }
            }
            Block::Preformatted { lines, .. } => {
                for line in lines.iter_mut().rev() {
                    match place_on_free_word(line, anchor, From::End) {
                        Ok(()) => return Ok(()),
                        Err(back) => anchor = back,
                    }
                }
            }
            Block::Blockquote { content, .. } => stack.push(content),
            Block::List { items, .. } => {
                for item in items.iter_mut() {
                    stack.push(&mut item.content);
                }
            }
            Block::DefinitionList { items, .. } => {
                for item in items.iter_mut() {
                    for term in item.terms.iter_mut() {
                        match place_on_free_word(&mut term.content, anchor, From::End) {
                            Ok(()) => return Ok(()),
                            Err(back) => anchor = back,
                        }
                    }
                    stack.push(&mut item.definition);
                }
            }
            Block::Table { rows, .. } => {
                for row in rows.iter_mut() {
                    for cell in row.cells.iter_mut() {
                        stack.push(&mut cell.content);
                    }
                }
            }
            Block::Figure { caption, .. } => stack.push(caption),
            Block::Rule { .. } => {}
        }
    }
    Err(anchor)
}

#[cfg(test)]
#[allow(clippy::panic, clippy::indexing_slicing)]
mod tests {
    use super::*;
    use wikitext::Pos;

    fn texts(run: &[Inline]) -> String {
        wikitext::dump::tree(&wikitext::Document::new(
            wikitext::Metadata::default(),
            vec![Block::paragraph(run.to_vec())],
        ))
    }

    #[test]
    fn a_second_anchor_moves_to_the_next_free_word() {
        // `<h2 id="group"><span id="Group">Group</span> Directive <a href="#group">¶</a></h2>`
        let mut run = vec![
            Inline::link(None, Some("Group".into()), vec![Inline::text("Group")]),
            Inline::text(" Directive "),
            Inline::link(Some("#group".into()), None, vec![Inline::text("¶")]),
        ];
        assert_eq!(
            place_on_free_word(&mut run, "group".into(), From::Start),
            Ok(())
        );
        let dump = texts(&run);
        assert!(
            dump.contains("link fragment=\"group\"\n      \"Directive\""),
            "{dump}"
        );
    }

    #[test]
    fn free_links_and_last_words() {
        let mut run = vec![
            Inline::link(None, Some("a".into()), vec![Inline::text("x")]),
            Inline::link(Some("u".into()), None, vec![Inline::text("y")]),
        ];
        assert_eq!(
            place_on_free_word(&mut run, "b".into(), From::Start),
            Ok(())
        );
        assert!(matches!(&run[1], Inline::Link { fragment: Some(f), .. } if f == "b"));
        let mut run = vec![Inline::text("one two  ")];
        assert_eq!(place_on_free_word(&mut run, "c".into(), From::End), Ok(()));
        assert_eq!(run.len(), 3);
        assert!(
            matches!(&run[1], Inline::Link { content, .. } if content == &vec![Inline::text("two")])
        );
        let mut run = vec![Inline::text("  ")];
        assert_eq!(
            place_on_free_word(&mut run, "d".into(), From::End),
            Err("d".to_owned())
        );
    }

    #[test]
    fn the_last_word_of_the_blocks() {
        let mut blocks = vec![
            Block::paragraph(vec![Inline::text("first")]),
            Block::list(
                wikitext::ListKind::Unordered,
                vec![wikitext::ListItem::new(vec![Block::text(vec![
                    Inline::text("item"),
                ])])],
            ),
            Block::Rule { pos: Pos::UNKNOWN },
        ];
        assert_eq!(place_on_last_word(&mut blocks, "e".into()), Ok(()));
        let Some(Block::List { items, .. }) = blocks.get(1) else {
            panic!("{blocks:?}")
        };
        let want = vec![Block::text(vec![Inline::link(
            None,
            Some("e".into()),
            vec![Inline::text("item")],
        )])];
        assert_eq!(items[0].content, want);
        let mut none = vec![Block::Rule { pos: Pos::UNKNOWN }];
        assert_eq!(
            place_on_last_word(&mut none, "f".into()),
            Err("f".to_owned())
        );
    }
}
