//! `cargo xtask inspect TOOL`: tools for looking closely at conversions
//! while working on ingestion, the writer or emission. They print reports
//! for a person; they fail only when an input cannot be read.
//!
//! - `show FILE`: a page's text, its diagnostics, encoding and summary.
//! - `tree TEXT` (or `tree --file FILE`): the tree `wikitext::parse` makes
//!   of a text, and that tree written back.
//! - `fixpoint FILE [--xhtml OUT]`: where a page's text and the text of its
//!   XHTML differ, line by line and then node by node.
//! - `tally DIR`: the writer's complaints over every page below DIR, by
//!   kind, and the pages whose round trip is not a fixpoint.
//! - `perf FILE...`: times of html5ever's bare parse, of ingestion and of
//!   ingestion plus writing, best of N, in a release build. The benchmarks
//!   proper are `cargo xtask bench`; this is a quick look at given pages.
//!
//! Each report is built by a function that returns it, so that the unit
//! tests below run the tools on pages of `testdata/`.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::Context;
use clap::{Subcommand, ValueEnum};
use html5ever::tendril::TendrilSink;
use htmlio::ingest::{Options, ingest, ingest_str};

use crate::corpus::html_files;

/// The tools of `cargo xtask inspect`.
#[derive(Debug, Subcommand)]
pub(crate) enum Tool {
    /// A page's text (HTML -> text), then the diagnostics of ingestion and
    /// of the writer, the encoding and why, and the ingestion summary.
    Show {
        /// The HTML page.
        file: PathBuf,
    },
    /// The tree `wikitext::parse` makes of a text (the snapshot suites'
    /// dump), then that tree written as canonical text.
    Tree {
        /// The text to parse (a shell's `$'...'` quoting gives newlines).
        #[arg(required_unless_present = "file", conflicts_with = "file")]
        text: Option<String>,
        /// Read the text from this file instead.
        #[arg(long, value_name = "FILE")]
        file: Option<PathBuf>,
    },
    /// Where a page's text and the text of its XHTML differ (HTML -> text
    /// -> XHTML -> text): the first lines that differ and, when the
    /// documents differ too, the first node that does.
    Fixpoint {
        /// The HTML page.
        file: PathBuf,
        /// Also write the XHTML of the page's text to this file.
        #[arg(long, value_name = "OUT")]
        xhtml: Option<PathBuf>,
    },
    /// The writer's warnings and errors over every .html/.htm page below
    /// DIR, by kind with a count and an example, and the pages whose round
    /// trip is not a fixpoint.
    Tally {
        /// The folder of pages.
        dir: PathBuf,
        /// How many non-fixpoint pages of each kind to show.
        #[arg(long, value_name = "N", default_value_t = 10)]
        examples: usize,
    },
    /// Times of html5ever's parse into RcDom, of `ingest` and of `ingest` +
    /// `write` for each page, best of N, with the ratios to html5ever
    /// (re-runs itself in a release build).
    Perf {
        /// The HTML pages.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Runs per measurement; the best counts.
        #[arg(long, value_name = "N", default_value_t = 3)]
        reps: usize,
        /// Run this stage once per page and measure nothing (to read the
        /// peak memory of each with `/usr/bin/time -v`).
        #[arg(long, value_name = "STAGE")]
        only: Option<Stage>,
        /// Leave out html5ever's parse.
        #[arg(long)]
        no_peer: bool,
    },
}

/// A stage of HTML -> text, for `perf --only`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Stage {
    /// html5ever's parse into markup5ever_rcdom.
    Rcdom,
    /// `htmlio::ingest::ingest`.
    Ingest,
    /// `ingest`, then `wikitext::write_with` under `htmlio::ingest::POLICY`.
    Write,
}

/// Runs one tool and prints its report; `Ok(true)` unless the tool could
/// not run.
pub(crate) fn run(tool: Tool) -> anyhow::Result<bool> {
    let report = match tool {
        Tool::Show { file } => show(&read(&file)?),
        Tool::Tree { text, file } => {
            let text = match (text, file) {
                (_, Some(file)) => String::from_utf8_lossy(&read(&file)?).into_owned(),
                (text, None) => text.unwrap_or_default(),
            };
            tree(&text)
        }
        Tool::Fixpoint { file, xhtml } => {
            let trip = RoundTrip::of(&read(&file)?);
            if let Some(out) = xhtml {
                std::fs::write(&out, &trip.xhtml)
                    .with_context(|| format!("writing {}", out.display()))?;
            }
            trip.report()
        }
        Tool::Tally { dir, examples } => tally(&dir, examples)?,
        Tool::Perf {
            files,
            reps,
            only,
            no_peer,
        } => {
            if crate::util::wants_release("PAGETEXT_INSPECT_DEBUG") {
                return crate::util::rerun_in_release();
            }
            perf(&files, reps, only, no_peer)?
        }
    };
    print!("{report}");
    Ok(true)
}

fn read(path: &Path) -> anyhow::Result<Vec<u8>> {
    std::fs::read(path).with_context(|| format!("reading {}", path.display()))
}

/// `show`: the text of a page, the diagnostics, the encoding and the summary.
fn show(bytes: &[u8]) -> String {
    let ingested = ingest(bytes, &Options::default());
    let written = wikitext::write_with(ingested.document.clone(), &htmlio::ingest::POLICY);
    let mut out = format!("----- text\n{}-----\n", written.text);
    for d in &ingested.diagnostics {
        let _ = writeln!(out, "{d}");
    }
    for d in &written.diagnostics {
        let _ = writeln!(out, "write: {d}");
    }
    let _ = writeln!(out, "encoding: {}", ingested.encoding);
    let _ = write!(out, "{}", ingested.summary);
    out
}

/// `tree`: the parsed tree of a text and the text written back.
fn tree(text: &str) -> String {
    let parsed = wikitext::parse(text);
    let written = wikitext::write(&parsed.document);
    format!(
        "{}----- written\n{}-----\n",
        wikitext::dump::tree(&parsed.document),
        written.text
    )
}

/// One page through HTML -> text -> XHTML -> text.
struct RoundTrip {
    /// The page's text (ingest, then write).
    first: String,
    /// The writer's diagnostics for `first`.
    diagnostics: Vec<wikitext::Diagnostic>,
    /// `first` parsed.
    parsed: wikitext::Document,
    /// The XHTML of `parsed`.
    xhtml: Vec<u8>,
    /// The XHTML ingested again.
    again: wikitext::Document,
    /// `again` written.
    second: String,
}

impl RoundTrip {
    fn of(bytes: &[u8]) -> Self {
        let options = Options::default();
        let written =
            wikitext::write_with(ingest(bytes, &options).document, &htmlio::ingest::POLICY);
        let parsed = wikitext::parse(&written.text).document;
        let emitted = htmlio::emit::xhtml(&parsed);
        let again = ingest_str(&emitted.text, &options).document;
        let second = wikitext::write_with(again.clone(), &htmlio::ingest::POLICY).text;
        RoundTrip {
            first: written.text,
            diagnostics: written.diagnostics,
            parsed,
            xhtml: emitted.bytes,
            again,
            second,
        }
    }

    fn is_fixpoint(&self) -> bool {
        self.first == self.second
    }

    /// Whether ingesting the XHTML gave back the parsed document (when it
    /// did and the texts still differ, the writer is what is not stable).
    /// The header's extension flags say how the text is spelled, which
    /// XHTML does not carry: they are left out of the comparison.
    fn model_survives(&self) -> bool {
        let spelling = |m: &wikitext::Metadata| wikitext::Metadata {
            escape: false,
            open: false,
            image: false,
            table: false,
            breaks: false,
            subsup: false,
            ..m.clone()
        };
        self.again.body == self.parsed.body
            && spelling(&self.again.meta) == spelling(&self.parsed.meta)
    }

    /// `fixpoint`'s report: the first differing lines, then the first
    /// differing node of the two trees.
    fn report(&self) -> String {
        if self.is_fixpoint() {
            return "fixpoint: the text of the XHTML is the page's text\n".to_owned();
        }
        let mut out = String::new();
        for (line, a, b) in differing_lines(&self.first, &self.second, 7) {
            let _ = writeln!(out, "line {line}:\n  t1: {a:?}\n  t2: {b:?}");
        }
        if !self.model_survives() {
            out.push_str(&self.tree_difference(4, 8));
        }
        out
    }

    /// The first line where the trees of `parsed` and `again` differ
    /// (positions aside), with `context` lines before it and `shown` in all.
    fn tree_difference(&self, context: usize, shown: usize) -> String {
        let a = wikitext::dump::tree(&self.parsed);
        let b = wikitext::dump::tree(&self.again);
        let (la, lb): (Vec<&str>, Vec<&str>) = (a.lines().collect(), b.lines().collect());
        let without_pos = |l: &str| l.split(" @").next().unwrap_or("").to_owned();
        let Some(i) = (0..la.len().max(lb.len())).find(|&i| {
            without_pos(la.get(i).unwrap_or(&"")) != without_pos(lb.get(i).unwrap_or(&""))
        }) else {
            return String::new();
        };
        let mut out = format!("tree line {}:\n", i + 1);
        for (name, lines) in [("d2", &la), ("d3", &lb)] {
            for l in lines.iter().skip(i.saturating_sub(context)).take(shown) {
                let _ = writeln!(out, "    {name}| {l}");
            }
        }
        out
    }
}

/// The first `max` lines (1-based numbers) where `a` and `b` differ; a
/// line one side lacks reads `<none>`.
fn differing_lines<'a>(a: &'a str, b: &'a str, max: usize) -> Vec<(usize, &'a str, &'a str)> {
    let (la, lb): (Vec<&str>, Vec<&str>) = (a.lines().collect(), b.lines().collect());
    (0..la.len().max(lb.len()))
        .map(|i| {
            let x = la.get(i).copied().unwrap_or("<none>");
            let y = lb.get(i).copied().unwrap_or("<none>");
            (i + 1, x, y)
        })
        .filter(|(_, x, y)| x != y)
        .take(max)
        .collect()
}

/// A diagnostic's kind for the tally: its severity and code, and its
/// message without the quoted parts (which name the page's own text).
fn kind_of(d: &wikitext::Diagnostic) -> String {
    let words: String = d
        .message
        .split(['"', '`'])
        .step_by(2)
        .collect::<Vec<_>>()
        .join("…")
        .chars()
        .take(70)
        .collect();
    format!("{}[{}] {words}", d.severity, d.code)
}

/// `tally`: the writer's warnings and errors over the pages below `dir`,
/// then the round trips that are not fixpoints, with up to `examples` of
/// each kind shown.
fn tally(dir: &Path, examples: usize) -> anyhow::Result<String> {
    let files = html_files(dir);
    if files.is_empty() {
        anyhow::bail!("no .html or .htm files under {}", dir.display());
    }
    let mut kinds: BTreeMap<String, (usize, String)> = BTreeMap::new();
    let (mut not_fixpoints, mut model_lost) = (0, 0);
    let mut shown = String::new();
    for file in &files {
        let trip = RoundTrip::of(&read(file)?);
        let name = file.display();
        for d in trip
            .diagnostics
            .iter()
            .filter(|d| d.severity <= wikitext::Severity::Warning)
        {
            kinds
                .entry(kind_of(d))
                .or_insert_with(|| (0, format!("{name}:{}", d.span.line)))
                .0 += 1;
        }
        if trip.is_fixpoint() {
            continue;
        }
        not_fixpoints += 1;
        if trip.model_survives() {
            // The model came back whole: the writer is not stable.
            if not_fixpoints - model_lost <= examples
                && let Some((line, a, b)) = differing_lines(&trip.first, &trip.second, 1).pop()
            {
                let _ = writeln!(
                    shown,
                    "writer: {name} line {line}\n    t1| {a}\n    t2| {b}"
                );
            }
        } else {
            model_lost += 1;
            if model_lost <= examples {
                let _ = write!(shown, "model: {name} {}", trip.tree_difference(5, 8));
            }
        }
    }
    let mut rows: Vec<_> = kinds.into_iter().collect();
    rows.sort_by_key(|(_, (n, _))| std::cmp::Reverse(*n));
    let mut out = shown;
    for (kind, (n, example)) in rows.iter().take(40) {
        let _ = writeln!(out, "{n:6} {kind}\n         e.g. {example}");
    }
    let _ = writeln!(
        out,
        "pages: {}, not fixpoints: {not_fixpoints}, of which ingest(emit(d2)) != d2: {model_lost}",
        files.len()
    );
    Ok(out)
}

/// The shortest of `reps` runs of `f`.
fn best_of(reps: usize, mut f: impl FnMut()) -> Duration {
    let mut best = Duration::MAX;
    for _ in 0..reps.max(1) {
        let start = Instant::now();
        f();
        best = best.min(start.elapsed());
    }
    best
}

/// Runs one stage of HTML -> text on a page.
fn run_stage(stage: Stage, bytes: &[u8]) {
    match stage {
        Stage::Rcdom => {
            let text = String::from_utf8_lossy(bytes);
            let dom =
                html5ever::parse_document(markup5ever_rcdom::RcDom::default(), Default::default())
                    .one(text.as_ref());
            std::hint::black_box(dom);
        }
        Stage::Ingest => {
            std::hint::black_box(ingest(bytes, &Options::default()));
        }
        Stage::Write => {
            let ingested = ingest(bytes, &Options::default());
            std::hint::black_box(wikitext::write_with(
                ingested.document,
                &htmlio::ingest::POLICY,
            ));
        }
    }
}

/// `perf`: one line of times and ratios per page, or with `only` one run
/// of that stage per page and no report.
fn perf(
    files: &[PathBuf],
    reps: usize,
    only: Option<Stage>,
    no_peer: bool,
) -> anyhow::Result<String> {
    let mut out = String::new();
    for file in files {
        let bytes = read(file)?;
        if let Some(stage) = only {
            run_stage(stage, &bytes);
            continue;
        }
        let rcdom = (!no_peer).then(|| best_of(reps, || run_stage(Stage::Rcdom, &bytes)));
        let ingest = best_of(reps, || run_stage(Stage::Ingest, &bytes));
        let write = best_of(reps, || run_stage(Stage::Write, &bytes));
        let mb = bytes.len() as f64 / 1e6;
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        let _ = write!(out, "{}: {mb:.2} MB", file.display());
        match rcdom {
            Some(peer) => {
                let ratio = |d: Duration| d.as_secs_f64() / peer.as_secs_f64();
                let _ = writeln!(
                    out,
                    "  rcdom {:.1} ms ({:.1} MB/s)  ingest {:.1} ms (x{:.2})  ingest+write {:.1} ms (x{:.2})",
                    ms(peer),
                    mb / peer.as_secs_f64(),
                    ms(ingest),
                    ratio(ingest),
                    ms(write),
                    ratio(write),
                );
            }
            None => {
                let _ = writeln!(
                    out,
                    "  ingest {:.1} ms  ingest+write {:.1} ms",
                    ms(ingest),
                    ms(write)
                );
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn testdata(path: &str) -> PathBuf {
        crate::util::root().join("testdata").join(path)
    }

    fn page(path: &str) -> Vec<u8> {
        std::fs::read(testdata(path)).unwrap_or_default()
    }

    #[test]
    fn show_gives_the_text_the_encoding_and_the_summary() {
        let report = show(&page("cli/demo/chorale.html"));
        assert!(report.starts_with("----- text\n#Title "), "{report}");
        assert!(report.contains("encoding: windows-1252"), "{report}");
    }

    #[test]
    fn tree_dumps_the_parse_and_writes_it_back() {
        let report = tree("#Title A page\n\nSome _words_.\n");
        assert!(report.contains("emphasis"), "{report}");
        assert!(
            report.ends_with("----- written\n#Title A page\n\nSome _words_.\n-----\n"),
            "{report}"
        );
    }

    #[test]
    fn the_demo_page_is_a_fixpoint() {
        let trip = RoundTrip::of(&page("cli/demo/chorale.html"));
        assert!(trip.is_fixpoint(), "{}", trip.report());
        assert!(trip.model_survives());
        assert!(trip.report().starts_with("fixpoint"));
        assert!(String::from_utf8_lossy(&trip.xhtml).contains("<html xmlns="));
    }

    #[test]
    fn differing_lines_are_numbered_and_missing_lines_named() {
        assert_eq!(
            differing_lines("a\nb\nc\n", "a\nx\n", 5),
            vec![(2, "b", "x"), (3, "c", "<none>")]
        );
        assert_eq!(differing_lines("a\nb\n", "x\ny\n", 1), vec![(1, "a", "x")]);
        assert!(differing_lines("same\n", "same\n", 5).is_empty());
    }

    #[test]
    fn a_tally_counts_pages_and_fails_on_an_empty_folder() {
        let report = tally(&testdata("cli/site"), 0).unwrap_or_else(|e| format!("{e:#}"));
        let pages = html_files(&testdata("cli/site")).len();
        assert!(
            report.contains(&format!("pages: {pages}, not fixpoints: 0,")),
            "{report}"
        );
        let empty = std::env::temp_dir().join(format!("xtask-tally-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&empty);
        assert!(tally(&empty, 0).is_err());
        let _ = std::fs::remove_dir(&empty);
    }

    #[test]
    fn perf_reports_each_page_and_runs_each_stage() {
        let file = testdata("cli/demo/chorale.html");
        let report = perf(std::slice::from_ref(&file), 1, None, false).unwrap_or_default();
        assert!(
            report.contains("rcdom ") && report.contains("(x"),
            "{report}"
        );
        let quiet = perf(std::slice::from_ref(&file), 1, Some(Stage::Write), false);
        assert_eq!(quiet.ok(), Some(String::new()));
    }
}
