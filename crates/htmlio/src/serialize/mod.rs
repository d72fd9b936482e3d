//! Serializers for the HTML syntax (seed 003, "Writing HTML documents") and
//! for XHTML in the XML syntax.
//!
//! Input is a stream of [`Token`]s (or a [`Node`] tree, walked into tokens by
//! [`tokens`]). Two writers implement [`TokenSink`]:
//!
//! - [`HtmlSerializer`]: the HTML syntax. DOCTYPE, void elements without end
//!   tags, raw text elements (`script`, `style`, ...) written literally,
//!   escapable raw text (`title`, `textarea`) and normal text escaped, the
//!   unquoted, single- and double-quoted attribute syntaxes
//!   ([`AttrQuoting`]), and optional tags left out on request
//!   ([`HtmlOptions::omit_optional_tags`]) exactly where seed 003 and the
//!   reference's optional-tag rules allow.
//! - [`XhtmlSerializer`]: XML syntax that HTML parsers read the same way.
//!
//! ```
//! use htmlio::serialize::{self, Element, HtmlOptions, Node};
//!
//! let doc = [
//!     Node::Doctype(serialize::Doctype::html()),
//!     Element::new("html")
//!         .child(Element::new("head").child(Element::new("title").text("Hi & bye")))
//!         .child(Element::new("body").child(Element::new("p").attr("class", "x y").text("a<b")))
//!         .into(),
//! ];
//! let opts = HtmlOptions { omit_optional_tags: true, ..HtmlOptions::default() };
//! assert_eq!(
//!     serialize::html(serialize::tokens(&doc), &opts),
//!     r#"<!DOCTYPE html><title>Hi &amp; bye</title><p class="x y">a&lt;b"#
//! );
//! ```

mod elements;
pub(crate) mod escape;
mod html;
mod optional;
mod token;
mod tree;
mod xml;

pub use elements::{is_boolean_attribute, is_raw_text, is_void};
pub use html::{AttrQuoting, HtmlOptions, HtmlSerializer, QuoteChar};
pub use token::{Attribute, Doctype, EndTag, Namespace, StartTag, Token};
pub use tree::{Element, Node, tokens};

use std::borrow::Cow;
pub use xml::XhtmlSerializer;

/// Something that takes tokens one at a time: the two serializers, or a
/// `Vec<Token>` that collects them.
pub trait TokenSink<'a> {
    /// Takes the next token.
    fn push(&mut self, token: Token<'a>);

    /// Takes the start tag of an HTML element without attributes:
    /// `push(Token::start(name))`, which a sink may do more quickly.
    fn start(&mut self, name: &'static str) {
        self.push(Token::start(name));
    }

    /// Takes the end tag of an HTML element: `push(Token::end(name))`,
    /// which a sink may do more quickly.
    fn end(&mut self, name: &'static str) {
        self.push(Token::end(name));
    }

    /// Takes text: `push(Token::Text(text))`, which a sink may do more
    /// quickly.
    fn text(&mut self, text: Cow<'a, str>) {
        self.push(Token::Text(text));
    }

    /// Takes layout white space: `push(Token::Layout(text))`, which a sink
    /// may do more quickly.
    fn layout(&mut self, text: &'static str) {
        self.push(Token::Layout(Cow::Borrowed(text)));
    }
}

impl<'a> TokenSink<'a> for Vec<Token<'a>> {
    fn push(&mut self, token: Token<'a>) {
        Vec::push(self, token);
    }
}

/// Writes `tokens` in the HTML syntax.
pub fn html<'a>(tokens: impl IntoIterator<Item = Token<'a>>, opts: &HtmlOptions) -> String {
    let mut s = HtmlSerializer::new(opts.clone());
    for token in tokens {
        s.push(token);
    }
    s.finish()
}

/// Writes `tokens` in the XML syntax (see [`XhtmlSerializer`]).
pub fn xhtml<'a>(tokens: impl IntoIterator<Item = Token<'a>>) -> String {
    let mut s = XhtmlSerializer::new();
    for token in tokens {
        s.push(token);
    }
    s.finish()
}

/// Encodes serialized markup in `encoding`, writing every character the
/// encoding cannot represent as a decimal numeric character reference
/// (`&#8364;`). Returns the bytes and the encoding actually used: encoding_rs
/// writes UTF-16 and the `replacement` encoding as UTF-8 (the Encoding
/// Standard's "output encoding"), so callers must name that one in the markup.
///
/// References are right in text and attribute values, which is where
/// serialized markup has its characters; in comments and raw text they would
/// be read literally.
pub fn encode<'t>(
    markup: &'t str,
    encoding: &'static encoding_rs::Encoding,
) -> (std::borrow::Cow<'t, [u8]>, &'static encoding_rs::Encoding) {
    let (bytes, used, _unmappable) = encoding.encode(markup);
    (bytes, used)
}
