//! The encoding sniffing algorithm: from bytes and out-of-band hints to an
//! encoding, a confidence and the reason.
//!
//! Spec: seed 001 §8.2.2.1 ("Determining the character encoding"), steps 1
//! to 7; later standard: HTML 5.2 §8.2.2.2 (the same algorithm with a user
//! override first, the BOM handled by the Encoding Standard's "decode", and a
//! step for nested browsing contexts, which has no meaning here).

use std::fmt;

use chardetng::{EncodingDetector, Iso2022JpDetection, Utf8Detection};
use encoding_rs::{Encoding, WINDOWS_1252};

use crate::meta::extract_encoding_from_meta_content;
use crate::prescan::{MetaCharset, MetaDeclaration, Prescan};
use crate::xmldecl::{XmlEncoding, get_an_xml_encoding, utf16_xml_declaration};

/// Which version of the algorithms runs.
///
/// The later standard is the default because browsers and the peer test
/// suites behave that way; the seed's 2007 text stays available under its
/// own name. The crate docs list every difference.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum Rules {
    /// The later HTML standard (HTML 5.2 / WHATWG), as browsers implement it.
    #[default]
    Standard,
    /// The HTML5 draft of October 2007 (seed 001), to the letter, with its
    /// obvious typos fixed.
    Seed2007,
}

/// How sure the sniffing algorithm is, which decides whether a `<meta>` met
/// later by the parser may still change the encoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum Confidence {
    /// The encoding is a guess: a declaration found while parsing may change it.
    Tentative,
    /// The encoding is settled: the parser keeps it whatever the document says.
    Certain,
}

impl fmt::Display for Confidence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Confidence::Tentative => "tentative",
            Confidence::Certain => "certain",
        })
    }
}

/// Why the sniffing algorithm chose its encoding: which step decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(tag = "kind", rename_all = "kebab-case"))]
#[non_exhaustive]
pub enum Source {
    /// A byte order mark at the start of the bytes (seed step 3; in the later
    /// standard the Encoding Standard's "decode" lets it override everything).
    Bom,
    /// The user said which encoding to use (later standard step 1).
    UserOverride,
    /// The transport layer named a charset, e.g. a `Content-Type` header
    /// (seed step 1, later standard step 3).
    Transport,
    /// The prescan found a `<meta>` declaration (seed step 4, later step 4).
    Meta {
        /// Byte offset of the `<` of the `<meta` tag.
        offset: usize,
        /// Which attribute declared it.
        declaration: MetaDeclaration,
        /// The encoding the label names, when the prescan used another one:
        /// the later standard reads a UTF-16 label as UTF-8 and
        /// `x-user-defined` as windows-1252. `None` when the label's own
        /// encoding is used.
        #[cfg_attr(
            feature = "serde",
            serde(
                serialize_with = "crate::serde_optional_name",
                skip_serializing_if = "Option::is_none"
            )
        )]
        declared: Option<&'static Encoding>,
    },
    /// The document starts with an XML declaration: `<?xml ...
    /// encoding="...">` ("get an XML encoding"), or the UTF-16 byte pattern
    /// of `<?x` (the prescan's step 2). Living standard only (whatwg/html
    /// pull request 1752). For HTML it comes after the `<meta>` loop and is
    /// tentative, like the prescan's answers; for an XML document
    /// ([`Hints::xml`]) it comes before any `<meta>` and is certain.
    XmlDeclaration {
        /// Byte offset of the encoding name's first byte (after the quote);
        /// 0 for the UTF-16 byte pattern, whose name is not read.
        offset: usize,
        /// Whether the UTF-16 byte pattern of `<?x` decided (UTF-16LE or
        /// UTF-16BE), rather than an `encoding="..."` in ASCII.
        utf16_pattern: bool,
        /// The encoding the label names when another one is used ("get an
        /// XML encoding" step 17 reads a UTF-16 label as UTF-8). `None`
        /// when the label's own encoding is used.
        #[cfg_attr(
            feature = "serde",
            serde(
                serialize_with = "crate::serde_optional_name",
                skip_serializing_if = "Option::is_none"
            )
        )]
        declared: Option<&'static Encoding>,
    },
    /// The caller knew the likely encoding, e.g. from an earlier visit
    /// (seed step 5, later step 6).
    Likely,
    /// chardetng guessed it from the bytes (seed step 6, later step 7).
    Autodetected {
        /// How many bytes from the start were given to the detector.
        examined: usize,
    },
    /// Nothing said anything: the default encoding (seed step 7, later step 8).
    Default,
    /// Nothing said anything, and the user chose the default in place of
    /// autodetection, as a browser would assume it (its locale's, a parent
    /// frame's): the later standard's step 8 "user-specified default", with
    /// the optional step 7 left out. See [`Hints::user_default`].
    UserDefault,
    /// The document is XML ([`Hints::xml`]) and declares no encoding: UTF-8,
    /// as XML 1.0 §4.3.3 and Appendix F say.
    XmlDefault,
}

impl Source {
    /// The step's stable kebab-case name, as the `kind` of the serialised
    /// form: `bom`, `user-override`, `transport`, `meta`,
    /// `xml-declaration`, `likely`, `autodetected`, `default`,
    /// `user-default`, `xml-default`.
    ///
    /// ```
    /// let sniffed = sniff::sniff(b"<meta charset=koi8-r>", &sniff::Hints::default());
    /// assert_eq!(sniffed.source.kind(), "meta");
    /// ```
    pub fn kind(&self) -> &'static str {
        match self {
            Source::Bom => "bom",
            Source::UserOverride => "user-override",
            Source::Transport => "transport",
            Source::Meta { .. } => "meta",
            Source::XmlDeclaration { .. } => "xml-declaration",
            Source::Likely => "likely",
            Source::Autodetected { .. } => "autodetected",
            Source::Default => "default",
            Source::UserDefault => "user-default",
            Source::XmlDefault => "xml-default",
        }
    }
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Bom => f.write_str("byte order mark"),
            Source::UserOverride => f.write_str("encoding chosen by the user"),
            Source::Transport => f.write_str("charset given by the transport layer (Content-Type)"),
            Source::Meta {
                offset,
                declaration,
                declared,
            } => {
                match declaration {
                    MetaDeclaration::Charset => write!(f, "<meta charset> at byte {offset}")?,
                    MetaDeclaration::Pragma => write!(f, "<meta content> at byte {offset}")?,
                }
                // A substitution is worth showing; there are only two.
                if let Some(declared) = declared {
                    let used = if crate::prescan::is_utf16(declared) {
                        "UTF-8"
                    } else {
                        "windows-1252"
                    };
                    write!(f, " (declares {}, read as {used})", declared.name())?;
                }
                Ok(())
            }
            Source::XmlDeclaration {
                offset,
                utf16_pattern,
                declared,
            } => {
                if *utf16_pattern {
                    return write!(f, "XML declaration in UTF-16 (<?x) at byte {offset}");
                }
                write!(f, "<?xml encoding> at byte {offset}")?;
                if let Some(declared) = declared {
                    write!(f, " (declares {}, read as UTF-8)", declared.name())?;
                }
                Ok(())
            }
            Source::Likely => f.write_str("likely encoding known beforehand"),
            Source::Autodetected { examined } => {
                write!(f, "guessed by chardetng from the first {examined} bytes")
            }
            Source::Default => f.write_str("default (nothing declared it)"),
            Source::XmlDefault => f.write_str("XML without an encoding declaration: UTF-8"),
            Source::UserDefault => {
                f.write_str("default chosen by the user (nothing declared it; no autodetection)")
            }
        }
    }
}

/// The answer of the sniffing algorithm.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Sniffed {
    /// The encoding to decode with. Its WHATWG name is `encoding.name()`
    /// (`windows-1252`, `Shift_JIS`, `EUC-JP`...); serialised as that name.
    #[cfg_attr(feature = "serde", serde(serialize_with = "crate::serde_name"))]
    pub encoding: &'static Encoding,
    /// Whether the parser may still change it.
    pub confidence: Confidence,
    /// Which step decided.
    pub source: Source,
}

impl fmt::Display for Sniffed {
    /// `EUC-JP (tentative): <meta charset> at byte 112`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({}): {}",
            self.encoding.name(),
            self.confidence,
            self.source
        )
    }
}

/// Whether autodetection may answer UTF-8.
///
/// Browsers must say [`Deny`](Utf8Guess::Deny) for pages from the network so
/// that authors cannot come to rely on it; for local files the later standard
/// notes that detecting UTF-8 is especially reliable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Utf8Guess {
    /// UTF-8 is a possible answer.
    Allow,
    /// UTF-8 is never answered; valid UTF-8 gets the legacy guess for the TLD.
    Deny,
}

/// The most bytes, counted from the first non-ASCII byte, that autodetection
/// gives to chardetng by default. The crate docs ("How much chardetng reads")
/// say how this was measured.
pub const AUTODETECT_MAX_BYTES: usize = 64 * 1024;

/// How many non-ASCII bytes autodetection waits for, by default, before it
/// stops feeding chardetng early: with that much evidence the guess no longer
/// changed on any page measured (see the crate docs).
pub const AUTODETECT_ENOUGH_NON_ASCII: usize = 256;

/// Settings for step 6 (autodetection with chardetng).
///
/// The detector reads the document from the start in chunks and stops at
/// whichever comes first: [`enough_non_ascii`](Self::enough_non_ascii)
/// non-ASCII bytes read, [`max_bytes`](Self::max_bytes) read after the first
/// non-ASCII byte, or the end. The ASCII run before the first non-ASCII byte
/// costs almost nothing (chardetng skips it), and an all-ASCII document is
/// not given to the detector at all: the default applies. The exception is
/// ISO-2022-JP, which is 7-bit: when the bytes hold one of its escape
/// sequences (ESC `$` or ESC `(`), the detector runs from the first of them,
/// with ISO-2022-JP allowed, and the UTF-8 shortcut is not taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Autodetect<'a> {
    /// The top-level domain the document came from (`jp`, `ru`, `com`...), or
    /// a whole host name, whose last label is used. It tips the guess towards
    /// the legacy encodings of that region. Anything that is not ASCII letters,
    /// digits and `-` counts as no hint.
    pub tld: Option<&'a str>,
    /// Whether UTF-8 may be guessed.
    pub utf8: Utf8Guess,
    /// The most bytes read after the first non-ASCII byte.
    pub max_bytes: usize,
    /// Stop once this many non-ASCII bytes have been read.
    pub enough_non_ascii: usize,
}

impl Default for Autodetect<'_> {
    /// No TLD, UTF-8 allowed (this crate reads files),
    /// [`AUTODETECT_MAX_BYTES`] and [`AUTODETECT_ENOUGH_NON_ASCII`].
    fn default() -> Self {
        Autodetect {
            tld: None,
            utf8: Utf8Guess::Allow,
            max_bytes: AUTODETECT_MAX_BYTES,
            enough_non_ascii: AUTODETECT_ENOUGH_NON_ASCII,
        }
    }
}

/// What the caller knows besides the bytes: the out-of-band inputs of the
/// sniffing algorithm and the choices it leaves to the user agent.
///
/// ```
/// use sniff::{Autodetect, Hints, Utf8Guess};
///
/// let hints = Hints::default()
///     .with_content_type(b"text/html; charset=ISO-8859-2")
///     .with_autodetect(Some(Autodetect { tld: Some("example.cz"), utf8: Utf8Guess::Deny, ..Autodetect::default() }));
/// assert_eq!(hints.transport, Some(encoding_rs::ISO_8859_2));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hints<'a> {
    /// Which version of the algorithm runs.
    pub rules: Rules,
    /// An encoding the user insists on (later standard step 1, certain).
    /// A BOM still wins under the later standard.
    pub user_override: Option<&'static Encoding>,
    /// The charset the transport layer gave (certain); see
    /// [`with_content_type`](Self::with_content_type).
    pub transport: Option<&'static Encoding>,
    /// How many bytes the prescan's `<meta>` loop (and its UTF-16 byte
    /// patterns) reads; `None` means the version's own (1024 for the later
    /// standard, unbounded for the seed). "Get an XML encoding" is not
    /// bounded by it: it reads the declaration to its first `>`.
    pub prescan_window: Option<usize>,
    /// The likely encoding, e.g. the one the page had last time (tentative).
    pub likely: Option<&'static Encoding>,
    /// Autodetection settings; `None` skips the step.
    pub autodetect: Option<Autodetect<'a>>,
    /// The encoding when no step decides (tentative).
    pub default: &'static Encoding,
    /// The document is XML (an `.xhtml` file, as a browser reads one): after
    /// the BOM, user override and transport, its XML declaration decides,
    /// certain, before any `<meta>`, and without one it is UTF-8, certain
    /// ([`Source::XmlDefault`]). Under the later standard's rules only.
    pub xml: bool,
    /// A default the user chose: when no BOM, user override, transport,
    /// declaration or likely encoding decides, this encoding is used
    /// (tentative, [`Source::UserDefault`]) and autodetection does not run.
    pub user_default: Option<&'static Encoding>,
}

impl Default for Hints<'_> {
    /// The later standard's rules, no out-of-band information, autodetection
    /// with [`Autodetect::default`], windows-1252 as the default.
    fn default() -> Self {
        Hints {
            rules: Rules::Standard,
            user_override: None,
            transport: None,
            prescan_window: None,
            likely: None,
            autodetect: Some(Autodetect::default()),
            default: WINDOWS_1252,
            user_default: None,
            xml: false,
        }
    }
}

impl<'a> Hints<'a> {
    /// The same hints under other rules.
    #[must_use]
    pub fn with_rules(self, rules: Rules) -> Self {
        Hints { rules, ..self }
    }

    /// Sets the transport charset from a `Content-Type` value such as
    /// `text/html; charset=euc-jp` (the `charset` parameter is read with
    /// [`extract_encoding_from_meta_content`]). A value without a usable
    /// charset leaves the hints as they were.
    #[must_use]
    pub fn with_content_type(self, value: &[u8]) -> Self {
        match extract_encoding_from_meta_content(value, Rules::Standard) {
            Some(encoding) => Hints {
                transport: Some(encoding),
                ..self
            },
            None => self,
        }
    }

    /// Sets or clears the user override.
    #[must_use]
    pub fn with_user_override(self, encoding: Option<&'static Encoding>) -> Self {
        Hints {
            user_override: encoding,
            ..self
        }
    }

    /// Sets or clears the likely encoding.
    #[must_use]
    pub fn with_likely(self, encoding: Option<&'static Encoding>) -> Self {
        Hints {
            likely: encoding,
            ..self
        }
    }

    /// Sets or clears (with `None`) autodetection.
    #[must_use]
    pub fn with_autodetect(self, autodetect: Option<Autodetect<'a>>) -> Self {
        Hints { autodetect, ..self }
    }

    /// Sets the default encoding of the last step.
    #[must_use]
    pub fn with_default(self, encoding: &'static Encoding) -> Self {
        Hints {
            default: encoding,
            ..self
        }
    }

    /// Reads the document as XML or not (see [`Hints::xml`]).
    #[must_use]
    pub fn with_xml(self, xml: bool) -> Self {
        Hints { xml, ..self }
    }

    /// Sets or clears the user's default (see [`Hints::user_default`]).
    #[must_use]
    pub fn with_user_default(self, encoding: Option<&'static Encoding>) -> Self {
        Hints {
            user_default: encoding,
            ..self
        }
    }

    /// Sets the prescan window (`None`: the version's own).
    #[must_use]
    pub fn with_prescan_window(self, window: Option<usize>) -> Self {
        Hints {
            prescan_window: window,
            ..self
        }
    }

    fn prescan(&self) -> Prescan {
        let prescan = Prescan::for_rules(self.rules);
        match self.prescan_window {
            Some(window) => prescan.with_window(window),
            None => prescan,
        }
    }
}

/// <https://html.spec.whatwg.org/multipage/parsing.html#encoding-sniffing-algorithm>
///
/// Runs the encoding sniffing algorithm on `bytes` (all the bytes there are,
/// or as many as are available) with what the caller knows. It never fails:
/// the last step always has an answer.
///
/// Order of the steps under [`Rules::Standard`]: BOM, user override,
/// transport, prescan (the UTF-16 patterns of `<?x`, `<meta>`, then the
/// XML declaration: [`Source::XmlDeclaration`]), likely encoding,
/// autodetection, default. Under
/// [`Rules::Seed2007`]: user override (not in the seed, kept so that an
/// explicit choice is never ignored), transport, BOM, prescan, likely
/// encoding, autodetection, default.
///
/// ```
/// use sniff::{Confidence, Hints, Source, sniff};
///
/// let page = b"<html><head><meta charset=windows-1251><title>\xcf\xf0\xe8\xe2\xe5\xf2</title>";
/// let sniffed = sniff(page, &Hints::default());
/// assert_eq!(sniffed.encoding, encoding_rs::WINDOWS_1251);
/// assert_eq!(sniffed.confidence, Confidence::Tentative);
/// assert!(matches!(sniffed.source, Source::Meta { offset: 12, .. }));
/// assert_eq!(sniffed.source.to_string(), "<meta charset> at byte 12");
/// ```
pub fn sniff(bytes: &[u8], hints: &Hints<'_>) -> Sniffed {
    let certain = |encoding, source| Sniffed {
        encoding,
        confidence: Confidence::Certain,
        source,
    };
    let bom = || Encoding::for_bom(bytes).map(|(encoding, _)| certain(encoding, Source::Bom));
    let user = || {
        hints
            .user_override
            .map(|e| certain(e, Source::UserOverride))
    };
    let transport = || hints.transport.map(|e| certain(e, Source::Transport));
    let early = match hints.rules {
        // Later standard: the BOM overrides everything (the Encoding
        // Standard's "decode"), then step 1 (user) and step 3 (transport).
        Rules::Standard => bom().or_else(user).or_else(transport),
        // Seed: step 1 (transport) before step 3 (BOM).
        Rules::Seed2007 => user().or_else(transport).or_else(bom),
    };
    if let Some(sniffed) = early {
        return sniffed;
    }
    // An XML document: its declaration (XML 1.0 §4.3.3 and Appendix F,
    // read with the living standard's steps), else UTF-8; no `<meta>`, no
    // guessing.
    // The declaration is read to its first `>` wherever that is, as in
    // HTML below.
    if hints.xml && hints.rules == Rules::Standard {
        let found =
            utf16_xml_declaration(window(bytes, hints)).or_else(|| get_an_xml_encoding(bytes));
        return match found {
            Some(found) => certain(found.encoding, xml_source(found)),
            None => certain(encoding_rs::UTF_8, Source::XmlDefault),
        };
    }
    let tentative = |encoding, source| Sniffed {
        encoding,
        confidence: Confidence::Tentative,
        source,
    };
    // Living standard, "prescan a byte stream to determine its encoding"
    // step 2: the UTF-16 byte patterns of `<?x`, before the `<meta>` loop.
    // Not in the seed nor in HTML 5.2.
    if hints.rules == Rules::Standard
        && let Some(found) = utf16_xml_declaration(window(bytes, hints))
    {
        return tentative(found.encoding, xml_source(found));
    }
    // Seed step 4 / later step 4: the prescan (its `<meta>` loop).
    if let Some(MetaCharset {
        encoding,
        declared,
        offset,
        declaration,
    }) = hints.prescan().run(bytes)
    {
        let source = Source::Meta {
            offset,
            declaration,
            declared: (declared != encoding).then_some(declared),
        };
        return tentative(encoding, source);
    }
    // Living standard, end of "prescan a byte stream to determine its
    // encoding": the `<meta>` loop found nothing, so "get an XML encoding".
    // It is given all the bytes, not the prescan's window: its step 3 takes
    // the next `>` of the input byte stream, and no end condition bounds it
    // (browsers honour a declaration whose `>` is the 1025th byte; see
    // `xmldecl.rs` for the web-platform-tests cases).
    if hints.rules == Rules::Standard
        && let Some(found) = get_an_xml_encoding(bytes)
    {
        return tentative(found.encoding, xml_source(found));
    }
    // Later step 5 (the parent document of a nested browsing context) has no
    // counterpart here: a file has no parent document.
    // Seed step 5 / later step 6: the likely encoding.
    if let Some(encoding) = hints.likely {
        return tentative(encoding, Source::Likely);
    }
    // Later step 8's "user-specified default", chosen in place of the
    // optional step 7 (autodetection).
    if let Some(encoding) = hints.user_default {
        return tentative(encoding, Source::UserDefault);
    }
    // Seed step 6 / later step 7: autodetection.
    if let Some(settings) = &hints.autodetect
        && let Some((encoding, examined)) = autodetect(bytes, settings)
    {
        return tentative(encoding, Source::Autodetected { examined });
    }
    // Seed step 7 / later step 8: the default.
    tentative(hints.default, Source::Default)
}

/// The bytes the prescan looks at: its window.
fn window<'b>(bytes: &'b [u8], hints: &Hints<'_>) -> &'b [u8] {
    let window = hints.prescan().window;
    bytes.get(..window.min(bytes.len())).unwrap_or(bytes)
}

/// The [`Source`] of an answer of the XML-declaration steps.
fn xml_source(found: XmlEncoding) -> Source {
    Source::XmlDeclaration {
        offset: found.offset,
        utf16_pattern: found.utf16_pattern,
        declared: (found.declared != found.encoding).then_some(found.declared),
    }
}

/// How many bytes autodetection feeds chardetng at a time.
const AUTODETECT_CHUNK: usize = 4096;

/// Step 6: chardetng on the start of the bytes (see [`Autodetect`] for how
/// much). `None` when everything is ASCII and holds no ISO-2022-JP escape
/// sequence: every other encoding a document may be guessed in reads ASCII
/// the same, so there is nothing to detect and the default applies. Returns
/// the guess and how many bytes were read.
pub(crate) fn autodetect(
    bytes: &[u8],
    settings: &Autodetect<'_>,
) -> Option<(&'static Encoding, usize)> {
    let first_non_ascii = Encoding::ascii_valid_up_to(bytes);
    // ISO-2022-JP is 7-bit: its text is escape sequences (ESC `$` to switch
    // to JIS X 0208, ESC `(` back to ASCII) between ASCII bytes, so neither
    // the all-ASCII shortcut nor the UTF-8 shortcut may skip the detector
    // when the bytes hold one. Looked for in the same window the detector
    // would read.
    let search_end = first_non_ascii
        .saturating_add(settings.max_bytes.max(1))
        .min(bytes.len());
    let first_escape = bytes
        .get(..search_end)
        .and_then(|head| head.windows(2).position(is_iso_2022_jp_escape));
    // Where the evidence starts: the first non-ASCII byte or escape.
    let start = first_escape.map_or(first_non_ascii, |esc| esc.min(first_non_ascii));
    if start >= bytes.len() {
        return None;
    }
    let limit = start
        .saturating_add(settings.max_bytes.max(1))
        .min(bytes.len());
    // Shortcut: when UTF-8 may be guessed and the window the detector would
    // examine is valid UTF-8 (a sequence cut by the window's end included),
    // chardetng's answer is UTF-8, so it need not run: it reads 5 to 15 MB/s,
    // validation reads GB/s. `examined` is the same as if it had run. Not
    // with an escape sequence: chardetng may answer ISO-2022-JP there.
    if settings.utf8 == Utf8Guess::Allow && first_escape.is_none() {
        let examined = examined_window(bytes, first_non_ascii, limit, settings.enough_non_ascii);
        let window = bytes.get(..examined)?;
        let valid = match std::str::from_utf8(window) {
            Ok(_) => true,
            Err(e) => e.error_len().is_none() && examined < bytes.len(),
        };
        if valid {
            return Some((encoding_rs::UTF_8, examined));
        }
    }
    // ISO-2022-JP can carry script past a filter that reads the bytes as
    // ASCII, so chardetng may only answer it when the bytes hold its escape
    // sequences (chardetng itself answers it only for 7-bit input with them).
    let iso_2022_jp = match first_escape {
        Some(_) => Iso2022JpDetection::Allow,
        None => Iso2022JpDetection::Deny,
    };
    let mut detector = EncodingDetector::new(iso_2022_jp);
    // The ASCII run first (chardetng keeps its last two bytes as context).
    detector.feed(bytes.get(..start)?, false);
    let mut fed = start;
    let mut non_ascii = 0;
    while fed < limit && non_ascii < settings.enough_non_ascii {
        let end = fed.saturating_add(AUTODETECT_CHUNK).min(limit);
        let chunk = bytes.get(fed..end)?;
        non_ascii += chunk.iter().filter(|&&b| b >= 0x80).count();
        // `last` only when the document really ends here: chardetng treats a
        // truncated trailing sequence as an error only then.
        detector.feed(chunk, end == bytes.len());
        fed = end;
    }
    let tld = Tld::new(settings.tld);
    let utf8 = match settings.utf8 {
        Utf8Guess::Allow => Utf8Detection::Allow,
        Utf8Guess::Deny => Utf8Detection::Deny,
    };
    Some((detector.guess(tld.as_bytes(), utf8), fed))
}

/// Whether two bytes open an ISO-2022-JP escape sequence: ESC followed by
/// `$` (ESC `$` `@`, ESC `$` `B`: JIS X 0208) or `(` (ESC `(` `B`: ASCII,
/// ESC `(` `J`: JIS X 0201 Roman, ESC `(` `I`: katakana).
fn is_iso_2022_jp_escape(pair: &[u8]) -> bool {
    matches!(pair, [0x1B, b'$' | b'('])
}

/// Where the feeding loop of [`autodetect`] stops: whole chunks from the
/// first non-ASCII byte until `limit`, or until a chunk brings the count of
/// non-ASCII bytes to `enough`.
fn examined_window(bytes: &[u8], first_non_ascii: usize, limit: usize, enough: usize) -> usize {
    let mut fed = first_non_ascii;
    let mut non_ascii = 0;
    while fed < limit && non_ascii < enough {
        let end = fed.saturating_add(AUTODETECT_CHUNK).min(limit);
        non_ascii += bytes
            .get(fed..end)
            .map_or(0, |chunk| chunk.iter().filter(|&&b| b >= 0x80).count());
        fed = end;
    }
    fed
}

/// A top-level domain in the form chardetng accepts (lowercase ASCII, no
/// period; it panics on anything else), or none.
struct Tld {
    buf: [u8; 63],
    len: usize,
}

impl Tld {
    fn new(hint: Option<&str>) -> Tld {
        let mut tld = Tld {
            buf: [0; 63],
            len: 0,
        };
        let Some(hint) = hint else { return tld };
        let label = hint.trim().trim_end_matches('.');
        let label = label.rsplit('.').next().unwrap_or(label);
        if label.len() > tld.buf.len()
            || !label
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-')
        {
            return tld;
        }
        for (slot, b) in tld.buf.iter_mut().zip(label.bytes()) {
            *slot = b.to_ascii_lowercase();
        }
        tld.len = label.len();
        tld
    }

    fn as_bytes(&self) -> Option<&[u8]> {
        match self.buf.get(..self.len) {
            Some(label) if !label.is_empty() => Some(label),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tld_tests {
    use super::Tld;

    #[test]
    fn tld_hints_are_reduced_to_a_safe_label() {
        let label = |hint| Tld::new(hint).as_bytes().map(<[u8]>::to_vec);
        assert_eq!(label(Some("JP")), Some(b"jp".to_vec()));
        assert_eq!(label(Some("www.example.co.JP.")), Some(b"jp".to_vec()));
        assert_eq!(label(Some("xn--p1ai")), Some(b"xn--p1ai".to_vec()));
        assert_eq!(label(Some("рф")), None);
        assert_eq!(label(Some("")), None);
        assert_eq!(label(Some("a_b")), None);
        assert_eq!(label(None), None);
    }
}

#[cfg(test)]
mod tests {
    use encoding_rs::{BIG5, EUC_JP, KOI8_R, SHIFT_JIS, UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1251};

    use super::*;

    const META_KOI8: &[u8] = b"<meta charset=koi8-r>\xf0\xd2\xc9\xd7\xc5\xd4";

    fn hints() -> Hints<'static> {
        Hints::default()
    }

    #[test]
    fn an_xml_document_is_read_by_its_declaration_or_as_utf8() {
        let xml = hints().with_xml(true);
        let page = b"<?xml version=\"1.0\" encoding=\"windows-1251\"?>\n<html><head><meta charset=koi8-r></head>";
        let s = sniff(page, &xml);
        assert_eq!(
            (s.encoding, s.confidence),
            (WINDOWS_1251, Confidence::Certain)
        );
        assert!(matches!(s.source, Source::XmlDeclaration { .. }));
        // As HTML, the <meta> comes first.
        assert_eq!(sniff(page, &hints()).encoding, KOI8_R);
        // No declaration: UTF-8, whatever the bytes look like.
        let s = sniff(b"<html><p>\xcf\xf0\xe8", &xml);
        assert_eq!((s.encoding, s.source), (UTF_8, Source::XmlDefault));
        // A BOM and the transport still come first.
        assert_eq!(sniff(b"\xFF\xFE<\0", &xml).source, Source::Bom);
        // The seed has no such rule.
        assert_ne!(
            sniff(page, &xml.with_rules(Rules::Seed2007)).source,
            Source::XmlDefault
        );
    }

    #[test]
    fn a_user_default_replaces_autodetection_but_no_declaration() {
        let cyrillic = b"<p>\xcf\xf0\xe8\xe2\xe5\xf2, \xec\xe8\xf0</p>";
        let chosen = hints().with_user_default(Some(WINDOWS_1251));
        let s = sniff(cyrillic, &chosen);
        assert_eq!(
            (s.encoding, s.confidence, s.source),
            (WINDOWS_1251, Confidence::Tentative, Source::UserDefault)
        );
        // All-ASCII input too: the user's default, not the built-in one.
        assert_eq!(sniff(b"<p>plain", &chosen).source, Source::UserDefault);
        // A declaration still decides.
        assert_eq!(sniff(META_KOI8, &chosen).encoding, KOI8_R);
        // So do a BOM and the transport.
        assert_eq!(sniff(b"\xEF\xBB\xBF<p>", &chosen).source, Source::Bom);
        let transport = chosen.with_content_type(b"text/html; charset=utf-8");
        assert_eq!(sniff(cyrillic, &transport).source, Source::Transport);
    }

    #[track_caller]
    fn check(bytes: &[u8], hints: Hints<'_>, expect: (&'static Encoding, Confidence, Source)) {
        let got = sniff(bytes, &hints);
        assert_eq!((got.encoding, got.confidence, got.source), expect);
    }

    use Confidence::{Certain, Tentative};

    fn meta_at(offset: usize) -> Source {
        Source::Meta {
            offset,
            declaration: MetaDeclaration::Charset,
            declared: None,
        }
    }

    #[test]
    fn bom_table() {
        // Seed step 3's table, first row first.
        check(b"\xFE\xFF\0<", hints(), (UTF_16BE, Certain, Source::Bom));
        check(b"\xFF\xFE<\0", hints(), (UTF_16LE, Certain, Source::Bom));
        check(b"\xEF\xBB\xBF<", hints(), (UTF_8, Certain, Source::Bom));
        // "As many or more bytes available": a partial BOM is not one.
        check(
            b"\xEF\xBB",
            hints().with_autodetect(None),
            (WINDOWS_1252, Tentative, Source::Default),
        );
    }

    #[test]
    fn later_standard_order_bom_user_transport_meta_likely_autodetect_default() {
        let all = hints()
            .with_user_override(Some(SHIFT_JIS))
            .with_content_type(b"text/html; charset=euc-jp")
            .with_likely(Some(BIG5));
        let with_bom = [b"\xEF\xBB\xBF".as_slice(), META_KOI8].concat();
        check(&with_bom, all, (UTF_8, Certain, Source::Bom));
        check(META_KOI8, all, (SHIFT_JIS, Certain, Source::UserOverride));
        let all = all.with_user_override(None);
        check(META_KOI8, all, (EUC_JP, Certain, Source::Transport));
        let all = Hints {
            transport: None,
            ..all
        };
        check(META_KOI8, all, (KOI8_R, Tentative, meta_at(0)));
        check(&META_KOI8[21..], all, (BIG5, Tentative, Source::Likely));
        let all = all.with_likely(None);
        let got = sniff(&META_KOI8[21..], &all);
        assert_eq!(got.confidence, Tentative);
        assert!(matches!(got.source, Source::Autodetected { examined: 6 }));
        let all = all.with_autodetect(None);
        check(
            &META_KOI8[21..],
            all,
            (WINDOWS_1252, Tentative, Source::Default),
        );
        check(
            &META_KOI8[21..],
            all.with_default(UTF_8),
            (UTF_8, Tentative, Source::Default),
        );
    }

    #[test]
    fn seed_order_transport_before_bom() {
        let seed = hints().with_rules(Rules::Seed2007);
        let with_bom = [b"\xEF\xBB\xBF".as_slice(), META_KOI8].concat();
        let transport = seed.with_content_type(b"text/html;charset=windows-1251");
        check(
            &with_bom,
            transport,
            (WINDOWS_1251, Certain, Source::Transport),
        );
        check(&with_bom, seed, (UTF_8, Certain, Source::Bom));
        check(META_KOI8, seed, (KOI8_R, Tentative, meta_at(0)));
    }

    #[test]
    fn seed_prescan_has_no_window_unless_asked() {
        let mut bytes = vec![b' '; 5000];
        bytes.extend_from_slice(b"<meta charset=big5>");
        let seed = hints().with_rules(Rules::Seed2007).with_autodetect(None);
        check(&bytes, seed, (BIG5, Tentative, meta_at(5000)));
        check(
            &bytes,
            hints().with_autodetect(None),
            (WINDOWS_1252, Tentative, Source::Default),
        );
        let bounded = seed.with_prescan_window(Some(512));
        check(&bytes, bounded, (WINDOWS_1252, Tentative, Source::Default));
    }

    #[test]
    fn a_content_type_without_charset_changes_nothing() {
        assert_eq!(hints().with_content_type(b"text/html").transport, None);
        assert_eq!(
            hints()
                .with_content_type(b"text/html; charset=nope")
                .transport,
            None
        );
        assert_eq!(
            hints()
                .with_content_type(b"text/html; charset=\"Shift_JIS\"")
                .transport,
            Some(SHIFT_JIS)
        );
    }

    #[test]
    fn ascii_only_documents_get_the_default() {
        let got = sniff(b"<p>plain ASCII</p>", &hints());
        assert_eq!((got.encoding, got.source), (WINDOWS_1252, Source::Default));
    }

    #[test]
    fn autodetection_options() {
        let utf8 = "<p>Привет, мир! Это проверка.</p>".as_bytes();
        let got = sniff(utf8, &hints());
        assert_eq!(got.encoding, UTF_8);
        let deny = Autodetect {
            utf8: Utf8Guess::Deny,
            ..Autodetect::default()
        };
        let got = sniff(utf8, &hints().with_autodetect(Some(deny)));
        assert_ne!(got.encoding, UTF_8);
        // The detector reads at most max_bytes past the first non-ASCII byte.
        let short = Autodetect {
            max_bytes: 4,
            ..Autodetect::default()
        };
        let got = sniff(utf8, &hints().with_autodetect(Some(short)));
        assert_eq!(got.source, Source::Autodetected { examined: 3 + 4 });
        // And stops early once it has seen enough non-ASCII bytes.
        let early = Autodetect {
            enough_non_ascii: 1,
            ..Autodetect::default()
        };
        let mut long = utf8.to_vec();
        long.resize(100_000, b'x');
        let got = sniff(&long, &hints().with_autodetect(Some(early)));
        assert_eq!(
            got.source,
            Source::Autodetected {
                examined: 3 + AUTODETECT_CHUNK
            }
        );
    }

    #[test]
    fn sources_in_plain_words() {
        let meta = |declaration, declared| Source::Meta {
            offset: 42,
            declaration,
            declared,
        };
        let cases = [
            (Source::Bom, "byte order mark"),
            (Source::UserOverride, "encoding chosen by the user"),
            (
                Source::Transport,
                "charset given by the transport layer (Content-Type)",
            ),
            (
                meta(MetaDeclaration::Charset, None),
                "<meta charset> at byte 42",
            ),
            (
                meta(MetaDeclaration::Pragma, None),
                "<meta content> at byte 42",
            ),
            (
                meta(MetaDeclaration::Charset, Some(UTF_16BE)),
                "<meta charset> at byte 42 (declares UTF-16BE, read as UTF-8)",
            ),
            (
                meta(MetaDeclaration::Charset, Some(encoding_rs::X_USER_DEFINED)),
                "<meta charset> at byte 42 (declares x-user-defined, read as windows-1252)",
            ),
            (xml_at(30, None), "<?xml encoding> at byte 30"),
            (
                xml_at(30, Some(UTF_16LE)),
                "<?xml encoding> at byte 30 (declares UTF-16LE, read as UTF-8)",
            ),
            (
                Source::XmlDeclaration {
                    offset: 0,
                    utf16_pattern: true,
                    declared: None,
                },
                "XML declaration in UTF-16 (<?x) at byte 0",
            ),
            (Source::Likely, "likely encoding known beforehand"),
            (
                Source::Autodetected { examined: 7 },
                "guessed by chardetng from the first 7 bytes",
            ),
            (Source::Default, "default (nothing declared it)"),
        ];
        for (source, words) in cases {
            assert_eq!(source.to_string(), words);
        }
        let sniffed = Sniffed {
            encoding: SHIFT_JIS,
            confidence: Certain,
            source: Source::Transport,
        };
        assert_eq!(
            sniffed.to_string(),
            "Shift_JIS (certain): charset given by the transport layer (Content-Type)"
        );
    }

    /// An XML declaration naming windows-1251, and Cyrillic text in it.
    const XML_1251: &[u8] = b"<?xml version=\"1.0\" encoding=\"windows-1251\"?><p>\xcf\xf0\xe8\xe2\xe5\xf2, \xec\xe8\xf0! \xdd\xf2\xee \xef\xf0\xee\xe2\xe5\xf0\xea\xe0.</p>";

    fn xml_at(offset: usize, declared: Option<&'static Encoding>) -> Source {
        Source::XmlDeclaration {
            offset,
            utf16_pattern: false,
            declared,
        }
    }

    #[test]
    fn the_xml_declaration_decides_when_no_meta_does() {
        check(
            XML_1251,
            hints(),
            (WINDOWS_1251, Tentative, xml_at(30, None)),
        );
        // Tentative, like the prescan: a `<meta>` in the window wins, since
        // "get an XML encoding" runs only when the `<meta>` loop found none.
        let both = [XML_1251, b"<meta charset=koi8-r>"].concat();
        check(&both, hints(), (KOI8_R, Tentative, meta_at(XML_1251.len())));
        // It is part of the prescan: a BOM, the user and the transport win.
        let bom = [b"\xEF\xBB\xBF".as_slice(), XML_1251].concat();
        check(&bom, hints(), (UTF_8, Certain, Source::Bom));
        let transport = hints().with_content_type(b"text/html; charset=koi8-r");
        check(XML_1251, transport, (KOI8_R, Certain, Source::Transport));
        // And it beats the likely encoding and autodetection.
        check(
            XML_1251,
            hints().with_likely(Some(BIG5)),
            (WINDOWS_1251, Tentative, xml_at(30, None)),
        );
        // Not only inside the prescan's window: the declaration is read to
        // its first `>`, wherever it is (wpt html/syntax/xmldecl,
        // `kilobyte-plus-one-before.htm`; jsdom's sniffer has this case
        // with 4096 spaces).
        let far = [
            b"<?xml version='1.0'".as_slice(),
            &[b' '; 1024],
            b"encoding='koi8-r'?>",
        ]
        .concat();
        check(
            &far,
            hints().with_autodetect(None),
            (KOI8_R, Tentative, xml_at(1024 + 29, None)),
        );
        // But only to its first `>`.
        let closed = [
            b"<?xml version='1.0'".as_slice(),
            &[b' '; 1024],
            b"?>encoding='koi8-r'?>",
        ]
        .concat();
        check(
            &closed,
            hints().with_autodetect(None),
            (WINDOWS_1252, Tentative, Source::Default),
        );
        // The `<meta>` loop keeps its window: a `<meta>` past it does not
        // hide the declaration.
        let late_meta = [XML_1251, &[b' '; 1024], b"<meta charset=koi8-r>"].concat();
        check(
            &late_meta,
            hints(),
            (WINDOWS_1251, Tentative, xml_at(30, None)),
        );
    }

    /// wpt html/syntax/xmldecl: `kilobyte-after.htm`, `kilobyte-before.htm`
    /// (`>` is the 1024th byte) and `kilobyte-plus-one-after.htm`,
    /// `kilobyte-plus-one-before.htm` (`>` is the 1025th byte), each alone
    /// and followed by 8192 NUL bytes (the `-trail` twins): all
    /// windows-1251.
    #[test]
    fn a_declaration_whose_gt_is_at_the_1024_byte_boundary() {
        const START: &[u8] = b"<?xml version=\"1.0\"";
        const ENCODING: &[u8] = b" encoding=\"windows-1251\"";
        for gt_byte in [1024, 1025] {
            // Spaces so that `?>` ends at byte `gt_byte` (1-based).
            let pad = vec![b' '; gt_byte - START.len() - ENCODING.len() - 2];
            let after = [START, ENCODING, &pad, b"?>"].concat();
            let before = [START, &pad, ENCODING, b"?>"].concat();
            for declaration in [after, before] {
                assert_eq!(declaration.len(), gt_byte);
                let page = [&declaration, b"\n<p>Test: \xe6</p>\n".as_slice()].concat();
                let trail = [page.as_slice(), &[0; 8192]].concat();
                for bytes in [&page, &trail] {
                    let sniffed = sniff(bytes, &hints());
                    assert_eq!(sniffed.encoding, WINDOWS_1251, "`>` at byte {gt_byte}");
                    assert!(matches!(sniffed.source, Source::XmlDeclaration { .. }));
                }
            }
        }
    }

    #[test]
    fn the_seed_has_no_xml_declaration_step() {
        let seed = hints().with_rules(Rules::Seed2007).with_autodetect(None);
        check(XML_1251, seed, (WINDOWS_1252, Tentative, Source::Default));
        check(
            b"<\0?\0x\0m\0l\0",
            seed,
            (WINDOWS_1252, Tentative, Source::Default),
        );
    }

    #[test]
    fn a_utf16_label_in_an_ascii_declaration_means_utf8() {
        let page = b"<?xml version='1.0' encoding='UTF-16'?><p>caf\xc3\xa9</p>";
        check(
            page,
            hints(),
            (UTF_8, Tentative, xml_at(30, Some(UTF_16LE))),
        );
        let page = b"<?xml version='1.0' encoding='utf-16be'?><p>x</p>";
        check(
            page,
            hints(),
            (UTF_8, Tentative, xml_at(30, Some(UTF_16BE))),
        );
    }

    #[test]
    fn the_utf16_patterns_of_lt_question_x_come_first() {
        let utf16 = |s: &str, le: bool| -> Vec<u8> {
            s.encode_utf16()
                .flat_map(|u| if le { u.to_le_bytes() } else { u.to_be_bytes() })
                .collect()
        };
        let pattern = Source::XmlDeclaration {
            offset: 0,
            utf16_pattern: true,
            declared: None,
        };
        let decl = "<?xml version=\"1.0\" encoding=\"windows-1251\"?><p>\u{41f}</p>";
        check(&utf16(decl, true), hints(), (UTF_16LE, Tentative, pattern));
        check(&utf16(decl, false), hints(), (UTF_16BE, Tentative, pattern));
        // Step 2 comes before the `<meta>` loop.
        let mixed = [b"<\0?\0x\0".as_slice(), b"<meta charset=koi8-r>"].concat();
        check(&mixed, hints(), (UTF_16LE, Tentative, pattern));
        // A BOM still decides first.
        let bom = [b"\xFE\xFF".as_slice(), &utf16(decl, false)].concat();
        check(&bom, hints(), (UTF_16BE, Certain, Source::Bom));
    }

    #[test]
    fn iso_2022_jp_is_detected_from_its_escape_sequences() {
        let sentence = "<p>\u{65E5}\u{672C}\u{8A9E}\u{306E}\u{6587}\u{7AE0}\u{3067}\u{3059}\u{3002}\u{6771}\u{4EAC}\u{306F}\u{5927}\u{304D}\u{306A}\u{90FD}\u{5E02}\u{3067}\u{3059}\u{3002}</p>";
        let (bytes, _, unmappable) = encoding_rs::ISO_2022_JP.encode(sentence);
        assert!(!unmappable);
        assert!(bytes.is_ascii() && bytes.windows(3).any(|w| w == b"\x1b$B"));
        let page = [b"<!DOCTYPE html><title>x</title>".as_slice(), &bytes].concat();
        let got = sniff(&page, &hints());
        assert_eq!(got.encoding, encoding_rs::ISO_2022_JP);
        assert_eq!(got.confidence, Tentative);
        assert!(matches!(got.source, Source::Autodetected { .. }));
        // Also when UTF-8 may not be guessed, and with a TLD.
        let deny = Autodetect {
            utf8: Utf8Guess::Deny,
            tld: Some("jp"),
            ..Autodetect::default()
        };
        let got = sniff(&page, &hints().with_autodetect(Some(deny)));
        assert_eq!(got.encoding, encoding_rs::ISO_2022_JP);
        // A declaration still decides first.
        let declared = [b"<meta charset=iso-2022-jp>".as_slice(), &bytes].concat();
        assert!(matches!(
            sniff(&declared, &hints()).source,
            Source::Meta { .. }
        ));
        // Without autodetection, the default.
        let off = sniff(&page, &hints().with_autodetect(None));
        assert_eq!(off.source, Source::Default);
    }

    #[test]
    fn an_escape_alone_is_not_iso_2022_jp() {
        // ESC not followed by `$` or `(`: all ASCII, the default.
        let got = sniff(b"<p>\x1b[31mred\x1b[0m</p>", &hints());
        assert_eq!(got.source, Source::Default);
        // ESC `$` `B` but not valid ISO-2022-JP (an odd byte count, then a
        // non-ASCII byte): chardetng does not answer ISO-2022-JP.
        let got = sniff("<p>\x1b$Bx\x1b(B caf\u{e9}</p>".as_bytes(), &hints());
        assert_ne!(got.encoding, encoding_rs::ISO_2022_JP);
    }

    #[test]
    fn the_utf8_shortcut_gives_what_chardetng_gives() {
        let samples: [&[u8]; 5] = [
            "<p>Привет, мир! Это проверка.</p>".as_bytes(),
            "<p>日本語のテキストです。</p>".as_bytes(),
            "<p>Fondée en 1987, notre chorale réunit…</p>".as_bytes(),
            "<p>emoji 😀 and more</p>".as_bytes(),
            // A window that cuts a three-byte sequence (max_bytes below).
            "<p>日本語</p>".as_bytes(),
        ];
        for (i, bytes) in samples.iter().enumerate() {
            let settings = Autodetect {
                max_bytes: if i == 4 { 4 } else { 1 << 16 },
                ..Autodetect::default()
            };
            let (got, examined) = autodetect(bytes, &settings).unwrap();
            let mut detector = EncodingDetector::new(Iso2022JpDetection::Deny);
            detector.feed(&bytes[..examined], examined == bytes.len());
            let chardetng = detector.guess(None, Utf8Detection::Allow);
            assert_eq!(got, chardetng, "sample {i}");
            assert_eq!(got, encoding_rs::UTF_8, "sample {i}");
        }
        // Not valid UTF-8: chardetng decides.
        let latin1 = b"<p>Fond\xe9e en 1987, notre chorale r\xe9unit</p>";
        let (got, _) = autodetect(latin1, &Autodetect::default()).unwrap();
        assert_eq!(got, WINDOWS_1252);
    }
}
