//! Tests of the inline pass (`inline.rs`).

use super::*;
use crate::model::Inline as I;

fn parse(text: &str) -> Vec<Inline> {
    parse_inlines(text, Places::From(1, 1), Mode::Normal, Syntax::SEED)
}

fn t(s: &str) -> Inline {
    I::text(s)
}

#[track_caller]
fn check(input: &str, expect: Vec<Inline>) {
    assert_eq!(parse(input), expect, "input: {input:?}");
}

#[track_caller]
fn plain(input: &str) {
    check(input, vec![t(input)]);
}

#[test]
fn seed_examples() {
    check(
        "_emphasis_ and *strong emphasis*",
        vec![
            I::emphasis(vec![t("emphasis")]),
            t(" and "),
            I::strong(vec![t("strong emphasis")]),
        ],
    );
    check("'sample text'", vec![I::code(vec![t("sample text")])]);
    check(
        "[internal://admin/editpage||Link to EditPage]",
        vec![I::link(
            Some("internal://admin/editpage".into()),
            None,
            vec![t("Link to EditPage")],
        )],
    );
    check(
        "[|inline|Inline Markup]",
        vec![I::link(
            None,
            Some("inline".into()),
            vec![t("Inline Markup")],
        )],
    );
}

#[test]
fn seed_counter_examples_rule_3() {
    plain("I'm right, aren't I?");
    plain("1*2+3*4");
    plain("HTTP_USER_AGENT");
}

#[test]
fn same_character_prefix_and_suffix() {
    check(
        "***A strongly emphasized text that includes two stars on both sides.***",
        vec![I::strong(vec![t(
            "**A strongly emphasized text that includes two stars on both sides.**",
        )])],
    );
    // Only runs of the same character count: `__x__` inside is processed.
    check(
        "*__x__*",
        vec![I::strong(vec![I::emphasis(vec![t("_x_")])])],
    );
    // The prefix and suffix are not processed again.
    check(
        "__*x*__",
        vec![I::emphasis(vec![t("_"), I::strong(vec![t("x")]), t("_")])],
    );
}

#[test]
fn rule_1_empty_link_text_is_replaced() {
    check(
        "[http://www.aksware.de/||]",
        vec![I::link(
            Some("http://www.aksware.de/".into()),
            None,
            vec![t("http://www.aksware.de/")],
        )],
    );
    check(
        "[|top|]",
        vec![I::link(None, Some("top".into()), vec![t("top")])],
    );
    check(
        "[u|f|]",
        vec![I::link(Some("u".into()), Some("f".into()), vec![t("u")])],
    );
    plain("__");
    plain("''");
    plain("[||x]");
}

#[test]
fn rule_2_no_white_space_inside_edges() {
    plain("_ x_");
    plain("_x _");
    plain("* x *");
    plain("[u|| x]");
    plain("[u||x ]");
    check("a _b_ c", vec![t("a "), I::emphasis(vec![t("b")]), t(" c")]);
}

#[test]
fn rule_3_sides() {
    check("(_x_)", vec![t("("), I::emphasis(vec![t("x")]), t(")")]);
    check("\"*x*\".", vec![t("\""), I::strong(vec![t("x")]), t("\".")]);
    plain("a_x_");
    plain("_x_a");
    plain("x[u||y]");
    plain("[u||y]x");
    plain("x<a@b.de>");
    // Non-ASCII letters are not side characters either.
    plain("é_x_");
    check(
        "\u{3000}_x_",
        vec![t("\u{3000}"), I::emphasis(vec![t("x")])],
    );
}

#[test]
fn rule_4_nested_brackets() {
    check(
        "[refs.html#html||[HTML]]",
        vec![I::link(
            Some("refs.html#html".into()),
            None,
            vec![t("[HTML]")],
        )],
    );
    check(
        "[u||a [b [c]] d]",
        vec![I::link(Some("u".into()), None, vec![t("a [b [c]] d")])],
    );
    // Unbalanced: no end.
    plain("[u||a [b]");
}

#[test]
fn rule_5_email() {
    check(
        "mail <no_reply@aksware.de> now",
        vec![t("mail "), I::email("no_reply@aksware.de"), t(" now")],
    );
    plain("<a@localhost>");
    plain("<a@b_c.de>");
    plain("<a+b@c.de>");
}

#[test]
fn url_and_fragment_restrictions() {
    plain("[a b||x]");
    plain("[a{b||x]");
    plain("[a\"b||x]");
    plain("[a<b||x]");
    plain("[|a b|x]");
    check(
        "[#sec|sec|Section]",
        vec![I::link(
            Some("#sec".into()),
            Some("sec".into()),
            vec![t("Section")],
        )],
    );
}

#[test]
fn no_links_or_email_in_link_text() {
    check(
        "[u||see [v||w] <a@b.de>]",
        vec![I::link(
            Some("u".into()),
            None,
            vec![t("see [v||w] <a@b.de>")],
        )],
    );
    // Emphasis is still recognised in link text.
    check(
        "[u||an _emphasized_ word]",
        vec![I::link(
            Some("u".into()),
            None,
            vec![t("an "), I::emphasis(vec![t("emphasized")]), t(" word")],
        )],
    );
}

#[test]
fn middle_is_processed_again() {
    check(
        "*a _b_ c*",
        vec![I::strong(vec![t("a "), I::emphasis(vec![t("b")]), t(" c")])],
    );
    check(
        "'x [u||y]'",
        vec![I::code(vec![
            t("x "),
            I::link(Some("u".into()), None, vec![t("y")]),
        ])],
    );
}

#[test]
fn start_without_end_is_skipped() {
    plain("_a b");
    plain("a * b");
    plain("'tis");
    check("x* *y*", vec![t("x* "), I::strong(vec![t("y")])]);
}

#[test]
fn first_valid_end_wins() {
    check("*a *b* c*", vec![I::strong(vec![t("a *b")]), t(" c*")]);
    // An end run preceded by white space is not an end.
    check("_a _b_", vec![I::emphasis(vec![t("a _b")])]);
}

#[test]
fn line_breaks_count_as_white_space() {
    check(
        "_a\nb_",
        vec![I::emphasis(vec![t("a"), I::line_break(), t("b")])],
    );
    plain_lines("_\nx_");
    check(
        "x\n_y_",
        vec![t("x"), I::line_break(), I::emphasis(vec![t("y")])],
    );
}

#[track_caller]
fn plain_lines(input: &str) {
    let mut expect = Vec::new();
    crate::model::push_text(&mut expect, input, Pos::UNKNOWN);
    check(input, expect);
}

#[test]
fn preformatted_mode() {
    assert_eq!(
        parse_inlines(
            "'x' <a@b.de> _y_",
            Places::From(1, 1),
            Mode::Preformatted,
            Syntax::SEED
        ),
        vec![t("'x' <a@b.de> "), I::emphasis(vec![t("y")])]
    );
}

/// Events of `pieces` read in place, with their positions.
fn in_place(pieces: &[Piece<'_>], mode: Mode, syntax: Syntax) -> Vec<(String, Pos)> {
    let mut events = Vec::new();
    inline_events(pieces, Places::Pieces, mode, syntax, &mut events);
    events
        .into_iter()
        .map(|(event, pos)| (format!("{event:?}"), pos))
        .collect()
}

#[test]
fn extra_indentation_comes_before_the_line() {
    // A line of preformatted text indented three more spaces than its
    // block: the spaces are text at the line's place.
    let pieces = [Piece {
        text: "a _b_",
        offset: 3,
        line: 7,
        col: 2,
    }];
    let events = in_place(&pieces, Mode::Preformatted, Syntax::SEED);
    assert_eq!(events[0].0, format!("{:?}", Event::Text("   a ".into())));
    assert!(events[0].1.same_place(&Pos::new(7, 2)), "{events:?}");
    assert!(events[1].1.same_place(&Pos::new(7, 4)), "{events:?}");
}

#[test]
fn lines_read_in_place_as_if_joined() {
    // Escapes, a link and emphasis across the line feeds of three
    // lines: the same events as the joined text, each line's text
    // at its own place.
    let escapes = Syntax::SEED.escaping(true);
    let lines = ["_a \\_ b", "c_ [u||x", "y] \\_z_ é *w*"];
    let mut pieces = Vec::new();
    let mut offset = 0;
    for (n, text) in (10..).zip(lines) {
        pieces.push(Piece {
            text,
            offset,
            line: n,
            col: 3,
        });
        offset += text.len() + 1;
    }
    let joined = lines.join("\n");
    let mut expect = Vec::new();
    text_events(&joined, Places::Unknown, Mode::Normal, escapes, &mut expect);
    let events = in_place(&pieces, Mode::Normal, escapes);
    let kinds: Vec<&str> = events.iter().map(|(e, _)| e.as_str()).collect();
    let expect: Vec<String> = expect.iter().map(|(e, _)| format!("{e:?}")).collect();
    assert_eq!(kinds, expect);
    assert!(kinds.len() > 8, "{events:?}");
    let strong = events
        .iter()
        .find(|(e, _)| e.contains("Strong"))
        .map(|(_, pos)| *pos);
    // `*w*` is on line 12 after `y] \_z_ é ` (11 characters).
    assert!(
        strong.is_some_and(|pos| pos.same_place(&Pos::new(12, 13))),
        "{events:?}"
    );
}

#[test]
fn positions() {
    let pieces = [
        Piece {
            text: "ab _c",
            offset: 0,
            line: 3,
            col: 5,
        },
        Piece {
            text: "d_ é *e*",
            offset: 6,
            line: 4,
            col: 3,
        },
    ];
    let mut events = Vec::new();
    inline_events(
        &pieces,
        Places::Pieces,
        Mode::Normal,
        Syntax::SEED,
        &mut events,
    );
    let out = inlines_from_events(events);
    let Inline::Emphasis { pos, content } = &out[1] else {
        panic!("{out:?}")
    };
    assert!(pos.same_place(&Pos::new(3, 8)), "{pos:?}");
    assert!(content[2].pos().same_place(&Pos::new(4, 3)), "{content:?}");
    let Inline::Strong { pos, .. } = &out[3] else {
        panic!("{out:?}")
    };
    assert!(pos.same_place(&Pos::new(4, 8)), "{pos:?}");
}

/// `docs/format.md` section 10: `<br>` is a forced break where `#Extend
/// break` is declared; `^{..}` and `~{..}` are a superscript and a
/// subscript where `#Extend subsup` is.
#[test]
fn forced_breaks_and_scripts_where_declared() {
    let extended = Syntax {
        breaks: true,
        subsup: true,
        ..Syntax::SEED
    };
    let read = |text: &str, syntax| parse_inlines(text, Places::Unknown, Mode::Normal, syntax);
    assert_eq!(
        read("Main St<br>Town", extended),
        vec![t("Main St"), I::hard_break(), t("Town")]
    );
    // Anywhere in the text, beside anything; a line division after it is
    // one of its own.
    assert_eq!(
        read("<br>a <br>\n_b<br>_", extended),
        vec![
            I::hard_break(),
            t("a "),
            I::hard_break(),
            I::line_break(),
            I::emphasis(vec![t("b"), I::hard_break()]),
        ]
    );
    // Only that spelling; an address is still one.
    for text in ["<BR>", "<br/>", "<br >", "<b>"] {
        assert_eq!(read(text, extended), vec![t(text)], "{text}");
    }
    assert_eq!(read("<a@b.de>", extended), vec![I::email("a@b.de")]);
    assert_eq!(
        read("H~{2}O 10^{[#n||6]}", extended),
        vec![
            t("H"),
            I::subscript(vec![t("2")]),
            t("O 10"),
            I::superscript(vec![I::link(Some("#n".into()), None, vec![t("6")])]),
        ]
    );
    // Braces balance; empty content and white space at its edges are text.
    assert_eq!(
        read("a^{b{c}d}", extended),
        vec![t("a"), I::superscript(vec![t("b{c}d")])]
    );
    for text in ["a^{}", "a^{ b}", "a^{b }", "a^{b", "a ^ b"] {
        assert_eq!(read(text, extended), vec![t(text)], "{text}");
    }
    // Undeclared, the same spellings are the seed's text.
    assert_eq!(read("a<br>H~{2}O", Syntax::SEED), vec![t("a<br>H~{2}O")]);
    // Not in preformatted text.
    assert_eq!(
        parse_inlines("x^{2}<br>", Places::Unknown, Mode::Preformatted, extended),
        vec![t("x^{2}<br>")]
    );
}
