//! The writer: any document to canonical text, as a pipeline whose stages
//! run in one direction, each handing its result to the next:
//!
//! 1. `canon` makes the document one the format holds (repairs and moves,
//!    and under [`Escapes::Never`] what each run reads as), reporting each
//!    change.
//! 2. `render` turns it into text, spelling each run (with escapes where
//!    they are needed and allowed) and marking the top-level blocks in
//!    which a line could read as something else.
//! 3. `readback` reads the text of each marked group of top-level blocks
//!    again, alone. With escapes, the groups that read differently are
//!    rendered again with their doubtful lines escaped, and read again.
//! 4. Rarely, a group still reads as something else (markup touching a
//!    letter, or any doubtful line without escapes): `canon` adopts what it
//!    reads as, reporting each difference, and `render` writes the result
//!    once more, which then reads back as itself.
//!
//! [`canonicalize`] is that pipeline; [`write()`] and its siblings return
//! its text. No module imports an earlier stage: `render` never repairs
//! (to choose a run's escapes it asks `readback` what a spelling reads
//! as), `readback` never renders or repairs, and `canon` renders and reads
//! single runs only (through `render` and `readback`, under
//! [`Escapes::Never`]).

use serde::{Deserialize, Serialize};

use crate::canon::{self, Escapes, Policy, Reading};
use crate::diag::Diagnostic;
use crate::model::{Block, Document};
use crate::readback;
use crate::render::{self, Memo, Rendered};

/// What [`write()`] returns.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Written {
    /// The canonical text.
    pub text: String,
    /// Repairs (info), losses (warning, error) and every place where the
    /// document says what its text cannot (error), at the positions of the
    /// document's nodes.
    pub diagnostics: Vec<Diagnostic>,
    /// Whether `parse(&text).document == document` holds exactly: nothing
    /// had to be repaired and everything reads back the same.
    pub exact: bool,
}

impl Written {
    /// Whether the text reads back as exactly the document that was written.
    pub fn is_exact(&self) -> bool {
        self.exact
    }
}

/// A document the text format holds exactly, with its text, which reads
/// back as this same document. Only [`canonicalize`] makes one.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Canonical {
    doc: Document,
    /// Its text, written while it was made.
    text: String,
}

impl Canonical {
    /// The document.
    pub fn document(&self) -> &Document {
        &self.doc
    }

    /// The document, given up.
    pub fn into_document(self) -> Document {
        self.doc
    }

    /// Its canonical text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The document and its text, given up.
    pub fn into_parts(self) -> (Document, String) {
        (self.doc, self.text)
    }
}

/// What [`canonicalize`] returns.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Canonicalized {
    /// The document as the format holds it.
    pub canonical: Canonical,
    /// Every change, at the position of the node it is about.
    pub diagnostics: Vec<Diagnostic>,
    /// Whether nothing had to change: the canonical document equals the
    /// one given.
    pub exact: bool,
}

/// How many times at most a text is read back and what it reads as is
/// adopted (nearly always once; rarely an adoption changes the layout
/// around it, and one more reading settles it).
const ADOPTION_ROUNDS: usize = 4;

/// Turns any document into one the text format holds exactly, and its
/// text, reporting every change (see the module documentation and
/// [`canon`](crate::canon)). Never fails; linear in the size of the
/// document.
///
/// ```
/// use wikitext::{Block, Document, Inline, canon};
/// let doc = Document {
///     body: vec![Block::paragraph(vec![Inline::text("_x_")])],
///     ..Document::default()
/// };
/// // Literal markup characters are escaped, and the header says so.
/// let done = wikitext::canonicalize(doc.clone(), &canon::Policy::default());
/// assert!(done.exact);
/// assert_eq!(done.canonical.text(), "#Escape \\\n\n\\_x_\n");
/// // Pure seed text cannot say it: the text reads back as emphasis.
/// let seed = canon::Policy { escapes: canon::Escapes::Never, ..canon::Policy::DEFAULT };
/// let done = wikitext::canonicalize(doc, &seed);
/// assert!(!done.exact);
/// let want = vec![Block::paragraph(vec![Inline::emphasis(vec![Inline::text("x")])])];
/// assert_eq!(done.canonical.document().body, want);
/// ```
pub fn canonicalize(doc: Document, policy: &Policy) -> Canonicalized {
    let escapes = policy.escapes == Escapes::WhenNeeded;
    // 1. What the format holds.
    let (mut doc, mut fixer) = canon::repair(doc, policy);
    // The text's own choice (canon kept it); a rendering may add to it.
    let chosen = (doc.meta.escape, doc.meta.open);
    // 2 and 3. Rendered, and the doubtful groups read back.
    let (mut r, mut lines) = render_escaping_lines(&doc, escapes);
    doc.meta.escape = r.escapes;
    doc.meta.open = r.open;
    // 4. What still reads differently is adopted, and rendered again:
    // what was read renders as itself, deciding afresh which lines need
    // escapes, as writing it again would. Adopting one group can change
    // how the text around it is laid out, so the new text is read again,
    // a bounded number of times.
    for _ in 0..ADOPTION_ROUNDS {
        if !r.tops.iter().any(|m| m.suspect) {
            break;
        }
        let readings = read_doubtful(&r, &doc.body, &lines);
        let (adopted, changed) = canon::adopt(doc, readings, &mut fixer);
        doc = adopted;
        if !changed {
            break;
        }
        (doc.meta.escape, doc.meta.open) = chosen;
        let (again, again_lines) = render_escaping_lines(&doc, escapes);
        doc.meta.escape = again.escapes;
        doc.meta.open = again.open;
        (r, lines) = (again, again_lines);
    }
    let text = r.text;
    #[cfg(debug_assertions)]
    {
        let back = readback::read_whole(&text);
        debug_assert!(
            back == doc,
            "a canonical document reads back as itself:\n{text}\n--- canonical\n{}\n--- read back\n{}",
            crate::dump::tree(&doc),
            crate::dump::tree(&back)
        );
    }
    let (diagnostics, exact) = fixer.finish();
    Canonicalized {
        canonical: Canonical { doc, text },
        diagnostics,
        exact,
    }
}

/// Renders the document; with escapes, where a doubtful group of top-level
/// blocks reads back differently, renders it again with the doubtful lines
/// of those groups escaped (the line check alone is conservative, so lines
/// are escaped only where reading shows the need). Returns the rendering
/// and the groups' flags (empty when no second rendering was made).
fn render_escaping_lines(doc: &Document, escapes: bool) -> (Rendered, Vec<bool>) {
    // The second rendering differs in its line escapes only: the runs
    // spelled for the first are not spelled again.
    let memo = Memo::for_document(doc);
    // A text's choice is kept; with escapes allowed, `#Extend open` is
    // declared where a container needs it.
    let open = doc.meta.open || (escapes && render::needs_open(&doc.body));
    let r = render::render(doc, escapes, open, &[], &memo);
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
    let again = render::render(doc, escapes, open, &lines, &memo);
    (again, lines)
}

/// What each group of top-level blocks of `body` reads as where that
/// differs from the blocks, for the doubtful groups that `lines` flags (all
/// of them when it is empty; a group it does not flag read back as written
/// already).
fn read_doubtful(r: &Rendered, body: &[Block], lines: &[bool]) -> Vec<Reading> {
    r.groups(body.len())
        .into_iter()
        .map(|(start, end)| {
            let read = if lines.is_empty() || lines.get(start).copied().unwrap_or(false) {
                let group = body.get(start..end).unwrap_or_default();
                read_part(r, start, end).filter(|read| read[..] != *group)
            } else {
                None
            };
            Reading { start, end, read }
        })
        .collect()
}

/// What the part of the text of a doubtful group of top-level blocks reads
/// as, alone (with escapes when the text declares them); `None` when the
/// group is not doubtful.
fn read_part(r: &Rendered, i: usize, j: usize) -> Option<Vec<Block>> {
    r.suspect_part(i, j).map(|part| {
        let syntax = r.syntax.escaping(r.escapes);
        readback::read_part(part, syntax, (r.open, r.tables))
    })
}

/// Writes a document as canonical text: the text of [`canonicalize`],
/// which makes it what the format holds (reporting every change) and
/// writes it. Never fails.
///
/// The text reads back as the canonical document, so writing is a fixpoint
/// after the first time: `write(parse(write(d)))` equals `write(d)`. For
/// every document that [`parse`](crate::parse) produces nothing changes
/// (`exact` is true).
///
/// ```
/// use wikitext::{Block, Document, Inline};
/// let doc = Document {
///     body: vec![Block::paragraph(vec![Inline::strong(vec![Inline::text("Hi")])])],
///     ..Document::default()
/// };
/// let written = wikitext::write(&doc);
/// assert_eq!(written.text, "\n*Hi*\n");
/// assert!(written.is_exact());
/// ```
pub fn write(doc: &Document) -> Written {
    write_owned(crate::canon::copy::bounded_copy(doc))
}

/// [`write()`] for a document the caller no longer needs: its nodes are
/// moved into the canonical document instead of copied.
///
/// ```
/// use wikitext::{Block, Document, Inline};
/// let doc = Document {
///     body: vec![Block::paragraph(vec![Inline::text("Hi")])],
///     ..Document::default()
/// };
/// assert_eq!(wikitext::write_owned(doc).text, "\nHi\n");
/// ```
pub fn write_owned(doc: Document) -> Written {
    write_with(doc, &Policy::default())
}

/// [`write_owned`] with a [`Policy`] for the repairs that go unreported.
pub fn write_with(doc: Document, policy: &Policy) -> Written {
    let done = canonicalize(doc, policy);
    let (_, text) = done.canonical.into_parts();
    Written {
        text,
        diagnostics: done.diagnostics,
        exact: done.exact,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::{Code, Severity};
    use crate::model::{
        Block, DefItem, Inline, ListItem, ListKind, Meta, Metadata, Numbering, Pos, Term,
    };
    use crate::parse::parse;

    fn t(s: &str) -> Inline {
        Inline::text(s)
    }

    fn body(blocks: Vec<Block>) -> Document {
        Document::new(Metadata::default(), blocks)
    }

    fn codes(w: &Written) -> Vec<Code> {
        w.diagnostics.iter().map(|d| d.code).collect()
    }

    #[test]
    fn white_space_at_markup_edges_moves_outside() {
        let doc = body(vec![Block::paragraph(vec![
            t("a"),
            Inline::emphasis(vec![t(" x ")]),
            t("b"),
        ])]);
        let w = write(&doc);
        assert_eq!(w.text, "\na _x_ b\n");
        assert!(!w.is_exact());
        assert_eq!(codes(&w), vec![Code::WhitespaceNormalized]);
        assert_eq!(w.diagnostics[0].severity, Severity::Info);
    }

    #[test]
    fn white_space_at_line_edges_and_three_spaces() {
        let doc = body(vec![Block::paragraph(vec![
            t("  a   b "),
            Inline::line_break(),
            Inline::line_break(),
            t("\tc"),
        ])]);
        let w = write_with(doc.clone(), &SEED_ONLY);
        assert_eq!(w.text, "\na b\nc\n");
        assert_eq!(codes(&w), vec![Code::WhitespaceNormalized]);
        // With escapes, spaces at the start of a line and runs of spaces
        // stay, and read back; a tab there and white space at the end of a
        // line cannot be written.
        let w = write(&doc);
        assert_eq!(w.text, "#Escape \\\n\n\\  a \\  b\nc\n");
        assert_eq!(codes(&w), vec![Code::WhitespaceNormalized]);
        let back = parse(&w.text).document;
        assert_eq!(
            back.body,
            vec![Block::paragraph(vec![
                t("  a   b"),
                Inline::line_break(),
                t("c")
            ])]
        );
    }

    /// Pure seed text, as `--no-escape` asks.
    const SEED_ONLY: Policy = Policy {
        escapes: crate::Escapes::Never,
        ..Policy::DEFAULT
    };

    #[test]
    fn literal_markup_in_text_is_reported_where_it_is_written() {
        let doc = body(vec![
            Block::heading(1, vec![t("Title")]),
            Block::paragraph(vec![t("a _x_ b")]).at(Pos::new(7, 3)),
        ]);
        // With escapes (the default) the text says what it says.
        let w = write(&doc);
        assert_eq!(w.text, "#Escape \\\n\n= Title =\n\na \\_x_ b\n");
        assert!(w.is_exact());
        assert_eq!(parse(&w.text).document.body, doc.body);
        // Pure seed text cannot say it.
        let w = write_with(doc, &SEED_ONLY);
        assert_eq!(w.text, "\n= Title =\n\na _x_ b\n");
        assert!(!w.is_exact());
        assert_eq!(codes(&w), vec![Code::NotRoundTrip]);
        assert_eq!(w.diagnostics[0].severity, Severity::Error);
        // At the paragraph's own position (for an ingested page, the line
        // of its HTML), not at a line of the written text.
        assert_eq!(w.diagnostics[0].span.line, 7);
        assert!(
            w.diagnostics[0].message.contains("emphasis"),
            "{}",
            w.diagnostics[0].message
        );
    }

    #[test]
    fn top_level_text_becomes_a_paragraph() {
        let w = write(&body(vec![Block::text(vec![t("x")])]));
        assert_eq!(w.text, "\nx\n");
        assert_eq!(codes(&w), vec![Code::NotRoundTrip]);
        assert_eq!(w.diagnostics[0].severity, Severity::Info);
    }

    #[test]
    fn links_are_repaired_or_reported() {
        let doc = body(vec![Block::paragraph(vec![
            Inline::link(Some("a b\"c".into()), None, vec![t("x")]),
            t(" "),
            Inline::link(Some("u".into()), None, vec![]),
            t(" "),
            Inline::link(None, None, vec![t("lost")]),
            t(" "),
            Inline::link(
                Some("v".into()),
                None,
                vec![Inline::link(Some("w".into()), None, vec![t("inner")])],
            ),
        ])]);
        let w = write(&doc);
        assert_eq!(w.text, "\n[a%20b%22c||x] [u||] lost [v||inner]\n");
        assert_eq!(
            codes(&w),
            vec![
                Code::UnrepresentableLink,
                Code::UnrepresentableLink,
                Code::UnrepresentableLink,
                Code::EmptyElementDropped,
            ]
        );
    }

    #[test]
    fn addresses_and_code_where_they_cannot_be() {
        let doc = body(vec![
            Block::paragraph(vec![Inline::email("not an address")]),
            Block::preformatted(vec![vec![
                Inline::code(vec![t("x")]),
                t(" "),
                Inline::email("a@b.cd"),
            ]]),
        ]);
        let w = write(&doc);
        assert_eq!(w.text, "\nnot an address\n\n  x a@b.cd\n");
        assert_eq!(
            codes(&w),
            vec![
                Code::NotRoundTrip,
                Code::WhitespaceNormalized,
                Code::NotRoundTrip
            ]
        );
    }

    #[test]
    fn heading_levels_and_empty_elements() {
        let doc = body(vec![
            Block::heading(9, vec![t("deep")]),
            Block::paragraph(vec![Inline::strong(vec![])]),
            Block::list(
                ListKind::Unordered,
                vec![
                    ListItem::new(vec![]),
                    ListItem::new(vec![Block::text(vec![t("x")])]),
                ],
            ),
        ]);
        let w = write(&doc);
        assert_eq!(w.text, "\n====== deep ======\n\n  * x\n");
        assert!(!w.is_exact());
    }

    #[test]
    fn header_repairs() {
        let doc = Document::new(
            Metadata {
                title: Some(" Two  words ".into()),
                lang: Some("not a code".into()),
                metas: vec![Meta::new("bad name", "x"), Meta::new("ok", " a  b ")],
                links: vec![crate::model::Link::new(
                    vec!["a:b".into(), "c".into()],
                    "x.css",
                    Some(String::new()),
                )],
                escape: false,
                open: false,
                image: false,
                table: false,
                breaks: false,
                subsup: false,
                figure: false,
            },
            vec![],
        );
        let w = write(&doc);
        assert_eq!(w.text, "#Title Two words\n#Meta:ok a b\n#Link:c x.css\n\n");
        assert_eq!(parse(&w.text).diagnostics, vec![]);
    }

    #[test]
    fn preformatted_text_before_an_indented_block_goes_deeper() {
        let doc = body(vec![
            Block::preformatted(vec![vec![t("code")]]),
            Block::list(
                ListKind::Unordered,
                vec![ListItem::new(vec![Block::text(vec![t("x")])])],
            ),
        ]);
        let w = write(&doc);
        assert_eq!(w.text, "\n    code\n\n  * x\n");
        assert!(w.is_exact());
    }

    #[test]
    fn items_push_their_content_right_of_following_preformatted_text() {
        // A list item followed by preformatted text that must stay apart.
        let doc = body(vec![Block::list(
            ListKind::Unordered,
            vec![ListItem::new(vec![
                Block::text(vec![t("x")]),
                Block::blockquote(vec![Block::text(vec![t("q")])]),
                Block::preformatted(vec![vec![t("p")]]),
                Block::preformatted(vec![vec![t("r")]]),
            ])],
        )]);
        let w = write(&doc);
        assert_eq!(w.text, "\n  * x\n\n      >  q\n        p\n      r\n");
        assert!(w.is_exact(), "{:?}", w.diagnostics);
    }

    #[test]
    fn definition_list_layouts() {
        let item = |term: &str, def: &str| {
            DefItem::new(
                vec![Term::new(vec![t(term)])],
                vec![Block::text(vec![t(def)])],
            )
        };
        // Non-compact, then compact.
        let doc = body(vec![
            Block::definition_list(false, vec![item("A", "a"), item("B", "b")]),
            Block::paragraph(vec![t("p")]),
            Block::definition_list(true, vec![item("C", "c"), item("D", "d")]),
        ]);
        let w = write(&doc);
        assert_eq!(w.text, "\nA::\n    a\nB::\n    b\n\np\n\nC   c\nD   d\n");
        assert!(w.is_exact());
        // A compact line that would read as a heading: the term goes alone.
        let doc = body(vec![Block::definition_list(true, vec![item("= x", "y =")])]);
        let w = write(&doc);
        assert_eq!(w.text, "\n= x\n    y =\n");
        assert!(w.is_exact(), "{:?}", w.diagnostics);
        // A later item of a non-compact list whose definition looks like a
        // bullet is written compact.
        let doc = body(vec![Block::definition_list(
            false,
            vec![item("A", "a"), item("B", "* b")],
        )]);
        let w = write(&doc);
        assert_eq!(w.text, "\nA::\n    a\nB   * b\n");
        assert!(w.is_exact(), "{:?}", w.diagnostics);
        // A nested list whose first line looks like a bullet gets a `::`.
        let inner = Block::definition_list(true, vec![item("*", "x")]);
        let doc = body(vec![Block::definition_list(
            false,
            vec![DefItem::new(vec![Term::new(vec![t("T")])], vec![inner])],
        )]);
        let w = write(&doc);
        assert_eq!(w.text, "\nT::\n    ::\n    *   x\n");
        assert!(w.is_exact(), "{:?}", w.diagnostics);
    }

    /// Pure seed text (`--no-escape`), which has no `#Extend open`.
    fn seed(doc: &Document) -> Written {
        let policy = Policy {
            escapes: Escapes::Never,
            ..Policy::DEFAULT
        };
        write_with(doc.clone(), &policy)
    }

    /// What pure seed text cannot hold is written as what its text means,
    /// so that writing is a fixpoint after the first time.
    #[test]
    fn text_that_means_something_else_is_written_as_what_it_means() {
        // An item whose first block is a list: the inner bullet is read as
        // text on the outer bullet's line.
        let inner = Block::list(
            ListKind::Unordered,
            vec![ListItem::new(vec![Block::text(vec![
                t("a one"),
                Inline::line_break(),
                t("two"),
            ])])],
        );
        let doc = body(vec![Block::list(
            ListKind::Unordered,
            vec![ListItem::new(vec![inner])],
        )]);
        let w = seed(&doc);
        assert!(!w.is_exact());
        assert!(codes(&w).contains(&Code::NotRoundTrip));
        let again = seed(&parse(&w.text).document);
        assert_eq!(again.text, w.text);
        assert!(again.is_exact());
    }

    #[test]
    fn a_blockquote_opening_with_a_list_writes_the_list_before_it() {
        let list = Block::list(
            ListKind::Ordered(Numbering::Decimal),
            vec![
                ListItem::new(vec![Block::text(vec![t("one")])]),
                ListItem::new(vec![Block::text(vec![t("two")])]),
            ],
        );
        let doc = body(vec![Block::blockquote(vec![
            list,
            Block::text(vec![t("after")]),
        ])]);
        let w = seed(&doc);
        assert_eq!(w.text, "\n  1. one\n  2. two\n\n  > after\n");
        assert!(codes(&w).contains(&Code::NotRoundTrip));
        assert!(!codes(&w).contains(&Code::EmptyElementDropped));
        assert_eq!(seed(&parse(&w.text).document).text, w.text);
    }

    #[test]
    fn a_definition_opening_with_a_list_writes_the_list_after_the_terms() {
        let list = Block::list(
            ListKind::Unordered,
            vec![ListItem::new(vec![Block::text(vec![t("a")])])],
        );
        let doc = body(vec![Block::definition_list(
            false,
            vec![
                DefItem::new(
                    vec![Term::new(vec![t("t")])],
                    vec![list, Block::text(vec![t("more")])],
                ),
                DefItem::new(
                    vec![Term::new(vec![t("n")])],
                    vec![Block::text(vec![t("d")])],
                ),
            ],
        )]);
        let w = seed(&doc);
        assert_eq!(w.text, "\nt::\n\n  * a\n\n::\n    more\nn::\n    d\n");
        // Reported as a loss, and nothing else differs.
        assert!(
            w.diagnostics
                .iter()
                .all(|d| d.severity == Severity::Warning),
            "{:?}",
            w.diagnostics
        );
        assert_eq!(seed(&parse(&w.text).document).text, w.text);
    }

    #[test]
    fn a_blockquote_cannot_open_a_container() {
        // `> > > x`: nested blockquotes collapse to one.
        let doc = body(vec![Block::blockquote(vec![Block::blockquote(vec![
            Block::blockquote(vec![Block::text(vec![t("x")])]),
        ])])]);
        let w = seed(&doc);
        assert_eq!(w.text, "\n  > x\n");
        // Both levels are reported; the repeat is counted, not listed again.
        assert_eq!(codes(&w), vec![Code::NotRoundTrip], "{:?}", w.diagnostics);
        // A definition opening with a blockquote keeps its text.
        let doc = body(vec![Block::definition_list(
            false,
            vec![DefItem::new(
                vec![Term::new(vec![t("f()")])],
                vec![Block::blockquote(vec![Block::text(vec![t("does")])])],
            )],
        )]);
        let w = seed(&doc);
        assert_eq!(w.text, "\nf()::\n    does\n");
    }

    #[test]
    fn a_paragraph_cannot_open_an_item() {
        let doc = body(vec![Block::list(
            ListKind::Unordered,
            vec![ListItem::new(vec![Block::paragraph(vec![t("x")])])],
        )]);
        let w = write(&doc);
        assert_eq!(w.text, "\n  * x\n");
        assert_eq!(codes(&w), vec![Code::NotRoundTrip]);
        assert!(
            w.diagnostics[0]
                .message
                .contains("reads back as a text block")
        );
    }
}
