//! A rename's writes, in order, each undone when a later one fails.

use std::io;
use std::os::fd::OwnedFd;

use axum::http::StatusCode;
use rustix::fs::{AtFlags, Mode};

use super::{Change, PageAt, Plan, folder_failure, orig_name};
use crate::edit::Failed;
use crate::edit::contain;
use crate::edit::page;
use crate::edit::store::{self, NotReplaced};

/// What was done so far, to be undone when a later step fails.
#[derive(Default)]
struct Undo {
    /// The folders made: their parent's handle and their name.
    folders: Vec<(OwnedFd, String)>,
    /// The original moved: its new folder's handle and new name.
    orig: Option<(OwnedFd, String)>,
    /// The indexes of the pages written.
    pages: Vec<usize>,
}

impl Plan {
    /// Writes the plan, or undoes what was written and says why.
    pub(super) fn apply(self, top: OwnedFd) -> Result<(), Failed> {
        let mut undo = Undo::default();
        let Err(failed) = self.write(top, &mut undo) else {
            return Ok(());
        };
        let mut left = Vec::new();
        if let (Some((dir, name)), Some(orig)) = (&undo.orig, &self.orig)
            && let Err(e) = move_new(dir, name, &self.from.entry.parent, orig)
        {
            left.push(format!("{orig}, moved to {name}: {e}"));
        }
        for &i in undo.pages.iter().rev() {
            let change = &self.changes[i];
            if let Err(why) = put_back(change) {
                left.push(format!("{}: {why}", change.entry.rel_path()));
            }
        }
        for (parent, name) in undo.folders.iter().rev() {
            if let Err(e) = rustix::fs::unlinkat(parent, name.as_str(), AtFlags::REMOVEDIR) {
                left.push(format!("the folder {name} made for the move: {e}"));
            }
        }
        let message = if left.is_empty() {
            format!("{}; every file is as it was", failed.message())
        } else {
            format!(
                "{}; NOT put back as it was: {}",
                failed.message(),
                left.join("; ")
            )
        };
        Err(Failed::new(failed.status(), message))
    }

    /// The writes, in order: the new path's folders, the other pages, the
    /// page moved.
    fn write(&self, top: OwnedFd, undo: &mut Undo) -> Result<(), Failed> {
        let mut folder = top;
        for (i, segment) in self.to_dirs.iter().enumerate() {
            let shown = self.to_dirs[..=i].join("/");
            let io = |e: io::Error| page::io_failure(&shown, &e);
            if contain::kind_at(&folder, segment).map_err(io)?.is_none() {
                rustix::fs::mkdirat(&folder, segment.as_str(), Mode::from_raw_mode(0o755))
                    .map_err(|e| folder_failure(&shown, &e.into()))?;
                undo.folders
                    .push((folder.try_clone().map_err(io)?, segment.clone()));
            }
            folder =
                contain::open_folder(&folder, segment).map_err(|e| folder_failure(&shown, &e))?;
        }
        for (i, change) in self.changes.iter().enumerate() {
            let rel = change.entry.rel_path();
            let done = store::replace(
                &change.entry,
                &change.opened,
                &change.old,
                &change.new,
                false,
                page::MAX_BYTES,
            );
            match done {
                Ok(()) => undo.pages.push(i),
                Err(NotReplaced::Changed(_)) => {
                    return Err(Failed::new(
                        StatusCode::CONFLICT,
                        format!("{rel}: changed on disk while the site was being relinked"),
                    ));
                }
                Err(NotReplaced::Io(e)) => return Err(page::io_failure(&rel, &e)),
            }
        }
        if let Some(orig) = &self.orig {
            let new = orig_name(&self.to_name);
            move_new(&self.from.entry.parent, orig, &folder, &new).map_err(|e| {
                let why = match e {
                    rustix::io::Errno::EXIST => "something has that name".to_owned(),
                    e => crate::inputs::describe_io_error(&e.into()),
                };
                Failed::new(
                    StatusCode::CONFLICT,
                    format!("{orig}, the page's original, could not follow it as {new}: {why}"),
                )
            })?;
            let back = folder.try_clone().map_err(|e| page::io_failure(&new, &e))?;
            undo.orig = Some((back, new));
        }
        self.move_page(&folder)
    }
}

impl Plan {
    /// Moves the page into `folder` under its new name, never over anything
    /// there; with its links rewritten, the new bytes are created there and
    /// the old page taken away only if it is still the file read, unchanged.
    fn move_page(&self, folder: &OwnedFd) -> Result<(), Failed> {
        let from = &self.from;
        let to_name = self.to_name.as_str();
        let shown = {
            let mut to = self.to_dirs.clone();
            to.push(self.to_name.clone());
            to.join("/")
        };
        let exists = || {
            Failed::new(
                StatusCode::CONFLICT,
                format!("{shown}: something is there already"),
            )
        };
        let changed = || {
            Failed::new(
                StatusCode::CONFLICT,
                format!(
                    "{}: changed on disk while it was being moved",
                    from.entry.rel_path()
                ),
            )
        };
        match &self.moved {
            None => {
                move_new(&from.entry.parent, &from.entry.name, folder, to_name).map_err(
                    |e| match e {
                        rustix::io::Errno::EXIST => exists(),
                        e => page::io_failure(&shown, &e.into()),
                    },
                )?;
                if !is_unchanged(folder, to_name, from) {
                    // Theirs goes back under its name.
                    let _ = move_new(folder, to_name, &from.entry.parent, &from.entry.name);
                    return Err(changed());
                }
                Ok(())
            }
            Some((bytes, _)) => {
                store::create_new(folder, to_name, bytes, from.opened.mode()).map_err(|e| {
                    if e.kind() == io::ErrorKind::AlreadyExists {
                        exists()
                    } else {
                        page::io_failure(&shown, &e)
                    }
                })?;
                if let Err(failed) = take_away(from) {
                    let _ = contain::remove(folder, to_name);
                    return Err(failed);
                }
                Ok(())
            }
        }
    }
}

/// Moves `from` in `from_dir` to `to` in `to_dir`, never replacing
/// anything at `to` and never following a link.
fn move_new(
    from_dir: &OwnedFd,
    from: &str,
    to_dir: &OwnedFd,
    to: &str,
) -> Result<(), rustix::io::Errno> {
    #[cfg(target_os = "linux")]
    {
        rustix::fs::renameat_with(
            from_dir,
            from,
            to_dir,
            to,
            rustix::fs::RenameFlags::NOREPLACE,
        )
    }
    #[cfg(not(target_os = "linux"))]
    {
        // A hard link never replaces anything; then the old name goes.
        rustix::fs::linkat(from_dir, from, to_dir, to, AtFlags::empty())?;
        rustix::fs::unlinkat(from_dir, from, AtFlags::empty())
    }
}

/// Whether `name` in `dir` is the page read, with the bytes read.
fn is_unchanged(dir: &OwnedFd, name: &str, page: &PageAt) -> bool {
    contain::open_file(dir, name).is_ok_and(|now| {
        page.opened.same_file(&now.stat) && now.read(page::MAX_BYTES).is_ok_and(|b| b == page.bytes)
    })
}

/// Takes the page's old name away: the page is first moved to a fresh
/// temporary name in its folder (in one step, whatever is there now), then
/// checked to be the file read, unchanged, and removed; otherwise it is
/// put back, and the failure says why.
fn take_away(page: &PageAt) -> Result<(), Failed> {
    let dir = &page.entry.parent;
    let rel = page.entry.rel_path();
    let (temp, _file) = contain::create_temp(dir).map_err(|e| page::io_failure(&rel, &e))?;
    if let Err(e) = rustix::fs::renameat(dir, page.entry.name.as_str(), dir, temp.as_str()) {
        let _ = contain::remove(dir, &temp);
        return Err(page::io_failure(&rel, &e.into()));
    }
    if is_unchanged(dir, &temp, page) {
        let _ = contain::remove(dir, &temp);
        return Ok(());
    }
    let message = match move_new(dir, &temp, dir, &page.entry.name) {
        Ok(()) => format!("{rel}: changed on disk while it was being moved"),
        // Something took the name meanwhile: theirs is kept rather than lost.
        Err(_) => format!(
            "{rel}: changed on disk while it was being moved, and its new contents are now in {temp}"
        ),
    };
    Err(Failed::new(StatusCode::CONFLICT, message))
}

/// Puts a page written by the rename back to the bytes read, through the
/// same checked replace (never over a change made since).
fn put_back(change: &Change) -> Result<(), String> {
    let now = contain::open_file(&change.entry.parent, &change.entry.name)
        .map_err(|_| "no longer a regular file".to_owned())?;
    store::replace(
        &change.entry,
        &now,
        &change.new,
        &change.old,
        false,
        page::MAX_BYTES,
    )
    .map_err(|e| match e {
        NotReplaced::Changed(_) => "changed on disk since it was written".to_owned(),
        NotReplaced::Io(e) => crate::inputs::describe_io_error(&e),
    })
}

#[cfg(test)]
mod tests {
    use super::super::*;

    #[test]
    fn a_failed_step_undoes_every_step_before_it() {
        let dir = tempfile::tempdir().unwrap();
        let site = std::fs::canonicalize(dir.path()).unwrap();
        std::fs::write(site.join("p.txt"), "\n[a.txt||a]\n").unwrap();
        std::fs::write(site.join("a.txt"), "\n[p.txt||p]\n").unwrap();
        std::fs::write(site.join("b.txt"), "\n[p.txt#x||p]\n").unwrap();
        std::fs::write(site.join("p.txt.orig"), "the original").unwrap();
        let root = contain::Root::open(&site).unwrap();
        let asked = RenameRequest {
            from: "p.txt".to_owned(),
            to: "n/m/q.txt".to_owned(),
            apply: true,
        };
        let planned = plan(&root, &asked).ok().unwrap();
        assert_eq!(planned.changes.len(), 2);
        // The new name is taken after the plan: the move, the last step,
        // fails, and the pages relinked before it are put back.
        std::fs::create_dir_all(site.join("n/m")).unwrap();
        std::fs::write(site.join("n/m/q.txt"), "theirs").unwrap();
        let failed = planned.apply(root.folder(&[]).unwrap().fd).err().unwrap();
        assert_eq!(failed.status(), StatusCode::CONFLICT);
        assert!(
            failed.message().contains("every file is as it was"),
            "{}",
            failed.message()
        );
        assert_eq!(
            std::fs::read_to_string(site.join("a.txt")).unwrap(),
            "\n[p.txt||p]\n"
        );
        assert_eq!(
            std::fs::read_to_string(site.join("b.txt")).unwrap(),
            "\n[p.txt#x||p]\n"
        );
        assert_eq!(
            std::fs::read_to_string(site.join("p.txt")).unwrap(),
            "\n[a.txt||a]\n"
        );
        assert_eq!(
            std::fs::read_to_string(site.join("n/m/q.txt")).unwrap(),
            "theirs"
        );
        // The original had followed the page: it is back.
        assert_eq!(
            std::fs::read_to_string(site.join("p.txt.orig")).unwrap(),
            "the original"
        );
        assert!(!site.join("n/m/q.txt.orig").exists());
        let names = std::fs::read_dir(&site).unwrap().count();
        assert_eq!(names, 5, "no temporary file is left");

        // Made folders are removed too: a page changed after the plan
        // (b.txt, written after a.txt) is a conflict at its write.
        std::fs::remove_dir_all(site.join("n")).unwrap();
        let planned = plan(&root, &asked).ok().unwrap();
        assert_eq!(planned.missing, 0);
        std::fs::write(site.join("b.txt"), "\ntheirs [p.txt||p]\n").unwrap();
        let failed = planned.apply(root.folder(&[]).unwrap().fd).err().unwrap();
        assert!(
            failed.message().starts_with("b.txt: changed on disk"),
            "{}",
            failed.message()
        );
        assert!(
            failed.message().contains("every file is as it was"),
            "{}",
            failed.message()
        );
        assert_eq!(
            std::fs::read_to_string(site.join("a.txt")).unwrap(),
            "\n[p.txt||p]\n"
        );
        assert_eq!(
            std::fs::read_to_string(site.join("b.txt")).unwrap(),
            "\ntheirs [p.txt||p]\n"
        );
        assert!(!site.join("n").exists(), "the folders made are removed");
        assert_eq!(std::fs::read_dir(&site).unwrap().count(), 4);
    }
}
