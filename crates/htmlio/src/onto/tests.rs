//! Writing a text onto its page: the seed's example page first, then the
//! kinds of edit a person makes, each checked against the exact bytes.

use super::onto;

fn read(page: &[u8]) -> String {
    crate::to_text(page, &Default::default()).text
}

fn save(page: &[u8], text: &str) -> super::Onto {
    onto(page, text, &Default::default())
}

/// The seed's example document (seed 000, "A Simple HTML Document"), with
/// a template around it as a site has.
const PAGE: &str = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n  <meta charset=\"utf-8\">\n  \
<title>A Simple HTML Document</title>\n  <link rel=\"stylesheet\" href=\"site.css\">\n  \
<script>track()</script>\n</head>\n<body class=\"doc\">\n  <nav class=\"menu top\"><a href=\"/\">Home</a></nav>\n  \
<h1 id=\"top\">A Simple HTML Document</h1>\n  <p class=\"lead\" style=\"color: #333\">This HTML document is just an example and is used to\n  \
demonstrate some features such as:</p>\n  <ul class=\"features\">\n    <li>first item</li>\n    <li>second <b>item</b></li>\n  </ul>\n  \
<p>The last paragraph, with a <a class=\"ext\" href=\"https://example.org/\">link</a>.</p>\n  <hr>\n</body>\n</html>\n";

#[test]
fn a_text_not_edited_gives_back_the_page_s_bytes() {
    for page in [
        PAGE.as_bytes().to_vec(),
        b"<p>caf\xe9 <b>cr\xe8me".to_vec(),
        encoding_rs::SHIFT_JIS
            .encode("<meta charset=shift_jis><p>日本語のページ")
            .0
            .into_owned(),
        b"no markup at all".to_vec(),
        Vec::new(),
    ] {
        let text = read(&page);
        let saved = save(&page, &text);
        assert_eq!(saved.bytes, page, "{text}");
        assert!(saved.changes.is_empty() && saved.diagnostics.is_empty());
        // Trailing white space the parser ignores is no edit either.
        assert_eq!(save(&page, &format!("{text}\n\n")).bytes, page);
    }
}

#[test]
fn one_word_changes_only_that_word() {
    let text = read(PAGE.as_bytes());
    let saved = save(PAGE.as_bytes(), &text.replacen("example", "instance", 1));
    assert_eq!(
        String::from_utf8(saved.bytes).unwrap(),
        PAGE.replace("just an example", "just an instance")
    );
    assert_eq!(saved.changes.len(), 1);
    // Only the characters that differ: `exampl` (the `e` stays).
    let c = &saved.changes[0];
    let word = PAGE.find("example").unwrap();
    assert_eq!(c.page, word..word + 6);
    // A word inside a phrase element and one of a link's text.
    let saved = save(
        PAGE.as_bytes(),
        &text
            .replace("second *item*", "second *entry*")
            .replace("|link]", "|site]"),
    );
    let got = String::from_utf8(saved.bytes).unwrap();
    let want = PAGE
        .replace("<b>item</b>", "<b>entry</b>")
        .replace(">link</a>", ">site</a>");
    assert_eq!(got, want, "{text}");
}

#[test]
fn words_added_and_removed_keep_the_markup_around_them() {
    let text = read(PAGE.as_bytes());
    let edited = text.replace("is just an example and", "is an example, and");
    let got = String::from_utf8(save(PAGE.as_bytes(), &edited).bytes).unwrap();
    assert_eq!(
        got,
        PAGE.replace("is just an example and", "is an example, and")
    );
    let edited = text.replace("demonstrate some", "demonstrate a few of the");
    let got = String::from_utf8(save(PAGE.as_bytes(), &edited).bytes).unwrap();
    assert_eq!(
        got,
        PAGE.replace("demonstrate some", "demonstrate a few of the")
    );
}

#[test]
fn an_inserted_paragraph_goes_beside_its_neighbour_and_nothing_else_moves() {
    let text = read(PAGE.as_bytes());
    let edited = text.replace(
        "\n\n  * first item",
        "\n\nA new paragraph & more.\n\n  * first item",
    );
    assert_ne!(edited, text);
    let got = String::from_utf8(save(PAGE.as_bytes(), &edited).bytes).unwrap();
    let want = PAGE.replace(
        "such as:</p>\n",
        "such as:</p>\n  <p>A new paragraph &amp; more.</p>\n",
    );
    assert_eq!(got, want, "{edited}");
}

#[test]
fn new_blocks_take_the_page_s_line_ends_and_preformatted_lines_no_indent() {
    let page = "<body>\r\n  <p>One.</p>\r\n</body>\r\n";
    let text = read(page.as_bytes());
    let edited = text.replace("One.\n", "One.\n\n  a\n    b\n");
    let got = String::from_utf8(save(page.as_bytes(), &edited).bytes).unwrap();
    assert!(
        got.starts_with("<body>\r\n  <p>One.</p>\r\n  <pre>"),
        "{got:?}"
    );
    assert!(got.contains("a\r\n  b"), "{got:?}");
    assert!(!got.contains("\r\n  a"), "{got:?}");
}

#[test]
fn a_deleted_paragraph_takes_its_line_with_it() {
    let text = read(PAGE.as_bytes());
    let start = text.find("The last paragraph").unwrap();
    let end = start + text[start..].find("\n\n").unwrap() + 2;
    let edited = format!("{}{}", &text[..start], &text[end..]);
    let got = String::from_utf8(save(PAGE.as_bytes(), &edited).bytes).unwrap();
    let line = "  <p>The last paragraph, with a <a class=\"ext\" href=\"https://example.org/\">link</a>.</p>\n";
    assert!(PAGE.contains(line));
    assert_eq!(got, PAGE.replace(line, ""), "{edited}");
}

#[test]
fn markup_added_rewrites_inside_the_element_and_keeps_its_start_tag() {
    let text = read(PAGE.as_bytes());
    let edited = text.replace("just an example", "just an *example*");
    let got = String::from_utf8(save(PAGE.as_bytes(), &edited).bytes).unwrap();
    assert!(got.contains("<p class=\"lead\" style=\"color: #333\">This HTML document is just an <strong>example</strong>"), "{got}");
    let before = &PAGE[..PAGE.find("<p class").unwrap()];
    let after = &PAGE[PAGE.find("</p>\n  <ul").unwrap()..];
    assert!(got.starts_with(before) && got.ends_with(after), "{got}");
}

#[test]
fn a_list_is_written_item_by_item() {
    let text = read(PAGE.as_bytes());
    // An item added: one new line, indented as its neighbour.
    let edited = text.replace("  * first item\n", "  * first item\n  * a new item\n");
    assert_ne!(edited, text);
    let got = String::from_utf8(save(PAGE.as_bytes(), &edited).bytes).unwrap();
    assert_eq!(
        got,
        PAGE.replace(
            "<li>first item</li>\n",
            "<li>first item</li>\n    <li>a new item</li>\n"
        ),
        "{edited}"
    );
    // An item removed: its line goes.
    let edited = text.replace("  * first item\n", "");
    let got = String::from_utf8(save(PAGE.as_bytes(), &edited).bytes).unwrap();
    assert_eq!(
        got,
        PAGE.replace("    <li>first item</li>\n", ""),
        "{edited}"
    );
    // An item marked up, and another added before it: each in its place,
    // the list's start tag and class kept.
    let edited = text.replace("  * first item\n", "  * zero\n  * *first* item\n");
    let got = String::from_utf8(save(PAGE.as_bytes(), &edited).bytes).unwrap();
    assert_eq!(
        got,
        PAGE.replace(
            "    <li>first item</li>\n",
            "    <li>zero</li>\n    <li><strong>first</strong> item</li>\n"
        ),
        "{edited}"
    );
}

#[test]
fn a_table_is_written_row_by_row() {
    let page = "<table class=\"t\" border=\"1\">\n  <tr class=\"a\"><td>one</td><td>two</td></tr>\n  <tr class=\"b\"><td>three</td><td>four</td></tr>\n</table>\n";
    let text = read(page.as_bytes());
    assert!(text.contains("| three | four |"), "{text}");
    let edited = text.replace("| three | four |\n", "| three | four |\n| five  | six  |\n");
    let got = String::from_utf8(save(page.as_bytes(), &edited).bytes).unwrap();
    assert_eq!(
        got,
        page.replace(
            "four</td></tr>\n",
            "four</td></tr>\n  <tr><td>five</td><td>six</td></tr>\n"
        ),
        "{edited}"
    );
    let edited = text.replace("| one   | two  |\n", "");
    let got = String::from_utf8(save(page.as_bytes(), &edited).bytes).unwrap();
    assert_eq!(
        got,
        page.replace("  <tr class=\"a\"><td>one</td><td>two</td></tr>\n", ""),
        "{edited}"
    );
}

#[test]
fn the_header_lines_are_written_into_the_head() {
    let text = read(PAGE.as_bytes());
    let edited = text.replacen("#Title A Simple HTML Document", "#Title A <Simple> Page", 1);
    let saved = save(PAGE.as_bytes(), &edited);
    assert_eq!(
        String::from_utf8(saved.bytes).unwrap(),
        PAGE.replacen(
            "<title>A Simple HTML Document</title>",
            "<title>A &lt;Simple&gt; Page</title>",
            1
        )
    );
    // #Lang on <html>.
    let saved = save(PAGE.as_bytes(), &text.replace("#Lang en", "#Lang fr"));
    assert_eq!(
        String::from_utf8(saved.bytes).unwrap(),
        PAGE.replace("<html lang=\"en\">", "<html lang=\"fr\">")
    );
    assert!(saved.diagnostics.is_empty());
    // A #Link: line changed, one removed, a #Meta: line added.
    let link = "#Link:stylesheet site.css";
    assert!(text.contains(link), "{text}");
    let edited = text.replace(link, "#Link:stylesheet other.css");
    let got = String::from_utf8(save(PAGE.as_bytes(), &edited).bytes).unwrap();
    assert_eq!(got, PAGE.replace("href=\"site.css\"", "href=\"other.css\""));
    let edited = text.replace(&format!("{link}\n"), "");
    let got = String::from_utf8(save(PAGE.as_bytes(), &edited).bytes).unwrap();
    assert_eq!(
        got,
        PAGE.replace("  <link rel=\"stylesheet\" href=\"site.css\">\n", "")
    );
    let edited = text.replace(
        link,
        &format!("{link}\n#Meta:description A \"simple\" page"),
    );
    let got = String::from_utf8(save(PAGE.as_bytes(), &edited).bytes).unwrap();
    assert_eq!(
        got,
        PAGE.replace(
            "</head>",
            "<meta name=\"description\" content=\"A &quot;simple&quot; page\">\n</head>"
        )
    );
    // A #Meta: line whose element is not in the page cannot be removed
    // from it: said so.
    let page = "<html><head><title>T</title><meta name=\"author\" content=\"Ann\"></head><body><p>x</p></body></html>";
    let text = read(page.as_bytes());
    assert!(text.contains("#Meta:author Ann"), "{text}");
    let got = save(
        page.as_bytes(),
        &text.replace("#Meta:author Ann", "#Meta:author Bob"),
    );
    assert_eq!(
        String::from_utf8(got.bytes).unwrap(),
        page.replace(
            "<meta name=\"author\" content=\"Ann\">",
            "<meta name=\"author\" content=\"Bob\">"
        )
    );
}

#[test]
fn the_page_keeps_its_charset_and_references_what_it_lacks() {
    let page = b"<meta charset=windows-1252><p class=x>Caf\xe9 cr\xe8me</p><p>Deux \x80</p>";
    let text = read(page);
    let saved = save(page, &text.replace("crème", "crème →"));
    assert_eq!(saved.encoding, encoding_rs::WINDOWS_1252);
    assert_eq!(
        saved.bytes,
        b"<meta charset=windows-1252><p class=x>Caf\xe9 cr\xe8me &#8594;</p><p>Deux \x80</p>"
            .to_vec()
    );
    let page = encoding_rs::SHIFT_JIS
        .encode("<meta charset=shift_jis><p>日本語 です</p><p>二</p>")
        .0
        .into_owned();
    let text = read(&page);
    let saved = save(&page, &text.replace("です", "でした"));
    let want = encoding_rs::SHIFT_JIS
        .encode("<meta charset=shift_jis><p>日本語 でした</p><p>二</p>")
        .0
        .into_owned();
    assert_eq!(saved.bytes, want);
}

#[test]
fn utf_16_and_iso_2022_jp_pages_are_written_in_their_own_encoding() {
    let html = "<html><body><p class=x>Hello wonderful world</p><p>Two</p></body></html>";
    let mut page = vec![0xFF, 0xFE];
    page.extend(html.encode_utf16().flat_map(u16::to_le_bytes));
    let saved = save(&page, &read(&page).replace("wonderful", "marvellous"));
    let mut want = vec![0xFF, 0xFE];
    want.extend(
        html.replace("wonderful", "marvellous")
            .encode_utf16()
            .flat_map(u16::to_le_bytes),
    );
    assert_eq!(saved.bytes, want);
    let html = "<meta charset=iso-2022-jp><p>日本語 wonderful の文</p><p>二</p>";
    let page = encoding_rs::ISO_2022_JP.encode(html).0.into_owned();
    let saved = save(&page, &read(&page).replace("wonderful", "marvellous"));
    let want = encoding_rs::ISO_2022_JP
        .encode(&html.replace("wonderful", "marvellous"))
        .0
        .into_owned();
    assert_eq!(saved.bytes, want);
}

#[test]
fn a_list_item_and_a_heading_edited() {
    let text = read(PAGE.as_bytes());
    let edited = text.replace("first item", "first thing");
    let got = String::from_utf8(save(PAGE.as_bytes(), &edited).bytes).unwrap();
    assert_eq!(got, PAGE.replace("<li>first item", "<li>first thing"));
    // A heading of another level is a new element in place of the old.
    let edited = text.replace(
        "= [|top|A Simple HTML Document] =",
        "== [|top|A Simple HTML Document] ==",
    );
    assert_ne!(edited, text);
    let got = String::from_utf8(save(PAGE.as_bytes(), &edited).bytes).unwrap();
    let h1 = "<h1 id=\"top\">A Simple HTML Document</h1>";
    let (before, after) = PAGE.split_once(h1).unwrap();
    let new = got.strip_prefix(before).and_then(|g| g.strip_suffix(after));
    assert!(
        new.is_some_and(|h| h.starts_with("<h2>") && h.ends_with("</h2>") && h.contains("top")),
        "{got}"
    );
}

#[test]
fn an_xhtml_page_gets_xhtml() {
    let page = "<?xml version=\"1.0\"?>\n<html xmlns=\"http://www.w3.org/1999/xhtml\"><head><title>t</title></head>\n<body>\n<p>One.</p>\n</body></html>\n";
    let text = read(page.as_bytes());
    let edited = text.replace("One.", "One.\n\n----\n\nTwo.");
    let got = String::from_utf8(save(page.as_bytes(), &edited).bytes).unwrap();
    assert_eq!(
        got,
        page.replace("<p>One.</p>\n", "<p>One.</p>\n<hr />\n<p>Two.</p>\n"),
        "{edited}"
    );
}

#[test]
fn hostile_pages_never_panic() {
    let deep = "<div>".repeat(50_000) + "x";
    for page in [
        deep.as_str(),
        "<p>a<!-- <p>b --></p><p>c",
        "<table><tr><td>a<td>b</table><p>c",
        "<a href='",
        "<script>",
        "</p></p><p>x</br>y",
        "<svg><![CDATA[x]]><p>y",
    ] {
        let text = read(page.as_bytes());
        let _ = save(
            page.as_bytes(),
            &format!("{text}\nnew words here\n\n= Heading =\n"),
        );
        let _ = save(page.as_bytes(), "");
        assert_eq!(save(page.as_bytes(), &text).bytes, page.as_bytes());
    }
}

/// A block inserted after one that did not change goes after it: the
/// diff's insertion is placed where the equal blocks before it end (the
/// case a property test found: a table's first row edited into a rule).
#[test]
fn blocks_inserted_after_an_unchanged_block_go_after_it() {
    let page = "<body><p>alpha</p><table border=\"1\"><tr><th>beta</th><th>gamma</th></tr>\
                <tr><td>delta<td>zeta</table><hr>\n</body>\n";
    let text = read(page.as_bytes());
    let edited = text.replace("|= beta |= gamma |", "----");
    assert_ne!(edited, text);
    let saved = save(page.as_bytes(), &edited);
    assert_eq!(
        String::from_utf8_lossy(&saved.bytes),
        "<body><p>alpha</p><hr>\n<table>\n<tbody>\n<tr><td>delta</td><td>zeta</td></tr>\n\
         </tbody>\n</table>\n<hr>\n</body>\n"
    );
}

/// A list with no element of its own (two `ul`s read as one) edited into a
/// paragraph is written as a paragraph element: bare text there would join
/// the paragraph left open before it.
#[test]
fn a_list_edited_into_a_paragraph_is_a_paragraph_element() {
    let page = "<body>\n<p class=\"lead\">alpha\n<ul>\n  <li>beta\n</ul>\n<ul>\n  <li>gamma\n</ul>\n</body>\n";
    let text = read(page.as_bytes());
    let edited = text.replace("  * beta", "*delta* zeta");
    assert_ne!(edited, text);
    let saved = save(page.as_bytes(), &edited);
    let back = read(&saved.bytes);
    assert!(
        back.contains("\nalpha\n\n*delta* zeta\n\n  * gamma\n"),
        "{back}"
    );
}
