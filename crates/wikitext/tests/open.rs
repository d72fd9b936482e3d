//! `#Extend open`: containers that open with a list, preformatted text or a
//! blockquote, written after a bare opener (`docs/format.md`, section 7).

use wikitext::{
    Block, DefItem, Document, Escapes, Inline, ListItem, ListKind, Metadata, Numbering, Policy,
    Term, parse, write, write_with,
};

fn t(s: &str) -> Inline {
    Inline::text(s)
}

fn text(s: &str) -> Block {
    Block::text(vec![t(s)])
}

fn ul(items: Vec<Vec<Block>>) -> Block {
    Block::list(
        ListKind::Unordered,
        items.into_iter().map(ListItem::new).collect(),
    )
}

fn body(blocks: Vec<Block>) -> Document {
    Document::new(Metadata::default(), blocks)
}

fn open(blocks: Vec<Block>) -> Document {
    Document::new(
        Metadata {
            open: true,
            ..Metadata::default()
        },
        blocks,
    )
}

/// The body of a text, read without its header.
fn read(text: &str) -> Vec<Block> {
    let parsed = parse(text);
    assert_eq!(parsed.diagnostics, vec![], "{text}");
    parsed.document.body
}

/// Writes `doc`, checks the text and that it reads back as the document,
/// and that writing it again gives the same text.
fn writes(doc: &Document, want: &str) {
    let w = write(doc);
    assert_eq!(w.text, want);
    assert!(w.is_exact(), "{:?}", w.diagnostics);
    let back = parse(&w.text).document;
    assert_eq!(back.body, doc.body);
    assert!(back.meta.open);
    assert_eq!(write(&back).text, w.text);
}

#[test]
fn a_bare_bullet_opens_an_item_with_a_list() {
    let body = read("#Extend open\n\n  *\n      * a\n      * b\n    after\n  * next\n");
    assert_eq!(
        body,
        vec![ul(vec![
            vec![ul(vec![vec![text("a")], vec![text("b")]]), text("after")],
            vec![text("next")],
        ])]
    );
    // Ordered bullets too, and white space after the mark.
    let body = read("#Extend open\n\n  12.  \n       a) x\n");
    let inner = Block::list(
        ListKind::Ordered(Numbering::LowerAlpha),
        vec![ListItem::new(vec![text("x")])],
    );
    assert_eq!(
        body,
        vec![Block::list(
            ListKind::Ordered(Numbering::Decimal),
            vec![ListItem::new(vec![inner])]
        )]
    );
}

#[test]
fn a_bare_opener_comes_before_preformatted_text() {
    let want = vec![ul(vec![vec![Block::preformatted(vec![vec![t("code")]])]])];
    assert_eq!(read("#Extend open\n\n  *\n      code\n"), want);
    // Without the declaration the lines are preformatted text, as in the
    // seed.
    let seed = read("\n  *\n      code\n");
    assert_eq!(
        seed,
        vec![Block::preformatted(vec![vec![t("*")], vec![t("    code")]])]
    );
}

#[test]
fn a_bare_quote_mark_opens_a_blockquote() {
    let body = read("#Extend open\n\n  >\n      > deep\n    shallow\n");
    assert_eq!(
        body,
        vec![Block::blockquote(vec![
            Block::blockquote(vec![text("deep")]),
            text("shallow"),
        ])]
    );
}

#[test]
fn a_bare_double_colon_opens_a_definition() {
    let body = read("#Extend open\n\nterm::\n    ::\n      * a\n    more\n");
    assert_eq!(
        body,
        vec![Block::definition_list(
            false,
            vec![DefItem::new(
                vec![Term::new(vec![t("term")])],
                vec![ul(vec![vec![text("a")]]), text("more")],
            )]
        )]
    );
}

#[test]
fn unknown_features_leave_the_body_as_the_seed_reads_it() {
    let parsed = parse("#Extend tables\n\n  *\n      * a\n");
    assert!(!parsed.document.meta.open);
    assert_eq!(parsed.diagnostics.len(), 1);
    assert!(matches!(
        parsed.document.body.as_slice(),
        [Block::Preformatted { .. }]
    ));
}

#[test]
fn items_opening_with_a_block_are_written_bare() {
    let doc = body(vec![ul(vec![
        vec![ul(vec![vec![text("a")], vec![text("b")]]), text("after")],
        vec![Block::preformatted(vec![vec![t("code")]])],
    ])]);
    writes(
        &doc,
        "#Extend open\n\n  *\n      * a\n      * b\n    after\n  *\n      code\n",
    );
}

#[test]
fn blockquotes_opening_with_a_block_are_written_bare() {
    let doc = body(vec![Block::blockquote(vec![
        Block::blockquote(vec![text("x")]),
        text("y"),
    ])]);
    writes(&doc, "#Extend open\n\n  >\n      > x\n    y\n");
    let doc = body(vec![Block::blockquote(vec![ul(vec![vec![text("x")]])])]);
    writes(&doc, "#Extend open\n\n  >\n      * x\n");
}

#[test]
fn definitions_opening_with_a_block_are_written_bare() {
    let doc = body(vec![Block::definition_list(
        false,
        vec![
            DefItem::new(
                vec![Term::new(vec![t("t")])],
                vec![ul(vec![vec![text("a")]]), text("more")],
            ),
            DefItem::new(vec![Term::new(vec![t("n")])], vec![text("d")]),
        ],
    )]);
    writes(
        &doc,
        "#Extend open\n\nt::\n    ::\n      * a\n    more\nn::\n    d\n",
    );
}

#[test]
fn the_declaration_goes_after_escapes() {
    let doc = body(vec![ul(vec![vec![ul(vec![vec![text("_a_")]])]])]);
    writes(&doc, "#Escape \\\n#Extend open\n\n  *\n      * \\_a_\n");
}

#[test]
fn a_declared_document_keeps_its_declaration() {
    let doc = open(vec![Block::paragraph(vec![t("x")])]);
    assert_eq!(write(&doc).text, "#Extend open\n\nx\n");
    // A document that needs nothing declares nothing.
    assert_eq!(
        write(&body(vec![Block::paragraph(vec![t("x")])])).text,
        "\nx\n"
    );
}

#[test]
fn literal_bare_openers_are_escaped_where_declared() {
    // A line of preformatted text that is only a bullet would open an item.
    let doc = open(vec![
        Block::paragraph(vec![t("p")]),
        Block::preformatted(vec![vec![t("*")], vec![t("    x")]]),
    ]);
    let w = write(&doc);
    assert!(w.is_exact(), "{:?}\n{}", w.diagnostics, w.text);
    assert_eq!(parse(&w.text).document.body, doc.body, "{}", w.text);
    assert_eq!(w.text, "#Escape \\\n#Extend open\n\np\n\n  \\*\n      x\n");
    // Where the next line is not indented further than the content would
    // be, a bullet alone is text.
    let doc = open(vec![Block::preformatted(vec![
        vec![t("*")],
        vec![t("  x")],
    ])]);
    assert_eq!(write(&doc).text, "#Extend open\n\n  *\n    x\n");
}

#[test]
fn a_definition_list_opening_a_definition_stays_itself() {
    // `::` alone on the definition's first line would be the bare opener.
    let inner = Block::definition_list(false, vec![DefItem::new(vec![], vec![text("x")])]);
    let doc = open(vec![Block::definition_list(
        false,
        vec![DefItem::new(vec![Term::new(vec![t("t")])], vec![inner])],
    )]);
    let w = write(&doc);
    assert!(w.is_exact(), "{:?}\n{}", w.diagnostics, w.text);
    assert_eq!(parse(&w.text).document, doc, "{}", w.text);
}

#[test]
fn pure_seed_text_is_unchanged() {
    let policy = Policy {
        escapes: Escapes::Never,
        ..Policy::DEFAULT
    };
    let doc = open(vec![Block::blockquote(vec![ul(vec![vec![text("x")]])])]);
    let w = write_with(doc, &policy);
    assert_eq!(w.text, "\n  * x\n");
    assert!(!w.is_exact());
}

#[test]
fn an_opener_opens_only_before_an_indented_block() {
    // The next line at the content's column, or nothing after the opener:
    // the line reads as the seed reads it (here preformatted text).
    for text in [
        "#Extend open\n\n  *\n    x\n",
        "#Extend open\n\n  >\n\n    x\n",
        "#Extend open\n\n  *\n",
    ] {
        let body = read(text);
        assert!(
            matches!(body.as_slice(), [Block::Preformatted { .. }]),
            "{text}: {body:?}"
        );
    }
    // After terms, `::` with its definition at the same column is an
    // empty term, as in the seed.
    let body = read("#Extend open\n\nt::\n    ::\n    u::\n        d\n");
    let seed = read("\nt::\n    ::\n    u::\n        d\n");
    assert_eq!(body, seed);
}

#[test]
fn a_list_moves_right_when_what_follows_needs_it() {
    // The preformatted text after the list is indented four columns (the
    // list after it closes it), so the last item's content must start at
    // column 5: the bare `*` stands at column 3.
    let doc = body(vec![
        ul(vec![vec![ul(vec![vec![text("a")]])]]),
        Block::preformatted(vec![vec![t("p")]]),
        Block::list(
            ListKind::Ordered(Numbering::Decimal),
            vec![ListItem::new(vec![text("b")])],
        ),
    ]);
    writes(
        &doc,
        "#Extend open\n\n   *\n       * a\n\n    p\n\n  1. b\n",
    );
}
