//! Diagnostics as the CLI shows them: a compiler-style header
//! `file:line:column: severity[code]: message`, then the source line with a
//! caret under the column (drawn by annotate-snippets).
//!
//! The libraries all report `wikitext::Diagnostic`s, each crate with codes
//! of its own; [`from_library`] maps every one of them into a [`Diag`],
//! which is also what `--json` serialises.

use std::collections::HashMap;

use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};
use serde::Serialize;
use wikitext::{DiagnosticCode, Precision};

/// How text for the terminal is styled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Color {
    /// No escape sequences.
    Plain,
    /// ANSI colours and bold.
    Ansi,
}

/// How bad a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Severity {
    /// Shown only with `--verbose`.
    Note,
    /// A reported loss or oddity; an error under `--strict`.
    Warning,
    /// The input failed.
    Error,
}

impl Severity {
    fn name(self) -> &'static str {
        match self {
            Severity::Note => "note",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// One diagnostic about one input.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct Diag {
    /// How bad it is.
    pub(crate) severity: Severity,
    /// A stable kebab-case code (`invalid-utf8`, `unsafe-link`...).
    pub(crate) code: String,
    /// What happened, in lower case.
    pub(crate) message: String,
    /// 1-based line in the source, when known.
    pub(crate) line: Option<usize>,
    /// 1-based column in characters, when known.
    pub(crate) column: Option<usize>,
    /// Where the range ends (exclusive column), when known and on the same
    /// line: the caret underlines the whole range.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) end_column: Option<usize>,
}

impl Diag {
    /// A diagnostic without a position.
    pub(crate) fn new(severity: Severity, code: &str, message: impl Into<String>) -> Diag {
        Diag {
            severity,
            code: code.to_string(),
            message: message.into(),
            line: None,
            column: None,
            end_column: None,
        }
    }

    /// The same diagnostic at `line:column` (1-based).
    pub(crate) fn at(mut self, line: usize, column: usize) -> Diag {
        self.line = Some(line);
        self.column = Some(column);
        self
    }

    /// The same diagnostic on a whole line (no column known).
    pub(crate) fn at_line(mut self, line: usize) -> Diag {
        self.line = Some(line);
        self.column = None;
        self
    }

    /// The same diagnostic underlining up to `end_column` (exclusive) on its line.
    pub(crate) fn until_column(mut self, end_column: usize) -> Diag {
        if self.column.is_some_and(|c| end_column > c) {
            self.end_column = Some(end_column);
        }
        self
    }
}

/// ANSI styles for the header (the snippet is styled by annotate-snippets).
const BOLD: &str = "\x1b[1m";
const RESET: &str = "\x1b[0m";

fn style(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "\x1b[1;91m",
        Severity::Warning => "\x1b[1;93m",
        Severity::Note => "\x1b[1;92m",
    }
}

/// A source text with the start of each line found once, so that showing
/// the line of each of many diagnostics costs the length of that line, not
/// of the text before it.
pub(crate) struct Lines<'a> {
    text: &'a str,
    /// Byte offset of the start of each line; line n (1-based) starts at `starts[n - 1]`.
    starts: Vec<usize>,
}

impl<'a> Lines<'a> {
    pub(crate) fn new(text: &'a str) -> Lines<'a> {
        let mut starts = vec![0];
        // `match_indices` of a `char` searches with memchr: a page of
        // diagnostics is indexed at memory speed, not byte by byte.
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Lines { text, starts }
    }

    /// Line `n` (1-based) without its line ending (LF or CR LF), as
    /// `str::lines` gives it.
    fn line(&self, n: usize) -> Option<&'a str> {
        let start = *self.starts.get(n.checked_sub(1)?)?;
        if start >= self.text.len() {
            return None;
        }
        let end = self
            .starts
            .get(n)
            .map_or(self.text.len(), |&next| next.saturating_sub(1));
        let line = self.text.get(start..end)?;
        Some(line.strip_suffix('\r').unwrap_or(line))
    }
}

/// Renders one diagnostic: the header line and, when the source line is
/// known, the line with a caret. Ends with a newline.
pub(crate) fn render(path: &str, diag: &Diag, source: Option<&Lines<'_>>, color: Color) -> String {
    let location = match (diag.line, diag.column) {
        (Some(line), Some(column)) => format!("{path}:{line}:{column}"),
        (Some(line), None) => format!("{path}:{line}"),
        _ => path.to_string(),
    };
    let kind = format!("{}[{}]", diag.severity.name(), diag.code);
    let message = annotate_snippets::normalize_untrusted_str(&diag.message);
    let mut out = match color {
        Color::Ansi => format!(
            "{BOLD}{location}:{RESET} {}{kind}:{RESET} {BOLD}{message}{RESET}\n",
            style(diag.severity)
        ),
        Color::Plain => format!("{location}: {kind}: {message}\n"),
    };
    if let (Some(line), Some(source)) = (diag.line, source)
        && let Some(snippet) = snippet(line, diag, source, color)
    {
        out.push_str(&snippet);
        out.push('\n');
    }
    out
}

/// How many diagnostics of one kind (severity and code) an input shows in
/// full without `--verbose`; the rest are counted on one line.
pub(crate) const SHOWN_PER_KIND: usize = 3;

/// Renders the diagnostics of one input, in order. With `all`, each in full;
/// without, only the first [`SHOWN_PER_KIND`] of each kind, the last of them
/// followed by one line counting the others of its kind, which are not
/// rendered at all (a page can have thousands of one kind, and their source
/// lines are the costly part of printing).
pub(crate) fn render_all(
    path: &str,
    diags: &[&Diag],
    source: Option<&Lines<'_>>,
    color: Color,
    all: bool,
) -> String {
    let mut out = String::new();
    if all {
        for diag in diags {
            out.push_str(&render(path, diag, source, color));
        }
        return out;
    }
    // Per kind: how many there are, and how many have been seen so far.
    let mut kinds: HashMap<(Severity, &str), (usize, usize)> = HashMap::new();
    for diag in diags {
        kinds
            .entry((diag.severity, diag.code.as_str()))
            .or_default()
            .0 += 1;
    }
    for diag in diags {
        let Some((total, seen)) = kinds.get_mut(&(diag.severity, diag.code.as_str())) else {
            continue;
        };
        *seen += 1;
        if *seen > SHOWN_PER_KIND {
            continue;
        }
        out.push_str(&render(path, diag, source, color));
        if *seen == SHOWN_PER_KIND && *total > SHOWN_PER_KIND {
            out.push_str(&more_like_this(path, diag, *total - SHOWN_PER_KIND, color));
        }
    }
    out
}

/// `path: … and 1,363 more like this (warning[code]); -v lists them all`.
fn more_like_this(path: &str, diag: &Diag, more: usize, color: Color) -> String {
    let kind = format!("{}[{}]", diag.severity.name(), diag.code);
    let more = thousands(more);
    match color {
        Color::Ansi => format!(
            "{BOLD}{path}:{RESET} … and {more} more like this ({}{kind}{RESET}); \
             -v lists them all\n",
            style(diag.severity)
        ),
        Color::Plain => {
            format!("{path}: … and {more} more like this ({kind}); -v lists them all\n")
        }
    }
}

/// `n` with a comma between groups of three digits: `1,363`.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// How many characters of a source line are shown at most: minified pages
/// have lines of megabytes.
const WINDOW: usize = 100;

/// The source line of `diag` with carets under its range: from its column
/// to its end column, one character without an end, the whole line (from
/// its first non-blank character) without a column. Long lines are cut to a
/// window around the range, marked with `…`.
fn snippet(line: usize, diag: &Diag, source: &Lines<'_>, color: Color) -> Option<String> {
    let text = source.line(line)?;
    let chars: Vec<char> = text.chars().collect();
    // The range in characters, 0-based, end exclusive.
    let (start, end) = match diag.column {
        Some(column) => {
            let start = column.saturating_sub(1).min(chars.len());
            let end = diag
                .end_column
                .map_or(start + 1, |e| e.saturating_sub(1))
                .max(start + 1);
            (start, end.min(chars.len().max(start)))
        }
        None => {
            let first = chars.iter().position(|c| !c.is_whitespace()).unwrap_or(0);
            (first, chars.len())
        }
    };
    // The window shown: starts a little before the range, WINDOW long.
    let from = start.saturating_sub(WINDOW / 4).min(chars.len());
    let to = (from + WINDOW).min(chars.len());
    let mut shown = String::new();
    if from > 0 {
        shown.push('…');
    }
    let lead = shown.chars().count();
    shown.extend(chars.get(from..to).unwrap_or(&[]).iter());
    if to < chars.len() {
        shown.push('…');
    }
    // Byte offsets of the range inside `shown`.
    let byte_at = |char_index: usize| -> usize {
        shown
            .char_indices()
            .nth(char_index)
            .map_or(shown.len(), |(i, _)| i)
    };
    let span_start = byte_at(lead + start.saturating_sub(from));
    let span_end = byte_at(lead + end.min(to).saturating_sub(from)).max(span_start);
    let span_end = if span_end == span_start {
        // Past the end of the line: the caret sits just after it.
        span_start
    } else {
        span_end
    };
    let level = match diag.severity {
        Severity::Error => Level::ERROR,
        Severity::Warning => Level::WARNING,
        Severity::Note => Level::NOTE,
    };
    let report = [Group::with_level(level).element(
        Snippet::source(shown.as_str())
            .line_start(line)
            .fold(false)
            .annotation(AnnotationKind::Primary.span(span_start..span_end)),
    )];
    let renderer = match color {
        Color::Ansi => Renderer::styled(),
        Color::Plain => Renderer::plain(),
    };
    Some(renderer.render(&report))
}

/// The 1-based line and character column of a byte offset in `text`.
pub(crate) fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = text.get(..offset).unwrap_or(text);
    let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before
        .get(line_start..)
        .map_or(1, |l| l.chars().count() + 1);
    (line, column)
}

// ---- library diagnostics in the CLI's terms --------------------------

/// Library severities in the CLI's terms: what the libraries call an error
/// is a reported loss (the output is still written), a warning unless
/// `--strict`; their informational notes are notes.
fn severity(severity: wikitext::Severity) -> Severity {
    match severity {
        wikitext::Severity::Error | wikitext::Severity::Warning => Severity::Warning,
        wikitext::Severity::Info => Severity::Note,
    }
}

fn position(diag: Diag, line: u32, column: u32) -> Diag {
    match (usize::try_from(line), usize::try_from(column)) {
        (Ok(line), Ok(column)) if line > 0 => diag.at(line, column.max(1)),
        _ => diag,
    }
}

/// A library diagnostic in the CLI's terms: the text format's parser and
/// writer (`wikitext::Diagnostic`), ingestion (`htmlio::ingest::Diagnostic`)
/// and emission (`htmlio::emit::Diagnostic`) alike. Spans of [`Precision::Column`] codes are placed at their line and
/// column (column 1 when only the line is known) and underlined to their end
/// on the same line; spans of [`Precision::Line`] codes too when ingestion
/// found their columns (an element's start tag), else they mark their
/// whole line.
pub(crate) fn from_library<C: DiagnosticCode>(d: &wikitext::Diagnostic<C>) -> Diag {
    let diag = Diag::new(severity(d.severity), d.code.as_str(), d.message.clone());
    match C::PRECISION {
        // Ingestion's diagnostics have columns where it found them (an
        // element's start tag).
        Precision::Column => at_columns(diag, &d.span),
        Precision::Line if d.span.column > 0 => at_columns(diag, &d.span),
        Precision::Line => match usize::try_from(d.span.line) {
            Ok(line) if line > 0 => diag.at_line(line),
            _ => diag,
        },
    }
}

/// `diag` at the span's line and columns (a node known by its line alone,
/// column 0, at column 1).
fn at_columns(diag: Diag, span: &wikitext::Span) -> Diag {
    let diag = position(diag, span.line, span.column);
    if span.end_line == span.line {
        diag.until_column(usize::try_from(span.end_column).unwrap_or(0))
    } else {
        diag
    }
}

/// Orders diagnostics by line (stable: those without a line first, then
/// the libraries' own order within a line).
pub(crate) fn sort_by_position(diagnostics: &mut [Diag]) {
    diagnostics.sort_by_key(|d| (d.line.unwrap_or(0), d.column.unwrap_or(0)));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_and_caret() {
        let source = "#Title A\n#Lnag en\n\nText\n";
        let diag = Diag::new(
            Severity::Warning,
            "unknown-metadata",
            "unknown metadata line ignored",
        )
        .at(2, 1);
        let out = render("page.txt", &diag, Some(&Lines::new(source)), Color::Plain);
        insta::assert_snapshot!(out, @r"
        page.txt:2:1: warning[unknown-metadata]: unknown metadata line ignored
          |
        2 | #Lnag en
          | ^
        ");
    }

    #[test]
    fn columns_count_characters_and_tabs_are_expanded() {
        let source = "\tcafé _x_ y\n";
        let diag = Diag::new(Severity::Error, "x", "here").at(1, 7);
        let out = render("a.txt", &diag, Some(&Lines::new(source)), Color::Plain);
        insta::assert_snapshot!(out, @r"
        a.txt:1:7: error[x]: here
          |
        1 |     café _x_ y
          |          ^
        ");
    }

    #[test]
    fn without_position_or_source_only_the_header() {
        let diag = Diag::new(Severity::Note, "encoding", "read as windows-1252");
        assert_eq!(
            render("a.html", &diag, Some(&Lines::new("x")), Color::Plain),
            "a.html: note[encoding]: read as windows-1252\n"
        );
        let diag = diag.at(9, 1);
        assert_eq!(
            render("a.html", &diag, Some(&Lines::new("x")), Color::Plain),
            "a.html:9:1: note[encoding]: read as windows-1252\n"
        );
    }

    #[test]
    fn a_range_is_underlined() {
        let diag = Diag::new(Severity::Warning, "w", "m")
            .at(1, 3)
            .until_column(6);
        let out = render("a", &diag, Some(&Lines::new("ab_cd_ef")), Color::Plain);
        assert!(out.ends_with("1 | ab_cd_ef\n  |   ^^^\n"), "{out}");
    }

    #[test]
    fn a_column_past_the_end_points_after_the_line() {
        let diag = Diag::new(Severity::Warning, "w", "m").at(1, 99);
        let out = render("a", &diag, Some(&Lines::new("abc")), Color::Plain);
        assert!(out.ends_with("1 | abc\n  |    ^\n"), "{out}");
    }

    #[test]
    fn a_line_without_column_is_underlined_from_its_first_character() {
        let diag = Diag::new(Severity::Warning, "w", "m").at_line(2);
        let out = render(
            "a.html",
            &diag,
            Some(&Lines::new("x\n  <td>1</td>\n")),
            Color::Plain,
        );
        assert_eq!(
            out,
            "a.html:2: warning[w]: m\n  |\n2 |   <td>1</td>\n  |   ^^^^^^^^^^\n"
        );
    }

    #[test]
    fn long_lines_are_cut_to_a_window() {
        let line: String = "abcdefghij".repeat(100);
        let diag = Diag::new(Severity::Warning, "w", "m")
            .at(1, 500)
            .until_column(503);
        let out = render("a", &diag, Some(&Lines::new(&line)), Color::Plain);
        let shown = out.lines().nth(2).unwrap();
        assert!(shown.starts_with("1 | …"), "{shown}");
        assert!(shown.ends_with('…'), "{shown}");
        assert!(shown.chars().count() < 120, "{shown}");
        let carets = out.lines().nth(3).unwrap();
        assert!(carets.ends_with("^^^"), "{carets}");
        // The carets sit under characters 500..503 (1-based), i.e. "jab".
        let offset = carets.chars().position(|c| c == '^').unwrap();
        let under: String = shown.chars().skip(offset).take(3).collect();
        assert_eq!(under, "jab", "{out}");
    }

    #[test]
    fn color_wraps_the_header() {
        let diag = Diag::new(Severity::Error, "e", "m");
        let out = render("a", &diag, None, Color::Ansi);
        assert!(
            out.starts_with("\x1b[1ma:\x1b[0m \x1b[1;91merror[e]:"),
            "{out:?}"
        );
    }

    #[test]
    fn thousands_are_separated() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(thousands(1_363), "1,363");
        assert_eq!(thousands(123_456_789), "123,456,789");
    }

    #[test]
    fn many_of_one_kind_are_counted_not_shown() {
        let source = "a\nb\nc\nd\ne\nf\n";
        let lines = Lines::new(source);
        let w = |line| Diag::new(Severity::Warning, "w", "m").at(line, 1);
        let other = Diag::new(Severity::Warning, "other", "o").at(2, 1);
        let note = Diag::new(Severity::Note, "w", "n").at(6, 1);
        let (d1, d3, d4, d5, d6) = (w(1), w(3), w(4), w(5), w(6));
        let diags = [&d1, &other, &d3, &d4, &d5, &note, &d6];
        let out = render_all("a", &diags, Some(&lines), Color::Plain, false);
        let headers: Vec<&str> = out.lines().filter(|l| l.starts_with("a:")).collect();
        assert_eq!(
            headers,
            [
                "a:1:1: warning[w]: m",
                "a:2:1: warning[other]: o",
                "a:3:1: warning[w]: m",
                "a:4:1: warning[w]: m",
                "a: … and 2 more like this (warning[w]); -v lists them all",
                "a:6:1: note[w]: n",
            ],
            "{out}"
        );
        // The skipped ones are not rendered: their lines do not appear.
        assert!(!out.contains("5 | e"), "{out}");
        let all = render_all("a", &diags, Some(&lines), Color::Plain, true);
        assert_eq!(all.lines().filter(|l| l.starts_with("a:")).count(), 7);
        assert!(!all.contains("more like this"), "{all}");
    }

    #[test]
    fn exactly_the_shown_number_needs_no_count() {
        let d = Diag::new(Severity::Warning, "w", "m");
        let out = render_all("a", &[&d, &d, &d], None, Color::Plain, false);
        assert_eq!(out, "a: warning[w]: m\n".repeat(3));
    }

    #[test]
    fn line_and_column_of_an_offset() {
        let text = "ab\ncdé\nf";
        assert_eq!(line_column(text, 0), (1, 1));
        assert_eq!(line_column(text, 3), (2, 1));
        assert_eq!(line_column(text, 7), (2, 4));
        assert_eq!(line_column(text, 99), (3, 2));
    }

    #[test]
    fn lines_index_agrees_with_str_lines() {
        for text in ["", "a", "a\n", "a\n\nb", "a\r\nb\r\n", "\n\n", "x\ry\nz"] {
            let lines = Lines::new(text);
            let expected: Vec<&str> = text.lines().collect();
            let got: Vec<&str> = (1..=expected.len() + 1)
                .map_while(|n| lines.line(n))
                .collect();
            assert_eq!(got, expected, "{text:?}");
            assert_eq!(lines.line(0), None);
        }
    }

    #[test]
    fn library_diagnostics_are_placed_as_precisely_as_their_codes_know() {
        // Ingestion knows lines: the whole line, no column.
        let ingest = htmlio::ingest::Diagnostic::at_line(
            htmlio::ingest::Code::UnsafeLink,
            wikitext::Severity::Warning,
            6,
            "m",
        );
        let d = from_library(&ingest);
        assert_eq!(
            (d.code.as_str(), d.line, d.column),
            ("unsafe-link", Some(6), None)
        );
        // Unless ingestion found the element's start tag there.
        let mut tagged = ingest.clone();
        tagged.span = wikitext::Span::new(6, 4, 6, 12);
        let d = from_library(&tagged);
        assert_eq!(
            (d.line, d.column, d.end_column),
            (Some(6), Some(4), Some(12))
        );
        // The text format knows columns: a node known by its line only is
        // placed at column 1; a range on one line is underlined.
        let written = wikitext::Diagnostic::at_line(
            wikitext::Code::NotRoundTrip,
            wikitext::Severity::Warning,
            6,
            "m",
        );
        let d = from_library(&written);
        assert_eq!((d.line, d.column, d.end_column), (Some(6), Some(1), None));
        let parsed = wikitext::Diagnostic::new(
            wikitext::Code::UnknownHeaderLine,
            wikitext::Severity::Warning,
            "m",
            wikitext::Span::new(1, 1, 1, 20),
        );
        let d = from_library(&parsed);
        assert_eq!(
            (d.line, d.column, d.end_column),
            (Some(1), Some(1), Some(20))
        );
        // Unknown lines are no position at all.
        let d = from_library(&htmlio::ingest::Diagnostic::at_line(
            htmlio::ingest::Code::UnsafeLink,
            wikitext::Severity::Warning,
            0,
            "m",
        ));
        assert_eq!((d.line, d.column), (None, None));
    }
}
