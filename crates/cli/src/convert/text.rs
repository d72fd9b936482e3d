//! The text format's inputs: decoding them, `to-html` (through
//! `htmlio::to_xhtml`), `fmt` and `check`.

use super::{Converted, Output};
use crate::diag::{Diag, Severity, from_library, line_column, sort_by_position};

/// `to-html`: text -> events -> XHTML (or HTML) bytes, as `options` say
/// (`--encoding`, `--html`, `--tables`, `--doctype`).
pub(super) fn to_html(bytes: &[u8], options: &htmlio::emit::EmitOptions) -> Converted {
    let (text, input_encoding, mut diagnostics) = decode_text(bytes);
    let htmlio::emit::EmittedText { emitted, parsed } = htmlio::to_xhtml(&text, options);
    diagnostics.extend(parsed.iter().map(from_library));
    diagnostics.extend(emitted.diagnostics.iter().map(from_library));
    markup(
        (text, input_encoding),
        diagnostics,
        emitted.bytes,
        emitted.encoding,
    )
}

/// `to-html --onto PAGE`: the text written onto the page it was read from
/// (`htmlio::onto`), in the page's own encoding.
pub(super) fn onto_html(bytes: &[u8], page: &[u8]) -> Converted {
    let (text, input_encoding, mut diagnostics) = decode_text(bytes);
    let saved = htmlio::onto::onto(page, &text, &htmlio::TextOptions::default());
    diagnostics.extend(saved.parsed.iter().map(from_library));
    diagnostics.extend(saved.diagnostics.iter().map(from_library));
    markup(
        (text, input_encoding),
        diagnostics,
        saved.bytes,
        saved.encoding,
    )
}

/// What `to-html` gives for a text read in `input_encoding`: the markup's
/// bytes in `encoding` (named when it is not UTF-8), and the diagnostics
/// by position.
fn markup(
    (text, input_encoding): (String, &'static encoding_rs::Encoding),
    mut diagnostics: Vec<Diag>,
    bytes: Vec<u8>,
    encoding: &'static encoding_rs::Encoding,
) -> Converted {
    sort_by_position(&mut diagnostics);
    Converted {
        output_encoding: (encoding != encoding_rs::UTF_8).then_some(encoding),
        output: Some(bytes),
        encoding: Some(input_encoding),
        diagnostics,
        source: Some(text),
        ..Converted::default()
    }
}

/// `fmt` and `check` on text: parse, write the canonical text (the writer
/// checks it by parsing it again), and report what both said. `fmt` keeps
/// the canonical text as its output.
pub(super) fn text_round_trip(
    bytes: &[u8],
    output: Output,
    escapes: wikitext::Escapes,
) -> Converted {
    let (text, encoding, mut diagnostics) = decode_text(bytes);
    if output == Output::Discard {
        // `check`: the library's whole account (parser, dangling links,
        // near misses, writer).
        diagnostics.extend(wikitext::check(&text).iter().map(from_library));
        sort_by_position(&mut diagnostics);
        return Converted {
            encoding: Some(encoding),
            diagnostics,
            source: Some(text),
            ..Converted::default()
        };
    }
    let parsed = wikitext::parse(&text);
    diagnostics.extend(parsed.diagnostics.iter().map(from_library));
    let policy = wikitext::Policy {
        escapes,
        ..wikitext::Policy::DEFAULT
    };
    let written = wikitext::write_with(parsed.document, &policy);
    diagnostics.extend(written.diagnostics.iter().map(from_library));
    sort_by_position(&mut diagnostics);
    let changed = written.text.as_bytes() != bytes;
    Converted {
        output: Some(written.text.into_bytes()),
        encoding: Some(encoding),
        diagnostics,
        source: Some(text),
        changed: Some(changed),
        ..Converted::default()
    }
}

/// Text-format input as a string: UTF-8 (a UTF-8 or UTF-16 byte order mark is
/// honoured and removed); malformed sequences become U+FFFD with a warning at
/// the first one, since that is a loss.
pub(crate) fn decode_text(bytes: &[u8]) -> (String, &'static encoding_rs::Encoding, Vec<Diag>) {
    let (encoding, bom) = encoding_rs::Encoding::for_bom(bytes).unwrap_or((encoding_rs::UTF_8, 0));
    let body = bytes.get(bom..).unwrap_or(bytes);
    let (text, had_errors) = encoding.decode_without_bom_handling(body);
    let mut diags = Vec::new();
    if had_errors {
        let first = first_invalid_offset(encoding, body, &text);
        let (line, column) = line_column(&text, first);
        diags.push(
            Diag::new(
                Severity::Warning,
                "invalid-utf8",
                format!(
                    "the input is not valid {}: malformed bytes replaced by U+FFFD, the first one here",
                    encoding.name()
                ),
            )
            .at(line, column),
        );
    }
    (text.into_owned(), encoding, diags)
}

/// The byte offset in `text` of the first replacement character that stands
/// for a malformed sequence of `body` (for UTF-8: where validation stopped).
fn first_invalid_offset(
    encoding: &'static encoding_rs::Encoding,
    body: &[u8],
    text: &str,
) -> usize {
    if encoding == encoding_rs::UTF_8
        && let Err(e) = std::str::from_utf8(body)
    {
        return e.valid_up_to();
    }
    text.find('\u{FFFD}').unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_utf8_with_boms_honoured() {
        assert_eq!(decode_text(b"\xEF\xBB\xBFcaf\xC3\xA9").0, "café");
        let (text, encoding, _) = decode_text(b"\xFF\xFEh\0i\0");
        assert_eq!((text.as_str(), encoding), ("hi", encoding_rs::UTF_16LE));
        let (text, _, diags) = decode_text(b"ok\nab\xFFc\xFE");
        assert_eq!(text, "ok\nab\u{FFFD}c\u{FFFD}");
        assert_eq!(diags.len(), 1);
        assert_eq!((diags[0].line, diags[0].column), (Some(2), Some(3)));
    }
}
