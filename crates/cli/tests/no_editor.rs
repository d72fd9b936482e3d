//! A `pagetext` built without the `edit` feature
//! (`cargo test -p pagetext --no-default-features`): `pagetext edit` says
//! that this build has no editor and exits with 2 (a usage error, as for an
//! unknown command), and its help is unchanged. With the feature, this file
//! holds no test.

#![cfg(not(feature = "edit"))]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::process::Command;

#[test]
fn edit_says_this_build_has_no_editor() {
    let dir = tempfile::tempdir().unwrap();
    let run = Command::new(env!("CARGO_BIN_EXE_pagetext"))
        .args(["edit", "--port", "0"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2));
    assert!(run.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        stderr.starts_with("pagetext: error: this build of pagetext has no editor"),
        "{stderr}"
    );
}

#[test]
fn edit_keeps_its_help() {
    let run = Command::new(env!("CARGO_BIN_EXE_pagetext"))
        .args(["edit", "--help"])
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&run.stdout).contains("--port"));
}
