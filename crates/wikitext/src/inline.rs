//! The inline pass: Seed 000 "Inline Elements", run on the collected text of
//! one terminated block (a paragraph, text block, term or heading, with its
//! lines joined by `\n`) or on one line of preformatted text.
//!
//! # The algorithm (Seed 000, steps 1-3)
//!
//! 1. Search left to right for a valid start: `_`, `*` or `'` with a side
//!    character (rule 3) before it and no white space after its run of equal
//!    characters (rules 1, 2); or a valid link prefix `[URL|Fragment|`; or an
//!    e-mail address `<localpart@domain>` (rule 5).
//! 2. Search for the matching valid end in the rest of the fragment.
//! 3. Split: the text before is finished; the middle is processed again (as
//!    its own fragment, whose edges count as white space) and marked up; the
//!    rest is processed from step 1. A start without an end is skipped.
//!
//! Runs of the start character after the start, and of the end character
//! before the end, belong to the enclosed text and are not processed again
//! (`***x***` is strong `**x**`).
//!
//! # Linear time
//!
//! Every input position is scanned by the main loop once: a fragment's
//! middle is scanned as a sub-fragment and the outer scan resumes after its
//! end. The searches that could rescan are answered from tables, each built
//! in one pass over the text the first time the loop needs it (most texts
//! need few or none):
//!
//! - *Ends of `_`, `*`, `'`.* Whether a run of the character can end a
//!   sequence (no white space before it, a side character after it) does not
//!   depend on where the sequence started. The valid end runs of each
//!   character are listed in order; the end for a start is the first listed
//!   run after the start's run. Starts are visited in increasing order, so
//!   one cursor per character walks each list once. (A middle never contains
//!   a valid end of its own character, so the cursor never needs to go back.)
//! - *Ends of links.* Rule 4 makes the end the `]` that balances the `[`;
//!   the partner of every `[` is found with one stack pass. Links are looked
//!   up in increasing order, so one cursor walks that table once.
//! - *Link prefixes and e-mail addresses* are scanned from their `[` or `<`
//!   only as far as the characters they allow, which exclude `[` and `<`:
//!   no two such scans overlap.
//! - A start whose search fails makes the loop skip the whole run of its
//!   character (every start in that run would fail the same way).
//!
//! The middle of a fragment is delimited by characters that are themselves
//! side characters (`_*'|]`), so the global tables give the same answers as
//! looking at the fragment alone would.
//!
//! Nesting is handled with an explicit stack; its depth is small anyway (a
//! middle cannot contain a sequence of its own kind, so at most emphasis,
//! strong, code and a link nest).

use std::borrow::Cow;

use crate::escape::{Masked, mask, unescaped};
use crate::events::{Event, Positioned, Tag, TagEnd, inlines_from_events};
use crate::model::{Inline, Pos};
use crate::scan::{char_runs, email, image_attrs, is_side_char, is_ws, link_prefix, run_can_end};

/// Where a piece of the joined block text came from: the text from byte
/// `offset` on (up to the next segment) starts at `line`:`col` of the source.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Seg<'a> {
    /// The source line from `offset` on (the text emitted from this segment
    /// is borrowed from it; empty when there is no source to borrow from).
    pub(crate) src: &'a str,
    /// Byte offset in the joined text.
    pub(crate) offset: usize,
    /// Source line.
    pub(crate) line: u32,
    /// Source column of the byte at `offset`.
    pub(crate) col: u32,
}

/// What a document's header turns on for the inline pass.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub(crate) struct Syntax {
    /// `#Escape \`: a backslash before an escapable character makes it
    /// plain text.
    pub(crate) escapes: bool,
    /// `#Extend image`: `!` right before a link prefix with a URL and no
    /// fragment starts an image.
    pub(crate) images: bool,
}

impl Syntax {
    /// The seed's syntax: no extension.
    pub(crate) const SEED: Syntax = Syntax {
        escapes: false,
        images: false,
    };
}

/// Which sequences are recognised.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Everything.
    Normal,
    /// Preformatted text: no sample text (code), no e-mail addresses and
    /// no images (XHTML 1.0 allows no `<img>` in `<pre>`).
    Preformatted,
}

/// Turns byte offsets into positions, walking forward through the segments.
struct Locator<'t, 'a> {
    text: &'t str,
    segs: &'t [Seg<'a>],
    seg: usize,
    byte: usize,
    chars: u32,
    /// The current segment is ASCII: columns are byte counts.
    ascii: bool,
}

impl<'t, 'a> Locator<'t, 'a> {
    fn new(text: &'t str, segs: &'t [Seg<'a>]) -> Self {
        let byte = segs.first().map_or(0, |s| s.offset);
        let mut loc = Locator {
            text,
            segs,
            seg: 0,
            byte,
            chars: 0,
            ascii: false,
        };
        loc.enter(0);
        loc
    }

    /// Moves to segment `seg`, at its start.
    fn enter(&mut self, seg: usize) {
        self.seg = seg;
        self.byte = self.segs.get(seg).map_or(0, |s| s.offset);
        self.chars = 0;
        let end = self.segs.get(seg + 1).map_or(self.text.len(), |s| s.offset);
        self.ascii = self.text.get(self.byte..end).is_some_and(str::is_ascii);
    }

    fn locate(&mut self, off: usize) -> Pos {
        let Some(first) = self.segs.first() else {
            return Pos::UNKNOWN;
        };
        if off < first.offset {
            // Before the first segment (the extra indentation of a line of
            // preformatted text): the segment's own position.
            return Pos::new(first.line, first.col);
        }
        if off < self.byte {
            // Not expected (calls come in increasing order); start over.
            let seg = self
                .segs
                .partition_point(|s| s.offset <= off)
                .saturating_sub(1);
            self.enter(seg);
        }
        while let Some(next) = self.segs.get(self.seg + 1) {
            if next.offset <= off {
                self.enter(self.seg + 1);
            } else {
                break;
            }
        }
        let counted = if self.ascii {
            off - self.byte
        } else {
            self.text
                .get(self.byte..off)
                .map_or(0, |s| s.chars().count())
        };
        self.chars = self
            .chars
            .saturating_add(u32::try_from(counted).unwrap_or(u32::MAX));
        self.byte = off;
        match self.segs.get(self.seg) {
            Some(seg) => Pos::new(seg.line, seg.col.saturating_add(self.chars)),
            None => Pos::UNKNOWN,
        }
    }
}

/// The valid end runs of one markup character, with a cursor.
struct Ends {
    runs: Vec<(usize, usize)>,
    cursor: usize,
}

impl Ends {
    /// One pass over `text`: every maximal run `[a, b)` of `c` that has a
    /// non-white-space character before it and a side character (or the end)
    /// after it.
    fn build(text: &str, c: u8) -> Ends {
        let runs = char_runs(text, c)
            .filter(|&(_, _, before, after)| run_can_end(before, after))
            .map(|(a, b, _, _)| (a, b))
            .collect();
        Ends { runs, cursor: 0 }
    }

    /// The first valid end run starting after `q` and lying inside the
    /// fragment that ends at `end`.
    fn after(&mut self, q: usize, end: usize) -> Option<(usize, usize)> {
        while let Some(&(a, _)) = self.runs.get(self.cursor) {
            if a <= q {
                self.cursor += 1;
            } else {
                break;
            }
        }
        let &(a, b) = self.runs.get(self.cursor)?;
        (a < end && b <= end).then_some((a, b))
    }
}

/// Partners of `[` (Seed 000 rule 4), with a cursor.
struct Brackets {
    opens: Vec<usize>,
    closes: Vec<Option<usize>>,
    cursor: usize,
}

impl Brackets {
    fn build(text: &str) -> Brackets {
        let mut opens = Vec::new();
        let mut closes = Vec::new();
        let mut stack: Vec<usize> = Vec::new();
        for (i, b) in text.bytes().enumerate() {
            match b {
                b'[' => {
                    stack.push(opens.len());
                    opens.push(i);
                    closes.push(None);
                }
                b']' => {
                    if let Some(rank) = stack.pop()
                        && let Some(slot) = closes.get_mut(rank)
                    {
                        *slot = Some(i);
                    }
                }
                _ => {}
            }
        }
        Brackets {
            opens,
            closes,
            cursor: 0,
        }
    }

    /// The `]` balancing the `[` at `open`.
    fn partner(&mut self, open: usize) -> Option<usize> {
        while let Some(&o) = self.opens.get(self.cursor) {
            if o < open {
                self.cursor += 1;
            } else {
                break;
            }
        }
        if self.opens.get(self.cursor) == Some(&open) {
            self.closes.get(self.cursor).copied().flatten()
        } else {
            None
        }
    }
}

/// A fragment being scanned: the root (the whole text) or the middle of a
/// sequence, whose end event is written when its scan is done.
struct Frame {
    /// The element's end (`None` for the root).
    end_tag: Option<TagEnd>,
    /// The fragment is `[start, end)`.
    start: usize,
    end: usize,
    /// Scan position.
    p: usize,
    /// Start of text not yet emitted.
    text_from: usize,
    /// Inside a link text: no links, no e-mail addresses.
    in_link: bool,
    /// Inside an image's alternative text: no images either.
    in_alt: bool,
    /// Literal text appended when the fragment ends (the end character's run).
    suffix: (usize, usize),
}

impl Frame {
    /// The fragment `[start, end)`, not scanned yet.
    fn new(
        end_tag: Option<TagEnd>,
        (start, end): (usize, usize),
        in_link: bool,
        suffix: (usize, usize),
    ) -> Frame {
        Frame {
            end_tag,
            start,
            end,
            p: start,
            text_from: start,
            in_link,
            in_alt: false,
            suffix,
        }
    }
}

/// A valid start found by step 1 at some offset `i` of the text.
enum Start {
    /// `_`, `*` or `'` (the byte `c`); the enclosed text starts at `q`, after
    /// the run of equal characters that follows the start.
    Run { c: u8, q: usize },
    /// A link prefix `[URL|Fragment|`: URL and fragment as byte ranges; the
    /// link text starts at `t`. An `image` is a link prefix with a URL and
    /// no fragment right after a `!` (which is part of the image).
    Link {
        url: (usize, usize),
        fragment: (usize, usize),
        t: usize,
        image: bool,
    },
    /// An e-mail address `<localpart@domain>`, `len` bytes up to its `>`,
    /// the address at `[a, b)`.
    Email { address: (usize, usize), len: usize },
}

/// The byte range of `part` (a slice of `base`) in `base`.
fn range_in(base: &str, part: &str) -> (usize, usize) {
    let from = (part.as_ptr() as usize).saturating_sub(base.as_ptr() as usize);
    (from, from + part.len())
}

/// Where the inline pass writes: the events, and text waiting to be written
/// (consecutive pieces of text become one event).
struct Out<'t, 'a> {
    /// The text as written (joined lines).
    orig: &'t str,
    /// Offsets of escaping backslashes (dropped from emitted text).
    skips: &'t [usize],
    segs: &'t [Seg<'a>],
    loc: Locator<'t, 'a>,
    events: &'t mut Vec<Positioned<'a>>,
    /// Text `[from, to)` of `orig` not yet written, and its position.
    pending: Option<(usize, usize, Pos)>,
}

impl<'t, 'a> Out<'t, 'a> {
    /// `orig[from..to]` as text of the source, without its escaping
    /// backslashes when `unescape`: borrowed from the source line when it
    /// lies on one (and has no escape to drop), a copy otherwise.
    fn source(&self, from: usize, to: usize, unescape: bool) -> Cow<'a, str> {
        if unescape
            && self.skips.partition_point(|&k| k < from) < self.skips.partition_point(|&k| k < to)
        {
            return Cow::Owned(unescaped(self.orig, from, to, self.skips).into_owned());
        }
        let k = self.segs.partition_point(|s| s.offset <= from);
        if let Some(seg) = k.checked_sub(1).and_then(|k| self.segs.get(k))
            && let Some(src) = seg.src.get(from - seg.offset..to - seg.offset)
        {
            return Cow::Borrowed(src);
        }
        if let Some(first) = self.segs.first()
            && to <= first.offset
            && let Some(spaces) = SPACES.get(from..to)
        {
            // The extra indentation of a line of preformatted text.
            return Cow::Borrowed(spaces);
        }
        Cow::Owned(self.orig.get(from..to).unwrap_or_default().to_owned())
    }

    /// Writes the waiting text.
    fn flush(&mut self) {
        if let Some((from, to, pos)) = self.pending.take() {
            let text = self.source(from, to, true);
            if !text.is_empty() {
                self.events.push((Event::Text(text), pos));
            }
        }
    }

    fn push(&mut self, event: Event<'a>, pos: Pos) {
        self.flush();
        self.events.push((event, pos));
    }

    /// Emits `orig[from..to]`: text joined to the waiting text, line feeds
    /// as line divisions.
    fn text(&mut self, from: usize, to: usize) {
        let Some(slice) = self.orig.get(from..to) else {
            return;
        };
        let mut offset = from;
        for (n, piece) in slice.split('\n').enumerate() {
            if n > 0 {
                // The line feed sits just before this piece.
                let pos = self.loc.locate(offset - 1);
                self.push(Event::LineBreak, pos);
            }
            if !piece.is_empty() {
                let end = offset + piece.len();
                match &mut self.pending {
                    Some((_, to, _)) if *to == offset => *to = end,
                    _ => {
                        self.flush();
                        let pos = self.loc.locate(offset);
                        self.pending = Some((offset, end, pos));
                    }
                }
            }
            offset += piece.len() + 1;
        }
    }
}

/// Spaces to borrow the extra indentation of preformatted lines from.
const SPACES: &str = "                                                                ";

fn char_before(text: &str, i: usize, start: usize) -> Option<char> {
    if i <= start {
        None
    } else {
        text.get(..i).and_then(|s| s.chars().next_back())
    }
}

fn char_at(text: &str, i: usize, end: usize) -> Option<char> {
    if i >= end {
        None
    } else {
        text.get(i..).and_then(|s| s.chars().next())
    }
}

/// Whether the byte `b` can start a sequence (step 1's candidates).
fn starts_sequence(b: u8) -> bool {
    matches!(b, b'_' | b'*' | b'\'' | b'[' | b'<')
}

/// The state of one run of the algorithm over a text: the text, the end
/// tables built before the loop, and where the events go.
struct Scanner<'t, 'a> {
    /// The text as the rules see it: escaped characters masked (see
    /// [`mask`]).
    text: &'t str,
    out: Out<'t, 'a>,
    /// The valid end runs of `_`, `*` and `'`, in that order, each built
    /// when a start of its character first needs it.
    ends: [Option<Ends>; 3],
    /// The partners of `[`, built when a link prefix first needs them.
    brackets: Option<Brackets>,
    /// Sample text (code) and e-mail addresses are recognised.
    code_allowed: bool,
    /// Images are recognised.
    images: bool,
}

impl<'t, 'a> Scanner<'t, 'a> {
    /// A scanner over `text`. The end tables are built when first needed,
    /// one pass over the text each: most texts need few or none of them.
    fn new(text: &'t str, out: Out<'t, 'a>, mode: Mode, images: bool) -> Self {
        Scanner {
            text,
            out,
            ends: [None, None, None],
            brackets: None,
            code_allowed: mode == Mode::Normal,
            images: images && mode == Mode::Normal,
        }
    }

    /// Steps 1-3 over the whole text. The fragment on top of the stack is the
    /// one being scanned; a middle is pushed when it is split off and popped,
    /// with its end event, when its scan is done.
    fn run(mut self) {
        let bytes = self.text.as_bytes();
        // Nesting is shallow (see the module docs): room for it up front.
        let mut stack = Vec::with_capacity(8);
        stack.push(Frame::new(None, (0, self.text.len()), false, (0, 0)));
        while let Some(f) = stack.last_mut() {
            // Step 1: the next candidate start.
            let next = bytes
                .get(f.p..f.end)
                .and_then(|window| window.iter().position(|&b| starts_sequence(b)));
            let Some(found) = next else {
                // The fragment is done: emit its text and close it.
                self.finish(f);
                if let Some(done) = stack.pop()
                    && let Some(end) = done.end_tag
                {
                    self.out.push(Event::End(end), Pos::UNKNOWN);
                }
                continue;
            };
            let i = f.p + found;
            // Is it a valid start (rules 1, 2, 3, 5, a link prefix)?
            let start = match self.valid_start(f, i) {
                Ok(start) => start,
                Err(resume) => {
                    f.p = resume;
                    continue;
                }
            };
            // Step 2: the end.
            let end = match self.end_of(f, i, &start) {
                Ok(end) => end,
                Err(resume) => {
                    f.p = resume;
                    continue;
                }
            };
            // Step 3: split.
            if let Some(middle) = self.split(f, i, start, end) {
                stack.push(middle);
            }
        }
        self.out.flush();
    }

    /// Emits the rest of the finished fragment `f`: its text after the last
    /// sequence, then its suffix.
    fn finish(&mut self, f: &mut Frame) {
        self.out.text(f.text_from, f.end);
        let (sa, sb) = f.suffix;
        self.out.text(sa, sb);
    }

    /// Step 1: whether the candidate at `i` in the fragment `f` is a valid
    /// start. `Err(p)`: it is not, and the scan goes on at `p`.
    fn valid_start(&self, f: &Frame, i: usize) -> Result<Start, usize> {
        let text = self.text;
        let bytes = text.as_bytes();
        let c = bytes.get(i).copied().unwrap_or(0);
        let before = char_before(text, i, f.start);
        if !is_side_char(before) {
            // Rule 3: a start must follow white space or a side character.
            return Err(i + 1);
        }
        match c {
            b'_' | b'*' | b'\'' => {
                if c == b'\'' && !self.code_allowed {
                    return Err(i + 1);
                }
                // The run of equal characters after the start belongs to the
                // enclosed text.
                let mut q = i + 1;
                while q < f.end && bytes.get(q) == Some(&c) {
                    q += 1;
                }
                // Rules 1 and 2: something follows, and not white space.
                if is_ws(char_at(text, q, f.end)) {
                    return Err(q);
                }
                Ok(Start::Run { c, q })
            }
            // Link values are taken as written: no escapes in them.
            b'[' => {
                // An image: `!` (not escaped: the text is masked) right
                // before, in the text not yet written.
                let bang = self.images
                    && !f.in_alt
                    && i > f.start.max(f.text_from)
                    && bytes.get(i - 1) == Some(&b'!');
                if f.in_link && !bang {
                    return Err(i + 1);
                }
                let orig = self.out.orig;
                match orig.get(i..f.end).and_then(link_prefix) {
                    Some((url, fragment, len)) => {
                        let image = bang && !url.is_empty() && fragment.is_empty();
                        if f.in_link && !image {
                            return Err(i + 1);
                        }
                        Ok(Start::Link {
                            url: range_in(orig, url),
                            fragment: range_in(orig, fragment),
                            t: i + len,
                            image,
                        })
                    }
                    None => Err(i + 1),
                }
            }
            b'<' if !f.in_link && self.code_allowed => match text.get(i..f.end).and_then(email) {
                Some((address, len)) => Ok(Start::Email {
                    address: range_in(text, address),
                    len,
                }),
                None => Err(i + 1),
            },
            _ => Err(i + 1),
        }
    }

    /// Step 2: the end of the sequence that `start` begins at `i` in the
    /// fragment `f`, as the run `[a, b)` that the middle stops before and the
    /// scan resumes after. `Err(p)`: there is none; the start is skipped and
    /// the scan goes on at `p`.
    fn end_of(&mut self, f: &Frame, i: usize, start: &Start) -> Result<(usize, usize), usize> {
        let text = self.text;
        match *start {
            Start::Run { c, q } => {
                let which = match c {
                    b'_' => 0,
                    b'*' => 1,
                    _ => 2,
                };
                self.ends
                    .get_mut(which)
                    .and_then(|e| {
                        e.get_or_insert_with(|| Ends::build(text, c))
                            .after(q, f.end)
                    })
                    .ok_or(q)
            }
            Start::Link { t, image, .. } => {
                let brackets = self.brackets.get_or_insert_with(|| Brackets::build(text));
                let Some(j) = brackets.partner(i).filter(|&j| j < f.end && j >= t) else {
                    return Err(i + 1);
                };
                let after = char_at(text, j + 1, f.end);
                let first = char_at(text, t, j);
                let last = char_before(text, j, t);
                if !is_side_char(after) || (t < j && (is_ws(first) || is_ws(last))) {
                    return Err(i + 1);
                }
                // An image's braces (size, title) belong to it.
                let braces = match self.out.orig.get(j + 1..f.end) {
                    Some(rest) if image => image_attrs(rest).map_or(0, |(_, len)| len),
                    _ => 0,
                };
                Ok((j, j + 1 + braces))
            }
            Start::Email { len, .. } => {
                // The address is its own end.
                let e = i + len;
                if is_side_char(char_at(text, e, f.end)) {
                    Ok((e, e))
                } else {
                    Err(i + 1)
                }
            }
        }
    }

    /// A link value: `None` when empty.
    fn value(&self, (a, b): (usize, usize)) -> Option<Cow<'a, str>> {
        (a < b).then(|| self.out.source(a, b, false))
    }

    /// Step 3 for the sequence that `start` begins at `i` and that ends with
    /// the run `[a, b)`: the text before is emitted and the scan of `f`
    /// resumes after the end. Returns the fragment of the middle, to be
    /// processed next, when there is one.
    fn split(
        &mut self,
        f: &mut Frame,
        i: usize,
        start: Start,
        (a, b): (usize, usize),
    ) -> Option<Frame> {
        let image = matches!(start, Start::Link { image: true, .. });
        // An image's `!` is part of it.
        self.out.text(f.text_from, if image { i - 1 } else { i });
        f.p = b;
        f.text_from = b;
        let pos = self.out.loc.locate(i);
        match start {
            Start::Run { c, q } => {
                let tag = match c {
                    b'_' => Tag::Emphasis,
                    b'*' => Tag::Strong,
                    _ => Tag::Code,
                };
                let end = tag.end();
                self.out.push(Event::Start(tag), pos);
                self.out.text(i + 1, q);
                let mut middle = Frame::new(Some(end), (q, a), f.in_link, (a, b - 1));
                // Still in an alternative text: no image in there either.
                middle.in_alt = f.in_alt;
                Some(middle)
            }
            Start::Link {
                image: true,
                url,
                t,
                ..
            } => Some(self.image(i, (url, t), (a, b))),
            Start::Link {
                url, fragment, t, ..
            } => {
                let url = self.value(url);
                let fragment = self.value(fragment);
                // Rule 1: an empty link text is replaced by the URL, or the
                // fragment when there is no URL.
                let shown = (t == a).then(|| url.clone().or_else(|| fragment.clone()));
                self.out
                    .push(Event::Start(Tag::Link { url, fragment }), pos);
                if let Some(shown) = shown {
                    if let Some(shown) = shown.filter(|s| !s.is_empty()) {
                        self.out.push(Event::Text(shown), pos);
                    }
                    self.out.push(Event::End(TagEnd::Link), Pos::UNKNOWN);
                    None
                } else {
                    Some(Frame::new(Some(TagEnd::Link), (t, a), true, (a, a)))
                }
            }
            Start::Email {
                address: (x, y), ..
            } => {
                // The address as the rules saw it (escaped characters in it
                // are masked).
                let address = match self.text.get(x..y) {
                    Some(seen) if self.out.orig.get(x..y) != Some(seen) => {
                        Cow::Owned(seen.to_owned())
                    }
                    _ => self.out.source(x, y, false),
                };
                self.out.push(Event::Email(address), pos);
                None
            }
        }
    }
}

impl Scanner<'_, '_> {
    /// Step 3 for an image whose `[` is at `i`, with its source and the
    /// start `t` of its alternative text, ending with the `]` at `a` and
    /// its braces up to `b`. Returns the fragment of the alternative text.
    fn image(
        &mut self,
        i: usize,
        (src, t): ((usize, usize), usize),
        (a, b): (usize, usize),
    ) -> Frame {
        let pos = self.out.loc.locate(i - 1);
        let src = self.value(src).unwrap_or_default();
        let attrs = self
            .out
            .orig
            .get(a + 1..b)
            .and_then(image_attrs)
            .map(|(attrs, _)| attrs)
            .unwrap_or_default();
        self.out.push(
            Event::Start(Tag::Image {
                src,
                title: attrs.title.map(Cow::Owned),
                width: attrs.width,
                height: attrs.height,
            }),
            pos,
        );
        // An empty alternative text stays empty (a decoration).
        let mut alt = Frame::new(Some(TagEnd::Image), (t, a), true, (a, a));
        alt.in_alt = true;
        alt
    }
}

/// Seed 000 "Inline Elements": the inline events of one text fragment,
/// appended to `events`. `segs` maps byte offsets of `text` to source
/// positions and lines; text that lies on a source line is borrowed from it.
/// `syntax` says what the header turns on: with escapes (`#Escape \\`), a
/// backslash before an escapable character makes it plain text, which
/// counts as punctuation for the rules; with images (`#Extend image`), `!`
/// before a link prefix with a URL and no fragment starts an image.
pub(crate) fn inline_events<'a>(
    text: &str,
    segs: &[Seg<'a>],
    mode: Mode,
    syntax: Syntax,
    events: &mut Vec<Positioned<'a>>,
) {
    let masked = if syntax.escapes { mask(text) } else { None };
    let (seen, skips) = match &masked {
        Some(Masked { text, skips }) => (text.as_str(), skips.as_slice()),
        None => (text, &[][..]),
    };
    let out = Out {
        orig: text,
        skips,
        segs,
        loc: Locator::new(text, segs),
        events,
        pending: None,
    };
    Scanner::new(seen, out, mode, syntax.images).run();
}

/// [`inline_events`] as a run of the model.
pub(crate) fn parse_inlines(
    text: &str,
    segs: &[Seg<'_>],
    mode: Mode,
    syntax: Syntax,
) -> Vec<Inline> {
    let mut events = Vec::new();
    inline_events(text, segs, mode, syntax, &mut events);
    inlines_from_events(events)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Inline as I;

    fn parse(text: &str) -> Vec<Inline> {
        parse_inlines(
            text,
            &[Seg {
                src: "",
                offset: 0,
                line: 1,
                col: 1,
            }],
            Mode::Normal,
            Syntax::SEED,
        )
    }

    fn t(s: &str) -> Inline {
        I::text(s)
    }

    #[track_caller]
    fn check(input: &str, expect: Vec<Inline>) {
        assert_eq!(parse(input), expect, "input: {input:?}");
    }

    #[track_caller]
    fn plain(input: &str) {
        check(input, vec![t(input)]);
    }

    #[test]
    fn seed_examples() {
        check(
            "_emphasis_ and *strong emphasis*",
            vec![
                I::emphasis(vec![t("emphasis")]),
                t(" and "),
                I::strong(vec![t("strong emphasis")]),
            ],
        );
        check("'sample text'", vec![I::code(vec![t("sample text")])]);
        check(
            "[internal://admin/editpage||Link to EditPage]",
            vec![I::link(
                Some("internal://admin/editpage".into()),
                None,
                vec![t("Link to EditPage")],
            )],
        );
        check(
            "[|inline|Inline Markup]",
            vec![I::link(
                None,
                Some("inline".into()),
                vec![t("Inline Markup")],
            )],
        );
    }

    #[test]
    fn seed_counter_examples_rule_3() {
        plain("I'm right, aren't I?");
        plain("1*2+3*4");
        plain("HTTP_USER_AGENT");
    }

    #[test]
    fn same_character_prefix_and_suffix() {
        check(
            "***A strongly emphasized text that includes two stars on both sides.***",
            vec![I::strong(vec![t(
                "**A strongly emphasized text that includes two stars on both sides.**",
            )])],
        );
        // Only runs of the same character count: `__x__` inside is processed.
        check(
            "*__x__*",
            vec![I::strong(vec![I::emphasis(vec![t("_x_")])])],
        );
        // The prefix and suffix are not processed again.
        check(
            "__*x*__",
            vec![I::emphasis(vec![t("_"), I::strong(vec![t("x")]), t("_")])],
        );
    }

    #[test]
    fn rule_1_empty_link_text_is_replaced() {
        check(
            "[http://www.aksware.de/||]",
            vec![I::link(
                Some("http://www.aksware.de/".into()),
                None,
                vec![t("http://www.aksware.de/")],
            )],
        );
        check(
            "[|top|]",
            vec![I::link(None, Some("top".into()), vec![t("top")])],
        );
        check(
            "[u|f|]",
            vec![I::link(Some("u".into()), Some("f".into()), vec![t("u")])],
        );
        plain("__");
        plain("''");
        plain("[||x]");
    }

    #[test]
    fn rule_2_no_white_space_inside_edges() {
        plain("_ x_");
        plain("_x _");
        plain("* x *");
        plain("[u|| x]");
        plain("[u||x ]");
        check("a _b_ c", vec![t("a "), I::emphasis(vec![t("b")]), t(" c")]);
    }

    #[test]
    fn rule_3_sides() {
        check("(_x_)", vec![t("("), I::emphasis(vec![t("x")]), t(")")]);
        check("\"*x*\".", vec![t("\""), I::strong(vec![t("x")]), t("\".")]);
        plain("a_x_");
        plain("_x_a");
        plain("x[u||y]");
        plain("[u||y]x");
        plain("x<a@b.de>");
        // Non-ASCII letters are not side characters either.
        plain("é_x_");
        check(
            "\u{3000}_x_",
            vec![t("\u{3000}"), I::emphasis(vec![t("x")])],
        );
    }

    #[test]
    fn rule_4_nested_brackets() {
        check(
            "[refs.html#html||[HTML]]",
            vec![I::link(
                Some("refs.html#html".into()),
                None,
                vec![t("[HTML]")],
            )],
        );
        check(
            "[u||a [b [c]] d]",
            vec![I::link(Some("u".into()), None, vec![t("a [b [c]] d")])],
        );
        // Unbalanced: no end.
        plain("[u||a [b]");
    }

    #[test]
    fn rule_5_email() {
        check(
            "mail <no_reply@aksware.de> now",
            vec![t("mail "), I::email("no_reply@aksware.de"), t(" now")],
        );
        plain("<a@localhost>");
        plain("<a@b_c.de>");
        plain("<a+b@c.de>");
    }

    #[test]
    fn url_and_fragment_restrictions() {
        plain("[a b||x]");
        plain("[a{b||x]");
        plain("[a\"b||x]");
        plain("[a<b||x]");
        plain("[|a b|x]");
        check(
            "[#sec|sec|Section]",
            vec![I::link(
                Some("#sec".into()),
                Some("sec".into()),
                vec![t("Section")],
            )],
        );
    }

    #[test]
    fn no_links_or_email_in_link_text() {
        check(
            "[u||see [v||w] <a@b.de>]",
            vec![I::link(
                Some("u".into()),
                None,
                vec![t("see [v||w] <a@b.de>")],
            )],
        );
        // Emphasis is still recognised in link text.
        check(
            "[u||an _emphasized_ word]",
            vec![I::link(
                Some("u".into()),
                None,
                vec![t("an "), I::emphasis(vec![t("emphasized")]), t(" word")],
            )],
        );
    }

    #[test]
    fn middle_is_processed_again() {
        check(
            "*a _b_ c*",
            vec![I::strong(vec![t("a "), I::emphasis(vec![t("b")]), t(" c")])],
        );
        check(
            "'x [u||y]'",
            vec![I::code(vec![
                t("x "),
                I::link(Some("u".into()), None, vec![t("y")]),
            ])],
        );
    }

    #[test]
    fn start_without_end_is_skipped() {
        plain("_a b");
        plain("a * b");
        plain("'tis");
        check("x* *y*", vec![t("x* "), I::strong(vec![t("y")])]);
    }

    #[test]
    fn first_valid_end_wins() {
        check("*a *b* c*", vec![I::strong(vec![t("a *b")]), t(" c*")]);
        // An end run preceded by white space is not an end.
        check("_a _b_", vec![I::emphasis(vec![t("a _b")])]);
    }

    #[test]
    fn line_breaks_count_as_white_space() {
        check(
            "_a\nb_",
            vec![I::emphasis(vec![t("a"), I::line_break(), t("b")])],
        );
        plain_lines("_\nx_");
        check(
            "x\n_y_",
            vec![t("x"), I::line_break(), I::emphasis(vec![t("y")])],
        );
    }

    #[track_caller]
    fn plain_lines(input: &str) {
        let mut expect = Vec::new();
        crate::model::push_text(&mut expect, input, Pos::UNKNOWN);
        check(input, expect);
    }

    #[test]
    fn preformatted_mode() {
        let segs = [Seg {
            src: "",
            offset: 0,
            line: 1,
            col: 1,
        }];
        assert_eq!(
            parse_inlines("'x' <a@b.de> _y_", &segs, Mode::Preformatted, Syntax::SEED),
            vec![t("'x' <a@b.de> "), I::emphasis(vec![t("y")])]
        );
    }

    #[test]
    fn positions() {
        let segs = [
            Seg {
                src: "",
                offset: 0,
                line: 3,
                col: 5,
            },
            Seg {
                src: "",
                offset: 6,
                line: 4,
                col: 3,
            },
        ];
        let out = parse_inlines("ab _c\nd_ é *e*", &segs, Mode::Normal, Syntax::SEED);
        let Inline::Emphasis { pos, content } = &out[1] else {
            panic!("{out:?}")
        };
        assert!(pos.same_place(&Pos::new(3, 8)), "{pos:?}");
        assert!(content[2].pos().same_place(&Pos::new(4, 3)), "{content:?}");
        let Inline::Strong { pos, .. } = &out[3] else {
            panic!("{out:?}")
        };
        assert!(pos.same_place(&Pos::new(4, 8)), "{pos:?}");
    }
}
