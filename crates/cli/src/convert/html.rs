//! HTML inputs (`to-text`, `check` on HTML): a page's bytes to text through
//! `htmlio::to_text`, its diagnostics in the CLI's terms, and the address
//! a page found in a directory has.

use std::collections::BTreeMap;

use microsyntax::url::Url;
use serde::Serialize;

use super::{Converted, HtmlInput, Output};
use crate::diag::{Diag, Severity, from_library, sort_by_position};

/// The address of a page found at `below` (its path below the directory
/// argument) when the directory's address is `base`: `base` joined with the
/// path, as a directory (a slash is added to `base` when it has none).
/// A page given by itself has `base` as its address.
pub(crate) fn page_address(base: &Url, below: Option<&std::path::Path>) -> Option<Url> {
    let Some(below) = below else {
        return Some(base.clone());
    };
    let mut dir = base.clone();
    if !dir.path().ends_with('/') {
        let path = format!("{}/", dir.path());
        dir.set_path(&path);
    }
    let relative: Vec<String> = below
        .components()
        .filter_map(|c| match c {
            std::path::Component::Normal(part) => Some(part.to_string_lossy().into_owned()),
            _ => None,
        })
        .collect();
    // Each part is one path segment: `?`, `#` and `%` in a file name are
    // part of it, not URL syntax.
    let mut page = dir;
    {
        let mut segments = page.path_segments_mut().ok()?;
        segments.pop_if_empty();
        segments.extend(relative.iter().map(String::as_str));
    }
    Some(page)
}

/// `to-text` (and `check` on HTML): bytes -> document (ingestion) -> text
/// (the writer checks it by parsing it again). The source lines shown under
/// diagnostics are the page decoded as ingestion decoded it.
pub(crate) fn html_to_text(
    bytes: &[u8],
    input: &HtmlInput,
    address: Option<&Url>,
    output: Output,
) -> Converted {
    let options = htmlio::TextOptions {
        ingest: input.ingest_options(address),
        escapes: input.escapes,
        detect_language: false,
        format: input.format,
    };
    let page = htmlio::to_text(bytes, &options);
    let mut diagnostics = vec![Diag::new(
        Severity::Note,
        "encoding",
        format!("read as {}", page.encoding),
    )];
    if let Some(main) = &page.main_content {
        diagnostics.push(Diag::new(Severity::Note, "main-content", main.to_string()));
    }
    diagnostics.extend(
        page.diagnostics()
            .map(|d| d.either(from_library, from_library)),
    );
    sort_by_position(&mut diagnostics);
    let source = diagnostics.iter().any(|d| d.line.is_some()).then(|| {
        sniff::decode(bytes, page.encoding.encoding)
            .text
            .into_owned()
    });
    Converted {
        output: (output == Output::Keep).then(|| page.text.into_bytes()),
        encoding: Some(page.encoding.encoding),
        summary: Some(page.summary.to_string()),
        main_content: page.main_content,
        diagnostics,
        source,
        ..Converted::default()
    }
}

/// What `--main-content` kept and dropped, as the JSON of `--json` and of
/// each `--warc` line says it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct MainContentJson {
    /// The element that holds the article (`article`, `div`...), or null
    /// when no part of the page stood out and the whole page was kept.
    pub(crate) element: Option<String>,
    /// The line of that element in the page.
    pub(crate) line: Option<u32>,
    /// How many parts were dropped.
    pub(crate) dropped: usize,
    /// How many of each kind (`nav`, `footer`, `link-list`, `low-text`...).
    pub(crate) dropped_kinds: BTreeMap<&'static str, usize>,
    /// Characters of text dropped (white space not counted).
    pub(crate) dropped_chars: usize,
    /// Characters of text kept (white space not counted).
    pub(crate) kept_chars: usize,
}

impl From<&htmlio::ingest::main_content::MainContent> for MainContentJson {
    fn from(m: &htmlio::ingest::main_content::MainContent) -> Self {
        MainContentJson {
            element: m.root.as_ref().map(|(name, _)| name.clone()),
            line: m.root.as_ref().map(|(_, line)| *line),
            dropped: m.dropped_count(),
            dropped_kinds: m.dropped.clone(),
            dropped_chars: m.dropped_chars,
            kept_chars: m.kept_chars,
        }
    }
}
