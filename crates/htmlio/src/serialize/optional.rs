//! The optional-tag rules: when a start or end tag may be left out.
//!
//! Seed 003 §"Optional tags" states the rule for the `html` start tag and then
//! breaks off; the rest comes from the reference (HTML 5.2 §8.1.2.4, "Optional
//! tags"). Every rule here allows omission only where the reference does.
//! Where the reference allows more than we do, we keep the tag, and the
//! comment says why: keeping a tag is always conforming.
//!
//! The rules look at the next significant token (layout white space is looked
//! through, see [`super::Token::Layout`]); "there is no more content in the
//! parent element" is an end tag or the end of the stream coming next.

/// What comes right after the tag being decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Next<'t> {
    /// The end of the stream.
    Eof,
    /// A start tag; `html` is false for foreign (SVG, MathML) elements.
    Start { name: &'t str, html: bool },
    /// An end tag.
    End { name: &'t str },
    /// Text; whether it starts with a space character.
    Text { leading_space: bool },
    /// A comment.
    Comment,
    /// A DOCTYPE (never valid after the start of a document).
    Doctype,
}

impl Next<'_> {
    fn is_start(&self, names: &[&str]) -> bool {
        match *self {
            Next::Start { name, html: true } => names.iter().any(|n| n.eq_ignore_ascii_case(name)),
            _ => false,
        }
    }

    /// "No more content in the parent element": the parent's end tag (or the
    /// end of the stream) comes next.
    fn ends_parent(&self) -> bool {
        matches!(self, Next::End { .. } | Next::Eof)
    }

    fn is_space_or_comment(&self) -> bool {
        matches!(
            self,
            Next::Comment
                | Next::Text {
                    leading_space: true
                }
        )
    }
}

/// The parent of an element whose end tag is being decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Parent<'t> {
    /// Not known (the stream did not open it).
    Unknown,
    /// An HTML element.
    Html(&'t str),
    /// An SVG or MathML element.
    Foreign,
}

fn is(name: &str, names: &[&str]) -> bool {
    names.iter().any(|n| n.eq_ignore_ascii_case(name))
}

/// Whether the start tag of the HTML element `name`, which has no attributes,
/// may be left out. `after_omitted_end` names the element whose end tag was
/// the previous token and was left out, if so.
///
/// Reference §8.1.2.4: "a start tag must never be omitted if it has any
/// attributes" is the caller's check.
pub(crate) fn may_omit_start(name: &str, next: Next<'_>, after_omitted_end: Option<&str>) -> bool {
    if name.eq_ignore_ascii_case("html") {
        // Seed 003 §"Optional tags": if the first thing inside is not a
        // comment. We also keep it before a space character: the reference
        // allows omitting it there (the parser drops those spaces either way),
        // but keeping it is conforming and what html5lib's suite expects.
        !next.is_space_or_comment()
    } else if name.eq_ignore_ascii_case("head") {
        // If the element is empty, or the first thing inside is an element.
        matches!(next, Next::Start { .. })
            || matches!(next, Next::End { name } if name.eq_ignore_ascii_case("head"))
    } else if name.eq_ignore_ascii_case("body") {
        // If the element is empty, or the first thing inside is not a space
        // character or a comment, except a meta, link, script, style or
        // template element.
        !(next.is_space_or_comment()
            || next.is_start(&["meta", "link", "script", "style", "template"])
            || next == Next::Doctype)
    } else if name.eq_ignore_ascii_case("colgroup") {
        // If the first thing inside is a col element, and the element is not
        // immediately preceded by a colgroup element whose end tag was omitted.
        // (It cannot be omitted when empty.)
        next.is_start(&["col"]) && !after_omitted_end.is_some_and(|e| is(e, &["colgroup"]))
    } else if name.eq_ignore_ascii_case("tbody") {
        // If the first thing inside is a tr element, and the element is not
        // immediately preceded by a tbody, thead or tfoot element whose end tag
        // was omitted. (It cannot be omitted when empty.)
        next.is_start(&["tr"])
            && !after_omitted_end.is_some_and(|e| is(e, &["tbody", "thead", "tfoot"]))
    } else {
        false
    }
}

/// The start tags that may have an optional-start rule (a quick filter).
pub(crate) fn has_optional_start(name: &str) -> bool {
    is(name, &["html", "head", "body", "colgroup", "tbody"])
}

/// The end tags that may have an optional-end rule (a quick filter).
pub(crate) fn has_optional_end(name: &str) -> bool {
    is(
        name,
        &[
            "html", "head", "body", "li", "dt", "dd", "p", "rb", "rt", "rtc", "rp", "optgroup",
            "option", "colgroup", "caption", "thead", "tbody", "tfoot", "tr", "td", "th",
        ],
    )
}

/// Reference §8.1.2.4: the elements whose start tag lets a `p` end tag go.
const CLOSES_P: &[&str] = &[
    "address",
    "article",
    "aside",
    "blockquote",
    "details",
    "div",
    "dl",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "header",
    "hr",
    "main",
    "nav",
    "ol",
    "p",
    "pre",
    "section",
    "table",
    "ul",
];

/// Reference §8.1.2.4: the parents in which a `p` end tag must stay even at
/// the end of their content.
const KEEPS_P_END: &[&str] = &["a", "audio", "del", "ins", "map", "noscript", "video"];

/// Whether the end tag of the HTML element `name` may be left out.
pub(crate) fn may_omit_end(name: &str, next: Next<'_>, parent: Parent<'_>) -> bool {
    let lower;
    let name = if name.bytes().any(|b| b.is_ascii_uppercase()) {
        lower = name.to_ascii_lowercase();
        lower.as_str()
    } else {
        name
    };
    match name {
        // An html element's end tag: if not immediately followed by a comment;
        // a body element's end tag: likewise. We keep both before a space
        // character too (allowed by the reference, but the spaces would move
        // into the body; html5lib's suite keeps them there).
        "html" | "body" => !next.is_space_or_comment() && next != Next::Doctype,
        // A head element's end tag: if not immediately followed by a space
        // character or a comment.
        "head" => !next.is_space_or_comment() && next != Next::Doctype,
        // li: followed by another li, or no more content in the parent.
        "li" => next.is_start(&["li"]) || next.ends_parent(),
        // dt: followed by a dt or dd element.
        "dt" => next.is_start(&["dt", "dd"]),
        // dd: followed by a dd or dt element, or no more content in the parent.
        "dd" => next.is_start(&["dd", "dt"]) || next.ends_parent(),
        // p: followed by one of CLOSES_P, or no more content in a parent that
        // is an HTML element other than KEEPS_P_END or an autonomous custom
        // element (whose name has a hyphen).
        "p" => {
            next.is_start(CLOSES_P)
                || (next.ends_parent()
                    && match parent {
                        Parent::Html(p) => !is(p, KEEPS_P_END) && !p.contains('-'),
                        Parent::Foreign => false,
                        Parent::Unknown => match next {
                            Next::End { name } => !is(name, KEEPS_P_END) && !name.contains('-'),
                            _ => true,
                        },
                    })
        }
        // rb, rt, rp: followed by rb, rt, rtc or rp, or no more content.
        "rb" | "rt" | "rp" => next.is_start(&["rb", "rt", "rtc", "rp"]) || next.ends_parent(),
        // rtc: followed by rb or rtc, or no more content.
        "rtc" => next.is_start(&["rb", "rtc"]) || next.ends_parent(),
        // optgroup: followed by optgroup, or no more content.
        "optgroup" => next.is_start(&["optgroup"]) || next.ends_parent(),
        // option: followed by option or optgroup, or no more content.
        "option" => next.is_start(&["option", "optgroup"]) || next.ends_parent(),
        // colgroup, caption: if not immediately followed by a space character
        // or a comment.
        "colgroup" | "caption" => !next.is_space_or_comment() && next != Next::Doctype,
        // thead: followed by tbody or tfoot.
        "thead" => next.is_start(&["tbody", "tfoot"]),
        // tbody: followed by tbody or tfoot, or no more content.
        "tbody" => next.is_start(&["tbody", "tfoot"]) || next.ends_parent(),
        // tfoot: no more content in the parent.
        "tfoot" => next.ends_parent(),
        // tr: followed by tr, or no more content.
        "tr" => next.is_start(&["tr"]) || next.ends_parent(),
        // td, th: followed by td or th, or no more content.
        "td" | "th" => next.is_start(&["td", "th"]) || next.ends_parent(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_start_tag_seed_rule() {
        // Seed 003: the html start tag may go unless a comment comes first.
        assert!(may_omit_start(
            "html",
            Next::Start {
                name: "head",
                html: true
            },
            None
        ));
        assert!(!may_omit_start("html", Next::Comment, None));
    }

    #[test]
    fn p_end_tag_depends_on_parent() {
        assert!(may_omit_end("p", Next::Eof, Parent::Html("div")));
        assert!(!may_omit_end(
            "p",
            Next::End { name: "a" },
            Parent::Html("a")
        ));
        assert!(!may_omit_end("p", Next::Eof, Parent::Html("my-element")));
        assert!(may_omit_end(
            "p",
            Next::Start {
                name: "ul",
                html: true
            },
            Parent::Html("a")
        ));
        assert!(!may_omit_end(
            "p",
            Next::Start {
                name: "span",
                html: true
            },
            Parent::Html("div")
        ));
    }

    #[test]
    fn colgroup_after_omitted_colgroup_end_keeps_start() {
        let col = Next::Start {
            name: "col",
            html: true,
        };
        assert!(may_omit_start("colgroup", col, None));
        assert!(!may_omit_start("colgroup", col, Some("colgroup")));
    }
}
