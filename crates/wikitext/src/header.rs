//! The metadata header (seed 000 "Meta Data"): the lines up to the first
//! empty line, each a `#Title`, `#Lang`, `#Meta:`, `#Link:`, `#Escape \`
//! or `#Extend` line, read into [`Metadata`]. The pull parser reads the header with it
//! before the body, and the near-miss hints read it for `#Escape \`.

use crate::diag::{Code, Diagnostic, Severity, Span};
use crate::lines::SrcLine;
use crate::model::{Link, Meta, Metadata, Pos};
use crate::scan::{HeaderLine, header_line, is_language_code};

fn line_span(line: &SrcLine<'_>) -> Span {
    let end = line
        .col
        .saturating_add(u32::try_from(line.text.chars().count()).unwrap_or(u32::MAX));
    Span::new(line.num, line.col, line.num, end)
}

fn words(list: &[&str]) -> String {
    list.join(" ")
}

/// Seed 000 "Meta Data": each line is split into white-space-separated
/// words; the case-insensitive first word says what the line defines.
/// Unknown and invalid lines are ignored, each with a warning.
pub(crate) fn parse_header(lines: &[SrcLine<'_>], diags: &mut Vec<Diagnostic>) -> Metadata {
    let mut meta = Metadata::default();
    let mut valid = 0usize;
    let first_diag = diags.len();
    // Where lines of prose (not starting with `#`) were reported unknown:
    // when no line is metadata, the one `header-swallowed-text` warning
    // says it for them all.
    let mut prose = Vec::new();
    for line in lines {
        let span = line_span(line);
        let pos = Pos::new(line.num, line.col);
        let mut invalid = |why: &str| {
            diags.push(Diagnostic::new(
                Code::InvalidHeaderLine,
                Severity::Warning,
                format!("header line ignored: {why}"),
                span,
            ));
        };
        match header_line(line.text) {
            HeaderLine::Title(rest) => {
                if rest.is_empty() {
                    invalid("`#Title` without a title");
                    continue;
                }
                if meta.title.is_some() {
                    diags.push(Diagnostic::new(
                        Code::DuplicateHeaderLine,
                        Severity::Warning,
                        "a second `#Title` replaces the first",
                        span,
                    ));
                }
                meta.title = Some(words(&rest));
                valid += 1;
            }
            HeaderLine::Lang(rest) => match rest.as_slice() {
                [code] if is_language_code(code) => {
                    if meta.lang.is_some() {
                        diags.push(Diagnostic::new(
                            Code::DuplicateHeaderLine,
                            Severity::Warning,
                            "a second `#Lang` replaces the first",
                            span,
                        ));
                    }
                    meta.lang = Some((*code).to_owned());
                    valid += 1;
                }
                [] => invalid("`#Lang` without a language code"),
                [code] => invalid(&format!(
                    "`{code}` is not a language code (like `en` or `en-us`)"
                )),
                _ => invalid("`#Lang` takes one word, a language code"),
            },
            HeaderLine::Escape(rest) => match rest.as_slice() {
                [mark] if *mark == crate::grammar::ESCAPE_MARK => {
                    if meta.escape {
                        diags.push(Diagnostic::new(
                            Code::DuplicateHeaderLine,
                            Severity::Warning,
                            "a second `#Escape \\` says nothing new",
                            span,
                        ));
                    }
                    meta.escape = true;
                    valid += 1;
                }
                _ => invalid(&format!(
                    "`#Escape` takes one word, `{}` (the only escape character)",
                    crate::grammar::ESCAPE_MARK
                )),
            },
            HeaderLine::Extend(words) => {
                if words.is_empty() {
                    invalid("`#Extend` needs one or more feature words, such as `open`");
                    continue;
                }
                extend(&words, &mut meta, span, diags);
                valid += 1;
            }
            HeaderLine::Meta(name, rest) => {
                if name.is_empty() {
                    invalid("`#Meta:` needs a name right after the colon, as in `#Meta:keywords`");
                    continue;
                }
                meta.metas.push(Meta {
                    name: name.to_owned(),
                    content: words(&rest),
                    pos,
                });
                valid += 1;
            }
            HeaderLine::Link(rels, rest) => {
                let Some((href, title)) = rest.split_first() else {
                    invalid("`#Link:` needs an href as its second word");
                    continue;
                };
                meta.links.push(Link {
                    rel: rels
                        .split(':')
                        .filter(|r| !r.is_empty())
                        .map(str::to_owned)
                        .collect(),
                    href: (*href).to_owned(),
                    title: (!title.is_empty()).then(|| words(title)),
                    pos,
                });
                valid += 1;
            }
            HeaderLine::Unknown => {
                let hint = if line.text.starts_with('#') {
                    ""
                } else {
                    prose.push(diags.len());
                    " (the header runs up to the first empty line; a document without \
                     header starts with an empty line)"
                };
                diags.push(Diagnostic::new(
                    Code::UnknownHeaderLine,
                    Severity::Warning,
                    format!("unknown header line ignored{hint}"),
                    span,
                ));
            }
        }
    }
    if valid == 0 && !lines.is_empty() {
        swallowed(lines, &prose, first_diag, diags);
    }
    meta
}

/// No header line was metadata: one `header-swallowed-text` warning, first
/// of the header's, says so for all of them, in place of the warnings on
/// each line of prose (at the indices `prose` of `diags`).
fn swallowed(
    lines: &[SrcLine<'_>],
    prose: &[usize],
    first_diag: usize,
    diags: &mut Vec<Diagnostic>,
) {
    // One pass (the indices are in order): a header of many lines of prose
    // stays linear.
    let (mut next, mut at) = (0, 0);
    diags.retain(|_| {
        let drop = prose.get(next) == Some(&at);
        next += usize::from(drop);
        at += 1;
        !drop
    });
    let (first, last) = (lines.first(), lines.last());
    let span = match (first, last) {
        (Some(f), Some(l)) => Span::new(f.num, f.col, l.num, line_span(l).end_column),
        _ => Span::default(),
    };
    diags.insert(
        first_diag,
        Diagnostic::new(
            Code::HeaderSwallowedText,
            Severity::Warning,
            format!(
                "none of the {} line(s) before the first empty line is metadata, yet they \
                 were read as the header and dropped; start the document with an empty \
                 line if it has no header",
                lines.len()
            ),
            span,
        ),
    );
}

/// The feature words of an `#Extend` line: the known ones apply (a second
/// line adds to the first), each unknown one is a warning.
fn extend(words: &[&str], meta: &mut Metadata, span: Span, diags: &mut Vec<Diagnostic>) {
    for word in words {
        if word.eq_ignore_ascii_case(crate::grammar::FEATURE_OPEN) {
            meta.open = true;
        } else if word.eq_ignore_ascii_case(crate::grammar::FEATURE_IMAGE) {
            meta.image = true;
        } else if word.eq_ignore_ascii_case(crate::grammar::FEATURE_TABLE) {
            meta.table = true;
        } else if word.eq_ignore_ascii_case(crate::grammar::FEATURE_FIGURE) {
            meta.figure = true;
        } else if word.eq_ignore_ascii_case(crate::grammar::FEATURE_BREAK) {
            meta.breaks = true;
        } else if word.eq_ignore_ascii_case(crate::grammar::FEATURE_SUBSUP) {
            meta.subsup = true;
        } else {
            diags.push(Diagnostic::new(
                Code::InvalidHeaderLine,
                Severity::Warning,
                format!(
                    "unknown feature `{word}` ignored (known: `{}`, `{}`, `{}`, `{}`, `{}`, `{}`)",
                    crate::grammar::FEATURE_IMAGE,
                    crate::grammar::FEATURE_TABLE,
                    crate::grammar::FEATURE_FIGURE,
                    crate::grammar::FEATURE_BREAK,
                    crate::grammar::FEATURE_SUBSUP,
                    crate::grammar::FEATURE_OPEN
                ),
                span,
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse;

    #[test]
    fn seed_header() {
        let text = "#Title A Simple HTML Document\n#Lang en-us\n\
            #Meta:description This is an example of a simple HTML document.\n\
            #Meta:keywords example, HTML document, inline markup\n#Meta:date 2004-06-30\n\
            #Link:stylesheet styles/default.css\n\
            #Link:alternate:stylesheet styles/alternate.css Alternate Style\n\n";
        let parsed = parse(text);
        assert_eq!(parsed.diagnostics, vec![]);
        let meta = parsed.document.meta;
        assert_eq!(meta.title.as_deref(), Some("A Simple HTML Document"));
        assert_eq!(meta.lang.as_deref(), Some("en-us"));
        assert_eq!(
            meta.metas,
            vec![
                Meta::new(
                    "description",
                    "This is an example of a simple HTML document."
                ),
                Meta::new("keywords", "example, HTML document, inline markup"),
                Meta::new("date", "2004-06-30"),
            ]
        );
        assert_eq!(
            meta.links,
            vec![
                Link::new(vec!["stylesheet".into()], "styles/default.css", None),
                Link::new(
                    vec!["alternate".into(), "stylesheet".into()],
                    "styles/alternate.css",
                    Some("Alternate Style".into())
                ),
            ]
        );
        assert!(meta.metas[2].pos.same_place(&Pos::new(5, 1)));
    }

    #[test]
    fn case_insensitive_and_white_space() {
        let meta =
            parse("#TITLE   Two   words \n  #lang de\n#META:Author Me\n#link:ICON a.ico\n\n")
                .document
                .meta;
        assert_eq!(meta.title.as_deref(), Some("Two words"));
        assert_eq!(meta.lang.as_deref(), Some("de"));
        assert_eq!(meta.metas, vec![Meta::new("Author", "Me")]);
        assert_eq!(
            meta.links,
            vec![Link::new(vec!["ICON".into()], "a.ico", None)]
        );
    }

    #[test]
    fn invalid_and_unknown_lines_are_reported() {
        let parsed = parse("#Title x\n#Lang\n#Lang en us\n#Lang e_n\n#Meta: x\n#Link:a\n#Foo\n\n");
        let codes: Vec<_> = parsed
            .diagnostics
            .iter()
            .map(|d| (d.code, d.span.line))
            .collect();
        assert_eq!(
            codes,
            vec![
                (Code::InvalidHeaderLine, 2),
                (Code::InvalidHeaderLine, 3),
                (Code::InvalidHeaderLine, 4),
                (Code::InvalidHeaderLine, 5),
                (Code::InvalidHeaderLine, 6),
                (Code::UnknownHeaderLine, 7),
            ]
        );
        assert_eq!(parsed.document.meta.title.as_deref(), Some("x"));
        assert_eq!(parsed.document.meta.lang, None);
    }

    #[test]
    fn the_classic_trap_is_reported() {
        let parsed = parse("Just a paragraph\nof two lines.\n\nSecond paragraph.\n");
        assert_eq!(parsed.document.body.len(), 1);
        assert_eq!(parsed.diagnostics[0].code, Code::HeaderSwallowedText);
        assert_eq!(parsed.diagnostics[0].span, Span::new(1, 1, 2, 14));
        // One warning for the lines, not one more per line.
        assert_eq!(parsed.diagnostics.len(), 1);
        // A typo of a header word is named on its line as well.
        let typo = parse("#Titel x\n\nText.\n");
        let codes: Vec<_> = typo.diagnostics.iter().map(|d| d.code).collect();
        assert_eq!(codes, [Code::HeaderSwallowedText, Code::UnknownHeaderLine]);
    }

    #[test]
    fn duplicates_replace() {
        let parsed = parse("#Title a\n#Title b\n\n");
        assert_eq!(parsed.document.meta.title.as_deref(), Some("b"));
        assert_eq!(parsed.diagnostics[0].code, Code::DuplicateHeaderLine);
    }

    #[test]
    fn link_rel_list() {
        let meta = parse("#Link: a.css\n#Link:a::b c d  e\n\n").document.meta;
        assert_eq!(
            meta.links,
            vec![
                Link::new(vec![], "a.css", None),
                Link::new(vec!["a".into(), "b".into()], "c", Some("d e".into())),
            ]
        );
    }

    #[test]
    fn extend_declares_features() {
        let parsed = parse("#EXTEND open\n\n");
        assert!(parsed.document.meta.open);
        assert_eq!(parsed.diagnostics, vec![]);
        // Unknown words are reported; the known ones still apply, and a
        // second line adds its words.
        let parsed = parse("#Extend bogus\n#extend figures OPEN Image Table\n#Extend\n\n");
        assert!(parsed.document.meta.open);
        assert!(parsed.document.meta.image);
        assert!(parsed.document.meta.table);
        let codes: Vec<_> = parsed
            .diagnostics
            .iter()
            .map(|d| (d.code, d.span.line))
            .collect();
        assert_eq!(
            codes,
            vec![
                (Code::InvalidHeaderLine, 1),
                (Code::InvalidHeaderLine, 2),
                (Code::InvalidHeaderLine, 3),
            ]
        );
        assert!(!parse("#Title x\n\n").document.meta.open);
    }
}
