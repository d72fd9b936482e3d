//! What each element of HTML becomes: the classification behind the mapping
//! table of the module docs. Elements are classified once, when html5ever
//! creates them, so the walk over the tree never compares names again.

use html5ever::{LocalName, Namespace, local_name, ns};

/// The formatting an inline element applies (seed 000 "Inline Elements").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fmt {
    /// `_emphasis_`: `em`, and on input `i`, `var`, `cite`, `u` (and `address`'s
    /// usual rendering is not emphasis: it is a block).
    Em,
    /// `*strong*`: `strong`, and on input `b`, `dfn`, `th`.
    Strong,
    /// `'sample text'`: `code`, and on input `tt`, `samp`, `kbd`.
    Code,
    /// `^{superscript}` (`#Extend subsup`): `sup`.
    Sup,
    /// `~{subscript}` (`#Extend subsup`): `sub`.
    Sub,
}

/// How an element is mapped. One value per row group of the mapping table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tag {
    // ---- the document and its head ----
    /// `html`: its `lang` / `xml:lang` become `#Lang`.
    Html,
    /// `head`: walked for metadata only.
    Head,
    /// `body`: the body.
    Body,
    /// `title`: `#Title`.
    Title,
    /// `meta`: `#Meta:` (named metas), `#Lang` (Content-Language); charset and
    /// other pragmas are skipped.
    Meta,
    /// `link`: `#Link:`.
    Link,
    /// `base`: ignored, with a diagnostic when it has an `href`.
    Base,
    // ---- ballast: dropped with everything inside ----
    /// Scripts, styles, templates, form controls, embedded content, frames'
    /// fallbacks and other elements whose content is not text for a reader.
    Ballast,
    /// Elements without content that mean nothing here (`col`, `colgroup`,
    /// `wbr`, `basefont`, `bgsound`).
    Nothing,
    // ---- blocks ----
    /// A transparent block container: its children are kept, and it starts
    /// and ends a block (`div`, `center`, `section`, `form`...).
    Block,
    /// `p`.
    Paragraph,
    /// `h1` to `h6`.
    Heading(u8),
    /// `pre`, `listing`, `xmp`, `plaintext`.
    Pre,
    /// `blockquote`.
    Blockquote,
    /// `ul`, `dir`, `menu`.
    UnorderedList,
    /// `ol`.
    OrderedList,
    /// `li`.
    ListItem,
    /// `dl`.
    DefinitionList,
    /// `dt`.
    Term,
    /// `dd`.
    Definition,
    /// `hr`.
    Rule,
    /// `table`.
    Table,
    /// `caption`.
    Caption,
    /// `thead`, `tbody`, `tfoot`: transparent inside a table.
    RowGroup,
    /// `tr`.
    Row,
    /// `td`.
    Cell,
    /// `th`: a cell whose content is strong.
    HeaderCell,
    /// `frameset`: a block of frames.
    Frameset,
    /// `frame`: a link to its `src`.
    Frame,
    // ---- inlines ----
    /// An element that applies formatting.
    Format(Fmt),
    /// `a`: a link, an anchor, or both.
    Anchor,
    /// `br`: a line division.
    LineBreak,
    /// `img` (and `image`, which the parser renames): an image.
    Image,
    /// `iframe`, `video`, `audio`, `object`, `embed`: a link to what they
    /// embed (a video's poster as its image), nothing of their content.
    Media,
    /// `q`: its text in quotation marks.
    Quote,
    /// `s`, `strike`, `del`: kept as plain text, with a note that their
    /// presentation is lost.
    Presentational,
    /// A transparent inline: its children are kept as they are (`span`,
    /// `font`, `abbr`, `small`, `label`, and the controls `button`,
    /// `select` and `textarea`, as the text they show).
    Inline,
    /// `option`, `optgroup`: a choice of a list box, kept as its text (a
    /// group as its `label`), set apart from the choice before it by ` / `.
    Choice,
    // ---- foreign content ----
    /// `math`: its TeX annotation as sample text when it has one, else its
    /// text (formulas become plain text).
    Math,
    /// MathML `annotation`: never walked; the formula reads a TeX one.
    Annotation,
    /// An element of SVG (`svg` and everything inside it in the SVG
    /// namespace): dropped by the mapping (an image without text). The
    /// arena keeps all its attributes and text for the sanitiser
    /// (`ingest::svg`).
    Svg,
    /// An element of HTML this table does not know (custom elements, typos):
    /// transparent, noted once per name.
    Unknown,
}

impl Tag {
    /// Whether html5ever's text children of such an element are never read
    /// (raw text of scripts and styles, content of other ballast). The text
    /// of SVG elements is kept: an inline `<svg>` is sanitised from the
    /// arena (`ingest::svg`), `<text>` and `<title>` included.
    pub(crate) fn drops_text(self) -> bool {
        matches!(self, Tag::Ballast | Tag::Nothing | Tag::Media)
    }
}

/// The formatting of `Tag::Format` elements and `th`, for the docs table.
pub(crate) fn classify(ns: &Namespace, local: &LocalName) -> Tag {
    if *ns == ns!(html) {
        return classify_html(local);
    }
    if *ns == ns!(svg) {
        return Tag::Svg;
    }
    if *ns == ns!(mathml) {
        // The annotations repeat the formula in another notation (TeX,
        // content MathML): the walk reads only the presentation, but a TeX
        // annotation's text is kept for the formula (see `Tag::Annotation`).
        return match *local {
            local_name!("annotation") => Tag::Annotation,
            local_name!("annotation-xml") => Tag::Ballast,
            _ => Tag::Math,
        };
    }
    Tag::Unknown
}

/// The tag of an element in the HTML namespace: the mapping table, one
/// function per row group of [`Tag`].
fn classify_html(local: &LocalName) -> Tag {
    head_tag(local)
        .or_else(|| ballast_tag(local))
        .or_else(|| block_tag(local))
        .or_else(|| inline_tag(local))
        .unwrap_or_else(|| foreign_tag(local))
}

/// The document and its head.
fn head_tag(local: &LocalName) -> Option<Tag> {
    Some(match *local {
        local_name!("html") => Tag::Html,
        local_name!("head") => Tag::Head,
        local_name!("body") => Tag::Body,
        local_name!("title") => Tag::Title,
        local_name!("meta") => Tag::Meta,
        local_name!("link") => Tag::Link,
        local_name!("base") => Tag::Base,
        _ => return None,
    })
}

/// Ballast (dropped with everything inside) and elements that mean
/// nothing here.
fn ballast_tag(local: &LocalName) -> Option<Tag> {
    Some(match *local {
        // Ballast: scripts and styles, templates, form controls (but for
        // the text a page shows in them: see `inline_tag`), embedded and
        // interactive content, fallbacks of what is dropped.
        local_name!("script")
        | local_name!("style")
        | local_name!("template")
        | local_name!("input")
        | local_name!("datalist")
        | local_name!("keygen")
        | local_name!("meter")
        | local_name!("progress")
        | local_name!("isindex")
        | local_name!("applet")
        | local_name!("param")
        | local_name!("source")
        | local_name!("track")
        | local_name!("canvas")
        | local_name!("map")
        | local_name!("area")
        | local_name!("noembed")
        | local_name!("noframes")
        | local_name!("dialog")
        | local_name!("slot")
        | local_name!("selectedcontent") => Tag::Ballast,

        local_name!("col")
        | local_name!("colgroup")
        | local_name!("wbr")
        | local_name!("basefont")
        | local_name!("bgsound") => Tag::Nothing,
        _ => return None,
    })
}

/// Blocks: containers whose children are kept, paragraphs, headings,
/// preformatted text, lists, tables, frames.
fn block_tag(local: &LocalName) -> Option<Tag> {
    Some(match *local {
        // Blocks whose children are kept.
        local_name!("div")
        | local_name!("center")
        | local_name!("address")
        | local_name!("section")
        | local_name!("article")
        | local_name!("aside")
        | local_name!("nav")
        | local_name!("header")
        | local_name!("footer")
        | local_name!("main")
        | local_name!("search")
        | local_name!("hgroup")
        | local_name!("figure")
        | local_name!("figcaption")
        | local_name!("details")
        | local_name!("summary")
        | local_name!("form")
        | local_name!("fieldset")
        | local_name!("legend")
        | local_name!("multicol")
        | local_name!("marquee")
        | local_name!("noscript") => Tag::Block,

        local_name!("p") => Tag::Paragraph,
        local_name!("h1") => Tag::Heading(1),
        local_name!("h2") => Tag::Heading(2),
        local_name!("h3") => Tag::Heading(3),
        local_name!("h4") => Tag::Heading(4),
        local_name!("h5") => Tag::Heading(5),
        local_name!("h6") => Tag::Heading(6),
        local_name!("pre")
        | local_name!("listing")
        | local_name!("xmp")
        | local_name!("plaintext") => Tag::Pre,
        local_name!("blockquote") => Tag::Blockquote,
        local_name!("ul") | local_name!("dir") | local_name!("menu") => Tag::UnorderedList,
        local_name!("ol") => Tag::OrderedList,
        local_name!("li") => Tag::ListItem,
        local_name!("dl") => Tag::DefinitionList,
        local_name!("dt") => Tag::Term,
        local_name!("dd") => Tag::Definition,
        local_name!("hr") => Tag::Rule,
        local_name!("table") => Tag::Table,
        local_name!("caption") => Tag::Caption,
        local_name!("thead") | local_name!("tbody") | local_name!("tfoot") => Tag::RowGroup,
        local_name!("tr") => Tag::Row,
        local_name!("td") => Tag::Cell,
        local_name!("th") => Tag::HeaderCell,
        local_name!("frameset") => Tag::Frameset,
        local_name!("frame") => Tag::Frame,
        _ => return None,
    })
}

/// Inlines: formatting, links, line breaks, images, quotations,
/// presentational and transparent inline elements.
fn inline_tag(local: &LocalName) -> Option<Tag> {
    Some(match *local {
        // Inline formatting (seed 000 "Inline Elements").
        local_name!("em")
        | local_name!("i")
        | local_name!("var")
        | local_name!("cite")
        | local_name!("u") => Tag::Format(Fmt::Em),
        local_name!("strong") | local_name!("b") | local_name!("dfn") => Tag::Format(Fmt::Strong),
        local_name!("code") | local_name!("tt") | local_name!("samp") | local_name!("kbd") => {
            Tag::Format(Fmt::Code)
        }
        local_name!("a") => Tag::Anchor,
        local_name!("br") => Tag::LineBreak,
        local_name!("img") | local_name!("image") => Tag::Image,
        local_name!("iframe")
        | local_name!("video")
        | local_name!("audio")
        | local_name!("object")
        | local_name!("embed") => Tag::Media,
        local_name!("q") => Tag::Quote,
        local_name!("option") | local_name!("optgroup") => Tag::Choice,
        local_name!("sup") => Tag::Format(Fmt::Sup),
        local_name!("sub") => Tag::Format(Fmt::Sub),
        local_name!("s")
        | local_name!("strike")
        | local_name!("del") => Tag::Presentational,

        local_name!("span")
        | local_name!("font")
        | local_name!("small")
        | local_name!("big")
        | local_name!("abbr")
        | local_name!("acronym")
        | local_name!("mark")
        | local_name!("ins")
        | local_name!("time")
        | local_name!("data")
        | local_name!("bdi")
        | local_name!("bdo")
        | local_name!("label")
        // A button's label (text, an icon) is what the page shows; the
        // control itself is not kept.
        | local_name!("button")
        // The same for a list box (its choices, as `Choice`) and a text
        // area (its text): the words are the page's, the control is not.
        | local_name!("select")
        | local_name!("textarea")
        // A calculation's result shows its content, as a span would (news
        // sites wrap article images in one).
        | local_name!("output")
        | local_name!("nobr")
        | local_name!("blink")
        | local_name!("ruby")
        | local_name!("rb")
        | local_name!("rt")
        | local_name!("rtc")
        | local_name!("rp")
        | local_name!("picture")
        | local_name!("menuitem")
        // Not void for the HTML parser: whatever follows them is inside.
        | local_name!("spacer")
        | local_name!("nextid") => Tag::Inline,
        _ => return None,
    })
}

/// Foreign content written in the HTML namespace, and elements this table
/// does not know.
fn foreign_tag(local: &LocalName) -> Tag {
    match *local {
        // html5ever puts <math> and <svg> in their namespaces; these names
        // only reach here in the HTML namespace when written oddly.
        local_name!("math") => Tag::Math,
        local_name!("svg") => Tag::Svg,
        _ => Tag::Unknown,
    }
}

/// Whether the start tag of an HTML element may be ignored when the tree is
/// already too deep: elements whose start tag changes neither the
/// tokenizer's state nor the tree builder's mode (so no script or style can
/// leak into the text), and whose content is kept without them.
pub(crate) fn droppable_when_deep(local: &LocalName) -> bool {
    if *local == local_name!("noscript") {
        return false;
    }
    matches!(
        classify_html(local),
        Tag::Block
            | Tag::Paragraph
            | Tag::Heading(_)
            | Tag::Blockquote
            | Tag::UnorderedList
            | Tag::OrderedList
            | Tag::ListItem
            | Tag::DefinitionList
            | Tag::Term
            | Tag::Definition
            | Tag::Table
            | Tag::Format(_)
            | Tag::Anchor
            | Tag::Quote
            | Tag::Presentational
            | Tag::Inline
            | Tag::Unknown
    )
}

/// Whether an attribute of an HTML element is one the mapping reads; the
/// others are never stored (presentational attributes and event handlers
/// are ballast). Elements of SVG keep all theirs (see `Sink`).
pub(crate) fn keeps_attribute(local: &LocalName) -> bool {
    matches!(
        *local,
        local_name!("id")
            | local_name!("name")
            | local_name!("href")
            | local_name!("alt")
            | local_name!("lang")
            | local_name!("xml:lang")
            | local_name!("type")
            | local_name!("start")
            | local_name!("value")
            | local_name!("reversed")
            | local_name!("compact")
            | local_name!("content")
            | local_name!("rel")
            | local_name!("title")
            | local_name!("aria-label")
            | local_name!("label")
            | local_name!("http-equiv")
            | local_name!("charset")
            | local_name!("property")
            | local_name!("colspan")
            | local_name!("rowspan")
            | local_name!("src")
            | local_name!("srcset")
            | local_name!("poster")
            | local_name!("data")
            | local_name!("encoding")
            | local_name!("width")
            | local_name!("height")
            // What a list box shows: a drop-down, its chosen option alone.
            | local_name!("selected")
            | local_name!("multiple")
            | local_name!("size")
    )
        // The script-loaded sources of a lazily loaded image.
        || LAZY_SOURCES.contains(&&**local)
}

/// The attributes that hold the source a lazily loading page's script
/// gives an `<img>` that has none, in the order they are tried (`data-srcset`
/// last, its first candidate).
pub(crate) const LAZY_SOURCES: [&str; 4] =
    ["data-src", "data-original", "data-lazy-src", "data-srcset"];

/// Whether a `div`'s `class` names one of the two parts of a figure as
/// XHTML 1.0 writes them (`docs/format.md`, "Figures"): `figure` or
/// `caption`. That `class` is kept whatever else is read.
pub(crate) fn names_figure_part(class: &str) -> bool {
    class
        .split_ascii_whitespace()
        .any(|c| c == "figure" || c == "caption")
}

/// Whether an attribute is one the main-content selection reads
/// (`super::main_content`): the page's own hints at its structure (classes,
/// ARIA roles, schema.org properties) and at what is hidden. They are kept
/// only when that selection is asked for, and never written out.
pub(crate) fn keeps_structure_attribute(local: &LocalName) -> bool {
    matches!(
        *local,
        local_name!("class")
            | local_name!("role")
            | local_name!("itemprop")
            | local_name!("hidden")
            | local_name!("aria-hidden")
            | local_name!("style")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_inline_mappings() {
        // Seed 000: <em>, on input also <i>, <var>, <cite>, <u>; <strong>,
        // also <b>, <dfn>, <th>; <code>, also <tt>, <samp>, <kbd>.
        for (name, fmt) in [
            ("em", Fmt::Em),
            ("i", Fmt::Em),
            ("var", Fmt::Em),
            ("cite", Fmt::Em),
            ("u", Fmt::Em),
            ("strong", Fmt::Strong),
            ("b", Fmt::Strong),
            ("dfn", Fmt::Strong),
            ("code", Fmt::Code),
            ("tt", Fmt::Code),
            ("samp", Fmt::Code),
            ("kbd", Fmt::Code),
        ] {
            assert_eq!(
                classify(&ns!(html), &LocalName::from(name)),
                Tag::Format(fmt),
                "{name}"
            );
        }
        assert_eq!(
            classify(&ns!(html), &LocalName::from("th")),
            Tag::HeaderCell
        );
    }

    #[test]
    fn obsolete_elements_are_mapped() {
        let html = |n: &str| classify(&ns!(html), &LocalName::from(n));
        assert_eq!(html("center"), Tag::Block);
        assert_eq!(html("font"), Tag::Inline);
        assert_eq!(html("select"), Tag::Inline);
        assert_eq!(html("optgroup"), Tag::Choice);
        assert_eq!(html("datalist"), Tag::Ballast);
        assert_eq!(html("dir"), Tag::UnorderedList);
        assert_eq!(html("listing"), Tag::Pre);
        assert_eq!(html("xmp"), Tag::Pre);
        assert_eq!(html("plaintext"), Tag::Pre);
        assert_eq!(html("frameset"), Tag::Frameset);
        assert_eq!(html("applet"), Tag::Ballast);
        assert_eq!(html("my-widget"), Tag::Unknown);
    }
}
