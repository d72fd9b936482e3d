//! Line preprocessing (Seed 000 "Body Part"): splitting the input into lines,
//! removing trailing white space, expanding leading tabs and measuring the
//! indentation. Collapsing consecutive empty lines is left to the consumers,
//! which treat a run of empty lines as one.

/// One preprocessed source line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SrcLine<'a> {
    /// 1-based source line number.
    pub(crate) num: u32,
    /// Indentation in spaces, each leading tab counting eight.
    pub(crate) indent: usize,
    /// The line after its indentation, without trailing white space; empty
    /// for an empty line.
    pub(crate) text: &'a str,
    /// 1-based source column (in characters) of the first character of `text`.
    pub(crate) col: u32,
}

impl SrcLine<'_> {
    /// Whether the line is empty after preprocessing.
    pub(crate) fn is_empty(&self) -> bool {
        self.text.is_empty()
    }
}

/// The pieces of a text between its line ends (LF, CRLF or a lone CR, as
/// [`split_lines`] reads them), for text that should not hold any.
pub(crate) fn line_pieces(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = Some(text);
    std::iter::from_fn(move || {
        let t = rest?;
        match t.find(['\n', '\r']) {
            Some(at) => {
                let skip = if t.get(at..at + 2) == Some("\r\n") {
                    2
                } else {
                    1
                };
                rest = t.get(at + skip..);
                t.get(..at)
            }
            None => {
                rest = None;
                Some(t)
            }
        }
    })
}

/// Splits `input` into preprocessed lines.
///
/// - A UTF-8 byte order mark at the start is dropped.
/// - Lines end at LF, CRLF or a lone CR.
/// - Trailing white space (any Unicode white space) is removed.
/// - The leading blank run of spaces and tabs is the indentation: each space
///   counts one, each tab eight (Seed 000: "all leading tabulator characters
///   of a line are finally replaced by eight space characters each"; a tab
///   after leading spaces counts as leading too).
pub(crate) fn split_lines(input: &str) -> Vec<SrcLine<'_>> {
    let input = input.strip_prefix('\u{feff}').unwrap_or(input);
    let mut out = Vec::new();
    let mut num: u32 = 0;
    let mut rest = input;
    while !rest.is_empty() {
        let (line, next) = match memchr::memchr2(b'\n', b'\r', rest.as_bytes()) {
            Some(i) => {
                let skip = if rest.get(i..i + 2) == Some("\r\n") {
                    2
                } else {
                    1
                };
                (
                    rest.get(..i).unwrap_or(""),
                    rest.get(i + skip..).unwrap_or(""),
                )
            }
            None => (rest, ""),
        };
        num = num.saturating_add(1);
        out.push(preprocess(line, num));
        rest = next;
    }
    out
}

fn preprocess(line: &str, num: u32) -> SrcLine<'_> {
    // Most lines end in a character that is not white space: an ASCII
    // byte above the space is none (every ASCII white space character,
    // vertical tab included, is at or below it).
    let trimmed = match line.as_bytes().last() {
        Some(&b) if b.is_ascii() && b > b' ' => line,
        _ => line.trim_end(),
    };
    let mut indent = 0usize;
    let mut lead = 0usize;
    for b in trimmed.bytes() {
        match b {
            b' ' => indent += 1,
            b'\t' => indent += 8,
            _ => break,
        }
        lead += 1;
    }
    let text = trimmed.get(lead..).unwrap_or("");
    SrcLine {
        num,
        indent,
        text,
        col: u32::try_from(lead + 1).unwrap_or(u32::MAX),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn line_pieces_split_at_every_kind_of_line_end() {
        let pieces: Vec<&str> = super::line_pieces("a\r\nb\rc\nd").collect();
        assert_eq!(pieces, ["a", "b", "c", "d"]);
        let pieces: Vec<&str> = super::line_pieces("x\n").collect();
        assert_eq!(pieces, ["x", ""]);
        assert_eq!(super::line_pieces("").collect::<Vec<_>>(), [""]);
    }

    use super::*;

    #[test]
    fn splits_and_measures() {
        let lines = split_lines("\u{feff}a\r\n  b  \r\tc\n \t d\n\n");
        let got: Vec<_> = lines
            .iter()
            .map(|l| (l.num, l.indent, l.text, l.col))
            .collect();
        assert_eq!(
            got,
            vec![
                (1, 0, "a", 1),
                (2, 2, "b", 3),
                (3, 8, "c", 2),
                (4, 10, "d", 4),
                (5, 0, "", 1),
            ]
        );
    }

    #[test]
    fn every_kind_of_trailing_white_space_is_removed() {
        for end in [
            "\u{b}",
            "\u{c}",
            "\t",
            " ",
            "\u{a0}",
            "\u{3000}",
            " \u{b}\u{b}",
        ] {
            let input = format!("a{end}\nb");
            let lines = split_lines(&input);
            assert_eq!(lines[0].text, "a", "{end:?}");
        }
        // Controls that are not white space stay.
        assert_eq!(split_lines("a\u{1}")[0].text, "a\u{1}");
    }

    #[test]
    fn white_space_only_line_is_empty() {
        let lines = split_lines(" \t \u{a0}\n");
        assert_eq!(lines.len(), 1);
        assert!(lines[0].is_empty());
    }

    #[test]
    fn no_final_newline() {
        assert_eq!(split_lines("x").len(), 1);
        assert_eq!(split_lines("").len(), 0);
        assert_eq!(split_lines("x\n").len(), 1);
    }
}
