//! Inline markup that touches a letter or digit (seed 000 rule 3: markup
//! needs a side character, white space or punctuation, on its outer sides),
//! under [`Touching::SpaceApart`](super::Touching::SpaceApart), the policy
//! for ingested pages, where such markup is common. Outside preformatted
//! text a space goes in between; inside it, where a space would move the
//! columns, the markup takes in the rest of the word instead.

use crate::model::Inline;
use crate::scan::is_side_char;

use super::MAX_INLINE_DEPTH;

/// Seed 000 rule 3: puts a space between inline markup and a letter or
/// digit right outside it; returns how many. Recursion is bounded by
/// [`MAX_INLINE_DEPTH`] (the run is bounded already).
pub(super) fn space_apart(run: &mut [Inline], depth: usize) -> u32 {
    let mut spaces = 0;
    for i in 0..run.len() {
        let is_markup = !matches!(
            run.get(i),
            None | Some(Inline::Text { .. } | Inline::LineBreak { .. } | Inline::HardBreak { .. })
        );
        if !is_markup {
            continue;
        }
        // An image's `!` stands anywhere, and its braces (empty ones if
        // need be) end it wherever they are; so do the braces of a
        // superscript or subscript.
        let image = matches!(
            run.get(i),
            Some(Inline::Image { .. } | Inline::Superscript { .. } | Inline::Subscript { .. })
        );
        if !image
            && let Some(Inline::Text { text, .. }) = i.checked_sub(1).and_then(|j| run.get_mut(j))
            && !is_side_char(text.chars().next_back())
        {
            text.push(' ');
            spaces += 1;
        }
        if !image
            && let Some(Inline::Text { text, .. }) = run.get_mut(i + 1)
            && !is_side_char(text.chars().next())
        {
            text.insert(0, ' ');
            spaces += 1;
        }
        if depth < MAX_INLINE_DEPTH
            && let Some(children) = run.get_mut(i).and_then(Inline::children_mut)
        {
            spaces += space_apart(children, depth + 1);
        }
    }
    spaces
}

/// Seed 000 rule 3 in preformatted text: where inline markup has a letter
/// or digit right outside it, the letters and digits up to the next side
/// character move inside the markup (`foo<b>bar</b>baz` becomes
/// `*foobarbaz*`), so that the markup reads back and no column moves;
/// returns how many sides were widened. Recursion is bounded by
/// [`MAX_INLINE_DEPTH`].
pub(super) fn widen(run: &mut Vec<Inline>, depth: usize) -> u32 {
    let mut widened = 0;
    let mut i = 0;
    while i < run.len() {
        let markup = matches!(
            run.get(i),
            Some(
                Inline::Emphasis { .. }
                    | Inline::Strong { .. }
                    | Inline::Code { .. }
                    | Inline::Link { .. }
            )
        );
        if !markup {
            i += 1;
            continue;
        }
        // Before: the end of the text before it, back to a side character.
        if let Some(j) = i.checked_sub(1)
            && let Some(Inline::Text { text, .. }) = run.get_mut(j)
        {
            let cut = word_end_start(text);
            if cut < text.len() {
                let moved = text.split_off(cut);
                let emptied = text.is_empty();
                if let Some(children) = run.get_mut(i).and_then(Inline::children_mut) {
                    prepend_text(children, &moved);
                }
                if emptied {
                    run.remove(j);
                    i = j;
                }
                widened += 1;
            }
        }
        // After: the start of the text after it, up to a side character.
        if let Some(Inline::Text { text, .. }) = run.get_mut(i + 1) {
            let cut = word_start_end(text);
            if cut > 0 {
                let rest = text.split_off(cut);
                let moved = std::mem::replace(text, rest);
                let emptied = text.is_empty();
                if let Some(children) = run.get_mut(i).and_then(Inline::children_mut) {
                    crate::model::push_text(children, &moved, crate::model::Pos::UNKNOWN);
                }
                if emptied {
                    run.remove(i + 1);
                }
                widened += 1;
            }
        }
        if depth < MAX_INLINE_DEPTH
            && let Some(children) = run.get_mut(i).and_then(Inline::children_mut)
        {
            widened += widen(children, depth + 1);
        }
        i += 1;
    }
    widened
}

/// Where the last word of `text` starts: after its last side character
/// (the text's length when it ends in one).
fn word_end_start(text: &str) -> usize {
    text.char_indices()
        .rev()
        .find(|&(_, c)| is_side_char(Some(c)))
        .map_or(0, |(n, c)| n + c.len_utf8())
}

/// Where the first word of `text` ends: at its first side character (0
/// when it starts with one).
fn word_start_end(text: &str) -> usize {
    text.char_indices()
        .find(|&(_, c)| is_side_char(Some(c)))
        .map_or(text.len(), |(n, _)| n)
}

/// Puts `text` in front of a run (merging with a text node there).
fn prepend_text(run: &mut Vec<Inline>, text: &str) {
    match run.first_mut() {
        Some(Inline::Text { text: first, .. }) => first.insert_str(0, text),
        _ => run.insert(0, Inline::text(text)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Inline {
        Inline::text(s)
    }

    #[test]
    fn markup_takes_in_the_word_it_touches() {
        // `foo<b>bar</b>baz and <i>file</i>s, <b>ls</b>(1)`
        let mut run = vec![
            t("foo"),
            Inline::strong(vec![t("bar")]),
            t("baz and "),
            Inline::emphasis(vec![t("file")]),
            t("s, "),
            Inline::strong(vec![t("ls")]),
            t("(1)"),
        ];
        assert_eq!(widen(&mut run, 0), 3);
        assert_eq!(
            run,
            vec![
                Inline::strong(vec![t("foobarbaz")]),
                t(" and "),
                Inline::emphasis(vec![t("files")]),
                t(", "),
                Inline::strong(vec![t("ls")]),
                t("(1)"),
            ]
        );
    }

    #[test]
    fn side_characters_and_markup_next_to_markup_stay() {
        let mut run = vec![
            t("a "),
            Inline::code(vec![t("x")]),
            Inline::strong(vec![t("y")]),
            t("."),
        ];
        let before = run.clone();
        assert_eq!(widen(&mut run, 0), 0);
        assert_eq!(run, before);
        // Markup inside markup.
        let mut run = vec![Inline::strong(vec![
            t("a"),
            Inline::emphasis(vec![t("b")]),
            t("c d"),
        ])];
        assert_eq!(widen(&mut run, 0), 2);
        assert_eq!(
            run,
            vec![Inline::strong(vec![
                Inline::emphasis(vec![t("abc")]),
                t(" d")
            ])]
        );
    }
}
