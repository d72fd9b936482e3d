//! `pagetext edit` in a real browser: headless Chromium driven
//! through chromedriver (WebDriver, with the fantoccini client) against the
//! real server. A person opens the editor, picks a page, changes a heading
//! and sees the preview change, sees a near-miss hint at its line, saves
//! and the file on disk changes, and follows a link in the preview to
//! another page; a hostile page's scripts never run, in the preview, in the
//! editor, or opened straight from the server.
//!
//! Screenshots are kept in `target/browser/` (`edit-*.png`) for a person to
//! look at. Needs `chromium` and `chromium-driver` (`PAGETEXT_CHROMIUM` and
//! `PAGETEXT_CHROMEDRIVER` name others). Without them the test says so and
//! passes, except under CI (the `CI` variable set), where it fails.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "support/browser.rs"]
mod browser;
#[path = "support/editor.rs"]
mod editor;

use std::fs;
use std::path::Path;
use std::time::Duration;

use browser::{
    PNG_2X2, Session, control, editor_text, in_preview, pick, screenshot, until, wait_for_preview,
};
use fantoccini::Locator;
use fantoccini::actions::{InputSource, MouseActions, PointerAction};
use fantoccini::key::Key;
use serde_json::json;

/// Every hostile payload sets `window.__pwned` (in whatever window it runs
/// in) or the top window's title.
const PAYLOAD: &str = "window.__pwned=1;try{top.document.title='PWNED'}catch(e){}";

fn hostile_site(dir: &Path) {
    let page = format!(
        "<html><head><title>Hostile</title><script>{PAYLOAD}</script>\
         <meta name=\"referrer\" content=\"unsafe-url\">\
         <meta http-equiv=\"refresh\" content=\"0;url=javascript:{PAYLOAD}\"></head>\
         <body onload=\"{PAYLOAD}\"><h1>Hostile</h1>\
         <p><img src=\"x\" onerror=\"{PAYLOAD}\"> <svg onload=\"{PAYLOAD}\"></svg>\
         <a href=\"javascript:{PAYLOAD}\" id=\"js\">click me</a>\
         <iframe src=\"javascript:{PAYLOAD}\"></iframe>\
         <object data=\"javascript:{PAYLOAD}\"></object></p></body></html>"
    );
    fs::write(dir.join("hostile.html"), page).unwrap();
    // The text itself says markup and a javascript: link.
    fs::write(
        dir.join("hostile.txt"),
        format!(
            "\n= <script>{PAYLOAD}</script> =\n\n[javascript:{PAYLOAD}||run] and <img src=x onerror=\"{PAYLOAD}\">\n\n[javascript:window.__pwned=1||a link that runs script] [javascript:top.__pwned=1||another]\n"
        ),
    )
    .unwrap();
    // A file name that is markup.
    fs::write(
        dir.join(format!("<img src=x onerror=\"{PAYLOAD}\">.html")),
        "<p>named</p>",
    )
    .unwrap();
}

fn page_site(dir: &Path) {
    fs::write(
        dir.join("index.html"),
        b"<html><head><meta charset=\"windows-1252\"><title>Caf\xe9</title>\
          <link rel=\"stylesheet\" href=\"style.css\"><script>var ballast = 1;</script></head>\
          <body><h1>Caf\xe9 cr\xe8me</h1><p>Our <a href=\"sub/other.html\">other page</a>.</p>\
          <table><tr><th>Name</th><th>Price</th></tr>\
          <tr><td>Tea</td><td>2 \x80</td></tr>\
          <tr><td colspan=\"2\">Spanning both</td></tr></table>\
          <p><img src=\"logo.png\" alt=\"Logo\" width=\"2\" height=\"2\"> and an icon \
          <svg width=\"8\" height=\"8\" aria-label=\"Dot\"><circle cx=\"4\" cy=\"4\" r=\"4\"/></svg></p>\
          <ul><li><ul><li>Nested item</li></ul></li><li>Menu</li></ul></body></html>",
    )
    .unwrap();
    // A 2 x 2 PNG for the image.
    fs::write(dir.join("logo.png"), PNG_2X2).unwrap();
    fs::write(dir.join("style.css"), "h1 { color: rgb(0, 128, 128); }").unwrap();
    fs::create_dir(dir.join("sub")).unwrap();
    fs::write(dir.join("sub/other.html"), "<h1>The other page</h1>").unwrap();
}

#[test]
fn a_person_edits_a_page_in_the_browser() {
    let Some(session) = Session::start(page_site) else {
        return;
    };
    let (site, server) = (&session.site, &session.server);
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let client = session.client().await;
        client.goto(&server.address).await.unwrap();
        pick(&client, "index.html").await;
        let value = editor_text(&client).await;
        assert!(value.contains("= Café crème ="), "{value}");
        // The first save will keep the original: the editor says so.
        let notice = client.find(Locator::Id("notice")).await.unwrap();
        let said = notice.text().await.unwrap();
        assert!(said.contains("index.html.orig"), "{said}");
        // And that a save keeps what is not edited.
        assert!(said.contains("byte for byte"), "{said}");
        // What was lost on the way in is listed beside the text.
        let summary = client.find(Locator::Id("summary")).await.unwrap();
        assert!(summary.text().await.unwrap().contains("script"));
        wait_for_preview(&client, "h1", "Café crème").await;
        // The site's stylesheet reaches the preview.
        client.enter_frame(0).await.unwrap();
        let color = client.find(Locator::Css("h1")).await.unwrap().css_value("color").await.unwrap();
        client.enter_parent_frame().await.unwrap();
        assert_eq!(color, "rgba(0, 128, 128, 1)");
        // The table is a real table in the preview, with its spanning
        // cell; the image loads from the site, the SVG icon shows as an
        // image, the nested list is a list in a list.
        assert_eq!(in_preview(&client, "th").await.as_deref(), Some("Name"));
        assert_eq!(
            in_preview(&client, "td[colspan='2']").await.as_deref(),
            Some("Spanning both")
        );
        assert_eq!(in_preview(&client, "li > ul > li").await.as_deref(), Some("Nested item"));
        // The preview is the page as saved: its own image and inline SVG.
        let images = "return [Array.from(document.images).map(i => [i.alt, i.complete && i.naturalWidth > 0, i.src.startsWith('http://127.0.0.1:') ? 'site' : i.src.slice(0, 19)]), Array.from(document.querySelectorAll('svg')).map(s => [s.getAttribute('aria-label'), s.getBoundingClientRect().width])];";
        client.enter_frame(0).await.unwrap();
        let shown = client.execute(images, vec![]).await.unwrap();
        client.enter_parent_frame().await.unwrap();
        assert_eq!(
            shown,
            json!([[["Logo", true, "site"]], [["Dot", 8]]]),
            "the page's images, loaded, in the preview of the page as saved"
        );
        // The text's own XHTML, one click away: the icon is an image there.
        client.find(Locator::Id("page-view")).await.unwrap().click().await.unwrap();
        until(
            &client,
            "the text's preview",
            "const d = document.getElementById('preview').contentDocument; return d && d.images.length === 2 && d.images[1].complete;",
        )
        .await;
        client.enter_frame(0).await.unwrap();
        let shown = client.execute(images, vec![]).await.unwrap();
        client.enter_parent_frame().await.unwrap();
        assert_eq!(
            shown,
            json!([[["Logo", true, "site"], ["Dot", true, "data:image/svg+xml;"]], []]),
            "the text's images, loaded, in the preview of its XHTML"
        );
        client.find(Locator::Id("page-view")).await.unwrap().click().await.unwrap();
        wait_for_preview(&client, "svg", "").await;
        screenshot(&client, "open").await;

        // Change the heading, typing as a person does: select the word, type.
        let start = value.find("Café crème").unwrap();
        let from = value[..start].chars().count();
        let to = from + "Café crème".chars().count();
        client
            .execute(
                "window.pagetextEditor.select(arguments[0], arguments[1]);",
                vec![json!(from), json!(to)],
            )
            .await
            .unwrap();
        let text = client.find(Locator::Css("#editor .cm-content")).await.unwrap();
        text.send_keys("Bonjour").await.unwrap();
        wait_for_preview(&client, "h1", "Bonjour").await;

        // A near miss: a heading with unequal signs, hinted at its line.
        let lines = editor_text(&client).await.lines().count();
        client
            .execute(
                "const e = window.pagetextEditor; e.select(e.text().length);",
                vec![],
            )
            .await
            .unwrap();
        text.send_keys("\n= Uneven ==\n").await.unwrap();
        let line = lines + 2;
        let hinted = format!(
            "return document.querySelector('#diagnostics li[data-code=\"heading-markers-uneven\"][data-line=\"{line}\"]') !== null \
             && window.pagetextEditor.diagnosticLines().includes({line}) \
             && document.querySelector('#editor .cm-gutter-lint .cm-lint-marker-warning') !== null;"
        );
        until(&client, "the hint at its line", &hinted).await;
        screenshot(&client, "hint").await;

        // Save: the file on disk is the original with the two edits and
        // nothing else (the script, the stylesheet link, the table, the
        // image, the SVG, the euro sign as one windows-1252 byte); the
        // original is kept.
        client.find(Locator::Id("save")).await.unwrap().click().await.unwrap();
        until(
            &client,
            "saved",
            "return document.getElementById('status').textContent.startsWith('saved');",
        )
        .await;
        let on_disk = fs::read(site.path().join("index.html")).unwrap();
        let original = fs::read(site.path().join("index.html.orig")).unwrap();
        let edited = String::from_utf8_lossy(&original)
            .replace("<h1>Caf\u{FFFD} cr\u{FFFD}me</h1>", "<h1>Bonjour</h1>")
            .replace("</ul></body>", "</ul>\n<p>= Uneven ==</p></body>");
        assert_eq!(String::from_utf8_lossy(&on_disk), edited);
        assert_eq!(on_disk.len(), original.len() - 3 + 19);
        assert!(on_disk.windows(3).any(|w| w == b"2 \x80"), "the euro sign as one byte");
        let notice = client.find(Locator::Id("notice")).await.unwrap();
        assert!(notice.text().await.unwrap().contains("kept as index.html.orig"));
        screenshot(&client, "saved").await;

        // A link in the preview opens the other page in the editor.
        client.enter_frame(0).await.unwrap();
        client
            .find(Locator::LinkText("other page"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        client.enter_parent_frame().await.unwrap();
        until(
            &client,
            "the linked page opened",
            "return document.getElementById('current').textContent === 'sub/other.html';",
        )
        .await;
        wait_for_preview(&client, "h1", "The other page").await;
        client.close().await.unwrap();
    });
}

fn text_site(dir: &Path) {
    fs::write(
        dir.join("notes.txt"),
        "#Title Notes\n\n= Notes =\n\nSome _text_ and a [http://example.org/||link].\n",
    )
    .unwrap();
}

#[test]
fn the_text_editor_highlights_lints_and_keeps_its_history() {
    let Some(session) = Session::start(text_site) else {
        return;
    };
    let (site, server) = (&session.site, &session.server);
    let file = site.path().join("notes.txt");
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let client = session.client().await;
        client.goto(&server.address).await.unwrap();
        pick(&client, "notes.txt").await;
        // Markup shows as markup: the header word, the heading, emphasis, the link.
        let shown = client
            .execute(
                "const q = (s) => { const e = document.querySelector('#editor .cm-content ' + s); return e && e.textContent; }; \
                 return [q('.pt-header'), q('.pt-heading'), q('.pt-emphasis'), q('.pt-link')];",
                vec![],
            )
            .await
            .unwrap();
        assert_eq!(shown, json!(["#Title", "Notes", "text", "link"]));
        // CodeMirror's own styles got past the Content-Security-Policy
        // (a constructed style sheet, not a <style> element).
        let styled = client
            .execute(
                "return getComputedStyle(document.querySelector('#editor .cm-editor')).flexDirection;",
                vec![],
            )
            .await
            .unwrap();
        assert_eq!(styled, json!("column"), "CodeMirror's styles are missing");

        // A near miss: a lint mark at its line, a marker in the gutter.
        let text = client.find(Locator::Css("#editor .cm-content")).await.unwrap();
        client
            .execute("const e = window.pagetextEditor; e.select(e.text().length);", vec![])
            .await
            .unwrap();
        text.send_keys("\n= Uneven ==\n").await.unwrap();
        until(
            &client,
            "a lint mark at the hint's line",
            "return window.pagetextEditor.diagnosticLines().includes(7) \
             && document.querySelector('#editor .cm-lintRange-warning') !== null \
             && document.querySelector('#editor .cm-gutter-lint .cm-lint-marker-warning') !== null;",
        )
        .await;
        // Its message on hover.
        let range = client
            .find(Locator::Css("#editor .cm-lintRange-warning"))
            .await
            .unwrap();
        let hover = MouseActions::new("mouse".to_owned()).then(PointerAction::MoveToElement {
            element: range,
            duration: None,
            x: 0.0,
            y: 0.0,
        });
        client.perform_actions(hover).await.unwrap();
        until(
            &client,
            "the hint's message on hover",
            "const t = document.querySelector('.cm-tooltip-lint'); \
             return t !== null && t.textContent.includes('heading needs the same number');",
        )
        .await;
        screenshot(&client, "lint").await;
        // A click on the hint in the list puts the cursor at its line.
        client
            .find(Locator::Css("#diagnostics li[data-line='7']"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        let at = client
            .execute(
                "const v = window.pagetextEditor.view; return v.state.doc.lineAt(v.state.selection.main.head).number;",
                vec![],
            )
            .await
            .unwrap();
        assert_eq!(at, json!(7), "the jump to the hint's line");

        // Save with Ctrl+S, then undo: the history survives the save.
        text.send_keys(&control("s")).await.unwrap();
        until(
            &client,
            "saved",
            "return document.getElementById('status').textContent.startsWith('saved');",
        )
        .await;
        assert!(fs::read_to_string(&file).unwrap().contains("= Uneven =="));
        let saved = editor_text(&client).await;
        text.send_keys(&control("z")).await.unwrap();
        let undone = editor_text(&client).await;
        assert_ne!(undone, saved, "undo after a save changed nothing");
        assert!(
            client
                .execute("return document.title.startsWith('•');", vec![])
                .await
                .unwrap()
                == json!(true),
            "undone text is unsaved"
        );
        text.send_keys(&control("y")).await.unwrap();
        assert_eq!(editor_text(&client).await, saved, "redo");

        // A conflict: take the version on disk, then undo brings mine back.
        fs::write(&file, "#Title Changed elsewhere\n\nSomeone else's text, longer.\n").unwrap();
        client
            .execute("const e = window.pagetextEditor; e.select(e.text().length);", vec![])
            .await
            .unwrap();
        text.send_keys("Mine.").await.unwrap();
        let mine = editor_text(&client).await;
        client.find(Locator::Id("save")).await.unwrap().click().await.unwrap();
        until(
            &client,
            "the conflict",
            "return !document.getElementById('conflict').hidden;",
        )
        .await;
        client.find(Locator::Id("take-theirs")).await.unwrap().click().await.unwrap();
        assert!(editor_text(&client).await.contains("Someone else's text"));
        text.send_keys(&control("z")).await.unwrap();
        assert_eq!(editor_text(&client).await, mine, "undo after taking theirs");

        // Search in the page: Ctrl+F opens CodeMirror's search panel.
        text.send_keys(&control("f")).await.unwrap();
        until(
            &client,
            "the search panel",
            "return document.querySelector('#editor .cm-search') !== null;",
        )
        .await;
        screenshot(&client, "search").await;
        client.close().await.unwrap();
    });
}

#[test]
fn a_hostile_page_never_runs_script() {
    let Some(session) = Session::start(hostile_site) else {
        return;
    };
    let server = &session.server;
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let client = session.client().await;
        let pwned = "return [window.__pwned === undefined, document.title.includes('PWNED')];";
        // A positive control: the payload does run where scripts may run.
        client.goto("about:blank").await.unwrap();
        client
            .execute(
                "document.body.insertAdjacentHTML('beforeend', arguments[0]);",
                vec![json!(format!("<img src=x onerror=\"{PAYLOAD}\">"))],
            )
            .await
            .unwrap();
        until(&client, "the control ran", "return window.__pwned === 1;").await;

        client.goto(&server.address).await.unwrap();
        // The file name that is markup is shown as a name.
        let named = client
            .wait()
            .for_element(Locator::Css("#tree button[data-path^='<img']"))
            .await
            .unwrap();
        assert!(named.text().await.unwrap().starts_with("<img src=x"));
        for page in ["hostile.html", "hostile.txt"] {
            pick(&client, page).await;
            until(
                &client,
                "a preview",
                "return document.getElementById('preview').srcdoc.length > 0;",
            )
            .await;
            tokio::time::sleep(Duration::from_millis(500)).await;
            // Click every link in the preview.
            client.enter_frame(0).await.unwrap();
            for link in client.find_all(Locator::Css("a")).await.unwrap() {
                let _ = link.click().await;
            }
            let inside = client
                .execute("return window.__pwned === undefined;", vec![])
                .await
                .unwrap();
            client.enter_parent_frame().await.unwrap();
            assert_eq!(inside, json!(true), "{page}: script ran in the preview");
            // The page cannot ask for the editor's address to be sent away.
            let referrer = client
                .execute(
                    "return document.getElementById('preview').srcdoc.includes('unsafe-url');",
                    vec![],
                )
                .await
                .unwrap();
            assert_eq!(
                referrer,
                json!(false),
                "{page}: the page's referrer policy reached the preview"
            );
            let editor = client.execute(pwned, vec![]).await.unwrap();
            assert_eq!(
                editor,
                json!([true, false]),
                "{page}: script ran in the editor"
            );
        }
        screenshot(&client, "hostile").await;
        // Opened straight from the server, the page is sandboxed too.
        let direct = format!("{}site/hostile.html", server.address);
        client.goto(&direct).await.unwrap();
        tokio::time::sleep(Duration::from_millis(500)).await;
        let direct_state = client.execute(pwned, vec![]).await.unwrap();
        assert_eq!(
            direct_state,
            json!([true, false]),
            "script ran in the site file"
        );
        client.close().await.unwrap();
    });
}

fn review_site(dir: &Path) {
    fs::write(
        dir.join("page.html"),
        "<html><body><h1>Old title</h1><p>Keep this.</p><p>Remove me.</p></body></html>",
    )
    .unwrap();
    fs::write(
        dir.join("notes.txt"),
        "\n= Notes =\n\nSee [page.html||the page].\n\nAnd [missing.html||a page that is gone].\n",
    )
    .unwrap();
}

#[test]
fn review_before_saving_and_the_link_report() {
    let Some(session) = Session::start(review_site) else {
        return;
    };
    let (site, server) = (&session.site, &session.server);
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let client = session.client().await;
        client.goto(&server.address).await.unwrap();
        pick(&client, "page.html").await;
        let value = editor_text(&client).await;
        assert!(value.contains("Remove me."), "{value}");
        // Replace a line, as a person types: the new one has a link that
        // the XHTML cannot keep.
        let from = value.find("Remove me.").unwrap();
        let to = from + "Remove me.".len();
        client
            .execute(
                "window.pagetextEditor.select(arguments[0], arguments[1]);",
                vec![json!(from), json!(to)],
            )
            .await
            .unwrap();
        let text = client.find(Locator::Css("#editor .cm-content")).await.unwrap();
        text.send_keys("Added [javascript:alert(1)||run].").await.unwrap();
        // Review: Ctrl+Shift+S.
        text.send_keys(&format!(
            "{}{}S{}",
            char::from(Key::Control),
            char::from(Key::Shift),
            char::from(Key::Null)
        ))
        .await
        .unwrap();
        until(
            &client,
            "the review panel",
            "return !document.getElementById('review-panel').hidden;",
        )
        .await;
        let diff = client
            .execute(
                "return ['-', '+'].map(op => Array.from(document.querySelectorAll(`#review-diff [data-op='${op}']`)).map(e => e.lastChild.textContent));",
                vec![],
            )
            .await
            .unwrap();
        assert_eq!(
            diff,
            json!([["Remove me."], ["Added [javascript:alert(1)||run]."]]),
            "the removed and added lines"
        );
        until(
            &client,
            "the drop notice",
            "return document.querySelector('#review-drops li[data-code=\"unsafe-link\"]') !== null \
             && document.getElementById('review-drops-note').textContent.includes('keeps its bytes');",
        )
        .await;
        screenshot(&client, "review").await;
        // Cancel writes nothing; Save from the panel writes the edit.
        client.find(Locator::Id("review-cancel")).await.unwrap().click().await.unwrap();
        assert!(fs::read_to_string(site.path().join("page.html")).unwrap().contains("Remove me."));
        client.find(Locator::Id("review")).await.unwrap().click().await.unwrap();
        until(
            &client,
            "the review panel again",
            "return !document.getElementById('review-panel').hidden;",
        )
        .await;
        client.find(Locator::Id("review-save")).await.unwrap().click().await.unwrap();
        until(
            &client,
            "saved",
            "return document.getElementById('status').textContent.startsWith('saved');",
        )
        .await;
        let on_disk = fs::read_to_string(site.path().join("page.html")).unwrap();
        assert!(on_disk.contains("Added"), "{on_disk}");
        assert!(!on_disk.contains("Remove me."), "{on_disk}");
        assert!(!on_disk.contains("javascript:"), "{on_disk}");
        // Reviewed again: nothing changed since the save.
        client.find(Locator::Id("review")).await.unwrap().click().await.unwrap();
        until(
            &client,
            "no change since the save",
            "return !document.getElementById('review-panel').hidden \
             && document.getElementById('review-stats').textContent.includes('last saved') \
             && document.querySelector('#review-diff [data-op=\"+\"]') === null;",
        )
        .await;
        client.find(Locator::Id("review-cancel")).await.unwrap().click().await.unwrap();

        // The link report: the broken link, not the working one.
        client.find(Locator::Id("links")).await.unwrap().click().await.unwrap();
        until(
            &client,
            "the link report",
            "return document.querySelector('#links-list li[data-page=\"notes.txt\"]') !== null;",
        )
        .await;
        let listed = client
            .execute(
                "return Array.from(document.querySelectorAll('#links-list li')).map(e => e.querySelector('.url').textContent);",
                vec![],
            )
            .await
            .unwrap();
        assert_eq!(listed, json!(["missing.html"]));
        screenshot(&client, "links").await;
        client
            .find(Locator::Css("#links-list li[data-page='notes.txt']"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        until(
            &client,
            "the page of the link, at its line",
            "const v = window.pagetextEditor.view; \
             return document.getElementById('current').textContent === 'notes.txt' \
             && v.state.doc.lineAt(v.state.selection.main.head).number === 6 \
             && document.getElementById('links-panel').hidden;",
        )
        .await;
        client.close().await.unwrap();
    });
}

fn new_page_site(dir: &Path) {
    fs::create_dir(dir.join("docs")).unwrap();
    fs::write(dir.join("docs/intro.txt"), "\n= Intro =\n\nFirst.\n").unwrap();
}

#[test]
fn a_new_page_is_created_typed_and_saved() {
    let Some(session) = Session::start(new_page_site) else {
        return;
    };
    let (site, server) = (&session.site, &session.server);
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let client = session.client().await;
        client.goto(&server.address).await.unwrap();
        pick(&client, "docs/intro.txt").await;
        client.find(Locator::Id("new-page")).await.unwrap().click().await.unwrap();
        until(
            &client,
            "the new page panel, in the open page's folder",
            "return !document.getElementById('new-panel').hidden \
             && document.getElementById('new-dir').value === 'docs';",
        )
        .await;
        // An existing name is refused, and the panel says why.
        let name = client.find(Locator::Id("new-name")).await.unwrap();
        name.send_keys("intro").await.unwrap();
        client.find(Locator::Id("new-create")).await.unwrap().click().await.unwrap();
        until(
            &client,
            "the refusal",
            "return document.getElementById('new-error').textContent.includes('already exists');",
        )
        .await;
        name.clear().await.unwrap();
        name.send_keys("fresh").await.unwrap();
        screenshot(&client, "new-page").await;
        client.find(Locator::Id("new-create")).await.unwrap().click().await.unwrap();
        until(
            &client,
            "the new page, open and in the tree",
            "return document.getElementById('current').textContent === 'docs/fresh.txt' \
             && document.getElementById('new-panel').hidden \
             && window.pagetextEditor.text() === '#Title fresh\\n\\n';",
        )
        .await;
        assert_eq!(
            fs::read_to_string(site.path().join("docs/fresh.txt")).unwrap(),
            "#Title fresh\n\n"
        );
        // Typed at the end, and saved.
        let text = client.find(Locator::Css("#editor .cm-content")).await.unwrap();
        client
            .execute(
                "const v = window.pagetextEditor.view; window.pagetextEditor.select(v.state.doc.length, v.state.doc.length);",
                vec![],
            )
            .await
            .unwrap();
        text.send_keys("A new page.").await.unwrap();
        text.send_keys(&control("s")).await.unwrap();
        until(
            &client,
            "saved",
            "return document.getElementById('status').textContent.startsWith('saved');",
        )
        .await;
        let on_disk = fs::read_to_string(site.path().join("docs/fresh.txt")).unwrap();
        assert_eq!(on_disk, "#Title fresh\n\nA new page.\n");
        // An HTML page at the site's top.
        client.find(Locator::Id("new-page")).await.unwrap().click().await.unwrap();
        let dir = client.find(Locator::Id("new-dir")).await.unwrap();
        dir.clear().await.unwrap();
        client.find(Locator::Id("new-name")).await.unwrap().send_keys("home").await.unwrap();
        client
            .execute("document.getElementById('new-kind').value = 'html';", vec![])
            .await
            .unwrap();
        client.find(Locator::Id("new-create")).await.unwrap().click().await.unwrap();
        until(
            &client,
            "the HTML page, open and listed",
            "return document.getElementById('current').textContent === 'home.html' \
             && document.querySelector(\"#tree button[data-path='home.html']\") !== null;",
        )
        .await;
        let html = fs::read_to_string(site.path().join("home.html")).unwrap();
        assert!(html.contains("<title>home</title>"), "{html}");
        client.close().await.unwrap();
    });
}

/// Before a page is open the editor says what to do, and the commands that
/// need a page wait for one; the format's cheat-sheet is one click (or F1)
/// away.
#[test]
fn the_editor_says_what_to_do_and_how_the_text_is_written() {
    let Some(session) = Session::start(page_site) else {
        return;
    };
    let server = &session.server;
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let client = session.client().await;
        client.goto(&server.address).await.unwrap();
        let state = "return [document.getElementById('empty').hidden, \
                     document.getElementById('rename').disabled, \
                     document.getElementById('image').disabled, \
                     getComputedStyle(document.getElementById('editor')).display];";
        until(
            &client,
            "the page loaded",
            "return !!window.pagetextEditor;",
        )
        .await;
        let before = client.execute(state, vec![]).await.unwrap();
        assert_eq!(before, json!([false, true, true, "none"]));
        let empty = client.find(Locator::Id("empty")).await.unwrap();
        assert!(empty.text().await.unwrap().contains("Choose a page"));
        // The cheat-sheet, by its button and by F1; Escape closes it.
        client
            .find(Locator::Id("format"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        let panel = client.find(Locator::Id("format-panel")).await.unwrap();
        assert!(panel.is_displayed().await.unwrap());
        let sheet = panel.text().await.unwrap();
        for spelling in [
            "= Heading =",
            "[https://example.org/||the text]",
            "#Extend table",
            "<br>",
        ] {
            assert!(sheet.contains(spelling), "{spelling}: {sheet}");
        }
        client
            .find(Locator::Css("body"))
            .await
            .unwrap()
            .send_keys(&Key::Escape.to_string())
            .await
            .unwrap();
        until(
            &client,
            "the sheet closed",
            "return document.getElementById('format-panel').hidden;",
        )
        .await;
        client
            .find(Locator::Css("body"))
            .await
            .unwrap()
            .send_keys(&Key::F1.to_string())
            .await
            .unwrap();
        until(
            &client,
            "F1 opened the sheet",
            "return !document.getElementById('format-panel').hidden;",
        )
        .await;
        client
            .find(Locator::Id("format-close"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        // A page open: its text, and the commands.
        pick(&client, "index.html").await;
        let after = client.execute(state, vec![]).await.unwrap();
        assert_eq!(after, json!([true, false, false, "flex"]));
        // The extensions' spellings show as markup: `<br>`, and `^{`, `}`.
        let marks = client
            .execute(
                "window.pagetextEditor.load('#Extend break subsup\\n\\nE = mc^{2}<br>H~{2}O\\n');                  return Array.from(document.querySelectorAll('#editor .cm-content .pt-markup')).map(e => e.textContent);",
                vec![],
            )
            .await
            .unwrap();
        // (CodeMirror joins neighbouring tokens of one style: `}<br>`.)
        assert_eq!(marks, json!(["^{", "}<br>", "~{", "}"]));
        screenshot(&client, "format-sheet").await;
        client.close().await.unwrap();
    });
}
