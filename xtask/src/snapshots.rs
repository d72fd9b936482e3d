//! `cargo xtask snapshots`: runs each crate's `tests/snapshots*.rs` (built on
//! `testkit::SnapshotSuite`) and sums up the summary lines they print.

use std::fs;
use std::process::Command;

use anyhow::Context;

use crate::util::{Totals, cargo, in_ci, root, run_streaming};

/// A crate that has snapshot test targets.
struct SnapshotCrate {
    /// Folder name under `crates/`.
    dir: String,
    /// Cargo package name.
    package: String,
    /// Its test targets named `snapshots*` (the files `tests/snapshots*.rs`).
    targets: Vec<String>,
}

fn discover() -> anyhow::Result<Vec<SnapshotCrate>> {
    let crates = root().join("crates");
    let mut found = Vec::new();
    for entry in fs::read_dir(&crates).with_context(|| format!("reading {}", crates.display()))? {
        let path = entry?.path();
        let mut targets: Vec<String> = fs::read_dir(path.join("tests"))
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|e| e.file_name().into_string().ok())
            .filter_map(|f| f.strip_suffix(".rs").map(str::to_owned))
            .filter(|stem| stem.starts_with("snapshots"))
            .collect();
        if targets.is_empty() {
            continue;
        }
        targets.sort();
        let manifest = fs::read_to_string(path.join("Cargo.toml"))
            .with_context(|| format!("reading {}/Cargo.toml", path.display()))?;
        let package = manifest
            .lines()
            .find_map(|l| l.trim().strip_prefix("name = "))
            .map(|v| v.trim_matches('"').to_owned())
            .with_context(|| format!("no package name in {}/Cargo.toml", path.display()))?;
        let dir = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        found.push(SnapshotCrate {
            dir,
            package,
            targets,
        });
    }
    found.sort_by(|a, b| a.dir.cmp(&b.dir));
    Ok(found)
}

/// Parses `snapshots SUITE: N cases, N passed, N failed, N new, N stale`.
fn parse_summary(line: &str) -> Option<[usize; 5]> {
    let rest = line.strip_prefix("snapshots ")?;
    let (_, counts) = rest.split_once(": ")?;
    let mut out = [0; 5];
    let mut parts = counts.split(", ");
    for (slot, word) in out
        .iter_mut()
        .zip(["cases", "passed", "failed", "new", "stale"])
    {
        let part = parts.next()?;
        let (n, w) = part.split_once(' ')?;
        if w != word {
            return None;
        }
        *slot = n.parse().ok()?;
    }
    Some(out)
}

/// Runs the suites (of one crate, if `only` is given) and prints the summary.
/// Passed/failed count cases; a suite that did not run at all counts as one failure.
pub(crate) fn run(only: Option<&str>, review: bool) -> anyhow::Result<Totals> {
    let crates = discover()?;
    if let Some(name) = only
        && !crates.iter().any(|c| c.dir == name)
    {
        let known: Vec<&str> = crates.iter().map(|c| c.dir.as_str()).collect();
        let known = if known.is_empty() {
            "none".to_owned()
        } else {
            known.join(", ")
        };
        anyhow::bail!("no snapshot suites in crate `{name}` (crates with suites: {known})");
    }
    let mut totals = Totals::default();
    let mut suites = 0;
    let mut not_green = Vec::new();
    for krate in crates.iter().filter(|c| only.is_none_or(|n| n == c.dir)) {
        let mut cmd = cargo();
        cmd.args(["test", "--quiet", "--package", &krate.package]);
        for target in &krate.targets {
            cmd.args(["--test", target]);
        }
        cmd.args(["--", "--nocapture", "--test-threads=1"])
            .env_remove("INSTA_FORCE_PASS");
        if in_ci() {
            cmd.env("INSTA_UPDATE", "no");
        }
        let mut seen = 0;
        let ok = run_streaming(&mut cmd, |line| {
            if let Some([_, passed, failed, new, stale]) = parse_summary(line) {
                seen += 1;
                totals.passed += passed;
                totals.failed += failed + new + stale;
            }
        })?;
        suites += seen;
        if !ok {
            not_green.push(krate.dir.clone());
            if seen == 0 {
                // It did not even get to print a summary (build error, panic in setup).
                totals.failed += 1;
            }
        }
    }
    println!(
        "snapshots: {suites} suites, {} passed, {} failed",
        totals.passed, totals.failed
    );
    if !not_green.is_empty() {
        println!("snapshots: not green in {}", not_green.join(", "));
        if totals.failed == 0 {
            totals.failed = not_green.len();
        }
    }
    if review {
        hand_over_to_review()?;
    }
    Ok(totals)
}

fn hand_over_to_review() -> anyhow::Result<()> {
    let has_insta = Command::new("cargo")
        .args(["insta", "--version"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_insta {
        println!(
            "cargo-insta is not installed; get it with `cargo install --locked cargo-insta`, \
             then run `cargo insta review` (or `cargo xtask snapshots --review`)"
        );
        return Ok(());
    }
    let status = cargo().args(["insta", "review"]).status()?;
    anyhow::ensure!(status.success(), "cargo insta review failed ({status})");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::parse_summary;

    #[test]
    fn reads_the_harness_summary_line() {
        assert_eq!(
            parse_summary("snapshots wikitext: 12 cases, 10 passed, 1 failed, 1 new, 0 stale"),
            Some([12, 10, 1, 1, 0])
        );
        assert_eq!(
            parse_summary("snapshots: 3 suites, 1 passed, 0 failed"),
            None
        );
        assert_eq!(parse_summary("test result: ok. 3 passed"), None);
    }
}
