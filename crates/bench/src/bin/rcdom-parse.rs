//! `rcdom-parse FILE`: html5ever's bare parse of one file into its reference
//! tree (RcDom), nothing else. The baseline of the peak-memory measurement
//! of `cargo xtask bench`; prints the number of top-level nodes.

use std::process::ExitCode;

fn main() -> ExitCode {
    let Some(path) = std::env::args_os().nth(1) else {
        eprintln!("usage: rcdom-parse FILE");
        return ExitCode::FAILURE;
    };
    match std::fs::read(&path) {
        Ok(bytes) => {
            println!("{}", pagetext_bench::rcdom_parse(&bytes));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("rcdom-parse: {}: {e}", path.to_string_lossy());
            ExitCode::FAILURE
        }
    }
}
