//! `cargo xtask`: the project's chores, written in Rust so they run wherever
//! cargo does. Each subcommand is one module; `ci` runs them all in order.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod bench;
mod bench_gate;
mod ci;
mod conformance;
mod corpus;
mod crawl_bench;
mod editor_bundle;
mod extract_bench;
mod fuzz;
mod inspect;
mod langid;
mod man;
mod python;
mod shingles;
mod snapshots;
mod util;

/// Chores for the pagetext workspace.
#[derive(Debug, Parser)]
#[command(name = "cargo xtask", bin_name = "cargo xtask")]
struct Xtask {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run the insta snapshot suites (every input under testdata/<crate>/ is a case).
    ///
    /// Prints one line per suite: cases, passed, failed, new, stale. New or
    /// changed snapshots are failures; on a developer machine insta leaves
    /// `.snap.new` files for `cargo insta review`, under CI (the `CI` variable
    /// is set) it writes nothing.
    Snapshots {
        /// Only the suites of this crate (its folder name: sniff, wikitext...).
        #[arg(long = "crate", value_name = "NAME")]
        krate: Option<String>,
        /// Hand over to `cargo insta review` afterwards.
        #[arg(long)]
        review: bool,
    },
    /// Run the peer conformance suites (html5lib-tests) registered by the crates.
    ///
    /// Reads ../shared/conformance/ or the folder named by PAGETEXT_CONFORMANCE_DIR.
    /// When the data is absent it says so and succeeds, except under CI.
    Conformance {
        /// Print every failing case, not just the first few per suite.
        #[arg(long)]
        verbose: bool,
    },
    /// Everything CI checks, in order, stopping at the first failure.
    Ci,
    /// Rebuild the editor's CodeMirror bundle from crates/cli/editor (npm ci,
    /// npm run build, into target/) and compare it with the committed
    /// crates/cli/src/edit/assets/editor.js, as CI does.
    EditorBundle,
    /// Benchmarks against the peers in one run; prints the table of ratios.
    ///
    /// Inputs: --corpus, else PAGETEXT_BENCH_CORPUS, else corpus/ at the
    /// workspace root, else /usr/share/doc (see docs/benchmarks.md).
    Bench {
        /// Folder of HTML pages to measure on.
        #[arg(long, value_name = "DIR")]
        corpus: Option<std::path::PathBuf>,
        /// Criterion measurement time per benchmark, in seconds.
        #[arg(long, value_name = "SECS", default_value_t = 2.0)]
        measurement_time: f64,
        /// Run only the benchmarks matching this criterion filter.
        #[arg(long, value_name = "REGEX")]
        filter: Option<String>,
        /// Also run the sniff and microsyntax benchmarks into the table.
        #[arg(long)]
        crate_benches: bool,
        /// Do not run criterion; print the table from the last results.
        #[arg(long)]
        report_only: bool,
        /// Leave out the CLI throughput and peak-memory measurements.
        #[arg(long)]
        skip_cli: bool,
        /// Also write the table to this file.
        #[arg(long, value_name = "FILE")]
        out: Option<std::path::PathBuf>,
    },
    /// Instruction counts (valgrind's callgrind) of pagetext's two directions
    /// and of its peers on the pages of testdata/bench/pages/; fails when a
    /// pagetext path counts more than 5% over the committed baseline
    /// (testdata/bench/instructions.json). CI runs it.
    BenchGate {
        /// Write this run's counts, tools and date to the baseline instead
        /// of judging them.
        #[arg(long)]
        update: bool,
    },
    /// The crawl path against resiliparse in one run: a WARC of each
    /// corpus's pages through `pagetext to-text --warc` (-j 1 and one worker
    /// per core), `pagetext.to_text` and resiliparse's HTML2Text in Python;
    /// prints pages/s, pages/s per core, CPU seconds and the ratio.
    ///
    /// Builds the release binary, and installs warcio, resiliparse and the
    /// Python package into <target>/bench-venv. Corpora: --corpus, else
    /// corpus/ and corpus-modern/ at the workspace root.
    BenchCrawl {
        /// A folder of pages (repeatable); a files.txt in it lists them.
        #[arg(long = "corpus", value_name = "DIR")]
        corpora: Vec<std::path::PathBuf>,
        /// Rounds per path, alternating; the best of them is reported.
        #[arg(long, default_value_t = 3)]
        rounds: u32,
        /// Also the Spark example in local[2] (installs pyspark; needs Java).
        #[arg(long)]
        spark: bool,
        /// Use the virtual environment as it is (no pip install).
        #[arg(long)]
        no_install: bool,
    },
    /// Convert every .html/.htm page under DIR (HTML -> text -> XHTML -> text)
    /// and print one summary: files, bytes, seconds, panics, files with
    /// errors, well-formed and DTD-valid XHTML, fixpoints, word recall.
    ///
    /// DIR defaults to corpus/ at the workspace root (git-ignored); --fetch
    /// fills it from Debian documentation packages (apt-get download,
    /// dpkg-deb -x) first.
    Corpus {
        /// The folder of pages (default: corpus/ at the workspace root).
        #[arg(value_name = "DIR")]
        dir: Option<std::path::PathBuf>,
        /// Download and unpack the Debian packages into the corpus folder first.
        #[arg(long)]
        fetch: bool,
        /// The packages --fetch downloads (comma-separated).
        #[arg(long, value_delimiter = ',', default_values_t = corpus::PACKAGES.iter().map(|s| s.to_string()))]
        packages: Vec<String>,
        /// List the files behind each failing count and the lowest recalls.
        #[arg(long)]
        verbose: bool,
    },
    /// pagetext's text scored as article-extraction benchmarks score
    /// extractors (shingle F1, precision, recall), on a checkout of Zyte's
    /// article-extraction-benchmark (DIR, default corpus-extract/: html/,
    /// ground-truth.json, evaluate.py); the benchmark's own evaluate.py
    /// scores pagetext among the stored answers of the other extractors.
    ExtractBench {
        /// The benchmark's folder (default: corpus-extract/).
        #[arg(value_name = "DIR")]
        dir: Option<std::path::PathBuf>,
        /// Bootstrap samples for the confidence intervals (evaluate.py's
        /// --n-bootstrap).
        #[arg(long, default_value_t = 200)]
        bootstrap: u32,
        /// Also score Mozilla Readability's test pages: a folder of
        /// NAME/source.html and NAME/expected.html (readability's
        /// test/test-pages).
        #[arg(long, value_name = "DIR")]
        readability: Option<std::path::PathBuf>,
        /// Our own scores only (both sets), without evaluate.py's table.
        #[arg(long)]
        quick: bool,
    },
    /// How often the language detector names a page's language, and its
    /// cost next to the conversion: Debian's translated documentation in
    /// 14 languages (DIR, default corpus-lang/; --fetch fills it), and with
    /// --modern, the modern pages listed in testdata/lang/readability.txt.
    /// Fails under 95 % right or over 10 % of a conversion's time.
    Langid {
        /// The folder of translated documentation (default: corpus-lang/).
        #[arg(value_name = "DIR")]
        dir: Option<std::path::PathBuf>,
        /// Download and unpack the Debian packages into DIR first.
        #[arg(long)]
        fetch: bool,
        /// Also the modern pages of this folder (e.g. corpus-modern/).
        #[arg(long, value_name = "DIR")]
        modern: Option<std::path::PathBuf>,
    },
    /// Run the cargo-fuzz targets of fuzz/ (all, or those named), each for
    /// N seconds, seeded from testdata/; prints executions and crashes.
    Fuzz {
        /// How long to run each target.
        #[arg(long, default_value_t = 60)]
        seconds: u64,
        /// Only type-check and lint every target on stable (`cargo clippy
        /// --manifest-path fuzz/Cargo.toml`), as CI does; run nothing.
        #[arg(long, conflicts_with_all = ["seconds", "targets"])]
        check: bool,
        /// Targets to run: sniff, microsyntax, wikitext, htmlio, canon (all
        /// when none).
        targets: Vec<String>,
    },
    /// Tools for looking closely at conversions: a page's text and
    /// diagnostics, the parse tree of a text, where a round trip differs,
    /// the writer's complaints over a folder, and quick timings.
    Inspect {
        #[command(subcommand)]
        tool: inspect::Tool,
    },
    /// Generate the man pages of `pagetext` (clap_mangen) into target/man/.
    Man {
        /// Write the pages into this folder instead.
        #[arg(long, value_name = "DIR")]
        out: Option<std::path::PathBuf>,
    },
}

fn main() -> ExitCode {
    let xtask = Xtask::parse();
    let result = match xtask.command {
        Command::Snapshots { krate, review } => {
            snapshots::run(krate.as_deref(), review).map(|t| t.failed == 0)
        }
        Command::Conformance { verbose } => conformance::run(verbose).map(|t| t.failed == 0),
        Command::Bench {
            corpus,
            measurement_time,
            filter,
            crate_benches,
            report_only,
            skip_cli,
            out,
        } => bench::run(&bench::Options {
            corpus,
            measurement_time,
            filter,
            crate_benches,
            report_only,
            skip_cli,
            out,
        })
        .map(|()| true),
        Command::BenchGate { update } => bench_gate::run(update),
        Command::BenchCrawl {
            corpora,
            rounds,
            spark,
            no_install,
        } => crawl_bench::run(&crawl_bench::Options {
            corpora,
            rounds,
            spark,
            no_install,
        })
        .map(|()| true),
        Command::Ci => ci::run().map(|()| true),
        Command::EditorBundle => editor_bundle::check().map(|()| true),
        Command::Fuzz { check: true, .. } => fuzz::check().map(|()| true),
        Command::Fuzz {
            seconds, targets, ..
        } => fuzz::run(seconds, &targets).map(|runs| runs.iter().all(|r| !r.crashed)),
        Command::Inspect { tool } => inspect::run(tool),
        Command::Man { out } => man::run(out.as_deref()).map(|_| true),
        Command::ExtractBench {
            dir,
            bootstrap,
            readability,
            quick,
        } => {
            let dir = dir.unwrap_or_else(extract_bench::default_dir);
            let options = extract_bench::Options {
                bootstrap,
                readability,
                quick,
            };
            extract_bench::run(&dir, &options)
        }
        Command::Langid { dir, fetch, modern } => {
            let dir = dir.unwrap_or_else(langid::default_dir);
            let packages: Vec<String> = langid::PACKAGES.iter().map(|s| s.to_string()).collect();
            let fetched = if fetch {
                corpus::fetch(&dir, &packages)
            } else {
                Ok(())
            };
            fetched.and_then(|()| langid::run(&dir, modern.as_deref()))
        }
        Command::Corpus {
            dir,
            fetch,
            packages,
            verbose,
        } => {
            let dir = dir.unwrap_or_else(corpus::default_dir);
            let fetched = if fetch {
                corpus::fetch(&dir, &packages)
            } else {
                Ok(())
            };
            fetched.and_then(|()| corpus::run(&dir, verbose))
        }
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("xtask: {e:#}");
            ExitCode::FAILURE
        }
    }
}
