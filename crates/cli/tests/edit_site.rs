//! `pagetext edit`'s site-wide changes at the HTTP level: find and replace
//! across the site (`api/search`, `api/replace`) and moving a page with
//! every link to it (`api/rename`), against the same attacks as the other
//! routes (token, Host, Origin, paths out of the site in every form,
//! hostile names, links out of DIR), conflicts and all-or-nothing.

#![cfg(unix)]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "support/editor.rs"]
mod editor;

use std::fs;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};

use editor::Server;
use serde_json::{Value, json};

/// A windows-1252 page linking to `notes.txt`, with "Café" in it.
const CP1252_PAGE: &[u8] =
    b"<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=windows-1252\">\
<title>Caf\xe9</title></head><body><h1>Caf\xe9 cr\xe8me</h1>\
<p>Le caf\xe9 \x80 2, <a href=\"../notes.txt#top\">notes</a>.</p></body></html>";

/// `outer/site` (DIR) with text and HTML pages, and outside it a secret.
struct Stage {
    _dir: tempfile::TempDir,
    outer: PathBuf,
    site: PathBuf,
}

fn stage() -> Stage {
    let dir = tempfile::tempdir().unwrap();
    let outer = fs::canonicalize(dir.path()).unwrap();
    let site = outer.join("site");
    fs::create_dir_all(site.join("sub")).unwrap();
    fs::write(
        site.join("notes.txt"),
        "#Title Notes\n\n= [|top|Notes] =\n\nA café, a Café and a cafés. See [sub/page.html||the page], [other.txt||other] and [notes.txt#top||me].\n",
    )
    .unwrap();
    fs::write(
        site.join("other.txt"),
        "\nCafé here, and [notes.txt#top||the notes] and [/notes.txt||again].\n",
    )
    .unwrap();
    fs::write(site.join("sub/page.html"), CP1252_PAGE).unwrap();
    fs::write(site.join(".hidden.txt"), "\nCafé SECRET hidden\n").unwrap();
    fs::write(outer.join("secret.txt"), "\nCafé SECRET outside\n").unwrap();
    fs::create_dir(outer.join("away")).unwrap();
    symlink(outer.join("secret.txt"), site.join("link.txt")).unwrap();
    symlink(outer.join("away"), site.join("out")).unwrap();
    Stage {
        _dir: dir,
        outer,
        site,
    }
}

impl Stage {
    /// Outside DIR, only what [`stage`] made.
    fn assert_outside_untouched(&self) {
        let mut names: Vec<String> = fs::read_dir(&self.outer)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names, ["away", "secret.txt", "site"]);
        assert_eq!(fs::read_dir(self.outer.join("away")).unwrap().count(), 0);
        assert_eq!(
            fs::read_to_string(self.outer.join("secret.txt")).unwrap(),
            "\nCafé SECRET outside\n"
        );
    }

    fn read(&self, rel: &str) -> String {
        String::from_utf8_lossy(&fs::read(self.site.join(rel)).unwrap()).into_owned()
    }

    /// Every file below DIR with its bytes.
    fn snapshot(&self) -> Vec<(PathBuf, Vec<u8>)> {
        fn walk(dir: &Path, out: &mut Vec<(PathBuf, Vec<u8>)>) {
            for entry in fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                let meta = fs::symlink_metadata(&path).unwrap();
                if meta.is_dir() {
                    walk(&path, out);
                } else if meta.is_file() {
                    out.push((path.clone(), fs::read(&path).unwrap()));
                } else {
                    out.push((path, Vec::new()));
                }
            }
        }
        let mut out = Vec::new();
        walk(&self.site, &mut out);
        out.sort();
        out
    }
}

fn search(server: &Server, query: &str, case: bool, word: bool) -> Value {
    let answer = server.post(
        "api/search",
        &json!({"query": query, "case": case, "word": word}),
    );
    assert_eq!(answer.status, 200, "{}", answer.text());
    answer.json()
}

/// Every place of a search as `(page, line, column)`.
fn places(found: &Value) -> Vec<(String, u64, u64)> {
    let mut out = Vec::new();
    for page in found["pages"].as_array().unwrap() {
        for m in page["matches"].as_array().unwrap() {
            out.push((
                page["path"].as_str().unwrap().to_owned(),
                m["line"].as_u64().unwrap(),
                m["column"].as_u64().unwrap(),
            ));
        }
    }
    out
}

/// The pages of a search with only the places `keep` chose.
fn choose(found: &Value, keep: impl Fn(&str, &Value) -> bool) -> Value {
    let pages: Vec<Value> = found["pages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let path = p["path"].as_str().unwrap();
            let matches: Vec<Value> = p["matches"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|m| keep(path, m))
                .map(|m| json!({"line": m["line"], "column": m["column"]}))
                .collect();
            json!({"path": path, "version": p["version"], "matches": matches})
        })
        .filter(|p| !p["matches"].as_array().unwrap().is_empty())
        .collect();
    Value::from(pages)
}

#[test]
fn every_site_route_passes_the_gate() {
    let stage = stage();
    let server = Server::start(&stage.site);
    let host = server.host();
    let own = server.origin();
    let before = stage.snapshot();
    for (route, body) in [
        ("api/search", r#"{"query":"Café"}"#),
        (
            "api/replace",
            r#"{"query":"Café","replacement":"X","pages":[{"path":"other.txt","version":"","matches":[{"line":2,"column":1}]}]}"#,
        ),
        (
            "api/rename",
            r#"{"from":"other.txt","to":"moved.txt","apply":true}"#,
        ),
    ] {
        let target = format!("/{}/{route}", server.token);
        let body = body.as_bytes();
        // No token, a wrong one; no Origin, another one; another Host; GET.
        let no_token = server.send(
            "POST",
            &format!("/{route}"),
            &[("Host", &host), ("Origin", &own)],
            body,
        );
        assert_eq!(no_token.status, 401, "{route}");
        let wrong = format!("/{}/{route}", "0".repeat(64));
        let wrong = server.send("POST", &wrong, &[("Host", &host), ("Origin", &own)], body);
        assert_eq!(wrong.status, 403, "{route}");
        for origin in [None, Some("null"), Some("http://evil.example")] {
            let mut headers = vec![("Host", host.as_str())];
            if let Some(origin) = origin {
                headers.push(("Origin", origin));
            }
            let answer = server.send("POST", &target, &headers, body);
            assert_eq!(answer.status, 403, "{route} Origin {origin:?}");
        }
        let rebound = server.send(
            "POST",
            &target,
            &[("Host", "evil.example"), ("Origin", "http://evil.example")],
            body,
        );
        assert_eq!(rebound.status, 403, "{route}");
        assert_eq!(server.get(route).status, 405, "{route}");
        // Refusals carry the hardening headers.
        assert_eq!(no_token.header("x-content-type-options"), Some("nosniff"));
        let malformed = server.post(route, &json!({"nonsense": 1}));
        assert_eq!(malformed.status, 400, "{route}: {}", malformed.text());
    }
    assert_eq!(stage.snapshot(), before, "nothing was written");
}

#[test]
fn find_and_replace_across_text_and_html_pages() {
    let stage = stage();
    let server = Server::start(&stage.site);
    // HTML through its text form, in its own charset; hidden pages and
    // links out of DIR are not searched.
    let found = search(&server, "café", false, false);
    assert_eq!(
        places(&found),
        [
            ("notes.txt".to_owned(), 5, 3),
            ("notes.txt".to_owned(), 5, 11),
            ("notes.txt".to_owned(), 5, 22),
            ("other.txt".to_owned(), 2, 1),
            ("sub/page.html".to_owned(), 1, 8),
            ("sub/page.html".to_owned(), 3, 3),
            ("sub/page.html".to_owned(), 5, 4),
        ],
        "{found}"
    );
    assert!(!found.to_string().contains("SECRET"));
    assert_eq!(found["truncated"], false);
    let first = &found["pages"][0]["matches"][1];
    assert_eq!(first["found"], "Café");
    assert_eq!(first["before"], "A café, a ");
    assert!(
        first["after"]
            .as_str()
            .unwrap()
            .starts_with(" and a cafés.")
    );
    // Case and whole words.
    assert_eq!(places(&search(&server, "Café", true, false)).len(), 4);
    assert_eq!(places(&search(&server, "café", false, true)).len(), 6);
    assert_eq!(server.post("api/search", &json!({"query": ""})).status, 400);

    // Choose: every place but the HTML title and the first in notes.txt.
    let chosen = choose(&found, |path, m| {
        let first_in_notes = path == "notes.txt" && m["column"] == 3;
        let html_title = path.ends_with(".html") && m["line"] == 1;
        !first_in_notes && !html_title
    });
    let answer = server.post(
        "api/replace",
        &json!({"query": "café", "case": false, "word": false, "replacement": "Tea", "pages": chosen}),
    );
    assert_eq!(answer.status, 200, "{}", answer.text());
    let answer = answer.json();
    assert_eq!(answer["refused"], json!([]), "{answer}");
    let written: Vec<(&str, u64)> = answer["written"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| (w["path"].as_str().unwrap(), w["replaced"].as_u64().unwrap()))
        .collect();
    assert_eq!(
        written,
        [("notes.txt", 2), ("other.txt", 1), ("sub/page.html", 2)]
    );
    assert!(
        stage
            .read("notes.txt")
            .contains("A café, a Tea and a Teas. See")
    );
    assert!(stage.read("other.txt").starts_with("\nTea here"));
    // The HTML page as a save writes it: XHTML in windows-1252, its
    // original kept, its title untouched.
    let html = fs::read(stage.site.join("sub/page.html")).unwrap();
    let html_text = String::from_utf8_lossy(&html);
    assert!(
        html_text.contains("<h1>Tea cr\u{fffd}me</h1>"),
        "{html_text}"
    );
    assert!(
        html.windows(5).any(|w| w == b"Caf\xe9<"),
        "title kept in cp1252"
    );
    assert_eq!(answer["written"][2]["original"], "page.html.orig");
    assert_eq!(
        fs::read(stage.site.join("sub/page.html.orig")).unwrap(),
        CP1252_PAGE
    );
    // The version answered is the file's: a save from it goes through.
    let opened = server.get("api/page?path=other.txt").json();
    assert_eq!(opened["version"], answer["written"][1]["version"]);
    stage.assert_outside_untouched();
}

#[test]
fn a_page_changed_since_the_search_is_refused_not_overwritten() {
    let stage = stage();
    let server = Server::start(&stage.site);
    let found = search(&server, "Café", true, false);
    // Another program changes other.txt after the search.
    fs::write(stage.site.join("other.txt"), "\nCafé, theirs.\n").unwrap();
    let chosen = choose(&found, |_, _| true);
    let answer = server.post(
        "api/replace",
        &json!({"query": "Café", "case": true, "replacement": "Tea", "pages": chosen}),
    );
    assert_eq!(answer.status, 200, "{}", answer.text());
    let answer = answer.json();
    assert_eq!(answer["refused"].as_array().unwrap().len(), 1, "{answer}");
    assert_eq!(answer["refused"][0]["path"], "other.txt");
    assert_eq!(answer["refused"][0]["conflict"], true);
    assert!(
        answer["refused"][0]["reason"]
            .as_str()
            .unwrap()
            .contains("changed on disk since the search")
    );
    assert_eq!(stage.read("other.txt"), "\nCafé, theirs.\n");
    assert_eq!(answer["written"].as_array().unwrap().len(), 2, "{answer}");
    // A place that is not a place: that page refused, nothing written.
    let found = search(&server, "Tea", true, false);
    let mut chosen = choose(&found, |_, _| true);
    chosen[0]["matches"] = json!([{"line": 1, "column": 1}]);
    let before = stage.read("notes.txt");
    let answer = server.post(
        "api/replace",
        &json!({"query": "Tea", "case": true, "replacement": "x", "pages": [chosen[0].clone()]}),
    );
    let answer = answer.json();
    assert_eq!(answer["refused"][0]["conflict"], false, "{answer}");
    assert!(
        answer["refused"][0]["reason"]
            .as_str()
            .unwrap()
            .contains("nothing to replace at line 1")
    );
    assert_eq!(stage.read("notes.txt"), before);
}

#[test]
fn replace_refuses_paths_out_of_the_site_in_every_form() {
    let stage = stage();
    let server = Server::start(&stage.site);
    let before = stage.snapshot();
    let outside = stage.outer.join("secret.txt").display().to_string();
    let forms = [
        "../secret.txt",
        "sub/../../secret.txt",
        "..%2Fsecret.txt",
        "..\\secret.txt",
        "/etc/passwd",
        outside.as_str(),
        "C:/Windows/win.ini",
        ".hidden.txt",
        "link.txt",
        "out/x.txt",
        "notes.txt\0.txt",
        "sub",
    ];
    for form in forms {
        let answer = server.post(
            "api/replace",
            &json!({"query": "Café", "replacement": "PWNED", "pages": [
                {"path": form, "version": "", "matches": [{"line": 2, "column": 1}]}
            ]}),
        );
        assert_eq!(answer.status, 200, "{form}");
        let answer = answer.json();
        assert_eq!(answer["written"], json!([]), "{form}: {answer}");
        assert_eq!(answer["refused"][0]["path"], form);
        assert!(!answer.to_string().contains("SECRET"), "{form}");
    }
    assert_eq!(stage.snapshot(), before);
    stage.assert_outside_untouched();
}

/// A site whose pages link to `a/p.txt` in every way, and whose `a/p.txt`
/// links to the others.
fn linked_stage() -> Stage {
    let stage = stage();
    let site = &stage.site;
    fs::create_dir_all(site.join("a/sub")).unwrap();
    fs::write(
        site.join("a/p.txt"),
        "#Title P\n\n= [|top|P] =\n\n[../notes.txt#top||notes], [sub/x.txt||x], [#top||up], [p.txt#top||self], [/other.txt||root] and [https://example.org/||away].\n",
    )
    .unwrap();
    fs::write(
        site.join("a/sub/x.txt"),
        "\n[|x|X] back to [../p.txt#top||p].\n",
    )
    .unwrap();
    fs::write(
        site.join("notes.txt"),
        "\n[|top|Notes]: [a/p.txt||p], [a/p.txt#top||p top], [/a/p.txt?x=1||root] and [a/other.txt||not p].\n",
    )
    .unwrap();
    fs::write(
        site.join("sub/page.html"),
        b"<html><head><meta charset=windows-1252><title>Caf\xe9</title></head><body>\
<p><a name=s>S</a> <A HREF='../a/p.txt#top' class=x>p</A>, <a href=../notes.txt>n</a></p>\
<!-- <a href=../a/p.txt> --></body></html>"
            .as_slice(),
    )
    .unwrap();
    stage
}

fn broken_links(server: &Server) -> Value {
    let report = server.get("api/links");
    assert_eq!(report.status, 200);
    report.json()["broken"].clone()
}

#[test]
fn a_rename_rewrites_every_link_and_keeps_them_working() {
    let stage = linked_stage();
    let server = Server::start(&stage.site);
    // One link is broken from the start: to a/other.txt.
    let broken = broken_links(&server);
    assert_eq!(broken.as_array().unwrap().len(), 1, "{broken}");
    let before = stage.snapshot();
    // The plan: which pages change, which folders are made; nothing written.
    let plan = server.post(
        "api/rename",
        &json!({"from": "a/p.txt", "to": "new place/q.txt"}),
    );
    assert_eq!(plan.status, 200, "{}", plan.text());
    let plan = plan.json();
    assert_eq!(plan["applied"], false);
    assert_eq!(plan["made"], json!(["new place"]));
    assert_eq!(
        plan["relinked"],
        json!([
            {"links": 2, "path": "a/p.txt"},
            {"links": 1, "path": "a/sub/x.txt"},
            {"links": 3, "path": "notes.txt"},
            {"links": 1, "path": "sub/page.html"},
        ])
    );
    assert_eq!(stage.snapshot(), before, "a plan writes nothing");

    let done = server.post(
        "api/rename",
        &json!({"from": "a/p.txt", "to": "new place/q.txt", "apply": true}),
    );
    assert_eq!(done.status, 200, "{}", done.text());
    assert_eq!(done.json()["applied"], true);
    assert!(!stage.site.join("a/p.txt").exists());
    assert_eq!(
        stage.read("new place/q.txt"),
        "#Title P\n\n= [|top|P] =\n\n[../notes.txt#top||notes], [../a/sub/x.txt||x], [#top||up], [q.txt#top||self], [/other.txt||root] and [https://example.org/||away].\n"
    );
    assert_eq!(
        stage.read("a/sub/x.txt"),
        "\n[|x|X] back to [../../new%20place/q.txt#top||p].\n"
    );
    assert_eq!(
        stage.read("notes.txt"),
        "\n[|top|Notes]: [new%20place/q.txt||p], [new%20place/q.txt#top||p top], [/new%20place/q.txt?x=1||root] and [a/other.txt||not p].\n"
    );
    // HTML: only the href's bytes changed (no XHTML, no .orig), the
    // comment left alone.
    let html = fs::read(stage.site.join("sub/page.html")).unwrap();
    assert_eq!(
        html,
        b"<html><head><meta charset=windows-1252><title>Caf\xe9</title></head><body>\
<p><a name=s>S</a> <A HREF=\"../new%20place/q.txt#top\" class=x>p</A>, <a href=../notes.txt>n</a></p>\
<!-- <a href=../a/p.txt> --></body></html>"
    );
    assert!(!stage.site.join("sub/page.html.orig").exists());
    // Every link still works (the one that was broken before, to
    // a/other.txt, is still the only broken one).
    let broken = broken_links(&server);
    assert_eq!(broken.as_array().unwrap().len(), 1, "{broken}");
    assert_eq!(broken[0]["url"], "a/other.txt");
    stage.assert_outside_untouched();
}

#[test]
fn a_rename_never_replaces_never_leaves_and_is_all_or_nothing() {
    let stage = linked_stage();
    fs::write(stage.site.join("taken.txt"), "\ntaken\n").unwrap();
    symlink(
        stage.outer.join("nowhere.txt"),
        stage.site.join("dangling.txt"),
    )
    .unwrap();
    symlink(stage.site.join("notes.txt"), stage.site.join("alias.txt")).unwrap();
    let server = Server::start(&stage.site);
    let before = stage.snapshot();
    let rename = |from: &str, to: &str| {
        server.post(
            "api/rename",
            &json!({"from": from, "to": to, "apply": true}),
        )
    };
    let outside = stage.outer.join("x.txt").display().to_string();
    for (from, to, statuses) in [
        ("a/p.txt", "taken.txt", &[409][..]),
        ("a/p.txt", "dangling.txt", &[409]),
        ("a/p.txt", "notes.txt", &[409]),
        ("a/p.txt", "a/p.txt", &[409]),
        ("a/p.txt", "../x.txt", &[403]),
        ("a/p.txt", "a/../../x.txt", &[403]),
        ("a/p.txt", outside.as_str(), &[403]),
        ("a/p.txt", "/tmp/x.txt", &[403]),
        ("a/p.txt", ".hidden/x.txt", &[403]),
        ("a/p.txt", "a/.x.txt", &[403]),
        ("a/p.txt", "out/x.txt", &[403]),
        ("a/p.txt", "link.txt/x.txt", &[403]),
        ("a/p.txt", "a\\..\\..\\x.txt", &[403, 422]),
        ("a/p.txt", "x\u{1}.txt", &[403]),
        ("a/p.txt", "new\nline/x.txt", &[403]),
        ("a/p.txt", "", &[403]),
        ("a/p.txt", "a/p.html", &[422]),
        ("a/p.txt", "a/p", &[422]),
        ("../secret.txt", "x.txt", &[403]),
        ("link.txt", "x.txt", &[403]),
        ("alias.txt", "x.txt", &[403]),
        (".hidden.txt", "x.txt", &[403]),
        ("missing.txt", "x.txt", &[404]),
        ("sub", "x.txt", &[422]),
    ] {
        let answer = rename(from, to);
        assert!(
            statuses.contains(&answer.status),
            "{from} -> {to}: {} {}",
            answer.status,
            answer.text()
        );
        assert!(answer.json()["error"].is_string());
    }
    assert_eq!(stage.snapshot(), before, "nothing was written");

    // A page whose link cannot be rewritten faithfully (a text page that
    // is not UTF-8): the whole rename is refused, every file as it was.
    fs::write(stage.site.join("latin.txt"), b"\nCaf\xe9 [a/p.txt||p]\n").unwrap();
    let before = stage.snapshot();
    let answer = rename("a/p.txt", "moved.txt");
    assert_eq!(answer.status, 409, "{}", answer.text());
    assert!(answer.text().contains("latin.txt"), "{}", answer.text());
    assert_eq!(stage.snapshot(), before);
    stage.assert_outside_untouched();
}

#[test]
fn a_pages_original_moves_with_it_and_never_over_anything() {
    let stage = stage();
    let site = &stage.site;
    fs::write(site.join("h.html"), "<p>saved once</p>").unwrap();
    fs::write(site.join("h.html.orig"), "<p>the original</p>").unwrap();
    fs::create_dir(site.join("taken")).unwrap();
    fs::write(site.join("taken/h.html.orig"), "someone else's").unwrap();
    let server = Server::start(site);
    let before = stage.snapshot();
    let refused = server.post(
        "api/rename",
        &json!({"from": "h.html", "to": "taken/h.html", "apply": true}),
    );
    assert_eq!(refused.status, 409, "{}", refused.text());
    assert!(refused.text().contains("original"), "{}", refused.text());
    assert_eq!(stage.snapshot(), before);

    let plan = server.post("api/rename", &json!({"from": "h.html", "to": "x/h2.html"}));
    assert_eq!(plan.json()["original"], "x/h2.html.orig", "{}", plan.text());
    let done = server.post(
        "api/rename",
        &json!({"from": "h.html", "to": "x/h2.html", "apply": true}),
    );
    assert_eq!(done.status, 200, "{}", done.text());
    assert_eq!(stage.read("x/h2.html"), "<p>saved once</p>");
    assert_eq!(stage.read("x/h2.html.orig"), "<p>the original</p>");
    assert!(!site.join("h.html").exists() && !site.join("h.html.orig").exists());
    // Without an original: `null`.
    let plan = server.post("api/rename", &json!({"from": "other.txt", "to": "o.txt"}));
    assert_eq!(plan.json()["original"], Value::Null);
}
