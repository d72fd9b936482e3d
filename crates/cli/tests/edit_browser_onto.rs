//! `pagetext edit` in headless Chromium, saving onto the page: a styled
//! page (a DOCTYPE, a stylesheet, an inline `<style>`, a `nav` with
//! classes, a paragraph with a class and a style) keeps every byte around
//! the word edited, a save with no edit leaves the file as it was, and the
//! preview of the page as saved shows its template and styles while its
//! scripts never run and nothing connects anywhere but the editor.
//! Needs `chromium` and `chromium-driver`, as `edit_browser.rs` says.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "support/browser.rs"]
mod browser;
#[path = "support/editor.rs"]
mod editor;

use std::fs;
use std::net::TcpListener;
use std::path::Path;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use browser::{Session, editor_text, pick, screenshot, until, wait_for_preview};
use fantoccini::Locator;
use serde_json::json;

const STYLED: &str = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
<title>Styled</title>\n<link rel=\"stylesheet\" href=\"site.css\">\n\
<style>.lead { font-style: italic; }</style>\n</head>\n<body>\n\
<nav class=\"menu top\"><a href=\"index.html\">Home</a> <a href=\"styled.html\">Styled</a></nav>\n\
<h1>A styled page</h1>\n\
<p class=\"lead\" style=\"color: rgb(200, 0, 0)\">The lead paragraph holds a word to change.</p>\n\
<p>Another paragraph.</p>\n</body>\n</html>\n";

fn styled_site(dir: &Path) {
    fs::write(dir.join("styled.html"), STYLED).unwrap();
    fs::write(dir.join("site.css"), "h1 { color: rgb(0, 128, 128); }").unwrap();
}

#[test]
fn a_styled_page_keeps_every_byte_around_the_word_edited() {
    let Some(session) = Session::start(styled_site) else {
        return;
    };
    let (site, server) = (&session.site, &session.server);
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let client = session.client().await;
        client.goto(&server.address).await.unwrap();
        pick(&client, "styled.html").await;
        let value = editor_text(&client).await;
        assert!(value.contains("word to change"), "{value}");
        // The preview is the page as saved: its stylesheet, its <style>
        // and its style attribute apply, and its nav is there.
        wait_for_preview(&client, "nav a", "Home").await;
        client.enter_frame(0).await.unwrap();
        let styles = client
            .execute(
                "const p = document.querySelector('p.lead');\
                 return [getComputedStyle(document.querySelector('h1')).color, getComputedStyle(p).color, getComputedStyle(p).fontStyle];",
                vec![],
            )
            .await
            .unwrap();
        client.enter_parent_frame().await.unwrap();
        assert_eq!(styles, json!(["rgb(0, 128, 128)", "rgb(200, 0, 0)", "italic"]));

        // A save with no edit leaves the file as it was, and keeps no original.
        client.find(Locator::Id("save")).await.unwrap().click().await.unwrap();
        until(
            &client,
            "saved",
            "return document.getElementById('status').textContent.startsWith('saved');",
        )
        .await;
        assert_eq!(fs::read_to_string(site.path().join("styled.html")).unwrap(), STYLED);
        assert!(!site.path().join("styled.html.orig").exists());

        // One word typed over: the review lists one change of the page, at
        // its line; the save writes exactly that.
        let start = value.find("word").unwrap();
        let from = value[..start].chars().count();
        client
            .execute(
                "window.pagetextEditor.select(arguments[0], arguments[1]);",
                vec![json!(from), json!(from + 4)],
            )
            .await
            .unwrap();
        let text = client.find(Locator::Css("#editor .cm-content")).await.unwrap();
        text.send_keys("term").await.unwrap();
        wait_for_preview(&client, "p.lead", "The lead paragraph holds a term to change.").await;
        client.find(Locator::Id("review")).await.unwrap().click().await.unwrap();
        until(
            &client,
            "the page's one change at line 12",
            "return document.querySelectorAll('#review-page-changes [data-op=\"page-\"]').length === 1 \
             && document.querySelector('#review-page-changes [data-line=\"12\"]') !== null \
             && document.querySelector('#review-page-changes [data-op=\"page+\"]').textContent === 'term';",
        )
        .await;
        screenshot(&client, "onto-review").await;
        client.find(Locator::Id("review-save")).await.unwrap().click().await.unwrap();
        until(
            &client,
            "saved",
            "return document.getElementById('status').textContent.startsWith('saved');",
        )
        .await;
        assert_eq!(
            fs::read_to_string(site.path().join("styled.html")).unwrap(),
            STYLED.replace("a word to change", "a term to change")
        );
        assert_eq!(fs::read_to_string(site.path().join("styled.html.orig")).unwrap(), STYLED);
        client.close().await.unwrap();
    });
}

/// The port of the server that stands for "elsewhere" in the template.
static ELSEWHERE: OnceLock<u16> = OnceLock::new();

/// A template that asks "elsewhere" for everything it can: scripts inline
/// and from there, handlers, resource hints, a stylesheet, `@import`,
/// fonts, backgrounds, images, `srcset`, a frame, an object, a refresh.
fn hostile_template(dir: &Path) {
    let port = ELSEWHERE.get().copied().unwrap_or(9);
    let far = format!("http://127.0.0.2:{port}");
    let page = format!(
        "<!DOCTYPE html><html><head><title>T</title>\
         <meta http-equiv=\"refresh\" content=\"0;url={far}/refresh\">\
         <base href=\"{far}/\">\
         <link rel=\"preconnect\" href=\"{far}\"><link rel=\"dns-prefetch\" href=\"{far}\">\
         <link rel=\"prefetch\" href=\"{far}/prefetch\"><link rel=\"preload\" as=\"style\" href=\"{far}/preload.css\">\
         <link rel=\"stylesheet\" href=\"{far}/far.css\"><link rel=\"icon\" href=\"{far}/icon.png\">\
         <style>@import \"{far}/import.css\"; @font-face {{ font-family: F; src: url({far}/font.woff); }}\
         body {{ background: url({far}/bg.png); font-family: F; }}</style>\
         <script>window.__pwned = 1;</script><script src=\"{far}/s.js\"></script></head>\
         <body onload=\"window.__pwned = 2\"><nav class=\"menu\">Menu</nav>\
         <p style=\"background-image: url('{far}/p.png')\">The text <img src=\"{far}/i.png\" srcset=\"{far}/i2.png 2x\" onerror=\"window.__pwned = 3\"></p>\
         <iframe src=\"{far}/frame\"></iframe><object data=\"{far}/o\"></object>\
         <a href=\"{far}/x\" ping=\"{far}/ping\">a link</a></body></html>"
    );
    fs::write(dir.join("template.html"), page).unwrap();
}

#[test]
fn a_template_preview_runs_nothing_and_connects_nowhere() {
    // "Elsewhere": a listener that counts the connections it accepts.
    let listener = TcpListener::bind("127.0.0.2:0").unwrap();
    let _ = ELSEWHERE.set(listener.local_addr().unwrap().port());
    listener.set_nonblocking(true).unwrap();
    static CONNECTIONS: AtomicUsize = AtomicUsize::new(0);
    std::thread::spawn(move || {
        loop {
            if listener.accept().is_ok() {
                CONNECTIONS.fetch_add(1, Ordering::SeqCst);
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    });
    let Some(session) = Session::start(hostile_template) else {
        return;
    };
    let server = &session.server;
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let client = session.client().await;
        client.goto(&server.address).await.unwrap();
        pick(&client, "template.html").await;
        // The page as saved: its nav, from the template, is in the preview.
        wait_for_preview(&client, "nav", "Menu").await;
        // An edit, and the preview of the page with it.
        client
            .execute("const e = window.pagetextEditor; e.select(e.text().length);", vec![])
            .await
            .unwrap();
        let text = client.find(Locator::Css("#editor .cm-content")).await.unwrap();
        text.send_keys("\nMore text.\n").await.unwrap();
        wait_for_preview(&client, "p:last-of-type", "More text.").await;
        // Time for anything the template asks for to be asked.
        tokio::time::sleep(Duration::from_secs(2)).await;
        client.enter_frame(0).await.unwrap();
        let inside = client
            .execute("return [window.__pwned === undefined, document.querySelectorAll('script, iframe, object, base, link:not([rel=stylesheet])').length];", vec![])
            .await
            .unwrap();
        client.enter_parent_frame().await.unwrap();
        assert_eq!(inside, json!([true, 0]), "something of the template survived");
        let outside = client.execute("return window.__pwned === undefined && document.title !== 'PWNED';", vec![]).await.unwrap();
        assert_eq!(outside, json!(true), "a script ran in the editor");
        screenshot(&client, "onto-template").await;
        client.close().await.unwrap();
    });
    assert_eq!(
        CONNECTIONS.load(Ordering::SeqCst),
        0,
        "the preview connected elsewhere"
    );
}
