//! Which part of the page is the article: paragraphs scored and their
//! scores given to the blocks around them, the best block taken, and its
//! siblings that read like more of the same taken with it, and blocks of
//! its very class elsewhere on the page. The scoring
//! follows the idea of Mozilla Readability's (a paragraph scores by its
//! commas and its length; its parent gets the score, its grandparent half;
//! a block's score shrinks with the share of its text inside links; the
//! page's own landmarks and class names weigh in; siblings that score
//! near the best one join it), with our own weights.

use std::collections::HashSet;

use crate::ingest::sink::{Arena, NONE, NodeId};
use crate::ingest::tags::Tag;

use super::measure::Measures;

/// The part chosen: `root`, or when siblings joined the best block, the
/// children of `root` listed in `children`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Chosen {
    /// The block that holds the article.
    pub(crate) root: NodeId,
    /// When not empty, only these children of `root` are the article.
    pub(crate) children: Vec<NodeId>,
}

/// How many ancestors of a paragraph share its score.
const ANCESTORS: usize = 5;

/// The least a block must score to be the article: a page whose best
/// block scores less has no clear main content (a paragraph of a hundred
/// characters with two commas scores 4).
const LEAST_SCORE: f32 = 10.0;

/// The least text (characters other than white space) an article has.
const LEAST_TEXT: u32 = 140;

/// A block's score before its paragraphs count, by what it is
/// (Readability starts `div`s up and lists and headings down).
fn base_score(tag: Tag) -> f32 {
    match tag {
        Tag::Block => 5.0,
        Tag::Pre | Tag::Cell | Tag::Blockquote => 3.0,
        Tag::UnorderedList
        | Tag::OrderedList
        | Tag::DefinitionList
        | Tag::Definition
        | Tag::Term
        | Tag::ListItem => -3.0,
        Tag::Heading(_) | Tag::HeaderCell => -5.0,
        _ => 0.0,
    }
}

/// The blocks' scores: each paragraph outside certain boilerplate gives
/// its score to its ancestors; `None` where nothing scored.
fn scores(arena: &Arena, m: &Measures) -> Vec<Option<f32>> {
    let mut scores: Vec<Option<f32>> = vec![None; m.nodes.len()];
    let body_text = m.get(m.body).text;
    for p in &m.paragraphs {
        // Text inside certain boilerplate does not count, unless that
        // "boilerplate" holds half the page (a form around everything).
        if p.boiler != NONE && m.get(p.boiler).text.saturating_mul(2) < body_text {
            continue;
        }
        let own = m.get(p.id);
        let score =
            1.0 + own.commas.min(own.inline / 10) as f32 + (own.inline as f32 / 100.0).min(3.0);
        // A `p`, or a block that holds nothing but its own lines, is the
        // paragraph and its parent gets the score; a block whose own lines
        // sit among other blocks holds them as an implicit paragraph and
        // gets it itself (Readability wraps such runs of text in a `p`).
        let mixed = own.inline < own.text
            && arena
                .element(p.id)
                .is_some_and(|e| !matches!(e.tag, Tag::Paragraph | Tag::Pre));
        let mut up = if mixed {
            p.id
        } else {
            arena.node(p.id).map_or(NONE, |n| n.parent)
        };
        for level in 0..ANCESTORS {
            let Some(node) = arena.node(up) else { break };
            let Some(e) = arena.element(up) else { break };
            let slot = scores.get_mut(up as usize);
            let Some(slot) = slot else { break };
            let divider = match level {
                0 => 1.0,
                1 => 2.0,
                _ => 3.0 * level as f32,
            };
            let start = slot.unwrap_or_else(|| base_score(e.tag) + m.get(up).signal.weight as f32);
            *slot = Some(start + score / divider);
            if up == m.body {
                break;
            }
            up = node.parent;
        }
    }
    scores
}

/// A block's final score: its score less the share inside links.
fn final_score(scores: &[Option<f32>], m: &Measures, id: NodeId) -> Option<f32> {
    let s = scores.get(id as usize).copied().flatten()?;
    Some(s * (1.0 - m.get(id).link_density()))
}

/// The article, or `None` when no part of the page stands out as one.
pub(crate) fn choose(arena: &Arena, m: &Measures) -> Option<Chosen> {
    let scores = scores(arena, m);
    let mut ranked: Vec<(f32, NodeId)> = scores
        .iter()
        .enumerate()
        .filter_map(|(i, s)| {
            s.and_then(|_| {
                let id = NodeId::try_from(i).ok()?;
                final_score(&scores, m, id).map(|f| (f, id))
            })
        })
        .collect();
    ranked.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let &(best_score, best) = ranked.first()?;
    if best_score < LEAST_SCORE || m.get(best).text < LEAST_TEXT {
        return None;
    }
    let top = shared_ancestor(arena, m, best, best_score, &ranked);
    let chosen = with_siblings(arena, m, &scores, top);
    Some(with_cousins(arena, m, &ranked, chosen, top))
}

/// How many of the best blocks are looked at for more parts of the
/// article.
const COUSINS: usize = 32;

/// Adds the ancestors of `id` to `set`, up to the first already in it
/// (so that parts with shared ancestors walk them once).
fn add_ancestors(arena: &Arena, set: &mut HashSet<NodeId>, id: NodeId) {
    let mut up = arena.node(id).map_or(NONE, |n| n.parent);
    while up != NONE && set.insert(up) {
        up = arena.node(up).map_or(NONE, |n| n.parent);
    }
}

/// Whether `id` or one of its ancestors is in `set`.
fn in_any(arena: &Arena, set: &HashSet<NodeId>, id: NodeId) -> bool {
    let mut up = id;
    while up != NONE {
        if set.contains(&up) {
            return true;
        }
        up = arena.node(up).map_or(NONE, |n| n.parent);
    }
    false
}

/// The article's other parts elsewhere on the page: blocks of the very
/// same class as the chosen block that score enough themselves (a layout
/// that puts the article's sections in different columns, with quotes
/// or a sidebar between, gives each section the same class). The chosen
/// part then lies under the blocks' nearest shared ancestor. This extends
/// Readability's bonus for a sibling of the same class to any relative.
fn with_cousins(
    arena: &Arena,
    m: &Measures,
    ranked: &[(f32, NodeId)],
    chosen: Chosen,
    top: NodeId,
) -> Chosen {
    let Some(class) = arena
        .element(top)
        .and_then(|e| e.attr("class"))
        .map(str::trim)
        .filter(|c| !c.is_empty())
    else {
        return chosen;
    };
    let top_score = ranked
        .iter()
        .find(|(_, id)| *id == top)
        .map_or(0.0, |(s, _)| *s);
    let threshold = (0.2 * top_score).max(LEAST_SCORE);
    let mut parts = if chosen.children.is_empty() {
        vec![chosen.root]
    } else {
        chosen.children.clone()
    };
    // Each candidate is tested against the parts by walking its own
    // ancestors once (sets, not a scan of the parts: siblings may be many).
    let mut inside: HashSet<NodeId> = parts.iter().copied().collect();
    let mut above: HashSet<NodeId> = HashSet::new();
    for &p in &parts {
        add_ancestors(arena, &mut above, p);
    }
    let before = parts.len();
    for &(score, id) in ranked.iter().take(COUSINS) {
        if score < threshold {
            break;
        }
        let same = arena
            .element(id)
            .and_then(|e| e.attr("class"))
            .is_some_and(|c| c.trim() == class);
        if !same || m.get(id).text == 0 || above.contains(&id) || in_any(arena, &inside, id) {
            continue;
        }
        inside.insert(id);
        parts.push(id);
        add_ancestors(arena, &mut above, id);
    }
    if parts.len() == before {
        return chosen;
    }
    // The nearest ancestor of all parts: up from the chosen root until it
    // is one of each new part's ancestors (each gathered once).
    let mut root = chosen.root;
    for &p in parts.iter().skip(before) {
        let mut of_p = HashSet::from([p]);
        add_ancestors(arena, &mut of_p, p);
        while root != NONE && !of_p.contains(&root) {
            root = arena.node(root).map_or(NONE, |n| n.parent);
        }
    }
    if root == NONE {
        return chosen;
    }
    parts.sort_unstable();
    Chosen {
        root,
        children: parts,
    }
}

/// Readability's second look: when several of the next best blocks score
/// near the best one and sit in one ancestor of it, the article is that
/// ancestor (its text was split into several blocks).
fn shared_ancestor(
    arena: &Arena,
    m: &Measures,
    best: NodeId,
    best_score: f32,
    ranked: &[(f32, NodeId)],
) -> NodeId {
    let near: Vec<NodeId> = ranked
        .iter()
        .skip(1)
        .take(4)
        .filter(|(s, id)| {
            *s >= 0.75 * best_score && !arena.contains(*id, best) && !arena.contains(best, *id)
        })
        .map(|(_, id)| *id)
        .collect();
    if near.len() < 3 {
        return best;
    }
    let mut up = arena.node(best).map_or(NONE, |n| n.parent);
    while up != NONE && up != m.body {
        let inside = near.iter().filter(|id| arena.contains(up, **id)).count();
        if inside >= 3 {
            return up;
        }
        up = arena.node(up).map_or(NONE, |n| n.parent);
    }
    best
}

/// The best block with those of its siblings that read like more of the
/// article: a score near its own, or a paragraph of some length with few
/// links (Readability's sibling step).
fn with_siblings(arena: &Arena, m: &Measures, scores: &[Option<f32>], top: NodeId) -> Chosen {
    let alone = Chosen {
        root: top,
        children: Vec::new(),
    };
    let parent = arena.node(top).map_or(NONE, |n| n.parent);
    if top == m.body || parent == NONE || m.get(parent).text == 0 {
        return alone;
    }
    let top_score = final_score(scores, m, top).unwrap_or(0.0);
    let threshold = (0.2 * top_score).max(10.0);
    let mut children = Vec::new();
    let mut child = arena.node(parent).map_or(NONE, |n| n.first_child);
    while let Some(node) = arena.node(child) {
        let id = child;
        child = node.next;
        if id == top {
            children.push(id);
            continue;
        }
        let Some(e) = arena.element(id) else { continue };
        let own = m.get(id);
        // A sibling whose markup names a part around the article (a
        // `print-header`, a `widget`) does not join it, however it reads.
        if own.text == 0 || own.signal.kind.is_some() {
            continue;
        }
        let scored = final_score(scores, m, id).is_some_and(|s| s >= threshold);
        let paragraph = matches!(e.tag, Tag::Paragraph | Tag::Block)
            && own.inline >= 80
            && own.link_density() < 0.25;
        if scored || paragraph {
            children.push(id);
        }
    }
    if children.len() <= 1 {
        return alone;
    }
    Chosen {
        root: parent,
        children,
    }
}
