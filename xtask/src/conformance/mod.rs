//! `cargo xtask conformance`: the runner for peer test suites.
//!
//! A suite is registered by adding it to [`SUITES`]: a name and a function
//! that reads its data from the conformance folder and reports per case. The
//! runner prints `suite NAME: N passed, N failed` (and skipped cases with
//! their reasons), then the plain line `N passed, N failed` for all suites.

use std::path::{Path, PathBuf};

mod encoding;
mod serializer;

use crate::util::{Totals, in_ci, root};

/// What one suite found.
#[derive(Debug, Default)]
pub(crate) struct SuiteReport {
    pub(crate) passed: usize,
    /// One line per failing case: its name and what differed.
    pub(crate) failures: Vec<String>,
    /// Cases not run, each with the reason.
    pub(crate) skipped: Vec<(String, String)>,
}

/// A registered suite.
pub(crate) struct Suite {
    /// Shown in the summary line.
    pub(crate) name: &'static str,
    /// Runs the suite on the data under the conformance folder.
    pub(crate) run: fn(&Path) -> anyhow::Result<SuiteReport>,
}

/// Every registered suite, in the order they run.
const SUITES: &[Suite] = &[
    Suite {
        name: "encoding/tests1",
        run: encoding::tests1,
    },
    Suite {
        name: "encoding/tests2",
        run: encoding::tests2,
    },
    Suite {
        name: "encoding/test-yahoo-jp",
        run: encoding::yahoo_jp,
    },
    Suite {
        name: "encoding/scripted",
        run: encoding::scripted,
    },
    Suite {
        name: "serializer/core",
        run: serializer::core,
    },
    Suite {
        name: "serializer/optionaltags",
        run: serializer::optionaltags,
    },
    Suite {
        name: "serializer/options",
        run: serializer::options,
    },
    Suite {
        name: "serializer/whitespace",
        run: serializer::whitespace,
    },
    Suite {
        name: "serializer/injectmeta",
        run: serializer::injectmeta,
    },
];

/// The conformance data folder: `PAGETEXT_CONFORMANCE_DIR`, else `../shared/conformance`.
fn data_dir() -> PathBuf {
    match std::env::var_os("PAGETEXT_CONFORMANCE_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => root().join("../shared/conformance"),
    }
}

/// How many failing cases to show per suite without `--verbose`.
const SHOWN_FAILURES: usize = 10;

pub(crate) fn run(verbose: bool) -> anyhow::Result<Totals> {
    let dir = data_dir();
    if !dir.is_dir() {
        let msg = format!(
            "conformance data not found at {} (set PAGETEXT_CONFORMANCE_DIR to its folder)",
            dir.display()
        );
        anyhow::ensure!(!in_ci(), "{msg}; CI must have it");
        println!("{msg}: skipping the conformance suites");
        println!("0 passed, 0 failed");
        return Ok(Totals::default());
    }
    let mut totals = Totals::default();
    for suite in SUITES {
        let report = (suite.run)(&dir)
            .map_err(|e| e.context(format!("suite {} could not run", suite.name)))?;
        let shown = if verbose { usize::MAX } else { SHOWN_FAILURES };
        for failure in report.failures.iter().take(shown) {
            println!("  FAIL {}: {failure}", suite.name);
        }
        if report.failures.len() > shown {
            println!(
                "  ... and {} more (use --verbose)",
                report.failures.len() - shown
            );
        }
        for (case, why) in &report.skipped {
            println!("  skip {}: {case}: {why}", suite.name);
        }
        let skipped = if report.skipped.is_empty() {
            String::new()
        } else {
            format!(", {} skipped", report.skipped.len())
        };
        println!(
            "suite {}: {} passed, {} failed{skipped}",
            suite.name,
            report.passed,
            report.failures.len()
        );
        totals.passed += report.passed;
        totals.failed += report.failures.len();
        totals.skipped += report.skipped.len();
    }
    if SUITES.is_empty() {
        println!("conformance: no suites registered yet");
    }
    println!("{} passed, {} failed", totals.passed, totals.failed);
    Ok(totals)
}
