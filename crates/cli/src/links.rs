//! `pagetext check --links DIR`: the links between the pages of a site. A
//! link to a file of the site that does not exist, or to an anchor its
//! target page does not have, is reported with its page, line and column.
//!
//! Each directory argument is a site: its text pages (`.txt`) are read with
//! `wikitext::parse`, its HTML pages as `to-text` reads them (ingestion, so
//! that their anchors are the names the text gives them), and every link is
//! followed inside the folder:
//!
//! - a URL with a scheme (`https:`, `mailto:`) or a host (`//host/x`) is
//!   another site's and is not checked;
//! - its query is left out, its path percent-decoded, and read from the
//!   page's folder (from the site's folder when it starts with `/`); a path
//!   that climbs out of the site is not checked;
//! - a folder stands for its `index.html`, `index.htm` or `index.txt`;
//! - a fragment must name an anchor of the target page, as a browser finds
//!   it (`wikitext::finds_anchor`); the fragments of other files (images,
//!   PDF) are not checked.
//!
//! The per-document rules (what a link and an anchor are, how a fragment
//! finds its anchor) are wikitext's ([`wikitext::references`]); this module
//! owns only files and folders.

use std::collections::{HashMap, HashSet};
use std::fs;
use std::path::{Component, Path, PathBuf};

use serde::Serialize;
use wikitext::Document;

/// The page extensions whose anchors are known.
const PAGE_EXTENSIONS: &[&str] = &["txt", "html", "htm", "xhtml"];

/// What a folder link stands for, in order.
pub(crate) const INDEX_FILES: &[&str] = &["index.html", "index.htm", "index.txt"];

/// A link that points to nothing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct Broken {
    /// The page holding the link, as found by walking its folder.
    pub(crate) page: String,
    /// The link's line in that page (its source line for HTML).
    pub(crate) line: u32,
    /// The link's column in characters, 0 when unknown (HTML pages).
    pub(crate) column: u32,
    /// The link's URL as the page's text holds it.
    pub(crate) url: String,
    /// What is missing.
    pub(crate) problem: String,
}

/// One page of a site: its path below the site folder and its document.
pub(crate) struct Page {
    /// The path below the site's folder.
    pub(crate) rel: PathBuf,
    /// The page as the text format holds it.
    pub(crate) doc: Document,
}

/// Reads a page of the site: text as the format, HTML through ingestion.
pub(crate) fn read_page(path: &Path, bytes: &[u8]) -> Document {
    let is_text = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("txt"));
    if is_text {
        wikitext::parse(&String::from_utf8_lossy(bytes)).document
    } else {
        htmlio::ingest::ingest(bytes, &htmlio::ingest::Options::default()).document
    }
}

/// The links of `pages` (all the pages of the site at `root`) that point
/// to a missing file or a missing anchor, in page order then document
/// order. Pages that are linked to but not among `pages` (not a page
/// extension) are checked for existence only.
pub(crate) fn check_site(root: &Path, pages: &[Page]) -> (Vec<Broken>, usize) {
    check_site_with(pages, |path| resolve(root, path))
}

/// [`check_site`] with the site's files found by `resolve`: the file a
/// path below the site's folder names (a folder's index file for a
/// folder), as a path below that folder, or `None`. The editor finds them
/// through its folder handles rather than by path.
pub(crate) fn check_site_with(
    pages: &[Page],
    resolve: impl Fn(&Path) -> Option<PathBuf>,
) -> (Vec<Broken>, usize) {
    // Each page's references, read once: its anchors for the links that
    // point to it, its links to be followed.
    let refs: Vec<wikitext::References<'_>> =
        pages.iter().map(|p| wikitext::references(&p.doc)).collect();
    let anchors: HashMap<&Path, HashSet<&str>> = pages
        .iter()
        .zip(&refs)
        .map(|(p, r)| (p.rel.as_path(), r.anchors.iter().copied().collect()))
        .collect();
    let mut broken = Vec::new();
    let mut checked = 0;
    for (page, refs) in pages.iter().zip(&refs) {
        for &(url, pos) in &refs.links {
            let Some(target) = Target::of(url, &page.rel) else {
                continue;
            };
            checked += 1;
            let problem = match resolve(&target.path) {
                None => Some(format!(
                    "no such file in the site: {}",
                    target.path.display()
                )),
                Some(file) => target.fragment.as_deref().and_then(|name| {
                    let names = anchors.get(file.as_path())?;
                    (!wikitext::finds_anchor(names, name))
                        .then(|| format!("{} has no anchor {name:?}", file.display()))
                }),
            };
            if let Some(problem) = problem {
                broken.push(Broken {
                    page: page.rel.display().to_string(),
                    line: pos.line,
                    column: pos.column,
                    url: url.to_owned(),
                    problem,
                });
            }
        }
    }
    (broken, checked)
}

/// Where a link of the site points: a path below the site's folder and a
/// fragment.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Target {
    /// The path below the site's folder, percent-decoded (ending with an
    /// empty component for a folder link, `dir/`).
    pub(crate) path: PathBuf,
    /// The fragment, when not empty.
    pub(crate) fragment: Option<String>,
}

impl Target {
    /// The target of `url` written in the page at `page` (below the site's
    /// folder); `None` for another site's URL or a path out of the site.
    pub(crate) fn of(url: &str, page: &Path) -> Option<Target> {
        if url.starts_with("//") || microsyntax::url::has_scheme(url) {
            return None;
        }
        let (rest, fragment) = match url.split_once('#') {
            Some((rest, f)) => (rest, (!f.is_empty()).then(|| f.to_owned())),
            None => (url, None),
        };
        let path = rest.split('?').next().unwrap_or_default();
        if path.is_empty() {
            return Some(Target {
                path: page.to_path_buf(),
                fragment,
            });
        }
        let decoded = percent_encoding::percent_decode_str(path).decode_utf8_lossy();
        let joined = match decoded.strip_prefix('/') {
            Some(from_root) => PathBuf::from(from_root),
            None => page
                .parent()
                .unwrap_or(Path::new(""))
                .join(decoded.as_ref()),
        };
        let mut parts = PathBuf::new();
        for component in joined.components() {
            match component {
                Component::Normal(part) => parts.push(part),
                Component::ParentDir => {
                    if !parts.pop() {
                        return None;
                    }
                }
                Component::CurDir | Component::RootDir | Component::Prefix(_) => {}
            }
        }
        if decoded.ends_with('/') {
            parts.push("");
        }
        Some(Target {
            path: parts,
            fragment,
        })
    }
}

/// The file below `root` that `path` names (a folder's index file for a
/// folder), as a path below `root`; `None` when there is none.
fn resolve(root: &Path, path: &Path) -> Option<PathBuf> {
    let full = root.join(path);
    match fs::metadata(&full) {
        Ok(m) if m.is_file() => Some(path.to_path_buf()),
        Ok(m) if m.is_dir() => INDEX_FILES
            .iter()
            .map(|index| path.join(index))
            .find(|p| root.join(p).is_file()),
        _ => None,
    }
}

/// `check --links DIR...`: walks each folder, reads its pages, prints
/// each broken link (a line, or a JSON object with `--json`) on standard
/// output and a summary on standard error; whether no link is broken.
pub(crate) fn run(dirs: &[PathBuf], json: bool, quiet: bool) -> anyhow::Result<bool> {
    use std::io::Write as _;

    use rayon::prelude::*;

    if dirs.is_empty() {
        anyhow::bail!("--links checks a site: give its folder (pagetext check --links DIR)");
    }
    let mut all_broken = 0;
    let mut out = crate::stdout::lock();
    for root in dirs {
        if !root.is_dir() {
            anyhow::bail!(
                "--links checks a site: {} is not a folder (pagetext check --links DIR)",
                root.display()
            );
        }
        let walk = crate::inputs::walk(
            std::slice::from_ref(root),
            crate::inputs::WalkRules {
                extensions: PAGE_EXTENSIONS,
                directories: true,
                what: "pages",
            },
        );
        let files: Vec<PathBuf> = walk
            .items
            .into_iter()
            .filter_map(|item| match item {
                Ok(input) => input.below_dir,
                Err(e) => {
                    eprintln!("pagetext: {}: {}", e.path, e.message);
                    None
                }
            })
            .collect();
        let pages: Vec<Page> = files
            .into_par_iter()
            .filter_map(|rel| match fs::read(root.join(&rel)) {
                Ok(bytes) => Some(Page {
                    doc: read_page(&rel, &bytes),
                    rel,
                }),
                Err(e) => {
                    eprintln!(
                        "pagetext: {}: {}",
                        root.join(&rel).display(),
                        crate::inputs::describe_io_error(&e)
                    );
                    None
                }
            })
            .collect();
        let (broken, checked) = check_site(root, &pages);
        for b in &broken {
            let page = root.join(&b.page).display().to_string();
            if json {
                let record = Broken { page, ..b.clone() };
                writeln!(out, "{}", crate::batch::json_line(&record)?)?;
            } else {
                // HTML pages give lines only.
                let at = match b.column {
                    0 => format!("{page}:{}", b.line),
                    column => format!("{page}:{}:{column}", b.line),
                };
                writeln!(out, "{at}: broken link {}: {}", b.url, b.problem)?;
            }
        }
        if !quiet {
            eprintln!(
                "pagetext: {}: {} page(s), {checked} link(s) within the site checked, {} broken",
                root.display(),
                pages.len(),
                broken.len()
            );
        }
        all_broken += broken.len();
    }
    out.flush()?;
    Ok(all_broken == 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(rel: &str, text: &str) -> Page {
        Page {
            rel: PathBuf::from(rel),
            doc: wikitext::parse(text).document,
        }
    }

    #[test]
    fn targets_are_read_from_the_page_folder() {
        let t = Target::of("../b/c.html?x=1#top", Path::new("a/p.txt")).expect("in the site");
        assert_eq!(t.path, PathBuf::from("b/c.html"));
        assert_eq!(t.fragment.as_deref(), Some("top"));
        let t = Target::of("#here", Path::new("a/p.txt")).expect("the page itself");
        assert_eq!(t.path, PathBuf::from("a/p.txt"));
        let t = Target::of("/d%20e.html", Path::new("a/p.txt")).expect("from the root");
        assert_eq!(t.path, PathBuf::from("d e.html"));
        assert_eq!(Target::of("https://x.org/a", Path::new("p.txt")), None);
        assert_eq!(Target::of("//x.org/a", Path::new("p.txt")), None);
        assert_eq!(Target::of("mailto:a@b.c", Path::new("p.txt")), None);
        assert_eq!(Target::of("../../out.html", Path::new("a/p.txt")), None);
    }

    #[test]
    fn missing_files_and_anchors_are_reported() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let root = dir.path();
        fs::create_dir(root.join("sub")).expect("a folder");
        fs::write(root.join("a.txt"), "").expect("a page");
        fs::write(root.join("sub/index.html"), "").expect("an index");
        fs::write(root.join("logo.png"), "").expect("an image");
        let pages = vec![
            page(
                "a.txt",
                "\n[|top|Top] [b.txt#x||b] [sub/#s||sub] [sub/||sub] [#top||up] [#gone||gone] [logo.png#z||logo] [https://x.org/#y||x]\n",
            ),
            page("b.txt", "\n[|y|Y] [a.txt#top||a] [a.txt#caf%C3%A9||c]\n"),
            page("sub/index.html", "\n[|s|S]\n"),
        ];
        fs::write(root.join("b.txt"), "").expect("a page");
        let (broken, checked) = check_site(root, &pages);
        let problems: Vec<(&str, &str, &str)> = broken
            .iter()
            .map(|b| (b.page.as_str(), b.url.as_str(), b.problem.as_str()))
            .collect();
        assert_eq!(
            problems,
            [
                ("a.txt", "b.txt#x", "b.txt has no anchor \"x\""),
                ("a.txt", "#gone", "a.txt has no anchor \"gone\""),
                (
                    "b.txt",
                    "a.txt#caf%C3%A9",
                    "a.txt has no anchor \"caf%C3%A9\""
                ),
            ]
        );
        assert_eq!(checked, 8);
        assert_eq!(broken[0].line, 2);

        let pages = vec![page("a.txt", "\n[gone.html||g] [sub/nothing/||n]\n")];
        let (broken, _) = check_site(root, &pages);
        assert_eq!(
            broken
                .iter()
                .map(|b| b.problem.as_str())
                .collect::<Vec<_>>(),
            [
                "no such file in the site: gone.html",
                "no such file in the site: sub/nothing/"
            ]
        );
    }
}
