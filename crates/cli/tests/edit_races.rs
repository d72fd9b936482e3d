//! `pagetext edit` against a local attacker: a program that changes DIR
//! while the editor runs. Pages and folders are swapped, in a loop, for
//! symbolic links to outside DIR, for FIFOs and for links to FIFOs, while
//! the editor reads, lists and saves them; nothing outside DIR may be read,
//! listed or written, and the server must keep answering. An outside writer
//! that replaces a page during a save is never overwritten. And the smaller
//! holes: a dangling `.orig` link, a killed save's temporary file, the
//! headers of the site's error answers.

#![cfg(unix)]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "support/editor.rs"]
mod editor;

use std::fs;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use editor::Server;
use serde_json::json;

/// How long each race runs.
const RACE: Duration = Duration::from_millis(1500);

/// `outer/site` (DIR) and, beside it, what must never be reached: a secret
/// page, a folder with a secret page, and a FIFO nobody reads.
struct Stage {
    _outer: tempfile::TempDir,
    outer: PathBuf,
    site: PathBuf,
}

impl Stage {
    fn new() -> Stage {
        let dir = tempfile::tempdir().unwrap();
        let outer = fs::canonicalize(dir.path()).unwrap();
        let site = outer.join("site");
        fs::create_dir_all(site.join("sub")).unwrap();
        fs::write(site.join("page.html"), "<p>inside</p>").unwrap();
        fs::write(site.join("sub/page.html"), "<p>inside sub</p>").unwrap();
        fs::write(outer.join("secret.html"), "<p>SECRET outside</p>").unwrap();
        fs::create_dir(outer.join("away")).unwrap();
        fs::write(outer.join("away/page.html"), "<p>SECRET away</p>").unwrap();
        fs::write(outer.join("away/secret-name.html"), "<p>SECRET</p>").unwrap();
        mkfifo(&outer.join("fifo"));
        Stage {
            _outer: dir,
            outer,
            site,
        }
    }

    /// Everything outside DIR is as it was made.
    fn assert_outside_untouched(&self) {
        let mut names: Vec<String> = fs::read_dir(&self.outer)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names, ["away", "fifo", "secret.html", "site"]);
        let mut away: Vec<String> = fs::read_dir(self.outer.join("away"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        away.sort();
        assert_eq!(away, ["page.html", "secret-name.html"]);
        assert_eq!(
            fs::read_to_string(self.outer.join("secret.html")).unwrap(),
            "<p>SECRET outside</p>"
        );
        assert_eq!(
            fs::read_to_string(self.outer.join("away/page.html")).unwrap(),
            "<p>SECRET away</p>"
        );
        let fifo = fs::symlink_metadata(self.outer.join("fifo")).unwrap();
        assert!(std::os::unix::fs::FileTypeExt::is_fifo(&fifo.file_type()));
    }
}

fn mkfifo(path: &Path) {
    rustix::fs::mkfifoat(
        rustix::fs::CWD,
        path,
        rustix::fs::Mode::from_raw_mode(0o644),
    )
    .unwrap();
}

/// Puts `make`'s result under `name` in `dir` at once (made under a hidden
/// name, then renamed over it).
fn swap_in(dir: &Path, name: &str, make: impl FnOnce(&Path)) {
    let spare = dir.join(".spare");
    let _ = fs::remove_file(&spare);
    make(&spare);
    fs::rename(&spare, dir.join(name)).unwrap();
}

/// Runs `attack` in a loop while `requests` run, each in a loop, until
/// [`RACE`] has passed; returns how many requests were answered.
fn race(attack: impl Fn(usize) + Sync, requests: &[&(dyn Fn() + Sync)]) -> usize {
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let attacker = scope.spawn(|| {
            let mut round = 0;
            while !done.load(Ordering::SeqCst) {
                attack(round);
                round += 1;
            }
        });
        let workers: Vec<_> = requests
            .iter()
            .map(|request| {
                let done = &done;
                scope.spawn(move || {
                    let mut answered = 0;
                    while !done.load(Ordering::SeqCst) {
                        request();
                        answered += 1;
                    }
                    answered
                })
            })
            .collect();
        let start = Instant::now();
        while start.elapsed() < RACE {
            std::thread::sleep(Duration::from_millis(20));
        }
        done.store(true, Ordering::SeqCst);
        attacker.join().unwrap();
        workers.into_iter().map(|w| w.join().unwrap()).sum()
    })
}

#[test]
fn a_page_swapped_for_links_and_fifos_is_never_read_or_written_outside() {
    let stage = Stage::new();
    let server = Server::start(&stage.site);
    let (site, outer) = (&stage.site, &stage.outer);
    let attack = |round: usize| match round % 4 {
        0 => swap_in(site, "page.html", |p| {
            symlink(outer.join("secret.html"), p).unwrap()
        }),
        1 => swap_in(site, "page.html", mkfifo),
        2 => swap_in(site, "page.html", |p| {
            symlink(outer.join("fifo"), p).unwrap()
        }),
        _ => swap_in(site, "page.html", |p| {
            fs::write(p, "<p>inside</p>").unwrap()
        }),
    };
    let read = || {
        let answer = server.get("api/page?path=page.html");
        assert!(
            matches!(answer.status, 200 | 403 | 404 | 422),
            "{}",
            answer.status
        );
        assert!(!answer.text().contains("SECRET"), "{}", answer.text());
    };
    let serve = || {
        let answer = server.get("site/page.html");
        assert!(!answer.text().contains("SECRET"), "{}", answer.text());
    };
    let save = || {
        let answer = server.post(
            "api/save",
            &json!({"path": "page.html", "text": "\nMine\n", "version": "", "force": true}),
        );
        assert!(
            matches!(answer.status, 200 | 403 | 404 | 409 | 422),
            "{} {}",
            answer.status,
            answer.text()
        );
    };
    let answered = race(attack, &[&read, &read, &serve, &save]);
    assert!(answered > 20, "only {answered} answers");
    // Still answering, and nothing outside was read or written.
    assert_eq!(server.get("api/tree?dir=").status, 200);
    stage.assert_outside_untouched();
}

#[test]
fn a_folder_swapped_for_a_link_is_never_listed_or_written_outside() {
    let stage = Stage::new();
    let server = Server::start(&stage.site);
    let (site, outer) = (&stage.site, &stage.outer);
    let attack = |round: usize| {
        if round.is_multiple_of(2) {
            fs::rename(site.join("sub"), site.join(".real")).unwrap();
            symlink(outer.join("away"), site.join("sub")).unwrap();
        } else {
            fs::remove_file(site.join("sub")).unwrap();
            fs::rename(site.join(".real"), site.join("sub")).unwrap();
        }
    };
    let list = || {
        let answer = server.get("api/tree?dir=sub");
        assert!(
            !answer.text().contains("secret-name"),
            "listed outside: {}",
            answer.text()
        );
    };
    let find = || {
        let answer = server.get("api/find?q=secret");
        assert!(!answer.text().contains("secret-name"), "{}", answer.text());
    };
    let read = || {
        let answer = server.get("api/page?path=sub/page.html");
        assert!(!answer.text().contains("SECRET"), "{}", answer.text());
    };
    let save = || {
        let answer = server.post(
            "api/save",
            &json!({"path": "sub/page.html", "text": "\nMine\n", "version": "", "force": true}),
        );
        assert!(
            matches!(answer.status, 200 | 403 | 404 | 409 | 422),
            "{} {}",
            answer.status,
            answer.text()
        );
    };
    let answered = race(attack, &[&list, &find, &read, &save]);
    assert!(answered > 20, "only {answered} answers");
    assert_eq!(server.get("api/tree?dir=").status, 200);
    stage.assert_outside_untouched();
}

#[test]
fn a_folder_swapped_for_a_link_is_never_offered_by_the_image_picker() {
    let stage = Stage::new();
    let (site, outer) = (&stage.site, &stage.outer);
    fs::write(site.join("sub/inside.png"), b"inside").unwrap();
    fs::create_dir(outer.join("pics")).unwrap();
    fs::write(outer.join("pics/secret-photo.png"), b"SECRET photo").unwrap();
    let server = Server::start(site);
    let attack = |round: usize| {
        if round.is_multiple_of(2) {
            fs::rename(site.join("sub"), site.join(".real")).unwrap();
            symlink(outer.join("pics"), site.join("sub")).unwrap();
        } else {
            fs::remove_file(site.join("sub")).unwrap();
            fs::rename(site.join(".real"), site.join("sub")).unwrap();
        }
    };
    let list = || {
        let answer = server.get("api/images");
        assert!(!answer.text().contains("secret-photo"), "{}", answer.text());
    };
    let spell = || {
        let answer = server.post(
            "api/image",
            &json!({"page": "page.html", "image": "sub/secret-photo.png", "alt": "x"}),
        );
        assert!(
            matches!(answer.status, 403 | 404),
            "spelled outside: {} {}",
            answer.status,
            answer.text()
        );
    };
    let thumbnail = || {
        let answer = server.get("site/sub/secret-photo.png");
        assert!(!answer.text().contains("SECRET"), "{}", answer.text());
    };
    let answered = race(attack, &[&list, &spell, &thumbnail]);
    assert!(answered > 20, "only {answered} answers");
    assert_eq!(server.get("api/images").status, 200);
    assert_eq!(
        fs::read(outer.join("pics/secret-photo.png")).unwrap(),
        b"SECRET photo"
    );
}

#[test]
fn a_thousand_fifos_do_not_stall_the_server() {
    let stage = Stage::new();
    mkfifo(&stage.site.join("pipe.html"));
    symlink(stage.site.join("pipe.html"), stage.site.join("alias.html")).unwrap();
    let server = Server::start(&stage.site);
    std::thread::scope(|scope| {
        for _ in 0..4 {
            scope.spawn(|| {
                for i in 0..250 {
                    let path = if i % 2 == 0 {
                        "pipe.html"
                    } else {
                        "alias.html"
                    };
                    let answer = server.get(&format!("api/page?path={path}"));
                    assert_eq!(answer.status, 422, "{}", answer.text());
                }
            });
        }
    });
    assert_eq!(server.get("api/tree?dir=").status, 200);
}

#[test]
fn an_outside_writer_is_never_overwritten() {
    let stage = Stage::new();
    let server = Server::start(&stage.site);
    let page = stage.site.join("notes.txt");
    // A page whose save takes a while, so that the writer lands before,
    // during and after it.
    let mine = format!(
        "\n= Mine =\n\n{}\n",
        "Some words of mine. ".repeat(40_000).trim_end()
    );
    // How long one save takes here: the writer's delays spread over it.
    fs::write(&page, "\n= Base =\n").unwrap();
    let start = Instant::now();
    let timed = server.post(
        "api/save",
        &json!({"path": "notes.txt", "text": mine, "version": "", "force": true}),
    );
    assert_eq!(timed.status, 200);
    let took = start.elapsed();
    let mut saved = 0;
    let mut conflicts = 0;
    for round in 0..24u32 {
        fs::write(&page, "\n= Base =\n").unwrap();
        let version = server.get("api/page?path=notes.txt").json()["version"]
            .as_str()
            .unwrap()
            .to_owned();
        let theirs = format!("\n= Theirs {round} =\n");
        let answer = std::thread::scope(|scope| {
            scope.spawn(|| {
                std::thread::sleep(took * round / 8);
                let spare = stage.site.join(".theirs");
                fs::write(&spare, &theirs).unwrap();
                fs::rename(&spare, &page).unwrap();
            });
            server.post(
                "api/save",
                &json!({"path": "notes.txt", "text": mine, "version": version}),
            )
        });
        match answer.status {
            200 => saved += 1,
            409 => conflicts += 1,
            other => panic!("{other}: {}", answer.text()),
        }
        assert_eq!(
            fs::read_to_string(&page).unwrap(),
            theirs,
            "round {round}: the outside writer's change was lost ({})",
            answer.status
        );
    }
    // Both sides of the save were hit: before its end (a conflict) and
    // after it (saved, then replaced).
    assert!(
        saved > 0 && conflicts > 0,
        "{saved} saved, {conflicts} conflicts"
    );
}

#[test]
fn a_dangling_orig_link_refuses_the_save() {
    let stage = Stage::new();
    symlink(
        stage.outer.join("nowhere"),
        stage.site.join("page.html.orig"),
    )
    .unwrap();
    let server = Server::start(&stage.site);
    let opened = server.get("api/page?path=page.html").json();
    assert_eq!(opened["original"]["exists"], true);
    // An edit, so that the save has something to write.
    let text = format!("{}\nMore.\n", opened["text"].as_str().unwrap());
    let answer = server.post(
        "api/save",
        &json!({"path": "page.html", "text": text, "version": opened["version"]}),
    );
    assert_eq!(answer.status, 409, "{}", answer.text());
    let error = answer.json()["error"].as_str().unwrap().to_owned();
    assert!(
        error.contains("page.html.orig is a symbolic link") && error.contains("not saved"),
        "{error}"
    );
    assert_eq!(
        fs::read_to_string(stage.site.join("page.html")).unwrap(),
        "<p>inside</p>"
    );
    assert!(!stage.outer.join("nowhere").exists());
}

#[test]
fn a_killed_saves_leftover_is_removed_at_the_next_save_in_its_folder() {
    let stage = Stage::new();
    let leftover = ".pagetext-aB3dE6gH9jK2mN5p.tmp";
    fs::write(stage.site.join("sub").join(leftover), "half a page").unwrap();
    fs::write(stage.site.join(leftover), "another folder's").unwrap();
    fs::write(stage.site.join("sub/.pagetext-mine.tmp"), "not ours").unwrap();
    let server = Server::start(&stage.site);
    let opened = server.get("api/page?path=sub/page.html").json();
    let answer = server.post(
        "api/save",
        &json!({"path": "sub/page.html", "text": opened["text"], "version": opened["version"]}),
    );
    assert_eq!(answer.status, 200, "{}", answer.text());
    assert!(!stage.site.join("sub").join(leftover).exists());
    assert!(stage.site.join("sub/.pagetext-mine.tmp").exists());
    assert!(stage.site.join(leftover).exists(), "only the save's folder");
}

#[test]
fn every_answer_carries_the_security_headers() {
    let stage = Stage::new();
    let server = Server::start(&stage.site);
    for path in [
        "site/nope.css",
        "site/../secret.html",
        "site/sub",
        "site/page.html",
        "api/page?path=nope.html",
        "api/nothing",
        "",
    ] {
        let answer = server.get(path);
        for header in [
            "x-content-type-options",
            "referrer-policy",
            "x-frame-options",
            "content-security-policy",
            "cache-control",
        ] {
            assert!(
                answer.header(header).is_some(),
                "{path} ({}): no {header}",
                answer.status
            );
        }
    }
    // The site's files keep their sandbox.
    let page = server.get("site/page.html");
    assert!(
        page.header("content-security-policy")
            .unwrap()
            .starts_with("sandbox;")
    );
}

#[test]
fn the_preview_connects_nowhere_and_script_links_are_never_saved() {
    let stage = Stage::new();
    let server = Server::start(&stage.site);
    let text = "#Title T\n#Link:preconnect http://example.invalid/\n\
#Link:DNS-Prefetch http://example.invalid/\n#Link:stylesheet style.css\n\n\
A [javascript:alert(1)||click] and a [JavaScript:alert(2)||tap].\n";
    let checked = server.post(
        "api/render",
        &json!({"text": text, "client": "c", "seq": 1}),
    );
    assert_eq!(checked.status, 200, "{}", checked.text());
    let checked = checked.json();
    let xhtml = checked["xhtml"].as_str().unwrap();
    assert!(!xhtml.contains("example.invalid"), "{xhtml}");
    assert!(xhtml.contains("style.css"), "{xhtml}");
    assert!(
        !xhtml.to_ascii_lowercase().contains("script:") && xhtml.contains("click"),
        "{xhtml}"
    );
    let codes: Vec<&str> = checked["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    assert_eq!(
        codes
            .iter()
            .filter(|c| **c == "preview-hint-left-out")
            .count(),
        2,
        "{codes:?}"
    );
    assert_eq!(
        codes.iter().filter(|c| **c == "unsafe-link").count(),
        2,
        "{codes:?}"
    );
    // Saved as HTML: no script link in the file.
    let opened = server.get("api/page?path=page.html").json();
    let saved = server.post(
        "api/save",
        &json!({"path": "page.html", "text": text, "version": opened["version"]}),
    );
    assert_eq!(saved.status, 200, "{}", saved.text());
    let on_disk = fs::read_to_string(stage.site.join("page.html")).unwrap();
    assert!(
        !on_disk.to_ascii_lowercase().contains("script:") && on_disk.contains("click"),
        "{on_disk}"
    );
}

#[test]
fn site_wide_changes_never_reach_outside_while_pages_and_folders_are_swapped() {
    let stage = Stage::new();
    fs::write(
        stage.site.join("links.txt"),
        "\n[page.html||p] [sub/page.html||s] [sub/renamed.html||r]\n",
    )
    .unwrap();
    let server = Server::start(&stage.site);
    let (site, outer) = (&stage.site, &stage.outer);
    let attack = |round: usize| {
        match round % 4 {
            0 => swap_in(site, "page.html", |p| {
                symlink(outer.join("secret.html"), p).unwrap()
            }),
            1 => swap_in(site, "page.html", mkfifo),
            2 => swap_in(site, "page.html", |p| {
                symlink(outer.join("fifo"), p).unwrap()
            }),
            _ => swap_in(site, "page.html", |p| {
                fs::write(p, "<p>inside</p>").unwrap()
            }),
        }
        // A rename may make `sub` again while it is away (its new path's
        // missing folder): that one is cleared.
        let clear = || {
            let _ = fs::remove_file(site.join("sub"));
            let _ = fs::remove_dir_all(site.join("sub"));
        };
        if round.is_multiple_of(2) {
            fs::rename(site.join("sub"), site.join(".real")).unwrap();
            while symlink(outer.join("away"), site.join("sub")).is_err() {
                clear();
            }
        } else {
            clear();
            while fs::rename(site.join(".real"), site.join("sub")).is_err() {
                clear();
            }
        }
    };
    let (replaced, renamed) = (AtomicUsize::new(0), AtomicUsize::new(0));
    let search = || {
        let answer = server.post("api/search", &json!({"query": "SECRET"}));
        assert_eq!(answer.status, 200, "{}", answer.text());
        assert!(!answer.text().contains("SECRET"), "{}", answer.text());
    };
    let replace = || {
        let found = server
            .post("api/search", &json!({"query": "inside"}))
            .json();
        let pages: Vec<serde_json::Value> = found["pages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                let matches: Vec<serde_json::Value> = p["matches"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|m| json!({"line": m["line"], "column": m["column"]}))
                    .collect();
                json!({"path": p["path"], "version": p["version"], "matches": matches})
            })
            .collect();
        let answer = server.post(
            "api/replace",
            &json!({"query": "inside", "case": true, "replacement": "inside", "pages": pages}),
        );
        assert_eq!(answer.status, 200, "{}", answer.text());
        let written = answer.json()["written"].as_array().unwrap().len();
        replaced.fetch_add(written, Ordering::SeqCst);
    };
    let rename = || {
        for (from, to) in [
            ("sub/page.html", "sub/renamed.html"),
            ("sub/renamed.html", "sub/page.html"),
            ("page.html", "sub/moved.html"),
            ("sub/moved.html", "page.html"),
        ] {
            let answer = server.post(
                "api/rename",
                &json!({"from": from, "to": to, "apply": true}),
            );
            assert!(
                matches!(answer.status, 200 | 403 | 404 | 409 | 422),
                "{from} -> {to}: {} {}",
                answer.status,
                answer.text()
            );
            if answer.status == 200 {
                renamed.fetch_add(1, Ordering::SeqCst);
            }
        }
    };
    let answered = race(attack, &[&search, &replace, &rename]);
    assert!(answered > 10, "only {answered} answers");
    // The changes did happen now and then, between the swaps.
    let (replaced, renamed) = (replaced.into_inner(), renamed.into_inner());
    assert!(
        replaced > 0 && renamed > 0,
        "{replaced} replaced, {renamed} renamed"
    );
    assert_eq!(server.get("api/tree?dir=").status, 200);
    stage.assert_outside_untouched();
}

#[test]
fn an_outside_writer_is_never_overwritten_by_a_replace() {
    let stage = Stage::new();
    let server = Server::start(&stage.site);
    let page = stage.site.join("notes.txt");
    let base = format!(
        "\n= Base =\n\n{}\n",
        "Some words of mine. ".repeat(40_000).trim_end()
    );
    let replace = |version: &str| {
        server.post(
            "api/replace",
            &json!({"query": "Base", "case": true, "replacement": "Mine",
                    "pages": [{"path": "notes.txt", "version": version,
                               "matches": [{"line": 2, "column": 3}]}]}),
        )
    };
    let version = || {
        server.get("api/page?path=notes.txt").json()["version"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    fs::write(&page, &base).unwrap();
    let start = Instant::now();
    let timed = replace(&version());
    assert_eq!(timed.json()["written"].as_array().unwrap().len(), 1);
    let took = start.elapsed();
    let (mut written, mut refused) = (0, 0);
    for round in 0..24u32 {
        fs::write(&page, &base).unwrap();
        let seen = version();
        let theirs = format!("\n= Theirs {round} =\n");
        let answer = std::thread::scope(|scope| {
            scope.spawn(|| {
                std::thread::sleep(took * round / 8);
                let spare = stage.site.join(".theirs");
                fs::write(&spare, &theirs).unwrap();
                fs::rename(&spare, &page).unwrap();
            });
            replace(&seen)
        });
        assert_eq!(answer.status, 200, "{}", answer.text());
        let answer = answer.json();
        written += answer["written"].as_array().unwrap().len();
        refused += answer["refused"].as_array().unwrap().len();
        assert_eq!(
            fs::read_to_string(&page).unwrap(),
            theirs,
            "round {round}: the outside writer's change was lost ({answer})"
        );
    }
    assert_eq!(written + refused, 24);
    assert!(
        written > 0 && refused > 0,
        "{written} written, {refused} refused"
    );
}

#[test]
fn an_outside_writer_is_never_overwritten_by_a_rename() {
    let stage = Stage::new();
    let site = &stage.site;
    // Enough linking pages that a rename takes a while, so that the
    // writer lands before, during and after its writes.
    fs::create_dir(site.join("many")).unwrap();
    for i in 0..60 {
        fs::write(
            site.join(format!("many/{i:03}.txt")),
            format!("\n[../p.txt||p] {}\n", "words ".repeat(200)),
        )
        .unwrap();
    }
    let server = Server::start(site);
    let rename = |from: &str, to: &str| {
        server.post(
            "api/rename",
            &json!({"from": from, "to": to, "apply": true}),
        )
    };
    // The last linking page is written last: the writer replaces it.
    let victim = site.join("many/059.txt");
    let base = "\n[|top|P]\n";
    fs::write(site.join("p.txt"), base).unwrap();
    let start = Instant::now();
    assert_eq!(rename("p.txt", "q.txt").status, 200);
    let took = start.elapsed();
    assert_eq!(rename("q.txt", "p.txt").status, 200);
    let (mut moved, mut refused) = (0, 0);
    for round in 0..24u32 {
        let theirs = format!("\n[../p.txt||p] theirs {round}\n");
        let answer = std::thread::scope(|scope| {
            scope.spawn(|| {
                std::thread::sleep(took * round / 12);
                let spare = site.join("many/.theirs");
                fs::write(&spare, &theirs).unwrap();
                fs::rename(&spare, &victim).unwrap();
            });
            rename("p.txt", "q.txt")
        });
        match answer.status {
            200 => moved += 1,
            409 => refused += 1,
            other => panic!("{other}: {}", answer.text()),
        }
        // Theirs is never lost: kept as they wrote it, or (written before
        // the rename read the page) with its link rewritten; a refused
        // rename left every file as it was.
        let now = fs::read_to_string(&victim).unwrap();
        let relinked = theirs.replace("../p.txt", "../q.txt");
        assert!(
            now == theirs || (answer.status == 200 && now == relinked),
            "round {round}: the outside writer's change was lost: {now:?} ({})",
            answer.text()
        );
        if answer.status == 409 {
            assert!(site.join("p.txt").exists() && !site.join("q.txt").exists());
            assert!(
                answer.text().contains("every file is as it was"),
                "{}",
                answer.text()
            );
            let first = fs::read_to_string(site.join("many/000.txt")).unwrap();
            assert!(first.starts_with("\n[../p.txt||p]"), "{first}");
        } else {
            assert_eq!(rename("q.txt", "p.txt").status, 200);
        }
        // Back to the start for the next round.
        fs::write(&victim, "\n[../p.txt||p]\n").unwrap();
    }
    assert!(moved > 0 && refused > 0, "{moved} moved, {refused} refused");
}
