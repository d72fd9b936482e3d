//! `cargo xtask bench-crawl`: the crawl path against resiliparse, in one run.
//!
//! 1. Builds the `pagetext` binary with the release profile.
//! 2. Makes a virtual environment in `<target>/bench-venv` (once), installs
//!    warcio and resiliparse from PyPI into it, and the Python package the
//!    way a user does (`pip install ./crates/python`: maturin, release).
//! 3. Runs `crates/bench/crawl/bench_crawl.py` on each corpus: a gzip WARC
//!    of its pages, then, alternating round after round, `pagetext to-text
//!    --warc` with `-j 1` and with the default (one worker per core),
//!    `pagetext.to_text` and resiliparse's `extract_plain_text` over the
//!    same records in one Python process. It prints one Markdown table per
//!    corpus: pages/s, pages/s per core, CPU seconds, and the ratio to
//!    resiliparse.
//!
//! Corpora: `--corpus DIR` (repeatable), else `corpus/` and
//! `corpus-modern/` at the workspace root, those that exist. See the
//! "Crawl scale" section of docs/benchmarks.md.

use std::path::PathBuf;
use std::process::Command;

use anyhow::bail;

use crate::util::{cargo, root, run_checked, target_dir};

/// Options of `cargo xtask bench-crawl`.
#[derive(Debug, Clone, Default)]
pub(crate) struct Options {
    /// Folders of pages; none means the default corpora.
    pub(crate) corpora: Vec<PathBuf>,
    /// Rounds per path (the best is kept).
    pub(crate) rounds: u32,
    /// Also the Spark example in `local[2]` (needs Java; installs pyspark).
    pub(crate) spark: bool,
    /// Do not reinstall the Python packages (the venv as it is).
    pub(crate) no_install: bool,
}

/// Runs the whole chore.
pub(crate) fn run(opts: &Options) -> anyhow::Result<()> {
    let corpora: Vec<PathBuf> = if opts.corpora.is_empty() {
        ["corpus", "corpus-modern"]
            .iter()
            .map(|name| root().join(name))
            .filter(|dir| dir.is_dir())
            .collect()
    } else {
        opts.corpora.clone()
    };
    if corpora.is_empty() {
        bail!(
            "no corpus: give --corpus DIR, or fill corpus/ (`cargo xtask corpus --fetch`) \
             or corpus-modern/"
        );
    }
    run_checked(
        cargo().args(["build", "--release", "-p", "pagetext", "--bin", "pagetext"]),
        "building pagetext (release)",
    )?;
    let venv = target_dir().join("bench-venv");
    let python = crate::python::python_in(&venv);
    if !python.exists() {
        let system = std::env::var_os("PYTHON").unwrap_or_else(|| "python3".into());
        run_checked(
            Command::new(system).args(["-m", "venv"]).arg(&venv),
            "python3 -m venv <target>/bench-venv",
        )?;
    }
    if !opts.no_install {
        let mut peers = vec!["pip", "warcio", "resiliparse"];
        if opts.spark {
            peers.push("pyspark");
        }
        run_checked(
            Command::new(&python)
                .args(["-m", "pip", "install", "--quiet", "--upgrade"])
                .args(&peers),
            "pip install warcio resiliparse",
        )?;
        crate::python::install_package(&python)?;
    }
    let mut script = Command::new(&python);
    script
        .current_dir(root())
        .arg(root().join("crates/bench/crawl/bench_crawl.py"))
        .arg("--pagetext")
        .arg(target_dir().join("release/pagetext"))
        .arg("--rounds")
        .arg(opts.rounds.to_string());
    for corpus in &corpora {
        script.arg("--corpus").arg(corpus);
    }
    if opts.spark {
        script.arg("--spark");
    }
    run_checked(&mut script, "bench_crawl.py")
}
