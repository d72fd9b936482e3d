//! URLs and anchor names as the text format can hold them.
//!
//! Seed 000 "Inline Elements": URL and Fragment "are not allowed to contain
//! white-space characters or any character from the set `{}[|]<>"`". A URL
//! from a page is first stripped the way a URL parser strips it (leading and
//! trailing C0 controls and spaces, tabs and newlines anywhere), then each
//! remaining forbidden character is percent-encoded, which leaves the URL
//! meaning the same resource. Anchor names get the same percent-encoding, so
//! that a `#fragment` link and its target keep matching.

use std::borrow::Cow;
use std::fmt::Write as _;

use encoding_rs::Encoding;
use microsyntax::url::{QueryEncoding, Url, UrlError};

/// Percent-encodes what a URL or fragment cannot hold in text: control
/// characters (the URL Standard's rule: they are not URL code points), then
/// the characters the text format forbids ([`wikitext::grammar`] owns that
/// set). Returns the text and whether anything changed.
fn encode_forbidden(s: &str) -> (String, bool) {
    // C0 controls and DEL are bytes below 0x20 and 0x7F; C1 controls are
    // not ASCII, so only a text that is not ASCII needs its characters.
    let has_control = s.bytes().any(|b| b < 0x20 || b == 0x7f)
        || (!s.is_ascii() && s.chars().any(char::is_control));
    let controls: Cow<'_, str> = if has_control {
        let mut out = String::with_capacity(s.len() + 8);
        let mut buf = [0u8; 4];
        for c in s.chars() {
            if c.is_control() {
                for b in c.encode_utf8(&mut buf).bytes() {
                    let _ = write!(out, "%{b:02X}");
                }
            } else {
                out.push(c);
            }
        }
        Cow::Owned(out)
    } else {
        Cow::Borrowed(s)
    };
    let encoded = wikitext::grammar::encode_link_value(&controls);
    let changed = matches!(controls, Cow::Owned(_)) || matches!(encoded, Cow::Owned(_));
    (encoded.into_owned(), changed)
}

/// A URL cleaned for the format.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CleanUrl {
    /// The URL to use.
    pub(crate) url: String,
    /// Whether characters had to be percent-encoded.
    pub(crate) encoded: bool,
    /// The scheme, lowercase, when the URL has one.
    pub(crate) scheme: Option<String>,
    /// Whether its fragment was given its anchor's XML-name form
    /// ([`crate::names::fragment_reference`]).
    pub(crate) renamed: bool,
    /// What resolving did to it (see [`Resolver::resolve`]).
    pub(crate) change: Change,
    /// The URL as the page wrote it (stripped), when `change` is not
    /// [`Change::None`].
    pub(crate) written: String,
}

/// Cleans an `href` (or `src`): strips it, resolves it ([`Resolver`]) and
/// percent-encodes what the format forbids; `None` when nothing is left.
pub(crate) fn clean_url(raw: &str, resolver: &Resolver) -> Option<CleanUrl> {
    // URL Standard, basic URL parser: strip leading and trailing C0 control
    // or space, then remove all ASCII tab or newline.
    let trimmed = raw.trim_matches(|c: char| c <= ' ');
    let stripped: String;
    let s = if trimmed.contains(['\t', '\n', '\r']) {
        stripped = trimmed
            .chars()
            .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
            .collect();
        &stripped
    } else {
        trimmed
    };
    if s.is_empty() {
        return None;
    }
    // A link into this site names its anchor as `clean_anchor` writes it:
    // forbidden characters percent-encoded, then an XML name.
    let mut renamed = false;
    let named = match crate::names::site_reference(s) {
        Some((before, fragment)) => {
            let decoded = crate::names::decode_fragment(fragment);
            let (encoded, _) = encode_forbidden(&decoded);
            let name = crate::names::anchor_name(&encoded);
            renamed = name != fragment;
            if name == fragment {
                Cow::Borrowed(s)
            } else {
                Cow::Owned(format!("{before}#{name}"))
            }
        }
        None => Cow::Borrowed(s),
    };
    let (resolved, change) = resolver.resolve(&named);
    let (url, encoded) = encode_forbidden(&resolved);
    let written = if change == Change::None && !renamed {
        String::new()
    } else {
        s.to_owned()
    };
    Some(CleanUrl {
        scheme: scheme_of(&url),
        url,
        encoded,
        renamed,
        change,
        written,
    })
}

/// What [`Resolver::resolve`] did to a URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Change {
    /// Kept as written.
    None,
    /// A relative URL resolved against the document base URL.
    Resolved,
    /// An absolute URL written as the URL Standard serializes it
    /// (backslashes, IDNA hosts, percent-encoding), or a query put in the
    /// page's encoding.
    Rewritten,
    /// A link to the page's own address with a fragment, made an in-page
    /// link.
    InPage,
    /// The URL Standard's parser fails on it (the reason): kept as written.
    Invalid(String),
}

/// The schemes the URL Standard calls special: their URLs have hosts, read
/// `\` as `/`, and send queries in the document's encoding.
fn is_special_scheme(scheme: &str) -> bool {
    matches!(scheme, "http" | "https" | "ftp" | "ws" | "wss" | "file")
}

/// Resolves a page's links as a browser would, since the text format has no
/// base URL of its own: against the document base URL when one is known (the
/// page's `<base href>` resolved against its address, or the address given with
/// `--base`), with the query in the page's encoding (seed 002 §2.5.3 step 9,
/// the URL Standard's encoding override).
#[derive(Debug, Clone, Default)]
pub(crate) struct Resolver {
    /// The document base URL.
    base: Option<Url>,
    /// The page's own address, without a fragment.
    address: Option<Url>,
    /// The page's encoding when it is not UTF-8 (UTF-16 pages use UTF-8,
    /// seed 002 §2.5.3 step 4).
    encoding: Option<&'static Encoding>,
    /// A relative `<base href>` of a page whose address is not known
    /// (`/docs/`, `base/`, `.`): relative URLs are resolved against it as
    /// far as that goes, and stay relative ([`through_relative_base`]).
    relative_base: Option<String>,
}

/// Why a `<base href>` gives no base URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum BaseRefused {
    /// It is relative and the page's address is not known.
    Relative,
    /// It names a scheme that must not be a base (`javascript:`, `data:`).
    Unsafe(String),
    /// It does not parse.
    Invalid(String),
}

impl Resolver {
    /// A resolver for a page: `address` is where the page lives (if known),
    /// `base_href` its first `<base href>`, `encoding` its encoding. Returns
    /// why the `<base href>` was not used, when it was not.
    pub(crate) fn new(
        address: Option<&Url>,
        base_href: Option<&str>,
        encoding: &'static Encoding,
    ) -> (Resolver, Option<BaseRefused>) {
        let mut address = address.cloned();
        if let Some(a) = address.as_mut() {
            a.set_fragment(None);
        }
        let mut resolver = Resolver {
            base: address.clone(),
            address,
            encoding: (encoding.output_encoding() != encoding_rs::UTF_8).then_some(encoding),
            relative_base: None,
        };
        let Some(href) = base_href else {
            return (resolver, None);
        };
        // Seed 002 §2.5.3, document base URL, steps 2-4 (the URL
        // Standard's frozen base URL keeps them): the `<base href>`
        // resolved against the address; the address when it fails.
        let href = href.trim_matches(|c: char| c <= ' ');
        let parsed = resolver
            .with_encoding(|enc| microsyntax::url::parse_url(href, resolver.address.as_ref(), enc));
        let refused = match parsed {
            Ok(p) if is_unsafe_scheme(p.url.scheme()) => {
                Some(BaseRefused::Unsafe(p.url.scheme().to_owned()))
            }
            Ok(p) => {
                resolver.base = Some(p.url);
                None
            }
            Err(UrlError::Standard(microsyntax::url::ParseError::RelativeUrlWithoutBase)) => {
                resolver.relative_base = Some(href.to_owned());
                Some(BaseRefused::Relative)
            }
            Err(e) => Some(BaseRefused::Invalid(e.to_string())),
        };
        (resolver, refused)
    }

    /// The document base URL, if one is known.
    pub(crate) fn base(&self) -> Option<&Url> {
        self.base.as_ref()
    }

    /// Runs `f` with the page's encoding as URL parsing needs it.
    fn with_encoding<R>(&self, f: impl FnOnce(QueryEncoding<'_>) -> R) -> R {
        match self.encoding {
            None => f(QueryEncoding::UTF_8),
            Some(encoding) => {
                let encode = move |c: char, out: &mut Vec<u8>| {
                    let mut buf = [0u8; 4];
                    let (bytes, _, unmappable) = encoding.encode(c.encode_utf8(&mut buf));
                    if !unmappable {
                        out.extend_from_slice(&bytes);
                    }
                    !unmappable
                };
                f(QueryEncoding::new(&encode))
            }
        }
    }

    /// Whether an absolute URL of a special scheme is rewritten: only when
    /// a reader other than a browser would take it for something else, or
    /// the page's encoding matters. That is when it has a `\` (a browser
    /// reads `/`), a host that is not plain ASCII (IDNA) or holds
    /// percent-encoded bytes, or a query outside ASCII in a page that is not
    /// UTF-8. Other differences from the URL Standard's serialization (case,
    /// a default port, a missing `/`, UTF-8 in the path) change nothing a
    /// reader cares about, and the text keeps what the page wrote.
    fn rewrites(&self, url: &str) -> bool {
        if url.contains('\\') {
            return true;
        }
        let Some(colon) = url.find(':') else {
            return false;
        };
        let rest = url.get(colon + 1..).unwrap_or("");
        let after = rest.trim_start_matches('/');
        let host_end = after.find(['/', '?', '#']).unwrap_or(after.len());
        let authority = after.get(..host_end).unwrap_or("");
        let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
        if !host.is_ascii() || host.contains('%') {
            return true;
        }
        if self.encoding.is_some()
            && let Some(q) = rest.find('?')
        {
            let query = rest.get(q..).unwrap_or("");
            let query = query.split_once('#').map_or(query, |(q, _)| q);
            return !query.is_ascii();
        }
        false
    }

    /// The URL a link is written with, and what was done to it:
    /// - `#fragment` stays as it is: an in-page link in the text format;
    /// - a relative URL is resolved against the document base URL when
    ///   there is one; without one it stays as written, its query in the
    ///   page's encoding;
    /// - an absolute URL of a special scheme (`http`, `https`, `ftp`, `ws`,
    ///   `wss`, `file`) that [`Resolver::rewrites`] is written as the URL
    ///   Standard serializes it, which is what a browser requests; other
    ///   absolute URLs stay as written;
    /// - a resolved URL that is the page's own address with a fragment
    ///   becomes that fragment.
    pub(crate) fn resolve<'s>(&self, url: &'s str) -> (Cow<'s, str>, Change) {
        if url.starts_with('#') {
            return (Cow::Borrowed(url), Change::None);
        }
        // The URL is stripped already: its scheme, if any, starts it.
        let scheme = scheme_of(url);
        let absolute = scheme.is_some();
        if let Some(scheme) = scheme
            && (!is_special_scheme(&scheme) || !self.rewrites(url))
        {
            return (Cow::Borrowed(url), Change::None);
        }
        let base = if absolute { None } else { self.base.as_ref() };
        if !absolute
            && base.is_none()
            && let Some(merged) = self
                .relative_base
                .as_deref()
                .and_then(|b| through_relative_base(b, url))
        {
            return if merged == url {
                (Cow::Borrowed(url), Change::None)
            } else {
                (Cow::Owned(merged), Change::Resolved)
            };
        }
        if !absolute && base.is_none() {
            let encoded = self.with_encoding(|enc| {
                microsyntax::url::encode_reference_query(url, enc).into_owned()
            });
            return if encoded == url {
                (Cow::Borrowed(url), Change::None)
            } else {
                (Cow::Owned(encoded), Change::Rewritten)
            };
        }
        match self.with_encoding(|enc| microsyntax::url::parse_url(url, base, enc)) {
            Ok(parsed) => {
                let target = parsed.url;
                if let (Some(address), Some(fragment)) = (&self.address, target.fragment())
                    && !fragment.is_empty()
                {
                    let mut bare = target.clone();
                    bare.set_fragment(None);
                    if &bare == address {
                        return (Cow::Owned(format!("#{fragment}")), Change::InPage);
                    }
                }
                let change = if absolute {
                    Change::Rewritten
                } else {
                    Change::Resolved
                };
                if target.as_str() == url {
                    (Cow::Borrowed(url), Change::None)
                } else {
                    (Cow::Owned(target.into()), change)
                }
            }
            Err(e) => (Cow::Borrowed(url), Change::Invalid(e.to_string())),
        }
    }
}

/// A relative URL resolved against a relative `<base href>` when the
/// page's own address is not known, as a relative URL that names what a
/// browser would load from any address of the page (seed 002 §2.5.3, the
/// document base URL, and the URL Standard's resolution): a path-absolute
/// base (`/docs/`) gives a path-absolute URL, a relative one (`base/`, `.`)
/// a URL relative to the page. The two resolutions are made against a
/// stand-in address; `None` when the result depends on the real one (the
/// base names another host, or `..` climbs past what the stand-in can
/// tell), and then the URL stays as written.
fn through_relative_base(base: &str, reference: &str) -> Option<String> {
    // Deep enough that `..` in a base and a URL rarely reach its root.
    const STAND_IN: &str = "https://page.invalid/1/2/3/4/5/6/7/8/";
    if reference.starts_with("//") || base.starts_with("//") {
        return None;
    }
    let page = Url::parse(STAND_IN).ok()?;
    let resolved = page.join(base).ok()?.join(reference).ok()?;
    if resolved.host_str() != Some("page.invalid") || resolved.scheme() != "https" {
        return None;
    }
    let mut tail = String::new();
    if let Some(q) = resolved.query() {
        tail.push('?');
        tail.push_str(q);
    }
    if let Some(f) = resolved.fragment() {
        tail.push('#');
        tail.push_str(f);
    }
    let path = resolved.path();
    if base.starts_with('/') || reference.starts_with('/') {
        return Some(format!("{path}{tail}"));
    }
    let dir: Vec<&str> = page.path().trim_matches('/').split('/').collect();
    let segments: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    let common = dir
        .iter()
        .zip(&segments)
        .take_while(|(a, b)| a == b)
        .count();
    if common == 0 {
        return None;
    }
    let mut out = "../".repeat(dir.len() - common);
    out.push_str(&segments.get(common..).unwrap_or_default().join("/"));
    if out.is_empty() {
        out.push_str("./");
    }
    out.push_str(&tail);
    Some(out)
}

/// The scheme of a URL (URL Standard, scheme state: an ASCII letter, then
/// letters, digits, `+`, `-`, `.`, up to `:`), lowercased.
fn scheme_of(url: &str) -> Option<String> {
    let scheme = url.get(..url.find(':')?)?;
    is_scheme(scheme).then(|| scheme.to_ascii_lowercase())
}

/// Whether `s` has the form of a scheme: an ASCII letter, then letters,
/// digits, `+`, `-` and `.`.
fn is_scheme(s: &str) -> bool {
    let mut bytes = s.bytes();
    bytes.next().is_some_and(|b| b.is_ascii_alphabetic())
        && bytes.all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
}

/// Whether an image source may be loaded: not a script scheme
/// (`javascript:`, `vbscript:` and their old aliases), and a `data:` URL
/// only of an image type (PNG, GIF, JPEG, WebP, SVG; a browser runs no
/// script in an SVG loaded as an image).
pub(crate) fn is_safe_image_source(src: &str) -> bool {
    let trimmed = src.trim_start_matches(|c: char| c.is_ascii_whitespace() || c.is_ascii_control());
    match scheme_of(trimmed).as_deref() {
        Some("javascript" | "vbscript" | "livescript" | "mocha") => false,
        Some("data") => {
            let rest = trimmed.get(5..).unwrap_or_default().to_ascii_lowercase();
            let mime = rest.split([';', ',']).next().unwrap_or_default().trim();
            matches!(
                mime,
                "image/png"
                    | "image/gif"
                    | "image/jpeg"
                    | "image/jpg"
                    | "image/webp"
                    | "image/svg+xml"
            )
        }
        _ => true,
    }
}

/// Whether a scheme runs code or smuggles content when followed; such links
/// are neutralised on ingestion (see "Scripts and other ballast never reach
/// the output" in docs/decisions.md).
pub(crate) fn is_unsafe_scheme(scheme: &str) -> bool {
    UNSAFE_SCHEMES.contains(&scheme)
}

/// The schemes [`is_unsafe_scheme`] refuses, lowercase.
const UNSAFE_SCHEMES: [&str; 3] = ["javascript", "vbscript", "data"];

/// The scheme of a URL as written (in the text format, where nothing
/// resolved it), when [`is_unsafe_scheme`] says it is unsafe: read as a
/// browser reads it, past leading C0 controls and spaces and with tabs and
/// newlines removed (the URL Standard's parser does both), so that
/// `" java\tscript:"` is `javascript`. Emission neutralises such links as
/// ingestion does.
pub(crate) fn unsafe_scheme_of(url: &str) -> Option<String> {
    let trimmed = url.trim_start_matches(|c: char| c <= ' ');
    let head = trimmed.get(..trimmed.find(':')?)?;
    // Most links are relative or have a safe scheme: nothing is copied
    // unless the head holds a tab or newline, and nothing lowercased
    // unless it names an unsafe scheme.
    let head: Cow<'_, str> = if head.contains(['\t', '\n', '\r']) {
        Cow::Owned(
            head.chars()
                .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
                .collect(),
        )
    } else {
        Cow::Borrowed(head)
    };
    if !is_scheme(&head) {
        return None;
    }
    UNSAFE_SCHEMES
        .iter()
        .find(|s| head.eq_ignore_ascii_case(s))
        .map(|s| (*s).to_owned())
}

/// An anchor name (from `id` or `a/@name`) for the format: trimmed of
/// surrounding white space, forbidden characters percent-encoded, then in
/// the form XHTML can hold ([`crate::names::anchor_name`]). `None` when
/// empty.
pub(crate) fn clean_anchor(raw: &str) -> Option<(String, bool)> {
    let s = raw.trim_matches(|c: char| c.is_ascii_whitespace());
    if s.is_empty() {
        return None;
    }
    let (name, encoded) = encode_forbidden(s);
    // A name XHTML can hold as `id` and `name` (links follow, `clean_url`).
    let name = match crate::names::anchor_name(&name) {
        Cow::Borrowed(_) => name,
        Cow::Owned(valid) => valid,
    };
    let changed = encoded || name != s;
    Some((name, changed))
}

/// The address of a `mailto:` URL when it is a bare address the format can
/// write as `<localpart@domain>` (seed 000, rule 5: letters (any script, as
/// the text parser reads them), digits, `-` and
/// `.` on both sides, `_` too in the local part, and a `.` in the domain).
pub(crate) fn mailto_address(url: &str) -> Option<&str> {
    let rest = url.get(..7).filter(|p| p.eq_ignore_ascii_case("mailto:"))?;
    let address = url.get(rest.len()..)?;
    is_email(address).then_some(address)
}

/// Seed 000, inline rule 5 (the rule is wikitext's).
pub(crate) fn is_email(address: &str) -> bool {
    wikitext::grammar::is_email_address(address)
}

/// A short name for what a link without text points to: the host of an
/// absolute or scheme-relative (`//host/path`) URL, or the address of a
/// `mailto:` URL (percent-decoded); `None` for a relative path or a URL
/// without either.
pub(crate) fn url_host(url: &str) -> Option<String> {
    let parsed = match url.strip_prefix("//") {
        Some(rest) => microsyntax::url::Url::parse(&["http://", rest].concat()),
        None => microsyntax::url::Url::parse(url),
    }
    .ok()?;
    if parsed.scheme() == "mailto" {
        let address = percent_encoding::percent_decode_str(parsed.path()).decode_utf8_lossy();
        return (!address.trim().is_empty()).then(|| address.trim().to_owned());
    }
    parsed
        .host_str()
        .filter(|h| !h.is_empty())
        .map(str::to_owned)
}

/// A short name for a link target without text: [`url_host`], else the
/// words of the last part of a relative URL's path, without its extension,
/// query and fragment (`a story` for `/news/a-story.html?src=nav_bar`: the
/// query is seldom meant for a reader), or of an in-page link's fragment
/// (`comments` for `#comments`), else the URL as it is. Words rather than
/// the path, because the page showed no text there: a path would bring its
/// `_`, `'` and `*` into the visible text as characters the page never
/// showed.
pub(crate) fn url_name(url: &str) -> String {
    name_of(url, false)
}

/// [`url_name`] keeping a file name's extension (`a.mp3`, `my clip.webm`
/// for `/media/my_clip.webm`): what a link to a media file without a
/// title shows, where the extension says what kind of file it is.
pub(crate) fn url_file_name(url: &str) -> String {
    name_of(url, true)
}

fn name_of(url: &str, keep_extension: bool) -> String {
    if let Some(host) = url_host(url) {
        return host;
    }
    let path = url.split(['?', '#']).next().unwrap_or_default();
    if path.contains(':') {
        return url.to_owned();
    }
    let part = if path.is_empty() {
        match url.strip_prefix('#') {
            Some(fragment) => fragment,
            None => return url.to_owned(),
        }
    } else {
        let last = path
            .trim_end_matches('/')
            .rsplit('/')
            .next()
            .unwrap_or_default();
        // The extension of a file name says little to a reader of a page.
        match last.rsplit_once('.') {
            Some((stem, ext))
                if !keep_extension
                    && !stem.is_empty()
                    && ext.chars().all(|c| c.is_ascii_alphanumeric()) =>
            {
                stem
            }
            _ => last,
        }
    };
    let words: Vec<&str> = part
        .split(|c: char| {
            matches!(c, '_' | '-' | '+' | '~') || (c == '.' && !keep_extension) || c.is_whitespace()
        })
        .filter(|w| !w.is_empty())
        .collect();
    if words.is_empty() {
        if path.is_empty() {
            url.to_owned()
        } else {
            path.to_owned()
        }
    } else {
        words.join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_relative_base_resolves_as_far_as_it_goes() {
        let cases = [
            ("/", "foo/bar.png", Some("/foo/bar.png")),
            ("/docs/", "../img/a.png?x=1#t", Some("/img/a.png?x=1#t")),
            ("base/", "foo/bar.png", Some("base/foo/bar.png")),
            (".", "source/x.png", Some("source/x.png")),
            ("./", "", Some("./")),
            ("a/b/", "../../../c.html", Some("../c.html")),
            ("sub/page.html", "?q=2", Some("sub/page.html?q=2")),
            ("base/", "/root.png", Some("/root.png")),
            // What depends on the page's real address stays as written.
            ("//cdn.example.org/", "x.png", None),
            ("base/", "//other.example/x.png", None),
            ("../../../../../../../../../", "x.png", None),
        ];
        for (base, reference, want) in cases {
            assert_eq!(
                through_relative_base(base, reference).as_deref(),
                want,
                "{base} + {reference}"
            );
        }
    }

    #[test]
    fn unsafe_schemes_are_read_as_browsers_read_them() {
        for url in [
            "javascript:alert(1)",
            " \u{1}JavaScript:x",
            "java\tscr\nipt:x",
            "VBScript:x",
            "data:text/html,x",
        ] {
            assert!(unsafe_scheme_of(url).is_some(), "{url:?}");
        }
        for url in [
            "javascript.html",
            "notes/javascript:x",
            "http://x.org/javascript:",
            "#javascript:",
            "mailto:a@b.c",
            "",
        ] {
            assert_eq!(unsafe_scheme_of(url), None, "{url:?}");
        }
    }

    #[test]
    fn urls_are_stripped_and_encoded() {
        let u = clean_url("  http://x.org/a b|c\n ", &Resolver::default()).unwrap();
        assert_eq!(u.url, "http://x.org/a%20b%7Cc");
        assert!(u.encoded);
        assert_eq!(u.scheme.as_deref(), Some("http"));
        assert_eq!(clean_url(" \t ", &Resolver::default()), None);
        let u = clean_url("page.html#x", &Resolver::default()).unwrap();
        assert!(!u.encoded);
        assert_eq!(u.scheme, None);
    }

    #[test]
    fn unsafe_schemes_survive_obfuscation() {
        for raw in [
            "javascript:alert(1)",
            " JavaScript:x",
            "java\tscript:x",
            "\u{1}vbscript:x",
            "DATA:text/html,x",
        ] {
            let u = clean_url(raw, &Resolver::default()).unwrap();
            assert!(is_unsafe_scheme(u.scheme.as_deref().unwrap_or("")), "{raw}");
        }
        let u = clean_url("javascript-docs.html", &Resolver::default()).unwrap();
        assert_eq!(u.scheme, None);
    }

    #[test]
    fn anchors() {
        assert_eq!(clean_anchor("sec-1"), Some(("sec-1".to_owned(), false)));
        // Percent-encoded for the format, then an XML name for XHTML (an
        // `id` must be one); a link to it gets the same form.
        assert_eq!(
            clean_anchor("Section 1"),
            Some(("Section_201".to_owned(), true))
        );
        let link = clean_url("#Section 1", &Resolver::default()).unwrap();
        assert_eq!(link.url, "#Section_201");
        assert!(link.renamed);
        assert_eq!(clean_anchor("2550"), Some(("_2550".to_owned(), true)));
        let link = clean_url("other.html#2550", &Resolver::default()).unwrap();
        assert_eq!(link.url, "other.html#_2550");
        let link = clean_url("http://x.org/#2550", &Resolver::default()).unwrap();
        assert_eq!(link.url, "http://x.org/#2550");
        assert!(!link.renamed);
        assert_eq!(clean_anchor("  "), None);
    }

    #[test]
    fn emails_follow_rule_5() {
        // Seed 000's own example of rule 5.
        assert_eq!(
            mailto_address("mailto:no_reply@aksware.de"),
            Some("no_reply@aksware.de")
        );
        assert_eq!(mailto_address("MAILTO:a@b.c"), Some("a@b.c"));
        assert_eq!(mailto_address("mailto:a@localhost"), None);
        assert_eq!(mailto_address("mailto:a@b.c?subject=x"), None);
        assert_eq!(mailto_address("mailto:a@b_c.d"), None);
        assert_eq!(mailto_address("http://a@b.c"), None);
    }

    #[test]
    fn short_names_of_link_targets() {
        assert_eq!(
            url_host("https://twitter.com/intent?x=a_b").as_deref(),
            Some("twitter.com")
        );
        assert_eq!(
            url_host("//ra.gtimg.com/a_b.swf").as_deref(),
            Some("ra.gtimg.com")
        );
        assert_eq!(
            url_host("mailto:desk@example.org?subject=a%20b").as_deref(),
            Some("desk@example.org")
        );
        assert_eq!(url_host("/wiki/File:A_b.png"), None);
        assert_eq!(url_host("page.html"), None);
        assert_eq!(url_name("/news/a-b.html?.tsrc=nav_bar"), "a b");
        assert_eq!(url_name("/privacy_policy"), "privacy policy");
        assert_eq!(url_name("/section/"), "section");
        assert_eq!(url_name("/"), "/");
        assert_eq!(url_name("//cdn.example/x_y.png"), "cdn.example");
        assert_eq!(url_name("?page=2_b"), "?page=2_b");
        assert_eq!(url_name("#top_x"), "top x");
        assert_eq!(url_name("#"), "#");
        assert_eq!(url_file_name("/media/my_clip.webm?t=2"), "my clip.webm");
        assert_eq!(url_file_name("a.mp3"), "a.mp3");
        assert_eq!(url_name("mailto:?subject=a_b"), "mailto:?subject=a_b");
    }
}
