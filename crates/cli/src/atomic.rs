//! Atomic writes: a temporary file in the target's own directory, written in
//! full, then renamed over the target. A run that is interrupted (killed, out
//! of disk space, over a file size limit) leaves either the old file or the
//! new one under the target's name, never a half-written one; the temporary
//! file is removed on every error path this process survives.

use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::path::Path;

/// Writes `bytes` to `target` atomically.
///
/// When `target` exists and is not a regular file (`/dev/null`, a FIFO, a
/// terminal), it is written directly: such a target cannot be half-written,
/// and renaming over it would replace the device node. When `target` exists,
/// the new file gets its permissions and is flushed to disk before the rename,
/// so that not even a crash of the machine can lose the original.
pub(crate) fn write_atomic(target: &Path, bytes: &[u8]) -> io::Result<()> {
    let existing = match fs::metadata(target) {
        Ok(meta) if meta.is_dir() => {
            return Err(io::Error::new(
                io::ErrorKind::IsADirectory,
                "is a directory",
            ));
        }
        Ok(meta) if !meta.is_file() => {
            let mut file = OpenOptions::new().write(true).open(target)?;
            return file.write_all(bytes).and_then(|()| file.flush());
        }
        Ok(meta) => Some(meta),
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => return Err(e),
    };
    let dir = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut builder = tempfile::Builder::new();
    builder.prefix(".pagetext-").suffix(".tmp");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // What `File::create` would give a new file (the umask applies).
        builder.permissions(fs::Permissions::from_mode(0o666));
    }
    let mut tmp = builder.tempfile_in(dir).map_err(plain)?;
    // Through the `File`: tempfile's own `Write` adds the temporary path to
    // errors, which means nothing to the user.
    tmp.as_file_mut().write_all(bytes)?;
    tmp.as_file_mut().flush()?;
    if let Some(meta) = existing {
        tmp.as_file().set_permissions(meta.permissions())?;
        tmp.as_file().sync_all()?;
    }
    // On error the temporary file is dropped, which deletes it.
    tmp.persist(target).map_err(|e| e.error)?;
    Ok(())
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

    #[cfg(target_os = "linux")]
    #[test]
    fn devices_are_written_directly() {
        write_atomic(Path::new("/dev/null"), b"x").unwrap();
        let err = write_atomic(Path::new("/dev/full"), b"x").unwrap_err();
        assert_eq!(err.raw_os_error(), Some(28), "{err}"); // ENOSPC
        assert!(!fs::metadata("/dev/full").unwrap().file_type().is_file());
    }
}
