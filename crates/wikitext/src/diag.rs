//! Diagnostics: what the parser and the writer have to say about their input.
//!
//! Parsing and writing never fail; they return their result together with a
//! list of [`Diagnostic`]s. The library never prints them.
//!
//! [`Diagnostic`] is generic over its code so that other crates report in the
//! same shape with codes of their own (`htmlio`'s ingestion diagnostics are
//! `Diagnostic<htmlio::ingest::Code>`): a code type implements
//! [`DiagnosticCode`], which gives its stable name and says how precise its
//! spans are ([`Precision`]).

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::model::Pos;

/// How much a diagnostic matters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// Content is lost or changed: the written text does not read back as the
    /// document that was written.
    Error,
    /// Input was ignored or read in a way its author probably did not intend.
    Warning,
    /// A harmless normalisation (white space, an empty element dropped).
    Info,
}

impl Severity {
    /// Its stable lowercase name: `error`, `warning` or `info`.
    ///
    /// ```
    /// assert_eq!(wikitext::Severity::Warning.as_str(), "warning");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a diagnostic is about. Each code has a stable kebab-case name
/// ([`Code::as_str`]) for tools and tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Code {
    // ---- parser: the header ----
    /// A header line whose first word is not `#Title`, `#Lang`, `#Meta:...`
    /// or `#Link:...`; it is ignored.
    UnknownHeaderLine,
    /// A known header line whose rest is invalid (no words, a bad language
    /// code, a `#Meta:` without a name, a `#Link:` without an href); it is ignored.
    InvalidHeaderLine,
    /// No header line was valid: the document probably lacks the empty line
    /// that must precede the body, and its first lines were read as a header
    /// and dropped.
    HeaderSwallowedText,
    /// A second `#Title` or `#Lang` line replaced the first.
    DuplicateHeaderLine,
    // ---- parser: the body ----
    /// Blocks nest deeper than [`crate::MAX_DEPTH`]; deeper lines were read
    /// without opening new containers.
    NestingTooDeep,
    /// A compact definition term ended in `::`, which the seed says it cannot;
    /// the colons were kept as part of the term.
    CompactTermWithColons,
    // ---- writer ----
    /// White space that the format cannot hold was normalised (leading or
    /// trailing white space of a line or of an inline element, a run of three
    /// or more spaces).
    WhitespaceNormalized,
    /// An element with no content was dropped.
    EmptyElementDropped,
    /// A document built by hand broke one of the model's invariants (see
    /// [`crate::model`]); it was normalised.
    ModelNormalized,
    /// Header data that the format cannot hold (white space in a name or an
    /// href, an empty title...).
    UnrepresentableHeader,
    /// A link with neither URL nor fragment, or with characters the format
    /// forbids in them; it was written as its text.
    UnrepresentableLink,
    /// An image the text cannot hold where it is (in pure seed text, in
    /// preformatted text, inside another image's alternative text, or
    /// without a source); its alternative text was kept.
    UnrepresentableImage,
    /// A forced line break, superscript or subscript the text cannot hold
    /// where it is (in pure seed text, in preformatted text or a heading,
    /// or a script whose text has unbalanced braces): a break became a
    /// line division (or a space), a script its content.
    UnrepresentableMarkup,
    /// A figure the text cannot hold (in pure seed text, or when its
    /// caption opens with a list, preformatted text or a blockquote, which
    /// cannot stand right under the image): its image and its caption were
    /// written as blocks of their own.
    UnrepresentableFigure,
    /// Part of the document does not read back the same from the written text.
    NotRoundTrip,
    /// A space was put in where inline markup touched a letter or digit
    /// (seed 000, inline rule 3), so that the markup reads back.
    SpaceAdded,
    /// Inline markup in preformatted text that touched a letter or digit
    /// took in the rest of the word (no space may go in there).
    MarkupWidened,
    // ---- links ----
    /// A same-document link `[#x||…]` with no anchor `x` in the document
    /// (seed 002 §2.4.8 step 3).
    DanglingReference,
    // ---- near misses ([`crate::hints`]) ----
    /// A line like a heading whose runs of `=` differ in length
    /// (`= Title ==`); it reads as text.
    HeadingMarkersUneven,
    /// The shape of a link, `[URL|Fragment|text]`, whose URL or fragment
    /// holds white space or one of `{}[|]<>"`; it reads as text.
    LinkNotRecognized,
    /// A line of text right above a term on its own line: without `::` on
    /// the last line of a longer term, only that last line is the term.
    TermWithoutColons,
    /// Three spaces in a row inside text made a line a compact definition
    /// item, splitting the text around it.
    CompactItemInText,
    /// A pair of `_`, `*` or `'` in a word that is no markup only because a
    /// letter or digit stands on one side of it (seed 000 inline rule 3).
    MarkupBlockedBySide,
    /// In a document that declares `#Extend table`, a line of text that
    /// starts like a table line: a row whose last `|` is missing, or a
    /// cell's mark without the `|-` that starts a table of the block form.
    TableNotRecognized,
    /// What a Markdown writer types (`# Title`, `- item` at the start of a
    /// line, `**strong**`, `[text](url)`, `` `code` ``, a fence, a table
    /// without `#Extend table`), which reads as text here.
    MarkdownHabit,
}

impl Code {
    /// The stable kebab-case name of the code.
    pub fn as_str(&self) -> &'static str {
        match self {
            Code::UnknownHeaderLine => "unknown-header-line",
            Code::InvalidHeaderLine => "invalid-header-line",
            Code::HeaderSwallowedText => "header-swallowed-text",
            Code::DuplicateHeaderLine => "duplicate-header-line",
            Code::NestingTooDeep => "nesting-too-deep",
            Code::CompactTermWithColons => "compact-term-with-colons",
            Code::WhitespaceNormalized => "whitespace-normalized",
            Code::EmptyElementDropped => "empty-element-dropped",
            Code::ModelNormalized => "model-normalized",
            Code::UnrepresentableHeader => "unrepresentable-header",
            Code::UnrepresentableLink => "unrepresentable-link",
            Code::UnrepresentableImage => "unrepresentable-image",
            Code::UnrepresentableMarkup => "unrepresentable-markup",
            Code::UnrepresentableFigure => "unrepresentable-figure",
            Code::NotRoundTrip => "not-round-trip",
            Code::SpaceAdded => "space-added",
            Code::MarkupWidened => "markup-widened",
            Code::DanglingReference => "dangling-reference",
            Code::HeadingMarkersUneven => "heading-markers-uneven",
            Code::LinkNotRecognized => "link-not-recognized",
            Code::TermWithoutColons => "term-without-colons",
            Code::CompactItemInText => "compact-item-in-text",
            Code::MarkupBlockedBySide => "markup-blocked-by-side",
            Code::TableNotRecognized => "table-not-recognized",
            Code::MarkdownHabit => "markdown-habit",
        }
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How much of a [`Span`] the diagnostics of one kind of code know.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Precision {
    /// Lines and columns: the span is a range of characters (the text
    /// format's parser and writer). A span known only by its line (a node
    /// read from HTML) has column 0.
    Column,
    /// Lines, and columns only where known (ingestion of HTML, where
    /// html5ever gives the line of each element: a diagnostic about an
    /// element has its start tag's columns, found in the page's text; the
    /// others have column 0).
    Line,
}

/// A code a [`Diagnostic`] can carry: a closed set of kinds with stable
/// kebab-case names.
pub trait DiagnosticCode {
    /// How much of a span diagnostics with these codes know; the
    /// [`Display`](fmt::Display) of a [`Diagnostic`] shows that much.
    const PRECISION: Precision;

    /// The stable kebab-case name of the code.
    fn as_str(&self) -> &'static str;
}

impl DiagnosticCode for Code {
    const PRECISION: Precision = Precision::Column;

    fn as_str(&self) -> &'static str {
        Code::as_str(self)
    }
}

/// A range of source text: 1-based lines and columns (columns in characters),
/// the end exclusive. Zero means unknown (for documents built by hand).
/// Unlike [`Pos`], spans compare by value.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Span {
    /// First line.
    pub line: u32,
    /// First column.
    pub column: u32,
    /// Last line.
    pub end_line: u32,
    /// Column just after the last character.
    pub end_column: u32,
}

impl Span {
    /// A span from `line:column` to `end_line:end_column`.
    pub const fn new(line: u32, column: u32, end_line: u32, end_column: u32) -> Span {
        Span {
            line,
            column,
            end_line,
            end_column,
        }
    }

    /// An empty span at a node's position.
    pub const fn at(pos: Pos) -> Span {
        Span::new(pos.line, pos.column, pos.line, pos.column)
    }

    /// A span that knows only its line (the columns are 0, unknown).
    pub const fn on_line(line: u32) -> Span {
        Span::new(line, 0, line, 0)
    }
}

impl fmt::Display for Span {
    /// `line:column`, or `line:column-end_column` / `line:column-end_line:end_column`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)?;
        if self.end_line == self.line && self.end_column > self.column {
            write!(f, "-{}", self.end_column)?;
        } else if self.end_line > self.line {
            write!(f, "-{}:{}", self.end_line, self.end_column)?;
        }
        Ok(())
    }
}

/// One thing the parser or the writer reports, or (with another code type)
/// another crate: `htmlio`'s ingestion reports `Diagnostic<htmlio::ingest::Code>`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Diagnostic<C = Code> {
    /// What it is about.
    pub code: C,
    /// How much it matters.
    pub severity: Severity,
    /// A lowercase sentence without a final period.
    pub message: String,
    /// Where: in the parsed text for the parser, in the written text (or the
    /// node's own position) for the writer, the source line for ingestion
    /// (see [`DiagnosticCode::PRECISION`]).
    pub span: Span,
}

impl<C> Diagnostic<C> {
    /// A diagnostic.
    pub fn new(code: C, severity: Severity, message: impl Into<String>, span: Span) -> Self {
        Diagnostic {
            code,
            severity,
            message: message.into(),
            span,
        }
    }

    /// A diagnostic that knows only its line ([`Span::on_line`]; 0 when
    /// unknown).
    pub fn at_line(code: C, severity: Severity, line: u32, message: impl Into<String>) -> Self {
        Diagnostic::new(code, severity, message, Span::on_line(line))
    }

    /// The line it is about, when known (line 0 means unknown).
    ///
    /// ```
    /// use wikitext::{Code, Diagnostic, Severity};
    /// let d = Diagnostic::at_line(Code::NotRoundTrip, Severity::Error, 7, "x");
    /// assert_eq!(d.line(), Some(7));
    /// assert_eq!(Diagnostic::at_line(Code::NotRoundTrip, Severity::Error, 0, "x").line(), None);
    /// ```
    pub fn line(&self) -> Option<u32> {
        (self.span.line > 0).then_some(self.span.line)
    }
}

impl<C: DiagnosticCode> fmt::Display for Diagnostic<C> {
    /// `line:column: severity[code]: message` ([`Span`]'s form of the
    /// place), or `line: severity[code]: message` for codes of
    /// [`Precision::Line`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match C::PRECISION {
            Precision::Column => write!(f, "{}", self.span)?,
            Precision::Line if self.span.column > 0 => write!(f, "{}", self.span)?,
            Precision::Line => write!(f, "{}", self.span.line)?,
        }
        write!(
            f,
            ": {}[{}]: {}",
            self.severity,
            self.code.as_str(),
            self.message
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A code type of another crate, known by lines only.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    struct LineCode;

    impl DiagnosticCode for LineCode {
        const PRECISION: Precision = Precision::Line;

        fn as_str(&self) -> &'static str {
            "line-code"
        }
    }

    #[test]
    fn display_shows_as_much_of_the_span_as_the_code_knows() {
        let d = Diagnostic::new(
            Code::NotRoundTrip,
            Severity::Warning,
            "m",
            Span::new(2, 3, 2, 7),
        );
        assert_eq!(d.to_string(), "2:3-7: warning[not-round-trip]: m");
        let d = Diagnostic::at_line(Code::NotRoundTrip, Severity::Warning, 47, "m");
        assert_eq!(d.to_string(), "47:0: warning[not-round-trip]: m");
        let d = Diagnostic::at_line(LineCode, Severity::Info, 5, "m");
        assert_eq!(d.span, Span::on_line(5));
        assert_eq!(d.to_string(), "5: info[line-code]: m");
    }
}
