//! `cargo xtask corpus [DIR]`: converts every `.html`/`.htm` file under DIR
//! (HTML -> text -> XHTML -> text) and prints one summary: files, bytes,
//! seconds, panics, files with errors, XHTML well-formed and DTD-valid,
//! round-trip fixpoints, and the word recall of the visible body text.
//!
//! `cargo xtask corpus --fetch` first builds the corpus: it downloads Debian
//! documentation packages that ship HTML of different ages and tools with
//! `apt-get download` and unpacks them with `dpkg-deb -x` into `corpus/`
//! at the workspace root (git-ignored). DIR defaults to that folder.
//!
//! The measurement runs in a release build (the command starts one when it
//! was itself built for debugging), so the seconds mean something.

use std::collections::HashMap;
use std::fs;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use html5ever::tendril::TendrilSink;
use markup5ever_rcdom::{NodeData, RcDom};

use crate::util::root;

/// Debian packages whose HTML the corpus is made of: Sphinx (python3.11-doc,
/// the pages `python3-doc` points to), DocBook/XSLT (debian-reference-en),
/// texinfo (gnu-standards), lynx's hand-written help pages of the 1990s and
/// 2000s (lynx-common, shipped gzipped) and developers-reference.
pub(crate) const PACKAGES: &[&str] = &[
    "python3.11-doc",
    "debian-reference-en",
    "gnu-standards",
    "lynx-common",
    "developers-reference",
];

/// Where Debian's `w3c-sgml-lib` puts the DTD; `PAGETEXT_XHTML_DTD` overrides.
const DTD: &str =
    "/usr/share/xml/w3c-sgml-lib/schema/dtd/REC-xhtml1-20020801/xhtml1-transitional.dtd";

/// The corpus folder at the workspace root.
pub(crate) fn default_dir() -> PathBuf {
    root().join("corpus")
}

/// `--fetch`: downloads and unpacks `packages` into `dir`.
pub(crate) fn fetch(dir: &Path, packages: &[String]) -> anyhow::Result<()> {
    let debs = dir.join("debs");
    fs::create_dir_all(&debs).with_context(|| format!("creating {}", debs.display()))?;
    for package in packages {
        eprintln!("corpus: apt-get download {package}");
        let status = Command::new("apt-get")
            .args(["download", package])
            .current_dir(&debs)
            .status()
            .context("cannot run apt-get (Debian or Ubuntu needed)")?;
        if !status.success() {
            bail!("apt-get download {package} failed ({status})");
        }
    }
    for entry in fs::read_dir(&debs)? {
        let deb = entry?.path();
        if deb.extension().is_none_or(|e| e != "deb") {
            continue;
        }
        let name = deb
            .file_stem()
            .and_then(|s| s.to_str())
            .and_then(|s| s.split('_').next())
            .unwrap_or("package")
            .to_owned();
        if !packages.contains(&name) {
            continue;
        }
        let target = dir.join(&name);
        eprintln!("corpus: dpkg-deb -x {} {}", deb.display(), target.display());
        let status = Command::new("dpkg-deb")
            .arg("-x")
            .arg(&deb)
            .arg(&target)
            .status()
            .context("cannot run dpkg-deb")?;
        if !status.success() {
            bail!("dpkg-deb -x {} failed ({status})", deb.display());
        }
        // Debian compresses documentation: unpack gzipped pages.
        for page in gzipped_pages(&target) {
            let status = Command::new("gzip")
                .args(["-d", "-f"])
                .arg(&page)
                .status()
                .context("cannot run gzip")?;
            if !status.success() {
                bail!("gzip -d {} failed ({status})", page.display());
            }
        }
    }
    Ok(())
}

/// `*.html.gz` and `*.htm.gz` files under `dir` (not following links).
fn gzipped_pages(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            let path = entry.path();
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or("")
                .to_ascii_lowercase();
            if kind.is_dir() {
                stack.push(path);
            } else if kind.is_file() && (name.ends_with(".html.gz") || name.ends_with(".htm.gz")) {
                out.push(path);
            }
        }
    }
    out
}

/// What one file gave.
#[derive(Debug, Default)]
struct FileResult {
    panicked: bool,
    errors: bool,
    well_formed: bool,
    fixpoint: bool,
    recall: Option<f64>,
    xhtml: Vec<u8>,
    seconds: Duration,
}

/// Every `.html`/`.htm` file under `dir` (symbolic links skipped, so that
/// no page counts twice), sorted.
pub(crate) fn html_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            let path = entry.path();
            if kind.is_dir() {
                if path.file_name().is_some_and(|n| n == "debs") {
                    continue;
                }
                stack.push(path);
            } else if kind.is_file()
                && path.extension().and_then(|e| e.to_str()).is_some_and(|e| {
                    e.eq_ignore_ascii_case("html") || e.eq_ignore_ascii_case("htm")
                })
            {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// The words (runs of letters and digits, lowercased) of a text.
fn words(text: &str, into: &mut HashMap<String, usize>) {
    for w in text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
    {
        *into.entry(w.to_lowercase()).or_insert(0) += 1;
    }
}

/// The visible text of the body, read with html5ever's reference tree
/// (independently of the ingestion's own walk): text nodes under `body`
/// outside `script`, `style`, `template`, `noscript` and `head`.
fn visible_words(text: &str) -> HashMap<String, usize> {
    let dom = html5ever::parse_document(RcDom::default(), Default::default()).one(text);
    let mut out = HashMap::new();
    let mut stack = vec![(dom.document.clone(), false)];
    while let Some((node, hidden)) = stack.pop() {
        let mut hide = hidden;
        match &node.data {
            NodeData::Text { contents } if !hidden => words(&contents.borrow(), &mut out),
            NodeData::Element { name, .. } => {
                hide |= matches!(
                    &*name.local,
                    "script" | "style" | "template" | "noscript" | "head" | "title"
                );
            }
            _ => {}
        }
        for child in node.children.borrow().iter().rev() {
            stack.push((child.clone(), hide));
        }
    }
    out
}

/// Which share of the source's words (counted with repetition) the output has.
fn recall(source: &HashMap<String, usize>, output: &HashMap<String, usize>) -> Option<f64> {
    let total: usize = source.values().sum();
    if total == 0 {
        return None;
    }
    let found: usize = source
        .iter()
        .map(|(w, n)| (*n).min(output.get(w).copied().unwrap_or(0)))
        .sum();
    Some(found as f64 / total as f64)
}

fn convert(bytes: &[u8]) -> FileResult {
    let start = Instant::now();
    let options = htmlio::ingest::Options::default();
    let first = htmlio::ingest::ingest(bytes, &options);
    let written = wikitext::write_with(first.document, &htmlio::ingest::POLICY);
    let parsed = wikitext::parse(&written.text);
    let emitted = htmlio::emit::xhtml(&parsed.document);
    let seconds = start.elapsed();
    let again = htmlio::ingest::ingest_str(&emitted.text, &options);
    let second = wikitext::write_with(again.document, &htmlio::ingest::POLICY);
    let errors = written
        .diagnostics
        .iter()
        .any(|d| d.severity == wikitext::Severity::Error)
        || parsed
            .diagnostics
            .iter()
            .any(|d| d.severity == wikitext::Severity::Error)
        || emitted
            .diagnostics
            .iter()
            .any(|d| d.severity == wikitext::Severity::Error);
    let well_formed = roxmltree::Document::parse(&emitted.text).is_ok();
    let source_text = sniff::decode(bytes, first.encoding.encoding)
        .text
        .into_owned();
    let source = visible_words(&source_text);
    let mut output = HashMap::new();
    words(&written.text, &mut output);
    FileResult {
        panicked: false,
        errors,
        well_formed,
        fixpoint: second.text == written.text,
        recall: recall(&source, &output),
        xhtml: emitted.bytes,
        seconds,
    }
}

/// Runs xmllint over the files in batches; returns the set of files it
/// found invalid, or `None` when xmllint or the DTD is missing.
fn dtd_invalid(files: &[PathBuf]) -> anyhow::Result<Option<Vec<PathBuf>>> {
    let dtd =
        std::env::var_os("PAGETEXT_XHTML_DTD").map_or_else(|| PathBuf::from(DTD), PathBuf::from);
    if !dtd.is_file() || Command::new("xmllint").arg("--version").output().is_err() {
        return Ok(None);
    }
    let mut invalid = Vec::new();
    for batch in files.chunks(200) {
        let out = Command::new("xmllint")
            .args(["--noout", "--nonet", "--dtdvalid"])
            .arg(&dtd)
            .args(batch)
            .output()
            .context("running xmllint")?;
        if out.status.success() {
            continue;
        }
        let messages = String::from_utf8_lossy(&out.stderr);
        for file in batch {
            let name = file.to_string_lossy();
            if messages.lines().any(|l| l.starts_with(&*name)) {
                invalid.push(file.clone());
            }
        }
    }
    Ok(Some(invalid))
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = ((p / 100.0) * (sorted.len() - 1) as f64).round() as usize;
    sorted.get(rank).copied().unwrap_or(0.0)
}

/// Runs the measurement over `dir` and prints the summary. `verbose` lists
/// the files behind each failing count.
pub(crate) fn run(dir: &Path, verbose: bool) -> anyhow::Result<bool> {
    if crate::util::wants_release("PAGETEXT_CORPUS_DEBUG") {
        return crate::util::rerun_in_release();
    }
    let files = html_files(dir);
    if files.is_empty() {
        bail!(
            "no .html or .htm files under {} (build the corpus with `cargo xtask corpus --fetch`)",
            dir.display()
        );
    }
    let out_dir = tempfile_dir()?;
    let mut bytes_total = 0usize;
    let mut seconds = Duration::ZERO;
    let mut panics = Vec::new();
    let mut errors = Vec::new();
    let mut not_well_formed = Vec::new();
    let mut not_fixpoint = Vec::new();
    let mut recalls: Vec<(f64, PathBuf)> = Vec::new();
    let mut xhtml_files = Vec::new();
    let mut xhtml_of = HashMap::new();
    let quiet_panics = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    for (i, path) in files.iter().enumerate() {
        let bytes = fs::read(path).with_context(|| format!("reading {}", path.display()))?;
        bytes_total += bytes.len();
        let result =
            catch_unwind(AssertUnwindSafe(|| convert(&bytes))).unwrap_or_else(|_| FileResult {
                panicked: true,
                ..FileResult::default()
            });
        seconds += result.seconds;
        if result.panicked {
            panics.push(path.clone());
            continue;
        }
        if result.errors {
            errors.push(path.clone());
        }
        if !result.well_formed {
            not_well_formed.push(path.clone());
        }
        if !result.fixpoint {
            not_fixpoint.push(path.clone());
        }
        if let Some(r) = result.recall {
            recalls.push((r, path.clone()));
        }
        let out = out_dir.join(format!("{i:05}.xhtml"));
        fs::write(&out, &result.xhtml).with_context(|| format!("writing {}", out.display()))?;
        xhtml_of.insert(out.clone(), path.clone());
        xhtml_files.push(out);
    }
    std::panic::set_hook(quiet_panics);
    let invalid = dtd_invalid(&xhtml_files)?;
    let _ = fs::remove_dir_all(&out_dir);

    let n = files.len();
    let converted = n - panics.len();
    let pct = |k: usize, of: usize| {
        if of == 0 {
            0.0
        } else {
            100.0 * k as f64 / of as f64
        }
    };
    let mb = bytes_total as f64 / 1e6;
    let secs = seconds.as_secs_f64();
    println!("corpus {}", dir.display());
    println!(
        "  files:        {n} ({mb:.1} MB) in {secs:.2} s of conversion (HTML -> text -> XHTML: {:.1} MB/s)",
        if secs > 0.0 { mb / secs } else { 0.0 }
    );
    println!("  panics:       {}", panics.len());
    println!(
        "  with errors:  {} ({:.1}%)",
        errors.len(),
        pct(errors.len(), converted)
    );
    println!(
        "  well-formed:  {} of {converted} ({:.2}%)",
        converted - not_well_formed.len(),
        pct(converted - not_well_formed.len(), converted)
    );
    match &invalid {
        Some(invalid) => println!(
            "  DTD-valid:    {} of {converted} ({:.2}%, xmllint, XHTML 1.0 Transitional)",
            converted - invalid.len(),
            pct(converted - invalid.len(), converted)
        ),
        None => println!(
            "  DTD-valid:    not checked (needs xmllint and {DTD}: apt-get install libxml2-utils w3c-sgml-lib)"
        ),
    }
    println!(
        "  fixpoints:    {} of {converted} ({:.2}%)",
        converted - not_fixpoint.len(),
        pct(converted - not_fixpoint.len(), converted)
    );
    let mut sorted: Vec<f64> = recalls.iter().map(|(r, _)| *r).collect();
    sorted.sort_by(f64::total_cmp);
    println!(
        "  word recall:  median {:.2}%, 5th percentile {:.2}% ({} files with visible text)",
        100.0 * percentile(&sorted, 50.0),
        100.0 * percentile(&sorted, 5.0),
        sorted.len()
    );
    if verbose {
        let list = |label: &str, paths: &[PathBuf]| {
            for p in paths.iter().take(30) {
                println!("  {label}: {}", p.display());
            }
        };
        list("panic", &panics);
        list("errors", &errors);
        list("not well-formed", &not_well_formed);
        if let Some(invalid) = &invalid {
            let sources: Vec<PathBuf> = invalid
                .iter()
                .filter_map(|x| xhtml_of.get(x).cloned())
                .collect();
            list("DTD-invalid", &sources);
        }
        list("not a fixpoint", &not_fixpoint);
        recalls.sort_by(|a, b| a.0.total_cmp(&b.0));
        for (r, p) in recalls.iter().take(20) {
            println!("  recall {:.2}%: {}", 100.0 * r, p.display());
        }
    }
    Ok(panics.is_empty())
}

/// A fresh folder for the XHTML files xmllint reads.
fn tempfile_dir() -> anyhow::Result<PathBuf> {
    let dir = std::env::temp_dir().join(format!("pagetext-corpus-{}", std::process::id()));
    fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    Ok(dir)
}
