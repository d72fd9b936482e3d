//! Images (`docs/format.md`, "Images"): `<img>` and inline `<svg>` become
//! image nodes. An `<img>` keeps the source a browser without `srcset` or
//! `<picture>` would load, its alternative text, title and pixel size.
//! Where the text holds no image (preformatted text) or the source is
//! unsafe or missing, the image is its `alt` text, as in pure seed text.

use microsyntax::{DimensionType, parse_dimension, srcset_urls};
use wikitext::grammar::words;
use wikitext::{Inline, Severity};

use super::frames::FrameKind;
use super::{Builder, at};
use crate::ingest::diag::Code;
use crate::ingest::sink::{Data, Element, NodeId};
use crate::ingest::svg::{
    DataSvg, Graphic, Labels, graphic, is_svg_data_url, judge_data_url, lone_external_image,
    removed, svg_labels,
};
use crate::ingest::url::{clean_url, is_safe_image_source};

/// A `width` or `height` in whole pixels: a dimension value that is a
/// length (not a percentage) and fits.
fn pixels(value: Option<&str>) -> Option<u32> {
    let d = parse_dimension(value?).ok()?;
    if d.kind != DimensionType::Length || !(0.0..=f64::from(u32::MAX)).contains(&d.value) {
        return None;
    }
    // Whole pixels, as XHTML 1.0's `%Length;` (a fraction is rounded down,
    // as the dimension rules read `12.5` as a length of 12.5).
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    Some(d.value.floor() as u32)
}

/// The source a lazily loading page's script gives an `<img>` without a
/// `src` (`tags::LAZY_SOURCES`), if it names one.
fn lazy_source(e: &Element) -> Option<&str> {
    let [src, original, lazy, set] = crate::ingest::tags::LAZY_SOURCES;
    [src, original, lazy]
        .into_iter()
        .find_map(|a| e.attr(a).filter(|v| !v.trim().is_empty()))
        .or_else(|| e.attr(set).and_then(|v| srcset_urls(v).next()))
}

impl Builder<'_> {
    /// `<img>`: an image, or its `alt` text where no image can stand.
    pub(super) fn image(&mut self, e: &Element, line: u32) {
        // A tracking pixel for readers without scripts (a 1x1 image in a
        // `<noscript>`) shows nothing.
        let tiny = |a: &str| {
            e.attr(a)
                .is_some_and(|v| matches!(v.trim(), "0" | "1" | "1px"))
        };
        if self.noscript > 0 && tiny("width") && tiny("height") {
            self.report(
                Code::ImageDropped,
                Severity::Info,
                line,
                "tracking pixel (a 1x1 image in <noscript>) left out",
            );
            return;
        }
        let srcset = e.attr("srcset").map(|s| srcset_urls(s).collect::<Vec<_>>());
        let own = e.attr("src").filter(|s| !s.trim().is_empty());
        let mut src = own.or_else(|| srcset.as_ref().and_then(|c| c.first().copied()));
        // A placeholder's lazy source counts outside `<noscript>` only: there
        // the copy is the picture itself.
        let lazy = lazy_source(e)
            .filter(|l| src.is_none_or(|s| self.noscript == 0 && s.trim() != l.trim()));
        if let Some(lazy) = lazy {
            // The page's script loads it; its `<noscript>` copy (left out
            // below) is the same picture.
            let message = if let Some(placeholder) = src {
                // A placeholder (a transparent pixel, a grey box) stands in
                // for it until then: the page's own image is kept, without
                // the text and size that belong to the picture, and the
                // picture follows it.
                self.source_image(e, Some(placeholder), None, false, line);
                "lazily loaded image: its placeholder is kept as an image without text, and the source its script loads follows it"
            } else {
                "lazily loaded image: the source its script loads is kept"
            };
            self.report(Code::LazyImage, Severity::Info, line, message);
            src = Some(lazy);
        } else if self.noscript > 0 && src.is_some_and(|s| self.copies_lazy_image(s)) {
            self.report(
                Code::NoscriptCopyDropped,
                Severity::Info,
                line,
                "the <noscript> copy of a lazily loaded image left out",
            );
            return;
        }
        let dropped = srcset.map_or(0, |c| c.len() - usize::from(own.is_none() && !c.is_empty()));
        self.source_image(e, src, Some(dropped), true, line);
    }

    /// Whether an image with the source `src` is the copy of one of the
    /// page's lazily loaded images (before or after it: pages put the
    /// `<noscript>` copy on either side, or far from it). The sources are
    /// gathered from the whole tree once, the first time a `<noscript>`
    /// image asks, so a page without one pays nothing.
    fn copies_lazy_image(&mut self, src: &str) -> bool {
        let arena = self.arena;
        let sources = self.lazy_sources.get_or_insert_with(|| {
            arena
                .nodes
                .iter()
                .filter_map(|node| match &node.data {
                    Data::Element(e) if &*e.name.local == "img" => {
                        let own = e.attr("src").map(str::trim).filter(|s| !s.is_empty());
                        lazy_source(e)
                            .map(str::trim)
                            .filter(|l| own.is_none_or(|s| s != *l))
                            .map(str::to_owned)
                    }
                    _ => None,
                })
                .collect()
        });
        sources.contains(src.trim())
    }

    /// The image of `e` with the source `src`, once the source is chosen:
    /// the URL cleaned and judged, the `srcset` candidates not kept
    /// (`dropped`) reported. Without `labelled` (a lazily loaded image's
    /// placeholder) it has no text, title or size, and where it cannot be
    /// an image nothing is written (the picture after it carries the text).
    fn source_image(
        &mut self,
        e: &Element,
        src: Option<&str>,
        dropped: Option<usize>,
        labelled: bool,
        line: u32,
    ) {
        let in_pre = matches!(self.top_kind(), Some(FrameKind::Pre { .. }));
        let clean = src.and_then(|s| clean_url(s, &self.resolver));
        let Some(clean) = clean.filter(|_| !in_pre && self.extensions) else {
            if labelled {
                self.image_as_text(e, line);
            }
            return;
        };
        if !is_safe_image_source(&clean.url) {
            if labelled {
                let scheme = clean.scheme.as_deref().unwrap_or("unknown");
                self.report(
                    Code::UnsafeImage,
                    Severity::Warning,
                    line,
                    format!("image with a {scheme}: source shown as its alt text"),
                );
                self.image_as_text(e, line);
            }
            return;
        }
        // An SVG given as a data URL goes through the sanitiser, as an
        // inline one does.
        let mut src = clean.url;
        if is_svg_data_url(&src) {
            match judge_data_url(&src) {
                DataSvg::Clean => {}
                DataSvg::Sanitized(g) => {
                    self.note_removed(&g, line);
                    src = g.src;
                }
                DataSvg::Unusable if labelled => {
                    self.report(
                        Code::UnsafeImage,
                        Severity::Warning,
                        line,
                        "image with an SVG data URL that cannot be made safe shown as its alt text",
                    );
                    self.image_as_text(e, line);
                    return;
                }
                DataSvg::Unusable => return,
            }
        }
        // The candidates other than the one kept.
        if let Some(dropped) = dropped.filter(|&d| d > 0) {
            self.report(
                Code::ImageCandidatesDropped,
                Severity::Info,
                line,
                format!(
                    "image kept {} and dropped {dropped} other candidate(s) of its srcset",
                    if is_svg_data_url(&src) {
                        "its SVG"
                    } else {
                        src.as_str()
                    }
                ),
            );
        }
        if !labelled {
            let bare = Labels {
                alt: String::new(),
                width: None,
                height: None,
            };
            self.place_image(src, bare, None, line);
            return;
        }
        let labels = Labels {
            alt: e.attr("alt").map(words).unwrap_or_default(),
            width: pixels(e.attr("width")),
            height: pixels(e.attr("height")),
        };
        let title = e.attr("title").map(words).filter(|t| !t.is_empty());
        self.place_image(src, labels, title, line);
    }

    /// An image node where the walk is: its source, its alternative text
    /// (as one text run, none when empty), title and size.
    fn place_image(&mut self, src: String, labels: Labels, title: Option<String>, line: u32) {
        let Labels { alt, width, height } = labels;
        let image = Inline::Image {
            src,
            alt: if alt.is_empty() {
                Vec::new()
            } else {
                vec![Inline::text(alt).at(at(line))]
            },
            title,
            width,
            height,
            pos: at(line),
        };
        self.inline_node(image, line);
    }

    /// An image as its `alt` text (an empty `alt` says the image is
    /// decoration); without `alt`, it is left out.
    fn image_as_text(&mut self, e: &Element, line: u32) {
        match e.attr("alt") {
            Some(alt) if !alt.trim().is_empty() => {
                self.report(
                    Code::ImageAsText,
                    Severity::Info,
                    line,
                    format!("image shown as its alt text {:?}", words(alt)),
                );
                self.inline_text(alt, line);
            }
            Some(_) => {}
            None => self.report(
                Code::ImageDropped,
                Severity::Warning,
                line,
                match e.attr("src") {
                    Some(src) => format!("image without alt text left out ({})", src.trim()),
                    None => "image without alt text left out".to_owned(),
                },
            ),
        }
    }

    /// An inline `<svg>`: an image whose source is the sanitised graphic
    /// as a `data:image/svg+xml` URL (XHTML 1.0 cannot hold SVG markup, and
    /// a browser runs no script in an image), with what the sanitiser
    /// removed noted. Left out where no image can stand.
    pub(super) fn svg(&mut self, id: NodeId, line: u32) {
        let in_pre = matches!(self.top_kind(), Some(FrameKind::Pre { .. }));
        let usable = !in_pre && self.extensions;
        let Some(g) = graphic(self.arena, id).filter(|_| usable) else {
            if usable && self.svg_picture(id, line) {
                return;
            }
            self.report(
                Code::SvgDropped,
                Severity::Warning,
                line,
                if !self.extensions {
                    "SVG graphic left out"
                } else if in_pre {
                    "SVG graphic left out: preformatted text holds no image"
                } else {
                    "SVG graphic left out: nothing in it draws"
                },
            );
            return;
        };
        self.note_removed(&g, line);
        let labels = Labels {
            alt: g.alt,
            width: g.width,
            height: g.height,
        };
        self.place_image(g.src, labels, None, line);
    }

    /// An inline `<svg>` that only shows a picture from elsewhere (see
    /// [`lone_external_image`]) as an image of that picture, with the
    /// svg's text alternative and size; whether it was one.
    fn svg_picture(&mut self, id: NodeId, line: u32) -> bool {
        let Some(href) = lone_external_image(self.arena, id) else {
            return false;
        };
        let Some(clean) = clean_url(href, &self.resolver)
            .filter(|c| is_safe_image_source(&c.url) && !is_svg_data_url(&c.url))
        else {
            return false;
        };
        let Some(labels) = svg_labels(self.arena, id) else {
            return false;
        };
        self.report(
            Code::SvgAsPicture,
            Severity::Info,
            line,
            format!("SVG graphic kept as the picture it shows, {}", clean.url),
        );
        self.place_image(clean.url, labels, None, line);
        true
    }

    /// Notes what the sanitiser removed from a graphic. Attributes outside
    /// the allow-list (`role`, `focusable`...) are common and harmless:
    /// only what mattered is noted.
    fn note_removed(&mut self, g: &Graphic, line: u32) {
        let notable: Vec<String> = g
            .removed
            .iter()
            .filter(|(kind, _)| *kind != removed::ATTRIBUTE)
            .map(|(kind, n)| format!("{kind} {n}"))
            .collect();
        if !notable.is_empty() {
            self.report(
                Code::SvgSanitized,
                Severity::Info,
                line,
                format!(
                    "SVG graphic kept as an image without: {}",
                    notable.join(", ")
                ),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    fn text(html: &str) -> String {
        crate::to_text(html.as_bytes(), &Default::default()).text
    }

    #[test]
    fn a_lazily_loaded_image_gets_the_source_its_script_loads() {
        // Its `<noscript>` copy is the same picture.
        assert_eq!(
            text(concat!(
                "<p><img data-src=a.jpg alt=A><noscript><img src=a.jpg alt=A></noscript>",
                " <img data-srcset=\"b1.jpg 1x, b2.jpg 2x\" alt=B>"
            )),
            "#Extend image\n\n![a.jpg||A]\n\n![b1.jpg||B]\n"
        );
    }

    #[test]
    fn a_lazily_loaded_images_placeholder_stays_without_its_text_and_the_picture_follows() {
        // The placeholder is the page's own image; the text, title and
        // size are the picture's. Its `<noscript>` copy is left out.
        assert_eq!(
            text(concat!(
                "<p><img src=grey.gif data-src=c.jpg alt=C title=T width=20 height=10>",
                "<noscript><img src=c.jpg alt=C></noscript>",
                " <img src=d.jpg data-src=d.jpg alt=D></p>"
            )),
            "#Extend image\n\n![grey.gif||]![c.jpg||C]{20x10 \"T\"}\n\n![d.jpg||D]\n"
        );
        // A copy before the image, far from it, is left out too.
        assert_eq!(
            text(
                "<div><noscript><img src=f.jpg alt=F></noscript></div><p>Text.</p><p><img src=px.gif data-original=f.jpg alt=F>"
            ),
            "#Extend image\n\nText.\n\n![px.gif||]![f.jpg||F]\n"
        );
        // Inside `<noscript>` an image is the picture itself.
        assert_eq!(
            text("<p><noscript><img src=e.jpg data-src=e2.jpg alt=E></noscript>"),
            "#Extend image\n\n![e.jpg||E]\n"
        );
    }
}
