//! `POST api/rename {from, to, apply}`: a page moved or renamed, and every
//! link to it in the site rewritten, in one operation that either
//! completes or leaves every file as it was.
//!
//! **Which links.** Every page of the site is read (through the held
//! handles, [`site::walk_pages`]) and each of its links followed as the
//! link report follows it ([`crate::links::Target`]): a link whose path
//! names the page (relative or from the site's root, its query and
//! fragment kept, so `page#frag` still finds its anchor) is given the new
//! path, written from the linking page's folder. A link to the page's
//! folder counts when the page is what the folder stands for (its index
//! file); it stays a folder link when the page is moved as `index.html`.
//! The moved page's own relative links are written again from its new
//! folder, so that each still reaches the same file; its links to itself
//! follow it. Not rewritten: `#Link:` header lines and `<link>`, `<area>`
//! and image sources (pages are linked from `a` elements and text links).
//!
//! **How a page's links are rewritten.** Only the URLs change, in the
//! page's own bytes: a text page's link values by [`wikitext::relink`], an
//! HTML page's `href`s by [`htmlio::hrefs::rewrite_hrefs`]. An HTML page
//! is not written again through its text form, as a save writes it: that
//! would turn every page that links to the moved one into XHTML and drop
//! its ballast, for a change of a few bytes. So no `.orig` is kept either:
//! nothing but the URLs changes. A page whose links the rewrite cannot all
//! find (a link the document has and the bytes do not show as one, a page
//! in UTF-16, a text page that is not UTF-8) refuses the whole rename, with
//! the reason: a rename never leaves a link it knows of broken.
//!
//! **All or nothing.** First the plan: the new path checked (inside DIR,
//! not hidden, the page's own kind, nothing there yet: never replaced),
//! every page read and its new bytes computed. With `apply: false` the plan
//! is the answer (which pages' links change), and nothing is written. Then
//! the writes, each through [`super::store`]'s checked replace (the page
//! must still be the bytes read, or it is a conflict), the missing folders
//! of the new path created one by one in their parent's handle, and the
//! page moved last. When any step fails, every step done is undone in
//! reverse order (each page put back to the bytes read, through the same
//! checked replace, the folders made removed) and the answer says why.
//! The page's original (`PAGE.orig`, kept by a first save) moves with it,
//! never over anything.
//!
//! Here: the route, the checks and the plan; in [`urls`] which links name
//! the page and how each is written again; in [`write`] the writes and
//! their undoing.

use std::io;
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use axum::extract::Request;
use axum::http::StatusCode;
use axum::response::Response;
use serde::Deserialize;

use super::answers::{Relinked, Renamed};
use super::contain::{self, Entry, Opened};
use super::page::{self, Kind};
use super::{App, Failed, json, site};
use urls::Moves;

mod urls;
mod write;

/// How many pages one rename reads at most.
const MAX_PAGES: usize = 20_000;

/// The body of a rename.
#[derive(Deserialize)]
struct RenameRequest {
    /// The page's path below DIR.
    from: String,
    /// Its new path below DIR.
    to: String,
    /// Write (`true`), or only answer what would change.
    #[serde(default)]
    apply: bool,
}

/// `POST api/rename`: see the module's docs. Runs under the saves' lock.
pub(super) async fn rename(app: &App, request: Request) -> Response {
    let asked: RenameRequest = match page::body(request).await {
        Ok(asked) => asked,
        Err(failed) => return failed.response(),
    };
    let _one_at_a_time = app.saving.lock().await;
    let root = Arc::clone(&app.root);
    let done = tokio::task::spawn_blocking(move || {
        let plan = plan(&root, &asked)?;
        let answer = plan.answer(asked.apply);
        if asked.apply {
            let top = root.folder(&[]).map_err(|r| r.failed(""))?.fd;
            plan.apply(top)?;
        }
        Ok::<_, Failed>(json(&answer))
    })
    .await;
    match done {
        Ok(Ok(response)) => response,
        Ok(Err(failed)) => failed.response(),
        Err(_) => Failed::new(StatusCode::INTERNAL_SERVER_ERROR, "renaming failed").response(),
    }
}

/// A page to write: where it is, as read, and its new bytes.
struct Change {
    entry: Entry,
    opened: Opened,
    old: Vec<u8>,
    new: Vec<u8>,
    links: usize,
}

/// Everything a rename writes, computed before anything is written.
struct Plan {
    from: PageAt,
    /// How many of the new path's folders exist (the others are made).
    missing: usize,
    /// The new path: its folders (segments) and its name.
    to_dirs: Vec<String>,
    to_name: String,
    /// The moved page's new bytes (its links rewritten) and how many links
    /// changed.
    moved: Option<(Vec<u8>, usize)>,
    /// The other pages whose links change.
    changes: Vec<Change>,
    /// The page's original kept by a first save (`NAME.orig`, a regular
    /// file beside it), which moves with it.
    orig: Option<String>,
}

/// The page being moved, as read.
struct PageAt {
    entry: Entry,
    opened: Opened,
    bytes: Vec<u8>,
    kind: Kind,
}

fn forbidden(message: String) -> Failed {
    Failed::new(StatusCode::FORBIDDEN, message)
}

/// Reads the page `from` and the site, checks `to`, and computes every new
/// file.
fn plan(root: &contain::Root, asked: &RenameRequest) -> Result<Plan, Failed> {
    let file = page::page_file(root, &asked.from)?;
    if file.rel != asked.from {
        return Err(forbidden(format!(
            "{}: a symbolic link to {}: rename that page instead",
            asked.from, file.rel
        )));
    }
    let (opened, bytes) = page::read_page(&file)?;
    let mut to = site::from_query(&asked.to).map_err(|r| r.failed(&asked.to))?;
    let Some(to_name) = to.pop() else {
        return Err(forbidden("the new path is empty".to_owned()));
    };
    check_new_name(&to_name, file.kind, &asked.to)?;
    let unnamable = |s: &String| s.len() > 255 || s.chars().any(char::is_control);
    if unnamable(&to_name) || to.iter().any(unnamable) {
        return Err(forbidden(format!(
            "{:?}: refused as a path: a control character, or a name over 255 bytes",
            asked.to
        )));
    }
    let from_rel: Vec<String> = file.entry.rel.clone();
    let mut to_rel = to.clone();
    to_rel.push(to_name.clone());
    if from_rel == to_rel {
        return Err(Failed::new(
            StatusCode::CONFLICT,
            format!("{}: the page is there already", asked.to),
        ));
    }
    // Nothing there yet (the full check is the move's own, which never
    // replaces anything).
    let (missing, dir) = existing_folder(root, &to)?;
    if let Some(dir) = dir
        && contain::kind_at(&dir, &to_name)
            .map_err(|e| page::io_failure(&asked.to, &e))?
            .is_some()
    {
        return Err(Failed::new(
            StatusCode::CONFLICT,
            format!(
                "{}: something is there already: nothing was written",
                asked.to
            ),
        ));
    }
    let index_of = index_of(&file.entry);
    // Moved under the first index file's name, the page is what its new
    // folder's links stand for, whatever else is there.
    let folder_form = index_of.is_some() && to_name == crate::links::INDEX_FILES[0];
    let moves = Moves {
        old: PathBuf::from(from_rel.join("/")),
        new: to_rel,
        index_of,
        folder_form,
    };
    let from = PageAt {
        entry: file.entry,
        opened,
        bytes,
        kind: file.kind,
    };
    let (moved, changes) = relink_site(root, &moves, &from)?;
    // The original follows the page, never over anything.
    let orig = orig_name(&from.entry.name);
    let orig = matches!(
        contain::kind_at(&from.entry.parent, &orig),
        Ok(Some(rustix::fs::FileType::RegularFile))
    )
    .then_some(orig);
    if orig.is_some() {
        let new = orig_name(&to_name);
        let mut shown = to.clone();
        shown.push(new.clone());
        if let (_, Some(dir)) = existing_folder(root, &to)?
            && contain::kind_at(&dir, &new).is_ok_and(|k| k.is_some())
        {
            return Err(Failed::new(
                StatusCode::CONFLICT,
                format!(
                    "{}: something is there already, so the page's original cannot follow it: nothing was written",
                    shown.join("/")
                ),
            ));
        }
    }
    Ok(Plan {
        orig,
        from,
        missing,
        to_dirs: to,
        to_name,
        moved,
        changes,
    })
}

/// The folder of `page` (below DIR) when a link to that folder stands for
/// the page: its name is an index file's, and no index file before it in
/// [`crate::links::INDEX_FILES`] is there.
fn index_of(page: &Entry) -> Option<PathBuf> {
    let index = crate::links::INDEX_FILES;
    let at = index.iter().position(|i| *i == page.name)?;
    let shadowed = index[..at].iter().any(|earlier| {
        contain::kind_at(&page.parent, earlier)
            .is_ok_and(|k| k == Some(rustix::fs::FileType::RegularFile))
    });
    let folder = &page.rel[..page.rel.len().saturating_sub(1)];
    (!shadowed).then(|| PathBuf::from(folder.join("/")))
}

/// Refuses a new name of another kind of page than the page's.
fn check_new_name(name: &str, kind: Kind, asked: &str) -> Result<(), Failed> {
    match Kind::of(Path::new(name)) {
        Some(k) if k.answered() == kind.answered() => Ok(()),
        _ => Err(Failed::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            format!(
                "{asked}: the new name must keep the page's kind ({})",
                match kind {
                    Kind::Text => ".txt",
                    Kind::Html | Kind::Xhtml => ".html, .htm or .xhtml",
                }
            ),
        )),
    }
}

/// How many of the folders `dirs` exist (not through a link), and the
/// last one's handle when all do; a segment that is something else (a
/// file, a link) is refused.
fn existing_folder(
    root: &contain::Root,
    dirs: &[String],
) -> Result<(usize, Option<OwnedFd>), Failed> {
    let mut current = root.folder(&[]).map_err(|r| r.failed(""))?.fd;
    for (i, segment) in dirs.iter().enumerate() {
        let shown = dirs[..=i].join("/");
        match contain::kind_at(&current, segment).map_err(|e| page::io_failure(&shown, &e))? {
            None => return Ok((i, None)),
            Some(rustix::fs::FileType::Directory) => {
                current = contain::open_folder(&current, segment)
                    .map_err(|e| folder_failure(&shown, &e))?;
            }
            Some(_) => {
                return Err(forbidden(format!(
                    "{shown}: not a folder (a link or a file): the new path must go through folders"
                )));
            }
        }
    }
    Ok((dirs.len(), Some(current)))
}

/// `page.html` -> `page.html.orig`, as a save names the original.
fn orig_name(name: &str) -> String {
    format!("{name}.orig")
}

/// A folder of the new path that could not be opened or made: one that
/// changed on disk meanwhile (into a link or a file, or made by another
/// program) is a conflict.
fn folder_failure(shown: &str, e: &io::Error) -> Failed {
    let changed = [
        rustix::io::Errno::NOTDIR,
        rustix::io::Errno::LOOP,
        rustix::io::Errno::EXIST,
    ]
    .iter()
    .any(|errno| e.raw_os_error() == Some(errno.raw_os_error()));
    if changed {
        Failed::new(
            StatusCode::CONFLICT,
            format!(
                "{shown}: changed on disk into something that is not a folder, or made meanwhile"
            ),
        )
    } else {
        page::io_failure(shown, e)
    }
}

/// Every page's new bytes: the moved page's (when its links change) and
/// the other pages whose links change.
#[allow(clippy::type_complexity)]
fn relink_site(
    root: &contain::Root,
    moves: &Moves,
    from: &PageAt,
) -> Result<(Option<(Vec<u8>, usize)>, Vec<Change>), Failed> {
    let new_folder = &moves.new[..moves.new.len() - 1];
    let old_rel = moves.old.clone();
    let moved = relink_page(&from.bytes, from.kind, &old_rel, |url| {
        moves.new_url(url, &old_rel, new_folder, true)
    })?;
    let mut changes = Vec::new();
    let mut failed = None;
    let mut count = 0;
    let cut = site::walk_pages(root, |dir, name, rel| {
        count += 1;
        if count > MAX_PAGES || Path::new(rel) == moves.old {
            return count <= MAX_PAGES;
        }
        let Some(kind) = Kind::of(Path::new(name)) else {
            return true;
        };
        let Ok(opened) = contain::open_file(dir, name) else {
            return true;
        };
        let Ok(old) = opened.read(page::MAX_BYTES) else {
            return true;
        };
        let page = Path::new(rel);
        let folder: Vec<String> = rel.split('/').map(str::to_owned).collect();
        let folder = &folder[..folder.len() - 1];
        match relink_page(&old, kind, page, |url| {
            moves.new_url(url, page, folder, false)
        }) {
            Ok(None) => true,
            Ok(Some((new, links))) => match dir.try_clone() {
                Ok(parent) => {
                    let rel = rel.split('/').map(str::to_owned).collect();
                    let entry = Entry {
                        parent,
                        name: name.to_owned(),
                        rel,
                    };
                    changes.push(Change {
                        entry,
                        opened,
                        old,
                        new,
                        links,
                    });
                    true
                }
                Err(e) => {
                    failed = Some(page::io_failure(rel, &e));
                    false
                }
            },
            Err(f) => {
                failed = Some(f);
                false
            }
        }
    });
    if let Some(failed) = failed {
        return Err(failed);
    }
    if cut {
        return Err(Failed::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            format!(
                "the site is too big to find every link (over {MAX_PAGES} pages or too many files): nothing was written"
            ),
        ));
    }
    Ok((moved, changes))
}

/// The page `bytes` (of `kind`, at `page`) with its link URLs mapped by
/// `new_url`, and how many changed; `None` when none does; `Err` when a
/// link to change cannot be found in the bytes.
fn relink_page(
    bytes: &[u8],
    kind: Kind,
    page: &Path,
    new_url: impl Fn(&str) -> Option<String>,
) -> Result<Option<(Vec<u8>, usize)>, Failed> {
    let doc = crate::links::read_page(page, bytes);
    let wanted = wikitext::references(&doc)
        .links
        .iter()
        .filter(|(url, _)| new_url(url).is_some_and(|n| n != *url))
        .count();
    if wanted == 0 {
        return Ok(None);
    }
    let unfound = |why: &str| {
        Failed::new(
            StatusCode::CONFLICT,
            format!(
                "{}: {wanted} link(s) to change, but {why}: nothing was written",
                page.display()
            ),
        )
    };
    let (new, changed) = match kind {
        Kind::Text => {
            let text = std::str::from_utf8(bytes)
                .map_err(|_| unfound("the page is not UTF-8 (open it and save it once)"))?;
            let out = wikitext::relink(text, &new_url);
            if out.missed > 0 {
                return Err(unfound("some could not be found in its text"));
            }
            (out.text.into_bytes(), out.changed)
        }
        Kind::Html | Kind::Xhtml => {
            let hints = kind.reading().hints();
            let encoding = htmlio::ingest::settle_encoding(bytes, &hints).encoding;
            let out = htmlio::hrefs::rewrite_hrefs(bytes, encoding, |url| {
                new_url(url).filter(|n| n != url)
            })
            .ok_or_else(|| unfound("its encoding is not ASCII-compatible"))?;
            (out.bytes, out.changed)
        }
    };
    if changed < wanted {
        return Err(unfound(&format!(
            "only {changed} could be found in the page's markup"
        )));
    }
    Ok(Some((new, changed)))
}

impl Plan {
    fn answer(&self, applied: bool) -> Renamed {
        let mut relinked: Vec<Relinked> = self
            .changes
            .iter()
            .map(|c| Relinked {
                links: c.links,
                path: c.entry.rel_path(),
            })
            .collect();
        if let Some((_, links)) = &self.moved {
            relinked.push(Relinked {
                links: *links,
                path: self.from.entry.rel_path(),
            });
        }
        relinked.sort_by(|a, b| a.path.cmp(&b.path));
        let mut to = self.to_dirs.clone();
        to.push(self.to_name.clone());
        Renamed {
            applied,
            from: self.from.entry.rel_path(),
            original: self.orig.as_ref().map(|_| {
                let mut to = self.to_dirs.clone();
                to.push(orig_name(&self.to_name));
                to.join("/")
            }),
            made: (self.missing..self.to_dirs.len())
                .map(|i| self.to_dirs[..=i].join("/"))
                .collect(),
            relinked,
            to: to.join("/"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::edit::urlpath::segs;

    #[test]
    fn links_to_a_folder_follow_its_index_page() {
        let moves = |to: &str, folder_form: bool| Moves {
            old: PathBuf::from("docs/index.html"),
            new: segs(to),
            index_of: Some(PathBuf::from("docs")),
            folder_form,
        };
        let to_file = moves("manual/start.html", false);
        let new = |m: &Moves, url: &str| m.new_url(url, Path::new("top.txt"), &[], false);
        assert_eq!(new(&to_file, "docs/").as_deref(), Some("manual/start.html"));
        assert_eq!(
            new(&to_file, "docs#s").as_deref(),
            Some("manual/start.html#s")
        );
        assert_eq!(
            new(&to_file, "/docs/").as_deref(),
            Some("/manual/start.html")
        );
        assert_eq!(new(&to_file, "docs/other.html"), None);
        let to_index = moves("manual/index.html", true);
        assert_eq!(new(&to_index, "docs/#s").as_deref(), Some("manual/#s"));
        assert_eq!(
            new(&to_index, "docs/index.html").as_deref(),
            Some("manual/index.html")
        );

        let dir = tempfile::tempdir().unwrap();
        let site = std::fs::canonicalize(dir.path()).unwrap();
        std::fs::create_dir(site.join("d")).unwrap();
        std::fs::write(site.join("d/index.txt"), "").unwrap();
        let root = contain::Root::open(&site).unwrap();
        let entry = root.entry(&segs("d/index.txt")).unwrap();
        assert_eq!(index_of(&entry), Some(PathBuf::from("d")));
        std::fs::write(site.join("d/index.htm"), "").unwrap();
        assert_eq!(index_of(&entry), None, "index.htm comes first");
        let entry = root.entry(&segs("d/index.htm")).unwrap();
        assert_eq!(index_of(&entry), Some(PathBuf::from("d")));
    }
}
