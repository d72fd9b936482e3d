//! A readable, stable dump of a document as an indented tree, one node per
//! line with its position: what the snapshot tests show, and what a user can
//! read to see how a text was understood. Also two measures of a document
//! that tests of hostile input check: [`depth`] and [`all_text`].

use std::fmt::Write as _;

use crate::model::{Block, Document, Inline, ListKind, Metadata, Numbering, Pos};

#[derive(Clone, Copy)]
enum Node<'a> {
    Block(&'a Block),
    Inline(&'a Inline),
    Item(&'a crate::model::ListItem),
    DefItem(&'a crate::model::DefItem),
    Term(&'a crate::model::Term),
    Definition(&'a [Block]),
    FigureCaption(&'a [Block]),
    PreLine(usize, &'a [Inline]),
    Caption(&'a [Inline]),
    Row(&'a crate::model::Row),
    Cell(&'a crate::model::Cell),
}

fn at(pos: Pos) -> String {
    if pos.is_known() {
        format!(" @{pos}")
    } else {
        String::new()
    }
}

fn kind_name(kind: ListKind) -> &'static str {
    match kind {
        ListKind::Unordered => "unordered",
        ListKind::Ordered(Numbering::Decimal) => "ordered decimal",
        ListKind::Ordered(Numbering::LowerAlpha) => "ordered lower-alpha",
        ListKind::Ordered(Numbering::UpperAlpha) => "ordered upper-alpha",
    }
}

/// The document as an indented tree:
///
/// ```
/// let doc = wikitext::parse("\n  * _one_\n").document;
/// assert_eq!(
///     wikitext::dump::tree(&doc),
///     "body\n  list unordered @2:3\n    item @2:3\n      text @2:5\n        emphasis @2:5\n          \"one\" @2:6\n"
/// );
/// ```
pub fn tree(doc: &Document) -> String {
    let mut out = String::new();
    meta_tree(&doc.meta, &mut out);
    out.push_str("body\n");
    let mut stack: Vec<(usize, Node<'_>)> =
        doc.body.iter().rev().map(|b| (1, Node::Block(b))).collect();
    while let Some((depth, node)) = stack.pop() {
        let pad = "  ".repeat(depth);
        let child = depth + 1;
        let mut children: Vec<(usize, Node<'_>)> = Vec::new();
        match node {
            Node::Block(block) => block_node(block, &pad, child, &mut out, &mut children),
            Node::Caption(_) | Node::Row(_) | Node::Cell(_) => {
                table_node(node, &pad, child, &mut out, &mut children);
            }
            Node::Item(item) => {
                let _ = writeln!(out, "{pad}item{}", at(item.pos));
                children.extend(item.content.iter().map(|b| (child, Node::Block(b))));
            }
            Node::DefItem(item) => {
                let _ = writeln!(out, "{pad}def-item{}", at(item.pos));
                children.extend(item.terms.iter().map(|t| (child, Node::Term(t))));
                children.push((child, Node::Definition(&item.definition)));
            }
            Node::Term(term) => {
                let _ = writeln!(out, "{pad}term{}", at(term.pos));
                children.extend(term.content.iter().map(|i| (child, Node::Inline(i))));
            }
            Node::Definition(blocks) => {
                if blocks.is_empty() {
                    let _ = writeln!(out, "{pad}definition (none)");
                } else {
                    let _ = writeln!(out, "{pad}definition");
                    children.extend(blocks.iter().map(|b| (child, Node::Block(b))));
                }
            }
            Node::FigureCaption(blocks) => {
                if blocks.is_empty() {
                    let _ = writeln!(out, "{pad}caption (none)");
                } else {
                    let _ = writeln!(out, "{pad}caption");
                    children.extend(blocks.iter().map(|b| (child, Node::Block(b))));
                }
            }
            Node::PreLine(n, inlines) => {
                let _ = writeln!(out, "{pad}line {n}");
                children.extend(inlines.iter().map(|i| (child, Node::Inline(i))));
            }
            Node::Inline(inline) => {
                let pos = at(inline.pos());
                match inline {
                    Inline::Text { text, .. } => {
                        let _ = writeln!(out, "{pad}{text:?}{pos}");
                    }
                    Inline::LineBreak { .. } => {
                        let _ = writeln!(out, "{pad}line-break");
                    }
                    Inline::HardBreak { .. } => {
                        let _ = writeln!(out, "{pad}hard-break{pos}");
                    }
                    Inline::Superscript { content, .. } => {
                        let _ = writeln!(out, "{pad}superscript{pos}");
                        children.extend(content.iter().map(|i| (child, Node::Inline(i))));
                    }
                    Inline::Subscript { content, .. } => {
                        let _ = writeln!(out, "{pad}subscript{pos}");
                        children.extend(content.iter().map(|i| (child, Node::Inline(i))));
                    }
                    Inline::Emphasis { content, .. } => {
                        let _ = writeln!(out, "{pad}emphasis{pos}");
                        children.extend(content.iter().map(|i| (child, Node::Inline(i))));
                    }
                    Inline::Strong { content, .. } => {
                        let _ = writeln!(out, "{pad}strong{pos}");
                        children.extend(content.iter().map(|i| (child, Node::Inline(i))));
                    }
                    Inline::Code { content, .. } => {
                        let _ = writeln!(out, "{pad}code{pos}");
                        children.extend(content.iter().map(|i| (child, Node::Inline(i))));
                    }
                    Inline::Link {
                        url,
                        fragment,
                        content,
                        ..
                    } => {
                        let _ = write!(out, "{pad}link");
                        if let Some(url) = url {
                            let _ = write!(out, " url={url:?}");
                        }
                        if let Some(fragment) = fragment {
                            let _ = write!(out, " fragment={fragment:?}");
                        }
                        let _ = writeln!(out, "{pos}");
                        children.extend(content.iter().map(|i| (child, Node::Inline(i))));
                    }
                    Inline::Email { address, .. } => {
                        let _ = writeln!(out, "{pad}email {address:?}{pos}");
                    }
                    Inline::Image { alt, .. } => {
                        image_line(inline, &pad, &mut out);
                        children.extend(alt.iter().map(|i| (child, Node::Inline(i))));
                    }
                }
            }
        }
        stack.extend(children.into_iter().rev());
    }
    out
}

/// An image's line in [`tree`].
fn image_line(image: &Inline, pad: &str, out: &mut String) {
    let Inline::Image {
        src,
        title,
        width,
        height,
        pos,
        ..
    } = image
    else {
        return;
    };
    let _ = write!(out, "{pad}image src={src:?}");
    if let Some(title) = title {
        let _ = write!(out, " title={title:?}");
    }
    if let Some(w) = width {
        let _ = write!(out, " width={w}");
    }
    if let Some(h) = height {
        let _ = write!(out, " height={h}");
    }
    let _ = writeln!(out, "{}", at(*pos));
}

/// The nodes of a table in [`tree`]: its caption, rows and cells.
fn table_node<'a>(
    node: Node<'a>,
    pad: &str,
    child: usize,
    out: &mut String,
    children: &mut Vec<(usize, Node<'a>)>,
) {
    match node {
        Node::Caption(run) => {
            let _ = writeln!(out, "{pad}caption");
            children.extend(run.iter().map(|i| (child, Node::Inline(i))));
        }
        Node::Row(row) => {
            let _ = writeln!(out, "{pad}row{}", at(row.pos));
            children.extend(row.cells.iter().map(|c| (child, Node::Cell(c))));
        }
        Node::Cell(cell) => {
            let kind = if cell.header { "header-cell" } else { "cell" };
            let _ = write!(out, "{pad}{kind}");
            if cell.colspan != 1 {
                let _ = write!(out, " colspan={}", cell.colspan);
            }
            if cell.rowspan != 1 {
                let _ = write!(out, " rowspan={}", cell.rowspan);
            }
            if cell.content.is_empty() {
                out.push_str(" (empty)");
            }
            let _ = writeln!(out, "{}", at(cell.pos));
            children.extend(cell.content.iter().map(|b| (child, Node::Block(b))));
        }
        _ => {}
    }
}

/// One block of [`tree`]: its line, and its children to visit.
fn block_node<'a>(
    block: &'a Block,
    pad: &str,
    child: usize,
    out: &mut String,
    children: &mut Vec<(usize, Node<'a>)>,
) {
    let pos = at(block.pos());
    match block {
        Block::Paragraph { content, .. } => {
            let _ = writeln!(out, "{pad}paragraph{pos}");
            children.extend(content.iter().map(|i| (child, Node::Inline(i))));
        }
        Block::Text { content, .. } => {
            let _ = writeln!(out, "{pad}text{pos}");
            children.extend(content.iter().map(|i| (child, Node::Inline(i))));
        }
        Block::Preformatted { lines, .. } => {
            let _ = writeln!(out, "{pad}preformatted{pos}");
            children.extend(
                lines
                    .iter()
                    .enumerate()
                    .map(|(n, l)| (child, Node::PreLine(n + 1, l.as_slice()))),
            );
        }
        Block::Heading { level, content, .. } => {
            let _ = writeln!(out, "{pad}heading {level}{pos}");
            children.extend(content.iter().map(|i| (child, Node::Inline(i))));
        }
        Block::Rule { .. } => {
            let _ = writeln!(out, "{pad}rule{pos}");
        }
        Block::Blockquote { content, .. } => {
            let _ = writeln!(out, "{pad}blockquote{pos}");
            children.extend(content.iter().map(|b| (child, Node::Block(b))));
        }
        Block::List { kind, items, .. } => {
            let _ = writeln!(out, "{pad}list {}{pos}", kind_name(*kind));
            children.extend(items.iter().map(|i| (child, Node::Item(i))));
        }
        Block::DefinitionList { compact, items, .. } => {
            let c = if *compact { " compact" } else { "" };
            let _ = writeln!(out, "{pad}definition-list{c}{pos}");
            children.extend(items.iter().map(|i| (child, Node::DefItem(i))));
        }
        Block::Table { caption, rows, .. } => {
            let _ = writeln!(out, "{pad}table{pos}");
            if !caption.is_empty() {
                children.push((child, Node::Caption(caption)));
            }
            children.extend(rows.iter().map(|r| (child, Node::Row(r))));
        }
        Block::Figure { image, caption, .. } => {
            let _ = writeln!(out, "{pad}figure{pos}");
            children.extend(image.iter().map(|i| (child, Node::Inline(i))));
            children.push((child, Node::FigureCaption(caption)));
        }
    }
}

/// The header part of [`tree`]: nothing when the header is empty.
fn meta_tree(meta: &Metadata, out: &mut String) {
    if meta.title.is_some()
        || meta.lang.is_some()
        || !meta.metas.is_empty()
        || !meta.links.is_empty()
        || meta.escape
        || meta.open
        || meta.image
        || meta.table
        || meta.breaks
        || meta.subsup
        || meta.figure
    {
        out.push_str("meta\n");
        if let Some(title) = &meta.title {
            let _ = writeln!(out, "  title {title:?}");
        }
        if let Some(lang) = &meta.lang {
            let _ = writeln!(out, "  lang {lang:?}");
        }
        for m in &meta.metas {
            let _ = writeln!(out, "  meta {:?} = {:?}{}", m.name, m.content, at(m.pos));
        }
        for l in &meta.links {
            let _ = write!(out, "  link rel={:?} href={:?}", l.rel, l.href);
            if let Some(title) = &l.title {
                let _ = write!(out, " title={title:?}");
            }
            let _ = writeln!(out, "{}", at(l.pos));
        }
        if meta.escape {
            out.push_str("  escape \\\n");
        }
        if meta.image {
            out.push_str("  extend image\n");
        }
        if meta.table {
            out.push_str("  extend table\n");
        }
        if meta.figure {
            out.push_str("  extend figure\n");
        }
        if meta.breaks {
            out.push_str("  extend break\n");
        }
        if meta.subsup {
            out.push_str("  extend subsup\n");
        }
        if meta.open {
            out.push_str("  extend open\n");
        }
    }
}

/// How deep blocks nest: [`crate::depth`], kept here for the tests that
/// use it.
pub use crate::walk::depth;

/// All the text of a document (block texts, terms, preformatted lines),
/// without markup, in document order.
///
/// ```
/// let doc = wikitext::parse("\nsome _text_\n").document;
/// assert_eq!(wikitext::dump::all_text(&doc), "some text");
/// ```
pub fn all_text(doc: &Document) -> String {
    crate::walk::runs(&doc.body)
        .map(crate::walk::plain_text)
        .collect()
}
