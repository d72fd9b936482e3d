//! `cargo xtask`: the project's chores, written in Rust so they run wherever
//! cargo does. Each subcommand is one module; `ci` runs them all in order.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod ci;
mod conformance;
mod snapshots;
mod util;

/// Chores for the pagetext workspace.
#[derive(Debug, Parser)]
#[command(name = "cargo xtask", bin_name = "cargo xtask")]
struct Xtask {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run the insta snapshot suites (every input under testdata/<crate>/ is a case).
    ///
    /// Prints one line per suite: cases, passed, failed, new, stale. New or
    /// changed snapshots are failures; on a developer machine insta leaves
    /// `.snap.new` files for `cargo insta review`, under CI (the `CI` variable
    /// is set) it writes nothing.
    Snapshots {
        /// Only the suites of this crate (its folder name: sniff, wikitext...).
        #[arg(long = "crate", value_name = "NAME")]
        krate: Option<String>,
        /// Hand over to `cargo insta review` afterwards.
        #[arg(long)]
        review: bool,
    },
    /// Run the peer conformance suites (html5lib-tests) registered by the crates.
    ///
    /// Reads ../shared/conformance/ or the folder named by PAGETEXT_CONFORMANCE_DIR.
    /// When the data is absent it says so and succeeds, except under CI.
    Conformance {
        /// Print every failing case, not just the first few per suite.
        #[arg(long)]
        verbose: bool,
    },
    /// Everything CI checks, in order, stopping at the first failure.
    Ci,
}

fn main() -> ExitCode {
    let xtask = Xtask::parse();
    let result = match xtask.command {
        Command::Snapshots { krate, review } => {
            snapshots::run(krate.as_deref(), review).map(|t| t.failed == 0)
        }
        Command::Conformance { verbose } => conformance::run(verbose).map(|t| t.failed == 0),
        Command::Ci => ci::run().map(|()| true),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("xtask: {e:#}");
            ExitCode::FAILURE
        }
    }
}
