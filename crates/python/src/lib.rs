//! The Python package `pagetext` (its extension module,
//! `pagetext._pagetext`): web pages in any charset to the text format, text
//! to XHTML, the charset sniffer and the text checker, from Python. Built
//! with maturin as one abi3 wheel for every CPython from 3.9 on; the
//! conversions run without the GIL, so Python threads convert in parallel.
//!
//! ```python
//! import pagetext
//!
//! page = pagetext.to_text(b"<title>Caf\xe9</title><p>Hello", content_type="text/html; charset=windows-1252")
//! assert page.text == "#Title Café\n\nHello\n"
//! assert (page.encoding, page.source) == ("windows-1252", "transport")
//! xhtml = pagetext.to_xhtml(page.text, encoding="windows-1252").xhtml
//! ```
//!
//! This crate is glue only, as the CLI is: every rule lives in `sniff`,
//! `htmlio` and `wikitext`. Its tests are Python's (`tests/`, with pytest).

/// mimalloc for the module's own allocations, as in the command-line tool
/// (see the workspace Cargo.toml); Python's objects keep Python's allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString};

/// One diagnostic, as Python sees it: a dict.
#[derive(Debug, Clone)]
struct Diag {
    severity: &'static str,
    code: &'static str,
    message: String,
    line: Option<u32>,
    column: Option<u32>,
}

impl Diag {
    fn of<C: wikitext::DiagnosticCode>(d: &wikitext::Diagnostic<C>) -> Diag {
        Diag {
            // The words the command line uses (`error`, `warning`, `note`):
            // one vocabulary wherever a person reads diagnostics.
            severity: match d.severity {
                wikitext::Severity::Info => "note",
                other => other.as_str(),
            },
            code: d.code.as_str(),
            message: d.message.clone(),
            line: d.line(),
            column: (d.span.line > 0 && d.span.column > 0).then_some(d.span.column),
        }
    }

    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        dict.set_item("severity", self.severity)?;
        dict.set_item("code", self.code)?;
        dict.set_item("message", &self.message)?;
        dict.set_item("line", self.line)?;
        dict.set_item("column", self.column)?;
        Ok(dict)
    }
}

fn dicts<'py>(py: Python<'py>, diags: &[Diag]) -> PyResult<Bound<'py, PyList>> {
    let items = diags
        .iter()
        .map(|d| d.to_dict(py))
        .collect::<PyResult<Vec<_>>>()?;
    PyList::new(py, items)
}

/// What `to_text` gives: the text, the encoding the page was read in and
/// why, its title and language, and what was lost on the way.
#[pyclass(module = "pagetext", name = "TextResult", frozen)]
struct TextResult {
    text: String,
    encoding: &'static str,
    source: &'static str,
    title: Option<String>,
    lang: Option<String>,
    detected: Option<htmlio::lang::Detected>,
    main_content: Option<htmlio::ingest::main_content::MainContent>,
    diagnostics: Vec<Diag>,
}

#[pymethods]
impl TextResult {
    /// The page in the text format.
    #[getter]
    fn text(&self) -> &str {
        &self.text
    }

    /// The encoding's WHATWG name (`windows-1252`, `UTF-8`, `Shift_JIS`...).
    #[getter]
    fn encoding(&self) -> &'static str {
        self.encoding
    }

    /// Which step decided the encoding: `bom`, `transport` (the
    /// `content_type` charset), `meta`, `meta-confirmed`, `meta-changed`,
    /// `xml-declaration`, `autodetected`, `default`, `user-default`...
    #[getter]
    fn source(&self) -> &'static str {
        self.source
    }

    /// The page's `<title>`, or None.
    #[getter]
    fn title(&self) -> Option<&str> {
        self.title.as_deref()
    }

    /// The page's language as the page declares it (`lang`), or None.
    #[getter]
    fn lang(&self) -> Option<&str> {
        self.lang.as_deref()
    }

    /// The language of the page's text as detected (a BCP 47 primary
    /// subtag: `en`, `fr`, `zh`...), or None when the text has too few
    /// letters to tell or detection was not asked for.
    #[getter]
    fn detected_lang(&self) -> Option<&str> {
        self.detected.as_ref().map(|d| d.code.as_str())
    }

    /// The detector's confidence in `detected_lang`, from 0 to 1, or None.
    #[getter]
    fn detected_lang_confidence(&self) -> Option<f64> {
        self.detected.as_ref().map(|d| d.confidence)
    }

    /// With `main_content=True`, what was kept and dropped, as a dict:
    /// `element` (the element that holds the article, or None when no part
    /// stood out and the whole page was kept), `line`, `dropped` (how many
    /// parts), `dropped_kinds` (how many of each kind: `nav`, `footer`,
    /// `link-list`, `low-text`...), `dropped_chars`, `kept_chars`; else
    /// None.
    #[getter]
    fn main_content<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(m) = &self.main_content else {
            return Ok(None);
        };
        let dict = PyDict::new(py);
        dict.set_item("element", m.root.as_ref().map(|(name, _)| name.as_str()))?;
        dict.set_item("line", m.root.as_ref().map(|(_, line)| *line))?;
        dict.set_item("dropped", m.dropped_count())?;
        let kinds = PyDict::new(py);
        for (kind, n) in &m.dropped {
            kinds.set_item(*kind, *n)?;
        }
        dict.set_item("dropped_kinds", kinds)?;
        dict.set_item("dropped_chars", m.dropped_chars)?;
        dict.set_item("kept_chars", m.kept_chars)?;
        Ok(Some(dict))
    }

    /// What was lost or changed, as dicts with `severity` (`error`,
    /// `warning`, `note`, the command line's words), `code`, `message`,
    /// `line` (of the page, or None) and `column` (or None).
    #[getter]
    fn diagnostics<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        dicts(py, &self.diagnostics)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let title = match &self.title {
            Some(title) => py_repr(py, title)?,
            None => "None".to_owned(),
        };
        Ok(format!(
            "TextResult(encoding={}, source={}, title={title}, {} characters of text, {} diagnostics)",
            py_repr(py, self.encoding)?,
            py_repr(py, self.source)?,
            self.text.chars().count(),
            self.diagnostics.len()
        ))
    }
}

/// A string as Python's `repr` writes it (`'x'`, with Python's quoting and
/// escapes), for the results' `__repr__`.
fn py_repr(py: Python<'_>, s: &str) -> PyResult<String> {
    PyString::new(py, s).repr()?.extract::<String>()
}

fn encoding_for(label: &str) -> PyResult<&'static encoding_rs::Encoding> {
    encoding_rs::Encoding::for_label(label.trim().as_bytes())
        .ok_or_else(|| PyValueError::new_err(format!("unknown encoding label: {label:?}")))
}

/// Converts a web page (bytes, in any charset) to the text format.
///
/// `content_type` is the HTTP Content-Type value: its charset is the
/// transport layer's. `base_url` is the page's address: relative links are
/// resolved against it. `default_encoding` is the encoding to assume when
/// nothing declares one (in place of autodetection). With `seed`, the text
/// is pure seed text, which any reader of the seed's format reads exactly:
/// images become their alternative text, and nothing is escaped or
/// declared (the CLI's `--seed`). With `detect_language` (the default),
/// the language of the page's text is detected too (`detected_lang`).
/// With `main_content`, only the page's main content is kept (the CLI's
/// `--main-content`), and `main_content` says what was dropped. With
/// `format="plain"`, the text is plain text: what a reader sees, with no
/// markup and no header (the CLI's `--format plain`); with
/// `format="markdown"`, CommonMark with GFM tables.
// One Rust argument per Python keyword argument: pyo3 maps them one to one.
#[allow(clippy::too_many_arguments)]
#[pyfunction]
#[pyo3(signature = (data, *, content_type=None, base_url=None, default_encoding=None, seed=false, detect_language=true, main_content=false, format="text"))]
fn to_text(
    py: Python<'_>,
    data: &[u8],
    content_type: Option<&str>,
    base_url: Option<&str>,
    default_encoding: Option<&str>,
    seed: bool,
    detect_language: bool,
    main_content: bool,
    format: &str,
) -> PyResult<TextResult> {
    let format = match format {
        "text" => htmlio::TextFormat::Text,
        "plain" => htmlio::TextFormat::Plain,
        "markdown" => htmlio::TextFormat::Markdown,
        other => {
            return Err(PyValueError::new_err(format!(
                "format {other:?}: \"text\" (the text format), \"plain\" (what a reader sees, no markup) or \"markdown\" (CommonMark)"
            )));
        }
    };
    let default = default_encoding.map(encoding_for).transpose()?;
    let address = base_url
        .map(|url| {
            microsyntax::url::Url::parse(url)
                .map_err(|e| PyValueError::new_err(format!("base_url {url:?}: {e}")))
        })
        .transpose()?;
    let mut hints = ::sniff::Hints::default().with_user_default(default);
    if let Some(value) = content_type {
        hints = hints.with_content_type(value.as_bytes());
    }
    let ingest = htmlio::ingest::Options {
        hints,
        address: address.as_ref(),
        main_content,
        ..htmlio::ingest::Options::default()
    };
    let options = htmlio::TextOptions {
        ingest,
        escapes: if seed {
            wikitext::Escapes::Never
        } else {
            wikitext::Escapes::WhenNeeded
        },
        detect_language,
        format,
    };
    let page = py.detach(|| htmlio::to_text(data, &options));
    let diagnostics: Vec<Diag> = page
        .diagnostics()
        .map(|d| d.either(Diag::of, Diag::of))
        .collect();
    Ok(TextResult {
        text: page.text,
        encoding: page.encoding.encoding.name(),
        source: page.source,
        title: page.title,
        lang: page.lang,
        detected: page.detected_lang,
        main_content: page.main_content,
        diagnostics,
    })
}

/// What `to_xhtml` gives: the XHTML bytes, their encoding, and what the
/// parser and emission had to say.
#[pyclass(module = "pagetext", name = "XhtmlResult", frozen)]
struct XhtmlResult {
    xhtml: Vec<u8>,
    encoding: &'static str,
    diagnostics: Vec<Diag>,
}

#[pymethods]
impl XhtmlResult {
    /// The XHTML, as bytes in `encoding`.
    #[getter]
    fn xhtml<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.xhtml)
    }

    /// The encoding's WHATWG name: the one asked for, or UTF-8 when that
    /// one cannot be written (UTF-16, `replacement`, x-user-defined).
    #[getter]
    fn encoding(&self) -> &'static str {
        self.encoding
    }

    /// The parser's diagnostics (the header, block structure) and
    /// emission's (characters written as references or replaced, anchors
    /// renamed...), by line, as dicts like `TextResult.diagnostics` with
    /// `line` the line of the text (None for the output as a whole).
    #[getter]
    fn diagnostics<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        dicts(py, &self.diagnostics)
    }

    /// `bytes(result)` is the XHTML.
    fn __bytes__<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        self.xhtml(py)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "XhtmlResult(encoding={}, {} bytes, {} diagnostics)",
            py_repr(py, self.encoding)?,
            self.xhtml.len(),
            self.diagnostics.len()
        ))
    }
}

/// Converts text in the text format to XHTML 1.0 bytes in `encoding`
/// (characters it lacks become character references). With `tables`, an
/// emulated table (a grid-shaped compact definition list) becomes a
/// `<table>`. With `doctype`, the XHTML begins with the XHTML 1.0
/// Transitional DOCTYPE (browsers then render it in standards mode; the
/// seed's default has none). With `onto`, the bytes of the page the text
/// was read from, the text is written onto that page instead
/// (`htmlio::onto`): only what was edited changes, in the page's own
/// charset and syntax, and an unchanged text gives back the page's bytes;
/// `encoding`, `tables` and `doctype` are then refused. The result holds
/// the bytes and the diagnostics.
#[pyfunction]
#[pyo3(signature = (text, *, encoding=None, tables=false, doctype=false, onto=None))]
fn to_xhtml(
    py: Python<'_>,
    text: String,
    encoding: Option<&str>,
    tables: bool,
    doctype: bool,
    onto: Option<Vec<u8>>,
) -> PyResult<XhtmlResult> {
    if let Some(page) = onto {
        if encoding.is_some() || tables || doctype {
            return Err(PyValueError::new_err(
                "onto keeps the page's own charset, tables and DOCTYPE: encoding, tables and \
                 doctype cannot be given with it",
            ));
        }
        let saved = py.detach(|| htmlio::onto::onto(&page, &text, &htmlio::TextOptions::default()));
        let mut diagnostics: Vec<Diag> = saved.parsed.iter().map(Diag::of).collect();
        diagnostics.extend(saved.diagnostics.iter().map(Diag::of));
        return Ok(XhtmlResult {
            xhtml: saved.bytes,
            encoding: saved.encoding.name(),
            diagnostics,
        });
    }
    let encoding = encoding.unwrap_or("utf-8");
    let options = htmlio::emit::EmitOptions {
        encoding: encoding_for(encoding)?,
        syntax: htmlio::emit::Syntax::Xhtml,
        tables,
        source_lines: false,
        doctype,
    };
    let out = py.detach(|| htmlio::to_xhtml(&text, &options));
    let mut diagnostics: Vec<Diag> = out.parsed.iter().map(Diag::of).collect();
    diagnostics.extend(out.emitted.diagnostics.iter().map(Diag::of));
    // Stable: within a line, the parser's first.
    diagnostics.sort_by_key(|d| d.line.unwrap_or(0));
    Ok(XhtmlResult {
        xhtml: out.emitted.bytes,
        encoding: out.emitted.encoding.name(),
        diagnostics,
    })
}

/// Which encoding a page is in, how sure that is, and why: a dict with
/// `encoding`, `confidence` (`certain` or `tentative`) and `source`.
#[pyfunction]
#[pyo3(name = "sniff", signature = (data, content_type=None))]
fn sniff_encoding<'py>(
    py: Python<'py>,
    data: &[u8],
    content_type: Option<&str>,
) -> PyResult<Bound<'py, PyDict>> {
    let mut hints = ::sniff::Hints::default();
    if let Some(value) = content_type {
        hints = hints.with_content_type(value.as_bytes());
    }
    let settled = py.detach(|| htmlio::ingest::settle_encoding(data, &hints));
    let dict = PyDict::new(py);
    dict.set_item("encoding", settled.encoding.name())?;
    dict.set_item("confidence", settled.confidence.to_string())?;
    dict.set_item("source", settled.source_kind())?;
    Ok(dict)
}

/// Checks text in the text format: the parser's diagnostics, links to
/// anchors that do not exist, near misses (text one character away from
/// markup), and what writing it back would change. A list of dicts, as
/// `TextResult.diagnostics`, with `line` the line of the text.
#[pyfunction]
fn check<'py>(py: Python<'py>, text: String) -> PyResult<Bound<'py, PyList>> {
    let diags: Vec<Diag> = py.detach(|| wikitext::check(&text).iter().map(Diag::of).collect());
    dicts(py, &diags)
}

/// The extension module.
#[pymodule]
fn _pagetext(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<TextResult>()?;
    m.add_class::<XhtmlResult>()?;
    m.add_function(wrap_pyfunction!(to_text, m)?)?;
    m.add_function(wrap_pyfunction!(to_xhtml, m)?)?;
    m.add_function(wrap_pyfunction!(sniff_encoding, m)?)?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
