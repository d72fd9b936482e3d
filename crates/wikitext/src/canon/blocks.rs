//! Blocks the format can hold: empty elements dropped, text at the top
//! level made a paragraph, lists and definition lists in a row merged,
//! and what cannot open a container moved out of the way (seed 000
//! "Block-level Elements"). Each change is reported at the node's own
//! position. Blocks are taken by value, so nothing the format holds as it
//! is gets copied.

use std::mem;

use crate::diag::{Code, Severity};
use crate::model::{Block, DefItem, Inline, ListItem, ListKind, MAX_DEPTH, Pos, Term};

use super::copy::block_text;
use super::inlines::{canon_inlines, canon_pre_line};
use super::merge::{Merge, push_merging};
use super::{Ctx, Fixer, Role, Silent};

/// The blocks of a container whose blocks are at `depth` (the body's are
/// at 1). Recursion is bounded by [`MAX_DEPTH`]: deeper containers are
/// written as their text.
pub(super) fn canon_blocks(blocks: Vec<Block>, depth: usize, fixer: &mut Fixer) -> Vec<Block> {
    let mut out: Vec<Block> = Vec::with_capacity(blocks.len());
    let flow = fixer.flow_at(depth);
    for block in blocks {
        if depth >= MAX_DEPTH && has_nested_blocks(&block) {
            too_deep(&block, depth, &mut out, fixer);
            super::copy::dismantle(block);
            continue;
        }
        match block {
            Block::Paragraph { content, pos } => {
                let content = canon_inlines(content, flow, Role::Paragraph, pos, fixer);
                if content.is_empty() {
                    fixer.report(
                        Code::EmptyElementDropped,
                        Severity::Info,
                        "an empty paragraph was dropped",
                        pos,
                    );
                } else {
                    out.push(Block::Paragraph { content, pos });
                }
            }
            Block::Text { content, pos } => {
                let role = if depth <= 1 {
                    Role::Paragraph
                } else {
                    Role::Text
                };
                let content = canon_inlines(content, flow, role, pos, fixer);
                if content.is_empty() {
                    fixer.report(
                        Code::EmptyElementDropped,
                        Severity::Info,
                        "an empty text block was dropped",
                        pos,
                    );
                } else {
                    push_text_block(&mut out, content, depth, pos, fixer);
                }
            }
            Block::Preformatted { lines, pos } => {
                if let Some(b) = canon_pre(lines, pos, fixer) {
                    out.push(b);
                }
            }
            Block::Heading {
                level,
                content,
                pos,
            } => heading(level, content, pos, &mut out, fixer),
            Block::Rule { pos } => out.push(Block::Rule { pos }),
            Block::Blockquote { content, pos } => blockquote(content, pos, depth, &mut out, fixer),
            Block::List { kind, items, pos } => list(kind, items, pos, depth, &mut out, fixer),
            Block::DefinitionList {
                compact,
                items,
                pos,
            } => definition_list(compact, items, pos, depth, &mut out, fixer),
            Block::Table { caption, rows, pos } => {
                super::tables::table((caption, rows, pos), depth, &mut out, fixer);
            }
            Block::Figure {
                image,
                caption,
                pos,
            } => figure(image, caption, pos, depth, &mut out, fixer),
        }
    }
    text_between_paragraphs(&mut out, fixer);
    out
}

/// Text that empty lines must surround is a paragraph: in a container, a
/// text block after a paragraph or another text block (an empty line keeps
/// them apart) and before one of the blocks that text must leave an empty
/// line before (a paragraph, text, preformatted text, a blockquote, a
/// table). The text format reads text so surrounded as a paragraph (seed
/// 000 "Body Part"); a parsed text never has such a text block, an
/// ingested page may (`<p>a</p> b <p>c</p>`, three links in a row of
/// `div`s).
fn text_between_paragraphs(blocks: &mut [Block], fixer: &mut Fixer) {
    let mut pos = None;
    for i in 1..blocks.len().saturating_sub(1) {
        let surrounded = matches!(
            blocks.get(i - 1),
            Some(Block::Paragraph { .. } | Block::Text { .. })
        ) && matches!(
            blocks.get(i + 1),
            Some(
                Block::Paragraph { .. }
                    | Block::Text { .. }
                    | Block::Preformatted { .. }
                    | Block::Blockquote { .. }
                    | Block::Table { .. }
            )
        );
        if surrounded
            && let Some(block) = blocks.get_mut(i)
            && let Block::Text { content, pos: at } = block
        {
            let content = std::mem::take(content);
            let at = *at;
            *block = Block::Paragraph { content, pos: at };
            pos.get_or_insert(at);
        }
    }
    if let Some(pos) = pos {
        fixer.report(
            Code::ModelNormalized,
            Severity::Info,
            "text that empty lines surround was made a paragraph (the text format reads it as one)",
            pos,
        );
    }
}

/// Whether a container holds blocks (which would nest them deeper).
fn has_nested_blocks(block: &Block) -> bool {
    match block {
        Block::Blockquote { content, .. } => !content.is_empty(),
        Block::List { items, .. } => !items.is_empty(),
        Block::DefinitionList { items, .. } => items.iter().any(|i| !i.definition.is_empty()),
        Block::Table { rows, .. } => rows
            .iter()
            .any(|r| r.cells.iter().any(|c| !c.content.is_empty())),
        Block::Figure { caption, .. } => !caption.is_empty(),
        _ => false,
    }
}

/// A container at [`MAX_DEPTH`] would put blocks deeper than the parser
/// reads: it is written as its text.
fn too_deep(block: &Block, depth: usize, out: &mut Vec<Block>, fixer: &mut Fixer) {
    let pos = block.pos();
    fixer.report(
        Code::NotRoundTrip,
        Severity::Error,
        format!(
            "blocks nest deeper than {MAX_DEPTH} levels; this {} was written as plain text",
            block.kind_name()
        ),
        pos,
    );
    let text = block_text(std::slice::from_ref(block));
    if !text.is_empty() {
        let role = if depth <= 1 {
            Role::Paragraph
        } else {
            Role::Text
        };
        let content = canon_inlines(text, fixer.flow(), role, pos, fixer);
        push_text_block(out, content, depth, pos, fixer);
    }
}

fn heading(level: u8, content: Vec<Inline>, pos: Pos, out: &mut Vec<Block>, fixer: &mut Fixer) {
    let mut content = canon_inlines(content, fixer.heading(), Role::Heading, pos, fixer);
    if trim_edges(&mut content) {
        fixer.report(
            Code::ModelNormalized,
            Severity::Info,
            "white space at the edge of a heading (a no-break space) was dropped: a heading's title \
             starts right after its `= ` and ends right before its ` =`",
            pos,
        );
    }
    let fixed_level = level.clamp(1, 6);
    if fixed_level != level {
        fixer.report(
            Code::NotRoundTrip,
            Severity::Warning,
            format!("heading level {level} does not exist; written as level {fixed_level}"),
            pos,
        );
    }
    if content.is_empty() {
        fixer.report(
            Code::EmptyElementDropped,
            Severity::Info,
            "an empty heading was dropped",
            pos,
        );
    } else {
        out.push(Block::Heading {
            level: fixed_level,
            content,
            pos,
        });
    }
}

/// Seed 000, heading: the title may not start or end with white space.
/// Trims the white space no escape can save (a no-break space, say: an
/// escape takes only ASCII, and a space is escaped by the writer) off the
/// text at either edge of a heading's content; whether there was any.
fn trim_edges(content: &mut Vec<Inline>) -> bool {
    let unsaved = |c: char| c.is_whitespace() && c != ' ';
    let mut changed = false;
    while let Some(Inline::Text { text, .. }) = content.first_mut() {
        let kept = text.trim_start_matches(unsaved);
        if kept.len() == text.len() {
            break;
        }
        changed = true;
        if kept.is_empty() {
            content.remove(0);
        } else {
            *text = kept.to_owned();
            break;
        }
    }
    while let Some(Inline::Text { text, .. }) = content.last_mut() {
        let kept = text.trim_end_matches(unsaved);
        if kept.len() == text.len() {
            break;
        }
        changed = true;
        if kept.is_empty() {
            content.pop();
        } else {
            text.truncate(kept.len());
            break;
        }
    }
    changed
}

fn blockquote(
    content: Vec<Block>,
    pos: Pos,
    depth: usize,
    out: &mut Vec<Block>,
    fixer: &mut Fixer,
) {
    let mut content = canon_blocks(content, depth + 1, fixer);
    if fixer.open() {
        // `#Extend open` writes the blockquote after a bare `>`.
        if !content.is_empty() {
            out.push(Block::Blockquote { content, pos });
        } else {
            fixer.report(
                Code::EmptyElementDropped,
                Severity::Info,
                "an empty blockquote was dropped",
                pos,
            );
        }
        return;
    }
    unwrap_leading_blockquotes(&mut content, fixer);
    // A list or preformatted text cannot open a blockquote either: it goes
    // before the blockquote, outside it.
    let mut hoisted = false;
    while matches!(
        content.first(),
        Some(Block::List { .. } | Block::Preformatted { .. })
    ) {
        let first = content.remove(0);
        fixer.report(
            Code::NotRoundTrip,
            Severity::Warning,
            format!(
                "a blockquote cannot start with a {} in text; it was written before the blockquote",
                first.kind_name()
            ),
            first.pos(),
        );
        push_merging(out, first, Merge::Repair, fixer);
        hoisted = true;
        unwrap_leading_blockquotes(&mut content, fixer);
    }
    if !content.is_empty() {
        out.push(Block::Blockquote { content, pos });
    } else if !hoisted {
        fixer.report(
            Code::EmptyElementDropped,
            Severity::Info,
            "an empty blockquote was dropped",
            pos,
        );
    }
}

fn list(
    kind: ListKind,
    items: Vec<ListItem>,
    pos: Pos,
    depth: usize,
    out: &mut Vec<Block>,
    fixer: &mut Fixer,
) {
    let mut fixed = Vec::with_capacity(items.len());
    for item in items {
        let mut content = canon_blocks(item.content, depth + 1, fixer);
        if !fixer.open() {
            unwrap_leading_blockquotes(&mut content, fixer);
        }
        if content.is_empty() {
            fixer.report(
                Code::EmptyElementDropped,
                Severity::Warning,
                "an empty list item cannot be written; it was dropped",
                item.pos,
            );
        } else {
            fixed.push(ListItem {
                content,
                pos: item.pos,
            });
        }
    }
    if fixed.is_empty() {
        fixer.report(
            Code::EmptyElementDropped,
            Severity::Info,
            "an empty list was dropped",
            pos,
        );
        return;
    }
    // Consecutive lists of the same type read back as one list.
    push_merging(
        out,
        Block::List {
            kind,
            items: fixed,
            pos,
        },
        Merge::Repair,
        fixer,
    );
}

fn terms(terms: Vec<Term>, flow: Ctx, fixer: &mut Fixer) -> Vec<Term> {
    let mut out = Vec::with_capacity(terms.len());
    for term in terms {
        let content = canon_inlines(term.content, flow, Role::Term, term.pos, fixer);
        if content.is_empty() {
            fixer.report(
                Code::EmptyElementDropped,
                Severity::Info,
                "an empty definition term was dropped",
                term.pos,
            );
        } else {
            out.push(Term {
                content,
                pos: term.pos,
            });
        }
    }
    out
}

fn definition_list(
    compact: bool,
    items: Vec<DefItem>,
    pos: Pos,
    depth: usize,
    out: &mut Vec<Block>,
    fixer: &mut Fixer,
) {
    let flow = fixer.flow_at(depth);
    let mut fixed = Vec::with_capacity(items.len());
    let mut hoisted = false;
    for item in items {
        let terms = terms(item.terms, flow, fixer);
        let mut definition = canon_blocks(item.definition, depth + 1, fixer);
        // `#Extend open` writes such a definition after a bare `::`.
        let open = fixer.open();
        if !open {
            unwrap_leading_blockquotes(&mut definition, fixer);
        }
        if open || !matches!(definition.first(), Some(Block::List { .. })) {
            fixed.push(DefItem {
                terms,
                definition,
                pos: item.pos,
            });
            continue;
        }
        // Interpretation 6: a bullet on a definition's first line starts a
        // list after the terms. So the list goes there, between two
        // definition lists, and the rest of the definition follows under an
        // empty term (`::`).
        if !terms.is_empty() {
            fixed.push(DefItem {
                terms,
                definition: Vec::new(),
                pos: item.pos,
            });
        }
        push_definition_list(out, compact, mem::take(&mut fixed), pos, fixer);
        while matches!(definition.first(), Some(Block::List { .. })) {
            let list = definition.remove(0);
            fixer.report(
                Code::NotRoundTrip,
                Severity::Warning,
                "a definition cannot start with a list in text; the list was written after the terms, outside the definition list",
                list.pos(),
            );
            push_merging(out, list, Merge::Repair, fixer);
        }
        hoisted = true;
        if !definition.is_empty() {
            fixed.push(DefItem {
                terms: Vec::new(),
                definition,
                pos: item.pos,
            });
        }
    }
    if fixed.is_empty() {
        if !hoisted {
            fixer.report(
                Code::EmptyElementDropped,
                Severity::Info,
                "an empty definition list was dropped",
                pos,
            );
        }
        return;
    }
    push_definition_list(out, compact, fixed, pos, fixer);
}

/// `docs/format.md`, "Figures": a figure is written as a compact
/// definition item whose term is its image, the caption indented under
/// it. Its caption's first line is read right after the image, unindented
/// and never as a paragraph: a first paragraph becomes bare text, and a
/// caption that opens with a list, preformatted text or a blockquote
/// cannot be written. Where no figure can be written (that, pure seed
/// text, an image that did not stay one), the image and the caption
/// become blocks of their own, with a warning. A figure without a
/// caption is its image.
fn figure(
    image: Vec<Inline>,
    caption: Vec<Block>,
    pos: Pos,
    depth: usize,
    out: &mut Vec<Block>,
    fixer: &mut Fixer,
) {
    use crate::render::opens_with_block;
    let flow = fixer.flow_at(depth);
    let image = canon_inlines(image, flow, Role::Term, pos, fixer);
    if !fixer.figures() || !crate::grammar::is_figure_image(&image) || opens_with_block(&caption) {
        let caption = canon_blocks(caption, depth, fixer);
        return figure_as_blocks(image, caption, pos, depth, out, fixer);
    }
    let mut caption = canon_blocks(caption, depth + 1, fixer);
    if let Some(first) = caption.first_mut()
        && let Block::Paragraph { content, pos } = first
    {
        let (content, at) = (mem::take(content), *pos);
        *first = Block::Text { content, pos: at };
        fixer.report(
            Code::ModelNormalized,
            Severity::Info,
            "the first paragraph of a figure's caption is bare text (its line stands right under the image)",
            at,
        );
    }
    // Repairs inside the caption may have left it empty, or opening with
    // what cannot stand under the image.
    if caption.is_empty() || opens_with_block(&caption) {
        return figure_as_blocks(image, caption, pos, depth, out, fixer);
    }
    out.push(Block::Figure {
        image,
        caption,
        pos,
    });
}

/// A figure that cannot be written as one: its image, then its caption's
/// blocks (already repaired), with a warning; a figure without a caption
/// is its image (info).
fn figure_as_blocks(
    image: Vec<Inline>,
    caption: Vec<Block>,
    pos: Pos,
    depth: usize,
    out: &mut Vec<Block>,
    fixer: &mut Fixer,
) {
    if caption.is_empty() {
        fixer.report(
            Code::EmptyElementDropped,
            Severity::Info,
            "a figure without a caption was written as its image",
            pos,
        );
    } else {
        figure_unwritable(pos, fixer);
    }
    image_block(out, image, depth, pos);
    for block in caption {
        // A list in the caption may follow a list before the figure.
        push_merging(out, lift(block, depth), Merge::Repair, fixer);
    }
}

fn figure_unwritable(pos: Pos, fixer: &mut Fixer) {
    fixer.report(
        Code::UnrepresentableFigure,
        Severity::Warning,
        "this figure cannot be written in text; its image and its caption were written as blocks of their own",
        pos,
    );
}

/// A figure's image as a block of its own, where the figure is not kept.
fn image_block(out: &mut Vec<Block>, image: Vec<Inline>, depth: usize, pos: Pos) {
    if !image.is_empty() {
        out.push(lift(
            Block::Text {
                content: image,
                pos,
            },
            depth,
        ));
    }
}

/// A block put at `depth` (a caption's, moved up from `depth + 1`, or a
/// figure's image): at the top level, text is a paragraph.
fn lift(block: Block, depth: usize) -> Block {
    match block {
        Block::Text { content, pos } if depth <= 1 => Block::Paragraph { content, pos },
        other => other,
    }
}

/// Seed 000 §"Block-level Elements": the first line of a list item,
/// blockquote or definition is read unindented, where a `> ` is text, so a
/// blockquote cannot open one. Its content takes its place (the text stays,
/// one level of indentation goes), with a warning.
fn unwrap_leading_blockquotes(content: &mut Vec<Block>, fixer: &mut Fixer) {
    // Each round removes one level; the depth is bounded by MAX_DEPTH.
    let mut unwrapped = false;
    while matches!(content.first(), Some(Block::Blockquote { .. })) {
        let Block::Blockquote {
            content: inner,
            pos,
        } = content.remove(0)
        else {
            break;
        };
        fixer.report(
            Code::NotRoundTrip,
            Severity::Warning,
            "a blockquote cannot open a list item, blockquote or definition in text; its content was written without it",
            pos,
        );
        content.splice(0..0, inner);
        unwrapped = true;
    }
    if unwrapped {
        // What was inside may end with a list the next block continues.
        merge_adjacent(content, fixer);
    }
}

/// Merges lists of one type, and definition lists, that stand in a row
/// (text cannot tell them apart).
fn merge_adjacent(content: &mut Vec<Block>, fixer: &mut Fixer) {
    let blocks = mem::take(content);
    for block in blocks {
        push_merging(content, block, Merge::Repair, fixer);
    }
}

/// A definition list of `items` after `out` (nothing when there are none).
fn push_definition_list(
    out: &mut Vec<Block>,
    compact: bool,
    items: Vec<DefItem>,
    pos: Pos,
    fixer: &mut Fixer,
) {
    if !items.is_empty() {
        let list = Block::DefinitionList {
            compact,
            items,
            pos,
        };
        push_merging(out, list, Merge::Repair, fixer);
    }
}

/// A bare text block; at the top level every text block is a paragraph.
fn push_text_block(
    out: &mut Vec<Block>,
    content: Vec<Inline>,
    depth: usize,
    pos: Pos,
    fixer: &mut Fixer,
) {
    if depth <= 1 {
        fixer.report(
            Code::NotRoundTrip,
            Severity::Info,
            "text at the top level is always a paragraph; it was written as one",
            pos,
        );
        out.push(Block::Paragraph { content, pos });
    } else {
        out.push(Block::Text { content, pos });
    }
}

/// Preformatted text: line divisions make more lines, consecutive empty
/// lines become one (the parser collapses them), and empty lines at the
/// start or end go (they cannot be written).
fn canon_pre(lines: Vec<Vec<Inline>>, pos: Pos, fixer: &mut Fixer) -> Option<Block> {
    let mut out: Vec<Vec<Inline>> = Vec::with_capacity(lines.len());
    // Lines still to repair, the next one last.
    let mut todo = split_pre_lines(lines);
    todo.reverse();
    while let Some(line) = todo.pop() {
        let fixed = canon_pre_line(line, pos, fixer);
        if fixed
            .iter()
            .any(|node| matches!(node, Inline::LineBreak { .. }))
        {
            // The repair brought a line division out of markup that went
            // (an element that held nothing else): it divides the line, as
            // one outside markup does. Each division is split off once, so
            // this ends.
            todo.extend(split_pre_lines(vec![fixed]).into_iter().rev());
            continue;
        }
        if fixed.is_empty() && out.last().is_some_and(Vec::is_empty) {
            fixer.report_unless(
                Silent::PRE_EMPTY_LINES,
                Code::WhitespaceNormalized,
                Severity::Info,
                "consecutive empty lines in preformatted text were collapsed into one",
                pos,
            );
            continue;
        }
        out.push(fixed);
    }
    let before = out.len();
    while out.last().is_some_and(Vec::is_empty) {
        out.pop();
    }
    let lead = out.iter().take_while(|l| l.is_empty()).count();
    out.drain(..lead);
    if out.len() != before {
        fixer.report_unless(
            Silent::PRE_EMPTY_LINES,
            Code::WhitespaceNormalized,
            Severity::Info,
            "empty lines at the start or end of preformatted text were dropped",
            pos,
        );
    }
    if out.is_empty() {
        fixer.report(
            Code::EmptyElementDropped,
            Severity::Info,
            "empty preformatted text was dropped",
            pos,
        );
        return None;
    }
    Some(Block::Preformatted { lines: out, pos })
}

/// Splits lines of preformatted text at their line divisions (and at line
/// feeds inside text, which the model does not allow).
fn split_pre_lines(lines: Vec<Vec<Inline>>) -> Vec<Vec<Inline>> {
    let clean = |line: &[Inline]| {
        !line.iter().any(|node| match node {
            Inline::LineBreak { .. } => true,
            Inline::Text { text, .. } => text.contains(['\n', '\r']),
            _ => false,
        })
    };
    if lines.iter().all(|line| clean(line)) {
        return lines;
    }
    let mut split: Vec<Vec<Inline>> = Vec::with_capacity(lines.len());
    for line in lines {
        let mut current = Vec::new();
        for node in line {
            match node {
                Inline::LineBreak { .. } => split.push(mem::take(&mut current)),
                Inline::Text { text, pos } if text.contains(['\n', '\r']) => {
                    for (n, piece) in crate::lines::line_pieces(&text).enumerate() {
                        if n > 0 {
                            split.push(mem::take(&mut current));
                        }
                        if !piece.is_empty() {
                            current.push(Inline::Text {
                                text: piece.to_owned(),
                                pos,
                            });
                        }
                    }
                }
                other => current.push(other),
            }
        }
        split.push(current);
    }
    split
}
