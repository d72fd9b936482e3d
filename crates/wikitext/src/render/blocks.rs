//! Blocks to lines (seed 000 "Block-level Elements", in the canonical
//! layout of the crate documentation): gaps, indentation, bullets,
//! preformatted text, headings, rules, and inline runs as text.

use crate::model::{Block, Inline, ListKind, Numbering};
use crate::scan::{ends_sentence, is_side_char};

use super::defs::{Form, decide_form, needs_lead, render_def_item, starts_with_term_line};
use super::out::{LineKind, Out};
use super::spell::Spell;

/// The last line of a paragraph or text block.
pub(super) fn last_text_line<'s>(block: &'s Block, spell: Spell<'s>) -> Option<String> {
    match block {
        Block::Paragraph { content, .. } | Block::Text { content, .. } => {
            inline_lines(content, spell).pop()
        }
        _ => None,
    }
}

pub(super) fn is_text(block: Option<&Block>) -> bool {
    matches!(block, Some(Block::Paragraph { .. } | Block::Text { .. }))
}

/// Layout of the blocks of one container: for each block, the column of
/// the first line of an indented block that comes right after it (if any).
/// That line must be outdented relative to everything the block leaves open
/// (the content of its last item, a preformatted block itself), or it would
/// continue it. Preformatted text is indented one more than such a line;
/// list items, blockquotes and definitions push their content right.
/// Returns, per block, that column and the indentation of preformatted text.
/// With `open`, a list or blockquote may start further right (see
/// [`bare_shift`]).
pub(super) fn layout(blocks: &[Block], base: usize, open: bool) -> Vec<(Option<usize>, usize)> {
    let mut out = vec![(None, base + 2); blocks.len()];
    let mut next_start: Option<usize> = None;
    for (i, block) in blocks.iter().enumerate().rev() {
        let pre = next_start.map_or(base + 2, |n| (n + 2).max(base + 2));
        if let Some(slot) = out.get_mut(i) {
            *slot = (next_start, pre);
        }
        let min_content = next_start.map_or(0, |n| n + 1);
        next_start = match block {
            Block::Preformatted { .. } => Some(pre),
            Block::List { .. } | Block::Blockquote { .. } => {
                Some(base + 2 + bare_shift(block, base, min_content, open))
            }
            _ => None,
        };
    }
    out
}

/// How many columns right of `base + 2` a list or blockquote is written
/// so that its last item (or the blockquote), written after a bare opener,
/// has its content at `min_content` or further: the content of a bare
/// opener is one space after the mark, so the mark itself moves. Zero
/// unless `open` and such an opener is written.
pub(super) fn bare_shift(block: &Block, base: usize, min_content: usize, open: bool) -> usize {
    if !open {
        return 0;
    }
    let content = match block {
        Block::List { kind, items, .. } => match items.last() {
            Some(last) if super::opens_with_block(&last.content) => {
                base + 3 + bullet(*kind, items.len() - 1).chars().count()
            }
            _ => return 0,
        },
        Block::Blockquote { content, .. } if super::opens_with_block(content) => base + 4,
        _ => return 0,
    };
    min_content.saturating_sub(content)
}

/// How many spaces follow a bullet (or compact term) at `col` with text
/// `mark` so that the content starts at `min` or later, `least` at least.
pub(super) fn spaces_after(col: usize, mark: &str, least: usize, min: usize) -> usize {
    let end = col + mark.chars().count();
    least.max(min.saturating_sub(end))
}

/// Where the blocks of a container are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Container {
    /// The column of its non-indented lines.
    base: usize,
    /// The body or a container inside it.
    level: Level,
    /// Where its first block starts.
    start: Start,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Level {
    Body,
    Nested,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Start {
    /// On a line of its own.
    OwnLine,
    /// On the line of a bullet, `>` or compact term.
    OnBullet,
    /// On a line of its own that is read as an indented line (the
    /// definition of a `term::` item).
    Indented,
}

impl Container {
    pub(super) const BODY: Container = Container {
        base: 0,
        level: Level::Body,
        start: Start::OwnLine,
    };

    pub(super) fn nested(base: usize, start: Start) -> Container {
        Container {
            base,
            level: Level::Nested,
            start,
        }
    }
}

fn prev_block(blocks: &[Block], i: usize) -> Option<&Block> {
    i.checked_sub(1).and_then(|j| blocks.get(j))
}

/// Writes the blocks of a container.
pub(super) fn render_blocks<'s>(out: &mut Out<'s>, blocks: &'s [Block], container: Container) {
    let Container { base, level, start } = container;
    let nested = level == Level::Nested;
    let layout = layout(blocks, base, out.open);
    for (i, block) in blocks.iter().enumerate() {
        if level == Level::Body {
            out.begin_top();
        }
        // A term still waiting for its definition takes up an indented
        // block after it, empty lines or not: the two are read together.
        // So does text whose last line reads as a term (pure seed text
        // cannot escape its `::`).
        let waiting = matches!(prev_block(blocks, i), Some(Block::DefinitionList { items, .. })
                if items.last().is_some_and(|item| item.definition.is_empty()))
            || prev_block(blocks, i)
                .and_then(|b| last_text_line(b, out.spell))
                .is_some_and(|l| crate::scan::term_line(&l).is_some());
        // A table of the block form goes on over empty lines while lines
        // start with a bar: what follows it is read with it.
        let after_blocks = matches!(prev_block(blocks, i), Some(Block::Table { rows, .. })
                if !super::tables::is_grid(rows));
        if waiting || after_blocks {
            match level {
                Level::Body => out.glue(),
                Level::Nested => out.suspect(),
            }
        }
        let prev = i.checked_sub(1).and_then(|j| blocks.get(j));
        let first_on_bullet = i == 0 && start == Start::OnBullet;
        // Only bare text and definition lists are sure to read back where a
        // bullet's line (or an indented definition's first line) opens a
        // container; anything else there is read again.
        let risky_start = match start {
            // A definition list is laid out for it (see `defs`).
            Start::OnBullet => !matches!(block, Block::Text { .. } | Block::DefinitionList { .. }),
            Start::Indented => matches!(
                block,
                Block::Preformatted { .. } | Block::List { .. } | Block::Blockquote { .. }
            ),
            Start::OwnLine => false,
        };
        if i == 0 && risky_start {
            out.suspect();
        }
        if !first_on_bullet {
            // The gap before the block.
            match block {
                Block::Paragraph { .. } => {
                    if nested || is_text(prev) {
                        out.must_empty();
                    } else {
                        out.prefer(true);
                    }
                }
                Block::DefinitionList { compact, items, .. } => {
                    // A first term ending in `::` would take up the lines of
                    // text before it that do not end a sentence.
                    let joins = items.first().is_some_and(|item| {
                        starts_with_term_line(
                            item,
                            decide_form(item, 0, *compact, out.spell).0,
                            out.spell,
                        )
                    }) && !prev
                        .and_then(|b| last_text_line(b, out.spell))
                        .is_some_and(|l| ends_sentence(&l));
                    if is_text(prev) && joins {
                        out.must_empty();
                    } else {
                        out.prefer(!nested);
                    }
                }
                Block::Text { .. } | Block::Preformatted { .. } | Block::Blockquote { .. } => {
                    // After text, an empty line keeps the lines apart (and
                    // keeps an indented line from reading as a compact
                    // definition).
                    if is_text(prev) {
                        out.must_empty();
                    } else {
                        out.prefer(!nested);
                    }
                }
                Block::List { .. } | Block::Heading { .. } | Block::Rule { .. } => {
                    out.prefer(!nested);
                }
                Block::Table { .. } => {
                    // Rows right after text or another table's would join
                    // it; after a table of the block form, the caption line
                    // that starts this one ends that table.
                    if is_text(prev) || (matches!(prev, Some(Block::Table { .. })) && !after_blocks)
                    {
                        out.must_empty();
                    } else {
                        out.prefer(!nested);
                    }
                }
            }
        }
        let (next_start, pre_indent) = layout.get(i).copied().unwrap_or((None, base + 2));
        // What the block leaves open must start right of the next line.
        let min_content = next_start.map_or(0, |n| n + 1);
        let place = Place {
            first_on_bullet,
            first_indented: i == 0 && start == Start::Indented,
            pre_indent,
            min_content,
            after_blocks,
        };
        render_block(out, block, base, place);
    }
}

/// Where a block is written, besides its column.
#[derive(Debug, Clone, Copy)]
struct Place {
    /// The block is the first of its container, on its bullet's line.
    first_on_bullet: bool,
    /// The block is the first of a definition, read as an indented line.
    first_indented: bool,
    /// The indentation of preformatted text.
    pre_indent: usize,
    /// What the block leaves open must have its content at this column or
    /// further right (0: no constraint).
    min_content: usize,
    /// A table in the block form comes right before the block.
    after_blocks: bool,
}

fn render_block<'s>(out: &mut Out<'s>, block: &'s Block, base: usize, place: Place) {
    let Place {
        first_on_bullet,
        first_indented,
        pre_indent,
        min_content,
        after_blocks,
    } = place;
    match block {
        Block::Paragraph { content, .. } | Block::Text { content, .. } => {
            let mut preceded = false;
            let rendered = out.spell.run(content, false);
            for (j, line) in rendered.split('\n').enumerate() {
                if j > 0 {
                    out.must_none();
                }
                // Only a definition's first line is read for bullets
                // (interpretation 6); elsewhere text stands where a bullet
                // would be text too.
                let kind = if first_indented && j == 0 {
                    LineKind::FirstOfDefinition
                } else {
                    LineKind::Text
                };
                let empty = out.line_of(kind, base, line);
                if j == 0 {
                    preceded = empty && !first_on_bullet;
                }
            }
            // Seed 000: text surrounded by empty lines is a paragraph.
            if matches!(block, Block::Paragraph { .. }) && !preceded {
                out.suspect();
            }
            if matches!(block, Block::Paragraph { .. }) {
                out.must_empty();
            } else if preceded {
                out.must_none();
            }
        }
        Block::Heading { level, content, .. } => {
            let line = heading_line(*level, content, out.spell);
            let title = line.get(usize::from(*level) + 1..line.len() - usize::from(*level) - 1);
            if crate::scan::heading(&line)
                .is_none_or(|h| h.level != *level || Some(h.title) != title)
            {
                out.suspect();
            }
            out.line(base, &line);
        }
        Block::Rule { .. } => {
            out.line(base, RULE);
        }
        Block::Table { caption, rows, .. } => {
            let around = super::tables::Around {
                after_blocks,
                before_indented: min_content > 0,
            };
            super::tables::render_any_table(out, (caption, rows), base, around);
        }
        Block::Preformatted { lines, .. } => {
            let mut after_empty = false;
            for (j, line) in lines.iter().enumerate() {
                if line.is_empty() {
                    after_empty = true;
                    continue;
                }
                if j > 0 {
                    if after_empty {
                        out.must_empty();
                    } else {
                        out.must_none();
                    }
                }
                after_empty = false;
                // A line of preformatted text holds no line division; should
                // one be there, it is written as a space.
                let text = out.spell.run(line, true);
                let kind = if j == 0 {
                    LineKind::PreFirst
                } else {
                    LineKind::Pre
                };
                out.line_of(kind, pre_indent, &text);
            }
        }
        Block::Blockquote { content, .. } => {
            let col = base + 2 + bare_shift(block, base, min_content, out.open);
            let spaces = spaces_after(col, ">", 1, min_content);
            if bare_opener(out, content, col, ">", spaces) {
                return;
            }
            let prefix = padded(">", spaces);
            out.set_prefix(col, &prefix);
            render_blocks(
                out,
                content,
                Container::nested(col + 1 + spaces, Start::OnBullet),
            );
        }
        Block::List { kind, items, .. } => {
            let col = base + 2 + bare_shift(block, base, min_content, out.open);
            for (k, item) in items.iter().enumerate() {
                if k > 0 {
                    out.prefer(false);
                }
                let mark = bullet(*kind, k);
                let min = if k + 1 == items.len() { min_content } else { 0 };
                let spaces = spaces_after(col, &mark, 1, min);
                if bare_opener(out, &item.content, col, &mark, spaces) {
                    continue;
                }
                let prefix = padded(&mark, spaces);
                out.set_prefix(col, &prefix);
                render_blocks(
                    out,
                    &item.content,
                    Container::nested(col + prefix.chars().count(), Start::OnBullet),
                );
            }
        }
        Block::DefinitionList { compact, items, .. } => {
            for (k, item) in items.iter().enumerate() {
                let prev_empty = k
                    .checked_sub(1)
                    .and_then(|j| items.get(j))
                    .is_some_and(|p| p.definition.is_empty());
                if prev_empty {
                    // Otherwise this item's terms would join the previous
                    // item's, which has no definition yet.
                    out.must_empty();
                } else if k > 0 {
                    out.prefer(false);
                }
                let min = if k + 1 == items.len() { min_content } else { 0 };
                let (form, def_line) = decide_form(item, k, *compact, out.spell);
                // The first item's form says whether the list is compact.
                if k == 0 && *compact == (form == Form::Normal) {
                    out.suspect();
                }
                if k == 0 && needs_lead(item, form, def_line.as_deref(), first_indented, out.spell)
                {
                    out.line(base, "::");
                    out.must_none();
                }
                render_def_item(out, item, form, base, min);
            }
        }
    }
}

/// `#Extend open`: a list item or blockquote whose content opens with a
/// list, preformatted text or a blockquote is written as its mark alone on
/// a line (at `col`), then its content from the next line on, at the
/// column after the mark and one space, where the reader puts it. Only
/// where the text declares the feature and one space after the mark is
/// enough (`spaces`; [`bare_shift`] sees to that), and where the mark
/// starts its own line; otherwise nothing is written and the caller writes
/// the content on the mark's line (which reads back as something else, and
/// is then adopted as that). Returns whether it wrote the container.
fn bare_opener<'s>(
    out: &mut Out<'s>,
    content: &'s [Block],
    col: usize,
    mark: &str,
    spaces: usize,
) -> bool {
    if !out.open || spaces != 1 || !super::opens_with_block(content) || out.prefix.is_some() {
        return false;
    }
    out.line(col, mark);
    // The content must follow the mark: read again to make sure.
    out.suspect();
    let content_col = col + mark.chars().count() + 1;
    render_blocks(out, content, Container::nested(content_col, Start::OwnLine));
    true
}

pub(super) fn heading_line<'s>(level: u8, content: &'s [Inline], spell: Spell<'s>) -> String {
    let marks = "=".repeat(usize::from(level));
    // A title that starts with a space (escaped text) needs its escape.
    let title = spell.leading_space(inline_lines(content, spell).join(" "));
    [marks.as_str(), " ", &title, " ", &marks].concat()
}

/// `mark` followed by `spaces` spaces (a bullet, `>` or compact term with
/// the room after it), built without the formatting machinery: the writer
/// makes one per item.
pub(super) fn padded(mark: &str, spaces: usize) -> String {
    let mut s = String::with_capacity(mark.len() + spaces);
    s.push_str(mark);
    s.extend(std::iter::repeat_n(' ', spaces));
    s
}

pub(super) const RULE: &str = "----------";

/// The bullet of the `k`-th item (from 0): `*`, `1.`, `a.`, `A.`; letters
/// go on `z`, `aa`, `ab`...
pub(super) fn bullet(kind: ListKind, k: usize) -> String {
    let letters = |base: u8| {
        let mut n = k;
        let mut out = Vec::new();
        loop {
            out.push(char::from(base + (n % 26) as u8));
            if n < 26 {
                break;
            }
            n = n / 26 - 1;
        }
        out.iter().rev().collect::<String>()
    };
    match kind {
        ListKind::Unordered => "*".to_owned(),
        ListKind::Ordered(Numbering::Decimal) => format!("{}.", k + 1),
        ListKind::Ordered(Numbering::LowerAlpha) => format!("{}.", letters(b'a')),
        ListKind::Ordered(Numbering::UpperAlpha) => format!("{}.", letters(b'A')),
    }
}

/// An inline run as lines of text (split at its line divisions).
pub(super) fn inline_lines<'s>(run: &'s [Inline], spell: Spell<'s>) -> Vec<String> {
    let s = spell.run(run, false);
    if !s.contains('\n') {
        return vec![s];
    }
    s.split('\n').map(str::to_owned).collect()
}

/// Where the rendering of a run goes: the text, with the origin of each
/// piece (the flags of [`render_run`]) for a sink that wants it.
pub(crate) trait Sink {
    /// Appends `piece`, which came from where `origin` says.
    fn piece(&mut self, piece: &str, origin: u8);
}

impl Sink for String {
    fn piece(&mut self, piece: &str, _origin: u8) {
        self.push_str(piece);
    }
}

/// Where a piece of a rendered run came from (bit flags).
pub(crate) mod origin {
    /// Text: the only pieces that are ever escaped.
    pub(crate) const TEXT: u8 = 1;
    /// A delimiter of emphasis, strong emphasis or sample text.
    pub(crate) const DELIM: u8 = 1 << 1;
    /// Inside emphasis.
    pub(crate) const IN_EM: u8 = 1 << 2;
    /// Inside strong emphasis.
    pub(crate) const IN_STRONG: u8 = 1 << 3;
    /// Inside sample text.
    pub(crate) const IN_CODE: u8 = 1 << 4;
    /// Inside a link text.
    pub(crate) const IN_LINK: u8 = 1 << 5;
    /// The `]` that ends a link.
    pub(crate) const LINK_END: u8 = 1 << 6;
}

/// Renders an inline run as seed 000 spells it (no escapes): `_..._`,
/// `*...*`, `'...'`, `[url|fragment|text]` (an empty text where it equals
/// the URL, or the fragment without URL), `<address>`, a line division as a
/// line feed, or as a space in a line of preformatted text (`pre`); and an
/// image as `#Extend image` spells it, `![src||alt]{WxH "title"}`.
/// `inside` holds the [`origin`] flags of the enclosing elements.
/// Recursion is bounded by the inline depth of a canonical run.
pub(crate) fn render_run<S: Sink>(run: &[Inline], pre: bool, inside: u8, out: &mut S) {
    use origin::{DELIM, IN_CODE, IN_EM, IN_LINK, IN_STRONG, LINK_END, TEXT};
    for (i, node) in run.iter().enumerate() {
        match node {
            Inline::Text { text, .. } => out.piece(text, TEXT | inside),
            Inline::LineBreak { .. } => out.piece(if pre { " " } else { "\n" }, inside),
            Inline::Emphasis { content, .. } => {
                out.piece("_", DELIM | inside);
                render_run(content, pre, inside | IN_EM, out);
                out.piece("_", DELIM | inside);
            }
            Inline::Strong { content, .. } => {
                out.piece("*", DELIM | inside);
                render_run(content, pre, inside | IN_STRONG, out);
                out.piece("*", DELIM | inside);
            }
            Inline::Code { content, .. } => {
                out.piece("'", DELIM | inside);
                render_run(content, pre, inside | IN_CODE, out);
                out.piece("'", DELIM | inside);
            }
            Inline::Link {
                url,
                fragment,
                content,
                ..
            } => {
                out.piece("[", inside);
                out.piece(url.as_deref().unwrap_or(""), inside);
                out.piece("|", inside);
                out.piece(fragment.as_deref().unwrap_or(""), inside);
                out.piece("|", inside);
                // An empty link text reads back as the URL (or fragment), so
                // that is how such a text is written: it is then not read
                // for markup either.
                let shown = url.as_deref().or(fragment.as_deref()).unwrap_or("");
                let replaced =
                    matches!(content.as_slice(), [Inline::Text { text, .. }] if text == shown);
                if !replaced {
                    render_run(content, pre, inside | IN_LINK, out);
                }
                out.piece("]", inside | LINK_END);
            }
            Inline::Email { address, .. } => {
                out.piece("<", inside);
                out.piece(address, inside);
                out.piece(">", inside);
            }
            Inline::Image {
                src,
                alt,
                title,
                width,
                height,
                ..
            } => {
                out.piece("![", inside);
                out.piece(src, inside);
                out.piece("||", inside);
                render_run(alt, pre, inside | IN_LINK, out);
                out.piece("]", inside | LINK_END);
                // Braces end an image wherever they are: empty ones go
                // before text that starts with a brace (it would be read
                // as the image's) or with a letter or digit (the `]` would
                // not end the image, seed 000 rule 3).
                let brace_next = matches!(run.get(i + 1), Some(Inline::Text { text, .. })
                    if text.starts_with('{') || !is_side_char(text.chars().next()));
                if let Some(braces) = image_braces(title.as_deref(), *width, *height) {
                    out.piece(&braces, inside);
                } else if brace_next {
                    out.piece("{}", inside);
                }
            }
        }
    }
}

/// The braces after an image (`docs/format.md`, "Images"): `{WxH "title"}`
/// with either side of the size or the title left out, or nothing when
/// there is neither size nor title. A title's `"` and `\` are written
/// `\"` and `\\`.
pub(crate) fn image_braces(
    title: Option<&str>,
    width: Option<u32>,
    height: Option<u32>,
) -> Option<String> {
    if title.is_none() && width.is_none() && height.is_none() {
        return None;
    }
    let mut s = String::from("{");
    if width.is_some() || height.is_some() {
        if let Some(w) = width {
            s.push_str(&w.to_string());
        }
        s.push('x');
        if let Some(h) = height {
            s.push_str(&h.to_string());
        }
    }
    if let Some(title) = title {
        if s.len() > 1 {
            s.push(' ');
        }
        s.push('"');
        for c in title.chars() {
            if matches!(c, '"' | '\\') {
                s.push('\\');
            }
            s.push(c);
        }
        s.push('"');
    }
    s.push('}');
    Some(s)
}
