//! The HTML syntax writer (seed 003 "Writing HTML documents").

use std::borrow::Cow;
use std::collections::HashMap;

use super::TokenSink;
use super::elements::{
    drops_leading_newline, is_boolean_attribute, is_raw_text, is_void, keeps_whitespace,
};
use super::escape::{self, AttrEscapes};
use super::optional::{self, Next, Parent};
use super::token::{Attribute, Doctype, EndTag, Namespace, StartTag, Token, is_space};

/// How attribute values are written (seed 003 §"Attributes": unquoted,
/// single-quoted or double-quoted syntax; the empty attribute syntax is
/// [`HtmlOptions::minimize_boolean_attributes`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AttrQuoting {
    /// Always quoted, with [`HtmlOptions::quote_char`].
    #[default]
    Always,
    /// Unquoted when the value is not empty and has none of the space
    /// characters, `"`, `'`, `=`, `>` and `` ` ``; a `<` in an unquoted value is
    /// written `&lt;` (the unquoted syntax forbids it literally). Otherwise
    /// quoted as with [`AttrQuoting::Always`].
    WhenPossible,
    /// Whichever of the three syntaxes writes the fewest characters, escaping
    /// only what that syntax requires (`&` only where it could start a
    /// character reference). Ties prefer unquoted, then double quotes.
    Shortest,
}

/// Which quote character quoted attribute values use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum QuoteChar {
    /// `"`, with `"` in the value written `&quot;`.
    #[default]
    Double,
    /// `'`, with `'` in the value written `&#39;`.
    Single,
    /// `'` when the value has a `"` and no `'`, else `"`: no reference needed
    /// whenever one of the two avoids it.
    Best,
}

/// Options of the HTML syntax writer. [`HtmlOptions::default`] keeps every
/// tag and double-quotes every value; [`HtmlOptions::html5lib`] gives the
/// defaults of html5lib's serializer.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct HtmlOptions {
    /// Leave out start and end tags where the optional-tag rules allow it.
    pub omit_optional_tags: bool,
    /// The attribute value syntax.
    pub quoting: AttrQuoting,
    /// The quote character of quoted values.
    pub quote_char: QuoteChar,
    /// Write a boolean attribute whose value is empty or its own name with the
    /// empty attribute syntax (`<button disabled>`).
    pub minimize_boolean_attributes: bool,
    /// Write void elements as `<br />` instead of `<br>`.
    pub trailing_solidus: bool,
    /// Write `<` in quoted attribute values as `&lt;`.
    pub escape_lt_in_attrs: bool,
    /// Escape `&`, `<` and `>` in raw text elements (`script`, `style`...),
    /// although parsers will not decode them there.
    pub escape_raw_text: bool,
    /// Collapse each run of space characters in text to one space, except
    /// inside `pre`, `textarea`, `listing` and raw text elements.
    pub strip_whitespace: bool,
    /// Write the attributes of each tag sorted by name.
    pub sort_attributes: bool,
    /// Declare this character encoding in the `head`: every `<meta charset>`
    /// and `<meta http-equiv=content-type content>` of the `head` is rewritten
    /// to name it, and if there is none, `<meta charset=NAME>` is inserted as
    /// the first child of the `head`.
    pub inject_meta_charset: Option<String>,
}

impl HtmlOptions {
    /// The defaults of html5lib's `HTMLSerializer`: optional tags omitted,
    /// values unquoted where possible with the best quote character
    /// otherwise, boolean attributes minimized.
    pub fn html5lib() -> Self {
        HtmlOptions {
            omit_optional_tags: true,
            quoting: AttrQuoting::WhenPossible,
            quote_char: QuoteChar::Best,
            minimize_boolean_attributes: true,
            ..HtmlOptions::default()
        }
    }
}

/// A tag whose fate waits for the next significant token.
#[derive(Debug)]
enum Pending<'a> {
    Start {
        tag: StartTag<'a>,
        after_omitted_end: Option<Cow<'a, str>>,
    },
    End {
        tag: EndTag<'a>,
        parent: Option<(Cow<'a, str>, Namespace)>,
    },
}

/// Writes a token stream in the HTML syntax, one token at a time.
///
/// The stream need not be balanced; end tags that close nothing are written
/// as they come. Void elements never get an end tag. Tags are decided with a
/// look-ahead of one significant token, so the output of a token may appear
/// only when the next one is pushed or at [`HtmlSerializer::finish`].
///
/// ```
/// use htmlio::serialize::{HtmlOptions, HtmlSerializer, Token, TokenSink};
///
/// let mut s = HtmlSerializer::new(HtmlOptions { omit_optional_tags: true, ..HtmlOptions::default() });
/// for t in [Token::start("ul"), Token::start("li"), Token::text("one"), Token::end("li"),
///           Token::start("li"), Token::text("two"), Token::end("li"), Token::end("ul")] {
///     s.push(t);
/// }
/// assert_eq!(s.finish(), "<ul><li>one<li>two</ul>");
/// ```
#[derive(Debug)]
pub struct HtmlSerializer<'a> {
    opts: HtmlOptions,
    out: String,
    /// The open elements: name and namespace.
    stack: Vec<(Cow<'a, str>, Namespace)>,
    /// How many elements of each (lowercased) name and namespace are open, so
    /// that an end tag that closes nothing costs no scan of the stack.
    open: HashMap<(Cow<'a, str>, Namespace), usize>,
    /// How many open elements keep their white space.
    keep_ws_depth: usize,
    pending: Option<Pending<'a>>,
    /// Layout white space seen after the pending tag.
    held: Vec<Cow<'a, str>>,
    /// The last thing written was the start tag of `pre`, `textarea` or `listing`.
    after_newline_sensitive_start: bool,
    /// `inject_meta_charset`: the head's tokens, from its start tag on.
    head: Option<Vec<Token<'a>>>,
    head_done: bool,
}

impl<'a> TokenSink<'a> for HtmlSerializer<'a> {
    fn push(&mut self, token: Token<'a>) {
        if self.opts.inject_meta_charset.is_some() {
            self.inject(token);
        } else {
            self.process(token);
        }
    }
}

impl<'a> HtmlSerializer<'a> {
    /// A serializer with these options.
    pub fn new(opts: HtmlOptions) -> Self {
        HtmlSerializer {
            opts,
            out: String::new(),
            stack: Vec::new(),
            open: HashMap::new(),
            keep_ws_depth: 0,
            pending: None,
            held: Vec::new(),
            after_newline_sensitive_start: false,
            head: None,
            head_done: false,
        }
    }

    /// A serializer that writes into `out` (whose contents are kept), so a
    /// caller can reuse a buffer or write a prologue first.
    pub fn with_buffer(opts: HtmlOptions, out: String) -> Self {
        HtmlSerializer {
            out,
            ..HtmlSerializer::new(opts)
        }
    }

    /// Writes whatever is still held back and returns the markup.
    pub fn finish(mut self) -> String {
        if let Some(head) = self.head.take() {
            self.flush_head(head);
        }
        if let Some(p) = self.pending.take() {
            self.settle(p, Next::Eof);
        }
        self.out
    }

    // ---- inject_meta_charset -------------------------------------------

    fn inject(&mut self, token: Token<'a>) {
        if let Some(head) = self.head.as_mut() {
            let closes_head = matches!(&token, Token::EndTag(e)
                if e.namespace == Namespace::Html && e.name.eq_ignore_ascii_case("head"));
            head.push(token);
            if closes_head && let Some(head) = self.head.take() {
                self.flush_head(head);
            }
            return;
        }
        let opens_head = !self.head_done
            && matches!(&token, Token::StartTag(t)
                if t.namespace == Namespace::Html && !t.self_closing
                    && t.name.eq_ignore_ascii_case("head"));
        if opens_head {
            self.head = Some(vec![token]);
        } else {
            self.process(token);
        }
    }

    /// Rewrites the buffered head so that it declares the encoding, then
    /// writes it.
    fn flush_head(&mut self, mut head: Vec<Token<'a>>) {
        self.head_done = true;
        let Some(charset) = self.opts.inject_meta_charset.clone() else {
            return;
        };
        let mut declared = false;
        for token in head.iter_mut().skip(1) {
            let Token::StartTag(t) = token else { continue };
            if t.namespace != Namespace::Html || !t.name.eq_ignore_ascii_case("meta") {
                continue;
            }
            if let Some(a) = t
                .attributes
                .iter_mut()
                .find(|a| a.name.eq_ignore_ascii_case("charset"))
            {
                a.value = Cow::Owned(charset.clone());
                declared = true;
                continue;
            }
            let is_content_type = t.attributes.iter().any(|a| {
                a.name.eq_ignore_ascii_case("http-equiv")
                    && a.value.eq_ignore_ascii_case("content-type")
            });
            if is_content_type
                && let Some(a) = t
                    .attributes
                    .iter_mut()
                    .find(|a| a.name.eq_ignore_ascii_case("content"))
            {
                a.value = Cow::Owned(format!("text/html; charset={charset}"));
                declared = true;
            }
        }
        let mut tokens = head.into_iter();
        if let Some(first) = tokens.next() {
            self.process(first);
        }
        if !declared {
            self.process(Token::start_with(
                "meta",
                vec![Attribute::new("charset", charset)],
            ));
        }
        for token in tokens {
            self.process(token);
        }
    }

    // ---- the stream ----------------------------------------------------

    fn process(&mut self, token: Token<'a>) {
        let token = match token {
            Token::Text(t) | Token::Layout(t) if t.is_empty() => return,
            Token::Layout(t) if !t.chars().all(is_space) => Token::Text(t),
            Token::EndTag(e) if e.namespace == Namespace::Html && is_void(&e.name) => return,
            other => other,
        };
        if let Token::Layout(text) = token {
            if self.pending.is_some() {
                self.held.push(text);
            } else {
                self.write_text_raw(&text);
            }
            return;
        }
        let after_omitted_end = match self.pending.take() {
            Some(p) => self.settle(p, next_of(&token)),
            None => None,
        };
        let omit = self.opts.omit_optional_tags;
        match token {
            Token::Doctype(d) => self.write_doctype(&d),
            Token::Comment(c) => {
                self.after_newline_sensitive_start = false;
                self.out.push_str("<!--");
                self.out.push_str(&c);
                self.out.push_str("-->");
            }
            Token::Text(t) => self.write_text(&t),
            Token::Layout(t) => self.write_text_raw(&t),
            Token::StartTag(tag) => {
                let html = tag.namespace == Namespace::Html;
                if !(tag.self_closing || html && is_void(&tag.name)) {
                    if keeps_whitespace(&tag.name) {
                        self.keep_ws_depth += 1;
                    }
                    *self
                        .open
                        .entry((lowercase(&tag.name), tag.namespace))
                        .or_default() += 1;
                    self.stack.push((tag.name.clone(), tag.namespace));
                }
                if omit
                    && html
                    && tag.attributes.is_empty()
                    && optional::has_optional_start(&tag.name)
                {
                    self.pending = Some(Pending::Start {
                        tag,
                        after_omitted_end,
                    });
                } else {
                    self.write_start(tag);
                }
            }
            Token::EndTag(tag) => {
                self.pop_to(&tag);
                let html = tag.namespace == Namespace::Html;
                if omit && html && optional::has_optional_end(&tag.name) {
                    let parent = self.stack.last().cloned();
                    self.pending = Some(Pending::End { tag, parent });
                } else {
                    self.write_end(&tag);
                }
            }
        }
    }

    /// Pops the open elements down to and including the one `tag` closes, if
    /// it is open. The scan stops at that element, and everything it passes
    /// is popped, so the total work is linear in the number of tags.
    fn pop_to(&mut self, tag: &EndTag<'_>) {
        let key = (lowercase(&tag.name), tag.namespace);
        if self.open.get(&key).is_none_or(|&n| n == 0) {
            return;
        }
        let found = self
            .stack
            .iter()
            .rposition(|(n, ns)| *ns == tag.namespace && n.eq_ignore_ascii_case(&tag.name));
        if let Some(i) = found {
            for (name, ns) in self.stack.drain(i..) {
                if keeps_whitespace(&name) {
                    self.keep_ws_depth = self.keep_ws_depth.saturating_sub(1);
                }
                if let Some(n) = self.open.get_mut(&(lowercase(&name), ns)) {
                    *n = n.saturating_sub(1);
                }
            }
        }
    }

    /// Writes or drops the pending tag now that `next` is known, then the
    /// layout held behind it. Returns the name of an end tag it dropped.
    ///
    /// When the tag is left out and the output already ends a line, a
    /// newline that starts the held layout is dropped too, so that omitted
    /// tags do not leave blank lines behind.
    fn settle(&mut self, pending: Pending<'a>, next: Next<'_>) -> Option<Cow<'a, str>> {
        let (omitted, dropped_end) = match pending {
            Pending::Start {
                tag,
                after_omitted_end,
            } => {
                if optional::may_omit_start(&tag.name, next, after_omitted_end.as_deref()) {
                    (true, None)
                } else {
                    self.write_start(tag);
                    (false, None)
                }
            }
            Pending::End { tag, parent } => {
                let parent = match &parent {
                    None => Parent::Unknown,
                    Some((name, Namespace::Html)) => Parent::Html(name),
                    Some(_) => Parent::Foreign,
                };
                if optional::may_omit_end(&tag.name, next, parent) {
                    (true, Some(tag.name))
                } else {
                    self.write_end(&tag);
                    (false, None)
                }
            }
        };
        let mut line_ended = omitted && (self.out.is_empty() || self.out.ends_with('\n'));
        for text in std::mem::take(&mut self.held) {
            let text = match text.strip_prefix('\n') {
                Some(rest) if line_ended => rest,
                _ => &text,
            };
            line_ended = false;
            if !text.is_empty() {
                self.write_text_raw(text);
            }
        }
        dropped_end
    }

    // ---- writing -------------------------------------------------------

    fn write_doctype(&mut self, d: &Doctype<'_>) {
        // Seed 003 §"The DOCTYPE"; identifiers as in the legacy forms.
        self.after_newline_sensitive_start = false;
        self.out.push_str("<!DOCTYPE ");
        self.out.push_str(&d.name);
        let public = d.public_id.as_deref().filter(|p| !p.is_empty());
        let system = d.system_id.as_deref().filter(|s| !s.is_empty());
        if let Some(public) = public {
            self.out.push_str(" PUBLIC ");
            push_quoted_id(&mut self.out, public);
            if let Some(system) = system {
                self.out.push(' ');
                push_quoted_id(&mut self.out, system);
            }
        } else if let Some(system) = system {
            self.out.push_str(" SYSTEM ");
            push_quoted_id(&mut self.out, system);
        }
        self.out.push('>');
    }

    fn write_start(&mut self, mut tag: StartTag<'a>) {
        // Seed 003 §"Start tags" steps 1-7.
        let html = tag.namespace == Namespace::Html;
        self.out.push('<');
        self.out.push_str(&tag.name);
        if self.opts.sort_attributes {
            tag.attributes.sort_by(|a, b| a.name.cmp(&b.name));
        }
        for attr in &tag.attributes {
            self.out.push(' ');
            self.write_attribute(attr, html);
        }
        if !html && tag.self_closing {
            // Step 6: a foreign element's start tag marked self-closing.
            self.out
                .push_str(if tag.attributes.is_empty() { "/" } else { " /" });
        } else if html && is_void(&tag.name) && self.opts.trailing_solidus {
            // Step 6: allowed on void elements, without effect.
            self.out.push_str(" /");
        }
        self.out.push('>');
        self.after_newline_sensitive_start =
            html && !tag.self_closing && drops_leading_newline(&tag.name);
    }

    fn write_end(&mut self, tag: &EndTag<'_>) {
        // Seed 003 §"End tags" steps 1-5.
        self.after_newline_sensitive_start = false;
        self.out.push_str("</");
        self.out.push_str(&tag.name);
        self.out.push('>');
    }

    fn write_attribute(&mut self, attr: &Attribute<'_>, html: bool) {
        let (name, value) = (&*attr.name, &*attr.value);
        self.out.push_str(name);
        if html
            && self.opts.minimize_boolean_attributes
            && is_boolean_attribute(name)
            && (value.is_empty() || value.eq_ignore_ascii_case(name))
        {
            // The empty attribute syntax.
            return;
        }
        self.out.push('=');
        match self.opts.quoting {
            AttrQuoting::Always => self.write_quoted(value),
            AttrQuoting::WhenPossible => {
                let unquotable = !value.is_empty()
                    && !value
                        .chars()
                        .any(|c| is_space(c) || matches!(c, '"' | '\'' | '=' | '>' | '`'));
                if unquotable {
                    let e = AttrEscapes {
                        all_ampersands: true,
                        lt: true,
                        gt: true,
                        double_quote: true,
                        single_quote: true,
                        unquoted_specials: true,
                    };
                    escape::html_attribute(&mut self.out, value, e);
                } else {
                    self.write_quoted(value);
                }
            }
            AttrQuoting::Shortest => write_shortest(&mut self.out, value),
        }
    }

    fn write_quoted(&mut self, value: &str) {
        let quote = match self.opts.quote_char {
            QuoteChar::Double => '"',
            QuoteChar::Single => '\'',
            QuoteChar::Best => {
                if value.contains('"') && !value.contains('\'') {
                    '\''
                } else {
                    '"'
                }
            }
        };
        let e = AttrEscapes {
            all_ampersands: true,
            lt: self.opts.escape_lt_in_attrs,
            gt: true,
            double_quote: quote == '"',
            single_quote: quote == '\'',
            unquoted_specials: false,
        };
        self.out.push(quote);
        escape::html_attribute(&mut self.out, value, e);
        self.out.push(quote);
    }

    fn write_text(&mut self, text: &str) {
        let parent = self.stack.last();
        let raw = !self.opts.escape_raw_text
            && parent.is_some_and(|(name, ns)| *ns == Namespace::Html && is_raw_text(name));
        if self.after_newline_sensitive_start && text.starts_with('\n') {
            // Reference §"Restrictions on content models": the newline after
            // the start tag must be written when the content starts with one.
            self.out.push('\n');
        }
        self.after_newline_sensitive_start = false;
        let collapsed;
        let text = if self.opts.strip_whitespace && self.keep_ws_depth == 0 {
            collapsed = collapse_spaces(text);
            collapsed.as_str()
        } else {
            text
        };
        if raw {
            self.out.push_str(text);
        } else {
            escape::text(&mut self.out, text);
        }
    }

    /// Layout white space: written as it is.
    fn write_text_raw(&mut self, text: &str) {
        if self.after_newline_sensitive_start && text.starts_with('\n') {
            self.out.push('\n');
        }
        self.after_newline_sensitive_start = false;
        self.out.push_str(text);
    }
}

/// `name` in ASCII lowercase, borrowed when it already is.
fn lowercase<'n>(name: &Cow<'n, str>) -> Cow<'n, str> {
    if name.bytes().any(|b| b.is_ascii_uppercase()) {
        Cow::Owned(name.to_ascii_lowercase())
    } else {
        name.clone()
    }
}

/// What the optional-tag rules need to know about `token`.
fn next_of<'t>(token: &'t Token<'_>) -> Next<'t> {
    match token {
        Token::Doctype(_) => Next::Doctype,
        Token::StartTag(t) => Next::Start {
            name: &t.name,
            html: t.namespace == Namespace::Html,
        },
        Token::EndTag(t) => Next::End { name: &t.name },
        Token::Text(t) | Token::Layout(t) => Next::Text {
            leading_space: t.chars().next().is_some_and(is_space),
        },
        Token::Comment(_) => Next::Comment,
    }
}

/// Each run of space characters becomes one U+0020.
fn collapse_spaces(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_run = false;
    for c in text.chars() {
        if is_space(c) {
            if !in_run {
                out.push(' ');
            }
            in_run = true;
        } else {
            out.push(c);
            in_run = false;
        }
    }
    out
}

/// A DOCTYPE identifier in whichever quotes it does not contain.
fn push_quoted_id(out: &mut String, id: &str) {
    let quote = if id.contains('"') { '\'' } else { '"' };
    out.push(quote);
    out.push_str(id);
    out.push(quote);
}

/// [`AttrQuoting::Shortest`]: the shortest of the three value syntaxes.
fn write_shortest(out: &mut String, value: &str) {
    let minimal = AttrEscapes {
        all_ampersands: false,
        lt: false,
        gt: false,
        double_quote: false,
        single_quote: false,
        unquoted_specials: false,
    };
    let unquoted = AttrEscapes {
        lt: true,
        gt: true,
        double_quote: true,
        single_quote: true,
        unquoted_specials: true,
        ..minimal
    };
    let double = AttrEscapes {
        double_quote: true,
        ..minimal
    };
    let single = AttrEscapes {
        single_quote: true,
        ..minimal
    };
    let len_unquoted = if value.is_empty() {
        usize::MAX
    } else {
        escape::html_attribute_len(value, unquoted)
    };
    let len_double = 2 + escape::html_attribute_len(value, double);
    let len_single = 2 + escape::html_attribute_len(value, single);
    if len_unquoted <= len_double && len_unquoted <= len_single {
        escape::html_attribute(out, value, unquoted);
    } else if len_double <= len_single {
        out.push('"');
        escape::html_attribute(out, value, double);
        out.push('"');
    } else {
        out.push('\'');
        escape::html_attribute(out, value, single);
        out.push('\'');
    }
}
