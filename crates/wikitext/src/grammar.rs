//! The rules of the text format that other crates need, defined here and
//! nowhere else (seed 000). A crate that maps another format to the model
//! (such as `htmlio`) asks these functions instead of copying the rules;
//! everything else about what the format can hold is done by
//! [`canon`](crate::canon).
//!
//! ```
//! use wikitext::grammar;
//! assert!(grammar::is_side_char(Some('(')));
//! assert!(!grammar::is_side_char(Some('é')));
//! assert_eq!(grammar::encode_link_value("a b|c"), "a%20b%7Cc");
//! assert!(grammar::is_email_address("joe@example.org"));
//! assert_eq!(grammar::words("  two \n words "), "two words");
//! ```

use std::borrow::Cow;

/// The escape extension's character (`docs/format.md`, "Escapes").
pub const ESCAPE: char = '\\';

/// The word after `#Escape` that declares the extension: `#Escape \`.
pub const ESCAPE_MARK: &str = "\\";

/// The header line that declares the escape extension. Seed readers ignore
/// it (seed 000 "Meta Data": unknown lines are ignored).
pub const ESCAPE_DECLARATION: &str = "#Escape \\";

/// The feature word of `#Extend` that lets a container open with a block
/// (`docs/format.md`, "Containers that open with a block").
pub const FEATURE_OPEN: &str = "open";

/// The header line that declares the `open` feature. Seed readers ignore
/// it, as they ignore `#Escape \`.
pub const OPEN_DECLARATION: &str = "#Extend open";

/// The feature word of `#Extend` that makes `![SRC||ALT]` an image
/// (`docs/format.md`, "Images").
pub const FEATURE_IMAGE: &str = "image";

/// The header line that declares the `image` feature.
pub const IMAGE_DECLARATION: &str = "#Extend image";

/// The feature word of `#Extend` that makes lines between bars the rows
/// of a table (`docs/format.md`, "Tables").
pub const FEATURE_TABLE: &str = "table";

/// The header line that declares the `table` feature.
pub const TABLE_DECLARATION: &str = "#Extend table";

/// The feature word of `#Extend` that makes a compact definition item
/// whose only term is an image a figure (`docs/format.md`, "Figures").
pub const FEATURE_FIGURE: &str = "figure";

/// The header line that declares the `figure` feature.
pub const FIGURE_DECLARATION: &str = "#Extend figure";

/// The feature word of `#Extend` that makes `<br>` a forced line break
/// (`docs/format.md`, "Line breaks, superscripts and subscripts").
pub const FEATURE_BREAK: &str = "break";

/// A forced line break, as a document that declares `#Extend break`
/// spells it.
pub const BREAK: &str = "<br>";

/// The header line that declares the `break` feature.
pub const BREAK_DECLARATION: &str = "#Extend break";

/// The feature word of `#Extend` that makes `^{...}` a superscript and
/// `~{...}` a subscript (`docs/format.md`, "Superscripts and subscripts").
pub const FEATURE_SUBSUP: &str = "subsup";

/// The header line that declares the `subsup` feature.
pub const SUBSUP_DECLARATION: &str = "#Extend subsup";

/// The header lines that declare the features `meta` turns on, in the
/// order the canonical layout writes them (`docs/format.md`, "The
/// canonical layout"): `image`, `table`, `figure`, `break`, `subsup`, the escapes,
/// and `open` last.
pub(crate) fn declarations(meta: &crate::model::Metadata) -> impl Iterator<Item = &'static str> {
    [
        (meta.image, IMAGE_DECLARATION),
        (meta.table, TABLE_DECLARATION),
        (meta.figure, FIGURE_DECLARATION),
        (meta.breaks, BREAK_DECLARATION),
        (meta.subsup, SUBSUP_DECLARATION),
        (meta.escape, ESCAPE_DECLARATION),
        (meta.open, OPEN_DECLARATION),
    ]
    .into_iter()
    .filter_map(|(on, line)| on.then_some(line))
}

/// Whether, in a document that declares `#Escape \`, a backslash before
/// `c` makes `c` plain text: the characters the format uses as markup
/// anywhere (`_ * ' [ ] | < >`, and the `!` of an image), those that begin a bullet, heading, rule
/// or blockquote (`- + = ~ # ^`), the `.` and `)` of an ordered bullet,
/// the `:` of a term's `::`, the space of the three-space gap, and the
/// backslash itself. Before any other character a backslash is itself.
///
/// ```
/// use wikitext::grammar::is_escapable;
/// assert!(is_escapable('_') && is_escapable('\\') && is_escapable(' '));
/// assert!(!is_escapable('n') && !is_escapable('1') && !is_escapable('('));
/// ```
pub const fn is_escapable(c: char) -> bool {
    matches!(
        c,
        '\\' | '_'
            | '*'
            | '\''
            | '['
            | ']'
            | '|'
            | '<'
            | '>'
            | '='
            | '-'
            | '+'
            | '~'
            | '#'
            | '^'
            | '.'
            | ')'
            | ':'
            | ' '
            | '!'
    )
}

/// `docs/format.md`, "Figures": whether a run can be a figure's image:
/// exactly one image, or one link whose text is exactly one image. (In a
/// document that declares `#Extend figure`, a compact definition item
/// whose only term is such a run is a figure.)
///
/// ```
/// use wikitext::{Inline, grammar::is_figure_image};
/// let image = Inline::image("a.png", vec![Inline::text("A")]);
/// assert!(is_figure_image(&[image.clone()]));
/// assert!(is_figure_image(&[Inline::link(Some("big.png".into()), None, vec![image.clone()])]));
/// assert!(!is_figure_image(&[image, Inline::text(" and more")]));
/// assert!(!is_figure_image(&[]));
/// ```
pub fn is_figure_image(run: &[crate::model::Inline]) -> bool {
    use crate::model::Inline;
    match run {
        [Inline::Image { .. }] => true,
        [Inline::Link { content, .. }] => matches!(content.as_slice(), [Inline::Image { .. }]),
        _ => false,
    }
}

/// Seed 000 "Inline Elements", rule 3: whether a character may stand next
/// to inline markup: white space, ASCII punctuation, or the edge of the
/// text (`None`). A letter or digit there keeps the markup from being read.
pub fn is_side_char(c: Option<char>) -> bool {
    crate::scan::is_side_char(c)
}

/// Seed 000 "Inline Elements", link: whether a URL or fragment may hold
/// the character in text (not white space, not one of `{}[|]<>"`).
pub fn is_link_value_char(c: char) -> bool {
    crate::scan::is_link_value_char(c)
}

/// A URL or fragment as text can hold it: every character
/// [`is_link_value_char`] refuses is percent-encoded (its UTF-8 bytes),
/// which leaves a URL naming the same resource. Borrows when nothing
/// changes.
pub fn encode_link_value(value: &str) -> Cow<'_, str> {
    // Nearly every URL needs nothing: no copy.
    let Some(first_bad) = first_non_link_value_char(value) else {
        return Cow::Borrowed(value);
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
    Cow::Owned(out)
}

/// Where the first character that [`is_link_value_char`] refuses is: a
/// byte at a time while the text is ASCII (most URLs are), characters from
/// the first that is not.
fn first_non_link_value_char(value: &str) -> Option<usize> {
    for (i, &b) in value.as_bytes().iter().enumerate() {
        if !b.is_ascii() {
            let rest = value.get(i..)?;
            return rest.find(|c: char| !is_link_value_char(c)).map(|j| i + j);
        }
        if !is_link_value_char(char::from(b)) {
            return Some(i);
        }
    }
    None
}

/// Seed 000 "Inline Elements", rule 5: whether `address` can be written
/// as `<address>` and read back as the same e-mail address (letters and
/// digits of any script, `-` and `.`, `_` in the local part too, and a `.`
/// in the domain), exactly as the parser checks it.
pub fn is_email_address(address: &str) -> bool {
    let text = format!("<{address}>");
    crate::scan::email(&text).is_some_and(|(a, len)| a == address && len == text.len())
}

/// Seed 000 "Meta Data": header values are words separated by single
/// spaces; this is the value the header holds for any text.
pub fn words(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Seed 000 "Definition list": whether a line ends like a sentence (`.`,
/// `!`, `?`, `:`), which no line of a term but the last may do.
pub fn ends_sentence(line: &str) -> bool {
    crate::scan::ends_sentence(line)
}

/// Seed 000 "Meta Data": whether a text opens with one of the header lines
/// the format knows (`#Title`, `#Lang`, `#Meta:`, `#Link:`, `#Escape`,
/// `#Extend`; a byte order mark before it is allowed): the sign that a text
/// is in this format, which no HTML page and little other text shows.
pub fn opens_with_header_line(text: &str) -> bool {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let first = text.split(['\n', '\r']).next().unwrap_or("");
    first.starts_with('#') && crate::scan::header_line(first) != crate::scan::HeaderLine::Unknown
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_in_the_format_opens_with_a_header_line() {
        // Seed 000's example header, and the extensions' lines.
        assert!(opens_with_header_line(
            "#Title A Simple HTML Document\n#Lang en-us\n\nx"
        ));
        assert!(opens_with_header_line("\u{feff}#lang en\r\n"));
        assert!(opens_with_header_line("#Extend table\n"));
        assert!(opens_with_header_line("#Meta:description x"));
        // An unknown header word, a heading, an HTML page, prose.
        assert!(!opens_with_header_line("#Titles x\n"));
        assert!(!opens_with_header_line("= Title =\n"));
        assert!(!opens_with_header_line("<!DOCTYPE html><title>x</title>"));
        assert!(!opens_with_header_line("Notes\n#Title x\n"));
        assert!(!opens_with_header_line(""));
    }

    #[test]
    fn the_byte_search_finds_what_the_character_search_finds() {
        let mut texts: Vec<String> = (0..128u8).map(|b| format!("a{}b", char::from(b))).collect();
        texts.extend(
            [
                "",
                "ok",
                "caf\u{e9}|x",
                "\u{a0}",
                "x\u{3000}y",
                "\u{85}",
                "é{",
                "日本語",
            ]
            .map(String::from),
        );
        for t in &texts {
            assert_eq!(
                first_non_link_value_char(t),
                t.find(|c: char| !is_link_value_char(c)),
                "{t:?}"
            );
        }
    }

    #[test]
    fn link_values_from_the_seed() {
        // Seed 000: not white space or any of {}[|]<>"
        for c in [' ', '\t', '{', '}', '[', '|', ']', '<', '>', '"'] {
            assert!(!is_link_value_char(c), "{c:?}");
        }
        assert!(is_link_value_char('/'));
        assert!(matches!(encode_link_value("http://x/"), Cow::Borrowed(_)));
        assert_eq!(encode_link_value("a\u{a0}b"), "a%C2%A0b");
    }

    #[test]
    fn addresses_follow_rule_5() {
        assert!(is_email_address("a.b_c@ex-ample.org"));
        assert!(!is_email_address("a@b"));
        assert!(!is_email_address("a b@c.d"));
        assert!(!is_email_address("a@b_c.d"));
    }
}
