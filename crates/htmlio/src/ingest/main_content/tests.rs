//! Tests of the main-content selection on small pages.

use crate::ingest::Options;

use super::MainContent;

/// A paragraph of prose: long enough, with commas, as articles have.
fn prose(n: usize) -> String {
    format!(
        "<p>Paragraph {n} of the story, which goes on for a while, with clauses, \
         asides and details, so that it reads as prose and not as a menu, \
         as articles do.</p>"
    )
}

/// The page's text with its main content only, and the report.
fn main_content(html: &str) -> (String, MainContent) {
    let options = crate::TextOptions {
        ingest: Options {
            main_content: true,
            ..Options::default()
        },
        ..crate::TextOptions::default()
    };
    let page = crate::to_text(html.as_bytes(), &options);
    (page.text, page.main_content.unwrap_or_default())
}

/// The whole page's text.
fn whole(html: &str) -> String {
    crate::to_text(html.as_bytes(), &Default::default()).text
}

#[test]
fn navigation_and_footer_are_dropped_and_the_article_kept() {
    let html = format!(
        "<title>T</title><body><header><nav><a href=/>Home</a> <a href=/a>About</a> \
         <a href=/b>Blog</a></nav></header><main><article><h1>The title</h1>{}{}{}\
         </article></main><footer><p>Copyright 2024, Some Company, all rights reserved, \
         and more words here.</p></footer>",
        prose(1),
        prose(2),
        prose(3)
    );
    let (text, report) = main_content(&html);
    assert!(text.contains("= The title ="), "{text}");
    for n in 1..=3 {
        assert!(
            text.contains(&format!("Paragraph {n} of the story")),
            "{text}"
        );
    }
    assert!(
        !text.contains("Home") && !text.contains("Copyright"),
        "{text}"
    );
    assert_eq!(report.dropped.get("header"), Some(&1), "{report:?}");
    assert_eq!(report.dropped.get("footer"), Some(&1), "{report:?}");
    assert_eq!(report.dropped_count(), 2);
    assert!(report.root.is_some());
    assert!(report.dropped_chars > 0 && report.kept_chars > report.dropped_chars);
}

#[test]
fn without_landmarks_the_densest_block_is_the_article() {
    let links: String = (0..12)
        .map(|i| format!("<li><a href=/s/{i}>Another story number {i}</a></li>"))
        .collect();
    let html = format!(
        "<body><div><div><ul>{links}</ul></div><div><div>{}{}{}{}</div></div>\
         <div>Sign in</div></div>",
        prose(1),
        prose(2),
        prose(3),
        prose(4)
    );
    let (text, report) = main_content(&html);
    assert!(text.contains("Paragraph 4 of the story"), "{text}");
    assert!(
        !text.contains("Another story") && !text.contains("Sign in"),
        "{text}"
    );
    assert_eq!(report.dropped.get("link-list"), Some(&1), "{report:?}");
    assert_eq!(report.dropped.get("low-text"), Some(&1), "{report:?}");
}

#[test]
fn boilerplate_inside_the_article_is_dropped() {
    let html = format!(
        "<body><article>{}<div class=share-tools><a href=/x>Share on X</a></div>{}\
         <div hidden>Hidden words of a template</div>{}\
         <section id=comments><p>A comment, quite long, that says many things, \
         one after the other, at length and with commas.</p></section></article>",
        prose(1),
        prose(2),
        prose(3)
    );
    let (text, report) = main_content(&html);
    assert!(text.contains("Paragraph 3 of the story"), "{text}");
    assert!(!text.contains("Share on"), "{text}");
    assert!(!text.contains("Hidden words"), "{text}");
    assert!(!text.contains("A comment"), "{text}");
    for kind in ["share", "hidden", "comments"] {
        assert_eq!(report.dropped.get(kind), Some(&1), "{kind}: {report:?}");
    }
}

#[test]
fn the_title_just_before_the_article_is_kept() {
    let html = format!(
        "<body><div class=top><a href=/>Site</a></div><div class=head><h1>What happened</h1>\
         <span>By Someone</span></div><div class=story>{}{}{}</div>\
         <div class=more><h1>Elsewhere</h1><a href=/e>Other</a></div>",
        prose(1),
        prose(2),
        prose(3)
    );
    let (text, _) = main_content(&html);
    assert!(text.contains("= What happened ="), "{text}");
    assert!(!text.contains("By Someone"), "{text}");
    assert!(!text.contains("Elsewhere"), "{text}");
}

#[test]
fn a_heading_that_repeats_the_page_title_is_left_to_the_header() {
    // Inside the article and just before it: both repeat `<title>`, less
    // the site's name, so the header's `#Title` holds them already.
    for (before, inside) in [
        ("<h1>What Happened Today</h1>", ""),
        ("", "<h1>What happened today</h1>"),
    ] {
        let html = format!(
            "<title>What happened today | The Daily Site</title><body><nav><a href=/>Home</a></nav>\
             {before}<article>{inside}{}{}{}</article>",
            prose(1),
            prose(2),
            prose(3)
        );
        let (text, report) = main_content(&html);
        assert!(
            text.starts_with("#Title What happened today | The Daily Site\n"),
            "{text}"
        );
        assert!(!text.contains("= What"), "{text}");
        assert!(text.contains("Paragraph 1 of the story"), "{text}");
        if before.is_empty() {
            assert_eq!(report.dropped.get("title"), Some(&1), "{report:?}");
        }
    }
    // A heading that says more than the title stays.
    let html = format!(
        "<title>The Daily Site</title><body><article><h1>What happened today</h1>{}{}</article>",
        prose(1),
        prose(2)
    );
    let (text, report) = main_content(&html);
    assert!(text.contains("= What happened today ="), "{text}");
    assert_eq!(report.dropped.get("title"), None, "{report:?}");
}

#[test]
fn a_sibling_whose_class_names_boilerplate_does_not_join_the_article() {
    // A print-only header reads like a paragraph (a long line, no links)
    // beside the article's body, but its class says what it is.
    let html = format!(
        "<title>T</title><body><div class=article-content><div class=print-header>\
         <span>https://www.example.com/news/article/a-long-address-of-the-article-printed-on-paper.php</span>\
         </div><div class=article-body>{}{}{}</div></div>",
        prose(1),
        prose(2),
        prose(3)
    );
    let (text, _) = main_content(&html);
    assert!(!text.contains("example.com"), "{text}");
    assert!(text.contains("Paragraph 3 of the story"), "{text}");
}

#[test]
fn a_section_id_made_from_its_heading_says_nothing_of_boilerplate() {
    // Sphinx makes section ids from headings: "Sharing with a single
    // developer" is a section of the document, not share buttons; a short
    // id still says what a part is.
    let html = format!(
        "<title>T</title><body><div class=body><div class=section id=evolve>{}{}\
         <div class=section id=sharing-with-a-single-developer><h2>Sharing with a single \
         developer</h2>{}</div></div><div id=share><a href=/t>Tweet</a> <a href=/f>Post</a> \
         <span>Share this page with your friends and colleagues, today and tomorrow</span></div></div>",
        prose(1),
        prose(2),
        prose(3)
    );
    let (text, report) = main_content(&html);
    assert!(
        text.contains("|Sharing] with a single developer =="),
        "{text}"
    );
    assert!(text.contains("Paragraph 3 of the story"), "{text}");
    assert!(!text.contains("Tweet"), "{text}");
    assert_eq!(report.dropped.get("share"), Some(&1), "{report:?}");
}

#[test]
fn parts_of_the_article_with_its_class_elsewhere_on_the_page_join_it() {
    // A layout puts the article's first section in a row beside a sidebar
    // and the rest further down: each section has the same class.
    let html = format!(
        "<title>T</title><body><nav><a href=/>Home</a></nav><div class=wrap>\
         <div class=row><div class=side><a href=/x>Share</a></div><div class=col><div>\
         <div class=\"post__body wysiwyg\">{}{}</div></div></div></div>\
         <blockquote class=pull>A quote pulled out of the story</blockquote>\
         <div class=\"post__body wysiwyg\">{}{}{}{}</div></div>\
         <footer><p>Copyright, all rights reserved, and so on and so forth.</p></footer>",
        prose(1),
        prose(2),
        prose(3),
        prose(4),
        prose(5),
        prose(6)
    );
    let (text, _) = main_content(&html);
    for n in 1..=6 {
        assert!(text.contains(&format!("Paragraph {n} of")), "{n}: {text}");
    }
    assert!(
        !text.contains("Home") && !text.contains("Copyright"),
        "{text}"
    );
}

#[test]
fn a_paragraph_that_is_a_link_is_dropped_and_prose_with_links_kept() {
    let html = format!(
        "<title>T</title><body><article>{}<p><a href=/other>Also on our site: the story of \
         another day, told at length</a></p>{}<p>Prose with <a href=/a>a link</a> in it, \
         and <a href=/b>another one</a>, stays as it is.</p>{}</article>",
        prose(1),
        prose(2),
        prose(3)
    );
    let (text, report) = main_content(&html);
    assert!(!text.contains("Also on our site"), "{text}");
    assert!(text.contains("Prose with [/a||a link] in it"), "{text}");
    assert_eq!(report.dropped.get("link-list"), Some(&1), "{report:?}");
}

#[test]
fn an_embedded_post_is_quoted_content_not_share_buttons() {
    let html = format!(
        "<title>T</title><body><article>{}{}<div class=social-media-embed>\
         <blockquote class=twitter-tweet><p>What the people said about it, quoted</p>\
         </blockquote></div>{}<div class=social-share><a href=/t>Tweet this</a></div></article>",
        prose(1),
        prose(2),
        prose(3)
    );
    let (text, report) = main_content(&html);
    assert!(text.contains("What the people said about it"), "{text}");
    assert!(!text.contains("Tweet this"), "{text}");
    assert_eq!(report.dropped.get("share"), Some(&1), "{report:?}");
}

#[test]
fn a_rail_of_the_most_read_stories_is_related() {
    let html = format!(
        "<title>T</title><body><article>{}{}{}<div class=\"rail rail--trending\">\
         <h3>Most read in world news</h3><div class=rail__item><h3>RANDY ANDY</h3>\
         <span>A story of another day, told in a teaser of its own</span>\
         <a href=/news/1 class=rail__item-anchor></a></div></div></article>",
        prose(1),
        prose(2),
        prose(3)
    );
    let (text, report) = main_content(&html);
    assert!(!text.contains("RANDY ANDY"), "{text}");
    assert_eq!(report.dropped.get("related"), Some(&1), "{report:?}");
}

#[test]
fn a_page_without_clear_main_content_keeps_everything() {
    let html = "<title>Links</title><body><h1>Links</h1><ul><li><a href=/a>A</a>\
                <li><a href=/b>B</a></ul><p>Short note.</p><footer>Bye</footer>";
    let (text, report) = main_content(html);
    assert_eq!(text, whole(html));
    assert_eq!(report.root, None);
    assert_eq!(report.dropped_count(), 0);
    assert!(
        report.to_string().contains("the whole page is kept"),
        "{report}"
    );
}

#[test]
fn the_whole_page_has_no_report() {
    let html = format!("<body><nav>Menu</nav>{}", prose(1));
    let page = crate::to_text(html.as_bytes(), &Default::default());
    assert_eq!(page.main_content, None);
    assert!(page.text.contains("Menu"));
}

#[test]
fn deep_pages_do_not_overflow() {
    let depth = 100_000;
    let mut html = String::from("<body>");
    for _ in 0..depth {
        html.push_str("<div>");
    }
    for n in 0..4 {
        html.push_str(&prose(n));
    }
    html.push_str("<nav><a href=/>x</a></nav>");
    for _ in 0..depth {
        html.push_str("</div>");
    }
    let (text, report) = main_content(&html);
    assert!(text.contains("Paragraph 3 of the story"));
    assert!(report.root.is_some(), "{report:?}");
}

#[test]
fn many_blocks_of_one_class_are_taken_in_one_pass() {
    // Every block joins as a sibling and is a cousin candidate too: the
    // tests against the parts go by sets, not by scanning the parts.
    let mut html = String::from("<title>T</title><body><nav><a href=/>x</a></nav><div>");
    for n in 0..20_000 {
        html.push_str("<div class=part>");
        html.push_str(&prose(n));
        html.push_str("</div>");
    }
    html.push_str("</div>");
    let (text, report) = main_content(&html);
    assert!(text.contains("Paragraph 19999 of the story"));
    assert_eq!(report.dropped.get("nav"), Some(&1), "{report:?}");
}

#[test]
fn the_report_reads_as_a_sentence() {
    let mut report = MainContent {
        root: Some(("article".into(), 12)),
        kept_chars: 4210,
        dropped_chars: 2001,
        ..MainContent::default()
    };
    report.dropped.insert("footer", 1);
    report.dropped.insert("nav", 3);
    assert_eq!(
        report.to_string(),
        "main content: <article> on line 12, 4210 characters kept; \
         dropped 4 parts, 2001 characters: footer, nav x3"
    );
}
