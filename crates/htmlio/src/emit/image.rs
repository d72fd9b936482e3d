//! Images (`docs/format.md`, "Images"): `<img src alt title width height />`.
//! The alternative text comes as the events between the image's start and
//! end; it is collected as plain text, since `alt` is an attribute.

use std::borrow::Cow;

use wikitext::events::{Event, TagEnd};
use wikitext::{Pos, Severity};

use super::Code;
use super::walk::{Pending, Walker};
use crate::ingest::svg::DataSvg;
use crate::serialize::{Attribute, Token, TokenSink};

impl<'d, S: TokenSink<'d>> Walker<'d, S> {
    /// An image starts: its element is written when it ends.
    pub(super) fn begin_image(
        &mut self,
        src: Cow<'d, str>,
        title: Option<Cow<'d, str>>,
        size: (Option<u32>, Option<u32>),
        pos: Pos,
    ) {
        self.image = Some(Pending {
            src,
            title,
            size,
            alt: String::new(),
            depth: 0,
            pos,
        });
    }

    /// Takes the events of an image's alternative text; gives back every
    /// other event.
    pub(super) fn in_image(&mut self, event: Event<'d>) -> Option<Event<'d>> {
        let Some(image) = self.image.as_mut() else {
            return Some(event);
        };
        match event {
            Event::Text(text) | Event::Email(text) => image.alt.push_str(&text),
            Event::LineBreak | Event::HardBreak => image.alt.push(' '),
            Event::Rule => {}
            Event::Start(_) => image.depth += 1,
            Event::End(TagEnd::Image) if image.depth == 0 => {
                if let Some(done) = self.image.take() {
                    self.image_element(done);
                }
            }
            Event::End(_) => image.depth = image.depth.saturating_sub(1),
        }
        None
    }

    /// Writes the `<img>` of a finished image, or its alternative text
    /// where an `<img>` cannot stand.
    fn image_element(&mut self, image: Pending<'d>) {
        let Pending {
            src,
            title,
            size,
            alt,
            pos,
            ..
        } = image;
        let alt = self.cleaned(alt, "an image's alternative text", pos);
        let why = if self.in_pre() {
            Some("XHTML 1.0 allows no image in preformatted text")
        } else if !crate::ingest::url::is_safe_image_source(&src) {
            Some("its source could run a script")
        } else {
            None
        };
        if let Some(why) = why {
            self.report(
                Code::ImageAsText,
                Severity::Warning,
                format!("an image was written as its alternative text: {why}"),
                pos,
            );
            if !alt.is_empty() {
                self.push(Token::Text(alt));
            }
            return;
        }
        // An SVG data URL goes through the sanitiser (a graphic read from
        // HTML went through it already, and comes out the same).
        let src = if crate::ingest::svg::is_svg_data_url(&src) {
            match crate::ingest::svg::judge_data_url(&src) {
                DataSvg::Clean => src,
                DataSvg::Sanitized(g) => {
                    self.report(
                        Code::GraphicSanitized,
                        Severity::Info,
                        "an SVG image was written without what could run a script or load from elsewhere".to_owned(),
                        pos,
                    );
                    Cow::Owned(g.src)
                }
                DataSvg::Unusable => {
                    self.report(
                        Code::ImageAsText,
                        Severity::Warning,
                        "an image was written as its alternative text: its SVG cannot be made safe"
                            .to_owned(),
                        pos,
                    );
                    if !alt.is_empty() {
                        self.push(Token::Text(alt));
                    }
                    return;
                }
            }
        } else {
            src
        };
        let src = self.cleaned(src, "an image source", pos);
        let mut attrs = vec![Attribute::new("src", src), Attribute::new("alt", alt)];
        if let Some(title) = title {
            let title = self.cleaned(title, "an image title", pos);
            attrs.push(Attribute::new("title", title));
        }
        if let Some(width) = size.0 {
            attrs.push(Attribute::new("width", width.to_string()));
        }
        if let Some(height) = size.1 {
            attrs.push(Attribute::new("height", height.to_string()));
        }
        self.push(Token::start_with("img", attrs));
        self.end("img");
    }
}
