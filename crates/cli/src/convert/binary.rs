//! The binary-data rule: a file that is an image, an archive or mostly
//! control bytes is refused before any conversion, with the reason.

use pagetext::InputFormat;

use super::{Failure, Job, check_format};

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

/// Why `bytes` are binary data rather than text, if they are: a known
/// binary signature at the start, or mostly control bytes in the first
/// [`BINARY_PROBE`] bytes (C0 controls other than tab, line feed, form
/// feed, carriage return and escape, which ISO-2022-JP uses; NUL counts).
/// A NUL alone never makes a file binary: the HTML parser reads it (as
/// U+FFFD), and real pages carry NUL padding. UTF-16 text, which is half
/// NULs when its characters are ASCII, is never binary when `utf16` says a
/// BOM, the transport or a declaration names UTF-16 (asked only when the
/// bytes look like control bytes).
pub(crate) fn binary_reason(bytes: &[u8], utf16: impl FnOnce() -> bool) -> Option<String> {
    if let Some((_, what)) = SIGNATURES.iter().find(|(sig, _)| bytes.starts_with(sig)) {
        return Some((*what).to_owned());
    }
    let probe = bytes.get(..BINARY_PROBE).unwrap_or(bytes);
    let control = probe
        .iter()
        .filter(|&&b| (b < 0x20 && !matches!(b, b'\t' | b'\n' | 0x0C | b'\r' | 0x1B)) || b == 0x7F)
        .count();
    if probe.len() >= 32 && control * 2 > probe.len() && !utf16() {
        return Some(format!(
            "mostly control bytes: {control} of the first {}",
            probe.len()
        ));
    }
    None
}

/// Whether `encoding` is UTF-16 (either byte order).
fn is_utf16(encoding: &'static encoding_rs::Encoding) -> bool {
    encoding == encoding_rs::UTF_16LE || encoding == encoding_rs::UTF_16BE
}

/// Refuses binary data for `job`: the reason, and what the job expected
/// (text or HTML).
pub(super) fn refuse(job: &Job, name: &str, bytes: &[u8]) -> Result<(), Failure> {
    let Some(why) = binary_reason(bytes, || names_utf16(job, name, bytes)) else {
        return Ok(());
    };
    let expected = match job {
        Job::ToHtml { .. } | Job::Fmt { .. } => "text",
        Job::Check { from, .. } => match check_format(*from, name) {
            InputFormat::Text => "text",
            InputFormat::Html => "HTML",
        },
        Job::ToText { .. } | Job::Sniff { .. } => "HTML",
    };
    Err(format!("binary data, not {expected} ({why})"))
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

    #[test]
    fn binary_data_is_told_by_signatures_and_control_bytes_never_by_a_nul() {
        let never = || false;
        assert_eq!(
            binary_reason(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR", never).as_deref(),
            Some("a PNG image")
        );
        assert_eq!(
            binary_reason(b"%PDF-1.4\n", never).as_deref(),
            Some("a PDF document")
        );
        assert_eq!(
            binary_reason(b"\x1F\x8B\x08\0", never).as_deref(),
            Some("gzip-compressed data")
        );
        assert_eq!(binary_reason(b"<p>plain</p>", never), None);
        // NULs in a page: padding, a stray one.
        assert_eq!(binary_reason(b"<p>a\0b</p>", never), None);
        let mut padded = b"<html><body><p>text</p></body></html>".to_vec();
        padded.extend([0u8; 30]);
        assert_eq!(binary_reason(&padded, never), None);
        // Mostly control bytes.
        let noise: Vec<u8> = (0u8..64).map(|i| i % 8).collect();
        assert!(
            binary_reason(&noise, never).is_some_and(|w| w.starts_with("mostly control bytes"))
        );
        // ...unless UTF-16 is named.
        assert_eq!(binary_reason(&noise, || true), None);
        // UTF-16 text of ASCII characters is half NULs: not mostly.
        let utf16: Vec<u8> = "<p>Hello, world, and more text</p>"
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        assert_eq!(binary_reason(&utf16, never), None);
    }
}
