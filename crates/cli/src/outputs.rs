//! Output planning: where each input's output goes, decided before anything
//! is converted, so that a run that would write into its own input tree, over
//! an input, or twice to the same file is refused before it starts.
//!
//! - no `-o`: standard output, for a single input (or with `--json`, where each
//!   output travels inside its JSON object);
//! - `-o FILE`: one file, for a single input;
//! - `-o DIR` (an existing directory, a path ending in `/`, or several inputs):
//!   the input tree mirrored into DIR with the output extension;
//! - `--in-place`: each input replaced (through symbolic links, so the link
//!   stays a link).

use std::collections::{BTreeSet, HashMap};
use std::env;
use std::fs;
use std::path::{Component, Path, PathBuf};

use crate::inputs::{Item, Source, Walk};

/// Where one input's output goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Dest {
    /// Standard output (or, with `--json`, the input's JSON object).
    Stdout,
    /// The file named by `-o FILE`, written atomically.
    File(PathBuf),
    /// A file in the `-o DIR` tree, written atomically, its parent
    /// directories created.
    Mirror(PathBuf),
    /// The input itself, replaced atomically: the resolved path of the input.
    InPlace(PathBuf),
    /// Nowhere: the command only reports.
    Nothing,
}

/// What the user asked for.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Request<'a> {
    /// No `-o`: standard output.
    Default,
    /// `-o PATH`.
    Output(&'a Path),
    /// `--in-place`.
    InPlace,
    /// Nothing is written (`check`, `fmt --check`).
    Nothing,
}

impl<'a> Request<'a> {
    /// `-o PATH` when it was given, else standard output.
    pub(crate) fn output_or_default(output: Option<&'a Path>) -> Request<'a> {
        output.map_or(Request::Default, Request::Output)
    }
}

/// How a command names its outputs.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Naming {
    /// Replace the extension (page.html -> page.txt).
    Extension(&'static str),
    /// Keep the input's name (`fmt`).
    Same,
}

impl Naming {
    fn apply(self, path: &Path) -> PathBuf {
        match self {
            Naming::Extension(ext) => path.with_extension(ext),
            Naming::Same => path.to_path_buf(),
        }
    }
}

/// A plan: one destination (or a reason why there is none) per walk item.
/// Items that are already errors get [`Dest::Nothing`].
pub(crate) type Plan = Vec<Result<Dest, String>>;

/// Decides every destination, or refuses the whole run with a usage error.
pub(crate) fn plan(
    walk: &Walk,
    request: Request<'_>,
    naming: Naming,
    json: bool,
) -> Result<Plan, String> {
    let inputs = walk.items.iter().filter(|i| i.is_ok()).count();
    match request {
        Request::Nothing => Ok(walk.items.iter().map(|_| Ok(Dest::Nothing)).collect()),
        Request::InPlace => plan_in_place(walk),
        Request::Default => plan_stdout(walk, inputs, json),
        Request::Output(path) if path == Path::new("-") => plan_stdout(walk, inputs, json),
        Request::Output(path) => {
            let ends_with_slash = path.as_os_str().as_encoded_bytes().last() == Some(&b'/');
            let exists = fs::metadata(path);
            let is_dir = exists.as_ref().is_ok_and(|m| m.is_dir());
            if !walk.single && exists.is_err() && !ends_with_slash && names_a_file(path) {
                return Err(format!(
                    "-o {} reads as a file name, and these inputs need an output directory \
                     (-o FILE takes one input): give a directory (it is made; end it with / \
                     to keep such a name)",
                    path.display(),
                ));
            }
            if is_dir || ends_with_slash || !walk.single {
                plan_dir(walk, path, naming, inputs)
            } else {
                plan_file(walk, path)
            }
        }
    }
}

/// Whether a path that does not exist yet reads as the name of an output
/// file (its extension is one pagetext writes), not of a directory.
fn names_a_file(path: &Path) -> bool {
    path.extension().and_then(|e| e.to_str()).is_some_and(|e| {
        ["txt", "text", "html", "htm", "xhtml", "json", "jsonl"]
            .iter()
            .any(|x| e.eq_ignore_ascii_case(x))
    })
}

fn plan_stdout(walk: &Walk, inputs: usize, json: bool) -> Result<Plan, String> {
    if !walk.single && !json && inputs > 0 {
        return Err(format!(
            "{inputs} input{} and no -o: name an output directory with -o DIR (or use --json)",
            plural(inputs)
        ));
    }
    Ok(each(&walk.items, |_| Ok(Dest::Stdout)))
}

fn plan_in_place(walk: &Walk) -> Result<Plan, String> {
    let stdin = walk
        .items
        .iter()
        .any(|i| matches!(i, Ok(input) if input.source == Source::Stdin));
    if stdin {
        return Err("--in-place needs files: standard input cannot be replaced".to_string());
    }
    Ok(each(&walk.items, |source| match source {
        Source::Stdin => Err("standard input cannot be replaced".to_string()),
        // Replace the file a link points to, not the link.
        Source::File(path) => Ok(Dest::InPlace(
            fs::canonicalize(path).unwrap_or_else(|_| path.clone()),
        )),
    }))
}

fn plan_file(walk: &Walk, target: &Path) -> Result<Plan, String> {
    let mut resolver = Resolver::default();
    let resolved_target = resolver.resolve(target);
    for item in walk.items.iter().flatten() {
        if let Source::File(path) = &item.source
            && resolver.resolve(path) == resolved_target
        {
            return Err(format!(
                "refusing to write over the input {}: only `fmt --in-place` replaces an input",
                path.display()
            ));
        }
    }
    Ok(each(&walk.items, |_| Ok(Dest::File(target.to_path_buf()))))
}

fn plan_dir(walk: &Walk, out: &Path, naming: Naming, inputs: usize) -> Result<Plan, String> {
    if let Ok(meta) = fs::metadata(out)
        && !meta.is_dir()
    {
        return Err(format!(
            "-o {}: not a directory, but {inputs} input{} need one",
            out.display(),
            plural(inputs)
        ));
    }
    let mut resolver = Resolver::default();
    let resolved_out = resolver.resolve(out);
    for dir in &walk.dir_args {
        let resolved_dir = resolver.resolve(dir);
        if resolved_out.starts_with(&resolved_dir) {
            return Err(format!(
                "refusing to write into {}: it is inside the input directory {} \
                 (choose an output directory outside the input tree)",
                out.display(),
                dir.display()
            ));
        }
    }
    // Every input file, resolved, to refuse replacing one.
    let input_files: HashMap<PathBuf, String> = walk
        .items
        .iter()
        .flatten()
        .filter_map(|i| match &i.source {
            Source::File(p) => Some((resolver.resolve(p), p.display().to_string())),
            Source::Stdin => None,
        })
        .collect();
    let mut taken: HashMap<PathBuf, String> = HashMap::new();
    let plan = walk
        .items
        .iter()
        .map(|item| {
            let Ok(input) = item else {
                return Ok(Dest::Nothing);
            };
            let Source::File(path) = &input.source else {
                return Err("standard input cannot be mirrored into a directory: \
                            give it its own run with -o FILE"
                    .to_string());
            };
            let relative = match &input.below_dir {
                Some(below) => naming.apply(below),
                None => naming.apply(Path::new(path.file_name().unwrap_or(path.as_os_str()))),
            };
            let dest = out.join(relative);
            let resolved = resolver.resolve(&dest);
            if let Some(original) = input_files.get(&resolved) {
                return Err(format!(
                    "its output {} would replace the input {original}: only `fmt --in-place` \
                     replaces an input",
                    dest.display()
                ));
            }
            if let Some(first) = taken.get(&resolved) {
                return Err(format!(
                    "its output {} is already the output of {first}",
                    dest.display()
                ));
            }
            taken.insert(resolved, path.display().to_string());
            Ok(Dest::Mirror(dest))
        })
        .collect::<Plan>();
    // Two inputs with one output refuse the run before anything is written
    // (the first would be written, the second refused, and a rerun after
    // renaming one would find the first's output in the way).
    let clash = walk
        .items
        .iter()
        .zip(&plan)
        .find_map(|(item, dest)| match (item, dest) {
            (Ok(input), Err(e)) if e.contains("is already the output of") => Some((input, e)),
            _ => None,
        });
    if let Some((input, e)) = clash {
        let name = match &input.source {
            Source::File(p) => p.display().to_string(),
            Source::Stdin => "-".to_string(),
        };
        return Err(format!(
            "{name}: {e}: nothing was written (rename one of the two, or convert them in separate runs)"
        ));
    }
    Ok(plan)
}

/// The directories a plan writes files into: where the atomic writes of an
/// interrupted run into the same outputs left their temporary files. An
/// existing target that is not a regular file (a device, a FIFO) is written
/// directly, without a temporary file, so its directory is not one of them.
pub(crate) fn written_dirs(plan: &Plan) -> BTreeSet<PathBuf> {
    plan.iter()
        .filter_map(|dest| match dest {
            Ok(Dest::File(path) | Dest::Mirror(path) | Dest::InPlace(path)) => Some(path),
            _ => None,
        })
        .filter(|path| fs::metadata(path).map_or(true, |meta| meta.is_file()))
        .map(|path| dir_of(path))
        .collect()
}

/// The directory a file is written in (`.` for a bare file name).
pub(crate) fn dir_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Maps every walk item through `f`; error items get [`Dest::Nothing`].
fn each(items: &[Item], mut f: impl FnMut(&Source) -> Result<Dest, String>) -> Plan {
    items
        .iter()
        .map(|item| match item {
            Ok(input) => f(&input.source),
            Err(_) => Ok(Dest::Nothing),
        })
        .collect()
}

/// Resolves paths: an absolute path with symbolic links resolved as far as
/// the path exists, and `.`/`..` folded in the part that does not exist yet.
/// Made for many paths: the working directory is read once and each
/// directory is canonicalised once, so that planning a thousand files in one
/// folder costs a thousand `lstat` calls, not a thousand `realpath`s (each
/// a `getcwd` and one `readlink` per component).
#[derive(Debug, Default)]
pub(crate) struct Resolver {
    cwd: Option<Option<PathBuf>>,
    /// Resolved paths of the parent directories seen so far.
    dirs: HashMap<PathBuf, PathBuf>,
}

impl Resolver {
    /// `path` resolved.
    pub(crate) fn resolve(&mut self, path: &Path) -> PathBuf {
        let absolute = if path.is_absolute() {
            path.to_path_buf()
        } else {
            match self.cwd.get_or_insert_with(|| env::current_dir().ok()) {
                Some(cwd) => cwd.join(path),
                None => path.to_path_buf(),
            }
        };
        // `..` is folded first (lexically, as a shell user reads the path),
        // then the longest prefix that exists is canonicalised.
        let absolute = normalise(&absolute);
        self.resolve_normal(&absolute)
    }

    /// Resolves an absolute path without `.` and `..`: the canonical path
    /// when it exists, else its parent resolved and its name appended. A
    /// name that exists and is not a symbolic link resolves to its parent's
    /// resolved path and the name, which is what `realpath` would say.
    fn resolve_normal(&mut self, path: &Path) -> PathBuf {
        let (Some(name), Some(parent)) = (path.file_name(), path.parent()) else {
            return fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        };
        match fs::symlink_metadata(path) {
            Ok(meta) if !meta.file_type().is_symlink() => self.resolve_dir(parent).join(name),
            // A link: what it leads to, when it leads somewhere.
            Ok(_) => match fs::canonicalize(path) {
                Ok(canonical) => canonical,
                Err(_) => self.resolve_dir(parent).join(name),
            },
            // Does not exist (or cannot be looked at): canonicalize would
            // fail too.
            Err(_) => self.resolve_dir(parent).join(name),
        }
    }

    /// [`Resolver::resolve_normal`] of a parent directory, looked up once per
    /// plan (nothing is created while a plan is made).
    fn resolve_dir(&mut self, dir: &Path) -> PathBuf {
        if let Some(hit) = self.dirs.get(dir) {
            return hit.clone();
        }
        let resolved = self.resolve_normal(dir);
        self.dirs.insert(dir.to_path_buf(), resolved.clone());
        resolved
    }
}

/// Folds `.` and `..` lexically.
fn normalise(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inputs::{WalkRules, walk};

    const RULES: WalkRules<'static> = WalkRules {
        extensions: &["html"],
        directories: true,
        what: "files",
    };

    fn site() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir_all(dir.path().join("site/sub")).unwrap();
        fs::write(dir.path().join("site/a.html"), "a").unwrap();
        fs::write(dir.path().join("site/sub/b.html"), "b").unwrap();
        dir
    }

    #[test]
    fn one_input_goes_to_stdout_many_need_a_directory() {
        let tmp = site();
        let one = walk(&[tmp.path().join("site/a.html")], RULES);
        assert_eq!(
            plan(&one, Request::Default, Naming::Extension("txt"), false),
            Ok(vec![Ok(Dest::Stdout)])
        );
        let many = walk(&[tmp.path().join("site")], RULES);
        let err = plan(&many, Request::Default, Naming::Extension("txt"), false).unwrap_err();
        assert!(err.starts_with("2 inputs and no -o"), "{err}");
        // With --json, every output travels in its JSON object.
        assert!(plan(&many, Request::Default, Naming::Extension("txt"), true).is_ok());
    }

    #[test]
    fn a_directory_is_mirrored_with_the_new_extension() {
        let tmp = site();
        let many = walk(&[tmp.path().join("site")], RULES);
        let out = tmp.path().join("out");
        let plan = plan(
            &many,
            Request::Output(&out),
            Naming::Extension("txt"),
            false,
        )
        .unwrap();
        assert_eq!(
            plan,
            vec![
                Ok(Dest::Mirror(out.join("a.txt"))),
                Ok(Dest::Mirror(out.join("sub/b.txt")))
            ]
        );
    }

    #[test]
    fn output_inside_the_input_tree_is_refused() {
        let tmp = site();
        let many = walk(&[tmp.path().join("site")], RULES);
        for out in [
            tmp.path().join("site/out"),
            tmp.path().join("site"),
            tmp.path().join("site/sub/../x"),
        ] {
            let err = plan(
                &many,
                Request::Output(&out),
                Naming::Extension("txt"),
                false,
            )
            .unwrap_err();
            assert!(err.starts_with("refusing to write into"), "{err}");
        }
    }

    #[test]
    fn writing_over_an_input_is_refused() {
        let tmp = site();
        let a = tmp.path().join("site/a.html");
        let one = walk(std::slice::from_ref(&a), RULES);
        let err = plan(&one, Request::Output(&a), Naming::Same, false).unwrap_err();
        assert!(err.starts_with("refusing to write over the input"), "{err}");
        // Mirroring two files into their own directory would replace them.
        let b = tmp.path().join("site/sub/b.html");
        let two = walk(&[a, b], RULES);
        let plan = plan(
            &two,
            Request::Output(&tmp.path().join("site")),
            Naming::Same,
            false,
        )
        .unwrap();
        assert!(
            plan[0]
                .as_ref()
                .unwrap_err()
                .contains("would replace the input")
        );
        assert_eq!(plan[1], Ok(Dest::Mirror(tmp.path().join("site/b.html"))));
    }

    #[test]
    fn two_inputs_with_one_output_name_clash() {
        let tmp = site();
        fs::write(tmp.path().join("site/a.htm"), "a").unwrap();
        let rules = WalkRules {
            extensions: &["html", "htm"],
            ..RULES
        };
        let many = walk(&[tmp.path().join("site")], rules);
        let out = tmp.path().join("out");
        // Refused before anything is written, not after the first.
        let err = plan(
            &many,
            Request::Output(&out),
            Naming::Extension("txt"),
            false,
        )
        .unwrap_err();
        assert!(err.contains("is already the output of"), "{err}");
        assert!(err.contains("nothing was written"), "{err}");
    }

    #[test]
    fn several_inputs_to_a_file_name_are_refused() {
        let tmp = site();
        let many = walk(&[tmp.path().join("site")], RULES);
        for name in ["one.txt", "one.HTML"] {
            let out = tmp.path().join(name);
            let err = plan(
                &many,
                Request::Output(&out),
                Naming::Extension("txt"),
                false,
            )
            .unwrap_err();
            assert!(err.contains("reads as a file name"), "{err}");
        }
        // A name without such an extension, or ending in a slash, is a
        // directory to make.
        for name in ["out", "out.txt/"] {
            let out = tmp.path().join(name);
            assert!(
                plan(
                    &many,
                    Request::Output(&out),
                    Naming::Extension("txt"),
                    false
                )
                .is_ok(),
                "{name}"
            );
        }
    }

    #[test]
    fn a_file_where_a_directory_is_needed() {
        let tmp = site();
        let many = walk(&[tmp.path().join("site")], RULES);
        let file = tmp.path().join("site/a.html");
        let err = plan(
            &many,
            Request::Output(&file),
            Naming::Extension("txt"),
            false,
        )
        .unwrap_err();
        assert!(
            err.contains("not a directory, but 2 inputs need one"),
            "{err}"
        );
    }

    #[test]
    fn in_place_refuses_stdin() {
        let stdin = walk(&[], RULES);
        assert!(plan(&stdin, Request::InPlace, Naming::Same, false).is_err());
    }

    #[test]
    fn resolve_folds_paths_that_do_not_exist_yet() {
        let tmp = tempfile::tempdir().unwrap();
        let base = fs::canonicalize(tmp.path()).unwrap();
        assert_eq!(
            Resolver::default().resolve(&tmp.path().join("x/../y/./z")),
            base.join("y/z")
        );
    }

    #[cfg(unix)]
    #[test]
    fn resolver_follows_links_like_canonicalize() {
        let tmp = tempfile::tempdir().unwrap();
        let base = fs::canonicalize(tmp.path()).unwrap();
        fs::create_dir(base.join("a")).unwrap();
        fs::write(base.join("a/f"), "x").unwrap();
        std::os::unix::fs::symlink(base.join("a"), base.join("l")).unwrap();
        std::os::unix::fs::symlink(base.join("a/f"), base.join("a/g")).unwrap();
        let mut r = Resolver::default();
        // The same resolver, several times: the cache gives the same answers.
        for _ in 0..2 {
            assert_eq!(r.resolve(&tmp.path().join("l/f")), base.join("a/f"));
            assert_eq!(r.resolve(&tmp.path().join("l/g")), base.join("a/f"));
            assert_eq!(r.resolve(&tmp.path().join("a/f")), base.join("a/f"));
            assert_eq!(
                r.resolve(&tmp.path().join("l/new/x.txt")),
                base.join("a/new/x.txt")
            );
        }
    }
}
