//! Emission of a [`wikitext::Document`] as XHTML 1.0 (the default) or in the
//! HTML syntax.
//!
//! # The XHTML profile
//!
//! No DOCTYPE (the seed: "without using an explicit document type
//! declaration"), unless [`EmitOptions::doctype`] asks for XHTML 1.0
//! Transitional's; `<html>` carries the XHTML namespace and, from `#Lang`,
//! both `lang` and `xml:lang`. The `head` starts with the content-type
//! `meta` naming the output encoding, then the `title` (always, even empty,
//! as the DTD requires), one `meta` per `#Meta:` line and one `link` per
//! `#Link:` line. Output is UTF-8 unless another encoding is asked for; then
//! an XML declaration names it too, and characters the encoding lacks are
//! written as numeric character references.
//!
//! The markup is XHTML 1.0 Transitional (for `compact`, `type` and `a/@name`)
//! and polyglot: an HTML parser builds the same element tree from it as an
//! XML parser.
//!
//! The element mapping and the layout are described in the crate docs.
//!
//! ```
//! use htmlio::emit::{self, EmitOptions};
//!
//! let doc = wikitext::Document::new(
//!     wikitext::Metadata { title: Some("Hi".into()), ..Default::default() },
//!     vec![wikitext::Block::paragraph(vec![wikitext::Inline::text("a < b")])],
//! );
//! let out = emit::emit(&doc, &EmitOptions::default());
//! assert_eq!(out.text, "\
//! <html xmlns=\"http://www.w3.org/1999/xhtml\">
//! <head>
//! <meta http-equiv=\"Content-Type\" content=\"text/html; charset=UTF-8\" />
//! <title>Hi</title>
//! </head>
//! <body>
//! <p>a &lt; b</p>
//! </body>
//! </html>
//! ");
//! assert!(out.diagnostics.is_empty());
//! ```

mod body;
mod check;
mod image;
mod preview;
mod rows;
mod table;
mod walk;

use std::fmt;

use encoding_rs::{Encoding, UTF_8};
use wikitext::events::Positioned;
use wikitext::{Document, Metadata, Precision, Severity, Span};

use crate::serialize::{HtmlOptions, HtmlSerializer, XhtmlSerializer};
pub use preview::{PreviewBlock, PreviewParts, preview_parts};
use walk::Walker;

/// Which syntax to write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Syntax {
    /// XHTML 1.0 in the XML syntax, polyglot (see the module docs).
    #[default]
    Xhtml,
    /// The HTML syntax of seed 003, with `<!DOCTYPE html>`.
    Html {
        /// Leave out the start and end tags the optional-tag rules allow.
        omit_optional_tags: bool,
    },
}

/// How to emit a document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EmitOptions {
    /// The output encoding. UTF-16, `replacement` and x-user-defined, which
    /// cannot be written, give UTF-8 with a diagnostic.
    pub encoding: &'static Encoding,
    /// The syntax.
    pub syntax: Syntax,
    /// Write a compact definition list with the shape of a regular grid
    /// (the seed's emulated table) as a real `<table>`, a first row of
    /// strong cells as its header (`to-html --tables`). Ingesting that
    /// table gives back the same text. Off by default: the seed's output.
    pub tables: bool,
    /// Mark each block element (paragraph, heading, preformatted text,
    /// blockquote, item, term, definition, table, row, rule) with the line
    /// of the text it comes from, as `data-line="N"`: for a preview that
    /// follows the text's scroll position (`pagetext edit`). Not XHTML 1.0
    /// (which has no `data-` attributes), so never for a page that is
    /// written: off by default, and nothing but the editor's preview turns
    /// it on. Blocks of a document built by hand (line 0) are not marked.
    pub source_lines: bool,
    /// Begin XHTML with the document type declaration of XHTML 1.0
    /// Transitional (`to-html --doctype`), so that a browser renders the
    /// page in standards mode and a validator knows its DTD. Off by
    /// default, as the seed says: its documents have none (and browsers
    /// render them in quirks mode). The HTML syntax always has
    /// `<!DOCTYPE html>`.
    pub doctype: bool,
}

impl Default for EmitOptions {
    /// UTF-8 XHTML.
    fn default() -> Self {
        EmitOptions {
            encoding: UTF_8,
            syntax: Syntax::Xhtml,
            tables: false,
            source_lines: false,
            doctype: false,
        }
    }
}

/// What a diagnostic of emission is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Code {
    /// A character XML 1.0 forbids (a C0 control other than tab, LF and CR,
    /// U+FFFE or U+FFFF) was replaced with U+FFFD.
    ForbiddenCharacter,
    /// The requested encoding cannot be written; UTF-8 was used instead.
    EncodingSubstituted,
    /// Characters the output encoding lacks were written as numeric
    /// character references.
    CharacterReferences,
    /// A heading level outside 1 to 6 was clamped.
    InvalidHeadingLevel,
    /// A link or e-mail address inside a link text was written as its text.
    NestedLink,
    /// An anchor name repeats an earlier one: kept, but the output is not
    /// valid against the DTD (an `id` is unique).
    InvalidAnchor,
    /// An anchor name that is not an XML `Name` was written in a form that
    /// is ([`crate::names::anchor_name`]), and so were the links to it.
    AnchorRenamed,
    /// The language is not an XML name token: kept, but the output is not
    /// valid against the DTD.
    InvalidLanguage,
    /// An element without content (a list without items) was left out.
    EmptyElementDropped,
    /// Preformatted text starts with an empty line, which HTML parsers drop.
    LeadingNewlineInPre,
    /// A C1 control character (U+0080 to U+009F) in output other than UTF-8
    /// was replaced with U+FFFD: no legacy form of it reads the same in
    /// browsers and XML tools.
    UnencodableControl,
    /// An image that cannot be written as `<img>` here (in `pre`, or with
    /// a source that could run a script) was written as its alternative
    /// text.
    ImageAsText,
    /// An SVG image given as a data URL was written through the sanitiser
    /// that inline graphics go through (what could run a script or load
    /// something from elsewhere removed).
    GraphicSanitized,
    /// A link whose URL could run a script or smuggle content
    /// (`javascript:`, `vbscript:`, `data:`) was written as its text (a
    /// `#Link:` line left out), as ingestion neutralises it.
    UnsafeLink,
    /// A superscript or subscript in preformatted text, where XHTML 1.0
    /// allows neither, was written as its text.
    ScriptAsText,
}

impl Code {
    /// The stable kebab-case name of the code.
    pub fn as_str(&self) -> &'static str {
        match self {
            Code::ForbiddenCharacter => "forbidden-character",
            Code::EncodingSubstituted => "encoding-substituted",
            Code::CharacterReferences => "character-references",
            Code::InvalidHeadingLevel => "invalid-heading-level",
            Code::NestedLink => "nested-link",
            Code::InvalidAnchor => "invalid-anchor",
            Code::AnchorRenamed => "anchor-renamed",
            Code::InvalidLanguage => "invalid-language",
            Code::EmptyElementDropped => "empty-element-dropped",
            Code::LeadingNewlineInPre => "leading-newline-in-pre",
            Code::UnencodableControl => "unencodable-control",
            Code::ImageAsText => "image-as-text",
            Code::GraphicSanitized => "graphic-sanitized",
            Code::UnsafeLink => "unsafe-link",
            Code::ScriptAsText => "script-as-text",
        }
    }

    /// Whether a diagnostic with this code means the XHTML is not valid
    /// against the XHTML 1.0 Transitional DTD (it is still well-formed).
    pub fn breaks_validity(&self) -> bool {
        matches!(self, Code::InvalidAnchor | Code::InvalidLanguage)
    }

    /// Whether a diagnostic with this code means an HTML parser does not see
    /// the same tree as an XML parser.
    pub fn breaks_polyglot(&self) -> bool {
        matches!(self, Code::LeadingNewlineInPre)
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl wikitext::DiagnosticCode for Code {
    /// Emission knows the line and column of the node it reports on (the
    /// column is 0 for nodes known by their line only, 0:0 for the header
    /// and for documents built by hand).
    const PRECISION: Precision = Precision::Column;

    fn as_str(&self) -> &'static str {
        Code::as_str(self)
    }
}

/// One thing emission has to say about a document: the shape every crate
/// reports in, with emission's [`Code`]. Its span is the position of the
/// node concerned, empty ([`Span::at`]).
pub type Diagnostic = wikitext::Diagnostic<Code>;

/// The result of emission.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Emitted {
    /// The markup as text, before encoding (characters the encoding lacks
    /// are still themselves here).
    pub text: String,
    /// The markup in [`Emitted::encoding`], with numeric character references
    /// for the characters it lacks.
    pub bytes: Vec<u8>,
    /// The encoding of `bytes`, which the markup declares.
    pub encoding: &'static Encoding,
    /// What was repaired or is worth knowing, in document order.
    pub diagnostics: Vec<Diagnostic>,
}

/// Emits `doc` as the options say. Never fails: whatever cannot be written
/// exactly is repaired and reported in [`Emitted::diagnostics`].
pub fn emit(doc: &Document, opts: &EmitOptions) -> Emitted {
    emit_events(&doc.meta, doc.events(), opts)
}

/// Emits a document given as its header and a stream of body events (see
/// [`wikitext::events`]), as the options say: text goes to markup without a
/// tree in between. [`emit`] is this function over [`Document::events`].
///
/// ```
/// use htmlio::emit::{self, EmitOptions};
///
/// let text = "#Title Hi\n\nSome _text_.\n";
/// let mut parser = wikitext::Parser::new(text);
/// let (meta, diagnostics) = parser.take_parts();
/// let out = emit::emit_events(&meta, parser, &EmitOptions::default());
/// assert!(out.text.contains("<p>Some <em>text</em>.</p>"));
/// assert!(diagnostics.is_empty());
/// // The same bytes as through the tree.
/// let doc = wikitext::parse(text).document;
/// assert_eq!(emit::emit(&doc, &EmitOptions::default()).text, out.text);
/// ```
pub fn emit_events<'a: 'm, 'm>(
    meta: &'m Metadata,
    events: impl IntoIterator<Item = Positioned<'a>>,
    opts: &EmitOptions,
) -> Emitted {
    emit_sized(meta, events, opts, Source::Unknown)
}

/// What is known of the source of the events.
#[derive(Clone, Copy)]
enum Source {
    Unknown,
    /// Text of this length; `forbidden` when it holds a character XML
    /// forbids (when it holds none, no string taken from it does).
    Text {
        len: usize,
        forbidden: bool,
    },
}

/// What [`emit_text`] gives: the markup, and what the parser said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmittedText {
    /// The markup and the emitter's diagnostics.
    pub emitted: Emitted,
    /// The parser's diagnostics (header and block structure), in source
    /// order.
    pub parsed: Vec<wikitext::Diagnostic>,
}

/// Text in the text format to markup, as a stream: [`wikitext::Parser`]'s
/// events into [`emit_events`], with the output buffer sized from the
/// input. What `pagetext to-html` does.
///
/// ```
/// use htmlio::emit::{self, EmitOptions};
///
/// let out = emit::emit_text("#Title Hi\n\n= Hi =\n", &EmitOptions::default());
/// assert!(out.emitted.text.contains("<h1>Hi</h1>"));
/// assert!(out.parsed.is_empty());
/// ```
pub fn emit_text(text: &str, opts: &EmitOptions) -> EmittedText {
    let mut parser = wikitext::Parser::new(text);
    let (meta, parsed) = parser.take_parts();
    let source = Source::Text {
        len: text.len(),
        forbidden: check::has_forbidden(text),
    };
    EmittedText {
        emitted: emit_sized(&meta, parser, opts, source),
        parsed,
    }
}

/// [`emit_events`], told what is known of the source: its length sizes the
/// output buffer, and a source without forbidden characters spares the
/// check of each string.
fn emit_sized<'a: 'm, 'm>(
    meta: &'m Metadata,
    events: impl IntoIterator<Item = Positioned<'a>>,
    opts: &EmitOptions,
    source: Source,
) -> Emitted {
    let (capacity, check_chars) = match source {
        Source::Unknown => (0, true),
        // Markup is a little longer than its text: tags, references, the
        // head.
        Source::Text { len, forbidden } => {
            (len.saturating_add(len / 4).saturating_add(512), forbidden)
        }
    };
    // Text borrowed for `'a` is borrowed for `'m` too.
    let events = events.into_iter().map(shorten);
    // encoding_rs's output encoding: UTF-16 and `replacement` become UTF-8.
    // So does x-user-defined, which exists to read bytes, not to write text
    // (and which XML parsers do not know).
    let encoding = if opts.encoding == encoding_rs::X_USER_DEFINED {
        UTF_8
    } else {
        opts.encoding.output_encoding()
    };
    let mut substituted = None;
    if encoding != opts.encoding {
        substituted = Some(Diagnostic::new(
            Code::EncodingSubstituted,
            Severity::Warning,
            format!(
                "markup cannot be written in {}; wrote {} instead",
                opts.encoding.name(),
                encoding.name()
            ),
            Span::default(),
        ));
    }
    let charset = encoding.name();
    let (text, mut diagnostics) = match opts.syntax {
        Syntax::Xhtml => {
            let mut prologue = String::with_capacity(capacity);
            if encoding != UTF_8 {
                // XML 1.0 §4.3.3: an entity in another encoding than UTF-8 or
                // UTF-16 must declare it.
                prologue.push_str(&format!("<?xml version=\"1.0\" encoding=\"{charset}\"?>\n"));
            }
            let mut walker = Walker::new(XhtmlSerializer::with_buffer(prologue), opts.syntax);
            walker.check_chars = check_chars;
            walker.tables = opts.tables;
            walker.source_lines = opts.source_lines;
            walker.doctype = opts.doctype;
            walker.document(meta, events, charset);
            let diagnostics = std::mem::take(&mut walker.diagnostics);
            (walker.into_sink().finish(), diagnostics)
        }
        Syntax::Html { omit_optional_tags } => {
            // Boolean attributes keep their value (`compact="compact"`), so
            // that the HTML gives the same attribute values as the XHTML.
            let html_opts = HtmlOptions {
                omit_optional_tags,
                ..HtmlOptions::default()
            };
            let out = String::with_capacity(capacity);
            let mut walker = Walker::new(HtmlSerializer::with_buffer(html_opts, out), opts.syntax);
            walker.check_chars = check_chars;
            walker.tables = opts.tables;
            walker.source_lines = opts.source_lines;
            walker.document(meta, events, charset);
            let diagnostics = std::mem::take(&mut walker.diagnostics);
            (walker.into_sink().finish(), diagnostics)
        }
    };
    if let Some(d) = substituted {
        diagnostics.insert(0, d);
    }
    let text = if encoding == UTF_8 {
        text
    } else {
        replace_c1_controls(text, encoding, &mut diagnostics)
    };
    let bytes = if encoding == UTF_8 {
        text.as_bytes().to_vec()
    } else {
        let (bytes, _, unmappable) = encoding.encode(&text);
        if unmappable {
            diagnostics.push(Diagnostic::new(
                Code::CharacterReferences,
                Severity::Info,
                format!(
                    "characters that {charset} lacks were written as numeric character references"
                ),
                Span::default(),
            ));
        }
        bytes.into_owned()
    };
    Emitted {
        text,
        bytes,
        encoding,
        diagnostics,
    }
}

/// An event seen for a shorter lifetime (events are covariant).
fn shorten<'a: 'm, 'm>(event: Positioned<'a>) -> Positioned<'m> {
    event
}

/// C1 controls (U+0080 to U+009F) have no safe form in a legacy encoding: as
/// a character reference, HTML parsers read `&#133;` as `…` (the
/// windows-1252 character), and as a byte, the Encoding Standard's tables
/// and those of XML tools (iconv) disagree (windows-1252 byte 0x81 is U+0081
/// to browsers and an error to libxml2). In output other than UTF-8 they
/// are replaced with U+FFFD, with a diagnostic; they are nearly always
/// mis-decoded text anyway.
fn replace_c1_controls(
    text: String,
    encoding: &'static Encoding,
    diagnostics: &mut Vec<Diagnostic>,
) -> String {
    let is_c1 = |c: char| ('\u{80}'..='\u{9f}').contains(&c);
    let replaced = text.chars().filter(|&c| is_c1(c)).count();
    if replaced == 0 {
        return text;
    }
    diagnostics.push(Diagnostic::new(
        Code::UnencodableControl,
        Severity::Warning,
        format!(
            "{replaced} C1 control character(s) replaced with U+FFFD: {} has no form of them \
             that browsers and XML tools read alike",
            encoding.name()
        ),
        Span::default(),
    ));
    text.chars()
        .map(|c| if is_c1(c) { '\u{fffd}' } else { c })
        .collect()
}

/// Emits `doc` as UTF-8 XHTML: `emit(doc, &EmitOptions::default())`.
pub fn xhtml(doc: &Document) -> Emitted {
    emit(doc, &EmitOptions::default())
}
