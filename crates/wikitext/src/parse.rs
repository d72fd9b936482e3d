//! The parser's entry point: [`parse`] builds a document from the pull
//! parser's events (the header is read by `header.rs`, the body by the
//! block and inline passes).

use serde::{Deserialize, Serialize};

use crate::diag::Diagnostic;
use crate::model::Document;
use crate::pull::Parser;

/// What [`parse`] returns: the document and what was noticed on the way.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Parsed {
    /// The document.
    pub document: Document,
    /// Warnings and notes, in source order (header first).
    pub diagnostics: Vec<Diagnostic>,
}

/// Parses the textual representation of an HTML document. Never fails: every
/// input gives a document; what was ignored or read in a surprising way is
/// reported in [`Parsed::diagnostics`]. Time and memory are linear in the
/// length of the input.
///
/// ```
/// let parsed = wikitext::parse("#Title Hello\n\nSome _text_.\n");
/// assert_eq!(parsed.document.meta.title.as_deref(), Some("Hello"));
/// assert!(parsed.diagnostics.is_empty());
/// ```
pub fn parse(input: &str) -> Parsed {
    let mut parser = Parser::new(input);
    let (meta, diagnostics) = parser.take_parts();
    Parsed {
        document: Document::from_events(meta, parser),
        diagnostics,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Metadata;

    #[test]
    fn no_header() {
        let parsed = parse("\nText.\n");
        assert_eq!(parsed.document.meta, Metadata::default());
        assert_eq!(parsed.document.body.len(), 1);
        assert!(parsed.diagnostics.is_empty());
        assert_eq!(parse("").document, Document::default());
    }
}
