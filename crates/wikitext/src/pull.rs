//! The pull parser: the document as a stream of [events](crate::events),
//! the way pulldown-cmark reads Markdown.
//!
//! [`Parser::new`] reads the header (Seed 000 "Meta Data") and runs the block
//! pass over the body (`block.rs`): the block structure, in document order,
//! with each leaf block (paragraph, text block, heading, term, preformatted
//! text) kept as its source lines. Iterating runs the inline pass
//! (`inline.rs`) on one leaf at a time, when the stream reaches it, so
//! only one leaf's events are held at once and text is borrowed from the
//! input. Every diagnostic comes from the header and the block pass, so
//! they are all known once the parser is made.

use crate::block::{Features, Flat, Item, Leaf, Line, parse_body};
use crate::diag::Diagnostic;
use crate::events::{Event, Positioned, Tag, TagEnd};
use crate::header::parse_header;
use crate::inline::{Mode, Piece, Places, Syntax, inline_events};
use crate::lines::{SrcLine, split_lines};
use crate::model::{Metadata, Pos};

/// A pull parser over a text: an iterator of [`Positioned`] events
/// (balanced starts and ends, text borrowed from `input` where it can be).
/// Never fails; time and memory are linear in the length of the input.
///
/// ```
/// use wikitext::events::{Event, Tag};
///
/// let mut parser = wikitext::Parser::new("#Title Hi\n\n= Hi =\n\nSome _text_.\n");
/// assert_eq!(parser.metadata().title.as_deref(), Some("Hi"));
/// let (first, pos) = parser.next().unwrap_or((Event::Rule, Default::default()));
/// assert_eq!(first, Event::Start(Tag::Heading(1)));
/// assert_eq!(pos.to_string(), "3:1");
/// let texts: Vec<String> = parser
///     .filter_map(|(e, _)| match e {
///         Event::Text(t) => Some(t.into_owned()),
///         _ => None,
///     })
///     .collect();
/// assert_eq!(texts, ["Hi", "Some ", "text", "."]);
/// ```
#[derive(Debug)]
pub struct Parser<'a> {
    meta: Metadata,
    diagnostics: Vec<Diagnostic>,
    flat: Flat<'a>,
    /// The next item of `flat` to turn into events.
    next: usize,
    /// The events of the current leaf; `queue[head..]` are still to come.
    queue: Vec<Positioned<'a>>,
    head: usize,
    /// The lines of the current leaf for the inline pass (a buffer kept
    /// from leaf to leaf).
    pieces: Vec<Piece<'a>>,
    /// What the header turns on for the inline pass.
    syntax: Syntax,
}

impl<'a> Parser<'a> {
    /// Reads the header and the block structure of `input`.
    pub fn new(input: &'a str) -> Parser<'a> {
        let lines = split_lines(input);
        let mut diagnostics = Vec::new();
        // Seed 000 "Body Part": the header is everything up to the first
        // empty line; the body is everything after it.
        let header_end = lines
            .iter()
            .position(SrcLine::is_empty)
            .unwrap_or(lines.len());
        let header = lines.get(..header_end).unwrap_or(&[]);
        let meta = parse_header(header, &mut diagnostics);
        let body_lines = lines.get(header_end + 1..).unwrap_or(&[]);
        let features = Features::of(&meta);
        let flat = parse_body(body_lines, features, &mut diagnostics);
        Parser {
            syntax: Syntax::of(&meta),
            meta,
            diagnostics,
            flat,
            next: 0,
            queue: Vec::new(),
            head: 0,
            pieces: Vec::new(),
        }
    }

    /// The header.
    pub fn metadata(&self) -> &Metadata {
        &self.meta
    }

    /// What the header and the block structure gave to say, in source
    /// order (header first). The inline pass has nothing to report, so this
    /// is complete from the start.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// The header and the diagnostics, taking them out of the parser (the
    /// events that remain are not affected).
    pub fn take_parts(&mut self) -> (Metadata, Vec<Diagnostic>) {
        (
            std::mem::take(&mut self.meta),
            std::mem::take(&mut self.diagnostics),
        )
    }

    /// Queues the events of the leaf `leaf` over `lines[from..to]`.
    fn leaf(&mut self, leaf: Leaf, (from, to): (usize, usize), pos: Pos) {
        let syntax = self.syntax;
        let lines = self.flat.lines.get(from..to).unwrap_or_default();
        if let Leaf::Cell {
            header,
            colspan,
            rowspan,
        } = leaf
        {
            // A cell holds a text block, or nothing.
            let cell = Tag::Cell {
                header,
                colspan,
                rowspan,
            };
            self.queue.push((Event::Start(cell), pos));
            if to > from {
                self.leaf(Leaf::Text, (from, to), pos);
            }
            self.queue.push((Event::End(TagEnd::Cell), Pos::UNKNOWN));
            return;
        }
        if leaf == Leaf::FigureImage {
            // The image's events go straight into the figure.
            let line = lines.first().map(|l| piece(l, 0));
            if let Some(line) = line {
                inline_events(
                    &[line],
                    Places::Pieces,
                    Mode::Normal,
                    syntax,
                    &mut self.queue,
                );
            }
            return;
        }
        let tag = match leaf {
            Leaf::Caption => Tag::Caption,
            Leaf::FigureImage => Tag::Text,
            Leaf::Cell { .. } => Tag::Text,
            Leaf::Paragraph => Tag::Paragraph,
            Leaf::Text => Tag::Text,
            Leaf::Heading(level) => Tag::Heading(level),
            Leaf::Term => Tag::Term,
            Leaf::Preformatted => Tag::Preformatted,
        };
        let end = tag.end();
        let queue = &mut self.queue;
        queue.push((Event::Start(tag), pos));
        if leaf == Leaf::Preformatted {
            // Seed 000: every line of preformatted text is examined
            // separately.
            for (n, line) in lines.iter().enumerate() {
                if n > 0 {
                    queue.push((Event::LineBreak, Pos::UNKNOWN));
                }
                if line.text.is_empty() {
                    continue;
                }
                // The extra indentation: spaces before the line.
                let piece = [piece(line, line.extra)];
                inline_events(&piece, Places::Pieces, Mode::Preformatted, syntax, queue);
            }
        } else {
            // The lines, read in place as if joined by `\n`.
            self.pieces.clear();
            let mut offset = 0;
            for line in lines {
                self.pieces.push(piece(line, offset));
                offset += line.text.len() + 1;
            }
            inline_events(&self.pieces, Places::Pieces, Mode::Normal, syntax, queue);
        }
        queue.push((Event::End(end), Pos::UNKNOWN));
    }

    /// The next event of the current leaf, if any is left.
    fn queued(&mut self) -> Option<Positioned<'a>> {
        let slot = self.queue.get_mut(self.head)?;
        self.head += 1;
        Some(std::mem::replace(slot, (Event::Rule, Pos::UNKNOWN)))
    }
}

fn piece<'a>(line: &Line<'a>, offset: usize) -> Piece<'a> {
    Piece {
        text: line.text,
        offset,
        line: line.num,
        col: line.col,
    }
}

impl<'a> Iterator for Parser<'a> {
    type Item = Positioned<'a>;

    fn next(&mut self) -> Option<Positioned<'a>> {
        if let Some(event) = self.queued() {
            return Some(event);
        }
        self.queue.clear();
        self.head = 0;
        // A marker a block table's cell claimed is no item.
        let item = loop {
            let item = self.flat.items.get(self.next)?;
            self.next += 1;
            if !matches!(item, Item::Skip) {
                break item;
            }
        };
        match *item {
            Item::Skip => None,
            Item::Start(ref tag, pos) => Some((Event::Start(tag.clone()), pos)),
            Item::End(ref tag) => Some((Event::End(tag.end()), Pos::UNKNOWN)),
            Item::Rule(pos) => Some((Event::Rule, pos)),
            Item::Leaf {
                leaf,
                from,
                to,
                pos,
            } => {
                self.leaf(leaf, (from, to), pos);
                self.queued()
            }
        }
    }
}
