//! HTML in and out of the pagetext document model: ingestion of real-world HTML
//! (through `sniff` and html5ever) and emission of XHTML 1.0 or HTML syntax.
//!
//! This is the only crate that knows HTML elements. It never prints and never
//! touches files; the CLI does that.
//!
//! One call does each conversion, the whole recipe: [`to_text`] (a page's
//! bytes, ingested, then written by `wikitext` under ingestion's
//! [`ingest::POLICY`]) and [`to_xhtml`] (text to markup). The modules below
//! are the steps, for callers that need one of them alone.
//!
//! ```
//! let page = htmlio::to_text(
//!     b"<html lang=en><title>Hi</title><p>Some <i>text</i> &amp; more<script>x()</script>",
//!     &htmlio::TextOptions::default(),
//! );
//! assert_eq!(page.text, "#Title Hi\n#Lang en\n\nSome _text_ & more\n");
//! assert_eq!(page.encoding.encoding, htmlio::encoding_rs::WINDOWS_1252);
//! assert_eq!(page.summary.ballast.get("script"), Some(&1));
//!
//! let back = htmlio::to_xhtml(&page.text, &htmlio::emit::EmitOptions::default());
//! assert!(back.emitted.text.contains("<p>Some <em>text</em> &amp; more</p>"));
//! assert!(back.parsed.is_empty() && back.emitted.diagnostics.is_empty());
//! ```
//!
//! - [`emit`]: a document as XHTML 1.0 (no DOCTYPE, polyglot, valid
//!   against the XHTML 1.0 Transitional DTD) or in the HTML
//!   syntax, in UTF-8 or any encoding encoding_rs can write. The emitter
//!   consumes [`wikitext::events`]: straight from the text with
//!   [`emit::emit_text`] (no tree), or from a [`wikitext::Document`] with
//!   [`emit::emit`].
//! - [`ingest`]: real-world HTML in any charset (through `sniff` and
//!   html5ever) into a [`wikitext::Document`], ballast stripped, every loss
//!   reported; its module docs hold the mapping table for every element.
//! - [`serialize`]: the HTML syntax serializer of seed 003 (and an XML-syntax
//!   writer) over a small token and node model of its own; it also passes the
//!   html5lib serializer suites (`cargo xtask conformance`).
//!
//! ```
//! use htmlio::emit::{self, EmitOptions, Syntax};
//!
//! let parsed = wikitext::parse("#Title Hello\n\nSome _text_ & more.\n");
//! let xhtml = emit::xhtml(&parsed.document);
//! assert!(xhtml.text.contains("<title>Hello</title>"));
//! assert!(xhtml.text.contains("<p>Some <em>text</em> &amp; more.</p>"));
//!
//! let html = emit::emit(
//!     &parsed.document,
//!     &EmitOptions {
//!         encoding: htmlio::encoding_rs::WINDOWS_1252,
//!         syntax: Syntax::Html { omit_optional_tags: true },
//!         tables: false,
//!         source_lines: false,
//!         doctype: false,
//!     },
//! );
//! assert!(html.text.starts_with("<!DOCTYPE html>\n<meta charset=\"windows-1252\">\n"));
//! assert!(html.text.ends_with("<p>Some <em>text</em> &amp; more.\n"));
//! ```
//!
//! # Element mapping (seed 000, "Textual Representation of HTML")
//!
//! | model | XHTML |
//! |---|---|
//! | `#Title` | `<title>` (always present, empty when there is no `#Title`) |
//! | `#Lang` | `lang` and `xml:lang` on `<html>` |
//! | `#Meta:name content` | `<meta name="name" content="content" />` |
//! | `#Link:rel:rel href title` | `<link rel="rel rel" href="href" title="title" />` |
//! | heading level n | `<hn>` |
//! | paragraph | `<p>`, its source lines separated by newlines |
//! | bare text block (an item's text) | the text itself, without an element |
//! | preformatted text | `<pre>`, lines separated by newlines |
//! | horizontal rule | `<hr />` |
//! | blockquote section | `<blockquote>` |
//! | unordered list | `<ul>` of `<li>` |
//! | ordered list | `<ol>` of `<li>`; `type="a"` / `type="A"` for letter bullets |
//! | definition list | `<dl>` (`compact="compact"` when its first item is compact); a `<dt>` per term, a `<dd>` per definition |
//! | `_emphasis_`, `*strong*`, `'sample'` | `<em>`, `<strong>`, `<code>` |
//! | `[URL\|Fragment\|text]` | `<a href="URL">`; an anchor adds `name` and `id` with the same value |
//! | `<local@domain>` | `<a href="mailto:local@domain">local@domain</a>` |
//!
//! The head is `<meta http-equiv="Content-Type" content="text/html;
//! charset=NAME" />` first (inside the encoding prescan's window), then the
//! title, the metas and the links. Output other than UTF-8 starts with an
//! XML declaration naming the encoding, and characters the encoding lacks
//! are written as numeric character references.
//!
//! # Layout
//!
//! Deterministic and readable, so that diffs of generated pages stay small;
//! no indentation, so that the text inside elements is exactly the
//! document's text:
//!
//! - `<html>`, `<head>`, each element of the head, `</head>`, `<body>`,
//!   `</body>` and `</html>` are on lines of their own;
//! - each block of the body, of a blockquote and of a list starts a line and
//!   is followed by a newline; `<ul>`, `<ol>`, `<dl>` and `<blockquote>` are
//!   followed by a newline and their end tag starts a line;
//! - `<li>`, `<dt>` and `<dd>` start a line and keep their text on it; the
//!   blocks inside an item are separated by newlines, and a newline comes
//!   before `</li>` or `</dd>` when the item ends with a list, a definition
//!   list or a blockquote;
//! - inside paragraphs, headings and terms, the only newlines are the
//!   document's line divisions.
//!
//! ```text
//! <body>
//! <h1>A Simple HTML Document</h1>
//! <p>This HTML document is just an example and is used to
//! demonstrate some features such as:</p>
//! <ul>
//! <li>second item
//! <ul>
//! <li>third item</li>
//! </ul>
//! </li>
//! </ul>
//! <hr />
//! </body>
//! ```
//!
//! The HTML syntax has the same layout after `<!DOCTYPE html>`, with a
//! `<meta charset>` and without `xmlns` and `xml:lang`; when optional tags are
//! omitted, so are the newlines that would be left on lines of their own.

mod convert;
pub mod emit;
pub mod hrefs;
pub mod ingest;
pub mod lang;
pub mod names;
pub mod onto;
pub mod serialize;

pub use convert::{PageDiagnostic, TextFormat, TextOptions, TextPage, to_text, to_xhtml};

/// The encoding crate whose encodings [`emit::EmitOptions`] and
/// [`serialize::encode`] take.
pub use encoding_rs;
