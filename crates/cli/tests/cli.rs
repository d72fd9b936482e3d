//! Integration tests: the real `pagetext` binary, run in scratch copies of
//! `testdata/cli/`, with insta snapshots of exit status, stdout and stderr.

// Test code: a failed setup step is a failed test, with its backtrace.
#![allow(clippy::unwrap_used)]

mod common;

#[path = "../../../testdata/sniff/byte_cases.rs"]
mod byte_cases;

use std::fs;
use std::path::PathBuf;

use common::{Run, Scratch, pagetext};

#[test]
fn normalising_replaces_scratch_paths_and_timings() {
    let run = Run {
        code: Some(0),
        stdout: "/nowhere/a {\"a\":1,\"timings\":{\"read_ms\":0.1},\"b\":2}\n".to_string(),
        stderr: "pagetext: 1 file (0 failed), 1 B in 0.01 s (0.1 MB/s, 100 pages/s, \
                 100 pages/s per core on 1 worker), 0 warnings, 0 errors"
            .to_string(),
        scratch: PathBuf::from("/nowhere"),
    };
    assert_eq!(
        run.render(),
        "exit: 0\n--- stdout\n[TMP]/a {\"a\":1,\"timings\":{[TIMINGS]},\"b\":2}\n--- stderr\n\
         pagetext: 1 file (0 failed), 1 B in [TIME] s ([RATES]), 0 warnings, 0 errors\n[no newline at end]\n"
    );
}

// ---------------------------------------------------------------- usage

#[test]
fn help_teaches_with_examples() {
    let s = Scratch::empty();
    snap!("help", s.run(&["--help"]));
    snap!("help_short", s.run(&["-h"]));
    for command in [
        "to-text",
        "to-html",
        "fmt",
        "check",
        "sniff",
        "micro",
        "demo",
        "edit",
        "completions",
    ] {
        snap!(format!("help_{command}"), s.run(&[command, "--help"]));
    }
}

#[test]
fn version() {
    let run = Scratch::empty().run(&["--version"]);
    assert_eq!(run.code, Some(0));
    assert_eq!(
        run.stdout,
        format!("pagetext {}\n", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn usage_errors_exit_with_2() {
    let s = Scratch::empty();
    snap!("usage_no_command", s.run(&[]));
    snap!("usage_unknown_command", s.run(&["frobnicate"]));
    snap!("usage_unknown_flag", s.run(&["to-text", "--frob"]));
    snap!(
        "usage_bad_charset",
        s.run(&["to-text", "--charset", "klingon"])
    );
    snap!(
        "usage_utf16_output",
        s.run(&["to-html", "--encoding", "utf-16le"])
    );
    snap!("usage_jobs_zero", s.run(&["to-text", "-j", "0"]));
    snap!(
        "usage_omit_without_html",
        s.run(&["to-html", "--omit-optional-tags"])
    );
    snap!(
        "usage_fmt_check_in_place",
        s.run(&["fmt", "--check", "--in-place", "a.txt"])
    );
    snap!(
        "usage_in_place_to_text",
        s.run(&["to-text", "--in-place", "a.html"])
    );
    snap!("usage_quiet_verbose", s.run(&["-q", "-v", "demo"]));
    snap!("usage_sniff_needs_files", s.run(&["sniff"]));
    snap!(
        "usage_micro_unknown_algorithm",
        s.run(&["micro", "number", "1"])
    );
}

// ---------------------------------------------------------------- completions

#[test]
fn completions_for_every_shell() {
    let s = Scratch::empty();
    for (shell, marker) in [
        ("bash", "_pagetext()"),
        ("zsh", "#compdef pagetext"),
        ("fish", "complete -c pagetext"),
        ("elvish", "edit:completion:arg-completer[pagetext]"),
        ("powershell", "Register-ArgumentCompleter"),
    ] {
        let run = s.run(&["completions", shell]);
        assert_eq!(run.code, Some(0), "{shell}: {}", run.stderr);
        assert!(run.stdout.contains(marker), "{shell}: no {marker:?}");
        assert!(run.stdout.contains("to-text"), "{shell}: no subcommands");
        assert!(run.stderr.is_empty());
    }
    snap!("completions_unknown_shell", s.run(&["completions", "tcsh"]));
}

// ---------------------------------------------------------------- sniff

#[test]
fn sniff_reports_encoding_confidence_and_source() {
    let s = Scratch::new();
    snap!(
        "sniff_files",
        s.run(&[
            "sniff",
            "site/index.html",
            "site/about/team.htm",
            "sjis.html",
            "bom.html",
            "nometa.html"
        ])
    );
    snap!(
        "sniff_json",
        s.run(&[
            "sniff",
            "--json",
            "site/index.html",
            "site/about/team.htm",
            "sjis.html",
            "bom.html",
            "nometa.html"
        ])
    );
    snap!(
        "sniff_content_type",
        s.run(&[
            "sniff",
            "--content-type",
            "text/html; charset=KOI8-R",
            "site/about/team.htm",
            "bom.html"
        ])
    );
    snap!(
        "sniff_stdin",
        s.run_with_stdin(&["sniff", "-"], Some(b"<meta charset=euc-jp><p>x"))
    );
}

/// A path that cannot be read gets one error and the others go on. A file
/// of binary data (`garbage.html`, a PNG) is no bad path for `sniff`: the
/// algorithm has an answer for any bytes, given with a note.
#[test]
fn sniff_bad_paths_each_get_one_message_and_the_others_go_on() {
    let s = Scratch::new();
    snap!(
        "sniff_bad_paths",
        s.run(&["sniff", "missing.html", "site", "garbage.html", "bom.html"])
    );
    snap!(
        "sniff_bad_paths_json",
        s.run(&[
            "sniff",
            "--json",
            "missing.html",
            "site",
            "garbage.html",
            "bom.html"
        ])
    );
}

/// `--default-encoding` (what a browser would assume, in place of
/// autodetection) and `--rules seed2007` (the 2007 draft's sniffing), on
/// `sniff`, `to-text` and `check`; a page with NUL bytes is read, not
/// refused as binary.
#[test]
fn sniff_choices_a_user_needs() {
    let s = Scratch::new();
    snap!(
        "sniff_choices",
        s.run(&[
            "sniff",
            "--json",
            "nodecl-1251.html",
            "seedmeta.html",
            "nometa.html",
            "nul.html",
            "bom.html"
        ])
    );
    snap!(
        "sniff_choices_default_encoding",
        s.run(&[
            "sniff",
            "--json",
            "--default-encoding",
            "windows-1251",
            "nodecl-1251.html",
            "seedmeta.html",
            "nometa.html",
            "bom.html"
        ])
    );
    snap!(
        "sniff_choices_seed2007",
        s.run(&[
            "sniff",
            "--rules",
            "seed2007",
            "seedmeta.html",
            "nodecl-1251.html"
        ])
    );
    snap!(
        "sniff_choices_to_text",
        s.run(&[
            "to-text",
            "--default-encoding",
            "windows-1251",
            "nodecl-1251.html"
        ])
    );
    snap!(
        "sniff_choices_check_seed2007",
        s.run(&["check", "--rules", "seed2007", "seedmeta.html"])
    );
    snap!("sniff_choices_nul", s.run(&["to-text", "nul.html"]));
    // The XML declaration decides when no <meta> does; UTF-16 without a
    // byte order mark is read when the transport says what it is.
    snap!(
        "sniff_choices_xml_and_utf16",
        s.run(&["sniff", "--json", "xmldecl-1251.html", "utf16-nobom.html"])
    );
    snap!(
        "sniff_choices_utf16_to_text",
        s.run(&["to-text", "--charset", "utf-16le", "utf16-nobom.html"])
    );
}

#[cfg(unix)]
#[test]
fn sniff_symlink_loop() {
    let s = Scratch::empty();
    std::os::unix::fs::symlink("loop.html", s.join("loop.html")).unwrap();
    snap!("sniff_symlink_loop", s.run(&["sniff", "loop.html"]));
}

// ---------------------------------------------------------------- demo

#[test]
fn demo_shows_the_bundled_page() {
    snap!("demo", Scratch::empty().run(&["demo"]));
}

// ---------------------------------------------------------------- pipes

#[test]
fn a_closed_stdout_ends_the_run_quietly() {
    for args in [
        &["demo"][..],
        &["completions", "bash"],
        &["sniff", "bom.html"],
        &["-q", "to-text", "demo/chorale.html"],
        &["-q", "to-html", "--json", "text"],
        &["micro", "date", "2004-06-30"],
    ] {
        let s = Scratch::new();
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let mut cmd = pagetext();
        cmd.args(args).current_dir(s.path());
        cmd.stdout(writer).stderr(std::process::Stdio::piped());
        let out = cmd.output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&out.stderr), "", "{args:?}");
    }
}

// ---------------------------------------------------------------- to-html

#[test]
fn to_html_prints_one_file() {
    let s = Scratch::new();
    snap!("to_html_stdout", s.run(&["to-html", "text/sample.txt"]));
    snap!(
        "to_html_verbose",
        s.run(&["-v", "to-html", "text/notes/meeting.txt"])
    );
}

#[test]
fn to_html_output_options() {
    let s = Scratch::new();
    snap!(
        "to_html_encoding",
        s.run(&[
            "-v",
            "to-html",
            "--encoding",
            "koi8-r",
            "text/notes/meeting.txt"
        ])
    );
    snap!(
        "to_html_html_syntax",
        s.run(&["to-html", "--html", "text/notes/meeting.txt"])
    );
    snap!(
        "to_html_omit_optional_tags",
        s.run(&[
            "to-html",
            "--html",
            "--omit-optional-tags",
            "text/notes/meeting.txt"
        ])
    );
}

#[test]
fn to_html_reports_diagnostics_with_source_lines() {
    let s = Scratch::new();
    snap!(
        "to_html_header_typos",
        s.run(&["to-html", "text/header-typos.txt"])
    );
    snap!("to_html_bad_utf8", s.run(&["to-html", "text/bad-utf8.txt"]));
    snap!(
        "to_html_quiet",
        s.run(&["-q", "to-html", "text/header-typos.txt"])
    );
    snap!(
        "to_html_color",
        s.run(&["--color", "always", "to-html", "text/bad-utf8.txt"])
    );
}

#[test]
fn strict_turns_losses_into_failures() {
    let s = Scratch::new();
    snap!(
        "to_html_strict",
        s.run(&[
            "to-html",
            "--strict",
            "text/header-typos.txt",
            "-o",
            "out.html"
        ])
    );
    assert!(
        !s.join("out.html").exists(),
        "a failed input must not be written"
    );
    snap!(
        "to_html_strict_clean",
        s.run(&["to-html", "--strict", "text/sample.txt", "-o", "out.html"])
    );
    assert!(s.join("out.html").exists());
}

#[test]
fn standard_input_is_dash_or_nothing() {
    let s = Scratch::new();
    let text = b"#Title From stdin\n\nHello _there_.\n";
    let dash = s.run_with_stdin(&["to-html", "-"], Some(text));
    let nothing = s.run_with_stdin(&["to-html"], Some(text));
    assert_eq!(dash.stdout, nothing.stdout);
    snap!("to_html_stdin", dash);
    snap!(
        "to_html_stdin_twice",
        s.run_with_stdin(&["to-html", "-", "-", "--json"], Some(text))
    );
}

#[test]
fn to_html_writes_one_file_with_o() {
    let s = Scratch::new();
    let printed = s.run(&["to-html", "text/sample.txt"]).stdout;
    snap!(
        "to_html_o_file",
        s.run(&["to-html", "text/sample.txt", "-o", "sample.html"])
    );
    assert_eq!(s.read("sample.html"), printed);
    // Parent directories of -o FILE are not created: a typo should not
    // silently make a tree.
    snap!(
        "to_html_o_file_missing_dir",
        s.run(&["to-html", "text/sample.txt", "-o", "no/such/dir/x.html"])
    );
}

#[test]
fn to_html_mirrors_a_directory_into_o_dir() {
    let s = Scratch::new();
    snap!(
        "to_html_o_dir",
        s.run(&["-v", "to-html", "text", "-o", "www", "-j", "2"])
    );
    let files: Vec<String> = s
        .files()
        .into_iter()
        .filter(|f| f.starts_with("www"))
        .collect();
    assert_eq!(
        files,
        [
            "www/bad-utf8.html",
            "www/header-typos.html",
            "www/messy.html",
            "www/notes/meeting.html",
            "www/sample.html"
        ]
    );
    let single = s.run(&["to-html", "text/notes/meeting.txt"]).stdout;
    assert_eq!(s.read("www/notes/meeting.html"), single);
    // A second run into the same directory replaces the files.
    let again = s.run(&["-q", "to-html", "text", "-o", "www/"]);
    assert_eq!((again.code, again.stderr.as_str()), (Some(0), ""));
}

#[test]
fn to_html_json_objects_per_input() {
    let s = Scratch::new();
    snap!(
        "to_html_json_dir",
        s.run(&["to-html", "--json", "text", "-o", "www", "-j", "1"])
    );
    snap!(
        "to_html_json_stdout",
        s.run(&["to-html", "--json", "text/header-typos.txt"])
    );
}

#[test]
fn parallel_runs_give_the_same_results_in_the_same_order() {
    let s = Scratch::new();
    let one = s.run(&["to-html", "--json", "-j", "1", "text"]);
    let four = s.run(&["to-html", "--json", "-j", "4", "text"]);
    assert_eq!(one.render(), four.render());
    assert_eq!(one.stdout.lines().count(), 5);
}

/// The summary line of a run's standard error (after the diagnostics).
fn summary_line(stderr: &str) -> &str {
    stderr
        .lines()
        .rfind(|line| line.starts_with("pagetext: ") && line.contains(" per core on "))
        .unwrap()
}

/// The inputs and the workers of a run's summary line (`pagetext: 5 files
/// ... on 2 workers), ...`).
fn inputs_and_workers(stderr: &str) -> (usize, usize) {
    let line = summary_line(stderr);
    let number = |text: &str| text.split(' ').next().unwrap().parse().unwrap();
    let inputs = number(line.strip_prefix("pagetext: ").unwrap());
    let (_, tail) = line.split_once(" per core on ").unwrap();
    (inputs, number(tail))
}

#[test]
fn directories_default_to_one_worker_per_core_and_j_1_to_one() {
    let s = Scratch::new();
    // Five inputs: one worker per core, as many as there are inputs.
    let cores = std::env::var("RAYON_NUM_THREADS")
        .ok()
        .and_then(|n| n.parse().ok())
        .filter(|&n: &usize| n > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().unwrap().get());
    for command in ["to-html", "to-text"] {
        let dir = if command == "to-html" { "text" } else { "site" };
        let default = s.run(&[command, dir, "-o", "out-default"]);
        assert_eq!(default.code, Some(0), "{}", default.stderr);
        let (inputs, workers) = inputs_and_workers(&default.stderr);
        assert!(inputs >= 2, "{}", default.stderr);
        assert_eq!(workers, cores.min(inputs), "{}", default.stderr);
        let one = s.run(&[command, dir, "-o", "out-one", "-j", "1"]);
        assert_eq!(one.code, Some(0), "{}", one.stderr);
        assert_eq!(
            inputs_and_workers(&one.stderr),
            (inputs, 1),
            "{}",
            one.stderr
        );
        assert!(summary_line(&one.stderr).contains(" pages/s per core on 1 worker), "));
        // More workers than inputs: only as many as there are inputs work.
        let many = s.run(&[command, dir, "-o", "out-many", "-j", "64"]);
        assert_eq!(
            inputs_and_workers(&many.stderr),
            (inputs, inputs),
            "{}",
            many.stderr
        );
    }
}

#[test]
fn output_planning_refusals_are_usage_errors() {
    let s = Scratch::new();
    snap!("plan_many_without_o", s.run(&["to-html", "text"]));
    snap!(
        "plan_into_input_tree",
        s.run(&["to-html", "text", "-o", "text/html"])
    );
    snap!(
        "plan_over_the_input",
        s.run(&[
            "to-html",
            "text/sample.txt",
            "-o",
            "text/../text/sample.txt"
        ])
    );
    snap!(
        "plan_file_where_dir_needed",
        s.run(&["to-html", "text", "-o", "text/sample.txt"])
    );
    snap!(
        "plan_stdin_into_dir",
        s.run_with_stdin(
            &["to-html", "-", "text/sample.txt", "-o", "www"],
            Some(b"x\n")
        )
    );
    assert!(!s.join("text/html").exists());
}

#[test]
fn a_failing_input_never_stops_the_others() {
    let s = Scratch::new();
    s.write("junk.txt", b"\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00");
    snap!(
        "to_html_mixed_failures",
        s.run(&[
            "to-html",
            "missing.txt",
            "junk.txt",
            "site",
            "text/sample.txt",
            "-o",
            "out"
        ])
    );
    // site/ holds one .txt file: walked, converted (with its warnings).
    assert_eq!(
        s.files()
            .into_iter()
            .filter(|f| f.starts_with("out/"))
            .collect::<Vec<_>>(),
        ["out/notes.html", "out/sample.html"]
    );
}

#[test]
fn empty_directories_say_what_was_looked_for() {
    let s = Scratch::new();
    fs::create_dir(s.join("empty")).unwrap();
    snap!(
        "to_html_empty_dir",
        s.run(&["to-html", "empty", "-o", "out"])
    );
}

#[cfg(unix)]
#[test]
fn symlink_loops_in_a_walk_are_reported_and_skipped() {
    let s = Scratch::new();
    std::os::unix::fs::symlink("..", s.join("text/notes/up")).unwrap();
    std::os::unix::fs::symlink("self.txt", s.join("text/self.txt")).unwrap();
    snap!(
        "to_html_symlink_loops",
        s.run(&["to-html", "text", "-o", "www"])
    );
    assert!(s.join("www/notes/meeting.html").exists());
}

#[cfg(target_os = "linux")]
#[test]
fn a_full_disk_is_an_error_naming_the_path() {
    let s = Scratch::new();
    snap!(
        "to_html_dev_full",
        s.run(&["to-html", "text/sample.txt", "-o", "/dev/full"])
    );
    // The device is written, never replaced.
    assert!(!fs::metadata("/dev/full").unwrap().is_file());
}

/// A full standard output is a failed run (1), not a usage error (2), and
/// says in one line what failed.
#[cfg(target_os = "linux")]
#[test]
fn a_full_standard_output_exits_with_1() {
    for args in [
        &["to-text", "demo/chorale.html"][..],
        &["to-html", "--json", "text/sample.txt"],
        &["sniff", "bom.html"],
        &["demo"],
        &["completions", "bash"],
        &["micro", "date", "2004-06-30"],
    ] {
        let s = Scratch::new();
        let mut cmd = pagetext();
        cmd.arg("-q").args(args).current_dir(s.path());
        cmd.stdout(fs::File::create("/dev/full").unwrap())
            .stderr(std::process::Stdio::piped());
        let out = cmd.output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert_eq!(
            err, "pagetext: error: writing standard output: no space left on device\n",
            "{args:?}"
        );
    }
}

/// With standard error gone (a full disk behind `2>file`), nothing can be
/// said, but the run still ends with the exit code that says what happened,
/// never a panic.
#[test]
fn a_full_standard_error_changes_no_exit_code() {
    for (args, code) in [
        (&["to-text", "demo/chorale.html", "-o", "out"][..], 0),
        (&["to-text", "no-such-file.html"], 1),
        (&["to-text", "-j", "2", "demo", "-o", "out2"], 0),
        (&["to-html", "--bogus"], 2),
        (&["micro", "no-such-algorithm", "x"], 2),
    ] {
        let s = Scratch::new();
        let out = pagetext()
            .args(args)
            .current_dir(s.path())
            .stderr(fs::File::create("/dev/full").unwrap())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(code), "{args:?}");
    }
}

/// A large text document (well over any block size), so that a file size
/// limit of one block interrupts its writing.
fn large_text() -> String {
    let mut text = String::from("#Title Large\n\n");
    for i in 0..400 {
        text.push_str(&format!("Paragraph {i} with _some_ *markup* in it.\n\n"));
    }
    text
}

/// Runs pagetext under `ulimit -f 1` with SIGXFSZ ignored: every write past
/// the first block fails with EFBIG, as on a full disk, even for root.
#[cfg(unix)]
fn run_with_file_size_limit(s: &Scratch, args: &[&str]) -> Run {
    let mut cmd = std::process::Command::new("sh");
    cmd.arg("-c")
        .arg("trap '' XFSZ; ulimit -f 1; exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_pagetext"))
        .args(args)
        .current_dir(s.path())
        .env("TERM", "dumb");
    common::run_command(cmd, None, s.path())
}

#[cfg(unix)]
#[test]
fn an_interrupted_write_keeps_the_old_file_and_leaves_no_partial_one() {
    let s = Scratch::empty();
    s.write("big.txt", large_text());
    s.write("big.html", "the previous output\n");
    let before = s.files();
    let run = run_with_file_size_limit(&s, &["to-html", "big.txt", "-o", "big.html"]);
    snap!("to_html_interrupted_write", run);
    assert_eq!(s.read("big.html"), "the previous output\n");
    assert_eq!(s.files(), before, "no temporary file may be left behind");
    // Without the limit the same run succeeds.
    let run = s.run(&["-q", "to-html", "big.txt", "-o", "big.html"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(s.read("big.html").contains("Paragraph 399"));
}

/// A temporary name as pagetext makes them (`.pagetext-`, 16 random letters
/// and digits, `.tmp`): what a run killed in the middle of a write leaves.
const LEFTOVER: &str = ".pagetext-k1LL3dM1dWr1t3Ab.tmp";

#[test]
fn the_next_run_removes_the_temporary_files_of_a_killed_one() {
    let s = Scratch::new();
    s.write(&format!("text-out/{LEFTOVER}"), "half a page");
    s.write(&format!("text-out/news/{LEFTOVER}"), "half a page");
    // Kept: not unmistakably pagetext's, or not where this run writes.
    s.write("text-out/.pagetext-backup.tmp", "the user's own");
    s.write("text-out/.pagetext-aB3dE6.tmp", "too short to be sure");
    s.write(&format!("text-out/old/{LEFTOVER}"), "not written into");
    s.write(&format!("site/{LEFTOVER}"), "an input directory");
    snap!(
        "to_text_leftovers",
        s.run(&["to-text", "site", "-o", "text-out"])
    );
    let left: Vec<String> = s
        .files()
        .into_iter()
        .filter(|f| f.contains(".pagetext-"))
        .collect();
    assert_eq!(
        left,
        [
            format!("site/{LEFTOVER}"),
            "text-out/.pagetext-aB3dE6.tmp".to_string(),
            "text-out/.pagetext-backup.tmp".to_string(),
            format!("text-out/old/{LEFTOVER}"),
        ]
    );
    assert!(s.join("text-out/news/2009.txt").exists());
    // Nothing more to remove, nothing said.
    let again = s.run(&["to-text", "site", "-o", "text-out"]);
    assert_eq!(again.code, Some(0), "{}", again.stderr);
    assert!(!again.stderr.contains("leftover"), "{}", again.stderr);
}

#[test]
fn fmt_in_place_removes_the_temporary_files_next_to_its_inputs() {
    let s = Scratch::new();
    s.write(&format!("text/{LEFTOVER}"), "half a text");
    s.write(&format!("text/notes/{LEFTOVER}"), "not written into");
    let run = s.run(&["fmt", "--in-place", "text/messy.txt"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.stderr
            .starts_with("pagetext: removed 1 leftover temporary file from an interrupted run\n"),
        "{}",
        run.stderr
    );
    assert!(!s.join(&format!("text/{LEFTOVER}")).exists());
    assert!(s.join(&format!("text/notes/{LEFTOVER}")).exists());
    // -q: removed all the same, without a word.
    s.write(&format!("text/{LEFTOVER}"), "half a text");
    let run = s.run(&["-q", "fmt", "-i", "text/messy.txt"]);
    assert_eq!((run.code, run.stderr.as_str()), (Some(0), ""));
    assert!(!s.join(&format!("text/{LEFTOVER}")).exists());
}

// ---------------------------------------------------------------- micro

#[test]
fn micro_shows_validity_and_value() {
    let s = Scratch::empty();
    snap!("micro_integer", s.run(&["micro", "integer", "  -42abc"]));
    snap!("micro_negative_value", s.run(&["micro", "integer", "-5"]));
    snap!(
        "micro_after_double_dash",
        s.run(&["micro", "float", "--", "-1.5e3"])
    );
    snap!("micro_seed", s.run(&["micro", "--seed", "float", "+1.5"]));
    snap!(
        "micro_in_content",
        s.run(&[
            "micro",
            "--in-content",
            "date-or-time",
            " 2004-06-30T12:00Z"
        ])
    );
}

#[test]
fn micro_json_is_one_line_per_the_contract() {
    let s = Scratch::empty();
    for (name, args) in [
        (
            "micro_json_date",
            &["micro", "--json", "date", "2004-06-30"][..],
        ),
        (
            "micro_json_dimension",
            &["micro", "--json", "dimension", "50%"],
        ),
        (
            "micro_json_tokens",
            &["micro", "--json", "tokens", " a  b c "],
        ),
        (
            "micro_json_invalid",
            &["micro", "--json", "week", "2004-W54"],
        ),
        (
            "micro_json_global",
            &[
                "micro",
                "--json",
                "global-date-time",
                "2004-06-30T12:00+02:00",
            ],
        ),
    ] {
        let run = s.run(args);
        assert_eq!(run.stdout.lines().count(), 1, "{name}");
        let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
        let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
        let mut want = ["algorithm", "input", "valid", "value", "error"];
        want.sort_unstable();
        let mut keys = keys;
        keys.sort_unstable();
        assert_eq!(keys, want, "{name}");
        snap!(name, run);
    }
}

#[test]
fn micro_url() {
    let s = Scratch::empty();
    // The seed's own example (seed 002 §2.5.3 step 8).
    snap!(
        "micro_url_seed_example",
        s.run(&[
            "micro",
            "--seed",
            "url",
            "--base",
            "http://x/",
            "//example.com/a^b☺c%FFd%z/?e"
        ])
    );
    // Without a base, the steps that need none (6-9 and 13).
    snap!(
        "micro_url_seed_example_alone",
        s.run(&[
            "micro",
            "--json",
            "--seed",
            "url",
            "//example.com/a^b☺c%FFd%z/?e"
        ])
    );
    // Backslashes: the URL Standard and the seed (steps 8 and 13).
    snap!(
        "micro_url_backslashes",
        s.run(&["micro", "url", "http:\\\\example.com\\path"])
    );
    snap!(
        "micro_url_backslashes_seed",
        s.run(&[
            "micro",
            "--seed",
            "url",
            "--base",
            "http://a/",
            "http:\\\\example.com\\path"
        ])
    );
    // IDNA (step 7).
    snap!(
        "micro_url_idna",
        s.run(&[
            "micro",
            "--seed",
            "url",
            "--base",
            "http://a/",
            "http://bücher.example/"
        ])
    );
    // RFC 3986 §5.4.1.
    snap!(
        "micro_url_base",
        s.run(&["micro", "url", "--base", "http://a/b/c/d;p?q", "../g"])
    );
    snap!(
        "micro_url_invalid",
        s.run(&["micro", "--seed", "url", "a b:c"])
    );
    let run = s.run(&[
        "micro",
        "--json",
        "url",
        "--base",
        "http://a/b/c/d;p?q",
        "g?y#s",
    ]);
    assert_eq!(run.code, Some(0));
    let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(v["value"]["href"], "http://a/b/c/g?y#s");
    assert_eq!(v["error"], serde_json::Value::Null);
    snap!("micro_json_url", run);
    let run = s.run(&["micro", "--json", "url", "g"]);
    assert_eq!(run.code, Some(1));
    let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(v["value"], serde_json::Value::Null);
    assert!(v["error"].is_string());
    snap!("micro_json_url_invalid", run);
    // --base is for url only.
    snap!(
        "micro_base_without_url",
        s.run(&["micro", "--base", "http://a/", "date", "2004-06-30"])
    );
}

#[test]
fn micro_variants_that_do_not_exist_are_usage_errors() {
    let s = Scratch::empty();
    snap!(
        "micro_no_seed_variant",
        s.run(&["micro", "--seed", "ratio", "1/2"])
    );
    snap!(
        "micro_no_content_variant",
        s.run(&["micro", "--in-content", "date", "x"])
    );
    snap!(
        "micro_no_seed004_variant",
        s.run(&["micro", "--seed004", "date", "2004-06-30"])
    );
}

#[test]
fn micro_seed004_picks_the_2007_draft() {
    let s = Scratch::empty();
    // Seed 004's integers have no "+" either; its floats read "5." as valid.
    snap!(
        "micro_seed004_float",
        s.run(&["micro", "--seed004", "--json", "float", "5."])
    );
    snap!(
        "micro_seed004_integer",
        s.run(&["micro", "--seed004", "integer", "+5"])
    );
    let both = s.run(&["micro", "--seed", "--seed004", "integer", "1"]);
    assert_eq!(both.code, Some(2), "{both:?}");
}

#[test]
fn micro_reaches_the_rest_of_the_library() {
    let s = Scratch::empty();
    snap!(
        "micro_enumerated",
        s.run(&[
            "micro",
            "--json",
            "--keywords",
            "true,,false",
            "--invalid-default",
            "inherit",
            "enumerated",
            "yes"
        ])
    );
    snap!(
        "micro_boolean",
        s.run(&["micro", "--attribute", "checked", "boolean", "false"])
    );
    snap!(
        "micro_remove_token",
        s.run(&["micro", "--json", "--token", "b", "remove-token", " b a b "])
    );
    snap!(
        "micro_compatibility_caseless",
        s.run(&[
            "micro",
            "--json",
            "--other",
            "straße",
            "compatibility-caseless",
            "STRASSE"
        ])
    );
    snap!(
        "micro_json_floats",
        s.run(&["micro", "--json", "floats", "1.5, 2e1;x3 abc"])
    );
    snap!(
        "micro_json_hash_name",
        s.run(&["micro", "--json", "hash-name-reference", "#map1"])
    );
    snap!(
        "micro_json_positive",
        s.run(&["micro", "--json", "positive-non-zero-integer", "0"])
    );
    snap!(
        "micro_missing_option",
        s.run(&["micro", "enumerated", "ltr"])
    );
    snap!(
        "micro_stray_option",
        s.run(&["micro", "--token", "a", "integer", "1"])
    );
}

#[test]
fn micro_living_standard_rules() {
    let s = Scratch::empty();
    snap!(
        "micro_json_month_five_digit_year",
        s.run(&["micro", "--json", "month", "20133-12"])
    );
    snap!(
        "micro_json_date_five_digit_year",
        s.run(&["micro", "--json", "date", "12014-09-29"])
    );
    snap!(
        "micro_json_dimension_point_percent",
        s.run(&["micro", "--json", "dimension", "200.%"])
    );
    snap!(
        "micro_json_dimension_plus",
        s.run(&["micro", "--json", "dimension", "+1"])
    );
    snap!(
        "micro_json_float_overflow",
        s.run(&["micro", "--json", "float", "2e308"])
    );
}

#[test]
fn micro_stdin_is_the_value_byte_for_byte() {
    let s = Scratch::empty();
    snap!(
        "micro_stdin_nul_newline",
        s.run_with_stdin(
            &["micro", "--json", "--stdin", "tokens"],
            Some(b"a\0b\nc\n")
        )
    );
    snap!(
        "micro_stdin_text",
        s.run_with_stdin(&["micro", "--stdin", "integer"], Some(b"\x007\n"))
    );
    snap!(
        "micro_stdin_not_utf8",
        s.run_with_stdin(&["micro", "--stdin", "tokens"], Some(b"a\xffb"))
    );
    snap!(
        "micro_stdin_and_value",
        s.run_with_stdin(&["micro", "--stdin", "tokens", "x"], Some(b"y"))
    );
}

// ---------------------------------------------------------------- fmt

#[test]
fn fmt_prints_the_canonical_text() {
    let s = Scratch::new();
    snap!("fmt_stdout", s.run(&["fmt", "text/messy.txt"]));
    let canonical = s.run(&["fmt", "text/notes/meeting.txt"]);
    assert_eq!(canonical.stdout, s.read("text/notes/meeting.txt"));
    snap!(
        "fmt_o_file",
        s.run(&["fmt", "text/messy.txt", "-o", "clean.txt"])
    );
    assert_eq!(
        s.read("clean.txt"),
        s.run(&["fmt", "text/messy.txt"]).stdout
    );
    // Canonical text is a fixpoint.
    let again = s.run(&["fmt", "clean.txt"]);
    assert_eq!(again.stdout, s.read("clean.txt"));
}

#[test]
fn fmt_check_lists_what_is_not_canonical() {
    let s = Scratch::new();
    snap!("fmt_check_dir", s.run(&["fmt", "--check", "text"]));
    snap!(
        "fmt_check_clean",
        s.run(&["fmt", "--check", "text/notes/meeting.txt"])
    );
    snap!(
        "fmt_check_json",
        s.run(&[
            "fmt",
            "--check",
            "--json",
            "text/messy.txt",
            "text/notes/meeting.txt"
        ])
    );
    assert_eq!(s.files(), Scratch::new().files(), "--check writes nothing");
}

#[test]
fn fmt_in_place_rewrites_only_what_is_not_canonical() {
    let s = Scratch::new();
    let expected = s.run(&["fmt", "text/messy.txt"]).stdout;
    let untouched = fs::metadata(s.join("text/notes/meeting.txt"))
        .unwrap()
        .modified()
        .unwrap();
    snap!("fmt_in_place", s.run(&["-v", "fmt", "--in-place", "text"]));
    assert_eq!(s.read("text/messy.txt"), expected);
    let after = fs::metadata(s.join("text/notes/meeting.txt"))
        .unwrap()
        .modified()
        .unwrap();
    assert_eq!(untouched, after, "a canonical file is not rewritten");
    // The two files whose rewrite would lose text were left alone; the
    // rest is canonical now.
    let original = Scratch::new();
    for kept in ["text/bad-utf8.txt", "text/header-typos.txt"] {
        assert_eq!(s.read(kept), original.read(kept));
    }
    let check = s.run(&["-q", "fmt", "--check", "text"]);
    assert_eq!(check.stdout, "text/bad-utf8.txt\ntext/header-typos.txt\n");
    snap!(
        "fmt_in_place_stdin",
        s.run_with_stdin(&["fmt", "-i", "-"], Some(b"x\n"))
    );
}

#[cfg(unix)]
#[test]
fn fmt_in_place_writes_through_symbolic_links() {
    let s = Scratch::new();
    std::os::unix::fs::symlink("text/messy.txt", s.join("link.txt")).unwrap();
    let run = s.run(&["-q", "fmt", "-i", "link.txt"]);
    assert_eq!(run.code, Some(0), "{}", run.render());
    assert!(
        fs::symlink_metadata(s.join("link.txt"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(
        s.read("text/messy.txt")
            .starts_with("#Title Messy but valid\n")
    );
}

#[cfg(unix)]
#[test]
fn an_interrupted_in_place_rewrite_keeps_the_original() {
    let s = Scratch::empty();
    let original = large_text().replace("\n\n", "\n\n\n");
    s.write("big.txt", &original);
    let run = run_with_file_size_limit(&s, &["fmt", "--in-place", "big.txt"]);
    snap!("fmt_interrupted_in_place", run);
    assert_eq!(s.read("big.txt"), original, "the original must survive");
    assert_eq!(
        s.files(),
        ["big.txt"],
        "no temporary file may be left behind"
    );
}

// ---------------------------------------------------------------- check

#[test]
fn check_reports_diagnostics_only() {
    let s = Scratch::new();
    snap!("check_text_dir", s.run(&["check", "text"]));
    snap!(
        "check_strict",
        s.run(&[
            "check",
            "--strict",
            "text/header-typos.txt",
            "text/sample.txt"
        ])
    );
    snap!(
        "check_json",
        s.run(&["check", "--json", "text/bad-utf8.txt"])
    );
    snap!(
        "check_stdin",
        s.run_with_stdin(&["check"], Some(b"#Title x\n#Bogus y\n\nText.\n"))
    );
    assert_eq!(s.files(), Scratch::new().files(), "check writes nothing");
}

/// `check --links DIR`: links between a site's text and HTML pages that
/// point to a missing file or a missing anchor, with page, line and
/// column, as lines or JSON; the run fails when one is broken, and a site
/// whose links all work passes.
#[test]
fn check_links_of_a_site() {
    let s = Scratch::empty();
    s.write(
        "site/index.txt",
        "#Title Home\n\n= [|top|Home] =\n\nSee [guide/a.html#setup||setup], [guide/a.html#nothing||nothing],\n[gone.txt||a page that is gone] and [https://example.org/#x||elsewhere].\n",
    );
    s.write(
        "site/guide/a.html",
        "<!DOCTYPE html><title>A</title><h2 id=setup>Setup</h2><p><a href=../index.txt#top>home</a> <a href=../index.txt#bottom>end</a> <a href=./>here</a></p>",
    );
    s.write("site/guide/index.html", "<title>Guide</title><p>Guide.</p>");
    let run = s.run(&["check", "--links", "site"]);
    assert_eq!(run.code, Some(1), "broken links fail the run");
    assert_eq!(
        run.stdout.lines().collect::<Vec<_>>(),
        [
            "site/guide/a.html:1: broken link ../index.txt#bottom: index.txt has no anchor \"bottom\"",
            "site/index.txt:5:34: broken link guide/a.html#nothing: guide/a.html has no anchor \"nothing\"",
            "site/index.txt:6:1: broken link gone.txt: no such file in the site: gone.txt",
        ]
    );
    assert!(
        run.stderr
            .contains("3 page(s), 6 link(s) within the site checked, 3 broken"),
        "{}",
        run.stderr
    );

    let json = s.run(&["check", "--links", "--json", "site"]);
    let first: serde_json::Value =
        serde_json::from_str(json.stdout.lines().next().unwrap_or_default())
            .expect("one JSON object per line");
    assert_eq!(first["url"], "../index.txt#bottom");
    assert_eq!(first["line"], 1);

    s.write(
        "site/index.txt",
        "#Title Home\n\n[guide/a.html#setup||setup]\n",
    );
    s.write("site/guide/a.html", "<h2 id=setup>Setup</h2>");
    let fixed = s.run(&["check", "--links", "site"]);
    assert_eq!(fixed.code, Some(0), "{}", fixed.stderr);
    assert!(fixed.stdout.is_empty());

    let not_a_folder = s.run(&["check", "--links", "site/index.txt"]);
    assert_ne!(not_a_folder.code, Some(0));
    assert!(
        not_a_folder.stderr.contains("is not a folder"),
        "{}",
        not_a_folder.stderr
    );
}

/// `check` on text hints at near misses (an uneven heading, a
/// link with a space in its URL, rule 3 on one side of a pair, a term's
/// last line without `::`, three spaces inside a sentence), and the lines
/// whose markup is right draw nothing.
#[test]
fn check_hints() {
    let s = Scratch::new();
    // Notes (`-v`) for the hints whose shape real text often has on purpose.
    snap!(
        "check_hints",
        s.run(&["-v", "check", "links/near-misses.txt"])
    );
}

/// Relative links resolve against `--base` (per page below a
/// directory), and `check` finds same-document links without an anchor.
#[test]
fn links_keep_pointing_where_they_did() {
    let s = Scratch::new();
    snap!(
        "links_base",
        s.run(&[
            "to-text",
            "--base",
            "https://example.com/site/links/page.html",
            "links/page.html"
        ])
    );
    snap!("links_no_base", s.run(&["to-text", "links/page.html"]));
    snap!(
        "links_base_directory",
        s.run(&[
            "-v",
            "check",
            "--from",
            "html",
            "--base",
            "https://example.com/site/links",
            "links"
        ])
    );
    snap!("links_dangling", s.run(&["check", "links/dangling.txt"]));
    // The emulated table as a real table, on request.
    snap!(
        "to_html_tables",
        s.run(&["to-html", "--tables", "links/table.txt"])
    );
    // The XHTML 1.0 Transitional DOCTYPE, on request; never with --html.
    snap!(
        "to_html_doctype",
        s.run(&["to-html", "--doctype", "links/table.txt"])
    );
    snap!(
        "to_html_doctype_with_html",
        s.run(&["to-html", "--doctype", "--html", "links/table.txt"])
    );
    snap!(
        "links_base_refused",
        s.run(&["to-text", "--base", "docs/page.html", "links/page.html"])
    );
}

// ---------------------------------------------------------------- to-text

#[test]
fn to_text_prints_one_page() {
    let s = Scratch::new();
    snap!("to_text_stdout", s.run(&["to-text", "demo/chorale.html"]));
    snap!(
        "to_text_verbose",
        s.run(&["-v", "to-text", "site/about/team.htm"])
    );
}

/// A page with `links` javascript: links (each an unsafe-link warning) and
/// one empty link (an empty-url warning) among them.
fn page_of_unsafe_links(links: usize) -> String {
    let mut page = String::from("<title>Links</title>\n");
    for i in 1..=links {
        page.push_str(&format!(
            "<p><a href=\"javascript:go({i})\">Link {i}</a></p>\n"
        ));
        if i == 2 {
            page.push_str("<p><a href=\"\">Empty</a></p>\n");
        }
    }
    page
}

#[test]
fn many_diagnostics_of_one_kind_are_summarised_unless_verbose() {
    let s = Scratch::empty();
    s.write("links.html", page_of_unsafe_links(6));
    // The first 3 unsafe links in full, then one line for the other 3; the
    // empty link in its place; the summary line counts all 7.
    snap!(
        "to_text_many_of_one_kind",
        s.run(&["to-text", "links.html"])
    );
    // -v lists every one.
    snap!(
        "to_text_many_of_one_kind_verbose",
        s.run(&["-v", "to-text", "links.html"])
    );
    // JSON lists every one: machines read it.
    let run = s.run(&["check", "--json", "links.html"]);
    let record: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let codes: Vec<&str> = record["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    assert_eq!(
        codes,
        [
            "encoding",
            "unsafe-link",
            "unsafe-link",
            "empty-url",
            "unsafe-link",
            "unsafe-link",
            "unsafe-link",
            "unsafe-link"
        ]
    );
}

#[test]
fn the_count_of_the_rest_is_per_input_and_has_thousands_separated() {
    let s = Scratch::empty();
    s.write("a/links.html", page_of_unsafe_links(1_366));
    s.write("a/few.html", page_of_unsafe_links(4));
    let run = s.run(&["check", "-j", "1", "a"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let counts: Vec<&str> = run
        .stderr
        .lines()
        .filter(|l| l.contains("more like this"))
        .collect();
    assert_eq!(
        counts,
        [
            "a/few.html: … and 1 more like this (warning[unsafe-link]); -v lists them all",
            "a/links.html: … and 1,363 more like this (warning[unsafe-link]); -v lists them all",
        ],
        "{}",
        run.stderr
    );
    // 3 + 3 unsafe links and 2 empty ones in full: 8 source lines shown.
    let snippets = run.stderr.lines().filter(|l| l.contains("| <p>")).count();
    assert_eq!(snippets, 8, "{}", run.stderr);
    // The summary counts every diagnostic.
    assert!(
        run.stderr.trim_end().ends_with(", 1372 warnings, 0 errors"),
        "{}",
        run.stderr
    );
    let verbose = s.run(&["-v", "check", "-j", "1", "a"]);
    let snippets = verbose
        .stderr
        .lines()
        .filter(|l| l.contains("| <p>"))
        .count();
    assert_eq!(snippets, 1_372, "{}", verbose.stderr);
    assert!(
        !verbose.stderr.contains("more like this"),
        "{}",
        verbose.stderr
    );
}

#[test]
fn to_text_mirrors_a_site_into_o_dir() {
    let s = Scratch::new();
    snap!(
        "to_text_o_dir",
        s.run(&["-v", "to-text", "site", "-o", "text-out"])
    );
    let files: Vec<String> = s
        .files()
        .into_iter()
        .filter(|f| f.starts_with("text-out"))
        .collect();
    // .html, .htm and .xhtml become .txt; hidden directories, images and
    // text files are not inputs.
    assert_eq!(
        files,
        [
            "text-out/about/team.txt",
            "text-out/index.txt",
            "text-out/news/2009.txt"
        ]
    );
    insta::with_settings!({prepend_module_to_snapshot => false, omit_expression => true}, {
        insta::assert_snapshot!("to_text_o_dir_index", s.read("text-out/index.txt"));
    });
}

#[test]
fn to_text_charset_and_links_options() {
    let s = Scratch::new();
    snap!(
        "to_text_charset",
        s.run(&["to-text", "--charset", "koi8-r", "site/about/team.htm"])
    );
    snap!(
        "to_text_keep_unsafe_links",
        s.run(&["to-text", "--keep-unsafe-links", "site/about/team.htm"])
    );
    snap!(
        "to_text_strict",
        s.run(&["to-text", "--strict", "site", "-o", "out"])
    );
    assert!(
        !s.join("out/about/team.txt").exists(),
        "a failed input is not written"
    );
    assert!(s.join("out/index.txt").exists(), "the others are");
}

/// The byte-level cases of web-platform-tests (`html/syntax/xmldecl`,
/// `encoding`) and of jsdom's sniffer (`testdata/sniff/byte_cases.rs`)
/// through `pagetext sniff --json`, with the suite's parent encoding as
/// `--default-encoding` and its `Content-Type` as `--content-type`: every
/// one has an answer (never an error), the encoding browsers read it in,
/// and a note exactly when most of its bytes are control bytes (the NUL
/// padding of the `-trail` files, UTF-32).
#[test]
fn sniff_answers_every_byte_case_as_browsers_do() {
    let s = Scratch::empty();
    let cases = byte_cases::cases();
    // One run per choice of flags, over all the cases that share it.
    let mut runs: std::collections::BTreeMap<(&str, Option<&str>), Vec<usize>> =
        std::collections::BTreeMap::new();
    for (i, case) in cases.iter().enumerate() {
        s.write(&format!("case-{i:03}.htm"), &case.bytes);
        runs.entry((case.default, case.content_type))
            .or_default()
            .push(i);
    }
    let mut failures = Vec::new();
    for ((default, content_type), indexes) in runs {
        let files: Vec<String> = indexes.iter().map(|i| format!("case-{i:03}.htm")).collect();
        let mut args = vec!["sniff", "--json", "--default-encoding", default];
        if let Some(value) = content_type {
            args.extend(["--content-type", value]);
        }
        args.extend(files.iter().map(String::as_str));
        let run = s.run(&args);
        assert_eq!(run.code, Some(0), "{}", run.render());
        let lines: Vec<&str> = run.stdout.lines().collect();
        assert_eq!(lines.len(), indexes.len(), "{}", run.render());
        for (line, &i) in lines.iter().zip(&indexes) {
            let case = &cases[i];
            let json: serde_json::Value = serde_json::from_str(line).unwrap();
            assert_eq!(json["path"], format!("case-{i:03}.htm"));
            let expected = case.parsed.unwrap_or(case.expected);
            if json["encoding"] != expected {
                failures.push(format!("{}: expected {expected}, got {line}", case.name));
            }
            // The note: most of the first 8192 bytes are C0 controls (but
            // tab, LF, FF, CR, ESC) or DEL, and the answer is not UTF-16.
            let probe = &case.bytes[..case.bytes.len().min(8192)];
            let control = probe
                .iter()
                .filter(|&&b| {
                    (b < 0x20 && !matches!(b, b'\t' | b'\n' | 0x0C | b'\r' | 0x1B)) || b == 0x7F
                })
                .count();
            let utf16 = matches!(json["encoding"].as_str(), Some("UTF-16LE" | "UTF-16BE"));
            let binary = probe.len() >= 32 && control * 2 > probe.len() && !utf16;
            if json.get("note").is_some() != binary {
                failures.push(format!("{}: a note expected: {binary}; {line}", case.name));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases fail:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

/// A page padded with NUL bytes is converted, with a warning that says how
/// much of it is control bytes, in the text output and in `--json`; the
/// user's `--charset` decides its encoding. Files with a binary signature
/// (PNG, gzip, ELF) are still refused, their kind named.
#[test]
fn mostly_control_bytes_is_a_warning_and_a_signature_a_refusal() {
    let s = Scratch::empty();
    let padded = [
        b"<meta charset=windows-1251><title>\xcf\xf0\xe8\xe2\xe5\xf2</title><p>Text.</p>\n"
            .as_slice(),
        &[0; 8192],
    ]
    .concat();
    s.write("padded.html", &padded);
    let short = [&padded[..padded.len() - 8192], &[0; 64]].concat();
    s.write("short.html", &short);
    snap!("control_bytes_to_text", s.run(&["to-text", "short.html"]));
    let json = s.run(&["to-text", "--json", "padded.html"]);
    assert_eq!(json.code, Some(0), "{}", json.render());
    let record: serde_json::Value = serde_json::from_str(json.stdout.trim()).unwrap();
    assert_eq!(record["result"], "ok");
    assert_eq!(record["encoding"], "windows-1251");
    let warning = &record["diagnostics"][0];
    assert_eq!(warning["code"], "control-bytes");
    assert_eq!(warning["severity"], "warning");
    let control = 8192 - (padded.len() - 8192);
    assert!(
        warning["message"]
            .as_str()
            .unwrap()
            .contains(&format!("{control} of the first 8192 bytes")),
        "{warning}"
    );
    // `check` says the same; `--strict` makes the warning fail the file.
    let check = s.run(&["check", "padded.html"]);
    assert_eq!(check.code, Some(0), "{}", check.render());
    assert!(
        check.stderr.contains("warning[control-bytes]"),
        "{}",
        check.stderr
    );
    assert_eq!(s.run(&["check", "--strict", "padded.html"]).code, Some(1));
    // The user's charset wins over the `<meta>`, padding or not.
    let forced = s.run(&["to-text", "--json", "--charset", "koi8-r", "padded.html"]);
    let record: serde_json::Value = serde_json::from_str(forced.stdout.trim()).unwrap();
    assert_eq!(record["encoding"], "KOI8-R", "{}", forced.render());
    // Known signatures: refused by to-text and check, named.
    s.write("image.html", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x10");
    s.write("archive.html", b"\x1f\x8b\x08\0\0\0\0\0\0\x03<html>");
    s.write(
        "program.html",
        b"\x7fELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x02\0>\0",
    );
    snap!(
        "binary_signatures_to_text",
        s.run(&[
            "to-text",
            "image.html",
            "archive.html",
            "program.html",
            "-o",
            "out"
        ])
    );
    let check = s.run(&["check", "image.html", "archive.html", "program.html"]);
    assert_eq!(check.code, Some(1));
    for kind in ["a PNG image", "gzip-compressed data", "an ELF executable"] {
        assert!(check.stderr.contains(kind), "{}", check.stderr);
    }
    // `sniff` answers for them all, with a note.
    snap!(
        "binary_signatures_sniff",
        s.run(&[
            "sniff",
            "padded.html",
            "image.html",
            "archive.html",
            "program.html"
        ])
    );
}

/// The wrong command for an input is refused with the one that fits it,
/// before anything is written (it used to "succeed": an empty XHTML page
/// with a warning per line, or the text escaped as a page's words).
#[test]
fn the_wrong_command_for_an_input_names_the_right_one() {
    let s = Scratch::new();
    s.write(
        "page.html",
        "<!DOCTYPE html>\n<html><body><p>Hi</p></body></html>\n",
    );
    s.write(
        "xhtml.html",
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<html xmlns=\"http://www.w3.org/1999/xhtml\"><body><p>Hi</p></body></html>\n",
    );
    s.write("notes.txt", "#Title Notes\n\nSome words.\n");
    s.write("crawl.warc", "WARC/1.0\r\nWARC-Type: warcinfo\r\n\r\n");
    s.write("crawl.warc.gz", b"\x1f\x8b\x08\0\0\0\0\0\0\x03");
    for (args, says) in [
        (
            &["to-html", "page.html"][..],
            "`pagetext to-text` turns a page into text",
        ),
        (
            &["to-html", "xhtml.html"][..],
            "this is HTML (it starts with <html)",
        ),
        (
            &["to-text", "notes.txt"][..],
            "`pagetext to-html` turns it into XHTML",
        ),
        (
            &["to-text", "crawl.warc"][..],
            "`pagetext to-text --warc FILE`",
        ),
        (
            &["to-text", "crawl.warc.gz"][..],
            "`pagetext to-text --warc FILE`",
        ),
    ] {
        let run = s.run(args);
        assert_eq!(run.code, Some(1), "{args:?}: {}", run.render());
        assert!(run.stderr.contains(says), "{args:?}: {}", run.stderr);
        assert!(run.stdout.is_empty(), "{args:?}: {}", run.render());
    }
    // The right commands take them.
    assert_eq!(s.run(&["to-text", "page.html"]).code, Some(0));
    assert_eq!(s.run(&["to-html", "notes.txt"]).code, Some(0));
}

/// A walk says what it passed over that may be pages, and `--ext` takes
/// them (a .php page and an extensionless `index` were skipped in silence).
#[test]
fn a_walk_says_what_it_passed_over_and_ext_takes_it() {
    let s = Scratch::empty();
    s.write("w/a.html", "<p>a");
    s.write("w/sub/page.php", "<p>b");
    s.write("w/index", "<p>c");
    s.write("w/logo.png", "x");
    let run = s.run(&["to-text", "w", "-o", "out"]);
    assert_eq!(run.code, Some(0), "{}", run.render());
    assert!(
        run.stderr
            .contains("passed over files that may be pages: 1 without an extension, 1 .php"),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains(".png"), "{}", run.stderr);
    let ext = s.run(&["to-text", "w", "-o", "out2", "--ext", ".PHP"]);
    assert_eq!(ext.code, Some(0), "{}", ext.render());
    assert!(
        s.path().join("out2/sub/page.txt").exists(),
        "{}",
        ext.render()
    );
    assert!(
        ext.stderr.contains("pages: 1 without an extension ("),
        "{}",
        ext.stderr
    );
}

/// Every JSON-lines output escapes U+2028 and U+2029 (readers of JSON
/// lines split lines at them): `micro --json` echoes its input.
#[test]
fn json_lines_escape_line_separators() {
    let s = Scratch::empty();
    let run = s.run(&["micro", "--json", "integer", "1\u{2028}2\u{2029}"]);
    assert!(
        !run.stdout.contains(['\u{2028}', '\u{2029}']),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("\\u2028") && run.stdout.contains("\\u2029"),
        "{}",
        run.stdout
    );
    assert_eq!(run.stdout.lines().count(), 1);
}

/// `--format plain`: the words a reader sees, no markup and no header.
#[test]
fn plain_text_is_what_a_reader_sees() {
    let s = Scratch::empty();
    s.write(
        "p.html",
        "<!DOCTYPE html><meta charset=utf-8><title>T</title><h1>Hi</h1>\
         <p>A <a href=\"x.html\">link</a>, <img src=\"c.jpg\" alt=\"a cat\"> and <b>bold</b> words.<br>Next line.</p>\
         <ul><li>one<li>two</ul><table><tr><th>A<th>B<tr><td>1<td>2</table>",
    );
    let run = s.run(&["to-text", "--format", "plain", "p.html"]);
    assert_eq!(run.code, Some(0), "{}", run.render());
    assert_eq!(
        run.stdout,
        "Hi\n\nA link, a cat and bold words.\nNext line.\n\n- one\n- two\n\nA\tB\n1\t2\n"
    );
    // Markdown: CommonMark with a GFM table.
    let md = s.run(&["to-text", "--format", "markdown", "p.html"]);
    assert_eq!(
        md.stdout,
        "# Hi\n\nA [link](x.html), ![a cat](c.jpg) and **bold** words.\\\nNext line.\n\n- one\n- two\n\n| A | B |\n| --- | --- |\n| 1 | 2 |\n"
    );
    // The default is the text format.
    let text = s.run(&["to-text", "p.html"]);
    assert!(text.stdout.starts_with("#Title T\n"), "{}", text.stdout);
}

/// One input that goes well prints nothing on standard error; -v adds the
/// summary line, and a run of several always ends with one.
#[test]
fn success_is_quiet() {
    let s = Scratch::new();
    s.write(
        "clean.html",
        "<!DOCTYPE html><meta charset=utf-8><title>T</title><p>Words.</p>",
    );
    let one = s.run(&["to-text", "clean.html"]);
    assert_eq!(one.code, Some(0), "{}", one.render());
    assert_eq!(one.stderr, "", "{}", one.render());
    assert_eq!(one.stdout, "#Title T\n\nWords.\n");
    let verbose = s.run(&["to-text", "-v", "clean.html"]);
    assert!(
        verbose.stderr.contains("pagetext: 1 file (0 failed)"),
        "{}",
        verbose.stderr
    );
    let many = s.run(&["to-text", "site", "-o", "out"]);
    assert!(many.stderr.contains(" files (0 failed)"), "{}", many.stderr);
}

/// Several inputs and `-o` naming a file: refused before anything is
/// written (it used to make a directory of that name).
#[test]
fn several_inputs_to_one_file_are_refused_before_writing() {
    let s = Scratch::new();
    let run = s.run(&[
        "to-text",
        "site/index.html",
        "site/about/team.htm",
        "-o",
        "one.txt",
    ]);
    assert_eq!(run.code, Some(2), "{}", run.render());
    assert!(
        run.stderr.contains("-o one.txt reads as a file name"),
        "{}",
        run.stderr
    );
    assert!(!s.path().join("one.txt").exists());
}

#[test]
fn to_text_json_and_stdin() {
    let s = Scratch::new();
    snap!(
        "to_text_json",
        s.run(&["to-text", "--json", "site/about/team.htm"])
    );
    snap!(
        "to_text_stdin",
        s.run_with_stdin(
            &["to-text"],
            Some(b"<title>x</title><h1>Hi</h1><p>caf\xe9 <b>au</b> lait</p>")
        )
    );
    snap!("to_text_binary", s.run(&["to-text", "garbage.html"]));
}

#[test]
fn text_to_html_to_text_is_a_fixpoint() {
    let s = Scratch::new();
    let text = s.run(&["to-text", "demo/chorale.html", "-o", "chorale.txt"]);
    assert_eq!(text.code, Some(0), "{}", text.render());
    let html = s.run(&["to-html", "chorale.txt", "-o", "chorale.xhtml"]);
    assert_eq!(html.code, Some(0), "{}", html.render());
    let again = s.run(&["to-text", "chorale.xhtml"]);
    assert_eq!(again.code, Some(0), "{}", again.render());
    assert_eq!(again.stdout, s.read("chorale.txt"));
}

#[test]
fn check_reads_html_by_extension_or_from() {
    let s = Scratch::new();
    snap!("check_site", s.run(&["check", "site"]));
    snap!(
        "check_from_html_stdin",
        s.run_with_stdin(
            &["check", "--from", "html"],
            Some(b"<p><a href=\"vbscript:x\">x</a> <img src=a.png></p>")
        )
    );
}

#[test]
fn escapes_are_written_where_needed_and_kept_or_dropped_on_request() {
    let s = Scratch::new();
    s.write(
        "esc/page.html",
        "<p>Call <code>__init__</code>; 'quoted' and plain.</p><p>Nothing to escape.</p>",
    );
    let text = s.run(&["to-text", "esc/page.html"]);
    assert_eq!(text.code, Some(0), "{}", text.stderr);
    assert_eq!(
        text.stdout,
        "#Escape \\\n\nCall '\\_\\_init__'; \\'quoted' and plain.\n\nNothing to escape.\n"
    );
    assert!(!text.stderr.contains("not-round-trip"), "{}", text.stderr);
    // Pure seed text: the characters read as markup, and the run says so.
    let seed = s.run(&["to-text", "--seed", "esc/page.html"]);
    assert!(!seed.stdout.contains('\\'), "{}", seed.stdout);
    assert!(seed.stderr.contains("not-round-trip"), "{}", seed.stderr);
    // `--no-escape` is the old name of `--seed`.
    let old = s.run(&["to-text", "--no-escape", "esc/page.html"]);
    assert_eq!(old.stdout, seed.stdout);
    // `fmt` keeps a document's choice, and `--seed` drops it.
    s.write("esc/declared.txt", "#Escape \\\n\nNo escape needed.\n");
    let kept = s.run(&["fmt", "esc/declared.txt"]);
    assert_eq!(kept.stdout, "#Escape \\\n\nNo escape needed.\n");
    let dropped = s.run(&["fmt", "--seed", "esc/declared.txt"]);
    assert_eq!(dropped.stdout, "\nNo escape needed.\n");
    // Seed text with backslashes stays seed text.
    s.write("esc/seed.txt", "\nC:\\Windows and \\_x_ here.\n");
    let seed_fmt = s.run(&["fmt", "esc/seed.txt"]);
    assert_eq!(seed_fmt.stdout, "\nC:\\Windows and \\_x_ here.\n");
    // `check` reads escaped text as the extension says.
    s.write("esc/escaped.txt", "#Escape \\\n\n\\_\\_init__\n");
    let checked = s.run(&["check", "esc/escaped.txt"]);
    assert_eq!(checked.code, Some(0), "{}", checked.stderr);
    // Not a diagnostic (one input that goes well prints nothing).
    assert_eq!(checked.stderr, "", "{}", checked.stderr);
}

/// An article between a navigation bar and a footer.
const ARTICLE: &str = "<title>News</title><body><nav><a href=/>Home</a> <a href=/w>World</a></nav>\
<article><h1>Rain at last</h1>\
<p>The rain came in the night, after weeks of drought, and the farmers, who had waited since spring, went out.</p>\
<p>In the morning, the fields were green again, the rivers full, and the roads, for once, were quiet.</p>\
<p>Nobody, the mayor said, had seen such a night of rain in the valley since the year of the great flood.</p>\
</article><footer><p>Copyright 2024, The Daily Example, all rights reserved, and more.</p></footer>";

#[test]
fn main_content_keeps_the_article_and_reports_what_it_dropped() {
    let s = Scratch::empty();
    s.write("rain.html", ARTICLE);
    let whole = s.run(&["to-text", "rain.html"]);
    assert!(whole.stdout.contains("Home") && !whole.stderr.contains("main content"));
    let run = s.run(&["to-text", "--main-content", "-v", "rain.html"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(run.stdout.starts_with("#Title News\n"), "{}", run.stdout);
    assert!(run.stdout.contains("= Rain at last =") && run.stdout.contains("the great flood"));
    assert!(!run.stdout.contains("Home") && !run.stdout.contains("Copyright"));
    // The note per page (-v) and the summary line.
    assert!(
        run.stderr.contains("main content: <article> on line 1")
            && run.stderr.contains("dropped 2 parts")
            && run.stderr.contains("footer, nav"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .contains("main content: 2 boilerplate parts dropped from 1 page"),
        "{}",
        run.stderr
    );
    // `check` reads the page the same way; --json carries the report.
    let check = s.run(&["check", "--main-content", "--json", "rain.html"]);
    assert_eq!(check.code, Some(0), "{}", check.stderr);
    let json: serde_json::Value = serde_json::from_str(check.stdout.trim()).unwrap();
    assert_eq!(json["main_content"]["element"], "article");
    assert_eq!(json["main_content"]["dropped"], 2);
    assert_eq!(
        json["main_content"]["dropped_kinds"],
        serde_json::json!({"footer": 1, "nav": 1})
    );
    let plain = s.run(&["check", "--json", "rain.html"]);
    let json: serde_json::Value = serde_json::from_str(plain.stdout.trim()).unwrap();
    assert!(json.get("main_content").is_none());
}
