//! `to-text --warc`: a crawl's WARC files to JSON lines, one per HTML
//! `response` record (issue 21). Records are read one at a time
//! ([`crate::warc`]), converted in parallel a window at a time, and written
//! in their order; memory stays flat whatever the file's size.
//!
//! Each line: `url` (WARC-Target-URI, also the page's address for its
//! relative links), `date` (WARC-Date), and [`convert::CrawlPage`]'s
//! fields (`encoding`, `encoding_source`, `title`, `lang`, `text`,
//! `warnings`, `errors`). The HTTP `Content-Type` charset plays the
//! transport layer's part in sniffing. Other records (requests, metadata,
//! responses that are not HTML) are skipped and counted; a record that
//! cannot be read is reported with its offset, and the run goes on.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, BufRead, BufReader, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use serde::Serialize;

use crate::batch::Display;
use crate::convert::{self, CrawlPage};
use crate::warc::{Item, Record, Records};

/// How many records one window converts at once, per worker.
const WINDOW_PER_WORKER: usize = 8;

/// How many bytes of records one window holds at most.
const WINDOW_BYTES: usize = 256 * 1024 * 1024;

/// The largest page body once its content-encoding is undone (a page, not
/// a decompression bomb: each worker may hold one).
const MAX_PAYLOAD: u64 = 64 * 1024 * 1024;

/// One JSON line.
#[derive(Serialize)]
struct Line<'a> {
    url: &'a str,
    date: &'a str,
    #[serde(flatten)]
    page: CrawlPage,
}

/// What a record became.
enum Outcome {
    /// A JSON line.
    Page(Vec<u8>),
    /// Skipped, and why (for the counts).
    Skipped(String),
    /// Not readable: offset and reason.
    Bad(u64, String),
}

/// The counts of a run.
#[derive(Default)]
struct Tally {
    pages: u64,
    skipped: BTreeMap<String, u64>,
    bad: u64,
}

/// Runs `to-text --warc` over `inputs` (`-` is standard input), writing to
/// `output` or standard output.
pub(crate) fn run(
    inputs: &[PathBuf],
    output: Option<&Path>,
    jobs: Option<u16>,
    display: Display,
) -> anyhow::Result<ExitCode> {
    let workers = jobs.map_or_else(rayon::current_num_threads, usize::from);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(workers)
        .build()?;
    let mut sink: Box<dyn Write> = match output {
        Some(path) => Box::new(io::BufWriter::new(File::create(path).map_err(|e| {
            anyhow::anyhow!(
                "{}: {}",
                path.display(),
                crate::inputs::describe_io_error(&e)
            )
        })?)),
        None => Box::new(io::BufWriter::new(io::stdout().lock())),
    };
    let inputs: Vec<PathBuf> = if inputs.is_empty() {
        vec![PathBuf::from("-")]
    } else {
        inputs.to_vec()
    };
    let mut failed = false;
    for input in &inputs {
        let name = input.display().to_string();
        let (reader, size): (Box<dyn BufRead>, Option<u64>) = if name == "-" {
            (Box::new(BufReader::new(io::stdin().lock())), None)
        } else {
            match open_warc(input) {
                Ok((f, size)) => (Box::new(BufReader::with_capacity(1 << 16, f)), Some(size)),
                Err(e) => {
                    crate::say(&crate::message(
                        display.color,
                        &format!("{name}: {}", crate::inputs::describe_io_error(&e)),
                    ));
                    failed = true;
                    continue;
                }
            }
        };
        let started = Instant::now();
        let tally = convert_file(&name, reader, size, &pool, &mut sink, display)?;
        if !display.quiet {
            crate::say(&summary_line(&name, &tally, started));
        }
    }
    sink.flush()?;
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// Opens a WARC file and tells its size; a directory is an error (reading
/// one fails on every call).
fn open_warc(path: &Path) -> io::Result<(File, u64)> {
    let file = File::open(path)?;
    let meta = file.metadata()?;
    if meta.is_dir() {
        return Err(io::Error::new(
            io::ErrorKind::IsADirectory,
            "is a directory",
        ));
    }
    Ok((file, meta.len()))
}

/// Converts one WARC stream, a window of records at a time.
fn convert_file(
    name: &str,
    reader: Box<dyn BufRead>,
    size: Option<u64>,
    pool: &rayon::ThreadPool,
    sink: &mut dyn Write,
    display: Display,
) -> anyhow::Result<Tally> {
    let mut records = Records::new(reader);
    let bar = progress(size, display);
    let mut tally = Tally::default();
    let window = pool.current_num_threads().max(1) * WINDOW_PER_WORKER;
    loop {
        let mut batch = Vec::with_capacity(window);
        let mut bytes = 0usize;
        while batch.len() < window && bytes < WINDOW_BYTES {
            let Some(item) = records.next() else { break };
            if let Item::Record(record) = &item {
                bytes += record.body.len();
            }
            batch.push(item);
        }
        if batch.is_empty() {
            break;
        }
        let outcomes: Vec<Outcome> = pool.install(|| batch.into_par_iter().map(outcome).collect());
        for outcome in outcomes {
            match outcome {
                Outcome::Page(line) => {
                    sink.write_all(&line)?;
                    tally.pages += 1;
                }
                Outcome::Skipped(why) => *tally.skipped.entry(why).or_insert(0) += 1,
                Outcome::Bad(offset, reason) => {
                    tally.bad += 1;
                    bar.suspend(|| {
                        crate::say(&format!(
                            "pagetext: warning: {name}: record at offset {offset}: {reason}\n"
                        ));
                    });
                }
            }
        }
        bar.set_position(records.position());
        bar.set_message(format!("{} pages", tally.pages));
    }
    bar.finish_and_clear();
    Ok(tally)
}

fn progress(size: Option<u64>, display: Display) -> ProgressBar {
    if display.quiet || !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(size, ProgressDrawTarget::stderr());
    let template = if size.is_some() {
        "{bar:40} {bytes}/{total_bytes}, {msg}, {elapsed} (eta {eta})"
    } else {
        "{spinner} {bytes}, {msg}, {elapsed}"
    };
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style);
    }
    bar
}

fn summary_line(name: &str, tally: &Tally, started: Instant) -> String {
    let seconds = started.elapsed().as_secs_f64();
    let skipped: u64 = tally.skipped.values().sum();
    let kinds: Vec<String> = tally
        .skipped
        .iter()
        .map(|(why, n)| format!("{n} {why}"))
        .collect();
    format!(
        "pagetext: {name}: {} page{} as JSON lines, {skipped} record{} skipped{}, {} unreadable, in {seconds:.2} s ({:.0} pages/s)\n",
        tally.pages,
        if tally.pages == 1 { "" } else { "s" },
        if skipped == 1 { "" } else { "s" },
        if kinds.is_empty() {
            String::new()
        } else {
            format!(" ({})", kinds.join(", "))
        },
        tally.bad,
        if seconds > 0.0 {
            tally.pages as f64 / seconds
        } else {
            0.0
        },
    )
}

/// One item to its outcome.
fn outcome(item: Item) -> Outcome {
    let record = match item {
        Item::Record(record) => record,
        Item::Bad { offset, reason } => return Outcome::Bad(offset, reason),
    };
    let kind = record
        .header("WARC-Type")
        .unwrap_or("")
        .to_ascii_lowercase();
    if kind != "response" {
        return Outcome::Skipped(if kind.is_empty() {
            "untyped".to_owned()
        } else {
            kind
        });
    }
    // `dns:` lookups and other protocols' responses.
    let holds_http = record.header("Content-Type").is_none_or(|t| {
        t.trim()
            .to_ascii_lowercase()
            .starts_with("application/http")
    });
    if !holds_http {
        return Outcome::Skipped("not HTTP".to_owned());
    }
    let http = match Http::parse(&record.body) {
        Ok(http) => http,
        Err(reason) => return Outcome::Bad(record.offset, reason),
    };
    if !http.is_html() {
        return Outcome::Skipped("not HTML".to_owned());
    }
    let body = match http.payload(&record.body) {
        Ok(body) => body,
        Err(reason) => return Outcome::Bad(record.offset, reason),
    };
    page_line(&record, http.content_type.as_deref(), &body)
}

fn page_line(record: &Record, content_type: Option<&[u8]>, body: &[u8]) -> Outcome {
    let url = record
        .header("WARC-Target-URI")
        .unwrap_or("")
        .trim()
        .trim_start_matches('<')
        .trim_end_matches('>');
    let address = microsyntax::url::Url::parse(url).ok();
    let page = convert::crawl_page(body, content_type, address.as_ref());
    let line = Line {
        url,
        date: record.header("WARC-Date").unwrap_or(""),
        page,
    };
    match serde_json::to_vec(&line) {
        Ok(mut bytes) => {
            bytes.push(b'\n');
            Outcome::Page(bytes)
        }
        Err(e) => Outcome::Bad(record.offset, format!("cannot write its JSON: {e}")),
    }
}

/// The head of an archived HTTP response.
struct Http {
    /// The `Content-Type` value.
    content_type: Option<Vec<u8>>,
    /// `Transfer-Encoding: chunked`.
    chunked: bool,
    /// The `Content-Encoding` value, lower case.
    coding: Option<String>,
    /// Where the body starts.
    body_at: usize,
}

impl Http {
    fn parse(block: &[u8]) -> Result<Http, String> {
        // httparse reads HTTP/1.x heads; crawlers also write `HTTP/2 200`
        // (and `HTTP/2.0`, `HTTP/3`) status lines in front of the same
        // header syntax.
        let rewritten;
        let original = block.len();
        let block = match http2_status(block) {
            Some(rest) => {
                rewritten = [&b"HTTP/1.1 "[..], rest].concat();
                &rewritten[..]
            }
            None => block,
        };
        // Where the body starts in the record, not in the rewritten head.
        let shift = block.len().saturating_sub(original);
        let mut few = [httparse::EMPTY_HEADER; 128];
        let mut many;
        let mut response = httparse::Response::new(&mut few);
        let mut parsed = response.parse(block);
        if parsed == Err(httparse::Error::TooManyHeaders) {
            many = vec![httparse::EMPTY_HEADER; 4096];
            response = httparse::Response::new(&mut many);
            parsed = response.parse(block);
        }
        let body_at = match parsed {
            Ok(httparse::Status::Complete(n)) => n.saturating_sub(shift),
            Ok(httparse::Status::Partial) => {
                return Err("a truncated HTTP response head".to_owned());
            }
            Err(e) => return Err(format!("a malformed HTTP response head ({e})")),
        };
        let value = |name: &str| {
            response
                .headers
                .iter()
                .find(|h| h.name.eq_ignore_ascii_case(name))
                .map(|h| h.value.to_vec())
        };
        let text = |name: &str| {
            value(name).map(|v| String::from_utf8_lossy(&v).trim().to_ascii_lowercase())
        };
        Ok(Http {
            content_type: value("Content-Type"),
            chunked: text("Transfer-Encoding").is_some_and(|t| t.contains("chunked")),
            coding: text("Content-Encoding").filter(|c| !c.is_empty() && c != "identity"),
            body_at,
        })
    }

    /// HTML by its media type (`text/html`, `application/xhtml+xml`), or,
    /// without a `Content-Type`, by whatever the crawler stored.
    fn is_html(&self) -> bool {
        let Some(value) = &self.content_type else {
            return true;
        };
        let value = String::from_utf8_lossy(value);
        let media = value
            .split(';')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase();
        matches!(media.as_str(), "text/html" | "application/xhtml+xml" | "")
    }

    /// The body, with the transfer and content codings undone.
    fn payload(&self, block: &[u8]) -> Result<Vec<u8>, String> {
        let raw = block.get(self.body_at..).unwrap_or_default();
        // Crawlers often store the body already dechunked under its
        // original header: what does not read as chunks is the body.
        let body = match self.chunked.then(|| dechunk(raw)).flatten() {
            Some(body) => body,
            None => raw.to_vec(),
        };
        let limit = MAX_PAYLOAD;
        let mut out = Vec::new();
        let read = match self.coding.as_deref() {
            None => return Ok(body),
            Some("gzip" | "x-gzip") => flate2::read::MultiGzDecoder::new(&body[..])
                .take(limit)
                .read_to_end(&mut out),
            Some("deflate") => {
                let zlib = flate2::read::ZlibDecoder::new(&body[..])
                    .take(limit)
                    .read_to_end(&mut out);
                if zlib.is_err() {
                    out.clear();
                    flate2::read::DeflateDecoder::new(&body[..])
                        .take(limit)
                        .read_to_end(&mut out)
                } else {
                    zlib
                }
            }
            Some(other) => return Err(format!("content-encoding `{other}` is not supported")),
        };
        match read {
            Ok(_) if out.len() as u64 >= limit => Err(format!(
                "the body is over {limit} bytes once its content-encoding is undone: skipped"
            )),
            Ok(_) => Ok(out),
            Err(e) => Err(format!(
                "the body's content-encoding cannot be undone ({e})"
            )),
        }
    }
}

/// The rest of a head after an `HTTP/2`, `HTTP/2.0` or `HTTP/3` version.
fn http2_status(block: &[u8]) -> Option<&[u8]> {
    ["HTTP/2.0 ", "HTTP/2 ", "HTTP/3.0 ", "HTTP/3 "]
        .iter()
        .find_map(|v| block.strip_prefix(v.as_bytes()))
}

/// A chunked body's data (lenient: a malformed or truncated chunk after the
/// first ends it), or `None` when it does not start with a chunk.
fn dechunk(mut raw: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(raw.len());
    let mut first = true;
    loop {
        let Some(end) = raw.windows(2).position(|w| w == b"\r\n") else {
            return (!first).then_some(out);
        };
        let size_text = String::from_utf8_lossy(&raw[..end]);
        let size_text = size_text.split(';').next().unwrap_or("").trim();
        let Ok(size) = usize::from_str_radix(size_text, 16) else {
            return (!first).then_some(out);
        };
        first = false;
        if size == 0 {
            return Some(out);
        }
        let start = end + 2;
        let Some(chunk) = raw.get(start..start.saturating_add(size)) else {
            out.extend_from_slice(raw.get(start..).unwrap_or_default());
            return Some(out);
        };
        out.extend_from_slice(chunk);
        raw = raw.get(start + size + 2..).unwrap_or_default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunked_bodies_are_joined() {
        assert_eq!(
            dechunk(b"5\r\nhello\r\n7;x=1\r\n, world\r\n0\r\n\r\n").unwrap(),
            b"hello, world"
        );
        assert_eq!(dechunk(b"5\r\nhel").unwrap(), b"hel");
        // Not chunks at all: the body was stored dechunked.
        assert_eq!(dechunk(b"<p>already\r\n"), None);
        let block =
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n<p>already dechunked</p>";
        assert_eq!(
            Http::parse(block).unwrap().payload(block).unwrap(),
            b"<p>already dechunked</p>"
        );
    }

    #[test]
    fn content_codings_are_undone() {
        use std::io::Write as _;
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(b"<p>packed</p>").unwrap();
        let mut block = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n".to_vec();
        let body = gz.finish().unwrap();
        block.extend(format!("{:x}\r\n", body.len()).as_bytes());
        block.extend(&body);
        block.extend(b"\r\n0\r\n\r\n");
        let http = Http::parse(&block).unwrap();
        assert_eq!(http.payload(&block).unwrap(), b"<p>packed</p>");
        let br = b"HTTP/1.1 200 OK\r\nContent-Encoding: br\r\n\r\nxx";
        assert!(
            Http::parse(br)
                .unwrap()
                .payload(br)
                .unwrap_err()
                .contains("`br` is not supported")
        );
    }

    #[test]
    fn http_heads_say_what_the_body_is() {
        let block = b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=koi8-r\r\n\r\n<p>x</p>";
        let http = Http::parse(block).unwrap();
        assert!(http.is_html());
        assert_eq!(http.payload(block).unwrap(), b"<p>x</p>");
        let image =
            Http::parse(b"HTTP/1.1 200 OK\r\nContent-Type: image/png\r\n\r\n\x89PNG").unwrap();
        assert!(!image.is_html());
        assert!(Http::parse(b"HTTP/1.1 200 OK\r\nContent-Ty").is_err());
        // HTTP/2 status lines, and heads of many headers.
        let h2 = b"HTTP/2 200\r\ncontent-type: text/html\r\n\r\n<p>x</p>";
        assert_eq!(Http::parse(h2).unwrap().payload(h2).unwrap(), b"<p>x</p>");
        let mut many = b"HTTP/1.1 200 OK\r\n".to_vec();
        for i in 0..300 {
            many.extend(format!("Set-Cookie: c{i}=1\r\n").as_bytes());
        }
        many.extend(b"Content-Type: text/html\r\n\r\n<p>y</p>");
        assert!(Http::parse(&many).unwrap().is_html());
    }
}
