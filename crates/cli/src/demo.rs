//! `pagetext demo`: the main job on a page bundled in the binary, step by
//! step, so that a newcomer sees the whole idea in one command.
//!
//! The page (`testdata/cli/demo/chorale.html`) is a small organisation's
//! home page as such pages were written in 2009: HTML 4.01 with upper-case
//! tags, CRLF line ends, a table, lists, links, a form, a script and an
//! `onload` handler, in windows-1252 although its `<meta>` says ISO-8859-1
//! (it uses `€` and `’`, which only windows-1252 has; browsers, and the
//! Encoding Standard, read ISO-8859-1 as windows-1252 for that reason).
//!
//! Every step runs the same code as the commands it names: `sniff`,
//! `to-text`, then `to-html` on the text `to-text` wrote.

use std::io::Write;
use std::process::ExitCode;

use crate::batch::Display;
use crate::convert;
use crate::diag::{self, Color};

/// The bundled page, byte for byte.
const PAGE: &[u8] = include_bytes!("../../../testdata/cli/demo/chorale.html");

/// Where the page notionally lives (shown in messages).
const NAME: &str = "chorale.html";

pub(crate) fn run(display: Display) -> anyhow::Result<ExitCode> {
    let mut out = crate::stdout::lock();
    writeln!(
        out,
        "pagetext demo: {NAME}, a village choir's home page from 2009 ({} bytes, bundled in the binary)\n",
        PAGE.len()
    )?;

    // 1. The charset, as `pagetext sniff` reports it.
    let sniffed = convert::run(
        &convert::Job::Sniff {
            content_type: None,
            reading: convert::Reading::default(),
        },
        NAME,
        None,
        PAGE,
    )
    .map_err(anyhow::Error::msg)?;
    writeln!(out, "== 1. Which charset? (pagetext sniff {NAME}) ==\n")?;
    if let Some(report) = &sniffed.sniff {
        writeln!(out, "{NAME}: {}", report.settled)?;
    }
    writeln!(
        out,
        "(the page declares iso-8859-1, which the Encoding Standard reads as windows-1252:\n\
         its € and ’ exist only in windows-1252)\n"
    )?;

    // 2. The text, as `pagetext to-text` writes it.
    let text = convert::html_to_text(
        PAGE,
        &convert::HtmlInput::default(),
        None,
        convert::Output::Keep,
    );
    let text_output =
        String::from_utf8_lossy(text.output.as_deref().unwrap_or_default()).into_owned();
    writeln!(out, "== 2. The page as text (pagetext to-text {NAME}) ==\n")?;
    out.write_all(text_output.as_bytes())?;

    // 3. What the text does not hold, as `pagetext -v to-text` reports it.
    writeln!(
        out,
        "\n== 3. What was left out or mapped (pagetext -v to-text {NAME}) ==\n"
    )?;
    writeln!(
        out,
        "Scripts, styles, forms, event handlers and presentational attributes are ballast,\n\
         dropped by design; whatever else the text format cannot hold is reported.\n"
    )?;
    if let Some(summary) = &text.summary {
        out.write_all(summary.as_bytes())?;
        writeln!(out)?;
    }
    for d in &text.diagnostics {
        out.write_all(diag::render(NAME, d, None, Color::Plain).as_bytes())?;
    }

    // 4. The XHTML, as `pagetext to-html` writes it from that text.
    let xhtml = convert::run(
        &convert::Job::ToHtml {
            encoding: None,
            syntax: htmlio::emit::Syntax::Xhtml,
            tables: false,
            doctype: false,
            onto: None,
        },
        "chorale.txt",
        None,
        text_output.as_bytes(),
    )
    .map_err(anyhow::Error::msg)?;
    writeln!(
        out,
        "\n== 4. The text as XHTML 1.0 (pagetext to-html chorale.txt) ==\n"
    )?;
    out.write_all(xhtml.output.as_deref().unwrap_or_default())?;
    for d in &xhtml.diagnostics {
        out.write_all(diag::render("chorale.txt", d, None, Color::Plain).as_bytes())?;
    }
    writeln!(
        out,
        "\nTry it on your own pages: pagetext to-text page.html, or a whole site with\n\
         pagetext to-text site/ -o text/ (and pagetext --help for the rest)."
    )?;
    out.flush()?;
    let _ = display;
    Ok(ExitCode::SUCCESS)
}
