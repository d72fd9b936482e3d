//! Turning the INPUT arguments into a list of inputs: files, directories
//! walked recursively for the right extensions, and `-` for standard input.
//!
//! The walk never recurses on the call stack (an explicit stack holds the
//! directories still to read), visits entries in name order so that runs are
//! deterministic, follows symbolic links and detects the ones that lead back
//! to a directory being walked. Every problem becomes an error item naming its
//! path, in the place the input would have had, so that one bad path never
//! stops the others.

use std::collections::{BTreeMap, HashSet};
use std::ffi::OsStr;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// Where one input's bytes come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Source {
    /// Standard input.
    Stdin,
    /// A file (or anything `open` can read: a FIFO, a device).
    File(PathBuf),
}

/// One input to convert.
#[derive(Debug, Clone)]
pub(crate) struct Input {
    /// Where the bytes come from.
    pub(crate) source: Source,
    /// The path below the directory argument it was found in, when it was
    /// found by walking one (for mirroring into an output directory).
    pub(crate) below_dir: Option<PathBuf>,
}

impl Input {
    /// The name shown to the user: the path as given or found, or `<stdin>`.
    pub(crate) fn display(&self) -> String {
        match &self.source {
            Source::Stdin => "<stdin>".to_string(),
            Source::File(p) => p.display().to_string(),
        }
    }
}

/// A path that could not become an input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PathError {
    /// The path as given or found.
    pub(crate) path: String,
    /// What is wrong, in lower case, without a trailing period.
    pub(crate) message: String,
}

/// One item of the walk, in order.
pub(crate) type Item = Result<Input, PathError>;

/// What a command accepts as INPUT.
#[derive(Debug, Clone, Copy)]
pub(crate) struct WalkRules<'a> {
    /// Extensions (lower case, without the dot) picked up inside directories.
    pub(crate) extensions: &'a [&'a str],
    /// Whether directories may be given at all (`sniff` takes files only).
    pub(crate) directories: bool,
    /// What the command calls its inputs in messages ("HTML files").
    pub(crate) what: &'a str,
}

/// The result of walking the arguments.
#[derive(Debug, Default)]
pub(crate) struct Walk {
    /// Inputs and errors, in argument order, directories in name order.
    pub(crate) items: Vec<Item>,
    /// The directory arguments (as given), for the output planner.
    pub(crate) dir_args: Vec<PathBuf>,
    /// Whether the arguments were exactly one file or `-` (or nothing): the
    /// case where standard output is a sensible destination.
    pub(crate) single: bool,
    /// Files the directory walks passed over, by extension (lower case,
    /// `""` for none): what [`Walk::skipped_pages`] reports from.
    pub(crate) skipped: BTreeMap<String, usize>,
}

/// Extensions of pages a server makes (and of web archives' pages) that a
/// walk for HTML passes over: worth a word, since they usually hold HTML.
const PAGE_LIKE: &[&str] = &[
    "php", "php3", "php4", "php5", "phtml", "shtml", "shtm", "stm", "asp", "aspx", "jsp", "jspx",
    "cfm", "cgi", "xht",
];

impl Walk {
    /// What the walks passed over that may be pages, for a walk that looks
    /// for HTML: `2 .php, 1 without an extension`, or `None`.
    pub(crate) fn skipped_pages(&self) -> Option<String> {
        let parts: Vec<String> = self
            .skipped
            .iter()
            .filter(|(ext, _)| ext.is_empty() || PAGE_LIKE.contains(&ext.as_str()))
            .map(|(ext, n)| {
                if ext.is_empty() {
                    format!("{n} without an extension")
                } else {
                    format!("{n} .{ext}")
                }
            })
            .collect();
        (!parts.is_empty()).then(|| parts.join(", "))
    }
}

/// Walks the INPUT arguments. No argument means standard input.
pub(crate) fn walk(args: &[PathBuf], rules: WalkRules<'_>) -> Walk {
    let mut walk = Walk::default();
    let mut seen = HashSet::new();
    let stdin_arg = Path::new("-");
    if args.is_empty() {
        walk.items.push(Ok(stdin_input()));
        walk.single = true;
        return walk;
    }
    let mut stdin_taken = false;
    for arg in args {
        if arg.as_path() == stdin_arg {
            if stdin_taken {
                walk.items.push(Err(PathError {
                    path: "-".to_string(),
                    message: "standard input given more than once".to_string(),
                }));
            } else {
                stdin_taken = true;
                walk.items.push(Ok(stdin_input()));
            }
            continue;
        }
        match fs::metadata(arg) {
            Err(e) => walk.items.push(Err(path_error(arg, &e))),
            Ok(meta) if meta.is_dir() => {
                if rules.directories {
                    walk.dir_args.push(arg.clone());
                    walk_dir(arg, rules, &mut seen, &mut walk);
                } else {
                    walk.items.push(Err(PathError {
                        path: arg.display().to_string(),
                        message: format!("is a directory, but this command needs {}", rules.what),
                    }));
                }
            }
            Ok(_) => {
                if remember(arg, &mut seen) {
                    walk.items.push(Ok(Input {
                        source: Source::File(arg.clone()),
                        below_dir: None,
                    }));
                }
            }
        }
    }
    walk.single = args.len() == 1 && walk.dir_args.is_empty();
    walk
}

fn stdin_input() -> Input {
    Input {
        source: Source::Stdin,
        below_dir: None,
    }
}

/// Records a file by its canonical path; false when it was already taken
/// (the same file named twice, or reached through a link).
fn remember(path: &Path, seen: &mut HashSet<PathBuf>) -> bool {
    match fs::canonicalize(path) {
        Ok(canonical) => seen.insert(canonical),
        // Readable but not canonicalisable (unusual): keep it.
        Err(_) => true,
    }
}

/// A directory still to read, with the canonical paths of the directories
/// above it in this walk (to detect symbolic link loops).
struct Pending {
    path: PathBuf,
    below: PathBuf,
    /// (canonical path, path as the walk shows it) of each directory above.
    ancestors: Rc<Vec<(PathBuf, PathBuf)>>,
}

enum Step {
    Dir(Pending),
    /// A file: its path, its path below the walked directory, and its
    /// canonical path when the walk knows it without asking (a regular
    /// file, not a link, in a directory whose canonical path is known).
    File(PathBuf, PathBuf, Option<PathBuf>),
    Error(PathError),
    /// A file without one of the extensions looked for: its extension.
    Skipped(String),
}

fn walk_dir(root: &Path, rules: WalkRules<'_>, seen: &mut HashSet<PathBuf>, walk: &mut Walk) {
    let out = &mut walk.items;
    let root_canonical = match fs::canonicalize(root) {
        Ok(c) => c,
        Err(e) => {
            out.push(Err(path_error(root, &e)));
            return;
        }
    };
    let mut stack = vec![Step::Dir(Pending {
        path: root.to_path_buf(),
        below: PathBuf::new(),
        ancestors: Rc::new(vec![(root_canonical, root.to_path_buf())]),
    })];
    while let Some(step) = stack.pop() {
        match step {
            Step::Error(e) => out.push(Err(e)),
            Step::Skipped(ext) => *walk.skipped.entry(ext).or_default() += 1,
            Step::File(path, below, canonical) => {
                let new = match canonical {
                    Some(canonical) => seen.insert(canonical),
                    None => remember(&path, seen),
                };
                if new {
                    out.push(Ok(Input {
                        source: Source::File(path),
                        below_dir: Some(below),
                    }));
                }
            }
            Step::Dir(dir) => {
                let mut children = read_children(&dir, rules);
                // Reversed, so that popping visits them in name order.
                children.reverse();
                stack.extend(children);
            }
        }
    }
}

/// The entries of one directory that the walk goes on with, in name order.
fn read_children(dir: &Pending, rules: WalkRules<'_>) -> Vec<Step> {
    let entries = match fs::read_dir(&dir.path) {
        Ok(entries) => entries,
        Err(e) => return vec![Step::Error(path_error(&dir.path, &e))],
    };
    let mut names = Vec::new();
    for entry in entries {
        match entry {
            // The type from the directory entry (no system call where the
            // file system records it); only used to skip `realpath` below.
            Ok(entry) => names.push((entry.file_name(), entry.file_type().ok())),
            Err(e) => return vec![Step::Error(path_error(&dir.path, &e))],
        }
    }
    // Names are unique in a directory: ordering by name alone is total.
    names.sort_by(|a, b| a.0.cmp(&b.0));
    // This directory's canonical path: the last of its ancestors.
    let dir_canonical = dir.ancestors.last().map(|(c, _)| c);
    let mut steps = Vec::new();
    for (name, entry_type) in names {
        if is_hidden(&name) {
            continue;
        }
        let path = dir.path.join(&name);
        let below = dir.below.join(&name);
        let meta = match fs::metadata(&path) {
            Ok(meta) => meta,
            Err(e) => {
                // A dangling link whose name does not look like an input is
                // no business of ours.
                let is_link = fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink());
                if is_link && !has_extension(&path, rules.extensions) && !is_loop(&e) {
                    continue;
                }
                steps.push(Step::Error(path_error(&path, &e)));
                continue;
            }
        };
        if meta.is_dir() {
            let canonical = match fs::canonicalize(&path) {
                Ok(c) => c,
                Err(e) => {
                    steps.push(Step::Error(path_error(&path, &e)));
                    continue;
                }
            };
            if let Some((_, shown)) = dir.ancestors.iter().find(|(c, _)| *c == canonical) {
                steps.push(Step::Error(PathError {
                    path: path.display().to_string(),
                    message: format!(
                        "symbolic link loop: leads back to {} (not followed)",
                        shown.display()
                    ),
                }));
                continue;
            }
            let mut ancestors = Vec::with_capacity(dir.ancestors.len() + 1);
            ancestors.extend(dir.ancestors.iter().cloned());
            ancestors.push((canonical, path.clone()));
            steps.push(Step::Dir(Pending {
                path,
                below,
                ancestors: Rc::new(ancestors),
            }));
        } else if has_extension(&path, rules.extensions) {
            // A regular file (not a link) in a directory with a known
            // canonical path: its canonical path is that and its name.
            let canonical = match (entry_type, dir_canonical) {
                (Some(t), Some(d)) if t.is_file() && meta.is_file() => Some(d.join(&name)),
                _ => None,
            };
            steps.push(Step::File(path, below, canonical));
        } else if meta.is_file() {
            let ext = path
                .extension()
                .map_or(String::new(), |e| e.to_string_lossy().to_ascii_lowercase());
            steps.push(Step::Skipped(ext));
        }
    }
    steps
}

fn is_hidden(name: &OsStr) -> bool {
    name.as_encoded_bytes().first() == Some(&b'.')
}

/// Whether the path's extension is one of `extensions` (ASCII case-insensitive).
pub(crate) fn has_extension(path: &Path, extensions: &[&str]) -> bool {
    path.extension()
        .and_then(OsStr::to_str)
        .is_some_and(|ext| extensions.iter().any(|e| ext.eq_ignore_ascii_case(e)))
}

/// Whether an I/O error is "too many levels of symbolic links".
pub(crate) fn is_loop(e: &io::Error) -> bool {
    // ELOOP is 40 on Linux and 62 on the BSDs and macOS.
    const ELOOP: i32 = if cfg!(target_os = "linux") { 40 } else { 62 };
    cfg!(unix) && e.raw_os_error() == Some(ELOOP)
}

/// A path error with a readable reason.
pub(crate) fn path_error(path: &Path, e: &io::Error) -> PathError {
    PathError {
        path: path.display().to_string(),
        message: describe_io_error(e),
    }
}

/// An I/O error as a short lower-case reason: "no such file or directory",
/// "permission denied", "symbolic link loop (too many levels of symbolic links)".
pub(crate) fn describe_io_error(e: &io::Error) -> String {
    if is_loop(e) {
        return "symbolic link loop (too many levels of symbolic links)".to_string();
    }
    let text = e.to_string();
    // std appends " (os error N)" to OS errors; the number helps nobody here.
    let text = match text.rfind(" (os error ") {
        Some(i) if text.ends_with(')') => text[..i].to_string(),
        _ => text,
    };
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => "unknown I/O error".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RULES: WalkRules<'static> = WalkRules {
        extensions: &["html", "htm"],
        directories: true,
        what: "files",
    };

    fn names(walk: &Walk, root: &Path) -> Vec<String> {
        walk.items
            .iter()
            .map(|item| match item {
                Ok(input) => match &input.source {
                    Source::Stdin => "-".to_string(),
                    Source::File(p) => p.strip_prefix(root).unwrap_or(p).display().to_string(),
                },
                Err(e) => format!("error {}", e.message),
            })
            .collect()
    }

    #[test]
    fn nothing_means_stdin() {
        let walk = walk(&[], RULES);
        assert!(walk.single);
        assert!(matches!(
            &walk.items[..],
            [Ok(Input {
                source: Source::Stdin,
                ..
            })]
        ));
    }

    #[test]
    fn stdin_twice_is_an_error() {
        let walk = walk(&["-".into(), "-".into()], RULES);
        assert!(!walk.single);
        assert_eq!(walk.items.len(), 2);
        assert!(walk.items[1].is_err());
    }

    #[test]
    fn directories_are_walked_in_name_order_for_the_right_extensions() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir_all(root.join("b/c")).unwrap();
        fs::create_dir_all(root.join(".git")).unwrap();
        for f in [
            "z.html",
            "a.HTM",
            "b/c/d.html",
            "b/note.txt",
            ".git/x.html",
            "b/.hidden.html",
        ] {
            fs::write(root.join(f), "x").unwrap();
        }
        let walk = walk(&[root.to_path_buf()], RULES);
        assert!(!walk.single);
        assert_eq!(names(&walk, root), ["a.HTM", "b/c/d.html", "z.html"]);
        let below: Vec<_> = walk
            .items
            .iter()
            .map(|i| i.as_ref().unwrap().below_dir.clone().unwrap())
            .collect();
        assert_eq!(
            below,
            [PathBuf::from("a.HTM"), "b/c/d.html".into(), "z.html".into()]
        );
    }

    #[test]
    fn the_same_file_twice_is_taken_once() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("a.html");
        fs::write(&f, "x").unwrap();
        let walk = walk(&[f.clone(), dir.path().to_path_buf(), f], RULES);
        assert_eq!(walk.items.len(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn symlink_loops_are_reported_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir(root.join("sub")).unwrap();
        fs::write(root.join("sub/a.html"), "x").unwrap();
        std::os::unix::fs::symlink("..", root.join("sub/up")).unwrap();
        std::os::unix::fs::symlink("self.html", root.join("self.html")).unwrap();
        let walk = walk(&[root.to_path_buf()], RULES);
        let names = names(&walk, root);
        assert_eq!(names.len(), 3, "{names:?}");
        assert!(
            names[0].starts_with("error symbolic link loop"),
            "{names:?}"
        );
        assert_eq!(names[1], "sub/a.html");
        assert!(
            names[2].starts_with("error symbolic link loop: leads back to"),
            "{names:?}"
        );
    }

    #[test]
    fn missing_paths_and_directories_where_files_are_needed() {
        let dir = tempfile::tempdir().unwrap();
        let rules = WalkRules {
            directories: false,
            what: "HTML files",
            ..RULES
        };
        let walk = walk(
            &[dir.path().join("nope.html"), dir.path().to_path_buf()],
            rules,
        );
        assert_eq!(
            names(&walk, dir.path()),
            [
                "error no such file or directory",
                "error is a directory, but this command needs HTML files"
            ]
        );
    }

    #[test]
    fn io_errors_read_well() {
        let e = io::Error::from_raw_os_error(2);
        assert_eq!(describe_io_error(&e), "no such file or directory");
        let e = io::Error::other("Custom thing");
        assert_eq!(describe_io_error(&e), "custom thing");
    }
}
