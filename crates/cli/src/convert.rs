//! What each command does to one input's bytes: the glue between the CLI and
//! the libraries (`sniff`, `wikitext`, `htmlio`). No printing, no files:
//! bytes in, a [`Converted`] (or a reason for failing) out.

use microsyntax::url::Url;
use pagetext::InputFormat;
use serde::Serialize;
use wikitext::{DiagnosticCode, Precision};

use crate::diag::{Diag, Severity, line_column};

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
    pub(crate) rules: sniff::Rules,
    /// The input is an `.xhtml` file, read as XML as a browser reads one
    /// (its XML declaration decides, else UTF-8).
    pub(crate) xml: bool,
}

impl Reading {
    /// The sniffing algorithm's hints.
    pub(crate) fn hints(&self) -> sniff::Hints<'static> {
        sniff::Hints {
            transport: self.charset,
            ..sniff::Hints::default()
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
        }
    }
}

/// The address of a page found at `below` (its path below the directory
/// argument) when the directory's address is `base`: `base` joined with the
/// path, as a directory (a slash is added to `base` when it has none).
/// A page given by itself has `base` as its address.
pub(crate) fn page_address(base: &Url, below: Option<&std::path::Path>) -> Option<Url> {
    let Some(below) = below else {
        return Some(base.clone());
    };
    let mut dir = base.clone();
    if !dir.path().ends_with('/') {
        let path = format!("{}/", dir.path());
        dir.set_path(&path);
    }
    let relative: Vec<String> = below
        .components()
        .filter_map(|c| match c {
            std::path::Component::Normal(part) => Some(part.to_string_lossy().into_owned()),
            _ => None,
        })
        .collect();
    // Each part is one path segment: `?`, `#` and `%` in a file name are
    // part of it, not URL syntax.
    let mut page = dir;
    {
        let mut segments = page.path_segments_mut().ok()?;
        segments.pop_if_empty();
        segments.extend(relative.iter().map(String::as_str));
    }
    Some(page)
}

/// Whether a conversion keeps what it wrote or only reports on the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Output {
    /// Keep the output (`to-text`, `fmt`).
    Keep,
    /// Diagnostics only (`check`): the output is dropped.
    Discard,
}

/// The encoding the pipeline settled on for one file, as `sniff` prints it.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct SniffReport {
    /// The encoding's WHATWG name.
    #[serde(serialize_with = "encoding_name")]
    pub(crate) encoding: &'static encoding_rs::Encoding,
    /// Certain or tentative.
    pub(crate) confidence: sniff::Confidence,
    /// Why, as an object with a `kind`.
    pub(crate) source: SniffSource,
    /// What the pipeline said, for the human-readable line (its `Display`
    /// is that line without the path).
    #[serde(skip)]
    pub(crate) settled: htmlio::ingest::Settled,
}

/// Why the pipeline settled on an encoding, for `sniff --json`: the sniffing
/// step that decided (the `sniff` crate's own object: `bom`, `transport`,
/// `meta`, `autodetected`, `default`...), or a `<meta>` the parser met later
/// that confirmed or changed it.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub(crate) enum SniffSource {
    /// The sniffing algorithm decided and nothing changed it.
    Sniffed(sniff::Source),
    /// A `<meta>` met while parsing confirmed or changed the encoding.
    Parser {
        /// `meta-confirmed` or `meta-changed`.
        kind: &'static str,
        /// The line of that `<meta>`.
        line: u32,
        /// What it declared (before the standard's substitutions).
        #[serde(
            skip_serializing_if = "Option::is_none",
            serialize_with = "opt_encoding_name"
        )]
        declared: Option<&'static encoding_rs::Encoding>,
        /// The tentative encoding sniffing had given.
        #[serde(serialize_with = "encoding_name")]
        sniffed_encoding: &'static encoding_rs::Encoding,
        /// Why sniffing had given it.
        sniffed: sniff::Source,
    },
}

fn encoding_name<S: serde::Serializer>(
    encoding: &&'static encoding_rs::Encoding,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(encoding.name())
}

fn opt_encoding_name<S: serde::Serializer>(
    encoding: &Option<&'static encoding_rs::Encoding>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    match encoding {
        Some(e) => serializer.serialize_str(e.name()),
        None => serializer.serialize_none(),
    }
}

impl SniffReport {
    /// The report for what the ingestion pipeline settled on.
    pub(crate) fn new(
        settled: &htmlio::ingest::Settled,
        sniffed_encoding: &'static encoding_rs::Encoding,
    ) -> SniffReport {
        use htmlio::ingest::Why;
        let source = match settled.why {
            Why::Sniffed(source) => SniffSource::Sniffed(source),
            // Not produced for bytes; shown as what it is.
            Why::Text => SniffSource::Sniffed(sniff::Source::UserOverride),
            Why::Confirmed { sniffed, line } => SniffSource::Parser {
                kind: "meta-confirmed",
                line,
                declared: None,
                sniffed_encoding,
                sniffed,
            },
            Why::Changed {
                from,
                sniffed,
                declared,
                line,
                ..
            } => SniffSource::Parser {
                kind: "meta-changed",
                line,
                declared: Some(declared),
                sniffed_encoding: from,
                sniffed,
            },
        };
        SniffReport {
            encoding: settled.encoding,
            confidence: settled.confidence,
            source,
            settled: *settled,
        }
    }
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
}

/// Why an input failed as a whole (read errors are handled by the caller).
pub(crate) type Failure = String;

/// How many leading bytes are looked at to tell binary data from text.
const BINARY_PROBE: usize = 8 * 1024;

/// The signatures of binary formats a directory of pages commonly holds.
const SIGNATURES: &[(&[u8], &str)] = &[
    (b"\x89PNG\r\n\x1a\n", "a PNG image"),
    (b"GIF87a", "a GIF image"),
    (b"GIF89a", "a GIF image"),
    (b"\xFF\xD8\xFF", "a JPEG image"),
    (b"%PDF-", "a PDF document"),
    (b"PK\x03\x04", "a ZIP archive"),
    (b"PK\x05\x06", "a ZIP archive"),
    (b"\x1F\x8B", "gzip-compressed data"),
    (b"\xFD7zXZ\x00", "xz-compressed data"),
    (b"7z\xBC\xAF\x27\x1C", "a 7-Zip archive"),
    (b"\x7FELF", "an ELF executable"),
];

/// Why `bytes` are binary data rather than text, if they are: a known
/// binary signature at the start, or mostly control bytes in the first
/// [`BINARY_PROBE`] bytes (C0 controls other than tab, line feed, form
/// feed, carriage return and escape, which ISO-2022-JP uses; NUL counts).
/// A NUL alone never makes a file binary: the HTML parser reads it (as
/// U+FFFD), and real pages carry NUL padding. UTF-16 text, which is half
/// NULs when its characters are ASCII, is never binary when `utf16` says a
/// BOM, the transport or a declaration names UTF-16 (asked only when the
/// bytes look like control bytes).
pub(crate) fn binary_reason(bytes: &[u8], utf16: impl FnOnce() -> bool) -> Option<String> {
    if let Some((_, what)) = SIGNATURES.iter().find(|(sig, _)| bytes.starts_with(sig)) {
        return Some((*what).to_owned());
    }
    let probe = bytes.get(..BINARY_PROBE).unwrap_or(bytes);
    let control = probe
        .iter()
        .filter(|&&b| (b < 0x20 && !matches!(b, b'\t' | b'\n' | 0x0C | b'\r' | 0x1B)) || b == 0x7F)
        .count();
    if probe.len() >= 32 && control * 2 > probe.len() && !utf16() {
        return Some(format!(
            "mostly control bytes: {control} of the first {}",
            probe.len()
        ));
    }
    None
}

/// Whether `encoding` is UTF-16 (either byte order).
fn is_utf16(encoding: &'static encoding_rs::Encoding) -> bool {
    encoding == encoding_rs::UTF_16LE || encoding == encoding_rs::UTF_16BE
}

impl Job {
    /// The sniffing hints for the HTML input `name` (the command line's
    /// reading of it, and for `sniff` its `--content-type`), or `None` when
    /// the job reads the text format.
    fn hints(&self, name: &str) -> Option<sniff::Hints<'static>> {
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

    /// Whether the sniffing algorithm, with this job's hints, takes `bytes`
    /// for UTF-16 (from a BOM, the transport or a declaration); for the
    /// text format, whether they start with a UTF-16 BOM.
    fn names_utf16(&self, name: &str, bytes: &[u8]) -> bool {
        let Some(hints) = self.hints(name) else {
            return bytes.starts_with(b"\xFF\xFE") || bytes.starts_with(b"\xFE\xFF");
        };
        // Autodetection never answers UTF-16: leave it out.
        is_utf16(sniff::sniff(bytes, &hints.with_autodetect(None)).encoding)
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
    if let Some(why) = binary_reason(bytes, || job.names_utf16(name, bytes)) {
        return Err(format!(
            "binary data, not {} ({why})",
            match job {
                Job::ToHtml { .. } | Job::Fmt { .. } => "text",
                Job::Check { from, .. } => match check_format(*from, name) {
                    InputFormat::Text => "text",
                    InputFormat::Html => "HTML",
                },
                Job::ToText { .. } | Job::Sniff { .. } => "HTML",
            }
        ));
    }
    match job {
        Job::Sniff { .. } => Ok(settle(bytes, &job.hints(name).unwrap_or_default())),
        Job::ToText(input) => {
            let input = HtmlInput {
                reading: input.reading.for_input(name),
                ..*input
            };
            let address = input.address.and_then(|a| page_address(a, below));
            Ok(html_to_text(bytes, &input, address.as_ref(), Output::Keep))
        }
        Job::ToHtml {
            encoding,
            syntax,
            tables,
        } => Ok(to_html(bytes, *encoding, *syntax, *tables)),
        Job::Fmt { escapes } => Ok(text_round_trip(bytes, Output::Keep, *escapes)),
        Job::Check {
            from,
            reading,
            address,
        } => match check_format(*from, name) {
            InputFormat::Text => Ok(text_round_trip(
                bytes,
                Output::Discard,
                wikitext::Escapes::WhenNeeded,
            )),
            InputFormat::Html => {
                let input = HtmlInput {
                    reading: reading.for_input(name),
                    keep_unsafe_links: false,
                    escapes: wikitext::Escapes::WhenNeeded,
                    address: *address,
                };
                let address = address.and_then(|a| page_address(a, below));
                Ok(html_to_text(
                    bytes,
                    &input,
                    address.as_ref(),
                    Output::Discard,
                ))
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

/// `sniff`: the encoding the whole ingestion pipeline settles on (sniffing,
/// then a `<meta>` the parser meets while the encoding is tentative).
fn settle(bytes: &[u8], hints: &sniff::Hints<'_>) -> Converted {
    let sniffed = sniff::sniff(bytes, hints);
    let settled = htmlio::ingest::settle_encoding(bytes, hints);
    Converted {
        encoding: Some(settled.encoding),
        sniff: Some(SniffReport::new(&settled, sniffed.encoding)),
        ..Converted::default()
    }
}

/// `to-text` (and `check` on HTML): bytes -> document (ingestion) -> text
/// (the writer checks it by parsing it again). The source lines shown under
/// diagnostics are the page decoded as ingestion decoded it.
pub(crate) fn html_to_text(
    bytes: &[u8],
    input: &HtmlInput,
    address: Option<&Url>,
    output: Output,
) -> Converted {
    let options = htmlio::TextOptions {
        ingest: input.ingest_options(address),
        escapes: input.escapes,
    };
    let page = htmlio::to_text(bytes, &options);
    let mut diagnostics = vec![Diag::new(
        Severity::Note,
        "encoding",
        format!("read as {}", page.encoding),
    )];
    diagnostics.extend(page.ingest_diagnostics.iter().map(from_library));
    diagnostics.extend(page.write_diagnostics.iter().map(from_library));
    sort_by_position(&mut diagnostics);
    let source = diagnostics.iter().any(|d| d.line.is_some()).then(|| {
        sniff::decode(bytes, page.encoding.encoding)
            .text
            .into_owned()
    });
    Converted {
        output: (output == Output::Keep).then(|| page.text.into_bytes()),
        encoding: Some(page.encoding.encoding),
        summary: Some(page.summary.to_string()),
        diagnostics,
        source,
        ..Converted::default()
    }
}

/// One page of a crawl (`to-text --warc`), as one JSON line says it.
#[derive(Debug, Serialize)]
pub(crate) struct CrawlPage {
    /// The encoding's WHATWG name.
    pub(crate) encoding: &'static str,
    /// Which step of sniffing decided (`transport` for the HTTP header's
    /// charset, `meta`, `autodetected`...; `meta-changed` when the parser
    /// met a `<meta>` that changed it).
    pub(crate) encoding_source: &'static str,
    /// The `<title>`.
    pub(crate) title: Option<String>,
    /// The language of the page.
    pub(crate) lang: Option<String>,
    /// The page as text.
    pub(crate) text: String,
    /// What was lost or changed (the libraries' warnings).
    pub(crate) warnings: Vec<CrawlDiag>,
    /// What went wrong (the libraries' errors).
    pub(crate) errors: Vec<CrawlDiag>,
}

/// A diagnostic in a crawl's JSON line.
#[derive(Debug, Serialize)]
pub(crate) struct CrawlDiag {
    /// The stable code.
    pub(crate) code: &'static str,
    /// What happened.
    pub(crate) message: String,
    /// The line of the page, when known.
    pub(crate) line: Option<u32>,
}

impl CrawlDiag {
    /// A library diagnostic as a crawl's line says it, with its severity
    /// (which list it goes in).
    fn of<C: DiagnosticCode>(d: &wikitext::Diagnostic<C>) -> (wikitext::Severity, CrawlDiag) {
        let diag = CrawlDiag {
            code: d.code.as_str(),
            message: d.message.clone(),
            line: (d.span.line > 0).then_some(d.span.line),
        };
        (d.severity, diag)
    }
}

/// A page of a crawl to text: `content_type` is the HTTP header's value
/// (its charset plays the transport layer's part in sniffing), `address`
/// the page's URL (relative links resolve against it).
pub(crate) fn crawl_page(
    bytes: &[u8],
    content_type: Option<&[u8]>,
    address: Option<&Url>,
) -> CrawlPage {
    let hints = match content_type {
        Some(value) => sniff::Hints::default().with_content_type(value),
        None => sniff::Hints::default(),
    };
    let ingest = htmlio::ingest::Options {
        hints,
        address,
        ..htmlio::ingest::Options::default()
    };
    let page = htmlio::to_text(bytes, &htmlio::TextOptions::from(ingest));
    let (mut warnings, mut errors) = (Vec::new(), Vec::new());
    let ingest = page.ingest_diagnostics.iter().map(CrawlDiag::of);
    let write = page.write_diagnostics.iter().map(CrawlDiag::of);
    for (severity, diag) in ingest.chain(write) {
        match severity {
            wikitext::Severity::Error => errors.push(diag),
            wikitext::Severity::Warning => warnings.push(diag),
            wikitext::Severity::Info => {}
        }
    }
    CrawlPage {
        encoding: page.encoding.encoding.name(),
        encoding_source: page.source,
        title: page.title,
        lang: page.lang,
        text: page.text,
        warnings,
        errors,
    }
}

/// `to-html`: text -> events -> XHTML (or HTML) bytes.
fn to_html(
    bytes: &[u8],
    encoding: Option<&'static encoding_rs::Encoding>,
    syntax: htmlio::emit::Syntax,
    tables: bool,
) -> Converted {
    let (text, input_encoding, mut diagnostics) = decode_text(bytes);
    let options = htmlio::emit::EmitOptions {
        encoding: encoding.unwrap_or(encoding_rs::UTF_8),
        syntax,
        tables,
    };
    let htmlio::emit::EmittedText { emitted, parsed } = htmlio::to_xhtml(&text, &options);
    diagnostics.extend(parsed.iter().map(from_library));
    diagnostics.extend(emitted.diagnostics.iter().map(from_library));
    sort_by_position(&mut diagnostics);
    Converted {
        output_encoding: (emitted.encoding != encoding_rs::UTF_8).then_some(emitted.encoding),
        output: Some(emitted.bytes),
        encoding: Some(input_encoding),
        diagnostics,
        source: Some(text),
        ..Converted::default()
    }
}

/// What the editor shows for text as it is typed (`pagetext edit`): the
/// XHTML of the preview (as `to-html --tables` writes it, in UTF-8), and
/// the diagnostics `check` gives (the parser's, dangling references, near
/// misses, the writer's) with emission's, by position.
pub(crate) fn edit_view(text: &str) -> (String, Vec<Diag>) {
    let options = htmlio::emit::EmitOptions {
        tables: true,
        ..htmlio::emit::EmitOptions::default()
    };
    let emitted = htmlio::to_xhtml(text, &options).emitted;
    let mut diagnostics: Vec<Diag> = wikitext::check(text).iter().map(from_library).collect();
    diagnostics.extend(emitted.diagnostics.iter().map(from_library));
    sort_by_position(&mut diagnostics);
    (emitted.text, diagnostics)
}

/// A page saved by the editor: the bytes, their encoding, and what the
/// person should be told.
pub(crate) struct Saved {
    /// The file's new contents.
    pub(crate) bytes: Vec<u8>,
    /// Their encoding.
    pub(crate) encoding: &'static encoding_rs::Encoding,
    /// Notices: a charset that could not hold every character, the writer's
    /// losses.
    pub(crate) notices: Vec<String>,
    /// For a text page, the canonical text that was written.
    pub(crate) text: Option<String>,
}

/// An HTML page as the editor saves it: XHTML as `to-html --tables` writes
/// it, in `encoding` (the page's own) when that holds every character, and
/// otherwise in UTF-8 with a notice (a character reference or a replaced
/// control character would not be the character itself).
pub(crate) fn save_html(text: &str, encoding: &'static encoding_rs::Encoding) -> Saved {
    use htmlio::emit::Code;
    let emit = |encoding| {
        let options = htmlio::emit::EmitOptions {
            encoding,
            syntax: htmlio::emit::Syntax::Xhtml,
            tables: true,
        };
        htmlio::to_xhtml(text, &options).emitted
    };
    let mut notices = Vec::new();
    let mut emitted = emit(encoding);
    let short = emitted.diagnostics.iter().any(|d| {
        matches!(
            d.code,
            Code::CharacterReferences | Code::UnencodableControl | Code::EncodingSubstituted
        )
    });
    if short && encoding != encoding_rs::UTF_8 {
        notices.push(format!(
            "{} cannot hold every character of the page: saved as UTF-8",
            encoding.name()
        ));
        emitted = emit(encoding_rs::UTF_8);
    }
    notices.extend(emitted.diagnostics.iter().map(|d| d.message.clone()));
    Saved {
        encoding: emitted.encoding,
        bytes: emitted.bytes,
        notices,
        text: None,
    }
}

/// A text page as the editor saves it: its canonical text, in UTF-8, with
/// the writer's and parser's warnings as notices.
pub(crate) fn save_text(text: &str) -> Saved {
    let converted = text_round_trip(text.as_bytes(), Output::Keep, wikitext::Escapes::WhenNeeded);
    let bytes = converted.output.unwrap_or_default();
    let notices = converted
        .diagnostics
        .iter()
        .filter(|d| d.severity != Severity::Note)
        .map(|d| match d.line {
            Some(line) => format!("line {line}: {}", d.message),
            None => d.message.clone(),
        })
        .collect();
    Saved {
        text: Some(String::from_utf8_lossy(&bytes).into_owned()),
        bytes,
        encoding: encoding_rs::UTF_8,
        notices,
    }
}

/// `fmt` and `check` on text: parse, write the canonical text (the writer
/// checks it by parsing it again), and report what both said. `fmt` keeps
/// the canonical text as its output.
fn text_round_trip(bytes: &[u8], output: Output, escapes: wikitext::Escapes) -> Converted {
    let (text, encoding, mut diagnostics) = decode_text(bytes);
    if output == Output::Discard {
        // `check`: the library's whole account (parser, dangling links,
        // near misses, writer).
        diagnostics.extend(wikitext::check(&text).iter().map(from_library));
        sort_by_position(&mut diagnostics);
        return Converted {
            encoding: Some(encoding),
            diagnostics,
            source: Some(text),
            ..Converted::default()
        };
    }
    let parsed = wikitext::parse(&text);
    diagnostics.extend(parsed.diagnostics.iter().map(from_library));
    let policy = wikitext::Policy {
        escapes,
        ..wikitext::Policy::DEFAULT
    };
    let written = wikitext::write_with(parsed.document, &policy);
    diagnostics.extend(written.diagnostics.iter().map(from_library));
    sort_by_position(&mut diagnostics);
    let changed = written.text.as_bytes() != bytes;
    Converted {
        output: Some(written.text.into_bytes()),
        encoding: Some(encoding),
        diagnostics,
        source: Some(text),
        changed: Some(changed),
        ..Converted::default()
    }
}

/// Library severities in the CLI's terms: what the libraries call an error
/// is a reported loss (the output is still written), a warning unless
/// `--strict`; their informational notes are notes.
fn severity(severity: wikitext::Severity) -> Severity {
    match severity {
        wikitext::Severity::Error | wikitext::Severity::Warning => Severity::Warning,
        wikitext::Severity::Info => Severity::Note,
    }
}

fn position(diag: Diag, line: u32, column: u32) -> Diag {
    match (usize::try_from(line), usize::try_from(column)) {
        (Ok(line), Ok(column)) if line > 0 => diag.at(line, column.max(1)),
        _ => diag,
    }
}

/// A library diagnostic in the CLI's terms: the text format's parser and
/// writer (`wikitext::Diagnostic`), ingestion (`htmlio::ingest::Diagnostic`)
/// and emission (`htmlio::emit::Diagnostic`) alike. Spans of [`Precision::Column`] codes are placed at their line and
/// column (column 1 when only the line is known) and underlined to their end
/// on the same line; spans of [`Precision::Line`] codes mark their whole line.
fn from_library<C: DiagnosticCode>(d: &wikitext::Diagnostic<C>) -> Diag {
    let diag = Diag::new(severity(d.severity), d.code.as_str(), d.message.clone());
    match C::PRECISION {
        Precision::Column => {
            let diag = position(diag, d.span.line, d.span.column);
            if d.span.end_line == d.span.line {
                diag.until_column(usize::try_from(d.span.end_column).unwrap_or(0))
            } else {
                diag
            }
        }
        Precision::Line => match usize::try_from(d.span.line) {
            Ok(line) if line > 0 => diag.at_line(line),
            _ => diag,
        },
    }
}

/// Orders diagnostics by line (stable: those without a line first, then
/// the libraries' own order within a line).
fn sort_by_position(diagnostics: &mut [Diag]) {
    diagnostics.sort_by_key(|d| (d.line.unwrap_or(0), d.column.unwrap_or(0)));
}

/// Text-format input as a string: UTF-8 (a UTF-8 or UTF-16 byte order mark is
/// honoured and removed); malformed sequences become U+FFFD with a warning at
/// the first one, since that is a loss.
pub(crate) fn decode_text(bytes: &[u8]) -> (String, &'static encoding_rs::Encoding, Vec<Diag>) {
    let (encoding, bom) = encoding_rs::Encoding::for_bom(bytes).unwrap_or((encoding_rs::UTF_8, 0));
    let body = bytes.get(bom..).unwrap_or(bytes);
    let (text, had_errors) = encoding.decode_without_bom_handling(body);
    let mut diags = Vec::new();
    if had_errors {
        let first = first_invalid_offset(encoding, body, &text);
        let (line, column) = line_column(&text, first);
        diags.push(
            Diag::new(
                Severity::Warning,
                "invalid-utf8",
                format!(
                    "the input is not valid {}: malformed bytes replaced by U+FFFD, the first one here",
                    encoding.name()
                ),
            )
            .at(line, column),
        );
    }
    (text.into_owned(), encoding, diags)
}

/// The byte offset in `text` of the first replacement character that stands
/// for a malformed sequence of `body` (for UTF-8: where validation stopped).
fn first_invalid_offset(
    encoding: &'static encoding_rs::Encoding,
    body: &[u8],
    text: &str,
) -> usize {
    if encoding == encoding_rs::UTF_8
        && let Err(e) = std::str::from_utf8(body)
    {
        return e.valid_up_to();
    }
    text.find('\u{FFFD}').unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binary_data_is_told_by_signatures_and_control_bytes_never_by_a_nul() {
        let never = || false;
        assert_eq!(
            binary_reason(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR", never).as_deref(),
            Some("a PNG image")
        );
        assert_eq!(
            binary_reason(b"%PDF-1.4\n", never).as_deref(),
            Some("a PDF document")
        );
        assert_eq!(
            binary_reason(b"\x1F\x8B\x08\0", never).as_deref(),
            Some("gzip-compressed data")
        );
        assert_eq!(binary_reason(b"<p>plain</p>", never), None);
        // NULs in a page: padding, a stray one.
        assert_eq!(binary_reason(b"<p>a\0b</p>", never), None);
        let mut padded = b"<html><body><p>text</p></body></html>".to_vec();
        padded.extend([0u8; 30]);
        assert_eq!(binary_reason(&padded, never), None);
        // Mostly control bytes.
        let noise: Vec<u8> = (0u8..64).map(|i| i % 8).collect();
        assert!(
            binary_reason(&noise, never).is_some_and(|w| w.starts_with("mostly control bytes"))
        );
        // ...unless UTF-16 is named.
        assert_eq!(binary_reason(&noise, || true), None);
        // UTF-16 text of ASCII characters is half NULs: not mostly.
        let utf16: Vec<u8> = "<p>Hello, world, and more text</p>"
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        assert_eq!(binary_reason(&utf16, never), None);
    }

    #[test]
    fn text_is_utf8_with_boms_honoured() {
        assert_eq!(decode_text(b"\xEF\xBB\xBFcaf\xC3\xA9").0, "café");
        let (text, encoding, _) = decode_text(b"\xFF\xFEh\0i\0");
        assert_eq!((text.as_str(), encoding), ("hi", encoding_rs::UTF_16LE));
        let (text, _, diags) = decode_text(b"ok\nab\xFFc\xFE");
        assert_eq!(text, "ok\nab\u{FFFD}c\u{FFFD}");
        assert_eq!(diags.len(), 1);
        assert_eq!((diags[0].line, diags[0].column), (Some(2), Some(3)));
    }

    #[test]
    fn library_diagnostics_are_placed_as_precisely_as_their_codes_know() {
        // Ingestion knows lines: the whole line, no column.
        let ingest = htmlio::ingest::Diagnostic::at_line(
            htmlio::ingest::Code::UnsafeLink,
            wikitext::Severity::Warning,
            6,
            "m",
        );
        let d = from_library(&ingest);
        assert_eq!(
            (d.code.as_str(), d.line, d.column),
            ("unsafe-link", Some(6), None)
        );
        // The text format knows columns: a node known by its line only is
        // placed at column 1; a range on one line is underlined.
        let written = wikitext::Diagnostic::at_line(
            wikitext::Code::NotRoundTrip,
            wikitext::Severity::Warning,
            6,
            "m",
        );
        let d = from_library(&written);
        assert_eq!((d.line, d.column, d.end_column), (Some(6), Some(1), None));
        let parsed = wikitext::Diagnostic::new(
            wikitext::Code::UnknownHeaderLine,
            wikitext::Severity::Warning,
            "m",
            wikitext::Span::new(1, 1, 1, 20),
        );
        let d = from_library(&parsed);
        assert_eq!(
            (d.line, d.column, d.end_column),
            (Some(1), Some(1), Some(20))
        );
        // Unknown lines are no position at all.
        let d = from_library(&htmlio::ingest::Diagnostic::at_line(
            htmlio::ingest::Code::UnsafeLink,
            wikitext::Severity::Warning,
            0,
            "m",
        ));
        assert_eq!((d.line, d.column), (None, None));
    }
}
