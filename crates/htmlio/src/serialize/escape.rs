//! Escaping helpers: each copies `s` to `out`, replacing the characters the
//! context needs replaced by references, in one pass over the bytes.

/// A replacement for each ASCII byte, or `None` to copy it.
type Table = [Option<&'static str>; 128];

const fn table(entries: &[(u8, &'static str)]) -> Table {
    let mut t: Table = [None; 128];
    let mut i = 0;
    while i < entries.len() {
        let (b, rep) = entries[i];
        t[b as usize] = Some(rep);
        i += 1;
    }
    t
}

/// Text in normal and escapable raw text elements: `&`, `<` and `>`.
const TEXT: Table = table(&[(b'&', "&amp;"), (b'<', "&lt;"), (b'>', "&gt;")]);

/// Text in XML: `&`, `<`, `>`, and CR as a reference (a literal CR would be
/// turned into LF by any XML parser).
const XML_TEXT: Table = table(&[
    (b'&', "&amp;"),
    (b'<', "&lt;"),
    (b'>', "&gt;"),
    (b'\r', "&#13;"),
]);

/// An XML attribute value in double quotes: `&`, `<`, `>`, `"`, and tab, LF
/// and CR as references (XML attribute-value normalisation would turn them
/// into spaces).
const XML_ATTRIBUTE: Table = table(&[
    (b'&', "&amp;"),
    (b'<', "&lt;"),
    (b'>', "&gt;"),
    (b'"', "&quot;"),
    (b'\t', "&#9;"),
    (b'\n', "&#10;"),
    (b'\r', "&#13;"),
]);

/// Copies `s`, replacing the ASCII bytes `table` names. Only ASCII bytes are
/// replaced, so slicing stays on character boundaries.
fn escape_with(out: &mut String, s: &str, table: &Table) {
    let bytes = s.as_bytes();
    out.reserve(bytes.len());
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if let Some(Some(rep)) = table.get(usize::from(b)) {
            out.push_str(s.get(start..i).unwrap_or_default());
            out.push_str(rep);
            start = i + 1;
        }
    }
    out.push_str(s.get(start..).unwrap_or_default());
}

/// Copies `s`, replacing `&`, `<` and `>`: [`escape_with`] for the
/// [`TEXT`] table, with a vectorised search for the three bytes.
fn escape_markup(out: &mut String, s: &str) {
    out.reserve(s.len());
    let mut start = 0;
    for i in memchr::memchr3_iter(b'&', b'<', b'>', s.as_bytes()) {
        out.push_str(s.get(start..i).unwrap_or_default());
        if let Some(Some(rep)) = TEXT.get(usize::from(s.as_bytes().get(i).copied().unwrap_or(0))) {
            out.push_str(rep);
        }
        start = i + 1;
    }
    out.push_str(s.get(start..).unwrap_or_default());
}

/// Below this length a plain loop over the bytes beats setting up the
/// vectorised search.
const SHORT: usize = 64;

/// Escapes text in normal and escapable raw text elements.
pub(crate) fn text(out: &mut String, s: &str) {
    if s.len() < SHORT {
        escape_with(out, s, &TEXT);
    } else {
        escape_markup(out, s);
    }
}

/// Escapes text for XML.
pub(crate) fn xml_text(out: &mut String, s: &str) {
    // A CR (rare in text) needs the full table.
    if s.len() < SHORT || memchr::memchr(b'\r', s.as_bytes()).is_some() {
        escape_with(out, s, &XML_TEXT);
    } else {
        escape_markup(out, s);
    }
}

/// Escapes an XML attribute value in double quotes.
pub(crate) fn xml_attribute(out: &mut String, s: &str) {
    escape_with(out, s, &XML_ATTRIBUTE);
}

/// Which characters an HTML attribute value needs replaced.
#[derive(Debug, Clone, Copy)]
pub(crate) struct AttrEscapes {
    /// `&` always (else only where it could start a character reference).
    pub(crate) all_ampersands: bool,
    pub(crate) lt: bool,
    pub(crate) gt: bool,
    /// `"` as `&quot;`.
    pub(crate) double_quote: bool,
    /// `'` as `&#39;`.
    pub(crate) single_quote: bool,
    /// Space characters, `=` and `` ` ``, for the unquoted syntax.
    pub(crate) unquoted_specials: bool,
}

/// The replacement of one byte of an HTML attribute value under `e`, given
/// the byte after it (for `&`).
fn attr_replacement(e: AttrEscapes, b: u8, next: Option<u8>) -> Option<&'static str> {
    match b {
        b'&' => {
            // A character reference starts with `&` and then `#` or an ASCII
            // alphanumeric; any other `&` is read literally.
            let may_start_ref = next.is_some_and(|n| n == b'#' || n.is_ascii_alphanumeric());
            (e.all_ampersands || may_start_ref).then_some("&amp;")
        }
        b'<' if e.lt => Some("&lt;"),
        b'>' if e.gt => Some("&gt;"),
        b'"' if e.double_quote => Some("&quot;"),
        b'\'' if e.single_quote => Some("&#39;"),
        b'=' if e.unquoted_specials => Some("&#61;"),
        b'`' if e.unquoted_specials => Some("&#96;"),
        b' ' if e.unquoted_specials => Some("&#32;"),
        b'\t' if e.unquoted_specials => Some("&#9;"),
        b'\n' if e.unquoted_specials => Some("&#10;"),
        b'\x0c' if e.unquoted_specials => Some("&#12;"),
        b'\r' if e.unquoted_specials => Some("&#13;"),
        _ => None,
    }
}

/// Writes an HTML attribute value under `e` (without quotes).
pub(crate) fn html_attribute(out: &mut String, s: &str, e: AttrEscapes) {
    let bytes = s.as_bytes();
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if let Some(rep) = attr_replacement(e, b, bytes.get(i + 1).copied()) {
            out.push_str(s.get(start..i).unwrap_or_default());
            out.push_str(rep);
            start = i + 1;
        }
    }
    out.push_str(s.get(start..).unwrap_or_default());
}

/// The length [`html_attribute`] would write.
pub(crate) fn html_attribute_len(s: &str, e: AttrEscapes) -> usize {
    let bytes = s.as_bytes();
    bytes
        .iter()
        .enumerate()
        .map(|(i, &b)| attr_replacement(e, b, bytes.get(i + 1).copied()).map_or(1, str::len))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_escapes_the_three() {
        let mut out = String::new();
        text(&mut out, "a<b>c&d é");
        assert_eq!(out, "a&lt;b&gt;c&amp;d é");
    }

    #[test]
    fn xml_attribute_escapes_quotes_and_whitespace() {
        let mut out = String::new();
        xml_attribute(&mut out, "a\"b'c\td\ne\rf<&>");
        assert_eq!(out, "a&quot;b'c&#9;d&#10;e&#13;f&lt;&amp;&gt;");
    }

    #[test]
    fn lone_ampersands_may_stay_when_allowed() {
        let e = AttrEscapes {
            all_ampersands: false,
            lt: false,
            gt: false,
            double_quote: true,
            single_quote: false,
            unquoted_specials: false,
        };
        let mut out = String::new();
        html_attribute(&mut out, "a & b &c &#1 &", e);
        assert_eq!(out, "a & b &amp;c &amp;#1 &");
        assert_eq!(html_attribute_len("a & b &c &#1 &", e), out.len());
    }
}
