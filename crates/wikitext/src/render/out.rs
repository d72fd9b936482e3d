//! The lines being written: the gaps between them, bullets waiting for
//! their first line, and what the writer notices about each line as it
//! goes (a line the block scanners could read as other structure, an empty
//! line both needed and forbidden).

use super::spell::{LineKind, Spell};

/// What the gap before the next line must be.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(super) enum Need {
    /// Either; the preference decides.
    #[default]
    Free,
    /// An empty line.
    Empty,
    /// No empty line.
    NoEmpty,
    /// Both were asked for: the text will not read back as written.
    Conflict,
}

/// Constraints on the gap between two lines.
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct Gap {
    pub(super) need: Need,
    pub(super) prefer_empty: bool,
}

impl Gap {
    pub(super) fn require(&mut self, need: Need) {
        self.need = match (self.need, need) {
            (Need::Free, n) => n,
            (a, b) if a == b => a,
            _ => Need::Conflict,
        };
    }
}

/// What the writer notes about each top-level block as it goes: where its
/// text starts, whether a line of it could read as other structure, and
/// whether it follows the block before without an empty line (so that the
/// two are read together).
#[derive(Debug, Clone, Copy)]
pub(crate) struct TopMark {
    /// Byte offset in the text where the block's part starts.
    pub(crate) start: usize,
    /// Whether a line could read as something else.
    pub(crate) suspect: bool,
    /// Whether no empty line separates it from the block before.
    pub(crate) glued: bool,
}

/// The lines being written.
pub(super) struct Out<'s> {
    /// How text is spelled.
    pub(super) spell: Spell<'s>,
    /// Per top-level block: whether its doubtful lines are escaped.
    escape_lines: &'s [bool],
    /// The text so far.
    pub(super) text: String,
    /// Body lines written so far.
    pub(super) lines: usize,
    pub(super) gap: Gap,
    /// A bullet (or compact term) waiting for the first line of its content:
    /// its column and text.
    pub(super) prefix: Option<(usize, String)>,
    /// One mark per top-level block begun.
    pub(super) tops: Vec<TopMark>,
    /// Whether the next line is the first of a top-level block.
    pub(super) top_fresh: bool,
    /// Whether the text declares `#Extend open`: a container that opens
    /// with a list, preformatted text or a blockquote is written after a
    /// bare opener.
    pub(super) open: bool,
}

impl<'s> Out<'s> {
    pub(super) fn new(text: String, spell: Spell<'s>, escape_lines: &'s [bool]) -> Out<'s> {
        Out {
            spell,
            escape_lines,
            text,
            lines: 0,
            gap: Gap::default(),
            prefix: None,
            tops: Vec::new(),
            top_fresh: false,
            open: false,
        }
    }

    pub(super) fn must_empty(&mut self) {
        self.gap.require(Need::Empty);
    }

    pub(super) fn must_none(&mut self) {
        self.gap.require(Need::NoEmpty);
    }

    pub(super) fn prefer(&mut self, empty: bool) {
        self.gap.prefer_empty = empty;
    }

    pub(super) fn set_prefix(&mut self, col: usize, text: &str) {
        match &mut self.prefix {
            Some((_, pending)) => pending.push_str(text),
            None => self.prefix = Some((col, text.to_owned())),
        }
    }

    /// A top-level block begins.
    pub(super) fn begin_top(&mut self) {
        self.tops.push(TopMark {
            start: self.text.len(),
            suspect: false,
            glued: false,
        });
        self.top_fresh = true;
    }

    /// The current top-level block is read together with the one before.
    pub(super) fn glue(&mut self) {
        if let Some(mark) = self.tops.last_mut() {
            mark.glued = true;
            mark.suspect = true;
        }
    }

    pub(super) fn suspect(&mut self) {
        if let Some(mark) = self.tops.last_mut() {
            mark.suspect = true;
        }
    }

    /// Writes a line; returns whether an empty line was put before it.
    pub(super) fn line(&mut self, indent: usize, text: &str) -> bool {
        self.line_of(LineKind::Made, indent, text)
    }

    /// Writes a line, checked by the block scanners as `kind` says; returns
    /// whether an empty line was put before it.
    pub(super) fn line_of(&mut self, kind: LineKind, indent: usize, text: &str) -> bool {
        let gap = std::mem::take(&mut self.gap);
        let empty = match gap.need {
            Need::Empty => true,
            Need::NoEmpty => false,
            Need::Free => gap.prefer_empty,
            // Cannot be satisfied: the block is read again on its own.
            Need::Conflict => {
                self.suspect();
                true
            }
        };
        if self.top_fresh {
            self.top_fresh = false;
            if !empty
                && self.lines > 0
                && let Some(mark) = self.tops.last_mut()
            {
                mark.glued = true;
            }
        }
        let escaped;
        let mut text = text;
        if line_may_mislead(kind, text) {
            match self.line_escape(kind, text) {
                Some(fixed) if !line_may_mislead(kind, &fixed) => {
                    escaped = fixed;
                    text = &escaped;
                }
                _ => self.suspect(),
            }
        }
        let (col, prefix) = match self.prefix.take() {
            Some((col, prefix)) => (col, Some(prefix)),
            None => (indent, None),
        };
        // The first body line follows the header's empty line anyway.
        if empty && self.lines > 0 {
            self.text.push('\n');
        }
        self.lines += 1;
        self.text.extend(std::iter::repeat_n(' ', col));
        if let Some(prefix) = prefix {
            self.text.push_str(&prefix);
        }
        self.text.push_str(text);
        self.text.push('\n');
        empty
    }

    /// A doubtful line escaped, where the current top-level block's lines
    /// are escaped.
    pub(super) fn line_escape(&self, kind: LineKind, text: &str) -> Option<String> {
        let top = self.tops.len().checked_sub(1)?;
        if !self.escape_lines.get(top).copied().unwrap_or(false) {
            return None;
        }
        self.spell.line(kind, text)
    }

    pub(super) fn flush_prefix(&mut self) {
        if let Some((col, prefix)) = self.prefix.take() {
            let text = prefix.trim_end().to_owned();
            self.line(col, &text);
        }
    }
}

/// Whether the block scanners could read a line as other structure than
/// the writer meant: a conservative test of its first and last characters
/// (seed 000 "Block-level Elements": rules, headings, bullets, blockquotes,
/// terms, compact items; and the bare openers of `#Extend open`). A true answer only costs reading the block again.
pub(super) fn line_may_mislead(kind: LineKind, text: &str) -> bool {
    use crate::scan::{
        bare_opener, bullet, compact_split, has_three_spaces, heading, is_rule, term_line,
    };
    // A bare opener opens a container where `#Extend open` is declared; it
    // is checked whether or not it is, which at worst costs a reading.
    let bullet = |text: &str| bullet(text).or_else(|| bare_opener(text));
    match kind {
        LineKind::Made => false,
        // Leading tabs count eight columns: they become spaces.
        LineKind::Pre => text.trim_start_matches(' ').starts_with('\t'),
        LineKind::PreFirst => text.starts_with([' ', '\t']) || bullet(text).is_some(),
        LineKind::FirstOfDefinition => {
            bullet(text).is_some() || line_may_mislead(LineKind::Text, text)
        }
        LineKind::Text => {
            // Indentation (only escaped text starts with white space).
            // A bar first: a table's line where `#Extend table` is
            // declared (checked whether or not it is).
            text.starts_with([' ', '\t', '|'])
                || is_rule(text)
                || heading(text).is_some()
                || term_line(text).is_some()
                // A compact item needs three spaces in a row: most lines
                // have none, and that is found faster than the split.
                || (has_three_spaces(text) && compact_split(text).is_some())
        }
    }
}
