//! Markdown habits: what a Markdown writer types, which this format reads
//! as plain text (or as other markup), with the spelling it has instead.
//! One [`Code::MarkdownHabit`] warning per habit found, on a line of text
//! (a paragraph or a bare text block; never preformatted text, whose
//! characters are literal):
//!
//! - `# Title` as the first line of a block: a heading is `= Title =`;
//! - `- item`, `* item`, `+ item`, `1. item` as the first line of a block
//!   at column 0: a list item is indented (`  * item`; a note: pages have
//!   paragraphs that start `1. ` on purpose, 30 in 12 of the corpora's 549
//!   converted pages);
//! - `**strong**`: one mark on each side (`*strong*`; `__x__` is left
//!   alone: it is more often a name, `__init__`, than Markdown's emphasis);
//! - `[text](url)`: a link is `[url||text]`;
//! - `` `code` ``: sample text is `'code'` (a note: shell commands and
//!   converted pages have backquotes on purpose);
//! - a line of three backquotes (a fenced code block): preformatted text is
//!   indented;
//! - `| a | b |` in a document that does not declare `#Extend table`.
//!
//! A line further down a block that starts with `#` or `- ` is left alone:
//! a page's text converted with its line divisions has such lines (`- which
//! specify...`, `1) exists`), and Markdown's headings and lists follow an
//! empty line. Each check looks at one line once (linear time); an escaped
//! mark (with `#Escape \`) starts no habit.

use super::{escaped, span_of};
use crate::block::Line;
use crate::diag::{Code, Diagnostic, Severity};

/// Where a line stands: whether it is its block's first line, and at the
/// body's column 0 (where a list bullet must be indented).
#[derive(Debug, Clone, Copy)]
pub(super) struct Place {
    pub(super) first: bool,
    pub(super) top: bool,
}

/// The Markdown habits of one line of text, pushed to `out`; `tables`
/// says whether the document declares `#Extend table`.
pub(super) fn habits(
    line: &Line<'_>,
    skips: &[usize],
    place: Place,
    tables: bool,
    out: &mut Vec<Diagnostic>,
) {
    let text = line.text.trim_end();
    let mut push = |a: usize, b: usize, severity: Severity, message: &str| {
        out.push(Diagnostic::new(
            Code::MarkdownHabit,
            severity,
            message.to_owned(),
            span_of(line, a, b),
        ));
    };
    if escaped(skips, 0) {
        return;
    }
    if place.first
        && let Some(len) = atx_heading(text)
    {
        push(
            0,
            len,
            Severity::Warning,
            "Markdown's `# Title` reads as text here: a heading is `= Title =` (as many `=` as the level)",
        );
    }
    if place.first
        && place.top
        && let Some(len) = column_zero_bullet(text)
    {
        // A note: pages have paragraphs that start `1. ` on purpose.
        push(
            0,
            len,
            Severity::Info,
            "a list item reads as text at the start of a line: indent it (`  * item`, `  1. item`)",
        );
    }
    if text.starts_with("```") {
        push(
            0,
            text.len(),
            Severity::Warning,
            "Markdown's fenced code reads as text here: preformatted text is indented instead",
        );
        return;
    }
    if !tables && text.len() >= 3 && text.starts_with('|') && text.ends_with('|') {
        push(
            0,
            text.len(),
            Severity::Warning,
            "a table's row reads as text: declare `#Extend table` in the header",
        );
    }
    inline_habits(text, skips, &mut push);
}

/// `# Title` to `###### Title`: the length of the marks and the space.
fn atx_heading(text: &str) -> Option<usize> {
    let marks = text.bytes().take_while(|&b| b == b'#').count();
    let rest = text.get(marks..)?;
    ((1..=6).contains(&marks) && rest.starts_with(' ') && !rest.trim().is_empty())
        .then_some(marks + 1)
}

/// A list bullet and its space at the start of a non-indented line.
fn column_zero_bullet(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let bullet = match bytes.first()? {
        b'-' | b'*' | b'+' => 1,
        b'0'..=b'9' => {
            let digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
            match bytes.get(digits) {
                Some(b'.' | b')') if digits <= 3 => digits + 1,
                _ => return None,
            }
        }
        _ => return None,
    };
    let spaced = bytes.get(bullet).is_some_and(|&b| b == b' ')
        && bytes.get(bullet + 1).is_some_and(|&b| b != b' ');
    spaced.then_some(bullet + 1)
}

/// `**x**`, `__x__`, `[text](url)` and `` `x` `` inside a line.
fn inline_habits(text: &str, skips: &[usize], push: &mut impl FnMut(usize, usize, Severity, &str)) {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if escaped(skips, i) {
            i += 1;
            continue;
        }
        let next = match bytes[i] {
            b'*' => doubled(text, i).inspect(|&end| {
                push(
                    i,
                    end,
                    Severity::Warning,
                    "Markdown's `**strong**` here is `*strong*`: one mark on each side",
                );
            }),
            b'[' => markdown_link(text, i).inspect(|&end| {
                push(
                    i,
                    end,
                    Severity::Warning,
                    "Markdown's `[text](url)` reads as text here: a link is `[url||text]`",
                );
            }),
            b'`' => backquoted(text, i).inspect(|&end| {
                // A note: shell commands have backquotes on purpose.
                push(
                    i,
                    end,
                    Severity::Info,
                    "Markdown's `` `code` `` reads as text here: sample text is `'code'`",
                );
            }),
            _ => None,
        };
        i = next.unwrap_or(i + 1);
    }
}

/// `**x**` starting at `i`: where it ends.
fn doubled(text: &str, i: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    if bytes.get(i + 1) != Some(&b'*')
        || bytes
            .get(i + 2)
            .is_none_or(|b| b.is_ascii_whitespace() || *b == b'*')
    {
        return None;
    }
    // At a word's edges (`S**t` and `s**g` are a word each).
    if i > 0 && (bytes[i - 1] == b'*' || bytes[i - 1].is_ascii_alphanumeric()) {
        return None;
    }
    let inner = i + 2;
    let close = text.get(inner..)?.find("**")? + inner;
    let after = bytes.get(close + 2);
    (close > inner
        && !bytes[close - 1].is_ascii_whitespace()
        && after.is_none_or(|b| !b.is_ascii_alphanumeric() && *b != b'*'))
    .then_some(close + 2)
}

/// `[text](url)` starting at `i` (no `|` between the brackets, which a
/// link of this format always has): where it ends.
fn markdown_link(text: &str, i: usize) -> Option<usize> {
    let rest = text.get(i + 1..)?;
    let close = rest.find(']')?;
    let label = &rest[..close];
    if label.is_empty() || label.contains(['|', '[']) {
        return None;
    }
    let after = rest.get(close + 1..)?;
    let url = after.strip_prefix('(')?;
    let end = url.find(')')?;
    let target = &url[..end];
    (!target.is_empty() && !target.contains(char::is_whitespace))
        .then_some(i + 1 + close + 1 + 1 + end + 1)
}

/// `` `x` `` starting at `i`: where it ends.
fn backquoted(text: &str, i: usize) -> Option<usize> {
    let rest = text.get(i + 1..)?;
    let end = rest.find('`')?;
    let inner = &rest[..end];
    (!inner.is_empty() && !inner.starts_with(' ') && !inner.ends_with(' '))
        .then_some(i + 1 + end + 1)
}

#[cfg(test)]
mod tests {
    fn codes(text: &str) -> Vec<String> {
        crate::hints(text)
            .iter()
            .filter(|d| d.code == crate::diag::Code::MarkdownHabit)
            .map(|d| format!("{} {}", d.span, d.message.split(':').next().unwrap_or("")))
            .collect()
    }

    #[test]
    fn markdown_habits_are_named_with_the_spelling_here() {
        let found = codes(concat!(
            "\n# Title\n\n",
            "- one\n\n- two\n\n",
            "Some **bold** and __init__ with [a link](https://example.com/) and `code`.\n\n",
            "```\n\n",
            "| a | b |\n",
        ));
        assert_eq!(
            found,
            [
                "2:1-3 Markdown's `# Title` reads as text here",
                "4:1-3 a list item reads as text at the start of a line",
                "6:1-3 a list item reads as text at the start of a line",
                "8:6-14 Markdown's `**strong**` here is `*strong*`",
                "8:33-63 Markdown's `[text](url)` reads as text here",
                "8:68-74 Markdown's `` `code` `` reads as text here",
                "10:1-4 Markdown's fenced code reads as text here",
                "12:1-10 a table's row reads as text",
            ]
        );
    }

    #[test]
    fn shapes_real_text_has_on_purpose_are_notes() {
        let severities: Vec<(String, crate::diag::Severity)> =
            crate::hints("\n- item\n\nRun `ls` or **this**.\n")
                .into_iter()
                .filter(|d| d.code == crate::diag::Code::MarkdownHabit)
                .map(|d| (d.span.to_string(), d.severity))
                .collect();
        use crate::diag::Severity::{Info, Warning};
        assert_eq!(
            severities,
            [
                ("2:1-3".to_owned(), Info),
                ("4:5-9".to_owned(), Info),
                ("4:13-21".to_owned(), Warning)
            ]
        );
    }

    #[test]
    fn what_this_format_means_draws_no_markdown_hint() {
        // Its own markup, an indented list, a table it declares, text in
        // preformatted text, and an escaped mark.
        assert!(codes("\n*strong* [https://x.org/||x] 'code'\n\n  - item\n").is_empty());
        assert!(codes("#Extend table\n\n| a | b |\n").is_empty());
        assert!(codes("\n    # not a heading\n    **literal**\n").is_empty());
        assert!(codes("#Escape \\\n\n\\# Title\n").is_empty());
        // A dash in prose, a price, a number; a converted page's line
        // divisions that start with a dash or a number.
        assert!(codes("\n-5 degrees, 2*3*4 and 10. May\n").is_empty());
        assert!(codes("\nProtocols\n- which specify\n1) exists\n# blank\n").is_empty());
        // A word with stars in it.
        assert!(codes("\nI thought, S**t, did I s**g it?\n").is_empty());
    }
}
