//! What the editor (`pagetext edit`) converts: the preview and diagnostics
//! of text as it is typed, and the save policy (which encoding a page is
//! saved in, what the person is told).

use super::Output;
use super::text::text_round_trip;
use crate::diag::{Diag, Severity, from_library, sort_by_position};

/// What the editor shows for text as it is typed (`pagetext edit`): the
/// XHTML of the preview (as `to-html --tables` writes it, in UTF-8, less
/// the resource hints: see [`RESOURCE_HINTS`]; each block marked with its
/// line, `data-line`, which only the preview carries: see
/// [`save_html`]), and the diagnostics `check`
/// gives (the parser's, dangling references, near misses, the writer's)
/// with emission's, by position.
pub(crate) fn edit_view(text: &str) -> (String, Vec<Diag>) {
    // Blocks marked with their lines, for the preview's scroll in step.
    let options = htmlio::emit::EmitOptions {
        tables: true,
        source_lines: true,
        ..htmlio::emit::EmitOptions::default()
    };
    let mut parser = wikitext::Parser::new(text);
    let (mut meta, _) = parser.take_parts();
    let mut diagnostics: Vec<Diag> = wikitext::check(text).iter().map(from_library).collect();
    meta.links.retain(|link| {
        let hint = link
            .rel
            .iter()
            .find(|rel| RESOURCE_HINTS.iter().any(|h| rel.eq_ignore_ascii_case(h)));
        if let Some(rel) = hint {
            diagnostics.push(Diag {
                severity: Severity::Note,
                code: "preview-hint-left-out".to_owned(),
                message: format!(
                    "the preview leaves out this `#Link:{rel}` line (it would make the browser \
                     connect elsewhere); the page keeps it"
                ),
                line: usize::try_from(link.pos.line).ok().filter(|l| *l > 0),
                column: None,
                end_column: None,
            });
        }
        hint.is_none()
    });
    let emitted = htmlio::emit::emit_events(&meta, parser, &options);
    diagnostics.extend(emitted.diagnostics.iter().map(from_library));
    sort_by_position(&mut diagnostics);
    (emitted.text, diagnostics)
}

/// The `rel` values of `#Link:` lines the preview leaves out: each makes a
/// browser fetch or connect by itself, before and whatever the page's
/// policy says (Chromium opens a `preconnect` even in a sandboxed frame),
/// so the preview would reach another site. Saving keeps them.
pub(crate) const RESOURCE_HINTS: &[&str] = &[
    "preconnect",
    "prefetch",
    "dns-prefetch",
    "prerender",
    "preload",
    "modulepreload",
];

/// A page saved by the editor: the bytes, their encoding, and what the
/// person should be told.
pub(crate) struct Saved {
    /// The file's new contents.
    pub(crate) bytes: Vec<u8>,
    /// Their encoding.
    pub(crate) encoding: &'static encoding_rs::Encoding,
    /// Notices: a charset that could not hold every character, the writer's
    /// losses.
    pub(crate) notices: Vec<String>,
    /// For a text page, the canonical text that was written.
    pub(crate) text: Option<String>,
    /// For an HTML page written onto, what changed in its bytes.
    pub(crate) changes: Vec<htmlio::onto::Change>,
}

/// An HTML page as the editor saves it: XHTML as `to-html --tables --doctype` writes
/// it, in `encoding` (the page's own) when that holds every character, and
/// otherwise in UTF-8 with a notice (a character reference or a replaced
/// control character would not be the character itself).
pub(crate) fn save_html(text: &str, encoding: &'static encoding_rs::Encoding) -> Saved {
    use htmlio::emit::Code;
    let emit = |encoding| {
        let options = htmlio::emit::EmitOptions {
            encoding,
            syntax: htmlio::emit::Syntax::Xhtml,
            tables: true,
            // A saved page never carries the preview's marks.
            source_lines: false,
            // The preview renders in standards mode; so does the page as
            // saved (without a DOCTYPE, browsers would use quirks mode).
            doctype: true,
        };
        htmlio::to_xhtml(text, &options).emitted
    };
    let mut notices = Vec::new();
    let mut emitted = emit(encoding);
    let short = emitted.diagnostics.iter().any(|d| {
        matches!(
            d.code,
            Code::CharacterReferences | Code::UnencodableControl | Code::EncodingSubstituted
        )
    });
    if short && encoding != encoding_rs::UTF_8 {
        notices.push(format!(
            "{} cannot hold every character of the page: saved as UTF-8",
            encoding.name()
        ));
        emitted = emit(encoding_rs::UTF_8);
    }
    notices.extend(emitted.diagnostics.iter().map(|d| d.message.clone()));
    Saved {
        encoding: emitted.encoding,
        bytes: emitted.bytes,
        notices,
        text: None,
        changes: Vec::new(),
    }
}

/// An HTML page as the editor saves it: the text written onto the page on
/// disk (`htmlio::onto`), so that only what was edited changes and the
/// page keeps its charset; `current` itself when nothing was edited.
pub(crate) fn save_onto(text: &str, current: &[u8], hints: sniff::Hints<'_>) -> Saved {
    let options = htmlio::TextOptions {
        ingest: htmlio::ingest::Options {
            hints,
            ..htmlio::ingest::Options::default()
        },
        ..htmlio::TextOptions::default()
    };
    let saved = htmlio::onto::onto(current, text, &options);
    Saved {
        notices: saved
            .diagnostics
            .iter()
            .map(|d| d.message.clone())
            .collect(),
        encoding: saved.encoding,
        bytes: saved.bytes,
        text: None,
        changes: saved.changes,
    }
}

/// A text page as the editor saves it: its canonical text, in UTF-8, with
/// the writer's and parser's warnings as notices.
pub(crate) fn save_text(text: &str) -> Saved {
    let converted = text_round_trip(text.as_bytes(), Output::Keep, wikitext::Escapes::WhenNeeded);
    let bytes = converted.output.unwrap_or_default();
    let notices = converted
        .diagnostics
        .iter()
        .filter(|d| d.severity != Severity::Note)
        .map(|d| match d.line {
            Some(line) => format!("line {line}: {}", d.message),
            None => d.message.clone(),
        })
        .collect();
    Saved {
        text: Some(String::from_utf8_lossy(&bytes).into_owned()),
        bytes,
        encoding: encoding_rs::UTF_8,
        notices,
        changes: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "#Title T\n\n= Heading =\n\nA paragraph.\n\n  * an item\n";

    #[test]
    fn the_preview_marks_blocks_and_a_save_never_does() {
        let (preview, _) = edit_view(TEXT);
        assert!(preview.contains("<h1 data-line=\"3\">"), "{preview}");
        assert!(preview.contains("<li data-line=\"7\">"), "{preview}");
        for encoding in [encoding_rs::UTF_8, encoding_rs::WINDOWS_1252] {
            let saved = save_html(TEXT, encoding);
            let written = String::from_utf8_lossy(&saved.bytes);
            assert!(written.contains("<h1>Heading</h1>"), "{written}");
            assert!(!written.contains("data-line"), "{written}");
        }
        let text = save_text(TEXT);
        assert!(!String::from_utf8_lossy(&text.bytes).contains("data-line"));
    }
}
