//! `cargo xtask bench`: pagetext side by side with its peers, in one run.
//!
//! 1. Builds the `pagetext` binary and the bench crate's binaries
//!    (`bench-report`, `rcdom-parse`) with the `bench` profile, so that
//!    `cargo bench` reuses the same artifacts.
//! 2. Runs the criterion benchmark `peers` of `pagetext-bench` (and, with
//!    `--crate-benches`, the sniff and microsyntax benchmarks) with short
//!    measurement times, writing criterion's results under
//!    `<target>/criterion`.
//! 3. Runs `bench-report`, which reads those results, times the CLI on
//!    1,000 pages with `-j 1` and `-j 2`, measures peak memory, and prints
//!    the Markdown table (also written to `--out FILE` when given).
//!
//! Inputs: `--corpus DIR`, else `PAGETEXT_BENCH_CORPUS`, else `corpus/` at
//! the workspace root when present, else `/usr/share/doc` (see
//! `docs/benchmarks.md`).

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::Context;

use crate::util::{cargo, run_checked, target_dir};

/// Options of `cargo xtask bench`.
#[derive(Debug, Clone, Default)]
pub(crate) struct Options {
    /// Folder of HTML pages to measure on.
    pub(crate) corpus: Option<PathBuf>,
    /// Criterion's measurement time per benchmark, in seconds.
    pub(crate) measurement_time: f64,
    /// Only the benchmarks whose id matches this criterion filter.
    pub(crate) filter: Option<String>,
    /// Also run the sniff and microsyntax benchmarks.
    pub(crate) crate_benches: bool,
    /// Do not run criterion: print the table from the last results.
    pub(crate) report_only: bool,
    /// Leave out the CLI and peak-memory measurements.
    pub(crate) skip_cli: bool,
    /// Also write the table to this file.
    pub(crate) out: Option<PathBuf>,
}

/// A `cargo bench` of one benchmark target with the short settings.
fn bench_cmd(package: &str, bench: &str, opts: &Options, criterion: &Path) -> Command {
    let mut cmd = cargo();
    cmd.args(["bench", "-p", package, "--bench", bench, "--"])
        .args(["--warm-up-time", "0.3", "--measurement-time"])
        .arg(format!("{}", opts.measurement_time))
        .env("CRITERION_HOME", criterion);
    if let Some(filter) = &opts.filter {
        cmd.arg(filter);
    }
    if let Some(corpus) = &opts.corpus {
        cmd.env("PAGETEXT_BENCH_CORPUS", corpus);
    }
    cmd
}

/// Runs the whole chore.
pub(crate) fn run(opts: &Options) -> anyhow::Result<()> {
    let target = target_dir();
    let criterion = target.join("criterion");
    run_checked(
        cargo().args([
            "build",
            "--profile",
            "bench",
            "-p",
            "pagetext",
            "-p",
            "pagetext-bench",
            "--bins",
        ]),
        "building pagetext and the bench binaries",
    )?;
    if !opts.report_only {
        run_checked(
            &mut bench_cmd("pagetext-bench", "peers", opts, &criterion),
            "the peers benchmark",
        )?;
        if opts.crate_benches {
            run_checked(
                &mut bench_cmd("pagetext-sniff", "sniff", opts, &criterion),
                "the sniff benchmark",
            )?;
            run_checked(
                &mut bench_cmd("pagetext-microsyntax", "parsers", opts, &criterion),
                "the microsyntax benchmark",
            )?;
        }
    }
    let bin = target.join("release");
    let mut report = Command::new(bin.join("bench-report"));
    report
        .arg("--criterion")
        .arg(&criterion)
        .arg("--pagetext")
        .arg(bin.join("pagetext"))
        .arg("--rcdom")
        .arg(bin.join("rcdom-parse"));
    if let Some(corpus) = &opts.corpus {
        report.arg("--corpus").arg(corpus);
    }
    if opts.skip_cli {
        report.arg("--skip-cli");
    }
    let output = report.output().context("cannot start bench-report")?;
    eprint!("{}", String::from_utf8_lossy(&output.stderr));
    let table = String::from_utf8_lossy(&output.stdout);
    println!("{table}");
    if let Some(out) = &opts.out {
        std::fs::write(out, table.as_bytes())
            .with_context(|| format!("writing {}", out.display()))?;
    }
    if !output.status.success() {
        anyhow::bail!("bench-report failed ({})", output.status);
    }
    Ok(())
}
