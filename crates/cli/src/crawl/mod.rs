//! `to-text --warc`: a crawl's WARC files to JSON lines, one per HTML
//! `response` record. Records are read one at a time ([`crate::warc`]),
//! each converted on a worker as soon as it is read, and written in their
//! order; a bounded number is held at once, so memory stays flat whatever
//! the file's size.
//!
//! Each line: `url` (WARC-Target-URI, also the page's address for its
//! relative links), `date` (WARC-Date), `status` (the HTTP status code),
//! `media_type` (the response's), and [`CrawlPage`]'s fields
//! (`encoding`, `encoding_source`, `title`, `lang` as the page declares
//! it, `detected_lang` and `detected_lang_confidence` as its text says
//! ([`htmlio::lang`]), `text`, `warnings`, `errors`). The HTTP
//! `Content-Type` charset plays the transport layer's part in sniffing.
//! Other records (requests, metadata, responses that are not HTML) are
//! skipped and counted; a record that cannot be read is reported with its
//! offset, and the run goes on. The progress bar and the summary lines are
//! the batch runner's ([`crate::batch`]); `-o` is written atomically
//! ([`crate::atomic`]), like every other output.

mod page;

use std::collections::{BTreeMap, VecDeque};
use std::fs::File;
use std::io::{self, BufRead, BufReader, Write};
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, mpsc};
use std::time::Instant;

use serde::Serialize;

use crate::atomic::AtomicFile;
use crate::batch::{self, CrawlSummary, Display, Progress};
use crate::warc::{Http, Item, Record, Records};
use page::{CrawlPage, crawl_page};

/// How many records may be read and not yet written, per worker: enough
/// that a worker finds the next record waiting while a slow page holds the
/// line of another.
const HELD_PER_WORKER: usize = 8;

/// How many bytes of records may be read and not yet written (one more
/// record may come in above it).
const HELD_BYTES: usize = 256 * 1024 * 1024;

/// One JSON line.
#[derive(Serialize)]
struct Line<'a> {
    url: &'a str,
    date: &'a str,
    /// The HTTP status code: a 404 page is converted too, and says so.
    status: u16,
    /// The response's media type (`text/html`), when it has one.
    media_type: Option<String>,
    #[serde(flatten)]
    page: CrawlPage,
}

/// What each record's conversion is asked for: the main content only, and
/// which statuses.
#[derive(Clone)]
struct Asked {
    main_content: bool,
    format: htmlio::TextFormat,
    status: Arc<StatusFilter>,
}

/// Which responses `--status` lets through: codes (`200`) and classes
/// (`2xx`); none given, all.
#[derive(Debug, Clone, Default)]
pub(crate) struct StatusFilter {
    codes: Vec<u16>,
    classes: Vec<u16>,
}

impl StatusFilter {
    /// Reads `200,404,3xx`; an error names what is not a code or class.
    pub(crate) fn parse(values: &[String]) -> Result<StatusFilter, String> {
        let mut filter = StatusFilter::default();
        for value in values.iter().map(|v| v.trim()).filter(|v| !v.is_empty()) {
            let bytes = value.as_bytes();
            let class = bytes.len() == 3
                && matches!(bytes[0], b'1'..=b'5')
                && bytes[1..].eq_ignore_ascii_case(b"xx");
            if class {
                filter.classes.push(u16::from(bytes[0] - b'0'));
            } else if let Ok(code @ 100..=599) = value.parse::<u16>() {
                filter.codes.push(code);
            } else {
                return Err(format!(
                    "--status {value}: not an HTTP status (100 to 599) nor a class (2xx)"
                ));
            }
        }
        Ok(filter)
    }

    /// Whether a response of `status` is converted.
    fn admits(&self, status: u16) -> bool {
        (self.codes.is_empty() && self.classes.is_empty())
            || self.codes.contains(&status)
            || self.classes.contains(&(status / 100))
    }
}

/// What a record became.
enum Outcome {
    /// A JSON line, and under `--main-content` the parts dropped.
    Page(Vec<u8>, Option<usize>),
    /// Skipped, and why (for the counts).
    Skipped(String),
    /// Not readable: offset and reason.
    Bad(u64, String),
}

/// Where the JSON lines go: the `-o` file, put in place when the run is
/// done, or standard output.
enum Sink {
    File(io::BufWriter<AtomicFile>),
    Stdout(io::BufWriter<io::StdoutLock<'static>>),
}

impl Sink {
    fn writer(&mut self) -> &mut dyn Write {
        match self {
            Sink::File(w) => w,
            Sink::Stdout(w) => w,
        }
    }

    /// Flushes, and puts the file in place.
    fn finish(self) -> io::Result<()> {
        match self {
            Sink::File(w) => w.into_inner().map_err(|e| e.into_error())?.commit(),
            Sink::Stdout(mut w) => w.flush(),
        }
    }
}

/// Runs `to-text --warc` over `inputs` (`-` is standard input), writing to
/// `output` or standard output.
pub(crate) fn run(
    inputs: &[PathBuf],
    output: Option<&Path>,
    jobs: Option<u16>,
    asked: (bool, htmlio::TextFormat, StatusFilter),
    display: Display,
) -> anyhow::Result<ExitCode> {
    let (main_content, format, status) = asked;
    let asked = Asked {
        main_content,
        format,
        status: Arc::new(status),
    };
    // `-j N`, or one worker per core (the size of rayon's global pool: the
    // CPUs this process may use, or RAYON_NUM_THREADS), as for directories.
    let workers = jobs.map_or_else(rayon::current_num_threads, usize::from);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(workers)
        .build()?;
    let cannot_write = |path: &Path, e: io::Error| {
        anyhow::anyhow!(
            "{}: {}",
            path.display(),
            crate::inputs::describe_io_error(&e)
        )
    };
    let mut sink = match output {
        Some(path) => {
            // What a killed crawl left beside its output goes first.
            let dir = crate::outputs::dir_of(path);
            crate::remove_leftovers(&std::collections::BTreeSet::from([dir]), display);
            Sink::File(io::BufWriter::new(
                AtomicFile::create(path).map_err(|e| cannot_write(path, e))?,
            ))
        }
        None => Sink::Stdout(io::BufWriter::new(io::stdout().lock())),
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
        let summary = convert_file(&name, reader, size, &pool, sink.writer(), &asked, display)?;
        if summary.records == 0 {
            // Nothing in it reads as a WARC record: the wrong file.
            crate::say(&crate::message(
                display.color,
                &format!(
                    "{name}: not a WARC file: no record in it (a WARC record starts with a \
                     `WARC/1.0` line; a web page is read by `pagetext to-text` without --warc)"
                ),
            ));
            failed = true;
            continue;
        }
        let line = summary.line(&name, started.elapsed(), pool.current_num_threads());
        batch::say_summary(&line, display);
    }
    match (sink.finish(), output) {
        (Err(e), Some(path)) => return Err(cannot_write(path, e)),
        (result, _) => result?,
    }
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

/// Converts one WARC stream. The records are read here, one at a time, and
/// each goes to the pool as soon as it is read; at most
/// [`HELD_PER_WORKER`] per worker (and about [`HELD_BYTES`]) are read and
/// not yet written. Lines are written in the records' order as they are
/// ready. Reading overlaps converting, and no worker waits for another's
/// page (as a worker would at the end of a batch).
fn convert_file(
    name: &str,
    reader: Box<dyn BufRead>,
    size: Option<u64>,
    pool: &rayon::ThreadPool,
    sink: &mut dyn Write,
    asked: &Asked,
    display: Display,
) -> anyhow::Result<CrawlSummary> {
    let mut records = Records::new(reader);
    let bar = batch::progress_bar(Progress::Bytes(size), display);
    let mut summary = CrawlSummary::default();
    let most = pool.current_num_threads().max(1) * HELD_PER_WORKER;
    let (tx, rx) = mpsc::channel::<(usize, std::thread::Result<Outcome>)>();
    // The sizes of the records read and not yet written, oldest first.
    let mut held: VecDeque<usize> = VecDeque::new();
    let mut held_bytes = 0;
    // Records handed to the pool; the next to write is `sent - held.len()`.
    let mut sent = 0;
    // Outcomes that came before an older record's.
    let mut ready = BTreeMap::new();
    let mut ended = false;
    loop {
        while !ended && held.len() < most && held_bytes < HELD_BYTES {
            let Some(item) = records.next() else {
                ended = true;
                break;
            };
            let bytes = match &item {
                Item::Record(record) => {
                    summary.records += 1;
                    record.body.len()
                }
                Item::Bad { .. } => 0,
            };
            held.push_back(bytes);
            held_bytes += bytes;
            let (tx, index, asked) = (tx.clone(), sent, asked.clone());
            pool.spawn(move || {
                // A panic is raised again where the lines are written.
                let result = panic::catch_unwind(AssertUnwindSafe(|| outcome(item, &asked)));
                // The writer may have stopped (a failed write): fine.
                let _ = tx.send((index, result));
            });
            sent += 1;
        }
        if held.is_empty() {
            break;
        }
        // Never disconnected: `tx` is held here.
        let (index, result) = rx.recv()?;
        ready.insert(index, result);
        while let Some(result) = ready.remove(&(sent - held.len())) {
            held_bytes -= held.pop_front().unwrap_or(0);
            match result.unwrap_or_else(|payload| panic::resume_unwind(payload)) {
                Outcome::Page(line, dropped) => {
                    sink.write_all(&line)?;
                    summary.pages += 1;
                    if let Some(dropped) = dropped {
                        *summary.dropped.get_or_insert(0) += dropped as u64;
                    }
                }
                Outcome::Skipped(why) => *summary.skipped.entry(why).or_insert(0) += 1,
                Outcome::Bad(offset, reason) => {
                    summary.unreadable += 1;
                    bar.suspend(|| {
                        crate::say(&format!(
                            "pagetext: warning: {name}: record at offset {offset}: {reason}\n"
                        ));
                    });
                }
            }
        }
        bar.set_position(records.position());
        bar.set_message(format!("{} pages", summary.pages));
    }
    bar.finish_and_clear();
    Ok(summary)
}

/// One item to its outcome.
fn outcome(item: Item, asked: &Asked) -> Outcome {
    let record = match item {
        Item::Record(record) => record,
        Item::Bad { offset, error } => return Outcome::Bad(offset, error.to_string()),
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
    if !record.holds_http() {
        return Outcome::Skipped("not HTTP".to_owned());
    }
    let http = match Http::parse(&record.body) {
        Ok(http) => http,
        Err(e) => return Outcome::Bad(record.offset, e.to_string()),
    };
    if !http.is_html() {
        return Outcome::Skipped("not HTML".to_owned());
    }
    if !asked.status.admits(http.status) {
        return Outcome::Skipped(format!("status {}", http.status));
    }
    let body = match http.payload(&record.body) {
        Ok(body) => body,
        Err(e) => return Outcome::Bad(record.offset, e.to_string()),
    };
    page_line(&record, &http, &body, asked)
}

fn page_line(record: &Record, http: &Http, body: &[u8], asked: &Asked) -> Outcome {
    let url = record.target_uri();
    let address = microsyntax::url::Url::parse(url).ok();
    let page = crawl_page(
        body,
        http.content_type.as_deref(),
        address.as_ref(),
        asked.main_content,
        asked.format,
    );
    let dropped = page.main_content.as_ref().map(|m| m.dropped);
    let line = Line {
        url,
        date: record.header("WARC-Date").unwrap_or(""),
        status: http.status,
        media_type: http.media_type(),
        page,
    };
    match batch::json_line(&line) {
        Ok(text) => {
            let mut bytes = text.into_bytes();
            bytes.push(b'\n');
            Outcome::Page(bytes, dropped)
        }
        Err(e) => Outcome::Bad(record.offset, format!("cannot write its JSON: {e}")),
    }
}
