//! The XML syntax writer, for XHTML that HTML parsers read the same way
//! (polyglot markup): every element closed, void elements as `<br />`,
//! attribute values always in double quotes.

use super::TokenSink;
use super::elements::is_void;
use super::escape;
use super::token::{Doctype, Namespace, StartTag, Token};

/// Writes a token stream as XHTML (XML syntax), one token at a time.
///
/// - A void HTML element is written `<br />` (with the space, as XHTML 1.0
///   Appendix C asks) and its end tag, if pushed, is dropped.
/// - Any other element gets its end tag when it is pushed; a self-closing
///   foreign element is written `<circle />`, a self-closing non-void HTML
///   element `<p></p>` (an HTML parser would not close `<p />`).
/// - Text escapes `&`, `<`, `>` (and CR as `&#13;`); attribute values escape
///   `&`, `<`, `>`, `"` and tab, LF, CR. There is no raw text in XML, so
///   `script` and `style` are escaped like any element.
/// - Layout white space is written like text.
///
/// Characters XML forbids are not checked here: the caller removes them.
///
/// ```
/// use htmlio::serialize::{Attribute, Token, TokenSink, XhtmlSerializer};
///
/// let mut s = XhtmlSerializer::new();
/// s.push(Token::start_with("a", vec![Attribute::new("href", "?a=1&b=2")]));
/// s.push(Token::text("x < y"));
/// s.push(Token::end("a"));
/// s.push(Token::start("br"));
/// assert_eq!(s.finish(), r#"<a href="?a=1&amp;b=2">x &lt; y</a><br />"#);
/// ```
#[derive(Debug, Default)]
pub struct XhtmlSerializer {
    out: String,
}

impl XhtmlSerializer {
    /// An empty serializer.
    pub fn new() -> Self {
        XhtmlSerializer::default()
    }

    /// A serializer that appends to `out` (for a prologue written first).
    pub fn with_buffer(out: String) -> Self {
        XhtmlSerializer { out }
    }

    /// Returns the markup.
    pub fn finish(self) -> String {
        self.out
    }

    fn write_start(&mut self, tag: &StartTag<'_>) {
        let html = tag.namespace == Namespace::Html;
        self.out.push('<');
        self.out.push_str(&tag.name);
        for attr in &tag.attributes {
            self.out.push(' ');
            self.out.push_str(&attr.name);
            self.out.push_str("=\"");
            escape::xml_attribute(&mut self.out, &attr.value);
            self.out.push('"');
        }
        if html && is_void(&tag.name) || !html && tag.self_closing {
            self.out.push_str(" />");
        } else if tag.self_closing {
            self.out.push_str("></");
            self.out.push_str(&tag.name);
            self.out.push('>');
        } else {
            self.out.push('>');
        }
    }

    fn write_doctype(&mut self, d: &Doctype<'_>) {
        self.out.push_str("<!DOCTYPE ");
        self.out.push_str(&d.name);
        let public = d.public_id.as_deref().filter(|p| !p.is_empty());
        let system = d.system_id.as_deref().filter(|s| !s.is_empty());
        if let Some(public) = public {
            self.out.push_str(" PUBLIC \"");
            self.out.push_str(public);
            self.out.push('"');
        } else if system.is_some() {
            self.out.push_str(" SYSTEM");
        }
        if let Some(system) = system {
            let quote = if system.contains('"') { '\'' } else { '"' };
            self.out.push(' ');
            self.out.push(quote);
            self.out.push_str(system);
            self.out.push(quote);
        }
        self.out.push('>');
    }
}

impl<'a> TokenSink<'a> for XhtmlSerializer {
    fn push(&mut self, token: Token<'a>) {
        match token {
            Token::Doctype(d) => self.write_doctype(&d),
            Token::StartTag(tag) => self.write_start(&tag),
            Token::EndTag(tag) => {
                if !(tag.namespace == Namespace::Html && is_void(&tag.name)) {
                    self.out.push_str("</");
                    self.out.push_str(&tag.name);
                    self.out.push('>');
                }
            }
            Token::Text(text) | Token::Layout(text) => escape::xml_text(&mut self.out, &text),
            Token::Comment(text) => {
                self.out.push_str("<!--");
                self.out.push_str(&text);
                self.out.push_str("-->");
            }
        }
    }

    // The common tokens without building them (the same output as `push`).

    fn start(&mut self, name: &'static str) {
        self.out.push('<');
        self.out.push_str(name);
        self.out.push_str(if is_void(name) { " />" } else { ">" });
    }

    fn end(&mut self, name: &'static str) {
        if !is_void(name) {
            self.out.push_str("</");
            self.out.push_str(name);
            self.out.push('>');
        }
    }

    fn text(&mut self, text: std::borrow::Cow<'a, str>) {
        escape::xml_text(&mut self.out, &text);
    }

    fn layout(&mut self, text: &'static str) {
        escape::xml_text(&mut self.out, text);
    }
}
