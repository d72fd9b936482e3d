//! `GET api/links`: the site's broken links, as `pagetext check --links DIR`
//! finds them ([`crate::links::check_site_with`]), with every page read and
//! every target looked up through DIR's held handle ([`super::contain`]),
//! never by path: a link through a symbolic link out of DIR, or to a
//! hidden file, counts as missing.

use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use axum::http::StatusCode;
use axum::response::Response;
use rayon::prelude::*;
use rustix::fs::FileType;

use super::answers::{BrokenLink, LinkReport};
use super::{App, contain, failure, json, site};
use crate::links::{self, Page};

/// The largest page read for the report (larger pages are left out).
const PAGE_LIMIT: usize = 16 * 1024 * 1024;

/// How many pages the report reads at most.
const MAX_PAGES: usize = 20_000;

/// `GET api/links`: every page of the site read, its links followed.
pub(super) async fn report(app: &App) -> Response {
    let root = Arc::clone(&app.root);
    match tokio::task::spawn_blocking(move || broken_links(&root)).await {
        Ok(report) => json(&report),
        Err(_) => failure(StatusCode::INTERNAL_SERVER_ERROR, "the link report failed"),
    }
}

fn broken_links(root: &contain::Root) -> LinkReport {
    let mut read: Vec<(String, Vec<u8>)> = Vec::new();
    let truncated = site::walk_pages(root, |dir, name, rel| {
        if read.len() == MAX_PAGES {
            return false;
        }
        if let Ok(bytes) = contain::open_file(dir, name).and_then(|f| f.read(PAGE_LIMIT)) {
            read.push((rel.to_owned(), bytes));
        }
        true
    });
    let pages: Vec<Page> = read
        .into_par_iter()
        .map(|(rel, bytes)| {
            let rel = PathBuf::from(rel);
            Page {
                doc: links::read_page(&rel, &bytes),
                rel,
            }
        })
        .collect();
    let (broken, checked) = links::check_site_with(&pages, |path| resolve(root, path));
    LinkReport {
        broken: broken.into_iter().map(BrokenLink::from).collect(),
        checked,
        pages: pages.len(),
        truncated,
    }
}

/// The file below DIR that `path` names (a folder's index file for a
/// folder), walked from DIR's handle; `None` when there is none, or when
/// it is out of reach (outside DIR, hidden).
fn resolve(root: &contain::Root, path: &Path) -> Option<PathBuf> {
    let mut segments = Vec::new();
    for component in path.components() {
        match component {
            Component::Normal(part) => segments.push(part.to_str()?.to_owned()),
            _ => return None,
        }
    }
    if segments.iter().any(|s| s.starts_with('.')) {
        return None;
    }
    match kind(root, &segments)? {
        FileType::RegularFile => Some(path.to_path_buf()),
        FileType::Directory => links::INDEX_FILES.iter().find_map(|index| {
            let mut inner = segments.clone();
            inner.push((*index).to_owned());
            (kind(root, &inner)? == FileType::RegularFile).then(|| path.join(index))
        }),
        _ => None,
    }
}

/// What is at `segments` below DIR (links inside DIR followed); `None`
/// when nothing is, or it is out of reach. DIR itself is a folder.
fn kind(root: &contain::Root, segments: &[String]) -> Option<FileType> {
    if segments.is_empty() {
        return Some(FileType::Directory);
    }
    let entry = root.entry(segments).ok()?;
    contain::kind_at(&entry.parent, &entry.name).ok().flatten()
}
