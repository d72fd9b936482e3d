//! One call per conversion: [`to_text`] (a page's bytes to the text format)
//! and [`to_xhtml`] (text to markup). Each is the whole recipe, so that the
//! CLI, the editor, a crawl and the Python package convert the same way and
//! report the same diagnostics.

use wikitext::Escapes;

use crate::emit::{self, EmitOptions, EmittedText};
use crate::ingest::{self, Settled, Summary};

/// How [`to_text`] reads a page and writes its text.
#[derive(Debug, Clone, Copy, Default)]
pub struct TextOptions<'a> {
    /// How the page is ingested: what is known of its encoding, unsafe
    /// links, html5ever's parse errors, the page's own address.
    pub ingest: ingest::Options<'a>,
    /// The text's format: the extended format, which escapes what would
    /// otherwise read as markup (`#Escape \`) and holds images and tables
    /// ([`Escapes::WhenNeeded`], the default); or pure seed text
    /// ([`Escapes::Never`]), which holds neither, so that ingestion maps
    /// the page as the seed allows ([`ingest::Options::extensions`] is set
    /// from this).
    pub escapes: Escapes,
    /// Whether to detect the language of the page's text
    /// ([`crate::lang::detect_language`]); off by default, so that a
    /// conversion pays for it only when asked.
    pub detect_language: bool,
    /// What the text is: the text format (the default), or plain text
    /// (what a reader sees, no markup: [`wikitext::plain`]).
    pub format: TextFormat,
}

/// What [`to_text`] writes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum TextFormat {
    /// The text format, which `to-html` turns back into XHTML.
    #[default]
    Text,
    /// Plain text: the words a reader sees, with no markup and no header
    /// (link URLs left out, images as their alternative text). It cannot
    /// be read back; the writer's diagnostics do not apply to it.
    Plain,
    /// CommonMark with GFM tables ([`wikitext::markdown`]).
    Markdown,
}

/// A page in the text format, with what was decided and lost on the way.
#[derive(Debug, Clone)]
pub struct TextPage {
    /// The page in the text format.
    pub text: String,
    /// The encoding the page was read in, and why.
    pub encoding: Settled,
    /// Which step decided the encoding, as one stable name
    /// ([`Settled::source_kind`]: `bom`, `transport`, `meta`,
    /// `meta-confirmed`, `meta-changed`, `autodetected`, `default`...).
    pub source: &'static str,
    /// The page's `<title>`.
    pub title: Option<String>,
    /// The page's language, as the page declares it.
    pub lang: Option<String>,
    /// The language of the page's text as detected, when
    /// [`TextOptions::detect_language`] asked for it and the text has
    /// enough letters to tell.
    pub detected_lang: Option<crate::lang::Detected>,
    /// What the main-content selection kept and dropped (a count of the
    /// parts dropped and their kinds), when
    /// [`ingest::Options::main_content`] asked for it.
    pub main_content: Option<ingest::main_content::MainContent>,
    /// Ingestion's diagnostics: every loss and notable mapping, by the
    /// page's source line.
    pub ingest_diagnostics: Vec<ingest::Diagnostic>,
    /// The writer's diagnostics: what the text format could not hold as
    /// the document said it, at the positions of the document's nodes
    /// (their source lines).
    pub write_diagnostics: Vec<wikitext::Diagnostic>,
    /// Ingestion's diagnostics grouped and its ballast counted, for a
    /// person to read.
    pub summary: Summary,
}

impl TextPage {
    /// Every diagnostic of the conversion, ingestion's first (by the page's
    /// source line), then the writer's: the one list a caller reports.
    ///
    /// ```
    /// use wikitext::Severity;
    ///
    /// // `del` keeps its text and loses its meaning (`$50 $30` reads as if
    /// // the first price stood): ingestion warns.
    /// let page = htmlio::to_text(b"<p><del>$50</del> $30", &Default::default());
    /// let all: Vec<_> = page.diagnostics().map(|d| (d.code(), d.severity())).collect();
    /// assert_eq!(all, [("presentation-lost", Severity::Warning)]);
    /// assert_eq!(all.len(), page.ingest_diagnostics.len() + page.write_diagnostics.len());
    /// ```
    pub fn diagnostics(&self) -> impl Iterator<Item = PageDiagnostic<'_>> {
        let ingest = self.ingest_diagnostics.iter().map(PageDiagnostic::Ingest);
        ingest.chain(self.write_diagnostics.iter().map(PageDiagnostic::Write))
    }
}

/// One diagnostic of [`TextPage::diagnostics`]: ingestion's or the
/// writer's, which carry codes of two kinds.
#[derive(Debug, Clone, Copy)]
pub enum PageDiagnostic<'p> {
    /// Ingestion's: a loss or a notable mapping, at the page's source line.
    Ingest(&'p ingest::Diagnostic),
    /// The writer's: what the text could not hold as the document said it.
    Write(&'p wikitext::Diagnostic),
}

impl<'p> PageDiagnostic<'p> {
    /// `ingest` or `write` applied to the diagnostic, whichever it is: a
    /// function generic over the code type, such as a formatter, serves
    /// as both.
    pub fn either<T>(
        self,
        ingest: impl FnOnce(&'p ingest::Diagnostic) -> T,
        write: impl FnOnce(&'p wikitext::Diagnostic) -> T,
    ) -> T {
        match self {
            PageDiagnostic::Ingest(d) => ingest(d),
            PageDiagnostic::Write(d) => write(d),
        }
    }

    /// The stable kebab-case name of its code.
    pub fn code(self) -> &'static str {
        self.either(|d| d.code.as_str(), |d| d.code.as_str())
    }

    /// How much it matters.
    pub fn severity(self) -> wikitext::Severity {
        self.either(|d| d.severity, |d| d.severity)
    }
}

/// A web page, as bytes in any charset, to the text format: ingestion
/// ([`ingest::ingest`]: sniffing, decoding, html5ever, the mapping to the
/// document model), then [`wikitext::write_with`] under ingestion's
/// [`ingest::POLICY`] with the caller's choice of escapes. Never fails:
/// any bytes give a text, and every loss is a diagnostic.
///
/// ```
/// let options = htmlio::TextOptions {
///     ingest: htmlio::ingest::Options {
///         hints: sniff::Hints::default().with_content_type(b"text/html; charset=koi8-r"),
///         ..Default::default()
///     },
///     ..Default::default()
/// };
/// let page = htmlio::to_text(b"<title>\xf0\xd2\xc9\xd7\xc5\xd4</title><p>x", &options);
/// assert_eq!(page.text, "#Title Привет\n\nx\n");
/// assert_eq!((page.encoding.encoding.name(), page.source), ("KOI8-R", "transport"));
/// ```
pub fn to_text(bytes: &[u8], options: &TextOptions<'_>) -> TextPage {
    // Pure seed text holds no image: the page's are mapped as the seed
    // allows, with ingestion's own notes.
    let ingest_options = ingest::Options {
        extensions: options.escapes == Escapes::WhenNeeded,
        ..options.ingest
    };
    let ingest::Ingested {
        document,
        diagnostics,
        encoding,
        summary,
    } = ingest::ingest(bytes, &ingest_options);
    let title = document.meta.title.clone();
    let lang = document.meta.lang.clone();
    let detected_lang = if options.detect_language {
        crate::lang::detect_language(&document)
    } else {
        None
    };
    let policy = wikitext::Policy {
        escapes: options.escapes,
        ..ingest::POLICY
    };
    // The writer owns the document: it is freed before the text is
    // returned (peak memory on large pages).
    let written = match options.format {
        TextFormat::Text => wikitext::write_with(document, &policy),
        TextFormat::Plain => wikitext::Written {
            text: wikitext::plain(&document),
            ..wikitext::Written::default()
        },
        TextFormat::Markdown => wikitext::Written {
            text: wikitext::markdown(&document),
            ..wikitext::Written::default()
        },
    };
    TextPage {
        text: written.text,
        source: encoding.source_kind(),
        encoding,
        title,
        lang,
        detected_lang,
        main_content: summary.main_content.clone(),
        ingest_diagnostics: diagnostics,
        write_diagnostics: written.diagnostics,
        summary,
    }
}

/// Text in the text format to XHTML 1.0 (or the HTML syntax), as the
/// options say: the parser's events straight into the emitter, no tree in
/// between ([`emit::emit_text`]). The result holds the markup with
/// emission's diagnostics, and the parser's diagnostics. Never fails.
///
/// ```
/// use htmlio::emit::{Code, EmitOptions};
///
/// let options = EmitOptions {
///     encoding: htmlio::encoding_rs::WINDOWS_1252,
///     ..EmitOptions::default()
/// };
/// let out = htmlio::to_xhtml("#Title Hi\n\n= Hi =\n\n2 €, 1 ☃\n", &options);
/// assert!(out.emitted.text.contains("<h1>Hi</h1>"));
/// assert_eq!(out.emitted.encoding, htmlio::encoding_rs::WINDOWS_1252);
/// // windows-1252 lacks the snowman: a character reference, reported.
/// assert!(out.emitted.bytes.ends_with(b"<p>2 \x80, 1 &#9731;</p>\n</body>\n</html>\n"));
/// assert_eq!(out.emitted.diagnostics[0].code, Code::CharacterReferences);
/// assert!(out.parsed.is_empty());
/// ```
pub fn to_xhtml(text: &str, options: &EmitOptions) -> EmittedText {
    emit::emit_text(text, options)
}

impl<'a> From<ingest::Options<'a>> for TextOptions<'a> {
    /// Ingestion as `ingest` says, escapes where needed.
    fn from(ingest: ingest::Options<'a>) -> Self {
        TextOptions {
            ingest,
            escapes: Escapes::WhenNeeded,
            detect_language: false,
            format: TextFormat::Text,
        }
    }
}
