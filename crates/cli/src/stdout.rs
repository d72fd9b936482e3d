//! Standard output, whose write errors say that standard output failed.
//!
//! Every command prints through [`lock`]. A failed write keeps its
//! `ErrorKind` (a closed pipe is still `BrokenPipe`, which ends the run
//! quietly) and carries a [`StdoutFailed`], which `main` finds with
//! [`failure`] and reports in one line with exit status 1: the run could not
//! deliver its output, which is no usage error.

use std::error::Error;
use std::fmt;
use std::io::{self, Write};

use crate::inputs::describe_io_error;

/// Standard output, locked for the calling thread.
pub(crate) struct Stdout {
    inner: io::StdoutLock<'static>,
}

/// Locks standard output.
pub(crate) fn lock() -> Stdout {
    Stdout {
        inner: io::stdout().lock(),
    }
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.inner.write(buf).map_err(wrap)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush().map_err(wrap)
    }
}

/// The same error, of the same kind, marked as standard output's.
fn wrap(e: io::Error) -> io::Error {
    io::Error::new(e.kind(), StdoutFailed(e))
}

/// A write to standard output failed.
#[derive(Debug)]
pub(crate) struct StdoutFailed(io::Error);

impl fmt::Display for StdoutFailed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "writing standard output: {}", describe_io_error(&self.0))
    }
}

// No `source`: the message already holds the cause, once.
impl Error for StdoutFailed {}

/// The standard output failure in an error chain, if any.
pub(crate) fn failure(e: &anyhow::Error) -> Option<&StdoutFailed> {
    e.chain().find_map(|cause| {
        cause
            .downcast_ref::<io::Error>()?
            .get_ref()?
            .downcast_ref::<StdoutFailed>()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wrapped_error_keeps_its_kind_and_names_standard_output() {
        let e = wrap(io::Error::from_raw_os_error(28)); // ENOSPC on Linux
        let kind = e.kind();
        let e = anyhow::Error::from(e);
        let found = failure(&e).map(ToString::to_string);
        assert!(
            found
                .as_deref()
                .is_some_and(|m| m.starts_with("writing standard output: ")),
            "{found:?}"
        );
        assert_eq!(kind, io::Error::from_raw_os_error(28).kind());
        let pipe = wrap(io::Error::from(io::ErrorKind::BrokenPipe));
        assert_eq!(pipe.kind(), io::ErrorKind::BrokenPipe);
        assert!(failure(&anyhow::Error::msg("other")).is_none());
    }
}
