//! A preview's document cut into its head and its body's top-level blocks,
//! for an editor that replaces only the blocks an edit changed
//! (`pagetext edit`).
//!
//! The input is what [`super::emit_text`] wrote with
//! [`super::EmitOptions::source_lines`]: every block start tag that knows
//! its line carries `data-line="N"`. Each top-level block comes out with its
//! line apart from its markup, so that a block's markup stays the same when
//! lines are added or taken away above it:
//!
//! - the top-level element's own `data-line` is taken out (it is the
//!   block's [`PreviewBlock::line`]);
//! - a nested block's `data-line="M"` becomes `data-offset="K"`, its line
//!   counted from the top-level block's (`K = M - N`). A top-level element
//!   with no mark of its own (a list, whose items have them) takes its first
//!   nested block's line.
//!
//! So two edits that only move a block down give it the same
//! [`PreviewBlock::html`], and a client compares blocks as strings.
//!
//! The scan reads only markup this crate's serializer writes: text and
//! attribute values hold no `<` (both escape it), attribute values are
//! quoted with `"`, empty elements end in `/>`, and comments are `<!--
//! ... -->`. It is one pass with no recursion. Markup it cannot follow
//! (an end tag with nothing open, no `<body>`) gives `None`, and the
//! caller sends the whole document instead.

/// A preview in parts: see the [module docs](self).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PreviewParts {
    /// Everything up to and including the body's start tag.
    pub head: String,
    /// The body's content, one top-level element each (with the text and
    /// comments before it); the text after the last element, if any, is a
    /// last block with no line.
    pub blocks: Vec<PreviewBlock>,
    /// The body's end tag and what follows it.
    pub tail: String,
}

/// One top-level block of a preview's body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PreviewBlock {
    /// The text line the block starts on (its `data-line`), when known.
    pub line: Option<u32>,
    /// The block's markup without its own `data-line`; nested marks are
    /// `data-offset` from [`PreviewBlock::line`].
    pub html: String,
}

/// The head and top-level blocks of `xhtml`, a preview written with source
/// lines; `None` when it is not markup of that shape.
#[must_use]
pub fn preview_parts(xhtml: &str) -> Option<PreviewParts> {
    let body_start = find_tag(xhtml, 0, "body")?;
    let body_open_end = tag_end(xhtml, body_start)?;
    let mut blocks = Vec::new();
    let mut depth = 0usize;
    let mut segment_start = body_open_end;
    let mut top: Option<Top> = None;
    let mut at = body_open_end;
    while let Some(offset) = xhtml[at..].find('<') {
        let lt = at + offset;
        let rest = &xhtml[lt..];
        if rest.starts_with("<!--") {
            at = lt + 4 + xhtml[lt + 4..].find("-->")? + 3;
            continue;
        }
        let end = tag_end(xhtml, lt)?;
        let tag = &xhtml[lt..end];
        if tag.starts_with("</") {
            if depth == 0 {
                // The body's end tag: the rest is the tail.
                if !tag.starts_with("</body") {
                    return None;
                }
                // Text after the last element is a last block; blank, it
                // goes with the tail.
                let rest = &xhtml[segment_start..lt];
                let tail_start = if rest.trim().is_empty() {
                    segment_start
                } else {
                    blocks.push(PreviewBlock {
                        line: None,
                        html: rest.to_owned(),
                    });
                    lt
                };
                return Some(PreviewParts {
                    head: xhtml[..body_open_end].to_owned(),
                    blocks,
                    tail: xhtml[tail_start..].to_owned(),
                });
            }
            depth -= 1;
            if depth == 0 {
                let block = top.take().unwrap_or_default();
                blocks.push(block.finish(&xhtml[segment_start..end]));
                segment_start = end;
            }
        } else if !tag.starts_with("<!") && !tag.starts_with("<?") {
            let empty = tag.ends_with("/>");
            if depth == 0 {
                let block = Top::new(lt - segment_start, tag);
                if empty {
                    blocks.push(block.finish(&xhtml[segment_start..end]));
                    segment_start = end;
                } else {
                    top = Some(block);
                }
            } else if let Some(block) = top.as_mut() {
                block.note_nested(lt - segment_start, tag);
            }
            if !empty {
                depth += 1;
            }
        }
        at = end;
    }
    None
}

/// The first start tag named `name` at or after `from`.
fn find_tag(s: &str, from: usize, name: &str) -> Option<usize> {
    let mut at = from;
    while let Some(offset) = s[at..].find('<') {
        let lt = at + offset;
        let after = &s[lt + 1..];
        if after.starts_with(name)
            && after[name.len()..]
                .starts_with(|c: char| c == '>' || c == '/' || c.is_ascii_whitespace())
        {
            return Some(lt);
        }
        at = lt + 1;
    }
    None
}

/// The index just past the `>` that ends the tag starting at `lt`
/// (attribute values are quoted with `"`, so a `>` inside one is skipped).
fn tag_end(s: &str, lt: usize) -> Option<usize> {
    let mut quoted = false;
    for (i, b) in s.as_bytes().get(lt..)?.iter().enumerate() {
        match b {
            b'"' => quoted = !quoted,
            b'>' if !quoted => return Some(lt + i + 1),
            _ => {}
        }
    }
    None
}

/// The value and the byte range (from the space before it to the closing
/// quote) of the `data-line` attribute in `tag`.
fn data_line(tag: &str) -> Option<(u32, std::ops::Range<usize>)> {
    const ATTR: &str = " data-line=\"";
    let start = tag.find(ATTR)?;
    let value_start = start + ATTR.len();
    let len = tag[value_start..].find('"')?;
    let line = tag[value_start..value_start + len].parse().ok()?;
    Some((line, start..value_start + len + 1))
}

/// A top-level block being read: where its own mark is and the nested
/// marks to rewrite, as byte ranges of its segment.
#[derive(Default)]
struct Top {
    line: Option<u32>,
    /// The segment's bytes of its own ` data-line="N"`, taken out.
    own: Option<std::ops::Range<usize>>,
    /// Nested marks: (range of ` data-line="M"` in the segment, M).
    nested: Vec<(std::ops::Range<usize>, u32)>,
}

impl Top {
    fn new(tag_at: usize, tag: &str) -> Top {
        let mark = data_line(tag);
        Top {
            line: mark.as_ref().map(|(line, _)| *line),
            own: mark.map(|(_, r)| r.start + tag_at..r.end + tag_at),
            nested: Vec::new(),
        }
    }

    fn note_nested(&mut self, tag_at: usize, tag: &str) {
        if let Some((line, r)) = data_line(tag) {
            // A block whose element has no line of its own (a list: its
            // items have) takes its first nested block's.
            if self.line.is_none() {
                self.line = Some(line);
            }
            self.nested.push((r.start + tag_at..r.end + tag_at, line));
        }
    }

    /// The block, from its segment's markup.
    fn finish(self, segment: &str) -> PreviewBlock {
        let mut html = String::with_capacity(segment.len());
        let mut copied = 0;
        if let Some(own) = &self.own {
            html.push_str(&segment[..own.start]);
            copied = own.end;
        }
        let base = self.line.unwrap_or(0);
        // Nested marks come after the block's own start tag, in order.
        for (range, line) in &self.nested {
            html.push_str(&segment[copied..range.start]);
            html.push_str(" data-offset=\"");
            html.push_str(&line.saturating_sub(base).to_string());
            html.push('"');
            copied = range.end;
        }
        html.push_str(&segment[copied..]);
        PreviewBlock {
            line: self.line,
            html,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::emit::{EmitOptions, emit_text};

    fn parts(text: &str) -> PreviewParts {
        let options = EmitOptions {
            source_lines: true,
            tables: true,
            ..EmitOptions::default()
        };
        let xhtml = emit_text(text, &options).emitted.text;
        preview_parts(&xhtml).unwrap_or_else(|| panic!("no parts in {xhtml}"))
    }

    #[test]
    fn blocks_come_with_their_lines_and_the_whole_is_kept() {
        let text = "#Title T\n\n= Top =\n\nOne\nparagraph.\n\n  * a\n  * b\n\nend\n";
        let options = EmitOptions {
            source_lines: true,
            ..EmitOptions::default()
        };
        let xhtml = emit_text(text, &options).emitted.text;
        let p = preview_parts(&xhtml).unwrap();
        assert!(p.head.ends_with("<body>"), "{}", p.head);
        assert!(p.tail.starts_with("\n</body>"), "{}", p.tail);
        // Nothing is lost: the parts make the whole again.
        let whole: String = p.blocks.iter().map(|b| b.html.as_str()).collect();
        let marks_out = xhtml
            .replace(" data-line=\"3\"", "")
            .replace(" data-line=\"5\"", "")
            .replace(" data-line=\"11\"", "")
            .replace(" data-line=\"8\"", " data-offset=\"0\"")
            .replace(" data-line=\"9\"", " data-offset=\"1\"");
        assert_eq!(format!("{}{whole}{}", p.head, p.tail), marks_out);
        let lines: Vec<_> = p.blocks.iter().map(|b| b.line).collect();
        assert_eq!(lines, [Some(3), Some(5), Some(8), Some(11)]);
        assert!(p.blocks[0].html.starts_with('\n'), "{:?}", p.blocks[0].html);
        assert_eq!(p.blocks[0].html.trim(), "<h1>Top</h1>");
        assert_eq!(p.blocks[1].html.trim(), "<p>One\nparagraph.</p>");
        // The items' marks count from the list's line.
        let list = p.blocks[2].html.trim();
        assert!(list.starts_with("<ul>"), "{list}");
        assert!(list.contains("<li data-offset=\"0\">a</li>"), "{list}");
        assert!(list.contains("<li data-offset=\"1\">b</li>"), "{list}");
        assert!(!list.contains("data-line"), "{list}");
    }

    #[test]
    fn a_block_moved_down_keeps_its_markup() {
        let before =
            parts("#Title T\n#Extend table\n\nfirst\n\n  * a\n  * b\n\n| x | y |\n| z | w |\n");
        let after = parts(
            "#Title T\n#Extend table\n\nfirst\nand more\n\nnew\n\n  * a\n  * b\n\n| x | y |\n| z | w |\n",
        );
        assert_eq!(before.head, after.head);
        let (b, a) = (&before.blocks, &after.blocks);
        assert_eq!(b.len() + 1, a.len());
        assert_ne!(b[0].html, a[0].html);
        // The list and the table moved three lines down and read the same.
        assert_eq!(b[1].html, a[2].html);
        assert_eq!(b[2].html, a[3].html);
        assert_eq!(a[2].line, b[1].line.map(|l| l + 3));
        assert!(a[3].html.contains("data-offset=\"1\""), "{}", a[3].html);
    }

    #[test]
    fn markup_it_cannot_follow_gives_none() {
        assert_eq!(preview_parts("<html><head></head></html>"), None);
        assert_eq!(preview_parts("<body><p>open"), None);
        assert_eq!(preview_parts("<body></p></body>"), None);
        assert_eq!(preview_parts("<body><p a=\"unclosed></p></body>"), None);
    }

    #[test]
    fn comments_empty_elements_and_quoted_brackets() {
        let p = preview_parts(
            "<html><body data-x=\"a>b\"><!-- c <p> --><hr data-line=\"2\" /><p title=\"x>y\" data-line=\"3\">t<br /></p>tail</body></html>",
        )
        .unwrap();
        assert_eq!(p.head, "<html><body data-x=\"a>b\">");
        assert_eq!(p.blocks.len(), 3);
        assert_eq!(p.blocks[0].html, "<!-- c <p> --><hr />");
        assert_eq!(p.blocks[0].line, Some(2));
        assert_eq!(p.blocks[1].html, "<p title=\"x>y\">t<br /></p>");
        assert_eq!(p.blocks[2].html, "tail");
        assert_eq!(p.blocks[2].line, None);
        assert_eq!(p.tail, "</body></html>");
    }

    #[test]
    fn deep_nesting_is_one_block() {
        let mut s = String::from("<html><body>");
        for _ in 0..100_000 {
            s.push_str("<div>");
        }
        for _ in 0..100_000 {
            s.push_str("</div>");
        }
        s.push_str("</body></html>");
        let p = preview_parts(&s).unwrap();
        assert_eq!(p.blocks.len(), 1);
    }
}
