//! Markup spelled for insertion into a text someone is editing (the image
//! picker of `pagetext edit`): the writer spells it, as part of a one-line
//! document under the escapes the text declares, so that it reads back as
//! what was asked for once it stands in that text.

use crate::canon::Policy;
use crate::diag::Diagnostic;
use crate::grammar::is_side_char;
use crate::model::{Block, Document, Inline, Metadata};
use crate::write::canonicalize;

/// What [`image`] gives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inserted {
    /// The markup, on one line: `![SRC||ALT]`, with `{}` after it when the
    /// character it goes before would keep it from being read (rule 3).
    pub text: String,
    /// The writer's repairs (a source percent-encoded, an alternative text
    /// trimmed or read differently without escapes), at line 1.
    pub diagnostics: Vec<Diagnostic>,
    /// Whether the text must declare `#Extend image` for the markup to be
    /// an image (it did not declare it).
    pub declare_image: bool,
}

/// The image `src` with the alternative text `alt` (plain text; empty: a
/// decoration), spelled for a text whose header is `meta`, to be inserted
/// right before the character `next` (`None`: the end of a line or of the
/// text). A source is written as a link's URL
/// ([`crate::grammar::encode_link_value`]). When the alternative text can
/// only be spelled with escapes and the text does not declare them,
/// [`NeedsEscapes`] (declaring them would change what the text's own
/// backslashes mean).
///
/// ```
/// let meta = wikitext::Metadata::default();
/// let done = wikitext::insert::image("img/logo.png", "Our logo", &meta, Some('w')).unwrap();
/// assert_eq!(done.text, "![img/logo.png||Our logo]{}");
/// assert!(done.declare_image);
/// ```
pub fn image(
    src: &str,
    alt: &str,
    meta: &Metadata,
    next: Option<char>,
) -> Result<Inserted, NeedsEscapes> {
    let alt = if alt.is_empty() {
        Vec::new()
    } else {
        vec![Inline::text(alt)]
    };
    let doc = Document::new(
        Metadata {
            image: true,
            escape: meta.escape,
            ..Metadata::default()
        },
        vec![Block::paragraph(vec![Inline::image(src, alt)])],
    );
    let done = canonicalize(doc, &Policy::DEFAULT);
    if done.canonical.document().meta.escape && !meta.escape {
        return Err(NeedsEscapes);
    }
    let written = done.canonical.text();
    // The body is what follows the header's empty line: one paragraph.
    let body = written.split_once("\n\n").map_or(written, |(_, body)| body);
    let mut text = body.trim_end_matches('\n').replace('\n', " ");
    // Empty braces end an image before a character rule 3 does not allow
    // beside markup, and before a brace (section 8, "Writing images").
    if text.ends_with(']') && (!is_side_char(next) || next == Some('{')) {
        text.push_str("{}");
    }
    Ok(Inserted {
        text,
        diagnostics: done.diagnostics,
        declare_image: !meta.image,
    })
}

/// [`image`] could spell the alternative text only with escapes (`\`),
/// which the text does not declare.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NeedsEscapes;

impl std::fmt::Display for NeedsEscapes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(
            "the alternative text needs escapes (`\\`), which this page does not declare \
             (`#Escape \\`): reword it, or declare escapes first",
        )
    }
}

impl std::error::Error for NeedsEscapes {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse;

    /// The one image `text` reads as in a text with `header`.
    fn read(header: &str, text: &str) -> Vec<Inline> {
        let doc = parse(&format!("{header}\n\n{text}\n")).document;
        match doc.body.as_slice() {
            [Block::Paragraph { content, .. }] => content.clone(),
            other => panic!("not one paragraph: {other:?}"),
        }
    }

    fn no_escapes() -> Metadata {
        Metadata {
            image: true,
            ..Metadata::default()
        }
    }

    #[test]
    fn images_read_back_as_asked() {
        for alt in [
            "A logo",
            "",
            "under_score",
            "*stars*",
            "a [bracket]",
            "x||y",
            "back\\slash",
        ] {
            let with = Metadata {
                escape: true,
                ..no_escapes()
            };
            let done = image("a b/c.png", alt, &with, None).unwrap();
            let got = read("#Extend image\n#Escape \\", &done.text);
            let [
                Inline::Image {
                    src, alt: read_alt, ..
                },
            ] = got.as_slice()
            else {
                panic!("{alt:?} as {:?} read as {got:?}", done.text);
            };
            assert_eq!(src, "a%20b/c.png");
            assert_eq!(crate::plain_text(read_alt), alt, "{:?}", done.text);
            assert!(!done.declare_image);
        }
    }

    #[test]
    fn without_escapes_none_are_written() {
        let done = image("c.png", "in_word and a:b", &no_escapes(), None).unwrap();
        assert!(!done.text.contains('\\'), "{}", done.text);
        let got = read("#Extend image", &done.text);
        assert!(matches!(got.as_slice(), [Inline::Image { .. }]), "{got:?}");
        // What only an escape can say is refused.
        assert_eq!(
            image("c.png", "_all_", &no_escapes(), None),
            Err(NeedsEscapes)
        );
    }

    #[test]
    fn braces_before_a_letter_or_a_brace() {
        let meta = no_escapes();
        let spelled = |next| image("c.png", "C", &meta, next).map(|d| d.text);
        assert_eq!(spelled(Some(' ')).as_deref(), Ok("![c.png||C]"));
        assert_eq!(spelled(Some('.')).as_deref(), Ok("![c.png||C]"));
        assert_eq!(spelled(None).as_deref(), Ok("![c.png||C]"));
        assert_eq!(spelled(Some('x')).as_deref(), Ok("![c.png||C]{}"));
        assert_eq!(spelled(Some('{')).as_deref(), Ok("![c.png||C]{}"));
        let got = read(
            "#Extend image",
            &format!("{}word", spelled(Some('w')).unwrap()),
        );
        assert!(matches!(got.first(), Some(Inline::Image { .. })), "{got:?}");
    }

    #[test]
    fn the_declaration_is_asked_for_when_missing() {
        assert!(
            image("c.png", "C", &Metadata::default(), None)
                .unwrap()
                .declare_image
        );
        assert!(
            !image("c.png", "C", &no_escapes(), None)
                .unwrap()
                .declare_image
        );
    }
}
