//! The walk over a document that turns it into tokens (seed 000, "Textual
//! Representation of HTML": the mapping of each construct to XHTML 1.0).
//!
//! The walk keeps an explicit stack of frames, so the depth of the document
//! never reaches the call stack.

use std::borrow::Cow;
use std::collections::HashSet;
use std::slice;

use wikitext::{Block, DefItem, Document, Inline, ListItem, ListKind, Numbering, Pos, Severity};

use super::check::{clean, is_nmtoken, is_xml_name};
use super::{Code, Diagnostic, Syntax};
use crate::serialize::{Attribute, Doctype, Token, TokenSink};

const NL: &str = "\n";

/// How the blocks of a container are laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Flow {
    /// `body` and `blockquote`: every block is followed by a newline.
    Lines,
    /// `li` and `dd`: blocks are separated by newlines; a newline precedes the
    /// end tag only when the last block is a container.
    Item,
}

enum Frame<'d> {
    /// A token to push when the frame is reached (end tags, layout).
    Token(Token<'d>),
    /// The end of a link: its end tag, and one link level less.
    EndLink,
    Blocks {
        iter: slice::Iter<'d, Block>,
        flow: Flow,
        /// The last block written (blocks that write nothing do not count).
        last: Option<&'d Block>,
    },
    Items(slice::Iter<'d, ListItem>),
    DefItems(slice::Iter<'d, DefItem>),
    Inlines(slice::Iter<'d, Inline>),
    PreLines {
        iter: slice::Iter<'d, Vec<Inline>>,
        first: bool,
    },
}

/// Whether a block is written as a container: start tag, newline, children,
/// end tag on its own line.
fn is_container(block: &Block) -> bool {
    matches!(
        block,
        Block::Blockquote { .. } | Block::List { .. } | Block::DefinitionList { .. }
    )
}

/// Whether a block is left out of the output (a list without items, a
/// definition list without terms or definitions).
fn writes_nothing(block: &Block) -> bool {
    match block {
        Block::List { items, .. } => items.is_empty(),
        Block::DefinitionList { items, .. } => items
            .iter()
            .all(|i| i.terms.is_empty() && i.definition.is_empty()),
        _ => false,
    }
}

pub(crate) struct Walker<'d, S> {
    sink: S,
    syntax: Syntax,
    pub(crate) diagnostics: Vec<Diagnostic>,
    ids: HashSet<Cow<'d, str>>,
    link_depth: usize,
    stack: Vec<Frame<'d>>,
    /// A `pre` start tag was the last token: the position of its block.
    pre_opened: Option<Pos>,
}

impl<'d, S: TokenSink<'d>> Walker<'d, S> {
    pub(crate) fn new(sink: S, syntax: Syntax) -> Self {
        Walker {
            sink,
            syntax,
            diagnostics: Vec::new(),
            ids: HashSet::new(),
            link_depth: 0,
            stack: Vec::new(),
            pre_opened: None,
        }
    }

    pub(crate) fn into_sink(self) -> S {
        self.sink
    }

    fn report(&mut self, code: Code, severity: Severity, message: String, pos: Pos) {
        self.diagnostics.push(Diagnostic {
            code,
            severity,
            message,
            pos,
        });
    }

    /// A string from the document, with the characters XML forbids replaced.
    fn cleaned(&mut self, s: &'d str, what: &str, pos: Pos) -> Cow<'d, str> {
        let (s, replaced) = clean(s);
        if replaced > 0 {
            self.report(
                Code::ForbiddenCharacter,
                Severity::Warning,
                format!(
                    "{replaced} character(s) that XML 1.0 forbids in {what} replaced with U+FFFD"
                ),
                pos,
            );
        }
        s
    }

    /// Every token goes out through here.
    fn push(&mut self, token: Token<'d>) {
        if let Some(pos) = self.pre_opened {
            // HTML parsers drop a newline that comes right after `<pre>`; the
            // HTML serializer writes an extra one, but XML has no such escape.
            match &token {
                Token::Text(t) if t.is_empty() => {}
                Token::Text(t) => {
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
                _ => self.pre_opened = None,
            }
        }
        self.sink.push(token);
    }

    fn layout(&mut self) {
        self.push(Token::Layout(Cow::Borrowed(NL)));
    }

    fn start(&mut self, name: &'static str) {
        self.push(Token::start(name));
    }

    fn end(&mut self, name: &'static str) {
        self.push(Token::end(name));
    }

    fn text(&mut self, text: &'d str, pos: Pos) {
        let text = self.cleaned(text, "text", pos);
        self.push(Token::Text(text));
    }

    // ---- the document ---------------------------------------------------

    /// Seed 000 §"Meta Data" and DESIGN decision 2: the root, the head and the
    /// body.
    pub(crate) fn document(&mut self, doc: &'d Document, charset: &'static str) {
        let xhtml = self.syntax == Syntax::Xhtml;
        if !xhtml {
            // Seed 003 §"The DOCTYPE".
            self.push(Token::Doctype(Doctype::html()));
            self.layout();
        }
        let mut html_attrs = Vec::new();
        if xhtml {
            html_attrs.push(Attribute::new("xmlns", "http://www.w3.org/1999/xhtml"));
        }
        if let Some(lang) = &doc.meta.lang {
            let lang = self.cleaned(lang, "the language", Pos::UNKNOWN);
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
        if let Some(title) = &doc.meta.title {
            self.text(title, Pos::UNKNOWN);
        }
        self.end("title");
        self.layout();
        // `#Meta:name content`
        for meta in &doc.meta.metas {
            let name = self.cleaned(&meta.name, "a meta name", meta.pos);
            let content = self.cleaned(&meta.content, "a meta content", meta.pos);
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
        for link in &doc.meta.links {
            let mut attrs = Vec::new();
            if !link.rel.is_empty() {
                let rel = link.rel.join(" ");
                let (rel, replaced) = clean(&rel);
                let rel = rel.into_owned();
                if replaced > 0 {
                    self.report(
                        Code::ForbiddenCharacter,
                        Severity::Warning,
                        format!("{replaced} character(s) that XML 1.0 forbids in a link rel replaced with U+FFFD"),
                        link.pos,
                    );
                }
                attrs.push(Attribute::new("rel", rel));
            }
            attrs.push(Attribute::new(
                "href",
                self.cleaned(&link.href, "a link href", link.pos),
            ));
            if let Some(title) = &link.title {
                attrs.push(Attribute::new(
                    "title",
                    self.cleaned(title, "a link title", link.pos),
                ));
            }
            self.push(Token::start_with("link", attrs));
            self.layout();
        }
        self.end("head");
        self.layout();
        self.start("body");
        self.layout();
        self.stack.push(Frame::Token(Token::end("body")));
        self.stack.push(Frame::Blocks {
            iter: doc.body.iter(),
            flow: Flow::Lines,
            last: None,
        });
        self.run();
        self.layout();
        self.end("html");
        self.layout();
    }

    /// Runs the frames until the stack is empty.
    fn run(&mut self) {
        while let Some(frame) = self.stack.pop() {
            match frame {
                Frame::Token(t) => self.push(t),
                Frame::EndLink => {
                    self.link_depth = self.link_depth.saturating_sub(1);
                    self.end("a");
                }
                Frame::Blocks {
                    mut iter,
                    flow,
                    last,
                } => match iter.next() {
                    Some(block) if writes_nothing(block) => {
                        // Reported, and no layout around it.
                        self.block(block);
                        self.stack.push(Frame::Blocks { iter, flow, last });
                    }
                    Some(block) => {
                        if flow == Flow::Item && last.is_some() {
                            self.layout();
                        }
                        // Bare text right after bare text is set apart by an
                        // empty line, as in the text format, or the two would
                        // read back as one block with a line division.
                        if matches!(block, Block::Text { .. })
                            && matches!(last, Some(Block::Text { .. }))
                        {
                            self.layout();
                        }
                        self.stack.push(Frame::Blocks {
                            iter,
                            flow,
                            last: Some(block),
                        });
                        if flow == Flow::Lines {
                            self.stack.push(Frame::Token(Token::layout(NL)));
                        }
                        self.block(block);
                    }
                    None => {
                        if flow == Flow::Item && last.is_some_and(is_container) {
                            self.layout();
                        }
                    }
                },
                Frame::Items(mut iter) => {
                    if let Some(item) = iter.next() {
                        self.stack.push(Frame::Items(iter));
                        self.stack.push(Frame::Token(Token::layout(NL)));
                        self.stack.push(Frame::Token(Token::end("li")));
                        self.start("li");
                        self.item_blocks(&item.content);
                    }
                }
                Frame::DefItems(mut iter) => {
                    if let Some(item) = iter.next() {
                        let more = iter.len() > 0;
                        self.stack.push(Frame::DefItems(iter));
                        self.def_item(item, more);
                    }
                }
                Frame::Inlines(mut iter) => {
                    if let Some(inline) = iter.next() {
                        self.stack.push(Frame::Inlines(iter));
                        self.inline(inline);
                    }
                }
                Frame::PreLines { mut iter, first } => {
                    if let Some(line) = iter.next() {
                        self.stack.push(Frame::PreLines { iter, first: false });
                        if !first {
                            // Line ends inside `pre` are content, not layout.
                            self.push(Token::text(NL));
                        }
                        self.stack.push(Frame::Inlines(line.iter()));
                    }
                }
            }
        }
    }

    /// The blocks of a list item or definition.
    fn item_blocks(&mut self, blocks: &'d [Block]) {
        self.stack.push(Frame::Blocks {
            iter: blocks.iter(),
            flow: Flow::Item,
            last: None,
        });
    }

    /// Seed 000 §"Block-level Elements": one block. Pushes the frames that
    /// finish it.
    fn block(&mut self, block: &'d Block) {
        match block {
            Block::Paragraph { content, .. } => {
                self.start("p");
                self.stack.push(Frame::Token(Token::end("p")));
                self.stack.push(Frame::Inlines(content.iter()));
            }
            Block::Text { content, .. } => {
                self.stack.push(Frame::Inlines(content.iter()));
            }
            Block::Preformatted { lines, pos } => {
                self.start("pre");
                self.pre_opened = Some(*pos);
                self.stack.push(Frame::Token(Token::end("pre")));
                self.stack.push(Frame::PreLines {
                    iter: lines.iter(),
                    first: true,
                });
            }
            Block::Heading {
                level,
                content,
                pos,
            } => {
                let name = match level {
                    1 => "h1",
                    2 => "h2",
                    3 => "h3",
                    4 => "h4",
                    5 => "h5",
                    6 => "h6",
                    _ => {
                        let clamped = if *level == 0 { "h1" } else { "h6" };
                        self.report(
                            Code::InvalidHeadingLevel,
                            Severity::Warning,
                            format!("heading level {level} written as {clamped}"),
                            *pos,
                        );
                        clamped
                    }
                };
                self.start(name);
                self.stack.push(Frame::Token(Token::end(name)));
                self.stack.push(Frame::Inlines(content.iter()));
            }
            Block::Rule { .. } => {
                self.start("hr");
                self.end("hr");
            }
            Block::Blockquote { content, .. } => {
                self.start("blockquote");
                self.layout();
                self.stack.push(Frame::Token(Token::end("blockquote")));
                self.stack.push(Frame::Blocks {
                    iter: content.iter(),
                    flow: Flow::Lines,
                    last: None,
                });
            }
            Block::List { kind, items, pos } => {
                if writes_nothing(block) {
                    self.dropped("a list without items", *pos);
                    return;
                }
                let (name, numbering) = match kind {
                    ListKind::Unordered => ("ul", None),
                    ListKind::Ordered(Numbering::Decimal) => ("ol", None),
                    ListKind::Ordered(Numbering::LowerAlpha) => ("ol", Some("a")),
                    ListKind::Ordered(Numbering::UpperAlpha) => ("ol", Some("A")),
                };
                let attrs = numbering
                    .map(|t| vec![Attribute::new("type", t)])
                    .unwrap_or_default();
                self.push(Token::start_with(name, attrs));
                self.layout();
                self.stack.push(Frame::Token(Token::end(name)));
                self.stack.push(Frame::Items(items.iter()));
            }
            Block::DefinitionList {
                compact,
                items,
                pos,
            } => {
                if writes_nothing(block) {
                    self.dropped("a definition list without terms or definitions", *pos);
                    return;
                }
                let attrs = if *compact {
                    vec![Attribute::new("compact", "compact")]
                } else {
                    Vec::new()
                };
                self.push(Token::start_with("dl", attrs));
                self.layout();
                self.stack.push(Frame::Token(Token::end("dl")));
                self.stack.push(Frame::DefItems(items.iter()));
            }
        }
    }

    fn dropped(&mut self, what: &str, pos: Pos) {
        self.report(
            Code::EmptyElementDropped,
            Severity::Info,
            format!("{what} has no content and was left out"),
            pos,
        );
    }

    /// A definition list item: one `dt` per term, then the `dd`, each on its
    /// own line. Pushes frames in reverse order of output.
    ///
    /// A term without a definition followed by another item gets an empty
    /// `dd`: without it, its `dt` would join the next item's terms when the
    /// XHTML is read back (`<dt>a<dt>b<dd>x` is one item with two terms).
    fn def_item(&mut self, item: &'d DefItem, more: bool) {
        if item.definition.is_empty() && more && !item.terms.is_empty() {
            self.stack.push(Frame::Token(Token::layout(NL)));
            self.stack.push(Frame::Token(Token::end("dd")));
            self.stack.push(Frame::Token(Token::start("dd")));
        } else if !item.definition.is_empty() {
            self.stack.push(Frame::Token(Token::layout(NL)));
            self.stack.push(Frame::Token(Token::end("dd")));
            self.item_blocks(&item.definition);
            self.stack.push(Frame::Token(Token::start("dd")));
        }
        for term in item.terms.iter().rev() {
            self.stack.push(Frame::Token(Token::layout(NL)));
            self.stack.push(Frame::Token(Token::end("dt")));
            self.stack.push(Frame::Inlines(term.content.iter()));
            self.stack.push(Frame::Token(Token::start("dt")));
        }
    }

    /// Seed 000 §"Inline Elements": one inline.
    fn inline(&mut self, inline: &'d Inline) {
        match inline {
            Inline::Text { text, pos } => self.text(text, *pos),
            // DESIGN decision 3: a line division is a newline in the element.
            Inline::LineBreak { .. } => self.push(Token::text(NL)),
            Inline::Emphasis { content, .. } => self.wrap("em", content),
            Inline::Strong { content, .. } => self.wrap("strong", content),
            Inline::Code { content, .. } => self.wrap("code", content),
            Inline::Link {
                url,
                fragment,
                content,
                pos,
            } => self.link(url.as_deref(), fragment.as_deref(), content, *pos),
            Inline::Email { address, pos } => {
                let address = self.cleaned(address, "an e-mail address", *pos);
                if self.link_depth > 0 {
                    self.report(
                        Code::NestedLink,
                        Severity::Warning,
                        "an e-mail address inside a link text is written as its text".to_owned(),
                        *pos,
                    );
                    self.push(Token::Text(address));
                    return;
                }
                self.push(Token::start_with(
                    "a",
                    vec![Attribute::new("href", format!("mailto:{address}"))],
                ));
                self.push(Token::Text(address));
                self.end("a");
            }
        }
    }

    /// Seed 000 §"Inline Elements", link: `<a>` with `name` and `id` for a
    /// fragment, `href` for a URL.
    fn link(
        &mut self,
        url: Option<&'d str>,
        fragment: Option<&'d str>,
        content: &'d [Inline],
        pos: Pos,
    ) {
        if self.link_depth > 0 {
            // `a` cannot contain `a` (the DTD forbids it and an HTML
            // parser would split the outer link): keep the text only.
            self.report(
                Code::NestedLink,
                Severity::Warning,
                "a link inside a link text is written as its text".to_owned(),
                pos,
            );
            self.stack.push(Frame::Inlines(content.iter()));
            return;
        }
        let mut attrs = Vec::new();
        if let Some(fragment) = fragment {
            let fragment = self.cleaned(fragment, "an anchor name", pos);
            self.check_anchor(fragment.clone(), pos);
            // DESIGN decision 2: anchors carry `name` and `id`.
            attrs.push(Attribute::new("name", fragment.clone()));
            attrs.push(Attribute::new("id", fragment));
        }
        if let Some(url) = url {
            attrs.push(Attribute::new("href", self.cleaned(url, "a link URL", pos)));
        }
        self.push(Token::start_with("a", attrs));
        self.link_depth += 1;
        self.stack.push(Frame::EndLink);
        self.stack.push(Frame::Inlines(content.iter()));
    }

    fn wrap(&mut self, name: &'static str, content: &'d [Inline]) {
        self.start(name);
        self.stack.push(Frame::Token(Token::end(name)));
        self.stack.push(Frame::Inlines(content.iter()));
    }

    /// The XHTML 1.0 Transitional DTD types `id` as an XML `ID` (a `Name`,
    /// unique in the document) and `a/@name` as an `NMTOKEN`.
    fn check_anchor(&mut self, fragment: Cow<'d, str>, pos: Pos) {
        let problem = if !is_xml_name(&fragment) {
            Some(if is_nmtoken(&fragment) {
                "does not start with a letter, `_` or `:`"
            } else {
                "has characters an XML name cannot have"
            })
        } else if !self.ids.insert(fragment.clone()) {
            Some("is used by an earlier anchor")
        } else {
            None
        };
        if let Some(problem) = problem {
            self.report(
                Code::InvalidAnchor,
                Severity::Warning,
                format!(
                    "anchor name {fragment:?} {problem}: kept as it is, but the XHTML is not valid against the DTD"
                ),
                pos,
            );
        }
    }
}
