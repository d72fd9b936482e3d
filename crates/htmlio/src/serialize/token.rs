//! The token model the serializers consume: a flat, balanced-or-not stream of
//! doctype, start tag, end tag, text, comment and layout tokens.

use std::borrow::Cow;

/// The namespace of an element. Only HTML elements follow the optional-tag
/// rules; SVG and MathML ("foreign") elements may be self-closing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum Namespace {
    /// `http://www.w3.org/1999/xhtml`
    #[default]
    Html,
    /// `http://www.w3.org/2000/svg`
    Svg,
    /// `http://www.w3.org/1998/Math/MathML`
    MathMl,
}

impl Namespace {
    /// The namespace URI.
    pub fn uri(self) -> &'static str {
        match self {
            Namespace::Html => "http://www.w3.org/1999/xhtml",
            Namespace::Svg => "http://www.w3.org/2000/svg",
            Namespace::MathMl => "http://www.w3.org/1998/Math/MathML",
        }
    }

    /// The namespace with this URI, if it is one of the three.
    pub fn from_uri(uri: &str) -> Option<Namespace> {
        [Namespace::Html, Namespace::Svg, Namespace::MathMl]
            .into_iter()
            .find(|ns| ns.uri() == uri)
    }
}

/// One attribute: its name as written (qualified names such as `xml:lang` or
/// `xlink:href` included) and its value (unescaped).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Attribute<'a> {
    /// The name as it is to be written.
    pub name: Cow<'a, str>,
    /// The value, before any escaping.
    pub value: Cow<'a, str>,
}

impl<'a> Attribute<'a> {
    /// An attribute from anything string-like.
    pub fn new(name: impl Into<Cow<'a, str>>, value: impl Into<Cow<'a, str>>) -> Self {
        Attribute {
            name: name.into(),
            value: value.into(),
        }
    }
}

/// A start tag.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct StartTag<'a> {
    /// The tag name (lowercase for HTML elements).
    pub name: Cow<'a, str>,
    /// The element's namespace.
    pub namespace: Namespace,
    /// The attributes, in order.
    pub attributes: Vec<Attribute<'a>>,
    /// No content and no end tag follow. Void elements are always treated so.
    /// A foreign element is then written `<name/>`; an HTML element that is
    /// not void is written as a plain start tag (the HTML syntax cannot close
    /// it) and the serializers do not expect its end tag.
    pub self_closing: bool,
}

/// An end tag.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct EndTag<'a> {
    /// The tag name.
    pub name: Cow<'a, str>,
    /// The element's namespace.
    pub namespace: Namespace,
}

/// A DOCTYPE: `<!DOCTYPE name PUBLIC "public" "system">` with the identifiers
/// present only when given.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Doctype<'a> {
    /// The root element name, `html` for the seed's `<!DOCTYPE html>`.
    pub name: Cow<'a, str>,
    /// The public identifier, if any.
    pub public_id: Option<Cow<'a, str>>,
    /// The system identifier, if any.
    pub system_id: Option<Cow<'a, str>>,
}

impl Doctype<'static> {
    /// Seed 003 §"The DOCTYPE": `<!DOCTYPE html>`.
    pub fn html() -> Self {
        Doctype {
            name: Cow::Borrowed("html"),
            public_id: None,
            system_id: None,
        }
    }

    /// The document type declaration of XHTML 1.0 Transitional (XHTML 1.0
    /// §3.1.1, and its DTD's formal public identifier).
    pub fn xhtml1_transitional() -> Self {
        Doctype {
            name: Cow::Borrowed("html"),
            public_id: Some(Cow::Borrowed("-//W3C//DTD XHTML 1.0 Transitional//EN")),
            system_id: Some(Cow::Borrowed(
                "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd",
            )),
        }
    }
}

/// One token of the stream a serializer writes.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Token<'a> {
    /// A DOCTYPE.
    Doctype(Doctype<'a>),
    /// A start tag.
    StartTag(StartTag<'a>),
    /// An end tag. End tags of void elements are dropped.
    EndTag(EndTag<'a>),
    /// Character data, before escaping. Empty text is ignored.
    Text(Cow<'a, str>),
    /// A comment's text (between `<!--` and `-->`).
    Comment(Cow<'a, str>),
    /// White space added only to lay the markup out for people (newlines and
    /// indentation between block elements). It is written as it is, but the
    /// optional-tag rules look through it, because where such white space ends
    /// up in the parsed tree does not matter. It must consist of space
    /// characters only; anything else makes it ordinary text.
    Layout(Cow<'a, str>),
}

impl<'a> Token<'a> {
    /// A start tag in the HTML namespace without attributes.
    pub fn start(name: impl Into<Cow<'a, str>>) -> Self {
        Token::StartTag(StartTag {
            name: name.into(),
            namespace: Namespace::Html,
            attributes: Vec::new(),
            self_closing: false,
        })
    }

    /// A start tag in the HTML namespace with attributes.
    pub fn start_with(name: impl Into<Cow<'a, str>>, attributes: Vec<Attribute<'a>>) -> Self {
        Token::StartTag(StartTag {
            name: name.into(),
            namespace: Namespace::Html,
            attributes,
            self_closing: false,
        })
    }

    /// An end tag in the HTML namespace.
    pub fn end(name: impl Into<Cow<'a, str>>) -> Self {
        Token::EndTag(EndTag {
            name: name.into(),
            namespace: Namespace::Html,
        })
    }

    /// Character data.
    pub fn text(text: impl Into<Cow<'a, str>>) -> Self {
        Token::Text(text.into())
    }

    /// A comment.
    pub fn comment(text: impl Into<Cow<'a, str>>) -> Self {
        Token::Comment(text.into())
    }

    /// Layout white space (see [`Token::Layout`]).
    pub fn layout(text: impl Into<Cow<'a, str>>) -> Self {
        Token::Layout(text.into())
    }
}

/// Seed 003 uses "space characters": tab, LF, FF, CR and space.
pub(crate) fn is_space(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\u{c}' | '\r' | ' ')
}
