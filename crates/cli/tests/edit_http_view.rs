//! `pagetext edit` at the HTTP level, continued (the first file is
//! `edit_http.rs`): the image picker's routes (`GET api/images`,
//! `POST api/image`) behind the same gate and containment as every route,
//! and the preview's line marks, which a saved page never carries.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "support/editor.rs"]
mod editor;

use std::fs;
use std::os::unix::fs::symlink;

use editor::Server;
use serde_json::json;

/// `outer/site` (DIR): pages, images in folders, and what must never be
/// offered: a hidden image, a link to an image outside, a folder link out
/// of DIR, a FIFO named like an image, files that are not images.
fn stage() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let outer = fs::canonicalize(dir.path()).unwrap();
    let site = outer.join("site");
    fs::create_dir_all(site.join("docs/deep")).unwrap();
    fs::create_dir_all(site.join("img/icons")).unwrap();
    fs::create_dir(outer.join("away")).unwrap();
    fs::write(outer.join("away/secret.png"), b"\x89PNG outside").unwrap();
    fs::write(outer.join("secret.jpg"), b"outside").unwrap();
    fs::write(site.join("index.txt"), "#Title Home\n\n= Home =\n").unwrap();
    fs::write(site.join("docs/deep/page.txt"), "\nDeep.\n").unwrap();
    fs::write(site.join("page.html"), "<h1>Page</h1><p>Text.</p>").unwrap();
    for name in [
        "img/logo.png",
        "img/Photo.JPG",
        "img/icons/a b.svg",
        "img/icons/c.webp",
        "img/icons/d.avif",
        "top.gif",
    ] {
        fs::write(site.join(name), b"image bytes").unwrap();
    }
    fs::write(site.join("img/.hidden.png"), b"hidden").unwrap();
    fs::write(site.join("img/notes.txt"), "\nnot an image\n").unwrap();
    fs::write(site.join("img/style.css"), "p {}").unwrap();
    symlink(outer.join("secret.jpg"), site.join("img/linked.jpg")).unwrap();
    symlink(outer.join("away"), site.join("out")).unwrap();
    rustix::fs::mkfifoat(
        rustix::fs::CWD,
        site.join("img/fifo.png"),
        rustix::fs::Mode::from_raw_mode(0o644),
    )
    .unwrap();
    (dir, site)
}

fn wrong_token(server: &Server) -> String {
    server
        .token
        .chars()
        .map(|c| if c == '0' { '1' } else { '0' })
        .collect()
}

#[test]
fn the_picker_routes_pass_the_same_gate() {
    let (_dir, site) = stage();
    let server = Server::start(&site);
    let host = server.host();
    let own = server.origin();
    let body = br#"{"page":"index.txt","image":"top.gif","alt":"x"}"#;
    // No token, a wrong token, a foreign Host.
    for (method, route) in [("GET", "api/images"), ("POST", "api/image")] {
        let headers = [("Host", host.as_str()), ("Origin", own.as_str())];
        let no_token = server.send(method, &format!("/{route}"), &headers, body);
        assert_eq!(no_token.status, 401, "{route}");
        assert_eq!(no_token.header("x-content-type-options"), Some("nosniff"));
        let wrong = format!("/{}/{route}", wrong_token(&server));
        assert_eq!(server.send(method, &wrong, &headers, body).status, 403);
        let right = format!("/{}/{route}", server.token);
        let foreign = [("Host", "evil.example"), ("Origin", own.as_str())];
        assert_eq!(server.send(method, &right, &foreign, body).status, 403);
    }
    // Spelling needs the editor's Origin, as every POST does.
    let target = format!("/{}/api/image", server.token);
    for origin in [None, Some("null"), Some("http://evil.example")] {
        let mut headers = vec![("Host", host.as_str())];
        if let Some(origin) = origin {
            headers.push(("Origin", origin));
        }
        assert_eq!(
            server.send("POST", &target, &headers, body).status,
            403,
            "Origin: {origin:?}"
        );
    }
    // The wrong methods.
    assert_eq!(server.post("api/images", &json!({})).status, 405);
    assert_eq!(server.get("api/image").status, 405);
    // The scripts of the page are served, and only by GET.
    for script in ["preview.js", "scroll.js", "images.js"] {
        let answer = server.get(script);
        assert_eq!(answer.status, 200, "{script}");
        assert_eq!(
            answer.header("content-type"),
            Some("text/javascript; charset=utf-8")
        );
        assert_eq!(server.post(script, &json!({})).status, 405);
    }
}

#[test]
fn the_site_images_are_listed_inside_only() {
    let (_dir, site) = stage();
    let server = Server::start(&site);
    let answer = server.get("api/images");
    assert_eq!(answer.status, 200, "{}", answer.text());
    assert_eq!(
        answer.json(),
        json!({
            "images": [
                "img/Photo.JPG",
                "img/icons/a b.svg",
                "img/icons/c.webp",
                "img/icons/d.avif",
                "img/logo.png",
                "top.gif",
            ],
            "truncated": false,
        })
    );
    // Their thumbnails are the site's files, with their media types.
    let svg = server.get("site/img/icons/a%20b.svg");
    assert_eq!(svg.status, 200);
    assert_eq!(svg.header("content-type"), Some("image/svg+xml"));
    assert_eq!(
        server.get("site/img/icons/d.avif").header("content-type"),
        Some("image/avif")
    );
}

/// Asks for `image` spelled into `page` whose header is `header`.
fn spell(server: &Server, page: &str, image: &str, alt: &str, header: &str) -> editor::Answer {
    server.post(
        "api/image",
        &json!({"page": page, "image": image, "alt": alt, "header": header, "next": ""}),
    )
}

#[test]
fn an_image_is_spelled_relative_to_its_page() {
    let (_dir, site) = stage();
    let server = Server::start(&site);
    let ok = |page: &str, image: &str, alt: &str, header: &str| {
        let answer = spell(&server, page, image, alt, header);
        assert_eq!(answer.status, 200, "{image}: {}", answer.text());
        answer.json()
    };
    assert_eq!(
        ok("index.txt", "img/logo.png", "Our logo", "#Title Home"),
        json!({
            "declare": "#Extend image",
            "markup": "![img/logo.png||Our logo]",
            "notes": [],
            "src": "img/logo.png",
        })
    );
    let deep = ok(
        "docs/deep/page.txt",
        "img/icons/a b.svg",
        "",
        "#Extend image",
    );
    assert_eq!(deep["markup"], "![../../img/icons/a%20b.svg||]");
    assert_eq!(deep["declare"], json!(null));
    // An HTML page's text gets its images the same way.
    assert_eq!(
        ok("page.html", "top.gif", "Top", "")["markup"],
        "![top.gif||Top]"
    );
    // What only an escape can say: refused without `#Escape \`, written
    // with it.
    let refused = spell(&server, "index.txt", "top.gif", "_all_", "#Title Home");
    assert_eq!(refused.status, 422, "{}", refused.text());
    assert!(refused.text().contains("escapes"), "{}", refused.text());
    let escaped = ok("index.txt", "top.gif", "_all_", "#Title Home\n#Escape \\");
    assert_eq!(escaped["markup"], "![top.gif||\\_all_]");
    // Before a letter, braces end the image.
    let answer = server.post(
        "api/image",
        &json!({"page": "index.txt", "image": "top.gif", "alt": "T", "header": "", "next": "w"}),
    );
    assert_eq!(answer.json()["markup"], "![top.gif||T]{}");
}

#[test]
fn only_images_inside_the_site_are_spelled() {
    let (dir, site) = stage();
    let server = Server::start(&site);
    let outer = dir.path();
    for (page, image, statuses) in [
        ("index.txt", "../secret.jpg", &[403][..]),
        ("index.txt", "/etc/passwd", &[403]),
        ("index.txt", "out/secret.png", &[403, 404]),
        ("index.txt", "img/linked.jpg", &[403, 404]),
        ("index.txt", "img/.hidden.png", &[403]),
        ("index.txt", "img/missing.png", &[404]),
        ("index.txt", "img/notes.txt", &[422]),
        ("index.txt", "img/style.css", &[422]),
        ("index.txt", "img", &[422]),
        // A FIFO is refused at once, never opened.
        ("index.txt", "img/fifo.png", &[422]),
        ("../x.txt", "top.gif", &[403]),
        ("out/page.txt", "top.gif", &[403, 404]),
        ("nowhere.txt", "top.gif", &[404]),
    ] {
        let answer = spell(&server, page, image, "x", "");
        assert!(
            statuses.contains(&answer.status),
            "{page} {image}: {} {}",
            answer.status,
            answer.text()
        );
        assert!(
            !answer.text().contains("secret.png\"]"),
            "{}",
            answer.text()
        );
    }
    // A header of a whole page is refused: only the header's lines are sent.
    let big = "#Title x\n".repeat(10_000);
    assert_eq!(
        spell(&server, "index.txt", "top.gif", "x", &big).status,
        413
    );
    // Nothing was written anywhere.
    assert_eq!(fs::read(outer.join("secret.jpg")).unwrap(), b"outside");
    assert_eq!(server.get("api/tree?dir=").status, 200);
}

#[test]
fn the_preview_marks_its_blocks_and_a_save_never_keeps_the_marks() {
    let (_dir, site) = stage();
    let server = Server::start(&site);
    let text = "#Title Page\n\n= Page =\n\nText.\n\n  * an item\n";
    let render = server.post("api/render", &json!({"text": text}));
    assert_eq!(render.status, 200, "{}", render.text());
    let xhtml = render.json()["xhtml"].as_str().unwrap().to_owned();
    assert!(xhtml.contains("<h1 data-line=\"3\">Page</h1>"), "{xhtml}");
    assert!(xhtml.contains("<p data-line=\"5\">Text.</p>"), "{xhtml}");
    assert!(xhtml.contains("<li data-line=\"7\">"), "{xhtml}");
    // In parts, as the editor's page asks: each top-level block with its
    // line; the list's item counts from the list's line.
    let parts = server
        .post("api/render", &json!({"text": text, "blocks": true}))
        .json();
    assert!(parts.get("xhtml").is_none(), "{parts}");
    let preview = &parts["preview"];
    assert!(
        preview["head"].as_str().unwrap().ends_with("<body>"),
        "{preview}"
    );
    assert_eq!(
        preview["blocks"],
        json!([
            [3, "\n<h1>Page</h1>"],
            [5, "\n<p>Text.</p>"],
            [7, "\n<ul>\n<li data-offset=\"0\">an item</li>\n</ul>"]
        ]),
    );
    assert!(
        preview["tail"].as_str().unwrap().contains("</body>"),
        "{preview}"
    );
    // Saved as XHTML, then as text: no marks in either file.
    for page in ["page.html", "index.txt"] {
        let version = server.get(&format!("api/page?path={page}")).json()["version"].clone();
        let saved = server.post(
            "api/save",
            &json!({"path": page, "text": text, "version": version}),
        );
        assert_eq!(saved.status, 200, "{}", saved.text());
        let on_disk = fs::read_to_string(site.join(page)).unwrap();
        assert!(on_disk.contains("Page"), "{on_disk}");
        assert!(!on_disk.contains("data-line"), "{page}: {on_disk}");
    }
    // The HTML page reopened: its text has no trace of them either.
    let reopened = server.get("api/page?path=page.html").json();
    assert!(!reopened["text"].as_str().unwrap().contains("data-line"));
}

#[test]
fn the_review_shows_what_changes_in_the_page_s_bytes_and_a_clean_save_is_asked_for() {
    let (_dir, site) = stage();
    let page = "<!DOCTYPE html>\n<html><head><title>T</title><script>x()</script></head>\n<body>\n<p class=\"lead\">One word here.</p>\n<p>More.</p>\n</body></html>\n";
    fs::write(site.join("styled.html"), page).unwrap();
    let server = Server::start(&site);
    let opened = server.get("api/page?path=styled.html").json();
    let text = opened["text"].as_str().unwrap().to_owned();
    // Unchanged: nothing changes in the page.
    let changes = server.post("api/changes", &json!({"path": "styled.html", "text": text}));
    assert_eq!(changes.status, 200, "{}", changes.text());
    assert_eq!(changes.json()["changes"], json!([]));
    // One word: one change at line 4, with the page around it.
    let edited = text.replace("word", "term");
    let changes = server.post(
        "api/changes",
        &json!({"path": "styled.html", "text": edited}),
    );
    let listed = changes.json();
    assert_eq!(
        listed["changes"].as_array().map(Vec::len),
        Some(1),
        "{listed}"
    );
    let change = &listed["changes"][0];
    assert_eq!(change["line"], 4);
    assert_eq!(
        (change["removed"].as_str(), change["added"].as_str()),
        (Some("word"), Some("term"))
    );
    assert!(
        change["before"]
            .as_str()
            .unwrap()
            .ends_with("<p class=\"lead\">One "),
        "{change}"
    );
    assert!(
        change["after"].as_str().unwrap().starts_with(" here.</p>"),
        "{change}"
    );
    // The page as that save writes it, for the preview.
    let view = server.post("api/view", &json!({"path": "styled.html", "text": edited}));
    assert_eq!(view.status, 200, "{}", view.text());
    assert_eq!(view.json()["html"], page.replace("One word", "One term"));
    let refused = server.post("api/view", &json!({"path": "index.txt", "text": "x"}));
    assert_eq!(refused.status, 422, "{}", refused.text());
    // Nothing was written by asking.
    assert_eq!(fs::read_to_string(site.join("styled.html")).unwrap(), page);
    // A text page has no page bytes to compare; a path out of DIR is refused.
    let refused = server.post("api/changes", &json!({"path": "index.txt", "text": "x"}));
    assert_eq!(refused.status, 422, "{}", refused.text());
    let refused = server.post(
        "api/changes",
        &json!({"path": "../secret.jpg", "text": "x"}),
    );
    assert!(
        refused.status == 403 || refused.status == 404,
        "{}",
        refused.status
    );
    // Both answer only the editor itself: its Origin, as every write.
    let host = server.host();
    for route in ["api/changes", "api/view"] {
        let target = format!("/{}/{route}", server.token);
        let body = br#"{"path":"styled.html","text":""}"#;
        let refused = server.send(
            "POST",
            &target,
            &[("Host", &host), ("Content-Type", "application/json")],
            body,
        );
        assert_eq!(refused.status, 403, "{route} without the editor's Origin");
    }
    // The save writes exactly that change.
    let saved = server.post(
        "api/save",
        &json!({"path": "styled.html", "text": edited, "version": opened["version"]}),
    );
    assert_eq!(saved.status, 200, "{}", saved.text());
    assert_eq!(
        fs::read_to_string(site.join("styled.html")).unwrap(),
        page.replace("One word", "One term")
    );
    // "Save as clean XHTML", asked for: the seed's XHTML, template gone.
    let version = server.get("api/page?path=styled.html").json()["version"].clone();
    let clean = server.post(
        "api/save",
        &json!({"path": "styled.html", "text": edited, "version": version, "clean": true}),
    );
    assert_eq!(clean.status, 200, "{}", clean.text());
    let on_disk = fs::read_to_string(site.join("styled.html")).unwrap();
    assert!(
        on_disk.contains("<html xmlns=\"http://www.w3.org/1999/xhtml\">"),
        "{on_disk}"
    );
    assert!(
        on_disk.contains("<p>One term here.</p>") && !on_disk.contains("script"),
        "{on_disk}"
    );
}
