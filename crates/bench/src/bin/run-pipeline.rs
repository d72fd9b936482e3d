//! `run-pipeline MODE FILE...`: one pipeline over files, nothing else, for
//! profilers (`valgrind --tool=callgrind`, `perf`). Prints the total output
//! length. Modes:
//!
//! - `html-to-text`: HTML files through pagetext;
//! - `text-to-xhtml`: files in the text format through pagetext;
//! - `markdown-peer`: HTML files through htmd to Markdown, then
//!   pulldown-cmark to HTML. To count the peer's rendering alone, give
//!   callgrind `--toggle-collect=pagetext_bench::markdown_to_html`;
//! - `rcdom`: html5ever's bare parse of HTML files into its reference tree
//!   (`pagetext_bench::rcdom_parse`), the yardstick for `html-to-text`.

use std::process::ExitCode;

fn main() -> ExitCode {
    let mut args = std::env::args_os().skip(1);
    let mode = args.next().map(|m| m.to_string_lossy().into_owned());
    let files: Vec<_> = args.collect();
    let mut total = 0usize;
    for file in &files {
        let bytes = match std::fs::read(file) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("run-pipeline: {}: {e}", file.to_string_lossy());
                return ExitCode::FAILURE;
            }
        };
        total += match mode.as_deref() {
            Some("html-to-text") => pagetext_bench::html_to_text(&bytes).len(),
            Some("text-to-xhtml") => {
                pagetext_bench::text_to_xhtml(&String::from_utf8_lossy(&bytes)).len()
            }
            Some("markdown-peer") => {
                let markdown = pagetext_bench::htmd_convert(&String::from_utf8_lossy(&bytes));
                pagetext_bench::markdown_to_html(std::hint::black_box(&markdown)).len()
            }
            Some("rcdom") => pagetext_bench::rcdom_parse(&bytes),
            _ => {
                eprintln!(
                    "usage: run-pipeline html-to-text|text-to-xhtml|markdown-peer|rcdom FILE..."
                );
                return ExitCode::FAILURE;
            }
        };
    }
    println!("{total}");
    ExitCode::SUCCESS
}
