//! The gate every request passes before any handler runs, and the security
//! headers every answer carries.
//!
//! 1. **Host.** It must name this server on loopback (`127.0.0.1:PORT` or
//!    `localhost:PORT`): a page of another site whose name was re-pointed at
//!    127.0.0.1 (DNS rebinding) sends its own name, and is refused (403).
//! 2. **Token.** The first path segment is the session's secret. None: 401
//!    (but `/favicon.ico`, which browsers ask of every site: 204, empty);
//!    a wrong one: 403. The comparison takes the same time wherever the
//!    first difference is.
//! 3. **Origin.** A request that can change anything (any method but GET and
//!    HEAD) must carry `Origin: http://HOST` for this server (cross-site
//!    request forgery); a GET that names another origin is refused too. The
//!    site's own files accept `Origin: null`, which the sandboxed preview
//!    sends for fonts.

use axum::extract::Request;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::response::Response;

use super::{App, failure};

/// What the gate says of a request.
pub(super) enum Gate {
    /// Let through, to its route: the path after `/TOKEN/` (`""` for the
    /// editor itself).
    Open(String),
    /// Refused with this answer.
    Closed(Response),
}

/// Checks `request`.
pub(super) fn admit(app: &App, request: &Request) -> Gate {
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    if !is_own_host(host, app.port) {
        return Gate::Closed(failure(
            StatusCode::FORBIDDEN,
            "the Host header does not name this editor (127.0.0.1 or localhost and its port)",
        ));
    }
    let path = request.uri().path();
    if path == "/favicon.ico" {
        // What a browser asks of every site, without the token: nothing to
        // show, and no error to log in its console.
        return Gate::Closed(no_icon());
    }
    let rest = path.strip_prefix('/').unwrap_or(path);
    let (first, route) = rest.split_once('/').unwrap_or((rest, ""));
    if first.is_empty() || first.len() != app.token.len() {
        return Gate::Closed(failure(
            StatusCode::UNAUTHORIZED,
            "this editor needs its token: open the address `pagetext edit` printed",
        ));
    }
    if !same_secret(first.as_bytes(), app.token.as_bytes()) {
        return Gate::Closed(failure(StatusCode::FORBIDDEN, "wrong token"));
    }
    if rest.len() == first.len() {
        // `/TOKEN` without its slash: the editor's relative URLs need it.
        return Gate::Closed(redirect(&format!("/{first}/")));
    }
    let origin = request
        .headers()
        .get(header::ORIGIN)
        .map(|o| o.to_str().unwrap_or("\u{FFFD}"));
    let reads = matches!(*request.method(), Method::GET | Method::HEAD);
    let own = origin.is_some_and(|o| o == format!("http://{host}"));
    let refused = match origin {
        None => !reads,
        Some("null") => !(reads && route.starts_with("site/")),
        Some(_) => !own,
    };
    if refused {
        return Gate::Closed(failure(
            StatusCode::FORBIDDEN,
            "the request does not come from the editor's own page (Origin)",
        ));
    }
    Gate::Open(route.to_owned())
}

/// `127.0.0.1:PORT` or `localhost:PORT` (the name compared without case).
fn is_own_host(host: &str, port: u16) -> bool {
    let Some((name, given)) = host.rsplit_once(':') else {
        return false;
    };
    given == port.to_string() && (name == "127.0.0.1" || name.eq_ignore_ascii_case("localhost"))
}

/// Whether `a` and `b` are equal, in time that depends only on their length.
fn same_secret(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// `204 No Content` for `/favicon.ico`, to be cached for a day.
fn no_icon() -> Response {
    let mut response = Response::new(axum::body::Body::empty());
    *response.status_mut() = StatusCode::NO_CONTENT;
    response.headers_mut().insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("max-age=86400"),
    );
    response
}

fn redirect(to: &str) -> Response {
    let mut response = failure(
        StatusCode::PERMANENT_REDIRECT,
        "the editor's address ends in a slash",
    );
    if let Ok(value) = HeaderValue::from_str(to) {
        response.headers_mut().insert(header::LOCATION, value);
    }
    response
}

/// Headers every answer carries: no MIME sniffing, no referrer (the token is
/// in every URL), and no framing of the editor by another page.
pub(super) fn harden(headers: &mut HeaderMap) {
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers
        .entry(header::CONTENT_SECURITY_POLICY)
        .or_insert(HeaderValue::from_static(
            "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
        ));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_are_loopback_names_with_the_port() {
        assert!(is_own_host("127.0.0.1:8040", 8040));
        assert!(is_own_host("LocalHost:8040", 8040));
        assert!(!is_own_host("127.0.0.1:8041", 8040));
        assert!(!is_own_host("127.0.0.1", 8040));
        assert!(!is_own_host("evil.example:8040", 8040));
        assert!(!is_own_host("127.0.0.1.evil.example:8040", 8040));
        assert!(!is_own_host("", 8040));
    }

    #[test]
    fn secrets_compare_whole() {
        assert!(same_secret(b"abc", b"abc"));
        assert!(!same_secret(b"abc", b"abd"));
        assert!(!same_secret(b"abc", b"ab"));
    }
}
