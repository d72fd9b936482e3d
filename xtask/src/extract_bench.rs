//! `cargo xtask extract-bench DIR`: pagetext's text scored as
//! article-extraction benchmarks score an extractor, on a checkout of one:
//! DIR holds `html/KEY.html.gz` (the pages), `ground-truth.json` (each
//! page's article body) and `evaluate.py`, the benchmark's own scorer
//! (shingle F1, precision and recall over 4-grams of `\w+` tokens), as
//! Zyte's (scrapinghub's) article-extraction-benchmark lays them out.
//!
//! Each page goes through `htmlio::to_text` twice, whole and with
//! `main_content` (`--main-content`); what is scored is the text a reader
//! sees: the body of the document read back from that text, its runs'
//! plain text (no markup, no URLs, no header lines) one per line. The
//! answers go to `DIR/output/pagetext.json` and `pagetext_main.json` (and
//! the whole page's text format as written, markup and URLs and header
//! included, to `pagetext_format.json`); our own scoring (`shingles.rs`,
//! the same as `evaluate.py`'s) prints both modes' figures and writes each
//! page's to `DIR/per-page.tsv`, and `evaluate.py` scores every extractor
//! under `DIR/output/` in one table, pagetext's among the peers' stored
//! answers. The time of each mode is summed, alternating which runs first.
//!
//! `--readability DIR` scores a second set the same way: Mozilla
//! Readability's test pages (`DIR/NAME/source.html`, and `expected.html`,
//! the article Readability.js extracts), against the visible text of each
//! `expected.html`. From the readability repository:
//! `git archive HEAD test/test-pages | tar -x -C /tmp/r`, then
//! `--readability /tmp/r/test/test-pages`.
//!
//! To get the benchmark without network access to GitHub, any copy of its
//! repository will do (`git archive HEAD | tar -x -C corpus-extract`);
//! `corpus-extract/` at the workspace root is git-ignored.

use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};

use crate::shingles;
use crate::util::root;

/// The default checkout of the benchmark.
pub(crate) fn default_dir() -> PathBuf {
    root().join("corpus-extract")
}

/// The text a reader of `text` (the text format) sees: its body's runs,
/// markup removed, one per line.
fn visible_text(text: &str) -> String {
    let doc = wikitext::parse(text).document;
    let mut out = String::new();
    for run in wikitext::runs(&doc.body) {
        out.push_str(&wikitext::plain_text(run));
        out.push('\n');
    }
    out
}

/// The pages of the benchmark: (key, gzipped HTML path), in key order.
fn pages(dir: &Path) -> anyhow::Result<Vec<(String, PathBuf)>> {
    let html = dir.join("html");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&html).with_context(|| format!("reading {}", html.display()))? {
        let path = entry?.path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if let Some(key) = name.strip_suffix(".html.gz") {
            out.push((key.to_owned(), path));
        }
    }
    out.sort();
    if out.is_empty() {
        bail!("no html/*.html.gz under {}", dir.display());
    }
    Ok(out)
}

/// How to run the benchmark.
#[derive(Debug, Clone, Default)]
pub(crate) struct Options {
    /// Bootstrap samples for `evaluate.py`'s confidence intervals.
    pub(crate) bootstrap: u32,
    /// Mozilla Readability's test pages (`NAME/source.html` and
    /// `NAME/expected.html` under it), scored too.
    pub(crate) readability: Option<PathBuf>,
    /// Our own scores only: `evaluate.py` is not run.
    pub(crate) quick: bool,
}

/// One page through both modes: the whole page and `--main-content`.
struct Both {
    whole: htmlio::TextPage,
    main: htmlio::TextPage,
}

/// Time spent converting, in each mode.
#[derive(Debug, Default)]
struct Spent {
    whole: Duration,
    main: Duration,
}

impl Spent {
    /// Converts `bytes` both ways, timing each (the order alternates from
    /// page to page, so that neither always runs on a warm cache).
    fn convert(&mut self, bytes: &[u8], flip: bool) -> Both {
        let main_options = htmlio::TextOptions {
            ingest: htmlio::ingest::Options {
                main_content: true,
                ..htmlio::ingest::Options::default()
            },
            ..htmlio::TextOptions::default()
        };
        let time = |options: &htmlio::TextOptions<'_>, spent: &mut Duration| {
            let start = Instant::now();
            let page = htmlio::to_text(bytes, options);
            *spent += start.elapsed();
            page
        };
        if flip {
            let main = time(&main_options, &mut self.main);
            let whole = time(&htmlio::TextOptions::default(), &mut self.whole);
            Both { whole, main }
        } else {
            let whole = time(&htmlio::TextOptions::default(), &mut self.whole);
            let main = time(&main_options, &mut self.main);
            Both { whole, main }
        }
    }

    fn say(&self, what: &str, pages: usize) {
        let ratio = self.main.as_secs_f64() / self.whole.as_secs_f64().max(1e-9);
        eprintln!(
            "extract-bench: {what}: {pages} pages, whole page {:.2} s, --main-content {:.2} s \
             ({ratio:.2}x, wall clock in one run)",
            self.whole.as_secs_f64(),
            self.main.as_secs_f64(),
        );
    }
}

/// Our own scores of a set, one row per mode, and per-page lines for a
/// person to look into (written to `per_page`).
fn report(set: &str, rows: &[(&str, Vec<shingles::Counts>)], keys: &[String], per_page: &Path) {
    for (mode, counts) in rows {
        let (f1, p, r) = shingles::metrics(counts);
        println!(
            "{set:<12} {mode:<16} F1 {f1:.3}  precision {p:.3}  recall {r:.3}  ({} pages)",
            counts.len()
        );
    }
    let mut lines = String::from("page");
    for (mode, _) in rows {
        lines.push_str(&format!("\t{mode}_p\t{mode}_r"));
    }
    lines.push('\n');
    for (i, key) in keys.iter().enumerate() {
        lines.push_str(key);
        for (_, counts) in rows {
            let c = counts.get(i).copied().unwrap_or(shingles::Counts {
                tp: 0.0,
                fp: 0.0,
                fn_: 0.0,
            });
            let p = if c.tp + c.fp > 0.0 {
                c.tp / (c.tp + c.fp)
            } else {
                0.0
            };
            let r = if c.tp + c.fn_ > 0.0 {
                c.tp / (c.tp + c.fn_)
            } else {
                0.0
            };
            lines.push_str(&format!("\t{p:.3}\t{r:.3}"));
        }
        lines.push('\n');
    }
    if let Err(e) = std::fs::write(per_page, lines) {
        eprintln!("extract-bench: cannot write {}: {e}", per_page.display());
    }
}

/// Converts every page of the Zyte set both ways, writes pagetext's
/// answers (`pagetext`, `pagetext_main`, `pagetext_format`), scores them,
/// and runs the benchmark's scorer over every extractor's answers.
pub(crate) fn run(dir: &Path, options: &Options) -> anyhow::Result<bool> {
    if crate::util::wants_release("PAGETEXT_EXTRACT_DEBUG") {
        return crate::util::rerun_in_release();
    }
    let truth: serde_json::Value = serde_json::from_slice(
        &std::fs::read(dir.join("ground-truth.json")).context("reading ground-truth.json")?,
    )?;
    // What a reader sees, in each mode, and the text format as written
    // (markup, URLs and header lines included), scored side by side.
    let mut answers = serde_json::Map::new();
    let mut main_answers = serde_json::Map::new();
    let mut as_written = serde_json::Map::new();
    let (mut whole_counts, mut main_counts) = (Vec::new(), Vec::new());
    let mut spent = Spent::default();
    let list = pages(dir)?;
    let mut keys = Vec::new();
    for (i, (key, path)) in list.iter().enumerate() {
        let mut bytes = Vec::new();
        flate2::read::GzDecoder::new(
            std::fs::File::open(path).with_context(|| format!("opening {}", path.display()))?,
        )
        .read_to_end(&mut bytes)
        .with_context(|| format!("gunzip {}", path.display()))?;
        let both = spent.convert(&bytes, i % 2 == 1);
        let body = visible_text(&both.whole.text);
        let main_body = visible_text(&both.main.text);
        let expected = truth[key.as_str()]["articleBody"].as_str().unwrap_or("");
        whole_counts.push(shingles::score(expected, &body));
        main_counts.push(shingles::score(expected, &main_body));
        keys.push(key.clone());
        answers.insert(key.clone(), serde_json::json!({ "articleBody": body }));
        main_answers.insert(key.clone(), serde_json::json!({ "articleBody": main_body }));
        as_written.insert(
            key.clone(),
            serde_json::json!({ "articleBody": both.whole.text }),
        );
    }
    let output = dir.join("output");
    std::fs::create_dir_all(&output)?;
    for (name, version, answers) in [
        ("pagetext", "whole page", answers),
        ("pagetext_main", "--main-content", main_answers),
        ("pagetext_format", "whole page", as_written),
    ] {
        let file = output.join(format!("{name}.json"));
        let json = serde_json::json!({ "version": version, "output": answers });
        std::fs::write(&file, serde_json::to_string_pretty(&json)?)
            .with_context(|| format!("writing {}", file.display()))?;
    }
    spent.say("Zyte", list.len());
    report(
        "Zyte",
        &[("pagetext", whole_counts), ("pagetext_main", main_counts)],
        &keys,
        &dir.join("per-page.tsv"),
    );
    if let Some(readability) = &options.readability {
        readability_set(readability)?;
    }
    if options.quick {
        return Ok(true);
    }
    eprintln!(
        "extract-bench: output/pagetext.json holds the whole page's text a reader sees, \
         output/pagetext_main.json that of --main-content, output/pagetext_format.json \
         the text format as written"
    );
    let python = std::env::var_os("PYTHON").unwrap_or_else(|| "python3".into());
    let status = Command::new(python)
        .current_dir(dir)
        .args(["evaluate.py", "--n-bootstrap"])
        .arg(options.bootstrap.max(2).to_string())
        .status()
        .context("running evaluate.py (python3 needed)")?;
    Ok(status.success())
}

/// Mozilla Readability's test pages (`DIR/NAME/source.html`, and
/// `expected.html`, the article Readability.js extracts): each page's
/// text in both modes scored against the visible text of its
/// `expected.html` (read by pagetext, whole), with the benchmark's
/// shingle scoring. Per-page scores go to `DIR/per-page.tsv`.
fn readability_set(dir: &Path) -> anyhow::Result<()> {
    let mut names = Vec::new();
    for entry in std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
        let path = entry?.path();
        if path.join("source.html").is_file() && path.join("expected.html").is_file() {
            names.push(path);
        }
    }
    names.sort();
    if names.is_empty() {
        bail!(
            "no NAME/source.html with NAME/expected.html under {}",
            dir.display()
        );
    }
    let (mut whole_counts, mut main_counts) = (Vec::new(), Vec::new());
    let mut keys = Vec::new();
    let mut spent = Spent::default();
    for (i, page) in names.iter().enumerate() {
        let source = std::fs::read(page.join("source.html"))?;
        let expected = std::fs::read(page.join("expected.html"))?;
        let truth = visible_text(&htmlio::to_text(&expected, &htmlio::TextOptions::default()).text);
        let both = spent.convert(&source, i % 2 == 1);
        whole_counts.push(shingles::score(&truth, &visible_text(&both.whole.text)));
        main_counts.push(shingles::score(&truth, &visible_text(&both.main.text)));
        keys.push(
            page.file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
        );
    }
    spent.say("Readability", names.len());
    report(
        "Readability",
        &[("pagetext", whole_counts), ("pagetext_main", main_counts)],
        &keys,
        &dir.join("per-page.tsv"),
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_visible_text_has_no_markup_urls_or_header() {
        let text =
            "#Title T\n#Lang en\n\n= Head =\n\nSome _text_ with [https://x.org/a||a link].\n";
        assert_eq!(visible_text(text), "Head\nSome text with a link.\n");
    }
}
