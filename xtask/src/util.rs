//! Small helpers shared by the subcommands.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context, bail};

/// The workspace root (the folder above `xtask/`).
pub(crate) fn root() -> PathBuf {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    here.parent().unwrap_or(here).to_path_buf()
}

/// The target folder cargo uses from the workspace root.
pub(crate) fn target_dir() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) if !dir.is_empty() => {
            let dir = PathBuf::from(dir);
            if dir.is_absolute() {
                dir
            } else {
                root().join(dir)
            }
        }
        _ => root().join("target"),
    }
}

/// Whether we run under CI (the `CI` variable is set to anything but `false`/empty).
pub(crate) fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0")
}

/// Whether a measurement should run again from a release build: this
/// xtask was built for debugging, and `variable` (set to measure a debug
/// build on purpose) is not set.
pub(crate) fn wants_release(variable: &str) -> bool {
    cfg!(debug_assertions) && std::env::var_os(variable).is_none()
}

/// Runs this same command again from a release build of xtask, so that
/// times mean something. `--fetch` is left out: what it fetched is there
/// now.
pub(crate) fn rerun_in_release() -> anyhow::Result<bool> {
    let status = cargo()
        .args(["run", "--quiet", "--release", "--package", "xtask", "--"])
        .args(std::env::args_os().skip(1).filter(|a| a != "--fetch"))
        .status()
        .context("starting the release build of xtask")?;
    Ok(status.success())
}

/// A `cargo` command run from the workspace root.
pub(crate) fn cargo() -> Command {
    let mut cmd = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    cmd.current_dir(root());
    cmd
}

/// Runs `cmd`, echoing its stdout line by line and handing each line to
/// `on_line`; stderr goes straight to ours. Returns whether it succeeded.
pub(crate) fn run_streaming(
    cmd: &mut Command,
    mut on_line: impl FnMut(&str),
) -> anyhow::Result<bool> {
    let shown = format!("{cmd:?}");
    let mut child = cmd
        .stdout(Stdio::piped())
        .spawn()
        .with_context(|| format!("cannot start {shown}"))?;
    if let Some(out) = child.stdout.take() {
        for line in BufReader::new(out).lines() {
            let line = line.context("reading the output of a child process")?;
            println!("{line}");
            on_line(&line);
        }
    }
    let status = child
        .wait()
        .with_context(|| format!("waiting for {shown}"))?;
    Ok(status.success())
}

/// Runs `cmd` with inherited output and fails with `what` if it fails.
pub(crate) fn run_checked(cmd: &mut Command, what: &str) -> anyhow::Result<()> {
    let status = cmd
        .status()
        .with_context(|| format!("cannot start {what}"))?;
    if !status.success() {
        bail!("{what} failed ({status})");
    }
    Ok(())
}

/// Counts for a summary line.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Totals {
    pub(crate) passed: usize,
    pub(crate) failed: usize,
    /// Tests that did not run (pytest's skipped ones).
    pub(crate) skipped: usize,
}
