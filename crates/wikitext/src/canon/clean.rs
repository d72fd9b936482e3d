//! The quick test that an inline run needs no repair: most runs of real
//! pages pass it, and copying them is much cheaper than canon's event
//! pipeline (`inlines.rs`), which gives the same run for them and reports
//! nothing (its unit tests check that on generated runs).

use crate::model::Inline;
use crate::scan::{clean_edges, has_three_spaces, is_link_value_char};

use super::{Ctx, MAX_INLINE_DEPTH};

/// Where a run being flattened stands: in running text, in a link text
/// (no links, no addresses), or in an image's alternative text (no images
/// either).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Within {
    Run,
    LinkText,
    Alt,
}

/// A title on one line: line ends and other control characters become
/// spaces, runs of white space one space, and none at the edges.
pub(super) fn one_line(t: &str) -> String {
    t.split(|c: char| c.is_whitespace() || c.is_control())
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether text holds a line feed or a carriage return (a vectorised search:
/// runs are checked for them on every canonicalisation).
pub(super) fn has_line_end(text: &str) -> bool {
    memchr::memchr2(b'\n', b'\r', text.as_bytes()).is_some()
}

/// Whether every character of a link value may stand in one; an ASCII
/// value (most are) is read byte by byte, without decoding.
pub(super) fn link_value_chars(v: &str) -> bool {
    if v.is_ascii() {
        v.bytes().all(|b| is_link_value_char(char::from(b)))
    } else {
        v.chars().all(is_link_value_char)
    }
}

/// Whether text at the start of a line begins with white space that the
/// context does not keep there (any, but in preformatted text; a tab where
/// escapes keep spaces).
pub(super) fn starts_with_indent(text: &str, ctx: Ctx) -> bool {
    match ctx {
        Ctx::Pre => false,
        Ctx::Kept => text.starts_with('\t'),
        // An escape keeps a space at the start of a heading's title.
        Ctx::KeptHeading => text.starts_with(|c: char| c.is_whitespace() && c != ' '),
        Ctx::Flow | Ctx::DeepFlow | Ctx::Heading => text.starts_with(char::is_whitespace),
    }
}

/// Whether a run is only text and line divisions that need no repair (the
/// common case, which then skips the event pipeline).
pub(super) fn plain_and_clean(run: &[Inline], ctx: Ctx) -> bool {
    let mut line_start = true;
    let mut prev_text = false;
    for (i, node) in run.iter().enumerate() {
        match node {
            Inline::Text { text, .. } => {
                if text.is_empty() || has_line_end(text) || prev_text {
                    return false;
                }
                if line_start && starts_with_indent(text, ctx) {
                    return false;
                }
                let line_end = !matches!(run.get(i + 1), Some(Inline::Text { .. }));
                if line_end && text.trim_end().len() != text.len() {
                    return false;
                }
                if ctx == Ctx::Flow && has_three_spaces(text) {
                    return false;
                }
                line_start = false;
                prev_text = true;
            }
            Inline::LineBreak { .. } => {
                // Not first, not last, not two in a row, not in a heading.
                if line_start || i + 1 == run.len() || ctx.is_heading() || ctx == Ctx::Pre {
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
pub(super) fn marked_up_and_clean(run: &[Inline], ctx: Ctx, images: bool) -> bool {
    let mut at_line_start = true;
    clean_run(run, (ctx, images), 0, Within::Run, &mut at_line_start)
        && !matches!(run.last(), Some(Inline::LineBreak { .. }))
}

/// [`marked_up_and_clean`] for one level (`images`: the text may hold
/// images); recursion is bounded by
/// [`MAX_INLINE_DEPTH`] (deeper containers are not clean).
pub(super) fn clean_run(
    run: &[Inline],
    (ctx, images): (Ctx, bool),
    depth: usize,
    within: Within,
    at_line_start: &mut bool,
) -> bool {
    let in_link = within != Within::Run;
    for (i, node) in run.iter().enumerate() {
        let next = run.get(i + 1);
        match node {
            Inline::Text { text, .. } => {
                if text.is_empty()
                    || has_line_end(text)
                    || matches!(next, Some(Inline::Text { .. }))
                    || (*at_line_start && starts_with_indent(text, ctx))
                    || (matches!(next, None | Some(Inline::LineBreak { .. }))
                        && text.ends_with(char::is_whitespace))
                    || (ctx == Ctx::Flow && has_three_spaces(text))
                {
                    return false;
                }
                *at_line_start = false;
            }
            Inline::LineBreak { .. } => {
                if *at_line_start
                    || depth > 0
                    || matches!(ctx, Ctx::Heading | Ctx::KeptHeading | Ctx::Pre)
                    || matches!(next, Some(Inline::LineBreak { .. }))
                {
                    return false;
                }
                *at_line_start = true;
            }
            Inline::Email { address, .. } => {
                if ctx == Ctx::Pre || in_link || !crate::grammar::is_email_address(address) {
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
                    || !clean_run(content, (ctx, images), depth + 1, within, at_line_start)
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
                        .is_none_or(|v| !v.is_empty() && link_value_chars(v))
                };
                // Inside markup, a URL or anchor name holding a delimiter
                // may need it encoded (`values::encode_enders`): the
                // pipeline decides.
                let delimiter = depth > 0
                    && (url.as_deref().is_some_and(has_delimiter)
                        || fragment.as_deref().is_some_and(has_delimiter));
                if in_link
                    || delimiter
                    || depth + 1 >= MAX_INLINE_DEPTH
                    || (url.is_none() && fragment.is_none())
                    || !value_ok(url)
                    || !value_ok(fragment)
                    || !clean_edges(content)
                    || !clean_run(
                        content,
                        (ctx, images),
                        depth + 1,
                        Within::LinkText,
                        at_line_start,
                    )
                {
                    return false;
                }
            }
            Inline::Image {
                src, alt, title, ..
            } => {
                let title_ok = title.as_deref().is_none_or(|t| one_line(t) == *t);
                if !images
                    || within == Within::Alt
                    || ctx == Ctx::Pre
                    || depth + 1 >= MAX_INLINE_DEPTH
                    || src.is_empty()
                    || (depth > 0 && has_delimiter(src))
                    || !link_value_chars(src)
                    || !title_ok
                    || !(alt.is_empty() || clean_edges(alt))
                    || !clean_run(alt, (ctx, images), depth + 1, Within::Alt, at_line_start)
                {
                    return false;
                }
                // An image is text on its line.
                *at_line_start = false;
            }
            // The extensions of `#Extend break` and `subsup` go through
            // the pipeline, which knows where they may stand.
            Inline::HardBreak { .. } | Inline::Superscript { .. } | Inline::Subscript { .. } => {
                return false;
            }
        }
    }
    true
}

/// Whether a link value holds a delimiter of inline markup.
fn has_delimiter(value: &str) -> bool {
    value.bytes().any(|b| matches!(b, b'_' | b'*' | b'\''))
}
