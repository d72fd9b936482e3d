//! `pagetext`: the command-line tool. Glue code, not a library: it owns files,
//! directories, exit codes and terminal output, and leaves every format to the
//! library crates.

use std::io::Write;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// The sample document bundled in the binary: the seed's own example of the
/// text format.
const SAMPLE_TEXT: &str = include_str!("../../../testdata/wikitext/seed/sample.txt");

/// Turn web pages into editable wiki-like text and back into clean XHTML 1.0.
#[derive(Debug, Parser)]
#[command(name = "pagetext", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Show the bundled sample document.
    ///
    /// For now this prints the sample in the text format; the conversion to
    /// XHTML is not built yet, and this command says so instead of faking it.
    Demo,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Demo => demo(),
    }
}

fn demo() -> ExitCode {
    let mut out = std::io::stdout().lock();
    let result = writeln!(
        out,
        "# The bundled sample document, in the pagetext text format:\n\n{SAMPLE_TEXT}\n\
         # Converting it to XHTML is not built yet (see README.md, \"Status\")."
    );
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // A closed pipe (`pagetext demo | head`) is not an error worth a message.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("pagetext: {e}");
            ExitCode::from(2)
        }
    }
}
