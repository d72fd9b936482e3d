//! Tables of the text format (`docs/format.md`, "Tables") as XHTML 1.0
//! can hold them: a `tr` holds at least one cell and a `table` at least
//! one row, so rows without cells are left out, and a table without rows
//! becomes its caption, as a paragraph. A canonical document has neither;
//! this is for documents built by hand.

use wikitext::events::{Event, Positioned, Tag, TagEnd};

enum Frame {
    Table { at: usize, rows: bool },
    Row { at: usize, cells: bool },
}

/// The table's events (tables nested in its cells included) without empty
/// rows and row-less tables; and how many of them were left out.
pub(super) fn holdable(events: Vec<Positioned<'_>>) -> (Vec<Positioned<'_>>, usize) {
    // Pass 1: which starts of rows and tables go.
    let mut drop = vec![false; events.len()];
    let mut stack: Vec<Frame> = Vec::new();
    for (i, (event, _)) in events.iter().enumerate() {
        match event {
            Event::Start(Tag::Table) => stack.push(Frame::Table { at: i, rows: false }),
            Event::Start(Tag::Row) => stack.push(Frame::Row {
                at: i,
                cells: false,
            }),
            Event::Start(Tag::Cell { .. }) => {
                if let Some(Frame::Row { cells, .. }) = stack.last_mut() {
                    *cells = true;
                }
            }
            Event::End(TagEnd::Row) => {
                if let Some(Frame::Row { at, cells }) = stack.pop() {
                    if let Some(d) = drop.get_mut(at) {
                        *d = !cells;
                    }
                    if let (true, Some(Frame::Table { rows, .. })) = (cells, stack.last_mut()) {
                        *rows = true;
                    }
                }
            }
            Event::End(TagEnd::Table) => {
                if let Some(Frame::Table { at, rows }) = stack.pop()
                    && let Some(d) = drop.get_mut(at)
                {
                    *d = !rows;
                }
            }
            _ => {}
        }
    }
    let left_out = drop.iter().filter(|d| **d).count();
    if left_out == 0 {
        return (events, 0);
    }
    // Pass 2: without them.
    let mut out = Vec::with_capacity(events.len());
    let mut skip: Option<(TagEnd, usize)> = None;
    let mut in_caption = false;
    for (i, (event, pos)) in events.into_iter().enumerate() {
        if let Some((end, depth)) = &mut skip {
            match &event {
                Event::Start(tag) if tag.end() == *end => *depth += 1,
                Event::End(e) if e == end => {
                    *depth -= 1;
                    if *depth == 0 {
                        skip = None;
                        in_caption = false;
                        continue;
                    }
                }
                _ => {}
            }
            // A row-less table keeps its caption, as a paragraph.
            if *end == TagEnd::Table {
                match &event {
                    Event::Start(Tag::Caption) => {
                        in_caption = true;
                        out.push((Event::Start(Tag::Paragraph), pos));
                    }
                    Event::End(TagEnd::Caption) => {
                        in_caption = false;
                        out.push((Event::End(TagEnd::Paragraph), pos));
                    }
                    _ if in_caption => out.push((event, pos)),
                    _ => {}
                }
            }
            continue;
        }
        if drop.get(i).copied().unwrap_or(false)
            && let Event::Start(tag) = &event
        {
            skip = Some((tag.end(), 1));
            continue;
        }
        out.push((event, pos));
    }
    (out, left_out)
}
