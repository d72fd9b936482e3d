//! The HTML syntax serializer on the examples of seed 003 and the reference's
//! optional-tag section, then on our own cases.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

use htmlio::serialize::{
    self, AttrQuoting, Attribute, Doctype, Element, HtmlOptions, Namespace, Node, QuoteChar,
    StartTag, Token,
};

fn omit() -> HtmlOptions {
    HtmlOptions {
        omit_optional_tags: true,
        ..HtmlOptions::default()
    }
}

/// The reference's running example: `<!DOCTYPE html>` then html, head with a
/// title, body with one paragraph, with `ws` between the elements.
fn hello(
    html_attrs: Vec<Attribute<'static>>,
    body_attrs: Vec<Attribute<'static>>,
) -> Vec<Token<'static>> {
    vec![
        Token::Doctype(Doctype::html()),
        Token::start_with("html", html_attrs),
        Token::start("head"),
        Token::start("title"),
        Token::text("Hello"),
        Token::end("title"),
        Token::end("head"),
        Token::start_with("body", body_attrs),
        Token::start("p"),
        Token::text("Welcome to this example."),
        Token::end("p"),
        Token::end("body"),
        Token::end("html"),
    ]
}

#[test]
fn reference_example_all_optional_tags_removed() {
    // Reference §"Optional tags": "Then we can omit a number of tags without
    // affecting the DOM".
    assert_eq!(
        serialize::html(hello(vec![], vec![]), &omit()),
        "<!DOCTYPE html><title>Hello</title><p>Welcome to this example."
    );
    // And without omission, every tag is there.
    assert_eq!(
        serialize::html(hello(vec![], vec![]), &HtmlOptions::default()),
        "<!DOCTYPE html><html><head><title>Hello</title></head><body><p>Welcome to this example.</p></body></html>"
    );
}

#[test]
fn reference_example_start_tags_with_attributes_stay() {
    // Reference: "a start tag must never be omitted if it has any attributes".
    assert_eq!(
        serialize::html(
            hello(
                vec![Attribute::new("lang", "en")],
                vec![Attribute::new("class", "demo")]
            ),
            &omit()
        ),
        r#"<!DOCTYPE html><html lang="en"><title>Hello</title><body class="demo"><p>Welcome to this example."#
    );
}

#[test]
fn reference_example_white_space_keeps_head_and_body_tags() {
    // Reference: "the head element start and end tags, and the body element
    // start tag, can't be omitted, because they are surrounded by white space".
    let t = |s: &'static str| Token::text(s);
    let tokens = vec![
        Token::Doctype(Doctype::html()),
        t("\n"),
        Token::start("html"),
        t("\n  "),
        Token::start("head"),
        t("\n    "),
        Token::start("title"),
        t("Hello"),
        Token::end("title"),
        t("\n  "),
        Token::end("head"),
        t("\n  "),
        Token::start("body"),
        t("\n    "),
        Token::start("p"),
        t("Welcome to this example."),
        Token::end("p"),
        t("\n  "),
        Token::end("body"),
        t("\n"),
        Token::end("html"),
    ];
    // `</p>` stays (text follows it), `</body>` stays before white space
    // (allowed to go, but we keep it there), `</html>` goes at the end.
    let out = serialize::html(tokens, &omit());
    assert_eq!(
        out,
        "<!DOCTYPE html>\n<html>\n  <head>\n    <title>Hello</title>\n  </head>\n  <body>\n    <p>Welcome to this example.</p>\n  </body>\n"
    );
}

#[test]
fn html_start_tag_stays_before_a_comment() {
    // Seed 003: the html start tag may be omitted only if the first thing
    // inside is not a comment.
    let tokens = vec![
        Token::start("html"),
        Token::comment(" where is this comment in the DOM? "),
        Token::start("head"),
        Token::end("head"),
        Token::end("html"),
    ];
    assert_eq!(
        serialize::html(tokens, &omit()),
        "<html><!-- where is this comment in the DOM? -->"
    );
}

#[test]
fn reference_table_example_terse_form() {
    // Reference: the table whose tags can mostly go (a shortened version).
    let mut tokens = vec![
        Token::start("table"),
        Token::start("caption"),
        Token::text("37547 TEE"),
        Token::end("caption"),
        Token::start("colgroup"),
        Token::start("col"),
        Token::start("col"),
        Token::end("colgroup"),
        Token::start("thead"),
        Token::start("tr"),
    ];
    for h in ["Function", "Control Unit"] {
        tokens.extend([Token::start("th"), Token::text(h), Token::end("th")]);
    }
    tokens.extend([Token::end("tr"), Token::end("thead"), Token::start("tbody")]);
    for row in [["Headlights", "✔"], ["Interior Lights", "✔"]] {
        tokens.push(Token::start("tr"));
        for c in row {
            tokens.extend([Token::start("td"), Token::text(c), Token::end("td")]);
        }
        tokens.push(Token::end("tr"));
    }
    tokens.extend([Token::end("tbody"), Token::end("table")]);
    assert_eq!(
        serialize::html(tokens, &omit()),
        "<table><caption>37547 TEE<col><col><thead><tr><th>Function<th>Control Unit<tbody><tr><td>Headlights<td>✔<tr><td>Interior Lights<td>✔</table>"
    );
}

#[test]
fn p_end_tag_stays_inside_a_and_custom_elements() {
    for parent in ["a", "video", "my-widget"] {
        let tokens = vec![
            Token::start(parent),
            Token::start("p"),
            Token::text("x"),
            Token::end("p"),
            Token::end(parent),
        ];
        assert_eq!(
            serialize::html(tokens, &omit()),
            format!("<{parent}><p>x</p></{parent}>")
        );
    }
    let tokens = vec![
        Token::start("div"),
        Token::start("p"),
        Token::text("x"),
        Token::end("p"),
        Token::end("div"),
    ];
    assert_eq!(serialize::html(tokens, &omit()), "<div><p>x</div>");
}

#[test]
fn leading_newline_of_pre_and_textarea_is_doubled() {
    // Reference §"Restrictions on content models": the optional newline must
    // be written when the content starts with a newline.
    for name in ["pre", "textarea"] {
        let tokens = vec![Token::start(name), Token::text("\nx"), Token::end(name)];
        assert_eq!(
            serialize::html(tokens, &HtmlOptions::default()),
            format!("<{name}>\n\nx</{name}>")
        );
    }
    let tokens = vec![Token::start("pre"), Token::text("x\n"), Token::end("pre")];
    assert_eq!(
        serialize::html(tokens, &HtmlOptions::default()),
        "<pre>x\n</pre>"
    );
}

#[test]
fn raw_and_escapable_raw_text() {
    let tokens = vec![
        Token::start("script"),
        Token::text("if (a < b && c) {}"),
        Token::end("script"),
        Token::start("title"),
        Token::text("a < b && c"),
        Token::end("title"),
    ];
    assert_eq!(
        serialize::html(tokens, &HtmlOptions::default()),
        "<script>if (a < b && c) {}</script><title>a &lt; b &amp;&amp; c</title>"
    );
}

#[test]
fn void_elements_have_no_end_tag() {
    let tokens = vec![
        Token::start("br"),
        Token::end("br"),
        Token::start_with("img", vec![Attribute::new("alt", "")]),
        Token::end("img"),
    ];
    assert_eq!(
        serialize::html(tokens.clone(), &HtmlOptions::default()),
        r#"<br><img alt="">"#
    );
    let solidus = HtmlOptions {
        trailing_solidus: true,
        ..HtmlOptions::default()
    };
    assert_eq!(serialize::html(tokens, &solidus), r#"<br /><img alt="" />"#);
}

#[test]
fn foreign_elements_may_self_close() {
    let doc = [Node::Element(Element {
        name: "svg".into(),
        namespace: Namespace::Svg,
        attributes: vec![],
        children: vec![Node::Element(Element {
            name: "circle".into(),
            namespace: Namespace::Svg,
            attributes: vec![Attribute::new("r", "1")],
            children: vec![],
        })],
    })];
    assert_eq!(
        serialize::html(serialize::tokens(&doc), &HtmlOptions::default()),
        r#"<svg><circle r="1" /></svg>"#
    );
    assert_eq!(
        serialize::xhtml(serialize::tokens(&doc)),
        r#"<svg><circle r="1" /></svg>"#
    );
}

fn attr(value: &str, quoting: AttrQuoting, quote_char: QuoteChar) -> String {
    let opts = HtmlOptions {
        quoting,
        quote_char,
        ..HtmlOptions::default()
    };
    let tag = Token::StartTag(StartTag {
        name: "a".into(),
        namespace: Namespace::Html,
        attributes: vec![Attribute::new("t", value.to_owned())],
        self_closing: false,
    });
    let out = serialize::html([tag], &opts);
    out.strip_prefix("<a t=")
        .and_then(|s| s.strip_suffix('>'))
        .unwrap_or(&out)
        .to_owned()
}

#[test]
fn attribute_value_syntaxes() {
    use AttrQuoting::*;
    use QuoteChar::*;
    // Seed 003 §"Attributes": the unquoted syntax cannot hold space
    // characters, quotes, `=`, `<`, `>` or `` ` `` literally, nor be empty.
    assert_eq!(attr("foo", WhenPossible, Best), "foo");
    assert_eq!(attr("", WhenPossible, Best), r#""""#);
    assert_eq!(attr("a b", WhenPossible, Best), r#""a b""#);
    assert_eq!(attr("a`b", WhenPossible, Best), r#""a`b""#);
    assert_eq!(attr("a<b", WhenPossible, Best), "a&lt;b");
    // The quoted syntaxes cannot hold their own quote.
    assert_eq!(attr(r#"a"b"#, Always, Double), r#""a&quot;b""#);
    assert_eq!(attr(r#"a"b"#, Always, Best), r#"'a"b'"#);
    assert_eq!(attr("a'b", Always, Single), "'a&#39;b'");
    assert_eq!(attr("a&b", Always, Double), r#""a&amp;b""#);
}

#[test]
fn shortest_attribute_syntax() {
    use AttrQuoting::Shortest;
    let s = |v| attr(v, Shortest, QuoteChar::Double);
    assert_eq!(s("foo"), "foo");
    assert_eq!(s("a b"), r#""a b""#);
    assert_eq!(s(r#"say "hi""#), r#"'say "hi"'"#);
    assert_eq!(s(r#"it's "x""#), r#"'it&#39;s "x"'"#);
    assert_eq!(s(r#"it's "x" 'y'"#), r#""it's &quot;x&quot; 'y'""#);
    assert_eq!(s(""), r#""""#);
    // `&` only where it could start a reference; `>` and `<` are fine quoted.
    assert_eq!(s("a & b <c>"), r#""a & b <c>""#);
    assert_eq!(s("?a=1&b=2"), r#""?a=1&amp;b=2""#);
    assert_eq!(s("x&y"), "x&amp;y");
}

#[test]
fn boolean_attributes_minimized_on_request() {
    let tokens = vec![Token::start_with(
        "dl",
        vec![Attribute::new("compact", "compact")],
    )];
    let opts = HtmlOptions {
        minimize_boolean_attributes: true,
        ..HtmlOptions::default()
    };
    assert_eq!(serialize::html(tokens.clone(), &opts), "<dl compact>");
    assert_eq!(
        serialize::html(tokens, &HtmlOptions::default()),
        r#"<dl compact="compact">"#
    );
}

#[test]
fn layout_is_looked_through_and_leaves_no_blank_lines() {
    let nl = || Token::layout("\n");
    let tokens = vec![
        Token::start("html"),
        nl(),
        Token::start("body"),
        nl(),
        Token::start("ul"),
        nl(),
        Token::start("li"),
        Token::text("a"),
        Token::end("li"),
        nl(),
        Token::start("li"),
        Token::text("b"),
        Token::end("li"),
        nl(),
        Token::end("ul"),
        nl(),
        Token::end("body"),
        nl(),
        Token::end("html"),
        nl(),
    ];
    assert_eq!(
        serialize::html(tokens, &omit()),
        "<ul>\n<li>a\n<li>b\n</ul>\n"
    );
}

#[test]
fn inject_meta_charset_goes_first_in_head() {
    let opts = HtmlOptions {
        inject_meta_charset: Some("windows-1252".into()),
        ..HtmlOptions::default()
    };
    let tokens = vec![
        Token::start("head"),
        Token::start("title"),
        Token::text("t"),
        Token::end("title"),
        Token::end("head"),
    ];
    assert_eq!(
        serialize::html(tokens, &opts),
        r#"<head><meta charset="windows-1252"><title>t</title></head>"#
    );
}

#[test]
fn deep_trees_serialize_without_recursion() {
    let mut tokens = Vec::new();
    for _ in 0..50_000 {
        tokens.push(Token::start("span"));
    }
    tokens.push(Token::text("x"));
    for _ in 0..50_000 {
        tokens.push(Token::end("span"));
    }
    let out = serialize::html(tokens, &omit());
    assert_eq!(out.len(), 50_000 * "<span></span>".len() + 1);
}

#[test]
fn stray_end_tags_under_deep_nesting_stay_linear() {
    // 50 000 open elements, then 50 000 end tags that close nothing: each
    // must not scan the stack.
    let mut tokens = Vec::new();
    for _ in 0..50_000 {
        tokens.push(Token::start("span"));
    }
    for _ in 0..50_000 {
        tokens.push(Token::end("b"));
    }
    let started = std::time::Instant::now();
    let out = serialize::html(tokens, &HtmlOptions::default());
    assert_eq!(out.len(), 50_000 * ("<span>".len() + "</b>".len()));
    assert!(
        started.elapsed().as_secs() < 5,
        "took {:?}",
        started.elapsed()
    );
}
