//! `cargo xtask ci`: everything CI checks, in order, stopping at the first
//! failure with the step's name. Ends with one plain `ci: N passed, N failed`
//! line that adds up the unit tests, snapshot cases and conformance cases.

use std::process::Command;

use anyhow::bail;

use crate::util::{cargo, run_checked, run_streaming, target_dir};
use crate::{bench_gate, conformance, editor_bundle, fuzz, python, snapshots};

pub(crate) fn run() -> anyhow::Result<()> {
    step("cargo fmt --check");
    run_checked(
        cargo().args(["fmt", "--all", "--check"]),
        "cargo fmt --check (run `cargo fmt`)",
    )?;

    // The editor's CodeMirror bundle is committed; it must be what its
    // sources and lockfile build.
    step("the editor's bundle is current (npm ci, npm run build in crates/cli/editor, compared)");
    editor_bundle::check()?;

    step("cargo clippy");
    run_checked(
        cargo().args([
            "clippy",
            "--workspace",
            "--all-targets",
            "--",
            "-D",
            "warnings",
        ]),
        "cargo clippy --workspace --all-targets -- -D warnings",
    )?;

    // The editor is a default feature; a build without it must stay
    // clean and say that it has no editor.
    step("pagetext without the editor (--no-default-features)");
    run_checked(
        cargo().args([
            "clippy",
            "-p",
            "pagetext",
            "--no-default-features",
            "--all-targets",
            "--",
            "-D",
            "warnings",
        ]),
        "cargo clippy -p pagetext --no-default-features --all-targets -- -D warnings",
    )?;
    run_checked(
        cargo().args([
            "test",
            "-p",
            "pagetext",
            "--no-default-features",
            "--test",
            "no_editor",
        ]),
        "cargo test -p pagetext --no-default-features --test no_editor",
    )?;

    step("the fuzz targets compile (cargo clippy --manifest-path fuzz/Cargo.toml)");
    fuzz::check()?;

    // Tests note there what they skipped (a tool missing on this machine;
    // under CI a missing tool fails instead), for the last lines.
    let skip_log = target_dir().join("ci-skipped.log");
    let _ = std::fs::remove_file(&skip_log);
    step("cargo test --workspace");
    // libtest's result lines, added up over both test runs.
    let mut libtest = Libtest::default();
    let ok = run_streaming(
        cargo()
            .args(["test", "--workspace"])
            .env("PAGETEXT_SKIP_LOG", &skip_log),
        |line| libtest.add(line),
    )?;
    let failed = libtest.failed;
    if !ok || failed > 0 {
        bail!("cargo test --workspace failed ({failed} tests failed)");
    }

    // The hostile-input tests run at a tenth of their size in debug builds;
    // here they run at full size (10 MB lines, 100,000 levels), optimised.
    step("cargo test --release --test hostile (full size)");
    let ok = run_streaming(
        cargo().args([
            "test",
            "--release",
            "-p",
            "pagetext-sniff",
            "-p",
            "pagetext-wikitext",
            "-p",
            "pagetext-htmlio",
            "--test",
            "hostile",
        ]),
        |line| libtest.add(line),
    )?;
    let failed = libtest.failed;
    if !ok || failed > 0 {
        bail!("full-size hostile-input tests failed ({failed} tests failed)");
    }

    step("the Python package: pip install ./crates/python, pytest");
    let py = python::run()?;
    let passed = libtest.passed + py.passed;

    step("cargo xtask snapshots");
    let snaps = snapshots::run(None, false)?;
    if snaps.failed > 0 {
        bail!("snapshot suites failed: review with `cargo xtask snapshots --review`");
    }

    step("cargo xtask conformance");
    let conf = conformance::run(false)?;
    if conf.failed > 0 {
        bail!("conformance suites failed: see `cargo xtask conformance --verbose`");
    }

    // Instructions, not time: steady enough to gate on (runs differ by at
    // most 0.3 %), unlike timings on a shared machine. The bench profile
    // shares target/release with the release build of the hostile tests.
    step("instruction gate: cargo xtask bench-gate (callgrind; a pagetext path may grow 5 %)");
    if !bench_gate::run(false)? {
        bail!(
            "the instruction gate failed: see the table above; if the growth is wanted, \
             run `cargo xtask bench-gate --update` and commit testdata/bench/instructions.json"
        );
    }

    step("cargo deny check bans licenses sources");
    ensure_cargo_deny()?;
    run_checked(
        cargo().args(["deny", "--locked", "check", "bans", "licenses", "sources"]),
        "cargo deny check bans licenses sources",
    )?;

    println!(
        "\nci: all steps passed (unit and doc tests {passed}, snapshot cases {}, conformance cases {})",
        snaps.passed, conf.passed
    );
    println!(
        "ci: {} passed, 0 failed",
        passed + snaps.passed + conf.passed
    );
    say_skipped(&skip_log, libtest.ignored, py.skipped, conf);
    Ok(())
}

/// The last lines: what did not run, and why (nothing, under CI).
fn say_skipped(
    skip_log: &std::path::Path,
    ignored: usize,
    py_skipped: usize,
    conf: crate::util::Totals,
) {
    let log = std::fs::read_to_string(skip_log).unwrap_or_default();
    let lines = skipped_lines(&log, ignored, py_skipped, conf);
    if lines.is_empty() {
        println!("ci: nothing skipped");
    } else {
        for line in lines {
            println!("ci: skipped: {line}");
        }
    }
}

/// What [`say_skipped`] says, one line each: the ignored Rust tests,
/// pytest's skips, the conformance cases not run, and the notes tests left
/// in the skip log (each once, with how many tests left it).
fn skipped_lines(
    log: &str,
    ignored: usize,
    py_skipped: usize,
    conf: crate::util::Totals,
) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    if ignored > 0 {
        lines.push(format!(
            "{ignored} Rust test{} marked #[ignore] (run them with `cargo test -- --ignored`)",
            if ignored == 1 { "" } else { "s" }
        ));
    }
    if py_skipped > 0 {
        lines.push(format!(
            "{py_skipped} Python test{} skipped (see pytest's -rs; the Spark example's test needs pyspark and warcio)",
            if py_skipped == 1 { "" } else { "s" }
        ));
    }
    if conf.passed + conf.failed == 0 {
        lines.push(
            "the conformance suites: no data (see PAGETEXT_CONFORMANCE_DIR above)".to_owned(),
        );
    } else if conf.skipped > 0 {
        lines.push(format!(
            "{} conformance cases (listed above with their reasons)",
            conf.skipped
        ));
    }
    // The tests' own notes, each once, with how often it came.
    let mut notes: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
    for line in log.lines().filter(|l| !l.trim().is_empty()) {
        *notes.entry(line.trim()).or_default() += 1;
    }
    for (note, n) in notes {
        lines.push(if n == 1 {
            note.to_owned()
        } else {
            format!("{note} ({n} tests)")
        });
    }
    lines
}

fn step(name: &str) {
    println!("\n==> {name}");
}

/// Installs cargo-deny from crates.io when it is missing.
fn ensure_cargo_deny() -> anyhow::Result<()> {
    let present = Command::new("cargo")
        .args(["deny", "--version"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !present {
        println!(
            "cargo-deny is missing: installing it with `cargo install --locked cargo-deny` \
             (a build of about four minutes, once)"
        );
        run_checked(
            Command::new("cargo").args(["install", "--locked", "cargo-deny"]),
            "cargo install --locked cargo-deny",
        )?;
    }
    Ok(())
}

/// Reads libtest's `test result: ok. 12 passed; 0 failed; ...` line.
/// libtest's counts, added up over its result lines.
#[derive(Debug, Default)]
struct Libtest {
    passed: usize,
    failed: usize,
    ignored: usize,
}

impl Libtest {
    fn add(&mut self, line: &str) {
        if let Some((p, f, i)) = parse_test_result(line) {
            self.passed += p;
            self.failed += f;
            self.ignored += i;
        }
    }
}

/// A libtest result line's passed, failed and ignored counts.
fn parse_test_result(line: &str) -> Option<(usize, usize, usize)> {
    let rest = line.trim().strip_prefix("test result: ")?;
    let (_, counts) = rest.split_once(". ")?;
    let mut passed = None;
    let mut failed = None;
    let mut ignored = 0;
    for part in counts.split("; ") {
        let (n, word) = part.split_once(' ')?;
        match word {
            "passed" => passed = n.parse().ok(),
            "failed" => failed = n.parse().ok(),
            "ignored" => ignored = n.parse().unwrap_or(0),
            _ => {}
        }
    }
    Some((passed?, failed?, ignored))
}

#[cfg(test)]
mod tests {
    use super::{parse_test_result, skipped_lines};
    use crate::util::Totals;

    #[test]
    fn the_last_lines_say_what_was_skipped() {
        let conf = Totals {
            passed: 300,
            failed: 0,
            skipped: 0,
        };
        assert!(skipped_lines("", 0, 0, conf).is_empty());
        let log = "DTD validation SKIPPED: needs xmllint\nDTD validation SKIPPED: needs xmllint\nbrowser test skipped: no chromium\n";
        assert_eq!(
            skipped_lines(log, 2, 1, Totals::default()),
            [
                "2 Rust tests marked #[ignore] (run them with `cargo test -- --ignored`)",
                "1 Python test skipped (see pytest's -rs; the Spark example's test needs pyspark and warcio)",
                "the conformance suites: no data (see PAGETEXT_CONFORMANCE_DIR above)",
                "DTD validation SKIPPED: needs xmllint (2 tests)",
                "browser test skipped: no chromium",
            ]
        );
    }

    #[test]
    fn reads_libtest_result_lines() {
        assert_eq!(
            parse_test_result(
                "test result: ok. 12 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.01s"
            ),
            Some((12, 0, 1))
        );
        assert_eq!(
            parse_test_result("test result: FAILED. 3 passed; 2 failed; 0 ignored"),
            Some((3, 2, 0))
        );
        assert_eq!(parse_test_result("running 3 tests"), None);
    }
}
