//! `cargo xtask langid`: how often `htmlio::lang::detect_language` names
//! the language a page is written in, and what it costs next to the page's
//! conversion.
//!
//! The test set is made of pages whose language is known without reading
//! them:
//!
//! - **Translated documentation** (`corpus-lang/`, git-ignored; `--fetch`
//!   fills it): Debian's documentation packages in 14 languages
//!   ([`PACKAGES`]: the FAQ, the Reference, the Developer's Reference and the
//!   New Maintainers' Guide, each in its translations and in English). A
//!   page's language is its package's. Translations leave some pages partly
//!   in English (command output, untranslated sections): those pages stay in
//!   the set, as a crawl meets them.
//! - **Modern pages** (`--modern DIR`, e.g. `corpus-modern/`, Mozilla
//!   Readability's test pages): those listed in
//!   `testdata/lang/readability.txt` with the language their expected
//!   metadata names (the pages whose expectations name none are left out).
//!
//! For each page: ingestion (sniffing, decoding, html5ever, the mapping),
//! then the detector on the document, then the writer, three times; the
//! detector's fastest time is compared with the conversion's (ingestion
//! and writer). Prints the
//! accuracy per language and overall, the pages it got wrong, and the cost;
//! fails when the accuracy is under 95 % or the cost over 10 %.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};

use crate::util::root;

/// Debian's translated documentation, and the English originals.
pub(crate) const PACKAGES: &[&str] = &[
    "debian-faq",
    "debian-faq-de",
    "debian-faq-fr",
    "debian-faq-it",
    "debian-faq-ja",
    "debian-faq-ko",
    "debian-faq-nl",
    "debian-faq-pt",
    "debian-faq-ru",
    "debian-faq-zh-cn",
    "debian-reference-de",
    "debian-reference-es",
    "debian-reference-fr",
    "debian-reference-id",
    "debian-reference-it",
    "debian-reference-ja",
    "debian-reference-pt",
    "debian-reference-zh-cn",
    "debian-reference-zh-tw",
    "developers-reference-de",
    "developers-reference-fr",
    "developers-reference-it",
    "developers-reference-ja",
    "developers-reference-ru",
    "maint-guide",
    "maint-guide-ca",
    "maint-guide-de",
    "maint-guide-es",
    "maint-guide-fr",
    "maint-guide-it",
    "maint-guide-ja",
    "maint-guide-ru",
    "maint-guide-vi",
];

/// The accuracy the issue asks for.
const TARGET_ACCURACY: f64 = 0.95;

/// The most the detector may cost, as a share of a page's conversion.
const TARGET_COST: f64 = 0.10;

/// The folder of the translated documentation.
pub(crate) fn default_dir() -> PathBuf {
    root().join("corpus-lang")
}

/// The languages of the packages, as BCP 47 primary subtags.
const LANGUAGES: &[&str] = &[
    "ca", "de", "en", "es", "fr", "id", "it", "ja", "ko", "nl", "pt", "ru", "vi", "zh",
];

/// The language of a package's pages: the suffix after the package's
/// name, as a BCP 47 primary subtag (`zh-cn` and `zh-tw` are both `zh`,
/// `pt-br` is `pt`); English for the originals.
fn language_of(package: &str) -> Option<&'static str> {
    let base = [
        "debian-faq",
        "debian-reference",
        "developers-reference",
        "maint-guide",
    ]
    .into_iter()
    .find(|b| package.starts_with(b))?;
    let suffix = package.get(base.len()..)?.trim_start_matches('-');
    match suffix.split('-').next().unwrap_or("") {
        "" => Some("en"),
        primary => LANGUAGES.iter().copied().find(|&l| l == primary),
    }
}

/// A page of the test set and its language.
struct Labelled {
    path: PathBuf,
    lang: String,
}

/// The translated documentation's pages under `dir`, each package's
/// folder named after it.
fn documentation(dir: &Path) -> anyhow::Result<Vec<Labelled>> {
    let mut out = Vec::new();
    for package in PACKAGES {
        let Some(lang) = language_of(package) else {
            continue;
        };
        let folder = dir.join(package);
        if !folder.is_dir() {
            continue;
        }
        for path in crate::corpus::html_files(&folder) {
            out.push(Labelled {
                path,
                lang: lang.to_owned(),
            });
        }
    }
    if out.is_empty() {
        bail!(
            "no pages under {} (fill it with `cargo xtask langid --fetch`)",
            dir.display()
        );
    }
    Ok(out)
}

/// The modern pages of `dir` named in `testdata/lang/readability.txt`.
fn modern(dir: &Path) -> anyhow::Result<Vec<Labelled>> {
    let list = root().join("testdata/lang/readability.txt");
    let text =
        std::fs::read_to_string(&list).with_context(|| format!("reading {}", list.display()))?;
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut words = line.split_whitespace();
        let (Some(name), Some(lang)) = (words.next(), words.next()) else {
            bail!(
                "{}: a line without a page and a language: {line}",
                list.display()
            );
        };
        let path = dir.join(format!("{name}.html"));
        if !path.is_file() {
            bail!(
                "{}: no such page (listed in {})",
                path.display(),
                list.display()
            );
        }
        out.push(Labelled {
            path,
            lang: lang.to_owned(),
        });
    }
    Ok(out)
}

/// What one page gave.
struct Outcome {
    got: Option<String>,
    confidence: f64,
    detect: Duration,
    convert: Duration,
}

/// How many times each page is converted and detected; the fastest time
/// of each counts (other work on the machine only ever adds time).
const ROUNDS: usize = 3;

/// One page through ingestion, the detector and the writer, [`ROUNDS`]
/// times.
fn measure(bytes: &[u8]) -> Outcome {
    let options = htmlio::ingest::Options::default();
    let (mut detect, mut convert) = (Duration::MAX, Duration::MAX);
    let mut detected = None;
    for _ in 0..ROUNDS {
        let start = Instant::now();
        let ingested = htmlio::ingest::ingest(bytes, &options);
        let ingest = start.elapsed();
        let start = Instant::now();
        detected = htmlio::lang::detect_language(&ingested.document);
        detect = detect.min(start.elapsed());
        let start = Instant::now();
        let written = wikitext::write_with(ingested.document, &htmlio::ingest::POLICY);
        convert = convert.min(ingest + start.elapsed());
        std::hint::black_box(written);
    }
    Outcome {
        confidence: detected.as_ref().map_or(0.0, |d| d.confidence),
        got: detected.map(|d| d.code),
        detect,
        convert,
    }
}

/// Tallies of one language.
#[derive(Default)]
struct Tally {
    pages: usize,
    right: usize,
}

/// Runs the measurement (in a release build: a debug build re-runs itself
/// with one) and prints it.
pub(crate) fn run(dir: &Path, modern_dir: Option<&Path>) -> anyhow::Result<bool> {
    if crate::util::wants_release("PAGETEXT_LANGID_DEBUG") {
        return crate::util::rerun_in_release();
    }
    let mut sets = vec![("documentation", documentation(dir)?)];
    if let Some(m) = modern_dir {
        sets.push(("modern", modern(m)?));
    }
    let mut all_ok = true;
    for (name, pages) in sets {
        all_ok &= report(name, &pages)?;
    }
    Ok(all_ok)
}

/// Measures and prints one set; whether it meets the targets.
fn report(name: &str, pages: &[Labelled]) -> anyhow::Result<bool> {
    let mut by_lang: BTreeMap<&str, Tally> = BTreeMap::new();
    let mut wrong = Vec::new();
    let (mut detect, mut convert) = (Duration::ZERO, Duration::ZERO);
    for page in pages {
        let bytes = std::fs::read(&page.path)
            .with_context(|| format!("reading {}", page.path.display()))?;
        let outcome = measure(&bytes);
        detect += outcome.detect;
        convert += outcome.convert;
        let tally = by_lang.entry(page.lang.as_str()).or_default();
        tally.pages += 1;
        if outcome.got.as_deref() == Some(page.lang.as_str()) {
            tally.right += 1;
        } else {
            wrong.push((page, outcome.got, outcome.confidence));
        }
    }
    let total: usize = by_lang.values().map(|t| t.pages).sum();
    let right: usize = by_lang.values().map(|t| t.right).sum();
    let accuracy = right as f64 / total.max(1) as f64;
    let cost = detect.as_secs_f64() / convert.as_secs_f64().max(f64::MIN_POSITIVE);
    println!(
        "langid: {name}: {total} pages in {} languages",
        by_lang.len()
    );
    println!("| language | pages | right | accuracy |");
    println!("|---|---|---|---|");
    for (lang, t) in &by_lang {
        let share = t.right as f64 / t.pages.max(1) as f64;
        println!(
            "| {lang} | {} | {} | {:.1} % |",
            t.pages,
            t.right,
            share * 100.0
        );
    }
    println!(
        "| all | {total} | {right} | **{:.1} %** (target >= {:.0} %) |",
        accuracy * 100.0,
        TARGET_ACCURACY * 100.0
    );
    for (page, got, confidence) in &wrong {
        let shown = page.path.strip_prefix(root()).unwrap_or(&page.path);
        println!(
            "  wrong: {} is {}, detected {} ({confidence:.2})",
            shown.display(),
            page.lang,
            got.as_deref().unwrap_or("none")
        );
    }
    println!(
        "langid: {name}: detection {:.3} s, conversion {:.3} s: the detector costs {:.1} % of a conversion (target <= {:.0} %)",
        detect.as_secs_f64(),
        convert.as_secs_f64(),
        cost * 100.0,
        TARGET_COST * 100.0
    );
    Ok(accuracy >= TARGET_ACCURACY && cost <= TARGET_COST)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packages_name_their_language() {
        assert_eq!(language_of("debian-faq"), Some("en"));
        assert_eq!(language_of("debian-reference-zh-tw"), Some("zh"));
        assert_eq!(language_of("maint-guide-vi"), Some("vi"));
        assert_eq!(language_of("developers-reference-ru"), Some("ru"));
        assert_eq!(language_of("lynx-common"), None);
        for package in PACKAGES {
            assert!(language_of(package).is_some(), "{package}");
        }
    }
}
