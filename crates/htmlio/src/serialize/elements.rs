//! The element tables the HTML syntax needs: which elements are void, which
//! hold raw text, which attributes are boolean. Names are compared ASCII
//! case-insensitively (seed 003 §"Elements": tag names are case-insensitive).

/// Elements whose text the HTML parser reads without character references
/// (seed 003 "raw text elements" `script` and `style`, plus the elements the
/// reference's fragment serialization algorithm also writes literally).
/// `noscript` is included because a browser with scripting enabled reads it so.
const RAW_TEXT: &[&str] = &[
    "script",
    "style",
    "xmp",
    "iframe",
    "noembed",
    "noframes",
    "plaintext",
    "noscript",
];

/// Elements whose leading newline the parser drops (reference §"Restrictions
/// on content models": `pre` and `textarea`; `listing` behaves the same).
const LEADING_NEWLINE: &[&str] = &["pre", "textarea", "listing"];

/// Elements whose white space `strip_whitespace` must not touch.
const KEEP_WHITESPACE: &[&str] = &["pre", "textarea", "listing"];

/// Attributes that are boolean in some HTML element (current and legacy
/// vocabularies; `irrelevant` is the HTML5-draft name of `hidden`).
const BOOLEAN_ATTRIBUTES: &[&str] = &[
    "allowfullscreen",
    "async",
    "autofocus",
    "autoplay",
    "checked",
    "compact",
    "controls",
    "declare",
    "default",
    "defer",
    "disabled",
    "formnovalidate",
    "hidden",
    "inert",
    "irrelevant",
    "ismap",
    "itemscope",
    "loop",
    "multiple",
    "muted",
    "nohref",
    "noresize",
    "noshade",
    "novalidate",
    "nowrap",
    "open",
    "playsinline",
    "readonly",
    "required",
    "reversed",
    "scoped",
    "seamless",
    "selected",
    "typemustmatch",
];

fn contains(list: &[&str], name: &str) -> bool {
    // Names are short and the lists too, but this runs for every tag the
    // serializers write: compare lengths and first letters before the rest.
    let Some(&first) = name.as_bytes().first() else {
        return false;
    };
    let first = first.to_ascii_lowercase();
    list.iter().any(|n| {
        n.len() == name.len()
            && n.as_bytes().first() == Some(&first)
            && n.eq_ignore_ascii_case(name)
    })
}

/// Whether `name` is a void element: it has a start tag only.
///
/// Seed 003 §"Elements": the void elements, plus the legacy ones the HTML
/// parser also treats as void (`basefont`, `bgsound`, `frame`, `keygen`), so
/// that a serializer never writes an end tag a parser would misread. (A
/// `match` rather than a list: the serializers ask for every tag they
/// write.)
pub fn is_void(name: &str) -> bool {
    let mut lower = [0u8; 8];
    let Some(slot) = lower.get_mut(..name.len()) else {
        return false;
    };
    slot.copy_from_slice(name.as_bytes());
    slot.make_ascii_lowercase();
    matches!(
        &*slot,
        // seed 003 list
        b"area" | b"base" | b"br" | b"col" | b"embed" | b"hr" | b"img" | b"input"
            | b"link" | b"meta" | b"param" | b"source" | b"track" | b"wbr"
            // legacy, void to the parser
            | b"basefont" | b"bgsound" | b"frame" | b"keygen"
    )
}

/// Whether the text of `name` is written without escaping (raw text).
pub fn is_raw_text(name: &str) -> bool {
    contains(RAW_TEXT, name)
}

/// Whether a newline right after the start tag of `name` is dropped by parsers.
pub(crate) fn drops_leading_newline(name: &str) -> bool {
    contains(LEADING_NEWLINE, name)
}

/// Whether white space inside `name` is significant to `strip_whitespace`.
pub(crate) fn keeps_whitespace(name: &str) -> bool {
    contains(KEEP_WHITESPACE, name) || is_raw_text(name)
}

/// Whether `attribute` is a boolean attribute (its presence is its value).
pub fn is_boolean_attribute(attribute: &str) -> bool {
    contains(BOOLEAN_ATTRIBUTES, attribute)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_void_elements_are_void() {
        // Seed 003 §"Elements", the void element list, verbatim.
        for name in [
            "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param",
            "source", "track", "wbr",
        ] {
            assert!(is_void(name), "{name}");
            assert!(is_void(&name.to_ascii_uppercase()), "{name}");
        }
        for legacy in ["basefont", "bgsound", "frame", "keygen"] {
            assert!(is_void(legacy), "{legacy}");
        }
        for other in [
            "p",
            "template",
            "",
            "hrx",
            "h",
            "basefonts",
            "frameset",
            "brr",
        ] {
            assert!(!is_void(other), "{other}");
        }
    }

    #[test]
    fn raw_text_and_escapable_raw_text() {
        assert!(is_raw_text("script"));
        assert!(is_raw_text("STYLE"));
        // Escapable raw text elements are escaped like normal text.
        assert!(!is_raw_text("title"));
        assert!(!is_raw_text("textarea"));
    }
}
