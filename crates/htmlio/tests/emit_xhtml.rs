//! XHTML and HTML emission of documents built in code: the seed's sample
//! document, then each mapping rule, escaping, encodings and repairs. Every
//! emitted XHTML document is also checked to be well-formed, DTD-valid and
//! polyglot.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

mod support;

use htmlio::emit::{self, Code, EmitOptions, Emitted, Syntax};
use htmlio::encoding_rs::{self, Encoding};
use wikitext::{
    Block, DefItem, Document, Inline, Link, ListItem, ListKind, Meta, Metadata, Numbering, Term,
};

fn t(s: &str) -> Inline {
    Inline::text(s)
}

fn br() -> Inline {
    Inline::line_break()
}

fn item(content: Vec<Inline>) -> ListItem {
    ListItem::new(vec![Block::text(content)])
}

/// The sample document at the top of seed 000, as the parser reads it.
fn sample() -> Document {
    Document::new(
        Metadata {
            title: Some("A Simple HTML Document".into()),
            lang: Some("en-us".into()),
            metas: vec![
                Meta::new(
                    "description",
                    "This is an example of a simple HTML document.",
                ),
                Meta::new("keywords", "example, HTML document, inline markup"),
                Meta::new("date", "2004-06-30"),
            ],
            links: vec![
                Link::new(vec!["stylesheet".into()], "styles/default.css", None),
                Link::new(
                    vec!["alternate".into(), "stylesheet".into()],
                    "styles/alternate.css",
                    Some("Alternate Style".into()),
                ),
            ],
            escape: false,
            open: false,
            image: false,
            table: false,
            breaks: false,
            subsup: false,
            figure: false,
        },
        vec![
            Block::heading(1, vec![t("A Simple HTML Document")]),
            Block::paragraph(vec![
                t("This HTML document is just an example and is used to"),
                br(),
                t("demonstrate some features such as:"),
            ]),
            Block::list(
                ListKind::Ordered(Numbering::Decimal),
                vec![
                    item(vec![
                        t("Paragraphs, headings and "),
                        Inline::link(
                            Some("#inline".into()),
                            None,
                            vec![t("inline"), br(), t("markup")],
                        ),
                        t("."),
                    ]),
                    item(vec![t("A horizontal rule at the end of the document.")]),
                    item(vec![t("Some kinds of lists.")]),
                ],
            ),
            Block::heading(
                2,
                vec![Inline::link(
                    None,
                    Some("inline".into()),
                    vec![t("Inline Markup")],
                )],
            ),
            Block::paragraph(vec![t("Some examples of inline markup:")]),
            Block::list(
                ListKind::Unordered,
                vec![
                    item(vec![
                        Inline::emphasis(vec![t("emphasis")]),
                        t(" and "),
                        Inline::strong(vec![t("strong emphasis")]),
                    ]),
                    item(vec![Inline::code(vec![t("sample text")])]),
                    item(vec![Inline::link(
                        Some("internal://admin/editpage".into()),
                        None,
                        vec![t("Link to EditPage")],
                    )]),
                ],
            ),
            Block::rule(),
        ],
    )
}

/// Emits with `opts` and checks the XHTML for real.
fn checked(doc: &Document, opts: &EmitOptions) -> Emitted {
    let out = emit::emit(doc, opts);
    if opts.syntax == Syntax::Xhtml {
        support::check_document(&out.bytes, out.encoding, support::Expect::from(&out));
    }
    out
}

fn xhtml(doc: &Document) -> Emitted {
    checked(doc, &EmitOptions::default())
}

/// A document with just this body and no header.
fn body(blocks: Vec<Block>) -> Document {
    Document::new(Metadata::default(), blocks)
}

/// The body part of emitted XHTML (between `<body>\n` and `</body>`).
fn body_of(out: &Emitted) -> &str {
    let start = out.text.find("<body>\n").expect("a body") + "<body>\n".len();
    let end = out.text.rfind("</body>").expect("a body end");
    &out.text[start..end]
}

#[test]
fn seed_sample_document() {
    let out = xhtml(&sample());
    assert_eq!(
        out.text,
        r##"<html xmlns="http://www.w3.org/1999/xhtml" lang="en-us" xml:lang="en-us">
<head>
<meta http-equiv="Content-Type" content="text/html; charset=UTF-8" />
<title>A Simple HTML Document</title>
<meta name="description" content="This is an example of a simple HTML document." />
<meta name="keywords" content="example, HTML document, inline markup" />
<meta name="date" content="2004-06-30" />
<link rel="stylesheet" href="styles/default.css" />
<link rel="alternate stylesheet" href="styles/alternate.css" title="Alternate Style" />
</head>
<body>
<h1>A Simple HTML Document</h1>
<p>This HTML document is just an example and is used to
demonstrate some features such as:</p>
<ol>
<li>Paragraphs, headings and <a href="#inline">inline
markup</a>.</li>
<li>A horizontal rule at the end of the document.</li>
<li>Some kinds of lists.</li>
</ol>
<h2><a name="inline" id="inline">Inline Markup</a></h2>
<p>Some examples of inline markup:</p>
<ul>
<li><em>emphasis</em> and <strong>strong emphasis</strong></li>
<li><code>sample text</code></li>
<li><a href="internal://admin/editpage">Link to EditPage</a></li>
</ul>
<hr />
</body>
</html>
"##
    );
    assert!(out.diagnostics.is_empty(), "{:?}", out.diagnostics);
    assert_eq!(out.bytes, out.text.as_bytes());
    assert_eq!(out.encoding, encoding_rs::UTF_8);
}

#[test]
fn seed_sample_document_as_html_syntax() {
    let doc = sample();
    let full = checked(
        &doc,
        &EmitOptions {
            syntax: Syntax::Html {
                omit_optional_tags: false,
            },
            ..EmitOptions::default()
        },
    );
    assert!(full.text.starts_with(
        "<!DOCTYPE html>\n<html lang=\"en-us\">\n<head>\n<meta charset=\"UTF-8\">\n<title>"
    ));
    assert!(full.text.contains("<hr>\n</body>\n</html>\n"));
    let short = checked(
        &doc,
        &EmitOptions {
            syntax: Syntax::Html {
                omit_optional_tags: true,
            },
            ..EmitOptions::default()
        },
    );
    assert_eq!(
        short.text,
        r##"<!DOCTYPE html>
<html lang="en-us">
<meta charset="UTF-8">
<title>A Simple HTML Document</title>
<meta name="description" content="This is an example of a simple HTML document.">
<meta name="keywords" content="example, HTML document, inline markup">
<meta name="date" content="2004-06-30">
<link rel="stylesheet" href="styles/default.css">
<link rel="alternate stylesheet" href="styles/alternate.css" title="Alternate Style">
<h1>A Simple HTML Document</h1>
<p>This HTML document is just an example and is used to
demonstrate some features such as:
<ol>
<li>Paragraphs, headings and <a href="#inline">inline
markup</a>.
<li>A horizontal rule at the end of the document.
<li>Some kinds of lists.
</ol>
<h2><a name="inline" id="inline">Inline Markup</a></h2>
<p>Some examples of inline markup:
<ul>
<li><em>emphasis</em> and <strong>strong emphasis</strong>
<li><code>sample text</code>
<li><a href="internal://admin/editpage">Link to EditPage</a>
</ul>
<hr>
"##
    );
    // Both HTML forms give browsers the same elements as the XHTML, up to
    // where layout white space lands.
    // The encoding declaration and `xml:lang` are the intended differences.
    let xhtml = emit::xhtml(&doc).text.replace(
        r#"<meta http-equiv="Content-Type" content="text/html; charset=UTF-8" />"#,
        r#"<meta charset="UTF-8" />"#,
    );
    let xhtml = xhtml.replace(r#" xml:lang="en-us""#, "");
    let reference = support::loose(support::xml_tree(&xhtml));
    assert_eq!(support::loose(support::html_tree(&full.text)), reference);
    assert_eq!(support::loose(support::html_tree(&short.text)), reference);
}

#[test]
fn title_is_always_there() {
    let out = xhtml(&body(vec![]));
    assert_eq!(
        out.text,
        "<html xmlns=\"http://www.w3.org/1999/xhtml\">\n<head>\n\
         <meta http-equiv=\"Content-Type\" content=\"text/html; charset=UTF-8\" />\n\
         <title></title>\n</head>\n<body>\n</body>\n</html>\n"
    );
}

#[test]
fn headings_rules_and_pre() {
    let doc = body(vec![
        Block::heading(3, vec![t("Three")]),
        Block::heading(6, vec![t("Six")]),
        Block::rule(),
        Block::preformatted(vec![
            vec![t("  indented "), Inline::emphasis(vec![t("x")])],
            vec![],
            vec![t("a < b & c")],
        ]),
    ]);
    let out = xhtml(&doc);
    assert_eq!(
        body_of(&out),
        "<h3>Three</h3>\n<h6>Six</h6>\n<hr />\n<pre>  indented <em>x</em>\n\na &lt; b &amp; c</pre>\n"
    );
}

/// `docs/format.md` section 10: a forced break is `<br />`; superscripts and subscripts are `<sup>` and `<sub>`, but in
/// preformatted text, where XHTML 1.0 allows neither: there their text.
#[test]
fn forced_breaks_superscripts_and_subscripts() {
    let doc = body(vec![
        Block::paragraph(vec![
            t("12 Main Street"),
            Inline::hard_break(),
            t("H"),
            Inline::subscript(vec![t("2")]),
            t("O and 10"),
            Inline::superscript(vec![Inline::emphasis(vec![t("6")])]),
        ]),
        Block::preformatted(vec![vec![t("x"), Inline::superscript(vec![t("2")])]]),
    ]);
    let out = xhtml(&doc);
    assert_eq!(
        body_of(&out),
        "<p>12 Main Street<br />H<sub>2</sub>O and 10<sup><em>6</em></sup></p>\n<pre>x2</pre>\n"
    );
    let codes: Vec<_> = out.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, [Code::ScriptAsText]);
}

#[test]
fn ordered_list_types() {
    let doc = body(vec![
        Block::list(
            ListKind::Ordered(Numbering::Decimal),
            vec![item(vec![t("1")])],
        ),
        Block::list(
            ListKind::Ordered(Numbering::LowerAlpha),
            vec![item(vec![t("a")])],
        ),
        Block::list(
            ListKind::Ordered(Numbering::UpperAlpha),
            vec![item(vec![t("A")])],
        ),
    ]);
    assert_eq!(
        body_of(&xhtml(&doc)),
        "<ol>\n<li>1</li>\n</ol>\n<ol type=\"a\">\n<li>a</li>\n</ol>\n<ol type=\"A\">\n<li>A</li>\n</ol>\n"
    );
}

#[test]
fn nested_lists_and_item_layout() {
    // Seed 000's unordered example: "third item" is nested in "second item".
    let doc = body(vec![Block::list(
        ListKind::Unordered,
        vec![
            item(vec![t("first item")]),
            ListItem::new(vec![
                Block::text(vec![t("second item")]),
                Block::list(
                    ListKind::Unordered,
                    vec![item(vec![t("third"), br(), t("item")])],
                ),
            ]),
            ListItem::new(vec![
                Block::paragraph(vec![t("para")]),
                Block::paragraph(vec![t("graph")]),
            ]),
        ],
    )]);
    assert_eq!(
        body_of(&xhtml(&doc)),
        "<ul>\n<li>first item</li>\n<li>second item\n<ul>\n<li>third\nitem</li>\n</ul>\n</li>\n\
         <li><p>para</p>\n<p>graph</p></li>\n</ul>\n"
    );
}

#[test]
fn definition_lists() {
    // Seed 000: "First term:: / Definition", a two-line term, two terms for
    // one definition; only the first item decides compactness.
    let term = |c: Vec<Inline>| Term::new(c);
    let doc = body(vec![
        Block::definition_list(
            false,
            vec![
                DefItem::new(
                    vec![term(vec![t("First term")])],
                    vec![Block::text(vec![t("Definition of the first term.")])],
                ),
                DefItem::new(
                    vec![
                        term(vec![t("Second"), br(), t("term")]),
                        term(vec![t("Third term")]),
                    ],
                    vec![Block::text(vec![
                        t("Definition of the second and"),
                        br(),
                        t("the third term."),
                    ])],
                ),
            ],
        ),
        Block::definition_list(
            true,
            vec![
                DefItem::new(
                    vec![term(vec![t("1.1")])],
                    vec![Block::text(vec![t("1.2")])],
                ),
                DefItem::new(vec![], vec![Block::paragraph(vec![t("no term")])]),
                DefItem::new(vec![term(vec![t("no definition")])], vec![]),
            ],
        ),
    ]);
    assert_eq!(
        body_of(&xhtml(&doc)),
        "<dl>\n<dt>First term</dt>\n<dd>Definition of the first term.</dd>\n\
         <dt>Second\nterm</dt>\n<dt>Third term</dt>\n<dd>Definition of the second and\nthe third term.</dd>\n</dl>\n\
         <dl compact=\"compact\">\n<dt>1.1</dt>\n<dd>1.2</dd>\n<dd><p>no term</p></dd>\n<dt>no definition</dt>\n</dl>\n"
    );
}

#[test]
fn a_term_without_definition_before_another_item_gets_an_empty_dd() {
    // Interpretation 3 of wikitext: terms without definition are an item of
    // their own. Without the empty `dd`, `<dt>a</dt><dt>b</dt><dd>` would
    // read back as one item with two terms.
    let doc = body(vec![Block::definition_list(
        false,
        vec![
            DefItem::new(vec![Term::new(vec![t("a")])], vec![]),
            DefItem::new(
                vec![Term::new(vec![t("b")])],
                vec![Block::text(vec![t("x")])],
            ),
            DefItem::new(vec![Term::new(vec![t("c")])], vec![]),
        ],
    )]);
    let out = xhtml(&doc);
    assert_eq!(
        body_of(&out),
        "<dl>\n<dt>a</dt>\n<dd></dd>\n<dt>b</dt>\n<dd>x</dd>\n<dt>c</dt>\n</dl>\n"
    );
    let back = htmlio::ingest::ingest_str(&out.text, &htmlio::ingest::Options::default());
    assert_eq!(back.document.body, doc.body);
}

#[test]
fn text_blocks_in_a_row_stay_apart() {
    // wikitext interpretation 1: in an item, `a`, an empty line, then `b`
    // right before the next item are two bare text blocks.
    let parsed = wikitext::parse("\n  * a\n\n    b\n  * c\n\n  > d\n\n    e\n");
    let Some(Block::List { items, .. }) = parsed.document.body.first() else {
        panic!("not a list: {:?}", parsed.document.body)
    };
    assert!(matches!(
        items[0].content.as_slice(),
        [Block::Text { .. }, Block::Text { .. }]
    ));
    let out = xhtml(&parsed.document);
    assert!(
        body_of(&out).contains("<li>a\n\nb</li>"),
        "{}",
        body_of(&out)
    );
    let back = htmlio::ingest::ingest_str(&out.text, &htmlio::ingest::Options::default());
    assert_eq!(back.document.body, parsed.document.body);
}

#[test]
fn blockquotes_are_containers() {
    let doc = body(vec![
        Block::blockquote(vec![Block::text(vec![
            t("This is a rather short"),
            br(),
            t("block quotation."),
        ])]),
        Block::blockquote(vec![Block::paragraph(vec![t("again")])]),
    ]);
    assert_eq!(
        body_of(&xhtml(&doc)),
        "<blockquote>\nThis is a rather short\nblock quotation.\n</blockquote>\n\
         <blockquote>\n<p>again</p>\n</blockquote>\n"
    );
}

#[test]
fn links_anchors_and_email() {
    let doc = body(vec![Block::paragraph(vec![
        Inline::link(
            Some("refs.html#html".into()),
            Some("top".into()),
            vec![t("[HTML]")],
        ),
        t(" "),
        Inline::email("no_reply@aksware.de"),
        t(" "),
        Inline::link(Some("a?b=1&c=\"2\"".into()), None, vec![t("q")]),
    ])]);
    assert_eq!(
        body_of(&xhtml(&doc)),
        "<p><a name=\"top\" id=\"top\" href=\"refs.html#html\">[HTML]</a> \
         <a href=\"mailto:no_reply@aksware.de\">no_reply@aksware.de</a> \
         <a href=\"a?b=1&amp;c=&quot;2&quot;\">q</a></p>\n"
    );
}

#[test]
fn nested_links_keep_their_text() {
    let doc = body(vec![Block::paragraph(vec![Inline::link(
        Some("outer".into()),
        None,
        vec![
            t("a "),
            Inline::link(Some("inner".into()), None, vec![t("b")]),
            t(" "),
            Inline::email("x@y.z"),
        ],
    )])]);
    let out = xhtml(&doc);
    assert_eq!(body_of(&out), "<p><a href=\"outer\">a b x@y.z</a></p>\n");
    let codes: Vec<_> = out.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, [Code::NestedLink, Code::NestedLink]);
}

#[test]
fn script_links_written_in_text_are_neutralised() {
    let mut doc = body(vec![Block::paragraph(vec![
        Inline::link(Some("javascript:alert(1)".into()), None, vec![t("a")]),
        t(" "),
        Inline::link(Some(" Java\tScript:alert(2)".into()), None, vec![t("b")]),
        t(" "),
        Inline::link(
            Some("data:text/html,x".into()),
            Some("here".into()),
            vec![t("c")],
        ),
        t(" "),
        Inline::link(Some("javascript-notes.html".into()), None, vec![t("d")]),
    ])]);
    doc.meta.links = vec![
        Link::new(vec!["stylesheet".into()], "vbscript:x", None),
        Link::new(vec!["next".into()], "b.html", None),
    ];
    let out = xhtml(&doc);
    assert_eq!(
        body_of(&out),
        "<p>a b <a name=\"here\" id=\"here\">c</a> <a href=\"javascript-notes.html\">d</a></p>\n"
    );
    assert!(!out.text.contains("vbscript") && out.text.contains("b.html"));
    let codes: Vec<_> = out.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, [Code::UnsafeLink; 4]);
    assert_eq!(Code::UnsafeLink.as_str(), "unsafe-link");
}

#[test]
fn escaping_is_exact() {
    let doc = Document::new(
        Metadata {
            title: Some("<&> \"'".into()),
            metas: vec![Meta::new("x", "a\"b'c<d>&e\tf")],
            ..Metadata::default()
        },
        vec![Block::paragraph(vec![t("<&> \"' ]]>")])],
    );
    let out = xhtml(&doc);
    assert!(
        out.text.contains("<title>&lt;&amp;&gt; \"'</title>"),
        "{}",
        out.text
    );
    assert!(
        out.text
            .contains(r#"<meta name="x" content="a&quot;b'c&lt;d&gt;&amp;e&#9;f" />"#),
        "{}",
        out.text
    );
    assert_eq!(body_of(&out), "<p>&lt;&amp;&gt; \"' ]]&gt;</p>\n");
    assert!(!out.text.contains("&apos;"));
}

#[test]
fn forbidden_characters_become_replacement_characters() {
    let doc = Document::new(
        Metadata {
            title: Some("bell\u{7}".into()),
            ..Metadata::default()
        },
        vec![Block::paragraph(vec![t(
            "nul\u{0} ff\u{c} nonchar\u{ffff}\u{fffe} ok\u{85}\t",
        )])],
    );
    let out = xhtml(&doc);
    assert!(out.text.contains("<title>bell\u{fffd}</title>"));
    assert_eq!(
        body_of(&out),
        "<p>nul\u{fffd} ff\u{fffd} nonchar\u{fffd}\u{fffd} ok\u{85}\t</p>\n"
    );
    let found: Vec<_> = out
        .diagnostics
        .iter()
        .map(|d| (d.code, d.message.clone()))
        .collect();
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found.iter().all(|(c, _)| *c == Code::ForbiddenCharacter));
    assert!(found[1].1.starts_with("4 character(s)"), "{found:?}");
}

fn legacy(doc: &Document, encoding: &'static Encoding) -> Emitted {
    checked(
        doc,
        &EmitOptions {
            encoding,
            ..EmitOptions::default()
        },
    )
}

#[test]
fn legacy_encodings_use_character_references() {
    let doc = Document::new(
        Metadata {
            title: Some("Grüße €".into()),
            lang: Some("de".into()),
            ..Metadata::default()
        },
        vec![Block::paragraph(vec![t("naïve – ☃ 日本")])],
    );
    let out = legacy(&doc, encoding_rs::WINDOWS_1252);
    assert_eq!(out.encoding, encoding_rs::WINDOWS_1252);
    assert!(out.text.starts_with(
        "<?xml version=\"1.0\" encoding=\"windows-1252\"?>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"de\" xml:lang=\"de\">\n<head>\n<meta http-equiv=\"Content-Type\" content=\"text/html; charset=windows-1252\" />"
    ));
    // ü, ß, €, ï and – exist in windows-1252; the snowman and the kanji do not.
    let bytes = &out.bytes;
    let find = |needle: &[u8]| bytes.windows(needle.len()).any(|w| w == needle);
    assert!(find(b"<title>Gr\xfc\xdfe \x80</title>"));
    assert!(find(b"<p>na\xefve \x96 &#9731; &#26085;&#26412;</p>"));
    assert_eq!(
        out.diagnostics.iter().map(|d| d.code).collect::<Vec<_>>(),
        [Code::CharacterReferences]
    );
    for encoding in [
        encoding_rs::ISO_8859_2,
        encoding_rs::SHIFT_JIS,
        encoding_rs::EUC_JP,
        encoding_rs::KOI8_R,
        encoding_rs::BIG5,
        encoding_rs::GB18030,
        encoding_rs::EUC_KR,
    ] {
        let out = legacy(&doc, encoding);
        assert_eq!(out.encoding, encoding);
        assert!(out.text.contains(&format!("charset={}\"", encoding.name())));
    }
}

#[test]
fn unwritable_encodings_become_utf8() {
    for encoding in [
        encoding_rs::UTF_16LE,
        encoding_rs::UTF_16BE,
        encoding_rs::REPLACEMENT,
        encoding_rs::X_USER_DEFINED,
    ] {
        let out = legacy(&sample(), encoding);
        assert_eq!(out.encoding, encoding_rs::UTF_8);
        assert_eq!(out.diagnostics[0].code, Code::EncodingSubstituted);
        assert!(out.text.contains("charset=UTF-8"));
        assert!(!out.text.starts_with("<?xml"));
    }
}

#[test]
fn every_other_encoding_is_declared_and_readable_by_xml_tools() {
    // All encodings of the Encoding Standard that can be written; each output
    // goes through the XML, DTD (libxml2 through iconv) and html5ever checks.
    let doc = Document::new(
        Metadata {
            title: Some("Grüße €".into()),
            ..Metadata::default()
        },
        vec![Block::paragraph(vec![t("naïve – ☃ 日本 Ωμέγα Привет")])],
    );
    use encoding_rs::*;
    for encoding in [
        BIG5,
        EUC_JP,
        EUC_KR,
        GBK,
        IBM866,
        ISO_2022_JP,
        ISO_8859_10,
        ISO_8859_13,
        ISO_8859_14,
        ISO_8859_15,
        ISO_8859_16,
        ISO_8859_2,
        ISO_8859_3,
        ISO_8859_4,
        ISO_8859_5,
        ISO_8859_6,
        ISO_8859_7,
        ISO_8859_8,
        ISO_8859_8_I,
        KOI8_R,
        KOI8_U,
        SHIFT_JIS,
        WINDOWS_1250,
        WINDOWS_1251,
        WINDOWS_1252,
        WINDOWS_1253,
        WINDOWS_1254,
        WINDOWS_1255,
        WINDOWS_1256,
        WINDOWS_1257,
        WINDOWS_1258,
        WINDOWS_874,
        X_MAC_CYRILLIC,
        GB18030,
        MACINTOSH,
    ] {
        let out = legacy(&doc, encoding);
        assert_eq!(out.encoding, encoding);
        let declaration = format!("<?xml version=\"1.0\" encoding=\"{}\"?>\n", encoding.name());
        assert!(out.text.starts_with(&declaration), "{}", encoding.name());
        // Decoding the bytes gives the text back, up to character references.
        let (decoded, _, _) = encoding.decode(&out.bytes);
        assert!(decoded.contains("<p>"), "{}", encoding.name());
    }
}

#[test]
fn c1_controls_the_encoding_lacks_are_replaced() {
    let doc = body(vec![Block::paragraph(vec![t("a\u{85}b\u{81}")])]);
    // As `&#133;` an HTML parser would read `…`; byte 0x81 is U+0081 to
    // browsers but an error to libxml2.
    let out = legacy(&doc, encoding_rs::WINDOWS_1252);
    assert!(
        out.text.contains("<p>a\u{fffd}b\u{fffd}</p>"),
        "{}",
        out.text
    );
    assert_eq!(out.diagnostics[0].code, Code::UnencodableControl);
    // UTF-8 holds every control as itself.
    let out = xhtml(&doc);
    assert!(out.text.contains("<p>a\u{85}b\u{81}</p>"));
}

/// An anchor name that is not an XML name is written in a valid
/// form, and so is every link to it; only a repeated name stays invalid.
#[test]
fn invalid_anchors_get_a_valid_form_and_their_links_follow() {
    let anchor = |f: &str| Inline::link(None, Some(f.into()), vec![t(f)]);
    let to = |f: &str| Inline::link(Some(format!("#{f}")), None, vec![t("to")]);
    let doc = body(vec![Block::paragraph(vec![
        to("1st"),
        anchor("ok"),
        anchor("1st"),
        anchor("a/b"),
        to("a/b"),
        anchor("ok"),
    ])]);
    let out = xhtml(&doc); // checked: DTD-invalid only for the repeat, well-formed, polyglot
    assert!(
        out.text.contains("<a href=\"#_1st\">to</a>"),
        "{}",
        out.text
    );
    assert!(out.text.contains("<a name=\"_1st\" id=\"_1st\">1st</a>"));
    assert!(out.text.contains("<a name=\"a_2Fb\" id=\"a_2Fb\">a/b</a>"));
    assert!(out.text.contains("<a href=\"#a_2Fb\">to</a>"));
    let codes: Vec<_> = out.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(
        codes,
        [
            Code::AnchorRenamed,
            Code::AnchorRenamed,
            Code::InvalidAnchor
        ]
    );
}

#[test]
fn empty_lists_are_left_out() {
    let doc = body(vec![
        Block::list(ListKind::Unordered, vec![]),
        Block::definition_list(false, vec![DefItem::new(vec![], vec![])]),
        Block::paragraph(vec![t("x")]),
    ]);
    let out = xhtml(&doc);
    assert_eq!(body_of(&out), "<p>x</p>\n");
    assert_eq!(out.diagnostics.len(), 2);
}

#[test]
fn bad_heading_levels_are_clamped() {
    let doc = body(vec![
        Block::heading(0, vec![t("a")]),
        Block::heading(9, vec![t("b")]),
    ]);
    let out = xhtml(&doc);
    assert_eq!(body_of(&out), "<h1>a</h1>\n<h6>b</h6>\n");
    assert_eq!(out.diagnostics.len(), 2);
}

#[test]
fn a_leading_empty_pre_line_is_reported() {
    let doc = body(vec![Block::preformatted(vec![vec![], vec![t("x")]])]);
    let out = xhtml(&doc); // checked: the parsers must disagree
    assert_eq!(out.diagnostics[0].code, Code::LeadingNewlineInPre);
    assert!(out.diagnostics[0].code.breaks_polyglot());
    // The HTML syntax can say it: the serializer doubles the newline.
    let html = checked(
        &doc,
        &EmitOptions {
            syntax: Syntax::Html {
                omit_optional_tags: false,
            },
            ..EmitOptions::default()
        },
    );
    assert!(html.diagnostics.is_empty());
    assert!(html.text.contains("<pre>\n\nx</pre>"), "{}", html.text);
    let Some(support::Tree::Element(_, _, _, body)) = [support::html_tree(&html.text)]
        .into_iter()
        .flat_map(|t| match t {
            support::Tree::Element(_, _, _, kids) => kids,
            support::Tree::Text(_) => vec![],
        })
        .nth(1)
    else {
        panic!("no body")
    };
    assert_eq!(
        body.iter()
            .find(|c| matches!(c, support::Tree::Element(..))),
        Some(&support::Tree::Element(
            "http://www.w3.org/1999/xhtml".into(),
            "pre".into(),
            vec![],
            vec![support::Tree::Text("\nx".into())]
        ))
    );
}

/// `to-html --doctype`: the XHTML 1.0 Transitional DOCTYPE before the
/// document, which stays the same, DTD-valid, and which an HTML parser
/// then reads in limited-quirks mode (a browser's "almost standards"),
/// not quirks.
#[test]
fn the_doctype_is_written_when_asked() {
    use html5ever::tree_builder::QuirksMode;
    let plain = xhtml(&sample());
    let opts = EmitOptions {
        doctype: true,
        ..EmitOptions::default()
    };
    let with = checked(&sample(), &opts);
    assert_eq!(
        with.text,
        format!(
            "<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0 Transitional//EN\" \
             \"http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd\">\n{}",
            plain.text
        )
    );
    assert_eq!(support::html_mode(&plain.text), QuirksMode::Quirks);
    assert_eq!(support::html_mode(&with.text), QuirksMode::LimitedQuirks);
    // In another encoding the XML declaration comes first.
    let latin = EmitOptions {
        encoding: htmlio::encoding_rs::WINDOWS_1252,
        doctype: true,
        ..EmitOptions::default()
    };
    let out = checked(&sample(), &latin);
    assert!(
        out.text.starts_with(
            "<?xml version=\"1.0\" encoding=\"windows-1252\"?>\n<!DOCTYPE html PUBLIC"
        )
    );
    // The HTML syntax has its own, whatever the option says.
    let html = EmitOptions {
        syntax: Syntax::Html {
            omit_optional_tags: false,
        },
        doctype: true,
        ..EmitOptions::default()
    };
    assert!(
        emit::emit(&sample(), &html)
            .text
            .starts_with("<!DOCTYPE html>\n")
    );
}

/// A table's first rows of header cells go in a `thead`, when rows are
/// left for the `tbody` and no header cell spans into them; and a page's
/// `thead` comes back as one through the text.
#[test]
fn leading_header_rows_are_the_table_s_head() {
    let emitted = |text: &str| {
        let doc = wikitext::parse(&format!("#Extend table\n\n{text}")).document;
        let out = checked(&doc, &EmitOptions::default());
        body_of(&out).to_owned()
    };
    let head = emitted("|= a |= b |\n|= c |= d |\n| 1 | 2 |\n");
    assert!(
        head.starts_with("<table>\n<thead>\n<tr><th>a</th><th>b</th></tr>\n<tr><th>c</th><th>d</th></tr>\n</thead>\n<tbody>\n<tr><td>1</td>"),
        "{head}"
    );
    // Only header rows: the DTD wants a body, so there is no head.
    let all = emitted("|= a |= b |\n|= c |= d |\n");
    assert!(!all.contains("thead") && all.contains("<tbody>"), "{all}");
    // A header cell that spans into the body keeps the rows together.
    let spans = emitted("|= a |= b |\n| ^ | 2 |\n");
    assert!(!spans.contains("thead"), "{spans}");
    // A header row that is not the first is not a head.
    let later = emitted("| 1 | 2 |\n|= a |= b |\n");
    assert!(!later.contains("thead"), "{later}");
    // From a page and back.
    let page = b"<table><thead><tr><th>x</th><th>y</th></tr></thead><tbody><tr><td>1</td><td>2</td></tr></tbody></table>";
    let text = htmlio::to_text(page, &Default::default()).text;
    let back = htmlio::to_xhtml(&text, &EmitOptions::default())
        .emitted
        .text;
    assert!(
        back.contains("<thead>\n<tr><th>x</th><th>y</th></tr>\n</thead>"),
        "{back}"
    );
    assert_eq!(
        htmlio::to_text(back.as_bytes(), &Default::default()).text,
        text
    );
}

#[test]
fn the_checks_catch_what_they_should() {
    // Not polyglot: an HTML parser closes the p before the div.
    let p_div = "<html xmlns=\"http://www.w3.org/1999/xhtml\"><head><title>t</title></head>\
                 <body><p><div>x</div></p></body></html>";
    assert_ne!(support::xml_tree(p_div), support::html_tree(p_div));
    // Not polyglot: `<title/>` leaves the title open in HTML.
    let title = "<html xmlns=\"http://www.w3.org/1999/xhtml\"><head><title/></head><body><p>x</p></body></html>";
    assert_ne!(support::xml_tree(title), support::html_tree(title));
    // Not DTD-valid: a list without items.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad.xhtml");
    std::fs::write(
        &file,
        "<html xmlns=\"http://www.w3.org/1999/xhtml\"><head><title>t</title></head><body><ul></ul></body></html>",
    )
    .unwrap();
    if support::dtd_check_available() {
        assert!(support::dtd_errors(&[&file]).is_some());
    }
}

#[test]
fn the_xml_check_rejects_broken_markup() {
    let broken = support::try_xml_tree("<html><p>x</html>");
    assert!(
        matches!(&broken, Err(e) if e.starts_with("not well-formed XML: ")),
        "{broken:?}"
    );
    assert!(support::try_xml_tree("<html><p>x</p></html>").is_ok());
}

#[test]
fn deep_documents_emit_without_recursion() {
    // Deeper than any parsed document (wikitext::MAX_DEPTH), as HTML
    // ingestion of hostile input might build before flattening.
    let mut block = Block::paragraph(vec![t("deep")]);
    for _ in 0..20_000 {
        block = Block::blockquote(vec![block]);
    }
    let doc = body(vec![block]);
    let out = emit::xhtml(&doc);
    assert_eq!(out.text.matches("<blockquote>").count(), 20_000);
    // Take the deep tree apart by hand: the derived Drop would recurse.
    let mut doc = doc;
    let mut stack = std::mem::take(&mut doc.body);
    while let Some(b) = stack.pop() {
        if let Block::Blockquote { content, .. } = b {
            stack.extend(content);
        }
    }
}

/// The body of `text` emitted with `--tables` (checked valid), after
/// checking that reading that XHTML back gives the same text.
fn tables_body(text: &str) -> String {
    let doc = wikitext::parse(text).document;
    let opts = EmitOptions {
        tables: true,
        ..EmitOptions::default()
    };
    let out = checked(&doc, &opts);
    // Read back as pure seed text: the emulated table again (with the
    // extensions it is a table of `#Extend table`).
    let seed = htmlio::ingest::Options {
        extensions: false,
        ..Default::default()
    };
    let back = htmlio::ingest::ingest_str(&out.text, &seed);
    assert_eq!(
        wikitext::write_with(back.document, &htmlio::ingest::POLICY).text,
        wikitext::write(&doc).text
    );
    body_of(&out).to_owned()
}

/// Seed 000's own emulated table ("An indented emulated simple table
/// follows"), with its two empty cells 2.2 and 3.3 written `::`, is a 3 x 4
/// table under `--tables`; read back, it is the same document.
#[test]
fn the_seeds_emulated_table_with_empty_cells_is_a_table() {
    let text = "\nAn indented emulated simple table follows:\n\n::\n    1.1   1.2   1.3   1.4\n    \
                2.1   ::    2.3   2.4\n    3.1   3.2   ::    3.4\n";
    let body = tables_body(text);
    let rows: Vec<Vec<&str>> = body
        .split("<tr>")
        .skip(1)
        .map(|row| {
            row.split("</tr>")
                .next()
                .unwrap_or_default()
                .split("<td>")
                .skip(1)
                .map(|cell| cell.split("</td>").next().unwrap_or_default())
                .collect()
        })
        .collect();
    assert_eq!(
        rows,
        [
            ["1.1", "1.2", "1.3", "1.4"],
            ["2.1", "", "2.3", "2.4"],
            ["3.1", "3.2", "", "3.4"],
        ],
        "{body}"
    );
    assert_eq!(body.matches("<table>").count(), 1, "{body}");
}

/// A first row whose cells are strong or empty (an empty corner) is the
/// table's header.
#[test]
fn an_empty_corner_cell_keeps_the_header() {
    let text = "\n::   *A*   *B*\nx   1   2\ny   3   4\n";
    let body = tables_body(text);
    assert!(
        body.starts_with("<table>\n<thead>\n<tr><th></th>\n<th>A</th>\n<th>B</th>"),
        "{body}"
    );
}

/// `to-html --tables`: a compact definition list with the shape
/// of a regular grid is a `<table>` (valid, checked by `checked`), a first
/// row of strong cells its header; reading it back gives the same document.
/// Lists that are not grids stay lists.
#[test]
fn grid_shaped_compact_lists_are_tables_when_asked() {
    let text =
        "\n*Name*   *Size*   *Kind*\na.txt   12   text\n_b_.png   3400   image\n\nx\n\nt   d\n";
    let doc = wikitext::parse(text).document;
    let opts = EmitOptions {
        tables: true,
        ..EmitOptions::default()
    };
    let out = checked(&doc, &opts);
    let body = body_of(&out);
    assert!(
        body.starts_with("<table>\n<thead>\n<tr><th>Name</th>\n<th>Size</th>"),
        "{body}"
    );
    assert!(
        body.contains("<tr><td><em>b</em>.png</td>\n<td>3400</td>"),
        "{body}"
    );
    assert!(
        body.contains("<p>x</p>\n<table>\n<tbody>\n<tr><td>t</td>\n<td>d</td>"),
        "{body}"
    );
    // Read back as pure seed text: the emulated table again (with the
    // extensions it is a table of `#Extend table`).
    let seed = htmlio::ingest::Options {
        extensions: false,
        ..Default::default()
    };
    let back = htmlio::ingest::ingest_str(&out.text, &seed);
    assert_eq!(
        wikitext::write_with(back.document, &htmlio::ingest::POLICY).text,
        wikitext::write(&doc).text
    );
    // Without the option: the seed's nested lists.
    assert!(!xhtml(&doc).text.contains("<table>"));
    // Not grids: rows of different lengths, a cell of two lines, a plain
    // (not compact) list, a column without any text (definitions without
    // terms).
    for text in [
        "\na   b   c\nd   e\n",
        "\na   b\n    more\n",
        "\nterm::\n  definition\n",
        "\n::   x\n::   y\n",
    ] {
        let doc = wikitext::parse(text).document;
        let out = checked(&doc, &opts);
        assert!(!out.text.contains("<table>"), "{text:?}\n{}", out.text);
        assert_eq!(out.text, xhtml(&doc).text, "{text:?}");
    }
}

/// A row that the cells above cover entirely (`| ^ | ^ |`) cannot be an
/// XHTML 1.0 `tr` (it would hold no cell): it is left out, and the cells
/// that reached into it span one row less, so the row below keeps its
/// place.
#[test]
fn a_row_covered_from_above_is_left_out_and_its_spans_shortened() {
    let doc = wikitext::parse(
        "#Extend table\n\n| a | b | c |\n| ^ | ^ | d |\n| ^ | ^ |\n| e | f | g |\n",
    )
    .document;
    let out = xhtml(&doc);
    let rows: Vec<&str> = body_of(&out)
        .lines()
        .filter(|l| l.starts_with("<tr>"))
        .collect();
    assert_eq!(
        rows,
        [
            r#"<tr><td rowspan="2">a</td><td rowspan="2">b</td><td>c</td></tr>"#,
            "<tr><td>d</td></tr>",
            "<tr><td>e</td><td>f</td><td>g</td></tr>",
        ]
    );
}
