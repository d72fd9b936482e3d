//! The writer's first step: a copy of the document with everything the text
//! format cannot hold but that is harmless to change put right, each change
//! reported. What cannot be put right harmlessly is left for the writer's
//! verification to report.
//!
//! The copy also bounds the depth of the document ([`MAX_DEPTH`] levels of
//! blocks, [`MAX_INLINE_DEPTH`] of inlines): deeper parts are flattened to
//! their text, with an error. Every recursive function here takes the depth
//! and stops at those bounds, so recursion depth never depends on the input;
//! the rest of the writer works on the bounded copy.

use std::collections::HashSet;
use std::mem;

use crate::diag::{Code, Diagnostic, Severity, Span};
use crate::model::{
    Block, DefItem, Document, Inline, Link, ListItem, MAX_DEPTH, Meta, Metadata, Pos, Term,
    plain_text,
};
use crate::scan::{is_language_code, is_link_value_char, is_word};

/// Inline elements nest at most this deep in a written document (the parser
/// never nests more than four: emphasis, strong, code and a link).
pub(crate) const MAX_INLINE_DEPTH: usize = 8;

pub(crate) struct Repaired {
    pub(crate) doc: Document,
    pub(crate) changed: bool,
    pub(crate) diagnostics: Vec<Diagnostic>,
}

struct Fixer {
    changed: bool,
    diags: Vec<Diagnostic>,
    /// Reports made (including repeats that were not listed again).
    reports: usize,
    seen: HashSet<(Code, String, Span)>,
}

impl Fixer {
    fn report(&mut self, code: Code, severity: Severity, message: impl Into<String>, pos: Pos) {
        self.changed = true;
        self.reports += 1;
        let message = message.into();
        // One report per kind of problem and place is enough.
        if self.seen.insert((code, message.clone(), Span::at(pos))) {
            self.diags
                .push(Diagnostic::new(code, severity, message, Span::at(pos)));
        }
    }
}

pub(crate) fn repair(doc: &Document) -> Repaired {
    let mut fixer = Fixer {
        changed: false,
        diags: Vec::new(),
        reports: 0,
        seen: HashSet::new(),
    };
    let meta = repair_meta(&doc.meta, &mut fixer);
    let body = repair_blocks(&doc.body, 1, &mut fixer);
    Repaired {
        doc: Document { meta, body },
        changed: fixer.changed,
        diagnostics: fixer.diags,
    }
}

/// Words joined by single spaces, as the header parser produces them.
fn normalize_words(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn repair_meta(meta: &Metadata, fixer: &mut Fixer) -> Metadata {
    let mut out = Metadata::default();
    if let Some(title) = &meta.title {
        let t = normalize_words(title);
        if t.is_empty() {
            fixer.report(
                Code::UnrepresentableHeader,
                Severity::Warning,
                "an empty title cannot be written; it was left out",
                Pos::UNKNOWN,
            );
        } else {
            if &t != title {
                fixer.report(
                    Code::WhitespaceNormalized,
                    Severity::Info,
                    "white space in the title was normalised",
                    Pos::UNKNOWN,
                );
            }
            out.title = Some(t);
        }
    }
    if let Some(lang) = &meta.lang {
        if is_language_code(lang) {
            out.lang = Some(lang.clone());
        } else {
            fixer.report(
                Code::UnrepresentableHeader,
                Severity::Warning,
                format!("`{lang}` is not a language code the header can hold; it was left out"),
                Pos::UNKNOWN,
            );
        }
    }
    for m in &meta.metas {
        if !is_word(&m.name) {
            fixer.report(
                Code::UnrepresentableHeader,
                Severity::Warning,
                format!(
                    "meta name `{}` is empty or has white space; the entry was left out",
                    m.name
                ),
                m.pos,
            );
            continue;
        }
        let content = normalize_words(&m.content);
        if content != m.content {
            fixer.report(
                Code::WhitespaceNormalized,
                Severity::Info,
                format!(
                    "white space in the content of meta `{}` was normalised",
                    m.name
                ),
                m.pos,
            );
        }
        out.metas.push(Meta {
            name: m.name.clone(),
            content,
            pos: m.pos,
        });
    }
    for l in &meta.links {
        if !is_word(&l.href) {
            fixer.report(
                Code::UnrepresentableHeader,
                Severity::Warning,
                format!(
                    "link href `{}` is empty or has white space; the entry was left out",
                    l.href
                ),
                l.pos,
            );
            continue;
        }
        let mut rel = Vec::new();
        for r in &l.rel {
            if is_word(r) && !r.contains(':') {
                rel.push(r.clone());
            } else {
                fixer.report(
                    Code::UnrepresentableHeader,
                    Severity::Warning,
                    format!("rel value `{r}` is empty or has white space or `:`; it was left out"),
                    l.pos,
                );
            }
        }
        let title = l.title.as_deref().map(normalize_words);
        if title.as_deref() != l.title.as_deref() {
            fixer.report(
                Code::WhitespaceNormalized,
                Severity::Info,
                "white space in a link title was normalised",
                l.pos,
            );
        }
        out.links.push(Link {
            rel,
            href: l.href.clone(),
            title: title.filter(|t| !t.is_empty()),
            pos: l.pos,
        });
    }
    out
}

/// Where an inline run is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ctx {
    /// Paragraphs, text blocks, terms: white space is not significant.
    Flow,
    /// The same at the deepest level ([`MAX_DEPTH`]), where the parser opens
    /// no compact definition, so three spaces in a row may stay.
    DeepFlow,
    /// Headings: one line.
    Heading,
    /// A line of preformatted text: white space is significant; no code, no
    /// e-mail addresses.
    Pre,
}

fn block_text(blocks: &[Block]) -> Vec<Inline> {
    // The plain text of blocks, one line division between blocks; iterative.
    let mut out: Vec<Inline> = Vec::new();
    let mut stack: Vec<&Block> = blocks.iter().rev().collect();
    let add = |run: &[Inline], out: &mut Vec<Inline>| {
        let text = plain_text(run);
        if text.trim().is_empty() {
            return;
        }
        if !out.is_empty() {
            out.push(Inline::line_break());
        }
        crate::model::push_text(out, &text, Pos::UNKNOWN);
    };
    while let Some(block) = stack.pop() {
        match block {
            Block::Paragraph { content, .. }
            | Block::Text { content, .. }
            | Block::Heading { content, .. } => add(content, &mut out),
            Block::Preformatted { lines, .. } => {
                for line in lines {
                    add(line, &mut out);
                }
            }
            Block::Rule { .. } => {}
            Block::Blockquote { content, .. } => stack.extend(content.iter().rev()),
            Block::List { items, .. } => {
                for item in items.iter().rev() {
                    stack.extend(item.content.iter().rev());
                }
            }
            Block::DefinitionList { items, .. } => {
                for item in items.iter().rev() {
                    stack.extend(item.definition.iter().rev());
                    for term in item.terms.iter().rev() {
                        add(&term.content, &mut out);
                    }
                }
            }
        }
    }
    out
}

/// Repairs the blocks of a container whose blocks are at `depth` (the body's
/// are at 1).
fn repair_blocks(blocks: &[Block], depth: usize, fixer: &mut Fixer) -> Vec<Block> {
    let mut out: Vec<Block> = Vec::new();
    let flow = if depth >= MAX_DEPTH {
        Ctx::DeepFlow
    } else {
        Ctx::Flow
    };
    for block in blocks {
        let pos = block.pos();
        // A container here would put blocks deeper than the parser reads.
        let is_container = matches!(
            block,
            Block::Blockquote { .. } | Block::List { .. } | Block::DefinitionList { .. }
        );
        if is_container && depth >= MAX_DEPTH {
            let has_children = match block {
                Block::Blockquote { content, .. } => !content.is_empty(),
                Block::List { items, .. } => !items.is_empty(),
                Block::DefinitionList { items, .. } => {
                    items.iter().any(|i| !i.definition.is_empty())
                }
                _ => false,
            };
            if has_children {
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
                    let content = repair_inlines(&text, Ctx::Flow, pos, fixer);
                    push_text_block(&mut out, content, depth, pos, fixer);
                }
                continue;
            }
        }
        match block {
            Block::Paragraph { content, pos } => {
                let content = repair_inlines(content, flow, *pos, fixer);
                if content.is_empty() {
                    fixer.report(
                        Code::EmptyElementDropped,
                        Severity::Info,
                        "an empty paragraph was dropped",
                        *pos,
                    );
                } else {
                    out.push(Block::Paragraph { content, pos: *pos });
                }
            }
            Block::Text { content, pos } => {
                let content = repair_inlines(content, flow, *pos, fixer);
                if content.is_empty() {
                    fixer.report(
                        Code::EmptyElementDropped,
                        Severity::Info,
                        "an empty text block was dropped",
                        *pos,
                    );
                } else {
                    push_text_block(&mut out, content, depth, *pos, fixer);
                }
            }
            Block::Preformatted { lines, pos } => {
                if let Some(b) = repair_pre(lines, *pos, fixer) {
                    out.push(b);
                }
            }
            Block::Heading {
                level,
                content,
                pos,
            } => {
                let content = repair_inlines(content, Ctx::Heading, *pos, fixer);
                let fixed_level = (*level).clamp(1, 6);
                if fixed_level != *level {
                    fixer.report(
                        Code::NotRoundTrip,
                        Severity::Warning,
                        format!(
                            "heading level {level} does not exist; written as level {fixed_level}"
                        ),
                        *pos,
                    );
                }
                if content.is_empty() {
                    fixer.report(
                        Code::EmptyElementDropped,
                        Severity::Info,
                        "an empty heading was dropped",
                        *pos,
                    );
                } else {
                    out.push(Block::Heading {
                        level: fixed_level,
                        content,
                        pos: *pos,
                    });
                }
            }
            Block::Rule { pos } => out.push(Block::Rule { pos: *pos }),
            Block::Blockquote { content, pos } => {
                let mut content = repair_blocks(content, depth + 1, fixer);
                unwrap_leading_blockquotes(&mut content, fixer);
                // A list or preformatted text cannot open a blockquote
                // either: it goes before the blockquote, outside it.
                let mut hoisted = false;
                while let Some(first) = content.first()
                    && matches!(first, Block::List { .. } | Block::Preformatted { .. })
                {
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
                    out.push(first);
                    hoisted = true;
                    unwrap_leading_blockquotes(&mut content, fixer);
                }
                if content.is_empty() {
                    if hoisted {
                        continue;
                    }
                    fixer.report(
                        Code::EmptyElementDropped,
                        Severity::Info,
                        "an empty blockquote was dropped",
                        *pos,
                    );
                } else {
                    out.push(Block::Blockquote { content, pos: *pos });
                }
            }
            Block::List { kind, items, pos } => {
                let mut fixed = Vec::new();
                for item in items {
                    let mut content = repair_blocks(&item.content, depth + 1, fixer);
                    unwrap_leading_blockquotes(&mut content, fixer);
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
                        *pos,
                    );
                    continue;
                }
                // Consecutive lists of the same type read back as one list.
                if let Some(Block::List {
                    kind: last,
                    items: last_items,
                    ..
                }) = out.last_mut()
                    && last == kind
                {
                    fixer.report(
                        Code::NotRoundTrip,
                        Severity::Warning,
                        "two lists of the same type in a row cannot be told apart in text; they were merged",
                        *pos,
                    );
                    last_items.extend(fixed);
                    continue;
                }
                out.push(Block::List {
                    kind: *kind,
                    items: fixed,
                    pos: *pos,
                });
            }
            Block::DefinitionList {
                compact,
                items,
                pos,
            } => {
                let mut fixed = Vec::new();
                let mut hoisted = false;
                for item in items {
                    let mut terms = Vec::new();
                    for term in &item.terms {
                        let content = repair_inlines(&term.content, flow, term.pos, fixer);
                        if content.is_empty() {
                            fixer.report(
                                Code::EmptyElementDropped,
                                Severity::Info,
                                "an empty definition term was dropped",
                                term.pos,
                            );
                        } else {
                            terms.push(Term {
                                content,
                                pos: term.pos,
                            });
                        }
                    }
                    let mut definition = repair_blocks(&item.definition, depth + 1, fixer);
                    unwrap_leading_blockquotes(&mut definition, fixer);
                    if !matches!(definition.first(), Some(Block::List { .. })) {
                        fixed.push(DefItem {
                            terms,
                            definition,
                            pos: item.pos,
                        });
                        continue;
                    }
                    // Interpretation 6: a bullet on a definition's first line
                    // starts a list after the terms. So the list goes there,
                    // between two definition lists, and the rest of the
                    // definition follows under an empty term (`::`).
                    if !terms.is_empty() {
                        fixed.push(DefItem {
                            terms,
                            definition: Vec::new(),
                            pos: item.pos,
                        });
                    }
                    push_definition_list(&mut out, *compact, mem::take(&mut fixed), *pos, fixer);
                    while matches!(definition.first(), Some(Block::List { .. })) {
                        let list = definition.remove(0);
                        fixer.report(
                            Code::NotRoundTrip,
                            Severity::Warning,
                            "a definition cannot start with a list in text; the list was written after the terms, outside the definition list",
                            list.pos(),
                        );
                        out.push(list);
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
                            *pos,
                        );
                    }
                    continue;
                }
                push_definition_list(&mut out, *compact, fixed, *pos, fixer);
            }
        }
    }
    out
}

/// Adds definition list items after `out`: consecutive definition lists
/// read back as one, so they are merged (with a warning).
fn push_definition_list(
    out: &mut Vec<Block>,
    compact: bool,
    items: Vec<DefItem>,
    pos: Pos,
    fixer: &mut Fixer,
) {
    if items.is_empty() {
        return;
    }
    if let Some(Block::DefinitionList {
        items: last_items, ..
    }) = out.last_mut()
    {
        fixer.report(
            Code::NotRoundTrip,
            Severity::Warning,
            "two definition lists in a row cannot be told apart in text; they were merged",
            pos,
        );
        last_items.extend(items);
        return;
    }
    out.push(Block::DefinitionList {
        compact,
        items,
        pos,
    });
}

/// Seed 000 §"Block-level Elements": the first line of a list item,
/// blockquote or definition is read unindented, where a `> ` is text, so a
/// blockquote cannot open one. Its content takes its place (the text stays,
/// one level of indentation goes), with a warning.
fn unwrap_leading_blockquotes(content: &mut Vec<Block>, fixer: &mut Fixer) {
    // Each round removes one level; the depth is bounded by MAX_DEPTH.
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

fn repair_pre(lines: &[Vec<Inline>], pos: Pos, fixer: &mut Fixer) -> Option<Block> {
    // Line divisions inside a line make more lines.
    let mut split: Vec<Vec<Inline>> = Vec::new();
    for line in lines {
        let mut current = Vec::new();
        for node in line {
            match node {
                Inline::LineBreak { .. } => split.push(std::mem::take(&mut current)),
                Inline::Text { text, pos } if text.contains('\n') => {
                    let mut first = true;
                    for piece in text.split('\n') {
                        if !first {
                            split.push(std::mem::take(&mut current));
                        }
                        first = false;
                        if !piece.is_empty() {
                            current.push(Inline::Text {
                                text: piece.to_owned(),
                                pos: *pos,
                            });
                        }
                    }
                }
                other => current.push(other.clone_bounded()),
            }
        }
        split.push(current);
    }
    let mut out: Vec<Vec<Inline>> = Vec::new();
    for line in &split {
        let fixed = repair_inlines(line, Ctx::Pre, pos, fixer);
        // Consecutive empty lines are collapsed by the parser.
        if fixed.is_empty() && out.last().is_some_and(Vec::is_empty) {
            fixer.report(
                Code::WhitespaceNormalized,
                Severity::Info,
                "consecutive empty lines in preformatted text were collapsed into one",
                pos,
            );
            continue;
        }
        out.push(fixed);
    }
    // Empty lines at the start or end of preformatted text cannot be written.
    let before = out.len();
    while out.last().is_some_and(Vec::is_empty) {
        out.pop();
    }
    let lead = out.iter().take_while(|l| l.is_empty()).count();
    out.drain(..lead);
    if out.len() != before {
        fixer.report(
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

trait CloneBounded {
    fn clone_bounded(&self) -> Inline;
}

impl CloneBounded for Inline {
    /// A copy that is safe to make: containers deeper than the bound become
    /// their text (the repair pass reports that when it walks the copy).
    fn clone_bounded(&self) -> Inline {
        match self {
            Inline::Text { .. } | Inline::LineBreak { .. } | Inline::Email { .. } => self.clone(),
            Inline::Emphasis { content, pos } => Inline::Emphasis {
                content: bounded_run(content, 1),
                pos: *pos,
            },
            Inline::Strong { content, pos } => Inline::Strong {
                content: bounded_run(content, 1),
                pos: *pos,
            },
            Inline::Code { content, pos } => Inline::Code {
                content: bounded_run(content, 1),
                pos: *pos,
            },
            Inline::Link {
                url,
                fragment,
                content,
                pos,
            } => Inline::Link {
                url: url.clone(),
                fragment: fragment.clone(),
                content: bounded_run(content, 1),
                pos: *pos,
            },
        }
    }
}

fn bounded_run(run: &[Inline], depth: usize) -> Vec<Inline> {
    if depth > MAX_INLINE_DEPTH {
        let mut out = Vec::new();
        crate::model::push_text(&mut out, &plain_text(run), Pos::UNKNOWN);
        return out;
    }
    run.iter()
        .map(|node| match node {
            Inline::Emphasis { content, pos } => Inline::Emphasis {
                content: bounded_run(content, depth + 1),
                pos: *pos,
            },
            Inline::Strong { content, pos } => Inline::Strong {
                content: bounded_run(content, depth + 1),
                pos: *pos,
            },
            Inline::Code { content, pos } => Inline::Code {
                content: bounded_run(content, depth + 1),
                pos: *pos,
            },
            Inline::Link {
                url,
                fragment,
                content,
                pos,
            } => Inline::Link {
                url: url.clone(),
                fragment: fragment.clone(),
                content: bounded_run(content, depth + 1),
                pos: *pos,
            },
            other => other.clone(),
        })
        .collect()
}

/// A flat form of an inline run, easy to normalise.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Ev {
    Open(Open),
    Close,
    Text(String),
    Break,
    Email(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Open {
    Emphasis(Pos),
    Strong(Pos),
    Code(Pos),
    Link {
        url: Option<String>,
        fragment: Option<String>,
        pos: Pos,
    },
}

/// Percent-encodes the characters a URL or fragment may not hold in text.
fn encode_link_value(value: &str) -> String {
    // Nearly every URL needs nothing: copy it whole.
    let Some(first_bad) = value.find(|c: char| !is_link_value_char(c)) else {
        return value.to_owned();
    };
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut out = String::with_capacity(value.len() + 8);
    out.push_str(value.get(..first_bad).unwrap_or_default());
    for c in value.get(first_bad..).unwrap_or_default().chars() {
        if is_link_value_char(c) {
            out.push(c);
        } else {
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                out.push('%');
                out.push(char::from(HEX[usize::from(b >> 4)]));
                out.push(char::from(HEX[usize::from(b & 0x0f)]));
            }
        }
    }
    out
}

/// Seed 000 rule 5, as the parser checks it.
fn is_valid_email(address: &str) -> bool {
    let text = format!("<{address}>");
    crate::scan::email(&text).is_some_and(|(a, len)| a == address && len == text.len())
}

fn flatten(
    run: &[Inline],
    ctx: Ctx,
    depth: usize,
    in_link: bool,
    block: Pos,
    out: &mut Vec<Ev>,
    fixer: &mut Fixer,
) {
    for node in run {
        match node {
            Inline::Text { text, .. } => {
                let mut first = true;
                for piece in text.split('\n') {
                    if !first {
                        fixer.report(
                            Code::WhitespaceNormalized,
                            Severity::Info,
                            "a line feed inside text was taken as a line division",
                            block,
                        );
                        out.push(Ev::Break);
                    }
                    first = false;
                    if !piece.is_empty() {
                        out.push(Ev::Text(piece.to_owned()));
                    }
                }
            }
            Inline::LineBreak { .. } => out.push(Ev::Break),
            Inline::Email { address, .. } => {
                if ctx == Ctx::Pre || in_link {
                    fixer.report(
                        Code::NotRoundTrip,
                        Severity::Warning,
                        "an e-mail address cannot be marked up in preformatted text or link text; its text was kept",
                        block,
                    );
                    out.push(Ev::Text(address.clone()));
                } else if !is_valid_email(address) {
                    fixer.report(
                        Code::NotRoundTrip,
                        Severity::Warning,
                        format!("`{address}` is not an address the format can mark up; its text was kept"),
                        block,
                    );
                    out.push(Ev::Text(address.clone()));
                } else {
                    out.push(Ev::Email(address.clone()));
                }
            }
            Inline::Emphasis { content, pos }
            | Inline::Strong { content, pos }
            | Inline::Code { content, pos } => {
                if depth >= MAX_INLINE_DEPTH {
                    fixer.report(
                        Code::NotRoundTrip,
                        Severity::Error,
                        format!("inline markup nests deeper than {MAX_INLINE_DEPTH} levels; the inner text was kept without markup"),
                        block,
                    );
                    out.push(Ev::Text(plain_text(content).replace('\n', " ")));
                    continue;
                }
                if matches!(node, Inline::Code { .. }) && ctx == Ctx::Pre {
                    fixer.report(
                        Code::WhitespaceNormalized,
                        Severity::Info,
                        "sample text (code) inside preformatted text is implied; the markup was dropped",
                        block,
                    );
                    flatten(content, ctx, depth + 1, in_link, block, out, fixer);
                    continue;
                }
                out.push(Ev::Open(match node {
                    Inline::Emphasis { .. } => Open::Emphasis(*pos),
                    Inline::Strong { .. } => Open::Strong(*pos),
                    _ => Open::Code(*pos),
                }));
                flatten(content, ctx, depth + 1, in_link, block, out, fixer);
                out.push(Ev::Close);
            }
            Inline::Link {
                url,
                fragment,
                content,
                pos,
            } => {
                let url = url.as_deref().filter(|u| !u.is_empty());
                let fragment = fragment.as_deref().filter(|f| !f.is_empty());
                if in_link || depth >= MAX_INLINE_DEPTH || (url.is_none() && fragment.is_none()) {
                    let why = if in_link {
                        "a link inside link text cannot be written; its text was kept"
                    } else if url.is_none() && fragment.is_none() {
                        "a link with neither URL nor fragment cannot be written; its text was kept"
                    } else {
                        "links nest too deep; the text was kept"
                    };
                    fixer.report(Code::UnrepresentableLink, Severity::Error, why, *pos);
                    if depth >= MAX_INLINE_DEPTH {
                        out.push(Ev::Text(plain_text(content).replace('\n', " ")));
                    } else {
                        flatten(content, ctx, depth + 1, in_link, block, out, fixer);
                    }
                    continue;
                }
                let url = url.map(|u| {
                    let e = encode_link_value(u);
                    if e != u {
                        fixer.report(
                            Code::UnrepresentableLink,
                            Severity::Info,
                            format!("characters the format does not allow in a URL were percent-encoded: `{e}`"),
                            *pos,
                        );
                    }
                    e
                });
                let fragment = fragment.map(|f| {
                    let e = encode_link_value(f);
                    if e != f {
                        fixer.report(
                            Code::UnrepresentableLink,
                            Severity::Warning,
                            format!("characters the format does not allow in an anchor name were percent-encoded: `{e}`"),
                            *pos,
                        );
                    }
                    e
                });
                out.push(Ev::Open(Open::Link {
                    url,
                    fragment,
                    pos: *pos,
                }));
                flatten(content, ctx, depth + 1, true, block, out, fixer);
                out.push(Ev::Close);
            }
        }
    }
}

/// Splits a text event into leading white space, the rest, and trailing
/// white space.
fn split_ws(t: &str) -> (&str, &str, &str) {
    let start = t.len() - t.trim_start().len();
    let end = t.trim_end().len().max(start);
    (
        t.get(..start).unwrap_or(""),
        t.get(start..end).unwrap_or(""),
        t.get(end..).unwrap_or(""),
    )
}

/// Seed 000 rules 1 and 2: white space (and line divisions) at the edges of
/// an element's content move outside it; elements left empty are dropped
/// (links get their URL or fragment as text, as the parser would).
fn bubble(events: Vec<Ev>, block: Pos, fixer: &mut Fixer) -> Vec<Ev> {
    let mut out: Vec<Ev> = Vec::new();
    // White space waiting to be placed: before the next content, or after
    // the closes that come first.
    let mut pending_ws: Vec<Ev> = Vec::new();
    // Opens not yet followed by content.
    let mut pending_opens: Vec<Open> = Vec::new();
    // For each open element (emitted or pending): whether it is pending.
    let mut open_stack: Vec<bool> = Vec::new();
    let mut moved = false;
    let mut dropped = false;
    for ev in events {
        match ev {
            Ev::Text(t) => {
                let (lead, mid, trail) = split_ws(&t);
                if !lead.is_empty() {
                    if !pending_opens.is_empty() {
                        moved = true;
                    }
                    pending_ws.push(Ev::Text(lead.to_owned()));
                }
                if !mid.is_empty() {
                    out.append(&mut pending_ws);
                    for o in pending_opens.drain(..) {
                        out.push(Ev::Open(o));
                    }
                    for p in open_stack.iter_mut() {
                        *p = false;
                    }
                    out.push(Ev::Text(mid.to_owned()));
                    if !trail.is_empty() {
                        pending_ws.push(Ev::Text(trail.to_owned()));
                    }
                }
            }
            Ev::Break => {
                if !pending_opens.is_empty() {
                    moved = true;
                }
                pending_ws.push(Ev::Break);
            }
            Ev::Email(a) => {
                out.append(&mut pending_ws);
                for o in pending_opens.drain(..) {
                    out.push(Ev::Open(o));
                }
                for p in open_stack.iter_mut() {
                    *p = false;
                }
                out.push(Ev::Email(a));
            }
            Ev::Open(o) => {
                pending_opens.push(o);
                open_stack.push(true);
            }
            Ev::Close => {
                let was_pending = open_stack.pop().unwrap_or(false);
                if was_pending {
                    // The element has no content.
                    if let Some(o) = pending_opens.pop() {
                        if let Open::Link { url, fragment, pos } = o {
                            let shown =
                                url.clone().or_else(|| fragment.clone()).unwrap_or_default();
                            out.append(&mut pending_ws);
                            for p in pending_opens.drain(..) {
                                out.push(Ev::Open(p));
                            }
                            for p in open_stack.iter_mut() {
                                *p = false;
                            }
                            out.push(Ev::Open(Open::Link { url, fragment, pos }));
                            out.push(Ev::Text(shown));
                            out.push(Ev::Close);
                            fixer.report(
                                Code::EmptyElementDropped,
                                Severity::Info,
                                "an empty link text was replaced by the link's URL or fragment, as the parser does",
                                pos,
                            );
                        } else {
                            dropped = true;
                        }
                    }
                } else {
                    if pending_ws
                        .iter()
                        .any(|e| !matches!(e, Ev::Text(t) if t.is_empty()))
                    {
                        moved = true;
                    }
                    out.push(Ev::Close);
                }
            }
        }
    }
    out.append(&mut pending_ws);
    if moved {
        fixer.report(
            Code::WhitespaceNormalized,
            Severity::Info,
            "white space at the edge of emphasis, code or a link was moved outside it",
            block,
        );
    }
    if dropped {
        fixer.report(
            Code::EmptyElementDropped,
            Severity::Info,
            "emphasis or code without content was dropped",
            block,
        );
    }
    out
}

/// Merges adjacent text events.
fn merge_text(events: Vec<Ev>) -> Vec<Ev> {
    let mut out: Vec<Ev> = Vec::with_capacity(events.len());
    for ev in events {
        match (out.last_mut(), ev) {
            (Some(Ev::Text(last)), Ev::Text(t)) => last.push_str(&t),
            (_, Ev::Text(t)) if t.is_empty() => {}
            (_, ev) => out.push(ev),
        }
    }
    out
}

/// White space at the start and end of lines, empty lines, and runs of three
/// or more spaces (which would read as a compact definition item).
fn normalize_lines(events: Vec<Ev>, ctx: Ctx, block: Pos, fixer: &mut Fixer) -> Vec<Ev> {
    let mut events = merge_text(events);
    let mut changed = false;
    // For each event: whether the next text, address or line division after
    // it is a line division or nothing (then a text here ends its line).
    let mut ends_line = vec![true; events.len()];
    let mut next_is_break = true;
    for (i, ev) in events.iter().enumerate().rev() {
        if let Some(slot) = ends_line.get_mut(i) {
            *slot = next_is_break;
        }
        match ev {
            Ev::Break => next_is_break = true,
            Ev::Text(_) | Ev::Email(_) => next_is_break = false,
            Ev::Open(_) | Ev::Close => {}
        }
    }
    let mut at_line_start = true;
    for (i, ev) in events.iter_mut().enumerate() {
        match ev {
            Ev::Break => at_line_start = true,
            Ev::Email(_) => at_line_start = false,
            Ev::Open(_) | Ev::Close => {}
            Ev::Text(t) => {
                let mut s = t.as_str();
                if at_line_start && ctx != Ctx::Pre {
                    s = s.trim_start_matches([' ', '\t']);
                }
                if ends_line.get(i).copied().unwrap_or(true) {
                    s = s.trim_end();
                }
                let mut fixed = s.to_owned();
                if ctx == Ctx::Flow && fixed.contains("   ") {
                    fixed = collapse_spaces(&fixed);
                }
                if !fixed.is_empty() {
                    at_line_start = false;
                }
                if fixed != *t {
                    changed = true;
                    *t = fixed;
                }
            }
        }
    }
    // Line divisions: none at the edges, never two in a row (an empty line
    // would end the paragraph); headings have one line.
    let mut out: Vec<Ev> = Vec::with_capacity(events.len());
    // The last text, address or line division: `Some(true)` for a division.
    let mut last_was_break: Option<bool> = None;
    for ev in merge_text(events) {
        match &ev {
            Ev::Break => {
                if ctx == Ctx::Heading {
                    changed = true;
                    out.push(Ev::Text(" ".to_owned()));
                    last_was_break = Some(false);
                    continue;
                }
                if last_was_break != Some(false) {
                    changed = true;
                    continue;
                }
                last_was_break = Some(true);
            }
            Ev::Text(_) | Ev::Email(_) => last_was_break = Some(false),
            Ev::Open(_) | Ev::Close => {}
        }
        out.push(ev);
    }
    // A trailing line division.
    while let Some(pos) = out
        .iter()
        .rposition(|e| matches!(e, Ev::Text(_) | Ev::Email(_) | Ev::Break))
    {
        if out.get(pos) == Some(&Ev::Break) {
            out.remove(pos);
            changed = true;
        } else {
            break;
        }
    }
    if changed {
        fixer.report(
            Code::WhitespaceNormalized,
            Severity::Info,
            match ctx {
                Ctx::Pre => "white space at the end of a line of preformatted text was removed",
                Ctx::Heading => "white space in a heading was normalised (a heading has one line)",
                Ctx::Flow | Ctx::DeepFlow => {
                    "white space was normalised (at line edges, empty lines, runs of three spaces)"
                }
            },
            block,
        );
    }
    merge_text(out)
}

/// Runs of three or more spaces become one space.
fn collapse_spaces(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut spaces = 0usize;
    let flush = |out: &mut String, spaces: usize| {
        if spaces >= 3 {
            out.push(' ');
        } else {
            for _ in 0..spaces {
                out.push(' ');
            }
        }
    };
    for c in s.chars() {
        if c == ' ' {
            spaces += 1;
        } else {
            flush(&mut out, spaces);
            spaces = 0;
            out.push(c);
        }
    }
    flush(&mut out, spaces);
    out
}

/// Rebuilds inlines from events (the events are balanced).
fn rebuild(events: Vec<Ev>) -> Vec<Inline> {
    // Inline markup nests at most MAX_INLINE_DEPTH deep.
    let mut stack: Vec<(Option<Open>, Vec<Inline>)> = Vec::with_capacity(MAX_INLINE_DEPTH + 2);
    stack.push((None, Vec::new()));
    for ev in events {
        match ev {
            Ev::Text(t) => {
                if let Some((_, run)) = stack.last_mut() {
                    crate::model::push_text(run, &t, Pos::UNKNOWN);
                }
            }
            Ev::Break => {
                if let Some((_, run)) = stack.last_mut() {
                    run.push(Inline::line_break());
                }
            }
            Ev::Email(a) => {
                if let Some((_, run)) = stack.last_mut() {
                    run.push(Inline::email(a));
                }
            }
            Ev::Open(o) => stack.push((Some(o), Vec::new())),
            Ev::Close => {
                if stack.len() > 1
                    && let Some((Some(open), content)) = stack.pop()
                {
                    let node = match open {
                        Open::Emphasis(pos) => Inline::Emphasis { content, pos },
                        Open::Strong(pos) => Inline::Strong { content, pos },
                        Open::Code(pos) => Inline::Code { content, pos },
                        Open::Link { url, fragment, pos } => Inline::Link {
                            url,
                            fragment,
                            content,
                            pos,
                        },
                    };
                    if let Some((_, run)) = stack.last_mut() {
                        run.push(node);
                    }
                }
            }
        }
    }
    // Unbalanced opens cannot happen; fold them in anyway.
    while stack.len() > 1 {
        if let Some((_, content)) = stack.pop()
            && let Some((_, run)) = stack.last_mut()
        {
            run.extend(content);
        }
    }
    stack.pop().map(|(_, run)| run).unwrap_or_default()
}

/// Whether a run is only text and line divisions that need no repair (the
/// common case, which then skips the event pipeline).
fn plain_and_clean(run: &[Inline], ctx: Ctx) -> bool {
    let mut line_start = true;
    let mut prev_text = false;
    for (i, node) in run.iter().enumerate() {
        match node {
            Inline::Text { text, .. } => {
                if text.is_empty() || text.contains('\n') || prev_text {
                    return false;
                }
                if line_start && ctx != Ctx::Pre && text.starts_with([' ', '\t']) {
                    return false;
                }
                let line_end = !matches!(run.get(i + 1), Some(Inline::Text { .. }));
                if line_end && text.trim_end().len() != text.len() {
                    return false;
                }
                if ctx == Ctx::Flow && text.contains("   ") {
                    return false;
                }
                line_start = false;
                prev_text = true;
            }
            Inline::LineBreak { .. } => {
                // Not first, not last, not two in a row, not in a heading.
                if line_start || i + 1 == run.len() || ctx == Ctx::Heading || ctx == Ctx::Pre {
                    return false;
                }
                line_start = true;
                prev_text = false;
            }
            _ => return false,
        }
    }
    true
}

/// Whether a run with inline markup needs no repair: a conservative test
/// (when it says yes, the event pipeline below would give the same run and
/// report nothing; the unit tests check that on generated runs). Most runs
/// of real pages pass it, and copying them is much cheaper than the
/// pipeline.
fn marked_up_and_clean(run: &[Inline], ctx: Ctx) -> bool {
    let mut at_line_start = true;
    clean_run(run, ctx, 0, false, &mut at_line_start)
        && !matches!(run.last(), Some(Inline::LineBreak { .. }))
}

/// Rules 1 and 2 at an element's edges: content neither empty nor starting
/// or ending with white space or a line division.
fn clean_edges(content: &[Inline]) -> bool {
    let starts = match content.first() {
        None | Some(Inline::LineBreak { .. }) => false,
        Some(Inline::Text { text, .. }) => !text.starts_with(char::is_whitespace),
        Some(_) => true,
    };
    let ends = match content.last() {
        None | Some(Inline::LineBreak { .. }) => false,
        Some(Inline::Text { text, .. }) => !text.ends_with(char::is_whitespace),
        Some(_) => true,
    };
    starts && ends
}

/// [`marked_up_and_clean`] for one level; recursion is bounded by
/// [`MAX_INLINE_DEPTH`] (deeper containers are not clean).
fn clean_run(
    run: &[Inline],
    ctx: Ctx,
    depth: usize,
    in_link: bool,
    at_line_start: &mut bool,
) -> bool {
    for (i, node) in run.iter().enumerate() {
        let next = run.get(i + 1);
        match node {
            Inline::Text { text, .. } => {
                if text.is_empty()
                    || text.contains('\n')
                    || matches!(next, Some(Inline::Text { .. }))
                    || (*at_line_start && ctx != Ctx::Pre && text.starts_with(char::is_whitespace))
                    || (matches!(next, None | Some(Inline::LineBreak { .. }))
                        && text.ends_with(char::is_whitespace))
                    || (ctx == Ctx::Flow && text.contains("   "))
                {
                    return false;
                }
                *at_line_start = false;
            }
            Inline::LineBreak { .. } => {
                if *at_line_start
                    || depth > 0
                    || matches!(ctx, Ctx::Heading | Ctx::Pre)
                    || matches!(next, Some(Inline::LineBreak { .. }))
                {
                    return false;
                }
                *at_line_start = true;
            }
            Inline::Email { address, .. } => {
                if ctx == Ctx::Pre || in_link || !is_valid_email(address) {
                    return false;
                }
                *at_line_start = false;
            }
            Inline::Emphasis { content, .. }
            | Inline::Strong { content, .. }
            | Inline::Code { content, .. } => {
                if depth + 1 >= MAX_INLINE_DEPTH
                    || (matches!(node, Inline::Code { .. }) && ctx == Ctx::Pre)
                    || !clean_edges(content)
                    || !clean_run(content, ctx, depth + 1, in_link, at_line_start)
                {
                    return false;
                }
            }
            Inline::Link {
                url,
                fragment,
                content,
                ..
            } => {
                let value_ok = |v: &Option<String>| {
                    v.as_deref()
                        .is_none_or(|v| !v.is_empty() && v.chars().all(is_link_value_char))
                };
                if in_link
                    || depth + 1 >= MAX_INLINE_DEPTH
                    || (url.is_none() && fragment.is_none())
                    || !value_ok(url)
                    || !value_ok(fragment)
                    || !clean_edges(content)
                    || !clean_run(content, ctx, depth + 1, true, at_line_start)
                {
                    return false;
                }
            }
        }
    }
    true
}

fn repair_inlines(run: &[Inline], ctx: Ctx, block: Pos, fixer: &mut Fixer) -> Vec<Inline> {
    if plain_and_clean(run, ctx) || marked_up_and_clean(run, ctx) {
        return run.to_vec();
    }
    repair_inlines_fully(run, ctx, block, fixer)
}

/// The event pipeline: flatten, move white space out of markup, normalise
/// lines, rebuild.
fn repair_inlines_fully(run: &[Inline], ctx: Ctx, block: Pos, fixer: &mut Fixer) -> Vec<Inline> {
    let reported = fixer.reports;
    let mut events = Vec::new();
    flatten(run, ctx, 0, false, block, &mut events, fixer);
    let events = bubble(events, block, fixer);
    let events = normalize_lines(events, ctx, block, fixer);
    let rebuilt = rebuild(events);
    // The cheap test first: the comparison copies the run.
    if fixer.reports == reported && rebuilt != bounded_run(run, 0) {
        // Nothing above was reported, yet the run changed: it broke the
        // model's own invariants (empty or adjacent text nodes).
        fixer.report(
            Code::ModelNormalized,
            Severity::Info,
            "empty or adjacent text pieces were merged",
            block,
        );
    }
    rebuilt
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn new_fixer() -> Fixer {
        Fixer {
            changed: false,
            diags: Vec::new(),
            reports: 0,
            seen: HashSet::new(),
        }
    }

    fn text() -> impl Strategy<Value = Inline> {
        proptest::collection::vec(
            prop_oneof![
                4 => Just("a"),
                2 => Just(" "),
                1 => Just("\t"),
                1 => Just("\n"),
                1 => Just("\u{a0}"),
                1 => Just("_"),
                1 => Just("x.y"),
            ],
            0..6,
        )
        .prop_map(|pieces| Inline::text(pieces.concat()))
    }

    fn value() -> impl Strategy<Value = Option<String>> {
        prop_oneof![
            Just(None),
            Just(Some(String::new())),
            Just(Some("http://example.org/a".to_owned())),
            Just(Some("a b".to_owned())),
            Just(Some("x|y".to_owned())),
        ]
    }

    fn run() -> impl Strategy<Value = Vec<Inline>> {
        let leaf = prop_oneof![
            6 => text(),
            2 => Just(Inline::line_break()),
            1 => prop_oneof![Just("a@b.example"), Just("a@"), Just("x y@b.example")]
                .prop_map(Inline::email),
        ];
        let node = leaf.prop_recursive(4, 32, 4, |inner| {
            let content = proptest::collection::vec(inner, 0..4);
            prop_oneof![
                content.clone().prop_map(Inline::emphasis),
                content.clone().prop_map(Inline::strong),
                content.clone().prop_map(Inline::code),
                (value(), value(), content).prop_map(|(u, f, c)| Inline::link(u, f, c)),
            ]
        });
        proptest::collection::vec(node, 0..6)
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 4000, .. ProptestConfig::default() })]

        /// The shortcut is only taken where the full repair changes nothing.
        #[test]
        fn a_clean_run_is_one_the_full_repair_keeps(run in run()) {
            for ctx in [Ctx::Flow, Ctx::DeepFlow, Ctx::Heading, Ctx::Pre] {
                if marked_up_and_clean(&run, ctx) {
                    let mut fixer = new_fixer();
                    let full = repair_inlines_fully(&run, ctx, Pos::UNKNOWN, &mut fixer);
                    prop_assert_eq!(&full, &run, "{:?}", ctx);
                    prop_assert_eq!(fixer.reports, 0, "{:?}: {:?}", ctx, fixer.diags);
                }
            }
        }
    }

    /// The generator reaches the shortcut with markup, not only plain runs.
    #[test]
    fn marked_up_runs_can_be_clean() {
        let run = vec![
            Inline::text("see "),
            Inline::link(
                Some("http://example.org/".to_owned()),
                None,
                vec![Inline::emphasis(vec![Inline::text("this")])],
            ),
            Inline::text(" and"),
            Inline::line_break(),
            Inline::strong(vec![Inline::text("that")]),
        ];
        assert!(marked_up_and_clean(&run, Ctx::Flow));
        assert!(!marked_up_and_clean(&run, Ctx::Heading));
        let edge = vec![Inline::emphasis(vec![Inline::text(" x")])];
        assert!(!marked_up_and_clean(&edge, Ctx::Flow));
    }
}
