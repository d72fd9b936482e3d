//! The editor's committed bundle (`crates/cli/src/edit/assets/editor.js`)
//! must be what its sources build: `npm ci` and `npm run build` in
//! `crates/cli/editor/`, into a temporary file, compared byte for byte.

use std::fs;
use std::process::Command;

use anyhow::{Context, bail};

use crate::util::{in_ci, root, run_checked, target_dir};

/// Rebuilds the bundle and compares it with the committed one. Without npm
/// it says so and passes, except under CI, where it fails.
pub(crate) fn check() -> anyhow::Result<()> {
    let dir = root().join("crates/cli/editor");
    let committed = root().join("crates/cli/src/edit/assets/editor.js");
    let npm = Command::new("npm")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !npm {
        if in_ci() {
            bail!(
                "npm is missing: CI needs Node.js and npm to rebuild the editor's bundle \
                 (crates/cli/editor)"
            );
        }
        println!("editor bundle: not checked, npm is missing (install Node.js and npm)");
        return Ok(());
    }
    run_checked(
        Command::new("npm")
            .args(["ci", "--no-audit", "--no-fund"])
            .current_dir(&dir),
        "npm ci in crates/cli/editor",
    )?;
    let out_dir = target_dir().join("editor-bundle");
    fs::create_dir_all(&out_dir).with_context(|| format!("creating {}", out_dir.display()))?;
    let built = out_dir.join("editor.js");
    let _ = fs::remove_file(&built);
    run_checked(
        Command::new("npm")
            .args(["run", "build", "--"])
            .arg(&built)
            .current_dir(&dir),
        "npm run build in crates/cli/editor",
    )?;
    let fresh = fs::read(&built).with_context(|| format!("reading {}", built.display()))?;
    let old = fs::read(&committed).with_context(|| format!("reading {}", committed.display()))?;
    if fresh != old {
        bail!(
            "the committed editor bundle is stale: {} ({} bytes) differs from what \
             crates/cli/editor builds ({} bytes); run `npm run build` in crates/cli/editor and commit",
            committed.display(),
            old.len(),
            fresh.len()
        );
    }
    println!("editor bundle: up to date ({} bytes)", old.len());
    Ok(())
}
