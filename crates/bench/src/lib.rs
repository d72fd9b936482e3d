//! Benchmarks of pagetext side by side with its peers, and the report that
//! `cargo xtask bench` prints (see `docs/benchmarks.md`).
//!
//! This library holds what the criterion benchmark (`benches/peers.rs`) and
//! the report binary (`bench-report`) share: where the input pages come from,
//! how the derived inputs (text forms, Markdown, synthetic large documents,
//! pathological inputs) are built, and the pipelines under measurement, each
//! a plain function so that the benchmark, the profiler and the tests run
//! exactly the same code.
//!
//! The pipelines that `cargo xtask bench-gate` counts (the conversions and
//! the peers) are `#[inline(never)]`: callgrind's `--toggle-collect` finds
//! them by name, so they must stay functions of their own in the binary.
//!
//! # Inputs
//!
//! [`corpus_dir`] picks the folder of HTML pages: the variable
//! `PAGETEXT_BENCH_CORPUS` when set, else `corpus/` at the workspace root
//! when it exists (the one `cargo xtask corpus --fetch` builds), else
//! `/usr/share/doc`.
//! [`load_pages`] reads every `*.html`/`*.htm` file below it, in path order,
//! up to `PAGETEXT_BENCH_MAX_BYTES` bytes in all (default [`DEFAULT_MAX_BYTES`]).
//!
//! ```
//! use pagetext_bench::{Page, html_to_text, repeat_to_size, text_to_xhtml};
//!
//! let page = Page {
//!     name: "demo.html".into(),
//!     bytes: b"<title>T</title><h1>Hi</h1><p>One <b>two</b> three.</p>".to_vec(),
//! };
//! let text = html_to_text(&page.bytes);
//! assert!(text.contains("*two*"));
//! assert!(text_to_xhtml(&text).contains("<strong>two</strong>"));
//! let big = repeat_to_size(&[page.bytes.as_slice()], 1000, b"\n");
//! assert!(big.len() >= 1000);
//! ```

use std::path::{Path, PathBuf};

/// How many bytes of pages [`load_pages`] reads unless
/// `PAGETEXT_BENCH_MAX_BYTES` says otherwise: enough for a stable figure,
/// small enough for a run of a few minutes on two shared cores.
pub const DEFAULT_MAX_BYTES: usize = 8 << 20;

/// One input page.
#[derive(Debug, Clone)]
pub struct Page {
    /// Its path relative to the corpus folder.
    pub name: String,
    /// Its bytes, as stored.
    pub bytes: Vec<u8>,
}

/// The corpus folder: `PAGETEXT_BENCH_CORPUS`, else `<workspace>/corpus`
/// when it exists, else `/usr/share/doc`.
pub fn corpus_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("PAGETEXT_BENCH_CORPUS").filter(|d| !d.is_empty()) {
        return PathBuf::from(dir);
    }
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let ws = here.ancestors().nth(2).unwrap_or(here).join("corpus");
    if ws.is_dir() {
        return ws;
    }
    PathBuf::from("/usr/share/doc")
}

/// The byte budget of [`load_pages`]: `PAGETEXT_BENCH_MAX_BYTES` or
/// [`DEFAULT_MAX_BYTES`].
pub fn max_bytes() -> usize {
    std::env::var("PAGETEXT_BENCH_MAX_BYTES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(DEFAULT_MAX_BYTES)
}

/// Every `*.html` / `*.htm` file below `dir` (symbolic links not followed),
/// sorted by path. The walk uses an explicit stack.
pub fn html_files(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            let path = entry.path();
            if kind.is_dir() {
                stack.push(path);
            } else if kind.is_file()
                && path.extension().and_then(|e| e.to_str()).is_some_and(|e| {
                    e.eq_ignore_ascii_case("html") || e.eq_ignore_ascii_case("htm")
                })
            {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// Reads the pages below `dir`, in path order, skipping empty files and any
/// page that would take the total past `budget` bytes (so that one huge page
/// does not crowd out the rest).
pub fn load_pages(dir: &Path, budget: usize) -> Vec<Page> {
    let mut pages = Vec::new();
    let mut total = 0usize;
    for path in html_files(dir) {
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        if bytes.is_empty() || total + bytes.len() > budget {
            continue;
        }
        total += bytes.len();
        let name = path
            .strip_prefix(dir)
            .unwrap_or(&path)
            .to_string_lossy()
            .into_owned();
        pages.push(Page { name, bytes });
    }
    pages
}

/// The total size of `items` in bytes.
pub fn total_len<T: AsRef<[u8]>>(items: &[T]) -> usize {
    items.iter().map(|i| i.as_ref().len()).sum()
}

/// HTML -> text: `htmlio::to_text`, the call `pagetext to-text`, the crawl
/// and the Python package make (ingestion: sniff, decode, html5ever, the
/// mapping; then wikitext's writer under ingestion's policy).
#[inline(never)]
pub fn html_to_text(bytes: &[u8]) -> String {
    htmlio::to_text(bytes, &htmlio::TextOptions::default()).text
}

/// HTML -> text of the page's main content: `htmlio::to_text` with
/// `main_content`, as `pagetext to-text --main-content` converts (the
/// whole page's ingestion with the selection before the mapping).
#[inline(never)]
pub fn html_to_text_main(bytes: &[u8]) -> String {
    let options = htmlio::TextOptions {
        ingest: htmlio::ingest::Options {
            main_content: true,
            ..htmlio::ingest::Options::default()
        },
        ..htmlio::TextOptions::default()
    };
    htmlio::to_text(bytes, &options).text
}

/// Text -> XHTML: `htmlio::emit::emit_text` (`wikitext::Parser`'s events
/// into the emitter, no tree), as `pagetext to-html` does.
#[inline(never)]
pub fn text_to_xhtml(text: &str) -> String {
    htmlio::emit::emit_text(text, &htmlio::emit::EmitOptions::default())
        .emitted
        .text
}

/// Text -> XHTML through the tree: `wikitext::parse` then
/// `htmlio::emit::xhtml` (for comparison with [`text_to_xhtml`]).
pub fn text_to_xhtml_via_tree(text: &str) -> String {
    let parsed = wikitext::parse(text);
    htmlio::emit::xhtml(&parsed.document).text
}

/// Peer: html5ever's bare parse of the bytes (as UTF-8) into its reference
/// tree. Returns the number of children of the document node, so that the
/// work cannot be optimised away.
#[inline(never)]
pub fn rcdom_parse(bytes: &[u8]) -> usize {
    use html5ever::tendril::TendrilSink;
    let dom = html5ever::parse_document(markup5ever_rcdom::RcDom::default(), Default::default())
        .from_utf8()
        .one(bytes);
    dom.document.children.borrow().len()
}

/// Peer: htmd converting the HTML (decoded as UTF-8, lossily) to Markdown.
/// A conversion error gives an empty string.
#[inline(never)]
pub fn htmd_convert(html: &str) -> String {
    htmd::convert(html).unwrap_or_default()
}

/// Peer: fast_html2md (library `html2md`) converting the HTML (decoded as
/// UTF-8, lossily) to Markdown with its `rewriter` path: lol_html streams
/// the page through element and text handlers that write Markdown, with no
/// tree. `commonmark` is on, as htmd's output is CommonMark too.
#[inline(never)]
pub fn fast_html2md_convert(html: &str) -> String {
    html2md::rewrite_html(html, true)
}

/// Peer: pulldown-cmark rendering Markdown to HTML (CommonMark plus tables,
/// as most sites that use it do).
#[inline(never)]
pub fn markdown_to_html(markdown: &str) -> String {
    let parser = pulldown_cmark::Parser::new_ext(markdown, pulldown_cmark::Options::ENABLE_TABLES);
    let mut out = String::with_capacity(markdown.len() + markdown.len() / 2);
    pulldown_cmark::html::push_html(&mut out, parser);
    out
}

/// `sniff::sniff` then `sniff::decode`, as ingestion starts. Returns the
/// decoded length.
pub fn sniff_decode(bytes: &[u8]) -> usize {
    let sniffed = sniff::sniff(bytes, &sniff::Hints::default());
    sniff::decode(bytes, sniffed.encoding).text.len()
}

/// Peer: encoding_rs decoding the bytes as UTF-8 (BOM sniffing included),
/// the floor for [`sniff_decode`]. Returns the decoded length.
pub fn encoding_rs_decode(bytes: &[u8]) -> usize {
    encoding_rs::UTF_8.decode(bytes).0.len()
}

/// Splits a document in the text format into its header (up to and with the
/// first empty line) and body.
pub fn split_header(text: &str) -> (&str, &str) {
    match text.find("\n\n") {
        Some(i) => text.split_at(i + 2),
        None => ("", text),
    }
}

/// Text documents joined into one: the header of the first, then every body
/// in turn, separated by an empty line, repeated until at least `size`
/// bytes. Headers other than the first are left out, so that the result is
/// one ordinary document.
pub fn join_texts(texts: &[&str], size: usize) -> String {
    let mut out = String::new();
    if let Some(first) = texts.first() {
        out.push_str(split_header(first).0);
    }
    let bodies: Vec<&str> = texts
        .iter()
        .map(|t| split_header(t).1.trim_end())
        .filter(|b| !b.is_empty())
        .collect();
    if bodies.is_empty() {
        return out;
    }
    while out.len() < size {
        for body in &bodies {
            out.push_str(body);
            out.push_str("\n\n");
            if out.len() >= size {
                break;
            }
        }
    }
    out
}

/// `parts` concatenated with `sep` between them, over and over, until at
/// least `size` bytes (at most one part more). Empty when `parts` holds only
/// empty items.
pub fn repeat_to_size(parts: &[&[u8]], size: usize, sep: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(size + parts.iter().map(|p| p.len()).max().unwrap_or(0));
    if parts.iter().all(|p| p.is_empty()) {
        return out;
    }
    while out.len() < size {
        for part in parts {
            out.extend_from_slice(part);
            out.extend_from_slice(sep);
            if out.len() >= size {
                break;
            }
        }
    }
    out
}

/// One pathological input family: a name and a builder from a size `n`.
#[derive(Debug, Clone, Copy)]
pub struct Pathological {
    /// Its name in the benchmark and the table.
    pub name: &'static str,
    /// Whether the input is HTML (else the text format).
    pub html: bool,
    /// Builds the input with `n` repetitions of its unit.
    pub build: fn(usize) -> String,
}

/// The pathological inputs: long runs of the text format's markup
/// characters, deep indentation, and thousands of nested HTML elements.
pub const PATHOLOGICAL: &[Pathological] = &[
    Pathological {
        name: "text_underscores",
        html: false,
        build: |n| format!("T\n\n{}\n", "_".repeat(n)),
    },
    Pathological {
        name: "text_stars",
        html: false,
        build: |n| format!("T\n\n{}\n", "*".repeat(n)),
    },
    Pathological {
        name: "text_brackets",
        html: false,
        build: |n| format!("T\n\n{}\n", "[".repeat(n)),
    },
    Pathological {
        name: "text_mixed_markup",
        html: false,
        build: |n| format!("T\n\n{}\n", "_ * [ ' a".repeat(n / 8 + 1)),
    },
    Pathological {
        name: "text_deep_indent",
        html: false,
        build: |n| {
            let mut s = String::from("T\n\n");
            for i in 0..n / 40 + 1 {
                s.push_str(&" ".repeat(2 * (i % 20)));
                s.push_str("- item text\n");
            }
            s
        },
    },
    Pathological {
        name: "html_nested_div",
        html: true,
        build: |n| format!("{}x{}", "<div>".repeat(n / 5), "</div>".repeat(n / 5)),
    },
    Pathological {
        name: "html_nested_inline",
        html: true,
        build: |n| format!("<p>{}x", "<b><i>".repeat(n / 6)),
    },
    Pathological {
        name: "html_nested_lists",
        html: true,
        build: |n| format!("{}x", "<ul><li>".repeat(n / 8)),
    },
];

/// Runs one pathological input through its pipeline; returns the output
/// length.
pub fn run_pathological(p: &Pathological, input: &str) -> usize {
    if p.html {
        html_to_text(input.as_bytes()).len()
    } else {
        text_to_xhtml(input).len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pipelines_produce_expected_markup() {
        let html = b"<title>T</title><p>a <em>b</em> <a href=\"http://x/\">c</a></p>";
        let text = html_to_text(html);
        assert!(text.starts_with("#Title T\n"), "{text}");
        assert!(text.contains("_b_"), "{text}");
        let xhtml = text_to_xhtml(&text);
        assert!(xhtml.contains("<em>b</em>"), "{xhtml}");
        assert!(xhtml.contains("href=\"http://x/\""), "{xhtml}");
        let md = htmd_convert("<p>a <em>b</em></p>");
        assert_eq!(md.trim(), "a *b*");
        let md = fast_html2md_convert("<p>a <em>b</em></p>");
        assert_eq!(md.trim(), "a *b*");
        assert_eq!(markdown_to_html("a *b*").trim(), "<p>a <em>b</em></p>");
        assert_eq!(rcdom_parse(b"<p>x"), 1);
        assert_eq!(sniff_decode("h\u{e9}".as_bytes()), 3);
        assert_eq!(encoding_rs_decode("h\u{e9}".as_bytes()), 3);
    }

    #[test]
    fn join_keeps_one_header() {
        let joined = join_texts(&["#Title A\n\nbody a\n", "#Title B\n\nbody b\n"], 30);
        assert_eq!(joined, "#Title A\n\nbody a\n\nbody b\n\nbody a\n\n");
    }

    #[test]
    fn repeat_reaches_size_and_handles_empty() {
        assert_eq!(repeat_to_size(&[b"ab"], 5, b"-"), b"ab-ab-");
        assert!(repeat_to_size(&[b""], 5, b"").is_empty());
        assert!(repeat_to_size(&[], 5, b"").is_empty());
    }

    #[test]
    fn pathological_inputs_grow_with_n() {
        for p in PATHOLOGICAL {
            let small = (p.build)(1000).len();
            let large = (p.build)(10_000).len();
            assert!(large > 8 * small, "{} {small} {large}", p.name);
        }
    }

    #[test]
    fn pages_are_found_in_a_folder() -> std::io::Result<()> {
        let dir = std::env::temp_dir().join(format!("pagetext-bench-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("a"))?;
        std::fs::write(dir.join("a/x.html"), "<p>x")?;
        std::fs::write(dir.join("b.HTM"), "<p>y")?;
        std::fs::write(dir.join("c.txt"), "no")?;
        std::fs::write(dir.join("d.html"), "")?;
        let pages = load_pages(&dir, 1 << 20);
        let names: Vec<&str> = pages.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["a/x.html", "b.HTM"]);
        assert_eq!(load_pages(&dir, 5).len(), 1);
        std::fs::remove_dir_all(&dir)
    }
}
