//! The escape extension (`docs/format.md`, "Escapes"), as it is read: in a
//! document whose header declares `#Escape \`, a backslash before an
//! escapable character ([`is_escapable`]) makes that character plain text.
//!
//! The inline pass works on a masked copy of the text ([`mask`]), in which
//! every escaped character but the space is `$`, punctuation that is no
//! markup, so the seed's rules and scans run unchanged and an escaped
//! character counts as a side character (rule 3); an escaped space and
//! its backslash are white space. Text is emitted from the original with the
//! escaping backslashes dropped (`inline::view::Out::source`); link values
//! are taken from the original as written. The block scanners need nothing: they see the
//! backslash, which begins no bullet, heading, rule or blockquote, and
//! which breaks a trailing `::` (`:\:`) and a run of three spaces (` \  `).
//!
//! Writing escapes is the renderer's job (`render/spell.rs`).

use crate::grammar::{ESCAPE, is_escapable};

/// A text as the inline rules see it in an escaping document.
pub(crate) struct Masked {
    /// The text with every escaped character replaced by `$`, but an
    /// escaped space, which stays, with its backslash, white space.
    pub(crate) text: String,
    /// Byte offsets of the escaping backslashes, in order.
    pub(crate) skips: Vec<usize>,
}

/// The masked text, or `None` when `text` holds no escape. Escapes pair
/// left to right: in `\\_` the first backslash escapes the second.
pub(crate) fn mask(text: &str) -> Option<Masked> {
    let first = text.find(ESCAPE)?;
    let mut bytes = text.as_bytes().to_vec();
    let mut skips = Vec::new();
    let mut i = first;
    while let Some(&b) = bytes.get(i) {
        if b == b'\\'
            && let Some(next) = bytes.get_mut(i + 1)
            && is_escapable(char::from(*next))
            && next.is_ascii()
        {
            if *next == b' ' {
                // An escaped space is still white space to the inline
                // rules, and so is its backslash.
                if let Some(slash) = bytes.get_mut(i) {
                    *slash = b' ';
                }
            } else {
                *next = b'$';
            }
            skips.push(i);
            i += 2;
        } else {
            i += 1;
        }
    }
    if skips.is_empty() {
        return None;
    }
    // Only ASCII bytes were replaced by ASCII: still UTF-8.
    let text = String::from_utf8(bytes).ok()?;
    Some(Masked { text, skips })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inline::{Mode, Places, Syntax, parse_inlines};
    use crate::model::Inline as I;

    fn read(text: &str) -> Vec<Inline> {
        parse_inlines(
            text,
            Places::Unknown,
            Mode::Normal,
            Syntax::SEED.escaping(true),
        )
    }

    use crate::model::Inline;

    #[test]
    fn escapes_pair_left_to_right() {
        let m = mask(r"a\_b\\_c_ \ d\n").unwrap_or_else(|| unreachable!());
        assert_eq!(m.text, r"a\$b\$_c_   d\n");
        assert_eq!(m.skips, vec![1, 4, 10]);
        assert!(mask(r"C:\Windows \n \(").is_none());
        assert!(mask("no backslash").is_none());
    }

    #[test]
    fn escaped_characters_are_text() {
        assert_eq!(read(r"\_\_init__"), vec![I::text("__init__")]);
        assert_eq!(read(r"\'quoted'"), vec![I::text("'quoted'")]);
        assert_eq!(
            read(r"_DUMP_\__VHOSTS_"),
            vec![
                I::emphasis(vec![I::text("DUMP")]),
                I::text("_"),
                I::emphasis(vec![I::text("VHOSTS")]),
            ]
        );
        assert_eq!(
            read(r"\[a|b|c] \<a@b.cd>"),
            vec![I::text("[a|b|c] <a@b.cd>")]
        );
        assert_eq!(
            read(r"C:\Windows \\server"),
            vec![I::text(r"C:\Windows \server")]
        );
        // Without the declaration a backslash is a character like any other.
        assert_eq!(
            parse_inlines(r"\_x_", Places::Unknown, Mode::Normal, Syntax::SEED),
            vec![I::text("\\"), I::emphasis(vec![I::text("x")])]
        );
    }

    #[test]
    fn link_values_are_taken_as_written() {
        assert_eq!(
            read(r"[a\_b|\x|t\_]"),
            vec![I::link(
                Some(r"a\_b".into()),
                Some(r"\x".into()),
                vec![I::text("t_")]
            )]
        );
    }

    #[test]
    fn an_escaped_space_is_white_space() {
        // Rule 2: strong emphasis cannot start with white space.
        assert_eq!(read(r"*\ x*"), vec![I::text("* x*")]);
        assert_eq!(read(r"a \ \  b"), vec![I::text("a    b")]);
    }
}
