//! Small, stateless scanners over one line (or one position of a text
//! fragment), built with nom. Each one recognises one construct of the seed
//! and returns what it found; none of them holds parser state, and each one
//! looks only at a bounded part of its input (the line, or the run of
//! characters the construct allows), which the block and inline passes rely
//! on for linear time.

use nom::branch::alt;
use nom::bytes::complete::take_while1;
use nom::character::complete::{char, satisfy};
use nom::combinator::{all_consuming, map, recognize, verify};
use nom::sequence::{preceded, terminated};
use nom::{IResult, Parser};

use crate::model::{Inline, ListKind, Numbering};

type Res<'a, T> = IResult<&'a str, T, nom::error::Error<&'a str>>;

/// White space as the seed uses it: any Unicode white space (line feeds
/// included). The start and end of a text fragment count as white space too;
/// callers pass `None` for them.
pub(crate) fn is_ws(c: Option<char>) -> bool {
    c.is_none_or(char::is_whitespace)
}

/// Seed 000 "Inline Elements", rule 3: a character allowed on either side of
/// a special sequence: white space (or the fragment's edge) or one of
/// `'``!"$%&@\/(){}[|]<>=?*+-~#,.;:_^` (all ASCII punctuation).
pub(crate) fn is_side_char(c: Option<char>) -> bool {
    match c {
        None => true,
        Some(c) => c.is_whitespace() || c.is_ascii_punctuation(),
    }
}

/// Seed 000 "Inline Elements", rules 1 and 2 at an element's edges: its
/// content is not empty and neither starts nor ends with white space or a
/// line division.
pub(crate) fn clean_edges(content: &[Inline]) -> bool {
    let starts = match content.first() {
        None | Some(Inline::LineBreak { .. }) => false,
        Some(Inline::Text { text, .. }) => !text.starts_with(char::is_whitespace),
        Some(_) => true,
    };
    let ends = match content.last() {
        None | Some(Inline::LineBreak { .. }) => false,
        Some(Inline::Text { text, .. }) => !text.ends_with(char::is_whitespace),
        Some(_) => true,
    };
    starts && ends
}

/// Characters a URL or a fragment may not contain (besides white space):
/// `{}[|]<>"` (Seed 000 "Inline Elements", link).
pub(crate) const fn is_link_value_char(c: char) -> bool {
    !c.is_whitespace() && !matches!(c, '{' | '}' | '[' | '|' | ']' | '<' | '>' | '"')
}

/// Every maximal run `[a, b)` of the byte `c` in `text`, in order, with the
/// character before it and the one after it (`None` at the edges). One pass.
pub(crate) fn char_runs(
    text: &str,
    c: u8,
) -> impl Iterator<Item = (usize, usize, Option<char>, Option<char>)> + '_ {
    let bytes = text.as_bytes();
    let mut i = 0usize;
    std::iter::from_fn(move || {
        let a = i + memchr::memchr(c, bytes.get(i..)?)?;
        let mut b = a;
        while bytes.get(b) == Some(&c) {
            b += 1;
        }
        i = b;
        let before = text.get(..a).and_then(|s| s.chars().next_back());
        let after = text.get(b..).and_then(|s| s.chars().next());
        Some((a, b, before, after))
    })
}

/// Seed 000 "Inline Elements", rules 2 and 3 at an end: a run of `_`, `*`
/// or `'` can end a sequence when something that is not white space stands
/// before it and a side character (or the end) after it.
pub(crate) fn run_can_end(before: Option<char>, after: Option<char>) -> bool {
    before.is_some() && !is_ws(before) && is_side_char(after)
}

/// Seed 000 "Block-level Elements", horizontal rule: four or more identical
/// characters from `-=*+~_#^` and nothing else.
pub(crate) fn is_rule(line: &str) -> bool {
    let mut chars = line.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    if !"-=*+~_#^".contains(first) {
        return false;
    }
    let mut count = 1usize;
    for c in chars {
        if c != first {
            return false;
        }
        count += 1;
    }
    count >= 4
}

/// A recognised heading line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct HeadingLine<'a> {
    /// Number of `=` on each side.
    pub(crate) level: u8,
    /// The title between `= ` and ` =`.
    pub(crate) title: &'a str,
    /// Byte offset of the title in the line.
    pub(crate) offset: usize,
}

/// Seed 000 "Block-level Elements", heading: the title enclosed by one space
/// on each side and then by the same run of `=` on both sides; the number of
/// `=` is the level. Levels above 6 do not exist in HTML, so such lines are
/// not headings. The title may not be empty or start or end with white space
/// (then the enclosing spaces would not be "one space").
pub(crate) fn heading(line: &str) -> Option<HeadingLine<'_>> {
    let res: Res<'_, (&str, char)> = (take_while1(|c| c == '='), char(' ')).parse(line);
    let (rest, (opening, _)) = res.ok()?;
    let level = opening.len();
    if !(1..=6).contains(&level) {
        return None;
    }
    // The closing run must be exactly as long as the opening one: the
    // character before it must be the enclosing space.
    let title = rest.strip_suffix(opening)?.strip_suffix(' ')?;
    let first = title.chars().next();
    let last = title.chars().next_back();
    if title.is_empty() || is_ws(first) || is_ws(last) {
        return None;
    }
    let level = u8::try_from(level).ok()?;
    Some(HeadingLine {
        level,
        title,
        offset: opening.len() + 1,
    })
}

/// A recognised bullet of a list item or blockquote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Bullet {
    /// A list bullet of this kind.
    List(ListKind),
    /// The `>` of a blockquote section.
    Quote,
}

/// Seed 000 "Block-level Elements", list items and blockquotes: a bullet
/// followed by at least one space and then the item's first line. Returns the
/// bullet and the length in bytes (= characters, all ASCII) of the bullet and
/// its spaces, so the caller can find the content's indentation.
///
/// - unordered: one of `*`, `-`, `+`;
/// - ordered: a non-empty run of digits, or of lower-case ASCII letters, or
///   of upper-case ASCII letters, then `.` or `)`;
/// - blockquote: `>`.
///
/// The separating run may hold tabs as well (see [`separator_columns`]).
pub(crate) fn bullet(line: &str) -> Option<(Bullet, usize)> {
    let unordered = map(satisfy(|c| matches!(c, '*' | '-' | '+')), |_| {
        Bullet::List(ListKind::Unordered)
    });
    let quote = map(char('>'), |_| Bullet::Quote);
    let ordered = |class: fn(char) -> bool, numbering: Numbering| {
        map(
            terminated(take_while1(class), satisfy(|c| c == '.' || c == ')')),
            move |_| Bullet::List(ListKind::Ordered(numbering)),
        )
    };
    let mut parser = (
        alt((
            unordered,
            quote,
            ordered(|c| c.is_ascii_digit(), Numbering::Decimal),
            ordered(|c| c.is_ascii_lowercase(), Numbering::LowerAlpha),
            ordered(|c| c.is_ascii_uppercase(), Numbering::UpperAlpha),
        )),
        take_while1(|c| c == ' ' || c == '\t'),
    );
    let res: Res<'_, (Bullet, &str)> = parser.parse(line);
    let (rest, (kind, _)) = res.ok()?;
    if rest.is_empty() {
        return None;
    }
    Some((kind, line.len() - rest.len()))
}

/// The `open` feature: a bullet or `>` alone on its line (white space may
/// follow it), which opens a list item or blockquote whose first block
/// starts on the next line. Returns what it opens and the width of the
/// mark in characters. The seed reads no bullet there: a bullet needs
/// text after it.
pub(crate) fn bare_opener(line: &str) -> Option<(Bullet, usize)> {
    let mark = line.trim_end_matches([' ', '\t']);
    if mark.is_empty() || mark.contains([' ', '\t']) {
        return None;
    }
    // The mark is a bullet when text after it makes one, and nothing but
    // the mark comes before that text.
    match bullet(&[mark, " x"].concat()) {
        Some((kind, n)) if n == mark.len() + 1 => Some((kind, mark.chars().count())),
        _ => None,
    }
}

/// Seed 000 "Block-level Elements", compact definition item: a term, at least
/// three spaces, and the first line of the definition. Returns the term and
/// the byte offset where the definition starts. The first run of three or
/// more spaces after a non-empty term splits the line.
pub(crate) fn compact_split(line: &str) -> Option<(&str, usize)> {
    let bytes = line.as_bytes();
    let mut from = 0;
    loop {
        // The first run of three or more spaces from `from` on.
        let start = from + three_spaces(line.get(from..)?)?;
        let mut i = start;
        while bytes.get(i) == Some(&b' ') {
            i += 1;
        }
        if start == 0 {
            // No term before it: look further.
            from = i;
            continue;
        }
        // Tabs and spaces right after the three spaces separate too.
        while matches!(bytes.get(i), Some(b' ' | b'\t')) {
            i += 1;
        }
        return if i < bytes.len() {
            Some((line.get(..start)?, i))
        } else {
            None
        };
    }
}

/// Where the first three spaces in a row start in `text`. A skipping
/// search: a byte that is not a space rules out every window of three that
/// holds it, so most bytes are never looked at.
pub(crate) fn three_spaces(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let space = |k: usize| bytes.get(k) == Some(&b' ');
    // `end` is the last byte of the window being tried.
    let mut end = 2;
    while end < bytes.len() {
        if !space(end) {
            end += 3;
        } else if !space(end - 1) {
            end += 2;
        } else if !space(end - 2) {
            end += 1;
        } else {
            return Some(end - 2);
        }
    }
    None
}

/// Whether text holds three spaces in a row ([`three_spaces`]).
pub(crate) fn has_three_spaces(text: &str) -> bool {
    three_spaces(text).is_some()
}

/// The columns a run of separating spaces and tabs takes once the bullet
/// or term before it is replaced by spaces: the tabs are then leading, and
/// count eight each, as leading tabs do.
pub(crate) fn separator_columns(run: &str) -> usize {
    run.chars().map(|c| if c == '\t' { 8 } else { 1 }).sum()
}

/// Seed 000 "Block-level Elements", definition term: a line ending in `::`.
/// Returns the line without the colons and without white space before them.
pub(crate) fn term_line(line: &str) -> Option<&str> {
    line.strip_suffix("::").map(str::trim_end)
}

/// Whether a line ends a sentence, so that it cannot be a non-final line of a
/// multi-line definition term (Seed 000: `.`, `!`, `?` or `:`).
pub(crate) fn ends_sentence(line: &str) -> bool {
    line.ends_with(['.', '!', '?', ':'])
}

/// A metadata header line, classified.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum HeaderLine<'a> {
    /// `#Title` followed by words.
    Title(Vec<&'a str>),
    /// `#Lang` followed by words.
    Lang(Vec<&'a str>),
    /// `#Meta:name` followed by words.
    Meta(&'a str, Vec<&'a str>),
    /// `#Link:rels` followed by words.
    Link(&'a str, Vec<&'a str>),
    /// `#Escape` (the escape extension) followed by words.
    Escape(Vec<&'a str>),
    /// `#Extend` (feature words) followed by words.
    Extend(Vec<&'a str>),
    /// Anything else.
    Unknown,
}

/// Seed 000 "Meta Data": splits a header line into white-space-separated
/// words and classifies it by its case-insensitive first word: `#Title` and
/// `#Lang` as whole words, `#Meta:` and `#Link:` as prefixes.
pub(crate) fn header_line<'a>(line: &'a str) -> HeaderLine<'a> {
    let mut words = line.split_whitespace();
    let Some(first) = words.next() else {
        return HeaderLine::Unknown;
    };
    let rest: Vec<&str> = words.collect();
    let whole = |name: &'static str| {
        move |w: &str| -> bool { all_consuming(nom_tag_no_case(name)).parse(w).is_ok() }
    };
    let prefix = |name: &'static str| {
        move |w: &'a str| -> Option<&'a str> {
            let res: Res<'_, &str> = nom_tag_no_case(name).parse(w);
            res.ok().map(|(rest, _)| rest)
        }
    };
    if whole("#title")(first) {
        HeaderLine::Title(rest)
    } else if whole("#lang")(first) {
        HeaderLine::Lang(rest)
    } else if whole("#escape")(first) {
        HeaderLine::Escape(rest)
    } else if whole("#extend")(first) {
        HeaderLine::Extend(rest)
    } else if let Some(name) = prefix("#meta:")(first) {
        HeaderLine::Meta(name, rest)
    } else if let Some(rels) = prefix("#link:")(first) {
        HeaderLine::Link(rels, rest)
    } else {
        HeaderLine::Unknown
    }
}

fn nom_tag_no_case<'a>(
    name: &'static str,
) -> impl Parser<&'a str, Output = &'a str, Error = nom::error::Error<&'a str>> {
    nom::bytes::complete::tag_no_case(name)
}

/// Seed 000 "Meta Data", `#Lang`: an international language code optionally
/// extended by a country code (`en`, `en-us`, `de-de`). Accepted: letters,
/// then any number of `-` and letters or digits (1 to 8 each), as in BCP 47.
pub(crate) fn is_language_code(word: &str) -> bool {
    let subtag = |alpha_only: bool| {
        take_while1(move |c: char| {
            if alpha_only {
                c.is_ascii_alphabetic()
            } else {
                c.is_ascii_alphanumeric()
            }
        })
    };
    let mut parser = all_consuming(recognize((
        verify(subtag(true), |s: &str| s.len() <= 8),
        nom::multi::many0(preceded(
            char('-'),
            verify(subtag(false), |s: &str| s.len() <= 8),
        )),
    )));
    let res: Res<'_, &str> = parser.parse(word);
    res.is_ok()
}

/// Seed 000 "Inline Elements", rule 5: `<localpart@domain>` where both parts
/// hold letters, digits, `-` and `.`, the local part also `_`, and the domain
/// at least one dot. `text` starts at the `<`; returns the address and the
/// length in bytes up to and including the `>`. The scan stops at the first
/// character that cannot belong to an address, so it never passes another `<`.
pub(crate) fn email(text: &str) -> Option<(&str, usize)> {
    let rest = text.strip_prefix('<')?;
    let local = span(rest, |c| {
        c.is_alphanumeric() || matches!(c, '-' | '.' | '_')
    });
    let after = rest.get(local..)?.strip_prefix('@')?;
    let domain = span(after, |c| c.is_alphanumeric() || matches!(c, '-' | '.'));
    if local == 0 || !after.get(..domain)?.contains('.') {
        return None;
    }
    after.get(domain..)?.strip_prefix('>')?;
    let address = rest.get(..local + 1 + domain)?;
    Some((address, address.len() + 2))
}

/// The ASCII characters a link value may hold ([`is_link_value_char`]).
const LINK_VALUE_ASCII: [bool; 128] = {
    let mut table = [false; 128];
    let mut b = 0;
    while b < 128 {
        table[b] = is_link_value_char(b as u8 as char);
        b += 1;
    }
    table
};

/// The length in bytes of the longest start of `text` that a link value
/// may hold ([`span`] of [`is_link_value_char`], ASCII from a table).
fn link_value_len(text: &str) -> usize {
    let bytes = text.as_bytes();
    let ascii = bytes
        .iter()
        .position(|&b| {
            !LINK_VALUE_ASCII
                .get(usize::from(b))
                .copied()
                .unwrap_or(false)
        })
        .unwrap_or(bytes.len());
    if bytes.get(ascii).is_some_and(|b| !b.is_ascii()) {
        // A non-ASCII character: the rest, character by character.
        ascii + span(text.get(ascii..).unwrap_or_default(), is_link_value_char)
    } else {
        ascii
    }
}

/// The length in bytes of the longest start of `text` whose characters all
/// satisfy `keep` (ASCII looked at byte by byte).
fn span(text: &str, keep: impl Fn(char) -> bool) -> usize {
    let bytes = text.as_bytes();
    let mut end = 0;
    while let Some(&b) = bytes.get(end) {
        if !b.is_ascii() {
            // The rest, character by character.
            let rest = text.get(end..).unwrap_or_default();
            return end
                + rest
                    .char_indices()
                    .find(|&(_, c)| !keep(c))
                    .map_or(rest.len(), |(i, _)| i);
        }
        if !keep(char::from(b)) {
            break;
        }
        end += 1;
    }
    end
}

/// Seed 000 "Inline Elements", link: the prefix `[URL|Fragment|` up to and
/// including the second `|`. URL and fragment may not contain white space or
/// any of `{}[|]<>"`, and may not both be empty. `text` starts at the `[`;
/// returns URL, fragment and the prefix length in bytes. The scan stops at
/// the first character a URL cannot hold, so it never passes another `[`.
pub(crate) fn link_prefix(text: &str) -> Option<(&str, &str, usize)> {
    let rest = text.strip_prefix('[')?;
    let url = rest.get(..link_value_len(rest))?;
    let rest = rest.get(url.len()..)?.strip_prefix('|')?;
    let fragment = rest.get(..link_value_len(rest))?;
    rest.get(fragment.len()..)?.strip_prefix('|')?;
    if url.is_empty() && fragment.is_empty() {
        return None;
    }
    Some((url, fragment, url.len() + fragment.len() + 3))
}

/// A line of a table (`docs/format.md`, "Tables").
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum TableLine<'a> {
    /// `|+ caption`: the caption's text (trimmed) and its byte offset.
    Caption(&'a str, usize),
    /// `| a |= b | < |`: each cell's text between its bars (trimmed, a
    /// leading `=` removed), its byte offset, and what it is.
    Row(Vec<RowCell<'a>>),
}

/// A cell of a row line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct RowCell<'a> {
    pub(crate) text: &'a str,
    pub(crate) offset: usize,
    pub(crate) header: bool,
    /// The cell is the marker `<` or `^` (not a header, nothing else in it).
    pub(crate) marker: Option<u8>,
}

/// What a backslash escapes in a text that declares `#Escape \`
/// (`grammar::is_escapable`), or `None` where it escapes nothing.
pub(crate) type Escapable = Option<fn(char) -> bool>;

/// A table line: a caption `|+ ...`, or a row that starts and ends with a
/// bar, its cells split at the bars outside brackets (a link's `|` are
/// not cell bars) and not escaped (`\|`, where `escapes` says).
pub(crate) fn table_line(line: &str, escapes: Escapable) -> Option<TableLine<'_>> {
    let line = line.trim_end_matches([' ', '\t']);
    if let Some(rest) = line.strip_prefix("|+") {
        let text = rest.trim();
        return Some(TableLine::Caption(
            text,
            line.len() - rest.trim_start().len(),
        ));
    }
    let bytes = line.as_bytes();
    if bytes.first() != Some(&b'|') || bytes.len() < 2 {
        return None;
    }
    let bars = cell_bars(bytes, escapes);
    if bars.last() != Some(&(bytes.len() - 1)) || bars.len() < 2 {
        return None;
    }
    let cells = bars
        .windows(2)
        .filter_map(|w| match w {
            [a, b] => Some(row_cell(line, a + 1, *b)),
            _ => None,
        })
        .collect();
    Some(TableLine::Row(cells))
}

/// A line of a table in the block form (`docs/format.md`, "Tables"),
/// other than its caption.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BlockLine {
    /// `|-`: the row in progress ends.
    RowEnd,
    /// `|` or `|=`, then white space or the end of the line: a cell (a
    /// header cell) starts. `mark` is the length in bytes of the mark with
    /// the white space after it, where the cell's first line starts.
    Cell { header: bool, mark: usize },
}

/// A line of the block form: `|-` alone (white space may follow), or a
/// cell's mark `|` or `|=` followed by white space or nothing.
pub(crate) fn block_line(line: &str) -> Option<BlockLine> {
    let rest = line.strip_prefix('|')?;
    if let Some(after) = rest.strip_prefix('-') {
        return after
            .trim_matches([' ', '\t'])
            .is_empty()
            .then_some(BlockLine::RowEnd);
    }
    let (header, after) = match rest.strip_prefix('=') {
        Some(after) => (true, after),
        None => (false, rest),
    };
    if !(after.is_empty() || after.starts_with([' ', '\t'])) {
        return None;
    }
    let text = after.trim_start_matches([' ', '\t']);
    Some(BlockLine::Cell {
        header,
        mark: line.len() - text.len(),
    })
}

/// The byte offsets of the bars that separate cells: outside balanced
/// brackets, and not escaped.
fn cell_bars(bytes: &[u8], escapes: Escapable) -> Vec<usize> {
    let mut bars = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'\\' if escaped_at(bytes, i, escapes) => {
                i += 2;
                continue;
            }
            b'[' => depth += 1,
            b']' => depth = depth.saturating_sub(1),
            b'|' if depth == 0 => bars.push(i),
            _ => {}
        }
        i += 1;
    }
    if depth > 0 {
        // Unbalanced brackets: every unescaped bar counts (a `[` that is no
        // link must not swallow the rest of the row).
        return cell_bars_flat(bytes, escapes);
    }
    bars
}

/// Whether the backslash at `i` escapes the byte after it.
fn escaped_at(bytes: &[u8], i: usize, escapes: Escapable) -> bool {
    escapes.is_some_and(|escapable| {
        bytes
            .get(i + 1)
            .is_some_and(|&n| n.is_ascii() && escapable(char::from(n)))
    })
}

fn cell_bars_flat(bytes: &[u8], escapes: Escapable) -> Vec<usize> {
    let mut bars = Vec::new();
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if b == b'\\' && escaped_at(bytes, i, escapes) {
            i += 2;
            continue;
        }
        if b == b'|' {
            bars.push(i);
        }
        i += 1;
    }
    bars
}

/// The cell between bars at `[from, to)`.
fn row_cell(line: &str, from: usize, to: usize) -> RowCell<'_> {
    let raw = line.get(from..to).unwrap_or_default();
    let (header, raw, from) = match raw.strip_prefix('=') {
        Some(rest) => (true, rest, from + 1),
        None => (false, raw, from),
    };
    // White space at the edges is padding (any white space: a cell's text
    // neither starts nor ends with it).
    let text = raw.trim();
    let offset = from + (raw.len() - raw.trim_start().len());
    let marker = match text {
        "<" if !header => Some(b'<'),
        "^" if !header => Some(b'^'),
        _ => None,
    };
    RowCell {
        text,
        offset,
        header,
        marker,
    }
}

/// What the braces after an image say (`docs/format.md`, "Images"): its
/// size and title.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct ImageAttrs {
    pub(crate) width: Option<u32>,
    pub(crate) height: Option<u32>,
    pub(crate) title: Option<String>,
}

/// The braces right after an image's `]`: `{}`, `{WxH}`, `{W x}`-less forms
/// `{640x}` and `{x480}`, `{"title"}` or `{WxH "title"}`, where the title
/// holds `\"` for a quote and `\\` for a backslash. Returns what they say
/// and their length in bytes; `None` when `text` does not start with such
/// braces (they are then text). Looks no further than the closing brace
/// or the line's end.
pub(crate) fn image_attrs(text: &str) -> Option<(ImageAttrs, usize)> {
    let bytes = text.as_bytes();
    if bytes.first() != Some(&b'{') {
        return None;
    }
    let mut attrs = ImageAttrs::default();
    let mut i = 1;
    // The size: digits, `x`, digits (at least one side).
    let number = |i: &mut usize| -> Option<Option<u32>> {
        let from = *i;
        while bytes.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        if *i == from {
            return Some(None);
        }
        // At most nine digits: any size fits in a u32.
        if *i - from > 9 {
            return None;
        }
        text.get(from..*i)?.parse().ok().map(Some)
    };
    let width = number(&mut i)?;
    if bytes.get(i) == Some(&b'x') {
        i += 1;
        let height = number(&mut i)?;
        if width.is_none() && height.is_none() {
            return None;
        }
        attrs.width = width;
        attrs.height = height;
        // A title is one space away.
        match bytes.get(i) {
            Some(b' ') if bytes.get(i + 1) == Some(&b'"') => i += 1,
            Some(b'}') => {}
            _ => return None,
        }
    } else if width.is_some() {
        return None;
    }
    if bytes.get(i) == Some(&b'"') {
        let mut title = String::new();
        i += 1;
        let mut from = i;
        loop {
            match bytes.get(i)? {
                b'"' => break,
                b'\\' if matches!(bytes.get(i + 1), Some(b'"' | b'\\')) => {
                    title.push_str(text.get(from..i)?);
                    from = i + 1;
                    i += 2;
                }
                b'\n' | b'\r' => return None,
                _ => i += 1,
            }
        }
        title.push_str(text.get(from..i)?);
        attrs.title = Some(title);
        i += 1;
    }
    (bytes.get(i) == Some(&b'}')).then_some((attrs, i + 1))
}

/// Whether `word` is non-empty and has no white space (a header name or href).
pub(crate) fn is_word(word: &str) -> bool {
    let res: Res<'_, &str> = all_consuming(take_while1(|c: char| !c.is_whitespace())).parse(word);
    res.is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_from_the_seed() {
        assert!(is_rule("********"));
        assert!(is_rule("======"));
        assert!(is_rule("----"));
        assert!(is_rule("----------"));
        assert!(is_rule("^^^^"));
        assert!(!is_rule("---"));
        assert!(!is_rule("--=-"));
        assert!(!is_rule("...."));
        assert!(!is_rule(""));
    }

    #[test]
    fn headings_from_the_seed() {
        let h = heading("= Level 1 Heading =").unwrap();
        assert_eq!((h.level, h.title, h.offset), (1, "Level 1 Heading", 2));
        assert_eq!(heading("== Level 2 Heading ==").unwrap().level, 2);
        assert_eq!(heading("====== Level 6 Heading ======").unwrap().level, 6);
        assert_eq!(
            heading("== [|inline|Inline Markup] ==").unwrap().title,
            "[|inline|Inline Markup]"
        );
        assert_eq!(heading("== a = ==").unwrap().title, "a =");
    }

    #[test]
    fn not_headings() {
        assert_eq!(heading("======= seven ======="), None);
        assert_eq!(heading("== a ="), None);
        assert_eq!(heading("= a =="), None);
        assert_eq!(heading("== a ==="), None);
        assert_eq!(heading("=a="), None);
        assert_eq!(heading("=  a ="), None);
        assert_eq!(heading("= a  ="), None);
        assert_eq!(heading("=  ="), None);
        assert_eq!(heading("= ="), None);
        assert_eq!(heading("==== "), None);
    }

    #[test]
    fn bullets() {
        use ListKind::*;
        assert_eq!(bullet("* first item"), Some((Bullet::List(Unordered), 2)));
        assert_eq!(
            bullet("*     second item"),
            Some((Bullet::List(Unordered), 6))
        );
        assert_eq!(bullet("- x"), Some((Bullet::List(Unordered), 2)));
        assert_eq!(bullet("+ x"), Some((Bullet::List(Unordered), 2)));
        assert_eq!(
            bullet("1. one"),
            Some((Bullet::List(Ordered(Numbering::Decimal)), 3))
        );
        assert_eq!(
            bullet("2)    two"),
            Some((Bullet::List(Ordered(Numbering::Decimal)), 6))
        );
        assert_eq!(
            bullet("a) apple"),
            Some((Bullet::List(Ordered(Numbering::LowerAlpha)), 3))
        );
        assert_eq!(
            bullet("b.    banana"),
            Some((Bullet::List(Ordered(Numbering::LowerAlpha)), 6))
        );
        assert_eq!(
            bullet("XIV. x"),
            Some((Bullet::List(Ordered(Numbering::UpperAlpha)), 5))
        );
        assert_eq!(bullet("> quote"), Some((Bullet::Quote, 2)));
        assert_eq!(bullet("* \tx"), Some((Bullet::List(Unordered), 3)));
        assert_eq!(bullet("*\tx"), Some((Bullet::List(Unordered), 2)));
        assert_eq!(bullet("*"), None);
        assert_eq!(bullet("*x"), None);
        assert_eq!(bullet("1.x"), None);
        assert_eq!(bullet("e.g. x"), None);
        assert_eq!(bullet("aB. x"), None);
        assert_eq!(bullet("1a. x"), None);
        assert_eq!(bullet(". x"), None);
        assert_eq!(bullet("**** x"), None);
    }

    #[test]
    fn compact_splits() {
        assert_eq!(compact_split("1.1   1.2   1.3"), Some(("1.1", 6)));
        assert_eq!(compact_split("::    2.3   2.4"), Some(("::", 6)));
        assert_eq!(compact_split("a  b"), None);
        assert_eq!(compact_split("   a"), None);
        assert_eq!(compact_split("a   "), None);
        assert_eq!(compact_split("a b   c"), Some(("a b", 6)));
        assert_eq!(compact_split("a   \t c"), Some(("a", 6)));
        assert_eq!(compact_split("a \t  c"), None);
        assert_eq!(compact_split("    a   b"), Some(("    a", 8)));
        assert_eq!(compact_split("a  b    c"), Some(("a  b", 8)));
        assert_eq!(separator_columns(" \t "), 10);
    }

    /// The first run of three or more spaces after a non-empty term, found
    /// one byte at a time: what [`compact_split`] must agree with.
    fn compact_split_by_bytes(line: &str) -> Option<(&str, usize)> {
        let bytes = line.as_bytes();
        let mut i = 0usize;
        while i < bytes.len() {
            if bytes[i] != b' ' {
                i += 1;
                continue;
            }
            let start = i;
            while bytes.get(i) == Some(&b' ') {
                i += 1;
            }
            if i - start >= 3 && start > 0 {
                while matches!(bytes.get(i), Some(b' ' | b'\t')) {
                    i += 1;
                }
                return (i < bytes.len()).then(|| (&line[..start], i));
            }
        }
        None
    }

    proptest::proptest! {
        #[test]
        fn compact_split_finds_the_first_long_run(line in "[ a\t]{0,24}") {
            proptest::prop_assert_eq!(compact_split(&line), compact_split_by_bytes(&line));
            proptest::prop_assert_eq!(three_spaces(&line), line.find("   "));
        }
    }

    #[test]
    fn terms_and_sentences() {
        assert_eq!(term_line("First term::"), Some("First term"));
        assert_eq!(term_line("::"), Some(""));
        assert_eq!(term_line("a ::"), Some("a"));
        assert_eq!(term_line("a:"), None);
        assert!(ends_sentence("a."));
        assert!(ends_sentence("a:"));
        assert!(!ends_sentence("Second"));
    }

    #[test]
    fn header_lines() {
        assert_eq!(
            header_line("#Title A Simple HTML Document"),
            HeaderLine::Title(vec!["A", "Simple", "HTML", "Document"])
        );
        assert_eq!(header_line("#TITLE x"), HeaderLine::Title(vec!["x"]));
        assert_eq!(header_line("#Titles x"), HeaderLine::Unknown);
        assert_eq!(header_line("#lang en-us"), HeaderLine::Lang(vec!["en-us"]));
        assert_eq!(
            header_line("#Meta:description This is"),
            HeaderLine::Meta("description", vec!["This", "is"])
        );
        assert_eq!(
            header_line("#META:Date x"),
            HeaderLine::Meta("Date", vec!["x"])
        );
        assert_eq!(
            header_line("#Link:alternate:stylesheet styles/alternate.css Alternate Style"),
            HeaderLine::Link(
                "alternate:stylesheet",
                vec!["styles/alternate.css", "Alternate", "Style"]
            )
        );
        assert_eq!(header_line("#ESCAPE \\"), HeaderLine::Escape(vec!["\\"]));
        assert_eq!(header_line("#Escapes \\"), HeaderLine::Unknown);
        assert_eq!(header_line("Title x"), HeaderLine::Unknown);
        assert_eq!(header_line(""), HeaderLine::Unknown);
    }

    #[test]
    fn language_codes() {
        for ok in ["en", "en-us", "de", "de-DE", "zh-Hant-TW", "x-klingon"] {
            assert!(is_language_code(ok), "{ok}");
        }
        for bad in ["", "en_us", "-en", "en-", "e n", "abcdefghi", "1en"] {
            assert!(!is_language_code(bad), "{bad}");
        }
    }

    #[test]
    fn emails() {
        assert_eq!(
            email("<no_reply@aksware.de> x"),
            Some(("no_reply@aksware.de", 21))
        );
        assert_eq!(email("<a@b>"), None);
        assert_eq!(email("<a@b_c.de>"), None);
        assert_eq!(email("<@b.de>"), None);
        assert_eq!(email("<a b@c.de>"), None);
        assert_eq!(email("<a@c.de"), None);
    }

    #[test]
    fn block_lines() {
        assert_eq!(block_line("|-"), Some(BlockLine::RowEnd));
        assert_eq!(block_line("|-  "), Some(BlockLine::RowEnd));
        assert_eq!(
            block_line("| a"),
            Some(BlockLine::Cell {
                header: false,
                mark: 2
            })
        );
        assert_eq!(
            block_line("|=   a | b |"),
            Some(BlockLine::Cell {
                header: true,
                mark: 5
            })
        );
        assert_eq!(
            block_line("|"),
            Some(BlockLine::Cell {
                header: false,
                mark: 1
            })
        );
        assert_eq!(
            block_line("|="),
            Some(BlockLine::Cell {
                header: true,
                mark: 2
            })
        );
        for not in ["|- x", "|-x", "|a", "|+ caption", "|=a", "a |", ""] {
            assert_eq!(block_line(not), None, "{not:?}");
        }
    }

    #[test]
    fn table_lines() {
        let Some(TableLine::Row(cells)) = table_line("|= Day | Open |< | ^ |  |", None) else {
            panic!("a row")
        };
        let seen: Vec<_> = cells.iter().map(|c| (c.text, c.header, c.marker)).collect();
        assert_eq!(
            seen,
            [
                ("Day", true, None),
                ("Open", false, None),
                ("<", false, Some(b'<')),
                ("^", false, Some(b'^')),
                ("", false, None),
            ]
        );
        assert_eq!(cells.first().map(|c| c.offset), Some(3));
        // A link's bars are not cell bars; an escaped one is not either.
        let Some(TableLine::Row(cells)) =
            table_line(r"| [u||x] | a \| b |", Some(crate::grammar::is_escapable))
        else {
            panic!("a row")
        };
        let texts: Vec<_> = cells.iter().map(|c| c.text).collect();
        assert_eq!(texts, ["[u||x]", r"a \| b"]);
        assert_eq!(
            table_line("|+ Opening hours", None),
            Some(TableLine::Caption("Opening hours", 3))
        );
        for not in ["| a", "a |", "|", r"| a \|", ""] {
            assert_eq!(
                table_line(not, Some(crate::grammar::is_escapable)),
                None,
                "{not:?}"
            );
        }
        // Unbalanced brackets do not hide bars.
        let Some(TableLine::Row(cells)) = table_line("| [a | b |", None) else {
            panic!("a row")
        };
        assert_eq!(cells.len(), 2);
    }

    #[test]
    fn image_braces() {
        let attrs = |w, h, t: Option<&str>| ImageAttrs {
            width: w,
            height: h,
            title: t.map(str::to_owned),
        };
        assert_eq!(image_attrs("{}"), Some((attrs(None, None, None), 2)));
        assert_eq!(
            image_attrs("{640x480} rest"),
            Some((attrs(Some(640), Some(480), None), 9))
        );
        assert_eq!(
            image_attrs("{640x}"),
            Some((attrs(Some(640), None, None), 6))
        );
        assert_eq!(image_attrs("{x48}"), Some((attrs(None, Some(48), None), 5)));
        assert_eq!(
            image_attrs(r#"{16x16 "Say \"hi\" \\ ok"}"#),
            Some((attrs(Some(16), Some(16), Some(r#"Say "hi" \ ok"#)), 26))
        );
        assert_eq!(
            image_attrs(r#"{"t"}x"#),
            Some((attrs(None, None, Some("t")), 5))
        );
        for not in [
            "{x}",
            "{640}",
            "{ 640x480}",
            "{640x480 }",
            "{640x480\"t\"}",
            "{\"t}",
            "{\"a\nb\"}",
            "{1234567890x1}",
            "{640x480",
            "(640x480)",
            "{\"t\" }",
        ] {
            assert_eq!(image_attrs(not), None, "{not:?}");
        }
    }

    #[test]
    fn link_prefixes() {
        assert_eq!(link_prefix("[#inline||inline"), Some(("#inline", "", 10)));
        assert_eq!(link_prefix("[|inline|Inline"), Some(("", "inline", 9)));
        assert_eq!(
            link_prefix("[http://www.aksware.de/||]"),
            Some(("http://www.aksware.de/", "", 25))
        );
        assert_eq!(link_prefix("[||x]"), None);
        assert_eq!(link_prefix("[a b||x]"), None);
        assert_eq!(link_prefix("[a|b]"), None);
        assert_eq!(link_prefix("[a\"||x]"), None);
    }
}
