//! What each command does to one input's bytes: the glue between the CLI and
//! the libraries (`sniff`, `wikitext`, `htmlio`). No printing, no files:
//! bytes in, a [`Converted`] (or a reason for failing) out.
//!
//! [`run`] dispatches a [`Job`]; each kind of input has its module: `html`
//! (to text, through `htmlio::to_text`), `text` (the text format: to markup
//! through `htmlio::to_xhtml`, `fmt`, `check`), `sniff` (the encoding and its
//! JSON shape), `binary` (the rule that refuses files with a binary
//! signature and warns about mostly control bytes), and `editor`
//! (what `pagetext edit` shows and how it saves). Library diagnostics
//! become [`Diag`]s in `crate::diag`, with one function.

mod binary;
#[cfg(feature = "edit")]
mod editor;
mod html;
mod kind;
mod sniff;
mod text;

use microsyntax::url::Url;
use pagetext::InputFormat;

use crate::diag::Diag;

#[cfg(feature = "edit")]
pub(crate) use binary::{Binary, binary_reason, control_bytes_diag, signature};
#[cfg(feature = "edit")]
pub(crate) use editor::{Saved, edit_view, save_html, save_onto, save_text};
pub(crate) use html::{MainContentJson, html_to_text};
pub(crate) use sniff::SniffReport;
#[cfg(feature = "edit")]
pub(crate) use text::decode_text;

/// The job one command runs on every input.
#[derive(Debug, Clone)]
pub(crate) enum Job {
    /// HTML -> text.
    ToText(HtmlInput),
    /// Text -> XHTML or HTML.
    ToHtml {
        /// Output charset (UTF-8 when `None`).
        encoding: Option<&'static encoding_rs::Encoding>,
        /// XHTML, or the HTML syntax (with or without optional tags).
        syntax: htmlio::emit::Syntax,
        /// Grid-shaped compact definition lists as tables (`--tables`).
        tables: bool,
        /// XHTML begins with its DOCTYPE (`--doctype`).
        doctype: bool,
        /// The page to write the text onto (`--onto`), read once.
        onto: Option<&'static [u8]>,
    },
    /// Text -> canonical text.
    Fmt {
        /// Whether the writer may escape (`--no-escape` says no).
        escapes: wikitext::Escapes,
    },
    /// Diagnostics only.
    Check {
        /// Forced input format; by extension when `None`.
        from: Option<InputFormat>,
        /// How HTML inputs' encoding is found.
        reading: Reading,
        /// Where HTML inputs live (`--base`).
        address: Option<&'static Url>,
        /// HTML inputs: only their main content (`--main-content`).
        main_content: bool,
    },
    /// Which encoding, and why.
    Sniff {
        /// The `--content-type` value.
        content_type: Option<String>,
        /// How the encoding is found.
        reading: Reading,
    },
}

/// How an HTML input's encoding is found: what the user said on the
/// command line (`--charset`, `--default-encoding`, `--rules`).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Reading {
    /// Transport-layer charset.
    pub(crate) charset: Option<&'static encoding_rs::Encoding>,
    /// The default to assume in place of autodetection.
    pub(crate) default_encoding: Option<&'static encoding_rs::Encoding>,
    /// Which version of the sniffing rules.
    pub(crate) rules: ::sniff::Rules,
    /// The input is an `.xhtml` file, read as XML as a browser reads one
    /// (its XML declaration decides, else UTF-8).
    pub(crate) xml: bool,
}

impl Reading {
    /// The sniffing algorithm's hints.
    pub(crate) fn hints(&self) -> ::sniff::Hints<'static> {
        ::sniff::Hints {
            transport: self.charset,
            ..::sniff::Hints::default()
        }
        .with_rules(self.rules)
        .with_user_default(self.default_encoding)
        .with_xml(self.xml)
    }

    /// The same for the input `name`: an `.xhtml` file is XML.
    fn for_input(self, name: &str) -> Reading {
        Reading {
            xml: crate::inputs::has_extension(std::path::Path::new(name), &["xhtml"]),
            ..self
        }
    }
}

/// How HTML inputs are read (`to-text`, and `check` on HTML).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct HtmlInput {
    /// How the encoding is found.
    pub(crate) reading: Reading,
    /// Keep javascript:/vbscript:/data: links instead of neutralising them.
    pub(crate) keep_unsafe_links: bool,
    /// Whether the writer may escape (`--no-escape` says no).
    pub(crate) escapes: wikitext::Escapes,
    /// The address given with `--base`: the page's, or for a directory the
    /// directory's.
    pub(crate) address: Option<&'static Url>,
    /// Keep only the main content (`--main-content`).
    pub(crate) main_content: bool,
    /// The text format, or plain text (`--format`).
    pub(crate) format: htmlio::TextFormat,
}

impl HtmlInput {
    /// The ingestion options: the charset as the transport's, parse errors
    /// only counted, the page's address.
    fn ingest_options<'a>(&self, address: Option<&'a Url>) -> htmlio::ingest::Options<'a> {
        htmlio::ingest::Options {
            hints: self.reading.hints(),
            keep_unsafe_links: self.keep_unsafe_links,
            parse_errors: false,
            address,
            extensions: true,
            main_content: self.main_content,
        }
    }
}

/// Whether a conversion keeps what it wrote or only reports on the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Output {
    /// Keep the output (`to-text`, `fmt`).
    Keep,
    /// Diagnostics only (`check`): the output is dropped.
    Discard,
}

/// What converting one input gave.
#[derive(Debug, Default)]
pub(crate) struct Converted {
    /// The bytes to write, if the command writes anything.
    pub(crate) output: Option<Vec<u8>>,
    /// The encoding of `output` when it is not UTF-8 (for `--json`).
    pub(crate) output_encoding: Option<&'static encoding_rs::Encoding>,
    /// The encoding the input was read in (HTML inputs).
    pub(crate) encoding: Option<&'static encoding_rs::Encoding>,
    /// Everything worth saying about the input.
    pub(crate) diagnostics: Vec<Diag>,
    /// The input as text, for drawing source lines under diagnostics.
    pub(crate) source: Option<String>,
    /// `fmt`: whether the canonical text differs from the input.
    pub(crate) changed: Option<bool>,
    /// `sniff`: the answer.
    pub(crate) sniff: Option<SniffReport>,
    /// HTML inputs: ingestion's account for a person (losses grouped,
    /// ballast counted).
    pub(crate) summary: Option<String>,
    /// HTML inputs under `--main-content`: what was kept and dropped.
    pub(crate) main_content: Option<htmlio::ingest::main_content::MainContent>,
}

/// Why an input failed as a whole (read errors are handled by the caller).
pub(crate) type Failure = String;

impl Job {
    /// The sniffing hints for the HTML input `name` (the command line's
    /// reading of it, and for `sniff` its `--content-type`), or `None` when
    /// the job reads the text format.
    fn hints(&self, name: &str) -> Option<::sniff::Hints<'static>> {
        match self {
            Job::ToText(input) => Some(input.reading.for_input(name).hints()),
            Job::Check { from, reading, .. } if check_format(*from, name) == InputFormat::Html => {
                Some(reading.for_input(name).hints())
            }
            Job::Sniff {
                content_type,
                reading,
            } => {
                let hints = reading.for_input(name).hints();
                Some(match content_type {
                    Some(value) => hints.with_content_type(value.as_bytes()),
                    None => hints,
                })
            }
            Job::ToHtml { .. } | Job::Fmt { .. } | Job::Check { .. } => None,
        }
    }
}

/// Runs `job` on one input. `name` is the input's path (its extension picks
/// the format for `check`); `bytes` its contents.
pub(crate) fn run(
    job: &Job,
    name: &str,
    below: Option<&std::path::Path>,
    bytes: &[u8],
) -> Result<Converted, Failure> {
    binary::refuse(job, name, bytes)?;
    kind::refuse(job, bytes)?;
    let mut converted = convert(job, name, below, bytes);
    if let Some(warning) = binary::control_bytes_warning(job, name, bytes) {
        // First: a diagnostic without a line sorts before the others.
        converted.diagnostics.insert(0, warning);
    }
    if let Some(report) = &mut converted.sniff {
        report.note = binary::note(job, name, bytes);
    }
    Ok(converted)
}

/// What `job` makes of one input that [`run`] did not refuse.
fn convert(job: &Job, name: &str, below: Option<&std::path::Path>, bytes: &[u8]) -> Converted {
    match job {
        Job::Sniff { .. } => sniff::settle(bytes, &job.hints(name).unwrap_or_default()),
        Job::ToText(input) => {
            let input = HtmlInput {
                reading: input.reading.for_input(name),
                ..*input
            };
            let address = input.address.and_then(|a| html::page_address(a, below));
            html::html_to_text(bytes, &input, address.as_ref(), Output::Keep)
        }
        Job::ToHtml {
            onto: Some(page), ..
        } => text::onto_html(bytes, page),
        Job::ToHtml {
            encoding,
            syntax,
            tables,
            doctype,
            onto: None,
        } => {
            let options = htmlio::emit::EmitOptions {
                encoding: encoding.unwrap_or(encoding_rs::UTF_8),
                syntax: *syntax,
                tables: *tables,
                source_lines: false,
                doctype: *doctype,
            };
            text::to_html(bytes, &options)
        }
        Job::Fmt { escapes } => text::text_round_trip(bytes, Output::Keep, *escapes),
        Job::Check {
            from,
            reading,
            address,
            main_content,
        } => match check_format(*from, name) {
            InputFormat::Text => {
                text::text_round_trip(bytes, Output::Discard, wikitext::Escapes::WhenNeeded)
            }
            InputFormat::Html => {
                let input = HtmlInput {
                    reading: reading.for_input(name),
                    keep_unsafe_links: false,
                    escapes: wikitext::Escapes::WhenNeeded,
                    address: *address,
                    main_content: *main_content,
                    format: htmlio::TextFormat::Text,
                };
                let address = address.and_then(|a| html::page_address(a, below));
                html::html_to_text(bytes, &input, address.as_ref(), Output::Discard)
            }
        },
    }
}

/// The format `check` reads an input as.
fn check_format(from: Option<InputFormat>, name: &str) -> InputFormat {
    match from {
        Some(format) => format,
        None if crate::inputs::has_extension(
            std::path::Path::new(name),
            pagetext::HTML_EXTENSIONS,
        ) =>
        {
            InputFormat::Html
        }
        None => InputFormat::Text,
    }
}
