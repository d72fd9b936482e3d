//! The HTTP response a WARC `response` record holds: its head (read with
//! httparse; `HTTP/2` and `HTTP/3` status lines too), what its body is
//! (`Content-Type`), and its payload with the transfer and content codings
//! undone (chunked; gzip, deflate), up to [`MAX_PAYLOAD`] bytes.

use std::fmt;
use std::io::{self, Read};

/// The largest page body once its content-encoding is undone (a page, not
/// a decompression bomb: each worker may hold one).
pub(crate) const MAX_PAYLOAD: u64 = 64 * 1024 * 1024;

/// Why an archived HTTP response cannot be read. Its `Display` is a
/// lower-case phrase.
#[derive(Debug)]
pub(crate) enum HttpError {
    /// The head ends before its blank line.
    TruncatedHead,
    /// The head is not HTTP.
    MalformedHead(httparse::Error),
    /// A `Content-Encoding` other than gzip and deflate (lower case).
    UnsupportedCoding(String),
    /// The body is over [`MAX_PAYLOAD`] bytes once decompressed.
    TooLarge,
    /// The compressed body is corrupt.
    BadCoding(io::Error),
}

impl fmt::Display for HttpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HttpError::TruncatedHead => f.write_str("a truncated HTTP response head"),
            HttpError::MalformedHead(e) => write!(f, "a malformed HTTP response head ({e})"),
            HttpError::UnsupportedCoding(coding) => {
                write!(f, "content-encoding `{coding}` is not supported")
            }
            HttpError::TooLarge => write!(
                f,
                "the body is over {MAX_PAYLOAD} bytes once its content-encoding is undone: skipped"
            ),
            HttpError::BadCoding(e) => {
                write!(f, "the body's content-encoding cannot be undone ({e})")
            }
        }
    }
}

impl std::error::Error for HttpError {}

/// The head of an archived HTTP response.
pub(crate) struct Http {
    /// The status code (`200`, `404`).
    pub(crate) status: u16,
    /// The `Content-Type` value.
    pub(crate) content_type: Option<Vec<u8>>,
    /// `Transfer-Encoding: chunked`.
    chunked: bool,
    /// The `Content-Encoding` value, lower case.
    coding: Option<String>,
    /// Where the body starts.
    body_at: usize,
}

impl Http {
    /// The head of the response `block`.
    pub(crate) fn parse(block: &[u8]) -> Result<Http, HttpError> {
        // httparse reads HTTP/1.x heads; crawlers also write `HTTP/2 200`
        // (and `HTTP/2.0`, `HTTP/3`) status lines in front of the same
        // header syntax.
        let rewritten;
        let original = block.len();
        let block = match http2_status(block) {
            Some(rest) => {
                rewritten = [&b"HTTP/1.1 "[..], rest].concat();
                &rewritten[..]
            }
            None => block,
        };
        // Where the body starts in the record, not in the rewritten head.
        let shift = block.len().saturating_sub(original);
        let mut few = [httparse::EMPTY_HEADER; 128];
        let mut many;
        let mut response = httparse::Response::new(&mut few);
        let mut parsed = response.parse(block);
        if parsed == Err(httparse::Error::TooManyHeaders) {
            many = vec![httparse::EMPTY_HEADER; 4096];
            response = httparse::Response::new(&mut many);
            parsed = response.parse(block);
        }
        let body_at = match parsed {
            Ok(httparse::Status::Complete(n)) => n.saturating_sub(shift),
            Ok(httparse::Status::Partial) => {
                return Err(HttpError::TruncatedHead);
            }
            Err(e) => return Err(HttpError::MalformedHead(e)),
        };
        let value = |name: &str| {
            response
                .headers
                .iter()
                .find(|h| h.name.eq_ignore_ascii_case(name))
                .map(|h| h.value.to_vec())
        };
        let text = |name: &str| {
            value(name).map(|v| String::from_utf8_lossy(&v).trim().to_ascii_lowercase())
        };
        Ok(Http {
            status: response.code.unwrap_or(0),
            content_type: value("Content-Type"),
            chunked: text("Transfer-Encoding").is_some_and(|t| t.contains("chunked")),
            coding: text("Content-Encoding").filter(|c| !c.is_empty() && c != "identity"),
            body_at,
        })
    }

    /// The media type of the `Content-Type` (lower case, without its
    /// parameters), when there is one.
    pub(crate) fn media_type(&self) -> Option<String> {
        let value = String::from_utf8_lossy(self.content_type.as_deref()?);
        let media = value
            .split(';')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase();
        (!media.is_empty()).then_some(media)
    }

    /// HTML by its media type (`text/html`, `application/xhtml+xml`), or,
    /// without a `Content-Type`, by whatever the crawler stored.
    pub(crate) fn is_html(&self) -> bool {
        match self.media_type() {
            None => true,
            Some(media) => matches!(media.as_str(), "text/html" | "application/xhtml+xml"),
        }
    }

    /// The body, with the transfer and content codings undone.
    pub(crate) fn payload(&self, block: &[u8]) -> Result<Vec<u8>, HttpError> {
        let raw = block.get(self.body_at..).unwrap_or_default();
        // Crawlers often store the body already dechunked under its
        // original header: what does not read as chunks is the body.
        let body = match self.chunked.then(|| dechunk(raw)).flatten() {
            Some(body) => body,
            None => raw.to_vec(),
        };
        let limit = MAX_PAYLOAD;
        let mut out = Vec::new();
        let read = match self.coding.as_deref() {
            None => return Ok(body),
            Some("gzip" | "x-gzip") => flate2::read::MultiGzDecoder::new(&body[..])
                .take(limit)
                .read_to_end(&mut out),
            Some("deflate") => {
                let zlib = flate2::read::ZlibDecoder::new(&body[..])
                    .take(limit)
                    .read_to_end(&mut out);
                if zlib.is_err() {
                    out.clear();
                    flate2::read::DeflateDecoder::new(&body[..])
                        .take(limit)
                        .read_to_end(&mut out)
                } else {
                    zlib
                }
            }
            Some(other) => return Err(HttpError::UnsupportedCoding(other.to_owned())),
        };
        match read {
            Ok(_) if out.len() as u64 >= limit => Err(HttpError::TooLarge),
            Ok(_) => Ok(out),
            Err(e) => Err(HttpError::BadCoding(e)),
        }
    }
}

/// The rest of a head after an `HTTP/2`, `HTTP/2.0` or `HTTP/3` version.
fn http2_status(block: &[u8]) -> Option<&[u8]> {
    ["HTTP/2.0 ", "HTTP/2 ", "HTTP/3.0 ", "HTTP/3 "]
        .iter()
        .find_map(|v| block.strip_prefix(v.as_bytes()))
}

/// A chunked body's data (lenient: a malformed or truncated chunk after the
/// first ends it), or `None` when it does not start with a chunk.
fn dechunk(mut raw: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(raw.len());
    let mut first = true;
    loop {
        let Some(end) = raw.windows(2).position(|w| w == b"\r\n") else {
            return (!first).then_some(out);
        };
        let size_text = String::from_utf8_lossy(&raw[..end]);
        let size_text = size_text.split(';').next().unwrap_or("").trim();
        let Ok(size) = usize::from_str_radix(size_text, 16) else {
            return (!first).then_some(out);
        };
        first = false;
        if size == 0 {
            return Some(out);
        }
        let start = end + 2;
        let Some(chunk) = raw.get(start..start.saturating_add(size)) else {
            out.extend_from_slice(raw.get(start..).unwrap_or_default());
            return Some(out);
        };
        out.extend_from_slice(chunk);
        raw = raw.get(start + size + 2..).unwrap_or_default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunked_bodies_are_joined() {
        assert_eq!(
            dechunk(b"5\r\nhello\r\n7;x=1\r\n, world\r\n0\r\n\r\n").unwrap(),
            b"hello, world"
        );
        assert_eq!(dechunk(b"5\r\nhel").unwrap(), b"hel");
        // Not chunks at all: the body was stored dechunked.
        assert_eq!(dechunk(b"<p>already\r\n"), None);
        let block =
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n<p>already dechunked</p>";
        assert_eq!(
            Http::parse(block).unwrap().payload(block).unwrap(),
            b"<p>already dechunked</p>"
        );
    }

    #[test]
    fn content_codings_are_undone() {
        use std::io::Write as _;
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(b"<p>packed</p>").unwrap();
        let mut block = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n".to_vec();
        let body = gz.finish().unwrap();
        block.extend(format!("{:x}\r\n", body.len()).as_bytes());
        block.extend(&body);
        block.extend(b"\r\n0\r\n\r\n");
        let http = Http::parse(&block).unwrap();
        assert_eq!(http.payload(&block).unwrap(), b"<p>packed</p>");
        let br = b"HTTP/1.1 200 OK\r\nContent-Encoding: br\r\n\r\nxx";
        assert!(
            Http::parse(br)
                .unwrap()
                .payload(br)
                .unwrap_err()
                .to_string()
                .contains("`br` is not supported")
        );
    }

    #[test]
    fn http_heads_say_what_the_body_is() {
        let block = b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=koi8-r\r\n\r\n<p>x</p>";
        let http = Http::parse(block).unwrap();
        assert!(http.is_html());
        assert_eq!(http.payload(block).unwrap(), b"<p>x</p>");
        let image =
            Http::parse(b"HTTP/1.1 200 OK\r\nContent-Type: image/png\r\n\r\n\x89PNG").unwrap();
        assert!(!image.is_html());
        assert!(Http::parse(b"HTTP/1.1 200 OK\r\nContent-Ty").is_err());
        // HTTP/2 status lines, and heads of many headers.
        let h2 = b"HTTP/2 200\r\ncontent-type: text/html\r\n\r\n<p>x</p>";
        assert_eq!(Http::parse(h2).unwrap().payload(h2).unwrap(), b"<p>x</p>");
        let mut many = b"HTTP/1.1 200 OK\r\n".to_vec();
        for i in 0..300 {
            many.extend(format!("Set-Cookie: c{i}=1\r\n").as_bytes());
        }
        many.extend(b"Content-Type: text/html\r\n\r\n<p>y</p>");
        assert!(Http::parse(&many).unwrap().is_html());
    }
}
