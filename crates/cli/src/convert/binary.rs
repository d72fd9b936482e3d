//! The binary-data rule. A file that starts with the signature of a known
//! binary format (an image, an archive, an executable) is refused before
//! any conversion, with its kind named. A file that is mostly control bytes
//! is converted all the same, with a `control-bytes` warning: the HTML
//! standard's algorithms have no step that refuses input (its decoders and
//! its parser read every byte; NUL becomes U+FFFD), and pages padded with
//! NUL bytes are read as HTML by browsers. `sniff` never refuses: it always
//! gives the algorithm's answer, with a note when the bytes look binary.

use std::fmt;

use pagetext::InputFormat;

use super::{Failure, Job, check_format};
use crate::diag::{Diag, Severity};

/// How many leading bytes are looked at to tell binary data from text.
const BINARY_PROBE: usize = 8 * 1024;

/// The signatures of binary formats a directory of pages commonly holds.
const SIGNATURES: &[(&[u8], &str)] = &[
    (b"\x89PNG\r\n\x1a\n", "a PNG image"),
    (b"GIF87a", "a GIF image"),
    (b"GIF89a", "a GIF image"),
    (b"\xFF\xD8\xFF", "a JPEG image"),
    (b"%PDF-", "a PDF document"),
    (b"PK\x03\x04", "a ZIP archive"),
    (b"PK\x05\x06", "a ZIP archive"),
    (b"\x1F\x8B", "gzip-compressed data"),
    (b"\xFD7zXZ\x00", "xz-compressed data"),
    (b"7z\xBC\xAF\x27\x1C", "a 7-Zip archive"),
    (b"\x7FELF", "an ELF executable"),
];

/// Why bytes look like binary data rather than text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Binary {
    /// They start with the signature of a known binary format: its kind
    /// ("a PNG image"). Refused by every command but `sniff`.
    Signature(&'static str),
    /// Most of the first [`BINARY_PROBE`] bytes are control bytes. Read all
    /// the same, with a warning.
    ControlBytes {
        /// How many control bytes there are among them.
        control: usize,
        /// How many bytes were looked at.
        probed: usize,
    },
}

impl fmt::Display for Binary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Binary::Signature(what) => f.write_str(what),
            Binary::ControlBytes { control, probed } => {
                write!(f, "mostly control bytes: {control} of the first {probed}")
            }
        }
    }
}

/// The kind of binary data `bytes` start with, if they start with a known
/// signature.
pub(crate) fn signature(bytes: &[u8]) -> Option<&'static str> {
    SIGNATURES
        .iter()
        .find(|(sig, _)| bytes.starts_with(sig))
        .map(|(_, what)| *what)
}

/// Whether `bytes` look like binary data, and why: a known binary signature
/// at the start, or mostly control bytes in the first [`BINARY_PROBE`]
/// bytes (C0 controls other than tab, line feed, form feed, carriage return
/// and escape, which ISO-2022-JP uses; NUL and DEL count). A NUL alone
/// never makes a file look binary: the HTML parser reads it (as U+FFFD),
/// and real pages carry NUL padding. UTF-16 text, which is half NULs when
/// its characters are ASCII, never counts as control bytes when `utf16`
/// says a BOM, the transport or a declaration names UTF-16 (asked only
/// when the bytes look like control bytes).
pub(crate) fn binary_reason(bytes: &[u8], utf16: impl FnOnce() -> bool) -> Option<Binary> {
    if let Some(what) = signature(bytes) {
        return Some(Binary::Signature(what));
    }
    let probe = bytes.get(..BINARY_PROBE).unwrap_or(bytes);
    let control = probe
        .iter()
        .filter(|&&b| (b < 0x20 && !matches!(b, b'\t' | b'\n' | 0x0C | b'\r' | 0x1B)) || b == 0x7F)
        .count();
    if probe.len() >= 32 && control * 2 > probe.len() && !utf16() {
        return Some(Binary::ControlBytes {
            control,
            probed: probe.len(),
        });
    }
    None
}

/// Whether `encoding` is UTF-16 (either byte order).
fn is_utf16(encoding: &'static encoding_rs::Encoding) -> bool {
    encoding == encoding_rs::UTF_16LE || encoding == encoding_rs::UTF_16BE
}

/// Refuses binary data for `job` when `bytes` start with a known binary
/// signature: the kind, and what the job expected (text or HTML). `sniff`
/// refuses nothing (see [`note`]).
pub(super) fn refuse(job: &Job, name: &str, bytes: &[u8]) -> Result<(), Failure> {
    let Some(what) = signature(bytes) else {
        return Ok(());
    };
    let expected = match job {
        Job::Sniff { .. } => return Ok(()),
        Job::ToHtml { .. } | Job::Fmt { .. } => "text",
        Job::Check { from, .. } => match check_format(*from, name) {
            InputFormat::Text => "text",
            InputFormat::Html => "HTML",
        },
        Job::ToText { .. } => "HTML",
    };
    // A compressed crawl is a WARC file more often than anything else.
    let hint = if matches!(job, Job::ToText { .. }) && what == "gzip-compressed data" {
        ": if it is a WARC file, `pagetext to-text --warc FILE` converts the pages it holds"
    } else {
        ""
    };
    Err(format!("binary data, not {expected} ({what}){hint}"))
}

/// The `control-bytes` warning for an input `job` converts although it is
/// mostly control bytes (never for a signature: those are refused first).
pub(super) fn control_bytes_warning(job: &Job, name: &str, bytes: &[u8]) -> Option<Diag> {
    match binary_reason(bytes, || names_utf16(job, name, bytes))? {
        Binary::Signature(_) => None,
        Binary::ControlBytes { .. } if matches!(job, Job::Sniff { .. }) => None,
        Binary::ControlBytes { control, probed } => Some(control_bytes_diag(control, probed)),
    }
}

/// The `control-bytes` warning itself: how many of the bytes looked at are
/// control bytes.
pub(crate) fn control_bytes_diag(control: usize, probed: usize) -> Diag {
    let percent = control * 100 / probed.max(1);
    Diag::new(
        Severity::Warning,
        "control-bytes",
        format!(
            "mostly control bytes: {control} of the first {probed} bytes ({percent}%), \
             as in binary data; converted all the same"
        ),
    )
}

/// `sniff`'s note next to its answer when the bytes look like binary data.
pub(super) fn note(job: &Job, name: &str, bytes: &[u8]) -> Option<String> {
    binary_reason(bytes, || names_utf16(job, name, bytes))
        .map(|why| format!("looks like binary data ({why})"))
}

/// Whether the sniffing algorithm, with this job's hints, takes `bytes`
/// for UTF-16 (from a BOM, the transport or a declaration); for the
/// text format, whether they start with a UTF-16 BOM.
fn names_utf16(job: &Job, name: &str, bytes: &[u8]) -> bool {
    let Some(hints) = job.hints(name) else {
        return bytes.starts_with(b"\xFF\xFE") || bytes.starts_with(b"\xFE\xFF");
    };
    // Autodetection never answers UTF-16: leave it out.
    is_utf16(sniff::sniff(bytes, &hints.with_autodetect(None)).encoding)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reason(bytes: &[u8]) -> Option<String> {
        binary_reason(bytes, || false).map(|why| why.to_string())
    }

    #[test]
    fn binary_data_is_told_by_signatures_and_control_bytes_never_by_a_nul() {
        assert_eq!(
            reason(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR").as_deref(),
            Some("a PNG image")
        );
        assert_eq!(reason(b"%PDF-1.4\n").as_deref(), Some("a PDF document"));
        assert_eq!(
            reason(b"\x1F\x8B\x08\0").as_deref(),
            Some("gzip-compressed data")
        );
        assert_eq!(
            reason(b"\x7FELF\x02\x01\x01\0").as_deref(),
            Some("an ELF executable")
        );
        assert_eq!(reason(b"<p>plain</p>"), None);
        // NULs in a page: padding, a stray one.
        assert_eq!(reason(b"<p>a\0b</p>"), None);
        let mut padded = b"<html><body><p>text</p></body></html>".to_vec();
        padded.extend([0u8; 30]);
        assert_eq!(reason(&padded), None);
        // Mostly control bytes.
        let noise: Vec<u8> = (0u8..64).map(|i| i % 8).collect();
        assert!(reason(&noise).is_some_and(|w| w.starts_with("mostly control bytes")));
        // ...unless UTF-16 is named.
        assert_eq!(binary_reason(&noise, || true), None);
        // UTF-16 text of ASCII characters is half NULs: not mostly.
        let utf16: Vec<u8> = "<p>Hello, world, and more text</p>"
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        assert_eq!(reason(&utf16), None);
    }

    #[test]
    fn only_a_signature_is_a_kind_of_binary_data() {
        assert_eq!(signature(b"\x89PNG\r\n\x1a\n"), Some("a PNG image"));
        assert_eq!(signature(b"\x7FELF\x02"), Some("an ELF executable"));
        assert_eq!(signature(b"\x1F\x8B\x08"), Some("gzip-compressed data"));
        // A page padded with NUL bytes has no signature.
        let padded = [
            b"<meta charset=windows-1251><p>x</p>".as_slice(),
            &[0; 8192],
        ]
        .concat();
        assert_eq!(signature(&padded), None);
        assert_eq!(
            binary_reason(&padded, || false),
            Some(Binary::ControlBytes {
                control: 8192 - 35,
                probed: 8192
            })
        );
    }

    #[test]
    fn the_warning_says_how_much_is_control_bytes() {
        let diag = control_bytes_diag(8066, 8192);
        assert_eq!(diag.severity, Severity::Warning);
        assert_eq!(diag.code, "control-bytes");
        assert!(diag.message.contains("8066 of the first 8192 bytes (98%)"));
    }
}
