//! `to-html --tables`: a compact definition list with the shape of a
//! regular grid, the seed's emulated table (seed 000, "Definition list":
//! "tables can be emulated by nested compact definition lists"), written as
//! a real `<table>`. Each item of the list is a row: its term is the first
//! cell, and its definition either the last cell (a text block) or a
//! compact list of one item that holds the next cells. An item without a
//! term (the empty term `::`) is an empty cell, and so is a definition
//! that holds nothing. Every row must have the same number of cells, at
//! least two, every cell one line of inline text or nothing, and every
//! column some text. A first row whose cells are each one strong element
//! or empty becomes the header, in `th` cells, without the strong emphasis
//! (which ingestion gives back to a `th`). Ingesting the table gives back
//! the same list, so the round trip stays a fixpoint. Anything else is
//! written as the list it is.

use wikitext::events::{Event, Positioned, Tag, TagEnd};

use super::walk::{Last, Walker};
use crate::serialize::TokenSink;

/// The events of the element that `start` begins (a compact definition
/// list, a table), from its start to its end.
pub(super) fn collect<'d>(
    start: Positioned<'d>,
    events: &mut impl Iterator<Item = Positioned<'d>>,
) -> Vec<Positioned<'d>> {
    let end = match &start.0 {
        Event::Start(tag) => Some(tag.end()),
        _ => None,
    };
    let mut out = vec![start];
    let Some(end) = end else {
        return out;
    };
    let mut depth = 1usize;
    for (event, pos) in events.by_ref() {
        match &event {
            Event::Start(tag) if tag.end() == end => depth += 1,
            Event::End(e) if *e == end => depth = depth.saturating_sub(1),
            _ => {}
        }
        out.push((event, pos));
        if depth == 0 {
            break;
        }
    }
    out
}

/// A grid: its rows of cells (each cell the inline events of its text),
/// and whether the first row is a header.
pub(super) struct Grid<'d> {
    rows: Vec<Vec<Vec<Positioned<'d>>>>,
    header: bool,
}

/// The grid a compact definition list's events make, or the events back
/// when they are not one.
pub(super) fn grid(events: Vec<Positioned<'_>>) -> Result<Grid<'_>, Vec<Positioned<'_>>> {
    let Some(rows) = read_rows(&events) else {
        return Err(events);
    };
    let width = rows.first().map_or(0, Vec::len);
    if width < 2 || rows.iter().any(|r| r.len() != width) {
        return Err(events);
    }
    // A column with no text at all is no table's column (a list of
    // definitions without terms, say).
    let filled = |c: usize| {
        rows.iter()
            .any(|r| r.get(c).is_some_and(|&(from, to)| from < to))
    };
    if !(0..width).all(filled) {
        return Err(events);
    }
    // The cells' events, moved out of the list's (each event is in at
    // most one cell).
    let mut slots: Vec<Option<Positioned<'_>>> = events.into_iter().map(Some).collect();
    let out: Vec<Vec<Vec<Positioned<'_>>>> = rows
        .iter()
        .map(|row| {
            row.iter()
                .map(|&(from, to)| {
                    slots
                        .get_mut(from..to)
                        .map(|cell| cell.iter_mut().filter_map(Option::take).collect())
                        .unwrap_or_default()
                })
                .collect()
        })
        .collect();
    // Empty cells do not decide: a corner cell is often empty.
    let header = out.first().is_some_and(|row| {
        row.iter().any(|cell| !cell.is_empty())
            && row.iter().all(|cell| cell.is_empty() || one_strong(cell))
    });
    Ok(Grid { rows: out, header })
}

/// The cells of each row as ranges of event indices (start inclusive, end
/// exclusive: the inline events between a term's or text block's start and
/// end); `None` when the events are not a grid.
fn read_rows(events: &[Positioned<'_>]) -> Option<Vec<Vec<(usize, usize)>>> {
    let at = |i: usize| events.get(i).map(|(e, _)| e);
    let compact_start = |i| {
        matches!(
            at(i),
            Some(Event::Start(Tag::DefinitionList { compact: true }))
        )
    };
    if !compact_start(0) {
        return None;
    }
    let mut rows = Vec::new();
    let mut i = 1;
    // Items of the outer list until its end.
    loop {
        match at(i)? {
            Event::End(TagEnd::DefinitionList) => break,
            Event::Start(Tag::DefItem) => {}
            _ => return None,
        }
        let mut row = Vec::new();
        // One item: a term, then a definition that ends the row or holds a
        // list of one item that goes on.
        let mut nested = 0usize;
        loop {
            i += 1;
            if matches!(at(i)?, Event::Start(Tag::Definition)) {
                // An item without a term: the empty term `::`, an empty
                // cell (the seed's example has two).
                row.push((i, i));
            } else {
                let (from, to) = inline_span(events, i, Tag::Term, TagEnd::Term)?;
                row.push((from, to));
                i = to + 1;
                if !matches!(at(i)?, Event::Start(Tag::Definition)) {
                    return None;
                }
            }
            i += 1;
            if compact_start(i) {
                // The next cells, in a list of one item.
                nested += 1;
                i += 1;
                if !matches!(at(i)?, Event::Start(Tag::DefItem)) {
                    return None;
                }
                continue;
            }
            if at(i) == Some(&Event::End(TagEnd::Definition)) {
                // A term without a definition: an empty last cell.
                row.push((i, i));
                break;
            }
            let (from, to) = inline_span(events, i, Tag::Text, TagEnd::Text)
                .or_else(|| inline_span(events, i, Tag::Paragraph, TagEnd::Paragraph))?;
            row.push((from, to));
            i = to + 1;
            break;
        }
        // Close the innermost item, then each list of one item around it.
        let mut ends = vec![TagEnd::Definition, TagEnd::DefItem];
        for _ in 0..nested {
            ends.extend([TagEnd::DefinitionList, TagEnd::Definition, TagEnd::DefItem]);
        }
        for end in ends {
            if at(i) != Some(&Event::End(end)) {
                return None;
            }
            i += 1;
        }
        rows.push(row);
    }
    Some(rows)
}

/// At `i`, `start`, then inline events only, then `end`: the range of the
/// inline events.
fn inline_span(
    events: &[Positioned<'_>],
    i: usize,
    start: Tag<'static>,
    end: TagEnd,
) -> Option<(usize, usize)> {
    let (first, _) = events.get(i)?;
    if !same_start(first, &start) {
        return None;
    }
    let mut j = i + 1;
    loop {
        let (event, _) = events.get(j)?;
        match event {
            Event::End(e) if *e == end => return Some((i + 1, j)),
            Event::Text(_) | Event::Email(_) => {}
            Event::Start(Tag::Emphasis | Tag::Strong | Tag::Code | Tag::Link { .. })
            | Event::End(TagEnd::Emphasis | TagEnd::Strong | TagEnd::Code | TagEnd::Link) => {}
            // A line division, a block: not one line of text.
            _ => return None,
        }
        j += 1;
    }
}

fn same_start(event: &Event<'_>, tag: &Tag<'_>) -> bool {
    match event {
        Event::Start(t) => std::mem::discriminant(t) == std::mem::discriminant(tag),
        _ => false,
    }
}

/// Whether a cell is one strong element: it starts with a strong start
/// whose end is its last event.
fn one_strong(cell: &[Positioned<'_>]) -> bool {
    if !matches!(cell.first(), Some((Event::Start(Tag::Strong), _))) {
        return false;
    }
    let mut depth = 0usize;
    for (n, (event, _)) in cell.iter().enumerate() {
        match event {
            Event::Start(Tag::Strong) => depth += 1,
            Event::End(TagEnd::Strong) => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return n + 1 == cell.len();
                }
            }
            _ => {}
        }
    }
    false
}

impl<'d, S: TokenSink<'d>> Walker<'d, S> {
    /// Writes a grid as a table.
    pub(super) fn table(&mut self, grid: Grid<'d>) {
        let Grid { rows, header } = grid;
        self.begin_block(Last::Other);
        self.start("table");
        self.layout();
        let mut rows = rows.into_iter();
        if header && let Some(first) = rows.next() {
            self.start("thead");
            self.layout();
            self.row(first, true);
            self.end("thead");
            self.layout();
        }
        self.start("tbody");
        self.layout();
        for row in rows {
            self.row(row, false);
        }
        self.end("tbody");
        self.layout();
        self.end("table");
        self.end_block();
    }

    /// One row: `th` cells (their strong element unwrapped) or `td` cells.
    fn row(&mut self, cells: Vec<Vec<Positioned<'d>>>, header: bool) {
        let first = cells.first().and_then(|c| c.first());
        self.start_block("tr", first.map_or(wikitext::Pos::UNKNOWN, |(_, p)| *p));
        for cell in cells {
            let pos = cell.first().map_or(wikitext::Pos::UNKNOWN, |(_, p)| *p);
            let mut events = cell;
            if header {
                // The strong element is the `th`'s own.
                events.pop();
                if !events.is_empty() {
                    events.remove(0);
                }
            }
            self.open_element(TagEnd::Term, Some(if header { "th" } else { "td" }), pos);
            for (event, pos) in events {
                self.event(event, pos);
            }
            // The cell's end closes what its events left open.
            while self.open.last().is_some_and(|o| o.end != TagEnd::Term) {
                if let Some(end) = self.open.last().map(|o| o.end) {
                    self.close(end);
                }
            }
            self.close(TagEnd::Term);
        }
        self.end("tr");
        self.layout();
    }
}
