//! The editor's contract with its page: every JSON answer of the server, one
//! type per answer. The shape `assets/app.js` relies on is written here and
//! nowhere else; the handlers only fill these types in.
//!
//! | Answer | Route | Read in `app.js` by |
//! |---|---|---|
//! | [`Listing`] (of [`Listed`]) | `GET api/tree` | `listDir` (`entries`, `more`, `total`) |
//! | [`Found`] | `GET api/find` | the search box's `input` listener (`pages`, `truncated`) |
//! | [`Opened`] (with [`Original`]) | `GET api/page` | `openPage`, then `showFirstSaveNotice` (`original`) |
//! | [`Checked`] | `POST api/render` | `check` (`superseded`), then `showDiagnostics` and `showPreview` |
//! | [`Superseded`] | `POST api/render`, when a later check came | `check` (`superseded`, and it stops there) |
//! | [`Saved`] | `POST api/save` | `save` |
//! | [`Created`] | `POST api/new` | `createPage` (`path`) |
//! | [`Conflict`] (with [`OnDisk`]) | `POST api/save`, 409 | `save`, `showConflict`, the "keep mine" and "take theirs" buttons |
//! | [`LinkReport`] (of [`BrokenLink`]) | `GET api/links` | `showLinks` (`broken`, `checked`, `pages`, `truncated`) |
//! | [`SiteSearch`] (of [`PageMatches`], [`Match`]) | `POST api/search` | `site.js`: `searchSite`, then `pageResults` |
//! | [`Replaced`] (of [`WrittenPage`], [`RefusedPage`]) | `POST api/replace` | `site.js`: `replaceChosen` |
//! | [`Renamed`] (of [`Relinked`]) | `POST api/rename` | `site.js`: `planRename` and `applyRename`, through `showRenamed` |
//! | [`Error`] | every route, and the guard's refusals | every caller of `api` that finds `ok` false reads `error` |
//!
//! A diagnostic in any of them is a [`Diagnostic`], read by `diagnosticItem`
//! and `drawGutter`. Some fields are there for scripts and tests rather than
//! for the page (`dir` and `offset` of a listing, `seq` of a check).
//!
//! **Key order.** These answers used to be built with `serde_json::json!`,
//! whose maps sort their keys (the workspace does not turn on serde_json's
//! `preserve_order`). The fields of every type below are declared in
//! alphabetical order, so that the text sent is the same byte for byte; the
//! tests at the bottom pin it. `app.js` reads fields by name and does not
//! depend on the order.
//!
//! **Null or absent.** A field that can be unknown is `null`, never left out
//! (`encoding`, `summary`, `original`, a diagnostic's `line` and `column`),
//! except a diagnostic's `end_column`, which is left out when there is none.

use serde::Serialize;

use crate::diag::{Diag, Severity};

/// The answer of every request that failed: `{"error": MESSAGE}`, with a
/// status that is not 2xx (also the guard's refusals and its redirect).
#[derive(Debug, Serialize)]
pub(super) struct Error<'a> {
    /// What went wrong, for the person.
    pub(super) error: &'a str,
}

/// One diagnostic, as the editor shows it (the fields of [`Diag`], in the
/// order the answers have always had).
#[derive(Debug, Serialize)]
pub(super) struct Diagnostic {
    /// The stable kebab-case code.
    code: String,
    /// 1-based column in characters, or `null`.
    column: Option<usize>,
    /// Where the underlined range ends (exclusive); left out when unknown.
    #[serde(skip_serializing_if = "Option::is_none")]
    end_column: Option<usize>,
    /// 1-based line, or `null`: of the text for a check, of the HTML for
    /// ingestion.
    line: Option<usize>,
    /// What happened.
    message: String,
    /// `note`, `warning` or `error`.
    severity: Severity,
}

impl From<Diag> for Diagnostic {
    fn from(d: Diag) -> Diagnostic {
        Diagnostic {
            code: d.code,
            column: d.column,
            end_column: d.end_column,
            line: d.line,
            message: d.message,
            severity: d.severity,
        }
    }
}

/// Diagnostics in the editor's shape, in the same order.
pub(super) fn diagnostics(diags: Vec<Diag>) -> Vec<Diagnostic> {
    diags.into_iter().map(Diagnostic::from).collect()
}

/// `GET api/tree?dir=D&offset=N`: one window of one directory's listing.
#[derive(Debug, Serialize)]
pub(super) struct Listing {
    /// The directory listed, as asked (`""` is DIR).
    pub(super) dir: String,
    /// The entries from `offset` on, directories first, by name.
    pub(super) entries: Vec<Listed>,
    /// Whether entries follow this window.
    pub(super) more: bool,
    /// The index of the first entry shown.
    pub(super) offset: usize,
    /// How many entries the directory has in all.
    pub(super) total: usize,
}

/// One entry of a [`Listing`].
#[derive(Debug, Serialize)]
pub(super) struct Listed {
    /// A directory or a page.
    pub(super) kind: ListedKind,
    /// Its file name.
    pub(super) name: String,
}

/// What a [`Listed`] entry is: `"dir"` or `"page"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub(super) enum ListedKind {
    /// A directory, listed when it is opened.
    Dir,
    /// A page the editor opens.
    Page,
}

/// `GET api/find?q=TEXT`: the pages whose path holds TEXT.
#[derive(Debug, Serialize)]
pub(super) struct Found {
    /// Their paths below DIR, sorted.
    pub(super) pages: Vec<String>,
    /// Whether the search stopped before the end (more match, or the site
    /// is too big to walk whole).
    pub(super) truncated: bool,
}

/// `GET api/page?path=P`: a page opened as text.
#[derive(Debug, Serialize)]
pub(super) struct Opened {
    /// The encoding the page was read in; `null` when nothing was decoded.
    pub(super) encoding: Option<&'static str>,
    /// What was lost or odd on the way in (at the lines of the HTML).
    pub(super) ingestion: Vec<Diagnostic>,
    /// `"text"` or `"html"`.
    pub(super) kind: PageKind,
    /// Whether a first save keeps the original, and under what name;
    /// `null` when saving would lose nothing.
    pub(super) original: Option<Original>,
    /// The page's path below DIR.
    pub(super) path: String,
    /// For HTML, ingestion's account for a person; `null` for text.
    pub(super) summary: Option<String>,
    /// The page as text.
    pub(super) text: String,
    /// The version of the file's bytes, sent back with a save.
    pub(super) version: String,
}

/// What kind of page an [`Opened`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub(super) enum PageKind {
    /// A `.txt` page in the text format.
    Text,
    /// An HTML or XHTML page, saved as XHTML.
    Html,
}

/// The original a first save keeps (`PAGE.orig`).
#[derive(Debug, Serialize)]
pub(super) struct Original {
    /// Whether it is there already (then it is never replaced).
    pub(super) exists: bool,
    /// Its file name.
    pub(super) name: Option<String>,
}

/// `POST api/render`: the text's diagnostics and its preview.
#[derive(Debug, Serialize)]
pub(super) struct Checked {
    /// Everything `check` says of the text, and emission's notes, by
    /// position.
    diagnostics: Vec<Diagnostic>,
    /// The editor's number for this check, echoed.
    seq: u64,
    /// Always `false` here.
    superseded: bool,
    /// The preview: the text as XHTML, in UTF-8. Left out when the preview
    /// went in parts ([`Checked::preview`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    xhtml: Option<String>,
    /// The preview in parts, when the request asked for them (`blocks`):
    /// the head, each top-level block of the body, the tail.
    #[serde(skip_serializing_if = "Option::is_none")]
    preview: Option<Preview>,
}

/// The preview in parts (`htmlio::emit::preview_parts`): a client compares
/// the blocks as strings with those it shows and parses only new ones.
#[derive(Debug, Serialize)]
pub(super) struct Preview {
    /// Up to and including the body's start tag.
    head: String,
    /// Each top-level block: `[line, markup]`; the line is `null` when
    /// unknown, the markup holds its nested blocks' lines as `data-offset`
    /// from it.
    blocks: Vec<(Option<u32>, String)>,
    /// The body's end tag and after.
    tail: String,
}

impl Checked {
    /// The answer to check `seq`: the preview in parts when `in_parts` and
    /// the XHTML can be cut, else whole.
    pub(super) fn new(
        seq: u64,
        diagnostics: Vec<Diagnostic>,
        xhtml: String,
        in_parts: bool,
    ) -> Checked {
        let parts = if in_parts {
            htmlio::emit::preview_parts(&xhtml)
        } else {
            None
        };
        let (xhtml, preview) = match parts {
            Some(parts) => (
                None,
                Some(Preview {
                    head: parts.head,
                    blocks: parts.blocks.into_iter().map(|b| (b.line, b.html)).collect(),
                    tail: parts.tail,
                }),
            ),
            None => (Some(xhtml), None),
        };
        Checked {
            diagnostics,
            seq,
            superseded: false,
            xhtml,
            preview,
        }
    }
}

/// `POST api/render`, when the same editor asked for a later check while
/// this one waited: nothing was checked.
#[derive(Debug, Serialize)]
pub(super) struct Superseded {
    /// The editor's number for the skipped check, echoed.
    seq: u64,
    /// Always `true` here.
    superseded: bool,
}

impl Superseded {
    /// The answer to the skipped check `seq`.
    pub(super) fn new(seq: u64) -> Superseded {
        Superseded {
            seq,
            superseded: true,
        }
    }
}

/// `POST api/save`: the page was written.
#[derive(Debug, Serialize)]
pub(super) struct Saved {
    /// The encoding of the written file.
    pub(super) encoding: &'static str,
    /// What the person should know: a charset that could not hold every
    /// character, the writer's losses.
    pub(super) notices: Vec<String>,
    /// The name of the original kept by this save, or `null`.
    pub(super) original: Option<String>,
    /// The page's path below DIR.
    pub(super) path: String,
    /// For a text page, the canonical text written; `null` for HTML.
    pub(super) text: Option<String>,
    /// The version of the written bytes, for the next save.
    pub(super) version: String,
}

/// `POST api/changes`: what a save would change in the page's bytes.
#[derive(Debug, Serialize)]
pub(super) struct PageChanges {
    /// The changes, in the page's order.
    pub(super) changes: Vec<PageChange>,
    /// What the save could not write as asked.
    pub(super) notices: Vec<String>,
}

/// `POST api/view`: the page as a save would write it.
#[derive(Debug, Serialize)]
pub(super) struct PageView {
    /// The page's markup, decoded from its charset.
    pub(super) html: String,
}

/// One change of a page's bytes, as the review shows it.
#[derive(Debug, Serialize)]
pub(super) struct PageChange {
    /// The page's line where it starts (1-based).
    pub(super) line: usize,
    /// A little of the page before it.
    pub(super) before: String,
    /// What is there now.
    pub(super) removed: String,
    /// What the save writes in its place.
    pub(super) added: String,
    /// A little of the page after it.
    pub(super) after: String,
}

/// How much of the page around a change the review shows (bytes).
const CONTEXT: usize = 40;
/// How much of a change itself the review shows (bytes).
const SHOWN: usize = 400;

impl PageChanges {
    /// The changes of `saved` against the page's bytes `page`.
    pub(super) fn new(page: &[u8], saved: &crate::convert::Saved) -> PageChanges {
        let show = |bytes: &[u8]| -> String {
            let (text, _) = saved.encoding.decode_without_bom_handling(bytes);
            text.into_owned()
        };
        let changes = saved
            .changes
            .iter()
            .map(|c| {
                let from = c.page.start.saturating_sub(CONTEXT);
                let after = (c.page.end + CONTEXT).min(page.len());
                let cut = |r: std::ops::Range<usize>, bytes: &[u8]| {
                    let end = r.end.min(r.start + SHOWN).min(bytes.len());
                    show(bytes.get(r.start.min(end)..end).unwrap_or_default())
                };
                PageChange {
                    line: 1 + page
                        .get(..c.page.start)
                        .map_or(0, |p| p.iter().filter(|&&b| b == b'\n').count()),
                    before: cut(from..c.page.start, page),
                    removed: cut(c.page.clone(), page),
                    added: cut(c.result.clone(), &saved.bytes),
                    after: cut(c.page.end..after, page),
                }
            })
            .collect();
        PageChanges {
            changes,
            notices: saved.notices.clone(),
        }
    }
}

/// `POST api/new`: a new page was created.
#[derive(Debug, Serialize)]
pub(super) struct Created {
    /// What kind of page it is.
    pub(super) kind: PageKind,
    /// Its path below DIR.
    pub(super) path: String,
}

/// `POST api/save` with status 409: the file changed on disk since the
/// editor opened it, and nothing was written.
#[derive(Debug, Serialize)]
pub(super) struct Conflict {
    /// Always `true` (the page tells a conflict from other 409s by it).
    conflict: bool,
    /// What happened, for the person.
    error: String,
    /// The file as it is now.
    theirs: OnDisk,
}

impl Conflict {
    /// A conflict over the page at `path`, which is now `theirs`.
    pub(super) fn new(path: &str, theirs: OnDisk) -> Conflict {
        Conflict {
            conflict: true,
            error: format!("{path} changed on disk since it was opened: nothing was written"),
            theirs,
        }
    }
}

/// A page as it is on disk now, in a [`Conflict`]: the fields of [`Opened`]
/// that describe the text.
#[derive(Debug, Serialize)]
pub(super) struct OnDisk {
    /// The encoding it was read in, or `null`.
    pub(super) encoding: Option<&'static str>,
    /// What was lost on the way in.
    pub(super) ingestion: Vec<Diagnostic>,
    /// For HTML, ingestion's account for a person; `null` for text.
    pub(super) summary: Option<String>,
    /// The page as text.
    pub(super) text: String,
    /// Its version: a save on it overwrites this one.
    pub(super) version: String,
}

/// `GET api/links`: the site's links that point to a missing page or a
/// missing anchor.
#[derive(Debug, Serialize)]
pub(super) struct LinkReport {
    /// The broken links, by page (in name order), then in page order.
    pub(super) broken: Vec<BrokenLink>,
    /// How many links within the site were checked.
    pub(super) checked: usize,
    /// How many pages were read.
    pub(super) pages: usize,
    /// Whether the walk stopped before the end (a site too big to read
    /// whole).
    pub(super) truncated: bool,
}

/// One link of a [`LinkReport`] (a [`crate::links::Broken`]).
#[derive(Debug, Serialize)]
pub(super) struct BrokenLink {
    /// The link's column in characters, 0 when unknown (HTML pages).
    column: u32,
    /// Its line: of the text for a text page, of the HTML for HTML.
    line: u32,
    /// The page holding it, below DIR.
    page: String,
    /// What is missing.
    problem: String,
    /// The link's URL as the page holds it.
    url: String,
}

impl From<crate::links::Broken> for BrokenLink {
    fn from(b: crate::links::Broken) -> BrokenLink {
        BrokenLink {
            column: b.column,
            line: b.line,
            page: b.page,
            problem: b.problem,
            url: b.url,
        }
    }
}

/// `POST api/search`: the places in the site's pages (as the editor opens
/// them) where the text searched for is.
#[derive(Debug, Serialize)]
pub(super) struct SiteSearch {
    /// How many places were found (at most the limit).
    pub(super) found: usize,
    /// The pages with at least one place, in name order.
    pub(super) pages: Vec<PageMatches>,
    /// How many pages were read.
    pub(super) read: usize,
    /// Whether the search stopped before the end (too many places, or a
    /// site too big to read whole).
    pub(super) truncated: bool,
}

/// One page of a [`SiteSearch`].
#[derive(Debug, Serialize)]
pub(super) struct PageMatches {
    /// What kind of page it is.
    pub(super) kind: PageKind,
    /// The places, in text order.
    pub(super) matches: Vec<Match>,
    /// Its path below DIR.
    pub(super) path: String,
    /// The version of the page that was read, for `api/replace`.
    pub(super) version: String,
}

/// One place of a [`PageMatches`]: its line of the page's text, cut to a
/// window around the place.
#[derive(Debug, Serialize)]
pub(super) struct Match {
    /// The line's text after the place (cut to a window).
    pub(super) after: String,
    /// The line's text before the place (cut to a window).
    pub(super) before: String,
    /// The place's column, 1-based, in characters.
    pub(super) column: usize,
    /// The text found there (its case may differ from the text searched).
    pub(super) found: String,
    /// The place's line, 1-based.
    pub(super) line: usize,
}

/// `POST api/replace`: what was written and what was refused, per page.
#[derive(Debug, Serialize)]
pub(super) struct Replaced {
    /// The pages not written, and why.
    pub(super) refused: Vec<RefusedPage>,
    /// The pages written.
    pub(super) written: Vec<WrittenPage>,
}

/// A page that a site-wide change did not write.
#[derive(Debug, Serialize)]
pub(super) struct RefusedPage {
    /// Whether it changed on disk since it was read (a conflict).
    pub(super) conflict: bool,
    /// Its path below DIR, as asked.
    pub(super) path: String,
    /// Why, for a person.
    pub(super) reason: String,
}

/// A page that `api/replace` wrote, as `api/save` writes it.
#[derive(Debug, Serialize)]
pub(super) struct WrittenPage {
    /// The name of the original kept by this save, or `null`.
    pub(super) original: Option<String>,
    /// Its path below DIR.
    pub(super) path: String,
    /// How many places were replaced.
    pub(super) replaced: usize,
    /// The version of the written bytes.
    pub(super) version: String,
}

/// `POST api/rename`: a page moved and the site's links to it rewritten, or
/// (`applied: false`) what that would change.
#[derive(Debug, Serialize)]
pub(super) struct Renamed {
    /// Whether the files were changed (`false`: only planned).
    pub(super) applied: bool,
    /// The page's old path below DIR.
    pub(super) from: String,
    /// The folders created for the new path, outermost first.
    pub(super) made: Vec<String>,
    /// The new path of the page's original (`PAGE.orig`, kept by a first
    /// save), which moves with it; `null` when it has none.
    pub(super) original: Option<String>,
    /// The pages whose links change (by their path before the move), each
    /// with how many links.
    pub(super) relinked: Vec<Relinked>,
    /// The page's new path below DIR.
    pub(super) to: String,
}

/// One page of a [`Renamed`].
#[derive(Debug, Serialize)]
pub(super) struct Relinked {
    /// How many of its links change.
    pub(super) links: usize,
    /// Its path below DIR (before the move, for the moved page itself).
    pub(super) path: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The answer's text is exactly `expect`.
    #[track_caller]
    fn check(answer: &impl Serialize, expect: &str) {
        let text = serde_json::to_string(answer).unwrap_or_else(|e| e.to_string());
        assert_eq!(text, expect);
    }

    fn diag(line: Option<usize>, column: Option<usize>, end_column: Option<usize>) -> Diagnostic {
        Diagnostic::from(Diag {
            severity: Severity::Warning,
            code: "unsafe-link".to_owned(),
            message: "a link was dropped".to_owned(),
            line,
            column,
            end_column,
        })
    }

    #[test]
    fn link_report() {
        check(
            &LinkReport {
                broken: vec![BrokenLink::from(crate::links::Broken {
                    page: "a.txt".to_owned(),
                    line: 3,
                    column: 1,
                    url: "b.html".to_owned(),
                    problem: "no such file in the site: b.html".to_owned(),
                })],
                checked: 2,
                pages: 1,
                truncated: false,
            },
            r#"{"broken":[{"column":1,"line":3,"page":"a.txt","problem":"no such file in the site: b.html","url":"b.html"}],"checked":2,"pages":1,"truncated":false}"#,
        );
    }

    #[test]
    fn error() {
        check(
            &Error {
                error: "wrong token",
            },
            r#"{"error":"wrong token"}"#,
        );
    }

    #[test]
    fn diagnostics_keep_null_and_leave_out_end_column() {
        check(
            &diag(None, None, None),
            r#"{"code":"unsafe-link","column":null,"line":null,"message":"a link was dropped","severity":"warning"}"#,
        );
        check(
            &diag(Some(3), Some(2), Some(7)),
            r#"{"code":"unsafe-link","column":2,"end_column":7,"line":3,"message":"a link was dropped","severity":"warning"}"#,
        );
    }

    #[test]
    fn listing() {
        check(
            &Listing {
                dir: "a".to_owned(),
                entries: vec![
                    Listed {
                        kind: ListedKind::Dir,
                        name: "b".to_owned(),
                    },
                    Listed {
                        kind: ListedKind::Page,
                        name: "c.html".to_owned(),
                    },
                ],
                more: false,
                offset: 0,
                total: 2,
            },
            r#"{"dir":"a","entries":[{"kind":"dir","name":"b"},{"kind":"page","name":"c.html"}],"more":false,"offset":0,"total":2}"#,
        );
    }

    #[test]
    fn found() {
        check(
            &Found {
                pages: vec!["a.html".to_owned(), "b/c.txt".to_owned()],
                truncated: true,
            },
            r#"{"pages":["a.html","b/c.txt"],"truncated":true}"#,
        );
    }

    #[test]
    fn opened() {
        check(
            &Opened {
                encoding: Some("windows-1252"),
                ingestion: vec![diag(Some(1), Some(5), None)],
                kind: PageKind::Html,
                original: Some(Original {
                    exists: false,
                    name: Some("p.html.orig".to_owned()),
                }),
                path: "p.html".to_owned(),
                summary: Some("1 script dropped".to_owned()),
                text: "\n= P =\n".to_owned(),
                version: "00000000000000ff-12".to_owned(),
            },
            r#"{"encoding":"windows-1252","ingestion":[{"code":"unsafe-link","column":5,"line":1,"message":"a link was dropped","severity":"warning"}],"kind":"html","original":{"exists":false,"name":"p.html.orig"},"path":"p.html","summary":"1 script dropped","text":"\n= P =\n","version":"00000000000000ff-12"}"#,
        );
        check(
            &Opened {
                encoding: Some("UTF-8"),
                ingestion: Vec::new(),
                kind: PageKind::Text,
                original: None,
                path: "notes.txt".to_owned(),
                summary: None,
                text: "\nNotes\n".to_owned(),
                version: "0000000000000001-7".to_owned(),
            },
            r#"{"encoding":"UTF-8","ingestion":[],"kind":"text","original":null,"path":"notes.txt","summary":null,"text":"\nNotes\n","version":"0000000000000001-7"}"#,
        );
    }

    #[test]
    fn checked_and_superseded() {
        check(
            &Checked::new(
                5,
                vec![diag(Some(2), Some(1), Some(3))],
                "<p>x</p>".to_owned(),
                false,
            ),
            r#"{"diagnostics":[{"code":"unsafe-link","column":1,"end_column":3,"line":2,"message":"a link was dropped","severity":"warning"}],"seq":5,"superseded":false,"xhtml":"<p>x</p>"}"#,
        );
        // In parts: the head, each block with its line, the tail.
        check(
            &Checked::new(
                6,
                Vec::new(),
                "<html><head></head><body>\n<h1 data-line=\"3\">T</h1>\n<ul>\n<li data-line=\"5\">a</li>\n</ul>\n</body></html>".to_owned(),
                true,
            ),
            r#"{"diagnostics":[],"seq":6,"superseded":false,"preview":{"head":"<html><head></head><body>","blocks":[[3,"\n<h1>T</h1>"],[5,"\n<ul>\n<li data-offset=\"0\">a</li>\n</ul>"]],"tail":"\n</body></html>"}}"#,
        );
        // Markup that cannot be cut goes whole.
        check(
            &Checked::new(7, Vec::new(), "<p>x</p>".to_owned(), true),
            r#"{"diagnostics":[],"seq":7,"superseded":false,"xhtml":"<p>x</p>"}"#,
        );
        check(&Superseded::new(4), r#"{"seq":4,"superseded":true}"#);
    }

    #[test]
    fn saved() {
        check(
            &Saved {
                encoding: "UTF-8",
                notices: vec!["line 2: a notice".to_owned()],
                original: Some("notes.txt.orig".to_owned()),
                path: "notes.txt".to_owned(),
                text: Some("\nNotes\n".to_owned()),
                version: "0000000000000002-7".to_owned(),
            },
            r#"{"encoding":"UTF-8","notices":["line 2: a notice"],"original":"notes.txt.orig","path":"notes.txt","text":"\nNotes\n","version":"0000000000000002-7"}"#,
        );
        check(
            &Saved {
                encoding: "Shift_JIS",
                notices: Vec::new(),
                original: None,
                path: "p.html".to_owned(),
                text: None,
                version: "0000000000000003-9".to_owned(),
            },
            r#"{"encoding":"Shift_JIS","notices":[],"original":null,"path":"p.html","text":null,"version":"0000000000000003-9"}"#,
        );
    }

    #[test]
    fn created() {
        check(
            &Created {
                kind: PageKind::Text,
                path: "a/new.txt".to_owned(),
            },
            r#"{"kind":"text","path":"a/new.txt"}"#,
        );
    }

    #[test]
    fn conflict() {
        check(
            &Conflict::new(
                "p.html",
                OnDisk {
                    encoding: None,
                    ingestion: Vec::new(),
                    summary: None,
                    text: "\nTheirs\n".to_owned(),
                    version: "0000000000000004-8".to_owned(),
                },
            ),
            r#"{"conflict":true,"error":"p.html changed on disk since it was opened: nothing was written","theirs":{"encoding":null,"ingestion":[],"summary":null,"text":"\nTheirs\n","version":"0000000000000004-8"}}"#,
        );
    }

    /// The old way of building these answers (`json!`) gives the same text:
    /// its maps sort their keys, and so do the declarations above.
    #[test]
    fn the_same_text_as_json_macro() {
        let built = serde_json::json!({
            "seq": 7,
            "superseded": false,
            "diagnostics": [Diag {
                severity: Severity::Note,
                code: "near-miss".to_owned(),
                message: "m".to_owned(),
                line: Some(1),
                column: None,
                end_column: None,
            }],
            "xhtml": "",
        });
        let typed = Checked::new(
            7,
            vec![Diagnostic::from(Diag {
                severity: Severity::Note,
                code: "near-miss".to_owned(),
                message: "m".to_owned(),
                line: Some(1),
                column: None,
                end_column: None,
            })],
            String::new(),
            false,
        );
        check(&typed, &built.to_string());
    }

    #[test]
    fn site_wide_answers() {
        check(
            &SiteSearch {
                found: 1,
                pages: vec![PageMatches {
                    kind: PageKind::Html,
                    matches: vec![Match {
                        after: " b".to_owned(),
                        before: "a ".to_owned(),
                        column: 3,
                        found: "X".to_owned(),
                        line: 2,
                    }],
                    path: "p.html".to_owned(),
                    version: "v".to_owned(),
                }],
                read: 4,
                truncated: false,
            },
            r#"{"found":1,"pages":[{"kind":"html","matches":[{"after":" b","before":"a ","column":3,"found":"X","line":2}],"path":"p.html","version":"v"}],"read":4,"truncated":false}"#,
        );
        check(
            &Replaced {
                refused: vec![RefusedPage {
                    conflict: true,
                    path: "a.txt".to_owned(),
                    reason: "changed".to_owned(),
                }],
                written: vec![WrittenPage {
                    original: None,
                    path: "b.txt".to_owned(),
                    replaced: 2,
                    version: "v".to_owned(),
                }],
            },
            r#"{"refused":[{"conflict":true,"path":"a.txt","reason":"changed"}],"written":[{"original":null,"path":"b.txt","replaced":2,"version":"v"}]}"#,
        );
        check(
            &Renamed {
                applied: false,
                from: "a.txt".to_owned(),
                made: vec!["d".to_owned()],
                original: None,
                relinked: vec![Relinked {
                    links: 1,
                    path: "b.txt".to_owned(),
                }],
                to: "d/a.txt".to_owned(),
            },
            r#"{"applied":false,"from":"a.txt","made":["d"],"original":null,"relinked":[{"links":1,"path":"b.txt"}],"to":"d/a.txt"}"#,
        );
    }
}
