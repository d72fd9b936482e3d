//! Tables of the text format (`docs/format.md`, "Tables") as XHTML 1.0
//! can hold them: a `tr` holds at least one cell and a `table` at least
//! one row, so rows without cells are left out, and a table without rows
//! becomes its caption, as a paragraph. A row that the cells above cover
//! entirely (`| ^ | ^ |` in the text) has no cell of its own: it is left
//! out too, and each cell that reached into it spans one row less, so
//! that the rows below keep their places. Other empty rows and row-less
//! tables are only in documents built by hand.

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
    let events = shorten_spans(events, &drop);
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

/// The cells' row spans without the rows that go (`drop` flags their
/// starts): a cell that spans `n` rows from row `i` of its table spans `n`
/// less the rows that go among rows `i + 1 .. i + n`. Linear in the
/// events (a count of the rows that go before each row answers each
/// cell).
fn shorten_spans<'a>(mut events: Vec<Positioned<'a>>, drop: &[bool]) -> Vec<Positioned<'a>> {
    // Pass 1: for each table, in order of their starts, how many of its
    // rows before each row go (one count more than rows).
    let mut tables: Vec<Vec<usize>> = Vec::new();
    let mut open: Vec<usize> = Vec::new();
    for (i, (event, _)) in events.iter().enumerate() {
        match event {
            Event::Start(Tag::Table) => {
                open.push(tables.len());
                tables.push(vec![0]);
            }
            Event::End(TagEnd::Table) => {
                open.pop();
            }
            Event::Start(Tag::Row) => {
                if let Some(gone) = open.last().and_then(|&t| tables.get_mut(t)) {
                    let before = gone.last().copied().unwrap_or(0);
                    gone.push(before + usize::from(drop.get(i).copied().unwrap_or(false)));
                }
            }
            _ => {}
        }
    }
    // Pass 2: the spans. Each open table: its index, and its current row.
    let mut stack: Vec<(usize, Option<usize>)> = Vec::new();
    let mut next_table = 0;
    for (event, _) in &mut events {
        match event {
            Event::Start(Tag::Table) => {
                stack.push((next_table, None));
                next_table += 1;
            }
            Event::End(TagEnd::Table) => {
                stack.pop();
            }
            Event::Start(Tag::Row) => {
                if let Some((_, row)) = stack.last_mut() {
                    *row = Some(row.map_or(0, |r| r + 1));
                }
            }
            Event::Start(Tag::Cell { rowspan, .. }) if *rowspan > 1 => {
                if let Some(&(t, Some(r))) = stack.last()
                    && let Some(counts) = tables.get(t)
                {
                    let reach = usize::try_from(*rowspan).unwrap_or(usize::MAX);
                    let last = counts.len().saturating_sub(1);
                    let at = |row: usize| counts.get(row.min(last)).copied().unwrap_or(0);
                    // Rows r + 1 .. r + reach (exclusive), as far as the
                    // table goes.
                    let gone = at(r.saturating_add(reach)).saturating_sub(at(r + 1));
                    let gone = u32::try_from(gone).unwrap_or(u32::MAX);
                    *rowspan = rowspan.saturating_sub(gone).max(1);
                }
            }
            _ => {}
        }
    }
    events
}

/// For each table of `events`, in the order of their starts, how many of
/// its first rows go in a `thead`: the leading rows whose cells are all
/// header cells, as long as rows are left for the `tbody` (XHTML 1.0's
/// DTD wants one) and no cell of them spans a row below them (a row
/// group holds its cells' spans). The text cannot say where a table's
/// head ends; a row of header cells at the top is what a `thead` held.
pub(super) fn head_rows(events: &[Positioned<'_>]) -> Vec<usize> {
    /// One open table: its index in the answer, its rows so far, whether
    /// every row so far was a header row, and the lowest row a cell of
    /// those rows reaches (exclusive).
    struct Open {
        index: usize,
        rows: usize,
        heading: bool,
        reach: usize,
        /// Whether the current row has only header cells so far.
        row_heading: bool,
    }
    let mut out: Vec<usize> = Vec::new();
    let mut stack: Vec<Open> = Vec::new();
    for (event, _) in events {
        match event {
            Event::Start(Tag::Table) => {
                stack.push(Open {
                    index: out.len(),
                    rows: 0,
                    heading: true,
                    reach: 0,
                    row_heading: true,
                });
                out.push(0);
            }
            Event::Start(Tag::Row) => {
                if let Some(t) = stack.last_mut() {
                    t.row_heading = true;
                }
            }
            Event::Start(Tag::Cell {
                header, rowspan, ..
            }) => {
                if let Some(t) = stack.last_mut()
                    && t.heading
                {
                    t.row_heading &= *header;
                    let span = usize::try_from(*rowspan).unwrap_or(usize::MAX).max(1);
                    t.reach = t.reach.max(t.rows.saturating_add(span));
                }
            }
            Event::End(TagEnd::Row) => {
                if let Some(t) = stack.last_mut() {
                    t.rows += 1;
                    if t.heading && t.row_heading && t.reach <= t.rows {
                        if let Some(n) = out.get_mut(t.index) {
                            *n = t.rows;
                        }
                    } else if !t.row_heading {
                        t.heading = false;
                    }
                }
            }
            Event::End(TagEnd::Table) => {
                if let Some(t) = stack.pop()
                    && let Some(n) = out.get_mut(t.index)
                    && *n >= t.rows
                {
                    // No row would be left for the body.
                    *n = 0;
                }
            }
            _ => {}
        }
    }
    out
}
