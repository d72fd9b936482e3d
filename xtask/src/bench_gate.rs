//! `cargo xtask bench-gate`: instruction counts of pagetext's two
//! directions and of its peers on a fixed set of pages, against a committed
//! baseline. CI runs it; it fails when a pagetext path takes more than
//! [`THRESHOLD`] percent more instructions than the baseline says.
//!
//! 1. Builds `run-pipeline` (the bench crate's binary that runs one pipeline
//!    over files) with the `bench` profile. That profile has the release
//!    profile's settings, so cargo shares `target/release` and its
//!    dependencies with any release build made before.
//! 2. Runs it once per counted path under `valgrind --tool=callgrind
//!    --toggle-collect=FUNCTION`, on every page of `testdata/bench/pages/`:
//!    only the instructions inside the path's function are counted, not
//!    start-up, reading files or the steps that make the function's input
//!    (pagetext's own text of the pages for text -> XHTML, htmd's Markdown
//!    for pulldown-cmark).
//! 3. Prints a Markdown table: each path's count, the baseline's, the
//!    change, and pagetext's ratio to its peers; then the notes and the
//!    failures.
//!
//! `--update` writes this run's counts, the date and the tools' versions to
//! the baseline file (`testdata/bench/instructions.json`) instead of
//! judging them. The callgrind files stay under `<target>/bench-gate/` for
//! `callgrind_annotate`.
//!
//! Counts are not exactly the same from run to run. pagetext's HTML ->
//! text and htmd use std's randomly seeded hash maps; the order in which a
//! map of strings frees them follows the seed, and so do the heap's layout
//! and all that depends on addresses (malloc's bins, memchr's alignment, the
//! writer's memo keyed by address). Over 20 runs HTML -> text moved by
//! 0.26 % (largest less smallest, over the mean) and htmd by 0.21 %;
//! text -> XHTML by 0.002 %; the others not at all. That is why a path that
//! runs on another's output runs in a process of its own ([`Input`]), and
//! why file names are passed relative to the workspace root
//! ([`from_root`]).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use anyhow::{Context, bail};
use serde_json::{Value, json};

use crate::util::{cargo, root, run_checked, target_dir};

/// How much more (percent) a pagetext path may count than its baseline.
pub(crate) const THRESHOLD: f64 = 5.0;

/// A peer's change (percent, either way) worth a note; below it is the
/// run-to-run spread.
const PEER_NOTE: f64 = 1.0;

/// The baseline file, from the workspace root.
const BASELINE: &str = "testdata/bench/instructions.json";

/// The pages, from the workspace root.
const PAGES: &str = "testdata/bench/pages";

/// The peer crates whose versions the baseline records (from Cargo.lock;
/// htmd has its own html5ever, older than pagetext's).
const PEER_CRATES: &[&str] = &[
    "html5ever",
    "markup5ever_rcdom",
    "htmd",
    "fast_html2md",
    "lol_html",
    "pulldown-cmark",
];

/// One counted path: a `run-pipeline` mode and the function whose
/// instructions count.
#[derive(Debug)]
struct Counted {
    /// Its key in the baseline file.
    key: &'static str,
    /// Its name in the table.
    label: &'static str,
    /// The `run-pipeline` mode that runs it.
    mode: &'static str,
    /// The function callgrind counts (`--toggle-collect`).
    function: &'static str,
    /// Whether it is pagetext's (gated) or a peer's (noted).
    ours: bool,
    /// For pagetext's paths, the keys of the peers it is compared with.
    peers: &'static [&'static str],
    /// What it runs on.
    input: Input,
}

/// What a counted path runs on.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Input {
    /// The pages.
    Pages,
    /// The outputs of the path of this key, made in the same gate run
    /// (`run-pipeline --save`): pagetext's text of the pages for text ->
    /// XHTML, htmd's Markdown for pulldown-cmark. Each is made in a process
    /// of its own, so that the heap the counted path starts from is a fresh
    /// one (after another conversion, the heap's layout varies with that
    /// conversion's hash seeds, and the count with it by up to 1 %).
    OutputOf(&'static str),
}

/// The paths, pagetext's first.
const PATHS: &[Counted] = &[
    Counted {
        key: "html_to_text",
        label: "pagetext HTML -> text",
        mode: "html-to-text",
        function: "pagetext_bench::html_to_text",
        ours: true,
        peers: &["html5ever_rcdom", "htmd", "fast_html2md"],
        input: Input::Pages,
    },
    Counted {
        key: "text_to_xhtml",
        label: "pagetext text -> XHTML",
        mode: "text-to-xhtml",
        function: "pagetext_bench::text_to_xhtml",
        ours: true,
        peers: &["pulldown_cmark"],
        input: Input::OutputOf("html_to_text"),
    },
    Counted {
        key: "html5ever_rcdom",
        label: "html5ever RcDom parse",
        mode: "rcdom",
        function: "pagetext_bench::rcdom_parse",
        ours: false,
        peers: &[],
        input: Input::Pages,
    },
    Counted {
        key: "htmd",
        label: "htmd HTML -> Markdown",
        mode: "htmd",
        function: "pagetext_bench::htmd_convert",
        ours: false,
        peers: &[],
        input: Input::Pages,
    },
    Counted {
        key: "fast_html2md",
        label: "fast_html2md HTML -> Markdown",
        mode: "fast-html2md",
        function: "pagetext_bench::fast_html2md_convert",
        ours: false,
        peers: &[],
        input: Input::Pages,
    },
    Counted {
        key: "pulldown_cmark",
        label: "pulldown-cmark on htmd's Markdown",
        mode: "markdown-to-html",
        function: "pagetext_bench::markdown_to_html",
        ours: false,
        peers: &[],
        input: Input::OutputOf("htmd"),
    },
];

/// What one run measured, and with what: the baseline file's contents.
#[derive(Debug, Clone, PartialEq)]
struct Measured {
    /// The day of the run, `YYYY-MM-DD` (UTC).
    date: String,
    /// `rustc --version`, `valgrind --version` and the peers' versions.
    tools: BTreeMap<String, String>,
    /// How many pages, and their bytes.
    files: usize,
    bytes: u64,
    /// Instructions per path key.
    counts: BTreeMap<String, u64>,
}

impl Measured {
    fn to_json(&self) -> Value {
        json!({
            "about": format!(
                "Instructions counted by `cargo xtask bench-gate` (callgrind, \
                 --toggle-collect on each path's function in run-pipeline) on the \
                 pages of {PAGES}/. Rewrite with `cargo xtask bench-gate --update`."
            ),
            "date": self.date,
            "tools": self.tools,
            "pages": { "files": self.files, "bytes": self.bytes },
            "instructions": self.counts,
        })
    }

    fn from_json(v: &Value) -> anyhow::Result<Measured> {
        let strings = |v: &Value| -> BTreeMap<String, String> {
            v.as_object()
                .into_iter()
                .flatten()
                .filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_owned())))
                .collect()
        };
        let counts = v["instructions"]
            .as_object()
            .context("no \"instructions\" object")?
            .iter()
            .map(|(k, n)| Ok((k.clone(), n.as_u64().context("a count is not a number")?)))
            .collect::<anyhow::Result<_>>()?;
        Ok(Measured {
            date: v["date"].as_str().unwrap_or_default().to_owned(),
            tools: strings(&v["tools"]),
            files: v["pages"]["files"].as_u64().unwrap_or(0) as usize,
            bytes: v["pages"]["bytes"].as_u64().unwrap_or(0),
            counts,
        })
    }
}

/// How one path's count compares with its baseline.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Verdict {
    /// Within the threshold (pagetext) or within the spread (peer).
    Same,
    /// A pagetext path above the threshold: the gate fails.
    Grew,
    /// A pagetext path below the threshold by as much: the baseline is
    /// worth updating.
    Shrank,
    /// A peer outside the spread: a note.
    PeerMoved,
    /// No baseline for this path: the gate fails for pagetext's.
    New,
}

/// The change in percent from `baseline` to `count`.
fn change(count: u64, baseline: u64) -> f64 {
    (count as f64 - baseline as f64) / baseline as f64 * 100.0
}

fn judge(ours: bool, count: u64, baseline: Option<u64>) -> Verdict {
    let Some(base) = baseline.filter(|&b| b > 0) else {
        return Verdict::New;
    };
    let c = change(count, base);
    match ours {
        true if c > THRESHOLD => Verdict::Grew,
        true if c < -THRESHOLD => Verdict::Shrank,
        false if c.abs() > PEER_NOTE => Verdict::PeerMoved,
        _ => Verdict::Same,
    }
}

/// The total of a callgrind output file (its `totals:` line, else its
/// `summary:` line).
fn callgrind_total(text: &str) -> Option<u64> {
    let field = |prefix: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(prefix))
            .and_then(|rest| rest.split_whitespace().next()?.parse().ok())
    };
    field("totals:").or_else(|| field("summary:"))
}

/// The version(s) of `name` in a Cargo.lock, joined by `, `.
fn locked_version(lock: &str, name: &str) -> Option<String> {
    let wanted = format!("name = \"{name}\"");
    let mut versions = Vec::new();
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line.trim() == wanted
            && let Some(v) = lines
                .next()
                .and_then(|l| l.trim().strip_prefix("version = "))
        {
            versions.push(v.trim_matches('"').to_owned());
        }
    }
    (!versions.is_empty()).then(|| versions.join(", "))
}

/// `YYYY-MM-DD` of a count of days since 1970-01-01.
fn date_of_days(days: i64) -> String {
    chrono::DateTime::UNIX_EPOCH
        .checked_add_signed(chrono::TimeDelta::days(days))
        .map_or_else(String::new, |d| d.format("%Y-%m-%d").to_string())
}

/// Today's date (UTC), `YYYY-MM-DD`.
fn today() -> String {
    date_of_days(chrono::Utc::now().timestamp().div_euclid(86_400))
}

/// `n` with thousands separated by commas.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The first line a command prints, or an error naming it.
fn version_of(program: &str, arg: &str) -> anyhow::Result<String> {
    let out = Command::new(program)
        .arg(arg)
        .current_dir(root())
        .output()
        .with_context(|| format!("cannot run `{program} {arg}`"))?;
    if !out.status.success() {
        bail!("`{program} {arg}` failed ({})", out.status);
    }
    Ok(String::from_utf8_lossy(&out.stdout)
        .lines()
        .next()
        .unwrap_or_default()
        .trim()
        .to_owned())
}

/// The tools' versions: rustc, valgrind, the peers' crates.
fn tools() -> anyhow::Result<BTreeMap<String, String>> {
    let valgrind = version_of("valgrind", "--version").context(
        "the instruction gate needs valgrind (Debian: apt-get install valgrind; .ci/run installs it)",
    )?;
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let mut tools = BTreeMap::from([
        ("valgrind".to_owned(), valgrind),
        ("rustc".to_owned(), version_of(&rustc, "--version")?),
    ]);
    let lock = std::fs::read_to_string(root().join("Cargo.lock")).context("reading Cargo.lock")?;
    for name in PEER_CRATES {
        if let Some(v) = locked_version(&lock, name) {
            tools.insert((*name).to_owned(), v);
        }
    }
    Ok(tools)
}

/// The files with extension `ext` (any, when empty) in `dir`, sorted by
/// name.
fn files_in(dir: &Path, ext: &str) -> anyhow::Result<Vec<PathBuf>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("reading {}", dir.display()))?
        .filter_map(|e| Some(e.ok()?.path()))
        .filter(|p| ext.is_empty() || p.extension().is_some_and(|e| e == ext))
        .collect();
    files.sort();
    if files.is_empty() {
        bail!("no files under {}", dir.display());
    }
    Ok(files)
}

/// `path` relative to the workspace root when it is below it: the gate runs
/// from the root and names files this way, so that the arguments (which the
/// program copies to its heap) are the same wherever the repository is.
fn from_root(path: &Path) -> PathBuf {
    path.strip_prefix(root()).unwrap_or(path).to_path_buf()
}

/// Counts one path with callgrind on `files`, saving its outputs under
/// `save` when given; an error when valgrind or the pipeline fails, or when
/// nothing was counted (the function was not found: renamed, or inlined
/// away).
fn count(
    bin: &Path,
    path: &Counted,
    files: &[PathBuf],
    out_dir: &Path,
    save: Option<&Path>,
) -> anyhow::Result<u64> {
    let out_file = out_dir.join(format!("{}.callgrind", path.key));
    let mut cmd = Command::new("valgrind");
    cmd.current_dir(root())
        .arg("--tool=callgrind")
        .arg(format!("--callgrind-out-file={}", out_file.display()))
        .arg(format!("--toggle-collect={}", path.function))
        .arg(from_root(bin));
    if let Some(save) = save {
        cmd.arg("--save").arg(from_root(save));
    }
    let output = cmd
        .arg(path.mode)
        .args(files.iter().map(|f| from_root(f)))
        .output()
        .context("cannot start valgrind")?;
    if !output.status.success() {
        bail!(
            "callgrind on `run-pipeline {}` failed ({}):\n{}",
            path.mode,
            output.status,
            String::from_utf8_lossy(&output.stderr)
        );
    }
    let text = std::fs::read_to_string(&out_file)
        .with_context(|| format!("reading {}", out_file.display()))?;
    match callgrind_total(&text) {
        Some(n) if n > 0 => Ok(n),
        _ => bail!(
            "callgrind counted nothing inside {} (`run-pipeline {}`): is the function still \
             there, #[inline(never)], under that name?",
            path.function,
            path.mode
        ),
    }
}

/// Builds `run-pipeline` and counts every path.
fn measure() -> anyhow::Result<Measured> {
    let tools = tools()?;
    run_checked(
        cargo().args([
            "build",
            "--profile",
            "bench",
            "-p",
            "pagetext-bench",
            "--bin",
            "run-pipeline",
        ]),
        "building run-pipeline (bench profile)",
    )?;
    let bin = target_dir().join("release").join("run-pipeline");
    let pages = files_in(&root().join(PAGES), "html")?;
    let mut bytes = 0;
    for page in &pages {
        bytes += std::fs::metadata(page)
            .with_context(|| format!("reading {}", page.display()))?
            .len();
    }
    let dir = target_dir().join("bench-gate");
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let mut counts = BTreeMap::new();
    for path in PATHS {
        let started = Instant::now();
        let files = match path.input {
            Input::Pages => pages.clone(),
            Input::OutputOf(key) => files_in(&dir.join(key), "")?,
        };
        // A fresh folder for the outputs another path runs on.
        let save = dir.join(path.key);
        let feeds = PATHS.iter().any(|p| p.input == Input::OutputOf(path.key));
        if feeds {
            if save.exists() {
                std::fs::remove_dir_all(&save)
                    .with_context(|| format!("removing {}", save.display()))?;
            }
            std::fs::create_dir_all(&save)
                .with_context(|| format!("creating {}", save.display()))?;
        }
        let n = count(&bin, path, &files, &dir, feeds.then_some(save.as_path()))?;
        eprintln!(
            "bench-gate: {:<34} {:>15} instructions ({:.1} s under callgrind)",
            path.label,
            thousands(n),
            started.elapsed().as_secs_f64()
        );
        counts.insert(path.key.to_owned(), n);
    }
    Ok(Measured {
        date: today(),
        tools,
        files: pages.len(),
        bytes,
        counts,
    })
}

/// pagetext's ratio to each of its peers, as table text.
fn ratios(path: &Counted, counts: &BTreeMap<String, u64>) -> String {
    let Some(&ours) = counts.get(path.key) else {
        return String::new();
    };
    let parts: Vec<String> = path
        .peers
        .iter()
        .filter_map(|peer| {
            let theirs = *counts.get(*peer).filter(|&&n| n > 0)?;
            let label = PATHS.iter().find(|p| p.key == *peer)?.label;
            Some(format!("{:.2}x {label}", ours as f64 / theirs as f64))
        })
        .collect();
    parts.join("; ")
}

/// The table, and the notes and failures of the comparison with `base`
/// (failures first in their list).
fn report(now: &Measured, base: Option<&Measured>) -> (String, Vec<String>, Vec<String>) {
    let mut table = String::new();
    let _ = writeln!(
        table,
        "| path | instructions | baseline | change | ratio to peers |\n|---|---|---|---|---|"
    );
    let (mut notes, mut failures) = (Vec::new(), Vec::new());
    for path in PATHS {
        let n = now.counts.get(path.key).copied().unwrap_or(0);
        let old = base.and_then(|b| b.counts.get(path.key).copied());
        let shown_old = old.map_or("-".to_owned(), thousands);
        let shown_change = old
            .filter(|&o| o > 0)
            .map_or("-".to_owned(), |o| format!("{:+.2} %", change(n, o)));
        let _ = writeln!(
            table,
            "| {} | {} | {shown_old} | {shown_change} | {} |",
            path.label,
            thousands(n),
            ratios(path, &now.counts)
        );
        let Some(base) = base else { continue };
        let c = old.map_or(0.0, |o| change(n, o));
        match judge(path.ours, n, old) {
            Verdict::Same => {}
            Verdict::Grew => failures.push(format!(
                "{}: {c:+.2} % over the baseline of {} (limit +{THRESHOLD} %)",
                path.label, base.date
            )),
            Verdict::New if path.ours => failures.push(format!(
                "{}: no count in the baseline; run `cargo xtask bench-gate --update`",
                path.label
            )),
            Verdict::New => notes.push(format!("{}: no count in the baseline", path.label)),
            Verdict::Shrank => notes.push(format!(
                "{}: {c:+.2} % under the baseline; `cargo xtask bench-gate --update` keeps the gain",
                path.label
            )),
            Verdict::PeerMoved => notes.push(format!(
                "{}: a peer, {c:+.2} % from the baseline (a new toolchain or lockfile?); not gated",
                path.label
            )),
        }
    }
    if let Some(base) = base {
        if (base.files, base.bytes) != (now.files, now.bytes) {
            failures.push(format!(
                "the pages changed since the baseline ({} files, {} bytes; baseline {} files, \
                 {} bytes): run `cargo xtask bench-gate --update`",
                now.files, now.bytes, base.files, base.bytes
            ));
        }
        for (tool, version) in &now.tools {
            match base.tools.get(tool) {
                Some(old) if old == version => {}
                old => notes.push(format!(
                    "{tool} is {version}, the baseline's {}: counts may move for that alone",
                    old.map_or("unknown", String::as_str)
                )),
            }
        }
    }
    (table, notes, failures)
}

/// Runs the gate (or, with `update`, rewrites the baseline); `Ok(false)`
/// when it fails.
pub(crate) fn run(update: bool) -> anyhow::Result<bool> {
    let started = Instant::now();
    let file = root().join(BASELINE);
    let base = match std::fs::read_to_string(&file) {
        Ok(text) => {
            let value: Value = serde_json::from_str(&text)
                .with_context(|| format!("reading {}", file.display()))?;
            Some(Measured::from_json(&value).with_context(|| format!("in {}", file.display()))?)
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(e).with_context(|| format!("reading {}", file.display())),
    };
    let now = measure()?;
    let (table, notes, failures) = report(&now, base.as_ref());
    println!(
        "\nInstructions (callgrind) on {} pages, {} bytes ({PAGES}/); baseline: {}\n\n{table}",
        now.files,
        thousands(now.bytes),
        base.as_ref()
            .map_or("none".to_owned(), |b| format!("{BASELINE} of {}", b.date))
    );
    for note in &notes {
        println!("note: {note}");
    }
    let seconds = started.elapsed().as_secs_f64();
    if update {
        let text = serde_json::to_string_pretty(&now.to_json())? + "\n";
        std::fs::write(&file, text).with_context(|| format!("writing {}", file.display()))?;
        println!("bench-gate: baseline written to {BASELINE} ({seconds:.0} s)");
        return Ok(true);
    }
    if base.is_none() {
        println!("bench-gate: no baseline at {BASELINE}: run `cargo xtask bench-gate --update`");
        return Ok(false);
    }
    for failure in &failures {
        println!("FAILED: {failure}");
    }
    if failures.is_empty() {
        println!("bench-gate: every pagetext path within +{THRESHOLD} % ({seconds:.0} s)");
    } else {
        println!(
            "bench-gate: failed. If the growth is wanted, say why in the commit and run \
             `cargo xtask bench-gate --update`."
        );
    }
    Ok(failures.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn measured(counts: &[(&str, u64)]) -> Measured {
        Measured {
            date: "2026-11-26".into(),
            tools: BTreeMap::from([("rustc".into(), "rustc 1".into())]),
            files: 2,
            bytes: 10,
            counts: counts.iter().map(|&(k, n)| (k.to_owned(), n)).collect(),
        }
    }

    #[test]
    fn judges_against_the_threshold() {
        assert_eq!(judge(true, 105, Some(100)), Verdict::Same);
        assert_eq!(judge(true, 106, Some(100)), Verdict::Grew);
        assert_eq!(judge(true, 94, Some(100)), Verdict::Shrank);
        assert_eq!(judge(true, 94, None), Verdict::New);
        assert_eq!(judge(false, 200, Some(100)), Verdict::PeerMoved);
        assert_eq!(judge(false, 1005, Some(1000)), Verdict::Same);
    }

    #[test]
    fn report_fails_only_for_pagetext_paths() {
        let base = measured(&[
            ("html_to_text", 1000),
            ("text_to_xhtml", 1000),
            ("html5ever_rcdom", 1000),
        ]);
        let now = measured(&[
            ("html_to_text", 1100),
            ("text_to_xhtml", 1000),
            ("html5ever_rcdom", 2000),
        ]);
        let (table, notes, failures) = report(&now, Some(&base));
        assert_eq!(failures.len(), 1, "{failures:?}");
        assert!(failures[0].starts_with("pagetext HTML -> text: +10.00 %"));
        assert!(notes.iter().any(|n| n.starts_with("html5ever RcDom parse")));
        assert!(
            table.contains(
                "| pagetext HTML -> text | 1,100 | 1,000 | +10.00 % | 0.55x html5ever RcDom parse |"
            ),
            "{table}"
        );
        let (_, _, failures) = report(&base, Some(&base));
        assert!(failures.is_empty(), "{failures:?}");
    }

    #[test]
    fn a_changed_page_set_fails() {
        let base = measured(&[("html_to_text", 1000), ("text_to_xhtml", 1000)]);
        let mut now = base.clone();
        now.bytes += 1;
        let (_, _, failures) = report(&now, Some(&base));
        assert!(failures.iter().any(|f| f.contains("pages changed")));
    }

    #[test]
    fn baseline_round_trips_through_json() -> anyhow::Result<()> {
        let m = measured(&[("html_to_text", 123_456_789_012)]);
        assert_eq!(Measured::from_json(&m.to_json())?, m);
        Ok(())
    }

    #[test]
    fn reads_callgrind_totals() {
        let file = "events: Ir\nfn=main\n1 2\nsummary: 77\ntotals: 303514450\n";
        assert_eq!(callgrind_total(file), Some(303_514_450));
        assert_eq!(callgrind_total("summary: 5\n"), Some(5));
        assert_eq!(callgrind_total("events: Ir\n"), None);
    }

    #[test]
    fn reads_locked_versions() {
        let lock = "[[package]]\nname = \"htmd\"\nversion = \"0.5.6\"\n\n[[package]]\n\
                    name = \"htmd\"\nversion = \"0.4.0\"\n[[package]]\nname = \"x\"\n";
        assert_eq!(
            locked_version(lock, "htmd").as_deref(),
            Some("0.5.6, 0.4.0")
        );
        assert_eq!(locked_version(lock, "x"), None);
        assert_eq!(locked_version(lock, "y"), None);
    }

    #[test]
    fn formats_dates_and_numbers() {
        assert_eq!(date_of_days(0), "1970-01-01");
        assert_eq!(date_of_days(11_016), "2000-02-29");
        assert_eq!(date_of_days(20_783), "2026-11-26");
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }
}
