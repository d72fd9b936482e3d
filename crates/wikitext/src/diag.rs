//! Diagnostics: what the parser and the writer have to say about their input.
//!
//! Parsing and writing never fail; they return their result together with a
//! list of [`Diagnostic`]s. The library never prints them.

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

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        })
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
    /// Part of the document does not read back the same from the written text.
    NotRoundTrip,
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
            Code::NotRoundTrip => "not-round-trip",
        }
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
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

/// One thing the parser or the writer reports.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Diagnostic {
    /// What it is about.
    pub code: Code,
    /// How much it matters.
    pub severity: Severity,
    /// A lowercase sentence without a final period.
    pub message: String,
    /// Where: in the parsed text for the parser, in the written text (or the
    /// node's own position) for the writer.
    pub span: Span,
}

impl Diagnostic {
    /// A diagnostic.
    pub fn new(
        code: Code,
        severity: Severity,
        message: impl Into<String>,
        span: Span,
    ) -> Diagnostic {
        Diagnostic {
            code,
            severity,
            message: message.into(),
            span,
        }
    }
}

impl fmt::Display for Diagnostic {
    /// `line:column: severity[code]: message`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {}[{}]: {}",
            self.span, self.severity, self.code, self.message
        )
    }
}
