//! The image picker's calls: the site's image files, and an image spelled
//! in the text format for the page being edited.
//!
//! Both reach files only through DIR's held handle ([`super::contain`]),
//! after [`super::site`]'s path checks: the listing walks folders opened in
//! their parents without following links (as the page search does), and
//! the spelling checks that the page and the image are what they say, in
//! DIR. The spelling itself is `wikitext`'s ([`wikitext::insert::image`]):
//! this module only turns the image's place in the site into a URL relative
//! to the page's folder. The answers are declared here, beside the calls
//! they answer, rather than in [`super::answers`].

use std::path::Path;
use std::sync::Arc;

use axum::extract::Request;
use axum::http::StatusCode;
use axum::response::Response;
use rustix::fs::FileType;
use serde::{Deserialize, Serialize};

use super::answers::{self, Diagnostic};
use super::{App, Failed, contain, json, site, urlpath};
use crate::inputs::has_extension;

/// The extensions of the files the picker offers, which browsers show as
/// images.
pub(super) const IMAGE_EXTENSIONS: &[&str] = &[
    "png", "jpg", "jpeg", "gif", "webp", "svg", "avif", "ico", "bmp",
];

/// How many images one listing holds at most.
const IMAGE_LIMIT: usize = 2000;

/// The largest header a spelling request may carry (a header is a few
/// lines; the whole text is never sent).
const HEADER_LIMIT: usize = 64 * 1024;

/// `GET api/images`: the site's image files.
#[derive(Debug, Serialize)]
pub(super) struct Images {
    /// Their paths below DIR, sorted.
    pub(super) images: Vec<String>,
    /// Whether the walk stopped before the end (more images than a listing
    /// holds, or a site too big to walk whole).
    pub(super) truncated: bool,
}

/// `POST api/image`: an image spelled for the page.
#[derive(Debug, Serialize)]
pub(super) struct ImageMarkup {
    /// The header line the page must gain for the markup to be an image
    /// (`#Extend image`), or `null` when it declares the feature already.
    pub(super) declare: Option<&'static str>,
    /// The markup to insert at the cursor.
    pub(super) markup: String,
    /// What the writer changed while spelling it (a source
    /// percent-encoded, say).
    pub(super) notes: Vec<Diagnostic>,
    /// The image's URL, relative to the page's folder.
    pub(super) src: String,
}

/// `GET api/images`: every image file of the site, at most
/// [`IMAGE_LIMIT`], walked from DIR's handle without following links.
pub(super) async fn list(app: &App) -> Response {
    let root = Arc::clone(&app.root);
    let found = tokio::task::spawn_blocking(move || {
        let mut images = Vec::new();
        let mut full = false;
        let cut = site::walk_files(&root, IMAGE_EXTENSIONS, |_, _, rel| {
            if images.len() == IMAGE_LIMIT {
                full = true;
                return false;
            }
            images.push(rel.to_owned());
            true
        });
        images.sort_unstable();
        Images {
            images,
            truncated: cut || full,
        }
    })
    .await;
    match found {
        Ok(images) => json(&images),
        Err(_) => Failed::new(StatusCode::INTERNAL_SERVER_ERROR, "the listing failed").response(),
    }
}

/// The body of a spelling request.
#[derive(Deserialize)]
struct ImageRequest {
    /// The page the image goes into, below DIR.
    page: String,
    /// The image file, below DIR.
    image: String,
    /// Its alternative text (empty: a decoration).
    #[serde(default)]
    alt: String,
    /// The page's header as it is in the editor: its lines up to the first
    /// empty line.
    #[serde(default)]
    header: String,
    /// The character right after the cursor (empty: the end of a line).
    #[serde(default)]
    next: String,
}

/// `POST api/image {page, image, alt, header, next}`: the image in the
/// format's image syntax, its source relative to the page's folder, for
/// the editor to insert at the cursor; whether the header must declare
/// `#Extend image`. Refused when the page or the image is not in DIR, the
/// image is not a regular image file, or its alternative text needs
/// escapes the page does not declare.
pub(super) async fn markup(app: &App, request: Request) -> Response {
    let asked: ImageRequest = match super::page::body(request).await {
        Ok(asked) => asked,
        Err(failed) => return failed.response(),
    };
    let root = Arc::clone(&app.root);
    let done = tokio::task::spawn_blocking(move || spell(&root, &asked)).await;
    match done {
        Ok(Ok(spelled)) => json(&spelled),
        Ok(Err(failed)) => failed.response(),
        Err(_) => Failed::new(StatusCode::INTERNAL_SERVER_ERROR, "spelling failed").response(),
    }
}

fn spell(root: &contain::Root, asked: &ImageRequest) -> Result<ImageMarkup, Failed> {
    if asked.header.len() > HEADER_LIMIT {
        return Err(Failed::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("a header over {HEADER_LIMIT} bytes: send the header's lines only"),
        ));
    }
    let page = site::from_query(&asked.page).map_err(|r| r.failed(&asked.page))?;
    let page = root.entry(&page).map_err(|r| r.failed(&asked.page))?;
    let image = site::from_query(&asked.image).map_err(|r| r.failed(&asked.image))?;
    let image = root.entry(&image).map_err(|r| r.failed(&asked.image))?;
    let is_file = contain::kind_at(&image.parent, &image.name)
        .is_ok_and(|kind| kind == Some(FileType::RegularFile));
    if !is_file || !has_extension(Path::new(&image.name), IMAGE_EXTENSIONS) {
        return Err(Failed::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            format!("{}: not an image file of the site", asked.image),
        ));
    }
    let folder = &page.rel[..page.rel.len().saturating_sub(1)];
    let src = urlpath::relative(folder, &image.rel);
    let mut parser = wikitext::Parser::new(&asked.header);
    let (meta, _) = parser.take_parts();
    let next = asked.next.chars().next();
    let inserted = wikitext::insert::image(&src, &asked.alt, &meta, next)
        .map_err(|why| Failed::new(StatusCode::UNPROCESSABLE_ENTITY, why.to_string()))?;
    let notes = inserted.diagnostics.iter().map(crate::diag::from_library);
    Ok(ImageMarkup {
        declare: inserted.declare_image.then_some("#Extend image"),
        markup: inserted.text,
        notes: answers::diagnostics(notes.collect()),
        src,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers() {
        let text = serde_json::to_string(&ImageMarkup {
            declare: Some("#Extend image"),
            markup: "![a.png||A]".to_owned(),
            notes: Vec::new(),
            src: "a.png".to_owned(),
        })
        .unwrap_or_default();
        assert_eq!(
            text,
            r##"{"declare":"#Extend image","markup":"![a.png||A]","notes":[],"src":"a.png"}"##
        );
        let text = serde_json::to_string(&Images {
            images: vec!["a.png".to_owned()],
            truncated: false,
        })
        .unwrap_or_default();
        assert_eq!(text, r#"{"images":["a.png"],"truncated":false}"#);
    }
}
