//! Find and replace across the site: `POST api/search` finds a literal text
//! in every page, as the editor opens it (a text page as its text, an HTML
//! page as its text form, [`page::as_text`]); `POST api/replace` writes the
//! places the person chose, each page through the one save there is
//! ([`page::write_text`]): its version checked against the one the search
//! read, the original kept on a first save, the page replaced atomically
//! and never over a change made meanwhile. A page changed since the search
//! is refused as a conflict, never written.
//!
//! Every page is reached through DIR's held handle ([`super::contain`]),
//! listed by [`site::walk_pages`] (no link followed) and written through
//! its folder's handle.

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Arc;

use axum::extract::Request;
use axum::http::StatusCode;
use axum::response::Response;
use rayon::prelude::*;
use serde::Deserialize;

use super::answers::{Match, PageMatches, RefusedPage, Replaced, SiteSearch, WrittenPage};
use super::page::{self, Kind, Written};
use super::{App, Failed, contain, json, site};
use crate::convert;

/// How many places one search answers at most.
const MAX_FOUND: usize = 5_000;

/// How many pages one search reads at most.
const MAX_PAGES: usize = 20_000;

/// How many bytes of pages a search reads before it searches them.
const BATCH_BYTES: usize = 32 * 1024 * 1024;

/// How many characters of a line are shown on each side of a place.
const WINDOW: usize = 100;

/// What to look for, and how.
#[derive(Deserialize)]
struct Needle {
    /// The text, taken literally.
    query: String,
    /// Whether upper and lower case differ.
    #[serde(default)]
    case: bool,
    /// Whether a place must be a whole word (no letter, digit or `_` on
    /// either side).
    #[serde(default)]
    word: bool,
}

impl Needle {
    /// Refuses an empty text or one that spans lines.
    fn check(&self) -> Result<(), Failed> {
        if self.query.is_empty() {
            return Err(Failed::new(StatusCode::BAD_REQUEST, "search for something"));
        }
        if self.query.contains(['\n', '\r']) {
            return Err(Failed::new(
                StatusCode::BAD_REQUEST,
                "the text searched for is one line: it holds a line break",
            ));
        }
        Ok(())
    }

    /// The places in `line`: byte ranges, in order, not overlapping.
    fn places(&self, line: &str) -> Vec<std::ops::Range<usize>> {
        let folded: Vec<char> = if self.case {
            Vec::new()
        } else {
            self.query.chars().flat_map(char::to_lowercase).collect()
        };
        let mut out = Vec::new();
        let mut from = 0;
        while from < line.len() {
            let found = if self.case {
                line[from..]
                    .find(&self.query)
                    .map(|i| from + i..from + i + self.query.len())
            } else {
                line[from..].char_indices().find_map(|(i, _)| {
                    fold_match(&line[from + i..], &folded).map(|len| from + i..from + i + len)
                })
            };
            let Some(range) = found else { break };
            let next = range.end.max(range.start + 1);
            if !self.word || is_word_edge(line, &range) {
                out.push(range);
            }
            from = next;
            while !line.is_char_boundary(from) {
                from += 1;
            }
        }
        out
    }
}

/// How many bytes at the start of `hay` match `folded` (lower-cased
/// characters), character by character without case.
fn fold_match(hay: &str, folded: &[char]) -> Option<usize> {
    let mut k = 0;
    for (offset, c) in hay.char_indices() {
        for lower in c.to_lowercase() {
            if folded.get(k) != Some(&lower) {
                return None;
            }
            k += 1;
        }
        if k == folded.len() {
            return Some(offset + c.len_utf8());
        }
    }
    None
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Whether the place `range` of `line` has no word character on either
/// side.
fn is_word_edge(line: &str, range: &std::ops::Range<usize>) -> bool {
    let before = line[..range.start].chars().next_back();
    let after = line[range.end..].chars().next();
    !before.is_some_and(is_word_char) && !after.is_some_and(is_word_char)
}

/// The places of `needle` in `text`: (line, column, the match) with line
/// and column 1-based and the column in characters.
fn places_in(text: &str, needle: &Needle) -> Vec<(usize, usize, Match)> {
    let mut out = Vec::new();
    for (index, line) in text.split('\n').enumerate() {
        let line = line.strip_suffix('\r').unwrap_or(line);
        for range in needle.places(line) {
            let head = &line[..range.start];
            let column = head.chars().count() + 1;
            let before: String = {
                let skip = head.chars().count().saturating_sub(WINDOW);
                head.chars().skip(skip).collect()
            };
            let place = Match {
                after: line[range.end..].chars().take(WINDOW).collect(),
                before,
                column,
                found: line[range.clone()].to_owned(),
                line: index + 1,
            };
            out.push((index + 1, column, place));
        }
    }
    out
}

/// `POST api/search {query, case, word}`: every page of the site read
/// (through the held handles), shown as text as the editor shows it, and
/// searched line by line.
pub(super) async fn search(app: &App, request: Request) -> Response {
    let needle: Needle = match page::body(request).await {
        Ok(needle) => needle,
        Err(failed) => return failed.response(),
    };
    if let Err(failed) = needle.check() {
        return failed.response();
    }
    let root = Arc::clone(&app.root);
    let seed = app.seed;
    match tokio::task::spawn_blocking(move || search_site(&root, &needle, seed)).await {
        Ok(found) => json(&found),
        Err(_) => Failed::new(StatusCode::INTERNAL_SERVER_ERROR, "the search failed").response(),
    }
}

/// The pages read for a search but not searched yet, searched together
/// (in parallel) once they hold [`BATCH_BYTES`]: a big site is never held
/// in memory whole.
struct Gather<'a> {
    needle: &'a Needle,
    seed: bool,
    batch: Vec<(String, Kind, Vec<u8>)>,
    bytes: usize,
    read: usize,
    found: usize,
    pages: Vec<PageMatches>,
}

impl Gather<'_> {
    /// Whether the search has all it may take.
    fn full(&self) -> bool {
        self.found >= MAX_FOUND || self.read >= MAX_PAGES
    }

    /// Takes one page read.
    fn add(&mut self, rel: &str, kind: Kind, bytes: Vec<u8>) {
        self.read += 1;
        self.bytes += bytes.len();
        self.batch.push((rel.to_owned(), kind, bytes));
        if self.bytes >= BATCH_BYTES {
            self.flush();
        }
    }

    /// Searches the pages taken so far.
    fn flush(&mut self) {
        let (needle, seed) = (self.needle, self.seed);
        let done: Vec<PageMatches> = std::mem::take(&mut self.batch)
            .into_par_iter()
            .filter_map(|(path, kind, bytes)| {
                let text = page::as_text(kind, &bytes, seed).text;
                let matches: Vec<Match> = places_in(&text, needle)
                    .into_iter()
                    .map(|(_, _, m)| m)
                    .collect();
                (!matches.is_empty()).then(|| PageMatches {
                    kind: kind.answered(),
                    matches,
                    path,
                    version: page::version(&bytes),
                })
            })
            .collect();
        self.bytes = 0;
        self.found += done.iter().map(|p| p.matches.len()).sum::<usize>();
        self.pages.extend(done);
    }
}

fn search_site(root: &contain::Root, needle: &Needle, seed: bool) -> SiteSearch {
    let mut gather = Gather {
        needle,
        seed,
        batch: Vec::new(),
        bytes: 0,
        read: 0,
        found: 0,
        pages: Vec::new(),
    };
    let cut = site::walk_pages(root, |dir, name, rel| {
        if gather.full() {
            return false;
        }
        if let Some(kind) = Kind::of(Path::new(name))
            && let Ok(bytes) = contain::open_file(dir, name).and_then(|f| f.read(page::MAX_BYTES))
            && convert::signature(&bytes).is_none()
        {
            gather.add(rel, kind, bytes);
        }
        true
    });
    gather.flush();
    let pages_read = gather.read;
    let mut pages = gather.pages;
    pages.sort_by(|a, b| a.path.cmp(&b.path));
    let mut found = 0;
    let mut full = false;
    pages.retain_mut(|p| {
        let room = MAX_FOUND - found;
        if room == 0 {
            full = true;
            return false;
        }
        if p.matches.len() > room {
            p.matches.truncate(room);
            full = true;
        }
        found += p.matches.len();
        true
    });
    SiteSearch {
        found,
        pages,
        read: pages_read,
        truncated: cut || full,
    }
}

/// The body of a replace.
#[derive(Deserialize)]
struct ReplaceRequest {
    #[serde(flatten)]
    needle: Needle,
    /// What each chosen place becomes.
    replacement: String,
    /// The chosen places, by page.
    pages: Vec<ChosenPage>,
}

/// The places chosen in one page.
#[derive(Deserialize)]
struct ChosenPage {
    path: String,
    /// The version the search read.
    version: String,
    matches: Vec<Place>,
}

/// A place: its line and column, as the search gave them.
#[derive(Deserialize, PartialEq, Eq, PartialOrd, Ord, Clone, Copy)]
struct Place {
    line: usize,
    column: usize,
}

/// `POST api/replace {query, case, word, replacement, pages: [{path,
/// version, matches: [{line, column}]}]}`: each page's chosen places
/// replaced and the page saved as `api/save` saves it, one page at a time
/// under the saves' lock; answered per page.
pub(super) async fn replace(app: &App, request: Request) -> Response {
    let asked: ReplaceRequest = match page::body(request).await {
        Ok(asked) => asked,
        Err(failed) => return failed.response(),
    };
    if let Err(failed) = asked.needle.check() {
        return failed.response();
    }
    if asked.replacement.contains(['\n', '\r']) {
        return Failed::new(
            StatusCode::BAD_REQUEST,
            "the replacement is one line: it holds a line break",
        )
        .response();
    }
    let _one_at_a_time = app.saving.lock().await;
    let root = Arc::clone(&app.root);
    let seed = app.seed;
    match tokio::task::spawn_blocking(move || replace_all(&root, &asked, seed)).await {
        Ok(replaced) => json(&replaced),
        Err(_) => Failed::new(StatusCode::INTERNAL_SERVER_ERROR, "replacing failed").response(),
    }
}

fn replace_all(root: &contain::Root, asked: &ReplaceRequest, seed: bool) -> Replaced {
    let mut out = Replaced {
        refused: Vec::new(),
        written: Vec::new(),
    };
    let mut seen = BTreeSet::new();
    for chosen in &asked.pages {
        let refused = |conflict: bool, reason: String| RefusedPage {
            conflict,
            path: chosen.path.clone(),
            reason,
        };
        if !seen.insert(chosen.path.as_str()) {
            out.refused.push(refused(false, "named twice".to_owned()));
            continue;
        }
        match replace_in(root, asked, chosen, seed) {
            Ok(Ok(written)) => out.written.push(written),
            Ok(Err(reason)) => out.refused.push(refused(true, reason)),
            Err(failed) => out
                .refused
                .push(refused(false, failed.message().to_owned())),
        }
    }
    out
}

/// Replaces the chosen places of one page and saves it: `Ok(Err(why))`
/// when the page changed since the search (a conflict: nothing written).
fn replace_in(
    root: &contain::Root,
    asked: &ReplaceRequest,
    chosen: &ChosenPage,
    seed: bool,
) -> Result<Result<WrittenPage, String>, Failed> {
    let changed = || {
        Ok(Err(format!(
            "{}: changed on disk since the search: nothing was written; search again",
            chosen.path
        )))
    };
    let file = page::page_file(root, &chosen.path)?;
    let (_, bytes) = page::read_page(&file)?;
    if page::version(&bytes) != chosen.version {
        return changed();
    }
    let text = page::as_text(file.kind, &bytes, seed).text;
    let wanted: BTreeSet<Place> = chosen.matches.iter().copied().collect();
    let new_text = apply(&text, &asked.needle, &wanted, &asked.replacement).map_err(|place| {
        Failed::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            format!(
                "{}: nothing to replace at line {}, column {}: nothing was written",
                file.rel, place.line, place.column
            ),
        )
    })?;
    match page::write_text(&file, &new_text, &chosen.version, false, page::How::Onto)? {
        Written::Saved(saved) => Ok(Ok(WrittenPage {
            original: saved.original,
            path: saved.path,
            replaced: wanted.len(),
            version: saved.version,
        })),
        Written::Changed(_) => changed(),
    }
}

/// `text` with the places `wanted` of `needle` replaced by `replacement`;
/// `Err` with a wanted place that is not a place of `needle`.
fn apply(
    text: &str,
    needle: &Needle,
    wanted: &BTreeSet<Place>,
    replacement: &str,
) -> Result<String, Place> {
    let mut left = wanted.clone();
    let mut out = String::with_capacity(text.len());
    for (index, line) in text.split_inclusive('\n').enumerate() {
        let mut at = 0;
        let body = line.trim_end_matches(['\n', '\r']);
        for range in needle.places(body) {
            let place = Place {
                line: index + 1,
                column: body[..range.start].chars().count() + 1,
            };
            if left.remove(&place) {
                out.push_str(&line[at..range.start]);
                out.push_str(replacement);
                at = range.end;
            }
        }
        out.push_str(&line[at..]);
    }
    match left.into_iter().next() {
        Some(place) => Err(place),
        None => Ok(out),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn needle(query: &str, case: bool, word: bool) -> Needle {
        Needle {
            query: query.to_owned(),
            case,
            word,
        }
    }

    fn columns(line: &str, n: &Needle) -> Vec<usize> {
        n.places(line)
            .iter()
            .map(|r| line[..r.start].chars().count() + 1)
            .collect()
    }

    #[test]
    fn places_with_and_without_case_and_words() {
        let line = "Cat cat CAT concat cat_x ÉCAT écat";
        assert_eq!(columns(line, &needle("cat", true, false)), [5, 16, 20, 32]);
        assert_eq!(
            columns(line, &needle("cat", false, false)),
            [1, 5, 9, 16, 20, 27, 32]
        );
        assert_eq!(columns(line, &needle("cat", false, true)), [1, 5, 9]);
        assert_eq!(columns(line, &needle("écat", false, true)), [26, 31]);
        assert_eq!(columns("aaaa", &needle("aa", true, false)), [1, 3]);
    }

    #[test]
    fn only_the_chosen_places_are_replaced() {
        let text = "#Title x\n\nfoo bar foo\r\nbaz foo\n";
        let n = needle("foo", true, false);
        let places = places_in(text, &n);
        assert_eq!(
            places.iter().map(|p| (p.0, p.1)).collect::<Vec<_>>(),
            [(3, 1), (3, 9), (4, 5)]
        );
        assert_eq!(places[1].2.before, "foo bar ");
        let wanted = [Place { line: 3, column: 9 }, Place { line: 4, column: 5 }]
            .into_iter()
            .collect();
        assert_eq!(
            apply(text, &n, &wanted, "qux").ok().as_deref(),
            Some("#Title x\n\nfoo bar qux\r\nbaz qux\n")
        );
        let missing = [Place { line: 1, column: 1 }].into_iter().collect();
        assert!(apply(text, &n, &missing, "qux").is_err());
    }
}
