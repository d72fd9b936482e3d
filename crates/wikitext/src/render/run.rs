//! Inline runs spelled as text (seed 000 "Inline-level Elements"), without
//! escapes: the one spelling that the writer, its escaping and the read-back
//! check share, with the origin of each piece for a sink that wants it.

use crate::grammar::BREAK;
use crate::model::Inline;
use crate::scan::is_side_char;

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
/// line feed, or as a space in a line of preformatted text (`pre`); an
/// image as `#Extend image` spells it, `![src||alt]{WxH "title"}`; a
/// forced break as `#Extend break` does, `<br>`; and
/// superscripts and subscripts as `#Extend subsup` does, `^{..}`, `~{..}`.
/// `inside` holds the [`origin`] flags of the enclosing elements.
/// Recursion is bounded by the inline depth of a canonical run.
pub(crate) fn render_run<S: Sink>(run: &[Inline], pre: bool, inside: u8, out: &mut S) {
    use origin::{DELIM, IN_CODE, IN_EM, IN_LINK, IN_STRONG, LINK_END, TEXT};
    for (i, node) in run.iter().enumerate() {
        match node {
            Inline::Text { text, .. } => out.piece(text, TEXT | inside),
            Inline::LineBreak { .. } => out.piece(if pre { " " } else { "\n" }, inside),
            // `#Extend break`.
            Inline::HardBreak { .. } => out.piece(if pre { " " } else { BREAK }, inside),
            // `#Extend subsup`: the braces end them wherever they stand.
            Inline::Superscript { content, .. } | Inline::Subscript { content, .. } => {
                let sup = matches!(node, Inline::Superscript { .. });
                out.piece(if sup { "^{" } else { "~{" }, inside);
                render_run(content, pre, inside, out);
                out.piece("}", inside);
            }
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
