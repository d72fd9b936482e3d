//! Links and anchors: `a` elements, ids as anchor names, where waiting
//! anchors are placed, and frames shown as links.

use std::mem;

use wikitext::{Block, Inline, Severity};

use super::anchors::{From, holds_link, place_on_free_word};
use super::{Builder, Exit, at};
use crate::ingest::diag::Code;
use crate::ingest::run::Kind;
use crate::ingest::sink::Element;
use crate::ingest::url::{Change, CleanUrl, clean_anchor, clean_url, is_unsafe_scheme};

/// The name a link without content would show, from its attributes.
#[derive(Debug)]
pub(super) enum Name {
    /// Its `aria-label`, as words.
    Label(String),
    /// Its `title`, as words.
    Title(String),
}
use wikitext::grammar::words;

impl Builder<'_> {
    /// Puts waiting anchors on the first words of `piece`; returns the rest.
    pub(super) fn place_anchors<'t>(&mut self, piece: &'t str, line: u32) -> &'t str {
        let mut rest = piece;
        while !rest.is_empty() && !self.pending_anchors.is_empty() {
            let Some(top) = self.frames.last_mut() else {
                break;
            };
            if let Some(fragment) = top.run.fresh_link() {
                if fragment.is_none() {
                    *fragment = Some(self.pending_anchors.pop_front().unwrap_or_default().0);
                    continue;
                }
                break;
            }
            if top.run.in_link() {
                break;
            }
            let cut = rest.find(' ').unwrap_or(rest.len());
            let (word, tail) = rest.split_at(cut);
            if word.chars().all(char::is_whitespace) {
                // No anchor on white space (a no-break space, say): the
                // writer would move it out of the anchor, which would then
                // show its name.
                if !word.is_empty() {
                    top.run.text(word, at(line));
                }
                rest = match tail.strip_prefix(' ') {
                    Some(t) => {
                        top.run.text(" ", at(line));
                        t
                    }
                    None => tail,
                };
                continue;
            }
            let (anchor, _) = self.pending_anchors.pop_front().unwrap_or_default();
            top.run.inline(
                Inline::Link {
                    url: None,
                    fragment: Some(anchor),
                    content: vec![Inline::text(word)],
                    pos: at(line),
                },
                word.chars().next_back(),
            );
            rest = match tail.strip_prefix(' ') {
                Some(t) => {
                    top.run.text(" ", at(line));
                    t
                }
                None => tail,
            };
        }
        rest
    }

    /// The start of an `a`: a link, an anchor, or both, as a formatting entry.
    pub(super) fn start_anchor(&mut self, e: &Element, line: u32, exit: &mut Exit) {
        let mut url = None;
        if let Some(href) = e.attr("href") {
            match clean_url(href, &self.resolver) {
                None => self.report(
                    Code::EmptyUrl,
                    Severity::Warning,
                    line,
                    "link with an empty URL kept as its text",
                ),
                Some(clean) => {
                    if let Some(scheme) = clean.scheme.as_deref().filter(|s| is_unsafe_scheme(s)) {
                        if self.keep_unsafe_links {
                            url = Some(clean.url);
                        } else {
                            self.report(
                                Code::UnsafeLink,
                                Severity::Warning,
                                line,
                                format!(
                                    "{scheme}: link neutralised: its text is kept, the link is not"
                                ),
                            );
                        }
                    } else {
                        self.url_notes(&clean, line);
                        url = Some(clean.url);
                    }
                }
            }
        }
        // The anchor name: `name`, else `id`; a different `id` as well waits
        // for the next word.
        let name = e.attr("name").and_then(|raw| self.link_anchor(raw, line));
        // `name` and `id` with the same value (as pagetext writes them) are
        // one anchor.
        let id = e
            .attr("id")
            .filter(|raw| {
                clean_anchor(raw).map(|c| c.0) != e.attr("name").and_then(clean_anchor).map(|c| c.0)
            })
            .and_then(|raw| self.link_anchor(raw, line));
        let fragment = match (name, id) {
            (Some(n), Some(i)) => {
                self.pending_anchors.push_back((i, line));
                Some(n)
            }
            (n, i) => n.or(i),
        };
        if url.is_none() && fragment.is_none() {
            return;
        }
        if self.fmt.iter().any(|f| matches!(f.kind, Kind::Link { .. })) {
            if url.is_some() {
                self.report(
                    Code::NestedLink,
                    Severity::Warning,
                    line,
                    "link inside a link: only its text is kept",
                );
            }
            if let Some(fragment) = fragment {
                self.pending_anchors.push_back((fragment, line));
            }
            return;
        }
        exit.fmt = self.push_fmt(Kind::Link {
            url: url.clone(),
            fragment,
        });
        if exit.fmt {
            let words = |a| {
                e.attr(a)
                    .map(wikitext::grammar::words)
                    .filter(|t| !t.is_empty())
            };
            let title = (words("aria-label").map(Name::Label)).or(words("title").map(Name::Title));
            exit.anchor_link = Some((url, title));
        }
    }

    /// The end of an `a`: a link that got no text shows its `aria-label`
    /// (what a screen reader says), else the host of its URL or a mailto's
    /// address, else its `title`, else the words of its relative URL's last
    /// path part or of its fragment (`url::url_name`), else the URL (as the
    /// format does for an empty link text). The page showed no text there (an icon from a style sheet,
    /// say): the label is meant as that icon's words, and the host names
    /// the target in a few neutral characters where a title would repeat a
    /// headline and a URL bring its `_` and `'` into the visible text.
    pub(super) fn end_anchor(&mut self, url: Option<String>, name: Option<Name>, line: u32) {
        let Some(entry) = self.fmt.last() else { return };
        if entry.used {
            return;
        }
        // An icon that goes nowhere (`#`, `#!`, `#0`: a script's button; a
        // mail form without an address, a share button) shows nothing: the
        // link is left out, not given text the page does not show. An icon
        // link to a place in the page is kept (its fragment's words as its text).
        let nowhere = url.as_deref().is_some_and(|u| {
            let lower = u.to_ascii_lowercase();
            u.strip_prefix('#').is_some_and(names_nothing)
                || lower
                    .strip_prefix("mailto:")
                    .is_some_and(|rest| rest.split('?').next().is_none_or(|a| a.trim().is_empty()))
        });
        let labelled = matches!(name, Some(Name::Label(_) | Name::Title(_)));
        if nowhere && !labelled {
            self.report(
                Code::EmptyLinkText,
                Severity::Info,
                line,
                "link without text that goes nowhere (`#`, `#!`, an empty mail form) left out",
            );
        }
        if let Some(url) = url.filter(|_| !nowhere || labelled) {
            let host = crate::ingest::url::url_host(&url);
            let (message, text) = match (name, host) {
                (Some(Name::Label(label)), _) => (
                    "link without text: its aria-label is shown as its text",
                    label,
                ),
                (_, Some(host)) => (
                    "link without text: the host (or address) of its URL is shown as its text",
                    host,
                ),
                (Some(Name::Title(title)), None) => {
                    ("link without text: its title is shown as its text", title)
                }
                (None, None) => (
                    "link without text: the words of its URL's path or fragment are shown as its text",
                    crate::ingest::url::url_name(&url),
                ),
            };
            self.report(Code::EmptyLinkText, Severity::Info, line, message);
            self.inline_text(&text, line);
        } else if let Some(Kind::Link {
            fragment: Some(fragment),
            ..
        }) = self.fmt.last().map(|f| &f.kind)
        {
            let fragment = fragment.clone();
            self.pending_anchors.push_back((fragment, line));
        }
    }

    /// The anchor name of an `a` element's `name` or `id`, or `None` when an
    /// earlier anchor has it (a browser goes to the first; a repeated
    /// anchor would make the XHTML invalid). Parsers repeat anchors too:
    /// `<a id="x"/>` leaves the `a` open, and each block that follows gets a
    /// copy of it.
    fn link_anchor(&mut self, raw: &str, line: u32) -> Option<String> {
        self.anchor(raw, line, "anchor", "an earlier one")
    }

    /// The anchor name of another element's `id`, or `None` when an earlier
    /// anchor has it.
    pub(super) fn id_anchor(&mut self, raw: &str, line: u32) -> Option<String> {
        self.anchor(raw, line, "id", "an anchor of the page")
    }

    /// An anchor name as the format holds it, once per page: a repeat is
    /// left out (`what` and `earlier` name it in the message), an encoded
    /// name is reported.
    fn anchor(&mut self, raw: &str, line: u32, what: &str, earlier: &str) -> Option<String> {
        let (name, changed) = clean_anchor(raw)?;
        if !self.anchors_seen.insert(name.clone()) {
            self.report(
                Code::AnchorDropped,
                Severity::Info,
                line,
                format!("{what} {name:?} repeats {earlier} and was left out"),
            );
            return None;
        }
        if changed {
            self.report(
                Code::UrlEncoded,
                Severity::Info,
                line,
                format!(
                    "anchor name {:?} written as {name:?}, a name the text format and XHTML can hold (the links to it follow)",
                    raw.trim()
                ),
            );
        }
        Some(name)
    }

    /// Anchors whose link closed without text wait for the next word
    /// (or, at the end, stay on the text before them).
    pub(super) fn adopt_orphans(&mut self, orphans: Vec<String>) {
        let line = self.frames.last().map_or(0, |f| f.pos.line);
        self.pending_anchors
            .extend(orphans.into_iter().map(|name| (name, line)));
    }

    /// A heading's or term's own `id`: around the whole text when it holds
    /// no link, otherwise on its first free word (a word that no anchor is
    /// on yet, or a link without an anchor): `<h2 id="group"><span
    /// id="Group">Group</span> Directive</h2>` puts "group" on "Directive".
    pub(super) fn attach_own_anchor(
        &mut self,
        content: &mut Vec<Inline>,
        anchor: String,
        line: u32,
    ) {
        if content.is_empty() {
            self.pending_anchors.push_back((anchor, line));
            return;
        }
        if !holds_link(content) {
            let pos = content.first().map_or(at(line), Inline::pos);
            let inner = mem::take(content);
            content.push(Inline::Link {
                url: None,
                fragment: Some(anchor),
                content: inner,
                pos,
            });
            return;
        }
        if let Err(anchor) = place_on_free_word(content, anchor, From::Start) {
            // Every word carries an anchor or is inside one: the text
            // after the element gets it.
            self.pending_anchors.push_back((anchor, line));
        }
    }

    /// Notes what cleaning did to a URL that is kept: resolving it, and
    /// percent-encoding what the format forbids.
    pub(super) fn url_notes(&mut self, clean: &CleanUrl, line: u32) {
        let written = &clean.written;
        let url = &clean.url;
        let note = match &clean.change {
            Change::None => None,
            Change::Resolved => Some((
                Code::UrlResolved,
                Severity::Info,
                format!("relative URL \"{written}\" resolved against the base URL: {url}"),
            )),
            Change::Rewritten => Some((
                Code::UrlResolved,
                Severity::Info,
                format!("URL \"{written}\" written as a browser reads it from this page: {url}"),
            )),
            Change::InPage => Some((
                Code::UrlResolved,
                Severity::Info,
                format!(
                    "URL \"{written}\" is this page's own address: written as the in-page link {url}"
                ),
            )),
            Change::Invalid(why) => Some((
                Code::UrlInvalid,
                Severity::Warning,
                format!("URL \"{written}\" is not valid ({why}): kept as written"),
            )),
        };
        if let Some((code, severity, message)) = note {
            self.report(code, severity, line, message);
        }
        if clean.renamed {
            self.report(
                Code::UrlEncoded,
                Severity::Info,
                line,
                format!("link \"{written}\" names its anchor as the anchor is written: {url}"),
            );
        }
        if clean.encoded {
            self.report(
                Code::UrlEncoded,
                Severity::Info,
                line,
                format!("characters the text format forbids in a URL were percent-encoded: {url}"),
            );
        }
    }

    /// Whether an element with this URL is left out: its scheme is unsafe
    /// and unsafe links are not kept (a warning says so).
    pub(super) fn unsafe_left_out(&mut self, clean: &CleanUrl, line: u32, what: &str) -> bool {
        let left_out =
            clean.scheme.as_deref().is_some_and(is_unsafe_scheme) && !self.keep_unsafe_links;
        if left_out {
            self.report(
                Code::UnsafeLink,
                Severity::Warning,
                line,
                format!("{what} with an unsafe URL left out"),
            );
        }
        left_out
    }

    /// `<frame src name>`: a link to the frame's document.
    pub(super) fn frame_link(&mut self, e: &Element, line: u32) {
        let Some(clean) = e.attr("src").and_then(|s| clean_url(s, &self.resolver)) else {
            return;
        };
        if self.unsafe_left_out(&clean, line, "frame") {
            return;
        }
        self.url_notes(&clean, line);
        let text = e
            .attr("title")
            .or_else(|| e.attr("name"))
            .map(words)
            .filter(|t| !t.is_empty())
            .unwrap_or_else(|| clean.url.clone());
        self.report(
            Code::FrameAsLink,
            Severity::Info,
            line,
            format!("frame shown as a link to {}", clean.url),
        );
        let mut content = Vec::new();
        wikitext::push_text(&mut content, &text, at(line));
        self.deliver(vec![Block::Text {
            content: vec![Inline::Link {
                url: Some(clean.url),
                fragment: None,
                content,
                pos: at(line),
            }],
            pos: at(line),
        }]);
    }
}

/// Whether a fragment, as the text writes it (a character a name cannot
/// hold is `__` and its code in hex: `#!` is `#__21`), names no place: it
/// has no letter and no digit but `0` once those codes are set aside
/// (`#`, `#!`, `#0`, `#-`, what a script's button links to).
fn names_nothing(fragment: &str) -> bool {
    let mut rest = fragment;
    let mut kept = String::new();
    while let Some(at) = rest.find("__") {
        kept.push_str(rest.get(..at).unwrap_or_default());
        let code = rest.get(at + 2..at + 4).unwrap_or_default();
        if code.len() == 2 && code.bytes().all(|b| b.is_ascii_hexdigit()) {
            rest = rest.get(at + 4..).unwrap_or_default();
        } else {
            kept.push_str("__");
            rest = rest.get(at + 2..).unwrap_or_default();
        }
    }
    kept.push_str(rest);
    !kept
        .chars()
        .any(|c| c.is_alphabetic() || ('1'..='9').contains(&c))
}
