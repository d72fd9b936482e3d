//! `pagetext edit`'s site-wide changes in a real browser, as a person makes
//! them: find a text in three pages, untick one place, replace the others;
//! rename and move a page, look at the pages whose links change, apply, and
//! follow every link (in the preview, and in the site's own files served
//! under `/TOKEN/site/`) to see that each still reaches its page.
//!
//! Shares `support/browser.rs` with `edit_browser.rs`; screenshots go to
//! `target/browser/` (`edit-find.png`, `edit-rename.png`).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "support/browser.rs"]
mod browser;
#[path = "support/editor.rs"]
mod editor;

use std::fs;
use std::path::Path;

use browser::{Session, editor_text, pick, screenshot, until};
use fantoccini::{Client, Locator};
use serde_json::json;

fn find_site(dir: &Path) {
    fs::write(
        dir.join("a.txt"),
        "\n= A =\n\nThe old name is here, and the old name again.\n",
    )
    .unwrap();
    fs::write(dir.join("b.txt"), "\nOld Name in b, as a title.\n").unwrap();
    fs::create_dir(dir.join("sub")).unwrap();
    fs::write(
        dir.join("sub/c.html"),
        "<html><head><title>C</title></head><body><p>The old name in HTML.</p></body></html>",
    )
    .unwrap();
    fs::write(dir.join("d.txt"), "\nNothing to see.\n").unwrap();
}

async fn click(client: &Client, id: &str) {
    client
        .find(Locator::Id(id))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
}

async fn type_into(client: &Client, id: &str, text: &str) {
    let input = client.find(Locator::Id(id)).await.unwrap();
    input.clear().await.unwrap();
    input.send_keys(text).await.unwrap();
}

#[test]
fn find_and_replace_across_three_pages() {
    let Some(session) = Session::start(find_site) else {
        return;
    };
    let (site, server) = (&session.site, &session.server);
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let client = session.client().await;
        client.goto(&server.address).await.unwrap();
        pick(&client, "a.txt").await;
        click(&client, "find-site").await;
        type_into(&client, "find-query", "old name").await;
        type_into(&client, "find-replacement", "new name").await;
        click(&client, "find-search").await;
        until(
            &client,
            "three pages of places",
            "return document.querySelectorAll('#find-results section.find-page').length === 3;",
        )
        .await;
        let listed = client
            .execute(
                "return Array.from(document.querySelectorAll('#find-results section.find-page')).map(s => \
                 [s.dataset.path, Array.from(s.querySelectorAll('li')).map(li => li.querySelector('.line').textContent)]);",
                vec![],
            )
            .await
            .unwrap();
        // Each place shows its line with the replacement in place.
        assert_eq!(
            listed,
            json!([
                ["a.txt", [
                    "The old namenew name is here, and the old name again.",
                    "The old name is here, and the old namenew name again."
                ]],
                ["b.txt", ["Old Namenew name in b, as a title."]],
                ["sub/c.html", ["The old namenew name in HTML."]],
            ])
        );
        // Untick the second place of a.txt: it stays as it is.
        client
            .find(Locator::Css(
                "section.find-page[data-path='a.txt'] li:nth-child(2) input",
            ))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        until(
            &client,
            "three places chosen",
            "return document.getElementById('find-replace').textContent === 'Replace 3 chosen places';",
        )
        .await;
        screenshot(&client, "find").await;
        assert!(
            fs::read_to_string(site.path().join("a.txt"))
                .unwrap()
                .contains("The old name is here"),
            "nothing is written before the person says so"
        );
        click(&client, "find-replace").await;
        until(
            &client,
            "the replace's account",
            "return document.getElementById('find-summary').textContent.startsWith('Replaced 3 places in 3 pages');",
        )
        .await;
        assert_eq!(
            fs::read_to_string(site.path().join("a.txt")).unwrap(),
            "\n= A =\n\nThe new name is here, and the old name again.\n"
        );
        assert_eq!(
            fs::read_to_string(site.path().join("b.txt")).unwrap(),
            "\nnew name in b, as a title.\n"
        );
        let html = fs::read_to_string(site.path().join("sub/c.html")).unwrap();
        assert!(html.contains("<p>The new name in HTML.</p>"), "{html}");
        assert!(site.path().join("sub/c.html.orig").exists());
        assert_eq!(
            fs::read_to_string(site.path().join("d.txt")).unwrap(),
            "\nNothing to see.\n"
        );
        // The open page shows what is on disk now.
        until(
            &client,
            "the open page reopened",
            "return window.pagetextEditor.text().includes('The new name is here');",
        )
        .await;
        assert!(editor_text(&client).await.contains("the old name again"));
        client.close().await.unwrap();
    });
}

fn rename_site(dir: &Path) {
    fs::write(
        dir.join("index.txt"),
        "\n= Home =\n\nRead the [docs/guide.txt#install||install notes] or the [docs/guide.txt||guide].\n",
    )
    .unwrap();
    fs::create_dir(dir.join("docs")).unwrap();
    fs::write(
        dir.join("docs/guide.txt"),
        "\n= [|install|Install] =\n\nBack [../index.txt||home], or the [faq.html||questions].\n",
    )
    .unwrap();
    fs::write(
        dir.join("docs/faq.html"),
        "<html><head><title>FAQ</title></head><body><p>See <a href=\"guide.txt#install\">the guide</a>.</p></body></html>",
    )
    .unwrap();
}

/// Clicks the link `text` in the preview and waits for the editor to open
/// `path`.
async fn follow_in_preview(client: &Client, text: &str, path: &str) {
    let start = std::time::Instant::now();
    loop {
        client.enter_frame(0).await.unwrap();
        let link = client.find(Locator::LinkText(text)).await;
        let clicked = match link {
            Ok(link) => link.click().await.is_ok(),
            Err(_) => false,
        };
        client.enter_parent_frame().await.unwrap();
        if clicked {
            break;
        }
        assert!(
            start.elapsed() < std::time::Duration::from_secs(20),
            "no link {text:?} in the preview"
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let opened = format!("return document.getElementById('current').textContent === {path:?};");
    until(client, &format!("{path} opened by its link"), &opened).await;
}

#[test]
fn a_rename_keeps_every_link_working() {
    let Some(session) = Session::start(rename_site) else {
        return;
    };
    let (site, server) = (&session.site, &session.server);
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let client = session.client().await;
        client.goto(&server.address).await.unwrap();
        pick(&client, "docs/guide.txt").await;
        click(&client, "rename").await;
        type_into(&client, "rename-to", "manual/setup.txt").await;
        click(&client, "rename-plan").await;
        until(
            &client,
            "the pages whose links change",
            "return document.querySelectorAll('#rename-list li').length === 3;",
        )
        .await;
        let listed = client
            .execute(
                "return [document.getElementById('rename-summary').textContent, \
                 Array.from(document.querySelectorAll('#rename-list li')).map(li => li.textContent)];",
                vec![],
            )
            .await
            .unwrap();
        assert_eq!(
            listed,
            json!([
                "docs/guide.txt → manual/setup.txt: 4 links in 3 pages will be rewritten; 1 folder will be made (manual).",
                ["docs/faq.html1 link", "docs/guide.txtits own 1 link", "index.txt2 links"]
            ])
        );
        screenshot(&client, "rename").await;
        assert!(site.path().join("docs/guide.txt").exists(), "only a plan");
        click(&client, "rename-apply").await;
        until(
            &client,
            "the page opened at its new path",
            "return document.getElementById('current').textContent === 'manual/setup.txt' \
             && document.getElementById('rename-panel').hidden;",
        )
        .await;
        assert!(!site.path().join("docs/guide.txt").exists());
        assert_eq!(
            fs::read_to_string(site.path().join("manual/setup.txt")).unwrap(),
            "\n= [|install|Install] =\n\nBack [../index.txt||home], or the [../docs/faq.html||questions].\n"
        );

        // Follow every link in the preview, from page to page.
        follow_in_preview(&client, "questions", "docs/faq.html").await;
        follow_in_preview(&client, "the guide", "manual/setup.txt").await;
        follow_in_preview(&client, "home", "index.txt").await;
        follow_in_preview(&client, "install notes", "manual/setup.txt").await;
        pick(&client, "index.txt").await;
        follow_in_preview(&client, "guide", "manual/setup.txt").await;

        // And in the site's own HTML file as served: its link reaches the
        // moved page, at its anchor.
        client
            .goto(&format!("{}site/docs/faq.html", server.address))
            .await
            .unwrap();
        client
            .find(Locator::LinkText("the guide"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        let reached = until(
            &client,
            "the moved page, served",
            "return location.pathname.endsWith('/site/manual/setup.txt') && location.hash === '#install' \
             && document.body.textContent.includes('[|install|Install]') && location.href;",
        )
        .await;
        assert!(reached.as_str().unwrap().contains("/site/manual/setup.txt#install"));
        client.close().await.unwrap();
    });
}
