//! `cargo xtask fuzz [--seconds N] [TARGET...]`: runs the cargo-fuzz targets
//! of `fuzz/` (its own workspace) one after the other, each for N seconds,
//! seeded from `testdata/`, and prints one line per target with libFuzzer's
//! executions and whether it found a crash (left in `fuzz/artifacts/`).
//!
//! cargo-fuzz is installed from crates.io (`cargo install --locked
//! cargo-fuzz`) when missing. Its sanitizer flags are nightly features: on
//! the stable toolchain they are unlocked with `RUSTC_BOOTSTRAP=1`, for the
//! fuzz build only. The build goes to `target/fuzz/` (or
//! `$CARGO_TARGET_DIR/fuzz`).
//!
//! `cargo xtask fuzz --check` (and `cargo xtask ci`) only type-checks and
//! lints the targets on stable, without cargo-fuzz: seconds once the
//! dependencies are checked, so CI catches a target that no longer builds.

use std::process::{Command, Stdio};

use anyhow::{Context, bail};

use crate::util::{root, run_checked, target_dir};

/// The targets and the folders under `testdata/` that seed each.
const TARGETS: &[(&str, &[&str])] = &[
    ("sniff", &["sniff", "cli"]),
    ("microsyntax", &["microsyntax"]),
    ("wikitext", &["wikitext"]),
    ("htmlio", &["cli/site", "cli/demo", "sniff/pages", "xss"]),
    (
        "canon",
        &["cli/site", "cli/demo", "sniff/pages", "xss", "htmlio"],
    ),
    ("onto", &["cli/site", "cli/demo", "xss", "htmlio"]),
];

/// What one target's run gave.
#[derive(Debug)]
pub(crate) struct Run {
    /// The target.
    pub(crate) target: String,
    /// Inputs libFuzzer executed (its last `#N` line).
    pub(crate) executions: u64,
    /// Whether it stopped on a crash, a timeout or a leak.
    pub(crate) crashed: bool,
}

/// Type-checks every fuzz target, and lints it, on the stable toolchain
/// without cargo-fuzz and its sanitizer flags, so that a change to a
/// library's API cannot leave the targets broken until someone fuzzes.
/// `fuzz/` is its own workspace with its own `Cargo.lock`, used as
/// committed (`--locked`); the build goes to `target/fuzz-check/`, apart
/// from the fuzzing builds' `target/fuzz/`, whose flags differ.
pub(crate) fn check() -> anyhow::Result<()> {
    let manifest = root().join("fuzz").join("Cargo.toml");
    run_checked(
        crate::util::cargo()
            .args(["clippy", "--locked", "--bins", "--manifest-path"])
            .arg(&manifest)
            .arg("--target-dir")
            .arg(target_dir().join("fuzz-check"))
            .args(["--", "-D", "warnings"]),
        "cargo clippy --manifest-path fuzz/Cargo.toml --bins (when only fuzz/Cargo.lock is \
         stale, run it once without --locked and commit the lock file)",
    )
}

/// Runs `targets` (all when empty) for `seconds` each; returns the runs.
pub(crate) fn run(seconds: u64, targets: &[String]) -> anyhow::Result<Vec<Run>> {
    for t in targets {
        if !TARGETS.iter().any(|(name, _)| name == t) {
            let names: Vec<&str> = TARGETS.iter().map(|(n, _)| *n).collect();
            bail!("no fuzz target {t:?} (there are: {})", names.join(", "));
        }
    }
    ensure_cargo_fuzz()?;
    let fuzz_dir = root().join("fuzz");
    let target_dir = target_dir().join("fuzz");
    let mut runs = Vec::new();
    for (name, seeds) in TARGETS {
        if !targets.is_empty() && !targets.iter().any(|t| t == name) {
            continue;
        }
        let corpus = fuzz_dir.join("corpus").join(name);
        std::fs::create_dir_all(&corpus)
            .with_context(|| format!("cannot create {}", corpus.display()))?;
        let mut cmd = Command::new("cargo");
        cmd.current_dir(&fuzz_dir)
            .env("RUSTC_BOOTSTRAP", "1")
            .env("CARGO_TARGET_DIR", &target_dir)
            .args(["fuzz", "run", "-O", name])
            .arg(&corpus);
        for s in *seeds {
            let dir = root().join("testdata").join(s);
            if dir.is_dir() {
                cmd.arg(dir);
            }
        }
        cmd.args([
            "--",
            &format!("-max_total_time={seconds}"),
            "-rss_limit_mb=2048",
            "-max_len=65536",
            "-print_final_stats=1",
        ]);
        println!("\n==> fuzz {name} for {seconds} s");
        let out = cmd
            .stdout(Stdio::inherit())
            .stderr(Stdio::piped())
            .output()
            .with_context(|| format!("cannot start cargo fuzz run {name}"))?;
        let log = String::from_utf8_lossy(&out.stderr);
        let executions = log
            .lines()
            .filter_map(|l| l.strip_prefix("stat::number_of_executed_units:"))
            .filter_map(|n| n.trim().parse().ok())
            .next_back()
            .unwrap_or(0);
        let crashed = !out.status.success();
        if crashed {
            // Show the end of libFuzzer's report: the crash and its input.
            let tail: Vec<&str> = log.lines().rev().take(40).collect();
            for l in tail.iter().rev() {
                eprintln!("{l}");
            }
        }
        println!(
            "fuzz {name}: {executions} executions, {}",
            if crashed {
                "CRASHED (see fuzz/artifacts/)"
            } else {
                "no crash"
            }
        );
        runs.push(Run {
            target: (*name).to_owned(),
            executions,
            crashed,
        });
    }
    println!();
    for r in &runs {
        println!(
            "fuzz {}: {} executions, {}",
            r.target,
            r.executions,
            if r.crashed { "crashed" } else { "ok" }
        );
    }
    Ok(runs)
}

/// Installs cargo-fuzz from crates.io when it is missing.
fn ensure_cargo_fuzz() -> anyhow::Result<()> {
    let present = Command::new("cargo")
        .args(["fuzz", "--version"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !present {
        run_checked(
            Command::new("cargo").args(["install", "--locked", "cargo-fuzz"]),
            "cargo install --locked cargo-fuzz",
        )?;
    }
    Ok(())
}
