//! A save's writes, all through the handle of the page's folder
//! ([`super::contain`]): the original kept beside the page, and the page
//! replaced, never through a link and never over a change made meanwhile.
//!
//! **Replacing.** The new bytes are written whole to a temporary file in
//! the page's folder and flushed to disk. Then, right before the rename, the
//! page is opened again in that folder: it must still be the file that was
//! read (same device and inode) with the same bytes, or the save is a
//! conflict. On Linux the rename is `renameat2(RENAME_EXCHANGE)`: the new
//! file and the page swap names, and the file swapped out is checked once
//! more; if it is not the one read, unchanged, the swap is undone and the
//! save is a conflict. Elsewhere (or on a file system that cannot exchange)
//! it is a plain `renameat`, which replaces a link rather than follow it.
//!
//! **What remains impossible without locks.** Other programs take no lock
//! the editor could honour, so two windows stay open, each a few system
//! calls wide: a program that writes *into* the page's file in place (not
//! by replacing it) after the last check, whose bytes then land in the old
//! file, now unnamed; and, where there is no exchange, a program that
//! replaces the page between the last check and the rename. A replacing
//! writer on Linux is never overwritten.

use std::fs::File;
use std::io::{self, Write as _};
use std::os::fd::OwnedFd;

use rustix::fs::{AtFlags, FileType, Mode};
use rustix::io::Errno;

use super::contain::{self, Entry, Opened, Unread};

/// Why a page was not replaced.
#[derive(Debug)]
pub(super) enum NotReplaced {
    /// It changed on disk since it was read: its bytes now, or `None` when
    /// it is no longer a regular file (or is too big to read).
    Changed(Option<Vec<u8>>),
    /// The operating system's reason.
    Io(io::Error),
}

impl From<io::Error> for NotReplaced {
    fn from(e: io::Error) -> NotReplaced {
        NotReplaced::Io(e)
    }
}

impl From<Errno> for NotReplaced {
    fn from(e: Errno) -> NotReplaced {
        NotReplaced::Io(e.into())
    }
}

/// A temporary file in a folder, removed when dropped unless `keep`.
struct Temp<'a> {
    dir: &'a OwnedFd,
    name: String,
    file: File,
    keep: bool,
}

impl Drop for Temp<'_> {
    fn drop(&mut self) {
        if !self.keep {
            let _ = contain::remove(self.dir, &self.name);
        }
    }
}

/// `bytes` in a new temporary file in `dir` with permissions `mode`,
/// flushed to disk.
fn write_temp<'a>(dir: &'a OwnedFd, bytes: &[u8], mode: u32) -> io::Result<Temp<'a>> {
    let (name, file) = contain::create_temp(dir)?;
    let mut temp = Temp {
        dir,
        name,
        file,
        keep: false,
    };
    temp.file.write_all(bytes)?;
    rustix::fs::fchmod(&temp.file, Mode::from_raw_mode(mode))?;
    temp.file.sync_all()?;
    Ok(temp)
}

/// What a kind of file is called in a message.
fn describe(kind: FileType) -> &'static str {
    match kind {
        FileType::Symlink => "a symbolic link",
        FileType::Directory => "a directory",
        _ => "not a regular file",
    }
}

/// Keeps `bytes` (the page as it was read) as `NAME.orig` beside the page,
/// with the page's permissions `mode`: written whole to a temporary file,
/// flushed, then linked under its name, which never replaces anything and
/// never follows a link. `Ok(Some(name))` when kept now, `Ok(None)` when a
/// regular file has that name already (kept by an earlier save), `Err` with
/// the reason when it cannot be kept: then the save must not go on.
pub(super) fn keep_original(
    page: &Entry,
    bytes: &[u8],
    mode: u32,
) -> Result<Option<String>, String> {
    let orig = format!("{}.orig", page.name);
    let why = |e: io::Error| format!("{orig}: {}", crate::inputs::describe_io_error(&e));
    match contain::kind_at(&page.parent, &orig).map_err(why)? {
        Some(FileType::RegularFile) => return Ok(None),
        Some(kind) => {
            return Err(format!(
                "{orig} is {}, so the original cannot be kept there; move it away, then save again",
                describe(kind)
            ));
        }
        None => {}
    }
    // The temporary name is removed when `temp` is dropped; the original
    // stays under its own name.
    let temp = write_temp(&page.parent, bytes, mode).map_err(why)?;
    match put_new(&page.parent, &temp.name, &orig) {
        Ok(()) => Ok(Some(orig)),
        Err(Errno::EXIST) => Err(format!(
            "{orig} appeared while the original was being kept; save again"
        )),
        Err(e) => Err(why(e.into())),
    }
}

/// Creates the new file `name` in `dir` holding `bytes`, with permissions
/// `mode`: written whole to a temporary file, flushed, then linked under
/// its name, which never replaces anything (a dangling link included) and
/// never follows a link. `Err` with `AlreadyExists` when something has that
/// name.
pub(super) fn create_new(dir: &OwnedFd, name: &str, bytes: &[u8], mode: u32) -> io::Result<()> {
    if contain::kind_at(dir, name)?.is_some() {
        return Err(io::ErrorKind::AlreadyExists.into());
    }
    // The temporary name is removed when `temp` is dropped; the page stays
    // under its own name.
    let temp = write_temp(dir, bytes, mode)?;
    match put_new(dir, &temp.name, name) {
        Ok(()) => Ok(()),
        Err(Errno::EXIST) => Err(io::ErrorKind::AlreadyExists.into()),
        Err(e) => Err(e.into()),
    }
}

/// Gives the file `from` the new name `to` in `dir`, unless `to` exists
/// (whatever it is, a dangling link included).
fn put_new(dir: &OwnedFd, from: &str, to: &str) -> Result<(), Errno> {
    match rustix::fs::linkat(dir, from, dir, to, AtFlags::empty()) {
        Ok(()) => Ok(()),
        Err(Errno::EXIST) => Err(Errno::EXIST),
        // A file system without hard links.
        #[cfg(target_os = "linux")]
        Err(_) => rustix::fs::renameat_with(dir, from, dir, to, rustix::fs::RenameFlags::NOREPLACE),
        #[cfg(not(target_os = "linux"))]
        Err(e) => Err(e),
    }
}

/// Puts `bytes` in place of the page, which was opened as `read` with the
/// contents `checked` (at most `limit` bytes); see the module's docs. With
/// `force`, whatever is there is replaced, but still not through a link.
pub(super) fn replace(
    page: &Entry,
    read: &Opened,
    checked: &[u8],
    bytes: &[u8],
    force: bool,
    limit: usize,
) -> Result<(), NotReplaced> {
    let mut temp = write_temp(&page.parent, bytes, read.mode())?;
    if !force {
        still_the_same(page, read, checked, limit, &page.name)?;
        #[cfg(target_os = "linux")]
        {
            let exchange = rustix::fs::RenameFlags::EXCHANGE;
            match rustix::fs::renameat_with(
                &page.parent,
                &temp.name,
                &page.parent,
                &page.name,
                exchange,
            ) {
                Ok(()) => return after_exchange(page, read, checked, limit, &mut temp),
                // The file system cannot exchange: a plain rename.
                Err(Errno::INVAL | Errno::NOSYS | Errno::OPNOTSUPP) => {}
                Err(e) => return Err(e.into()),
            }
        }
    }
    rustix::fs::renameat(&page.parent, &temp.name, &page.parent, &page.name)?;
    temp.keep = true;
    Ok(())
}

/// Whether `name` in the page's folder is still the file `read`, with the
/// bytes `checked`.
fn still_the_same(
    page: &Entry,
    read: &Opened,
    checked: &[u8],
    limit: usize,
    name: &str,
) -> Result<(), NotReplaced> {
    let now = match contain::open_file(&page.parent, name) {
        Ok(now) => now,
        Err(Unread::Io(e)) => return Err(NotReplaced::Io(e)),
        Err(Unread::NotAFile | Unread::TooBig(_)) => return Err(NotReplaced::Changed(None)),
    };
    let bytes = now.read(limit).ok();
    if read.same_file(&now.stat) && bytes.as_deref() == Some(checked) {
        Ok(())
    } else {
        Err(NotReplaced::Changed(bytes))
    }
}

/// After the exchange the temporary name holds what was the page: if that
/// is the file read, unchanged, it is removed (with `temp`); otherwise the
/// exchange is undone and the save is a conflict.
#[cfg(target_os = "linux")]
fn after_exchange(
    page: &Entry,
    read: &Opened,
    checked: &[u8],
    limit: usize,
    temp: &mut Temp<'_>,
) -> Result<(), NotReplaced> {
    let Err(changed) = still_the_same(page, read, checked, limit, &temp.name) else {
        return Ok(());
    };
    let exchange = rustix::fs::RenameFlags::EXCHANGE;
    if let Err(e) =
        rustix::fs::renameat_with(&page.parent, &temp.name, &page.parent, &page.name, exchange)
    {
        // Theirs stays under the temporary name: never removed here.
        temp.keep = true;
        return Err(NotReplaced::Io(io::Error::other(format!(
            "the page changed while it was being saved, and its new contents are now in {} ({e})",
            temp.name
        ))));
    }
    Err(changed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edit::contain::{Root, open_file};
    use std::fs;

    fn page(dir: &std::path::Path, name: &str) -> (Root, Entry) {
        let root = Root::open(&fs::canonicalize(dir).unwrap()).unwrap();
        let entry = root.entry(&[name.to_owned()]).unwrap();
        (root, entry)
    }

    #[test]
    fn a_page_is_replaced_only_when_unchanged() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("p.txt"), "one").unwrap();
        let (_root, entry) = page(dir.path(), "p.txt");
        let read = open_file(&entry.parent, &entry.name).unwrap();
        replace(&entry, &read, b"one", b"two", false, 100).unwrap();
        assert_eq!(fs::read(dir.path().join("p.txt")).unwrap(), b"two");
        // Replaced by another program meanwhile: a conflict, theirs kept.
        let read = open_file(&entry.parent, &entry.name).unwrap();
        fs::write(dir.path().join("new"), "theirs").unwrap();
        fs::rename(dir.path().join("new"), dir.path().join("p.txt")).unwrap();
        let err = replace(&entry, &read, b"two", b"mine", false, 100).unwrap_err();
        assert!(matches!(err, NotReplaced::Changed(Some(ref b)) if b == b"theirs"));
        assert_eq!(fs::read(dir.path().join("p.txt")).unwrap(), b"theirs");
        let names: Vec<_> = fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1, "no temporary file is left");
    }

    #[test]
    fn a_new_file_never_replaces_anything() {
        let dir = tempfile::tempdir().unwrap();
        let root = Root::open(&fs::canonicalize(dir.path()).unwrap()).unwrap();
        let folder = root.folder(&[]).unwrap();
        create_new(&folder.fd, "n.txt", b"new", 0o644).unwrap();
        assert_eq!(fs::read(dir.path().join("n.txt")).unwrap(), b"new");
        let again = create_new(&folder.fd, "n.txt", b"other", 0o644).unwrap_err();
        assert_eq!(again.kind(), io::ErrorKind::AlreadyExists);
        assert_eq!(fs::read(dir.path().join("n.txt")).unwrap(), b"new");
        std::os::unix::fs::symlink(dir.path().join("nowhere"), dir.path().join("l.txt")).unwrap();
        let link = create_new(&folder.fd, "l.txt", b"x", 0o644).unwrap_err();
        assert_eq!(link.kind(), io::ErrorKind::AlreadyExists);
        assert!(!dir.path().join("nowhere").exists());
        let names: Vec<_> = fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 2, "no temporary file is left");
    }

    #[test]
    fn the_original_is_kept_once_and_never_through_a_link() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("p.html"), "orig").unwrap();
        let (_root, entry) = page(dir.path(), "p.html");
        assert_eq!(
            keep_original(&entry, b"orig", 0o644).unwrap().as_deref(),
            Some("p.html.orig")
        );
        assert_eq!(keep_original(&entry, b"second", 0o644).unwrap(), None);
        assert_eq!(fs::read(dir.path().join("p.html.orig")).unwrap(), b"orig");
        fs::write(dir.path().join("q.html"), "q").unwrap();
        std::os::unix::fs::symlink(dir.path().join("nowhere"), dir.path().join("q.html.orig"))
            .unwrap();
        let (_root, entry) = page(dir.path(), "q.html");
        let why = keep_original(&entry, b"q", 0o644).unwrap_err();
        assert!(why.contains("symbolic link"), "{why}");
        assert!(!dir.path().join("nowhere").exists());
        let temps = fs::read_dir(dir.path())
            .unwrap()
            .filter(|e| {
                e.as_ref()
                    .unwrap()
                    .file_name()
                    .to_string_lossy()
                    .starts_with(".pagetext-")
            })
            .count();
        assert_eq!(temps, 0);
    }
}
