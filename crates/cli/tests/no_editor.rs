//! A `pagetext` built without the `edit` feature
//! (`cargo test -p pagetext --no-default-features`): `pagetext edit` says
//! that this build has no editor and exits with 2 (a usage error, as for an
//! unknown command), and its help is the one clap renders from the shared
//! definition, as in every build. With the feature, this file holds no
//! test.

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
    // The binary's standard streams are no terminal, so clap wraps its help
    // at `COLUMNS` (capped at the definition's `max_term_width`, 100, which
    // is also the width without `COLUMNS`); both sides wrap at 100.
    let width = 100;
    let run = Command::new(env!("CARGO_BIN_EXE_pagetext"))
        .args(["edit", "--help"])
        .env("COLUMNS", width.to_string())
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0));
    assert!(
        run.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    // The help clap renders from the shared definition, named as the binary
    // names itself (`pagetext`, so the usage reads `pagetext edit`).
    let mut cli = pagetext::command().bin_name("pagetext");
    cli.build();
    let expected = cli
        .find_subcommand("edit")
        .expect("`edit` is defined")
        .clone()
        .term_width(width)
        .render_long_help()
        .to_string();
    assert!(expected.contains("--port"), "{expected}");
    assert_eq!(String::from_utf8_lossy(&run.stdout), expected);
}
