//! `run-pipeline [--save DIR] MODE FILE...`: one pipeline over files,
//! nothing else, for profilers (`valgrind --tool=callgrind`, `perf`) and for
//! the instruction gate (`cargo xtask bench-gate`). Prints the total output
//! length; with `--save DIR`, also writes each file's output to
//! DIR/STEM.EXT (`txt` for text, `md` for Markdown, `xhtml` or `html`).
//! Modes:
//!
//! - `html-to-text`: HTML files through pagetext;
//! - `html-to-text-main`: HTML files through pagetext with
//!   `--main-content`;
//! - `html-to-text-both`: each HTML file both ways, the whole page and
//!   its main content (the output is the main content's). Give callgrind
//!   `--toggle-collect=pagetext_bench::html_to_text` and
//!   `--toggle-collect=pagetext_bench::html_to_text_main` and read each
//!   function's inclusive count: the two modes' cost in one run;
//! - `text-to-xhtml`: files in the text format through pagetext;
//! - `html-to-text-to-xhtml`: HTML files through pagetext to its text, then
//!   that text to XHTML. To count the second step alone, give callgrind
//!   `--toggle-collect=pagetext_bench::text_to_xhtml`;
//! - `markdown-peer`: HTML files through htmd to Markdown, then
//!   pulldown-cmark to HTML. To count the peer's rendering alone, give
//!   callgrind `--toggle-collect=pagetext_bench::markdown_to_html`;
//! - `markdown-to-html`: Markdown files through pulldown-cmark to HTML;
//! - `htmd`: HTML files through htmd to Markdown;
//! - `fast-html2md`: HTML files through fast_html2md to Markdown;
//! - `rcdom`: html5ever's bare parse of HTML files into its reference tree
//!   (`pagetext_bench::rcdom_parse`), the yardstick for `html-to-text`.
//!
//! htmd and fast_html2md take `&str`: each file is decoded as UTF-8
//! (lossily) before the call, outside the function a toggle counts.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use pagetext_bench as b;

/// The modes, as [`run`] knows them, each with the extension of the files
/// `--save` writes.
const MODES: &[(&str, &str)] = &[
    ("html-to-text", "txt"),
    ("html-to-text-main", "txt"),
    ("html-to-text-both", "txt"),
    ("text-to-xhtml", "xhtml"),
    ("html-to-text-to-xhtml", "xhtml"),
    ("markdown-peer", "html"),
    ("markdown-to-html", "html"),
    ("htmd", "md"),
    ("fast-html2md", "md"),
    ("rcdom", ""),
];

/// What one file gives.
enum Output {
    /// A conversion's output.
    Text(String),
    /// html5ever's parse: the number of top-level nodes.
    Count(usize),
}

/// One file through the pipeline `mode` (one of [`MODES`]; nothing for any
/// other).
fn run(mode: &str, bytes: &[u8]) -> Output {
    let str = || String::from_utf8_lossy(bytes);
    Output::Text(match mode {
        "html-to-text" => b::html_to_text(bytes),
        "html-to-text-main" => b::html_to_text_main(bytes),
        "html-to-text-both" => {
            std::hint::black_box(b::html_to_text(bytes));
            b::html_to_text_main(bytes)
        }
        "text-to-xhtml" => b::text_to_xhtml(&str()),
        "html-to-text-to-xhtml" => {
            let text = b::html_to_text(bytes);
            b::text_to_xhtml(std::hint::black_box(&text))
        }
        "markdown-peer" => {
            let markdown = b::htmd_convert(&str());
            b::markdown_to_html(std::hint::black_box(&markdown))
        }
        "markdown-to-html" => b::markdown_to_html(&str()),
        "htmd" => b::htmd_convert(&str()),
        "fast-html2md" => b::fast_html2md_convert(&str()),
        "rcdom" => return Output::Count(b::rcdom_parse(bytes)),
        _ => String::new(),
    })
}

/// Where `--save DIR` puts the output of `file`: DIR/STEM.EXT.
fn saved_path(dir: &Path, file: &Path, ext: &str) -> PathBuf {
    let stem = file.file_stem().unwrap_or(file.as_os_str());
    dir.join(stem).with_extension(ext)
}

fn main() -> ExitCode {
    let mut args: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    let mut save = None;
    if args.first().is_some_and(|a| a == "--save") && args.len() >= 2 {
        save = Some(args.remove(1));
        args.remove(0);
    }
    let mode = args.first().map(|m| m.to_string_lossy().into_owned());
    let Some(&(mode, ext)) = MODES.iter().find(|(m, _)| Some(*m) == mode.as_deref()) else {
        let modes: Vec<&str> = MODES.iter().map(|(m, _)| *m).collect();
        eprintln!(
            "usage: run-pipeline [--save DIR] {} FILE...",
            modes.join("|")
        );
        return ExitCode::FAILURE;
    };
    let mut total = 0usize;
    for file in &args[1..] {
        let bytes = match std::fs::read(file) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("run-pipeline: {}: {e}", file.display());
                return ExitCode::FAILURE;
            }
        };
        total += match run(mode, &bytes) {
            Output::Count(n) => n,
            Output::Text(text) => {
                if let Some(dir) = &save {
                    let path = saved_path(dir, file, ext);
                    if let Err(e) = std::fs::write(&path, &text) {
                        eprintln!("run-pipeline: {}: {e}", path.display());
                        return ExitCode::FAILURE;
                    }
                }
                text.len()
            }
        };
    }
    println!("{total}");
    ExitCode::SUCCESS
}
