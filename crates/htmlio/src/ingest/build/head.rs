//! The head: the title, the language, and named `<meta>` and `<link>`
//! elements as the document's metadata.

use wikitext::{Meta, Severity};

use super::{Builder, at};
use crate::ingest::diag::Code;
use crate::ingest::sink::{Element, NodeId};
use crate::ingest::url::{BaseRefused, clean_url};
use wikitext::grammar::words;

impl Builder<'_> {
    /// `lang` of `<html>`: `#Lang`, its first word.
    pub(super) fn set_lang(&mut self, lang: &str, line: u32) {
        let first = lang.split_whitespace().next().unwrap_or("");
        if first.len() != lang.len() {
            self.report(
                Code::MetadataChanged,
                Severity::Warning,
                line,
                format!("language {lang:?} has white space: kept its first word"),
            );
        }
        if !first.is_empty() {
            self.meta.lang = Some(first.to_owned());
        }
    }

    /// `<title>`: `#Title`, the first one with text.
    pub(super) fn title(&mut self, id: NodeId, line: u32) {
        let title = words(&self.arena.child_text(id));
        if title.is_empty() {
            return;
        }
        if self.meta.title.is_some() {
            self.report(
                Code::ExtraTitle,
                Severity::Info,
                line,
                "another <title> ignored",
            );
        } else {
            self.meta.title = Some(title);
        }
    }

    /// `<meta>`: a named one is `#Meta:`, Content-Language is kept for `#Lang`.
    pub(super) fn meta_element(&mut self, e: &Element, line: u32) {
        let content = e.attr("content").map(words).unwrap_or_default();
        if let Some(equiv) = e.attr("http-equiv") {
            if equiv.trim().eq_ignore_ascii_case("content-language")
                && self.content_language.is_none()
            {
                let lang = content.split([' ', ',']).next().unwrap_or("");
                if !lang.is_empty() {
                    self.content_language = Some(lang.to_owned());
                }
            }
            // Pragmas (the content type above all) are the output's own.
            return;
        }
        let Some(name) = e.attr("name").map(str::trim).filter(|n| !n.is_empty()) else {
            if e.attr("charset").is_none() {
                let what = e
                    .attr("property")
                    .map(|p| format!("<meta property={:?}>", p.trim()))
                    .unwrap_or_else(|| "<meta> without a name".to_owned());
                self.report(
                    Code::MetadataDropped,
                    Severity::Info,
                    line,
                    format!("{what} left out"),
                );
            }
            return;
        };
        let clean: String = name.split_whitespace().collect::<Vec<_>>().join("-");
        if clean != name {
            self.report(
                Code::MetadataChanged,
                Severity::Warning,
                line,
                format!("meta name {name:?} has white space: written {clean:?}"),
            );
        }
        self.meta.metas.push(Meta {
            name: clean,
            content,
            pos: at(line),
        });
    }

    /// What became of the page's `<base href>` (its line): the base URL its
    /// links are resolved against, or why it was not used.
    pub(super) fn base_note(&mut self, refused: Option<BaseRefused>, line: u32) {
        let (severity, message) = match (refused, self.resolver.base()) {
            (None, Some(base)) => (
                Severity::Info,
                format!("relative URLs are resolved against the base URL {base}"),
            ),
            (Some(BaseRefused::Relative), _) => (
                Severity::Info,
                "<base href> is relative and the page's address is not known (give it with --base): relative URLs are resolved against it and stay relative"
                    .to_owned(),
            ),
            (Some(BaseRefused::Unsafe(scheme)), _) => (
                Severity::Warning,
                format!("<base href> with a {scheme}: URL ignored"),
            ),
            (Some(BaseRefused::Invalid(why)), _) => (
                Severity::Warning,
                format!("<base href> is not a valid URL ({why}) and was ignored"),
            ),
            (None, None) => return,
        };
        let code = if severity == Severity::Info {
            Code::UrlResolved
        } else {
            Code::BaseIgnored
        };
        self.report(code, severity, line, message);
    }

    /// `<link>`: `#Link:`.
    pub(super) fn link_element(&mut self, e: &Element, line: u32) {
        let Some(clean) = e.attr("href").and_then(|h| clean_url(h, &self.resolver)) else {
            self.report(
                Code::MetadataDropped,
                Severity::Info,
                line,
                "<link> without href left out",
            );
            return;
        };
        if self.unsafe_left_out(&clean, line, "<link>") {
            return;
        }
        self.url_notes(&clean, line);
        let mut rel = Vec::new();
        for value in e.attr("rel").unwrap_or("").split_ascii_whitespace() {
            if value.contains(':') {
                self.report(
                    Code::MetadataChanged,
                    Severity::Warning,
                    line,
                    format!("link relation {value:?} has a colon, which the text format cannot hold: left out"),
                );
            } else {
                rel.push(value.to_owned());
            }
        }
        let title = e.attr("title").map(words).filter(|t| !t.is_empty());
        self.meta.links.push(wikitext::Link {
            rel,
            href: clean.url,
            title,
            pos: at(line),
        });
    }
}
