//! `pagetext edit`: the web page editor the text format was made for, as a
//! local web application. Built only with the `edit` cargo feature (on by
//! default), which brings in its HTTP stack.
//!
//! A thin layer over the libraries, through [`crate::convert`] like every
//! other command: this module owns HTTP, paths and files, never a format.
//!
//! - [`guard`] is the one gate every request passes: the Host (DNS
//!   rebinding), the token (every request's first path segment) and the
//!   Origin (cross-site writes);
//! - [`site`] maps request paths into DIR and refuses the rest, lists the
//!   site lazily, finds pages, and serves the site's own files sandboxed;
//! - [`contain`] reaches every file and folder through a directory handle
//!   held from DIR's root down, never following a link out of DIR;
//! - [`page`] opens a page as text, checks and previews text, saves, and
//!   creates new pages;
//!   [`store`] does a save's writes (the original, the page) through the
//!   page's folder handle, never over a change made meanwhile;
//! - [`replace`] finds a text in every page of the site and replaces the
//!   places chosen, each page written by [`page`]'s one save;
//! - [`rename`] moves a page and rewrites every link to it in the site
//!   (and its own relative links), all files or none;
//! - [`images`] is the image picker's: the site's image files, and an
//!   image spelled in the text format for the open page;
//! - [`urlpath`] writes the URL from a page's folder to a place of the
//!   site, for the picker and for a rename;
//! - [`report`] is the site's link report: `pagetext check --links`
//!   ([`crate::links`]) over pages read through [`contain`];
//! - [`answers`] are the JSON answers of its calls, one type each: the
//!   contract with the editor's script;
//! - [`assets`] are the editor's HTML, CSS and JavaScript, embedded in the
//!   binary.
//!
//! Every URL is `/TOKEN/...`: `/TOKEN/` the editor, `/TOKEN/api/...` its
//! calls, `/TOKEN/site/PATH` the site's files (stylesheets and images for
//! the preview).

mod answers;
mod assets;
mod contain;
mod guard;
mod images;
mod page;
mod rename;
mod replace;
mod report;
mod site;
mod store;
mod urlpath;

use std::collections::HashMap;
use std::net::{Ipv4Addr, SocketAddr};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

use anyhow::Context as _;
use axum::Router;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};

/// What every request handler shares.
pub(crate) struct App {
    /// DIR, canonical (symbolic links resolved) and held open: every file
    /// served or written is reached from this handle ([`contain`]).
    root: Arc<contain::Root>,
    /// The secret: 64 hex digits.
    token: String,
    /// The port the server listens on (for the Host and Origin checks).
    port: u16,
    /// Saves run one at a time: the conflict check and the write are one
    /// step.
    saving: tokio::sync::Mutex<()>,
    /// The latest check each editor asked for (by its client id), so that
    /// a check superseded while it waited is skipped.
    latest: Mutex<HashMap<String, u64>>,
    /// HTML pages are shown as pure seed text (`--seed`).
    seed: bool,
}

/// `pagetext edit DIR [--port N] [--open]`.
pub(crate) fn run(args: &pagetext::EditArgs) -> anyhow::Result<ExitCode> {
    // Said as every other command says a path's trouble ("no such file or
    // directory", no OS error number).
    let root = std::fs::canonicalize(&args.dir).map_err(|e| {
        anyhow::anyhow!(
            "{}: {}",
            args.dir.display(),
            crate::inputs::describe_io_error(&e)
        )
    })?;
    if !root.is_dir() {
        anyhow::bail!("{}: not a directory", args.dir.display());
    }
    let root = contain::Root::open(&root)
        .with_context(|| format!("{}: cannot serve it", args.dir.display()))?;
    let token = new_token()?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the server's runtime")?;
    runtime.block_on(serve(root, token, args))
}

/// 32 random bytes from the operating system, in hex.
fn new_token() -> anyhow::Result<String> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes)
        .map_err(|e| anyhow::anyhow!("no random numbers for the token: {e}"))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

async fn serve(
    root: contain::Root,
    token: String,
    args: &pagetext::EditArgs,
) -> anyhow::Result<ExitCode> {
    let (port, open) = (args.port, args.open);
    // Loopback only: nobody else on the network can reach the editor.
    let listener = tokio::net::TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, port)))
        .await
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::AddrInUse => anyhow::anyhow!(
                "port {port} is in use: choose another with --port, or --port 0 for any free one"
            ),
            _ => anyhow::anyhow!("cannot listen on 127.0.0.1:{port}: {e}"),
        })?;
    let port = listener.local_addr()?.port();
    let address = format!("http://127.0.0.1:{port}/{token}/");
    let shown = root.path().display().to_string();
    let app = Arc::new(App {
        root: Arc::new(root),
        token,
        port,
        saving: tokio::sync::Mutex::new(()),
        latest: Mutex::new(HashMap::new()),
        seed: args.seed,
    });
    // One line on standard output, for people and scripts alike.
    println!("{address}");
    crate::say(&format!(
        "pagetext edit: editing {shown} at the address above (it holds this session's secret token); Ctrl-C stops\n"
    ));
    if open && let Err(e) = open::that_detached(&address) {
        crate::say(&format!(
            "pagetext edit: could not start a browser ({e}); open the address yourself\n"
        ));
    }
    let router = Router::new().fallback(handle).with_state(app);
    axum::serve(listener, router)
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
        .context("the server stopped")?;
    Ok(ExitCode::SUCCESS)
}

/// Every request: through the guard, then to its handler.
async fn handle(State(app): State<Arc<App>>, request: Request) -> Response {
    let route = match guard::admit(&app, &request) {
        guard::Gate::Open(route) => route,
        guard::Gate::Closed(mut refusal) => {
            guard::harden(refusal.headers_mut());
            return refusal;
        }
    };
    let method = request.method().clone();
    // The query's fields, decoded (a malformed query reads as none).
    let query: Query = axum::extract::Query::try_from_uri(request.uri())
        .map(|axum::extract::Query(fields)| fields)
        .unwrap_or_default();
    let mut response = match (method, route.as_str()) {
        (Method::GET | Method::HEAD, "") => assets::index(app.port),
        (Method::GET | Method::HEAD, "app.js") => assets::script(),
        (Method::GET | Method::HEAD, "editor.js") => assets::editor(),
        (Method::GET | Method::HEAD, "app.css") => assets::style(),
        (Method::GET | Method::HEAD, "site.js") => assets::site_script(),
        (Method::GET | Method::HEAD, "preview.js" | "scroll.js" | "images.js") => {
            assets::part(&route)
        }
        (Method::GET, "api/tree") => site::tree(&app, &query).await,
        (Method::GET, "api/find") => site::find(&app, &query).await,
        (Method::GET, "api/page") => page::open(&app, &query).await,
        (Method::GET, "api/links") => report::report(&app).await,
        (Method::GET, "api/images") => images::list(&app).await,
        (Method::POST, "api/image") => images::markup(&app, request).await,
        (Method::POST, "api/render") => page::render(&app, request).await,
        (Method::POST, "api/save") => page::save(&app, request).await,
        (Method::POST, "api/changes") => page::changes(&app, request).await,
        (Method::POST, "api/view") => page::view(&app, request).await,
        (Method::POST, "api/new") => page::create(&app, request).await,
        (Method::POST, "api/search") => replace::search(&app, request).await,
        (Method::POST, "api/replace") => replace::replace(&app, request).await,
        (Method::POST, "api/rename") => rename::rename(&app, request).await,
        (Method::GET | Method::HEAD, path) if path.starts_with("site/") => {
            site::file(&app, &path["site/".len()..]).await
        }
        (
            _,
            "" | "app.js" | "editor.js" | "app.css" | "site.js" | "api/tree" | "api/find"
            | "api/page" | "api/links" | "preview.js" | "scroll.js" | "images.js" | "api/images",
        ) => failure(StatusCode::METHOD_NOT_ALLOWED, "method not allowed here"),
        (
            _,
            "api/render" | "api/save" | "api/new" | "api/search" | "api/replace" | "api/rename"
            | "api/image" | "api/changes" | "api/view",
        ) => failure(StatusCode::METHOD_NOT_ALLOWED, "use POST"),
        _ => failure(StatusCode::NOT_FOUND, "no such page of the editor"),
    };
    // Every answer, errors and the site's files included (whose sandbox
    // policy `harden` keeps).
    let headers = response.headers_mut();
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    guard::harden(headers);
    response
}

/// A request that failed: its status and what to tell the person (kept
/// small, unlike a whole [`Response`], on its way up).
pub(crate) struct Failed {
    status: StatusCode,
    message: String,
}

impl Failed {
    /// A failure with `status`.
    pub(crate) fn new(status: StatusCode, message: impl Into<String>) -> Failed {
        Failed {
            status,
            message: message.into(),
        }
    }

    /// Its status.
    pub(crate) fn status(&self) -> StatusCode {
        self.status
    }

    /// What to tell the person.
    pub(crate) fn message(&self) -> &str {
        &self.message
    }

    /// The answer: `{"error": MESSAGE}` with the status.
    pub(crate) fn response(&self) -> Response {
        failure(self.status, &self.message)
    }
}

/// A request's query fields (`?path=a/b.html`), decoded.
pub(crate) type Query = HashMap<String, String>;

/// An error answer: [`answers::Error`] with `status`.
pub(crate) fn failure(status: StatusCode, message: &str) -> Response {
    answer(status, &answers::Error { error: message })
}

/// A JSON answer with status 200.
pub(crate) fn json(body: &impl serde::Serialize) -> Response {
    answer(StatusCode::OK, body)
}

/// A JSON answer with `status`.
pub(crate) fn answer(status: StatusCode, body: &impl serde::Serialize) -> Response {
    let (status, text) = match serde_json::to_string(body) {
        Ok(text) => (status, text),
        // The answers are plain structs of strings, numbers, booleans and
        // lists, which always serialize: reaching this is a bug, said as an
        // error answer rather than a panic.
        Err(_) => (
            StatusCode::INTERNAL_SERVER_ERROR,
            r#"{"error":"the answer could not be written"}"#.to_owned(),
        ),
    };
    (
        status,
        [(header::CONTENT_TYPE, "application/json; charset=utf-8")],
        Body::from(text),
    )
        .into_response()
}
