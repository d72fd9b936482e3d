//! Where each top-level block of the page's text lies on the page: the
//! text's words are lined up with the page's words (a patience diff, which
//! skips what ingestion left out: ballast, hidden text), and each block
//! gets the range of its words and, where one holds them and nothing of
//! any other block, its own element.

use std::collections::HashMap;
use std::hash::Hash;
use std::ops::Range;
use std::time::{Duration, Instant};

use similar::{Algorithm, DiffOp};
use wikitext::Block;

use super::tree::Tree;
use super::words::PageWord;

/// Where one block of the text lies on the page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Place {
    /// The range of the page's text it lies in: from its first word to
    /// its last, widened to the whole elements they lie in below the
    /// element that holds both, where no other block's words are.
    pub(crate) words: Range<usize>,
    /// Its own element: one that holds all its words and no other block's.
    pub(crate) element: Option<usize>,
}

/// How long a diff may search before it settles for a coarser answer
/// (the patience diff is near linear on real pages; this bounds hostile
/// input).
const DEADLINE: Duration = Duration::from_secs(2);

/// The operations that turn `old` into `new`, items compared by equality
/// (each distinct item becomes a number first).
pub(crate) fn diff<T: Eq + Hash>(old: &[T], new: &[T]) -> Vec<DiffOp> {
    let mut ids: HashMap<&T, u32> = HashMap::new();
    let mut id = |t| {
        let next = u32::try_from(ids.len()).unwrap_or(u32::MAX);
        *ids.entry(t).or_insert(next)
    };
    let a: Vec<u32> = old.iter().map(&mut id).collect();
    let b: Vec<u32> = new.iter().map(&mut id).collect();
    let ops = similar::capture_diff_slices_deadline(
        Algorithm::Patience,
        &a,
        &b,
        Instant::now().checked_add(DEADLINE),
    );
    in_order(ops)
}

/// `ops` with the position of each insertion and deletion where the ops
/// before it end. similar's patience diff can report an insertion after an
/// equal run at the equal run's start (`Equal { old_index: 3, len: 1 }`
/// then `Insert { old_index: 3 }`), which would put inserted blocks before
/// the block they follow.
fn in_order(ops: Vec<DiffOp>) -> Vec<DiffOp> {
    let (mut old_at, mut new_at) = (0, 0);
    let mut out = Vec::with_capacity(ops.len());
    for op in ops {
        let op = match op {
            DiffOp::Insert {
                new_index, new_len, ..
            } => DiffOp::Insert {
                old_index: old_at,
                new_index,
                new_len,
            },
            DiffOp::Delete {
                old_index, old_len, ..
            } => DiffOp::Delete {
                old_index,
                old_len,
                new_index: new_at,
            },
            other => other,
        };
        old_at = old_at.max(op.old_range().end);
        new_at = new_at.max(op.new_range().end);
        out.push(op);
    }
    out
}

/// For each of the text's words (`doc`, with their blocks), the page word
/// it was read from, when the two line up.
pub(crate) fn line_up(doc: &[(String, usize)], page: &[PageWord]) -> Vec<Option<usize>> {
    let a: Vec<String> = doc.iter().map(|(w, _)| key(w)).collect();
    let b: Vec<String> = page.iter().map(|w| key(&w.text)).collect();
    let mut out = vec![None; doc.len()];
    for op in diff(&a, &b) {
        if let DiffOp::Equal {
            old_index,
            new_index,
            len,
        } = op
        {
            for k in 0..len {
                if let Some(slot) = out.get_mut(old_index + k) {
                    *slot = Some(new_index + k);
                }
            }
        }
    }
    out
}

/// What a word is compared by: its letters and digits, when it has any.
/// The text may add punctuation the page shows through markup (the quotes
/// of a `q` element), or leave some out.
fn key(word: &str) -> String {
    let k: String = word.chars().filter(|c| c.is_alphanumeric()).collect();
    if k.is_empty() { word.to_owned() } else { k }
}

/// The element names a block of each kind may be written in.
pub(crate) fn fits(block: &Block, name: &str) -> bool {
    match block {
        Block::Paragraph { .. } | Block::Text { .. } => matches!(
            name,
            "p" | "div"
                | "center"
                | "address"
                | "figcaption"
                | "dd"
                | "li"
                | "td"
                | "th"
                | "caption"
                | "section"
                | "article"
                | "main"
                | "aside"
                | "header"
                | "footer"
                | "font"
                | "span"
                | "label"
                | "legend"
                | "summary"
                | "details"
                | "figure"
                | "form"
        ),
        Block::Heading { .. } => matches!(name, "h1" | "h2" | "h3" | "h4" | "h5" | "h6"),
        Block::Preformatted { .. } => matches!(name, "pre" | "listing" | "xmp" | "plaintext"),
        Block::Rule { .. } => name == "hr",
        Block::Blockquote { .. } => name == "blockquote",
        Block::List { .. } => matches!(name, "ul" | "ol" | "dir" | "menu"),
        Block::DefinitionList { .. } => matches!(name, "dl" | "table"),
        Block::Table { .. } => name == "table",
        Block::Figure { .. } => matches!(name, "figure" | "div"),
    }
}

/// The place of each top-level block of `blocks`, from the lined-up words.
pub(crate) fn places(
    blocks: &[Block],
    doc: &[(String, usize)],
    matched: &[Option<usize>],
    page: &[PageWord],
    tree: &Tree,
) -> Vec<Option<Place>> {
    // The page words of each block: the first and the last that line up.
    let mut span: Vec<Option<(usize, usize)>> = vec![None; blocks.len()];
    for ((_, block), m) in doc.iter().zip(matched) {
        let (Some(slot), Some(p)) = (span.get_mut(*block), m) else {
            continue;
        };
        *slot = Some(slot.map_or((*p, *p), |(a, _)| (a, *p)));
    }
    let mut out = Vec::with_capacity(blocks.len());
    for (b, block) in blocks.iter().enumerate() {
        let Some((first, last)) = span.get(b).copied().flatten() else {
            out.push(None);
            continue;
        };
        let (Some(fw), Some(lw)) = (page.get(first), page.get(last)) else {
            out.push(None);
            continue;
        };
        // The page's text the neighbours' words are in: no element of this
        // block may reach into it.
        let before = span
            .get(..b)
            .and_then(|s| s.iter().rev().flatten().next())
            .and_then(|&(_, l)| page.get(l))
            .map_or(0, |w| w.end);
        let after = span
            .get(b + 1..)
            .and_then(|s| s.iter().flatten().next())
            .and_then(|&(f, _)| page.get(f))
            .map_or(usize::MAX, |w| w.start);
        let element = own_element(tree, block, fw.element, lw.element, before, after);
        let common = tree.common(fw.element, lw.element);
        let widened = |e: usize, word: usize, start: bool| {
            below(tree, common, e)
                .and_then(|c| tree.elements.get(c))
                .map_or(word, |el| if start { el.start } else { el.end })
        };
        let (start, end) = (
            widened(fw.element, fw.start, true),
            widened(lw.element, lw.end, false),
        );
        let words = if start >= before && end <= after {
            start..end
        } else {
            fw.start..lw.end
        };
        out.push(Some(Place { words, element }));
    }
    out
}

/// The child of `top` that holds `e`, when `e` is below `top`.
fn below(tree: &Tree, top: usize, mut e: usize) -> Option<usize> {
    loop {
        let parent = tree.elements.get(e)?.parent;
        if parent == top && e != top {
            return Some(e);
        }
        if parent == e {
            return None;
        }
        e = parent;
    }
}

/// The element a block's words lie in alone: the one that holds its first
/// and last word, widened past phrase elements and up to one whose name
/// fits the block, as long as it stays within `before..after`.
fn own_element(
    tree: &Tree,
    block: &Block,
    first: usize,
    last: usize,
    before: usize,
    after: usize,
) -> Option<usize> {
    let inside = |e: usize| {
        tree.elements
            .get(e)
            .is_some_and(|el| e != 0 && el.start >= before && el.end <= after)
    };
    let common = tree.common(first, last);
    if !inside(common) {
        return None;
    }
    let mut best = common;
    let mut up = common;
    loop {
        let name = tree.elements.get(up).map_or("", |e| e.name.as_str());
        if fits(block, name) {
            return Some(up);
        }
        if matches!(name, "body" | "html" | "#root") {
            break;
        }
        let parent = tree.elements.get(up).map_or(0, |e| e.parent);
        if parent == up || !inside(parent) {
            break;
        }
        up = parent;
        if super::words::is_phrase(tree.elements.get(best).map_or("", |e| e.name.as_str())) {
            best = up;
        }
    }
    let name = tree.elements.get(best).map_or("", |e| e.name.as_str());
    (!matches!(name, "body" | "html" | "#root" | "head")).then_some(best)
}
