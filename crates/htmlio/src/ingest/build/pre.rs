//! Preformatted text: its lines as they come, and their indentation when the
//! block ends.

use wikitext::{Block, Inline, Severity};

use super::frames::{Frame, FrameKind};
use super::{Builder, at};
use crate::ingest::diag::Code;
use crate::ingest::run::trim_end;

impl Builder<'_> {
    /// A text node in preformatted text: its lines, leading tabs expanded.
    pub(super) fn pre_text(&mut self, text: &str, line: u32) {
        // A form feed is HTML white space that XML cannot hold (emission
        // would write U+FFFD, breaking the round trip): in preformatted text
        // too it is a space, as outside (found by cargo fuzz). A carriage
        // return can only come from a character reference (`&#13;`; the
        // input stream turns the others into line feeds), and CSS shows it
        // as a space, so it is one here too: kept, it hid the indentation
        // of its line and the page was no fixpoint (ncurses-doc's HOWTO).
        let text = if text.contains(['\u{c}', '\r']) {
            std::borrow::Cow::Owned(text.replace(['\u{c}', '\r'], " "))
        } else {
            std::borrow::Cow::Borrowed(text)
        };
        let mut first = true;
        let mut line = line;
        for piece in text.split('\n') {
            if !first {
                self.pre_newline();
                line = line.saturating_add(1);
            }
            first = false;
            if piece.is_empty() {
                continue;
            }
            self.sync_close();
            self.sync_open(line);
            let Some(top) = self.frames.last_mut() else {
                return;
            };
            let FrameKind::Pre { at_start, .. } = &mut top.kind else {
                return;
            };
            let mut rest = piece;
            if *at_start {
                // Leading tabs are eight spaces each, as the text format
                // reads them (and as tab stops at the start of a line are).
                let lead = piece.len() - piece.trim_start_matches([' ', '\t']).len();
                let (indent, after) = piece.split_at(lead);
                if !after.is_empty() {
                    *at_start = false;
                }
                let expanded = indent.replace('\t', "        ");
                top.run.text(&expanded, at(line));
                rest = after;
            }
            // Anchors waiting for a word (an `<a name>` around white space,
            // as RFC pages mark their pages) go on the next word here, not
            // on one after the preformatted text.
            if !self.pending_anchors.is_empty() {
                rest = self.place_anchors(rest, line);
            }
            if let Some(top) = self.frames.last_mut() {
                top.run.text(rest, at(line));
            }
        }
    }

    /// Ends the current line of preformatted text.
    pub(super) fn pre_newline(&mut self) {
        let Some(top) = self.frames.last_mut() else {
            return;
        };
        let (mut content, _) = top.run.finish(true);
        let orphans = top.run.take_orphans();
        trim_end(&mut content);
        if let FrameKind::Pre { lines, at_start } = &mut top.kind {
            lines.push(content);
            *at_start = true;
        }
        self.adopt_orphans(orphans);
    }

    /// Closes preformatted text: its lines, with the indentation the text
    /// format can hold.
    pub(super) fn close_pre(&mut self, frame: Frame) {
        let line = frame.pos.line;
        let FrameKind::Pre { mut lines, .. } = frame.kind else {
            return;
        };
        // Empty lines at the start go: XHTML cannot carry them to an HTML
        // parser, which drops a line feed right after `<pre>` (found by the
        // htmlio fuzz target: `ingest(emit(d))` lost one). The other empty
        // lines are left for wikitext::canon, which knows what the text
        // format can hold.
        let lead = lines.iter().take_while(|l| l.is_empty()).count();
        lines.drain(..lead);
        let (cut_first, common) = strip_common_indent(&mut lines);
        if common > 0 {
            self.report(
                Code::PreIndentShared,
                Severity::Info,
                line,
                format!(
                    "preformatted text's common indentation ({common} space{}) dropped: the text \
                     format measures its lines from the block's own indentation",
                    if common == 1 { "" } else { "s" }
                ),
            );
        }
        if cut_first {
            self.report(
                Code::PreIndentLost,
                Severity::Warning,
                line,
                "the first line of preformatted text was indented more than a later line; \
                 the text format measures from the first line, so its extra indentation was dropped",
            );
        }
        if lines.iter().any(|l| !l.is_empty()) {
            self.deliver(vec![Block::Preformatted {
                lines,
                pos: frame.pos,
            }]);
        }
    }
}

/// The text format measures preformatted lines from the indentation of the
/// block (seed 000: "All following lines that have an equal or greater
/// indentation than the first line are part of the same block"), so an
/// indentation shared by all lines cannot be held: it is removed; and the
/// first line cannot be indented more than a later line: its excess is
/// removed. Returns whether the first line lost an excess, and how many
/// columns all lines lost.
fn strip_common_indent(lines: &mut [Vec<Inline>]) -> (bool, usize) {
    fn indent(line: &[Inline]) -> usize {
        match line.first() {
            Some(Inline::Text { text, .. }) => text.len() - text.trim_start_matches(' ').len(),
            _ => 0,
        }
    }
    fn dedent(line: &mut Vec<Inline>, n: usize) {
        if n == 0 {
            return;
        }
        if let Some(Inline::Text { text, .. }) = line.first_mut() {
            text.replace_range(..n.min(text.len()), "");
            if text.is_empty() {
                line.remove(0);
            }
        }
    }
    let mut cut_first = false;
    // The first line that has text (empty lines at the edges are not
    // written).
    let first_at = lines.iter().position(|l| !l.is_empty()).unwrap_or(0);
    let rest_min = lines
        .iter()
        .skip(first_at + 1)
        .filter(|l| !l.is_empty())
        .map(|l| indent(l))
        .min();
    if let (Some(first), Some(rest_min)) = (lines.get_mut(first_at), rest_min) {
        let first_indent = indent(first);
        if first_indent > rest_min {
            dedent(first, first_indent - rest_min);
            cut_first = true;
        }
    }
    let common = lines
        .iter()
        .filter(|l| !l.is_empty())
        .map(|l| indent(l))
        .min()
        .unwrap_or(0);
    for line in lines.iter_mut().filter(|l| !l.is_empty()) {
        dedent(line, common);
    }
    (cut_first, common)
}
