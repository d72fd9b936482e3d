//! The header's lines written into the page's head. `#Title` goes into
//! `<title>`; `#Lang` into the `lang` of `<html>` (and its `xml:lang` when
//! the page has one); `#Meta:` and `#Link:` lines into the `<meta name>`
//! and `<link>` elements they were read from. A line that did not change
//! leaves its element's bytes alone; a changed line writes its element
//! again; a new line is written after the last element of its kind (or
//! before `</head>`); a removed line's element goes, with its line.

use similar::DiffTag;
use wikitext::{Link, Meta, Metadata, Severity};

use super::page::{Page, Patch};
use super::place::diff;
use super::scan::attributes_of;
use super::tree::Element;
use super::words::char_ref;
use super::{Code, Diagnostic};
use crate::emit::Syntax;

/// The patches that write `new`'s header over `old`'s, and what could not
/// be written.
pub(crate) fn header(
    page: &Page<'_>,
    old: &Metadata,
    new: &Metadata,
) -> (Vec<Patch>, Vec<Diagnostic>) {
    let mut out = Head {
        page,
        patches: Vec::new(),
        diagnostics: Vec::new(),
    };
    if old.title != new.title {
        out.title(new.title.as_deref().unwrap_or_default());
    }
    if old.lang != new.lang {
        out.lang(new.lang.as_deref());
    }
    if old.metas != new.metas {
        let found = out.found("meta", &old.metas, |attrs, m| {
            value(attrs, "name").is_some_and(|n| n.eq_ignore_ascii_case(&m.name))
                && value(attrs, "content").is_some_and(|c| same_words(&c, &m.content))
        });
        let markup: Vec<String> = new.metas.iter().map(|m| out.meta(m)).collect();
        out.lines(&old.metas, &new.metas, &found, &markup, "#Meta:");
    }
    if old.links != new.links {
        let found = out.found("link", &old.links, |attrs, l| {
            let rel = value(attrs, "rel").unwrap_or_default().to_ascii_lowercase();
            let rels: Vec<&str> = rel.split_ascii_whitespace().collect();
            rels.len() == l.rel.len()
                && l.rel
                    .iter()
                    .all(|r| rels.contains(&r.to_ascii_lowercase().as_str()))
                && value(attrs, "href")
                    .is_some_and(|h| h.trim() == l.href || l.href.ends_with(h.trim()))
        });
        let markup: Vec<String> = new.links.iter().map(|l| out.link(l)).collect();
        out.lines(&old.links, &new.links, &found, &markup, "#Link:");
    }
    (out.patches, out.diagnostics)
}

struct Head<'p, 'a> {
    page: &'p Page<'a>,
    patches: Vec<Patch>,
    diagnostics: Vec<Diagnostic>,
}

/// An attribute's value, character references read; `None` when the tag
/// lacks it.
fn value(attrs: &[(String, String)], name: &str) -> Option<String> {
    attrs
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.clone())
}

/// Whether two values say the same, white space aside (ingestion collapses
/// it).
fn same_words(a: &str, b: &str) -> bool {
    a.split_whitespace().eq(b.split_whitespace())
}

/// An attribute value as written (quotes, references) as what it says.
fn unquote(raw: &str) -> String {
    let inner = raw
        .strip_prefix('"')
        .and_then(|r| r.strip_suffix('"'))
        .or_else(|| raw.strip_prefix('\'').and_then(|r| r.strip_suffix('\'')))
        .unwrap_or(raw);
    let mut out = String::with_capacity(inner.len());
    let mut i = 0;
    while let Some(rest) = inner.get(i..) {
        let Some(c) = rest.chars().next() else { break };
        match char_ref(rest).filter(|_| c == '&') {
            Some((v, len)) => {
                out.push_str(&v);
                i += len;
            }
            None => {
                out.push(c);
                i += c.len_utf8();
            }
        }
    }
    out
}

impl Head<'_, '_> {
    /// The elements named `name` in the head, each with its attributes.
    fn elements(&self, name: &str) -> Vec<(&Element, Vec<(String, String)>)> {
        let text = self.page.text;
        self.page
            .tree
            .elements
            .iter()
            .filter(|e| e.name == name)
            .map(|e| {
                let tag = text.get(e.start..e.open_end).unwrap_or_default();
                let attrs = attributes_of(tag)
                    .into_iter()
                    .map(|a| {
                        let n = tag.get(a.name).unwrap_or_default().to_owned();
                        let v = a
                            .value
                            .and_then(|v| tag.get(v))
                            .map(unquote)
                            .unwrap_or_default();
                        (n, v)
                    })
                    .collect();
                (e, attrs)
            })
            .collect()
    }

    /// For each of `lines`, the range of the element it was read from: the
    /// first of the elements named `name`, in order, that `matches` it.
    fn found<T>(
        &self,
        name: &str,
        lines: &[T],
        matches: impl Fn(&[(String, String)], &T) -> bool,
    ) -> Vec<Option<(usize, usize)>> {
        let elements = self.elements(name);
        let mut from = 0;
        lines
            .iter()
            .map(|line| {
                let i = elements
                    .iter()
                    .skip(from)
                    .position(|(_, a)| matches(a, line))?
                    + from;
                from = i + 1;
                elements.get(i).map(|(e, _)| (e.start, e.end))
            })
            .collect()
    }

    /// Header lines of one kind written over the old ones: `found` says
    /// where each old line's element is, `markup` is each new line's.
    fn lines<T: Eq + std::hash::Hash>(
        &mut self,
        old: &[T],
        new: &[T],
        found: &[Option<(usize, usize)>],
        markup: &[String],
        what: &str,
    ) {
        let mut missed = false;
        let head_end = self
            .page
            .tree
            .elements
            .iter()
            .find(|e| e.name == "head")
            .map(|h| h.close_start);
        let nl = if self.page.text.contains("\r\n") {
            "\r\n"
        } else {
            "\n"
        };
        for op in diff(old, new) {
            if op.tag() == DiffTag::Equal {
                continue;
            }
            let (gone, come) = (op.old_range(), op.new_range());
            let written: Vec<&String> = come.filter_map(|j| markup.get(j)).collect();
            let places: Vec<(usize, usize)> = gone
                .clone()
                .filter_map(|i| found.get(i).copied().flatten())
                .collect();
            missed |= places.len() < gone.len();
            if let Some((&(s, e), before)) = places.split_last() {
                for &(bs, be) in before {
                    let r = self.page.whole_lines(bs..be);
                    self.patches.push(Patch {
                        start: r.start,
                        end: r.end,
                        with: String::new(),
                    });
                }
                let patch = if written.is_empty() {
                    let r = self.page.whole_lines(s..e);
                    Patch {
                        start: r.start,
                        end: r.end,
                        with: String::new(),
                    }
                } else {
                    let indent = self.page.indent(s);
                    let sep = format!("{nl}{indent}");
                    let with = written
                        .iter()
                        .map(|m| m.as_str())
                        .collect::<Vec<_>>()
                        .join(&sep);
                    Patch {
                        start: s,
                        end: e,
                        with,
                    }
                };
                self.patches.push(patch);
                continue;
            }
            if written.is_empty() {
                continue;
            }
            // After the element of the line before, or before `</head>`.
            let after = gone
                .start
                .checked_sub(1)
                .and_then(|i| found.get(i).copied().flatten());
            let (at, indent) = match (after, head_end) {
                (Some((s, e)), _) => (e, self.page.indent(s)),
                (None, Some(h)) => (h, ""),
                (None, None) => {
                    missed = true;
                    continue;
                }
            };
            let with: String = written.iter().map(|m| format!("{nl}{indent}{m}")).collect();
            let with = if after.is_none() {
                format!("{}{nl}", with.trim_start_matches(['\r', '\n']))
            } else {
                with
            };
            self.patches.push(Patch {
                start: at,
                end: at,
                with,
            });
        }
        if missed {
            self.diagnostics.push(Diagnostic::at_line(
                Code::HeaderNotWritten,
                Severity::Warning,
                0,
                format!("a changed {what} line has no element of its own in the page's head: it is not written there"),
            ));
        }
    }

    fn title(&mut self, title: &str) {
        let tree = self.page.tree;
        let escaped = self.page.escaped(title);
        if let Some(t) = tree.elements.iter().find(|e| e.name == "title") {
            self.patches.push(Patch {
                start: t.open_end,
                end: t.close_start,
                with: escaped,
            });
        } else if let Some(head) = tree.elements.iter().find(|e| e.name == "head") {
            let at = head.open_end;
            self.patches.push(Patch {
                start: at,
                end: at,
                with: format!("<title>{escaped}</title>"),
            });
        } else {
            self.diagnostics.push(Diagnostic::at_line(
                Code::HeaderNotWritten,
                Severity::Warning,
                0,
                "the page has no head to write the new title in: it keeps none",
            ));
        }
    }

    /// `lang` (and `xml:lang` where the page has it) on `<html>`.
    fn lang(&mut self, lang: Option<&str>) {
        let text = self.page.text;
        let Some(html) = self
            .page
            .tree
            .elements
            .iter()
            .find(|e| e.name == "html" && e.open_end > e.start)
        else {
            self.diagnostics.push(Diagnostic::at_line(
                Code::HeaderNotWritten,
                Severity::Warning,
                0,
                "the page has no <html> start tag to write the new #Lang on: it keeps none",
            ));
            return;
        };
        let tag = text.get(html.start..html.open_end).unwrap_or_default();
        let attrs = attributes_of(tag);
        let mut written = false;
        for a in &attrs {
            let name = tag
                .get(a.name.clone())
                .unwrap_or_default()
                .to_ascii_lowercase();
            if name != "lang" && name != "xml:lang" {
                continue;
            }
            written = true;
            let patch = match lang {
                Some(l) => Patch {
                    start: html.start + a.name.start,
                    end: html.start + a.end,
                    with: format!("{name}=\"{}\"", attribute(l)),
                },
                None => Patch {
                    start: html.start + a.lead,
                    end: html.start + a.end,
                    with: String::new(),
                },
            };
            self.patches.push(patch);
        }
        if let (false, Some(l)) = (written, lang) {
            let at = html.start + 5;
            let xml = if self.page.syntax == Syntax::Xhtml {
                format!(" xml:lang=\"{}\"", attribute(l))
            } else {
                String::new()
            };
            self.patches.push(Patch {
                start: at,
                end: at,
                with: format!(" lang=\"{}\"{xml}", attribute(l)),
            });
        }
    }

    fn close(&self) -> &'static str {
        if self.page.syntax == Syntax::Xhtml {
            " />"
        } else {
            ">"
        }
    }

    fn meta(&self, m: &Meta) -> String {
        format!(
            "<meta name=\"{}\" content=\"{}\"{}",
            attribute(&m.name),
            attribute(&m.content),
            self.close()
        )
    }

    fn link(&self, l: &Link) -> String {
        let title = l
            .title
            .as_ref()
            .map(|t| format!(" title=\"{}\"", attribute(t)))
            .unwrap_or_default();
        format!(
            "<link rel=\"{}\" href=\"{}\"{title}{}",
            attribute(&l.rel.join(" ")),
            attribute(&l.href),
            self.close()
        )
    }
}

/// `s` escaped for a double-quoted attribute value.
fn attribute(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    crate::serialize::escape::xml_attribute(&mut out, s);
    out
}
