//! Near misses: text one character away from markup, which therefore reads
//! as something its author probably did not mean. [`hints`] reports each
//! one as a warning, or as a note for the three kinds that real text often
//! has on purpose (see `warn`); parsing is not changed by them.
//!
//! The hints look at the block structure exactly as the parser builds it
//! (the block pass is run again), and decide with the parser's own
//! scanners (`scan`): a line only draws a hint when the parser really read
//! it the other way. Five kinds, one [`Code`] each:
//!
//! - [`Code::HeadingMarkersUneven`]: `= Title ==`, a heading line whose
//!   runs of `=` differ in length; it reads as text.
//! - [`Code::LinkNotRecognized`]: `[http://a b||x]`, the shape of a link
//!   whose URL or fragment holds white space or one of `{}[|]<>"`; it reads
//!   as text, brackets and bars included.
//! - [`Code::TermWithoutColons`]: a line of text right above a term that
//!   stands on its own line, where the author probably meant one term over
//!   both lines; without `::` on the last line only that last line is the
//!   term.
//! - [`Code::CompactItemInText`]: a line with three spaces in a row inside
//!   text, which the parser reads as a compact definition item (term, gap,
//!   definition), splitting the text around it; or a list's only item
//!   whose term is four words or more (a sentence cut in two).
//! - [`Code::MarkupBlockedBySide`]: a pair of `_`, `*` or `'` inside one
//!   word that would be markup but for a letter or digit on one side of it
//!   (seed 000 inline rule 3), as in `foo*bar*`. Not in preformatted text,
//!   not in sample text (found with one more run of the parser's event
//!   stream, only when there is a candidate).
//! - [`Code::TableNotRecognized`]: in a document that declares `#Extend
//!   table`, a line of text that starts with `|` and holds another `|`
//!   but does not end with one (a row of the grid form without its last
//!   bar), or that is a cell's mark with text (`| text`, `|= text`) right
//!   after a line that is not `|-` (a table of the block form starts with
//!   `|-`).
//!
//! - [`Code::MarkdownHabit`]: what a Markdown writer types (`# Title`,
//!   `- item` at the start of a line, `**strong**`, `[text](url)`,
//!   `` `code` ``, a fence, a table without `#Extend table`), with this
//!   format's spelling (see `markdown`).
//!
//! With `#Escape \` declared, an escaped character is never part of a
//! hint. `docs/format.md` ("Near misses") explains where each hint stops.
//!
//! The scan is one pass over the lines of the leaves; every line is looked
//! at a bounded number of times, so time is linear in the input (plus a
//! sort of the hints). No recursion, no panics.

mod markdown;

use crate::block::{Flat, Item, Leaf, Line, parse_body};
use crate::diag::{Code, Diagnostic, Severity, Span};
use crate::events::{Event, Tag, TagEnd};
use crate::grammar::ESCAPE;
use crate::lines::{SrcLine, split_lines};
use crate::scan::{
    BlockLine, bullet, compact_split, ends_sentence, heading, is_link_value_char, is_side_char,
    link_prefix, three_spaces,
};

/// Near misses in `text`, a whole document (header and body), in source
/// order: each a [`Severity::Warning`] whose span covers the characters
/// concerned. Meant for `pagetext check` and editors; [`crate::parse`] does
/// not call it. Linear time; never panics.
///
/// ```
/// let hints = wikitext::hints("\n= Title ==\n\nfoo*bar* and [http://a b||x]\n");
/// let codes: Vec<&str> = hints.iter().map(|d| d.code.as_str()).collect();
/// assert_eq!(
///     codes,
///     ["heading-markers-uneven", "markup-blocked-by-side", "link-not-recognized"]
/// );
/// assert_eq!(hints[1].span.to_string(), "4:4-9");
/// ```
pub fn hints(text: &str) -> Vec<Diagnostic> {
    let lines = split_lines(text);
    let header_end = lines
        .iter()
        .position(SrcLine::is_empty)
        .unwrap_or(lines.len());
    let header = lines.get(..header_end).unwrap_or(&[]);
    let mut ignored = Vec::new();
    let meta = crate::header::parse_header(header, &mut ignored);
    let escapes = meta.escape;
    let body = lines.get(header_end + 1..).unwrap_or(&[]);
    let features = crate::block::Features::of(&meta);
    let flat = parse_body(body, features, &mut ignored);

    let mut out = Vec::new();
    // The last leaf before the current item: its kind and its lines.
    let mut prev: Option<(Leaf, &[Line<'_>])> = None;
    // A compact term on the same line as its definition, waiting to see
    // whether text follows right below it.
    let mut pending_compact: Option<Line<'_>> = None;
    for (k, item) in flat.items.iter().enumerate() {
        let Item::Leaf { leaf, from, to, .. } = item else {
            continue;
        };
        let leaf_lines = flat.lines.get(*from..*to).unwrap_or_default();
        let first = leaf_lines.first().copied();
        if let (Some(term), Some(next)) = (pending_compact, first) {
            // Text right below a one-line compact item, at its column.
            if is_text(*leaf) && next.num == term.num.saturating_add(1) && next.col == term.col {
                compact_hint(text, &term, &mut out);
                pending_compact = None;
            } else if next.num != term.num {
                pending_compact = None;
            }
        }
        match leaf {
            Leaf::Preformatted => {
                for line in leaf_lines {
                    let skips = escape_skips(line.text, escapes);
                    near_links(line, escapes, &skips, &mut out);
                }
            }
            Leaf::Term => {
                if let Some(term) = first {
                    let lone = lone_compact_item(&flat, k, term.num);
                    term_hints(text, &term, prev, lone, &mut out, &mut pending_compact);
                }
                for line in leaf_lines {
                    uneven_heading(line, "a definition term", &mut out);
                    line_hints(line, escapes, &mut out);
                }
            }
            Leaf::Caption | Leaf::Cell { .. } | Leaf::FigureImage => {
                for line in leaf_lines {
                    line_hints(line, escapes, &mut out);
                }
            }
            Leaf::Paragraph | Leaf::Text | Leaf::Heading(_) => {
                for (j, line) in leaf_lines.iter().enumerate() {
                    if matches!(leaf, Leaf::Paragraph | Leaf::Text) {
                        uneven_heading(line, "text", &mut out);
                        if meta.table {
                            let above = j.checked_sub(1).and_then(|i| leaf_lines.get(i));
                            table_near_miss(line, above, &mut out);
                        }
                        let skips = escape_skips(line.text, escapes);
                        let place = markdown::Place {
                            first: j == 0,
                            top: line.col <= 1,
                        };
                        markdown::habits(line, &skips, place, meta.table, &mut out);
                    }
                    line_hints(line, escapes, &mut out);
                }
            }
        }
        prev = Some((*leaf, leaf_lines));
    }
    if out.iter().any(|d| d.code == Code::MarkupBlockedBySide) {
        // Sample text is literal to the reader, and so is a link's URL or
        // fragment: no rule 3 hint inside them.
        let literal = literal_regions(text);
        out.retain(|d| d.code != Code::MarkupBlockedBySide || !inside(&literal, &d.span));
    }
    out.sort_by_key(|d| (d.span.line, d.span.column));
    out
}

/// A stretch of source from one position up to (not including) another,
/// as (line, column) pairs.
type Region = ((u32, u32), (u32, u32));

/// Where sample text (`'...'`) and the values of links (from `[` to the
/// first event of the link's text) lie, in document order, as the parser's
/// own event stream has it: sample text from its start up to the next event
/// with a position after its end (the rest of its leaf when none follows in
/// it). One more pass of the parser, without a tree.
fn literal_regions(text: &str) -> Vec<Region> {
    let mut regions = Vec::new();
    let mut open: Option<(u32, u32)> = None;
    let mut ended = false;
    let mut depth = 0usize;
    let mut link: Option<(u32, u32)> = None;
    for (event, pos) in crate::pull::Parser::new(text) {
        let at = (pos.line, pos.column);
        if pos.line != 0
            && let Some(start) = link.take()
        {
            regions.push((start, at));
        }
        if ended && pos.line != 0 {
            if let Some(start) = open.take() {
                regions.push((start, at));
            }
            ended = false;
        }
        if matches!(event, Event::Start(Tag::Link { .. })) && open.is_none() {
            link = Some(at);
            continue;
        }
        match event {
            Event::Start(Tag::Code) => {
                if depth == 0 && open.is_none() {
                    open = Some(at);
                }
                depth += 1;
            }
            Event::End(TagEnd::Code) => {
                depth = depth.saturating_sub(1);
                ended = depth == 0;
            }
            _ => {}
        }
    }
    for start in [open, link].into_iter().flatten() {
        regions.push((start, (u32::MAX, u32::MAX)));
    }
    // Sorted and disjoint, as `inside` needs: a link inside sample text is
    // within the sample text's region.
    regions.sort_unstable();
    let mut merged: Vec<Region> = Vec::with_capacity(regions.len());
    for (start, end) in regions {
        match merged.last_mut() {
            Some((_, last_end)) if start <= *last_end => *last_end = (*last_end).max(end),
            _ => merged.push((start, end)),
        }
    }
    merged
}

/// Whether the span starts inside one of the regions (sorted, disjoint).
fn inside(regions: &[Region], span: &Span) -> bool {
    let at = (span.line, span.column);
    let n = regions.partition_point(|(start, _)| *start <= at);
    n.checked_sub(1)
        .and_then(|i| regions.get(i))
        .is_some_and(|(_, end)| at < *end)
}

fn is_text(leaf: Leaf) -> bool {
    matches!(leaf, Leaf::Paragraph | Leaf::Text)
}

/// Inline hints of one line of text (not preformatted).
fn line_hints(line: &Line<'_>, escapes: bool, out: &mut Vec<Diagnostic>) {
    let skips = escape_skips(line.text, escapes);
    near_links(line, escapes, &skips, out);
    blocked_pairs(line, &skips, out);
}

/// A line of text that starts like a table line but reads as text (the
/// parser's own table scanners decide): a row without its last `|`, or a
/// cell's mark with text that no `|-` line (`above`, in the same text
/// block) starts a table for. An escaped bar (`\|`) is text on purpose.
fn table_near_miss(line: &Line<'_>, above: Option<&Line<'_>>, out: &mut Vec<Diagnostic>) {
    let text = line.text.trim_end();
    if !text.starts_with('|') {
        return;
    }
    let span = span_of(line, 0, text.len());
    let message = if text.len() > 1 && text.get(1..).is_some_and(|r| r.contains('|')) {
        "this line reads as text: a table row ends with `|` as well".to_owned()
    } else if let Some(BlockLine::Cell { mark, .. }) = crate::scan::block_line(text)
        && mark < text.len()
        && above.is_none_or(|a| crate::scan::block_line(a.text) != Some(BlockLine::RowEnd))
    {
        "this line reads as text: a table of one cell per line starts with a line `|-`".to_owned()
    } else {
        return;
    };
    out.push(warn(Code::TableNotRecognized, message, span));
}

fn chars_u32(s: &str) -> u32 {
    u32::try_from(s.chars().count()).unwrap_or(u32::MAX)
}

/// The span of bytes `a..b` of the line's text.
fn span_of(line: &Line<'_>, a: usize, b: usize) -> Span {
    let start = line
        .col
        .saturating_add(chars_u32(line.text.get(..a).unwrap_or_default()));
    let end = start.saturating_add(chars_u32(line.text.get(a..b).unwrap_or_default()));
    Span::new(line.num, start, line.num, end)
}

/// A hint: a warning where the shape is unambiguous (an uneven heading, a
/// term that lost its first line), a note where real text often has the
/// same shape on purpose (code with `[`…`||`…`]`, a converted page's
/// emulated table inside text, identifiers like `_Py_NoneStruct`): on the
/// text of the project's two corpora those three gave 281 notes in 135 of
/// 2,426 pages, nearly all intended. `check -v`, `--json` and the editor
/// show notes.
fn warn(code: Code, message: String, span: Span) -> Diagnostic {
    let severity = match code {
        Code::HeadingMarkersUneven | Code::TermWithoutColons | Code::TableNotRecognized => {
            Severity::Warning
        }
        _ => Severity::Info,
    };
    Diagnostic::new(code, severity, message, span)
}

/// The rest of the source line after `part` (a slice of `source`), up to
/// the line end; empty when `part` is not a slice of `source`.
fn rest_of_line<'s>(source: &'s str, part: &str) -> &'s str {
    let start = (part.as_ptr() as usize).checked_sub(source.as_ptr() as usize);
    let Some(end) = start.and_then(|s| s.checked_add(part.len())) else {
        return "";
    };
    let rest = source.get(end..).unwrap_or_default();
    rest.split(['\n', '\r']).next().unwrap_or_default()
}

/// `= Title ==`: opening and closing runs of `=` of different lengths
/// (each 1 to 6, each set off by a space), which the heading scanner
/// refuses. `reads_as` says what the parser made of the line.
fn uneven_heading(line: &Line<'_>, reads_as: &str, out: &mut Vec<Diagnostic>) {
    let t = line.text;
    if heading(t).is_some() {
        return;
    }
    let open = t.len() - t.trim_start_matches('=').len();
    let close = t.len() - t.trim_end_matches('=').len();
    if open == 0 || close == 0 || open == close || open + close >= t.len() {
        return;
    }
    let inner = t.get(open..t.len() - close).unwrap_or_default();
    if !(1..=6).contains(&open) || !(1..=6).contains(&close) {
        return;
    }
    let Some(title) = inner.strip_prefix(' ').and_then(|s| s.strip_suffix(' ')) else {
        return;
    };
    if title.trim().is_empty() {
        return;
    }
    out.push(warn(
        Code::HeadingMarkersUneven,
        format!(
            "{open} `=` before the title but {close} after it: a heading needs the same number \
             on both sides, so this line reads as {reads_as}"
        ),
        span_of(line, 0, t.len()),
    ));
}

/// The escaping backslashes of a line (a document with `#Escape \`), as
/// the reader pairs them ([`crate::escape::mask`]): byte offsets, in order.
fn escape_skips(t: &str, escapes: bool) -> Vec<usize> {
    if !escapes {
        return Vec::new();
    }
    crate::escape::mask(t).map(|m| m.skips).unwrap_or_default()
}

/// Whether the character at byte `i` is escaped: a backslash of `skips`
/// stands right before it.
fn escaped(skips: &[usize], i: usize) -> bool {
    i.checked_sub(1)
        .is_some_and(|k| skips.binary_search(&k).is_ok())
}

/// `[a b|c|text]`: a `[`, two `|` and a `]` on one line, where the parser's
/// link prefix fails because the URL or fragment holds a character a link
/// value may not. The scan from each `[` stops at the next `[` or `]`, so
/// no character is looked at twice.
fn near_links(line: &Line<'_>, escapes: bool, skips: &[usize], out: &mut Vec<Diagnostic>) {
    let t = line.text;
    let bytes = t.as_bytes();
    let mut i = 0;
    while let Some(off) = bytes
        .get(i..)
        .and_then(|b| b.iter().position(|&c| c == b'['))
    {
        let a = i + off;
        i = a + 1;
        if escaped(skips, a) {
            continue;
        }
        let rest = t.get(a..).unwrap_or_default();
        if link_prefix(rest).is_some() {
            continue;
        }
        // The stretch up to the next bracket, which must be `]`.
        let Some(len) = rest
            .as_bytes()
            .iter()
            .skip(1)
            .position(|&c| c == b'[' || c == b']')
        else {
            break;
        };
        let end = a + 1 + len;
        if bytes.get(end) != Some(&b']') {
            i = end;
            continue;
        }
        i = end + 1;
        let inner = t.get(a + 1..end).unwrap_or_default();
        let mut parts = inner.splitn(3, '|');
        let (Some(url), Some(fragment), Some(_)) = (parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        if url.is_empty() && fragment.is_empty() {
            continue;
        }
        if escapes && (url.contains(ESCAPE) || fragment.contains(ESCAPE)) {
            continue;
        }
        let bad = url
            .chars()
            .chain(fragment.chars())
            .find(|&c| !is_link_value_char(c));
        let Some(bad) = bad else {
            continue;
        };
        let what = if bad.is_whitespace() {
            "white space".to_owned()
        } else {
            format!("`{bad}`")
        };
        out.push(warn(
            Code::LinkNotRecognized,
            format!(
                "this reads as text, not as a link: its URL or fragment holds {what}, \
                 which a link value may not (percent-encode it)"
            ),
            span_of(line, a, end + 1),
        ));
    }
}

/// Seed 000 inline rule 3 near misses: in one word (a run without white
/// space) holding exactly two markup characters of `_ * '`, both the same
/// and single, the pair encloses something, and exactly one of its outer
/// sides is a character rule 3 refuses (a letter or digit) while the other
/// is allowed. `foo*bar*` and `_x_y` draw a hint; `snake_case_names`,
/// `__init__`, `rock'n'roll` (refused on both sides: an identifier or a
/// contraction) and `a_b` (no pair) do not.
fn blocked_pairs(line: &Line<'_>, skips: &[usize], out: &mut Vec<Diagnostic>) {
    let t = line.text;
    let mut start = 0;
    for (end, _) in t
        .char_indices()
        .filter(|(_, c)| c.is_whitespace())
        .chain(std::iter::once((t.len(), ' ')))
    {
        let word = t.get(start..end).unwrap_or_default();
        let base = start;
        start = end
            + t.get(end..)
                .and_then(|s| s.chars().next())
                .map_or(0, char::len_utf8);
        if word.len() < 3 {
            continue;
        }
        let mut marks = word
            .char_indices()
            .filter(|&(i, c)| matches!(c, '_' | '*' | '\'') && !escaped(skips, base + i));
        let (Some((i, m)), Some((j, n)), None) = (marks.next(), marks.next(), marks.next()) else {
            continue;
        };
        if m != n || j <= i + 1 {
            continue;
        }
        let before = word.get(..i).and_then(|s| s.chars().next_back());
        let after = word.get(j + 1..).and_then(|s| s.chars().next());
        let inner_first = word.get(i + 1..).and_then(|s| s.chars().next());
        let inner_last = word.get(..j).and_then(|s| s.chars().next_back());
        // (An escaped character next to the markup is punctuation, and so
        // is the backslash before it: `is_side_char` accepts both.)
        if is_side_char(inner_first) || is_side_char(inner_last) {
            // The enclosed text starts or ends with punctuation: probably
            // not meant as markup (`a_-_b`).
            continue;
        }
        let (ok_before, ok_after) = (is_side_char(before), is_side_char(after));
        if ok_before == ok_after {
            continue;
        }
        let what = match m {
            '_' => "emphasis",
            '*' => "strong emphasis",
            _ => "sample text",
        };
        let (blocker, place) = if ok_before {
            (after.unwrap_or(' '), "after")
        } else {
            (before.unwrap_or(' '), "before")
        };
        out.push(warn(
            Code::MarkupBlockedBySide,
            format!(
                "`{m}` … `{m}` is not {what}: `{blocker}` stands right {place} it, and only \
                 white space or punctuation may (the format's inline rule 3: markup counts \
                 only at a word's edge)"
            ),
            span_of(line, base + i, base + j + 1),
        ));
    }
}

/// Hints on a term: a compact term on its own line right below a line of
/// text that could have been part of a longer term; a compact term on the
/// line of its definition, right below text.
fn term_hints<'a>(
    source: &str,
    term: &Line<'a>,
    prev: Option<(Leaf, &[Line<'a>])>,
    lone: bool,
    out: &mut Vec<Diagnostic>,
    pending_compact: &mut Option<Line<'a>>,
) {
    let rest = rest_of_line(source, term.text);
    let rest_trim = rest.trim_start();
    if rest_trim.starts_with("::") {
        return;
    }
    let above = prev.and_then(|(leaf, lines)| {
        let last = lines.last()?;
        (is_text(leaf) && last.num.saturating_add(1) == term.num && last.col == term.col)
            .then_some(*last)
    });
    if rest_trim.is_empty() {
        // A compact term on its own line.
        // A term that starts like a list bullet is an unindented list item
        // more likely than half of a term.
        if let Some(above) = above
            && !ends_sentence(above.text)
            && compact_split(above.text).is_none()
            && bullet(term.text).is_none()
        {
            out.push(warn(
                Code::TermWithoutColons,
                "only the next line is a definition term; this line reads as text. To make \
                 one term of both lines, end the last with `::`"
                    .to_owned(),
                span_of(&above, 0, above.text.len()),
            ));
        }
        return;
    }
    // A compact term followed by three spaces and its definition.
    // Only a line with one gap, whose term starts the line: a row of an
    // emulated table (items nested on one line) is meant.
    let after_gap = rest.trim_start_matches([' ', '\t']);
    if !starts_line(source, term.text) || three_spaces(after_gap).is_some() {
        return;
    }
    // A term of four words or more that is a list's only item is most
    // likely a sentence cut in two: terms are words or short phrases.
    let sentence = lone && term.text.split_whitespace().nth(3).is_some();
    if above.is_some() || sentence {
        compact_hint(source, term, out);
    } else {
        *pending_compact = Some(*term);
    }
}

/// Whether the term leaf at `items[k]` is the only item of its
/// definition list, with a definition of one line on the term's line
/// `num`: `Start(list) Start(item) term Start(definition) leaf
/// End(definition) End(item) End(list)`.
fn lone_compact_item(flat: &Flat<'_>, k: usize, num: u32) -> bool {
    let before = k.checked_sub(2).and_then(|a| flat.items.get(a..k));
    let after = flat.items.get(k + 1..k + 6);
    let (Some(before), Some(after)) = (before, after) else {
        return false;
    };
    let opens = matches!(
        before,
        [
            Item::Start(Tag::DefinitionList { .. }, _),
            Item::Start(Tag::DefItem, _)
        ]
    );
    let one_line = match after {
        [
            Item::Start(Tag::Definition, _),
            Item::Leaf { from, to, .. },
            Item::End(Tag::Definition),
            Item::End(Tag::DefItem),
            Item::End(Tag::DefinitionList { .. }),
        ] => flat
            .lines
            .get(*from..*to)
            .is_some_and(|l| matches!(l, [line] if line.num == num)),
        _ => false,
    };
    opens && one_line
}

/// Whether only spaces and tabs stand before `part` (a slice of
/// `source`) on its source line.
fn starts_line(source: &str, part: &str) -> bool {
    let Some(start) = (part.as_ptr() as usize).checked_sub(source.as_ptr() as usize) else {
        return false;
    };
    let before = source.get(..start).unwrap_or_default();
    let line = before.rsplit(['\n', '\r']).next().unwrap_or_default();
    line.chars().all(|c| c == ' ' || c == '\t')
}

/// The three-space gap after a compact term that splits text.
fn compact_hint(source: &str, term: &Line<'_>, out: &mut Vec<Diagnostic>) {
    let rest = rest_of_line(source, term.text);
    let gap = rest.len() - rest.trim_start_matches([' ', '\t']).len();
    let start = term.col.saturating_add(chars_u32(term.text));
    let end = start.saturating_add(u32::try_from(gap).unwrap_or(u32::MAX));
    out.push(warn(
        Code::CompactItemInText,
        "three spaces in a row inside text make this line a compact definition item (term, \
         gap, definition), which splits the text; use one space"
            .to_owned(),
        Span::new(term.num, start, term.num, end),
    ));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hints of a body (an empty header line is put in front), as
    /// `span code` strings.
    fn h(body: &str) -> Vec<String> {
        hints(&format!("\n{body}"))
            .iter()
            .map(|d| format!("{} {}", d.span, d.code))
            .collect()
    }

    #[test]
    fn table_near_misses() {
        let got = |text: &str| -> Vec<String> {
            hints(text)
                .iter()
                .map(|d| format!("{} {}", d.code, d.span))
                .collect()
        };
        // A row without its last bar; a cell's mark without `|-` first.
        assert_eq!(
            got("#Extend table\n\n| a | b |\n| c | d\n"),
            ["table-not-recognized 4:1-8"]
        );
        assert_eq!(
            got("#Extend table\n\n| a cell\n|= a header\n"),
            ["table-not-recognized 3:1-9", "table-not-recognized 4:1-12"]
        );
        // Tables, a lone bar, escaped bars and undeclared tables draw none.
        assert!(got("#Extend table\n\n| a | b |\n\n|-\n| a cell\n").is_empty());
        assert!(got("#Extend table\n#Escape \\\n\n\\| a | b\n|\n").is_empty());
        assert!(got("\n| a | b\n| a cell\n").is_empty());
    }

    #[test]
    fn uneven_headings() {
        assert_eq!(h("= Heading =="), ["2:1-13 heading-markers-uneven"]);
        assert_eq!(h("=== Three ="), ["2:1-12 heading-markers-uneven"]);
        assert_eq!(h("text\n== Two =\nmore"), ["3:1-9 heading-markers-uneven"]);
        // Above an indented line it is a compact term, and says so.
        let d = hints("\n= Title ==\n  indented\n");
        assert_eq!(d.len(), 1);
        assert!(
            d[0].message.ends_with("reads as a definition term"),
            "{}",
            d[0].message
        );
        // What the line reads as now: a paragraph.
        let doc = crate::parse("\n= Heading ==\n").document;
        assert!(matches!(
            doc.body.as_slice(),
            [crate::Block::Paragraph { .. }]
        ));
        let d = hints("\n= Heading ==\n");
        assert!(d[0].message.contains("reads as text"), "{}", d[0].message);
        assert_eq!(d[0].severity, Severity::Warning);
        // Right headings, and lines that are no near miss.
        for ok in [
            "= Level 1 Heading =",
            "== Level 2 Heading ==",
            "====== Level 6 Heading ======",
            "a = b == c",
            "=====",
            "= x",
            "==x==",
            "  = in preformatted ==",
        ] {
            assert!(h(ok).is_empty(), "{ok}: {:?}", h(ok));
        }
    }

    #[test]
    fn links_with_bad_values() {
        assert_eq!(h("[http://a b||x]"), ["2:1-16 link-not-recognized"]);
        assert_eq!(h("see [a|b\"c|x] there"), ["2:5-14 link-not-recognized"]);
        assert_eq!(h("  pre [u|f g|t]"), ["2:7-16 link-not-recognized"]);
        assert!(hints("\n[a b||x]\n")[0].message.contains("white space"));
        for ok in [
            "[http://www.aksware.de/||]",
            "[refs.html#html||[HTML]]",
            "[#top|top|Top]",
            "a [b] c | d | e",
            "[a|b]",
            "[||x]",
            "[a b|c]",
        ] {
            assert!(h(ok).is_empty(), "{ok}: {:?}", h(ok));
        }
    }

    #[test]
    fn terms_missing_colons() {
        // Seed: a term over two lines needs `::` on its last line.
        assert_eq!(
            h("Second\nterm\n  Definition."),
            ["2:1-7 term-without-colons"]
        );
        for ok in [
            // The seed's own examples.
            "First term::\n    Definition of the first term.\nSecond\nterm::\nThird term::\n  Definition of the second and\n  the third term.",
            "First term\n    Definition of the first term.\nSecond term\n  Definition of the second term.",
            // Text ending a sentence cannot be part of a term.
            "Some text.\nTerm\n  Definition.",
            // An empty line between.
            "Text\n\nTerm\n  Definition.",
            "Term::\nmore\n  Definition.",
            // An unindented list item, not half a term.
            "Heading line\n1. First point\n   its second line.",
        ] {
            assert!(h(ok).is_empty(), "{ok:?}: {:?}", h(ok));
        }
    }

    #[test]
    fn three_spaces_in_text() {
        assert_eq!(
            h("This is a line\nwith three   spaces in it."),
            ["3:11-14 compact-item-in-text"]
        );
        assert_eq!(
            h("With three   spaces\nand more text."),
            ["2:11-14 compact-item-in-text"]
        );
        // A sentence on its own, cut in two: the term is long.
        assert_eq!(
            h("This paragraph is one sentence but has three   spaces."),
            ["2:45-48 compact-item-in-text"]
        );
        for ok in [
            // The seed's emulated table and compact list.
            "::\n    1.1   1.2   1.3   1.4\n    2.1   ::    2.3   2.4\n    3.1   3.2   ::    3.4",
            "-v   verbose\n-q   quiet",
            "A short term   and its definition, a sentence of many words.",
            "Name   one two three four five",
            // A row of an emulated table: items nested on one line.
            "Samedi 14 mars   Église Saint-Gaudens   Fauré, _Cantique de Jean Racine_   8 €",
            "*Date*   *Lieu*\nSamedi   Fauré, _Cantique de Jean Racine_ et al   8 €",
            "Text.\n\nterm   definition\n\nText.",
            "  preformatted   with   gaps\n  and more",
        ] {
            assert!(h(ok).is_empty(), "{ok:?}: {:?}", h(ok));
        }
    }

    /// Found on pagetext's own output: `_` in a link's URL is no near miss.
    #[test]
    fn link_values_are_literal() {
        assert!(h("\n[apa.en.html#_the_debian_maze||A.1. The Debian maze]::\n").is_empty());
        assert!(h("\n[|x_a_b|anchor] and [u_v_w||t]\n").is_empty());
        // The link's text is still read.
        assert_eq!(h("\n[u||foo_bar_]\n").len(), 1);
    }

    #[test]
    fn rule_3_near_misses() {
        assert_eq!(h("foo*bar*"), ["2:4-9 markup-blocked-by-side"]);
        assert_eq!(h("a *b*c d"), ["2:3-6 markup-blocked-by-side"]);
        assert_eq!(h("x _y_z."), ["2:3-6 markup-blocked-by-side"]);
        assert_eq!(h("the 'code's"), ["2:5-11 markup-blocked-by-side"]);
        // Right after sample text, outside it.
        assert_eq!(h("'x' foo*bar*"), ["2:8-13 markup-blocked-by-side"]);
        let d = hints("\nfoo*bar*\n");
        assert!(d[0].message.contains("`o`"), "{}", d[0].message);
        for ok in [
            // Real markup.
            "_x_ *y* 'z' (_a_) *b*, 'c'.",
            // Identifiers and contractions: refused on both sides.
            "snake_case_names a_x_b HTTP_USER_AGENT rock'n'roll O'Neil's",
            "__init__ 1*2+3*4 I'm right, aren't I?",
            "one_underscore and don't",
            // Mixed markers or punctuation inside.
            "a*b_c* x_-_y",
            // Preformatted text and sample text are not hinted.
            "  foo*bar*",
            "Run 'make foo*bar* now' or 'x_y_'.",
            "Run 'make\nfoo*bar*' on two lines.",
        ] {
            assert!(h(ok).is_empty(), "{ok:?}: {:?}", h(ok));
        }
    }

    #[test]
    fn escapes_are_never_hinted() {
        let doc = "#Escape \\\n\nfoo\\*bar* and foo*bar\\* and \\[a b||x] and x\\_y_z\n";
        assert!(hints(doc).is_empty(), "{:?}", hints(doc));
        // Without the declaration a backslash is a character like any other.
        let doc = "\nx\\_y_z\n";
        assert_eq!(hints(doc).len(), 1);
    }

    #[test]
    fn header_lines_are_not_hinted() {
        assert!(hints("#Title foo*bar*\n\ntext\n").is_empty());
    }
}
