//! The Markdown writer: a document as CommonMark, with GFM tables, for
//! pipelines that take Markdown. Written from the document model, as the
//! text writer and the plain-text writer are.
//!
//! - headings are ATX headings (`## Title`); paragraphs and text blocks one
//!   line each (line divisions are spaces; a forced break is a backslash at
//!   the line's end);
//! - emphasis `*x*`, strong `**x**`, sample text a code span, links
//!   `[text](url)` (an anchor `<a id="x"></a>` before its text, raw HTML,
//!   so that in-page links still find it), images `![alt](src)`, e-mail
//!   addresses autolinks,
//!   superscripts and subscripts `<sup>`/`<sub>` (CommonMark passes raw
//!   HTML through);
//! - list items `- ` and `1. `, their content indented under them;
//!   blockquotes `> `; a definition list a list whose items start with
//!   their terms in strong emphasis, the definition under them
//!   (CommonMark has no definition lists, and indentation alone is no
//!   container: four spaces make a code block);
//! - preformatted text a fenced code block (an HTML `<pre>` block when it
//!   holds links, which a code block cannot), a rule `* * *`, a table a GFM
//!   table (its first row the header, as GFM needs one; a cell's blocks on
//!   one line, `|` escaped);
//! - text is escaped so that a CommonMark reader reads back exactly its
//!   words: `\`, `` ` ``, `*`, `_`, `[`, `]`, `<`, `>`, `&` and `|` always,
//!   `!` before `[`, and what would start a block at a line's start.
//!
//! The header is left out but for the title, which is not repeated (the
//! page's own heading usually is the title). The walk keeps its own stack:
//! no recursion, whatever the depth.

use crate::model::{Block, Document, Inline, ListKind};

/// One block still to write, with the prefix of its lines.
struct Work<'a> {
    block: &'a Block,
    /// What every line but the first starts with (indentation, `> `).
    prefix: String,
    /// What the first line starts with (the prefix with a list marker).
    first: String,
    /// The empty line before it, if one goes there: the prefix it keeps
    /// (the `>`s of the blockquotes it is in).
    gap: Option<String>,
}

/// The document as CommonMark with GFM tables (see the module's comment).
pub fn markdown(doc: &Document) -> String {
    let mut out = String::new();
    let mut stack: Vec<Work<'_>> = doc
        .body
        .iter()
        .rev()
        .map(|block| Work {
            block,
            prefix: String::new(),
            first: String::new(),
            gap: Some(String::new()),
        })
        .collect();
    while let Some(work) = stack.pop() {
        step(work, &mut stack, &mut out);
    }
    out
}

fn step<'a>(work: Work<'a>, stack: &mut Vec<Work<'a>>, out: &mut String) {
    let Work {
        block,
        prefix,
        first,
        gap,
    } = work;
    match block {
        Block::Paragraph { content, .. } | Block::Text { content, .. } => {
            let text = inline_markdown(content);
            let text = guard_line_start(&text);
            emit(out, &text, &prefix, &first, gap.as_deref());
        }
        Block::Heading { level, content, .. } => {
            let marks = "#".repeat(usize::from((*level).clamp(1, 6)));
            let text = inline_markdown(content).replace("\\\n", " ");
            emit(
                out,
                &format!("{marks} {text}"),
                &prefix,
                &first,
                gap.as_deref(),
            );
        }
        Block::Preformatted { lines, .. } if lines.iter().flatten().any(holds_link) => {
            // A code block holds no links: preformatted text with links is
            // an HTML block, its links `<a href>`.
            let body: Vec<String> = lines.iter().map(|l| html_line(l)).collect();
            emit(
                out,
                &format!("<pre>{}</pre>", body.join("\n")),
                &prefix,
                &first,
                gap.as_deref(),
            );
        }
        Block::Preformatted { lines, .. } => {
            let body: Vec<String> = lines.iter().map(|l| crate::walk::plain_text(l)).collect();
            let longest = body.iter().map(|l| longest_run(l, '`')).max().unwrap_or(0);
            let fence = "`".repeat(longest.max(2) + 1);
            let text = format!("{fence}\n{}\n{fence}", body.join("\n"));
            emit(out, &text, &prefix, &first, gap.as_deref());
        }
        Block::Rule { .. } => emit(out, "* * *", &prefix, &first, gap.as_deref()),
        Block::Blockquote { content, .. } => {
            let inner = format!("{prefix}> ");
            let inner_first = format!("{first}> ");
            push_children(stack, content, &inner, &inner_first, gap);
        }
        Block::List { kind, items, .. } => {
            for (n, item) in items.iter().enumerate().rev() {
                let mark = match kind {
                    ListKind::Unordered => "- ".to_owned(),
                    ListKind::Ordered(_) => format!("{}. ", n + 1),
                };
                let lead = if n == 0 { &first } else { &prefix };
                let item_first = format!("{lead}{mark}");
                let item_prefix = format!("{prefix}{}", " ".repeat(mark.len()));
                if item.content.is_empty() {
                    stack.push(Work {
                        block: &EMPTY,
                        prefix: item_prefix,
                        first: item_first,
                        gap: gap.clone().filter(|_| n == 0),
                    });
                } else {
                    let first_gap = gap.clone().filter(|_| n == 0);
                    push_children(stack, &item.content, &item_prefix, &item_first, first_gap);
                }
            }
        }
        Block::DefinitionList { items, .. } => {
            // CommonMark has no definition lists, and indentation alone
            // is no container there (four spaces make a code block): each
            // item is a list item, its terms in strong emphasis on its
            // first line, its definition the item's content under them.
            for (n, item) in items.iter().enumerate().rev() {
                let lead = if n == 0 { &first } else { &prefix };
                let item_first = format!("{lead}- ");
                let item_prefix = format!("{prefix}  ");
                let terms: Vec<String> = item
                    .terms
                    .iter()
                    .map(|t| inline_markdown(&t.content))
                    .filter(|t| !t.is_empty())
                    .map(|t| format!("**{t}**"))
                    .collect();
                let item_gap = gap.clone().filter(|_| n == 0);
                if terms.is_empty() {
                    push_children(stack, &item.definition, &item_prefix, &item_first, item_gap);
                } else {
                    push_children(
                        stack,
                        &item.definition,
                        &item_prefix,
                        &item_prefix,
                        Some(item_prefix.clone()),
                    );
                    stack.push(Work {
                        block: &EMPTY,
                        prefix: item_prefix,
                        first: format!("{item_first}{}", terms.join(", ")),
                        gap: item_gap,
                    });
                }
            }
        }
        Block::Table { caption, rows, .. } => {
            let mut lines = Vec::new();
            if !caption.is_empty() {
                lines.push(guard_line_start(
                    &inline_markdown(caption).replace("\\\n", " "),
                ));
                lines.push(String::new());
            }
            let width = rows.iter().map(|r| r.cells.len()).max().unwrap_or(0);
            for (r, row) in rows.iter().enumerate() {
                let mut cells: Vec<String> = row
                    .cells
                    .iter()
                    .map(|cell| {
                        let text = crate::walk::runs(&cell.content)
                            .map(|run| inline_markdown(run).replace("\\\n", " "))
                            .filter(|t| !t.is_empty())
                            .collect::<Vec<_>>()
                            .join(" ");
                        // A `|` in a code span ends a GFM cell too: `\|`.
                        escape_pipes(&text)
                    })
                    .collect();
                cells.resize(width, String::new());
                lines.push(format!("| {} |", cells.join(" | ")));
                if r == 0 {
                    lines.push(format!("|{}", " --- |".repeat(width.max(1))));
                }
            }
            if !rows.is_empty() {
                emit(out, &lines.join("\n"), &prefix, &first, gap.as_deref());
            }
        }
        Block::Figure { image, caption, .. } => {
            // CommonMark has no figure: the image is a paragraph, the
            // caption's blocks follow it.
            let text = guard_line_start(&inline_markdown(image));
            emit(out, &text, &prefix, &first, gap.as_deref());
            push_children(stack, caption, &prefix, &prefix, Some(prefix.clone()));
        }
    }
}

/// An empty text block: a line that holds only its lead (an empty list
/// item, a term).
static EMPTY: Block = Block::Text {
    content: Vec::new(),
    pos: crate::model::Pos::UNKNOWN,
};

fn push_children<'a>(
    stack: &mut Vec<Work<'a>>,
    blocks: &'a [Block],
    prefix: &str,
    first: &str,
    gap: Option<String>,
) {
    for (k, block) in blocks.iter().enumerate().rev() {
        stack.push(Work {
            block,
            prefix: prefix.to_owned(),
            first: if k == 0 {
                first.to_owned()
            } else {
                prefix.to_owned()
            },
            // Blocks in a container are set apart too: two paragraphs of a
            // list item would otherwise run together.
            gap: if k == 0 {
                gap.clone()
            } else {
                Some(prefix.to_owned())
            },
        });
    }
}

/// Writes `text`'s lines, the first after `first`, the others after
/// `prefix`; an empty line before them when `gap` says so, keeping the
/// `>`s it gives.
fn emit(out: &mut String, text: &str, prefix: &str, first: &str, gap: Option<&str>) {
    if let Some(keep) = gap
        && !out.is_empty()
    {
        out.push_str(keep.trim_end_matches(' '));
        out.push('\n');
    }
    for (i, line) in text.split('\n').enumerate() {
        out.push_str(if i == 0 { first } else { prefix });
        out.push_str(line);
        out.push('\n');
    }
}

/// Whether an inline node is a link or holds one.
fn holds_link(node: &Inline) -> bool {
    let mut stack = vec![node];
    while let Some(node) = stack.pop() {
        match node {
            Inline::Link { url: Some(_), .. } => return true,
            Inline::Emphasis { content, .. }
            | Inline::Strong { content, .. }
            | Inline::Code { content, .. }
            | Inline::Superscript { content, .. }
            | Inline::Subscript { content, .. }
            | Inline::Link { content, .. } => stack.extend(content.iter()),
            _ => {}
        }
    }
    false
}

/// A line of preformatted text as HTML: its text escaped, its links
/// `<a href>` (the rest of its markup is text, as in a code block).
fn html_line(run: &[Inline]) -> String {
    let escape = |t: &str| {
        t.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
    };
    let mut out = String::new();
    let mut stack: Vec<(std::slice::Iter<'_, Inline>, bool)> = vec![(run.iter(), false)];
    while let Some((top, _)) = stack.last_mut() {
        let Some(node) = top.next() else {
            if let Some((_, true)) = stack.pop() {
                out.push_str("</a>");
            }
            continue;
        };
        match node {
            Inline::Text { text, .. } => out.push_str(&escape(text)),
            Inline::Email { address, .. } => out.push_str(&escape(address)),
            Inline::LineBreak { .. } | Inline::HardBreak { .. } => out.push('\n'),
            Inline::Link {
                url: Some(url),
                content,
                ..
            } => {
                out.push_str(&format!(
                    "<a href=\"{}\">",
                    escape(url).replace('"', "&quot;")
                ));
                stack.push((content.iter(), true));
            }
            Inline::Link { content, .. }
            | Inline::Emphasis { content, .. }
            | Inline::Strong { content, .. }
            | Inline::Code { content, .. }
            | Inline::Superscript { content, .. }
            | Inline::Subscript { content, .. } => stack.push((content.iter(), false)),
            Inline::Image { alt, .. } => out.push_str(&escape(&crate::walk::plain_text(alt))),
        }
    }
    out
}

/// Every `|` of a cell that is not escaped yet (one in a code span), as
/// `\|`: GFM reads that as a `|` even in a code span.
fn escape_pipes(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                out.push(c);
                if let Some(next) = chars.next() {
                    out.push(next);
                }
            }
            '|' => out.push_str("\\|"),
            _ => out.push(c),
        }
    }
    out
}

/// The longest run of `c` in `s`.
fn longest_run(s: &str, c: char) -> usize {
    let (mut best, mut run) = (0, 0);
    for ch in s.chars() {
        run = if ch == c { run + 1 } else { 0 };
        best = best.max(run);
    }
    best
}

/// Escapes what would start a block at a line's start: `#`, `>`, `-`, `+`,
/// `=`, `~` and a number followed by `.` or `)` (a list item).
fn guard_line_start(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 4);
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let digits = line.bytes().take_while(u8::is_ascii_digit).count();
        let starts_block = matches!(
            line.as_bytes().first(),
            Some(b'#' | b'-' | b'+' | b'=' | b'~')
        ) || (digits > 0
            && matches!(line.as_bytes().get(digits), Some(b'.' | b')')));
        if starts_block && digits > 0 {
            out.push_str(&line[..digits]);
            out.push('\\');
            out.push_str(&line[digits..]);
        } else if starts_block {
            out.push('\\');
            out.push_str(line);
        } else {
            out.push_str(line);
        }
    }
    out
}

/// Text escaped for CommonMark (see the module's comment).
fn escape_text(text: &str, out: &mut String) {
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '&' | '|' => {
                out.push('\\');
                out.push(c);
            }
            '!' if chars.peek() == Some(&'[') => out.push_str("\\!"),
            _ => out.push(c),
        }
    }
}

/// A link destination as CommonMark reads it: in `<...>` when it holds
/// spaces or parentheses.
/// A backslash and `&` are escaped (CommonMark reads `\)` as a
/// parenthesis, and `&amp;` as `&`).
fn destination(url: &str) -> String {
    let url = url.replace('\\', "\\\\").replace('&', "\\&");
    if url.contains([' ', '(', ')', '<', '>']) || url.is_empty() {
        format!("<{}>", url.replace('<', "%3C").replace('>', "%3E"))
    } else {
        url
    }
}

/// An inline run as CommonMark: line divisions are spaces, a forced break
/// `\` and a line feed. Walks without recursion.
fn inline_markdown(run: &[Inline]) -> String {
    let mut out = String::new();
    // Each open container with the text that closes it.
    let mut stack: Vec<(std::slice::Iter<'_, Inline>, Option<String>)> = vec![(run.iter(), None)];
    while let Some((top, _)) = stack.last_mut() {
        let Some(node) = top.next() else {
            if let Some((_, Some(end))) = stack.pop() {
                out.push_str(&end);
            }
            continue;
        };
        match node {
            Inline::Text { text, .. } => escape_text(text, &mut out),
            Inline::LineBreak { .. } => {
                if !out.ends_with([' ', '\n']) {
                    out.push(' ');
                }
            }
            Inline::HardBreak { .. } => {
                let kept = out.trim_end_matches(' ').len();
                out.truncate(kept);
                out.push_str("\\\n");
            }
            Inline::Email { address, .. } => {
                out.push('<');
                out.push_str(address);
                out.push('>');
            }
            Inline::Emphasis { content, .. } => {
                out.push('*');
                stack.push((content.iter(), Some("*".into())));
            }
            Inline::Strong { content, .. } => {
                out.push_str("**");
                stack.push((content.iter(), Some("**".into())));
            }
            Inline::Superscript { content, .. } => {
                out.push_str("<sup>");
                stack.push((content.iter(), Some("</sup>".into())));
            }
            Inline::Subscript { content, .. } => {
                out.push_str("<sub>");
                stack.push((content.iter(), Some("</sub>".into())));
            }
            // Sample text holding a link (a directive's name linked to its
            // documentation): raw `<code>` around Markdown, which keeps the
            // link (a code span holds text only).
            Inline::Code { content, .. }
                if content
                    .iter()
                    .any(|i| !matches!(i, Inline::Text { .. } | Inline::LineBreak { .. })) =>
            {
                out.push_str("<code>");
                stack.push((content.iter(), Some("</code>".into())));
            }
            Inline::Code { content, .. } => {
                let text = crate::walk::plain_text(content).replace('\n', " ");
                let ticks = "`".repeat(longest_run(&text, '`') + 1);
                let pad = if text.starts_with('`') || text.ends_with('`') {
                    " "
                } else {
                    ""
                };
                out.push_str(&format!("{ticks}{pad}{text}{pad}{ticks}"));
            }
            Inline::Link {
                url,
                fragment,
                content,
                ..
            } => {
                // An anchor (the fragment names a place in the page) stays
                // a target for in-page links: raw HTML, which CommonMark
                // passes through.
                if let Some(name) = fragment {
                    out.push_str(&format!("<a id=\"{}\"></a>", name.replace('"', "%22")));
                }
                match url {
                    Some(url) => {
                        // `!` before a link's `[` would make it an image.
                        if out.ends_with('!') && !out.ends_with("\\!") {
                            out.pop();
                            out.push_str("\\!");
                        }
                        out.push('[');
                        stack.push((content.iter(), Some(format!("]({})", destination(url)))));
                    }
                    None => stack.push((content.iter(), None)),
                }
            }
            Inline::Image { src, alt, .. } => {
                let mut text = String::new();
                escape_text(&crate::walk::plain_text(alt).replace('\n', " "), &mut text);
                out.push_str(&format!("![{text}]({})", destination(src)));
            }
        }
    }
    out.trim().to_owned()
}

#[cfg(test)]
mod tests {
    use super::markdown;

    fn of(text: &str) -> String {
        markdown(&crate::parse(text).document)
    }

    #[test]
    fn a_document_as_commonmark() {
        let text = concat!(
            "#Title T\n#Extend image table break subsup\n\n",
            "== A _heading_ ==\n\n",
            "A [https://example.org/a_(b)||link] and ![cat.jpg||a cat], *strong*, 'code'.\n\n",
            "Two<br>lines, 10^{6} and 2 * 3_4 [x] <y> & z|w\n\n",
            "  * one\n  * two\n      1. inner\n\n",
            "  > quoted\n\n",
            "Term::\n    Its definition.\n\n",
            "|= Item |= Cost |\n| Tea | 2 |\n\n",
            "----\n\n",
            "    pre ``` formatted\n",
        );
        assert_eq!(
            of(text),
            concat!(
                "## A *heading*\n\n",
                "A [link](<https://example.org/a_(b)>) and ![a cat](cat.jpg), **strong**, `code`.\n\n",
                "Two\\\nlines, 10<sup>6</sup> and 2 \\* 3\\_4 \\[x\\] \\<y\\> \\& z\\|w\n\n",
                "- one\n- two\n\n  1. inner\n\n",
                "> quoted\n\n",
                "- **Term**\n\n  Its definition.\n\n",
                "| Item | Cost |\n| --- | --- |\n| Tea | 2 |\n\n",
                "* * *\n\n",
                "````\npre ``` formatted\n````\n",
            )
        );
    }

    #[test]
    fn line_starts_that_would_be_blocks_are_escaped() {
        // And a `!` right before a link, which would make it an image.
        assert_eq!(of("\nWow![#x||link]\n"), "Wow\\![link](#x)\n");
        assert_eq!(of("\n# not a heading\n"), "\\# not a heading\n");
        assert_eq!(of("\n1. not a list\n"), "1\\. not a list\n");
        assert_eq!(of("\n- not an item\n"), "\\- not an item\n");
    }

    #[test]
    fn a_figure_is_its_image_then_its_caption() {
        let text =
            "#Extend image figure\n\n![chart.png||Sales]\n    Figure 1, _sales_.\n\nAfter.\n";
        assert_eq!(
            of(text),
            "![Sales](chart.png)\n\nFigure 1, *sales*.\n\nAfter.\n"
        );
    }
}
