//! The header the format can hold (seed 000 "Meta Data"): words joined by
//! single spaces, a language code, names and hrefs without white space.

use crate::diag::{Code, Severity};
use crate::model::{Link, Meta, Metadata, Pos};
use crate::scan::{is_language_code, is_word};

use super::Fixer;

pub(super) fn canon_meta(meta: &Metadata, fixer: &mut Fixer) -> Metadata {
    let mut out = Metadata::default();
    if let Some(title) = &meta.title {
        let t = crate::grammar::words(title);
        if t.is_empty() {
            fixer.report(
                Code::UnrepresentableHeader,
                Severity::Warning,
                "an empty title cannot be written; it was left out",
                Pos::UNKNOWN,
            );
        } else {
            if &t != title {
                fixer.report(
                    Code::WhitespaceNormalized,
                    Severity::Info,
                    "white space in the title was normalised",
                    Pos::UNKNOWN,
                );
            }
            out.title = Some(t);
        }
    }
    if let Some(lang) = &meta.lang {
        if is_language_code(lang) {
            out.lang = Some(lang.clone());
        } else {
            fixer.report(
                Code::UnrepresentableHeader,
                Severity::Warning,
                format!("`{lang}` is not a language code the header can hold; it was left out"),
                Pos::UNKNOWN,
            );
        }
    }
    for m in &meta.metas {
        if !is_word(&m.name) {
            fixer.report(
                Code::UnrepresentableHeader,
                Severity::Warning,
                format!(
                    "meta name `{}` is empty or has white space; the entry was left out",
                    m.name
                ),
                m.pos,
            );
            continue;
        }
        let content = crate::grammar::words(&m.content);
        if content != m.content {
            fixer.report(
                Code::WhitespaceNormalized,
                Severity::Info,
                format!(
                    "white space in the content of meta `{}` was normalised",
                    m.name
                ),
                m.pos,
            );
        }
        out.metas.push(Meta {
            name: m.name.clone(),
            content,
            pos: m.pos,
        });
    }
    for l in &meta.links {
        if !is_word(&l.href) {
            fixer.report(
                Code::UnrepresentableHeader,
                Severity::Warning,
                format!(
                    "link href `{}` is empty or has white space; the entry was left out",
                    l.href
                ),
                l.pos,
            );
            continue;
        }
        let mut rel = Vec::new();
        for r in &l.rel {
            if is_word(r) && !r.contains(':') {
                rel.push(r.clone());
            } else {
                fixer.report(
                    Code::UnrepresentableHeader,
                    Severity::Warning,
                    format!("rel value `{r}` is empty or has white space or `:`; it was left out"),
                    l.pos,
                );
            }
        }
        let title = l.title.as_deref().map(crate::grammar::words);
        if title.as_deref() != l.title.as_deref() {
            fixer.report(
                Code::WhitespaceNormalized,
                Severity::Info,
                "white space in a link title was normalised",
                l.pos,
            );
        }
        out.links.push(Link {
            rel,
            href: l.href.clone(),
            title: title.filter(|t| !t.is_empty()),
            pos: l.pos,
        });
    }
    out
}
