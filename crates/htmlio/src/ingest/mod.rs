//! Ingestion: real-world HTML, in any charset and of any quality, into a
//! [`wikitext::Document`] (seed 000: "The web page editor is able to read all
//! known formats of HTML documents ... and extract the relevant information,
//! at the same time also stripping off any ballast").
//!
//! # The pipeline
//!
//! 1. [`sniff::sniff`] picks the encoding from the bytes and the caller's
//!    [`sniff::Hints`] (a transport-layer charset when known).
//! 2. [`sniff::decode`] decodes the bytes.
//! 3. html5ever builds the tree a browser builds (scripting off: see
//!    `noscript` below), into a lean arena that keeps each element's source
//!    line.
//! 4. While the encoding is *tentative*, every `<meta>` the tree builder
//!    inserts that declares an encoding goes through
//!    [`sniff::change_the_encoding`] (seed 001 §8.2.2.4): the same encoding
//!    makes it certain; another one makes the pipeline decode the bytes
//!    again and parse again, certain. This is how a `<meta>` beyond the
//!    prescan's 1024-byte window still counts. [`Ingested::encoding`] says
//!    which encoding was settled on and why; [`settle_encoding`] gives only
//!    that answer, without building a document.
//! 5. The tree is mapped to the model by one walk without recursion.
//!
//! ```
//! use htmlio::ingest::{Options, ingest};
//!
//! let page = b"<html lang=de><title>Gr\xfc\xdfe</title>\
//!     <h1 id=top>Hallo</h1><p>Sch\xf6ne <b>Gr\xfc\xdfe</b><br>aus <a href=\"http://x.de/\">Bonn</a>\
//!     <script>track()</script>";
//! let out = ingest(page, &Options::default());
//! assert_eq!(out.encoding.encoding, encoding_rs::WINDOWS_1252);
//! let doc = &out.document;
//! assert_eq!(doc.meta.title.as_deref(), Some("Grüße"));
//! assert_eq!(doc.meta.lang.as_deref(), Some("de"));
//! use wikitext::{Block, Inline};
//! assert_eq!(doc.body, vec![
//!     Block::heading(1, vec![Inline::link(None, Some("top".into()), vec![Inline::text("Hallo")])]),
//!     Block::paragraph(vec![
//!         Inline::text("Schöne "),
//!         Inline::strong(vec![Inline::text("Grüße")]),
//!         Inline::hard_break(),
//!         Inline::text("aus "),
//!         Inline::link(Some("http://x.de/".into()), None, vec![Inline::text("Bonn")]),
//!     ]),
//! ]);
//! assert_eq!(out.summary.ballast.get("script"), Some(&1));
//! ```
//!
//! # The mapping
//!
//! Every element of HTML, current and obsolete, falls in one row. *Block*
//! elements end the paragraph before them and start a new one after;
//! *transparent* elements are replaced by their children; *ballast* is
//! dropped with everything inside (and counted in the [`Summary`]).
//!
//! | HTML | text format / model |
//! |---|---|
//! | `html` | `lang` (else `xml:lang`) → `#Lang` |
//! | `head` | read for metadata only |
//! | `title` | `#Title` (white space collapsed; a second one is ignored) |
//! | `meta name content` | `#Meta:name content`; `property=` metas are left out (noted) |
//! | `meta charset`, `meta http-equiv` | skipped: the output declares its own encoding; `Content-Language` gives `#Lang` when `html` has none |
//! | `link rel href title` | `#Link:rel:rel href title` (rel values with `:` left out, noted) |
//! | `base href` (the first) | the document base URL: relative URLs of `a href`, `link href` and `frame src` are resolved against it (itself resolved against [`Options::address`]), noted; later ones are ignored, as browsers do |
//! | `body`, `frameset` | the body |
//! | `p` | paragraph |
//! | text directly in the body or a block | paragraph at the top level, bare text block elsewhere |
//! | `h1`–`h6` | heading 1–6 (one line: line breaks become spaces) |
//! | `pre`, `listing`, `xmp`, `plaintext` | preformatted text (leading tabs as 8 spaces; no sample text or e-mail inside) |
//! | `blockquote` | blockquote section |
//! | `ul`, `dir`, `menu` | unordered list |
//! | `ol` | ordered list; `type="a"`/`"A"` → letters; `i`/`I`, `start`, `reversed`, `li value` are lost (noted) |
//! | `li` | list item (a stray `li` gets an unordered list around it) |
//! | `dl` (`compact`) | definition list (compact) |
//! | `dt`, `dd` | term, definition (stray ones get a definition list around them) |
//! | `hr` | horizontal rule |
//! | `table` with one line of text per cell | compact definition list: one item per row, each cell the term of the next nested compact item, the last cell the definition (the seed's emulated table); empty cells are `::` terms; spanning cells are noted |
//! | `table` with blocks in its cells, or one column | layout table: the cells' blocks in order (noted) |
//! | `caption` | its blocks before the table |
//! | `thead`, `tbody`, `tfoot` | transparent |
//! | `tr` | one row (one item) |
//! | `td` | a cell |
//! | `th` | a cell whose text is strong |
//! | `col`, `colgroup` | nothing |
//! | `div`, `center`, `address`, `section`, `article`, `aside`, `nav`, `header`, `footer`, `main`, `search`, `hgroup`, `figure`, `figcaption`, `details`, `summary`, `form`, `fieldset`, `legend`, `multicol`, `marquee` | transparent block |
//! | `noscript` | transparent block (see below) |
//! | `em`, `i`, `var`, `cite`, `u` | emphasis `_..._` |
//! | `strong`, `b`, `dfn` | strong `*...*` |
//! | `code`, `tt`, `samp`, `kbd` | sample text `'...'` (plain inside preformatted text) |
//! | `a href` | link `[URL\|\|text]`; `mailto:` with the address as its text → e-mail `<address>`; a link without text (an icon from a style sheet) gets its `aria-label` as its text, else the host of its URL or a `mailto:`'s address, else its `title`, else the words of a relative URL's last path part or of its fragment (`privacy policy` for `/privacy_policy`) (noted) |
//! | `a name`/`id`, `id` on any element | anchor `[\|name\|text]`: around the whole heading or term, otherwise around the next word; repeated ids are left out |
//! | `a href` with `javascript:`, `vbscript:`, `data:` | its text only (noted); [`Options::keep_unsafe_links`] keeps the link |
//! | URLs (`href`, `src`) | see "Links" below: `#fragment` as written; relative ones resolved when a base URL is known, otherwise as written with the query in the page's encoding; absolute ones as written unless a backslash, a Unicode host or a legacy-encoded query needs the URL Standard's form; each change noted |
//! | `br` | line division; two or more in a row end the paragraph |
//! | `img` | an image (`#Extend image`): `src` resolved as links are (else the first `srcset` candidate, the other candidates dropped, noted; else the source a lazy-loading script would give it, `data-src`, `data-original`, `data-lazy-src` or `data-srcset`, noted, and its `<noscript>` copy left out, noted), `alt`, `title`, `width` and `height` in pixels; in preformatted text, without a source, or with an unsafe source (noted) its alt text (noted), or nothing without `alt` (noted) |
//! | `picture` | transparent: its `img` is the image; its `source`s are ballast |
//! | `q` | its text in quotation marks “…” |
//! | `sub`, `sup`, `s`, `strike`, `del` | transparent (the presentation lost is noted) |
//! | `span`, `font`, `small`, `big`, `abbr`, `acronym`, `mark`, `ins`, `time`, `data`, `bdi`, `bdo`, `label`, `button` (its label: the control is not kept), `select`, `textarea` (the text they show, without the control; a text area's text that is the source of tags, an embed code or a template, is left out and noted), `output` (what it shows), `nobr`, `blink`, `ruby`, `rb`, `rt`, `rtc`, `rp`, `picture`, `menuitem`, `spacer`, `nextid` | transparent |
//! | `option`, `optgroup` | the text of a choice of a list box (a group's `label`), after ` / ` when a choice of the same box came before it (noted once) |
//! | `frame src` | a link to its document, named by `title` or `name` (noted) |
//! | `wbr`, `basefont`, `bgsound` | nothing |
//! | `math` (MathML) | its TeX annotation (`encoding="application/x-tex"`) as sample text (noted); without one, transparent: the formula as plain text (noted); `annotation`, `annotation-xml` are not read as text |
//! | `iframe`, `video`, `audio`, `object`, `embed` | a link to the source (`src`, `data` for `object`, else a video's or audio's first `<source src>`) whose text is the `title`, else the host of the URL, else the words of a relative URL's last path part, and whose content is the `poster` image when a video has one (noted); without a usable source, left out (noted); their content is not read |
//! | `svg` | an image whose source is the sanitised graphic as a `data:image/svg+xml` URL (what the sanitiser removed is noted); an `svg` that draws nothing but one `image` from elsewhere (a logo) is an image of that picture, with the svg's alternative text and size (noted); left out in preformatted text (noted) |
//! | `script`, `style`, `template`, `input`, `datalist`, `keygen`, `meter`, `progress`, `isindex`, `applet`, `param`, `source`, `track`, `canvas`, `map`, `area`, `noembed`, `noframes`, `dialog`, `slot` | ballast |
//! | any other element | transparent (noted once per name) |
//! | attributes other than the above (`style`, `class`, event handlers, presentational ones) | ballast |
//!
//! **`noscript`** is kept, as a transparent block, and the page is parsed
//! with scripting off. The text format has no scripts, so the document it
//! holds is the one a browser without scripting shows; `noscript` is exactly
//! the content authors wrote for that reader, and dropping it could lose the
//! only copy of content a script would have produced. Only its text that is
//! the source of HTML tags (`&lt;div&gt;&lt;img src=...&gt;`, what an ad
//! script would have written) is left out (noted): nobody meant those tags
//! as text to read.
//!
//! # Links
//!
//! The text format has no base URL, so a link must say where it points by
//! itself (see "Links resolve as browsers resolve them" in
//! docs/decisions.md). URLs go through [`microsyntax::url`], the URL
//! Standard as browsers implement it:
//!
//! - The document base URL is the first `<base href>`, resolved against the
//!   page's address ([`Options::address`], `--base` on the command line),
//!   or the address itself (seed 002 §2.5.3). A relative `<base href>`
//!   without an address, or one with an unsafe scheme, is ignored (noted).
//! - With a base URL, every relative URL is resolved against it. One that
//!   lands on the page's own address with a fragment becomes the in-page
//!   link `#fragment`. Without one, relative URLs stay as written.
//! - A `#fragment` alone is always an in-page link, as written, because
//!   the text format's `[#x||…]` is one; a browser would resolve it against
//!   a `<base href>` of another document, which is rarely what the author
//!   meant.
//! - An absolute URL stays as written, unless a reader other than a browser
//!   would take it for something else or the page's encoding matters: one
//!   of a special scheme (`http`, `https`, `ftp`, `ws`, `wss`, `file`) with
//!   a backslash, a host that is not plain ASCII, or a query outside ASCII
//!   in a page that is not UTF-8 is written as the URL Standard serializes
//!   it, which is what a browser requests (a backslash becomes `/`, the
//!   host is IDNA-encoded). Case, default ports and UTF-8 paths are left
//!   alone, so that the text keeps what the page wrote and XHTML that
//!   pagetext wrote reads back unchanged.
//! - Queries keep the page's encoding (seed 002 §2.5.3 step 9): in a
//!   windows-1251 page `?q=Привет` becomes `?q=%CF%F0%E8%E2%E5%F2`, which
//!   the server the page was written for expects, even in UTF-8 XHTML.
//! - A URL the parser rejects while resolving or rewriting it is kept as
//!   written, with a warning; unsafe schemes are checked after resolving.
//! - When an anchor is left out, the in-page links that pointed to it are
//!   listed in a `link-dangles` warning.
//!
//! # Broken markup
//!
//! html5ever repairs the tree as browsers do (misnested tags, missing
//! ends, foster parenting out of tables). Beyond that, the walk keeps the
//! structure a browser shows: a list directly inside a list nests under the
//! previous item, other content directly in a list goes into its previous
//! item, stray `li`, `dt` and `dd` get an implicit list, blocks inside inline
//! elements split them (the formatting carries on inside the block), empty
//! inline elements vanish, and nesting deeper than the text format's limit
//! ([`wikitext::MAX_DEPTH`]) is flattened with a diagnostic.
//!
//! # White space
//!
//! Outside preformatted text, white space is normalised so that the text
//! format cannot read it as structure: no line starts with spaces, no line
//! holds three spaces in a row, inline elements neither start nor end with
//! white space, and a line feed in the source is a line division (see "A
//! paragraph keeps its source lines" in docs/decisions.md). Other white
//! space is kept as written, so that XHTML written by pagetext reads back
//! unchanged.
//!
//! # Losses
//!
//! Every loss that remains is a [`Diagnostic`] with its source line, and
//! [`Ingested::summary`] groups them for a person to read. Ballast is
//! dropped by design and only counted.

mod build;
mod columns;
mod diag;
pub mod main_content;
mod parse;
mod run;
mod sink;
pub(crate) mod svg;
mod tags;
pub(crate) mod url;

use std::fmt;

use encoding_rs::{Encoding, UTF_8};
use sniff::{Confidence, EncodingChange, Hints, Sniffed, Source};
use wikitext::{Document, Severity};

pub use diag::{Code, CodeCount, Diagnostic, Summary};

use parse::{Declarations, OnMeta};
use sink::{Keep, ParseErrors};

/// How to ingest.
#[derive(Debug, Clone, Copy)]
pub struct Options<'a> {
    /// What the caller knows about the encoding: a transport-layer charset
    /// ([`Hints::with_content_type`]), a user override, autodetection
    /// settings.
    pub hints: Hints<'a>,
    /// Keep links with `javascript:`, `vbscript:` and `data:` URLs instead of
    /// neutralising them (the default, so that no link in the output runs
    /// code).
    pub keep_unsafe_links: bool,
    /// Report each of html5ever's parse errors as an info diagnostic (they
    /// are always counted in the summary).
    pub parse_errors: bool,
    /// The page's own address (where it was fetched from), when the page
    /// does not say it: with it, relative URLs are resolved (against the
    /// page's `<base href>` resolved against it, or against it), as seed
    /// 002 §2.5.3 says. Without it or a `<base href>`, relative URLs stay
    /// as written.
    pub address: Option<&'a microsyntax::url::Url>,
    /// Map to the format's extensions (the default): `<img>` and inline
    /// `<svg>` to images (`#Extend image`), a data table to a table
    /// (`#Extend table`). Without it, as in pure seed text, an image is its
    /// `alt` text, an SVG graphic is left out, and a table is an emulated
    /// table (compact definition lists), each noted. [`crate::to_text`]
    /// sets it from [`crate::TextOptions::escapes`], the one switch between
    /// the extended format and pure seed text; it matters only to a caller
    /// of [`ingest`] itself.
    pub extensions: bool,
    /// Keep only the page's main content ([`main_content`]): the article,
    /// without the navigation, the banners, the footer and the other
    /// boilerplate around it; what is dropped is counted by kind in
    /// [`Summary::main_content`]. Off by default: the whole page.
    pub main_content: bool,
}

impl Options<'_> {
    /// What the parse does with html5ever's parse errors.
    fn errors(&self) -> ParseErrors {
        if self.parse_errors {
            ParseErrors::Keep
        } else {
            ParseErrors::Count
        }
    }

    /// What the arena keeps: the structure attributes only for the
    /// main-content selection.
    fn keep(&self) -> Keep {
        Keep {
            errors: self.errors(),
            structure: self.main_content,
        }
    }
}

impl Default for Options<'_> {
    /// Default hints, unsafe links neutralised, parse errors only counted.
    fn default() -> Self {
        Options {
            hints: Hints::default(),
            keep_unsafe_links: false,
            parse_errors: false,
            address: None,
            extensions: true,
            main_content: false,
        }
    }
}

/// Why the pipeline settled on its encoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Why {
    /// The input was text already ([`ingest_str`]): nothing was decoded.
    Text,
    /// The sniffing algorithm decided, and no `<meta>` the parser met
    /// changed it (it was certain, or no `<meta>` declared an encoding).
    Sniffed(Source),
    /// A `<meta>` the parser met declared the tentative encoding: it became
    /// certain.
    Confirmed {
        /// What the sniffing algorithm had said.
        sniffed: Source,
        /// The line of the `<meta>`.
        line: u32,
    },
    /// A `<meta>` the parser met declared another encoding: the bytes were
    /// decoded again with it (seed 001 §8.2.2.4).
    Changed {
        /// The tentative encoding sniffing had chosen.
        from: &'static Encoding,
        /// What the sniffing algorithm had said.
        sniffed: Source,
        /// The encoding the `<meta>` declared (before the standard's
        /// substitutions of UTF-16 and x-user-defined).
        declared: &'static Encoding,
        /// The line of the `<meta>`.
        line: u32,
        /// Whether the bytes read until then meant the same in both
        /// encodings (the standard would switch decoders on the fly; here
        /// the result is the same as decoding again).
        on_the_fly: bool,
    },
}

/// The encoding the pipeline settled on, and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settled {
    /// The encoding the document was decoded with.
    pub encoding: &'static Encoding,
    /// Whether it was certain in the end (tentative only when nothing
    /// declared it: no BOM, no transport charset, no `<meta>`).
    pub confidence: Confidence,
    /// Why.
    pub why: Why,
}

impl Settled {
    /// Which step decided, as one stable name: the sniffing step's
    /// ([`sniff::Source::kind`]) when nothing changed it, `meta-confirmed`
    /// when the parser met a `<meta>` that confirmed a tentative encoding,
    /// `meta-changed` when it changed it, `text` for text given as such.
    pub fn source_kind(&self) -> &'static str {
        match self.why {
            Why::Text => "text",
            Why::Sniffed(source) => source.kind(),
            Why::Confirmed { .. } => "meta-confirmed",
            Why::Changed { .. } => "meta-changed",
        }
    }
}

impl fmt::Display for Settled {
    /// `windows-1252 (tentative): default (nothing declared it)`, or
    /// `ISO-8859-2 (certain): <meta> on line 12 read by the parser (the
    /// prescan had given windows-1252: ...)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({}): ", self.encoding.name(), self.confidence)?;
        match self.why {
            Why::Text => f.write_str("the input was text"),
            Why::Sniffed(source) => write!(f, "{source}"),
            Why::Confirmed { sniffed, line } => {
                write!(f, "{sniffed}, confirmed by the <meta> on line {line}")
            }
            Why::Changed {
                from,
                sniffed,
                declared,
                line,
                on_the_fly,
            } => {
                write!(f, "<meta> on line {line} read by the parser")?;
                if declared != self.encoding {
                    write!(
                        f,
                        " (declares {}, read as {})",
                        declared.name(),
                        self.encoding.name()
                    )?;
                }
                write!(
                    f,
                    "; sniffing had tentatively given {} ({sniffed})",
                    from.name()
                )?;
                f.write_str(if on_the_fly {
                    "; the bytes before it read the same in both, so the decoder switched"
                } else {
                    "; the bytes before it read differently, so the page was decoded again"
                })
            }
        }
    }
}

/// The result of ingesting a page.
#[derive(Debug, Clone)]
pub struct Ingested {
    /// The document.
    pub document: Document,
    /// Every loss and notable mapping, in document order, with source lines.
    pub diagnostics: Vec<Diagnostic>,
    /// The encoding used and why.
    pub encoding: Settled,
    /// The diagnostics grouped, the ballast counted, for a person to read.
    pub summary: Summary,
}

/// What the pipeline gives: the tree of the final parse (none when only the
/// encoding was asked for), the answer, and the line of the first
/// malformed byte sequence if the decoding had any.
struct Pipeline {
    arena: Option<sink::Arena>,
    settled: Settled,
    malformed: Option<u32>,
    /// NULs replaced with U+FFFD by the decoding the tree was built from:
    /// how many, and the line of the first.
    nul: Option<(usize, u32)>,
}

/// How far [`run_pipeline`] goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Goal {
    /// Only the encoding ([`settle_encoding`]): the parse stops at the first
    /// `<meta>` that declares one, and no tree is kept.
    Encoding,
    /// The tree of the final parse too ([`ingest`]).
    Tree,
}

/// How many NULs the decoding replaced, and the line of the first.
fn nul_replaced(decoded: &sniff::Decoded<'_>) -> Option<(usize, u32)> {
    let at = decoded.first_nul?;
    let line = 1 + decoded
        .text
        .get(..at)
        .map_or(0, |s| s.matches('\n').count());
    Some((decoded.nul, u32::try_from(line).unwrap_or(u32::MAX)))
}

/// The line of the first U+FFFD of a decoding that had errors (one a NUL
/// became may come first: the line is "near" the first malformed bytes).
fn malformed_line(text: &str, had_errors: bool) -> Option<u32> {
    if !had_errors {
        return None;
    }
    let at = text.find('\u{fffd}')?;
    let line = 1 + text.get(..at).map_or(0, |s| s.matches('\n').count());
    Some(u32::try_from(line).unwrap_or(u32::MAX))
}

/// How the pipeline settles the encoding, shared by [`ingest`] and
/// [`settle_encoding`]. The decoded text is borrowed from the bytes when it
/// can be (valid UTF-8) and dropped as soon as the parse is done, so that
/// the tree and the document never share the peak with it.
fn run_pipeline(bytes: &[u8], hints: &Hints<'_>, keep: Keep, goal: Goal) -> Pipeline {
    let sniffed: Sniffed = sniff::sniff(bytes, hints);
    let mut settled = Settled {
        encoding: sniffed.encoding,
        confidence: sniffed.confidence,
        why: Why::Sniffed(sniffed.source),
    };
    let decoded = sniff::decode(bytes, sniffed.encoding);
    let mut malformed = malformed_line(&decoded.text, decoded.had_errors);
    let mut nul = nul_replaced(&decoded);
    let declarations = match sniffed.confidence {
        Confidence::Tentative => Declarations::Watch,
        Confidence::Certain => Declarations::Ignore,
    };
    let mut change: Option<(EncodingChange, &'static Encoding, u32)> = None;
    let mut on_meta = |declared: &'static Encoding, line: u32| {
        let converted = converted_through_line(bytes, sniffed.encoding, line);
        let decision = sniff::change_the_encoding(
            sniffed.encoding,
            Confidence::Tentative,
            declared,
            converted,
            hints.rules,
        );
        change = Some((decision, declared, line));
        match decision {
            EncodingChange::Keep(_) if goal == Goal::Tree => OnMeta::Settled,
            EncodingChange::Keep(_)
            | EncodingChange::SwitchOnTheFly(_)
            | EncodingChange::Reparse(_) => OnMeta::Stop,
        }
    };
    let mut arena = parse::parse(&decoded.text, keep, declarations, &mut on_meta);
    drop(decoded);
    if goal == Goal::Encoding {
        arena = None;
    }
    if let Some((decision, declared, line)) = change {
        settled.confidence = Confidence::Certain;
        match decision {
            EncodingChange::Keep(_) => {
                settled.why = Why::Confirmed {
                    sniffed: sniffed.source,
                    line,
                };
            }
            EncodingChange::SwitchOnTheFly(new) | EncodingChange::Reparse(new) => {
                settled.encoding = new;
                settled.why = Why::Changed {
                    from: sniffed.encoding,
                    sniffed: sniffed.source,
                    declared,
                    line,
                    on_the_fly: matches!(decision, EncodingChange::SwitchOnTheFly(_)),
                };
                arena = None;
                if goal == Goal::Tree {
                    // Seed 001 §8.2.2.4 step 4: decode again from the start,
                    // with the confidence certain (no more watching).
                    let again = sniff::decode(bytes, new);
                    malformed = malformed_line(&again.text, again.had_errors);
                    nul = nul_replaced(&again);
                    arena = parse::parse(&again.text, keep, Declarations::Ignore, &mut |_, _| {
                        OnMeta::Settled
                    });
                }
            }
        }
    }
    Pipeline {
        arena,
        settled,
        malformed,
        nul,
    }
}

/// The bytes a streaming decoder would have converted when the parser met
/// the `<meta>` on `line`: everything up to the end of that line (counted
/// as html5ever counts lines: LF, CR LF or a lone CR end one). For encodings
/// that are not ASCII-compatible, line ends cannot be found in the bytes:
/// all of them.
fn converted_through_line<'b>(bytes: &'b [u8], encoding: &'static Encoding, line: u32) -> &'b [u8] {
    if !encoding.is_ascii_compatible() {
        return bytes;
    }
    let mut seen = 1u32;
    let mut i = 0;
    while i < bytes.len() {
        match bytes.get(i) {
            Some(b'\n') => {
                if seen >= line {
                    return bytes.get(..i).unwrap_or(bytes);
                }
                seen += 1;
            }
            Some(b'\r') => {
                if seen >= line {
                    return bytes.get(..i).unwrap_or(bytes);
                }
                seen += 1;
                if bytes.get(i + 1) == Some(&b'\n') {
                    i += 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    bytes
}

/// Which encoding the pipeline settles on for `bytes`, and why, without
/// building a document: sniffing, then (while tentative) html5ever's tree
/// construction up to the first `<meta>` that declares an encoding. This is
/// what `pagetext sniff` reports and what the html5lib encoding cases whose
/// `<meta>` lies beyond the prescan window are checked against.
///
/// ```
/// use htmlio::ingest::{Why, settle_encoding};
///
/// // A <meta> after 1100 bytes of comment: beyond the prescan's window.
/// let mut page = b"<!DOCTYPE html><!--".to_vec();
/// page.extend(std::iter::repeat(b'x').take(1100));
/// page.extend(b"--><meta charset=\"iso-8859-2\"><p>\xb1".iter());
/// let hints = sniff::Hints::default().with_autodetect(None);
/// let settled = settle_encoding(&page, &hints);
/// assert_eq!(settled.encoding, encoding_rs::ISO_8859_2);
/// assert!(matches!(settled.why, Why::Changed { line: 1, .. }));
/// ```
pub fn settle_encoding(bytes: &[u8], hints: &Hints<'_>) -> Settled {
    run_pipeline(bytes, hints, ParseErrors::Count.into(), Goal::Encoding).settled
}

/// Ingests a page given as bytes: sniffs and decodes them, parses with
/// html5ever (again when a `<meta>` changes the encoding), and maps the
/// tree to the model. Never fails and never panics: any bytes give a
/// document.
pub fn ingest(bytes: &[u8], options: &Options<'_>) -> Ingested {
    let Pipeline {
        arena,
        settled,
        malformed,
        nul,
    } = run_pipeline(bytes, &options.hints, options.keep(), Goal::Tree);
    // A parse that does not watch never stops, so there is always a tree.
    let arena = arena.unwrap_or_else(|| empty_arena(options.errors()));
    let mut pre = Vec::new();
    if let Why::Changed { line, .. } = settled.why {
        pre.push(Diagnostic::at_line(
            Code::EncodingChanged,
            Severity::Info,
            line,
            settled.to_string(),
        ));
    }
    if let Some(line) = malformed {
        pre.push(Diagnostic::at_line(
            Code::MalformedBytes,
            Severity::Warning,
            line,
            format!(
                "bytes that are malformed in {} were replaced with U+FFFD (the first near here)",
                settled.encoding.name()
            ),
        ));
    }
    if let Some((count, line)) = nul {
        // Seed 001 §8.2.2.3: each U+0000 in the input stream is a parse
        // error and becomes U+FFFD.
        pre.push(Diagnostic::at_line(
            Code::NulReplaced,
            Severity::Warning,
            line,
            format!("{count} NUL character(s) (U+0000) replaced with U+FFFD (the first here)"),
        ));
    }
    let encoding = settled.encoding;
    finish(
        &arena,
        options,
        settled,
        pre,
        columns::Parsed::Bytes(bytes, encoding),
    )
}

/// How [`wikitext::canon`] treats a page's document: the repairs that are
/// harmless for HTML go unreported (lists of one type in a row, which the
/// page's author could not tell apart either; empty lines at the edges of
/// `<pre>`; runs of spaces, which HTML collapses), and markup that touches
/// a letter or digit is spaced apart so that it stays (seed 000 rule 3),
/// with an info diagnostic.
pub const POLICY: wikitext::Policy = wikitext::Policy {
    silent: wikitext::Silent::MERGED_LISTS
        .union(wikitext::Silent::PRE_EMPTY_LINES)
        .union(wikitext::Silent::SPACE_RUNS),
    touching: wikitext::Touching::SpaceApart,
    ..wikitext::Policy::DEFAULT
};

/// Ingests a page that is text already (for example XHTML that
/// [`crate::emit`] wrote): no sniffing, no decoding; `<meta>` encoding
/// declarations are ignored.
pub fn ingest_str(text: &str, options: &Options<'_>) -> Ingested {
    let settled = Settled {
        encoding: UTF_8,
        confidence: Confidence::Certain,
        why: Why::Text,
    };
    let arena = parse::parse(text, options.keep(), Declarations::Ignore, &mut |_, _| {
        OnMeta::Settled
    })
    .unwrap_or_else(|| empty_arena(options.errors()));
    finish(
        &arena,
        options,
        settled,
        Vec::new(),
        columns::Parsed::Text(text),
    )
}

fn empty_arena(errors: ParseErrors) -> sink::Arena {
    use html5ever::tree_builder::TreeSink;
    sink::Sink::new(errors).finish()
}

fn finish(
    arena: &sink::Arena,
    options: &Options<'_>,
    settled: Settled,
    pre: Vec<Diagnostic>,
    source: columns::Parsed<'_>,
) -> Ingested {
    let selection = options.main_content.then(|| main_content::select(arena));
    let (skip, main_content) = match selection {
        Some(s) => (s.skip, Some(s.report)),
        None => (Vec::new(), None),
    };
    let build::Built {
        document,
        mut diags,
        attributed,
        ballast,
    } = build::Builder::new(arena, options, settled.encoding)
        .skipping(skip)
        .build();
    if !attributed.is_empty() {
        columns::add_columns(&mut diags, &attributed, arena, &source);
    }
    let mut diagnostics = pre;
    if options.parse_errors {
        diagnostics.extend(arena.error_list.iter().map(|(line, msg)| {
            Diagnostic::at_line(
                Code::ParseError,
                Severity::Info,
                *line,
                format!("html5ever: {msg}"),
            )
        }));
    }
    if arena.forbidden.0 > 0 {
        diagnostics.push(Diagnostic::at_line(
            Code::ForbiddenCharacter,
            Severity::Warning,
            arena.forbidden.1,
            format!(
                "{} characters that XML cannot hold (control characters, U+FFFE, U+FFFF) were replaced with U+FFFD (the first on this line)",
                arena.forbidden.0
            ),
        ));
    }
    if arena.too_deep.0 > 0 {
        diagnostics.push(Diagnostic::at_line(
            Code::NestingTooDeep,
            Severity::Warning,
            arena.too_deep.1,
            format!(
                "elements nest more than {} deep: {} start tags of containers were ignored (their content is kept)",
                parse::MAX_OPEN,
                arena.too_deep.0
            ),
        ));
    }
    diagnostics.extend(diags);
    diagnostics.sort_by_key(|d| d.span.line);
    let mut summary = Summary {
        ballast,
        parse_errors: (arena.parse_errors, arena.first_error_line),
        main_content,
        ..Summary::default()
    };
    summary.count(&diagnostics);
    Ingested {
        document,
        diagnostics,
        encoding: settled,
        summary,
    }
}
