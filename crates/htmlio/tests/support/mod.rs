//! Checks shared by the test files: the emitted XHTML is well-formed XML
//! (roxmltree), valid against the XHTML 1.0 Transitional DTD (xmllint) and
//! polyglot (html5ever builds the same element tree as the XML parser).

#![allow(dead_code, unreachable_pub)]
// Test support: a failed check is a panic with the evidence.
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::Command;

use html5ever::tendril::TendrilSink;
use markup5ever_rcdom::{Handle, NodeData, RcDom};

/// Where Debian's `w3c-sgml-lib` puts the DTD; `PAGETEXT_XHTML_DTD` overrides.
const DTD: &str =
    "/usr/share/xml/w3c-sgml-lib/schema/dtd/REC-xhtml1-20020801/xhtml1-transitional.dtd";

/// An element tree with only what both parsers must agree on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Tree {
    /// Namespace URI, local name, sorted attributes (qualified name, value), children.
    Element(String, String, Vec<(String, String)>, Vec<Tree>),
    /// Text, adjacent pieces merged.
    Text(String),
}

fn push_text(children: &mut Vec<Tree>, text: &str) {
    if let Some(Tree::Text(last)) = children.last_mut() {
        last.push_str(text);
    } else if !text.is_empty() {
        children.push(Tree::Text(text.to_owned()));
    }
}

/// Where the HTML parser moves inter-element white space on its own: white
/// space directly in `html` and `head` is dropped or relocated, and spaces
/// after `</body>` or `</html>` are appended to the body. Both trees get the
/// same treatment, so nothing else is hidden.
fn normalise(tree: &mut Tree) {
    let mut stack = vec![tree];
    while let Some(node) = stack.pop() {
        if let Tree::Element(_, name, _, children) = node {
            if name == "html" || name == "head" {
                children.retain(|c| !matches!(c, Tree::Text(t) if t.trim().is_empty()));
            }
            if name == "body"
                && let Some(Tree::Text(t)) = children.last_mut()
            {
                let trimmed = t.trim_end_matches(['\n', ' ', '\t', '\r', '\u{c}']).len();
                t.truncate(trimmed);
                if t.is_empty() {
                    children.pop();
                }
            }
            stack.extend(children.iter_mut());
        }
    }
}

/// The tree an XML parser sees (roxmltree); panics when not well-formed.
pub fn xml_tree(text: &str) -> Tree {
    try_xml_tree(text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// The tree an XML parser sees (roxmltree), or why the text is not
/// well-formed XML.
pub fn try_xml_tree(text: &str) -> Result<Tree, String> {
    let doc = roxmltree::Document::parse_with_options(
        text,
        roxmltree::ParsingOptions {
            // A DOCTYPE (`to-html --doctype`) names an external DTD, which
            // roxmltree never loads.
            allow_dtd: true,
            ..Default::default()
        },
    )
    .map_err(|e| format!("not well-formed XML: {e}"))?;
    fn build(node: roxmltree::Node<'_, '_>) -> Tree {
        let mut attrs: Vec<(String, String)> = node
            .attributes()
            .map(|a| {
                let name = match a.namespace() {
                    Some("http://www.w3.org/XML/1998/namespace") => format!("xml:{}", a.name()),
                    Some(ns) => format!("{{{ns}}}{}", a.name()),
                    None => a.name().to_owned(),
                };
                (name, a.value().to_owned())
            })
            .collect();
        attrs.sort();
        let mut children = Vec::new();
        for child in node.children() {
            if child.is_element() {
                children.push(build(child));
            } else if child.is_text() {
                push_text(&mut children, child.text().unwrap_or(""));
            }
        }
        Tree::Element(
            node.tag_name().namespace().unwrap_or("").to_owned(),
            node.tag_name().name().to_owned(),
            attrs,
            children,
        )
    }
    let mut tree = build(doc.root_element());
    normalise(&mut tree);
    Ok(tree)
}

/// The mode an HTML parser (html5ever) renders the text in: quirks
/// without a DOCTYPE, limited quirks for XHTML 1.0 Transitional's.
pub fn html_mode(text: &str) -> html5ever::tree_builder::QuirksMode {
    let dom = html5ever::parse_document(RcDom::default(), Default::default()).one(text);
    dom.quirks_mode.get()
}

/// The tree an HTML parser sees (html5ever).
pub fn html_tree(text: &str) -> Tree {
    let dom = html5ever::parse_document(RcDom::default(), Default::default()).one(text);
    fn build(handle: &Handle) -> Option<Tree> {
        match &handle.data {
            NodeData::Element { name, attrs, .. } => {
                let mut attributes: Vec<(String, String)> = attrs
                    .borrow()
                    .iter()
                    .filter(|a| &*a.name.local != "xmlns")
                    .map(|a| (a.name.local.to_string(), a.value.to_string()))
                    .collect();
                attributes.sort();
                let mut children = Vec::new();
                for child in handle.children.borrow().iter() {
                    match &child.data {
                        NodeData::Text { contents } => push_text(&mut children, &contents.borrow()),
                        NodeData::Element { .. } => children.extend(build(child)),
                        _ => {}
                    }
                }
                Some(Tree::Element(
                    name.ns.to_string(),
                    name.local.to_string(),
                    attributes,
                    children,
                ))
            }
            _ => None,
        }
    }
    let root = dom
        .document
        .children
        .borrow()
        .iter()
        .find_map(build)
        .expect("html5ever always builds an html element");
    let mut tree = root;
    normalise(&mut tree);
    tree
}

/// Whether we are under CI (`CI` set to anything but empty, `false` or `0`).
fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0")
}

fn dtd_path() -> PathBuf {
    std::env::var_os("PAGETEXT_XHTML_DTD").map_or_else(|| PathBuf::from(DTD), PathBuf::from)
}

/// Whether xmllint and the DTD are there. Outside CI a missing tool makes
/// the DTD check say so on stderr and pass; under CI it fails the test.
pub fn dtd_check_available() -> bool {
    let dtd = dtd_path();
    let tool = Command::new("xmllint").arg("--version").output().is_ok();
    let ok = tool && dtd.is_file();
    if !ok {
        let msg = format!(
            "DTD validation SKIPPED: needs `xmllint` (apt-get install libxml2-utils) and {} \
             (apt-get install w3c-sgml-lib, or set PAGETEXT_XHTML_DTD)",
            dtd.display()
        );
        assert!(!in_ci(), "{msg}; CI must have them");
        testkit::skipped(&msg);
    }
    ok
}

/// Validates the files against the XHTML 1.0 Transitional DTD with one
/// xmllint run; returns xmllint's complaints (empty when all are valid).
pub fn dtd_errors(files: &[&Path]) -> Option<String> {
    if files.is_empty() || !dtd_check_available() {
        return None;
    }
    let out = Command::new("xmllint")
        .args(["--noout", "--nonet", "--dtdvalid"])
        .arg(dtd_path())
        .args(files)
        .output()
        .expect("xmllint runs");
    if out.status.success() {
        None
    } else {
        Some(format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// What the emitter's diagnostics promise about a document.
#[derive(Debug, Clone, Copy)]
pub struct Expect {
    /// Valid against the DTD (else it must be invalid).
    pub valid: bool,
    /// The same tree for both parsers (else they must differ).
    pub polyglot: bool,
}

impl Expect {
    /// What the diagnostics of `out` promise.
    pub fn from(out: &htmlio::emit::Emitted) -> Expect {
        Expect {
            valid: !out.diagnostics.iter().any(|d| d.code.breaks_validity()),
            polyglot: !out.diagnostics.iter().any(|d| d.code.breaks_polyglot()),
        }
    }
}

/// Checks one emitted document (its bytes in `encoding`): well-formed, and
/// DTD-valid and polyglot as `expect` says.
pub fn check_document(bytes: &[u8], encoding: &'static encoding_rs::Encoding, expect: Expect) {
    let (text, _, malformed) = encoding.decode(bytes);
    assert!(!malformed, "output is not valid {}", encoding.name());
    let xml = xml_tree(&text);
    let html = html_tree(&text);
    if expect.polyglot {
        assert_eq!(xml, html, "XML and HTML parsers disagree on\n{text}");
    } else {
        assert_ne!(xml, html, "expected the parsers to disagree on\n{text}");
    }
    let dir = tempfile::tempdir().expect("a temporary folder");
    let file = dir.path().join("doc.xhtml");
    std::fs::write(&file, bytes).expect("writing the document");
    if !dtd_check_available() {
        return;
    }
    let errors = dtd_errors(&[&file]);
    if expect.valid {
        assert!(
            errors.is_none(),
            "not valid against the DTD: {errors:?}\n{text}"
        );
    } else {
        assert!(errors.is_some(), "expected a DTD violation in\n{text}");
    }
}

/// For comparing the HTML syntax with the XHTML: drops white-space-only text,
/// the white space at the end of each element's last text (where omitted
/// end tags move layout white space) and at the start of its first (where
/// an omitted `<body>` moves it).
pub fn loose(mut tree: Tree) -> Tree {
    let mut stack = vec![&mut tree];
    while let Some(node) = stack.pop() {
        if let Tree::Element(_, _, _, children) = node {
            children.retain(|c| !matches!(c, Tree::Text(t) if t.trim().is_empty()));
            if let Some(Tree::Text(t)) = children.last_mut() {
                let len = t.trim_end().len();
                t.truncate(len);
            }
            // The first text too: a line end the layout puts after a start
            // tag lands in the body when `<body>` is written and before it
            // (in `html`) when the tag is omitted.
            if let Some(Tree::Text(t)) = children.first_mut() {
                let lead = t.len() - t.trim_start().len();
                t.drain(..lead);
            }
            stack.extend(children.iter_mut());
        }
    }
    tree
}
