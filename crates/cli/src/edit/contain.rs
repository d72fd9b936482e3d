//! DIR reached through handles, never by path names: the editor's defence
//! against a local program that changes DIR while the editor runs.
//!
//! [`Root`] is a directory handle on DIR, opened once at start. Every file
//! and directory the editor reads, lists or writes is reached from it one
//! component at a time, with `openat(O_DIRECTORY | O_NOFOLLOW)` for each
//! directory; the file itself is opened (`O_NOFOLLOW | O_NONBLOCK`) in the
//! directory handle that was reached, checked (`fstat`) to be a regular file,
//! and read through that same open file. A symbolic link is never followed
//! by the kernel: it is read (`readlinkat`) and its target walked the same
//! way, and a target that leaves DIR (too many `..`, an absolute path outside
//! it) or reaches a hidden name is refused. So a name swapped for a link, or
//! a folder swapped for a link to another folder, between any check and any
//! use, can make a request fail but can never make it reach outside DIR; and
//! a name swapped for a FIFO is opened without blocking and refused.
//!
//! What handles cannot prevent: a hard link to an outside file placed in DIR
//! (it *is* a file in DIR), and a link whose absolute target names DIR by
//! another path than its canonical one (refused as leaving DIR).

use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, Read as _, Seek as _};
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::path::{Component, Path, PathBuf};

use rustix::fs::{AtFlags, FileType, Mode, OFlags, Stat};
use rustix::io::Errno;

use crate::atomic::{TEMP_PREFIX, TEMP_RANDOM_LEN, TEMP_SUFFIX, is_temporary_name};

/// How many symbolic links one path may pass through (as Linux's limit).
const MAX_LINKS: usize = 40;

const OUTSIDE: &str = "it leads out of the site";
const HIDDEN: &str = "hidden files are not served";

/// Why a path is not served.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// Malformed, or outside DIR.
    Outside(&'static str),
    /// Inside DIR, but nothing is there.
    Missing,
}

/// DIR, held open.
#[derive(Debug)]
pub(crate) struct Root {
    fd: OwnedFd,
    path: PathBuf,
}

/// A directory reached from the root.
#[derive(Debug)]
pub(crate) struct Folder {
    /// Its handle.
    pub(crate) fd: OwnedFd,
    /// Its real path below DIR, by segments (empty for DIR).
    pub(crate) rel: Vec<String>,
}

/// A name in a directory reached from the root: the directory's handle and
/// the name in it (not a symbolic link when it was reached).
#[derive(Debug)]
pub(crate) struct Entry {
    /// The handle of the directory that holds it.
    pub(crate) parent: OwnedFd,
    /// Its name there.
    pub(crate) name: String,
    /// Its real path below DIR, by segments (the name last).
    pub(crate) rel: Vec<String>,
}

impl Entry {
    /// Its real path below DIR, with `/` separators.
    pub(crate) fn rel_path(&self) -> String {
        self.rel.join("/")
    }
}

/// Why a file was not read.
#[derive(Debug)]
pub(crate) enum Unread {
    /// A directory, FIFO, device, socket or link: reading could block or
    /// mean nothing.
    NotAFile,
    /// Over the limit (the size seen).
    TooBig(u64),
    /// The operating system's reason.
    Io(io::Error),
}

impl From<Errno> for Unread {
    fn from(e: Errno) -> Unread {
        Unread::Io(e.into())
    }
}

impl Root {
    /// Opens DIR (`path`, canonical).
    pub(crate) fn open(path: &Path) -> io::Result<Root> {
        let fd = rustix::fs::open(
            path,
            OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
            Mode::empty(),
        )?;
        Ok(Root {
            fd,
            path: path.to_path_buf(),
        })
    }

    /// DIR's canonical path (for messages and absolute link targets only:
    /// nothing is opened by it).
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// The directory at `segments` below DIR (none: DIR itself).
    pub(crate) fn folder(&self, segments: &[String]) -> Result<Folder, Refusal> {
        let mut walk = Walk::new(self, segments);
        walk.run(true)?;
        let fd = match walk.dirs.pop() {
            Some(fd) => fd,
            None => self.fd.try_clone().map_err(|_| Refusal::Missing)?,
        };
        Ok(Folder {
            fd,
            rel: walk.names,
        })
    }

    /// The entry at `segments` below DIR, links followed inside DIR.
    pub(crate) fn entry(&self, segments: &[String]) -> Result<Entry, Refusal> {
        let mut walk = Walk::new(self, segments);
        let Some(name) = walk.run(false)? else {
            return Err(Refusal::Missing);
        };
        let parent = match walk.dirs.pop() {
            Some(fd) => fd,
            None => self.fd.try_clone().map_err(|_| Refusal::Missing)?,
        };
        let mut rel = walk.names;
        rel.push(name.clone());
        Ok(Entry { parent, name, rel })
    }
}

/// One walk from the root: the directories reached so far (handles and
/// names) and the segments still to walk.
struct Walk<'r> {
    root: &'r Root,
    dirs: Vec<OwnedFd>,
    names: Vec<String>,
    pending: VecDeque<String>,
    links: usize,
}

impl<'r> Walk<'r> {
    fn new(root: &'r Root, segments: &[String]) -> Walk<'r> {
        Walk {
            root,
            dirs: Vec::new(),
            names: Vec::new(),
            pending: segments.iter().cloned().collect(),
            links: 0,
        }
    }

    fn current(&self) -> BorrowedFd<'_> {
        self.dirs.last().map_or(self.root.fd.as_fd(), |d| d.as_fd())
    }

    /// Walks every segment, as directories when `all_dirs`; otherwise the
    /// last one is returned unopened (not a link: links are followed).
    fn run(&mut self, all_dirs: bool) -> Result<Option<String>, Refusal> {
        while let Some(segment) = self.pending.pop_front() {
            match segment.as_str() {
                "" | "." => continue,
                ".." => {
                    if self.names.pop().is_none() {
                        return Err(Refusal::Outside(OUTSIDE));
                    }
                    self.dirs.pop();
                    continue;
                }
                s if s.starts_with('.') => return Err(Refusal::Outside(HIDDEN)),
                _ => {}
            }
            let last = self.pending.is_empty() && !all_dirs;
            if last {
                let stat = rustix::fs::statat(self.current(), &segment, AtFlags::SYMLINK_NOFOLLOW)
                    .map_err(|_| Refusal::Missing)?;
                if FileType::from_raw_mode(stat.st_mode) == FileType::Symlink {
                    self.follow(&segment)?;
                    continue;
                }
                return Ok(Some(segment));
            }
            let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
            match rustix::fs::openat(self.current(), &segment, flags, Mode::empty()) {
                Ok(fd) => {
                    self.dirs.push(fd);
                    self.names.push(segment);
                }
                Err(_) if is_link(self.current(), &segment) => self.follow(&segment)?,
                Err(_) => return Err(Refusal::Missing),
            }
        }
        Ok(None)
    }

    /// Puts the target of the link `name` (in the current directory) in
    /// front of the segments still to walk.
    fn follow(&mut self, name: &str) -> Result<(), Refusal> {
        self.links += 1;
        if self.links > MAX_LINKS {
            return Err(Refusal::Outside("too many symbolic links"));
        }
        let target = rustix::fs::readlinkat(self.current(), name, Vec::new())
            .map_err(|_| Refusal::Missing)?;
        let target = target
            .to_str()
            .map_err(|_| Refusal::Outside("a link's target is not UTF-8"))?;
        let segments: Vec<String> = if Path::new(target).is_absolute() {
            let below = Path::new(target)
                .strip_prefix(&self.root.path)
                .map_err(|_| Refusal::Outside(OUTSIDE))?;
            self.dirs.clear();
            self.names.clear();
            below
                .components()
                .map(|c| match c {
                    Component::ParentDir => Ok("..".to_owned()),
                    Component::Normal(s) => s.to_str().map(str::to_owned).ok_or(Refusal::Missing),
                    _ => Ok(String::new()),
                })
                .collect::<Result<_, _>>()?
        } else {
            target.split('/').map(str::to_owned).collect()
        };
        for segment in segments.into_iter().rev() {
            self.pending.push_front(segment);
        }
        Ok(())
    }
}

/// Whether `name` in `dir` is a symbolic link (not followed).
fn is_link(dir: BorrowedFd<'_>, name: &str) -> bool {
    rustix::fs::statat(dir, name, AtFlags::SYMLINK_NOFOLLOW)
        .is_ok_and(|s| FileType::from_raw_mode(s.st_mode) == FileType::Symlink)
}

/// What is at `name` in `dir`, without following a link; `None` when
/// nothing is.
pub(crate) fn kind_at(dir: impl AsFd, name: &str) -> io::Result<Option<FileType>> {
    match rustix::fs::statat(dir, name, AtFlags::SYMLINK_NOFOLLOW) {
        Ok(stat) => Ok(Some(FileType::from_raw_mode(stat.st_mode))),
        Err(Errno::NOENT) => Ok(None),
        Err(e) => Err(e.into()),
    }
}

/// A regular file opened for reading, with what `fstat` said of it.
#[derive(Debug)]
pub(crate) struct Opened {
    /// The open file.
    pub(crate) file: File,
    /// Its status when opened.
    pub(crate) stat: Stat,
}

impl Opened {
    /// Whether `other` is the same file (device and inode).
    pub(crate) fn same_file(&self, other: &Stat) -> bool {
        self.stat.st_dev == other.st_dev && self.stat.st_ino == other.st_ino
    }

    /// The file's permission bits.
    pub(crate) fn mode(&self) -> u32 {
        self.stat.st_mode & 0o7777
    }

    /// Reads it whole from its start, refusing more than `limit` bytes
    /// (counted while reading, so a file that grows meanwhile is refused).
    pub(crate) fn read(&self, limit: usize) -> Result<Vec<u8>, Unread> {
        let limit = u64::try_from(limit).unwrap_or(u64::MAX);
        let size = u64::try_from(self.stat.st_size).unwrap_or(0);
        if size > limit {
            return Err(Unread::TooBig(size));
        }
        let mut file = &self.file;
        file.seek(io::SeekFrom::Start(0)).map_err(Unread::Io)?;
        let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
        file.take(limit.saturating_add(1))
            .read_to_end(&mut bytes)
            .map_err(Unread::Io)?;
        let read = u64::try_from(bytes.len()).unwrap_or(u64::MAX);
        if read > limit {
            return Err(Unread::TooBig(read));
        }
        Ok(bytes)
    }
}

/// Opens the regular file `name` in `dir` for reading: never through a
/// link, never waiting (a FIFO swapped in is opened without blocking and
/// refused), and refused unless the file opened is a regular file.
pub(crate) fn open_file(dir: impl AsFd, name: &str) -> Result<Opened, Unread> {
    let dir = dir.as_fd();
    // Not even opened when it is something else now (a device's open can
    // do things); the check after opening is the one that counts.
    match kind_at(dir, name).map_err(Unread::Io)? {
        Some(FileType::RegularFile) => {}
        Some(_) => return Err(Unread::NotAFile),
        None => return Err(Unread::Io(io::ErrorKind::NotFound.into())),
    }
    let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::NOCTTY;
    let fd = match rustix::fs::openat(dir, name, flags | OFlags::CLOEXEC, Mode::empty()) {
        Ok(fd) => fd,
        // Replaced by a link since the check.
        Err(Errno::LOOP | Errno::MLINK) => return Err(Unread::NotAFile),
        Err(e) => return Err(e.into()),
    };
    let stat = rustix::fs::fstat(&fd)?;
    if FileType::from_raw_mode(stat.st_mode) != FileType::RegularFile {
        return Err(Unread::NotAFile);
    }
    Ok(Opened {
        file: File::from(fd),
        stat,
    })
}

/// The names in `folder` with their kinds (links not followed; `.` and
/// `..` left out).
pub(crate) fn list(folder: &OwnedFd) -> io::Result<Vec<(String, FileType)>> {
    let mut out = Vec::new();
    for entry in rustix::fs::Dir::read_from(folder)? {
        let Ok(entry) = entry else { continue };
        let Ok(name) = entry.file_name().to_str() else {
            continue;
        };
        if name == "." || name == ".." {
            continue;
        }
        let kind = match entry.file_type() {
            FileType::Unknown => match kind_at(folder, name) {
                Ok(Some(kind)) => kind,
                _ => continue,
            },
            kind => kind,
        };
        out.push((name.to_owned(), kind));
    }
    Ok(out)
}

/// Opens the directory `name` in `dir`, not through a link.
pub(crate) fn open_folder(dir: impl AsFd, name: &str) -> io::Result<OwnedFd> {
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    Ok(rustix::fs::openat(dir, name, flags, Mode::empty())?)
}

/// A new temporary file in `dir`, named as [`crate::atomic`] names them
/// (so that a killed save's leftover is recognised), created exclusively
/// and not through a link.
pub(crate) fn create_temp(dir: impl AsFd) -> io::Result<(String, File)> {
    let dir = dir.as_fd();
    let flags = OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    for _ in 0..16 {
        let name = temp_name()?;
        match rustix::fs::openat(dir, &name, flags, Mode::from_raw_mode(0o600)) {
            Ok(fd) => return Ok((name, File::from(fd))),
            Err(Errno::EXIST) => continue,
            Err(e) => return Err(e.into()),
        }
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        "no free temporary name",
    ))
}

/// A fresh temporary name.
fn temp_name() -> io::Result<String> {
    const ALNUM: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    let mut bytes = [0u8; TEMP_RANDOM_LEN];
    getrandom::fill(&mut bytes).map_err(|e| io::Error::other(e.to_string()))?;
    let random: String = bytes
        .iter()
        .map(|b| char::from(ALNUM[usize::from(*b) % ALNUM.len()]))
        .collect();
    Ok(format!("{TEMP_PREFIX}{random}{TEMP_SUFFIX}"))
}

/// Removes `name` from `dir` (not following a link: a link is removed).
pub(crate) fn remove(dir: impl AsFd, name: &str) -> io::Result<()> {
    Ok(rustix::fs::unlinkat(dir, name, AtFlags::empty())?)
}

/// Removes the temporary files a killed save (or any killed pagetext run)
/// left in `dir`: regular files with the temporary names. Returns how many.
pub(crate) fn remove_leftovers(dir: &OwnedFd) -> usize {
    let Ok(names) = list(dir) else { return 0 };
    names
        .iter()
        .filter(|(name, kind)| {
            *kind == FileType::RegularFile && is_temporary_name(std::ffi::OsStr::new(name))
        })
        .filter(|(name, _)| remove(dir, name).is_ok())
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;
    use std::os::unix::fs::symlink;

    fn segs(path: &str) -> Vec<String> {
        path.split('/').map(str::to_owned).collect()
    }

    /// A site in `outer/site` with a file, a folder and a secret outside.
    fn setup() -> (tempfile::TempDir, Root) {
        let outer = tempfile::tempdir().unwrap();
        let outer_path = fs::canonicalize(outer.path()).unwrap();
        let site = outer_path.join("site");
        fs::create_dir_all(site.join("sub/deep")).unwrap();
        fs::write(site.join("a.html"), "inside").unwrap();
        fs::write(site.join("sub/deep/b.html"), "deep").unwrap();
        fs::write(site.join(".hidden.html"), "hidden").unwrap();
        fs::write(outer_path.join("secret.html"), "SECRET").unwrap();
        fs::create_dir(outer_path.join("away")).unwrap();
        fs::write(outer_path.join("away/page.html"), "SECRET").unwrap();
        let root = Root::open(&site).unwrap();
        (outer, root)
    }

    fn read(root: &Root, path: &str) -> Result<String, String> {
        let entry = root.entry(&segs(path)).map_err(|r| format!("{r:?}"))?;
        let opened = open_file(&entry.parent, &entry.name).map_err(|u| format!("{u:?}"))?;
        let bytes = opened.read(1024).map_err(|u| format!("{u:?}"))?;
        Ok(String::from_utf8(bytes).unwrap())
    }

    #[test]
    fn files_are_reached_from_the_root_with_their_real_path() {
        let (_outer, root) = setup();
        assert_eq!(read(&root, "a.html").unwrap(), "inside");
        assert_eq!(read(&root, "sub/deep/b.html").unwrap(), "deep");
        let entry = root.entry(&segs("sub/deep/b.html")).unwrap();
        assert_eq!(entry.rel_path(), "sub/deep/b.html");
        assert_eq!(root.folder(&[]).unwrap().rel, Vec::<String>::new());
        assert_eq!(root.folder(&segs("sub/deep")).unwrap().rel, ["sub", "deep"]);
        assert!(matches!(
            root.entry(&segs("nope.html")),
            Err(Refusal::Missing)
        ));
        assert!(matches!(
            root.folder(&segs("a.html")),
            Err(Refusal::Missing)
        ));
    }

    #[test]
    fn links_are_followed_inside_and_refused_out_or_to_hidden_names() {
        let (outer, root) = setup();
        let site = root.path().to_path_buf();
        symlink("a.html", site.join("rel.html")).unwrap();
        symlink(site.join("sub/deep/b.html"), site.join("abs.html")).unwrap();
        symlink("../deep/b.html", site.join("sub/up.html")).unwrap();
        symlink("sub/deep", site.join("deeplink")).unwrap();
        symlink("../secret.html", site.join("out.html")).unwrap();
        symlink(outer.path().join("secret.html"), site.join("absout.html")).unwrap();
        symlink("../away", site.join("awaydir")).unwrap();
        symlink(".hidden.html", site.join("peek.html")).unwrap();
        symlink("loop2.html", site.join("loop1.html")).unwrap();
        symlink("loop1.html", site.join("loop2.html")).unwrap();
        assert_eq!(read(&root, "rel.html").unwrap(), "inside");
        assert_eq!(root.entry(&segs("rel.html")).unwrap().rel_path(), "a.html");
        assert_eq!(read(&root, "abs.html").unwrap(), "deep");
        // `sub/up.html` -> `sub/../deep/b.html` does not exist.
        assert!(read(&root, "sub/up.html").is_err());
        assert_eq!(read(&root, "deeplink/b.html").unwrap(), "deep");
        assert_eq!(
            root.entry(&segs("deeplink/b.html")).unwrap().rel_path(),
            "sub/deep/b.html"
        );
        for path in [
            "out.html",
            "absout.html",
            "awaydir/page.html",
            "peek.html",
            "loop1.html",
        ] {
            assert!(
                matches!(root.entry(&segs(path)), Err(Refusal::Outside(_))),
                "{path}"
            );
        }
        assert!(matches!(
            root.folder(&segs("awaydir")),
            Err(Refusal::Outside(_))
        ));
    }

    #[test]
    fn only_regular_files_are_opened_and_fifos_do_not_block() {
        let (_outer, root) = setup();
        let site = root.path().to_path_buf();
        let made = std::process::Command::new("mkfifo")
            .arg(site.join("pipe.html"))
            .status()
            .unwrap();
        assert!(made.success());
        let entry = root.entry(&segs("pipe.html")).unwrap();
        assert!(matches!(
            open_file(&entry.parent, &entry.name),
            Err(Unread::NotAFile)
        ));
        let entry = root.entry(&segs("sub")).unwrap();
        assert!(matches!(
            open_file(&entry.parent, &entry.name),
            Err(Unread::NotAFile)
        ));
        // A name swapped for a link after it was reached is not followed.
        let entry = root.entry(&segs("a.html")).unwrap();
        fs::remove_file(site.join("a.html")).unwrap();
        symlink("../secret.html", site.join("a.html")).unwrap();
        assert!(matches!(
            open_file(&entry.parent, &entry.name),
            Err(Unread::NotAFile)
        ));
    }

    #[test]
    fn a_held_folder_stays_inside_when_its_name_is_swapped() {
        let (outer, root) = setup();
        let site = root.path().to_path_buf();
        let folder = root.folder(&segs("sub")).unwrap();
        fs::rename(site.join("sub"), site.join("moved")).unwrap();
        symlink(outer.path().join("away"), site.join("sub")).unwrap();
        let names: Vec<String> = list(&folder.fd).unwrap().into_iter().map(|e| e.0).collect();
        assert_eq!(names, ["deep"]);
        assert!(matches!(
            root.folder(&segs("sub")),
            Err(Refusal::Outside(_))
        ));
    }

    #[test]
    fn temporaries_are_named_for_leftover_removal() {
        let (_outer, root) = setup();
        let folder = root.folder(&[]).unwrap();
        let (name, _file) = create_temp(&folder.fd).unwrap();
        assert!(is_temporary_name(std::ffi::OsStr::new(&name)), "{name}");
        fs::create_dir(root.path().join(".pagetext-0000000000000000.tmp")).unwrap();
        assert_eq!(remove_leftovers(&folder.fd), 1);
        assert_eq!(kind_at(&folder.fd, &name).unwrap(), None);
        assert_eq!(
            kind_at(&folder.fd, ".pagetext-0000000000000000.tmp").unwrap(),
            Some(FileType::Directory)
        );
    }
}
