//! Embedded media and formulas (`docs/design/content.md`, "Embedded media
//! and frames", "Graphics without a source (SVG), and MathML").
//!
//! Media:
//! `iframe`, `video`, `audio`, `object` and `embed` become a link to what
//! they embed, with their title (else the host of its source, else the
//! source) as its text, and a
//! video's poster as the link's image. XHTML 1.0 has no `video` or
//! `audio`, a player embedded in the editor's preview would load a third
//! party, and a link keeps what a reader needs: where the media is and
//! what it is.

use wikitext::grammar::words;
use wikitext::{Inline, Severity};

use super::{Builder, at};
use crate::ingest::diag::Code;
use crate::ingest::sink::{Data, Element, NONE, NodeId};
use crate::ingest::url::{clean_url, is_safe_image_source, is_unsafe_scheme};

impl Builder<'_> {
    /// The source of a media element: its own `src` (`data` for `object`),
    /// else the `src` of its first `<source>` child.
    fn media_source(&self, id: NodeId, e: &Element) -> Option<String> {
        let own = match &*e.name.local {
            "object" => e.attr("data"),
            _ => e.attr("src"),
        };
        if let Some(src) = own.filter(|s| !s.trim().is_empty()) {
            return Some(src.to_owned());
        }
        let mut child = self.arena.node(id).map_or(NONE, |n| n.first_child);
        while let Some(node) = self.arena.node(child) {
            if let Data::Element(c) = &node.data
                && &*c.name.local == "source"
                && let Some(src) = c.attr("src").filter(|s| !s.trim().is_empty())
            {
                return Some(src.to_owned());
            }
            child = node.next;
        }
        None
    }

    /// Whether an element holds an `<img>` (the first 256 nodes below it
    /// are looked at, without recursion).
    pub(super) fn holds_image(&self, id: NodeId) -> bool {
        let mut stack = vec![self.arena.node(id).map_or(NONE, |n| n.first_child)];
        let mut seen = 0usize;
        while let Some(mut child) = stack.pop() {
            while let Some(node) = self.arena.node(child) {
                seen += 1;
                if seen > 256 {
                    return false;
                }
                if let Data::Element(c) = &node.data {
                    if c.tag == crate::ingest::tags::Tag::Image {
                        return true;
                    }
                    stack.push(node.next);
                    child = node.first_child;
                    continue;
                }
                child = node.next;
            }
        }
        false
    }

    /// An embedded media element as a link to its source.
    pub(super) fn media(&mut self, id: NodeId, e: &Element, line: u32) {
        let kind = e.name.local.to_string();
        let clean = self
            .media_source(id, e)
            .and_then(|s| clean_url(&s, &self.resolver))
            .filter(|c| !c.scheme.as_deref().is_some_and(is_unsafe_scheme));
        let Some(clean) = clean else {
            self.report(
                Code::MediaDropped,
                Severity::Warning,
                line,
                format!("<{kind}> without a usable source left out"),
            );
            return;
        };
        let title = e.attr("title").map(words).filter(|t| !t.is_empty());
        let poster = e
            .attr("poster")
            .and_then(|p| clean_url(p, &self.resolver))
            .filter(|p| self.extensions && is_safe_image_source(&p.url));
        // Without a title, a short name of the URL (its host, or its file
        // name as words) names the media without putting the URL's
        // characters (`_`, `'`) among the page's visible text.
        let text = title
            .clone()
            .unwrap_or_else(|| crate::ingest::url::url_file_name(&clean.url));
        let content = match poster {
            Some(poster) => vec![Inline::Image {
                src: poster.url,
                alt: vec![Inline::text(text).at(at(line))],
                title: None,
                width: None,
                height: None,
                pos: at(line),
            }],
            None => vec![Inline::text(text).at(at(line))],
        };
        self.report(
            Code::MediaAsLink,
            Severity::Warning,
            line,
            format!(
                "<{kind}> kept as a link to {} (the player or frame itself is not kept)",
                clean.url
            ),
        );
        let in_link = self.frames.last().is_some_and(|f| f.run.in_link());
        if in_link {
            // A link holds no link: the text alone.
            if let Some(text) = title {
                self.inline_text(&text, line);
            }
            return;
        }
        self.inline_node(
            Inline::Link {
                url: Some(clean.url),
                fragment: None,
                content,
                pos: at(line),
            },
            line,
        );
    }

    /// A formula with a TeX annotation (`<annotation
    /// encoding="application/x-tex">` anywhere in it) as that TeX, in
    /// sample text: XHTML 1.0 cannot hold MathML, and TeX is how people
    /// write formulas as text. Returns whether it had one.
    pub(super) fn math_as_tex(&mut self, id: NodeId, line: u32) -> bool {
        let mut stack = vec![self.arena.node(id).map_or(NONE, |n| n.first_child)];
        let mut tex = None;
        while let Some(mut child) = stack.pop() {
            while let Some(node) = self.arena.node(child) {
                if let Data::Element(c) = &node.data {
                    let is_tex = &*c.name.local == "annotation"
                        && c.attr("encoding")
                            .is_some_and(|e| e.trim().eq_ignore_ascii_case("application/x-tex"));
                    if is_tex {
                        tex = Some(words(&self.arena.child_text(child)));
                        break;
                    }
                    stack.push(node.next);
                    child = node.first_child;
                    continue;
                }
                child = node.next;
            }
            if tex.is_some() {
                break;
            }
        }
        let Some(tex) = tex.filter(|t| !t.is_empty()) else {
            return false;
        };
        self.report(
            Code::MathAsTex,
            Severity::Info,
            line,
            format!("formula kept as its TeX {tex:?}"),
        );
        self.inline_node(
            Inline::Code {
                content: vec![Inline::text(tex).at(at(line))],
                pos: at(line),
            },
            line,
        );
        true
    }
}
