//! `pagetext edit` at the HTTP level: the real server on a random
//! loopback port, spoken to with raw requests. The token, Host and Origin
//! checks; path traversal in every form; conflicting, charset-keeping and
//! concurrent saves; a 5 MB page; a 10,000-file tree.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "support/editor.rs"]
mod editor;

use std::fs;
use std::path::Path;
use std::process::Command;

use editor::Server;
use serde_json::json;

/// A windows-1252 page: accented letters and the euro sign as single bytes.
const CP1252_PAGE: &[u8] =
    b"<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=windows-1252\">\
<title>Caf\xe9</title><script>var x = 1;</script></head><body><h1>Caf\xe9 cr\xe8me</h1>\
<p>Na\xefve \x80 prices, <a href=\"other.html\">the other page</a>.</p>\
<table><tr><th>Name</th><th>Price</th></tr><tr><td>Tea</td><td>2 \x80</td></tr></table></body></html>";

/// A Shift_JIS page: 日本語 is 93 FA 96 7B 8C EA.
const SJIS_PAGE: &[u8] =
    b"<html><head><meta charset=\"shift_jis\"><title>\x93\xfa\x96\x7b\x8c\xea</title></head>\
<body><h1>\x93\xfa\x96\x7b\x8c\xea</h1><p>\x83\x65\x83\x4c\x83\x58\x83\x67 text</p></body></html>";

fn site() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("cafe.html"), CP1252_PAGE).unwrap();
    fs::write(dir.path().join("nihon.html"), SJIS_PAGE).unwrap();
    fs::write(dir.path().join("notes.txt"), "\n= Notes =\n\nSome text.\n").unwrap();
    fs::create_dir(dir.path().join("sub")).unwrap();
    fs::write(dir.path().join("sub/other.html"), "<p>Other</p>").unwrap();
    fs::write(dir.path().join("style.css"), "h1 { color: teal }").unwrap();
    dir
}

fn open(server: &Server, path: &str) -> serde_json::Value {
    let answer = server.get(&format!("api/page?path={path}"));
    assert_eq!(answer.status, 200, "{}", answer.text());
    answer.json()
}

fn save(server: &Server, path: &str, text: &str, version: &str) -> editor::Answer {
    server.post(
        "api/save",
        &json!({"path": path, "text": text, "version": version}),
    )
}

#[test]
fn every_request_needs_the_token() {
    let site = site();
    let server = Server::start(site.path());
    let host = server.host();
    let get = |target: &str| server.send("GET", target, &[("Host", &host)], b"");
    for target in [
        "/",
        "/api/tree",
        "/app.js",
        "/site/style.css",
        "/x/api/tree",
    ] {
        let refused = get(target);
        assert_eq!(refused.status, 401, "{target}");
        // Refusals carry the same hardening as answers.
        assert_eq!(refused.header("x-content-type-options"), Some("nosniff"));
    }
    // The icon every browser asks for: nothing, and no 401 in its console;
    // with a foreign Host it is refused as everything else is.
    let icon = get("/favicon.ico");
    assert_eq!(icon.status, 204);
    assert_eq!(icon.header("x-content-type-options"), Some("nosniff"));
    let foreign = server.send("GET", "/favicon.ico", &[("Host", "evil.example:80")], b"");
    assert_eq!(foreign.status, 403);
    let wrong: String = server
        .token
        .chars()
        .map(|c| if c == '0' { '1' } else { '0' })
        .collect();
    for path in ["", "api/tree", "app.js", "editor.js", "site/style.css"] {
        assert_eq!(get(&format!("/{wrong}/{path}")).status, 403, "{path}");
        assert_eq!(server.get(path).status, 200, "{path}");
    }
    // The token's own directory: redirected to have its slash.
    let bare = get(&format!("/{}", server.token));
    assert_eq!(bare.status, 308);
    assert_eq!(
        bare.header("location"),
        Some(format!("/{}/", server.token).as_str())
    );
    // The address printed is the editor itself.
    assert_eq!(
        server.address,
        format!("http://127.0.0.1:{}/{}/", server.port, server.token)
    );
    let page = server.get("");
    assert!(page.text().contains("pagetext edit"));
    let policy = page.header("content-security-policy").unwrap();
    assert!(policy.contains("script-src 'self'") && policy.contains("default-src 'none'"));
}

#[test]
fn host_must_be_this_machine_and_origin_this_editor() {
    let site = site();
    let server = Server::start(site.path());
    let target = format!("/{}/api/tree", server.token);
    let port = server.port;
    for host in [
        "evil.example".to_owned(),
        format!("evil.example:{port}"),
        format!("127.0.0.1.evil.example:{port}"),
        format!("127.0.0.1:{}", port.wrapping_add(1)),
        "127.0.0.1".to_owned(),
    ] {
        let answer = server.send("GET", &target, &[("Host", &host)], b"");
        assert_eq!(answer.status, 403, "Host: {host}");
    }
    assert_eq!(server.send("GET", &target, &[], b"").status, 403, "no Host");
    for host in [format!("127.0.0.1:{port}"), format!("localhost:{port}")] {
        assert_eq!(
            server.send("GET", &target, &[("Host", &host)], b"").status,
            200
        );
    }
    // A write needs the editor's own Origin.
    let render = format!("/{}/api/render", server.token);
    let body = br#"{"text":"\nHello\n"}"#;
    let host = server.host();
    for origin in [
        None,
        Some("null"),
        Some("http://evil.example"),
        Some("http://localhost:1"),
    ] {
        let mut headers = vec![("Host", host.as_str())];
        if let Some(origin) = origin {
            headers.push(("Origin", origin));
        }
        assert_eq!(
            server.send("POST", &render, &headers, body).status,
            403,
            "Origin: {origin:?}"
        );
    }
    let own = server.origin();
    let ok = server.send("POST", &render, &[("Host", &host), ("Origin", &own)], body);
    assert_eq!(ok.status, 200, "{}", ok.text());
    // A read that names another origin is refused as well.
    let foreign = server.send(
        "GET",
        &target,
        &[("Host", &host), ("Origin", "http://evil.example")],
        b"",
    );
    assert_eq!(foreign.status, 403);
}

#[test]
fn paths_out_of_the_site_are_refused_in_every_form() {
    let outer = tempfile::tempdir().unwrap();
    let root = outer.path().join("site");
    fs::create_dir_all(root.join("sub")).unwrap();
    fs::write(root.join("index.html"), "<p>inside</p>").unwrap();
    fs::write(root.join(".hidden.html"), "<p>SECRET hidden</p>").unwrap();
    fs::write(outer.path().join("secret.html"), "<p>SECRET outside</p>").unwrap();
    fs::create_dir(outer.path().join("elsewhere")).unwrap();
    fs::write(
        outer.path().join("elsewhere/page.html"),
        "<p>SECRET dir</p>",
    )
    .unwrap();
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(outer.path().join("secret.html"), root.join("link.html"))
            .unwrap();
        std::os::unix::fs::symlink(outer.path().join("elsewhere"), root.join("away")).unwrap();
        std::os::unix::fs::symlink(root.join("index.html"), root.join("alias.html")).unwrap();
        std::os::unix::fs::symlink(root.join(".hidden.html"), root.join("peek.html")).unwrap();
    }
    let server = Server::start(&root);
    let page_forms = [
        "../secret.html",
        "sub/../../secret.html",
        "%2E%2E/secret.html",
        "..%2Fsecret.html",
        "sub%2F..%2F..%2Fsecret.html",
        "..\\secret.html",
        "sub\\..\\..\\secret.html",
        "/etc/passwd",
        "%2Fetc%2Fpasswd",
        "//etc/passwd",
        &outer.path().join("secret.html").display().to_string(),
        "C:/Windows/win.ini",
        ".hidden.html",
        "link.html",
        "away/page.html",
        "peek.html",
        "index.html%00.txt",
    ];
    for form in page_forms {
        let answer = server.get(&format!("api/page?path={form}"));
        assert!(
            matches!(answer.status, 403 | 404 | 422),
            "api/page?path={form}: {} {}",
            answer.status,
            answer.text()
        );
        assert!(!answer.text().contains("SECRET"), "{form} leaked");
        let saved = save(&server, form, "\nPWNED\n", "x");
        assert!(
            matches!(saved.status, 403 | 404 | 422),
            "save {form}: {}",
            saved.status
        );
        let listed = server.get(&format!("api/tree?dir={form}"));
        assert!(
            matches!(listed.status, 403 | 404),
            "tree {form}: {}",
            listed.status
        );
        assert!(listed.json().get("entries").is_none(), "tree {form} listed");
    }
    let url_forms = [
        "site/../secret.html",
        "site/sub/../../secret.html",
        "site/%2e%2e/secret.html",
        "site/..%2fsecret.html",
        "site/sub%2F..%2F..%2Fsecret.html",
        "site/..%5csecret.html",
        "site//etc/passwd",
        "site/.hidden.html",
        "site/link.html",
        "site/away/page.html",
        "site/peek.html",
    ];
    for form in url_forms {
        let answer = server.get(form);
        assert!(
            matches!(answer.status, 403 | 404),
            "{form}: {}",
            answer.status
        );
        assert!(!answer.text().contains("SECRET"), "{form} leaked");
    }
    // Nothing outside was touched; a link inside the site is followed.
    assert_eq!(
        fs::read_to_string(outer.path().join("secret.html")).unwrap(),
        "<p>SECRET outside</p>"
    );
    assert_eq!(server.get("site/index.html").status, 200);
    #[cfg(unix)]
    assert_eq!(open(&server, "alias.html")["path"], "index.html");
    // The listing shows neither hidden files nor links that lead out.
    let listed = server.get("api/tree?dir=").json();
    let names: Vec<&str> = listed["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert!(
        !names.contains(&".hidden.html")
            && !names.contains(&"link.html")
            && !names.contains(&"away")
    );
}

#[test]
fn site_files_are_served_sandboxed() {
    let site = site();
    fs::write(
        site.path().join("hostile.html"),
        "<script>parent.document.title='PWNED'</script>",
    )
    .unwrap();
    let server = Server::start(site.path());
    let css = server.get("site/style.css");
    assert_eq!(
        (css.status, css.header("content-type")),
        (200, Some("text/css"))
    );
    let page = server.get("site/hostile.html");
    let policy = page.header("content-security-policy").unwrap();
    assert!(policy.starts_with("sandbox;"), "{policy}");
    assert_eq!(page.header("x-content-type-options"), Some("nosniff"));
}

#[test]
fn saves_keep_the_page_charset_and_the_original() {
    let site = site();
    let server = Server::start(site.path());
    for (name, page, encoding, expected_bytes) in [
        (
            "cafe.html",
            CP1252_PAGE,
            "windows-1252",
            &b"Caf\xe9 cr\xe8me"[..],
        ),
        (
            "nihon.html",
            SJIS_PAGE,
            "Shift_JIS",
            &b"\x93\xfa\x96\x7b\x8c\xea"[..],
        ),
    ] {
        let opened = open(&server, name);
        assert_eq!(opened["encoding"], encoding);
        assert_eq!(opened["original"]["exists"], false);
        let text = opened["text"].as_str().unwrap().to_owned();
        let ingestion = opened["ingestion"].to_string();
        if name == "cafe.html" {
            assert!(
                text.contains("= Café crème =") && text.contains("Naïve € prices"),
                "{text}"
            );
            assert!(
                text.contains("#Extend table")
                    && text.contains("|= Name |= Price |\n| Tea   | 2 €    |"),
                "{text}"
            );
            assert!(
                opened["summary"].as_str().unwrap().contains("script"),
                "{ingestion}"
            );
        }
        // A save with no edit writes nothing, and keeps no original.
        let answer = save(&server, name, &text, opened["version"].as_str().unwrap());
        assert_eq!(answer.status, 200, "{}", answer.text());
        assert_eq!(answer.json()["original"], serde_json::Value::Null);
        assert_eq!(fs::read(site.path().join(name)).unwrap(), page);
        assert!(!site.path().join(format!("{name}.orig")).exists());
        // One paragraph added.
        let text = format!("{text}\nAdded.\n");
        let answer = save(&server, name, &text, opened["version"].as_str().unwrap());
        assert_eq!(answer.status, 200, "{}", answer.text());
        let saved = answer.json();
        assert_eq!(saved["encoding"], encoding);
        assert_eq!(saved["original"], format!("{name}.orig"));
        let on_disk = fs::read(site.path().join(name)).unwrap();
        // The bytes are the page's charset's own...
        assert!(
            on_disk
                .windows(expected_bytes.len())
                .any(|w| w == expected_bytes),
            "{name}: {}",
            String::from_utf8_lossy(&on_disk)
        );
        assert!(
            !on_disk.windows(2).any(|w| w == b"&#"),
            "{name}: no character references"
        );
        if name == "cafe.html" {
            // The table is saved as a table.
            let shown = String::from_utf8_lossy(&on_disk);
            assert!(
                shown.contains("<th>Name</th>") && shown.contains("<td>Tea</td>"),
                "{shown}"
            );
        }
        // ...the page's own bytes but for the new paragraph, exactly what
        // `to-html --onto` writes.
        let end = page.windows(7).rposition(|w| w == b"</body>").unwrap();
        let mut want = page[..end].to_vec();
        want.extend_from_slice(b"\n<p>Added.</p>");
        want.extend_from_slice(&page[end..]);
        assert_eq!(
            on_disk,
            want,
            "{name}: {}",
            String::from_utf8_lossy(&on_disk)
        );
        let text_file = site.path().join(format!("{name}.txt.tmp"));
        fs::write(&text_file, &text).unwrap();
        let cli = Command::new(env!("CARGO_BIN_EXE_pagetext"))
            .args(["to-html", "--onto"])
            .arg(site.path().join(format!("{name}.orig")))
            .arg(&text_file)
            .output()
            .unwrap();
        fs::remove_file(&text_file).unwrap();
        assert_eq!(on_disk, cli.stdout, "{name}: as to-html --onto writes it");
        // The original is kept, byte for byte, once.
        assert_eq!(
            fs::read(site.path().join(format!("{name}.orig"))).unwrap(),
            page
        );
        let reopened = open(&server, name);
        assert_eq!(reopened["original"]["exists"], true);
        assert_eq!(
            reopened["text"].as_str().unwrap(),
            text,
            "{name}: a fixpoint"
        );
        let again = save(
            &server,
            name,
            &text.replace("Added.", "Added again."),
            reopened["version"].as_str().unwrap(),
        )
        .json();
        assert_eq!(again["original"], serde_json::Value::Null);
        assert_eq!(
            fs::read(site.path().join(format!("{name}.orig"))).unwrap(),
            page
        );
    }
    // A character the charset lacks: the page stays windows-1252, with a
    // character reference for it.
    let opened = open(&server, "cafe.html");
    let text = opened["text"]
        .as_str()
        .unwrap()
        .replace("Café crème", "Café 日本");
    let saved = save(
        &server,
        "cafe.html",
        &text,
        opened["version"].as_str().unwrap(),
    )
    .json();
    assert_eq!(saved["encoding"], "windows-1252");
    let on_disk = fs::read(site.path().join("cafe.html")).unwrap();
    let shown = String::from_utf8_lossy(&on_disk);
    assert!(shown.contains("&#26085;&#26412;</h1>"), "{shown}");
    assert!(
        on_disk.windows(10).any(|w| w == b"Caf\xe9 &#260"),
        "{shown}"
    );
    // A text page is saved as canonical text.
    let opened = open(&server, "notes.txt");
    let saved = save(
        &server,
        "notes.txt",
        "\n=  Notes  =\n\nSome   text.\n",
        opened["version"].as_str().unwrap(),
    )
    .json();
    let canonical = fs::read_to_string(site.path().join("notes.txt")).unwrap();
    assert_eq!(saved["text"].as_str().unwrap(), canonical);
    assert!(!site.path().join("notes.txt.orig").exists());
}

#[test]
fn a_conflicting_save_writes_nothing_and_shows_both() {
    let site = site();
    let server = Server::start(site.path());
    let opened = open(&server, "notes.txt");
    let version = opened["version"].as_str().unwrap().to_owned();
    // Someone else changes the file.
    fs::write(site.path().join("notes.txt"), "\n= Theirs =\n").unwrap();
    let answer = save(&server, "notes.txt", "\n= Mine =\n", &version);
    assert_eq!(answer.status, 409);
    let conflict = answer.json();
    assert_eq!(conflict["conflict"], true);
    assert_eq!(conflict["theirs"]["text"], "\n= Theirs =\n");
    assert!(
        conflict["error"]
            .as_str()
            .unwrap()
            .contains("nothing was written")
    );
    assert_eq!(
        fs::read_to_string(site.path().join("notes.txt")).unwrap(),
        "\n= Theirs =\n"
    );
    // While the person looks at both, the file changes once more: saving on
    // the version shown is a new conflict, not an overwrite.
    let shown = conflict["theirs"]["version"].as_str().unwrap().to_owned();
    fs::write(site.path().join("notes.txt"), "\n= Third =\n").unwrap();
    let answer = save(&server, "notes.txt", "\n= Mine =\n", &shown);
    assert_eq!(answer.status, 409);
    let conflict = answer.json();
    assert_eq!(conflict["theirs"]["text"], "\n= Third =\n");
    // The person chooses the version now shown as the base and saves over it.
    let theirs = conflict["theirs"]["version"].as_str().unwrap();
    let answer = save(&server, "notes.txt", "\n= Mine =\n", theirs);
    assert_eq!(answer.status, 200);
    assert_eq!(
        fs::read_to_string(site.path().join("notes.txt")).unwrap(),
        "\n= Mine =\n"
    );
    // An HTML page's conflict shows its text, not its markup.
    let opened = open(&server, "cafe.html");
    fs::write(site.path().join("cafe.html"), "<h1>Changed</h1>").unwrap();
    let answer = save(
        &server,
        "cafe.html",
        opened["text"].as_str().unwrap(),
        opened["version"].as_str().unwrap(),
    );
    assert_eq!(answer.status, 409);
    assert_eq!(answer.json()["theirs"]["text"], "\n= Changed =\n");
    assert!(!site.path().join("cafe.html.orig").exists());
}

#[test]
fn concurrent_saves_of_one_file_never_half_write() {
    let site = site();
    let server = Server::start(site.path());
    let path = site.path().join("notes.txt");
    let original = fs::read_to_string(&path).unwrap();
    // Long texts, so that a torn write would show.
    let texts: Vec<String> = (0..8)
        .map(|i| {
            format!(
                "\n= Version {i} =\n\n{}\n",
                format!("Line of version {i}. ").repeat(4000).trim_end()
            )
        })
        .collect();
    let done = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|scope| {
        let reader = scope.spawn(|| {
            let mut reads = 0;
            while !done.load(std::sync::atomic::Ordering::SeqCst) {
                let now = fs::read_to_string(&path).unwrap();
                assert!(
                    now == original || texts.contains(&now),
                    "a half-written file"
                );
                reads += 1;
            }
            reads
        });
        let savers: Vec<_> = texts
            .iter()
            .map(|text| {
                let server = &server;
                scope.spawn(move || {
                    server.post(
                        "api/save",
                        &json!({"path": "notes.txt", "text": text, "version": "", "force": true}),
                    )
                })
            })
            .collect();
        for saver in savers {
            let answer = saver.join().unwrap();
            assert_eq!(answer.status, 200, "{}", answer.text());
        }
        done.store(true, std::sync::atomic::Ordering::SeqCst);
        assert!(reader.join().unwrap() > 0);
    });
    let last = fs::read_to_string(&path).unwrap();
    assert!(texts.contains(&last));
    // The last save wins: one more, then its text is the file.
    let version = open(&server, "notes.txt")["version"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(save(&server, "notes.txt", &texts[3], &version).status, 200);
    assert_eq!(fs::read_to_string(&path).unwrap(), texts[3]);
    let leftovers: Vec<_> = fs::read_dir(site.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".pagetext-"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn a_five_megabyte_page_opens_checks_and_saves() {
    let site = tempfile::tempdir().unwrap();
    let mut page = String::from("<html><head><title>Big</title></head><body><h1>Big</h1>\n");
    let mut n = 0;
    while page.len() < 5 * 1024 * 1024 {
        page.push_str(&format!(
            "<p>Paragraph {n} with <em>emphasis</em>, a <a href=\"p{n}.html\">link</a> and caf\u{e9}.</p>\n"
        ));
        n += 1;
    }
    page.push_str("</body></html>\n");
    fs::write(site.path().join("big.html"), &page).unwrap();
    let server = Server::start(site.path());
    let opened = open(&server, "big.html");
    let text = opened["text"].as_str().unwrap();
    assert!(text.len() > 3 * 1024 * 1024, "{}", text.len());
    assert!(text.contains(&format!("Paragraph {} with", n - 1)));
    let checked = server.post(
        "api/render",
        &json!({"text": text, "client": "t", "seq": 1}),
    );
    assert_eq!(checked.status, 200);
    assert!(checked.json()["xhtml"].as_str().unwrap().len() > 5 * 1024 * 1024);
    let text = text.replacen("Paragraph 1 with", "Paragraph one with", 1);
    let saved = save(
        &server,
        "big.html",
        &text,
        opened["version"].as_str().unwrap(),
    );
    assert_eq!(saved.status, 200, "{}", saved.text());
    let on_disk = fs::read_to_string(site.path().join("big.html")).unwrap();
    assert!(on_disk.contains(&format!("Paragraph {} with", n - 1)));
    assert_eq!(
        fs::read_to_string(site.path().join("big.html.orig")).unwrap(),
        page
    );
}

fn make_tree(root: &Path) {
    // 100 directories of 99 pages each, and 100 pages at the top: 10,000.
    for d in 0..100 {
        let dir = root.join(format!("dir-{d:03}"));
        fs::create_dir(&dir).unwrap();
        for f in 0..99 {
            fs::write(dir.join(format!("page-{d:03}-{f:02}.html")), "<p>x</p>").unwrap();
        }
        fs::write(root.join(format!("top-{d:03}.txt")), "\nx\n").unwrap();
    }
}

#[test]
fn a_ten_thousand_file_site_is_listed_lazily() {
    let site = tempfile::tempdir().unwrap();
    make_tree(site.path());
    let server = Server::start(site.path());
    // The top lists its 100 directories and 100 pages, nothing below.
    let top = server.get("api/tree?dir=").json();
    assert_eq!(top["total"], 200);
    assert_eq!(top["more"], false);
    assert_eq!(top["entries"][0], json!({"name": "dir-000", "kind": "dir"}));
    assert_eq!(
        top["entries"][100],
        json!({"name": "top-000.txt", "kind": "page"})
    );
    let inner = server.get("api/tree?dir=dir-042").json();
    assert_eq!(inner["total"], 99);
    assert_eq!(inner["entries"][98]["name"], "page-042-98.html");
    // A search walks once and stops at its limit.
    let found = server.get("api/find?q=PAGE-077-5").json();
    let pages: Vec<&str> = found["pages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap())
        .collect();
    assert_eq!(pages.len(), 10);
    assert_eq!(pages[0], "dir-077/page-077-50.html");
    assert_eq!(found["truncated"], false);
    let many = server.get("api/find?q=page").json();
    assert_eq!(many["pages"].as_array().unwrap().len(), 200);
    assert_eq!(many["truncated"], true);
    // A directory of 10,000 pages is listed 500 at a time.
    let flat = tempfile::tempdir().unwrap();
    for f in 0..10_000 {
        fs::write(flat.path().join(format!("p{f:05}.txt")), "").unwrap();
    }
    let server = Server::start(flat.path());
    let first = server.get("api/tree?dir=").json();
    assert_eq!(
        (first["total"].as_u64(), first["more"].as_bool()),
        (Some(10_000), Some(true))
    );
    assert_eq!(first["entries"].as_array().unwrap().len(), 500);
    let last = server.get("api/tree?dir=&offset=9500").json();
    assert_eq!(last["more"], false);
    assert_eq!(last["entries"][499]["name"], "p09999.txt");
}

#[test]
fn a_text_page_that_is_not_utf8_keeps_its_original() {
    let site = site();
    fs::write(site.path().join("latin.txt"), b"\n= Caf\xe9 =\n").unwrap();
    let server = Server::start(site.path());
    let opened = open(&server, "latin.txt");
    assert_eq!(opened["ingestion"][0]["code"], "invalid-utf8");
    assert_eq!(opened["original"]["name"], "latin.txt.orig");
    let text = opened["text"].as_str().unwrap();
    let saved = save(
        &server,
        "latin.txt",
        text,
        opened["version"].as_str().unwrap(),
    )
    .json();
    assert_eq!(saved["original"], "latin.txt.orig");
    assert_eq!(
        fs::read(site.path().join("latin.txt.orig")).unwrap(),
        b"\n= Caf\xe9 =\n"
    );
    // A UTF-8 text page has nothing to keep.
    assert_eq!(
        open(&server, "notes.txt")["original"],
        serde_json::Value::Null
    );
}

#[cfg(unix)]
#[test]
fn a_fifo_is_refused_not_waited_on() {
    let site = site();
    let fifo = site.path().join("pipe.html");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let server = Server::start(site.path());
    let answer = server.get("api/page?path=pipe.html");
    assert_eq!(answer.status, 422, "{}", answer.text());
    assert!(
        answer.json()["error"]
            .as_str()
            .unwrap()
            .contains("not a regular file")
    );
    assert_eq!(server.get("site/pipe.html").status, 404);
    let saved = save(&server, "pipe.html", "\nx\n", "v");
    assert_eq!(saved.status, 422);
    // The server still answers.
    assert_eq!(server.get("api/tree?dir=").status, 200);
}

#[test]
fn a_superseded_check_is_skipped() {
    let site = site();
    let server = Server::start(site.path());
    let newer = server.post(
        "api/render",
        &json!({"text": "\n= A ==\n", "client": "c", "seq": 5}),
    );
    let newer = newer.json();
    assert_eq!(newer["superseded"], false);
    assert_eq!(newer["diagnostics"][0]["code"], "heading-markers-uneven");
    assert_eq!(newer["diagnostics"][0]["line"], 2);
    let older = server.post(
        "api/render",
        &json!({"text": "\nB\n", "client": "c", "seq": 4}),
    );
    assert_eq!(older.json(), json!({"seq": 4, "superseded": true}));
    // Another editor's count is its own.
    let other = server.post(
        "api/render",
        &json!({"text": "\nB\n", "client": "d", "seq": 1}),
    );
    assert_eq!(other.json()["superseded"], false);
}

#[test]
fn load_and_error_cases_say_what_happened() {
    let site = site();
    fs::write(
        site.path().join("image.html"),
        b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR",
    )
    .unwrap();
    fs::write(
        site.path().join("padded.html"),
        [
            b"<meta charset=windows-1251><p>\xcf\xf0\xe8</p>".as_slice(),
            &[0; 8192],
        ]
        .concat(),
    )
    .unwrap();
    let server = Server::start(site.path());
    let missing = server.get("api/page?path=nope.html");
    assert_eq!(missing.status, 404);
    assert!(
        missing.json()["error"]
            .as_str()
            .unwrap()
            .contains("nope.html")
    );
    let binary = server.get("api/page?path=image.html");
    assert_eq!(binary.status, 422);
    assert!(binary.json()["error"].as_str().unwrap().contains("PNG"));
    // Mostly control bytes (NUL padding) is no signature: the page opens,
    // with a warning that says how much of it is control bytes.
    let padded = server.get("api/page?path=padded.html");
    assert_eq!(padded.status, 200);
    let opened = padded.json();
    assert_eq!(opened["encoding"], "windows-1251");
    assert_eq!(opened["ingestion"][0]["code"], "control-bytes");
    assert!(
        opened["ingestion"][0]["message"]
            .as_str()
            .unwrap()
            .contains("of the first 8192 bytes")
    );
    let not_page = server.get("api/page?path=style.css");
    assert_eq!(not_page.status, 422);
    let bad = server.send(
        "POST",
        &format!("/{}/api/save", server.token),
        &[("Host", &server.host()), ("Origin", &server.origin())],
        b"{not json",
    );
    assert_eq!(bad.status, 400);
    assert!(bad.json()["error"].as_str().unwrap().contains("malformed"));
    assert_eq!(server.get("api/nothing").status, 404);
    assert_eq!(server.get("api/save").status, 405);
}

#[cfg(unix)]
#[test]
fn ctrl_c_stops_the_server_even_with_a_connection_open() {
    let site = site();
    let mut server = Server::start(site.path());
    // A browser keeps its connection open between requests.
    let mut idle = std::net::TcpStream::connect(("127.0.0.1", server.port)).unwrap();
    let head = format!(
        "GET /{}/api/tree HTTP/1.1\r\nHost: {}\r\n\r\n",
        server.token,
        server.host()
    );
    std::io::Write::write_all(&mut idle, head.as_bytes()).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(200));
    assert_eq!(server.interrupt(), Some(0));
}

#[test]
fn the_command_line_says_what_went_wrong() {
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_pagetext"))
            .arg("edit")
            .args(args)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let site = site();
    let missing = site.path().join("missing");
    let (code, err) = run(&[missing.to_str().unwrap()]);
    assert_eq!(code, Some(2));
    // As the other commands say it: lower case, no OS error number.
    assert!(
        err.contains("missing: no such file or directory") && !err.contains("os error"),
        "{err}"
    );
    let file = site.path().join("notes.txt");
    let (code, err) = run(&[file.to_str().unwrap()]);
    assert_eq!(code, Some(2));
    assert!(err.contains("not a directory"), "{err}");
    // A port that is taken.
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let (code, err) = run(&["--port", &port, site.path().to_str().unwrap()]);
    assert_eq!(code, Some(2));
    assert!(err.contains(&format!("port {port} is in use")), "{err}");
}

/// A site with links that work and links that do not, and a symbolic link
/// out of it.
fn linked_site() -> (tempfile::TempDir, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    let root = dir.path();
    fs::write(outside.path().join("secret.html"), "<p id=\"s\">secret</p>").unwrap();
    fs::write(
        root.join("index.txt"),
        "\n[|top|Top]\n\n[a.html||fine] [a.html#there||anchor] [#top||up]\n\n[missing.html||gone]\n[a.html#nowhere||no anchor] [out/secret.html||outside]\n",
    )
    .unwrap();
    fs::write(
        root.join("a.html"),
        "<html><body>\n<h1 id=\"there\">A</h1>\n<p><a href=\"index.txt#top\">back</a>\n<a href=\"sub/\">sub</a>\n<a href=\"sub/gone.html\">gone</a></p>\n</body></html>",
    )
    .unwrap();
    fs::create_dir(root.join("sub")).unwrap();
    fs::write(root.join("sub/index.html"), "<p>Sub</p>").unwrap();
    std::os::unix::fs::symlink(outside.path(), root.join("out")).unwrap();
    (dir, outside)
}

#[test]
fn the_link_report_lists_the_broken_links_only() {
    let (site, _outside) = linked_site();
    let server = Server::start(site.path());
    // The same gate as every route.
    let host = server.host();
    assert_eq!(
        server
            .send("GET", "/api/links", &[("Host", &host)], b"")
            .status,
        401
    );
    let wrong: String = server
        .token
        .chars()
        .map(|c| if c == '0' { '1' } else { '0' })
        .collect();
    assert_eq!(
        server
            .send(
                "GET",
                &format!("/{wrong}/api/links"),
                &[("Host", &host)],
                b""
            )
            .status,
        403
    );
    assert_eq!(
        server
            .send(
                "GET",
                &format!("/{}/api/links", server.token),
                &[("Host", "evil.example")],
                b""
            )
            .status,
        403
    );
    assert_eq!(
        server.post("api/links", &json!({})).status,
        405,
        "a POST is refused"
    );

    let answer = server.get("api/links");
    assert_eq!(answer.status, 200, "{}", answer.text());
    let report = answer.json();
    let broken: Vec<(String, u64, String)> = report["broken"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            (
                b["page"].as_str().unwrap().to_owned(),
                b["line"].as_u64().unwrap(),
                b["url"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        broken,
        [
            ("a.html".to_owned(), 5, "sub/gone.html".to_owned()),
            ("index.txt".to_owned(), 6, "missing.html".to_owned()),
            ("index.txt".to_owned(), 7, "a.html#nowhere".to_owned()),
            // Through a symbolic link out of the site: not reached, missing.
            ("index.txt".to_owned(), 7, "out/secret.html".to_owned()),
        ],
        "{report}"
    );
    assert_eq!(
        report["broken"][1]["problem"],
        "no such file in the site: missing.html"
    );
    assert_eq!(
        report["broken"][2]["problem"],
        "a.html has no anchor \"nowhere\""
    );
    assert_eq!(report["broken"][1]["column"], 1);
    assert_eq!(report["pages"], 3);
    assert_eq!(report["checked"], 9);
    assert_eq!(report["truncated"], false);
}

#[test]
fn new_pages_are_created_inside_and_never_over_anything() {
    let outer = tempfile::tempdir().unwrap();
    let outer_path = fs::canonicalize(outer.path()).unwrap();
    let site_path = outer_path.join("site");
    fs::create_dir_all(site_path.join("sub")).unwrap();
    fs::write(site_path.join("notes.txt"), "\nMine\n").unwrap();
    fs::write(outer_path.join("x.txt"), "outside").unwrap();
    std::os::unix::fs::symlink(outer_path.join("away.txt"), site_path.join("link.txt")).unwrap();
    std::os::unix::fs::symlink(&outer_path, site_path.join("out")).unwrap();
    let server = Server::start(&site_path);
    let new = |dir: &str, name: &str, kind: &str| {
        server.post("api/new", &json!({"dir": dir, "name": name, "kind": kind}))
    };

    // The gate: no token, no Origin.
    let host = server.host();
    let body = br#"{"dir":"","name":"gate","kind":"text"}"#;
    let own = server.origin();
    let no_token = server.send(
        "POST",
        "/api/new",
        &[("Host", &host), ("Origin", &own)],
        body,
    );
    assert_eq!(no_token.status, 401);
    let target = format!("/{}/api/new", server.token);
    assert_eq!(
        server
            .send("POST", &target, &[("Host", &host)], body)
            .status,
        403
    );
    assert_eq!(server.get("api/new").status, 405);
    assert!(!site_path.join("gate.txt").exists());

    // A text page, then an HTML page in a folder: created, listed, opened.
    let made = new("", "fresh", "text");
    assert_eq!(made.status, 200, "{}", made.text());
    assert_eq!(made.json(), json!({"kind": "text", "path": "fresh.txt"}));
    assert_eq!(
        fs::read_to_string(site_path.join("fresh.txt")).unwrap(),
        "#Title fresh\n\n"
    );
    let made = new("sub", "page.html", "html");
    assert_eq!(made.status, 200, "{}", made.text());
    assert_eq!(made.json()["path"], "sub/page.html");
    let html = fs::read_to_string(site_path.join("sub/page.html")).unwrap();
    // The clean XHTML, with its DOCTYPE: the page renders in standards
    // mode, as the preview does.
    assert!(
        html.starts_with(
            "<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0 Transitional//EN\" \
             \"http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd\">\n\
             <html xmlns=\"http://www.w3.org/1999/xhtml\">"
        ),
        "{html}"
    );
    assert!(html.contains("<title>page</title>"), "{html}");
    let opened = open(&server, "sub/page.html");
    assert_eq!(opened["kind"], "html");
    let saved = save(
        &server,
        "fresh.txt",
        "#Title fresh\n\nTyped.\n",
        opened_version(&server, "fresh.txt").as_str(),
    );
    assert_eq!(saved.status, 200, "{}", saved.text());
    let tree = server.get("api/tree?dir=sub").json();
    assert!(
        tree["entries"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["name"] == "page.html")
    );

    // Never over anything: a file, a dangling link (not followed).
    let again = new("", "notes", "text");
    assert_eq!(again.status, 409, "{}", again.text());
    assert_eq!(
        fs::read_to_string(site_path.join("notes.txt")).unwrap(),
        "\nMine\n"
    );
    let link = new("", "link", "text");
    assert_eq!(link.status, 409, "{}", link.text());
    assert!(!outer_path.join("away.txt").exists());

    // Names and folders that leave the site or are hidden.
    for (dir, name) in [
        ("", "../x"),
        ("", ".hidden"),
        ("", "a/b"),
        ("", ".."),
        ("", ""),
        ("", "nul\0"),
        ("..", "x"),
        ("out", "x"),
        ("sub/..", "x"),
        (".git", "x"),
        ("/tmp", "x"),
    ] {
        let refused = new(dir, name, "text");
        assert!(
            matches!(refused.status, 403 | 404),
            "{dir:?} {name:?}: {} {}",
            refused.status,
            refused.text()
        );
    }
    assert_eq!(new("", "a.txt", "html").status, 422);
    assert_eq!(new("", "a", "pdf").status, 400);
    assert_eq!(
        fs::read_to_string(outer_path.join("x.txt")).unwrap(),
        "outside"
    );
    // Only the pages made above are new in the site.
    let mut names: Vec<String> = fs::read_dir(&site_path)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["fresh.txt", "link.txt", "notes.txt", "out", "sub"]);
    let mut outside: Vec<String> = fs::read_dir(&outer_path)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    outside.sort();
    assert_eq!(outside, ["site", "x.txt"]);
}

fn opened_version(server: &Server, path: &str) -> String {
    open(server, path)["version"].as_str().unwrap().to_owned()
}
