//! Where canon makes a document what its text reads as.
//!
//! In the seed's format text that looks like markup is markup. Where a
//! document says something its text cannot, with the escape extension on
//! ([`Escapes::WhenNeeded`](super::Escapes)) the renderer escapes that
//! part, and otherwise, or where no escape helps (markup touching a
//! letter, rule 3), the document is given what its text says, so that it
//! reads back as itself. `readback` does the reading; canon decides and
//! reports, in two places:
//!
//! - *Runs*, under [`Escapes::Never`](super::Escapes), as the walk over
//!   the blocks reaches each run ([`as_read`]): a run that
//!   `readback::cannot_misread` cannot clear is rendered as the renderer
//!   would and read again with the inline parser alone (seed 000 "Inline
//!   Elements", steps 1 to 3), which is linear in the run. With escapes on,
//!   runs are the renderer's job instead, done once as it spells each run;
//!   a run no escape can save marks its top-level block as doubtful.
//! - *Top-level blocks*, after rendering ([`adopt`]): the renderer marks
//!   each top-level block in which a line could read as a heading, rule,
//!   term, compact item or bullet, or in which an empty line was both
//!   needed and forbidden, and the writer has only such a block's part of
//!   the text read again, alone (escaping the doubtful lines of a part
//!   that reads differently, where escapes are on). What still reads
//!   differently replaces the blocks it was written for.
//!
//! Every difference is an error at the position of the node it is about.

use crate::model::{Block, Document, Inline, Pos};
use crate::readback::{cannot_misread, differences, misread, read_run_at};

use super::merge::{Merge, push_merging};
use super::{Ctx, Fixer, Role};

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
    // With escapes on, runs are not read here: the renderer reads them as
    // it spells them (`render/spell.rs`), and the writer reads back the
    // part of a run no escape can save.
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

/// A group of top-level blocks `[start, end)` as the writer read its text
/// back: `read` is what it reads as, when that differs from the blocks.
pub(crate) struct Reading {
    /// The first block of the group.
    pub(crate) start: usize,
    /// One past its last block.
    pub(crate) end: usize,
    /// What its text reads as, when that is not the blocks.
    pub(crate) read: Option<Vec<Block>>,
}

/// Makes the document what its text reads as: each group of top-level
/// blocks (`readings`, in order, covering the body) that reads as
/// something else is replaced by what it reads as, at the position of its
/// first block, with an error for each difference. Returns the document
/// and whether anything was replaced.
pub(crate) fn adopt(doc: Document, readings: Vec<Reading>, fixer: &mut Fixer) -> (Document, bool) {
    let Document { meta, body } = doc;
    let n = body.len();
    let mut blocks = body.into_iter();
    let mut out = Vec::with_capacity(n);
    let mut changed = false;
    for Reading { start, end, read } in readings {
        let group: Vec<Block> = blocks.by_ref().take(end - start).collect();
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
        // Text cannot tell two lists of one type in a row apart: a list
        // read back right after one is part of it.
        for block in placed {
            push_merging(&mut out, block, Merge::ReadBack, fixer);
        }
    }
    (Document { meta, body: out }, changed)
}
