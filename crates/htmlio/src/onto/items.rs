//! A list written item by item, and a table row by row: when a list's
//! items or a table's rows changed beyond their words (one added, removed
//! or marked up), only those are written, each inside its own `<li>` or
//! `<tr>` (its start tag kept) or beside a neighbour with its
//! indentation, so that the others keep their bytes, classes and all.

use std::hash::Hash;
use std::ops::Range;

use similar::DiffTag;
use wikitext::{Block, ListItem, Row};

use super::page::{Page, Patch};
use super::place::diff;
use super::tree::Tree;

/// The patches that turn the list or table element `element`'s items (or
/// rows) from `old`'s into `new`'s; `None` when the page's `<li>` (or
/// `<tr>`) elements are not the old ones one for one, or the blocks are
/// not two lists of one kind (or two tables with one caption): the block
/// is then written whole. `markup` writes blocks in the page's syntax.
pub(crate) fn items(
    page: &Page<'_>,
    element: usize,
    old: &Block,
    new: &Block,
    markup: &dyn Fn(&[Block]) -> String,
) -> Option<Vec<Patch>> {
    match (old, new) {
        (
            Block::List {
                kind: a,
                items: old,
                ..
            },
            Block::List {
                kind: b,
                items: new,
                ..
            },
        ) if a == b => {
            let lis = children(page.tree, element, "li", &["ul", "ol", "dir", "menu"]);
            let write = |items: &[ListItem]| {
                let list = markup(&[Block::list(*b, items.to_vec())]);
                // `<ul>\n<li>...</li>\n</ul>`: what lies between the list's tags.
                let from = list.find('>').map_or(0, |i| i + 1);
                let to = list.rfind("</").unwrap_or(list.len()).max(from);
                list.get(from..to)
                    .unwrap_or_default()
                    .trim_matches('\n')
                    .to_owned()
            };
            units(page, &lis, old, new, &write)
        }
        (
            Block::Table {
                caption: a,
                rows: old,
                ..
            },
            Block::Table {
                caption: b,
                rows: new,
                ..
            },
        ) if a == b => {
            let trs = children(page.tree, element, "tr", &["table"]);
            let write = |rows: &[Row]| {
                let table = markup(&[Block::table(rows.to_vec())]);
                let from = table.find("<tr").unwrap_or(0);
                let to = table
                    .rfind("</tr>")
                    .map_or(table.len(), |i| i + 5)
                    .max(from);
                table.get(from..to).unwrap_or_default().to_owned()
            };
            units(page, &trs, old, new, &write)
        }
        _ => None,
    }
}

/// The ranges of the elements named `name` that belong to `element`:
/// below it, and with no element named one of `stop` between (a nested
/// list's items, a nested table's rows).
fn children(tree: &Tree, element: usize, name: &str, stop: &[&str]) -> Vec<Range<usize>> {
    let owner = |mut e: usize| -> Option<usize> {
        loop {
            let up = tree.elements.get(e)?.parent;
            if up == element {
                return Some(up);
            }
            if up == e || stop.contains(&tree.elements.get(up)?.name.as_str()) {
                return None;
            }
            e = up;
        }
    };
    tree.elements
        .iter()
        .enumerate()
        .filter(|(i, e)| e.name == name && owner(*i).is_some())
        .map(|(_, e)| e.start..e.end)
        .collect()
}

/// The patches that turn the page's `elements` (one for each of `old`)
/// into `new`: each changed unit written inside its element, removed ones
/// taken out with their lines, new ones beside a neighbour. `write` gives
/// the markup of a run of units, elements and all.
fn units<T: Eq + Hash + Clone>(
    page: &Page<'_>,
    elements: &[Range<usize>],
    old: &[T],
    new: &[T],
    write: &dyn Fn(&[T]) -> String,
) -> Option<Vec<Patch>> {
    if elements.len() != old.len() {
        return None;
    }
    let tree = page.tree;
    let mut out = Vec::new();
    for op in diff(old, new) {
        if op.tag() == DiffTag::Equal {
            continue;
        }
        let (gone, come) = (op.old_range(), op.new_range());
        let pairs = gone.len().min(come.len());
        for k in 0..pairs {
            // Written inside its own element.
            let r = elements.get(gone.start + k)?;
            let el = tree
                .elements
                .iter()
                .find(|e| e.start == r.start && e.end == r.end)?;
            let written = write(std::slice::from_ref(new.get(come.start + k)?));
            let from = written.find('>').map_or(0, |i| i + 1);
            let to = written.rfind("</").unwrap_or(written.len()).max(from);
            out.push(Patch {
                start: el.open_end,
                end: el.close_start,
                with: written.get(from..to).unwrap_or_default().to_owned(),
            });
        }
        for i in gone.start + pairs..gone.end {
            let r = page.whole_lines(elements.get(i)?.clone());
            out.push(Patch {
                start: r.start,
                end: r.end,
                with: String::new(),
            });
        }
        let added = new.get(come.start + pairs..come.end)?;
        if added.is_empty() {
            continue;
        }
        let written = write(added);
        let at = gone.start + pairs;
        let (anchor, after) = match at.checked_sub(1).and_then(|p| elements.get(p)) {
            Some(prev) => (prev.clone(), true),
            None => (elements.get(at)?.clone(), false),
        };
        let indent = page.indent(anchor.start);
        let nl = page.newline();
        let laid = page.lay_out(&written, indent);
        out.push(if after {
            Patch {
                start: anchor.end,
                end: anchor.end,
                with: format!("{nl}{indent}{laid}"),
            }
        } else {
            Patch {
                start: anchor.start,
                end: anchor.start,
                with: format!("{laid}{nl}{indent}"),
            }
        });
    }
    Some(out)
}
