//! Running one job over many inputs: in parallel on a rayon pool (`-j N`),
//! with results printed in input order as soon as they are ready, a progress
//! bar when standard error is a terminal, and one summary line at the end.
//!
//! Workers read, convert and write (atomically) on their own; the main thread
//! only prints. A failing input is recorded and the others go on. When
//! standard output is closed (`| head`), the workers stop taking new inputs
//! and the run ends quietly.
//!
//! The progress bar and the summary line are also the crawl's
//! (`crate::crawl`, `to-text --warc`): [`progress_bar`] counts files or
//! bytes, [`say_summary`] prints a run's last line.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashSet};
use std::fs;
use std::io::{self, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::iter::{ParallelBridge, ParallelIterator};
use serde::Serialize;

use crate::atomic::write_atomic;
use crate::convert::{self, Converted, Job};
use crate::diag::{self, Color, Diag, Severity};
use crate::inputs::{Input, Item, Source, describe_io_error};
use crate::outputs::{Dest, Plan};

/// What `fmt` was asked to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FmtMode {
    /// Print or write the canonical text.
    Write,
    /// Replace inputs that are not canonical.
    InPlace,
    /// Only list inputs that are not canonical.
    Check,
}

/// How the run prints.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Display {
    /// Errors only.
    pub(crate) quiet: bool,
    /// Notes, every diagnostic of a kind (not only the first few), and
    /// per-file lines too.
    pub(crate) verbose: bool,
    /// ANSI colours on standard error, or plain text.
    pub(crate) color: Color,
}

/// Which kind of command a run serves: what goes to standard output, and
/// whether a summary line ends the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RunKind {
    /// `to-text`, `to-html`, `fmt`, `check`: outputs (or one JSON record per
    /// input, or the names `fmt --check` lists), then a summary line on
    /// standard error when there were several inputs (or with -v).
    Batch,
    /// `sniff`: one line (or JSON object) per input naming its encoding, and
    /// no summary line.
    Sniff,
}

/// Options of one run.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Options {
    /// Worker threads (`None`: one per CPU core).
    pub(crate) jobs: Option<u16>,
    /// One JSON object per input on standard output.
    pub(crate) json: bool,
    /// Warnings are errors.
    pub(crate) strict: bool,
    /// `fmt`'s mode, for `fmt` runs.
    pub(crate) fmt: Option<FmtMode>,
    /// The command's kind: its line formats, and whether a summary line
    /// is printed.
    pub(crate) kind: RunKind,
    /// How to print.
    pub(crate) display: Display,
}

/// What happened to one input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
enum Outcome {
    /// Converted (and written, or printed), or checked without errors.
    Ok,
    /// Could not be read or converted, had errors, or could not be written.
    Failed,
    /// `fmt`: already canonical, left alone.
    Unchanged,
    /// `fmt --in-place`: rewritten.
    Reformatted,
    /// `fmt --check`: not canonical.
    NotCanonical,
}

/// Time spent on one input.
#[derive(Debug, Clone, Copy, Default, Serialize)]
struct Timings {
    read_ms: f64,
    convert_ms: f64,
    write_ms: f64,
}

/// One input's result, from a worker to the printer.
#[derive(Debug)]
struct Record {
    path: String,
    outcome: Outcome,
    dest: Dest,
    /// Why the input failed as a whole (not a diagnostic).
    error: Option<String>,
    converted: Converted,
    bytes: u64,
    timings: Timings,
    /// What goes to standard error, rendered on the worker (diagnostics with
    /// their source lines are the costly part of printing).
    stderr: String,
}

/// The JSON object printed per input with `--json`.
#[derive(Serialize)]
struct JsonRecord<'a> {
    path: &'a str,
    result: Outcome,
    output_path: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    output: Option<Cow<'a, str>>,
    encoding: Option<&'static str>,
    diagnostics: &'a [Diag],
    error: Option<&'a str>,
    bytes: u64,
    timings: Timings,
    /// `--main-content`: what was kept and dropped.
    #[serde(skip_serializing_if = "Option::is_none")]
    main_content: Option<convert::MainContentJson>,
}

/// Counts for the summary line and the exit code.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Summary {
    /// Inputs seen, failed ones included.
    pub(crate) files: u64,
    /// Inputs that failed.
    pub(crate) failed: u64,
    /// Bytes read.
    pub(crate) bytes: u64,
    /// Warnings reported.
    pub(crate) warnings: u64,
    /// Errors reported (error diagnostics and failed inputs).
    pub(crate) errors: u64,
    /// `fmt`: inputs that are not canonical (listed or rewritten).
    pub(crate) not_canonical: u64,
    /// Wall-clock time of the run.
    pub(crate) elapsed: Duration,
    /// Worker threads that had an input to convert: the pool's size, or
    /// fewer when there were fewer inputs.
    pub(crate) workers: usize,
    /// `--main-content`: the pages converted with it, and the parts
    /// dropped from them as boilerplate.
    pub(crate) main_content: Option<(u64, u64)>,
}

impl Summary {
    /// Whether the run succeeded (exit status 0).
    pub(crate) fn success(&self, fmt: Option<FmtMode>) -> bool {
        self.failed == 0 && !(fmt == Some(FmtMode::Check) && self.not_canonical > 0)
    }

    fn line(&self, fmt: Option<FmtMode>) -> String {
        let secs = self.elapsed.as_secs_f64();
        let rate = if secs > 0.0 {
            self.bytes as f64 / 1e6 / secs
        } else {
            0.0
        };
        let mut line = format!(
            "pagetext: {} ({} failed), {} in {secs:.2} s ({rate:.1} MB/s, {}), {}, {}",
            count(self.files, "file"),
            self.failed,
            human_bytes(self.bytes),
            page_rates(self.files, self.elapsed, self.workers),
            count(self.warnings, "warning"),
            count(self.errors, "error"),
        );
        if let Some((pages, dropped)) = self.main_content {
            line.push_str(&format!(
                ", main content: {} dropped from {}",
                count(dropped, "boilerplate part"),
                count(pages, "page"),
            ));
        }
        match fmt {
            Some(FmtMode::Check) => {
                line.push_str(&format!(", {} not canonical", self.not_canonical))
            }
            Some(FmtMode::InPlace) => {
                line.push_str(&format!(", {} reformatted", self.not_canonical))
            }
            _ => {}
        }
        line
    }
}

/// The counts of a crawl over one WARC file (`to-text --warc`), for its
/// summary line.
#[derive(Debug, Default)]
pub(crate) struct CrawlSummary {
    /// Records read (whatever became of them): none means the input is no
    /// WARC file.
    pub(crate) records: u64,
    /// Pages written as JSON lines.
    pub(crate) pages: u64,
    /// Records skipped, by why (their type, `not HTTP`, `not HTML`).
    pub(crate) skipped: BTreeMap<String, u64>,
    /// Records that could not be read.
    pub(crate) unreadable: u64,
    /// `--main-content`: the parts dropped as boilerplate from all pages.
    pub(crate) dropped: Option<u64>,
}

impl CrawlSummary {
    /// The summary line of the WARC file `name`, read in `elapsed` by a pool
    /// of `pool` workers.
    pub(crate) fn line(&self, name: &str, elapsed: Duration, pool: usize) -> String {
        let seconds = elapsed.as_secs_f64();
        let skipped: u64 = self.skipped.values().sum();
        // Every record, skipped or not, went to a worker.
        let records = self.pages + skipped + self.unreadable;
        let workers = pool.min(usize::try_from(records).unwrap_or(usize::MAX));
        let kinds: Vec<String> = self
            .skipped
            .iter()
            .map(|(why, n)| format!("{n} {why}"))
            .collect();
        let main = self.dropped.map_or(String::new(), |dropped| {
            format!(
                ", main content: {} dropped",
                count(dropped, "boilerplate part")
            )
        });
        format!(
            "pagetext: {name}: {} as JSON lines, {} skipped{}, {} unreadable{main}, in {seconds:.2} s ({})",
            count(self.pages, "page"),
            count(skipped, "record"),
            if kinds.is_empty() {
                String::new()
            } else {
                format!(" ({})", kinds.join(", "))
            },
            self.unreadable,
            page_rates(self.pages, elapsed, workers),
        )
    }
}

/// `412 pages/s, 206 pages/s per core on 2 workers`: pages per second of
/// wall-clock time, and that divided by the workers used (a worker is a
/// thread that had a page to convert: `min(-j, inputs)`). On a machine with
/// a core per worker, the second figure is what one core does.
fn page_rates(pages: u64, elapsed: Duration, workers: usize) -> String {
    let seconds = elapsed.as_secs_f64();
    let rate = if seconds > 0.0 {
        pages as f64 / seconds
    } else {
        0.0
    };
    let workers = workers.max(1);
    format!(
        "{rate:.0} pages/s, {:.0} pages/s per core on {}",
        rate / workers as f64,
        count(workers as u64, "worker"),
    )
}

fn count(n: u64, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

fn human_bytes(n: u64) -> String {
    match n {
        0..1_000 => format!("{n} B"),
        1_000..1_000_000 => format!("{:.1} kB", n as f64 / 1e3),
        1_000_000..1_000_000_000 => format!("{:.1} MB", n as f64 / 1e6),
        _ => format!("{:.1} GB", n as f64 / 1e9),
    }
}

/// Runs `job` over the walk items with their planned destinations.
/// Returns `Err` only when printing fails (a closed standard output is
/// `ErrorKind::BrokenPipe`, which the caller turns into a quiet exit; other
/// write errors carry a [`crate::stdout::StdoutFailed`]).
pub(crate) fn run(
    items: Vec<Item>,
    plan: Plan,
    job: &Job,
    options: Options,
) -> io::Result<Summary> {
    let started = Instant::now();
    let total = items.len();
    // The inputs' sizes, as the file system gives them (standard input's
    // is not known): the progress counts bytes.
    let size = |item: &Item| match item {
        Ok(input) => match &input.source {
            Source::File(path) => fs::metadata(path).map_or(0, |m| m.len()),
            Source::Stdin => 0,
        },
        Err(_) => 0,
    };
    let total_bytes: u64 = items.iter().map(size).sum();
    let work: Vec<(Item, Result<Dest, String>)> = items.into_iter().zip(plan).collect();
    let bar = match progress_of(total, total_bytes) {
        Some(progress) => progress_bar(progress, options.display),
        None => ProgressBar::hidden(),
    };
    if total == 1 && !bar.is_hidden() {
        let name = work
            .first()
            .and_then(|(item, _)| item.as_ref().ok())
            .map(Input::display);
        bar.set_message(format!(
            "converting {} ({})",
            name.unwrap_or_default(),
            human_bytes(total_bytes)
        ));
        bar.enable_steady_tick(Duration::from_millis(120));
    }
    let mut done = 0usize;
    let cancelled = AtomicBool::new(false);
    // Standard input is read by one worker at most; the lock documents it.
    let stdin_lock = Mutex::new(());
    // Output directories already made in this run (a thousand files in one
    // folder need one `mkdir`, not a thousand).
    let made_dirs = Mutex::new(HashSet::new());

    // `-j N`, or one worker per core (rayon's default: the CPUs this
    // process may use, or RAYON_NUM_THREADS).
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(jobs) = options.jobs {
        pool = pool.num_threads(usize::from(jobs));
    }
    let pool = pool.build().map_err(io::Error::other)?;

    let mut summary = Summary {
        workers: pool.current_num_threads().min(total),
        ..Summary::default()
    };
    let mut printer = Printer {
        options,
        bar: &bar,
        stdout: crate::stdout::lock(),
    };
    let (tx, rx) = mpsc::channel::<(usize, Record)>();
    let printed = std::thread::scope(|scope| -> io::Result<()> {
        let work = &work;
        let cancelled = &cancelled;
        let stdin_lock = &stdin_lock;
        let made_dirs = &made_dirs;
        scope.spawn(move || {
            pool.install(|| {
                work.iter().enumerate().par_bridge().for_each_with(
                    tx,
                    |tx, (index, (item, dest))| {
                        if cancelled.load(Ordering::Relaxed) {
                            return;
                        }
                        let mut record = process(item, dest, job, options, (stdin_lock, made_dirs));
                        record.stderr = stderr_text(&record, options);
                        // The source was kept for the diagnostics only.
                        record.converted.source = None;
                        // The printer may have stopped (closed stdout): fine.
                        let _ = tx.send((index, record));
                    },
                );
            });
        });
        // Print in input order: hold back records that arrive early.
        let mut pending = BTreeMap::new();
        let mut next = 0;
        let mut result = Ok(());
        for (index, record) in Gathered::new(&rx, total) {
            if result.is_err() {
                continue;
            }
            pending.insert(index, record);
            while let Some(record) = pending.remove(&next) {
                next += 1;
                done += 1;
                bar.inc(record.bytes);
                if total > 1 {
                    bar.set_message(format!("{done}/{total} files"));
                }
                tally(&mut summary, &record);
                if let Err(e) = printer.print(&record) {
                    cancelled.store(true, Ordering::Relaxed);
                    result = Err(e);
                    break;
                }
            }
        }
        result
    });
    bar.finish_and_clear();
    printed?;
    printer.stdout.flush()?;
    summary.elapsed = started.elapsed();
    // One input says what went wrong in its own diagnostics, and nothing
    // when all went well (as pandoc does); the tally is for batches, or
    // asked for with -v.
    if options.kind == RunKind::Batch && (total > 1 || options.display.verbose) {
        say_summary(&summary.line(options.fmt), options.display);
    }
    Ok(summary)
}

/// How long the printer lets records gather before it waits for the next
/// one, while more are due: a worker whose record finds the printer asleep
/// on the channel must wake it (a futex call and a context switch per
/// record); a printer that looks every few milliseconds is rarely asleep.
const GATHER: Duration = Duration::from_millis(2);

/// The records of a run as they arrive, pausing [`GATHER`] whenever none is
/// waiting and more are due (never after the last, so a run ends as soon
/// as its last record is printed).
struct Gathered<'a, T> {
    rx: &'a mpsc::Receiver<T>,
    /// Records still due.
    due: usize,
    /// Whether one has arrived (the first is waited for at once).
    started: bool,
}

impl<'a, T> Gathered<'a, T> {
    fn new(rx: &'a mpsc::Receiver<T>, due: usize) -> Self {
        Gathered {
            rx,
            due,
            started: false,
        }
    }
}

impl<T> Iterator for Gathered<'_, T> {
    type Item = T;

    fn next(&mut self) -> Option<T> {
        let item = match self.rx.try_recv() {
            Ok(item) => item,
            Err(mpsc::TryRecvError::Disconnected) => return None,
            Err(mpsc::TryRecvError::Empty) => {
                if self.started && self.due > 0 {
                    std::thread::sleep(GATHER);
                }
                self.rx.recv().ok()?
            }
        };
        self.started = true;
        self.due = self.due.saturating_sub(1);
        Some(item)
    }
}

/// Standard error's part of a record: the diagnostics shown at this
/// verbosity (without `-v`, the first few of each kind and a count of the
/// rest), the failure, and with `-v` what was written.
fn stderr_text(record: &Record, options: Options) -> String {
    let display = options.display;
    let mut err = String::new();
    if options.json {
        return err;
    }
    let shown: Vec<&Diag> = record
        .converted
        .diagnostics
        .iter()
        .filter(|d| match d.severity {
            Severity::Error => true,
            Severity::Warning => !display.quiet,
            Severity::Note => display.verbose,
        })
        .collect();
    // The line index of the source, only when a diagnostic will quote it.
    let lines = if shown.is_empty() {
        None
    } else {
        record.converted.source.as_deref().map(diag::Lines::new)
    };
    // Without -v, the first few of each kind in full and a count of the rest.
    err.push_str(&diag::render_all(
        &record.path,
        &shown,
        lines.as_ref(),
        display.color,
        display.verbose,
    ));
    if let Some(error) = &record.error {
        err.push_str(&crate::message(
            display.color,
            &format!("{}: {error}", record.path),
        ));
    }
    if display.verbose
        && record.error.is_none()
        && let Some(line) = verbose_line(record)
    {
        err.push_str(&format!("pagetext: {}: {line}\n", record.path));
    }
    err
}

/// What a progress bar counts.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Progress {
    /// The inputs of a run, by their bytes (so that its ETA is one of
    /// bytes, not of files: one big page among small ones is not one file
    /// of many), with how many files there are.
    Inputs {
        /// How many inputs.
        files: usize,
        /// Their sizes, added up (what the file system says before reading).
        bytes: u64,
    },
    /// The bytes of one input, of which there are this many when known.
    Bytes(Option<u64>),
}

/// How big one input must be for a run of it alone to show that it is
/// working (a spinner, its size and the time): a 50 MB page takes seconds.
const BIG_INPUT: u64 = 4_000_000;

/// The progress a run of `files` inputs of `bytes` in all shows: none for
/// one small input; a spinner for one big input; a bar of bytes for several.
fn progress_of(files: usize, bytes: u64) -> Option<Progress> {
    match files {
        0 => None,
        1 if bytes < BIG_INPUT => None,
        _ => Some(Progress::Inputs { files, bytes }),
    }
}

/// A progress bar on standard error: hidden when quiet, when standard error
/// is not a terminal, and for a run of one file.
pub(crate) fn progress_bar(progress: Progress, display: Display) -> ProgressBar {
    let (length, template) = match progress {
        Progress::Inputs { files: 1, .. } => (None, "{spinner} {msg}, {elapsed}"),
        Progress::Inputs { bytes, .. } => (
            Some(bytes),
            "{bar:40} {bytes}/{total_bytes} ({msg}), {elapsed} (eta {eta})",
        ),
        Progress::Bytes(Some(size)) => (
            Some(size),
            "{bar:40} {bytes}/{total_bytes}, {msg}, {elapsed} (eta {eta})",
        ),
        Progress::Bytes(None) => (None, "{spinner} {bytes}, {msg}, {elapsed}"),
    };
    if display.quiet || !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(length, ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style);
    }
    bar
}

/// Prints a summary line on standard error, unless the run is quiet.
pub(crate) fn say_summary(line: &str, display: Display) {
    if !display.quiet {
        crate::say(&format!("{line}\n"));
    }
}

fn tally(summary: &mut Summary, record: &Record) {
    summary.files += 1;
    summary.bytes += record.bytes;
    if record.outcome == Outcome::Failed {
        summary.failed += 1;
    }
    if matches!(record.outcome, Outcome::NotCanonical | Outcome::Reformatted) {
        summary.not_canonical += 1;
    }
    if record.error.is_some() {
        summary.errors += 1;
    }
    if let Some(main) = &record.converted.main_content {
        let (pages, dropped) = summary.main_content.get_or_insert((0, 0));
        *pages += 1;
        *dropped += main.dropped_count() as u64;
    }
    for d in &record.converted.diagnostics {
        match d.severity {
            Severity::Error => summary.errors += 1,
            Severity::Warning => summary.warnings += 1,
            Severity::Note => {}
        }
    }
}

/// Reads, converts and writes one input (on a worker thread).
fn process(
    item: &Item,
    dest: &Result<Dest, String>,
    job: &Job,
    options: Options,
    (stdin_lock, made_dirs): (&Mutex<()>, &Mutex<HashSet<PathBuf>>),
) -> Record {
    let mut record = Record {
        path: String::new(),
        outcome: Outcome::Failed,
        dest: Dest::Nothing,
        error: None,
        converted: Converted::default(),
        bytes: 0,
        timings: Timings::default(),
        stderr: String::new(),
    };
    let input = match item {
        Ok(input) => input,
        Err(e) => {
            record.path = e.path.clone();
            record.error = Some(e.message.clone());
            return record;
        }
    };
    record.path = input.display();
    let dest = match dest {
        Ok(dest) => dest.clone(),
        Err(e) => {
            record.error = Some(e.clone());
            return record;
        }
    };

    let clock = Instant::now();
    let bytes = match read(&input.source, stdin_lock) {
        Ok(bytes) => bytes,
        Err(e) => {
            record.error = Some(format!("cannot read: {}", describe_io_error(&e)));
            return record;
        }
    };
    record.bytes = bytes.len() as u64;
    record.timings.read_ms = ms(clock.elapsed());

    let clock = Instant::now();
    let converted = convert::run(job, &record.path, input.below_dir.as_deref(), &bytes);
    record.timings.convert_ms = ms(clock.elapsed());
    let mut converted = match converted {
        Ok(c) => c,
        Err(e) => {
            record.error = Some(e);
            return record;
        }
    };
    // `--in-place` replaces the only copy: a reported loss stops it as under
    // --strict, so that no rewrite ever drops text with only a warning.
    if options.strict || options.fmt == Some(FmtMode::InPlace) {
        for d in &mut converted.diagnostics {
            if d.severity == Severity::Warning {
                d.severity = Severity::Error;
            }
        }
    }
    let has_errors = converted
        .diagnostics
        .iter()
        .any(|d| d.severity == Severity::Error);
    record.outcome = if has_errors {
        Outcome::Failed
    } else {
        Outcome::Ok
    };
    if has_errors && options.fmt == Some(FmtMode::InPlace) && converted.changed == Some(true) {
        record.error = Some(
            "left as it was: rewriting it would lose what is reported above \
             (fix that, or write the canonical text elsewhere with -o)"
                .to_string(),
        );
    }
    if let Some(FmtMode::Check | FmtMode::InPlace) = options.fmt
        && !has_errors
    {
        record.outcome = match (converted.changed, options.fmt) {
            (Some(true), Some(FmtMode::Check)) => Outcome::NotCanonical,
            (Some(true), _) => Outcome::Reformatted,
            _ => Outcome::Unchanged,
        };
    }

    let clock = Instant::now();
    if !has_errors {
        let write_to = match &dest {
            Dest::File(path) | Dest::Mirror(path) => Some(path),
            Dest::InPlace(path) if record.outcome == Outcome::Reformatted => Some(path),
            _ => None,
        };
        if let (Some(path), Some(output)) = (write_to, &converted.output) {
            let mkdir = match (&dest, path.parent()) {
                (Dest::Mirror(_), Some(parent)) if !parent.as_os_str().is_empty() => {
                    make_dir(parent, made_dirs)
                }
                _ => Ok(()),
            };
            if let Err(e) = mkdir.and_then(|()| write_atomic(path, output)) {
                record.outcome = Outcome::Failed;
                record.error = Some(match dest {
                    Dest::InPlace(_) => format!(
                        "cannot rewrite it (left as it was): {}",
                        describe_io_error(&e)
                    ),
                    _ => format!("cannot write {}: {}", path.display(), describe_io_error(&e)),
                });
            }
        }
    }
    record.timings.write_ms = ms(clock.elapsed());
    record.dest = dest;
    record.converted = converted;
    record
}

/// `fs::create_dir_all(dir)`, once per directory and run.
fn make_dir(dir: &Path, made: &Mutex<HashSet<PathBuf>>) -> io::Result<()> {
    if made.lock().is_ok_and(|m| m.contains(dir)) {
        return Ok(());
    }
    fs::create_dir_all(dir)?;
    if let Ok(mut m) = made.lock() {
        m.insert(dir.to_path_buf());
    }
    Ok(())
}

fn read(source: &Source, stdin_lock: &Mutex<()>) -> io::Result<Vec<u8>> {
    match source {
        Source::File(path) => fs::read(path),
        Source::Stdin => {
            let _guard = stdin_lock
                .lock()
                .map_err(|_| io::Error::other("stdin lock poisoned"))?;
            let mut bytes = Vec::new();
            io::stdin().lock().read_to_end(&mut bytes)?;
            Ok(bytes)
        }
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// The main thread's half: prints records in order.
struct Printer<'a> {
    options: Options,
    bar: &'a ProgressBar,
    stdout: crate::stdout::Stdout,
}

impl Printer<'_> {
    fn print(&mut self, record: &Record) -> io::Result<()> {
        // Standard error first: diagnostics and failures.
        let err = &record.stderr;
        if !err.is_empty() {
            self.bar.suspend(|| {
                let mut stderr = io::stderr().lock();
                // Nothing sensible to do if standard error is gone.
                let _ = stderr.write_all(err.as_bytes());
            });
        }

        // Then standard output.
        if self.options.json {
            if self.options.kind == RunKind::Batch {
                return self.print_json(record);
            }
            let line = match &record.converted.sniff {
                Some(report) => json_line(&SniffJson {
                    path: &record.path,
                    report,
                }),
                None => json_line(&SniffFailure {
                    path: &record.path,
                    error: record.error.as_deref().unwrap_or("not sniffed"),
                }),
            };
            return writeln!(self.stdout, "{}", line.map_err(io::Error::other)?);
        }
        if let Some(report) = &record.converted.sniff {
            return match &report.note {
                Some(note) => writeln!(
                    self.stdout,
                    "{}: {} (note: {note})",
                    record.path, report.settled
                ),
                None => writeln!(self.stdout, "{}: {}", record.path, report.settled),
            };
        }
        if record.outcome == Outcome::NotCanonical {
            return writeln!(self.stdout, "{}", record.path);
        }
        if record.dest == Dest::Stdout
            && record.outcome != Outcome::Failed
            && let Some(output) = &record.converted.output
        {
            self.stdout.write_all(output)?;
            self.stdout.flush()?;
        }
        Ok(())
    }

    fn print_json(&mut self, record: &Record) -> io::Result<()> {
        let output_path = match &record.dest {
            Dest::File(p) | Dest::Mirror(p) | Dest::InPlace(p) => Some(p.display().to_string()),
            Dest::Stdout | Dest::Nothing => None,
        };
        let output = match (&record.dest, &record.converted.output, record.outcome) {
            (Dest::Stdout, Some(bytes), outcome) if outcome != Outcome::Failed => {
                Some(match record.converted.output_encoding {
                    Some(encoding) => encoding.decode_without_bom_handling(bytes).0,
                    None => String::from_utf8_lossy(bytes),
                })
            }
            _ => None,
        };
        let json = JsonRecord {
            path: &record.path,
            result: record.outcome,
            output_path: if record.outcome == Outcome::Failed {
                None
            } else {
                output_path
            },
            output,
            encoding: record.converted.encoding.map(|e| e.name()),
            diagnostics: &record.converted.diagnostics,
            error: record.error.as_deref(),
            bytes: record.bytes,
            timings: record.timings,
            main_content: record
                .converted
                .main_content
                .as_ref()
                .map(convert::MainContentJson::from),
        };
        let line = json_line(&json).map_err(io::Error::other)?;
        writeln!(self.stdout, "{line}")
    }
}

/// `value` as one line of JSON lines (every `--json` output: batches,
/// `sniff`, `micro`, `check --links`, `--warc`), with U+2028 and U+2029 written as
/// `\u2028` and `\u2029`: JSON allows them raw in strings, but many readers
/// of JSON lines (and JavaScript before ES2019) take them for line ends.
pub(crate) fn json_line(value: &impl Serialize) -> serde_json::Result<String> {
    let line = serde_json::to_string(value)?;
    Ok(if line.contains(['\u{2028}', '\u{2029}']) {
        line.replace('\u{2028}', "\\u2028")
            .replace('\u{2029}', "\\u2029")
    } else {
        line
    })
}

/// `sniff --json`: `{"path", "encoding", "confidence", "source"}`, and a
/// `"note"` when the bytes look like binary data.
#[derive(Serialize)]
struct SniffJson<'a> {
    path: &'a str,
    #[serde(flatten)]
    report: &'a convert::SniffReport,
}

/// `sniff --json` for a file that could not be sniffed.
#[derive(Serialize)]
struct SniffFailure<'a> {
    path: &'a str,
    error: &'a str,
}

fn verbose_line(record: &Record) -> Option<String> {
    let encoding = record
        .converted
        .encoding
        .map(|e| format!(" (read as {})", e.name()))
        .unwrap_or_default();
    match (&record.dest, record.outcome) {
        (_, Outcome::Failed) => None,
        (Dest::File(p) | Dest::Mirror(p), _) => Some(format!("wrote {}{encoding}", p.display())),
        (Dest::InPlace(_), Outcome::Reformatted) => Some("reformatted".to_string()),
        (_, Outcome::Unchanged) => Some("already canonical".to_string()),
        (_, Outcome::NotCanonical) => Some("not canonical".to_string()),
        (Dest::Stdout, _) if !encoding.is_empty() => Some(format!("converted{encoding}")),
        (Dest::Nothing, _) => Some(format!("checked{encoding}")),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_line_reads_well() {
        let s = Summary {
            files: 3,
            failed: 1,
            bytes: 12_345,
            warnings: 1,
            errors: 2,
            not_canonical: 0,
            elapsed: Duration::from_millis(500),
            workers: 2,
            main_content: None,
        };
        assert_eq!(
            s.line(None),
            "pagetext: 3 files (1 failed), 12.3 kB in 0.50 s (0.0 MB/s, 6 pages/s, 3 pages/s per core on 2 workers), 1 warning, 2 errors"
        );
        let main = Summary {
            main_content: Some((3, 7)),
            ..s
        };
        assert!(
            main.line(None)
                .ends_with("2 errors, main content: 7 boilerplate parts dropped from 3 pages")
        );
        assert!(!s.success(None));
        let ok = Summary {
            not_canonical: 2,
            ..Summary::default()
        };
        assert!(ok.success(Some(FmtMode::InPlace)));
        assert!(!ok.success(Some(FmtMode::Check)));
        assert!(ok.line(Some(FmtMode::Check)).ends_with(", 2 not canonical"));
    }

    #[test]
    fn crawl_line_counts_the_workers_used() {
        let mut s = CrawlSummary {
            pages: 400,
            ..CrawlSummary::default()
        };
        s.skipped.insert("request".to_owned(), 1);
        assert_eq!(
            s.line("a.warc", Duration::from_secs(2), 2),
            "pagetext: a.warc: 400 pages as JSON lines, 1 record skipped (1 request), \
             0 unreadable, in 2.00 s (200 pages/s, 100 pages/s per core on 2 workers)"
        );
        s.dropped = Some(1);
        assert!(
            s.line("a.warc", Duration::from_secs(2), 2)
                .contains("0 unreadable, main content: 1 boilerplate part dropped, in 2.00 s")
        );
        // One record for a pool of four: one worker did the work.
        let one = CrawlSummary {
            pages: 1,
            ..CrawlSummary::default()
        };
        assert!(
            one.line("b.warc", Duration::from_millis(10), 4)
                .ends_with("(100 pages/s, 100 pages/s per core on 1 worker)")
        );
        // No time at all (a run of nothing): no division by zero.
        assert!(
            CrawlSummary::default()
                .line("c.warc", Duration::ZERO, 2)
                .ends_with("(0 pages/s, 0 pages/s per core on 1 worker)")
        );
    }

    #[test]
    fn progress_counts_bytes_and_shows_a_big_page_alone() {
        // One small input: nothing; one big one: a spinner; several: bytes.
        assert!(progress_of(1, 10_000).is_none());
        assert!(matches!(
            progress_of(1, 50_000_000),
            Some(Progress::Inputs { files: 1, .. })
        ));
        assert!(matches!(
            progress_of(256, 70_000_000),
            Some(Progress::Inputs {
                files: 256,
                bytes: 70_000_000
            })
        ));
        assert!(progress_of(0, 0).is_none());
    }

    #[test]
    fn json_lines_escape_the_line_separators() {
        let line = json_line(&serde_json::json!({"text": "a\u{2028}b\u{2029}c"})).unwrap();
        assert_eq!(line, r#"{"text":"a\u2028b\u2029c"}"#);
        let back: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert_eq!(back["text"], "a\u{2028}b\u{2029}c");
    }

    #[test]
    fn byte_counts_are_human() {
        assert_eq!(human_bytes(999), "999 B");
        assert_eq!(human_bytes(1_500), "1.5 kB");
        assert_eq!(human_bytes(31_000_000), "31.0 MB");
        assert_eq!(human_bytes(2_000_000_000), "2.0 GB");
    }
}
