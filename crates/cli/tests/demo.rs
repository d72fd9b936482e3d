//! The `demo` command runs the real binary and shows the bundled sample.

use std::process::Command;

#[test]
fn demo_shows_the_bundled_sample_and_says_what_is_missing() {
    let out = Command::new(env!("CARGO_BIN_EXE_pagetext"))
        .arg("demo")
        .output()
        .unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("#Title A Simple HTML Document"));
    assert!(stdout.contains("== [|inline|Inline Markup] =="));
    assert!(stdout.contains("not built yet"));
}

#[test]
fn unknown_commands_are_usage_errors() {
    let out = Command::new(env!("CARGO_BIN_EXE_pagetext"))
        .arg("no-such-command")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}
