//! The emitter's state and the head of the document (seed 000, "Textual
//! Representation of HTML": the mapping of the header to XHTML 1.0). The
//! body comes as events and is handled in `body.rs`.
//!
//! Nothing here recurses: the open elements are an explicit stack, so the
//! depth of the document never reaches the call stack.

use std::borrow::Cow;
use std::collections::HashSet;

use wikitext::events::Positioned;
use wikitext::{Metadata, Pos, Severity, Span};

use super::check::clean;
use super::{Code, Diagnostic, Syntax};
use crate::names::is_nmtoken;
use crate::serialize::{Attribute, Doctype, Token, TokenSink};

const NL: &str = "\n";

/// How the blocks of a container are laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Flow {
    /// `body` and `blockquote`: every block is followed by a newline.
    Lines,
    /// `li` and `dd`: blocks are separated by newlines; a newline precedes the
    /// end tag only when the last block is a container.
    Item,
}

/// What the last block written in a container was, for the layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Last {
    /// Bare text (no element).
    Text,
    /// A blockquote, list or definition list.
    Container,
    /// Anything else.
    Other,
}

/// An open element of the body.
#[derive(Debug)]
pub(super) struct Open {
    /// The end event that closes it.
    pub(super) end: wikitext::events::TagEnd,
    /// The end tag to write (none for bare text and links written as text).
    pub(super) name: Option<&'static str>,
    /// For the body, blockquotes, items and definitions: how their blocks
    /// are laid out, and the last one written.
    pub(super) flow: Option<Flow>,
    pub(super) last: Option<Last>,
    /// Lists and definition lists start when their first content comes:
    /// one without any is left out. Attributes of the start tag wait here.
    pub(super) started: bool,
    pub(super) attrs: Option<&'static str>,
    /// Definition list items: whether a term or a definition came.
    pub(super) terms: bool,
    pub(super) definition: bool,
    /// Definition lists: the last item had terms and no definition; it
    /// gets an empty `dd` if another item follows.
    pub(super) empty_dd: bool,
    /// Tables: the `tbody` its rows go in was started (XHTML's parsers
    /// and HTML's then build the same tree).
    pub(super) tbody: bool,
    /// Tables: how many of the rows still to come go in the `thead`
    /// (`rows::head_rows`), and whether it was started.
    pub(super) head_left: usize,
    pub(super) thead: bool,
    pub(super) pos: Pos,
}

impl Open {
    pub(super) fn new(end: wikitext::events::TagEnd, name: Option<&'static str>, pos: Pos) -> Open {
        Open {
            end,
            name,
            flow: None,
            last: None,
            started: true,
            attrs: None,
            terms: false,
            definition: false,
            empty_dd: false,
            tbody: false,
            head_left: 0,
            thead: false,
            pos,
        }
    }
}

pub(crate) struct Walker<'d, S> {
    sink: S,
    pub(super) syntax: Syntax,
    pub(crate) diagnostics: Vec<Diagnostic>,
    pub(super) ids: HashSet<Cow<'d, str>>,
    /// Links open (and written) around the current event.
    pub(super) link_depth: usize,
    /// The open elements of the body, the body itself at the bottom.
    pub(super) open: Vec<Open>,
    /// A `pre` start tag was the last token: the position of its block.
    pub(super) pre_opened: Option<Pos>,
    /// Strings may hold characters XML forbids (`false` when the whole
    /// source is known to hold none).
    pub(crate) check_chars: bool,
    /// Write grid-shaped compact definition lists as tables
    /// ([`EmitOptions::tables`](super::EmitOptions::tables)).
    pub(crate) tables: bool,
    /// Mark block elements with their source line
    /// ([`EmitOptions::source_lines`](super::EmitOptions::source_lines)).
    pub(crate) source_lines: bool,
    /// Begin XHTML with its DOCTYPE
    /// ([`EmitOptions::doctype`](super::EmitOptions::doctype)).
    pub(crate) doctype: bool,
    /// The image whose alternative text is being collected.
    pub(super) image: Option<Pending<'d>>,
    /// For each table still to come in the events being written, in order,
    /// how many of its rows go in a `thead` (`rows::head_rows`).
    pub(super) head_rows: std::collections::VecDeque<usize>,
}

/// An image whose start came and whose end has not: its attributes, and
/// its alternative text so far.
pub(super) struct Pending<'d> {
    pub(super) src: Cow<'d, str>,
    pub(super) title: Option<Cow<'d, str>>,
    pub(super) size: (Option<u32>, Option<u32>),
    pub(super) alt: String,
    /// Elements open inside the alternative text.
    pub(super) depth: usize,
    pub(super) pos: Pos,
}

impl<'d, S: TokenSink<'d>> Walker<'d, S> {
    pub(crate) fn new(sink: S, syntax: Syntax) -> Self {
        Walker {
            sink,
            syntax,
            diagnostics: Vec::new(),
            ids: HashSet::new(),
            link_depth: 0,
            open: Vec::new(),
            pre_opened: None,
            check_chars: true,
            tables: false,
            source_lines: false,
            doctype: false,
            image: None,
            head_rows: std::collections::VecDeque::new(),
        }
    }

    pub(crate) fn into_sink(self) -> S {
        self.sink
    }

    pub(super) fn report(&mut self, code: Code, severity: Severity, message: String, pos: Pos) {
        self.diagnostics
            .push(Diagnostic::new(code, severity, message, Span::at(pos)));
    }

    /// A string from the document, with the characters XML forbids replaced.
    pub(super) fn cleaned(
        &mut self,
        s: impl Into<Cow<'d, str>>,
        what: &str,
        pos: Pos,
    ) -> Cow<'d, str> {
        let s = s.into();
        if !self.check_chars {
            return s;
        }
        let fixed = match clean(&s) {
            (_, 0) => None,
            (cleaned, replaced) => Some((cleaned.into_owned(), replaced)),
        };
        match fixed {
            None => s,
            Some((cleaned, replaced)) => {
                self.forbidden(replaced, what, pos);
                Cow::Owned(cleaned)
            }
        }
    }

    /// Reports characters replaced because XML forbids them.
    pub(super) fn forbidden(&mut self, replaced: usize, what: &str, pos: Pos) {
        self.report(
            Code::ForbiddenCharacter,
            Severity::Warning,
            format!("{replaced} character(s) that XML 1.0 forbids in {what} replaced with U+FFFD"),
            pos,
        );
    }

    /// Every token goes out through `push` or the quicker `start`, `end`,
    /// `layout` and `text`, which all look here first: `text` is the text of
    /// a text token (`None` for any other token).
    fn seen(&mut self, text: Option<&str>) {
        let Some(pos) = self.pre_opened else {
            return;
        };
        // HTML parsers drop a newline that comes right after `<pre>`; the
        // HTML serializer writes an extra one, but XML has no such escape.
        match text {
            Some("") => {}
            Some(t) => {
                self.pre_opened = None;
                if t.starts_with('\n') && self.syntax == Syntax::Xhtml {
                    self.report(
                        Code::LeadingNewlineInPre,
                        Severity::Warning,
                        "preformatted text starts with a line break, which HTML parsers drop"
                            .to_owned(),
                        pos,
                    );
                }
            }
            None => self.pre_opened = None,
        }
    }

    pub(super) fn push(&mut self, token: Token<'d>) {
        match &token {
            Token::Text(t) => self.seen(Some(t)),
            _ => self.seen(None),
        }
        self.sink.push(token);
    }

    pub(super) fn layout(&mut self) {
        self.seen(None);
        self.sink.layout(NL);
    }

    pub(super) fn start(&mut self, name: &'static str) {
        self.seen(None);
        self.sink.start(name);
    }

    /// The start tag of a block element that begins at `pos`: marked with
    /// its source line when [`Walker::source_lines`] asks for it and the
    /// line is known.
    pub(super) fn start_block(&mut self, name: &'static str, pos: Pos) {
        if self.source_lines && pos.line > 0 {
            let line = Attribute::new("data-line", pos.line.to_string());
            self.push(Token::start_with(name, vec![line]));
        } else {
            self.start(name);
        }
    }

    pub(super) fn end(&mut self, name: &'static str) {
        self.seen(None);
        self.sink.end(name);
    }

    /// A line division: a newline in the element (nothing to clean).
    pub(super) fn line_break(&mut self) {
        self.seen(Some(NL));
        self.sink.text(Cow::Borrowed(NL));
    }

    /// Text, cleaned of what XML forbids.
    pub(super) fn text(&mut self, text: impl Into<Cow<'d, str>>, pos: Pos) {
        let text = self.cleaned(text, "text", pos);
        self.seen(Some(&text));
        self.sink.text(text);
    }

    // ---- the document ---------------------------------------------------

    /// Seed 000 §"Meta Data", in the XHTML profile of the module docs: the
    /// root, the head and the body.
    pub(crate) fn document(
        &mut self,
        meta: &'d Metadata,
        events: impl IntoIterator<Item = Positioned<'d>>,
        charset: &'static str,
    ) {
        let xhtml = self.syntax == Syntax::Xhtml;
        if !xhtml {
            // Seed 003 §"The DOCTYPE".
            self.push(Token::Doctype(Doctype::html()));
            self.layout();
        } else if self.doctype {
            self.push(Token::Doctype(Doctype::xhtml1_transitional()));
            self.layout();
        }
        let mut html_attrs = Vec::new();
        if xhtml {
            html_attrs.push(Attribute::new("xmlns", "http://www.w3.org/1999/xhtml"));
        }
        if let Some(lang) = &meta.lang {
            let lang = self.cleaned(lang.as_str(), "the language", Pos::UNKNOWN);
            if !is_nmtoken(&lang) {
                self.report(
                    Code::InvalidLanguage,
                    Severity::Warning,
                    format!("language {lang:?} is not a language code (an XML name token)"),
                    Pos::UNKNOWN,
                );
            }
            html_attrs.push(Attribute::new("lang", lang.clone()));
            if xhtml {
                html_attrs.push(Attribute::new("xml:lang", lang));
            }
        }
        self.push(Token::start_with("html", html_attrs));
        self.layout();
        self.start("head");
        self.layout();
        // The encoding declaration comes first, inside the prescan's window.
        if xhtml {
            self.push(Token::start_with(
                "meta",
                vec![
                    Attribute::new("http-equiv", "Content-Type"),
                    Attribute::new("content", format!("text/html; charset={charset}")),
                ],
            ));
        } else {
            self.push(Token::start_with(
                "meta",
                vec![Attribute::new("charset", charset)],
            ));
        }
        self.layout();
        // `#Title`: always present, as the DTD requires.
        self.start("title");
        if let Some(title) = &meta.title {
            self.text(title.as_str(), Pos::UNKNOWN);
        }
        self.end("title");
        self.layout();
        // `#Meta:name content`
        for meta in &meta.metas {
            let name = self.cleaned(meta.name.as_str(), "a meta name", meta.pos);
            let content = self.cleaned(meta.content.as_str(), "a meta content", meta.pos);
            self.push(Token::start_with(
                "meta",
                vec![
                    Attribute::new("name", name),
                    Attribute::new("content", content),
                ],
            ));
            self.layout();
        }
        // `#Link:rel:rel href title`
        for link in &meta.links {
            if let Some(scheme) = crate::ingest::url::unsafe_scheme_of(&link.href) {
                self.report(
                    Code::UnsafeLink,
                    Severity::Warning,
                    format!("{scheme}: `#Link:` line left out: its URL could run a script"),
                    link.pos,
                );
                continue;
            }
            let mut attrs = Vec::new();
            if !link.rel.is_empty() {
                let rel = link.rel.join(" ");
                let rel = self.cleaned(rel, "a link rel", link.pos);
                attrs.push(Attribute::new("rel", rel));
            }
            attrs.push(Attribute::new(
                "href",
                self.cleaned(link.href.as_str(), "a link href", link.pos),
            ));
            if let Some(title) = &link.title {
                attrs.push(Attribute::new(
                    "title",
                    self.cleaned(title.as_str(), "a link title", link.pos),
                ));
            }
            self.push(Token::start_with("link", attrs));
            self.layout();
        }
        self.end("head");
        self.layout();
        self.start("body");
        self.layout();
        self.body(events);
        self.end("body");
        self.layout();
        self.end("html");
        self.layout();
    }
}
