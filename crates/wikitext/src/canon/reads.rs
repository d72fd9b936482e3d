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

use crate::model::{Block, Document, Inline, Pos};
use crate::readback::{self, cannot_misread, differences, misread, read_run_at};
use crate::render::Rendered;

use super::blocks::{Merge, push_merging};
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
    let pre = ctx == Ctx::Pre;
    if cannot_misread(&run, pre) {
        return run;
    }
    // A line of preformatted text holds no line division: the writer
    // writes one as a space.
    let mut text = String::new();
    crate::render::render_run(&run, pre, 0, &mut text);
    let read = read_run_at(&text, pre, pos);
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
    fixer.difference(misread(role.what(), &run, &read), at);
    read
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
    for (i, j) in r.groups(n) {
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
                differences(&group, &read, pos, |message, at| {
                    fixer.difference(message, at);
                });
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
    let memo = crate::render::Memo::for_document(doc);
    let r = crate::render::render(doc, escapes, &[], &memo);
    if !escapes || !r.tops.iter().any(|m| m.suspect) {
        return (r, Vec::new());
    }
    let mut lines = vec![false; doc.body.len()];
    let mut any = false;
    for (i, j) in r.groups(doc.body.len()) {
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
    let again = crate::render::render(doc, escapes, &lines, &memo);
    (again, lines)
}

/// What the part of the text of a suspect group of top-level blocks reads
/// as, alone (with escapes when the text declares them); `None` when the
/// group is not suspect.
fn read_part(r: &Rendered, i: usize, j: usize) -> Option<Vec<Block>> {
    r.suspect_part(i, j)
        .map(|part| readback::read_part(part, r.escapes))
}
