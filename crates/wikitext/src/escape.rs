//! The escape extension (`docs/format.md`, "Escapes"): in a document whose
//! header declares `#Escape \`, a backslash before an escapable character
//! ([`is_escapable`]) makes that character plain text.
//!
//! Reading: the inline pass works on a masked copy of the text, in which
//! every escaped character but the space is `!`, punctuation that is no
//! markup, so the seed's rules and scans run unchanged and an escaped
//! character counts as a side character (rule 3); an escaped space and
//! its backslash are white space. Text is emitted from the original with the
//! escaping backslashes dropped; link values are taken from the original
//! as written. The block scanners need nothing: they see the backslash,
//! which begins no bullet, heading, rule or blockquote, and which breaks a
//! trailing `::` (`:\:`) and a run of three spaces (` \  `).

use std::borrow::Cow;
use std::cell::Cell;

use crate::grammar::{ESCAPE, is_escapable};
use crate::inline::{Mode, parse_inlines};
use crate::model::Inline;
use crate::scan::{
    bullet, compact_split, email, heading, is_rule, is_side_char, is_ws, link_prefix, term_line,
};
use crate::write::LineKind;

/// A text as the inline rules see it in an escaping document.
pub(crate) struct Masked {
    /// The text with every escaped character replaced by `!`, but an
    /// escaped space, which stays, with its backslash, white space.
    pub(crate) text: String,
    /// Byte offsets of the escaping backslashes, in order.
    pub(crate) skips: Vec<usize>,
}

/// The masked text, or `None` when `text` holds no escape. Escapes pair
/// left to right: in `\\_` the first backslash escapes the second.
pub(crate) fn mask(text: &str) -> Option<Masked> {
    let first = text.find(ESCAPE)?;
    let mut bytes = text.as_bytes().to_vec();
    let mut skips = Vec::new();
    let mut i = first;
    while let Some(&b) = bytes.get(i) {
        if b == b'\\'
            && let Some(next) = bytes.get_mut(i + 1)
            && is_escapable(char::from(*next))
            && next.is_ascii()
        {
            if *next == b' ' {
                // An escaped space is still white space to the inline
                // rules, and so is its backslash.
                if let Some(slash) = bytes.get_mut(i) {
                    *slash = b' ';
                }
            } else {
                *next = b'!';
            }
            skips.push(i);
            i += 2;
        } else {
            i += 1;
        }
    }
    if skips.is_empty() {
        return None;
    }
    // Only ASCII bytes were replaced by ASCII: still UTF-8.
    let text = String::from_utf8(bytes).ok()?;
    Some(Masked { text, skips })
}

/// `text[from..to]` without the escaping backslashes at `skips`.
pub(crate) fn unescaped<'t>(
    text: &'t str,
    from: usize,
    to: usize,
    skips: &[usize],
) -> Cow<'t, str> {
    let slice = text.get(from..to).unwrap_or_default();
    let first = skips.partition_point(|&k| k < from);
    let inside = skips.get(first..).unwrap_or_default();
    if inside.first().is_none_or(|&k| k >= to) {
        return Cow::Borrowed(slice);
    }
    let mut out = String::with_capacity(slice.len());
    let mut at = from;
    for &k in inside.iter().take_while(|&&k| k < to) {
        out.push_str(text.get(at..k).unwrap_or_default());
        at = k + 1;
    }
    out.push_str(text.get(at..to).unwrap_or_default());
    Cow::Owned(out)
}

// ---------------------------------------------------------------------------
// Writing.

/// Where a byte of a run's plain rendering came from.
mod from {
    /// Text: the only bytes that are ever escaped.
    pub(super) const TEXT: u8 = 1;
    /// A delimiter of emphasis, strong emphasis or sample text.
    pub(super) const DELIM: u8 = 1 << 1;
    /// Inside emphasis.
    pub(super) const IN_EM: u8 = 1 << 2;
    /// Inside strong emphasis.
    pub(super) const IN_STRONG: u8 = 1 << 3;
    /// Inside sample text.
    pub(super) const IN_CODE: u8 = 1 << 4;
    /// Inside a link text.
    pub(super) const IN_LINK: u8 = 1 << 5;
    /// The `]` that ends a link.
    pub(super) const LINK_END: u8 = 1 << 6;
}

/// A run rendered without escapes, with the origin of every byte.
struct Plain {
    text: String,
    flags: Vec<u8>,
}

impl Plain {
    fn push(&mut self, s: &str, flags: u8) {
        self.text.push_str(s);
        self.flags.extend(std::iter::repeat_n(flags, s.len()));
    }
}

/// Renders `run` as the writer does (see `write::render_inline`), noting
/// where each byte came from. Recursion is bounded by the inline depth of
/// a canonical run.
fn plain(run: &[Inline], pre: bool, inside: u8, out: &mut Plain) {
    for node in run {
        match node {
            Inline::Text { text, .. } => out.push(text, from::TEXT | inside),
            // A line of preformatted text holds no line division.
            Inline::LineBreak { .. } => out.push(if pre { " " } else { "\n" }, inside),
            Inline::Emphasis { content, .. } => {
                out.push("_", from::DELIM | inside);
                plain(content, pre, inside | from::IN_EM, out);
                out.push("_", from::DELIM | inside);
            }
            Inline::Strong { content, .. } => {
                out.push("*", from::DELIM | inside);
                plain(content, pre, inside | from::IN_STRONG, out);
                out.push("*", from::DELIM | inside);
            }
            Inline::Code { content, .. } => {
                out.push("'", from::DELIM | inside);
                plain(content, pre, inside | from::IN_CODE, out);
                out.push("'", from::DELIM | inside);
            }
            Inline::Link {
                url,
                fragment,
                content,
                ..
            } => {
                out.push("[", inside);
                out.push(url.as_deref().unwrap_or(""), inside);
                out.push("|", inside);
                out.push(fragment.as_deref().unwrap_or(""), inside);
                out.push("|", inside);
                let shown = url.as_deref().or(fragment.as_deref()).unwrap_or("");
                let replaced =
                    matches!(content.as_slice(), [Inline::Text { text, .. }] if text == shown);
                if !replaced {
                    plain(content, pre, inside | from::IN_LINK, out);
                }
                out.push("]", inside | from::LINK_END);
            }
            Inline::Email { address, .. } => {
                out.push("<", inside);
                out.push(address, inside);
                out.push(">", inside);
            }
        }
    }
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

/// The bytes to escape under `choice`.
fn choose(p: &Plain, pre: bool, choice: Choice) -> Vec<bool> {
    let bytes = p.text.as_bytes();
    let flag = |k: usize| p.flags.get(k).copied().unwrap_or(0);
    let mut esc = vec![false; bytes.len()];
    match choice {
        Choice::All => {
            for (k, b) in bytes.iter().enumerate() {
                if flag(k) & from::TEXT != 0
                    && matches!(b, b'_' | b'*' | b'\'' | b'[' | b']' | b'<' | b'>')
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
    esc
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
    let text = p.text.as_str();
    let bytes = text.as_bytes();
    // (start, end, could start, could end)
    let mut runs: Vec<(usize, usize, bool, bool)> = Vec::new();
    let mut i = 0usize;
    while let Some(found) = bytes.get(i..).and_then(|b| b.iter().position(|&x| x == c)) {
        let a = i + found;
        let mut b = a;
        while bytes.get(b) == Some(&c) {
            b += 1;
        }
        let before = text.get(..a).and_then(|s| s.chars().next_back());
        let after = text.get(b..).and_then(|s| s.chars().next());
        let starts = !is_ws(after) && (is_side_char(before) || b - a >= 2);
        let ends = before.is_some() && !is_ws(before) && is_side_char(after);
        runs.push((a, b, starts, ends));
        i = b;
    }
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
/// link text every text bracket that has no partner there (rule 4).
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

/// What the inline pass reads `text` as (one fragment, positions unknown).
pub(crate) fn read_run(text: &str, pre: bool, escapes: bool) -> Vec<Inline> {
    let mode = if pre {
        Mode::Preformatted
    } else {
        Mode::Normal
    };
    parse_inlines(text, &[], mode, escapes)
}

/// A run spelled with escapes, and what that spelling reads back as.
pub(crate) struct Spelled {
    /// The text of the run.
    pub(crate) text: String,
    /// What it reads as in an escaping document.
    pub(crate) reading: Vec<Inline>,
    /// Whether a backslash was doubled in it.
    pub(crate) doubled: bool,
}

/// The spelling of a run whose plain text reads back as something else:
/// escapes where markup could start or end ([`Choice::Needed`]), or, when
/// that still reads differently, before every markup character of its
/// text ([`Choice::All`]).
pub(crate) fn spell_escaped(run: &[Inline], pre: bool) -> Spelled {
    let mut p = Plain {
        text: String::new(),
        flags: Vec::new(),
    };
    plain(run, pre, 0, &mut p);
    let mut last = None;
    for choice in [Choice::Needed, Choice::All] {
        let esc = choose(&p, pre, choice);
        let mut text = String::new();
        let (_, doubled) = compose(&p, &esc, &mut text);
        let reading = read_run(&text, pre, true);
        let done = reading == run;
        last = Some(Spelled {
            text,
            reading,
            doubled,
        });
        if done {
            break;
        }
    }
    last.unwrap_or(Spelled {
        text: p.text,
        reading: Vec::new(),
        doubled: false,
    })
}

/// The spelling of a run that reads back as itself without escapes, in an
/// escaping document: backslashes doubled where an escapable character
/// follows. Returns whether one was.
pub(crate) fn spell_plain(run: &[Inline], pre: bool, out: &mut String) -> bool {
    let mut p = Plain {
        text: String::new(),
        flags: Vec::new(),
    };
    plain(run, pre, 0, &mut p);
    if !p.text.contains(ESCAPE) {
        out.push_str(&p.text);
        return false;
    }
    compose(&p, &[], out).1
}

/// What the writer noticed about its spelling.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Marks {
    /// A character was escaped (the document needs `#Escape \`).
    pub(crate) escaped: bool,
    /// A backslash was doubled (only needed in an escaping document).
    pub(crate) doubled: bool,
}

/// How the writer spells text: as the seed does, or with escapes where a
/// run or a line needs them (noting that in `marks`).
#[derive(Clone, Copy)]
pub(crate) struct Spell<'a> {
    marks: Option<&'a Cell<Marks>>,
}

impl<'a> Spell<'a> {
    /// The seed's spelling: no escapes.
    pub(crate) const SEED: Spell<'static> = Spell { marks: None };

    /// Escapes where needed, noted in `marks`.
    pub(crate) fn escaping(marks: &'a Cell<Marks>) -> Spell<'a> {
        Spell { marks: Some(marks) }
    }

    /// Whether escapes are written.
    pub(crate) fn escapes(self) -> bool {
        self.marks.is_some()
    }

    fn note(self, escaped: bool, doubled: bool) {
        if let Some(cell) = self.marks {
            let mut m = cell.get();
            m.escaped |= escaped;
            m.doubled |= doubled;
            cell.set(m);
        }
    }

    /// The text of a run (a line of preformatted text when `pre`, which
    /// holds no line division: one is written as a space).
    pub(crate) fn run(self, run: &[Inline], pre: bool) -> String {
        let mut text = String::new();
        crate::write::render_inline(run, &mut text);
        if pre && text.contains('\n') {
            text = text.replace('\n', " ");
        }
        if !self.escapes()
            || !text.contains(['\\', '_', '*', '\'', '[', ']', '<', '>'])
            || crate::canon::reads_as_itself_quickly(run, pre)
            || read_run(&text, pre, false) == run
        {
            if self.escapes() && text.contains(ESCAPE) {
                text.clear();
                let doubled = spell_plain(run, pre, &mut text);
                self.note(false, doubled);
            }
            return text;
        }
        let spelled = spell_escaped(run, pre);
        self.note(true, spelled.doubled);
        spelled.text
    }

    /// A line of text the block scanners would read as structure, escaped
    /// so that they do not (see [`escape_line`]); `None` when escapes are
    /// off or cannot help.
    pub(crate) fn line(self, kind: LineKind, line: &str) -> Option<String> {
        if !self.escapes() {
            return None;
        }
        let fixed = escape_line(kind, line)?;
        self.note(true, false);
        Some(fixed)
    }
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
    if s.starts_with(' ') || is_rule(&s) || heading(&s).is_some() {
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
    if bullet(s).is_none() {
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
