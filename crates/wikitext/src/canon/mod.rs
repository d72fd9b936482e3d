//! What the text format can hold: the one place that turns any
//! [`Document`] into a document the format holds, which the writer
//! (`write.rs`) then renders and which reads back as itself.
//!
//! This is the writer's first stage (`repair`), and the one that decides
//! again when the text of a top-level block reads back as something else
//! (`adopt`). It renders and reads single runs only (under
//! [`Escapes::Never`]); the whole document is rendered by `render` and its
//! doubtful parts read by `readback`, never from here.
//!
//! Three kinds of change are made, each reported at the node's own
//! position (for an ingested page, the line of its HTML):
//!
//! 1. *Harmless repairs* (info): white space at line edges, at the edges of
//!    inline markup and in runs of three spaces (white space is not
//!    significant in HTML text); empty elements dropped; code markup inside
//!    preformatted text; characters a link value cannot hold
//!    (percent-encoded); line feeds inside text. A [`Policy`] says which of
//!    them are silent.
//! 2. *Structure the format cannot hold* (warning): lists of one type in a
//!    row merge; and under [`Escapes::Never`] (pure seed text, without
//!    `#Extend open`) a blockquote opening a container gives up its level,
//!    a list or preformatted text opening a blockquote goes before it, and
//!    a list opening a definition goes after the terms. With escapes those
//!    containers are written after a bare opener instead (`#Extend open`).
//! 3. *Text that reads as something else*: with escapes (the default
//!    [`Policy`]) literal `_x_` or a line that looks like a bullet is
//!    escaped and the header declares `#Escape \` (no change, no
//!    diagnostic); what no escape can save (markup touching a letter), or
//!    anything under [`Escapes::Never`], becomes what it reads as (error):
//!    a run checked with the inline parser as the walk reaches it, a line
//!    that reads as other structure (a heading, a rule, a term, a bullet)
//!    by making its top-level block what its text reads as, once the text
//!    was rendered and read back (the `reads` module).
//!
//! Adjacent emphasis, strong emphasis or sample text of one kind is made one
//! element (info): text cannot tell `_a__b_` from one emphasis.
//!
//! The copy also bounds the depth of the document ([`MAX_DEPTH`] levels of
//! blocks, eight of inlines): deeper parts are flattened to
//! their text, with an error. Every recursive function here takes the depth
//! and stops at those bounds, so recursion depth never depends on the input.

mod blocks;
mod clean;
pub(crate) mod copy;
mod inlines;
mod merge;
mod meta;
mod reads;
mod tables;
mod touching;
mod values;

pub(crate) use reads::{Reading, adopt};

use std::collections::HashSet;

use crate::diag::{Code, Diagnostic, Severity, Span};
use crate::model::{Document, MAX_DEPTH, Pos};

/// Inline elements nest at most this deep in a written document (the parser
/// never nests more than four: emphasis, strong, code and a link).
pub(crate) const MAX_INLINE_DEPTH: usize = 8;

/// At most this many read-back differences are reported per document.
const MAX_REPORTS: usize = 50;

/// Repairs that go unreported (they are still made, and the result is then
/// not [`exact`](crate::Canonicalized::exact)). A set of named flags.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Silent(u8);

impl Silent {
    /// Every repair is reported.
    pub const NONE: Silent = Silent(0);
    /// Lists of one type (or definition lists) in a row, merged because
    /// text cannot tell them apart.
    pub const MERGED_LISTS: Silent = Silent(1);
    /// Empty lines at the edges of preformatted text, and runs of them.
    pub const PRE_EMPTY_LINES: Silent = Silent(1 << 1);
    /// Runs of three or more spaces in running text, which would read as a
    /// compact definition item, made one space. With escapes on, such runs
    /// are kept (escaped) unless this flag calls them insignificant, as
    /// they are in HTML.
    pub const SPACE_RUNS: Silent = Silent(1 << 2);

    /// Both sets of repairs.
    #[must_use]
    pub const fn union(self, other: Silent) -> Silent {
        Silent(self.0 | other.0)
    }

    /// Whether every repair of `other` is in this set.
    pub const fn contains(self, other: Silent) -> bool {
        self.0 & other.0 == other.0 && other.0 != 0
    }
}

/// What to do where inline markup touches a letter or digit, which seed
/// 000 rule 3 does not allow (`a_b_`: the markup would not be read).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Touching {
    /// Write what the text reads as (the markup is lost), with an error:
    /// the author of a text document chose those characters.
    #[default]
    ReadAsText,
    /// Put a space in between, with an info diagnostic: in HTML, markup
    /// next to a letter is common and the space keeps the markup.
    SpaceApart,
}

/// Whether the writer may use the escape extension (`#Escape \\`,
/// `docs/format.md`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Escapes {
    /// Where text would read back as something else, escape it, and
    /// declare the extension in the header; a document that needs no
    /// escape stays pure seed text, and one that declares the extension
    /// keeps it.
    #[default]
    WhenNeeded,
    /// Pure seed text: what cannot be said without an escape becomes what
    /// its text reads as, with an error (as in a seed-only writer).
    Never,
}

/// How [`canonicalize`](crate::canonicalize) treats what it changes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Policy {
    /// Repairs made without a diagnostic.
    pub silent: Silent,
    /// Markup that touches a letter or digit.
    pub touching: Touching,
    /// Whether escapes may be written.
    pub escapes: Escapes,
}

impl Policy {
    /// The default policy: everything reported, markup touching a letter
    /// read as text, escapes where needed.
    pub const DEFAULT: Policy = Policy {
        silent: Silent::NONE,
        touching: Touching::ReadAsText,
        escapes: Escapes::WhenNeeded,
    };
}

/// Stage one of the writer: the repairs and moves that make `doc` a
/// document the format holds, and under [`Escapes::Never`] what each of
/// its runs reads as, every change reported in `fixer` (see the module
/// documentation). What a doubtful top-level block reads as is adopted
/// later, once it was rendered and read back ([`adopt`]).
pub(crate) fn repair(doc: Document, policy: &Policy) -> (Document, Fixer) {
    let mut fixer = Fixer::new(*policy);
    let mut meta = meta::canon_meta(&doc.meta, &mut fixer);
    // A text's choice is kept, unless escapes are off.
    meta.escape = doc.meta.escape && fixer.escapes();
    meta.open = doc.meta.open && fixer.open();
    if (doc.meta.escape && !meta.escape) || (doc.meta.open && !meta.open) {
        fixer.changed = true;
    }
    let body = blocks::canon_blocks(doc.body, 1, &mut fixer);
    // Declared when the body holds an image, and kept once a text declares
    // it (when images may be written at all).
    meta.image = fixer.images() && (doc.meta.image || crate::walk::has_images(&body));
    meta.table = fixer.tables() && (doc.meta.table || has_tables(&body));
    let (breaks, scripts) = crate::walk::has_extended_inlines(&body);
    meta.breaks = fixer.breaks() && (doc.meta.breaks || breaks);
    meta.subsup = fixer.subsup() && (doc.meta.subsup || scripts);
    meta.figure = fixer.figures() && (doc.meta.figure || crate::walk::has_figures(&body));
    if (doc.meta.image && !meta.image)
        || (doc.meta.figure && !meta.figure)
        || (doc.meta.table && !meta.table)
        || (doc.meta.breaks && !meta.breaks)
        || (doc.meta.subsup && !meta.subsup)
    {
        fixer.changed = true;
    }
    (Document { meta, body }, fixer)
}

/// Whether blocks hold a table, at any depth (tables in cells included).
fn has_tables(blocks: &[crate::model::Block]) -> bool {
    crate::walk::any_block(blocks, |b| matches!(b, crate::model::Block::Table { .. }))
}

/// Collects the changes and their diagnostics, through every stage of the
/// writer.
pub(crate) struct Fixer {
    policy: Policy,
    changed: bool,
    diags: Vec<Diagnostic>,
    seen: HashSet<(Code, String, Span)>,
    /// Reports made (including repeats that were not listed again).
    reports: usize,
    /// Read-back differences found (listed up to [`MAX_REPORTS`]).
    differences: usize,
    /// While inline markup is flattened: the delimiters (`_`, `*`, `'`) of
    /// the elements around the current one, which a link value inside
    /// them must not hold where it would end them.
    enclosing: Vec<u8>,
}

impl Fixer {
    fn new(policy: Policy) -> Fixer {
        Fixer {
            policy,
            changed: false,
            diags: Vec::new(),
            seen: HashSet::new(),
            reports: 0,
            differences: 0,
            enclosing: Vec::new(),
        }
    }

    fn report(&mut self, code: Code, severity: Severity, message: impl Into<String>, pos: Pos) {
        self.changed = true;
        self.reports += 1;
        let message = message.into();
        // One report per kind of problem and place is enough.
        if self.seen.insert((code, message.clone(), Span::at(pos))) {
            self.diags
                .push(Diagnostic::new(code, severity, message, Span::at(pos)));
        }
    }

    /// [`Fixer::report`], unless the policy makes this repair silent.
    fn report_unless(
        &mut self,
        silent: Silent,
        code: Code,
        severity: Severity,
        message: impl Into<String>,
        pos: Pos,
    ) {
        if self.policy.silent.contains(silent) {
            // Made, and counted, but not listed.
            self.changed = true;
            self.reports += 1;
        } else {
            self.report(code, severity, message, pos);
        }
    }

    /// Whether escapes may be written.
    fn escapes(&self) -> bool {
        self.policy.escapes == Escapes::WhenNeeded
    }

    /// Whether `#Extend open` may be written (with escapes, as the escape
    /// extension): then a container may open with a list, preformatted
    /// text or a blockquote, and none of them is moved out of its way.
    fn open(&self) -> bool {
        self.escapes()
    }

    /// Whether `#Extend image` may be written (with escapes, as the other
    /// extensions): then an image stays an image; otherwise it becomes its
    /// alternative text.
    fn images(&self) -> bool {
        self.escapes()
    }

    /// Whether `#Extend break` may be written (with escapes, as the other
    /// extensions: the `<` of a text `<br>` is escaped).
    fn breaks(&self) -> bool {
        self.escapes()
    }

    /// Whether `#Extend subsup` may be written (with escapes, as the other
    /// extensions: a text `^{` or `~{` is escaped).
    fn subsup(&self) -> bool {
        self.escapes()
    }

    /// Whether `#Extend figure` may be written (with images, which it
    /// needs): otherwise a figure becomes its image and its caption.
    fn figures(&self) -> bool {
        self.images()
    }

    /// Whether `#Extend table` may be written (with escapes, as the other
    /// extensions: a cell's bars are escaped).
    fn tables(&self) -> bool {
        self.escapes()
    }

    /// The context of running text in blocks at `depth`: runs of three
    /// spaces stay where the parser opens no compact item there; with
    /// escapes, white space stays as it is (but at the end of a line)
    /// unless the policy calls it insignificant ([`Silent::SPACE_RUNS`]).
    fn flow_at(&self, depth: usize) -> Ctx {
        let keep = self.escapes() && !self.policy.silent.contains(Silent::SPACE_RUNS);
        if keep { Ctx::Kept } else { Ctx::flow_at(depth) }
    }

    /// The context of running text above the deepest level (see
    /// [`Fixer::flow_at`]).
    fn flow(&self) -> Ctx {
        self.flow_at(1)
    }

    /// The context of a heading's title (see [`Fixer::flow_at`]).
    fn heading(&self) -> Ctx {
        if self.flow() == Ctx::Kept {
            Ctx::KeptHeading
        } else {
            Ctx::Heading
        }
    }

    /// A place where the written text reads back as something else.
    fn difference(&mut self, message: String, pos: Pos) {
        self.changed = true;
        if self.differences < MAX_REPORTS {
            self.diags.push(Diagnostic::new(
                Code::NotRoundTrip,
                Severity::Error,
                message,
                Span::at(pos),
            ));
        }
        self.differences += 1;
    }

    /// The diagnostics, with a count of the differences that were not
    /// listed, and whether nothing had to change.
    pub(crate) fn finish(mut self) -> (Vec<Diagnostic>, bool) {
        if self.differences > MAX_REPORTS {
            let more = self.differences - MAX_REPORTS;
            self.diags.push(Diagnostic::new(
                Code::NotRoundTrip,
                Severity::Error,
                format!("{more} more differences are not listed"),
                Span::default(),
            ));
        }
        (self.diags, !self.changed)
    }
}

/// Where an inline run is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ctx {
    /// Paragraphs, text blocks, terms: white space is not significant.
    Flow,
    /// The same where three spaces in a row may stay: at the deepest level
    /// ([`MAX_DEPTH`]), where the parser opens no compact definition, or
    /// where the writer escapes them.
    DeepFlow,
    /// Running text whose white space the writer keeps with escapes:
    /// spaces at the start of a line and runs of three spaces stay.
    Kept,
    /// Headings: one line.
    Heading,
    /// Headings whose title may start with a space (escaped when written).
    KeptHeading,
    /// A line of preformatted text: white space is significant; no code, no
    /// e-mail addresses.
    Pre,
}

impl Ctx {
    /// Whether the run is a heading's title.
    fn is_heading(self) -> bool {
        matches!(self, Ctx::Heading | Ctx::KeptHeading)
    }

    /// The context of running text in blocks at `depth`.
    fn flow_at(depth: usize) -> Ctx {
        if depth >= MAX_DEPTH {
            Ctx::DeepFlow
        } else {
            Ctx::Flow
        }
    }
}

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
    /// A table cell.
    Cell,
    /// A table's caption.
    Caption,
}

impl Role {
    pub(super) fn what(self) -> &'static str {
        match self {
            Role::Paragraph => "the text of this paragraph",
            Role::Text => "the text of this text block",
            Role::Heading => "this heading",
            Role::Term => "a definition term",
            Role::PreLine => "a line of preformatted text",
            Role::Cell => "a table cell",
            Role::Caption => "a table's caption",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Block, Inline};
    use crate::write::canonicalize;

    fn paragraph(run: Vec<Inline>) -> Document {
        Document {
            body: vec![Block::paragraph(run)],
            ..Document::default()
        }
    }

    fn touching() -> Document {
        paragraph(vec![
            Inline::text("a"),
            Inline::emphasis(vec![Inline::text("b")]),
            Inline::text("c"),
        ])
    }

    #[test]
    fn the_default_policy_constant_is_the_default() {
        assert_eq!(Policy::DEFAULT, Policy::default());
    }

    #[test]
    fn markup_touching_a_letter_is_read_as_text_by_default() {
        let done = canonicalize(touching(), &Policy::default());
        assert_eq!(done.canonical.text(), "\na_b_c\n");
        assert_eq!(
            done.canonical.document(),
            &paragraph(vec![Inline::text("a_b_c")])
        );
        assert_eq!(done.diagnostics.len(), 1);
        assert_eq!(done.diagnostics[0].code, Code::NotRoundTrip);
        assert_eq!(done.diagnostics[0].severity, Severity::Error);
    }

    #[test]
    fn markup_touching_a_letter_can_be_spaced_apart() {
        let policy = Policy {
            touching: Touching::SpaceApart,
            ..Policy::default()
        };
        let done = canonicalize(touching(), &policy);
        assert_eq!(done.canonical.text(), "\na _b_ c\n");
        assert!(!done.exact);
        assert_eq!(done.diagnostics.len(), 1);
        assert_eq!(done.diagnostics[0].code, Code::SpaceAdded);
        assert!(done.diagnostics[0].message.starts_with("2 spaces"));
        // Nothing to do for text that has its spaces.
        let spaced = paragraph(vec![
            Inline::text("a "),
            Inline::emphasis(vec![Inline::text("b")]),
            Inline::text(", c"),
        ]);
        let done = canonicalize(spaced, &policy);
        assert!(done.exact);
        assert!(done.diagnostics.is_empty());
    }

    /// Found by the `canon` fuzz target on a page whose link URL held
    /// `ouvrir('plan.html')` inside code: the URL's quote ends the code.
    #[test]
    fn a_link_value_can_end_the_markup_around_it() {
        let link = Inline::link(
            Some("javascript:ouvrir('plan.html')".to_owned()),
            None,
            vec![Inline::text("Plan")],
        );
        let doc = paragraph(vec![Inline::code(vec![Inline::text("a "), link])]);
        let done = canonicalize(doc, &Policy::default());
        // The `'` that would end the sample text is percent-encoded: the
        // same URL, and the link is kept (noted, not lost).
        assert!(!done.exact);
        assert_eq!(done.diagnostics[0].code, Code::UnrepresentableLink);
        assert!(
            done.canonical
                .text()
                .contains("[javascript:ouvrir('plan.html%27)||Plan]"),
            "{}",
            done.canonical.text()
        );
        let back = crate::parse(done.canonical.text()).document;
        assert_eq!(&back, done.canonical.document());
        // An address's `_` before `@` can end emphasis around it.
        let doc = paragraph(vec![Inline::emphasis(vec![
            Inline::text("x "),
            Inline::email("a_@b.cd"),
        ])]);
        let done = canonicalize(doc, &Policy::default());
        let back = crate::parse(done.canonical.text()).document;
        assert_eq!(&back, done.canonical.document());
    }

    /// Found by the `canon` fuzz target: a carriage return (`&#13;` in a
    /// page) ends a line in the text format, as a line feed does.
    #[test]
    fn a_carriage_return_in_text_is_a_line_division() {
        let doc = paragraph(vec![Inline::strong(vec![Inline::text("a\rb\r\nc")])]);
        let done = canonicalize(doc, &Policy::default());
        let back = crate::parse(done.canonical.text()).document;
        assert_eq!(&back, done.canonical.document());
        assert_eq!(done.canonical.text(), "\n*a\nb\nc*\n");
    }

    #[test]
    fn silent_repairs_change_but_say_nothing() {
        let lists = Document {
            body: vec![
                Block::list(
                    crate::ListKind::Unordered,
                    vec![crate::ListItem::new(vec![Block::text(vec![Inline::text(
                        "a",
                    )])])],
                ),
                Block::list(
                    crate::ListKind::Unordered,
                    vec![crate::ListItem::new(vec![Block::text(vec![Inline::text(
                        "b",
                    )])])],
                ),
            ],
            ..Document::default()
        };
        let loud = canonicalize(lists.clone(), &Policy::default());
        assert_eq!(loud.diagnostics.len(), 1);
        let policy = Policy {
            silent: Silent::MERGED_LISTS,
            ..Policy::default()
        };
        let quiet = canonicalize(lists, &policy);
        assert!(quiet.diagnostics.is_empty());
        assert!(!quiet.exact);
        assert_eq!(quiet.canonical.text(), "\n  * a\n  * b\n");
        assert_eq!(quiet.canonical, loud.canonical);
    }

    #[test]
    fn a_headings_no_break_space_at_its_edges_is_dropped_and_a_space_escaped() {
        // Seed 000: a heading's title may not start or end with white
        // space; no escape takes a no-break space, the writer escapes a
        // space.
        let heading = |t: &str| Document {
            body: vec![Block::heading(2, vec![Inline::text(t)])],
            ..Document::default()
        };
        let done = canonicalize(heading("\u{a0}Surfboards\u{a0}"), &Policy::default());
        assert_eq!(done.canonical.text(), "\n== Surfboards ==\n");
        assert_eq!(done.diagnostics.len(), 1);
        let done = canonicalize(heading(" Surfboards"), &Policy::default());
        assert_eq!(done.canonical.text(), "#Escape \\\n\n== \\ Surfboards ==\n");
    }
}
