//! An inline `<svg>` made safe to show as an image: the graphic, sanitised
//! by allow-lists, written as XML and carried in a
//! `data:image/svg+xml;base64,...` URL, with its text alternative and size.
//!
//! The result runs no script and loads nothing from elsewhere, whether a
//! browser loads it as an image or opens it as a document:
//!
//! - **Elements** of SVG are kept from an allow-list (shapes, paths, `g`,
//!   `defs`, `symbol`, `use`, `switch`, `view`, `title`, `desc`, text,
//!   gradients, patterns, clipping, masking, markers, filters and their
//!   primitives, animations, `style`, nested `svg`). `script`,
//!   `foreignObject`, elements of other namespaces (HTML in `title`,
//!   `desc` or `foreignObject`), `metadata` and any other element are
//!   dropped with everything inside. `a` is unwrapped: its children stay,
//!   it goes. `image` and `feImage` stay only when their `href` points
//!   into the graphic (`#fragment`); `set` and `animate*` are dropped when
//!   they animate an `href` or an event handler; `style` stays only when
//!   its CSS passes the test below.
//! - **Attributes** are kept from an allow-list of presentation, geometry,
//!   filter, animation and conditional-processing attributes, plus `id`,
//!   `class`, `style`, `lang`, `xml:lang` and `xml:space`. Event handlers
//!   (`on*`) go. `href` and `xlink:href` stay only as a `#fragment`. A
//!   value whose CSS could fetch or run something goes: a `url(` that is
//!   not `url(#...)`, `image(`, `image-set(`, `src(`, `attr(`,
//!   `expression(`, `@import`, `javascript:`, `vbscript:` or a backslash
//!   (CSS escapes could spell any of these). Old fetching properties
//!   (`behavior`, `-moz-binding`) need a `url(` too.
//! - **Text** is kept inside `text`, `tspan`, `textPath`, `title`, `desc` and
//!   `style`; elsewhere SVG does not draw it, and it is left out.
//!
//! The XML is written by the crate's XML writer
//! ([`crate::serialize::XhtmlSerializer`]), so values and text are escaped
//! as everywhere else; namespaced attributes keep their prefix
//! (`xlink:href`, `xml:space`) and the root declares `xmlns` (and
//! `xmlns:xlink` when an `xlink:` attribute is kept). The walk over the
//! tree uses the arena's links and a stack of open elements, no recursion,
//! and visits each node once.
//!
//! The arena keeps every attribute and the text of SVG elements for this
//! (see [`super::sink`]); html5ever gives SVG elements and attributes their
//! SVG spelling (`clipPath`, `viewBox`) and puts `xlink:href`, `xml:space`
//! and `xml:lang` in their namespaces.

use std::borrow::Cow;
use std::collections::BTreeMap;

use base64::Engine;
use html5ever::ns;

use super::sink::{Arena, Data, Element, NONE, NodeId, Visit};
use crate::serialize::{Attribute, EndTag, Namespace, StartTag, Token, TokenSink, XhtmlSerializer};

/// An inline `<svg>` made safe to show as an image.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Graphic {
    /// `data:image/svg+xml;base64,...` of the sanitised graphic
    /// (deterministic: the same tree gives the same bytes).
    pub(crate) src: String,
    /// Its text alternative: the `aria-label` of the svg (unless blank),
    /// else the text of its first `<title>` child, white space collapsed;
    /// empty when there is neither.
    pub(crate) alt: String,
    /// The `width` attribute of the svg when it is a plain non-negative
    /// integer, optionally followed by `px`.
    pub(crate) width: Option<u32>,
    /// The `height` attribute, read like [`Graphic::width`].
    pub(crate) height: Option<u32>,
    /// What the sanitiser removed: each kind (one of the constants of
    /// [`removed`]) with its count, sorted by kind.
    pub(crate) removed: Vec<(&'static str, usize)>,
}

/// The kinds of things [`graphic`] removes, as [`Graphic::removed`] names
/// them.
pub(crate) mod removed {
    /// A `script` element.
    pub(crate) const SCRIPT: &str = "script";
    /// A `foreignObject` element (HTML inside the graphic).
    pub(crate) const FOREIGN_OBJECT: &str = "foreignObject";
    /// An element of HTML or MathML inside the graphic (html5ever puts them
    /// in `title` and `desc`, which are HTML integration points).
    pub(crate) const NON_SVG_ELEMENT: &str = "non-SVG element";
    /// An SVG element outside the allow-list (`cursor`, `font`, typos...).
    pub(crate) const UNKNOWN_ELEMENT: &str = "unknown element";
    /// A `metadata` element (RDF and such, never drawn).
    pub(crate) const METADATA: &str = "metadata";
    /// An `a` element: unwrapped, its children kept.
    pub(crate) const LINK: &str = "link";
    /// An `image` or `feImage` whose `href` is not a `#fragment`.
    pub(crate) const EXTERNAL_IMAGE: &str = "external image";
    /// A `set` or `animate*` element that animates an `href` or an event
    /// handler.
    pub(crate) const UNSAFE_ANIMATION: &str = "unsafe animation";
    /// An `on*` attribute.
    pub(crate) const EVENT_HANDLER: &str = "event handler";
    /// An `href` or `xlink:href` attribute that is not a `#fragment`.
    pub(crate) const EXTERNAL_REFERENCE: &str = "external reference";
    /// An attribute or `style` element with a `url(` that is not `url(#...)`.
    pub(crate) const STYLE_URL: &str = "style url";
    /// An attribute or `style` element with CSS that could run script or
    /// fetch without `url(` (see the module docs).
    pub(crate) const UNSAFE_STYLE: &str = "unsafe style";
    /// Any other attribute outside the allow-list (mostly harmless ones:
    /// `aria-*`, `role`, `data-*`, `focusable`, editors' own namespaces).
    pub(crate) const ATTRIBUTE: &str = "attribute";
}

/// The SVG elements kept (in html5ever's spelling), sorted for a binary
/// search.
const ELEMENTS: &[&str] = &[
    "animate",
    "animateMotion",
    "animateTransform",
    "circle",
    "clipPath",
    "defs",
    "desc",
    "ellipse",
    "feBlend",
    "feColorMatrix",
    "feComponentTransfer",
    "feComposite",
    "feConvolveMatrix",
    "feDiffuseLighting",
    "feDisplacementMap",
    "feDistantLight",
    "feDropShadow",
    "feFlood",
    "feFuncA",
    "feFuncB",
    "feFuncG",
    "feFuncR",
    "feGaussianBlur",
    "feImage",
    "feMerge",
    "feMergeNode",
    "feMorphology",
    "feOffset",
    "fePointLight",
    "feSpecularLighting",
    "feSpotLight",
    "feTile",
    "feTurbulence",
    "filter",
    "g",
    "image",
    "line",
    "linearGradient",
    "marker",
    "mask",
    "mpath",
    "path",
    "pattern",
    "polygon",
    "polyline",
    "radialGradient",
    "rect",
    "set",
    "stop",
    "style",
    "svg",
    "switch",
    "symbol",
    "text",
    "textPath",
    "title",
    "tspan",
    "use",
    "view",
];

/// The attributes without a namespace kept (in html5ever's spelling),
/// sorted for a binary search. `href` is not here: it is kept only as a
/// `#fragment` (see [`Sanitiser::attributes`]).
const ATTRIBUTES: &[&str] = &[
    "accumulate",
    "additive",
    "alignment-baseline",
    "amplitude",
    "attributeName",
    "attributeType",
    "azimuth",
    "baseFrequency",
    "baseline-shift",
    "begin",
    "bias",
    "by",
    "calcMode",
    "class",
    "clip",
    "clip-path",
    "clip-rule",
    "clipPathUnits",
    "color",
    "color-interpolation",
    "color-interpolation-filters",
    "color-rendering",
    "cx",
    "cy",
    "d",
    "diffuseConstant",
    "direction",
    "display",
    "divisor",
    "dominant-baseline",
    "dur",
    "dx",
    "dy",
    "edgeMode",
    "elevation",
    "end",
    "exponent",
    "fill",
    "fill-opacity",
    "fill-rule",
    "filter",
    "filterUnits",
    "flood-color",
    "flood-opacity",
    "font-family",
    "font-size",
    "font-size-adjust",
    "font-stretch",
    "font-style",
    "font-variant",
    "font-weight",
    "fr",
    "from",
    "fx",
    "fy",
    "glyph-orientation-horizontal",
    "glyph-orientation-vertical",
    "gradientTransform",
    "gradientUnits",
    "height",
    "id",
    "image-rendering",
    "in",
    "in2",
    "intercept",
    "isolation",
    "k1",
    "k2",
    "k3",
    "k4",
    "kernelMatrix",
    "kernelUnitLength",
    "keyPoints",
    "keySplines",
    "keyTimes",
    "lang",
    "lengthAdjust",
    "letter-spacing",
    "lighting-color",
    "limitingConeAngle",
    "marker-end",
    "marker-mid",
    "marker-start",
    "markerHeight",
    "markerUnits",
    "markerWidth",
    "mask",
    "mask-type",
    "maskContentUnits",
    "maskUnits",
    "max",
    "method",
    "min",
    "mix-blend-mode",
    "mode",
    "numOctaves",
    "offset",
    "opacity",
    "operator",
    "order",
    "orient",
    "origin",
    "overflow",
    "paint-order",
    "path",
    "pathLength",
    "patternContentUnits",
    "patternTransform",
    "patternUnits",
    "points",
    "pointsAtX",
    "pointsAtY",
    "pointsAtZ",
    "preserveAlpha",
    "preserveAspectRatio",
    "primitiveUnits",
    "r",
    "radius",
    "refX",
    "refY",
    "repeatCount",
    "repeatDur",
    "requiredExtensions",
    "requiredFeatures",
    "restart",
    "result",
    "rotate",
    "rx",
    "ry",
    "scale",
    "seed",
    "shape-rendering",
    "side",
    "slope",
    "spacing",
    "specularConstant",
    "specularExponent",
    "spreadMethod",
    "startOffset",
    "stdDeviation",
    "stitchTiles",
    "stop-color",
    "stop-opacity",
    "stroke",
    "stroke-dasharray",
    "stroke-dashoffset",
    "stroke-linecap",
    "stroke-linejoin",
    "stroke-miterlimit",
    "stroke-opacity",
    "stroke-width",
    "style",
    "surfaceScale",
    "systemLanguage",
    "tableValues",
    "targetX",
    "targetY",
    "text-anchor",
    "text-decoration",
    "text-rendering",
    "textLength",
    "to",
    "transform",
    "transform-origin",
    "type",
    "unicode-bidi",
    "values",
    "vector-effect",
    "viewBox",
    "visibility",
    "white-space",
    "width",
    "word-spacing",
    "writing-mode",
    "x",
    "x1",
    "x2",
    "xChannelSelector",
    "y",
    "y1",
    "y2",
    "yChannelSelector",
    "z",
];

/// The elements whose text is kept (SVG draws no other text).
const TEXT_ELEMENTS: &[&str] = &["desc", "style", "text", "textPath", "title", "tspan"];

/// Elements that draw nothing by themselves: a graphic of only these (or of
/// nothing) is no graphic ([`graphic`] gives `None`).
const UNDRAWN: &[&str] = &["desc", "style", "title"];

/// Substrings (of the value in ASCII lower case) that make CSS unsafe
/// without a `url(`: functions and rules that fetch or run something, and
/// the backslash of CSS escapes, which could spell any of them.
const UNSAFE_CSS: &[&str] = &[
    "\\",
    "expression(",
    "@import",
    "javascript:",
    "vbscript:",
    "image(",
    "image-set(",
    "src(",
    "attr(",
];

/// Whether an image source is an SVG data URL (`data:image/svg+xml...`).
pub(crate) fn is_svg_data_url(src: &str) -> bool {
    src.get(..18)
        .is_some_and(|p| p.eq_ignore_ascii_case("data:image/svg+xml"))
}

/// What an SVG given as a `data:image/svg+xml` URL may become as an image
/// source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum DataSvg {
    /// Nothing in it could run or load anything: kept as written.
    Clean,
    /// Kept as the sanitiser wrote it, with what it removed.
    Sanitized(Graphic),
    /// Not an SVG data URL that can be read, or nothing would be left of it.
    Unusable,
}

/// An SVG given as a `data:image/svg+xml` URL (base64 or percent-encoded),
/// judged as an inline `<svg>` is made safe: parsed as HTML parses an
/// inline graphic, then through [`graphic`]. A graphic from which the
/// sanitiser removes nothing but attributes it does not know (`role`,
/// `data-*`: nothing that runs or loads) is clean, and so is one with
/// nothing to draw and none of the words of script or reference in it (a
/// placeholder of a lazily loaded image).
pub(crate) fn judge_data_url(src: &str) -> DataSvg {
    let Some(text) = data_url_text(src) else {
        return DataSvg::Unusable;
    };
    let graphic = super::parse::parse(
        &text,
        super::sink::ParseErrors::Count,
        super::parse::Declarations::Ignore,
        &mut |_, _| super::parse::OnMeta::Settled,
    )
    .and_then(|arena| {
        let svg = arena.nodes.iter().position(|n| {
            matches!(&n.data, Data::Element(e) if e.name.ns == ns!(svg) && &*e.name.local == "svg")
        })?;
        graphic(&arena, NodeId::try_from(svg).ok()?)
    });
    match graphic {
        Some(g)
            if g.removed
                .iter()
                .all(|(kind, _)| *kind == removed::ATTRIBUTE) =>
        {
            DataSvg::Clean
        }
        Some(g) => DataSvg::Sanitized(g),
        None => {
            let lower = text.to_ascii_lowercase();
            let suspect = [
                "script",
                "javascript",
                " on",
                "foreignobject",
                "href",
                "url(",
                "@import",
                "<iframe",
                "<a",
                "<image",
                "<use",
            ]
            .iter()
            .any(|w| lower.contains(w));
            if suspect || !lower.contains("<svg") {
                DataSvg::Unusable
            } else {
                DataSvg::Clean
            }
        }
    }
}

/// The SVG text of a `data:image/svg+xml` URL; `None` for any other.
fn data_url_text(src: &str) -> Option<String> {
    let src = src.trim();
    let rest = src.get(5..).filter(|_| {
        src.get(..5)
            .is_some_and(|s| s.eq_ignore_ascii_case("data:"))
    })?;
    let (meta, data) = rest.split_once(',')?;
    let mut parts = meta.split(';').map(str::trim);
    if !parts
        .next()
        .is_some_and(|m| m.eq_ignore_ascii_case("image/svg+xml"))
    {
        return None;
    }
    let base64 = parts.any(|p| p.eq_ignore_ascii_case("base64"));
    let bytes = if base64 {
        let clean: String = data.chars().filter(|c| !c.is_ascii_whitespace()).collect();
        let clean = percent_encoding::percent_decode_str(&clean).collect::<Vec<u8>>();
        base64::engine::general_purpose::STANDARD
            .decode(clean)
            .ok()?
    } else {
        percent_encoding::percent_decode_str(data).collect()
    };
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

/// The inline `<svg>` element `svg` of `arena`, sanitised (see the module
/// docs): its data URL, text alternative, size and what was removed.
/// `None` when `svg` is not an `svg` element of the SVG namespace, or when
/// nothing drawable is left in it (no element but `title`, `desc` and
/// `style`).
pub(crate) fn graphic(arena: &Arena, svg: NodeId) -> Option<Graphic> {
    let root = arena
        .element(svg)
        .filter(|e| e.name.ns == ns!(svg) && &*e.name.local == "svg")?;
    let mut s = Sanitiser {
        arena,
        out: XhtmlSerializer::new(),
        open: Vec::new(),
        removed: BTreeMap::new(),
        xlink: false,
        drawn: 0,
    };
    let mut attributes = s.attributes(root);
    s.children(svg);
    if s.drawn == 0 {
        return None;
    }
    // The root's start tag goes first, once it is known whether an `xlink:`
    // attribute was kept anywhere.
    let mut head = vec![Attribute::new("xmlns", Namespace::Svg.uri())];
    if s.xlink {
        head.push(Attribute::new(
            "xmlns:xlink",
            "http://www.w3.org/1999/xlink",
        ));
    }
    head.append(&mut attributes);
    let mut xml = XhtmlSerializer::new();
    xml.push(start_tag("svg", head, false));
    let mut xml = xml.finish();
    xml.push_str(&s.out.finish());
    xml.push_str("</svg>");
    let mut src = String::from("data:image/svg+xml;base64,");
    base64::engine::general_purpose::STANDARD.encode_string(xml.as_bytes(), &mut src);
    let Labels { alt, width, height } = labels(arena, svg, root);
    Some(Graphic {
        src,
        alt,
        width,
        height,
        removed: s.removed.into_iter().collect(),
    })
}

/// The one picture an inline `<svg>` shows when it draws nothing but an
/// `image` from elsewhere (a logo: `<svg><image href="logo.svg"/></svg>`),
/// which the sanitiser removes: that `href`, as the source of an image in
/// the graphic's place. `None` when the svg draws anything else, or holds
/// no such `image` or more than one. Only the svg's own children are read.
pub(crate) fn lone_external_image(arena: &Arena, svg: NodeId) -> Option<&str> {
    let mut found = None;
    let mut child = arena.node(svg).map_or(NONE, |n| n.first_child);
    while let Some(node) = arena.node(child) {
        if let Data::Element(e) = &node.data {
            match &*e.name.local {
                "title" | "desc" | "style" | "defs" | "metadata" => {}
                "image" if e.name.ns == ns!(svg) && found.is_none() => {
                    found = Some(hrefs(e).find(|h| !is_fragment(h))?);
                }
                _ => return None,
            }
        }
        child = node.next;
    }
    found
}

/// What an image shows besides its source: its text alternative (empty
/// when it has none) and its size in pixels.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Labels {
    /// The text alternative.
    pub(crate) alt: String,
    /// The width in pixels.
    pub(crate) width: Option<u32>,
    /// The height in pixels.
    pub(crate) height: Option<u32>,
}

/// The [`Labels`] of an inline `<svg>`, as [`graphic`] gives them; `None`
/// when `svg` is not an element.
pub(crate) fn svg_labels(arena: &Arena, svg: NodeId) -> Option<Labels> {
    Some(labels(arena, svg, arena.element(svg)?))
}

/// The [`Labels`] of the svg `root` (node `svg`).
fn labels(arena: &Arena, svg: NodeId, root: &Element) -> Labels {
    Labels {
        alt: alternative(arena, svg, root),
        width: pixels(root.attr("width")),
        height: pixels(root.attr("height")),
    }
}

/// The text alternative of the svg `root` (node `svg`): its `aria-label`,
/// else the text of its first `title` child, white space collapsed.
fn alternative(arena: &Arena, svg: NodeId, root: &Element) -> String {
    let label = root.attr("aria-label").map(wikitext::grammar::words);
    if let Some(label) = label.filter(|l| !l.is_empty()) {
        return label;
    }
    let mut child = arena.node(svg).map_or(NONE, |n| n.first_child);
    while let Some(node) = arena.node(child) {
        if let Data::Element(e) = &node.data
            && e.name.ns == ns!(svg)
            && &*e.name.local == "title"
        {
            return wikitext::grammar::words(&arena.child_text(child));
        }
        child = node.next;
    }
    String::new()
}

/// A `width` or `height` of plain pixels: a non-negative integer, optionally
/// followed by `px`, with white space around.
fn pixels(value: Option<&str>) -> Option<u32> {
    let value = value?.trim_ascii();
    let number = value
        .len()
        .checked_sub(2)
        .and_then(|n| value.split_at_checked(n))
        .filter(|(_, unit)| unit.eq_ignore_ascii_case("px"))
        .map_or(value, |(number, _)| number);
    if microsyntax::is_valid_non_negative_integer(number) {
        number.parse().ok()
    } else {
        None
    }
}

/// An element the walk went into: the end tag to write when it is left
/// (`None` for an unwrapped `a`), and whether text inside it is kept.
struct Open<'a> {
    end: Option<&'a str>,
    keeps_text: bool,
}

/// What becomes of an element.
enum Verdict {
    /// Written, and its children walked.
    Keep,
    /// Not written, its children walked (`a`).
    Unwrap,
    /// Dropped with everything inside, counted under this kind.
    Drop(&'static str),
}

/// The state of one sanitising walk.
struct Sanitiser<'a> {
    arena: &'a Arena,
    /// The markup inside the root.
    out: XhtmlSerializer,
    /// The elements the walk is in, innermost last.
    open: Vec<Open<'a>>,
    removed: BTreeMap<&'static str, usize>,
    /// Whether an `xlink:` attribute was kept.
    xlink: bool,
    /// How many elements that draw something were kept.
    drawn: usize,
}

impl Visit for Sanitiser<'_> {
    fn enter(&mut self, id: NodeId) -> bool {
        self.enter_node(id)
    }

    fn exit(&mut self, _id: NodeId) {
        self.leave();
    }
}

impl<'a> Sanitiser<'a> {
    fn count(&mut self, kind: &'static str) {
        *self.removed.entry(kind).or_insert(0) += 1;
    }

    /// Writes what is kept of the children of `root`, in tree order:
    /// into an element kept or unwrapped, closing it after its children.
    fn children(&mut self, root: NodeId) {
        let arena = self.arena;
        arena.walk(root, self);
    }

    /// Handles a node; whether the walk goes into its children (it has
    /// some, and an [`Open`] was pushed for it).
    fn enter_node(&mut self, id: NodeId) -> bool {
        let arena = self.arena;
        let Some(node) = arena.node(id) else {
            return false;
        };
        let e = match &node.data {
            Data::Element(e) => e,
            Data::Text(t) => {
                if self.open.last().is_some_and(|o| o.keeps_text) {
                    self.out.push(Token::Text(Cow::Borrowed(t)));
                }
                return false;
            }
            Data::Document | Data::Discard => return false,
        };
        let has_children = node.first_child != NONE;
        let local: &'a str = &e.name.local;
        match verdict(e) {
            Verdict::Drop(kind) => {
                self.count(kind);
                false
            }
            Verdict::Unwrap => {
                self.count(removed::LINK);
                let keeps_text = self.open.last().is_some_and(|o| o.keeps_text);
                if has_children {
                    self.open.push(Open {
                        end: None,
                        keeps_text,
                    });
                }
                has_children
            }
            Verdict::Keep if local == "style" => {
                self.style(id, e);
                false
            }
            Verdict::Keep => {
                if !UNDRAWN.contains(&local) {
                    self.drawn += 1;
                }
                let attributes = self.attributes(e);
                self.out.push(start_tag(local, attributes, !has_children));
                if has_children {
                    self.open.push(Open {
                        end: Some(local),
                        keeps_text: TEXT_ELEMENTS.contains(&local),
                    });
                }
                has_children
            }
        }
    }

    /// Leaves the innermost open element.
    fn leave(&mut self) {
        if let Some(Open {
            end: Some(name), ..
        }) = self.open.pop()
        {
            self.out.push(Token::EndTag(EndTag {
                name: Cow::Borrowed(name),
                namespace: Namespace::Svg,
            }));
        }
    }

    /// A `style` element: its own text (the text of elements inside it is
    /// not CSS), kept when it passes [`css_problem`].
    fn style(&mut self, id: NodeId, e: &'a Element) {
        let css = self.arena.child_text(id);
        if let Some(kind) = css_problem(&css) {
            self.count(kind);
            return;
        }
        let attributes = self.attributes(e);
        self.out
            .push(start_tag("style", attributes, css.is_empty()));
        if !css.is_empty() {
            self.out.push(Token::Text(Cow::Owned(css)));
            self.out.push(Token::EndTag(EndTag {
                name: Cow::Borrowed("style"),
                namespace: Namespace::Svg,
            }));
        }
    }

    /// The attributes of `e` that are kept, in source order, spelled for
    /// XML; the others are counted.
    fn attributes(&mut self, e: &'a Element) -> Vec<Attribute<'a>> {
        let mut kept = Vec::new();
        for a in &e.attrs {
            let (local, value): (&'a str, &'a str) = (&a.name.local, &a.value);
            let ns = &a.name.ns;
            let name = if *ns == ns!() {
                if local
                    .get(..2)
                    .is_some_and(|on| on.eq_ignore_ascii_case("on"))
                {
                    self.count(removed::EVENT_HANDLER);
                    continue;
                }
                if local != "href" && ATTRIBUTES.binary_search(&local).is_err() {
                    self.count(removed::ATTRIBUTE);
                    continue;
                }
                local
            } else if *ns == ns!(xlink) && local == "href" {
                "xlink:href"
            } else if *ns == ns!(xml) && local == "lang" {
                "xml:lang"
            } else if *ns == ns!(xml) && local == "space" {
                "xml:space"
            } else {
                // The root's `xmlns` and `xmlns:xlink` are written anew.
                if *ns != ns!(xmlns) {
                    self.count(removed::ATTRIBUTE);
                }
                continue;
            };
            if local == "href" {
                if !is_fragment(value) {
                    self.count(removed::EXTERNAL_REFERENCE);
                    continue;
                }
            } else if let Some(kind) = css_problem(value) {
                self.count(kind);
                continue;
            }
            self.xlink |= name.starts_with("xlink:");
            kept.push(Attribute::new(name, value));
        }
        kept
    }
}

/// What becomes of the element `e` and everything inside it.
fn verdict(e: &Element) -> Verdict {
    if e.name.ns != ns!(svg) {
        return Verdict::Drop(removed::NON_SVG_ELEMENT);
    }
    match &*e.name.local {
        "script" => Verdict::Drop(removed::SCRIPT),
        "foreignObject" => Verdict::Drop(removed::FOREIGN_OBJECT),
        "metadata" => Verdict::Drop(removed::METADATA),
        "a" => Verdict::Unwrap,
        "image" | "feImage" if !hrefs(e).any(is_fragment) => Verdict::Drop(removed::EXTERNAL_IMAGE),
        "set" | "animate" | "animateMotion" | "animateTransform"
            if e.attr("attributeName").is_some_and(animates_unsafely) =>
        {
            Verdict::Drop(removed::UNSAFE_ANIMATION)
        }
        local if ELEMENTS.binary_search(&local).is_ok() => Verdict::Keep,
        _ => Verdict::Drop(removed::UNKNOWN_ELEMENT),
    }
}

/// The values of the `href` and `xlink:href` attributes of `e`.
fn hrefs(e: &Element) -> impl Iterator<Item = &str> {
    e.attrs
        .iter()
        .filter(|a| &*a.name.local == "href" && (a.name.ns == ns!() || a.name.ns == ns!(xlink)))
        .map(|a| &*a.value)
}

/// Whether an animation's `attributeName` names an `href` (with any
/// prefix) or an event handler, in any case.
fn animates_unsafely(name: &str) -> bool {
    let name = name.trim_ascii();
    let local = name.rsplit(':').next().unwrap_or(name);
    local.eq_ignore_ascii_case("href")
        || local
            .get(..2)
            .is_some_and(|on| on.eq_ignore_ascii_case("on"))
}

/// Whether a URL is a `#fragment`: a reference into the graphic itself
/// (the URL parser strips the white space and controls around it).
fn is_fragment(url: &str) -> bool {
    url.trim_start_matches(|c: char| c <= ' ').starts_with('#')
}

/// Why CSS (a `style` attribute or element, or any attribute value, which
/// SVG reads as CSS for presentation attributes) could fetch or run
/// something: [`removed::STYLE_URL`] for a `url(` that is not `url(#...)`,
/// [`removed::UNSAFE_STYLE`] for the rest of [`UNSAFE_CSS`]; `None` when it
/// is safe.
fn css_problem(css: &str) -> Option<&'static str> {
    let lower = css.to_ascii_lowercase();
    if UNSAFE_CSS.iter().any(|bad| lower.contains(bad)) {
        return Some(removed::UNSAFE_STYLE);
    }
    let mut rest = lower.as_str();
    while let Some(at) = rest.find("url(") {
        rest = rest.get(at + "url(".len()..).unwrap_or_default();
        let target = rest
            .trim_start_matches(|c: char| c.is_ascii_whitespace())
            .trim_start_matches(['"', '\'']);
        if !is_fragment(target) {
            return Some(removed::STYLE_URL);
        }
    }
    None
}

/// The start tag of an SVG element.
fn start_tag<'a>(name: &'a str, attributes: Vec<Attribute<'a>>, self_closing: bool) -> Token<'a> {
    Token::StartTag(StartTag {
        name: Cow::Borrowed(name),
        namespace: Namespace::Svg,
        attributes,
        self_closing,
    })
}

#[cfg(test)]
mod tests {
    use base64::Engine;

    use super::*;
    use crate::ingest::parse::{Declarations, OnMeta, parse};
    use crate::ingest::sink::ParseErrors;

    const SVG: &str = "http://www.w3.org/2000/svg";
    const XLINK: &str = "http://www.w3.org/1999/xlink";

    /// `html` parsed as ingestion parses it, and its first `svg` element.
    fn parsed(html: &str) -> (Arena, NodeId) {
        let arena = parse(
            html,
            ParseErrors::Count,
            Declarations::Ignore,
            &mut |_, _| OnMeta::Settled,
        )
        .expect("no encoding declaration is watched");
        let svg = arena
            .nodes
            .iter()
            .position(|n| {
                matches!(&n.data, Data::Element(e) if e.name.ns == ns!(svg) && &*e.name.local == "svg")
            })
            .expect("an svg element");
        (arena, NodeId::try_from(svg).expect("a small arena"))
    }

    /// The graphic of the first `<svg>` of `html`, and its XML (see
    /// [`xml`]).
    #[track_caller]
    fn check(html: &str) -> (Graphic, String) {
        let (arena, svg) = parsed(html);
        let g = graphic(&arena, svg).expect("a graphic");
        let xml = xml(&g);
        (g, xml)
    }

    /// The XML of a graphic, decoded from its data URL and checked: well
    /// formed, with an `svg` root, every element in the SVG namespace and
    /// on the allow-list, no event handler, every `href` a `#fragment`.
    #[track_caller]
    fn xml(g: &Graphic) -> String {
        let base64 = g
            .src
            .strip_prefix("data:image/svg+xml;base64,")
            .expect("an SVG data URL");
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(base64)
            .expect("base64");
        let xml = String::from_utf8(bytes).expect("UTF-8");
        let doc = roxmltree::Document::parse(&xml).unwrap_or_else(|e| panic!("{e}\n{xml}"));
        let root = doc.root_element();
        assert_eq!(root.tag_name().name(), "svg", "{xml}");
        for e in doc.descendants().filter(|n| n.is_element()) {
            let name = e.tag_name();
            assert_eq!(name.namespace(), Some(SVG), "{xml}");
            assert!(ELEMENTS.contains(&name.name()), "{xml}");
            for a in e.attributes() {
                let lower = a.name().to_ascii_lowercase();
                assert!(!lower.starts_with("on"), "{xml}");
                assert!(lower != "href" || is_fragment(a.value()), "{xml}");
            }
        }
        xml
    }

    /// How many things of `kind` were removed.
    fn count_of(g: &Graphic, kind: &str) -> usize {
        g.removed
            .iter()
            .find(|(k, _)| *k == kind)
            .map_or(0, |&(_, n)| n)
    }

    #[test]
    fn lists_are_sorted_for_binary_search() {
        for list in [ELEMENTS, ATTRIBUTES] {
            for pair in list.windows(2) {
                assert!(pair[0] < pair[1], "{pair:?}");
            }
        }
    }

    #[test]
    fn the_xss_vectors_leave_nothing_that_runs() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../testdata/xss/vectors.txt"
        );
        let vectors = std::fs::read_to_string(path).expect("the XSS vectors");
        let mut graphics = 0;
        for line in vectors.lines().filter(|l| !l.starts_with('#')) {
            let arena = parse(
                line,
                ParseErrors::Count,
                Declarations::Ignore,
                &mut |_, _| OnMeta::Settled,
            )
            .expect("no encoding declaration is watched");
            for id in 0..arena.nodes.len() {
                let id = NodeId::try_from(id).expect("a small arena");
                if let Some(g) = graphic(&arena, id) {
                    let xml = xml(&g);
                    assert!(!xml.contains("javascript:"), "{line}: {xml}");
                    graphics += 1;
                }
            }
        }
        // The vectors with something drawable left: a `g` without its
        // `onload`, the `text` of two unwrapped links, and the circles of
        // the six vectors aimed at graphics kept as images.
        assert_eq!(graphics, 9);
    }

    #[test]
    fn a_plain_icon_keeps_its_paths() {
        let (g, xml) = check(
            r#"<p>Menu <svg xmlns="http://www.w3.org/2000/svg" viewbox="0 0 24 24" width="24" height="24" aria-hidden="true">
  <path d="M0 0h24v24H0z" fill="none"/>
  <path d="M3 18h18v-2H3v2zm0-5h18v-2H3v2z" fill-rule="evenodd"/>
</svg></p>"#,
        );
        assert_eq!(
            xml,
            concat!(
                r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" width="24" height="24">"#,
                r#"<path d="M0 0h24v24H0z" fill="none" />"#,
                r#"<path d="M3 18h18v-2H3v2zm0-5h18v-2H3v2z" fill-rule="evenodd" />"#,
                "</svg>"
            )
        );
        assert_eq!((g.width, g.height), (Some(24), Some(24)));
        assert_eq!(g.alt, "");
        assert_eq!(g.removed, vec![(removed::ATTRIBUTE, 1)]);
    }

    #[test]
    fn scripts_handlers_and_foreign_objects_are_removed() {
        let (g, xml) = check(
            r#"<svg onload="alert(1)"><script>alert(2)</script>
<script xlink:href="https://evil/x.js"></script>
<foreignObject><iframe src="javascript:alert(3)"></iframe><p onclick="alert(4)">x</p></foreignObject>
<circle r="5" onclick="alert(5)" ONMOUSEOVER="alert(6)"/></svg>"#,
        );
        assert_eq!(
            xml,
            r#"<svg xmlns="http://www.w3.org/2000/svg"><circle r="5" /></svg>"#
        );
        assert_eq!(
            g.removed,
            vec![
                (removed::EVENT_HANDLER, 3),
                (removed::FOREIGN_OBJECT, 1),
                (removed::SCRIPT, 2),
            ]
        );
    }

    #[test]
    fn links_are_unwrapped() {
        let (g, xml) = check(
            r#"<svg><a href="javascript:alert(1)"><rect width="1" height="1"/></a>
<text x="1"><a xlink:href="https://x/"><tspan>a</tspan> b</a></text></svg>"#,
        );
        assert_eq!(
            xml,
            concat!(
                r#"<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1" />"#,
                r#"<text x="1"><tspan>a</tspan> b</text></svg>"#
            )
        );
        assert_eq!(g.removed, vec![(removed::LINK, 2)]);
    }

    #[test]
    fn only_fragment_references_are_kept() {
        let (g, xml) = check(
            r##"<svg><defs><g id="a"><path d="M0 0"/></g></defs>
<use href="http://evil/x.svg#a"/><use xlink:href="#a" x="2"/><use href=" #a"/>
<use xlink:href="data:image/svg+xml,&lt;svg/>#a"/></svg>"##,
        );
        assert_eq!(
            xml,
            concat!(
                r#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">"#,
                r#"<defs><g id="a"><path d="M0 0" /></g></defs>"#,
                r##"<use /><use xlink:href="#a" x="2" /><use href=" #a" /><use /></svg>"##
            )
        );
        assert_eq!(g.removed, vec![(removed::EXTERNAL_REFERENCE, 2)]);
        let doc = roxmltree::Document::parse(&xml).expect("checked");
        let used = doc
            .descendants()
            .find(|n| n.attribute((XLINK, "href")).is_some())
            .expect("the xlink:href is in the XLink namespace");
        assert_eq!(used.attribute("x"), Some("2"));
    }

    #[test]
    fn external_images_are_removed() {
        let (g, xml) = check(
            r##"<svg><image href="https://x/y.png" width="10" height="10"/>
<image xlink:href="data:image/png;base64,AAAA"/><image/>
<filter id="f"><feImage href="https://x/y.png"/><feImage href="#r"/></filter>
<rect id="r" width="1" height="1" filter="url(#f)"/></svg>"##,
        );
        assert_eq!(
            xml,
            concat!(
                r##"<svg xmlns="http://www.w3.org/2000/svg"><filter id="f"><feImage href="#r" /></filter>"##,
                r##"<rect id="r" width="1" height="1" filter="url(#f)" /></svg>"##
            )
        );
        assert_eq!(g.removed, vec![(removed::EXTERNAL_IMAGE, 4)]);
    }

    #[test]
    fn urls_other_than_fragments_are_removed_from_styles() {
        let (g, xml) = check(
            r##"<svg><rect style="fill:url(http://x)" width="1"/>
<rect style="fill: URL( '#g' ); stroke:red"/><rect fill="url('https://x/y')" stroke="url(#g)"/>
<rect mask="url(#m) , url(//x/y)"/><rect style="background:image-set('x.png' 1x)"/>
<rect style="fill:u\72l(http://x)"/><rect fill="expression(alert(1))"/></svg>"##,
        );
        assert_eq!(
            xml,
            concat!(
                r#"<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" />"#,
                r##"<rect style="fill: URL( '#g' ); stroke:red" /><rect stroke="url(#g)" />"##,
                "<rect /><rect /><rect /><rect /></svg>"
            )
        );
        assert_eq!(
            g.removed,
            vec![(removed::STYLE_URL, 3), (removed::UNSAFE_STYLE, 3)]
        );
    }

    #[test]
    fn style_elements_are_kept_only_when_safe() {
        let (g, xml) = check(
            r#"<svg><style>.a > .b { fill: "red" } &amp; <x>ignored</x></style>
<style>@import "https://x/y.css";</style><style>.c{fill:url(https://x)}</style>
<circle class="a" r="1"/></svg>"#,
        );
        assert_eq!(
            xml,
            concat!(
                r#"<svg xmlns="http://www.w3.org/2000/svg"><style>.a &gt; .b { fill: "red" } &amp; </style>"#,
                r#"<circle class="a" r="1" /></svg>"#
            )
        );
        assert_eq!(
            g.removed,
            vec![(removed::STYLE_URL, 1), (removed::UNSAFE_STYLE, 1)]
        );
    }

    #[test]
    fn animations_of_links_and_handlers_are_removed() {
        let (g, xml) = check(
            r#"<svg><a><set attributeName="href" to="javascript:alert(1)"/><text>x</text></a>
<animate attributeName="xlink:href" values="javascript:alert(2)"/>
<animate attributeName=" ONclick " to="alert(3)"/>
<rect width="1"><animate attributeName="width" from="1" to="9" dur="1s"/></rect></svg>"#,
        );
        assert_eq!(
            xml,
            concat!(
                r#"<svg xmlns="http://www.w3.org/2000/svg"><text>x</text><rect width="1">"#,
                r#"<animate attributeName="width" from="1" to="9" dur="1s" /></rect></svg>"#
            )
        );
        assert_eq!(
            g.removed,
            vec![(removed::LINK, 1), (removed::UNSAFE_ANIMATION, 3)]
        );
    }

    #[test]
    fn other_elements_and_attributes_are_removed() {
        let (g, xml) = check(
            r#"<svg version="1.1" data-x="1" xml:space="preserve" inkscape:label="l">
<metadata><rdf:RDF/></metadata><cursor xlink:href="https://x/c.png"/><blink>x</blink>
<title>A <b>bold</b> title</title><g><math><mi>x</mi></math><path d="M0 0"/></g></svg>"#,
        );
        assert_eq!(
            xml,
            concat!(
                r#"<svg xmlns="http://www.w3.org/2000/svg" xml:space="preserve">"#,
                r#"<title>A  title</title><g><path d="M0 0" /></g></svg>"#
            )
        );
        let doc = roxmltree::Document::parse(&xml).expect("checked");
        assert_eq!(
            doc.root_element()
                .attribute(("http://www.w3.org/XML/1998/namespace", "space")),
            Some("preserve")
        );
        assert_eq!(count_of(&g, removed::ATTRIBUTE), 3);
        assert_eq!(count_of(&g, removed::METADATA), 1);
        // `cursor`, `blink` and `math`: inside an svg, html5ever puts `math`
        // in the SVG namespace, where it is unknown.
        assert_eq!(count_of(&g, removed::UNKNOWN_ELEMENT), 3);
        // `b` in `title`, an HTML integration point: HTML there.
        assert_eq!(count_of(&g, removed::NON_SVG_ELEMENT), 1);
        assert_eq!(g.alt, "A title");
    }

    #[test]
    fn text_is_escaped_and_kept_only_where_it_is_drawn() {
        let (_, xml) = check(
            "<svg>stray <g> text </g><text x=\"a&quot;b\">1 &lt; 2 &amp;&amp; \"3\" &gt; 0\r\n  <tspan> </tspan></text></svg>",
        );
        assert_eq!(
            xml,
            concat!(
                // The `g` had text, so it is not written as empty.
                r#"<svg xmlns="http://www.w3.org/2000/svg"><g></g><text x="a&quot;b">"#,
                "1 &lt; 2 &amp;&amp; \"3\" &gt; 0\n  <tspan> </tspan></text></svg>"
            )
        );
        let doc = roxmltree::Document::parse(&xml).expect("checked");
        let text = doc
            .descendants()
            .find(|n| n.has_tag_name((SVG, "text")))
            .expect("text");
        assert_eq!(text.attribute("x"), Some("a\"b"));
        assert_eq!(text.text(), Some("1 < 2 && \"3\" > 0\n  "));
    }

    #[test]
    fn characters_xml_cannot_hold_are_replaced_quietly() {
        let html = "<svg><path d=\"M0\u{1}0\" fill=\"&#1;red\"/></svg>";
        let (_, xml) = check(html);
        assert_eq!(
            xml,
            "<svg xmlns=\"http://www.w3.org/2000/svg\"><path d=\"M0\u{fffd}0\" fill=\"\u{fffd}red\" /></svg>"
        );
        // The graphic is kept as an image; the replaced characters inside
        // it are not reported (no text of the page changed).
        let out = crate::ingest::ingest_str(html, &crate::ingest::Options::default());
        let codes: Vec<_> = out.diagnostics.iter().map(|d| d.code).collect();
        assert_eq!(codes, vec![]);
    }

    #[test]
    fn alt_from_aria_label_else_title() {
        let alt = |html: &str| check(html).0.alt;
        assert_eq!(
            alt(r#"<svg aria-label=" Site   logo "><title>T</title><path d="M0 0"/></svg>"#),
            "Site logo"
        );
        assert_eq!(
            alt(
                "<svg aria-label=\" \"><title>\n  Shopping\n  cart </title><title>No</title><path d=\"M0 0\"/></svg>"
            ),
            "Shopping cart"
        );
        assert_eq!(
            alt(r#"<svg><g><title>Not a child of svg</title></g><path d="M0 0"/></svg>"#),
            ""
        );
    }

    #[test]
    fn width_and_height_when_plain_pixels() {
        let size = |w: &str, h: &str| {
            let g = check(&format!(
                r#"<svg width="{w}" height="{h}"><path d="M0 0"/></svg>"#
            ))
            .0;
            (g.width, g.height)
        };
        assert_eq!(size("16", " 32px "), (Some(16), Some(32)));
        assert_eq!(size("0", "007PX"), (Some(0), Some(7)));
        assert_eq!(size("1.5", "100%"), (None, None));
        assert_eq!(size("-3", "2em"), (None, None));
        assert_eq!(size("", "px"), (None, None));
        assert_eq!(size("+4", "99999999999"), (None, None));
    }

    #[test]
    fn nothing_drawable_is_no_graphic() {
        for html in [
            "<svg></svg>",
            "<svg>   </svg>",
            "<svg><title>Only a title</title><desc>and words</desc></svg>",
            "<svg><script>alert(1)</script><foreignObject><p>x</p></foreignObject></svg>",
            "<svg><style>.a{}</style><a></a></svg>",
        ] {
            let (arena, svg) = parsed(html);
            assert_eq!(graphic(&arena, svg), None, "{html}");
        }
        // Not an svg element at all: the document node.
        let (arena, _) = parsed("<svg><path/></svg>");
        assert_eq!(graphic(&arena, crate::ingest::sink::DOCUMENT), None);
    }

    #[test]
    fn the_same_tree_gives_the_same_bytes() {
        let html = r##"<svg viewBox="0 0 2 2" onload="x()"><defs><linearGradient id="g"><stop offset="0" stop-color="red"/></linearGradient></defs>
<a href="/"><circle r="1" fill="url(#g)" xlink:href="#g"/></a><script>y()</script></svg>"##;
        let (arena, svg) = parsed(html);
        let once = graphic(&arena, svg);
        assert_eq!(graphic(&arena, svg), once);
        let (again, svg_again) = parsed(html);
        assert_eq!(graphic(&again, svg_again), once);
        let (g, _) = check(html);
        assert_eq!(Some(g), once);
    }

    #[test]
    fn deep_nesting_needs_no_recursion() {
        // Nested `svg` start tags are never ignored by the parser's depth
        // gate (see `parse::MAX_OPEN`), so this tree is as deep as written.
        let depth = 5000;
        let html = format!(
            "{}<rect width=\"1\"/>{}",
            "<svg>".repeat(depth),
            "</svg>".repeat(depth)
        );
        let (g, xml) = check(&html);
        assert_eq!(xml.matches("<svg").count(), depth);
        assert!(g.removed.is_empty());
    }

    #[test]
    fn data_urls_go_through_the_sanitiser_and_stay_as_they_are() {
        for html in [
            "<svg width=\"24\" height=\"24\" viewBox=\"0 0 24 24\" aria-label=\"Search\"><path d=\"M1 1h22v22z\" fill=\"red\"/><text x=\"1\">a &amp; b</text></svg>",
            "<svg><title>T</title><g transform=\"scale(2)\"><circle r=\"4\" style=\"fill:url(#g)\"/></g><defs><linearGradient id=\"g\"><stop offset=\"0\"/></linearGradient></defs></svg>",
        ] {
            let (first, _) = check(html);
            assert_eq!(judge_data_url(&first.src), DataSvg::Clean, "{html}");
        }
        // Percent-encoded, with a script: kept without it.
        let DataSvg::Sanitized(g) = judge_data_url(
            "data:image/svg+xml,%3Csvg%20xmlns='http://www.w3.org/2000/svg'%20onload='alert(1)'%3E%3Ccircle%20r='4'/%3E%3C/svg%3E",
        ) else {
            panic!("sanitised")
        };
        let xml = xml(&g);
        assert!(!xml.contains("onload") && xml.contains("circle"), "{xml}");
        assert_eq!(
            judge_data_url("data:image/png;base64,AAAA"),
            DataSvg::Unusable
        );
        assert_eq!(
            judge_data_url("data:image/svg+xml,%3Csvg%20onload='x()'/%3E"),
            DataSvg::Unusable
        );
        // A lazy image's placeholder: nothing to draw, nothing that runs.
        assert_eq!(
            judge_data_url(
                "data:image/svg+xml,%3Csvg%20xmlns='http://www.w3.org/2000/svg'%20width='3'%20height='2'%3E%3C/svg%3E"
            ),
            DataSvg::Clean
        );
    }
}
