//! Atomic writes: a temporary file in the target's own directory, written in
//! full, then renamed over the target. A run that is interrupted (killed, out
//! of disk space, over a file size limit) leaves either the old file or the
//! new one under the target's name, never a half-written one; the temporary
//! file is removed on every error path this process survives.
//!
//! A process that is killed cannot remove its temporary file; the next run
//! that writes into the same directory does ([`remove_leftovers`]). The
//! temporary names are specific for that: [`TEMP_PREFIX`], exactly
//! [`TEMP_RANDOM_LEN`] random ASCII letters and digits, [`TEMP_SUFFIX`].

use std::collections::BTreeSet;
use std::ffi::OsStr;
use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// How every temporary file's name begins.
pub(crate) const TEMP_PREFIX: &str = ".pagetext-";
/// How many random characters follow [`TEMP_PREFIX`].
pub(crate) const TEMP_RANDOM_LEN: usize = 16;
/// How every temporary file's name ends.
pub(crate) const TEMP_SUFFIX: &str = ".tmp";

/// Writes `bytes` to `target` atomically ([`AtomicFile`]).
pub(crate) fn write_atomic(target: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut file = AtomicFile::create(target)?;
    file.write_all(bytes)?;
    file.commit()
}

/// A file written as a stream, then put in place under its target's name
/// by [`AtomicFile::commit`]. Dropped before that (an error on the way),
/// it leaves the target as it was and removes its temporary file.
///
/// When the target exists and is not a regular file (`/dev/null`, a FIFO,
/// a terminal), it is written directly: such a target cannot be
/// half-written, and renaming over it would replace the device node. When
/// the target exists, the new file gets its permissions and is flushed to
/// disk before the rename, so that not even a crash of the machine can
/// lose the original.
pub(crate) struct AtomicFile {
    to: Destination,
}

enum Destination {
    /// A temporary file beside `target`, renamed onto it at the end.
    Temporary {
        tmp: tempfile::NamedTempFile,
        target: PathBuf,
        /// The permissions of the file it replaces, if any.
        existing: Option<fs::Permissions>,
    },
    /// A target that is not a regular file, written in place.
    Direct(fs::File),
}

impl AtomicFile {
    /// Starts writing `target`; a directory is refused.
    pub(crate) fn create(target: &Path) -> io::Result<AtomicFile> {
        let existing = match fs::metadata(target) {
            Ok(meta) if meta.is_dir() => {
                return Err(io::Error::new(
                    io::ErrorKind::IsADirectory,
                    "is a directory",
                ));
            }
            Ok(meta) if !meta.is_file() => {
                let file = OpenOptions::new().write(true).open(target)?;
                return Ok(AtomicFile {
                    to: Destination::Direct(file),
                });
            }
            Ok(meta) => Some(meta.permissions()),
            Err(e) if e.kind() == io::ErrorKind::NotFound => None,
            Err(e) => return Err(e),
        };
        Ok(AtomicFile {
            to: Destination::Temporary {
                tmp: temporary_beside(target)?,
                target: target.to_path_buf(),
                existing,
            },
        })
    }

    /// Puts the file in place: everything written is under the target's
    /// name, or (on error) nothing changed there.
    pub(crate) fn commit(self) -> io::Result<()> {
        match self.to {
            Destination::Direct(mut file) => file.flush(),
            Destination::Temporary {
                mut tmp,
                target,
                existing,
            } => {
                tmp.as_file_mut().flush()?;
                if let Some(permissions) = existing {
                    tmp.as_file().set_permissions(permissions)?;
                    tmp.as_file().sync_all()?;
                }
                // On error the temporary file is dropped, which deletes it.
                tmp.persist(&target).map_err(|e| e.error)?;
                Ok(())
            }
        }
    }

    /// The file being written. Through the `File`: tempfile's own `Write`
    /// adds the temporary path to errors, which means nothing to the user.
    fn file(&mut self) -> &mut fs::File {
        match &mut self.to {
            Destination::Temporary { tmp, .. } => tmp.as_file_mut(),
            Destination::Direct(file) => file,
        }
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.file().write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file().flush()
    }
}

/// A new temporary file in `target`'s directory (so that renaming it onto
/// `target` is atomic), named as [`is_temporary_name`] expects.
fn temporary_beside(target: &Path) -> io::Result<tempfile::NamedTempFile> {
    let dir = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut builder = tempfile::Builder::new();
    builder
        .prefix(TEMP_PREFIX)
        .rand_bytes(TEMP_RANDOM_LEN)
        .suffix(TEMP_SUFFIX);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // What `File::create` would give a new file (the umask applies).
        builder.permissions(fs::Permissions::from_mode(0o666));
    }
    builder.tempfile_in(dir).map_err(plain)
}

/// Whether `name` is one of [`write_atomic`]'s temporary names.
pub(crate) fn is_temporary_name(name: &OsStr) -> bool {
    let Some(name) = name.to_str() else {
        return false;
    };
    name.strip_prefix(TEMP_PREFIX)
        .and_then(|rest| rest.strip_suffix(TEMP_SUFFIX))
        .is_some_and(|random| {
            random.len() == TEMP_RANDOM_LEN && random.bytes().all(|b| b.is_ascii_alphanumeric())
        })
}

/// Removes the temporary files an interrupted run left in `dirs` (only
/// there, not below): regular files with [`write_atomic`]'s temporary
/// names. A directory that does not exist, cannot be read, or a file that
/// cannot be removed is passed over: a leftover is harmless. Returns how
/// many were removed.
pub(crate) fn remove_leftovers(dirs: &BTreeSet<PathBuf>) -> usize {
    let mut removed = 0;
    for dir in dirs {
        let Ok(entries) = fs::read_dir(dir) else {
            continue;
        };
        for entry in entries.flatten() {
            if !is_temporary_name(&entry.file_name()) {
                continue;
            }
            // Not through a symbolic link, and nothing but a regular file.
            let is_file = entry.file_type().is_ok_and(|t| t.is_file());
            if is_file && fs::remove_file(entry.path()).is_ok() {
                removed += 1;
            }
        }
    }
    removed
}

/// An OS error without the temporary path tempfile adds to its message
/// (`... at path "/dir/.pagetext-XXXX.tmp"`), which means nothing to the user.
fn plain(e: io::Error) -> io::Error {
    if e.raw_os_error().is_some() {
        return e;
    }
    let text = e.to_string();
    match text.find(" at path \"") {
        Some(cut) => io::Error::new(e.kind(), text[..cut].to_string()),
        None => e,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(dir: &Path) -> Vec<String> {
        let mut names: Vec<_> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn creates_and_replaces_without_leftovers() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("a.txt");
        write_atomic(&target, b"one").unwrap();
        assert_eq!(fs::read(&target).unwrap(), b"one");
        write_atomic(&target, b"two").unwrap();
        assert_eq!(fs::read(&target).unwrap(), b"two");
        assert_eq!(entries(dir.path()), ["a.txt"]);
    }

    #[cfg(unix)]
    #[test]
    fn replacing_keeps_the_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("a.txt");
        fs::write(&target, "old").unwrap();
        fs::set_permissions(&target, fs::Permissions::from_mode(0o640)).unwrap();
        write_atomic(&target, b"new").unwrap();
        let mode = fs::metadata(&target).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640);
    }

    #[test]
    fn a_stream_appears_whole_or_not_at_all() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("out.jsonl");
        fs::write(&target, "old").unwrap();
        let mut file = AtomicFile::create(&target).unwrap();
        file.write_all(b"one\n").unwrap();
        file.write_all(b"two\n").unwrap();
        assert_eq!(fs::read(&target).unwrap(), b"old");
        file.commit().unwrap();
        assert_eq!(fs::read(&target).unwrap(), b"one\ntwo\n");
        // Dropped before the end: the target stays, no temporary is left.
        let mut file = AtomicFile::create(&target).unwrap();
        file.write_all(b"half").unwrap();
        drop(file);
        assert_eq!(fs::read(&target).unwrap(), b"one\ntwo\n");
        assert_eq!(entries(dir.path()), ["out.jsonl"]);
    }

    #[test]
    fn a_missing_directory_is_a_plain_error() {
        let dir = tempfile::tempdir().unwrap();
        let err = write_atomic(&dir.path().join("no/x.txt"), b"x").unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::NotFound);
        assert_eq!(
            crate::inputs::describe_io_error(&err),
            "no such file or directory"
        );
    }

    #[test]
    fn a_directory_is_not_a_target() {
        let dir = tempfile::tempdir().unwrap();
        let err = write_atomic(dir.path(), b"x").unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::IsADirectory);
        assert!(entries(dir.path()).is_empty());
    }

    #[test]
    fn temporary_names_are_recognised_exactly() {
        let dir = tempfile::tempdir().unwrap();
        let mut builder = tempfile::Builder::new();
        builder
            .prefix(TEMP_PREFIX)
            .rand_bytes(TEMP_RANDOM_LEN)
            .suffix(TEMP_SUFFIX);
        let tmp = builder.tempfile_in(dir.path()).unwrap();
        assert!(is_temporary_name(tmp.path().file_name().unwrap()));
        for name in [
            ".pagetext-aB3dE6gH9jK2mN5p.tmp",
            ".pagetext-0000000000000000.tmp",
        ] {
            assert!(is_temporary_name(OsStr::new(name)), "{name}");
        }
        for name in [
            ".pagetext-backup.tmp",
            ".pagetext-aB3dE6.tmp",
            ".pagetext-aB3dE6gH9jK2mN5pq.tmp",
            ".pagetext-aB3dE6gH9jK2mN5.tmp",
            ".pagetext-aB3dE6gH9jK2mN-p.tmp",
            ".pagetext-aB3dE6gH9jK2mN5p.txt",
            "pagetext-aB3dE6gH9jK2mN5p.tmp",
            ".pagetext-aB3dE6gH9jK2mN5p.tmp~",
            "page.txt",
        ] {
            assert!(!is_temporary_name(OsStr::new(name)), "{name}");
        }
    }

    #[test]
    fn only_leftovers_in_the_given_directories_are_removed() {
        let dir = tempfile::tempdir().unwrap();
        let sub = dir.path().join("sub");
        fs::create_dir(&sub).unwrap();
        let leftover = ".pagetext-aB3dE6gH9jK2mN5p.tmp";
        fs::write(dir.path().join(leftover), "half").unwrap();
        fs::write(dir.path().join(".pagetext-backup.tmp"), "mine").unwrap();
        fs::write(dir.path().join("a.txt"), "a").unwrap();
        fs::write(sub.join(leftover), "below: not asked").unwrap();
        // A directory with a temporary name is not a temporary file.
        fs::create_dir(dir.path().join(".pagetext-0000000000000000.tmp")).unwrap();
        let dirs = BTreeSet::from([dir.path().to_path_buf(), dir.path().join("missing")]);
        assert_eq!(remove_leftovers(&dirs), 1);
        assert_eq!(
            entries(dir.path()),
            [
                ".pagetext-0000000000000000.tmp",
                ".pagetext-backup.tmp",
                "a.txt",
                "sub"
            ]
        );
        assert_eq!(entries(&sub), [leftover]);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn devices_are_written_directly() {
        write_atomic(Path::new("/dev/null"), b"x").unwrap();
        let err = write_atomic(Path::new("/dev/full"), b"x").unwrap_err();
        assert_eq!(err.raw_os_error(), Some(28), "{err}"); // ENOSPC
        assert!(!fs::metadata("/dev/full").unwrap().file_type().is_file());
    }
}
