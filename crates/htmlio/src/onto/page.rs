//! The page as a save sees it (its text, elements, words and syntax),
//! the patches a save makes of it, and how new markup is laid out in it:
//! its line ends and indentation.

use std::ops::Range;

use super::tree::Tree;
use super::words::PageWord;
use crate::emit::Syntax;

/// One replacement of the page's text (offsets in the decoded text).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Patch {
    /// Where the replaced text starts.
    pub(crate) start: usize,
    /// Where it ends.
    pub(crate) end: usize,
    /// What replaces it.
    pub(crate) with: String,
}

/// The page as [`super::onto`] sees it.
pub(crate) struct Page<'a> {
    /// The decoded text.
    pub(crate) text: &'a str,
    /// Its elements.
    pub(crate) tree: &'a Tree,
    /// Its words.
    pub(crate) words: &'a [PageWord],
    /// The syntax new markup is written in.
    pub(crate) syntax: Syntax,
}

impl<'a> Page<'a> {
    /// `r` widened to whole lines when nothing else is on them.
    pub(crate) fn whole_lines(&self, r: Range<usize>) -> Range<usize> {
        let bytes = self.text.as_bytes();
        let mut s = r.start;
        while s > 0 && matches!(bytes.get(s - 1), Some(b' ' | b'\t')) {
            s -= 1;
        }
        let mut e = r.end;
        while matches!(bytes.get(e), Some(b' ' | b'\t')) {
            e += 1;
        }
        let starts_line = s == 0 || bytes.get(s - 1) == Some(&b'\n');
        let newline = match (bytes.get(e), bytes.get(e + 1)) {
            (Some(b'\r'), Some(b'\n')) => Some(2),
            (Some(b'\n' | b'\r'), _) => Some(1),
            (None, _) => Some(0),
            _ => None,
        };
        match newline {
            Some(n) if starts_line => s..e + n,
            _ => r,
        }
    }

    /// The page's line end: CR LF when it uses them.
    pub(crate) fn newline(&self) -> &'static str {
        if self.text.contains("\r\n") {
            "\r\n"
        } else {
            "\n"
        }
    }

    /// New markup laid out as the page is: its lines in the page's line
    /// ends, each indented as the neighbour is (but where the line breaks
    /// are content: preformatted text).
    pub(crate) fn lay_out(&self, markup: &str, indent: &str) -> String {
        let nl = self.newline();
        if markup.contains("<pre") || markup.contains("<textarea") {
            markup.replace('\n', nl)
        } else {
            markup.replace('\n', &format!("{nl}{indent}"))
        }
    }

    /// The white space before `at` on its line, when only white space is.
    pub(crate) fn indent(&self, at: usize) -> &'a str {
        let text = self.text;
        let line = text
            .get(..at)
            .and_then(|t| t.rfind('\n'))
            .map_or(0, |i| i + 1);
        text.get(line..at)
            .filter(|s| s.bytes().all(|b| b == b' ' || b == b'\t'))
            .unwrap_or("")
    }

    /// `s` escaped as text in the page's syntax, onto `out`.
    pub(crate) fn escape(&self, out: &mut String, s: &str) {
        match self.syntax {
            Syntax::Xhtml => crate::serialize::escape::xml_text(out, s),
            Syntax::Html { .. } => crate::serialize::escape::text(out, s),
        }
    }

    /// `s` escaped as text in the page's syntax.
    pub(crate) fn escaped(&self, s: &str) -> String {
        let mut out = String::with_capacity(s.len());
        self.escape(&mut out, s);
        out
    }
}
