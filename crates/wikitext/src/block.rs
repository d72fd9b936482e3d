//! The block pass: Seed 000 "Body Part" and "Block-level Elements". Lines are
//! evaluated one after the other in the context of the current element, kept
//! on an explicit stack of open elements (never by recursion):
//!
//! - an outdented line terminates the current element, which becomes a block
//!   of the enclosing one, and is processed again there (and so on, down to
//!   the body at the latest);
//! - a non-indented line is a rule, a heading, a compact definition item
//!   (three spaces), a definition term (`::`), or a line of text;
//! - an indented line starts a list item, the definition of pending terms, a
//!   compact definition (after a term line), a blockquote section, or
//!   preformatted text;
//! - a bullet (or a compact term with its spaces) is replaced by spaces: the
//!   new element's content starts at the resulting indentation, and the rest
//!   of the line is processed again in the new element.
//!
//! Each line is handled in a bounded number of steps per element it opens or
//! closes, and every element is opened once and closed once, so the pass is
//! linear in the input. The text of an element is handed to the inline pass
//! when the element (or text block) is terminated.

mod features;
mod figure;
mod table;

pub(crate) use features::Features;

use crate::diag::{Code, Diagnostic, Severity, Span};
use crate::events::Tag;
use crate::grid::Token;
use crate::lines::SrcLine;
use crate::model::{ListKind, MAX_DEPTH, Pos};
use crate::scan::{
    Bullet, Escapable, TableLine, bare_opener, block_line, bullet, compact_split, ends_sentence,
    heading, is_rule, separator_columns, table_line, term_line,
};
use crate::tables::{BlockCells, SrcText, TableLines};
use table::{fix_block_table, write_table};

/// A line (or the rest of a line after a bullet) as seen by one element.
#[derive(Debug, Clone, Copy)]
struct VLine<'a> {
    num: u32,
    /// Absolute indentation (columns, tabs expanded).
    indent: usize,
    text: &'a str,
    /// Source column of the first character of `text`.
    col: u32,
}

impl VLine<'_> {
    fn pos(&self) -> Pos {
        Pos::new(self.num, self.col)
    }
}

/// A line of a leaf block, kept for the inline pass: `extra` spaces of
/// indentation (preformatted text only), then `text`, which starts at
/// `num`:`col` of the source. An empty line of preformatted text has
/// neither.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Line<'a> {
    pub(crate) extra: usize,
    pub(crate) text: &'a str,
    pub(crate) num: u32,
    pub(crate) col: u32,
}

/// What a leaf block is: its inline content comes from its lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Leaf {
    Paragraph,
    Text,
    Heading(u8),
    Term,
    /// Each line examined on its own.
    Preformatted,
    /// A table's caption (one line).
    Caption,
    /// A figure's image (one line): its inline events go straight into
    /// the figure.
    FigureImage,
    /// A table cell (one line, or none when empty).
    Cell {
        header: bool,
        colspan: u32,
        rowspan: u32,
    },
}

/// The block structure, in document order, as the block pass finds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Item {
    Start(Tag<'static>, Pos),
    End(Tag<'static>),
    Rule(Pos),
    /// A leaf block: its lines are `lines[from..to]` of [`Flat::lines`].
    Leaf {
        leaf: Leaf,
        from: usize,
        to: usize,
        pos: Pos,
    },
    /// Nothing: the place of a span marker of a block table, which its
    /// cell claimed when the table ended.
    Skip,
}

/// What the block pass gives: the blocks as items and the lines of the
/// leaves.
#[derive(Debug, Default)]
pub(crate) struct Flat<'a> {
    pub(crate) items: Vec<Item>,
    pub(crate) lines: Vec<Line<'a>>,
}

impl<'a> Flat<'a> {
    /// A leaf of `lines` (not written yet).
    fn leaf(&mut self, leaf: Leaf, lines: &[VLine<'a>], pos: Pos) -> Item {
        self.leaf_of(leaf, lines.iter().map(src_text), pos)
    }

    /// A leaf of source texts (a table's caption or cell).
    pub(crate) fn leaf_of(
        &mut self,
        leaf: Leaf,
        lines: impl IntoIterator<Item = SrcText<'a>>,
        pos: Pos,
    ) -> Item {
        let from = self.lines.len();
        self.lines.extend(lines.into_iter().map(|l| Line {
            extra: 0,
            text: l.text,
            num: l.num,
            col: l.col,
        }));
        Item::Leaf {
            leaf,
            from,
            to: self.lines.len(),
            pos,
        }
    }

    fn term(&mut self, lines: &[VLine<'a>]) -> Item {
        let pos = lines.first().map_or(Pos::UNKNOWN, VLine::pos);
        self.leaf(Leaf::Term, lines, pos)
    }

    fn last_is(&self, item: &Item) -> bool {
        self.items.last() == Some(item)
    }

    /// Seed 000: consecutive definition list items are merged; only the
    /// first item decides whether the list is compact. Writes the start of
    /// an item and its terms.
    fn start_def_item(&mut self, compact: bool, terms: Vec<Item>, pos: Pos) {
        if matches!(
            self.items.last(),
            Some(Item::End(Tag::DefinitionList { .. }))
        ) {
            self.items.pop();
        } else {
            self.items
                .push(Item::Start(Tag::DefinitionList { compact }, pos));
        }
        self.items.push(Item::Start(Tag::DefItem, pos));
        self.items.extend(terms);
    }

    fn end_def_item(&mut self) {
        self.items.push(Item::End(Tag::DefItem));
        self.items
            .push(Item::End(Tag::DefinitionList { compact: false }));
    }

    /// Seed 000: consecutive list items of the same type are merged.
    fn start_list_item(&mut self, kind: ListKind, pos: Pos) {
        if self.last_is(&Item::End(Tag::List(kind))) {
            self.items.pop();
        } else {
            self.items.push(Item::Start(Tag::List(kind), pos));
        }
        self.items.push(Item::Start(Tag::Item, pos));
    }
}

enum Kind<'a> {
    Body,
    Item(ListKind),
    Quote,
    Def {
        compact: bool,
        /// The terms (leaves), written when the element opens.
        terms: Vec<Item>,
        /// The item is a figure: its one term is the image.
        figure: bool,
    },
    Pre {
        lines: Vec<Line<'a>>,
        empties: usize,
    },
    Table(TableLines<'a>),
    /// A table in the block form: its rows and cells are items, written
    /// as they come.
    Blocks(BlockCells),
    /// A cell of a block table, a container; its start is
    /// `items[start]`.
    Cell {
        start: usize,
    },
}

/// An open element.
struct Frame<'a> {
    kind: Kind<'a>,
    /// The indentation of the element's content.
    indent: usize,
    pos: Pos,
    /// The lines of the text block being collected.
    text: Vec<VLine<'a>>,
    /// Whether an empty line came right before the text block.
    text_after_empty: bool,
    /// Terms (`::`, as leaves) waiting for their definition.
    terms: Vec<Item>,
    /// Whether a term line (possibly an empty `::`) is waiting.
    terms_seen: bool,
    /// Whether an empty line followed the waiting terms (no more terms join).
    terms_closed: bool,
    terms_pos: Pos,
}

impl<'a> Frame<'a> {
    fn new(kind: Kind<'a>, indent: usize, pos: Pos) -> Frame<'a> {
        Frame {
            kind,
            indent,
            pos,
            text: Vec::new(),
            text_after_empty: false,
            terms: Vec::new(),
            terms_seen: false,
            terms_closed: false,
            terms_pos: Pos::UNKNOWN,
        }
    }

    fn is_container(&self) -> bool {
        !matches!(
            self.kind,
            Kind::Pre { .. } | Kind::Table(_) | Kind::Blocks(_)
        )
    }

    /// Waiting terms without a definition become an item of their own.
    fn flush_terms(&mut self, out: &mut Flat<'a>) {
        if self.terms_seen {
            out.start_def_item(false, std::mem::take(&mut self.terms), self.terms_pos);
            out.end_def_item();
        }
        self.terms_seen = false;
        self.terms_closed = false;
        self.terms_pos = Pos::UNKNOWN;
    }

    /// The first `count` lines of the text block become a block.
    /// Seed 000 "Body Part": a text block is a paragraph at the top level, or
    /// when it is surrounded by empty lines (the end of the input counting as
    /// one); otherwise it is bare text.
    fn flush_text_lines(&mut self, out: &mut Flat<'a>, count: usize, followed_by_empty: bool) {
        let count = count.min(self.text.len());
        if count == 0 {
            return;
        }
        let lines = self.text.get(..count).unwrap_or_default();
        let pos = lines.first().map_or(Pos::UNKNOWN, VLine::pos);
        let paragraph =
            matches!(self.kind, Kind::Body) || (self.text_after_empty && followed_by_empty);
        let leaf = if paragraph {
            Leaf::Paragraph
        } else {
            Leaf::Text
        };
        let item = out.leaf(leaf, lines, pos);
        out.items.push(item);
        self.text.drain(..count);
    }

    /// Everything waiting becomes blocks: terms first, then text.
    fn flush_all(&mut self, out: &mut Flat<'a>, followed_by_empty: bool) {
        self.flush_terms(out);
        let n = self.text.len();
        self.flush_text_lines(out, n, followed_by_empty);
    }
}

fn chars(s: &str) -> usize {
    s.chars().count()
}

fn col_plus(col: u32, n: usize) -> u32 {
    col.saturating_add(u32::try_from(n).unwrap_or(u32::MAX))
}

enum Step<'a> {
    Done,
    Again(VLine<'a>),
}

struct BodyParser<'a, 'd> {
    stack: Vec<Frame<'a>>,
    out: Flat<'a>,
    /// Open containers (body, items, blockquotes, definitions).
    containers: usize,
    prev_empty: bool,
    diags: &'d mut Vec<Diagnostic>,
    depth_warned: bool,
    /// The header declares `#Extend open`: bare openers open containers.
    open: bool,
    /// The header declares `#Extend table`.
    tables: bool,
    /// The header declares `#Extend figure` (with `image`), read so.
    figures: Option<crate::inline::Syntax>,
    /// What a backslash escapes (`#Escape \\`), if anything.
    escapes: Escapable,
    /// The indentation of the next non-empty line after the current one.
    next_indent: Option<usize>,
    /// The next line, when it is not empty: its indentation and text (a
    /// caption line starts a table only before a row).
    next_line: Option<(usize, &'a str)>,
    /// The line after that one, the same way (a caption line starts a
    /// table of the block form only before `|-` and a cell).
    line_after_next: Option<(usize, &'a str)>,
}

/// Seed 000 "Body Part": the block structure of the body lines (the lines
/// after the header's terminating empty line). With `open` (`#Extend
/// open`), a bare opener also opens a container (see [`BodyParser::bare`]);
/// with `tables` (`#Extend table`), lines that start and end with `|` are
/// the rows of a table.
pub(crate) fn parse_body<'a>(
    lines: &[SrcLine<'a>],
    features: Features,
    diags: &mut Vec<Diagnostic>,
) -> Flat<'a> {
    let open = features.open;
    let mut parser = BodyParser {
        stack: vec![Frame::new(Kind::Body, 0, Pos::UNKNOWN)],
        out: Flat::default(),
        containers: 1,
        // The header's terminating empty line comes right before the body.
        prev_empty: true,
        diags,
        depth_warned: false,
        open,
        tables: features.tables,
        figures: features.figures,
        escapes: features
            .escapes
            .then_some(crate::grammar::is_escapable as fn(char) -> bool),
        next_indent: None,
        next_line: None,
        line_after_next: None,
    };
    // A bare opener looks at the next non-empty line: the indentation of
    // that line, for each line, found from the end.
    // A block table's span marker is one only when no line of the cell
    // follows it.
    let mut next_indent = vec![None; lines.len()];
    let mut after = None;
    for (slot, line) in next_indent.iter_mut().zip(lines).rev() {
        *slot = after;
        if !line.is_empty() {
            after = Some(line.indent);
        }
    }
    for (i, line) in lines.iter().enumerate() {
        parser.next_indent = next_indent.get(i).copied().flatten();
        parser.next_line = lines
            .get(i + 1)
            .filter(|l| !l.is_empty())
            .map(|l| (l.indent, l.text));
        parser.line_after_next = lines
            .get(i + 2)
            .filter(|l| !l.is_empty())
            .map(|l| (l.indent, l.text));
        if line.is_empty() {
            // Consecutive empty lines are collapsed into one.
            if !parser.prev_empty {
                parser.empty_line();
            }
            parser.prev_empty = true;
            continue;
        }
        let mut v = VLine {
            num: line.num,
            indent: line.indent,
            text: line.text,
            col: line.col,
        };
        while let Step::Again(next) = parser.step(v) {
            v = next;
        }
        parser.prev_empty = false;
    }
    parser.finish()
}

impl<'a> BodyParser<'a, '_> {
    /// The current element and the output.
    fn top(&mut self) -> (&mut Frame<'a>, &mut Flat<'a>) {
        if self.stack.is_empty() {
            self.stack.push(Frame::new(Kind::Body, 0, Pos::UNKNOWN));
        }
        let last = self.stack.len() - 1;
        (&mut self.stack[last], &mut self.out)
    }

    fn can_open(&self) -> bool {
        self.containers < MAX_DEPTH
    }

    /// Opens a container and writes its start.
    /// Opens the definition of the terms waiting in the innermost frame,
    /// its content at `indent`, at the position of its terms.
    fn open_definition(&mut self, indent: usize) {
        let (top, _) = self.top();
        let terms = std::mem::take(&mut top.terms);
        let pos = top.terms_pos;
        top.terms_seen = false;
        top.terms_closed = false;
        top.terms_pos = Pos::UNKNOWN;
        self.open(
            Kind::Def {
                compact: false,
                terms,
                figure: false,
            },
            indent,
            pos,
        );
    }

    fn open(&mut self, kind: Kind<'a>, indent: usize, pos: Pos) {
        let kind = match kind {
            Kind::Item(list) => {
                self.out.start_list_item(list, pos);
                kind
            }
            Kind::Quote => {
                self.out.items.push(Item::Start(Tag::Blockquote, pos));
                kind
            }
            Kind::Def {
                compact,
                terms,
                figure: true,
            } => {
                figure::start(&mut self.out.items, terms, pos);
                Kind::Def {
                    compact,
                    terms: Vec::new(),
                    figure: true,
                }
            }
            Kind::Def {
                compact,
                terms,
                figure: false,
            } => {
                self.out.start_def_item(compact, terms, pos);
                self.out
                    .items
                    .push(Item::Start(Tag::Definition, Pos::UNKNOWN));
                Kind::Def {
                    compact,
                    terms: Vec::new(),
                    figure: false,
                }
            }
            kind => kind,
        };
        let frame = Frame::new(kind, indent, pos);
        if frame.is_container() {
            self.containers += 1;
        }
        self.stack.push(frame);
    }

    fn too_deep(&mut self, v: &VLine<'_>) {
        if !self.depth_warned {
            self.depth_warned = true;
            self.diags.push(Diagnostic::new(
                Code::NestingTooDeep,
                Severity::Warning,
                format!(
                    "blocks nest deeper than {MAX_DEPTH} levels here; no deeper list, \
                     blockquote or definition is opened, such lines are read as text or preformatted text"
                ),
                Span::new(v.num, v.col, v.num, col_plus(v.col, chars(v.text))),
            ));
        }
    }

    /// Evaluates one line in the current element.
    fn step(&mut self, v: VLine<'a>) -> Step<'a> {
        let at_body = self.stack.len() <= 1;
        let escapes = self.escapes;
        let (top, _) = self.top();
        if let Kind::Pre { lines, empties } = &mut top.kind {
            // Seed 000: all following lines with an equal or greater
            // indentation belong to the block, intervening empty lines too.
            if v.indent >= top.indent {
                for _ in 0..*empties {
                    lines.push(Line {
                        extra: 0,
                        text: "",
                        num: 0,
                        col: 0,
                    });
                }
                *empties = 0;
                lines.push(Line {
                    extra: v.indent - top.indent,
                    text: v.text,
                    num: v.num,
                    col: v.col,
                });
                return Step::Done;
            }
            self.close_top(false);
            return Step::Again(v);
        }
        if let Kind::Blocks(_) = &top.kind {
            // Lines of the block form at the table's indentation continue
            // it; anything else ends it.
            if v.indent == top.indent
                && let Some(line) = block_line(v.text)
            {
                return self.block_table_line(v, line);
            }
            self.close_top(false);
            return Step::Again(v);
        }
        if let Kind::Table(table) = &mut top.kind {
            // Rows at the table's indentation continue it; anything else
            // ends it.
            if v.indent == top.indent
                && let Some(TableLine::Row(cells)) = table_line(v.text, escapes)
            {
                table.push_row(src_text(&v), cells);
                return Step::Done;
            }
            self.close_top(false);
            return Step::Again(v);
        }
        if v.indent < top.indent && !at_body {
            // An outdented line terminates the element and is processed again.
            self.close_top(false);
            return Step::Again(v);
        }
        if v.indent <= top.indent {
            self.non_indented(v)
        } else {
            self.indented(v)
        }
    }

    fn non_indented(&mut self, v: VLine<'a>) -> Step<'a> {
        let can_open = self.can_open();
        let prev_empty = self.prev_empty;
        let text = v.text;
        // A table: before anything else, as its padded rows would read as
        // compact items.
        if self.tables
            && let Some(step) = self.block_table_start(&v)
        {
            return step;
        }
        if self.tables
            && let Some(line) = table_line(text, self.escapes)
            && self.opens_table(&line, v.indent)
        {
            let (top, out) = self.top();
            top.flush_all(out, false);
            let table = TableLines::start(src_text(&v), line);
            let mut frame = Frame::new(Kind::Table(table), v.indent, v.pos());
            // For a caption that no row follows, which is text after all.
            frame.text_after_empty = prev_empty;
            self.stack.push(frame);
            return Step::Done;
        }
        // Horizontal rule.
        if is_rule(text) {
            let (top, out) = self.top();
            top.flush_all(out, false);
            out.items.push(Item::Rule(v.pos()));
            return Step::Done;
        }
        // Heading.
        if let Some(h) = heading(text) {
            let title = VLine {
                text: h.title,
                col: col_plus(v.col, h.offset),
                ..v
            };
            let (top, out) = self.top();
            top.flush_all(out, false);
            let item = out.leaf(Leaf::Heading(h.level), &[title], v.pos());
            out.items.push(item);
            return Step::Done;
        }
        // Compact definition item: term, three spaces, definition.
        if let Some((term_part, rest_at)) = compact_split(text) {
            if can_open {
                return self.compact_item(v, term_part, rest_at);
            }
            self.too_deep(&v);
        }
        // Definition term.
        if let Some(content) = term_line(text) {
            let (top, out) = self.top();
            if top.terms_closed {
                top.flush_terms(out);
            }
            if content.is_empty() {
                // An empty term: only the colons. It is omitted, but the
                // item still waits for its definition.
                if !top.text.is_empty() {
                    top.flush_all(out, false);
                }
                if !top.terms_seen {
                    top.terms_pos = v.pos();
                }
                top.terms_seen = true;
                return Step::Done;
            }
            // Seed 000: a term spreads back over the preceding lines of text
            // that do not end a sentence.
            let mut k = top.text.len();
            while k > 0 && top.text.get(k - 1).is_some_and(|l| !ends_sentence(l.text)) {
                k -= 1;
            }
            if k > 0 {
                top.flush_terms(out);
                top.flush_text_lines(out, k, false);
            }
            let mut lines: Vec<VLine<'a>> = std::mem::take(&mut top.text);
            lines.push(VLine { text: content, ..v });
            let pos = lines.first().map_or(Pos::UNKNOWN, VLine::pos);
            let term = out.term(&lines);
            if !top.terms_seen {
                top.terms_pos = pos;
            }
            top.terms.push(term);
            top.terms_seen = true;
            return Step::Done;
        }
        // A line of text.
        let (top, out) = self.top();
        if top.terms_closed {
            top.flush_terms(out);
        }
        if top.text.is_empty() {
            top.text_after_empty = prev_empty;
        }
        top.text.push(v);
        Step::Done
    }

    /// Seed 000: a compact definition item; the term and its spaces act like
    /// a bullet, and the rest of the line is processed in the definition.
    fn compact_item(&mut self, v: VLine<'a>, term_part: &'a str, rest_at: usize) -> Step<'a> {
        let mut diag = None;
        let (top, out) = self.top();
        if top.terms_closed || !top.text.is_empty() {
            top.flush_all(out, false);
        }
        let mut terms = std::mem::take(&mut top.terms);
        let pos = if top.terms_seen {
            top.terms_pos
        } else {
            v.pos()
        };
        top.terms_seen = false;
        top.terms_closed = false;
        let name = term_part.trim_end();
        // Seed 000: an empty compact term is written `::`.
        if name != "::" {
            if name.ends_with("::") {
                // Interpretation: the seed says a compact term cannot end in
                // `::`; when one does, the colons are part of the term.
                diag = Some(Diagnostic::new(
                    Code::CompactTermWithColons,
                    Severity::Info,
                    "a compact definition term does not end in `::`; the colons are kept as part of the term",
                    Span::new(v.num, v.col, v.num, col_plus(v.col, chars(name))),
                ));
            }
            if !name.is_empty() {
                terms.push(out.term(&[VLine { text: name, ..v }]));
            }
        }
        if let Some(d) = diag {
            self.diags.push(d);
        }
        let figure =
            terms.len() == 1 && !name.is_empty() && figure::is_lone_image(name, self.figures);
        // The term is replaced by spaces (one per character), and the
        // separating run after it by its columns.
        let consumed = chars(text_before(v.text, rest_at));
        let indent = v.indent
            + chars(term_part)
            + separator_columns(v.text.get(term_part.len()..rest_at).unwrap_or(""));
        self.open(
            Kind::Def {
                compact: true,
                terms,
                figure,
            },
            indent,
            pos,
        );
        self.prev_empty = false;
        Step::Again(VLine {
            num: v.num,
            indent,
            text: v.text.get(rest_at..).unwrap_or(""),
            col: col_plus(v.col, consumed),
        })
    }

    fn indented(&mut self, v: VLine<'a>) -> Step<'a> {
        let can_open = self.can_open();
        let found = bullet(v.text);
        if can_open
            && self.open
            && let Some(step) = self.bare(&v)
        {
            return step;
        }
        let (top, out) = self.top();
        let waiting = top.terms_seen || !top.text.is_empty();
        if can_open {
            // A list item.
            if let Some((Bullet::List(kind), n)) = found {
                top.flush_all(out, false);
                let indent = v.indent + separator_columns(text_before(v.text, n));
                self.open(Kind::Item(kind), indent, v.pos());
                self.prev_empty = false;
                return Step::Again(VLine {
                    num: v.num,
                    indent,
                    text: v.text.get(n..).unwrap_or(""),
                    col: col_plus(v.col, n),
                });
            }
            // The definition of waiting terms (empty lines may come between).
            if top.terms_seen && top.text.is_empty() {
                self.open_definition(v.indent);
                return Step::Again(v);
            }
            // A compact item: the line of text right before is its term.
            if let Some(last) = top.text.pop() {
                if !top.text.is_empty() {
                    top.flush_all(out, false);
                }
                let mut terms = std::mem::take(&mut top.terms);
                let pos = if top.terms_seen {
                    top.terms_pos
                } else {
                    last.pos()
                };
                top.terms_seen = false;
                top.terms_closed = false;
                top.terms_pos = Pos::UNKNOWN;
                let figure = terms.is_empty() && figure::is_lone_image(last.text, self.figures);
                let (_, out) = self.top();
                terms.push(out.term(&[last]));
                self.open(
                    Kind::Def {
                        compact: true,
                        terms,
                        figure,
                    },
                    v.indent,
                    pos,
                );
                self.prev_empty = false;
                return Step::Again(v);
            }
            // A blockquote section.
            if let Some((Bullet::Quote, n)) = found {
                top.flush_all(out, false);
                let indent = v.indent + separator_columns(text_before(v.text, n));
                self.open(Kind::Quote, indent, v.pos());
                self.prev_empty = false;
                return Step::Again(VLine {
                    num: v.num,
                    indent,
                    text: v.text.get(n..).unwrap_or(""),
                    col: col_plus(v.col, n),
                });
            }
        } else if found.is_some() || waiting {
            self.too_deep(&v);
        }
        // Preformatted text.
        let (top, out) = self.top();
        top.flush_all(out, false);
        let lines = vec![Line {
            extra: 0,
            text: v.text,
            num: v.num,
            col: v.col,
        }];
        let frame = Frame::new(Kind::Pre { lines, empties: 0 }, v.indent, v.pos());
        self.stack.push(frame);
        Step::Done
    }

    /// The `open` feature: an indented line that holds only an opener
    /// opens a container whose first block starts on the next line. A
    /// bullet opens a list item (where a bullet would: before anything
    /// else), `::` right after terms opens their definition, and `>` a
    /// blockquote section (where `> ` would, after definitions and compact
    /// items). The content of an item or blockquote is at the column
    /// after its mark and one space, as if text followed; a definition's
    /// content is at the column of its `::`. An opener opens only when the
    /// next non-empty line is indented further than that content, so that
    /// the container's first block is a list, preformatted text or a
    /// blockquote (what nothing else can open it with); otherwise the line
    /// is read as the seed reads it.
    fn bare(&mut self, v: &VLine<'a>) -> Option<Step<'a>> {
        let found = bare_opener(v.text);
        let next = self.next_indent?;
        // Further right than the content: an indented line, which starts
        // a list, preformatted text or a blockquote there.
        let fits = |content: usize| next > content;
        let (top, out) = self.top();
        let (kind, indent) = match found {
            Some((Bullet::List(kind), width)) if fits(v.indent + width + 1) => {
                (Kind::Item(kind), v.indent + width + 1)
            }
            _ if top.terms_seen
                && top.text.is_empty()
                && fits(v.indent)
                && v.text.trim_end_matches([' ', '\t']) == "::" =>
            {
                self.open_definition(v.indent);
                self.prev_empty = false;
                return Some(Step::Done);
            }
            Some((Bullet::Quote, width))
                if fits(v.indent + width + 1) && !top.terms_seen && top.text.is_empty() =>
            {
                (Kind::Quote, v.indent + width + 1)
            }
            _ => return None,
        };
        top.flush_all(out, false);
        self.open(kind, indent, v.pos());
        self.prev_empty = false;
        Some(Step::Done)
    }

    fn empty_line(&mut self) {
        if matches!(self.top().0.kind, Kind::Table(_)) {
            self.close_top(false);
        }
        let (top, out) = self.top();
        match &mut top.kind {
            Kind::Pre { empties, .. } => *empties = 1,
            _ => {
                if !top.text.is_empty() {
                    top.flush_all(out, true);
                } else if top.terms_seen {
                    top.terms_closed = true;
                }
            }
        }
    }

    /// Terminates the current element and writes its end.
    fn close_top(&mut self, followed_by_empty: bool) {
        if self.stack.len() <= 1 {
            return;
        }
        let Some(mut frame) = self.stack.pop() else {
            return;
        };
        let out = &mut self.out;
        if frame.is_container() {
            self.containers = self.containers.saturating_sub(1);
            frame.flush_all(out, followed_by_empty);
        }
        match frame.kind {
            Kind::Body => {}
            Kind::Table(table) => {
                // A caption without rows is a line of text.
                if let Some(line) = write_table(table, out) {
                    let v = VLine {
                        num: line.num,
                        indent: frame.indent,
                        text: line.text,
                        col: line.col,
                    };
                    let (top, _) = self.top();
                    if top.text.is_empty() {
                        top.text_after_empty = frame.text_after_empty;
                    }
                    top.text.push(v);
                }
            }
            Kind::Pre { lines, .. } => {
                let from = out.lines.len();
                out.lines.extend(lines);
                out.items.push(Item::Leaf {
                    leaf: Leaf::Preformatted,
                    from,
                    to: out.lines.len(),
                    pos: frame.pos,
                });
            }
            Kind::Item(kind) => {
                out.items.push(Item::End(Tag::Item));
                out.items.push(Item::End(Tag::List(kind)));
            }
            Kind::Quote => out.items.push(Item::End(Tag::Blockquote)),
            Kind::Cell { start } => {
                out.items.push(Item::End(Tag::Cell {
                    header: false,
                    colspan: 1,
                    rowspan: 1,
                }));
                let last = out.items.len() - 1;
                if let Some(Frame {
                    kind: Kind::Blocks(cells),
                    ..
                }) = self.stack.last_mut()
                {
                    cells.cell(Token::Cell, start, last);
                }
            }
            Kind::Blocks(cells) => {
                if cells.has_rows() {
                    out.items.push(Item::End(Tag::Row));
                }
                out.items.push(Item::End(Tag::Table));
                fix_block_table(&cells, &mut out.items);
            }
            Kind::Def { figure: true, .. } => figure::end(&mut out.items),
            Kind::Def { .. } => {
                // A definition that got no block is no definition.
                if out.last_is(&Item::Start(Tag::Definition, Pos::UNKNOWN)) {
                    out.items.pop();
                } else {
                    out.items.push(Item::End(Tag::Definition));
                }
                out.end_def_item();
            }
        }
    }

    fn finish(mut self) -> Flat<'a> {
        // The end of the input terminates every element and counts as an
        // empty line.
        while self.stack.len() > 1 {
            self.close_top(true);
        }
        let (top, out) = self.top();
        top.flush_all(out, true);
        self.out
    }
}

fn src_text<'a>(v: &VLine<'a>) -> SrcText<'a> {
    SrcText {
        num: v.num,
        col: v.col,
        text: v.text,
    }
}

fn text_before(text: &str, at: usize) -> &str {
    text.get(..at).unwrap_or(text)
}

#[cfg(test)]
mod tests {
    /// The tree of a body (the input gets an empty header line), without
    /// positions.
    fn tree(body: &str) -> String {
        tree_of(&format!("\n{body}"))
    }

    fn tree_of(input: &str) -> String {
        let doc = crate::parse(input).document;
        let dump = crate::dump::tree(&doc);
        dump.lines()
            .skip(1)
            .map(|l| match l.rfind(" @") {
                Some(i) => l[..i].to_owned(),
                None => l.to_owned(),
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[track_caller]
    fn check(body: &str, expect: &str) {
        check_tree(tree(body), body, expect);
    }

    /// The same, in a document that declares `#Extend table`.
    #[track_caller]
    fn check_table(body: &str, expect: &str) {
        let tree = tree_of(&format!("#Extend table\n\n{body}"));
        let body_tree = tree
            .split_once("\nbody\n")
            .map_or(tree.as_str(), |(_, b)| b);
        check_tree(body_tree.to_owned(), body, expect);
    }

    #[track_caller]
    fn check_tree(got: String, body: &str, expect: &str) {
        let expect = expect
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| l.strip_prefix("        ").unwrap_or(l))
            .collect::<Vec<_>>()
            .join("\n");
        assert_eq!(got, expect, "\n--- input:\n{body}\n--- got:\n{got}\n");
    }

    #[test]
    fn block_table_cells_hold_blocks() {
        check_table(
            "|+ Options\n|-\n|= Option\n|= Meaning\n|-\n| --quiet\n| Print nothing.\n\n  Useful in scripts:\n\n      pagetext -q\n|-\n|\n    * a\n    * b\n| <\ntext\n",
            r#"
          table
            caption
              "Options"
            row
              header-cell
                text
                  "Option"
              header-cell
                text
                  "Meaning"
            row
              cell
                text
                  "--quiet"
              cell
                text
                  "Print nothing."
                paragraph
                  "Useful in scripts:"
                preformatted
                  line 1
                    "pagetext -q"
            row
              cell colspan=2
                list unordered
                  item
                    text
                      "a"
                  item
                    text
                      "b"
          paragraph
            "text"
        "#,
        );
    }

    #[test]
    fn seed_unordered_list_is_one_flat_list() {
        check(
            "  * first item\n  *     second item\n    * third\n      item\n",
            r#"
          list unordered
            item
              text
                "first item"
            item
              text
                "second item"
            item
              text
                "third"
                line-break
                "item"
        "#,
        );
    }

    #[test]
    fn seed_ordered_list_of_digits_is_one_flat_list() {
        check(
            "  1. one\n  2)    two\n     3. three\n",
            r#"
          list ordered decimal
            item
              text
                "one"
            item
              text
                "two"
            item
              text
                "three"
        "#,
        );
    }

    #[test]
    fn seed_ordered_list_of_letters_with_a_tab_is_one_flat_list() {
        check(
            "\ta) apple\n     b.    banana\n  c) cherry\n",
            r#"
          list ordered lower-alpha
            item
              text
                "apple"
            item
              text
                "banana"
            item
              text
                "cherry"
        "#,
        );
    }

    #[test]
    fn seed_definition_list() {
        check(
            "First term::\n    Definition of the first term.\nSecond\nterm::\nThird term::\n  Definition of the second and\n  the third term.\n",
            r#"
          definition-list
            def-item
              term
                "First term"
              definition
                text
                  "Definition of the first term."
            def-item
              term
                "Second"
                line-break
                "term"
              term
                "Third term"
              definition
                text
                  "Definition of the second and"
                  line-break
                  "the third term."
        "#,
        );
    }

    #[test]
    fn seed_empty_terms_make_an_indented_block() {
        check(
            "::\n    ::\n\tThis is a double\n\tindented paragraph.\n",
            r#"
          definition-list
            def-item
              definition
                definition-list
                  def-item
                    definition
                      text
                        "This is a double"
                        line-break
                        "indented paragraph."
        "#,
        );
    }

    #[test]
    fn seed_emulated_table_has_empty_cells_2_2_and_3_3() {
        let got = tree(
            "::\n    1.1   1.2   1.3   1.4\n    2.1   ::    2.3   2.4\n    3.1   3.2   ::    3.4\n",
        );
        // Each row is an item of the compact list inside the `::` block; each
        // cell a nested compact item; the empty cells are items without term.
        let rows: Vec<&str> = got.split("\n          def-item\n").collect();
        assert_eq!(rows.len(), 4, "{got}");
        // The texts of terms and of the last cell, in order.
        let cells = |row: &str| -> Vec<String> {
            let mut out = Vec::new();
            let mut lines = row.lines();
            while let Some(l) = lines.next() {
                if matches!(l.trim(), "term" | "text") {
                    out.push(lines.next().unwrap_or("").trim().to_owned());
                }
            }
            out
        };
        assert_eq!(cells(rows[1]), ["\"1.1\"", "\"1.2\"", "\"1.3\"", "\"1.4\""]);
        // Row 2: 2.1, (no term), 2.3, 2.4.
        assert_eq!(cells(rows[2]), ["\"2.1\"", "\"2.3\"", "\"2.4\""]);
        assert!(
            rows[2].contains("def-item\n                  definition\n"),
            "{}",
            rows[2]
        );
        // Row 3: 3.1, 3.2, (no term), 3.4.
        assert_eq!(cells(rows[3]), ["\"3.1\"", "\"3.2\"", "\"3.4\""]);
        assert!(
            rows[3].contains("def-item\n                        definition\n"),
            "{}",
            rows[3]
        );
    }

    #[test]
    fn seed_compact_list_by_term_lines() {
        check(
            "First term\n    Definition of the first term.\nSecond term\n  Definition of the second term.\n",
            r#"
          definition-list compact
            def-item
              term
                "First term"
              definition
                text
                  "Definition of the first term."
            def-item
              term
                "Second term"
              definition
                text
                  "Definition of the second term."
        "#,
        );
    }

    #[test]
    fn compact_terms_may_follow_normal_terms() {
        check(
            "A::\nB   b\n",
            r#"
          definition-list compact
            def-item
              term
                "A"
              term
                "B"
              definition
                text
                  "b"
        "#,
        );
        check(
            "A::\nB\n    b\n",
            r#"
          definition-list compact
            def-item
              term
                "A"
              term
                "B"
              definition
                text
                  "b"
        "#,
        );
    }

    #[test]
    fn seed_blockquote() {
        check(
            "  > This is a rather short\n    block quotation.\n",
            r#"
          blockquote
            text
              "This is a rather short"
              line-break
              "block quotation."
        "#,
        );
    }

    #[test]
    fn blockquotes_are_never_merged_but_list_items_are() {
        check(
            "  > a\n  > b\n\n  * c\n\n  * d\n",
            r#"
          blockquote
            text
              "a"
          blockquote
            text
              "b"
          list unordered
            item
              text
                "c"
            item
              text
                "d"
        "#,
        );
    }

    #[test]
    fn a_change_of_list_type_starts_a_new_list() {
        check(
            "  * a\n  1. b\n  a. c\n",
            r#"
          list unordered
            item
              text
                "a"
          list ordered decimal
            item
              text
                "b"
          list ordered lower-alpha
            item
              text
                "c"
        "#,
        );
    }

    #[test]
    fn only_the_first_item_decides_compactness() {
        check(
            "A::\n    a\nB   b\n",
            r#"
          definition-list
            def-item
              term
                "A"
              definition
                text
                  "a"
            def-item
              term
                "B"
              definition
                text
                  "b"
        "#,
        );
    }

    #[test]
    fn multi_line_terms_stop_at_sentence_ends() {
        check(
            "Some text.\nA long\nterm::\n    def\n",
            r#"
          paragraph
            "Some text."
          definition-list
            def-item
              term
                "A long"
                line-break
                "term"
              definition
                text
                  "def"
        "#,
        );
    }

    #[test]
    fn headings_and_rules_end_text_blocks() {
        check(
            "text\n= H =\n----\nmore\n",
            r#"
          paragraph
            "text"
          heading 1
            "H"
          rule
          paragraph
            "more"
        "#,
        );
    }

    #[test]
    fn preformatted_text_takes_intervening_empty_lines_only() {
        check(
            "    a\n\n      b\n\nc\n",
            r#"
          preformatted
            line 1
              "a"
            line 2
            line 3
              "  b"
          paragraph
            "c"
        "#,
        );
    }

    #[test]
    fn paragraph_or_text_inside_items() {
        check(
            "  * a\n\n    b\n\n    c\n  * d\n",
            r#"
          list unordered
            item
              text
                "a"
              paragraph
                "b"
              text
                "c"
            item
              text
                "d"
        "#,
        );
    }

    #[test]
    fn outdented_lines_close_several_elements() {
        check(
            "  * a\n      * b\n\n          > c\ntext\n",
            r#"
          list unordered
            item
              text
                "a"
              list unordered
                item
                  text
                    "b"
                  blockquote
                    text
                      "c"
          paragraph
            "text"
        "#,
        );
    }
}
