//! `run-pipeline html-to-text|text-to-xhtml FILE...`: one pipeline over
//! files, nothing else, for profilers (`valgrind --tool=callgrind`, `perf`):
//! HTML files for `html-to-text`, files in the text format for
//! `text-to-xhtml`. Prints the total output length.

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
            _ => {
                eprintln!("usage: run-pipeline html-to-text|text-to-xhtml FILE...");
                return ExitCode::FAILURE;
            }
        };
    }
    println!("{total}");
    ExitCode::SUCCESS
}
