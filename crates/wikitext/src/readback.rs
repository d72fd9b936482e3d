//! Reading written text back, for the writer: the only module that parses
//! what the writer wrote.
//!
//! In the seed's format text that looks like markup is markup, so the
//! writer must know what its text reads as. It asks here, in three sizes:
//!
//! - *Quickly, without reading* ([`cannot_misread`]): a run whose text
//!   holds no character that could start or end inline markup, and whose
//!   markup obeys rules 1 to 3 at its edges, reads back as itself. Most runs
//!   pass this test.
//! - *A run* ([`read_run`], [`reads_as`], [`read_run_at`]): the text of one
//!   run read with the inline parser alone (seed 000 "Inline Elements",
//!   steps 1 to 3), linear in the run.
//! - *A part* ([`read_part`]): the text of a group of top-level blocks the
//!   renderer marked doubtful, read alone as a document. Top-level blocks
//!   are separated by an empty line at the first column, which closes
//!   everything, so a part reads the same alone as in its document (blocks
//!   written without that empty line between them are read together).
//!   In debug builds the writer also reads its whole text ([`read_whole`]).
//!
//! Where what was meant and what reads back differ, [`differences`] and
//! [`misread`] say so in words, at the position of the node concerned;
//! what to do about it is `canon`'s decision. This module parses with
//! `inline` and `parse` and knows the model; it knows nothing of how text
//! is rendered or repaired.

use std::mem;

use crate::events::Events;
use crate::grammar::declarations;
use crate::inline::{Mode, Places, Syntax, parse_inlines, text_events};
use crate::model::{Block, DefItem, Inline, Metadata, Pos};
use crate::scan::{clean_edges, is_side_char};

/// Characters that can start or end inline markup (seed 000 steps 1 and 2):
/// `_`, `*`, `'` with the right neighbours, the brackets of links and
/// addresses (and forced breaks, `<br>`) anywhere, a `!` at the end (it
/// would make a link that follows an image) and a `^` or `~` before a `{`
/// or at the end (a superscript or subscript, `#Extend subsup`).
fn live(text: &str, pre: bool) -> bool {
    let bytes = text.as_bytes();
    if matches!(bytes.last(), Some(b'!' | b'^' | b'~')) {
        return true;
    }
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'[' | b']' => return true,
            b'^' | b'~' if bytes.get(i + 1) == Some(&b'{') => return true,
            // Addresses are not read in preformatted text.
            b'<' | b'>' if !pre => return true,
            b'_' | b'*' | b'\'' => {
                if b == b'\'' && pre {
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

/// A conservative test that a run reads back as itself when written
/// without escapes (in a line of preformatted text when `pre`): its text holds no
/// live markup character, and each element's markup has a side character
/// (or another element's markup) on its outer sides, its content obeys
/// rules 1 and 2 at its edges, and it holds no element of its own kind.
pub(crate) fn cannot_misread(run: &[Inline], pre: bool) -> bool {
    // (run, enclosing kinds as a bit set) on an explicit stack, which is
    // only allocated when an element holds a run (most runs hold none).
    let mut stack: Vec<(&[Inline], u8)> = Vec::new();
    let mut first = Some((run, 0));
    while let Some((run, kinds)) = first.take().or_else(|| stack.pop()) {
        for (i, node) in run.iter().enumerate() {
            let kind = match node {
                Inline::Text { text, .. } => {
                    if live(text, pre) {
                        return false;
                    }
                    continue;
                }
                // Preformatted text writes a line division as a space.
                Inline::LineBreak { .. } if pre => return false,
                Inline::LineBreak { .. } => continue,
                // A forced break, superscripts and subscripts are read back
                // (rare, and their spelling has more ways to go wrong).
                Inline::HardBreak { .. }
                | Inline::Superscript { .. }
                | Inline::Subscript { .. } => return false,
                // An address or a link value can hold characters that end
                // the markup around it (`'` in a URL inside code).
                Inline::Email { address, .. } => {
                    if live(address, pre) {
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
                        .any(|v| v.as_deref().is_some_and(|v| live(v, pre)))
                    {
                        return false;
                    }
                    8
                }
                // No images in preformatted text; braces after an image
                // could be read as its size.
                Inline::Image { src, .. } => {
                    let braces = matches!(run.get(i + 1), Some(Inline::Text { text, .. }) if text.starts_with('{'));
                    if pre || braces || live(src, pre) {
                        return false;
                    }
                    16
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

/// The inline pass's mode for a line of preformatted text or not.
fn mode(pre: bool) -> Mode {
    if pre {
        Mode::Preformatted
    } else {
        Mode::Normal
    }
}

/// What the inline pass reads `text` as (one fragment, positions unknown).
pub(crate) fn read_run(text: &str, pre: bool, syntax: Syntax) -> Vec<Inline> {
    parse_inlines(text, Places::Unknown, mode(pre), syntax)
}

/// What the inline pass reads `text` as in pure seed text, with positions
/// counted from `pos`.
pub(crate) fn read_run_at(text: &str, pre: bool, pos: Pos) -> Vec<Inline> {
    let places = Places::From(pos.line, pos.column);
    parse_inlines(text, places, mode(pre), Syntax::SEED)
}

/// Whether `text` reads as `run`: `read_run(text, pre, syntax) == run`,
/// comparing events as they come instead of building the run.
pub(crate) fn reads_as(text: &str, pre: bool, syntax: Syntax, run: &[Inline]) -> bool {
    let mut events = Vec::new();
    text_events(text, Places::Unknown, mode(pre), syntax, &mut events);
    // The pass never yields two text events in a row nor an empty one,
    // as a run of the model holds none.
    let mut read = events.into_iter().map(|(event, _)| event);
    let mut expected = Events::of_run(run).map(|(event, _)| event);
    loop {
        match (read.next(), expected.next()) {
            (None, None) => return true,
            (Some(a), Some(b)) if a == b => {}
            _ => return false,
        }
    }
}

/// What the text of a part of a document (a group of top-level blocks)
/// reads as alone, in a document that declares what `syntax` says, the
/// `open` feature when `open` and the `table` feature when `tables`.
pub(crate) fn read_part(part: &str, syntax: Syntax, (open, tables): (bool, bool)) -> Vec<Block> {
    let declared = Metadata {
        image: syntax.images,
        table: tables,
        breaks: syntax.breaks,
        subsup: syntax.subsup,
        figure: syntax.figures,
        escape: syntax.escapes,
        open,
        ..Metadata::default()
    };
    let mut header = String::new();
    for line in declarations(&declared) {
        header.push_str(line);
        header.push('\n');
    }
    header.push('\n');
    crate::parse::parse(&format!("{header}{part}"))
        .document
        .body
}

/// What a whole written text reads as, for the writer's debug assertion
/// that its text reads back as its document (release builds leave that
/// check to the tests).
#[cfg(debug_assertions)]
pub(crate) fn read_whole(text: &str) -> crate::model::Document {
    crate::parse::parse(text).document
}

/// Calls `report` with a message and a position for each place where the
/// blocks `got` (what was read back) differ from `want` (what was meant),
/// in document order; `parent` is where an extra block is reported.
pub(crate) fn differences(
    want: &[Block],
    got: &[Block],
    parent: Pos,
    report: impl FnMut(String, Pos),
) {
    Differences { report }.blocks(want, got, parent);
}

/// The message for a run that was meant as `want` and reads as `got`;
/// `what` names the run ("this heading").
pub(crate) fn misread(what: &str, want: &[Inline], got: &[Inline]) -> String {
    format!(
        "{what} reads back differently: {} is read as {}",
        describe_from(want, got),
        describe_from(got, want)
    )
}

/// Reports where blocks read back differently, each as a message and the
/// position of what was written, in document order (see [`differences`]).
struct Differences<F> {
    report: F,
}

impl<F: FnMut(String, Pos)> Differences<F> {
    fn difference(&mut self, message: String, pos: Pos) {
        (self.report)(message, pos);
    }

    fn inlines(&mut self, what: &str, want: &[Inline], got: &[Inline], pos: Pos) {
        if want != got {
            self.difference(misread(what, want, got), pos);
        }
    }

    fn blocks(&mut self, want: &[Block], got: &[Block], parent: Pos) {
        let n = want.len().max(got.len());
        for i in 0..n {
            let (w, g) = match (want.get(i), got.get(i)) {
                (Some(w), Some(g)) => (w, g),
                (Some(w), None) => {
                    self.difference(
                        format!(
                            "a {} does not read back (it merges with what comes before)",
                            w.kind_name()
                        ),
                        w.pos(),
                    );
                    return;
                }
                (None, Some(g)) => {
                    self.difference(
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
                    self.difference(
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
                self.difference(
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
                self.difference(
                    format!(
                        "a definition list of {} items reads back with {} items",
                        a.len(),
                        b.len()
                    ),
                    pos,
                );
            }
            _ => {
                self.difference(
                    format!("a {} reads back as a {}", w.kind_name(), g.kind_name()),
                    pos,
                );
                return false;
            }
        }
        true
    }

    fn definition_items(&mut self, ca: bool, cb: bool, a: &[DefItem], b: &[DefItem], pos: Pos) {
        if ca != cb {
            let name = |c: bool| if c { "compact" } else { "non-compact" };
            self.difference(
                format!("a {} definition list reads back as {}", name(ca), name(cb)),
                pos,
            );
        }
        for (x, y) in a.iter().zip(b) {
            if x.terms.len() != y.terms.len() {
                self.difference(
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
            Inline::HardBreak { .. } => {
                out.push_str("hard-break");
                continue;
            }
            Inline::Email { address, .. } => {
                out.push_str(&format!("email({address})"));
                continue;
            }
            Inline::Emphasis { .. } => "emphasis",
            Inline::Strong { .. } => "strong",
            Inline::Code { .. } => "code",
            Inline::Superscript { .. } => "superscript",
            Inline::Subscript { .. } => "subscript",
            Inline::Link { .. } => "link",
            Inline::Image { .. } => "image",
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Inline as I;

    fn t(s: &str) -> Inline {
        I::text(s)
    }

    #[test]
    fn reads_as_is_reading_and_comparing() {
        let cases: Vec<(&str, Vec<Inline>)> = vec![
            ("a _b_ c", vec![t("a "), I::emphasis(vec![t("b")]), t(" c")]),
            ("a _b_ c", vec![t("a _b_ c")]),
            // Runs the model calls wrong: two text nodes, an empty one.
            ("ab", vec![t("a"), t("b")]),
            ("ab", vec![t("ab"), t("")]),
            (
                "[u||x] <a@b.de>",
                vec![
                    I::link(Some("u".into()), None, vec![t("x")]),
                    t(" "),
                    I::email("a@b.de"),
                ],
            ),
            (
                "[u||x]",
                vec![I::link(Some("v".into()), None, vec![t("x")])],
            ),
            ("a\nb", vec![t("a"), I::line_break(), t("b")]),
            ("", vec![]),
            ("x", vec![]),
        ];
        for (text, run) in cases {
            for escapes in [false, true] {
                let syntax = Syntax {
                    images: escapes,
                    ..Syntax::SEED.escaping(escapes)
                };
                let tree = read_run(text, false, syntax) == run;
                assert_eq!(
                    reads_as(text, false, syntax, &run),
                    tree,
                    "{text:?} {run:?}"
                );
            }
        }
    }
}
