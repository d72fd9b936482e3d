//! `pagetext edit` in a real browser, continued (the first file is
//! `edit_browser.rs`): an image of the site inserted from the picker and
//! shown in the preview, and the text and the preview scrolling in step.
//! Needs Chromium and chromedriver, as `edit_browser.rs` says.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "support/browser.rs"]
mod browser;
#[path = "support/editor.rs"]
mod editor;

use std::fs;
use std::path::Path;
use std::time::Duration;

use browser::{PNG_2X2, Session, control, editor_text, pick, screenshot, until};
use fantoccini::{Client, Locator};
use serde_json::json;

fn image_site(dir: &Path) {
    fs::create_dir(dir.join("pages")).unwrap();
    fs::create_dir(dir.join("img")).unwrap();
    fs::write(
        dir.join("pages/notes.txt"),
        "#Title Notes\n\n= Notes =\n\nOur logo:\n",
    )
    .unwrap();
    fs::write(dir.join("img/logo.png"), PNG_2X2).unwrap();
    fs::write(dir.join("img/other one.png"), PNG_2X2).unwrap();
    // Not an image: never listed.
    fs::write(dir.join("img/readme.txt"), "\nnot an image\n").unwrap();
}

#[test]
fn an_image_is_picked_inserted_and_shown_in_the_preview() {
    let Some(session) = Session::start(image_site) else {
        return;
    };
    let (site, server) = (&session.site, &session.server);
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let client = session.client().await;
        client.goto(&server.address).await.unwrap();
        pick(&client, "pages/notes.txt").await;
        let opened = editor_text(&client).await;
        // The cursor after "Our logo:", as a person clicks there.
        let at = opened.find("Our logo:").unwrap() + "Our logo:".len();
        client
            .execute(
                "window.pagetextEditor.select(arguments[0]);",
                vec![json!(at)],
            )
            .await
            .unwrap();
        client.find(Locator::Id("image")).await.unwrap().click().await.unwrap();
        // The site's images, with their thumbnails loaded from the site.
        let listed = until(
            &client,
            "the picker's thumbnails",
            "const imgs = Array.from(document.querySelectorAll('#image-list img')); \
             return imgs.length === 2 && imgs.every(i => i.complete && i.naturalWidth > 0) \
             && Array.from(document.querySelectorAll('#image-list button')).map(b => b.dataset.path);",
        )
        .await;
        assert_eq!(listed, json!(["img/logo.png", "img/other one.png"]));
        client
            .find(Locator::Css("#image-list button[data-path='img/logo.png']"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        client
            .find(Locator::Id("image-alt"))
            .await
            .unwrap()
            .send_keys("The logo")
            .await
            .unwrap();
        screenshot(&client, "image-picker").await;
        client.find(Locator::Id("image-insert")).await.unwrap().click().await.unwrap();
        // Spelled by the server, relative to the page's folder, with the
        // header's declaration added.
        until(
            &client,
            "the image in the text",
            "const t = window.pagetextEditor.text(); \
             return t.includes('Our logo:![../img/logo.png||The logo]\\n') \
             && t.startsWith('#Title Notes\\n#Extend image\\n\\n');",
        )
        .await;
        // Shown in the preview: loaded from the site.
        until(
            &client,
            "the image loaded in the preview",
            "const d = document.getElementById('preview').contentDocument; \
             const i = d && d.querySelector('img[alt=\"The logo\"]'); \
             return i !== null && i.complete && i.naturalWidth > 0;",
        )
        .await;
        screenshot(&client, "image-inserted").await;
        // Saved as typed.
        let text = client.find(Locator::Css("#editor .cm-content")).await.unwrap();
        text.send_keys(&control("s")).await.unwrap();
        until(
            &client,
            "saved",
            "return document.getElementById('status').textContent.startsWith('saved');",
        )
        .await;
        let on_disk = fs::read_to_string(site.path().join("pages/notes.txt")).unwrap();
        assert!(on_disk.contains("#Extend image"), "{on_disk}");
        assert!(on_disk.contains("![../img/logo.png||The logo]"), "{on_disk}");
        // One undo takes back the image and its declaration together.
        text.send_keys(&control("z")).await.unwrap();
        assert_eq!(editor_text(&client).await, opened);

        // A name with a space is percent-encoded, and still shown.
        client.find(Locator::Id("image")).await.unwrap().click().await.unwrap();
        client
            .wait()
            .for_element(Locator::Css("#image-list button[data-path='img/other one.png']"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        client.find(Locator::Id("image-insert")).await.unwrap().click().await.unwrap();
        until(
            &client,
            "the decoration in the text and the preview",
            "const d = document.getElementById('preview').contentDocument; \
             const i = d && d.querySelector('img[alt=\"\"]'); \
             return window.pagetextEditor.text().includes('![../img/other%20one.png||]') \
             && i !== null && i.complete && i.naturalWidth > 0;",
        )
        .await;
        client.close().await.unwrap();
    });
}

/// A long page: 300 sections, each a heading and a paragraph of a few
/// lines, with a preformatted block now and then (taller in the text
/// than in the preview, or the other way round).
fn long_site(dir: &Path) {
    let mut text = String::from("#Title Long\n\n");
    for n in 1..=300 {
        text.push_str(&format!(
            "= Section {n} =\n\nThe paragraph of section {n},\nwhich runs over\nthree lines.\n\n"
        ));
        if n % 7 == 0 {
            text.push_str(" some\n preformatted\n lines\n\n");
        }
        if n % 11 == 0 {
            text.push_str(&format!(
                "  * the first item of {n}\n  * the second item of {n}\n\n"
            ));
        }
        if n % 13 == 0 {
            // A paragraph on one long line, which wraps in the text.
            text.push_str(&"A long line that wraps. ".repeat(40));
            text.push_str("\n\n");
        }
    }
    fs::write(dir.join("long.txt"), text).unwrap();
}

/// The text's line of `= Section N =`.
async fn section_line(client: &Client, n: u32) -> u64 {
    let found = client
        .execute(
            "return window.pagetextEditor.text().split('\\n').indexOf(`= Section ${arguments[0]} =`) + 1;",
            vec![json!(n)],
        )
        .await
        .unwrap();
    found.as_u64().unwrap()
}

/// Where the preview's heading of section `n` is, from the frame's top
/// edge, in pixels.
async fn heading_top(client: &Client, n: u32) -> f64 {
    let top = client
        .execute(
            "const d = document.getElementById('preview').contentDocument; \
             const h = Array.from(d.querySelectorAll('h1')).find(h => h.textContent === `Section ${arguments[0]}`); \
             return h.getBoundingClientRect().top;",
            vec![json!(n)],
        )
        .await
        .unwrap();
    top.as_f64().unwrap()
}

/// Scrolls the text so that `line` is at its top edge, through the
/// editor (which measures the lines first: with long lines wrapping, a
/// `scrollTop` computed from estimated heights lands lines away), and
/// waits until that line is the one at the top.
async fn scroll_text_to(client: &Client, line: u64) {
    client
        .execute(
            "window.pagetextEditor.scrollToLine(arguments[0]);",
            vec![json!(line)],
        )
        .await
        .unwrap();
    until(
        client,
        &format!("line {line} at the text's top edge"),
        &format!(
            "const v = window.pagetextEditor.view; \
             const top = v.scrollDOM.getBoundingClientRect().top - v.documentTop; \
             return v.state.doc.lineAt(v.lineBlockAtHeight(Math.max(0, top) + 1).from).number === {line};"
        ),
    )
    .await;
}

#[test]
fn the_text_and_the_preview_scroll_in_step() {
    let Some(session) = Session::start(long_site) else {
        return;
    };
    let server = &session.server;
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let client = session.client().await;
        client.goto(&server.address).await.unwrap();
        pick(&client, "long.txt").await;
        until(
            &client,
            "the preview's blocks",
            "const d = document.getElementById('preview').contentDocument; \
             return d && d.querySelectorAll('h1[data-line]').length === 300;",
        )
        .await;
        // Long lines wrap: the text never scrolls sideways, and a long
        // line, once shown (and measured), takes several rows.
        let long = client
            .execute(
                "return window.pagetextEditor.text().split('\\n').findIndex(l => l.length > 500) + 1;",
                vec![],
            )
            .await
            .unwrap()
            .as_u64()
            .unwrap();
        assert!(long > 0);
        scroll_text_to(&client, long).await;
        until(
            &client,
            "long lines wrapped",
            &format!(
                "const v = window.pagetextEditor.view; \
                 const b = v.lineBlockAt(v.state.doc.line({long}).from); \
                 return v.scrollDOM.scrollWidth <= v.scrollDOM.clientWidth + 1 \
                   && b.height > 2.5 * v.defaultLineHeight;"
            ),
        )
        .await;
        // The text scrolled far down: the preview shows the same block.
        let line = section_line(&client, 200).await;
        scroll_text_to(&client, line).await;
        until(
            &client,
            "the preview at section 200",
            "const d = document.getElementById('preview').contentDocument; \
             const h = Array.from(d.querySelectorAll('h1')).find(h => h.textContent === 'Section 200'); \
             const top = h.getBoundingClientRect().top; return top > -30 && top < 30;",
        )
        .await;
        screenshot(&client, "scroll-text").await;

        // An edit there: the preview is updated in place (the same
        // document, still under its policy), and stays at the block.
        client
            .execute(
                "const d = document.getElementById('preview').contentDocument; d.__kept = true; \
                 const e = window.pagetextEditor; e.select(e.view.state.doc.line(arguments[0]).to);",
                vec![json!(line + 4)],
            )
            .await
            .unwrap();
        client
            .find(Locator::Css("#editor .cm-content"))
            .await
            .unwrap()
            .send_keys(" Patched.")
            .await
            .unwrap();
        until(
            &client,
            "the edit in the same preview document",
            "const d = document.getElementById('preview').contentDocument; \
             const p = Array.from(d.querySelectorAll('p')).find(p => p.textContent.startsWith('The paragraph of section 200,')); \
             const h = Array.from(d.querySelectorAll('h1')).find(h => h.textContent === 'Section 200'); \
             const policy = d.querySelector('meta[http-equiv=\"Content-Security-Policy\"]'); \
             return d.__kept === true && p.textContent.endsWith('Patched.') \
             && policy !== null && policy.content.includes(\"script-src 'none'\") \
             && Math.abs(h.getBoundingClientRect().top) < 30;",
        )
        .await;
        // A line added above: only the changed block is new; the blocks
        // below keep their nodes (parsed once) and move to their new lines.
        client
            .execute(
                "const d = document.getElementById('preview').contentDocument; \
                 const h = Array.from(d.querySelectorAll('h1')).find(h => h.textContent === 'Section 250'); \
                 h.__kept = true; \
                 const e = window.pagetextEditor; e.select(e.view.state.doc.line(arguments[0]).to);",
                vec![json!(line + 4)],
            )
            .await
            .unwrap();
        client
            .find(Locator::Css("#editor .cm-content"))
            .await
            .unwrap()
            .send_keys("\u{e007}One more line.")
            .await
            .unwrap();
        let moved = section_line(&client, 250).await;
        let wanted = format!(
            "const d = document.getElementById('preview').contentDocument; \
             const h = Array.from(d.querySelectorAll('h1')).find(h => h.textContent === 'Section 250'); \
             const p = Array.from(d.querySelectorAll('p')).find(p => p.textContent.startsWith('The paragraph of section 200,')); \
             return d.__kept === true && h.__kept === true && h.getAttribute('data-line') === '{moved}' \
             && p.textContent.endsWith('One more line.');"
        );
        until(&client, "the blocks below moved, not rebuilt", &wanted).await;
        // Scrolling in step reads the moved lines (a nested mark counts
        // from its block's line).
        scroll_text_to(&client, moved).await;
        until(
            &client,
            "the preview at the moved section 250",
            "const d = document.getElementById('preview').contentDocument; \
             const h = Array.from(d.querySelectorAll('h1')).find(h => h.textContent === 'Section 250'); \
             const top = h.getBoundingClientRect().top; return top > -30 && top < 30;",
        )
        .await;
        // A nested block (an item of section 253's list) is found at its
        // moved line: the preview scrolled to it, the text follows to that
        // line. (First a pause: for two frames after it scrolls a side,
        // scroll.js takes that side's next scroll event for its own.)
        let item = client
            .execute(
                "const lines = window.pagetextEditor.text().split('\\n'); \
                 return lines.indexOf('  * the second item of 253') + 1;",
                vec![],
            )
            .await
            .unwrap()
            .as_u64()
            .unwrap();
        tokio::time::sleep(Duration::from_millis(300)).await;
        client
            .execute(
                "const d = document.getElementById('preview').contentDocument; \
                 const li = Array.from(d.querySelectorAll('li')).find(li => li.textContent === 'the second item of 253'); \
                 d.defaultView.scrollTo(0, li.getBoundingClientRect().top + d.defaultView.scrollY);",
                vec![],
            )
            .await
            .unwrap();
        let wanted = format!(
            "const l = window.pagetextScroll.textLine(); \
             return window.pagetextScroll.previewLine() === {item} && l >= {item} - 0.5 && l < {item} + 1.5;"
        );
        until(&client, "the text at the moved item's line", &wanted).await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        // The frame never runs script, though the editor may read it.
        let sandbox = client
            .execute("return document.getElementById('preview').getAttribute('sandbox');", vec![])
            .await
            .unwrap();
        assert_eq!(sandbox, json!("allow-same-origin allow-top-navigation-by-user-activation"));

        // The preview scrolled: the text follows, to the same block.
        client
            .execute(
                "const d = document.getElementById('preview').contentDocument; \
                 Array.from(d.querySelectorAll('h1')).find(h => h.textContent === 'Section 50').scrollIntoView();",
                vec![],
            )
            .await
            .unwrap();
        let line = section_line(&client, 50).await;
        let wanted = format!(
            "const l = window.pagetextScroll.textLine(); return l >= {line} - 0.5 && l < {line} + 1.5;"
        );
        until(&client, "the text at section 50", &wanted).await;
        screenshot(&client, "scroll-preview").await;

        // Turned off: the preview stays where it is; remembered.
        client.find(Locator::Id("scroll-sync")).await.unwrap().click().await.unwrap();
        let before = heading_top(&client, 50).await;
        let far = section_line(&client, 280).await;
        scroll_text_to(&client, far).await;
        tokio::time::sleep(Duration::from_millis(600)).await;
        let after = heading_top(&client, 50).await;
        assert!((before - after).abs() < 1.0, "the preview moved: {before} -> {after}");
        let state = client
            .execute(
                "return [window.pagetextScroll.enabled(), localStorage.getItem('pagetext.scrollSync')];",
                vec![],
            )
            .await
            .unwrap();
        assert_eq!(state, json!([false, "off"]));
        // And on again: the preview catches up with the text.
        client.find(Locator::Id("scroll-sync")).await.unwrap().click().await.unwrap();
        until(
            &client,
            "the preview at section 280",
            "const d = document.getElementById('preview').contentDocument; \
             const h = Array.from(d.querySelectorAll('h1')).find(h => h.textContent === 'Section 280'); \
             const top = h.getBoundingClientRect().top; return top > -30 && top < 30;",
        )
        .await;
        client.close().await.unwrap();
    });
}

fn plain_site(dir: &Path) {
    fs::write(
        dir.join("notes.txt"),
        "#Title Notes\n\n= Notes =\n\nFirst.\n",
    )
    .unwrap();
}

/// Markup and script links typed into a page whose preview is updated in
/// place: shown as text or dropped, and nothing runs, in the frame or in
/// the editor, even when the links are clicked.
#[test]
fn a_preview_updated_in_place_never_runs_script() {
    let Some(session) = Session::start(plain_site) else {
        return;
    };
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let client = session.client().await;
        client.goto(&session.server.address).await.unwrap();
        pick(&client, "notes.txt").await;
        until(
            &client,
            "the first preview",
            "const d = document.getElementById('preview').contentDocument; \
             if (!d || d.querySelector('h1') === null) return false; d.__kept = true; return true;",
        )
        .await;
        client
            .execute("const e = window.pagetextEditor; e.select(e.text().length);", vec![])
            .await
            .unwrap();
        let payload = "window.__pwned=1;try{top.document.title='PWNED'}catch(e){}";
        client
            .find(Locator::Css("#editor .cm-content"))
            .await
            .unwrap()
            .send_keys(&format!(
                "\n[javascript:{payload}||run me] <img src=x onerror=\"{payload}\"> <script>{payload}</script>\n\n[https://example.org/||away]\n"
            ))
            .await
            .unwrap();
        until(
            &client,
            "the hostile text in the same preview document",
            "const d = document.getElementById('preview').contentDocument; \
             return d.__kept === true && d.body.textContent.includes('run me') \
             && d.body.textContent.includes('<script>') && d.querySelector('a[href^=\"https://example.org\"]') !== null;",
        )
        .await;
        client.enter_frame(0).await.unwrap();
        for link in client.find_all(Locator::Css("a")).await.unwrap() {
            let _ = link.click().await;
        }
        client.enter_parent_frame().await.unwrap();
        tokio::time::sleep(Duration::from_millis(300)).await;
        let state = client
            .execute(
                "const w = document.getElementById('preview').contentWindow; \
                 let inside = null; try { inside = w.__pwned === undefined; } catch (e) { inside = 'elsewhere'; } \
                 return [inside, window.__pwned === undefined, document.title.includes('PWNED'), \
                 document.getElementById('preview').contentDocument === null \
                 || document.getElementById('preview').contentDocument.querySelector('script, [onerror]') === null];",
                vec![],
            )
            .await
            .unwrap();
        // A clicked outside link may have taken the frame elsewhere (then
        // its window is not readable): still nothing ran.
        assert!(
            state == json!([true, true, false, true]) || state == json!(["elsewhere", true, false, true]),
            "{state}"
        );
        client.close().await.unwrap();
    });
}

/// The README's example: a page of the text format with an image of the
/// site, a list, a definition list, links and a quotation.
fn readme_site(dir: &Path) {
    let lines = [
        "#Title Getting started",
        "#Lang en",
        "#Extend image",
        "",
        "= Getting started =",
        "",
        "![logo.svg||The pagetext logo]{96x96}",
        "",
        "pagetext turns web pages into a _small_ text format",
        "and back into *XHTML 1.0*. Edit the text on the left:",
        "the preview on the right follows it, block by block,",
        "as you type and as you scroll.",
        "",
        "== [|install|Install] ==",
        "",
        "  1. Download the binary for your system.",
        "  2. Run 'pagetext edit site/' and open the address it prints.",
        "  3. Pick a page in the tree, or make a new one.",
        "",
        "== What the format holds ==",
        "",
        "Headings::",
        "    Lines between equal signs, one sign per level.",
        "Lists::",
        "    Bullets and numbers, indented by two spaces.",
        "Links::",
        "    [https://example.org/||Like this one], or to a [#install||heading].",
        "",
        "  > A quotation stands apart, indented.",
        "",
        "Images of the site come from the picker: ![logo.svg||Logo]{16x16} in a line.",
    ];
    fs::write(dir.join("guide.txt"), lines.join("\n") + "\n").unwrap();
    fs::write(
        dir.join("logo.svg"),
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 96 96\" width=\"96\" height=\"96\">\
         <rect width=\"96\" height=\"96\" rx=\"16\" fill=\"#23395d\"/>\
         <path d=\"M24 22h34a16 16 0 0 1 0 32H38v20H24z\" fill=\"#fff\"/>\
         <rect x=\"38\" y=\"34\" width=\"18\" height=\"8\" rx=\"4\" fill=\"#23395d\"/>\
         <rect x=\"58\" y=\"62\" width=\"18\" height=\"10\" rx=\"3\" fill=\"#f0b429\"/></svg>",
    )
    .unwrap();
    fs::create_dir(dir.join("docs")).unwrap();
    fs::write(dir.join("docs/changes.html"), "<h1>Changes</h1>").unwrap();
    fs::write(dir.join("index.html"), "<h1>Home</h1>").unwrap();
}

/// Writes the README's screenshot, `docs/edit.png`: the editor with a
/// page open, its markup highlighted, and the preview. Ignored, as it
/// changes a file of the repository:
/// `cargo test -p pagetext --test edit_browser_view -- --ignored readme`.
#[test]
#[ignore = "writes docs/edit.png: run it to renew the README's screenshot"]
fn readme_screenshot() {
    let Some(session) = Session::start(readme_site) else {
        return;
    };
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let client = session.client().await;
        client.set_window_size(1280, 800).await.unwrap();
        client.goto(&session.server.address).await.unwrap();
        pick(&client, "guide.txt").await;
        until(
            &client,
            "the preview with its image",
            "const d = document.getElementById('preview').contentDocument; \
             const i = d && d.querySelector('img'); return i !== null && i.complete && i.naturalWidth > 0 \
             && document.querySelector('#editor .pt-heading') !== null;",
        )
        .await;
        // The cursor in the text, where a person would be typing.
        client
            .execute(
                "const e = window.pagetextEditor; e.select(e.text().indexOf('block by block,') + 15);",
                vec![],
            )
            .await
            .unwrap();
        tokio::time::sleep(Duration::from_millis(300)).await;
        let png = client.screenshot().await.unwrap();
        let out = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/edit.png");
        fs::write(&out, &png).unwrap();
        assert!(png.len() < 300_000, "{} bytes: too big for the README", png.len());
        client.close().await.unwrap();
    });
}
