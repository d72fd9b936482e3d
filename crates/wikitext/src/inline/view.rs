//! The text of one run of the inline pass, read where it lies: the lines of
//! a leaf block (or the parts of a text between its line feeds) as slices,
//! addressed by one offset as if they were joined by `\n`, without the
//! joined copy. [`View`] answers the scanner's questions at an offset (the
//! character before, the character at, the rest of a line); [`Out`] writes
//! the events, copying text that needs no change as slices of the lines.
//!
//! The offsets are those of the joined text: `lead` spaces (the extra
//! indentation of a line of preformatted text) come first, then the pieces,
//! each followed by one line feed but the last. Nothing the inline rules
//! look for spans a line feed (link prefixes, e-mail addresses, image
//! braces and runs of a markup character all stop at white space), so every
//! scan runs inside one piece.

use std::borrow::Cow;
use std::cell::Cell;

use crate::events::{Event, Positioned};
use crate::model::Pos;

/// One piece of the text: a line of a leaf block, or the part of a text
/// between two line feeds. It holds no line feed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Piece<'a> {
    /// The text, as written (emitted text is borrowed from it).
    pub(crate) text: &'a str,
    /// Offset of its first byte in the joined text: the previous piece's
    /// offset and length plus one (its line feed); the first piece's offset
    /// is the number of spaces before it.
    pub(crate) offset: usize,
    /// Source line.
    pub(crate) line: u32,
    /// Source column of its first character.
    pub(crate) col: u32,
}

/// Where the events' positions come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Places {
    /// Nowhere: every position is unknown.
    Unknown,
    /// Each piece's line and column (the lines of a leaf block); the
    /// spaces before the first piece are at the first piece's place.
    Pieces,
    /// Line and column of the text's start; columns count every character
    /// from there, line feeds included.
    From(u32, u32),
}

/// Spaces to borrow the extra indentation of preformatted lines from.
const SPACES: &str = "                                                                ";

/// A text as the inline pass reads it.
pub(crate) struct View<'t, 'a> {
    pieces: &'t [Piece<'a>],
    /// Spaces before the first piece.
    lead: usize,
    /// Length of the joined text.
    len: usize,
    /// The joined text as the rules see it, when escapes change it (see
    /// `escape::mask`); else the pieces are what the rules see.
    masked: Option<&'t str>,
    /// The piece last looked up (lookups mostly go forward).
    hint: Cell<usize>,
}

impl<'t, 'a> View<'t, 'a> {
    /// The text of `pieces` (offsets as [`Piece::offset`] says).
    pub(crate) fn new(pieces: &'t [Piece<'a>]) -> Self {
        let lead = pieces.first().map_or(0, |p| p.offset);
        let len = pieces.last().map_or(0, |p| p.offset + p.text.len());
        View {
            pieces,
            lead,
            len,
            masked: None,
            hint: Cell::new(0),
        }
    }

    /// Length of the joined text.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The joined text (a copy), for the escape extension's mask.
    pub(crate) fn joined(&self) -> String {
        self.range(0, self.len).into_owned()
    }

    /// Whether some piece holds the byte `b`.
    pub(crate) fn contains(&self, b: u8) -> bool {
        self.pieces
            .iter()
            .any(|p| memchr::memchr(b, p.text.as_bytes()).is_some())
    }

    /// Reads the rules' text from `masked` (the joined text, with the same
    /// length) instead of the pieces.
    pub(crate) fn set_masked(&mut self, masked: &'t str) {
        if masked.len() == self.len {
            self.masked = Some(masked);
        }
    }

    /// The piece that holds offset `i`, or whose line feed is at `i`; the
    /// first piece for the spaces before it.
    pub(crate) fn piece(&self, i: usize) -> usize {
        if self.pieces.len() == 1 {
            return 0;
        }
        let k = self.hint.get();
        let holds = |k: usize| {
            self.pieces
                .get(k)
                .is_some_and(|p| (p.offset <= i || k == 0) && i <= p.offset + p.text.len())
        };
        if holds(k) {
            return k;
        }
        if holds(k + 1) {
            self.hint.set(k + 1);
            return k + 1;
        }
        let k = self
            .pieces
            .partition_point(|p| p.offset <= i)
            .saturating_sub(1);
        self.hint.set(k);
        k
    }

    /// Offset and length of piece `k`.
    fn bounds(&self, k: usize) -> (usize, usize) {
        self.pieces
            .get(k)
            .map_or((0, 0), |p| (p.offset, p.text.len()))
    }

    /// Piece `k` as the rules see it.
    fn seen_piece(&self, k: usize) -> &'t str {
        let Some(p) = self.pieces.get(k) else {
            return "";
        };
        match self.masked {
            Some(m) => m.get(p.offset..p.offset + p.text.len()).unwrap_or(p.text),
            None => p.text,
        }
    }

    /// The byte at `i` as the rules see it.
    pub(crate) fn byte(&self, i: usize) -> Option<u8> {
        if i < self.lead {
            return Some(b' ');
        }
        let k = self.piece(i);
        let (off, len) = self.bounds(k);
        if i < off + len {
            self.seen_piece(k).as_bytes().get(i - off).copied()
        } else if k + 1 < self.pieces.len() {
            Some(b'\n')
        } else {
            None
        }
    }

    /// The character before offset `i`, or `None` at `start` (the edge of
    /// the fragment) or before.
    pub(crate) fn char_before(&self, i: usize, start: usize) -> Option<char> {
        if i <= start || i > self.len {
            return None;
        }
        if i <= self.lead {
            return Some(' ');
        }
        let k = self.piece(i);
        let (off, _) = self.bounds(k);
        if i == off {
            // The line feed before the piece (or a space before the first).
            return Some(if k == 0 { ' ' } else { '\n' });
        }
        self.seen_piece(k)
            .get(..i - off)
            .and_then(|s| s.chars().next_back())
    }

    /// The character at offset `i`, or `None` at `end` (the edge of the
    /// fragment) or after.
    pub(crate) fn char_at(&self, i: usize, end: usize) -> Option<char> {
        if i >= end || i >= self.len {
            return None;
        }
        if i < self.lead {
            return Some(' ');
        }
        let k = self.piece(i);
        let (off, len) = self.bounds(k);
        if i >= off + len {
            return Some('\n');
        }
        self.seen_piece(k)
            .get(i - off..)
            .and_then(|s| s.chars().next())
    }

    /// The text as the rules see it from `i` to `end` or the end of the
    /// line, whichever comes first.
    pub(crate) fn seen_line(&self, i: usize, end: usize) -> &'t str {
        if i < self.lead {
            return "";
        }
        let k = self.piece(i);
        let (off, len) = self.bounds(k);
        self.seen_piece(k)
            .get(i - off..end.min(off + len).max(i) - off)
            .unwrap_or_default()
    }

    /// The text as written from `i` to `end` or the end of the line.
    pub(crate) fn orig_line(&self, i: usize, end: usize) -> &'a str {
        if i < self.lead {
            return "";
        }
        let k = self.piece(i);
        match self.pieces.get(k) {
            Some(p) => p
                .text
                .get(i - p.offset..end.min(p.offset + p.text.len()).max(i) - p.offset)
                .unwrap_or_default(),
            None => "",
        }
    }

    /// The first offset at or after `p` where `search` finds something in
    /// the text as the rules see it (a piece at a time), or the length.
    fn search(&self, p: usize, search: impl Fn(&[u8]) -> Option<usize>) -> usize {
        let mut p = p.max(self.lead);
        while p < self.len {
            let k = self.piece(p);
            let (off, len) = self.bounds(k);
            let rest = self.seen_piece(k).as_bytes().get(p - off..);
            if let Some(x) = rest.and_then(&search) {
                return p + x;
            }
            p = off + len + 1;
        }
        self.len
    }

    /// The first offset at or after `p` of the byte `c` (never a line feed).
    pub(crate) fn next_byte(&self, p: usize, c: u8) -> Option<usize> {
        let at = self.search(p, |s| memchr::memchr(c, s));
        (at < self.len).then_some(at)
    }

    /// The first offset in `[p, end)` whose byte (as the rules see it) is
    /// marked in `table`. Line feeds and the spaces before the first piece
    /// are never marked.
    pub(crate) fn find(&self, p: usize, end: usize, table: &[bool; 256]) -> Option<usize> {
        let mut p = p.max(self.lead);
        let end = end.min(self.len);
        while p < end {
            let k = self.piece(p);
            let (off, len) = self.bounds(k);
            let window = self
                .seen_piece(k)
                .as_bytes()
                .get(p - off..end.min(off + len) - off)
                .unwrap_or_default();
            if let Some(x) = first_marked(window, table) {
                return Some(p + x);
            }
            p = off + len + 1;
        }
        None
    }

    /// Calls `f` with the offset and text (as the rules see it) of every
    /// piece, in order.
    pub(crate) fn each_piece(&self, mut f: impl FnMut(usize, &'t str)) {
        for (k, p) in self.pieces.iter().enumerate() {
            f(p.offset, self.seen_piece(k));
        }
    }

    /// The joined text `[from, to)` as written: borrowed when it lies on
    /// one piece (or in the spaces before the first), a copy otherwise.
    pub(crate) fn range(&self, from: usize, to: usize) -> Cow<'a, str> {
        if from >= to {
            return Cow::Borrowed("");
        }
        if to <= self.lead
            && let Some(spaces) = SPACES.get(from..to)
        {
            return Cow::Borrowed(spaces);
        }
        if from >= self.lead {
            let k = self.piece(from);
            if let Some(p) = self.pieces.get(k)
                && to <= p.offset + p.text.len()
                && let Some(s) = p.text.get(from - p.offset..to - p.offset)
            {
                return Cow::Borrowed(s);
            }
        }
        let mut out = String::with_capacity(to - from);
        out.extend(std::iter::repeat_n(
            ' ',
            self.lead.min(to).saturating_sub(from),
        ));
        for (k, p) in self.pieces.iter().enumerate() {
            if k > 0
                && p.offset
                    .checked_sub(1)
                    .is_some_and(|nl| (from..to).contains(&nl))
            {
                out.push('\n');
            }
            let a = from.clamp(p.offset, p.offset + p.text.len());
            let b = to.clamp(p.offset, p.offset + p.text.len());
            out.push_str(p.text.get(a - p.offset..b - p.offset).unwrap_or_default());
        }
        Cow::Owned(out)
    }

    /// Characters in `[from, to)` (spaces and line feeds counting one each).
    fn chars(&self, from: usize, to: usize) -> usize {
        if from >= to {
            return 0;
        }
        let mut n = self.lead.min(to).saturating_sub(from);
        for (k, p) in self.pieces.iter().enumerate() {
            if k > 0
                && p.offset
                    .checked_sub(1)
                    .is_some_and(|nl| (from..to).contains(&nl))
            {
                n += 1;
            }
            let a = from.clamp(p.offset, p.offset + p.text.len());
            let b = to.clamp(p.offset, p.offset + p.text.len());
            n += count_chars(p.text.get(a - p.offset..b - p.offset).unwrap_or_default());
        }
        n
    }
}

/// The offset of the first byte of `bytes` marked in `table`, looking at
/// eight bytes at a time.
fn first_marked(bytes: &[u8], table: &[bool; 256]) -> Option<usize> {
    let (chunks, rest) = bytes.as_chunks::<8>();
    for (n, chunk) in chunks.iter().enumerate() {
        if chunk
            .iter()
            .fold(false, |any, &b| any | table[usize::from(b)])
        {
            return chunk
                .iter()
                .position(|&b| table[usize::from(b)])
                .map(|x| n * 8 + x);
        }
    }
    rest.iter()
        .position(|&b| table[usize::from(b)])
        .map(|x| chunks.len() * 8 + x)
}

fn count_chars(s: &str) -> usize {
    if s.is_ascii() {
        s.len()
    } else {
        s.chars().count()
    }
}

/// Turns offsets into positions, walking forward.
struct Locator {
    places: Places,
    /// The piece counted in, the offset counted to and the characters
    /// counted from the piece's start (or the text's, for
    /// [`Places::From`]).
    piece: usize,
    byte: usize,
    chars: u32,
    /// The piece counted in is ASCII (for [`Places::Pieces`]).
    ascii: bool,
}

impl Locator {
    fn locate(&mut self, view: &View<'_, '_>, off: usize) -> Pos {
        let counted =
            |from: usize, to: usize| u32::try_from(view.chars(from, to)).unwrap_or(u32::MAX);
        match self.places {
            Places::Unknown => Pos::UNKNOWN,
            Places::From(line, col) => {
                if off < self.byte {
                    self.byte = 0;
                    self.chars = 0;
                }
                self.chars = self.chars.saturating_add(counted(self.byte, off));
                self.byte = off;
                Pos::new(line, col.saturating_add(self.chars))
            }
            Places::Pieces => {
                let Some(first) = view.pieces.first() else {
                    return Pos::UNKNOWN;
                };
                if off < first.offset {
                    return Pos::new(first.line, first.col);
                }
                let k = view.piece(off);
                let Some(p) = view.pieces.get(k) else {
                    return Pos::UNKNOWN;
                };
                if k != self.piece || off < self.byte || self.byte < p.offset {
                    self.piece = k;
                    self.byte = p.offset;
                    self.chars = 0;
                    self.ascii = p.text.is_ascii();
                }
                if self.ascii {
                    // Columns are byte counts.
                    let n = off.min(p.offset + p.text.len()) - p.offset;
                    self.byte = off;
                    return Pos::new(
                        p.line,
                        p.col.saturating_add(u32::try_from(n).unwrap_or(u32::MAX)),
                    );
                }
                let piece = p
                    .text
                    .get(self.byte - p.offset..off.min(p.offset + p.text.len()) - p.offset)
                    .unwrap_or_default();
                self.chars = self
                    .chars
                    .saturating_add(u32::try_from(count_chars(piece)).unwrap_or(u32::MAX));
                self.byte = off;
                Pos::new(p.line, p.col.saturating_add(self.chars))
            }
        }
    }
}

/// Where the inline pass writes: the events, and text waiting to be written
/// (consecutive pieces of text become one event).
pub(crate) struct Out<'t, 'a> {
    pub(crate) view: &'t View<'t, 'a>,
    /// Offsets of escaping backslashes (dropped from emitted text).
    skips: &'t [usize],
    loc: Locator,
    events: &'t mut Vec<Positioned<'a>>,
    /// Text `[from, to)` not yet written, and its position.
    pending: Option<(usize, usize, Pos)>,
}

impl<'t, 'a> Out<'t, 'a> {
    /// Writes to `events`, positions from `places`.
    pub(crate) fn new(
        view: &'t View<'t, 'a>,
        skips: &'t [usize],
        places: Places,
        events: &'t mut Vec<Positioned<'a>>,
    ) -> Self {
        Out {
            view,
            skips,
            loc: Locator {
                places,
                piece: usize::MAX,
                byte: 0,
                chars: 0,
                ascii: false,
            },
            events,
            pending: None,
        }
    }

    /// The position of offset `off`.
    pub(crate) fn locate(&mut self, off: usize) -> Pos {
        self.loc.locate(self.view, off)
    }

    /// The text `[from, to)` as written, without its escaping backslashes
    /// when `unescape`.
    pub(crate) fn source(&self, from: usize, to: usize, unescape: bool) -> Cow<'a, str> {
        let first = self.skips.partition_point(|&k| k < from);
        let inside = self.skips.get(first..).unwrap_or_default();
        if !unescape || inside.first().is_none_or(|&k| k >= to) {
            return self.view.range(from, to);
        }
        let mut out = String::with_capacity(to - from);
        let mut at = from;
        for &k in inside.iter().take_while(|&&k| k < to) {
            out.push_str(&self.view.range(at, k));
            at = k + 1;
        }
        out.push_str(&self.view.range(at, to));
        Cow::Owned(out)
    }

    /// Writes the waiting text.
    pub(crate) fn flush(&mut self) {
        if let Some((from, to, pos)) = self.pending.take() {
            let text = self.source(from, to, true);
            if !text.is_empty() {
                self.events.push((Event::Text(text), pos));
            }
        }
    }

    /// Writes `event` at `pos`, after the waiting text.
    pub(crate) fn push(&mut self, event: Event<'a>, pos: Pos) {
        self.flush();
        self.events.push((event, pos));
    }

    /// Emits the joined text `[from, to)`: text joined to the waiting text,
    /// line feeds as line divisions.
    pub(crate) fn text(&mut self, from: usize, to: usize) {
        let to = to.min(self.view.len);
        let mut at = from;
        while at < to {
            let k = self.view.piece(at);
            let (off, len) = self.view.bounds(k);
            let line_end = off + len;
            let stop = to.min(line_end);
            if at < stop {
                match &mut self.pending {
                    Some((_, end, _)) if *end == at => *end = stop,
                    _ => {
                        self.flush();
                        let pos = self.locate(at);
                        self.pending = Some((at, stop, pos));
                    }
                }
            }
            if to <= line_end {
                break;
            }
            // The line feed at the end of the piece.
            let pos = self.locate(line_end);
            self.push(Event::LineBreak, pos);
            at = line_end + 1;
        }
    }
}
