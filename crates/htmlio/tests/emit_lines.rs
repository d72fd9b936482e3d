//! `EmitOptions::source_lines`: the editor's preview marks each block with
//! the line of the text it comes from; nothing else ever carries the marks.

use htmlio::emit::{self, EmitOptions, Syntax};

const TEXT: &str = "#Title Lines\n#Extend table\n\n= Heading =\n\nA paragraph\non two lines.\n\n  * one\n  * two\n\n  > quoted\n\nterm::\n  definition\n\n pre\n\n----\n\n| a | b |\n| c | d |\n\nthe end\n";

fn marked(text: &str, syntax: Syntax) -> String {
    let options = EmitOptions {
        syntax,
        source_lines: true,
        tables: true,
        ..EmitOptions::default()
    };
    emit::emit_text(text, &options).emitted.text
}

#[test]
fn blocks_carry_the_line_they_start_on() {
    let out = marked(TEXT, Syntax::Xhtml);
    for (tag, line) in [
        ("h1", 4),
        ("p", 6),
        ("li", 9),
        ("li", 10),
        ("blockquote", 12),
        ("dt", 14),
        ("pre", 17),
        ("hr", 19),
        ("tr", 21),
        ("tr", 22),
        ("p", 24),
    ] {
        let wanted = format!("<{tag} data-line=\"{line}\"");
        assert!(out.contains(&wanted), "{wanted} missing in:\n{out}");
    }
    // Inline elements are not marked.
    let inline = marked("\nSome _text_.\n", Syntax::Xhtml);
    assert!(inline.contains("<em>text</em>"), "{inline}");
    // The HTML syntax marks them too.
    let html = marked(
        TEXT,
        Syntax::Html {
            omit_optional_tags: false,
        },
    );
    assert!(html.contains("<h1 data-line=\"4\">"), "{html}");
}

#[test]
fn grid_shaped_lists_mark_their_rows() {
    let out = marked("\n*Name*   *Price*\nTea   2\n", Syntax::Xhtml);
    assert!(out.contains("<tr data-line=\"2\">"), "{out}");
    assert!(out.contains("<tr data-line=\"3\">"), "{out}");
}

#[test]
fn nothing_is_marked_unless_asked() {
    for options in [
        EmitOptions::default(),
        EmitOptions {
            tables: true,
            ..EmitOptions::default()
        },
    ] {
        let out = emit::emit_text(TEXT, &options).emitted.text;
        assert!(!out.contains("data-line"), "{out}");
    }
    // Nor by the conversion every command and every save uses.
    let converted = htmlio::to_xhtml(TEXT, &EmitOptions::default());
    assert!(!converted.emitted.text.contains("data-line"));
}

#[test]
fn a_document_built_by_hand_has_no_lines_to_mark() {
    let doc = wikitext::Document::new(
        wikitext::Metadata::default(),
        vec![wikitext::Block::paragraph(vec![wikitext::Inline::text(
            "x",
        )])],
    );
    let out = emit::emit(
        &doc,
        &EmitOptions {
            source_lines: true,
            ..EmitOptions::default()
        },
    );
    assert!(!out.text.contains("data-line"), "{}", out.text);
}
