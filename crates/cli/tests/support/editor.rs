//! The real `pagetext edit` server for tests: started on a free loopback
//! port over a directory, its printed address parsed, stopped on drop; and
//! a raw HTTP/1.1 client, so that tests can send exactly the bytes an
//! attacker would (request targets no URL library would leave alone,
//! forged Host and Origin headers).

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A running `pagetext edit DIR --port 0`.
pub(crate) struct Server {
    child: Child,
    /// The port it listens on.
    pub(crate) port: u16,
    /// The secret token.
    pub(crate) token: String,
    /// The address it printed.
    pub(crate) address: String,
}

impl Server {
    /// Starts the editor over `dir` and waits for its address. The binary
    /// is the one cargo built for the test, or `PAGETEXT_EDIT_BIN` (a
    /// release build, for the latency measurements of `edit_latency.rs`).
    pub(crate) fn start(dir: &Path) -> Server {
        let bin = std::env::var_os("PAGETEXT_EDIT_BIN")
            .unwrap_or_else(|| env!("CARGO_BIN_EXE_pagetext").into());
        let mut child = Command::new(bin)
            .args(["edit", "--port", "0"])
            .arg(dir)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("pagetext edit starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let address = line.trim().to_owned();
        let rest = address
            .strip_prefix("http://127.0.0.1:")
            .unwrap_or_else(|| panic!("an address on loopback, not {address:?}"));
        let (port, token) = rest.split_once('/').unwrap();
        Server {
            port: port.parse().unwrap(),
            token: token.trim_end_matches('/').to_owned(),
            address,
            child,
        }
    }

    /// Sends SIGINT (Ctrl-C) and waits up to 20 seconds for the exit
    /// status.
    #[cfg(unix)]
    pub(crate) fn interrupt(&mut self) -> Option<i32> {
        let pid = self.child.id().to_string();
        Command::new("kill").args(["-INT", &pid]).status().unwrap();
        let start = std::time::Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.code();
            }
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "still running after Ctrl-C"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// `http://127.0.0.1:PORT`, the editor's origin.
    pub(crate) fn origin(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// `Host: 127.0.0.1:PORT`.
    pub(crate) fn host(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    /// GET `/TOKEN/PATH` as the editor's page sends it.
    pub(crate) fn get(&self, path: &str) -> Answer {
        let target = format!("/{}/{path}", self.token);
        self.send("GET", &target, &[("Host", &self.host())], b"")
    }

    /// POST a JSON body to `/TOKEN/PATH` as the editor's page sends it.
    pub(crate) fn post(&self, path: &str, body: &serde_json::Value) -> Answer {
        let target = format!("/{}/{path}", self.token);
        let origin = self.origin();
        self.send(
            "POST",
            &target,
            &[
                ("Host", &self.host()),
                ("Origin", &origin),
                ("Content-Type", "application/json"),
            ],
            body.to_string().as_bytes(),
        )
    }

    /// Sends one request exactly as given (target and headers untouched).
    pub(crate) fn send(
        &self,
        method: &str,
        target: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> Answer {
        send_raw(self.port, method, target, headers, body)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One HTTP answer.
#[derive(Debug)]
pub(crate) struct Answer {
    /// The status code.
    pub(crate) status: u16,
    /// The header lines, names in lower case.
    pub(crate) headers: Vec<(String, String)>,
    /// The body.
    pub(crate) body: Vec<u8>,
}

impl Answer {
    /// The body as JSON.
    pub(crate) fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| {
            panic!("a JSON body ({e}): {}", String::from_utf8_lossy(&self.body))
        })
    }

    /// The body as text.
    pub(crate) fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// The first header called `name`.
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Sends a request with `Connection: close` and reads the whole answer.
pub(crate) fn send_raw(
    port: u16,
    method: &str,
    target: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> Answer {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(120)))
        .unwrap();
    let mut head = format!("{method} {target} HTTP/1.1\r\n");
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str(&format!(
        "Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    ));
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(body).unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).unwrap();
    parse_answer(&raw)
}

fn parse_answer(raw: &[u8]) -> Answer {
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a complete head");
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .expect("a status line");
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    let rest = &raw[split + 4..];
    let chunked = headers
        .iter()
        .any(|(n, v)| n == "transfer-encoding" && v.contains("chunked"));
    let body = if chunked {
        unchunk(rest)
    } else {
        rest.to_vec()
    };
    Answer {
        status,
        headers,
        body,
    }
}

fn unchunk(mut rest: &[u8]) -> Vec<u8> {
    let mut body = Vec::new();
    loop {
        let Some(end) = rest.windows(2).position(|w| w == b"\r\n") else {
            return body;
        };
        let size =
            usize::from_str_radix(String::from_utf8_lossy(&rest[..end]).trim(), 16).unwrap_or(0);
        if size == 0 {
            return body;
        }
        let start = end + 2;
        body.extend_from_slice(&rest[start..start + size]);
        rest = &rest[start + size + 2..];
    }
}
