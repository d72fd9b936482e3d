//! The XSS check the way it matters, in a real browser: every output of the
//! XSS corpus (`testdata/xss/vectors.txt` through ingest -> emit) is loaded
//! in headless Chromium, as HTML (`.html`) and as XHTML (`.xhtml`), with a
//! hook that records any script execution; zero are allowed. Positive
//! controls (pages with a planted script, handler and `javascript:` link)
//! must be detected, so a broken hook cannot pass silently. The test also
//! renders the demo page (`testdata/cli/demo/chorale.html`, the page
//! `pagetext demo` converts) to `target/browser/demo.png` for a person to
//! look at.
//!
//! Needs Chromium (`apt-get install -y chromium`); `PAGETEXT_CHROMIUM` names
//! another binary. Without one it says so and passes, except under CI (the
//! `CI` variable set), where it fails.
//!
//! How execution is seen: each page gets, first thing in its `<head>`, a
//! hook script (ours) that replaces `alert`, `confirm`, `prompt` and
//! `print` (every vector that runs script calls one of them) with a function
//! that marks the page, and after `load` clicks every link whose URL the
//! browser itself parses as `javascript:`. The pages are frames of one
//! harness page; each reports to it by `postMessage`, and the harness lists
//! the results in its DOM, which `--dump-dom` prints.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use htmlio::emit::xhtml;
use htmlio::ingest::{Options, ingest};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("PAGETEXT_CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    [
        "/usr/bin/chromium",
        "/usr/bin/chromium-browser",
        "/usr/bin/google-chrome",
    ]
    .iter()
    .map(PathBuf::from)
    .find(|p| p.exists())
}

/// Chromium if there is one; `None` (after saying so) on a developer
/// machine without it; a failure under CI.
fn chromium_or_skip() -> Option<PathBuf> {
    let found = chromium();
    if found.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "Chromium is needed under CI: apt-get install -y chromium chromium-driver"
        );
        testkit::skipped(
            "browser check skipped: no Chromium (apt-get install -y chromium chromium-driver)",
        );
    }
    found
}

/// Runs Chromium headless with a fresh profile on `url` with `extra`
/// arguments; returns its standard output. Kills it after `limit`.
fn run_chromium(
    bin: &Path,
    profile: &Path,
    extra: &[String],
    url: &str,
    limit: Duration,
) -> String {
    let mut child = Command::new(bin)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
            "--allow-file-access-from-files",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(extra)
        .arg(url)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("{}: {e}", bin.display()));
    let start = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if start.elapsed() > limit => {
                let _ = child.kill();
                let _ = child.wait();
                panic!("Chromium did not finish within {limit:?}");
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(100)),
            Err(e) => panic!("waiting for Chromium: {e}"),
        }
    }
    let mut out = String::new();
    if let Some(mut stdout) = child.stdout.take() {
        use std::io::Read;
        let _ = stdout.read_to_string(&mut out);
    }
    out
}

/// The hook: no `<` or `&`, so that it is the same script in HTML and XML.
fn hook(id: &str) -> String {
    format!(
        "<script type=\"text/javascript\">(function () {{\n\
         var id = '{id}'; var hit = false;\n\
         var mark = function () {{ hit = true; }};\n\
         window.alert = mark; window.confirm = mark; window.prompt = mark; window.print = mark;\n\
         window.addEventListener('load', function () {{\n\
           var links = document.getElementsByTagName('a');\n\
           for (var i = 0; links.length > i; i++) {{ if (links[i].protocol === 'javascript:') {{ links[i].click(); }} }}\n\
           setTimeout(function () {{ parent.postMessage(id + (hit ? ' XSS' : ' ok'), '*'); }}, 300);\n\
         }});\n\
         }})();</script>\n"
    )
}

/// `page` with the hook inserted right after `<head>` (or at the start).
fn hooked(page: &str, id: &str) -> String {
    match page.find("<head>") {
        Some(at) => {
            let (a, b) = page.split_at(at + "<head>".len());
            format!("{a}\n{}{b}", hook(id))
        }
        None => format!("{}{page}", hook(id)),
    }
}

const HARNESS: &str = "<!DOCTYPE html><html><head><title>running</title><script>\n\
var want = WANT; var got = 0;\n\
window.addEventListener('message', function (e) {\n\
  var li = document.createElement('li'); li.textContent = String(e.data);\n\
  document.getElementById('results').appendChild(li);\n\
  got++; if (got === want) { document.title = 'done'; }\n\
});\n\
</script></head><body><ul id=\"results\"></ul>FRAMES</body></html>";

/// Writes the harness page around `frames` into `dir`, which expects
/// `want` reports, and runs Chromium on it with a virtual time budget of
/// `budget_ms`, killed after `limit_s`; returns the DOM it dumps.
fn run_harness(
    bin: &Path,
    dir: &Path,
    frames: &str,
    want: usize,
    budget_ms: u32,
    limit_s: u64,
) -> String {
    let harness = HARNESS
        .replace("WANT", &want.to_string())
        .replace("FRAMES", frames);
    let index = dir.join("index.html");
    std::fs::write(&index, harness).unwrap_or_else(|e| panic!("{e}"));
    let profile = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    run_chromium(
        bin,
        profile.path(),
        &[
            format!("--virtual-time-budget={budget_ms}"),
            "--dump-dom".into(),
        ],
        &format!("file://{}", index.display()),
        Duration::from_secs(limit_s),
    )
}

/// The reports the harness listed, in its DOM.
fn harness_results(dom: &str) -> Vec<&str> {
    dom.split("<li>")
        .skip(1)
        .filter_map(|s| s.split("</li>").next())
        .collect()
}

#[test]
fn no_script_runs_in_a_real_browser() {
    let Some(bin) = chromium_or_skip() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let vectors = std::fs::read_to_string(root().join("testdata/xss/vectors.txt"))
        .unwrap_or_else(|e| panic!("{e}"));
    let mut pages: Vec<(String, String)> = Vec::new();
    // Positive controls: the hook must see each of these.
    let control = |body: &str| {
        format!(
            "<html xmlns=\"http://www.w3.org/1999/xhtml\">\n<head>\n<title>c</title>\n</head>\n<body>\n{body}\n</body>\n</html>\n"
        )
    };
    let controls = [
        control("<script type=\"text/javascript\">alert(1)</script>"),
        control("<img src=\"x\" onerror=\"alert(1)\" alt=\"\" />"),
        control("<p><a href=\"java&#9;script:alert(1)\">x</a></p>"),
    ];
    for (k, c) in controls.iter().enumerate() {
        pages.push((format!("control{k}"), c.clone()));
    }
    // A negative control: a plain page reports ok.
    pages.push(("plain".into(), control("<p>nothing</p>")));
    let mut n = 0;
    for v in vectors
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let out = xhtml(&ingest(v.as_bytes(), &Options::default()).document);
        pages.push((format!("v{n}"), out.text));
        n += 1;
    }
    assert!(n >= 150);
    let mut frames = String::new();
    let mut want = 0;
    for (id, page) in &pages {
        for ext in ["html", "xhtml"] {
            let name = format!("{id}.{ext}");
            let full_id = format!("{id}.{ext}");
            std::fs::write(dir.path().join(&name), hooked(page, &full_id))
                .unwrap_or_else(|e| panic!("{e}"));
            frames.push_str(&format!(
                "<iframe src=\"{name}\" width=\"50\" height=\"50\"></iframe>\n"
            ));
            want += 1;
        }
    }
    let dom = run_harness(&bin, dir.path(), &frames, want, 30_000, 240);
    let results = harness_results(&dom);
    let verdict = |id: &str| {
        results
            .iter()
            .find(|r| r.split(' ').next() == Some(id))
            .map(|r| r.ends_with("XSS"))
    };
    for k in 0..controls.len() {
        for ext in ["html", "xhtml"] {
            let id = format!("control{k}.{ext}");
            assert_eq!(
                verdict(&id),
                Some(true),
                "positive control {id} not detected; results: {results:?}"
            );
        }
    }
    for ext in ["html", "xhtml"] {
        assert_eq!(
            verdict(&format!("plain.{ext}")),
            Some(false),
            "negative control"
        );
    }
    let mut missing = Vec::new();
    let mut executed = Vec::new();
    let lines: Vec<&str> = vectors
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .collect();
    for (k, v) in lines.iter().enumerate() {
        for ext in ["html", "xhtml"] {
            match verdict(&format!("v{k}.{ext}")) {
                None => missing.push(format!("v{k}.{ext}")),
                Some(true) => executed.push(format!("{ext}: {v}")),
                Some(false) => {}
            }
        }
    }
    assert!(
        executed.is_empty(),
        "script ran for:\n{}",
        executed.join("\n")
    );
    assert!(
        missing.is_empty(),
        "no report from {} pages: {missing:?}",
        missing.len()
    );
}

#[test]
fn demo_page_screenshot() {
    let Some(bin) = chromium_or_skip() else {
        return;
    };
    let page = std::fs::read(root().join("testdata/cli/demo/chorale.html"))
        .unwrap_or_else(|e| panic!("{e}"));
    let out = xhtml(&ingest(&page, &Options::default()).document);
    let target =
        std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root().join("target"), PathBuf::from);
    let dir = target.join("browser");
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    let xhtml_path = dir.join("demo.xhtml");
    std::fs::write(&xhtml_path, &out.bytes).unwrap_or_else(|e| panic!("{e}"));
    let png = dir.join("demo.png");
    let _ = std::fs::remove_file(&png);
    let profile = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    run_chromium(
        &bin,
        profile.path(),
        &[
            format!("--screenshot={}", png.display()),
            "--window-size=1024,1400".into(),
        ],
        &format!("file://{}", xhtml_path.display()),
        Duration::from_secs(120),
    );
    let bytes =
        std::fs::read(&png).unwrap_or_else(|e| panic!("no screenshot at {}: {e}", png.display()));
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"), "not a PNG");
    // A blank page of this size compresses to a few kilobytes; text does not.
    assert!(
        bytes.len() > 20_000,
        "the screenshot looks blank ({} bytes)",
        bytes.len()
    );
    eprintln!("demo screenshot: {}", png.display());
}

/// The in-page check: after `load`, follows each in-page link the way a
/// click does (`location.hash`) and asks the browser which element is the
/// target (`:target`); reports the links that reach none. No `<` or `&`, so
/// that it is the same script in HTML and XML.
fn target_hook(id: &str) -> String {
    format!(
        "<script type=\"text/javascript\">(function () {{\n\
         var id = '{id}';\n\
         window.addEventListener('load', function () {{\n\
           var links = document.getElementsByTagName('a'); var broken = []; var n = 0;\n\
           for (var i = 0; links.length > i; i++) {{\n\
             var h = links[i].getAttribute('href');\n\
             if (h === null || h.charAt(0) !== '#') {{ continue; }}\n\
             n++; location.hash = links[i].hash;\n\
             if (document.querySelector(':target') === null) {{ broken.push(h); }}\n\
           }}\n\
           parent.postMessage(id + ' ' + n + ' ' + (broken.length === 0 ? 'ok' : 'BROKEN ' + broken.join(',')), '*');\n\
         }});\n\
         }})();</script>\n"
    )
}

/// Anchors whose names are not XML names (`id="2550"`,
/// `name="2000-07"`, `name="*"`, a name with a space) get a valid form, and
/// their links follow; Chromium must still reach every target from its link,
/// as HTML and as XHTML. A page with a link to nowhere is the control.
#[test]
fn renamed_anchors_are_reached_in_a_real_browser() {
    let Some(bin) = chromium_or_skip() else {
        return;
    };
    let page = "<title>anchors</title>\n\
        <p><a href=\"#2550\">a</a> <a href=\"#2000-07\">b</a> <a href=\"#*\">c</a>\n\
        <a href=\"#Section 1\">d</a> <a href=\"#caf%C3%A9\">e</a> <a href=\"#ok\">f</a></p>\n\
        <h2 id=\"2550\">Twenty-five fifty</h2>\n<p><a name=\"2000-07\">July</a> 2000</p>\n\
        <p><a name=\"*\">Star</a> and <a name=\"Section 1\">section</a></p>\n\
        <p id=\"café\">Café</p>\n<p id=\"ok\">Fine</p>\n";
    let out = xhtml(&ingest(page.as_bytes(), &Options::default()).document);
    assert!(
        !out.diagnostics.iter().any(|d| d.code.breaks_validity()),
        "{:?}",
        out.diagnostics
    );
    assert!(out.text.contains("id=\"_2550\""), "{}", out.text);
    let control = "<html xmlns=\"http://www.w3.org/1999/xhtml\">\n<head>\n<title>c</title>\n</head>\n\
        <body>\n<p><a href=\"#nowhere\">x</a> <a name=\"there\" id=\"there\">y</a> <a href=\"#there\">z</a></p>\n</body>\n</html>\n";
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let mut frames = String::new();
    let mut want = 0;
    for (id, text) in [("page", out.text.as_str()), ("control", control)] {
        for ext in ["html", "xhtml"] {
            let name = format!("{id}.{ext}");
            let hooked = match text.find("<head>") {
                Some(at) => {
                    let (a, b) = text.split_at(at + "<head>".len());
                    format!("{a}\n{}{b}", target_hook(&name))
                }
                None => format!("{}{text}", target_hook(&name)),
            };
            std::fs::write(dir.path().join(&name), hooked).unwrap_or_else(|e| panic!("{e}"));
            frames.push_str(&format!("<iframe src=\"{name}\"></iframe>\n"));
            want += 1;
        }
    }
    let dom = run_harness(&bin, dir.path(), &frames, want, 10_000, 120);
    let results = harness_results(&dom);
    for ext in ["html", "xhtml"] {
        let page = format!("page.{ext} 6 ok");
        assert!(results.contains(&page.as_str()), "{page}: {results:?}");
        let control = format!("control.{ext} 2 BROKEN #nowhere");
        assert!(
            results.contains(&control.as_str()),
            "{control}: {results:?}"
        );
    }
}

/// The layout check of a figure: after `load`, whether the caption (the
/// element of the class `caption`) starts under the image, and whether the
/// image and the caption's text are inside the figure. No `<` or `&`, so
/// that it is the same script in HTML and XML.
fn figure_hook(id: &str) -> String {
    format!(
        "<script type=\"text/javascript\">(function () {{\n\
         var id = '{id}';\n\
         window.addEventListener('load', function () {{\n\
           var fig = document.querySelector('.figure'); var img = document.querySelector('.figure img');\n\
           var cap = document.querySelector('.figure .caption');\n\
           if (fig === null || img === null || cap === null) {{ parent.postMessage(id + ' MISSING', '*'); return; }}\n\
           var i = img.getBoundingClientRect(); var c = cap.getBoundingClientRect();\n\
           var under = (c.top - i.bottom > -1) ? (i.height > 30) : false;\n\
           parent.postMessage(id + (under ? ' under' : ' NOT UNDER ' + i.bottom + ' ' + c.top) + ' ' + cap.textContent, '*');\n\
         }});\n\
         }})();</script>\n"
    )
}

/// A page's figure, read and written as XHTML, shows its caption under its
/// image in Chromium, as HTML and as XHTML.
#[test]
fn a_figure_shows_its_caption_under_its_image_in_a_real_browser() {
    let Some(bin) = chromium_or_skip() else {
        return;
    };
    // A 60x40 graphic, drawn without anything from elsewhere.
    let svg = "PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIHdpZHRoPSI2MCIgaGVpZ2h0PSI0MCI+PHJlY3Qgd2lkdGg9IjYwIiBoZWlnaHQ9IjQwIiBmaWxsPSJ0ZWFsIi8+PC9zdmc+";
    let page = format!(
        "<title>figure</title>\n<p>Before.</p>\n<figure><img src=\"data:image/svg+xml;base64,{svg}\" \
         alt=\"A box\" width=\"60\" height=\"40\"><figcaption>The caption</figcaption></figure>\n<p>After.</p>\n"
    );
    let doc = ingest(page.as_bytes(), &Options::default()).document;
    assert!(
        doc.body
            .iter()
            .any(|b| matches!(b, wikitext::Block::Figure { .. })),
        "{doc:?}"
    );
    let out = xhtml(&doc);
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let mut frames = String::new();
    for ext in ["html", "xhtml"] {
        let name = format!("figure.{ext}");
        let hooked = match out.text.find("<head>") {
            Some(at) => {
                let (a, b) = out.text.split_at(at + "<head>".len());
                format!("{a}\n{}{b}", figure_hook(&name))
            }
            None => format!("{}{}", figure_hook(&name), out.text),
        };
        std::fs::write(dir.path().join(&name), hooked).unwrap_or_else(|e| panic!("{e}"));
        frames.push_str(&format!(
            "<iframe src=\"{name}\" width=\"400\" height=\"300\"></iframe>\n"
        ));
    }
    let dom = run_harness(&bin, dir.path(), &frames, 2, 10_000, 120);
    let results = harness_results(&dom);
    for ext in ["html", "xhtml"] {
        let want = format!("figure.{ext} under The caption");
        assert!(
            results.contains(&want.as_str()),
            "{want}: {results:?}\n{}",
            out.text
        );
    }
}
