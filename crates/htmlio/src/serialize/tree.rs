//! A small node tree (element, text, comment, DOCTYPE) and its walk into
//! tokens, for callers that build a tree rather than a stream.

use std::borrow::Cow;

use super::token::{Attribute, Doctype, EndTag, Namespace, StartTag, Token};

/// One node of a tree to serialize.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Node<'a> {
    /// An element and its children.
    Element(Element<'a>),
    /// Character data.
    Text(Cow<'a, str>),
    /// A comment.
    Comment(Cow<'a, str>),
    /// A DOCTYPE.
    Doctype(Doctype<'a>),
    /// Layout white space (see [`Token::Layout`]).
    Layout(Cow<'a, str>),
}

/// An element: name, namespace, attributes and children.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Element<'a> {
    /// The tag name.
    pub name: Cow<'a, str>,
    /// The namespace.
    pub namespace: Namespace,
    /// The attributes, in order.
    pub attributes: Vec<Attribute<'a>>,
    /// The children, in order. Void elements have none.
    pub children: Vec<Node<'a>>,
}

impl<'a> Element<'a> {
    /// An HTML element without attributes or children.
    pub fn new(name: impl Into<Cow<'a, str>>) -> Self {
        Element {
            name: name.into(),
            namespace: Namespace::Html,
            attributes: Vec::new(),
            children: Vec::new(),
        }
    }

    /// Adds an attribute.
    pub fn attr(mut self, name: impl Into<Cow<'a, str>>, value: impl Into<Cow<'a, str>>) -> Self {
        self.attributes.push(Attribute::new(name, value));
        self
    }

    /// Adds a child.
    pub fn child(mut self, node: impl Into<Node<'a>>) -> Self {
        self.children.push(node.into());
        self
    }

    /// Adds a text child.
    pub fn text(self, text: impl Into<Cow<'a, str>>) -> Self {
        self.child(Node::Text(text.into()))
    }
}

impl<'a> From<Element<'a>> for Node<'a> {
    fn from(e: Element<'a>) -> Self {
        Node::Element(e)
    }
}

/// The tokens of `nodes` in document order, borrowing from the tree. Every
/// element gets a start and an end tag (the writers drop the end tags of void
/// elements, and the optional ones on request); a foreign element without
/// children is marked self-closing instead. The walk uses an explicit stack,
/// so any depth is fine.
pub fn tokens<'n>(nodes: &'n [Node<'_>]) -> impl Iterator<Item = Token<'n>> + 'n {
    Walk {
        stack: vec![Frame::Children(nodes.iter())],
    }
}

enum Frame<'n, 'a> {
    Children(std::slice::Iter<'n, Node<'a>>),
    End(&'n Element<'a>),
}

struct Walk<'n, 'a> {
    stack: Vec<Frame<'n, 'a>>,
}

impl<'n> Iterator for Walk<'n, '_> {
    type Item = Token<'n>;

    fn next(&mut self) -> Option<Token<'n>> {
        loop {
            match self.stack.last_mut()? {
                Frame::Children(iter) => match iter.next() {
                    Some(node) => return Some(self.enter(node)),
                    None => {
                        self.stack.pop();
                    }
                },
                Frame::End(element) => {
                    let element = *element;
                    self.stack.pop();
                    return Some(Token::EndTag(EndTag {
                        name: Cow::Borrowed(&element.name),
                        namespace: element.namespace,
                    }));
                }
            }
        }
    }
}

impl<'n, 'a> Walk<'n, 'a> {
    fn enter(&mut self, node: &'n Node<'a>) -> Token<'n> {
        match node {
            Node::Text(t) => Token::Text(Cow::Borrowed(t)),
            Node::Layout(t) => Token::Layout(Cow::Borrowed(t)),
            Node::Comment(t) => Token::Comment(Cow::Borrowed(t)),
            Node::Doctype(d) => Token::Doctype(Doctype {
                name: Cow::Borrowed(&d.name),
                public_id: d.public_id.as_deref().map(Cow::Borrowed),
                system_id: d.system_id.as_deref().map(Cow::Borrowed),
            }),
            Node::Element(e) => {
                let self_closing = e.namespace != Namespace::Html && e.children.is_empty();
                if !self_closing {
                    self.stack.push(Frame::End(e));
                    self.stack.push(Frame::Children(e.children.iter()));
                }
                Token::StartTag(StartTag {
                    name: Cow::Borrowed(&e.name),
                    namespace: e.namespace,
                    attributes: e
                        .attributes
                        .iter()
                        .map(|a| Attribute::new(&*a.name, &*a.value))
                        .collect(),
                    self_closing,
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deep_trees_do_not_overflow() {
        let mut node = Node::Text(Cow::Borrowed("x"));
        for _ in 0..100_000 {
            node = Element::new("span").child(node).into();
        }
        let nodes = [node];
        assert_eq!(tokens(&nodes).count(), 200_001);
        // Dropping the deep tree itself is recursive in Rust; unwind it by hand.
        let [mut node] = nodes;
        while let Node::Element(mut e) = node {
            node = e.children.pop().unwrap_or(Node::Text(Cow::Borrowed("")));
        }
    }
}
