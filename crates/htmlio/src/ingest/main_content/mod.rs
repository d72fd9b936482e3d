//! The page's main content (`--main-content`): the article, without the
//! navigation, banners, sidebars, footers, forms and other boilerplate
//! around it, chosen on the tree html5ever built (the arena ingestion maps)
//! before the mapping, so that the mapping walks only what is kept.
//!
//! 1. One walk measures every node ([`measure`]): its text, the part inside
//!    links, its commas, what its name, ARIA role, classes and id say
//!    ([`signals`]), and which blocks read as paragraphs.
//! 2. The article is chosen ([`choose`]): paragraphs score by length and
//!    commas, blocks by their paragraphs, their landmarks (`main`,
//!    `article`, `role`, `itemprop=articleBody`) and classes, less the
//!    share of their text in links; siblings that read like more of it
//!    join the best block, and so do blocks of its very class elsewhere
//!    (the article's sections laid out apart). A page where nothing
//!    scores enough keeps everything.
//! 3. Inside the article, boilerplate is dropped ([`prune`]): parts whose
//!    markup says what they are (navigation, asides, footers, forms,
//!    comments, share and related blocks, consent banners, hidden parts)
//!    and lists of links.
//! 4. The title heading just before the article or at its top (an `h1`
//!    with little text between) is kept with it, unless it repeats the
//!    page's `<title>`, which the header's `#Title` already holds: then it
//!    is dropped as `title` (Readability drops a heading that duplicates
//!    the title the same way).
//!
//! Nothing here recurses: walks follow the arena's links or explicit
//! lists, and each is linear in the nodes (a path walk is bounded by the
//! tree's depth, which the parse caps). What is dropped is counted by
//! kind in a [`MainContent`], never silently.

mod choose;
mod measure;
mod prune;
mod signals;
#[cfg(test)]
mod tests;

use std::collections::{BTreeMap, HashSet};
use std::fmt;

use super::sink::{Arena, Data, NONE, NodeId};
use super::tags::Tag;
use measure::Measures;

/// The kind of a part dropped as boilerplate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// Navigation: `nav`, `role=navigation`, menus, breadcrumbs, pagination.
    Nav,
    /// `aside`, `role=complementary`, sidebars and widgets.
    Aside,
    /// `header`, `role=banner`, mastheads.
    Header,
    /// `footer`, `role=contentinfo`.
    Footer,
    /// `form`, `search`, `role=search`.
    Form,
    /// Comments and replies.
    Comments,
    /// Share and social-media blocks.
    Share,
    /// Related stories, recommendations, tags.
    Related,
    /// Cookie and consent banners, dialogs.
    Consent,
    /// Newsletters, subscriptions, advertising, promotions.
    Promo,
    /// Parts the page hides (`hidden`, `aria-hidden`, `display: none`).
    Hidden,
    /// Bylines, authors' notes and time stamps (Readability reads the
    /// byline apart from the article).
    Byline,
    /// Captions and photo credits (`figcaption`, caption and credit
    /// classes), galleries, slideshows and carousels: words about pictures
    /// (article-extraction benchmarks leave them out of the article; the
    /// article's own pictures stay).
    Media,
    /// The article's heading where it repeats the page's `<title>` (the
    /// header's `#Title` holds it).
    Title,
    /// Blocks of mostly links, and paragraphs that are a link.
    LinkList,
    /// Parts outside the article that say nothing of what they are.
    LowText,
}

impl Kind {
    /// The kind's stable name, as reports print it.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Nav => "nav",
            Kind::Aside => "aside",
            Kind::Header => "header",
            Kind::Footer => "footer",
            Kind::Form => "form",
            Kind::Comments => "comments",
            Kind::Share => "share",
            Kind::Related => "related",
            Kind::Consent => "consent",
            Kind::Promo => "promo",
            Kind::Hidden => "hidden",
            Kind::Media => "media",
            Kind::Byline => "byline",
            Kind::Title => "title",
            Kind::LinkList => "link-list",
            Kind::LowText => "low-text",
        }
    }
}

/// What the main-content selection kept and dropped.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MainContent {
    /// The element that holds the article (its name, and its source line),
    /// or `None` when no part of the page stood out as one and the whole
    /// page was kept.
    pub root: Option<(String, u32)>,
    /// The parts dropped, by kind (`nav`, `footer`, `link-list`, ...): how
    /// many of each held text.
    pub dropped: BTreeMap<&'static str, usize>,
    /// How many characters of text (white space not counted) were dropped.
    pub dropped_chars: usize,
    /// How many characters of text (white space not counted) were kept.
    pub kept_chars: usize,
}

impl MainContent {
    /// How many parts were dropped, of all kinds.
    pub fn dropped_count(&self) -> usize {
        self.dropped.values().sum()
    }
}

impl fmt::Display for MainContent {
    /// `main content: <article> on line 12, 4,210 characters kept; dropped
    /// 7 parts, 2,001 characters: footer, link-list x3, nav x3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.root {
            Some((name, line)) => write!(
                f,
                "main content: <{name}> on line {line}, {} characters kept",
                self.kept_chars
            )?,
            None => write!(
                f,
                "main content: no part stands out, the whole page is kept ({} characters)",
                self.kept_chars
            )?,
        }
        if !self.dropped.is_empty() {
            let parts: Vec<String> = self
                .dropped
                .iter()
                .map(|(kind, n)| {
                    if *n == 1 {
                        (*kind).to_owned()
                    } else {
                        format!("{kind} x{n}")
                    }
                })
                .collect();
            write!(
                f,
                "; dropped {} part{}, {} characters: {}",
                self.dropped_count(),
                if self.dropped_count() == 1 { "" } else { "s" },
                self.dropped_chars,
                parts.join(", ")
            )?;
        }
        Ok(())
    }
}

/// The selection: which subtrees the mapping skips, and the report.
#[derive(Debug, Default)]
pub(crate) struct Selection {
    /// One per node of the arena: the mapping skips the node and all that
    /// is inside it.
    pub(crate) skip: Vec<bool>,
    /// What was kept and dropped.
    pub(crate) report: MainContent,
}

/// Parts dropped so far, and the marks for the mapping.
struct Drops<'a> {
    m: &'a Measures,
    skip: Vec<bool>,
    report: MainContent,
}

impl Drops<'_> {
    /// Drops the subtree at `id` as `kind` (a part without text is dropped
    /// without being counted: it holds nothing a reader reads).
    fn drop_part(&mut self, id: NodeId, kind: Kind) {
        let Some(slot) = self.skip.get_mut(id as usize) else {
            return;
        };
        if *slot {
            return;
        }
        *slot = true;
        let text = self.m.get(id).text as usize;
        if text > 0 {
            *self.report.dropped.entry(kind.as_str()).or_insert(0) += 1;
            self.report.dropped_chars += text;
        }
    }
}

/// Chooses the main content of `arena`'s body.
pub(crate) fn select(arena: &Arena) -> Selection {
    let m = measure::measure(arena);
    let body_text = m.get(m.body).text as usize;
    let Some(chosen) = choose::choose(arena, &m) else {
        return Selection {
            skip: Vec::new(),
            report: MainContent {
                kept_chars: body_text,
                ..MainContent::default()
            },
        };
    };
    let mut drops = Drops {
        m: &m,
        skip: vec![false; arena.nodes.len()],
        report: MainContent::default(),
    };
    let kept: Vec<NodeId> = if chosen.children.is_empty() {
        vec![chosen.root]
    } else {
        chosen.children.clone()
    };
    let heading = title_heading(arena, &m, chosen.root);
    let repeats = heading.filter(|&h| repeats_title(arena, h));
    let title = heading.filter(|_| repeats.is_none());
    let mut roots = kept.clone();
    roots.extend(title.filter(|t| !kept.iter().any(|k| arena.contains(*k, *t))));
    drop_outside(arena, &mut drops, &roots);
    if let Some(h) = repeats {
        drops.drop_part(h, Kind::Title);
    }
    for &root in &kept {
        prune::prune(arena, &mut drops, root);
    }
    if let Some(t) = title {
        keep_through(arena, &mut drops, t);
    }
    let mut report = drops.report;
    report.kept_chars = body_text.saturating_sub(report.dropped_chars);
    report.root = arena
        .node(chosen.root)
        .zip(arena.element(chosen.root))
        .map(|(n, e)| (e.name.local.to_string(), n.line));
    Selection {
        skip: drops.skip,
        report,
    }
}

/// The kind of a part dropped from outside the article: what its markup
/// says, else a list of links, else text that says nothing of itself.
fn outside_kind(m: &Measures, id: NodeId) -> Kind {
    let own = m.get(id);
    own.signal.kind.unwrap_or(if own.link_density() >= 0.5 {
        Kind::LinkList
    } else {
        Kind::LowText
    })
}

/// Drops everything of the body but `roots` and their ancestors: each
/// child of an ancestor that leads to no root.
fn drop_outside(arena: &Arena, drops: &mut Drops<'_>, roots: &[NodeId]) {
    let body = drops.m.body;
    let mut path: HashSet<NodeId> = HashSet::new();
    for &root in roots {
        let mut up = arena.node(root).map_or(NONE, |n| n.parent);
        while up != NONE && path.insert(up) && up != body {
            up = arena.node(up).map_or(NONE, |n| n.parent);
        }
    }
    let mut path: Vec<NodeId> = path.into_iter().collect();
    path.sort_unstable();
    for &a in &path {
        if !arena.contains(body, a) {
            continue;
        }
        let mut child = arena.node(a).map_or(NONE, |n| n.first_child);
        while let Some(node) = arena.node(child) {
            let id = child;
            child = node.next;
            if roots.contains(&id) || path.binary_search(&id).is_ok() {
                continue;
            }
            let kind = outside_kind(drops.m, id);
            drops.drop_part(id, kind);
        }
    }
}

/// Keeps `title` though a part around it was dropped inside the article (a
/// `header` that holds it): that part is kept along the path down to the
/// title, and all else in it stays dropped.
fn keep_through(arena: &Arena, drops: &mut Drops<'_>, title: NodeId) {
    let mut path = Vec::new();
    let mut up = title;
    let mut highest = NONE;
    while up != NONE && up != drops.m.body {
        path.push(up);
        if drops.skip.get(up as usize) == Some(&true) {
            highest = up;
        }
        up = arena.node(up).map_or(NONE, |n| n.parent);
    }
    if highest == NONE {
        return;
    }
    // From the highest dropped part down to the title: its other children
    // stay dropped (already counted with the part).
    let Some(from) = path.iter().position(|&p| p == highest) else {
        return;
    };
    for (i, &a) in path.iter().enumerate().take(from + 1).skip(1) {
        let next_down = path.get(i - 1).copied().unwrap_or(NONE);
        if let Some(s) = drops.skip.get_mut(a as usize) {
            *s = false;
        }
        let mut child = arena.node(a).map_or(NONE, |n| n.first_child);
        while let Some(node) = arena.node(child) {
            if child != next_down
                && let Some(s) = drops.skip.get_mut(child as usize)
            {
                *s = true;
            }
            child = node.next;
        }
    }
    if let Some(s) = drops.skip.get_mut(title as usize) {
        *s = false;
    }
}

/// Characters of text between the end of a title and the start of the
/// article that still count as "just before" it (a byline, a date, share
/// buttons).
const TITLE_GAP: u32 = 400;

/// The article's title: the last `h1` that ends at most [`TITLE_GAP`]
/// characters before the article starts, or the first `h1` inside it.
fn title_heading(arena: &Arena, m: &Measures, root: NodeId) -> Option<NodeId> {
    let start = m.get(root).start;
    let end = start.saturating_add(m.get(root).text);
    let mut found = None;
    for &(id, level) in &m.headings {
        if level != 1 {
            continue;
        }
        let h = m.get(id);
        if h.text == 0 || h.signal.strong {
            continue;
        }
        let h_end = h.start.saturating_add(h.text);
        if h.start >= start && h_end <= end && arena.contains(root, id) {
            return Some(id);
        }
        if h_end <= start && start - h_end <= TITLE_GAP {
            found = Some(id);
        }
    }
    found
}

/// The page's title as `#Title` takes it: the text of the first `<title>`
/// that has some (the builder's rule, `build/head.rs`).
fn page_title(arena: &Arena) -> Option<String> {
    arena.nodes.iter().enumerate().find_map(|(id, node)| {
        let Data::Element(e) = &node.data else {
            return None;
        };
        if e.tag != Tag::Title {
            return None;
        }
        let text = arena.child_text(NodeId::try_from(id).ok()?);
        (!text.trim().is_empty()).then_some(text)
    })
}

/// The share of a heading's word characters that must be words of the
/// page's title for the heading to repeat it (Readability's 0.75).
const REPEATS: f32 = 0.75;

/// Whether the heading `h` repeats the page's title: most of its words
/// (counted in characters) are words of the title. Words are runs of
/// letters and digits, compared without case.
fn repeats_title(arena: &Arena, h: NodeId) -> bool {
    let Some(title) = page_title(arena) else {
        return false;
    };
    let words = |s: &str| -> Vec<String> {
        s.split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect()
    };
    let in_title: HashSet<String> = words(&title).into_iter().collect();
    let heading = words(&arena.text_of(h));
    let all: usize = heading.iter().map(|w| w.chars().count()).sum();
    let shared: usize = heading
        .iter()
        .filter(|w| in_title.contains(*w))
        .map(|w| w.chars().count())
        .sum();
    all > 0 && shared as f32 >= REPEATS * all as f32
}
