//! `pagetext`: the command-line tool. Glue code, not a library: it owns files,
//! directories, exit codes and terminal output, and leaves every format to the
//! library crates.
//!
//! - `pagetext::Cli` (the library target) is the command-line definition;
//! - [`inputs`] walks the INPUT arguments, [`outputs`] plans where each
//!   output goes, [`batch`] runs a job over the inputs in parallel and prints,
//!   [`convert`] is the per-input glue to the libraries, [`atomic`] writes
//!   files (and removes the temporary files of an interrupted run),
//!   [`stdout`] prints, [`diag`] maps the libraries' diagnostics and draws
//!   them; [`crawl`] is `to-text --warc`, over [`warc`]'s records;
//! - [`demo`], [`micro`] and `completions` are the one-shot commands;
//! - `edit` is the web editor's server (with the `edit` cargo feature, on
//!   by default).
//!
//! Exit status: 0 success, 1 some input failed (or `fmt --check` found work,
//! or standard output could not be written), 2 usage errors. A closed
//! standard output ends the run quietly with 0.

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;

use clap::Parser;
use pagetext::{Cli, ColorChoice, Command, HTML_EXTENSIONS, TEXT_EXTENSION};

/// mimalloc, for the many small allocations of a conversion (see the
/// workspace Cargo.toml).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod atomic;
mod batch;
mod links;
// The editor's conversions (`convert/editor.rs`) are compiled only with the
// `edit` feature, like the editor.
mod convert;
mod crawl;
mod demo;
mod diag;
#[cfg(feature = "edit")]
mod edit;
mod inputs;
mod micro;
mod outputs;
mod stdout;
mod warc;

use batch::{Display, FmtMode, Options, RunKind};
use convert::{HtmlInput, Job};
use diag::Color;
use inputs::WalkRules;
use outputs::{Naming, Request};

/// Exit status for usage errors (and runs that cannot start).
const USAGE: u8 = 2;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // --help and --version are "errors" with status 0.
            let _ = e.print();
            return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(USAGE));
        }
    };
    let color = use_color(cli.display.color);
    let display = Display {
        quiet: cli.display.quiet,
        verbose: cli.display.verbose,
        color,
    };
    match run(cli.command, display) {
        Ok(code) => code,
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => match stdout::failure(&e) {
            // The output could not be delivered: the run failed, as when an
            // output file cannot be written.
            Some(failed) => {
                say(&message(color, &failed.to_string()));
                ExitCode::FAILURE
            }
            None => {
                say(&message(color, &format!("{e:#}")));
                ExitCode::from(USAGE)
            }
        },
    }
}

/// Whether an error chain ends in a closed pipe.
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// Writes `text` to standard error. When standard error itself cannot be
/// written (closed, or a full disk behind `2>file`), there is nobody left to
/// tell: the text is dropped and the exit code still says what happened
/// (`eprint!` would panic instead).
pub(crate) fn say(text: &str) {
    let _ = io::stderr().lock().write_all(text.as_bytes());
}

/// `pagetext: error: TEXT`, with "error" in red when colouring.
pub(crate) fn message(color: Color, text: &str) -> String {
    match color {
        Color::Ansi => format!("pagetext: \x1b[1;91merror:\x1b[0m {text}\n"),
        Color::Plain => format!("pagetext: error: {text}\n"),
    }
}

fn use_color(choice: ColorChoice) -> Color {
    let ansi = match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::env::var_os("TERM").is_none_or(|t| t != "dumb")
                && io::stderr().is_terminal()
        }
    };
    if ansi { Color::Ansi } else { Color::Plain }
}

/// How HTML inputs' encoding is found, from the command line.
fn reading(
    charset: Option<&'static encoding_rs::Encoding>,
    args: &pagetext::SniffingArgs,
) -> convert::Reading {
    convert::Reading {
        charset,
        default_encoding: args.default_encoding,
        rules: args.rules.rules(),
        xml: false,
    }
}

fn usage(display: Display, text: &str) -> anyhow::Result<ExitCode> {
    say(&message(display.color, text));
    Ok(ExitCode::from(USAGE))
}

/// The writer's escapes under `--no-escape`.
fn escapes(no_escape: bool) -> wikitext::Escapes {
    if no_escape {
        wikitext::Escapes::Never
    } else {
        wikitext::Escapes::WhenNeeded
    }
}

fn run(command: Command, display: Display) -> anyhow::Result<ExitCode> {
    match command {
        Command::ToText(args) if args.warc => {
            let status = match crawl::StatusFilter::parse(&args.status) {
                Ok(status) => status,
                Err(why) => return usage(display, &why),
            };
            crawl::run(
                &args.batch.inputs,
                args.output.as_deref(),
                args.batch.jobs,
                (args.main_content, text_format(args.format), status),
                display,
            )
        }
        Command::ToText(args) => {
            let job = Job::ToText(HtmlInput {
                reading: reading(args.charset, &args.sniffing),
                keep_unsafe_links: args.keep_unsafe_links,
                escapes: escapes(args.no_escape),
                address: args.address.base,
                main_content: args.main_content,
                format: text_format(args.format),
            });
            batch_command(
                job,
                &args.batch,
                Request::output_or_default(args.output.as_deref()),
                Naming::Extension(TEXT_EXTENSION),
                html_rules(),
                None,
                display,
            )
        }
        Command::ToHtml(args) => {
            let syntax = if args.html {
                htmlio::emit::Syntax::Html {
                    omit_optional_tags: args.omit_optional_tags,
                }
            } else {
                htmlio::emit::Syntax::Xhtml
            };
            let onto = match &args.onto {
                Some(_) if args.batch.inputs.len() > 1 => {
                    return usage(
                        display,
                        "--onto writes one text onto one page: give one INPUT",
                    );
                }
                Some(path) => match std::fs::read(path) {
                    // Read once for the whole run, which it outlives.
                    Ok(page) => Some(&*Box::leak(page.into_boxed_slice())),
                    Err(e) => {
                        say(&message(
                            display.color,
                            &format!("cannot read the page {}: {e}", path.display()),
                        ));
                        return Ok(ExitCode::from(1));
                    }
                },
                None => None,
            };
            let job = Job::ToHtml {
                encoding: args.encoding,
                syntax,
                tables: args.tables,
                doctype: args.doctype,
                onto,
            };
            batch_command(
                job,
                &args.batch,
                Request::output_or_default(args.output.as_deref()),
                Naming::Extension(pagetext::HTML_OUTPUT_EXTENSION),
                text_rules(),
                None,
                display,
            )
        }
        Command::Fmt(args) => {
            let (mode, request) = if args.check {
                (FmtMode::Check, Request::Nothing)
            } else if args.in_place {
                (FmtMode::InPlace, Request::InPlace)
            } else {
                (
                    FmtMode::Write,
                    Request::output_or_default(args.output.as_deref()),
                )
            };
            batch_command(
                Job::Fmt {
                    escapes: escapes(args.no_escape),
                },
                &args.batch,
                request,
                Naming::Same,
                text_rules(),
                Some(mode),
                display,
            )
        }
        Command::Check(args) if args.links => {
            links::run(&args.batch.inputs, args.batch.json, display.quiet).map(exit)
        }
        Command::Check(args) => {
            let job = Job::Check {
                from: args.from,
                reading: reading(args.charset, &args.sniffing),
                address: args.address.base,
                main_content: args.main_content,
            };
            let rules = match args.from {
                Some(pagetext::InputFormat::Text) => text_rules(),
                Some(pagetext::InputFormat::Html) => html_rules(),
                None => WalkRules {
                    extensions: &["txt", "html", "htm", "xhtml"],
                    directories: true,
                    what: "text or HTML files",
                },
            };
            batch_command(
                job,
                &args.batch,
                Request::Nothing,
                Naming::Same,
                rules,
                None,
                display,
            )
        }
        Command::Sniff(args) => sniff_command(args, display),
        Command::Micro(args) => micro::run(&args, display),
        #[cfg(feature = "edit")]
        Command::Edit(args) => edit::run(&args),
        #[cfg(not(feature = "edit"))]
        Command::Edit(_) => usage(
            display,
            "this build of pagetext has no editor: it was built without the `edit` feature \
             (cargo build -p pagetext --features edit)",
        ),
        Command::Demo => demo::run(display),
        Command::Completions { shell } => completions(shell),
    }
}

/// `sniff`: each file's encoding, through the batch runner (nothing written).
fn sniff_command(args: pagetext::SniffArgs, display: Display) -> anyhow::Result<ExitCode> {
    let walk = inputs::walk(
        &args.files,
        WalkRules {
            extensions: HTML_EXTENSIONS,
            directories: false,
            what: "files",
        },
    );
    let plan = walk
        .items
        .iter()
        .map(|_| Ok(outputs::Dest::Nothing))
        .collect();
    let options = Options {
        jobs: None,
        json: args.json,
        strict: false,
        fmt: None,
        kind: RunKind::Sniff,
        display,
    };
    let job = Job::Sniff {
        content_type: args.content_type,
        reading: reading(None, &args.sniffing),
    };
    let summary = batch::run(walk.items, plan, &job, options)?;
    Ok(exit(summary.success(None)))
}

/// `completions`: the shell's completion script on standard output.
fn completions(shell: clap_complete::Shell) -> anyhow::Result<ExitCode> {
    let mut cmd = pagetext::command();
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut cmd, "pagetext", &mut out);
    let mut stdout = stdout::lock();
    stdout.write_all(&out)?;
    stdout.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// Removes the temporary files a killed run left where this one writes
/// (`dirs`), and says how many there were.
pub(crate) fn remove_leftovers(
    dirs: &std::collections::BTreeSet<std::path::PathBuf>,
    display: Display,
) {
    let leftovers = atomic::remove_leftovers(dirs);
    if leftovers > 0 && !display.quiet {
        say(&format!(
            "pagetext: removed {leftovers} leftover temporary file{} from an interrupted run\n",
            if leftovers == 1 { "" } else { "s" }
        ));
    }
}

fn html_rules() -> WalkRules<'static> {
    WalkRules {
        extensions: HTML_EXTENSIONS,
        directories: true,
        what: "HTML files",
    }
}

fn text_rules() -> WalkRules<'static> {
    WalkRules {
        extensions: &[TEXT_EXTENSION],
        directories: true,
        what: "text files",
    }
}

/// `--format`'s value as the library's.
fn text_format(format: pagetext::TextFormatArg) -> htmlio::TextFormat {
    match format {
        pagetext::TextFormatArg::Text => htmlio::TextFormat::Text,
        pagetext::TextFormatArg::Plain => htmlio::TextFormat::Plain,
        pagetext::TextFormatArg::Markdown => htmlio::TextFormat::Markdown,
    }
}

fn exit(success: bool) -> ExitCode {
    if success {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// The shared shape of `to-text`, `to-html`, `fmt` and `check`: walk, plan,
/// run, exit status.
fn batch_command(
    job: Job,
    batch: &pagetext::BatchArgs,
    request: Request<'_>,
    naming: Naming,
    rules: WalkRules<'_>,
    fmt: Option<FmtMode>,
    display: Display,
) -> anyhow::Result<ExitCode> {
    if batch.inputs.is_empty() && io::stdin().is_terminal() && !display.quiet {
        say(
            "pagetext: reading standard input (end it with Ctrl-D; give files or directories as INPUT, see --help)\n",
        );
    }
    // `--ext`: more extensions for the directory walks.
    let extra: Vec<String> = batch
        .ext
        .iter()
        .map(|e| e.trim().trim_start_matches('.').to_ascii_lowercase())
        .filter(|e| !e.is_empty())
        .collect();
    let extensions: Vec<&str> = rules
        .extensions
        .iter()
        .copied()
        .chain(extra.iter().map(String::as_str))
        .collect();
    let rules = WalkRules {
        extensions: &extensions,
        ..rules
    };
    let walk = inputs::walk(&batch.inputs, rules);
    // What the walk passed over that may be pages, where it looks for HTML.
    if rules.extensions.contains(&"html")
        && !display.quiet
        && let Some(skipped) = walk.skipped_pages()
    {
        say(&format!(
            "pagetext: passed over files that may be pages: {skipped} (--ext EXT takes an \
             extension too; a file given by name is always read)\n"
        ));
    }
    if walk.items.is_empty() {
        let dirs: Vec<String> = walk
            .dir_args
            .iter()
            .map(|d| d.display().to_string())
            .collect();
        say(&message(
            display.color,
            &format!(
                "no {} found in {} (looked for {})",
                rules.what,
                dirs.join(", "),
                rules
                    .extensions
                    .iter()
                    .map(|e| format!(".{e}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ));
        return Ok(ExitCode::FAILURE);
    }
    let plan = match outputs::plan(&walk, request, naming, batch.json) {
        Ok(plan) => plan,
        Err(why) => return usage(display, &why),
    };
    remove_leftovers(&outputs::written_dirs(&plan), display);
    let options = Options {
        jobs: batch.jobs,
        json: batch.json,
        strict: batch.strict,
        fmt,
        kind: RunKind::Batch,
        display,
    };
    let summary = batch::run(walk.items, plan, &job, options)?;
    Ok(exit(summary.success(fmt)))
}
