//! `cargo xtask extract-bench DIR`: pagetext's text scored as
//! article-extraction benchmarks score an extractor, on a checkout of one:
//! DIR holds `html/KEY.html.gz` (the pages), `ground-truth.json` (each
//! page's article body) and `evaluate.py`, the benchmark's own scorer
//! (shingle F1, precision and recall over 4-grams of `\w+` tokens), as
//! Zyte's (scrapinghub's) article-extraction-benchmark lays them out.
//!
//! Each page goes through `htmlio::to_text`; what is scored is the text a
//! reader sees: the body of the document read back from that text, its
//! runs' plain text (no markup, no URLs, no header lines) one per line.
//! The answers go to `DIR/output/pagetext.json` (and the text format as
//! written, markup and URLs and header included, to
//! `pagetext_format.json`), and `evaluate.py` scores every extractor under
//! `DIR/output/` in one table, pagetext's among the peers' stored answers.
//!
//! To get the benchmark without network access to GitHub, any copy of its
//! repository will do (`git archive HEAD | tar -x -C corpus-extract`);
//! `corpus-extract/` at the workspace root is git-ignored.

use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};

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

/// Converts every page, writes pagetext's answers, runs the scorer.
pub(crate) fn run(dir: &Path, bootstrap: u32) -> anyhow::Result<bool> {
    if crate::util::wants_release("PAGETEXT_EXTRACT_DEBUG") {
        return crate::util::rerun_in_release();
    }
    // What a reader sees, and the text format as written (markup, URLs and
    // header lines included), scored side by side.
    let mut answers = serde_json::Map::new();
    let mut as_written = serde_json::Map::new();
    let mut spent = Duration::ZERO;
    let list = pages(dir)?;
    for (key, path) in &list {
        let mut bytes = Vec::new();
        flate2::read::GzDecoder::new(
            std::fs::File::open(path).with_context(|| format!("opening {}", path.display()))?,
        )
        .read_to_end(&mut bytes)
        .with_context(|| format!("gunzip {}", path.display()))?;
        let start = Instant::now();
        let page = htmlio::to_text(&bytes, &htmlio::TextOptions::default());
        spent += start.elapsed();
        let body = visible_text(&page.text);
        answers.insert(key.clone(), serde_json::json!({ "articleBody": body }));
        as_written.insert(key.clone(), serde_json::json!({ "articleBody": page.text }));
    }
    let output = dir.join("output");
    std::fs::create_dir_all(&output)?;
    for (name, answers) in [("pagetext", answers), ("pagetext_format", as_written)] {
        let file = output.join(format!("{name}.json"));
        let json = serde_json::json!({ "version": "whole page", "output": answers });
        std::fs::write(&file, serde_json::to_string_pretty(&json)?)
            .with_context(|| format!("writing {}", file.display()))?;
    }
    eprintln!(
        "extract-bench: {} pages converted in {:.2} s; output/pagetext.json holds the \
         text a reader sees, output/pagetext_format.json the text format as written",
        list.len(),
        spent.as_secs_f64(),
    );
    let python = std::env::var_os("PYTHON").unwrap_or_else(|| "python3".into());
    let status = Command::new(python)
        .current_dir(dir)
        .args(["evaluate.py", "--n-bootstrap"])
        .arg(bootstrap.to_string())
        .status()
        .context("running evaluate.py (python3 needed)")?;
    Ok(status.success())
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
