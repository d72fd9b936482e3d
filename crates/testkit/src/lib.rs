//! Test support shared by the pagetext crates. Not part of any public API.
//!
//! It owns one thing: the directory-driven snapshot harness. Every file under a
//! crate's `testdata/<crate>/` folder (with one of the suite's extensions) is a
//! case; the crate's `tests/snapshots.rs` says how a case's bytes become the text
//! that is snapshotted, and [`SnapshotSuite::run`] does the rest:
//!
//! - each case is checked with [`insta::assert_snapshot!`] into
//!   `<crate>/tests/snapshots/<relative path with / as __>.snap`, so `cargo insta
//!   review` works as usual;
//! - every case runs even when an earlier one fails;
//! - a summary line goes to stdout, which `cargo xtask snapshots` reads:
//!   `snapshots SUITE: N cases, N passed, N failed, N new, N stale`;
//! - the test fails when any case failed or is new, when a snapshot file has no
//!   input any more (stale), or when the suite has no case at all (an empty
//!   folder is a mistake, not a pass).
//!
//! A "new" case is one whose snapshot file did not exist before the run; a
//! "failed" case had a snapshot that no longer matches, or its render panicked.
//!
//! ```no_run
//! // In crates/<crate>/tests/snapshots.rs, inside a #[test] function:
//! use std::path::Path;
//! use testkit::SnapshotSuite;
//!
//! let krate = Path::new(env!("CARGO_MANIFEST_DIR"));
//! SnapshotSuite::new(
//!     "example",
//!     krate.join("../../testdata/example"),
//!     krate.join("tests/snapshots/example"),
//! )
//! .extension("txt")
//! .run(|_path, bytes| String::from_utf8_lossy(bytes).to_uppercase());
//! ```

use std::collections::BTreeSet;
use std::fs;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

/// A directory of inputs that becomes a set of snapshot cases.
#[derive(Debug, Clone)]
pub struct SnapshotSuite {
    name: String,
    inputs: PathBuf,
    snapshots: PathBuf,
    extensions: Vec<String>,
}

/// What happened to the cases of one suite.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Tally {
    /// Inputs found.
    pub cases: usize,
    /// Cases whose snapshot matched.
    pub passed: usize,
    /// Cases whose snapshot existed and differed, or whose render panicked.
    pub failed: Vec<String>,
    /// Cases that had no snapshot yet.
    pub new: Vec<String>,
    /// Snapshot files of the suite that no input produces any more.
    pub stale: Vec<String>,
}

impl Tally {
    /// The line `cargo xtask snapshots` reads.
    pub fn summary_line(&self, suite: &str) -> String {
        format!(
            "snapshots {suite}: {} cases, {} passed, {} failed, {} new, {} stale",
            self.cases,
            self.passed,
            self.failed.len(),
            self.new.len(),
            self.stale.len()
        )
    }

    /// Whether the suite counts as green.
    pub fn ok(&self) -> bool {
        self.cases > 0 && self.failed.is_empty() && self.new.is_empty() && self.stale.is_empty()
    }
}

impl SnapshotSuite {
    /// A suite named `name` over the files in `inputs` (searched recursively),
    /// writing snapshots to `snapshots`. Both paths are usually built from
    /// `env!("CARGO_MANIFEST_DIR")`.
    pub fn new(name: &str, inputs: impl Into<PathBuf>, snapshots: impl Into<PathBuf>) -> Self {
        SnapshotSuite {
            name: name.to_owned(),
            inputs: inputs.into(),
            snapshots: snapshots.into(),
            extensions: Vec::new(),
        }
    }

    /// Only files whose name ends in `.ext` are cases. Without any call, every file is.
    pub fn extension(mut self, ext: &str) -> Self {
        self.extensions.push(ext.trim_start_matches('.').to_owned());
        self
    }

    /// The input files of this suite, sorted, as paths relative to the input folder.
    pub fn cases(&self) -> Vec<PathBuf> {
        files_below(&self.inputs)
            .into_iter()
            .filter(|path| self.wants(path))
            .filter_map(|path| path.strip_prefix(&self.inputs).ok().map(Path::to_path_buf))
            .collect()
    }

    fn wants(&self, path: &Path) -> bool {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if name.starts_with('.') || name.eq_ignore_ascii_case("README.md") {
            return false;
        }
        self.extensions.is_empty()
            || self
                .extensions
                .iter()
                .any(|ext| name.ends_with(&format!(".{ext}")))
    }

    /// The snapshot name of a case: its relative path with separators as `__`.
    pub fn snapshot_name(rel: &Path) -> String {
        rel.components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join("__")
    }

    /// Runs every case through `render` and checks its snapshot; prints the
    /// summary line and fails (panics, this is a test) unless all is green.
    pub fn run(&self, render: impl Fn(&Path, &[u8]) -> String) {
        let tally = self.tally(render);
        println!("{}", tally.summary_line(&self.name));
        for (what, list) in [
            ("failed", &tally.failed),
            ("new", &tally.new),
            ("stale", &tally.stale),
        ] {
            for case in list {
                println!("  {what}: {case}");
            }
        }
        assert!(
            tally.cases > 0,
            "suite {} has no input under {}",
            self.name,
            self.inputs.display()
        );
        assert!(
            tally.ok(),
            "suite {}: review with `cargo insta review` (stale snapshots: delete them)",
            self.name
        );
    }

    /// Like [`run`](Self::run) but returns the tally instead of asserting on it.
    pub fn tally(&self, render: impl Fn(&Path, &[u8]) -> String) -> Tally {
        let mut tally = Tally::default();
        let mut expected = BTreeSet::new();
        for rel in self.cases() {
            tally.cases += 1;
            let name = Self::snapshot_name(&rel);
            let snap_file = self.snapshots.join(format!("{name}.snap"));
            expected.insert(format!("{name}.snap"));
            let existed = snap_file.is_file();
            let path = self.inputs.join(&rel);
            let outcome = catch_unwind(AssertUnwindSafe(|| {
                let bytes = fs::read(&path).unwrap_or_default();
                let output = render(&path, &bytes);
                let mut settings = insta::Settings::clone_current();
                settings.set_snapshot_path(&self.snapshots);
                settings.set_prepend_module_to_snapshot(false);
                settings.set_input_file(&path);
                settings.set_omit_expression(true);
                settings.bind(|| insta::assert_snapshot!(name.as_str(), output));
            }));
            match (outcome.is_ok(), existed) {
                (true, _) => tally.passed += 1,
                (false, true) => tally.failed.push(rel.display().to_string()),
                (false, false) => tally.new.push(rel.display().to_string()),
            }
        }
        if let Ok(entries) = fs::read_dir(&self.snapshots) {
            let mut stale: Vec<String> = entries
                .flatten()
                .filter_map(|e| e.file_name().into_string().ok())
                .filter(|f| f.ends_with(".snap") && !expected.contains(f))
                .collect();
            stale.sort();
            tally.stale = stale;
        }
        tally
    }
}

/// The variable `cargo xtask ci` sets to a file where tests note what they
/// skipped (a missing tool on a developer's machine), so that its last
/// lines can say so.
pub const SKIP_LOG: &str = "PAGETEXT_SKIP_LOG";

/// Says on stderr that a test skipped `what` (and why), and notes it in the
/// file [`SKIP_LOG`] names, when it names one.
pub fn skipped(what: &str) {
    eprintln!("{what}");
    if let Some(path) = std::env::var_os(SKIP_LOG) {
        use std::io::Write;
        let file = fs::OpenOptions::new().create(true).append(true).open(path);
        if let Ok(mut file) = file {
            let _ = writeln!(file, "{}", what.replace('\n', " "));
        }
    }
}

/// Every file below `dir` (folders walked without recursion), sorted; an
/// unreadable folder is skipped.
pub fn files_below(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn suite(dir: &Path) -> SnapshotSuite {
        SnapshotSuite::new("t", dir.join("in"), dir.join("snaps")).extension("txt")
    }

    fn write(path: &Path, text: &str) {
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }

    #[test]
    fn snapshot_names_flatten_folders() {
        assert_eq!(
            SnapshotSuite::snapshot_name(Path::new("seed/lists.txt")),
            "seed__lists.txt"
        );
    }

    #[test]
    fn cases_are_filtered_by_extension_and_sorted() {
        let dir = tempfile::tempdir().unwrap();
        write(&dir.path().join("in/b.txt"), "b");
        write(&dir.path().join("in/sub/a.txt"), "a");
        write(&dir.path().join("in/c.html"), "c");
        write(&dir.path().join("in/README.md"), "not a case");
        let cases = suite(dir.path()).cases();
        assert_eq!(
            cases,
            vec![PathBuf::from("b.txt"), PathBuf::from("sub/a.txt")]
        );
    }

    #[test]
    fn tally_tells_passed_failed_new_and_stale_apart() {
        let dir = tempfile::tempdir().unwrap();
        write(&dir.path().join("in/same.txt"), "same");
        write(&dir.path().join("in/changed.txt"), "changed");
        write(&dir.path().join("in/fresh.txt"), "fresh");
        let snap = |content: &str| format!("---\nsource: test\n---\n{content}\n");
        write(&dir.path().join("snaps/same.txt.snap"), &snap("SAME"));
        write(&dir.path().join("snaps/changed.txt.snap"), &snap("OLD"));
        write(&dir.path().join("snaps/gone.txt.snap"), &snap("GONE"));
        let tally =
            suite(dir.path()).tally(|_, bytes| String::from_utf8_lossy(bytes).to_uppercase());
        assert_eq!(tally.cases, 3);
        assert_eq!(tally.passed, 1);
        assert_eq!(tally.failed, vec!["changed.txt".to_owned()]);
        assert_eq!(tally.new, vec!["fresh.txt".to_owned()]);
        assert_eq!(tally.stale, vec!["gone.txt.snap".to_owned()]);
        assert!(!tally.ok());
        assert_eq!(
            tally.summary_line("t"),
            "snapshots t: 3 cases, 1 passed, 1 failed, 1 new, 1 stale"
        );
    }

    #[test]
    fn a_panicking_render_is_a_failure_not_an_abort() {
        let dir = tempfile::tempdir().unwrap();
        write(&dir.path().join("in/boom.txt"), "x");
        write(
            &dir.path().join("snaps/boom.txt.snap"),
            "---\nsource: test\n---\nx\n",
        );
        let tally = suite(dir.path()).tally(|_, _| panic!("render failed"));
        assert_eq!(tally.failed, vec!["boom.txt".to_owned()]);
    }

    #[test]
    fn an_empty_suite_is_not_ok() {
        assert!(!Tally::default().ok());
    }
}
