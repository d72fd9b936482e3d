//! One page in the editor: opened as text, checked and previewed as it is
//! typed, saved. Every conversion is [`crate::convert`]'s, as for `to-text`,
//! `check` and `to-html --tables`; this module reads and writes files.
//!
//! A page's *version* is a digest of its bytes on disk. The editor sends back
//! the version it opened; a save whose version is no longer the file's is a
//! conflict (409), answered with the file's current text, and nothing is
//! written until the person chooses (`force`). The version is checked
//! again on the file about to be replaced, right before it is replaced
//! ([`super::store`]).
//!
//! Every file is reached through DIR's held handle ([`super::contain`]):
//! read through the open file that was checked, written through the handle
//! of the page's folder.

use std::hash::{Hash, Hasher};
use std::path::Path;
use std::sync::Arc;

use axum::extract::Request;
use axum::http::StatusCode;
use axum::response::Response;
use serde::Deserialize;

use super::answers::{self, Checked, Conflict, OnDisk, Opened, Original, PageKind, Superseded};
use super::contain::{self, Entry, Unread};
use super::site::{self, PAGE_EXTENSIONS};
use super::store::{self, NotReplaced};
use super::{App, Failed, Query, answer, json};
use crate::convert::{self, HtmlInput, Output, Reading};
use crate::inputs::has_extension;

/// The largest page the editor opens, and the largest request body.
pub(super) const MAX_BYTES: usize = 64 * 1024 * 1024;

/// What kind of page a file is, by its extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    /// `.html`, `.htm`: HTML.
    Html,
    /// `.xhtml`: HTML read as XML is read (its declaration names the charset).
    Xhtml,
    /// `.txt`: the text format.
    Text,
}

impl Kind {
    pub(super) fn of(path: &Path) -> Option<Kind> {
        if has_extension(path, &["txt"]) {
            Some(Kind::Text)
        } else if has_extension(path, &["xhtml"]) {
            Some(Kind::Xhtml)
        } else if has_extension(path, PAGE_EXTENSIONS) {
            Some(Kind::Html)
        } else {
            None
        }
    }

    /// What the editor's page is told: text, or HTML (XHTML included).
    pub(super) fn answered(self) -> PageKind {
        match self {
            Kind::Text => PageKind::Text,
            Kind::Html | Kind::Xhtml => PageKind::Html,
        }
    }

    /// How an HTML page's encoding is found: as `to-text` finds it.
    pub(super) fn reading(self) -> Reading {
        Reading {
            xml: self == Kind::Xhtml,
            ..Reading::default()
        }
    }
}

/// The version of a file's contents.
pub(super) fn version(bytes: &[u8]) -> String {
    let mut hasher = std::hash::DefaultHasher::new();
    bytes.hash(&mut hasher);
    format!("{:016x}-{}", hasher.finish(), bytes.len())
}

/// A page file: where it is (its folder's handle and name), its real path
/// below DIR, its kind.
pub(super) struct PageFile {
    /// Its folder's handle and its name there.
    pub(super) entry: Entry,
    /// Its real path below DIR.
    pub(super) rel: String,
    /// Its kind.
    pub(super) kind: Kind,
}

/// The page at `rel` (as asked), walked from DIR's handle.
pub(super) fn page_file(root: &contain::Root, rel: &str) -> Result<PageFile, Failed> {
    let segments = site::from_query(rel).map_err(|r| r.failed(rel))?;
    let entry = root.entry(&segments).map_err(|r| r.failed(rel))?;
    let kind = Kind::of(Path::new(&entry.name)).ok_or_else(|| {
        Failed::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            format!("{rel}: not a page (the editor opens .html, .htm, .xhtml and .txt files)"),
        )
    })?;
    Ok(PageFile {
        rel: entry.rel_path(),
        entry,
        kind,
    })
}

/// Opens and reads a page, through the open file that was checked to be a
/// regular file; refuses binary data (a file that starts with a known
/// binary signature: an image, an archive, an executable) and files over
/// the limit. A page that is mostly control bytes is opened, with a warning
/// ([`as_text`]).
pub(super) fn read_page(file: &PageFile) -> Result<(contain::Opened, Vec<u8>), Failed> {
    let unread = |unread| match unread {
        Unread::NotAFile => Failed::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            format!("{}: not a regular file", file.rel),
        ),
        Unread::TooBig(len) => Failed::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "{}: {len} bytes; the editor opens pages up to {MAX_BYTES} bytes",
                file.rel
            ),
        ),
        Unread::Io(e) => io_failure(&file.rel, &e),
    };
    let opened = contain::open_file(&file.entry.parent, &file.entry.name).map_err(unread)?;
    let bytes = opened.read(MAX_BYTES).map_err(unread)?;
    if let Some(what) = convert::signature(&bytes) {
        return Err(Failed::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            format!("{}: binary data, not a page ({what})", file.rel),
        ));
    }
    Ok((opened, bytes))
}

pub(super) fn io_failure(rel: &str, e: &std::io::Error) -> Failed {
    let status = match e.kind() {
        std::io::ErrorKind::NotFound => StatusCode::NOT_FOUND,
        std::io::ErrorKind::PermissionDenied => StatusCode::FORBIDDEN,
        _ => StatusCode::INTERNAL_SERVER_ERROR,
    };
    Failed::new(
        status,
        format!("{rel}: {}", crate::inputs::describe_io_error(e)),
    )
}

/// A page's bytes as the editor shows them.
pub(super) struct AsText {
    /// The page as text.
    pub(super) text: String,
    /// The encoding it was read in (`None` when nothing was decoded).
    encoding: Option<&'static str>,
    /// For HTML, what was lost on the way in.
    ingestion: Vec<answers::Diagnostic>,
    /// For HTML, ingestion's account for a person.
    summary: Option<String>,
}

/// A page's bytes as the editor shows them: the text, the encoding it was
/// read in, and for HTML what was lost on the way in; for a page that is
/// mostly control bytes, a `control-bytes` warning first, as `to-text`
/// gives. With `seed`, HTML is shown as pure seed text (`--seed`).
pub(super) fn as_text(kind: Kind, bytes: &[u8], seed: bool) -> AsText {
    match kind {
        Kind::Text => {
            let (text, encoding, mut diagnostics) = convert::decode_text(bytes);
            if let Some(warning) = control_bytes(bytes, Some(encoding)) {
                diagnostics.insert(0, warning);
            }
            AsText {
                text,
                encoding: Some(encoding.name()),
                ingestion: answers::diagnostics(diagnostics),
                summary: None,
            }
        }
        Kind::Html | Kind::Xhtml => {
            let input = HtmlInput {
                reading: kind.reading(),
                escapes: if seed {
                    wikitext::Escapes::Never
                } else {
                    wikitext::Escapes::WhenNeeded
                },
                ..HtmlInput::default()
            };
            let mut converted = convert::html_to_text(bytes, &input, None, Output::Keep);
            if let Some(warning) = control_bytes(bytes, converted.encoding) {
                converted.diagnostics.insert(0, warning);
            }
            let text = String::from_utf8_lossy(&converted.output.unwrap_or_default()).into_owned();
            AsText {
                text,
                encoding: converted.encoding.map(|e| e.name()),
                ingestion: answers::diagnostics(converted.diagnostics),
                summary: converted.summary,
            }
        }
    }
}

/// The `control-bytes` warning for a page that is mostly control bytes,
/// unless it was read as UTF-16 (whose ASCII characters are half NULs).
fn control_bytes(
    bytes: &[u8],
    encoding: Option<&'static encoding_rs::Encoding>,
) -> Option<crate::diag::Diag> {
    let utf16 =
        || encoding.is_some_and(|e| e == encoding_rs::UTF_16LE || e == encoding_rs::UTF_16BE);
    match convert::binary_reason(bytes, utf16)? {
        convert::Binary::ControlBytes { control, probed } => {
            Some(convert::control_bytes_diag(control, probed))
        }
        // Refused when the page was read.
        convert::Binary::Signature(_) => None,
    }
}

/// `GET api/page?path=P`: the page as text, with its version, the ingestion
/// diagnostics (at the lines of the HTML), and whether a first save will
/// keep the original as `P.orig`.
pub(super) async fn open(app: &App, query: &Query) -> Response {
    let rel = query.get("path").cloned().unwrap_or_default();
    let root = Arc::clone(&app.root);
    let seed = app.seed;
    let done = tokio::task::spawn_blocking(move || {
        let file = page_file(&root, &rel)?;
        let (_, bytes) = read_page(&file)?;
        let AsText {
            text,
            encoding,
            ingestion,
            summary,
        } = as_text(file.kind, &bytes, seed);
        let original = keeps_original(file.kind, &bytes).then(|| {
            let orig = orig_name(&file.entry.name);
            Original {
                // Anything there, a dangling link included (not followed).
                exists: contain::kind_at(&file.entry.parent, &orig).is_ok_and(|k| k.is_some()),
                name: Some(orig),
            }
        });
        Ok::<_, Failed>(json(&Opened {
            encoding,
            ingestion,
            kind: file.kind.answered(),
            original,
            path: file.rel,
            summary,
            text,
            version: version(&bytes),
        }))
    })
    .await;
    match done {
        Ok(Ok(response)) => response,
        Ok(Err(failed)) => failed.response(),
        Err(_) => Failed::new(StatusCode::INTERNAL_SERVER_ERROR, "opening failed").response(),
    }
}

/// `page.html` -> `page.html.orig`.
fn orig_name(name: &str) -> String {
    format!("{name}.orig")
}

/// The body of a check.
#[derive(Deserialize)]
struct RenderRequest {
    text: String,
    /// Which editor asks (a random id per browser tab).
    #[serde(default)]
    client: String,
    /// The editor's count of its checks: a later one supersedes this one.
    #[serde(default)]
    seq: u64,
    /// Send the preview in parts (head, top-level blocks, tail) rather
    /// than as one XHTML document; the editor's page asks for this.
    #[serde(default)]
    blocks: bool,
}

/// Reads a JSON body of at most [`MAX_BYTES`].
pub(super) async fn body<T: serde::de::DeserializeOwned>(request: Request) -> Result<T, Failed> {
    let bytes = axum::body::to_bytes(request.into_body(), MAX_BYTES)
        .await
        .map_err(|_| {
            Failed::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!("the request is over {MAX_BYTES} bytes"),
            )
        })?;
    serde_json::from_slice(&bytes)
        .map_err(|e| Failed::new(StatusCode::BAD_REQUEST, format!("a malformed request: {e}")))
}

/// `POST api/render {text, client, seq, blocks}`: the text's diagnostics and
/// its XHTML for the preview (in parts when `blocks`). A check that a later one from the same editor has
/// superseded while it waited is skipped (`superseded: true`).
pub(super) async fn render(app: &App, request: Request) -> Response {
    let asked: RenderRequest = match body(request).await {
        Ok(asked) => asked,
        Err(failed) => return failed.response(),
    };
    if let Ok(mut latest) = app.latest.lock() {
        // One entry per open editor; a flood of made-up ids is forgotten.
        if latest.len() > 1024 {
            latest.clear();
        }
        let seen = latest.entry(asked.client.clone()).or_insert(0);
        *seen = (*seen).max(asked.seq);
    }
    let latest = &app.latest;
    let superseded = || {
        latest
            .lock()
            .ok()
            .and_then(|l| l.get(&asked.client).copied())
            .is_some_and(|newest| newest > asked.seq)
    };
    // Let a burst of keystrokes settle before the work starts.
    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    if superseded() {
        return json(&Superseded::new(asked.seq));
    }
    let text = asked.text;
    let in_parts = asked.blocks;
    let done = tokio::task::spawn_blocking(move || {
        let (xhtml, diagnostics) = convert::edit_view(&text);
        Checked::new(
            asked.seq,
            answers::diagnostics(diagnostics),
            xhtml,
            in_parts,
        )
    })
    .await;
    match done {
        Ok(checked) => json(&checked),
        Err(_) => Failed::new(StatusCode::INTERNAL_SERVER_ERROR, "the check failed").response(),
    }
}

/// The body of a save.
#[derive(Deserialize)]
struct SaveRequest {
    path: String,
    text: String,
    /// The version the editor opened (or last saved).
    version: String,
    /// Overwrite whatever is on disk, changed or not. The editor never
    /// sends it (after a conflict it saves on the version it showed, so a
    /// third version is a new conflict); it is for scripts that mean it.
    #[serde(default)]
    force: bool,
    /// Write an HTML page as the seed's clean XHTML from the text, instead
    /// of writing the edit onto the page ("Save as clean XHTML").
    #[serde(default)]
    clean: bool,
}

/// How [`write_text`] writes an HTML page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum How {
    /// The edit onto the page (`htmlio::onto`): only what was edited
    /// changes.
    Onto,
    /// The seed's clean XHTML from the text, in the page's charset when
    /// it holds every character (else UTF-8, with a notice).
    Clean,
}

/// `POST api/save {path, text, version, force, clean}`. Saves run one at a
/// time; see the module docs for conflicts. An HTML page gets the edit
/// written onto it (only what was edited changes; nothing is written when
/// nothing was), or with `clean` the seed's clean XHTML; its first save
/// keeps the original as `PAGE.orig`. A text page is written as canonical
/// text. The write is atomic.
pub(super) async fn save(app: &App, request: Request) -> Response {
    let asked: SaveRequest = match body(request).await {
        Ok(asked) => asked,
        Err(failed) => return failed.response(),
    };
    let _one_at_a_time = app.saving.lock().await;
    let root = Arc::clone(&app.root);
    let seed = app.seed;
    let done = tokio::task::spawn_blocking(move || {
        let file = page_file(&root, &asked.path)?;
        save_now(&file, &asked, seed)
    })
    .await;
    match done {
        Ok(Ok(response)) => response,
        Ok(Err(failed)) => failed.response(),
        Err(_) => Failed::new(StatusCode::INTERNAL_SERVER_ERROR, "saving failed").response(),
    }
}

/// Saves `asked` over `file` ([`write_text`]), answered as `api/save`
/// answers. With `seed`, a conflict shows the page on disk as pure seed
/// text.
fn save_now(file: &PageFile, asked: &SaveRequest, seed: bool) -> Result<Response, Failed> {
    let how = if asked.clean { How::Clean } else { How::Onto };
    match write_text(file, &asked.text, &asked.version, asked.force, how)? {
        Written::Saved(saved) => Ok(json(&saved)),
        Written::Changed(now) => Ok(conflict(file, &now, seed)),
    }
}

/// The body of `POST api/changes` and `POST api/view`.
#[derive(Deserialize)]
struct ChangesRequest {
    path: String,
    text: String,
}

/// `POST api/changes {path, text}`: what a save of `text` would change in
/// the bytes of the HTML page on disk, each change with its line and a
/// little of the page around it; nothing is written.
pub(super) async fn changes(app: &App, request: Request) -> Response {
    as_saved(app, request, |current, saved| {
        json(&answers::PageChanges::new(current, saved))
    })
    .await
}

/// `POST api/view {path, text}`: the HTML page on disk as a save of
/// `text` would write it, decoded, for the preview of the page as saved
/// (the editor's page makes it safe before the frame gets it); nothing is
/// written.
pub(super) async fn view(app: &App, request: Request) -> Response {
    as_saved(app, request, |_, saved| {
        let (html, _) = saved.encoding.decode_with_bom_removal(&saved.bytes);
        json(&answers::PageView {
            html: html.into_owned(),
        })
    })
    .await
}

/// The HTML page of a `{path, text}` request as a save of the text would
/// write it (nothing is written), answered by `answer` from the page's
/// bytes now and the save; a text page is refused (it has no page around
/// its text).
async fn as_saved(
    app: &App,
    request: Request,
    answer: fn(&[u8], &convert::Saved) -> Response,
) -> Response {
    let asked: ChangesRequest = match body(request).await {
        Ok(asked) => asked,
        Err(failed) => return failed.response(),
    };
    let root = Arc::clone(&app.root);
    let done = tokio::task::spawn_blocking(move || {
        let file = page_file(&root, &asked.path)?;
        if file.kind == Kind::Text {
            return Err(Failed::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                format!("{}: a text page has no page around its text", file.rel),
            ));
        }
        let (_, current) = read_page(&file)?;
        let saved = convert::save_onto(&asked.text, &current, file.kind.reading().hints());
        Ok(answer(&current, &saved))
    })
    .await;
    match done {
        Ok(Ok(response)) => response,
        Ok(Err(failed)) => failed.response(),
        Err(_) => Failed::new(StatusCode::INTERNAL_SERVER_ERROR, "comparing failed").response(),
    }
}

/// What [`write_text`] did.
pub(super) enum Written {
    /// The page was written: the answer of a save.
    Saved(answers::Saved),
    /// The page on disk is not the version given: its bytes now, and
    /// nothing was written.
    Changed(Vec<u8>),
}

/// The one way the editor writes a page's text: the version checked on the
/// page read now (unless `force`), the original kept on a first save, the
/// page replaced ([`store`]) and checked once more right before; a text
/// page as canonical text, an HTML page as the text written onto it
/// (only what was edited changes; nothing is written when nothing was). A
/// killed save's temporary file in the page's folder is removed first.
pub(super) fn write_text(
    file: &PageFile,
    text: &str,
    version_seen: &str,
    force: bool,
    how: How,
) -> Result<Written, Failed> {
    contain::remove_leftovers(&file.entry.parent);
    let (opened, current) = read_page(file)?;
    if version(&current) != version_seen && !force {
        return Ok(Written::Changed(current));
    }
    let saved = match file.kind {
        Kind::Text => convert::save_text(text),
        Kind::Html | Kind::Xhtml if how == How::Clean => {
            let hints = file.kind.reading().hints();
            let encoding = htmlio::ingest::settle_encoding(&current, &hints).encoding;
            convert::save_html(text, encoding)
        }
        Kind::Html | Kind::Xhtml => convert::save_onto(text, &current, file.kind.reading().hints()),
    };
    if saved.bytes == current {
        // Nothing was edited: nothing is written, and no original kept.
        return Ok(Written::Saved(answers::Saved {
            encoding: saved.encoding.name(),
            notices: saved.notices,
            original: None,
            path: file.rel.clone(),
            text: saved.text,
            version: version(&current),
        }));
    }
    let mut kept = None;
    if keeps_original(file.kind, &current) {
        kept = store::keep_original(&file.entry, &current, opened.mode()).map_err(|why| {
            Failed::new(
                StatusCode::CONFLICT,
                format!("{}: not saved: {why}", file.rel),
            )
        })?;
    }
    match store::replace(
        &file.entry,
        &opened,
        &current,
        &saved.bytes,
        force,
        MAX_BYTES,
    ) {
        Ok(()) => {}
        Err(NotReplaced::Changed(Some(now))) => return Ok(Written::Changed(now)),
        Err(NotReplaced::Changed(None)) => {
            return Err(Failed::new(
                StatusCode::CONFLICT,
                format!(
                    "{}: changed on disk into something that is not a page: nothing was written",
                    file.rel
                ),
            ));
        }
        Err(NotReplaced::Io(e)) => return Err(io_failure(&file.rel, &e)),
    }
    Ok(Written::Saved(answers::Saved {
        encoding: saved.encoding.name(),
        notices: saved.notices,
        original: kept,
        path: file.rel.clone(),
        text: saved.text,
        version: version(&saved.bytes),
    }))
}

/// The body of a new page's creation.
#[derive(Deserialize)]
struct NewRequest {
    /// The folder below DIR (`""`: DIR itself).
    #[serde(default)]
    dir: String,
    /// The file's name, with or without its extension.
    name: String,
    /// `text` (`.txt`) or `html` (`.html`).
    kind: String,
}

/// The file name of a new page of `kind` called `name`: one segment, no
/// hidden name, no control character; the kind's extension added unless
/// the name has it (a name with the other kind's extension is refused).
fn new_page_name(name: &str, kind: Kind) -> Result<String, Failed> {
    let refused = |why: &str| {
        Failed::new(
            StatusCode::FORBIDDEN,
            format!("{name:?}: refused as a page name: {why}"),
        )
    };
    if name.contains('/') {
        return Err(refused("a slash inside a name"));
    }
    if name.chars().any(char::is_control) {
        return Err(refused("a control character inside a name"));
    }
    if let Err(super::contain::Refusal::Outside(why)) = site::from_query(name) {
        return Err(refused(why));
    }
    if name.is_empty() {
        return Err(refused("an empty name"));
    }
    let full = match Kind::of(Path::new(name)) {
        Some(k) if k.answered() == kind.answered() => name.to_owned(),
        Some(_) => {
            return Err(Failed::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                format!("{name}: the extension is not the kind's (.txt for text, .html for HTML)"),
            ));
        }
        None => match kind {
            Kind::Text => format!("{name}.txt"),
            Kind::Html | Kind::Xhtml => format!("{name}.html"),
        },
    };
    if full.len() > 255 {
        return Err(refused("longer than 255 bytes"));
    }
    Ok(full)
}

/// A new page's first contents: a `#Title` header (the name without its
/// extension) and an empty line, as the save writes it (canonical text, or
/// XHTML in UTF-8).
fn new_page_bytes(file_name: &str, kind: Kind) -> Vec<u8> {
    let title = Path::new(file_name)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or(file_name);
    let text = format!("#Title {title}\n\n");
    match kind {
        Kind::Text => convert::save_text(&text).bytes,
        Kind::Html | Kind::Xhtml => convert::save_html(&text, encoding_rs::UTF_8).bytes,
    }
}

/// `POST api/new {dir, name, kind}`: a new page in the folder `dir`,
/// created through the folder's handle, never over anything already there
/// (a link included) and never through a link ([`store::create_new`]).
pub(super) async fn create(app: &App, request: Request) -> Response {
    let asked: NewRequest = match body(request).await {
        Ok(asked) => asked,
        Err(failed) => return failed.response(),
    };
    let _one_at_a_time = app.saving.lock().await;
    let root = Arc::clone(&app.root);
    let done = tokio::task::spawn_blocking(move || {
        let kind = match asked.kind.as_str() {
            "text" => Kind::Text,
            "html" => Kind::Html,
            other => {
                return Err(Failed::new(
                    StatusCode::BAD_REQUEST,
                    format!("{other:?}: the kind is `text` or `html`"),
                ));
            }
        };
        let name = new_page_name(&asked.name, kind)?;
        let segments = site::from_query(&asked.dir).map_err(|r| r.failed(&asked.dir))?;
        let folder = root.folder(&segments).map_err(|r| r.failed(&asked.dir))?;
        let mut rel = folder.rel.clone();
        rel.push(name.clone());
        let rel = rel.join("/");
        let bytes = new_page_bytes(&name, kind);
        match store::create_new(&folder.fd, &name, &bytes, 0o644) {
            Ok(()) => Ok(json(&answers::Created {
                kind: kind.answered(),
                path: rel,
            })),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Err(Failed::new(
                StatusCode::CONFLICT,
                format!("{rel}: already exists: nothing was written"),
            )),
            Err(e) => Err(io_failure(&rel, &e)),
        }
    })
    .await;
    match done {
        Ok(Ok(response)) => response,
        Ok(Err(failed)) => failed.response(),
        Err(_) => Failed::new(StatusCode::INTERNAL_SERVER_ERROR, "creating failed").response(),
    }
}

/// The conflict answer: the page on disk is now `current`.
fn conflict(file: &PageFile, current: &[u8], seed: bool) -> Response {
    let AsText {
        text,
        encoding,
        ingestion,
        summary,
    } = as_text(file.kind, current, seed);
    let theirs = OnDisk {
        encoding,
        ingestion,
        summary,
        text,
        version: version(current),
    };
    answer(StatusCode::CONFLICT, &Conflict::new(&file.rel, theirs))
}

/// Whether saving a text page would lose something of the file as it is
/// (bytes that are not UTF-8, or another encoding), so that its first
/// save keeps the original.
fn text_is_lossy(bytes: &[u8]) -> bool {
    let (_, encoding, diagnostics) = convert::decode_text(bytes);
    encoding != encoding_rs::UTF_8 || !diagnostics.is_empty()
}

/// Whether the first save of this page keeps its original: always for
/// HTML (the conversion drops ballast), for text only when it is lossy.
fn keeps_original(kind: Kind, bytes: &[u8]) -> bool {
    kind != Kind::Text || text_is_lossy(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_differ_with_the_bytes() {
        assert_eq!(version(b"abc"), version(b"abc"));
        assert_ne!(version(b"abc"), version(b"abd"));
        assert_ne!(version(b""), version(b"\0"));
    }

    #[test]
    fn kinds_follow_extensions() {
        assert_eq!(Kind::of(Path::new("a.HTML")), Some(Kind::Html));
        assert_eq!(Kind::of(Path::new("a.htm")), Some(Kind::Html));
        assert_eq!(Kind::of(Path::new("a.xhtml")), Some(Kind::Xhtml));
        assert_eq!(Kind::of(Path::new("a.txt")), Some(Kind::Text));
        assert_eq!(Kind::of(Path::new("a.css")), None);
        assert_eq!(orig_name("a.html"), "a.html.orig");
    }

    #[test]
    fn new_page_names() {
        assert_eq!(
            new_page_name("a", Kind::Text).ok().as_deref(),
            Some("a.txt")
        );
        assert_eq!(
            new_page_name("a", Kind::Html).ok().as_deref(),
            Some("a.html")
        );
        assert_eq!(
            new_page_name("a.HTM", Kind::Html).ok().as_deref(),
            Some("a.HTM")
        );
        assert_eq!(
            new_page_name("a.txt", Kind::Text).ok().as_deref(),
            Some("a.txt")
        );
        for bad in ["", ".x", "..", "../x", "a/b", "a\\b", "a\0b", "a\nb", "c:x"] {
            assert!(new_page_name(bad, Kind::Text).is_err(), "{bad:?}");
        }
        assert!(new_page_name("a.txt", Kind::Html).is_err());
    }

    #[test]
    fn new_pages_have_a_title_and_an_empty_line() {
        assert_eq!(new_page_bytes("Notes.txt", Kind::Text), b"#Title Notes\n\n");
        let html = String::from_utf8(new_page_bytes("p.html", Kind::Html)).unwrap();
        assert!(html.contains("<title>p</title>"), "{html}");
    }
}
