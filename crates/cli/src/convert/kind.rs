//! Inputs that do not fit their command: an HTML page given to `to-html`
//! (which reads the text format), a text in the format or a WARC file
//! given to `to-text` (which reads HTML). Each is refused before any
//! conversion, with the command that fits it: converting it anyway gives
//! an output nobody wants (an empty XHTML page with a warning per line, or
//! the text escaped as if it were a page's words) and exit status 0.

use super::{Failure, Job};

/// How many leading bytes MIME Sniffing looks at ("resource header").
const RESOURCE_HEADER: usize = 1445;

/// MIME Sniffing, "rules for identifying an unknown MIME type", the
/// `text/html` rows: after any leading white space bytes, one of these,
/// ASCII case-insensitively, then a tag-terminating byte (a space or `>`).
const HTML_PATTERNS: &[&[u8]] = &[
    b"<!DOCTYPE HTML",
    b"<HTML",
    b"<HEAD",
    b"<SCRIPT",
    b"<IFRAME",
    b"<H1",
    b"<DIV",
    b"<FONT",
    b"<TABLE",
    b"<A",
    b"<STYLE",
    b"<TITLE",
    b"<B",
    b"<BODY",
    b"<BR",
    b"<P",
    b"<!--",
];

/// MIME Sniffing's white space bytes, which may come before a pattern.
fn is_ws(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | 0x0C | b'\r' | b' ')
}

/// The `text/html` pattern the bytes start with (after white space), as
/// MIME Sniffing matches it; also after an XML declaration (`<?xml ...?>`,
/// which MIME Sniffing calls `text/xml`), so that an XHTML page counts.
fn html_pattern(bytes: &[u8]) -> Option<&'static [u8]> {
    let header = bytes.get(..RESOURCE_HEADER).unwrap_or(bytes);
    let header = header.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(header);
    let start = header.iter().position(|&b| !is_ws(b))?;
    let mut rest = &header[start..];
    if rest.len() >= 5 && rest[..5].eq_ignore_ascii_case(b"<?xml") {
        let end = rest.windows(2).position(|w| w == b"?>")?;
        rest = &rest[end + 2..];
        rest = &rest[rest.iter().position(|&b| !is_ws(b))?..];
    }
    HTML_PATTERNS.iter().copied().find(|pattern| {
        rest.len() > pattern.len()
            && rest[..pattern.len()].eq_ignore_ascii_case(pattern)
            && matches!(rest[pattern.len()], b' ' | b'>')
    })
}

/// Refuses an input that does not fit `job` (see the module's comment).
pub(super) fn refuse(job: &Job, bytes: &[u8]) -> Result<(), Failure> {
    match job {
        Job::ToHtml { onto: None, .. } => {
            let text = String::from_utf8_lossy(bytes.get(..RESOURCE_HEADER).unwrap_or(bytes));
            if wikitext::grammar::opens_with_header_line(&text) {
                return Ok(());
            }
            if let Some(pattern) = html_pattern(bytes) {
                let tag = String::from_utf8_lossy(pattern).to_ascii_lowercase();
                return Err(format!(
                    "this is HTML (it starts with {tag}), and to-html reads the text format: \
                     `pagetext to-text` turns a page into text (and `to-html --onto PAGE` \
                     writes an edited text back onto it)"
                ));
            }
            Ok(())
        }
        Job::ToText(_) => {
            if bytes.starts_with(b"WARC/") {
                return Err(
                    "a WARC file, not HTML: `pagetext to-text --warc FILE` converts \
                            the pages it holds"
                        .to_string(),
                );
            }
            let text = String::from_utf8_lossy(bytes.get(..RESOURCE_HEADER).unwrap_or(bytes));
            if wikitext::grammar::opens_with_header_line(&text) {
                let first = text
                    .lines()
                    .next()
                    .unwrap_or("")
                    .trim_start_matches('\u{feff}');
                return Err(format!(
                    "this is a text in the pagetext format (its first line is `{first}`), and \
                     to-text reads HTML: `pagetext to-html` turns it into XHTML, `pagetext fmt` \
                     rewrites it in canonical form"
                ));
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_is_told_by_mime_sniffing_patterns() {
        assert_eq!(
            html_pattern(b"<!doctype html><p>x"),
            Some(&b"<!DOCTYPE HTML"[..])
        );
        assert_eq!(html_pattern(b"\r\n  <HTML lang=en>"), Some(&b"<HTML"[..]));
        assert_eq!(html_pattern(b"\xEF\xBB\xBF<p>x</p>"), Some(&b"<P"[..]));
        assert_eq!(html_pattern(b"<!-- a comment -->"), Some(&b"<!--"[..]));
        // An XHTML page after its XML declaration.
        assert_eq!(
            html_pattern(b"<?xml version=\"1.0\"?>\n<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0 Strict//EN\">"),
            Some(&b"<!DOCTYPE HTML"[..])
        );
        // A pattern needs a space or `>` after it: `<pre>` is not `<p`, and
        // `<bogus>` not `<b`; text in the format is not HTML.
        assert_eq!(html_pattern(b"<pre>x</pre>"), None);
        assert_eq!(html_pattern(b"<bogus>"), None);
        assert_eq!(html_pattern(b"= Title =\n\nSome <b>words</b>"), None);
        assert_eq!(html_pattern(b"<html"), None);
    }
}
