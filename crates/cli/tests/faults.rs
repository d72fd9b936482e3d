//! Faults while converting: a full disk (`/dev/full`), an output directory
//! that cannot be written mid-tree, inputs that vanish or are replaced by a
//! directory while the run goes on, and the process killed between files. In
//! every case: no input is modified, no output file is left half-written
//! (each one that exists is exactly what a clean run writes), every failure
//! names its path, and the other files finish; the temporary files a killed
//! run leaves are removed by the next run.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_pagetext"));
    c.env("NO_COLOR", "1").stdin(Stdio::null());
    c
}

fn run(args: &[&str]) -> Output {
    bin().args(args).output().unwrap_or_else(|e| panic!("{e}"))
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap_or_else(|| panic!("non-UTF-8 temp path"))
}

/// A page of some size, different for each `k`, so conversion takes a
/// moment and outputs differ.
fn page(k: usize) -> String {
    let mut p = format!("<html><head><title>Page {k}</title></head><body><h1>Page {k}</h1>\n");
    for i in 0..400 {
        p.push_str(&format!(
            "<p>Paragraph {i} of page {k} with <b>bold</b>, <i>italic</i> and <a href=\"/p/{i}\">a link</a>.</p>\n"
        ));
    }
    p.push_str("</body></html>\n");
    p
}

/// Creates `n` inputs under `dir/in/sNN/pageNNN.html`, returns them.
fn make_inputs(dir: &Path, n: usize) -> Vec<PathBuf> {
    (0..n)
        .map(|k| {
            let sub = dir.join("in").join(format!("s{:02}", k % 10));
            fs::create_dir_all(&sub).unwrap_or_else(|e| panic!("{e}"));
            let path = sub.join(format!("page{k:03}.html"));
            fs::write(&path, page(k)).unwrap_or_else(|e| panic!("{e}"));
            path
        })
        .collect()
}

/// Every regular file under `dir` with its contents, by relative path.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    testkit::files_below(dir)
        .into_iter()
        .filter_map(|p| {
            let bytes = fs::read(&p).ok()?;
            let rel = p.strip_prefix(dir).map_or(p.clone(), Path::to_path_buf);
            Some((rel, bytes))
        })
        .collect()
}

/// The outputs of a clean run over `dir/in`, by relative path.
fn clean_run(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let out = dir.join("ref");
    let o = run(&["to-text", "-q", s(&dir.join("in")), "-o", s(&out)]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    snapshot(&out)
}

/// Checks that every file under `out` is complete (equal to the clean
/// run's), hidden temporary files aside; returns how many there are and
/// how many temporaries were left.
#[track_caller]
fn assert_complete(out: &Path, reference: &BTreeMap<PathBuf, Vec<u8>>) -> (usize, usize) {
    let mut complete = 0;
    let mut temporaries = 0;
    for (rel, bytes) in snapshot(out) {
        let hidden = rel
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with('.'));
        if hidden {
            temporaries += 1;
            continue;
        }
        match reference.get(&rel) {
            Some(want) => assert!(*want == bytes, "{} is half-written or wrong", rel.display()),
            None => panic!("unexpected output {}", rel.display()),
        }
        complete += 1;
    }
    (complete, temporaries)
}

#[test]
fn a_full_disk_is_reported_with_the_path() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let inputs = make_inputs(dir.path(), 1);
    let before = snapshot(&dir.path().join("in"));
    let o = run(&["to-text", s(&inputs[0]), "-o", "/dev/full"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("/dev/full") && err.contains("page000.html"),
        "{err}"
    );
    assert_eq!(snapshot(&dir.path().join("in")), before, "an input changed");
    let meta = fs::metadata("/dev/full").unwrap_or_else(|e| panic!("{e}"));
    assert!(!meta.is_file(), "/dev/full was replaced by a file");
    // The same for to-html, through standard input.
    let mut child = bin()
        .args(["to-html", "-o", "/dev/full", "-"])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{e}"));
    if let Some(mut stdin) = child.stdin.take() {
        use std::io::Write;
        let _ = stdin.write_all(b"#Title t\n\nSome text.\n");
    }
    let o = child.wait_with_output().unwrap_or_else(|e| panic!("{e}"));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("/dev/full"), "{err}");
}

#[test]
fn an_unwritable_output_directory_fails_only_its_files() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    make_inputs(dir.path(), 40);
    let reference = clean_run(dir.path());
    let before = snapshot(&dir.path().join("in"));
    let out = dir.path().join("out");
    fs::create_dir_all(&out).unwrap_or_else(|e| panic!("{e}"));
    // `out/s03` cannot hold files: a regular file stands where the
    // directory should be (permissions would not stop root).
    fs::write(out.join("s03"), b"in the way").unwrap_or_else(|e| panic!("{e}"));
    let o = run(&[
        "to-text",
        "-j",
        "2",
        s(&dir.path().join("in")),
        "-o",
        s(&out),
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    for k in (3..40).step_by(10) {
        let name = format!("page{k:03}");
        assert!(
            err.contains(&name),
            "the failure of {name} is not reported:\n{err}"
        );
    }
    assert_eq!(
        fs::read(out.join("s03")).ok().as_deref(),
        Some(&b"in the way"[..])
    );
    fs::remove_file(out.join("s03")).unwrap_or_else(|e| panic!("{e}"));
    let (complete, temporaries) = assert_complete(&out, &reference);
    assert_eq!(complete, 36, "the other files finish");
    assert_eq!(temporaries, 0);
    assert_eq!(snapshot(&dir.path().join("in")), before, "an input changed");
}

#[test]
fn inputs_that_vanish_or_become_directories() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let inputs = make_inputs(dir.path(), 6);
    let reference = clean_run(dir.path());
    // Named on the command line, gone before the run.
    fs::remove_file(&inputs[1]).unwrap_or_else(|e| panic!("{e}"));
    // Replaced by a directory (holding a file that is not HTML).
    fs::remove_file(&inputs[2]).unwrap_or_else(|e| panic!("{e}"));
    fs::create_dir(&inputs[2]).unwrap_or_else(|e| panic!("{e}"));
    fs::write(inputs[2].join("notes.md"), b"x").unwrap_or_else(|e| panic!("{e}"));
    let before = snapshot(&dir.path().join("in"));
    let out = dir.path().join("out");
    let mut args = vec!["to-text".to_owned()];
    args.extend(inputs.iter().map(|p| s(p).to_owned()));
    args.extend(["-o".to_owned(), s(&out).to_owned()]);
    let o = bin().args(&args).output().unwrap_or_else(|e| panic!("{e}"));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("page001.html"),
        "the vanished input is not reported:\n{err}"
    );
    assert_eq!(snapshot(&dir.path().join("in")), before, "an input changed");
    // Outputs of explicit files go to -o DIR by file name (flat) or by
    // tree; either way each that exists is complete and 4 inputs remain.
    let produced = snapshot(&out);
    let by_name: BTreeMap<_, _> = reference
        .iter()
        .filter_map(|(rel, bytes)| Some((rel.file_name()?.to_owned(), bytes.clone())))
        .collect();
    let mut complete = 0;
    for (rel, bytes) in &produced {
        let name = rel.file_name().unwrap_or_default();
        let want = by_name
            .get(name)
            .unwrap_or_else(|| panic!("unexpected output {}", rel.display()));
        assert!(want == bytes, "{} is half-written or wrong", rel.display());
        complete += 1;
    }
    assert_eq!(
        complete,
        4,
        "the other files finish: {produced:?}",
        produced = produced.keys()
    );

    // Vanishing during a directory walk: a thread deletes inputs while the
    // run goes on. Whatever the timing, each input is either converted
    // completely or reported by path.
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let inputs = make_inputs(dir.path(), 60);
    let reference = clean_run(dir.path());
    let out = dir.path().join("out");
    let child = bin()
        .args([
            "to-text",
            "-j",
            "1",
            s(&dir.path().join("in")),
            "-o",
            s(&out),
        ])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{e}"));
    std::thread::sleep(Duration::from_millis(20));
    let mut gone = Vec::new();
    for p in inputs.iter().rev().step_by(3) {
        if fs::remove_file(p).is_ok() {
            if gone.len() % 2 == 0 {
                let _ = fs::create_dir(p);
            }
            gone.push(p.clone());
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let o = child.wait_with_output().unwrap_or_else(|e| panic!("{e}"));
    let err = String::from_utf8_lossy(&o.stderr);
    let (complete, temporaries) = assert_complete(&out, &reference);
    assert_eq!(temporaries, 0);
    for p in &gone {
        let rel = p
            .strip_prefix(dir.path().join("in"))
            .unwrap_or(p)
            .with_extension("txt");
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        let converted = out.join(&rel).exists();
        let reported = err.contains(name);
        // A directory in place of the file is walked (and holds nothing):
        // neither converted nor an error is fine for those; a file that
        // vanished after being listed must be reported.
        assert!(
            converted || reported || p.is_dir(),
            "{name}: neither converted nor reported\n{err}"
        );
    }
    assert!(
        complete >= inputs.len() - gone.len(),
        "the other files finish"
    );
}

#[test]
fn killed_between_files_leaves_no_half_written_output() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    make_inputs(dir.path(), 120);
    let reference = clean_run(dir.path());
    let before = snapshot(&dir.path().join("in"));
    let mut killed_runs = 0;
    for round in 0..4 {
        let out = dir.path().join(format!("out{round}"));
        let mut child = bin()
            .args([
                "to-text",
                "-q",
                "-j",
                "2",
                s(&dir.path().join("in")),
                "-o",
                s(&out),
            ])
            .spawn()
            .unwrap_or_else(|e| panic!("{e}"));
        // Kill as soon as some outputs exist (or after a while).
        let start = Instant::now();
        while snapshot(&out).len() < 5 + 20 * round && start.elapsed() < Duration::from_secs(20) {
            std::thread::sleep(Duration::from_millis(1));
        }
        if matches!(child.try_wait(), Ok(None)) {
            killed_runs += 1;
        }
        let _ = child.kill();
        let _ = child.wait();
        let (complete, temporaries) = assert_complete(&out, &reference);
        eprintln!("round {round}: {complete} complete outputs, {temporaries} temporary files left");
        assert_eq!(snapshot(&dir.path().join("in")), before, "an input changed");
        // The next run into the same tree finishes the job and removes the
        // temporary files the killed one left, saying how many (checked when
        // there are some, and once anyway: a full run takes a while).
        if temporaries == 0 && round != 3 {
            continue;
        }
        let o = run(&["to-text", s(&dir.path().join("in")), "-o", s(&out)]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(0), "{err}");
        let said = format!(
            "pagetext: removed {temporaries} leftover temporary file{} from an interrupted run\n",
            if temporaries == 1 { "" } else { "s" }
        );
        assert_eq!(
            err.matches(&said).count(),
            usize::from(temporaries > 0),
            "{err}"
        );
        assert_eq!(
            assert_complete(&out, &reference),
            (reference.len(), 0),
            "the next run leaves every output complete and no temporary file"
        );
    }
    assert!(
        killed_runs > 0,
        "no run was still going when killed: make the inputs bigger"
    );
}
