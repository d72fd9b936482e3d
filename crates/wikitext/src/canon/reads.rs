//! What written text reads back as, decided locally.
//!
//! In the seed's format text that looks like markup is markup. Two local
//! checks find where a document says something its text cannot; with the
//! escape extension on ([`Escapes::WhenNeeded`](super::Escapes)) that part
//! is escaped, and otherwise, or where no escape helps (markup touching a
//! letter, rule 3), it is replaced with what the text says, so that the
//! writer can render the result in one pass and it reads back as itself:
//!
//! - *Runs.* A run whose text holds no character that could start or end
//!   inline markup, and whose markup obeys rules 1 to 3 at its edges, reads
//!   back as itself ([`cannot_misread`]). Any other run is written and read
//!   again with the inline parser alone (seed 000 "Inline Elements", steps
//!   1 to 3), which is linear in the run. With escapes on, this is the
//!   writer's job instead, done once as it spells the run
//!   (`crate::escape`); a run no escape can save marks the rendering, and
//!   its part is read back as lines are.
//! - *Lines.* As the writer renders the document (once), it runs each line
//!   it writes as text through the block scanners, and notes a top-level
//!   block in which a line could read as a heading, rule, term, compact item
//!   or bullet, or in which an empty line was both needed and forbidden.
//!   Only such a block's part of the text is read again, alone. With
//!   escapes, a part that reads differently is rendered again with its
//!   doubtful lines escaped (the line check is conservative, so an escape is
//!   written only where reading shows the need); what still reads
//!   differently is replaced by what it reads as. Top-level blocks are
//!   separated by an empty line at the first column, which closes
//!   everything, so a part reads the same alone as in its document (blocks
//!   written without that empty line between them are read together).
//!
//! Every difference is an error at the position of the node it is about.

use std::mem;

use crate::inline::{Mode, Seg, parse_inlines};
use crate::model::{Block, Document, Inline, Pos};
use crate::scan::is_side_char;
use crate::write::Rendered;

use super::blocks::{Merge, push_merging};
use super::inlines::clean_edges;
use super::{Ctx, Fixer};

/// What a run is, for messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Role {
    /// The text of a paragraph.
    Paragraph,
    /// The text of a bare text block.
    Text,
    /// The title of a heading.
    Heading,
    /// A definition term.
    Term,
    /// A line of preformatted text.
    PreLine,
}

impl Role {
    fn what(self) -> &'static str {
        match self {
            Role::Paragraph => "the text of this paragraph",
            Role::Text => "the text of this text block",
            Role::Heading => "this heading",
            Role::Term => "a definition term",
            Role::PreLine => "a line of preformatted text",
        }
    }
}

/// The run as its written text reads back: the run itself when it cannot
/// be misread, else what the inline parser makes of its text (with an
/// error where that differs).
pub(super) fn as_read(
    run: Vec<Inline>,
    ctx: Ctx,
    role: Role,
    pos: Pos,
    fixer: &mut Fixer,
) -> Vec<Inline> {
    if cannot_misread(&run, ctx) {
        return run;
    }
    let pre = ctx == Ctx::Pre;
    // A line of preformatted text holds no line division: the writer
    // writes one as a space.
    let mut text = String::new();
    crate::write::render_run(&run, pre, 0, &mut text);
    let segs = [Seg {
        src: "",
        offset: 0,
        line: pos.line,
        col: pos.column,
    }];
    let mode = if pre {
        Mode::Preformatted
    } else {
        Mode::Normal
    };
    let read = parse_inlines(&text, &segs, mode, false);
    if read == run {
        return read;
    }
    // With escapes on, runs are not read here: the writer reads them as it
    // spells them (`escape::Spell::run`), and `settle` reads back the part
    // of a run no escape can save.
    // At the first node that reads differently, where its position is
    // known (for an ingested page, the line of its HTML text).
    let at = run
        .iter()
        .zip(
            read.iter()
                .chain(std::iter::repeat(&Inline::LineBreak { pos: Pos::UNKNOWN })),
        )
        .find(|(a, b)| a != b)
        .map(|(a, _)| a.pos())
        .filter(Pos::is_known)
        .unwrap_or(pos);
    fixer.difference(
        format!(
            "{} reads back differently: {} is read as {}",
            role.what(),
            describe_from(&run, &read),
            describe_from(&read, &run)
        ),
        at,
    );
    read
}

/// Whether a run certainly reads back as itself when written without
/// escapes (a quick, conservative test; see [`cannot_misread`]).
pub(crate) fn reads_as_itself_quickly(run: &[Inline], pre: bool) -> bool {
    cannot_misread(run, if pre { Ctx::Pre } else { Ctx::Flow })
}

/// Characters that can start or end inline markup (seed 000 steps 1 and 2):
/// `_`, `*`, `'` with the right neighbours, and the brackets of links and
/// addresses anywhere.
fn live(text: &str, ctx: Ctx) -> bool {
    let bytes = text.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'[' | b']' => return true,
            // Addresses are not read in preformatted text.
            b'<' | b'>' if ctx != Ctx::Pre => return true,
            b'_' | b'*' | b'\'' => {
                if b == b'\'' && ctx == Ctx::Pre {
                    continue;
                }
                // A start needs a side character before it (rule 3); an
                // end needs one after it. At the text's edges the neighbour
                // is unknown here: assume the worst.
                let before = text.get(..i).and_then(|s| s.chars().next_back());
                let after = text.get(i + 1..).and_then(|s| s.chars().next());
                if is_side_char(before) || is_side_char(after) {
                    return true;
                }
            }
            _ => {}
        }
    }
    false
}

/// A conservative test that a run reads back as itself: its text holds no
/// live markup character, and each element's markup has a side character
/// (or another element's markup) on its outer sides, its content obeys
/// rules 1 and 2 at its edges, and it holds no element of its own kind.
fn cannot_misread(run: &[Inline], ctx: Ctx) -> bool {
    // (run, enclosing kinds as a bit set) on an explicit stack, which is
    // only allocated when an element holds a run (most runs hold none).
    let mut stack: Vec<(&[Inline], u8)> = Vec::new();
    let mut first = Some((run, 0));
    while let Some((run, kinds)) = first.take().or_else(|| stack.pop()) {
        for (i, node) in run.iter().enumerate() {
            let kind = match node {
                Inline::Text { text, .. } => {
                    if live(text, ctx) {
                        return false;
                    }
                    continue;
                }
                // Preformatted text writes a line division as a space.
                Inline::LineBreak { .. } if ctx == Ctx::Pre => return false,
                Inline::LineBreak { .. } => continue,
                // An address or a link value can hold characters that end
                // the markup around it (`'` in a URL inside code).
                Inline::Email { address, .. } => {
                    if live(address, ctx) {
                        return false;
                    }
                    0
                }
                Inline::Emphasis { .. } => 1,
                Inline::Strong { .. } => 2,
                Inline::Code { .. } => 4,
                Inline::Link { url, fragment, .. } => {
                    let values = [url, fragment];
                    if values
                        .iter()
                        .any(|v| v.as_deref().is_some_and(|v| live(v, ctx)))
                    {
                        return false;
                    }
                    8
                }
            };
            if kind != 0 && kinds & kind != 0 {
                return false;
            }
            let before = i.checked_sub(1).and_then(|j| run.get(j));
            let after = run.get(i + 1);
            if !outer_side(before, true) || !outer_side(after, false) {
                return false;
            }
            // `_a__b_` is one emphasis: a neighbour of the same kind joins.
            let same = |n: Option<&Inline>| {
                n.is_some_and(|n| mem::discriminant(n) == mem::discriminant(node))
            };
            if kind != 0 && (same(before) || same(after)) {
                return false;
            }
            if let Some(children) = node.children() {
                if !clean_edges(children) {
                    return false;
                }
                stack.push((children, kinds | kind));
            }
        }
    }
    true
}

/// Rule 3 outside an element: what stands next to its markup is white
/// space, punctuation, a line division, another element or nothing.
fn outer_side(node: Option<&Inline>, before: bool) -> bool {
    match node {
        Some(Inline::Text { text, .. }) => {
            let c = if before {
                text.chars().next_back()
            } else {
                text.chars().next()
            };
            is_side_char(c)
        }
        _ => true,
    }
}

/// Renders the document in one pass; where a top-level block (with the
/// blocks glued to it) has a line that could read as other structure, reads
/// that part of the text again on its own. With escapes, a part that reads
/// differently is rendered again with its doubtful lines escaped (the line
/// check alone is conservative, so lines are escaped only where reading
/// shows the need). Where a part still reads differently, what it reads as
/// takes the block's place (see the module documentation). Returns the
/// document and its text.
pub(super) fn settle(mut doc: Document, fixer: &mut Fixer) -> (Document, String) {
    let escapes = fixer.escapes();
    // The text's own choice (canon kept it); a rendering may add to it.
    let chosen = doc.meta.escape;
    let (r, lines) = render_escaping_lines(&doc, escapes);
    doc.meta.escape = r.escapes;
    if !r.tops.iter().any(|m| m.suspect) {
        return (doc, r.text);
    }
    let Document { meta, body } = doc;
    let n = body.len();
    let mut blocks = body.into_iter();
    let mut out = Vec::with_capacity(n);
    let mut changed = false;
    for (i, j) in groups(&r.tops, n) {
        let group: Vec<Block> = blocks.by_ref().take(j - i).collect();
        let read = if lines.is_empty() || lines.get(i).copied().unwrap_or(false) {
            read_part(&r, i, j).filter(|read| *read != group)
        } else {
            // Read already, and read back as written.
            None
        };
        let pos = group.first().map_or(Pos::UNKNOWN, Block::pos);
        let placed: Vec<Block> = match read {
            Some(read) => {
                Differences { fixer }.blocks(&group, &read, pos);
                changed = true;
                read.into_iter().map(|b| b.at(pos)).collect()
            }
            None => group,
        };
        for block in placed {
            push_merging(&mut out, block, Merge::ReadBack, fixer);
        }
    }
    let mut doc = Document { meta, body: out };
    if !changed {
        return (doc, r.text);
    }
    doc.meta.escape = chosen;
    // What was read renders as itself: one more pass writes it, deciding
    // afresh which lines need escapes, as writing it again would.
    let (again, _) = render_escaping_lines(&doc, escapes);
    doc.meta.escape = again.escapes;
    (doc, again.text)
}

/// Renders the document; with escapes, where a suspect group of top-level
/// blocks reads back differently, renders it again with the doubtful lines
/// of those groups escaped. Returns the rendering and the groups' flags
/// (empty when no second rendering was made).
fn render_escaping_lines(doc: &Document, escapes: bool) -> (Rendered, Vec<bool>) {
    // The second rendering differs in its line escapes only: the runs
    // spelled for the first are not spelled again.
    let memo = crate::escape::Memo::for_document(doc);
    let r = crate::write::render(doc, escapes, &[], &memo);
    if !escapes || !r.tops.iter().any(|m| m.suspect) {
        return (r, Vec::new());
    }
    let mut lines = vec![false; doc.body.len()];
    let mut any = false;
    for (i, j) in groups(&r.tops, doc.body.len()) {
        if read_part(&r, i, j).is_some_and(|read| doc.body.get(i..j) != Some(&read[..])) {
            any = true;
            for flag in lines.get_mut(i..j).unwrap_or_default() {
                *flag = true;
            }
        }
    }
    if !any {
        return (r, Vec::new());
    }
    let again = crate::write::render(doc, escapes, &lines, &memo);
    (again, lines)
}

/// The top-level blocks in groups `[i, j)` that are read together (the
/// blocks glued to the one before them).
fn groups(tops: &[crate::write::TopMark], n: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < n {
        let mut j = i + 1;
        while tops.get(j).is_some_and(|m| m.glued) {
            j += 1;
        }
        out.push((i, j));
        i = j;
    }
    out
}

/// What the part of the text of a suspect group of top-level blocks reads
/// as, alone (with escapes when the text declares them); `None` when the
/// group is not suspect.
fn read_part(r: &Rendered, i: usize, j: usize) -> Option<Vec<Block>> {
    let suspect = r
        .tops
        .get(i..j)
        .is_some_and(|g| g.iter().any(|m| m.suspect));
    if !suspect {
        return None;
    }
    let start = r.tops.get(i).map_or(r.text.len(), |m| m.start);
    let end = r.tops.get(j).map_or(r.text.len(), |m| m.start);
    let part = r.text.get(start..end)?;
    let header = if r.escapes {
        format!("{}\n\n", crate::grammar::ESCAPE_DECLARATION)
    } else {
        "\n".to_owned()
    };
    Some(crate::parse(&format!("{header}{part}")).document.body)
}

/// Reports where blocks read back differently, at the position of what was
/// written.
struct Differences<'f> {
    fixer: &'f mut Fixer,
}

impl Differences<'_> {
    fn inlines(&mut self, what: &str, want: &[Inline], got: &[Inline], pos: Pos) {
        if want != got {
            self.fixer.difference(
                format!(
                    "{what} reads back differently: {} is read as {}",
                    describe_from(want, got),
                    describe_from(got, want)
                ),
                pos,
            );
        }
    }

    fn blocks(&mut self, want: &[Block], got: &[Block], parent: Pos) {
        let n = want.len().max(got.len());
        for i in 0..n {
            let (w, g) = match (want.get(i), got.get(i)) {
                (Some(w), Some(g)) => (w, g),
                (Some(w), None) => {
                    self.fixer.difference(
                        format!(
                            "a {} does not read back (it merges with what comes before)",
                            w.kind_name()
                        ),
                        w.pos(),
                    );
                    return;
                }
                (None, Some(g)) => {
                    self.fixer.difference(
                        format!("an extra {} reads back here", g.kind_name()),
                        parent,
                    );
                    return;
                }
                (None, None) => return,
            };
            if w != g && !self.block(w, g) {
                return;
            }
        }
    }

    /// Compares two blocks; false when the rest of their container is not
    /// worth comparing.
    fn block(&mut self, w: &Block, g: &Block) -> bool {
        let pos = w.pos();
        match (w, g) {
            (Block::Paragraph { content: a, .. }, Block::Paragraph { content: b, .. })
            | (Block::Text { content: a, .. }, Block::Text { content: b, .. }) => {
                self.inlines(&format!("the text of this {}", w.kind_name()), a, b, pos);
            }
            (Block::Heading { content: a, .. }, Block::Heading { content: b, .. }) => {
                self.inlines("this heading", a, b, pos);
            }
            (Block::Preformatted { lines: a, .. }, Block::Preformatted { lines: b, .. }) => {
                if a.len() == b.len() {
                    for (x, y) in a.iter().zip(b) {
                        self.inlines("a line of preformatted text", x, y, pos);
                    }
                } else {
                    self.fixer.difference(
                        format!(
                            "preformatted text of {} lines reads back with {}",
                            a.len(),
                            b.len()
                        ),
                        pos,
                    );
                }
            }
            (Block::Blockquote { content: a, .. }, Block::Blockquote { content: b, .. }) => {
                self.blocks(a, b, pos);
            }
            (
                Block::List {
                    kind: ka, items: a, ..
                },
                Block::List {
                    kind: kb, items: b, ..
                },
            ) if ka == kb && a.len() == b.len() => {
                for (x, y) in a.iter().zip(b) {
                    self.blocks(&x.content, &y.content, x.pos);
                }
            }
            (Block::List { items: a, .. }, Block::List { items: b, .. }) => {
                self.fixer.difference(
                    format!(
                        "a list of {} items reads back as a different list ({} items)",
                        a.len(),
                        b.len()
                    ),
                    pos,
                );
            }
            (
                Block::DefinitionList {
                    compact: ca,
                    items: a,
                    ..
                },
                Block::DefinitionList {
                    compact: cb,
                    items: b,
                    ..
                },
            ) if a.len() == b.len() => self.definition_items(*ca, *cb, a, b, pos),
            (Block::DefinitionList { items: a, .. }, Block::DefinitionList { items: b, .. }) => {
                self.fixer.difference(
                    format!(
                        "a definition list of {} items reads back with {} items",
                        a.len(),
                        b.len()
                    ),
                    pos,
                );
            }
            _ => {
                self.fixer.difference(
                    format!("a {} reads back as a {}", w.kind_name(), g.kind_name()),
                    pos,
                );
                return false;
            }
        }
        true
    }

    fn definition_items(
        &mut self,
        ca: bool,
        cb: bool,
        a: &[crate::model::DefItem],
        b: &[crate::model::DefItem],
        pos: Pos,
    ) {
        if ca != cb {
            let name = |c: bool| if c { "compact" } else { "non-compact" };
            self.fixer.difference(
                format!("a {} definition list reads back as {}", name(ca), name(cb)),
                pos,
            );
        }
        for (x, y) in a.iter().zip(b) {
            if x.terms.len() != y.terms.len() {
                self.fixer.difference(
                    format!(
                        "a definition item with {} terms reads back with {}",
                        x.terms.len(),
                        y.terms.len()
                    ),
                    x.pos,
                );
                continue;
            }
            for (s, t) in x.terms.iter().zip(&y.terms) {
                self.inlines("a definition term", &s.content, &t.content, s.pos);
            }
            self.blocks(&x.definition, &y.definition, x.pos);
        }
    }
}

/// A short description of inlines for messages: `"text"`, `emphasis[...]`.
/// Iterative, and it stops after about 80 bytes.
fn describe(run: &[Inline], out: &mut String) {
    // (run, index, closing bracket needed after it)
    let mut stack: Vec<(&[Inline], usize)> = vec![(run, 0)];
    while let Some((run, i)) = stack.pop() {
        let Some(node) = run.get(i) else {
            if !stack.is_empty() {
                out.push(']');
            }
            continue;
        };
        if out.len() > 80 {
            out.push('…');
            return;
        }
        stack.push((run, i + 1));
        if i > 0 {
            out.push(' ');
        }
        let name = match node {
            Inline::Text { text, .. } => {
                out.push_str(&format!("{text:?}"));
                continue;
            }
            Inline::LineBreak { .. } => {
                out.push_str("line-break");
                continue;
            }
            Inline::Email { address, .. } => {
                out.push_str(&format!("email({address})"));
                continue;
            }
            Inline::Emphasis { .. } => "emphasis",
            Inline::Strong { .. } => "strong",
            Inline::Code { .. } => "code",
            Inline::Link { .. } => "link",
        };
        out.push_str(name);
        out.push('[');
        stack.push((node.children().map_or(&[][..], Vec::as_slice), 0));
    }
}

/// The description of `run` from its first difference with `other` on.
fn describe_from(run: &[Inline], other: &[Inline]) -> String {
    let first_diff = run
        .iter()
        .zip(other.iter())
        .position(|(a, b)| a != b)
        .unwrap_or(run.len().min(other.len()));
    let mut s = String::new();
    describe(run.get(first_diff..).unwrap_or(&[]), &mut s);
    if s.is_empty() {
        s.push_str("nothing");
    }
    s
}
