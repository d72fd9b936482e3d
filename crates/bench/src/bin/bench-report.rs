//! `bench-report`: the table of `cargo xtask bench`.
//!
//! Reads criterion's estimates of the `peers` benchmark (and of the sniff
//! and microsyntax benchmarks when present) from a criterion folder, times
//! the `pagetext` binary on a folder of 1,000 pages with `-j 1` and `-j 2`,
//! times the peers in-process on the same pages (the whole-process ratios:
//! `to-text` on the pages against html5ever, htmd and fast_html2md;
//! `to-html` on their text forms against pulldown-cmark on htmd's Markdown),
//! measures peak memory with `/usr/bin/time -v`, and prints everything as
//! Markdown, ratios first.
//!
//! ```text
//! bench-report --criterion DIR --pagetext BIN --rcdom BIN [--corpus DIR] [--pages N] [--skip-cli]
//! ```

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use pagetext_bench::{
    PATHOLOGICAL, Pathological, corpus_dir, fast_html2md_convert, htmd_convert, html_files,
    html_to_text, load_pages, markdown_to_html, max_bytes, rcdom_parse, text_to_xhtml,
};

/// Command-line arguments.
#[derive(Debug, Default)]
struct Args {
    criterion: PathBuf,
    pagetext: Option<PathBuf>,
    rcdom: Option<PathBuf>,
    corpus: Option<PathBuf>,
    pages: usize,
    skip_cli: bool,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        pages: 1000,
        ..Args::default()
    };
    let mut it = std::env::args_os().skip(1);
    while let Some(a) = it.next() {
        let a = a.to_string_lossy().into_owned();
        let mut value = || {
            it.next()
                .map(PathBuf::from)
                .ok_or(format!("{a} needs a value"))
        };
        match a.as_str() {
            "--criterion" => args.criterion = value()?,
            "--pagetext" => args.pagetext = Some(value()?),
            "--rcdom" => args.rcdom = Some(value()?),
            "--corpus" => args.corpus = Some(value()?),
            "--pages" => {
                args.pages = value()?
                    .to_string_lossy()
                    .parse()
                    .map_err(|e| format!("--pages: {e}"))?
            }
            "--skip-cli" => args.skip_cli = true,
            other => return Err(format!("unknown argument {other}")),
        }
    }
    if args.criterion.as_os_str().is_empty() {
        return Err("--criterion DIR is required".into());
    }
    Ok(args)
}

/// One criterion result: median time per iteration and bytes (or
/// elements) per iteration.
#[derive(Debug, Clone, Copy)]
struct Estimate {
    ns: f64,
    per_iter: Option<u64>,
}

impl Estimate {
    fn mb_s(&self) -> Option<f64> {
        self.per_iter.map(|b| b as f64 / self.ns * 1e3)
    }
}

/// Reads `<criterion>/<id>/new/{estimates,benchmark}.json`.
fn estimate(criterion: &Path, id: &str) -> Option<Estimate> {
    let dir = criterion.join(id).join("new");
    let est: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("estimates.json")).ok()?).ok()?;
    let ns = est.get("median")?.get("point_estimate")?.as_f64()?;
    let per_iter = std::fs::read(dir.join("benchmark.json"))
        .ok()
        .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
        .and_then(|b| {
            let t = b.get("throughput")?;
            t.get("Bytes")
                .or_else(|| t.get("Elements"))
                .or_else(|| t.get("BytesDecimal"))?
                .as_u64()
        });
    Some(Estimate { ns, per_iter })
}

fn fmt_mb(e: Option<Estimate>) -> String {
    e.and_then(|e| e.mb_s())
        .map_or("-".into(), |v| format!("{v:.1}"))
}

fn fmt_ratio(r: Option<f64>) -> String {
    r.map_or("-".into(), |r| format!("{r:.2}"))
}

fn verdict(r: Option<f64>, target: f64, at_least: bool) -> &'static str {
    match r {
        None => "not measured",
        Some(r) if (at_least && r >= target) || (!at_least && r <= target) => "met",
        Some(_) => "**not met**",
    }
}

/// The peer comparisons: (what, pagetext id, peer id, peer name, target).
/// The targets are the speed issue's: text -> XHTML within 1.2x
/// pulldown-cmark; HTML -> text within 1.5x html5ever's parse into RcDom and
/// no slower than htmd and fast_html2md.
const PAIRS: &[(&str, &str, &str, &str, f64)] = &[
    (
        "text -> XHTML, pages",
        "text_to_xhtml/pagetext",
        "text_to_xhtml/pulldown_cmark",
        "pulldown-cmark",
        1.2,
    ),
    (
        "text -> XHTML, 1 MB",
        "text_to_xhtml_1MB/pagetext",
        "text_to_xhtml_1MB/pulldown_cmark",
        "pulldown-cmark",
        1.2,
    ),
    (
        "text -> XHTML, 10 MB",
        "text_to_xhtml_10MB/pagetext",
        "text_to_xhtml_10MB/pulldown_cmark",
        "pulldown-cmark",
        1.2,
    ),
    (
        "HTML -> text, pages",
        "html_to_text/pagetext",
        "html_to_text/html5ever_rcdom",
        "html5ever RcDom",
        1.5,
    ),
    (
        "HTML -> text, 1 MB",
        "html_to_text_1MB/pagetext",
        "html_to_text_1MB/html5ever_rcdom",
        "html5ever RcDom",
        1.5,
    ),
    (
        "HTML -> text, 10 MB",
        "html_to_text_10MB/pagetext",
        "html_to_text_10MB/html5ever_rcdom",
        "html5ever RcDom",
        1.5,
    ),
    (
        "HTML -> text, pages",
        "html_to_text/pagetext",
        "html_to_text/htmd",
        "htmd",
        1.0,
    ),
    (
        "HTML -> text, 1 MB",
        "html_to_text_1MB/pagetext",
        "html_to_text_1MB/htmd",
        "htmd",
        1.0,
    ),
    (
        "HTML -> text, 10 MB",
        "html_to_text_10MB/pagetext",
        "html_to_text_10MB/htmd",
        "htmd",
        1.0,
    ),
    (
        "HTML -> text, pages",
        "html_to_text/pagetext",
        "html_to_text/fast_html2md",
        "fast_html2md",
        1.0,
    ),
    (
        "HTML -> text, 1 MB",
        "html_to_text_1MB/pagetext",
        "html_to_text_1MB/fast_html2md",
        "fast_html2md",
        1.0,
    ),
    (
        "HTML -> text, 10 MB",
        "html_to_text_10MB/pagetext",
        "html_to_text_10MB/fast_html2md",
        "fast_html2md",
        1.0,
    ),
    (
        "sniff + decode, pages",
        "sniff_decode_corpus/pagetext_sniff_decode",
        "sniff_decode_corpus/encoding_rs",
        "encoding_rs",
        1.05,
    ),
];

fn peers_table(out: &mut String, criterion: &Path) {
    let _ = writeln!(out, "### pagetext vs peers (criterion, same run, median)\n");
    let _ = writeln!(
        out,
        "| path | peer | ratio (pagetext/peer time) | target | pagetext MB/s | peer MB/s |"
    );
    let _ = writeln!(out, "|---|---|---|---|---|---|");
    for &(what, ours, theirs, peer, target) in PAIRS {
        let a = estimate(criterion, ours);
        let b = estimate(criterion, theirs);
        let r = a.zip(b).map(|(a, b)| a.ns / b.ns);
        let _ = writeln!(
            out,
            "| {what} | {peer} | {} | <= {target} ({}) | {} | {} |",
            fmt_ratio(r),
            verdict(r, target, false),
            fmt_mb(a),
            fmt_mb(b)
        );
    }
    let _ = writeln!(
        out,
        "\nMB/s counts each side's own input: HTML bytes for HTML -> text; the text form \
         (pagetext) and htmd's Markdown of the same pages (pulldown-cmark) for text -> XHTML. \
         htmd and fast_html2md (its `rewriter` path, lol_html) are given each page already \
         decoded as UTF-8 `&str`; pagetext and html5ever start from the bytes.\n"
    );
}

fn scale_table(out: &mut String, criterion: &Path) {
    let _ = writeln!(
        out,
        "### Scale (one median-size page repeated; time per byte relative to 1x)\n"
    );
    let _ = writeln!(out, "| path | 1x MB/s | 10x / 1x | 100x / 1x |");
    let _ = writeln!(out, "|---|---|---|---|");
    for group in ["scale_html_to_text", "scale_text_to_xhtml"] {
        let per_byte = |id: &str| {
            estimate(criterion, &format!("{group}/{id}"))
                .and_then(|e| e.per_iter.map(|b| (e, e.ns / b as f64)))
        };
        let one = per_byte("1x");
        let rel = |id: &str| one.zip(per_byte(id)).map(|((_, a), (_, b))| b / a);
        let _ = writeln!(
            out,
            "| {group} | {} | {} | {} |",
            fmt_mb(one.map(|(e, _)| e)),
            fmt_ratio(rel("10x")),
            fmt_ratio(rel("100x"))
        );
    }
    let _ = writeln!(
        out,
        "\n1.00 is proportional time; above 1 grows faster than the input.\n"
    );
}

fn pathological_table(out: &mut String, criterion: &Path) {
    let _ = writeln!(
        out,
        "### Pathological inputs (n = 10,000 vs 100,000 units)\n"
    );
    let _ = writeln!(
        out,
        "| input | path | MB/s at 10k | MB/s at 100k | growth (per byte, 100k / 10k) |"
    );
    let _ = writeln!(out, "|---|---|---|---|---|");
    for p in PATHOLOGICAL {
        let Pathological { name, html, .. } = *p;
        let small = estimate(criterion, &format!("pathological/{name}/10000"));
        let large = estimate(criterion, &format!("pathological/{name}/100000"));
        let growth = small
            .zip(large)
            .and_then(|(s, l)| Some((l.ns / l.per_iter? as f64) / (s.ns / s.per_iter? as f64)));
        let _ = writeln!(
            out,
            "| {name} | {} | {} | {} | {} |",
            if html {
                "HTML -> text"
            } else {
                "text -> XHTML"
            },
            fmt_mb(small),
            fmt_mb(large),
            fmt_ratio(growth)
        );
    }
    let _ = writeln!(out);
}

/// The sniff and microsyntax benchmarks, when their results are in the
/// same criterion folder (`cargo xtask bench --crate-benches`).
fn crate_benches_table(out: &mut String, criterion: &Path) {
    let mut rows = Vec::new();
    for id in ["decode", "prescan", "sniff"] {
        let Ok(entries) = std::fs::read_dir(criterion.join(id)) else {
            continue;
        };
        let mut names: Vec<String> = entries
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n != "report")
            .collect();
        names.sort();
        for n in names {
            if let Some(e) = estimate(criterion, &format!("{id}/{n}")) {
                rows.push(format!(
                    "| sniff: {id}/{n} | {:.0} ns | {} MB/s |",
                    e.ns,
                    fmt_mb(Some(e))
                ));
            }
        }
    }
    if let Ok(entries) = std::fs::read_dir(criterion) {
        let mut groups: Vec<String> = entries
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|g| criterion.join(g).join("calls").is_dir())
            .collect();
        groups.sort();
        for g in groups {
            if let Some(e) = estimate(criterion, &format!("{g}/calls")) {
                let per_call = e.per_iter.map_or(e.ns, |n| e.ns / n.max(1) as f64);
                rows.push(format!(
                    "| microsyntax: {g} | {per_call:.1} ns per call | |"
                ));
            }
        }
    }
    if rows.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "### Crate benchmarks (sniff, microsyntax; their own inputs)\n"
    );
    let _ = writeln!(out, "| benchmark | time | throughput |");
    let _ = writeln!(out, "|---|---|---|");
    for r in rows {
        let _ = writeln!(out, "{r}");
    }
    let _ = writeln!(out);
}

/// Runs `cmd` with output discarded; returns the wall time and whether it
/// succeeded.
fn timed(cmd: &mut Command) -> Result<(Duration, bool), String> {
    let start = Instant::now();
    let status = cmd
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map_err(|e| format!("{cmd:?}: {e}"))?;
    Ok((start.elapsed(), status.success()))
}

/// Runs `program args` with output discarded, through `/usr/bin/time` when
/// it is there; returns the wall time, whether it succeeded, and the CPU
/// time it used (user + system, in seconds) when known. CPU time close to
/// another run's while the wall time is not says the machine was busy.
fn timed_cpu(
    program: &Path,
    args: &[&std::ffi::OsStr],
    work: &Path,
) -> Result<(Duration, bool, Option<f64>), String> {
    let time = Path::new("/usr/bin/time");
    if !time.exists() {
        let (t, ok) = timed(Command::new(program).args(args))?;
        return Ok((t, ok, None));
    }
    let report = work.join("cpu-time.txt");
    let (t, ok) = timed(
        Command::new(time)
            .args(["-f", "%U %S", "-o"])
            .arg(&report)
            .arg(program)
            .args(args),
    )?;
    let cpu = std::fs::read_to_string(&report).ok().and_then(|r| {
        let mut it = r.split_whitespace().map(|v| v.parse::<f64>().ok());
        Some(it.next()?? + it.next()??)
    });
    Ok((t, ok, cpu))
}

/// The load averages (1, 5, 15 minutes) from `/proc/loadavg`, as written.
fn load_average() -> Option<String> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    Some(
        text.split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" "),
    )
}

/// Peak resident set (KiB) of `cmd`, from `/usr/bin/time -v`.
fn peak_rss(program: &Path, args: &[&std::ffi::OsStr]) -> Result<u64, String> {
    let out = Command::new("/usr/bin/time")
        .arg("-v")
        .arg(program)
        .args(args)
        .stdout(Stdio::null())
        .output()
        .map_err(|e| format!("/usr/bin/time: {e}"))?;
    let err = String::from_utf8_lossy(&out.stderr);
    err.lines()
        .find_map(|l| l.trim().strip_prefix("Maximum resident set size (kbytes):"))
        .and_then(|v| v.trim().parse().ok())
        .ok_or_else(|| {
            format!(
                "no peak RSS in the output of /usr/bin/time for {}",
                program.display()
            )
        })
}

/// The shortest of two wall times of `f`, in seconds.
fn best_of_two(mut f: impl FnMut() -> usize) -> f64 {
    (0..2)
        .map(|_| {
            let start = Instant::now();
            std::hint::black_box(f());
            start.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

/// The whole `pagetext to-text DIR -o OUT -j 1` process (`cli`, the time of
/// the CLI table) against the peers converting the same pages in-process,
/// from memory.
fn whole_process_table(out: &mut String, cli: Duration, set: &[&[u8]], bytes: usize) {
    // Read and decoded before any timing, as in the criterion benchmark.
    let strs: Vec<String> = set
        .iter()
        .map(|p| String::from_utf8_lossy(p).into_owned())
        .collect();
    let peers: [(&str, Option<f64>, f64); 4] = [
        (
            "pagetext in-process (`ingest` + `write`)",
            None,
            best_of_two(|| set.iter().map(|p| html_to_text(p).len()).sum()),
        ),
        // The target: the whole process within 1.5x html5ever's parse in
        // process; the other peers are shown for reference.
        (
            "html5ever RcDom parse",
            Some(1.5),
            best_of_two(|| set.iter().map(|p| rcdom_parse(p)).sum()),
        ),
        (
            "htmd `convert`",
            None,
            best_of_two(|| strs.iter().map(|s| htmd_convert(s).len()).sum()),
        ),
        (
            "fast_html2md `rewrite_html`",
            None,
            best_of_two(|| strs.iter().map(|s| fast_html2md_convert(s).len()).sum()),
        ),
    ];
    let cli = cli.as_secs_f64();
    let mb = bytes as f64 / 1e6;
    let _ = writeln!(
        out,
        "### Whole process: `pagetext to-text DIR -o OUT -j 1` vs peers in-process ({} pages, \
         {mb:.1} MB; process best of 3, in-process best of 2)\n",
        set.len()
    );
    let _ = writeln!(
        out,
        "| in-process side | seconds | MB/s | ratio (pagetext process time / this) | target |"
    );
    let _ = writeln!(out, "|---|---|---|---|---|");
    let _ = writeln!(
        out,
        "| (pagetext process, -j 1, from the CLI table) | {cli:.2} | {:.1} | 1.00 | |",
        mb / cli
    );
    for (name, target, t) in peers {
        let r = cli / t;
        let target = target.map_or("- (reference)".to_string(), |v| {
            format!("<= {v} ({})", verdict(Some(r), v, false))
        });
        let _ = writeln!(
            out,
            "| {name} | {t:.2} | {:.1} | {} | {target} |",
            mb / t,
            fmt_ratio(Some(r))
        );
    }
    let _ = writeln!(
        out,
        "\npagetext side: the wall time of the `-j 1` row of the CLI table (the same \
         measurement), from spawning the process to its exit: start-up, walking DIR, reading \
         each file, sniff + decode + `ingest` + `write`, writing each output file under OUT \
         (a temporary file renamed into place; OUT is new, so no fsync). \
         In-process side: the wall time of the conversion alone, in this process, over the \
         same files held in memory (read beforehand; for htmd and fast_html2md also decoded \
         as UTF-8 `&str` beforehand), outputs built and dropped, no file I/O, no start-up. \
         The pagetext in-process row runs the code of the criterion rows on these pages: its \
         ratio is what the process, the walk and the file I/O cost. The target: the \
         whole process within 1.5x html5ever's parse in process; htmd and fast_html2md are \
         shown for reference.\n"
    );
}

/// The whole `pagetext to-html DIR -o OUT -j 1` process (`cli`) over the
/// text forms of the CLI's pages against pulldown-cmark rendering htmd's
/// Markdown of the same pages in-process, from memory.
fn whole_process_xhtml_table(
    out: &mut String,
    cli: Duration,
    texts: &[String],
    markdowns: &[String],
) {
    let text_bytes: usize = texts.iter().map(String::len).sum();
    let md_bytes: usize = markdowns.iter().map(String::len).sum();
    let ours = best_of_two(|| texts.iter().map(|t| text_to_xhtml(t).len()).sum());
    let peer = best_of_two(|| markdowns.iter().map(|m| markdown_to_html(m).len()).sum());
    let cli = cli.as_secs_f64();
    let (tmb, mmb) = (text_bytes as f64 / 1e6, md_bytes as f64 / 1e6);
    let r = cli / peer;
    let _ = writeln!(
        out,
        "### Whole process: `pagetext to-html DIR -o OUT -j 1` vs pulldown-cmark in-process \
         ({} pages' text forms, {tmb:.1} MB; Markdown {mmb:.1} MB; best of 2)\n",
        texts.len()
    );
    let _ = writeln!(
        out,
        "| side | seconds | MB/s (own input) | ratio (pagetext process time / this) | target |"
    );
    let _ = writeln!(out, "|---|---|---|---|---|");
    let _ = writeln!(
        out,
        "| pagetext `to-html` process, -j 1 | {cli:.2} | {:.1} | 1.00 | |",
        tmb / cli
    );
    let _ = writeln!(
        out,
        "| pagetext in-process (`emit_text`) | {ours:.2} | {:.1} | {} | - (reference) |",
        tmb / ours,
        fmt_ratio(Some(cli / ours))
    );
    let _ = writeln!(
        out,
        "| pulldown-cmark `push_html` on htmd's Markdown | {peer:.2} | {:.1} | {} | <= 1.5 ({}) |",
        mmb / peer,
        fmt_ratio(Some(r)),
        verdict(Some(r), 1.5, false)
    );
    let _ = writeln!(
        out,
        "\npagetext side: the wall time of `pagetext to-html DIR -o OUT -j 1` over the text \
         forms of the CLI table's pages (made by `pagetext to-text` beforehand, outside the \
         timing), from spawning the process to its exit: start-up, walk, reads, \
         `wikitext` parse + XHTML emit, atomic writes under a new OUT. In-process side: \
         pulldown-cmark (tables on) rendering htmd's Markdown of the same pages, computed \
         beforehand and held in memory, outputs built and dropped, no file I/O, no start-up. \
         The pagetext in-process row is the same conversion as the process, in memory.\n"
    );
}

/// Times `pagetext to-html SRC -o OUT -j 1` over `src` (best of two, each
/// into a new folder under `work`); an error when a run fails.
fn time_to_html(pagetext: &Path, src: &Path, work: &Path) -> Result<Duration, String> {
    let mut best = Duration::MAX;
    for run in 0..2 {
        let dest = work.join(format!("xhtml-{run}"));
        let (t, ok) = timed(
            Command::new(pagetext)
                .arg("to-html")
                .arg(src)
                .arg("-o")
                .arg(&dest)
                .args(["-j", "1"]),
        )?;
        if !ok {
            return Err(format!("pagetext to-html {} failed", src.display()));
        }
        best = best.min(t);
    }
    Ok(best)
}

/// The text forms of the CLI's pages, as files: `pagetext to-text IN -o
/// OUT` (not timed). Returns the texts, in the order of the pages.
fn make_texts(pagetext: &Path, input: &Path, dest: &Path, n: usize) -> Result<Vec<String>, String> {
    let status = Command::new(pagetext)
        .arg("to-text")
        .arg(input)
        .arg("-o")
        .arg(dest)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map_err(|e| format!("pagetext to-text: {e}"))?;
    if !status.success() {
        return Err(format!(
            "pagetext to-text {} failed ({status})",
            input.display()
        ));
    }
    (0..n)
        .map(|i| {
            let path = dest.join(format!("{i:04}.txt"));
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))
        })
        .collect()
}

fn cli_section(out: &mut String, args: &Args, corpus: &Path) -> Result<(), String> {
    let Some(pagetext) = &args.pagetext else {
        return Ok(());
    };
    // 1,000 pages: the corpus pages of at most 64 KiB, cycled.
    let pages: Vec<_> = load_pages(corpus, max_bytes())
        .into_iter()
        .filter(|p| p.bytes.len() <= 64 << 10)
        .collect();
    if pages.is_empty() {
        return Err(format!(
            "no pages of at most 64 KiB under {}",
            corpus.display()
        ));
    }
    let work = std::env::temp_dir().join(format!("pagetext-bench-cli-{}", std::process::id()));
    let input = work.join("in");
    std::fs::create_dir_all(&input).map_err(|e| e.to_string())?;
    let mut bytes = 0usize;
    for (i, page) in pages.iter().cycle().take(args.pages).enumerate() {
        std::fs::write(input.join(format!("{i:04}.html")), &page.bytes)
            .map_err(|e| e.to_string())?;
        bytes += page.bytes.len();
    }
    let load = load_average();
    let mut best = Vec::new();
    for jobs in ["1", "2"] {
        let mut best_run = (Duration::MAX, None);
        let mut ok = true;
        for run in 0..3 {
            let dest = work.join(format!("out-{jobs}-{run}"));
            let (t, success, cpu) = timed_cpu(
                pagetext,
                &[
                    "to-text".as_ref(),
                    input.as_os_str(),
                    "-o".as_ref(),
                    dest.as_os_str(),
                    "-j".as_ref(),
                    jobs.as_ref(),
                ],
                &work,
            )?;
            ok &= success;
            if t < best_run.0 {
                best_run = (t, cpu);
            }
        }
        best.push((jobs, best_run.0, ok, best_run.1));
    }
    let _ = writeln!(
        out,
        "### CLI: `pagetext to-text DIR -o OUT -j N` on {} pages ({:.1} MB; best of 3)\n\n\
         Files read and written under {} (`TMPDIR`). Load average before the runs: {}.\n",
        args.pages,
        bytes as f64 / 1e6,
        work.display(),
        load.as_deref().unwrap_or("unknown")
    );
    let _ = writeln!(
        out,
        "| -j | seconds | CPU seconds (user + system) | files/s | MB/s | exit ok |"
    );
    let _ = writeln!(out, "|---|---|---|---|---|---|");
    for (jobs, t, ok, cpu) in &best {
        let s = t.as_secs_f64();
        let _ = writeln!(
            out,
            "| {jobs} | {s:.2} | {} | {:.0} | {:.1} | {ok} |",
            cpu.map_or("-".to_string(), |c| format!("{c:.2}")),
            args.pages as f64 / s,
            bytes as f64 / 1e6 / s
        );
    }
    if let [(_, t1, _, _), (_, t2, _, _)] = best.as_slice() {
        let scaling = t1.as_secs_f64() / t2.as_secs_f64();
        let _ = writeln!(
            out,
            "\nScaling -j 2 / -j 1: **{scaling:.2}** (target >= 1.8: {})\n\n\
             With 2 cores, a load average above about 1 before the runs, or -j 2 using about \
             the CPU time of -j 1 while its wall time is well above half, means other work \
             held the second core: the scaling is then not pagetext's.\n",
            verdict(Some(scaling), 1.8, true)
        );
    }

    if let Some(&(_, cli, _, _)) = best.first() {
        let set: Vec<&[u8]> = pages
            .iter()
            .cycle()
            .take(args.pages)
            .map(|p| p.bytes.as_slice())
            .collect();
        whole_process_table(out, cli, &set, bytes);

        // Text -> XHTML, whole process: the same pages' text forms.
        let texts_dir = work.join("texts");
        let texts = make_texts(pagetext, &input, &texts_dir, args.pages)?;
        let markdowns: Vec<String> = set
            .iter()
            .map(|p| htmd_convert(&String::from_utf8_lossy(p)))
            .collect();
        let cli = time_to_html(pagetext, &texts_dir, &work)?;
        whole_process_xhtml_table(out, cli, &texts, &markdowns);
    }

    peak_memory_section(out, args, (pagetext, corpus), &work)?;
    let _ = std::fs::remove_dir_all(&work);
    Ok(())
}

/// Peak memory on the largest page of the corpus: `pagetext to-text` and
/// `to-html` beside html5ever's parse (`rcdom-parse`), when it is given.
fn peak_memory_section(
    out: &mut String,
    args: &Args,
    (pagetext, corpus): (&Path, &Path),
    work: &Path,
) -> Result<(), String> {
    let Some(rcdom) = &args.rcdom else {
        return Ok(());
    };
    let largest = html_files(corpus)
        .into_iter()
        .max_by_key(|p| std::fs::metadata(p).map_or(0, |m| m.len()));
    let Some(largest) = largest else {
        return Ok(());
    };
    let size = std::fs::metadata(&largest).map_or(0, |m| m.len());
    let dest = work.join("largest.txt");
    let ours = peak_rss(
        pagetext,
        &[
            "to-text".as_ref(),
            largest.as_os_str(),
            "-o".as_ref(),
            dest.as_os_str(),
        ],
    )?;
    let theirs = peak_rss(rcdom, &[largest.as_os_str()])?;
    // Back to XHTML from the text form just written.
    let back = work.join("largest.xhtml");
    let to_html = peak_rss(
        pagetext,
        &[
            "to-html".as_ref(),
            dest.as_os_str(),
            "-o".as_ref(),
            back.as_os_str(),
        ],
    )?;
    let text_size = std::fs::metadata(&dest).map_or(0, |m| m.len());
    let r = ours as f64 / theirs as f64;
    let r_html = to_html as f64 / theirs as f64;
    let _ = writeln!(
        out,
        "### Peak memory on the largest page ({}, {:.1} MB)\n\n\
         | program | max RSS (MiB) | ratio to html5ever's parse | target |\n|---|---|---|---|\n\
         | `pagetext to-text` | {:.1} | **{r:.2}** | <= 1.5 ({}) |\n\
         | `pagetext to-html` on its text form ({:.1} MB) | {:.1} | {r_html:.2} | <= 1.5 ({}) |\n\
         | html5ever RcDom parse (`rcdom-parse`) | {:.1} | 1.00 | |\n",
        largest.display(),
        size as f64 / 1e6,
        ours as f64 / 1024.0,
        verdict(Some(r), 1.5, false),
        text_size as f64 / 1e6,
        to_html as f64 / 1024.0,
        verdict(Some(r_html), 1.5, false),
        theirs as f64 / 1024.0,
    );
    Ok(())
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("bench-report: {e}");
            return ExitCode::FAILURE;
        }
    };
    let corpus = args.corpus.clone().unwrap_or_else(corpus_dir);
    let mut out = String::new();
    peers_table(&mut out, &args.criterion);
    scale_table(&mut out, &args.criterion);
    pathological_table(&mut out, &args.criterion);
    crate_benches_table(&mut out, &args.criterion);
    if !args.skip_cli
        && let Err(e) = cli_section(&mut out, &args, &corpus)
    {
        eprintln!("bench-report: {e}");
        print!("{out}");
        return ExitCode::FAILURE;
    }
    print!("{out}");
    ExitCode::SUCCESS
}
