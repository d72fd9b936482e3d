//! Seed 002 §2.5 "URLs" as the October 2008 draft wrote it: RFC 3986 with
//! the draft's exceptions (§2.5.2), then IDNA for the host, percent-encoding
//! for the path and the query, RFC 3986 relative resolution and `\` to `/`
//! (§2.5.3). The default, the URL Standard that replaced these sections, is
//! in the [parent module](super).
//!
//! # Restored text
//!
//! The seed's text lost two bulleted lists, restored here from the HTML5
//! draft of that time:
//!
//! - §2.5.1: a URL is a *valid URL* if it is a valid URI reference
//!   [RFC 3986]; or a valid IRI reference [RFC 3987] with no query
//!   component; or a valid IRI reference whose query contains no unescaped
//!   non-ASCII characters; or a valid IRI reference and the document's
//!   encoding is UTF-8 or UTF-16 ([`is_valid_url`]).
//! - §2.5.2 step 2, the exceptions to RFC 3986's ABNF ([`parse_url`]):
//!   (a) every character at or below U+0020 or at or above U+007F is added
//!   to `<unreserved>`; (b) so are `"`, `<`, `>`, `[`, `\`, `]`, `^`, `` ` ``,
//!   `{`, `|` and `}`; (c) a single `%` is a second way to match
//!   `<pct-encoded>`, except where `<pct-encoded>` is used in `<reg-name>`;
//!   (d) `#` is allowed in `<fragment>`.
//!
//! # Interpretations and deviations
//!
//! - Step 7's IDNA ToASCII is RFC 3490's; the `idna` crate implements
//!   UTS #46, its successor, here with the STD3 ASCII rules (letters, digits
//!   and hyphens only, no hyphen first or last in a label) and label lengths
//!   checked. UTS #46 maps a few characters differently from RFC 3490's
//!   Nameprep (it follows IDNA2008 for `ß` and `ς`, for instance).
//! - Read literally, steps 8 and 9 would percent-encode every `\` in the
//!   path and the query (`\` is not in RFC 3986's `<path>` or `<query>`),
//!   which would leave step 13 nothing to replace there, and the step exists
//!   for exactly `http:\\host\path`. So when the resolved URL's scheme will
//!   be one of [`SERVER_BASED_SCHEMES`] (the reference's scheme, or the
//!   base's when it has none), steps 8 and 9 leave `\` as written, like `%`,
//!   and step 13 turns it into `/`. In other schemes `\` is encoded as
//!   `%5C`.
//! - Step 11 ("any relevant conformance criteria") checks what RFC 3986
//!   itself requires of a resolved URI (a path cannot start with `//`
//!   without an authority) and the seed's example, generalized: a scheme
//!   defined without an authority ([`SCHEMES_WITHOUT_AUTHORITY`]) used with
//!   the `//` syntax is an error.
//! - Step 4 (a UTF-16 document's URLs use UTF-8) is the caller's: it passes
//!   [`QueryEncoding::UTF_8`] for such a document.
//!
//! ```
//! use microsyntax::url::{seed, QueryEncoding};
//! let url = seed::resolve_url("../g?q=☺", "http://a/b/c/d;p?q", QueryEncoding::UTF_8)?;
//! assert_eq!(url, "http://a/b/g?q=%E2%98%BA");
//! // `http:\\host\path` has no <host> for step 7: `\\` does not start an
//! // authority, so the name is encoded as part of the path (step 8).
//! let url = seed::resolve_url("http:\\\\bücher.example\\a", "http://x/", QueryEncoding::UTF_8)?;
//! assert_eq!(url, "http://b%C3%BCcher.example/a");
//! # Ok::<(), microsyntax::url::UrlError>(())
//! ```

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, percent_decode_str, utf8_percent_encode};

use super::{QueryEncoding, UrlError, UrlParts};
use crate::is_space_character;

/// The schemes this module treats as using a server-based naming authority
/// (§2.5.3 step 13), with their default ports (§2.5.2 `<hostport>`): the
/// RFC 1738 schemes written `//user:password@host:port/path` (`ftp`,
/// `gopher`, `http`, `nntp`, `telnet`, `wais`, `prospero`, and `file`, whose
/// authority is a host), `https` (RFC 2818), and `ws` and `wss`, which the
/// same draft defines for Web Sockets. `file` and `prospero` have no port
/// that matters here (`file` none, `prospero` 1525).
pub const SERVER_BASED_SCHEMES: &[(&str, Option<u16>)] = &[
    ("http", Some(80)),
    ("https", Some(443)),
    ("ftp", Some(21)),
    ("ws", Some(80)),
    ("wss", Some(443)),
    ("gopher", Some(70)),
    ("telnet", Some(23)),
    ("nntp", Some(119)),
    ("wais", Some(210)),
    ("prospero", Some(1525)),
    ("file", None),
];

/// Schemes whose syntax has no authority, so that a resolved URL of one of
/// them with `//` is an error (§2.5.3 step 11; the seed's example is
/// `data:`): `data` (RFC 2397), `mailto` (RFC 2368), `urn` (RFC 2141), `tel`
/// (RFC 3966) and `javascript`.
pub const SCHEMES_WITHOUT_AUTHORITY: &[&str] = &["data", "mailto", "urn", "tel", "javascript"];

/// Whether `scheme` is one of [`SERVER_BASED_SCHEMES`] (ASCII
/// case-insensitively).
fn is_server_based(scheme: &str) -> bool {
    SERVER_BASED_SCHEMES
        .iter()
        .any(|(s, _)| s.eq_ignore_ascii_case(scheme))
}

/// The default port of `scheme`, if this module knows one.
fn default_port(scheme: &str) -> Option<u16> {
    SERVER_BASED_SCHEMES
        .iter()
        .find(|(s, _)| s.eq_ignore_ascii_case(scheme))
        .and_then(|&(_, port)| port)
}

/// A URL split into the components seed 002 §2.5.2 step 3 defines: each
/// one the substring of the (stripped) input that its RFC 3986 production
/// matched, `None` when the production was not used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SeedUrl<'a> {
    /// The input with leading and trailing space characters stripped
    /// (§2.5.2 step 1): what the components are substrings of.
    pub input: &'a str,
    /// `<scheme>`, without the colon.
    pub scheme: Option<&'a str>,
    /// `<authority>` (after `//`): not one of the seed's components, but
    /// relative resolution works on it.
    pub authority: Option<&'a str>,
    /// `<userinfo>`, without the `@` (not one of the seed's components).
    pub userinfo: Option<&'a str>,
    /// `<host>`.
    pub host: Option<&'a str>,
    /// `<port>`, without the colon (possibly empty: `http://a:/`).
    pub port: Option<&'a str>,
    /// `<hostport>`: `host:port` when there is a scheme and a port and the
    /// port differs from the scheme's default port (a scheme this module
    /// knows no default port for has none to equal); otherwise the host. An
    /// empty port gives no port.
    pub hostport: Option<&'a str>,
    /// `<path>`: whichever path production matched (possibly empty).
    pub path: &'a str,
    /// `<query>`, without the `?`.
    pub query: Option<&'a str>,
    /// `<fragment>`, without the `#`.
    pub fragment: Option<&'a str>,
    /// Whether the host matched `<IP-literal>` (`[…]`).
    ip_literal: bool,
}

impl SeedUrl<'_> {
    /// The components as owned strings; `href` is the stripped input.
    ///
    /// ```
    /// let url = microsyntax::url::seed::parse_url(" http://a:8080/b?c#d ")?;
    /// let parts = url.to_parts();
    /// assert_eq!(parts.href, "http://a:8080/b?c#d");
    /// assert_eq!(parts.port.as_deref(), Some("8080"));
    /// # Ok::<(), microsyntax::url::UrlError>(())
    /// ```
    pub fn to_parts(&self) -> UrlParts {
        UrlParts {
            href: self.input.to_owned(),
            scheme: self.scheme.map(str::to_owned),
            host: self.host.map(str::to_owned),
            port: self.port.map(str::to_owned),
            path: self.path.to_owned(),
            query: self.query.map(str::to_owned),
            fragment: self.fragment.map(str::to_owned),
        }
    }

    /// Whether the host is an IP literal (`[…]`), which step 7 leaves
    /// alone.
    pub fn host_is_ip_literal(&self) -> bool {
        self.ip_literal
    }
}

/// Which ABNF: RFC 3986 with the seed's exceptions (parsing), or RFC 3987's
/// IRIs as written (validity).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Grammar {
    Seed,
    Iri,
}

/// `<unreserved>` (RFC 3986) with exceptions (a) and (b), or `<iunreserved>`
/// (RFC 3987).
fn is_unreserved(c: char, g: Grammar) -> bool {
    if c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_' | '~') {
        return true;
    }
    match g {
        // Exceptions (a) and (b).
        Grammar::Seed => {
            c <= ' '
                || c >= '\u{7F}'
                || matches!(
                    c,
                    '"' | '<' | '>' | '[' | '\\' | ']' | '^' | '`' | '{' | '|' | '}'
                )
        }
        Grammar::Iri => is_ucschar(c),
    }
}

/// RFC 3987 `<ucschar>`.
fn is_ucschar(c: char) -> bool {
    let n = u32::from(c);
    matches!(n, 0xA0..=0xD7FF | 0xF900..=0xFDCF | 0xFDF0..=0xFFEF | 0xE1000..=0xEFFFD)
        || ((0x10000..=0xDFFFD).contains(&n) && n & 0xFFFF <= 0xFFFD)
}

/// RFC 3987 `<iprivate>` (allowed in `<iquery>` only).
fn is_iprivate(c: char) -> bool {
    matches!(u32::from(c), 0xE000..=0xF8FF | 0xF0000..=0xFFFFD | 0x100000..=0x10FFFD)
}

/// `<sub-delims>`.
fn is_sub_delim(c: char) -> bool {
    matches!(
        c,
        '!' | '$' | '&' | '\'' | '(' | ')' | '*' | '+' | ',' | ';' | '='
    )
}

/// `<pchar>` without its `<pct-encoded>`.
fn is_pchar(c: char, g: Grammar) -> bool {
    is_unreserved(c, g) || is_sub_delim(c) || matches!(c, ':' | '@')
}

/// Whether `s` is a run of characters `allowed` accepts and `<pct-encoded>`
/// triplets; `lone_percent` is exception (c), a `%` alone also matching
/// `<pct-encoded>`.
fn is_run(s: &str, lone_percent: bool, allowed: impl Fn(char) -> bool) -> bool {
    let bytes = s.as_bytes();
    let mut chars = s.char_indices();
    while let Some((i, c)) = chars.next() {
        if c == '%' {
            let hex = |j: usize| bytes.get(j).is_some_and(u8::is_ascii_hexdigit);
            if hex(i + 1) && hex(i + 2) {
                chars.next();
                chars.next();
            } else if !lone_percent {
                return false;
            }
        } else if !allowed(c) {
            return false;
        }
    }
    true
}

/// The length of the `<scheme>` at the start of `s` when a `:` follows it.
fn scheme_len(s: &str) -> Option<usize> {
    let mut chars = s.char_indices();
    if !chars.next().is_some_and(|(_, c)| c.is_ascii_alphabetic()) {
        return None;
    }
    for (i, c) in chars {
        match c {
            ':' => return Some(i),
            c if c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.') => {}
            _ => return None,
        }
    }
    None
}

/// `<IP-literal>`: `[` `<IPv6address>` or `<IPvFuture>` `]`.
fn is_ip_literal(s: &str, g: Grammar) -> bool {
    let Some(inner) = s.strip_prefix('[').and_then(|s| s.strip_suffix(']')) else {
        return false;
    };
    if let Some(future) = inner.strip_prefix(['v', 'V']) {
        // <IPvFuture> = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
        let Some((version, rest)) = future.split_once('.') else {
            return false;
        };
        return !version.is_empty()
            && version.bytes().all(|b| b.is_ascii_hexdigit())
            && !rest.is_empty()
            && rest
                .chars()
                .all(|c| is_unreserved(c, g) || is_sub_delim(c) || c == ':');
    }
    // <IPv6address>: the standard library reads the same forms (eight
    // groups, `::`, a dotted IPv4 tail) and no zone identifiers.
    inner.parse::<std::net::Ipv6Addr>().is_ok()
}

/// Splits `s` (stripped) as RFC 3986's `<URI-reference>` in grammar `g`,
/// or says which part did not match.
fn split(s: &str, g: Grammar) -> Result<SeedUrl<'_>, &'static str> {
    let seed = g == Grammar::Seed;
    // The first `#` starts the fragment: no other production has `#`.
    let (rest, fragment) = match s.split_once('#') {
        Some((r, f)) => (r, Some(f)),
        None => (s, None),
    };
    if let Some(f) = fragment {
        // <fragment> = *( pchar / "/" / "?" ), and `#` by exception (d).
        let ok = is_run(f, seed, |c| {
            is_pchar(c, g) || matches!(c, '/' | '?') || (seed && c == '#')
        });
        if !ok {
            return Err("the fragment has a character <fragment> does not allow");
        }
    }
    // The first `?` before it starts the query.
    let (rest, query) = match rest.split_once('?') {
        Some((r, q)) => (r, Some(q)),
        None => (rest, None),
    };
    if let Some(q) = query {
        let ok = is_run(q, seed, |c| {
            is_pchar(c, g) || matches!(c, '/' | '?') || (g == Grammar::Iri && is_iprivate(c))
        });
        if !ok {
            return Err("the query has a character <query> does not allow");
        }
    }
    // <URI> has a scheme; <relative-ref> does not.
    let (scheme, rest) = match scheme_len(rest) {
        Some(n) => (rest.get(..n), rest.get(n + 1..).unwrap_or("")),
        None => (None, rest),
    };
    let mut url = SeedUrl {
        input: s,
        scheme,
        authority: None,
        userinfo: None,
        host: None,
        port: None,
        hostport: None,
        path: rest,
        query,
        fragment,
        ip_literal: false,
    };
    if let Some(after) = rest.strip_prefix("//") {
        // "//" authority path-abempty: the authority runs to the first `/`
        // (it has no `/`, `?` or `#`).
        let end = after.find('/').unwrap_or(after.len());
        let (authority, path) = after.split_at(end);
        url.authority = Some(authority);
        url.path = path;
        split_authority(&mut url, authority, g)?;
    } else if scheme.is_none() {
        // <path-noscheme>: no `:` in the first segment.
        let first = rest.split('/').next().unwrap_or("");
        if first.contains(':') {
            return Err("a relative reference's first path segment has a colon");
        }
    }
    let ok = is_run(url.path, seed, |c| is_pchar(c, g) || c == '/');
    if !ok {
        return Err("the path has a character <path> does not allow");
    }
    Ok(url)
}

/// `<authority>` = [ userinfo "@" ] host [ ":" port ].
fn split_authority<'a>(
    url: &mut SeedUrl<'a>,
    authority: &'a str,
    g: Grammar,
) -> Result<(), &'static str> {
    let seed = g == Grammar::Seed;
    // Neither <userinfo> nor <host> has an `@`.
    let hostport = match authority.split_once('@') {
        Some((userinfo, hostport)) => {
            let ok = is_run(userinfo, seed, |c| {
                is_unreserved(c, g) || is_sub_delim(c) || c == ':'
            });
            if !ok || hostport.contains('@') {
                return Err("the authority's user information does not match <userinfo>");
            }
            url.userinfo = Some(userinfo);
            hostport
        }
        None => authority,
    };
    let is_port = |p: &str| p.bytes().all(|b| b.is_ascii_digit());
    // An <IP-literal> ends with `]`, maybe followed by ":" port (a port
    // has neither `]` nor `:`, so the split is unique).
    let literal = if hostport.ends_with(']') {
        Some((hostport, None))
    } else {
        hostport
            .rsplit_once(':')
            .filter(|(h, p)| h.ends_with(']') && is_port(p))
            .map(|(h, p)| (h, Some(p)))
    };
    let (host, port) = match literal.filter(|(h, _)| h.starts_with('[') && is_ip_literal(h, g)) {
        Some(found) => {
            url.ip_literal = true;
            found
        }
        None => {
            // <reg-name> (and <IPv4address>, a special case of it) has no
            // `:`, and no lone `%` (exception (c) does not reach it).
            let (host, port) = match hostport.split_once(':') {
                Some((h, p)) => (h, Some(p)),
                None => (hostport, None),
            };
            let ok = is_run(host, false, |c| is_unreserved(c, g) || is_sub_delim(c));
            if !ok {
                return Err("the host does not match <host>");
            }
            (host, port)
        }
    };
    if port.is_some_and(|p| !is_port(p)) {
        return Err("the port is not digits");
    }
    url.host = Some(host);
    url.port = port;
    // <hostport>: host:port only when the port is not the scheme's default.
    let differs = match (url.scheme, port) {
        (Some(scheme), Some(port)) if !port.is_empty() => match default_port(scheme) {
            Some(default) => port.parse::<u16>().ok() != Some(default),
            None => true,
        },
        _ => false,
    };
    url.hostport = Some(if differs { hostport } else { host });
    Ok(())
}

/// Spec: seed 002 §2.5.2 "Parsing URLs", steps 1–3: strips space
/// characters, then matches RFC 3986's `<URI-reference>` with the draft's
/// exceptions (see the [module docs](self)), and returns the components
/// as substrings of the stripped input.
///
/// ```
/// use microsyntax::url::seed::parse_url;
/// let url = parse_url(" http://example.com:8080/a^b?c d#e#f ")?;
/// assert_eq!(url.scheme, Some("http"));
/// assert_eq!(url.hostport, Some("example.com:8080"));
/// assert_eq!(url.path, "/a^b");
/// assert_eq!(url.query, Some("c d"));
/// assert_eq!(url.fragment, Some("e#f"));
/// // The default port is not part of <hostport>.
/// assert_eq!(parse_url("http://example.com:80/")?.hostport, Some("example.com"));
/// // A colon in a relative reference's first segment matches nothing.
/// assert!(parse_url("a b:c").is_err());
/// # Ok::<(), microsyntax::url::UrlError>(())
/// ```
pub fn parse_url(input: &str) -> Result<SeedUrl<'_>, UrlError> {
    // Step 1.
    let url = input.trim_matches(is_space_character);
    // Step 2 (and the components of step 3).
    split(url, Grammar::Seed).map_err(|reason| UrlError::Seed {
        // Step 3: no match is an error.
        step: "§2.5.2 step 3",
        reason: reason.to_owned(),
    })
}

/// Spec: seed 002 §2.5.1 "valid URL" (the list restored, see the
/// [module docs](self)): a valid URI reference, or a valid IRI reference
/// whose query (if any) is ASCII, or any valid IRI reference when the
/// document's encoding is UTF-8 (or UTF-16, which the caller passes as
/// UTF-8). Nothing is stripped and none of §2.5.2's exceptions apply.
///
/// ```
/// use microsyntax::url::{seed::is_valid_url, QueryEncoding};
/// let cp1251 = |_: char, _: &mut Vec<u8>| false;
/// let legacy = QueryEncoding::new(&cp1251);
/// assert!(is_valid_url("http://example.com/a?b", legacy));
/// assert!(is_valid_url("http://example.com/é", legacy));
/// assert!(!is_valid_url("http://example.com/?é", legacy));
/// assert!(is_valid_url("http://example.com/?é", QueryEncoding::UTF_8));
/// assert!(!is_valid_url("http://example.com/a b", QueryEncoding::UTF_8));
/// assert!(!is_valid_url(" a", QueryEncoding::UTF_8));
/// ```
pub fn is_valid_url(input: &str, encoding: QueryEncoding<'_>) -> bool {
    match split(input, Grammar::Iri) {
        Ok(url) => encoding.is_utf8() || url.query.is_none_or(str::is_ascii),
        Err(_) => false,
    }
}

/// The characters the original `<path>` production allows (`<pchar>` and
/// `/`), and `%`: step 8 encodes the others.
const PATH_KEEP: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~')
    .remove(b'!')
    .remove(b'$')
    .remove(b'&')
    .remove(b'\'')
    .remove(b'(')
    .remove(b')')
    .remove(b'*')
    .remove(b'+')
    .remove(b',')
    .remove(b';')
    .remove(b'=')
    .remove(b':')
    .remove(b'@')
    .remove(b'/')
    .remove(b'%');

/// [`PATH_KEEP`] and `\`, for server-based schemes (see the module docs).
const PATH_KEEP_BACKSLASH: &AsciiSet = &PATH_KEEP.remove(b'\\');

/// Step 8: the path with every character other than `%` that the original
/// `<path>` production does not allow percent-encoded as UTF-8 (upper-case
/// hex digits); `\` is kept when `keep_backslash`.
pub(crate) fn encode_path(path: &str, keep_backslash: bool) -> String {
    let set = if keep_backslash {
        PATH_KEEP_BACKSLASH
    } else {
        PATH_KEEP
    };
    utf8_percent_encode(path, set).to_string()
}

/// Appends `%XX` for a byte (upper-case hex digits, as RFC 3986 §2.1
/// recommends): step 9.3 encodes every octet of a character, which no
/// percent-encode set of the `percent_encoding` crate covers.
fn push_percent(out: &mut String, b: u8) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    out.push('%');
    out.push(char::from(HEX[usize::from(b >> 4)]));
    out.push(char::from(HEX[usize::from(b & 15)]));
}

/// Step 9: the query with every character other than `%` that the original
/// `<query>` production does not allow written in `encoding` and
/// percent-encoded, or replaced by `?` when `encoding` cannot express it
/// (step 9.1); `\` is kept when `keep_backslash`.
pub(crate) fn encode_query(
    query: &str,
    encoding: QueryEncoding<'_>,
    keep_backslash: bool,
) -> String {
    let mut out = String::with_capacity(query.len());
    let mut bytes = Vec::new();
    for c in query.chars() {
        let keep = c == '%'
            || (keep_backslash && c == '\\')
            || (c.is_ascii() && is_pchar(c, Grammar::Iri))
            || matches!(c, '/' | '?');
        if keep {
            out.push(c);
            continue;
        }
        bytes.clear();
        // Step 9.1.
        if !encoding.encode_char(c, &mut bytes) {
            out.push('?');
            continue;
        }
        // Steps 9.2 and 9.3.
        for &b in &bytes {
            push_percent(&mut out, b);
        }
    }
    out
}

/// Step 7: the host's percent-encoded UTF-8 decoded, then IDNA ToASCII
/// (UTS #46, STD3 rules). IP literals and empty hosts stay as they are.
fn host_to_ascii(url: &SeedUrl<'_>, host: &str) -> Result<String, UrlError> {
    let error = |reason: String| UrlError::Seed {
        step: "§2.5.3 step 7",
        reason,
    };
    if url.ip_literal || host.is_empty() {
        return Ok(host.to_owned());
    }
    let decoded: Vec<u8> = percent_decode_str(host).collect();
    let decoded = String::from_utf8(decoded).map_err(|_| {
        error(format!(
            "the host {host:?} has percent-encoded octets that are not UTF-8"
        ))
    })?;
    idna::uts46::Uts46::new()
        .to_ascii(
            decoded.as_bytes(),
            idna::AsciiDenyList::STD3,
            idna::uts46::Hyphens::CheckFirstLast,
            idna::uts46::DnsLength::VerifyAllowRootDot,
        )
        .map(std::borrow::Cow::into_owned)
        .map_err(|_| error(format!("IDNA ToASCII fails for the host {decoded:?}")))
}

/// RFC 3986 §5.2.4 "Remove Dot Segments", iteratively: each character is
/// copied to the output once and removed at most once.
fn remove_dot_segments(path: &str) -> String {
    let mut input = path;
    let mut output = String::with_capacity(path.len());
    let pop = |output: &mut String| {
        let cut = output.rfind('/').unwrap_or(0);
        output.truncate(cut);
    };
    while !input.is_empty() {
        if let Some(rest) = input.strip_prefix("../") {
            // A.
            input = rest;
        } else if let Some(rest) = input.strip_prefix("./") {
            input = rest;
        } else if input.starts_with("/./") {
            // B: "/./" becomes "/".
            input = input.get(2..).unwrap_or("");
        } else if input == "/." {
            input = "";
            output.push('/');
        } else if input.starts_with("/../") {
            // C: "/../" becomes "/", and the last segment goes.
            input = input.get(3..).unwrap_or("");
            pop(&mut output);
        } else if input == "/.." {
            input = "";
            pop(&mut output);
            output.push('/');
        } else if input == "." || input == ".." {
            // D.
            input = "";
        } else {
            // E: the first segment, with its leading `/`, moves over.
            let start = usize::from(input.starts_with('/'));
            let end = input
                .get(start..)
                .and_then(|s| s.find('/'))
                .map_or(input.len(), |i| i + start);
            output.push_str(input.get(..end).unwrap_or(""));
            input = input.get(end..).unwrap_or("");
        }
    }
    output
}

/// RFC 3986 §5.2.3 "Merge Paths".
fn merge(base: &SeedUrl<'_>, reference: &str) -> String {
    if base.authority.is_some() && base.path.is_empty() {
        return format!("/{reference}");
    }
    match base.path.rfind('/') {
        Some(i) => format!("{}{reference}", base.path.get(..=i).unwrap_or("")),
        None => reference.to_owned(),
    }
}

/// A URL after §2.5.3 steps 6–9: its components as parsed, and its
/// authority, path and query encoded.
struct Prepared<'a> {
    url: SeedUrl<'a>,
    authority: Option<String>,
    path: String,
    query: Option<String>,
}

/// §2.5.3 steps 6–9 on `input`: parse it (step 6), IDNA its host (step
/// 7), percent-encode its path (step 8) and its query in `encoding` (step
/// 9). `keep_backslash` says, from the URL's own scheme, whether the
/// result's scheme is server-based, so that `\` waits for step 13.
fn prepare<'a>(
    input: &'a str,
    encoding: QueryEncoding<'_>,
    keep_backslash: impl FnOnce(Option<&str>) -> bool,
) -> Result<Prepared<'a>, UrlError> {
    // Step 6.
    let url = parse_url(input)?;
    let keep_backslash = keep_backslash(url.scheme);
    // Step 7: the host, inside the reference's authority.
    let authority = match url.authority {
        Some(authority) => {
            let host = url.host.unwrap_or("");
            let host = host_to_ascii(&url, host)?;
            let mut a = String::with_capacity(authority.len() + host.len());
            if let Some(userinfo) = url.userinfo {
                a.push_str(userinfo);
                a.push('@');
            }
            a.push_str(&host);
            if let Some(port) = url.port {
                a.push(':');
                a.push_str(port);
            }
            Some(a)
        }
        None => None,
    };
    // Step 8.
    let path = encode_path(url.path, keep_backslash);
    // Step 9.
    let query = url.query.map(|q| encode_query(q, encoding, keep_backslash));
    Ok(Prepared {
        url,
        authority,
        path,
        query,
    })
}

/// Spec: seed 002 §2.5.3 steps 6–9 and 13 on a URL alone, for when there is
/// no base to resolve it against (steps 5 and 10–12 need one): the URL as
/// written, its host IDNA-encoded, its path and query percent-encoded, and
/// `\` made `/` when its scheme is server-based. A relative URL is not
/// made absolute, and its `\` stay (its scheme is not known).
///
/// ```
/// use microsyntax::url::{seed::encode_url, QueryEncoding};
/// // Seed 002 §2.5.3 step 8's own example.
/// assert_eq!(encode_url("//example.com/a^b☺c%FFd%z/?e", QueryEncoding::UTF_8)?,
///            "//example.com/a%5Eb%E2%98%BAc%FFd%z/?e");
/// assert_eq!(encode_url("http://bücher.example/a b", QueryEncoding::UTF_8)?,
///            "http://xn--bcher-kva.example/a%20b");
/// assert_eq!(encode_url("http:\\\\example.com\\path", QueryEncoding::UTF_8)?,
///            "http://example.com/path");
/// # Ok::<(), microsyntax::url::UrlError>(())
/// ```
pub fn encode_url(input: &str, encoding: QueryEncoding<'_>) -> Result<String, UrlError> {
    let Prepared {
        url,
        authority,
        path,
        query,
    } = prepare(input, encoding, |scheme| scheme.is_none_or(is_server_based))?;
    let parts = Recomposed {
        scheme: url.scheme,
        authority: authority.as_deref(),
        path: &path,
        query: query.as_deref(),
        fragment: url.fragment,
    };
    // Step 13, when the scheme says.
    Ok(parts.recompose())
}

/// The components of a URL, to put back together.
struct Recomposed<'a> {
    scheme: Option<&'a str>,
    authority: Option<&'a str>,
    path: &'a str,
    query: Option<&'a str>,
    fragment: Option<&'a str>,
}

impl Recomposed<'_> {
    /// RFC 3986 §5.3 "component recomposition" (§2.5.3 step 12), then step
    /// 13: `\` becomes `/` when the scheme is server-based.
    fn recompose(&self) -> String {
        let mut result = String::with_capacity(self.path.len() + 32);
        if let Some(scheme) = self.scheme {
            result.push_str(scheme);
            result.push(':');
        }
        if let Some(authority) = self.authority {
            result.push_str("//");
            result.push_str(authority);
        }
        result.push_str(self.path);
        if let Some(query) = self.query {
            result.push('?');
            result.push_str(query);
        }
        if let Some(fragment) = self.fragment {
            result.push('#');
            result.push_str(fragment);
        }
        if self.scheme.is_some_and(is_server_based) && result.contains('\\') {
            result = result.replace('\\', "/");
        }
        result
    }
}

/// Spec: seed 002 §2.5.3 "resolve a URL", steps 1–14: `input` against the
/// absolute URL `base`, the query written in the document's `encoding`.
/// Returns the absolute URL, or an error at step 5 (`base` is not
/// absolute), §2.5.2 step 3 (either does not parse), 7 (the host) or 11.
///
/// Step 4 (a UTF-16 document's encoding becomes UTF-8) is the caller's:
/// pass [`QueryEncoding::UTF_8`] for such a document.
///
/// ```
/// use microsyntax::url::{seed::resolve_url, QueryEncoding};
/// let base = "http://a/b/c/d;p?q";
/// assert_eq!(resolve_url("../g", base, QueryEncoding::UTF_8)?, "http://a/b/g");
/// assert_eq!(resolve_url("//bücher.example/a b", base, QueryEncoding::UTF_8)?,
///            "http://xn--bcher-kva.example/a%20b");
/// assert_eq!(resolve_url("http:\\\\example.com\\path", base, QueryEncoding::UTF_8)?,
///            "http://example.com/path");
/// assert!(resolve_url("data://x/", base, QueryEncoding::UTF_8).is_err());
/// # Ok::<(), microsyntax::url::UrlError>(())
/// ```
pub fn resolve_url(
    input: &str,
    base: &str,
    encoding: QueryEncoding<'_>,
) -> Result<String, UrlError> {
    // Step 1: url. Steps 2-4: the document and its encoding are the
    // caller's (`encoding`, UTF-8 for a UTF-16 document).
    // Step 5: the base URL, which must be absolute.
    let base = parse_url(base)?;
    let Some(base_scheme) = base.scheme else {
        return Err(UrlError::Seed {
            step: "§2.5.3 step 5",
            reason: "the base URL is not absolute (it has no scheme)".to_owned(),
        });
    };
    // Steps 6-9.
    let Prepared {
        url,
        authority,
        path,
        query,
    } = prepare(input, encoding, |scheme| {
        // The scheme the result will have (RFC 3986 §5.2.2), for `\` (see
        // the module docs).
        is_server_based(scheme.unwrap_or(base_scheme))
    })?;
    // Step 10: RFC 3986 §5.2.2, the strict parser.
    let (scheme, authority, path, query) = if let Some(scheme) = url.scheme {
        (scheme, authority, remove_dot_segments(&path), query)
    } else if authority.is_some() {
        (base_scheme, authority, remove_dot_segments(&path), query)
    } else {
        let base_authority = base.authority.map(str::to_owned);
        if path.is_empty() {
            let query = query.or_else(|| base.query.map(str::to_owned));
            (base_scheme, base_authority, base.path.to_owned(), query)
        } else if path.starts_with('/') {
            (
                base_scheme,
                base_authority,
                remove_dot_segments(&path),
                query,
            )
        } else {
            let merged = merge(&base, &path);
            (
                base_scheme,
                base_authority,
                remove_dot_segments(&merged),
                query,
            )
        }
    };
    // Step 11: RFC 3986 §3.3, and schemes without an authority.
    let step11 = |reason: String| UrlError::Seed {
        step: "§2.5.3 step 11",
        reason,
    };
    if authority.is_none() && path.starts_with("//") {
        return Err(step11(
            "the resolved path starts with \"//\" but there is no authority".to_owned(),
        ));
    }
    if authority.is_some()
        && SCHEMES_WITHOUT_AUTHORITY
            .iter()
            .any(|s| s.eq_ignore_ascii_case(scheme))
    {
        return Err(step11(format!(
            "a {scheme}: URL cannot use the \"//\" authority syntax"
        )));
    }
    // Steps 12 (RFC 3986 §5.3, recomposition) and 13.
    let result = Recomposed {
        scheme: Some(scheme),
        authority: authority.as_deref(),
        path: &path,
        query: query.as_deref(),
        fragment: url.fragment,
    }
    .recompose();
    // Step 14.
    Ok(result)
}

/// Spec: seed 002 §2.5.3 "document base URL", steps 1–4: the first
/// `<base href>` (`base_href`, as written) resolved against the document's
/// `address`, or the address when there is no `<base href>` or it does not
/// resolve. Without an address, an absolute `<base href>` is still
/// resolved (against itself); `None` when nothing gives a URL.
///
/// ```
/// use microsyntax::url::{seed::document_base_url, QueryEncoding};
/// let enc = QueryEncoding::UTF_8;
/// let address = Some("http://example.com/a/b.html");
/// assert_eq!(document_base_url(Some("../c/"), address, enc).as_deref(), Some("http://example.com/c/"));
/// assert_eq!(document_base_url(None, address, enc).as_deref(), address);
/// assert_eq!(document_base_url(Some("c/"), None, enc), None);
/// ```
pub fn document_base_url(
    base_href: Option<&str>,
    address: Option<&str>,
    encoding: QueryEncoding<'_>,
) -> Option<String> {
    // Step 1.
    let Some(href) = base_href else {
        return address.map(str::to_owned);
    };
    // Steps 2 and 3.
    let resolved = resolve_url(href, address.unwrap_or(href), encoding);
    // Step 4.
    match resolved {
        Ok(url) => Some(url),
        Err(_) => address.map(str::to_owned),
    }
}

#[cfg(test)]
mod tests;
