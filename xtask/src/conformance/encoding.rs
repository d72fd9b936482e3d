//! html5lib-tests `encoding/`: the encoding sniffing suites, run against
//! `sniff`.
//!
//! Each `.dat` case is a `#data` section (the document's bytes, up to the
//! newline before `#encoding`) and an `#encoding` section (one label). The
//! cases assume no transport charset, no autodetection and windows-1252 as the
//! default, so they run with exactly those hints.
//!
//! A case whose expected encoding is declared by a `<meta>` that ends past
//! the prescan's 1024-byte window can only be matched by the whole pipeline:
//! the parser meets that `<meta>` and changes the encoding (§8.2.2.4). Such a
//! case is recognised per case (the sniffing result came from no `<meta>`, and
//! the prescan without a window finds the expected encoding), never by a list,
//! and runs through htmlio's ingestion pipeline (`settle_encoding`), the path a
//! real document takes. Every case must pass: a case that `sniff` gets wrong
//! for any other reason is a failure, even if the parser would repair it.
//!
//! `scripted/tests1.dat` writes its `<meta>` with `document.write`, which
//! needs a script engine: its cases are listed as skipped.

use std::fs;
use std::path::Path;

use anyhow::{Context, bail};
use sniff::{Encoding, Hints, Prescan, Source, sniff};

use super::SuiteReport;

/// Where the files are, under the conformance folder.
const FOLDER: &str = "html5lib-tests/encoding";

/// Why the scripted cases are not run.
const NEEDS_SCRIPT: &str =
    "needs a script engine: the <meta> is written by document.write (pagetext runs no scripts)";

/// One `#data` / `#encoding` case.
struct Case<'a> {
    data: &'a [u8],
    label: &'a [u8],
}

/// Splits a `.dat` file into its cases.
fn parse_dat(bytes: &[u8]) -> anyhow::Result<Vec<Case<'_>>> {
    const DATA: &[u8] = b"#data\n";
    const ENCODING: &[u8] = b"#encoding\n";
    let mut cases = Vec::new();
    let mut rest = bytes;
    loop {
        while let Some(after) = rest.strip_prefix(b"\n") {
            rest = after;
        }
        if rest.is_empty() {
            return Ok(cases);
        }
        let Some(body) = rest.strip_prefix(DATA) else {
            bail!("case {} does not start with #data", cases.len() + 1);
        };
        // The data ends at the newline before `#encoding` (or is empty).
        let (data, after) = if let Some(after) = body.strip_prefix(ENCODING) {
            (&body[..0], after)
        } else {
            let marker = [b"\n".as_slice(), ENCODING].concat();
            let at = body
                .windows(marker.len())
                .position(|w| w == marker)
                .with_context(|| format!("case {} has no #encoding", cases.len() + 1))?;
            (&body[..at], &body[at + marker.len()..])
        };
        let line_end = after
            .iter()
            .position(|&b| b == b'\n')
            .unwrap_or(after.len());
        let label = after[..line_end].trim_ascii();
        cases.push(Case { data, label });
        rest = &after[line_end..];
    }
}

/// A short printable name for a case: the file, its number, its first line.
fn case_name(file: &str, index: usize, data: &[u8]) -> String {
    let first_line = data
        .split(|&b| b == b'\n')
        .find(|l| !l.is_empty())
        .unwrap_or(b"");
    let mut shown: String = first_line
        .iter()
        .take(40)
        .map(|&b| {
            if b.is_ascii_graphic() || b == b' ' {
                b as char
            } else {
                '.'
            }
        })
        .collect();
    if first_line.len() > 40 {
        shown.push_str("...");
    }
    format!("{file} #{} ({shown})", index + 1)
}

/// The hints the html5lib encoding cases assume: no transport charset, no
/// autodetection, windows-1252 as the default (the `Hints` default).
fn hints() -> Hints<'static> {
    Hints::default().with_autodetect(None)
}

/// `encoding/tests1.dat`: the `<meta>` prescan and change-the-encoding cases.
pub(crate) fn tests1(dir: &Path) -> anyhow::Result<SuiteReport> {
    run_file(dir, "tests1.dat")
}

/// `encoding/tests2.dat`: prescan edge cases.
pub(crate) fn tests2(dir: &Path) -> anyhow::Result<SuiteReport> {
    run_file(dir, "tests2.dat")
}

/// `encoding/test-yahoo-jp.dat`: a real page head declaring EUC-JP.
pub(crate) fn yahoo_jp(dir: &Path) -> anyhow::Result<SuiteReport> {
    run_file(dir, "test-yahoo-jp.dat")
}

/// `encoding/scripted/tests1.dat`: every case skipped (needs scripts).
pub(crate) fn scripted(dir: &Path) -> anyhow::Result<SuiteReport> {
    let mut report = SuiteReport::default();
    for case in read_cases(dir, "scripted/tests1.dat")? {
        report.skipped.push((case.name, NEEDS_SCRIPT.to_owned()));
    }
    Ok(report)
}

/// A case read from a file, with its printable name.
struct NamedCase {
    name: String,
    data: Vec<u8>,
    label: Vec<u8>,
}

/// The cases of one file.
fn read_cases(dir: &Path, file: &str) -> anyhow::Result<Vec<NamedCase>> {
    let path = dir.join(FOLDER).join(file);
    let bytes = fs::read(&path).with_context(|| format!("reading {}", path.display()))?;
    let cases = parse_dat(&bytes).with_context(|| format!("parsing {}", path.display()))?;
    Ok(cases
        .iter()
        .enumerate()
        .map(|(index, case)| NamedCase {
            name: case_name(file, index, case.data),
            data: case.data.to_vec(),
            label: case.label.to_vec(),
        })
        .collect())
}

/// Runs the cases of one file through `sniff`, and through the whole
/// ingestion pipeline where only the parser can find the answer.
fn run_file(dir: &Path, file: &str) -> anyhow::Result<SuiteReport> {
    let mut report = SuiteReport::default();
    for NamedCase { name, data, label } in read_cases(dir, file)? {
        let Some(expected) = Encoding::for_label(&label) else {
            report.failures.push(format!(
                "{name}: unknown expected label {:?}",
                String::from_utf8_lossy(&label)
            ));
            continue;
        };
        let sniffed = sniff(&data, &hints());
        if sniffed.encoding == expected {
            report.passed += 1;
        } else if needs_the_parser(&data, &sniffed.source, expected) {
            let settled = htmlio::ingest::settle_encoding(&data, &hints());
            if settled.encoding == expected {
                report.passed += 1;
            } else {
                report.failures.push(format!(
                    "{name}: expected {} (meta past the prescan window), the pipeline settled on {settled}",
                    expected.name()
                ));
            }
        } else {
            report.failures.push(format!(
                "{name}: expected {}, sniffed {sniffed}",
                expected.name()
            ));
        }
    }
    Ok(report)
}

/// Whether only the parser's "change the encoding" step can give `expected`:
/// the sniffing algorithm found no `<meta>` in its window, and the same
/// prescan without a window finds one that declares `expected` (so it ends
/// past the window, where the parser will meet it).
fn needs_the_parser(data: &[u8], source: &Source, expected: &'static Encoding) -> bool {
    if matches!(source, Source::Meta { .. }) {
        return false;
    }
    Prescan::standard()
        .with_window(usize::MAX)
        .run(data)
        .is_some_and(|found| found.encoding == expected)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dat_files_split_into_cases() {
        let file = b"#data\n<meta charset=x>\n#encoding\nwindows-1252\n\n#data\n\n#encoding\nUTF-8\n\n#data\n#encoding\nbig5";
        let cases = parse_dat(file).unwrap();
        let got: Vec<(&[u8], &[u8])> = cases.iter().map(|c| (c.data, c.label)).collect();
        assert_eq!(
            got,
            [
                (b"<meta charset=x>".as_slice(), b"windows-1252".as_slice()),
                (b"", b"UTF-8"),
                (b"", b"big5"),
            ]
        );
        assert!(parse_dat(b"#data\nno encoding").is_err());
        assert!(parse_dat(b"junk").is_err());
    }

    #[test]
    fn only_a_meta_past_the_window_is_pending() {
        let iso_8859_2 = Encoding::for_label(b"iso-8859-2").unwrap();
        let mut far = vec![b' '; 2000];
        far.extend_from_slice(b"<meta charset=iso-8859-2>");
        let sniffed = sniff(&far, &hints());
        assert!(needs_the_parser(&far, &sniffed.source, iso_8859_2));
        // Not when the expected encoding is declared nowhere.
        let near = b"<p>nothing declared";
        let sniffed = sniff(near, &hints());
        assert!(!needs_the_parser(near, &sniffed.source, iso_8859_2));
    }
}
