//! One page of a crawl: an archived response's body to text through
//! `htmlio::to_text`, in the shape of its JSON line.

use microsyntax::url::Url;
use serde::Serialize;
use wikitext::DiagnosticCode;

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
    /// The language the page declares (`<html lang>`, the text's `#Lang`).
    pub(crate) lang: Option<String>,
    /// The language of the page's text as detected (a BCP 47 primary
    /// subtag such as `en` or `zh`), or null when its text has too few
    /// letters to tell.
    pub(crate) detected_lang: Option<String>,
    /// The detector's confidence in `detected_lang`, from 0 to 1.
    pub(crate) detected_lang_confidence: Option<f64>,
    /// The page as text.
    pub(crate) text: String,
    /// What was lost or changed (the libraries' warnings).
    pub(crate) warnings: Vec<CrawlDiag>,
    /// What went wrong (the libraries' errors).
    pub(crate) errors: Vec<CrawlDiag>,
    /// Under `--main-content`: what was kept and dropped (left out of the
    /// line otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) main_content: Option<crate::convert::MainContentJson>,
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
            line: d.line(),
        };
        (d.severity, diag)
    }
}

/// A page of a crawl to text: `content_type` is the HTTP header's value
/// (its charset plays the transport layer's part in sniffing), `address`
/// the page's URL (relative links resolve against it); `main_content`
/// keeps only the page's main content, and says what was dropped; `format`
/// is the text's (`--format`).
pub(super) fn crawl_page(
    bytes: &[u8],
    content_type: Option<&[u8]>,
    address: Option<&Url>,
    main_content: bool,
    format: htmlio::TextFormat,
) -> CrawlPage {
    let hints = match content_type {
        Some(value) => sniff::Hints::default().with_content_type(value),
        None => sniff::Hints::default(),
    };
    let ingest = htmlio::ingest::Options {
        hints,
        address,
        main_content,
        ..htmlio::ingest::Options::default()
    };
    let options = htmlio::TextOptions {
        detect_language: true,
        format,
        ..htmlio::TextOptions::from(ingest)
    };
    let page = htmlio::to_text(bytes, &options);
    let (mut warnings, mut errors) = (Vec::new(), Vec::new());
    for (severity, diag) in page
        .diagnostics()
        .map(|d| d.either(CrawlDiag::of, CrawlDiag::of))
    {
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
        detected_lang: page.detected_lang.as_ref().map(|d| d.code.clone()),
        detected_lang_confidence: page.detected_lang.as_ref().map(|d| round3(d.confidence)),
        text: page.text,
        warnings,
        errors,
        main_content: page
            .main_content
            .as_ref()
            .map(crate::convert::MainContentJson::from),
    }
}

/// A confidence to three decimals: what a reader of the JSON line can use,
/// without the float's noise.
fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}
