//! The plain-text writer: what a reader sees of a document, with no markup,
//! for pipelines that want words (search indexes, language models).
//!
//! - a paragraph, a heading or a text block is its text on one line (its
//!   line divisions are spaces, as a browser shows them; a forced break
//!   `<br>` ends a line), blocks at the top set apart by an empty line;
//! - links are their text (the URL is left out), images their alternative
//!   text, e-mail addresses themselves, superscripts and subscripts their
//!   text;
//! - list items start `- ` or `1. `, their content indented under them;
//!   a blockquote and a definition are indented by two spaces, a term
//!   stands on its line;
//! - a table is its caption, then one line per row, the cells' texts set
//!   apart by tabs;
//! - preformatted text keeps its lines; a rule and the header are left out.
//!
//! The walk keeps its own stack: no recursion, whatever the depth.

use crate::model::{Block, Document, Inline, ListKind};

/// What is still to write: a block, or a line of its own (a term).
enum Part<'a> {
    Block(&'a Block),
    Line(String),
}

/// One part still to write: where, and how it begins.
struct Work<'a> {
    part: Part<'a>,
    /// Columns of indentation of its lines.
    indent: usize,
    /// A list item's marker (`- `, `3. `), written in front of its first
    /// line, inside the indentation.
    marker: Option<String>,
    /// Whether an empty line goes before it (blocks at the top, and the
    /// first block of a container at the top).
    gap: bool,
}

/// The document as plain text (see the module's comment). Ends with a line
/// feed unless it is empty.
pub fn plain(doc: &Document) -> String {
    let mut out = String::new();
    let mut stack: Vec<Work<'_>> = doc
        .body
        .iter()
        .rev()
        .map(|block| Work {
            part: Part::Block(block),
            indent: 0,
            marker: None,
            gap: true,
        })
        .collect();
    while let Some(work) = stack.pop() {
        step(work, &mut stack, &mut out);
    }
    out
}

/// Writes one block, or pushes its children (in reverse, so that they pop
/// in order).
fn step<'a>(work: Work<'a>, stack: &mut Vec<Work<'a>>, out: &mut String) {
    let Work {
        part,
        indent,
        marker,
        gap,
    } = work;
    let lines = |text: String| text.split('\n').map(str::to_owned).collect::<Vec<_>>();
    let block = match part {
        Part::Block(block) => block,
        Part::Line(text) => {
            emit(out, &lines(text), indent, marker, gap);
            return;
        }
    };
    match block {
        Block::Paragraph { content, .. }
        | Block::Text { content, .. }
        | Block::Heading { content, .. } => {
            emit(out, &lines(inline_text(content)), indent, marker, gap);
        }
        Block::Preformatted { lines: pre, .. } => {
            let text: Vec<String> = pre.iter().map(|l| crate::walk::plain_text(l)).collect();
            emit(out, &text, indent, marker, gap);
        }
        Block::Rule { .. } => {}
        Block::Blockquote { content, .. } => {
            push_children(stack, content, indent + 2, marker, gap);
        }
        Block::List { kind, items, .. } => {
            for (n, item) in items.iter().enumerate().rev() {
                let mark = match kind {
                    ListKind::Unordered => "- ".to_owned(),
                    ListKind::Ordered(_) => format!("{}. ", n + 1),
                };
                let inner = indent + mark.len();
                // The item's marker, where its first block begins (an item
                // with no content is its marker alone).
                let first_gap = gap && n == 0;
                if item.content.is_empty() {
                    stack.push(Work {
                        part: Part::Line(String::new()),
                        indent: inner,
                        marker: Some(mark),
                        gap: first_gap,
                    });
                } else {
                    push_children(stack, &item.content, inner, Some(mark), first_gap);
                }
            }
            if let (Some(m), Some(first)) = (marker, stack.last_mut()) {
                // A list that opens a list item: the outer marker goes first.
                first.marker = Some(format!("{m}{}", first.marker.take().unwrap_or_default()));
            }
        }
        Block::DefinitionList { items, .. } => {
            let start = stack.len();
            let mut first = true;
            let mut parts = Vec::new();
            for item in items {
                for term in &item.terms {
                    parts.push((
                        Some(inline_text(&term.content)),
                        &item.definition[..0],
                        first && gap,
                    ));
                    first = false;
                }
                parts.push((None, &item.definition[..], false));
            }
            for (term, definition, g) in parts.into_iter().rev() {
                match term {
                    Some(text) => stack.push(Work {
                        part: Part::Line(text),
                        indent,
                        marker: None,
                        gap: g,
                    }),
                    None => push_children(stack, definition, indent + 2, None, false),
                }
            }
            // A definition list that opens a list item: the item's marker
            // goes before its first term.
            if let Some(first) = stack.get_mut(start..).and_then(|s| s.last_mut())
                && first.marker.is_none()
            {
                first.marker = marker;
            }
        }
        Block::Table { caption, rows, .. } => {
            let mut text = Vec::new();
            if !caption.is_empty() {
                text.push(inline_text(caption).replace('\n', " "));
            }
            for row in rows {
                let cells: Vec<String> = row
                    .cells
                    .iter()
                    .map(|cell| {
                        crate::walk::runs(&cell.content)
                            .map(|run| inline_text(run).replace('\n', " "))
                            .filter(|t| !t.is_empty())
                            .collect::<Vec<_>>()
                            .join(" ")
                    })
                    .collect();
                text.push(cells.join("\t"));
            }
            emit(out, &text, indent, marker, gap);
        }
        Block::Figure { image, caption, .. } => {
            // The image's alternative text, when it has one, then the
            // caption, as a reader sees them one under the other.
            let alt = inline_text(image);
            if alt.is_empty() {
                push_children(stack, caption, indent, marker, gap);
            } else {
                push_children(stack, caption, indent, None, false);
                stack.push(Work {
                    part: Part::Line(alt),
                    indent,
                    marker,
                    gap,
                });
            }
        }
    }
}

/// Pushes `blocks` (a container's content) so that they pop in order, the
/// first with `marker` and `gap`.
fn push_children<'a>(
    stack: &mut Vec<Work<'a>>,
    blocks: &'a [Block],
    indent: usize,
    marker: Option<String>,
    gap: bool,
) {
    let start = stack.len();
    for block in blocks.iter().rev() {
        stack.push(Work {
            part: Part::Block(block),
            indent,
            marker: None,
            gap: false,
        });
    }
    if let Some(first) = stack.get_mut(start..).and_then(|s| s.last_mut()) {
        first.marker = marker;
        first.gap = gap;
    }
}

/// Writes `lines` at `indent`, the first after `marker` (which sits in the
/// indentation's last columns), after an empty line when `gap` says so.
fn emit(out: &mut String, lines: &[String], indent: usize, marker: Option<String>, gap: bool) {
    if gap && !out.is_empty() {
        out.push('\n');
    }
    let pad = " ".repeat(indent);
    for (i, line) in lines.iter().enumerate() {
        match (&marker, i) {
            (Some(mark), 0) => {
                let width = mark.chars().count();
                out.push_str(&" ".repeat(indent.saturating_sub(width)));
                out.push_str(mark);
            }
            _ => out.push_str(&pad),
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    if lines.is_empty()
        && let Some(mark) = marker
    {
        out.push_str(&" ".repeat(indent.saturating_sub(mark.chars().count())));
        out.push_str(mark.trim_end());
        out.push('\n');
    }
}

/// An inline run as a reader sees it: line divisions are spaces, a forced
/// break is a line feed, links their text, images their alternative text.
fn inline_text(run: &[Inline]) -> String {
    let mut out = String::new();
    crate::walk::for_each_leaf(run, |leaf| match leaf {
        Inline::Text { text, .. } => out.push_str(text),
        Inline::Email { address, .. } => out.push_str(address),
        Inline::HardBreak { .. } => {
            let kept = out.trim_end_matches(' ').len();
            out.truncate(kept);
            out.push('\n');
        }
        _ => {
            if !out.ends_with([' ', '\n']) {
                out.push(' ');
            }
        }
    });
    out.trim().to_owned()
}

#[cfg(test)]
mod tests {
    use super::plain;

    fn of(text: &str) -> String {
        plain(&crate::parse(text).document)
    }

    #[test]
    fn a_document_is_what_a_reader_sees() {
        let text = concat!(
            "#Title T\n#Extend image table break\n\n",
            "= A _heading_ =\n\n",
            "A paragraph with a [https://example.org/||link],\nan ![cat.jpg||image of a cat] and *strong* words.\n\n",
            "Two<br>lines\n\n",
            "  * one\n  * two\n      1. inner\n\n",
            "  > quoted\n\n",
            "Term::\n    Its definition.\n\n",
            "|+ Prices\n|= Item |= Cost |\n| Tea | 2 |\n\n",
            "----\n\n",
            "    pre  formatted\n      kept\n",
        );
        assert_eq!(
            of(text),
            concat!(
                "A heading\n\n",
                "A paragraph with a link, an image of a cat and strong words.\n\n",
                "Two\nlines\n\n",
                "- one\n- two\n  1. inner\n\n",
                "  quoted\n\n",
                "Term\n  Its definition.\n\n",
                "Prices\nItem\tCost\nTea\t2\n\n",
                "pre  formatted\n  kept\n",
            )
        );
    }

    #[test]
    fn deep_nesting_needs_no_recursion() {
        let mut text = String::from("\n");
        for depth in 0..2000 {
            text.push_str(&" ".repeat(2 + depth * 2));
            text.push_str("> x\n");
        }
        let out = of(&text);
        assert!(out.contains('x'));
        assert_eq!(of(""), "");
    }

    #[test]
    fn a_figure_is_its_alternative_text_then_its_caption() {
        let text = "#Extend image figure\n\nBefore.\n\n![chart.png||Sales]\n    Figure 1.\n\n![deco.png||]   Only a caption.\n";
        assert_eq!(of(text), "Before.\n\nSales\nFigure 1.\n\nOnly a caption.\n");
    }
}
