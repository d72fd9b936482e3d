//! Writing escapes: the spelling of a run that would read back as
//! something else, and of a line the block scanners would read as
//! structure.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::marker::PhantomData;

use super::run::origin as from;
use super::run::{Sink, render_run};
use crate::grammar::{BREAK, ESCAPE, is_escapable};
use crate::inline::Syntax;
use crate::model::{Document, Inline};
use crate::readback::{cannot_misread, read_run, reads_as};
use crate::scan::{
    bullet, char_runs, compact_split, email, heading, is_rule, is_side_char, is_ws, link_prefix,
    run_can_end, term_line,
};

/// A run rendered without escapes, with the origin of every byte (the
/// flags of [`origin`](super::run::origin)).
struct Plain {
    text: String,
    flags: Vec<u8>,
}

impl Sink for Plain {
    fn piece(&mut self, s: &str, flags: u8) {
        self.text.push_str(s);
        self.flags.extend(std::iter::repeat_n(flags, s.len()));
    }
}

/// The plain rendering of a run, as the writer makes it.
fn plain(run: &[Inline], pre: bool) -> Plain {
    let mut p = Plain {
        text: String::new(),
        flags: Vec::new(),
    };
    render_run(run, pre, 0, &mut p);
    p
}

/// Which text bytes of a plain rendering get a backslash.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Choice {
    /// Those that could start or end markup the run does not have (seed
    /// 000 steps 1 and 2, judged from their neighbours, see [`choose`]).
    Needed,
    /// Every inline markup character of the text.
    All,
}

/// The bytes to escape under `choice`, in a document that declares the
/// extensions of `syntax`.
fn choose(p: &Plain, pre: bool, choice: Choice, syntax: Syntax) -> Vec<bool> {
    let bytes = p.text.as_bytes();
    let flag = |k: usize| p.flags.get(k).copied().unwrap_or(0);
    let mut esc = vec![false; bytes.len()];
    match choice {
        Choice::All => {
            for (k, b) in bytes.iter().enumerate() {
                let bang = *b == b'!' && bytes.get(k + 1) == Some(&b'[');
                if flag(k) & from::TEXT != 0
                    && (bang || matches!(b, b'_' | b'*' | b'\'' | b'[' | b']' | b'<' | b'>'))
                    && let Some(e) = esc.get_mut(k)
                {
                    *e = true;
                }
            }
        }
        Choice::Needed => {
            runs_of(p, b'_', from::IN_EM, &mut esc);
            runs_of(p, b'*', from::IN_STRONG, &mut esc);
            if !pre {
                runs_of(p, b'\'', from::IN_CODE, &mut esc);
            }
            brackets(p, &mut esc);
            if !pre {
                addresses(p, &mut esc);
            }
        }
    }
    extended(p, pre, syntax, &mut esc);
    esc
}

/// Escapes what the extensions would read as markup outside preformatted
/// text: the `<` of a text `<br>` (a forced break, `#Extend break`), a
/// text `^` or `~` before a `{` (a superscript or subscript, `#Extend
/// subsup`).
fn extended(p: &Plain, pre: bool, syntax: Syntax, esc: &mut [bool]) {
    if pre || (!syntax.breaks && !syntax.subsup) {
        return;
    }
    let bytes = p.text.as_bytes();
    for (k, b) in bytes.iter().enumerate() {
        let next = bytes.get(k + 1).copied();
        let live = match b {
            b'<' => syntax.breaks && p.text.get(k..).is_some_and(|t| t.starts_with(BREAK)),
            b'^' | b'~' => syntax.subsup && next == Some(b'{'),
            _ => false,
        };
        if live
            && p.flags.get(k).is_some_and(|f| f & from::TEXT != 0)
            && let Some(e) = esc.get_mut(k)
        {
            *e = true;
        }
    }
}

/// Escapes the text characters `c` that could start or end emphasis, strong
/// emphasis or sample text (`inside` is the flag of being inside such an
/// element). Judged run by run (a run is a maximal sequence of `c`): a run
/// could start one when it is followed by no white space and has a side
/// character before it (or is longer than one); it could end one when it
/// follows no white space and has a side character after it. Its text
/// characters are escaped when it mixes text with a delimiter, when it
/// could start and a run that could end comes later, or when it could end
/// and lies inside an element of the kind.
fn runs_of(p: &Plain, c: u8, inside: u8, esc: &mut [bool]) {
    // (start, end, could start, could end)
    let runs: Vec<(usize, usize, bool, bool)> = char_runs(&p.text, c)
        .map(|(a, b, before, after)| {
            let starts = !is_ws(after) && (is_side_char(before) || b - a >= 2);
            (a, b, starts, run_can_end(before, after))
        })
        .collect();
    let mut end_later = false;
    for &(a, b, starts, ends) in runs.iter().rev() {
        let flags = p.flags.get(a..b).unwrap_or_default();
        let has_text = flags.iter().any(|f| f & from::TEXT != 0);
        if has_text {
            let mixed = flags.iter().any(|f| f & from::DELIM != 0);
            let inner = ends && flags.iter().any(|f| f & from::TEXT != 0 && f & inside != 0);
            if mixed || (starts && end_later) || inner {
                for k in a..b {
                    if flags.get(k - a).is_some_and(|f| f & from::TEXT != 0)
                        && let Some(e) = esc.get_mut(k)
                    {
                        *e = true;
                    }
                }
            }
        }
        end_later |= ends;
    }
}

/// Escapes a text `[` that begins a link prefix outside link text, and in
/// link text every text bracket that has no partner there (rule 4); and a
/// text `!` right before a link prefix, which would make it an image.
fn brackets(p: &Plain, esc: &mut [bool]) {
    let text = p.text.as_str();
    let mut open: Vec<usize> = Vec::new();
    for (k, b) in text.bytes().enumerate() {
        let f = p.flags.get(k).copied().unwrap_or(0);
        let mut mark = |k: usize| {
            if let Some(e) = esc.get_mut(k) {
                *e = true;
            }
        };
        if f & from::LINK_END != 0 {
            for k in open.drain(..) {
                mark(k);
            }
            continue;
        }
        if f & from::TEXT == 0 {
            continue;
        }
        match b {
            b'!' if text.get(k + 1..).and_then(link_prefix).is_some() => mark(k),
            b'[' if f & from::IN_LINK != 0 => open.push(k),
            b']' if f & from::IN_LINK != 0 && open.pop().is_none() => mark(k),
            b'[' if text.get(k..).and_then(link_prefix).is_some() => mark(k),
            _ => {}
        }
    }
}

/// Escapes a text `<` that begins an e-mail address outside link text.
fn addresses(p: &Plain, esc: &mut [bool]) {
    let text = p.text.as_str();
    for (k, b) in text.bytes().enumerate() {
        let f = p.flags.get(k).copied().unwrap_or(0);
        if b == b'<'
            && f & from::TEXT != 0
            && f & from::IN_LINK == 0
            && text.get(k..).and_then(email).is_some()
            && let Some(e) = esc.get_mut(k)
        {
            *e = true;
        }
    }
}

/// Writes the plain rendering with a backslash before every chosen byte,
/// and a text backslash doubled where an escapable character follows it.
/// Returns whether any byte was escaped, and whether a backslash was
/// doubled.
fn compose(p: &Plain, esc: &[bool], out: &mut String) -> (bool, bool) {
    let text = p.text.as_str();
    let bytes = text.as_bytes();
    let mut escaped = false;
    let mut doubled = false;
    out.reserve(text.len());
    let mut from = 0usize;
    for (k, &b) in bytes.iter().enumerate() {
        let chosen = esc.get(k).copied().unwrap_or(false);
        let double = b == b'\\'
            && p.flags.get(k).is_some_and(|f| f & from::TEXT != 0)
            && (esc.get(k + 1).copied().unwrap_or(false)
                || bytes
                    .get(k + 1)
                    .is_some_and(|&n| is_escapable(char::from(n))));
        if chosen || double {
            out.push_str(text.get(from..k).unwrap_or_default());
            out.push(ESCAPE);
            from = k;
            escaped |= chosen;
            doubled |= double;
        }
    }
    out.push_str(text.get(from..).unwrap_or_default());
    (escaped, doubled)
}

/// A run spelled with escapes, and what that spelling reads back as.
struct Spelled {
    /// The text of the run.
    text: String,
    /// What it reads as in an escaping document.
    reading: Vec<Inline>,
    /// Whether a character was escaped in it.
    escaped: bool,
    /// Whether a backslash was doubled in it.
    doubled: bool,
}

/// The spelling of a run whose plain text reads back as something else:
/// escapes where markup could start or end ([`Choice::Needed`]), or, when
/// that still reads differently, before every markup character of its
/// text ([`Choice::All`]).
fn spell_escaped(run: &[Inline], pre: bool, syntax: Syntax) -> Spelled {
    let p = plain(run, pre);
    let mut last = None;
    for choice in [Choice::Needed, Choice::All] {
        let esc = choose(&p, pre, choice, syntax);
        let mut text = String::new();
        let (escaped, doubled) = compose(&p, &esc, &mut text);
        let reading = read_run(&text, pre, syntax.escaping(true));
        let done = reading == run;
        last = Some(Spelled {
            text,
            reading,
            escaped,
            doubled,
        });
        if done {
            break;
        }
    }
    last.unwrap_or(Spelled {
        text: p.text,
        reading: Vec::new(),
        escaped: false,
        doubled: false,
    })
}

/// The spelling of a run that reads back as itself without escapes, in an
/// escaping document: backslashes doubled where an escapable character
/// follows. Returns whether one was.
pub(crate) fn spell_plain(run: &[Inline], pre: bool, out: &mut String) -> bool {
    let p = plain(run, pre);
    if !p.text.contains(ESCAPE) {
        out.push_str(&p.text);
        return false;
    }
    compose(&p, &[], out).1
}

/// Whether rendered text holds a byte that escapes or markup could be
/// about: a backslash or an inline markup character (all ASCII).
fn has_markup_byte(text: &str) -> bool {
    text.bytes().any(|b| {
        matches!(
            b,
            b'\\' | b'_' | b'*' | b'\'' | b'[' | b']' | b'<' | b'>' | b'^' | b'~'
        )
    })
}

/// Room for the plain rendering of a run: its text two levels deep (what
/// most runs hold) and a little for markup and link values (a hint; the
/// string grows if the run holds more).
fn room_for(run: &[Inline]) -> usize {
    let text = |node: &Inline| match node {
        Inline::Text { text, .. } => text.len(),
        _ => 16,
    };
    run.iter()
        .map(|node| match node.children() {
            Some(children) => 16 + children.iter().map(text).sum::<usize>(),
            None => text(node),
        })
        .sum()
}

/// The spelling of a run (with escapes where it needs them when `escapes`;
/// read as `#Extend image` reads when `images`), and what was noticed
/// making it.
fn spelling(escapes: bool, syntax: Syntax, run: &[Inline], pre: bool) -> (String, Marks) {
    let mut text = String::with_capacity(room_for(run));
    render_run(run, pre, 0, &mut text);
    if !escapes
        || !has_markup_byte(&text)
        || cannot_misread(run, pre)
        || reads_as(&text, pre, syntax.escaping(false), run)
    {
        let mut seen = Marks::default();
        if escapes && text.contains(ESCAPE) {
            text.clear();
            seen.doubled = spell_plain(run, pre, &mut text);
        }
        return (text, seen);
    }
    let spelled = spell_escaped(run, pre, syntax);
    let seen = Marks {
        escaped: spelled.escaped,
        doubled: spelled.doubled,
        misread: spelled.reading != run,
    };
    (spelled.text, seen)
}

/// What the writer noticed about its spelling.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Marks {
    /// A character was escaped (the document needs `#Escape \`).
    pub(crate) escaped: bool,
    /// A backslash was doubled (only needed in an escaping document).
    pub(crate) doubled: bool,
    /// A run reads back as something else even with escapes (markup
    /// touching a letter, a link value that ends the markup around it).
    pub(crate) misread: bool,
}

/// Spellings already made, by the address and length of their run (and
/// whether it is a line of preformatted text), with what was noticed making
/// them. The writer spells some runs more than once (a definition list
/// decides its layout from the first lines of its terms and definitions,
/// then writes them; a document is rendered again with doubtful lines
/// escaped), and spelling a run can mean reading it back; a spelling
/// depends on nothing but the run, so the first one is kept.
///
/// Addresses identify runs only while their document is borrowed and
/// unchanged: the table lives in a [`Memo`] tied to one borrowed document,
/// and [`Spell`]'s lifetime makes every run it spells outlive the spelling
/// (no temporary run can be given).
#[derive(Default)]
pub(crate) struct Spellings {
    done: RefCell<HashMap<MemoKey, (String, Marks), BuildHasherDefault<AddrHasher>>>,
}

/// The [`Spellings`] of the runs of one document, which stays borrowed (so
/// unchanged, and its runs where they are) as long as the memo lives.
pub(crate) struct Memo<'d> {
    spellings: Spellings,
    doc: PhantomData<fn(&'d Document) -> &'d Document>,
}

impl<'d> Memo<'d> {
    /// An empty memo for the runs of `doc`.
    pub(crate) fn for_document(doc: &'d Document) -> Memo<'d> {
        let _ = doc;
        Memo {
            spellings: Spellings::default(),
            doc: PhantomData,
        }
    }

    /// The spellings made so far.
    pub(crate) fn spellings(&self) -> &Spellings {
        &self.spellings
    }
}

/// A run's address and length, and whether it is a line of preformatted
/// text.
type MemoKey = (usize, usize, bool);

/// A marker that makes [`Spell`] invariant in its lifetime (a function type
/// takes its argument contravariantly and returns covariantly).
type Invariant<'a> = fn(&'a [Inline]) -> &'a [Inline];

/// A hasher for the memo's keys (two addresses and a flag): one multiply
/// per word, as the keys are not chosen by anyone.
#[derive(Default)]
struct AddrHasher(u64);

impl AddrHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for AddrHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.add(u64::from(b));
        }
    }

    fn write_u8(&mut self, n: u8) {
        self.add(u64::from(n));
    }

    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// How the writer spells text: as the seed does, or with escapes where a
/// run or a line needs them (noting that in `marks`).
///
/// `'a` is invariant: the runs given to [`Spell::run`] must outlive the
/// spelling, so that the memo's addresses stay theirs.
#[derive(Clone, Copy)]
pub(crate) struct Spell<'a> {
    marks: Option<&'a Cell<Marks>>,
    memo: Option<&'a Spellings>,
    /// The extensions the document declares (`#Extend image`, `break`,
    /// `subsup`); whether escapes are written is `marks`.
    syntax: Syntax,
    runs: PhantomData<Invariant<'a>>,
}

impl<'a> Spell<'a> {
    /// The seed's spelling: no escapes.
    pub(crate) fn seed() -> Spell<'a> {
        Spell {
            marks: None,
            memo: None,
            syntax: Syntax::SEED,
            runs: PhantomData,
        }
    }

    /// Escapes where needed, noted in `marks`.
    #[cfg(test)]
    pub(crate) fn escaping(marks: &'a Cell<Marks>) -> Spell<'a> {
        Spell {
            marks: Some(marks),
            memo: None,
            syntax: Syntax::SEED,
            runs: PhantomData,
        }
    }

    /// Escapes where needed, noted in `marks`; each run is spelled once,
    /// kept in `memo`.
    pub(crate) fn escaping_once(marks: &'a Cell<Marks>, memo: &'a Spellings) -> Spell<'a> {
        Spell {
            marks: Some(marks),
            memo: Some(memo),
            syntax: Syntax::SEED,
            runs: PhantomData,
        }
    }

    /// The same spelling in a document that declares the extensions of
    /// `syntax`.
    pub(crate) fn with_features(mut self, syntax: Syntax) -> Spell<'a> {
        self.syntax = syntax;
        self
    }

    /// Whether the document declares figures (`#Extend figure` with
    /// `#Extend image`): a compact item whose only term is an image would
    /// read as one.
    pub(crate) fn figures(self) -> bool {
        self.syntax.figures
    }

    /// Whether escapes are written.
    pub(crate) fn escapes(self) -> bool {
        self.marks.is_some()
    }

    /// Adds what was noticed to the marks.
    fn note(self, seen: Marks) {
        if let Some(cell) = self.marks {
            let m = cell.get();
            cell.set(Marks {
                escaped: m.escaped || seen.escaped,
                doubled: m.doubled || seen.doubled,
                misread: m.misread || seen.misread,
            });
        }
    }

    /// The text of a run (a line of preformatted text when `pre`, which
    /// holds no line division: one is written as a space).
    pub(crate) fn run(self, run: &'a [Inline], pre: bool) -> String {
        let Some(memo) = self.memo else {
            let (text, seen) = spelling(self.escapes(), self.syntax, run, pre);
            self.note(seen);
            return text;
        };
        let key = (run.as_ptr() as usize, run.len(), pre);
        if let Some((text, seen)) = memo.done.borrow().get(&key) {
            // What was noticed the first time is noticed again (the marks
            // only grow).
            self.note(*seen);
            return text.clone();
        }
        let (text, seen) = spelling(self.escapes(), self.syntax, run, pre);
        self.note(seen);
        memo.done.borrow_mut().insert(key, (text.clone(), seen));
        text
    }

    /// The text of a table cell (`docs/format.md`, "Tables"): the run
    /// spelled as any run is; with `force`, every bar and bracket of its
    /// text escaped besides, for a row that would not split where it
    /// should otherwise. A cell that is only `<` or `^` is escaped too,
    /// unless it is a header cell (`header`): it would read as a marker.
    /// Tables are only written with escapes allowed.
    pub(crate) fn cell(self, run: &'a [Inline], header: bool, force: bool) -> String {
        if !force || !self.escapes() {
            let mut text = self.run(run, false);
            if !header && (text == "<" || text == "^") {
                text.insert(0, ESCAPE);
                self.note(Marks {
                    escaped: true,
                    ..Marks::default()
                });
            }
            // A first space is padding unless escaped.
            return self.leading_space(text);
        }
        let p = plain(run, false);
        let needs = |k: usize, b: u8| {
            p.flags.get(k).is_some_and(|f| f & from::TEXT != 0) && matches!(b, b'|' | b'[' | b']')
        };
        let syntax = self.syntax.escaping(true);
        let mut text = String::new();
        let mut seen = Marks::default();
        for choice in [Choice::Needed, Choice::All] {
            let mut esc = choose(&p, false, choice, self.syntax);
            for (k, b) in p.text.bytes().enumerate() {
                if needs(k, b)
                    && let Some(e) = esc.get_mut(k)
                {
                    *e = true;
                }
            }
            text.clear();
            let (escaped, doubled) = compose(&p, &esc, &mut text);
            seen = Marks {
                escaped,
                doubled,
                misread: false,
            };
            if read_run(&text, false, syntax) == run {
                break;
            }
            seen.misread = true;
        }
        if !header && (text == "<" || text == "^") {
            text.insert(0, ESCAPE);
            seen.escaped = true;
        }
        self.note(seen);
        self.leading_space(text)
    }

    /// `text` with a backslash before its first character when that is a
    /// space, in an escaping document (where else it would be lost).
    pub(crate) fn leading_space(self, text: String) -> String {
        if !self.escapes() || !text.starts_with(' ') {
            return text;
        }
        self.note(Marks {
            escaped: true,
            ..Marks::default()
        });
        format!("{ESCAPE}{text}")
    }

    /// A line of text the block scanners would read as structure, escaped
    /// so that they do not (see [`escape_line`]); `None` when escapes are
    /// off or cannot help.
    pub(crate) fn line(self, kind: LineKind, line: &str) -> Option<String> {
        if !self.escapes() {
            return None;
        }
        let fixed = escape_line(kind, line)?;
        self.note(Marks {
            escaped: true,
            ..Marks::default()
        });
        Some(fixed)
    }
}

/// How a line is checked as it is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LineKind {
    /// A line the writer made to be what it is (a rule, `::`).
    Made,
    /// A line of text: the block scanners must not see a heading, rule,
    /// term or compact item in it.
    Text,
    /// The first line of a definition, which is also read for bullets.
    FirstOfDefinition,
    /// The first line of preformatted text: it must not look like a bullet
    /// or a blockquote.
    PreFirst,
    /// A later line of preformatted text: anything goes.
    Pre,
}

/// Escapes a line that the block scanners would read as structure (seed
/// 000 "Block-level Elements") so that it reads as text: a backslash before
/// the first character of a rule, a heading or a bullet, before the `.` or
/// `)` of an ordered bullet, before a first space that would be taken as
/// indentation, before the last colon of a trailing `::`, and before every
/// space of a run of three but its first and last. `None` when nothing of
/// that applies.
pub(crate) fn escape_line(kind: LineKind, line: &str) -> Option<String> {
    let mut s = line.to_owned();
    match kind {
        LineKind::Made => return None,
        // A tab after leading spaces would count eight columns: an escaped
        // first space makes them text.
        LineKind::Pre => {
            return s.starts_with(' ').then(|| format!("{ESCAPE}{s}"));
        }
        LineKind::PreFirst => {
            if s.starts_with(' ') {
                s.insert(0, ESCAPE);
            }
            escape_bullet(&mut s);
            return (s != line).then_some(s);
        }
        LineKind::FirstOfDefinition => escape_bullet(&mut s),
        LineKind::Text => {}
    }
    if s.starts_with([' ', '|']) || is_rule(&s) || heading(&s).is_some() {
        s.insert(0, ESCAPE);
    }
    if term_line(&s).is_some() {
        let last = s.len() - 1;
        s.insert(last, ESCAPE);
    }
    if compact_split(&s).is_some() {
        s = escape_space_runs(&s);
    }
    (s != line).then_some(s)
}

/// A backslash that keeps a bullet from being read: before `*`, `-`, `+`
/// or `>`, or before the `.` or `)` that ends an ordered bullet.
fn escape_bullet(s: &mut String) {
    if bullet(s).is_none() && crate::scan::bare_opener(s).is_none() {
        return;
    }
    if s.starts_with(['*', '-', '+', '>']) {
        s.insert(0, ESCAPE);
    } else if let Some(k) = s.find(['.', ')']) {
        s.insert(k, ESCAPE);
    }
}

/// Every space of a run of three or more but the first and the last gets a
/// backslash: no three plain spaces stand in a row, and the characters
/// around the run keep white space next to them.
fn escape_space_runs(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = String::with_capacity(s.len() + 8);
    let mut from = 0usize;
    let mut i = 0usize;
    while i < bytes.len() {
        if bytes.get(i) != Some(&b' ') {
            i += 1;
            continue;
        }
        let a = i;
        while bytes.get(i) == Some(&b' ') {
            i += 1;
        }
        if i - a >= 3 {
            for k in a + 1..i - 1 {
                out.push_str(s.get(from..k).unwrap_or_default());
                out.push(ESCAPE);
                from = k;
            }
        }
    }
    out.push_str(s.get(from..).unwrap_or_default());
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Inline as I;

    fn spelled(run: &[Inline]) -> String {
        let marks = Cell::new(Marks::default());
        Spell::escaping(&marks).run(run, false)
    }

    #[test]
    fn only_what_would_be_read_as_markup_is_escaped() {
        assert_eq!(
            spelled(&[I::text("Python's __init__ and __new__")]),
            r"Python's \_\_init__ and \_\_new__"
        );
        assert_eq!(
            spelled(&[I::text("'quoted' prose, users' homes")]),
            r"\'quoted' prose, users' homes"
        );
        assert_eq!(
            spelled(&[
                I::emphasis(vec![I::text("DUMP")]),
                I::text("_"),
                I::emphasis(vec![I::text("VHOSTS")]),
            ]),
            r"_DUMP_\__VHOSTS_"
        );
        assert_eq!(
            spelled(&[I::text("[a|b|c] <a@b.cd> a*b*c (*)")]),
            r"\[a|b|c] \<a@b.cd> a*b*c (*)"
        );
        // A link text keeps its balanced brackets, not a lone one.
        assert_eq!(
            spelled(&[I::link(Some("u".into()), None, vec![I::text("[HTML] x]")])]),
            r"[u||[HTML] x\]]"
        );
    }

    #[test]
    fn backslashes_are_doubled_only_before_escapable_characters() {
        // A spelling's runs outlive it (see `Spell`).
        let windows = [I::text(r"C:\Windows \n")];
        let doubled = [I::text(r"a\_b \\ c\")];
        let marks = Cell::new(Marks::default());
        let spell = Spell::escaping(&marks);
        assert_eq!(spell.run(&windows, false), r"C:\Windows \n");
        assert_eq!(marks.get(), Marks::default());
        assert_eq!(spell.run(&doubled, false), r"a\\_b \\\\ c\");
        assert_eq!(
            marks.get(),
            Marks {
                escaped: false,
                doubled: true,
                misread: false
            }
        );
        // The seed's spelling never escapes.
        assert_eq!(
            Spell::seed().run(&[I::text(r"__x__ a\_b")], false),
            r"__x__ a\_b"
        );
    }

    #[test]
    fn lines_that_would_read_as_structure() {
        let text = |l: &str| escape_line(LineKind::Text, l);
        assert_eq!(
            text("= not a heading =").as_deref(),
            Some(r"\= not a heading =")
        );
        assert_eq!(text("----").as_deref(), Some(r"\----"));
        assert_eq!(text("Not a term::").as_deref(), Some(r"Not a term:\:"));
        assert_eq!(text("a    b").as_deref(), Some(r"a \ \  b"));
        assert_eq!(text("a   b").as_deref(), Some(r"a \  b"));
        assert_eq!(text(" lead").as_deref(), Some(r"\ lead"));
        assert_eq!(text("plain"), None);
        let first = |l: &str| escape_line(LineKind::FirstOfDefinition, l);
        assert_eq!(first("* x").as_deref(), Some(r"\* x"));
        assert_eq!(first("- x").as_deref(), Some(r"\- x"));
        assert_eq!(first("12. x").as_deref(), Some(r"12\. x"));
        assert_eq!(first("b) x").as_deref(), Some(r"b\) x"));
        let pre = |l: &str| escape_line(LineKind::PreFirst, l);
        assert_eq!(pre("+ x").as_deref(), Some(r"\+ x"));
        assert_eq!(pre("  x").as_deref(), Some(r"\  x"));
        assert_eq!(
            escape_line(LineKind::Pre, " \tx").as_deref(),
            Some("\\ \tx")
        );
        assert_eq!(escape_line(LineKind::Made, "----"), None);
    }
}
