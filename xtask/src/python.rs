//! The Python package's tests for `cargo xtask ci`: a virtual environment in
//! `target/python-venv`, the package installed into it the way a user does
//! (`pip install ./crates/python`, which builds it with maturin), then
//! pytest on `crates/python/tests`.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::bail;

use crate::util::{Totals, root, run_checked, run_streaming, target_dir};

/// The virtual environment's Python.
fn venv_python() -> PathBuf {
    python_in(&root().join("target/python-venv"))
}

/// The Python of the virtual environment at `venv`.
pub(crate) fn python_in(venv: &Path) -> PathBuf {
    if cfg!(windows) {
        venv.join("Scripts/python.exe")
    } else {
        venv.join("bin/python")
    }
}

/// Builds the Python package from `crates/python` and installs it into the
/// environment of `python` (again, without its dependencies), built in the
/// workspace's target folder.
pub(crate) fn install_package(python: &Path) -> anyhow::Result<()> {
    run_checked(
        Command::new(python)
            .current_dir(root())
            .env("CARGO_TARGET_DIR", target_dir())
            .args([
                "-m",
                "pip",
                "install",
                "--quiet",
                "--force-reinstall",
                "--no-deps",
                "./crates/python",
            ]),
        "pip install ./crates/python",
    )
}

/// Builds and installs the package, runs pytest, and counts its results.
pub(crate) fn run() -> anyhow::Result<Totals> {
    let python = venv_python();
    if !python.exists() {
        let system = std::env::var_os("PYTHON").unwrap_or_else(|| "python3".into());
        run_checked(
            Command::new(system)
                .args(["-m", "venv"])
                .arg(root().join("target/python-venv")),
            "python3 -m venv target/python-venv",
        )?;
    }
    run_checked(
        Command::new(&python).args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--upgrade",
            "pip",
            "pytest",
        ]),
        "pip install pytest",
    )?;
    install_package(&python)?;
    let mut totals = Totals::default();
    let ok = run_streaming(
        Command::new(&python).current_dir(root()).args([
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "crates/python/tests",
        ]),
        |line| {
            if let Some((passed, failed, skipped)) = parse_summary(line) {
                totals.passed += passed;
                totals.failed += failed;
                totals.skipped += skipped;
            }
        },
    )?;
    if !ok || totals.failed > 0 {
        bail!(
            "the Python package's tests failed ({} failed)",
            totals.failed
        );
    }
    Ok(totals)
}

/// Reads pytest's last line: `11 passed in 0.48s`, `1 failed, 10 passed in 0.5s`.
fn parse_summary(line: &str) -> Option<(usize, usize, usize)> {
    let line = line.trim().trim_matches('=').trim();
    let (counts, _) = line.split_once(" in ")?;
    let (mut passed, mut failed, mut skipped, mut seen) = (0, 0, 0, false);
    for part in counts.split(", ") {
        let (n, word) = part.split_once(' ')?;
        let n: usize = n.parse().ok()?;
        seen = true;
        match word {
            "passed" => passed = n,
            "failed" | "error" | "errors" => failed += n,
            "skipped" => skipped = n,
            _ => {}
        }
    }
    seen.then_some((passed, failed, skipped))
}

#[cfg(test)]
mod tests {
    use super::parse_summary;

    #[test]
    fn reads_pytest_summaries() {
        assert_eq!(parse_summary("11 passed in 0.48s"), Some((11, 0, 0)));
        assert_eq!(
            parse_summary("== 1 failed, 10 passed in 0.50s =="),
            Some((10, 1, 0))
        );
        assert_eq!(parse_summary("2 errors in 0.1s"), Some((0, 2, 0)));
        assert_eq!(
            parse_summary("17 passed, 1 skipped in 1.43s"),
            Some((17, 0, 1))
        );
        assert_eq!(parse_summary("collected 11 items"), None);
    }
}
