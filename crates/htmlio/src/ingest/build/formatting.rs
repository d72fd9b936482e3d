//! Inline formatting: the stack of formatting entries along the current path
//! of the tree, and keeping the top run's open elements in step with it.

use std::mem;

use super::frames::FrameKind;
use super::{Builder, at};
use crate::ingest::run::Kind;

/// The serials of formatting entries: at most one entry per kind of inline
/// element is ever on the stack, so four fit.
#[derive(Debug, Default)]
struct Serials {
    items: [u32; 4],
    len: usize,
}

impl Serials {
    /// Adds a serial (ignored when all four places are taken).
    fn push(&mut self, serial: u32) {
        if let Some(slot) = self.items.get_mut(self.len) {
            *slot = serial;
            self.len += 1;
        }
    }

    /// The serials added, in order.
    fn as_slice(&self) -> &[u32] {
        self.items.get(..self.len).unwrap_or(&[])
    }
}

/// An inline formatting entry on the path from the root.
#[derive(Debug)]
pub(super) struct FmtEntry {
    serial: u32,
    pub(super) kind: Kind,
    /// Whether some run opened it (it had text). An anchor is placed once:
    /// when a link's text is split over several blocks or lines, only the
    /// first part carries the anchor name.
    pub(super) used: bool,
}

impl FmtEntry {
    /// Whether the entry still applies: an anchor without URL applies only
    /// until its first use.
    fn applies(&self, pre: bool) -> bool {
        match &self.kind {
            // XHTML 1.0 allows no `sub` or `sup` in `pre` either.
            Kind::Code | Kind::Sup | Kind::Sub => !pre,
            Kind::Link { url: None, .. } => !self.used,
            _ => true,
        }
    }

    /// The element a run opens for the entry.
    fn element(&self) -> Kind {
        match &self.kind {
            Kind::Link { url, .. } if self.used => Kind::Link {
                url: url.clone(),
                fragment: None,
            },
            kind => kind.clone(),
        }
    }
}

impl Builder<'_> {
    /// Whether a formatting entry applies in the top frame now: no sample
    /// text in preformatted text, and an anchor without URL only until its
    /// first use is over.
    fn entry_applies(&self, f: &FmtEntry, pre: bool) -> bool {
        f.applies(pre)
            || self
                .frames
                .last()
                .is_some_and(|t| t.run.open.iter().any(|o| o.serial == f.serial))
    }

    /// The serials of the entries that apply in the top frame, in order
    /// (at most one entry per kind of inline element, so a few).
    fn effective_serials(&self) -> Serials {
        let pre = self.top_kind().is_some_and(FrameKind::is_pre);
        let mut out = Serials::default();
        for f in self.fmt.iter().filter(|f| self.entry_applies(f, pre)) {
            out.push(f.serial);
        }
        out
    }

    /// Closes the open elements of the top run that the current path has
    /// left.
    pub(super) fn sync_close(&mut self) {
        let serials = self.effective_serials();
        let Some(top) = self.frames.last_mut() else {
            return;
        };
        let pre = top.kind.is_pre();
        let keep = top
            .run
            .open
            .iter()
            .zip(serials.as_slice())
            .take_while(|(o, s)| o.serial == **s)
            .count();
        while top.run.open.len() > keep {
            top.run.close_top(pre);
        }
        let orphans = top.run.take_orphans();
        self.adopt_orphans(orphans);
    }

    /// Opens the elements of the current path the top run lacks.
    pub(super) fn sync_open(&mut self, line: u32) {
        let serials = self.effective_serials();
        let Some(top) = self.frames.last_mut() else {
            return;
        };
        let have = top.run.open.len();
        for serial in serials.as_slice().iter().skip(have) {
            if let Some(entry) = self.fmt.iter_mut().find(|f| f.serial == *serial) {
                top.run.open(entry.serial, entry.element(), at(line));
                entry.used = true;
            }
        }
    }

    pub(super) fn push_fmt(&mut self, kind: Kind) -> bool {
        // The same formatting inside itself adds nothing (and `__x__` would
        // not read back as nested emphasis).
        let same = |f: &FmtEntry| mem::discriminant(&f.kind) == mem::discriminant(&kind);
        if self.fmt.iter().any(same) {
            return false;
        }
        self.serial = self.serial.wrapping_add(1);
        self.fmt.push(FmtEntry {
            serial: self.serial,
            kind,
            used: false,
        });
        true
    }
}
