//! Changing the `href` of a page's links in the page's own bytes, for a
//! site whose pages must point somewhere else (a page renamed or moved).
//!
//! Writing the page again from its document would change every byte of
//! it (XHTML, ballast dropped); here only the value of each changed `href`
//! is replaced and everything else stays byte for byte. The page is read
//! as the HTML tokenizer reads it, as far as finding attributes needs
//! (later standard, "Tokenization"): comments, doctypes and processing
//! instructions are skipped, the contents of `script`, `style`, `title`,
//! `textarea`, `xmp`, `iframe`, `noembed` and `noframes` are text, and an
//! `a` start tag's first `href` attribute (a repeated one is ignored, as
//! the tokenizer ignores it) is the link's URL. A page in an encoding that
//! is not ASCII-compatible (UTF-16) is not read.

use encoding_rs::Encoding;

/// A page's bytes with some of its links' `href`s changed ([`rewrite_hrefs`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rewritten {
    /// The page, with each changed `href` replaced.
    pub bytes: Vec<u8>,
    /// How many `href`s were replaced.
    pub changed: usize,
}

/// Elements whose contents the tokenizer reads as text up to their end
/// tag (raw text and RCDATA).
const TEXT_ELEMENTS: &[&str] = &[
    "script", "style", "title", "textarea", "xmp", "iframe", "noembed", "noframes",
];

/// The page `bytes` (in `encoding`) with the `href` of each `a` start tag
/// that `new_url` maps to a new URL replaced by it; `new_url` gets each
/// `href` decoded (the encoding, then the character references `&amp;`,
/// `&lt;`, `&gt;`, `&quot;`, `&apos;` and numeric ones; others are left as
/// written) and without its leading and trailing white space, and answers
/// `None` to keep it. The new value is written in double quotes, `&` and
/// `"` escaped, in the page's encoding (a character the encoding cannot
/// hold as a numeric reference). `None` when `encoding` is not
/// ASCII-compatible.
///
/// ```
/// let page = b"<p><a class=x HREF='a.html#top'>a</a> <a href=b.html>b</a><!-- <a href=a.html> --></p>";
/// let out = htmlio::hrefs::rewrite_hrefs(page, htmlio::encoding_rs::UTF_8, |url| {
///     url.starts_with("a.html").then(|| url.replacen("a.html", "sub/a.html", 1))
/// })
/// .unwrap();
/// assert_eq!(out.changed, 1);
/// assert_eq!(
///     out.bytes,
///     b"<p><a class=x HREF=\"sub/a.html#top\">a</a> <a href=b.html>b</a><!-- <a href=a.html> --></p>"
/// );
/// ```
pub fn rewrite_hrefs(
    bytes: &[u8],
    encoding: &'static Encoding,
    mut new_url: impl FnMut(&str) -> Option<String>,
) -> Option<Rewritten> {
    if !encoding.is_ascii_compatible() {
        return None;
    }
    let mut out = Vec::with_capacity(bytes.len());
    let mut copied = 0;
    let mut changed = 0;
    let mut at = 0;
    while let Some(lt) = find(bytes, at, b"<") {
        let rest = &bytes[lt..];
        if rest.starts_with(b"<!--") {
            at = find(bytes, lt + 4, b"-->").map_or(bytes.len(), |end| end + 3);
        } else if rest.starts_with(b"<!") || rest.starts_with(b"<?") || rest.starts_with(b"</") {
            at = find(bytes, lt + 2, b">").map_or(bytes.len(), |end| end + 1);
        } else if rest.get(1).is_some_and(u8::is_ascii_alphabetic) {
            let tag = start_tag(bytes, lt + 1);
            if tag.name == "a"
                && let Some(value) = tag.href
            {
                let raw = encoding
                    .decode_without_bom_handling(&bytes[value.clone()])
                    .0;
                let url = decode_references(&raw);
                let url = url.trim_matches(|c: char| c.is_ascii_whitespace());
                if let Some(new) = new_url(url) {
                    let quoted =
                        format!("\"{}\"", new.replace('&', "&amp;").replace('"', "&quot;"));
                    let (encoded, _, _) = encoding.encode(&quoted);
                    out.extend_from_slice(&bytes[copied..tag.href_span.start]);
                    out.extend_from_slice(&encoded);
                    copied = tag.href_span.end;
                    changed += 1;
                }
            }
            at = tag.end;
            if TEXT_ELEMENTS.contains(&tag.name.as_str()) && !tag.self_closing {
                at = end_of_text(bytes, at, &tag.name);
            }
        } else {
            at = lt + 1;
        }
    }
    out.extend_from_slice(&bytes[copied..]);
    Some(Rewritten {
        bytes: out,
        changed,
    })
}

/// The first `needle` in `bytes` at or after `from`.
fn find(bytes: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    bytes
        .get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|i| from + i)
}

/// A start tag as far as [`rewrite_hrefs`] needs it.
struct StartTag {
    /// Its name, in lower case.
    name: String,
    /// The first `href` attribute's value, without quotes.
    href: Option<std::ops::Range<usize>>,
    /// That value with its quotes.
    href_span: std::ops::Range<usize>,
    /// Whether it ends with `/>`.
    self_closing: bool,
    /// Where the bytes after the tag start.
    end: usize,
}

fn is_space(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\x0c' | b'\r' | b' ')
}

/// Reads the start tag whose name starts at `at` (after its `<`), as the
/// tokenizer's tag name, attribute name and attribute value states do.
fn start_tag(bytes: &[u8], mut at: usize) -> StartTag {
    let len = bytes.len();
    let name_start = at;
    while at < len && !is_space(bytes[at]) && bytes[at] != b'/' && bytes[at] != b'>' {
        at += 1;
    }
    let mut tag = StartTag {
        name: String::from_utf8_lossy(&bytes[name_start..at]).to_ascii_lowercase(),
        href: None,
        href_span: 0..0,
        self_closing: false,
        end: len,
    };
    loop {
        while at < len && (is_space(bytes[at]) || bytes[at] == b'/') {
            tag.self_closing = bytes[at] == b'/';
            at += 1;
        }
        if at >= len {
            return tag;
        }
        if bytes[at] == b'>' {
            tag.end = at + 1;
            return tag;
        }
        tag.self_closing = false;
        // An attribute's name: its first character may be `=`.
        let attr_start = at;
        at += 1;
        while at < len && !is_space(bytes[at]) && !matches!(bytes[at], b'/' | b'>' | b'=') {
            at += 1;
        }
        let is_href = bytes[attr_start..at].eq_ignore_ascii_case(b"href");
        let mut after = at;
        while after < len && is_space(bytes[after]) {
            after += 1;
        }
        if after >= len || bytes[after] != b'=' {
            continue;
        }
        at = after + 1;
        while at < len && is_space(bytes[at]) {
            at += 1;
        }
        let value_start = at;
        let value = match bytes.get(at) {
            Some(&quote @ (b'"' | b'\'')) => {
                let close = find(bytes, at + 1, &[quote]).unwrap_or(len);
                at = (close + 1).min(len);
                value_start + 1..close
            }
            _ => {
                while at < len && !is_space(bytes[at]) && bytes[at] != b'>' {
                    at += 1;
                }
                value_start..at
            }
        };
        if is_href && tag.href.is_none() {
            tag.href = Some(value);
            tag.href_span = value_start..at;
        }
    }
}

/// Where the text of the element `name` (opened before `at`) ends: at its
/// end tag `</name` followed by white space, `/` or `>`, in any case.
fn end_of_text(bytes: &[u8], mut at: usize, name: &str) -> usize {
    while let Some(lt) = find(bytes, at, b"</") {
        let after = lt + 2 + name.len();
        let named = bytes
            .get(lt + 2..after)
            .is_some_and(|n| n.eq_ignore_ascii_case(name.as_bytes()));
        if named
            && bytes
                .get(after)
                .is_none_or(|&b| is_space(b) || b == b'/' || b == b'>')
        {
            return lt;
        }
        at = lt + 2;
    }
    bytes.len()
}

/// `value` with its character references `&amp;`, `&lt;`, `&gt;`, `&quot;`,
/// `&apos;`, `&#N;` and `&#xH;` decoded; any other `&` is kept as written.
fn decode_references(value: &str) -> std::borrow::Cow<'_, str> {
    if !value.contains('&') {
        return std::borrow::Cow::Borrowed(value);
    }
    let mut out = String::with_capacity(value.len());
    let mut rest = value;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        rest = &rest[amp..];
        let decoded = rest.find(';').and_then(|semi| {
            let name = &rest[1..semi];
            let c = match name {
                "amp" => Some('&'),
                "lt" => Some('<'),
                "gt" => Some('>'),
                "quot" => Some('"'),
                "apos" => Some('\''),
                _ => {
                    let number = name.strip_prefix('#')?;
                    let code = match number.strip_prefix(['x', 'X']) {
                        Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                        None => number.parse().ok()?,
                    };
                    char::from_u32(code)
                }
            }?;
            Some((c, semi + 1))
        });
        match decoded {
            Some((c, len)) => {
                out.push(c);
                rest = &rest[len..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn swap(page: &str, from: &str, to: &str) -> (String, usize) {
        let out = rewrite_hrefs(page.as_bytes(), encoding_rs::UTF_8, |url| {
            (url == from).then(|| to.to_owned())
        })
        .unwrap();
        (String::from_utf8(out.bytes).unwrap(), out.changed)
    }

    #[test]
    fn every_spelling_of_an_href_is_found() {
        let page = "<A HREF=x.html>1</A><a\nhref = \"x.html\" >2</a><a title='a>b' href=' x.html '>3</a><a href=x.html/>4</a>";
        let (out, changed) = swap(page, "x.html", "y.html");
        assert_eq!(changed, 3, "{out}");
        assert_eq!(
            out,
            "<A HREF=\"y.html\">1</A><a\nhref = \"y.html\" >2</a><a title='a>b' href=\"y.html\">3</a><a href=x.html/>4</a>"
        );
    }

    #[test]
    fn text_comments_and_other_tags_are_kept() {
        let page = "<!DOCTYPE html><!-- <a href=x.html> --><script>'<a href=x.html>'</script>\
<title><a href=x.html></title><link href=x.html><area href=x.html><a href=z.html href=x.html>";
        let (out, changed) = swap(page, "x.html", "y.html");
        assert_eq!((out.as_str(), changed), (page, 0));
    }

    #[test]
    fn references_are_decoded_and_new_values_escaped() {
        let (out, changed) = swap(
            "<a href='a.html?x=1&amp;y=&#50;'>",
            "a.html?x=1&y=2",
            "b&\".html",
        );
        assert_eq!(
            (out.as_str(), changed),
            ("<a href=\"b&amp;&quot;.html\">", 1)
        );
        assert_eq!(decode_references("a&b;&#x41;&#66;&"), "a&b;AB&");
    }

    #[test]
    fn legacy_encodings_keep_their_bytes_and_utf16_is_not_read() {
        let page = b"<p>Caf\xe9 <a href=\"caf\xe9.html\">x</a></p>";
        let out = rewrite_hrefs(page, encoding_rs::WINDOWS_1252, |url| {
            (url == "caf\u{e9}.html").then(|| "new/caf\u{e9}.html".to_owned())
        })
        .unwrap();
        assert_eq!(
            out.bytes,
            b"<p>Caf\xe9 <a href=\"new/caf\xe9.html\">x</a></p>"
        );
        assert!(rewrite_hrefs(b"", encoding_rs::UTF_16LE, |_| None).is_none());
    }
}
