//! Everything worth saying about a text, in one call: what `pagetext
//! check` reports on a text file, the editor shows as you type, and the
//! Python package's `check` returns.

use crate::diag::Diagnostic;

/// The diagnostics of `text`: the parser's (header and structure),
/// same-document links without their anchor (seed 002 §2.4.8 step 3), near
/// misses ([`crate::hints`]), and what writing the text back in canonical
/// form would change or drop (the writer's, with the default policy), by
/// position (line, then column; in that order within a place).
///
/// ```
/// let found = wikitext::check("\n= Heading ==\n\n[#nowhere||a link]\n");
/// let codes: Vec<_> = found.iter().map(|d| (d.code.as_str(), d.span.line)).collect();
/// assert_eq!(codes, [("heading-markers-uneven", 2), ("dangling-reference", 4)]);
/// assert!(wikitext::check("\n= Heading =\n").is_empty());
/// ```
pub fn check(text: &str) -> Vec<Diagnostic> {
    let parsed = crate::parse::parse(text);
    let mut found = parsed.diagnostics;
    found.extend(crate::refs::reference_diagnostics(&parsed.document));
    found.extend(crate::hints::hints(text));
    found.extend(crate::write::write_owned(parsed.document).diagnostics);
    found.sort_by_key(|d| (d.span.line, d.span.column));
    found
}
