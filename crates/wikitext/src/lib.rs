//! The textual representation of HTML documents (seed 000): the document
//! model, the parser (text to model) and the canonical writer (model to
//! text).
//!
//! This crate owns the text format and the model, and nothing else: it knows
//! nothing of HTML (mapping the model to and from markup is `htmlio`'s job),
//! does no I/O and never prints. Parsing and writing never fail; what they
//! have to say comes back as typed [`Diagnostic`]s.
//!
//! # Main types
//!
//! - [`parse`] reads text into a [`Parsed`]: a [`Document`] and diagnostics
//!   with line:column spans.
//! - [`Parser`] reads text as a stream of [events] instead, the way
//!   pulldown-cmark reads Markdown: balanced starts and ends, text borrowed
//!   from the input, no tree. [`parse`] builds its tree from these events
//!   ([`Document::from_events`]), and [`Document::events`] gives a tree's
//!   stream, so a consumer of events (such as `htmlio`'s emitter) takes
//!   either.
//! - A [`Document`] is [`Metadata`] (title, language, `meta` and `link`
//!   entries) and a body of [`Block`]s, which hold more blocks or runs of
//!   [`Inline`]s. Every node carries its source [`Pos`]; equality ignores
//!   positions. See [`model`].
//! - [`write()`] turns a document into canonical text: a [`Written`] with the
//!   text, diagnostics, and whether the text reads back exactly.
//! - [`dump::tree`] shows a document as an indented tree.
//! - [`hints`] lists near misses in a text: lines and words one character
//!   away from markup, which read as something their author probably did
//!   not mean (`= Title ==`, `foo*bar*`, three spaces inside a sentence),
//!   as warnings for `pagetext check` and editors.
//!
//! # Example: parse, inspect, write
//!
//! ```
//! use wikitext::{Block, Inline};
//!
//! let text = "#Title Notes\n\n= Notes =\n\n  * _one_\n  * [http://example.org/||two]\n";
//! let parsed = wikitext::parse(text);
//! assert!(parsed.diagnostics.is_empty());
//! let doc = parsed.document;
//! assert_eq!(doc.meta.title.as_deref(), Some("Notes"));
//!
//! // The body: a heading and a list of two items.
//! let Block::List { items, .. } = &doc.body[1] else { panic!("not a list") };
//! assert_eq!(items.len(), 2);
//! let Block::Text { content, .. } = &items[1].content[0] else { panic!("not text") };
//! let Inline::Link { url, .. } = &content[0] else { panic!("not a link") };
//! assert_eq!(url.as_deref(), Some("http://example.org/"));
//! // Positions: line 6, column 5 of the text.
//! assert_eq!(content[0].pos().to_string(), "6:5");
//!
//! // Writing gives canonical text that reads back as the same document.
//! let written = wikitext::write(&doc);
//! assert!(written.is_exact());
//! assert_eq!(wikitext::parse(&written.text).document, doc);
//! assert_eq!(
//!     written.text,
//!     "#Title Notes\n\n= Notes =\n\n  * _one_\n  * [http://example.org/||two]\n"
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # The format in brief
//!
//! *Header.* Every line up to the first empty line is metadata: `#Title
//! words`, `#Lang code`, `#Meta:name words`, `#Link:rel:rel href [title
//! words]` (first word case-insensitive), and the extensions' `#Escape \`
//! and `#Extend open` (below). A document without metadata starts
//! with an empty line.
//!
//! *Body.* Lines are read by indentation relative to the element they are
//! in: less indented lines close it, equally indented lines continue it,
//! more indented lines open something inside it.
//!
//! | Text | Block |
//! |---|---|
//! | lines separated by empty lines | paragraph (`<p>`), or bare text inside items |
//! | an indented line that is nothing else | preformatted text, up to a less indented line |
//! | `== Title ==` (1 to 6 `=`) | heading |
//! | four or more of one of `-=*+~_#^` | horizontal rule |
//! | indented `> ` | blockquote section |
//! | indented `* `, `- `, `+ ` | unordered list item |
//! | indented `1. `, `2) `, `a. `, `B) ` | ordered list item (digits, lower or upper letters) |
//! | `term::` then an indented definition | definition list item |
//! | `term   definition`, or a term line then an indented definition | compact definition list item |
//!
//! *Inlines.* `_emphasis_`, `*strong*`, `'sample text'`,
//! `[URL|Fragment|link text]`, `<local@domain.tld>`, with the seed's five
//! rules (no empty or white-space-edged content, only white space or ASCII
//! punctuation next to the markup, balanced brackets in link text, restricted
//! address characters).
//!
//! # Interpretations
//!
//! Where the seed is silent or ambiguous (it ends mid-sentence at
//! "Restrictions"), this crate decides as follows. Each point is tested by a
//! snapshot case under `testdata/wikitext/rules/` (named in brackets) or a
//! unit test.
//!
//! 1. *Paragraph or bare text.* At the top level every text block is a
//!    paragraph. Elsewhere (list items, blockquotes, definitions) a text
//!    block is a paragraph when an empty line comes right before it and an
//!    empty line, or the end of the input, right after it; otherwise it is
//!    bare text. The line with a bullet is never preceded by an empty line
//!    for this purpose. \[paragraph-or-text\]
//! 2. *Empty lines between terms and definition.* The seed requires the
//!    compact form's definition to follow "without an intervening empty
//!    line" but says no such thing of `term::`: empty lines may stand
//!    between `term::` lines and their definition (a definition starting
//!    after one may thus start with a paragraph). Terms themselves may not be
//!    separated by empty lines. \[term-empty-line-definition\]
//! 3. *Terms without definition* make an item whose definition is empty.
//!    \[term-without-definition\]
//! 4. *Compact term on its own line.* Any line of text directly followed by
//!    an indented line (that is not a list bullet) is a compact term, even if
//!    it ends a sentence; only that last line is the term, earlier lines stay
//!    a text block. \[compact-term-after-text, text-then-indented\]
//! 5. *`::` on a compact term.* `::` alone before the three spaces is an
//!    empty term. A longer term ending in `::`, which the seed says cannot
//!    be, keeps its colons as text (with an info diagnostic). White space at
//!    the end of a compact term is dropped. \[compact-term-colons\]
//! 6. *First line of a definition.* It is read unindented, like an item's
//!    first line: a `> ` there is text, not a blockquote; a list bullet there
//!    is a list after the terms, not a definition. \[definition-first-line\]
//! 7. *Tabs.* Every tab in a line's leading run of spaces and tabs counts
//!    eight columns. A tab may also separate a bullet (or the three spaces
//!    of a compact term) from the text; once the bullet is replaced by
//!    spaces that tab is leading too, so it counts eight. Tabs elsewhere are
//!    text. \[tabs\]
//! 8. *Bullets.* Ordered bullets are ASCII digits, or ASCII letters of one
//!    case (`xiv)` is lower-alpha, `e.g.` is no bullet), then `.` or `)`,
//!    then spaces or tabs. `*`, `-` and `+` are one type; `1.` and `2)` are
//!    one type. \[bullets, list-type-change\]
//! 9. *Headings* have 1 to 6 `=`; the title is not empty and neither starts
//!    nor ends with white space; the closing run is exactly as long as the
//!    opening one. \[headings\]
//! 10. *Header lines.* Words are joined with single spaces. `#Lang` takes
//!     exactly one word shaped like a BCP 47 tag (`en`, `de-CH`). `#Meta:`
//!     needs a name; `#Link:` needs an href; empty values in the rel list are
//!     dropped, so `#Link: x.css` has no rel. A second `#Title` or `#Lang`
//!     replaces the first. Every ignored line is a warning, and a header with
//!     no valid line at all gets a warning that the document probably lacks
//!     its leading empty line (the classic trap: the first paragraph read as
//!     a header and lost). \[header-lines, header-missing\]
//! 11. *Line ends and BOM.* LF, CRLF and a lone CR end lines; a UTF-8 BOM is
//!     dropped. \[crlf-bom\]
//! 12. *White space* is Unicode white space for trailing white space, for
//!     rule 2 and rule 3; indentation counts only spaces and tabs; the
//!     three-space pattern needs three U+0020.
//! 13. *Rule 3's character set* is exactly the ASCII punctuation; any letter
//!     or digit, ASCII or not, blocks markup (`é_x_` is text).
//!     \[inline-edge-cases\]
//! 14. *E-mail addresses*: letters and digits are Unicode alphanumerics; an
//!     address is atomic (its `_` is never emphasis). \[inline-edge-cases\]
//! 15. *Links.* The end is the `]` that balances the `[`; if that `]` breaks
//!     a rule, there is no link. Rule 2 applies to a non-empty link text. An
//!     empty link text becomes the URL, or the fragment when there is no URL,
//!     as plain text. \[inline-edge-cases; `inline` unit tests\]
//! 16. *The middle part is processed again* for every kind of sequence
//!     (seed step 3.2), so sample text and link text may hold emphasis.
//! 17. *Preformatted text* keeps indentation beyond its first line as
//!     leading spaces; empty lines belong to it only between its lines; in
//!     it, sample text and e-mail addresses are not recognised, emphasis,
//!     strong emphasis and links are. \[preformatted\]
//! 18. *Depth.* Blocks nest at most [`MAX_DEPTH`] deep (body = 1). At that
//!     depth no list item, blockquote, definition or compact item opens;
//!     such lines are text or preformatted text, with one warning.
//!     \[depth-limit\]
//!
//! Consequences of the seed's rules worth knowing: a sublist must be
//! indented more than its item's text (at the same column it is text)
//! \[nested-lists\]; blockquote sections are never merged
//! \[blockquotes-not-merged\]; only the first item makes a definition list
//! compact \[compact-first-item-decides\]; a line with three spaces inside
//! a paragraph starts a compact definition item.
//!
//! # The canonical layout
//!
//! [`write()`] lays text out the same way every time:
//!
//! - Header lines in the order `#Title`, `#Lang`, `#Meta:`, `#Link:`, then
//!   one empty line (also when there is no header).
//! - Top-level blocks are separated by one empty line. Inside items,
//!   blockquotes and definitions, empty lines appear only where the grammar
//!   needs them: around paragraphs, between text blocks, before preformatted
//!   text, a blockquote or a term after text, after a term without
//!   definition.
//! - List bullets and `>` stand two columns right of their container,
//!   followed by one space: `*` for unordered lists, `1.` `2.` ..., `a.` ...
//!   `z.` `aa.` ..., `A.` ... for ordered ones. Preformatted text is indented
//!   two columns. Where an indented block follows, the one before it is
//!   pushed right (more spaces after a bullet, deeper preformatted text) so
//!   that the next line closes it.
//! - Headings are `= Title =`; rules are ten `-`.
//! - Definitions of `term::` items are indented four columns. Compact lists
//!   write `term   definition`; when that line would read as something else,
//!   the term goes on its own line, or `::   definition` follows the terms.
//!   A definition list whose first line would look like a bullet where it
//!   stands gets an extra `::` line (empty terms are not part of the model).
//! - Inline markup as in the seed; a link whose text equals its URL (or its
//!   fragment, without URL) is written with an empty text, `[url||]`.
//!
//! What the format can hold is decided in one place, [`canon`]: it
//! repairs what is harmless, each repair reported at the node's own
//! position with severity info (white space at line edges, at the edges of
//! inline markup, and runs of three spaces; empty elements; code markup
//! inside preformatted text; characters a URL cannot hold here,
//! percent-encoded; line feeds inside text). It moves what cannot open a
//! container out of the way, with a warning: a blockquote that would open a
//! list item, blockquote or definition gives up its level (`> > > x` is
//! written `> x`), a list or preformatted text opening a blockquote is
//! written before it (Sphinx puts indented lists in blockquotes), and a list
//! opening a definition is written after its terms, the rest of the
//! definition following under an empty term (rule 6). Where the text of a
//! run or a line would read back as something else, the writer escapes it
//! (the escape extension below); where escapes are off ([`Escapes::Never`])
//! or cannot help (markup touching a letter), what the text reads as is
//! what is written, with an error at the node's position: a run is checked
//! with the inline parser alone, a line with the block scanners as it is
//! rendered, and only a top-level block with a doubtful line is read
//! again, on its own.
//!
//! Writing runs in one direction ([`canonicalize`], in `write.rs`):
//! `canon` repairs the document, `render` writes its text and marks the
//! doubtful top-level blocks, `readback` reads those again (with escapes, a
//! block that reads differently is rendered again with its doubtful lines
//! escaped); rarely, `canon` adopts what a block still reads as and the
//! result is rendered once more. Writing is a fixpoint for every
//! document: `write(parse(write(d)))` equals `write(d)`, and
//! [`Written::is_exact`] says whether nothing had to change; for every
//! document [`parse`] returns, the writer is exact. The whole-document
//! check `parse(write(d)) == canon(d)` is a debug assertion and a property
//! test, not part of release builds.
//!
//! # Escapes
//!
//! The seed's format has no escape, and real pages are full of its markup
//! characters (`__init__`, `'quoted'`). A document whose header holds the
//! line `#Escape \` (seed readers ignore unknown header lines) is read with
//! escapes: a backslash before a character that
//! [`grammar::is_escapable`] accepts makes that character plain text.
//! The writer declares the extension only when a run or a line needs an
//! escape, escapes only there, and keeps a declaration it was given; with
//! [`Escapes::Never`] it writes pure seed text. `docs/format.md` in the
//! repository has the whole story, with examples.
//!
//! ```
//! use wikitext::{Block, Document, Inline};
//! let doc = Document {
//!     body: vec![Block::paragraph(vec![Inline::text("Call __init__ or 'x'.")])],
//!     ..Document::default()
//! };
//! let written = wikitext::write(&doc);
//! assert!(written.is_exact());
//! assert_eq!(written.text, "#Escape \\\n\nCall \\_\\_init__ or \\'x'.\n");
//! let back = wikitext::parse(&written.text).document;
//! assert!(back.meta.escape);
//! assert_eq!(back.body, doc.body);
//! ```
//!
//! # Containers that open with a block
//!
//! The first line of a list item, blockquote or definition is read as text,
//! so the seed cannot write one whose first block is a list, preformatted
//! text or a blockquote. A document whose header holds `#Extend open`
//! (`#Extend` takes feature words: `open`, `image` for images, `table`
//! for tables; `docs/format.md`, sections 7 to 9) may
//! write it after a *bare opener*: a bullet or `>` alone on its line, or
//! `::` alone right after terms, followed by a line indented further than
//! the container's content ([`Metadata::open`]). Like `#Escape \`, the
//! writer declares it only where a container needs it, and never under
//! [`Escapes::Never`], where the seed's repairs apply instead.
//! `docs/format.md`, section 7, has the details.
//!
//! ```
//! use wikitext::{Block, Document, Inline, ListItem, ListKind};
//! let item = |b: Block| ListItem::new(vec![b]);
//! let inner = Block::list(ListKind::Unordered, vec![item(Block::text(vec![Inline::text("a")]))]);
//! let doc = Document {
//!     body: vec![Block::list(ListKind::Unordered, vec![item(inner)])],
//!     ..Document::default()
//! };
//! let written = wikitext::write(&doc);
//! assert!(written.is_exact());
//! assert_eq!(written.text, "#Extend open\n\n  *\n      * a\n");
//! assert_eq!(wikitext::parse(&written.text).document.body, doc.body);
//! ```
//!
//! # Linear time
//!
//! The block pass keeps open elements on an explicit stack and handles each
//! line in a bounded number of steps per element it opens or closes. The
//! inline pass scans each block's text once; the searches for ends use
//! tables built in one pass (see the `inline` module), and prefixes and
//! addresses are scanned only over characters that exclude their own start
//! character, so no two scans overlap. The writer's recursive walks are
//! bounded by [`MAX_DEPTH`] (deeper documents built by hand are flattened
//! first, with an error). `tests/pathological.rs` runs megabyte-sized runs
//! of markup characters, 100,000 levels of nesting and a 10 MB line.
//!
//! # Panics
//!
//! None of the public functions panics on any input: parsing, writing and
//! dumping are total. A panic would be a bug.
//!
//! # Spec mapping
//!
//! | Seed 000 section | Where |
//! |---|---|
//! | Meta Data | `header.rs`, `scan::header_line` |
//! | (the pull parser, events) | [`Parser`] (`pull.rs`), [`events`] |
//! | Body Part: preprocessing | `lines::split_lines` |
//! | Body Part: context, indentation, paragraphs | `block.rs` |
//! | Block-level Elements (each kind) | `block.rs`, scanners in `scan.rs` |
//! | Inline Elements, rules 1-5, steps 1-3 | `inline.rs` |
//! | (what the format holds) | `canon/` |
//! | (the escape extension) | reading: `escape.rs`; writing: `render/spell.rs`; [`grammar::is_escapable`] |
//! | (writing) | `write.rs` (the pipeline): `canon/`, then `render/`, then `readback.rs` |
//! | (markup for a text being edited: an image) | [`insert`] (the writer's spelling) |

mod block;
pub mod canon;
mod check;
pub mod diag;
pub mod dump;
mod escape;
pub mod events;
pub mod grammar;
mod grid;
mod header;
mod hints;
mod inline;
pub mod insert;
mod lines;
pub mod markdown;
pub mod model;
mod parse;
pub mod plain;
mod pull;
mod readback;
mod refs;
mod relink;
mod render;
mod scan;
mod tables;
mod walk;
mod write;

pub use canon::{Escapes, Policy, Silent, Touching};
pub use check::check;
pub use diag::{Code, Diagnostic, DiagnosticCode, Precision, Severity, Span};
pub use hints::hints;
pub use markdown::markdown;
pub use model::{
    Block, Cell, DefItem, Document, Inline, Link, ListItem, ListKind, MAX_DEPTH, Meta, Metadata,
    Numbering, Pos, Row, Term, push_text,
};
pub use parse::{Parsed, parse};
pub use plain::plain;
pub use pull::Parser;
pub use refs::{
    Dangling, References, dangling_references, finds_anchor, reference_diagnostics, references,
};
pub use relink::{Relinked, relink};
pub use walk::{
    Runs, depth, has_extended_inlines, has_figures, has_images, plain_text, prose_runs, runs,
};
pub use write::{Canonical, Canonicalized, Written, canonicalize, write, write_owned, write_with};
