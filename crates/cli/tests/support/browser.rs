//! What the browser tests share: Chromium and chromedriver found (or the
//! test skipped outside CI), a WebDriver session, a running editor over a
//! site the test writes, and the few moves a person makes (pick a page in
//! the tree, wait for the preview, type with Control held).
//!
//! Screenshots are kept in `target/browser/` (`edit-*.png`).

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::fs;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::key::Key;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};

use super::editor::Server;

pub(crate) fn find_binary(variable: &str, candidates: &[&str]) -> Option<PathBuf> {
    if let Some(p) = std::env::var_os(variable) {
        return Some(PathBuf::from(p));
    }
    candidates.iter().map(PathBuf::from).find(|p| p.exists())
}

/// Chromium and chromedriver, or `None` (after saying so) on a developer
/// machine without them; a failure under CI.
pub(crate) fn browser_or_skip() -> Option<(PathBuf, PathBuf)> {
    let chromium = find_binary(
        "PAGETEXT_CHROMIUM",
        &["/usr/bin/chromium", "/usr/bin/chromium-browser"],
    );
    let driver = find_binary("PAGETEXT_CHROMEDRIVER", &["/usr/bin/chromedriver"]);
    match (chromium, driver) {
        (Some(c), Some(d)) => Some((c, d)),
        _ => {
            assert!(
                std::env::var_os("CI").is_none(),
                "Chromium and chromedriver are needed under CI: apt-get install -y chromium chromium-driver"
            );
            testkit::skipped(
                "browser test skipped: no chromium or chromedriver (apt-get install -y chromium chromium-driver)",
            );
            None
        }
    }
}

/// chromedriver on a free port, killed on drop.
pub(crate) struct Driver {
    child: Child,
    pub(crate) port: u16,
}

impl Driver {
    /// chromedriver listening and ready. The port is one the system had
    /// free a moment ago, so another process may take it first: a driver
    /// that exits, or a port that answers without being chromedriver's, is
    /// tried again on a new port.
    pub(crate) fn start(bin: &Path) -> Driver {
        for _ in 0..5 {
            let port = TcpListener::bind("127.0.0.1:0")
                .unwrap()
                .local_addr()
                .unwrap()
                .port();
            let mut child = Command::new(bin)
                .arg(format!("--port={port}"))
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("chromedriver starts");
            if wait_ready(&mut child, port) {
                return Driver { child, port };
            }
            let _ = child.kill();
            let _ = child.wait();
        }
        panic!("chromedriver did not become ready on any of five ports");
    }
}

/// Waits (20 s at most) until chromedriver's `/status` says it is ready;
/// false when the process exits first or the time runs out.
fn wait_ready(child: &mut Child, port: u16) -> bool {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(20) {
        if !matches!(child.try_wait(), Ok(None)) {
            return false;
        }
        if status_ready(port) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    false
}

/// One `GET /status`; true when the answer is chromedriver's and says ready.
/// chromedriver answers HTTP/1.1 only, and keeps the connection open, so
/// the answer is read until it says whether it is ready.
fn status_ready(port: u16) -> bool {
    use std::io::{Read, Write};
    let Ok(mut stream) = std::net::TcpStream::connect(("127.0.0.1", port)) else {
        return false;
    };
    let _ = stream.set_read_timeout(Some(Duration::from_secs(2)));
    let request = format!("GET /status HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n");
    if stream.write_all(request.as_bytes()).is_err() {
        return false;
    }
    let mut answer = Vec::new();
    let mut chunk = [0u8; 4096];
    while answer.len() < 1 << 16 {
        match stream.read(&mut chunk) {
            Ok(0) | Err(_) => return false,
            Ok(n) => answer.extend_from_slice(chunk.get(..n).unwrap_or_default()),
        }
        let text = String::from_utf8_lossy(&answer);
        if text.contains("\"ready\":true") {
            return true;
        }
        if text.contains("\"ready\":false") {
            return false;
        }
    }
    false
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Capabilities for headless Chromium with its own profile directory.
fn capabilities(chromium: &Path, profile: &Path) -> serde_json::Map<String, Value> {
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".to_owned(),
        json!({
            "binary": chromium.display().to_string(),
            "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync",
                "--window-size=1500,900",
                format!("--user-data-dir={}", profile.display()),
            ],
        }),
    );
    caps
}

pub(crate) async fn browser(chromium: &Path, driver: &Driver, profile: &Path) -> Client {
    // A new session starts Chromium. The driver can drop that first
    // request while the browser comes up (seen once under CI as
    // "connection reset by peer"), so a session that fails to open is
    // asked for again, three times at most, each in a profile of its own
    // (a browser left from a failed try may still hold the last one).
    let url = format!("http://127.0.0.1:{}", driver.port);
    let mut last = None;
    for attempt in 0..3u64 {
        if attempt > 0 {
            tokio::time::sleep(Duration::from_millis(500 * attempt)).await;
        }
        let caps = capabilities(chromium, &profile.join(format!("try-{attempt}")));
        match ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
            .capabilities(caps)
            .connect(&url)
            .await
        {
            Ok(client) => return client,
            Err(e) => last = Some(e),
        }
    }
    panic!("a WebDriver session, after three tries: {last:?}");
}

/// Waits until `script` (a function body) returns something truthy; returns
/// it. Fails with `what` after 20 seconds.
pub(crate) async fn until(client: &Client, what: &str, script: &str) -> Value {
    let start = Instant::now();
    loop {
        let value = client.execute(script, vec![]).await.unwrap();
        let truthy = match &value {
            Value::Null | Value::Bool(false) => false,
            Value::String(s) => !s.is_empty(),
            _ => true,
        };
        if truthy {
            return value;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "waited in vain: {what}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The text of the preview's first `selector`, read inside the frame.
pub(crate) async fn in_preview(client: &Client, selector: &str) -> Option<String> {
    client.enter_frame(0).await.unwrap();
    let text = match client.find(Locator::Css(selector)).await {
        Ok(element) => element.text().await.ok(),
        Err(_) => None,
    };
    client.enter_parent_frame().await.unwrap();
    text
}

pub(crate) async fn wait_for_preview(client: &Client, selector: &str, expected: &str) {
    let start = Instant::now();
    loop {
        if in_preview(client, selector).await.as_deref() == Some(expected) {
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "the preview's {selector} never became {expected:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

pub(crate) async fn screenshot(client: &Client, name: &str) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/browser");
    fs::create_dir_all(&dir).unwrap();
    let png = client.screenshot().await.unwrap();
    fs::write(dir.join(format!("edit-{name}.png")), png).unwrap();
}

/// Opens `path` by clicking it in the site tree (after opening its
/// directories), and waits for its text.
pub(crate) async fn pick(client: &Client, path: &str) {
    let parts: Vec<&str> = path.split('/').collect();
    for depth in 1..parts.len() {
        let dir = parts[..depth].join("/");
        let button = client
            .wait()
            .for_element(Locator::Css(&format!(
                "#tree li.dir > button[title='{dir}']"
            )))
            .await
            .unwrap();
        button.click().await.unwrap();
    }
    let button = client
        .wait()
        .for_element(Locator::Css(&format!("#tree button[data-path='{path}']")))
        .await
        .unwrap();
    button.click().await.unwrap();
    let opened = format!("return document.getElementById('current').textContent === {path:?};");
    until(client, &format!("{path} opened"), &opened).await;
}

/// The editor's text (CodeMirror's document).
pub(crate) async fn editor_text(client: &Client) -> String {
    let value = client
        .execute("return window.pagetextEditor.text();", vec![])
        .await
        .unwrap();
    value.as_str().unwrap().to_owned()
}

/// A 2 x 2 red PNG.
pub(crate) const PNG_2X2: &[u8] = &[
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x02, 0x08, 0x02, 0x00, 0x00, 0x00, 0xfd, 0xd4, 0x9a,
    0x73, 0x00, 0x00, 0x00, 0x12, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0xf8, 0xcf, 0xc0, 0x00,
    0x44, 0x0c, 0x50, 0x1a, 0x00, 0x3f, 0x00, 0x05, 0xfb, 0x6d, 0x8b, 0x1e, 0x91, 0x00, 0x00, 0x00,
    0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82,
];

/// Everything a browser test runs against: the site, the editor serving
/// it, chromedriver, a fresh browser profile.
pub(crate) struct Session {
    pub(crate) site: tempfile::TempDir,
    pub(crate) server: Server,
    pub(crate) chromium: PathBuf,
    pub(crate) driver: Driver,
    pub(crate) profile: tempfile::TempDir,
}

impl Session {
    /// A session over a site that `fill` writes; `None` when skipped.
    pub(crate) fn start(fill: fn(&Path)) -> Option<Session> {
        let (chromium, driver_bin) = browser_or_skip()?;
        let site = tempfile::tempdir().unwrap();
        fill(site.path());
        Some(Session {
            server: Server::start(site.path()),
            site,
            chromium,
            driver: Driver::start(&driver_bin),
            profile: tempfile::tempdir().unwrap(),
        })
    }

    pub(crate) async fn client(&self) -> Client {
        browser(&self.chromium, &self.driver, self.profile.path()).await
    }
}

/// `keys` typed with Control held, then released.
pub(crate) fn control(keys: &str) -> String {
    format!(
        "{}{keys}{}",
        char::from(Key::Control),
        char::from(Key::Null)
    )
}
