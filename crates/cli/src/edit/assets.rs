//! The editor's page, style and scripts, embedded in the binary: nothing is
//! fetched from elsewhere at run time. `app.js`, `site.js` (the site-wide
//! changes) and `app.css` are written by hand, and so are `app.js`'s parts
//! `preview.js` (the preview updated in place), `scroll.js` (the text and
//! the preview scroll in step) and `images.js` (the image picker);
//! `editor.js` is CodeMirror 6 with the text format's mode, bundled
//! from `crates/cli/editor/` by `npm run build` there and committed (CI
//! rebuilds it and compares).
//!
//! The page's Content-Security-Policy lets it run only its own script and
//! talk only to its own server. The preview (a sandboxed `srcdoc` frame,
//! without scripts, of the editor's origin so that `scroll.js` can read
//! its layout) inherits that policy, narrowed by its own.

use axum::body::Body;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

const INDEX: &str = include_str!("assets/index.html");
const SCRIPT: &str = include_str!("assets/app.js");
const EDITOR: &str = include_str!("assets/editor.js");
const SITE_SCRIPT: &str = include_str!("assets/site.js");
const STYLE: &str = include_str!("assets/app.css");
const PREVIEW: &str = include_str!("assets/preview.js");
const SCROLL: &str = include_str!("assets/scroll.js");
const IMAGES: &str = include_str!("assets/images.js");

/// The editor's page, under a policy that names this server's two loopback
/// origins (a sandboxed frame's `'self'` would be its own opaque origin).
/// Inline styles are allowed so that the preview of a page as saved (a
/// `srcdoc` frame, which inherits this policy) shows the page's own
/// `<style>` and `style` attributes; never inline scripts. A style can
/// fetch only what `img-src` and `font-src` allow: this server.
pub(super) fn index(port: u16) -> Response {
    let origins = format!("http://127.0.0.1:{port} http://localhost:{port}");
    let policy = format!(
        "default-src 'none'; script-src 'self'; style-src {origins} 'unsafe-inline'; img-src {origins} data:; \
         font-src {origins}; media-src {origins}; connect-src 'self'; frame-src 'self'; \
         object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    );
    let mut response = asset(INDEX, "text/html; charset=utf-8");
    if let Ok(value) = HeaderValue::from_str(&policy) {
        response
            .headers_mut()
            .insert(header::CONTENT_SECURITY_POLICY, value);
    }
    response
}

/// The editor's script.
pub(super) fn script() -> Response {
    asset(SCRIPT, "text/javascript; charset=utf-8")
}

/// The site-wide changes' script (find and replace, rename).
pub(super) fn site_script() -> Response {
    asset(SITE_SCRIPT, "text/javascript; charset=utf-8")
}

/// The text editor (CodeMirror), bundled.
pub(super) fn editor() -> Response {
    asset(EDITOR, "text/javascript; charset=utf-8")
}

/// A hand-written part of the editor's script, by its name (`preview.js`,
/// `scroll.js`, `images.js`).
pub(super) fn part(name: &str) -> Response {
    match name {
        "preview.js" => asset(PREVIEW, "text/javascript; charset=utf-8"),
        "scroll.js" => asset(SCROLL, "text/javascript; charset=utf-8"),
        "images.js" => asset(IMAGES, "text/javascript; charset=utf-8"),
        _ => super::failure(StatusCode::NOT_FOUND, "no such page of the editor"),
    }
}

/// The editor's style sheet.
pub(super) fn style() -> Response {
    asset(STYLE, "text/css; charset=utf-8")
}

fn asset(body: &'static str, media_type: &'static str) -> Response {
    (
        StatusCode::OK,
        [(header::CONTENT_TYPE, media_type)],
        Body::from(body),
    )
        .into_response()
}
