//! What ingestion reports: one [`Diagnostic`] per loss or notable change,
//! with the source line html5ever gave, and a [`Summary`] a person can read.

use std::collections::BTreeMap;
use std::fmt;

use wikitext::{DiagnosticCode, Precision, Severity};

/// What an ingestion diagnostic is about. Each code has a stable kebab-case
/// name ([`Code::as_str`]) for tools and tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Code {
    // ---- bytes and parsing ----
    /// A `<meta>` read by the parser named another encoding than the
    /// tentative one: the document was decoded again.
    EncodingChanged,
    /// Bytes that are malformed in the encoding were replaced with U+FFFD.
    MalformedBytes,
    /// NUL characters (U+0000) were replaced with U+FFFD (seed 001
    /// §8.2.2.3: a parse error each).
    NulReplaced,
    /// Characters XML cannot hold (C0 controls, U+FFFE, U+FFFF) were
    /// replaced with U+FFFD.
    ForbiddenCharacter,
    /// A parse error html5ever reported (only with
    /// [`Options::parse_errors`](super::Options::parse_errors)).
    ParseError,
    // ---- the head ----
    /// A second `<title>` was ignored.
    ExtraTitle,
    /// A `<meta>` without a usable `name` (for example `property=`) or a
    /// `<link>` without `href` was left out.
    MetadataDropped,
    /// A `<base href>` was not used: it is relative and the page's address
    /// is not known, names an unsafe scheme, does not parse, or is not the
    /// first one. Relative URLs are kept as written then.
    BaseIgnored,
    /// A value of the head was changed to fit the format (white space in a
    /// name, a `rel` value with a colon).
    MetadataChanged,
    // ---- links and anchors ----
    /// A `javascript:`, `vbscript:` or `data:` link was neutralised: its
    /// text stays, the link goes.
    UnsafeLink,
    /// A link inside a link: the inner one keeps only its text.
    NestedLink,
    /// A link without text got its URL as text, as the format does for an
    /// empty link text.
    EmptyLinkText,
    /// An `href` that is empty after stripping white space: kept as text.
    EmptyUrl,
    /// Text inside `<noscript>` that is the source of HTML tags (what a
    /// script would have written), left out.
    NoscriptMarkup,
    /// A `<noscript>` without an image, left out with its text: a browser
    /// that runs scripts never shows it.
    NoscriptDropped,
    /// Text inside `<textarea>` that is the source of HTML tags (an embed
    /// code to copy, a template a script fills in), left out.
    TextareaMarkup,
    /// Characters the format forbids in a URL or anchor name were
    /// percent-encoded.
    UrlEncoded,
    /// An `id` or anchor name that had no text to stay on, or repeats an
    /// earlier one, was left out.
    AnchorDropped,
    /// A URL was resolved against the page's base URL, written as a
    /// browser reads it, or had its query put in the page's encoding.
    UrlResolved,
    /// A URL that the URL Standard's parser rejects: kept as written.
    UrlInvalid,
    /// An in-page link whose anchor was left out: it points nowhere now.
    LinkDangles,
    // ---- content ----
    /// An image was replaced by its `alt` text.
    ImageAsText,
    /// An image without `alt` text was left out.
    ImageDropped,
    /// The other candidates of an image (`srcset`, `<picture>` sources)
    /// were dropped: the image keeps the `src` a browser without them
    /// loads.
    ImageCandidatesDropped,
    /// A lazily loaded image: its script-loaded source (`data-src`,
    /// `data-original`, `data-lazy-src`, `data-srcset`) became its source,
    /// as the page's script would load it; a placeholder `src` stays, as an
    /// image without text before it.
    LazyImage,
    /// The `<noscript>` copy of a lazily loaded image was left out: the
    /// image is there once, with the same source.
    NoscriptCopyDropped,
    /// An image whose source could run a script (or a `data:` URL of no
    /// image type) was replaced by its `alt` text.
    UnsafeImage,
    /// Embedded media (`iframe`, `video`, `audio`, `object`, `embed`)
    /// became a link to its source; the player is not kept.
    MediaAsLink,
    /// An `<object>` was read as the `<img>` it holds for readers that
    /// cannot show it (nothing is lost).
    MediaAsImage,
    /// Embedded media without a source was left out.
    MediaDropped,
    /// An SVG graphic was left out (in preformatted text, or with nothing
    /// left to draw).
    SvgDropped,
    /// An SVG graphic was kept as an image without what could run a
    /// script or load something from elsewhere (the sanitiser's removals).
    SvgSanitized,
    /// An SVG graphic that only shows a picture from elsewhere was kept as
    /// an image of that picture.
    SvgAsPicture,
    /// MathML was kept as its TeX annotation, in sample text.
    MathAsTex,
    /// MathML was kept as plain text.
    MathAsText,
    /// The choices of a list box (`select`) were kept as text, without
    /// the control.
    ChoicesAsText,
    /// Struck-through text, or a sub- or superscript in preformatted
    /// text, was kept as plain text.
    PresentationLost,
    /// Highlighted (`<mark>`) or inserted (`<ins>`) text was kept as plain
    /// text: its words stay, its look goes.
    HighlightLost,
    /// A frame became a link to its document.
    FrameAsLink,
    /// Block structure inside a heading, term or preformatted text was
    /// flattened into its text.
    BlocksFlattened,
    /// Blocks nested deeper than the format allows were flattened.
    NestingTooDeep,
    /// A numbering the format cannot hold (roman numerals, a start value,
    /// explicit item values, reversed order) was lost.
    NumberingLost,
    /// A table became a compact definition list (one item per row).
    TableAsList,
    /// A layout table (block content in its cells, or one column) became
    /// its cells' blocks in order.
    TableAsBlocks,
    /// Cells spanning rows or columns: the grid is not kept.
    TableSpans,
    /// A table cell's content had to be put on one line.
    CellFlattened,
    /// An element this mapping does not know was read as its content.
    UnknownElement,
    /// An empty list item, heading or other element was left out.
    EmptyDropped,
    /// The first line of preformatted text was indented more than a later
    /// line: its extra indentation was dropped.
    PreIndentLost,
    /// The indentation every line of preformatted text shares was dropped
    /// (the format measures lines from the block's own indentation).
    PreIndentShared,
    /// A space was put in where inline markup touched a letter or digit
    /// (seed 000, inline rule 3), so that the markup reads back.
    SpaceAdded,
}

impl Code {
    /// The stable kebab-case name of the code.
    pub fn as_str(&self) -> &'static str {
        match self {
            Code::EncodingChanged => "encoding-changed",
            Code::MalformedBytes => "malformed-bytes",
            Code::NulReplaced => "nul-replaced",
            Code::ForbiddenCharacter => "forbidden-character",
            Code::ParseError => "parse-error",
            Code::ExtraTitle => "extra-title",
            Code::MetadataDropped => "metadata-dropped",
            Code::BaseIgnored => "base-ignored",
            Code::MetadataChanged => "metadata-changed",
            Code::UnsafeLink => "unsafe-link",
            Code::NestedLink => "nested-link",
            Code::EmptyLinkText => "empty-link-text",
            Code::NoscriptMarkup => "noscript-markup",
            Code::NoscriptDropped => "noscript-dropped",
            Code::TextareaMarkup => "textarea-markup",
            Code::EmptyUrl => "empty-url",
            Code::UrlEncoded => "url-encoded",
            Code::AnchorDropped => "anchor-dropped",
            Code::UrlResolved => "url-resolved",
            Code::UrlInvalid => "url-invalid",
            Code::LinkDangles => "link-dangles",
            Code::ImageAsText => "image-as-text",
            Code::ImageDropped => "image-dropped",
            Code::ImageCandidatesDropped => "image-candidates-dropped",
            Code::LazyImage => "lazy-image",
            Code::NoscriptCopyDropped => "noscript-copy-dropped",
            Code::UnsafeImage => "unsafe-image",
            Code::SvgDropped => "svg-dropped",
            Code::MediaAsLink => "media-as-link",
            Code::MediaAsImage => "media-as-image",
            Code::MediaDropped => "media-dropped",
            Code::SvgSanitized => "svg-sanitized",
            Code::SvgAsPicture => "svg-as-picture",
            Code::MathAsText => "math-as-text",
            Code::ChoicesAsText => "choices-as-text",
            Code::MathAsTex => "math-as-tex",
            Code::PresentationLost => "presentation-lost",
            Code::HighlightLost => "highlight-lost",
            Code::FrameAsLink => "frame-as-link",
            Code::BlocksFlattened => "blocks-flattened",
            Code::NestingTooDeep => "nesting-too-deep",
            Code::NumberingLost => "numbering-lost",
            Code::TableAsList => "table-as-list",
            Code::TableAsBlocks => "table-as-blocks",
            Code::TableSpans => "table-spans",
            Code::CellFlattened => "cell-flattened",
            Code::UnknownElement => "unknown-element",
            Code::EmptyDropped => "empty-dropped",
            Code::SpaceAdded => "space-added",
            Code::PreIndentLost => "pre-indent-lost",
            Code::PreIndentShared => "pre-indent-shared",
        }
    }

    /// How the summary describes `n` diagnostics of this code.
    fn describe(&self, n: usize) -> String {
        let s = |one: &str, many: &str| {
            if n == 1 {
                one.to_owned()
            } else {
                many.to_owned()
            }
        };
        match self {
            Code::ImageAsText
            | Code::ImageDropped
            | Code::ImageCandidatesDropped
            | Code::LazyImage
            | Code::NoscriptCopyDropped
            | Code::UnsafeImage => {
                let (one, many) = self.image_phrases();
                s(one, many)
            }
            Code::EncodingChanged => "encoding changed by a <meta> the parser read".to_owned(),
            Code::MalformedBytes => "malformed bytes replaced with U+FFFD".to_owned(),
            Code::NulReplaced => s(
                "NUL character replaced with U+FFFD",
                "NUL characters replaced with U+FFFD",
            ),
            Code::ForbiddenCharacter => s(
                "character XML cannot hold replaced with U+FFFD",
                "characters XML cannot hold replaced with U+FFFD",
            ),
            Code::ParseError => s("parse error", "parse errors"),
            Code::ExtraTitle => s("extra <title> ignored", "extra <title>s ignored"),
            Code::MetadataDropped => s("<meta>/<link> left out", "<meta>/<link>s left out"),
            Code::BaseIgnored => s("<base href> ignored", "<base href>s ignored"),
            Code::MetadataChanged => s("head value adjusted", "head values adjusted"),
            Code::UnsafeLink => s("unsafe link neutralised", "unsafe links neutralised"),
            Code::NestedLink => s(
                "nested link reduced to text",
                "nested links reduced to text",
            ),
            Code::EmptyLinkText => s(
                "link without text shows its host or URL",
                "links without text show their host or URL",
            ),
            Code::NoscriptMarkup => s(
                "tag source inside <noscript> left out",
                "tag sources inside <noscript> left out",
            ),
            Code::NoscriptDropped => s(
                "<noscript> without an image left out",
                "<noscript> elements without an image left out",
            ),
            Code::TextareaMarkup => s(
                "tag source inside <textarea> left out",
                "tag sources inside <textarea> left out",
            ),
            Code::EmptyUrl => s(
                "link with an empty URL kept as text",
                "links with an empty URL kept as text",
            ),
            Code::UrlEncoded => s(
                "URL or anchor percent-encoded",
                "URLs or anchors percent-encoded",
            ),
            Code::AnchorDropped => s("anchor left out", "anchors left out"),
            Code::UrlResolved => s(
                "URL resolved or written as a browser reads it",
                "URLs resolved or written as a browser reads them",
            ),
            Code::UrlInvalid => s(
                "invalid URL kept as written",
                "invalid URLs kept as written",
            ),
            Code::LinkDangles => s(
                "in-page link lost its anchor",
                "in-page links lost their anchors",
            ),
            Code::SvgDropped => s("SVG graphic left out", "SVG graphics left out"),
            Code::MediaAsLink => s(
                "embedded media as a link to its source",
                "embedded media as links to their sources",
            ),
            Code::MediaAsImage => s(
                "<object> read as the image it holds",
                "<object>s read as the images they hold",
            ),
            Code::MediaDropped => s(
                "embedded media without a source left out",
                "embedded media without a source left out",
            ),
            Code::SvgAsPicture => s(
                "SVG graphic kept as the picture it shows",
                "SVG graphics kept as the pictures they show",
            ),
            Code::SvgSanitized => s(
                "SVG graphic kept as an image without scripts or outside references",
                "SVG graphics kept as images without scripts or outside references",
            ),
            Code::MathAsText => s("formula kept as plain text", "formulas kept as plain text"),
            Code::ChoicesAsText => s(
                "list box kept as its choices",
                "list boxes kept as their choices",
            ),
            Code::MathAsTex => s("formula kept as its TeX", "formulas kept as their TeX"),
            Code::PresentationLost => s(
                "struck text or script kept as plain text",
                "struck texts or scripts kept as plain text",
            ),
            Code::HighlightLost => s(
                "highlighted or inserted text kept as plain text",
                "highlighted or inserted texts kept as plain text",
            ),
            Code::FrameAsLink => s("frame shown as a link", "frames shown as links"),
            Code::BlocksFlattened => s(
                "block structure flattened into text",
                "block structures flattened into text",
            ),
            Code::NestingTooDeep => s("too deep nesting flattened", "too deep nestings flattened"),
            Code::NumberingLost => s("list numbering lost", "list numberings lost"),
            Code::TableAsList => s(
                "table as a compact definition list",
                "tables as compact definition lists",
            ),
            Code::TableAsBlocks => s(
                "layout table as plain blocks",
                "layout tables as plain blocks",
            ),
            Code::TableSpans => s("table with spanning cells", "tables with spanning cells"),
            Code::CellFlattened => s("table cell put on one line", "table cells put on one line"),
            Code::UnknownElement => s(
                "unknown element read as its content",
                "unknown elements read as their content",
            ),
            Code::EmptyDropped => s("empty element left out", "empty elements left out"),
            Code::PreIndentLost => s(
                "preformatted first line lost its extra indentation",
                "preformatted first lines lost their extra indentation",
            ),
            Code::PreIndentShared => s(
                "preformatted text lost its shared indentation",
                "preformatted texts lost their shared indentation",
            ),
            Code::SpaceAdded => s(
                "block got spaces beside its inline markup",
                "blocks got spaces beside their inline markup",
            ),
        }
    }

    /// The summary's phrases, one and many, for the codes of images.
    fn image_phrases(&self) -> (&'static str, &'static str) {
        match self {
            Code::ImageAsText => (
                "image shown as its alt text",
                "images shown as their alt text",
            ),
            Code::ImageDropped => (
                "image without alt text left out",
                "images without alt text left out",
            ),
            Code::ImageCandidatesDropped => (
                "image kept its src and dropped its other candidates",
                "images kept their src and dropped their other candidates",
            ),
            Code::LazyImage => (
                "lazily loaded image given the source its script loads",
                "lazily loaded images given the sources their scripts load",
            ),
            Code::NoscriptCopyDropped => (
                "<noscript> copy of a lazily loaded image left out",
                "<noscript> copies of lazily loaded images left out",
            ),
            Code::UnsafeImage => (
                "image with an unsafe source shown as its alt text",
                "images with an unsafe source shown as their alt text",
            ),
            // Only the codes above ask.
            _ => ("image", "images"),
        }
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl DiagnosticCode for Code {
    /// html5ever gives the line of each element, not its column; a
    /// diagnostic about an element gets its start tag's columns from the
    /// page's text (`ingest::columns`).
    const PRECISION: Precision = Precision::Line;

    fn as_str(&self) -> &'static str {
        Code::as_str(self)
    }
}

/// One thing ingestion has to say about a page: the text format's
/// [`wikitext::Diagnostic`] with an ingestion [`Code`].
///
/// - `severity`: [`Severity::Error`] is never used (ingestion always gives a
///   document), [`Severity::Warning`] is content lost or changed,
///   [`Severity::Info`] a mapping worth knowing about;
/// - `span`: the source line (1-based) html5ever was on, 0 when unknown
///   ([`wikitext::Span::on_line`]: the columns are 0, unknown); make one
///   with [`wikitext::Diagnostic::at_line`].
///
/// Its `Display` is `line: severity[code]: message`.
pub type Diagnostic = wikitext::Diagnostic<Code>;

/// A short account of one ingestion: what was dropped as ballast and what
/// was lost or changed, grouped, with counts and first lines.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summary {
    /// Elements dropped with their content as ballast (scripts, styles,
    /// forms: nothing the output may carry), by element name, with counts.
    pub ballast: BTreeMap<String, usize>,
    /// Diagnostics by code: how many, the severity, and the line of the first.
    pub by_code: BTreeMap<Code, CodeCount>,
    /// How many parse errors html5ever reported, and the line of the first.
    pub parse_errors: (usize, u32),
    /// What the main-content selection kept and dropped, when it was asked
    /// for ([`super::Options::main_content`]).
    pub main_content: Option<super::main_content::MainContent>,
}

/// The diagnostics of one code in a [`Summary`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CodeCount {
    /// How many.
    pub count: usize,
    /// The severity of the first.
    pub severity: Severity,
    /// The line of the first.
    pub first_line: u32,
}

impl Summary {
    /// Counts `diagnostics` into the summary.
    pub(crate) fn count(&mut self, diagnostics: &[Diagnostic]) {
        for d in diagnostics {
            self.by_code
                .entry(d.code)
                .and_modify(|c| c.count += 1)
                .or_insert(CodeCount {
                    count: 1,
                    severity: d.severity,
                    first_line: d.span.line,
                });
        }
    }

    /// How many warnings (content lost or changed) there are.
    pub fn warnings(&self) -> usize {
        self.by_code
            .values()
            .filter(|c| c.severity == Severity::Warning)
            .map(|c| c.count)
            .sum()
    }
}

impl fmt::Display for Summary {
    /// A few lines: what the main-content selection kept and dropped (when
    /// asked for), losses (warnings), then mappings (infos), then ballast
    /// and parse errors. Empty parts are left out; nothing at all prints
    /// `nothing lost`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut any = false;
        if let Some(main) = &self.main_content {
            writeln!(f, "{main}")?;
            any = true;
        }
        for (label, severity) in [
            ("lost or changed", Severity::Warning),
            ("mapped", Severity::Info),
        ] {
            let parts: Vec<String> = self
                .by_code
                .iter()
                .filter(|(_, c)| c.severity == severity)
                .map(|(code, c)| {
                    format!(
                        "{} {} (first on line {})",
                        c.count,
                        code.describe(c.count),
                        c.first_line
                    )
                })
                .collect();
            if !parts.is_empty() {
                writeln!(f, "{label}: {}", parts.join("; "))?;
                any = true;
            }
        }
        if !self.ballast.is_empty() {
            let parts: Vec<String> = self
                .ballast
                .iter()
                .map(|(name, n)| {
                    if *n == 1 {
                        name.clone()
                    } else {
                        format!("{name} x{n}")
                    }
                })
                .collect();
            writeln!(f, "dropped as ballast: {}", parts.join(", "))?;
            any = true;
        }
        if self.parse_errors.0 > 0 {
            writeln!(
                f,
                "html5ever reported {} parse error{} (first on line {}); the tree is what a browser builds",
                self.parse_errors.0,
                if self.parse_errors.0 == 1 { "" } else { "s" },
                self.parse_errors.1
            )?;
            any = true;
        }
        if !any {
            writeln!(f, "nothing lost")?;
        }
        Ok(())
    }
}
