//! The canonical writer: a [`Canonical`] document to text, in one pass.
//!
//! What the format can hold is decided before, by [`crate::canon`]; this
//! module only lays it out (see the crate documentation for the layout).

use serde::{Deserialize, Serialize};

use crate::canon::{Canonical, Policy, canonicalize};
use crate::diag::Diagnostic;
use crate::model::{Block, DefItem, Document, Inline, ListKind, Numbering};
use crate::scan::ends_sentence;

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

/// Writes a document as canonical text: [`canonicalize`] makes it what the
/// format holds (reporting every change), and [`write_canonical`] renders
/// that in one pass. Never fails.
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

/// The text of a canonical document (see the crate documentation for the
/// layout). It was rendered once, in one pass, when the document was made
/// canonical, and it reads back as the same document.
///
/// ```
/// use wikitext::canon::{Policy, canonicalize};
/// let doc = wikitext::parse("\n= Notes =\n\n  * one\n").document;
/// let done = canonicalize(doc, &Policy::default());
/// assert!(done.exact);
/// assert_eq!(wikitext::write_canonical(&done.canonical), "\n= Notes =\n\n  * one\n");
/// ```
pub fn write_canonical(canonical: &Canonical) -> &str {
    canonical.text()
}

/// What the gap before the next line must be.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum Need {
    /// Either; the preference decides.
    #[default]
    Free,
    /// An empty line.
    Empty,
    /// No empty line.
    NoEmpty,
    /// Both were asked for: the text will not read back as written.
    Conflict,
}

/// Constraints on the gap between two lines.
#[derive(Debug, Default, Clone, Copy)]
struct Gap {
    need: Need,
    prefer_empty: bool,
}

impl Gap {
    fn require(&mut self, need: Need) {
        self.need = match (self.need, need) {
            (Need::Free, n) => n,
            (a, b) if a == b => a,
            _ => Need::Conflict,
        };
    }
}

/// What the writer notes about each top-level block as it goes: where its
/// text starts, whether a line of it could read as other structure, and
/// whether it follows the block before without an empty line (so that the
/// two are read together).
#[derive(Debug, Clone, Copy)]
pub(crate) struct TopMark {
    /// Byte offset in the text where the block's part starts.
    pub(crate) start: usize,
    /// Whether a line could read as something else.
    pub(crate) suspect: bool,
    /// Whether no empty line separates it from the block before.
    pub(crate) glued: bool,
}

/// How a line is checked as it is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LineKind {
    /// A line the writer made to be what it is (a rule, `::`).
    Made,
    /// A line of text: the block scanners must not see structure in it.
    Text,
    /// The first line of preformatted text: it must not look like a bullet
    /// or a blockquote.
    PreFirst,
    /// A later line of preformatted text: anything goes.
    Pre,
}

/// The lines being written.
struct Out {
    /// The text so far.
    text: String,
    /// Body lines written so far.
    lines: usize,
    gap: Gap,
    /// A bullet (or compact term) waiting for the first line of its content:
    /// its column and text.
    prefix: Option<(usize, String)>,
    /// One mark per top-level block begun.
    tops: Vec<TopMark>,
    /// Whether the next line is the first of a top-level block.
    top_fresh: bool,
}

impl Out {
    fn new(text: String) -> Out {
        Out {
            text,
            lines: 0,
            gap: Gap::default(),
            prefix: None,
            tops: Vec::new(),
            top_fresh: false,
        }
    }

    fn must_empty(&mut self) {
        self.gap.require(Need::Empty);
    }

    fn must_none(&mut self) {
        self.gap.require(Need::NoEmpty);
    }

    fn prefer(&mut self, empty: bool) {
        self.gap.prefer_empty = empty;
    }

    fn set_prefix(&mut self, col: usize, text: &str) {
        match &mut self.prefix {
            Some((_, pending)) => pending.push_str(text),
            None => self.prefix = Some((col, text.to_owned())),
        }
    }

    /// A top-level block begins.
    fn begin_top(&mut self) {
        self.tops.push(TopMark {
            start: self.text.len(),
            suspect: false,
            glued: false,
        });
        self.top_fresh = true;
    }

    /// The current top-level block is read together with the one before.
    fn glue(&mut self) {
        if let Some(mark) = self.tops.last_mut() {
            mark.glued = true;
            mark.suspect = true;
        }
    }

    fn suspect(&mut self) {
        if let Some(mark) = self.tops.last_mut() {
            mark.suspect = true;
        }
    }

    /// Writes a line; returns whether an empty line was put before it.
    fn line(&mut self, indent: usize, text: &str) -> bool {
        self.line_of(LineKind::Made, indent, text)
    }

    /// Writes a line of text (checked by the block scanners).
    fn text_line(&mut self, indent: usize, text: &str) -> bool {
        self.line_of(LineKind::Text, indent, text)
    }

    fn line_of(&mut self, kind: LineKind, indent: usize, text: &str) -> bool {
        let gap = std::mem::take(&mut self.gap);
        let empty = match gap.need {
            Need::Empty => true,
            Need::NoEmpty => false,
            Need::Free => gap.prefer_empty,
            // Cannot be satisfied: the block is read again on its own.
            Need::Conflict => {
                self.suspect();
                true
            }
        };
        if self.top_fresh {
            self.top_fresh = false;
            if !empty
                && self.lines > 0
                && let Some(mark) = self.tops.last_mut()
            {
                mark.glued = true;
            }
        }
        if line_may_mislead(kind, text) {
            self.suspect();
        }
        let (col, prefix) = match self.prefix.take() {
            Some((col, prefix)) => (col, Some(prefix)),
            None => (indent, None),
        };
        // The first body line follows the header's empty line anyway.
        if empty && self.lines > 0 {
            self.text.push('\n');
        }
        self.lines += 1;
        self.text.extend(std::iter::repeat_n(' ', col));
        if let Some(prefix) = prefix {
            self.text.push_str(&prefix);
        }
        self.text.push_str(text);
        self.text.push('\n');
        empty
    }

    fn flush_prefix(&mut self) {
        if let Some((col, prefix)) = self.prefix.take() {
            let text = prefix.trim_end().to_owned();
            self.line(col, &text);
        }
    }
}

/// Whether the block scanners could read a line as other structure than
/// the writer meant: a conservative test of its first and last characters
/// (seed 000 "Block-level Elements": rules, headings, bullets, blockquotes,
/// terms, compact items). A true answer only costs reading the block again.
fn line_may_mislead(kind: LineKind, text: &str) -> bool {
    use crate::scan::{bullet, compact_split, heading, is_rule, term_line};
    match kind {
        LineKind::Made => false,
        // Leading tabs count eight columns: they become spaces.
        LineKind::Pre => text.trim_start_matches(' ').starts_with('\t'),
        LineKind::PreFirst => text.starts_with([' ', '\t']) || bullet(text).is_some(),
        LineKind::Text => {
            bullet(text).is_some()
                || is_rule(text)
                || heading(text).is_some()
                || term_line(text).is_some()
                || compact_split(text).is_some()
        }
    }
}

/// A rendered body: the text and a mark per top-level block.
pub(crate) struct Rendered {
    /// The whole text, header included.
    pub(crate) text: String,
    /// Where each top-level block's part starts, and what was noticed.
    pub(crate) tops: Vec<TopMark>,
}

/// Renders the canonical text of a document, noting the top-level blocks
/// whose lines could read as something else.
pub(crate) fn render(doc: &Document) -> Rendered {
    let mut text = String::with_capacity(4096);
    render_header(doc, &mut text);
    let mut out = Out::new(text);
    render_blocks(&mut out, &doc.body, Container::BODY);
    out.flush_prefix();
    // The end of the text counts as an empty line: text that had to be
    // followed by none reads differently there.
    if matches!(out.gap.need, Need::NoEmpty | Need::Conflict) {
        out.suspect();
    }
    Rendered {
        text: out.text,
        tops: out.tops,
    }
}

fn render_header(doc: &Document, text: &mut String) {
    let meta = &doc.meta;
    if let Some(title) = &meta.title {
        text.push_str(&format!("#Title {title}\n"));
    }
    if let Some(lang) = &meta.lang {
        text.push_str(&format!("#Lang {lang}\n"));
    }
    for m in &meta.metas {
        if m.content.is_empty() {
            text.push_str(&format!("#Meta:{}\n", m.name));
        } else {
            text.push_str(&format!("#Meta:{} {}\n", m.name, m.content));
        }
    }
    for l in &meta.links {
        text.push_str(&format!("#Link:{} {}", l.rel.join(":"), l.href));
        if let Some(title) = &l.title {
            text.push(' ');
            text.push_str(title);
        }
        text.push('\n');
    }
    // The empty line that ends the header (also when there is none).
    text.push('\n');
}

/// The last line of a paragraph or text block.
fn last_text_line(block: &Block) -> Option<String> {
    match block {
        Block::Paragraph { content, .. } | Block::Text { content, .. } => {
            inline_lines(content).pop()
        }
        _ => None,
    }
}

fn is_text(block: Option<&Block>) -> bool {
    matches!(block, Some(Block::Paragraph { .. } | Block::Text { .. }))
}

/// Layout of the blocks of one container: for each block, the column of
/// the first line of an indented block that comes right after it (if any).
/// That line must be outdented relative to everything the block leaves open
/// (the content of its last item, a preformatted block itself), or it would
/// continue it. Preformatted text is indented one more than such a line;
/// list items, blockquotes and definitions push their content right.
/// Returns, per block, that column and the indentation of preformatted text.
fn layout(blocks: &[Block], base: usize) -> Vec<(Option<usize>, usize)> {
    let mut out = vec![(None, base + 2); blocks.len()];
    let mut next_start: Option<usize> = None;
    for (i, block) in blocks.iter().enumerate().rev() {
        let pre = next_start.map_or(base + 2, |n| (n + 2).max(base + 2));
        if let Some(slot) = out.get_mut(i) {
            *slot = (next_start, pre);
        }
        next_start = match block {
            Block::Preformatted { .. } => Some(pre),
            Block::List { .. } | Block::Blockquote { .. } => Some(base + 2),
            _ => None,
        };
    }
    out
}

/// How many spaces follow a bullet (or compact term) at `col` with text
/// `mark` so that the content starts at `min` or later, `least` at least.
fn spaces_after(col: usize, mark: &str, least: usize, min: usize) -> usize {
    let end = col + mark.chars().count();
    least.max(min.saturating_sub(end))
}

/// Where the blocks of a container are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Container {
    /// The column of its non-indented lines.
    base: usize,
    /// The body or a container inside it.
    level: Level,
    /// Where its first block starts.
    start: Start,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Level {
    Body,
    Nested,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Start {
    /// On a line of its own.
    OwnLine,
    /// On the line of a bullet, `>` or compact term.
    OnBullet,
    /// On a line of its own that is read as an indented line (the
    /// definition of a `term::` item).
    Indented,
}

impl Container {
    const BODY: Container = Container {
        base: 0,
        level: Level::Body,
        start: Start::OwnLine,
    };

    fn nested(base: usize, start: Start) -> Container {
        Container {
            base,
            level: Level::Nested,
            start,
        }
    }
}

fn prev_block(blocks: &[Block], i: usize) -> Option<&Block> {
    i.checked_sub(1).and_then(|j| blocks.get(j))
}

/// Writes the blocks of a container.
fn render_blocks(out: &mut Out, blocks: &[Block], container: Container) {
    let Container { base, level, start } = container;
    let nested = level == Level::Nested;
    let layout = layout(blocks, base);
    for (i, block) in blocks.iter().enumerate() {
        if level == Level::Body {
            out.begin_top();
        }
        // A term still waiting for its definition takes up an indented
        // block after it, empty lines or not: the two are read together.
        let waiting = matches!(prev_block(blocks, i), Some(Block::DefinitionList { items, .. })
                if items.last().is_some_and(|item| item.definition.is_empty()));
        if waiting {
            match level {
                Level::Body => out.glue(),
                Level::Nested => out.suspect(),
            }
        }
        let prev = i.checked_sub(1).and_then(|j| blocks.get(j));
        let first_on_bullet = i == 0 && start == Start::OnBullet;
        // Only bare text is sure to read back where a bullet's line (or an
        // indented definition's first line) opens a container; anything
        // else there is read again.
        let risky_start = match start {
            Start::OnBullet => !matches!(block, Block::Text { .. }),
            Start::Indented => matches!(
                block,
                Block::Preformatted { .. } | Block::List { .. } | Block::Blockquote { .. }
            ),
            Start::OwnLine => false,
        };
        if i == 0 && risky_start {
            out.suspect();
        }
        if !first_on_bullet {
            // The gap before the block.
            match block {
                Block::Paragraph { .. } => {
                    if nested || is_text(prev) {
                        out.must_empty();
                    } else {
                        out.prefer(true);
                    }
                }
                Block::DefinitionList { compact, items, .. } => {
                    // A first term ending in `::` would take up the lines of
                    // text before it that do not end a sentence.
                    let joins = items.first().is_some_and(|item| {
                        starts_with_term_line(item, decide_form(item, 0, *compact).0)
                    }) && !prev
                        .and_then(last_text_line)
                        .is_some_and(|l| ends_sentence(&l));
                    if is_text(prev) && joins {
                        out.must_empty();
                    } else {
                        out.prefer(!nested);
                    }
                }
                Block::Text { .. } | Block::Preformatted { .. } | Block::Blockquote { .. } => {
                    // After text, an empty line keeps the lines apart (and
                    // keeps an indented line from reading as a compact
                    // definition).
                    if is_text(prev) {
                        out.must_empty();
                    } else {
                        out.prefer(!nested);
                    }
                }
                Block::List { .. } | Block::Heading { .. } | Block::Rule { .. } => {
                    out.prefer(!nested);
                }
            }
        }
        let (next_start, pre_indent) = layout.get(i).copied().unwrap_or((None, base + 2));
        // What the block leaves open must start right of the next line.
        let min_content = next_start.map_or(0, |n| n + 1);
        let indented = i == 0 && start == Start::Indented;
        render_block(
            out,
            block,
            base,
            first_on_bullet,
            indented,
            pre_indent,
            min_content,
        );
    }
}

fn render_block(
    out: &mut Out,
    block: &Block,
    base: usize,
    first_on_bullet: bool,
    first_indented: bool,
    pre_indent: usize,
    min_content: usize,
) {
    match block {
        Block::Paragraph { content, .. } | Block::Text { content, .. } => {
            let mut preceded = false;
            let mut rendered = String::new();
            render_inline(content, &mut rendered);
            for (j, line) in rendered.split('\n').enumerate() {
                if j > 0 {
                    out.must_none();
                }
                let empty = out.text_line(base, line);
                if j == 0 {
                    preceded = empty && !first_on_bullet;
                }
            }
            // Seed 000: text surrounded by empty lines is a paragraph.
            if matches!(block, Block::Paragraph { .. }) && !preceded {
                out.suspect();
            }
            if matches!(block, Block::Paragraph { .. }) {
                out.must_empty();
            } else if preceded {
                out.must_none();
            }
        }
        Block::Heading { level, content, .. } => {
            let line = heading_line(*level, content);
            let title = line.get(usize::from(*level) + 1..line.len() - usize::from(*level) - 1);
            if crate::scan::heading(&line)
                .is_none_or(|h| h.level != *level || Some(h.title) != title)
            {
                out.suspect();
            }
            out.line(base, &line);
        }
        Block::Rule { .. } => {
            out.line(base, RULE);
        }
        Block::Preformatted { lines, .. } => {
            let mut after_empty = false;
            for (j, line) in lines.iter().enumerate() {
                if line.is_empty() {
                    after_empty = true;
                    continue;
                }
                if j > 0 {
                    if after_empty {
                        out.must_empty();
                    } else {
                        out.must_none();
                    }
                }
                after_empty = false;
                let mut text = String::new();
                render_inline(line, &mut text);
                // A line of preformatted text holds no line division; should
                // one be there, it is written as a space.
                let text = if text.contains('\n') {
                    text.replace('\n', " ")
                } else {
                    text
                };
                let kind = if j == 0 {
                    LineKind::PreFirst
                } else {
                    LineKind::Pre
                };
                out.line_of(kind, pre_indent, &text);
            }
        }
        Block::Blockquote { content, .. } => {
            let spaces = spaces_after(base + 2, ">", 1, min_content);
            let prefix = format!(">{}", " ".repeat(spaces));
            out.set_prefix(base + 2, &prefix);
            render_blocks(
                out,
                content,
                Container::nested(base + 3 + spaces, Start::OnBullet),
            );
        }
        Block::List { kind, items, .. } => {
            for (k, item) in items.iter().enumerate() {
                if k > 0 {
                    out.prefer(false);
                }
                let mark = bullet(*kind, k);
                let min = if k + 1 == items.len() { min_content } else { 0 };
                let spaces = spaces_after(base + 2, &mark, 1, min);
                let prefix = format!("{mark}{}", " ".repeat(spaces));
                out.set_prefix(base + 2, &prefix);
                render_blocks(
                    out,
                    &item.content,
                    Container::nested(base + 2 + prefix.chars().count(), Start::OnBullet),
                );
            }
        }
        Block::DefinitionList { compact, items, .. } => {
            for (k, item) in items.iter().enumerate() {
                let prev_empty = k
                    .checked_sub(1)
                    .and_then(|j| items.get(j))
                    .is_some_and(|p| p.definition.is_empty());
                if prev_empty {
                    // Otherwise this item's terms would join the previous
                    // item's, which has no definition yet.
                    out.must_empty();
                } else if k > 0 {
                    out.prefer(false);
                }
                let min = if k + 1 == items.len() { min_content } else { 0 };
                let (form, def_line) = decide_form(item, k, *compact);
                // The first item's form says whether the list is compact.
                if k == 0 && *compact == (form == Form::Normal) {
                    out.suspect();
                }
                if k == 0 && needs_lead(item, form, def_line.as_deref(), first_indented) {
                    out.line(base, "::");
                    out.must_none();
                }
                render_def_item(out, item, form, base, min);
            }
        }
    }
}

/// How a compact item's terms are written: the first `normal_terms` as
/// `term::` lines, then `term` before the three spaces (the last term, or
/// `::` when the item has no term or its last term cannot stand there).
struct Compact {
    normal_terms: usize,
    term: String,
}

/// How the item can be written compactly, if it can.
fn compact_term(item: &DefItem) -> Option<Compact> {
    let first = item.definition.first()?;
    // The definition's first line is read unindented after the term: only
    // blocks that start with such a line can stand there.
    if !matches!(
        first,
        Block::Text { .. }
            | Block::Heading { .. }
            | Block::Rule { .. }
            | Block::DefinitionList { .. }
    ) {
        return None;
    }
    let empty = |normal_terms| {
        Some(Compact {
            normal_terms,
            term: "::".to_owned(),
        })
    };
    let Some(last) = item.terms.last() else {
        return empty(0);
    };
    let lines = inline_lines(&last.content);
    match lines.as_slice() {
        // `::` alone would be an empty term.
        [line] if line != "::" && !line.contains("   ") => Some(Compact {
            normal_terms: item.terms.len() - 1,
            term: line.clone(),
        }),
        // An empty compact term after all the terms: empty terms are left
        // out of the model.
        _ => empty(item.terms.len()),
    }
}

/// How a definition item is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Form {
    /// `term::` lines, then the definition indented on the next line.
    Normal,
    /// Compact: `term   definition` on one line.
    SameLine,
    /// Compact: the last term alone on its line, the definition indented on
    /// the next line.
    NextLine,
    /// Compact: every term as a `term::` line, then an empty compact term:
    /// `::   definition` (when the last term's line would read as a heading).
    SameLineEmpty,
}

/// The compact shape of an item written in `form`.
fn compact_for(item: &DefItem, form: Form) -> Option<Compact> {
    let c = compact_term(item)?;
    Some(match form {
        Form::SameLineEmpty => Compact {
            normal_terms: item.terms.len(),
            term: "::".to_owned(),
        },
        _ => c,
    })
}

fn heading_line(level: u8, content: &[Inline]) -> String {
    let marks = "=".repeat(usize::from(level));
    let title = inline_lines(content).join(" ");
    format!("{marks} {title} {marks}")
}

const RULE: &str = "----------";

/// The first line the blocks of a definition will be written with (without
/// indentation), where the line is not read as an indented one.
fn first_line(blocks: &[Block]) -> Option<String> {
    match blocks.first()? {
        Block::Paragraph { content, .. } | Block::Text { content, .. } => {
            inline_lines(content).into_iter().next()
        }
        Block::Heading { level, content, .. } => Some(heading_line(*level, content)),
        Block::Rule { .. } => Some(RULE.to_owned()),
        Block::DefinitionList { compact, items, .. } => {
            let item = items.first()?;
            let (form, def_line) = decide_form(item, 0, *compact);
            Some(item_first_line(item, form, def_line.as_deref()))
        }
        Block::Preformatted { .. } | Block::Blockquote { .. } | Block::List { .. } => None,
    }
}

/// The same first line where it is read as an indented line: a definition
/// list whose first line would look like a bullet gets an extra `::` line.
fn first_line_indented(blocks: &[Block], plain: Option<String>) -> Option<String> {
    match (blocks.first(), plain) {
        (Some(Block::DefinitionList { .. }), Some(line)) if looks_like_bullet(&line) => {
            Some("::".to_owned())
        }
        (_, plain) => plain,
    }
}

/// Whether an item written in `form` starts with a `term::` line (which
/// would take up lines of text right before it).
fn starts_with_term_line(item: &DefItem, form: Form) -> bool {
    match form {
        Form::Normal => !item.terms.is_empty(),
        Form::SameLine | Form::SameLineEmpty | Form::NextLine => {
            compact_for(item, form).is_some_and(|c| c.normal_terms > 0)
        }
    }
}

fn first_term_line(item: &DefItem) -> Option<String> {
    let term = item.terms.first()?;
    let lines = inline_lines(&term.content);
    match lines.as_slice() {
        [only] => Some(format!("{only}::")),
        _ => lines.into_iter().next(),
    }
}

/// The first line of an item written in `form`; `def_line` is the first
/// line of its definition (from [`first_line`]).
fn item_first_line(item: &DefItem, form: Form, def_line: Option<&str>) -> String {
    let compact = match form {
        Form::Normal => None,
        Form::SameLine | Form::SameLineEmpty | Form::NextLine => compact_for(item, form),
    };
    let Some(c) = compact else {
        return first_term_line(item).unwrap_or_else(|| "::".to_owned());
    };
    if c.normal_terms > 0 {
        return first_term_line(item).unwrap_or_default();
    }
    match form {
        Form::NextLine => c.term,
        _ => format!("{}   {}", c.term, def_line.unwrap_or_default()),
    }
}

/// Whether a line would start a list item where it stands as the first
/// line of a definition (a `>` would not: the definition comes first).
fn looks_like_bullet(line: &str) -> bool {
    matches!(
        crate::scan::bullet(line),
        Some((crate::scan::Bullet::List(_), _))
    )
}

/// Chooses how to write the `k`-th item of a definition list, and returns
/// the first line of its definition along the way. The first item says
/// whether the list is compact; later items follow the list's style unless
/// their definition would then start with what reads as a bullet. A compact
/// line that would read as a heading is split after the term.
///
/// It looks down the chain of first blocks once (depth at most
/// [`MAX_DEPTH`](crate::MAX_DEPTH)), so writing stays linear.
fn decide_form(item: &DefItem, k: usize, compact: bool) -> (Form, Option<String>) {
    let def_line = first_line(&item.definition);
    let Some(Compact { normal_terms, term }) = compact_term(item) else {
        return (Form::Normal, def_line);
    };
    let indented = first_line_indented(&item.definition, def_line.clone());
    let mut form = if compact {
        Form::SameLine
    } else {
        Form::Normal
    };
    if form == Form::Normal && k > 0 && indented.as_deref().is_some_and(looks_like_bullet) {
        form = Form::SameLine;
    }
    if form == Form::SameLine {
        let line = format!("{term}   {}", def_line.as_deref().unwrap_or_default());
        let next_line_ok = normal_terms + 1 == item.terms.len()
            && !term.ends_with("::")
            && crate::scan::heading(&term).is_none()
            && !crate::scan::is_rule(&term)
            && indented.as_deref().is_some_and(|l| !looks_like_bullet(l));
        if crate::scan::heading(&line).is_some() {
            form = if next_line_ok {
                Form::NextLine
            } else {
                Form::SameLineEmpty
            };
        }
    }
    (form, def_line)
}

/// Whether the first item of a definition list gets an extra empty term
/// (`::`) line first: when the list's first line stands where it is read
/// as an indented line and would look like a bullet. Empty terms are left
/// out of the model, so the extra line changes nothing else.
fn needs_lead(item: &DefItem, form: Form, def_line: Option<&str>, first_indented: bool) -> bool {
    first_indented && looks_like_bullet(&item_first_line(item, form, def_line))
}

fn render_def_item(out: &mut Out, item: &DefItem, form: Form, base: usize, min_content: usize) {
    let compact = match form {
        Form::Normal => None,
        Form::SameLine | Form::SameLineEmpty | Form::NextLine => compact_for(item, form),
    };
    let normal_terms = compact
        .as_ref()
        .map_or(item.terms.len(), |c| c.normal_terms);
    let mut first_line = true;
    for term in item.terms.iter().take(normal_terms) {
        let lines = inline_lines(&term.content);
        let count = lines.len();
        for (j, line) in lines.into_iter().enumerate() {
            if !first_line {
                // Terms of one item may not be separated by empty lines.
                out.must_none();
            }
            first_line = false;
            if j + 1 == count {
                if line_may_mislead(LineKind::Text, &line) || line.ends_with(':') {
                    out.suspect();
                }
                out.line(base, &format!("{line}::"));
            } else {
                out.text_line(base, &line);
            }
        }
    }
    match (compact.map(|c| c.term), form) {
        (Some(term), Form::NextLine) => {
            if !first_line {
                out.must_none();
            }
            out.text_line(base, &term);
            // The definition follows right away.
            out.must_none();
            render_blocks(
                out,
                &item.definition,
                Container::nested((base + 4).max(min_content), Start::Indented),
            );
        }
        (Some(term), _) => {
            if !first_line {
                out.must_none();
            }
            if term != "::" && (line_may_mislead(LineKind::Text, &term) || term.ends_with(':')) {
                out.suspect();
            }
            let spaces = spaces_after(base, &term, 3, min_content);
            let prefix = format!("{term}{}", " ".repeat(spaces));
            out.set_prefix(base, &prefix);
            render_blocks(
                out,
                &item.definition,
                Container::nested(base + prefix.chars().count(), Start::OnBullet),
            );
        }
        (None, _) => {
            if item.terms.is_empty() {
                out.line(base, "::");
            }
            if !item.definition.is_empty() {
                render_blocks(
                    out,
                    &item.definition,
                    Container::nested((base + 4).max(min_content), Start::Indented),
                );
            }
        }
    }
}

/// The bullet of the `k`-th item (from 0): `*`, `1.`, `a.`, `A.`; letters
/// go on `z`, `aa`, `ab`...
fn bullet(kind: ListKind, k: usize) -> String {
    let letters = |base: u8| {
        let mut n = k;
        let mut out = Vec::new();
        loop {
            out.push(char::from(base + (n % 26) as u8));
            if n < 26 {
                break;
            }
            n = n / 26 - 1;
        }
        out.iter().rev().collect::<String>()
    };
    match kind {
        ListKind::Unordered => "*".to_owned(),
        ListKind::Ordered(Numbering::Decimal) => format!("{}.", k + 1),
        ListKind::Ordered(Numbering::LowerAlpha) => format!("{}.", letters(b'a')),
        ListKind::Ordered(Numbering::UpperAlpha) => format!("{}.", letters(b'A')),
    }
}

/// An inline run as lines of text (split at its line divisions).
fn inline_lines(run: &[Inline]) -> Vec<String> {
    let mut s = String::new();
    render_inline(run, &mut s);
    if !s.contains('\n') {
        return vec![s];
    }
    s.split('\n').map(str::to_owned).collect()
}

pub(crate) fn render_inline(run: &[Inline], out: &mut String) {
    for node in run {
        match node {
            Inline::Text { text, .. } => out.push_str(text),
            Inline::LineBreak { .. } => out.push('\n'),
            Inline::Emphasis { content, .. } => {
                out.push('_');
                render_inline(content, out);
                out.push('_');
            }
            Inline::Strong { content, .. } => {
                out.push('*');
                render_inline(content, out);
                out.push('*');
            }
            Inline::Code { content, .. } => {
                out.push('\'');
                render_inline(content, out);
                out.push('\'');
            }
            Inline::Link {
                url,
                fragment,
                content,
                ..
            } => {
                out.push('[');
                out.push_str(url.as_deref().unwrap_or(""));
                out.push('|');
                out.push_str(fragment.as_deref().unwrap_or(""));
                out.push('|');
                // An empty link text reads back as the URL (or fragment), so
                // that is how such a text is written: it is then not read
                // for markup either.
                let shown = url.as_deref().or(fragment.as_deref()).unwrap_or("");
                let replaced =
                    matches!(content.as_slice(), [Inline::Text { text, .. }] if text == shown);
                if !replaced {
                    render_inline(content, out);
                }
                out.push(']');
            }
            Inline::Email { address, .. } => {
                out.push('<');
                out.push_str(address);
                out.push('>');
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::{Code, Severity};
    use crate::model::{DefItem, ListItem, Meta, Metadata, Pos, Term};
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
        let w = write(&doc);
        assert_eq!(w.text, "\na b\nc\n");
        assert_eq!(codes(&w), vec![Code::WhitespaceNormalized]);
    }

    #[test]
    fn literal_markup_in_text_is_reported_where_it_is_written() {
        let doc = body(vec![
            Block::heading(1, vec![t("Title")]),
            Block::paragraph(vec![t("a _x_ b")]).at(Pos::new(7, 3)),
        ]);
        let w = write(&doc);
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

    /// What the format cannot hold is written as what its text means, so
    /// that writing is a fixpoint after the first time.
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
        let w = write(&doc);
        assert!(!w.is_exact());
        assert!(codes(&w).contains(&Code::NotRoundTrip));
        let again = write(&parse(&w.text).document);
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
        let w = write(&doc);
        assert_eq!(w.text, "\n  1. one\n  2. two\n\n  > after\n");
        assert!(codes(&w).contains(&Code::NotRoundTrip));
        assert!(!codes(&w).contains(&Code::EmptyElementDropped));
        assert_eq!(write(&parse(&w.text).document).text, w.text);
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
        let w = write(&doc);
        assert_eq!(w.text, "\nt::\n\n  * a\n\n::\n    more\nn::\n    d\n");
        // Reported as a loss, and nothing else differs.
        assert!(
            w.diagnostics
                .iter()
                .all(|d| d.severity == Severity::Warning),
            "{:?}",
            w.diagnostics
        );
        assert_eq!(write(&parse(&w.text).document).text, w.text);
    }

    #[test]
    fn a_blockquote_cannot_open_a_container() {
        // `> > > x`: nested blockquotes collapse to one.
        let doc = body(vec![Block::blockquote(vec![Block::blockquote(vec![
            Block::blockquote(vec![Block::text(vec![t("x")])]),
        ])])]);
        let w = write(&doc);
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
        let w = write(&doc);
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

    #[test]
    fn bullets() {
        let ord = |n| ListKind::Ordered(n);
        assert_eq!(bullet(ListKind::Unordered, 5), "*");
        assert_eq!(bullet(ord(Numbering::Decimal), 0), "1.");
        assert_eq!(bullet(ord(Numbering::Decimal), 11), "12.");
        assert_eq!(bullet(ord(Numbering::LowerAlpha), 0), "a.");
        assert_eq!(bullet(ord(Numbering::LowerAlpha), 25), "z.");
        assert_eq!(bullet(ord(Numbering::LowerAlpha), 26), "aa.");
        assert_eq!(bullet(ord(Numbering::UpperAlpha), 27), "AB.");
        assert_eq!(bullet(ord(Numbering::UpperAlpha), 702), "AAA.");
    }
}
