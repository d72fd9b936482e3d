//! DIR as the editor sees it: relative paths mapped into it (and everything
//! else refused), the site tree listed one directory at a time, pages found
//! by name, and the site's own files served for the preview.
//!
//! A path is a list of segments separated by `/`. Refused, before the file
//! system is asked: an absolute path, an empty segment, `.` and `..`, a
//! segment holding `\`, NUL or (in a URL, once decoded) `/`, a drive
//! letter, and hidden names (a leading `.`: `.git`, the atomic writer's
//! temporary files). Then the path is walked from DIR's held handle
//! ([`super::contain`]): a symbolic link is followed only while it stays in
//! DIR and off hidden names, and nothing is opened by name from outside.

use std::path::Path;
use std::sync::Arc;

use super::answers::{Found, Listed, ListedKind, Listing};
use super::contain::{self, Entry, Folder, Refusal, Unread};
use super::{App, Failed, Query, failure, json};
use crate::inputs::has_extension;
use axum::body::Body;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use rustix::fs::FileType;

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
fn check_segments<'a>(segments: impl Iterator<Item = &'a str>) -> Result<Vec<String>, Refusal> {
    let mut path = Vec::new();
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
        path.push(segment.to_owned());
    }
    Ok(path)
}

/// The segments of a path given in a query (`path=a/b.html`, already
/// decoded): `""` is DIR, none.
pub(super) fn from_query(rel: &str) -> Result<Vec<String>, Refusal> {
    if rel.is_empty() {
        return Ok(Vec::new());
    }
    check_segments(rel.split('/'))
}

/// The segments of a path given in a URL (`site/a/b%20c.css`): each segment
/// is decoded on its own, so that `%2F` cannot make a separator.
fn from_url(raw: &str) -> Result<Vec<String>, Refusal> {
    let decoded: Vec<String> = raw
        .split('/')
        .map(|s| {
            percent_encoding::percent_decode_str(s)
                .decode_utf8_lossy()
                .into_owned()
        })
        .collect();
    check_segments(decoded.iter().map(String::as_str))
}

/// The regular file `entry`, read whole if it holds at most `limit` bytes.
pub(super) fn read_entry(entry: &Entry, limit: usize) -> Result<Vec<u8>, Unread> {
    contain::open_file(&entry.parent, &entry.name)?.read(limit)
}

/// One entry of a listing.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Row {
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
    let segments = match from_query(&dir) {
        Ok(segments) => segments,
        Err(refusal) => return refusal.response(&dir),
    };
    let app_root = Arc::clone(&app.root);
    let listed = tokio::task::spawn_blocking(move || {
        let folder = app_root.folder(&segments).map_err(Err)?;
        list_dir(&app_root, &folder).map_err(Ok)
    })
    .await;
    let mut entries = match listed {
        Ok(Ok(entries)) => entries,
        Ok(Err(Err(refusal))) => return refusal.response(&dir),
        Ok(Err(Ok(e))) => {
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

/// The visible directories and pages directly in `folder`, read through
/// its handle. A symbolic link is listed only when it leads to a place
/// inside DIR (walked from the root, as opening it would).
fn list_dir(root: &contain::Root, folder: &Folder) -> std::io::Result<Vec<Row>> {
    let mut out = Vec::new();
    for (name, kind) in contain::list(&folder.fd)? {
        if name.starts_with('.') {
            continue;
        }
        let kind = if kind == FileType::Symlink {
            let mut segments = folder.rel.clone();
            segments.push(name.clone());
            let Ok(target) = root.entry(&segments) else {
                continue;
            };
            match contain::kind_at(&target.parent, &target.name) {
                Ok(Some(kind)) => kind,
                _ => continue,
            }
        } else {
            kind
        };
        if kind == FileType::Directory {
            out.push(Row {
                is_page: false,
                name,
            });
        } else if kind == FileType::RegularFile && has_extension(Path::new(&name), PAGE_EXTENSIONS)
        {
            out.push(Row {
                is_page: true,
                name,
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
    let root = Arc::clone(&app.root);
    let found = tokio::task::spawn_blocking(move || walk_for(&root, &needle)).await;
    match found {
        Ok((pages, truncated)) => json(&Found { pages, truncated }),
        Err(_) => failure(StatusCode::INTERNAL_SERVER_ERROR, "the search failed"),
    }
}

fn walk_for(root: &contain::Root, needle: &str) -> (Vec<String>, bool) {
    let mut found = Vec::new();
    let mut full = false;
    let cut = walk_pages(root, |_, _, rel| {
        if !rel.to_lowercase().contains(needle) {
            return true;
        }
        if found.len() == FIND_LIMIT {
            full = true;
            return false;
        }
        found.push(rel.to_owned());
        true
    });
    found.sort();
    (found, cut || full)
}

/// Walks DIR's pages in name order, each folder opened in its parent's
/// handle (symbolic links are not followed: no loops, no way out), and
/// calls `visit` with the page's folder, its name and its path below DIR,
/// until it returns `false`. Hidden names are skipped. Whether the walk
/// stopped before the end (`visit` said stop, or [`FIND_VISITS`] entries
/// were looked at).
pub(super) fn walk_pages(
    root: &contain::Root,
    visit: impl FnMut(&std::os::fd::OwnedFd, &str, &str) -> bool,
) -> bool {
    walk_files(root, PAGE_EXTENSIONS, visit)
}

/// [`walk_pages`] for the regular files with one of `extensions` (the
/// site's images, say).
pub(super) fn walk_files(
    root: &contain::Root,
    extensions: &[&str],
    mut visit: impl FnMut(&std::os::fd::OwnedFd, &str, &str) -> bool,
) -> bool {
    // Each folder still to visit: its parent's handle (shared, so that only
    // the folders along the way are open) and its name, or DIR itself.
    let Ok(top) = root.folder(&[]) else {
        return false;
    };
    let mut pending: Vec<(Arc<std::os::fd::OwnedFd>, Option<String>, String)> =
        vec![(Arc::new(top.fd), None, String::new())];
    let mut visits = 0usize;
    while let Some((parent, name, prefix)) = pending.pop() {
        let dir = match name {
            // Opened in its parent, not through a link.
            Some(name) => match contain::open_folder(&*parent, &name) {
                Ok(fd) => Arc::new(fd),
                Err(_) => continue,
            },
            None => parent,
        };
        let Ok(mut entries) = contain::list(&dir) else {
            continue;
        };
        entries.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        let mut subdirs = Vec::new();
        for (name, kind) in entries {
            visits += 1;
            if visits > FIND_VISITS {
                return true;
            }
            if name.starts_with('.') {
                continue;
            }
            let rel = format!("{prefix}{name}");
            if kind == FileType::Directory {
                subdirs.push((Arc::clone(&dir), Some(name), format!("{rel}/")));
            } else if kind == FileType::RegularFile
                && has_extension(Path::new(&name), extensions)
                && !visit(&dir, &name, &rel)
            {
                return true;
            }
        }
        // Reversed, so that the stack visits them in name order.
        subdirs.sort_by(|a, b| b.2.cmp(&a.2));
        pending.extend(subdirs);
    }
    false
}

/// `GET site/PATH`: one of the site's files, as it is on disk, for the
/// preview's stylesheets and images. Served sandboxed: an HTML or SVG file
/// opened from here cannot run scripts or reach anything but the site.
pub(super) async fn file(app: &App, raw: &str) -> Response {
    let segments = match from_url(raw) {
        Ok(segments) => segments,
        Err(refusal) => return refusal.response(raw),
    };
    let root = Arc::clone(&app.root);
    let read = tokio::task::spawn_blocking(move || {
        let entry = root.entry(&segments).map_err(Err)?;
        let bytes = read_entry(&entry, SITE_FILE_LIMIT).map_err(Ok)?;
        Ok::<_, Result<Unread, Refusal>>((entry.name, bytes))
    })
    .await;
    let (name, bytes) = match read {
        Ok(Ok(read)) => read,
        Ok(Err(Err(refusal))) => return refusal.response(raw),
        Ok(Err(Ok(Unread::NotAFile))) => return Refusal::Missing.response(raw),
        Ok(Err(Ok(Unread::TooBig(len)))) => {
            return failure(
                StatusCode::PAYLOAD_TOO_LARGE,
                &format!(
                    "{raw}: {len} bytes; the editor serves files up to {SITE_FILE_LIMIT} bytes"
                ),
            );
        }
        Ok(Err(Ok(Unread::Io(e)))) => {
            return failure(
                StatusCode::NOT_FOUND,
                &format!("{raw}: {}", crate::inputs::describe_io_error(&e)),
            );
        }
        Err(_) => return failure(StatusCode::INTERNAL_SERVER_ERROR, "reading failed"),
    };
    let mut response = (
        StatusCode::OK,
        [(header::CONTENT_TYPE, content_type(Path::new(&name)))],
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
        Some("avif") => "image/avif",
        Some("bmp") => "image/bmp",
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
