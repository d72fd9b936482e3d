//! Running the real `pagetext` binary in a scratch copy of `testdata/cli/`
//! and turning what it did into a stable text for insta snapshots: exit
//! status, standard output and standard error, with the scratch directory's
//! path and every timing replaced by placeholders.

// Test support: a failed setup step is a failed test, with its backtrace.
#![allow(dead_code, clippy::unwrap_used)]

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A scratch directory holding a copy of `testdata/cli/`.
pub(crate) struct Scratch {
    dir: tempfile::TempDir,
}

impl Scratch {
    /// A fresh copy of `testdata/cli/`.
    pub(crate) fn new() -> Scratch {
        let dir = tempfile::tempdir().unwrap();
        copy_tree(&testdata(), dir.path());
        Scratch { dir }
    }

    /// An empty scratch directory.
    pub(crate) fn empty() -> Scratch {
        Scratch {
            dir: tempfile::tempdir().unwrap(),
        }
    }

    /// The scratch directory.
    pub(crate) fn path(&self) -> &Path {
        self.dir.path()
    }

    /// A path inside the scratch directory.
    pub(crate) fn join(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    /// Writes a file (creating its directories).
    pub(crate) fn write(&self, rel: &str, bytes: impl AsRef<[u8]>) {
        let path = self.join(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, bytes).unwrap();
    }

    /// Reads a file as text.
    pub(crate) fn read(&self, rel: &str) -> String {
        String::from_utf8_lossy(&fs::read(self.join(rel)).unwrap()).into_owned()
    }

    /// Runs `pagetext ARGS` in the scratch directory with nothing on stdin.
    pub(crate) fn run(&self, args: &[&str]) -> Run {
        self.run_with_stdin(args, None)
    }

    /// Runs `pagetext ARGS` in the scratch directory, feeding `stdin`.
    pub(crate) fn run_with_stdin(&self, args: &[&str], stdin: Option<&[u8]>) -> Run {
        let mut cmd = pagetext();
        cmd.args(args).current_dir(self.path());
        run_command(cmd, stdin, self.path())
    }

    /// Every file under the scratch directory (relative, sorted), hidden ones
    /// included: what a run left behind.
    pub(crate) fn files(&self) -> Vec<String> {
        let mut out = Vec::new();
        let mut stack = vec![self.path().to_path_buf()];
        while let Some(dir) = stack.pop() {
            for entry in fs::read_dir(&dir).unwrap() {
                let entry = entry.unwrap();
                let path = entry.path();
                let kind = entry.file_type().unwrap();
                if kind.is_dir() {
                    stack.push(path);
                } else {
                    let rel = path.strip_prefix(self.path()).unwrap();
                    out.push(rel.display().to_string());
                }
            }
        }
        out.sort();
        out
    }
}

/// The `pagetext` binary under test, with a predictable environment.
pub(crate) fn pagetext() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_pagetext"));
    cmd.env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env("COLUMNS", "100")
        .env("TERM", "dumb");
    cmd
}

/// Runs a prepared command and collects what it did.
pub(crate) fn run_command(mut cmd: Command, stdin: Option<&[u8]>, scratch: &Path) -> Run {
    cmd.stdin(if stdin.is_some() {
        Stdio::piped()
    } else {
        Stdio::null()
    })
    .stdout(Stdio::piped())
    .stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    if let Some(bytes) = stdin {
        let mut pipe = child.stdin.take().unwrap();
        // A run that exits without reading (a usage error) closes the pipe.
        let _ = pipe.write_all(bytes);
    }
    let out = child.wait_with_output().unwrap();
    Run {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        scratch: scratch.to_path_buf(),
    }
}

/// What one run did.
#[derive(Debug)]
pub(crate) struct Run {
    /// The exit status (`None` if killed by a signal).
    pub(crate) code: Option<i32>,
    /// Standard output, lossily decoded.
    pub(crate) stdout: String,
    /// Standard error, lossily decoded.
    pub(crate) stderr: String,
    /// The scratch directory the run worked in.
    pub(crate) scratch: PathBuf,
}

impl Run {
    /// The run as snapshot text: status, stdout, stderr, normalised.
    pub(crate) fn render(&self) -> String {
        format!(
            "exit: {}\n--- stdout\n{}--- stderr\n{}",
            self.code.map_or("killed".to_string(), |c| c.to_string()),
            self.normalise(&self.stdout),
            self.normalise(&self.stderr)
        )
    }

    fn normalise(&self, text: &str) -> String {
        let mut text = text.to_string();
        // The scratch directory, as given and as resolved (macOS /private).
        let mut paths = vec![self.scratch.display().to_string()];
        if let Ok(canonical) = fs::canonicalize(&self.scratch) {
            paths.push(canonical.display().to_string());
        }
        paths.sort_by_key(|p| std::cmp::Reverse(p.len()));
        for p in paths {
            text = text.replace(&p, "[TMP]");
        }
        text = replace_between(&text, "\"timings\":{", "}", "[TIMINGS]");
        text = redact_rates(&text);
        if !text.is_empty() && !text.ends_with('\n') {
            text.push_str("\n[no newline at end]\n");
        }
        text
    }
}

/// The summary line's time and rates, which vary from run to run, and its
/// worker count, which varies with the machine's cores: `678 B in 0.01 s
/// (0.1 MB/s, 300 pages/s, 150 pages/s per core on 2 workers), ...` becomes
/// `678 B in [TIME] s ([RATES]), ...`.
fn redact_rates(text: &str) -> String {
    let lines: Vec<String> = text
        .split('\n')
        .map(|line| {
            let Some(rates) = line.find(" MB/s, ") else {
                return line.to_string();
            };
            let (Some(start), Some(end)) = (
                line[..rates].rfind(" in "),
                line[rates..].find(')').map(|e| rates + e),
            ) else {
                return line.to_string();
            };
            format!("{} in [TIME] s ([RATES]{}", &line[..start], &line[end..])
        })
        .collect();
    lines.join("\n")
}

/// Replaces the text between each `start` and the next `end` (on the same
/// line) with `with`.
fn replace_between(text: &str, start: &str, end: &str, with: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let mut rest = line;
        loop {
            let Some(s) = rest.find(start) else {
                out.push_str(rest);
                break;
            };
            let after = &rest[s + start.len()..];
            let Some(e) = after.find(end) else {
                out.push_str(rest);
                break;
            };
            out.push_str(&rest[..s + start.len()]);
            out.push_str(with);
            out.push_str(end);
            rest = &after[e + end.len()..];
        }
    }
    out
}

/// Snapshots a run under `name`.
#[macro_export]
macro_rules! snap {
    ($name:expr, $run:expr) => {
        insta::with_settings!({prepend_module_to_snapshot => false, omit_expression => true}, {
            insta::assert_snapshot!($name, $run.render());
        })
    };
}

/// `testdata/cli/` in the repository.
pub(crate) fn testdata() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/cli")
}

fn copy_tree(from: &Path, to: &Path) {
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            fs::create_dir_all(&target).unwrap();
            copy_tree(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), &target).unwrap();
        }
    }
}
