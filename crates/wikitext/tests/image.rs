//! `#Extend image`: images in the text (`docs/format.md`, "Images").

use wikitext::{
    Block, Code, Document, Escapes, Inline, Metadata, Policy, canonicalize, parse, plain_text,
    write,
};

fn t(s: &str) -> Inline {
    Inline::text(s)
}

fn para(run: Vec<Inline>) -> Document {
    Document::new(Metadata::default(), vec![Block::paragraph(run)])
}

fn sized(src: &str, alt: &str, title: Option<&str>, w: Option<u32>, h: Option<u32>) -> Inline {
    Inline::Image {
        src: src.into(),
        alt: if alt.is_empty() { vec![] } else { vec![t(alt)] },
        title: title.map(str::to_owned),
        width: w,
        height: h,
        pos: wikitext::Pos::UNKNOWN,
    }
}

/// Writes `doc`, checks the text, that the writer calls it exact, and that
/// it reads back as the document and writes again as itself.
#[track_caller]
fn writes(doc: &Document, want: &str) {
    let w = write(doc);
    assert_eq!(w.text, want);
    assert!(w.is_exact(), "{:?}", w.diagnostics);
    let back = parse(&w.text).document;
    assert_eq!(back.body, doc.body);
    assert_eq!(write(&back).text, w.text);
}

#[test]
fn the_header_declares_images_only_when_the_body_has_one() {
    writes(&para(vec![t("no image")]), "\nno image\n");
    writes(
        &para(vec![t("a "), Inline::image("a.png", vec![t("A")])]),
        "#Extend image\n\na ![a.png||A]\n",
    );
    // A text that declares it keeps it.
    let kept = parse("#Extend image\n\nno image\n").document;
    assert_eq!(write(&kept).text, "#Extend image\n\nno image\n");
}

#[test]
fn size_title_and_empty_alternative_text() {
    writes(
        &para(vec![sized(
            "c.png",
            "Sales",
            Some(r#"say "hi" \ bye"#),
            Some(640),
            Some(480),
        )]),
        "#Extend image\n\n![c.png||Sales]{640x480 \"say \\\"hi\\\" \\\\ bye\"}\n",
    );
    writes(
        &para(vec![sized("d.png", "", None, None, Some(9))]),
        "#Extend image\n\n![d.png||]{x9}\n",
    );
}

#[test]
fn images_in_links_headings_and_terms() {
    let logo = || Inline::image("logo.png", vec![t("Example")]);
    writes(
        &para(vec![Inline::link(
            Some("https://example.org/".into()),
            None,
            vec![logo()],
        )]),
        "#Extend image\n\n[https://example.org/||![logo.png||Example]]\n",
    );
    writes(
        &Document::new(
            Metadata::default(),
            vec![Block::heading(2, vec![logo(), t(" Title")])],
        ),
        "#Extend image\n\n== ![logo.png||Example] Title ==\n",
    );
}

#[test]
fn text_that_would_read_as_an_image_is_escaped() {
    // A literal `!` before a link.
    writes(
        &para(vec![
            t("Wow!"),
            Inline::link(Some("u".into()), None, vec![t("x")]),
            t(" "),
            Inline::image("a.png", vec![]),
        ]),
        "#Extend image\n#Escape \\\n\nWow\\![u||x] ![a.png||]\n",
    );
    // Braces and letters right after an image: empty braces end it.
    writes(
        &para(vec![Inline::image("a.png", vec![t("A")]), t("{16x16}")]),
        "#Extend image\n\n![a.png||A]{}{16x16}\n",
    );
    writes(
        &para(vec![Inline::image("a.png", vec![t("A")]), t("s")]),
        "#Extend image\n\n![a.png||A]{}s\n",
    );
}

#[test]
fn pure_seed_text_keeps_the_alternative_text() {
    let doc = para(vec![
        t("a "),
        Inline::image("a.png", vec![t("Logo")]),
        t(" b"),
    ]);
    let policy = Policy {
        escapes: Escapes::Never,
        ..Policy::DEFAULT
    };
    let done = canonicalize(doc, &policy);
    assert_eq!(done.canonical.text(), "\na Logo b\n");
    assert!(!done.exact);
    assert_eq!(
        done.diagnostics.iter().map(|d| d.code).collect::<Vec<_>>(),
        vec![Code::UnrepresentableImage]
    );
}

#[test]
fn what_the_text_cannot_hold_as_an_image_keeps_its_text() {
    // Preformatted text holds no image, nor does an alternative text.
    let pre = Document::new(
        Metadata::default(),
        vec![Block::preformatted(vec![vec![
            t("x "),
            Inline::image("a.png", vec![t("A")]),
        ]])],
    );
    let w = write(&pre);
    assert_eq!(w.text, "\n  x A\n");
    assert!(
        w.diagnostics
            .iter()
            .any(|d| d.code == Code::UnrepresentableImage)
    );
    let nested = para(vec![Inline::image(
        "a.png",
        vec![t("A "), Inline::image("b.png", vec![t("B")])],
    )]);
    let w = write(&nested);
    assert_eq!(w.text, "#Extend image\n\n![a.png||A B]\n");
}

#[test]
fn a_seed_reader_loses_no_text() {
    let text = "#Extend image\n\nThe logo ![logo.png||ACME]{16x16 \"Logo\"} here.\n";
    let ours = parse(text).document;
    // A reader without the extension: the same text minus the declaration.
    let seed = parse(&text.replacen("#Extend image\n", "", 1)).document;
    let words = |doc: &Document| {
        wikitext::runs(&doc.body)
            .map(plain_text)
            .collect::<String>()
    };
    assert_eq!(words(&ours), "The logo ACME here.");
    assert_eq!(words(&seed), "The logo !ACME{16x16 \"Logo\"} here.");
    let Some(Block::Paragraph { content, .. }) = seed.body.first() else {
        panic!("a paragraph")
    };
    assert!(
        content
            .iter()
            .any(|i| matches!(i, Inline::Link { url: Some(u), .. } if u == "logo.png"))
    );
}

#[test]
fn no_image_inside_an_alternative_text_even_under_emphasis() {
    let body = parse("#Extend image\n\n![a.png||*x ![b.png||y]*]\n")
        .document
        .body;
    let Some(Block::Paragraph { content, .. }) = body.first() else {
        panic!("a paragraph")
    };
    let Some(Inline::Image { alt, .. }) = content.first() else {
        panic!("an image")
    };
    assert!(!wikitext::has_images(&[Block::paragraph(alt.clone())]));
}

#[test]
fn an_image_on_a_line_of_its_own_keeps_its_line_divisions() {
    // Repaired (the text has white space at its edges), the run keeps an
    // image between two line divisions and after the last one.
    let doc = para(vec![
        t("a "),
        Inline::line_break(),
        Inline::image("x.png", vec![t("y")]),
        Inline::line_break(),
        t("b"),
        Inline::line_break(),
        Inline::image("z.png", vec![]),
    ]);
    let w = write(&doc);
    assert_eq!(w.text, "#Extend image\n\na\n![x.png||y]\nb\n![z.png||]\n");
    let back = parse(&w.text).document;
    assert_eq!(back.body.len(), 1);
}
