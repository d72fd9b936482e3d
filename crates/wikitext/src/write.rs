//! The canonical writer: document to text.
//!
//! Three steps: [`repair`](crate::repair) makes a copy with harmless fixes
//! (white space, empty elements) and a bounded depth; the copy is rendered
//! in the canonical layout; the text is parsed again and compared with the
//! copy, and every difference is reported. See the crate documentation for
//! the layout.

use serde::{Deserialize, Serialize};

use crate::diag::{Code, Diagnostic, Severity, Span};
use crate::model::{Block, DefItem, Document, Inline, ListKind, Numbering, Pos};
use crate::parse::parse;
use crate::repair::repair;
use crate::scan::ends_sentence;

/// What [`write()`] returns.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Written {
    /// The canonical text.
    pub text: String,
    /// Repairs (info), losses (warning, error) and every place where the text
    /// does not read back as the document (error).
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

/// Writes a document as canonical text, checks the text by parsing it again,
/// and reports whatever does not come back the same. Never fails.
///
/// For every document that [`parse`](crate::parse) produces, the text reads
/// back as the same document (`exact` is true), and writing that again gives
/// the same text. A document the format cannot hold exactly (built by hand
/// or from HTML) is written as the document its text reads back as, so that
/// writing is a fixpoint after the first time:
/// `write(parse(write(d)))` equals `write(d)`; every difference from `d` is
/// an error diagnostic.
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
    write_repaired(repair(doc))
}

/// [`write()`] for a document the caller no longer needs: it is freed as
/// soon as its repaired copy exists, so a large document is not held three
/// times (as given, repaired, and read back) while its text is checked.
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
    let repaired = repair(&doc);
    drop(doc);
    write_repaired(repaired)
}

fn write_repaired(repaired: crate::repair::Repaired) -> Written {
    let mut text = render(&repaired.doc);
    let mut reparsed = parse(&text).document;
    // The text may mean another document than the one written (structure
    // the format cannot hold). Then the text of what it means is written
    // instead: it reads the same, and it is canonical, so that writing what
    // was read gives the same text again. A few rounds at most: the parser's
    // documents are written exactly, so one round settles.
    let mut round = 0;
    while reparsed != repaired.doc && round < SETTLE_ROUNDS {
        round += 1;
        // The parser's documents need no repair (the property tests check
        // that writing them is exact), so what was read is rendered as it
        // is. Usually that is the text itself (literal markup characters
        // read as markup): then the text is already canonical.
        let again = render(&reparsed);
        if again == text {
            break;
        }
        let again_parsed = parse(&again).document;
        let settled = again_parsed == reparsed;
        text = again;
        reparsed = again_parsed;
        if settled {
            break;
        }
    }
    let mut diagnostics = repaired.diagnostics;
    let before = diagnostics.len();
    verify(&repaired.doc, &reparsed, &mut diagnostics);
    let mismatches = diagnostics.len() - before;
    Written {
        text,
        diagnostics,
        exact: !repaired.changed && mismatches == 0,
    }
}

/// Rounds of writing what the text means, when it is not what was written.
const SETTLE_ROUNDS: usize = 3;

/// At most this many round-trip differences are reported per document.
const MAX_REPORTS: usize = 50;

/// Constraints on the gap between two lines: an empty line or none.
#[derive(Debug, Default, Clone, Copy)]
struct Gap {
    must_empty: bool,
    must_none: bool,
    prefer_empty: bool,
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
}

impl Out {
    fn must_empty(&mut self) {
        self.gap.must_empty = true;
    }

    fn must_none(&mut self) {
        self.gap.must_none = true;
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

    /// Writes a line; returns whether an empty line was put before it.
    fn line(&mut self, indent: usize, text: &str) -> bool {
        let gap = std::mem::take(&mut self.gap);
        // A conflict cannot be satisfied; the verification reports it.
        let empty = gap.must_empty || (!gap.must_none && gap.prefer_empty);
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

/// Renders the canonical text of a (repaired) document.
fn render(doc: &Document) -> String {
    let mut text = String::with_capacity(4096);
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
    let mut out = Out {
        text,
        lines: 0,
        gap: Gap::default(),
        prefix: None,
    };
    render_blocks(&mut out, &doc.body, 0, false, false, false);
    out.flush_prefix();
    out.text
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

/// Writes the blocks of a container whose non-indented lines start at
/// column `base`. `nested` is false for the body. `on_bullet`: the first
/// block starts on the line of a bullet or compact term.
fn render_blocks(
    out: &mut Out,
    blocks: &[Block],
    base: usize,
    nested: bool,
    on_bullet: bool,
    first_indented: bool,
) {
    let layout = layout(blocks, base);
    for (i, block) in blocks.iter().enumerate() {
        let prev = i.checked_sub(1).and_then(|j| blocks.get(j));
        let first_on_bullet = i == 0 && on_bullet;
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
        let indented = i == 0 && first_indented;
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
                let empty = out.line(base, line);
                if j == 0 {
                    preceded = empty && !first_on_bullet;
                }
            }
            // Seed 000: text surrounded by empty lines is a paragraph.
            if matches!(block, Block::Paragraph { .. }) {
                out.must_empty();
            } else if preceded {
                out.must_none();
            }
        }
        Block::Heading { level, content, .. } => {
            out.line(base, &heading_line(*level, content));
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
                out.line(pre_indent, &text);
            }
        }
        Block::Blockquote { content, .. } => {
            let spaces = spaces_after(base + 2, ">", 1, min_content);
            let prefix = format!(">{}", " ".repeat(spaces));
            out.set_prefix(base + 2, &prefix);
            render_blocks(out, content, base + 3 + spaces, true, true, false);
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
                    base + 2 + prefix.chars().count(),
                    true,
                    true,
                    false,
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
                out.line(base, &format!("{line}::"));
            } else {
                out.line(base, &line);
            }
        }
    }
    match (compact.map(|c| c.term), form) {
        (Some(term), Form::NextLine) => {
            if !first_line {
                out.must_none();
            }
            out.line(base, &term);
            // The definition follows right away.
            out.must_none();
            render_blocks(
                out,
                &item.definition,
                (base + 4).max(min_content),
                true,
                false,
                true,
            );
        }
        (Some(term), _) => {
            if !first_line {
                out.must_none();
            }
            let spaces = spaces_after(base, &term, 3, min_content);
            let prefix = format!("{term}{}", " ".repeat(spaces));
            out.set_prefix(base, &prefix);
            render_blocks(
                out,
                &item.definition,
                base + prefix.chars().count(),
                true,
                true,
                false,
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
                    (base + 4).max(min_content),
                    true,
                    false,
                    true,
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

fn render_inline(run: &[Inline], out: &mut String) {
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

/// A short description of inlines for messages: `"text"`, `emphasis[...]`.
fn describe(run: &[Inline], out: &mut String) {
    for (n, node) in run.iter().enumerate() {
        if out.len() > 80 {
            out.push('…');
            return;
        }
        if n > 0 {
            out.push(' ');
        }
        let (name, children) = match node {
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
            Inline::Emphasis { content, .. } => ("emphasis", content),
            Inline::Strong { content, .. } => ("strong", content),
            Inline::Code { content, .. } => ("code", content),
            Inline::Link { content, .. } => ("link", content),
        };
        out.push_str(name);
        out.push('[');
        describe(children, out);
        out.push(']');
    }
}

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

struct Verifier<'d> {
    diags: &'d mut Vec<Diagnostic>,
    count: usize,
}

impl Verifier<'_> {
    fn report(&mut self, message: String, pos: Pos) {
        if self.count < MAX_REPORTS {
            self.diags.push(Diagnostic::new(
                Code::NotRoundTrip,
                Severity::Error,
                message,
                Span::at(pos),
            ));
        }
        self.count += 1;
    }

    fn inlines(&mut self, what: &str, want: &[Inline], got: &[Inline], pos: Pos) {
        if want != got {
            self.report(
                format!(
                    "{what} reads back differently: {} is read as {}",
                    describe_from(want, got),
                    describe_from(got, want)
                ),
                pos,
            );
        }
    }

    /// Compares what was written with what reads back; positions are in
    /// the written text.
    fn blocks(&mut self, want: &[Block], got: &[Block], parent: Pos) {
        let n = want.len().max(got.len());
        for i in 0..n {
            let (w, g) = match (want.get(i), got.get(i)) {
                (Some(w), Some(g)) => (w, g),
                (Some(w), None) => {
                    self.report(
                        format!(
                            "a {} does not read back (it merges with what comes before)",
                            w.kind_name()
                        ),
                        parent,
                    );
                    return;
                }
                (None, Some(g)) => {
                    self.report(
                        format!("an extra {} reads back here", g.kind_name()),
                        g.pos(),
                    );
                    return;
                }
                (None, None) => return,
            };
            if w == g {
                continue;
            }
            let pos = g.pos();
            match (w, g) {
                (Block::Paragraph { content: a, .. }, Block::Paragraph { content: b, .. })
                | (Block::Text { content: a, .. }, Block::Text { content: b, .. }) => {
                    self.inlines(&format!("the text of this {}", w.kind_name()), a, b, pos);
                }
                (Block::Heading { content: a, .. }, Block::Heading { content: b, .. }) => {
                    self.inlines("this heading", a, b, pos);
                }
                (Block::Preformatted { lines: a, .. }, Block::Preformatted { lines: b, .. }) => {
                    if a.len() != b.len() {
                        self.report(
                            format!(
                                "preformatted text of {} lines reads back with {}",
                                a.len(),
                                b.len()
                            ),
                            pos,
                        );
                    } else {
                        for (x, y) in a.iter().zip(b.iter()) {
                            self.inlines("a line of preformatted text", x, y, pos);
                        }
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
                    for (x, y) in a.iter().zip(b.iter()) {
                        self.blocks(&x.content, &y.content, y.pos);
                    }
                }
                (Block::List { items: a, .. }, Block::List { items: b, .. }) => {
                    self.report(
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
                ) if a.len() == b.len() => {
                    if ca != cb {
                        self.report(
                            format!(
                                "a {} definition list reads back as {}",
                                if *ca { "compact" } else { "non-compact" },
                                if *cb { "compact" } else { "non-compact" }
                            ),
                            pos,
                        );
                    }
                    for (x, y) in a.iter().zip(b.iter()) {
                        if x.terms.len() != y.terms.len() {
                            self.report(
                                format!(
                                    "a definition item with {} terms reads back with {}",
                                    x.terms.len(),
                                    y.terms.len()
                                ),
                                y.pos,
                            );
                            continue;
                        }
                        for (s, t) in x.terms.iter().zip(y.terms.iter()) {
                            self.inlines("a definition term", &s.content, &t.content, t.pos);
                        }
                        self.blocks(&x.definition, &y.definition, y.pos);
                    }
                }
                (
                    Block::DefinitionList { items: a, .. },
                    Block::DefinitionList { items: b, .. },
                ) => {
                    self.report(
                        format!(
                            "a definition list of {} items reads back with {} items",
                            a.len(),
                            b.len()
                        ),
                        pos,
                    );
                }
                _ => {
                    self.report(
                        format!("a {} reads back as a {}", w.kind_name(), g.kind_name()),
                        pos,
                    );
                    return;
                }
            }
        }
    }
}

fn verify(want: &Document, got: &Document, diags: &mut Vec<Diagnostic>) {
    let mut v = Verifier { diags, count: 0 };
    if want.meta != got.meta {
        v.report(
            "the header reads back differently".to_owned(),
            Pos::new(1, 1),
        );
    }
    v.blocks(&want.body, &got.body, Pos::new(1, 1));
    if v.count > MAX_REPORTS {
        let more = v.count - MAX_REPORTS;
        v.diags.push(Diagnostic::new(
            Code::NotRoundTrip,
            Severity::Error,
            format!("{more} more differences are not listed"),
            Span::default(),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{DefItem, ListItem, Meta, Metadata, Term};

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
            Block::paragraph(vec![t("a _x_ b")]),
        ]);
        let w = write(&doc);
        assert_eq!(w.text, "\n= Title =\n\na _x_ b\n");
        assert!(!w.is_exact());
        assert_eq!(codes(&w), vec![Code::NotRoundTrip]);
        assert_eq!(w.diagnostics[0].severity, Severity::Error);
        assert_eq!(w.diagnostics[0].span.line, 4);
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
