//! URLs: seed 002 §2.5 "URLs", and the URL Standard that replaced it
//! (feature `url`).
//!
//! Links must resolve as browsers resolve them, so the default is the URL
//! Standard, as browsers implement it today, through the `url` crate
//! (Servo's parser, which passes the web-platform-tests URL suite). The
//! seed's own algorithm (RFC 3986 with the draft's exceptions, IDNA, path and
//! query percent-encoding, `\` to `/`) is the variant in [`seed`].
//!
//! | Algorithm | Default | Seed 002 variant |
//! |---|---|---|
//! | parse a URL into its components (§2.5.2) | [`parse_url`], [`UrlParts`] | [`seed::parse_url`] |
//! | resolve a URL (§2.5.3 steps 1–14) | [`resolve_url`] | [`seed::resolve_url`] |
//! | the document base URL (§2.5.3) | [`document_base_url`] | [`seed::document_base_url`] |
//! | the query in the document's encoding (§2.5.3 step 9) | [`QueryEncoding`], [`encode_reference_query`] | [`seed::resolve_url`], [`seed::encode_url`] (steps 6–9 and 13 without a base) |
//!
//! The document's character encoding is the caller's: this crate knows no
//! encodings. A [`QueryEncoding`] says how one character is written in it,
//! and is UTF-8 unless the caller says otherwise.
//!
//! ```
//! use microsyntax::url::{QueryEncoding, Url, document_base_url, resolve_url};
//! let address = Url::parse("http://example.com/index.html")?;
//! let base = document_base_url(Some("docs/"), Some(&address), QueryEncoding::UTF_8);
//! let base = base.expect("a base");
//! assert_eq!(base.as_str(), "http://example.com/docs/");
//! let link = resolve_url("page.html", &base, QueryEncoding::UTF_8)?;
//! assert_eq!(link.as_str(), "http://example.com/docs/page.html");
//! // Backslashes are slashes in http URLs, and hosts are IDNA-encoded.
//! let odd = resolve_url("http:\\\\bücher.example\\a", &base, QueryEncoding::UTF_8)?;
//! assert_eq!(odd.as_str(), "http://xn--bcher-kva.example/a");
//! # Ok::<(), microsyntax::url::UrlError>(())
//! ```

use core::fmt;
use std::borrow::Cow;

pub mod seed;

pub use url::{ParseError, Url};

/// How the document's character encoding writes one character: appends
/// its bytes to the buffer and returns `true`, or returns `false` (having
/// appended nothing) when the encoding cannot express it.
pub type EncodeChar<'a> = &'a dyn Fn(char, &mut Vec<u8>) -> bool;

/// The character encoding of a URL's document, as URL parsing needs it: for
/// the query of `http`, `https`, `ftp` and `file` URLs (seed 002 §2.5.3
/// steps 3, 4 and 9; the URL Standard's encoding override). UTF-8 unless
/// made with [`QueryEncoding::new`]. A UTF-16 document's URLs use UTF-8
/// (step 4): the caller passes [`QueryEncoding::UTF_8`] for it.
#[derive(Clone, Copy)]
pub struct QueryEncoding<'a> {
    encode: Option<EncodeChar<'a>>,
}

impl fmt::Debug for QueryEncoding<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.encode.is_some() {
            "QueryEncoding(legacy)"
        } else {
            "QueryEncoding(UTF-8)"
        })
    }
}

impl Default for QueryEncoding<'_> {
    fn default() -> Self {
        Self::UTF_8
    }
}

impl<'a> QueryEncoding<'a> {
    /// UTF-8.
    pub const UTF_8: QueryEncoding<'static> = QueryEncoding { encode: None };

    /// A legacy encoding, given by how it writes one character. Only
    /// characters outside ASCII are passed to `encode`: the encodings a
    /// document can have write ASCII as itself.
    pub fn new(encode: EncodeChar<'a>) -> Self {
        Self {
            encode: Some(encode),
        }
    }

    /// Whether this is UTF-8.
    pub fn is_utf8(&self) -> bool {
        self.encode.is_none()
    }

    /// Writes `c` into `out`: its bytes in the encoding, `None` when the
    /// encoding cannot express it (nothing is appended then).
    pub(crate) fn encode_char(&self, c: char, out: &mut Vec<u8>) -> bool {
        if c.is_ascii() {
            out.push(c as u8);
            return true;
        }
        match self.encode {
            None => {
                let mut buf = [0u8; 4];
                out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                true
            }
            Some(encode) => encode(c, out),
        }
    }

    /// The URL Standard's "percent-encode after encoding", the encoding
    /// part: a character the encoding cannot express is written as the
    /// percent-encoded decimal character reference `%26%23N%3B` (`&#N;`);
    /// the parser percent-encodes the other bytes that need it.
    fn encode_str(&self, s: &str) -> Vec<u8> {
        let mut out = Vec::with_capacity(s.len() + 8);
        for c in s.chars() {
            if !self.encode_char(c, &mut out) {
                out.extend_from_slice(format!("%26%23{}%3B", u32::from(c)).as_bytes());
            }
        }
        out
    }
}

/// Why a URL could not be parsed or resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum UrlError {
    /// The URL Standard's parser returned failure.
    Standard(url::ParseError),
    /// The seed's algorithm returned an error at this step (§2.5.2 step 3
    /// or §2.5.3 steps 7 and 11), saying why.
    Seed {
        /// The step of seed 002 §2.5.2 or §2.5.3 that failed.
        step: &'static str,
        /// What went wrong.
        reason: String,
    },
}

impl fmt::Display for UrlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Standard(e) => write!(f, "{e}"),
            Self::Seed { step, reason } => write!(f, "{reason} (seed 002 {step})"),
        }
    }
}

impl std::error::Error for UrlError {}

impl From<url::ParseError> for UrlError {
    fn from(e: url::ParseError) -> Self {
        Self::Standard(e)
    }
}

/// The components of a parsed URL, named as seed 002 §2.5.2 names them
/// (`hostport` aside). For a URL parsed by the URL Standard these are the
/// record's components as serialized; for the seed variant they are the
/// substrings the RFC 3986 productions matched.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct UrlParts {
    /// The whole URL (for a resolved URL, the absolute URL).
    pub href: String,
    /// `<scheme>`, without the colon.
    pub scheme: Option<String>,
    /// `<host>`.
    pub host: Option<String>,
    /// `<port>`, when one is given (the URL Standard drops a scheme's
    /// default port).
    pub port: Option<String>,
    /// `<path>` (possibly empty).
    pub path: String,
    /// `<query>`, without the `?`.
    pub query: Option<String>,
    /// `<fragment>`, without the `#`.
    pub fragment: Option<String>,
}

impl From<&Url> for UrlParts {
    fn from(url: &Url) -> Self {
        Self {
            href: url.as_str().to_owned(),
            scheme: Some(url.scheme().to_owned()),
            host: url.host_str().map(str::to_owned),
            port: url.port().map(|p| p.to_string()),
            path: url.path().to_owned(),
            query: url.query().map(str::to_owned),
            fragment: url.fragment().map(str::to_owned),
        }
    }
}

/// A URL the URL Standard's parser read, and whether it is a valid URL
/// string (no validation error was met on the way).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parsed {
    /// The URL record.
    pub url: Url,
    /// Whether the input was a valid URL string: the parser met no
    /// validation error (it still repairs what it can).
    pub valid: bool,
}

/// Spec: the URL Standard's URL parser, which replaced seed 002 §2.5.2
/// (parse) and §2.5.3 (resolve): `input` against `base`, the query written
/// in `encoding`. Leading and trailing C0 controls and spaces are stripped,
/// tabs and newlines removed, `\` read as `/` in special URLs, hosts
/// IDNA-encoded, paths resolved and percent-encoded.
///
/// ```
/// use microsyntax::url::{parse_url, QueryEncoding, Url};
/// let base = Url::parse("http://a/b/c/d;p?q")?;
/// let got = parse_url("../g", Some(&base), QueryEncoding::UTF_8)?;
/// assert_eq!(got.url.as_str(), "http://a/b/g");
/// assert!(got.valid);
/// let got = parse_url(" http:\\\\a\\b ", None, QueryEncoding::UTF_8)?;
/// assert_eq!(got.url.as_str(), "http://a/b");
/// assert!(!got.valid);
/// # Ok::<(), microsyntax::url::UrlError>(())
/// ```
pub fn parse_url(
    input: &str,
    base: Option<&Url>,
    encoding: QueryEncoding<'_>,
) -> Result<Parsed, UrlError> {
    let violations = core::cell::Cell::new(false);
    let note = |_: url::SyntaxViolation| violations.set(true);
    let encode = higher_ranked(|s: &str| Cow::Owned(encoding.encode_str(s)));
    let options = Url::options()
        .base_url(base)
        .syntax_violation_callback(Some(&note));
    let options = if encoding.is_utf8() {
        options
    } else {
        options.encoding_override(Some(&encode))
    };
    let url = options.parse(input)?;
    Ok(Parsed {
        url,
        valid: !violations.get(),
    })
}

/// Gives a closure the signature the parser's encoding override wants (a
/// closure's own lifetimes are not inferred as higher-ranked).
fn higher_ranked<F: Fn(&str) -> Cow<'_, [u8]>>(f: F) -> F {
    f
}

/// Resolves `input` against `base` as the URL Standard does (see
/// [`parse_url`]), for callers that do not ask about validity.
pub fn resolve_url(input: &str, base: &Url, encoding: QueryEncoding<'_>) -> Result<Url, UrlError> {
    parse_url(input, Some(base), encoding).map(|p| p.url)
}

/// Spec: seed 002 §2.5.3 "document base URL", steps 1–4, as the later
/// standard keeps them: the first `<base href>` (`base_href`, as written),
/// resolved against the document's address; the address itself when there
/// is no `<base href>` or it does not resolve. `None` when neither gives
/// an absolute URL (a page read from a file with no address given).
///
/// ```
/// use microsyntax::url::{document_base_url, QueryEncoding, Url};
/// let address = Url::parse("http://example.com/a/b.html")?;
/// let base = document_base_url(Some("/docs/"), Some(&address), QueryEncoding::UTF_8);
/// assert_eq!(base.map(String::from).as_deref(), Some("http://example.com/docs/"));
/// // Without an address, a relative `<base href>` resolves to nothing.
/// assert_eq!(document_base_url(Some("/docs/"), None, QueryEncoding::UTF_8), None);
/// # Ok::<(), url::ParseError>(())
/// ```
pub fn document_base_url(
    base_href: Option<&str>,
    address: Option<&Url>,
    encoding: QueryEncoding<'_>,
) -> Option<Url> {
    // Step 1: no `<base href>`: the document's address.
    let Some(href) = base_href else {
        return address.cloned();
    };
    // Steps 2-4: the first one, resolved against the address; the address
    // when that fails.
    match parse_url(href, address, encoding) {
        Ok(parsed) => Some(parsed.url),
        Err(_) => address.cloned(),
    }
}

/// Whether `input` has a scheme (URL Standard, scheme start and scheme
/// states: an ASCII letter, then letters, digits, `+`, `-` or `.`, then
/// `:`), after the leading C0 controls and spaces the parser strips. Such
/// a URL is absolute: a base does not change what it points to.
///
/// ```
/// use microsyntax::url::has_scheme;
/// assert!(has_scheme(" HTTP://x"));
/// assert!(has_scheme("mailto:a@b.c"));
/// assert!(!has_scheme("page.html"));
/// assert!(!has_scheme("a/b:c"));
/// assert!(!has_scheme("//host/x"));
/// ```
pub fn has_scheme(input: &str) -> bool {
    let s = input.trim_start_matches(|c: char| c <= ' ');
    let mut chars = s.chars().filter(|c| !matches!(c, '\t' | '\n' | '\r'));
    if !chars.next().is_some_and(|c| c.is_ascii_alphabetic()) {
        return false;
    }
    for c in chars {
        match c {
            ':' => return true,
            c if c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.') => {}
            _ => return false,
        }
    }
    false
}

/// For a relative reference that stays as written (no base is known): the
/// characters outside ASCII in its query, percent-encoded in the
/// document's encoding, as a browser would send them from that document
/// (seed 002 §2.5.3 step 9; the URL Standard's "percent-encode after
/// encoding"). Everything else is left as written, and with UTF-8 nothing
/// changes. A character the encoding cannot express becomes `%26%23N%3B`
/// (`&#N;`), as in the URL Standard.
///
/// ```
/// use microsyntax::url::{encode_reference_query, QueryEncoding};
/// // A page in windows-1251 (here: Cyrillic letters U+0410..U+044F map
/// // to 0xC0..0xFF).
/// let cp1251 = |c: char, out: &mut Vec<u8>| match u32::from(c) {
///     n @ 0x410..=0x44F => { out.push((n - 0x410 + 0xC0) as u8); true }
///     _ => false,
/// };
/// let enc = QueryEncoding::new(&cp1251);
/// assert_eq!(encode_reference_query("search?q=Привет#Привет", enc), "search?q=%CF%F0%E8%E2%E5%F2#Привет");
/// assert_eq!(encode_reference_query("Привет?q=☺", enc), "Привет?q=%26%239786%3B");
/// assert_eq!(encode_reference_query("search?q=Привет", QueryEncoding::UTF_8), "search?q=Привет");
/// ```
pub fn encode_reference_query<'s>(input: &'s str, encoding: QueryEncoding<'_>) -> Cow<'s, str> {
    if encoding.is_utf8() {
        return Cow::Borrowed(input);
    }
    let Some(q) = input
        .find(['?', '#'])
        .filter(|&i| input[i..].starts_with('?'))
    else {
        return Cow::Borrowed(input);
    };
    let end = input[q..].find('#').map_or(input.len(), |i| q + i);
    let query = &input[q + 1..end];
    if query.is_ascii() {
        return Cow::Borrowed(input);
    }
    let mut out = String::with_capacity(input.len() + 16);
    out.push_str(&input[..=q]);
    let mut buf = [0u8; 4];
    for c in query.chars() {
        if c.is_ascii() {
            out.push(c);
            continue;
        }
        let bytes = encoding.encode_str(c.encode_utf8(&mut buf));
        out.extend(percent_encoding::percent_encode(&bytes, SPECIAL_QUERY));
    }
    out.push_str(&input[end..]);
    Cow::Owned(out)
}

/// The URL Standard's special-query percent-encode set: C0 controls,
/// space, `"`, `#`, `'`, `<`, `>` (and every byte above `~`, which
/// `percent_encode` always encodes).
const SPECIAL_QUERY: &percent_encoding::AsciiSet = &percent_encoding::CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'\'')
    .add(b'<')
    .add(b'>');

#[cfg(test)]
mod tests;
