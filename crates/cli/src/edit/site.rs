//! DIR as the editor sees it: relative paths mapped into it (and everything
//! else refused), the site tree listed one directory at a time, pages found
//! by name, and the site's own files served for the preview.
//!
//! A path is a list of segments separated by `/`. Refused, before the file
//! system is asked: an absolute path, an empty segment, `.` and `..`, a
//! segment holding `\`, NUL or (in a URL, once decoded) `/`, a drive
//! letter, and hidden names (a leading `.`: `.git`, the atomic writer's
//! temporary files). Then the path is resolved with its symbolic links, and
//! must still be inside DIR.

use std::path::{Path, PathBuf};

use super::answers::{Found, Listed, ListedKind, Listing};
use super::{App, Failed, Query, failure, json};
use crate::inputs::has_extension;
use axum::body::Body;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

/// The extensions of the pages the editor lists and opens.
pub(super) const PAGE_EXTENSIONS: &[&str] = &["html", "htm", "xhtml", "txt"];

/// How many entries of one directory one answer lists at most.
const PAGE_SIZE: usize = 500;

/// How many matches a search returns at most.
const FIND_LIMIT: usize = 200;

/// How many directory entries one search looks at at most (a site the
/// size of a home directory is cut short, and says so).
const FIND_VISITS: usize = 500_000;

/// The largest site file served to the preview.
const SITE_FILE_LIMIT: usize = 64 * 1024 * 1024;

/// Why a path is not served.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Refusal {
    /// Malformed, or outside DIR.
    Outside(&'static str),
    /// Inside DIR, but nothing is there.
    Missing,
}

impl Refusal {
    /// The failure to answer for `path`.
    pub(super) fn failed(&self, path: &str) -> Failed {
        match self {
            Refusal::Outside(why) => {
                Failed::new(StatusCode::FORBIDDEN, format!("{path}: refused: {why}"))
            }
            Refusal::Missing => Failed::new(StatusCode::NOT_FOUND, format!("{path}: no such file")),
        }
    }

    /// The answer for `path`.
    pub(super) fn response(&self, path: &str) -> Response {
        self.failed(path).response()
    }
}

/// The segments of a relative path, each already decoded, checked for
/// everything that could leave DIR or reach a hidden file.
fn check_segments<'a>(segments: impl Iterator<Item = &'a str>) -> Result<PathBuf, Refusal> {
    let mut path = PathBuf::new();
    for (i, segment) in segments.enumerate() {
        let why = match segment {
            "" => Some("an empty segment or an absolute path"),
            "." | ".." => Some("`.` and `..` are not followed"),
            s if s.contains(['/', '\\', '\0']) => Some("a slash, backslash or NUL inside a name"),
            s if s.starts_with('.') => Some("hidden files are not served"),
            s if i == 0 && s.len() >= 2 && s.as_bytes()[1] == b':' => {
                Some("a drive letter is an absolute path")
            }
            _ => None,
        };
        if let Some(why) = why {
            return Err(Refusal::Outside(why));
        }
        path.push(segment);
    }
    Ok(path)
}

/// A path given in a query (`path=a/b.html`, already decoded): `""` is DIR.
pub(super) fn from_query(app: &App, rel: &str) -> Result<PathBuf, Refusal> {
    if rel.is_empty() {
        return Ok(app.root.clone());
    }
    let below = check_segments(rel.split('/'))?;
    contain(app, &below)
}

/// A path given in a URL (`site/a/b%20c.css`): each segment is decoded on its
/// own, so that `%2F` cannot make a separator.
fn from_url(app: &App, raw: &str) -> Result<PathBuf, Refusal> {
    let decoded: Vec<String> = raw
        .split('/')
        .map(|s| {
            percent_encoding::percent_decode_str(s)
                .decode_utf8_lossy()
                .into_owned()
        })
        .collect();
    let below = check_segments(decoded.iter().map(String::as_str))?;
    contain(app, &below)
}

/// `root/below` with its symbolic links resolved, if that is still in DIR.
fn contain(app: &App, below: &Path) -> Result<PathBuf, Refusal> {
    let full = app.root.join(below);
    let real = std::fs::canonicalize(&full).map_err(|_| {
        // A dangling link leads nowhere; a missing file is missing.
        Refusal::Missing
    })?;
    if !real.starts_with(&app.root) {
        return Err(Refusal::Outside("it leads out of the site"));
    }
    // A link inside DIR may still lead to a hidden file.
    let hidden = real.strip_prefix(&app.root).is_ok_and(|below| {
        below
            .components()
            .any(|c| c.as_os_str().to_string_lossy().starts_with('.'))
    });
    if hidden {
        return Err(Refusal::Outside("hidden files are not served"));
    }
    Ok(real)
}

/// Why a file of the site was not read.
pub(super) enum Unread {
    /// A directory, FIFO, device or socket: reading could block or mean
    /// nothing.
    NotAFile,
    /// Over the limit (the size seen).
    TooBig(u64),
    /// The operating system's reason.
    Io(std::io::Error),
}

/// Reads the regular file `real` if it holds at most `limit` bytes (counted
/// while reading, so a file that grows meanwhile is refused too).
pub(super) fn read_file(real: &Path, limit: usize) -> Result<Vec<u8>, Unread> {
    use std::io::Read as _;
    let meta = std::fs::metadata(real).map_err(Unread::Io)?;
    if !meta.is_file() {
        return Err(Unread::NotAFile);
    }
    let limit = u64::try_from(limit).unwrap_or(u64::MAX);
    if meta.len() > limit {
        return Err(Unread::TooBig(meta.len()));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    std::fs::File::open(real)
        .and_then(|f| f.take(limit.saturating_add(1)).read_to_end(&mut bytes))
        .map_err(Unread::Io)?;
    let read = u64::try_from(bytes.len()).unwrap_or(u64::MAX);
    if read > limit {
        return Err(Unread::TooBig(read));
    }
    Ok(bytes)
}

/// The path of `real` (inside DIR) relative to DIR, with `/` separators.
pub(super) fn relative(app: &App, real: &Path) -> String {
    let below = real.strip_prefix(&app.root).unwrap_or(real);
    below
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

/// One entry of a listing.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Entry {
    /// Directories first.
    is_page: bool,
    name: String,
}

/// `GET api/tree?dir=D&offset=N`: the directories and pages directly in
/// `D`, directories first, by name; [`PAGE_SIZE`] from `offset` on, with the
/// total. One directory is read; nothing below it.
pub(super) async fn tree(app: &App, query: &Query) -> Response {
    let dir = query.get("dir").cloned().unwrap_or_default();
    let offset = query
        .get("offset")
        .and_then(|o| o.parse::<usize>().ok())
        .unwrap_or(0);
    let real = match from_query(app, &dir) {
        Ok(real) => real,
        Err(refusal) => return refusal.response(&dir),
    };
    let root = app.root.clone();
    let listed = tokio::task::spawn_blocking(move || list_dir(&root, &real)).await;
    let mut entries = match listed {
        Ok(Ok(entries)) => entries,
        Ok(Err(e)) => {
            return failure(
                StatusCode::UNPROCESSABLE_ENTITY,
                &format!("{dir}: {}", crate::inputs::describe_io_error(&e)),
            );
        }
        Err(_) => return failure(StatusCode::INTERNAL_SERVER_ERROR, "the listing failed"),
    };
    entries.sort_unstable();
    let total = entries.len();
    let shown: Vec<_> = entries
        .into_iter()
        .skip(offset)
        .take(PAGE_SIZE)
        .map(|e| Listed {
            kind: if e.is_page {
                ListedKind::Page
            } else {
                ListedKind::Dir
            },
            name: e.name,
        })
        .collect();
    json(&Listing {
        dir,
        entries: shown,
        more: offset.saturating_add(PAGE_SIZE) < total,
        offset,
        total,
    })
}

/// The visible directories and pages directly in `dir`. A symbolic link is
/// listed only when it leads to a place inside `root`.
fn list_dir(root: &Path, dir: &Path) -> std::io::Result<Vec<Entry>> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let Ok(entry) = entry else { continue };
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        if name.starts_with('.') {
            continue;
        }
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        let path = entry.path();
        let (is_dir, is_file) = if kind.is_symlink() {
            match std::fs::canonicalize(&path) {
                Ok(real) if real.starts_with(root) => (real.is_dir(), real.is_file()),
                _ => continue,
            }
        } else {
            (kind.is_dir(), kind.is_file())
        };
        if is_dir {
            out.push(Entry {
                is_page: false,
                name: name.to_owned(),
            });
        } else if is_file && has_extension(&path, PAGE_EXTENSIONS) {
            out.push(Entry {
                is_page: true,
                name: name.to_owned(),
            });
        }
    }
    Ok(out)
}

/// `GET api/find?q=TEXT`: pages whose path below DIR contains TEXT
/// (without case), at most [`FIND_LIMIT`]; the tree is walked once, in name
/// order, and the walk stops at the limit (or after [`FIND_VISITS`]
/// entries), with `truncated` set. Symbolic links are not followed (no
/// loops).
pub(super) async fn find(app: &App, query: &Query) -> Response {
    let needle = query.get("q").map(|q| q.to_lowercase()).unwrap_or_default();
    let root = app.root.clone();
    let found = tokio::task::spawn_blocking(move || walk_for(&root, &needle)).await;
    match found {
        Ok((pages, truncated)) => json(&Found { pages, truncated }),
        Err(_) => failure(StatusCode::INTERNAL_SERVER_ERROR, "the search failed"),
    }
}

fn walk_for(root: &Path, needle: &str) -> (Vec<String>, bool) {
    let mut found = Vec::new();
    let mut pending = vec![(root.to_path_buf(), String::new())];
    let mut visits = 0usize;
    while let Some((dir, prefix)) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut subdirs = Vec::new();
        for entry in entries.flatten() {
            visits += 1;
            if visits > FIND_VISITS {
                found.sort();
                return (found, true);
            }
            let name = entry.file_name();
            let Some(name) = name.to_str() else { continue };
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if name.starts_with('.') || kind.is_symlink() {
                continue;
            }
            let rel = format!("{prefix}{name}");
            if kind.is_dir() {
                subdirs.push((entry.path(), format!("{rel}/")));
            } else if kind.is_file()
                && has_extension(Path::new(name), PAGE_EXTENSIONS)
                && rel.to_lowercase().contains(needle)
            {
                if found.len() == FIND_LIMIT {
                    found.sort();
                    return (found, true);
                }
                found.push(rel);
            }
        }
        // Reversed, so that the stack visits them in name order.
        subdirs.sort_by(|a, b| b.1.cmp(&a.1));
        pending.extend(subdirs);
    }
    found.sort();
    (found, false)
}

/// `GET site/PATH`: one of the site's files, as it is on disk, for the
/// preview's stylesheets and images. Served sandboxed: an HTML or SVG file
/// opened from here cannot run scripts or reach anything but the site.
pub(super) async fn file(app: &App, raw: &str) -> Response {
    let real = match from_url(app, raw) {
        Ok(real) => real,
        Err(refusal) => return refusal.response(raw),
    };
    let path = real.clone();
    let read = tokio::task::spawn_blocking(move || read_file(&path, SITE_FILE_LIMIT)).await;
    let bytes = match read {
        Ok(Ok(bytes)) => bytes,
        Ok(Err(Unread::NotAFile)) => return Refusal::Missing.response(raw),
        Ok(Err(Unread::TooBig(len))) => {
            return failure(
                StatusCode::PAYLOAD_TOO_LARGE,
                &format!(
                    "{raw}: {len} bytes; the editor serves files up to {SITE_FILE_LIMIT} bytes"
                ),
            );
        }
        Ok(Err(Unread::Io(e))) => {
            return failure(
                StatusCode::NOT_FOUND,
                &format!("{raw}: {}", crate::inputs::describe_io_error(&e)),
            );
        }
        Err(_) => return failure(StatusCode::INTERNAL_SERVER_ERROR, "reading failed"),
    };
    let mut response = (
        StatusCode::OK,
        [(header::CONTENT_TYPE, content_type(&real))],
        Body::from(bytes),
    )
        .into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "sandbox; default-src 'none'; style-src 'self'; img-src 'self' data:; font-src 'self'; media-src 'self'",
        ),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    super::guard::harden(headers);
    response
}

/// The media type of a site file, by its extension.
fn content_type(path: &Path) -> &'static str {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match ext.as_deref() {
        Some("css") => "text/css",
        Some("html" | "htm") => "text/html",
        Some("xhtml") => "application/xhtml+xml",
        Some("txt") => "text/plain; charset=utf-8",
        Some("png") => "image/png",
        Some("gif") => "image/gif",
        Some("jpg" | "jpeg") => "image/jpeg",
        Some("svg") => "image/svg+xml",
        Some("webp") => "image/webp",
        Some("ico") => "image/x-icon",
        Some("woff") => "font/woff",
        Some("woff2") => "font/woff2",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(path: &str) -> bool {
        matches!(check_segments(path.split('/')), Err(Refusal::Outside(_)))
    }

    #[test]
    fn every_way_out_is_refused_before_the_file_system() {
        for path in [
            "/etc/passwd",
            "../x.html",
            "a/../../x.html",
            "a/./b.html",
            "a//b.html",
            "a\\..\\b.html",
            "C:/Windows/win.ini",
            "c:",
            ".git/config",
            "a/.pagetext-0123456789abcdef.tmp",
            "a\0b",
        ] {
            assert!(refused(path), "{path:?} was let through");
        }
        for path in ["a/b.html", "index.html", "a b/c d.htm", "über/ß.txt"] {
            assert!(!refused(path), "{path:?} was refused");
        }
    }

    #[test]
    fn encoded_slashes_do_not_separate() {
        // `a%2F..%2Fb` is one segment once decoded: refused for its slashes.
        let decoded = percent_encoding::percent_decode_str("a%2F..%2Fb").decode_utf8_lossy();
        assert!(matches!(
            check_segments(std::iter::once(decoded.as_ref())),
            Err(Refusal::Outside(_))
        ));
    }
}
