//! The inline pass: Seed 000 "Inline Elements", run on the collected text of
//! one terminated block (a paragraph, text block, term or heading, with its
//! lines joined by `\n`) or on one line of preformatted text. The lines are
//! read where they lie ([`view`]): offsets are those of the joined text,
//! but no joined copy is made.
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
//! end. The candidates of step 1 are found with one byte table
//! ([`MARKUP`]), eight bytes at a time; the bytes between them are not
//! looked at again, and text that needs no
//! change is written as a slice of its line. The searches that could
//! rescan go forward only, or are answered from a table built in one pass
//! the first time the loop needs it:
//!
//! - *Ends of `_`, `*`, `'`.* Whether a run of the character can end a
//!   sequence (no white space before it, a side character after it) does not
//!   depend on where the sequence started. The end for a start is the first
//!   valid end run after the start's run. Starts are visited in increasing
//!   order, so one search per character goes forward through the text,
//!   remembering its last find. (A middle never contains a valid end of its
//!   own character, so the search never needs to go back.)
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
//! side characters (`_*'|]`), so the searches over the whole text give the
//! same answers as
//! looking at the fragment alone would.
//!
//! Nesting is handled with an explicit stack; its depth is small anyway (a
//! middle cannot contain a sequence of its own kind, so at most emphasis,
//! strong, code and a link nest).

mod view;

use std::borrow::Cow;

use crate::escape::mask;
use crate::events::{Event, Positioned, Tag, TagEnd, inlines_from_events};
use crate::model::{Inline, Pos};
use crate::scan::{email, image_attrs, is_side_char, is_ws, link_prefix, run_can_end};
use view::{Out, View};
pub(crate) use view::{Piece, Places};

/// What a document's header turns on for the inline pass.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub(crate) struct Syntax {
    /// `#Escape \`: a backslash before an escapable character makes it
    /// plain text.
    pub(crate) escapes: bool,
    /// `#Extend image`: `!` right before a link prefix with a URL and no
    /// fragment starts an image.
    pub(crate) images: bool,
    /// `#Extend break`: `<br>` is a forced line break.
    pub(crate) breaks: bool,
    /// `#Extend subsup`: `^{` starts a superscript and `~{` a subscript,
    /// which end at the `}` that balances the `{`.
    pub(crate) subsup: bool,
    /// `#Extend figure` with `#Extend image`: a compact definition item
    /// whose only term is an image is a figure (read by the block pass;
    /// the inline pass ignores it).
    pub(crate) figures: bool,
}

impl Syntax {
    /// The seed's syntax: no extension.
    pub(crate) const SEED: Syntax = Syntax {
        escapes: false,
        images: false,
        breaks: false,
        subsup: false,
        figures: false,
    };

    /// What the header `meta` turns on.
    pub(crate) fn of(meta: &crate::model::Metadata) -> Syntax {
        Syntax {
            escapes: meta.escape,
            images: meta.image,
            breaks: meta.breaks,
            subsup: meta.subsup,
            figures: meta.figure && meta.image,
        }
    }

    /// The same syntax with escapes on or off.
    #[must_use]
    pub(crate) const fn escaping(self, escapes: bool) -> Syntax {
        Syntax { escapes, ..self }
    }
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

/// The valid end runs of one markup character, found as the scan asks for
/// them: a run of the character can end a sequence when something that is
/// not white space stands before it and a side character (or the end)
/// after it (`scan::run_can_end`), wherever the sequence started.
struct Ends {
    c: u8,
    /// `found` is the first valid end run starting at or after `from`
    /// (`None`: there is none); `from` is `usize::MAX` before the first
    /// search.
    from: usize,
    found: Option<(usize, usize)>,
}

impl Ends {
    fn new(c: u8) -> Ends {
        Ends {
            c,
            from: usize::MAX,
            found: None,
        }
    }

    /// The first valid end run starting after `q` and lying inside the
    /// fragment that ends at `end`. Starts come in increasing order, so
    /// each search goes on where the last one stopped: every byte is looked
    /// at once.
    fn after(&mut self, view: &View<'_, '_>, q: usize, end: usize) -> Option<(usize, usize)> {
        let from = q + 1;
        let known = self.from <= from && self.found.is_none_or(|(a, _)| a >= from);
        if !known {
            self.found = Self::search(view, self.c, from);
            self.from = from;
        }
        let (a, b) = self.found?;
        (a < end && b <= end).then_some((a, b))
    }

    /// The first maximal run `[a, b)` of `c` with `a >= from` that can end
    /// a sequence. A run never spans a line.
    fn search(view: &View<'_, '_>, c: u8, from: usize) -> Option<(usize, usize)> {
        let mut at = from;
        // A run that began before `from` is not one of them.
        if from > 0 && view.byte(from - 1) == Some(c) {
            at += run_length(view, at, c);
        }
        loop {
            let a = view.next_byte(at, c)?;
            let b = a + run_length(view, a, c);
            let before = view.char_before(a, 0);
            let after = view.char_at(b, view.len());
            if run_can_end(before, after) {
                return Some((a, b));
            }
            at = b;
        }
    }
}

/// The length of the run of `c` at `i` (on its line).
fn run_length(view: &View<'_, '_>, i: usize, c: u8) -> usize {
    view.seen_line(i, view.len())
        .bytes()
        .take_while(|&b| b == c)
        .count()
}

/// Partners of `[` (Seed 000 rule 4), with a cursor.
struct Brackets {
    /// Every `[` in order, with the `]` that balances it (`usize::MAX`:
    /// none).
    pairs: Vec<(usize, usize)>,
    cursor: usize,
}

impl Brackets {
    fn build(view: &View<'_, '_>) -> Brackets {
        Brackets::build_for(view, (b'[', b']'))
    }

    /// The partners of every `open` byte among the `close` bytes, in one
    /// stack pass.
    fn build_for(view: &View<'_, '_>, (open, close): (u8, u8)) -> Brackets {
        let mut pairs: Vec<(usize, usize)> = Vec::new();
        let mut stack: Vec<usize> = Vec::new();
        view.each_piece(|off, line| {
            let bytes = line.as_bytes();
            let mut at = 0;
            while let Some(x) = bytes
                .get(at..)
                .and_then(|rest| memchr::memchr2(open, close, rest))
            {
                let i = at + x;
                if bytes.get(i) == Some(&open) {
                    stack.push(pairs.len());
                    pairs.push((off + i, usize::MAX));
                } else if let Some(rank) = stack.pop()
                    && let Some(pair) = pairs.get_mut(rank)
                {
                    pair.1 = off + i;
                }
                at = i + 1;
            }
        });
        Brackets { pairs, cursor: 0 }
    }

    /// The `]` balancing the `[` at `open`.
    fn partner(&mut self, open: usize) -> Option<usize> {
        while let Some(&(o, _)) = self.pairs.get(self.cursor) {
            if o < open {
                self.cursor += 1;
            } else {
                break;
            }
        }
        match self.pairs.get(self.cursor) {
            Some(&(o, close)) if o == open && close != usize::MAX => Some(close),
            _ => None,
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
    /// `#Extend break`: `<br>`.
    Break,
    /// `#Extend subsup`: `^{` (a superscript when `sup`) or `~{`.
    Script { sup: bool },
}

/// The offsets of `part`, a slice of `base`, where `base` starts at offset
/// `at`.
fn range_in(at: usize, base: &str, part: &str) -> (usize, usize) {
    let from = at + (part.as_ptr() as usize).saturating_sub(base.as_ptr() as usize);
    (from, from + part.len())
}

/// Step 1's candidates: the bytes that can start a sequence (`_`, `*`,
/// `'`, `[`, `<`), one table for all.
const MARKUP: [bool; 256] = {
    let mut table = [false; 256];
    table[b'_' as usize] = true;
    table[b'*' as usize] = true;
    table[b'\'' as usize] = true;
    table[b'[' as usize] = true;
    table[b'<' as usize] = true;
    table
};

/// [`MARKUP`] and the bytes that start the sequences of `#Extend subsup`:
/// the `^` of a superscript and the `~` of a subscript (a forced break,
/// `<br>`, starts with the `<` of an address).
const MARKUP_EXTENDED: [bool; 256] = {
    let mut table = MARKUP;
    table[b'^' as usize] = true;
    table[b'~' as usize] = true;
    table
};

/// The spelling of a forced line break (`#Extend break`).
const BREAK: &str = crate::grammar::BREAK;

/// Partners of `{` (the braces of a superscript or subscript end at the
/// `}` that balances the `{`), with a cursor: [`Brackets`] for braces.
fn braces(view: &View<'_, '_>) -> Brackets {
    Brackets::build_for(view, (b'{', b'}'))
}

/// The state of one run of the algorithm over a text: the text, the end
/// tables built before the loop, and where the events go.
struct Scanner<'t, 'a> {
    /// The text, as written and as the rules see it (escaped characters
    /// masked, see [`mask`]).
    view: &'t View<'t, 'a>,
    out: Out<'t, 'a>,
    /// The valid end runs of `_`, `*` and `'`, in that order.
    ends: [Ends; 3],
    /// The partners of `[`, built when a link prefix first needs them.
    brackets: Option<Brackets>,
    /// The partners of `{`, built when a superscript or subscript first
    /// needs them.
    braces: Option<Brackets>,
    /// Sample text (code) and e-mail addresses are recognised.
    code_allowed: bool,
    /// Images are recognised.
    images: bool,
    /// Forced breaks are recognised (`#Extend break`).
    breaks: bool,
    /// Superscripts and subscripts are recognised (`#Extend subsup`).
    subsup: bool,
    /// Step 1's candidates.
    table: &'static [bool; 256],
}

impl<'t, 'a> Scanner<'t, 'a> {
    /// A scanner over the text of `out`. The end tables are built when
    /// first needed, one pass over the text each: most texts need few or
    /// none of them.
    fn new(out: Out<'t, 'a>, mode: Mode, syntax: Syntax) -> Self {
        let normal = mode == Mode::Normal;
        let breaks = syntax.breaks && normal;
        let subsup = syntax.subsup && normal;
        Scanner {
            view: out.view,
            out,
            ends: [Ends::new(b'_'), Ends::new(b'*'), Ends::new(b'\'')],
            brackets: None,
            braces: None,
            code_allowed: normal,
            images: syntax.images && normal,
            breaks,
            subsup,
            table: if subsup { &MARKUP_EXTENDED } else { &MARKUP },
        }
    }

    /// Steps 1-3 over the whole text. The fragment on top of the stack is the
    /// one being scanned; a middle is pushed when it is split off and popped,
    /// with its end event, when its scan is done.
    fn run(mut self) {
        let view = self.view;
        // Nesting is shallow (see the module docs): room for it up front.
        let mut stack = Vec::with_capacity(8);
        stack.push(Frame::new(None, (0, view.len()), false, (0, 0)));
        while let Some(f) = stack.last_mut() {
            // Step 1: the next candidate start.
            let Some(i) = view.find(f.p, f.end, self.table) else {
                // The fragment is done: emit its text and close it.
                self.finish(f);
                if let Some(done) = stack.pop()
                    && let Some(end) = done.end_tag
                {
                    self.out.push(Event::End(end), Pos::UNKNOWN);
                }
                continue;
            };
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
        let view = self.view;
        let c = view.byte(i).unwrap_or(0);
        // The extensions' sequences stand anywhere (no rule 3).
        match c {
            b'<' if self.breaks && view.seen_line(i, f.end).starts_with(BREAK) => {
                return Ok(Start::Break);
            }
            b'^' | b'~' if self.subsup && view.byte(i + 1) == Some(b'{') => {
                return Ok(Start::Script { sup: c == b'^' });
            }
            b'^' | b'~' => return Err(i + 1),
            _ => {}
        }
        let before = view.char_before(i, f.start);
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
                // enclosed text (a run never spans a line).
                let q = i + 1 + run_length(view, i + 1, c).min(f.end.saturating_sub(i + 1));
                // Rules 1 and 2: something follows, and not white space.
                if is_ws(view.char_at(q, f.end)) {
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
                    && view.byte(i - 1) == Some(b'!');
                if f.in_link && !bang {
                    return Err(i + 1);
                }
                // A link prefix holds no white space: it lies on one line.
                let line = view.orig_line(i, f.end);
                match link_prefix(line) {
                    Some((url, fragment, len)) => {
                        let image = bang && !url.is_empty() && fragment.is_empty();
                        if f.in_link && !image {
                            return Err(i + 1);
                        }
                        Ok(Start::Link {
                            url: range_in(i, line, url),
                            fragment: range_in(i, line, fragment),
                            t: i + len,
                            image,
                        })
                    }
                    None => Err(i + 1),
                }
            }
            b'<' if !f.in_link && self.code_allowed => {
                // Neither does an address.
                let line = view.seen_line(i, f.end);
                match email(line) {
                    Some((address, len)) => Ok(Start::Email {
                        address: range_in(i, line, address),
                        len,
                    }),
                    None => Err(i + 1),
                }
            }
            _ => Err(i + 1),
        }
    }

    /// Step 2: the end of the sequence that `start` begins at `i` in the
    /// fragment `f`, as the run `[a, b)` that the middle stops before and the
    /// scan resumes after. `Err(p)`: there is none; the start is skipped and
    /// the scan goes on at `p`.
    fn end_of(&mut self, f: &Frame, i: usize, start: &Start) -> Result<(usize, usize), usize> {
        let view = self.view;
        match *start {
            Start::Run { c, q } => {
                let which = match c {
                    b'_' => 0,
                    b'*' => 1,
                    _ => 2,
                };
                self.ends
                    .get_mut(which)
                    .and_then(|e| e.after(view, q, f.end))
                    .ok_or(q)
            }
            Start::Link { t, image, .. } => {
                let brackets = self.brackets.get_or_insert_with(|| Brackets::build(view));
                let Some(j) = brackets.partner(i).filter(|&j| j < f.end && j >= t) else {
                    return Err(i + 1);
                };
                let after = view.char_at(j + 1, f.end);
                let first = view.char_at(t, j);
                let last = view.char_before(j, t);
                if !is_side_char(after) || (t < j && (is_ws(first) || is_ws(last))) {
                    return Err(i + 1);
                }
                // An image's braces (size, title) belong to it; they stop
                // at the end of the line.
                let braces = if image {
                    image_attrs(view.orig_line(j + 1, f.end)).map_or(0, |(_, len)| len)
                } else {
                    0
                };
                Ok((j, j + 1 + braces))
            }
            // It is its own end.
            Start::Break => Ok((i + BREAK.len(), i + BREAK.len())),
            Start::Script { .. } => {
                // The `}` that balances the `{`, in the fragment, around
                // content that neither starts nor ends with white space
                // (rules 1 and 2).
                let braces = self.braces.get_or_insert_with(|| braces(view));
                let t = i + 2;
                match braces.partner(i + 1).filter(|&j| j < f.end && j > t) {
                    Some(j) if !is_ws(view.char_at(t, j)) && !is_ws(view.char_before(j, t)) => {
                        Ok((j, j + 1))
                    }
                    _ => Err(i + 1),
                }
            }
            Start::Email { len, .. } => {
                // The address is its own end.
                let e = i + len;
                if is_side_char(view.char_at(e, f.end)) {
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
        let pos = self.out.locate(i);
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
            Start::Break => {
                self.out.push(Event::HardBreak, pos);
                None
            }
            Start::Script { sup } => {
                let tag = if sup {
                    Tag::Superscript
                } else {
                    Tag::Subscript
                };
                let end = tag.end();
                self.out.push(Event::Start(tag), pos);
                let mut middle = Frame::new(Some(end), (i + 2, a), f.in_link, (a, a));
                middle.in_alt = f.in_alt;
                Some(middle)
            }
            Start::Email {
                address: (x, y), ..
            } => {
                // The address as the rules saw it (escaped characters in it
                // are masked).
                let seen = self.view.seen_line(x, y);
                let address = match self.out.source(x, y, false) {
                    written if written != seen => Cow::Owned(seen.to_owned()),
                    written => written,
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
        let pos = self.out.locate(i - 1);
        let src = self.value(src).unwrap_or_default();
        let attrs = image_attrs(self.view.orig_line(a + 1, b))
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

/// Seed 000 "Inline Elements": the inline events of the text of `pieces`
/// (see [`Piece`]), appended to `events`, with positions from `places`.
/// Text is borrowed from the pieces. `syntax` says what the header turns
/// on: with escapes (`#Escape \\`), a backslash before an escapable
/// character makes it plain text, which counts as punctuation for the
/// rules; with images (`#Extend image`), `!` before a link prefix with a
/// URL and no fragment starts an image.
pub(crate) fn inline_events<'a>(
    pieces: &[Piece<'a>],
    places: Places,
    mode: Mode,
    syntax: Syntax,
    events: &mut Vec<Positioned<'a>>,
) {
    let mut view = View::new(pieces);
    if view.len() == 0 {
        return;
    }
    let masked = if syntax.escapes && view.contains(b'\\') {
        mask(&view.joined())
    } else {
        None
    };
    let skips = match &masked {
        Some(m) => {
            view.set_masked(&m.text);
            m.skips.as_slice()
        }
        None => &[][..],
    };
    let out = Out::new(&view, skips, places, events);
    Scanner::new(out, mode, syntax).run();
}

/// [`inline_events`] over one text, its pieces the parts between its line
/// feeds. `places` is [`Places::Unknown`] or [`Places::From`].
pub(crate) fn text_events<'a>(
    text: &'a str,
    places: Places,
    mode: Mode,
    syntax: Syntax,
    events: &mut Vec<Positioned<'a>>,
) {
    let piece = |text, offset| Piece {
        text,
        offset,
        line: 0,
        col: 0,
    };
    if memchr::memchr(b'\n', text.as_bytes()).is_none() {
        inline_events(&[piece(text, 0)], places, mode, syntax, events);
        return;
    }
    let mut pieces = Vec::new();
    let mut offset = 0;
    for part in text.split('\n') {
        pieces.push(piece(part, offset));
        offset += part.len() + 1;
    }
    inline_events(&pieces, places, mode, syntax, events);
}

/// [`text_events`] as a run of the model.
pub(crate) fn parse_inlines(text: &str, places: Places, mode: Mode, syntax: Syntax) -> Vec<Inline> {
    let mut events = Vec::new();
    text_events(text, places, mode, syntax, &mut events);
    inlines_from_events(events)
}

#[cfg(test)]
mod tests;
