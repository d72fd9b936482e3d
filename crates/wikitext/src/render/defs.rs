//! Definition lists: whether an item is written `term::` or compact
//! (`term   definition`), and how, so that its first line reads as the
//! writer means it.

use crate::model::{Block, DefItem};

use super::blocks::render_blocks;
use super::layout::{Container, RULE, Start, heading_line, inline_lines, padded, spaces_after};
use super::out::{Out, line_may_mislead};
use super::spell::{LineKind, Spell};

/// How a compact item's terms are written: the first `normal_terms` as
/// `term::` lines, then `term` before the three spaces (the last term, or
/// `::` when the item has no term or its last term cannot stand there).
struct Compact {
    normal_terms: usize,
    term: String,
}

/// How the item can be written compactly, if it can.
fn compact_term<'s>(item: &'s DefItem, spell: Spell<'s>) -> Option<Compact> {
    let first = item.definition.first()?;
    // Where figures are declared, a compact item whose only term is an
    // image would read as a figure: it is written `term::`.
    if spell.figures()
        && let [term] = item.terms.as_slice()
        && crate::grammar::is_figure_image(&term.content)
    {
        return None;
    }
    // The definition's first line is read unindented after the term: only
    // blocks that start with such a line can stand there.
    if !matches!(
        first,
        Block::Text { .. }
            | Block::Heading { .. }
            | Block::Rule { .. }
            | Block::DefinitionList { .. }
            | Block::Table { .. }
    ) {
        return None;
    }
    let empty = |normal_terms| {
        Some(Compact {
            normal_terms,
            term: "::".to_owned(),
        })
    };
    let Some(last) = item.terms.last() else {
        return empty(0);
    };
    let lines = inline_lines(&last.content, spell);
    match lines.as_slice() {
        // `::` alone would be an empty term.
        [line] if line != "::" && !line.contains("   ") => Some(Compact {
            normal_terms: item.terms.len() - 1,
            term: line.clone(),
        }),
        // An empty compact term after all the terms: empty terms are left
        // out of the model.
        _ => empty(item.terms.len()),
    }
}

/// How a definition item is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Form {
    /// `term::` lines, then the definition indented on the next line.
    Normal,
    /// Compact: `term   definition` on one line.
    SameLine,
    /// Compact: the last term alone on its line, the definition indented on
    /// the next line.
    NextLine,
    /// Compact: every term as a `term::` line, then an empty compact term:
    /// `::   definition` (when the last term's line would read as a heading).
    SameLineEmpty,
}

/// The compact shape of an item written in `form`.
fn compact_for<'s>(item: &'s DefItem, form: Form, spell: Spell<'s>) -> Option<Compact> {
    let c = compact_term(item, spell)?;
    Some(match form {
        Form::SameLineEmpty => Compact {
            normal_terms: item.terms.len(),
            term: "::".to_owned(),
        },
        _ => c,
    })
}

/// The first line the blocks of a definition will be written with (without
/// indentation), where the line is not read as an indented one.
fn first_line<'s>(blocks: &'s [Block], spell: Spell<'s>) -> Option<String> {
    match blocks.first()? {
        Block::Paragraph { content, .. } | Block::Text { content, .. } => {
            inline_lines(content, spell).into_iter().next()
        }
        Block::Heading { level, content, .. } => Some(heading_line(*level, content, spell)),
        Block::Rule { .. } => Some(RULE.to_owned()),
        Block::Table { caption, rows, .. } => Some(super::tables::first_line(caption, rows, spell)),
        Block::DefinitionList { compact, items, .. } => {
            let item = items.first()?;
            let (form, def_line) = decide_form(item, 0, *compact, spell);
            Some(item_first_line(item, form, def_line.as_deref(), spell))
        }
        Block::Preformatted { .. }
        | Block::Blockquote { .. }
        | Block::List { .. }
        | Block::Figure { .. } => None,
    }
}

/// The same first line where it is read as an indented line: a definition
/// list whose first line would look like a bullet gets an extra `::` line.
fn first_line_indented(blocks: &[Block], plain: Option<String>) -> Option<String> {
    match (blocks.first(), plain) {
        (Some(Block::DefinitionList { .. }), Some(line)) if looks_like_bullet(&line) => {
            Some("::".to_owned())
        }
        (_, plain) => plain,
    }
}

/// Whether an item written in `form` starts with a `term::` line (which
/// would take up lines of text right before it).
pub(super) fn starts_with_term_line<'s>(item: &'s DefItem, form: Form, spell: Spell<'s>) -> bool {
    match form {
        Form::Normal => !item.terms.is_empty(),
        Form::SameLine | Form::SameLineEmpty | Form::NextLine => {
            compact_for(item, form, spell).is_some_and(|c| c.normal_terms > 0)
        }
    }
}

fn first_term_line<'s>(item: &'s DefItem, spell: Spell<'s>) -> Option<String> {
    let term = item.terms.first()?;
    let lines = inline_lines(&term.content, spell);
    match lines.as_slice() {
        [only] => Some([only.as_str(), "::"].concat()),
        _ => lines.into_iter().next(),
    }
}

/// The first line of an item written in `form`; `def_line` is the first
/// line of its definition (from [`first_line`]).
fn item_first_line<'s>(
    item: &'s DefItem,
    form: Form,
    def_line: Option<&str>,
    spell: Spell<'s>,
) -> String {
    let compact = match form {
        Form::Normal => None,
        Form::SameLine | Form::SameLineEmpty | Form::NextLine => compact_for(item, form, spell),
    };
    let Some(c) = compact else {
        return first_term_line(item, spell).unwrap_or_else(|| "::".to_owned());
    };
    if c.normal_terms > 0 {
        return first_term_line(item, spell).unwrap_or_default();
    }
    match form {
        Form::NextLine => c.term,
        _ => [c.term.as_str(), "   ", def_line.unwrap_or_default()].concat(),
    }
}

/// The first line a definition list's first item is written with, in the
/// form [`decide_form`] picks for it.
pub(super) fn first_item_line<'s>(item: &'s DefItem, compact: bool, spell: Spell<'s>) -> String {
    let (form, def_line) = decide_form(item, 0, compact, spell);
    item_first_line(item, form, def_line.as_deref(), spell)
}

/// Whether a line would start a list item where it stands as the first
/// line of a definition (a `>` would not: the definition comes first).
fn looks_like_bullet(line: &str) -> bool {
    matches!(
        crate::scan::bullet(line),
        Some((crate::scan::Bullet::List(_), _))
    )
}

/// Chooses how to write the `k`-th item of a definition list, and returns
/// the first line of its definition along the way. The first item says
/// whether the list is compact; later items follow the list's style unless
/// their definition would then start with what reads as a bullet. A compact
/// line that would read as a heading is split after the term.
///
/// It looks down the chain of first blocks once (depth at most
/// [`MAX_DEPTH`](crate::MAX_DEPTH)), so writing stays linear.
pub(super) fn decide_form<'s>(
    item: &'s DefItem,
    k: usize,
    compact: bool,
    spell: Spell<'s>,
) -> (Form, Option<String>) {
    let def_line = first_line(&item.definition, spell);
    let Some(Compact { normal_terms, term }) = compact_term(item, spell) else {
        return (Form::Normal, def_line);
    };
    let indented = first_line_indented(&item.definition, def_line.clone());
    let mut form = if compact {
        Form::SameLine
    } else {
        Form::Normal
    };
    if form == Form::Normal && k > 0 && indented.as_deref().is_some_and(looks_like_bullet) {
        form = Form::SameLine;
    }
    if form == Form::SameLine {
        let line = [
            term.as_str(),
            "   ",
            def_line.as_deref().unwrap_or_default(),
        ]
        .concat();
        let next_line_ok = normal_terms + 1 == item.terms.len()
            && !term.ends_with("::")
            && crate::scan::heading(&term).is_none()
            && !crate::scan::is_rule(&term)
            && indented.as_deref().is_some_and(|l| !looks_like_bullet(l));
        // A heading's or a table row's shape would be read first.
        let table_like = line.starts_with('|') && crate::scan::table_line(&line, None).is_some();
        if crate::scan::heading(&line).is_some() || table_like {
            form = if next_line_ok {
                Form::NextLine
            } else {
                Form::SameLineEmpty
            };
        }
    }
    (form, def_line)
}

/// Whether the first item of a definition list gets an extra empty term
/// (`::`) line first: when the list's first line stands where it is read
/// as an indented line and would look like a bullet. Empty terms are left
/// out of the model, so the extra line changes nothing else.
pub(super) fn needs_lead<'s>(
    item: &'s DefItem,
    form: Form,
    def_line: Option<&str>,
    first_indented: bool,
    spell: Spell<'s>,
) -> bool {
    first_indented && looks_like_bullet(&item_first_line(item, form, def_line, spell))
}

/// Whether a definition is written after a bare `::` where the text
/// declares `#Extend open`: it opens with a list, preformatted text or a
/// blockquote, or with a definition list whose first item has no terms
/// (its first line, `::` alone, would otherwise be read as that opener;
/// after the opener it is read as an empty term, as the seed reads it).
fn opens_bare(definition: &[Block]) -> bool {
    super::opens_with_block(definition)
        || matches!(definition.first(), Some(Block::DefinitionList { items, .. })
            if items.first().is_some_and(|i| i.terms.is_empty()))
}

pub(super) fn render_def_item<'s>(
    out: &mut Out<'s>,
    item: &'s DefItem,
    form: Form,
    base: usize,
    min_content: usize,
) {
    let compact = match form {
        Form::Normal => None,
        Form::SameLine | Form::SameLineEmpty | Form::NextLine => compact_for(item, form, out.spell),
    };
    let normal_terms = compact
        .as_ref()
        .map_or(item.terms.len(), |c| c.normal_terms);
    let mut first_line = true;
    for term in item.terms.iter().take(normal_terms) {
        let lines = inline_lines(&term.content, out.spell);
        let count = lines.len();
        for (j, line) in lines.into_iter().enumerate() {
            if !first_line {
                // Terms of one item may not be separated by empty lines.
                out.must_none();
            }
            first_line = false;
            if j + 1 == count {
                let line = match out.line_escape(LineKind::Text, &line) {
                    Some(fixed) if !line_may_mislead(LineKind::Text, &fixed) => fixed,
                    _ => line,
                };
                if line_may_mislead(LineKind::Text, &line) || line.ends_with(':') {
                    out.suspect();
                }
                out.line(base, &[line.as_str(), "::"].concat());
            } else {
                // Seed 000: no line of a term but the last may end like a
                // sentence (the term would not spread back over it).
                if crate::scan::ends_sentence(&line) {
                    out.suspect();
                }
                out.line_of(LineKind::Text, base, &line);
            }
        }
    }
    match (compact.map(|c| c.term), form) {
        (Some(term), Form::NextLine) => {
            if !first_line {
                out.must_none();
            }
            out.line_of(LineKind::Text, base, &term);
            // The definition follows right away.
            out.must_none();
            render_blocks(
                out,
                &item.definition,
                Container::nested((base + 4).max(min_content), Start::Indented),
            );
        }
        (Some(term), _) => {
            if !first_line {
                out.must_none();
            }
            let term = match out.line_escape(LineKind::Text, &term) {
                Some(fixed) if term != "::" && !line_may_mislead(LineKind::Text, &fixed) => fixed,
                _ => term,
            };
            if term != "::" && (line_may_mislead(LineKind::Text, &term) || term.ends_with(':')) {
                out.suspect();
            }
            let spaces = spaces_after(base, &term, 3, min_content);
            let prefix = padded(&term, spaces);
            out.set_prefix(base, &prefix);
            render_blocks(
                out,
                &item.definition,
                Container::nested(base + prefix.chars().count(), Start::OnBullet),
            );
        }
        (None, _) => {
            if item.terms.is_empty() {
                out.line(base, "::");
            }
            let col = (base + 4).max(min_content);
            if out.open && opens_bare(&item.definition) {
                // `#Extend open`: `::` alone opens the definition, and its
                // blocks follow, the first of them indented.
                if !first_line {
                    out.must_none();
                }
                out.line(col, "::");
                out.suspect();
                render_blocks(
                    out,
                    &item.definition,
                    Container::nested(col, Start::OwnLine),
                );
            } else if !item.definition.is_empty() {
                render_blocks(
                    out,
                    &item.definition,
                    Container::nested(col, Start::Indented),
                );
            }
        }
    }
}
