//! Text to markup takes two paths: through the tree (`wikitext::parse`, then
//! `emit::emit`, which walks `Document::events`) and as a stream
//! (`wikitext::Parser` into `emit::emit_events`, no tree). Both must give
//! the same bytes and the same diagnostics, for every syntax and encoding.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

use std::path::Path;

use htmlio::emit::{self, EmitOptions, Emitted, Syntax};
use htmlio::encoding_rs;
use proptest::prelude::*;

fn options() -> [EmitOptions; 5] {
    [
        EmitOptions::default(),
        EmitOptions {
            encoding: encoding_rs::WINDOWS_1252,
            syntax: Syntax::Xhtml,
            tables: false,
            source_lines: false,
            // Both paths write the DOCTYPE alike.
            doctype: true,
        },
        EmitOptions {
            encoding: encoding_rs::UTF_8,
            syntax: Syntax::Html {
                omit_optional_tags: true,
            },
            tables: false,
            source_lines: false,
            doctype: false,
        },
        // `to-html --tables` buffers a compact list to see whether it is a
        // grid: both paths must still agree.
        EmitOptions {
            tables: true,
            ..EmitOptions::default()
        },
        // The editor's preview marks blocks with their lines: a tree's
        // events carry the same positions as the parser's.
        EmitOptions {
            tables: true,
            source_lines: true,
            ..EmitOptions::default()
        },
    ]
}

fn streamed(text: &str, opts: &EmitOptions) -> (Emitted, Vec<wikitext::Diagnostic>) {
    let mut parser = wikitext::Parser::new(text);
    let (meta, diagnostics) = parser.take_parts();
    (emit::emit_events(&meta, parser, opts), diagnostics)
}

/// The two paths agree on `text`; `what` names the input in a failure.
fn check(text: &str, what: &str) -> Result<(), String> {
    let parsed = wikitext::parse(text);
    for opts in options() {
        let tree = emit::emit(&parsed.document, &opts);
        let (stream, diagnostics) = streamed(text, &opts);
        if tree != stream {
            return Err(format!(
                "{what}: the paths differ ({opts:?})\n--- tree\n{}\n{:?}\n--- stream\n{}\n{:?}",
                tree.text, tree.diagnostics, stream.text, stream.diagnostics
            ));
        }
        if diagnostics != parsed.diagnostics {
            return Err(format!("{what}: the parser's diagnostics differ"));
        }
    }
    Ok(())
}

#[test]
fn both_paths_give_the_same_bytes_for_every_text_input_of_the_suites() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
    let files: Vec<_> = testkit::files_below(&root)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    assert!(
        files.len() > 50,
        "the text inputs are missing: {}",
        files.len()
    );
    let mut failures = Vec::new();
    for file in &files {
        let bytes = std::fs::read(file).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        if let Err(e) = check(&text, &file.display().to_string()) {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn both_paths_agree_on_odd_structure() {
    for text in [
        "\n  * a\n\n  1. b\n  2. c\n",
        "\n::\n    x\n::\n\nt::\nu::\n\n    d\n",
        "\nterm   def\n::   def2\nlone::\n\nnext::\n    dd\n",
        "\n    pre\n\n      more\n\ttab\n",
        "\n\n    \n",
        "\n> q\n> r\n  > inner\n",
        "#Escape \\\n\n\\_x\\_ _y_ \\ \\  [a\\_b|\\x|t\\_] <a@b.de>\n",
        "\n[u|f|]\n[|f|] [u||_x_ [v||y]]\n",
        "\na\u{1}b\u{ffff}\n  * [u\u{1}||t]\n",
    ] {
        check(text, &format!("{text:?}")).unwrap();
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(256),
        ..ProptestConfig::default()
    })]

    #[test]
    fn both_paths_give_the_same_bytes_for_any_text(
        lines in prop::collection::vec(
            (0usize..10, prop::collection::vec(prop::sample::select(vec![
                "* ", "1. ", "> ", "::", "   ", "= ", " =", "----", "_", "*", "'", "[", "]",
                "|", "<", ">", "@", "a@b.de", "[u||", "[|f|", "[u|f|", "word", "é", "\t",
                "\\", "\\_", "\\ ", "\u{1}", "x.",
            ]), 0..8)),
            0..12,
        ),
        escape in any::<bool>(),
    ) {
        let mut text = String::from(if escape { "#Escape \\\n\n" } else { "\n" });
        for (indent, pieces) in lines {
            text.push_str(&" ".repeat(indent));
            text.push_str(&pieces.concat());
            text.push('\n');
        }
        if let Err(e) = check(&text, "generated") {
            prop_assert!(false, "{}", e);
        }
    }

    #[test]
    fn both_paths_give_the_same_bytes_for_any_string(text in "\\PC{0,200}") {
        if let Err(e) = check(&text, "generated") {
            prop_assert!(false, "{}", e);
        }
    }
}

/// A stream made by hand may be unbalanced: an end closes the innermost
/// element it ends (and what is open inside it), one that ends nothing open
/// is ignored, and what is left open is closed, so the markup stays
/// well-formed.
#[test]
fn an_unbalanced_stream_still_gives_well_formed_markup() {
    use wikitext::events::{Event, Tag, TagEnd};
    use wikitext::{ListKind, Pos};
    let events = vec![
        Event::End(TagEnd::Paragraph),
        Event::Start(Tag::Paragraph),
        Event::Start(Tag::Emphasis),
        Event::Text("a < b".into()),
        Event::End(TagEnd::Strong),
        Event::End(TagEnd::Paragraph),
        Event::Start(Tag::List(ListKind::Unordered)),
        Event::Start(Tag::Item),
        Event::Start(Tag::Link {
            url: Some("x".into()),
            fragment: None,
        }),
        Event::Start(Tag::Link {
            url: Some("y".into()),
            fragment: None,
        }),
        Event::Text("t".into()),
    ];
    let meta = wikitext::Metadata::default();
    let out = emit::emit_events(
        &meta,
        events.into_iter().map(|e| (e, Pos::UNKNOWN)),
        &EmitOptions::default(),
    );
    roxmltree::Document::parse(&out.text).unwrap_or_else(|e| panic!("{e}\n{}", out.text));
    assert!(
        out.text.contains(
            "<body>\n<p><em>a &lt; b</em></p>\n<ul>\n<li><a href=\"x\">t</a></li>\n</ul>\n</body>"
        ),
        "{}",
        out.text
    );
}
